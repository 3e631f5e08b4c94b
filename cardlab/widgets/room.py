"""A pupil's board in a class room (issue R): the room lives in a
:class:`cardlab.rooms.RoomStore` on the teacher's machine; each pupil's page
(its own Voila kernel) shows a locked :class:`~cardlab.widgets.Board` for
their seat.  Their moves are stored, numbered; the other seats' moves
(classmates on other laptops, agents, chance) come from the store, which
the page reads every half second without blocking its widgets.  An agent's
move is computed in a thread of its own (the first page that sees the agent
to move starts it; a move another page stored first is dropped), so the
pupil's page stays live while the agent thinks.
"""

from __future__ import annotations

import asyncio
import html
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import ipywidgets as widgets

from .. import i18n, render
from ..core import State
from ..games import load
from ..errors import CardlabError
from ..i18n import N_, _, pgettext
from ..rooms import Room, RoomStore, StaleMoveError, default_path, outcome, page_url
from .board import Board
from .controls import _seat_options, levels_tip, option_value, option_widget, seat_label
from .review import RoomReview
from .rules_panel import rules_panel

__all__ = ["OneGameMixin", "RoomBoard", "Lobby", "room_page", "result_names", "shown_names"]


def shown_names(room: Room) -> list[str]:
    """Who plays each seat as a page shows it: the pupil's name, an agent's label."""
    return [name if who == "person" else seat_label(who) for name, who in zip(room.names(), room.seats)]


def result_names(state: State, names: list[str], me: int | None = None) -> str:
    """How a room's finished game ended, with the players' names: "Aiko
    wins", "you win" (``me``: the seat of the page), "a draw"; where the
    game pays points, the points after it ("Ben wins (points: you -3, Ben 3)")."""
    _results, winners = outcome(state)
    who = [_("you") if i == me else name for i, name in enumerate(names)]
    if not winners:
        text = _("a draw")
    elif winners == [me]:
        text = _("you win")
    elif len(winners) == 1:
        text = _("{name} wins").format(name=who[winners[0]])
    else:
        text = _("{names} share the win").format(names=", ".join(who[i] for i in winners))
    r = state.returns()
    if state.game.options.get("payoff") == "score" or any(x not in (-1, 0, 1) for x in r):
        text = _("{result} (points: {points})").format(result=text, points=", ".join(
            f"{w} {x}" for w, x in zip(who, r)))
    return text


class OneGameMixin:
    """A pupil's locked board that plays one game (a room's, or a locked
    link's): no control re-deals or steps an agent.  *new game*, *step ▶*,
    *run ▶▶* and *agents move by themselves* are not shown, and their
    methods refuse (a click forged from the browser's console changes
    nothing); a refusal names only what the pupil may do."""

    def _one_game(self) -> None:
        for w in (self.step_button, self.run_button, self.auto_box, self.new_button):
            w.layout.display = "none"

    def _refuse_one_game(self, what: str) -> None:
        raise CardlabError(_("this board is locked to player {player}: {what} is not allowed; allowed are your "
                             "own moves and the fair hint").format(player=self.seat, what=what))

    def _refuse_if_locked(self, what: str, widget: widgets.Widget | None = None, value: Any = None) -> None:
        if self.locked:
            if widget is not None:
                self._show(widget, value)
            self._refuse_one_game(what)

    def new_game(self) -> None:
        self._refuse_one_game(_("a new deal"))

    def step(self) -> None:
        self._refuse_one_game(_("moving an agent (the agents move by themselves)"))

    def run(self) -> None:
        self._refuse_one_game(_("moving an agent (the agents move by themselves)"))

    def set_autoplay(self, value: bool) -> None:
        self._refuse_one_game(_("moving an agent (the agents move by themselves)"))


