"""Toritsuki card battle (とりつきカードバトル): summon yokai, attack, possess.

Rules: ``docs/rules/toritsuki.md`` (TK-1 … TK-29, TK-Q1 … TK-Q8), from the
seed text ``003_50cbaf1ce9c159c0.txt``.  Rule ids in comments and in
:meth:`ToritsukiState.explain` point there.

Representation.  Each player's cards are counted over the distinct card
numbers of that player's deck ("kinds").  Hands are multisets (count tuples).
Face-down yoki (妖気) are never looked at by anybody and never come back, so
their identity cannot matter: the deck's unknown cards and the face-down yoki
charged from them form one *unseen pool* (a count tuple), and the deck is
only its size ``n`` (plus an optional known ``top`` sequence, public, used by
``known_deck_order`` and by hand-made endgames).  A card taken from the
unknown part of a deck (draw, damage, possession reveal) is a chance outcome
with probability ``count / pool size``, exactly the probability of that card
being on top; charging (TK-12) needs no chance at all.

A yokai on the field is ``(card, rested, moved, bonus)``; a row (前衛 front,
後衛 back) is a sorted tuple of them, since the place inside a row means
nothing (TK-27).  Slots in actions (``F1``, ``B3``) index that sorted row.

Notation (player actions, then chance outcomes)::

    keep / mulligan           TK-3
    summon 12 F               summon card 12 into the front (F) or back (B) row, TK-13
    release B2                all 6 places full: send a yokai to the trash, TK-13
    move F1 / move F1 B2      the listed yokai change rows (front ↔ back), all at once, TK-13
    event 44 F1 / event 48 oB1 / event 41   one event a main phase, TK-13, TK-24
    attack F1 m2              attack with front yokai 1, battle method 2, TK-16 (from the
                              main phase it also ends the main phase, TK-14)
    end                       end the turn (from main: without any attack)
    block B1 m1 / noblock     TK-17, TK-18
    … boost N                 after a summon, attack or block: pay with N face-up
                              damage cards (妖気ブースト) where ready yoki could pay, TK-Q8
    possess deck / possess 12 / pass     とりつく!, TK-19
    shuffle N, deal N, draw N, damage N, reveal N, first K   chance outcomes

Choices where the digest is silent (each tested in ``tests/test_toritsuki.py``):

* Payment (TK-25, TK-26, TK-Q5, TK-Q8).  Which ready yoki pays is never
  asked: face-down yoki are all alike (counts).  Whether to boost is a real
  choice (the position differs), so it is offered: the plain action pays
  ready yoki first and boosts only what they cannot pay; ``… boost N`` turns
  N face-up damage cards down instead.  Paying with yoki first is never
  worse (the yoki come back at the refresh, a boost never does; healing
  takes face-down damage first, so it never favours a boost), but the seed
  leaves the choice to the player.
* Moving (TK-13): the seed sets no limit.  A ``move`` action moves any set
  of yokai between the rows at once (``move F1 B2`` trades two yokai, which
  is how a full row changes), so every arrangement is one action.  The
  moved yokai are marked; while a mark is on the field no other ``move`` is
  offered (a second rearrangement would only compose with the first), and
  any other main action (summon, release, event) takes the marks off.  Only
  moves that reach a new arrangement are offered, each arrangement once (of
  two alike yokai in a row only the first is named; two alike yokai are not
  traded).  Every other main action is irreversible (a card leaves the hand,
  the trash grows, the event is used), so the game graph has no cycle:
  depth-first search, ``tree()`` expansion and random agents always end, and
  a main phase has at most one rearrangement more than its other actions.
  The option ``move_once_per_turn`` restores a house rule (not the seed's):
  each yokai changes rows at most once a turn, and the marks stay until the
  end of the main phase.  Making room (TK-13) is offered only when all 6
  places are full and a yokai in hand can be paid for.
* The first attack ends the main phase (TK-14): there is no separate "go to
  battle" action; ``end`` in the main phase ends the turn without battle.
  Steps with a single possible choice (no attacker left, nothing can block)
  are taken at once.
* The deck runs out (TK-7, TK-Q4) the moment its last card leaves it.
* Icons (TK-23, TK-Q7): the seed gives them no meaning, and the default
  card file has none.  The engine knows two, pierce (貫通: an attacker that
  wins the duel also deals 1 damage) and guard (守り: does not faint on a
  tie); both overturn TK-21 (「勝った場合: 特に無し」, a tie faints both), so
  they appear only in the optional icon file ``cards="icons"``
  (``cardlab/data/toritsuki_icons.json``), as named exceptions.  A
  possessing card may grant an icon (TK-20).
* Tribes (TK-23): the default file has the eight tribes of the original
  franchise (「種族は原作準拠」: プリチー族 Charming … ウスラカゲ族 Shady);
  the cards themselves are cardlab's own.
* Events (TK-Q2): draw, ready yoki, +BP until end of turn, heal (face-down
  damage first, into the trash), banish a low-rank yokai, charge, rest an
  opposing blocker, and one card with its own win condition (TK-8).
* Hidden information (TK-Q6): hands and deck order; face-down yoki are part
  of the unseen pool.  ``open_hands`` makes hands public (the deck stays
  chance); ``known_deck_order`` deals each shuffle's order by chance at once
  and makes it public, so that later play has no chance at all.  Of the
  moves, only a card dealt or drawn into a hand is hidden, from the other
  player (``public_action``); damage and possession reveals are face up.
"""

from __future__ import annotations

import random
import re
from bisect import bisect_right
from collections import Counter
from itertools import combinations
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from ...core import (CHANCE, TERMINAL, Game, Hidden, Option, Spec, State, bool_option, check_keys,
                    make_rng)
from ...cardfile import read_data_file
from ...errors import CardFileError, PositionError
from ...i18n import N_, _, get_language, ngettext, pgettext

__all__ = ["Toritsuki", "ToritsukiState", "Card", "Method", "CardSet", "load_cards",
           "BattleReport", "SideReport", "RANKS", "CATEGORIES", "ICONS"]

RANKS = "EDCBAS"  # rank E (lowest) … S (highest), TK-23
CATEGORIES = ("strike", "skill", "spell")  # 戦 技 術, TK-23
CATEGORY_JA = {"strike": "戦", "skill": "技", "spell": "術"}
ICONS = ("pierce", "guard")  # only in the optional icon file: exceptions to TK-21 (TK-Q7)
ICON_JA = {"pierce": "貫通", "guard": "守り"}
ICON_TEXT = {"pierce": N_("pierce (貫通, an exception to TK-21 from the icon file): a win also deals 1 damage"),
             "guard": N_("guard (守り, an exception to TK-21 from the icon file): no fainting on a tie")}


def category_text(category: str) -> str:
    """A battle method's category (TK-23): ``strike 戦``; in Japanese only ``戦``."""
    return CATEGORY_JA[category] if get_language() == "ja" else f"{category} {CATEGORY_JA[category]}"


def icon_text(icon: str) -> str:
    """An icon's short name (TK-Q7): ``pierce 貫通``; in Japanese only ``貫通``."""
    return ICON_JA[icon] if get_language() == "ja" else f"{icon} {ICON_JA[icon]}"


#: what an event does (TK-Q2), for ``Card.effect_text`` (draw and banish are worded there)
EFFECT_TEXT = {
    "ready_yoki": N_("up to {n} resting yoki (妖気) become ready again"),
    "bp_up": N_("+{n} BP to one of your yokai until the end of the turn"),
    "heal": N_("heal {n} damage: damage cards (face-down ones first) go to the trash"),
    "charge": N_("charge {n}: the deck top goes face down, ready, into the yoki zone (妖気おきば)"),
    "rest": N_("a ready yokai of the opponent's back row rests (休憩), so it cannot block this turn"),
    "win_if_field": N_("win at once with {n} or more of your yokai on the field (TK-8)"),
}
#: the outcome of a BP duel (TK-21), for ``BattleReport.text``
RESULT_TEXT = {"attacker": N_("the attacker wins"), "defender": N_("the blocker wins"), "tie": N_("a tie")}
NAMED_CARDS = {"icons": "toritsuki_icons.json"}  # cards="icons": the optional icon file (TK-Q7)
EVENT_KINDS = {  # kind: parameters it needs (TK-Q2)
    "draw": ("n",), "ready_yoki": ("n",), "bp_up": ("n",), "heal": ("n",),
    "banish": ("rank_max",), "charge": ("n",), "rest": (), "win_if_field": ("n",),
}
HAND_START = 5  # TK-2
_CACHE_SIZE = 4096  # entries per memo table (recent positions only)
DAMAGE_LOSS = 6  # TK-6
ROW = 3  # TK-13

# stages; the key's second field ``tp`` is the turn player (or the player dealt to / deciding a mulligan)
SHUFFLE, DEAL, MULLIGAN, COIN = "shuffle", "deal", "mulligan", "coin"
DRAW, MAIN, EVDRAW, BATTLE = "draw", "main", "evdraw", "battle"
BLOCK, DAMAGE, POSS_A, REVEAL_A, POSS_D, REVEAL_D, DUEL, OVER = (
    "block", "damage", "possess_a", "reveal_a", "possess_d", "reveal_d", "duel", "over")
STAGES = (SHUFFLE, DEAL, MULLIGAN, COIN, DRAW, MAIN, EVDRAW, BATTLE, BLOCK, DAMAGE,
          POSS_A, REVEAL_A, POSS_D, REVEAL_D, OVER)
CHANCE_STAGES = frozenset((SHUFFLE, DEAL, COIN, DRAW, EVDRAW, DAMAGE, REVEAL_A, REVEAL_D))
#: stages that take the top card of a deck, and the verb of their outcome
TAKE_VERB = {SHUFFLE: "shuffle", DEAL: "deal", DRAW: "draw", EVDRAW: "draw",
             DAMAGE: "damage", REVEAL_A: "reveal", REVEAL_D: "reveal"}

_FIELDS = frozenset(("stage", "turn_player", "first_player", "first_turn", "event_used", "pending",
                     "winner", "players", "battle"))
_BATTLE_FIELDS = frozenset(("attacker", "attacker_bonus", "attacker_method", "blocker", "blocker_bonus",
                            "blocker_method", "attacker_possession", "blocker_possession"))
_PLAYER_FIELDS = frozenset(("hand", "unseen", "deck_size", "deck_top", "front", "back", "yoki", "damage", "trash"))

# fields of a player's tuple
H, PO, N, TOP, FR, BK, YR, YS, DU, DD, TR = range(11)

ACTION_RE = re.compile(
    r"keep|mulligan|release [FB][1-3]|move( [FB][1-3]){1,6}"
    r"|(summon \d+ [FB]|attack F[1-3] m[1-9]|block B[1-3] m[1-9])( boost [1-9])?"
    r"|event \d+( o?[FB][1-3])?|end|noblock"
    r"|possess (deck|\d+)|pass|(shuffle|deal|draw|damage|reveal) \d+|first [01]"
)
ROW_NAME = {"F": N_("the front row (前衛)"), "B": N_("the back row (後衛)")}


# -- card data (TK-Q1, TK-Q2, TK-23, TK-24) ------------------------------------
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


