"""The value of every legal action of a position (:func:`analyse`), open
(every card seen) or fair (only what the player to move can see, averaged
over the arrangements of the hidden cards: :mod:`cardlab.hidden`), and the
:class:`Analysis` that prints it.  ``cardlab.solve`` re-exports both.
"""

from __future__ import annotations

import html
import math
import sys
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from .anytime import anytime, check_budget, estimate
from .core import CHANCE, State
from .errors import NotSolvableError, TooLargeError
from .hidden import arrangements, information_rng, open_hands_copy, sample_arrangement
from .i18n import _, pgettext
from .search import DEFAULT_MAX_NODES, Search, action_values, check_solvable

__all__ = ["analyse", "Analysis", "mix_text"]


def mix_text(mix: dict[str, Any], epsilon: Any = 0) -> str:
    """``"pick rock 2/7, pick paper 5/7"``: the picks of a mixed strategy
    (and, for one that gets the value only to within ``epsilon``, says so)."""
    text = ", ".join(f"{a} {q}" for a, q in mix.items() if q)
    if not epsilon:
        return text
    return text + _(" (within {epsilon} of the value: no fixed mix gets it exactly)").format(epsilon=epsilon)



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
    #: an anytime analysis (:mod:`cardlab.anytime`): the seconds it (on its clock)
    #: took, how many arrangements it solved exactly, whether it was stopped
    #: (Ctrl-C) before its budget was spent, and how many arrangements there
    #: are (``None``: too many to list)
    seconds: float | None = None
    solved: int = 0
    stopped: bool = False
    total_arrangements: int | None = None
    #: the game's payoff range (the advice reads a share of a win from it)
    payoff_range: tuple = (-1, 1)
    #: an anytime estimate over deals not all checked against what the player
    #: saw: none that agrees could be drawn or listed (a rare, tightly
    #: constrained position; :meth:`cardlab.anytime._Worlds._sample`)
    relaxed: bool = False
    #: an anytime analysis's arrangements: ``(solved, drawn, errors)``, the
    #: exactly solved ones as ``(probability, values)``, the drawn ones as
    #: ``(values, searched)`` and the short search's measured errors
    #: (:func:`cardlab.anytime.estimate`; :meth:`difference` compares two
    #: moves on the same arrangements)
    samples: tuple = field(default=((), (), ()), repr=False, compare=False)

    def difference(self, a: str, b: str) -> tuple[Any, float]:
        """How much more action ``a`` is worth than ``b``, and the half-width
        of its 95 % interval (0 when exact).  Both were valued on the same
        arrangements, so the difference is far surer than the two values'
        own intervals suggest (a paired comparison)."""
        values = {r["action"]: r["value"] for r in self.rows}
        if self.exact:
            return values[a] - values[b], 0.0
        return estimate(self.samples, lambda v: v[a] - v[b], float(self.payoff_range[1] - self.payoff_range[0]))

    @property
    def exact(self) -> bool:
        """Whether every value is exact (not an estimate)."""
        return self.kind != "estimate" and self.kind != "sampled"

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
        if self.kind == "estimate" and self.total_arrangements == 1:
            return _("estimate (the exact search did not finish within its budget: {n:,} short searches "
                     "from here), with a {percent} interval").format(n=self.arrangements, percent="95 %")
        if self.kind == "estimate":
            return _("estimate (only what player {player} can see, {n:,} arrangements of the hidden cards "
                     "looked at, {solved:,} of them solved exactly, the others by a short search), with a "
                     "{percent} interval").format(player=p, n=self.arrangements, solved=self.solved,
                                                   percent="95 %")
        if self.kind == "sampled":
            return _("fair hint (only what player {player} can see): mean over {n:,} random arrangements of "
                     "the hidden cards, with a {percent} interval").format(
                         player=p, n=self.arrangements, percent="95 %")
        return _("exact value of each action for player {player}").format(player=p)

    @property
    def mix_line(self) -> str:
        return _("a simultaneous choice (同時): the best is to mix, {mix}; each value is against the other "
                 "player's best mix").format(mix=mix_text(self.mix or {}, self.mix_epsilon))

    @property
    def assumption(self) -> str:
        """One sentence: what the values assume (strategy fusion)."""
        return _("The values assume that after this move every card is played as if it were shown "
                 "(each arrangement solved with open hands), so they can flatter moves that need a guess later.")

    def advice(self, label: Callable[[str], str] = str) -> str:
        """One sentence a pupil understands: the best move, how good, how sure
        (``label`` names a move, e.g. its button text)."""
        best = [r for r in self.rows if r["best"]]
        r = best[0]
        move = label(r["action"])
        lo, hi = (float(x) for x in self.payoff_range)
        v = float(r["value"])
        if (lo, hi) == (-1.0, 1.0):
            worth = _("worth about {share:.0%} of a win").format(share=(v + 1) / 2)
        else:
            worth = _("worth about {value:+.2f} points").format(value=v)
        if self.kind == "open":
            return _("best: {move}, exactly {value} for you ({approx})").format(
                move=move, value=r["value"], approx=worth)
        if self.exact:
            return _("best: {move}, exactly {value} for you ({approx}), counting every deal you cannot see"
                     ).format(move=move, value=r["value"], approx=worth)
        a, b = r["interval"]
        if (lo, hi) == (-1.0, 1.0):
            pm = _("± {half:.0%}").format(half=(b - a) / 4)
        else:
            pm = _("± {half:.2f}").format(half=(b - a) / 2)
        if self.total_arrangements == 1:
            return _("probably best: {move}, {worth} by a short search ({pm})").format(
                move=move, worth=worth, pm=pm)
        return _("probably best: {move}, {worth} on average over the deals you cannot see ({pm})").format(
            move=move, worth=worth, pm=pm)

    def _interval(self, r: dict[str, Any]) -> str:
        lo, hi = r.get("interval", (None, None))
        return "" if lo is None else f"{lo:+.2f} … {hi:+.2f}"

    def __str__(self) -> str:
        h_action, h_value, h_loss, h_interval = _headings()
        w = max([len(r["action"]) for r in self.rows] + [6, _width(h_action)])
        sampled = not self.exact
        lines = [_("player {player} to move; values are player {player}'s expected payoff").format(player=self.player)]
        if self.kind != "open":
            lines.append(self.title)
        if self.mix:
            lines.append(self.mix_line)
        cells = [(f"{float(r['value']):.3f}" if sampled else str(r["value"]), f"{float(r['value']):+.3f}",
                  f"{float(r['loss']):.3f}" if sampled else str(r["loss"])) for r in self.rows]
        # each column as wide as its longest entry or heading (a long fraction widens it; 9, 7, 7 at least)
        wv, wa, wl = (max([least, _width(head), *(len(c[i]) for c in cells)])
                      for i, (least, head) in enumerate(((9, h_value), (7, "≈"), (7, h_loss))))
        lines.append(_pad(h_action, w) + "  " + _pad(h_value, wv, right=True) + "  " + "≈".rjust(wa) + "  "
                     + _pad(h_loss, wl, right=True) + ("  " + h_interval if sampled else ""))
        for r, (value, approx, loss) in zip(self.rows, cells):
            mark = "  ← " + pgettext("analysis", "best") if r["best"] else ""
            lines.append(f"{r['action']:<{w}}  {value:>{wv}}  {approx:>{wa}}  "
                         f"{loss:>{wl}}" + (f"  {self._interval(r)}" if sampled else "") + mark)
        if self.kind == "estimate":
            lines += [self.advice(), self.assumption]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        bold = ' style="font-weight:bold"'
        sampled = not self.exact
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


