"""What a saved Mazemon position must satisfy (:meth:`Mazemon.state_from_dict`).

:func:`key_from_dict` turns a :meth:`MazemonState.to_dict` dict into the
State's key (:data:`.key.LAYOUT`) or refuses it with
:class:`~cardlab.PositionError` unless the rules can reach it: types,
ranges, the ten cards of each deck, what each phase requires, the mana
against the turns and the end (MZ-23, MZ-24, MZ-Q6) as properties of the
position.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from ...cardfile import short
from ...core import check_keys
from ...errors import PositionError
from ...i18n import _
from . import rules
from .key import LAYOUT, Seat
from .rules import BATTLE, CHARGE, DECK_SIZE, END, FULL, JANKEN, PHASES, POP, STEAL, SUB, SUMMON, TRASH, \
    WIN_CAPTURES

__all__ = ["key_from_dict"]

Err = Callable[[str], PositionError]


def _err(msg: str) -> PositionError:
    return PositionError(_("mazemon: {message}").format(message=msg))


def _whole(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def key_from_dict(game: Any, d: Mapping[str, Any]) -> tuple:
    """The key of the position ``d`` (a :meth:`MazemonState.to_dict`), or
    :class:`~cardlab.PositionError` saying which rule it breaks."""
    fields = ["phase", "turn", "first", "quiet_turns", "acted", "substitute_used",
              "direct_used", "pending", "players"]
    check_keys(d, fields, "mazemon")
    opts = d.get("options", game.options_dict())
    if opts != game.options_dict() and (  # lists and tuples compare equal after JSON
            json.loads(json.dumps(opts, default=str))
            != json.loads(json.dumps(game.options_dict(), default=str))):
        raise PositionError(_("mazemon: the position was saved with options {saved}; "
                              "this game has {options}: load it with those options").format(
            saved=short(opts, 200), options=game.options_dict()))
    ph, mover, first, quiet, flags = _turn_fields(d)
    acted, sub_used, direct_used = flags
    players = d["players"]
    if not isinstance(players, list) or len(players) != 2:
        raise _err(_("players must be a list of two player objects"))
    blocks = [_player(game, p, pl, ph, mover, first) for p, pl in enumerate(players)]
    for p in (0, 1):
        if blocks[p].captured > POP[blocks[1 - p].out]:
            raise _err(_("players[{player}].captured {captured} is more than the cards out of "
                         "player {opponent}'s play").format(player=p, captured=blocks[p].captured, opponent=1 - p))
    _check_phase(blocks, ph, mover, first, quiet, acted, sub_used, direct_used)
    _check_end(blocks, ph, mover, quiet, acted, sub_used, direct_used)
    if ph not in (JANKEN, TRASH):
        _check_turns(blocks, ph, mover, first, bool(sub_used), _err)
    pa, pt = _pending(game, d["pending"], ph, mover, blocks, sub_used)
    me, you = blocks[mover], blocks[1 - mover]
    if ph in (SUMMON, BATTLE) and not any(rules.options(
            ph == SUMMON, me.hand, me.battle, me.attacked, me.untapped, you.battle, bool(direct_used), you.hand,
            game.cost[mover], game.fight[mover])):
        raise _err(_("phase {phase}: player {player} has nothing to do but 'end', so the turn "
                     "would have ended by itself (MZ-9)").format(phase=PHASES[ph], player=mover))
    return LAYOUT.make(phase=ph, turn=mover, first=first, quiet_turns=quiet, acted=acted, substitute_used=sub_used,
                       direct_used=direct_used, pending_attacker=pa, pending_target=pt,
                       **{f"{name}{p}": v for p in (0, 1) for name, v in blocks[p]._asdict().items()})


def _turn_fields(d: Mapping[str, Any]) -> tuple[int, int, int, int, list[int]]:
    """phase, turn, first, quiet_turns and the three flags, each checked alone."""
    if not isinstance(d["phase"], str) or d["phase"] not in PHASES:
        raise _err(_("phase {value} unknown; one of {choices}").format(
            value=short(d['phase']), choices=', '.join(PHASES)))
    ph = PHASES.index(d["phase"])
    mover = d["turn"]
    if not _whole(mover, 0, 1):
        raise _err(_("turn must be 0 or 1, got {value}").format(value=short(mover)))
    first = d["first"]
    if ph == JANKEN:
        if first is not None:
            raise _err(_("first must be null before the janken (MZ-2)"))
        first = -1
    elif not _whole(first, 0, 1):
        raise _err(_("first must be 0 or 1 after the janken, got {value}").format(value=short(first)))
    quiet = d["quiet_turns"]
    if not _whole(quiet, 0, 2) or (quiet == 2 and ph != END):
        raise _err(_("quiet_turns must be 0 or 1 (2 only at the end, MZ-Q6), got {value}").format(
            value=short(quiet)))
    flags = []
    for f in ("acted", "substitute_used", "direct_used"):
        if not isinstance(d[f], bool):
            raise _err(_("{field} must be true or false, got {value}").format(field=f, value=short(d[f])))
        flags.append(int(d[f]))
    return ph, mover, first, quiet, flags


def _mask(game: Any, p: int, where: str, ids: Any, field: str) -> int:
    """The mask of a list of player ``p``'s card ids, each once."""
    slot = game.slot[p]
    if not isinstance(ids, list):
        raise _err(_("{where}.{field} must be a list of card ids").format(where=where, field=field))
    m = 0
    for cid in ids:
        if not isinstance(cid, str) or cid not in slot:
            raise _err(_("{where}.{field}: {card} is not a card of player {player}'s deck; "
                         "the deck is {deck}").format(where=where, field=field, card=short(cid),
                                                      player=p, deck=', '.join(game.ids[p])))
        if m >> slot[cid] & 1:
            raise _err(_("{where}.{field}: {card} appears twice").format(
                where=where, field=field, card=repr(cid)))
        m |= 1 << slot[cid]
    return m