def load_cards(source: str | Path | Mapping[str, Any] | None = None) -> CardSet:
    """Read and check a Toritsuki card file (JSON): ``tribes``, ``cards``, ``decks``.

    ``source`` is a path, a parsed dict, ``None`` for cardlab's own set
    (TK-Q1) or ``"icons"`` for the same set with battle-method icons, the
    exceptions to TK-21 (TK-Q7).  Errors are :class:`~cardlab.CardFileError`
    naming the file, the card and the field.

    >>> cs = load_cards()
    >>> len(cs.tribes), sum(c.is_yokai for c in cs.cards.values()) >= 40
    (8, True)
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
    tribes = data.get("tribes")
    if not isinstance(tribes, list) or not tribes or not all(
            isinstance(t, dict) and isinstance(t.get("id"), str) and isinstance(t.get("name", ""), str)
            and isinstance(t.get("japanese", ""), str) and not set(t) - {"id", "name", "japanese"} for t in tribes):
        raise CardFileError(_("{where}: 'tribes' must be a list of objects with an 'id' and 'name' and "
                              "'japanese' strings").format(where=where))
    tribe_ids = tuple(t["id"] for t in tribes)
    tribe_ja = {t["id"]: t.get("japanese", "") for t in tribes}
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise CardFileError(pgettext("toritsuki", "{where}: 'cards' must be a non-empty list of card objects").format(
            where=where))
    cards: dict[int, Card] = {}
    for i, c in enumerate(raw):
        label = f"#{i}"

        def bad(fld: str, why: str) -> CardFileError:
            return CardFileError(pgettext("toritsuki", "{where}: card {card}, field {field}: {why}").format(
                where=where, card=label, field=repr(fld), why=why))

        if not isinstance(c, dict):
            raise bad("-", pgettext("toritsuki", "each card must be a JSON object"))
        if not _int(c.get("no"), 1, 9999):
            raise bad("no", _("the card number must be a whole number 1-9999, got {got}").format(
                got=repr(c.get("no"))))
        shown = c.get("name", "")
        if get_language() == "ja" and isinstance(c.get("japanese"), str) and c["japanese"]:
            shown = c["japanese"]  # the name printed on the card
        label = f"{c['no']} {shown!r}"
        if c["no"] in cards:
            raise bad("no", _("card number used twice"))
        for f in ("name", "japanese"):
            if not isinstance(c.get(f), str) or not c[f]:
                raise bad(f, _("a non-empty string is needed"))
        kind = c.get("type")
        if kind == "event":
            allowed = {"no", "name", "japanese", "type", "effect"}
            if set(c) - allowed:
                raise bad(sorted(set(c) - allowed)[0],
                          _("unknown field for an event; accepted: {fields}").format(fields=sorted(allowed)))
            eff = c.get("effect")
            if not isinstance(eff, dict) or eff.get("kind") not in EVENT_KINDS:
                raise bad("effect", _("must be an object with 'kind' one of {kinds}").format(
                    kinds=sorted(EVENT_KINDS)))
            need = EVENT_KINDS[eff["kind"]]
            if set(eff) - {"kind", *need}:
                raise bad("effect", _("kind {kind} takes only {parameters}").format(
                    kind=repr(eff["kind"]), parameters=list(need) or _("no parameters")))
            value = 0
            if need == ("n",):
                top = 999 if eff["kind"] == "bp_up" else 9
                if not _int(eff.get("n"), 1, top):
                    raise bad("effect", _("'n' must be a whole number 1-{top}, got {got}").format(
                        top=top, got=repr(eff.get("n"))))
                value = eff["n"]
            elif need == ("rank_max",):
                if eff.get("rank_max") not in tuple(RANKS):
                    raise bad("effect", _("'rank_max' must be one of {ranks}, got {got}").format(
                        ranks=list(RANKS), got=repr(eff.get("rank_max"))))
                value = RANKS.index(eff["rank_max"])
            cards[c["no"]] = Card(c["no"], c["name"], c["japanese"], "event", effect=(eff["kind"], value))
            continue
        if kind != "yokai":
            raise bad("type", _("must be 'yokai' or 'event', got {got}").format(got=repr(kind)))
        allowed = {"no", "name", "japanese", "type", "tribe", "rank", "cost", "methods", "possess"}
        if set(c) - allowed:
            raise bad(sorted(set(c) - allowed)[0],
                      _("unknown field for a yokai; accepted: {fields}").format(fields=sorted(allowed)))
        if c.get("tribe") not in tribe_ids:
            raise bad("tribe", _("must be one of the file's tribes {tribes}, got {got}").format(
                tribes=list(tribe_ids), got=repr(c.get("tribe"))))
        if c.get("rank") not in tuple(RANKS):
            raise bad("rank", _("must be one of {values}, got {got}").format(
                values=list(RANKS), got=repr(c.get("rank"))))
        if not _int(c.get("cost"), 0, 9):
            raise bad("cost", _("the summon cost must be a whole number 0-9, got {got}").format(
                got=repr(c.get("cost"))))
        ms = c.get("methods")
        if not isinstance(ms, list) or not 2 <= len(ms) <= 4:
            got = len(ms) if isinstance(ms, list) else repr(ms)
            raise bad("methods", _("a yokai has several battle methods (複数のバトル方法, TK-23): "
                                   "a list of 2 to 4 is needed, got {got}").format(got=got))
        methods = []
        for j, m in enumerate(ms):
            f = f"methods[{j}]"
            if not isinstance(m, dict) or set(m) - {"name", "japanese", "bp", "cost", "category", "icon"}:
                raise bad(f, _("an object with name, japanese, bp, cost, category, icon is needed"))
            if not isinstance(m.get("name"), str) or not isinstance(m.get("japanese", ""), str):
                raise bad(f + ".name", _("name and japanese must be strings"))
            if not _int(m.get("bp"), 0, 999):
                raise bad(f + ".bp", _("BP must be a whole number 0-999, got {got}").format(got=repr(m.get("bp"))))
            if not _int(m.get("cost"), 0, 9):
                raise bad(f + ".cost", _("cost must be a whole number 0-9, got {got}").format(
                    got=repr(m.get("cost"))))
            if m.get("category") not in CATEGORIES:
                raise bad(f + ".category", _("must be one of {values}, got {got}").format(
                    values=list(CATEGORIES), got=repr(m.get("category"))))
            if m.get("icon") not in (None,) + ICONS:
                raise bad(f + ".icon", _("must be null or one of {values}, got {got}").format(
                    values=list(ICONS), got=repr(m.get("icon"))))
            methods.append(Method(m["name"], m.get("japanese", ""), m["bp"], m["cost"], m["category"], m.get("icon")))
        p = c.get("possess")
        if not isinstance(p, dict) or set(p) - {"target", "condition", "bp", "icon"}:
            raise bad("possess", _("an object with target, condition, bp (and optional icon) is needed"))
        if p.get("target") not in ("own", "opponent"):
            raise bad("possess.target", _("must be 'own' or 'opponent', got {got}").format(got=repr(p.get("target"))))
        cond = p.get("condition")
        if not isinstance(cond, dict) or set(cond) - {"tribe", "rank_max", "category"}:
            raise bad("possess.condition", _("an object with some of tribe, rank_max, category is needed"))
        if "tribe" in cond and cond["tribe"] not in tribe_ids:
            raise bad("possess.condition", _("tribe must be one of {values}, got {got}").format(
                values=list(tribe_ids), got=repr(cond["tribe"])))
        if "rank_max" in cond and cond["rank_max"] not in tuple(RANKS):
            raise bad("possess.condition", _("rank_max must be one of {values}, got {got}").format(
                values=list(RANKS), got=repr(cond["rank_max"])))
        if "category" in cond and cond["category"] not in CATEGORIES:
            raise bad("possess.condition", _("category must be one of {values}, got {got}").format(
                values=list(CATEGORIES), got=repr(cond["category"])))
        if not _int(p.get("bp"), -999, 999):
            raise bad("possess.bp", _("a whole number -999..999 is needed, got {got}").format(got=repr(p.get("bp"))))
        if p.get("icon") not in (None,) + ICONS:
            raise bad("possess.icon", _("must be null or one of {values}, got {got}").format(
                values=list(ICONS), got=repr(p.get("icon"))))
        cards[c["no"]] = Card(
            c["no"], c["name"], c["japanese"], "yokai", tribe=c["tribe"], rank=RANKS.index(c["rank"]),
            cost=c["cost"], methods=tuple(methods), target=p["target"], cond_tribe=cond.get("tribe"),
            cond_rank_max=RANKS.index(cond["rank_max"]) if "rank_max" in cond else None,
            cond_category=cond.get("category"), poss_bp=p["bp"], poss_icon=p.get("icon"))
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
        if n > 3:
            raise CardFileError(_("{where}: card {no} {name} appears {n} times; TK-1 allows at most 3 copies of one "
                                  "card number").format(where=where, no=no, name=repr(cards[no].shown_name()), n=n))
    if len(lst) < 30:
        raise CardFileError(_("{where}: the deck has {n} cards; TK-1 needs at least 30").format(
            where=where, n=len(lst)))
    return tuple(sorted(lst))


def _decks_ok(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, (str, Path)):
        return True  # a file, read and checked in _setup
    return (isinstance(value, (list, tuple)) and len(value) == 2
            and all(isinstance(d, str) or isinstance(d, (list, tuple)) for d in value))


def _cards_ok(value: Any) -> bool:
    if value is None:
        return True
    load_cards(value)  # raises CardFileError naming file, card, field
    return True


# -- battle explanation (TK-21) ------------------------------------------------
@dataclass
class SideReport:
    """One side of a BP duel: the chosen BP and every modifier with its source."""

    player: int
    card: int
    name: str
    method: str
    category: str
    base_bp: int
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    icons: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.base_bp + sum(v for _src, v in self.modifiers)

    def text(self) -> str:
        mods = "".join(f" {v:+d} ({src})" for src, v in self.modifiers)
        icons = f" [{'; '.join(_(ICON_TEXT[i]) for i in self.icons)}]" if self.icons else ""
        return _("player {player} {name} {method} ({category}) BP {bp}{modifiers} = {total}{icons}").format(
            player=self.player, name=self.name, method=self.method, category=category_text(self.category),
            bp=self.base_bp, modifiers=mods, total=self.total, icons=icons)


@dataclass
class BattleReport:
    """The BP duel (BP勝負) of one attack: both sides, the winner, who faints."""

    attacker: SideReport
    defender: SideReport
    winner: str  # "attacker", "defender" or "tie"
    fainted: list[str]
    pierce: bool

    def as_dict(self) -> dict[str, Any]:
        def side(s: SideReport) -> dict[str, Any]:
            return {"player": s.player, "card": s.card, "name": s.name, "method": s.method,
                    "category": s.category, "base_bp": s.base_bp,
                    "modifiers": [list(m) for m in s.modifiers], "icons": list(s.icons), "total": s.total}
        return {"attacker": side(self.attacker), "defender": side(self.defender), "winner": self.winner,
                "fainted": list(self.fainted), "pierce": self.pierce}

    def text(self) -> str:
        res = _(RESULT_TEXT[self.winner])
        sep = "、" if get_language() == "ja" else ", "
        faint = _("; faints (気絶): {names}").format(names=sep.join(self.fainted)) if self.fainted else ""
        pierce = _("; pierce (貫通, an exception to TK-21): the defender takes 1 damage") if self.pierce else ""
        return _("BP duel (BP勝負, TK-21): attacker {attacker} vs blocker {blocker}: "
                 "{result}{faints}{pierce}").format(attacker=self.attacker.text(), blocker=self.defender.text(),
                                                     result=res, faints=faint, pierce=pierce)

    __str__ = text


# -- the game -----------------------------------------------------------------
class Toritsuki(Game):
    """Toritsuki card battle (とりつきカードバトル), two players.

    >>> import cardlab
    >>> game = cardlab.load("toritsuki", first_player=0)
    >>> s = game.new_initial_state(seed=1)
    >>> s.current_player, s.legal_actions()
    (0, ['keep', 'mulligan'])
    """

    name = "toritsuki"
    title = N_("Toritsuki card battle (とりつきカードバトル)")
    rules = "toritsuki.md"
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees both hands and unseen cards; the deck order stays chance "
                                     "(TK-Q6)")),
        "known_deck_order": bool_option(
            N_("each shuffle lays out the whole deck order by chance at once, public from then on (TK-Q6)"),
            label=N_("known deck order")),
        "mulligan": bool_option(N_("the optional one-time mulligan (TK-3)"), default=True),
        "move_once_per_turn": bool_option(
            N_("house rule, not the seed's: each yokai changes rows at most once a turn (TK-13)"),
            label=N_("move once per turn")),
        "first_player": Option(None, N_("who goes first: None for a fair coin (chance), or 0 or 1 (TK-Q3)"),
                               choices=(None, 0, 1), check=lambda v: not isinstance(v, bool),
                               accepts=N_("None, 0 or 1"), choice_words={None: N_("a coin (random)")}),
        "cards": Option(None, N_("the card file: None (cardlab's own set), 'icons' (the same set with the "
                                 "battle-method icons pierce 貫通 and guard 守り, exceptions to TK-21, TK-Q7), "
                                 "a JSON path or dict (TK-Q1)"),
                        check=_cards_ok, accepts=N_("None, 'icons', a path to a JSON card file, or a dict")),
        "decks": Option(None, N_("the two decks: None (ready decks A and B), or [deck0, deck1] where each is "
                                 "a deck name of the card file or a list of card numbers (TK-1)"),
                        check=_decks_ok,
                        accepts=N_("None or a list of two decks (names or lists of card numbers)")),
    }
    # the notation, as error messages show it (the quoted actions stay as they are in every language)
    ACTION_GRAMMAR = N_("'keep', 'mulligan', 'summon 12 F', 'release B2', 'move F1', 'move F1 B2', "
                        "'event 44 F1', 'event 48 oB1', 'end', 'attack F1 m2', 'block B1 m1', "
                        "'summon 5 F boost 1' (also after attack and block), "
                        "'noblock', 'possess deck', 'possess 12', 'pass'; chance: 'shuffle N', 'deal N', "
                        "'draw N', 'damage N', 'reveal N', 'first K'")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.cardset = cs
        self.cards = cs.cards
        decks = self.options["decks"]
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
                        
                        where=cs.where, name=_short(d), player=p, decks=sorted(cs.decks)))
                lists.append(cs.decks[d])
            else:
                lists.append(check_deck(list(d), cs.cards, _("deck of player {player}").format(player=p)))
        self.deck_lists = tuple(lists)
        self.kinds = tuple(tuple(sorted(set(lst))) for lst in lists)
        self.index = tuple({no: i for i, no in enumerate(k)} for k in self.kinds)
        self.copies = tuple(Counter(lst) for lst in lists)
        self.kindset = tuple(frozenset(k) for k in self.kinds)
        self.yokai = tuple(frozenset(no for no in k if self.cards[no].is_yokai) for k in self.kinds)
        #: the fewest yokai on the field a card of each deck wins with (TK-8), None without such a card
        self.win_field = tuple(min((self.cards[no].effect[1] for no in k if self.cards[no].effect[:1] == ("win_if_field",)),
                                   default=None) for k in self.kinds)
        #: the most cards one event of each deck draws (TK-Q2): bounds ``pending`` at an event's draw
        self.max_draw = tuple(max((self.cards[no].effect[1] for no in k if self.cards[no].effect[:1] == ("draw",)),
                                  default=0) for k in self.kinds)
        self.saved_options = self.options_dict()
        # legal actions and chance outcomes depend on the key only: memoised
        self._legal_cache: dict = {}
        #: keys written by to_dict (so known valid): state_from_dict skips the checks for them
        self._known: dict = {}
        self._chance_cache: dict = {}

    def _make_spec(self) -> Spec:
        n0, n1 = len(self.deck_lists[0]), len(self.deck_lists[1])
        # Setup: ≤ n0+n1 shuffle outcomes (known_deck_order), 10 deals, 2 mulligan
        # choices and for each mulligan another shuffle (≤ n) and 5 deals, 1 coin.
        setup = 2 * (n0 + n1) + 10 + 2 + 10 + 1
        # After the deal every later card taken from a deck is ≤ 1 chance
        # transition; C such cards exist, C ≤ n0 + n1 − 10 (the game ends when a
        # deck is empty, TK-7).  Every turn charges a card (TK-12), so turns
        # T ≤ C + 1.  A main phase with S summons has ≤ S + 1 releases (only
        # with all 6 places full), ≤ 1 event and ≤ 2S + 3 rearrangements (one
        # before each other main action and one at its end; with
        # move_once_per_turn ≤ 6 + S, each yokai once), so ≤ 4S + 9 decisions;
        # then 1 end of main, ≤ 3 attacks × 4 decisions (attack, block, 2
        # possessions) and 1 end: ≤ 4S + 23 a turn, and ΣS ≤ the cards ever in
        # hand ≤ 10 + C.
        c = n0 + n1 - 10
        return Spec(num_players=2, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=Fraction(-1), max_utility=Fraction(1),
                    max_game_length=setup + c + 4 * (10 + c) + 23 * (c + 1))

    def _root(self) -> "ToritsukiState":
        players = [self._player(p) for p in (0, 1)]
        stage = SHUFFLE if self.options["known_deck_order"] else DEAL
        first = self.options["first_player"]
        key = (stage, 0, -1 if first is None else first, False, False, 0, -1, players[0], players[1], None)
        return ToritsukiState(self, key)

    def _player(self, p: int) -> tuple:
        return ((), self.deck_lists[p], len(self.deck_lists[p]), (), (), (), 0, 0, 0, 0, 0)

    # -- positions ----------------------------------------------------------
    def _state_from_dict(self, d: Mapping[str, Any]) -> "ToritsukiState":
        """A position, checked completely (J): types, ranges, the cards adding
        up to each deck, what each stage needs, and the end of the game."""
        if d.keys() - {"game", "options"} != _FIELDS:
            check_keys(d, _FIELDS, "toritsuki")
        opts = d.get("options", {})
        if opts != self.saved_options:
            raise PositionError(_("toritsuki: the position was saved with options {saved}; this game has {options}: "
                                  "load it with those options").format(
                saved=_short(opts), options=self.options_dict()))
        key = _plain_key(d)
        try:
            known = self._known.get(key)
        except TypeError:  # unhashable parts: not what to_dict writes
            known = None
        if known is not None and repr(known) == repr(key):  # a key to_dict wrote (the same types): valid
            return ToritsukiState(self, known)
        stage = d["stage"]
        if type(stage) is not str or stage not in STAGES:
            raise PositionError(_("toritsuki: stage {stage} unknown; one of {stages}").format(
                stage=_short(stage), stages=STAGES))
        tp = d["turn_player"]
        if not _int(tp, 0, 1):
            raise PositionError(_("toritsuki: turn_player must be 0 or 1, got {got}").format(got=_short(tp)))
        first = -1 if d["first_player"] is None else d["first_player"]
        if not _int(first, -1, 1):
            raise PositionError(_("toritsuki: first_player must be null, 0 or 1, got {got}").format(
                got=_short(first)))
        for f in ("first_turn", "event_used"):
            if not isinstance(d[f], bool):
                raise PositionError(_("toritsuki: {field} must be true or false, got {got}").format(
                    field=f, got=_short(d[f])))
        if not _int(d["pending"], 0, 9):
            raise PositionError(_("toritsuki: pending must be a whole number 0-9, got {got}").format(
                got=_short(d['pending'])))
        winner = -1 if d["winner"] is None else d["winner"]
        if not _int(winner, -1, 1) or (winner >= 0) != (stage == OVER):
            raise PositionError(_("toritsuki: winner must be 0 or 1 exactly when the stage is 'over', got {got}").format(
                got=_short(winner)))
        ps = d["players"]
        if not isinstance(ps, list) or len(ps) != 2:
            raise PositionError(_("toritsuki: players must be a list of two player objects"))
        players = (self._player_from_dict(0, ps[0]), self._player_from_dict(1, ps[1]))
        battle = self._battle_from_dict(d["battle"], stage, tp, players)
        k = (stage, tp, first, d["first_turn"], d["event_used"], d["pending"], winner, players[0], players[1], battle)
        for p in (0, 1):
            self._check_cards(p, k)
        self._check_stage(k)
        self._check_end(k)
        return ToritsukiState(self, k)

    def _cards(self, p: int, obj: Any, what: str) -> tuple:
        """A list of card numbers (a multiset) of player ``p``'s deck, as a sorted tuple."""
        if (type(obj) is not list or len(obj) > len(self.deck_lists[p]) or not all(type(x) is int for x in obj)
                or not self.kindset[p].issuperset(obj)):
            raise PositionError(_("toritsuki: players[{player}].{field} must be a list of card numbers of player "
                                  "{player}'s deck {cards}, got {got}").format(
                player=p, field=what, cards=list(self.kinds[p]), got=_short(obj)))
        return tuple(sorted(obj))

    def _player_from_dict(self, p: int, d: Any) -> tuple:
        if type(d) is not dict:
            raise PositionError(_("toritsuki: players[{player}] must be an object with {fields}").format(
                player=p, fields=sorted(_PLAYER_FIELDS)))
        if d.keys() != _PLAYER_FIELDS:
            check_keys(d, _PLAYER_FIELDS, f"toritsuki players[{p}]")
        size = len(self.deck_lists[p])
        hand = self._cards(p, d["hand"], "hand")
        pool = self._cards(p, d["unseen"], "unseen")
        self._cards(p, d["deck_top"], "deck_top")
        top = tuple(d["deck_top"])  # in deck order, not sorted
        n = d["deck_size"]
        if not _int(n, len(top), size) or n - len(top) > len(pool):
            raise PositionError(_("toritsuki: players[{player}].deck_size {n} must be ≥ len(deck_top) and ≤ "
                                  "len(deck_top) + the unseen cards").format(player=p, n=_short(n)))
        front, back = self._row(p, d["front"], "front"), self._row(p, d["back"], "back")
        yoki, dmg, trash = d["yoki"], d["damage"], d["trash"]
        for what, v in (("yoki", yoki), ("damage", dmg)):
            if type(v) is not list or len(v) != 2 or not (_int(v[0], 0, size) and _int(v[1], 0, size)):
                raise PositionError(_("toritsuki: players[{player}].{field} must be [ready/face-up, "
                                      "resting/face-down] counts 0-{size}, got {got}").format(
                    player=p, field=what, size=size, got=_short(v)))
        if not _int(trash, 0, size):
            raise PositionError(_("toritsuki: players[{player}].trash must be a count 0-{size}, got {got}").format(
                player=p, size=size, got=_short(trash)))
        return (hand, pool, n, top, front, back, yoki[0], yoki[1], dmg[0], dmg[1], trash)

    def _row(self, p: int, r: Any, what: str) -> tuple:
        """A row of at most 3 yokai ``[card, rested, moved, bonus]`` (TK-13), sorted (TK-27)."""
        if type(r) is not list or len(r) > ROW:
            raise PositionError(_("toritsuki: players[{player}].{field} must be a list of at most {n} yokai").format(
                player=p, field=what, n=ROW))
        row = []
        for y in r:
            if (type(y) is not list or len(y) != 4 or type(y[0]) is not int or y[0] not in self.yokai[p]
                    or not _int(y[1], 0, 1) or not _int(y[2], 0, 1) or not _int(y[3], 0, 9999)):
                raise PositionError(_("toritsuki: players[{player}].{field}: each yokai is [card (a yokai of the "
                                      "deck), rested 0/1, moved 0/1, bonus 0-9999], got {got}").format(
                    player=p, field=what, got=_short(y)))
            row.append(tuple(y))
        return tuple(sorted(row))

    def _battle_from_dict(self, b: Any, stage: str, tp: int, players: tuple) -> tuple | None:
        in_battle = stage in (POSS_A, REVEAL_A, POSS_D, REVEAL_D, BLOCK)
        if b is None:
            if in_battle:
                raise PositionError(_("toritsuki: stage {stage} needs a battle object").format(stage=repr(stage)))
            return None
        if not in_battle:
            raise PositionError(_("toritsuki: battle must be null at stage {stage}").format(stage=repr(stage)))
        fields = ["attacker", "attacker_bonus", "attacker_method", "blocker", "blocker_bonus",
                  "blocker_method", "attacker_possession", "blocker_possession"]
        if not isinstance(b, Mapping):
            raise PositionError(_("toritsuki: battle must be an object with {fields}").format(fields=fields))
        check_keys(b, fields, "toritsuki battle")
        out = []
        for side, who in (("attacker", tp), ("blocker", 1 - tp)):
            no = b[side]
            blocked = stage != BLOCK
            if side == "blocker" and not blocked:
                if no is not None or b["blocker_method"] != 0 or b["blocker_bonus"] != 0:
                    raise PositionError(_("toritsuki: battle.blocker must be null, its method and bonus 0, before "
                                          "the block"))
                out += [0, 0, 0]
                continue
            if type(no) is not int or no not in self.yokai[who]:
                raise PositionError(_("toritsuki: battle.{side} {card} is not a yokai of player {player}'s deck").format(
                    side=side, card=_short(no), player=who))
            m = b[f"{side}_method"]
            if not _int(m, 1, len(self.cards[no].methods)):
                raise PositionError(_("toritsuki: battle.{side}_method must be 1-{n}").format(
                    side=side, n=len(self.cards[no].methods)))
            if not _int(b[f"{side}_bonus"], 0, 9999):
                raise PositionError(_("toritsuki: battle.{side}_bonus must be 0-9999").format(side=side))
            out += [no, b[f"{side}_bonus"], m - 1]
        for side, who in (("attacker", tp), ("blocker", 1 - tp)):
            no = b[f"{side}_possession"]
            if no is None:
                out.append(0)
            elif type(no) is int and no in self.yokai[who]:
                out.append(no)
            else:
                raise PositionError(_("toritsuki: battle.{side}_possession {card} is not a yokai of player {player}").format(
                    side=side, card=_short(no), player=who))
        return tuple(out)

    def _check_cards(self, p: int, k: tuple) -> None:
        """TK-1, TK-12, TK-29: player ``p``'s cards add up to the deck.  Every
        card is in the hand, the deck, the yoki zone, the field, the damage
        zone, the trash or the battle; the unseen pool is the unknown part of
        the deck and at most the face-down yoki charged from it (a known deck
        order charges known cards, which leave the pool); no card number is
        seen more often than the deck has it.  Once the game is over a few
        cards may be in no zone: the card whose leaving emptied the deck
        (TK-7), the fighters of a battle cut short; none can be too many."""
        P = k[7 + p]
        b, tp = k[9], k[1]
        fighting = []
        if b is not None:
            fighting = [b[0], b[6]] if p == tp else [b[3], b[7]]
            fighting = [no for no in fighting if no]
        seen = Counter(P[H] + P[PO] + P[TOP] + tuple(y[0] for y in P[FR] + P[BK]) + tuple(fighting))
        copies = self.copies[p]
        for no, c in seen.items():
            if c > copies[no]:
                raise PositionError(_("toritsuki: players[{player}] holds card {card} {times} times in hand, unseen, "
                                      "deck_top, field and battle; player {player}'s deck has {copies}").format(
                    player=p, card=no, times=c, copies=copies[no]))
        total = (len(P[H]) + P[N] + P[YR] + P[YS] + len(P[FR]) + len(P[BK]) + P[DU] + P[DD] + P[TR]
                 + len(fighting))
        size = len(self.deck_lists[p])
        if total > size or (total < size and k[0] != OVER):  # the end may leave cards in no zone
            raise PositionError(_("toritsuki: players[{player}] has {total} cards (hand, deck, yoki, field, damage, "
                                  "trash, battle); player {player}'s deck has {size} cards (TK-1, TK-29)").format(
                player=p, total=total, size=size))
        # the pool is exactly the unknown part of the deck and the yoki charged from it: yoki never leave
        # their zone (TK-12, TK-25), and with a known deck order every charge takes a known card (TK-Q6)
        yoki = 0 if self.options["known_deck_order"] else P[YR] + P[YS]
        if len(P[PO]) != P[N] - len(P[TOP]) + yoki:
            raise PositionError(_("toritsuki: players[{player}].unseen holds {n} cards: it is exactly the {unknown} "
                                  "unknown cards of the deck and the {yoki} face-down yoki charged from them (TK-12, "
                                  "TK-Q6)").format(player=p, n=len(P[PO]), unknown=P[N] - len(P[TOP]), yoki=yoki))

    def _check_stage(self, k: tuple) -> None:
        """What each stage needs (TK-2 … TK-19, TK-Q2, TK-Q3, TK-Q6): the
        position is one that play reaches."""
        stage, tp, first, first_turn, ev, pending, winner, P0, P1, b = k
        Ps = (P0, P1)
        opt = self.options

        def bad(why: str) -> PositionError:
            return PositionError(_("toritsuki: stage {stage}: {why}").format(stage=repr(stage), why=why))
        setup = stage in (SHUFFLE, DEAL, MULLIGAN, COIN)
        if opt["first_player"] is not None and first != opt["first_player"]:
            raise bad(_("first_player must be {player}, as the option fixes it (TK-Q3)").format(
                player=opt['first_player']))
        if opt["first_player"] is None and (first < 0) != setup:
            raise bad(_("first_player is null until the coin decides it (TK-4, TK-Q3), and then 0 or 1"))
        if opt["known_deck_order"]:  # TK-Q6 after its shuffle a deck's whole order is known
            for p, P in enumerate(Ps):
                shuffling = stage == SHUFFLE and (p == tp or (tp == 0 and pending == 0))
                if len(P[TOP]) != P[N] and not shuffling:
                    raise bad(_("players[{player}].deck_top must list the whole deck: its order is known (TK-Q6)").format(
                        player=p))
                if shuffling and (p == tp) and len(P[TOP]) >= P[N]:
                    raise bad(_("players[{player}] is shuffled: its deck_top is shorter than the deck (TK-Q6)").format(
                        player=p))
        elif any(P[TOP] for P in Ps):
            raise bad(_("deck_top is known only with the known_deck_order option (TK-Q6)"))
        if stage == SHUFFLE and not opt["known_deck_order"]:
            raise bad(_("a shuffle laid out by chance needs the known_deck_order option (TK-Q6)"))
        if setup:
            if first_turn or ev or b is not None or any(
                    P[FR] or P[BK] or P[YR] or P[YS] or P[DU] or P[DD] or P[TR] for P in Ps):
                raise bad(_("before the game starts nothing is on the field, in the yoki, damage or trash (TK-2, "
                            "TK-3)"))
            if pending > 1 or (pending and (stage not in (SHUFFLE, DEAL) or not opt["mulligan"])):
                raise bad(_("pending is 1 only while a mulligan's new hand is dealt (TK-3)"))
            if stage == MULLIGAN and not opt["mulligan"]:
                raise bad(_("no mulligan without the mulligan option (TK-3)"))
            if stage == COIN and (tp != 0 or first >= 0):
                raise bad(_("the coin is tossed with turn_player 0 and no first player yet (TK-4, TK-Q3)"))
            hands = [len(P[H]) for P in Ps]
            if stage in (MULLIGAN, COIN):
                want = [(HAND_START, HAND_START)]
            elif stage == DEAL:  # player 0 is dealt 5, then player 1; a mulligan deals that player 5 again
                want = [(h, HAND_START if pending else 0) for h in range(HAND_START)] if tp == 0 else \
                       [(HAND_START, h) for h in range(HAND_START)]
            else:  # SHUFFLE: before a deal, or a mulligan's reshuffle
                want = [(0, HAND_START)] if tp == 0 and pending else [(0, 0)] if tp == 0 else \
                       [(HAND_START, 0)] if pending else [(0, 0)]
            if tuple(hands) not in want:
                raise bad(_("hands of {hand0} and {hand1} cards cannot be dealt here (TK-2, TK-3)").format(
                    hand0=hands[0], hand1=hands[1]))
            return
        if stage == OVER:
            return
        # the game is under way: turn player tp; TK-5 the first player's first turn
        if first_turn and (tp != first or stage != MAIN or ev):
            raise bad(_("first_turn is only the first player's main phase, with no event (TK-5)"))
        if first_turn:  # every yokai on the field was summoned this turn, paid with yoki (TK-13, TK-25)
            T, O = Ps[tp], Ps[1 - tp]
            if T[YR] + T[YS] != 1 or O[YR] + O[YS]:
                raise bad(_("on the first turn players[{player}] has charged one yoki and players[{other}] none "
                            "(TK-5, TK-12)").format(player=tp, other=1 - tp))
            cost = sum(self.cards[y[0]].cost for y in T[FR] + T[BK])
            paid = T[YS] + T[DD]  # resting yoki since the refresh, boosts (TK-10, TK-26)
            if paid < cost or (paid != cost and not T[TR]):
                if T[TR]:
                    raise bad(_("players[{player}] summoned the whole field this first turn (TK-5, TK-13) at a "
                                "cost of {cost}, but paid {paid} (resting yoki and face-down damage, TK-25, "
                                "TK-26)").format(player=tp, cost=cost, paid=paid))
                raise bad(_("players[{player}] summoned the whole field this first turn (TK-5, TK-13) at a cost "
                            "of {cost}, but paid {paid} (resting yoki and face-down damage, TK-25, TK-26) and "
                            "released nothing").format(player=tp, cost=cost, paid=paid))
        if stage == DRAW and ev:
            raise bad(_("event_used: the draw comes before the main phase, where events are used (TK-11, TK-24)"))
        if stage == EVDRAW and (not ev or pending >= self.max_draw[tp]):
            raise bad(_("an event's draw follows an event (event_used) with fewer than {n} cards still to draw "
                        "(TK-24, TK-Q2)").format(n=self.max_draw[tp]))
        if pending and stage != EVDRAW:
            raise bad(_("pending counts an event's draws only (TK-Q2)"))
        O, T = Ps[1 - tp], Ps[tp]
        if any(y[2] or y[3] for y in O[FR] + O[BK]):
            raise bad(_("players[{other}]'s yokai are neither moved (moved) nor boosted: +BP is the mover's until "
                        "the end of the turn (TK-13, TK-Q2)").format(other=1 - tp))
        if not ev and any(y[3] for y in T[FR] + T[BK]):
            raise bad(_("players[{player}]'s yokai have +BP (bonus) only after an event this turn (TK-Q2)").format(
                player=tp))
        moves_stay = stage == MAIN or (stage == EVDRAW and opt["move_once_per_turn"])
        if not moves_stay and any(y[2] for y in T[FR] + T[BK]):
            raise bad(_("players[{player}]'s yokai are marked moved only in the main phase (TK-13)").format(
                player=tp))
        if any(y[1] for y in T[BK]) or (stage in (DRAW, MAIN, EVDRAW) and any(y[1] for y in T[FR])):
            raise bad(_("players[{player}]'s yokai were refreshed (TK-10); only attacking rests them (TK-16)").format(
                player=tp))
        if stage in (DRAW, MAIN, EVDRAW):  # before the battle: no block yet (TK-17), only an event rests one
            lullaby = ev and stage != DRAW and any(self.cards[no].effect[:1] == ("rest",) for no in self.kindset[tp])
            if sum(y[1] for y in O[BK]) > lullaby:
                if lullaby:
                    raise bad(_("players[{other}]'s back-row yokai rest only by blocking in this turn (TK-17, "
                                "after their refresh, TK-10) or by one resting event (TK-24): at most one before "
                                "the battle").format(other=1 - tp))
                raise bad(_("players[{other}]'s back-row yokai rest only by blocking in this turn (TK-17, after "
                            "their refresh, TK-10) or by one resting event (TK-24): none before the "
                            "battle").format(other=1 - tp))
        if stage == DRAW and T[YS]:
            raise bad(_("players[{player}]'s yoki were refreshed (TK-10): none is resting before the draw").format(
                player=tp))
        state = ToritsukiState(self, k)
        if stage == BATTLE and not state._attack_actions():
            raise bad(_("no ready attacker is left: the turn would have ended (TK-14, TK-15)"))
        if stage == BLOCK and not state._block_actions():
            raise bad(_("nothing can block: the attack would have dealt its damage (TK-17, TK-18)"))
        if b is not None:
            if len(T[FR]) >= ROW or (stage != BLOCK and len(O[BK]) >= ROW):
                raise bad(_("the attacker left the front row and the blocker the back row: at most 2 remain there"))
            if b[4] or (b[1] and not ev):
                raise bad(_("battle bonus: +BP comes from the attacker's event this turn (TK-Q2)"))
            if b[7] or (b[6] and stage in (POSS_A, REVEAL_A)):
                raise bad(_("possessions come in turn, the attacker's first, and the duel follows the defender's at "
                            "once (TK-19)"))
            if b[6] and not state._fits(b[6], tp):
                raise bad(_("card {card} does not meet its possession condition on that yokai (TK-19)").format(
                    card=b[6]))

    def _check_end(self, k: tuple) -> None:
        """TK-6, TK-7, TK-8: six damage or an empty deck is the end, with the
        other player the winner; a card's own win condition (TK-8) ends it too."""
        stage, tp, winner, Ps = k[0], k[1], k[6], (k[7], k[8])
        lost = [P[DU] + P[DD] >= DAMAGE_LOSS or P[N] == 0 for P in Ps]
        for p, P in enumerate(Ps):
            if P[DU] + P[DD] > DAMAGE_LOSS:
                raise PositionError(_("toritsuki: players[{player}].damage: the game ends at the 6th damage (TK-6)").format(
                    player=p))
        if stage != OVER:
            for p, P in enumerate(Ps):
                if lost[p]:
                    raise PositionError(_("toritsuki: players[{player}] has 6 damage (TK-6) or an empty deck (TK-7): "
                                          "the game is over, stage 'over' with winner {winner}").format(
                        player=p, winner=1 - p))
            return
        W = Ps[winner]
        field_win = (winner == tp and k[4] and self.win_field[winner] is not None
                     and len(W[FR]) + len(W[BK]) >= self.win_field[winner])
        if lost[winner] or not (lost[1 - winner] or field_win):
            raise PositionError(_("toritsuki: winner {winner}: the loser has 6 damage (TK-6) or an empty deck "
                                  "(TK-7), or the winner's card won (TK-8), and the winner has neither").format(
                winner=winner))


