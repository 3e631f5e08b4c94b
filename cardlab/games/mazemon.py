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

from ..core import (
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
    read_data_file,
    register,
)
from ..errors import CardFileError, OptionError, PositionError

__all__ = ["Mazemon", "MazemonState", "Card", "CardSet", "Battle", "load_cards", "battle",
           "summon_cost", "shared_materials", "attribute_relation", "ATTRIBUTES"]

#: the three attributes (ぞくせい), each beating the next (MZ-11)
ATTRIBUTES = ("fire", "grass", "water")
BEATS = {"fire": "grass", "grass": "water", "water": "fire"}
ATTR_JA = {"fire": "ほのお", "grass": "くさ", "water": "みず"}
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

    def __str__(self) -> str:
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
        return CardFileError(f"{where}: card {card!r}, field {field!r}: {why}")

    def whole(v: Any, lo: int, hi: int) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi

    if not isinstance(data, dict):
        raise CardFileError(f"{where}: the file must hold a JSON object with 'cards' and 'decks'")
    unknown = set(data) - {"name", "materials", "cards", "decks"}
    if unknown:
        raise CardFileError(f"{where}: unknown top-level fields {sorted(unknown)}; "
                            "accepted: name, materials, cards, decks")
    name = data.get("name", where)
    if not isinstance(name, str) or not name.strip():
        raise CardFileError(f"{where}: field 'name' must be a non-empty string, got {_short(name)}")
    mats_ja = data.get("materials", {})
    if not isinstance(mats_ja, dict):
        raise CardFileError(f"{where}: field 'materials' must map material names to their Japanese "
                            f"names, got {_short(mats_ja)}")
    for m, ja in mats_ja.items():
        if not isinstance(ja, str) or not ja.strip():
            raise CardFileError(f"{where}: field 'materials', material {_short(m)}: the Japanese name "
                                f"must be a non-empty string, got {_short(ja)}")
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise CardFileError(f"{where}: 'cards' must be a non-empty list of card objects")
    cards: dict[str, Card] = {}
    for i, c in enumerate(raw):
        label = c.get("id", f"#{i}") if isinstance(c, dict) else f"#{i}"
        label = label if isinstance(label, str) and len(label) <= 40 else f"#{i}"
        if not isinstance(c, dict):
            raise bad(label, "id", "each card must be a JSON object")
        extra = set(c) - _CARD_FIELDS
        if extra:
            raise bad(label, sorted(extra)[0], f"unknown field; accepted: {', '.join(sorted(_CARD_FIELDS))}")
        cid = c.get("id")
        if not isinstance(cid, str) or not re.fullmatch(ID_RE, cid):
            raise bad(label, "id", "must be lower-case letters, digits and _ (a letter first, "
                      f"at most 32), got {_short(cid)}")
        if cid in cards:
            raise bad(cid, "id", "the same id is used twice")
        for f in ("name", "japanese"):
            if not isinstance(c.get(f), str) or not c[f].strip():
                raise bad(cid, f, f"must be a non-empty string, got {_short(c.get(f))}")
        if c.get("attribute") not in ATTRIBUTES:
            raise bad(cid, "attribute", f"must be one of {', '.join(ATTRIBUTES)}, got {_short(c.get('attribute'))}")
        if not whole(c.get("hp"), 1, 100_000):
            raise bad(cid, "hp", f"must be a whole number from 1 to 100000, got {_short(c.get('hp'))}")
        if not whole(c.get("cost"), 1, 10):
            raise bad(cid, "cost", f"must be a whole number from 1 to 10, got {_short(c.get('cost'))}")
        t = c.get("technique")
        if not isinstance(t, dict) or set(t) - {"name", "japanese", "power"}:
            raise bad(cid, "technique", "must be an object with name, japanese and power")
        names = (t.get("name"), t.get("japanese", t.get("name")))
        if not all(isinstance(n, str) and n.strip() for n in names):
            raise bad(cid, "technique", "its name (and japanese) must be non-empty strings")
        if not whole(t.get("power"), 0, 100_000):
            raise bad(cid, "technique", f"power must be a whole number from 0 to 100000, got {_short(t.get('power'))}")
        mats = c.get("materials")
        if (not isinstance(mats, list) or not 2 <= len(mats) <= 4
                or not all(isinstance(m, str) and m for m in mats) or len(set(mats)) != len(mats)):
            raise bad(cid, "materials", f"must be a list of 2 to 4 different names (MZ-18), got {_short(mats)}")
        cards[cid] = Card(cid, c["name"], c["japanese"], c["attribute"], c["hp"], c["cost"],
                          t["name"], t.get("japanese", t["name"]), t["power"], tuple(mats))
    decks_raw = data.get("decks")
    if not isinstance(decks_raw, dict) or not decks_raw:
        raise CardFileError(f"{where}: 'decks' must map deck names to decks of {DECK_SIZE} card ids")
    decks: dict[str, tuple[str, ...]] = {}
    for dname, d in decks_raw.items():
        ids = d.get("cards") if isinstance(d, dict) else d
        if isinstance(d, dict) and set(d) - {"name", "japanese", "cards"}:
            raise CardFileError(f"{where}: deck {dname!r}: unknown field {sorted(set(d) - {'name', 'japanese', 'cards'})[0]!r};"
                                " accepted: name, japanese, cards")
        for f in ("name", "japanese"):
            if isinstance(d, dict) and f in d and (not isinstance(d[f], str) or not d[f].strip()):
                raise CardFileError(f"{where}: deck {dname!r}, field {f!r}: must be a non-empty string, "
                                    f"got {_short(d[f])}")
        if not isinstance(ids, list) or len(ids) != DECK_SIZE:
            got = f"{len(ids)} entries" if isinstance(ids, list) else _short(ids)
            raise CardFileError(f"{where}: deck {dname!r}, field 'cards': must list exactly "
                                f"{DECK_SIZE} card ids (MZ-1), got {got}")
        for cid in ids:
            if not isinstance(cid, str) or cid not in cards:
                raise CardFileError(f"{where}: deck {dname!r}, field 'cards': unknown card {_short(cid)}")
        if len(set(ids)) != DECK_SIZE:
            raise CardFileError(f"{where}: deck {dname!r}, field 'cards': the {DECK_SIZE} cards must "
                                "all be different")
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

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hp"] = list(self.hp) if self.hp else None
        return d

    def text(self) -> str:
        sign = {"wins": ">", "ties": "=", "loses": "<"}[self.technique]
        a, d = self.attacker_attribute, self.defender_attribute
        arrow = {"wins": "→", "same": "=", "loses": "←"}[self.attribute]
        parts = [f"わざ technique {self.attacker_power} {sign} {self.defender_power} ({self.technique}, MZ-10)",
                 f"attribute {a}/{ATTR_JA[a]} {arrow} {d}/{ATTR_JA[d]} ({self.attribute}, MZ-11)"]
        if self.hp:
            rel = ">" if self.hp[0] > self.hp[1] else "≤"
            parts.append(f"same attribute, HP {self.hp[0]} {rel} {self.hp[1]} (MZ-16)")
        else:
            parts.append("HP not compared (attributes differ, MZ-16)")
        outcome = {
            "ko": f"{self.defender} is knocked out at once (一撃)",
            "wound": f"{self.defender} takes a wound (キズ), {self.attacker} none",
            "mutual": "both take a wound (あいうち)",
        }[self.result]
        return f"{self.attacker} vs {self.defender}: " + "; ".join(parts) + f" → {outcome} ({self.rule})"

    __str__ = text


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
                  rel != "wins")  # MZ-21


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
    raise OptionError(f"material_count={material_count!r} is not accepted; "
                      "material_count accepts 'distinct' or 'per_monster'")


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
@register
class Mazemon(Game):
    """Mazemon (マゼモン), two players, ten cards each.

    >>> import cardlab
    >>> game = cardlab.load("mazemon", open_hands=True)
    >>> state = game.new_initial_state(seed=1)
    >>> state.legal_actions()[0].startswith("charge")
    True
    """

    name = "mazemon"
    title = "Mazemon (マゼモン)"
    rules = "mazemon.md"
    OPTIONS = {
        "open_hands": bool_option("both players see both hands and the trash (MZ-Q8)"),
        "payoff": Option("win", "returns(): 'win' (1/-1/0) or 'score' (captured-card difference)",
                         choices=("win", "score")),
        "material_count": Option("distinct", "shared materials (MZ-18): each material of the new "
                                 "monster once ('distinct') or once per monster having it (MZ-Q3)",
                                 choices=("distinct", "per_monster"), label='count materials そざい'),
        "both_three": Option("attacker", "both players reach 3 captures in one battle: the attacker "
                             "wins ('attacker') or it is a draw ('draw') (MZ-Q7)",
                             choices=("attacker", "draw"), label='both reach three captures'),
        "cards": Option(None, "the card file: None (cardlab's own set), a JSON path or a dict (MZ-Q1)",
                        check=_cards_ok, accepts="None, a path to a JSON card file, or a dict"),
        "deck0": Option("hinoko", "player 0's deck: a deck name of the card file",
                        check=_name_ok, accepts="a deck name of the card file"),
        "deck1": Option("shizuku", "player 1's deck: a deck name of the card file",
                        check=_name_ok, accepts="a deck name of the card file"),
    }
    ACTION_GRAMMAR = ("'charge X', 'summon X', 'attack X Y', 'direct X', 'end', 'substitute X', "
                      "'decline' (X, Y card ids); chance: 'janken 0|1', 'trash X+Y', 'steal X'")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.card_set = cs
        decks = []
        for p in (0, 1):
            dname = self.options[f"deck{p}"]
            if dname not in cs.decks:
                raise OptionError(f"mazemon: option deck{p}={dname!r} is not a deck of {cs.source}; "
                                  f"deck{p} accepts {', '.join(map(repr, sorted(cs.decks)))}")
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
            raise PositionError(f"mazemon: the position was saved with options {_short(opts, 200)}; "
                                f"this game has {self.options_dict()}: load it with those options")

        def err(msg: str) -> PositionError:
            return PositionError(f"mazemon: {msg}")

        def whole(v: Any, lo: int, hi: int) -> bool:
            return type(v) is int and lo <= v <= hi

        if not isinstance(d["phase"], str) or d["phase"] not in PHASES:
            raise err(f"phase {_short(d['phase'])} unknown; one of {', '.join(PHASES)}")
        ph = PHASES.index(d["phase"])
        mover = d["turn"]
        if not whole(mover, 0, 1):
            raise err(f"turn must be 0 or 1, got {_short(mover)}")
        first = d["first"]
        if ph == JANKEN:
            if first is not None:
                raise err("first must be null before the janken (MZ-2)")
            first = -1
        elif not whole(first, 0, 1):
            raise err(f"first must be 0 or 1 after the janken, got {_short(first)}")
        quiet = d["quiet_turns"]
        if not whole(quiet, 0, 2) or (quiet == 2 and ph != END):
            raise err(f"quiet_turns must be 0 or 1 (2 only at the end, MZ-Q6), got {_short(quiet)}")
        flags = []
        for f in ("acted", "substitute_used", "direct_used"):
            if not isinstance(d[f], bool):
                raise err(f"{f} must be true or false, got {_short(d[f])}")
            flags.append(int(d[f]))
        acted, sub_used, direct_used = flags
        players = d["players"]
        if not isinstance(players, list) or len(players) != 2:
            raise err("players must be a list of two player objects")
        blocks = []
        for p, pl in enumerate(players):
            where = f"players[{p}]"
            if not isinstance(pl, Mapping):
                raise err(f"{where} must be an object")
            check_keys(pl, ["hand", "battle", "mana", "untapped", "captured", "out"], f"mazemon: {where}")
            slot = self.slot[p]

            def mask(ids: Any, field: str) -> int:
                if not isinstance(ids, list):
                    raise err(f"{where}.{field} must be a list of card ids")
                m = 0
                for cid in ids:
                    if not isinstance(cid, str) or cid not in slot:
                        raise err(f"{where}.{field}: {_short(cid)} is not a card of player {p}'s deck; "
                                  f"the deck is {', '.join(self.ids[p])}")
                    if m >> slot[cid] & 1:
                        raise err(f"{where}.{field}: {cid!r} appears twice")
                    m |= 1 << slot[cid]
                return m

            hand, out = mask(pl["hand"], "hand"), mask(pl["out"], "out")
            bz = pl["battle"]
            if not isinstance(bz, list) or len(bz) > ZONE_LIMIT:
                raise err(f"{where}.battle must be a list of at most {ZONE_LIMIT} monsters (MZ-4)")
            bm = wm = am = 0
            for mon in bz:
                if not isinstance(mon, Mapping) or set(mon) != {"card", "wounded", "attacked"}:
                    raise err(f"{where}.battle: each monster is {{'card', 'wounded', 'attacked'}}, "
                              f"got {_short(mon)}")
                bit = mask([mon["card"]], "battle")
                if bm & bit:
                    raise err(f"{where}.battle: {mon['card']!r} appears twice")
                for f in ("wounded", "attacked"):
                    if not isinstance(mon[f], bool):
                        raise err(f"{where}.battle: {f} of {mon['card']!r} must be true or false")
                bm |= bit
                wm |= bit if mon["wounded"] else 0
                am |= bit if mon["attacked"] else 0
            if am and p != mover:
                raise err(f"{where}.battle: only the monsters of the player whose turn it is can "
                          "have attacked this turn (MZ-8)")
            if hand & bm or hand & out or bm & out:
                raise err(f"{where}: a card is in two of hand, battle and out")
            nums = []
            for f in ("mana", "untapped", "captured"):
                v = pl[f]
                if not whole(v, 0, DECK_SIZE):
                    raise err(f"{where}.{f} must be a whole number from 0 to {DECK_SIZE}, got {_short(v)}")
                nums.append(v)
            mana, untapped, captured = nums
            if untapped > mana:
                raise err(f"{where}: untapped {untapped} is more than the mana {mana}")
            hidden = DECK_SIZE - _POP[hand | bm | out]
            trashed = TRASHED if (p == first and ph != TRASH) else 0
            if hidden != mana + trashed:
                raise err(f"{where}: {hidden} of the {DECK_SIZE} cards are in none of hand, battle, out; "
                          f"they must be the {mana} mana" + (f" + {TRASHED} trashed (MZ-3)" if trashed else ""))
            if captured > WIN_CAPTURES:
                raise err(f"{where}.captured {captured}: at {WIN_CAPTURES} the game is over (MZ-23)")
            if bm and not mana:
                raise err(f"{where}: monsters in the battle zone but no mana to have summoned them; "
                          "mana is never lost (MZ-7)")
            blocks.append([hand, bm, wm, am, mana, untapped, captured, out])
        for p in (0, 1):
            if blocks[p][C] > _POP[blocks[1 - p][O]]:
                raise err(f"players[{p}].captured {blocks[p][C]} is more than the cards out of "
                          f"player {1 - p}'s play")
        o = 1 - mover
        me, you = blocks[mover], blocks[o]
        won = any(b[C] == WIN_CAPTURES for b in blocks)
        # what each phase requires (MZ-1 … MZ-9, MZ-19, MZ-22)
        if ph in (JANKEN, TRASH):
            if any(b != [FULL, 0, 0, 0, 0, 0, 0, 0] for b in blocks):
                raise err(f"phase {PHASES[ph]}: both players still hold all {DECK_SIZE} cards (MZ-1)")
            if ph == JANKEN and mover != 0:
                raise err("phase janken: turn is 0 until the janken decides the first player (MZ-2)")
            if ph == TRASH and mover != first:
                raise err("phase trash: turn must be the first player (MZ-3)")
            if quiet:
                raise err(f"phase {PHASES[ph]}: quiet_turns must be 0 before the first turn (MZ-Q6)")
        if ph == CHARGE and not me[H]:
            raise err("phase charge with an empty hand: nothing to charge (MZ-6)")
        if ph == CHARGE and me[U] != me[M]:
            raise err(f"phase charge: players[{mover}].untapped must equal its mana, all mana is "
                      "untapped at the start of the turn (MZ-5)")
        if ph == SUMMON and not acted and (me[H] or me[U] != me[M]):
            raise err("phase summon with acted false: the turn began with an empty hand (no charge, "
                      "MZ-6) and nothing was paid yet, so the hand is empty and all mana untapped (MZ-5)")
        need_acted = ph in (BATTLE, SUB, STEAL) or (ph == END and won)
        if need_acted and not acted:
            raise err(f"phase {PHASES[ph]} needs acted true: an attack was made this turn "
                      + ("(MZ-23: captures come from attacks)" if ph == END else "(MZ-8)"))
        if ph in (JANKEN, TRASH, CHARGE) and acted:
            raise err(f"phase {PHASES[ph]}: acted must be false, nothing was done this turn yet")
        if me[A] and ph not in (BATTLE, SUB, STEAL, END):
            raise err(f"players[{mover}].battle: a monster has attacked, so the phase is battle, "
                      f"substitute, steal or end, not {PHASES[ph]} (the first attack ends the summoning, MZ-8)")
        if sub_used and ph not in (BATTLE, STEAL, END):
            raise err(f"substitute_used is true in phase {PHASES[ph]}; みがわり is used only after an "
                      "attack, once per turn (MZ-19)")
        if direct_used and (ph not in (BATTLE, STEAL, END) or you[B]):
            raise err("direct_used is true, but a direct attack leaves the phase battle, steal or end "
                      "and the opponent's battle zone empty this turn (MZ-22)")
        if ph == STEAL and (you[B] or not you[H] or not direct_used or not me[A]):
            raise err("phase steal needs an empty opposing battle zone, a card in that hand, "
                      "direct_used and the monster that attacked (MZ-22)")
        # the end (MZ-23, MZ-24, MZ-Q6): over exactly when the rules say so
        if ph == END and not won and quiet != 2:
            raise err("phase end, but nobody has 3 captures (MZ-23) and quiet_turns is not 2 (MZ-24, MZ-Q6): "
                      "the game is not over")
        if ph != END and won:
            raise err(f"a player has {WIN_CAPTURES} captures, so the phase must be end (MZ-23)")
        if ph == END and quiet == 2:
            if won or acted or sub_used or direct_used or me[A]:
                raise err("phase end after two quiet turns: the last turn changed nothing, so acted, "
                          "substitute_used and direct_used are false, no monster attacked (MZ-Q6)")
            if me[H] or you[H]:
                raise err("phase end after two quiet turns: both hands are empty, a card in hand must "
                          "be charged (MZ-6, MZ-Q6)")
        elif quiet and you[H]:
            raise err(f"quiet_turns {quiet}: the last turn was quiet only if player {o} could not charge, "
                      f"but players[{o}].hand holds cards (MZ-6, MZ-Q6)")
        if ph not in (JANKEN, TRASH):
            _check_turns(blocks, ph, mover, first, bool(sub_used), err)
        pa = pt = -1
        pend = d["pending"]
        if ph == SUB:
            if not isinstance(pend, Mapping) or set(pend) != {"attacker", "target"}:
                raise err("phase substitute needs pending = {'attacker', 'target'}")
            att, tgt = pend["attacker"], pend["target"]
            pa = self.slot[mover].get(att, -1) if isinstance(att, str) else -1
            pt = self.slot[o].get(tgt, -1) if isinstance(tgt, str) else -1
            if pa < 0 or not me[A] >> pa & 1:
                raise err(f"pending.attacker {_short(att)} is not a monster of player {mover} "
                          "that has attacked")
            if pt < 0 or not you[B] >> pt & 1 or _POP[you[B]] < 2:
                raise err(f"pending.target {_short(tgt)} is not one of several monsters of player {o}")
            if sub_used or not you[U] or self.fight[mover][pa][pt][2]:
                raise err("phase substitute, but みがわり is not allowed here (MZ-19, MZ-21)")
        elif pend is not None:
            raise err("pending must be null outside the substitute phase")
        key = (ph, mover, first, quiet, *flags, pa, pt, *blocks[0], *blocks[1])
        if ph in (SUMMON, BATTLE) and not _can_act(self, list(key)):
            raise err(f"phase {PHASES[ph]}: player {mover} has nothing to do but 'end', so the turn "
                      "would have ended by itself (MZ-9)")
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
            raise err(f"players[{p}].mana {mana}: no turn number fits the mana counts; each turn charges one "
                      "card while the hand has one and turns alternate from the first player (MZ-6, MZ-9)")
    for p in (0, 1):
        o = 1 - p
        subs = _POP[blocks[p][O]] - blocks[o][C]
        # the opponent's turns that can have had a みがわり: t + spare
        spare = int(o == first and mover == first) - int(o == first) - int(mover == o and not sub_used)
        if subs > 0 and (subs > hi + spare or not blocks[p][M]):
            raise err(f"players[{p}].out: {subs} cards out of play that player {o} did not capture are "
                      f"substitutes knocked out (MZ-20), at most one per turn of player {o} after player "
                      f"{p}'s first charge (MZ-19), but the mana counts allow at most {max(hi + spare, 0)} "
                      "such turns (MZ-6, MZ-9)")


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
        verb, _, arg = action.partition(" ")
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
            a, _, t = arg.partition(" ")
            x, y = g.slot[p][a], g.slot[o][t]
            _, cost, attr_wins = g.fight[p][x][y]
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
            a, _, b = arg.partition("+")
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
        verb, _, arg = action.partition(" ")
        p = k[MV]
        o = 1 - p
        if verb == "attack" and k[PH] in (SUMMON, BATTLE):
            a, _, t = arg.partition(" ")
            x, y, sub = g.slot[p][a], g.slot[o][t], False
        elif verb in ("substitute", "decline") and k[PH] == SUB:
            x = k[PA]
            y, sub = (g.slot[o][arg], True) if verb == "substitute" else (k[PT], False)
        else:
            raise ValueError(f"mazemon: {action!r} starts no battle in this position "
                             f"(phase {PHASES[k[PH]]}); battles come from 'attack X Y', "
                             "'substitute Z' and 'decline'")
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
        verb, _, arg = action.partition(" ")
        p = k[MV]
        o = 1 - p
        if verb in ("attack", "substitute", "decline"):
            r = self.battle_report(action)
            lead = {
                "attack": f"Player {p}'s {r['attacker']} attacks {r['defender']} for "
                          f"{r['attack_cost']} mana (MZ-8{', MZ-Q4' if r['attack_cost'] == 2 else ''})",
                "substitute": f"Player {o} taps 1 mana: {r['defender']} takes the attack instead "
                              "(みがわり, MZ-19, MZ-Q5)",
                "decline": f"Player {o} uses no substitute",
            }[verb]
            knocked = "; ".join(f"{x['card']}{' was already wounded and' if x['rule'] == 'MZ-17' else ''}"
                                f" is knocked out → {x['to']} ({x['rule']})" for x in r["knocked_out"])
            extra = ""
            if verb == "attack":
                extra = (" Player %d may answer with みがわり (MZ-19)." % o if r["substitute_possible"]
                         else " No みがわり: it wins on attribute (MZ-21)." if not r["substitute_allowed"]
                         else "")
            fought = battle(g.card(p, r["attacker_card"]), g.card(o, r["defender_card"]))
            return f"{lead}. {fought.text()}{'. ' + knocked if knocked else ''}.{extra}"
        if verb == "charge":
            return f"Player {p} charges {g.card(p, arg).name} face down into mana (チャージ, MZ-6); it can never fight."
        if verb == "summon":
            i = g.slot[p][arg]
            zone = [g.decks[p][j] for j in _BITS[k[BASE + BLOCK * p + B]]]
            card = g.decks[p][i]
            pay = g.cost[p][i][k[BASE + BLOCK * p + B]]
            shared = shared_materials(card, zone, g.options["material_count"])
            note = f"cost {card.cost} − {shared} shared materials (そざい)" if shared else f"cost {card.cost}"
            note += ", but at least 1" if card.cost - shared < 1 else ""
            return (f"Player {p} summons {card.name} ({card.japanese}) to the battle zone, paying {pay} mana "
                    f"({note}; しゅつげん, MZ-7, MZ-18).")
        if verb == "direct":
            return (f"Player {p}'s {g.card(p, arg).name} attacks directly for 1 mana: player {o}'s battle zone "
                    f"is empty, one card of their hand is taken at random (ちょくせつこうげき, MZ-22, MZ-Q2).")
        if verb == "steal":
            return f"The card taken from player {o}'s hand is {g.card(o, arg).name}: player {p} captures it (MZ-22, MZ-23)."
        if verb == "end":
            return f"Player {p} ends the turn (MZ-9); two turns in a row without charge, summon or attack end the game (MZ-Q6)."
        if verb == "janken":
            return f"Player {arg} wins the janken (じゃんけん) and goes first (MZ-2)."
        if verb == "trash":
            a, b = (g.card(p, c) for c in arg.split("+"))
            return (f"Player {p} sets aside two cards unseen (トラッシュ): {a.name} ({a.japanese}) and "
                    f"{b.name} ({b.japanese}); neither player may look at them (MZ-3, MZ-Q8).")
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
        if ph == END:
            w = self.winner()
            head = "game over (おわり): " + ("draw" if w is None else f"player {w} wins")
        elif ph == JANKEN:
            head = "janken (じゃんけん) to decide the first player"
        else:
            who = self.current_player
            head = (f"player {k[MV]}'s turn, {PHASES[ph]} ({PHASE_JA[ph]})"
                    + (f", player {who} decides" if who >= 0 and who != k[MV] else ""))
        lines = [f"Mazemon (マゼモン) · {head}"]
        if ph == SUB:
            lines.append(f"  pending attack: {g.ids[k[MV]][k[PA]]} → {g.ids[1 - k[MV]][k[PT]]}")
        for p in (1, 0):
            blk = self._blk(p)
            zone = []
            for i in _BITS[blk[B]]:
                c = g.decks[p][i]
                marks = (" キズ" if blk[W] >> i & 1 else "") + (" attacked こうげきずみ" if blk[A] >> i & 1 else "")
                zone.append(f"{c.name} {c.japanese} [{ATTR_JA[c.attribute]} わざ{c.power} HP{c.hp}{marks}]")
            first = " (せんて first)" if k[FI] == p else ""
            lines.append(f"  player {p}{first}: captured (とったカード) {blk[C]} | mana (マナ) {blk[M]}, "
                         f"{blk[U]} untapped | hand (てふだ) {', '.join(self.hand(p)) or '—'}")
            lines.append(f"    battle zone (バトルゾーン): {' · '.join(zone) or '—'}")
        return "\n".join(lines)
