"""Card files: reading them, and checking every card against a small
declarative schema that each game writes once (issue S, item 6).

A game declares its card fields as :class:`Field` values (name, kind, range,
accepted words with their aliases) in a :class:`Schema`; :meth:`Schema.cards`
checks a file's list of cards and gives each card's values by field name,
already turned into the game's own values (an alias ``"愛"`` becomes
``"love"``).  Every refusal is one :class:`~cardlab.CardFileError` in one
style: the file, the card, the field, and what would be accepted::

    cards.json: card 'p01', field 'top': must be a whole number from 0 to 99, got 120

>>> schema = Schema((Field("id", "id"), Field("top", "int", lo=0, hi=99),
...                  Field("mark", "choice", choices={"rock": "rock", "グー": "rock"})))
>>> schema.cards("deck.json", [{"id": "a", "top": 3, "mark": "グー"}])
[{'id': 'a', 'top': 3, 'mark': 'rock'}]
>>> schema.cards("deck.json", [{"id": "a", "top": 120, "mark": "rock"}])
Traceback (most recent call last):
...
cardlab.errors.CardFileError: deck.json: card 'a', field 'top': must be a whole number from 0 to 99, got 120
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from .core import _not_json
from .errors import CardFileError
from .i18n import N_, _

__all__ = ["Field", "Schema", "card_error", "file_error", "read_data_file", "short", "MAX_DATA_FILE"]

#: the largest card file read, in bytes (a card file is small)
MAX_DATA_FILE = 5_000_000
#: how deep a card file's JSON may nest
MAX_DEPTH = 24

#: the ``what=`` words of :func:`read_data_file` the games pass (for the catalogue)
_DATA_FILE_WORDS = (N_("card file"), N_("deck file"), N_("affinity file"), N_("cost file (option costs)"))

_ID_RE = re.compile(r"[A-Za-z0-9_.\-]{1,40}")


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut short: errors name a bad value without printing a huge one."""
    r = repr(value)
    return r if len(r) <= limit else r[:limit - 3] + "..."


def card_error(where: str, card: Any, field: str, why: str) -> CardFileError:
    """The one message of a bad card, in every game:
    ``{where}: card {card}, field {field}: {why}``."""
    return CardFileError(_("{where}: card {card}, field {field}: {why}").format(
        where=where, card=short(card, 43), field=short(field, 43), why=why))


def file_error(where: str, why: str) -> CardFileError:
    """A card file refused as a whole: ``{where}: {why}``."""
    return CardFileError(_("{where}: {why}").format(where=where, why=why))


class _Bad(Exception):
    """A field's value refused; the message says what is accepted."""


@dataclass(frozen=True)
class Field:
    """One field of a card: its ``name`` in the file and what it accepts.

    ``kind`` is one of

    - ``"id"``: up to 40 letters, digits, ``_``, ``.`` or ``-``;
    - ``"text"``: a non-empty string; ``"str"``: any string (``""`` too);
    - ``"int"``: a whole number from ``lo`` to ``hi``;
    - ``"choice"``: one of the words of ``choices``, which maps every
      accepted word (aliases, Japanese words) to the value it stands for;
    - ``"any"``: any JSON value, for ``check`` to judge.

    A field that is not ``required`` takes ``default`` when missing.
    ``check(value) -> str`` returns ``""`` when the (converted) value is
    good, else why not (with what would be accepted).  ``accepts`` replaces
    the standard words of what a choice accepts (to cite a rule id, say).
    """

    name: str
    kind: str = "text"
    lo: int = 0
    hi: int = 0
    choices: Mapping[str, Any] | None = None
    required: bool = True
    default: Any = None
    check: Callable[[Any], str] | None = None
    accepts: str = ""

    def value(self, raw: Any) -> Any:
        """``raw`` turned into the game's value, or :class:`_Bad` saying why not."""
        kind = self.kind
        if kind == "id":
            if not isinstance(raw, str) or not _ID_RE.fullmatch(raw):
                raise _Bad(_("must be up to 40 letters, digits, '_', '.' or '-' (no spaces), "
                                          "got {value}").format(value=short(raw)))
        elif kind == "text":
            if not isinstance(raw, str) or not raw:
                raise _Bad(_("must be a non-empty string, got {value}").format(value=short(raw)))
        elif kind == "str":
            if not isinstance(raw, str):
                raise _Bad(_("must be a string, got {value}").format(value=short(raw)))
        elif kind == "int":
            if not isinstance(raw, int) or isinstance(raw, bool) or not self.lo <= raw <= self.hi:
                raise _Bad(_("must be a whole number from {lo} to {hi}, got {value}").format(
                    lo=self.lo, hi=self.hi, value=short(raw)))
        elif kind == "choice":
            choices = self.choices or {}
            if not isinstance(raw, str) or raw not in choices:
                accepted = self.accepts or ", ".join(choices)
                raise _Bad(_("{value} is not accepted here; accepted: {accepted}").format(
                    value=short(raw), accepted=accepted))
            raw = choices[raw]
        elif kind != "any":
            raise ValueError(f"Field {self.name!r}: unknown kind {kind!r}")
        if self.check is not None:
            why = self.check(raw)
            if why:
                raise _Bad(why)
        return raw


