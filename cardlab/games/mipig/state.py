"""mipig trading cards (mipigトレーディングカード): lay pigs face down, then battle edge to edge.

Rules: ``docs/rules/mipig.md`` (MP-1 … MP-25, MP-Q1 … MP-Q6), from the seed
text ``000_3f4121ab15de4f29.txt``.  Rule ids in comments, in
:meth:`MipigState.explain` and in :class:`Battle` point there.

The game in one breath: each player holds ``hand_size`` cards (5枚勝負 and
10枚勝負, MP-3; 1-4 for teaching), dealt at random from the player's own copy
of the card set (the seed: お互いに同じ枚数のカードを手札として用意します, each
player prepares their own hand; so both players may hold the same card, never
twice in one hand); ``deal="shared"`` deals both hands from one set instead
(two players sharing one physical set of 30 cards).  A janken of cards
decides who goes first (MP-4).  Players alternate laying cards face down on
an unbounded grid, each touching an earlier card along a full edge
(placement 配置フェーズ, MP-5 … MP-9).  Then they alternate attacks (battle
バトルフェーズ, MP-10 … MP-18): a face-down card of yours against a touching
card of the opponent; both are turned up, attribute bonuses (属性ボーナス,
MP-19 … MP-22) are added to the two touching edge numbers, the larger wins,
a tie goes to the janken marks.  More face-up cards at the end wins (MP-23 …
MP-25).

Representation.  The key tuple is ``(phase, mover, first, how, hand0, hand1,
field, grave0, grave1, round, pending, shown0, shown1, outcome)``.  Hands
and graveyards are sorted tuples of card indices (multisets).  The field is a
sorted tuple of packed ints ``(x*32 + y) << 12 | card << 2 | owner << 1 |
face_up``, with coordinates translated so the smallest x and y are 0 (MP-Q4):
layouts that differ only by a shift are one position and hash equally.

Square names (MP-Q4).  The key's coordinates are for search only.  A square
keeps one name for the whole game: the first card laid is at ``0,0``, x grows
to the right and y downwards, and a card laid left of or above the field gets
a negative name (``place p07 -1,0``).  Each state carries, outside its key,
its *origin*: the name of the key's square ``(0, 0)`` (the smallest x and y
on the field by name; ``(0, 0)`` on an empty field).  The actions, their
parsing, :meth:`MipigState.explain`, the observations and information sets,
:meth:`MipigState.to_dict` and the renderers all use the names; only the key
is translated.  The origin changes when a card is laid left of or above the
field, or when the card(s) of the leftmost column or top row leave it.

Simultaneous choices (MP-4, MP-Q2, MP-Q3, MP-25) are written in two levels
(:meth:`cardlab.State.simultaneous`): player 0 picks, then player 1, whose
observation and information set show only *that* player 0 has picked, with
open hands too (open hands show cards, never a choice not yet made).  The
solvers take each janken as the matrix game it is; a tie is picked again
until it breaks (MP-Q2, MP-Q3): the tied janken comes back to the very
same position, and its value is a fixed point (:mod:`cardlab.matrix`).
A tie on a mark that no card of either player beats cannot break
(:func:`tie_can_break`; MP-Q2, MP-Q3): a coin for the first player, a draw
at the end, as when every card shows one mark.  ``janken_rounds=N`` caps
the tied rounds (then a coin, or a draw at the end).

Fair play (MP-Q6): :meth:`MipigState.public_action` is what a player may know
of a move (the square of a face-down card but not the card, ``place ?? 1,0``;
player 0's janken pick only once player 1 has picked too), and
:meth:`MipigState.hidden` every card a player cannot see, for
:func:`cardlab.hidden.arrangements` and the fair hint.

Notation (player actions, then chance outcomes)::

    show p07            first-player janken: show card p07 from your hand (MP-4)
    place p07 -1,0      lay p07 face down on square -1,0: left of the first card (MP-5 … MP-7)
    attack 0,0 1,0      your face-down card at (0,0) attacks the card at (1,0) (MP-11)
    pass                no attack possible (MP-18)
    pick rock           end-of-game janken: one of your counted cards with that mark (MP-25)
    deal p07            chance: the next card dealt (player 0's hand first, MP-3)
    coin 1              chance: a fair coin makes player 1 first (MP-Q2)

Coordinates: x grows to the right, y grows downwards; a card's ``top`` edge
faces y-1, ``right`` faces x+1 (MP-Q5).  The first card laid is on ``0,0``
and every square keeps its name to the end of the game (MP-Q4).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field as dc_field
from fractions import Fraction
from functools import lru_cache
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
from ...errors import CardFileError, IllegalActionError, OptionError, PositionError
from ...i18n import N_, _, get_language, pgettext
from ...matrix import capped_value, matrix_solution, repeated_value

__all__ = ["Mipig", "MipigState", "Card", "CardSet", "Battle", "Bonus", "load_cards",
           "attribute_bonus", "janken_beats", "tie_can_break", "janken_matrix", "janken_value", "matrix_game_value",
           "ATTRIBUTES", "MARKS"]

# -- constants ----------------------------------------------------------------
#: MP-2: exactly five attributes (属性)
ATTRIBUTES = ("love", "wisdom", "healing", "play", "guidance")
ATTRIBUTE_JA = {"love": "愛", "wisdom": "智", "healing": "癒", "play": "遊", "guidance": "導"}
#: MP-1: janken marks (じゃんけんマーク); index i beats index (i + 1) % 3
MARKS = ("rock", "scissors", "paper")
MARK_JA = {"rock": "グー", "scissors": "チョキ", "paper": "パー"}
EDGES = ("top", "bottom", "left", "right")
_EDGE_JA = {"top": "上", "bottom": "下", "left": "左", "right": "右"}
#: the terms as a person reads them: English with the Japanese beside it; in Japanese only the Japanese
ATTRIBUTE_TERM = {"love": N_("love 愛"), "wisdom": N_("wisdom 智"), "healing": N_("healing 癒"),
                  "play": N_("play 遊"), "guidance": N_("guidance 導")}
MARK_TERM = {"rock": N_("rock グー"), "scissors": N_("scissors チョキ"), "paper": N_("paper パー")}
EDGE_TERM = {"top": N_("top 上"), "bottom": N_("bottom 下"), "left": N_("left 左"), "right": N_("right 右")}

# phases
DEAL, JANKEN, COIN, PLACE, BATTLE, TIEBREAK, END = range(7)
PHASES = ("deal", "janken", "coin", "placement", "battle", "tiebreak", "end")
PHASE_JA = {"deal": "配札", "janken": "先攻決め (じゃんけん)", "coin": "コイン",
            "placement": "配置フェーズ", "battle": "バトルフェーズ", "tiebreak": "じゃんけん決着",
            "end": "ゲーム終了"}
PHASE_TERM = {"deal": N_("deal (配札)"), "janken": N_("janken (先攻決め (じゃんけん))"), "coin": N_("coin (コイン)"),
              "placement": N_("placement (配置フェーズ)"), "battle": N_("battle (バトルフェーズ)"),
              "tiebreak": N_("tiebreak (じゃんけん決着)"), "end": N_("end (ゲーム終了)")}
# how the first player was decided
HOWS = ("undecided", "option", "janken", "coin", "coin: janken tie cannot break",
        "coin: janken round limit")

_SHIFT = 12          # field cell: pos << 12 | card << 2 | owner << 1 | up
_UNKNOWN = 1023      # card code of a face-down card in another player's view
_CARD_MASK = 1023 << 2
_XSTEP = 32          # pos = x * 32 + y; spans stay below 20 (at most 20 cards, MP-Q4)
# attack direction (defender pos - attacker pos) -> (attacker edge, defender edge, name) (MP-Q5)
_WHERE = {"right": N_("to its right"), "left": N_("to its left"), "below": N_("below it"), "above": N_("above it")}
_DIRS = {_XSTEP: (3, 2, "right"), -_XSTEP: (2, 3, "left"), 1: (1, 0, "below"), -1: (0, 1, "above")}

_ID = r"[A-Za-z0-9_.\-]+"
ACTION_RE = re.compile(
    rf"(show|deal) {_ID}|place {_ID} -?\d+,-?\d+|attack -?\d+,-?\d+ -?\d+,-?\d+|pass"
    rf"|pick (rock|scissors|paper)|coin [01]")
_ID_RE = re.compile(_ID)


def mark_word(mark: str) -> str:
    """A janken mark alone, as a person reads it: ``rock`` (グー in Japanese)."""
    return {"rock": pgettext("janken mark", "rock"), "scissors": pgettext("janken mark", "scissors"),
            "paper": pgettext("janken mark", "paper")}.get(mark, mark)


def how_text(how: str) -> str:
    """How the first player was decided (:data:`HOWS`), as a person reads it."""
    return {"undecided": pgettext("mipig first player", "undecided"),
            "option": pgettext("mipig first player", "option"),
            "janken": pgettext("mipig first player", "janken"),
            "coin": pgettext("mipig first player", "coin"),
            "coin: janken tie cannot break": pgettext("mipig first player", "coin: janken tie cannot break"),
            "coin: janken round limit": pgettext("mipig first player", "coin: janken round limit")}.get(how, how)


def direction_text(direction: str) -> str:
    """An attack's direction (``right``, ``left``, ``below``, ``above``) as a person reads it."""
    return {"right": pgettext("mipig direction", "right"), "left": pgettext("mipig direction", "left"),
            "below": pgettext("mipig direction", "below"), "above": pgettext("mipig direction", "above")
            }.get(direction, direction)


def card_name(card: "Card") -> str:
    """The card's name in the language of the moment (its Japanese name in Japanese, when it has one)."""
    return card.japanese if card.japanese and get_language() == "ja" else card.name


def janken_beats(a: int, b: int) -> bool:
    """MP-14: mark ``a`` beats mark ``b`` (indices into :data:`MARKS`).

    >>> janken_beats(0, 1), janken_beats(1, 2), janken_beats(2, 0), janken_beats(0, 0)
    (True, True, True, False)
    """
    return (b - a) % 3 == 1


def tie_can_break(mark: int, marks: Iterable[int]) -> bool:
    """MP-Q2, MP-Q3 ("if no pick can break the tie"): whether a janken tied on
    ``mark`` can break, when the players' cards show ``marks``: some card
    must show the mark that beats it.  If none does, picking again could be
    lost (a pick of the mark the tied one beats) but never won against the
    tied mark, best play ties for ever, and the tie does not break: a coin
    for the first player (MP-Q2), a draw at the end (MP-Q3).

    >>> tie_can_break(0, [0, 1]), tie_can_break(0, [0, 2]), tie_can_break(1, [1])   # 0 rock, 1 scissors, 2 paper
    (False, True, False)
    """
    return any(janken_beats(m, mark) for m in marks)


def _locked(marks0: Iterable[int], marks1: Iterable[int]) -> bool:
    """Whether a tie that cannot break can come: a mark both can show that
    no card of either beats (MP-Q2, MP-Q3)."""
    every = set(marks0) | set(marks1)
    return any(not tie_can_break(k, every) for k in set(marks0) & set(marks1))


def attribute_bonus(count: int) -> int:
    """MP-20: the bonus on all four numbers of each of ``count`` own face-up
    cards of one attribute: ``count - 1`` from two cards on, 0 below.

    >>> [attribute_bonus(n) for n in range(1, 7)]
    [0, 1, 2, 3, 4, 5]
    """
    return count - 1 if count >= 2 else 0


# -- card data (MP-1, MP-2, MP-Q1) ---------------------------------------------
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
        name = card_name(self) if get_language() == "ja" else f"{self.name} ({self.japanese})"
        return _("{id} {name} ↑{top} ↓{bottom} ←{left} →{right} {attribute} · {janken}").format(
            id=self.id, name=name, top=self.top, bottom=self.bottom, left=self.left, right=self.right,
            attribute=_(ATTRIBUTE_TERM[self.attribute]), janken=_(MARK_TERM[self.janken]))


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


