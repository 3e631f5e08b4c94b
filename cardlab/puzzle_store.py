"""Puzzle ratings and the puzzle of the lesson in the class store (issue U,
items 4 and 5): kept in the class's file (the tables of :data:`TABLES`,
through :meth:`cardlab.rooms.RoomStore.execute`, as
:mod:`cardlab.tournament_store` keeps its tournaments), so a pupil's rating
survives a restart of the server and goes on from lesson to lesson.

- Each attempt is a row: the lesson, the pupil (a name of the class's
  roster), the puzzle, the pupil's moves, right or wrong, when, and the
  pupil's and the puzzle's Glicko-2 ratings after it
  (:func:`cardlab.glicko.attempt`, as :class:`cardlab.puzzles.session.Session`
  rates one: a puzzle starts at its bank rating with deviation
  :data:`~cardlab.puzzles.session.PUZZLE_RD`, a pupil at 1500 ± 350).
- Right or wrong is decided here, from the pupil's moves and the puzzle's
  solution (a page cannot store "solved" for a wrong move).
- Only a pupil's first attempt at a puzzle is rated (as lichess does): trying
  it again after seeing the solution is stored, and changes no rating.
- One rating a pupil for all the games' puzzles.
- The puzzle of the lesson: the teacher picks one (an id; or a game and a
  theme, and the puzzle nearest the class's median rating not yet a puzzle of
  any lesson); each pupil opens it from one link (``?puzzle=lesson&pupil=NAME&key=…``,
  the same link in every lesson) or a code on the join page.

Bad input (an unknown puzzle id, a pupil not on the roster, a theme no
puzzle has, moves that are no answer) raises an error naming it, and
nothing is stored.

>>> import tempfile, os
>>> from cardlab.rooms import RoomStore
>>> store = RoomStore(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> _names = store.set_roster(["Aiko", "Ben"])
>>> book = PuzzleStore(store)
>>> p = book.set_lesson_puzzle(pid="mazemon-0001")
>>> a = book.record("Aiko", p.id, book.mover_moves(p))
>>> a.solved, a.rated, a.rating.rating > 1500
(True, True, True)
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass
from typing import Sequence
from urllib.parse import urlencode

from .glicko import Glicko, attempt
from .i18n import _
from .puzzles.bank import Puzzle, PuzzleError, UnknownPuzzleError, load, puzzle
from .puzzles.session import PUZZLE_RD
from .rooms import RoomStore

__all__ = ["PuzzleStore", "Attempt", "LessonPuzzle", "UnknownPupilError", "TABLES", "CODE_OWNER", "find", "game_of",
           "pupil_of"]

#: the tables the puzzles keep in the class's file
TABLES = (
    "CREATE TABLE IF NOT EXISTS puzzle_attempts (id INTEGER PRIMARY KEY, lesson INTEGER NOT NULL, "
    "pupil TEXT NOT NULL, game TEXT NOT NULL, puzzle TEXT NOT NULL, moves TEXT NOT NULL, solved INTEGER NOT NULL, "
    "rated INTEGER NOT NULL, at REAL NOT NULL, before REAL NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL, "
    "vol REAL NOT NULL, puzzle_rating REAL NOT NULL)",
    "CREATE TABLE IF NOT EXISTS puzzle_ratings (kind TEXT NOT NULL, name TEXT NOT NULL, rating REAL NOT NULL, "
    "rd REAL NOT NULL, vol REAL NOT NULL, PRIMARY KEY (kind, name))",
    "CREATE TABLE IF NOT EXISTS lesson_puzzles (id INTEGER PRIMARY KEY, lesson INTEGER NOT NULL, "
    "game TEXT NOT NULL, puzzle TEXT NOT NULL, theme TEXT, at REAL NOT NULL)",
)

#: the owner of a pupil's code for the puzzles (:meth:`cardlab.rooms.RoomStore.draw_code`): ``puzzle:NAME``
CODE_OWNER = "puzzle:"


class UnknownPupilError(PuzzleError, LookupError):
    """A pupil who is not on the class's roster."""


