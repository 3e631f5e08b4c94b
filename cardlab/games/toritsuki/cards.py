"""Toritsuki's card data (TK-Q1, TK-Q2, TK-23, TK-24): the card classes, and
the card file read and checked with one declarative field list
(:class:`cardlab.cardfile.Schema`): every refusal names the file, the card,
the field and what is accepted.

>>> cs = load_cards()
>>> len(cs.tribes), sum(c.is_yokai for c in cs.cards.values()) >= 40
(8, True)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ...cardfile import Field, Schema, card_error, read_data_file, short
from ...errors import CardFileError
from ...i18n import N_, _, get_language, ngettext, pgettext
from . import rules
from .rules import CATEGORIES, EVENT_KINDS, ICONS, RANKS

__all__ = ["Card", "Method", "CardSet", "load_cards", "check_deck", "category_text", "icon_text",
           "CATEGORY_JA", "ICON_JA", "EFFECT_TEXT", "NAMED_CARDS"]

CATEGORY_JA = {"strike": "戦", "skill": "技", "spell": "術"}
ICON_JA = {"pierce": "貫通", "guard": "守り"}
NAMED_CARDS = {"icons": "toritsuki_icons.json"}  # cards="icons": the optional icon file (TK-Q7)
#: what an event does (TK-Q2), for ``Card.effect_text`` (draw and banish are worded there)
EFFECT_TEXT = {
    "ready_yoki": N_("up to {n} resting yoki (妖気) become ready again"),
    "bp_up": N_("+{n} BP to one of your yokai until the end of the turn"),
    "heal": N_("heal {n} damage: damage cards (face-down ones first) go to the trash"),
    "charge": N_("charge {n}: the deck top goes face down, ready, into the yoki zone (妖気おきば)"),
    "rest": N_("a ready yokai of the opponent's back row rests (休憩), so it cannot block this turn"),
    "win_if_field": N_("win at once with {n} or more of your yokai on the field (TK-8)"),
}


def category_text(category: str) -> str:
    """A battle method's category (TK-23): ``strike 戦``; in Japanese only ``戦``."""
    return CATEGORY_JA[category] if get_language() == "ja" else f"{category} {CATEGORY_JA[category]}"


def icon_text(icon: str) -> str:
    """An icon's short name (TK-Q7): ``pierce 貫通``; in Japanese only ``貫通``."""
    return ICON_JA[icon] if get_language() == "ja" else f"{icon} {ICON_JA[icon]}"


@dataclass(frozen=True)
class Method:
    """A battle method (バトル方法): BP, cost in yoki, category 戦/技/術, icon."""

    name: str
    japanese: str
    bp: int
    cost: int
    category: str
    icon: str | None = None


@dataclass(frozen=True)
class Card:
    """A yokai (妖怪) or event (イベント) card."""

    no: int
    name: str
    japanese: str
    kind: str  # "yokai" or "event"
    tribe: str = ""
    rank: int = 0
    cost: int = 0
    methods: tuple[Method, ...] = ()
    #: possession (とりつく): target "own"/"opponent", condition, BP change, icon granted
    target: str = "own"
    cond_tribe: str | None = None
    cond_rank_max: int | None = None
    cond_category: str | None = None
    poss_bp: int = 0
    poss_icon: str | None = None
    effect: tuple = ()  # events: (kind, value)

    @property
    def is_yokai(self) -> bool:
        return self.kind == "yokai"

    def label(self) -> str:
        if get_language() == "ja":  # the name printed on the card
            return f"{self.japanese} #{self.no}"
        return f"{self.name} ({self.japanese}) #{self.no}"

    def shown_name(self) -> str:
        """The card's name as a reader of the current language finds it printed."""
        return self.japanese if get_language() == "ja" else self.name

    def effect_text(self) -> str:
        """What an event does, in words (TK-Q2)."""
        kind, v = self.effect
        if kind == "banish":
            return _("an opposing yokai of rank {rank} or lower goes to the trash").format(rank=RANKS[v])
        if kind == "draw":
            return ngettext("draw {n} card (ドロー)", "draw {n} cards (ドロー)", v).format(n=v)
        return _(EFFECT_TEXT[kind]).format(n=v)

    def condition_text(self, tribe_ja: Mapping[str, str] | None = None) -> str:
        """The possession condition (TK-19) in words; ``tribe_ja`` (the card
        file's Japanese tribe names) names the tribe in Japanese."""
        ja = get_language() == "ja"
        parts = []
        if self.cond_tribe:
            tribe = (tribe_ja or {}).get(self.cond_tribe) if ja else None
            parts.append(tribe or _("tribe {tribe}").format(tribe=self.cond_tribe))
        if self.cond_rank_max is not None:
            parts.append(_("rank ≤ {rank}").format(rank=RANKS[self.cond_rank_max]))
        if self.cond_category:
            parts.append(_("method {category}").format(category=category_text(self.cond_category)))
        if not parts:
            return _("any yokai")
        out = parts[0]
        for part in parts[1:]:
            out = _("{conditions} and {condition}").format(conditions=out, condition=part)
        return out


