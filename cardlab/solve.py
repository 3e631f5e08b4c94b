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

The search itself is :mod:`cardlab.search`; the per-action analysis
(:func:`analyse`, the fair hint) is :mod:`cardlab.analysis`; this module
gives the value, the best actions and the principal variation of a
position (:func:`solve`), and backward induction over a tree
(:func:`solve_tree`).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from . import games
from ._lazy import lazy
from .analysis import Analysis, analyse, mix_text
from .builds import import_typed
from .core import CHANCE, State
from .cores import core_of
from .errors import NotSolvableError
from .i18n import N_, _
from .matrix import repeated_value
# BYTES_PER_POSITION, DEFAULT_MAX_TABLE: cardlab.solve.* as before (cli, batch, tests)
from .search import (BYTES_PER_POSITION, DEFAULT_MAX_NODES, DEFAULT_MAX_TABLE, Search, action_values,
                     check_solvable, mixes_of, use_maxn, values_of)

nx = lazy("networkx")  # loaded by the first tree (cardlab._lazy: a pupil's kernel never needs it)

__all__ = ["solve", "minimax", "solve_tree", "analyse", "Solution", "Analysis"]

#: the search's old private names (tests and benchmarks/compare.py use them)
_Search, _action_values = Search, action_values


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
    check_solvable(state)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    search = _search(state.game, table=table, pruning=pruning, max_nodes=max_nodes, progress=progress,
                     max_table=max_table, use_core=core)
    start = time.perf_counter()
    try:
        return _solution(state, search, "max-n" if use_maxn(state) else
                         ("alpha-beta" if pruning else "expectiminimax") + (" + table" if table else ""),
                         start)
    finally:
        search.close()


def _search(game, **options) -> Search:
    """The search of :func:`solve`: on the game's word core (issue X: :mod:`cardlab.wsearch`,
    the same tree and values) where :func:`cardlab.cores.core_of` hung the word core on its
    core (compiled, these options, not ``CARDLAB_PURE=1``) and the word search runs
    compiled too; else :class:`~cardlab.search.Search`."""
    if options.get("use_core", True) and getattr(core_of(game), "word_cores", None) is not None:
        module = sys.modules.get("cardlab.wsearch") or import_typed("cardlab.wsearch")
        if module.compiled:
            return module.word_search(game, **options)
    return Search(game, **options)


def minimax(state: State, *, max_nodes: int | None = DEFAULT_MAX_NODES) -> Solution:
    """The plain baseline: expectiminimax with no table and no pruning."""
    return solve(state, table=False, pruning=False, max_nodes=max_nodes, progress=False)


def _solution(state: State, search: Search, method: str, start: float) -> Solution:
    """One search for the value; then the best actions and the principal
    variation, each child tested against its parent's value.  Two players:
    every position of the principal variation is worth the root's value, so
    a null-window test answers (mostly from the table); max-n: the table's
    exact values."""
    values = values_of(state, search)
    maxn = use_maxn(state)

    def worth(c: State, target, q: int) -> bool:
        """Whether child ``c`` of ``q``'s node is worth ``target``, the
        node's value (for ``q``; two players: for player 0)."""
        return values_of(c, search)[q] == target if maxn else search.worth(c, target, q)

    best: list[str] = []
    p = state.current_player
    mixes: dict[int, dict[str, Any]] = {}
    epsilon: dict[int, Any] = {}
    if p >= 0 and (state.simultaneous() or state.simultaneous_start() is not None):
        mixes, epsilon = mixes_of(state, search)
        best = [a for a, q in mixes[p].items() if q]
    elif p >= 0:
        target = values[p] if maxn else values[0]
        best = [a for a in state.legal_actions() if worth(state._apply(a), target, p)]
    pv: list[str] = []
    s = state
    while s.current_player >= 0 and not s.simultaneous() and len(pv) < 200:
        q = s.current_player
        tested = s is state and not mixes  # the root's actions were tested above
        target = values_of(s, search)[q] if maxn else values[0]
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
