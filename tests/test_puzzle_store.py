"""Issue U, items 4 and 5 in the class: puzzle attempts and Glicko-2 ratings
kept in the class store (``cardlab.puzzle_store``), the puzzle of the lesson
and its pages (``cardlab.widgets.lesson_puzzle``)."""

from __future__ import annotations

import html

import pytest

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL
from cardlab.glicko import Glicko
from cardlab.puzzle_store import PuzzleStore, UnknownPupilError
from cardlab.puzzles import PuzzleError, UnknownPuzzleError, load, puzzle
from cardlab.puzzles.session import PUZZLE_RD, Session
from cardlab.rooms import RoomStore

widgets = pytest.importorskip("ipywidgets")
from cardlab.widgets.app import play_app  # noqa: E402
from cardlab.widgets.lesson_puzzle import LessonPuzzlePage  # noqa: E402
from cardlab.widgets.room import JoinBox, Lobby  # noqa: E402

PUPILS = ["Aiko", "Ben", "Chie"]


@pytest.fixture
def book(db):
    store = RoomStore(db)
    store.set_roster(PUPILS)
    yield PuzzleStore(store)
    store.close()


def _wrong(p):
    return next(a for a in p.state.legal_actions() if a != p.answer)


def _counts(book):
    return [book.store.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("puzzle_attempts", "puzzle_ratings", "lesson_puzzles")]


def _same(a: Glicko, b: Glicko) -> bool:
    return a.rating == pytest.approx(b.rating) and a.rd == pytest.approx(b.rd) and a.vol == pytest.approx(b.vol)


def test_attempts_are_rated_by_glicko2_as_a_session_rates_them(book):
    first, second = load("mazemon")[3], load("mazemon")[10]
    s = Session("mazemon")
    s.next(first.id)
    s.answer(_wrong(first))
    s.next(second.id)
    for m in book.mover_moves(second):
        s.answer(m)
    a = book.record("Aiko", first.id, [_wrong(first)])
    b = book.record("Aiko", second.id, book.mover_moves(second))
    assert (a.solved, b.solved, a.rated, b.rated) == (False, True, True, True)
    assert _same(b.rating, s.rating) and _same(book.rating("Aiko"), s.rating)
    assert b.before == pytest.approx(a.rating.rating) and a.before == 1500
    for p in (first, second):
        assert _same(book.puzzle_rating(p), s.puzzle_ratings[p.id])
    assert book.rating("Ben") == Glicko()  # nobody else moved
    assert book.puzzle_rating(load("mazemon")[0]) == Glicko(float(load("mazemon")[0].rating), PUZZLE_RD)


def test_right_or_wrong_is_judged_from_the_moves_not_from_the_page(book):
    p = next(q for q in load("mazemon") if len(book.mover_moves(q)) >= 2)  # a solution of several moves
    moves = book.mover_moves(p)
    assert book.record("Ben", p.id, moves).solved
    s, turns = p.state, 0  # the position of the mover's second move
    for m in p.solution:
        turns += s.current_player == p.mover
        if turns == 2:
            break
        s = s.apply(m)
    other = next(a for a in s.legal_actions() if a != moves[1])
    assert not book.record("Chie", p.id, [moves[0], other]).solved  # the first right, the second wrong
    with pytest.raises(PuzzleError, match="not over"):
        book.record("Aiko", p.id, moves[:1])
    with pytest.raises(PuzzleError, match="was over at the wrong move"):
        book.record("Aiko", p.id, [_wrong(p), moves[1]])
    assert [a.pupil for a in book.attempts()] == ["Ben", "Chie"]


def test_only_the_first_attempt_at_a_puzzle_is_rated(book):
    p = load("koinobori")[0]
    first = book.record("Aiko", p.id, [_wrong(p)])
    again = book.record("Aiko", p.id, book.mover_moves(p))
    assert first.rated and not again.rated and again.solved
    assert again.rating == first.rating == book.rating("Aiko")
    assert book.puzzle_rating(p).rating == pytest.approx(first.puzzle_rating) == again.puzzle_rating
    assert [x.puzzle for x in book.attempts("Aiko")] == [p.id, p.id] and book.tried("Aiko") == [p.id]


