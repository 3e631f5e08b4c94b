"""The hint of a :class:`~cardlab.widgets.Board`: the value of each of the
mover's actions, fair (only what the mover can see: :func:`cardlab.analyse`
with ``player=``) unless a teacher asks for the open one, shown only to
that view at that position."""

from __future__ import annotations

import html as _html
from typing import Any, Callable

from .. import i18n, render
from ..core import State
from ..errors import CardlabError, TooLargeError
from ..hidden import open_hands_copy
from ..i18n import _, pgettext
from ..solve import analyse
from .controls import _tr


class HintMixin:
    """The hint button's side of a :class:`~cardlab.widgets.Board` (it keeps
    ``_hint``: the position, the view, the HTML in the language asked and the
    best actions)."""

    def set_open_hint(self, value: bool) -> None:
        """For a teacher: the hint with every card seen (the open-hands
        analysis) instead of the fair one.  Not on a locked board."""
        if value:
            self._refuse_if_locked(_("the open hint (every card)"), self.open_hint_box, False)
        self._show(self.open_hint_box, bool(value))

    def hint(self) -> str:
        """Show (and return as HTML) the value of each legal action for the
        player to move, or say why there is none.

        The **fair hint** (default): :func:`cardlab.analyse` with
        ``player=``, from only what that player can see (exact over every
        arrangement of the hidden cards, or sampled with a 95 % interval),
        with a progress bar; only in that player's own view (or "reveal
        all").  With the open hint switched on (:meth:`set_open_hint`): the
        exact values with every hand shown, and it says so.  The caps:
        ``hint_nodes_box`` (positions), ``hint_samples_box`` and
        ``hint_max_arrangements``."""
        with i18n.using(self.language_code):
            return self._give_hint()

    def _give_hint(self) -> str:
        s, viewer = self.match.state, self.perspective
        p = s.current_player
        max_nodes = self.hint_nodes_box.value
        text: Callable[[], str] = str
        best, table = frozenset[str](), False
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
            bar = self.hint_progress
            bar.value, bar.max, bar.layout.display = 0, 1, None

            def progress(done: int, total: int) -> None:
                bar.max, bar.value = total, done

            open_hint = self.open_hint_box.value and not self.locked
            try:
                if open_hint:
                    a = analyse(open_hands_copy(s), max_nodes=max_nodes, progress=False, callback=progress)
                else:
                    a = analyse(s, player=p, max_nodes=max_nodes, max_arrangements=self.hint_max_arrangements,
                                samples=self.hint_samples_box.value, progress=False, callback=progress)
            except TooLargeError:
                text = lambda: (_("No hint here: the position is too large to solve (more than {nodes:,} "  # noqa: E731
                                  "positions). Hints work in small endgames; raise 'hint positions ≤' to search "
                                  "longer.") if open_hint else
                                _("No hint here: the position is too large to solve (more than {nodes:,} "
                                  "positions over the arrangements of the hidden cards). Hints work in small "
                                  "endgames; raise 'hint positions ≤' to search longer.")).format(nodes=max_nodes)
            except CardlabError as exc:
                why = str(exc)
                text = lambda: _("No hint for this game: {error}").format(error=why)  # noqa: E731
            else:
                shown_open = open_hint and not s.game.spec.perfect_information
                text, table = (lambda: hint_html(a, shown_open, s)), True
                best = frozenset(r["action"] for r in a.rows if r["best"])
            finally:
                bar.layout.display = "none"
        self._hint = (s, viewer, text if table else (lambda: _html.escape(text())), best)
        self._refresh()
        return text()

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


def hint_html(a: Any, open_hint: bool, state: State | None = None) -> str:
    """An :class:`cardlab.Analysis` as the hint's HTML: what it is, then
    each action's value, its loss (and the 95 % interval when sampled).
    Each action reads as its notation; in another language than English,
    as its button in ``state`` reads (the mover's own moves, which the
    mover's view shows anyway)."""
    def named(action: str) -> str:
        if state is None or i18n.get_language() == "en":
            return action
        return render.action_label(state, action)

    if open_hint:
        what = _("open hint (every card): exact value of each action for player {player}, computed with "
                 "every hand shown (open hands, the deck still random): it uses cards this player cannot "
                 "see").format(player=a.player)
    elif a.kind == "open":
        what = _("exact value of each action for player {player} (this game hides no card)").format(
            player=a.player)
    else:
        what = _tr(a.title)
    sampled = a.kind == "sampled"

    def num(v: Any) -> str:
        return f"{float(v):.3f}" if sampled else str(v)

    bold = ' style="font-weight:bold"'
    best_word = pgettext("hint", "best")
    rows = "".join(
        f"<tr{bold if r['best'] else ''}>"
        f"<td>{_html.escape(named(r['action']))}</td><td>{num(r['value'])}</td>"
        f"<td>{float(r['value']):+.3f}</td><td>{num(r['loss'])}</td>"
        + (f"<td>{r['interval'][0]:+.2f} … {r['interval'][1]:+.2f}</td>" if sampled else "")
        + "<td>" + (best_word if r['best'] else "") + "</td></tr>" for r in a.rows)
    return ("<div><b>" + _("Hint") + "</b>: "
            + _html.escape(_("{what} ({nodes:,} positions searched).").format(what=what, nodes=a.nodes))
            + "</div><table><tr><th>" + pgettext("hint", "action") + "</th><th>" + pgettext("hint", "value")
            + "</th><th>≈</th><th>" + pgettext("hint", "loss") + "</th>"
            + ("<th>" + _("{percent} interval").format(percent="95 %") + "</th>" if sampled else "")
            + f"<th></th></tr>{rows}</table>")
