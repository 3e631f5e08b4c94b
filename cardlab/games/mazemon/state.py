"""Mazemon (マゼモン): ten cards each, spent as mana or fought as monsters.

Rules: ``docs/rules/mazemon.md`` (MZ-1 … MZ-24, MZ-Q1 … MZ-Q8), from the
seed text ``001_5aabee5a802d11b2.txt``.  Rule ids in comments, in
:class:`Battle` and in :meth:`MazemonState.explain` point there.

Representation.  A deck holds ten *distinct* cards, so each zone of a player
is a 10-bit mask over the slots of that player's deck (slot order = the deck
list in the card file).  Per player the key keeps: hand (てふだ), battle zone
(バトルゾーン), wounded (キズ), attacked this turn, mana (マナ) count,
untapped mana, captured cards (とったカード, a count) and ``out``: the player's
cards publicly out of play (knocked out, stolen, or a trashed substitute).
Which cards lie face down in mana or in the first player's trash is never
stored: those cards can never come back (MZ-6, MZ-17), so the rest of the
game does not depend on them; a card that is in none of hand, battle zone
and ``out`` is in mana or in the first player's trash.

Turn phases: ``charge`` (MZ-6) → ``summon`` (MZ-7; an attack ends the
summoning) → ``battle`` (MZ-8).  A turn whose only possible action left is
``end`` ends by itself.  The defender's substitute (みがわり, MZ-19) is the
phase ``substitute`` whose current player is the defender, in the middle of
the attacker's turn.  Chance: janken (MZ-2, the winner goes first, 1/2 each),
the first player's two trashed cards (MZ-3, MZ-Q8, every pair 1/45) and the
card a direct attack takes (MZ-22, MZ-Q2, uniform over the hand).

Choices where the digest is silent (beyond its MZ-Q defaults):

* janken is a fair chance node (its equilibrium), not a simultaneous game;
* the card charged this turn is an untapped mana at once (seed: ② charge,
  then ③ summon with mana);
* the phases keep their order: after the first attack no more summons;
* みがわり is once per attacker's turn, paid from mana the defender left
  untapped in their own turn (mana untaps only at its owner's MZ-5);
* a direct attack needs a card in the opponent's hand; the card taken is
  named by the chance outcome (captured cards lie open);
* a quiet turn (MZ-Q6) is one in which no charge, summon or attack was made,
  whether or not one was possible; a turn whose only action left is ``end``
  ends by itself;
* a deck is ten different cards; ``payoff="score"`` is the difference of
  captured cards (0 when both reach three at once).

Notation (player actions, then chance outcomes)::

    charge petal_fox              put a hand card into mana (MZ-6)
    summon oak_giant              pay its cost after materials (MZ-7, MZ-18)
    attack oak_giant tide_whale   your monster attacks theirs (MZ-8)
    direct oak_giant              take a random card of their hand (MZ-22)
    end                           end the turn (MZ-9)
    substitute coral_knight       the defender's みがわり (MZ-19)
    decline                       the defender lets the attack through
    janken 0 / trash a+b / steal x   chance: janken winner, trashed pair, stolen card
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

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
from ...errors import CardFileError, OptionError, PositionError
from ...i18n import N_, _, get_language, pgettext

__all__ = ["Mazemon", "MazemonState", "Card", "CardSet", "Battle", "load_cards", "battle",
           "summon_cost", "shared_materials", "attribute_relation", "ATTRIBUTES"]

#: the three attributes (ぞくせい), each beating the next (MZ-11)
ATTRIBUTES = ("fire", "grass", "water")
BEATS = {"fire": "grass", "grass": "water", "water": "fire"}
ATTR_JA = {"fire": "ほのお", "grass": "くさ", "water": "みず"}
#: the attribute as a person reads it in a battle report: English with the Japanese beside it
ATTR_TERM = {"fire": N_("fire/ほのお"), "grass": N_("grass/くさ"), "water": N_("water/みず")}
DECK_SIZE = 10  # MZ-1
ZONE_LIMIT = 3  # MZ-4, MZ-7
TRASHED = 2  # MZ-3
WIN_CAPTURES = 3  # MZ-23
KO, WOUND, MUTUAL = 0, 1, 2
RESULT_NAMES = ("KO (一撃)", "wound (キズ)", "mutual (あいうち)")
RESULT_CODES = ("ko", "wound", "mutual")

# phases
JANKEN, TRASH, CHARGE, SUMMON, BATTLE, SUB, STEAL, END = range(8)
PHASES = ("janken", "trash", "charge", "summon", "battle", "substitute", "steal", "end")
PHASE_JA = ("じゃんけん", "トラッシュ", "チャージ", "しゅつげん", "バトル", "みがわり",
            "ちょくせつこうげき", "おわり")
#: the phase as :meth:`MazemonState.__str__` shows it
PHASE_TERM = (N_("janken (じゃんけん)"), N_("trash (トラッシュ)"), N_("charge (チャージ)"),
              N_("summon (しゅつげん)"), N_("battle (バトル)"), N_("substitute (みがわり)"),
              N_("steal (ちょくせつこうげき)"), N_("end (おわり)"))

# key layout: 9 turn fields, then one block of 8 per player
PH, MV, FI, NC, AC, SU, DU, PA, PT = range(9)
BASE, BLOCK = 9, 8
H, B, W, A, M, U, C, O = range(8)
FULL = (1 << DECK_SIZE) - 1

ID_RE = r"[a-z][a-z0-9_]{0,31}"
ACTION_RE = re.compile(
    rf"charge {ID_RE}|summon {ID_RE}|attack {ID_RE} {ID_RE}|direct {ID_RE}|end"
    rf"|substitute {ID_RE}|decline|janken [01]|trash {ID_RE}\+{ID_RE}|steal {ID_RE}"
)


# -- cards (MZ-Q1) ------------------------------------------------------------
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


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def card_name(card: Card) -> str:
    """The name of ``card`` as a person reads it: its Japanese name in Japanese."""
    return card.japanese if get_language() == "ja" else card.name


def card_names(card: Card) -> str:
    """``Name (ジャパニーズ)`` in English, the Japanese name alone in Japanese."""
    return card.japanese if get_language() == "ja" else f"{card.name} ({card.japanese})"


def _sep() -> str:
    """The separator between the clauses of a battle report."""
    return pgettext("mazemon clause separator", "; ")


_CARD_FIELDS = {"id", "name", "japanese", "attribute", "hp", "cost", "technique", "materials"}


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

    def bad(card: Any, field: str, why: str) -> CardFileError:
        return CardFileError(pgettext("mazemon", "{where}: card {card}, field {field}: {why}").format(
            where=where, card=repr(card), field=repr(field), why=why))

    def whole(v: Any, lo: int, hi: int) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi

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
            where=where, value=_short(name)))
    mats_ja = data.get("materials", {})
    if not isinstance(mats_ja, dict):
        raise CardFileError(_("{where}: field 'materials' must map material names to their Japanese "
                              "names, got {value}").format(where=where, value=_short(mats_ja)))
    for m, ja in mats_ja.items():
        if not isinstance(ja, str) or not ja.strip():
            raise CardFileError(_("{where}: field 'materials', material {material}: the Japanese name "
                                  "must be a non-empty string, got {value}").format(
                where=where, material=_short(m), value=_short(ja)))
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise CardFileError(_("{where}: 'cards' must be a non-empty list of card objects").format(where=where))
    cards: dict[str, Card] = {}
    for i, c in enumerate(raw):
        label = c.get("id", f"#{i}") if isinstance(c, dict) else f"#{i}"
        label = label if isinstance(label, str) and len(label) <= 40 else f"#{i}"
        if not isinstance(c, dict):
            raise bad(label, "id", _("each card must be a JSON object"))
        extra = set(c) - _CARD_FIELDS
        if extra:
            raise bad(label, sorted(extra)[0], _("unknown field; accepted: {fields}").format(
                fields=', '.join(sorted(_CARD_FIELDS))))
        cid = c.get("id")
        if not isinstance(cid, str) or not re.fullmatch(ID_RE, cid):
            raise bad(label, "id", _("must be lower-case letters, digits and _ (a letter first, "
                                     "at most 32), got {value}").format(value=_short(cid)))
        if cid in cards:
            raise bad(cid, "id", _("the same id is used twice"))
        for f in ("name", "japanese"):
            if not isinstance(c.get(f), str) or not c[f].strip():
                raise bad(cid, f, _("must be a non-empty string, got {value}").format(value=_short(c.get(f))))
        if c.get("attribute") not in ATTRIBUTES:
            raise bad(cid, "attribute", _("must be one of {choices}, got {value}").format(
                choices=', '.join(ATTRIBUTES), value=_short(c.get('attribute'))))
        if not whole(c.get("hp"), 1, 100_000):
            raise bad(cid, "hp", _("must be a whole number from 1 to 100000, got {value}").format(
                value=_short(c.get('hp'))))
        if not whole(c.get("cost"), 1, 10):
            raise bad(cid, "cost", _("must be a whole number from 1 to 10, got {value}").format(
                value=_short(c.get('cost'))))
        t = c.get("technique")
        if not isinstance(t, dict) or set(t) - {"name", "japanese", "power"}:
            raise bad(cid, "technique", _("must be an object with name, japanese and power"))
        names = (t.get("name"), t.get("japanese", t.get("name")))
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise bad(cid, "technique", _("its name (and japanese) must be non-empty strings"))
        if not whole(t.get("power"), 0, 100_000):
            raise bad(cid, "technique", _("power must be a whole number from 0 to 100000, got {value}").format(
                value=_short(t.get('power'))))
        mats = c.get("materials")
        if (not isinstance(mats, list) or not 2 <= len(mats) <= 4
                or not all(isinstance(m, str) and m for m in mats) or len(set(mats)) != len(mats)):
            raise bad(cid, "materials", _("must be a list of 2 to 4 different names (MZ-18), got {value}").format(
                value=_short(mats)))
        cards[cid] = Card(cid, c["name"], c["japanese"], c["attribute"], c["hp"], c["cost"],
                          t["name"], t.get("japanese", t["name"]), t["power"], tuple(mats),
                          tuple(mats_ja.get(m, m) for m in mats))
    decks_raw = data.get("decks")
    if not isinstance(decks_raw, dict) or not decks_raw:
        raise CardFileError(_("{where}: 'decks' must map deck names to decks of {size} card ids").format(
            where=where, size=DECK_SIZE))
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
                                                            value=_short(d[f])))
        if not isinstance(ids, list) or len(ids) != DECK_SIZE:
            got = (_("{n} entries").format(n=len(ids)) if isinstance(ids, list) else _short(ids))
            raise CardFileError(_("{where}: deck {deck}, field 'cards': must list exactly "
                                  "{size} card ids (MZ-1), got {value}").format(
                where=where, deck=repr(dname), size=DECK_SIZE, value=got))
        for cid in ids:
            if not isinstance(cid, str) or cid not in cards:
                raise CardFileError(_("{where}: deck {deck}, field 'cards': unknown card {card}").format(
                    where=where, deck=repr(dname), card=_short(cid)))
        if len(set(ids)) != DECK_SIZE:
            raise CardFileError(_("{where}: deck {deck}, field 'cards': the {size} cards must "
                                  "all be different").format(where=where, deck=repr(dname), size=DECK_SIZE))
        decks[str(dname)] = tuple(ids)
    return CardSet(name, cards, decks, where, MappingProxyType(dict(mats_ja)))


def _cards_ok(value: Any) -> bool:
    if value is None:
        return True
    load_cards(value)  # raises CardFileError naming file, card and field
    return True


def _name_ok(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


# -- the battle table (MZ-10 … MZ-16, MZ-18) ----------------------------------
def attribute_relation(attacker: str, defender: str) -> str:
    """MZ-11: ``"wins"``, ``"same"`` or ``"loses"`` for the attacker's attribute.

    >>> attribute_relation("fire", "grass"), attribute_relation("fire", "water")
    ('wins', 'loses')
    """
    if attacker == defender:
        return "same"
    return "wins" if BEATS[attacker] == defender else "loses"


@dataclass(frozen=True)
class Battle:
    """The explanation of one battle: what was compared and which rule decided.

    ``technique`` and ``attribute`` are the attacker's ``"wins"``/``"ties"``/
    ``"loses"`` and ``"wins"``/``"same"``/``"loses"``; ``hp`` is ``(attacker,
    defender)`` when HP was compared (same attribute, MZ-16) and ``None``
    otherwise; ``result`` is ``"ko"``, ``"wound"`` or ``"mutual"`` and
    ``rule`` the rule id that decided it; ``attack_cost`` is the mana of
    attacking this defender (MZ-8) and ``substitute_allowed`` whether the
    defender may use みがわり against it (MZ-21).
    """

    attacker: str
    defender: str
    attacker_power: int
    defender_power: int
    technique: str
    attacker_attribute: str
    defender_attribute: str
    attribute: str
    hp: tuple[int, int] | None
    result: str
    rule: str
    attack_cost: int
    substitute_allowed: bool
    #: the cards' Japanese names (shown in Japanese; not part of :meth:`as_dict`)
    attacker_japanese: str = field(default="", repr=False, compare=False)
    defender_japanese: str = field(default="", repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hp"] = list(self.hp) if self.hp else None
        del d["attacker_japanese"], d["defender_japanese"]
        return d

    def names(self) -> tuple[str, str]:
        """(attacker, defender) as a person reads them: the Japanese names in Japanese."""
        if get_language() == "ja":
            return self.attacker_japanese or self.attacker, self.defender_japanese or self.defender
        return self.attacker, self.defender

    def text(self) -> str:
        sign = {"wins": ">", "ties": "=", "loses": "<"}[self.technique]
        a, d = self.attacker_attribute, self.defender_attribute
        arrow = {"wins": "→", "same": "=", "loses": "←"}[self.attribute]
        attacker, defender = self.names()
        parts = [_("わざ technique {attacker_power} {sign} {defender_power} ({relation}, MZ-10)").format(
                     attacker_power=self.attacker_power, sign=sign, defender_power=self.defender_power,
                     relation=technique_word(self.technique)),
                 _("attribute {attacker_attribute} {arrow} {defender_attribute} ({relation}, MZ-11)").format(
                     attacker_attribute=_(ATTR_TERM[a]), arrow=arrow, defender_attribute=_(ATTR_TERM[d]),
                     relation=attribute_word(self.attribute))]
        if self.hp:
            rel = ">" if self.hp[0] > self.hp[1] else "≤"
            parts.append(_("same attribute, HP {attacker_hp} {sign} {defender_hp} (MZ-16)").format(
                attacker_hp=self.hp[0], sign=rel, defender_hp=self.hp[1]))
        else:
            parts.append(_("HP not compared (attributes differ, MZ-16)"))
        if self.result == "ko":
            outcome = _("{defender} is knocked out at once (一撃)").format(defender=defender)
        elif self.result == "wound":
            outcome = _("{defender} takes a wound (キズ), {attacker} none").format(defender=defender, attacker=attacker)
        else:
            outcome = _("both take a wound (あいうち)")
        return _("{attacker} vs {defender}: {comparison} → {outcome} ({rule})").format(
            attacker=attacker, defender=defender, comparison=_sep().join(parts), outcome=outcome, rule=self.rule)

    __str__ = text


def technique_word(relation: str) -> str:
    """The attacker's technique ``"wins"``, ``"ties"`` or ``"loses"`` (MZ-10), as a person reads it."""
    if relation == "wins":
        return pgettext("mazemon technique", "wins")
    if relation == "ties":
        return pgettext("mazemon technique", "ties")
    return pgettext("mazemon technique", "loses")


