"""Perft-style counts and solver cross-checks over the data of every game.

``tests/data/perft/<game>.json``: a list of ``{"name", "options", "position"
or "seed", "depth", "count"}``; ``count`` is the number of paths of exactly
``depth`` transitions (chance outcomes count as branches; paths that end
earlier count as one).  A mismatch prints the per-action breakdown.

``tests/data/reference/<game>.json``: positions (perfect information) where
``cardlab.solve`` must equal an independent brute force written here and
``cardlab.solve_tree`` on every node of the tree.  An entry may give the
exact ``value`` (a string such as ``"3/4"``) worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import cardlab
from cardlab import CHANCE

from conftest import data_entries, position

PERFT = data_entries("perft")
REFERENCE = data_entries("reference")


def perft(s, depth):
    if depth == 0 or s.is_terminal():
        return 1
    acts = [a for a, _ in s.chance_outcomes()] if s.current_player == CHANCE else s.legal_actions()
    return sum(perft(s._apply(a), depth - 1) for a in acts)


def divide(s, depth):
    acts = [a for a, _ in s.chance_outcomes()] if s.current_player == CHANCE else s.legal_actions()
    return {a: perft(s._apply(a), depth - 1) for a in acts}


@pytest.mark.parametrize("game,entry", [(g, e) for _, g, e in PERFT], ids=[i for i, _, _ in PERFT])
def test_perft(game, entry):
    s = position(game, entry)
    got = perft(s, entry["depth"])
    if got != entry["count"]:
        lines = "\n".join(f"  {a}: {n}" for a, n in divide(s, entry["depth"]).items())
        pytest.fail(f"perft({entry['depth']}) = {got}, expected {entry['count']}; divide:\n{lines}")


def brute_force(s):
    """Expectiminimax written independently of cardlab.solve: no table, no pruning."""
    if s.is_terminal():
        return Fraction(s.returns()[0])
    if s.current_player == CHANCE:
        return sum(p * brute_force(s.apply(a)) for a, p in s.chance_outcomes())
    vals = [brute_force(s.apply(a)) for a in s.legal_actions()]
    return max(vals) if s.current_player == 0 else min(vals)


@pytest.mark.parametrize("game,entry", [(g, e) for _, g, e in REFERENCE], ids=[i for i, _, _ in REFERENCE])
def test_solve_matches_brute_force_and_tree(game, entry):
    s = position(game, entry)
    sol = cardlab.solve(s, progress=False)
    if game.spec.num_players == 2:
        assert sol.value == brute_force(s)
    if "value" in entry:
        assert sol.value == Fraction(entry["value"])
    assert cardlab.minimax(s).value == sol.value
    G = cardlab.tree(s, max_nodes=200_000)
    values = cardlab.solve_tree(G)
    for n in G.nodes:
        if not G.nodes[n]["terminal"]:
            assert values[n][0] == cardlab.solve(G.nodes[n]["state"], progress=False).value, n
    assert values[0][0] == sol.value
    for a in sol.best_actions:
        assert cardlab.solve(s.apply(a), progress=False).value == sol.value
