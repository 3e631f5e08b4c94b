"""Koi-koi Nobori (こいこいのぼり): pair carp-streamer cards into nobori.

Rules: ``docs/rules/koinobori.md`` (KN-1 … KN-16, KN-Q1 … KN-Q12), from the
seed text ``004_a89c246bd081cc4c.txt``.  Rule ids in comments and in
:meth:`KoinoboriState.explain` point there.

Representation.  Every card of a colour is like every other, and the deck is
shuffled after every refill and every kabutogaeshi, so no zone has an order
that anybody knows: each zone is a multiset kept as a tuple of counts in the
order :data:`CARDS`.  Drawing from the deck is a chance node whose outcomes
are card kinds with probability ``count / deck size`` (KN-Q8); the field
refill (reveal until a carp, shuffle the rest back, KN-8) has outcomes the
carp colours with probability ``carps of that colour / carps in deck``.

Notation (player actions, then chance outcomes)::

    nobori higoi          hand higoi + field higoi (KN-8)
    nobori fuki+magoi     hand fukinagashi + field magoi (KN-2, KN-9)
    play aokoi            play and draw (KN-10)
    capture higoi         the drawn fukinagashi takes field higoi (KN-10)
    kabuto fuki+higoi     take back the opponent's nobori of that kind (KN-11)
    agari / koikoi        after a third nobori, with the koikoi option (KN-15)
    pass                  nothing else is possible (KN-Q4)
    deal X / draw X / refill X   chance: the card dealt, drawn, laid on the field
    first 0 / first 1     chance: who goes first, with first_player='random' (KN-Q11)
"""

from __future__ import annotations

import itertools
import math
import random
import re
from fractions import Fraction
from pathlib import Path
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
from ...errors import CardFileError, PositionError
from ...i18n import N_, _, get_language, pgettext

__all__ = ["Koinobori", "KoinoboriState", "load_deck", "CARDS", "COLOURS", "KINDS"]

#: card kinds, in the order of every count tuple
CARDS = ("higoi", "aokoi", "magoi", "fukinagashi", "kabutogaeshi")
COLOURS = CARDS[:3]  # KN-1 the carp (こい) colours
F, K = 3, 4  # fukinagashi (KN-2), kabutogaeshi (KN-3)
#: nobori kinds: a plain pair of one colour, or fukinagashi + that colour (KN-9)
KINDS = COLOURS + tuple(f"fuki+{c}" for c in COLOURS)
JAPANESE = {"higoi": "ひごい", "aokoi": "あおこい", "magoi": "まごい",
            "fukinagashi": "ふきながし", "kabutogaeshi": "かぶとがえし"}
#: what each card is, in words (a tooltip beside its name)
ENGLISH = {"higoi": N_("red carp"), "aokoi": N_("blue carp"), "magoi": N_("black carp"),
           "fukinagashi": N_("streamer"), "kabutogaeshi": N_("helmet turn")}
#: the title, with its Japanese beside it (in Japanese: only the Japanese)
TITLE = N_("Koi-koi Nobori (こいこいのぼり)")


def card_name(kind: str) -> str:
    """A card or nobori kind as a person reads it: the notation (``higoi``,
    ``fuki+magoi``) in English, the seed's own word (ひごい, ふきながし+まごい) in
    Japanese."""
    if get_language() != "ja":
        return kind
    if kind.startswith("fuki+") and kind[5:] in JAPANESE:
        return f"{JAPANESE['fukinagashi']}+{JAPANESE[kind[5:]]}"
    return JAPANESE.get(kind, kind)


def role_name(role: Mapping[str, Any]) -> str:
    """A role (役) by its name, in Japanese by its ``japanese`` field when the card file has one."""
    if get_language() == "ja" and role.get("japanese"):
        return role["japanese"]
    return role["name"]


def list_text(items: Any) -> str:
    """Items joined as a list (``a, b`` in English, ``a、b`` in Japanese)."""
    return pgettext("list separator", ", ").join(items)


def stage_word(stage: str) -> str:
    """The name of a stage of the turn (the stage id itself in English)."""
    words = {
        "first": pgettext("koinobori stage", "first"),
        "deal": pgettext("koinobori stage", "deal"),
        "turn": pgettext("koinobori stage", "turn"),
        "draw_hand": pgettext("koinobori stage", "draw_hand"),
        "refill": pgettext("koinobori stage", "refill"),
        "draw_play": pgettext("koinobori stage", "draw_play"),
        "fuki": pgettext("koinobori stage", "fuki"),
        "koikoi": pgettext("koinobori stage", "koikoi"),
        "end": pgettext("koinobori stage", "end"),
    }
    return words.get(stage, stage)

# stages of the turn
FIRST, DEAL, TURN, DRAW_HAND, REFILL, DRAW_PLAY, FUKI, KOIKOI, END = (
    "first", "deal", "turn", "draw_hand", "refill", "draw_play", "fuki", "koikoi", "end")
STAGES = (FIRST, DEAL, TURN, DRAW_HAND, REFILL, DRAW_PLAY, FUKI, KOIKOI, END)
CHANCE_STAGES = {FIRST, DEAL, DRAW_HAND, REFILL, DRAW_PLAY}
KOIKOI_BONUS = 5  # KN-15

_C = "(higoi|aokoi|magoi)"
_ANY = "(higoi|aokoi|magoi|fukinagashi|kabutogaeshi)"
ACTION_RE = re.compile(
    rf"(nobori|kabuto) (fuki\+)?{_C}|play {_ANY}|capture {_C}|agari|koikoi|pass"
    rf"|(deal|draw) {_ANY}|refill {_C}|first [01]"
)