def _short(v: Any) -> str:
    """A value for an error message, cut short."""
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def _plain_key(d: Mapping[str, Any]) -> tuple | None:
    """The key a to_dict() dict stands for, read without any check (None if it does not parse)."""
    try:
        if any(type(p) is not dict or p.keys() != _PLAYER_FIELDS or len(p["yoki"]) != 2 or len(p["damage"]) != 2
               for p in d["players"]) or (d["battle"] is not None and d["battle"].keys() != _BATTLE_FIELDS):
            return None  # not exactly what to_dict writes
        ps = tuple((tuple(p["hand"]), tuple(p["unseen"]), p["deck_size"], tuple(p["deck_top"]),
                    tuple(map(tuple, p["front"])), tuple(map(tuple, p["back"])), p["yoki"][0], p["yoki"][1],
                    p["damage"][0], p["damage"][1], p["trash"]) for p in d["players"])
        b = d["battle"]
        if b is not None:
            blocked = b["blocker"] is not None
            b = (b["attacker"], b["attacker_bonus"], b["attacker_method"] - 1, b["blocker"] or 0,
                 b["blocker_bonus"], b["blocker_method"] - 1 if blocked else 0,
                 b["attacker_possession"] or 0, b["blocker_possession"] or 0)
        first, winner = d["first_player"], d["winner"]
        return (d["stage"], d["turn_player"], -1 if first is None else first, d["first_turn"],
                d["event_used"], d["pending"], -1 if winner is None else winner) + ps + (b,)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError):
        return None


