"""The test a puzzle passes: at each of the mover's moves, one move is best
by at least a margin of the payoff range, by the solver's exact answer.

Two kinds of puzzle:

- ``"fair"``: the mover sees only their own cards.  The values are the exact
  fair hint (:func:`cardlab.analyse` with ``player=``: every arrangement of
  the cards the mover cannot see, solved with open hands and averaged by its
  probability).  The answer is *sure* when it is a best move in every one
  of those arrangements, else the puzzle is labelled "best on average".
- ``"open"``: all cards shown (the game's ``open_hands`` variant): the exact
  open-hands value ("find the win").

Every analysis has a node budget (:data:`NODES`), so a check never hangs;
an answer that is not exact within it fails the test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..core import State
from ..errors import CardlabError
from ..hidden import open_hands_copy
from ..i18n import _

__all__ = ["MARGINS", "NODES", "MAX_MOVES", "Step", "PuzzleCheckError", "only_move", "solution_line",
           "margin_of", "as_kind"]

#: the positions the exact analysis may search per move of a puzzle: the
#: fair hint of a late position needs up to about 40,000 here
NODES = 60_000
#: a solution line holds at most this many of the mover's moves
MAX_MOVES = 3

#: the margin per game and kind, as a share of the payoff range (-1 … 1,
#: so 1/4 is half a game): every other move must be worth at least this much
#: less than the answer.  Open hands: the values are game results (a win,
#: a draw, a loss, or their average over the chance draws still to come), so
#: a quarter of the range is "a win against at most a draw" or "a sure win
#: against a coin flip", the only-move of lichess's win-chance margin.  Fair:
#: an average over what the mover cannot see moves in smaller steps; a tenth
#: of the range (10 points of winning chance, the margin lichess asks of a
#: puzzle's only move) in the games where the hidden cards are few and the
#: values spread (Koi-koi Nobori, Mazemon, Toritsuki; Toritsuki's open ones
#: come from a variant: :data:`~cardlab.puzzles.generate.VARIANTS`);
#: an eighth in mipig and MONSTER CARDS, whose late fair values crowd
#: together (many moves within a few points of each other: a tenth would
#: keep near-ties that a pupil cannot tell apart).
MARGINS: dict[str, dict[str, Fraction]] = {
    "koinobori": {"open": Fraction(1, 4), "fair": Fraction(1, 10)},
    "mazemon": {"open": Fraction(1, 4), "fair": Fraction(1, 10)},
    "mipig": {"open": Fraction(1, 4), "fair": Fraction(1, 8)},
    "monster_cards": {"open": Fraction(1, 4), "fair": Fraction(1, 8)},
    "toritsuki": {"open": Fraction(1, 4), "fair": Fraction(1, 10)},
}
DEFAULT_MARGIN = {"open": Fraction(1, 4), "fair": Fraction(1, 10)}


class PuzzleCheckError(CardlabError):
    """A puzzle that does not pass the test (its answer is not the one
    best move by its margin at some move of its line)."""


@dataclass
class Step:
    """One of the mover's moves of a solution: the position, the move, the
    values of every legal move (exact Fractions), the smallest loss of
    another move as a share of the payoff range, and whether the move is
    best in every arrangement of the hidden cards (always for open puzzles);
    ``reply``: the moves after it up to the mover's next move."""

    state: State
    move: str
    values: dict[str, Fraction]
    gap: Fraction
    sure: bool
    reply: list[str] = field(default_factory=list)


def margin_of(game: str, kind: str) -> Fraction:
    return MARGINS.get(game, DEFAULT_MARGIN)[kind]


def as_kind(state: State, kind: str) -> State:
    """The position as the puzzle shows it: its open-hands copy for an open puzzle."""
    return open_hands_copy(state) if kind == "open" else state


def _analysis(state: State, nodes: int) -> Any:
    from ..analysis import analyse

    p = state.current_player
    if state.game.spec.perfect_information:
        return analyse(state, nodes=nodes)
    return analyse(state, player=p, nodes=nodes)


def _range(state: State) -> Fraction:
    spec = state.game.spec
    return Fraction(spec.max_utility) - Fraction(spec.min_utility)


def only_move(state: State, margin: Fraction, nodes: int = NODES, reasons: list[str] | None = None) -> Step | None:
    """The :class:`Step` of ``state`` when one move is best by ``margin`` of
    the payoff range in the exact analysis for the player to move (open or
    fair, as the state's game is), else ``None`` (also at a chance or
    terminal position, a simultaneous choice, a single legal move, or an
    answer that is not exact within ``nodes``: then ``"inexact"`` is added
    to ``reasons`` when given)."""
    if state.current_player < 0 or state.simultaneous() or len(state.legal_actions()) < 2:
        return None
    a = _analysis(state, nodes)
    if not a.exact or a.mix:
        if reasons is not None and not a.exact:
            reasons.append("inexact")
        return None
    values = {r["action"]: r["value"] for r in a.rows}
    ranked = sorted(values, key=values.get, reverse=True)
    best, second = ranked[0], ranked[1]
    gap = (values[best] - values[second]) / _range(state)
    if gap < margin:
        return None
    solved = a.samples[0]
    sure = all(v[best] == max(v.values()) for _w, v in solved) if solved else True
    return Step(state, best, values, gap, sure)


def _replies(state: State, mover: int, nodes: int) -> tuple[State, list[str]] | None:
    """The opponent's replies after the mover's move, each the first best
    move of the opponent's own exact analysis, up to the mover's next
    decision; ``None`` when the line cannot go on (a chance event, the end,
    a simultaneous choice or a reply that is not exact)."""
    moves: list[str] = []
    while state.current_player != mover:
        if state.current_player < 0 or state.simultaneous():
            return None
        if len(state.legal_actions()) == 1:
            move = state.legal_actions()[0]
        else:
            a = _analysis(state, nodes)
            if not a.exact:
                return None
            move = next(r["action"] for r in a.rows if r["best"])
        moves.append(move)
        state = state.apply(move)
    return state, moves


def solution_line(state: State, margin: Fraction, nodes: int = NODES, max_moves: int = MAX_MOVES,
                  reasons: list[str] | None = None) -> list[Step]:
    """The solution from ``state``: its first :class:`Step` (``[]`` when the
    position is no puzzle), then, while the opponent's replies lead back to
    the mover without a chance event, each next move of the mover that
    passes the same test (the line stops at the first that does not)."""
    mover = state.current_player
    steps: list[Step] = []
    while len(steps) < max_moves:
        step = only_move(state, margin, nodes, reasons if not steps else None)
        if step is None:
            break
        steps.append(step)
        after = state.apply(step.move)
        if after.is_terminal() or len(steps) == max_moves:
            break
        nxt = _replies(after, mover, nodes)
        if nxt is None:
            break
        state, step.reply = nxt
    return steps


def check(state: State, solution: list[str], margin: Fraction, nodes: int = NODES) -> list[Step]:
    """Re-verify a shipped solution: every move of the mover in
    ``solution`` (the replies between them as listed) is the one best move
    by ``margin``; raises :class:`PuzzleCheckError` naming the move."""
    mover = state.current_player
    steps: list[Step] = []
    for i, move in enumerate(solution):
        if state.current_player == mover:
            step = only_move(state, margin, nodes)
            if step is None or step.move != move:
                found = _("no single best move") if step is None else repr(step.move)
                raise PuzzleCheckError(_("move {i} of the solution, {move}, is not the only best move by the "
                                         "margin {margin}: the solver finds {found}").format(
                                             i=i + 1, move=repr(move), margin=margin, found=found))
            steps.append(step)
        state = state.apply(move)
    return steps