@dataclass(frozen=True)
class CardSet:
    """A checked card file: the cards by number, the tribes, the ready decks."""

    where: str
    cards: Mapping[int, Card]
    tribes: tuple[str, ...]
    tribe_ja: Mapping[str, str]
    decks: Mapping[str, tuple[int, ...]]


def _int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


class _Label(str):
    """A card's name in messages, printed as it is (``1 'Hibana-kozo'``)."""

    def __repr__(self) -> str:
        return str(self)


# -- the schema: one declarative field list per kind of card --------------------------
RANK_WORDS = {r: i for i, r in enumerate(RANKS)}


def _one_of(values: tuple, why: str) -> Any:
    """A check: the value is null or one of ``values`` (``why`` worded with them)."""
    return lambda v: "" if v is None or v in values else _(why).format(values=list(values[1:]), got=short(v))


def _methods_check(ms: Any) -> str:
    if isinstance(ms, list) and 2 <= len(ms) <= 4:
        return ""
    got = len(ms) if isinstance(ms, list) else repr(ms)
    return _("a yokai has several battle methods (複数のバトル方法, TK-23): a list of 2 to 4 is needed, "
             "got {got}").format(got=got)


def _effect_check(eff: Any) -> str:
    """TK-Q2: an event's effect, ``{"kind": ..., "n": ...}`` or ``"rank_max"``."""
    if not isinstance(eff, dict) or eff.get("kind") not in EVENT_KINDS:
        return _("must be an object with 'kind' one of {kinds}").format(kinds=sorted(EVENT_KINDS))
    need = EVENT_KINDS[eff["kind"]]
    if set(eff) - {"kind", *need}:
        return _("kind {kind} takes only {parameters}").format(kind=repr(eff["kind"]),
                                                               parameters=list(need) or _("no parameters"))
    if need == ("n",):
        top = 999 if eff["kind"] == "bp_up" else 9
        if not _int(eff.get("n"), 1, top):
            return _("'n' must be a whole number 1-{top}, got {got}").format(top=top, got=repr(eff.get("n")))
    elif need == ("rank_max",) and eff.get("rank_max") not in tuple(RANKS):
        return _("'rank_max' must be one of {ranks}, got {got}").format(ranks=list(RANKS),
                                                                          got=repr(eff.get("rank_max")))
    return ""


def _condition_check(tribes: tuple[str, ...]) -> Any:
    def check(cond: Any) -> str:  # TK-19, TK-Q1: tribe, rank at most, method category
        if not isinstance(cond, dict) or set(cond) - {"tribe", "rank_max", "category"}:
            return _("an object with some of tribe, rank_max, category is needed")
        for key, values in (("tribe", tribes), ("rank_max", tuple(RANKS)), ("category", CATEGORIES)):
            if key in cond and cond[key] not in values:
                return _(_CONDITION_WORDS[key]).format(values=list(values), got=repr(cond[key]))
        return ""
    return check


_CONDITION_WORDS = {"tribe": N_("tribe must be one of {values}, got {got}"),
                    "rank_max": N_("rank_max must be one of {values}, got {got}"),
                    "category": N_("category must be one of {values}, got {got}")}


def _head_fields(kind: str) -> tuple[Field, ...]:
    return (Field("no", "int", lo=1, hi=9999), Field("name"), Field("japanese"),
            Field("type", "choice", choices={kind: kind}, accepts="'yokai', 'event'"))


EVENT_SCHEMA = Schema(_head_fields("event") + (Field("effect", "any", check=_effect_check),), key="no")


@lru_cache(maxsize=32)
def yokai_schema(tribes: tuple[str, ...]) -> Schema:
    """TK-23: a yokai card's fields, the tribes those of the file."""
    return Schema(_head_fields("yokai") + (
        Field("tribe", "choice", choices={t: t for t in tribes}), Field("rank", "choice", choices=RANK_WORDS),
        Field("cost", "int", lo=0, hi=9), Field("methods", "any", check=_methods_check),
        Field("possess", "any", check=lambda p: "" if isinstance(p, dict) else _(
            "an object with target, condition, bp (and optional icon) is needed"))), key="no")


