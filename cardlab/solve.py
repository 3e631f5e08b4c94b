"""Exact solving: expectiminimax with alpha-beta and a transposition table,
max-n for more than two players, backward induction over networkx trees, and
the per-action analysis of a position.

Values are exact: payoffs are integers, chance probabilities are
:class:`~fractions.Fraction`, so every value is a ``Fraction`` that sympy can
take over (``sympy.Rational(v.numerator, v.denominator)``).

Simultaneous choices (:meth:`~cardlab.State.simultaneous`, two players,
zero-sum) are matrix games: the value of every pair of picks is searched
with a full window and the matrix solved exactly
(:mod:`cardlab.matrix`); a pair of picks that leads back to the same
position (a tied janken picked again) makes that entry the node's own
value, and the node's value is the fixed point.  The rare fixed point that
is irrational comes back as an exact sympy number.
"""

from __future__ import annotations

import html
import math
import random
import sys
import time
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice
from typing import Any, Callable

import networkx as nx

from .core import CHANCE, TERMINAL, State
from .cores import core_of
from .errors import NotSolvableError, TooLargeError
from .i18n import N_, _, pgettext
from .matrix import repeated_value

__all__ = ["solve", "minimax", "solve_tree", "analyse", "Solution", "Analysis"]

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = float("inf")
_EPS = Fraction(1, 10**6)  # the width of a null-window test (any positive width is exact)
_PROGRESS_AFTER = 2.0  # seconds before an automatic progress bar appears
_TICK = 4096


@dataclass
class Solution:
    """The result of :func:`solve`.

    ``value`` is the exact expectation of ``returns()[0]`` under optimal play
    (``values`` holds every player's, for max-n); ``best_actions`` the optimal
    actions at the root; ``pv`` the principal variation up to the next chance
    event; ``nodes`` the positions searched; ``tt_hits`` and ``tt_entries``
    the transposition-table lookups that answered and its final size.
    """

    value: Fraction
    best_actions: list[str]
    pv: list[str]
    nodes: int
    tt_hits: int
    tt_entries: int
    seconds: float
    method: str
    values: tuple = ()
    #: at a simultaneous choice (either level): each player's optimal mixed
    #: strategy ``{player: {action: probability}}``; ``best_actions`` are the
    #: mover's picks with a positive probability
    mixes: dict = field(default_factory=dict)
    #: ``{player: epsilon}`` for a mix that gets the value only to within
    #: epsilon (a tie picked again where no fixed mix reaches the value, see
    #: :func:`cardlab.matrix.repeated_value`); empty: every mix optimal
    mix_epsilon: dict = field(default_factory=dict)

    def __str__(self) -> str:
        mixes = "".join(_("; player {player} mixes {mix}").format(player=p, mix=mix_text(m, self.mix_epsilon.get(p)))
                        for p, m in self.mixes.items())
        return _("value {value} (≈ {approx:+.4f}) for player 0; best: {best}{mixes}; pv: {pv}; "
                 "{nodes:,} nodes, {hits:,} table hits, {method}").format(
            value=self.value, approx=float(self.value), best=", ".join(self.best_actions) or "—",
            mixes=mixes, pv=" → ".join(self.pv) or "—", nodes=self.nodes, hits=self.tt_hits,
            method=_(self.method) if self.method in METHODS else self.method)


#: the ``Solution.method`` names (for the catalogue)
METHODS = (N_("max-n"), N_("alpha-beta + table"), N_("alpha-beta"), N_("expectiminimax + table"),
           N_("expectiminimax"))


def mix_text(mix: dict[str, Any], epsilon: Any = 0) -> str:
    """``"pick rock 2/7, pick paper 5/7"``: the picks of a mixed strategy
    (and, for one that gets the value only to within ``epsilon``, says so)."""
    text = ", ".join(f"{a} {q}" for a, q in mix.items() if q)
    if not epsilon:
        return text
    return text + _(" (within {epsilon} of the value: no fixed mix gets it exactly)").format(epsilon=epsilon)


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


