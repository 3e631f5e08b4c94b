"""The shipped puzzle banks (``cardlab/data/puzzles/<game>.json``) and the
:class:`Puzzle` objects :func:`load` reads from them.

A bank file is JSON: ``{"format": 1, "game": …, "generated": {figures of the
run}, "puzzles": [record, …]}``; a record holds ``id``, ``kind`` ("fair":
the mover sees only their cards; "open": all cards shown), ``label``
("sure", or "best_on_average": the answer is best on average over the
hidden cards, not in every arrangement), ``position`` (``State.to_dict``),
``mover``, ``solution`` (the mover's move first, then the replies and the
mover's next moves), ``themes`` (keys of :mod:`cardlab.puzzles.themes`),
``margin`` and ``gap`` (Fractions as text: the margin the test asks and the
smallest one found, shares of the payoff range), ``values`` (each first
move's exact value), ``line`` (the exact value of each of the mover's moves
of the solution, in order), ``rating`` (the starting rating) and ``source``
(the seeded game it came from).  The explanation is not stored: it is made
from these fields when it is shown, in the page's language, naming the moves
with the board's words (:mod:`cardlab.puzzles.text`).  A bank of format 1
(with a stored ``explanation`` in notation, without ``line``) is still read;
its stored explanation is not shown.  A malformed file is refused with an
error naming the file, the puzzle and the field.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any

from ..core import State
from ..errors import CardlabError
from ..i18n import _, pgettext
from .themes import theme_names

__all__ = ["Puzzle", "load", "puzzle", "read_bank", "bank_path", "PuzzleError", "BankError",
           "UnknownPuzzleError", "FIELDS", "write_bank"]

FORMAT = 2
#: the fields of a record and the JSON type each must have
FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str, "kind": str, "label": str, "position": dict, "mover": int, "solution": list, "themes": list,
    "margin": str, "gap": str, "values": dict, "line": list, "rating": (int, float), "source": dict,
}
#: the fields of each format still read (format 1 stored the explanation as prose in notation)
FORMATS: dict[int, dict[str, type | tuple[type, ...]]] = {
    1: {**{k: v for k, v in FIELDS.items() if k != "line"}, "explanation": dict},
    FORMAT: FIELDS,
}


class PuzzleError(CardlabError, ValueError):
    """Base of the puzzle bank's errors."""


class BankError(PuzzleError):
    """A bank file that is malformed; the message names the file, the puzzle and the field."""


