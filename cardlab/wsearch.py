"""The exact search of :mod:`cardlab.search` on a game's word core (issue X: the search
on words), in Cython's pure-Python mode: compiled with the word cores (``setup.py``,
``build_tools/build_compiled.py``), else run as this very Python.

:class:`WordSearch` is a :class:`cardlab.search.Search` whose ``abc`` (two players,
zero-sum: alpha-beta, Star1 at chance nodes, the transposition table, the history
heuristic) walks the game's word core (its package's ``wcore``: the core on C words),
one :class:`WordCore` per depth, instead of the compact core's positions.  Everything
else is the ``Search``'s own: the root's window and units (``_core_entry``,
``_scale``), the node budget and the clock (``_tick``: the same
:class:`~cardlab.TooLargeError`, the same progress bar), the table's budget
(``_forget``), the best moves and principal variation of :func:`cardlab.solve`
(``worth``), the simultaneous choices at a root (``matrix``, ``mixes_of``).  Inside the
walk the steps are those of ``Search.abc`` line by line (the table's probe included: a
copy kept here so that the compiled walk stays one C function a node), on the same
values (Python ints, :class:`~fractions.Fraction` where a value is not a whole number
of the search's unit, or a matrix game's exact value), moves in the same order, the
same history weights: the same value, best moves and node counts
(``tests/test_word_search.py``).  A simultaneous choice inside the walk (mipig's
jankens MP-4, MP-25) is its matrix game solved by the search's own ``_choice_value``
(:func:`cardlab.matrix.repeated_value`); its entries are searched on words.

What the walk asks of a word core: ``player()``, ``moves()`` (at a chance node its
outcomes), ``play(m)``, ``copy_from(other)``, ``returns()``, ``load(pos)``; ``key()``
(a hashable equal exactly where the compact core's positions are; else ``to_pos()``
is the key); ``chance()`` (``(outcome, weight)`` pairs; not needed where the core's
chance is uniform, else the compact core's ``chance`` of ``to_pos()``);
``simultaneous()`` where the game has simultaneous choices.  A search that met a
position the compact core does not take (:meth:`Search._encode` turned to the
``State``) goes on as ``Search.abc``.  :func:`word_search` gives a ``WordSearch`` where
the game's word core handles its options, else a plain ``Search``.
"""

from __future__ import annotations

import math
from fractions import Fraction

try:
    import cython
except ImportError:  # pragma: no cover  (no Cython: the module runs as Python)
    from . import _cython_shim as cython

from . import games
from .core import CHANCE, TERMINAL
from .errors import NotSolvableError
from .i18n import _
from .search import _STATE_CORE, Search, _choice_value

__all__ = ["WordSearch", "word_search", "word_module", "compiled"]

#: whether this module runs compiled
compiled = cython.compiled
_EXACT = cython.declare(cython.int, 0)
_LOWER = cython.declare(cython.int, 1)
_UPPER = cython.declare(cython.int, 2)
_INF = float("inf")


def word_module(game):
    """The word core module (``wcore``) of ``game``'s package, or None."""
    package = games.CATALOGUE.get(game.name)
    return getattr(package, "wcore", None)


def word_search(game, **options):
    """A :class:`WordSearch` of ``game`` (a ``Search``'s keyword ``options``) where its word
    core handles these options and the search runs on its compact core, else a plain
    :class:`~cardlab.search.Search`."""
    search = WordSearch(game, **options)
    return search if search.walk is not None else Search(game, **options)


class WordSearch(Search):
    """A :class:`~cardlab.search.Search` walking the game's word core (see the module)."""

    def __init__(self, game, **options) -> None:
        super().__init__(game, **options)
        self.int_core = self.core
        module = word_module(game)
        wc = None if module is None or self.core is _STATE_CORE else module.make_word_core(game, self.core)
        #: the walk on words (None: the options are beyond the word core)
        self.walk = None if wc is None else _Walk(self, game, module, wc)

    def abc(self, pos, alpha, beta):
        if self.walk is None or self.core is not self.int_core:  # a State: Search's own walk
            return Search.abc(self, pos, alpha, beta)
        return self.walk.run(pos, alpha, beta)


