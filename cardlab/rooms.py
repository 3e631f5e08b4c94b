"""Game rooms that several pages share (issue R): the store.

Each Voila page runs in its own kernel, so a room cannot live in one
page's memory.  It lives in a SQLite database on the teacher's machine
(the standard library's ``sqlite3``, WAL mode, so readers never wait for a
writer), or for a school in a PostgreSQL database that several app
servers share (``RoomStore("postgresql://…")``: :mod:`cardlab.store_db`):
the room (game, options, seed, who sits where) and its moves, numbered.
The position is never stored, only replayed from the moves, so a room
survives the server (or the machine) stopping: open the same file (or
database) again and every room goes on from its last move.

A move is stored only if it is legal in the room's position and its
number is the next one, checked and written in one transaction: of two
pages moving at once, exactly one wins and the other gets
:class:`StaleMoveError` (its page then reloads the room).  Chance events
are moves too, drawn from the room's seed and the move number, so every
page that draws one draws the same, and the game is the same game whoever
stores it.

Links: a seat's link carries a key that only the store can make
(``key(room, seat)``, an HMAC with the store's secret), so a pupil who edits
``seat=1`` to ``seat=0`` in their link gets no board; the teacher's key
opens every room with every card shown.

>>> import tempfile, os
>>> store = RoomStore(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> room = store.create("koinobori", seats=["person", "person"], seed=3, name="Aiko v Ben")
>>> state = store.state(room.id)      # the deal is drawn: player 0 to move
>>> state.current_player, store.seq(room.id) > 0
(0, True)
>>> n = store.seq(room.id)
>>> store.play(room.id, n, state.legal_actions()[0]).current_player in (0, 1, -1)
True
>>> store.play(room.id, n, state.legal_actions()[0])  # doctest: +ELLIPSIS
Traceback (most recent call last):
cardlab.rooms.StaleMoveError: room ... move ... was already played: reload the room ...
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import random
import secrets
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .core import CHANCE, State, sample_chance
from .games import load
from .errors import CardlabError
from .i18n import _
from .store_db import is_url, open_database

__all__ = ["RoomStore", "Room", "Lesson", "StaleMoveError", "RoomError", "RoomEndedError", "DuplicateRoomsError",
           "replay", "read_export", "default_path", "class_url",
           "lan_address", "page_url", "outcome", "RESULT_COLUMNS", "CODE_LETTERS"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL, pupils TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS lessons (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, started REAL NOT NULL, ended REAL);
CREATE TABLE IF NOT EXISTS codes (code TEXT PRIMARY KEY, room TEXT NOT NULL, seat INTEGER NOT NULL,
    UNIQUE (room, seat));
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, player INTEGER NOT NULL,
    action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, seq));
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, system TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
    rounds INTEGER NOT NULL, entrants TEXT NOT NULL, agent TEXT, seed INTEGER NOT NULL, created REAL NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament INTEGER NOT NULL REFERENCES tournaments(id), round INTEGER NOT NULL, board INTEGER NOT NULL,
    first TEXT NOT NULL, second TEXT, room TEXT, score TEXT, PRIMARY KEY (tournament, round, board));
"""


class RoomError(CardlabError, LookupError):
    """A room or a key that does not exist."""


class RoomEndedError(CardlabError, RuntimeError):
    """A move in a room the teacher ended (or a room of a past lesson)."""


class DuplicateRoomsError(CardlabError, ValueError):
    """Rooms asked for pupils who already play in a room of this lesson
    (``again=True`` makes them all the same); ``pupils``: who."""

    def __init__(self, message: str, pupils: Sequence[str]) -> None:
        super().__init__(message)
        self.pupils = list(pupils)


class StaleMoveError(CardlabError, RuntimeError):
    """A move numbered ``seq`` when the room is already past it (another page moved first)."""


