"""Toritsuki positions: the declared layout of a State's key, and what
``state_from_dict`` checks (J): types, ranges, the cards adding up to each
deck, what each stage needs, and the end of the game.

The key (:data:`KEY`) is ``(stage, turn_player, first_player, first_turn,
event_used, pending, winner, player0, player1, battle)``; a player
(:data:`PLAYER`) is ``(hand, unseen, deck_size, deck_top, front, back,
yoki_ready, yoki_resting, damage_up, damage_down, trash)``; a battle
(:data:`BATTLE_LAYOUT`) is ``(attacker, attacker_bonus, attacker_method, blocker,
blocker_bonus, blocker_method, attacker_possession, blocker_possession)``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Any, Mapping

from ...cardfile import short as _short
from ...core import check_keys
from ...errors import PositionError
from ...i18n import _
from ...layout import Layout
from .rules import DAMAGE_LOSS, HAND_START, ROW

__all__ = ["KEY", "PLAYER", "BATTLE_LAYOUT", "STAGES", "state_from_dict"]

KEY = Layout("stage", "turn_player", "first_player", "first_turn", "event_used", "pending", "winner",
             "player0", "player1", "battle")
PLAYER = Layout("hand", "unseen", "deck_size", "deck_top", "front", "back", "yoki_ready", "yoki_resting",
                "damage_up", "damage_down", "trash")
BATTLE_LAYOUT = Layout("attacker", "attacker_bonus", "attacker_method", "blocker", "blocker_bonus", "blocker_method",
                "attacker_possession", "blocker_possession")
ST, TP, FP, FT, EV, PD, WN, P0, P1, BA = range(len(KEY))
H, PO, N, TOP, FR, BK, YR, YS, DU, DD, TR = range(len(PLAYER))
assert (ST, BA, H, TR) == (KEY.stage, KEY.battle, PLAYER.hand, PLAYER.trash)

# stages; the key's ``turn_player`` is the turn player (or the player dealt to / deciding a mulligan)
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

_FIELDS = frozenset(KEY.names) - {"player0", "player1"} | {"players"}
_BATTLE_FIELDS = frozenset(BATTLE_LAYOUT.names)
_PLAYER_FIELDS = frozenset(("hand", "unseen", "deck_size", "deck_top", "front", "back", "yoki", "damage", "trash"))


def _int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def state_from_dict(game, d: Mapping[str, Any]) -> Any:
    """A position, checked completely (J): types, ranges, the cards adding
    up to each deck, what each stage needs, and the end of the game."""
    if d.keys() - {"game", "options"} != _FIELDS:
        check_keys(d, _FIELDS, "toritsuki")
    opts = d.get("options", {})
    if opts != game.saved_options:
        raise PositionError(_("toritsuki: the position was saved with options {saved}; this game has {options}: "
                              "load it with those options").format(
            saved=_short(opts), options=game.options_dict()))
    key = _plain_key(d)
    try:
        known = game._known.get(key)
    except TypeError:  # unhashable parts: not what to_dict writes
        known = None
    if known is not None and repr(known) == repr(key):  # a key to_dict wrote (the same types): valid
        return game._from_key(known)
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
    players = (_player_from_dict(game, 0, ps[0]), _player_from_dict(game, 1, ps[1]))
    battle = _battle_from_dict(game, d["battle"], stage, tp, players)
    k = (stage, tp, first, d["first_turn"], d["event_used"], d["pending"], winner, players[0], players[1], battle)
    for p in (0, 1):
        _check_cards(game, p, k)
    _check_stage(game, k)
    _check_end(game, k)
    return game._from_key(k)

def _cards(game, p: int, obj: Any, what: str) -> tuple:
    """A list of card numbers (a multiset) of player ``p``'s deck, as a sorted tuple."""
    if (type(obj) is not list or len(obj) > len(game.deck_lists[p]) or not all(type(x) is int for x in obj)
            or not game.kindset[p].issuperset(obj)):
        raise PositionError(_("toritsuki: players[{player}].{field} must be a list of card numbers of player "
                              "{player}'s deck {cards}, got {got}").format(
            player=p, field=what, cards=list(game.kinds[p]), got=_short(obj)))
    return tuple(sorted(obj))