class _Search:
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
        self.history = (defaultdict(int), defaultdict(int))
        self.ordering = getattr(self.core, "history_heuristic", False)
        self.pruning = pruning
        self.max_nodes = max_nodes
        self.nodes = 0
        self.hits = 0
        self.progress = progress
        self.simultaneous = spec.simultaneous
        self.bar = None
        self.start = time.perf_counter()
        self.next_tick = _TICK if max_nodes is None else min(_TICK, max_nodes)

    def _tick(self) -> None:
        """Every few thousand nodes (and at the node limit): limit and progress."""
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise TooLargeError(_("the solve passed max_nodes={max_nodes} positions (about {gb:.1g} GB of "
                                  "table); raise max_nodes or solve a smaller position").format(
                max_nodes=self.max_nodes, gb=self.max_nodes * BYTES_PER_POSITION / 1e9))
        self.next_tick = self.nodes + _TICK
        if self.max_nodes is not None:
            self.next_tick = min(self.next_tick, self.max_nodes + 1)
        if self.progress is False:
            return
        if self.bar is None and (self.progress or time.perf_counter() - self.start > _PROGRESS_AFTER):
            try:
                from tqdm.auto import tqdm
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
        play, abc = core.play, self.abc
        if p >= 0 and self.simultaneous and core.simultaneous(pos):  # a matrix game, on the State
            v = _choice_value(self.matrix(core.decode(pos))[2]) * self.scale  # the mover's value
            best, flag = (v if p == 0 else -v), _EXACT
        elif p == CHANCE:
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
                    v = abc(play(pos, o), a_i if a_i > lo else lo, b_i if b_i < hi else hi)
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
                    total += w * abc(play(pos, o), lo, hi)
            if total.__class__ is not int:
                best = total / W
            elif flag == _UPPER:
                best = -(-total // W)
            elif flag == _LOWER or not total % W:
                best = total // W
            else:
                best = Fraction(total, W)  # not a whole number of 1/scale: exact all the same
        elif p == 0:
            best = -_INF
            ms = core.moves(pos)
            if self.ordering and len(ms) > 1:
                ms = sorted(ms, key=self.history[0].__getitem__, reverse=True)
            for m in ms:
                n0 = self.nodes
                v = abc(play(pos, m), alpha, beta)
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
                v = abc(play(pos, m), alpha, beta)
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
                row.append(None if g._k == s._k else sign * self.exact(g))
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
        if p == TERMINAL:
            best = tuple(core.returns(pos))
        elif p >= 0 and self.simultaneous and core.simultaneous(pos):
            raise NotSolvableError(_("{game}: a simultaneous choice needs two players and a zero-sum game (a "
                                     "matrix game); max-n does not solve it").format(game=core.decode(pos).game.name))
        elif p == CHANCE:
            outs = core.chance(pos)
            total = sum(w for _o, w in outs)
            acc = None
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

    decode = encode

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


def _check_solvable(state: State) -> None:
    spec = state.game.spec
    if not spec.perfect_information:
        opt = "open_hands=True" if "open_hands" in state.game.OPTIONS else _("a perfect-information option")
        raise NotSolvableError(
            _("{game} with these options has hidden information, which solve() does not handle; load it with "
              "{option} (cardlab.load({name}, {option})) to solve it exactly").format(
                game=state.game.name, option=opt, name=repr(state.game.name)))


def _use_maxn(state: State) -> bool:
    spec = state.game.spec
    return spec.num_players != 2 or not spec.zero_sum


def _frac(v) -> Fraction:
    return Fraction(v)


def solve(state: State, *, table: bool = True, pruning: bool = True,
          max_nodes: int | None = DEFAULT_MAX_NODES, progress: bool | None = None,
          max_table: int | None = DEFAULT_MAX_TABLE, core: bool = True) -> Solution:
    """Solve a perfect-information position exactly.

    Two-player zero-sum games use expectiminimax with alpha-beta pruning
    (Star1 at chance nodes) and a transposition table keyed by the canonical
    position, one search for the value; the best actions and the principal
    variation then come from null-window tests against it.  Other games use
    max-n.  The search runs on the game's compact core
    (:mod:`cardlab.cores`: integer positions, moves and chance weights) where
    there is one; ``core=False`` searches the public ``State`` objects
    instead (same values, slower).  ``table=False`` and ``pruning=False``
    turn the refinements off (for comparison); ``progress`` shows a tqdm bar
    (``None``: only once the solve has run for two seconds).  A search of
    more than ``max_nodes`` positions stops with :class:`~cardlab.TooLargeError`
    (default :data:`DEFAULT_MAX_NODES`; ``None``: no limit).  The table keeps
    at most ``max_table`` entries (default :data:`DEFAULT_MAX_TABLE`; ``None``:
    no limit): past that it forgets its older half and goes on, slower but as
    exact.

    >>> import cardlab
    >>> game = cardlab.load("koinobori", open_hands=True)
    >>> sol = cardlab.solve(game.state_from_dict({
    ...     "stage": "turn", "to_move": 0, "deck": {"higoi": 1, "fukinagashi": 1},
    ...     "field": {"higoi": 1, "aokoi": 1, "magoi": 1},
    ...     "hands": [{"magoi": 1}, {"aokoi": 1}],
    ...     "nobori": [{"higoi": 2, "magoi": 2}, {"aokoi": 1, "fuki+aokoi": 2}],
    ...     "kabutogaeshi_used": [1, 1], "koikoi": [0, 0], "koikoi_won": None, "then": "",
    ...     "options": {"open_hands": True}}))
    >>> sol.value, sol.best_actions
    (Fraction(1, 1), ['nobori magoi', 'play magoi'])
    """
    _check_solvable(state)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    search = _Search(state.game, table=table, pruning=pruning, max_nodes=max_nodes, progress=progress,
                     max_table=max_table, use_core=core)
    start = time.perf_counter()
    try:
        return _solution(state, search, "max-n" if _use_maxn(state) else
                         ("alpha-beta" if pruning else "expectiminimax") + (" + table" if table else ""),
                         start)
    finally:
        search.close()


def minimax(state: State, *, max_nodes: int | None = DEFAULT_MAX_NODES) -> Solution:
    """The plain baseline: expectiminimax with no table and no pruning."""
    return solve(state, table=False, pruning=False, max_nodes=max_nodes, progress=False)


def _values(state: State, search: _Search) -> tuple:
    if _use_maxn(state):
        return tuple(_frac(v) for v in search.maxn(state))
    v = _frac(search.exact(state))
    return (v, -v)


def _solution(state: State, search: _Search, method: str, start: float) -> Solution:
    """One search for the value; then the best actions and the principal
    variation, each child tested against its parent's value.  Two players:
    every position of the principal variation is worth the root's value, so
    a null-window test answers (mostly from the table); max-n: the table's
    exact values."""
    values = _values(state, search)
    maxn = _use_maxn(state)

    def worth(c: State, target, q: int) -> bool:
        """Whether child ``c`` of ``q``'s node is worth ``target``, the
        node's value (for ``q``; two players: for player 0)."""
        return _values(c, search)[q] == target if maxn else search.worth(c, target, q)

    best: list[str] = []
    p = state.current_player
    mixes: dict[int, dict[str, Any]] = {}
    epsilon: dict[int, Any] = {}
    if p >= 0 and (state.simultaneous() or state.simultaneous_start() is not None):
        mixes, epsilon = _mixes(state, search)
        best = [a for a, q in mixes[p].items() if q]
    elif p >= 0:
        target = values[p] if maxn else values[0]
        best = [a for a in state.legal_actions() if worth(state._apply(a), target, p)]
    pv: list[str] = []
    s = state
    while s.current_player >= 0 and not s.simultaneous() and len(pv) < 200:
        q = s.current_player
        tested = s is state and not mixes  # the root's actions were tested above
        target = _values(s, search)[q] if maxn else values[0]
        for a in s.legal_actions():
            c = s._apply(a)
            if a in best if tested else worth(c, target, q):
                pv.append(a)
                s = c
                break
    return Solution(value=values[0], best_actions=best, pv=pv, nodes=search.nodes,
                    tt_hits=search.hits, tt_entries=search.entries(),
                    seconds=time.perf_counter() - start, method=method, values=values, mixes=mixes,
                    mix_epsilon=epsilon)


def _choice(state: State, search: _Search) -> tuple[State, list[str], list[str], list[list], Any]:
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


def _mixes(state: State, search: _Search) -> tuple[dict[int, dict[str, Any]], dict[int, Any]]:
    """Both players' optimal mixed strategies at a simultaneous choice, and
    ``{player: epsilon}`` for a mix that is optimal only to within epsilon."""
    root, rows, cols, _, sol = _choice(state, search)
    first, second = root.simultaneous()
    epsilon = {first if sol.value > 0 else second: sol.epsilon} if sol.epsilon else {}
    return {first: dict(zip(rows, sol.rows)), second: dict(zip(cols, sol.columns))}, epsilon


def _action_values(state: State, p: int, search: _Search) -> tuple[dict[str, Any], dict[str, Any] | None, Any]:
    """Each legal action's value for ``p`` (the player to move), and at a
    simultaneous choice also ``p``'s optimal mix: each pick is then valued
    against the other player's optimal mix (the picks of the mix are all
    worth the game's value, the others less); third, the epsilon to within
    which ``p``'s mix gets the value (0: exactly)."""
    if not (state.simultaneous() or state.simultaneous_start() is not None):
        return {a: _values(state._apply(a), search)[p] for a in state.legal_actions()}, None, 0
    root, rows, cols, M, sol = _choice(state, search)
    sign = 1 if root.current_player == p else -1  # M is the first picker's
    if state is root:  # the first picker's half
        vals = {a: sign * sum(M[i][j] * y for j, y in enumerate(sol.columns)) for i, a in enumerate(rows)}
        return vals, dict(zip(rows, sol.rows)), sol.epsilon if sol.value > 0 else 0
    vals = {b: sign * sum(M[i][j] * x for i, x in enumerate(sol.rows)) for j, b in enumerate(cols)}
    return vals, dict(zip(cols, sol.columns)), sol.epsilon if sol.value < 0 else 0


def solve_tree(G: nx.DiGraph) -> dict[int, tuple]:
    """Backward induction over a tree from :func:`cardlab.tree`.

    Sets the node attribute ``value`` (a tuple of exact values, one per
    player) on every node and returns ``{node: value}``.  Two-player zero-sum
    games are solved as minimax, others as max-n (ties: first edge), chance
    nodes as expectations.  A ``frontier`` node has no value: the tree must be
    complete.  A simultaneous choice (node attribute ``simultaneous``) is
    solved as its matrix game, a tie that leads back to it as the fixed
    point (:mod:`cardlab.matrix`).
    """
    values: dict[int, tuple] = {}
    # a tie picked again: an edge from the second picker back to the choice's start
    again = {(c, n) for n, d in G.nodes(data=True) if d.get("simultaneous")
             for c in G.succ[n] if G.has_edge(c, n)}
    order = nx.topological_sort(nx.restricted_view(G, [], list(again)) if again else G)
    for n in reversed(list(order)):
        d = G.nodes[n]
        if d.get("simultaneous") and not d.get("frontier"):
            first = d["player"]
            A = [[None if m == n else values[m][first] for _, m in sorted(_picks(G, c))]
                 for _, c in sorted(_picks(G, n))]
            v = repeated_value(A)
            values[n] = (v, -v) if first == 0 else (-v, v)
            d["value"] = values[n]
            continue
        if d["terminal"]:
            v = d["returns"]
        elif d.get("frontier") or not G.succ[n]:
            raise NotSolvableError(_("node {node} (depth {depth}) is an unexpanded frontier; build the tree "
                                     "without max_depth or truncate to solve it").format(node=n, depth=d["depth"]))
        elif d["player"] == CHANCE:
            acc = None
            for m, e in G.succ[n].items():
                w = [e["prob"] * x for x in values[m]]
                acc = w if acc is None else [x + y for x, y in zip(acc, w)]
            v = tuple(acc)
        else:
            p = d["player"]
            v = None
            for m in G.succ[n]:
                if (n, m) in again:
                    continue
                if v is None or values[m][p] > v[p]:
                    v = values[m]
        values[n] = tuple(Fraction(x) if isinstance(x, int) else x for x in v)
        d["value"] = values[n]
    return values


def _picks(G: nx.DiGraph, n: Any) -> list[tuple[str, Any]]:
    """``(action, child)`` for every action out of ``n`` (an edge that merges
    several actions, ``"a | b"``, gives one pair each)."""
    return [(a, m) for m, e in G.succ[n].items() for a in e["action"].split(" | ")]


@dataclass
class Analysis:
    """Every legal action of a position with its value and its loss.

    ``rows`` hold ``action``, ``value`` (expected ``returns()[player]`` after
    it, for the player to move), ``loss`` (how much less than the best) and
    ``best`` (bool).  Printing gives a text table; in a notebook it shows as
    an HTML table.

    ``kind`` says what the values are: ``"open"`` (exact, every card seen:
    perfect information, or a teacher's open hint), ``"fair"`` (exact
    average over the ``arrangements`` positions the player cannot tell
    apart, a :class:`~fractions.Fraction`) or ``"sampled"`` (the mean over
    ``arrangements`` random ones; each row then has ``interval``, its 95 %
    confidence interval).
    """

    player: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    kind: str = "open"
    arrangements: int = 1
    #: at a simultaneous choice: the player's optimal mixed strategy (each
    #: action's value is then against the other player's optimal mix)
    mix: dict | None = None
    #: the mix gets the value only to within this (0: exactly; see
    #: :func:`cardlab.matrix.repeated_value`)
    mix_epsilon: Any = 0

    @property
    def value(self) -> Fraction:
        return max(r["value"] for r in self.rows)

    @property
    def title(self) -> str:
        """One line: what the values are and what they were computed from."""
        p = self.player
        if self.kind == "fair":
            if self.arrangements == 1:
                return _("fair hint (only what player {player} can see): exact; the hidden cards can lie only "
                         "one way, given what the player has seen").format(player=p)
            return _("fair hint (only what player {player} can see): exact average over the {n:,} "
                     "arrangements of the hidden cards").format(player=p, n=self.arrangements)
        if self.kind == "sampled":
            return _("fair hint (only what player {player} can see): mean over {n:,} random arrangements of "
                     "the hidden cards, with a {percent} interval").format(
                         player=p, n=self.arrangements, percent="95 %")
        return _("exact value of each action for player {player}").format(player=p)

    @property
    def mix_line(self) -> str:
        return _("a simultaneous choice (同時): the best is to mix, {mix}; each value is against the other "
                 "player's best mix").format(mix=mix_text(self.mix or {}, self.mix_epsilon))

    def _interval(self, r: dict[str, Any]) -> str:
        lo, hi = r.get("interval", (None, None))
        return "" if lo is None else f"{lo:+.2f} … {hi:+.2f}"

    def __str__(self) -> str:
        w = max([len(r["action"]) for r in self.rows] + [6])
        sampled = self.kind == "sampled"
        lines = [_("player {player} to move; values are player {player}'s expected payoff").format(player=self.player)]
        if self.kind != "open":
            lines.append(self.title)
        if self.mix:
            lines.append(self.mix_line)
        h_action, h_value, h_loss, h_interval = _headings()
        lines.append(_pad(h_action, w) + "  " + _pad(h_value, 9, right=True) + f"  {'≈':>7}  "
                     + _pad(h_loss, 7, right=True) + ("  " + h_interval if sampled else ""))
        for r in self.rows:
            mark = "  ← " + pgettext("analysis", "best") if r["best"] else ""
            value = f"{float(r['value']):.3f}" if sampled else str(r["value"])
            loss = f"{float(r['loss']):.3f}" if sampled else str(r["loss"])
            lines.append(f"{r['action']:<{w}}  {value:>9}  {float(r['value']):>+7.3f}  "
                         f"{loss:>7}" + (f"  {self._interval(r)}" if sampled else "") + mark)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        bold = ' style="font-weight:bold"'
        sampled = self.kind == "sampled"
        body = "".join(
            f"<tr{bold if r['best'] else ''}><td>{html.escape(r['action'])}</td>"
            f"<td>{r['value'] if not sampled else format(float(r['value']), '.3f')}</td>"
            f"<td>{float(r['value']):+.3f}</td><td>{r['loss'] if not sampled else format(float(r['loss']), '.3f')}</td>"
            + (f"<td>{html.escape(self._interval(r))}</td>" if sampled else "") + "</tr>"
            for r in self.rows)
        action, value, loss, interval = map(html.escape, _headings())
        head = (f"<tr><th>{action}</th><th>{value}</th><th>≈</th><th>{loss}</th>"
                + (f"<th>{interval}</th>" if sampled else "") + "</tr>")
        caption = (html.escape(_("player {player} to move: exact value of each action").format(player=self.player))
                   if self.kind == "open" else html.escape(self.title))
        if self.mix:
            caption += "<br>" + html.escape(self.mix_line)
        return f"<table><caption>{caption}</caption>{head}{body}</table>"


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns, a wide (CJK) character
    taking two (for ASCII the same as ``format(text, "<width")``)."""
    cols = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    fill = " " * max(0, width - cols)
    return fill + text if right else text + fill


def _headings() -> tuple[str, str, str, str]:
    """The column headings of an analysis table."""
    return (pgettext("analysis", "action"), pgettext("analysis", "value"), pgettext("analysis", "loss"),
            pgettext("analysis", "{percent} interval").format(percent="95 %"))


def _rows(values: dict[str, Any], intervals: dict[str, tuple] | None = None) -> list[dict[str, Any]]:
    best = max(values.values())
    rows = []
    for a, v in values.items():
        r = {"action": a, "value": v, "loss": best - v, "best": v == best}
        if intervals is not None:
            r["interval"] = intervals[a]
        rows.append(r)
    return rows


def analyse(state: State, *, player: int | None = None, max_nodes: int | None = DEFAULT_MAX_NODES,
            progress: bool | None = None, max_arrangements: int = 500, samples: int = 40,
            callback: Callable[[int, int], None] | None = None) -> Analysis:
    """The value of every legal action at a decision node, and the loss of
    each against the best one.

    Without ``player``: the exact values with every card seen (a
    double-dummy analysis); the position must have perfect information
    (load the game with ``open_hands=True``).

    With ``player`` (the player to move): the **fair hint**, computed only
    from what that player can see.  Each action is valued in every
    arrangement of the cards the player cannot see that agrees with what
    they have seen (:func:`cardlab.hidden.arrangements`), solved with open
    hands from there, and averaged by the arrangements' exact probabilities
    (a single-dummy analysis): exact Fractions when there are at most
    ``max_arrangements`` arrangements, otherwise the mean over ``samples``
    random ones with a 95 % interval (seeded from what the player knows, so
    the answer depends on nothing else).  ``max_nodes`` bounds the whole
    search (default :data:`DEFAULT_MAX_NODES`; ``None``: no limit); ``callback(done, total)`` is called after each arrangement.

    >>> import cardlab
    >>> game = cardlab.load("koinobori", open_hands=True, payoff="score")
    >>> s = game.state_from_dict({
    ...     "stage": "turn", "to_move": 0, "deck": {"higoi": 1, "fukinagashi": 1},
    ...     "field": {"higoi": 1, "aokoi": 1, "magoi": 1},
    ...     "hands": [{"magoi": 1}, {"aokoi": 1}],
    ...     "nobori": [{"higoi": 2, "magoi": 2}, {"aokoi": 1, "fuki+aokoi": 2}],
    ...     "kabutogaeshi_used": [1, 1], "koikoi": [0, 0], "koikoi_won": None, "then": "",
    ...     "options": {"open_hands": True, "payoff": "score"}})
    >>> print(cardlab.analyse(s))
    player 0 to move; values are player 0's expected payoff
    action            value        ≈     loss
    nobori magoi       19/2   +9.500      3/2
    play magoi           11  +11.000        0  ← best
    """
    p = state.current_player
    if p < 0:
        raise NotSolvableError(_("analyse() needs a player to move; this position is a chance node") if p == CHANCE
                               else _("analyse() needs a player to move; this position is terminal"))
    if player is not None:
        if player != p:
            raise NotSolvableError(_("a hint is for the player to move: player {player} is to move, not "
                                     "player {asked}").format(player=p, asked=repr(player)))
        if not state.game.spec.perfect_information:
            return _fair(state, p, max_nodes, progress, max_arrangements, samples, callback)
    _check_solvable(state)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    search = _Search(state.game, max_nodes=max_nodes, progress=progress)
    try:
        values, mix, epsilon = _action_values(state, p, search)
    finally:
        search.close()
    if callback is not None:
        callback(1, 1)
    return Analysis(player=p, rows=_rows(values), nodes=search.nodes, mix=mix, mix_epsilon=epsilon)


def _fair(state: State, p: int, max_nodes: int | None, progress: bool | None,
          max_arrangements: int, samples: int, callback: Callable[[int, int], None] | None) -> Analysis:
    """The fair hint: open-hands values averaged over what ``p`` cannot see."""
    from .agents import open_hands_copy
    from .hidden import arrangements, information_rng, sample_arrangement

    try:
        worlds = arrangements(state, p, limit=max_arrangements)
        kind = "fair"
    except TooLargeError:
        rng = information_rng(state, p, "fair hint")
        worlds = [(sample_arrangement(state, p, rng), Fraction(1, samples)) for _ in range(samples)]
        kind = "sampled"
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    actions = state.legal_actions()
    open_game = open_hands_copy(worlds[0][0]).game
    search = _Search(open_game, max_nodes=max_nodes, progress=progress)
    seen: list[dict[str, Fraction]] = []
    mixes = []
    epsilon: Any = 0
    try:
        for i, (world, _weight) in enumerate(worlds, 1):
            values, mix, eps = _action_values(open_hands_copy(world), p, search)
            seen.append(values)
            mixes.append(mix)
            epsilon = max(epsilon, eps)
            if callback is not None:
                callback(i, len(worlds))
    finally:
        search.close()
    values = {a: sum((w * v[a] for (_, w), v in zip(worlds, seen)), Fraction(0)) for a in actions}
    intervals = None
    if kind == "sampled":
        intervals = {}
        n = len(seen)
        for a in actions:
            m = float(values[a])
            var = sum((float(v[a]) - m) ** 2 for v in seen) / (n - 1) if n > 1 else 0.0
            half = 1.96 * math.sqrt(var / n)
            intervals[a] = (m - half, m + half)
    mix = mixes[0] if all(m == mixes[0] for m in mixes) else None  # one mix in every arrangement
    return Analysis(player=p, rows=_rows(values, intervals), nodes=search.nodes, kind=kind,
                    arrangements=len(worlds), mix=mix, mix_epsilon=epsilon if mix else 0)