@dataclass(frozen=True)
class Room:
    """One room: its id and name, the game and options, the seed of its
    chance events, who sits in each seat (``"person"`` or an agent), the
    pupils' names by seat (``pupils``; an agent's seat: its name), the
    day it was made (``day``, ``YYYY-MM-DD``) and the name of the lesson it
    was made in (``lesson``, :class:`Lesson`)."""

    id: str
    name: str
    game: str
    options: dict
    seed: int
    seats: tuple
    pupils: tuple = ()
    day: str = ""
    lesson: str = ""

    def load(self):
        return load(self.game, **self.options)

    def names(self) -> list[str]:
        """Who plays each seat, by name: the pupil's name, an agent's name
        (a room made before names were kept: from its name "Aiko v Ben",
        else "player 0", "player 1" ...)."""
        if len(self.pupils) == len(self.seats):
            return list(self.pupils)
        parts = self.name.split(" v ")
        if len(parts) == len(self.seats):
            return parts
        return [who if who != "person" else _("player {player}").format(player=i) for i, who in enumerate(self.seats)]


@dataclass(frozen=True)
class Lesson:
    """One lesson of the class: its number, its name (by default the day it
    began, ``2026-12-04``; a second lesson that day ``2026-12-04 (2)``),
    when it began and ended (``ended``: ``None`` for the current lesson,
    whose rooms the teacher's page lists; the others are the archive)."""

    id: int
    name: str
    started: float
    ended: float | None = None