def _player_from_dict(game, p: int, d: Any) -> tuple:
    if type(d) is not dict:
        raise PositionError(_("toritsuki: players[{player}] must be an object with {fields}").format(
            player=p, fields=sorted(_PLAYER_FIELDS)))
    if d.keys() != _PLAYER_FIELDS:
        check_keys(d, _PLAYER_FIELDS, f"toritsuki players[{p}]")
    size = len(game.deck_lists[p])
    hand = _cards(game, p, d["hand"], "hand")
    pool = _cards(game, p, d["unseen"], "unseen")
    _cards(game, p, d["deck_top"], "deck_top")
    top = tuple(d["deck_top"])  # in deck order, not sorted
    n = d["deck_size"]
    if not _int(n, len(top), size) or n - len(top) > len(pool):
        raise PositionError(_("toritsuki: players[{player}].deck_size {n} must be ≥ len(deck_top) and ≤ "
                              "len(deck_top) + the unseen cards").format(player=p, n=_short(n)))
    front, back = _row(game, p, d["front"], "front"), _row(game, p, d["back"], "back")
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

def _row(game, p: int, r: Any, what: str) -> tuple:
    """A row of at most 3 yokai ``[card, rested, moved, bonus]`` (TK-13), sorted (TK-27)."""
    if type(r) is not list or len(r) > ROW:
        raise PositionError(_("toritsuki: players[{player}].{field} must be a list of at most {n} yokai").format(
            player=p, field=what, n=ROW))
    row = []
    for y in r:
        if (type(y) is not list or len(y) != 4 or type(y[0]) is not int or y[0] not in game.yokai[p]
                or not _int(y[1], 0, 1) or not _int(y[2], 0, 1) or not _int(y[3], 0, 9999)):
            raise PositionError(_("toritsuki: players[{player}].{field}: each yokai is [card (a yokai of the "
                                  "deck), rested 0/1, moved 0/1, bonus 0-9999], got {got}").format(
                player=p, field=what, got=_short(y)))
        row.append(tuple(y))
    return tuple(sorted(row))

def _battle_from_dict(game, b: Any, stage: str, tp: int, players: tuple) -> tuple | None:
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
        if type(no) is not int or no not in game.yokai[who]:
            raise PositionError(_("toritsuki: battle.{side} {card} is not a yokai of player {player}'s deck").format(
                side=side, card=_short(no), player=who))
        m = b[f"{side}_method"]
        if not _int(m, 1, len(game.cards[no].methods)):
            raise PositionError(_("toritsuki: battle.{side}_method must be 1-{n}").format(
                side=side, n=len(game.cards[no].methods)))
        if not _int(b[f"{side}_bonus"], 0, 9999):
            raise PositionError(_("toritsuki: battle.{side}_bonus must be 0-9999").format(side=side))
        out += [no, b[f"{side}_bonus"], m - 1]
    for side, who in (("attacker", tp), ("blocker", 1 - tp)):
        no = b[f"{side}_possession"]
        if no is None:
            out.append(0)
        elif type(no) is int and no in game.yokai[who]:
            out.append(no)
        else:
            raise PositionError(_("toritsuki: battle.{side}_possession {card} is not a yokai of player {player}").format(
                side=side, card=_short(no), player=who))
    return tuple(out)

