"""MONSTER CARDS (モンスターカード): 2 to 8 players fight with decks they built.

Rules: ``docs/rules/monster_cards.md`` (MC-1 … MC-19, MC-Q1 … MC-Q10), from
the seed text ``002_42026b479678a9ff.txt``.  Rule ids in comments, in
:meth:`MonsterCardsState.explain` and in :meth:`Battle.explain` point there.

Cards are made by the players: :class:`Card` is the card builder (its cost
comes from a data table, MC-Q2), :func:`load_deck` reads a deck file and
:func:`validate_deck` checks it (MC-1).  The affinity tables (MC-5, MC-Q1)
and the cost formula are JSON data in ``cardlab/data``; a user passes their
own with the options ``affinity`` and ``costs``.  The skill library
(:data:`SKILLS`, MC-4, MC-Q3) is cardlab's own: three skills in each
category, each with its SP (SR card) and ULT (UR card) form.

Representation.  Every card design of the game has a small id (the designs
sorted by name).  Per player the key holds the hand (a sorted tuple: a
multiset), the known top of the deck (cards healed back from the graveyard,
in order, known to their owner), the rest of the deck (a sorted tuple: its
order is unknown to everybody, so drawing and damage from it are chance
events, one card at a time) and the graveyard (墓地, an ordered pile: damage
puts the deck's top card on it, healing puts its top card back on the deck,
so healing undoes the latest damage).  A player who is out (MC-19) keeps
one more zone, the cards that left the game with them face down (a sorted
tuple).  The ruins (跡地) are not stored: they are every card of a player's
deck that is in no other zone, so they stay what everybody saw (MC-7).

Places the seed settles (quoted in the digest): a card played to the attack
zone takes the attacker's attack in exchange (MC-11: 「そのカードからの攻撃を
受ける代わりにカードをどかして、自分のカードを配置します」; the option
``replacing="free"`` plays the other reading, with no damage); cards after a
battle go to the ruins (MC-Q4, MC-Q5: 「跡地 … 戦闘後のカード…が置かれる場所」);
a deck at 0 loses, also by drawing (MC-Q7: 「山札 … 0枚になると負けです」);
Discard skills and GameChangers any number of times a turn, a heal with an
empty graveyard doing nothing (MC-Q10).

Notation (player actions, then chance outcomes)::

    defend X      play X to the defence zone (防衛ゾーン): a battle follows (MC-11, MC-14 … MC-18)
    attack X      play X to the attack zone (攻撃ゾーン): take the attacker's attack, then push it away (MC-11)
    discard X     discard X to the ruins for its Discard skill (MC-10; any number a turn, MC-Q10)
    gc X          place X in the GameChanger zone (MC-10; any number a turn, MC-Q10)
    draw X        chance: the turn player draws X (MC-9)
    mill X        chance: damage moves X from the deck top to the graveyard (MC-3)
"""

from __future__ import annotations

import json
import random
import re
from bisect import insort
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ...core import (
    CHANCE,
    TERMINAL,
    Game,
    Hidden,
    Option,
    Spec,
    State,
    bool_option,
    check_keys,
    make_rng,
)
from ...cardfile import read_data_file
from ...errors import CardFileError, CardlabError, PositionError
from ...i18n import N_, _, get_language, pgettext

__all__ = [
    "MonsterCards", "MonsterCardsState", "Card", "Skill", "SKILLS", "Battle", "battle",
    "attack_power", "Affinity", "load_affinity", "load_costs", "load_deck", "validate_deck", "ready_deck",
    "READY_DECKS", "CardError", "DeckError", "AffinityError", "RARITIES", "KEYS",
]

# -- constants -----------------------------------------------------------------
#: MC-2 rarities and their points of advantage in battle
RARITIES = ("C", "R", "SR", "UR")
RARITY_POINTS = {"C": 1, "R": 2, "SR": 3, "UR": 4}
#: MC-4 skill level by rarity: 1 plain, 2 SP (SR), 3 ULT (UR)
LEVEL = {"C": 1, "R": 1, "SR": 2, "UR": 3}
LEVEL_NAMES = {1: "", 2: "SP", 3: "ULT"}
#: MC-5 the four affinity keys, in the order of comparison
KEYS = ("attribute", "race", "size", "means")
KEY_JAPANESE = {"attribute": "属性", "race": "種族", "size": "サイズ", "means": "手段"}
#: the keys as a person reads them (Japanese: the seed's own words)
KEY_TERM = {"attribute": N_("attribute (属性)"), "race": N_("race (種族)"), "size": N_("size (サイズ)"),
            "means": N_("means (手段)")}
CATEGORIES = ("standard", "discard", "gamechanger")
CATEGORY_TERM = {"standard": N_("standard (スタンダード)"), "discard": N_("discard (ディスカード)"),
                 "gamechanger": N_("gamechanger (ゲームチェンジャー)")}
CATEGORY_JAPANESE = {"standard": "スタンダード", "discard": "ディスカード",
                     "gamechanger": "ゲームチェンジャー"}
NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
_N = r"[a-z][a-z0-9_]*"
ACTION_RE = re.compile(rf"(defend|attack|discard|gc|draw|mill) {_N}")
HAND_TARGET = 3  # MC-9

# key positions and phases
DRAW, ACT, MILL, END = "D", "A", "M", "E"
PHASE_NAMES = {DRAW: "draw", ACT: "action", MILL: "mill", END: "end"}
PHASE_CODES = {v: k for k, v in PHASE_NAMES.items()}
HAND, TOP, REST, GRAVE, GONE = 0, 1, 2, 3, 4
ZONE_NAMES = ("hand", "deck top", "deck", "graveyard")
#: the hidden places of one player, the deck first: filled first, its many
#: cards are chosen once, not once per filling of the smaller places
HIDDEN_ZONES = (REST, HAND, TOP, GRAVE)


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters: error messages stay one short line."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _cut(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (a list of choices from a user's table)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _ja() -> bool:
    """Japanese texts right now (names from the card data are shown in Japanese)."""
    return get_language() == "ja"


def _card_name(card: "Card") -> str:
    """A card's name as a person reads it: its Japanese name in Japanese (when
    the card data has one), else its name in the notation."""
    return card.japanese if _ja() and card.japanese else card.name


def _value_name(tables: "Affinity", key: str, value: str) -> str:
    """An affinity value as a person reads it: ``fire`` in English, ``火`` in Japanese."""
    return tables.japanese[key].get(value, value) if _ja() else value


def _unknown_fields(d: Mapping[str, Any], accepted: Iterable[str], where: str, error: type) -> None:
    """Refuse a field a data file does not have, naming it and the accepted ones
    (``where`` is what comes before the word "field": ``"deck.json:"``)."""
    extra = sorted(set(d) - set(accepted))
    if extra:
        raise error(_("{where} field {field}: unknown field; accepted: {accepted}").format(
            where=where, field=_short(extra[0]), accepted=", ".join(sorted(accepted))))


def _text_fields(d: Mapping[str, Any], fields: Iterable[str], where: str, error: type) -> None:
    """The free-text fields of a data file (name, note ...) are strings when present."""
    for f in fields:
        if f in d and not isinstance(d[f], str):
            raise error(_("{where} field {field}: a string, got {value}").format(
                where=where, field=repr(f), value=_short(d[f])))


class CardError(CardlabError, ValueError):
    """A card built with :class:`Card` that breaks a rule; names the card and the field."""

    def __init__(self, card: str, field: str, why: str) -> None:
        self.card, self.field, self.why = card, field, why
        super().__init__(_("card {card}, field {field}: {why}").format(card=repr(card), field=repr(field), why=why))


class DeckError(CardlabError, ValueError):
    """A deck that breaks MC-1 (size, cost) or repeats a card name with other stats."""


class AffinityError(CardFileError):
    """An affinity table (MC-Q1) that is malformed, not antisymmetric or incomplete."""


# -- the skill library (MC-4, MC-Q3) --------------------------------------------------
@dataclass(frozen=True)
class Skill:
    """One skill of cardlab's library.  ``amount[level - 1]`` is its size on a
    C/R card (level 1), an SR card (SP, level 2) and a UR card (ULT, level 3)."""

    id: str
    category: str
    english: str
    japanese: str
    amount: tuple[int, int, int]
    text: str

    def describe(self, level: int = 1) -> str:
        form = LEVEL_NAMES[level]
        tag = f" {form}" if form else ""
        name = self.japanese if _ja() else f"{self.english} ({self.japanese})"
        return _("{skill}{form}, {category}: {effect}").format(
            skill=name, form=tag, category=_(CATEGORY_TERM[self.category]),
            effect=_(self.text).format(n=self.amount[level - 1]))


SKILLS: dict[str, Skill] = {s.id: s for s in (
    # Standard: work on their own while the card is played or fights
    Skill("mend", "standard", "Mend", "癒し", (1, 2, 3),
          N_("when played from the hand, heal {n}: the top {n} cards of your graveyard go back on top of your deck")),
    Skill("fury", "standard", "Fury", "猛攻", (1, 2, 3),
          N_("attack power +{n} while this card attacks")),
    Skill("bulwark", "standard", "Bulwark", "堅守", (1, 2, 3),
          N_("when this card defends, the long hand moves {n} more marks toward the defender")),
    # Discard: one-shot, by discarding the card from the hand to the ruins
    Skill("revive", "discard", "Revive", "再起", (2, 3, 4),
          N_("heal {n}: the top {n} cards of your graveyard go back on top of your deck")),
    Skill("banish", "discard", "Banish", "追放", (1, 2, 3),
          N_("the attack-zone card goes to the ruins if its rarity is at most {n} (1 C, 2 R, 3 SR)")),
    Skill("ambush", "discard", "Ambush", "奇襲", (1, 2, 3),
          N_("the owner of the attack-zone card (not you) takes {n} damage")),
    # GameChanger: only while in the GameChanger zone, for everyone
    Skill("bloodlust", "gamechanger", "Bloodlust", "血の渇き", (1, 2, 3),
          N_("every attacker's attack power +{n}")),
    Skill("inversion", "gamechanger", "Inversion", "反転", (1, 2, 4),
          N_("the first {n} affinity comparisons (attribute, race, size, means) are reversed")),
    Skill("leveller", "gamechanger", "Leveller", "均衡", (2, 1, 0),
          N_("the rarity difference counts at most {n} marks on the scale")),
)}


# -- data files ------------------------------------------------------------------
@dataclass(frozen=True)
class Affinity:
    """The four affinity tables (MC-5, MC-Q1).  ``values[key]`` lists the
    values of a key, ``japanese[key][value]`` their Japanese names, and
    ``compare(key, a, b)`` is +1 when ``a`` has the advantage over ``b``, −1
    when ``b`` has it, 0 when even."""

    name: str
    values: dict[str, tuple[str, ...]]
    japanese: dict[str, dict[str, str]]
    table: dict[str, dict[tuple[str, str], int]]

    def compare(self, key: str, a: str, b: str) -> int:
        return self.table[key][(a, b)]


