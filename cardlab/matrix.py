"""Matrix games, exactly: two players pick at once, as in mipig's janken
(MP-4, MP-25).  A zero-sum matrix game is solved exactly here, with both
players' optimal mixed strategies, and so is a choice that is *played
again on a tie* (MP-Q2, MP-Q3): its value is the fixed point ``v = val(A(v))``
where the tied entries of the matrix are ``v`` itself.

The state protocol writes a simultaneous choice in two levels, the way
Gambit writes it (an information set): at a node where
:meth:`cardlab.State.simultaneous` names the players ``(0, 1)``, player 0
picks; player 1 then picks without seeing that pick (their information set
leaves it out, open hands or not: open hands show cards, never a choice not
yet made), and the pair takes effect together.  :func:`cardlab.solve`,
:func:`cardlab.analyse`, the fair hint and :func:`cardlab.solve_tree` take
the pair as one matrix game.

>>> from fractions import Fraction
>>> sol = matrix_solution([[0, 1], [1, -1]])
>>> sol.value, sol.rows, sol.columns
(Fraction(1, 3), (Fraction(2, 3), Fraction(1, 3)), (Fraction(2, 3), Fraction(1, 3)))

A tied janken picked again until it breaks: rock/paper against
rock/scissors, where rock against rock ties (``None``: the same choice
again).  Five rounds and then a draw are worth 5/7; with no cap the value
is the fixed point, 1:

>>> A = [[None, 1], [1, -1]]
>>> capped_value(A, 5), repeated_value(A)
(Fraction(5, 7), Fraction(1, 1))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, Sequence

from .i18n import _

__all__ = ["MatrixSolution", "matrix_solution", "repeated_value", "capped_value"]


@dataclass(frozen=True)
class MatrixSolution:
    """An exact solution of a zero-sum matrix game: ``value`` for the row
    player, and optimal mixed strategies ``rows`` and ``columns`` (one
    probability per row / column, summing to 1).

    ``epsilon`` (a choice played again on a tie, :func:`repeated_value`):
    0 when both mixes are optimal; else the mix of the player the value
    favours (the rows if it is above 0, the columns if below) guarantees
    the value only to within ``epsilon``: no fixed mix reaches it."""

    value: Any
    rows: tuple
    columns: tuple
    epsilon: Any = 0


def _solve_linear(m: list[list[Any]], rhs: list[Any]) -> list[Any] | None:
    """Gaussian elimination over exact numbers; ``None`` if singular."""
    n = len(m)
    a = [row[:] + [r] for row, r in zip(m, rhs)]
    for col in range(n):
        piv = next((r for r in range(col, n) if a[r][col] != 0), None)
        if piv is None:
            return None
        a[col], a[piv] = a[piv], a[col]
        for r in range(n):
            if r != col and a[r][col] != 0:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def _support_enumeration(A: list[list[Fraction]]) -> MatrixSolution:
    """Shapley-Snow: some square submatrix carries an optimal pair, each
    player equalising the other's payoffs over it."""
    m, n = len(A), len(A[0])
    zero, one = Fraction(0), Fraction(1)
    # a saddle point first (pure strategies)
    for i in range(m):
        for j in range(n):
            if A[i][j] == min(A[i]) and A[i][j] == max(A[r][j] for r in range(m)):
                return MatrixSolution(A[i][j], tuple(one if r == i else zero for r in range(m)),
                                      tuple(one if c == j else zero for c in range(n)))
    for k in range(2, min(m, n) + 1):
        for S in combinations(range(m), k):
            for T in combinations(range(n), k):
                mx = [[A[i][j] for i in S] + [-one] for j in T] + [[one] * k + [zero]]
                sx = _solve_linear(mx, [zero] * k + [one])
                my = [[A[i][j] for j in T] + [-one] for i in S] + [[one] * k + [zero]]
                sy = _solve_linear(my, [zero] * k + [one])
                if sx is None or sy is None or sx[-1] != sy[-1]:
                    continue
                v = sx[-1]
                if min(sx[:-1]) < 0 or min(sy[:-1]) < 0:
                    continue
                x = dict(zip(S, sx[:-1]))
                y = dict(zip(T, sy[:-1]))
                if all(sum(x[i] * A[i][j] for i in S) >= v for j in range(n)) and \
                        all(sum(A[i][j] * y[j] for j in T) <= v for i in range(m)):
                    return MatrixSolution(v, tuple(x.get(i, zero) for i in range(m)),
                                          tuple(y.get(j, zero) for j in range(n)))
    raise AssertionError("no optimal strategy pair found")  # pragma: no cover (Shapley-Snow)


def _distinct(vectors: list[tuple]) -> tuple[list[tuple], list[int]]:
    """The distinct vectors in first-seen order, and each one's index among them."""
    seen: dict[tuple, int] = {}
    where = [seen.setdefault(v, len(seen)) for v in vectors]
    return list(seen), where


