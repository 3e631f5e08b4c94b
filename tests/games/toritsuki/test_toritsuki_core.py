"""Issue S item 7: the compact core against the State on *every* state
reachable from small roots (as OpenSpiel checks its Python games against
their C++ twins).

Decks have 30 cards or more (TK-1), so the whole game from the deal is far
too large to walk; the roots are the hand-made endgames of
``tests/data/reference/toritsuki.json`` (open hands; the icon file; a known
deck order), each walked completely by breadth-first search over the State
(equal states merged).  At every state: ``encode`` equality and
``decode(encode(s)) == s``, the player, the moves (number and order), the
chance probabilities, the payoffs at the end, and the protocol's optional
parts (``uniform_chance``, ``random_move``) where the core has them: the
shared walk of ``tests/agreement.py``, once per root.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardlab
from cardlab.games.toritsuki.core import make_core

from agreement import every_state

REFERENCE = json.loads((Path(__file__).parents[2] / "data" / "reference" / "toritsuki.json").read_text("utf-8"))
#: reference position -> the number of states reachable from it (the walk covers each)
STATES = {"pierce-hangs-on-the-defenders-reveal": 186, "known-order-reveal-ties": 21,
          "attacker-possession-from-deck": 245, "which-blocker": 11141, "last-turn-before-deck-out": 109,
          "no-pierce-the-deck-decides": 846, "rearrange-to-attack-twice": 6694}
#: the same roots under the house rule ``move_once_per_turn`` (TK-13): how many states
MOVE_ONCE = {"rearrange-to-attack-twice": 6310, "which-blocker": 9705}


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_core_agrees_with_state_on_every_reachable_state(entry):
    """P item 4, S item 7: every state below a reference position (several option sets)."""
    game = cardlab.load("toritsuki", **entry["options"])
    root = game.state_from_dict(entry["position"])
    assert every_state(root, make_core(game)) == STATES[entry["name"]]


@pytest.mark.parametrize("name", sorted(MOVE_ONCE))
def test_core_agrees_with_state_on_every_reachable_state_move_once(name):
    """S item 7: two roots again with the house rule ``move_once_per_turn`` (TK-13)."""
    entry = next(e for e in REFERENCE if e["name"] == name)
    options = {**entry["options"], "move_once_per_turn": True}
    game = cardlab.load("toritsuki", **options)
    root = game.state_from_dict({**entry["position"], "options": game.options_dict()})
    assert every_state(root, make_core(game)) == MOVE_ONCE[name]
