"""Class tournaments in the room store (issue W, item 5): the tournament,
its rounds and their rooms are kept in the class's file (the tables
``tournaments`` and ``tournament_games`` of :mod:`cardlab.rooms`), so a
tournament survives a restart of the server.  Who plays whom:
:mod:`cardlab.tournament`.

Each game of a round is a room of the current lesson (two seats: the
pupils by name, or a pupil and the agent of the odd seat), with its links
and codes like any other.  :meth:`Tournaments.next_round` closes the
round and makes the next round's rooms in one call:

- when every game of the round is over, or its room was ended by the
  teacher, the results are recorded as they are;
- a game still going stops it (:class:`RoundNotOverError`, naming the
  rooms) unless the teacher forces the round: those rooms are ended and
  **their games count as draws** (so does a room removed from the lesson).

A round's results are recorded when it is closed: a room reset or played
on later changes nothing in the table.

>>> import tempfile, os
>>> from cardlab.rooms import RoomStore
>>> store = RoomStore(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> cup = Tournaments(store)
>>> t = cup.create(["Aiko", "Ben", "Chie"], game="koinobori", system="round_robin")
>>> [(p.first, p.second) for p in cup.rounds(t.id)[0]]
[('Ben', 'Aiko'), ('Chie', None)]
>>> rooms = cup.next_round(t.id, force=True)   # round 1's game is not over: forced, a draw
>>> [(p.first, p.second, p.score) for p in cup.rounds(t.id)[0]]
[('Ben', 'Aiko', Fraction(1, 2)), ('Chie', None, None)]
>>> [r.names() for r in rooms]
[['Aiko', 'Chie']]
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from typing import Sequence
from urllib.parse import urlencode

from .games import load
from .i18n import _
from .rooms import Room, RoomError, RoomStore, outcome
from .tournament import (DRAW, LOSS, SYSTEMS, WIN, Pairing, Standing, TournamentError, check_system, entrants,
                         round_robin, standings, swiss_round)

__all__ = ["Tournament", "Tournaments", "RoundNotOverError", "MAX_ROUNDS"]

#: the most rounds a tournament may have
MAX_ROUNDS = 30


class RoundNotOverError(TournamentError):
    """The next round was asked for while games of this one go on
    (``rooms``: theirs); ``force=True`` ends them and counts them as draws."""

    def __init__(self, message: str, rooms: Sequence[str]) -> None:
        super().__init__(message)
        self.rooms = list(rooms)


@dataclass(frozen=True)
class Tournament:
    """A class tournament: its number, name (``""``: :meth:`label` says
    "tournament 1"), system (:data:`cardlab.tournament.SYSTEMS`), game and
    options, how many rounds, the pupils (``entrants``, in the order typed:
    the places before the first round), the agent of the odd seat
    (``None``: a bye, or no odd seat), the seed of its rooms' deals, how
    many rounds are closed (results recorded) and how many made."""

    id: int
    name: str
    system: str
    game: str
    options: dict
    rounds: int
    entrants: tuple
    agent: str | None
    seed: int
    closed: int = 0
    made: int = 0

    @property
    def finished(self) -> bool:
        """Every round played and closed: the standings are final."""
        return self.closed >= self.rounds

    def label(self) -> str:
        return self.name or _("tournament {number}").format(number=self.id)

    def players(self) -> list[str]:
        """Who is paired: the pupils, and the agent when it takes the odd seat."""
        return list(self.entrants) + ([self.agent] if self.agent else [])


class Tournaments:
    """The tournaments of the class in ``store`` (its file keeps them)."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store

    # -- making one ---------------------------------------------------------------------------
    def create(self, names: Sequence[str], *, game: str, system: str = "swiss", rounds: int | None = None,
               options: dict | None = None, agent: str | None = None, name: str = "", seed: int = 0) -> Tournament:
        """A tournament of the pupils ``names`` (blank lines and repeats
        dropped) and its first round's rooms.  ``system``: ``"swiss"`` or
        ``"round_robin"``; ``rounds``: how many (a round robin: at most
        everyone against everyone, the default; a Swiss: at most
        :data:`MAX_ROUNDS`, by default enough to leave one pupil unbeaten:
        log2 of the pupils, rounded up); ``agent``: a level
        (:data:`cardlab.agents.LEVELS`) that takes the odd seat when the
        pupils are odd (``None``: a bye); the game must have two seats."""
        from .agents import LEVELS

        check_system(system)
        if agent is not None and agent not in LEVELS:
            raise TournamentError(_("the odd seat is a bye or a level ({levels}), not {agent}").format(
                levels=", ".join(LEVELS), agent=repr(agent)))
        pupils = entrants(names, agent)
        options = dict(options or {})
        seats = load(game, **options).spec.num_players
        if seats != 2:
            raise TournamentError(_("a tournament's games have two seats; {game} with these options has {count}")
                                  .format(game=game, count=seats))
        agent = agent if len(pupils) % 2 else None  # an even class needs no odd seat
        most = len(round_robin(pupils, agent)) if system == "round_robin" else MAX_ROUNDS
        rounds = (most if system == "round_robin" else max(1, math.ceil(math.log2(len(pupils))))) \
            if rounds is None else rounds
        if not (type(rounds) is int and 1 <= rounds <= most):
            raise TournamentError(_("a {system} of {n} pupils has 1 to {most} rounds, not {rounds}").format(
                system=_(SYSTEMS[system]), n=len(pupils), most=most, rounds=repr(rounds)))
        with self.store.transaction():
            tid = self.store.execute(
                "INSERT INTO tournaments (name, system, game, options, rounds, entrants, agent, seed, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (name.strip(), system, game, json.dumps(options, sort_keys=True), rounds,
                 json.dumps(pupils, ensure_ascii=False), agent, seed, time.time())).fetchone()[0]
        t = self.get(tid)
        self._make_round(t, 1, self._pairings(t, []))
        return self.get(tid)

    def _pairings(self, t: Tournament, played: list[list[Pairing]]) -> list[Pairing]:
        """Round ``len(played) + 1``'s games."""
        if t.system == "round_robin":
            return round_robin(list(t.entrants), t.agent)[len(played)]
        return swiss_round(t.players(), played, agent=t.agent)

    def _make_round(self, t: Tournament, number: int, games: list[Pairing]) -> list[Room]:
        """Claim round ``number`` (another page may have made it first:
        :class:`TournamentError`), then make a room for each of its games."""
        with self.store.transaction():
            made = self._made(t.id)
            if made != number - 1:
                raise TournamentError(_("round {number} of {tournament} was made already").format(
                    number=number, tournament=t.label()))
            for board, p in enumerate(games):
                self.store.execute("INSERT INTO tournament_games (tournament, round, board, first, second) "
                                   "VALUES (?, ?, ?, ?, ?)", (t.id, number, board, p.first, p.second))
        rooms = []
        for board, p in enumerate(games):
            if p.bye:
                continue
            pupils = [p.first, p.second]
            seats = ["person" if who != t.agent else who for who in pupils]
            seed = random.Random(f"{t.seed}:{t.id}:{number}:{board}").randrange(2**31)
            room = self.store.create(t.game, seats, options=t.options, seed=seed, name=" v ".join(pupils),
                                     pupils=pupils)
            with self.store.transaction():
                self.store.execute("UPDATE tournament_games SET room=? WHERE tournament=? AND round=? AND board=?",
                                   (room.id, t.id, number, board))
            rooms.append(room)
        return rooms

    # -- reading ------------------------------------------------------------------------------------
    def get(self, tid: int) -> Tournament:
        row = self.store.execute("SELECT id, name, system, game, options, rounds, entrants, agent, seed, closed "
                                 "FROM tournaments WHERE id=?", (tid,)).fetchone()
        if row is None:
            raise RoomError(_("there is no tournament {number}").format(number=tid))
        return Tournament(row[0], row[1], row[2], row[3], json.loads(row[4]), row[5], tuple(json.loads(row[6])),
                          row[7], row[8], row[9], self._made(tid))

    def all(self) -> list[Tournament]:
        """Every tournament of the class, the first first."""
        return [self.get(r[0]) for r in self.store.execute("SELECT id FROM tournaments ORDER BY id")]

    def _made(self, tid: int) -> int:
        return self.store.execute("SELECT COALESCE(MAX(round), 0) FROM tournament_games WHERE tournament=?",
                                  (tid,)).fetchone()[0]

    def rooms(self, tid: int, number: int) -> list[str | None]:
        """The rooms of round ``number``'s games, in the order of :meth:`rounds` (``None``: a bye)."""
        return [r[0] for r in self.store.execute("SELECT room FROM tournament_games WHERE tournament=? AND round=? "
                                                 "ORDER BY board", (tid, number))]

    def rounds(self, tid: int) -> list[list[Pairing]]:
        """Every round made so far, its games with their scores: a closed
        round's as recorded, the open round's live (a game over: its result;
        one going on: ``None``)."""
        t = self.get(tid)
        out = []
        for number in range(1, t.made + 1):
            games = []
            for first, second, room, score in self.store.execute(
                    "SELECT first, second, room, score FROM tournament_games WHERE tournament=? AND round=? "
                    "ORDER BY board", (tid, number)):
                p = Pairing(first, second)
                if second is not None:
                    p = p.played(score) if score is not None else self._live(p, room)
                games.append(p)
            out.append(games)
        return out

    def _live(self, p: Pairing, room_id: str | None) -> Pairing:
        """``p`` with its room's result when the game is over."""
        try:
            s = self.store.state(room_id)
        except RoomError:  # removed by the teacher
            return p
        if not s.is_terminal():
            return p
        results, _winners = outcome(s)
        return p.played({"win": WIN, "draw": DRAW, "loss": LOSS}[results[0]])

    # -- a pupil's link for the whole tournament -------------------------------------------------------
    def key(self, tid: int, name: str) -> str:
        """The key of ``name``'s tournament link (the store's HMAC, as a seat's key)."""
        return self.store.key(f"T{tid}", f"pupil:{name}")

    def check_key(self, tid: int, name: str, key: str) -> bool:
        return name in self.get(tid).entrants and self.store.check_key(f"T{tid}", f"pupil:{name}", key)

    def links(self, tid: int, base: str = "") -> list[tuple[str, str]]:
        """``(pupil, link)`` for each pupil: ``?room=T1&pupil=Aiko&key=…``,
        one link for the whole tournament, which opens the pupil's game of
        the latest round (:class:`cardlab.widgets.tournament.TournamentSeat`)."""
        return [(n, f"{base}?" + urlencode({"room": f"T{tid}", "pupil": n, "key": self.key(tid, n)}))
                for n in self.get(tid).entrants]

    def code(self, tid: int, name: str) -> str:
        """``name``'s short code for the whole tournament, typed on the join
        page like a seat's (:meth:`cardlab.rooms.RoomStore.join` gives
        ``("T1", i)``, ``i`` the pupil's place in :attr:`Tournament.entrants`)."""
        t = self.get(tid)
        if name not in t.entrants:
            raise TournamentError(_("{name} does not play in {tournament}").format(name=repr(name),
                                                                                  tournament=t.label()))
        return self.store.draw_code(f"T{tid}", t.entrants.index(name))

    def seat_of(self, tid: int, name: str) -> tuple[int, str | None, int | None]:
        """``(round, room, seat)`` of ``name``'s game in the latest round
        made (room and seat ``None``: a bye, or not made yet)."""
        number = self._made(tid)
        for first, second, room in self.store.execute(
                "SELECT first, second, room FROM tournament_games WHERE tournament=? AND round=?", (tid, number)):
            if name in (first, second):
                return number, room, (None if second is None or room is None else [first, second].index(name))
        return number, None, None

    def going(self, tid: int) -> list[str]:
        """The rooms of the open round whose game goes on (not over, not ended by the teacher)."""
        t = self.get(tid)
        if t.made == t.closed:
            return []
        out = []
        for rid in self.rooms(tid, t.made):
            try:
                if rid is not None and not self.store.ended(rid) and not self.store.state(rid).is_terminal():
                    out.append(rid)
            except RoomError:  # removed: nothing goes on there
                pass
        return out

    def standings(self, tid: int) -> list[Standing]:
        """The table now (the open round's finished games count already):
        :func:`cardlab.tournament.standings`."""
        t = self.get(tid)
        return standings(list(t.entrants), self.rounds(tid), t.system, agent=t.agent)

    # -- the next round ------------------------------------------------------------------------------
    def next_round(self, tid: int, *, force: bool = False) -> list[Room]:
        """Close the open round (record its results) and make the next
        round's rooms; ``[]`` after the last round (the standings are then
        final).  A game still going: :class:`RoundNotOverError`, unless
        ``force``: its room is ended and the game counts as a draw."""
        t = self.get(tid)
        if t.finished:
            raise TournamentError(_("{tournament} is over: its {n} rounds are played").format(
                tournament=t.label(), n=t.rounds))
        going = self.going(tid)
        if going and not force:
            raise RoundNotOverError(_("round {number}: the games in {rooms} go on; end them, or go on to the "
                                      "next round and count them as draws").format(
                                          number=t.made, rooms=", ".join(going)), going)
        for rid in going:
            self.store.end(rid)
        self._close(t)
        if t.made >= t.rounds:
            return []
        return self._make_round(t, t.made + 1, self._pairings(t, self.rounds(tid)))

    def _close(self, t: Tournament) -> None:
        """Record the open round's results (a game not over: a draw), once."""
        games = self.rounds(t.id)[t.made - 1]
        with self.store.transaction():
            if self.store.execute("SELECT closed FROM tournaments WHERE id=?", (t.id,)).fetchone()[0] != t.closed:
                raise TournamentError(_("round {number} of {tournament} was closed already").format(
                    number=t.made, tournament=t.label()))
            for board, p in enumerate(games):
                if not p.bye:
                    score = DRAW if p.score is None else p.score
                    self.store.execute("UPDATE tournament_games SET score=? WHERE tournament=? AND round=? "
                                       "AND board=?", (str(score), t.id, t.made, board))
            self.store.execute("UPDATE tournaments SET closed=? WHERE id=?", (t.made, t.id))