@dataclass(frozen=True)
class Attempt:
    """One attempt: its lesson (number), the pupil, the puzzle (game and
    id), the pupil's ``moves`` (the mover's moves they played: the last one
    wrong, or all right), ``solved``, ``rated`` (the pupil's first attempt at
    it), when (``at``), the pupil's rating before and after (``rating``) and
    the puzzle's rating after."""

    id: int
    lesson: int
    pupil: str
    game: str
    puzzle: str
    moves: tuple
    solved: bool
    rated: bool
    at: float
    before: float
    rating: Glicko
    puzzle_rating: float


@dataclass(frozen=True)
class LessonPuzzle:
    """The puzzle of a lesson: the puzzle, the theme it was picked by
    (``None``: none; the pupils' next puzzles have it too) and the lesson."""

    puzzle: Puzzle
    theme: str | None
    lesson: int


def game_of(pid: str) -> str:
    """The game of a puzzle id (ids are ``GAME-0001``); :class:`UnknownPuzzleError` when it names none."""
    from .games import names

    game = str(pid).rsplit("-", 1)[0]
    if game not in names():
        raise UnknownPuzzleError(_("no puzzle {id}: a puzzle id is a game and a number, like {example}").format(
            id=repr(pid), example="mipig-0001"))
    return game


def find(pid: str) -> Puzzle:
    """The puzzle with id ``pid`` of the shipped banks."""
    return puzzle(game_of(pid), pid)


