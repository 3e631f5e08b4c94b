"""Random sequences of clicks on a board (Hypothesis stateful testing): after
every step the board shows exactly the match it wraps, offers moves only in
the mover's own view, and a locked board refuses what is not for a student."""

from __future__ import annotations

import sys

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import pytest

import cardlab
from cardlab import render
from cardlab.core import CHANCE
from cardlab.errors import CardlabError
from cardlab.widgets import board


# the hint's solver raises the recursion limit; do it first, so that Hypothesis
# does not warn about a limit changed during a test
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


class ClickingAtABoard(RuleBasedStateMachine):
    """Someone clicks every control of a Koi-koi Nobori board in any order."""

    @initialize(seed=st.integers(0, 10_000), koikoi=st.booleans(), locked=st.booleans())
    def open_board(self, seed, koikoi, locked):
        game = cardlab.load("koinobori", koikoi=koikoi)
        self.b = board(game, ["person", "random"], seed=seed, hint_nodes=300, seat=0, locked=locked,
                       agent_options={"mcts": {"iterations": 10}})

    @precondition(lambda self: bool(self.b.action_buttons))
    @rule(data=st.data())
    def click_an_action(self, data):
        before, n = self.b.state, len(self.b.match.history)
        action = data.draw(st.sampled_from(sorted(self.b.action_buttons)))
        self.b.action_buttons[action].click()
        move = self.b.match.history[n]
        assert (move.player, move.action) == (before.current_player, action)
        assert self.b.states()[n + 1] == before.apply(action)

    def refused_on_a_locked_board(self, fn, *args) -> None:
        """A locked board refuses ``fn(*args)`` naming what is allowed, and nothing changes."""
        b = self.b
        before = (b.state, len(b.match.history), b.players, b.perspective, dict(b.game.options))
        with pytest.raises(CardlabError, match="is locked to player 0: .* allowed are your own moves"):
            fn(*args)
        assert (b.state, len(b.match.history), b.players, b.perspective, dict(b.game.options)) == before

    @rule()
    def undo(self):
        if self.b.locked:
            return self.refused_on_a_locked_board(self.b.undo)
        could = not self.b.undo_button.disabled
        n = len(self.b.match.history)
        self.b.undo_button.click()
        assert (len(self.b.match.history) < n) == could

    @rule()
    def redo(self):
        if self.b.locked:
            return self.refused_on_a_locked_board(self.b.redo)
        could = not self.b.redo_button.disabled
        n = len(self.b.match.history)
        self.b.redo_button.click()
        assert (len(self.b.match.history) > n) == could

    @rule()
    def new_game(self):
        self.b.new_button.click()
        assert not self.b.match.can_redo()

    @rule(view=st.sampled_from([1, "mover", "all"]))
    def change_view(self, view):
        if self.b.locked:
            return self.refused_on_a_locked_board(self.b.set_perspective, view)
        self.b.view_picker.value = view

    @rule(seat=st.sampled_from([0, 1]), who=st.sampled_from(["person", "random", "heuristic", "mcts"]))
    def change_seat(self, seat, who):
        if self.b.locked:
            return self.refused_on_a_locked_board(self.b.set_player, seat, who)
        self.b.seat_pickers[seat].value = who
        assert self.b.players[seat] == who

    @precondition(lambda self: self.b.waiting_for is not None)
    @rule()
    def pass_the_screen(self):
        p = self.b.waiting_for
        self.b.ready_button.click()
        assert self.b.waiting_for is None and self.b.perspective == p

    @precondition(lambda self: not self.b.step_button.disabled)
    @rule()
    def step(self):
        n = len(self.b.match.history)
        self.b.step_button.click()
        assert len(self.b.match.history) > n and self.b.state.current_player != CHANCE

    @precondition(lambda self: not self.b.run_button.disabled)
    @rule()
    def run(self):
        self.b.run_button.click()
        assert self.b.state.is_terminal() or self.b.match.to_move_is_person()

    @rule()
    def hint(self):
        b, p = self.b, self.b.state.current_player
        shown = p >= 0 and b.waiting_for is None and b.perspective in (None, p)  # the mover's own view
        assert self.b.hint_button.disabled == (not shown)
        msg = self.b.hint()
        if shown:
            assert ("fair hint" in msg or "estimate" in msg or "exact value" in msg) and "too large" not in msg
            assert self.b.hint_html.value.startswith("<div><b>Hint</b>") and self.b.best_actions()
        else:
            assert msg.startswith("No hint")

    @rule()
    def toggle_autoplay(self):
        self.b.auto_box.value = not self.b.auto_box.value

    @invariant()
    def board_shows_the_match(self):
        b = self.b
        s = b.state
        states = b.states()
        assert states[-1] == s and len(states) == len(b.match.history) + 1
        p = s.current_player
        mine = p >= 0 and b.match.to_move_is_person() and b.waiting_for is None and b.perspective in (None, p)
        assert b.moves_shown() == mine
        assert list(b.action_buttons) == (s.legal_actions() if mine else [])
        if b.waiting_for is None:
            assert b.table.value == render.html(s, perspective=b.perspective)
            lines = b.log_html.value.count("<br>") + bool(b.match.history)
            assert len(b.log_lines()) == len(b.match.history) == lines
        else:  # two persons, between their turns: nothing of the game is drawn
            assert b.table.value == b.log_html.value == b.explanation.value == b.hint_html.value == ""
        if b.locked:
            assert b.perspective == 0 and "reveal all" not in repr(b.children)
            assert b.undo_button not in b.children[5].children
        assert b.undo_button.disabled == (not b._can_undo())
        assert b.redo_button.disabled == (b.locked or not b.match.can_redo())
        assert not b._message or "nothing to" in b._message or "game is over" in b._message


ClickingAtABoard.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None,
                                              suppress_health_check=[HealthCheck.too_slow])
test_clicking_at_a_board = ClickingAtABoard.TestCase
