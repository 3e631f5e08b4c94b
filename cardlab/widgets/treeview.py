"""A small game tree drawn as SVG with its exact values (:func:`cardlab.tree`
and :func:`cardlab.solve_tree`), and a widget to walk it.

The drawing is our own tidy layout (leaves side by side, each parent above
the middle of its children); no matplotlib.  :func:`tree_svg` is a pure
function of the graph; :class:`TreeView` adds buttons to expand a child,
go up, and jump a :class:`~cardlab.widgets.Board` to the node shown.
"""

from __future__ import annotations

import html as _html
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from .. import render
from .._lazy import lazy
from ..core import CHANCE, State
from ..errors import CardlabError, TooLargeError
from ..hidden import open_hands_copy
from ..i18n import _
from ..solve import solve_tree
from ..tree import tree, tree_state

nx = lazy("networkx")  # loaded by the first tree (cardlab._lazy: a pupil's kernel never needs it)

__all__ = ["TreeView", "tree_svg", "value_text"]

XGAP, YGAP, MARGIN = 132, 84, 30
FILL = {0: "#cfe0f5", 1: "#f8d6c8", 2: "#d8f0d0", 3: "#efe3b0"}


def value_text(value: tuple | None) -> str:
    """``v=1/2`` (player 0's value) for two-player zero-sum trees, the whole
    tuple otherwise; empty when unsolved."""
    if value is None:
        return ""
    if len(value) == 2 and value[0] == -value[1]:
        return f"v={Fraction(value[0])}"
    return "v=(" + ", ".join(str(Fraction(v)) for v in value) + ")"


def _visible(G: nx.DiGraph, focus: int, depth: int) -> list[tuple[int, int, int | None]]:
    """(node, level, parent) in drawing order, down to ``depth`` levels."""
    out, stack = [], [(focus, 0, None)]
    while stack:
        n, d, parent = stack.pop()
        out.append((n, d, parent))
        if d < depth:
            stack.extend((m, d + 1, n) for m in reversed(list(G.succ[n])))
    return out


def tree_svg(G: nx.DiGraph, focus: int = 0, depth: int = 2, *, max_leaves: int = 40) -> str:
    """The subtree of ``G`` under ``focus``, ``depth`` levels deep, as SVG.

    Decision nodes are circles (``P0``, ``P1``), chance nodes diamonds,
    terminal nodes boxes with their payoffs; each node shows its value
    (``v=…``, from :func:`cardlab.solve_tree` when it was run), edges their
    action and, at chance nodes, the exact probability.  Edges on which the
    player keeps the node's value (best moves) are drawn thick and green; a
    ``+`` marks a node whose children are not drawn.  Depth shrinks until at
    most ``max_leaves`` leaves remain.

    >>> import cardlab
    >>> G = cardlab.tree(cardlab.load("koinobori").new_initial_state(seed=1), max_depth=1)
    >>> svg = tree_svg(G, depth=1)
    >>> svg.startswith("<svg") and svg.count("<circle") >= 1
    True
    """
    if focus not in G:
        raise ValueError(_("node {node} is not in the tree (nodes 0..{last})")
                         .format(node=repr(focus), last=G.number_of_nodes() - 1))
    shown, kids = _fit(G, focus, depth, max_leaves)
    x, levels, width, height = _places(shown, kids)
    y = {n: MARGIN + 16 + level * YGAP for n, level in levels.items()}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">']
    for parent, children in kids.items():
        for m in children:
            parts += _edge_svg(G, parent, m, x, y)
    for n, _level, _parent in shown:
        parts += _node_svg(G, n, x[n], y[n], ring=' stroke="#000" stroke-width="3"' if n == focus
                           else ' stroke="#555"', cut=n not in kids and bool(G.succ[n]))
    parts.append("</svg>")
    return "".join(parts)


