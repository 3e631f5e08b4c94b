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
import base64
import html
import re
import threading
import time
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qsl

import ipywidgets as widgets

from .. import i18n, presence, render
from ..core import State
from ..games import load
from ..errors import CardlabError
from ..i18n import N_, _, pgettext
from ..store_db import StoreError
from ..rooms import (DuplicateRoomsError, RoomEndedError, RoomError, RoomStore, StaleMoveError, default_path,
                     page_url)
from .board import Board
from .controls import _seat_options, levels_tip, option_value, option_widget, seat_label
from .names import result_names, shown_names
from .review import RoomReview
from .rules_panel import rules_panel
from ..tournament_store import Tournaments
from .tournament import TournamentPanel, TournamentSeat
from .lesson_puzzle import LessonPuzzlePage, LessonPuzzlePanel
from ..puzzle_store import pupil_of
from . import polling
from .wall import Wall
from .projector import class_page

__all__ = ["OneGameMixin", "RoomBoard", "Lobby", "JoinBox", "room_page", "result_names", "shown_names"]


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
        self._ended = store.ended(room_id)  # the teacher ended the room (or its lesson): no more moves
        self._seen_at = float("-inf")  # when this page last told the store it is open (cardlab.presence)
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
        was, self._ended = self._ended, self.store.ended(self.room_id)
        self.store.draw_chance(self.room_id)
        stored = [a for _, a in self.store.moves(self.room_id)]
        mine = [m.action for m in self.match.history]
        if stored[:len(mine)] != mine:  # the room was reset (or its file replaced): start from its moves
            self._new_match(self._start)
            mine = []
        new = stored[len(mine):]
        if not new:
            if was != self._ended:  # ended, or going on again: the moves offered change
                self._refresh()
            return was != self._ended
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
        while True:  # a game over may still be reset by the teacher: looked at less often
            await asyncio.sleep(every * (4 if self.state.is_terminal() or self._ended else 1))
            try:
                await asyncio.get_running_loop().run_in_executor(None, self._fetch)
            except Exception as exc:  # noqa: BLE001 - shown on the page, the poll goes on
                self._room_message = (N_("the room cannot be read now ({reason}); retrying"), {"reason": exc})
                self._refresh()

    def _fetch(self) -> None:
        now = time.monotonic()
        if self.seat is not None and now - self._seen_at >= presence.SEEN_EVERY:  # for the teacher's wall
            self._seen_at = now
            presence.mark_seen(self.store, self.room_id, self.seat)
        if (self.store.seq(self.room_id) != len(self.match.history) or self._room_message
                or self.store.ended(self.room_id) != self._ended):
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
        except RoomEndedError:
            self._ended = True
        self.sync()
        self._refresh()

    def _no_moves_why(self) -> str | None:
        if self._ended and not self.state.is_terminal():
            return _("the teacher ended this room")
        return super()._no_moves_why()

    def _status_text(self) -> str:
        s = self.state
        p = s.current_player
        text = super()._status_text()
        if self._ended and not s.is_terminal():
            text = _("The teacher ended this room: no more moves.")
        elif s.is_terminal():
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
    board; ``?join=CODE``: the board of the seat with that short code, and
    ``?join`` alone the :class:`JoinBox` to type it in; ``?room=T1&pupil=NAME&key=…``:
    a pupil's game of each round of tournament 1
    (:class:`~cardlab.widgets.tournament.TournamentSeat`); ``?teacher=KEY``:
    the teacher's :class:`Lobby`; ``?room=R1&view=class``: the room shown to
    the class, no hidden card, :func:`cardlab.widgets.projector.class_page`),
    or a message saying what is wrong.  ``store``: the class's store (default
    :func:`cardlab.rooms.default_path`); ``language``: the page's (``None``:
    the current one)."""
    with i18n.using(language) as language:
        return _room_page(query, store, language)


def _room_page(query: str, store: RoomStore | None, language: str) -> widgets.Widget:
    given = dict(parse_qsl(query, keep_blank_values=True))
    try:
        store = store or RoomStore(default_path())
    except StoreError as exc:  # a school's store (postgresql://...) whose server does not answer
        return _error(str(exc))
    if "view" in given:  # a room shown to the class (?room=R1&view=class): first, whatever else the link has
        return class_page(given, store, language)
    if "teacher" in given:
        if not store.check_key(None, "teacher", given["teacher"]):
            return _error(_("the teacher key is not this class's (cardlab rooms prints the teacher's link)"))
        return Lobby(store, language=language)
    if "pupil" in given:  # a pupil's link for a whole tournament: ?room=T1&pupil=Aiko&key=…
        return _tournament_page(store, given, language)
    if "join" in given:
        box = JoinBox(store, language=language)
        if given["join"].strip():
            box.code.value = given["join"]
            box.join()
        return box
    room_id, seat, key = given.get("room", ""), given.get("seat", ""), given.get("key", "")
    if not seat.isdigit() or not store.check_key(room_id, int(seat), key):
        return _error(_("the room, the seat and the key do not belong together; ask your teacher for your link"))
    return _seat_page(store, room_id, int(seat), language,
                      projector=given.get("projector", "").strip().lower() in ("1", "yes", "true", "on"))


def _tournament_page(store: RoomStore, given: dict[str, str], language: str) -> widgets.Widget:
    """A pupil's tournament link: their game of each round (:class:`~cardlab.widgets.tournament.TournamentSeat`)."""
    cups, number, name = Tournaments(store), given.get("room", "")[1:], given["pupil"]
    try:
        ok = given.get("room", "").startswith("T") and number.isdigit() and cups.check_key(int(number), name,
                                                                                          given.get("key", ""))
    except RoomError:  # no such tournament
        ok = False
    if not ok:
        return _error(_("the tournament, the pupil and the key do not belong together; ask your teacher for your "
                        "link"))
    return _tournament_seat(store, int(number), name, language)


