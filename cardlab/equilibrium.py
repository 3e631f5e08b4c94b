"""Hidden-information solving: exact Nash equilibria of small two-player
zero-sum games (sequence-form linear program over exact fractions) and
counterfactual regret minimisation (CFR+) with an exploitability curve for
the ones too big for the exact method.

Both work on a game tree as built by :func:`cardlab.tree` with
``merge_transpositions=False`` (a true tree whose information sets have
perfect recall), or directly from a position, or on any networkx DiGraph with
the same attributes (nodes: ``player``, ``terminal``, ``returns``,
``infoset``; edges: ``action``, ``prob``), such as a tree read from a Gambit
``.efg`` file by :func:`cardlab.bridges.gambit.read_efg`.

Strategies are behaviour strategies: ``{infoset id: {action: probability}}``
per player, with the information-set ids of the tree (``"0:3"``).

The sequence form (Koller, Megiddo, von Stengel 1994): a player's *sequence*
is the list of (information set, action) pairs of that player on the path to
a node; a *realization plan* ``x`` gives each sequence the probability that
the player plays it, with ``x[∅] = 1`` and, at every information set, the
sequences through it summing to the sequence leading to it.  The value is
``max_x min_y xᵀAy``; replacing the inner minimum by its LP dual gives one
linear program, solved by a two-phase simplex (:mod:`cardlab.lp`) over
:class:`fractions.Fraction`, so the value and the strategies are exact.

>>> import cardlab
>>> from cardlab.equilibrium import matrix_tree, solve_equilibrium
>>> rps = matrix_tree([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], ["rock", "paper", "scissors"])
>>> eq = solve_equilibrium(rps)
>>> eq.value, eq.strategies[0]["0:0"]["rock"]
(Fraction(0, 1), Fraction(1, 3))
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import networkx as nx

from .core import CHANCE, State
from .errors import NotSolvableError, TooLargeError
from .i18n import _
from .lp import simplex as _simplex

__all__ = [
    "Equilibrium",
    "CFRResult",
    "SequenceForm",
    "game_tree",
    "sequence_form",
    "solve_equilibrium",
    "cfr",
    "best_response_value",
    "exploitability",
    "matrix_tree",
    "collapse_subgames",
    "DEFAULT_MAX_SEQUENCES",
]

#: the exact LP refuses more sequences (both players together) than this
DEFAULT_MAX_SEQUENCES = 2_000
#: tree size limit when a position is expanded
DEFAULT_MAX_NODES = 200_000

Strategy = dict[str, dict[str, Any]]


# -- the tree -----------------------------------------------------------------------------
def game_tree(game_or_tree: State | nx.DiGraph, *, max_nodes: int = DEFAULT_MAX_NODES) -> nx.DiGraph:
    """The perfect-recall tree of a position (``cardlab.tree(...,
    merge_transpositions=False)``), or a given tree after checking it.

    Raises :class:`~cardlab.NotSolvableError` unless the tree is a complete
    tree of a two-player zero-sum game with perfect recall, and
    :class:`~cardlab.TooLargeError` (naming the size) past ``max_nodes``.
    """
    if isinstance(game_or_tree, State):
        from .tree import tree

        spec = game_or_tree.game.spec
        if spec.num_players != 2 or not spec.zero_sum:
            raise NotSolvableError(
                _("{game}: equilibrium solving needs a two-player zero-sum game; this one has {players} players, "
                  "zero_sum={zero_sum}").format(game=game_or_tree.game.name, players=spec.num_players,
                                                zero_sum=spec.zero_sum))
        try:
            G = tree(game_or_tree, merge_transpositions=False, max_nodes=max_nodes)
        except TooLargeError:
            raise TooLargeError(
                _("{game}: the game tree of this position has more than max_nodes={max_nodes:,} nodes, too large "
                  "to expand for equilibrium solving; start from a later position, use a smaller variant, or "
                  "raise max_nodes").format(game=game_or_tree.game.name, max_nodes=max_nodes)) from None
    elif isinstance(game_or_tree, nx.DiGraph):
        G = game_or_tree
        if G.number_of_nodes() > max_nodes:
            raise TooLargeError(_("the tree has {nodes:,} nodes, more than max_nodes={max_nodes:,}").format(
                nodes=G.number_of_nodes(), max_nodes=max_nodes))
    else:
        raise TypeError(f"expected a cardlab State or a networkx DiGraph tree, not {type(game_or_tree).__name__}")
    _check_tree(G)
    return G


def _root(G: nx.DiGraph) -> Any:
    root = G.graph.get("root", 0)
    if root not in G:
        raise NotSolvableError(_("the tree has no root node (graph attribute 'root', default 0)"))
    return root


def _check_tree(G: nx.DiGraph) -> None:
    root = _root(G)
    for n, d in G.nodes(data=True):
        if n != root and G.in_degree(n) != 1:
            raise NotSolvableError(
                _("node {node} has {parents} parents: equilibrium solving needs a tree, not a DAG with merged "
                  "transpositions; build it with cardlab.tree(state, merge_transpositions=False)").format(
                    node=n, parents=G.in_degree(n)))
        if d.get("frontier"):
            raise NotSolvableError(_("node {node} is an unexpanded frontier; the tree must be complete "
                                     "(no max_depth, no truncate)").format(node=n))
        if d["terminal"]:
            r = d["returns"]
            if len(r) != 2 or r[0] + r[1] != 0:
                raise NotSolvableError(_("terminal node {node} has returns {returns}: equilibrium solving "
                                         "needs two players and zero-sum payoffs").format(node=n, returns=tuple(r)))
        elif d["player"] not in (0, 1, CHANCE):
            raise NotSolvableError(_("node {node} belongs to player {player}; only players 0 and 1 and chance "
                                     "are handled").format(node=n, player=d["player"]))
        elif not G.succ[n]:
            raise NotSolvableError(_("node {node} is not terminal but has no children").format(node=n))


def _preorder(G: nx.DiGraph) -> list:
    root = _root(G)
    order, stack = [], [root]
    while stack:
        n = stack.pop()
        order.append(n)
        stack.extend(reversed(list(G.succ[n])))
    return order


def _infoset_actions(G: nx.DiGraph) -> dict[str, list[str]]:
    """Every information set's actions (checked equal at all its nodes)."""
    acts: dict[str, list[str]] = {}
    for n, d in G.nodes(data=True):
        if d["terminal"] or d["player"] == CHANCE:
            continue
        mine = [e["action"] for e in G.succ[n].values()]
        I = d["infoset"]
        if I is None:
            raise NotSolvableError(_("decision node {node} has no information set").format(node=n))
        if acts.setdefault(I, mine) != mine:
            raise NotSolvableError(_("information set {infoset} has different actions at different nodes: "
                                     "{first} and {second}").format(infoset=I, first=acts[I], second=mine))
    return acts