@lru_cache(maxsize=8)
def method_schema(j: int) -> Schema:
    """TK-23: battle method ``j`` of a yokai: BP, cost, category, icon (TK-Q7)."""
    f = f"methods[{j}]."
    return Schema((Field(f + "name", "str"), Field(f + "japanese", "str", required=False, default=""),
                   Field(f + "bp", "int", lo=0, hi=999), Field(f + "cost", "int", lo=0, hi=9),
                   Field(f + "category", "choice", choices={c: c for c in CATEGORIES}),
                   Field(f + "icon", "any", required=False, check=_one_of(
                       (None,) + ICONS, N_("must be null or one of {values}, got {got}")))))


@lru_cache(maxsize=32)
def possess_schema(tribes: tuple[str, ...]) -> Schema:
    """TK-19, TK-20: a yokai's possession: target, condition, BP change, icon."""
    return Schema((Field("possess.target", "choice", choices={"own": "own", "opponent": "opponent"}),
                   Field("possess.condition", "any", check=_condition_check(tribes)),
                   Field("possess.bp", "int", lo=-999, hi=999),
                   Field("possess.icon", "any", required=False, check=_one_of(
                       (None,) + ICONS, N_("must be null or one of {values}, got {got}")))))


def _sub(where: str, schema: Schema, prefix: str, raw: Any, label: str) -> dict[str, Any]:
    """A nested object of a card (a method, the possession) checked by its schema."""
    if not isinstance(raw, dict):
        raise card_error(where, label, prefix.rstrip("."), _(
            "an object with name, japanese, bp, cost, category, icon is needed"))
    return schema.card(where, {prefix + k if isinstance(k, str) else k: v for k, v in raw.items()}, label)


def _yokai(where: str, c: dict, label: str, tribes: tuple[str, ...]) -> Card:
    """TK-23: a yokai card, checked."""
    v = yokai_schema(tribes).card(where, c, label)
    methods = []
    for j, m in enumerate(v["methods"]):
        mv = _sub(where, method_schema(j), f"methods[{j}].", m, label)
        f = f"methods[{j}]."
        methods.append(Method(mv[f + "name"], mv[f + "japanese"], mv[f + "bp"], mv[f + "cost"],
                              mv[f + "category"], mv[f + "icon"]))
    p = _sub(where, possess_schema(tribes), "possess.", v["possess"], label)
    cond = p["possess.condition"]
    return Card(v["no"], v["name"], v["japanese"], "yokai", tribe=v["tribe"], rank=v["rank"], cost=v["cost"],
                methods=tuple(methods), target=p["possess.target"], cond_tribe=cond.get("tribe"),
                cond_rank_max=RANKS.index(cond["rank_max"]) if "rank_max" in cond else None,
                cond_category=cond.get("category"), poss_bp=p["possess.bp"], poss_icon=p["possess.icon"])


def _event(where: str, c: dict, label: str) -> Card:
    """TK-24, TK-Q2: an event card, checked."""
    v = EVENT_SCHEMA.card(where, c, label)
    eff = v["effect"]
    value = RANKS.index(eff["rank_max"]) if "rank_max" in eff else eff.get("n", 0)
    return Card(v["no"], v["name"], v["japanese"], "event", effect=(eff["kind"], value))


def _label(i: int, c: Any) -> str:
    """How messages name card ``i``: ``1 'Hibana-kozo'`` (the printed name in Japanese), else ``#i``."""
    if not isinstance(c, dict) or not _int(c.get("no"), 1, 9999):
        return _Label(f"#{i}")
    shown = c.get("name", "")
    if get_language() == "ja" and isinstance(c.get("japanese"), str) and c["japanese"]:
        shown = c["japanese"]  # the name printed on the card
    return _Label(f"{c['no']} {shown!r}")


def _tribes(where: str, data: dict) -> tuple[tuple[str, ...], dict[str, str]]:
    tribes = data.get("tribes")
    if not isinstance(tribes, list) or not tribes or not all(
            isinstance(t, dict) and isinstance(t.get("id"), str) and isinstance(t.get("name", ""), str)
            and isinstance(t.get("japanese", ""), str) and not set(t) - {"id", "name", "japanese"} for t in tribes):
        raise CardFileError(_("{where}: 'tribes' must be a list of objects with an 'id' and 'name' and "
                              "'japanese' strings").format(where=where))
    return tuple(t["id"] for t in tribes), {t["id"]: t.get("japanese", "") for t in tribes}