_SIGN = {"+": 1, "-": -1, "=": 0}


def load_affinity(source: str | Path | Mapping[str, Any] | None = None) -> Affinity:
    """Read and check affinity tables (MC-Q1): cardlab's own when ``source`` is None.

    Each key maps every ordered pair of its values to ``"+"`` (the row value
    has the advantage), ``"-"`` or ``"="``.  A table that misses a pair or is
    not antisymmetric is refused with the pair named.

    >>> t = load_affinity()
    >>> t.compare("race", "demon", "human"), t.compare("means", "magic", "defence")
    (1, 1)
    """
    where, data = read_data_file(source, "monster_cards_affinity.json", what="affinity file")
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise AffinityError(_("{where}: an affinity file holds {{'keys': {{key: {{'values', 'table'}}}}}} "
                              "for the keys {keys}").format(where=where, keys=", ".join(KEYS)))
    _unknown_fields(data, ("name", "note", "keys"), f"{where}:", AffinityError)
    _text_fields(data, ("name", "note"), f"{where}:", AffinityError)
    keys = data["keys"]
    if set(keys) != set(KEYS):
        raise AffinityError(_("{where}: the keys must be exactly {keys}; got {got}").format(
            where=where, keys=", ".join(KEYS), got=_cut(", ".join(keys))))
    values, japanese, table = {}, {}, {}
    for key in KEYS:
        spec = keys[key]
        if not isinstance(spec, dict):
            raise AffinityError(_("{where}: key {key}: must hold {{'values', 'table'}}, got {value}").format(
                where=where, key=repr(key), value=_short(spec)))
        at_key = _("{where}: key {key},").format(where=where, key=repr(key))
        _unknown_fields(spec, ("japanese", "values", "table"), at_key, AffinityError)
        _text_fields(spec, ("japanese",), at_key, AffinityError)
        vals = spec.get("values")
        if isinstance(vals, list) and all(isinstance(v, str) for v in vals):
            vals = {v: v for v in vals}
        if (not isinstance(vals, dict) or not vals or not all(NAME_RE.fullmatch(v) for v in vals)
                or not all(isinstance(j, str) for j in vals.values())):
            raise AffinityError(_("{where}: key {key}, field 'values': a non-empty list of lower-case names "
                                  "or {mapping}").format(where=where, key=repr(key),
                                                         mapping="{" + _("value: Japanese name") + "}"))
        rows = spec.get("table")
        if not isinstance(rows, dict):
            raise AffinityError(_("{where}: key {key}, field 'table': must map each value to a row").format(
                where=where, key=repr(key)))
        t: dict[tuple[str, str], int] = {}
        for a in rows:
            if a not in vals:
                raise AffinityError(_("{where}: key {key}: row {row} is not one of the values {values}").format(
                    where=where, key=repr(key), row=_short(a), values=_short(list(vals), 120)))
        for a in vals:
            row = rows.get(a)
            if not isinstance(row, dict):
                raise AffinityError(_("{where}: key {key}: the row of {row} is missing").format(
                    where=where, key=repr(key), row=repr(a)))
            for b in row:
                if b not in vals:
                    raise AffinityError(_("{where}: key {key}: pair ({a}, {b}) names an unknown value").format(
                        where=where, key=repr(key), a=repr(a), b=_short(b)))
            for b in vals:
                if b not in row:
                    raise AffinityError(_("{where}: key {key}: the pair ({a}, {b}) is missing; "
                                          "every ordered pair needs '+', '-' or '='").format(
                        where=where, key=repr(key), a=repr(a), b=repr(b)))
                if not isinstance(row[b], str) or row[b] not in _SIGN:
                    raise AffinityError(_("{where}: key {key}: pair ({a}, {b}) is {value}; "
                                          "accepted: '+', '-', '='").format(
                        where=where, key=repr(key), a=repr(a), b=repr(b), value=_short(row[b])))
                t[(a, b)] = _SIGN[row[b]]
        for a in vals:
            for b in vals:
                if t[(a, b)] != -t[(b, a)]:
                    raise AffinityError(_(
                        "{where}: key {key}: the pair ({a_repr}, {b_repr}) is not antisymmetric: "
                        "{a} vs {b} is {ab} but {b} vs {a} is {ba} "
                        "(if A beats B, B must lose to A; even must be even both ways)").format(
                        where=where, key=repr(key), a_repr=repr(a), b_repr=repr(b), a=a, b=b,
                        ab=repr(rows[a][b]), ba=repr(rows[b][a])))
        values[key] = tuple(vals)
        japanese[key] = dict(vals)
        table[key] = t
    return Affinity(str(data.get("name", where)), values, japanese, table)


def load_costs(source: str | Path | Mapping[str, Any] | None = None) -> dict[str, dict[str, int]]:
    """Read and check the cost formula (MC-6, MC-Q2): cardlab's own when None.

    cost = ``rarity[r] + attack[str(a)] + skill[category or "none"]``.

    >>> load_costs()["rarity"]["SR"]
    7
    """
    where, data = read_data_file(source, "monster_cards_costs.json", what="cost file (option costs)")
    need = {"rarity": RARITIES, "attack": tuple(str(a) for a in range(1, 6)),
            "skill": ("none",) + CATEGORIES}
    if not isinstance(data, dict):
        raise CardFileError(_("{where}: a cost file holds {{'rarity', 'attack', 'skill'}} tables").format(where=where))
    _unknown_fields(data, ("name", "note", *need), f"{where}:", CardFileError)
    _text_fields(data, ("name", "note"), f"{where}:", CardFileError)
    out: dict[str, dict[str, int]] = {}
    for part, names in need.items():
        t = data.get(part)
        if not isinstance(t, dict):
            raise CardFileError(_("{where}: field {field}: must map {names} to costs").format(
                where=where, field=repr(part), names=list(names)))
        for n in t:
            if n not in names:
                raise CardFileError(_("{where}: field {field}, entry {entry}: unknown; accepted: {accepted}").format(
                    where=where, field=repr(part), entry=_short(n), accepted=", ".join(names)))
        for n in names:
            v = t.get(n)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 1000:
                raise CardFileError(_("{where}: field {field}, entry {entry}: a whole number 0 … 1000, got {value}").format(
                    where=where, field=repr(part), entry=repr(n), value=_short(v)))
        out[part] = {n: t[n] for n in names}
    return out


_DEFAULT_AFFINITY: Affinity | None = None
_DEFAULT_COSTS: dict | None = None


def _default_affinity() -> Affinity:
    global _DEFAULT_AFFINITY
    if _DEFAULT_AFFINITY is None:
        _DEFAULT_AFFINITY = load_affinity()
    return _DEFAULT_AFFINITY


def _default_costs() -> dict:
    global _DEFAULT_COSTS
    if _DEFAULT_COSTS is None:
        _DEFAULT_COSTS = load_costs()
    return _DEFAULT_COSTS


# -- the card builder (MC-2 … MC-6) -------------------------------------------------------
def _aliases(t: Affinity) -> dict[str, str]:
    """Japanese value names the builder accepts (火 → fire)."""
    return {j: v for key in KEYS for v, j in t.japanese[key].items()}


@dataclass(frozen=True)
class Card:
    """A monster card, as a player builds it (カード作成).

    ``name`` is the card's name in the action notation (lower-case letters,
    digits, ``_``); ``japanese`` its display name.  ``rarity`` C/R/SR/UR
    (MC-2), ``attack`` 1-5 (MC-3), the four affinity values (MC-5; English or
    Japanese names, checked against ``tables``: cardlab's own when None),
    ``skill`` an id of :data:`SKILLS` or None.
    A broken rule raises :class:`CardError` naming the card and the field.

    >>> c = Card("ash_hound", rarity="C", attack=3, attribute="火", race="beast",
    ...          size="medium", means="melee", skill="fury")
    >>> c.attribute, c.cost(), c.level
    ('fire', 7, 1)
    """

    name: str
    rarity: str
    attack: int
    attribute: str
    race: str
    size: str
    means: str
    skill: str | None = None
    japanese: str = ""
    tables: Affinity | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        name = self.name
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            label = name if isinstance(name, str) and len(name) <= 40 else _short(name)
            raise CardError(label, "name", _("lower-case letters, digits and _ , starting with a "
                                             "letter (the name is used in actions such as 'defend ember_imp')"))
        if self.rarity not in RARITIES:
            raise CardError(name, "rarity", _("one of {choices} (MC-2), got {value}").format(
                choices=", ".join(RARITIES), value=_short(self.rarity)))
        a = self.attack
        if not isinstance(a, int) or isinstance(a, bool) or not 1 <= a <= 5:
            raise CardError(name, "attack", _("a whole number from 1 to 5 (MC-3), got {value}").format(value=_short(a)))
        tables = self.tables or _default_affinity()
        aliases = _aliases(tables)
        for key in KEYS:
            v = getattr(self, key)
            v = aliases.get(v, v) if isinstance(v, str) else None
            if v not in tables.values[key]:
                choices = ("、".join(tables.japanese[key][x] for x in tables.values[key]) if _ja() else
                           ", ".join(f"{x} ({tables.japanese[key][x]})" for x in tables.values[key]))
                raise CardError(name, key, _("one of {choices} (MC-5), got {value}").format(
                    choices=_cut(choices), value=_short(getattr(self, key))))
            object.__setattr__(self, key, v)
        if self.skill is not None and (not isinstance(self.skill, str) or self.skill not in SKILLS):
            raise CardError(name, "skill", _("one of {choices} or None (MC-Q3), got {value}").format(
                choices=", ".join(SKILLS), value=_short(self.skill)))
        if not isinstance(self.japanese, str):
            raise CardError(name, "japanese", _("a string, got {value}").format(value=_short(self.japanese)))

    @property
    def level(self) -> int:
        """1 (C, R), 2 (SR: SP effect) or 3 (UR: ULT effect), MC-4."""
        return LEVEL[self.rarity]

    @property
    def category(self) -> str | None:
        return SKILLS[self.skill].category if self.skill else None

    @property
    def amount(self) -> int:
        """The size of this card's skill at its level (0 without a skill)."""
        return SKILLS[self.skill].amount[self.level - 1] if self.skill else 0

    def cost(self, costs: Mapping[str, Mapping[str, int]] | None = None) -> int:
        """MC-6, MC-Q2: rarity + attack + skill category, from the cost table."""
        t = costs or _default_costs()
        return t["rarity"][self.rarity] + t["attack"][str(self.attack)] + t["skill"][self.category or "none"]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "japanese": self.japanese, "rarity": self.rarity,
                "attack": self.attack, **{k: getattr(self, k) for k in KEYS}, "skill": self.skill}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], tables: Affinity | None = None) -> "Card":
        fields = {"name", "japanese", "rarity", "attack", "skill", *KEYS}
        name = d.get("name", "?")
        name = name if isinstance(name, str) and len(name) <= 40 else _short(name)
        extra = sorted(set(d) - fields - {"count"})
        if extra:
            raise CardError(name, extra[0][:40], _("unknown field; accepted: {accepted}").format(
                accepted=", ".join(sorted(fields | {"count"}))))
        for f in ("name", "rarity", "attack", *KEYS):
            if f not in d:
                raise CardError(name, f, _("missing"))
        return cls(d["name"], d["rarity"], d["attack"], d["attribute"], d["race"], d["size"],
                   d["means"], d.get("skill"), d.get("japanese", ""), tables)

    def __str__(self) -> str:
        t = (self.tables or _default_affinity()).japanese
        skill = SKILLS[self.skill].describe(self.level) if self.skill else _("no skill")
        if _ja():
            name = self.japanese or self.name
            values = "・".join(t[k][getattr(self, k)] for k in KEYS)
        else:
            name = self.name + (f" {self.japanese}" if self.japanese else "")
            values = ", ".join(f"{getattr(self, k)} ({t[k][getattr(self, k)]})" for k in KEYS)
        return _("{name} [{rarity}] attack (攻撃力) {attack}, {values}; {skill}").format(
            name=name, rarity=self.rarity, attack=self.attack, values=values, skill=skill)