def _tournament_seat(store: RoomStore, tid: int, name: str, language: str) -> widgets.Widget:
    """``name``'s page for tournament ``tid``: their game of each round, a seat's page each."""
    return TournamentSeat(store, tid, name, lambda rid, seat: _seat_page(store, rid, seat, language),
                          language=language)


def _seat_page(store: RoomStore, room_id: str, seat: int, language: str, projector: bool = False) -> widgets.Widget:
    """A pupil's page: who plays whom, their board (``projector``: in
    projector size, a link's ``&projector=1``) and the game's rules."""
    try:
        b = RoomBoard(store, room_id, seat, language=language, projector=projector)
    except CardlabError as exc:
        return _error(str(exc))
    room = b.room

    game = _(room.load().title) if room.load().title else room.game
    names = shown_names(room)
    others = ", ".join(n for i, n in enumerate(names) if i != seat)
    title = widgets.HTML("<b>" + html.escape(_("you ({name}) against {others}").format(
                             name=names[seat], others=others)) + "</b> · "
                         + html.escape(_("room {room} · {game} · you are player {player}").format(
                             room=room.id, game=game, player=seat)))
    return widgets.VBox([title, b, rules_panel(room.load())])


class JoinBox(widgets.VBox):
    """Where a pupil types the short code of their seat (from the hand-out,
    :mod:`cardlab.handout`) instead of opening its link: *join* puts their
    room's page in its place (``on_join(page)``: somewhere else), or says
    what is wrong with the code.  ``store``: the class's (default: opened at
    the first *join*, :func:`cardlab.rooms.default_path`)."""

    def __init__(self, store: RoomStore | None = None, *, language: str | None = None,
                 on_join: Callable[[widgets.Widget], None] | None = None) -> None:
        super().__init__()
        self.language = None if language is None else i18n.check_language(language)
        self._store, self._on_join = store, on_join
        self.code = widgets.Text(placeholder="ABCD", layout=widgets.Layout(width="200px"))
        self.join_button = widgets.Button(button_style="primary")
        self.message = widgets.HTML()
        self.intro = widgets.HTML()
        self.join_button.on_click(lambda _b: self.join())
        self.children = [self.intro, widgets.HBox([self.code, self.join_button]), self.message]
        self.label()

    def label(self, language: str | None = None) -> None:
        """The box's words in ``language`` (default: the box's)."""
        self.language = self.language if language is None else i18n.check_language(language)
        with i18n.using(self.language):
            self.intro.value = html.escape(_("In a class room? Type the code on your slip from the teacher:"))
            self.code.description = _("your code")
            self.code.tooltip = _("the four letters on your sheet from the teacher")
            self.join_button.description = _("join")
            self.join_button.tooltip = _("open your class room")

    def join(self) -> widgets.Widget | None:
        """Open the room of the code typed; its page (None: the code is not a seat's)."""
        with i18n.using(self.language) as language:
            store = self._store = self._store or RoomStore(default_path())
            try:
                room_id, seat = store.join(self.code.value)
            except RoomError as exc:
                self.message.value = '<span style="color:#b00">' + html.escape(str(exc)) + "</span>"
                return None
            if pupil_of(room_id) is not None:  # a pupil's code for the puzzle of the lesson
                page = LessonPuzzlePage(store, pupil_of(room_id), language=language)
            elif room_id.startswith("T") and room_id[1:].isdigit():  # a pupil's code for a whole tournament
                tid = int(room_id[1:])
                page = _tournament_seat(store, tid, Tournaments(store).get(tid).entrants[seat], language)
            else:
                page = _seat_page(store, room_id, seat, language)
        if self._on_join is not None:
            self._on_join(page)
        else:
            self.children = [page]
        return page


