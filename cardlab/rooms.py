"""Game rooms that several pages share (issue R): the store.

Each Voila page runs in its own kernel, so a room cannot live in one
page's memory.  It lives in a SQLite database on the teacher's machine
(the standard library's ``sqlite3``, WAL mode, so readers never wait for a
writer): the room (game, options, seed, who sits where) and its moves,
numbered.  The position is never stored, only replayed from the moves,
so a room survives the server (or the machine) stopping: open the same
file again and every room goes on from its last move.

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
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .core import CHANCE, State, sample_chance
from .games import load
from .errors import CardlabError
from .i18n import _

__all__ = ["RoomStore", "Room", "StaleMoveError", "RoomError", "replay", "read_export", "default_path", "class_url",
           "lan_address", "page_url", "outcome", "RESULT_COLUMNS"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL, pupils TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, player INTEGER NOT NULL,
    action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, seq));
"""


class RoomError(CardlabError, LookupError):
    """A room or a key that does not exist."""


class StaleMoveError(CardlabError, RuntimeError):
    """A move numbered ``seq`` when the room is already past it (another page moved first)."""


@dataclass(frozen=True)
class Room:
    """One room: its id and name, the game and options, the seed of its
    chance events, who sits in each seat (``"person"`` or an agent), the
    pupils' names by seat (``pupils``; an agent's seat: its name) and the
    day it was made (``day``, ``YYYY-MM-DD``: the lesson it was made in)."""

    id: str
    name: str
    game: str
    options: dict
    seed: int
    seats: tuple
    pupils: tuple = ()
    day: str = ""

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