@dataclass(frozen=True)
class Deck:
    """A named list of cards (one entry per copy)."""

    name: str
    cards: tuple[Card, ...]

    def cost(self, costs: Mapping | None = None) -> int:
        return sum(c.cost(costs) for c in self.cards)


def load_deck(source: str | Path | Mapping[str, Any], tables: Affinity | None = None, *,
              where: str | None = None) -> Deck:
    """Read a deck file (JSON): ``{"name", "cards": [{card fields…, "count"}]}``.

    A malformed file raises :class:`~cardlab.CardFileError` naming the file,
    the card and the field; affinity values are checked against ``tables``
    (cardlab's own when None).  The deck rules (MC-1) are checked by
    :func:`validate_deck`.
    """
    named, data = read_data_file(source, "", what="deck file") if source is not None else ("", None)
    where = where or named
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardFileError(_("{where}: a deck file holds {{'name': ..., 'cards': [card, ...]}}").format(where=where))
    _unknown_fields(data, ("name", "japanese", "note", "cards"), f"{where}:", CardFileError)
    _text_fields(data, ("name", "japanese", "note"), f"{where}:", CardFileError)
    cards: list[Card] = []
    for i, entry in enumerate(data["cards"]):
        label = entry.get("name", f"#{i}") if isinstance(entry, dict) else f"#{i}"
        label = label if isinstance(label, str) and len(label) <= 40 else _short(label)
        if not isinstance(entry, dict):
            raise CardFileError(_("{where}: card {card}: each card is a JSON object").format(where=where, card=repr(label)))
        try:
            card = Card.from_dict(entry, tables)
        except CardError as exc:
            raise CardFileError(_("{where}: card {card}, field {field}: {why}").format(
                where=where, card=repr(exc.card), field=repr(exc.field), why=exc.why)) from None
        n = entry.get("count", 1)
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 60:
            raise CardFileError(_("{where}: card {card}, field 'count': a whole number from 1 to 60, got {value}").format(
                where=where, card=repr(label), value=_short(n)))
        cards += [card] * n
    return Deck(data.get("name", where), tuple(cards))


def validate_deck(deck: Deck | Sequence[Card], *, deck_size: int = 20, max_cost: int = 200,
                  costs: Mapping | None = None) -> Deck:
    """Check MC-1: exactly ``deck_size`` cards, total cost at most ``max_cost``,
    and one card name never standing for two different cards.  Raises
    :class:`DeckError` naming the deck, the card and the rule."""
    if not isinstance(deck, Deck):
        deck = Deck("<deck>", tuple(deck))
    seen: dict[str, Card] = {}
    for c in deck.cards:
        if not isinstance(c, Card):
            raise DeckError(_("deck {deck}: {card} is not a Card").format(deck=repr(deck.name), card=repr(c)))
        if c.name in seen and seen[c.name] != c:
            raise DeckError(_("deck {deck}: card {card} appears with two different "
                              "definitions; one name, one card").format(deck=repr(deck.name), card=repr(c.name)))
        seen[c.name] = c
    if len(deck.cards) != deck_size:
        raise DeckError(_("deck {deck}: {n} cards; MC-1 asks for exactly "
                          "{deck_size} (table option deck_size={deck_size})").format(
            deck=repr(deck.name), n=len(deck.cards), deck_size=deck_size))
    total = 0
    for c in deck.cards:
        total += c.cost(costs)
        if total > max_cost:
            raise DeckError(_(
                "deck {deck}: total cost {total} is over {max_cost} (MC-1, table "
                "option max_cost={max_cost}); the limit is passed at card {card} (cost {cost})").format(
                deck=repr(deck.name), total=deck.cost(costs), max_cost=max_cost, card=repr(c.name),
                cost=c.cost(costs)))
    return deck


READY_DECKS = ("ember", "tide")


def ready_deck(name: str, tables: Affinity | None = None) -> Deck:
    """One of cardlab's two ready decks, ``"ember"`` (燠火) or ``"tide"`` (潮騒)."""
    data = json.loads(resources.files("cardlab.data").joinpath("monster_cards_decks.json").read_text("utf-8"))
    if not isinstance(name, str) or name not in data["decks"]:
        raise DeckError(_("no ready deck {name}; the ready decks are {decks}").format(
            name=_short(name), decks=", ".join(data["decks"])))
    return load_deck({**data["decks"][name]}, tables, where=f"cardlab/data/monster_cards_decks.json ({name})")


# -- the battle: the scale 勝負の秤 (MC-14 … MC-16) -------------------------------------------
@dataclass
class Battle:
    """A battle explained.  Marks count toward the defender (+) or the attacker (−).

    ``short_hand`` (短針) is where the rarity difference put the short hand
    (MC-14: toward the disadvantaged side); ``steps`` the four affinity
    comparisons (MC-15) as dicts ``key, defender, attacker, winner, long_hand``
    (the long hand 長針 after the step); ``skill_marks`` extra long-hand marks
    from skills; ``result`` "success" / "failure" / "draw" (MC-16); ``damage``
    the attack power a failed defence costs (MC-3, MC-18).
    """

    defender: str
    attacker: str
    defender_rarity: str
    attacker_rarity: str
    short_hand: int
    steps: list[dict[str, Any]]
    skill_marks: int
    long_hand: int
    score: int
    result: str
    damage: int
    notes: list[str] = field(default_factory=list)
    #: the Japanese names of the two cards (``"defender"``, ``"attacker"``) and
    #: of the affinity values (``key: {value: name}``), for Japanese texts
    japanese: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("defender", "attacker", "defender_rarity", "attacker_rarity",
                                              "short_hand", "steps", "skill_marks", "long_hand", "score",
                                              "result", "damage", "notes")}

    def explain(self) -> str:
        """The battle as text: short hand, the four comparisons, the result."""
        def marks(n: int) -> str:
            if n == 0:
                return _("centre")
            if n > 0:
                return _("{n} toward the defender").format(n=abs(n))
            return _("{n} toward the attacker").format(n=abs(n))

        jp = self.japanese if get_language() == "ja" else {}

        def value(key: str, v: str) -> str:
            return jp.get(key, {}).get(v, v)
        lines = [_("Battle (戦闘): defender (防衛) {defender} [{defender_rarity}] vs "
                   "attacker (攻撃) {attacker} [{attacker_rarity}]").format(
            defender=jp.get("defender") or self.defender, defender_rarity=self.defender_rarity,
            attacker=jp.get("attacker") or self.attacker, attacker_rarity=self.attacker_rarity)]
        d = RARITY_POINTS[self.defender_rarity] - RARITY_POINTS[self.attacker_rarity]
        if self.short_hand:
            ahead, moves = abs(d), abs(self.short_hand)
            if d > 0:
                what = (_("the defender is {ahead} ahead, the short hand moves {moves} toward the attacker")
                        if self.short_hand < 0 else
                        _("the defender is {ahead} ahead, the short hand moves {moves} toward the defender"))
            else:
                what = (_("the attacker is {ahead} ahead, the short hand moves {moves} toward the attacker")
                        if self.short_hand < 0 else
                        _("the attacker is {ahead} ahead, the short hand moves {moves} toward the defender"))
            what = what.format(ahead=ahead, moves=moves)
        elif d == 0:
            what = _("no difference, it stays at the centre")
        else:
            what = _("the difference does not count (GameChanger), it stays at the centre")
        lines.append("  " + _("short hand (短針), MC-14: rarity {defender} vs {attacker}: {what}").format(
            defender=self.defender_rarity, attacker=self.attacker_rarity, what=what))
        for s in self.steps:
            who = {"defender": _("the defender has the advantage: +1 toward the defender"),
                   "attacker": _("the attacker has the advantage: 1 toward the attacker"),
                   "even": _("even: the long hand stays")}[s["winner"]]
            flip = _(" (reversed by a GameChanger)") if s.get("reversed") else ""
            lines.append("  " + _("{key}, MC-15: {defender} vs {attacker}: {verdict}{reversed}; "
                                  "long hand (長針) {long_hand}").format(
                key=_(KEY_TERM[s["key"]]), defender=value(s["key"], s["defender"]),
                attacker=value(s["key"], s["attacker"]), verdict=who, reversed=flip,
                long_hand=marks(s["long_hand"])))
        for n in self.notes:
            lines.append(f"  {n}")
        res = {"success": _("defence succeeds (防衛成功): the defender becomes the attacker (MC-18)"),
               "failure": _("defence fails (防衛失敗): {damage} damage to the defending player (MC-18, MC-3)").format(
                   damage=self.damage),
               "draw": _("draw (引き分け): the hands are on the same mark (MC-16, MC-Q4)")}[self.result]
        lines.append("  " + _("result, MC-16: long hand {long_hand}, short hand {short_hand}: {result}").format(
            long_hand=marks(self.long_hand), short_hand=marks(self.short_hand), result=res))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()


def attack_power(attacker: Card, gamechanger: Card | None = None) -> int:
    """MC-3: the cards an attack by ``attacker`` mills: its attack power, plus
    Fury (猛攻) while it attacks and a Bloodlust (血の渇き) GameChanger in force.

    >>> attack_power(Card("a", "C", 2, "none", "human", "medium", "melee", skill="fury"))
    3
    """
    damage = attacker.attack
    if attacker.skill == "fury":
        damage += attacker.amount
    if gamechanger is not None and gamechanger.skill == "bloodlust":
        damage += gamechanger.amount
    return damage


