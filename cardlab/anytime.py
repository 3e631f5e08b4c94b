"""Anytime analysis: a value for every legal move at every decision, within a
budget of time (``seconds``) or of work (``nodes``), never "too large".

:func:`cardlab.analyse` comes here when it is given a budget.  The method,
perfect-information Monte Carlo over the arrangements a player cannot tell
apart, with exact solving wherever it fits:

1. **The arrangements.**  With hidden cards, the positions the player cannot
   tell from the true one (:mod:`cardlab.hidden`): all of them, with their
   exact probabilities, when there are no more than half the budget could
   solve (:func:`_listable`; and at most ``max_arrangements``, if given), else a
   stream of random ones, each drawn with its probability.  Every draw
   comes from a random stream seeded from the player's information set, so
   two positions the player cannot tell apart get the same answer.  With
   every card seen (perfect information, or a teacher's open hint) there is
   one arrangement.
2. **Exact where it fits.**  Each arrangement is solved with every card
   shown (:mod:`cardlab.search`, one transposition table for all of them),
   the arrangements in a seeded order, each with its share of what is left
   of the budget.  When every arrangement is solved, the answer is the
   exact fair hint, Fractions, the same as :func:`cardlab.analyse` without a
   budget (and the exact open value with one arrangement).
3. **An estimate past it.**  Once an arrangement does not fit, the
   arrangements not yet solved are drawn at random (by their probability)
   and each is searched briefly with every card shown: a Monte Carlo tree
   search on the game's compact core (:func:`_uct`, UCT with random
   playouts, :data:`ITERATIONS_PER_MOVE` iterations per legal move), which
   values each move by the mean result of the games through it.  A move's
   estimate is the probability-weighted value of the solved arrangements
   plus the mean over the drawn ones for the rest, with a 95 % interval from
   the spread over the drawn arrangements (normal approximation, clipped to
   the game's payoff range; one draw: the whole range).  A short search is
   not best play: where random games mislead (a forced win they do not
   find) it is biased, about alike in every arrangement of one position.
   So where some arrangements were solved exactly, the tree search also
   values a few of them (:func:`_calibrate`) and its mean error there is
   taken off the searched values, its uncertainty added to the interval.
   An estimate can still be off by more than its interval;
   ``benchmarks/anytime_quality.py`` measures how often its best move is an
   exact best move (it beat random playouts from each move there: "flat",
   :data:`METHOD`).

Like the fair hint, the answer assumes that after this move the game is
played as if every card were shown (what bridge players call strategy
fusion): the values are averages of open-hands values.
"""

from __future__ import annotations

import math
import numbers
import random
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .cores import core_of, playout, playout_from
from .core import CHANCE, TERMINAL, State
from .errors import BudgetError, NotSolvableError, TooLargeError
from .hidden import arrangements, information_rng, open_hands_copy, sample_arrangement
from .i18n import _
from .search import Search, action_values

__all__ = ["anytime", "check_budget", "estimate", "Budget"]

#: how an arrangement past the exact search is valued: "uct" (a small tree
#: search on the compact core, :func:`_uct`) or "flat" (random playouts
#: from each move); measured in benchmarks/anytime_quality.py
METHOD = "uct"
#: the tree search's iterations per arrangement, per legal move
ITERATIONS_PER_MOVE = 8
#: the tree search's longest path before it plays out at random (a tied
#: choice picked again can lead back to the same position)
MAX_TREE_DEPTH = 400
#: playouts per move in each arrangement valued by playouts (no core, or "flat")
PLAYOUTS = 2
#: how many arrangements are listed where random deals hardly ever agree
#: with what the player saw (:meth:`_Worlds._sample`)
LIST_AT_MOST = 100_000
#: how many of the exactly solved arrangements the tree search also values,
#: to measure its error (:func:`_calibrate`)
CALIBRATION = 4
#: the smallest measured error taken off, as a share of the payoff range
LARGE_ERROR = 0.25
#: how many arrangements are solved before their cost predicts the rest's
WARM_UP = 3
#: the exact phase trusts that prediction only once this share of the budget
#: is spent: the shared table warms, so later arrangements cost less than the
#: last ones did (measured on the positions where the method before gave an
#: estimate at 2 s: Mazemon 45, mean loss 2.2 -> 1.7 %, p95 14 -> 7 %, 0 -> 10
#: answered exactly; Koi-koi Nobori 28, 1.74 -> 1.70 %, 2 -> 10 exactly)
EXACT_SHARE = 0.5
#: the work one arrangement costs besides its search (making it, in nodes)
WORLD_COST = 50
#: about how many positions the search visits in a second here (pure Python
#: on one core; measured in benchmarks/anytime_cpu.py): only to size lists
NODES_PER_SECOND = 100_000