def attribute_word(relation: str) -> str:
    """The attacker's attribute ``"wins"``, ``"same"`` or ``"loses"`` (MZ-11), as a person reads it."""
    if relation == "wins":
        return pgettext("mazemon attribute", "wins")
    if relation == "same":
        return pgettext("mazemon attribute", "same")
    return pgettext("mazemon attribute", "loses")


def battle(attacker: Card, defender: Card) -> Battle:
    """Judge a battle by the table of MZ-10 … MZ-16 and explain it.

    >>> cs = load_cards()
    >>> b = battle(cs.cards["magma_giant"], cs.cards["petal_fox"])
    >>> b.result, b.rule, b.attack_cost
    ('ko', 'MZ-12', 1)
    """
    tech = ("wins" if attacker.power > defender.power else
            "ties" if attacker.power == defender.power else "loses")  # MZ-10
    rel = attribute_relation(attacker.attribute, defender.attribute)  # MZ-11
    hp = (attacker.hp, defender.hp) if rel == "same" else None  # MZ-16
    if tech == "wins":
        if rel == "wins" or (rel == "same" and attacker.hp > defender.hp):
            result, rule = "ko", "MZ-12"
        else:
            result, rule = "wound", "MZ-13"
    elif rel == "wins":
        result, rule = "wound", "MZ-14"
    else:
        result, rule = "mutual", "MZ-15"
    return Battle(attacker.name, defender.name, attacker.power, defender.power, tech,
                  attacker.attribute, defender.attribute, rel, hp, result, rule,
                  2 if rel == "loses" else 1,  # MZ-8, MZ-Q4: judged against the declared target
                  rel != "wins",  # MZ-21
                  attacker.japanese, defender.japanese)


