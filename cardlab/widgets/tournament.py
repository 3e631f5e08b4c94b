"""The tournament section of the teacher's page (issue W, item 5), on
:class:`cardlab.widgets.room.Lobby`: a round robin or a Swiss of the
pupils typed above (their game and its options: the page's), the agent
at a chosen level in the odd seat or a bye, the standings with their
tie-breaks said in words, each round's games by name with their results,
and *next round*, which makes the next round's rooms at one click (when
games still go on it asks first, then ends them and counts them as
draws).  The rules: :mod:`cardlab.tournament`; the store:
:mod:`cardlab.tournament_store`.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from . import polling
from .. import i18n
from ..agents import LEVELS
from ..errors import CardlabError
from ..games import load
from ..i18n import _
from ..rooms import RoomStore
from ..tournament import SYSTEMS, Pairing, Standing, show_points, standings
from ..tournament_store import MAX_ROUNDS, RoundNotOverError, Tournament, Tournaments
from .controls import levels_tip, seat_label

__all__ = ["TournamentPanel", "TournamentSeat", "standings_html", "rounds_html"]


def _who(name: str | None, t: Tournament) -> str:
    """An entrant as the page shows them: the pupil's name, the agent's level label."""
    return seat_label(name) if name is not None and name == t.agent else (name or "")


def _tiebreak_words(t: Tournament) -> str:
    if t.system == "swiss":
        second = _("Buchholz (the points of every opponent played, added up)")
    else:
        second = _("Sonneborn-Berger (the points of every opponent beaten, and half those of every opponent "
                   "drawn with)")
    return _("Points: a win 1, a draw ½, a bye {bye}. Ties: {second}, then head-to-head (the points from the "
             "games between those still level), then name.").format(
        second=second, bye="1" if t.system == "swiss" else "0")


_TABLE_CSS = ("<style>.cardlab-standings{border-collapse:collapse}.cardlab-standings th{border-bottom:1px solid #999}"
              ".cardlab-standings td,.cardlab-standings th{padding:2px 10px;text-align:center}"
              ".cardlab-standings td:nth-child(2){text-align:left}</style>")


def standings_html(t: Tournament, rows: Sequence[Standing]) -> str:
    """The standings as a table, with the tie-breaks said in words under it."""
    e = html.escape
    second = _("Buchholz") if t.system == "swiss" else _("Sonneborn-Berger")
    heads = (_("place"), _("pupil"), _("points"), second, _("head-to-head"), _("games"), _("won"), _("drawn"),
             _("lost"), _("byes"))
    body = "".join(
        f"<tr><td>{r.rank}</td><td>{e(_who(r.name, t))}</td><td><b>{show_points(r.points)}</b></td>"
        f"<td>{show_points(r.tiebreak)}</td><td>{show_points(r.head_to_head)}</td><td>{r.played}</td>"
        f"<td>{r.won}</td><td>{r.drawn}</td><td>{r.lost}</td><td>{r.byes}</td></tr>" for r in rows)
    return (_TABLE_CSS + '<table class="cardlab-standings"><tr>' + "".join(f"<th>{e(h)}</th>" for h in heads) + "</tr>"
            + body + "</table>" + f"<div style='font-size:12px'>{e(_tiebreak_words(t))}</div>")



def rounds_html(t: Tournament, rounds: Sequence[Sequence[Pairing]], rooms: Sequence[Sequence[str | None]]) -> str:
    """Each round's games by name (the first seat first), their rooms and results; the last round first."""
    e = html.escape
    parts = []
    for number in range(len(rounds), 0, -1):
        games = []
        for p, rid in zip(rounds[number - 1], rooms[number - 1]):
            if p.bye:
                games.append(e(_("{name}: a bye").format(name=_who(p.first, t))))
            elif p.score is None:
                games.append(e(_("{room}: {first} v {second}, being played").format(
                    room=rid or "", first=_who(p.first, t), second=_who(p.second, t))))
            else:
                games.append(e(_("{room}: {first} {result} {second}").format(
                    room=rid or "", first=_who(p.first, t), second=_who(p.second, t),
                    result=f"{show_points(p.score)}–{show_points(1 - p.score)}")))
        title = _("round {number}").format(number=number)
        if number > t.closed:
            title = _("{round} (being played)").format(round=title)
        parts.append(f"<div><b>{e(title)}</b>: " + " · ".join(games) + "</div>")
    return "".join(parts)