# -- the sequence form --------------------------------------------------------------------
@dataclass
class SequenceForm:
    """The sequence form of a two-player zero-sum tree.

    ``sequences[p]`` lists player ``p``'s sequences, ``()`` first, each
    other one written ``(infoset, action)`` (its last move; perfect recall
    makes that enough); ``parent[p][I]`` is the index of the sequence leading
    to information set ``I``; ``payoff`` maps ``(i, j)`` to the expected payoff
    of player 0 (chance probabilities folded in) at the leaves where player
    0's sequence is ``i`` and player 1's is ``j``.
    """

    sequences: tuple[list, list]
    index: tuple[dict, dict]
    parent: tuple[dict, dict]
    actions: dict[str, list[str]]
    payoff: dict[tuple[int, int], Fraction]

    @property
    def size(self) -> tuple[int, int]:
        return len(self.sequences[0]), len(self.sequences[1])


def sequence_form(G: nx.DiGraph) -> SequenceForm:
    """Build the sequence form; checks perfect recall on the way."""
    acts = _infoset_actions(G)
    seqs: tuple[list, list] = ([()], [()])
    index: tuple[dict, dict] = ({(): 0}, {(): 0})
    parent: tuple[dict, dict] = ({}, {})
    payoff: dict[tuple[int, int], Fraction] = {}
    root = _root(G)
    stack = [(root, 0, 0, Fraction(1))]
    while stack:
        n, s0, s1, reach = stack.pop()
        d = G.nodes[n]
        if d["terminal"]:
            key = (s0, s1)
            payoff[key] = payoff.get(key, Fraction(0)) + reach * Fraction(d["returns"][0])
            continue
        p = d["player"]
        if p == CHANCE:
            for m, e in G.succ[n].items():
                stack.append((m, s0, s1, reach * Fraction(e["prob"])))
            continue
        I = d["infoset"]
        here = s0 if p == 0 else s1
        if parent[p].setdefault(I, here) != here:
            raise NotSolvableError(
                _("information set {infoset} of player {player} is reached by different own histories: the tree "
                  "lacks perfect recall (build it with cardlab.tree(state, merge_transpositions=False))").format(
                    infoset=I, player=p))
        for m, e in G.succ[n].items():
            sq = (I, e["action"])
            if sq not in index[p]:
                index[p][sq] = len(seqs[p])
                seqs[p].append(sq)
            k = index[p][sq]
            stack.append((m, k, s1, reach) if p == 0 else (m, s0, k, reach))
    return SequenceForm(seqs, index, parent, acts, payoff)