def shared_materials(card: Card, zone: list[Card] | tuple[Card, ...], material_count: str = "distinct") -> int:
    """MZ-18, MZ-Q3: how many materials (そざい) ``card`` shares with the monsters in ``zone``.

    ``material_count="distinct"`` (the default) counts each material of the
    new card once if any monster in the zone has it; ``"per_monster"`` counts
    it once per monster that has it.
    """
    if material_count == "distinct":
        return sum(1 for m in card.materials if any(m in z.materials for z in zone))
    if material_count == "per_monster":
        return sum(len(set(card.materials) & set(z.materials)) for z in zone)
    raise OptionError(_("material_count={value} is not accepted; "
                        "material_count accepts 'distinct' or 'per_monster'").format(value=repr(material_count)))


def summon_cost(card: Card, zone: list[Card] | tuple[Card, ...], material_count: str = "distinct") -> int:
    """MZ-18: the cost minus the shared materials, without limit, but at least 1.

    >>> cs = load_cards()
    >>> summon_cost(cs.cards["magma_giant"], [cs.cards["tide_whale"]])  # giant, sword shared
    1
    """
    return max(1, card.cost - shared_materials(card, zone, material_count))


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


_POP = tuple(bin(m).count("1") for m in range(FULL + 1))
_BITS = tuple(tuple(_bits(m)) for m in range(FULL + 1))


