"""Koi-koi Nobori's compact core agrees with the State on *every* state
reachable from the root of a few small games (issue S, item 7; as OpenSpiel
checks its Python games against their C++ twins): a breadth-first walk over
the State, equal states merged, comparing at each state the core's encode
and decode, the player, the moves (their number, order and notation), the
chance outcomes with their exact probabilities, the payoffs at the end,
the optional parts of the core protocol (``uniform_chance``,
``random_move``) and every child (``play`` is ``encode`` of ``apply``): the
shared walk of ``tests/agreement.py``, with the notation below and the payoffs
before the end (zeros)."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.cores import core_of
from cardlab.games.koinobori.rules import CARDS, COLOURS, KINDS

from agreement import every_state


def notation(code: int, state) -> str:
    """The action of a core move code (the core's module docstring), at ``state``."""
    if code >= 32:
        if state.stage == "first":
            return f"first {code - 32}"
        verb = {"deal": "deal", "refill": "refill"}.get(state.stage, "draw")
        return f"{verb} {CARDS[code - 32]}"
    if code < 6:
        return f"nobori {KINDS[code]}"
    if code < 9:
        return f"play {COLOURS[code - 6]}"
    if code < 15:
        return f"kabuto {KINDS[code - 9]}"
    return {15: "pass", 19: "agari", 20: "koikoi"}.get(code) or f"capture {COLOURS[code - 16]}"


#: ten cards: 3 on the field, 3 in each hand, one left in the deck at the start
TEN = {"cards": {"higoi": 3, "aokoi": 2, "magoi": 2, "fukinagashi": 2, "kabutogaeshi": 1},
       "points": {"higoi": 2, "aokoi": 1, "magoi": 3}}
#: the same with fukinagashi pairs' own points (KN-Q9) and two roles (KN-14)
TEN_ROLES = dict(TEN, fukinagashi_points={"higoi": 5},
                 roles=[{"name": "mitsunobori", "bonus": 3, "requires": {"higoi": 1, "aokoi": 1, "magoi": 1}},
                        {"name": "two", "bonus": 2, "requires": {"nobori": 2, "fukinagashi": 1}}])
#: a deck in which a player can reach a fourth nobori (KN-15: koi-koi won, failed, agari)
KOIKOI = {"cards": {"higoi": 5, "aokoi": 3, "magoi": 3, "fukinagashi": 1, "kabutogaeshi": 0},
          "points": {"higoi": 1, "aokoi": 2, "magoi": 3}}

#: (options, the number of states reachable from the root)
CONFIGURATIONS = [
    ({"deck": TEN}, 13_085),
    ({"deck": TEN, "open_hands": True, "refill_after_draw_capture": False, "payoff": "score", "first_player": 1},
     14_794),
    ({"deck": TEN_ROLES, "roles": True, "koikoi": True, "first_player": "random", "payoff": "score"}, 19_207),
    ({"deck": KOIKOI, "koikoi": True, "payoff": "score", "refill_after_draw_capture": False}, 14_887),
]


@pytest.mark.parametrize("options,states", CONFIGURATIONS, ids=[f"config{i}" for i in range(len(CONFIGURATIONS))])
def test_KN_core_agrees_with_state_on_every_reachable_state(options, states):
    """KN-1 … KN-Q12 on the core: every reachable state of a small game agrees."""
    game = cardlab.load("koinobori", **options)
    core = core_of(game)
    assert every_state(game.new_initial_state(), core, notation, returns_before_end=True) == states