@dataclass(frozen=True)
class Schema:
    """The fields of a game's cards; every game's card files are refused in the
    same words (one style: file, card, field, what is accepted)."""

    fields: tuple[Field, ...]
    #: the field that names a card in messages and must be unique
    key: str = "id"
    max_cards: int = 1000

    def card(self, where: str, raw: Any, label: str) -> dict[str, Any]:
        """One card's values by field name; refused with :func:`card_error`."""
        if not isinstance(raw, dict):
            raise card_error(where, label, "(card)", _("each card must be a JSON object"))
        names = [f.name for f in self.fields]
        extra = sorted(k for k in raw if k not in names) if all(isinstance(k, str) for k in raw) else ["?"]
        if extra:
            raise card_error(where, label, extra[0], _("unknown field; accepted: {fields}").format(
                fields=", ".join(names)))
        out: dict[str, Any] = {}
        for f in self.fields:
            if f.name not in raw:
                if f.required:
                    raise card_error(where, label, f.name, _("missing; every card has it"))
                out[f.name] = f.default
                continue
            try:
                out[f.name] = f.value(raw[f.name])
            except _Bad as bad:
                raise card_error(where, label, f.name, str(bad)) from None
        return out

    def cards(self, where: str, raw: Any) -> list[dict[str, Any]]:
        """Every card of the list ``raw`` checked (:meth:`card`), the keys unique."""
        if not isinstance(raw, list) or not raw:
            raise file_error(where, _("'cards' must be a non-empty list of card objects"))
        if len(raw) > self.max_cards:
            raise file_error(where, _("at most {limit} cards, got {count}").format(limit=self.max_cards,
                                                                                     count=len(raw)))
        out, seen = [], set()
        for i, c in enumerate(raw):
            key = c.get(self.key) if isinstance(c, dict) else None
            label = key if isinstance(key, str) else f"#{i}"
            card = self.card(where, c, label)
            if card[self.key] in seen:
                raise card_error(where, label, self.key, _("used by two cards; card ids must be "
                                                                            "unique"))
            seen.add(card[self.key])
            out.append(card)
        return out


def read_data_file(source: Any, default: str, named: Mapping[str, str] | None = None,
                   what: str = "card file") -> tuple[str, Any]:
    """Read the JSON data a game option points at: ``(where, data)``.

    ``source`` is ``None`` (the packaged file ``default`` in ``cardlab/data``),
    a name of ``named`` (another packaged file), a dict (already parsed), or
    a path.  Unreadable files and bad JSON raise :class:`CardFileError`
    naming the file; checking the content is the game's job (its
    :class:`Schema`).
    """
    from importlib import resources

    named = named or {}
    if source is None or (isinstance(source, str) and source in named):
        filename = default if source is None else named[source]
        text = resources.files("cardlab.data").joinpath(filename).read_text("utf-8")
        return f"cardlab/data/{filename}", json.loads(text)
    if isinstance(source, Mapping):
        where = f"<{what.removesuffix(' file')} dict>"
        problem = _not_json(source, where, 0, floats=True)
        if problem:
            raise CardFileError(problem)
        return where, dict(source)
    if not isinstance(source, (str, Path)):
        raise CardFileError(_("a {what} is None, a path or a dict, not {source}").format(
            what=_(what), source=repr(str(source)[:80])))
    where = str(source)
    data = _read_json(source, where, _(what))
    problem = _not_json(data, where, 0, floats=True)
    if problem:
        raise CardFileError(problem)
    return where, data


def _read_json(source: str | Path, where: str, what_text: str) -> Any:
    try:
        with open(source, "rb") as f:
            raw = f.read(MAX_DATA_FILE + 1)
        if len(raw) > MAX_DATA_FILE:
            raise CardFileError(_("{where}: larger than {mb} MB; a {what} is a small JSON file").format(
                where=where, mb=MAX_DATA_FILE // 1_000_000, what=what_text))
        return json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise CardFileError(_("{where}: cannot read the {what} ({reason})").format(
            where=where, what=what_text, reason=exc.strerror)) from None
    except json.JSONDecodeError as exc:
        raise CardFileError(_("{where}: not valid JSON (line {line}: {reason})").format(
            where=where, line=exc.lineno, reason=exc.msg)) from None
    except ValueError:  # a NUL in the path, bytes that are not UTF-8
        raise CardFileError(_("{where}: cannot read the {what} (a path without NUL to a UTF-8 JSON file "
                              "is expected)").format(where=where, what=what_text)) from None
    except RecursionError:
        raise CardFileError(_("{where}: the JSON is nested too deeply to be a {what}").format(
            where=where, what=what_text)) from None