# -- the game -------------------------------------------------------------------
class Mazemon(Game):
    """Mazemon (マゼモン), two players, ten cards each.

    >>> import cardlab
    >>> game = cardlab.load("mazemon", open_hands=True)
    >>> state = game.new_initial_state(seed=1)
    >>> state.legal_actions()[0].startswith("charge")
    True
    """

    name = "mazemon"
    title = N_("Mazemon (マゼモン)")
    rules = "mazemon.md"
    OPTIONS = {
        "open_hands": bool_option(N_("both players see both hands and the trash (MZ-Q8)")),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (captured-card difference)"),
                         choices=("win", "score")),
        "material_count": Option("distinct", N_("shared materials (MZ-18): each material of the new "
                                                "monster once ('distinct') or once per monster having it (MZ-Q3)"),
                                 choices=("distinct", "per_monster"), label=N_('count materials そざい')),
        "both_three": Option("attacker", N_("both players reach 3 captures in one battle: the attacker "
                                            "wins ('attacker') or it is a draw ('draw') (MZ-Q7)"),
                             choices=("attacker", "draw"), label=N_('both reach three captures')),
        "cards": Option(None, N_("the card file: None (cardlab's own set), a JSON path or a dict (MZ-Q1)"),
                        check=_cards_ok, accepts=N_("None, a path to a JSON card file, or a dict")),
        "deck0": Option("hinoko", N_("player 0's deck: a deck name of the card file"),
                        check=_name_ok, accepts=N_("a deck name of the card file")),
        "deck1": Option("shizuku", N_("player 1's deck: a deck name of the card file"),
                        check=_name_ok, accepts=N_("a deck name of the card file")),
    }
    ACTION_GRAMMAR = N_("'charge X', 'summon X', 'attack X Y', 'direct X', 'end', 'substitute X', "
                        "'decline' (X, Y card ids); chance: 'janken 0|1', 'trash X+Y', 'steal X'")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.card_set = cs
        decks = []
        for p in (0, 1):
            dname = self.options[f"deck{p}"]
            if dname not in cs.decks:
                raise OptionError(_("mazemon: option {option}={value} is not a deck of {source}; "
                                    "{option} accepts {choices}").format(
                    option=f"deck{p}", value=repr(dname), source=cs.source,
                    choices=', '.join(map(repr, sorted(cs.decks)))))
            decks.append(tuple(cs.cards[c] for c in cs.decks[dname]))
        #: decks[p][slot] is the Card in that slot of player p's deck
        self.decks: tuple[tuple[Card, ...], tuple[Card, ...]] = (decks[0], decks[1])
        self.ids = tuple(tuple(c.id for c in d) for d in self.decks)
        self.slot = tuple({c.id: i for i, c in enumerate(d)} for d in self.decks)
        # cost[p][i][zone mask] (MZ-18) and fight[p][i][j] = (result, mana, attr wins)
        self.cost = tuple(self._cost_table(d) for d in self.decks)
        self.fight = tuple(
            tuple(tuple(self._fight(a, d) for d in self.decks[1 - p]) for a in self.decks[p])
            for p in (0, 1))

    def _cost_table(self, deck: tuple[Card, ...]) -> tuple:
        """MZ-18, MZ-Q3 for every card and every zone: the same numbers as
        :func:`summon_cost`, built incrementally over the masks (materials as bits)."""
        names = sorted({m for c in deck for m in c.materials})
        mats = [sum(1 << names.index(m) for m in c.materials) for c in deck]
        distinct = self.options["material_count"] == "distinct"
        table = []
        for card, mine in zip(deck, mats):
            shared = [0] * (FULL + 1)
            union = [0] * (FULL + 1)
            for m in range(1, FULL + 1):
                low = (m & -m).bit_length() - 1
                rest = m & (m - 1)
                union[m] = union[rest] | mats[low]
                shared[m] = (bin(mine & union[m]).count("1") if distinct
                             else shared[rest] + bin(mine & mats[low]).count("1"))
            table.append(tuple(max(1, card.cost - n) for n in shared))
        return tuple(table)

    @staticmethod
    def _fight(a: Card, d: Card) -> tuple[int, int, bool]:
        b = battle(a, d)
        return (RESULT_CODES.index(b.result), b.attack_cost, not b.substitute_allowed)

    def _make_spec(self) -> Spec:
        bound = Fraction(WIN_CAPTURES if self.options["payoff"] == "score" else 1)
        # Why the bound holds.  At most n = 2*10-2 cards ever leave the hands;
        # each charge, summon or steal takes one, so those are ≤ n and a steal
        # costs 2 transitions (direct + chance).  Every battle either knocks a
        # monster out (≤ n times) or gives a first wound to an unwounded one
        # (≤ n times, a wound never heals): ≤ 2n battles of ≤ 2 transitions
        # (attack + substitute decision).  Every turn but the last two quiet
        # ones (MZ-Q6) holds one of those ≤ 3n events and is followed by at
        # most one quiet turn, and a turn has at most one 'end': turns ≤
        # 2*3n + 2.  Plus janken and trash.
        n = 2 * DECK_SIZE - TRASHED
        return Spec(num_players=2, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound,
                    max_game_length=2 + 2 * n + 2 * (2 * n) + (2 * 3 * n + 2))

    def _root(self) -> "MazemonState":
        block = (FULL, 0, 0, 0, 0, 0, 0, 0)
        return MazemonState(self, (JANKEN, 0, -1, 0, 0, 0, 0, -1, -1) + block + block)

    def card(self, player: int, card_id: str) -> Card:
        """The card ``card_id`` of ``player``'s deck."""
        return self.decks[player][self.slot[player][card_id]]

    # -- positions ----------------------------------------------------------
    def _state_from_dict(self, d: Mapping[str, Any]) -> "MazemonState":
        """A position of :meth:`MazemonState.to_dict`, refused with
        :class:`~cardlab.PositionError` unless the rules can reach it: types,
        ranges, the ten cards of each deck, what each phase requires and the
        end (MZ-23, MZ-24, MZ-Q6) as properties of the position."""
        fields = ["phase", "turn", "first", "quiet_turns", "acted", "substitute_used",
                  "direct_used", "pending", "players"]
        check_keys(d, fields, "mazemon")
        opts = d.get("options", self.options_dict())
        if opts != self.options_dict() and (  # lists and tuples compare equal after JSON
                json.loads(json.dumps(opts, default=str))
                != json.loads(json.dumps(self.options_dict(), default=str))):
            raise PositionError(_("mazemon: the position was saved with options {saved}; "
                                  "this game has {options}: load it with those options").format(
                saved=_short(opts, 200), options=self.options_dict()))

        def err(msg: str) -> PositionError:
            return PositionError(_("mazemon: {message}").format(message=msg))

        def whole(v: Any, lo: int, hi: int) -> bool:
            return type(v) is int and lo <= v <= hi

        if not isinstance(d["phase"], str) or d["phase"] not in PHASES:
            raise err(_("phase {value} unknown; one of {choices}").format(
                value=_short(d['phase']), choices=', '.join(PHASES)))
        ph = PHASES.index(d["phase"])
        mover = d["turn"]
        if not whole(mover, 0, 1):
            raise err(_("turn must be 0 or 1, got {value}").format(value=_short(mover)))
        first = d["first"]
        if ph == JANKEN:
            if first is not None:
                raise err(_("first must be null before the janken (MZ-2)"))
            first = -1
        elif not whole(first, 0, 1):
            raise err(_("first must be 0 or 1 after the janken, got {value}").format(value=_short(first)))
        quiet = d["quiet_turns"]
        if not whole(quiet, 0, 2) or (quiet == 2 and ph != END):
            raise err(_("quiet_turns must be 0 or 1 (2 only at the end, MZ-Q6), got {value}").format(
                value=_short(quiet)))
        flags = []
        for f in ("acted", "substitute_used", "direct_used"):
            if not isinstance(d[f], bool):
                raise err(_("{field} must be true or false, got {value}").format(field=f, value=_short(d[f])))
            flags.append(int(d[f]))
        acted, sub_used, direct_used = flags
        players = d["players"]
        if not isinstance(players, list) or len(players) != 2:
            raise err(_("players must be a list of two player objects"))
        blocks = []
        for p, pl in enumerate(players):
            where = f"players[{p}]"
            if not isinstance(pl, Mapping):
                raise err(_("{where} must be an object").format(where=where))
            check_keys(pl, ["hand", "battle", "mana", "untapped", "captured", "out"], f"mazemon: {where}")
            slot = self.slot[p]

            def mask(ids: Any, field: str) -> int:
                if not isinstance(ids, list):
                    raise err(_("{where}.{field} must be a list of card ids").format(where=where, field=field))
                m = 0
                for cid in ids:
                    if not isinstance(cid, str) or cid not in slot:
                        raise err(_("{where}.{field}: {card} is not a card of player {player}'s deck; "
                                    "the deck is {deck}").format(where=where, field=field, card=_short(cid),
                                                                 player=p, deck=', '.join(self.ids[p])))
                    if m >> slot[cid] & 1:
                        raise err(_("{where}.{field}: {card} appears twice").format(
                            where=where, field=field, card=repr(cid)))
                    m |= 1 << slot[cid]
                return m

            hand, out = mask(pl["hand"], "hand"), mask(pl["out"], "out")
            bz = pl["battle"]
            if not isinstance(bz, list) or len(bz) > ZONE_LIMIT:
                raise err(_("{where}.battle must be a list of at most {limit} monsters (MZ-4)").format(
                    where=where, limit=ZONE_LIMIT))
            bm = wm = am = 0
            for mon in bz:
                if not isinstance(mon, Mapping) or set(mon) != {"card", "wounded", "attacked"}:
                    raise err(_("{where}.battle: each monster is {fields}, got {value}").format(
                        where=where, fields="{'card', 'wounded', 'attacked'}", value=_short(mon)))
                bit = mask([mon["card"]], "battle")
                if bm & bit:
                    raise err(_("{where}.battle: {card} appears twice").format(where=where, card=repr(mon['card'])))
                for f in ("wounded", "attacked"):
                    if not isinstance(mon[f], bool):
                        raise err(_("{where}.battle: {field} of {card} must be true or false").format(
                            where=where, field=f, card=repr(mon['card'])))
                bm |= bit
                wm |= bit if mon["wounded"] else 0
                am |= bit if mon["attacked"] else 0
            if am and p != mover:
                raise err(_("{where}.battle: only the monsters of the player whose turn it is can "
                            "have attacked this turn (MZ-8)").format(where=where))
            if hand & bm or hand & out or bm & out:
                raise err(_("{where}: a card is in two of hand, battle and out").format(where=where))
            nums = []
            for f in ("mana", "untapped", "captured"):
                v = pl[f]
                if not whole(v, 0, DECK_SIZE):
                    raise err(_("{where}.{field} must be a whole number from 0 to {size}, got {value}").format(
                        where=where, field=f, size=DECK_SIZE, value=_short(v)))
                nums.append(v)
            mana, untapped, captured = nums
            if untapped > mana:
                raise err(_("{where}: untapped {untapped} is more than the mana {mana}").format(
                    where=where, untapped=untapped, mana=mana))
            hidden = DECK_SIZE - _POP[hand | bm | out]
            trashed = TRASHED if (p == first and ph != TRASH) else 0
            if hidden != mana + trashed:
                if trashed:
                    raise err(_("{where}: {hidden} of the {size} cards are in none of hand, battle, out; "
                                "they must be the {mana} mana + {trashed} trashed (MZ-3)").format(
                        where=where, hidden=hidden, size=DECK_SIZE, mana=mana, trashed=TRASHED))
                raise err(_("{where}: {hidden} of the {size} cards are in none of hand, battle, out; "
                            "they must be the {mana} mana").format(where=where, hidden=hidden, size=DECK_SIZE,
                                                                   mana=mana))
            if captured > WIN_CAPTURES:
                raise err(_("{where}.captured {captured}: at {win} the game is over (MZ-23)").format(
                    where=where, captured=captured, win=WIN_CAPTURES))
            if bm and not mana:
                raise err(_("{where}: monsters in the battle zone but no mana to have summoned them; "
                            "mana is never lost (MZ-7)").format(where=where))
            blocks.append([hand, bm, wm, am, mana, untapped, captured, out])
        for p in (0, 1):
            if blocks[p][C] > _POP[blocks[1 - p][O]]:
                raise err(_("players[{player}].captured {captured} is more than the cards out of "
                            "player {opponent}'s play").format(player=p, captured=blocks[p][C], opponent=1 - p))
        o = 1 - mover
        me, you = blocks[mover], blocks[o]
        won = any(b[C] == WIN_CAPTURES for b in blocks)
        # what each phase requires (MZ-1 … MZ-9, MZ-19, MZ-22)
        if ph in (JANKEN, TRASH):
            if any(b != [FULL, 0, 0, 0, 0, 0, 0, 0] for b in blocks):
                raise err(_("phase {phase}: both players still hold all {size} cards (MZ-1)").format(
                    phase=PHASES[ph], size=DECK_SIZE))
            if ph == JANKEN and mover != 0:
                raise err(_("phase janken: turn is 0 until the janken decides the first player (MZ-2)"))
            if ph == TRASH and mover != first:
                raise err(_("phase trash: turn must be the first player (MZ-3)"))
            if quiet:
                raise err(_("phase {phase}: quiet_turns must be 0 before the first turn (MZ-Q6)").format(
                    phase=PHASES[ph]))
        if ph == CHARGE and not me[H]:
            raise err(_("phase charge with an empty hand: nothing to charge (MZ-6)"))
        if ph == CHARGE and me[U] != me[M]:
            raise err(_("phase charge: players[{player}].untapped must equal its mana, all mana is "
                        "untapped at the start of the turn (MZ-5)").format(player=mover))
        if ph == SUMMON and not acted and (me[H] or me[U] != me[M]):
            raise err(_("phase summon with acted false: the turn began with an empty hand (no charge, "
                        "MZ-6) and nothing was paid yet, so the hand is empty and all mana untapped (MZ-5)"))
        need_acted = ph in (BATTLE, SUB, STEAL) or (ph == END and won)
        if need_acted and not acted:
            if ph == END:
                raise err(_("phase {phase} needs acted true: an attack was made this turn "
                            "(MZ-23: captures come from attacks)").format(phase=PHASES[ph]))
            raise err(_("phase {phase} needs acted true: an attack was made this turn (MZ-8)").format(
                phase=PHASES[ph]))
        if ph in (JANKEN, TRASH, CHARGE) and acted:
            raise err(_("phase {phase}: acted must be false, nothing was done this turn yet").format(
                phase=PHASES[ph]))
        if me[A] and ph not in (BATTLE, SUB, STEAL, END):
            raise err(_("players[{player}].battle: a monster has attacked, so the phase is battle, "
                        "substitute, steal or end, not {phase} (the first attack ends the summoning, MZ-8)").format(
                player=mover, phase=PHASES[ph]))
        if sub_used and ph not in (BATTLE, STEAL, END):
            raise err(_("substitute_used is true in phase {phase}; みがわり is used only after an "
                        "attack, once per turn (MZ-19)").format(phase=PHASES[ph]))
        if direct_used and (ph not in (BATTLE, STEAL, END) or you[B]):
            raise err(_("direct_used is true, but a direct attack leaves the phase battle, steal or end "
                        "and the opponent's battle zone empty this turn (MZ-22)"))
        if ph == STEAL and (you[B] or not you[H] or not direct_used or not me[A]):
            raise err(_("phase steal needs an empty opposing battle zone, a card in that hand, "
                        "direct_used and the monster that attacked (MZ-22)"))
        # the end (MZ-23, MZ-24, MZ-Q6): over exactly when the rules say so
        if ph == END and not won and quiet != 2:
            raise err(_("phase end, but nobody has 3 captures (MZ-23) and quiet_turns is not 2 (MZ-24, MZ-Q6): "
                        "the game is not over"))
        if ph != END and won:
            raise err(_("a player has {win} captures, so the phase must be end (MZ-23)").format(win=WIN_CAPTURES))
        if ph == END and quiet == 2:
            if won or acted or sub_used or direct_used or me[A]:
                raise err(_("phase end after two quiet turns: the last turn changed nothing, so acted, "
                            "substitute_used and direct_used are false, no monster attacked (MZ-Q6)"))
            if me[H] or you[H]:
                raise err(_("phase end after two quiet turns: both hands are empty, a card in hand must "
                            "be charged (MZ-6, MZ-Q6)"))
        elif quiet and you[H]:
            raise err(_("quiet_turns {quiet}: the last turn was quiet only if player {player} could not charge, "
                        "but players[{player}].hand holds cards (MZ-6, MZ-Q6)").format(quiet=quiet, player=o))
        if ph not in (JANKEN, TRASH):
            _check_turns(blocks, ph, mover, first, bool(sub_used), err)
        pa = pt = -1
        pend = d["pending"]
        if ph == SUB:
            if not isinstance(pend, Mapping) or set(pend) != {"attacker", "target"}:
                raise err(_("phase substitute needs pending = {fields}").format(fields="{'attacker', 'target'}"))
            att, tgt = pend["attacker"], pend["target"]
            pa = self.slot[mover].get(att, -1) if isinstance(att, str) else -1
            pt = self.slot[o].get(tgt, -1) if isinstance(tgt, str) else -1
            if pa < 0 or not me[A] >> pa & 1:
                raise err(_("pending.attacker {card} is not a monster of player {player} "
                            "that has attacked").format(card=_short(att), player=mover))
            if pt < 0 or not you[B] >> pt & 1 or _POP[you[B]] < 2:
                raise err(_("pending.target {card} is not one of several monsters of player {player}").format(
                    card=_short(tgt), player=o))
            if sub_used or not you[U] or self.fight[mover][pa][pt][2]:
                raise err(_("phase substitute, but みがわり is not allowed here (MZ-19, MZ-21)"))
        elif pend is not None:
            raise err(_("pending must be null outside the substitute phase"))
        key = (ph, mover, first, quiet, *flags, pa, pt, *blocks[0], *blocks[1])
        if ph in (SUMMON, BATTLE) and not _can_act(self, list(key)):
            raise err(_("phase {phase}: player {player} has nothing to do but 'end', so the turn "
                        "would have ended by itself (MZ-9)").format(phase=PHASES[ph], player=mover))
        return MazemonState(self, key)