class TournamentPanel(widgets.VBox):
    """The teacher's tournament section.  ``names()``: the pupils typed
    (lines); ``game()``/``options()``: the game and options chosen on the
    page; ``language()``: the page's; ``on_change()``: called when rooms
    were made (the page shows them); ``base``: the class app's address
    (each pupil's link for the whole tournament is shown, :class:`TournamentSeat`).  :meth:`make` makes a tournament and
    its first round's rooms; :meth:`next_round` the next round's (asking
    first when games go on: :attr:`confirm_button` ends them and counts
    them as draws)."""

    def __init__(self, store: RoomStore, *, names: Callable[[], Sequence[str]], game: Callable[[], str],
                 options: Callable[[], dict[str, Any]] = dict, language: Callable[[], str | None] = lambda: None,
                 on_change: Callable[[], None] | None = None, base: str = "") -> None:
        super().__init__()
        #: the class app's address in the pupils' tournament links
        self.base = base
        self.add_class("cardlab-tournament")
        self.store, self.cups = store, Tournaments(store)
        self._names, self._game, self._options, self._language = names, game, options, language
        self._on_change = on_change or (lambda: None)
        with i18n.using(language()):
            self._build()
        self.refresh()

    def _build(self) -> None:
        self.system = widgets.Dropdown(options=[(_(label), key) for key, label in SYSTEMS.items()], value="swiss",
                                       description=_("system"))
        counts = [(str(k), k) for k in range(1, MAX_ROUNDS + 1)]
        self.rounds = widgets.Dropdown(options=[(_("the usual"), 0)] + counts, value=0,
                                       description=_("rounds"),
                                       tooltip=_("the usual: everyone against everyone in a round robin; in a Swiss, "
                                                 "enough rounds to leave one pupil unbeaten"))
        self.odd = widgets.Dropdown(options=[(_("a bye"), "")] + [(seat_label(n), n) for n in LEVELS], value="",
                                    description=_("odd seat"), tooltip=levels_tip(),
                                    style={"description_width": "initial"})
        self.name = widgets.Text(placeholder=_("its name (default: tournament 1, 2 ...)"),
                                 layout=widgets.Layout(width="320px"))
        self.make_button = widgets.Button(description=_("make the tournament"), button_style="primary",
                                          layout=widgets.Layout(width="auto"),
                                          tooltip=_("for the pupils typed above, in the game chosen above: the first "
                                                    "round's rooms at once"))
        self.picker = widgets.Dropdown(options=[], description=_("tournament"), layout=widgets.Layout(width="360px"))
        self.next_button = widgets.Button(description=_("next round"), button_style="info",
                                          tooltip=_("record this round's results and make the next round's rooms"))
        self.confirm_button = widgets.Button(description=_("yes, count them as draws"), button_style="warning",
                                             layout=widgets.Layout(display="none", width="auto"))
        self.cancel_button = widgets.Button(description=_("cancel"), layout=widgets.Layout(display="none"))
        self.status, self.message = widgets.HTML(), widgets.HTML()
        self.standings_html, self.rounds_html, self.links_html = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.make_button.on_click(lambda _b: self.make())
        self.next_button.on_click(lambda _b: self.next_round())
        self.confirm_button.on_click(lambda _b: self.next_round(force=True))
        self.cancel_button.on_click(lambda _b: self._ask(False))
        self.picker.observe(lambda _c: self.refresh(), names="value")
        self.children = [widgets.HTML("<b>" + html.escape(_("Tournament")) + "</b> " + html.escape(
                             _("(the pupils typed above play each round in rooms of this lesson)"))),
                         widgets.HBox([self.system, self.rounds, self.odd]),
                         widgets.HBox([self.name, self.make_button]), self.message,
                         widgets.HBox([self.picker, self.next_button, self.confirm_button, self.cancel_button]),
                         self.status, self.standings_html, self.rounds_html, self.links_html]

    def _say(self, text: str, error: bool = False) -> None:
        text = html.escape(text, quote=False)
        self.message.value = f'<span style="color:#b00">{text}</span>' if error else text

    def _ask(self, show: bool) -> None:
        self.confirm_button.layout.display = self.cancel_button.layout.display = None if show else "none"
        if not show:
            self.message.value = ""

    def make(self) -> Tournament | None:
        """A tournament of the pupils typed, and its first round's rooms."""
        with i18n.using(self._language()):
            names = list(self._names())
            try:
                t = self.cups.create(names, game=self._game(), options=self._options(), system=self.system.value,
                                     rounds=self.rounds.value or None, agent=self.odd.value or None,
                                     name=self.name.value, seed=len(self.store.ids("all")))
            except CardlabError as exc:
                self._say(_("no tournament made: {reason}").format(reason=exc), error=True)
                return None
            self.store.set_roster(names)  # the class list, for the next lesson too
            self.name.value = ""
            self._say(_("{tournament} made: round 1 of {rounds} is in the rooms below.").format(
                tournament=t.label(), rounds=t.rounds))
            self._refresh(select=t.id)
        self._on_change()
        return t

    def next_round(self, force: bool = False) -> None:
        """The chosen tournament's next round (asks first when games go on)."""
        with i18n.using(self._language()):
            self._ask(False)
            if self.picker.value is None:
                self._say(_("make a tournament first"), error=True)
                return
            t = self.cups.get(self.picker.value)
            try:
                rooms = self.cups.next_round(t.id, force=force)
            except RoundNotOverError as exc:
                self._say(_("round {number}: {n} games go on ({rooms}): end them and count them as draws?").format(
                    number=t.made, n=len(exc.rooms), rooms=", ".join(exc.rooms)))
                self._ask(True)
                return
            except CardlabError as exc:
                self._say(str(exc), error=True)
                return
            if rooms:
                self._say(_("round {number} of {rounds}: {n} rooms made.").format(
                    number=t.made + 1, rounds=t.rounds, n=len(rooms)))
            else:
                self._say(_("{tournament} is over: the final standings.").format(tournament=t.label()))
            self._refresh()
        self._on_change()

    def refresh(self) -> None:
        with i18n.using(self._language()):
            self._refresh()

    def _refresh(self, select: int | None = None) -> None:
        cups = self.cups.all()
        options = [(t.label(), t.id) for t in reversed(cups)]
        if list(self.picker.options) != options:
            keep = self.picker.value if select is None else select
            self.picker.options = options
            ids = [v for _k, v in options]
            self.picker.value = keep if keep in ids else (ids[0] if ids else None)
        elif select is not None:
            self.picker.value = select
        if self.picker.value is None:
            self.status.value = "<i>" + html.escape(_("no tournament yet")) + "</i>"
            self.standings_html.value = self.rounds_html.value = self.links_html.value = ""
            return
        t = self.cups.get(self.picker.value)
        self._show(t)

    def _show(self, t: Tournament) -> None:
        game = _title(t.game) + "".join(f", {k}={v}" for k, v in sorted(t.options.items()))
        if t.finished:
            now = _("final standings after {rounds} rounds").format(rounds=t.rounds)
        else:
            now = _("round {number} of {rounds}").format(number=t.made, rounds=t.rounds)
        self.status.value = html.escape(_("{tournament}: {system}, {game}; {now}").format(
            tournament=t.label(), system=_(SYSTEMS[t.system]), game=game, now=now))
        self.next_button.disabled = t.finished
        rounds = self.cups.rounds(t.id)
        self.standings_html.value = standings_html(t, standings(list(t.entrants), rounds, t.system, agent=t.agent))
        self.rounds_html.value = rounds_html(t, rounds, [self.cups.rooms(t.id, n) for n in range(1, t.made + 1)])
        self.links_html.value = self._links(t)

    def _links(self, t: Tournament) -> str:
        """Each pupil's link and code for the whole tournament, folded."""
        rows = []
        for name, link in self.cups.links(t.id, self.base):
            who = _("{name} (code {code})").format(name=name, code=self.cups.code(t.id, name))
            rows.append(f'<div>{html.escape(who)}: <a href="{html.escape(link)}" target="_blank"><code>'
                        f"{html.escape(link)}</code></a></div>")
        return ("<details><summary>" + html.escape(_("each pupil's link and code for the whole tournament (they "
                                                     "open their game of each round)"))
                + "</summary>" + "".join(rows) + "</details>")