def _battle_zone(game: Any, p: int, where: str, bz: Any) -> tuple[int, int, int]:
    """The battle zone's masks: monsters, wounded, attacked (MZ-4)."""
    if not isinstance(bz, list) or len(bz) > rules.ZONE_LIMIT:
        raise _err(_("{where}.battle must be a list of at most {limit} monsters (MZ-4)").format(
            where=where, limit=rules.ZONE_LIMIT))
    bm = wm = am = 0
    for mon in bz:
        if not isinstance(mon, Mapping) or set(mon) != {"card", "wounded", "attacked"}:
            raise _err(_("{where}.battle: each monster is {fields}, got {value}").format(
                where=where, fields="{'card', 'wounded', 'attacked'}", value=short(mon)))
        bit = _mask(game, p, where, [mon["card"]], "battle")
        if bm & bit:
            raise _err(_("{where}.battle: {card} appears twice").format(where=where, card=repr(mon['card'])))
        for f in ("wounded", "attacked"):
            if not isinstance(mon[f], bool):
                raise _err(_("{where}.battle: {field} of {card} must be true or false").format(
                    where=where, field=f, card=repr(mon['card'])))
        bm |= bit
        wm |= bit if mon["wounded"] else 0
        am |= bit if mon["attacked"] else 0
    return bm, wm, am


def _player(game: Any, p: int, pl: Any, ph: int, mover: int, first: int) -> Seat:
    """Player ``p``'s fields, checked alone (zones, counts, mana against cards)."""
    where = f"players[{p}]"
    if not isinstance(pl, Mapping):
        raise _err(_("{where} must be an object").format(where=where))
    check_keys(pl, ["hand", "battle", "mana", "untapped", "captured", "out"], f"mazemon: {where}")
    hand, out = _mask(game, p, where, pl["hand"], "hand"), _mask(game, p, where, pl["out"], "out")
    bm, wm, am = _battle_zone(game, p, where, pl["battle"])
    if am and p != mover:
        raise _err(_("{where}.battle: only the monsters of the player whose turn it is can "
                     "have attacked this turn (MZ-8)").format(where=where))
    if hand & bm or hand & out or bm & out:
        raise _err(_("{where}: a card is in two of hand, battle and out").format(where=where))
    nums = []
    for f in ("mana", "untapped", "captured"):
        v = pl[f]
        if not _whole(v, 0, DECK_SIZE):
            raise _err(_("{where}.{field} must be a whole number from 0 to {size}, got {value}").format(
                where=where, field=f, size=DECK_SIZE, value=short(v)))
        nums.append(v)
    mana, untapped, captured = nums
    if untapped > mana:
        raise _err(_("{where}: untapped {untapped} is more than the mana {mana}").format(
            where=where, untapped=untapped, mana=mana))
    hidden = DECK_SIZE - POP[hand | bm | out]
    trashed = rules.TRASHED if (p == first and ph != TRASH) else 0
    if hidden != mana + trashed:
        if trashed:
            raise _err(_("{where}: {hidden} of the {size} cards are in none of hand, battle, out; "
                         "they must be the {mana} mana + {trashed} trashed (MZ-3)").format(
                where=where, hidden=hidden, size=DECK_SIZE, mana=mana, trashed=rules.TRASHED))
        raise _err(_("{where}: {hidden} of the {size} cards are in none of hand, battle, out; "
                     "they must be the {mana} mana").format(where=where, hidden=hidden, size=DECK_SIZE,
                                                            mana=mana))
    if captured > WIN_CAPTURES:
        raise _err(_("{where}.captured {captured}: at {win} the game is over (MZ-23)").format(
            where=where, captured=captured, win=WIN_CAPTURES))
    if bm and not mana:
        raise _err(_("{where}: monsters in the battle zone but no mana to have summoned them; "
                     "mana is never lost (MZ-7)").format(where=where))
    return Seat(hand, bm, wm, am, mana, untapped, captured, out)