def battle(defender: Card, attacker: Card, *, affinity: Affinity | None = None,
           gamechanger: Card | None = None) -> Battle:
    """Compute one battle exactly as the seed's two hands do (MC-14 … MC-16).

    >>> d = Card("d", "SR", 1, "fire", "human", "medium", "magic")
    >>> a = Card("a", "C", 1, "none", "demon", "medium", "defence")
    >>> b = battle(d, a)
    >>> b.short_hand, [s["winner"] for s in b.steps], b.long_hand, b.result
    (-2, ['even', 'attacker', 'even', 'defender'], 0, 'success')
    """
    t = affinity or _default_affinity()
    gc = SKILLS[gamechanger.skill] if gamechanger is not None and gamechanger.category == "gamechanger" else None
    gc_n = gamechanger.amount if gc else 0
    notes: list[str] = []
    diff = RARITY_POINTS[defender.rarity] - RARITY_POINTS[attacker.rarity]
    if gc and gc.id == "leveller" and abs(diff) > gc_n:
        notes.append(_("GameChanger {card} Leveller (均衡): the rarity difference counts at most {n}").format(
            card=_card_name(gamechanger), n=gc_n))
        diff = gc_n if diff > 0 else -gc_n
    short = -diff  # MC-14: toward the disadvantaged side
    long_ = 0
    steps = []
    flips = gc_n if gc and gc.id == "inversion" else 0
    for i, key in enumerate(KEYS):
        dv, av = getattr(defender, key), getattr(attacker, key)
        c = t.compare(key, dv, av)
        rev = i < flips
        if rev:
            c = -c
        long_ += c
        steps.append({"key": key, "defender": dv, "attacker": av,
                      "winner": {1: "defender", -1: "attacker", 0: "even"}[c],
                      "long_hand": long_, "reversed": rev})
    extra = 0
    if defender.skill == "bulwark":
        extra = defender.amount
        notes.append(_("{card} Bulwark (堅守){form}: the long hand moves {n} more toward the defender").format(
            card=_card_name(defender), form=" " + LEVEL_NAMES[defender.level] if defender.level > 1 else "",
            n=extra))
    long_ += extra
    score = long_ - short
    result = "success" if score > 0 else "failure" if score < 0 else "draw"
    japanese = {"defender": defender.japanese, "attacker": attacker.japanese,
                **{key: {v: t.japanese[key].get(v, v) for v in (getattr(defender, key), getattr(attacker, key))}
                   for key in KEYS}}
    return Battle(defender.name, attacker.name, defender.rarity, attacker.rarity, short, steps, extra,
                  long_, score, result, attack_power(attacker, gamechanger), notes, japanese)


# -- the game ------------------------------------------------------------------------
def _players_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 8


def _decks_ok(v: Any) -> bool:
    if v is None:
        return True
    return (isinstance(v, (list, tuple)) and 1 <= len(v) <= 8
            and all(isinstance(x, (str, dict)) for x in v))


def _table_ok(v: Any) -> bool:
    return v is None or isinstance(v, (str, dict))


def _size_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100


def _cost_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100_000