_CARD_FIELDS = ("id", "name", "japanese", "top", "bottom", "left", "right", "attribute", "janken")
_ATTR_ALIASES = {**{a: a for a in ATTRIBUTES}, **{j: a for a, j in ATTRIBUTE_JA.items()}}
_MARK_ALIASES = {**{m: m for m in MARKS}, **{j: m for m, j in MARK_JA.items()}}


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
    naming the file, the card and the field.

    >>> cs = load_cards()
    >>> len(cs.cards) >= 30, sorted(cs.hands)[:2]
    (True, ['duo_a', 'duo_b'])
    """
    where, data = read_data_file(source, "mipig.json")

    def bad(card: str, fld: str, why: str) -> CardFileError:
        return CardFileError(pgettext("mipig", "{where}: card {card}, field {field}: {why}").format(
            where=where, card=repr(card), field=repr(fld), why=why))

    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'cards' (and optionally "
                              "'hands')").format(where=where))
    unknown = set(data) - {"name", "note", "cards", "hands"}
    if unknown:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; accepted: name, note, cards, "
                              "hands").format(where=where, fields=sorted(unknown)))
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise CardFileError(pgettext("mipig", "{where}: 'cards' must be a non-empty list of card objects").format(where=where))
    if len(raw) > 1000:
        raise CardFileError(_("{where}: at most 1000 cards, got {count}").format(where=where, count=len(raw)))
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(raw):
        label = c["id"][:40] if isinstance(c, dict) and isinstance(c.get("id"), str) else f"#{i}"
        if not isinstance(c, dict):
            raise bad(label, "(card)", pgettext("mipig", "each card must be a JSON object"))
        extra = sorted(set(c) - set(_CARD_FIELDS))
        if extra:
            raise bad(label, extra[0], pgettext("mipig", "unknown field; accepted: {fields}").format(fields=", ".join(_CARD_FIELDS)))
        cid = c.get("id")
        if not isinstance(cid, str) or not _ID_RE.fullmatch(cid) or len(cid) > 40:
            raise bad(label, "id", _("must be up to 40 letters, digits, '_', '.' or '-' (no spaces), "
                                     "got {value}").format(value=_short(cid)))
        if cid in seen:
            raise bad(cid, "id", _("used by two cards; card ids must be unique"))
        seen.add(cid)
        name = c.get("name")
        if not isinstance(name, str) or not name:
            raise bad(cid, "name", pgettext("mipig", "must be a non-empty string, got {value}").format(
                value=_short(name)))
        ja = c.get("japanese", "")
        if not isinstance(ja, str):
            raise bad(cid, "japanese", _("must be a string, got {value}").format(value=_short(ja)))
        nums = []
        for e in EDGES:
            v = c.get(e)
            if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 99:
                raise bad(cid, e, _("must be a whole number from 0 to 99, got {value}").format(value=_short(v)))
            nums.append(v)
        attr = c.get("attribute")
        if not isinstance(attr, str) or attr not in _ATTR_ALIASES:
            raise bad(cid, "attribute", _("{value} is not an attribute; the five are {attributes} (MP-2)").format(
                value=_short(attr), attributes=", ".join(f"{a} ({j})" for a, j in ATTRIBUTE_JA.items())))
        mark = c.get("janken")
        if not isinstance(mark, str) or mark not in _MARK_ALIASES:
            raise bad(cid, "janken", _("{value} is not a janken mark; accepted: {marks}").format(
                value=_short(mark), marks=", ".join(f"{m} ({j})" for m, j in MARK_JA.items())))
        cards.append(Card(cid, name, ja, *nums, _ATTR_ALIASES[attr], _MARK_ALIASES[mark]))
    for fld in ("name", "note"):
        if not isinstance(data.get(fld, ""), str):
            raise CardFileError(_("{where}: field {field} must be a string, got {value}").format(
                where=where, field=repr(fld), value=_short(data[fld])))
    hands_raw = data.get("hands", {})
    if not isinstance(hands_raw, dict):
        raise CardFileError(_("{where}: 'hands' must map hand names to lists of card ids").format(where=where))
    hands: dict[str, tuple[str, ...]] = {}
    for hname, ids in hands_raw.items():
        if not isinstance(ids, list) or not ids:
            raise CardFileError(_("{where}: hand {hand}: must be a non-empty list of card ids").format(
                where=where, hand=repr(hname)))
        for cid in ids:
            if not isinstance(cid, str) or cid not in seen:
                raise CardFileError(_("{where}: hand {hand}: card {card} is not in the card list").format(
                    where=where, hand=repr(hname), card=_short(cid)))
        hands[hname] = tuple(ids)
    name = data.get("name", where)
    return CardSet(str(name), tuple(cards), hands, where)


def _short(value: Any) -> str:
    """``repr(value)``, cut short: errors name a bad value without printing a huge one."""
    r = repr(value)
    return r if len(r) <= 60 else r[:57] + "..."


def _cards_ok(value: Any) -> bool:
    if value is None:
        return True
    if not isinstance(value, (str, Mapping)):  # options stay JSON-able (to_dict)
        return False
    load_cards(value)  # raises CardFileError naming file, card, field
    return True


def _hands_ok(value: Any) -> bool:
    return value is None or (isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(h, str) or (isinstance(h, (list, tuple)) and all(isinstance(x, str) for x in h))
        for h in value))


def _int_in(lo: int, hi: int):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


# -- janken as a small simultaneous game (MP-Q2, MP-Q3) -------------------------------
def matrix_game_value(A: Sequence[Sequence[Any]]) -> Fraction:
    """The exact value of the zero-sum matrix game ``A`` (row player maximises);
    see :func:`cardlab.matrix.matrix_solution` for the strategies.

    >>> matrix_game_value([[0, 1], [1, -1]])
    Fraction(1, 3)
    """
    return matrix_solution(A).value


def janken_matrix(marks0: Sequence[int], marks1: Sequence[int]) -> list[list[int | None]]:
    """The end janken (MP-25) as a matrix: player 0's marks are the rows,
    player 1's the columns; +1 a win, -1 a loss, ``None`` a tie (picked again,
    MP-Q3), 0 a tie that cannot break (a draw, :func:`tie_can_break`)."""
    every = set(marks0) | set(marks1)
    return [[(None if tie_can_break(a, every) else 0) if a == b else 1 if janken_beats(a, b) else -1
             for b in marks1] for a in marks0]


def janken_value(marks0: Sequence[int], marks1: Sequence[int], rounds: int | None = None) -> Any:
    """MP-25, MP-Q3: the exact value for player 0 (+1 win, -1 loss, 0 draw) of
    the end-of-game janken when player 0 may show any mark of ``marks0`` and
    player 1 any of ``marks1`` (indices into :data:`MARKS`), both at once,
    and a tie is picked again: with ``rounds=None`` until it breaks (the
    fixed point of :func:`cardlab.matrix.repeated_value`), else at
    most ``rounds`` times, then a draw; a tie that cannot break
    (:func:`tie_can_break`) is a draw.  No cards on a side, or one and the
    same single mark on both sides, is a draw at once.

    >>> janken_value([0, 1, 2], [0, 1, 2]), janken_value([0], [1], 1)
    (Fraction(0, 1), Fraction(1, 1))
    >>> janken_value([0, 2], [0, 1], 1), janken_value([0, 2], [0, 1], 5)   # rock/paper against rock/scissors
    (Fraction(1, 3), Fraction(5, 7))
    >>> janken_value([0, 2], [0, 1])   # no cap: paper beats rock for sure in the end
    Fraction(1, 1)
    """
    return _janken_value(tuple(sorted(set(marks0))), tuple(sorted(set(marks1))), rounds)


@lru_cache(maxsize=None)
def _janken_value(m0: tuple, m1: tuple, rounds: int | None) -> Any:
    if not m0 or not m1 or (m0 == m1 and len(m0) == 1):
        return Fraction(0)
    A = janken_matrix(m0, m1)
    return repeated_value(A) if rounds is None else capped_value(A, rounds)


# -- battle explanation ------------------------------------------------------------
@dataclass(frozen=True)
class Bonus:
    """One side's attribute bonus in a battle (MP-19 … MP-22)."""

    player: int
    attribute: str
    count: int       # own face-up cards of that attribute on the field, after the reveal
    bonus: int

    def text(self) -> str:
        a = _(ATTRIBUTE_TERM[self.attribute])
        if self.bonus:
            return _("+{bonus} ({count} face-up {attribute} cards of player {player}: "
                     "{count} - 1, MP-19/MP-20)").format(bonus=self.bonus, count=self.count, attribute=a,
                                                         player=self.player)
        return _("+0 (only {count} face-up {attribute} card of player {player}; a bonus needs 2, MP-19)").format(
            count=self.count, attribute=a, player=self.player)


@dataclass(frozen=True)
class Battle:
    """Everything about one battle (MP-11 … MP-15, MP-19 … MP-22, MP-Q5).

    ``result`` is ``"attacker"``, ``"defender"`` or ``"draw"``; ``loser_card``
    the card sent to the graveyard 墓地 (``None`` on a draw).
    """

    attacker_player: int
    defender_player: int
    attacker_card: Card
    defender_card: Card
    attacker_pos: tuple[int, int]   # the squares' names (MP-Q4), as in the action
    defender_pos: tuple[int, int]
    direction: str
    attacker_edge: str
    defender_edge: str
    attacker_number: int
    defender_number: int
    attacker_bonus: Bonus
    defender_bonus: Bonus
    attacker_total: int
    defender_total: int
    janken: tuple[str, str] | None
    result: str
    loser_card: Card | None
    defender_was_face_up: bool
    rules: tuple[str, ...] = dc_field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": {"player": self.attacker_player, "card": self.attacker_card.id,
                         "pos": list(self.attacker_pos), "edge": self.attacker_edge,
                         "number": self.attacker_number, "bonus": self.attacker_bonus.bonus,
                         "bonus_count": self.attacker_bonus.count, "total": self.attacker_total},
            "defender": {"player": self.defender_player, "card": self.defender_card.id,
                         "pos": list(self.defender_pos), "edge": self.defender_edge,
                         "number": self.defender_number, "bonus": self.defender_bonus.bonus,
                         "bonus_count": self.defender_bonus.count, "total": self.defender_total,
                         "was_face_up": self.defender_was_face_up},
            "direction": self.direction,
            "janken": list(self.janken) if self.janken else None,
            "result": self.result,
            "loser": self.loser_card.id if self.loser_card else None,
            "rules": list(self.rules),
        }

    def text(self) -> str:
        a, d = self.attacker_card, self.defender_card
        gap = "" if get_language() == "ja" else " "  # between sentences: Japanese puts none after 。
        up = _("already face up") if self.defender_was_face_up else _("turned face up")
        (ax, ay), (dx, dy) = self.attacker_pos, self.defender_pos
        head = _("Player {attacker}'s {attacker_card} at {attacker_square} attacks player {defender}'s "
                 "{defender_card} {where} at {defender_square} (MP-11); both face up (defender {up}, MP-12)."
                 ).format(attacker=self.attacker_player, attacker_card=f"{a.id} {card_name(a)}",
                          attacker_square=f"{ax},{ay}", defender=self.defender_player,
                          defender_card=f"{d.id} {card_name(d)}", where=_(_WHERE[self.direction]),
                          defender_square=f"{dx},{dy}", up=up)
        nums = gap + _("Edges (MP-Q5): attacker {attacker_edge} {attacker_number} {attacker_bonus} = "
                       "{attacker_total}; defender {defender_edge} {defender_number} {defender_bonus} = "
                       "{defender_total}.").format(
            attacker_edge=_(EDGE_TERM[self.attacker_edge]), attacker_number=self.attacker_number,
            attacker_bonus=self.attacker_bonus.text(), attacker_total=self.attacker_total,
            defender_edge=_(EDGE_TERM[self.defender_edge]), defender_number=self.defender_number,
            defender_bonus=self.defender_bonus.text(), defender_total=self.defender_total)
        if self.janken is None:
            why = gap + (_("The larger number wins (MP-13): the attacker wins.") if self.result == "attacker"
                         else _("The larger number wins (MP-13): the defender wins."))
        else:
            ma, md = self.janken
            marks = dict(attacker_mark=_(MARK_TERM[ma]), defender_mark=_(MARK_TERM[md]),
                         attacker_word=mark_word(ma), defender_word=mark_word(md))
            why = gap + {
                "attacker": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                              "{attacker_word} beats {defender_word}: the attacker wins."),
                "defender": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                              "{defender_word} beats {attacker_word}: the defender wins."),
                "draw": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                          "{attacker_word} against {defender_word} is a tie too: a draw."),
            }[self.result].format(**marks)
        if self.loser_card is None:
            end = gap + _("Both stay on the field face up (MP-15).")
        else:
            end = gap + _("{card} goes to its owner's graveyard 墓地; the winner stays face up (MP-15).").format(
                card=f"{self.loser_card.id} {card_name(self.loser_card)}")
        return head + nums + why + end

    def __str__(self) -> str:
        return self.text()


def _unpack(v: int) -> tuple[int, int, int, int, int]:
    """A field cell: (x, y, card, owner, face_up)."""
    pos = v >> _SHIFT
    return pos >> 5, pos & 31, (v >> 2) & 1023, (v >> 1) & 1, v & 1