class RoomBoard(OneGameMixin, Board):
    """Seat ``seat`` of room ``room_id`` in ``store``: a locked board (the
    seat's own view, its moves, the fair hint); :meth:`sync` brings the
    moves stored by other pages; :meth:`play` stores the pupil's move (or
    says that the room moved on, and shows where it is)."""

    def __init__(self, store: RoomStore, room_id: str, seat: int, *, poll: float | None = 0.5,
                 **board_kw: Any) -> None:
        self._poller: asyncio.Task | None = None
        room = store.room(room_id)
        game = room.load()
        n = game.spec.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise CardlabError(_("room {room} has seats 0..{last}, not {seat}")
                               .format(room=room_id, last=n - 1, seat=repr(seat)))
        if room.seats[seat] != "person":
            raise CardlabError(_("seat {seat} of room {room} is played by an agent ({agent})")
                               .format(seat=seat, room=room_id, agent=seat_label(room.seats[seat])))
        self.store, self.room_id, self.room = store, room_id, room
        # the other seats move elsewhere: a placeholder agent keeps the board's
        # lock rule (one person here); it never moves, the store does
        players = ["random" if i != seat else "person" for i in range(n)]
        self._syncing_room = threading.Lock()
        #: a line about the room (its msgid and values, translated when shown), or ""
        self._room_message: tuple[str, dict[str, Any]] | str = ""
        self._thinker: threading.Thread | None = None  # an agent's move, computed off the page's loop
        self._thinker_lock = threading.Lock()
        super().__init__(game, players, seat=seat, locked=True, seed=room.seed, autoplay=False, **board_kw)
        self._one_game()  # the room's game is the store's: no local steps or new deals
        self.sync()
        if poll:
            try:
                loop = asyncio.get_running_loop()  # a kernel's loop (Voila, JupyterLab)
            except RuntimeError:
                loop = None  # plain Python: call sync() yourself
            if loop is not None:
                self._poller = loop.create_task(self._poll(poll))

    # -- the room ---------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return list(self.room.seats)

    def _settle(self) -> None:
        """Chance and the other seats happen in the store, not on this page."""

    def sync(self) -> bool:
        """Bring this page up to the room's stored moves (the chance events
        due now are drawn in the store first); True when something changed.
        When an agent is to move, its move is computed in a thread of its
        own (:meth:`think`): the page never waits for it."""
        with self._syncing_room:
            changed = self._catch_up()
        self.think()
        return changed

    def _catch_up(self) -> bool:
        """Play on this page the moves stored since it last looked (call
        with ``_syncing_room`` held)."""
        self.store.draw_chance(self.room_id)
        stored = [a for _, a in self.store.moves(self.room_id)]
        mine = [m.action for m in self.match.history]
        if stored[:len(mine)] != mine:  # the room's file was replaced: start from its moves
            self._new_match(self._start)
            mine = []
        new = stored[len(mine):]
        if not new:
            return False
        self._mark = len(self.match.history)
        for action in new:
            self.match.play(action)
        self._refresh()
        return True

    def think(self) -> threading.Thread | None:
        """When an agent is to move in the room, compute and store its move
        (and the agents' and chance's after it) in a thread, then bring the
        page up to date; the page's handlers and its poll go on meanwhile.
        The thread (``None``: no agent to move, or one thinks already)."""
        if self.store.agent_to_move(self.state, self.room_id) is None:
            return None
        with self._thinker_lock:  # the click's handler and the poll may both ask
            if self._thinker is not None and self._thinker.is_alive():
                return None
            self._thinker = threading.Thread(target=self._agents_move, name=f"agent {self.room_id}", daemon=True)
            self._thinker.start()
            return self._thinker

    def _agents_move(self) -> None:
        try:
            self.store.advance(self.room_id)  # a move another page stored first is dropped there
        except Exception as exc:  # noqa: BLE001 - shown on the page; the poll tries again
            self._room_message = (N_("the agent's move could not be stored ({reason}); retrying"), {"reason": exc})
        try:
            with self._syncing_room:
                if not self._catch_up():
                    self._refresh()  # the message, or nothing new
        finally:
            self.store.close_thread()  # the thread ends: its connection to the store too

    def wait_for_agents(self, timeout: float | None = None) -> None:
        """Wait until the agent thinking for this page (if any) has stored its move."""
        thinker = self._thinker
        if thinker is not None:
            thinker.join(timeout)

    async def _poll(self, every: float) -> None:
        while not self.state.is_terminal():
            await asyncio.sleep(every)
            try:
                await asyncio.get_running_loop().run_in_executor(None, self._fetch)
            except Exception as exc:  # noqa: BLE001 - shown on the page, the poll goes on
                self._room_message = (N_("the room cannot be read now ({reason}); retrying"), {"reason": exc})
                self._refresh()

    def _fetch(self) -> None:
        if self.store.seq(self.room_id) != len(self.match.history) or self._room_message:
            self._room_message = ""
            self.sync()
        else:
            self.think()  # an agent due whose move no page computes (the server restarted)

    def new_game(self) -> None:
        raise CardlabError(_("a room plays one game: the teacher makes a new room for the next one"))

    def play(self, action: str) -> None:
        """Store the pupil's move as the room's next; if a page moved first
        (a stale page), show the room as it is now and say so."""
        why = self._no_moves_why()
        if why is not None:
            raise CardlabError(_("no move can be played here now: {reason}").format(reason=why))
        self.state.apply(action)  # a bad action is refused here, nothing stored
        try:
            self.store.play(self.room_id, len(self.match.history), action)
            self._room_message = ""
        except StaleMoveError:
            self._room_message = (N_("the room had moved on: this is the game as it is now"), {})
        self.sync()
        self._refresh()

    def _status_text(self) -> str:
        s = self.state
        p = s.current_player
        text = super()._status_text()
        if s.is_terminal():
            text = _("Game over: {result}.").format(result=result_names(s, shown_names(self.room), me=self.seat))
        elif p >= 0 and p != self.seat:
            who = self.room.seats[p]
            if who == "person":
                text = _("{name} (player {player}) to move: their move appears here by itself.").format(
                    name=self.room.names()[p], player=p)
            else:
                text = _("Player {player} ({agent}) to move: their move appears here by itself.").format(
                    player=p, agent=seat_label(who))
        if self._room_message:
            msgid, values = self._room_message
            text = _("{status} ({message})").format(status=text, message=_(msgid).format(**values))
        return text

    def close(self) -> None:
        if getattr(self, "_poller", None) is not None:
            self._poller.cancel()
        super().close()

    def __repr__(self) -> str:
        return f"RoomBoard(room={self.room_id!r}, seat={self.seat}, moves={len(self.match.history)})"

    @property
    def room_state(self) -> State:
        """The room's position in the store (this page may be behind it)."""
        return self.store.state(self.room_id)


