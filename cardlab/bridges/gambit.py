"""Gambit's extensive-form game format (``.efg``): write any cardlab tree
(information sets, chance with exact probabilities, payoffs) and read one
back as a cardlab tree; solve it with pygambit when that optional extra is
installed (``pip install cardlab[gambit]``).

The format (Gambit manual, "Game representation formats"): a header
``EFG 2 R "title" { "player 1" "player 2" }``, a comment line, then the
nodes in preorder, one per line::

    c "name" infoset "infoset name" { "outcome" prob ... } outcome     chance
    p "name" player infoset "infoset name" { "action" ... } outcome   decision
    t "name" outcome "outcome name" { payoff, payoff }                 terminal

Players count from 1 there and from 0 in cardlab.

>>> from cardlab.equilibrium import matrix_tree
>>> text = write_efg(matrix_tree([[1, -1], [-1, 1]], ["heads", "tails"]))
>>> text.splitlines()[0]
'EFG 2 R "cardlab" { "player 0" "player 1" }'
>>> G = read_efg(text)
>>> G.number_of_nodes(), G.nodes[0]["infoset"]
(7, '0:1')
"""

from __future__ import annotations

import re
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import networkx as nx

from ..core import CHANCE, TERMINAL, State
from ..errors import CardlabError, NotSolvableError
from ..i18n import _

__all__ = ["write_efg", "read_efg", "EFGError", "to_pygambit", "pygambit_value"]


class EFGError(CardlabError, ValueError):
    """An ``.efg`` text that does not parse; the message names the line and token."""


def _q(text: Any) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tree_of(source: State | nx.DiGraph, max_nodes: int) -> nx.DiGraph:
    if isinstance(source, State):
        from ..tree import tree

        return tree(source, merge_transpositions=False, max_nodes=max_nodes)
    return source