def _check_phase(blocks: list[Seat], ph: int, mover: int, first: int, quiet: int, acted: int, sub_used: int,
                 direct_used: int) -> None:
    """What each phase requires (MZ-1 … MZ-9, MZ-19, MZ-22)."""
    me, you = blocks[mover], blocks[1 - mover]
    won = rules.is_won(blocks[0].captured, blocks[1].captured)
    if ph in (JANKEN, TRASH):
        if any(b != (FULL, 0, 0, 0, 0, 0, 0, 0) for b in blocks):
            raise _err(_("phase {phase}: both players still hold all {size} cards (MZ-1)").format(
                phase=PHASES[ph], size=DECK_SIZE))
        if ph == JANKEN and mover != 0:
            raise _err(_("phase janken: turn is 0 until the janken decides the first player (MZ-2)"))
        if ph == TRASH and mover != first:
            raise _err(_("phase trash: turn must be the first player (MZ-3)"))
        if quiet:
            raise _err(_("phase {phase}: quiet_turns must be 0 before the first turn (MZ-Q6)").format(
                phase=PHASES[ph]))
    if ph == CHARGE and not me.hand:
        raise _err(_("phase charge with an empty hand: nothing to charge (MZ-6)"))
    if ph == CHARGE and me.untapped != me.mana:
        raise _err(_("phase charge: players[{player}].untapped must equal its mana, all mana is "
                     "untapped at the start of the turn (MZ-5)").format(player=mover))
    if ph == SUMMON and not acted and (me.hand or me.untapped != me.mana):
        raise _err(_("phase summon with acted false: the turn began with an empty hand (no charge, "
                     "MZ-6) and nothing was paid yet, so the hand is empty and all mana untapped (MZ-5)"))
    need_acted = ph in (BATTLE, SUB, STEAL) or (ph == END and won)
    if need_acted and not acted:
        if ph == END:
            raise _err(_("phase {phase} needs acted true: an attack was made this turn "
                         "(MZ-23: captures come from attacks)").format(phase=PHASES[ph]))
        raise _err(_("phase {phase} needs acted true: an attack was made this turn (MZ-8)").format(
            phase=PHASES[ph]))
    if ph in (JANKEN, TRASH, CHARGE) and acted:
        raise _err(_("phase {phase}: acted must be false, nothing was done this turn yet").format(
            phase=PHASES[ph]))
    if me.attacked and ph not in (BATTLE, SUB, STEAL, END):
        raise _err(_("players[{player}].battle: a monster has attacked, so the phase is battle, "
                     "substitute, steal or end, not {phase} (the first attack ends the summoning, MZ-8)").format(
            player=mover, phase=PHASES[ph]))
    if sub_used and ph not in (BATTLE, STEAL, END):
        raise _err(_("substitute_used is true in phase {phase}; みがわり is used only after an "
                     "attack, once per turn (MZ-19)").format(phase=PHASES[ph]))
    if direct_used and (ph not in (BATTLE, STEAL, END) or you.battle):
        raise _err(_("direct_used is true, but a direct attack leaves the phase battle, steal or end "
                     "and the opponent's battle zone empty this turn (MZ-22)"))
    if ph == STEAL and (you.battle or not you.hand or not direct_used or not me.attacked):
        raise _err(_("phase steal needs an empty opposing battle zone, a card in that hand, "
                     "direct_used and the monster that attacked (MZ-22)"))


