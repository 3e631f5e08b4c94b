"""Mazemon's cards (MZ-Q1): the :class:`Card` and :class:`CardSet` values,
the card file read and checked with one declarative :data:`SCHEMA`
(:mod:`cardlab.cardfile`), and the per-game tables the State and the core
share, built by calling :mod:`.rules`: the summon costs (MZ-18, MZ-Q3) and
the fights (MZ-8, MZ-10 … MZ-16, MZ-21).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from ...cardfile import Field, Schema, read_data_file, short
from ...errors import CardFileError, OptionError
from ...i18n import _, get_language
from . import rules

__all__ = ["Card", "CardSet", "SCHEMA", "load_cards", "summon_cost", "shared_materials",
           "cost_table", "fight_table", "ATTR_JA", "ID_RE"]

#: a card id: it is a word of the action notation
ID_RE = r"[a-z][a-z0-9_]{0,31}"
ATTR_JA = {"fire": "ほのお", "grass": "くさ", "water": "みず"}


@dataclass(frozen=True)
class Card:
    """One Mazemon card: attribute (ぞくせい), HP, COST, materials (そざい) and
    its technique (わざ) with its number."""

    id: str
    name: str
    japanese: str
    attribute: str
    hp: int
    cost: int
    technique: str
    technique_japanese: str
    power: int
    materials: tuple[str, ...]
    #: the Japanese names of the materials, from the card file's ``materials`` map (shown in Japanese)
    materials_japanese: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __str__(self) -> str:
        if get_language() == "ja":  # the names printed on the card, in Japanese
            mats = self.materials_japanese or self.materials
            return (f"{self.japanese} {ATTR_JA[self.attribute]} わざ {self.technique_japanese} {self.power} · "
                    f"HP {self.hp} · COST {self.cost} · そざい {'/'.join(mats)}")
        return (f"{self.name} ({self.japanese}) {self.attribute}/{ATTR_JA[self.attribute]} "
                f"わざ {self.technique} {self.power} · HP {self.hp} · COST {self.cost} · "
                f"そざい {'/'.join(self.materials)}")


@dataclass(frozen=True)
class CardSet:
    """The cards of a card file and its ready decks (each a tuple of ten ids)."""

    name: str
    cards: Mapping[str, Card]
    decks: Mapping[str, tuple[str, ...]]
    source: str
    #: the Japanese names of the materials (そざい), from the file's optional ``materials`` map
    materials: Mapping[str, str] = field(default_factory=dict)


# -- the card file ----------------------------------------------------------------------
def _id_check(v: Any) -> str:
    if isinstance(v, str) and re.fullmatch(ID_RE, v):
        return ""
    return _("must be lower-case letters, digits and _ (a letter first, at most 32), got {value}").format(
        value=short(v))


def _name_check(v: Any) -> str:
    if isinstance(v, str) and v.strip():
        return ""
    return _("must be a non-empty string, got {value}").format(value=short(v))


def _technique_check(t: Any) -> str:
    if not isinstance(t, dict) or set(t) - {"name", "japanese", "power"}:
        return _("must be an object with name, japanese and power")
    if not all(isinstance(n, str) and n.strip() for n in (t.get("name"), t.get("japanese", t.get("name")))):
        return _("its name (and japanese) must be non-empty strings")
    p = t.get("power")
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= 100_000:
        return _("power must be a whole number from 0 to 100000, got {value}").format(value=short(p))
    return ""


def _materials_check(m: Any) -> str:
    if (isinstance(m, list) and 2 <= len(m) <= 4 and all(isinstance(x, str) and x for x in m)
            and len(set(m)) == len(m)):
        return ""
    return _("must be a list of 2 to 4 different names (MZ-18), got {value}").format(value=short(m))


#: the fields of a card (MZ-Q1)
SCHEMA = Schema((
    Field("id", "any", check=_id_check),
    Field("name", "any", check=_name_check),
    Field("japanese", "any", check=_name_check),
    Field("attribute", "choice", choices={a: a for a in rules.ATTRIBUTES}),  # MZ-11
    Field("hp", "int", lo=1, hi=100_000),
    Field("cost", "int", lo=1, hi=10),  # MZ-7
    Field("technique", "any", check=_technique_check),  # MZ-10
    Field("materials", "any", check=_materials_check),  # MZ-18
))


def load_cards(source: str | Path | Mapping[str, Any] | None = None) -> CardSet:
    """Read and check a Mazemon card file (JSON).

    ``source`` is a path, a parsed dict, or ``None`` for cardlab's own set
    (``cardlab/data/mazemon.json``, MZ-Q1).  A malformed file raises
    :class:`~cardlab.CardFileError` naming the file, the card and the field.

    >>> cs = load_cards()
    >>> len(cs.cards) >= 20, sorted(cs.decks)
    (True, ['hinoko', 'shizuku'])
    """
    where, data = read_data_file(source, "mazemon.json")
    name, mats_ja = _file_head(where, data)
    cards: dict[str, Card] = {}
    for c in SCHEMA.cards(where, data.get("cards")):
        t, mats = c["technique"], c["materials"]
        cards[c["id"]] = Card(c["id"], c["name"], c["japanese"], c["attribute"], c["hp"], c["cost"],
                              t["name"], t.get("japanese", t["name"]), t["power"], tuple(mats),
                              tuple(mats_ja.get(m, m) for m in mats))
    return CardSet(name, cards, _decks(where, data.get("decks"), cards), where, MappingProxyType(dict(mats_ja)))


def _file_head(where: str, data: Any) -> tuple[str, dict]:
    """The file's ``name`` and ``materials`` map (the Japanese names of the materials)."""
    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'cards' and 'decks'").format(
            where=where))
    unknown = set(data) - {"name", "materials", "cards", "decks"}
    if unknown:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; "
                              "accepted: name, materials, cards, decks").format(where=where, fields=sorted(unknown)))
    name = data.get("name", where)
    if not isinstance(name, str) or not name.strip():
        raise CardFileError(_("{where}: field 'name' must be a non-empty string, got {value}").format(
            where=where, value=short(name)))
    mats_ja = data.get("materials", {})
    if not isinstance(mats_ja, dict):
        raise CardFileError(_("{where}: field 'materials' must map material names to their Japanese "
                              "names, got {value}").format(where=where, value=short(mats_ja)))
    for m, ja in mats_ja.items():
        if not isinstance(ja, str) or not ja.strip():
            raise CardFileError(_("{where}: field 'materials', material {material}: the Japanese name "
                                  "must be a non-empty string, got {value}").format(
                where=where, material=short(m), value=short(ja)))
    return name, mats_ja


