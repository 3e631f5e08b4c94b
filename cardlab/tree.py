"""Game trees as :class:`networkx.DiGraph` objects, and their writers.

Node attributes (every node):

``state``     the :class:`~cardlab.State` (never written), not stored: see
              below and :func:`tree_state`
``parent``    the node through which this one was first reached (``None`` at
              the root); its ``state`` is replayed along that edge
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

Memory (about 1 KB a node, its edges included): the nodes keep no
:class:`~cardlab.State`.  ``G.nodes[n]["state"]`` (also ``.get("state")``
and ``"state" in``) rebuilds it from the root position (the graph attribute
``state``) by replaying the actions along the ``parent`` edges, the path
through which ``n`` was first reached: the very position the node was made
from (with merged transpositions the one reached first; positions equal as
keys can differ in what they only show, such as mipig's square names).  The
last few hundred rebuilt states stay cached on the graph, so reading every
node's state in node order costs about one move each.  ``state`` is not
listed among a node's items (``set(d)``, ``d.items()``, copies: a copy would
rebuild every state); :func:`tree_state` is the documented way to it.  It
works on the graph :func:`tree` returns, on its subgraph views and on copies
that keep the path from the root (``G.copy()``, ``G.subgraph(...).copy()``),
and holds for the tree as built (edit its edges or ``parent`` attributes and
it no longer does).
Likewise a node stores ``terminal``, ``label``, ``returns``, ``infoset``,
``frontier`` and ``simultaneous`` only where they differ from their usual
value, and an edge its three attributes in slots: the attribute dicts are
``dict`` subclasses that answer for the rest (lookups, ``get``, ``in``,
``==`` see every attribute; writing an attribute stores it; ``json.dumps``
of an edge's own dict gives ``{}``, its storage being in slots: pass it
``dict(d)``).

Edge attributes: ``action`` (its notation), ``player`` (who chose it, or -1),
``prob`` (an exact :class:`~fractions.Fraction` on chance edges, ``None``
otherwise).  When several outcomes or actions lead to the same merged
position, one edge carries them all: ``action`` joins them with ``" | "`` and
``prob`` is their sum.  Graph attributes: ``game``, ``root`` (always 0),
``state`` (the root position), ``merged``, ``truncated``.

Writers: a tree lists of itself only what GraphML, GEXF and JSON hold, so
``networkx.write_graphml(G, path)``, ``networkx.write_gexf(G, path)`` and
``json.dumps(networkx.node_link_data(G))`` work on it as it is.  A lookup
(``d["returns"]``, ``d.get``, ``in``) answers the exact value; the listing
(iteration, ``items()``, ``len``, ``dict(d)``, ``copy()``: what a writer
reads) gives columns: a plain value (bool, int, float, str) as it is,
``None`` and ``()`` left out (GraphML has no null: a missing column means
``None``), any other value as its text under ``NAME_text``
(``returns_text`` ``"1/2 -1/2"``, ``prob_text`` ``"1/3"``,
``simultaneous_text`` ``"0 1"``; also a ``value`` that
:func:`cardlab.solve_tree` writes), which a lookup answers too.  The graph
attribute ``state`` is not listed either.  ``G.copy()`` keeps the exact
values.  :func:`write_graphml` writes for a reader: every attribute under its
own name, exact values as text, plus each node's text board (``position``).

>>> import json, cardlab, networkx as nx
>>> G = cardlab.tree(cardlab.load("koinobori", open_hands=True).new_initial_state(seed=2), max_depth=2)
>>> e = next(d for _, _, d in G.edges(data=True) if d["prob"] is not None)
>>> e["prob"], dict(e)["prob_text"], "prob" in dict(e)
(Fraction(1, 7), '1/7', False)
>>> back = nx.node_link_graph(json.loads(json.dumps(nx.node_link_data(G))))
>>> back.number_of_nodes() == G.number_of_nodes()
True

With ``merge_transpositions=True`` (the default) equal positions share one
node, so the graph is a DAG (but for a tie picked again, above); information sets are then the positions'
:meth:`~cardlab.State.information_set` (what a player sees now).  With
``merge_transpositions=False`` the graph is a tree and information sets are
those of perfect recall: what the player saw at each of their earlier
decisions, the actions they took there, and what they see now.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, ItemsView, Iterator, KeysView, ValuesView
from fractions import Fraction
from pathlib import Path
from typing import Any

from ._lazy import lazy
from .core import CHANCE, TERMINAL, State
from .errors import CardlabError, TooLargeError
from .i18n import _

nx = lazy("networkx")  # loaded by the first tree (cardlab._lazy: a pupil's kernel never needs it)

__all__ = ["tree", "tree_state", "write_graphml", "write_dot", "DEFAULT_MAX_NODES"]

DEFAULT_MAX_NODES = 100_000

#: how many rebuilt node states a tree keeps (the most recently used)
_STATE_CACHE = 512


#: the value types that GraphML, GEXF and JSON (:func:`networkx.node_link_data`) all hold as they are
_PLAIN = (bool, int, float, str)


def _text(value: Any) -> str:
    """The text column of a value a writer cannot hold: a tuple as its items
    separated by spaces (``"1/2 -1/2"``), anything else as ``str``."""
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def _columns(d: Any) -> dict:
    """What a writer sees of the attributes ``d``: a value of a plain type as
    it is; ``None`` and ``()`` left out (GraphML has no null); any other value
    (a :class:`~fractions.Fraction`, a tuple of them) as its text under
    ``NAME_text``."""
    out = {}
    for k, v in d.items():
        if type(v) in _PLAIN:
            out[k] = v
        elif v is not None and not (isinstance(v, tuple) and not v):
            out[f"{k}_text"] = _text(v)
    return out


class _Attrs(dict):
    """An attribute dict that keeps the exact values and lists what a writer
    can hold.  Lookups (``d[k]``, ``get``, ``in``) answer the exact value of
    every attribute, stored or computed (:meth:`_virtual` names the
    computed ones, :meth:`_compute` computes them); iteration, ``items()``,
    ``len``, ``dict(d)`` and ``copy()`` list the writer's columns
    (:func:`_columns`: plain values as they are, others as ``NAME_text``,
    which a lookup answers too).  Writing an item stores it."""

    __slots__ = ()

    def _virtual(self) -> list[str]:
        """The keys answered without being stored."""
        return []

    def _compute(self, key: Any) -> Any:
        """The value of a computed key (KeyError for any other)."""
        raise KeyError(key)

    def _stored(self) -> dict:
        """What the dict stores (the exact values a copy starts from)."""
        return dict(dict.items(self))

    def _exact(self) -> dict:
        """Every attribute, stored or computed, with its exact value."""
        out = self._stored()
        out.update((k, self._compute(k)) for k in self._virtual())
        return out

    def __missing__(self, key: Any) -> Any:
        try:
            return self._compute(key)
        except KeyError:
            pass
        if isinstance(key, str) and key.endswith("_text"):
            columns = _columns(self._exact())
            if key in columns:
                return columns[key]
        raise KeyError(key)

    def get(self, key: Any, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        try:
            return self.__missing__(key)
        except KeyError:
            return default

    def __contains__(self, key: Any) -> bool:
        if dict.__contains__(self, key) or key in self._virtual():
            return True
        return isinstance(key, str) and key.endswith("_text") and key in _columns(self._exact())

    def __iter__(self) -> Iterator:
        return iter(_columns(self._exact()))

    def __reversed__(self) -> Iterator:
        return reversed(list(self))

    def __len__(self) -> int:
        return len(_columns(self._exact()))

    def keys(self) -> KeysView:  # type: ignore[override]
        return KeysView(self)

    def items(self) -> ItemsView:  # type: ignore[override]
        return ItemsView(self)

    def values(self) -> ValuesView:  # type: ignore[override]
        return ValuesView(self)

    def copy(self) -> dict:
        """A plain dict of the writer's columns (as GEXF's writer copies it)."""
        return _columns(self._exact())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, dict):
            return self._exact() == (other._exact() if isinstance(other, _Attrs) else other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._exact())

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickles and deep copies keep the stored exact values (not the columns)."""
        cls, args, state, listitems, _items = super().__reduce_ex__(protocol)
        return cls, args, state, listitems, iter(dict.items(self))