def write_efg(source: State | nx.DiGraph, path: str | Path | None = None, *, title: str | None = None,
              max_nodes: int = 100_000) -> str:
    """Write a tree (or the perfect-recall tree of a position) as ``.efg``
    text; returns the text and writes it to ``path`` when given.

    A DAG with merged transpositions is unfolded into a tree on the way
    (its shared subtrees are repeated).  Probabilities stay exact
    (``1/3``); payoffs are written as fractions too.
    """
    G = _tree_of(source, max_nodes)
    players = sorted({d["player"] for _, d in G.nodes(data=True) if d["player"] >= 0}) or [0]
    nplayers = max(max(players) + 1, 2)
    if title is None:
        title = G.graph.get("game", "cardlab")
    names = " ".join(_q(f"player {p}") for p in range(nplayers))
    lines = [f"EFG 2 R {_q(title)} {{ {names} }}", _q("written by cardlab.bridges.gambit")]
    infoset_no: dict[str, int] = {}
    per_player: dict[int, int] = {}
    chance_no = 0
    outcome_no = 0
    root = G.graph.get("root", 0)
    stack = [root]
    while stack:
        n = stack.pop()
        d = G.nodes[n]
        succ = list(G.succ[n].items())
        if d.get("frontier"):
            raise NotSolvableError(_("node {node} is an unexpanded frontier; an .efg needs the complete tree").format(
                node=n))
        if d["terminal"]:
            outcome_no += 1
            pays = ", ".join(str(Fraction(r)) for r in d["returns"])
            lines.append(f"t \"\" {outcome_no} {_q(d.get('label', ''))} {{ {pays} }}")
        elif d["player"] == CHANCE:
            chance_no += 1
            acts = " ".join(f"{_q(e['action'])} {Fraction(e['prob'])}" for _, e in succ)
            lines.append(f"c \"\" {chance_no} \"\" {{ {acts} }} 0")
        else:
            p = d["player"]
            I = d["infoset"] if d["infoset"] is not None else f"node {n}"
            if I not in infoset_no:
                per_player[p] = per_player.get(p, 0) + 1
                infoset_no[I] = per_player[p]
            acts = " ".join(_q(e["action"]) for _, e in succ)
            lines.append(f"p \"\" {p + 1} {infoset_no[I]} {_q(I)} {{ {acts} }} 0")
        stack.extend(m for m, _ in reversed(succ))
    text = "\n".join(lines) + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|([{}])|([^\s{},"]+)|(,)')


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in _TOKEN.finditer(line):
            if m.group(1) is not None:
                out.append(("str", re.sub(r"\\(.)", r"\1", m.group(1)), lineno))
            elif m.group(2):
                out.append((m.group(2), m.group(2), lineno))
            elif m.group(3):
                out.append(("word", m.group(3), lineno))
    return out


def read_efg(source: str | Path) -> nx.DiGraph:
    """Read ``.efg`` text (or a file path) into a cardlab tree: the same
    node and edge attributes as :func:`cardlab.tree` with
    ``merge_transpositions=False`` (information sets ``"p:k"`` with the
    file's numbering, players from 0), so :func:`cardlab.solve_tree` and
    :mod:`cardlab.equilibrium` take it directly.  Payoffs and
    probabilities become exact fractions (decimals too)."""
    if isinstance(source, Path) or (isinstance(source, str) and "\n" not in source
                                    and not source.lstrip().startswith("EFG")):
        where = str(source)
        text = Path(source).read_text(encoding="utf-8")
    else:
        where, text = "<efg text>", str(source)
    return _EFGReader(_tokens(text), where).read()


class _EFGReader:
    """A recursive-descent reader of the tokens of one ``.efg`` file into a
    cardlab tree (see :func:`read_efg`); ``pos`` is the next token."""

    def __init__(self, toks: list, where: str) -> None:
        self.toks, self.where, self.pos = toks, where, 0
        self.G = nx.DiGraph()
        self.players: list[str] = []
        self.outcomes: dict[int, tuple] = {}
        self.infoset_actions: dict[tuple[int, int], list] = {}

    def read(self) -> nx.DiGraph:
        self.header()
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
        self.node(0)
        if self.pos != len(self.toks):
            raise self.fail(_("unexpected {token} after the last node").format(token=repr(self.toks[self.pos][1])))
        return self.G

    def fail(self, msg: str) -> EFGError:
        if self.pos < len(self.toks):
            return EFGError(_("{where}, line {line}: {problem}").format(where=self.where, line=self.toks[self.pos][2],
                                                                       problem=msg))
        return EFGError(_("{where}, line end: {problem}").format(where=self.where, problem=msg))

    def next_is(self, kind: str) -> bool:
        """Whether the next token is of ``kind`` (no token left: no)."""
        return self.pos < len(self.toks) and self.toks[self.pos][0] == kind

    def take(self, kind: str | None = None) -> str:
        if self.pos >= len(self.toks):
            raise self.fail(_("unexpected end of file (expected {kind})").format(kind=repr(kind)) if kind is not None
                            else _("unexpected end of file (expected a token)"))
        k, v, _line = self.toks[self.pos]
        if kind is not None and k != kind:
            raise self.fail(_("expected {kind}, found {found}").format(kind=repr(kind), found=repr(v)))
        self.pos += 1
        return v

    def number(self, v: str) -> Fraction:
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            raise self.fail(_("{value} is not a number (accepted: integers, fractions like 1/3, decimals)").format(
                value=repr(v))) from None

    def header(self) -> None:
        """``EFG 2 R "title" { "player" ... } "comment"``: the graph with its title and players."""
        take = self.take
        if take("word") != "EFG" or take("word") != "2":
            raise self.fail(_("the file must start with 'EFG 2 R'"))
        if take("word") not in ("R", "D"):
            raise self.fail(_("only the 'R' (rational) or 'D' format is read"))
        title = take("str")
        take("{")
        while self.toks[self.pos][0] == "str":
            self.players.append(take("str"))
        take("}")
        if self.next_is("str"):  # comment
            self.pos += 1
        from ..tree import _Tree  # the graph cardlab.tree makes: networkx's writers take it as it is

        self.G = _Tree(game=title, root=0, merged=False, truncated=False, players=self.players)

    def payoffs(self) -> tuple:
        self.take("{")
        vals = []
        while self.toks[self.pos][0] != "}":
            if self.toks[self.pos][0] == ",":
                self.take(",")
                continue
            vals.append(self.number(self.take("word")))
        self.take("}")
        return tuple(vals)

    def node(self, depth: int) -> int:
        """The node at the next token and, recursively, its subtree."""
        G = self.G
        n = G.number_of_nodes()
        kind = self.take("word")
        self.take("str")  # node name
        if kind == "t":
            ret = self.terminal()
            G.add_node(n, player=TERMINAL, terminal=True, returns=ret, infoset=None, depth=depth,
                       label="(" + ", ".join(map(str, ret)) + ")", frontier=False)
            return n
        if kind == "c":
            player, infoset, acts = CHANCE, None, self.chance()
        elif kind == "p":
            player, infoset, acts = self.personal()
        else:
            raise self.fail(_("a node starts with 'c', 'p' or 't', not {kind}").format(kind=repr(kind)))
        o = int(self.take("word"))
        if o != 0:
            if self.next_is("str"):
                self.take("str")
            if self.next_is("{"):
                self.outcomes[o] = self.payoffs()
            raise self.fail(_("payoffs at non-terminal nodes are not supported (put them on the leaves)"))
        G.add_node(n, player=player, terminal=False, returns=None, infoset=infoset, depth=depth,
                   label="chance" if player == CHANCE else f"P{player}", frontier=False)
        for a, q in acts:
            m = self.node(depth + 1)
            G.add_edge(n, m, action=a, player=player, prob=q)
        return n

    def terminal(self) -> tuple:
        """``t "name" outcome "name" { payoffs }``: the payoffs, one per player."""
        o = int(self.take("word"))
        if self.next_is("str"):
            self.take("str")
        if self.next_is("{"):
            self.outcomes[o] = self.payoffs()
        if o not in self.outcomes:
            raise self.fail(_("outcome {outcome} is used before its payoffs are given").format(outcome=o))
        ret = self.outcomes[o]
        if len(ret) < len(self.players):
            ret = ret + (Fraction(0),) * (len(self.players) - len(ret))
        return ret

    def chance(self) -> list:
        """``c "name" infoset "name" { "action" prob ... }``: the outcomes with their probabilities."""
        iset = int(self.take("word"))
        if self.toks[self.pos][0] == "str":
            self.take("str")
        acts: list = []
        if self.toks[self.pos][0] == "{":
            self.take("{")
            while self.toks[self.pos][0] != "}":
                a = self.take("str")
                acts.append((a, self.number(self.take("word"))))
            self.take("}")
            self.infoset_actions[(-1, iset)] = acts
        acts = self.infoset_actions.get((-1, iset), [])
        if sum(q for _, q in acts) != 1:
            raise self.fail(_("chance probabilities {probabilities} do not sum to 1").format(
                probabilities=[str(q) for _a, q in acts]))
        return acts

    def personal(self) -> tuple[int, str, list]:
        """``p "name" player infoset "name" { "action" ... }``: the player (from 0),
        the information set ``"p:k"`` and its actions."""
        player = int(self.take("word")) - 1
        iset = int(self.take("word"))
        if self.toks[self.pos][0] == "str":
            self.take("str")
        if self.toks[self.pos][0] == "{":
            self.take("{")
            names = []
            while self.toks[self.pos][0] != "}":
                names.append(self.take("str"))
            self.take("}")
            self.infoset_actions[(player, iset)] = [(a, None) for a in names]
        if (player, iset) not in self.infoset_actions:
            raise self.fail(_("information set {infoset} of player {player} has no action list").format(
                infoset=iset, player=player + 1))
        return player, f"{player}:{iset}", self.infoset_actions[(player, iset)]


# -- pygambit (optional) --------------------------------------------------------------------
def _pygambit():
    try:
        import pygambit
    except ImportError:
        raise ImportError(_("this needs pygambit, an optional extra: pip install 'cardlab[gambit]'")) from None
    return pygambit


def to_pygambit(source: State | nx.DiGraph, *, max_nodes: int = 100_000):
    """The tree as a ``pygambit.Game`` (through the ``.efg`` text)."""
    gbt = _pygambit()
    import io
    import tempfile

    text = write_efg(source, max_nodes=max_nodes)
    reader = getattr(gbt, "read_efg", None)
    if reader is not None:
        try:
            return reader(io.StringIO(text))
        except Exception:  # older versions only take a path
            pass
    with tempfile.NamedTemporaryFile("w", suffix=".efg", delete=False, encoding="utf-8") as fh:
        fh.write(text)
        name = fh.name
    try:
        if reader is not None:
            return reader(name)
        return gbt.Game.read_game(name)
    finally:
        Path(name).unlink(missing_ok=True)


def pygambit_value(source: State | nx.DiGraph, *, max_nodes: int = 100_000) -> Fraction:
    """Player 0's equilibrium value computed by Gambit's own sequence-form LP
    (``pygambit.nash.lp_solve``, exact rationals)."""
    gbt = _pygambit()
    g = to_pygambit(source, max_nodes=max_nodes)
    result = gbt.nash.lp_solve(g, rational=True)
    profile = getattr(result, "equilibrium", None)  # pygambit 17
    if profile is None:  # pygambit 16: a list of equilibria
        eqa = getattr(result, "equilibria", None) or []
        if not eqa:
            raise NotSolvableError(_("pygambit found no equilibrium"))
        profile = eqa[0]
    first = next(iter(g.players))
    pay = getattr(profile, "payoff", None)
    if callable(pay):  # pygambit 16
        return Fraction(str(pay(first)))
    return Fraction(str(profile.payoffs[getattr(first, "label", first)]))  # pygambit 17
