"""What a saved Koi-koi Nobori position must be (``state_from_dict``).

:func:`key_from_dict` reads the fields of :meth:`KoinoboriState.to_dict`
into a key of the layout :data:`~.rules.KEY`, checking each field
(:func:`_read_fields`), that every card of the deck file is somewhere
exactly once (:func:`check_cards`), and that the rules can reach it
(:func:`check_flow`: KN-4, KN-7, KN-8, KN-10, KN-12, KN-15, KN-Q3, KN-Q7,
KN-Q12).  A refusal is a :class:`~cardlab.PositionError` naming the field.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...cardfile import short
from ...core import check_keys
from ...errors import PositionError
from ...i18n import _
from . import rules
from .rules import (CARDS, COLOURS, DEAL, DRAW_HAND, DRAW_PLAY, END, FIRST, FUKI, KEY, KINDS, KOIKOI, REFILL,
                    STAGES)
from .text import card_name

__all__ = ["key_from_dict", "check_cards", "check_flow"]

FIELDS = ["stage", "to_move", "deck", "field", "hands", "nobori", "kabutogaeshi_used", "koikoi", "koikoi_won",
          "then"]


def key_from_dict(game: Any, d: Mapping[str, Any]) -> tuple:
    """The key of the position ``d`` (as ``to_dict`` writes it), checked."""
    check_keys(d, FIELDS, "koinobori")
    opts = d.get("options", {})
    if not isinstance(opts, Mapping) or dict(opts) != game.options_dict():
        raise PositionError(_("koinobori: the position was saved with options {saved}; "
                              "this game has {options}: load it with those options").format(
            saved=short(opts), options=game.options_dict()))
    key = _read_fields(game, d)
    check_cards(game, key)
    for i in (0, 1):  # KN-7 three each; every later draw follows a card leaving the hand
        if sum(key[KEY.hand0 + i]) > rules.HAND_SIZE:
            raise PositionError(_("koinobori: hands[{index}] holds {count} cards; a hand holds at most 3 "
                                  "(dealt 3, KN-7; a draw only after a card left it, KN-8, KN-10)").format(
                index=i, count=sum(key[KEY.hand0 + i])))
    check_flow(game, key)
    return key


def _counts(obj: Any, names: tuple, what: str) -> tuple:
    if not isinstance(obj, Mapping) or set(obj) - set(names):
        raise PositionError(_("koinobori: {what} must map some of {names} to counts, got {value}").format(
            what=what, names=list(names), value=short(obj)))
    out = tuple(obj.get(n, 0) for n in names)
    if any(type(v) is not int or v < 0 for v in out):
        raise PositionError(_("koinobori: {what} counts must be whole numbers ≥ 0, got {value}").format(
            what=what, value=short(obj)))
    return out


def _pair(obj: Any, what: str) -> list:
    if not isinstance(obj, list) or len(obj) != 2:
        raise PositionError(_("koinobori: {what} must be a list of two entries (players 0, 1)").format(what=what))
    return obj


def _read_fields(game: Any, d: Mapping[str, Any]) -> tuple:
    """Each field of ``d`` of the right kind, and the stage's own needs (KN-7, KN-Q11)."""
    stage = d["stage"]
    if not isinstance(stage, str) or stage not in STAGES:
        raise PositionError(_("koinobori: stage {stage} unknown; one of {stages}").format(
            stage=short(stage), stages=STAGES))
    mover = d["to_move"]
    if type(mover) is not int or mover not in (0, 1):
        raise PositionError(_("koinobori: to_move must be 0 or 1, got {value}").format(value=short(mover)))
    hands = [_counts(h, CARDS, f"hands[{i}]") for i, h in enumerate(_pair(d["hands"], "hands"))]
    nob = [_counts(h, KINDS, f"nobori[{i}]") for i, h in enumerate(_pair(d["nobori"], "nobori"))]
    kab = tuple(_pair(d["kabutogaeshi_used"], "kabutogaeshi_used"))
    koi = tuple(_pair(d["koikoi"], "koikoi"))
    for what, v in (("kabutogaeshi_used", kab), ("koikoi", koi)):
        if any(type(x) is not int or x < 0 for x in v):
            raise PositionError(_("koinobori: {what} must hold two whole numbers ≥ 0, got {value}").format(
                what=what, value=short(list(v))))
    won = d["koikoi_won"]
    if won is not None and (type(won) is not int or won not in (0, 1)):
        raise PositionError(_("koinobori: koikoi_won must be null, 0 or 1, got {value}").format(value=short(won)))
    then = d["then"]
    if not isinstance(then, str) or then not in ("", DRAW_HAND, REFILL):
        raise PositionError(_("koinobori: then must be '', 'draw_hand' or 'refill', got {value}").format(
            value=short(then)))
    if (then != "") != (stage in (FUKI, KOIKOI)):
        raise PositionError(_("koinobori: then is what follows a capture waiting at stage 'fuki' or "
                              "'koikoi' ('draw_hand' or 'refill') and '' at any other stage; got "
                              "then={then} at stage {stage}").format(then=repr(then), stage=repr(stage)))
    first = game.options["first_player"]
    if stage == FIRST and (first != "random" or mover != 0 or sum(hands[0]) + sum(hands[1])):
        raise PositionError(_("koinobori: stage 'first' (the coin for the first player, KN-Q11) comes "
                              "before the deal: it needs first_player='random', to_move 0 and empty hands; "
                              "this game has first_player={first}").format(first=repr(first)))
    if stage == DEAL and first in (0, 1) and mover != first:
        raise PositionError(_("koinobori: during the deal to_move is the first player (KN-7); this game "
                              "has first_player={first}, the position says {mover}").format(
            first=first, mover=mover))
    return KEY.make(stage=stage, mover=mover, deck=_counts(d["deck"], CARDS, "deck"),
                    field=_counts(d["field"], COLOURS, "field"), hand0=hands[0], hand1=hands[1],
                    nobori0=nob[0], nobori1=nob[1], kabutogaeshi_used=kab, koikoi=koi,
                    koikoi_won=-1 if won is None else won, then=then)