def test_ratings_and_attempts_are_kept_across_a_restart_and_across_lessons(db, book):
    p, q = load("mipig")[0], load("mipig")[1]
    lp = book.set_lesson_puzzle(pid=p.id)
    a = book.record("Aiko", p.id, book.mover_moves(p))
    one = book.store.lesson().id
    book.store.close()
    store = RoomStore(db)  # the server restarts: the same file
    again = PuzzleStore(store)
    assert _same(again.rating("Aiko"), a.rating) and again.lesson_puzzle().puzzle.id == lp.id
    assert [x.puzzle for x in again.attempts("Aiko", one)] == [p.id]
    two = store.new_lesson("second").id
    assert again.lesson_puzzle() is None  # a new lesson: no puzzle set yet
    assert _same(again.rating("Aiko"), a.rating)  # the rating goes on from the last lesson
    b = again.record("Aiko", q.id, [_wrong(q)])
    assert b.lesson == two and b.before == pytest.approx(a.rating.rating)
    assert [h[:3] for h in again.history("Aiko")] == [(one, 1, 1), (two, 1, 0)]
    assert again.attempts("Aiko", two) == [b] and again.check_key("Aiko", again.key("Aiko"))
    store.close()


def test_the_default_puzzle_of_the_lesson_is_near_the_class_median_and_new(book):
    theme = next(t for q in load("mazemon") for t in q.themes)
    chosen = [book.set_lesson_puzzle(game="mazemon", theme=theme) for _i in range(3)]
    assert len({p.id for p in chosen}) == 3 and all(theme in p.themes for p in chosen)
    pool = load("mazemon", theme=theme)
    first = min(pool, key=lambda q: (abs(q.rating - 1500), q.id))  # a new class: median 1500
    assert chosen[0].id == first.id and book.lesson_puzzle().puzzle.id == chosen[-1].id
    assert book.lesson_puzzle().theme == theme
    assert book.median() == 1500


@pytest.mark.parametrize("bad, error, match", [
    (dict(pid="mipig-9999"), UnknownPuzzleError, "no puzzle 'mipig-9999'"),
    (dict(pid="chess-0001"), UnknownPuzzleError, "a puzzle id is a game and a number"),
    (dict(game="mipig", theme="XX-99"), UnknownPuzzleError, "no puzzle of mipig has the theme 'XX-99'"),
    (dict(), PuzzleError, "choose a game"),
    (dict(game="koinobori", pid="mipig-0001"), UnknownPuzzleError, "not a puzzle of koinobori"),
])
def test_bad_choices_of_the_puzzle_of_the_lesson_store_nothing(book, bad, error, match):
    with pytest.raises(error, match=match):
        book.set_lesson_puzzle(**bad)
    assert _counts(book) == [0, 0, 0] and book.lesson_puzzle() is None


def test_bad_attempts_store_nothing(book):
    p = load("mipig")[0]
    with pytest.raises(UnknownPupilError, match="'Zed' is not on the class's list; the pupils are: Aiko, Ben, Chie"):
        book.record("Zed", p.id, [p.answer])
    with pytest.raises(UnknownPuzzleError, match="no puzzle 'mipig-9999'"):
        book.record("Aiko", "mipig-9999", [p.answer])
    with pytest.raises(PuzzleError, match="not a legal move"):
        book.record("Aiko", p.id, ["fly away"])
    with pytest.raises(PuzzleError, match="needs the pupil's moves"):
        book.record("Aiko", p.id, [])
    assert _counts(book) == [0, 0, 0] and book.rating("Aiko") == Glicko()
    assert not book.check_key("Zed", book.key("Zed")) and not book.check_key("Aiko", book.key("Ben"))
    with pytest.raises(UnknownPupilError):
        book.code("Zed")