def check_budget(seconds: Any, nodes: Any, clock: Any = "wall") -> None:
    """Refuse a budget that is not a positive number (``seconds``) or a
    positive whole number (``nodes``), or a clock not in :data:`CLOCKS`,
    naming what was wrong."""
    if clock not in CLOCKS:
        raise BudgetError(_("clock must be one of {clocks}, not {value}")
                          .format(clocks=", ".join(repr(c) for c in CLOCKS), value=repr(clock)))
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, numbers.Real)
                                or not math.isfinite(seconds) or seconds <= 0):
        raise BudgetError(_("seconds must be a positive number of seconds, for example 2 or 0.5, not {value}")
                          .format(value=repr(seconds)))
    if nodes is not None and (isinstance(nodes, bool) or not isinstance(nodes, numbers.Integral) or nodes <= 0):
        raise BudgetError(_("nodes must be a positive whole number of positions, for example 20000, not {value}")
                          .format(value=repr(nodes)))


def _cpu_clock() -> Callable[[], float]:
    """This thread's CPU time, where the platform has it (the browser's
    Python, Pyodide, has no ``time.thread_time``: the process's CPU time
    there, else the wall clock)."""
    for name in ("thread_time", "process_time"):
        clock = getattr(time, name, None)
        try:
            clock()
        except (TypeError, OSError, NotImplementedError):
            continue
        return clock
    return time.perf_counter


#: the clocks a ``seconds`` budget can be counted on: the wall clock, or the
#: CPU time of the thread that analyses (what a shared machine gives it)
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": _cpu_clock()}


@dataclass
class Budget:
    """What an anytime analysis may spend: ``nodes`` (positions searched
    plus playout steps; deterministic) and ``seconds`` (on ``clock``: the
    wall clock, or this thread's CPU time), either or both."""

    seconds: float | None = None
    nodes: int | None = None
    used: int = 0
    clock: Callable[[], float] = time.perf_counter
    start: float = 0.0

    def __post_init__(self) -> None:
        self.start = self.clock()

    @property
    def deadline(self) -> float | None:
        return None if self.seconds is None else self.start + self.seconds

    def left(self) -> int | None:
        """Nodes left (``None``: no node budget)."""
        return None if self.nodes is None else max(0, self.nodes - self.used)

    def spent(self) -> bool:
        if self.nodes is not None and self.used >= self.nodes:
            return True
        return self.seconds is not None and self.clock() - self.start >= self.seconds

    def share(self, extra: int = 0) -> float:
        """How much of the budget is spent, 0 to 1 (``extra``: nodes spent
        but not yet counted)."""
        parts = [(self.used + extra) / self.nodes] if self.nodes else []
        if self.seconds is not None:
            parts.append((self.clock() - self.start) / self.seconds)
        return min(1.0, max(parts, default=0.0))


