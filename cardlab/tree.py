"""Game trees as plain :class:`networkx.DiGraph` objects, and their writers.

Node attributes (every node):

``state``     the :class:`~cardlab.State` (dropped by the writers)
``player``    the player to move, ``cardlab.CHANCE`` (-1) or ``cardlab.TERMINAL`` (-2)
``terminal``  bool
``returns``   tuple of exact payoffs at terminal nodes, ``None`` elsewhere
``label``     a short text: ``"P0"``, ``"chance"`` or the payoffs
``depth``     distance from the root (the shortest, when transpositions merge)
``infoset``   the acting player's information set as ``"p:index"`` (``None`` at
              chance and terminal nodes); nodes with the same id cannot be told
              apart by that player
``frontier``  True where expansion stopped (``max_depth`` or ``truncate``)
``simultaneous`` the players of a simultaneous choice that starts here
              (``(0, 1)``), ``()`` elsewhere.  Such a choice has the
              two-level information-set form, as Gambit writes it: the
              first player's edges lead to nodes of the second player that
              share one information set (that player does not see the first
              pick); a tie picked again leads back to the node itself, a
              cycle, when transpositions merge (without merging, a choice
              with no cap on ties has an infinite tree)

Edge attributes: ``action`` (its notation), ``player`` (who chose it, or -1),
``prob`` (an exact :class:`~fractions.Fraction` on chance edges, ``None``
otherwise).  When several outcomes or actions lead to the same merged
position, one edge carries them all: ``action`` joins them with ``" | "`` and
``prob`` is their sum.  Graph attributes: ``game``, ``root`` (always 0), ``merged``,
``truncated``.

With ``merge_transpositions=True`` (the default) equal positions share one
node, so the graph is a DAG (but for a tie picked again, above); information sets are then the positions'
:meth:`~cardlab.State.information_set` (what a player sees now).  With
``merge_transpositions=False`` the graph is a tree and information sets are
those of perfect recall: what the player saw at each of their earlier
decisions, the actions they took there, and what they see now.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx

from .core import CHANCE, TERMINAL, State
from .errors import TooLargeError
from .i18n import _

__all__ = ["tree", "write_graphml", "write_dot", "DEFAULT_MAX_NODES"]

DEFAULT_MAX_NODES = 100_000


def tree(
    state: State,
    *,
    max_depth: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    merge_transpositions: bool = True,
    truncate: bool = False,
) -> nx.DiGraph:
    """Expand ``state`` into its game tree (breadth first).

    Raises :class:`~cardlab.TooLargeError` when the tree would exceed
    ``max_nodes``, unless ``truncate=True``, which keeps the first
    ``max_nodes`` nodes and marks the unexpanded ones ``frontier=True``.

    >>> import cardlab
    >>> s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=2)
    >>> G = cardlab.tree(s, max_depth=1)
    >>> G.nodes[0]["player"], G.number_of_nodes() == 1 + len(s.legal_actions())
    (0, True)
    """
    G = nx.DiGraph(game=repr(state.game), root=0, merged=merge_transpositions, truncated=False)
    ids: dict[State, int] = {}
    infoset_ids: dict[tuple, str] = {}
    infoset_count: dict[int, int] = {}  # per player, to number information sets

    def infoset(s: State, p: int, recall: tuple) -> str | None:
        if p < 0:
            return None
        key = (p, recall, s.information_set(p)) if not merge_transpositions else (p, s.information_set(p))
        if key not in infoset_ids:
            n = infoset_count.get(p, 0)
            infoset_count[p] = n + 1
            infoset_ids[key] = f"{p}:{n}"
        return infoset_ids[key]

    def add(s: State, depth: int, recall: tuple) -> int:
        n = G.number_of_nodes()
        p = s.current_player
        terminal = p == TERMINAL
        ret = tuple(Fraction(r) for r in s.returns()) if terminal else None
        label = ("chance" if p == CHANCE else
                 "(" + ", ".join(str(r) for r in ret) + ")" if terminal else f"P{p}")
        G.add_node(n, state=s, player=p, terminal=terminal, returns=ret, label=label,
                   depth=depth, infoset=infoset(s, p, recall.get(p, ()) if recall else ()),
                   frontier=False, simultaneous=s.simultaneous() if p >= 0 else ())
        return n

    # recall: per player, the tuple of (information set, action) pairs so far
    root = add(state, 0, {})
    queue = deque([(state, root, {})])
    if merge_transpositions:
        ids[state] = root
    while queue:
        s, n, recall = queue.popleft()
        depth = G.nodes[n]["depth"]
        p = s.current_player
        if p == TERMINAL:
            continue
        if max_depth is not None and depth >= max_depth:
            G.nodes[n]["frontier"] = True
            continue
        if p == CHANCE:
            edges = [(a, prob) for a, prob in s.chance_outcomes()]
        else:
            edges = [(a, None) for a in s.legal_actions()]
        if G.number_of_nodes() + len(edges) > max_nodes and not truncate:
            raise TooLargeError(
                _("the tree of this position has more than max_nodes={max_nodes} nodes (reached at depth {depth}); "
                  "pass a larger max_nodes, a max_depth, or truncate=True to keep a marked frontier").format(
                    max_nodes=max_nodes, depth=depth))
        for a, prob in edges:
            c = s._apply(a)
            if merge_transpositions and c in ids:
                m = ids[c]
            elif G.number_of_nodes() >= max_nodes:
                G.nodes[n]["frontier"] = True
                G.graph["truncated"] = True
                continue
            else:
                child_recall = recall
                if not merge_transpositions and p >= 0:
                    child_recall = dict(recall)
                    child_recall[p] = recall.get(p, ()) + ((s.information_set(p), a),)
                m = add(c, depth + 1, child_recall)
                if merge_transpositions:
                    ids[c] = m
                queue.append((c, m, child_recall))
            if G.has_edge(n, m):  # two outcomes or actions reach one position
                e = G.edges[n, m]
                e["action"] += " | " + a
                if prob is not None:
                    e["prob"] += prob
            else:
                G.add_edge(n, m, action=a, player=p, prob=prob)
    return G


def _plain(value: Any) -> Any:
    """A value GraphML can hold: str, int, float or bool."""
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def _exportable(G: nx.DiGraph) -> nx.DiGraph:
    H = nx.DiGraph()
    H.graph.update({k: _plain(v) for k, v in G.graph.items()})
    for n, data in G.nodes(data=True):
        attrs = {k: _plain(v) for k, v in data.items() if k != "state" and v is not None}
        if data.get("state") is not None:
            attrs["position"] = str(data["state"])
        H.add_node(n, **attrs)
    for u, v, data in G.edges(data=True):
        attrs = {k: _plain(x) for k, x in data.items() if x is not None}
        if data.get("prob") is not None:
            attrs["prob_float"] = float(data["prob"])
        H.add_edge(u, v, **attrs)
    return H


def write_graphml(G: nx.DiGraph, path: str | Path) -> None:
    """Write a tree as GraphML; fractions become strings (``"1/3"``) plus a
    ``prob_float`` column, tuples become space-separated strings and the
    ``state`` object its text board (``position``)."""
    nx.write_graphml(_exportable(G), str(path))


def _dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def write_dot(G: nx.DiGraph, path: str | Path | None = None) -> str:
    """Write a tree in Graphviz DOT (no pydot needed); returns the text too."""
    lines = ["digraph cardlab {", "  node [fontname=Helvetica, fontsize=10];"]
    for n, d in G.nodes(data=True):
        shape = "box" if d.get("terminal") else "circle" if d.get("player") == CHANCE else "ellipse"
        label = d.get("label", str(n))
        if "value" in d:
            label += "\\nv=" + _plain(d["value"])
        lines.append(f"  {n} [label={_dot_quote(label)}, shape={shape}];")
    for u, v, d in G.edges(data=True):
        label = d.get("action", "")
        if d.get("prob") is not None:
            label += f" ({d['prob']})"
        lines.append(f"  {u} -> {v} [label={_dot_quote(label)}];")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text
