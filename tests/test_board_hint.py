"""The board's hint answers at every decision (issue T, item 5): the anytime
analysis, each move with its value (exact, or an estimate ± its interval),
the best marked, one sentence a pupil reads; "think longer"; a locked board
without numeric caps; a hint in a thread that shows progress and stops."""

from __future__ import annotations

import html
import time

import ipywidgets as widgets
import pytest

import cardlab
from cardlab import render
from cardlab.widgets import board


def person_first(game: cardlab.Game) -> list[str]:
    return ["person"] + ["heuristic"] * (game.spec.num_players - 1)


def all_widgets(w: widgets.Widget) -> list[widgets.Widget]:
    """``w`` and every widget drawn inside it."""
    out = [w]
    for child in getattr(w, "children", ()):
        out += all_widgets(child)
    return out


def test_hint_at_the_first_decision_of_every_game_values_every_move(game_name):
    """A pupil's locked board at its first decision: the hint answers (not
    "too large"), a value for every legal move, the best marked on its
    button, one sentence naming it as its button reads."""
    game = cardlab.load(game_name)
    b = board(game, person_first(game), seat=0, locked=True, seed=3, hint_nodes=3000)
    assert b.state.current_player == 0 and not b.hint_button.disabled
    page = b.hint()
    legal = b.state.legal_actions()
    assert "too large" not in page and page.startswith("<div><b>Hint</b>")
    for a in legal:
        assert f'<td title="{html.escape(a)}">{html.escape(render.action_label(b.state, a))}</td><td>' in page
    assert page.count("<tr") == 1 + len(legal)
    best = b.best_actions()
    assert best and set(best) <= set(legal)
    assert [a for a, w in b.action_buttons.items() if w.button_style == "success"] == best
    advice = html.unescape(page.split('class="cardlab-hint-advice"', 1)[1].split("</div>", 1)[0])
    assert any(render.action_label(b.state, a) in advice for a in best), advice
    assert "best" in advice


def test_locked_board_has_no_numeric_cap_boxes(game_name):
    """Issue T: the caps ("hint positions ≤", "samples") left the pupil's
    board; the teacher's one setting (the hint's seconds) is only on an
    unlocked board."""
    game = cardlab.load(game_name)
    b = board(game, person_first(game), seat=0, locked=True, seed=1)
    drawn = all_widgets(b)
    numeric = [w for w in drawn if isinstance(w, (widgets.IntText, widgets.BoundedIntText, widgets.FloatText,
                                                  widgets.BoundedFloatText))]
    assert numeric == [] and b.hint_seconds_box not in drawn
    assert not hasattr(b, "hint_nodes_box") and not hasattr(b, "hint_samples_box")
    for word in ("hint positions", "samples", "hint seconds"):
        assert all(word not in str(getattr(w, "description", "")) for w in drawn), word
    with pytest.raises(cardlab.CardlabError, match="this board is locked to player 0"):
        b.set_hint_seconds(10)
    assert b.hint_seconds == 2
    teacher = board(game, person_first(game), seed=1)
    assert teacher.hint_seconds_box in all_widgets(teacher) and teacher.hint_seconds_box.description == "hint seconds"
    teacher.hint_seconds_box.value = 5
    assert teacher.hint_seconds == 5
    teacher._guard(teacher.set_hint_seconds, -1)
    assert teacher.hint_seconds == 5 and "seconds must be a positive number" in teacher.status.value


def test_the_hint_in_a_thread_shows_progress_and_stops_with_the_answer_so_far():
    """In a kernel the button computes in a thread: the page stays alive,
    the progress bar moves, *stop* ends it at the next arrangement with the
    answer so far (here long before its 8 s)."""
    b = board("koinobori", ["person", "heuristic"], seat=0, locked=True, seed=3, hint_seconds=8)
    b.hint_in_thread = True
    progress = []
    b.hint_progress.observe(lambda ch: progress.append(ch["new"]), names="value")
    start = time.perf_counter()
    b.hint_button.click()
    assert time.perf_counter() - start < 1 and b.hint_running()
    assert b.stop_button.layout.display is None and b.hint_button.disabled
    assert b.hint_progress.layout.display is None
    time.sleep(0.5)
    b.stop_button.click()
    b.wait_for_hint(timeout=30)
    took = time.perf_counter() - start
    assert not b.hint_running() and took < 6, took
    page = b.hint_html.value
    assert "stopped early: the answer so far" in page and "positions searched within 8 s" in page
    assert b.best_actions() and progress and progress[-1] == 1000
    assert b.stop_button.layout.display == "none" and not b.hint_button.disabled
    assert b.hint_progress.layout.display == "none"
    assert b.think_button.layout.display is None  # an estimate: it may think longer


def test_a_hint_asked_at_a_position_left_meanwhile_is_not_shown():
    """The pupil moves while the hint thinks: the answer belonged to the
    position it was asked at, and is not shown at the new one."""
    b = board("koinobori", ["person", "heuristic"], seat=0, locked=True, seed=3, hint_seconds=1)
    b.hint_in_thread = True
    b.hint_button.click()
    b.action_buttons[b.state.legal_actions()[0]].click()
    b.wait_for_hint(timeout=30)
    assert b.best_actions() == [] and b.hint_html.value == ""