@dataclass
class _Tally:
    """The worlds looked at so far: the exactly solved ones (weight, values)
    and the drawn ones valued by playouts (their values)."""

    actions: list[str]
    solved: list[tuple[Fraction, dict[str, Any]]] = field(default_factory=list)
    #: each drawn arrangement's values, and whether they were searched
    #: (``True``) or solved exactly (``False``)
    drawn: list[tuple[dict[str, float], bool]] = field(default_factory=list)
    #: the short search's errors on solved arrangements (:func:`_calibrate`)
    errors: list[dict[str, float]] = field(default_factory=list)
    mixes: list = field(default_factory=list)
    epsilon: Any = 0
    #: the exact search's mean cost of an arrangement (nodes), once one was
    #: solved; whether one did not fit in its share
    exact_cost: float | None = None
    exact_seconds: float = 0.0
    exact_failures: int = 0

    def solved_weight(self) -> Fraction:
        return sum((w for w, _v in self.solved), Fraction(0))


class _NoDeal(Exception):
    """No deal could be drawn for the player, not even one that ignores part
    of what they saw: the analysis answers with what it has (nothing: every
    move is worth the whole payoff range)."""


class _Worlds:
    """The arrangements, in the order the analysis looks at them."""

    def __init__(self, state: State, p: int, max_arrangements: int) -> None:
        self.state, self.p = state, p
        self.rng = information_rng(state, p, "anytime")
        self.opened: dict[int, State] = {}
        #: no deal agreeing with what the player saw could be drawn or listed (see :meth:`_sample`)
        self.relaxed = False
        if state.game.spec.perfect_information:
            self.listed: list[tuple[State, Fraction]] | None = [(state, Fraction(1))]
        else:
            try:
                self.listed = arrangements(state, p, limit=max_arrangements)
            except TooLargeError:
                self.listed = None
        if self.listed is not None:  # a seeded order: drawn by probability, without putting back
            order, left = [], list(self.listed)
            while left:
                i = self.rng.choices(range(len(left)), weights=[float(w) for _s, w in left])[0]
                order.append(left.pop(i))
            self.listed = order

    def first(self, i: int) -> tuple[State, Fraction] | None:
        """The ``i``-th world of the exact phase (``None`` past the last)."""
        if self.listed is not None:
            return self.listed[i] if i < len(self.listed) else None
        world = self._sample()
        if world is None:  # listed now: from the first (in their canonical order), or none more
            return self.first(i) if i == 0 else None
        return world, Fraction(0)

    def draw(self, solved: int) -> State:
        """A world for the playout phase, with every card shown: one of those
        not solved, by probability (listed), or a fresh random one."""
        if self.listed is None:
            world = self._sample()
            if world is not None:
                return open_hands_copy(world)
            solved = 0  # listed now: none of them was solved
        rest = range(solved, len(self.listed))
        i = self.rng.choices(rest, weights=[float(self.listed[j][1]) for j in rest])[0]
        if i not in self.opened:
            self.opened[i] = open_hands_copy(self.listed[i][0])
        return self.opened[i]

    def _sample(self) -> State | None:
        """A random arrangement; ``None`` when random deals hardly ever agree
        with what the player saw (a rare, tightly constrained position):
        the arrangements are then listed after all (up to
        :data:`LIST_AT_MOST`): the exact phase goes on with them if it has
        solved none yet, else it ends.  Where they are too many to list as
        well, the analysis is :attr:`relaxed`: from then on it draws deals
        without checking them against all the player saw (an estimate still,
        and still the same for every position the player cannot tell apart,
        but over deals some of which the player could rule out); where not
        even such a deal can be drawn, :class:`_NoDeal`."""
        if self.relaxed:
            try:
                return sample_arrangement(self.state, self.p, self.rng, check=False)
            except TooLargeError:
                raise _NoDeal() from None
        try:
            return sample_arrangement(self.state, self.p, self.rng)
        except TooLargeError:
            pass
        try:
            self.listed = arrangements(self.state, self.p, limit=LIST_AT_MOST)
        except TooLargeError:
            self.relaxed = True
            return self._sample()
        return None