# -- the sequence-form LP (solved by the exact simplex of cardlab.lp) ----------------------
def _best_plan(sf: SequenceForm, me: int) -> tuple[Fraction, dict[int, Fraction]]:
    """Player ``me``'s optimal realization plan and the value for ``me``:
    ``max f·q  s.t.  E x = e,  Fᵀq - Bᵀx <= 0,  x >= 0, q free`` where ``B`` is
    ``me``'s payoff matrix (rows: my sequences, columns: the opponent's)."""
    you = 1 - me
    nx_ = len(sf.sequences[me])
    sign = 1 if me == 0 else -1
    infosets_me = list(sf.parent[me])
    infosets_you = list(sf.parent[you])
    q_index = {I: nx_ + 1 + k for k, I in enumerate(infosets_you)}
    q0 = nx_
    nvars = nx_ + 1 + len(infosets_you)
    rows: list[dict[int, Fraction]] = []
    rhs: list[Fraction] = []
    senses: list[str] = []
    # E x = e
    rows.append({0: Fraction(1)})
    rhs.append(Fraction(1))
    senses.append("=")
    for I in infosets_me:
        row = {sf.index[me][(I, a)]: Fraction(1) for a in sf.actions[I]}
        row[sf.parent[me][I]] = row.get(sf.parent[me][I], 0) - 1
        rows.append(row)
        rhs.append(Fraction(0))
        senses.append("=")
    # for every opponent sequence j:  (Fᵀq)_j - (Bᵀx)_j <= 0
    cols: dict[int, dict[int, Fraction]] = {j: {} for j in range(len(sf.sequences[you]))}
    for (i0, i1), v in sf.payoff.items():
        i_me, j = (i0, i1) if me == 0 else (i1, i0)
        cols[j][i_me] = cols[j].get(i_me, 0) - sign * v
    # F rows: row 0 (q0): y∅ = 1; row I: -y[parent(I)] + sum_a y[(I, a)] = 0
    for j, seq in enumerate(sf.sequences[you]):
        row = {i: v for i, v in cols[j].items() if v}
        if j == 0:
            row[q0] = Fraction(1)
        else:
            row[q_index[seq[0]]] = Fraction(1)
        for I in infosets_you:
            if sf.parent[you][I] == j:
                row[q_index[I]] = row.get(q_index[I], 0) - 1
        rows.append({k: v for k, v in row.items() if v})
        rhs.append(Fraction(0))
        senses.append("<=")
    free = {q0, *q_index.values()}
    value, sol = _simplex(rows, rhs, senses, {q0: Fraction(1)}, free, nvars)
    return value, {i: sol.get(i, Fraction(0)) for i in range(nx_)}


