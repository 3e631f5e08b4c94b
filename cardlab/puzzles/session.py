"""Solving puzzles one after another: the logic of a puzzle board, without a screen.

A :class:`Session` holds the pupil's Glicko-2 rating (:mod:`cardlab.glicko`),
the puzzle on the board and how far into its solution the pupil is.
:meth:`Session.answer` takes the pupil's move and says at once whether it is
right (and, for a wrong one, what it costs); the replies and the mover's
next moves then follow; at the end of a puzzle (solved, or a wrong move) the
pupil's and the puzzle's ratings are updated as one game between them.
:meth:`Session.next` picks the next puzzle: of the chosen theme, unsolved,
rated nearest the pupil.  :class:`cardlab.widgets.puzzle.PuzzleBoard` draws it.

>>> s = Session("mazemon")
>>> p = s.next()
>>> s.answer(p.answer).right
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core import State
from ..glicko import Glicko, attempt
from ..i18n import _
from .bank import Puzzle, PuzzleError, load

__all__ = ["Session", "Result", "PUZZLE_RD"]

#: the deviation a puzzle's starting rating is taken with (surer than a
#: newcomer's 350: it comes from which levels solve it)
PUZZLE_RD = 200.0


@dataclass
class Result:
    """What an answer did: ``right``; ``cost`` (how much less than the
    answer the move is worth, at the first move; 0 when right); ``played``
    the moves that followed (the answer, the replies) and ``done`` whether
    the puzzle is over (then ``rating`` is the pupil's new rating);
    ``position``: where the move was chosen (to name the moves as the
    board does, :func:`cardlab.render.action_label`)."""

    right: bool
    move: str
    best: str
    cost: Fraction = Fraction(0)
    played: list[str] = field(default_factory=list)
    done: bool = False
    rating: Glicko | None = None
    position: State | None = None


class Session:
    """A pupil solving the puzzles of ``game`` (only ``theme`` ones when given)."""

    def __init__(self, game: str, *, theme: str | None = None, kind: str | None = None,
                 rating: Glicko | None = None, path: Any = None) -> None:
        self.game = game
        self.puzzles = load(game, theme=theme, kind=kind, path=path)
        self.rating = rating or Glicko()
        self.puzzle_ratings: dict[str, Glicko] = {}
        self.history: list[dict[str, Any]] = []
        self.puzzle: Puzzle | None = None
        self.state: State | None = None
        self.step = 0  # index into the solution of the next move
        self.failed = False

    def puzzle_rating(self, p: Puzzle) -> Glicko:
        return self.puzzle_ratings.get(p.id) or Glicko(float(p.rating), PUZZLE_RD)

    def next(self, pid: str | None = None) -> Puzzle:
        """Put the next puzzle on the board (``pid``: that one): the unsolved
        one rated nearest the pupil (ties by id)."""
        if pid is not None:
            found = [p for p in self.puzzles if p.id == pid]
            if not found:
                raise PuzzleError(_("no puzzle {id} here").format(id=repr(pid)))
            p = found[0]
        else:
            tried = {h["puzzle"] for h in self.history}
            pool = [p for p in self.puzzles if p.id not in tried] or self.puzzles
            p = min(pool, key=lambda q: (abs(self.puzzle_rating(q).rating - self.rating.rating), q.id))
        self.puzzle, self.state, self.step, self.failed = p, p.state, 0, False
        return p

    @property
    def done(self) -> bool:
        return self.puzzle is None or self.step >= len(self.puzzle.solution) or self.failed

    def answer(self, move: str) -> Result:
        """The pupil plays ``move`` at the mover's turn (see the module doc)."""
        p, state = self.puzzle, self.state
        if p is None or state is None or self.done:
            raise PuzzleError(_("no puzzle is waiting for a move: pick the next one"))
        if move not in state.legal_actions():
            raise PuzzleError(_("{move} is not a legal move here; the moves are: {moves}").format(
                move=repr(move), moves=", ".join(state.legal_actions())))
        best = p.solution[self.step]
        right = move == best
        result = Result(right, move, best, Fraction(0) if right or self.step else p.cost(move), position=state)
        self.failed = not right
        # the solution goes on (the right move, the replies) up to the mover's next move or the end
        while self.step < len(p.solution):
            played = p.solution[self.step]
            result.played.append(played)
            state = state.apply(played)
            self.step += 1
            if state.current_player == p.mover and self.step < len(p.solution) and right:
                break
        self.state = state
        if self.done:
            result.done = True
            result.rating = self._rate(p, not self.failed)
        return result

    def _rate(self, p: Puzzle, solved: bool) -> Glicko:
        before = self.rating
        self.rating, self.puzzle_ratings[p.id] = attempt(before, self.puzzle_rating(p), solved)
        self.history.append({"puzzle": p.id, "solved": solved, "before": round(before.rating, 1),
                             "rating": round(self.rating.rating, 1)})
        return self.rating
