"""The rules of mipig as small pure functions on small values (marks,
counts, numbers, squares), each citing its rule ids of
``docs/rules/mipig.md``.  No State, no words for people: the State
(:mod:`.state`) and the compact core (:mod:`.core`) both call these, the core
to build its tables, so that one rule is written once.

Marks are indices into :data:`MARKS` (0 rock, 1 scissors, 2 paper), an
attribute an index into :data:`ATTRIBUTES`, an edge an index into
:data:`EDGES`, a square a pair ``(x, y)`` (x grows right, y grows down).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable, Sequence

from ...matrix import capped_value, matrix_solution, repeated_value

__all__ = ["ATTRIBUTES", "MARKS", "EDGES", "STEPS", "janken_beats", "janken_result", "janken_decides",
           "tie_can_break", "locked", "janken_settled", "attribute_bonus", "battle_result", "facing_edges",
           "free_squares", "count_result", "matrix_game_value", "janken_matrix", "janken_value"]

#: MP-2: exactly five attributes (属性)
ATTRIBUTES = ("love", "wisdom", "healing", "play", "guidance")
#: MP-1: janken marks (じゃんけんマーク); index i beats index (i + 1) % 3
MARKS = ("rock", "scissors", "paper")
#: MP-1: a card's four numbers, in this order
EDGES = ("top", "bottom", "left", "right")
#: MP-7, MP-11: the four squares sharing a full edge, as steps (dx, dy), in the order
#: the engine lists attacks (left, above, below, right)
STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))


# -- janken (MP-4, MP-14, MP-25, MP-Q2, MP-Q3) -------------------------------------
def janken_beats(a: int, b: int) -> bool:
    """MP-14: mark ``a`` beats mark ``b`` (indices into :data:`MARKS`).

    >>> janken_beats(0, 1), janken_beats(1, 2), janken_beats(2, 0), janken_beats(0, 0)
    (True, True, True, False)
    """
    return (b - a) % 3 == 1


def janken_result(a: int, b: int) -> int:
    """MP-4, MP-14: 1 when mark ``a`` beats ``b``, -1 when ``b`` beats ``a``, 0 a tie.

    >>> janken_result(0, 1), janken_result(0, 2), janken_result(1, 1)
    (1, -1, 0)
    """
    return 1 if janken_beats(a, b) else -1 if janken_beats(b, a) else 0


def janken_decides(marks: Iterable[int]) -> bool:
    """MP-4, MP-Q2: whether a janken for the first player is played with the
    cards of both hands showing ``marks``: not when every card shows one mark
    (the tie cannot break: a fair coin instead).

    >>> janken_decides([0, 0, 0]), janken_decides([0, 1])
    (False, True)
    """
    return len(set(marks)) > 1


def tie_can_break(mark: int, marks: Iterable[int]) -> bool:
    """MP-Q2, MP-Q3 ("if no pick can break the tie"): whether a janken tied on
    ``mark`` can break, when the players' cards show ``marks``: some card
    must show the mark that beats it.  If none does, picking again could be
    lost (a pick of the mark the tied one beats) but never won against the
    tied mark, best play ties for ever, and the tie does not break: a coin
    for the first player (MP-Q2), a draw at the end (MP-Q3).

    >>> tie_can_break(0, [0, 1]), tie_can_break(0, [0, 2]), tie_can_break(1, [1])   # 0 rock, 1 scissors, 2 paper
    (False, True, False)
    """
    return any(janken_beats(m, mark) for m in marks)


def locked(marks0: Iterable[int], marks1: Iterable[int]) -> bool:
    """MP-Q2, MP-Q3: whether a tie that cannot break can come: a mark both
    can show that no card of either beats.

    >>> locked([0], [0, 1]), locked([0, 2], [0])
    (True, False)
    """
    every = set(marks0) | set(marks1)
    return any(not tie_can_break(k, every) for k in set(marks0) & set(marks1))


def janken_settled(marks0: Sequence[int], marks1: Sequence[int]) -> bool:
    """MP-25, MP-Q3: the end janken is a draw at once, no pick made: no
    counted card on a side, or one and the same single mark on both sides.

    >>> janken_settled([], [0]), janken_settled([1], [1]), janken_settled([0, 1], [1])
    (True, True, False)
    """
    m0, m1 = sorted(set(marks0)), sorted(set(marks1))
    return not m0 or not m1 or (m0 == m1 and len(m0) == 1)


def matrix_game_value(A: Sequence[Sequence[Any]]) -> Fraction:
    """The exact value of the zero-sum matrix game ``A`` (row player maximises);
    see :func:`cardlab.matrix.matrix_solution` for the strategies.

    >>> matrix_game_value([[0, 1], [1, -1]])
    Fraction(1, 3)
    """
    return matrix_solution(A).value


def janken_matrix(marks0: Sequence[int], marks1: Sequence[int]) -> list[list[int | None]]:
    """The end janken (MP-25) as a matrix: player 0's marks are the rows,
    player 1's the columns; +1 a win, -1 a loss, ``None`` a tie (picked again,
    MP-Q3), 0 a tie that cannot break (a draw, :func:`tie_can_break`)."""
    every = set(marks0) | set(marks1)
    return [[(None if tie_can_break(a, every) else 0) if a == b else janken_result(a, b)
             for b in marks1] for a in marks0]


def janken_value(marks0: Sequence[int], marks1: Sequence[int], rounds: int | None = None) -> Any:
    """MP-25, MP-Q3: the exact value for player 0 (+1 win, -1 loss, 0 draw) of
    the end-of-game janken when player 0 may show any mark of ``marks0`` and
    player 1 any of ``marks1`` (indices into :data:`MARKS`), both at once,
    and a tie is picked again: with ``rounds=None`` until it breaks (the
    fixed point of :func:`cardlab.matrix.repeated_value`), else at
    most ``rounds`` times, then a draw; a tie that cannot break
    (:func:`tie_can_break`) is a draw.  No cards on a side, or one and the
    same single mark on both sides, is a draw at once (:func:`janken_settled`).

    >>> janken_value([0, 1, 2], [0, 1, 2]), janken_value([0], [1], 1)
    (Fraction(0, 1), Fraction(1, 1))
    >>> janken_value([0, 2], [0, 1], 1), janken_value([0, 2], [0, 1], 5)   # rock/paper against rock/scissors
    (Fraction(1, 3), Fraction(5, 7))
    >>> janken_value([0, 2], [0, 1])   # no cap: paper beats rock for sure in the end
    Fraction(1, 1)
    """
    return _janken_value(tuple(sorted(set(marks0))), tuple(sorted(set(marks1))), rounds)


@lru_cache(maxsize=None)
def _janken_value(m0: tuple, m1: tuple, rounds: int | None) -> Any:
    if janken_settled(m0, m1):
        return Fraction(0)
    A = janken_matrix(m0, m1)
    return repeated_value(A) if rounds is None else capped_value(A, rounds)


# -- the battle (MP-13 … MP-15, MP-19 … MP-22, MP-Q5) ----------------------------------
def attribute_bonus(count: int) -> int:
    """MP-20: the bonus on all four numbers of each of ``count`` own face-up
    cards of one attribute: ``count - 1`` from two cards on, 0 below (MP-19).

    >>> [attribute_bonus(n) for n in range(1, 7)]
    [0, 1, 2, 3, 4, 5]
    """
    return count - 1 if count >= 2 else 0


def battle_result(a_total: int, d_total: int, a_mark: int, d_mark: int) -> int:
    """MP-13, MP-14: the battle of an attacker's edge total (number plus
    bonus) ``a_total`` against the defender's ``d_total``: 1 the attacker
    wins, -1 the defender wins, 0 a draw (equal totals and equal marks).

    >>> battle_result(9, 8, 0, 0), battle_result(5, 5, 2, 0), battle_result(5, 5, 1, 1)
    (1, 1, 0)
    """
    if a_total != d_total:
        return 1 if a_total > d_total else -1
    return janken_result(a_mark, d_mark)


def facing_edges(dx: int, dy: int) -> tuple[int, int]:
    """MP-Q5: the attacker's edge and the defender's edge (indices into
    :data:`EDGES`) that touch when the defender is one step ``(dx, dy)``
    away: for a defender to the right, the attacker's right number against
    the defender's left number.

    >>> [tuple(EDGES[e] for e in facing_edges(dx, dy)) for dx, dy in STEPS]
    [('left', 'right'), ('top', 'bottom'), ('bottom', 'top'), ('right', 'left')]
    """
    return {(1, 0): (3, 2), (-1, 0): (2, 3), (0, 1): (1, 0), (0, -1): (0, 1)}[(dx, dy)]


def free_squares(occupied: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """MP-6, MP-7: the empty squares sharing a full edge with a card of
    ``occupied``, sorted; ``[(0, 0)]`` on an empty field (the first card goes
    anywhere: on the square named 0,0, MP-Q4).

    >>> free_squares([]), free_squares([(0, 0)])
    ([(0, 0)], [(-1, 0), (0, -1), (0, 1), (1, 0)])
    """
    occ = set(occupied)
    if not occ:
        return [(0, 0)]
    return sorted({(x + dx, y + dy) for x, y in occ for dx, dy in STEPS} - occ)


# -- the end (MP-23 … MP-25) ------------------------------------------------------------
def count_result(up0: int, up1: int) -> int:
    """MP-24: player 0's result from the own face-up cards of each player:
    1 more, -1 fewer, 0 equal (then the janken tiebreak, MP-25).

    >>> count_result(3, 2), count_result(1, 2), count_result(2, 2)
    (1, -1, 0)
    """
    return (up0 > up1) - (up0 < up1)
