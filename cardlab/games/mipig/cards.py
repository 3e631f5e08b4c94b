"""mipig's card data (MP-1, MP-2, MP-Q1): the :class:`Card` and the
:class:`CardSet`, and :func:`load_cards`, the card-file loader, on one
declarative field list (:data:`SCHEMA`, :mod:`cardlab.cardfile`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...cardfile import Field, Schema, read_data_file, short
from ...errors import CardFileError, OptionError
from ...i18n import N_, _, get_language, pgettext
from .rules import ATTRIBUTES, EDGES, MARKS

__all__ = ["Card", "CardSet", "load_cards", "ready_hands", "SCHEMA", "ATTRIBUTE_JA", "MARK_JA"]

#: MP-2: the attributes' Japanese names (a card file may use either)
ATTRIBUTE_JA = {"love": "愛", "wisdom": "智", "healing": "癒", "play": "遊", "guidance": "導"}
#: MP-1: the janken marks' Japanese names (a card file may use either)
MARK_JA = {"rock": "グー", "scissors": "チョキ", "paper": "パー"}


#: the terms as a person reads them: English with the Japanese beside it; in Japanese only the Japanese
ATTRIBUTE_TERM = {"love": N_("love 愛"), "wisdom": N_("wisdom 智"), "healing": N_("healing 癒"),
                  "play": N_("play 遊"), "guidance": N_("guidance 導")}
MARK_TERM = {"rock": N_("rock グー"), "scissors": N_("scissors チョキ"), "paper": N_("paper パー")}


@dataclass(frozen=True)
class Card:
    """One mipig card: four edge numbers, an attribute 属性 and a janken mark (MP-1)."""

    id: str
    name: str
    japanese: str
    top: int
    bottom: int
    left: int
    right: int
    attribute: str
    janken: str

    @property
    def edges(self) -> tuple[int, int, int, int]:
        return (self.top, self.bottom, self.left, self.right)

    def __str__(self) -> str:
        return card_text(self)


@dataclass(frozen=True)
class CardSet:
    """A checked card file: its cards (in file order) and its ready hands."""

    name: str
    cards: tuple[Card, ...]
    hands: Mapping[str, tuple[str, ...]]
    where: str

    def index(self, card_id: str) -> int:
        for i, c in enumerate(self.cards):
            if c.id == card_id:
                return i
        raise KeyError(card_id)


#: MP-1, MP-2: the fields of a card, what each accepts (Japanese words for attributes and marks too)
SCHEMA = Schema((
    Field("id", "id"),
    Field("name", "text"),
    Field("japanese", "str", required=False, default=""),
    *(Field(e, "int", lo=0, hi=99) for e in EDGES),
    Field("attribute", "choice", choices={**{a: a for a in ATTRIBUTES}, **{j: a for a, j in ATTRIBUTE_JA.items()}},
          accepts=", ".join(f"{a} ({j})" for a, j in ATTRIBUTE_JA.items()) + " (MP-2)"),
    Field("janken", "choice", choices={**{m: m for m in MARKS}, **{j: m for m, j in MARK_JA.items()}},
          accepts=", ".join(f"{m} ({j})" for m, j in MARK_JA.items())),
))


def load_cards(source: str | Path | Mapping[str, Any] | None = None) -> CardSet:
    """Read and check a mipig card file (JSON).

    ``source`` is a path, an already parsed dict, or ``None`` for cardlab's own
    card set ``cardlab/data/mipig.json`` (MP-Q1).  The file holds ``cards``, a
    list of objects with the fields ``id`` (letters, digits, ``_.-``),
    ``name``, ``japanese`` (optional), ``top``, ``bottom``, ``left``,
    ``right`` (whole numbers 0-99), ``attribute`` (one of love 愛, wisdom 智,
    healing 癒, play 遊, guidance 導) and ``janken`` (rock, scissors, paper,
    or グー, チョキ, パー); and optionally ``hands``, named ready hands (lists of
    card ids).  A malformed file raises :class:`~cardlab.CardFileError`
    naming the file, the card and the field (:data:`SCHEMA`).

    >>> cs = load_cards()
    >>> len(cs.cards) >= 30, sorted(cs.hands)[:2]
    (True, ['duo_a', 'duo_b'])
    """
    where, data = read_data_file(source, "mipig.json")
    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'cards' (and optionally "
                              "'hands')").format(where=where))
    unknown = set(data) - {"name", "note", "cards", "hands"}
    if unknown:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; accepted: name, note, cards, "
                              "hands").format(where=where, fields=sorted(unknown)))
    cards = tuple(Card(**c) for c in SCHEMA.cards(where, data.get("cards")))
    for fld in ("name", "note"):
        if not isinstance(data.get(fld, ""), str):
            raise CardFileError(_("{where}: field {field} must be a string, got {value}").format(
                where=where, field=repr(fld), value=short(data[fld])))
    return CardSet(str(data.get("name", where)), cards, _hands(where, data.get("hands", {}), {c.id for c in cards}),
                   where)


def _hands(where: str, hands_raw: Any, ids: set[str]) -> dict[str, tuple[str, ...]]:
    """The ready hands of a card file, checked: names -> card ids of the file."""
    if not isinstance(hands_raw, dict):
        raise CardFileError(_("{where}: 'hands' must map hand names to lists of card ids").format(where=where))
    hands: dict[str, tuple[str, ...]] = {}
    for hname, hand in hands_raw.items():
        if not isinstance(hand, list) or not hand:
            raise CardFileError(_("{where}: hand {hand}: must be a non-empty list of card ids").format(
                where=where, hand=repr(hname)))
        for cid in hand:
            if not isinstance(cid, str) or cid not in ids:
                raise CardFileError(_("{where}: hand {hand}: card {card} is not in the card list").format(
                    where=where, hand=repr(hname), card=short(cid)))
        hands[hname] = tuple(hand)
    return hands


def ready_hands(cs: CardSet, hands: Any, n: int, shared: bool) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The option ``hands`` checked against the card set ``cs`` (MP-3): the two ready hands as
    sorted card indices, or None (a random deal, then the card set must hold enough cards)."""
    index = {c.id: i for i, c in enumerate(cs.cards)}
    if hands is not None:
        fixed = []
        for p, h in enumerate(hands):
            if isinstance(h, str):
                if h not in cs.hands:
                    raise OptionError(_("mipig: option hands[{player}]={hand} is not a ready hand of "
                                        "{where}; the ready hands are {hands}").format(
                        player=p, hand=repr(h), where=cs.where,
                        hands=", ".join(sorted(cs.hands)) or pgettext("mipig list", "none")))
                ids = cs.hands[h]
            else:
                ids = tuple(h)
            for cid in ids:
                if cid not in index:
                    raise OptionError(_("mipig: option hands[{player}]: card {card} is not in {where}").format(
                        player=p, card=repr(cid), where=cs.where))
            if len(ids) != n:
                raise OptionError(_("mipig: option hands[{player}] has {count} cards but hand_size is {n}; "
                                    "both hands must hold hand_size cards (MP-3)").format(
                    player=p, count=len(ids), n=n))
            fixed.append(tuple(sorted(index[c] for c in ids)))
        return fixed[0], fixed[1]
    if not shared and n > len(cs.cards):
        raise OptionError(_("mipig: hand_size={n} but the card set {where} has only {count} "
                            "cards; with deal='own' each hand comes from its player's own copy of the "
                            "card set: choose hand_size ≤ {count}").format(n=n, where=cs.where,
                                                                            count=len(cs.cards)))
    if shared and 2 * n > len(cs.cards):
        raise OptionError(_("mipig: hand_size={n} with deal='shared' deals {dealt} cards from one card "
                            "set of {count} ({where}): choose hand_size ≤ {half}, or deal='own' (each "
                            "player their own copy)").format(n=n, dealt=2 * n, count=len(cs.cards),
                                                             where=cs.where, half=len(cs.cards) // 2))
    return None


def card_name(card: "Card") -> str:
    """The card's name in the language of the moment (its Japanese name in Japanese, when it has one)."""
    return card.japanese if card.japanese and get_language() == "ja" else card.name


def card_text(card: Card) -> str:
    """A card as one line of text (``str(card)``)."""
    name = card_name(card) if get_language() == "ja" else f"{card.name} ({card.japanese})"
    return _("{id} {name} ↑{top} ↓{bottom} ←{left} →{right} {attribute} · {janken}").format(
        id=card.id, name=name, top=card.top, bottom=card.bottom, left=card.left, right=card.right,
        attribute=_(ATTRIBUTE_TERM[card.attribute]), janken=_(MARK_TERM[card.janken]))