def collapse_subgames(G: nx.DiGraph) -> tuple[nx.DiGraph, tuple[Strategy, Strategy]]:
    """Replace every perfect-information subgame by its exact value.

    A node whose whole subtree has only one-node information sets (after
    the last hidden card is shown, say; or information sets whose nodes all
    hold the same position, reached by transposition) roots a subgame of
    perfect information: its value is found by backward induction (expectiminimax),
    and in a zero-sum game playing optimally there is part of every
    equilibrium.  Returns the reduced tree (those nodes become leaves with
    the value as payoff) and the pure optimal strategies in the collapsed
    subgames.  This keeps the linear program to the truly hidden part.
    """
    # an information set is "open" when it has one node, or when all its
    # nodes hold the same position (a transposition: identical subtrees)
    seen: dict[str, Any] = {}
    open_: dict[str, bool] = {}
    for _n, d in G.nodes(data=True):
        I = d.get("infoset")
        if I is not None:
            here = d.get("state")
            if I not in seen:
                seen[I], open_[I] = here, True
            elif here is None or here != seen[I]:
                open_[I] = False
    order = _preorder(G)
    value: dict[Any, Fraction] = {}
    best: dict[Any, str] = {}
    for n in reversed(order):
        d = G.nodes[n]
        if d["terminal"]:
            value[n] = Fraction(d["returns"][0])
            continue
        if d["player"] != CHANCE and not open_[d["infoset"]]:
            continue
        succ = G.succ[n]
        if any(m not in value for m in succ):
            continue
        if d["player"] == CHANCE:
            value[n] = sum((Fraction(e["prob"]) * value[m] for m, e in succ.items()), Fraction(0))
        else:
            sign = 1 if d["player"] == 0 else -1
            m, e = max(succ.items(), key=lambda item: sign * value[item[0]])
            value[n], best[n] = value[m], e["action"]
    keep, stack = [], [_root(G)]
    while stack:
        n = stack.pop()
        keep.append(n)
        if n not in value:
            stack.extend(G.succ[n])
    H = G.subgraph(keep).copy()
    for n in keep:
        d = H.nodes[n]
        if n in value and not d["terminal"]:
            d.update(terminal=True, returns=(value[n], -value[n]), collapsed=True)
    fixed: tuple[Strategy, Strategy] = ({}, {})
    for n, a in best.items():
        d = G.nodes[n]
        fixed[d["player"]][d["infoset"]] = {e["action"]: Fraction(int(e["action"] == a))
                                            for e in G.succ[n].values()}
    return H, fixed


def _behaviour(sf: SequenceForm, p: int, plan: Mapping[int, Fraction]) -> Strategy:
    strat: Strategy = {}
    for I, par in sf.parent[p].items():
        acts = sf.actions[I]
        total = plan.get(par, Fraction(0))
        if total:
            strat[I] = {a: plan.get(sf.index[p][(I, a)], Fraction(0)) / total for a in acts}
        else:  # never reached under this plan: any strategy is optimal there, play uniformly
            strat[I] = {a: Fraction(1, len(acts)) for a in acts}
    return strat


@dataclass
class Equilibrium:
    """An exact Nash equilibrium of a two-player zero-sum game.

    ``value`` is player 0's expected payoff (the game value, 値); player 1's
    is ``-value``.  ``strategies[p]`` is player ``p``'s behaviour strategy
    ``{infoset: {action: Fraction}}``; ``infosets[p]`` describes each
    information set by what the player sees there (its observation), when the
    tree carries states.  ``sequences`` counts each player's sequences.
    """

    value: Fraction
    strategies: tuple[Strategy, Strategy]
    sequences: tuple[int, int]
    nodes: int
    seconds: float
    infosets: tuple[dict, dict] = field(default_factory=lambda: ({}, {}))

    def __str__(self) -> str:
        lines = [f"equilibrium (均衡) value {self.value} (≈ {float(self.value):+.4f}) for player 0; "
                 f"{self.sequences[0]} + {self.sequences[1]} sequences, {self.nodes:,} tree nodes"]
        for p in (0, 1):
            for I, dist in self.strategies[p].items():
                mix = ", ".join(f"{a} {q}" for a, q in dist.items() if q)
                lines.append(f"  player {p} at {I}: {mix}")
        return "\n".join(lines)


def _describe_infosets(G: nx.DiGraph) -> tuple[dict, dict]:
    out: tuple[dict, dict] = ({}, {})
    for n, d in G.nodes(data=True):
        I, p = d.get("infoset"), d.get("player")
        if I is not None and p in (0, 1) and I not in out[p]:
            s = d.get("state")
            out[p][I] = s.observation(p) if isinstance(s, State) else d.get("label", I)
    return out