class UnknownPuzzleError(PuzzleError, KeyError):
    """A puzzle id or theme that no puzzle of the bank has."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True, eq=False)
class Puzzle:
    """A puzzle: its ``id``, the position ``state`` (the mover to move;
    in the open-hands game for an open puzzle), the ``solution`` (the
    mover's move first), its ``themes`` and starting ``rating``."""

    id: str
    game: str
    kind: str
    label: str
    state: State
    solution: tuple[str, ...]
    themes: tuple[str, ...]
    rating: float
    margin: Fraction
    gap: Fraction
    values: dict[str, Fraction] = field(repr=False)
    line: tuple[Fraction, ...] = field(repr=False, default=())
    source: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def mover(self) -> int:
        return self.state.current_player

    @property
    def positions(self) -> list[State]:
        """The position before each move of the solution."""
        s, out = self.state, []
        for m in self.solution:
            out.append(s)
            s = s.apply(m)
        return out

    @property
    def mover_moves(self) -> list[str]:
        """The moves of the solution the solver must find (the mover's, not the replies)."""
        return [m for m, s in zip(self.solution, self.positions) if s.current_player == self.mover]

    @property
    def answer(self) -> str:
        """The move the pupil must find."""
        return self.solution[0]

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids of the puzzle's themes."""
        names = theme_names(self.game)
        return tuple(names[t].rule for t in self.themes)

    def explanation(self, language: str | None = None) -> str:
        """Why the answer is the one good move, in ``language`` (default:
        cardlab's), the moves named as the board names them for the mover
        (:func:`cardlab.puzzles.text.explanation`)."""
        from .text import explanation

        return explanation(self, language)

    def cost(self, move: str) -> Fraction:
        """How much less than the answer ``move`` is worth (0 for the answer)."""
        if move not in self.values:
            raise PuzzleError(_("{move} is not a legal move of puzzle {id}; the moves are: {moves}").format(
                move=repr(move), id=self.id, moves=", ".join(self.values)))
        return self.values[self.answer] - self.values[move]


def bank_path(game: str) -> Path:
    """Where the shipped bank of ``game`` is."""
    return Path(str(resources.files("cardlab.data") / "puzzles" / f"{game}.json"))


def _bad(path: Any, where: str, problem: str) -> BankError:
    return BankError(_("{file}: {where}: {problem}").format(file=path, where=where, problem=problem))


def _check_record(path: Any, i: int, r: Any, fmt: int = FORMAT) -> None:
    if not isinstance(r, dict):
        raise _bad(path, _("puzzle {n}").format(n=i + 1), _("a puzzle must be an object, not {type}").format(
            type=type(r).__name__))
    where = _("puzzle {id}").format(id=repr(r.get("id", i + 1)))
    for name, kind in FORMATS[fmt].items():
        if name not in r:
            raise _bad(path, where, _("field {field} is missing").format(field=repr(name)))
        if not isinstance(r[name], kind) or isinstance(r[name], bool):
            raise _bad(path, where, _("field {field} has the wrong type ({type})").format(
                field=repr(name), type=type(r[name]).__name__))
    if r["kind"] not in ("fair", "open"):
        raise _bad(path, where, _("field 'kind' must be 'fair' or 'open', not {value}").format(value=repr(r["kind"])))
    if not r["solution"] or not all(isinstance(m, str) for m in r["solution"]):
        raise _bad(path, where, _("field 'solution' must be a non-empty list of moves"))
    for name, value in [("margin", r["margin"]), ("gap", r["gap"]), *(("line", v) for v in r.get("line", ()))]:
        try:
            Fraction(value)
        except (ValueError, TypeError, ZeroDivisionError):
            raise _bad(path, where, _("field {field} is not a fraction: {value}").format(
                field=repr(name), value=repr(value))) from None


def read_bank(path: str | Path, game: str | None = None) -> dict[str, Any]:
    """The bank in ``path``, checked (:class:`BankError` names the file,
    the puzzle and the field of the first problem)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BankError(_("{file}: cannot read the bank: {error}").format(file=path, error=exc.strerror)) from None
    except json.JSONDecodeError as exc:
        raise BankError(_("{file}: not JSON: {error}").format(file=path, error=str(exc))) from None
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        raise _bad(path, _("the file"), _("a bank is an object with a list 'puzzles'"))
    if data.get("format") not in FORMATS or isinstance(data.get("format"), bool):
        raise _bad(path, _("the file"), _("field 'format' must be {format}, not {value}").format(
            format=pgettext("alternatives", " or ").join(str(f) for f in FORMATS), value=repr(data.get("format"))))
    if game is not None and data.get("game") != game:
        raise _bad(path, _("the file"), _("field 'game' must be {game}, not {value}").format(
            game=repr(game), value=repr(data.get("game"))))
    for i, r in enumerate(data["puzzles"]):
        _check_record(path, i, r, data["format"])
    return data


@functools.lru_cache(maxsize=32)
def _game(game: str, options: str) -> Any:
    """The game of a position's options (JSON text), made once."""
    from ..games import load as load_game

    return load_game(game, **json.loads(options))


def from_record(game: str, r: dict[str, Any], path: Any = "") -> Puzzle:
    """The :class:`Puzzle` of a bank record (its position loaded and checked)."""
    where = _("puzzle {id}").format(id=repr(r["id"]))
    try:
        options = r["position"].get("options", {})
        state = _game(game, json.dumps(options, sort_keys=True)).state_from_dict(r["position"])
    except CardlabError as exc:
        raise _bad(path, where, _("field 'position': {error}").format(error=exc)) from None
    if state.current_player != r["mover"]:
        raise _bad(path, where, _("field 'mover' is {mover} but player {player} is to move").format(
            mover=r["mover"], player=state.current_player))
    known = theme_names(game)
    for t in r["themes"]:
        if t not in known:
            raise _bad(path, where, _("field 'themes': unknown theme {theme}").format(theme=repr(t)))
    p = Puzzle(r["id"], game, r["kind"], r["label"], state, tuple(r["solution"]), tuple(r["themes"]),
               r["rating"], Fraction(r["margin"]), Fraction(r["gap"]),
               {a: Fraction(v) for a, v in r["values"].items()}, tuple(Fraction(v) for v in r.get("line", ())),
               dict(r["source"]))
    try:
        mine = p.mover_moves
    except CardlabError as exc:
        raise _bad(path, where, _("field 'solution': {error}").format(error=exc)) from None
    if "line" in r and len(p.line) != len(mine):
        raise _bad(path, where, _("field 'line' must hold the value of each of the mover's {n} moves of the "
                                  "solution, not {given}").format(n=len(mine), given=len(p.line)))
    return p


def load(game: str, *, theme: str | None = None, kind: str | None = None, path: str | Path | None = None
         ) -> list[Puzzle]:
    """The puzzles of ``game``'s shipped bank (or of the bank file ``path``),
    those with ``theme`` (a theme key or the rule id it teaches, e.g.
    ``"MP-20"``) or of ``kind`` ("fair" or "open") only when given.

    >>> ps = load("koinobori")
    >>> p = ps[0]
    >>> p.state.current_player == p.mover and p.answer in p.state.legal_actions()
    True
    """
    from ..games import package

    package(game)  # an unknown game: UnknownGameError, naming the games
    file = Path(path) if path is not None else bank_path(game)
    if path is None and not file.exists():
        raise PuzzleError(_("cardlab ships no puzzles of {game}; make some with: cardlab puzzles generate {game}").format(
            game=game))
    data = read_bank(file, game)
    puzzles = [from_record(game, r, file) for r in data["puzzles"]]
    if kind is not None:
        if kind not in ("fair", "open"):
            raise PuzzleError(_("a puzzle kind is 'fair' or 'open', not {kind}").format(kind=repr(kind)))
        puzzles = [p for p in puzzles if p.kind == kind]
    if theme is not None:
        puzzles = [p for p in puzzles if theme in p.themes or theme in p.rules]
        if not puzzles:
            have = sorted({t for p in (from_record(game, r, file) for r in data["puzzles"]) for t in p.themes})
            raise UnknownPuzzleError(_("no puzzle of {game} has the theme {theme}; the themes are: {themes}").format(
                game=game, theme=repr(theme), themes=", ".join(have)))
    return puzzles


def puzzle(game: str, pid: str, *, path: str | Path | None = None) -> Puzzle:
    """The puzzle with id ``pid`` of ``game``'s bank."""
    found = [p for p in load(game, path=path) if p.id == pid]
    if not found:
        raise UnknownPuzzleError(_("no puzzle {id} in the bank of {game} (ids look like {example})").format(
            id=repr(pid), game=game, example=f"{game}-0001"))
    return found[0]


def write_bank(game: str, records: list[dict[str, Any]], figures: dict[str, Any], path: str | Path | None = None
               ) -> Path:
    """Write a bank file (checked first, as :func:`read_bank` would)."""
    file = Path(path) if path is not None else bank_path(game)
    for i, r in enumerate(records):
        _check_record(file, i, r)
    file.parent.mkdir(parents=True, exist_ok=True)
    data = {"format": FORMAT, "game": game, "generated": figures, "puzzles": records}
    file.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return file
