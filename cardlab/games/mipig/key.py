"""The declared layout of a mipig position (issue S, item 3): the fields of
the State's key tuple (:data:`KEY`), the phases, and the packed field cell.
The State (:mod:`.state`), the position check (:mod:`.positions`) and the
compact core's ``encode``/``decode`` (:mod:`.core`) all read it by name.

The key: ``(phase, mover, first, how, hand0, hand1, field, grave0, grave1,
round, pending, shown0, shown1, outcome)``.  Hands and graveyards are sorted
tuples of card indices (multisets).  The field is a sorted tuple of packed
cells ``(x*32 + y) << 12 | card << 2 | owner << 1 | face_up`` (:func:`cell`),
with coordinates translated so that the smallest x and y are 0 (MP-Q4):
layouts that differ only by a shift are one position and hash equally.

>>> k = KEY.make(phase=PLACE, mover=0, first=0, how=1, hand0=(1,), hand1=(2,), field=(), grave0=(),
...              grave1=(), round=0, pending=-1, shown0=(), shown1=(), outcome=None)
>>> k[KEY.mover], KEY.replace(k, mover=1)[KEY.mover], cell_parts(cell(2, 1, 5, 1, 0))
(0, 1, (2, 1, 5, 1, 0))
"""

from __future__ import annotations

from ...layout import Layout
from . import rules

__all__ = ["KEY", "DEAL", "JANKEN", "COIN", "PLACE", "BATTLE", "TIEBREAK", "END", "PHASES", "HOWS",
           "cell", "cell_parts", "normalise", "attackers", "free_spots"]

#: the fields of the State's key tuple, in order
KEY = Layout("phase", "mover", "first", "how", "hand0", "hand1", "field", "grave0", "grave1",
             "round", "pending", "shown0", "shown1", "outcome")

# phases
DEAL, JANKEN, COIN, PLACE, BATTLE, TIEBREAK, END = range(7)
PHASES = ("deal", "janken", "coin", "placement", "battle", "tiebreak", "end")
#: how the first player was decided (the key's ``how``)
HOWS = ("undecided", "option", "janken", "coin", "coin: janken tie cannot break",
        "coin: janken round limit")
HOW_OPTION, HOW_JANKEN, HOW_COIN, HOW_LOCKED, HOW_ROUNDS = 1, 2, 3, 4, 5

SHIFT = 12            # field cell: pos << 12 | card << 2 | owner << 1 | up
UNKNOWN = 1023        # card code of a face-down card in another player's view
CARD_MASK = 1023 << 2
XSTEP = 32            # pos = x * 32 + y; spans stay below 20 (at most 20 cards, MP-Q4)
#: MP-7, MP-11: the steps of :data:`rules.STEPS` as differences of packed positions
NEAR = tuple(dx * XSTEP + dy for dx, dy in rules.STEPS)
# attack direction (defender pos - attacker pos) -> (attacker edge, defender edge, name) (MP-Q5)
DIRS = {dx * XSTEP + dy: rules.facing_edges(dx, dy) + (name,)
        for (dx, dy), name in zip(rules.STEPS, ("left", "above", "below", "right"))}


def cell(x: int, y: int, card: int, owner: int, up: int) -> int:
    """A packed field cell (key coordinates)."""
    return ((x * XSTEP + y) << SHIFT) | (card << 2) | (owner << 1) | up


def cell_parts(v: int) -> tuple[int, int, int, int, int]:
    """A field cell as ``(x, y, card, owner, face_up)``."""
    pos = v >> SHIFT
    return pos >> 5, pos & 31, (v >> 2) & 1023, (v >> 1) & 1, v & 1


def normalise(cells: list[int]) -> tuple[tuple[int, ...], int, int]:
    """MP-Q4: shift the field so that the smallest x and the smallest y are 0;
    with the shift ``(mx, my)`` taken off."""
    if not cells:
        return (), 0, 0
    mx = min(v >> (SHIFT + 5) for v in cells)
    my = min((v >> SHIFT) & 31 for v in cells)
    if mx or my:
        d = (mx * XSTEP + my) << SHIFT
        cells = [v - d for v in cells]
    return tuple(sorted(cells)), mx, my


def free_spots(fld: tuple) -> list[tuple[int, int]]:
    """MP-6, MP-7 (:func:`rules.free_squares`): the squares a card may be laid
    on, in key coordinates, sorted (``(0, 0)`` on an empty field, MP-Q4)."""
    return rules.free_squares(((v >> SHIFT) >> 5, (v >> SHIFT) & 31) for v in fld)


def attackers(fld: tuple, occ: dict | None = None) -> tuple[bool, bool]:
    """For players 0 and 1: has a face-down card touching an opponent card (MP-11, MP-16, MP-17)."""
    if occ is None:
        occ = {v >> SHIFT: v for v in fld}
    can = [False, False]
    for v in fld:
        if not v & 1:
            p = (v >> 1) & 1
            if can[p]:
                continue
            pos = v >> SHIFT
            for d in NEAR:
                w = occ.get(pos + d)
                if w is not None and (w >> 1) & 1 != p:
                    can[p] = True
                    break
            if can[0] and can[1]:
                break
    return can[0], can[1]