def solve_equilibrium(game_or_tree: State | nx.DiGraph, *, max_nodes: int = DEFAULT_MAX_NODES,
                      max_sequences: int = DEFAULT_MAX_SEQUENCES) -> Equilibrium:
    """An exact Nash equilibrium and the game value of a small two-player
    zero-sum game with hidden information (sequence-form LP over fractions).

    Raises :class:`~cardlab.TooLargeError` naming the size when the tree has
    more than ``max_nodes`` nodes or the LP more than ``max_sequences``
    sequences (use :func:`cfr` for those).
    """
    start = time.perf_counter()
    G = game_tree(game_or_tree, max_nodes=max_nodes)
    H, fixed = collapse_subgames(G)
    sf = sequence_form(H)
    n0, n1 = sf.size
    if n0 + n1 > max_sequences:
        raise TooLargeError(
            _("the sequence-form LP of this tree ({nodes:,} nodes) has {n0:,} + {n1:,} = {total:,} sequences, more "
              "than max_sequences={max_sequences:,} for the exact method; use cardlab.equilibrium.cfr() for an "
              "approximate equilibrium, or raise max_sequences").format(
                nodes=G.number_of_nodes(), n0=n0, n1=n1, total=n0 + n1, max_sequences=max_sequences))
    v0, plan0 = _best_plan(sf, 0)
    v1, plan1 = _best_plan(sf, 1)
    if v0 != -v1:  # pragma: no cover - LP duality guarantees equality
        raise AssertionError(f"the two LPs disagree: {v0} and {-v1}")
    strategies = (_behaviour(sf, 0, plan0), _behaviour(sf, 1, plan1))
    for p in (0, 1):
        strategies[p].update(fixed[p])
    return Equilibrium(value=v0, strategies=strategies, sequences=(n0, n1), nodes=G.number_of_nodes(),
                       seconds=time.perf_counter() - start, infosets=_describe_infosets(G))


# -- best responses and exploitability ------------------------------------------------------
def best_response_value(G: nx.DiGraph, strategies: Sequence[Mapping[str, Mapping[str, Any]]],
                        player: int) -> Any:
    """The expected payoff of ``player`` playing a best response against the
    other player's behaviour strategy ``strategies[1 - player]`` (exact
    with Fractions, floats otherwise).  Perfect recall makes the greedy
    choice per information set optimal."""
    other = strategies[1 - player]
    root = _root(G)
    sign = 1 if player == 0 else -1
    # reach probability by chance and the other player, per node
    w: dict[Any, Any] = {root: 1}
    members: dict[str, list] = {}
    for n in _preorder(G):
        d = G.nodes[n]
        if d["terminal"]:
            continue
        p = d["player"]
        if p == player:
            members.setdefault(d["infoset"], []).append(n)
        for m, e in G.succ[n].items():
            if p == CHANCE:
                w[m] = w[n] * e["prob"]
            elif p == player:
                w[m] = w[n]
            else:
                w[m] = w[n] * other[d["infoset"]][e["action"]]
    choice: dict[str, str] = {}
    memo: dict[Any, Any] = {}

    def val(h):  # utility of ``player`` below h, weighted by chance/other reach from h on
        v = memo.get(h)
        if v is not None:
            return v
        d = G.nodes[h]
        p = d["player"]
        if d["terminal"]:
            v = sign * d["returns"][0]
        elif p == player:
            v = val(_child(G, h, decide(d["infoset"])))
        elif p == CHANCE:
            v = sum(e["prob"] * val(m) for m, e in G.succ[h].items())
        else:
            dist = other[d["infoset"]]
            v = sum(dist[e["action"]] * val(m) for m, e in G.succ[h].items() if dist[e["action"]])
        memo[h] = v
        return v

    def decide(I: str) -> str:
        a = choice.get(I)
        if a is None:
            best = None
            for act in (e["action"] for e in G.succ[members[I][0]].values()):
                tot = sum(w[h2] * val(_child(G, h2, act)) for h2 in members[I] if w[h2])
                if best is None or tot > best:
                    best, a = tot, act
            choice[I] = a
        return a

    import sys
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    return val(root)


def _child(G: nx.DiGraph, n: Any, action: str) -> Any:
    for m, e in G.succ[n].items():
        if e["action"] == action:
            return m
    raise KeyError(action)  # pragma: no cover


