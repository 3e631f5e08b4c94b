"""Random sequences of clicks on a board (Hypothesis stateful testing): after
every step the board shows exactly the match it wraps."""

from __future__ import annotations

import sys

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardlab import render
from cardlab.core import CHANCE
from cardlab.widgets import board


# the hint's solver raises the recursion limit; do it first, so that Hypothesis
# does not warn about a limit changed during a test
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))


class ClickingAtABoard(RuleBasedStateMachine):
    """Someone clicks every control of a Koi-koi Nobori board in any order."""

    @initialize(seed=st.integers(0, 10_000), koikoi=st.booleans())
    def open_board(self, seed, koikoi):
        self.b = board("koinobori", ["person", "random"], seed=seed, hint_max_nodes=300,
                       agent_options={"mcts": {"iterations": 10}})
        if koikoi:
            self.b.option_widgets["koikoi"].value = True

    @precondition(lambda self: bool(self.b.action_buttons))
    @rule(data=st.data())
    def click_an_action(self, data):
        before, n = self.b.state, len(self.b.match.history)
        action = data.draw(st.sampled_from(sorted(self.b.action_buttons)))
        self.b.action_buttons[action].click()
        move = self.b.match.history[n]
        assert (move.player, move.action) == (before.current_player, action)
        assert self.b.states()[n + 1] == before.apply(action)

    @rule()
    def undo(self):
        could = not self.b.undo_button.disabled
        n = len(self.b.match.history)
        self.b.undo_button.click()
        assert (len(self.b.match.history) < n) == could

    @rule()
    def redo(self):
        could = not self.b.redo_button.disabled
        n = len(self.b.match.history)
        self.b.redo_button.click()
        assert (len(self.b.match.history) > n) == could

    @rule()
    def new_game(self):
        self.b.new_button.click()
        assert not self.b.match.can_redo()

    @rule(view=st.sampled_from([0, 1, "mover", "all"]))
    def change_view(self, view):
        self.b.view_picker.value = view

    @rule(seat=st.sampled_from([0, 1]), who=st.sampled_from(["person", "random", "heuristic", "mcts"]))
    def change_seat(self, seat, who):
        self.b.seat_pickers[seat].value = who
        assert self.b.players[seat] == who

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
        self.b.hint_button.click()
        if self.b.state.current_player >= 0:
            assert "Hint" in self.b.hint_html.value or "too large" in self.b.hint_html.value

    @rule()
    def toggle_autoplay(self):
        self.b.auto_box.value = not self.b.auto_box.value

    @invariant()
    def board_shows_the_match(self):
        b = self.b
        s = b.state
        states = b.states()
        assert states[-1] == s and len(states) == len(b.match.history) + 1
        if s.current_player >= 0 and b.match.to_move_is_person():
            assert list(b.action_buttons) == s.legal_actions()
        else:
            assert b.action_buttons == {}
        assert b.table.value == render.html(s, perspective=b.perspective)
        assert b.undo_button.disabled == (not b._can_undo())
        assert b.redo_button.disabled == (not b.match.can_redo())
        assert len(b.log_lines()) == len(b.match.history)
        assert not b._message or "nothing to" in b._message or "game is over" in b._message


ClickingAtABoard.TestCase.settings = settings(max_examples=25, stateful_step_count=25, deadline=None,
                                              suppress_health_check=[HealthCheck.too_slow])
test_clicking_at_a_board = ClickingAtABoard.TestCase