def load_cards(source: str | Path | Mapping[str, Any] | None = None) -> CardSet:
    """Read and check a Toritsuki card file (JSON): ``tribes``, ``cards``, ``decks``.

    ``source`` is a path, a parsed dict, ``None`` for cardlab's own set
    (TK-Q1) or ``"icons"`` for the same set with battle-method icons, the
    exceptions to TK-21 (TK-Q7).  Errors are :class:`~cardlab.CardFileError`
    naming the file, the card and the field.
    """
    where, data = read_data_file(source, "toritsuki.json", NAMED_CARDS)
    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'tribes', 'cards', 'decks'").format(
            where=where))
    extra = set(data) - {"name", "tribes", "cards", "decks"}
    if extra:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; accepted: name, tribes, cards, decks").format(
            where=where, fields=sorted(extra)))
    if not isinstance(data.get("name", ""), str):
        raise CardFileError(_("{where}: field 'name' must be a string").format(where=where))
    tribe_ids, tribe_ja = _tribes(where, data)
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise CardFileError(pgettext("toritsuki", "{where}: 'cards' must be a non-empty list of card objects").format(
            where=where))
    cards: dict[int, Card] = {}
    for i, c in enumerate(raw):
        label = _label(i, c)
        if not isinstance(c, dict):
            raise card_error(where, label, "-", pgettext("toritsuki", "each card must be a JSON object"))
        if c.get("no") in cards:
            raise card_error(where, label, "no", _("card number used twice"))
        card = _event(where, c, label) if c.get("type") == "event" else _yokai(where, c, label, tribe_ids)
        cards[card.no] = card
    decks_raw = data.get("decks", {})
    if not isinstance(decks_raw, dict):
        raise CardFileError(_("{where}: 'decks' must map deck names to lists of card numbers").format(where=where))
    decks = {name: check_deck(lst, cards, _("{where}: deck {name}").format(where=where, name=repr(name[:40])))
             for name, lst in decks_raw.items()}
    return CardSet(where, cards, tribe_ids, tribe_ja, decks)


def check_deck(lst: Any, cards: Mapping[int, Card], where: str) -> tuple[int, ...]:
    """TK-1: a deck is a list of 30 or more card numbers, at most 3 of each.

    Linear in the deck's length.  Errors (:class:`~cardlab.CardFileError`)
    name the card and the rule.
    """
    if not isinstance(lst, (list, tuple)) or not all(_int(x, 1, 9999) for x in lst):
        raise CardFileError(_("{where}: a deck must be a list of card numbers 1-9999").format(where=where))
    for no, n in Counter(lst).items():
        if no not in cards:
            raise CardFileError(_("{where}: card {no} is not in the card file").format(where=where, no=no))
        if n > rules.COPIES_MAX:
            raise CardFileError(_("{where}: card {no} {name} appears {n} times; TK-1 allows at most 3 copies of one "
                                  "card number").format(where=where, no=no, name=repr(cards[no].shown_name()), n=n))
    if len(lst) < rules.DECK_MIN:
        raise CardFileError(_("{where}: the deck has {n} cards; TK-1 needs at least 30").format(
            where=where, n=len(lst)))
    return tuple(sorted(lst))


def decks_ok(value: Any) -> bool:
    """The ``decks`` option's shape (a file is read and checked when the game is set up)."""
    if value is None or isinstance(value, (str, Path)):
        return True
    return (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(d, str) or isinstance(d, (list, tuple)) for d in value))


def cards_ok(value: Any) -> bool:
    """The ``cards`` option: ``None`` or a card file that loads (else its CardFileError)."""
    if value is None:
        return True
    load_cards(value)  # raises CardFileError naming file, card, field
    return True


def game_decks(cs: CardSet, decks: Any) -> list[tuple[int, ...]]:
    """The ``decks`` option (TK-1): None (ready decks A and B), a deck file, or
    two decks, each a deck name of the card set ``cs`` or a list of card numbers."""
    if decks is None:
        decks = ["A", "B"]
    elif isinstance(decks, (str, Path)):
        where, data = read_data_file(decks, "", what="deck file")
        if not isinstance(data, dict) or not isinstance(data.get("decks"), list) or len(data["decks"]) != 2:
            raise CardFileError(_("{where}: a deck file holds {example}").format(
                where=where, example="{'decks': [deck0, deck1]}"))
        decks = data["decks"]
    lists = []
    for p, d in enumerate(decks):
        if not isinstance(d, (str, list, tuple)):
            raise CardFileError(_("deck of player {player}: a deck name or a list of card numbers is needed, "
                                  "not {type}").format(player=p, type=type(d).__name__))
        if isinstance(d, str):
            if d not in cs.decks:
                raise CardFileError(_("{where}: no deck named {name} for player {player}; the decks are {decks}").format(
                    where=cs.where, name=short(d), player=p, decks=sorted(cs.decks)))
            lists.append(cs.decks[d])
        else:
            lists.append(check_deck(list(d), cs.cards, _("deck of player {player}").format(player=p)))
    return lists