def _label(d: dict) -> str:
    p = dict.get(d, "player")
    if p == CHANCE:
        return "chance"
    if p == TERMINAL:
        return "(" + ", ".join(str(r) for r in dict.get(d, "returns") or ()) + ")"
    return f"P{p}"


#: node attributes a node stores only where they differ from this (a node's
#: memory): the value elsewhere, from the node's stored attributes
_DERIVED: dict[str, Callable[[dict], Any]] = {
    "terminal": lambda d: dict.get(d, "player") == TERMINAL,
    "returns": lambda d: None,
    "label": _label,
    "infoset": lambda d: None,
    "frontier": lambda d: False,
    "simultaneous": lambda d: (),
}


class _NodeAttrs(_Attrs):
    """A tree node's attribute dict: it stores ``parent``, ``player``,
    ``depth`` and those of :data:`_DERIVED` that differ from their usual
    value.  ``"state"`` is rebuilt (:func:`_state_of`) when looked up, but
    not listed (a copy would rebuild every state)."""

    __slots__ = ("_g",)

    def _virtual(self) -> list[str]:
        if not dict.__contains__(self, "player"):
            return []
        return [k for k in _DERIVED if not dict.__contains__(self, k)]

    def _compute(self, key: Any) -> Any:
        if key in _DERIVED and dict.__contains__(self, "player"):
            return _DERIVED[key](self)
        if key != "state" or not self._replayable():
            raise KeyError(key)
        G = self._g
        p = dict.__getitem__(self, "parent")
        if p is None:
            return _state_of(G, G.graph["root"])
        for m in G._succ.get(p, ()):
            if G._node[m] is self:
                return _state_of(G, m)
        raise KeyError(key)  # not reached through its parent in this graph: nothing to replay

    def _replayable(self) -> bool:
        return getattr(self, "_g", None) is not None and dict.__contains__(self, "parent")

    def __contains__(self, key: Any) -> bool:
        return _Attrs.__contains__(self, key) or (key == "state" and self._replayable())