def _title(game: str) -> str:
    """A game's title in the current language (its name when it has none)."""
    title = load(game).title
    return _(title) if title else game


class TournamentSeat(widgets.VBox):
    """A pupil's page for a whole tournament (their link
    ``?room=T1&pupil=Aiko&key=…``, :meth:`cardlab.tournament_store.Tournaments.links`):
    their game of the latest round (``open_seat(room, seat)``: the seat's
    page, as its room link opens it) or a line saying they have a bye, and
    the standings under it.  When the teacher makes the next round, the
    page shows the pupil's new game by itself (it looks every ``poll``
    seconds: :meth:`sync`)."""

    def __init__(self, store: RoomStore, tid: int, name: str, open_seat: Callable[[str, int], widgets.Widget], *,
                 poll: float | None = 2.0, language: str | None = None) -> None:
        super().__init__()
        self.cups, self.tid, self.name, self._open, self.language = Tournaments(store), tid, name, open_seat, language
        self.where: tuple | None = None  # (round, room, seat) shown
        self._closed = -1
        self.head, self.table, self.game = widgets.HTML(), widgets.HTML(), widgets.HTML()
        self.sync()
        self._poller = polling.start(poll, self.sync)

    def sync(self) -> bool:
        """Show the pupil's game of the latest round and the standings, if
        either changed since the last look; True then."""
        with i18n.using(self.language):
            where, t = self.cups.seat_of(self.tid, self.name), self.cups.get(self.tid)
            if where == self.where and t.closed == self._closed:
                return False
            number, room, seat = where
            self.head.value = ("<b>" + html.escape(t.label()) + "</b> · " + html.escape(
                _("round {number} of {rounds}").format(number=number, rounds=t.rounds)))
            if where != self.where:
                _close_boards(self.game)
                if room is None or seat is None:
                    self.game = widgets.HTML(html.escape(_("Round {number}: you ({name}) have a bye, no game this "
                                                           "round; your next game appears here by itself.")
                                                         .format(number=number, name=self.name)))
                else:
                    self.game = self._open(room, seat)
            self.where, self._closed = where, t.closed
            self.table.value = standings_html(t, self.cups.standings(self.tid))
            self.children = [self.head, self.game, self.table]
        return True

    def close(self) -> None:
        polling.stop(self._poller)
        _close_boards(self.game)
        super().close()


def _close_boards(page: widgets.Widget) -> None:
    """Stop the polls of the boards in ``page`` (a seat's page that is replaced)."""
    for child in getattr(page, "children", ()):
        if getattr(child, "_poller", None) is not None:
            child.close()
