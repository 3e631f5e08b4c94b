"""Koi-koi Nobori's words: card names, explanations of moves and the
position as text (``str(state)``) — everything a person reads that is not a
picture.  The rules themselves are in :mod:`.rules`.
"""

from __future__ import annotations

from typing import Any, Mapping

from ...i18n import N_, _, get_language, pgettext
from . import rules
from .rules import CARDS, COLOURS, DEAL, DRAW_HAND, DRAW_PLAY, END, FIRST, F, K, KINDS

__all__ = ["hidden_text", "JAPANESE", "ENGLISH", "TITLE", "card_name", "role_name", "list_text", "stage_word",
           "explain", "follow_up", "describe"]

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


def _a(word: str) -> str:
    """``a higoi``, ``an aokoi``."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def follow_up(state, deck_size: int, field_size: int, draw: bool, fuki: bool, why: bool = False) -> str:
    """What follows a new nobori of the mover, from public facts only: the
    koi-koi consequences (KN-15), then the hand draw (KN-8, none after a
    draw capture with the literal KN-Q3 option) and the field refill (KN-8,
    KN-Q5).  ``deck_size`` and ``field_size`` are those after the capture;
    ``fuki``: the new nobori holds a fukinagashi; ``why``: cite KN-Q3 (a
    capture by the drawn card)."""
    k = state.fields()
    p, koi, nobori = k["mover"], k["koikoi"], (k["nobori0"], k["nobori1"])
    call = False
    if state.game.options["koikoi"]:
        verdict = rules.koikoi_after_nobori(sum(nobori[p]) + 1, koi[p], bool(koi[1 - p]))
        if verdict == rules.FAILED:
            return _("player {player}'s koi-koi fails: the game ends at once, no bonus (KN-15).").format(
                player=1 - p)
        if verdict == rules.WON:
            return _("the koi-koi succeeds: the game ends at once with +{bonus} (KN-15).").format(
                bonus=rules.koikoi_bonus(True))
        call = verdict == rules.CALL

    def called(step: str) -> str:  # the steps after a third nobori follow a koi-koi call only
        if not call:
            return step
        return _("third nobori: agari ends the game, or after koi-koi (KN-15): {step}").format(step=step)

    if draw and not deck_size:
        return called(_("the deck is empty: no draw and no refill (KN-8, KN-Q5)."))
    # Nobody sees all of the deck and the hands.  What is public: how many carp
    # (hidden_carps) and how many other cards (hidden_others) they hold together
    # after the capture, so the deck holds at least deck_size - hidden_others carp.
    counts, field = state.game.counts, k["field"]
    hidden_others = (counts[F] + counts[K] - sum(nobori[0][3:]) - sum(nobori[1][3:])
                     - fuki - sum(k["kabutogaeshi_used"]))
    hidden_carps = sum(counts[i] - field[i] - 2 * (nobori[0][i] + nobori[1][i]) - nobori[0][i + 3]
                       - nobori[1][i + 3] for i in range(3)) - (not fuki)  # a plain pair's other carp left a hand or the deck
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
    if field_size >= rules.FIELD_SIZE:
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


def explain(state, action: str) -> str:
    """One line on what ``action`` does here and which rule makes it so."""
    verb, _sep, arg = action.partition(" ")
    k = state.fields()
    p = k["mover"]
    deck_size, field_size = sum(k["deck"]), sum(k["field"])
    refill = state.game.options["refill_after_draw_capture"]
    if verb == "nobori":
        follow = follow_up(state, deck_size, field_size - 1, True, arg.startswith("fuki+"))
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
            follow_up=follow_up(state, deck_size, field_size - 1, k["then"] == DRAW_HAND, True, True))
    if verb == "pass":
        return _("Player {player} can make no nobori and passes (KN-Q4).").format(player=p)
    if verb == "agari":
        return _("Player {player} calls agari: the game ends and scores are compared (KN-15).").format(player=p)
    if verb == "koikoi":
        return _("Player {player} calls koi-koi: one more nobori ends the game with +{bonus} (KN-15).").format(
            player=p, bonus=rules.koikoi_bonus(True))
    if verb == "first":
        return _("Player {player} goes first (先攻), by chance with probability 1/2 (KN-6, KN-Q11).").format(
            player=arg)
    if verb == "deal":
        owner = rules.dealt_to(p, sum(k["hand1" if p else "hand0"]))
        if _a(arg).startswith("an "):
            return _("Player {player} is dealt an {card} (KN-7).").format(player=owner, card=card_name(arg))
        return _("Player {player} is dealt a {card} (KN-7).").format(player=owner, card=card_name(arg))
    if verb == "refill":
        if _a(arg).startswith("an "):
            return _("The field is refilled: cards are revealed until an {card}, the rest reshuffled "
                     "(KN-8).").format(card=card_name(arg))
        return _("The field is refilled: cards are revealed until a {card}, the rest reshuffled "
                 "(KN-8).").format(card=card_name(arg))
    if verb == "draw":
        if k["stage"] == DRAW_PLAY:
            i = CARDS.index(arg)
            pairs = rules.draw_capture(i, k["field"])
            if len(pairs) > 1:
                return _("Player {player} draws {card}: it pairs with any carp of the field; the player "
                         "chooses which (KN-10, KN-2).").format(player=p, card=card_name(arg))
            if pairs:
                return _("Player {player} draws {card}: it pairs with the field, captured at once (KN-10); "
                         "{follow_up}").format(
                    player=p, card=card_name(arg),
                    follow_up=follow_up(state, deck_size - 1, field_size - 1, refill, i == F, True))
            return _("Player {player} draws {card}: no pair, it goes to the hand (KN-10).").format(
                player=p, card=card_name(arg))
        return _("Player {player} draws {card} into the hand (KN-8).").format(player=p, card=card_name(arg))
    return action


def describe(state) -> str:
    """The position in a few lines of text (``str(state)``)."""
    k = state.fields()

    def cards(counts: tuple, names: tuple) -> str:
        s = list_text(f"{card_name(n)}×{c}" if c > 1 else card_name(n) for n, c in zip(names, counts) if c)
        return s or "—"
    head = {END: _("game over"), DEAL: _("dealing"), FIRST: _("choosing the first player")}.get(
        k["stage"]) or _("player {player} to move ({stage})").format(player=k["mover"], stage=stage_word(k["stage"]))
    lines = [f"{_(TITLE)} · {head}",
             "  " + _("field (場): {cards}").format(cards=cards(k["field"], COLOURS)),
             "  " + _("deck (山札): {count} cards").format(count=sum(k["deck"]))]
    for p in (0, 1):
        extra = ""
        used, koi = k["kabutogaeshi_used"][p], k["koikoi"][p]
        if used:
            extra += pgettext("list separator", ", ") + _("kabutogaeshi used {count}").format(count=used)
        if koi:
            extra += pgettext("list separator", ", ") + _("koi-koi at {count}").format(count=koi)
        lines.append("  " + _("player {player}: hand {hand} | nobori {nobori} | score {score}{extra}").format(
            player=p, hand=cards(k[f"hand{p}"], CARDS), nobori=cards(k[f"nobori{p}"], KINDS), score=state.score(p),
            extra=extra))
    if k["stage"] == END:
        r = state.returns()
        lines.append("  " + (_("result: draw") if r[0] == 0 else
                             _("result: player {player} wins").format(player=0 if r[0] > 0 else 1)))
    return "\n".join(lines)


def hidden_text(state, public: str, viewer: int) -> str | None:
    """What ``viewer`` reads of a card dealt or drawn into the other hand
    (KN-7, KN-8): who got a card, never which (the public form ``deal ??``
    or ``draw ??``; the card goes to the one player who is not ``viewer``)."""
    owner = 1 - viewer
    verb = public.partition(" ")[0]
    if verb == "deal":
        return _("Player {player} is dealt a card.").format(player=owner)
    if verb == "draw":
        return _("Player {player} draws a card.").format(player=owner)
    return None