def _error(text: str) -> widgets.HTML:
    return widgets.HTML('<span style="color:#b00">'
                        + html.escape(_("This link does not open a room: {reason}").format(reason=text))
                        + "</span>")


def room_page(query: str, store: RoomStore | None = None, *, language: str | None = None) -> widgets.Widget:
    """What a room link opens (``?room=R1&seat=0&key=…``: the pupil's
    board; ``?teacher=KEY``: the teacher's :class:`Lobby`), or a message
    saying what is wrong.  ``store``: the class's store (default
    :func:`cardlab.rooms.default_path`); ``language``: the page's (``None``:
    the current one)."""
    with i18n.using(language) as language:
        return _room_page(query, store, language)


def _room_page(query: str, store: RoomStore | None, language: str) -> widgets.Widget:
    given = dict(parse_qsl(query, keep_blank_values=True))
    store = store or RoomStore(default_path())
    if "teacher" in given:
        if not store.check_key(None, "teacher", given["teacher"]):
            return _error(_("the teacher key is not this class's (cardlab rooms prints the teacher's link)"))
        return Lobby(store, language=language)
    room_id, seat, key = given.get("room", ""), given.get("seat", ""), given.get("key", "")
    if not seat.isdigit() or not store.check_key(room_id, int(seat), key):
        return _error(_("the room, the seat and the key do not belong together; ask your teacher for your link"))
    try:
        b = RoomBoard(store, room_id, int(seat), language=language)
    except CardlabError as exc:
        return _error(str(exc))
    room = b.room

    game = _(room.load().title) if room.load().title else room.game
    names = shown_names(room)
    others = ", ".join(n for i, n in enumerate(names) if i != int(seat))
    title = widgets.HTML("<b>" + html.escape(_("you ({name}) against {others}").format(
                             name=names[int(seat)], others=others)) + "</b> · "
                         + html.escape(_("room {room} · {game} · you are player {player}").format(
                             room=room.id, game=game, player=int(seat))))
    return widgets.VBox([title, b, rules_panel(room.load())])