def _remove(t: tuple, no: int) -> tuple:
    i = t.index(no)
    return t[:i] + t[i + 1:]


def _insert(t: tuple, no: int) -> tuple:
    i = bisect_right(t, no)
    return t[:i] + (no,) + t[i:]


def _uniq(t: tuple) -> list[int]:
    """The distinct numbers of a sorted tuple."""
    return [x for i, x in enumerate(t) if i == 0 or x != t[i - 1]]


def _runs(t: tuple) -> list[tuple[int, int]]:
    """(number, count) for each distinct number of a sorted tuple."""
    out: list[tuple[int, int]] = []
    for x in t:
        if out and out[-1][0] == x:
            out[-1] = (x, out[-1][1] + 1)
        else:
            out.append((x, 1))
    return out


def _boosts(P: tuple | list, cost: int) -> range:
    """TK-25, TK-26, TK-Q8: the numbers of face-up damage cards that may pay
    ``cost`` beside ready yoki (empty when it cannot be paid); the first is
    ready yoki first."""
    return range(max(0, cost - P[YR]), min(cost, P[DU]) + 1)


def _with_payments(action: str, P: tuple, cost: int) -> list[str]:
    """TK-Q8: ``action`` paid ready yoki first, then ``action boost N`` for
    every other number of boosts that can pay; nothing if it cannot be paid."""
    b = _boosts(P, cost)
    return [action] + [f"{action} boost {n}" for n in b[1:]] if b else []


