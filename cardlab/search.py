"""The exact search under :func:`cardlab.solve` and :func:`cardlab.analyse`:
expectiminimax with alpha-beta (Star1 at chance nodes) and a transposition
table for two players, zero-sum; max-n for the others; on the game's compact
core (:mod:`cardlab.cores`) where it has one, else on the public ``State``.

:class:`Search` is one search with its table (reused for the root children
of a solve); :func:`values_of`, :func:`mixes_of` and :func:`action_values`
are what :mod:`cardlab.solve` and :mod:`cardlab.analysis` ask of it.  Values
are exact (see :mod:`cardlab.solve`).
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import defaultdict
from fractions import Fraction
from itertools import islice
from typing import Any, Callable

from .core import CHANCE, TERMINAL, State
from .cores import core_of
from .errors import NotSolvableError, TooLargeError
from .i18n import _, pgettext
from .matrix import repeated_value

__all__ = ["Search", "values_of", "mixes_of", "action_values", "check_solvable", "use_maxn",
           "DEFAULT_MAX_NODES", "DEFAULT_MAX_TABLE", "BYTES_PER_POSITION"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = float("inf")
_EPS = Fraction(1, 10**6)  # the width of a null-window test (any positive width is exact)
_PROGRESS_AFTER = 2.0  # seconds before an automatic progress bar appears
_TICK = 4096


#: the default node budget of solve() and analyse(): each position searched
#: keeps one transposition-table entry (until the table budget below): about
#: 120 bytes where the game's core packs a position into one int (koinobori,
#: mipig, mazemon, MONSTER CARDS: a Koi-koi Nobori endgame of 3.7 million
#: entries took 0.52 GB in all), about 420 on Toritsuki's tuples, 300 to 600
#: on State keys; the estimate stays 300 bytes, so the default stays near
#: 0.6 GB.  Pass a larger ``max_nodes`` to go further, or ``None`` for no limit.
DEFAULT_MAX_NODES = 2_000_000
BYTES_PER_POSITION = 300
#: the default table budget (entries): a search that keeps more forgets the
#: older half of its table and goes on (slower, never less exact)
DEFAULT_MAX_TABLE = 4_000_000


class Search:
    """One search with its table; reused for the root children of a solve."""

    def __init__(self, game, *, table: bool = True, pruning: bool = True,
                 max_nodes: int | None = None, progress: bool | None = None,
                 max_table: int | None = DEFAULT_MAX_TABLE, use_core: bool = True) -> None:
        spec = game.spec
        # the game's utility bounds (ints where they are whole: faster sums)
        self.lo, self.hi = (int(u) if u == int(u) else u for u in (spec.min_utility, spec.max_utility))
        #: what the search plays on: the game's compact core (cardlab.cores), or the
        #: public State seen as one (a game with no core, or use_core=False)
        self.core = (core_of(game) if use_core else None) or _STATE_CORE
        #: the transposition table: a position -> its entry (see abc)
        self.table: dict | None = {} if table else None
        #: the table's budget in entries: past it, the older half is forgotten (_forget)
        self.max_table_entries = max_table if max_table is not None else sys.maxsize
        #: the core search's unit, 1/scale (set at its first position, see _scale)
        self.scale: int | None = None
        self.LO = self.HI = 0
        self.forgotten = 0
        #: the history heuristic, where the core asks for it (``core.history_heuristic``):
        #: per player, the nodes searched below each move where it cut a search off;
        #: moves are tried heaviest first (ties in the legal order)
        self.history: tuple[defaultdict[Any, int], defaultdict[Any, int]] = (defaultdict(int), defaultdict(int))
        self.ordering = getattr(self.core, "history_heuristic", False)
        self.pruning = pruning
        self.max_nodes = max_nodes
        self.nodes = 0
        self.hits = 0
        self.progress = progress
        self.simultaneous = spec.simultaneous
        self.bar: Any = None
        self.start = time.perf_counter()
        self.next_tick = _TICK if max_nodes is None else min(_TICK, max_nodes)
        #: a time of :attr:`clock` past which the search stops (an anytime
        #: analysis's budget, see :meth:`limit`); ``None``: no clock
        self.deadline: float | None = None
        #: the clock of :attr:`deadline`: wall (``time.perf_counter``) or this
        #: thread's CPU (``time.thread_time``)
        self.clock: Callable[[], float] = time.perf_counter
        #: called every thousand or so positions while a clock or node limit
        #: runs (:meth:`limit`): an anytime analysis's progress callback
        self.poll: Callable[[], None] | None = None

    def limit(self, nodes: int | None, deadline: float | None = None,
              clock: Callable[[], float] = time.perf_counter) -> None:
        """Stop (:class:`~cardlab.TooLargeError`) after ``nodes`` more
        positions or at ``deadline`` (a time of ``clock``), whichever comes
        first; the table stays for the next search."""
        self.max_nodes = None if nodes is None else self.nodes + nodes
        self.deadline, self.clock = deadline, clock
        tick = _TICK if deadline is None else 1024
        self.next_tick = self.nodes + (tick if nodes is None else max(1, min(tick, nodes)))

    def _tick(self) -> None:
        """Every few thousand nodes (and at the node limit): limit and progress."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise TooLargeError(_("the solve passed max_nodes={max_nodes} positions (about {gb:.1g} GB of "
                                  "table); raise max_nodes or solve a smaller position").format(
                max_nodes=self.max_nodes, gb=self.max_nodes * BYTES_PER_POSITION / 1e9))
        if self.deadline is not None and self.clock() > self.deadline:
            raise TooLargeError(_("the search ran out of time"))
        if self.poll is not None:  # an anytime analysis's progress (it may stop the search)
            self.poll()
        self.next_tick = self.nodes + (_TICK if self.deadline is None else 1024)
        if self.max_nodes is not None:
            self.next_tick = min(self.next_tick, self.max_nodes + 1)
        if self.progress is False:
            return
        if self.bar is None and (self.progress or time.perf_counter() - self.start > _PROGRESS_AFTER):
            try:
                from tqdm.auto import tqdm  # type: ignore[import-untyped, import-not-found, unused-ignore]
            except ImportError:  # the core does not depend on tqdm
                self.progress = False
                return
            self.bar = tqdm(desc=_("solving"), unit=" " + pgettext("progress", "nodes"), unit_scale=True)
        if self.bar is not None:
            self.bar.update(self.nodes - self.bar.n)

    def entries(self) -> int:
        """The table's size now."""
        return len(self.table or ())

    def close(self) -> None:
        if self.bar is not None:
            self.bar.update(self.nodes - self.bar.n)
            self.bar.close()

    # two players, zero-sum: value for player 0, alpha-beta, Star1 at chance.
    # Fail-soft: a result r <= alpha is an upper bound of the value, r >= beta
    # a lower bound, anything between exact.  Windows stay inside the game's
    # utility bounds, lo <= alpha < beta <= hi, so a bound that reaches lo or
    # hi is exact.
    def ab(self, s: State, alpha, beta):
        """The value of ``s`` for player 0 within ``(alpha, beta)`` (fail-soft)."""
        return self._core_entry(self._encode(s), alpha, beta)

    def _encode(self, s: State):
        """``s`` as a position of the search's core.  A state the game's core
        cannot encode turns the search to the ``State`` itself (its table
        entries stay: their keys and units do not clash)."""
        pos = self.core.encode(s)
        if pos is None:
            self.core = _STATE_CORE
            self.ordering = False
            pos = s
        return pos

    def _forget(self, table: dict) -> None:
        """The table is at its budget: drop its older half (age-based
        replacement; dicts keep insertion order).  Only speed is lost: every
        value is still searched exactly."""
        for key in list(islice(table, len(table) // 2)):
            del table[key]
        self.forgotten += 1

    # the search plays on the core (the game's own, or the State seen as one),
    # in whole numbers: a value v is searched as v * scale (see _scale), so chance nodes add and compare
    # integers; windows are whole numbers (a fractional bound widened to the
    # next one out: always sound, and no pruning lost while every value is a
    # whole number of 1/scale).  A value that is not stays an exact Fraction:
    # the values never depend on the scale, only the speed does.  A table
    # entry is one int, value * 4 + flag, when the value is whole, else the
    # pair (value, flag).
    def _core_entry(self, pos, alpha, beta):
        """``abc`` with the window and the result in the game's units."""
        S = self.scale
        if S is None:
            S = self.scale = _scale(self.core, pos, self.lo, self.hi)
            self.LO, self.HI = math.floor(self.lo * S), math.ceil(self.hi * S)
        a, b = alpha * S, beta * S
        v = self.abc(pos, a if a.__class__ is int else math.floor(a), b if b.__class__ is int else math.ceil(b))
        if S == 1:
            return v
        return Fraction(v, S) if v.__class__ is int else v / S

    def abc(self, pos, alpha, beta):
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self._tick()
        core = self.core
        p = core.player(pos)
        if p == TERMINAL:
            return core.returns(pos)[0] * self.scale
        table = self.table
        if table is not None:
            e = table.get(pos)
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
        alpha0, beta0 = alpha, beta
        lo, hi = self.LO, self.HI
        play = core.play
        if p >= 0 and self.simultaneous and core.simultaneous(pos):  # a matrix game, on the State
            v = _choice_value(self.matrix(core.decode(pos))[2]) * self.scale  # the mover's value
            best, flag = (v if p == 0 else -v), _EXACT
        elif p == CHANCE:
            best, flag = self._star1(pos, alpha, beta)
        elif p == 0:
            best = -_INF
            ms = core.moves(pos)
            if self.ordering and len(ms) > 1:
                ms = sorted(ms, key=self.history[0].__getitem__, reverse=True)
            for m in ms:
                n0 = self.nodes
                v = self.abc(play(pos, m), alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v if v.__class__ is int else math.floor(v)
                        if alpha >= beta and self.pruning:
                            if self.ordering:
                                self.history[0][m] += int((self.nodes - n0) ** 0.75)
                            break
            flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        else:
            best = _INF
            ms = core.moves(pos)
            if self.ordering and len(ms) > 1:
                ms = sorted(ms, key=self.history[1].__getitem__, reverse=True)
            for m in ms:
                n0 = self.nodes
                v = self.abc(play(pos, m), alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v if v.__class__ is int else math.ceil(v)
                        if alpha >= beta and self.pruning:
                            if self.ordering:
                                self.history[1][m] += int((self.nodes - n0) ** 0.75)
                            break
            flag = _UPPER if best <= alpha0 else _LOWER if best >= beta0 else _EXACT
        if flag == _UPPER and best <= lo or flag == _LOWER and best >= hi:
            flag = _EXACT  # a bound at the game's own bound is the value
        if table is not None:
            if len(table) >= self.max_table_entries:
                self._forget(table)
            table[pos] = best * 4 + flag if best.__class__ is int else (best, flag)
        return best

    def _star1(self, pos, alpha, beta):
        """A chance node of :meth:`abc`: ``(value, flag)`` within ``(alpha, beta)``."""
        core = self.core
        play, lo, hi = core.play, self.LO, self.HI
        # Star1 (Ballard): each outcome is searched with the window its
        # parent's implies, the outcomes not yet searched taken at their
        # bounds.  Outcome i has probability w_i / W; on W times the
        # values, `low` is alpha less the outcomes so far and those not
        # yet searched at hi: an outcome with w_i * v <= low leaves the
        # node at most alpha (likewise `high`, beta and lo)
        outs = core.chance(pos)
        W = 0
        for _o, w in outs:
            W += w
        total = 0
        flag = _EXACT
        if self.pruning:
            low, high = W * (alpha - hi), W * (beta - lo)
            for o, w in outs:
                low += w * hi
                high += w * lo
                a_i, b_i = low // w, -(-high // w)  # the outcome's window, whole numbers
                v = self.abc(play(pos, o), a_i if a_i > lo else lo, b_i if b_i < hi else hi)
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
                total += w * self.abc(play(pos, o), lo, hi)
        if total.__class__ is not int:
            best = total / W
        elif flag == _UPPER:
            best = -(-total // W)
        elif flag == _LOWER or not total % W:
            best = total // W
        else:
            best = Fraction(total, W)  # not a whole number of 1/scale: exact all the same
        return best, flag

    def exact(self, s: State):
        """The exact value of ``s`` for player 0 (the full window)."""
        return self.ab(s, self.lo, self.hi)

    def worth(self, s: State, v, q: int) -> bool:
        """Whether ``s``, a child of player ``q``'s node of value ``v`` (for
        player 0), is worth ``v`` too: a null-window test, as the child is
        worth at most ``v`` (``q == 0``) or at least ``v`` (``q == 1``)."""
        lo, hi = self.lo, self.hi
        if q == 0:
            return v <= lo or self.ab(s, max(v - _EPS, lo), v) >= v
        return v >= hi or self.ab(s, v, min(v + _EPS, hi)) <= v

    def matrix(self, s: State) -> tuple[list[str], list[str], list[list]]:
        """The simultaneous choice at ``s`` as ``(rows, columns, A)``: the
        mover's picks, the other player's, and the mover's value of each pair
        (``None``: the pair leads back to ``s``, a tie picked again)."""
        sign = 1 if s.current_player == 0 else -1
        rows = s.legal_actions()
        cols: list[str] | None = None
        A = []
        for a in rows:
            c = s._apply(a)
            acts = c.legal_actions()
            if cols is None:
                cols = acts
            elif acts != cols:
                raise NotSolvableError(_("{game}: the second picker's choices depend on the first pick, which "
                                         "they cannot see; not a simultaneous choice").format(game=s.game.name))
            row = []
            for b in acts:
                g = c._apply(b)
                row.append(None if g == s else sign * self.exact(g))  # a tie that leads back here
            A.append(row)
        return rows, cols or [], A

    # any number of players: max-n (each player maximises their own payoff)
    def maxn(self, s: State) -> tuple:
        """max-n: every player's exact value of ``s``."""
        return self.maxnc(self._encode(s))

    def maxnc(self, pos) -> tuple:
        """max-n on the game's core (every player's value, exact)."""
        self.nodes += 1
        if self.nodes >= self.next_tick:
            self._tick()
        table = self.table
        if table is not None:
            v = table.get(pos)
            if v is not None:
                self.hits += 1
                return v
        core = self.core
        p = core.player(pos)
        best: Any
        if p == TERMINAL:
            best = tuple(core.returns(pos))
        elif p >= 0 and self.simultaneous and core.simultaneous(pos):
            raise NotSolvableError(_("{game}: a simultaneous choice needs two players and a zero-sum game (a "
                                     "matrix game); max-n does not solve it").format(game=core.decode(pos).game.name))
        elif p == CHANCE:
            outs = core.chance(pos)
            total = sum(w for _o, w in outs)
            acc: Any = None
            for o, w in outs:
                v = self.maxnc(core.play(pos, o))
                acc = [w * x for x in v] if acc is None else [x + w * y for x, y in zip(acc, v)]
            best = tuple(Fraction(x, total) for x in acc)
            best = tuple(x.numerator if x.denominator == 1 else x for x in best)
        else:
            best = None
            for m in core.moves(pos):  # ties go to the first action in canonical order
                v = self.maxnc(core.play(pos, m))
                if best is None or v[p] > best[p]:
                    best = v
        if table is not None:
            if len(table) >= self.max_table_entries:
                self._forget(table)
            table[pos] = best
        return best


class _StateCore:
    """The public ``State`` seen as a core (the protocol of :mod:`cardlab.cores`):
    positions are the states themselves, moves their actions, chance weights
    the probabilities over their common denominator."""

    @staticmethod
    def encode(s: State) -> State:
        return s

    @staticmethod
    def decode(s: State) -> State:  # encode's twin (mypyc: an alias ``decode = encode`` fails its class's init)
        return s

    @staticmethod
    def player(s: State) -> int:
        return s.current_player

    @staticmethod
    def moves(s: State) -> list[str]:
        return s.legal_actions()

    @staticmethod
    def chance(s: State) -> list[tuple[str, int]]:
        outcomes = s.chance_outcomes()
        d = math.lcm(*(q.denominator for _a, q in outcomes))
        return [(a, q.numerator * (d // q.denominator)) for a, q in outcomes]

    @staticmethod
    def play(s: State, action: str) -> State:
        return s._apply(action)

    @staticmethod
    def returns(s: State) -> list:
        return s.returns()

    @staticmethod
    def simultaneous(s: State) -> bool:
        return bool(s.simultaneous())


_STATE_CORE = _StateCore()


def _scale(core, pos, lo, hi, playouts: int = 16) -> int:
    """The unit of the core search's values below ``pos``: the least common
    multiple, over a few seeded random playouts, of the product of the chance
    weights' totals met on the way (draws from decks of 8, 7, 6 cards:
    8·7·6) and of the payoffs' denominators.  When every value below ``pos``
    is a whole number of 1/scale, the search adds and compares integers only;
    where one is not, it stays an exact Fraction."""
    rng = random.Random(0)
    scale = math.lcm(Fraction(lo).denominator, Fraction(hi).denominator)
    for _i in range(playouts):
        p, product, steps = pos, 1, 0
        while (q := core.player(p)) != TERMINAL and steps < 10_000:
            steps += 1
            if q == CHANCE:
                outs = core.chance(p)
                product *= sum(w for _o, w in outs)
                p = core.play(p, rng.choices([o for o, _w in outs], [w for _o, w in outs])[0])
            else:
                p = core.play(p, rng.choice(core.moves(p)))
        if q == TERMINAL:
            product *= Fraction(core.returns(p)[0]).denominator
        scale = math.lcm(scale, product)
    return scale


_CHOICES: dict[tuple, Any] = {}


def _choice_value(A: list[list]) -> Any:
    """The value of a simultaneous choice (cached: few distinct matrices recur)."""
    key = tuple(map(tuple, A))
    v = _CHOICES.get(key)
    if v is None:
        v = repeated_value(A)
        if len(_CHOICES) < 100_000:
            _CHOICES[key] = v
    return v


def check_solvable(state: State) -> None:
    spec = state.game.spec
    if not spec.perfect_information:
        opt = "open_hands=True" if "open_hands" in state.game.OPTIONS else _("a perfect-information option")
        raise NotSolvableError(
            _("{game} with these options has hidden information, which solve() does not handle; load it with "
              "{option} (cardlab.load({name}, {option})) to solve it exactly").format(
                game=state.game.name, option=opt, name=repr(state.game.name)))


def use_maxn(state: State) -> bool:
    spec = state.game.spec
    return spec.num_players != 2 or not spec.zero_sum


def _frac(v) -> Fraction:
    return Fraction(v)


def values_of(state: State, search: Search) -> tuple:
    if use_maxn(state):
        return tuple(_frac(v) for v in search.maxn(state))
    v = _frac(search.exact(state))
    return (v, -v)



def _choice(state: State, search: Search) -> tuple[State, list[str], list[str], list[list], Any]:
    """The simultaneous choice ``state`` is part of (either level): its
    start, rows, columns, the matrix with the tie entries filled in, and the
    :class:`~cardlab.matrix.MatrixSolution`."""
    root = state.simultaneous_start() or state
    rows, cols, A = search.matrix(root)
    try:
        v, sol = repeated_value(A, with_strategies=True)
    except ValueError as e:
        raise NotSolvableError(_("{game}: {problem}").format(game=state.game.name, problem=e)) from None
    return root, rows, cols, [[v if x is None else x for x in r] for r in A], sol


def mixes_of(state: State, search: Search) -> tuple[dict[int, dict[str, Any]], dict[int, Any]]:
    """Both players' optimal mixed strategies at a simultaneous choice, and
    ``{player: epsilon}`` for a mix that is optimal only to within epsilon."""
    root, rows, cols, _, sol = _choice(state, search)
    first, second = root.simultaneous()
    epsilon = {first if sol.value > 0 else second: sol.epsilon} if sol.epsilon else {}
    return {first: dict(zip(rows, sol.rows)), second: dict(zip(cols, sol.columns))}, epsilon


def action_values(state: State, p: int, search: Search) -> tuple[dict[str, Any], dict[str, Any] | None, Any]:
    """Each legal action's value for ``p`` (the player to move), and at a
    simultaneous choice also ``p``'s optimal mix: each pick is then valued
    against the other player's optimal mix (the picks of the mix are all
    worth the game's value, the others less); third, the epsilon to within
    which ``p``'s mix gets the value (0: exactly)."""
    if not (state.simultaneous() or state.simultaneous_start() is not None):
        return {a: values_of(state._apply(a), search)[p] for a in state.legal_actions()}, None, 0
    root, rows, cols, M, sol = _choice(state, search)
    sign = 1 if root.current_player == p else -1  # M is the first picker's
    if state is root:  # the first picker's half
        vals = {a: sign * sum(M[i][j] * y for j, y in enumerate(sol.columns)) for i, a in enumerate(rows)}
        return vals, dict(zip(rows, sol.rows)), sol.epsilon if sol.value > 0 else 0
    vals = {b: sign * sum(M[i][j] * x for i, x in enumerate(sol.rows)) for j, b in enumerate(cols)}
    return vals, dict(zip(cols, sol.columns)), sol.epsilon if sol.value < 0 else 0