def anytime(state: State, p: int, *, seconds: float | None = None, nodes: int | None = None,
            max_arrangements: int | None = None, callback: Callable[[int, int], None] | None = None,
            clock: str = "wall") -> dict[str, Any]:
    """The anytime analysis of ``state`` for ``p``, the player to move (see
    the module doc): the fields of its :class:`~cardlab.Analysis`."""
    budget = Budget(seconds=seconds, nodes=nodes, clock=CLOCKS[clock])
    listable = _listable(budget)
    worlds = _Worlds(state, p, listable if max_arrangements is None else min(max_arrangements, listable))
    actions = state.legal_actions()
    tally = _Tally(actions)
    search: Search | None = None
    stopped = False
    try:
        search = _exact_phase(worlds, tally, budget, callback)
        if not _finished(worlds, tally):
            _playout_phase(worlds, tally, budget, callback, search)
    except _NoDeal:  # no deal at all: every move the whole payoff range (an answer all the same)
        pass
    except KeyboardInterrupt:  # stopped (Ctrl-C, or a stop button's callback): the answer so far
        stopped = True
        if not _finished(worlds, tally) and not tally.drawn:  # one quick round of playouts at least
            budget.nodes = budget.used
            _playout_phase(worlds, tally, budget, None)
    finally:
        if search is not None:
            search.close()
    if callback is not None:
        try:
            callback(1000, 1000)
        except KeyboardInterrupt:  # a stop asked at the very end: the answer is complete
            pass
    rows, exact = _rows(state, tally, worlds)
    mixes = tally.mixes
    mix = mixes[0] if exact and mixes and all(m == mixes[0] for m in mixes) else None
    kind = ("open" if state.game.spec.perfect_information else "fair") if exact else "estimate"
    spec = state.game.spec
    return dict(player=p, rows=rows, nodes=budget.used, kind=kind,
                arrangements=len(tally.solved) + len(tally.drawn), mix=mix,
                mix_epsilon=tally.epsilon if mix else 0, seconds=budget.clock() - budget.start,
                solved=len(tally.solved), stopped=stopped,
                total_arrangements=len(worlds.listed) if worlds.listed is not None else None,
                payoff_range=(spec.min_utility, spec.max_utility), relaxed=worlds.relaxed,
                samples=(tuple(tally.solved), tuple(tally.drawn), tuple(tally.errors)))