def _fit(G: nx.DiGraph, focus: int, depth: int, max_leaves: int) -> tuple[list, dict[int, list[int]]]:
    """The nodes drawn (``(node, level, parent)`` in pre-order) and each one's
    children drawn, ``depth`` shrunk until at most ``max_leaves`` leaves remain."""
    while True:
        shown = _visible(G, focus, depth)
        kids: dict[int, list[int]] = {}
        for n, _level, parent in shown:
            if parent is not None:
                kids.setdefault(parent, []).append(n)
        leaves = [n for n, _level, _parent in shown if n not in kids]
        if len(leaves) <= max_leaves or depth <= 1:
            return shown, kids
        depth -= 1


def _places(shown: list, kids: dict[int, list[int]]) -> tuple[dict[int, float], dict[int, int], int, int]:
    """Each node's x (leaves side by side, a parent over the middle of its
    children), its level, and the picture's width and height."""
    x: dict[int, float] = {}
    slot = 0
    levels = {n: d for n, d, _parent in shown}
    for n, _level, _parent in shown:  # pre-order: leaves come in drawing order
        if n not in kids:
            x[n] = MARGIN + XGAP / 2 + slot * XGAP
            slot += 1
    for n, d, _parent in sorted(shown, key=lambda t: -t[1]):
        if n in kids:
            xs = [x[m] for m in kids[n]]
            x[n] = (min(xs) + max(xs)) / 2
    width = int(2 * MARGIN + max(slot, 1) * XGAP)
    height = int(2 * MARGIN + (max(levels.values()) + 1) * YGAP)
    return x, levels, width, height


def _edge_svg(G: nx.DiGraph, parent: int, m: int, x: dict, y: dict) -> list[str]:
    """The edge ``parent -> m`` with its action (and probability); thick and
    green where the mover keeps the parent's value."""
    pdata = G.nodes[parent]
    pv = pdata.get("value")
    e = G.edges[parent, m]
    cv = G.nodes[m].get("value")
    best = pv is not None and cv is not None and pdata["player"] >= 0 and \
        cv[pdata["player"]] == pv[pdata["player"]]
    stroke = 'stroke="#2a8a3a" stroke-width="3"' if best else 'stroke="#888" stroke-width="1"'
    label = e["action"] + (f" ({e['prob']})" if e.get("prob") is not None else "")
    return [f'<line x1="{x[parent]:.0f}" y1="{y[parent]:.0f}" x2="{x[m]:.0f}" y2="{y[m]:.0f}" {stroke}/>',
            f'<text x="{x[m]:.0f}" y="{y[m] - 22:.0f}" text-anchor="middle" fill="#333" '
            f'font-size="10" stroke="#fff" stroke-width="3" paint-order="stroke">'
            f"{_html.escape(label)}</text>"]


def _node_svg(G: nx.DiGraph, n: int, cx: float, cy: float, ring: str, cut: bool) -> list[str]:
    """Node ``n`` at ``(cx, cy)``: a box (terminal), a diamond (chance) or a
    circle (a player), its value, and ``+`` when its children are ``cut``
    (``…`` at a frontier)."""
    d = G.nodes[n]
    if d["terminal"]:
        parts = [f'<rect x="{cx - 30:.0f}" y="{cy - 11:.0f}" width="60" height="22" rx="3" fill="#f4f4f4"{ring}/>',
                 f'<text x="{cx:.0f}" y="{cy + 4:.0f}" text-anchor="middle">{_html.escape(d["label"])}</text>']
    elif d["player"] == CHANCE:
        parts = [f'<path d="M{cx:.0f} {cy - 15:.0f} l15 15 l-15 15 l-15 -15 Z" fill="#eeeeee"{ring}/>',
                 f'<text x="{cx:.0f}" y="{cy + 4:.0f}" text-anchor="middle">?</text>']
    else:
        parts = [f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="14" fill="{FILL.get(d["player"], "#ddd")}"{ring}/>',
                 f'<text x="{cx:.0f}" y="{cy + 4:.0f}" text-anchor="middle">P{d["player"]}</text>']
    v = value_text(d.get("value"))
    if v and not d["terminal"]:
        parts.append(f'<text x="{cx:.0f}" y="{cy + 28:.0f}" text-anchor="middle" fill="#224">{v}</text>')
    if cut:
        parts.append(f'<text x="{cx + 18:.0f}" y="{cy - 10:.0f}" font-size="13" fill="#a00">+</text>')
    if d.get("frontier"):
        parts.append(f'<text x="{cx + 18:.0f}" y="{cy - 10:.0f}" font-size="13" fill="#a00">…</text>')
    return parts