class _EdgeAttrs(_Attrs):
    """A tree edge's attribute dict: ``action``, ``player`` and ``prob`` in
    slots (a dict's own storage costs twice as much), the rest stored."""

    __slots__ = ("_a", "_p", "_q")
    _KEYS = ("action", "player", "prob")

    def _virtual(self) -> list[str]:
        if not hasattr(self, "_a"):
            return []
        return [k for k in self._KEYS if not dict.__contains__(self, k)]

    def _stored(self) -> dict:
        out = dict(dict.items(self))
        if hasattr(self, "_a"):
            out.update((k, self._compute(k)) for k in self._KEYS if k not in out)
        return out

    def _compute(self, key: Any) -> Any:
        if hasattr(self, "_a"):
            if key == "action":
                return self._a
            if key == "player":
                return self._p
            if key == "prob":
                return self._q
        raise KeyError(key)


class _StateCache(dict):
    """Rebuilt states by node, the most recently used last; copies and
    pickles of a tree start with it empty."""

    def __reduce__(self) -> tuple:
        return _StateCache, ()

    def __deepcopy__(self, memo: dict) -> "_StateCache":
        return _StateCache()


class _GraphAttrs(_Attrs):
    """A tree's graph attributes: ``state`` (the root position) in a slot,
    answered on lookup but not listed (no writer holds a State); copied by
    ``update`` from another tree's (``G.copy()``)."""

    __slots__ = ("_state",)

    def _compute(self, key: Any) -> Any:
        if key == "state" and hasattr(self, "_state"):
            return self._state
        raise KeyError(key)

    def __contains__(self, key: Any) -> bool:
        return _Attrs.__contains__(self, key) or (key == "state" and hasattr(self, "_state"))

    def __setitem__(self, key: Any, value: Any) -> None:
        if key == "state":
            self._state = value
        else:
            dict.__setitem__(self, key, value)

    def update(self, *args: Any, **kw: Any) -> None:  # type: ignore[override]
        for other in (*args, kw):
            if isinstance(other, _GraphAttrs) and hasattr(other, "_state"):
                self._state = other._state
            pairs = other.items() if hasattr(other, "items") else other
            for k, v in pairs:
                self[k] = v