class Lobby(widgets.VBox):
    """The teacher's page: make a round of rooms for a list of names, see
    every room live (whose turn, moves, result) with each seat's full link
    (``base``: the class app's address, see :func:`cardlab.rooms.page_url`),
    watch any game with every card shown, and export all games.
    ``language``: the page's (``None``: the current one when it draws)."""

    def __init__(self, store: RoomStore, *, poll: float | None = 2.0, language: str | None = None,
                 base: str | None = None) -> None:
        self.language = None if language is None else i18n.check_language(language)
        #: the class app's address in the links shown (default: :func:`cardlab.rooms.page_url`, this page's
        #: own address as another machine opens it: never 127.0.0.1 or 0.0.0.0; ``$PLAY_URL`` when given)
        self.base = page_url() if base is None else base
        with i18n.using(self.language):
            self._build(store, poll)

    def _build(self, store: RoomStore, poll: float | None) -> None:
        from ..agents import NAMES
        from ..games import names as games

        super().__init__()
        self.store = store
        self.game_picker = widgets.Dropdown(options=[(_(load(n).title) if load(n).title else n, n) for n in games()],
                                            description=_("game"), layout=widgets.Layout(width="360px"))
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.option_widgets: dict[str, widgets.Widget] = {}
        self.names = widgets.Textarea(placeholder=_("one pupil a line"), description=_("pupils"),
                                      layout=widgets.Layout(width="360px", height="120px"))
        self.odd = widgets.Dropdown(options=_seat_options(NAMES),
                                    value="heuristic", description=_("odd one plays"), tooltip=levels_tip(),
                                    style={"description_width": "initial"})
        self.make_button = widgets.Button(description=_("make rooms"), button_style="primary",
                                          tooltip=_("neighbours in the list play each other"))
        self.rooms_html = widgets.HTML()
        self.watch = widgets.Dropdown(options=[], description=_("watch"), layout=widgets.Layout(width="360px"))
        self.watch_html = widgets.HTML()
        self.export_button = widgets.Button(description=_("export all games"),
                                            tooltip=_("games.json (move lists cardlab replays) and results.csv"))
        self.message = widgets.HTML()
        #: the review of a finished room's game (cardlab.widgets.review)
        self.room_review = RoomReview(store, lambda: self.language)
        self.make_button.on_click(lambda _b: self.make_rooms())
        self.export_button.on_click(lambda _b: self.export())
        self.watch.observe(lambda _c: self.refresh(), names="value")
        self.game_picker.observe(lambda _c: self._choose_game(), names="value")
        self._choose_game()
        self.children = [widgets.HTML("<b>" + _("Class rooms") + "</b> "
                                      + _("(the teacher's page: keep this link to yourself; it shows every card)")),
                         widgets.HBox([self.game_picker, self.odd]), self.options_box, self.names,
                         widgets.HBox([self.make_button, self.export_button]), self.message,
                         self.rooms_html, self.watch, self.watch_html, self.room_review]
        self.refresh()
        self._poller = None
        if poll:
            try:
                self._poller = asyncio.get_running_loop().create_task(self._poll(poll))
            except RuntimeError:
                pass

    def _choose_game(self) -> None:
        """The chosen game's options, each at its default (the controls of
        the class app's set-up; card files and ready hands are for notebooks)."""
        with i18n.using(self.language):
            game = load(self.game_picker.value)
            self.option_widgets = {}
            for name, option in game.OPTIONS.items():
                w = option_widget(name, option, option.default)
                if w is not None:
                    self.option_widgets[name] = w
            self.options_box.children = list(self.option_widgets.values())

    def options(self) -> dict[str, Any]:
        """The chosen options that differ from the game's defaults (the new rooms' options)."""
        defaults = load(self.game_picker.value).OPTIONS
        chosen = {k: option_value(w) for k, w in self.option_widgets.items()}
        return {k: v for k, v in chosen.items() if v != defaults[k].default}

    def make_rooms(self) -> None:
        with i18n.using(self.language):
            self._make_rooms()

    def _make_rooms(self) -> None:
        names = [n.strip() for n in self.names.value.splitlines() if n.strip()]
        if not names:
            self.message.value = ('<span style="color:#b00">' + html.escape(_("write the pupils' names, one a line"), quote=False)
                                  + "</span>")
            return
        try:
            rooms = self.store.pairings(self.game_picker.value, names, options=self.options(), odd=self.odd.value,
                                        seed=len(self.store.ids()))
        except CardlabError as exc:  # options the game refuses: no room is made
            self.message.value = ('<span style="color:#b00">'
                                  + html.escape(_("no rooms made: {reason}").format(reason=exc)) + "</span>")
            return
        self.message.value = _("{n} rooms made: give each pupil their link below.").format(n=len(rooms))
        self.names.value = ""
        self.refresh()

    def export(self) -> None:
        with i18n.using(self.language):
            folder = Path(self.store.path).parent / "class-export"
            games_json, results = self.store.export(folder)
            self.message.value = html.escape(_("exported: {games} and {results}").format(
                games=str(games_json), results=str(results)))

    def refresh(self) -> None:
        with i18n.using(self.language):
            self._refresh()

    def _refresh(self) -> None:
        rows = []
        for r in self.store.summary():
            room = self.store.room(r["room"])
            links = "<br>".join(html.escape(_("seat {seat}").format(seat=link.split("seat=")[1].split("&")[0]))
                                + f': <a href="{html.escape(link)}" target="_blank"><code>{html.escape(link)}</code></a>'
                                for link in self.store.links(r["room"], base=self.base))
            state = (_("over: {result}").format(result=result_names(self.store.state(r["room"]), shown_names(room)))
                     if r["over"]
                     else _("{name} (player {player}) to move").format(name=shown_names(room)[r["to_move"]],
                                                                      player=r["to_move"]))
            game = r["game"] + "".join(f", {k}={v}" for k, v in sorted(r["options"].items()))
            rows.append(f"<tr><td>{html.escape(r['room'])}</td><td>{html.escape(room.name)}</td>"
                        f"<td>{html.escape(game)}</td><td>{r['moves']}</td><td>{html.escape(state)}</td>"
                        f"<td>{links}</td></tr>")
        heads = (_("room"), _("pupils"), pgettext("table head", "game"), _("moves"), _("now"), _("links"))
        self.rooms_html.value = ("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>"
                                 + "".join(rows) + "</table>") if rows else "<i>" + _("no rooms yet") + "</i>"
        ids = self.store.ids()
        if list(self.watch.options) != ids:
            self.watch.options = ids
        if self.watch.value:
            s = self.store.state(self.watch.value)
            self.watch_html.value = render.html(s)  # the teacher sees every card
        self.room_review.refresh()

    async def _poll(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self.refresh()
