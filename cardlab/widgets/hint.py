"""The hint of a :class:`~cardlab.widgets.Board`: the value of each of the
mover's actions, fair (only what the mover can see: :func:`cardlab.analyse`
with ``player=``) unless a teacher asks for the open one, shown only to
that view at that position.

The hint is the *anytime* analysis (:mod:`cardlab.anytime`): it answers at
every decision within its budget, ``hint_seconds`` (2 s by default; a
teacher's box on an unlocked board) or, for tests and notebooks that must
be deterministic, ``hint_nodes``.  Each move gets a value, exact where the
search finished, otherwise an estimate with its 95 % interval; one sentence
says which move is best and how sure that is, one what the values assume.
"think longer" asks again with four times the budget.

Long work shows progress and can be stopped.  In a kernel (a notebook, the
class app in Voila) a click on *hint* computes in a thread of its own, so
the page stays alive: the progress bar moves and *stop* ends the analysis
at the next arrangement it finishes, with the answer so far.  Called from
Python (:meth:`HintMixin.hint`), it computes at once; the kernel's
interrupt (Ctrl-C) stops it with the answer so far.
"""

from __future__ import annotations

import asyncio
import html as _html
import threading
import warnings
from typing import Any, Callable

import ipywidgets as widgets

from .. import i18n, render
from ..anytime import check_budget
from ..core import State
from ..errors import CardlabError
from ..hidden import open_hands_copy
from ..i18n import _, pgettext
from ..solve import analyse
from .controls import _tr

#: "think longer" multiplies the last budget by this
THINK_LONGER = 4
#: the longest a hint may think (seconds), "think longer" included
MAX_SECONDS = 600.0


def hint_budget(hint_seconds: Any, hint_nodes: Any, hint_max_nodes: Any = None,
                hint_samples: Any = None) -> tuple[float, int | None]:
    """The hint's budget from a board's keywords: ``hint_seconds`` (a
    positive number) and ``hint_nodes`` (``None``, or a positive whole
    number: deterministic, for tests and notebooks).  The old caps
    ``hint_max_nodes`` and ``hint_samples`` are accepted and ignored, with
    a :class:`DeprecationWarning`."""
    for name, value in (("hint_max_nodes", hint_max_nodes), ("hint_samples", hint_samples)):
        if value is not None:
            warnings.warn(f"{name}= is ignored: the hint is the anytime analysis now, which answers at every "
                          "move within hint_seconds= (default 2); hint_nodes= gives a deterministic budget",
                          DeprecationWarning, stacklevel=4)
    check_budget(hint_seconds, hint_nodes)
    return float(hint_seconds), hint_nodes