def __getattr__(name: str) -> Any:
    if name == "_Tree":
        return _tree_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _tree_class() -> type:
    """The class of the graphs :func:`tree` returns, made at the first tree
    (it subclasses networkx's, which :mod:`cardlab._lazy` loads only then);
    ``cardlab.tree._Tree`` names it, and pickle finds it there."""
    class _Tree(nx.DiGraph):
        """The graph :func:`tree` returns: an :class:`networkx.DiGraph` whose
        graph, node and edge attribute dicts are :class:`_GraphAttrs`,
        :class:`_NodeAttrs` and :class:`_EdgeAttrs`."""

        graph_attr_dict_factory = _GraphAttrs
        edge_attr_dict_factory = _EdgeAttrs

        def node_attr_dict_factory(self) -> _NodeAttrs:  # type: ignore[override]
            d = _NodeAttrs()
            d._g = self
            return d

        def copy(self, as_view: bool = False) -> nx.DiGraph:
            """A copy with the exact attributes (networkx's copies the listed
            columns); ``as_view``: networkx's read-only view."""
            if as_view:
                return super().copy(as_view=True)
            H = self.__class__()
            H.graph.update(self.graph)
            H.add_nodes_from((n, _stored(d)) for n, d in self._node.items())
            H.add_edges_from((u, v, _stored(d)) for u, nbrs in self._adj.items() for v, d in nbrs.items())
            return H

    _Tree.__module__, _Tree.__qualname__ = __name__, "_Tree"
    return _Tree


def _stored(d: dict) -> dict:
    """The exact attributes a copy of ``d`` starts from."""
    return d._stored() if isinstance(d, _Attrs) else dict(d)


def tree_state(G: nx.DiGraph, node: Any) -> State:
    """The position of ``node`` in a tree from :func:`tree` (the same as
    ``G.nodes[node]["state"]``): replayed from the root position along the
    ``parent`` edges, never written to a file.  A graph read back from a file
    keeps no positions: :class:`~cardlab.CardlabError` says so.

    >>> import cardlab
    >>> s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=2)
    >>> G = cardlab.tree(s, max_depth=1)
    >>> cardlab.tree_state(G, 0) == s, cardlab.tree_state(G, 1) == s.apply(G.edges[0, 1]["action"])
    (True, True)
    """
    if node not in G:
        raise CardlabError(_("the tree has no node {node}").format(node=repr(node)))
    d = G.nodes[node]
    if "state" not in d:
        raise CardlabError(_("this graph keeps no positions (only a tree made by cardlab.tree does, "
                             "not one read back from a file): node {node}").format(node=repr(node)))
    return d["state"]