class Lobby(widgets.VBox):
    """The teacher's page: the class list (kept between lessons, in the
    store) and a round of rooms for it; every room of the lesson live: the
    wall (:mod:`cardlab.widgets.wall`: whose turn, the last move, the score)
    and the list (moves, result) with each seat's code and full link (``base``: the class
    app's address, see :func:`cardlab.rooms.page_url`); watch any game with
    every card shown; end, reset or remove a room; a class tournament
    (:attr:`tournament`, :mod:`cardlab.widgets.tournament`); the puzzle of the
    lesson and each pupil's puzzle rating (:attr:`lesson_puzzle`,
    :mod:`cardlab.widgets.lesson_puzzle`); *new lesson* ends the
    lesson's rooms and keeps them in the archive; export a lesson's games.
    What cannot be undone (or makes a pupil a second room) asks first:
    :attr:`confirm_button` does it, :attr:`cancel_button` does not.
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
        self.names = widgets.Textarea(value="\n".join(store.roster()), placeholder=_("one pupil a line"),
                                      description=_("pupils"),
                                      tooltip=_("the class list: kept between lessons; the rooms are made for it"),
                                      layout=widgets.Layout(width="360px", height="120px"))
        self.odd = widgets.Dropdown(options=_seat_options(NAMES),
                                    value="heuristic", description=_("odd one plays"), tooltip=levels_tip(),
                                    style={"description_width": "initial"})
        self.make_button = widgets.Button(description=_("make rooms"), button_style="primary",
                                          tooltip=_("neighbours in the list play each other"))
        self.rooms_html = widgets.HTML()
        #: the teacher's wall: every room of the lesson at a glance (cardlab.widgets.wall)
        self.wall = Wall(self._watch_room)  # a room's *watch* button: the picker below shows it
        self.watch = widgets.Dropdown(options=[], description=_("watch"), layout=widgets.Layout(width="360px"))
        self.watch_html = widgets.HTML()
        self.export_button = widgets.Button(description=_("export the lesson's games"),
                                            layout=widgets.Layout(width="auto"),
                                            tooltip=_("games.json (move lists cardlab replays) and results.csv"))
        self.message = widgets.HTML()
        #: the review of a finished room's game (cardlab.widgets.review)
        self.room_review = RoomReview(store, lambda: self.language)
        self.make_button.on_click(lambda _b: self.make_rooms())
        self.export_button.on_click(lambda _b: self.export())
        self.watch.observe(lambda _c: self.refresh(), names="value")
        self.game_picker.observe(lambda _c: self._choose_game(), names="value")
        self._choose_game()
        self._lesson_widgets()
        #: the tournament section (cardlab.widgets.tournament): the pupils, game and options of this page
        self.tournament = TournamentPanel(store, names=lambda: self.names.value.splitlines(),
                                          game=lambda: self.game_picker.value, options=self.options,
                                          language=lambda: self.language, on_change=self.refresh, base=self.base)
        #: the puzzle of the lesson and the pupils' puzzle ratings (cardlab.widgets.lesson_puzzle)
        self.lesson_puzzle = LessonPuzzlePanel(store, names=lambda: self.names.value.splitlines(),
                                               language=lambda: self.language, base=self.base)
        self.children = [widgets.HTML("<b>" + _("Class rooms") + "</b> "
                                      + _("(the teacher's page: keep this link to yourself; it shows every card)")),
                         self.lesson_html, widgets.HBox([self.game_picker, self.odd]), self.options_box, self.names,
                         widgets.HBox([self.make_button, self.sheet_button]), self.message, self.sheet_link,
                         widgets.HBox([self.confirm_button, self.cancel_button]), self.tournament,
                         self.lesson_puzzle,
                         self.wall, self.rooms_html, widgets.HBox([self.watch, self.end_button, self.reset_button,
                                                        self.remove_button]),
                         self.watch_html, self.room_review,
                         widgets.HBox([self.lesson_picker, self.export_button]),
                         widgets.HBox([self.lesson_name, self.new_lesson_button])]
        self.refresh()
        self._poller = polling.start(poll, self.refresh)

    def _lesson_widgets(self) -> None:
        """The lesson's line, its room actions, the confirmation and the archive's export."""
        self.lesson_html = widgets.HTML()
        self.end_button = widgets.Button(description=_("end"), tooltip=_("end the watched room: no more moves"))
        self.reset_button = widgets.Button(description=_("reset"),
                                           tooltip=_("the watched room's game from its first deal again"))
        self.remove_button = widgets.Button(description=_("remove"),
                                            tooltip=_("delete the watched room and its moves"))
        self.confirm_button = widgets.Button(description=_("yes, do it"), button_style="warning",
                                             layout=widgets.Layout(display="none"))
        self.cancel_button = widgets.Button(description=_("cancel"), layout=widgets.Layout(display="none"))
        self.lesson_picker = widgets.Dropdown(options=[], description=_("lesson"),
                                              layout=widgets.Layout(width="360px"))
        self.lesson_name = widgets.Text(placeholder=_("its name (default: the day)"),
                                        layout=widgets.Layout(width="240px"))
        self.new_lesson_button = widgets.Button(description=_("new lesson"), button_style="info",
                                                tooltip=_("end this lesson's rooms and keep them in the archive"))
        self.sheet_button = widgets.Button(description=_("hand-out sheet"), icon="print",
                                           tooltip=_("a slip a pupil: name, room, link, QR code and short code; "
                                                     "to print on A4"))
        self.sheet_link = widgets.HTML()
        self._pending: Callable[[], None] | None = None
        self.sheet_button.on_click(lambda _b: self.hand_out())
        self.end_button.on_click(lambda _b: self.end_room())
        self.reset_button.on_click(lambda _b: self.reset_room())
        self.remove_button.on_click(lambda _b: self.remove_room())
        self.confirm_button.on_click(lambda _b: self.confirm())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.new_lesson_button.on_click(lambda _b: self.new_lesson())

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

    # -- asking first -----------------------------------------------------------------
    def _say(self, text: str, error: bool = False) -> None:
        text = html.escape(text, quote=False)
        self.message.value = f'<span style="color:#b00">{text}</span>' if error else text

    def _ask(self, question: str, action: Callable[[], None]) -> None:
        """Show ``question``; :meth:`confirm` then runs ``action``."""
        self._pending = action
        self._say(question)
        self.confirm_button.layout.display = self.cancel_button.layout.display = None

    def _asked(self) -> Callable[[], None] | None:
        action, self._pending = self._pending, None
        self.confirm_button.layout.display = self.cancel_button.layout.display = "none"
        return action

    def confirm(self) -> None:
        """Do what the page asked about (nothing when it asked nothing)."""
        action = self._asked()
        if action is not None:
            with i18n.using(self.language):
                action()
                self._refresh()

    def cancel(self) -> None:
        if self._asked() is not None:
            self.message.value = ""

    # -- rooms --------------------------------------------------------------------------
    def make_rooms(self) -> None:
        with i18n.using(self.language):
            self._asked()
            self._make_rooms()

    def _make_rooms(self, again: bool = False) -> None:
        names = [n.strip() for n in self.names.value.splitlines() if n.strip()]
        if not names:
            self._say(_("write the pupils' names, one a line"), error=True)
            return
        self.store.set_roster(names)  # the class list, for the next lesson too
        try:
            rooms = self.store.pairings(self.game_picker.value, names, options=self.options(), odd=self.odd.value,
                                        seed=len(self.store.ids("all")), again=again)
        except DuplicateRoomsError as exc:  # rooms made twice for the same pupils: ask first
            self._ask(_("{names} already play in a room of this lesson: make a second room for them?").format(
                names=", ".join(exc.pupils)), lambda: self._make_rooms(again=True))
            return
        except CardlabError as exc:  # options the game refuses: no room is made
            self._say(_("no rooms made: {reason}").format(reason=exc), error=True)
            return
        self._say(_("{n} rooms made: give each pupil their link below.").format(n=len(rooms)))
        self.refresh()

    def _watched(self) -> str | None:
        if not self.watch.value:
            self._say(_("choose a room under watch first"), error=True)
        return self.watch.value or None

    def end_room(self) -> None:
        """End the watched room: its pupils' pages say so and take no more moves."""
        self._on_watched(self.store.end, N_("room {room} ended: no more moves"))

    def reset_room(self) -> None:
        """Ask, then start the watched room's game again from its first deal."""
        self._on_watched(self.store.reset, N_("room {room} starts again from its first deal"), lambda rid: _(
            "start room {room} again from its first deal? Its {n} moves are dropped.").format(
            room=rid, n=sum(p >= 0 for p, _a in self.store.moves(rid))))  # the players' moves, not chance's

    def remove_room(self) -> None:
        """Ask, then delete the watched room and its moves."""
        self._on_watched(self.store.remove, N_("room {room} removed"), lambda rid: _(
            "remove room {room} and its moves? Its links will open nothing.").format(room=rid))

    def _on_watched(self, act: Callable[[str], Any], done: str,
                    question: Callable[[str], str] | None = None) -> None:
        """``act(room)`` on the watched room, then say ``done`` (a msgid);
        with a ``question``, only after :meth:`confirm`."""
        with i18n.using(self.language):
            self._asked()
            rid = self._watched()
            if rid is None:
                return

            def do() -> None:
                act(rid)
                self._say(_(done).format(room=rid))
            if question is None:
                do()
                self._refresh()
            else:
                self._ask(question(rid), do)

    # -- lessons --------------------------------------------------------------------------
    def new_lesson(self) -> None:
        """Ask, then end this lesson: its rooms go to the archive, a new lesson begins."""
        with i18n.using(self.language):
            current = self.store.lesson()
            self._ask(_("end lesson {lesson} and its {n} rooms, and keep them in the archive?").format(
                lesson=current.name, n=len(self.store.ids())), self._new_lesson)

    def _new_lesson(self) -> None:
        old = self.store.lesson()
        new = self.store.new_lesson(self.lesson_name.value)
        self.lesson_name.value = ""
        self.lesson_picker.value = None
        self._say(_("lesson {old} is in the archive; this is lesson {new}").format(old=old.name, new=new.name))

    def hand_out(self) -> Path | None:
        """The lesson's hand-out sheet (:func:`cardlab.handout.sheet_html`):
        written beside the store (``class-export/LESSON/handout.html``) and
        offered as a link that opens it (to print); its path."""
        from ..handout import sheet_html

        with i18n.using(self.language) as language:
            lesson = self.store.lesson()
            try:
                text = sheet_html(self.store, self.base, language=language)
            except CardlabError as exc:  # no segno
                self._say(str(exc), error=True)
                return None
            path = self.store.folder / "class-export" / _folder_name(lesson.name) / "handout.html"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")
            data = base64.b64encode(text.encode("utf-8")).decode("ascii")
            self.sheet_link.value = (f'<a download="{html.escape(path.name)}" target="_blank" '
                                     f'href="data:text/html;charset=utf-8;base64,{data}">'
                                     + html.escape(_("the hand-out sheet of lesson {lesson} (open it and print it on "
                                                     "A4)").format(lesson=lesson.name)) + "</a> "
                                     + html.escape(_("(also written to {path})").format(path=str(path))))
            return path

    def export(self) -> None:
        """The chosen lesson's games (default: this lesson's) in ``class-export/LESSON`` beside the store."""
        with i18n.using(self.language):
            lesson = self.store.lesson(self.lesson_picker.value)
            folder = self.store.folder / "class-export" / _folder_name(lesson.name)
            games_json, results = self.store.export(folder, lesson=lesson.id)
            self._say(_("exported: {games} and {results}").format(games=str(games_json), results=str(results)))

    def refresh(self) -> None:
        with i18n.using(self.language):
            self._refresh()

    def _refresh(self) -> None:
        rows = []
        for r in self.store.summary():
            room = self.store.room(r["room"])
            people = [i for i, who in enumerate(room.seats) if who == "person"]
            links = "<br>".join(html.escape(_("seat {seat} ({name}, code {code})").format(
                                    seat=i, name=room.names()[i], code=self.store.code(r["room"], i)))
                                + f': <a href="{html.escape(link)}" target="_blank">'
                                  f'<code>{html.escape(link)}</code></a>'
                                for i, link in zip(people, self.store.links(r["room"], base=self.base)))
            if r["over"]:
                state = _("over: {result}").format(result=result_names(self.store.state(r["room"]), shown_names(room)))
            elif r["ended"]:
                state = _("ended by the teacher")
            else:
                state = _("{name} (player {player}) to move").format(name=shown_names(room)[r["to_move"]],
                                                                     player=r["to_move"])
            game = r["game"] + "".join(f", {k}={v}" for k, v in sorted(r["options"].items()))
            rows.append(f"<tr><td>{html.escape(r['room'])}</td><td>{html.escape(room.name)}</td>"
                        f"<td>{html.escape(game)}</td><td>{r['moves']}</td><td>{html.escape(state)}</td>"
                        f"<td>{links}</td></tr>")
        heads = (_("room"), _("pupils"), pgettext("table head", "game"), _("moves"), _("now"), _("links"))
        self.rooms_html.value = ("<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in heads) + "</tr>"
                                 + "".join(rows) + "</table>") if rows else "<i>" + _("no rooms yet") + "</i>"
        self.wall.refresh(self.store)
        ids = self.store.ids()
        if list(self.watch.options) != ids:
            self.watch.options = ids
        if self.watch.value:
            s = self.store.state(self.watch.value)
            self.watch_html.value = render.html(s)  # the teacher sees every card
        else:
            self.watch_html.value = ""
        self._refresh_lessons(len(ids))
        self.room_review.refresh()
        self.tournament.refresh()
        self.lesson_puzzle.refresh()

    def _watch_room(self, room_id: str) -> None:
        """Show ``room_id`` with every card (the wall's *watch*: the picker's value)."""
        self.watch.value = room_id

    def _refresh_lessons(self, rooms: int) -> None:
        """The lesson's line and the lessons to export (the current one first)."""
        lessons = self.store.lessons()
        current = lessons[-1] if lessons and lessons[-1].ended is None else None
        name = current.name if current is not None else time.strftime("%Y-%m-%d")
        self.lesson_html.value = html.escape(_("Lesson {lesson}: {n} rooms; {k} past lessons in the archive").format(
            lesson=name, n=rooms, k=sum(x.ended is not None for x in lessons)))
        options = [(_("{lesson} (this lesson)").format(lesson=x.name) if x is current else x.name, x.id)
                   for x in reversed(lessons)]
        if list(self.lesson_picker.options) != options:
            keep = self.lesson_picker.value
            self.lesson_picker.options = options
            ids = [v for _k, v in options]
            self.lesson_picker.value = keep if keep in ids else (ids[0] if ids else None)


def _folder_name(name: str) -> str:
    """A lesson's name as a folder's: letters, digits and ``-_.() `` kept."""
    return re.sub(r"[^\w.() -]", "_", name).strip() or "lesson"
