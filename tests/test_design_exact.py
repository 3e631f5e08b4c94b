"""cardlab.design.exact: the first player's open-hands value over every deal,
checked against an independent count for a small variant of each two-player
game, and the equilibrium value of the smallest hidden-card variant."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.design import deal_values, endgame, equilibrium_value
from cardlab.design.exact import open_game
from cardlab.errors import TooLargeError
from cardlab.hidden import open_hands_copy

#: the 10-card Koi-koi Nobori deck of tests/test_equilibrium.py
TINY_DECK = {"name": "tiny", "cards": {"higoi": 4, "aokoi": 3, "magoi": 3, "fukinagashi": 0, "kabutogaeshi": 0},
             "points": {"higoi": 2, "aokoi": 1, "magoi": 3}, "roles": []}


def brute_force(state, p=Fraction(1), out=None):
    """Every sequence of chance outcomes to the next decision, one by one (no
    merging of equal positions), each end solved on its own: value -> probability."""
    out = Counter() if out is None else out
    if state.current_player == CHANCE:
        for action, q in state.chance_outcomes():
            brute_force(state._apply(action), p * q, out)
    elif state.is_terminal():
        out[Fraction(state.returns()[0])] += p
    else:
        out[Fraction(cardlab.solve(state, progress=False).value)] += p
    return out


@pytest.mark.parametrize("game, options", [
    ("mipig", dict(hand_size=1, first_player=0)),
    ("koinobori", dict(deck=TINY_DECK)),
], ids=["mipig-1-card", "koinobori-10-cards"])
def test_every_deal_of_a_small_variant_against_a_brute_force_count(game, options):
    exact = deal_values(game, options)
    root = open_game(game, options).new_initial_state()
    assert dict(brute_force(root)) == exact.distribution
    assert sum(exact.distribution.values()) == 1
    assert exact.mean == cardlab.solve(root, progress=False).value  # the solver's own chance averaging
    assert len(exact.distribution) > 1  # a real distribution, not one value


def test_toritsuki_endgame_every_deal_against_a_brute_force_count():
    """TK-1: a deck holds at least 30 cards, so the small variant is an endgame."""
    position, viewer = endgame("toritsuki", seed=1, max_deals=60, max_nodes=5000)
    assert viewer is None and position.current_player == CHANCE
    exact = deal_values("toritsuki", position=position)
    assert dict(brute_force(open_hands_copy(position))) == exact.distribution
    assert exact.mean == cardlab.solve(open_hands_copy(position), progress=False).value


def fillings_by_permutation(state, viewer):
    """Every arrangement of the cards ``viewer`` cannot see, counted by
    brute force: every permutation of each group's cards laid into its places
    (each equally likely), kept when it agrees with what ``viewer`` saw."""
    h = state.hidden(viewer)
    seen = state.information_set(viewer)
    groups = []
    for cards, places in h.split():
        options = []
        for perm in itertools.permutations(cards):
            parts, i = [], 0
            for name, size in places:
                part = perm[i:i + size]
                parts.append(part if name in h.ordered else tuple(sorted(part, key=lambda c: (type(c).__name__, c))))
                i += size
            options.append(tuple(parts))
        groups.append(options)
    found = Counter()
    for combo in itertools.product(*groups):
        t = h.build(tuple(part for g in combo for part in g))
        if t is not None and t.information_set(viewer) == seen:
            found[open_hands_copy(t)] += 1
    total = sum(found.values())
    return {s: Fraction(n, total) for s, n in found.items()}


def test_mazemon_every_deal_a_player_cannot_see_against_a_brute_force_count():
    """MZ-1: the decks hold 10 cards and everything is dealt at the start, so
    the small variant is a late position and its deals the arrangements of
    the cards the player to move cannot see."""
    position, viewer = endgame("mazemon", seed=1, max_deals=60, max_nodes=5000)
    assert viewer == position.current_player and len(position.hidden(viewer).cards) <= 7
    exact = deal_values("mazemon", position=position, viewer=viewer, max_nodes=5000)
    count = Counter()
    for s, p in fillings_by_permutation(position, viewer).items():
        count[Fraction(cardlab.solve(s, progress=False).value)] += p
    assert dict(count) == exact.distribution
    assert len(exact.distribution) > 1


def test_too_many_deals_is_refused():
    with pytest.raises(TooLargeError, match="max_deals"):
        deal_values("mipig", dict(hand_size=2), max_deals=100)


def test_equilibrium_value_of_the_smallest_hidden_variant_is_unexploitable():
    from cardlab.equilibrium import best_response_value, game_tree, solve_equilibrium

    game = cardlab.load("koinobori", deck=TINY_DECK)
    v = equilibrium_value("koinobori", dict(deck=TINY_DECK))
    eq = solve_equilibrium(game.new_initial_state())
    G = game_tree(game.new_initial_state())
    # a best response to each side's equilibrium strategy gets exactly the value (a tree walk, not the LP)
    assert best_response_value(G, eq.strategies, 0) == v
    assert best_response_value(G, eq.strategies, 1) == -v