def _state_of(G: nx.DiGraph, n: Any) -> State:
    """The state of node ``n``: the root's replayed along the ``parent`` edges."""
    cache = G.__dict__.get("_states")
    if cache is None:
        cache = G.__dict__["_states"] = _StateCache()
    path = []  # (node, its parent) from n up to the first cached node or the root
    while True:
        s = cache.pop(n, None)
        if s is not None:
            cache[n] = s  # the most recently used last
            break
        p = G._node[n]["parent"]
        if p is None:
            s = cache[n] = G.graph["state"]
            break
        path.append((n, p))
        n = p
    for m, p in reversed(path):
        s = s._apply(G._succ[p][m]["action"].split(" | ", 1)[0])  # the action that first reached m
        cache[m] = s
    while len(cache) > _STATE_CACHE:
        del cache[next(iter(cache))]
    return s


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
    >>> G.nodes[1]["state"] == s.apply(G.edges[0, 1]["action"])
    True
    """
    return _Builder(state, max_depth, max_nodes, merge_transpositions, truncate).run()


class _Builder:
    """One expansion of :func:`tree`: the graph, the nodes met so far (merged
    transpositions), the information sets numbered per player, and one
    object for equal values (a node's memory: payoffs, players of a choice,
    action names, probabilities)."""

    def __init__(self, state: State, max_depth: int | None, max_nodes: int, merge: bool, truncate: bool) -> None:
        self.state, self.max_depth, self.max_nodes, self.merge, self.truncate = (
            state, max_depth, max_nodes, merge, truncate)
        self.G = _tree_class()(game=repr(state.game), root=0, state=state, merged=merge, truncated=False)
        self.ids: dict[State, int] = {}
        self.infoset_ids: dict[tuple, str] = {}
        self.infoset_count: dict[int, int] = {}  # per player, to number information sets
        self.payoffs: dict[tuple, tuple] = {}
        self.simultaneous: dict[tuple, tuple] = {}
        self.names: dict[str, str] = {}
        self.probs: dict[Fraction, Fraction] = {}

    def run(self) -> nx.DiGraph:
        """Breadth first from the root; recall: per player, the tuple of
        (information set, action) pairs so far (only without merging)."""
        state = self.state
        root = self.add(state, None, 0, {})
        queue = deque([(state, root, {})])
        if self.merge:
            self.ids[state] = root
        while queue:
            self.expand(*queue.popleft(), queue)
        return self.G

    def infoset(self, s: State, p: int, recall: tuple) -> str | None:
        if p < 0:
            return None
        key = (p, recall, s.information_set(p)) if not self.merge else (p, s.information_set(p))
        if key not in self.infoset_ids:
            n = self.infoset_count.get(p, 0)
            self.infoset_count[p] = n + 1
            self.infoset_ids[key] = f"{p}:{n}"
        return self.infoset_ids[key]

    def add(self, s: State, parent: int | None, depth: int, recall: dict) -> int:
        """A new node; only parent, player, depth and what differs from
        _DERIVED are stored (a node's memory)."""
        G = self.G
        n = G.number_of_nodes()
        p = s.current_player
        attrs: dict[str, Any] = {"parent": parent, "player": p, "depth": depth}
        if p == TERMINAL:
            raw = tuple(s.returns())
            ret = self.payoffs.get(raw)
            if ret is None:
                ret = self.payoffs[raw] = tuple(Fraction(r) for r in raw)
            attrs["returns"] = ret
        elif p >= 0:
            attrs["infoset"] = self.infoset(s, p, recall.get(p, ()) if recall else ())
            sim = s.simultaneous()
            if sim != ():
                attrs["simultaneous"] = self.simultaneous.setdefault(sim, sim)
        G.add_node(n, **attrs)
        return n

    def expand(self, s: State, n: int, recall: dict, queue: deque) -> None:
        """Node ``n``'s children: new ones are queued, a transposition is
        linked to the node met first; a frontier past the limits."""
        G = self.G
        depth = G.nodes[n]["depth"]
        p = s.current_player
        if p == TERMINAL:
            return
        if self.max_depth is not None and depth >= self.max_depth:
            G.nodes[n]["frontier"] = True
            return
        if p == CHANCE:
            edges = [(a, prob) for a, prob in s.chance_outcomes()]
        else:
            edges = [(a, None) for a in s.legal_actions()]
        if G.number_of_nodes() + len(edges) > self.max_nodes and not self.truncate:
            raise TooLargeError(
                _("the tree of this position has more than max_nodes={max_nodes} nodes (reached at depth {depth}); "
                  "pass a larger max_nodes, a max_depth, or truncate=True to keep a marked frontier").format(
                    max_nodes=self.max_nodes, depth=depth))
        for a, prob in edges:
            c = s._apply(a)
            if self.merge and c in self.ids:
                m = self.ids[c]
            elif G.number_of_nodes() >= self.max_nodes:
                G.nodes[n]["frontier"] = True
                G.graph["truncated"] = True
                continue
            else:
                child_recall = recall
                if not self.merge and p >= 0:
                    child_recall = dict(recall)
                    child_recall[p] = recall.get(p, ()) + ((s.information_set(p), a),)
                m = self.add(c, n, depth + 1, child_recall)
                if self.merge:
                    self.ids[c] = m
                queue.append((c, m, child_recall))
            self.link(n, m, a, prob, p)

    def link(self, n: int, m: int, a: str, prob: Fraction | None, p: int) -> None:
        """The edge ``n -> m`` for action ``a``: a second action or outcome
        that reaches one position joins the edge (``"a | b"``, probabilities added)."""
        e = self.G._succ[n].get(m)
        if e is not None:
            e._a += " | " + a
            if prob is not None:
                e._q += prob
        else:
            self.G.add_edge(n, m)  # its attributes in the slots of an _EdgeAttrs
            e = self.G._succ[n][m]
            e._a, e._p = self.names.setdefault(a, a), p
            e._q = self.probs.setdefault(prob, prob) if type(prob) is Fraction else prob


def _named(d: Any) -> dict:
    """The attributes ``d`` (exact values) under their own names as GraphML
    holds them: plain values as they are, ``None`` and ``()`` left out, any
    other value as its text (:func:`_text`); ``state`` left out."""
    exact = d._exact() if isinstance(d, _Attrs) else dict(d)
    return {k: v if type(v) in _PLAIN else _text(v) for k, v in exact.items()
            if k != "state" and v is not None and not (isinstance(v, tuple) and not v)}


def _exportable(G: nx.DiGraph) -> nx.DiGraph:
    """``G`` for :func:`write_graphml`: every attribute under its own name
    (:func:`_named`), each node's text board as ``position``, a chance edge's
    probability as ``prob_float`` too; works on any graph (one read from
    Gambit's format, one whose nodes :func:`cardlab.solve_tree` gave a ``value``)."""
    H = nx.DiGraph()
    H.graph.update(_named(G.graph))
    for n, data in G.nodes(data=True):
        attrs = _named(data)
        s = data.get("state")
        if s is not None:
            attrs["position"] = str(s)
        H.add_node(n, **attrs)
    for u, v, data in G.edges(data=True):
        attrs = _named(data)
        if data.get("prob") is not None:
            attrs["prob_float"] = float(data["prob"])
        H.add_edge(u, v, **attrs)
    return H


def write_graphml(G: nx.DiGraph, path: str | Path) -> None:
    """Write a tree as GraphML for a reader: every attribute under its own
    name, exact values as text (``returns`` ``"1/2 -1/2"``, ``prob``
    ``"1/3"`` with ``prob_float`` beside it) and each node's text board
    (``position``); also for a graph whose attributes are not plain (a
    ``value`` from :func:`cardlab.solve_tree`).  ``networkx.write_graphml(G,
    path)`` writes the tree as it lists itself: the same, but exact values
    under ``NAME_text`` and no ``position`` or ``prob_float``."""
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
            label += "\\nv=" + (d["value"] if isinstance(d["value"], str) else _text(d["value"]))
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