# -- card data (KN-Q1, KN-Q2) ------------------------------------------------
ROLE_KEYS = set(COLOURS) | {"nobori", "fukinagashi"}
#: decks shipped with cardlab, by name (all of them cardlab's own, KN-Q1)
NAMED_DECKS = {"default": "koinobori.json", "short": "koinobori_short.json"}


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

    def bad(card: str, field: str, why: str) -> CardFileError:
        return CardFileError(_("{where}: card {card}, field {field}: {why}").format(
            where=where, card=_brief(card), field=_brief(field), why=why))

    if not isinstance(data, dict):
        raise CardFileError(_("{where}: the file must hold a JSON object with 'cards', 'points', 'roles'").format(
            where=where))
    unknown = set(data) - {"name", "cards", "points", "roles", "fukinagashi_points"}
    if unknown:
        raise CardFileError(_("{where}: unknown top-level fields {fields}; "
                              "accepted: name, cards, points, roles, fukinagashi_points").format(
            where=where, fields=sorted(unknown)))
    if not isinstance(data.get("name", ""), str):
        raise CardFileError(_("{where}: 'name' must be a string, got {value}").format(
            where=where, value=_brief(data["name"])))
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise CardFileError(_("{where}: 'cards' must map each of {cards} to a count").format(
            where=where, cards=list(CARDS)))
    for name in cards:
        if name not in CARDS:
            raise bad(name, "cards", _("unknown card; the cards are {cards}").format(cards=", ".join(CARDS)))
    for name in CARDS:
        if name not in cards:
            raise bad(name, "cards", _("missing count"))
        n = cards[name]
        low = 1 if name in COLOURS else 0  # KN-4 needs one of each colour on the field
        if not isinstance(n, int) or isinstance(n, bool) or not low <= n <= 60:
            raise bad(name, "cards", _("count must be a whole number from {low} to 60, got {value}").format(
                low=low, value=_brief(n)))
    if sum(cards.values()) < 9:  # KN-4 three on the field, KN-7 three in each hand
        raise CardFileError(_("{where}: the cards add up to {total}; a game needs at "
                              "least 9 (3 on the field, KN-4, and 3 in each hand, KN-7)").format(
            where=where, total=sum(cards.values())))
    points = data.get("points")
    if not isinstance(points, dict):
        raise CardFileError(_("{where}: 'points' must map each colour {colours} to points").format(
            where=where, colours=list(COLOURS)))
    for name in points:
        if name not in COLOURS:
            raise bad(name, "points", _("only the colours {colours} score").format(colours=", ".join(COLOURS)))
    for name in COLOURS:
        p = points.get(name)
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= 100:
            raise bad(name, "points", _("points must be a whole number from 0 to 100, got {value}").format(
                value=_brief(p)))
    fuki = data.get("fukinagashi_points", {})  # KN-Q9: optional, by the carp's colour
    if not isinstance(fuki, dict):
        raise CardFileError(_("{where}: 'fukinagashi_points' must map some of the colours {colours} "
                              "to points (a fukinagashi pair by the colour of its carp), got {value}").format(
            where=where, colours=list(COLOURS), value=_brief(fuki)))
    for name, p in fuki.items():
        if name not in COLOURS:
            raise bad(name, "fukinagashi_points",
                      _("only the colours {colours} score").format(colours=", ".join(COLOURS)))
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p <= 100:
            raise bad(name, "fukinagashi_points",
                      _("points must be a whole number from 0 to 100, got {value}").format(value=_brief(p)))
    roles = data.get("roles", [])
    if not isinstance(roles, list):
        raise CardFileError(_("{where}: 'roles' must be a list of role objects").format(where=where))
    for i, role in enumerate(roles):
        unnamed = _("role #{number}").format(number=i)
        label = role.get("name", unnamed) if isinstance(role, dict) else unnamed
        if not isinstance(role, dict) or not isinstance(role.get("name"), str):
            raise bad(str(label), "name", _("each role needs a name (a string)"))
        extra = set(role) - {"name", "japanese", "bonus", "requires"}
        if extra:
            raise bad(label, sorted(extra)[0], _("unknown field; accepted: name, japanese, bonus, requires"))
        if not isinstance(role.get("japanese", ""), str):
            raise bad(label, "japanese", _("must be a string, got {value}").format(value=_brief(role["japanese"])))
        b = role.get("bonus")
        if not isinstance(b, int) or isinstance(b, bool) or not 0 <= b <= 100:
            raise bad(label, "bonus", _("must be a whole number from 0 to 100, got {value}").format(value=_brief(b)))
        req = role.get("requires")
        if not isinstance(req, dict) or not req:
            raise bad(label, "requires", _("must map some of {keys} to counts").format(keys=sorted(ROLE_KEYS)))
        for k, v in req.items():
            if k not in ROLE_KEYS:
                raise bad(label, "requires", _("unknown condition {condition}; accepted: {keys}").format(
                    condition=_brief(k), keys=sorted(ROLE_KEYS)))
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise bad(label, "requires", _("{key} must be a whole number ≥ 1, got {value}").format(
                    key=k, value=_brief(v)))
    return {"name": data.get("name", where), "cards": {c: cards[c] for c in CARDS},
            "points": {c: points[c] for c in COLOURS}, "roles": roles,
            "fukinagashi_points": {c: fuki.get(c, points[c]) for c in COLOURS}}


def _deck_ok(value: Any) -> bool:
    if value is None:
        return True
    if not isinstance(value, (str, Path, Mapping)):
        return False
    load_deck(value)  # raises CardFileError naming file, card, field
    return True