def _decks(where: str, decks_raw: Any, cards: Mapping[str, Card]) -> dict[str, tuple[str, ...]]:
    """The ready decks: ten different cards of the file each (MZ-1)."""
    size = rules.DECK_SIZE
    if not isinstance(decks_raw, dict) or not decks_raw:
        raise CardFileError(_("{where}: 'decks' must map deck names to decks of {size} card ids").format(
            where=where, size=size))
    decks: dict[str, tuple[str, ...]] = {}
    for dname, d in decks_raw.items():
        ids = d.get("cards") if isinstance(d, dict) else d
        if isinstance(d, dict) and set(d) - {"name", "japanese", "cards"}:
            raise CardFileError(_("{where}: deck {deck}: unknown field {field}; accepted: name, japanese, cards").format(
                where=where, deck=repr(dname), field=repr(sorted(set(d) - {'name', 'japanese', 'cards'})[0])))
        for f in ("name", "japanese"):
            if isinstance(d, dict) and f in d and (not isinstance(d[f], str) or not d[f].strip()):
                raise CardFileError(_("{where}: deck {deck}, field {field}: must be a non-empty string, "
                                      "got {value}").format(where=where, deck=repr(dname), field=repr(f),
                                                            value=short(d[f])))
        if not isinstance(ids, list) or len(ids) != size:
            got = (_("{n} entries").format(n=len(ids)) if isinstance(ids, list) else short(ids))
            raise CardFileError(_("{where}: deck {deck}, field 'cards': must list exactly "
                                  "{size} card ids (MZ-1), got {value}").format(
                where=where, deck=repr(dname), size=size, value=got))
        for cid in ids:
            if not isinstance(cid, str) or cid not in cards:
                raise CardFileError(_("{where}: deck {deck}, field 'cards': unknown card {card}").format(
                    where=where, deck=repr(dname), card=short(cid)))
        if len(set(ids)) != size:
            raise CardFileError(_("{where}: deck {deck}, field 'cards': the {size} cards must "
                                  "all be different").format(where=where, deck=repr(dname), size=size))
        decks[str(dname)] = tuple(ids)
    return decks


# -- the rules of materials for people who call them (notebooks) ---------------------------
def _check_material_count(material_count: str) -> None:
    if material_count not in rules.MATERIAL_COUNTS:
        raise OptionError(_("material_count={value} is not accepted; "
                            "material_count accepts 'distinct' or 'per_monster'").format(value=repr(material_count)))


def shared_materials(card: Card, zone: list[Card] | tuple[Card, ...], material_count: str = "distinct") -> int:
    """MZ-18, MZ-Q3: :func:`.rules.shared_materials`, an unknown
    ``material_count`` refused with :class:`~cardlab.OptionError`."""
    _check_material_count(material_count)
    return rules.shared_materials(card, zone, material_count)


def summon_cost(card: Card, zone: list[Card] | tuple[Card, ...], material_count: str = "distinct") -> int:
    """MZ-18: :func:`.rules.summon_cost` (the cost minus the shared materials,
    at least 1), an unknown ``material_count`` refused with :class:`~cardlab.OptionError`.

    >>> cs = load_cards()
    >>> summon_cost(cs.cards["magma_giant"], [cs.cards["tide_whale"]])  # giant, sword shared
    1
    """
    _check_material_count(material_count)
    return rules.summon_cost(card, zone, material_count)


# -- the tables of a game (made once per game, read by the State and the core) --------------
def cost_table(deck: tuple[Card, ...], material_count: str) -> tuple[tuple[int, ...], ...]:
    """``table[i][zone]``: :func:`.rules.summon_cost` of slot ``i`` with the
    monsters of the mask ``zone`` in the battle zone (MZ-18, MZ-Q3).  Kept
    for the same deck and the same rule functions (games share decks)."""
    return _cost_table(deck, material_count, rules.summon_cost, rules.shared_materials)


@lru_cache(maxsize=16)
def _cost_table(deck: tuple[Card, ...], material_count: str, cost: Any, _shared: Any) -> tuple:
    zones = [tuple(deck[j] for j in rules.BITS[m]) for m in range(rules.FULL + 1)]
    return tuple(tuple(cost(card, zone, material_count) for zone in zones) for card in deck)


def fight_table(attackers: tuple[Card, ...], defenders: tuple[Card, ...]) -> tuple:
    """``table[i][j]``: :func:`.rules.fight` of slot ``i`` attacking slot ``j``:
    (result code, mana, wins on attribute) (MZ-8, MZ-10 … MZ-16, MZ-21)."""
    return tuple(tuple(rules.fight(a, d) for d in defenders) for a in attackers)