def _width(text: str) -> int:
    """How many terminal columns ``text`` takes, a wide (CJK) character two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns, a wide (CJK) character
    taking two (for ASCII the same as ``format(text, "<width")``)."""
    fill = " " * max(0, width - _width(text))
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
            progress: bool | None = None, max_arrangements: int | None = None, samples: int = 40,
            callback: Callable[[int, int], None] | None = None, seconds: float | None = None,
            nodes: int | None = None, clock: str = "wall") -> Analysis:
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
    ``max_arrangements`` arrangements (default 500), otherwise the mean over ``samples``
    random ones with a 95 % interval (seeded from what the player knows, so
    the answer depends on nothing else).  ``max_nodes`` bounds the whole
    search (default :data:`DEFAULT_MAX_NODES`; ``None``: no limit); ``callback(done, total)`` is called after each arrangement.

    **Anytime** (with ``seconds``, on the wall clock, or with ``clock="cpu"``
    on the analysing thread's CPU time, which a busy machine does not
    shorten; or ``nodes``, positions searched plus playout steps; or both):
    never too large; every legal
    action gets a value within the budget, exact where the search finished
    (the same answer as without a budget), otherwise an estimate with a
    95 % interval (``kind == "estimate"``; see :mod:`cardlab.anytime`).
    ``max_nodes`` and ``samples`` are then unused, and the arrangements are
    listed as far as the budget could solve them (``max_arrangements``, if
    given, caps that).  Ctrl-C stops it early
    with the answer so far.

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
    if player is not None and player != p:
        raise NotSolvableError(_("a hint is for the player to move: player {player} is to move, not "
                                 "player {asked}").format(player=p, asked=repr(player)))
    if seconds is not None or nodes is not None:
        check_budget(seconds, nodes, clock)
        if player is None and not state.game.spec.perfect_information:
            check_solvable(state)  # the open analysis needs every card seen
        return Analysis(**anytime(state, p, seconds=seconds, nodes=nodes, max_arrangements=max_arrangements,
                                  callback=callback, clock=clock))
    if player is not None:
        if not state.game.spec.perfect_information:
            return _fair(state, p, max_nodes, progress, 500 if max_arrangements is None else max_arrangements,
                         samples, callback)
    check_solvable(state)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    search = Search(state.game, max_nodes=max_nodes, progress=progress)
    try:
        values, mix, epsilon = action_values(state, p, search)
    finally:
        search.close()
    if callback is not None:
        callback(1, 1)
    return Analysis(player=p, rows=_rows(values), nodes=search.nodes, mix=mix, mix_epsilon=epsilon)


def _fair(state: State, p: int, max_nodes: int | None, progress: bool | None,
          max_arrangements: int, samples: int, callback: Callable[[int, int], None] | None) -> Analysis:
    """The fair hint: open-hands values averaged over what ``p`` cannot see."""
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
    search = Search(open_game, max_nodes=max_nodes, progress=progress)
    seen: list[dict[str, Fraction]] = []
    mixes = []
    epsilon: Any = 0
    try:
        for i, (world, _weight) in enumerate(worlds, 1):
            values, mix, eps = action_values(open_hands_copy(world), p, search)
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