def _pack(x: int, y: int, card: int, owner: int, up: int) -> int:
    return ((x * _XSTEP + y) << _SHIFT) | (card << 2) | (owner << 1) | up


def _normalise(cells: list[int]) -> tuple[tuple[int, ...], int, int]:
    """MP-Q4: shift the field so that the smallest x and the smallest y are 0;
    with the shift ``(mx, my)`` taken off."""
    if not cells:
        return (), 0, 0
    mx = min(v >> (_SHIFT + 5) for v in cells)
    my = min((v >> _SHIFT) & 31 for v in cells)
    if mx or my:
        d = (mx * _XSTEP + my) << _SHIFT
        cells = [v - d for v in cells]
    return tuple(sorted(cells)), mx, my


# -- the game --------------------------------------------------------------------
class Mipig(Game):
    """mipig trading cards (mipigトレーディングカード), two players.

    >>> import cardlab
    >>> game = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0)
    >>> state = game.new_initial_state(seed=1)
    >>> state.current_player, state.legal_actions()[0]
    (0, 'place p05 0,0')
    """

    name = "mipig"
    title = N_("mipig trading cards (mipigトレーディングカード)")
    rules = "mipig.md"
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees every card, hands, face-down cards and pending "
                                     "janken picks: perfect information (MP-Q6)")),
        "hand_size": Option(5, N_("cards per player: 5 (5枚勝負) or 10 (10枚勝負), 1-4 for teaching (MP-3)"),
                            check=_int_in(1, 10), accepts=N_("a whole number from 1 to 10"),
                            label=N_('hand size (5枚勝負, 10枚勝負)')),
        "deal": Option("own", N_("where a random deal (hands=None) takes the cards from: 'own' each hand "
                                 "from its player's own copy of the card set (the seed: お互いに…用意します, "
                                 "MP-3), 'shared' both hands from one card set"),
                       choices=("own", "shared"), label=N_('deal: own cards or one set')),
        "first_player": Option("janken", N_("who goes first: 'janken' (MP-4, MP-Q2), 0, 1 or 'random' (a coin)"),
                               choices=("janken", 0, 1, "random"),
                               check=lambda v: type(v) in (int, str),  # not True, not 1.0
                               accepts=N_("'janken', 0, 1 or 'random'"), label=N_('first player 先攻')),
        "tiebreak": Option("janken", N_("equal face-up counts (MP-25): 'janken' (simultaneous picks, MP-Q3), "
                                        "'value' (the exact value of that janken game), 'draw'"),
                           choices=("janken", "value", "draw"), label=N_('equal at the end: tiebreak')),
        "tiebreak_cards": Option("face_up", N_("the cards whose marks the end janken may use: 'face_up' own "
                                               "face-up cards, or 'all_on_field' (MP-Q3)"),
                                 choices=("face_up", "all_on_field"), label=N_('tiebreak janken cards')),
        "janken_rounds": Option(None, N_("tied janken rounds (あいこ): None (the default) picks again until the "
                                         "tie breaks (MP-Q2, MP-Q3); a number N caps them: after N ties a coin "
                                         "for the first player (MP-Q2), a draw for the end janken (MP-Q3)"),
                                check=lambda v: v is None or _int_in(1, 20)(v),
                                accepts=N_("None (no cap) or a whole number from 1 to 20"),
                                label=N_('janken rounds (あいこ)'), choice_words={None: N_("no cap")}),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (face-up count difference, no tiebreak)"),
                         choices=("win", "score")),
        "cards": Option(None, N_("the card set: None (cardlab's own), a JSON file path or a dict (MP-Q1)"),
                        check=_cards_ok, accepts=N_("None, a path (a string) to a JSON card file, or a dict")),
        "hands": Option(None, N_("None (deal hand_size cards each at random, as the option deal says), or "
                                 "two ready hands: names from the card file or lists of card ids"),
                        check=_hands_ok,
                        accepts=N_("None or a list of two hands (a hand name or a list of card ids)")),
    }
    ACTION_GRAMMAR = N_("'show p07', 'place p07 -1,0', 'attack 0,0 1,0', 'pass', 'pick rock'; chance: "
                        "'deal p07', 'coin 0'/'coin 1' (squares: the first card laid is 0,0 and names never "
                        "change; x grows right, y grows down)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.card_set = cs
        self.cards = cs.cards
        self.ids = tuple(c.id for c in cs.cards)
        self.index = {c.id: i for i, c in enumerate(cs.cards)}
        self.edge = tuple(c.edges for c in cs.cards)
        self.attr = tuple(ATTRIBUTES.index(c.attribute) for c in cs.cards)
        self.mark = tuple(MARKS.index(c.janken) for c in cs.cards)
        n = self.options["hand_size"]
        self.n = n
        #: MP-3: both hands from one card set (no card in both hands), not each from its own copy
        self.shared = self.options["deal"] == "shared"
        self.rounds = self.options["janken_rounds"]  # None: no cap (MP-Q2, MP-Q3)
        #: the tied rounds allowed (no cap: more than any game plays); with no cap the round
        #: count stays 0, so a tied janken comes back to the very same position (a cycle)
        self.cap = self.rounds if self.rounds is not None else 10**9
        hands = self.options["hands"]
        self.fixed_hands: tuple[tuple[int, ...], tuple[int, ...]] | None = None
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
                    if cid not in self.index:
                        raise OptionError(_("mipig: option hands[{player}]: card {card} is not in {where}").format(
                            player=p, card=repr(cid), where=cs.where))
                if len(ids) != n:
                    raise OptionError(_("mipig: option hands[{player}] has {count} cards but hand_size is {n}; "
                                        "both hands must hold hand_size cards (MP-3)").format(
                        player=p, count=len(ids), n=n))
                fixed.append(tuple(sorted(self.index[c] for c in ids)))
            self.fixed_hands = (fixed[0], fixed[1])
        elif not self.shared and n > len(self.cards):
            raise OptionError(_("mipig: hand_size={n} but the card set {where} has only {count} "
                                "cards; with deal='own' each hand comes from its player's own copy of the "
                                "card set: choose hand_size ≤ {count}").format(n=n, where=cs.where,
                                                                                count=len(self.cards)))
        elif self.shared and 2 * n > len(self.cards):
            raise OptionError(_("mipig: hand_size={n} with deal='shared' deals {dealt} cards from one card "
                                "set of {count} ({where}): choose hand_size ≤ {half}, or deal='own' (each "
                                "player their own copy)").format(n=n, dealt=2 * n, count=len(self.cards),
                                                                 where=cs.where, half=len(self.cards) // 2))
        self._parsed: dict[str, tuple] = {}
        self._free: dict[tuple, list[tuple[int, int]]] = {}   # field key -> free squares (key coordinates)
        self._spots: dict[tuple, list[str]] = {}  # (field key, origin) -> their names (MP-Q4)

    def _make_spec(self) -> Spec:
        n, r = self.n, self.rounds
        fp = self.options["first_player"]
        bound = Fraction(n if self.options["payoff"] == "score" else 1)
        # Deal 2n; first-player janken ≤ 2r picks and 1 coin; placement 2n.
        # Battle ≤ 4n: each attack turns a face-down attacker up for good (MP-16),
        # so ≤ 2n attacks; a pass happens only when the opponent can attack (MP-18),
        # and the opponent then must attack, so passes ≤ attacks.  End janken ≤ 2r.
        length = None if r is None else (2 * n if self.fixed_hands is None else 0) + 2 * r + 1 + 2 * n + 4 * n + 2 * r
        return Spec(num_players=2,
                    chance=self.fixed_hands is None or fp in ("janken", "random"),
                    perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound, max_game_length=length,
                    simultaneous=fp == "janken" or self.options["tiebreak"] == "janken")

    def _root(self) -> "MipigState":
        if self.fixed_hands is None:
            return MipigState(self, (DEAL, 0, -1, 0, (), (), (), (), (), 0, -1, (), (), None))
        return self._after_deal(self.fixed_hands[0], self.fixed_hands[1])

    def _after_deal(self, h0: tuple, h1: tuple) -> "MipigState":
        fp = self.options["first_player"]
        if fp in (0, 1):
            return MipigState(self, (PLACE, fp, fp, 1, h0, h1, (), (), (), 0, -1, (), (), None))
        if fp == "random":
            return MipigState(self, (COIN, 0, -1, 3, h0, h1, (), (), (), 0, -1, (), (), None))
        marks = {self.mark[c] for c in h0} | {self.mark[c] for c in h1}
        if len(marks) == 1:  # MP-Q2: every card has the same mark, a tie cannot break
            return MipigState(self, (COIN, 0, -1, 4, h0, h1, (), (), (), 0, -1, (), (), None))
        return MipigState(self, (JANKEN, 0, -1, 0, h0, h1, (), (), (), 0, -1, (), (), None))

    def parse(self, action: str) -> tuple:
        """The action as a tuple ``(verb, ...)`` (cached; the action is well formed).
        Squares stay names (MP-Q4): ``("place", card, x, y)``, ``("attack", ax, ay, dx, dy)``;
        the state turns them into key coordinates."""
        t = self._parsed.get(action)
        if t is None:
            parts = action.split(" ")
            verb = parts[0]
            if verb in ("show", "deal"):
                t = (verb, self.index.get(parts[1], -1))
            elif verb == "place":
                x, y = parts[2].split(",")
                t = (verb, self.index.get(parts[1], -1), int(x), int(y))
            elif verb == "attack":
                ax, ay = parts[1].split(",")
                dx, dy = parts[2].split(",")
                t = (verb, int(ax), int(ay), int(dx), int(dy))
            elif verb == "pick":
                t = (verb, MARKS.index(parts[1]))
            elif verb == "coin":
                t = (verb, int(parts[1]))
            else:
                t = (verb,)
            if len(self._parsed) < 200_000:
                self._parsed[action] = t
        return t

    def _state_from_dict(self, d: Mapping[str, Any]) -> "MipigState":
        return _from_dict(self, d)


# -- the state -------------------------------------------------------------------
class MipigState(State):
    """A mipig position; see the module docstring for the key and the notation.

    Square names (MP-Q4): ``_o``, outside the key, is the *origin*, the name
    of the key's square ``(0, 0)``; a square's name is its key coordinates
    plus the origin.  Equality and hashing use the key alone, so two states
    whose layouts differ only by a translation are equal (``==``, one hash)
    although they may name their squares differently (``"place p07 2,0"``
    in one is ``"place p07 -1,0"`` in the other).  The solver's
    transposition table (keyed on the key) gives both one value; its
    principal variation and best actions are those of the state solved, in
    its names.  :func:`cardlab.tree` merges them into one node that keeps
    the state reached first: the edges out of it carry that state's names,
    and an edge into it the names of the parent it comes from.  The
    information sets carry the origin (what a player sees names the squares
    of the moves), so such states share no information set.
    """

    __slots__ = ("_o",)

    def __init__(self, game: Game, key: tuple, origin: tuple[int, int] = (0, 0)) -> None:
        _set = object.__setattr__  # State.__init__ and the origin in one call (a hot path)
        _set(self, "game", game)
        _set(self, "_k", key)
        _set(self, "_h", None)
        _set(self, "_o", origin)

    @property
    def origin(self) -> tuple[int, int]:
        """MP-Q4: the name ``(x, y)`` of the smallest x and y on the field
        (``(0, 0)`` on an empty field); a square's key coordinates plus this
        are its name."""
        return self._o

    def _pos(self, x: int, y: int) -> int:
        """The key position (packed) of the square named ``x,y``."""
        ox, oy = self._o
        return (x - ox) * _XSTEP + (y - oy)

    def _name(self, pos: int) -> tuple[int, int]:
        """The name ``(x, y)`` of the key position ``pos``."""
        return (pos >> 5) + self._o[0], (pos & 31) + self._o[1]

    # -- reading the position ------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[self._k[0]]

    @property
    def first_player(self) -> int | None:
        return None if self._k[2] < 0 else self._k[2]

    @property
    def current_player(self) -> int:
        ph = self._k[0]
        if ph == END:
            return TERMINAL
        if ph == DEAL or ph == COIN:
            return CHANCE
        return self._k[1]

    def hand(self, p: int) -> list[str]:
        ids = self.game.ids
        return [ids[c] for c in self._k[4 + p]]

    def cells(self) -> list[tuple[int, int, int, int, int]]:
        """The field as ``(x, y, card, owner, face_up)`` tuples, sorted by x then y;
        ``x, y`` is the square's name (MP-Q4: the first card laid is on ``0, 0``)."""
        ox, oy = self._o
        return [(x + ox, y + oy, c, o, u) for x, y, c, o, u in map(_unpack, self._k[6])]

    def face_up_count(self, p: int) -> int:
        """MP-24: own face-up cards on the field."""
        return sum(1 for v in self._k[6] if v & 1 and (v >> 1) & 1 == p)

    def _can_attack(self, p: int, occ: dict | None = None) -> bool:
        """MP-11, MP-16, MP-17: a face-down own card touches an opponent card."""
        return _attackers(self._k[6], occ)[p]

    def _tiebreak_marks(self, p: int) -> list[int]:
        """MP-25, MP-Q3: the marks of a player's remaining cards."""
        every = self.game.options["tiebreak_cards"] == "all_on_field"
        mark = self.game.mark
        return sorted({mark[(v >> 2) & 1023] for v in self._k[6]
                       if (v >> 1) & 1 == p and (every or v & 1)})

    # -- moves ---------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        k = self._k
        ph, p = k[0], k[1]
        g = self.game
        if ph == PLACE:
            ids = g.ids
            spots = g._spots.get((k[6], self._o))
            if spots is None:
                free = g._free.get(k[6])
                if free is None:
                    free = _free_spots(k[6])
                    if len(g._free) < 500_000:
                        g._free[k[6]] = free
                ox, oy = self._o
                spots = [f"{x + ox},{y + oy}" for x, y in free]
                if len(g._spots) < 500_000:
                    g._spots[(k[6], self._o)] = spots
            return [f"place {ids[c]} {s}" for c in sorted(set(k[4 + p])) for s in spots]
        if ph == BATTLE:
            occ = {v >> _SHIFT: v for v in k[6]}
            ox, oy = self._o
            acts = []
            for v in k[6]:  # sorted by position
                if not v & 1 and (v >> 1) & 1 == p:  # MP-16 face-down attackers only
                    pos = v >> _SHIFT
                    for d in (-_XSTEP, -1, 1, _XSTEP):
                        w = occ.get(pos + d)
                        if w is not None and (w >> 1) & 1 != p:  # MP-11 a touching opponent card
                            q = pos + d
                            acts.append(f"attack {(pos >> 5) + ox},{(pos & 31) + oy} "
                                        f"{(q >> 5) + ox},{(q & 31) + oy}")
            return acts or ["pass"]  # MP-18
        if ph == JANKEN:
            return [f"show {g.ids[c]}" for c in sorted(set(k[4 + p]))]
        if ph == TIEBREAK:
            return [f"pick {MARKS[m]}" for m in self._tiebreak_marks(p)]
        return []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        if k[0] == COIN:
            return [("coin 0", Fraction(1, 2)), ("coin 1", Fraction(1, 2))]
        if k[0] == DEAL:  # MP-3: no card twice in one hand; with deal='shared' none in both
            g = self.game
            used = set(k[4]) | set(k[5]) if g.shared else set(k[4] if len(k[4]) < g.n else k[5])
            left = [c for c in range(len(g.ids)) if c not in used]
            pr = Fraction(1, len(left))
            return [(f"deal {g.ids[c]}", pr) for c in left]
        return []

    def _apply(self, action: str) -> "MipigState":
        g = self.game
        t = g.parse(action)
        k = self._k
        o = self._o
        verb = t[0]
        if verb == "place":  # MP-5 … MP-7
            ph, p, first, how, h0, h1, fld = k[:7]
            c = t[1]
            hand = list(k[4 + p])
            hand.remove(c)
            x, y = t[2] - o[0], t[3] - o[1]  # the square's name in key coordinates
            cells = list(fld)
            if x < 0 or y < 0:  # MP-Q4: keep the smallest coordinates at 0, the names stay
                d = ((-x if x < 0 else 0) * _XSTEP + (-y if y < 0 else 0)) << _SHIFT
                cells = [v + d for v in cells]
                o = (min(t[2], o[0]), min(t[3], o[1]))
                x, y = max(x, 0), max(y, 0)
            cells.append(_pack(x, y, c, p, 0))
            cells.sort()
            hands = [h0, h1]
            hands[p] = tuple(hand)
            if hands[1 - p] or hands[p]:
                return MipigState(g, (PLACE, 1 - p, first, how, hands[0], hands[1], tuple(cells))
                                  + k[7:], o)
            # MP-9, MP-10: both hands empty, the battle starts with the first player
            return self._battle_next(first, tuple(cells), k[7], k[8], first, o)
        if verb == "attack":
            return self._attack(self._pos(t[1], t[2]), self._pos(t[3], t[4]))
        if verb == "pass":  # MP-18
            return MipigState(g, (BATTLE, 1 - k[1]) + k[2:], o)
        if verb == "deal":
            h0, h1 = k[4], k[5]
            if len(h0) < g.n:
                h0 = tuple(sorted(h0 + (t[1],)))
            else:
                h1 = tuple(sorted(h1 + (t[1],)))
            if len(h1) == g.n:
                return g._after_deal(h0, h1)
            return MipigState(g, (DEAL, 0 if len(h0) < g.n else 1, -1, 0, h0, h1) + k[6:])
        if verb == "coin":  # MP-Q2 fallback
            f = t[1]
            return MipigState(g, (PLACE, f, f, k[3]) + k[4:9] + (0, -1) + k[11:])
        if verb == "show":  # MP-4 simultaneous: player 0 picks, then player 1 unseen
            if k[1] == 0:
                return MipigState(g, (JANKEN, 1) + k[2:10] + (t[1],) + k[11:])
            c0, c1 = k[10], t[1]
            s0, s1 = k[11], k[12]
            if not g.options["open_hands"]:  # the shown cards become known (MP-Q6)
                s0 = tuple(sorted(set(s0) | {c0}))
                s1 = tuple(sorted(set(s1) | {c1}))
            m0, m1 = g.mark[c0], g.mark[c1]
            if m0 == m1:  # MP-Q2: pick again, up to janken_rounds (no cap: the same position again)
                r = k[9] + 1 if g.rounds is not None else 0
                if not tie_can_break(m0, {g.mark[c] for c in k[4] + k[5]}):  # MP-Q2: a coin
                    return MipigState(g, (COIN, 0, -1, 4) + k[4:9] + (0, -1, s0, s1, None))
                if r >= g.cap:
                    return MipigState(g, (COIN, 0, -1, 5) + k[4:9] + (0, -1, s0, s1, None))
                return MipigState(g, (JANKEN, 0) + k[2:9] + (r, -1, s0, s1, None))
            f = 0 if janken_beats(m0, m1) else 1
            return MipigState(g, (PLACE, f, f, 2) + k[4:9] + (0, -1, s0, s1, None))
        if verb == "pick":  # MP-25, MP-Q3
            if k[1] == 0:
                return MipigState(g, (TIEBREAK, 1) + k[2:10] + (t[1],) + k[11:], o)
            m0, m1 = k[10], t[1]
            if m0 != m1:
                return MipigState(g, (END, 1) + k[2:9] + (k[9], -1, k[11], k[12],
                                                         1 if janken_beats(m0, m1) else -1), o)
            r = k[9] + 1 if g.rounds is not None else 0
            if r >= g.cap or not tie_can_break(m0, set(self._tiebreak_marks(0)) | set(self._tiebreak_marks(1))):
                return MipigState(g, (END, 1) + k[2:9] + (r, -1, k[11], k[12], 0), o)  # MP-Q3: a draw
            return MipigState(g, (TIEBREAK, 0) + k[2:9] + (r, -1, k[11], k[12], None), o)
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _fight(self, occ: dict, apos: int, dpos: int) -> tuple:
        """The battle of ``apos`` against ``dpos`` on the field ``occ`` (pos -> cell):
        ``(result, a_num, d_num, a_bonus, d_bonus, a_count, d_count, janken_used)``
        with result 1 attacker wins, -1 defender wins, 0 draw (MP-12 … MP-14, MP-19 … MP-22)."""
        g = self.game
        va, vd = occ[apos] | 1, occ[dpos] | 1  # MP-12 both face up
        ca, cd = (va >> 2) & 1023, (vd >> 2) & 1023
        pa, pd = (va >> 1) & 1, (vd >> 1) & 1
        aa, ad = g.attr[ca], g.attr[cd]
        na = nd = 0
        attr = g.attr
        for pos, v in occ.items():  # MP-21: counted after the reveal, MP-22 own face-up only
            up = v & 1 or pos == apos or pos == dpos
            if up:
                o = (v >> 1) & 1
                a = attr[(v >> 2) & 1023]
                if o == pa and a == aa:
                    na += 1
                if o == pd and a == ad:
                    nd += 1
        ea, ed, _d = _DIRS[dpos - apos]
        a_num, d_num = g.edge[ca][ea], g.edge[cd][ed]
        ba, bd = attribute_bonus(na), attribute_bonus(nd)  # MP-20
        ta, td = a_num + ba, d_num + bd
        if ta != td:  # MP-13
            return (1 if ta > td else -1), a_num, d_num, ba, bd, na, nd, False
        ma, md = g.mark[ca], g.mark[cd]  # MP-14
        res = 1 if janken_beats(ma, md) else -1 if janken_beats(md, ma) else 0
        return res, a_num, d_num, ba, bd, na, nd, True

    def _attack(self, apos: int, dpos: int) -> "MipigState":
        k = self._k
        occ = {v >> _SHIFT: v for v in k[6]}
        res = self._fight(occ, apos, dpos)[0]
        graves = [k[7], k[8]]
        occ[apos] |= 1
        occ[dpos] |= 1
        origin = self._o
        if res:  # MP-15: the loser goes to its owner's graveyard
            lpos = dpos if res > 0 else apos
            v = occ.pop(lpos)
            o = (v >> 1) & 1
            graves[o] = tuple(sorted(graves[o] + ((v >> 2) & 1023,)))
            fld, mx, my = _normalise(list(occ.values()))
            if mx or my:  # shifted: the key positions changed, the names did not (MP-Q4)
                occ = None
                origin = (origin[0] + mx, origin[1] + my)
        else:
            fld = tuple(sorted(occ.values()))
        return self._battle_next(1 - k[1], fld, graves[0], graves[1], k[2], origin, occ)

    def _battle_next(self, mover: int, fld: tuple, g0: tuple, g1: tuple, first: int,
                     origin: tuple[int, int], occ: dict | None = None) -> "MipigState":
        """The battle continues with ``mover`` (who may have to pass, MP-18) or ends (MP-23)."""
        k = self._k
        s = MipigState(self.game, (BATTLE, mover, first, k[3], (), (), fld, g0, g1, 0, -1, k[11], k[12], None),
                       origin)
        if _attackers(fld, occ) != (False, False):
            return s
        return s._finish()

    def _finish(self) -> "MipigState":
        """MP-23 … MP-25: count own face-up cards; equal counts go to the janken tiebreak."""
        k = self._k
        g = self.game
        c0, c1 = self.face_up_count(0), self.face_up_count(1)
        rest = k[2:9] + (0, -1, k[11], k[12])
        if g.options["payoff"] == "score":
            return MipigState(g, (END, 0) + rest + (c0 - c1,), self._o)
        if c0 != c1:
            return MipigState(g, (END, 0) + rest + (1 if c0 > c1 else -1,), self._o)
        mode = g.options["tiebreak"]
        if mode == "draw":
            return MipigState(g, (END, 0) + rest + (0,), self._o)
        m0, m1 = self._tiebreak_marks(0), self._tiebreak_marks(1)
        if mode == "value":
            v = janken_value(m0, m1, g.rounds)
            return MipigState(g, (END, 0) + rest + (int(v) if v.denominator == 1 else v,), self._o)
        if not m0 or not m1 or (m0 == m1 and len(m0) == 1):  # MP-Q3: no pick can break the tie
            return MipigState(g, (END, 0) + rest + (0,), self._o)
        return MipigState(g, (TIEBREAK, 0) + rest + (None,), self._o)

    def returns(self) -> list:
        o = self._k[13]
        if self._k[0] != END or o is None:
            return [0, 0]
        return [o, -o]

    # -- explanations -----------------------------------------------------------------
    def explain_battle(self, action: str) -> Battle:
        """The structured explanation of an attack action here (before it happens).

        >>> import cardlab
        >>> g = cardlab.load("mipig", hand_size=1, hands=[["p01"], ["p02"]], first_player=0)
        >>> s = g.new_initial_state().apply("place p01 0,0").apply("place p02 1,0")
        >>> b = s.explain_battle("attack 0,0 1,0")
        >>> (b.attacker_edge, b.attacker_number, b.defender_edge, b.defender_number, b.result)
        ('right', 9, 'left', 8, 'attacker')
        """
        if self._k[0] != BATTLE or action not in self.legal_actions() or action == "pass":
            raise IllegalActionError(_("mipig: {action} is not an attack that is legal here; legal: {legal}").format(
                action=repr(action), legal=", ".join(self.legal_actions()) or pgettext("mipig list", "none")))
        g = self.game
        _verb, ax, ay, dx, dy = g.parse(action)
        apos, dpos = self._pos(ax, ay), self._pos(dx, dy)
        occ = {v >> _SHIFT: v for v in self._k[6]}
        res, an, dn, ba, bd, na, nd, jk = self._fight(occ, apos, dpos)
        va, vd = occ[apos], occ[dpos]
        ca, cd = (va >> 2) & 1023, (vd >> 2) & 1023
        pa, pd = (va >> 1) & 1, (vd >> 1) & 1
        ea, ed, direction = _DIRS[dpos - apos]
        card_a, card_d = g.cards[ca], g.cards[cd]
        rules = ["MP-11", "MP-12", "MP-13", "MP-Q5", "MP-19", "MP-20", "MP-21", "MP-22"]
        if jk:
            rules.append("MP-14")
        rules.append("MP-15")
        return Battle(
            attacker_player=pa, defender_player=pd, attacker_card=card_a, defender_card=card_d,
            attacker_pos=(ax, ay), defender_pos=(dx, dy),
            direction=direction, attacker_edge=EDGES[ea], defender_edge=EDGES[ed],
            attacker_number=an, defender_number=dn,
            attacker_bonus=Bonus(pa, card_a.attribute, na, ba),
            defender_bonus=Bonus(pd, card_d.attribute, nd, bd),
            attacker_total=an + ba, defender_total=dn + bd,
            janken=(card_a.janken, card_d.janken) if jk else None,
            result={1: "attacker", -1: "defender", 0: "draw"}[res],
            loser_card=None if res == 0 else (card_d if res > 0 else card_a),
            defender_was_face_up=bool(vd & 1), rules=tuple(rules))

    def explain(self, action: str) -> str:
        g = self.game
        k = self._k
        p = k[1]
        t = g.parse(action)
        verb = t[0]
        if verb == "attack":
            return self.explain_battle(action).text()
        if verb == "place":
            card, square = self._card_ref(action.split()[1]), action.split()[2]
            if not k[6]:
                return _("Player {player} lays {card} face down at {square}, anywhere: the first card (MP-6); "
                         "players alternate (MP-5).").format(player=p, card=card, square=square)
            return _("Player {player} lays {card} face down at {square}, touching a card along a full edge "
                     "(MP-7); players alternate (MP-5).").format(player=p, card=card, square=square)
        if verb == "pass":
            return _("Player {player} has no face-down card touching an opponent card and passes (MP-18).").format(
                player=p)
        if verb == "deal":
            who = 0 if len(k[4]) < g.n else 1
            card = self._card_ref(g.ids[t[1]])
            if g.shared:
                return _("Player {player} is dealt {card} from one shared card set ({n} cards each, MP-3).").format(
                    player=who, card=card, n=g.n)
            return _("Player {player} is dealt {card} from player {player}'s own copy of the card set "
                     "({n} cards each, MP-3).").format(player=who, card=card, n=g.n)
        if verb == "coin":
            if k[3] == 3:
                return _("A fair coin: player {player} goes first (first_player='random'; MP-Q2).").format(
                    player=t[1])
            if k[3] == 4:
                return _("A fair coin: player {player} goes first (a janken tie that cannot break: no card "
                         "beats the tied mark; MP-Q2).").format(player=t[1])
            if k[3] == 5:
                return _("A fair coin: player {player} goes first ({rounds} janken rounds all tied; MP-Q2).").format(
                    player=t[1], rounds=g.rounds)
            return _("A fair coin: player {player} goes first ({why}; MP-Q2).").format(player=t[1], why="")
        if verb == "show":
            c = g.cards[t[1]]
            if p == 0:
                return _("Player 0 picks {card} ({mark}) for the first-player janken; player 1 picks without "
                         "seeing it (MP-4).").format(card=self._card_ref(c.id), mark=_(MARK_TERM[c.janken]))
            c0 = g.cards[k[10]]
            m0, m1 = g.mark[k[10]], g.mark[t[1]]
            cards = dict(card=self._card_ref(c.id), mark=_(MARK_TERM[c.janken]), card0=self._card_ref(c0.id),
                         mark0=_(MARK_TERM[c0.janken]))
            if m0 == m1 and not tie_can_break(m0, {g.mark[c] for c in k[4] + k[5]}):
                return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie that "
                         "cannot break, no card of either hand beats {word}: a fair coin decides (MP-Q2); both "
                         "cards go back to the hands.").format(word=mark_word(c.janken), **cards)
            elif m0 == m1 and g.rounds is not None and k[9] + 1 >= g.rounds:
                return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie, the "
                         "{rounds}th: a fair coin decides (MP-Q2); both cards go back to the hands.").format(
                    rounds=g.rounds, **cards)
            elif m0 == m1:
                return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie: both pick "
                         "again (MP-Q2); both cards go back to the hands.").format(**cards)
            return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): player {player} goes "
                     "first (MP-4); both cards go back to the hands.").format(
                player=0 if janken_beats(m0, m1) else 1, **cards)
        if verb == "pick":
            m = MARKS[t[1]]
            if p == 0:
                return _("Player 0 picks {mark} for the end janken; player 1 cannot see it (MP-25, MP-Q3).").format(
                    mark=_(MARK_TERM[m]))
            m0 = k[10]
            marks = dict(mark=_(MARK_TERM[m]), mark0=_(MARK_TERM[MARKS[m0]]))
            if m0 == t[1] and not tie_can_break(m0, set(self._tiebreak_marks(0)) | set(self._tiebreak_marks(1))):
                return _("Player 1 picks {mark} against player 0's {mark0}: a tie that cannot break, no counted "
                         "card beats {word}: a draw (MP-Q3).").format(word=mark_word(m), **marks)
            elif m0 == t[1] and g.rounds is not None and k[9] + 1 >= g.rounds:
                return _("Player 1 picks {mark} against player 0's {mark0}: a tie, the {rounds}th: a draw "
                         "(MP-Q3).").format(rounds=g.rounds, **marks)
            elif m0 == t[1]:
                return _("Player 1 picks {mark} against player 0's {mark0}: a tie: pick again (MP-Q3).").format(
                    **marks)
            return _("Player 1 picks {mark} against player 0's {mark0}: player {player} wins the game "
                     "(MP-25).").format(player=0 if janken_beats(m0, t[1]) else 1, **marks)
        return action

    def _card_ref(self, card_id: str) -> str:
        """A card in a sentence: its id (in Japanese, with its Japanese name beside it)."""
        i = self.game.index.get(card_id)
        if i is None or get_language() != "ja":
            return card_id
        c = self.game.cards[i]
        return f"{c.id} {card_name(c)}"

    # -- simultaneous choices (MP-4, MP-Q2, MP-Q3, MP-25) -----------------------------------
    def simultaneous(self) -> tuple[int, ...]:
        """``(0, 1)`` where a janken starts (MP-4 同時に, MP-25): player 0 picks,
        then player 1 without seeing it, open hands or not."""
        k = self._k
        return (0, 1) if (k[0] == JANKEN or k[0] == TIEBREAK) and k[1] == 0 else ()

    def simultaneous_start(self) -> "MipigState | None":
        """Player 1's half of a janken: the position before player 0's pick."""
        k = self._k
        if (k[0] == JANKEN or k[0] == TIEBREAK) and k[1] == 1:
            return MipigState(self.game, (k[0], 0) + k[2:10] + (-1,) + k[11:], self._o)
        return None

    # -- what players see --------------------------------------------------------------
    def _sees_pending(self, player: int) -> bool:
        """Player 0's janken pick is theirs alone until player 1 has picked too
        (MP-4, MP-Q3): open hands show cards, never a choice not yet made."""
        return player == 0

    def _field_view(self, player: int) -> tuple:
        if self.game.options["open_hands"]:
            return self._k[6]
        return tuple(v if v & 1 or (v >> 1) & 1 == player else v | _CARD_MASK for v in self._k[6])

    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        g = self.game
        ids = g.ids
        o = 1 - player
        open_hands = g.options["open_hands"]
        fld = []
        ox, oy = self._o
        for v in self._field_view(player):
            x, y, c, owner, up = _unpack(v)
            fld.append({"x": x + ox, "y": y + oy, "owner": owner, "face_up": bool(up),
                        "card": None if c == _UNKNOWN else ids[c]})
        pending: Any = None
        if k[10] >= 0:
            if not self._sees_pending(player):
                pending = "picked (hidden)"
            else:
                pending = ids[k[10]] if k[0] == JANKEN else MARKS[k[10]]
        return {
            "phase": PHASES[k[0]],
            "to_move": k[1],
            "first_player": None if k[2] < 0 else k[2],
            "decided_by": HOWS[k[3]],
            "hand": self.hand(player),
            "opponent_hand": self.hand(o) if open_hands else len(k[4 + o]),
            "field": fld,
            "graveyards": [self.hand_ids(k[7]), self.hand_ids(k[8])],
            "janken_round": k[9],
            "pending_pick": pending,
            "shown": [self.hand_ids(k[11]), self.hand_ids(k[12])],
            "face_up": [self.face_up_count(0), self.face_up_count(1)],
            "outcome": None if k[13] is None else str(k[13]),
        }

    def hand_ids(self, cards: tuple) -> list[str]:
        ids = self.game.ids
        return [ids[c] for c in cards]

    def information_set(self, player: int) -> tuple:
        """What ``player`` knows, with the origin (MP-Q4): the square names of
        the moves depend on it, and it depends only on where cards were laid
        and which left the field, which both players see."""
        k = self._k
        if self.game.options["open_hands"]:
            return (k if self._sees_pending(player) or k[10] < 0 else k[:10] + (True,) + k[11:]) + (self._o,)
        o = 1 - player
        pending = k[10] if self._sees_pending(player) else k[10] >= 0
        return (k[0], k[1], k[2], k[3], k[4 + player], len(k[4 + o]), self._field_view(player),
                k[7], k[8], k[9], pending, k[11], k[12], k[13], player, self._o)

    def public_action(self, action: str, viewer: int) -> str:
        """What ``viewer`` may know of ``action`` (MP-Q6), from its kind alone:

        - ``place ?? x,y``: a card is laid face down (裏向き, MP-5, MP-7) on a
          square everybody sees; its orientation shows whose it is (MP-8);
        - ``deal ??``: a card dealt to the other player's hand 手札 (MP-3);
        - ``show ??`` and ``pick ??``: player 0's pick of a simultaneous
          janken, the first-player one (同時に見せましょう, MP-4) or the end one
          (MP-25, MP-Q3), unseen until player 1 picks too; player 1's pick
          reveals both, so it is public;
        - attacks, passes and coins are public: an attack turns both cards
          face up before everybody (表向きにします, MP-11, MP-12), a pass
          has no card (MP-18).

        An actor knows their own move; with ``open_hands`` every move is
        public but player 0's janken pick, still a choice not yet made for
        player 1 (MP-4, MP-Q3).

        >>> import cardlab
        >>> s = cardlab.load("mipig", hand_size=2, first_player=0).new_initial_state(seed=1)
        >>> a = s.legal_actions()[0]
        >>> a, s.public_action(a, 0), s.public_action(a, 1)
        ('place p05 0,0', 'place p05 0,0', 'place ?? 0,0')
        """
        k = self._k
        words = action.split()
        if viewer == self.current_player:
            return action
        if words[0] in ("show", "pick") and k[1] == 0:
            return f"{words[0]} ??"
        if self.game.options["open_hands"]:
            return action
        if words[0] == "place":
            return f"place ?? {words[2]}"
        if words[0] == "deal":
            owner = 0 if len(k[4]) < self.game.n else 1
            return action if viewer == owner else "deal ??"
        if words[0] in ("show", "pick") and k[1] == 0:
            return f"{words[0]} ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        """What ``player`` cannot see (MP-Q6), in this order: player 0's
        pending card of the first-player janken (for player 1, MP-4), the
        rest of the opponent's hand 手札, each face-down opponent card on the
        field (by square), player 0's pending mark of the end janken (for
        player 1, MP-Q3: the three marks are three more "cards", one picked),
        and last the cards dealt to nobody (a random deal) with the two marks
        not picked.  Own cards, face-up cards and graveyards 墓地 stay where
        they are; a card the opponent showed in the janken (MP-4) is theirs,
        in the hand or face down.

        The unseen cards of a random deal (MP-3): with ``deal="own"`` the
        opponent's own copy of the card set less the opponent's cards seen
        (so they may be cards ``player`` holds too); with ``deal="shared"``
        the one card set less every card seen, ``player``'s own included.

        ``build`` returns ``None`` for a filling the player can rule out
        (:meth:`possible`): a shown card dealt to nobody, marks that
        contradict how the first player was decided (MP-Q2), an end janken
        that does not fit the marks (MP-25, MP-Q3).  Every filling weighs
        the same: a pending card is any card of the hand, a pending mark any
        legal mark, each as likely (with ``tiebreak_cards='all_on_field'``
        the legal marks may depend on unseen cards: a deal with more of them
        then weighs more).
        """
        g = self.game
        if g.options["open_hands"]:
            return None
        k = self._k
        o = 1 - player
        fld = k[6]
        slots, visible, mine = self._sides(player)
        seen = Counter(visible)
        if g.fixed_hands is not None:  # the ready hands are known to both: only where the cards are is not
            left = Counter(g.fixed_hands[o])
            left.subtract(seen)
            cards = sorted(left.elements())
        else:  # MP-3: the rest of the opponent's own copy (deal='own'), or of the one shared set
            cards = [c for c in range(len(g.ids)) if c not in seen and not (g.shared and c in mine)]
        pick_card = k[0] == JANKEN and k[10] >= 0 and o == 0
        pick_mark = k[0] == TIEBREAK and k[10] >= 0 and o == 0
        n_hand = len(k[4 + o])
        places = [("janken pick", 1)] if pick_card else []
        places.append(("opponent hand", n_hand - pick_card))
        places += [("face down {},{}".format(*self._name(fld[i] >> _SHIFT)), 1) for i in slots]
        if pick_mark:
            places.append(("end janken pick", 1))
        rest = len(cards) - n_hand - len(slots) + 2 * pick_mark
        if rest or g.fixed_hands is None:
            places.append(("dealt to nobody" if g.fixed_hands is None else "marks not picked", rest))

        def build(contents: tuple[tuple, ...]) -> MipigState | None:
            parts = iter(contents)
            new = list(k)
            if pick_card:
                (new[10],) = next(parts)
                new[4 + o] = tuple(sorted(next(parts) + (new[10],)))
            else:
                new[4 + o] = next(parts)
            placed = [next(parts)[0] for _ in slots]
            if pick_mark:
                (mark,) = next(parts)
                if not isinstance(mark, str) or any(isinstance(c, str) for c in placed):
                    return None  # a mark among the cards, or a card picked as a mark
                new[10] = MARKS.index(mark)
            cells = list(fld)
            for i, c in zip(slots, placed):
                cells[i] = (cells[i] & ~_CARD_MASK) | (c << 2)
            new[6] = tuple(sorted(cells))
            t = MipigState(g, tuple(new), self._o)
            return t if t.possible() else None

        return Hidden(tuple(cards) + (MARKS if pick_mark else ()), tuple(places), build)

    def _sides(self, player: int) -> tuple[list[int], list[int], set[int]]:
        """What ``player`` knows of the cards, for :meth:`hidden` and
        :meth:`redeal`: the field indices of the opponent's face-down cards,
        the opponent's cards seen (face up on the field, shown in the
        first-player janken, MP-4) and every card of ``player``'s own."""
        k, o = self._k, 1 - player
        fld = k[6]
        slots = [i for i, v in enumerate(fld) if not v & 1 and (v >> 1) & 1 == o]
        visible = [(v >> 2) & 1023 for v in fld if v & 1 and (v >> 1) & 1 == o] + list(k[7 + o])
        mine = set(k[4 + player]) | set(k[7 + player]) | {(v >> 2) & 1023 for v in fld if (v >> 1) & 1 == player}
        return slots, visible, mine

    def possible(self) -> bool:
        """Whether this position can be reached from its own cards, for the
        checks an information set leaves out: the cards shown in the
        first-player janken belong to their players (MP-4); the marks of the
        two hands allowed a janken winner exactly when a janken was played
        (MP-Q2); the end janken fits the marks of the remaining cards (a
        pending mark is one of them, a tied round needs a mark in common, a
        win a mark that beats, MP-25, MP-Q3); the rest of the end follows
        from the cards (MP-23, MP-24).  :meth:`hidden` and :meth:`redeal`
        keep only such positions."""
        k = self._k
        g = self.game
        own = [set(k[4 + p]) | set(k[7 + p]) | {(v >> 2) & 1023 for v in k[6] if (v >> 1) & 1 == p}
               for p in (0, 1)]
        if not (set(k[11]) <= own[0] and set(k[12]) <= own[1]):
            return False
        marks = {g.mark[c] for c in own[0] | own[1]}
        locked = _locked({g.mark[c] for c in own[0]}, {g.mark[c] for c in own[1]})
        if (k[3] == 4 and not locked) or ((k[0] == JANKEN or k[3] in (2, 5)) and len(marks) < 2):
            return False
        if k[3] == 4 and len(marks) > 1 and not (k[11] or k[12]) and not g.options["open_hands"]:
            return False  # a tie that cannot break, with more than one mark: a janken was played
        if k[0] not in (TIEBREAK, END):
            return True
        end = self._finish()  # how the battle ended with these cards
        if end._k[0] == END:
            return end._k == k
        if k[0] == END and k[1] == 0:  # it ended without the janken that these cards call for
            return False
        m0, m1 = self._tiebreak_marks(0), self._tiebreak_marks(1)
        if k[9] and not set(m0) & set(m1):
            return False
        if k[0] == TIEBREAK:
            return k[10] < 0 or k[10] in m0
        won = k[13]
        if won == 0:  # a draw: after the last allowed tie, or a tie that cannot break (MP-Q3)
            return (g.rounds is not None and k[9] == g.rounds) or _locked(m0, m1)
        return any(janken_beats(a, b) if won > 0 else janken_beats(b, a) for a in m0 for b in m1)

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MipigState":
        """Deal anew every card ``player`` cannot see: the opponent's hand and
        face-down cards (keeping the cards the opponent showed in the janken,
        MP-4), and the opponent's pending janken pick.  A deal the player
        could rule out (:meth:`possible`) is dealt again."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        for _try in range(1000):
            t = self._deal_unseen(player, rng)
            if t.possible():
                return t
        return self  # pragma: no cover (the pool is narrowed so that nearly every deal fits)

    def _deal_unseen(self, player: int, rng: random.Random) -> "MipigState":
        """One random deal of what ``player`` cannot see (:meth:`redeal`)."""
        g = self.game
        k = list(self._k)
        o = 1 - player
        fld = list(k[6])
        slots, visible, mine = self._sides(player)
        n_hand = len(k[4 + o])
        need = n_hand + len(slots)
        if g.fixed_hands is not None:
            left = Counter(g.fixed_hands[o])
            left.subtract(visible)
            chosen = list(left.elements())
        else:
            known = set(visible)
            forced = [c for c in k[11 + o] if c not in known]
            pool = [c for c in range(len(g.ids))  # MP-3: own copies, or the rest of one shared set
                    if c not in known and c not in forced and not (g.shared and c in mine)]
            if k[3] == 4:  # a tie that could not break: the opponent's marks are K or the one K beats
                marks = {g.mark[c] for c in mine}
                fits = {m for K in marks if not tie_can_break(K, marks)
                        for m in range(3) if m == K or janken_beats(K, m)}
                pool = [c for c in pool if g.mark[c] in fits]
            chosen = forced + rng.sample(pool, need - len(forced))
        rng.shuffle(chosen)
        k[4 + o] = tuple(sorted(chosen[:n_hand]))
        for i, c in zip(slots, chosen[n_hand:]):
            fld[i] = (fld[i] & ~_CARD_MASK) | (c << 2)
        k[6] = tuple(sorted(fld))
        if k[10] >= 0 and o == 0 and k[1] == 1:  # the opponent's pending pick, unseen
            if k[0] == JANKEN:
                k[10] = rng.choice(sorted(set(k[4])))
            elif k[0] == TIEBREAK:
                s = MipigState(g, tuple(k), self._o)
                k[10] = rng.choice(s._tiebreak_marks(0))
        return MipigState(g, tuple(k), self._o)

    def heuristic(self, player: int) -> float:
        """Face-up lead, plus a little for own face-down cards that can still attack."""
        if self._k[0] == END:
            return 100.0 * float(self.returns()[player])
        occ = {v >> _SHIFT: v for v in self._k[6]}
        ready = 0
        for pos, v in occ.items():
            if not v & 1 and (v >> 1) & 1 == player:
                if any(w is not None and (w >> 1) & 1 != player
                       for w in (occ.get(pos + d) for d in (-_XSTEP, _XSTEP, -1, 1))):
                    ready += 1
        return self.face_up_count(player) - self.face_up_count(1 - player) + 0.3 * ready

    # -- saving and showing ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        k = self._k
        g = self.game
        ids = g.ids
        pending = None
        if k[10] >= 0:
            pending = ids[k[10]] if k[0] == JANKEN else MARKS[k[10]]
        return {
            "game": "mipig",
            "options": g.options_dict(),
            "phase": PHASES[k[0]],
            "to_move": k[1],
            "first_player": None if k[2] < 0 else k[2],
            "decided_by": HOWS[k[3]],
            "hands": [self.hand(0), self.hand(1)],
            "field": [{"x": x, "y": y, "owner": o, "card": ids[c], "face_up": bool(u)}
                      for x, y, c, o, u in self.cells()],
            "graveyards": [self.hand_ids(k[7]), self.hand_ids(k[8])],
            "janken_round": k[9],
            "pending": pending,
            "shown": [self.hand_ids(k[11]), self.hand_ids(k[12])],
            "outcome": None if k[13] is None else str(k[13]),
        }

    def __str__(self) -> str:
        k = self._k
        g = self.game
        ph = PHASES[k[0]]
        if k[0] == END:
            o = k[13]
            res = (pgettext("mipig", "draw 引き分け") if o == 0 else pgettext("mipig", "player {player} wins 勝ち").format(player=0 if o > 0 else 1)
                   if g.options["payoff"] == "win" and Fraction(o).denominator == 1
                   else _("value {value}").format(value=o))
            head = _("game over ゲーム終了 · {result}").format(result=res)
        elif k[0] in (DEAL, COIN):
            head = _(PHASE_TERM[ph])
        else:
            head = _("player {player} to move · {phase}").format(player=k[1], phase=_(PHASE_TERM[ph]))
        lines = [_("mipig (mipigトレーディングカード) · {head}").format(head=head)]
        if k[2] >= 0:
            lines.append(_("  first player 先攻: {player} ({how})").format(player=k[2], how=how_text(HOWS[k[3]])))
        for p in (0, 1):
            lines.append(_("  player {player}: hand 手札 [{hand}] · graveyard 墓地 [{graveyard}] · face up 表向き "
                           "{count}").format(player=p, hand=" ".join(self.hand(p)) or "—",
                                             graveyard=" ".join(self.hand_ids(k[7 + p])) or "—",
                                             count=self.face_up_count(p)))
        if k[10] >= 0:
            lines.append(_("  pending pick: {pick}").format(
                pick=g.ids[k[10]] if k[0] == JANKEN else mark_word(MARKS[k[10]])))
        cells = self.cells()
        if cells:  # the squares by name (MP-Q4): the first card laid is on 0,0
            x0, y0 = self._o
            w = max(x for x, *_ in cells) + 1 - x0
            h = max(y for _, y, *_ in cells) + 1 - y0
            grid = [["   .    "] * w for _ in range(h)]
            for x, y, c, o, u in cells:
                grid[y - y0][x - x0] = f"{o}:{g.ids[c]:<4}{'▲' if u else '▽'} "[:8].ljust(8)
            lines.append(_("  field フィールド (owner:card, ▲ face up 表, ▽ face down 裏):"))
            lines.append("      " + "".join(f"x={x:<6}" for x in range(x0, x0 + w)))
            for y in range(h):
                lines.append(f"  y={y + y0:<2} " + "".join(grid[y]).rstrip())
        return "\n".join(lines)


# -- positions from dicts ------------------------------------------------------------
def _from_dict(g: Mipig, d: Mapping[str, Any]) -> MipigState:
    """The position ``d`` (:meth:`MipigState.to_dict`), checked (issue J) or refused with a
    :class:`PositionError` naming the field: types (players are 0 or 1, not 0.0 or True;
    card ids are strings of the card set), each player's cards all somewhere once (MP-3, the
    ready hands of the option ``hands``), what each phase requires (the deal only without
    ready hands; a janken or a coin only with the option first_player that calls for it, and
    the cards shown fit its rounds and result, MP-4, MP-Q2; a placement that can be laid card
    by card alternating from the first player, MP-5 … MP-7; empty hands from the battle on,
    MP-9), and the end as a property of the cards: a battle in which nobody can attack is
    over, the end janken and the end need that nobody can attack and that a battle was
    fought, and the outcome is the one the face-up cards and the end janken give (MP-23 …
    MP-25, MP-Q3).  A battle field is checked square by square too (:func:`_battle_misfit`):
    the placement's one group less the cards that left it, face-up cards next to the cards
    they fought, and the attacks and passes that turned them up.
    """
    fields = ["phase", "to_move", "first_player", "decided_by", "hands", "field", "graveyards",
              "janken_round", "pending", "shown", "outcome"]
    check_keys(d, fields, "mipig")
    opts = d.get("options")  # missing: the game's own options
    if opts is not None and (not isinstance(opts, Mapping) or dict(opts) != g.options_dict()):
        raise PositionError(_("mipig: the position was saved with options {saved}; this game has {options}: "
                              "load it with those options").format(saved=_short(opts),
                                                                   options=_short(g.options_dict())))

    def err(fld: str, why: str) -> PositionError:
        return PositionError(_("mipig: field {field}: {why}").format(field=repr(fld), why=why))

    def player(v: Any, fld: str) -> int:
        if type(v) is not int or v not in (0, 1):  # not True, not 0.0
            raise err(fld, _("must be 0 or 1, got {value}").format(value=_short(v)))
        return v

    def word(v: Any, fld: str, words: Sequence[str]) -> int:
        if not isinstance(v, str) or v not in words:
            raise err(fld, _("{value} unknown; one of {words}").format(value=_short(v),
                                                                      words=", ".join(map(repr, words))))
        return words.index(v)

    ph = word(d["phase"], "phase", PHASES)
    mover = player(d["to_move"], "to_move")
    first = -1 if d["first_player"] is None else player(d["first_player"], "first_player")
    how = word(d["decided_by"], "decided_by", HOWS)
    fp = g.options["first_player"]
    if ph == COIN and how < 3:
        raise err("decided_by", _("a coin is tossed for {how3}, {how4} or {how5}, not {how} (MP-Q2)").format(
            how3=repr(HOWS[3]), how4=repr(HOWS[4]), how5=repr(HOWS[5]), how=repr(d["decided_by"])))
    if (first < 0) != (ph in (DEAL, JANKEN, COIN)) or (first < 0) != (how == 0 or ph == COIN):
        raise err("first_player", _("{first} with decided_by {how} does not fit phase {phase} (the first player "
                                    "is known from placement on)").format(
            first=repr(first if first >= 0 else None), how=repr(d["decided_by"]), phase=repr(d["phase"])))
    # MP-4, MP-Q2: how the first player is decided is the option's
    if how and how not in {0: (1,), 1: (1,), "random": (3,), "janken": (2, 4, 5)}[fp]:
        raise err("decided_by", _("{how} does not fit the option first_player={option} (MP-4, MP-Q2)").format(
            how=repr(d["decided_by"]), option=repr(fp)))
    if how == 1 and first != fp:
        raise err("first_player", _("the option first_player={option} makes player {option} first, not "
                                    "{first}").format(option=fp, first=first))
    if ph == COIN and mover != 0:
        raise err("to_move", _("a coin is chance's move: to_move is 0 (MP-Q2)"))
    if ph == JANKEN and fp != "janken":
        raise err("phase", _("a janken for the first player needs the option first_player='janken', "
                             "this game has {option} (MP-4, MP-Q2)").format(option=repr(fp)))
    if ph == DEAL and g.fixed_hands is not None:
        raise err("phase", _("nothing is dealt with ready hands (the option hands): the game starts after the "
                             "deal"))

    def ids_list(obj: Any, fld: str) -> tuple:
        if not isinstance(obj, list):
            raise err(fld, _("must be a list of card ids, got {value}").format(value=_short(obj)))
        out = []
        for cid in obj:
            if not isinstance(cid, str) or cid not in g.index:
                raise err(fld, _("card {card} is not in the card set {where}").format(card=_short(cid),
                                                                                     where=g.card_set.where))
            out.append(g.index[cid])
        return tuple(sorted(out))

    def pair(obj: Any, fld: str) -> list:
        if not isinstance(obj, list) or len(obj) != 2:
            raise err(fld, _("must be a list of two entries (players 0, 1)"))
        return obj

    hands = [ids_list(h, f"hands[{i}]") for i, h in enumerate(pair(d["hands"], "hands"))]
    graves = [ids_list(h, f"graveyards[{i}]") for i, h in enumerate(pair(d["graveyards"], "graveyards"))]
    shown = [ids_list(h, f"shown[{i}]") for i, h in enumerate(pair(d["shown"], "shown"))]
    if not isinstance(d["field"], list):
        raise err("field", _("must be a list of {x, y, owner, card, face_up}"))
    raw = []
    for i, c in enumerate(d["field"]):
        if not isinstance(c, Mapping) or set(c) != {"x", "y", "owner", "card", "face_up"}:
            raise err(f"field[{i}]", _("each cell needs exactly x, y, owner, card, face_up"))
        x, y, o, u = c["x"], c["y"], c["owner"], c["face_up"]
        if not all(type(v) is int for v in (x, y)):
            raise err(f"field[{i}]", _("x and y must be whole numbers, got {x}, {y}").format(x=_short(x), y=_short(y)))
        o = player(o, f"field[{i}].owner")
        if not isinstance(u, bool):
            raise err(f"field[{i}].face_up", _("must be true or false, got {value}").format(value=_short(u)))
        if not isinstance(c["card"], str) or c["card"] not in g.index:
            raise err(f"field[{i}].card", _("{card} is not in the card set {where}").format(
                card=_short(c["card"]), where=g.card_set.where))
        raw.append((x, y, g.index[c["card"]], o, int(u)))
    if len({(x, y) for x, y, *_ in raw}) != len(raw):
        raise err("field", _("two cards on one square"))
    origin = (0, 0)
    if raw:  # MP-Q4: x, y are the squares' names; the key is translated, the names are kept
        origin = min(r[0] for r in raw), min(r[1] for r in raw)
        raw = [(x - origin[0], y - origin[1], c, o, u) for x, y, c, o, u in raw]
        if max(max(r[0], r[1]) for r in raw) > 30:  # the packed key holds spans up to 31 squares
            raise err("field", _("the cards may span at most 31 squares across and down"))
    fld = tuple(sorted(_pack(*r) for r in raw))
    rnd = d["janken_round"]
    top = 0 if g.rounds is None else g.rounds - 1 if ph in (JANKEN, TIEBREAK) else g.rounds if ph == END else 0
    if type(rnd) is not int or not 0 <= rnd <= top:
        raise err("janken_round", _("must be a whole number from 0 to {top} in phase {phase} (janken_rounds is "
                                    "{rounds}, MP-Q2, MP-Q3), got {value}").format(
            top=top, phase=repr(d["phase"]), rounds=g.rounds, value=_short(rnd)))
    pend = d["pending"]
    pending = -1
    if pend is not None:
        if ph == JANKEN and mover == 1 and isinstance(pend, str) and g.index.get(pend, -1) in hands[0]:
            pending = g.index[pend]
        elif ph == TIEBREAK and mover == 1 and isinstance(pend, str) and pend in MARKS:
            pending = MARKS.index(pend)
        else:
            raise err("pending", _("{value} is not a pending pick here: only player 0's card (janken) "
                                   "or mark (tiebreak) while player 1 picks").format(value=_short(pend)))
    elif ph in (JANKEN, TIEBREAK) and mover == 1:
        raise err("pending", _("player 1 picks after player 0: player 0's pick is missing"))
    out = d["outcome"]
    outcome: Any = None
    if ph == END:
        if not isinstance(out, str) or not re.fullmatch(r"-?\d{1,9}(/\d{1,9})?", out) or out.endswith("/0"):
            raise err("outcome", _("the end needs player 0's result as a string like '1', '-1', '1/3', "
                                   "got {value}").format(value=_short(out)))
        outcome = Fraction(out)
        bound = g.spec.max_utility
        if not -bound <= outcome <= bound:
            raise err("outcome", _("{value} is outside [{low}, {high}]").format(value=repr(out), low=-bound,
                                                                               high=bound))
        outcome = int(outcome) if outcome.denominator == 1 else outcome
    elif out is not None:
        raise err("outcome", _("only an ended game has an outcome"))

    # every player's cards are all somewhere, each once
    n = g.n
    own = [Counter(hands[p]) + Counter(graves[p]) + Counter(c for _, _, c, o, _ in raw if o == p)
           for p in (0, 1)]
    if ph == DEAL:
        if raw or graves[0] or graves[1] or len(hands[0]) > n or (hands[1] and len(hands[0]) < n) \
                or len(hands[1]) >= n or mover != (0 if len(hands[0]) < n else 1):
            raise err("hands", _("while dealing: player 0 gets all cards first, nothing is on the field, "
                                 "and to_move is the player being dealt"))
    else:
        for p in (0, 1):
            if sum(own[p].values()) != n:
                raise err("hands", _("player {player} has {count} cards in hand, field and graveyard; hand_size "
                                     "is {n}").format(player=p, count=sum(own[p].values()), n=n))
    if g.fixed_hands is not None:
        for p in (0, 1):
            if own[p] != Counter(g.fixed_hands[p]):
                raise err("hands", _("player {player}'s cards are not the ready hand of the option "
                                     "hands[{player}]").format(player=p))
    else:  # MP-3: a dealt hand has no card twice; one shared card set has no card in both hands
        for p in (0, 1):
            twice = sorted(c for c, v in own[p].items() if v > 1)
            if twice:
                raise err("hands", (_("player {player} holds {card} twice") if g.shared else
                                    _("player {player} holds {card} twice; with deal='own' a card may be in both "
                                      "players' cards, once in each")).format(player=p, card=g.ids[twice[0]]))
        both = sorted(set(own[0]) & set(own[1]))
        if g.shared and both:
            raise err("hands", _("{card} is in both players' cards; with deal='shared' the hands come from one "
                                 "card set (deal='own': each player's own copy)").format(card=g.ids[both[0]]))
    for p in (0, 1):
        if not set(shown[p]) <= set(own[p]):
            raise err(f"shown[{p}]", _("a shown card must be one of that player's cards"))
        if len(set(shown[p])) != len(shown[p]):
            raise err(f"shown[{p}]", _("lists each card shown once (MP-4)"))
    why = _shown_misfit(g, shown, ph, how, rnd, first)
    if why:
        raise err("shown", why)
    if g.options["open_hands"]:  # everything is visible: what was shown adds nothing
        shown = [(), ()]
    ups = sum(u for *_, u in raw)
    if ph in (DEAL, JANKEN, COIN) and (raw or graves[0] or graves[1]):
        raise err("field", _("the field is empty before placement (phase {phase})").format(phase=repr(d["phase"])))
    if ph == PLACE:
        if ups or graves[0] or graves[1]:
            raise err("field", _("during placement every card is face down and nobody has lost one (MP-5)"))
        placed = [sum(1 for r in raw if r[3] == p) for p in (0, 1)]
        f = first
        expect = f if placed[f] == placed[1 - f] else 1 - f if placed[f] == placed[1 - f] + 1 else None
        if expect is None or expect != mover or not hands[mover]:
            raise err("to_move", _("placement alternates from the first player (MP-5): with {placed} cards "
                                   "placed player {player} moves").format(placed=placed, player=expect))
        if not _connected([(x, y) for x, y, *_ in raw]):
            raise err("field", _("during placement the cards form one group touching along edges (MP-7)"))
        if not _buildable([(x, y, o) for x, y, _, o, _ in raw], first):
            raise err("field", _("no placement alternating from the first player, each card touching an "
                                 "earlier one, gives this field (MP-5, MP-7)"))
    if ph in (BATTLE, TIEBREAK, END) and (hands[0] or hands[1]):
        raise err("hands", _("the battle starts when both hands are empty (MP-9)"))
    if ph in (BATTLE, TIEBREAK, END):
        why = _battle_misfit(raw, graves, first, mover if ph == BATTLE else -1, origin)
        if why:
            raise err("field", why)
    key = (ph, mover, first, how, hands[0], hands[1], fld, graves[0], graves[1], rnd, pending,
           shown[0], shown[1], outcome)
    s = MipigState(g, key, origin)
    if ph == BATTLE:
        if _attackers(fld) == (False, False):
            raise err("phase", _("nobody can attack: the game is over (MP-23); use phase 'end'"))
    if ph in (TIEBREAK, END) and not ups:  # MP-15: every battle leaves a face-up card on the field
        raise err("field", _("the battle ends after an attack, which leaves a face-up card on the field "
                             "(MP-12, MP-15, MP-23)"))
    if ph in (TIEBREAK, END) and _attackers(fld) != (False, False):
        raise err("phase", _("a face-down card can still attack: the battle goes on (MP-23), not {phase}").format(
            phase=repr(d["phase"])))
    if ph == TIEBREAK:
        if s._finish()._k[0] != TIEBREAK:
            raise err("phase", _("the end janken needs equal face-up counts, the option tiebreak='janken' and "
                                 "marks that can break the tie (MP-25, MP-Q3)"))
    if ph == END:
        why = _end_misfit(s)
        if why:
            raise err("outcome", why)
    if not s.possible():
        raise err("shown" if ph not in (TIEBREAK, END) else "phase",
                  _("the marks of the cards do not fit how the first player was decided or how the end "
                    "janken went (MP-4, MP-Q2, MP-25, MP-Q3)"))
    return s


def _ties_needed(t0: Sequence[int], t1: Sequence[int], mark: Sequence[int]) -> int | None:
    """MP-Q2: the fewest tied janken rounds (equal marks) that show the cards ``t0`` of
    player 0 and ``t1`` of player 1; ``None`` if no tied rounds can (a mark on one side only)."""
    c0, c1 = Counter(mark[c] for c in t0), Counter(mark[c] for c in t1)
    if set(c0) != set(c1):
        return None
    return sum(max(c0[m], c1[m]) for m in c0)


def _shown_misfit(g: Mipig, shown: list, ph: int, how: int, rnd: int, first: int) -> str:
    """Why the cards shown in the first-player janken (MP-4, MP-Q2) cannot be those of this
    position ("" if they can).  Every round shows one card of each player; a tie (equal marks)
    repeats, up to janken_rounds rounds; a win ends the janken.  With open hands nothing is
    kept as shown (an open copy of a hidden position drops it)."""
    s0, s1 = shown
    empty = not s0 and not s1
    if g.options["open_hands"] and empty:
        return ""
    mark = g.mark
    if how == 4 and not empty:  # tied rounds, the last on a mark that no card beats (MP-Q2)
        need = _ties_needed(s0, s1, mark)
        if need is None or (g.rounds is not None and need > g.rounds):
            if g.rounds is None:
                return _("a tie that cannot break ends tied janken rounds (equal marks), one card of each "
                         "player a round (MP-4, MP-Q2)")
            return _("a tie that cannot break ends tied janken rounds (equal marks), one card of each "
                     "player a round, at most {rounds} (MP-4, MP-Q2)").format(rounds=g.rounds)
        return ""
    if ph == DEAL or how in (1, 3, 4):
        return "" if empty else _("no janken was played for the first player here: nothing was shown")
    if ph == JANKEN and g.rounds is None:  # no cap: the tied rounds are not counted (any number)
        if _ties_needed(s0, s1, mark) is None:
            return _("tied janken rounds (equal marks) show one card of each player a round (MP-4, MP-Q2)")
        return ""
    if ph == JANKEN or how == 5:
        ties = rnd if ph == JANKEN else g.rounds
        need = _ties_needed(s0, s1, mark)
        if need is None or need > ties or (empty and ties and not g.options["open_hands"]):
            return _("{ties} tied janken rounds (equal marks) show one card of each player a round, "
                     "each card shown is kept (MP-4, MP-Q2)").format(ties=ties)
        return ""
    if how == 2:  # tied rounds, then a decisive one: its winner goes first
        for a in s0:
            for b in s1:
                if janken_beats(mark[a], mark[b]) != (first == 0) or mark[a] == mark[b]:
                    continue
                for t0 in ([c for c in s0 if c != a], s0):
                    for t1 in ([c for c in s1 if c != b], s1):
                        need = _ties_needed(t0, t1, mark)
                        if need is not None and need < g.cap:
                            return ""
        if g.rounds is None:
            return _("player {player} won the janken (MP-4): the cards shown are the winning pair and the "
                     "tied rounds before it (MP-Q2)").format(player=first)
        return _("player {player} won the janken (MP-4): the cards shown are the winning pair and the "
                 "tied rounds before it, fewer than {rounds} (MP-Q2)").format(player=first, rounds=g.rounds)
    return ""


def _end_misfit(s: MipigState) -> str:
    """Why this end cannot follow from its cards (MP-23 … MP-25, MP-Q3), "" if it can."""
    k = s._k
    g = s.game
    end = s._finish()  # how the battle ended with these cards
    if end._k[0] == END:
        if end._k != k:
            return _("with these cards the game ends at once with player 0's outcome {outcome} "
                     "(janken_round 0, to_move 0; MP-24, MP-25)").format(outcome=end._k[13])
        return ""
    if k[1] != 1:
        return _("equal face-up counts go to the end janken (MP-25), which ends with player 1's pick (to_move 1)")
    won = k[13]
    if won not in (1, 0, -1):
        return _("the end janken is won, lost or drawn: '1', '-1' or '0' (MP-25, MP-Q3)")
    m0, m1 = s._tiebreak_marks(0), s._tiebreak_marks(1)
    if won == 0 and _locked(m0, m1) and (g.rounds is None or k[9] <= g.rounds):
        return ""  # a tie that cannot break: a draw (MP-Q3)
    if g.rounds is None and won == 0:
        return _("with no cap on tied rounds (janken_rounds=None) the end janken is picked again until it "
                 "breaks or ties on a mark no counted card beats (MP-Q3)")
    if (won == 0) != (k[9] == g.rounds):
        return _("the end janken is drawn after {rounds} tied rounds (janken_round {rounds}) and "
                 "won before (MP-Q3)").format(rounds=g.rounds)
    return ""


def _free_spots(fld: tuple) -> list[tuple[int, int]]:
    """MP-6, MP-7: the empty squares sharing a full edge with a card, in key
    coordinates, sorted (``(0, 0)`` on an empty field: the first card's square, MP-Q4)."""
    if not fld:
        return [(0, 0)]
    occ = {((v >> _SHIFT) >> 5, (v >> _SHIFT) & 31) for v in fld}
    return sorted({(x + dx, y + dy) for x, y in occ for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - occ)


def _attackers(fld: tuple, occ: dict | None = None) -> tuple[bool, bool]:
    """For players 0 and 1: has a face-down card touching an opponent card (MP-11, MP-16, MP-17)."""
    if occ is None:
        occ = {v >> _SHIFT: v for v in fld}
    can = [False, False]
    for v in fld:
        if not v & 1:
            p = (v >> 1) & 1
            if can[p]:
                continue
            pos = v >> _SHIFT
            for d in (-_XSTEP, _XSTEP, -1, 1):
                w = occ.get(pos + d)
                if w is not None and (w >> 1) & 1 != p:
                    can[p] = True
                    break
            if can[0] and can[1]:
                break
    return can[0], can[1]


def _connected(points: list[tuple[int, int]]) -> bool:
    if not points:
        return True
    pts = set(points)
    todo = [points[0]]
    seen = {points[0]}
    while todo:
        x, y = todo.pop()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if q in pts and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(pts)


def _buildable(cells: list[tuple[int, int, int]], first: int) -> bool:
    """MP-5 … MP-7: whether the cards ``(x, y, owner)`` can be laid one by one, the owners
    alternating from ``first``, each card after the first touching an earlier one along an
    edge.  Exact: take back the last card (the right owner's, touching the rest) and recurse."""
    where = {(x, y): i for i, (x, y, _) in enumerate(cells)}
    nb = [sum(1 << where[q] for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if q in where)
          for x, y, _ in cells]
    owner = [o for *_, o in cells]
    memo: dict[int, bool] = {}

    def joined(mask: int) -> bool:  # the cards of ``mask`` form one group
        seen = todo = mask & -mask
        while todo:
            i = (todo & -todo).bit_length() - 1
            todo &= todo - 1
            new = nb[i] & mask & ~seen
            seen |= new
            todo |= new
        return seen == mask

    def ok(mask: int, size: int) -> bool:
        if size == 1:
            return owner[mask.bit_length() - 1] == first
        got = memo.get(mask)
        if got is None:
            who = first if size % 2 else 1 - first
            got = any(mask >> i & 1 and owner[i] == who and nb[i] & mask and joined(mask ^ (1 << i))
                      and ok(mask ^ (1 << i), size - 1) for i in range(len(cells)))
            memo[mask] = got
        return got

    return not cells or ok((1 << len(cells)) - 1, len(cells))




def _battle_misfit(raw: list, graves: list, first: int, mover: int, origin: tuple[int, int]) -> str:
    """Why the battle field ``raw`` (cells ``(x, y, card, owner, up)``, key coordinates) with
    these graveyards cannot be reached from a placement, "" if it can (J).  The placement
    left one group of cards touching along edges (MP-7); a battle turns both cards up
    (MP-12) and sends the loser to its owner's graveyard (MP-15), leaving its square empty,
    so: the cards now on the field and the lost ones fill one group, each lost card
    joining at most four groups; with nothing lost, the field is the placement's own
    (MP-5 … MP-7).  A face-up card fought a touching opponent card, which is face up now
    or lost (its square empty): never a face-down one.  Each attack turns up one face-down
    card of the attacker (MP-11, MP-16), each battle has one defender and at most one
    loser; the players alternate, and a player passes only once no attack is left to them,
    which stays so (MP-10, MP-18): with ``mover`` to move (-1 at the end)."""
    occ = {(x, y): (o, u) for x, y, _, o, u in raw}
    lost = [len(graves[0]), len(graves[1])]
    near = ((1, 0), (-1, 0), (0, 1), (0, -1))
    for x, y, _c, o, u in raw:
        if u and not any((lost[1 - o] if occ.get((x + dx, y + dy)) is None else
                          occ[(x + dx, y + dy)] == (1 - o, 1)) for dx, dy in near):
            return _("the face-up card on {square} touches no face-up card of player {player} and no empty "
                     "square a lost card of theirs left: it fought none (MP-11, MP-12, MP-15)").format(
                square=f"{x + origin[0]},{y + origin[1]}", player=1 - o)
    groups, seen = 0, set()
    for start in occ:
        if start not in seen:
            groups += 1
            todo = [start]
            seen.add(start)
            while todo:
                x, y = todo.pop()
                for dx, dy in near:
                    q = (x + dx, y + dy)
                    if q in occ and q not in seen:
                        seen.add(q)
                        todo.append(q)
    if groups - 1 > 3 * sum(lost):
        return _("the cards form {groups} groups; the placement laid one (MP-7) and each of the "
                 "{lost} lost cards left one square empty, joining at most four groups (MP-15)").format(
            groups=groups, lost=sum(lost))
    if not sum(lost) and not _buildable([(x, y, o) for x, y, _, o, _ in raw], first):
        return _("nothing was lost, so the field is the placement's: no placement alternating from the "
                 "first player, each card touching an earlier one, gives it (MP-5, MP-7)")
    ups = [sum(1 for *_, o, u in raw if u and o == p) for p in (0, 1)]
    if sum(lost) and not sum(ups):
        return _("every battle leaves its winner (or both cards of a draw) as a face-up card on the field (MP-15)")
    fought = [ups[p] + lost[p] for p in (0, 1)]  # each of them attacked or defended
    can = _attackers(tuple(_pack(x, y, c, o, u) for x, y, c, o, u in raw))
    s = 1 - first
    lag = int(mover == s)  # the first player has had one turn more
    for af in range(fought[first] + 1):
        for a_s in range(fought[s] + 1):
            if af + a_s < max(fought[0], fought[1], sum(lost)):
                continue  # each battle: one defender, at most one loser
            if mover < 0:
                return ""
            if can[first] and can[s]:
                ok = af - a_s == lag  # nobody has passed yet
            elif can[s]:
                ok = af <= a_s + lag  # the first player passes since
            else:
                ok = a_s <= af - lag
            if ok:
                return ""
    counts = dict(up0=ups[0], up1=ups[1], lost0=lost[0], lost1=lost[1])
    if mover >= 0:
        return _("{up0} and {up1} face-up cards and {lost0} and {lost1} lost ones are not what "
                 "alternating attacks (one face-down card of the attacker each, MP-11, MP-16) and passes "
                 "(MP-18) give with player {player} to move").format(player=mover, **counts)
    return _("{up0} and {up1} face-up cards and {lost0} and {lost1} lost ones are more than "
             "the battles can give (one face-down attacker each, MP-11, MP-16; one loser at most, MP-15)"
             ).format(**counts)