def _weight(nodes: object) -> object:
    """The history heuristic's weight of a cut-off below which ``nodes`` were searched, as
    ``Search.abc`` has it: Python's float power (not C's), so the same weights compiled."""
    return int(nodes ** 0.75)


def _units(v, S):
    """A value of the walk (in 1/S) in the game's units, as ``Search._core_entry`` gives it."""
    if S == 1:
        return v
    return Fraction(v, S) if v.__class__ is int else v / S


@cython.cclass
class _Walk:
    """``Search.abc`` on words: one word core per depth (``stack``), the search's table and
    history; the node count kept in C and handed back to the search at its ticks and at
    the end."""

    search: object
    game: object
    module: object
    core: object
    stack: list
    table: object
    history: object
    scale: object
    LO: object
    HI: object
    nodes: cython.longlong
    next_tick: cython.longlong
    hits: cython.longlong
    max_entries: cython.longlong
    pruning: cython.bint
    ordering: cython.bint
    simultaneous: cython.bint
    uniform: cython.bint
    keyed: cython.bint
    weighed: cython.bint

    def __init__(self, search, game, module, wc) -> None:
        self.search, self.game, self.module, self.core = search, game, module, search.core
        self.stack = [wc]
        self.history = search.history
        self.pruning, self.ordering, self.simultaneous = search.pruning, search.ordering, search.simultaneous
        self.uniform = getattr(self.core, "uniform_chance", False)
        self.keyed = hasattr(wc, "key")
        self.weighed = hasattr(wc, "chance")

    def run(self, pos, alpha, beta):
        """``Search.abc(pos, alpha, beta)`` on words (``pos``: the compact core's)."""
        s = self.search
        self.table = s.table
        self.scale, self.LO, self.HI = s.scale, s.LO, s.HI
        self.nodes, self.next_tick, self.hits = s.nodes, s.next_tick, s.hits
        self.max_entries = min(s.max_table_entries, 2 ** 62)
        self.stack[0].load(pos)
        try:
            return self._abc(0, alpha, beta)
        finally:
            s.nodes, s.hits = self.nodes, self.hits

    @cython.cfunc
    def _tick(self) -> cython.void:
        """The search's own tick (its budget, clock and progress bar), on this node count."""
        s = self.search
        s.nodes = self.nodes
        s._tick()
        self.next_tick = s.next_tick

    @cython.cfunc
    def _at(self, d: cython.int) -> object:
        """The word core at depth ``d`` (made the first time the walk goes that deep)."""
        if d == len(self.stack):
            self.stack.append(self.module.make_word_core(self.game, self.core))
        return self.stack[d]

    @cython.cfunc
    def _abc(self, d: cython.int, alpha: object, beta: object) -> object:
        """``Search.abc`` of the position at depth ``d``."""
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self._tick()
        pos = self.stack[d]
        p: cython.int = pos.player()
        if p == TERMINAL:
            return pos.returns()[0] * self.scale
        key = pos.key() if self.keyed else pos.to_pos()
        table = self.table
        if table is not None:
            e = table.get(key)
            if e is not None:
                if e.__class__ is int:
                    v, flag = e >> 2, e & 3
                else:
                    v, flag = e
                if flag == _EXACT:
                    self.hits += 1
                    return v
                if flag == _LOWER:
                    if v >= beta:
                        self.hits += 1
                        return v
                    if v > alpha:
                        alpha = v if v.__class__ is int else math.floor(v)
                elif v <= alpha:
                    self.hits += 1
                    return v
                elif v < beta:
                    beta = v if v.__class__ is int else math.ceil(v)
        if p >= 0 and self.simultaneous and pos.simultaneous():  # a matrix game: the mover's value
            if p == 0:
                best, flag = _choice_value(self._matrix(d, key, 1)) * self.scale, _EXACT
            else:
                best, flag = -_choice_value(self._matrix(d, key, -1)) * self.scale, _EXACT
        elif p == CHANCE:
            best, flag = self._star1(d, alpha, beta)
        else:
            best, flag = self._turn(d, p, alpha, beta)
        lo, hi = self.LO, self.HI
        if flag == _UPPER and best <= lo or flag == _LOWER and best >= hi:
            flag = _EXACT  # a bound at the game's own bound is the value
        if table is not None:
            if len(table) >= self.max_entries:
                self.search._forget(table)
            table[key] = best * 4 + flag if best.__class__ is int else (best, flag)
        return best

    @cython.cfunc
    def _turn(self, d: cython.int, p: cython.int, alpha: object, beta: object) -> tuple:
        """A player's node of ``Search.abc``: ``(value, flag)`` within ``(alpha, beta)``."""
        pos = self.stack[d]
        child = self._at(d + 1)
        alpha0, beta0 = alpha, beta
        n0: cython.longlong
        ms = pos.moves()
        if self.ordering and len(ms) > 1:
            ms = sorted(ms, key=self.history[p].__getitem__, reverse=True)
        best = -_INF if p == 0 else _INF
        for m in ms:
            n0 = self.nodes
            child.copy_from(pos)
            child.play(m)
            v = self._abc(d + 1, alpha, beta)
            if p == 0:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v if v.__class__ is int else math.floor(v)
                        if alpha >= beta and self.pruning:
                            if self.ordering:
                                self.history[0][m] += _weight(self.nodes - n0)
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v if v.__class__ is int else math.ceil(v)
                    if alpha >= beta and self.pruning:
                        if self.ordering:
                            self.history[1][m] += _weight(self.nodes - n0)
                        break
        return best, _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT

    @cython.cfunc
    def _star1(self, d: cython.int, alpha: object, beta: object) -> tuple:
        """A chance node of ``Search.abc`` (``Search._star1``: Star1, each outcome searched
        with the window its parent's implies)."""
        pos = self.stack[d]
        child = self._at(d + 1)
        lo, hi = self.LO, self.HI
        if self.uniform:  # every outcome of weight 1
            outs = [(o, 1) for o in pos.moves()]
        elif self.weighed:
            outs = pos.chance()
        else:
            outs = self.core.chance(pos.to_pos())
        W: object = 0
        for _o, w in outs:
            W += w
        total: object = 0
        flag: cython.int = _EXACT
        if self.pruning:
            low, high = W * (alpha - hi), W * (beta - lo)
            for o, w in outs:
                low += w * hi
                high += w * lo
                a_i, b_i = low // w, -(-high // w)  # the outcome's window, whole numbers
                child.copy_from(pos)
                child.play(o)
                v = self._abc(d + 1, a_i if a_i > lo else lo, b_i if b_i < hi else hi)
                v *= w
                if v <= low:  # an upper bound <= alpha: rounded up, still one
                    total, flag = W * alpha - low + v, _UPPER
                    break
                if v >= high:  # a lower bound >= beta: rounded down, still one
                    total, flag = W * beta - high + v, _LOWER
                    break
                total += v
                low -= v
                high -= v
        else:
            for o, w in outs:
                child.copy_from(pos)
                child.play(o)
                total += w * self._abc(d + 1, lo, hi)
        if total.__class__ is not int:
            best = total / W
        elif flag == _UPPER:
            best = -(-total // W)
        elif flag == _LOWER or not total % W:
            best = total // W
        else:
            best = Fraction(total, W)  # not a whole number of 1/scale: exact all the same
        return best, flag

    @cython.cfunc
    def _matrix(self, d: cython.int, key: object, sign: cython.int) -> list:
        """``Search.matrix``'s ``A`` of the simultaneous choice at depth ``d``: the mover's
        value (``sign`` 1: player 0 moves, -1: player 1) of each pair of picks, ``None``
        where the pair leads back here (a tie picked again); each entry searched with the
        full window."""
        pos = self.stack[d]
        child, grand = self._at(d + 1), self._at(d + 2)
        S = self.scale
        rows = pos.moves()
        cols = None
        A = []
        for a in rows:
            child.copy_from(pos)
            child.play(a)
            acts = child.moves()
            if cols is None:
                cols = acts
            elif acts != cols:
                raise NotSolvableError(_("{game}: the second picker's choices depend on the first pick, which "
                                         "they cannot see; not a simultaneous choice").format(game=self.game.name))
            row = []
            for b in acts:
                grand.copy_from(child)
                grand.play(b)
                row.append(None if (grand.key() if self.keyed else grand.to_pos()) == key
                           else sign * _units(self._abc(d + 2, self.LO, self.HI), S))
            A.append(row)
        return A
