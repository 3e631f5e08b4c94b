"""MONSTER CARDS' cards: the skill library, the affinity tables, the cost
formula, the card builder and the deck files (MC-1 … MC-6, MC-Q1 … MC-Q3).

A card's fields are declared once, in :func:`card_schema` (a
:class:`cardlab.cardfile.Schema`): the card builder (:class:`Card`) checks
its values with the same fields as a deck file's cards (:func:`load_deck`),
and the three data files (decks, affinity tables, costs) refuse unknown or
non-text fields with the same helpers, in one style of message: file, card
(or key), field, what is accepted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ...cardfile import Field, Schema, card_error, read_data_file
from ...errors import CardFileError, CardlabError
from ...i18n import N_, _, get_language
from . import rules, text
from .rules import KEYS, LEVEL, RARITIES, RARITY_POINTS

__all__ = ["Card", "Deck", "Skill", "SKILLS", "Affinity", "CardError", "DeckError", "AffinityError",
           "load_affinity", "load_costs", "load_deck", "validate_deck", "ready_deck", "card_schema",
           "READY_DECKS", "RARITIES", "RARITY_POINTS", "LEVEL", "KEYS", "KEY_JAPANESE", "CATEGORIES",
           "CATEGORY_JAPANESE", "NAME_RE"]

KEY_JAPANESE = {"attribute": "属性", "race": "種族", "size": "サイズ", "means": "手段"}
#: MC-4 the skill categories
CATEGORIES = ("standard", "discard", "gamechanger")
CATEGORY_JAPANESE = {"standard": "スタンダード", "discard": "ディスカード",
                     "gamechanger": "ゲームチェンジャー"}
NAME_RE = re.compile(r"[a-z][a-z0-9_]*")


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters: error messages stay one short line."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def _cut(shown: str, limit: int = 200) -> str:
    """``shown`` cut to ``limit`` characters (a list of choices from a user's table)."""
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


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
        """The skill at ``level`` (2 SP, 3 ULT) in one line."""
        return text.skill_text(self, level)


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
        vals, table[key] = _affinity_key(where, key, keys[key])
        values[key] = tuple(vals)
        japanese[key] = dict(vals)
    return Affinity(str(data.get("name", where)), values, japanese, table)


def _affinity_key(where: str, key: str, spec: Any) -> tuple[dict[str, str], dict[tuple[str, str], int]]:
    """One key's values (``{value: Japanese name}``) and table of an affinity file,
    checked: every ordered pair given once, antisymmetric (MC-5, MC-Q1)."""
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
    return vals, t


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



# -- the card's fields, declared once (MC-2 … MC-5, MC-Q3) ---------------------------------
def _aliases(t: Affinity) -> dict[str, str]:
    """Japanese value names the builder accepts (火 → fire)."""
    return {j: v for key in KEYS for v, j in t.japanese[key].items()}


def _whole(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _name_why(v: Any) -> str:
    if isinstance(v, str) and NAME_RE.fullmatch(v):
        return ""
    return _("lower-case letters, digits and _ , starting with a letter (the name is used in actions such as "
             "'defend ember_imp')")


def _rarity_why(v: Any) -> str:
    return "" if v in RARITIES else _("one of {choices} (MC-2), got {value}").format(
        choices=", ".join(RARITIES), value=_short(v))


def _attack_why(v: Any) -> str:
    return "" if _whole(v, 1, 5) else _("a whole number from 1 to 5 (MC-3), got {value}").format(value=_short(v))


def _skill_why(v: Any) -> str:
    return "" if v is None or (isinstance(v, str) and v in SKILLS) else _(
        "one of {choices} or None (MC-Q3), got {value}").format(choices=", ".join(SKILLS), value=_short(v))


def _string_why(v: Any) -> str:
    return "" if isinstance(v, str) else _("a string, got {value}").format(value=_short(v))


def _count_why(v: Any) -> str:
    return "" if _whole(v, 1, 60) else _("a whole number from 1 to 60, got {value}").format(value=_short(v))


def _value_check(tables: Affinity, key: str):
    """The check of an affinity field (MC-5): a value of ``tables`` or its Japanese name."""
    aliases = _aliases(tables)

    def check(v: Any) -> str:
        if (aliases.get(v, v) if isinstance(v, str) else None) in tables.values[key]:
            return ""
        jp = tables.japanese[key]
        choices = ("、".join(jp[x] for x in tables.values[key]) if get_language() == "ja" else
                   ", ".join(f"{x} ({jp[x]})" for x in tables.values[key]))
        return _("one of {choices} (MC-5), got {value}").format(choices=_cut(choices), value=_short(v))
    return check


_SCHEMAS: dict[int, tuple[Affinity, Schema]] = {}


def card_schema(tables: Affinity | None = None) -> Schema:
    """The fields of a card, checked against the affinity ``tables`` (cardlab's
    own when None): what the card builder and a deck file's cards accept.
    ``count`` (copies in the deck, 1-60) is a deck file's field only."""
    t = tables or _default_affinity()
    hit = _SCHEMAS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    schema = Schema((
        Field("name", "any", check=_name_why),
        Field("rarity", "any", check=_rarity_why),
        Field("attack", "any", check=_attack_why),
        *(Field(key, "any", check=_value_check(t, key)) for key in KEYS),
        Field("skill", "any", required=False, default=None, check=_skill_why),
        Field("japanese", "any", required=False, default="", check=_string_why),
        Field("count", "any", required=False, default=1, check=_count_why),
    ), key="name")
    if len(_SCHEMAS) > 64:
        _SCHEMAS.clear()
    _SCHEMAS[id(t)] = (t, schema)
    return schema


# -- the card builder (MC-2 … MC-6) -------------------------------------------------------
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
        label = name if isinstance(name, str) and len(name) <= 40 else _short(name)
        tables = self.tables or _default_affinity()
        for f in card_schema(tables).fields:  # the fields of a deck file's cards (count aside)
            if f.name != "count":
                why = f.check(getattr(self, f.name)) if f.check else ""
                if why:
                    raise CardError(label, f.name, why)
        aliases = _aliases(tables)
        for key in KEYS:
            object.__setattr__(self, key, aliases.get(getattr(self, key), getattr(self, key)))

    @property
    def level(self) -> int:
        """1 (C, R), 2 (SR: SP effect) or 3 (UR: ULT effect), MC-4."""
        return LEVEL[self.rarity]

    @property
    def category(self) -> str | None:
        return SKILLS[self.skill].category if self.skill else None

    @property
    def skill_info(self) -> Skill | None:
        """The card's :class:`Skill` of the library (None without one)."""
        return SKILLS[self.skill] if self.skill else None

    @property
    def amount(self) -> int:
        """The size of this card's skill at its level (0 without a skill), MC-4."""
        return rules.skill_amount(SKILLS[self.skill].amount, self.rarity) if self.skill else 0

    def cost(self, costs: Mapping[str, Mapping[str, int]] | None = None) -> int:
        """MC-6, MC-Q2: rarity + attack + skill category, from the cost table."""
        t = costs or _default_costs()
        return t["rarity"][self.rarity] + t["attack"][str(self.attack)] + t["skill"][self.category or "none"]

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "japanese": self.japanese, "rarity": self.rarity,
                "attack": self.attack, **{k: getattr(self, k) for k in KEYS}, "skill": self.skill}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], tables: Affinity | None = None) -> "Card":
        fields = {f.name for f in card_schema(tables).fields} - {"count"}
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
        return text.card_text(self, (self.tables or _default_affinity()).japanese)


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
    the card and the field (the fields of :func:`card_schema`); affinity
    values are checked against ``tables`` (cardlab's own when None).  The
    deck rules (MC-1) are checked by :func:`validate_deck`.
    """
    named, data = read_data_file(source, "", what="deck file") if source is not None else ("", None)
    where = where or named
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CardFileError(_("{where}: a deck file holds {{'name': ..., 'cards': [card, ...]}}").format(where=where))
    _unknown_fields(data, ("name", "japanese", "note", "cards"), f"{where}:", CardFileError)
    _text_fields(data, ("name", "japanese", "note"), f"{where}:", CardFileError)
    schema = card_schema(tables)
    cards: list[Card] = []
    for i, entry in enumerate(data["cards"]):
        label = entry.get("name", f"#{i}") if isinstance(entry, dict) else f"#{i}"
        label = label if isinstance(label, str) and len(label) <= 40 else _short(label)
        if not isinstance(entry, dict):
            raise CardFileError(_("{where}: card {card}: each card is a JSON object").format(where=where, card=repr(label)))
        values = schema.card(where, entry, label)
        n = values.pop("count")
        try:
            card = Card(**values, tables=tables)
        except CardError as exc:  # pragma: no cover - the schema checked the same fields
            raise card_error(where, exc.card, exc.field, exc.why) from None
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