class RoomStore:
    """The rooms of one class, in the SQLite file ``path`` (made when missing)."""

    def __init__(self, path: str | Path, timeout: float = 10.0) -> None:
        self.path, self._timeout = str(path), timeout
        # one connection a thread (a page's poll and its agents run in threads of their
        # own: a transaction must not be shared between them)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._add_column("rooms", "pupils", "TEXT NOT NULL DEFAULT '[]'")  # a store made before names were kept
        self._db.execute("INSERT OR IGNORE INTO meta VALUES ('secret', ?)", (secrets.token_hex(16),))
        self._secret = self._db.execute("SELECT value FROM meta WHERE key='secret'").fetchone()[0].encode()
        self._rooms: dict[str, Room] = {}

    def _add_column(self, table: str, column: str, kind: str) -> None:
        """Give an older store's ``table`` the ``column`` it lacks (two pages may both try: one does)."""
        if column not in [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]:
            try:
                self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc):
                    raise

    @property
    def _db(self) -> sqlite3.Connection:
        """This thread's connection to the file (made at its first use)."""
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=self._timeout, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
            with self._lock:
                self._connections.append(db)
        return db

    def close_thread(self) -> None:
        """Close this thread's connection (a thread that ends, like an agent's move)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            with self._lock:
                if db in self._connections:
                    self._connections.remove(db)
            db.close()
            self._local.db = None

    def close(self) -> None:
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
        self._local = threading.local()

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
            self._db.execute("INSERT INTO rooms (id, name, game, options, seed, seats, created, pupils) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (room_id, name or room_id, game, json.dumps(options, sort_keys=True), seed,
                              json.dumps(list(seats)), time.time(), json.dumps(pupils, ensure_ascii=False)))
        self.draw_chance(room_id)
        return self.room(room_id)

    def pairings(self, game: str, names: Sequence[str], *, options: dict | None = None, seed: int = 0,
                 odd: str = "heuristic") -> list[Room]:
        """A round of two-seat rooms for a list of pupils: neighbours in the
        list play each other; with an odd number the last plays ``odd`` (a
        level such as ``"club"`` or another agent: :data:`cardlab.agents.NAMES`)."""
        rooms = []
        names = list(names)
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
            row = self._db.execute("SELECT id, name, game, options, seed, seats, pupils, created FROM rooms "
                                   "WHERE id=?", (room_id,)).fetchone()
            if row is None:
                ids = self.ids()
                if not ids:
                    raise RoomError(_("there is no room {room}; the rooms are: none").format(room=repr(room_id)))
                raise RoomError(_("there is no room {room}; the rooms are: {rooms}")
                                .format(room=repr(room_id), rooms=", ".join(ids)))
            room = Room(row[0], row[1], row[2], json.loads(row[3]), row[4], tuple(json.loads(row[5])),
                        tuple(json.loads(row[6])), time.strftime("%Y-%m-%d", time.localtime(row[7])))
            self._rooms[room_id] = room
        return room

    def ids(self) -> list[str]:
        return [r[0] for r in self._db.execute("SELECT id FROM rooms ORDER BY created, id")]

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
        s = self.room(room_id).load().new_initial_state()
        for _player, action in self.moves(room_id):
            s = s._apply(action)  # each was checked when stored
        return s

    def play(self, room_id: str, seq: int, action: str) -> State:
        """Store ``action`` as move ``seq`` if ``seq`` is the next number and
        the action is legal there (then draw the chance events after it);
        the position after them.  Raises :class:`StaleMoveError` when another
        page stored move ``seq`` first, :class:`~cardlab.IllegalActionError`
        for an illegal move; nothing is stored then."""
        with self._write():
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
            with self._write():
                n = self.seq(room_id)
                s = self.state(room_id)
                if s.current_player != CHANCE:
                    return s
                action = sample_chance(s, random.Random(f"{room.seed}:{n}"))
                self._db.execute("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (room_id, n, CHANCE, action, time.time()))

    def agent_to_move(self, state: State, room_id: str) -> str | None:
        """The agent in the seat to move in ``state`` (a position of the
        room), or None (a person, chance, or the game is over)."""
        if state.is_terminal() or state.current_player < 0:
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

    def _write(self):
        """A write transaction that takes the database's lock at once (so
        the check of the move number and the insert are one step)."""
        db = self._db

        class _Tx:
            def __enter__(self_inner):
                db.execute("BEGIN IMMEDIATE")

            def __exit__(self_inner, kind, value, tb):
                db.execute("COMMIT" if kind is None else "ROLLBACK")
                return False

        return _Tx()

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

    def results(self, room_id: str) -> list[list[Any]]:
        """The rows of ``results.csv`` for a room, one a seat
        (:data:`RESULT_COLUMNS`): the lesson (the day the room was made),
        the room, the game, the seat, who plays it, their opponents, the
        seat's result (``win``, ``loss``, ``draw``; empty while the game goes
        on) and score (its return), the players' moves (not chance's) and the
        winner's name (empty for a draw or a game that goes on)."""
        room, s = self.room(room_id), self.state(room_id)
        names = room.names()
        results, winners = outcome(s)
        moves = sum(p >= 0 for p, _a in self.moves(room_id))
        winner = " and ".join(names[i] for i in winners)
        return [[room.day, room_id, room.game, i, names[i], " and ".join(n for j, n in enumerate(names) if j != i),
                 results[i], s.returns()[i] if s.is_terminal() else "", moves, winner] for i in range(len(names))]

    # -- the teacher's side ---------------------------------------------------------
    def summary(self) -> list[dict[str, Any]]:
        """A row a room: whose turn, moves so far, the result when over."""
        rows = []
        for rid in self.ids():
            room, s = self.room(rid), self.state(rid)
            rows.append({"room": rid, "name": room.name, "game": room.game, "options": room.options,
                         "seats": list(room.seats), "names": room.names(), "moves": self.seq(rid),
                         "to_move": None if s.is_terminal() else s.current_player,
                         "over": s.is_terminal(),
                         "returns": [str(x) for x in s.returns()] if s.is_terminal() else None})
        return rows

    def export(self, folder: str | Path) -> tuple[Path, Path]:
        """``games.json`` (each room: game, options, seed, seats, the pupils'
        names and its move list, which :meth:`replay` plays again) and
        ``results.csv`` (a row a seat: :data:`RESULT_COLUMNS`) in ``folder``."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        games = []
        for rid in self.ids():
            room = self.room(rid)
            games.append({"room": rid, "name": room.name, "game": room.game, "options": room.options,
                          "seed": room.seed, "seats": list(room.seats), "pupils": room.names(),
                          "moves": [a for _player, a in self.moves(rid)]})
        gpath = folder / "games.json"
        gpath.write_text(json.dumps(games, ensure_ascii=False, indent=1) + "\n", "utf-8")
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(RESULT_COLUMNS)
        for rid in self.ids():
            w.writerows(self.results(rid))
        cpath = folder / "results.csv"
        cpath.write_text(out.getvalue(), "utf-8")
        return gpath, cpath


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


def default_path() -> Path:
    """The class's store: ``$CARDLAB_ROOMS`` (``make play`` sets it to
    ``class-rooms.db`` at the top of the repository, so every page's kernel
    opens the same file), else ``class-rooms.db`` in the working folder."""
    import os

    return Path(os.environ.get("CARDLAB_ROOMS") or "class-rooms.db")


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