class HintMixin:
    """The hint's side of a :class:`~cardlab.widgets.Board` (it keeps
    ``_hint``: the position, the view, the HTML in the language asked and the
    best actions; ``_hint_budget``: the budget it was given and whether its
    answer was exact)."""

    def _make_hint_controls(self, hint_seconds: float, hint_nodes: int | None) -> None:
        """The hint's budget, its teacher's setting, "think longer", "stop" and the progress bar."""
        #: the hint's time budget (seconds) and, for tests and notebooks, its work budget (positions)
        self.hint_seconds, self.hint_nodes = hint_seconds, hint_nodes
        #: compute a clicked hint in a thread (``None``: when a kernel's event loop runs, as in a notebook)
        self.hint_in_thread: bool | None = None
        self._hint_budget: tuple[State, Any, float | None, int | None, bool] | None = None
        self._hint_thread: threading.Thread | None = None
        self._hint_stop = threading.Event()
        #: a teacher's setting on an unlocked board: the hint's seconds (not drawn on a locked board)
        self.hint_seconds_box = widgets.BoundedFloatText(value=hint_seconds, min=0.1, max=MAX_SECONDS, step=0.5,
                                                         style={"description_width": "initial"},
                                                         layout=widgets.Layout(width="150px"))
        self.think_button = widgets.Button(layout=widgets.Layout(width="auto", display="none"))
        self.stop_button = widgets.Button(button_style="danger", layout=widgets.Layout(width="auto", display="none"))
        #: the hint's progress (0 to 1000), shown while it is computed
        self.hint_progress = widgets.IntProgress(value=0, min=0, max=1000, layout=widgets.Layout(
            width="120px", display="none"))
        self.hint_button.on_click(lambda _: self._guard(self._clicked, 1))
        self.think_button.on_click(lambda _: self._guard(self._clicked, THINK_LONGER))
        self.stop_button.on_click(lambda _: self.stop_hint())
        self.hint_seconds_box.observe(lambda ch: self._on_widget(self.set_hint_seconds, ch["new"]), names="value")

    def _hint_settings(self) -> list[widgets.Widget]:
        """The hint's controls beside its button (the teacher's ones only on an unlocked board)."""
        teacher = [] if self.locked else [self.open_hint_box, self.hint_seconds_box]
        return teacher + [self.think_button, self.stop_button, self.hint_progress]

    def _label_hint_controls(self) -> None:
        """The hint's labels and help in the current language."""
        for b, label, tip in (
                (self.hint_button, pgettext("button", "hint"),
                 _("fair hint (only what you can see): the value of each of your moves, averaged over the "
                   "arrangements of the cards you cannot see; exact when the search finishes in time, otherwise "
                   "an estimate with its margin")),
                (self.think_button, _("think longer"), _("the hint again, with four times the time")),
                (self.stop_button, _("stop"), _("stop the hint now and show the answer so far")),
                (self.open_hint_box, _("open hint (every card)"),
                 _("for a teacher: the hint computed with every hand shown (it uses cards the player cannot see)")),
                (self.hint_seconds_box, _("hint seconds"), _("how long the hint thinks (a teacher's setting)"))):
            b.description, b.tooltip = label, tip

    def set_hint_seconds(self, seconds: float) -> None:
        """A teacher's setting: how long the hint thinks.  Not on a locked board."""
        self._refuse_if_locked(_("the hint's time"), self.hint_seconds_box, self.hint_seconds)
        try:
            check_budget(seconds, None)
        except CardlabError:
            self._show(self.hint_seconds_box, self.hint_seconds)  # put the box back: nothing changed
            raise
        self.hint_seconds = float(min(seconds, MAX_SECONDS))
        self._show(self.hint_seconds_box, self.hint_seconds)

    def set_open_hint(self, value: bool) -> None:
        """For a teacher: the hint with every card seen (the open-hands
        analysis) instead of the fair one.  Not on a locked board."""
        if value:
            self._refuse_if_locked(_("the open hint (every card)"), self.open_hint_box, False)
        self._show(self.open_hint_box, bool(value))

    def hint(self, seconds: float | None = None, nodes: int | None = None) -> str:
        """Show (and return as HTML) the value of each legal action for the
        player to move, or say why there is none.

        The **fair hint** (default): :func:`cardlab.analyse` with
        ``player=`` and a budget, from only what that player can see: each
        action's value, exact where the search finished, otherwise an
        estimate with its 95 % interval; with a progress bar; only in that
        player's own view (or "reveal all").  With the open hint switched on
        (:meth:`set_open_hint`): the values with every hand shown, and it
        says so.  The budget: ``seconds`` or ``nodes`` when given, else the
        board's ``hint_nodes`` (if set) or ``hint_seconds``.  It computes
        here and now (the button, in a kernel, computes in a thread:
        :meth:`stop_hint`); an interrupt (Ctrl-C) stops it with the answer
        so far."""
        if seconds is not None or nodes is not None:
            check_budget(seconds, nodes)
        elif self.hint_nodes is not None:
            nodes = self.hint_nodes
        else:
            seconds = self.hint_seconds
        with i18n.using(self.language_code):
            return self._give_hint(seconds, nodes, None)

    def think_longer(self) -> str:
        """The hint again at this position with four times the budget of the
        last one given here (or of the board's, when none was)."""
        seconds, nodes = self._next_budget(THINK_LONGER)
        return self.hint(seconds, nodes)

    def _next_budget(self, factor: int) -> tuple[float | None, int | None]:
        """The budget of a hint asked now: the board's (``factor`` 1), or
        ``factor`` times the last one given at this position."""
        h = self._hint_budget
        if factor == 1 or h is None or h[0] != self.match.state or h[1] != self.perspective:
            seconds, nodes = (None, self.hint_nodes) if self.hint_nodes is not None else (self.hint_seconds, None)
            if factor == 1:
                return seconds, nodes
        else:
            seconds, nodes = h[2], h[3]
        return (None if seconds is None else min(MAX_SECONDS, seconds * factor),
                None if nodes is None else nodes * factor)

    def _clicked(self, factor: int) -> threading.Thread | None:
        """What *hint* (``factor`` 1) and *think longer* do: the hint, in a
        thread when a kernel's loop runs (or :attr:`hint_in_thread`)."""
        seconds, nodes = self._next_budget(factor)
        threaded = self.hint_in_thread
        if threaded is None:
            try:
                asyncio.get_running_loop()
                threaded = True
            except RuntimeError:
                threaded = False
        if not threaded:
            self.hint(seconds, nodes)
            return None
        if self.hint_running():
            return None
        self._hint_stop.clear()
        language = self.language_code

        def work() -> None:
            with i18n.using(language):
                try:
                    self._give_hint(seconds, nodes, self._hint_stop)
                except Exception as exc:  # noqa: BLE001 - shown on the board, not lost in a thread
                    self._message = str(exc).splitlines()[0]
                    self._hint_thread = None
                    self._refresh()

        self._hint_thread = threading.Thread(target=work, name="cardlab hint", daemon=True)
        self._hint_thread.start()
        return self._hint_thread

    def hint_running(self) -> bool:
        """Whether a hint is being computed in its thread now."""
        t = self._hint_thread
        return t is not None and t.is_alive()

    def stop_hint(self) -> None:
        """Stop the hint being computed in its thread: it ends at the next
        arrangement it finishes and shows the answer so far."""
        self._hint_stop.set()

    def wait_for_hint(self, timeout: float | None = None) -> None:
        """Wait until the hint computed in its thread (if any) is shown."""
        t = self._hint_thread
        if t is not None:
            t.join(timeout)

    def _draw_hint_controls(self) -> None:
        """The hint's buttons as the position and the hint given allow."""
        running = self.hint_running()
        self.hint_button.disabled = running or not self._hint_allowed()
        h = self._hint_budget
        shown = (h is not None and h[0] == self.match.state and h[1] == self.perspective and self._shown_hint()
                 is not None)
        self.think_button.layout.display = None if shown and not h[4] and self._hint_allowed() else "none"
        self.think_button.disabled = running
        self.stop_button.layout.display = None if running else "none"

    def _give_hint(self, seconds: float | None, nodes: int | None, stop: threading.Event | None) -> str:
        s, viewer = self.match.state, self.perspective
        p = s.current_player
        text: Callable[[], str] = str
        best, table, exact = frozenset[str](), False, False
        if p < 0:
            over = s.is_terminal()
            text = lambda: _("No hint: the game is over.") if over else _("No hint: chance is to act.")  # noqa: E731
        elif not self._hint_allowed():
            locked = self.locked
            text = lambda: (_("No hint: player {player} is to move, and a hint is shown only in player "  # noqa: E731
                              "{player}'s own view.") if locked else
                            _("No hint: player {player} is to move, and a hint is shown only in player "
                              "{player}'s own view (or reveal all).")).format(player=p)
        else:
            open_hint = self.open_hint_box.value and not self.locked
            try:
                a = self._analyse(s, p, open_hint, seconds, nodes, stop)
            except CardlabError as exc:
                why = str(exc)
                text = lambda: _("No hint for this game: {error}").format(error=why)  # noqa: E731
            else:
                shown_open = open_hint and not s.game.spec.perfect_information
                text, table = (lambda: hint_html(a, shown_open, s, seconds)), True
                best, exact = frozenset(r["action"] for r in a.rows if r["best"]), a.exact
        self._hint = (s, viewer, text if table else (lambda: _html.escape(text())), best)
        self._hint_budget = (s, viewer, seconds, nodes, exact) if table else None
        self._hint_thread = None if stop is not None else self._hint_thread
        self._refresh()
        return text()

    def _analyse(self, s: State, p: int, open_hint: bool, seconds: float | None, nodes: int | None,
                 stop: threading.Event | None) -> Any:
        """The analysis behind the hint, with the progress bar shown while it runs."""
        bar = self.hint_progress
        bar.value, bar.max, bar.layout.display = 0, 1000, None
        self._draw_hint_controls()

        def progress(done: int, total: int) -> None:
            bar.max, bar.value = total, done
            if stop is not None and stop.is_set() and done < total:
                raise KeyboardInterrupt  # the analysis stops with the answer so far

        try:
            if open_hint:
                return analyse(open_hands_copy(s), seconds=seconds, nodes=nodes, callback=progress)
            return analyse(s, player=p, seconds=seconds, nodes=nodes, max_arrangements=self.hint_max_arrangements,
                           callback=progress)
        finally:
            bar.layout.display = "none"

    def _hint_allowed(self) -> bool:
        """A hint is for the player to move, in their own view (or "reveal
        all"), with no privacy screen up."""
        p = self.match.state.current_player
        return p >= 0 and self.waiting_for is None and self.perspective in (None, p)

    def _shown_hint(self) -> tuple[str, frozenset[str]] | None:
        """The hint given at this position to this view (HTML, best actions)."""
        h = self._hint
        if h is None or h[0] != self.match.state or h[1] != self.perspective or self.waiting_for is not None:
            return None
        return h[2](), h[3]

    def best_actions(self) -> list[str]:
        """The actions the hint shown now marked best (empty without one)."""
        h = self._shown_hint()
        return [] if h is None else [a for a in self.match.state.legal_actions() if a in h[1]]