def test_the_teacher_sets_the_puzzle_a_pupil_answers_and_the_table_shows_it(db, monkeypatch):
    store = RoomStore(db)
    lobby = Lobby(store, poll=None, base="http://class/", language="en")
    lobby.names.value = "\n".join(PUPILS)
    panel = lobby.lesson_puzzle
    panel.game.value = "koinobori"
    p = panel.set_puzzle()
    assert p is not None and store.roster() == PUPILS and p.id in panel.current.value
    book = PuzzleStore(store)
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    page = play_app(query=book.link("Ben")[1:])
    assert isinstance(page, LessonPuzzlePage) and page.board.puzzle.id == p.id
    board = page.board
    assert board._viewer() == (p.mover if p.kind == "fair" else None)  # the mover's view only
    r = board.choose(_wrong(p))
    assert not r.right and "Wrong" in board.feedback.value and p.explanation("en")[:30] in board.feedback.value
    assert "1500 →" in board.saved.value and book.attempts("Ben")[0].puzzle == p.id
    board.next_puzzle()
    q = board.puzzle
    assert q.id != p.id and q.game == "koinobori"
    for m in book.mover_moves(q):
        r = board.choose(m)
    assert r.right and [a.solved for a in book.attempts("Ben")] == [False, True]
    lobby.refresh()
    table = panel.table.value
    assert f"{p.id} ✗" in table and f"{q.id} ✓" in table and str(book.rating("Ben")) in table
    links = panel.links.value
    assert html.escape(book.link("Aiko", "http://class/")) in links and book.code("Aiko") in links
    joined = JoinBox(store, language="ja")
    joined.code.value = book.code("Chie").lower()
    assert isinstance(joined.join(), LessonPuzzlePage) and "Chie" in joined.children[0].head.value
    store.close()


def test_a_new_puzzle_of_the_lesson_reaches_the_pupil_page_but_not_mid_puzzle(book):
    p = book.set_lesson_puzzle(pid="mazemon-0001")
    page = LessonPuzzlePage(book.store, "Aiko", poll=None)
    assert page.board.puzzle.id == p.id and not page.sync()
    q = book.set_lesson_puzzle(pid="mazemon-0002")
    assert page.sync() and page.board.puzzle.id == q.id
    page.close()


def test_puzzle_links_open_practice_or_say_what_is_wrong(db, monkeypatch):
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    board = play_app(query="puzzle=mipig-0002&lang=ja")
    assert board.puzzle.id == "mipig-0002" and board.language == "ja"
    assert "does not open a puzzle" in play_app(query="puzzle=mipig-9999").value
    assert "do not belong together" in play_app(query="puzzle=lesson&pupil=Aiko&key=0").value
    assert puzzle("mipig", "mipig-0002").id == "mipig-0002"


def test_the_teachers_section_picks_by_theme_and_refuses_a_bad_id(book):
    from cardlab.widgets.lesson_puzzle import LessonPuzzlePanel

    panel = LessonPuzzlePanel(book.store, language=lambda: "en")
    assert panel.theme.value == "" and panel.theme.label == "any theme"
    panel.game.value = "mazemon"
    key = panel.theme.options[1][1]
    panel.theme.value = key
    p = panel.set_puzzle()
    assert key in p.themes and p.game == "mazemon" and book.lesson_puzzle().theme == key
    panel.pid.value = "mazemon-9999"
    assert panel.set_puzzle() is None and "no puzzle set: no puzzle &#x27;mazemon-9999&#x27;" in panel.message.value
    assert book.lesson_puzzle().puzzle.id == p.id and _counts(book)[2] == 1


def test_the_table_shows_earlier_lessons_by_name(book):
    from cardlab.widgets.lesson_puzzle import attempts_html

    p = load("mipig")[2]
    book.store.new_lesson("week 1")
    a = book.record("Chie", p.id, book.mover_moves(p))
    book.store.new_lesson("week 2")
    table = attempts_html(book, PUPILS)
    assert f"week 1: 1 of 1 solved, {a.rating.rating:.0f}" in table and f"{p.id} ✓" not in table
    assert table.count("<tr>") == 1 + len(PUPILS)


def test_the_table_names_the_pupils_moves_as_their_board_did(book):
    """The teacher's table lists each attempt's moves with the words of the
    pupil's board (``attack 攻撃: 0,0 → -1,0``), not in notation."""
    from cardlab import i18n, render
    from cardlab.widgets.lesson_puzzle import attempts_html

    p = next(q for q in load("mipig") if len(book.mover_moves(q)) > 1)
    moves = book.mover_moves(p)
    book.record("Chie", p.id, moves)
    with i18n.using("en"):
        table = html.unescape(attempts_html(book, PUPILS))
        states = [s for s in p.positions if s.current_player == p.mover]
        words = [render.seen_move(s, m, p.mover).label for s, m in zip(states, moves)]
    assert f"{p.id} ✓ ({', '.join(words)})" in table and not any(m in table for m in moves), table