def _check_turns(blocks: list, ph: int, mover: int, first: int, sub_used: bool, err: Any) -> None:
    """The mana counts against the turns (MZ-6, MZ-9): turns alternate from the
    first player, and each turn charges exactly one card while the hand has one
    (hands only shrink, so a hand that holds cards now held cards at every turn
    start).  With t the second player's turns, the first player has had t + 1
    on their own turn, else t; a player's charges are their turns, less the one
    still to come in the phase charge: exactly so while the hand holds cards,
    at most so once it is empty, and at least one after their first turn
    (both start with cards: 8 and 10, at most one stolen before, MZ-3, MZ-22).

    A player's cards out of play that the opponent did not capture are
    substitutes knocked out (MZ-20, MZ-Q5).  みがわり is once per turn, on the
    opponent's turn, and taps one of the defender's mana (MZ-19): so at most
    one per opponent turn after the defender's first charge, not counting the
    current turn of the opponent while substitute_used is false."""
    lo, hi = 0, 10 ** 9  # the second player's turns t
    for p in (0, 1):
        ahead = int(p == first and mover == first)  # this player's turns: t + ahead
        due = int(p == mover and ph == CHARGE)  # the current turn's charge is still to come
        mana = blocks[p][M]
        lo = max(lo, mana - ahead + due, 1 - ahead if p == first else 0)
        if blocks[p][H]:
            hi = min(hi, mana - ahead + due)
        if not mana:  # no charge yet: no turn of theirs is past its charge
            hi = min(hi, due - ahead)
        if lo > hi:
            raise err(_("players[{player}].mana {mana}: no turn number fits the mana counts; each turn charges one "
                        "card while the hand has one and turns alternate from the first player (MZ-6, MZ-9)").format(
                player=p, mana=mana))
    for p in (0, 1):
        o = 1 - p
        subs = _POP[blocks[p][O]] - blocks[o][C]
        # the opponent's turns that can have had a みがわり: t + spare
        spare = int(o == first and mover == first) - int(o == first) - int(mover == o and not sub_used)
        if subs > 0 and (subs > hi + spare or not blocks[p][M]):
            raise err(_("players[{player}].out: {subs} cards out of play that player {opponent} did not capture are "
                        "substitutes knocked out (MZ-20), at most one per turn of player {opponent} after player "
                        "{player}'s first charge (MZ-19), but the mana counts allow at most {most} "
                        "such turns (MZ-6, MZ-9)").format(player=p, subs=subs, opponent=o, most=max(hi + spare, 0)))


# -- turn flow on a key list ------------------------------------------------------
def _start_turn(g: Mazemon, k: list, p: int) -> None:
    """MZ-5 untap, then MZ-6 charge (skipped with an empty hand)."""
    k[MV] = p
    k[AC] = k[SU] = k[DU] = 0
    k[PA] = k[PT] = -1
    b = BASE + BLOCK * p
    k[b + U] = k[b + M]
    k[PH] = CHARGE if k[b + H] else SUMMON


def _end_turn(g: Mazemon, k: list) -> None:
    """MZ-9, and MZ-Q6: two quiet turns in a row end the game."""
    p = k[MV]
    k[BASE + BLOCK * p + A] = 0
    k[NC] = 0 if k[AC] else k[NC] + 1
    if k[NC] >= 2:
        k[PH] = END
        k[AC] = k[SU] = k[DU] = 0
        return
    _start_turn(g, k, 1 - p)


def _options(g: Mazemon, k: list | tuple) -> tuple[list, list, list]:
    """(summons, attacks, directs) of the mover, as slots / slot pairs."""
    p = k[MV]
    bp, bo = BASE + BLOCK * p, BASE + BLOCK * (1 - p)
    untapped = k[bp + U]
    summons: list = []
    attacks: list = []
    directs: list = []
    if not untapped:
        return summons, attacks, directs
    zone = k[bp + B]
    if k[PH] == SUMMON and _POP[zone] < ZONE_LIMIT:
        cost = g.cost[p]
        summons = [i for i in _BITS[k[bp + H]] if cost[i][zone] <= untapped]
    ready = zone & ~k[bp + A]
    if ready:
        targets = k[bo + B]
        if targets:
            fight = g.fight[p]
            attacks = [(i, j) for i in _BITS[ready] for j in _BITS[targets] if fight[i][j][1] <= untapped]
            attacks.sort(key=lambda ij: fight[ij[0]][ij[1]][0])  # KO first: helps alpha-beta
        elif not k[DU] and k[bo + H]:
            directs = list(_BITS[ready])
    return summons, attacks, directs