def _check_end(blocks: list[Seat], ph: int, mover: int, quiet: int, acted: int, sub_used: int,
               direct_used: int) -> None:
    """The end (MZ-23, MZ-24, MZ-Q6): over exactly when the rules say so."""
    me, you = blocks[mover], blocks[1 - mover]
    won = rules.is_won(blocks[0].captured, blocks[1].captured)
    if ph == END and not won and quiet != rules.QUIET_TURNS_END:
        raise _err(_("phase end, but nobody has 3 captures (MZ-23) and quiet_turns is not 2 (MZ-24, MZ-Q6): "
                     "the game is not over"))
    if ph != END and won:
        raise _err(_("a player has {win} captures, so the phase must be end (MZ-23)").format(win=WIN_CAPTURES))
    if ph == END and quiet == rules.QUIET_TURNS_END:
        if won or acted or sub_used or direct_used or me.attacked:
            raise _err(_("phase end after two quiet turns: the last turn changed nothing, so acted, "
                         "substitute_used and direct_used are false, no monster attacked (MZ-Q6)"))
        if me.hand or you.hand:
            raise _err(_("phase end after two quiet turns: both hands are empty, a card in hand must "
                         "be charged (MZ-6, MZ-Q6)"))
    elif quiet and you.hand:
        raise _err(_("quiet_turns {quiet}: the last turn was quiet only if player {player} could not charge, "
                     "but players[{player}].hand holds cards (MZ-6, MZ-Q6)").format(quiet=quiet, player=1 - mover))


def _pending(game: Any, pend: Any, ph: int, mover: int, blocks: list[Seat], sub_used: int) -> tuple[int, int]:
    """The pending attack of the phase substitute (MZ-19, MZ-21): its slots, else (-1, -1)."""
    if ph != SUB:
        if pend is not None:
            raise _err(_("pending must be null outside the substitute phase"))
        return -1, -1
    o = 1 - mover
    me, you = blocks[mover], blocks[o]
    if not isinstance(pend, Mapping) or set(pend) != {"attacker", "target"}:
        raise _err(_("phase substitute needs pending = {fields}").format(fields="{'attacker', 'target'}"))
    att, tgt = pend["attacker"], pend["target"]
    pa = game.slot[mover].get(att, -1) if isinstance(att, str) else -1
    pt = game.slot[o].get(tgt, -1) if isinstance(tgt, str) else -1
    if pa < 0 or not me.attacked >> pa & 1:
        raise _err(_("pending.attacker {card} is not a monster of player {player} "
                     "that has attacked").format(card=short(att), player=mover))
    if pt < 0 or not you.battle >> pt & 1 or POP[you.battle] < 2:
        raise _err(_("pending.target {card} is not one of several monsters of player {player}").format(
            card=short(tgt), player=o))
    if sub_used or not you.untapped or game.fight[mover][pa][pt][2]:
        raise _err(_("phase substitute, but みがわり is not allowed here (MZ-19, MZ-21)"))
    return pa, pt


def _check_turns(blocks: list[Seat], ph: int, mover: int, first: int, sub_used: bool, err: Err) -> None:
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
        mana = blocks[p].mana
        lo = max(lo, mana - ahead + due, 1 - ahead if p == first else 0)
        if blocks[p].hand:
            hi = min(hi, mana - ahead + due)
        if not mana:  # no charge yet: no turn of theirs is past its charge
            hi = min(hi, due - ahead)
        if lo > hi:
            raise err(_("players[{player}].mana {mana}: no turn number fits the mana counts; each turn charges one "
                        "card while the hand has one and turns alternate from the first player (MZ-6, MZ-9)").format(
                player=p, mana=mana))
    for p in (0, 1):
        o = 1 - p
        subs = POP[blocks[p].out] - blocks[o].captured
        # the opponent's turns that can have had a みがわり: t + spare
        spare = int(o == first and mover == first) - int(o == first) - int(mover == o and not sub_used)
        if subs > 0 and (subs > hi + spare or not blocks[p].mana):
            raise err(_("players[{player}].out: {subs} cards out of play that player {opponent} did not capture are "
                        "substitutes knocked out (MZ-20), at most one per turn of player {opponent} after player "
                        "{player}'s first charge (MZ-19), but the mana counts allow at most {most} "
                        "such turns (MZ-6, MZ-9)").format(player=p, subs=subs, opponent=o, most=max(hi + spare, 0)))