def _listable(budget: Budget) -> int:
    """How many arrangements are worth listing: no more than the budget
    could solve (each costs at least :data:`WORLD_COST` to make and solve;
    a second of the clock taken as :data:`NODES_PER_SECOND`); past that they
    are drawn at random, which costs nothing to set up.  (Listing is cheap:
    702 mipig arrangements in 0.04 s; solving them all took 0.42 s, which
    half of a 0.5 s budget would not have listed.)"""
    nodes = [budget.nodes] if budget.nodes is not None else []
    if budget.seconds is not None:
        nodes.append(int(budget.seconds * NODES_PER_SECOND))
    return max(1, min(nodes) // WORLD_COST)


def _finished(worlds: _Worlds, tally: _Tally) -> bool:
    return worlds.listed is not None and len(tally.solved) == len(worlds.listed)


def _exact_phase(worlds: _Worlds, tally: _Tally, budget: Budget,
                 callback: Callable[[int, int], None] | None) -> Search | None:
    """Solve the arrangements exactly, one by one: the first
    :data:`WARM_UP` each within half of what is left; after them, once
    :data:`EXACT_SHARE` of the budget is spent, the analysis goes on only
    while the last ones' cost says that the rest will fit (the shared table
    makes each cheaper than the one before; drawn arrangements: each at most
    a quarter of what is left), and stops at the first that does not."""
    first = worlds.first(0)
    assert first is not None
    search = Search(open_hands_copy(first[0]).game, progress=False)
    mark = [0]  # the search's node count when this world began
    if callback is not None:
        search.poll = lambda: callback(int(1000 * budget.share(search.nodes - mark[0])), 1000)
    nodes, stop = budget.nodes, budget.deadline
    spent = 0
    costs: list[int] = []  # each solved arrangement's nodes and seconds
    times: list[float] = []
    i = 0
    while (world := worlds.first(i)) is not None and not budget.spent():
        now = budget.clock()
        if stop is not None and now >= stop or nodes is not None and spent >= nodes:
            break
        warm = i >= WARM_UP
        if worlds.listed is not None and warm and budget.share() >= EXACT_SHARE:  # will the rest fit?
            left = len(worlds.listed) - i
            if nodes is not None and sum(costs[-WARM_UP:]) / WARM_UP * left > nodes - spent:
                break
            if stop is not None and sum(times[-WARM_UP:]) / WARM_UP * left > stop - now:
                break
        cap = None if nodes is None else (nodes - spent) // (1 if warm else 2)
        deadline = None if stop is None else (stop if warm else now + (stop - now) / 2)
        if worlds.listed is None:  # a drawn world: at most a quarter of what is left
            cap = None if nodes is None else max(1, (nodes - spent) // 4)
            deadline = None if stop is None else now + (stop - now) / 4
        before = mark[0] = search.nodes
        search.limit(max(1, cap) if cap is not None else None, deadline, budget.clock)
        try:
            values, mix, eps = action_values(open_hands_copy(world[0]), worlds.p, search)
        except (TooLargeError, NotSolvableError):
            budget.used += search.nodes - before + WORLD_COST
            tally.exact_failures += 1
            break
        finally:
            spent += search.nodes - before + WORLD_COST
        costs.append(search.nodes - before + WORLD_COST)
        times.append(budget.clock() - now)
        tally.exact_cost = sum(costs[-WARM_UP:]) / len(costs[-WARM_UP:])
        tally.exact_seconds = sum(times[-WARM_UP:]) / len(times[-WARM_UP:])
        budget.used += search.nodes - before + WORLD_COST
        if worlds.listed is None:  # a drawn world: a sample like those of the playout phase
            tally.drawn.append(({a: float(values[a]) for a in tally.actions}, False))
        else:
            tally.solved.append((world[1], values))
        tally.mixes.append(mix)
        tally.epsilon = max(tally.epsilon, eps)
        i += 1
        if callback is not None:
            callback(int(1000 * budget.share()), 1000)
    return search


def _playout_phase(worlds: _Worlds, tally: _Tally, budget: Budget,
                   callback: Callable[[int, int], None] | None, search: Search | None = None) -> None:
    """Value each move in drawn worlds until the budget is spent (always at
    least one world): exactly, where the arrangements solved so far say
    that a few dozen more fit (a sample of exact values); else by a small
    Monte Carlo tree search on the game's compact core (:func:`_uct`), or
    by random playouts from each move where the game has no core."""
    p = worlds.p
    rng = random.Random(worlds.rng.random())
    _calibrate(worlds, tally, budget, rng)
    while not tally.drawn or not budget.spent():  # one world at least, whatever the budget
        world = worlds.draw(len(tally.solved))
        exact = _exact_sample(world, p, tally, budget, search)
        values = exact if exact is not None else _searched(world, p, tally, budget, rng)
        budget.used += WORLD_COST
        tally.drawn.append((values, exact is None))
        if callback is not None:
            callback(int(1000 * budget.share()), 1000)


def _searched(world: State, p: int, tally: _Tally, budget: Budget, rng: random.Random) -> dict[str, float]:
    """Each move's value in ``world`` (every card shown) by a short tree
    search on the game's core (:func:`_uct`), or by random playouts from
    each move (no core)."""
    core = core_of(world.game)
    pos = core.encode(world) if core is not None and METHOD == "uct" else None
    if pos is not None and len(core.moves(pos)) == len(tally.actions):
        spec = world.game.spec
        lo, span = float(spec.min_utility), float(spec.max_utility - spec.min_utility) or 1.0
        iterations = max(ITERATIONS_PER_MOVE * len(tally.actions), 2 * len(tally.actions) + 1)
        found, steps = _uct(core, pos, rng, iterations, p, spec.num_players, lo, span)
        budget.used += steps
        return {a: found[i] for i, a in enumerate(tally.actions)}
    return {a: _playouts(world._apply(a), core, rng, p, budget) for a in tally.actions}


def _calibrate(worlds: _Worlds, tally: _Tally, budget: Budget, rng: random.Random) -> None:
    """The short search's error, measured: on up to :data:`CALIBRATION` of
    the arrangements solved exactly, each move's searched value minus its
    exact one.  A short search with random games is biased where random
    play misleads (a forced win it cannot see); that bias is about the same
    in arrangements of one position, so the estimate takes it off the
    searched values (:func:`estimate`)."""
    if worlds.listed is None:
        return
    for i in range(min(CALIBRATION, len(tally.solved))):
        if budget.spent():
            break
        searched = _searched(open_hands_copy(worlds.listed[i][0]), worlds.p, tally, budget, rng)
        exact = tally.solved[i][1]
        tally.errors.append({a: searched[a] - float(exact[a]) for a in tally.actions})


def _exact_sample(world: State, p: int, tally: _Tally, budget: Budget,
                  search: Search | None) -> dict[str, float] | None:
    """The exact values of the moves in one drawn arrangement, when the
    last ones solved say that it fits in a quarter of what is left of the
    budget (each is given at most twice their cost, which falls as the
    search's table fills); ``None`` otherwise, or when this one does not fit."""
    cost, left = tally.exact_cost, budget.left()
    if search is None or cost is None or tally.exact_failures:
        return None
    if left is not None and cost * 4 > left:
        return None
    deadline, now = budget.deadline, budget.clock()
    if deadline is not None and tally.exact_seconds * 4 > deadline - now:
        return None
    before = search.nodes
    search.limit(None if left is None else max(1, int(cost * 2)),
                 None if deadline is None else min(deadline, now + 2 * tally.exact_seconds), budget.clock)
    try:
        values, _mix, _eps = action_values(world, p, search)
    except (TooLargeError, NotSolvableError):
        tally.exact_failures += 1
        return None
    finally:
        budget.used += search.nodes - before
    tally.exact_cost = (cost + search.nodes - before + WORLD_COST) / 2
    tally.exact_seconds = (tally.exact_seconds + budget.clock() - now) / 2
    return {a: float(values[a]) for a in tally.actions}


def _playouts(child: State, core: Any, rng: random.Random, p: int, budget: Budget) -> float:
    """The mean of :data:`PLAYOUTS` random games from ``child`` for ``p``."""
    pos = core.encode(child) if core is not None else None
    total = 0.0
    for _i in range(PLAYOUTS):
        if pos is None:
            r, steps = playout(child, rng)
        else:
            r, steps = playout_from(core, pos, rng, num_players=child.game.spec.num_players)
        total += float(r[p])
        budget.used += steps + 1
    return total / PLAYOUTS


def _uct(core: Any, root: Any, rng: random.Random, iterations: int, p: int, players: int,
         lo: float, span: float, c: float = 0.7) -> tuple[list[float], int]:
    """A Monte Carlo tree search of one arrangement with every card seen
    (UCT: each mover picks by its own mean payoff plus ``c`` times the
    exploration term; a new position is played out at random; positions
    reached twice share their statistics).  Returns the mean payoff for
    ``p`` after each root move (in the order of ``core.moves(root)``) and
    the positions played through."""
    tree: dict[Any, dict] = {}
    player, moves, play, chance = core.player, core.moves, core.play, core.chance
    steps = 0
    log, sqrt = math.log, math.sqrt
    for _i in range(iterations):
        path = []
        s = root
        while True:
            q = player(s)
            if q == TERMINAL:
                r = core.returns(s)
                break
            if q == CHANCE:
                outs = chance(s)
                s = play(s, rng.choices([o for o, _w in outs], weights=[w for _o, w in outs])[0])
                steps += 1
                continue
            node = tree.get(s)
            if node is None or len(path) > MAX_TREE_DEPTH:  # a new position (or a long loop): played out
                if node is None:
                    tree[s] = {}
                r, k = playout_from(core, s, rng, num_players=players)
                steps += k
                break
            ms = moves(s)
            # not yet counted (a tie that leads back to a position already on this path counts as untried)
            untried = [m for m in ms if m not in node or not node[m][0]]
            if untried:
                m = untried[rng.randrange(len(untried))]
                if m not in node:
                    node[m] = [0, [0.0] * players]
            else:
                n = log(sum(node[m][0] for m in ms))
                m = max(ms, key=lambda x: (node[x][1][q] / node[x][0] - lo) / span + c * sqrt(n / node[x][0]))
            path.append(node[m])
            s = play(s, m)
            steps += 1
        for stat in path:
            stat[0] += 1
            totals = stat[1]
            for i in range(players):
                totals[i] += r[i]
    top = tree[root]
    return [top[m][1][p] / top[m][0] if m in top and top[m][0] else 0.0 for m in moves(root)], steps


def estimate(samples: tuple, f: Callable[[dict], Any], span: float) -> tuple[float, float]:
    """The estimate of ``f`` (a linear function of a move-values dict: one
    move's value, or the difference of two) from an anytime analysis's
    ``samples`` (solved, drawn, errors), and the half-width of its 95 %
    interval: the solved arrangements' weighted sum, plus the rest's share
    times the mean over the drawn ones, the searched ones' values less the
    search's measured error (:func:`_calibrate`, from two measures on).
    Normal approximation; one drawn arrangement: the whole range ``span``."""
    solved, drawn, errors = samples
    rest = 1.0 - float(sum((w for w, _v in solved), Fraction(0)))
    known = float(sum((w * f(v) for w, v in solved), Fraction(0)))
    es = [f(e) for e in errors] if len(errors) > 1 else []
    bias = sum(es) / len(es) if es else 0.0
    if es and (abs(bias) < LARGE_ERROR * span
               or bias * bias <= 1.96 ** 2 * sum((e - bias) ** 2 for e in es) / (len(es) - 1) / len(es)):
        es, bias = [], 0.0  # a small error, or one not told apart from noise: left alone (taking it off adds noise)
    xs = [f(v) - (bias if searched else 0.0) for v, searched in drawn]
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    if n < 2:
        return known + rest * mean, span * rest
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) / n
    if es:  # the error's own uncertainty, on the searched share of the samples
        share = sum(searched for _v, searched in drawn) / n
        var += share ** 2 * sum((e - bias) ** 2 for e in es) / (len(es) - 1) / len(es)
    return known + rest * mean, 1.96 * math.sqrt(var) * rest


def _rows(state: State, tally: _Tally, worlds: _Worlds) -> tuple[list[dict[str, Any]], bool]:
    """Each move's value (exact, or an estimate with its interval), loss and best."""
    spec = state.game.spec
    lo, hi = float(spec.min_utility), float(spec.max_utility)
    exact = not tally.drawn and _finished(worlds, tally)
    values: dict[str, Any] = {}
    intervals: dict[str, tuple[float, float]] = {}
    samples = (tally.solved, tally.drawn, tally.errors)
    for a in tally.actions:
        if exact:
            values[a] = sum((w * v[a] for w, v in tally.solved), Fraction(0))
            continue
        m, half = estimate(samples, lambda v: v[a], hi - lo)
        m = min(hi, max(lo, m))  # (sums of floats can pass a bound by a rounding)
        values[a] = m
        intervals[a] = (max(lo, m - half), min(hi, m + half))
    best = max(values.values())
    rows = []
    for a in tally.actions:
        row = {"action": a, "value": values[a], "loss": best - values[a], "best": values[a] == best,
               "exact": exact}
        if not exact:
            row["interval"] = intervals[a]
        rows.append(row)
    return rows, exact