def _split_boost(arg: str) -> tuple[str, int | None]:
    """``"F1 m3 boost 1"`` → ``("F1 m3", 1)``; without a boost part ``None`` (ready yoki first)."""
    head, _sep, n = arg.partition(" boost ")
    return head, int(n) if n else None


def _pay(P: list, cost: int, boosts: int | None = None) -> None:
    """TK-25, TK-26, TK-Q5, TK-Q8: ``boosts`` face-up damage cards turned face
    down, the rest in ready yoki rested; by default ready yoki first."""
    if boosts is None:
        boosts = max(0, cost - P[YR])
    P[YR] -= cost - boosts
    P[YS] += cost - boosts
    P[DU] -= boosts
    P[DD] += boosts


def _payment_text(P: tuple, cost: int, boosts: int | None) -> str:
    """The payment of ``cost`` in words (TK-25, TK-26, TK-Q8)."""
    if cost == 0:
        return _("nothing to pay")
    b = max(0, cost - P[YR]) if boosts is None else boosts
    yoki = _("{n} ready yoki rested").format(n=cost - b)
    boost = ngettext("{n} face-up damage card turned face down (妖気ブースト, TK-26)",
                     "{n} face-up damage cards turned face down (妖気ブースト, TK-26)", b).format(n=b)
    if cost - b and b:
        how = _("{yoki} and {boost}").format(yoki=yoki, boost=boost)
    else:
        how = yoki if cost - b else boost
    return _("paying {cost} yoki (妖気): {how} (TK-25, TK-Q8)").format(cost=cost, how=how)


def _stage_name(stage: str) -> str:
    """``stage`` as the text board names it (the stage itself in English; in Japanese the seed's words)."""
    return {
        SHUFFLE: pgettext("toritsuki stage", "shuffle"), DEAL: pgettext("toritsuki stage", "deal"),
        MULLIGAN: pgettext("toritsuki stage", "mulligan"), COIN: pgettext("toritsuki stage", "coin"),
        DRAW: pgettext("toritsuki stage", "draw"), MAIN: pgettext("toritsuki stage", "main"),
        EVDRAW: pgettext("toritsuki stage", "evdraw"), BATTLE: pgettext("toritsuki stage", "battle"),
        BLOCK: pgettext("toritsuki stage", "block"), DAMAGE: pgettext("toritsuki stage", "damage"),
        POSS_A: pgettext("toritsuki stage", "possess_a"), REVEAL_A: pgettext("toritsuki stage", "reveal_a"),
        POSS_D: pgettext("toritsuki stage", "possess_d"), REVEAL_D: pgettext("toritsuki stage", "reveal_d"),
        DUEL: pgettext("toritsuki stage", "duel"), OVER: pgettext("toritsuki stage", "over"),
    }[stage]


def _method_name(m: Method) -> str:
    """A battle method's name as printed (in Japanese its Japanese name)."""
    return m.japanese or m.name if get_language() == "ja" else m.name


def _unmark(P: list) -> None:
    """Take the move marks off player ``P``'s yokai (TK-13)."""
    for r in (FR, BK):
        if any(y[2] for y in P[r]):
            P[r] = tuple(sorted((y[0], y[1], 0, y[3]) for y in P[r]))


def _charge(P: list) -> bool:
    """TK-12: the top card face down, ready, into the yoki zone; False if the deck ran out (TK-7)."""
    if P[TOP]:
        P[TOP] = P[TOP][1:]
    P[N] -= 1
    P[YR] += 1
    return P[N] > 0


def _distinct(row: tuple) -> list[int]:
    """Indexes of a sorted row, skipping an entry equal to the one before it."""
    return [i for i in range(len(row)) if i == 0 or row[i] != row[i - 1]]


