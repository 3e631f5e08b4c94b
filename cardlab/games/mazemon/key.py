"""The State's key, declared once (issue S, item 3): nine turn fields, then
eight fields per player, named by :data:`LAYOUT`.  The State
(:mod:`.state`), the saved-position check (:mod:`.positions`) and the core's
``encode``/``decode`` (:mod:`.core`) read and write it by these names.

>>> LAYOUT.names[:3], SEAT[1].hand
(('phase', 'turn', 'first'), 17)
"""

from __future__ import annotations

from typing import NamedTuple

from ...layout import Layout

__all__ = ["LAYOUT", "PLAYER_FIELDS", "Seat", "SEAT", "PHASE", "TURN", "FIRST", "QUIET", "ACTED",
           "SUB_USED", "DIRECT_USED", "PENDING_A", "PENDING_T"]

#: a player's fields: masks over deck slots (hand … attacked, out) and counts
PLAYER_FIELDS = ("hand", "battle", "wounded", "attacked", "mana", "untapped", "captured", "out")
#: the State's key, field by field; a pending attack's slots are -1 outside
#: the phase substitute, ``first`` is -1 before the janken
LAYOUT = Layout("phase", "turn", "first", "quiet_turns", "acted", "substitute_used", "direct_used",
                "pending_attacker", "pending_target",
                *(f"{name}{p}" for p in (0, 1) for name in PLAYER_FIELDS))
#: the turn fields' indices (hot code reads them as constants)
PHASE, TURN, FIRST, QUIET, ACTED, SUB_USED, DIRECT_USED, PENDING_A, PENDING_T = (
    LAYOUT.index[n] for n in LAYOUT.names[:9])


class Seat(NamedTuple):
    """One player's eight fields (their indices in :data:`SEAT`, or values)."""

    hand: int
    battle: int
    wounded: int
    attacked: int
    mana: int
    untapped: int
    captured: int
    out: int


#: SEAT[p].hand: the index of player p's hand in the key
SEAT = tuple(Seat(*(LAYOUT.index[f"{name}{p}"] for name in PLAYER_FIELDS)) for p in (0, 1))