def exploitability(G: nx.DiGraph, strategies: Sequence[Mapping[str, Mapping[str, Any]]]) -> Any:
    """How much the two best responses gain against ``strategies``, halved
    (OpenSpiel's convention): ``(BR₀ + BR₁) / 2``, zero exactly at an
    equilibrium."""
    return (best_response_value(G, strategies, 0) + best_response_value(G, strategies, 1)) / 2


# -- CFR+ ---------------------------------------------------------------------------------
@dataclass
class CFRResult:
    """The average strategy after ``iterations`` of CFR+ and the
    exploitability curve ``[(iteration, exploitability), ...]``; ``value`` is
    player 0's expected payoff under the average strategies."""

    strategies: tuple[Strategy, Strategy]
    curve: list[tuple[int, float]]
    iterations: int
    value: float
    nodes: int
    seconds: float

    @property
    def exploitability(self) -> float:
        return self.curve[-1][1]


def cfr(game_or_tree: State | nx.DiGraph, iterations: int = 1000, *, every: int = 0,
        max_nodes: int = DEFAULT_MAX_NODES) -> CFRResult:
    """Approximate a Nash equilibrium by CFR+ (regret matching⁺, alternating
    updates, linearly weighted average strategy; Tammelin 2014).

    The exploitability of the average strategy is measured every ``every``
    iterations (0: about twenty times) and at the end.
    """
    if iterations < 1:
        raise ValueError(_("iterations must be at least 1, not {iterations}").format(iterations=repr(iterations)))
    start = time.perf_counter()
    G = game_tree(game_or_tree, max_nodes=max_nodes)
    acts = _infoset_actions(G)
    every = every or max(1, iterations // 20)
    kind, util, kids, probs, node_is = _compact(G, acts)
    sizes = [len(acts[I]) for I in acts]
    regret = [[0.0] * k for k in sizes]
    avg = [[0.0] * k for k in sizes]

    frozen: dict[int, list[float]] = {}  # this traversal's strategies: fixed while regrets change

    def current(i: int) -> list[float]:
        sigma = frozen.get(i)
        if sigma is None:
            sigma = frozen[i] = _matched(regret[i])
        return sigma

    def walk(n: int, trainee: int, reach_me: float, reach_other: float, weight: float) -> float:
        k = kind[n]
        if k == -2:
            return util[n] if trainee == 0 else -util[n]
        if k == -1:
            return sum(q * walk(c, trainee, reach_me, reach_other * q, weight)
                       for c, q in zip(kids[n], probs[n]))
        i = node_is[n]
        sigma = current(i)
        if k == trainee:
            vals = [walk(c, trainee, reach_me * s, reach_other, weight) for c, s in zip(kids[n], sigma)]
            v = sum(s * x for s, x in zip(sigma, vals))
            r = regret[i]
            for a in range(len(r)):
                nr = r[a] + reach_other * (vals[a] - v)
                r[a] = nr if nr > 0 else 0.0
            acc = avg[i]
            for a in range(len(acc)):
                acc[a] += weight * reach_me * sigma[a]
            return v
        return sum(s * walk(c, trainee, reach_me, reach_other * s, weight)
                   for c, s in zip(kids[n], sigma) if s > 0)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    curve: list[tuple[int, float]] = []
    for t in range(1, iterations + 1):
        for p in (0, 1):
            frozen.clear()
            walk(0, p, 1.0, 1.0, float(t))
        if t % every == 0 or t == iterations:
            curve.append((t, float(exploitability(G, _average(G, acts, avg)))))
    strategies = _average(G, acts, avg)
    value = float(_expected(G, strategies))
    return CFRResult(strategies=strategies, curve=curve, iterations=iterations, value=value,
                     nodes=G.number_of_nodes(), seconds=time.perf_counter() - start)


def _compact(G: nx.DiGraph, acts: dict) -> tuple[list[int], list[float], list[list[int]], list[list[float]],
                                                 list[int]]:
    """The tree as compact arrays for CFR, node ``i`` in preorder: its kind
    (-2 terminal, -1 chance, 0/1 the player), player 0's payoff, its
    children, the chance probabilities and its information set's number."""
    order = _preorder(G)
    idx = {n: i for i, n in enumerate(order)}
    infoset_ids = {I: k for k, I in enumerate(acts)}
    kind: list[int] = []
    util: list[float] = []
    kids: list[list[int]] = []
    probs: list[list[float]] = []
    node_is: list[int] = []
    for n in order:
        d = G.nodes[n]
        succ = list(G.succ[n].items())
        kind.append(-2 if d["terminal"] else d["player"])
        util.append(float(d["returns"][0]) if d["terminal"] else 0.0)
        kids.append([idx[m] for m, _ in succ])
        probs.append([float(e["prob"]) for _, e in succ] if d["player"] == CHANCE and not d["terminal"] else [])
        node_is.append(infoset_ids[d["infoset"]] if kind[-1] in (0, 1) else -1)
    return kind, util, kids, probs, node_is


def _matched(r: list[float]) -> list[float]:
    """Regret matching: the positive regrets, normalised (uniform when none is)."""
    pos = [x if x > 0 else 0.0 for x in r]
    s = sum(pos)
    return [x / s for x in pos] if s > 0 else [1.0 / len(r)] * len(r)


def _average(G: nx.DiGraph, acts: dict, avg: list[list[float]]) -> tuple[Strategy, Strategy]:
    """CFR's average strategy of each player, from the accumulated weights ``avg``."""
    out: tuple[Strategy, Strategy] = ({}, {})
    for k, I in enumerate(acts):
        p = int(I.split(":")[0]) if isinstance(I, str) and ":" in I else _owner(G, I)
        tot = sum(avg[k])
        size = len(acts[I])
        dist = ([x / tot for x in avg[k]] if tot > 0 else [1.0 / size] * size)
        out[p][I] = dict(zip(acts[I], dist))
    return out


def _owner(G: nx.DiGraph, I: str) -> int:
    for _n, d in G.nodes(data=True):
        if d.get("infoset") == I:
            return d["player"]
    raise KeyError(I)  # pragma: no cover


def _expected(G: nx.DiGraph, strategies: Sequence[Mapping[str, Mapping[str, Any]]]) -> Any:
    """Player 0's expected payoff when both play ``strategies``."""
    total: Any = 0
    stack = [(_root(G), 1)]
    while stack:
        n, reach = stack.pop()
        d = G.nodes[n]
        if d["terminal"]:
            total += reach * d["returns"][0]
            continue
        for m, e in G.succ[n].items():
            q = e["prob"] if d["player"] == CHANCE else strategies[d["player"]][d["infoset"]][e["action"]]
            if q:
                stack.append((m, reach * q))
    return total


def expected_value(G: nx.DiGraph, strategies: Sequence[Mapping[str, Mapping[str, Any]]]) -> Any:
    """Player 0's expected payoff when both players follow ``strategies``."""
    return _expected(G, strategies)


__all__.append("expected_value")


# -- small hand-made trees ----------------------------------------------------------------
def matrix_tree(payoffs: Sequence[Sequence[Any]], rows: Iterable[str], cols: Iterable[str] | None = None
                ) -> nx.DiGraph:
    """A simultaneous-move matrix game as a tree: player 0 picks a row, player
    1 a column without seeing it (one information set).  ``payoffs[i][j]`` is
    player 0's payoff; player 1 gets its negative."""
    rows = list(rows)
    cols = list(cols) if cols is not None else rows
    G = nx.DiGraph(root=0, merged=False, truncated=False)
    G.add_node(0, player=0, terminal=False, returns=None, infoset="0:0", label="P0", depth=0, frontier=False)
    n = 1
    for i, r in enumerate(rows):
        G.add_node(n, player=1, terminal=False, returns=None, infoset="1:0", label="P1", depth=1,
                   frontier=False)
        G.add_edge(0, n, action=r, player=0, prob=None)
        u = n
        n += 1
        for j, c in enumerate(cols):
            v = Fraction(payoffs[i][j])
            G.add_node(n, player=-2, terminal=True, returns=(v, -v), label=f"({v}, {-v})", depth=2,
                       infoset=None, frontier=False)
            G.add_edge(u, n, action=c, player=1, prob=None)
            n += 1
    return G