class RoomStore:
    """The rooms of one class, in the SQLite file ``path`` (made when
    missing), or in the PostgreSQL database ``path`` (``postgresql://…``,
    its tables made when missing); a malformed address or a server that
    does not answer: :class:`cardlab.store_db.StoreError`.  ``folder``:
    where the teacher's page writes exports (the file's folder; for
    PostgreSQL, the working folder)."""

    def __init__(self, path: str | Path, timeout: float = 10.0) -> None:
        self.path = str(path)
        self._db = open_database(path, timeout)  # one connection a thread: cardlab.store_db
        self.folder = self._db.folder
        self._db.create(_SCHEMA)
        self._db.add_column("rooms", "pupils", "TEXT NOT NULL DEFAULT '[]'")  # a store made before names were kept
        self._db.add_column("rooms", "lesson", "INTEGER")  # ... and before lessons
        self._db.add_column("rooms", "ended", "REAL")
        if self._db.execute("SELECT 1 FROM rooms WHERE lesson IS NULL").fetchone():
            with self._write():  # an older store's rooms: the first lesson's
                self._db.execute("UPDATE rooms SET lesson=? WHERE lesson IS NULL", (self._lesson_id(),))
        self._db.execute("INSERT INTO meta VALUES ('secret', ?) ON CONFLICT (key) DO NOTHING", (secrets.token_hex(16),))
        self._secret = self._db.execute("SELECT value FROM meta WHERE key='secret'").fetchone()[0].encode()
        self._rooms: dict[str, Room] = {}

    def close_thread(self) -> None:
        """Close this thread's connection (a thread that ends, like an agent's move)."""
        self._db.close_thread()

    def close(self) -> None:
        self._db.close()

    # -- rooms ----------------------------------------------------------------
    def create(self, game: str, seats: Sequence[str], *, options: dict | None = None, seed: int = 0,
               name: str = "", room_id: str | None = None, pupils: Sequence[str] | None = None) -> Room:
        """A new room (the options are checked by loading the game; the
        chance events before the first decision are drawn at once);
        ``pupils``: the name of who plays each seat (default: from ``name``)."""
        options = dict(options or {})
        g = load(game, **options)
        n = g.spec.num_players
        seats = tuple(seats)
        if len(seats) != n:
            raise CardlabError(_("{game} with these options has {count} seats; got {given}: {seats}")
                               .format(game=game, count=n, given=len(seats), seats=list(seats)))
        from .agents import NAMES

        for s in seats:
            if s != "person" and s not in NAMES:
                raise CardlabError(_("a seat is 'person' or an agent ({agents}), not {seat}")
                                   .format(agents=", ".join(NAMES), seat=repr(s)))
        json.dumps(options)  # only JSON options can be stored
        pupils = [str(p) for p in (pupils or ())]
        if pupils and len(pupils) != n:
            raise CardlabError(_("{game} with these options has {count} seats; got {given} names: {names}")
                               .format(game=game, count=n, given=len(pupils), names=pupils))
        with self._write():
            if room_id is None:
                count = self._db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0]
                room_id = f"R{count + 1}"
                while self._db.execute("SELECT 1 FROM rooms WHERE id=?", (room_id,)).fetchone():
                    room_id = f"R{count + 1}-{secrets.token_hex(2)}"
            elif self._db.execute("SELECT 1 FROM rooms WHERE id=?", (room_id,)).fetchone():
                raise CardlabError(_("a room {room} exists already").format(room=repr(room_id)))
            self._db.execute("INSERT INTO rooms (id, name, game, options, seed, seats, created, pupils, lesson) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                             (room_id, name or room_id, game, json.dumps(options, sort_keys=True), seed,
                              json.dumps(list(seats)), time.time(), json.dumps(pupils, ensure_ascii=False),
                              self._lesson_id()))
        self.draw_chance(room_id)
        return self.room(room_id)

    def pairings(self, game: str, names: Sequence[str], *, options: dict | None = None, seed: int = 0,
                 odd: str = "heuristic", again: bool = False) -> list[Room]:
        """A round of two-seat rooms for a list of pupils: neighbours in the
        list play each other; with an odd number the last plays ``odd`` (a
        level such as ``"club"`` or another agent: :data:`cardlab.agents.NAMES`).
        A pupil who plays in a room of this lesson still going (not over,
        not ended) gets no second one unless ``again``:
        :class:`DuplicateRoomsError` names them, and no room is made."""
        rooms = []
        names = list(names)
        busy = [] if again else self.busy(names)
        if busy:
            raise DuplicateRoomsError(_("{names} already play in a room of this lesson; end those rooms first, or "
                                        "make the rooms again to give them a second one")
                                      .format(names=", ".join(busy)), busy)
        for i in range(0, len(names), 2):
            pair = names[i:i + 2]
            seats = ["person", "person"] if len(pair) == 2 else ["person", odd]
            pupils = pair if len(pair) == 2 else [pair[0], odd]
            rooms.append(self.create(game, seats, options=options, seed=seed + i // 2, name=" v ".join(pupils),
                                     pupils=pupils))
        return rooms

    def room(self, room_id: str) -> Room:
        room = self._rooms.get(room_id)
        if room is None:
            row = self._db.execute("SELECT r.id, r.name, r.game, r.options, r.seed, r.seats, r.pupils, r.created, "
                                   "l.name FROM rooms r LEFT JOIN lessons l ON l.id=r.lesson WHERE r.id=?",
                                   (room_id,)).fetchone()
            if row is None:
                ids = self.ids()
                if not ids:
                    raise RoomError(_("there is no room {room}; the rooms are: none").format(room=repr(room_id)))
                raise RoomError(_("there is no room {room}; the rooms are: {rooms}")
                                .format(room=repr(room_id), rooms=", ".join(ids)))
            room = Room(row[0], row[1], row[2], json.loads(row[3]), row[4], tuple(json.loads(row[5])),
                        tuple(json.loads(row[6])), time.strftime("%Y-%m-%d", time.localtime(row[7])), row[8] or "")
            self._rooms[room_id] = room
        return room

    def ids(self, lesson: int | str | None = None) -> list[str]:
        """The rooms of the current lesson (``lesson``: of that lesson, by
        number; ``"all"``: every room, the archive's too), oldest first."""
        if lesson == "all":
            return [r[0] for r in self._db.execute("SELECT id FROM rooms ORDER BY created, id")]
        number = self._current() if lesson is None else lesson
        return [r[0] for r in self._db.execute("SELECT id FROM rooms WHERE lesson=? ORDER BY created, id", (number,))]

    # -- lessons ----------------------------------------------------------------
    def _current(self) -> int | None:
        """The current lesson's number (``None`` before the first room)."""
        row = self._db.execute("SELECT id FROM lessons WHERE ended IS NULL ORDER BY id DESC").fetchone()
        return None if row is None else row[0]

    def _lesson_id(self) -> int:
        """The current lesson's number; the first lesson begins with the first
        room (call inside a write)."""
        number = self._current()
        return self._begin_lesson("") if number is None else number

    def _begin_lesson(self, name: str) -> int:
        day = time.strftime("%Y-%m-%d")
        taken = {r[0] for r in self._db.execute("SELECT name FROM lessons")}
        name = name.strip() or day
        base, k = name, 2
        while name in taken:
            name, k = f"{base} ({k})", k + 1
        return self._db.execute("INSERT INTO lessons (name, started) VALUES (?, ?) RETURNING id",
                                (name, time.time())).fetchone()[0]

    def lesson(self, number: int | None = None) -> Lesson:
        """The current lesson (``number``: that one)."""
        if number is None:
            with self._write():
                number = self._lesson_id()
        row = self._db.execute("SELECT id, name, started, ended FROM lessons WHERE id=?", (number,)).fetchone()
        if row is None:
            raise RoomError(_("there is no lesson {lesson}").format(lesson=number))
        return Lesson(*row)

    def lessons(self) -> list[Lesson]:
        """Every lesson, the first first (the last is the current one)."""
        return [Lesson(*row) for row in self._db.execute("SELECT id, name, started, ended FROM lessons ORDER BY id")]

    def new_lesson(self, name: str = "") -> Lesson:
        """End the current lesson (its rooms are ended and go to the
        archive: no more moves, not in the list, the watch picker or the
        export of the new lesson) and begin a new one called ``name``
        (default: the day).  The roster stays."""
        with self._write():
            now = time.time()
            old = self._lesson_id()
            self._db.execute("UPDATE rooms SET ended=? WHERE lesson=? AND ended IS NULL", (now, old))
            self._db.execute("UPDATE lessons SET ended=? WHERE id=?", (now, old))
            number = self._begin_lesson(name)
        return self.lesson(number)

    def roster(self) -> list[str]:
        """The class's pupils, kept between lessons (:meth:`set_roster`)."""
        row = self._db.execute("SELECT value FROM meta WHERE key='roster'").fetchone()
        return json.loads(row[0]) if row else []

    def set_roster(self, names: Sequence[str]) -> list[str]:
        """Keep ``names`` as the class's pupils (blank lines and repeats dropped)."""
        kept = list(dict.fromkeys(n.strip() for n in names if n.strip()))
        with self._write():
            self._db.execute("INSERT INTO meta VALUES ('roster', ?) ON CONFLICT (key) DO UPDATE SET "
                             "value=excluded.value", (json.dumps(kept, ensure_ascii=False),))
        return kept

    def busy(self, names: Sequence[str]) -> list[str]:
        """Those of ``names`` who play in a room of this lesson that goes on
        (not over, not ended), in the order given."""
        playing: set[str] = set()
        for rid in self.ids():
            room = self.room(rid)
            if not self.ended(rid) and not self.state(rid).is_terminal():
                playing.update(n for n, who in zip(room.names(), room.seats) if who == "person")
        return [n for n in dict.fromkeys(names) if n in playing]

    # -- ending, resetting, removing a room ------------------------------------------
    def ended(self, room_id: str) -> bool:
        """Whether the room was ended (by the teacher, or with its lesson): no more moves."""
        row = self._db.execute("SELECT ended FROM rooms WHERE id=?", (room_id,)).fetchone()
        if row is None:
            self.room(room_id)  # RoomError naming the rooms (or a room just removed)
            raise RoomError(_("room {room} was removed").format(room=room_id))
        return row[0] is not None

    def end(self, room_id: str) -> None:
        """End the room: no more moves (its pupils' pages say so); it stays
        in the list and the export with its moves so far."""
        with self._write(room_id):
            self.ended(room_id)
            self._db.execute("UPDATE rooms SET ended=? WHERE id=? AND ended IS NULL", (time.time(), room_id))

    def reset(self, room_id: str) -> State:
        """The room's game from its start again (the same deal; every move is
        dropped; an ended room goes on); the pupils' pages follow."""
        with self._write(room_id):
            self.ended(room_id)
            self._db.execute("DELETE FROM moves WHERE room=?", (room_id,))
            self._db.execute("UPDATE rooms SET ended=NULL WHERE id=?", (room_id,))
        return self.draw_chance(room_id)

    def remove(self, room_id: str) -> None:
        """Delete the room and its moves (its links open nothing any more)."""
        with self._write(room_id):
            self.ended(room_id)
            self._db.execute("DELETE FROM moves WHERE room=?", (room_id,))
            self._db.execute("DELETE FROM codes WHERE room=?", (room_id,))
            self._db.execute("DELETE FROM rooms WHERE id=?", (room_id,))
        self._rooms.pop(room_id, None)

    def _check_open(self, room_id: str) -> None:
        """Refuse a move in an ended (or removed) room (inside a write)."""
        if self.ended(room_id):
            raise RoomEndedError(_("room {room} was ended by the teacher: no more moves").format(room=room_id))

    # -- moves ----------------------------------------------------------------
    def moves(self, room_id: str) -> list[tuple[int, str]]:
        """``(player, action)`` of every stored move, in order (player -1: chance)."""
        self.room(room_id)
        return [(p, a) for p, a in self._db.execute(
            "SELECT player, action FROM moves WHERE room=? ORDER BY seq", (room_id,))]

    def seq(self, room_id: str) -> int:
        """The number of the next move (how many moves are stored)."""
        return self._db.execute("SELECT COUNT(*) FROM moves WHERE room=?", (room_id,)).fetchone()[0]

    def state(self, room_id: str) -> State:
        """The room's position: its moves replayed from the start."""
        return self.last_move(room_id)[0]

    def last_move(self, room_id: str) -> tuple[State, tuple[State, str] | None]:
        """The room's position (its moves replayed from the start) and its
        last move by a player, with the position it was played in (``None``
        before the first)."""
        s = self.room(room_id).load().new_initial_state()
        last = None
        for player, action in self.moves(room_id):
            if player >= 0:
                last = (s, action)
            s = s._apply(action)  # each was checked when stored
        return s, last

    def play(self, room_id: str, seq: int, action: str) -> State:
        """Store ``action`` as move ``seq`` if ``seq`` is the next number and
        the action is legal there (then draw the chance events after it);
        the position after them.  Raises :class:`StaleMoveError` when another
        page stored move ``seq`` first, :class:`~cardlab.IllegalActionError`
        for an illegal move; nothing is stored then."""
        with self._write(room_id):
            self._check_open(room_id)
            now = self.seq(room_id)
            if seq != now:
                raise StaleMoveError(_("room {room}: move {number} was already played: reload the room "
                                       "(it is at move {now})").format(room=room_id, number=seq, now=now))
            s = self.state(room_id)
            player = s.current_player
            after = s.apply(action)  # IllegalActionError: nothing written
            self._db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (room_id, seq, player, action, time.time()))
        self.draw_chance(room_id)
        return self.state(room_id) if after.current_player == CHANCE else after

    def draw_chance(self, room_id: str) -> State:
        """Store the chance events due now, each drawn from the room's seed
        and its move number (the same whichever page draws it)."""
        room = self.room(room_id)
        while True:
            with self._write(room_id):
                n = self.seq(room_id)
                s = self.state(room_id)
                if s.current_player != CHANCE or self.ended(room_id):
                    return s
                action = sample_chance(s, random.Random(f"{room.seed}:{n}"))
                self._db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (room_id, n, CHANCE, action, time.time()))

    def agent_to_move(self, state: State, room_id: str) -> str | None:
        """The agent in the seat to move in ``state`` (a position of the
        room), or None (a person, chance, or the game is over)."""
        if state.is_terminal() or state.current_player < 0 or self.ended(room_id):
            return None
        who = self.room(room_id).seats[state.current_player]
        return None if who == "person" else who

    def advance(self, room_id: str) -> State:
        """Play the agents' moves due now (an agent in the seat to move),
        each seeded from the room's seed and the move number, and the chance
        events between them; the position where a person must move or the
        game is over.  Safe to call from several pages at once: an agent's
        move for a number another page stored first is dropped (not stored
        twice), and the agent thinks again in the new position if it is
        still its turn.  It takes the agent's thinking time: a page calls it
        off its event loop (:class:`cardlab.widgets.room.RoomBoard` does)."""
        from . import agents

        room = self.room(room_id)
        while True:
            s = self.draw_chance(room_id)
            who = self.agent_to_move(s, room_id)
            if who is None:
                return s
            n = self.seq(room_id)
            agent = agents.make(who, seed=random.Random(f"{room.seed}:agent:{n}").randrange(2**32))
            try:
                self.play(room_id, n, agent.choose(s))
            except StaleMoveError:
                continue

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """``sql`` (``?`` placeholders, SQL that SQLite and PostgreSQL both
        read: :mod:`cardlab.store_db`) on this thread's connection to the
        class's store (for what else the store keeps:
        :mod:`cardlab.tournament_store`); its cursor; a write inside
        :meth:`transaction`."""
        return self._db.execute(sql, params)

    def transaction(self):
        """A write transaction (``with store.transaction(): ...``): :meth:`_write`."""
        return self._write()

    def _write(self, room_id: str | None = None):
        """A write transaction that takes its lock at once, so what it reads
        and what it writes are one step (the check of the move number and
        the insert): SQLite's one write lock; on PostgreSQL the lock of the
        room ``room_id`` (its moves, its end) or else the class's."""
        return self._db.write("class" if room_id is None else f"room:{room_id}")

    # -- links ----------------------------------------------------------------
    def key(self, room_id: str, seat: int | str) -> str:
        """The key of a seat's link (``seat="teacher"``: every room, every card)."""
        msg = f"{room_id}:{seat}".encode() if seat != "teacher" else b"teacher"
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()[:16]

    def link_seed(self, link: str) -> int:
        """The seed of a locked link's deal (its chance events): an HMAC of
        the whole link (``link``: its game, options, seat, opponents and seed
        in one text) with the store's secret.  The same link deals the same
        cards on this class's server; a link edited in any way deals others,
        and nobody without the secret can deal these (not with ``lock=0``
        and ``seed=`` of their choice)."""
        digest = hmac.new(self._secret, b"link:" + link.encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:8], "big")

    def check_key(self, room_id: str | None, seat: int | str, key: str) -> bool:
        return hmac.compare_digest(self.key(room_id or "", seat), key or "")

    def links(self, room_id: str, base: str = "") -> list[str]:
        """One link a seat (persons only): ``?room=R1&seat=0&key=…``, relative
        to the class app's page (``base`` may give its address)."""
        room = self.room(room_id)
        return [f"{base}?room={room_id}&seat={i}&key={self.key(room_id, i)}"
                for i, who in enumerate(room.seats) if who == "person"]

    def code(self, room_id: str, seat: int) -> str:
        """The short code of a seat (four letters of :data:`CODE_LETTERS`,
        none alike: no I, L, O), which a pupil types on the join page
        (``?join``) instead of the link; made at the first ask, then kept.
        Codes are drawn at random (not from the link's key), each once."""
        room = self.room(room_id)
        if not (type(seat) is int and 0 <= seat < len(room.seats)) or room.seats[seat] != "person":
            raise RoomError(_("room {room} has no pupil's seat {seat}").format(room=room_id, seat=repr(seat)))
        return self.draw_code(room_id, seat)

    def draw_code(self, owner: str, seat: int) -> str:
        """The short code of seat ``seat`` of ``owner`` (a room, or a
        tournament: ``"T1"``, whose seats are its pupils,
        :mod:`cardlab.tournament_store`), made at the first ask, then kept;
        :meth:`join` gives ``(owner, seat)`` back.  No check of the seat."""
        row = self._db.execute("SELECT code FROM codes WHERE room=? AND seat=?", (owner, seat)).fetchone()
        if row is not None:
            return row[0]
        with self._write():  # the first ask (two pages may ask at once: one makes it)
            row = self._db.execute("SELECT code FROM codes WHERE room=? AND seat=?", (owner, seat)).fetchone()
            while row is None:
                code = "".join(secrets.choice(CODE_LETTERS) for _i in range(4))
                if not self._db.execute("SELECT 1 FROM codes WHERE code=?", (code,)).fetchone():
                    self._db.execute("INSERT INTO codes VALUES (?, ?, ?)", (code, owner, seat))
                    row = (code,)
        return row[0]

    def join(self, code: str) -> tuple[str, int]:
        """The room and seat of a short code (typed in any case, with spaces
        or a dash: ``"ab-cd"`` is ``ABCD``); :class:`RoomError` for a code
        no seat has."""
        typed = "".join(ch for ch in str(code).upper() if not ch.isspace() and ch != "-")
        row = self._db.execute("SELECT room, seat FROM codes WHERE code=?", (typed,)).fetchone()
        if row is None:
            raise RoomError(_("no seat has the code {code}: check it on your sheet, or ask your teacher")
                            .format(code=repr(typed)))
        return row[0], row[1]

    def results(self, room_id: str) -> list[list[Any]]:
        """The rows of ``results.csv`` for a room, one a seat
        (:data:`RESULT_COLUMNS`): the lesson (its name: :class:`Lesson`),
        the room, the game, the seat, who plays it, their opponents, the
        seat's result (``win``, ``loss``, ``draw``; empty while the game goes
        on) and score (its return), the players' moves (not chance's) and the
        winner's name (empty for a draw or a game that goes on)."""
        room, s = self.room(room_id), self.state(room_id)
        names = room.names()
        results, winners = outcome(s)
        moves = sum(p >= 0 for p, _a in self.moves(room_id))
        winner = " and ".join(names[i] for i in winners)
        return [[room.lesson or room.day, room_id, room.game, i, names[i],
                 " and ".join(n for j, n in enumerate(names) if j != i),
                 results[i], s.returns()[i] if s.is_terminal() else "", moves, winner] for i in range(len(names))]

    # -- the teacher's side ---------------------------------------------------------
    def summary(self, lesson: int | str | None = None) -> list[dict[str, Any]]:
        """A row a room of the current lesson (``lesson``: as :meth:`ids`):
        whose turn, moves so far, the result when over, whether it was ended."""
        rows = []
        for rid in self.ids(lesson):
            room, s = self.room(rid), self.state(rid)
            rows.append({"room": rid, "name": room.name, "game": room.game, "options": room.options,
                         "seats": list(room.seats), "names": room.names(), "moves": self.seq(rid),
                         "to_move": None if s.is_terminal() else s.current_player,
                         "over": s.is_terminal(), "ended": self.ended(rid),
                         "returns": [str(x) for x in s.returns()] if s.is_terminal() else None})
        return rows

    def export(self, folder: str | Path, lesson: int | str | None = None) -> tuple[Path, Path]:
        """``games.json`` (each room: game, options, seed, seats, the pupils'
        names, the lesson and its move list, which :meth:`replay` plays
        again) and ``results.csv`` (a row a seat: :data:`RESULT_COLUMNS`) in
        ``folder``, of the current lesson's rooms (``lesson``: as :meth:`ids`)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        games = []
        ids = self.ids(lesson)
        for rid in ids:
            room = self.room(rid)
            games.append({"room": rid, "name": room.name, "game": room.game, "options": room.options,
                          "seed": room.seed, "seats": list(room.seats), "pupils": room.names(),
                          "lesson": room.lesson,
                          "moves": [a for _player, a in self.moves(rid)]})
        gpath = folder / "games.json"
        gpath.write_text(json.dumps(games, ensure_ascii=False, indent=1) + "\n", "utf-8")
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(RESULT_COLUMNS)
        for rid in ids:
            w.writerows(self.results(rid))
        cpath = folder / "results.csv"
        cpath.write_text(out.getvalue(), "utf-8")
        return gpath, cpath


#: the letters of a seat's short code (:meth:`RoomStore.code`): capitals that no one reads as another
#: letter or a digit (no I, L, O; no S, Z, B, G, which read as 5, 2, 8, 6)
CODE_LETTERS = "ACDEFHJKMNPQRTUVWXY"

#: the columns of ``results.csv``: a row a seat (:meth:`RoomStore.results`)
RESULT_COLUMNS = ("lesson", "room", "game", "seat", "pupil", "opponent", "result", "score", "moves", "winner")


def outcome(state: State) -> tuple[list[str], list[int]]:
    """Each seat's result (``"win"``, ``"loss"``, ``"draw"``; ``""`` while
    the game goes on) and the winning seats (none for a draw, or while the
    game goes on): the seats with the best return win, and when every seat
    has it, it is a draw."""
    n = state.game.spec.num_players
    if not state.is_terminal():
        return [""] * n, []
    r = state.returns()
    winners = [i for i, x in enumerate(r) if x == max(r)]
    if len(winners) == n:
        return ["draw"] * n, []
    return ["win" if i in winners else "loss" for i in range(n)], winners


def replay(record: dict[str, Any]) -> list[State]:
    """The positions of an exported game (one entry of ``games.json``), each
    move checked as it is played again."""
    s = load(record["game"], **record.get("options", {})).new_initial_state()
    states = [s]
    for action in record["moves"]:
        s = s.apply(action)
        states.append(s)
    return states


def default_path() -> str | Path:
    """The class's store: ``$CARDLAB_ROOMS`` (``make play`` sets it to
    ``class-rooms.db`` at the top of the repository, so every page's kernel
    opens the same file; a school's: ``postgresql://…``, kept as it is
    written), else ``class-rooms.db`` in the working folder."""
    import os

    given = os.environ.get("CARDLAB_ROOMS", "").strip()
    return given if is_url(given) else Path(given or "class-rooms.db")


#: hosts no other machine can reach: a link never carries them
_HERE_ONLY = ("", "0.0.0.0", "::", "127.0.0.1", "localhost", "::1", "[::]", "[::1]")


def lan_address() -> str:
    """This machine's address on the class network: the address its route
    to other machines leaves from (found by the system's routing, no packet
    is sent); ``127.0.0.1`` when the machine has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))  # any address off this machine: only the route is looked up
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def class_url(host: str | None = None, port: int | str | None = 8866, path: str = "/") -> str:
    """The class app's address as a pupil's laptop opens it, for every link
    printed or shown: ``$PLAY_URL`` when the teacher gives one (a name, or
    an address behind a proxy); else ``http://HOST:PORT/PATH``, where HOST
    is ``host`` unless it is none, ``0.0.0.0`` or this machine only
    (``127.0.0.1``, ``localhost``): then :func:`lan_address`.

    >>> import os; os.environ.pop("PLAY_URL", None) and None
    >>> class_url("192.168.1.5", 8866)
    'http://192.168.1.5:8866/'
    >>> class_url("0.0.0.0") == f"http://{lan_address()}:8866/" != "http://0.0.0.0:8866/"
    True
    >>> os.environ["PLAY_URL"] = "http://cards.school.example"; class_url("127.0.0.1", 8866)
    'http://cards.school.example/'
    >>> del os.environ["PLAY_URL"]
    """
    import os
    from urllib.parse import urlsplit

    given = os.environ.get("PLAY_URL", "").strip()
    if given:
        return given if urlsplit(given).path else given + "/"
    host = (host or "").strip().lower()
    if host in _HERE_ONLY:
        host = lan_address()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    port_part = f":{port}" if port not in (None, "", 80, "80") else ""
    return f"http://{host}{port_part}{path if path.startswith('/') else '/' + path}"


def page_url() -> str:
    """The address of the page this kernel serves (Voila puts the request's
    host, port and path in the kernel's environment: ``SERVER_NAME``,
    ``SERVER_PORT``, ``SCRIPT_NAME``), as :func:`class_url` makes it: a
    link a pupil's laptop can open."""
    import os

    return class_url(os.environ.get("SERVER_NAME"), os.environ.get("SERVER_PORT") or 8866,
                     os.environ.get("SCRIPT_NAME") or "/")


def read_export(path: str | Path) -> list[dict[str, Any]]:
    """The games of a ``games.json`` made by :meth:`RoomStore.export`."""
    return json.loads(Path(path).read_text("utf-8"))

