"""Issue U item 5: solving puzzles one after another (``cardlab.puzzles.session``)
and the notebook's puzzle board (``cardlab.widgets.puzzle``)."""

from __future__ import annotations

import html

import pytest

from cardlab.glicko import Glicko
from cardlab.hidden import arrangements
from cardlab.puzzles import PuzzleError, load
from cardlab.puzzles.session import Session

widgets = pytest.importorskip("ipywidgets")
from cardlab.widgets.puzzle import PuzzleBoard  # noqa: E402


def _mover_moves(p):
    return p.mover_moves


def test_session_right_answers_solve_and_raise_the_rating():
    s = Session("mazemon")
    p = s.next()
    moves = _mover_moves(p)
    results = [s.answer(m) for m in moves]
    assert all(r.right for r in results) and results[-1].done and not any(r.done for r in results[:-1])
    assert s.rating.rating > 1500 and s.puzzle_ratings[p.id].rating < p.rating
    assert s.history == [{"puzzle": p.id, "solved": True, "before": 1500.0, "rating": round(s.rating.rating, 1)}]
    assert s.state == _end(p)


def _end(p):
    s = p.state
    for m in p.solution:
        s = s.apply(m)
    return s


def test_session_wrong_answer_costs_and_plays_the_solution_out():
    s = Session("koinobori", rating=Glicko(1500, 100))
    p = s.next()
    wrong = next(a for a in p.state.legal_actions() if a != p.answer)
    r = s.answer(wrong)
    assert not r.right and r.done and r.best == p.answer and r.cost == p.cost(wrong) > 0
    assert r.played == list(p.solution) and s.rating.rating < 1500
    with pytest.raises(PuzzleError, match="no puzzle is waiting"):
        s.answer(p.answer)
    nxt = s.next()
    assert nxt.id != p.id  # the next one is another


def test_session_picks_by_theme_and_rating():
    theme = next(t for p in load("koinobori") for t in p.themes)
    s = Session("koinobori", theme=theme, rating=Glicko(1900, 100))
    p = s.next()
    assert theme in p.themes
    assert abs(p.rating - 1900) == min(abs(q.rating - 1900) for q in s.puzzles)
    with pytest.raises(PuzzleError, match="is not a legal move"):
        s.answer("fly away")


def test_board_right_then_next():
    b = PuzzleBoard("mazemon", language="en")
    first = b.puzzle
    for m in _mover_moves(first):
        buttons = {c.tooltip: c for c in b.moves.children}
        buttons[m].click()
    assert b.feedback.value.startswith("Right: ") and "Wrong" not in b.feedback.value
    assert first.explanation("en")[:40] in b.feedback.value.replace("&#x27;", "'")
    assert b.next_button.layout.display is None and b.moves.children == ()
    b.next_button.click()
    assert b.puzzle.id != first.id and b.feedback.value == "" and b.moves.children


def test_board_wrong_says_the_cost_in_japanese_too():
    b = PuzzleBoard("koinobori", language="ja")
    p = b.puzzle
    wrong = next(a for a in p.state.legal_actions() if a != p.answer)
    buttons = {c.tooltip: c.description for c in b.moves.children}
    r = b.choose(wrong)
    assert not r.right and p.explanation("ja") in b.feedback.value.replace("&#x27;", "'")
    # the moves named as their buttons read (出す: ひごい), not in the game's notation (play higoi)
    said = b.feedback.value.split("<br>")[0]
    assert buttons[wrong] in said and buttons[p.answer] in said and wrong not in said, said


def test_fair_puzzle_board_shows_only_what_the_mover_may_see():
    """The leak check: the same fair puzzle with the hidden cards lying
    another way draws the same picture and the same move buttons."""
    b = PuzzleBoard("koinobori", language="en")
    p = next(q for q in b.session.puzzles if q.kind == "fair")
    b.next_puzzle(p.id)
    seen = set()
    worlds = arrangements(p.state, p.mover, limit=500)
    assert len(worlds) > 1
    for world, _w in worlds[:4]:
        b.session.state = world
        b._draw()
        seen.add((b.picture.value, tuple(c.description for c in b.moves.children)))
    assert len(seen) == 1


@pytest.mark.parametrize("language", ["en", "ja"])
def test_board_explains_with_its_buttons_words(language):
    """Once the puzzle is over, the explanation on the board names every
    first move as its button reads, in the board's language, never in the
    game's notation (``attack -1,0 0,0``)."""
    b = PuzzleBoard("mipig", language=language)
    p = next(q for q in b.session.puzzles if len(q.values) > 2 and len(q.mover_moves) > 1)
    b.next_puzzle(p.id)
    buttons = {c.tooltip: c.description for c in b.moves.children}
    for m in _mover_moves(p):
        b.choose(m)
    explained = html.unescape(b.feedback.value.split("<br>")[-1])
    assert explained == p.explanation(language)
    for move, words in buttons.items():
        assert words != move and words in explained and move not in explained, (move, words, explained)