def hint_html(a: Any, open_hint: bool, state: State | None = None, seconds: float | None = None) -> str:
    """An :class:`cardlab.Analysis` as the hint's HTML: what it is, the one
    sentence of advice, then each action's value (exact, or an estimate ±
    its margin with its 95 % interval), its loss and the best marked, and
    what the values assume.  Each action reads as its button in ``state``
    reads (the mover's own moves, which the mover's view shows anyway), its
    notation (what ``cardlab play`` takes) in the cell's ``title`` on an
    English page."""
    def named(action: str) -> str:
        return action if state is None else render.action_label(state, action)

    def tip(action: str) -> str:
        return f' title="{_html.escape(action)}"' if i18n.get_language() == "en" else ""

    if open_hint:
        what = _("open hint (every card): value of each action for player {player}, computed with "
                 "every hand shown (open hands, the deck still random): it uses cards this player cannot "
                 "see").format(player=a.player)
    elif a.kind == "open":
        what = _("exact value of each action for player {player} (this game hides no card)").format(
            player=a.player)
    else:
        what = _tr(a.title)
    estimate = not a.exact
    lo, hi = (float(x) for x in a.payoff_range)

    def num(v: Any) -> str:
        return f"{float(v):+.3f}" if estimate else str(v)

    def margin(r: dict[str, Any]) -> str:
        x, y = r["interval"]
        return f"± {(y - x) / 2:.3f}</td><td>{x:+.2f} … {y:+.2f}"

    bold = ' style="font-weight:bold"'
    best_word = pgettext("hint", "best")
    rows = "".join(
        f"<tr{bold if r['best'] else ''}>"
        f"<td{tip(r['action'])}>{_html.escape(named(r['action']))}</td><td>{num(r['value'])}</td>"
        + (f"<td>{margin(r)}</td>" if estimate else f"<td>{float(r['value']):+.3f}</td>")
        + f"<td>{num(r['loss']) if not estimate else format(float(r['loss']), '.3f')}</td>"
        + "<td>" + ("← " + best_word if r['best'] else "") + "</td></tr>" for r in a.rows)
    searched = (_("{nodes:,} positions searched within {seconds:g} s").format(nodes=a.nodes, seconds=seconds)
                if seconds is not None else _("{nodes:,} positions searched").format(nodes=a.nodes))
    if a.stopped:
        searched += "; " + _("stopped early: the answer so far")
    head = ("<th>" + pgettext("hint", "action") + "</th><th>" + pgettext("hint", "value") + "</th>"
            + ("<th>±</th><th>" + _("{percent} interval").format(percent="95 %") + "</th>" if estimate
               else "<th>≈</th>") + "<th>" + pgettext("hint", "loss") + "</th><th></th>")
    note = "" if open_hint or a.kind == "open" or a.total_arrangements == 1 else (
        f'<div style="color:#555;font-size:90%">{_html.escape(a.assumption)}</div>')
    scale = "" if (lo, hi) != (-1.0, 1.0) else (
        '<div style="color:#555;font-size:90%">' + _html.escape(_("values run from -1 (a loss) to +1 (a win)"))
        + "</div>")
    return ("<div><b>" + _("Hint") + "</b>: "
            + _html.escape(_("{what} ({searched}).").format(what=what, searched=searched)) + "</div>"
            + '<div class="cardlab-hint-advice" style="font-weight:bold;margin:4px 0">'
            + _html.escape(a.advice(named)) + "</div>"
            + f'<table style="border-spacing:12px 2px;margin-left:-12px"><tr>{head}</tr>{rows}</table>' + scale + note)