def check_cards(game: Any, key: tuple) -> None:
    """Every card of the deck file is somewhere, exactly once (KN-9: a nobori
    holds its cards, KN-11: a used kabutogaeshi lies beside its player's)."""
    k = KEY.named(key)
    total = [0] * 5
    for zone in (k["deck"], k["field"] + (0, 0), k["hand0"], k["hand1"]):
        for i, v in enumerate(zone):
            total[i] += v
    for n in (k["nobori0"], k["nobori1"]):
        for kind, count in enumerate(n):
            for i, v in enumerate(rules.nobori_cards(kind)):
                total[i] += count * v
    total[rules.K] += sum(k["kabutogaeshi_used"])
    total[rules.F] += k["stage"] == FUKI  # the drawn fukinagashi waits for its carp
    for i, name in enumerate(CARDS):
        if total[i] != game.counts[i]:
            raise PositionError(
                _("koinobori: the position holds {total} {card} cards in all; "
                  "the deck has {count}").format(total=total[i], card=card_name(name), count=game.counts[i]))


def check_flow(game: Any, key: tuple) -> None:
    """What each stage needs, as play leaves it (KN-4, KN-7, KN-8, KN-10,
    KN-15, KN-Q3, KN-Q7), and the end as a property of the position
    (KN-12, KN-Q12): a position the rules cannot reach is refused."""
    stage, p, deck, field, h0, h1, n0, n1, kab, koi, won, then = key  # in KEY's order
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
    refill = game.options["refill_after_draw_capture"]
    if then == REFILL and refill:
        raise no(_("then='refill' (no hand draw after a capture by the drawn card) needs "
                   "refill_after_draw_capture=False (KN-Q3)"))
    if stage == FUKI and then == DRAW_HAND and not refill:
        raise no(_("then='draw_hand' after a capture by the drawn card needs "
                   "refill_after_draw_capture=True (KN-Q3)"))
    _check_koikoi(game, key, no)
    if stage == END and not rules.game_over(sum(deck), field, h0, h1):
        called = game.options["koikoi"] and (won == p or koi[o] or (nob[p] == 3 and not koi[p]))
        if not called:  # agari, a failed or a successful koi-koi end the game at once (KN-15)
            q = 0 if rules.can_act(sum(deck), field, h0) else 1
            raise no(_("player {player} can still make a nobori, so the game is not over (KN-12, KN-Q4, "
                       "KN-Q12): load it as a 'turn'").format(player=q))


def _check_koikoi(game: Any, key: tuple, no: Any) -> None:
    """The koi-koi fields as play leaves them (KN-15, KN-Q7)."""
    k = KEY.named(key)
    stage, p, koi, won = k["stage"], k["mover"], k["koikoi"], k["koikoi_won"]
    nob = (sum(k["nobori0"]), sum(k["nobori1"]))
    if not game.options["koikoi"]:
        if stage == KOIKOI:
            raise no(_("it needs the koikoi option (KN-15)"))
        if any(koi) or won >= 0:
            raise PositionError(_("koinobori: koikoi must be [0, 0] without the koikoi option and "
                                  "koikoi_won null (KN-15)"))
        return
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
