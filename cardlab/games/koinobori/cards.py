"""Koi-koi Nobori's card data: the card file and its checks (KN-Q1, KN-Q2, KN-Q9).

A card file gives, for each kind of :data:`~.rules.CARDS`, how many cards
(``cards``), for each colour the points of a nobori (``points``) and of a
fukinagashi pair (``fukinagashi_points``, optional), and the role bonuses
(``roles``, KN-14).  Each card kind is checked as one row of
:data:`KIND`, each role as one card of :data:`ROLE` (both
:class:`cardlab.cardfile.Schema`), in one message style: the file, the card,
the field, what is accepted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from ...cardfile import Field, Schema, card_error, read_data_file, short
from ...errors import CardFileError
from ...i18n import _
from .rules import CARDS, COLOURS, FIELD_SIZE, HAND_SIZE

__all__ = ["load_deck", "NAMED_DECKS", "ROLE_KEYS", "KIND", "ROLE"]

#: decks shipped with cardlab, by name (all of them cardlab's own, KN-Q1)
NAMED_DECKS = {"default": "koinobori.json", "short": "koinobori_short.json"}
#: what a role may require (KN-14): some nobori of a colour, in all, with a fukinagashi
ROLE_KEYS = set(COLOURS) | {"nobori", "fukinagashi"}
TOP_LEVEL = ("name", "cards", "points", "roles", "fukinagashi_points")
MISSING = object()


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _count(value: Any, low: int) -> str:
    if value is MISSING:
        return _("missing count")
    if _whole(value, low, 60):
        return ""
    return _("count must be a whole number from {low} to 60, got {value}").format(low=low, value=short(value))


def _points(value: Any) -> str:
    if value is MISSING or _whole(value, 0, 100):  # fukinagashi_points: optional (KN-Q9)
        return ""
    return _("points must be a whole number from 0 to 100, got {value}").format(value=short(value))


def _requires(value: Any) -> str:
    if not isinstance(value, dict) or not value:
        return _("must map some of {keys} to counts").format(keys=sorted(ROLE_KEYS))
    for k, v in value.items():
        if k not in ROLE_KEYS:
            return _("unknown condition {condition}; accepted: {keys}").format(
                condition=short(k), keys=sorted(ROLE_KEYS))
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            return _("{key} must be a whole number ≥ 1, got {value}").format(key=k, value=short(v))
    return ""


#: one card kind (the row of a kind): its count (KN-4: one of each colour at
#: least, for the field), the points of its nobori (KN-13) and of its
#: fukinagashi pair (KN-Q9)
KIND = {
    low: Schema((Field("cards", "any", required=False, default=MISSING, check=lambda v, low=low: _count(v, low)),
                 Field("points", "any", required=False, default=MISSING, check=_points),
                 Field("fukinagashi_points", "any", required=False, default=MISSING, check=_points)))
    for low in (0, 1)
}
#: one role (KN-14, KN-Q2)
ROLE = Schema((Field("name", "str"),
               Field("japanese", "str", required=False, default=""),
               Field("bonus", "int", lo=0, hi=100),
               Field("requires", "any", check=_requires)), key="name")


def load_deck(source: str | Path | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Read and check a Koi-koi Nobori card file (JSON).

    ``source`` is a path, an already parsed dict, ``None`` (or ``"default"``)
    for cardlab's own default deck (KN-Q1), or ``"short"`` for cardlab's
    15-card deck whose whole deals solve exactly in seconds.  A malformed file raises
    :class:`~cardlab.CardFileError` naming the file, the card and the field.

    The fields: ``cards`` (a count for each of :data:`CARDS`), ``points``
    (the points of a nobori of each carp colour), optionally ``roles``
    (KN-14, KN-Q2) and ``fukinagashi_points`` (KN-Q9: the points of a
    fukinagashi pair by the colour of its carp; a colour left out scores as
    a plain pair of that colour, which is all of them by default).  The
    result always holds all four, ``fukinagashi_points`` filled in.

    >>> load_deck()["cards"]["fukinagashi"]
    3
    >>> load_deck()["fukinagashi_points"]
    {'higoi': 2, 'aokoi': 1, 'magoi': 3}
    """
    where, data = read_data_file(source, NAMED_DECKS["default"], NAMED_DECKS)
    _check_top(where, data)
    cards = _mapping(where, data, "cards", CARDS, lambda: _(
        "{where}: 'cards' must map each of {cards} to a count").format(where=where, cards=list(CARDS)),
        lambda: _("unknown card; the cards are {cards}").format(cards=", ".join(CARDS)))
    for name in CARDS:  # KN-4 needs one of each colour on the field
        KIND[name in COLOURS].card(where, {"cards": cards.get(name, MISSING)}, name)
    total = sum(cards.values())
    if total < FIELD_SIZE + 2 * HAND_SIZE:  # KN-4 three on the field, KN-7 three in each hand
        raise CardFileError(_("{where}: the cards add up to {total}; a game needs at "
                              "least 9 (3 on the field, KN-4, and 3 in each hand, KN-7)").format(
            where=where, total=total))
    points = _mapping(where, data, "points", COLOURS, lambda: _(
        "{where}: 'points' must map each colour {colours} to points").format(where=where, colours=list(COLOURS)),
        _only_colours)
    fuki = _mapping(where, data, "fukinagashi_points", COLOURS, lambda: _(
        "{where}: 'fukinagashi_points' must map some of the colours {colours} "
        "to points (a fukinagashi pair by the colour of its carp), got {value}").format(
        where=where, colours=list(COLOURS), value=short(data["fukinagashi_points"])), _only_colours, {})
    for name in COLOURS:
        KIND[1].card(where, {"points": points.get(name)}, name)
    for name in COLOURS:
        KIND[1].card(where, {"fukinagashi_points": fuki.get(name, MISSING)}, name)
    roles = data.get("roles", [])
    if not isinstance(roles, list):
        raise CardFileError(_("{where}: 'roles' must be a list of role objects").format(where=where))
    for i, role in enumerate(roles):
        unnamed = _("role #{number}").format(number=i)
        label = role.get("name", unnamed) if isinstance(role, dict) else unnamed
        if not isinstance(role, dict) or not isinstance(role.get("name"), str):
            raise card_error(where, str(label), "name", _("each role needs a name (a string)"))
        ROLE.card(where, role, label)
    return {"name": data.get("name", where), "cards": {c: cards[c] for c in CARDS},
            "points": {c: points[c] for c in COLOURS}, "roles": roles,
            "fukinagashi_points": {c: fuki.get(c, points[c]) for c in COLOURS}}


def _check_top(where: str, data: Any) -> None:
    """The file is one JSON object of the known fields (and ``name`` a string)."""
    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'cards', 'points', 'roles'").format(
            where=where))
    unknown = set(data) - set(TOP_LEVEL)
    if unknown:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; "
                              "accepted: name, cards, points, roles, fukinagashi_points").format(
            where=where, fields=sorted(unknown)))
    if not isinstance(data.get("name", ""), str):
        raise CardFileError(_("{where}: 'name' must be a string, got {value}").format(
            where=where, value=short(data["name"])))


def _only_colours() -> str:
    return _("only the colours {colours} score").format(colours=", ".join(COLOURS))


def _mapping(where: str, data: dict, field: str, names: tuple, not_a_map: Callable[[], str],
             unknown: Callable[[], str], default: Any = None) -> dict:
    """A top-level field that maps card names to numbers: a dict of known names."""
    value = data.get(field, default)
    if not isinstance(value, dict):
        raise CardFileError(not_a_map())
    for name in value:
        if name not in names:
            raise card_error(where, name, field, unknown())
    return value