def _check_cards(game, p: int, k: tuple) -> None:
    """TK-1, TK-12, TK-29: player ``p``'s cards add up to the deck.  Every
    card is in the hand, the deck, the yoki zone, the field, the damage
    zone, the trash or the battle; the unseen pool is the unknown part of
    the deck and at most the face-down yoki charged from it (a known deck
    order charges known cards, which leave the pool); no card number is
    seen more often than the deck has it.  Once the game is over a few
    cards may be in no zone: the card whose leaving emptied the deck
    (TK-7), the fighters of a battle cut short; none can be too many."""
    P = k[P0 + p]
    b, tp = k[BA], k[TP]
    fighting = []
    if b is not None:
        fighting = [b[0], b[6]] if p == tp else [b[3], b[7]]
        fighting = [no for no in fighting if no]
    seen = Counter(P[H] + P[PO] + P[TOP] + tuple(y[0] for y in P[FR] + P[BK]) + tuple(fighting))
    copies = game.copies[p]
    for no, c in seen.items():
        if c > copies[no]:
            raise PositionError(_("toritsuki: players[{player}] holds card {card} {times} times in hand, unseen, "
                                  "deck_top, field and battle; player {player}'s deck has {copies}").format(
                player=p, card=no, times=c, copies=copies[no]))
    total = (len(P[H]) + P[N] + P[YR] + P[YS] + len(P[FR]) + len(P[BK]) + P[DU] + P[DD] + P[TR]
             + len(fighting))
    size = len(game.deck_lists[p])
    if total > size or (total < size and k[ST] != OVER):  # the end may leave cards in no zone
        raise PositionError(_("toritsuki: players[{player}] has {total} cards (hand, deck, yoki, field, damage, "
                              "trash, battle); player {player}'s deck has {size} cards (TK-1, TK-29)").format(
            player=p, total=total, size=size))
    # the pool is exactly the unknown part of the deck and the yoki charged from it: yoki never leave
    # their zone (TK-12, TK-25), and with a known deck order every charge takes a known card (TK-Q6)
    yoki = 0 if game.options["known_deck_order"] else P[YR] + P[YS]
    if len(P[PO]) != P[N] - len(P[TOP]) + yoki:
        raise PositionError(_("toritsuki: players[{player}].unseen holds {n} cards: it is exactly the {unknown} "
                              "unknown cards of the deck and the {yoki} face-down yoki charged from them (TK-12, "
                              "TK-Q6)").format(player=p, n=len(P[PO]), unknown=P[N] - len(P[TOP]), yoki=yoki))

def _check_stage(game, k: tuple) -> None:
    """What each stage needs (TK-2 … TK-19, TK-Q2, TK-Q3, TK-Q6): the
    position is one that play reaches."""
    stage, tp, first, first_turn, ev, pending, winner, P0, P1, b = k
    Ps = (P0, P1)
    opt = game.options

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
        _check_setup(game, k, bad)
        return
    if stage == OVER:
        return
    # the game is under way: turn player tp; TK-5 the first player's first turn
    if first_turn and (tp != first or stage != MAIN or ev):
        raise bad(_("first_turn is only the first player's main phase, with no event (TK-5)"))
    if first_turn:  # every yokai on the field was summoned this turn, paid with yoki (TK-13, TK-25)
        _check_first_turn(game, k, bad)
    if stage == DRAW and ev:
        raise bad(_("event_used: the draw comes before the main phase, where events are used (TK-11, TK-24)"))
    if stage == EVDRAW and (not ev or pending >= game.max_draw[tp]):
        raise bad(_("an event's draw follows an event (event_used) with fewer than {n} cards still to draw "
                    "(TK-24, TK-Q2)").format(n=game.max_draw[tp]))
    if pending and stage != EVDRAW:
        raise bad(_("pending counts an event's draws only (TK-Q2)"))
    _check_turn_marks(game, k, bad)
    O, T = Ps[1 - tp], Ps[tp]
    state = game._from_key(k)
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


def _check_turn_marks(game: Any, k: tuple, bad: Any) -> None:
    """TK-10, TK-13, TK-16, TK-17, TK-24, TK-Q2: the marks on the field
    (moved, +BP, resting) and the resting yoki fit the stage of the turn."""
    stage, tp, ev = k[ST], k[TP], k[EV]
    O, T = k[P1 - tp], k[P0 + tp]
    if any(y[2] or y[3] for y in O[FR] + O[BK]):
        raise bad(_("players[{other}]'s yokai are neither moved (moved) nor boosted: +BP is the mover's until "
                    "the end of the turn (TK-13, TK-Q2)").format(other=1 - tp))
    if not ev and any(y[3] for y in T[FR] + T[BK]):
        raise bad(_("players[{player}]'s yokai have +BP (bonus) only after an event this turn (TK-Q2)").format(
            player=tp))
    moves_stay = stage == MAIN or (stage == EVDRAW and game.options["move_once_per_turn"])
    if not moves_stay and any(y[2] for y in T[FR] + T[BK]):
        raise bad(_("players[{player}]'s yokai are marked moved only in the main phase (TK-13)").format(
            player=tp))
    if any(y[1] for y in T[BK]) or (stage in (DRAW, MAIN, EVDRAW) and any(y[1] for y in T[FR])):
        raise bad(_("players[{player}]'s yokai were refreshed (TK-10); only attacking rests them (TK-16)").format(
            player=tp))
    if stage in (DRAW, MAIN, EVDRAW):  # before the battle: no block yet (TK-17), only an event rests one
        lullaby = ev and stage != DRAW and any(game.cards[no].effect[:1] == ("rest",) for no in game.kindset[tp])
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


