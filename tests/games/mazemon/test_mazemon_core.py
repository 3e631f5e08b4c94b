"""Issue S, item 7: the compact core (cardlab/games/mazemon/core.py) agrees
with the State on *every* state reachable from small positions, as OpenSpiel
checks its Python games against their C++ twins.

Mazemon has no smaller deck (ten cards each, MZ-1), so the small
configurations are endgames: the reference positions
(tests/data/reference/mazemon.json), each under several option sets (hidden hands: the direct attack's steal is a chance node,
MZ-22, MZ-Q2; per-monster materials, MZ-Q3; both-three draw, MZ-Q7; score
payoff), and three positions of seeded random games with their own
decks and options (some 20,000-26,000 states each).  A breadth-first walk over the State merges equal states; at each
one the core must give the same position (``encode``, ``decode``), player,
moves in the same order (each move played on both sides lands on the same
state), chance outcomes with the same probabilities, and returns: the shared
walk of ``tests/agreement.py``, once per root.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.core import sample_chance
from cardlab.cores import core_of

from agreement import every_state

REFERENCE = json.loads((Path(__file__).parents[2] / "data" / "reference" / "mazemon.json").read_text("utf-8"))
POSITIONS = {r["name"]: r["position"] for r in REFERENCE}
OPTION_SETS = {
    "open": {"open_hands": True},
    "hidden": {},
    "per_monster-draw": {"open_hands": True, "material_count": "per_monster", "both_three": "draw"},
    "score": {"payoff": "score"},
}


def _options_of(position, options):
    return {**position, "options": cardlab.load("mazemon", **options).options_dict()}


CASES = [(name, opts) for name in POSITIONS for opts in OPTION_SETS]


@pytest.mark.parametrize("name,opts", CASES, ids=[f"{n}-{o}" for n, o in CASES])
def test_core_agrees_with_state_on_every_reachable_state(name, opts):
    """MZ-1 … MZ-24, MZ-Q2, MZ-Q3, MZ-Q6, MZ-Q7: the whole game from each
    small position, under each option set."""
    game = cardlab.load("mazemon", **OPTION_SETS[opts])
    try:
        root = game.state_from_dict(_options_of(POSITIONS[name], OPTION_SETS[opts]))
    except cardlab.PositionError:  # (a position some option makes unreachable)
        pytest.skip("not a position under these options")
    assert every_state(root, core_of(game)) == STATES[name]


#: how many states each reference position reaches (the same under every option set here)
STATES = {"one-card-each-one-monster-each": 28, "two-cards-each-empty-boards": 106, "two-against-one": 197,
          "direct-attack-for-the-win": 36, "nothing-left-more-captures-win": 1, "substitute-decision": 1173,
          "steal-chance-one-third": 335, "steal-decides-one-third": 5133}

#: (options, seed, moves played from the start, states reached)
PLAYED = {
    "default-decks": ({"open_hands": True}, 0, 26, 25949),
    "hinoko-mirror-draw-score": ({"deck0": "hinoko", "deck1": "hinoko", "both_three": "draw", "payoff": "score"},
                                 2, 24, 21393),
}


@pytest.mark.parametrize("name", PLAYED)
def test_core_agrees_with_state_on_every_state_after_seeded_play(name):
    """MZ-1 … MZ-24 and the deck, material and end options: every state
    reachable from a position a seeded random game reached."""
    options, seed, moves, states = PLAYED[name]
    game = cardlab.load("mazemon", **options)
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(moves):
        s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert every_state(s, core_of(game)) == states
