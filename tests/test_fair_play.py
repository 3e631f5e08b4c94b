"""Fair play: no hidden card reaches a viewer who may not see it.

The leak test (equal information, equal output) runs on every registered
game: for positions of random and agent play, every viewer, and re-deals of
what that viewer cannot see, every text and picture shown must be the same.
"""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab import render

from leak import move_view, positions, state_view, twin

SEEDS = range(12)


def test_leak_equal_information_equal_output(game):
    """Positions and moves a viewer cannot tell apart look the same to that
    viewer: the table, the grid, the hand and moves of the player to move,
    and every move's log line, explanation and picture."""
    rng = random.Random(1)
    n = game.spec.num_players
    compared = 0
    for s, a in positions(game, SEEDS, agents=("random", "heuristic")):
        for v in range(n):
            found = twin(s, a, v, rng)
            if found is None:
                continue
            t, b = found
            assert state_view(t, v) == state_view(s, v), (v, s.to_dict(), t.to_dict())
            assert move_view(t, b, v) == move_view(s, a, v), (v, a, b, s.to_dict(), t.to_dict())
            assert state_view(t.apply(b), v) == state_view(s.apply(a), v), (v, a, b)
            compared += (t, b) != (s, a)
    if not game.spec.perfect_information:
        assert compared > 100, "the re-deals never changed anything: the leak test would test nothing"