class MonsterCards(Game):
    """MONSTER CARDS (モンスターカード), 2 to 8 players, decks the players built.

    >>> import cardlab
    >>> game = cardlab.load("monster_cards", open_hands=True)
    >>> s = game.new_initial_state(seed=1)
    >>> s.current_player, s.legal_actions()[0].startswith("defend")
    (0, True)
    """

    name = "monster_cards"
    title = N_("MONSTER CARDS (モンスターカード)")
    rules = "monster_cards.md"
    OPTIONS = {
        "players": Option(2, N_("number of players, 2 to 8 (MC-1)"), check=_players_ok,
                          accepts=N_("a whole number from 2 to 8"), label=N_('players (2-8人)')),
        "open_hands": bool_option(N_("every player sees every hand, deck top and graveyard; "
                                     "the unknown part of each deck stays random"), label=N_("open hands")),
        "decks": Option(None, N_("the players' decks, dealt in seat order and repeated: names of ready decks "
                                 "('ember', 'tide'), deck-file paths or deck dicts; None: ember, tide, ember, …"),
                        check=_decks_ok, accepts=N_("None or a list of 1-8 deck names, paths or dicts")),
        "deck_size": Option(20, N_("cards in each deck (MC-1)"), check=_size_ok, accepts=N_("a whole number 1-100"),
                            label=N_('deck size 山札')),
        "max_cost": Option(200, N_("highest total cost of a deck (MC-1)"), check=_cost_ok,
                           accepts=N_("a whole number 0-100000"), label=N_('deck cost limit')),
        "affinity": Option(None, N_("affinity tables: a JSON path or dict (MC-Q1); None: cardlab's own"),
                           check=_table_ok, accepts=N_("None, a path to a JSON file, or a dict")),
        "costs": Option(None, N_("cost formula: a JSON path or dict (MC-Q2); None: cardlab's own"),
                        check=_table_ok, accepts=N_("None, a path to a JSON file, or a dict")),
        "on_draw": Option("both_to_ruins", N_("a drawn battle (MC-Q4): both cards to the ruins, or "
                                              "the attacker stays"),
                          choices=("both_to_ruins", "attacker_stays"), label=N_('on a tie (引き分け)'),
                          choice_words={"both_to_ruins": N_("both_to_ruins"), "attacker_stays": N_("attacker_stays")}),
        "own_attacker": Option("no_attack", N_("the turn player's own card in the attack zone (MC-Q6): "
                                               "'no_attack' (it does not attack its owner; a defence-zone play goes "
                                               "to the ruins) or 'attacks' (a battle as against anybody's card)"),
                               choices=("no_attack", "attacks"), label=N_('your own attack card'),
                               choice_words={"no_attack": N_("no_attack"), "attacks": N_("attacks")}),
        "replacing": Option("takes_attack", N_("a card played to the attack zone (MC-11): 'takes_attack' "
                                               "(the seed: the turn player takes the attacker's attack, "
                                               "「攻撃を受ける代わりに」, then their card pushes it away) or 'free' "
                                               "(no damage)"),
                            choices=("takes_attack", "free"), label=N_('replacing the attack card'),
                            choice_words={"takes_attack": N_("takes_attack"), "free": N_("free")}),
        "out_by_drawing": bool_option(N_("a deck emptied by drawing puts the player out at once (MC-Q7); "
                                         "False: only damage does, or a turn with no card to play"), True,
                                      label=N_('out by drawing')),
    }
    ACTION_GRAMMAR = N_("'defend X', 'attack X', 'discard X', 'gc X'; chance: 'draw X', 'mill X' "
                        "(X a card name such as ember_imp)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        o = self.options
        self.affinity = load_affinity(o["affinity"])
        self.costs = load_costs(o["costs"])
        n = o["players"]
        sources = list(o["decks"]) if o["decks"] is not None else list(READY_DECKS)
        decks: list[Deck] = []
        for i in range(n):
            src = sources[i % len(sources)]
            if isinstance(src, str) and src in READY_DECKS:
                deck = ready_deck(src, self.affinity)
            elif isinstance(src, str) and src.endswith(".json") or isinstance(src, dict):
                deck = load_deck(src, self.affinity)
            else:
                raise DeckError(_("monster_cards: deck {deck} of player {player} is neither a ready deck "
                                  "({ready}) nor a .json file or a dict").format(
                    deck=_short(src), player=i, ready=", ".join(READY_DECKS)))
            validate_deck(deck, deck_size=o["deck_size"], max_cost=o["max_cost"], costs=self.costs)
            decks.append(deck)
        by_name: dict[str, Card] = {}
        for deck in decks:
            for c in deck.cards:
                if c.name in by_name and by_name[c.name] != c:
                    raise DeckError(_("monster_cards: card {card} is defined differently in two decks; "
                                      "one name, one card").format(card=repr(c.name)))
                by_name[c.name] = c
        self.decks = decks
        self.cards: tuple[Card, ...] = tuple(by_name[k] for k in sorted(by_name))
        self.card_id = {c.name: i for i, c in enumerate(self.cards)}
        self.deck_ids = tuple(tuple(sorted(self.card_id[c.name] for c in d.cards)) for d in decks)
        self.deck_counts = tuple(Counter(ids) for ids in self.deck_ids)
        self.names = tuple(c.name for c in self.cards)
        self.deck_vectors = tuple(tuple(cnt[c] for c in range(len(self.cards))) for cnt in self.deck_counts)
        self._battles: dict[tuple, tuple[str, int]] = {}
        self._saved_options = self.options_dict()
        cat = [c.category for c in self.cards]
        self.is_gc = tuple(x == "gamechanger" for x in cat)
        self.discard_skill = tuple(c.skill if x == "discard" else None for c, x in zip(self.cards, cat))
        self.mend = tuple(c.amount if c.skill == "mend" else 0 for c in self.cards)

    def _make_spec(self) -> Spec:
        n = self.options["players"]
        total = sum(len(d) for d in self.deck_ids)
        max_heal = max([c.amount for c in self.cards if c.skill in ("mend", "revive")] + [0])
        # Proof of the bound.  Every player action moves ≥ 1 card out of a hand
        # for good (to a zone or the ruins; nothing comes back to a hand but by
        # drawing, and nothing leaves the ruins or zones for a hand, deck or
        # graveyard), and a card once played never returns, so actions ≤ total.
        # Decks gain cards only by healing, ≤ max_heal per action, so draws +
        # damage (the only chance events, one card each) ≤ total + max_heal·total.
        return Spec(num_players=n, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=Fraction(-1, n - 1), max_utility=Fraction(1),
                    max_game_length=total * (2 + max_heal), zero_sum=True)

    def _root(self) -> "MonsterCardsState":
        n = self.options["players"]
        players = tuple(((), (), self.deck_ids[i], ()) for i in range(n))
        return _settle(self, DRAW, 0, (), (), (), (1,) * n, [list(p) for p in players])

    def card(self, name: str) -> Card:
        return self.cards[self.card_id[name]]

    def attack_power(self, a: int, gc: int) -> int:
        """The damage attacker id ``a`` deals under GameChanger id ``gc`` (−1: none), MC-3."""
        return attack_power(self.cards[a], self.cards[gc] if gc >= 0 else None)

    def battle_result(self, d: int, a: int, gc: int) -> tuple[str, int]:
        """(result, damage) of defender id ``d`` vs attacker id ``a`` under GameChanger id ``gc`` (−1: none)."""
        key = (d, a, gc)
        r = self._battles.get(key)
        if r is None:
            b = battle(self.cards[d], self.cards[a], affinity=self.affinity,
                       gamechanger=self.cards[gc] if gc >= 0 else None)
            r = self._battles[key] = (b.result, b.damage)
        return r

    def _state_from_dict(self, d: Mapping[str, Any]) -> "MonsterCardsState":
        """Check a position field by field (J): types, card counts against the
        decks (MC-1, MC-7), what each phase needs (a pending damage as a move
        leaves it, MC-3, MC-10, MC-11, MC-18), the end exactly when one player
        is left (MC-19), and that play stops there."""
        check_keys(d, ["phase", "turn", "attack", "gamechanger", "pending", "players"],
                   "monster_cards")
        saved = self._saved_options
        opts = d.get("options", saved)  # a hand-written position may leave them out
        if not isinstance(opts, Mapping) or json.dumps(opts, sort_keys=True) != json.dumps(saved, sort_keys=True):
            raise PositionError(_("monster_cards: options: the position was saved with options {saved}; "
                                  "this game has {options}: load it with those options").format(
                saved=_short(opts, 80), options=_short(saved, 80)))
        n = self.options["players"]
        phase = PHASE_CODES.get(d["phase"]) if isinstance(d["phase"], str) else None
        if phase is None:
            raise PositionError(_("monster_cards: phase {phase} unknown; one of {phases}").format(
                phase=_short(d["phase"]), phases=list(PHASE_CODES)))
        turn = d["turn"]
        if type(turn) is not int or not 0 <= turn < n:
            raise PositionError(_("monster_cards: turn must be a player 0-{last}, got {value}").format(
                last=n - 1, value=_short(turn)))

        def cid(name: Any, what: str) -> int:
            c = self.card_id.get(name) if isinstance(name, str) else None
            if c is None:
                raise PositionError(_("monster_cards: {field}: {value} is not a card of this game").format(
                    field=what, value=_short(name)))
            return c

        def zone(z: Any, what: str) -> tuple:
            if z is None:
                return ()
            if not isinstance(z, Mapping) or set(z) != {"owner", "card"}:
                raise PositionError(_("monster_cards: {field} must be null or {{'owner': p, 'card': name}}, "
                                      "got {value}").format(field=what, value=_short(z)))
            if type(z["owner"]) is not int or not 0 <= z["owner"] < n:
                raise PositionError(_("monster_cards: {field}.owner must be a player 0-{last}, got {value}").format(
                    field=what, last=n - 1, value=_short(z["owner"])))
            return (z["owner"], cid(z["card"], f"{what}.card"))

        attack = zone(d["attack"], "attack")
        gc = zone(d["gamechanger"], "gamechanger")
        if gc and not self.is_gc[gc[1]]:
            raise PositionError(_("monster_cards: gamechanger {card} has no GameChanger skill").format(
                card=repr(self.cards[gc[1]].name)))
        players = d["players"]
        if not isinstance(players, list) or len(players) != n:
            raise PositionError(_("monster_cards: players must be a list of {n} player dicts").format(n=n))
        ps, alive = [], []
        for i, p in enumerate(players):
            fields = {"out", "hand", "deck_top", "deck", "graveyard"}
            if not isinstance(p, Mapping) or not fields <= set(p) <= fields | {"gone"}:
                raise PositionError(_("monster_cards: players[{i}] must have exactly the fields "
                                      "out, hand, deck_top, deck, graveyard (and gone, once out)").format(i=i))
            if not isinstance(p["out"], bool):
                raise PositionError(_("monster_cards: players[{i}].out must be true or false, got {value}").format(
                    i=i, value=_short(p["out"])))
            if "gone" in p and not p["out"]:
                raise PositionError(_("monster_cards: players[{i}].gone: only a player who is out has cards "
                                      "that left the game").format(i=i))
            zones = []
            card_id = self.card_id
            for f in ("hand", "deck_top", "deck", "graveyard") + (("gone",) if "gone" in p else ()):
                names = p[f]
                if not isinstance(names, list):
                    raise PositionError(_("monster_cards: players[{i}].{field} must be a list of card names").format(
                        i=i, field=f))
                try:
                    ids = [card_id[x] for x in names]
                except (KeyError, TypeError):
                    ids = [cid(x, f"players[{i}].{f}") for x in names]
                zones.append(tuple(sorted(ids)) if f in ("hand", "deck", "gone") else tuple(ids))
            if p["out"] and any(zones[:4]):
                raise PositionError(_("monster_cards: players[{i}] is out: hand, deck and graveyard must be empty").format(
                    i=i))
            left = list(self.deck_vectors[i])
            for c in [c for z in zones for c in z] + [z[1] for z in (attack, gc) if z and z[0] == i]:
                left[c] -= 1
            for c, m in enumerate(left):
                if m < 0:
                    raise PositionError(_("monster_cards: players[{i}] holds {n} {card}; their deck has {deck}").format(
                        i=i, n=self.deck_vectors[i][c] - m, card=repr(self.cards[c].name), deck=self.deck_vectors[i][c]))
            if p["out"] and "gone" not in p:  # a hand-written position: none of their cards in the ruins
                zones.append(tuple(c for c, m in enumerate(left) for _ in range(m)))
            ps.append(zones)
            alive.append(0 if p["out"] else 1)
            if not p["out"] and not zones[1] and not zones[2] and self.options["out_by_drawing"]:
                raise PositionError(_("monster_cards: players[{i}] has an empty deck but is not out (MC-19, MC-Q7)").format(
                    i=i))
        living = sum(alive)
        if phase == END and living != 1:
            raise PositionError(_("monster_cards: phase 'end' needs exactly one player not out (MC-19)"))
        if phase == END and not alive[turn]:
            raise PositionError(_("monster_cards: turn: in the phase 'end' it names the winner, player "
                                  "{winner} (the one player not out), not player {turn} (MC-19)").format(
                winner=alive.index(1), turn=turn))
        if phase != END and living < 2:
            raise PositionError(_("monster_cards: with fewer than two players left the phase must be 'end'"))
        if phase != END and not alive[turn]:
            raise PositionError(_("monster_cards: the turn player {turn} is out").format(turn=turn))
        self._check_history(phase, turn, alive, ps)
        pend = d["pending"]
        if phase == MILL:
            if (not isinstance(pend, Mapping) or set(pend) != {"target", "damage", "then"}
                    or type(pend["target"]) is not int or not 0 <= pend["target"] < n
                    or type(pend["damage"]) is not int or pend["damage"] < 1 or pend["then"] not in ("action", "end")):
                shape = "{'target': p, 'damage': n ≥ 1, 'then': 'action' " + _("or") + " 'end'}"
                raise PositionError(_("monster_cards: phase 'mill' needs pending = {shape}").format(shape=shape))
            pend_t = (pend["target"], pend["damage"], ACT if pend["then"] == "action" else END)
            self._check_pending(pend_t, turn, attack, gc, ps[turn][HAND])
        elif pend is not None:
            raise PositionError(_("monster_cards: pending must be null outside the phase 'mill'"))
        else:
            pend_t = ()
        self._check_turns(phase, turn, attack, pend_t, alive, ps)
        key = (phase, turn, attack, gc, pend_t, tuple(alive), tuple(tuple(z) for z in ps))
        state = _settle(self, phase, turn, attack, gc, pend_t, tuple(alive), [list(z) for z in ps])
        k = state._k
        if k != key:
            raise PositionError(_(
                "monster_cards: the position is not where play stops (phase {phase}): "
                "a draw or damage that is already certain (a known deck top, a draw or damage taking the whole deck, "
                "a full hand) happens at once, or the game is over; settled, it is the phase {settled} "
                "of player {player}, with {hands} cards in hand and {decks} in the decks").format(
                phase=repr(d["phase"]), settled=repr(PHASE_NAMES[k[0]]), player=k[1],
                hands=[len(z[HAND]) for z in k[6]], decks=[len(z[TOP]) + len(z[REST]) for z in k[6]]))
        return state

    def _check_history(self, phase: str, turn: int, alive: list, ps: list) -> None:
        """What the counts tell of the past (J).  A player's cards out of their
        deck and graveyard were all drawn (cards leave a deck only by drawing
        or damage, MC-3, MC-9): none before their first turn, and at least 3 (or
        the whole deck) once their first draw is over (MC-9).  Nothing hurts or
        heals a player before they draw (damage falls on the defending player
        or the attack-zone card's owner, MC-18, MC-10).  In the first round the
        players before the turn player have drawn and those after have not:
        turns go in seat order (MC-Q8)."""
        fresh = []
        for q, z in enumerate(ps):
            if not alive[q]:
                continue
            size = len(self.deck_ids[q])
            drawn = size - len(z[TOP]) - len(z[REST]) - len(z[GRAVE])
            if drawn == 0:
                fresh.append(q)
                if z[GRAVE] or z[TOP]:
                    raise PositionError(_("monster_cards: players[{i}]: has drawn no card yet, so no damage or "
                                          "healing has come to them: graveyard and deck_top must be empty "
                                          "(MC-3, MC-8)").format(i=q))
            elif drawn < min(HAND_TARGET, size) and not (q == turn and phase == DRAW):
                raise PositionError(_("monster_cards: players[{i}]: only {drawn} of their cards are out of the deck "
                                      "and graveyard, but their first turn drew {first} (MC-9)").format(
                    i=q, drawn=drawn, first=min(HAND_TARGET, size)))
        if phase == END or not fresh:
            return
        for q in range(len(ps)):  # the first round
            if q < turn and q in fresh:
                raise PositionError(_("monster_cards: players[{i}]: has drawn no card, but their first turn comes "
                                      "before player {turn}'s (seat order, MC-Q8)").format(i=q, turn=turn))
            if q > turn and q not in fresh:
                raise PositionError(_("monster_cards: players[{i}]: has drawn or is out while player {fresh} has "
                                      "not drawn yet: in the first round nobody after player {turn} has had a turn "
                                      "(seat order, MC-Q8)").format(i=q, fresh=fresh[-1], turn=turn))

    def _check_turns(self, phase: str, turn: int, attack: tuple, pend: tuple, alive: list, ps: list) -> None:
        """Hand sizes and the cards out of each hand against the turns (J).  A
        hand is refilled up to 3 only at its owner's turn start (MC-9) and
        nothing else adds to it, so it never holds more than 3, and at most 2
        once its owner has played (MC-11).  A card leaves a hand by the one
        play of each turn (MC-11), or by a Discard skill or a GameChanger
        (MC-10), at most two a turn (the hand keeps a card to play).  Turns go
        round in seat order skipping players who are out (MC-Q8), so a player
        not out has played B + 1 times if seated before the turn player (or
        is the turn player after the play), else B times, for one B.
        A player who is out played no more than that (they stopped at some
        turn; MC-19), and their cards that left the hands (the ruins, and
        their attacker or GameChanger: all but ``gone``) need as many plays
        as any other player's.  At the end (MC-19) the turn names the winner:
        a player who is out has played at most once more than the winner if
        seated before the winner, else at most as often."""
        mid = phase == ACT or (phase == MILL and pend[2] == ACT)  # the turn player has not played yet
        lo, hi = 0, 10 ** 9
        plays = []  # the least and most plays each player's counts allow
        for q, z in enumerate(ps):
            h = len(z[HAND])
            now = q == turn and mid and phase != END
            if alive[q] and h > HAND_TARGET:
                raise PositionError(_("monster_cards: players[{i}].hand holds {n} cards, more than 3: a hand "
                                      "is only refilled up to 3 (MC-9)").format(i=q, n=h))
            if alive[q] and h == HAND_TARGET and not now and phase != END:
                raise PositionError(_("monster_cards: players[{i}].hand holds 3 cards, but player {i} has played "
                                      "since the draw or is still to draw: at most 2 (MC-9, MC-11)").format(i=q))
            left = list(self.deck_vectors[q])
            for c in z[HAND] + z[TOP] + z[REST] + z[GRAVE] + (() if alive[q] else z[GONE]):
                left[c] -= 1
            if attack and attack[0] == q:  # played, not discarded
                left[attack[1]] -= 1
            extra_ok = sum(m for c, m in enumerate(left) if self.discard_skill[c] or self.is_gc[c])
            out_of_hand = sum(left) + int(bool(attack) and attack[0] == q)
            # plays P with out_of_hand - extra_ok <= P <= out_of_hand and out_of_hand <= 3P + 2·now
            plays.append((max(out_of_hand - extra_ok, -(-(out_of_hand - 2 * now) // 3)), out_of_hand))
        if phase == END:
            for q, (least, _most) in enumerate(plays):
                if not alive[q] and least > plays[turn][1] + int(q < turn):
                    raise PositionError(_(
                        "monster_cards: players[{i}]: the ruins need {least} plays (MC-11; Discard or GameChanger "
                        "cards aside, at most two a turn, MC-10), but the winner {turn} played at most "
                        "{most} times (turns in seat order, MC-Q8, MC-19)").format(
                        i=q, least=least, turn=turn, most=plays[turn][1]))
            return
        # plays P = B + e for a player not out, P <= B + e for one who is out (MC-19)
        for q in sorted(range(len(ps)), key=lambda q: not alive[q]):
            least, most = plays[q]
            e = int(q < turn or (q == turn and phase == MILL and pend[2] == END))
            lo = max(lo, least - e)
            if alive[q]:
                hi = min(hi, most - e)
            if lo > hi:
                if not alive[q]:
                    raise PositionError(_(
                        "monster_cards: players[{i}]: the ruins need {least} plays (MC-11; Discard or GameChanger "
                        "cards aside, at most two a turn, MC-10), more than the turns before going out "
                        "(MC-19, MC-Q8)").format(i=q, least=least))
                raise PositionError(_(
                    "monster_cards: players[{i}]: {most} cards have left the hands, which the turns cannot "
                    "give: one play a turn (MC-11), turns in seat order (MC-Q8), and only Discard or GameChanger "
                    "cards leave otherwise, at most two a turn (MC-10)").format(i=q, most=most))

    def _check_pending(self, pend: tuple, turn: int, attack: tuple, gc: tuple, hand: tuple) -> None:
        """The damage still to come in the phase 'mill' is one a move leaves (J):
        after a play (then 'end') it falls on the turn player, a failed defence
        (MC-18) or a replacement (MC-11), and is at most an attack's power
        (MC-3); after an Ambush discard (then 'action', MC-10) it falls on the
        attack-zone card's owner, another player, is at most an Ambush's size,
        and the turn player still holds a card to play (MC-11)."""
        target, damage, then = pend
        if not attack:
            raise PositionError(_("monster_cards: pending: damage comes from the card in the attack zone (a failed "
                                  "defence, a replacement or an Ambush on its owner), but the attack zone is empty"))
        gc_id = gc[1] if gc else -1
        if then == END:
            if target != turn:
                raise PositionError(_("monster_cards: pending.target: damage after a play falls on the turn player "
                                      "{turn} (a failed defence, MC-18, or a replacement, MC-11), not {target}").format(
                    turn=turn, target=target))
            if attack[0] != turn:  # a failed defence against this attacker
                cap = self.attack_power(attack[1], gc_id)
            elif self.options["replacing"] == "free" and self.options["own_attacker"] == "no_attack":
                raise PositionError(_("monster_cards: pending: the turn player's own attacker deals them no damage "
                                      "(MC-Q6) and a replacement is free here (option replacing='free')"))
            else:  # a replacement: the attack of whichever card was pushed away
                cap = max(self.attack_power(c, gc_id) for c in range(len(self.cards)))
            why = _("the attack's power (MC-3)")
        else:
            if target == turn or target != attack[0]:
                raise PositionError(_("monster_cards: pending.target: damage after an Ambush falls on the "
                                      "attack-zone card's owner, another player (MC-10), not player {target}").format(
                    target=target))
            if not hand:
                raise PositionError(_("monster_cards: pending: after an Ambush (then 'action') the turn player plays "
                                      "on, but player {turn} holds no card (MC-11)").format(turn=turn))
            cap = max([c.amount for c in self.cards if c.skill == "ambush"] + [0])
            why = _("an Ambush's size (MC-10)")
        if damage > cap:
            raise PositionError(_("monster_cards: pending.damage: {damage} is more than is left to deal here: "
                                  "at most {cap}, {why}").format(damage=damage, cap=cap, why=why))


# -- rules: moving from one stop to the next ------------------------------------------------
def _remove(t: tuple, c: int) -> tuple:
    i = t.index(c)
    return t[:i] + t[i + 1:]


def _insert(t: tuple, c: int) -> tuple:
    lst = list(t)
    insort(lst, c)
    return tuple(lst)


def _heal(ps: list, p: int, n: int) -> None:
    """MC-8: the graveyard's top cards go back on top of the deck, one by one."""
    grave, top = ps[p][GRAVE], ps[p][TOP]
    k = min(n, len(grave))
    if k:
        # one by one: the graveyard's top card goes on the deck's top, so the
        # cards come back in the order they left (healing undoes the latest damage)
        ps[p][GRAVE] = grave[:len(grave) - k]
        ps[p][TOP] = grave[len(grave) - k:] + top


def _next_alive(alive: tuple, turn: int) -> int:
    n = len(alive)
    for j in range(1, n + 1):
        q = (turn + j) % n
        if alive[q]:
            return q
    return turn  # pragma: no cover


def _settle(game: MonsterCards, phase, turn, attack, gc, pend, alive, ps,
            log: list | None = None) -> "MonsterCardsState":
    """Play everything that is certain, up to the next decision, chance event or the end.

    Certain: a draw or damage from the known deck top, and a draw or damage
    that takes the whole deck (its order cannot matter).  Both depend only on
    public counts, so where play stops never reveals a hidden card; a deck
    rest of one kind is still a chance event (with one outcome).  ``log``
    (a list, or None) collects ``(player, how)`` for each player put out on
    the way, ``how`` "damage", "draw" or "empty" (for the explanations)."""
    by_draw = game.options["out_by_drawing"]
    while True:
        if sum(alive) <= 1:
            winner = alive.index(1)
            return MonsterCardsState(game, (END, winner, attack, gc, (), alive,
                                            tuple(tuple(z) for z in ps)))
        if phase == MILL:
            target, rem, then = pend
            z = ps[target]
            if alive[target] and rem > 0:
                if rem >= len(z[TOP]) + len(z[REST]):  # the whole deck goes: out (MC-19), order moot
                    alive, ps = _out(alive, ps, target, log, "damage")
                    continue
                if z[TOP]:  # the known top goes first, no chance involved
                    c = z[TOP][0]
                    z[TOP] = z[TOP][1:]
                else:
                    return MonsterCardsState(game, (MILL, turn, attack, gc, (target, rem, then), alive,
                                                    tuple(tuple(x) for x in ps)))
                z[GRAVE] = z[GRAVE] + (c,)
                pend = (target, rem - 1, then)
                if not z[TOP] and not z[REST]:  # MC-19 the deck reached 0
                    alive, ps = _out(alive, ps, target, log, "damage")
                continue
            pend = ()
            if then == ACT and alive[turn]:
                phase = ACT
                continue
            phase, turn = DRAW, _next_alive(alive, turn)
            continue
        if phase == DRAW:
            z = ps[turn]
            if len(z[HAND]) >= HAND_TARGET:
                phase = ACT
                continue
            if not z[TOP] and not z[REST]:  # only without out_by_drawing
                if z[HAND]:
                    phase = ACT
                else:  # nothing to play: out (MC-Q7 option)
                    alive, ps = _out(alive, ps, turn, log, "empty")
                    phase, turn = DRAW, _next_alive(alive, turn)
                continue
            if HAND_TARGET - len(z[HAND]) >= len(z[TOP]) + len(z[REST]):
                # the whole deck comes to the hand: the order of the draws does not matter
                z[HAND] = tuple(sorted(z[HAND] + z[TOP] + z[REST]))
                z[TOP] = z[REST] = ()
                if by_draw:  # MC-Q7: out at once
                    alive, ps = _out(alive, ps, turn, log, "draw")
                    phase, turn = DRAW, _next_alive(alive, turn)
                else:
                    phase = ACT
                continue
            if z[TOP]:  # the known top comes first, no chance involved
                c = z[TOP][0]
                z[TOP] = z[TOP][1:]
            else:
                return MonsterCardsState(game, (DRAW, turn, attack, gc, (), alive,
                                                tuple(tuple(x) for x in ps)))
            z[HAND] = _insert(z[HAND], c)
            if by_draw and not z[TOP] and not z[REST]:  # MC-Q7: out at once
                alive, ps = _out(alive, ps, turn, log, "draw")
                phase, turn = DRAW, _next_alive(alive, turn)
            continue
        return MonsterCardsState(game, (ACT, turn, attack, gc, (), alive, tuple(tuple(x) for x in ps)))


def _out(alive: tuple, ps: list, p: int, log: list | None = None, how: str = "") -> tuple[tuple, list]:
    """MC-19: the player is out; their hand, deck and graveyard leave the game
    face down (the zone ``GONE``, a multiset), so their ruins stay (MC-7)."""
    if log is not None:
        log.append((p, how))
    alive = alive[:p] + (0,) + alive[p + 1:]
    ps[p] = [(), (), (), (), tuple(sorted(c for zone in ps[p] for c in zone))]
    return alive, ps


class MonsterCardsState(State):
    """A MONSTER CARDS position; see the module docstring for the notation.

    The key tuple is ``(phase, turn, attack, gamechanger, pending, alive,
    players)`` with ``attack``/``gamechanger`` ``()`` or ``(owner,
    card id)``, ``pending`` ``()`` or ``(target, damage left, then)`` and each
    player ``(hand, deck top, deck rest, graveyard)``, and ``((), (), (), (),
    gone)`` once out.
    """

    __slots__ = ()

    # -- reading the position ---------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._k[0]]

    @property
    def turn(self) -> int:
        return self._k[1]

    @property
    def current_player(self) -> int:
        ph = self._k[0]
        if ph == ACT:
            return self._k[1]
        if ph == END:
            return TERMINAL
        return CHANCE

    def _names(self, ids: Iterable[int]) -> list[str]:
        names = self.game.names
        return [names[i] for i in ids]

    def deck_size(self, p: int) -> int:
        z = self._k[6][p]
        return len(z[TOP]) + len(z[REST])

    def ruins(self, p: int) -> list[str]:
        """Player ``p``'s cards in the ruins (跡地): in no other zone (MC-7)."""
        k = self._k
        pool = list(self.game.deck_vectors[p])
        z = k[6][p]
        for zone in z:
            for c in zone:
                pool[c] -= 1
        for zone in (k[2], k[3]):
            if zone and zone[0] == p:
                pool[zone[1]] -= 1
        names = self.game.names
        return [names[c] for c, m in enumerate(pool) for _ in range(m)]

    def winner(self) -> int | None:
        return self._k[1] if self._k[0] == END else None

    def returns(self) -> list:
        """MC-19: 1 for the last player standing, −1/(n−1) for each other
        (zero-sum; with two players 1 and −1)."""
        k = self._k
        n = len(k[5])
        if k[0] != END:
            return [0] * n
        lose = -1 if n == 2 else Fraction(-1, n - 1)
        return [1 if p == k[1] else lose for p in range(n)]

    def heuristic(self, player: int) -> float:
        """Own deck and hand against the strongest other player (public counts only)."""
        k = self._k
        if k[0] == END:
            return 100.0 * float(self.returns()[player])
        if not k[5][player]:
            return -100.0
        mine = self.deck_size(player) + 0.5 * len(k[6][player][HAND])
        others = [self.deck_size(q) + 0.5 * len(k[6][q][HAND]) for q in range(len(k[5])) if q != player and k[5][q]]
        bonus = 1.0 if k[2] and k[2][0] == player else 0.0
        return mine - max(others) + bonus

    # -- moves --------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        k = self._k
        if k[0] != ACT:
            return []
        game = self.game
        p = k[1]
        hand = k[6][p][HAND]
        kinds = sorted(set(hand))
        names = [game.cards[c].name for c in kinds]
        acts = [f"defend {x}" for x in names]
        attack = k[2]
        if attack:
            acts += [f"attack {x}" for x in names]
        if len(hand) >= 2:  # MC-10 extras, as many as wished, keep a card for the mandatory play (MC-11)
            acts += [f"discard {x}" for c, x in zip(kinds, names) if game.discard_skill[c]]  # MC-Q10
            acts += [f"gc {x}" for c, x in zip(kinds, names) if game.is_gc[c]]  # MC-Q10: no limit a turn
        return acts

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        if k[0] == DRAW:
            who, verb = k[1], "draw"
        elif k[0] == MILL:
            who, verb = k[4][0], "mill"
        else:
            return []
        rest = k[6][who][REST]
        n = len(rest)
        cards = self.game.cards
        return [(f"{verb} {cards[c].name}", Fraction(rest.count(c), n)) for c in sorted(set(rest))]

    def _apply(self, action: str) -> "MonsterCardsState":
        return self._play(action)

    def _discard_effect(self, c: int) -> tuple[str, int]:
        """What discarding card id ``c`` does here (MC-10, MC-Q10): ``("heal", k)``
        with k the cards that come back (0 with an empty graveyard), ``("banish",
        0 or 1)``, ``("ambush", player)`` or ``("ambush", -1)`` when the
        attack-zone card is missing, the turn player's own or its owner is out:
        the skill may always be used; where its effect finds nothing, it does nothing."""
        k = self._k
        card = self.game.cards[c]
        skill, n, attack = card.skill, card.amount, k[2]
        if skill == "revive":
            return "heal", min(n, len(k[6][k[1]][GRAVE]))
        if skill == "banish":
            return "banish", int(bool(attack) and RARITY_POINTS[self.game.cards[attack[1]].rarity] <= n)
        hit = bool(attack) and attack[0] != k[1] and bool(k[5][attack[0]])
        return "ambush", attack[0] if hit else -1

    def _replace_damage(self) -> int:
        """The damage a play to the attack zone costs here (MC-11): the
        attacker's attack power, as if it attacked, or 0 (an empty zone, the
        turn player's own card that does not attack them (MC-Q6), or the option
        ``replacing="free"``)."""
        k = self._k
        g = self.game
        attack = k[2]
        if not attack or g.options["replacing"] == "free":
            return 0
        if attack[0] == k[1] and g.options["own_attacker"] == "no_attack":
            return 0
        return g.attack_power(attack[1], k[3][1] if k[3] else -1)

    def _play(self, action: str, log: list | None = None) -> "MonsterCardsState":
        """The move; ``log`` collects the players put out on the way (see :func:`_settle`)."""
        game = self.game
        verb, _sep, name = action.partition(" ")
        c = game.card_id[name]
        phase, turn, attack, gc, pend, alive, players = self._k
        ps = [list(z) for z in players]
        if verb == "draw":  # MC-9
            z = ps[turn]
            z[REST] = _remove(z[REST], c)
            z[HAND] = _insert(z[HAND], c)
            if game.options["out_by_drawing"] and not z[REST] and not z[TOP]:  # MC-Q7
                alive, ps = _out(alive, ps, turn, log, "draw")
                return _settle(game, DRAW, _next_alive(alive, turn), attack, gc, (), alive, ps, log)
            return _settle(game, DRAW, turn, attack, gc, (), alive, ps, log)
        if verb == "mill":  # MC-3 damage, one card at a time
            target, rem, then = pend
            z = ps[target]
            z[REST] = _remove(z[REST], c)
            z[GRAVE] = z[GRAVE] + (c,)
            if not z[REST] and not z[TOP]:  # MC-19
                alive, ps = _out(alive, ps, target, log, "damage")
            return _settle(game, MILL, turn, attack, gc, (target, rem - 1, then), alive, ps, log)
        if verb == "discard":  # MC-10, MC-Q10: the card goes to the ruins; its effect may find nothing
            what, x = self._discard_effect(c)
            ps[turn][HAND] = _remove(ps[turn][HAND], c)
            if what == "heal":
                _heal(ps, turn, x)
            elif what == "banish" and x:
                attack = ()
            elif what == "ambush" and x >= 0:
                return _settle(game, MILL, turn, attack, gc, (x, game.cards[c].amount, ACT), alive, ps, log)
            return _settle(game, ACT, turn, attack, gc, (), alive, ps, log)
        damage = self._replace_damage() if verb == "attack" else 0
        ps[turn][HAND] = _remove(ps[turn][HAND], c)
        if verb == "gc":  # MC-10: replaces any GameChanger (to the ruins); MC-Q10: no limit a turn
            return _settle(game, ACT, turn, attack, (turn, c), (), alive, ps, log)
        if game.mend[c]:  # Mend: heals when played
            _heal(ps, turn, game.mend[c])
        end = (DRAW, _next_alive(alive, turn))
        if damage:  # MC-11: the card takes the attack zone, then the attack's damage resolves (as MC-18)
            return _settle(game, MILL, turn, (turn, c), gc, (turn, damage, END), alive, ps, log)
        if verb == "attack" or not attack:  # MC-11 (an empty attack zone takes the card)
            return _settle(game, *end, (turn, c), gc, (), alive, ps, log)
        if attack[0] == turn and game.options["own_attacker"] == "no_attack":  # MC-Q6
            return _settle(game, *end, attack, gc, (), alive, ps, log)
        result, damage = game.battle_result(c, attack[1], gc[1] if gc else -1)
        if result == "success":  # MC-18, MC-Q5: the beaten attacker goes to the ruins
            return _settle(game, *end, (turn, c), gc, (), alive, ps, log)
        if result == "failure":  # MC-18: damage to the defending player
            return _settle(game, MILL, turn, attack, gc, (turn, damage, END), alive, ps, log)
        if game.options["on_draw"] == "both_to_ruins":  # MC-Q4
            attack = ()
        return _settle(game, *end, attack, gc, (), alive, ps, log)

    def battle(self, action: str) -> Battle | None:
        """The :class:`Battle` that ``action`` (``"defend X"``) would fight here, or None."""
        k = self._k
        verb, _sep, name = action.partition(" ")
        if verb != "defend" or k[0] != ACT or not k[2] or name not in self.game.card_id:
            return None
        if k[2][0] == k[1] and self.game.options["own_attacker"] == "no_attack":
            return None
        g = self.game
        return battle(g.card(name), g.cards[k[2][1]], affinity=g.affinity,
                      gamechanger=g.cards[k[3][1]] if k[3] else None)

    # -- what players see ------------------------------------------------------------
    def _zone(self, z: tuple) -> dict | None:
        return {"owner": z[0], "card": self.game.cards[z[1]].name} if z else None

    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        open_hands = self.game.options["open_hands"]
        pend = k[4]
        view = []
        for q, z in enumerate(k[6]):
            see = open_hands or q == player
            view.append({
                "out": not k[5][q],
                "hand": self._names(z[HAND]) if see else len(z[HAND]),
                "deck": len(z[TOP]) + len(z[REST]),
                "deck_top": self._names(z[TOP]) if see else len(z[TOP]),
                "graveyard": self._names(z[GRAVE]) if see else len(z[GRAVE]),
                "ruins": self.ruins(q),
            })
        return {
            "phase": PHASE_NAMES[k[0]], "turn": k[1],
            "attack": self._zone(k[2]), "gamechanger": self._zone(k[3]),
            "pending": {"target": pend[0], "damage": pend[1]} if pend else None,
            "players": view,
        }

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        # another player's zones: sizes only, plus their ruins (跡地), which are public (MC-7)
        hidden = tuple(z if q == player else (len(z[HAND]), len(z[TOP]), len(z[REST]), len(z[GRAVE]),
                                              tuple(self.ruins(q)))
                       for q, z in enumerate(k[6]))
        return k[:6] + (hidden,)  # own deck rest: a multiset its owner can work out anyway

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MonsterCardsState":
        """Deal anew every other player's hand, deck and graveyard from their
        unseen cards (a player who is out has none left to deal)."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        k = self._k
        ps = []
        for q, z in enumerate(k[6]):
            if q == player or not k[5][q]:
                ps.append(z)
                continue
            pool = list(z[HAND] + z[TOP] + z[REST] + z[GRAVE])
            rng.shuffle(pool)
            sizes = [len(x) for x in z]
            parts, i = [], 0
            for s in sizes:
                parts.append(pool[i:i + s])
                i += s
            ps.append((tuple(sorted(parts[0])), tuple(parts[1]), tuple(sorted(parts[2])), tuple(parts[3])))
        return MonsterCardsState(self.game, k[:6] + (tuple(ps),))

    def public_action(self, action: str, viewer: int) -> str:
        """Every player action is public: its card goes face up to a shared
        zone or to the ruins (MC-7, MC-10, MC-11), ``defend``/``attack`` even
        when both would end in the same position.  A draw goes into a hand
        and damage onto a graveyard, both hidden from the others (MC-8): only
        their owner sees the card, the others read ``draw ??`` or ``mill ??``
        (never the card, even when only one can come).  Open hands: all public."""
        verb = action.partition(" ")[0]
        if self.game.options["open_hands"] or verb not in ("draw", "mill"):
            return action
        k = self._k
        owner = k[1] if verb == "draw" else k[4][0] if k[4] else None
        return action if viewer == owner else f"{verb} ??"

    def hidden(self, player: int) -> Hidden | None:
        """As in :meth:`redeal`: each other player's hand, known deck top (in
        order), deck (a multiset: its order is unknown to everybody) and
        graveyard (in order), MC-8.  What a player who is out left the game
        with is no place: the ruins tell which cards it is.  The cards are
        ``(owner, card id)`` pairs (two seats may hold cards of one name),
        and each other player is a group of its own: their cards fill only
        their own places."""
        if self.game.options["open_hands"]:
            return None
        k = self._k
        game = self.game
        others = [q for q in range(len(k[6])) if q != player and k[5][q]]
        cards = tuple((q, c) for q in others for zone in k[6][q] for c in zone)
        places = tuple((f"player {q} {ZONE_NAMES[i]}", len(k[6][q][i])) for q in others for i in HIDDEN_ZONES)
        ordered = frozenset(f"player {q} {ZONE_NAMES[i]}" for q in others for i in (TOP, GRAVE))

        def build(contents: tuple[tuple, ...]) -> MonsterCardsState | None:
            ps = list(k[6])
            for j, q in enumerate(others):
                zones = [()] * 4
                for i, zone in zip(HIDDEN_ZONES, contents[4 * j:4 * j + 4]):
                    zones[i] = tuple(c for _owner, c in zone)
                ps[q] = tuple(zones)
            return MonsterCardsState(game, k[:6] + (tuple(ps),))

        return Hidden(cards, places, build, ordered, groups=(len(HIDDEN_ZONES),) * len(others))

    def to_dict(self) -> dict[str, Any]:
        k = self._k
        pend = k[4]
        return {
            "game": "monster_cards",
            "options": self.game.options_dict(),
            "phase": PHASE_NAMES[k[0]], "turn": k[1],
            "attack": self._zone(k[2]), "gamechanger": self._zone(k[3]),
            "pending": {"target": pend[0], "damage": pend[1], "then": "action" if pend[2] == ACT else "end"}
            if pend else None,
            "players": [{"out": not k[5][q], "hand": self._names(z[HAND]), "deck_top": self._names(z[TOP]),
                         "deck": self._names(z[REST]), "graveyard": self._names(z[GRAVE]),
                         **({} if k[5][q] else {"gone": self._names(z[GONE])})}
                        for q, z in enumerate(k[6])],
        }

    def explain(self, action: str) -> str:
        """One line on what ``action`` does and why, with the rule ids; it
        ends with every player the move puts out (MC-19), also one who must
        draw the last card of their deck at the start of their turn (MC-Q7),
        and the winner.  Only public facts: cards played face up, counts."""
        k = self._k
        g = self.game
        verb, _sep, name = action.partition(" ")
        p = k[1]
        if name not in g.card_id:
            return action
        return self._explain_move(verb, name, p) + self._explain_outs(action)

    def _explain_outs(self, action: str) -> str:
        legal = self.legal_actions() if self.current_player >= 0 else [a for a, _w in self.chance_outcomes()]
        if action not in legal:
            return ""
        log: list = []
        after = self._play(action, log)
        why = {"draw": _(" Player {player} must draw the last card of their deck at the start of their turn (MC-9): "
                         "a deck at 0 puts the player out (脱落) at once (MC-Q7, MC-19)."),
               "damage": _(" Player {player} has no card left in the deck after the damage: out (脱落) (MC-3, MC-19)."),
               "empty": _(" Player {player} starts a turn with no card to draw or play: out (脱落) (MC-Q7).")}
        text = "".join(why[how].format(player=q) for q, how in log)
        if after.is_terminal():
            text += _(" Player {player} is the last player with cards and wins (MC-19).").format(player=after.winner())
        return text

    def _heal_text(self, what: str, healed: int) -> str:
        if healed:
            return _("{what} heals {n}: the top {n} of the graveyard (墓地) go back on the deck (MC-8)").format(
                what=what, n=healed)
        return _("{what} heals nothing: the graveyard (墓地) is empty "
                 "(MC-8: 墓地にカードがなければ回復効果は発動しません)").format(what=what)

    def _shown(self, name: str) -> str:
        """A card of this game as a person reads it (its Japanese name in Japanese)."""
        return _card_name(self.game.card(name))

    def _explain_move(self, verb: str, name: str, p: int) -> str:
        k = self._k
        g = self.game
        shown = self._shown(name)
        if verb == "draw":
            return _("Player {player} draws {card} (引く) to refill the hand to {n} (MC-9).").format(
                player=p, card=shown, n=HAND_TARGET)
        if verb == "mill":
            return _("Damage (ダメージ): {card} goes from player {player}'s deck top to the graveyard (墓地) "
                     "(MC-3, MC-8); {n} more to go.").format(card=shown, player=k[4][0], n=k[4][1] - 1)
        card = g.card(name)
        c = g.card_id[name]
        grave = len(k[6][p][GRAVE])
        heal = (_(" On play, {heal} (MC-4).").format(heal=self._heal_text(_("Mend (癒し)"), min(card.amount, grave)))
                if g.mend[c] else "")
        if verb == "discard":
            what, x = self._discard_effect(c)
            skill = SKILLS[card.skill].describe(card.level)
            attacker = g.cards[k[2][1]] if k[2] else None
            if what == "heal":
                done = self._heal_text(_("it"), x)
            elif what == "banish":
                done = (_("{card} goes to the ruins").format(card=_card_name(attacker)) if x else
                        _("nothing happens: the attack zone is empty") if attacker is None else
                        _("nothing happens: {card} is {rarity}, rarer than the skill reaches").format(
                            card=_card_name(attacker), rarity=attacker.rarity))
            else:
                done = (_("player {player} takes {n} damage (MC-3)").format(player=x, n=card.amount) if x >= 0 else
                        _("nothing happens: the attack zone is empty") if attacker is None else
                        _("nothing happens: the attacker is their own") if k[2][0] == p else
                        _("nothing happens: the attacker's owner is out"))
            return _("Player {player} discards {card} to the ruins (跡地) for its skill: {skill}; {done} "
                     "(MC-4, MC-10, MC-Q10).").format(player=p, card=shown, skill=skill, done=done)
        if verb == "gc":
            return _("Player {player} places {card} in the GameChanger zone (ゲームチェンジャーゾーン), replacing any "
                     "there: {skill} (MC-4, MC-10, MC-Q10).").format(
                player=p, card=shown, skill=SKILLS[card.skill].describe(card.level))
        if verb == "attack":
            pushed = (_(", pushing {card} to the ruins (MC-Q5)").format(card=_card_name(g.cards[k[2][1]]))
                      if k[2] else "")
            damage = self._replace_damage()
            took = ""
            if damage:
                took = _(" In exchange player {player} takes the attack of {card}: {damage} damage "
                         "(MC-11: 攻撃を受ける代わりに, MC-13, MC-3).").format(
                    player=p, card=_card_name(g.cards[k[2][1]]), damage=damage)
            elif k[2] and g.options["replacing"] == "free":
                took = _(" No damage (option replacing='free').")
            return _("Player {player} plays {card} to the attack zone (攻撃ゾーン){pushed}; no battle "
                     "(MC-11).{took}{heal}").format(player=p, card=shown, pushed=pushed, took=took, heal=heal)
        if not k[2]:
            return _("Player {player} plays {card} to the defence zone; the attack zone is empty, so it moves there "
                     "(MC-11).{heal}").format(player=p, card=shown, heal=heal)
        b = self.battle(f"defend {name}")
        if b is None:
            return _("Player {player} plays {card} to the defence zone; the attacker is their own and does not "
                     "attack them, so {card} goes to the ruins at the end of the turn (MC-Q6).{heal}").format(
                player=p, card=shown, heal=heal)
        res = {"success": _("defence succeeds, {card} becomes the attacker (MC-18)").format(card=shown),
               "failure": _("defence fails, player {player} takes {damage} damage (MC-18, MC-3)").format(
                   player=p, damage=b.damage),
               "draw": (_("draw, both cards go to the ruins (MC-16, MC-Q4)")
                        if g.options["on_draw"] == "both_to_ruins" else
                        _("draw, {card} goes to the ruins, the attacker stays (MC-16, MC-Q4)").format(card=shown))}
        marks = " ".join(f"{_key_word(s['key'])} "
                         f"{'+' if s['winner'] == 'defender' else '−' if s['winner'] == 'attacker' else '='}"
                         for s in b.steps)
        skill = _(", skill +{n}").format(n=b.skill_marks) if b.skill_marks else ""
        return _("Player {player} defends with {card} against {attacker}: short hand (短針) {short:+d}, "
                 "long hand (長針) {long:+d} ({marks}{skill}): {result} (MC-14, MC-15, MC-16).{heal}").format(
            player=p, card=shown, attacker=self._shown(b.attacker), short=b.short_hand, long=b.long_hand,
            marks=marks, skill=skill, result=res[b.result], heal=heal)

    def __str__(self) -> str:
        k = self._k
        g = self.game
        n = len(k[5])
        head = (_("game over: player {player} wins (MC-19)").format(player=k[1]) if k[0] == END else
                _("player {player}'s turn ({phase})").format(player=k[1], phase=_phase_word(PHASE_NAMES[k[0]])))
        lines = [_("MONSTER CARDS (モンスターカード) · {n} players · {head}").format(n=n, head=head)]

        def zone(z: tuple) -> str:
            if not z:
                return "—"
            return _("{card} [{rarity}] (player {player})").format(
                card=_card_name(g.cards[z[1]]), rarity=g.cards[z[1]].rarity, player=z[0])
        lines.append("  " + _("attack zone (攻撃ゾーン): {zone}").format(zone=zone(k[2])))
        lines.append("  " + _("GameChanger zone (ゲームチェンジャーゾーン): {zone}").format(zone=zone(k[3])))
        if k[4]:
            lines.append("  " + _("damage pending: {n} to player {player}").format(n=k[4][1], player=k[4][0]))
        names = g.names
        for q, z in enumerate(k[6]):
            if not k[5][q]:
                lines.append("  " + _("player {player}: out (脱落)").format(player=q))
                continue
            hand = ", ".join(_card_name(g.card(names[c])) for c in z[HAND]) or "—"
            top = (_(" (top: {cards})").format(cards=", ".join(_card_name(g.card(names[c])) for c in z[TOP]))
                   if z[TOP] else "")
            lines.append("  " + _("player {player}: hand (手札) {hand} | deck (山札) {deck}{top} | "
                                  "graveyard (墓地) {graveyard} | ruins (跡地) {ruins}").format(
                player=q, hand=hand, deck=len(z[TOP]) + len(z[REST]), top=top, graveyard=len(z[GRAVE]),
                ruins=len(self.ruins(q))))
        return "\n".join(lines)


def _key_word(key: str) -> str:
    """An affinity key in a short list (``attribute +``)."""
    return {"attribute": pgettext("affinity", "attribute"), "race": pgettext("affinity", "race"),
            "size": pgettext("affinity", "size"), "means": pgettext("affinity", "means")}[key]


def _phase_word(phase: str) -> str:
    """A phase name (``draw``, ``action``, ``mill``, ``end``) as a person reads it."""
    return {"draw": pgettext("monster_cards phase", "draw"), "action": pgettext("monster_cards phase", "action"),
            "mill": pgettext("monster_cards phase", "mill"),
            "end": pgettext("monster_cards phase", "end")}.get(phase, phase)