def _can_act(g: Mazemon, k: list) -> bool:
    """Whether :func:`_options` would find anything (a faster early-exit check)."""
    p = k[MV]
    bp = BASE + BLOCK * p
    untapped = k[bp + U]
    if not untapped:
        return False
    zone = k[bp + B]
    if k[PH] == SUMMON and _POP[zone] < ZONE_LIMIT:
        cost = g.cost[p]
        for i in _BITS[k[bp + H]]:
            if cost[i][zone] <= untapped:
                return True
    ready = zone & ~k[bp + A]
    if not ready:
        return False
    bo = BASE + BLOCK * (1 - p)
    targets = k[bo + B]
    if targets:
        if untapped >= 2:
            return True
        fight = g.fight[p]
        return any(fight[i][j][1] == 1 for i in _BITS[ready] for j in _BITS[targets])
    return not k[DU] and k[bo + H] != 0


def _settle(g: Mazemon, k: list) -> "MazemonState":
    """End the turn while only 'end' is left to do (MZ-9)."""
    while k[PH] in (SUMMON, BATTLE) and not _can_act(g, k):
        _end_turn(g, k)
    return MazemonState(g, tuple(k))


def _won(k: list) -> bool:
    return k[BASE + C] >= WIN_CAPTURES or k[BASE + BLOCK + C] >= WIN_CAPTURES


def _resolve(g: Mazemon, k: list, x: int, y: int, sub: bool) -> "MazemonState":
    """The battle of the mover's slot ``x`` against the defender's slot ``y``
    (a substitute when ``sub``): MZ-12 … MZ-17, MZ-20, MZ-Q5, MZ-Q7."""
    p = k[MV]
    bp, bo = BASE + BLOCK * p, BASE + BLOCK * (1 - p)
    result = g.fight[p][x][y][0]
    ybit, xbit = 1 << y, 1 << x
    if result == KO or k[bo + W] & ybit:  # MZ-12 KO, or MZ-17 a second wound
        k[bo + B] &= ~ybit
        k[bo + W] &= ~ybit
        k[bo + O] |= ybit
        if not sub:  # MZ-20: a knocked-out substitute scores nothing (MZ-Q5: its trash)
            k[bp + C] += 1
    else:  # MZ-13, MZ-14, MZ-15: a first wound
        k[bo + W] |= ybit
    if result == MUTUAL:  # MZ-15: the attacker is wounded too
        if k[bp + W] & xbit:  # MZ-Q7: knocked out, to the defender's owner
            k[bp + B] &= ~xbit
            k[bp + W] &= ~xbit
            k[bp + A] &= ~xbit
            k[bp + O] |= xbit
            k[bo + C] += 1
        else:
            k[bp + W] |= xbit
    if _won(k):  # MZ-23
        k[PH] = END
        return MazemonState(g, tuple(k))
    k[PH] = BATTLE
    return _settle(g, k)