def matrix_solution(A: Sequence[Sequence[Any]]) -> MatrixSolution:
    """The exact value and optimal mixed strategies of the zero-sum matrix
    game ``A`` (``A[i][j]``: the row player's payoff; the row player
    maximises).  Equal rows (columns) are one strategy, split evenly in the
    answer; small games go by support enumeration, larger ones by the exact
    sequence-form LP of :mod:`cardlab.equilibrium`."""
    A = [[Fraction(x) for x in row] for row in A]
    if not A or not A[0] or any(len(row) != len(A[0]) for row in A):
        raise ValueError(_("a matrix game needs at least one row and one column, all rows of one length"))
    rows, rwhere = _distinct([tuple(r) for r in A])
    cols, cwhere = _distinct([tuple(c) for c in zip(*rows)])
    B = [list(r) for r in zip(*cols)]  # the distinct rows, restricted to distinct columns
    if min(len(B), len(B[0])) <= 4:
        sol = _support_enumeration(B)
    else:
        from .equilibrium import matrix_tree, solve_equilibrium
        names_r = [f"r{i}" for i in range(len(B))]
        names_c = [f"c{j}" for j in range(len(B[0]))]
        eq = solve_equilibrium(matrix_tree(B, names_r, names_c))
        x, y = eq.strategies[0]["0:0"], eq.strategies[1]["1:0"]
        sol = MatrixSolution(eq.value, tuple(x[r] for r in names_r), tuple(y[c] for c in names_c))

    def spread(p: tuple, where: list[int]) -> tuple:
        count = [where.count(i) for i in range(len(p))]
        return tuple(p[w] / count[w] for w in where)

    return MatrixSolution(sol.value, spread(sol.rows, rwhere), spread(sol.columns, cwhere))


def _with(A: Sequence[Sequence[Any]], v: Any) -> list[list[Any]]:
    return [[v if x is None else x for x in row] for row in A]


def capped_value(A: Sequence[Sequence[Any]], rounds: int, last: Any = 0) -> Fraction:
    """The value of a choice played again on a tie (``None`` entries) at most
    ``rounds`` times, worth ``last`` after the last tie (MP-Q3: a draw).
    Backward induction: each earlier round is the matrix game whose tied
    entries are the next round's value."""
    v = Fraction(last)
    for _round in range(rounds):
        v = matrix_solution(_with(A, v)).value
    return v


def repeated_value(A: Sequence[Sequence[Any]], with_strategies: bool = False,
                   epsilon: Any = Fraction(1, 100)):
    """The exact value of a choice played again on every tie (``None``
    entries), with no cap: the fixed point ``v = val(A(v))`` that the capped
    values converge to as the cap grows (from a draw, 0, after the last tie:
    a choice tied for ever decides nothing).

    ``val(A(v))`` is monotone in ``v``, so the capped values climb (or fall)
    to the nearest fixed point on that side of 0.  Each fixed point is where
    some square submatrix's equalising value ``w(v) = 1 / (1ᵀ A(v)⁻¹ 1)`` (a
    1×1 submatrix: its entry) meets ``v``: sympy solves those equations
    exactly, and the nearest root on the right side that is a fixed point is
    the value.  It may be an algebraic number: a sympy number then, else an
    int or Fraction.  ``with_strategies=True`` also returns mixes that a
    player can keep to every round (rational values only): the optimal
    mixes of ``A(value)``, except where that mix of the player the value
    favours would let the other tie for ever (and so hold them to a draw).
    That player then mixes as in ``A(w)``, ``w`` = the value less
    ``epsilon`` (towards 0, not past it): there ``val(A(w))`` is beyond
    ``w``, so every reply ends the choice with a chance above 0 and yields
    more than ``w`` (Everett's recursive games; ``MatrixSolution.epsilon``
    says so).  The other player then takes the pick that holds the value
    and does best against that mix (:func:`_answer`), not a tie that would
    drag the choice out.  Rock/paper against rock/scissors, picked again
    until it breaks, is worth 1; showing rock for sure would let the other
    show rock for ever, who answers the mix with scissors:

    >>> v, sol = repeated_value([[None, 1], [1, -1]], with_strategies=True)
    >>> v, sol.rows, sol.columns, sol.epsilon
    (Fraction(1, 1), (Fraction(200, 201), Fraction(1, 201)), (Fraction(0, 1), Fraction(1, 1)), Fraction(1, 100))
    """
    if not any(x is None for row in A for x in row):
        sol = matrix_solution(A)
        return (sol.value, sol) if with_strategies else sol.value
    at0 = matrix_solution(_with(A, 0)).value
    if at0 == 0:
        value: Any = Fraction(0)
    else:
        value = _nearest_fixed_point(A, at0 > 0)
    if with_strategies:
        if not isinstance(value, (int, Fraction)):
            raise ValueError(_("the value {value} is irrational: no exact strategies over fractions").format(value=value))
        return value, _keepable(A, value, Fraction(epsilon))
    return value