class ToritsukiState(State):
    """A Toritsuki position.  The key is ``(stage, tp, first_player, first_turn,
    event_used, pending, winner, player0, player1, battle)``; a player is
    ``(hand, unseen, deck_size, deck_top, front, back, yoki_ready, yoki_resting,
    damage_up, damage_down, trash)``; a battle is ``(a_card, a_bonus, a_method,
    b_card, b_bonus, b_method, a_possession, b_possession)``.
    """

    __slots__ = ()

    # -- reading ---------------------------------------------------------------
    @property
    def stage(self) -> str:
        return self._k[0]

    @property
    def turn_player(self) -> int:
        return self._k[1]

    def player(self, p: int) -> tuple:
        return self._k[7 + p]

    @property
    def current_player(self) -> int:
        """The deciding player: the defender decides blocks and its own possession (TK-17, TK-19)."""
        stage = self._k[0]
        if stage == OVER:
            return TERMINAL
        if stage in CHANCE_STAGES:
            return CHANCE
        if stage == BLOCK or stage == POSS_D:
            return 1 - self._k[1]
        return self._k[1]

    def _owner(self) -> int:
        """Whose deck a chance stage takes from."""
        stage, tp = self._k[0], self._k[1]
        return 1 - tp if stage in (DAMAGE, REVEAL_D) else tp

    def returns(self) -> list:
        w = self._k[6]
        if w < 0:
            return [0, 0]
        return [1, -1] if w == 0 else [-1, 1]

    def card(self, no: int) -> Card:
        return self.game.cards[no]

    def yokai_at(self, slot: str, player: int | None = None) -> Card:
        """The yokai in ``slot`` (``"F1"``: front row, first place; ``"B2"``:
        back row, second) of ``player`` (default: the player to move), as
        the move notation names it."""
        p = self.current_player if player is None else player
        row = self._k[7 + p][FR if slot[0] == "F" else BK]
        return self.game.cards[row[int(slot[1:]) - 1][0]]

    def hand(self, p: int) -> dict[int, int]:
        return dict(Counter(self._k[7 + p][H]))

    # -- legal actions -----------------------------------------------------------
    def legal_actions(self) -> list[str]:
        cache = self.game._legal_cache
        acts = cache.get(self._k)
        if acts is None:
            if len(cache) > _CACHE_SIZE:
                cache.clear()
            acts = cache[self._k] = tuple(self._legal())
        return list(acts)

    def _legal(self) -> list[str]:
        k = self._k
        stage, tp = k[0], k[1]
        if stage == MAIN:
            return self._main_actions()
        if stage == BATTLE:
            return self._attack_actions() + ["end"]
        if stage == BLOCK:
            return self._block_actions() + ["noblock"]
        if stage == POSS_A or stage == POSS_D:
            return self._possess_actions(tp if stage == POSS_A else 1 - tp)
        if stage == MULLIGAN:
            return ["keep", "mulligan"]
        return []

    def _main_actions(self) -> list[str]:
        k = self._k
        tp = k[1]
        g = self.game
        P = k[7 + tp]
        front, back = P[FR], P[BK]
        acts = []
        affordable = [no for no in _uniq(P[H]) if g.cards[no].is_yokai and _boosts(P, g.cards[no].cost)]
        for no in affordable:
            if len(front) < ROW:
                acts += _with_payments(f"summon {no} F", P, g.cards[no].cost)
            if len(back) < ROW:
                acts += _with_payments(f"summon {no} B", P, g.cards[no].cost)
        full = len(front) == ROW and len(back) == ROW
        if full and affordable:  # TK-13 make room
            acts += [f"release F{i + 1}" for i in _distinct(front)]
            acts += [f"release B{i + 1}" for i in _distinct(back)]
        acts += self._move_actions(P)
        if not k[4] and not k[3]:  # one event per main; none on the first player's first turn (TK-5)
            O = k[8 - tp]
            for no in _uniq(P[H]):
                if g.cards[no].is_yokai:
                    continue
                kind, value = g.cards[no].effect
                if kind == "bp_up":
                    acts += [f"event {no} F{i + 1}" for i in _distinct(front)]
                    acts += [f"event {no} B{i + 1}" for i in _distinct(back)]
                elif kind == "banish":
                    for r, name in ((O[FR], "F"), (O[BK], "B")):
                        acts += [f"event {no} o{name}{i + 1}" for i in _distinct(r)
                                 if g.cards[r[i][0]].rank <= value]
                elif kind == "rest":
                    acts += [f"event {no} oB{i + 1}" for i in _distinct(O[BK]) if not O[BK][i][1]]
                else:
                    acts.append(f"event {no}")
        # attacking ends the main phase (TK-13 → TK-14): no separate "battle" step
        return acts + self._attack_actions() + ["end"]

    def _move_actions(self, P: tuple) -> list[str]:
        """TK-13: each arrangement of the rows other than this one, once, as
        one ``move`` of the yokai that change rows (see the module doc: no
        limit, no cycle)."""
        front, back = P[FR], P[BK]
        if not self.game.options["move_once_per_turn"] and any(y[2] for y in front + back):
            return []  # just rearranged: another rearrangement only after another main action
        rows = {"F": front, "B": back}
        slots = [(r, i) for r, row in rows.items() for i in range(len(row)) if not row[i][2]]
        acts = []
        for n in range(1, len(slots) + 1):
            for pick in combinations(slots, n):
                if any(i and rows[r][i - 1] == rows[r][i] and (r, i - 1) not in pick for r, i in pick):
                    continue  # of alike yokai in a row, name the first ones only
                out = {rows[r][i] for r, i in pick if r == "F"}
                into = {rows[r][i] for r, i in pick if r == "B"}
                n_out, n_in = sum(r == "F" for r, _i in pick), sum(r == "B" for r, _i in pick)
                if out & into or len(front) - n_out + n_in > ROW or len(back) - n_in + n_out > ROW:
                    continue  # trading alike yokai changes nothing; 3 a row at most
                acts.append("move " + " ".join(f"{r}{i + 1}" for r, i in pick))
        return acts

    def _attack_actions(self) -> list[str]:
        tp = self._k[1]
        P = self._k[7 + tp]
        if self._k[3]:  # TK-5 no battle on the first player's first turn
            return []
        front = P[FR]
        return [a for i in _distinct(front) if not front[i][1]
                for j, m in enumerate(self.game.cards[front[i][0]].methods)
                for a in _with_payments(f"attack F{i + 1} m{j + 1}", P, m.cost)]

    def _block_actions(self) -> list[str]:
        d = 1 - self._k[1]
        P = self._k[7 + d]
        back = P[BK]
        return [a for i in _distinct(back) if not back[i][1]
                for j, m in enumerate(self.game.cards[back[i][0]].methods)
                for a in _with_payments(f"block B{i + 1} m{j + 1}", P, m.cost)]

    def _possess_actions(self, p: int) -> list[str]:
        g = self.game
        P = self._k[7 + p]
        acts = ["pass", "possess deck"]
        for no in _uniq(P[H]):
            if g.cards[no].is_yokai and self._fits(no, p):
                acts.append(f"possess {no}")
        return acts

    def _fits(self, no: int, owner: int) -> bool:
        """TK-19: does card ``no`` of ``owner`` meet its condition on the yokai it would possess?"""
        c = self.game.cards[no]
        if not c.is_yokai:
            return False
        b = self._k[9]
        tp = self._k[1]
        own_side_attacker = owner == tp
        on_attacker = own_side_attacker == (c.target == "own")
        tno, m = (b[0], b[2]) if on_attacker else (b[3], b[5])
        t = self.game.cards[tno]
        if c.cond_tribe is not None and t.tribe != c.cond_tribe:
            return False
        if c.cond_rank_max is not None and t.rank > c.cond_rank_max:
            return False
        if c.cond_category is not None and t.methods[m].category != c.cond_category:
            return False
        return True

    # -- chance ------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        stage = k[0]
        if stage not in CHANCE_STAGES:
            return []
        if stage == COIN:
            return [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
        o = self._owner()
        pool = k[7 + o][PO]
        verb = TAKE_VERB[stage]
        cache = self.game._chance_cache
        outs = cache.get((verb, pool))
        if outs is None:
            if len(cache) > _CACHE_SIZE:
                cache.clear()
            total = len(pool)
            outs = cache[verb, pool] = tuple((f"{verb} {no}", Fraction(c, total)) for no, c in _runs(pool))
        return list(outs)

    # -- transitions ---------------------------------------------------------------
    def _apply(self, action: str) -> "ToritsukiState":
        return ToritsukiState(self.game, self._settle(self._step(action)))

    def _step(self, action: str) -> list:
        """The raw effect of one action; :meth:`_settle` then runs what follows on its own."""
        g = self.game
        k = list(self._k)
        stage, tp = k[0], k[1]
        Ps = [list(k[7]), list(k[8])]
        verb, _sep, arg = action.partition(" ")
        if stage in CHANCE_STAGES:
            if verb == "first":  # TK-4, TK-Q3
                return self._start_turn(k, Ps, int(arg), True)
            o = self._owner()
            no = int(arg)
            P = Ps[o]
            P[PO] = _remove(P[PO], no)
            if stage == SHUFFLE:
                P[TOP] = P[TOP] + (no,)
                k[7], k[8] = tuple(Ps[0]), tuple(Ps[1])
                return k
            P[N] -= 1
            return self._took(k, Ps, o, no)
        if stage == MULLIGAN:
            if verb == "mulligan":  # TK-3: the hand back into the deck, shuffled; draw 5 again
                P = Ps[tp]
                P[PO], P[H], P[TOP] = tuple(sorted(P[PO] + P[H] + P[TOP])), (), ()
                P[N] += HAND_START
                k[0] = SHUFFLE if g.options["known_deck_order"] else DEAL
                k[5] = 1
                return self._pack(k, Ps)
            return self._after_mulligan(k, Ps)
        P = Ps[tp]
        if stage == MAIN:
            return self._main(k, Ps, verb, arg)
        if stage == BATTLE:
            if verb == "end":
                return self._end_turn(k, Ps)
            return self._step_attack(k, Ps, arg)
        if stage == BLOCK:
            D = Ps[1 - tp]
            if verb == "noblock":
                return self._no_block(k, Ps)
            head, boosts = _split_boost(arg)
            slot, m = head.split()
            i = int(slot[1]) - 1
            y = D[BK][i]
            D[BK] = D[BK][:i] + D[BK][i + 1:]
            mi = int(m[1:]) - 1
            _pay(D, g.cards[y[0]].methods[mi].cost, boosts)  # TK-17, TK-Q8
            b = k[9]
            k[9] = (b[0], b[1], b[2], y[0], y[3], mi, 0, 0)
            k[0] = POSS_A
            return self._pack(k, Ps)
        if stage in (POSS_A, POSS_D):
            who = tp if stage == POSS_A else 1 - tp
            if verb == "pass":
                k[0] = POSS_D if stage == POSS_A else DUEL
            elif arg == "deck":
                k[0] = REVEAL_A if stage == POSS_A else REVEAL_D
            else:
                no = int(arg)
                W = Ps[who]
                W[H] = _remove(W[H], no)
                b = list(k[9])
                b[6 if stage == POSS_A else 7] = no
                k[9] = tuple(b)
                k[0] = POSS_D if stage == POSS_A else DUEL
            return self._pack(k, Ps)
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _step_attack(self, k: list, Ps: list, arg: str) -> list:
        """TK-16: the attacker rests, chooses a method and pays its cost."""
        P = Ps[k[1]]
        head, boosts = _split_boost(arg)
        slot, m = head.split()
        i = int(slot[1]) - 1
        y = P[FR][i]
        P[FR] = P[FR][:i] + P[FR][i + 1:]
        mi = int(m[1:]) - 1
        _pay(P, self.game.cards[y[0]].methods[mi].cost, boosts)  # TK-Q8
        k[9] = (y[0], y[3], mi, 0, 0, 0, 0, 0)
        k[0] = BLOCK
        return self._pack(k, Ps)

    def _pack(self, k: list, Ps: list) -> list:
        k[7], k[8] = tuple(Ps[0]), tuple(Ps[1])
        return k

    def _lose(self, k: list, Ps: list, loser: int) -> list:
        """TK-6, TK-7: the game ends at once."""
        k[0], k[6], k[9] = OVER, 1 - loser, None
        return self._pack(k, Ps)

    def _took(self, k: list, Ps: list, o: int, no: int) -> list:
        """Card ``no`` has left player ``o``'s deck at stage ``k[0]``: put it where it goes."""
        g = self.game
        P = Ps[o]
        stage = k[0]
        if stage == DEAL:
            P[H] = _insert(P[H], no)
            if len(P[H]) < HAND_START:
                return self._pack(k, Ps)
            if k[5] == 1:  # the mulligan's new hand is complete
                return self._after_mulligan(k, Ps)
            if o == 0:
                k[1] = 1
                return self._pack(k, Ps)
            if g.options["mulligan"]:
                k[0], k[1] = MULLIGAN, 0
                return self._pack(k, Ps)
            return self._coin(k, Ps)
        if P[N] == 0:  # TK-7, TK-Q4 the deck ran out: that player loses at this instant
            return self._lose(k, Ps, o)
        if stage == DRAW:  # TK-11, then TK-12 charge
            P[H] = _insert(P[H], no)
            return self._charge_and_main(k, Ps)
        if stage == EVDRAW:
            P[H] = _insert(P[H], no)
            if k[5] > 0:
                k[5] -= 1
            else:
                k[0] = MAIN
            return self._pack(k, Ps)
        if stage == DAMAGE:  # TK-18 face up into the damage zone
            P[DU] += 1
            if P[DU] + P[DD] >= DAMAGE_LOSS:  # TK-6
                return self._lose(k, Ps, o)
            k[0] = BATTLE
            return self._pack(k, Ps)
        # REVEAL_A / REVEAL_D, TK-19: attach if it meets the condition, else trash
        self_k = ToritsukiState(g, tuple(self._pack(k, Ps)))
        b = list(k[9])
        if self_k._fits(no, o):
            b[6 if stage == REVEAL_A else 7] = no
            k[9] = tuple(b)
        else:
            P[TR] += 1
        k[0] = POSS_D if stage == REVEAL_A else DUEL
        return self._pack(k, Ps)

    def _after_mulligan(self, k: list, Ps: list) -> list:
        k[5] = 0
        if k[1] == 0:
            k[0], k[1] = MULLIGAN, 1
            return self._pack(k, Ps)
        return self._coin(k, Ps)

    def _coin(self, k: list, Ps: list) -> list:
        if k[2] < 0:
            k[0], k[1] = COIN, 0
            return self._pack(k, Ps)
        return self._start_turn(k, Ps, k[2], True)

    def _start_turn(self, k: list, Ps: list, p: int, first: bool) -> list:
        """TK-9 start, TK-10 refresh, TK-11 draw (not on the first player's first turn, TK-5)."""
        k[1], k[2], k[3], k[4], k[5] = p, p if first else k[2], first, False, 0
        P = Ps[p]
        P[FR] = tuple(sorted((y[0], 0, 0, y[3]) for y in P[FR]))
        P[BK] = tuple(sorted((y[0], 0, 0, y[3]) for y in P[BK]))
        P[YR], P[YS] = P[YR] + P[YS], 0
        if first:
            return self._charge_and_main(k, Ps)
        k[0] = DRAW
        return self._pack(k, Ps)

    def _charge_and_main(self, k: list, Ps: list) -> list:
        """TK-12 charge: the top card face down, ready, into the yoki zone."""
        p = k[1]
        if not _charge(Ps[p]):
            return self._lose(k, Ps, p)
        k[0] = MAIN
        return self._pack(k, Ps)

    def _end_turn(self, k: list, Ps: list) -> list:
        """TK-15: effects until end of turn end; the other player's turn starts."""
        for P in Ps:
            for r in (FR, BK):
                if any(y[3] or y[2] for y in P[r]):
                    P[r] = tuple(sorted((y[0], y[1], 0, 0) for y in P[r]))
        return self._start_turn(k, Ps, 1 - k[1], False)

    def _no_block(self, k: list, Ps: list) -> list:
        """TK-18: no battle; the attacker stays resting, the defender takes 1 damage."""
        b = k[9]
        P = Ps[k[1]]
        P[FR] = tuple(sorted(P[FR] + ((b[0], 1, 0, b[1]),)))
        k[9] = None
        k[0] = DAMAGE
        return self._pack(k, Ps)

    def _main(self, k: list, Ps: list, verb: str, arg: str) -> list:
        g = self.game
        tp = k[1]
        P = Ps[tp]
        if verb == "move":  # TK-13: the listed yokai change rows, marked (see _move_actions)
            picked = {"F": set(), "B": set()}
            for slot in arg.split():
                picked[slot[0]].add(int(slot[1]) - 1)
            front, back = P[FR], P[BK]
            P[FR] = tuple(sorted([y for i, y in enumerate(front) if i not in picked["F"]]
                                 + [(y[0], y[1], 1, y[3]) for i, y in enumerate(back) if i in picked["B"]]))
            P[BK] = tuple(sorted([y for i, y in enumerate(back) if i not in picked["B"]]
                                 + [(y[0], y[1], 1, y[3]) for i, y in enumerate(front) if i in picked["F"]]))
            return self._pack(k, Ps)
        if verb == "summon":  # TK-13, TK-28 ready at once
            head, boosts = _split_boost(arg)
            no_s, row = head.split()
            no = int(no_s)
            P[H] = _remove(P[H], no)
            _pay(P, g.cards[no].cost, boosts)
            r = FR if row == "F" else BK
            P[r] = tuple(sorted(P[r] + ((no, 0, 0, 0),)))
        elif verb == "release":
            r = FR if arg[0] == "F" else BK
            i = int(arg[1]) - 1
            P[r] = P[r][:i] + P[r][i + 1:]
            P[TR] += 1
        elif verb == "event":
            k = self._event(k, Ps, arg)
        elif verb == "attack":  # the main phase ends, TK-14 battle; move marks only matter in main
            k = self._step_attack(k, Ps, arg)  # the slot names the marked row: unmark after it
            _unmark(P)
            return self._pack(k, Ps)
        elif verb == "end":
            return self._end_turn(k, Ps)
        if not g.options["move_once_per_turn"]:
            _unmark(P)  # after a summon, release or event moving is offered again (TK-13)
        return self._pack(k, Ps)

    def _event(self, k: list, Ps: list, arg: str) -> list:
        """TK-24, TK-Q2: one event card per main phase; it goes to the trash."""
        g = self.game
        tp = k[1]
        P, O = Ps[tp], Ps[1 - tp]
        parts = arg.split()
        no = int(parts[0])
        P[H] = _remove(P[H], no)
        P[TR] += 1
        k[4] = True
        kind, value = g.cards[no].effect
        if kind == "draw":
            k[0], k[5] = EVDRAW, value - 1
        elif kind == "ready_yoki":
            r = min(value, P[YS])
            P[YR], P[YS] = P[YR] + r, P[YS] - r
        elif kind == "bp_up":
            slot = parts[1]
            r = FR if slot[0] == "F" else BK
            i = int(slot[1]) - 1
            y = P[r][i]
            P[r] = tuple(sorted(P[r][:i] + P[r][i + 1:] + ((y[0], y[1], y[2], y[3] + value),)))
        elif kind == "heal":  # face-down damage first: face-up ones can still pay (TK-26)
            for _i in range(value):
                if P[DD]:
                    P[DD] -= 1
                elif P[DU]:
                    P[DU] -= 1
                else:
                    break
                P[TR] += 1  # TK-29 healed damage goes to the trash
        elif kind in ("banish", "rest"):
            slot = parts[1]
            r = FR if slot[1] == "F" else BK
            i = int(slot[2]) - 1
            y = O[r][i]
            rest = O[r][:i] + O[r][i + 1:]
            if kind == "banish":
                O[TR] += 1
                O[r] = rest
            else:
                O[r] = tuple(sorted(rest + ((y[0], 1, y[2], y[3]),)))
        elif kind == "charge":
            for _i in range(value):
                if not _charge(P):
                    return self._lose(k, Ps, tp)
        elif kind == "win_if_field":  # TK-8 a card's own win condition
            if len(P[FR]) + len(P[BK]) >= value:
                k[0], k[6] = OVER, tp
        return self._pack(k, Ps)

    def _settle(self, k: list) -> tuple:
        """Run what needs no decision: known deck tops, the BP duel, skipped choices."""
        g = self.game
        while True:
            stage = k[0]
            if stage in TAKE_VERB:
                o = 1 - k[1] if stage in (DAMAGE, REVEAL_D) else k[1]
                P = k[7 + o]
                if stage == SHUFFLE:
                    if len(P[TOP]) < P[N]:
                        break
                    if k[5] == 1:  # shuffled after a mulligan: deal the new hand
                        k[0] = DEAL
                    elif o == 0:
                        k[1] = 1
                    else:
                        k[0], k[1] = DEAL, 0
                    continue
                if not P[TOP]:
                    break
                Ps = [list(k[7]), list(k[8])]
                no = P[TOP][0]
                Ps[o][TOP] = P[TOP][1:]
                Ps[o][N] -= 1
                k = self._took(k, Ps, o, no)
                continue
            if stage == DUEL:
                k = self._duel(k)[0]
                continue
            if stage == BATTLE:
                s = ToritsukiState(g, tuple(k))
                if not s._attack_actions():
                    k = self._end_turn(k, [list(k[7]), list(k[8])])
                    continue
                break
            if stage == BLOCK:
                s = ToritsukiState(g, tuple(k))
                if not s._block_actions():  # TK-18 nothing can block
                    k = self._no_block(k, [list(k[7]), list(k[8])])
                    continue
                break
            break
        return tuple(k)

    def _duel(self, k: list) -> tuple[list, BattleReport]:
        """TK-20, TK-21, TK-22: the BP duel, fainting, possessing cards to the trash."""
        g = self.game
        tp = k[1]
        b = k[9]
        rep = _report(g, tp, b)
        Ps = [list(k[7]), list(k[8])]
        A, D = Ps[tp], Ps[1 - tp]
        a_dies = rep.winner in ("defender", "tie") and not (rep.winner == "tie" and "guard" in rep.attacker.icons)
        d_dies = rep.winner in ("attacker", "tie") and not (rep.winner == "tie" and "guard" in rep.defender.icons)
        if a_dies:
            A[TR] += 1
        else:
            A[FR] = tuple(sorted(A[FR] + ((b[0], 1, 0, b[1]),)))
        if d_dies:
            D[TR] += 1
        else:
            D[BK] = tuple(sorted(D[BK] + ((b[3], 1, 0, b[4]),)))
        if b[6]:
            A[TR] += 1
        if b[7]:
            D[TR] += 1
        k[9] = None
        k[0] = DAMAGE if rep.pierce else BATTLE
        return self._pack(k, Ps), rep

    # -- battle explanation -------------------------------------------------------------
    def battle_report(self) -> BattleReport | None:
        """The BP duel as it stands (after the block): both BPs, every modifier and its source."""
        if self._k[9] is None or self._k[0] == BLOCK:
            return None
        return _report(self.game, self._k[1], self._k[9])

    # -- what players see -----------------------------------------------------------------
    def _public_player(self, p: int) -> dict[str, Any]:
        P = self._k[7 + p]
        return {"deck_size": P[N], "deck_top": list(P[TOP]), "front": [list(y) for y in P[FR]],
                "back": [list(y) for y in P[BK]],
                "yoki": [P[YR], P[YS]], "damage": [P[DU], P[DD]], "trash": P[TR]}

    def _head(self) -> dict[str, Any]:
        k = self._k
        b = k[9]
        battle = None
        if b is not None:
            blocked = k[0] != BLOCK
            battle = {"attacker": b[0], "attacker_bonus": b[1], "attacker_method": b[2] + 1,
                      "blocker": b[3] if blocked else None, "blocker_bonus": b[4],
                      "blocker_method": b[5] + 1 if blocked else 0,
                      "attacker_possession": b[6] or None, "blocker_possession": b[7] or None}
        return {"stage": k[0], "turn_player": k[1], "first_player": None if k[2] < 0 else k[2],
                "first_turn": k[3], "event_used": k[4], "pending": k[5],
                "winner": None if k[6] < 0 else k[6], "battle": battle}

    def to_dict(self) -> dict[str, Any]:
        known = self.game._known
        if len(known) > _CACHE_SIZE:
            known.clear()
        known[self._k] = self._k
        d = {"game": "toritsuki", "options": dict(self.game.saved_options), **self._head()}
        ps = []
        for p in (0, 1):
            P = self._k[7 + p]
            ps.append({"hand": list(P[H]), "unseen": list(P[PO]),
                       **self._public_player(p)})
        d["players"] = ps
        return d

    def observation(self, player: int) -> dict[str, Any]:
        """The hand of ``player``; of the opponent only the hand size and the
        cards not yet seen (hand and unseen merged) unless ``open_hands``."""
        d = {**self._head(), "current_player": self.current_player, "you": player}
        ps = []
        for p in (0, 1):
            P = self._k[7 + p]
            e = self._public_player(p)
            if p == player or self.game.options["open_hands"]:
                e["hand"] = list(P[H])
                e["unseen"] = list(P[PO])
            else:
                e["hand_size"] = len(P[H])
                e["unseen_or_in_hand"] = sorted(P[H] + P[PO])
            ps.append(e)
        d["players"] = ps
        return d

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        o = 1 - player
        O = k[7 + o]
        hidden = (len(O[H]), tuple(sorted(O[H] + O[PO]))) + O[N:]
        return k[:7] + ((k[7], hidden) if player == 0 else (hidden, k[8])) + k[9:]

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "ToritsukiState":
        """Deal the opponent's hand anew from the cards ``player`` has not seen."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        o = 1 - player
        O = self._k[7 + o]
        pool = list(O[H] + O[PO])
        rng.shuffle(pool)
        h = len(O[H])
        k = list(self._k)
        k[7 + o] = (tuple(sorted(pool[:h])), tuple(sorted(pool[h:]))) + O[N:]
        return ToritsukiState(self.game, tuple(k))

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's hand and their unseen pool (deck and face-down
        yoki, TK-Q6): every split of those cards into a hand of the same size
        and a pool is a position ``player`` cannot tell apart, as in
        :meth:`redeal`.  The deck order is chance and the known deck top
        (``known_deck_order``) public, so nothing else is hidden."""
        if self.game.options["open_hands"]:
            return None
        o = 1 - player
        O = self._k[7 + o]

        def build(contents: tuple[tuple, ...]) -> ToritsukiState:
            k = list(self._k)
            k[7 + o] = (tuple(sorted(contents[0])), tuple(sorted(contents[1]))) + O[N:]
            return ToritsukiState(self.game, tuple(k))

        return Hidden(O[H] + O[PO], (("opponent hand", len(O[H])),
                                     ("opponent deck and face-down yoki", len(O[PO]))), build)

    def public_action(self, action: str, viewer: int) -> str:
        """A card dealt or drawn into a hand (TK-2, TK-3, TK-11, an event's
        draw TK-Q2) is seen by its owner only: ``deal ??``, ``draw ??``.
        Every other move is public, whichever card it is: the choices
        (keep, mulligan, summon, move, event, attack, block, possession) are
        played on the table; damage goes face up into the damage zone
        (表向きに配置, TK-18); a possession from the deck turns the top card
        over (めくる, TK-19); a known deck order is laid out for everybody
        (TK-Q6); the coin is seen by both (TK-4).  With ``open_hands``
        every move is public."""
        if self.game.options["open_hands"] or viewer == self.current_player:
            return action
        verb = action.partition(" ")[0]
        if verb in ("deal", "draw") and viewer != self._owner():
            return f"{verb} ??"
        return action

    def heuristic(self, player: int) -> float:
        """Damage lead, field BP, cards in hand and money: ready yoki and
        face-up damage (a boost) alike, resting yoki a little (they come back,
        a boost does not, TK-Q8) — only what ``player`` sees."""
        k = self._k
        if k[0] == OVER:
            return 100.0 * self.returns()[player]
        g = self.game

        def side(p: int) -> float:
            P = k[7 + p]
            bp = sum(max(m.bp for m in g.cards[y[0]].methods) for y in P[FR] + P[BK])
            return (-3.0 * (P[DU] + P[DD]) + bp / 40 + 0.5 * len(P[H]) + 0.3 * (P[YR] + P[DU]) + 0.1 * P[YS]
                    + 0.05 * P[N])
        return side(player) - side(1 - player)

    # -- text --------------------------------------------------------------------------
    def explain(self, action: str) -> str:
        g = self.game
        k = self._k
        tp = k[1]
        who = self.current_player
        verb, _sep, arg = action.partition(" ")
        name = lambda no: g.cards[int(no)].label()
        tail = ""
        if k[0] in (POSS_D, REVEAL_D) and k[0] != OVER:
            nk = self._step(action)
            if nk[0] == DUEL:
                tail = " " + self._duel(nk)[1].text()
        if verb == "keep":
            return _("Player {player} keeps the opening hand (TK-3).").format(player=who)
        if verb == "mulligan":
            return _("Player {player} shuffles the hand back and draws 5 again, once (マリガン, TK-3).").format(
                player=who)
        P = k[7 + tp]

        def field(slot: str) -> str:  # "F1", "oB2" (the opponent's): the yokai there, by name
            theirs = slot[0] == "o"
            slot = slot.lstrip("o")
            y = (k[8 - tp] if theirs else P)[FR if slot[0] == "F" else BK][int(slot[1]) - 1]
            return (_("player {player}'s {card}").format(player=1 - tp, card=name(y[0])) if theirs
                    else name(y[0]))

        def row(letter: str) -> str:
            return _(ROW_NAME[letter])
        if verb == "summon":
            head, boosts = _split_boost(arg)
            no, r = head.split()
            return _("Player {player} summons (召喚) {card} into {row}, ready (TK-13, TK-28), {payment}.").format(
                player=who, card=name(no), row=row(r), payment=_payment_text(P, g.cards[int(no)].cost, boosts))
        if verb == "release":
            return _("All 6 places are full: player {player} sends {card} from {row} to the trash to make room "
                     "(TK-13).").format(player=who, card=field(arg), row=row(arg[0]))
        if verb == "move":
            parts = [_("{card} from {row} to {other_row}").format(
                card=field(s), row=row(s[0]), other_row=row("B" if s[0] == "F" else "F")) for s in arg.split()]
            what = parts[0]
            for i, part in enumerate(parts[1:], 2):
                what = (_("{moves} and {move}") if i == len(parts) else _("{moves}, {move}")).format(
                    moves=what, move=part)
            return _("Player {player} moves {moves} (移動, TK-13, TK-27).").format(player=who, moves=what)
        if verb == "event":
            no, *target = arg.split()
            c = g.cards[int(no)]
            effect = c.effect_text()
            if target:
                return _("Player {player} uses the event (イベント) {card}: {effect}; target: {target} in {row} "
                         "(TK-13, TK-24, TK-Q2).").format(player=who, card=name(no), effect=effect,
                                                          target=field(target[0]), row=row(target[0][-2]))
            return _("Player {player} uses the event (イベント) {card}: {effect} (TK-13, TK-24, TK-Q2).").format(
                player=who, card=name(no), effect=effect)
        if verb == "end":
            if k[0] == MAIN:
                return _("Player {player} ends the turn (エンドタイム, TK-15), without battle.").format(player=who)
            return _("Player {player} ends the turn (エンドタイム, TK-15).").format(player=who)
        if verb == "attack":
            head, boosts = _split_boost(arg)
            slot, m = head.split()
            y = P[FR][int(slot[1]) - 1]
            meth = g.cards[y[0]].methods[int(m[1:]) - 1]
            payment = _payment_text(P, meth.cost, boosts)
            mname = _method_name(meth)
            if k[0] == MAIN:
                return _("Player {player} ends the main phase, goes to battle (TK-14) and attacks (アタック) with "
                         "{card} using {method} (BP {bp}, cost {cost}); it rests (TK-16); {payment}.").format(
                    player=who, card=name(y[0]), method=mname, bp=meth.bp, cost=meth.cost, payment=payment)
            return _("Player {player} attacks (アタック) with {card} using {method} (BP {bp}, cost {cost}); it rests "
                     "(TK-16); {payment}.").format(player=who, card=name(y[0]), method=mname, bp=meth.bp,
                                                   cost=meth.cost, payment=payment)
        if verb == "block":
            head, boosts = _split_boost(arg)
            slot, m = head.split()
            D = k[8 - tp]
            y = D[BK][int(slot[1]) - 1]
            meth = g.cards[y[0]].methods[int(m[1:]) - 1]
            return _("Player {player} blocks (ブロック) with {card} using {method} (BP {bp}, cost {cost}) (TK-17); "
                     "{payment}.").format(player=who, card=name(y[0]), method=_method_name(meth), bp=meth.bp,
                                          cost=meth.cost, payment=_payment_text(D, meth.cost, boosts))
        if verb == "noblock":
            return _("Player {player} does not block: no battle, 1 damage from the deck top (TK-18).").format(
                player=who)
        if verb == "pass":
            return _("Player {player} does not possess (TK-19).").format(player=who) + tail
        if verb == "possess":
            if arg == "deck":
                return _("Player {player} possesses (とりつく!): the deck top is revealed (TK-19, TK-20).").format(
                    player=who) + tail
            return _("Player {player} possesses (とりつく!): {card} from the hand (TK-19, TK-20).").format(
                player=who, card=name(arg)) + tail
        if verb == "first":
            return _("Player {player} goes first (TK-4, TK-Q3).").format(player=arg)
        if verb == "shuffle":
            return _("{card} is laid in the deck order, known to both players (TK-2, TK-Q6).").format(card=name(arg))
        if verb == "deal":  # the rule ids depend on the public stage only: the same for every card
            return _("{card} is dealt into player {player}'s hand ({rules}).").format(
                card=name(arg), player=tp, rules="TK-3" if k[5] == 1 else "TK-2")
        if verb == "draw":
            return _("Player {player} draws {card} ({rules}).").format(
                player=tp, card=name(arg), rules="TK-11" if k[0] == DRAW else "TK-24, TK-Q2")
        if verb == "damage":
            return _("{card} goes face up into the damage zone (ダメージ, TK-18, TK-6).").format(card=name(arg))
        if verb == "reveal":
            if self._fits(int(arg), self._owner()):
                return _("{card} is revealed: it possesses (TK-19).").format(card=name(arg)) + tail
            return _("{card} is revealed: it does not fit, to the trash (TK-19).").format(card=name(arg)) + tail
        return action

    def __str__(self) -> str:
        g = self.game
        k = self._k
        stage = k[0]
        if stage == OVER:
            head = _("game over: player {player} wins").format(player=k[6])
        else:
            cp = self.current_player
            if cp == CHANCE:
                head = _("stage {stage}, turn of player {player}, chance").format(
                    stage=_stage_name(stage), player=k[1])
            else:
                head = _("stage {stage}, turn of player {player}, player {decider} to decide").format(
                    stage=_stage_name(stage), player=k[1], decider=cp)
        lines = [_("Toritsuki card battle (とりつきカードバトル) · {head}").format(head=head)]

        def yk(y: tuple) -> str:
            c = g.cards[y[0]]
            extra = f"+{y[3]}" if y[3] else ""
            return f"{c.shown_name()}#{c.no}{extra}({'休' if y[1] else '元'})"
        for p in (0, 1):
            P = k[7 + p]
            hand = ", ".join(f"{g.cards[no].shown_name()}#{no}" + (f"×{c}" if c > 1 else "")
                             for no, c in _runs(P[H])) or "—"
            top = _(" top {cards}").format(cards=list(P[TOP])) if P[TOP] else ""
            lines.append(_("  player {player}: deck (山札) {deck}{top} | yoki (妖気) {ready} ready/{resting} resting | "
                           "damage (ダメージ) {up} up/{down} down | trash (トラッシュ) {trash}").format(
                player=p, deck=P[N], top=top, ready=P[YR], resting=P[YS], up=P[DU], down=P[DD], trash=P[TR]))
            lines.append(_("    front (前衛): {front} | back (後衛): {back}").format(
                front=", ".join(map(yk, P[FR])) or "—", back=", ".join(map(yk, P[BK])) or "—"))
            lines.append(_("    hand (手札): {hand}").format(hand=hand))
        rep = self.battle_report()
        if rep is not None:
            lines.append("  " + rep.text())
        elif k[9] is not None:
            lines.append(_("  attack by {card}#{no} (method {method})").format(
                card=g.cards[k[9][0]].shown_name(), no=k[9][0], method=k[9][2] + 1))
        return "\n".join(lines)


def _report(g: Toritsuki, tp: int, b: tuple) -> BattleReport:
    """TK-20, TK-21: both BPs with every modifier and its source."""
    sides = []
    for who, (no, bonus, mi) in ((tp, b[0:3]), (1 - tp, b[3:6])):
        c = g.cards[no]
        m = c.methods[mi]
        if get_language() == "ja":  # the names printed on the card
            s = SideReport(who, no, c.japanese, m.japanese or m.name, m.category, m.bp)
        else:
            s = SideReport(who, no, f"{c.name} ({c.japanese})", f"{m.name} ({m.japanese})", m.category, m.bp)
        if m.icon:
            s.icons.append(m.icon)
        if bonus:
            s.modifiers.append((_("event until end of turn"), bonus))
        sides.append(s)
    for owner, poss in ((tp, b[6]), (1 - tp, b[7])):
        if not poss:
            continue
        c = g.cards[poss]
        on = sides[0] if (owner == tp) == (c.target == "own") else sides[1]
        on.modifiers.append((_("possession (とりつく) by {card} #{no} of player {player}").format(
            card=c.shown_name(), no=poss, player=owner), c.poss_bp))
        if c.poss_icon and c.poss_icon not in on.icons:
            on.icons.append(c.poss_icon)
    a, d = sides
    if a.total > d.total:
        winner, fainted = "attacker", [d.name]
    elif a.total < d.total:
        winner, fainted = "defender", [a.name]
    else:
        winner = "tie"
        fainted = [s.name for s in (a, d) if "guard" not in s.icons]
    return BattleReport(a, d, winner, fainted, winner == "attacker" and "pierce" in a.icons)