class MazemonState(State):
    """A Mazemon position; see the module docstring for the notation.

    The key is ``(phase, turn, first, quiet_turns, acted, substitute_used,
    direct_used, pending_attacker, pending_target)`` followed, for each
    player, by ``(hand, battle, wounded, attacked, mana, untapped, captured,
    out)`` (masks over deck slots, and counts).
    """

    __slots__ = ()

    # -- reading the position ---------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[self._k[PH]]

    @property
    def turn(self) -> int:
        """Whose turn it is (also while the defender decides a substitute)."""
        return self._k[MV]

    @property
    def current_player(self) -> int:
        ph = self._k[PH]
        if ph == END:
            return TERMINAL
        if ph in (JANKEN, TRASH, STEAL):
            return CHANCE
        if ph == SUB:
            return 1 - self._k[MV]  # the defender decides みがわり (MZ-19)
        return self._k[MV]

    def _blk(self, p: int) -> tuple:
        b = BASE + BLOCK * p
        return self._k[b:b + BLOCK]

    def hand(self, p: int) -> list[str]:
        return [self.game.ids[p][i] for i in _BITS[self._blk(p)[H]]]

    def battle_zone(self, p: int) -> list[dict[str, Any]]:
        h, b, w, a = self._blk(p)[:4]
        return [{"card": self.game.ids[p][i], "wounded": bool(w >> i & 1), "attacked": bool(a >> i & 1)}
                for i in _BITS[b]]

    def captured(self, p: int) -> int:
        """How many of the opponent's cards ``p`` has captured (とったカード)."""
        return self._blk(p)[C]

    def mana(self, p: int) -> tuple[int, int]:
        """(mana cards, untapped) of player ``p``."""
        blk = self._blk(p)
        return blk[M], blk[U]

    # -- moves ----------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """Canonical order: attacks (KO, wound, mutual; then by deck slot),
        direct attacks, summons, 'end'; substitutes then 'decline'."""
        k, g = self._k, self.game
        ph, p = k[PH], k[MV]
        if ph == CHARGE:
            return [f"charge {g.ids[p][i]}" for i in _BITS[k[BASE + BLOCK * p + H]]]
        if ph in (SUMMON, BATTLE):
            summons, attacks, directs = _options(g, k)
            mine, theirs = g.ids[p], g.ids[1 - p]
            return ([f"attack {mine[i]} {theirs[j]}" for i, j in attacks]
                    + [f"direct {mine[i]}" for i in directs]
                    + [f"summon {mine[i]}" for i in summons] + ["end"])
        if ph == SUB:
            o = 1 - p
            others = k[BASE + BLOCK * o + B] & ~(1 << k[PT])
            return [f"substitute {g.ids[o][j]}" for j in _BITS[others]] + ["decline"]
        return []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k, g = self._k, self.game
        ph = k[PH]
        if ph == JANKEN:  # MZ-2: janken, modelled as a fair coin (its equilibrium)
            return [("janken 0", Fraction(1, 2)), ("janken 1", Fraction(1, 2))]
        if ph == TRASH:  # MZ-3, MZ-Q8: two unseen cards of the shuffled hand
            ids = g.ids[k[MV]]
            pairs = list(combinations(range(DECK_SIZE), TRASHED))
            return [(f"trash {ids[i]}+{ids[j]}", Fraction(1, len(pairs))) for i, j in pairs]
        if ph == STEAL:  # MZ-22, MZ-Q2: one card of the hand at random
            o = 1 - k[MV]
            hand = _BITS[k[BASE + BLOCK * o + H]]
            return [(f"steal {g.ids[o][i]}", Fraction(1, len(hand))) for i in hand]
        return []

    def _apply(self, action: str) -> "MazemonState":
        g = self.game
        k = list(self._k)
        verb, _sp, arg = action.partition(" ")
        p = k[MV]
        o = 1 - p
        bp, bo = BASE + BLOCK * p, BASE + BLOCK * o
        if verb == "charge":  # MZ-6: face down into mana; usable this turn
            bit = 1 << g.slot[p][arg]
            k[bp + H] &= ~bit
            k[bp + M] += 1
            k[bp + U] += 1
            k[AC] = 1
            k[PH] = SUMMON
            return _settle(g, k)
        if verb == "summon":  # MZ-7, MZ-18
            i = g.slot[p][arg]
            k[bp + U] -= g.cost[p][i][k[bp + B]]
            k[bp + H] &= ~(1 << i)
            k[bp + B] |= 1 << i
            k[AC] = 1
            return _settle(g, k)
        if verb == "attack":  # MZ-8
            a, _sp, t = arg.partition(" ")
            x, y = g.slot[p][a], g.slot[o][t]
            _res, cost, attr_wins = g.fight[p][x][y]
            k[bp + U] -= cost
            k[bp + A] |= 1 << x
            k[AC] = 1
            if not k[SU] and k[bo + U] and _POP[k[bo + B]] > 1 and not attr_wins:  # MZ-19, MZ-21
                k[PH], k[PA], k[PT] = SUB, x, y
                return MazemonState(g, tuple(k))
            return _resolve(g, k, x, y, False)
        if verb == "substitute":  # MZ-19, MZ-Q5: the substitute fights with its own values
            z = g.slot[o][arg]
            x = k[PA]
            k[bo + U] -= 1
            k[SU] = 1
            k[PA] = k[PT] = -1
            return _resolve(g, k, x, z, True)
        if verb == "decline":
            x, y = k[PA], k[PT]
            k[PA] = k[PT] = -1
            return _resolve(g, k, x, y, False)
        if verb == "direct":  # MZ-22, MZ-Q2: one attacker, 1 mana, once per turn
            x = g.slot[p][arg]
            k[bp + U] -= 1
            k[bp + A] |= 1 << x
            k[AC] = k[DU] = 1
            k[PH] = STEAL
            return MazemonState(g, tuple(k))
        if verb == "steal":
            bit = 1 << g.slot[o][arg]
            k[bo + H] &= ~bit
            k[bo + O] |= bit
            k[bp + C] += 1
            if _won(k):  # MZ-23
                k[PH] = END
                return MazemonState(g, tuple(k))
            k[PH] = BATTLE
            return _settle(g, k)
        if verb == "end":  # MZ-9
            _end_turn(g, k)
            return _settle(g, k)
        if verb == "janken":  # MZ-2: the winner goes first
            w = int(arg)
            k[MV] = k[FI] = w
            k[PH] = TRASH
            return MazemonState(g, tuple(k))
        if verb == "trash":  # MZ-3
            a, _sp, b = arg.partition("+")
            k[bp + H] &= ~((1 << g.slot[p][a]) | (1 << g.slot[p][b]))
            _start_turn(g, k, p)
            return _settle(g, k)
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    # -- the end (MZ-23, MZ-24, MZ-Q6, MZ-Q7) ---------------------------------------------
    def returns(self) -> list:
        k = self._k
        if k[PH] != END:
            return [0, 0]
        c0, c1 = k[BASE + C], k[BASE + BLOCK + C]
        if self.game.options["payoff"] == "score":
            d = c0 - c1
        elif c0 >= WIN_CAPTURES and c1 >= WIN_CAPTURES:  # MZ-Q7: attacker's side first
            d = 0 if self.game.options["both_three"] == "draw" else (1 if k[MV] == 0 else -1)
        elif c0 >= WIN_CAPTURES:
            d = 1
        elif c1 >= WIN_CAPTURES:
            d = -1
        else:  # MZ-24: more captured cards wins, equal is a draw (MZ-Q6)
            d = (c0 > c1) - (c0 < c1)
        return [d, -d]

    def winner(self) -> int | None:
        """The winning player at the end, ``None`` for a draw or before the end."""
        r = self.returns()
        if self._k[PH] != END or r[0] == 0:
            return None
        return 0 if r[0] > 0 else 1

    # -- battles explained -------------------------------------------------------------
    def battle_report(self, action: str) -> dict[str, Any]:
        """The structured explanation of the battle an action starts or settles.

        For ``attack X Y`` (the target as declared; the defender may still
        substitute) and ``substitute Z`` / ``decline`` at a substitute
        decision: the :class:`Battle` fields plus who attacks, whether みがわり
        is possible, the wounds before and what is knocked out and where it goes.
        """
        k, g = self._k, self.game
        verb, _sp, arg = action.partition(" ")
        p = k[MV]
        o = 1 - p
        if verb == "attack" and k[PH] in (SUMMON, BATTLE):
            a, _sp, t = arg.partition(" ")
            x, y, sub = g.slot[p][a], g.slot[o][t], False
        elif verb in ("substitute", "decline") and k[PH] == SUB:
            x = k[PA]
            y, sub = (g.slot[o][arg], True) if verb == "substitute" else (k[PT], False)
        else:
            raise ValueError(_("mazemon: {action} starts no battle in this position "
                               "(phase {phase}); battles come from 'attack X Y', "
                               "'substitute Z' and 'decline'").format(action=repr(action), phase=PHASES[k[PH]]))
        ac, dc = g.decks[p][x], g.decks[o][y]
        b = battle(ac, dc)
        bp, bo = self._blk(p), self._blk(o)
        d_wounded, a_wounded = bool(bo[W] >> y & 1), bool(bp[W] >> x & 1)
        knocked: list[dict[str, Any]] = []
        if b.result == "ko" or d_wounded:
            knocked.append({"card": dc.id, "owner": o,
                            "to": "trash (MZ-20, MZ-Q5)" if sub else f"player {p}'s captured cards",
                            "rule": "MZ-20" if sub else ("MZ-12" if b.result == "ko" else "MZ-17")})
        if b.result == "mutual" and a_wounded:
            knocked.append({"card": ac.id, "owner": p, "to": f"player {o}'s captured cards",
                            "rule": "MZ-Q7"})
        out = b.as_dict()
        if verb == "attack":
            sub_ok = (b.substitute_allowed and not k[SU] and bo[U] > 0 and _POP[bo[B]] > 1)
        else:
            sub_ok = False
        out.update({"attacker_player": p, "attacker_card": ac.id, "defender_card": dc.id,
                    "substitute": sub, "substitute_possible": sub_ok,
                    "attacker_wounded_before": a_wounded, "defender_wounded_before": d_wounded,
                    "knocked_out": knocked})
        if sub:
            out["attack_cost"] = g.fight[p][x][k[PT]][1]  # paid against the declared target (MZ-Q4)
        return out

    def explain(self, action: str) -> str:
        k, g = self._k, self.game
        verb, _sp, arg = action.partition(" ")
        p = k[MV]
        o = 1 - p
        if verb in ("attack", "substitute", "decline"):
            r = self.battle_report(action)
            attacker = card_name(g.card(p, r["attacker_card"]))
            defender = card_name(g.card(o, r["defender_card"]))
            if verb == "attack":
                lead = _("Player {player}'s {attacker} attacks {defender} for {cost} mana ({rules})").format(
                    player=p, attacker=attacker, defender=defender, cost=r["attack_cost"],
                    rules="MZ-8, MZ-Q4" if r["attack_cost"] == 2 else "MZ-8")
            elif verb == "substitute":
                lead = _("Player {player} taps 1 mana: {defender} takes the attack instead "
                         "(みがわり, MZ-19, MZ-Q5)").format(player=o, defender=defender)
            else:
                lead = _("Player {player} uses no substitute").format(player=o)
            outs = []
            for x in r["knocked_out"]:
                name = x["card"] if get_language() != "ja" else card_name(g.card(x["owner"], x["card"]))
                where = (_("trash (MZ-20, MZ-Q5)") if x["rule"] == "MZ-20"
                         else _("player {player}'s captured cards").format(player=1 - x["owner"]))
                if x["rule"] == "MZ-17":
                    outs.append(_("{card} was already wounded and is knocked out → {destination} ({rule})").format(
                        card=name, destination=where, rule=x["rule"]))
                else:
                    outs.append(_("{card} is knocked out → {destination} ({rule})").format(
                        card=name, destination=where, rule=x["rule"]))
            fought = battle(g.card(p, r["attacker_card"]), g.card(o, r["defender_card"]))
            if outs:
                text = _("{lead}. {battle}. {knocked_out}.").format(
                    lead=lead, battle=fought.text(), knocked_out=_sep().join(outs))
            else:
                text = _("{lead}. {battle}.").format(lead=lead, battle=fought.text())
            if verb == "attack":
                if r["substitute_possible"]:
                    text += " " + _("Player {player} may answer with みがわり (MZ-19).").format(player=o)
                elif not r["substitute_allowed"]:
                    text += " " + _("No みがわり: it wins on attribute (MZ-21).")
            return text
        if verb == "charge":
            return _("Player {player} charges {card} face down into mana (チャージ, MZ-6); it can never fight.").format(
                player=p, card=card_name(g.card(p, arg)))
        if verb == "summon":
            i = g.slot[p][arg]
            zone = [g.decks[p][j] for j in _BITS[k[BASE + BLOCK * p + B]]]
            card = g.decks[p][i]
            pay = g.cost[p][i][k[BASE + BLOCK * p + B]]
            shared = shared_materials(card, zone, g.options["material_count"])
            least = card.cost - shared < 1
            if shared and least:
                note = _("cost {cost} − {shared} shared materials (そざい), but at least 1").format(
                    cost=card.cost, shared=shared)
            elif shared:
                note = _("cost {cost} − {shared} shared materials (そざい)").format(cost=card.cost, shared=shared)
            elif least:
                note = _("cost {cost}, but at least 1").format(cost=card.cost)
            else:
                note = _("cost {cost}").format(cost=card.cost)
            return _("Player {player} summons {card} to the battle zone, paying {pay} mana "
                     "({note}; しゅつげん, MZ-7, MZ-18).").format(player=p, card=card_names(card), pay=pay, note=note)
        if verb == "direct":
            return _("Player {player}'s {card} attacks directly for 1 mana: player {opponent}'s battle zone "
                     "is empty, one card of their hand is taken at random (ちょくせつこうげき, MZ-22, MZ-Q2).").format(
                player=p, card=card_name(g.card(p, arg)), opponent=o)
        if verb == "steal":
            return _("The card taken from player {opponent}'s hand is {card}: player {player} captures it "
                     "(MZ-22, MZ-23).").format(opponent=o, card=card_name(g.card(o, arg)), player=p)
        if verb == "end":
            return _("Player {player} ends the turn (MZ-9); two turns in a row without charge, summon or attack "
                     "end the game (MZ-Q6).").format(player=p)
        if verb == "janken":
            return _("Player {player} wins the janken (じゃんけん) and goes first (MZ-2).").format(player=arg)
        if verb == "trash":
            a, b = (g.card(p, c) for c in arg.split("+"))
            return _("Player {player} sets aside two cards unseen (トラッシュ): {first} and {second}; "
                     "neither player may look at them (MZ-3, MZ-Q8).").format(
                player=p, first=card_names(a), second=card_names(b))
        return action

    # -- what players see ----------------------------------------------------------
    def _hidden_hand(self, viewer: int, p: int) -> bool:
        return p != viewer and not self.game.options["open_hands"]

    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        pend = None
        if k[PH] == SUB:
            pend = {"attacker": self.game.ids[k[MV]][k[PA]], "target": self.game.ids[1 - k[MV]][k[PT]]}
        players = []
        for p in (0, 1):
            blk = self._blk(p)
            hand: Any = _POP[blk[H]] if self._hidden_hand(player, p) else self.hand(p)
            players.append({"hand": hand, "battle": self.battle_zone(p), "mana": blk[M],
                            "untapped": blk[U], "captured": blk[C],
                            "out": [self.game.ids[p][i] for i in _BITS[blk[O]]]})
        return {"phase": PHASES[k[PH]], "turn": k[MV], "first": None if k[FI] < 0 else k[FI],
                "quiet_turns": k[NC], "acted": bool(k[AC]), "substitute_used": bool(k[SU]),
                "direct_used": bool(k[DU]), "pending": pend, "players": players}

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        h = BASE + BLOCK * (1 - player) + H
        return k[:h] + (-1 - _POP[k[h]],) + k[h + 1:]

    def _settled(self) -> bool:
        """Whether the mover still has something to do besides 'end' in the
        summon and battle phases (otherwise the turn has ended by itself)."""
        return self._k[PH] not in (SUMMON, BATTLE) or _can_act(self.game, list(self._k))

    def public_action(self, action: str, viewer: int) -> str:
        """Every move is public except two.  A charged card goes face down
        into mana (MZ-6, MZ-4: the seed's うらむきで マナゾーンへ), so the
        opponent sees ``charge ??``; the first player's two cards are set
        aside unseen (MZ-3, MZ-Q8: 見ないで よけておく), so nobody sees more
        than ``trash ??``.  Summons and battles happen in the face-up battle
        zone (MZ-4, MZ-7, MZ-8, MZ-19), janken in the open (MZ-2), and the
        card a direct attack takes lies open among the captured cards
        (MZ-22; ``out`` in :meth:`observation`)."""
        if self.game.options["open_hands"]:
            return action
        verb = action.partition(" ")[0]
        if verb == "trash":
            return "trash ??"
        if verb == "charge" and viewer != self.current_player:
            return "charge ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's cards in neither battle zone nor ``out``: their
        hand, and together their mana and trash, face down (MZ-4, MZ-Q8).

        The position records no more of the face-down cards (which one is
        mana, which one trash: they never come back, MZ-6, MZ-17), so they
        are one place; for the same reason the player's own face-down cards
        (the own deck outside hand, battle zone and ``out``) are no place.
        A filling that leaves the mover nothing to do but 'end' contradicts
        what the player saw (that turn would have ended by itself)."""
        if self.game.options["open_hands"]:
            return None
        g, k = self.game, self._k
        o = 1 - player
        b = BASE + BLOCK * o
        cards = tuple(g.ids[o][i] for i in _BITS[FULL & ~(k[b + B] | k[b + O])])
        in_hand = _POP[k[b + H]]
        settled = self._settled()

        def build(contents: tuple[tuple, ...]) -> MazemonState | None:
            new = list(k)
            new[b + H] = sum(1 << g.slot[o][c] for c in contents[0])
            t = MazemonState(g, tuple(new))
            return t if t._settled() or not settled else None

        return Hidden(cards, (("opponent hand", in_hand),
                              ("opponent mana and trash", len(cards) - in_hand)), build)

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MazemonState":
        """Deal the opponent's hand anew from the cards ``player`` cannot see
        (their hand, their mana and their trash: :meth:`hidden`), again
        while the deal contradicts what the player saw."""
        h = self.hidden(player)
        if h is None:
            return self
        rng = make_rng(seed)
        n = h.places[0][1]
        while True:
            hand = rng.sample(h.cards, n)
            t = h.build((tuple(hand), tuple(c for c in h.cards if c not in hand)))
            if t is not None:
                return t

    def to_dict(self) -> dict[str, Any]:
        d = self.observation(0)
        d["players"][1]["hand"] = self.hand(1)
        d["players"][0]["hand"] = self.hand(0)
        return {"game": "mazemon", "options": self.game.options_dict(), **d}

    def heuristic(self, player: int) -> float:
        """Captures, then the board (power and HP, halved when wounded), mana
        and cards in hand; only what ``player`` sees."""
        if self._k[PH] == END:
            return 100.0 * self.returns()[player]
        g = self.game
        total = 0.0
        for p, sign in ((player, 1.0), (1 - player, -1.0)):
            blk = self._blk(p)
            v = 10.0 * blk[C] + 0.4 * blk[M] + 0.6 * _POP[blk[H]]
            for i in _BITS[blk[B]]:
                c = g.decks[p][i]
                v += (c.power / 400 + c.hp / 1500) * (0.5 if blk[W] >> i & 1 else 1.0)
            total += sign * v
        return total

    def __str__(self) -> str:
        k, g = self._k, self.game
        ph = k[PH]
        ja = get_language() == "ja"
        if ph == END:
            w = self.winner()
            head = (_("game over (おわり): draw") if w is None
                    else _("game over (おわり): player {player} wins").format(player=w))
        elif ph == JANKEN:
            head = _("janken (じゃんけん) to decide the first player")
        else:
            who = self.current_player
            if who >= 0 and who != k[MV]:
                head = _("player {player}'s turn, {phase}, player {decider} decides").format(
                    player=k[MV], phase=_(PHASE_TERM[ph]), decider=who)
            else:
                head = _("player {player}'s turn, {phase}").format(player=k[MV], phase=_(PHASE_TERM[ph]))
        lines = [_("Mazemon (マゼモン) · {head}").format(head=head)]
        if ph == SUB:
            pa, pt = g.decks[k[MV]][k[PA]], g.decks[1 - k[MV]][k[PT]]
            lines.append("  " + _("pending attack: {attacker} → {target}").format(
                attacker=pa.japanese if ja else pa.id, target=pt.japanese if ja else pt.id))
        for p in (1, 0):
            blk = self._blk(p)
            zone = []
            for i in _BITS[blk[B]]:
                c = g.decks[p][i]
                marks = (" キズ" if blk[W] >> i & 1 else "") + (" " + _("attacked こうげきずみ") if blk[A] >> i & 1 else "")
                if ja:  # the Japanese name alone, and HP apart from its number
                    zone.append(f"{c.japanese} [{ATTR_JA[c.attribute]} わざ {c.power} HP {c.hp}{marks}]")
                else:
                    zone.append(f"{c.name} {c.japanese} [{ATTR_JA[c.attribute]} わざ{c.power} HP{c.hp}{marks}]")
            first = " (" + _("せんて first") + ")" if k[FI] == p else ""
            lines.append("  " + _("player {player}{first}: captured (とったカード) {captured} | mana (マナ) {mana}, "
                                  "{untapped} untapped | hand (てふだ) {hand}").format(
                player=p, first=first, captured=blk[C], mana=blk[M], untapped=blk[U],
                hand=', '.join(self.hand(p)) or '—'))
            lines.append("    " + _("battle zone (バトルゾーン): {zone}").format(zone=' · '.join(zone) or '—'))
        return "\n".join(lines)
