"""Exact linear programming for :mod:`cardlab.equilibrium`'s sequence-form
LPs: a two-phase simplex on sparse rows of :class:`~fractions.Fraction`
(:func:`simplex`)."""

from __future__ import annotations

from fractions import Fraction

from .errors import NotSolvableError
from .i18n import _

__all__ = ["simplex", "Tableau"]


def simplex(rows: list[dict[int, Fraction]], rhs: list[Fraction], senses: list[str],
             cost: dict[int, Fraction], free: set[int], nvars: int) -> tuple[Fraction, dict[int, Fraction]]:
    """Maximise ``cost·z`` subject to ``rows[i]·z (senses[i]) rhs[i]`` with
    ``senses`` ``"="`` or ``"<="``, ``rhs >= 0``, ``z >= 0`` except the
    ``free`` variables.  Two phases, sparse rows, exact; Dantzig's rule with
    Bland's rule after degenerate pivots (no cycling).  Returns the optimum
    and the nonzero variables."""
    t = Tableau(rows, rhs, senses, free, nvars)
    t.phase1()
    value = t.phase2(cost)
    return value, t.solution()


def _sub(target: dict, f: Fraction, row: dict) -> None:
    """``target -= f * row``, on sparse rows."""
    for j, v in row.items():
        nv = target.get(j, 0) - f * v
        if nv:
            target[j] = nv
        else:
            target.pop(j, None)


class Tableau:
    """The simplex tableau of :func:`simplex`: sparse rows ``T`` with their
    right-hand sides ``b`` and the ``basis``; a free variable ``z`` is split
    as ``z⁺ - z⁻`` (``neg[z]``: the column of ``z⁻``), each row gets a slack
    (``<=``) or an ``artificial`` variable (``=``)."""

    def __init__(self, rows: list[dict[int, Fraction]], rhs: list[Fraction], senses: list[str],
                 free: set[int], nvars: int) -> None:
        self.nvars = nvars
        self.neg: dict[int, int] = {}
        ncol = nvars
        for j in sorted(free):
            self.neg[j] = ncol
            ncol += 1
        self.T: list[dict[int, Fraction]] = []
        self.b: list[Fraction] = []
        self.basis: list[int] = []
        self.artificial: set[int] = set()
        for row, r, sense in zip(rows, rhs, senses):
            new = dict(row)
            for j, v in row.items():
                if j in self.neg:
                    new[self.neg[j]] = -v
            if sense != "<=":
                self.artificial.add(ncol)
            new[ncol] = Fraction(1)
            self.basis.append(ncol)
            ncol += 1
            self.T.append(new)
            self.b.append(Fraction(r))

    def pivot(self, obj: dict, r: int, c: int) -> Fraction:
        """Bring column ``c`` into the basis at row ``r``; the objective's gain."""
        T, b = self.T, self.b
        row = T[r]
        piv = row[c]
        if piv != 1:
            inv = 1 / piv
            for j in row:
                row[j] *= inv
            b[r] *= inv
        for i, other in enumerate(T):
            if i != r:
                f = other.get(c)
                if f:
                    _sub(other, f, row)
                    b[i] -= f * b[r]
        f = obj.get(c)
        delta = Fraction(0)
        if f:
            _sub(obj, f, row)
            delta = f * b[r]
        self.basis[r] = c
        return delta

    def run(self, obj: dict, value: Fraction, banned: set[int]) -> Fraction:
        """Pivot until no column of ``obj`` (outside ``banned``) gains: the optimum."""
        T, b, basis = self.T, self.b, self.basis
        degenerate = 0
        while True:
            cands = [j for j, v in obj.items() if v > 0 and j not in banned]
            if not cands:
                return value
            c = min(cands) if degenerate > 50 else max(cands, key=lambda j: (obj[j], -j))
            best, r = None, -1
            for i, row in enumerate(T):
                a = row.get(c)
                if a is not None and a > 0:
                    ratio = b[i] / a
                    if best is None or ratio < best or (ratio == best and basis[i] < basis[r]):
                        best, r = ratio, i
            if r < 0:
                raise NotSolvableError(_("the sequence-form LP is unbounded (the tree is malformed)"))
            degenerate = degenerate + 1 if best == 0 else 0
            value += self.pivot(obj, r, c)

    def phase1(self) -> None:
        """A feasible basis: maximise -(sum of artificials), then drive the
        zero-level artificials out of the basis."""
        artificial = self.artificial
        if not artificial:
            return
        obj: dict[int, Fraction] = {}
        value = Fraction(0)
        for i, row in enumerate(self.T):
            if self.basis[i] in artificial:
                for j, v in row.items():
                    if j not in artificial:
                        obj[j] = obj.get(j, 0) + v
                value -= self.b[i]
        obj = {j: v for j, v in obj.items() if v}
        value = self.run(obj, value, artificial)
        if value != 0:
            raise NotSolvableError(_("the sequence-form LP is infeasible (the tree is malformed)"))
        for i in range(len(self.T)):
            if self.basis[i] in artificial:
                c = next((j for j in self.T[i] if j not in artificial), None)
                if c is not None:
                    self.pivot({}, i, c)

    def phase2(self, cost: dict[int, Fraction]) -> Fraction:
        """Maximise ``cost·z`` from the feasible basis; the optimum."""
        value = Fraction(0)
        full = {j: v for j, v in cost.items() if v}
        for j, v in list(full.items()):
            if j in self.neg:
                full[self.neg[j]] = -v
        obj = dict(full)
        for i, row in enumerate(self.T):
            cb = full.get(self.basis[i])
            if cb:
                _sub(obj, cb, row)
                value += cb * self.b[i]
        return self.run(obj, value, self.artificial)

    def solution(self) -> dict[int, Fraction]:
        """The nonzero variables of the basis now (``z⁺ - z⁻`` for a free one)."""
        sol: dict[int, Fraction] = {}
        for i, j in enumerate(self.basis):
            if self.b[i]:
                sol[j] = self.b[i]
        neg = self.neg
        out = {j: sol.get(j, Fraction(0)) - sol.get(neg[j], Fraction(0)) if j in neg else sol.get(j, Fraction(0))
               for j in range(self.nvars)}
        return {j: v for j, v in out.items() if v}