def _keepable(A: Sequence[Sequence[Any]], value: Fraction, epsilon: Fraction) -> MatrixSolution:
    """The mixes of :func:`repeated_value` (see there): those of ``A(value)``,
    or for the favoured player those of ``A(w)`` if theirs would let the
    other tie for ever; the other player then answers that mix
    (:func:`_answer`)."""
    sol = matrix_solution(_with(A, value))
    rows, cols = sol.rows, sol.columns
    if value > 0 and any(sum(x for x, a in zip(rows, col) if a is None) == 1 for col in zip(*A)):
        w = max(value - epsilon, Fraction(0))
        rows = matrix_solution(_with(A, w)).rows
        cols = _answer([[-a if a is not None else None for a in col] for col in zip(*A)], rows, -value) or cols
        return MatrixSolution(value, rows, cols, value - w)
    if value < 0 and any(sum(y for y, a in zip(cols, row) if a is None) == 1 for row in A):
        w = min(value + epsilon, Fraction(0))
        cols = matrix_solution(_with(A, w)).columns
        return MatrixSolution(value, _answer(A, cols, value) or rows, cols, w - value)
    return sol


def _answer(A: Sequence[Sequence[Any]], other: Sequence[Fraction], value: Fraction) -> tuple | None:
    """The row player's pure pick that does best, over the rounds, against
    the columns' mix ``other`` (a tie: the same mix again, so a row is worth
    its payoff against the picks that end the choice), among the rows that
    hold the value whatever the columns do (``value`` below 0: a tie for ever
    is a draw, above it); ``None`` if none does better than the others.

    The player the value does not favour holds it by any such row, tie or
    not; a row that ties the favoured player's likely pick would only
    drag the choice out (hundreds of rounds against a mix that ends it
    with a chance of ``epsilon``), so the answer to that mix ends it."""
    def worth(row: Sequence[Any]) -> Fraction:
        ends = sum((q for q, a in zip(other, row) if a is not None), Fraction(0))
        return sum((q * a for q, a in zip(other, row) if a is not None), Fraction(0)) / ends if ends else Fraction(0)

    holding = [i for i, row in enumerate(A) if min((a for a in row if a is not None), default=0) >= value]
    if not holding:
        return None
    best = max(holding, key=lambda i: (worth(A[i]), -i))
    if all(worth(A[i]) == worth(A[best]) for i in range(len(A))):
        return None
    return tuple(Fraction(int(i == best)) for i in range(len(A)))


@functools.cache
def warm() -> None:
    """Load and start sympy now, which :func:`repeated_value` needs for a
    choice tied for ever: the first fixed point of a process costs 0.25-0.8 s
    of CPU that way (sympy's import and first solve), the next ones a few
    ms.  :class:`cardlab.Match` calls it where an agent plays a game with
    simultaneous choices, so that cost falls outside every move's clock (the
    levels' round robin saw a strongest-level move of 2.53 s where the cap
    is 1.75 s).  Once a process (cached): later calls return at once."""
    repeated_value([[None, 1], [1, -1]])


def _nearest_fixed_point(A: Sequence[Sequence[Any]], up: bool) -> Any:
    import sympy as sp

    v = sp.Symbol("v", real=True)
    S = [[v if x is None else sp.Rational(Fraction(x).numerator, Fraction(x).denominator) for x in row]
         for row in A]
    m, n = len(S), len(S[0])
    candidates: set = set()
    for i in range(m):
        for j in range(n):
            if S[i][j] != v:
                candidates.add(S[i][j])
    for k in range(2, min(m, n) + 1):
        for rows in combinations(range(m), k):
            for cols in combinations(range(n), k):
                M = sp.Matrix([[S[i][j] for j in cols] for i in rows])
                det = sp.factor(M.det())
                if det == 0:
                    continue
                ones = sp.ones(k, 1)
                denom = sp.together((ones.T * M.adjugate() * ones)[0])
                if denom == 0:
                    continue
                equation = sp.numer(sp.together(det - v * denom))  # w(v) = det / (1ᵀ adj(M) 1) = v
                if equation.has(v):
                    candidates.update(sp.Poly(equation, v).real_roots())
    side = [c for c in candidates if (c > 0 if up else c < 0)]
    for c in sorted(side, key=lambda c: abs(c)):
        if _is_fixed_point(A, c):
            return Fraction(int(c.p), int(c.q)) if c.is_Rational else c
    raise ValueError(_("no fixed point found for this repeated choice"))  # pragma: no cover


def _is_fixed_point(A: Sequence[Sequence[Any]], c: Any) -> bool:
    """Whether ``val(A(c)) == c``: exact for a rational ``c``, else to 30
    digits (an algebraic ``c``)."""
    if c.is_Rational:
        q = Fraction(int(c.p), int(c.q))
        return matrix_solution(_with(A, q)).value == q
    approx = Fraction(str(c.evalf(40)))
    return abs(matrix_solution(_with(A, approx)).value - approx) < Fraction(1, 10**30)