class PuzzleStore:
    """The puzzles' side of the class in ``store`` (its file keeps them)."""

    def __init__(self, store: RoomStore) -> None:
        self.store = store
        with store.transaction():  # two servers opening the class at once: one makes the tables
            for sql in TABLES:
                store.execute(sql)

    # -- ratings --------------------------------------------------------------------------
    def _rating(self, kind: str, name: str) -> Glicko | None:
        row = self.store.execute("SELECT rating, rd, vol FROM puzzle_ratings WHERE kind=? AND name=?",
                                 (kind, name)).fetchone()
        return None if row is None else Glicko(*row)

    def rating(self, pupil: str) -> Glicko:
        """The pupil's puzzle rating (a newcomer: 1500 ± 350)."""
        return self._rating("pupil", pupil) or Glicko()

    def puzzle_rating(self, p: Puzzle) -> Glicko:
        """The puzzle's rating (before any attempt: its bank rating, as a :class:`Session` takes it)."""
        return self._rating("puzzle", p.id) or Glicko(float(p.rating), PUZZLE_RD)

    def puzzle_ratings(self) -> dict[str, Glicko]:
        """Every puzzle's stored rating (those attempted), by id."""
        return {r[0]: Glicko(*r[1:]) for r in self.store.execute(
            "SELECT name, rating, rd, vol FROM puzzle_ratings WHERE kind='puzzle'")}

    def median(self, names: Sequence[str] | None = None) -> float:
        """The class's median puzzle rating (``names``: default the roster; 1500 for an empty class)."""
        names = self.store.roster() if names is None else list(names)
        return statistics.median([self.rating(n).rating for n in names]) if names else 1500.0

    # -- attempts -------------------------------------------------------------------------
    @staticmethod
    def mover_moves(p: Puzzle) -> list[str]:
        """The moves of ``p``'s solution the pupil must find (:attr:`Puzzle.mover_moves`)."""
        return p.mover_moves

    def _judge(self, p: Puzzle, moves: Sequence[str]) -> bool:
        """Whether ``moves`` (the pupil's) solve ``p``: all right; or the last one wrong (and legal there)."""
        wanted, s, k = self.mover_moves(p), p.state, 0
        moves = list(moves)
        if not moves or not all(isinstance(m, str) for m in moves):
            raise PuzzleError(_("an attempt needs the pupil's moves, not {moves}").format(moves=repr(moves)))
        for m in p.solution:
            if s.current_player == p.mover:
                if k == len(moves):
                    raise PuzzleError(_("puzzle {id} is not over after the moves {moves}").format(
                        id=p.id, moves=", ".join(moves)))
                if moves[k] != m:
                    if moves[k] not in s.legal_actions():
                        raise PuzzleError(_("{move} is not a legal move here; the moves are: {moves}").format(
                            move=repr(moves[k]), moves=", ".join(s.legal_actions())))
                    if k != len(moves) - 1:
                        raise PuzzleError(_("puzzle {id} was over at the wrong move {move}").format(
                            id=p.id, move=moves[k]))
                    return False
                k += 1
            s = s.apply(m)
        if k != len(moves):
            raise PuzzleError(_("puzzle {id} is solved after {n} moves; more were given").format(
                id=p.id, n=len(wanted)))
        return True

    def record(self, pupil: str, pid: str, moves: Sequence[str]) -> Attempt:
        """Store ``pupil``'s attempt at puzzle ``pid`` (``moves``: the mover's
        moves they played; right or wrong is judged here) in the current
        lesson, with both ratings after it; the attempt."""
        if pupil not in self.store.roster():
            raise UnknownPupilError(_("{name} is not on the class's list; the pupils are: {names}").format(
                name=repr(pupil), names=", ".join(self.store.roster()) or "-"))
        p = find(pid)
        solved = self._judge(p, moves)
        lesson = self.store.lesson().id
        with self.store.transaction():  # both ratings read and written in one step (two pupils may answer at once)
            rated = not self.store.execute("SELECT 1 FROM puzzle_attempts WHERE pupil=? AND puzzle=? AND rated=1",
                                           (pupil, p.id)).fetchone()
            before, was = self.rating(pupil), self.puzzle_rating(p)
            after, theirs = attempt(before, was, solved) if rated else (before, was)
            for kind, name, r in (("pupil", pupil, after), ("puzzle", p.id, theirs)):
                self.store.execute("INSERT INTO puzzle_ratings VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, name) "
                                   "DO UPDATE SET rating=excluded.rating, rd=excluded.rd, vol=excluded.vol",
                                   (kind, name, r.rating, r.rd, r.vol))
            row = self.store.execute(
                "INSERT INTO puzzle_attempts (lesson, pupil, game, puzzle, moves, solved, rated, at, before, rating, "
                "rd, vol, puzzle_rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (lesson, pupil, p.game, p.id, json.dumps(list(moves)), int(solved), int(rated), time.time(),
                 before.rating, after.rating, after.rd, after.vol, theirs.rating)).fetchone()[0]
        return self.attempts(where="id=?", params=(row,))[0]

    def attempts(self, pupil: str | None = None, lesson: int | None = None, *, where: str = "",
                 params: Sequence = ()) -> list[Attempt]:
        """The attempts (of ``pupil``, in lesson ``lesson`` when given), the first first."""
        cond, args = ([where] if where else []), list(params)
        for column, value in (("pupil", pupil), ("lesson", lesson)):
            if value is not None:
                cond.append(f"{column}=?")
                args.append(value)
        rows = self.store.execute(
            "SELECT id, lesson, pupil, game, puzzle, moves, solved, rated, at, before, rating, rd, vol, puzzle_rating "
            "FROM puzzle_attempts" + (" WHERE " + " AND ".join(cond) if cond else "") + " ORDER BY id", args)
        return [Attempt(r[0], r[1], r[2], r[3], r[4], tuple(json.loads(r[5])), bool(r[6]), bool(r[7]), r[8], r[9],
                        Glicko(r[10], r[11], r[12]), r[13]) for r in rows]

    def tried(self, pupil: str) -> list[str]:
        """The puzzles ``pupil`` has tried, in any lesson."""
        return list(dict.fromkeys(a.puzzle for a in self.attempts(pupil)))

    def history(self, pupil: str) -> list[tuple[int, int, int, float]]:
        """``(lesson, attempts, solved, rating at its end)`` for each lesson ``pupil`` tried puzzles in."""
        out: dict[int, list] = {}
        for a in self.attempts(pupil):
            row = out.setdefault(a.lesson, [a.lesson, 0, 0, 0.0])
            row[1] += 1
            row[2] += a.solved
            row[3] = a.rating.rating
        return [tuple(r) for r in out.values()]

    # -- the puzzle of the lesson ---------------------------------------------------------
    def set_lesson_puzzle(self, *, game: str | None = None, theme: str | None = None,
                          pid: str | None = None) -> Puzzle:
        """Make ``pid`` the puzzle of the current lesson; without an id, the
        puzzle of ``game`` (with ``theme``: a theme key or the rule id it
        teaches) rated nearest the class's median, of those not yet a puzzle
        of any lesson (all of them once every one was)."""
        theme = theme or None
        if pid:
            p = find(pid)
            if game is not None and p.game != game:
                raise UnknownPuzzleError(_("puzzle {id} is not a puzzle of {game}").format(id=pid, game=game))
            if theme is not None and theme not in p.themes and theme not in p.rules:
                raise UnknownPuzzleError(_("puzzle {id} does not have the theme {theme}").format(
                    id=pid, theme=repr(theme)))
        elif game is None:
            raise PuzzleError(_("choose a game, or type a puzzle id"))
        else:
            pool = load(game, theme=theme)  # a theme no puzzle has: UnknownPuzzleError
            used = {r[0] for r in self.store.execute("SELECT puzzle FROM lesson_puzzles")}
            pool = [q for q in pool if q.id not in used] or pool
            median = self.median()
            p = min(pool, key=lambda q: (abs(self.puzzle_rating(q).rating - median), q.id))
        lesson = self.store.lesson().id
        with self.store.transaction():
            self.store.execute("INSERT INTO lesson_puzzles (lesson, game, puzzle, theme, at) VALUES (?, ?, ?, ?, ?)",
                               (lesson, p.game, p.id, theme, time.time()))
        return p

    def lesson_puzzle(self, lesson: int | None = None) -> LessonPuzzle | None:
        """The puzzle of the current lesson (``lesson``: of that one), the last one set; ``None``: none yet."""
        number = self.store.lesson().id if lesson is None else lesson
        row = self.store.execute("SELECT puzzle, theme FROM lesson_puzzles WHERE lesson=? ORDER BY id DESC",
                                 (number,)).fetchone()
        return None if row is None else LessonPuzzle(find(row[0]), row[1], number)

    # -- a pupil's link and code ------------------------------------------------------------
    def key(self, pupil: str) -> str:
        """The key of ``pupil``'s puzzle link (the store's HMAC, as a seat's key)."""
        return self.store.key("puzzle", f"pupil:{pupil}")

    def check_key(self, pupil: str, key: str) -> bool:
        return pupil in self.store.roster() and self.store.check_key("puzzle", f"pupil:{pupil}", key)

    def link(self, pupil: str, base: str = "") -> str:
        """``pupil``'s link to the puzzle of the lesson (the same in every lesson)."""
        return f"{base}?" + urlencode({"puzzle": "lesson", "pupil": pupil, "key": self.key(pupil)})

    def code(self, pupil: str) -> str:
        """``pupil``'s short code, typed on the join page like a seat's."""
        if pupil not in self.store.roster():
            raise UnknownPupilError(_("{name} is not on the class's list; the pupils are: {names}").format(
                name=repr(pupil), names=", ".join(self.store.roster()) or "-"))
        return self.store.draw_code(CODE_OWNER + pupil, 0)


def pupil_of(owner: str) -> str | None:
    """The pupil whose code's owner (:meth:`cardlab.rooms.RoomStore.join`) is ``owner``; ``None``: not a puzzle code."""
    return owner[len(CODE_OWNER):] if owner.startswith(CODE_OWNER) else None