def _check_first_turn(game: Any, k: tuple, bad: Any) -> None:
    """TK-5, TK-12, TK-13, TK-25, TK-26: the first player's first turn: one
    yoki charged, the whole field summoned this turn and paid for."""
    tp = k[TP]
    T, O = k[P0 + tp], k[P1 - tp]
    if T[YR] + T[YS] != 1 or O[YR] + O[YS]:
        raise bad(_("on the first turn players[{player}] has charged one yoki and players[{other}] none "
                    "(TK-5, TK-12)").format(player=tp, other=1 - tp))
    cost = sum(game.cards[y[0]].cost for y in T[FR] + T[BK])
    paid = T[YS] + T[DD]  # resting yoki since the refresh, boosts (TK-10, TK-26)
    if paid < cost or (paid != cost and not T[TR]):
        if T[TR]:
            raise bad(_("players[{player}] summoned the whole field this first turn (TK-5, TK-13) at a "
                        "cost of {cost}, but paid {paid} (resting yoki and face-down damage, TK-25, "
                        "TK-26)").format(player=tp, cost=cost, paid=paid))
        raise bad(_("players[{player}] summoned the whole field this first turn (TK-5, TK-13) at a cost "
                    "of {cost}, but paid {paid} (resting yoki and face-down damage, TK-25, TK-26) and "
                    "released nothing").format(player=tp, cost=cost, paid=paid))


def _check_setup(game: Any, k: tuple, bad: Any) -> None:
    """TK-2, TK-3, TK-4: before the first turn: the deal, the mulligan, the coin."""
    stage, tp, first, first_turn, ev, pending, _winner, P0_, P1_, b = k
    Ps = (P0_, P1_)
    opt = game.options
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


def _check_end(game, k: tuple) -> None:
    """TK-6, TK-7, TK-8: six damage or an empty deck is the end, with the
    other player the winner; a card's own win condition (TK-8) ends it too."""
    stage, tp, winner, Ps = k[ST], k[TP], k[WN], (k[P0], k[P1])
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
    field_win = (winner == tp and k[EV] and game.win_field[winner] is not None
                 and len(W[FR]) + len(W[BK]) >= game.win_field[winner])
    if lost[winner] or not (lost[1 - winner] or field_win):
        raise PositionError(_("toritsuki: winner {winner}: the loser has 6 damage (TK-6) or an empty deck "
                              "(TK-7), or the winner's card won (TK-8), and the winner has neither").format(
            winner=winner))




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


def runs(t: tuple) -> list[tuple[int, int]]:
    """(number, count) for each distinct number of a sorted tuple."""
    out: list[tuple[int, int]] = []
    for x in t:
        if out and out[-1][0] == x:
            out[-1] = (x, out[-1][1] + 1)
        else:
            out.append((x, 1))
    return out


def split_boost(arg: str) -> tuple[str, int | None]:
    """``"F1 m3 boost 1"`` → ``("F1 m3", 1)``; without a boost part ``None`` (ready yoki first)."""
    head, _sep, n = arg.partition(" boost ")
    return head, int(n) if n else None


def remove(t: tuple, no: int) -> tuple:
    i = t.index(no)
    return t[:i] + t[i + 1:]


def insert(t: tuple, no: int) -> tuple:
    i = bisect_right(t, no)
    return t[:i] + (no,) + t[i:]


def uniq(t: tuple) -> list[int]:
    """The distinct numbers of a sorted tuple."""
    return [x for i, x in enumerate(t) if i == 0 or x != t[i - 1]]


def distinct(row: tuple) -> list[int]:
    """Indexes of a sorted row, skipping an entry equal to the one before it."""
    return [i for i in range(len(row)) if i == 0 or row[i] != row[i - 1]]