# -- the game ---------------------------------------------------------------
class Koinobori(Game):
    """Koi-koi Nobori (こいこいのぼり), two players.

    >>> import cardlab
    >>> game = cardlab.load("koinobori", open_hands=True)
    >>> state = game.new_initial_state(seed=1)
    >>> state.current_player, len(state.legal_actions()) > 0
    (0, True)
    """

    name = "koinobori"
    title = TITLE
    rules = "koinobori.md"
    # the option texts are marked for the catalogue and translated where they are shown
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees both hands; the deck stays random (KN-Q8)")),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (the score difference)"),
                         choices=("win", "score")),
        "roles": bool_option(N_("role bonuses 役ボーナス at the end, e.g. mitsunobori (KN-14, KN-Q2)"),
                             label=N_("roles 役")),
        "koikoi": bool_option(N_("the koi-koi call after a third nobori (KN-15)"), label=N_("koi-koi こいこい")),
        "refill_after_draw_capture": bool_option(
            N_("a capture by the drawn card (KN-10) is a nobori followed by the KN-8 steps: draw 1, refill "
               "the field (KN-Q3); False: the literal reading, no hand draw after it"), default=True,
            label=N_("refill after a draw capture")),
        "first_player": Option(0, N_("who goes first (KN-6): seat 0 or 1 (the janken happens before the "
                                     "game), or 'random': a chance event, 1/2 each (KN-Q11)"),
                               choices=(0, 1, "random"), check=lambda v: type(v) is int or v == "random",
                               accepts=N_("0, 1 or 'random'"), label=N_("first player 先攻")),
        "deck": Option(None, N_("card counts, points and roles: 'short', a JSON file path or a dict (KN-Q1)"),
                       check=_deck_ok,
                       accepts=N_("None (the default deck), 'short', a path to a JSON card file, or a dict")),
    }
    # the notation, as error messages show it (the quoted actions stay as they are in every language)
    ACTION_GRAMMAR = N_("'nobori higoi', 'nobori fuki+magoi', 'play aokoi', 'capture higoi', "
                        "'kabuto fuki+higoi', 'agari', 'koikoi', 'pass'; chance: "
                        "'deal X', 'draw X', 'refill X' (X a card: higoi, aokoi, magoi, fukinagashi, kabutogaeshi)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        deck = load_deck(self.options["deck"])
        self.deck_data = deck
        self.counts = tuple(deck["cards"][c] for c in CARDS)
        self.points = tuple(deck["points"][c] for c in COLOURS)
        self.fuki_points = tuple(deck["fukinagashi_points"][c] for c in COLOURS)  # KN-Q9
        self.role_list = deck["roles"] if self.options["roles"] else []

    def _make_spec(self) -> Spec:
        n, k = sum(self.counts), self.counts[K]
        # each nobori holds ≥ 1 carp, worth at most the better of its two ways to score
        best = sum(c * max(p, f) for c, p, f in zip(self.counts, self.points, self.fuki_points))
        best += sum(r["bonus"] for r in self.role_list)
        best += KOIKOI_BONUS if self.options["koikoi"] else 0
        bound = Fraction(best if self.options["payoff"] == "score" else 1)
        # deck draws ≤ n + 2k (each kabutogaeshi puts 2 cards back); every
        # turn draws, captures or is a pass answered by the other player; one
        # coin for the first player (KN-Q11).
        return Spec(num_players=2, chance=True,
                    perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound,
                    max_game_length=6 * (n + 2 * k) + 13)

    def _root(self) -> "KoinoboriState":
        deck = list(self.counts)
        for i in range(3):  # KN-4 one carp of each colour on the field
            deck[i] -= 1
        z5, z6 = (0,) * 5, (0,) * 6
        first = self.options["first_player"]  # KN-Q11; during the deal the mover is the first player
        stage, first = (FIRST, 0) if first == "random" else (DEAL, first)
        return KoinoboriState(self, (stage, first, tuple(deck), (1, 1, 1), z5, z5, z6, z6,
                                     (0, 0), (0, 0), -1, ""))

    def _state_from_dict(self, d: Mapping[str, Any]) -> "KoinoboriState":
        fields = ["stage", "to_move", "deck", "field", "hands", "nobori",
                  "kabutogaeshi_used", "koikoi", "koikoi_won", "then"]
        check_keys(d, fields, "koinobori")
        opts = d.get("options", {})
        if not isinstance(opts, Mapping) or dict(opts) != self.options_dict():
            raise PositionError(_("koinobori: the position was saved with options {saved}; "
                                  "this game has {options}: load it with those options").format(
                saved=_brief(opts), options=self.options_dict()))
        stage = d["stage"]
        if not isinstance(stage, str) or stage not in STAGES:
            raise PositionError(_("koinobori: stage {stage} unknown; one of {stages}").format(
                stage=_brief(stage), stages=STAGES))
        mover = d["to_move"]
        if type(mover) is not int or mover not in (0, 1):
            raise PositionError(_("koinobori: to_move must be 0 or 1, got {value}").format(value=_brief(mover)))

        def counts(obj: Any, names: tuple, what: str) -> tuple:
            if not isinstance(obj, Mapping) or set(obj) - set(names):
                raise PositionError(_("koinobori: {what} must map some of {names} to counts, got {value}").format(
                    what=what, names=list(names), value=_brief(obj)))
            out = tuple(obj.get(n, 0) for n in names)
            if any(type(v) is not int or v < 0 for v in out):
                raise PositionError(_("koinobori: {what} counts must be whole numbers ≥ 0, got {value}").format(
                    what=what, value=_brief(obj)))
            return out

        def pair(obj: Any, what: str) -> list:
            if not isinstance(obj, list) or len(obj) != 2:
                raise PositionError(_("koinobori: {what} must be a list of two entries (players 0, 1)").format(
                    what=what))
            return obj

        hands = [counts(h, CARDS, f"hands[{i}]") for i, h in enumerate(pair(d["hands"], "hands"))]
        nob = [counts(h, KINDS, f"nobori[{i}]") for i, h in enumerate(pair(d["nobori"], "nobori"))]
        kab = tuple(pair(d["kabutogaeshi_used"], "kabutogaeshi_used"))
        koi = tuple(pair(d["koikoi"], "koikoi"))
        for what, v in (("kabutogaeshi_used", kab), ("koikoi", koi)):
            if any(type(x) is not int or x < 0 for x in v):
                raise PositionError(_("koinobori: {what} must hold two whole numbers ≥ 0, got {value}").format(
                    what=what, value=_brief(list(v))))
        won = d["koikoi_won"]
        if won is not None and (type(won) is not int or won not in (0, 1)):
            raise PositionError(_("koinobori: koikoi_won must be null, 0 or 1, got {value}").format(value=_brief(won)))
        won = -1 if won is None else won
        then = d["then"]
        if not isinstance(then, str) or then not in ("", DRAW_HAND, REFILL):
            raise PositionError(_("koinobori: then must be '', 'draw_hand' or 'refill', got {value}").format(
                value=_brief(then)))
        if (then != "") != (stage in (FUKI, KOIKOI)):
            raise PositionError(_("koinobori: then is what follows a capture waiting at stage 'fuki' or "
                                  "'koikoi' ('draw_hand' or 'refill') and '' at any other stage; got "
                                  "then={then} at stage {stage}").format(then=repr(then), stage=repr(stage)))
        first = self.options["first_player"]
        if stage == FIRST and (first != "random" or mover != 0 or sum(hands[0]) + sum(hands[1])):
            raise PositionError(_("koinobori: stage 'first' (the coin for the first player, KN-Q11) comes "
                                  "before the deal: it needs first_player='random', to_move 0 and empty hands; "
                                  "this game has first_player={first}").format(first=repr(first)))
        if stage == DEAL and first in (0, 1) and mover != first:
            raise PositionError(_("koinobori: during the deal to_move is the first player (KN-7); this game "
                                  "has first_player={first}, the position says {mover}").format(
                first=first, mover=mover))
        key = (stage, mover, counts(d["deck"], CARDS, "deck"), counts(d["field"], COLOURS, "field"),
               hands[0], hands[1], nob[0], nob[1], kab, koi, won, then)
        # every card of the deck file is somewhere, exactly once
        total = [0] * 5
        for zone in (key[2], key[3] + (0, 0), hands[0], hands[1]):
            for i, v in enumerate(zone):
                total[i] += v
        for n in nob:
            for i in range(3):
                total[i] += 2 * n[i] + n[i + 3]
                total[F] += n[i + 3]  # a fuki+colour nobori: one carp, one fukinagashi
        total[K] += kab[0] + kab[1]
        total[F] += stage == FUKI  # the drawn fukinagashi waits for its carp
        for i, name in enumerate(CARDS):
            if total[i] != self.counts[i]:
                raise PositionError(
                    _("koinobori: the position holds {total} {card} cards in all; "
                      "the deck has {count}").format(total=total[i], card=card_name(name), count=self.counts[i]))
        for i, h in enumerate(hands):  # KN-7 three each; every later draw follows a card leaving the hand
            if sum(h) > 3:
                raise PositionError(_("koinobori: hands[{index}] holds {count} cards; a hand holds at most 3 "
                                      "(dealt 3, KN-7; a draw only after a card left it, KN-8, KN-10)").format(
                    index=i, count=sum(h)))
        self._check_flow(key)
        # KN-Q12: the same position as one reached by play (steps with nothing to do skipped,
        # the end when neither player can make a nobori)
        return KoinoboriState(self, _settle(key))

    def _check_flow(self, key: tuple) -> None:
        """What each stage needs, as play leaves it (KN-4, KN-7, KN-8, KN-10,
        KN-15, KN-Q3, KN-Q7), and the end as a property of the position
        (KN-12, KN-Q12): a position the rules cannot reach is refused."""
        stage, p, deck, field, h0, h1, n0, n1, kab, koi, won, then = key
        hands, nob, o = (h0, h1), (sum(n0), sum(n1)), 1 - p

        def no(why: str) -> PositionError:
            return PositionError(_("koinobori: stage {stage}: {why}").format(stage=repr(stage), why=why))

        if stage in (FIRST, DEAL):
            if field != (1, 1, 1):
                raise no(_("the field is one carp of each colour until the deal is over (KN-4)"))
            if any(nob) or any(kab) or any(koi) or won >= 0:
                raise no(_("nobody has a nobori, a used kabutogaeshi or a koi-koi yet"))
        if stage == DEAL:
            a, b = sum(hands[p]), sum(hands[o])
            if not ((a < 3 and b == 0) or (a == 3 and b < 3)):
                raise no(_("the hands are dealt 3 cards each, the first player (to_move {player}) first (KN-7); "
                           "they hold {first} (to_move) and {second}").format(player=p, first=a, second=b))
        if stage in (DRAW_HAND, DRAW_PLAY, FUKI, KOIKOI) and sum(hands[p]) > 2:
            raise no(_("hands[{player}] holds {count} cards, but a card of the mover left the hand and "
                       "the draw is still to come: at most 2 (KN-8, KN-10)").format(player=p, count=sum(hands[p])))
        if stage in (DRAW_HAND, REFILL, KOIKOI) and not nob[p]:
            raise no(_("it follows a nobori of the mover (KN-8), but nobori[{player}] is empty").format(player=p))
        if stage == DRAW_PLAY and not (sum(deck) and sum(field)):
            raise no(_("a card played to the field (KN-10) is followed by a draw: it needs a card on the "
                       "field and one in the deck"))
        if stage == FUKI and sum(1 for c in field if c) < 2:
            raise no(_("the drawn fukinagashi chooses its carp only when the field holds two carp colours "
                       "or more; with one it is captured at once (KN-10, KN-2)"))
        refill = self.options["refill_after_draw_capture"]
        if then == REFILL and refill:
            raise no(_("then='refill' (no hand draw after a capture by the drawn card) needs "
                       "refill_after_draw_capture=False (KN-Q3)"))
        if stage == FUKI and then == DRAW_HAND and not refill:
            raise no(_("then='draw_hand' after a capture by the drawn card needs "
                       "refill_after_draw_capture=True (KN-Q3)"))
        koikoi = self.options["koikoi"]
        if not koikoi:
            if stage == KOIKOI:
                raise no(_("it needs the koikoi option (KN-15)"))
            if any(koi) or won >= 0:
                raise PositionError(_("koinobori: koikoi must be [0, 0] without the koikoi option and "
                                      "koikoi_won null (KN-15)"))
        else:
            if any(v not in (0, 3) for v in koi) or all(koi):
                raise PositionError(_("koinobori: koikoi {koikoi}: koi-koi is called at the third nobori, "
                                      "so each count is 0 or 3, and one player at most has called: the other "
                                      "one's next nobori ends the game (KN-15, KN-Q7)").format(koikoi=list(koi)))
            if won >= 0 and not (stage == END and won == p and koi[won] and nob[won] == 4):
                raise PositionError(_("koinobori: koikoi_won {won}: the koi-koi caller (to_move) wins when a "
                                      "fourth nobori ends the game at once (KN-15, KN-Q7); here stage "
                                      "{stage}, to_move {player}, koikoi {koikoi}, nobori {first} and {second}").format(
                    won=won, stage=repr(stage), player=p, koikoi=list(koi), first=nob[0], second=nob[1]))
            if stage == KOIKOI and (any(koi) or nob[p] != 3):
                raise no(_("the call comes at the mover's third nobori, with no koi-koi called yet (KN-15); "
                           "nobori[{player}] holds {count}, koikoi is {koikoi}").format(
                    player=p, count=nob[p], koikoi=list(koi)))
            for q in (0, 1):
                if koi[q]:
                    limit = 4 if won == q else 3
                else:
                    limit = 3 if q == p and stage in (KOIKOI, END) else 2
                if nob[q] > limit:
                    raise PositionError(
                        _("koinobori: nobori[{player}] holds {count} nobori at stage {stage} with koikoi "
                          "{koikoi}: the third nobori is followed by agari or koi-koi and a fourth after "
                          "koi-koi ends the game (KN-15), so at most {limit}").format(
                            player=q, count=nob[q], stage=repr(stage), koikoi=list(koi), limit=limit))
        if stage == END and (_can_act(deck, field, h0) or _can_act(deck, field, h1)):
            called = koikoi and (won == p or koi[o] or (nob[p] == 3 and not koi[p]))
            if not called:  # agari, a failed or a successful koi-koi end the game at once (KN-15)
                q = 0 if _can_act(deck, field, h0) else 1
                raise no(_("player {player} can still make a nobori, so the game is not over (KN-12, KN-Q4, "
                           "KN-Q12): load it as a 'turn'").format(player=q))


def _can_act(deck: tuple, field: tuple, hand: tuple) -> bool:
    """KN-Q4: a pair is possible, or the deck is not empty and a carp can be played."""
    if any(hand[i] and field[i] for i in range(3)):
        return True
    if hand[F] and sum(field):
        return True
    return bool(sum(deck) and (hand[0] or hand[1] or hand[2]))


def _settle(key: tuple) -> tuple:
    """The key with the steps that have nothing to do skipped: no hand draw
    from an empty deck (KN-8), no refill of a full field or from a deck
    without carp (KN-Q5), and the end when, at a turn, neither player can
    make a nobori (KN-12, KN-Q4).  Play and ``state_from_dict`` both pass
    through here, so the end is a property of the position (KN-Q12)."""
    stage, p, deck, field, h0, h1 = key[:6]
    if stage == DRAW_HAND and not sum(deck):
        stage = REFILL
    if stage == REFILL and (sum(field) >= 3 or not (deck[0] or deck[1] or deck[2])):
        stage, p = TURN, 1 - p  # KN-Q5: no carp left, the field stays short
    if stage == TURN and not _can_act(deck, field, h0) and not _can_act(deck, field, h1):
        stage = END  # KN-12
    return (stage, p) + key[2:] if (stage, p) != key[:2] else key


def _brief(value: Any) -> str:
    """``repr(value)``, cut short for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _a(word: str) -> str:
    """``a higoi``, ``an aokoi``."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _add(t: tuple, i: int, d: int) -> tuple:
    lst = list(t)
    lst[i] += d
    return tuple(lst)


class KoinoboriState(State):
    """A Koi-koi Nobori position; see the module docstring for the notation.

    The key tuple is ``(stage, mover, deck, field, hand0, hand1, nobori0,
    nobori1, kabutogaeshi_used, koikoi, koikoi_won, then)``.
    """

    __slots__ = ()

    # -- reading the position -------------------------------------------------
    @property
    def stage(self) -> str:
        return self._k[0]

    @property
    def mover(self) -> int:
        """Whose turn it is (also during the chance events of that turn)."""
        return self._k[1]

    @property
    def current_player(self) -> int:
        stage = self._k[0]
        if stage == END:
            return TERMINAL
        if stage in CHANCE_STAGES:
            return CHANCE
        return self._k[1]

    def hand(self, p: int) -> dict[str, int]:
        return dict(zip(CARDS, self._k[4 + p]))

    def nobori(self, p: int) -> dict[str, int]:
        return dict(zip(KINDS, self._k[6 + p]))

    @property
    def field(self) -> dict[str, int]:
        return dict(zip(COLOURS, self._k[3]))

    @property
    def deck_size(self) -> int:
        return sum(self._k[2])

    def _can_act(self, p: int) -> bool:
        """KN-Q4: a pair is possible, or the deck is not empty and a carp can be played."""
        return _can_act(self._k[2], self._k[3], self._k[4 + p])

    def score(self, p: int) -> int:
        """KN-13 points per nobori colour (a fuki pair counts as its carp unless the
        card file gives it its own points, KN-9, KN-Q9), plus role bonuses (KN-14)
        and the koi-koi bonus (KN-15)."""
        nob = self._k[6 + p]
        pts, fuki = self.game.points, self.game.fuki_points
        total = sum(nob[i] * pts[i] + nob[i + 3] * fuki[i] for i in range(3))
        for role in self.game.role_list:
            if _role_met(role, nob):
                total += role["bonus"]
        if self._k[10] == p:
            total += KOIKOI_BONUS
        return total

    def roles_met(self, p: int) -> list[str]:
        return [r["name"] for r in self.game.role_list if _role_met(r, self._k[6 + p])]

    def heuristic(self, player: int) -> float:
        """Score lead, plus a little for pairs ready in hand (public and own cards only)."""
        if self._k[0] == END:
            return 100.0 * self.returns()[player]
        hand, field = self._k[4 + player], self._k[3]
        ready = sum(1 for i in range(3) if hand[i] and field[i]) + (hand[F] > 0)
        return self.score(player) - self.score(1 - player) + 0.5 * ready + 0.3 * hand[K]

    def returns(self) -> list:
        if self._k[0] != END:
            return [0, 0]
        d = self.score(0) - self.score(1)  # KN-13; equal scores are a draw, 0 and 0 (KN-Q10)
        if self.game.options["payoff"] == "win":
            d = (d > 0) - (d < 0)
        return [d, -d]

    # -- moves -----------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        stage, p = self._k[0], self._k[1]
        if stage == TURN:
            _stage, _mover, deck, field, *rest = self._k
            hand, opp = rest[p], rest[2 + (1 - p)]
            acts = [f"nobori {c}" for i, c in enumerate(COLOURS) if hand[i] and field[i]]
            if hand[F]:
                acts += [f"nobori fuki+{c}" for i, c in enumerate(COLOURS) if field[i]]
            if sum(deck):
                acts += [f"play {c}" for i, c in enumerate(COLOURS) if hand[i]]
            if hand[K]:  # KN-11, KN-Q6: only against an existing nobori
                acts += [f"kabuto {k}" for i, k in enumerate(KINDS) if opp[i]]
            return acts or ["pass"]
        if stage == FUKI:
            return [f"capture {c}" for i, c in enumerate(COLOURS) if self._k[3][i]]
        if stage == KOIKOI:
            return ["agari", "koikoi"]
        return []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        stage = self._k[0]
        deck = self._k[2]
        if stage == FIRST:  # KN-Q11
            return [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
        if stage in (DEAL, DRAW_HAND, DRAW_PLAY):
            n = sum(deck)
            verb = "deal" if stage == DEAL else "draw"
            return [(f"{verb} {c}", Fraction(deck[i], n)) for i, c in enumerate(CARDS) if deck[i]]
        if stage == REFILL:
            n = deck[0] + deck[1] + deck[2]
            return [(f"refill {c}", Fraction(deck[i], n)) for i, c in enumerate(COLOURS) if deck[i]]
        return []

    def _apply(self, action: str) -> "KoinoboriState":
        verb, _sep, arg = action.partition(" ")
        (stage, p, deck, field, h0, h1, n0, n1, kab, koi, won, then) = self._k
        hands, nob = [h0, h1], [n0, n1]
        if verb == "first":  # KN-Q11 the coin: that player is dealt first and moves first
            return self._next(DEAL, int(arg), deck, field, hands, nob, kab, koi, won, "")
        if verb in ("deal", "draw", "refill"):
            i = CARDS.index(arg)
            deck = _add(deck, i, -1)
            if stage == DEAL:  # KN-7 first player (p), then second, draw 3 each; the first starts
                who = p if sum(hands[p]) < 3 else 1 - p
                hands[who] = _add(hands[who], i, 1)
                done = sum(hands[1 - p]) == 3
                return self._next(TURN if done else DEAL, p, deck, field, hands, nob, kab, koi, won, "")
            if stage == DRAW_HAND:  # KN-8 (1)
                hands[p] = _add(hands[p], i, 1)
                return self._next(REFILL, p, deck, field, hands, nob, kab, koi, won, "")
            if stage == REFILL:  # KN-8 (2) the first carp revealed goes to the field
                return self._next(REFILL, p, deck, _add(field, i, 1), hands, nob, kab, koi, won, "")
            # DRAW_PLAY, KN-10: a drawn card that pairs is captured at once
            after = DRAW_HAND if self.game.options["refill_after_draw_capture"] else REFILL  # KN-Q3
            if i < 3 and field[i]:
                nob[p] = _add(nob[p], i, 1)
                return self._captured(p, deck, _add(field, i, -1), hands, nob, kab, koi, won, after)
            if i == F and sum(field):
                colours = [j for j in range(3) if field[j]]
                if len(colours) == 1:
                    j = colours[0]
                    nob[p] = _add(nob[p], 3 + j, 1)
                    return self._captured(p, deck, _add(field, j, -1), hands, nob, kab, koi, won, after)
                return self._next(FUKI, p, deck, field, hands, nob, kab, koi, won, after)
            hands[p] = _add(hands[p], i, 1)
            return self._end_turn(p, deck, field, hands, nob, kab, koi, won)
        if verb == "capture":  # the drawn fukinagashi chooses its carp
            j = COLOURS.index(arg)
            nob[p] = _add(nob[p], 3 + j, 1)
            return self._captured(p, deck, _add(field, j, -1), hands, nob, kab, koi, won, then)
        if verb == "nobori":  # KN-8, KN-9
            if arg.startswith("fuki+"):
                j = COLOURS.index(arg[5:])
                hands[p] = _add(hands[p], F, -1)
                nob[p] = _add(nob[p], 3 + j, 1)
            else:
                j = COLOURS.index(arg)
                hands[p] = _add(hands[p], j, -1)
                nob[p] = _add(nob[p], j, 1)
            return self._captured(p, deck, _add(field, j, -1), hands, nob, kab, koi, won, DRAW_HAND)
        if verb == "play":  # KN-10
            i = COLOURS.index(arg)
            hands[p] = _add(hands[p], i, -1)
            return self._next(DRAW_PLAY, p, deck, _add(field, i, 1), hands, nob, kab, koi, won, "")
        if verb == "kabuto":  # KN-11: both cards back into the deck, reshuffled; no refill
            k = KINDS.index(arg)
            o = 1 - p
            nob[o] = _add(nob[o], k, -1)
            j = k % 3
            deck = _add(deck, j, 2 if k < 3 else 1)
            if k >= 3:
                deck = _add(deck, F, 1)
            hands[p] = _add(hands[p], K, -1)
            kab = _add(kab, p, 1)
            return self._end_turn(p, deck, field, hands, nob, kab, koi, won)
        if verb == "pass":  # KN-Q4
            return self._end_turn(p, deck, field, hands, nob, kab, koi, won)
        if verb == "agari":  # KN-15
            return self._next(END, p, deck, field, hands, nob, kab, koi, won, "")
        if verb == "koikoi":  # KN-15, KN-Q7 remember the count at the call
            koi = _add(koi, p, sum(nob[p]))
            return self._next(then, p, deck, field, hands, nob, kab, koi, won, "")
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    # -- flow ------------------------------------------------------------------
    def _captured(self, p, deck, field, hands, nob, kab, koi, won, then) -> "KoinoboriState":
        """After any new nobori: the koi-koi consequences (KN-15), then ``then``."""
        if self.game.options["koikoi"]:
            count = sum(nob[p])
            if koi[1 - p]:  # the opponent's koi-koi fails: the game ends now
                return self._next(END, p, deck, field, hands, nob, kab, koi, won, "")
            if koi[p] and count > koi[p]:  # KN-Q7: one more than at the call
                return self._next(END, p, deck, field, hands, nob, kab, koi, p, "")
            if not koi[p] and count == 3:
                return self._next(KOIKOI, p, deck, field, hands, nob, kab, koi, won, then)
        return self._next(then, p, deck, field, hands, nob, kab, koi, won, "")

    def _end_turn(self, p, deck, field, hands, nob, kab, koi, won) -> "KoinoboriState":
        return self._next(TURN, 1 - p, deck, field, hands, nob, kab, koi, won, "")

    def _next(self, stage, p, deck, field, hands, nob, kab, koi, won, then) -> "KoinoboriState":
        """Build the next state, skipping steps that have nothing to do (:func:`_settle`)."""
        return KoinoboriState(self.game, _settle((stage, p, deck, field, hands[0], hands[1], nob[0], nob[1],
                                                  kab, koi, won, then)))

    # -- what players see --------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        opp = 1 - player
        open_hands = self.game.options["open_hands"]
        return {
            "stage": k[0],
            "to_move": k[1],
            "field": self.field,
            "deck": sum(k[2]),
            "hand": self.hand(player),
            "opponent_hand": self.hand(opp) if open_hands else sum(k[4 + opp]),
            "nobori": [self.nobori(0), self.nobori(1)],
            "kabutogaeshi_used": list(k[8]),
            "koikoi": list(k[9]),
            "scores": [self.score(0), self.score(1)],
        }

    def information_set(self, player: int) -> tuple:
        k = self._k
        opp_hand = k[4 + 1 - player] if self.game.options["open_hands"] else sum(k[5 - player])
        return (k[0], k[1], sum(k[2]), k[3], k[4 + player], opp_hand, k[6], k[7], k[8], k[9],
                k[10], k[11])

    def _agrees(self, key: tuple) -> bool:
        """A filling of the unseen cards agrees with what everybody saw: the
        stage is the one the rules leave there (a game that went on has a
        player who can act, one that ended by KN-12 has none, KN-Q12)."""
        if _settle(key) != key:
            return False
        try:
            self.game._check_flow(key)
        except PositionError:
            return False
        return True

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "KoinoboriState":
        """Deal the opponent's hand anew from the cards ``player`` has not seen
        (only deals that agree with what was seen, by their chance)."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        o = 1 - player
        pool = [i for i in range(5) for _ in range(self._k[2][i] + self._k[4 + o][i])]
        rng.shuffle(pool)
        n = sum(self._k[4 + o])
        hand, deck = [0] * 5, [0] * 5
        for j, i in enumerate(pool):
            (hand if j < n else deck)[i] += 1
        k = list(self._k)
        k[2], k[4 + o] = tuple(deck), tuple(hand)
        if self._agrees(tuple(k)):
            return KoinoboriState(self.game, tuple(k))
        # the shuffle contradicts what was seen (say an ended game in which the
        # opponent could still act): draw among the deals that agree, each
        # hand by its number of ways (at most 3 cards: a handful of hands)
        unseen = [self._k[2][i] + self._k[4 + o][i] for i in range(5)]
        worlds, weights = [], []
        for h in itertools.product(*(range(min(c, n) + 1) for c in unseen)):
            if sum(h) == n:
                k[2], k[4 + o] = tuple(c - x for c, x in zip(unseen, h)), h
                if self._agrees(tuple(k)):
                    worlds.append(tuple(k))
                    weights.append(math.prod(math.comb(c, x) for c, x in zip(unseen, h)))
        r = rng.randrange(sum(weights))
        for world, w in zip(worlds, weights):
            if r < w:
                return KoinoboriState(self.game, world)
            r -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def public_action(self, action: str, viewer: int) -> str:
        """A card dealt or drawn into a hand is seen only by its owner
        (KN-7, KN-8, KN-10); every other move is public: carp played and
        captured face up, refills revealed to the field, the calls."""
        k = self._k
        if self.game.options["open_hands"] or viewer == self.current_player:
            return action
        verb, _sep, arg = action.partition(" ")
        if verb == "deal":  # KN-7 the first player (the mover) is dealt 3 first
            owner = k[1] if sum(k[4 + k[1]]) < 3 else 1 - k[1]
            return action if viewer == owner else "deal ??"
        if verb == "draw":
            if k[0] == DRAW_PLAY:
                i = CARDS.index(arg)
                if (i < 3 and k[3][i]) or (i == F and sum(k[3])):
                    return action  # it pairs: captured face up (KN-10)
            return action if viewer == k[1] else "draw ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's hand and the deck (carp on the field and nobori are public)."""
        if self.game.options["open_hands"]:
            return None
        o = 1 - player
        k = self._k
        cards = tuple(i for i in range(5) for _ in range(k[2][i] + k[4 + o][i]))

        def build(contents: tuple[tuple, ...]) -> KoinoboriState:
            hand, deck = ([0] * 5 for _ in range(2))
            for i in contents[0]:
                hand[i] += 1
            for i in contents[1]:
                deck[i] += 1
            new = list(k)
            new[2], new[4 + o] = tuple(deck), tuple(hand)
            return KoinoboriState(self.game, tuple(new)) if self._agrees(tuple(new)) else None

        return Hidden(cards, (("opponent hand", sum(k[4 + o])), ("deck", sum(k[2]))), build)

    def to_dict(self) -> dict[str, Any]:
        k = self._k
        return {
            "game": "koinobori",
            "options": self.game.options_dict(),
            "stage": k[0],
            "to_move": k[1],
            "deck": dict(zip(CARDS, k[2])),
            "field": self.field,
            "hands": [self.hand(0), self.hand(1)],
            "nobori": [self.nobori(0), self.nobori(1)],
            "kabutogaeshi_used": list(k[8]),
            "koikoi": list(k[9]),
            "koikoi_won": None if k[10] < 0 else k[10],
            "then": k[11],
        }

    def _follow_up(self, deck_size: int, field_size: int, draw: bool, fuki: bool, why: bool = False) -> str:
        """What follows a new nobori of the mover, from public facts only: the
        koi-koi consequences (KN-15), then the hand draw (KN-8, none after a
        draw capture with the literal KN-Q3 option) and the field refill (KN-8,
        KN-Q5).  ``deck_size`` and ``field_size`` are those after the capture;
        ``fuki``: the new nobori holds a fukinagashi; ``why``: cite KN-Q3 (a
        capture by the drawn card)."""
        k = self._k
        p, koi = k[1], k[9]
        call = False
        if self.game.options["koikoi"]:
            count = sum(k[6 + p]) + 1
            if koi[1 - p]:
                return _("player {player}'s koi-koi fails: the game ends at once, no bonus (KN-15).").format(
                    player=1 - p)
            if koi[p] and count > koi[p]:
                return _("the koi-koi succeeds: the game ends at once with +{bonus} (KN-15).").format(
                    bonus=KOIKOI_BONUS)
            if not koi[p] and count == 3:
                call = True

        def called(step: str) -> str:  # the steps after a third nobori follow a koi-koi call only
            if not call:
                return step
            return _("third nobori: agari ends the game, or after koi-koi (KN-15): {step}").format(step=step)

        if draw and not deck_size:
            return called(_("the deck is empty: no draw and no refill (KN-8, KN-Q5)."))
        # Nobody sees all of the deck and the hands.  What is public: how many carp
        # (hidden_carps) and how many other cards (hidden_others) they hold together
        # after the capture, so the deck holds at least deck_size - hidden_others carp.
        hidden_others = (self.game.counts[F] + self.game.counts[K] - sum(k[6][3:]) - sum(k[7][3:])
                         - fuki - sum(k[8]))
        hidden_carps = sum(self.game.counts[i] - k[3][i] - 2 * (k[6][i] + k[7][i]) - k[6][i + 3] - k[7][i + 3]
                           for i in range(3)) - (not fuki)  # a plain pair's other carp left a hand or the deck
        if draw:
            last = deck_size == 1
            steps = {  # (after the koi-koi call, the last card, cite KN-Q3)
                (False, False, False): _("then draws 1"),
                (False, True, False): _("then draws the last card"),
                (False, False, True): _("then draws 1 (KN-Q3)"),
                (False, True, True): _("then draws the last card (KN-Q3)"),
                (True, False, False): _("the player draws 1"),
                (True, True, False): _("the player draws the last card"),
                (True, False, True): _("the player draws 1 (KN-Q3)"),
                (True, True, True): _("the player draws the last card (KN-Q3)"),
            }
            step = steps[call, last, bool(why)]
            deck_size -= 1  # the card drawn may be a carp
        else:
            step = _("no hand draw (KN-Q3, the literal option)")
        step = called(step)
        if field_size >= 3:
            return _("{step}; the field still holds {count} cards, no refill (KN-8).").format(
                step=step, count=field_size)
        if not deck_size:
            return _("{step}; the deck is empty, so the field stays short (KN-8, KN-Q5).").format(step=step)
        if not hidden_carps:
            return _("{step}; no carp is left in the deck, so the field stays short (KN-8, KN-Q5).").format(
                step=step)
        if deck_size - hidden_others >= 1:
            return _("{step} and the field is refilled (KN-8).").format(step=step)
        return _("{step} and the field is refilled if the deck still holds a carp (KN-8, KN-Q5).").format(step=step)

    def explain(self, action: str) -> str:
        verb, _sep, arg = action.partition(" ")
        p = self._k[1]
        deck_size, field_size = sum(self._k[2]), sum(self._k[3])
        refill = self.game.options["refill_after_draw_capture"]
        if verb == "nobori":
            follow = self._follow_up(deck_size, field_size - 1, True, arg.startswith("fuki+"))
            if arg.startswith("fuki+"):
                return _("Player {player} pairs fukinagashi + {colour} with the field {colour} and captures a "
                         "nobori (KN-8, KN-9); {follow_up}").format(
                    player=p, colour=card_name(arg[5:]), follow_up=follow)
            return _("Player {player} pairs {colour} with the field {colour} and captures a nobori (KN-8); "
                     "{follow_up}").format(player=p, colour=card_name(arg), follow_up=follow)
        if verb == "play":
            return _("Player {player} plays {card} to the field and draws 1; a drawn card that pairs is captured "
                     "at once (KN-10).").format(player=p, card=card_name(arg))
        if verb == "kabuto":
            return _("Player {player} uses kabutogaeshi: player {opponent}'s {kind} nobori goes back into the "
                     "deck, which is shuffled; no hand refill (KN-11).").format(
                player=p, opponent=1 - p, kind=card_name(arg))
        if verb == "capture":
            return _("The drawn fukinagashi pairs with the field {colour}: captured at once (KN-10, KN-9); "
                     "{follow_up}").format(
                colour=card_name(arg),
                follow_up=self._follow_up(deck_size, field_size - 1, self._k[11] == DRAW_HAND, True, True))
        if verb == "pass":
            return _("Player {player} can make no nobori and passes (KN-Q4).").format(player=p)
        if verb == "agari":
            return _("Player {player} calls agari: the game ends and scores are compared (KN-15).").format(player=p)
        if verb == "koikoi":
            return _("Player {player} calls koi-koi: one more nobori ends the game with +{bonus} (KN-15).").format(
                player=p, bonus=KOIKOI_BONUS)
        if verb == "first":
            return _("Player {player} goes first (先攻), by chance with probability 1/2 (KN-6, KN-Q11).").format(
                player=arg)
        if verb == "deal":
            if _a(arg).startswith("an "):
                return _("An {card} is dealt (KN-7).").format(card=card_name(arg))
            return _("A {card} is dealt (KN-7).").format(card=card_name(arg))
        if verb == "refill":
            if _a(arg).startswith("an "):
                return _("The field is refilled: cards are revealed until an {card}, the rest reshuffled "
                         "(KN-8).").format(card=card_name(arg))
            return _("The field is refilled: cards are revealed until a {card}, the rest reshuffled "
                     "(KN-8).").format(card=card_name(arg))
        if verb == "draw":
            if self._k[0] == DRAW_PLAY:
                i = CARDS.index(arg)
                field = self._k[3]
                if i == F and sum(1 for c in field if c) > 1:
                    return _("Player {player} draws {card}: it pairs with any carp of the field; the player "
                             "chooses which (KN-10, KN-2).").format(player=p, card=card_name(arg))
                if (i < 3 and field[i]) or (i == F and sum(field)):
                    return _("Player {player} draws {card}: it pairs with the field, captured at once (KN-10); "
                             "{follow_up}").format(
                        player=p, card=card_name(arg),
                        follow_up=self._follow_up(deck_size - 1, field_size - 1, refill, i == F, True))
                return _("Player {player} draws {card}: no pair, it goes to the hand (KN-10).").format(
                    player=p, card=card_name(arg))
            return _("Player {player} draws {card} into the hand (KN-8).").format(player=p, card=card_name(arg))
        return action

    def __str__(self) -> str:
        k = self._k
        def cards(counts: tuple, names: tuple) -> str:
            s = list_text(f"{card_name(n)}×{c}" if c > 1 else card_name(n) for n, c in zip(names, counts) if c)
            return s or "—"
        head = {END: _("game over"), DEAL: _("dealing"), FIRST: _("choosing the first player")}.get(
            k[0]) or _("player {player} to move ({stage})").format(player=k[1], stage=stage_word(k[0]))
        lines = [f"{_(TITLE)} · {head}",
                 "  " + _("field (場): {cards}").format(cards=cards(k[3], COLOURS)),
                 "  " + _("deck (山札): {count} cards").format(count=sum(k[2]))]
        for p in (0, 1):
            extra = ""
            if k[8][p]:
                extra += pgettext("list separator", ", ") + _("kabutogaeshi used {count}").format(count=k[8][p])
            if k[9][p]:
                extra += pgettext("list separator", ", ") + _("koi-koi at {count}").format(count=k[9][p])
            lines.append("  " + _("player {player}: hand {hand} | nobori {nobori} | score {score}{extra}").format(
                player=p, hand=cards(k[4 + p], CARDS), nobori=cards(k[6 + p], KINDS), score=self.score(p),
                extra=extra))
        if k[0] == END:
            r = self.returns()
            lines.append("  " + (_("result: draw") if r[0] == 0 else
                                 _("result: player {player} wins").format(player=0 if r[0] > 0 else 1)))
        return "\n".join(lines)

def _role_met(role: Mapping[str, Any], nob: tuple) -> bool:
    """KN-14: a role's conditions on the nobori counts (colours, total, fukinagashi)."""
    have = {c: nob[i] + nob[i + 3] for i, c in enumerate(COLOURS)}
    have["nobori"] = sum(nob)
    have["fukinagashi"] = nob[3] + nob[4] + nob[5]
    return all(have[k] >= v for k, v in role["requires"].items())