class TreeView(widgets.VBox):
    """The game tree of a small position with its exact values.

    ``TreeView(state, board=None, depth=2, max_nodes=3000)``: builds
    :func:`cardlab.tree` (unmerged, so each node has one path) and solves it
    with :func:`cardlab.solve_tree`.  A state with hidden cards is drawn in
    its open-hands copy (every hand shown, the deck still random), since the
    values assume both players see everything.  When the whole tree has more
    than ``max_nodes`` nodes only ``depth`` levels are built and no values
    are shown (the view says so).

    Controls: one button per child of the node in focus (expand it), ``up``,
    ``root``, the number of levels drawn, and ``show on board`` (jump the
    ``board`` given to the node's position).

    >>> import cardlab, cardlab.widgets
    >>> s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=1)
    >>> tv = cardlab.widgets.TreeView(s, max_nodes=50)
    >>> tv.solved, tv.focus
    (False, 0)
    """

    def __init__(self, state: State, *, board: Any = None, depth: int = 2, max_nodes: int = 3000) -> None:
        if not isinstance(state, State):
            raise TypeError(_("TreeView takes a cardlab.State, not {kind}").format(kind=type(state).__name__))
        self.board = board
        try:
            self.root_state = open_hands_copy(state)
            self.note = "" if self.root_state is state else (
                _("Drawn with every hand shown (the open-hands copy; the deck stays random): "
                  "the values assume both players see all cards."))
        except CardlabError:
            self.root_state = state
            self.note = _("This game has hidden cards and no open-hands option: values are those of a player "
                          "who sees everything.")
        try:
            self.graph = tree(self.root_state, merge_transpositions=False, max_nodes=max_nodes)
            solve_tree(self.graph)
            self.solved = True
        except TooLargeError:
            self.graph = tree(self.root_state, merge_transpositions=False, max_depth=depth,
                              max_nodes=max_nodes, truncate=True)
            self.solved = False
            self.note = (_("The whole tree has more than {max_nodes:,} nodes: only {depth} levels are "
                           "built and no values are shown. Choose a smaller position (fewer cards in "
                           "the deck).").format(max_nodes=max_nodes, depth=depth) + " " + self.note)
        self.path: list[tuple[int, str]] = []  # (node, action) from the root to the focus
        self.depth = depth
        self.picture = widgets.HTML()
        self.info = widgets.HTML()
        self.children_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.child_buttons: dict[str, widgets.Button] = {}
        self.up_button = widgets.Button(description=_("↑ up"), tooltip=_("back to the parent node"))
        self.root_button = widgets.Button(description=_("⌂ root"), tooltip=_("back to the root"))
        self.jump_button = widgets.Button(description=_("show on board"),
                                          tooltip=_("put this node's position on the board"))
        self.depth_picker = widgets.Dropdown(options=[1, 2, 3, 4], value=min(max(depth, 1), 4),
                                             description=_("levels"), layout=widgets.Layout(width="140px"))
        self.message = ""
        self.up_button.on_click(lambda _: self._guard(self.up))
        self.root_button.on_click(lambda _: self._guard(self.to_root))
        self.jump_button.on_click(lambda _: self._guard(self.jump))
        self.depth_picker.observe(lambda ch: self._guard(self.set_depth, ch["new"]), names="value")
        super().__init__(children=[
            widgets.HBox([self.up_button, self.root_button, self.depth_picker, self.jump_button]),
            self.children_box, self.picture, self.info])
        self._refresh()

    @property
    def focus(self) -> int:
        """The node in focus (0 is the root)."""
        return self.path[-1][0] if self.path else 0

    @property
    def focus_state(self) -> State:
        return tree_state(self.graph, self.focus)

    def actions(self) -> list[str]:
        """The path of actions from the root to the node in focus."""
        return [a for _, a in self.path]

    def expand(self, action: str) -> None:
        """Focus the child reached by ``action`` (a child button does this)."""
        for m in self.graph.succ[self.focus]:
            if self.graph.edges[self.focus, m]["action"] == action:
                self.path.append((m, action))
                self._refresh()
                return
        have = [self.graph.edges[self.focus, m]["action"] for m in self.graph.succ[self.focus]]
        if not have:
            raise ValueError(_("{action} is not an edge of the node in focus; its edges: none (a leaf)")
                             .format(action=repr(action)))
        raise ValueError(_("{action} is not an edge of the node in focus; its edges: {edges}")
                         .format(action=repr(action), edges=", ".join(have)))

    def up(self) -> None:
        """Focus the parent node (nothing at the root)."""
        if self.path:
            self.path.pop()
        self._refresh()

    def to_root(self) -> None:
        self.path.clear()
        self._refresh()

    def set_depth(self, depth: int) -> None:
        """How many levels below the focus are drawn."""
        if not isinstance(depth, int) or depth < 1:
            raise ValueError(_("depth must be a whole number ≥ 1, not {depth}").format(depth=repr(depth)))
        self.depth = depth
        if self.depth_picker.value != depth and depth in self.depth_picker.options:
            self.depth_picker.value = depth
        self._refresh()

    def jump(self) -> None:
        """Put the focused node's position on the board (``board=`` given)."""
        if self.board is None:
            raise CardlabError(_("this TreeView has no board: TreeView(state, board=b)"))
        self.board.set_state(self.focus_state)

    def _guard(self, fn: Any, *args: Any) -> None:
        """Run a control's method; a refusal is shown in the view, not raised
        into the event loop."""
        self.message = ""
        try:
            fn(*args)
        except (CardlabError, ValueError) as exc:
            self.message = str(exc).splitlines()[0]
            self._refresh()

    def _refresh(self) -> None:
        G, n = self.graph, self.focus
        d = G.nodes[n]
        buttons = {}
        for m in G.succ[n]:
            e = G.edges[n, m]
            label = e["action"] + (f" ({e['prob']})" if e.get("prob") is not None else "")
            tip = value_text(G.nodes[m].get("value")) or _("expand")
            b = widgets.Button(description="→ " + label, tooltip=tip, layout=widgets.Layout(width="auto"))
            b.on_click(lambda _, a=e["action"]: self._guard(self.expand, a))
            buttons[e["action"]] = b
        self.child_buttons = buttons
        self.children_box.children = list(buttons.values())
        self.up_button.disabled = not self.path
        self.root_button.disabled = not self.path
        self.jump_button.disabled = self.board is None
        self.picture.value = ('<div style="overflow-x:auto">' + tree_svg(G, n, self.depth) + "</div>")
        where = " → ".join(self.actions()) or _("the root")
        v = value_text(d.get("value"))
        nodes = _("{nodes:,} nodes in the tree").format(nodes=G.number_of_nodes())
        exact = " · " + _("{value} (exact, for player 0)").format(value=v) if v else ""
        head = ("<div><b>" + _html.escape(_("Node")) + f"</b>: {_html.escape(where)} · {_html.escape(nodes)}"
                + _html.escape(exact) + "</div>")
        note = f"<div><i>{_html.escape(self.note)}</i></div>" if self.note else ""
        if self.message:
            note += f'<div style="color:#b00">{_html.escape(self.message)}</div>'

        self.info.value = head + note + ("<pre style=\"font-size:11px\">"
                                         + _html.escape(render.text(self.focus_state)) + "</pre>")

    def __repr__(self) -> str:
        where = "/".join(self.actions()) or "root"
        return (f"TreeView({self.root_state.game.name!r}, nodes={self.graph.number_of_nodes()}, "
                f"solved={self.solved}, focus={where!r})")
