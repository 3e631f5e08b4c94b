"""Puzzles from the solver: find the one good move, with what you can see.

Made from seeded games (:mod:`cardlab.puzzles.generate`), each kept only when
the mover's exact analysis has one best move and every other move loses at
least a stated margin of the payoff range, at each of the mover's moves of
its solution (:mod:`cardlab.puzzles.check`); tagged with themes and the rule
ids they teach (:mod:`cardlab.puzzles.themes`); shipped as data in
``cardlab/data/puzzles/<game>.json`` and read with :func:`load`
(:mod:`cardlab.puzzles.bank`).  Ratings of pupils and puzzles:
:mod:`cardlab.glicko`.

>>> import cardlab.puzzles
>>> p = cardlab.puzzles.load("mazemon")[0]
>>> p.answer == p.solution[0] and p.rating > 0
True
"""

from typing import Any

from ..i18n import _
from .bank import (BankError, Puzzle, PuzzleError, UnknownPuzzleError, bank_path, load, puzzle, read_bank,
                   write_bank)
from .check import MARGINS, NODES, PuzzleCheckError, check, margin_of, solution_line
from .text import explanation, move_words
from .themes import THEMES, Theme, theme_names

__all__ = ["Puzzle", "load", "puzzle", "read_bank", "write_bank", "bank_path", "verify", "PuzzleError",
           "BankError", "UnknownPuzzleError", "PuzzleCheckError", "MARGINS", "NODES", "THEMES", "Theme",
           "theme_names", "solution_line", "margin_of", "explanation", "move_words"]


def verify(p: Puzzle, nodes: int = NODES) -> None:
    """Re-verify a puzzle with the solver: at each of the mover's moves of
    its solution, the move is the one best move by the puzzle's margin, and
    the values its explanation says (``values``, ``line``) are the solver's
    (raises :class:`PuzzleCheckError` otherwise)."""
    steps = check(p.state, list(p.solution), p.margin, nodes)
    for name, stored, found in [("values", p.values, steps[0].values),
                                ("line", p.line, tuple(s.values[s.move] for s in steps))]:
        if stored and stored != found:
            raise PuzzleCheckError(_("puzzle {id}: field {field} is {stored}, but the solver finds {found}").format(
                id=p.id, field=repr(name), stored=_show(stored), found=_show(found)))


def _show(values: Any) -> str:
    items = values.items() if isinstance(values, dict) else enumerate(values)
    return ", ".join(f"{k}: {v}" for k, v in items)
