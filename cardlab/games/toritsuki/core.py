"""Compact core of Toritsuki (the State: ``state.py``; rules
docs/rules/toritsuki.md, TK-1 … TK-29, TK-Q1 … TK-Q8).

Handles every option (open_hands, known_deck_order, mulligan,
move_once_per_turn, first_player, cards, decks): the card data is read from
the game, so any card file and any decks work.

Position: a flat tuple of 45 small ints, laid out as :data:`POS` (a
:class:`~cardlab.layout.Layout`; a player's 15 fields as :data:`SIDE`, from
``POS.p0_hand`` and ``POS.p1_hand``):

* 0-6   stage code (``STAGES`` order), turn player, first player (-1 before
  the coin), first turn 0/1, event used 0/1, pending draws, winner (-1).
* 7-14  the battle: attacker card no, its bonus, its method (0-based),
  blocker card no, bonus, method, attacker's and defender's possession card
  no (0 = none).  All 0 is "no battle" (an attacker is never card 0).
* 15-29 player 0, 30-44 player 1, fields at ``15 + 15 p +``:
  0 hand and 1 unseen pool, as counts: 2 bits per kind (the deck's distinct
  card numbers in ascending order, kind ``i`` at bits ``2i``); 2 deck size;
  3 the known deck top (known_deck_order): kind + 1 in ``TW`` bits each, the
  top card lowest; 4-6 front row and 7-9 back row, each yokai
  ``no << 16 | rested << 15 | moved << 14 | bonus``, sorted ascending (the
  engine's tuple order), empty places ``EMPTY`` (sorting puts them last);
  10 ready yoki, 11 resting yoki, 12 face-up damage, 13 face-down damage,
  14 trash.

A tuple, not one int: ``play`` copies it to a list, changes a few fields
and settles (TK-18 skipped blocks, the duel, known deck tops) in place;
packing 45 fields into one int and out again would cost more than a move.

The rules come from :mod:`.rules`, called through the module when the core
is made (a fresh core follows a swapped rule): the duel (TK-21) and the
damage loss (TK-6), the possession conditions (TK-19, TK-20), the payments
(TK-25, TK-26, TK-Q8).  ``make_core`` builds the tables and the named steps
(:mod:`.core_tables`: ``_card_tables``, ``_codec``, ``_reading``; here:
``_main_moves``, ``_other_moves``, ``_turn_steps``, ``_take``, ``_duel_step``,
``_settler``, ``_event_step``, ``_attacker``, ``_main_play``, ``_player``) and hands them to
each other.

Moves: ``kind << 24 | …``: summon ``no << 8 | row << 4 | boosts`` (row 1 =
back); release the place 0-5 (F1-F3, B1-B3); move the mask of places that
change rows; event ``no << 8 | place`` (own or the opponent's, 15 none);
attack / block ``slot << 8 | method << 4 | boosts``; possess from the hand
``no << 8``.  Chance outcomes: the kind index of the card taken, or the
first player.
"""
from __future__ import annotations

from types import SimpleNamespace

from .core_tables import (ATTACK, B, BA, BAB, BATTLE, BB, BBB, BBM, BLOCK, BLOCKM, COIN, DAMAGE, DD, DEAL,
                          DRAW, DU, DUEL, E_BANISH, E_BP, E_CHARGE, E_DRAW, E_HEAL, E_READY, E_REST, E_WIN, EMPTY,
                          END, EV, EVDRAW, EVENT, F, FP, FT, H, KEEP, MAIN, MOVE, MOVED, MULL, MULLIGAN, N,
                          NOBLOCK, NOTARGET, OVER, PASS, PD, PDECK, PHAND, PO, POS, POSS_A, POSS_D, PSA, PSD,
                          RELEASE, RESTED, REVEAL_A, REVEAL_D, ROWS, SHUFFLE, SIDE, ST, SUMMON, TOP, TP, TR,
                          WN, YR, YS, _card_tables, _codec, _reading)

__all__ = ["make_core", "TEST_OPTIONS", "POS", "SIDE"]

TEST_OPTIONS = [
    {},
    {"open_hands": True},
    {"known_deck_order": True},
    {"mulligan": False},
    {"move_once_per_turn": True},
    {"first_player": 1},
    {"cards": "icons"},
    {"open_hands": True, "cards": "icons"},
    {"open_hands": True, "known_deck_order": True, "cards": "icons"},
    {"move_once_per_turn": True, "known_deck_order": True, "mulligan": False, "first_player": 0},
]


def _main_moves(t, r, attack_moves):
    """TK-13, TK-14, TK-24: the main phase's moves in the State's order."""
    kno, is_yokai, cost, kinds, payments, move_once = t.kno, t.is_yokai, t.cost, r.kinds, t.payments, t.move_once

    def main_moves(k):
        tp = k[TP]
        b = 15 + 15 * tp
        row = k[b + F:b + F + 6]
        f0, f1, f2, b0, b1, b2 = row
        nf = (f0 != EMPTY) + (f1 != EMPTY) + (f2 != EMPTY)
        nb = (b0 != EMPTY) + (b1 != EMPTY) + (b2 != EMPTY)
        yr, du = k[b + YR], k[b + DU]
        out = []
        hand_nos = [kno[tp][i] for i in kinds(k[b + H])]
        affordable = has_event = False
        for no in hand_nos:  # TK-13 summon, TK-25 paid in yoki
            if is_yokai[no]:
                lo, hi = payments[cost[no]][yr][du]
                if lo < hi:
                    affordable = True
                    if nf < 3:
                        out += range(SUMMON << 24 | no << 8 | lo, SUMMON << 24 | no << 8 | hi)
                    if nb < 3:
                        out += range(SUMMON << 24 | no << 8 | 16 | lo, SUMMON << 24 | no << 8 | 16 | hi)
            else:
                has_event = True
        if affordable and nf == 3 and nb == 3:  # TK-13 make room
            out.append(RELEASE << 24)
            if f1 != f0:
                out.append(RELEASE << 24 | 1)
            if f2 != f1:
                out.append(RELEASE << 24 | 2)
            out.append(RELEASE << 24 | 3)
            if b1 != b0:
                out.append(RELEASE << 24 | 4)
            if b2 != b1:
                out.append(RELEASE << 24 | 5)
        if move_once or not (f0 | f1 | f2 | b0 | b1 | b2) & MOVED:  # TK-13 move
            out += rearrangements(row, nf, nb)
        if has_event and not k[EV] and not k[FT]:  # TK-24 one event a main phase; none on TK-5's first turn
            events(k, 45 - b, row, hand_nos, out)
        if not k[FT]:  # TK-5 no battle on the first player's first turn; TK-14 an attack ends main
            attack_moves(k, b, out)
        out.append(END << 24)
        return out

    rearrangements = _rearrangements(t)
    events = _event_moves(t)
    return main_moves


def _rearrangements(t):
    """TK-13 move: every other arrangement of the rows once (see the State's ``_move_actions``)."""
    move_table = t.move_table
    by_shape = {}  # the shape of the rows (see below) -> their move codes

    def rearrangements(row, nf, nb):
        """The move codes of ``row`` (``move_once_per_turn`` or no marks: the caller
        checks), memoised by its shape: the unmoved places, the places alike the
        one before them in their row, which front and back places are alike."""
        f0, f1, f2, b0, b1, b2 = row
        um = 0
        for s in range(6):
            y = row[s]
            if y != EMPTY and not y & MOVED:
                um |= 1 << s
        if not um:
            return ()
        key = um | nf << 6 | nb << 8
        if f1 == f0 and f1 != EMPTY:
            key |= 2 << 10
        if f2 == f1 and f2 != EMPTY:
            key |= 4 << 10
        if b1 == b0 and b1 != EMPTY:
            key |= 16 << 10
        if b2 == b1 and b2 != EMPTY:
            key |= 32 << 10
        for i in range(nf):
            y = row[i]
            if y == b0 or y == b1 or y == b2:
                for j in range(nb):
                    if y == row[3 + j]:
                        key |= 1 << (16 + 3 * i + j)
        out = by_shape.get(key)
        if out is None:
            out = by_shape[key] = shape_moves(key)
        return out

    def shape_moves(key):
        um, nf, nb, dup = key & 63, key >> 6 & 3, key >> 8 & 3, key >> 10 & 63
        pairs = [1 << i | 8 << j for i in range(3) for j in range(3) if key >> (16 + 3 * i + j) & 1]
        out = []
        for mask in move_table[nf, nb, um]:
            if (mask & dup) >> 1 & ~mask:
                continue  # of alike yokai in a row, the first ones only
            if pairs and any(pm & mask == pm for pm in pairs):
                continue  # trading alike yokai changes nothing
            out.append(MOVE << 24 | mask)
        return tuple(out)

    return rearrangements


def _event_moves(t):
    """TK-24, TK-Q2: the event cards of the hand, with their targets."""
    is_yokai, effect, rank = t.is_yokai, t.effect, t.rank

    def events(k, ob, row, hand_nos, out):
        for no in hand_nos:
            if is_yokai[no]:
                continue
            kind, value = effect[no]
            base = EVENT << 24 | no << 8
            if kind == E_BP:
                prev = -1
                for s in range(6):
                    y = row[s]
                    if s == 3:
                        prev = -1
                    if y != EMPTY and y != prev:
                        out.append(base | s)
                    prev = y
            elif kind == E_BANISH:
                prev = -1
                for s in range(6):
                    y = k[ob + F + s]
                    if s == 3:
                        prev = -1
                    if y != EMPTY and y != prev and rank[y >> 16] <= value:
                        out.append(base | s)
                    prev = y
            elif kind == E_REST:
                prev = -1
                for s in range(3, 6):
                    y = k[ob + F + s]
                    if y != EMPTY and y != prev and not y & RESTED:
                        out.append(base | s)
                    prev = y
            else:
                out.append(base | NOTARGET)

    return events


def _other_moves(t, r) -> SimpleNamespace:
    """TK-16 attack, TK-17 block, TK-19 possess, TK-3 mulligan: the other deciding stages."""
    methods, kno, is_yokai, kinds, fits, payments = t.methods, t.kno, t.is_yokai, r.kinds, r.fits, t.payments

    def attack_moves(k, b, out):
        yr, du = k[b + YR], k[b + DU]
        prev = -1
        for i in range(3):
            y = k[b + F + i]
            if y == EMPTY:
                break
            if y != prev and not y & RESTED:  # TK-16 ready front yokai; alike ones once
                base = ATTACK << 24 | i << 8
                for m, (_bp, c, _ic) in enumerate(methods[y >> 16]):  # TK-25, TK-26, TK-Q8: each way to pay
                    lo, hi = payments[c][yr][du]
                    if lo < hi:
                        out += range(base | m << 4 | lo, base | m << 4 | hi)
            prev = y
        return out

    def block_moves(k):
        b = 30 - 15 * k[TP]
        yr, du = k[b + YR], k[b + DU]
        out = []
        prev = -1
        for i in range(3):  # TK-17 ready back-row yokai
            y = k[b + B + i]
            if y == EMPTY:
                break
            if y != prev and not y & RESTED:
                base = BLOCKM << 24 | i << 8
                for m, (_bp, c, _ic) in enumerate(methods[y >> 16]):  # TK-25, TK-26, TK-Q8: each way to pay
                    lo, hi = payments[c][yr][du]
                    if lo < hi:
                        out += range(base | m << 4 | lo, base | m << 4 | hi)
            prev = y
        out.append(NOBLOCK << 24)
        return out

    def possess_moves(k, who):
        out = [PASS << 24, PDECK << 24]  # TK-19
        for i in kinds(k[15 + 15 * who + H]):
            no = kno[who][i]
            if is_yokai[no] and fits(k, no, who):
                out.append(PHAND << 24 | no << 8)
        return out

    return SimpleNamespace(attack_moves=attack_moves, block_moves=block_moves, possess_moves=possess_moves)


def _mover(main_moves, o):
    """``moves(pos)``: the legal moves of the stage, in the State's order."""
    attack_moves, block_moves, possess_moves = o.attack_moves, o.block_moves, o.possess_moves

    def moves(pos):
        st = pos[0]
        if st == MAIN:
            return main_moves(pos)
        if st == BATTLE:
            out = attack_moves(pos, 15 + 15 * pos[TP], [])
            out.append(END << 24)
            return out
        if st == BLOCK:
            return block_moves(pos)
        if st == POSS_A:
            return possess_moves(pos, pos[TP])
        if st == POSS_D:
            return possess_moves(pos, 1 - pos[TP])
        if st == MULLIGAN:
            return [KEEP << 24, MULL << 24]
        return []

    return moves


def _rows() -> SimpleNamespace:
    """Row surgery on a position list: a yokai in, a place out, the move marks off; paying (TK-25, TK-26)."""
    def add_yokai(k, o, y):
        r = k[o:o + 3]
        r[2] = y
        r.sort()
        k[o:o + 3] = r

    def remove_at(k, o, i):
        r = k[o:o + 3]
        del r[i]
        r.append(EMPTY)
        k[o:o + 3] = r

    def pay(k, b, c, boosts):
        """TK-25, TK-26: ``boosts`` face-up damage turned face down, the rest ready yoki rested."""
        y = c - boosts
        k[b + YR] -= y
        k[b + YS] += y
        k[b + DU] -= boosts
        k[b + DD] += boosts

    def unmark(k, b):
        for o in (b + F, b + B):
            r = k[o:o + 3]
            if (r[0] | r[1] | r[2]) & MOVED:
                k[o:o + 3] = sorted((r[0] & ~MOVED, r[1] & ~MOVED, r[2] & ~MOVED))

    return SimpleNamespace(add_yokai=add_yokai, remove_at=remove_at, pay=pay, unmark=unmark)


def _turn_steps(t, rows) -> SimpleNamespace:
    """TK-6/TK-7 the end, TK-9 … TK-12 the start of a turn, TK-15 its end, TK-3/TK-4 the setup, TK-18 no block."""
    tw, add_yokai = t.tw, rows.add_yokai

    def lose(k, loser):
        """TK-6, TK-7: the game ends at once."""
        k[ST] = OVER
        k[WN] = 1 - loser
        k[BA:PSD + 1] = (0, 0, 0, 0, 0, 0, 0, 0)

    def charge_and_main(k):
        """TK-12 charge, then the main phase; TK-7 an empty deck loses."""
        b = 15 + 15 * k[TP]
        if k[b + TOP]:
            k[b + TOP] >>= tw
        k[b + N] -= 1
        k[b + YR] += 1
        if k[b + N] > 0:
            k[ST] = MAIN
        else:
            lose(k, k[TP])

    def start_turn(k, p, first):
        """TK-9 start, TK-10 refresh, TK-11 draw (none on the first player's first turn, TK-5)."""
        k[TP] = p
        if first:
            k[FP] = p
        k[FT] = 1 if first else 0
        k[EV] = 0
        k[PD] = 0
        b = 15 + 15 * p
        for o in (b + F, b + B):
            r = k[o:o + 3]
            if (r[0] | r[1] | r[2]) & (RESTED | MOVED):
                k[o:o + 3] = sorted((r[0] & ~(RESTED | MOVED), r[1] & ~(RESTED | MOVED), r[2] & ~(RESTED | MOVED)))
        k[b + YR] += k[b + YS]
        k[b + YS] = 0
        if first:
            charge_and_main(k)
        else:
            k[ST] = DRAW

    def end_turn(k):
        """TK-15: effects until the end of the turn end (bonus, move marks)."""
        for o in ROWS:
            r = k[o:o + 3]
            if (r[0] | r[1] | r[2]) & 0x7FFF:
                k[o:o + 3] = sorted((r[0] & ~0x7FFF, r[1] & ~0x7FFF, r[2] & ~0x7FFF))
        start_turn(k, 1 - k[TP], False)

    def coin(k):
        if k[FP] < 0:
            k[ST] = COIN
            k[TP] = 0
        else:
            start_turn(k, k[FP], True)

    def after_mulligan(k):
        k[PD] = 0
        if k[TP] == 0:
            k[ST] = MULLIGAN
            k[TP] = 1
        else:
            coin(k)

    def no_block(k):
        """TK-18: the attacker stays resting; the defender takes 1 damage."""
        add_yokai(k, 15 + 15 * k[TP] + F, k[BA] << 16 | RESTED | k[BAB])
        k[BA:PSD + 1] = (0, 0, 0, 0, 0, 0, 0, 0)
        k[ST] = DAMAGE

    return SimpleNamespace(lose=lose, charge_and_main=charge_and_main, start_turn=start_turn, end_turn=end_turn,
                           coin=coin, after_mulligan=after_mulligan, no_block=no_block)


def _take(t, r, s):
    """``took(k, o, i)``: kind ``i`` has left player ``o``'s deck at the current stage; put it where it goes."""
    hand_size, fits, kno, is_yokai, lost_at = r.hand_size, r.fits, t.kno, t.is_yokai, t.lost_at
    hand_start, mulligan_opt = t.hand_start, t.mulligan
    lose, after_mulligan, coin, charge_and_main = s.lose, s.after_mulligan, s.coin, s.charge_and_main

    def took(k, o, i):
        st = k[ST]
        b = 15 + 15 * o
        if st == DEAL:  # TK-2, TK-3
            k[b + H] += 1 << 2 * i
            if hand_size(k[b + H]) < hand_start:
                return
            if k[PD] == 1:
                after_mulligan(k)
            elif o == 0:
                k[TP] = 1
            elif mulligan_opt:
                k[ST] = MULLIGAN
                k[TP] = 0
            else:
                coin(k)
            return
        if k[b + N] == 0:  # TK-7, TK-Q4 the deck ran out
            lose(k, o)
            return
        if st == DRAW:  # TK-11, then TK-12
            k[b + H] += 1 << 2 * i
            charge_and_main(k)
        elif st == EVDRAW:
            k[b + H] += 1 << 2 * i
            if k[PD] > 0:
                k[PD] -= 1
            else:
                k[ST] = MAIN
        elif st == DAMAGE:  # TK-18 face up; TK-6
            k[b + DU] += 1
            if lost_at[k[b + DU] + k[b + DD]]:
                lose(k, o)
            else:
                k[ST] = BATTLE
        else:  # REVEAL_A / REVEAL_D, TK-19
            no = kno[o][i]
            if is_yokai[no] and fits(k, no, o):
                k[PSA if st == REVEAL_A else PSD] = no
            else:
                k[b + TR] += 1
            k[ST] = POSS_D if st == REVEAL_A else DUEL

    return took


def _duel_step(t, rows):
    """``duel(k)``: TK-20, TK-21, TK-22 (icons TK-Q7), the outcome by :func:`.rules.duel`."""
    methods, on_attacker, poss_bp, poss_icon, duel_rule = t.methods, t.on_attacker, t.poss_bp, t.poss_icon, t.duel
    add_yokai = rows.add_yokai
    outcomes = {}  # (attacker's BP, defender's BP, their icons) -> rules.duel's (attacker faints, defender faints, pierce)

    def duel(k):
        tp = k[TP]
        a, ab, am, d, db, dm, pa, pd = k[BA:PSD + 1]
        abp, _c, aic = methods[a][am]
        dbp, _c, dic = methods[d][dm]
        at, dt = abp + ab, dbp + db
        if pa:  # TK-20: the attacker's possession, on its own side or the other
            if on_attacker[1][pa]:
                at += poss_bp[pa]
                aic |= poss_icon[pa]
            else:
                dt += poss_bp[pa]
                dic |= poss_icon[pa]
        if pd:  # the defender's
            if on_attacker[0][pd]:
                at += poss_bp[pd]
                aic |= poss_icon[pd]
            else:
                dt += poss_bp[pd]
                dic |= poss_icon[pd]
        key = (at, dt, aic, dic)
        outcome = outcomes.get(key)
        if outcome is None:
            outcome = outcomes[key] = duel_rule(*key)[1:]
        a_dies, d_dies, pierce = outcome
        A = 15 + 15 * tp
        D = 45 - A
        if a_dies:
            k[A + TR] += 1
        else:
            add_yokai(k, A + F, a << 16 | RESTED | ab)
        if d_dies:
            k[D + TR] += 1
        else:
            add_yokai(k, D + B, d << 16 | RESTED | db)
        if pa:
            k[A + TR] += 1
        if pd:
            k[D + TR] += 1
        k[BA:PSD + 1] = (0, 0, 0, 0, 0, 0, 0, 0)
        k[ST] = DAMAGE if pierce else BATTLE

    return duel


def _settler(t, s, took, duel):
    """``settle(k)``: what needs no decision: known deck tops, the duel, skipped choices."""
    mincost, kdo, tw, tmask = t.mincost, t.kdo, t.tw, t.tmask
    unpayable = t.unpayable  # TK-25, TK-26: [ready][face_up] -> the lowest cost that cannot be paid
    end_turn, no_block = s.end_turn, s.no_block

    def toplen(tk):
        return (tk.bit_length() + tw - 1) // tw

    def can_act(k, b, o):
        """A ready yokai in the row at ``o`` with a method player ``b`` can pay (TK-16, TK-17)."""
        limit = unpayable[k[b + YR]][k[b + DU]]
        for y in k[o:o + 3]:
            if y != EMPTY and not y & RESTED and mincost[y >> 16] < limit:
                return True
        return False

    def settle(k):
        while True:
            st = k[ST]
            if st == DUEL:
                duel(k)
            elif st == BATTLE:
                if k[FT] or not can_act(k, 15 + 15 * k[TP], 15 + 15 * k[TP] + F):
                    end_turn(k)
                else:
                    return
            elif st == BLOCK:
                d = 30 - 15 * k[TP]
                if can_act(k, d, d + B):
                    return
                no_block(k)  # TK-18 nothing can block
            elif not kdo or st > REVEAL_D or st == MULLIGAN or st == COIN or st == MAIN or st == POSS_A \
                    or st == POSS_D:
                return
            else:  # a take stage with a known deck order (TK-Q6)
                o = 1 - k[TP] if st == DAMAGE or st == REVEAL_D else k[TP]
                b = 15 + 15 * o
                tk = k[b + TOP]
                if st == SHUFFLE:
                    if toplen(tk) < k[b + N]:
                        return
                    if k[PD] == 1:
                        k[ST] = DEAL
                    elif o == 0:
                        k[TP] = 1
                    else:
                        k[ST] = DEAL
                        k[TP] = 0
                    continue
                if not tk:
                    return
                k[b + TOP] = tk >> tw
                k[b + N] -= 1
                took(k, o, (tk & tmask) - 1)

    return settle, toplen


def _event_step(t, rows, s):
    """``event(k, b, no, slot)``: TK-24, TK-Q2: one event a main phase; it goes to the trash."""
    kidx, effect, tw = t.kidx, t.effect, t.tw
    remove_at, add_yokai, lose = rows.remove_at, rows.add_yokai, s.lose

    def heal(k, b, value):  # face-down damage first; healed damage to the trash (TK-29)
        for _ in range(value):
            if k[b + DD]:
                k[b + DD] -= 1
            elif k[b + DU]:
                k[b + DU] -= 1
            else:
                break
            k[b + TR] += 1

    def event(k, b, no, slot):
        tp = k[TP]
        k[b + H] -= 1 << 2 * kidx[tp][no]
        k[b + TR] += 1
        k[EV] = 1
        kind, value = effect[no]
        if kind == E_DRAW:
            k[ST] = EVDRAW
            k[PD] = value - 1
        elif kind == E_READY:
            n = min(value, k[b + YS])
            k[b + YR] += n
            k[b + YS] -= n
        elif kind == E_BP:
            y = k[b + F + slot] + value
            o = b + F if slot < 3 else b + B
            remove_at(k, o, slot % 3)
            add_yokai(k, o, y)
        elif kind == E_HEAL:
            heal(k, b, value)
        elif kind == E_BANISH or kind == E_REST:
            ob = 45 - b
            o = ob + F if slot < 3 else ob + B
            y = k[o + slot % 3]
            remove_at(k, o, slot % 3)
            if kind == E_BANISH:
                k[ob + TR] += 1
            else:
                add_yokai(k, o, y | RESTED)
        elif kind == E_CHARGE:  # TK-12
            for _ in range(value):
                if k[b + TOP]:
                    k[b + TOP] >>= tw
                k[b + N] -= 1
                k[b + YR] += 1
                if k[b + N] <= 0:
                    lose(k, tp)
                    return
        elif kind == E_WIN:  # TK-8
            if sum(y != EMPTY for y in k[b + F:b + F + 6]) >= value:
                k[ST] = OVER
                k[WN] = tp

    return event


def _main_play(t, rows, s, event, attack, settle):
    """``play_main(pos, move)``: the position after a main-phase move (TK-13, TK-14, TK-24, TK-28), settled."""
    kidx, cost, move_once = t.kidx, t.cost, t.move_once
    pay, add_yokai, remove_at, unmark, end_turn = rows.pay, rows.add_yokai, rows.remove_at, rows.unmark, s.end_turn

    def play_main(pos, move):
        k = list(pos)
        tp = k[TP]
        b = 15 + 15 * tp
        kind = move >> 24
        if kind == SUMMON:  # TK-13, TK-28 ready at once
            no = move >> 8 & 0xFFFF
            k[b + H] -= 1 << 2 * kidx[tp][no]
            pay(k, b, cost[no], move & 15)
            add_yokai(k, b + B if move & 16 else b + F, no << 16)
        elif kind == MOVE:  # TK-13: the picked yokai change rows, marked (nothing to settle)
            fr, bk = [], []
            for slot in range(6):
                y = k[b + F + slot]
                if y == EMPTY:
                    continue
                if move >> slot & 1:
                    (bk if slot < 3 else fr).append(y | MOVED)
                else:
                    (fr if slot < 3 else bk).append(y)
            fr += [EMPTY] * (3 - len(fr))
            bk += [EMPTY] * (3 - len(bk))
            fr.sort()
            bk.sort()
            k[b + F:b + F + 3] = fr
            k[b + B:b + B + 3] = bk
            return tuple(k)
        elif kind == ATTACK:
            attack(k, b, move)
            unmark(k, b)
            settle(k)
            return tuple(k)
        elif kind == END:  # without battle
            end_turn(k)
            settle(k)
            return tuple(k)
        elif kind == EVENT:
            event(k, b, move >> 8 & 0xFFFF, move & 15)
        else:  # RELEASE, TK-13 make room
            slot = move & 7
            remove_at(k, b + F if slot < 3 else b + B, slot % 3)
            k[b + TR] += 1
        if not move_once:
            unmark(k, b)  # after a summon, release or event moving is offered again
        settle(k)
        return tuple(k)

    return play_main


def _player(t, rows, s, took, settle, toplen, play_main, attack):
    """``play(pos, move)``: the position after a move or a chance outcome."""
    kidx, kdo, tw, tmask, hand_start, methods = t.kidx, t.kdo, t.tw, t.tmask, t.hand_start, t.methods
    end_turn, no_block, after_mulligan, start_turn = s.end_turn, s.no_block, s.after_mulligan, s.start_turn
    pay, remove_at = rows.pay, rows.remove_at

    def block(k, d, move):
        """TK-17: the blocker rests, chooses a method, pays its cost."""
        i, m = move >> 8 & 3, move >> 4 & 15
        y = k[d + B + i]
        remove_at(k, d + B, i)
        no = y >> 16
        pay(k, d, methods[no][m][1], move & 15)
        k[BB], k[BBB], k[BBM] = no, y & 0x3FFF, m
        k[ST] = POSS_A

    def mulligan(k, b):
        """TK-3: the hand back into the deck, shuffled; 5 again."""
        pool = k[b + PO] + k[b + H]
        tk = k[b + TOP]
        while tk:
            pool += 1 << 2 * ((tk & tmask) - 1)
            tk >>= tw
        k[b + PO] = pool
        k[b + H] = k[b + TOP] = 0
        k[b + N] += hand_start
        k[ST] = SHUFFLE if kdo else DEAL
        k[PD] = 1

    def play(pos, move):
        st = pos[0]
        if st == MAIN:
            return play_main(pos, move)
        k = list(pos)
        tp = k[TP]
        if st == BATTLE:
            if move >> 24 == END:
                end_turn(k)
            else:
                attack(k, 15 + 15 * tp, move)
        elif st == BLOCK:
            if move >> 24 == NOBLOCK:
                no_block(k)
            else:
                block(k, 30 - 15 * tp, move)
        elif st == POSS_A or st == POSS_D:  # TK-19
            kind = move >> 24
            if kind == PDECK:
                k[ST] = REVEAL_A if st == POSS_A else REVEAL_D
            else:
                if kind == PHAND:
                    who = tp if st == POSS_A else 1 - tp
                    no = move >> 8 & 0xFFFF
                    k[15 + 15 * who + H] -= 1 << 2 * kidx[who][no]
                    k[PSA if st == POSS_A else PSD] = no
                k[ST] = POSS_D if st == POSS_A else DUEL
        elif st == MULLIGAN:
            if move >> 24 == MULL:
                mulligan(k, 15 + 15 * tp)
            else:
                after_mulligan(k)
        elif st == COIN:  # TK-4, TK-Q3
            start_turn(k, move, True)
        else:  # a card from the unknown part of a deck
            o = 1 - tp if st == DAMAGE or st == REVEAL_D else tp
            b = 15 + 15 * o
            k[b + PO] -= 1 << 2 * move
            if st == SHUFFLE:  # TK-Q6 laid out in the known order
                k[b + TOP] |= (move + 1) << tw * toplen(k[b + TOP])
            else:
                k[b + N] -= 1
                took(k, o, move)
        settle(k)
        return tuple(k)

    return play


def _attacker(t, rows):
    """``attack(k, b, move)``: TK-16, the attacker leaves the front row (it
    rests in the battle), its method chosen and paid by player ``b``; the
    blocker of TK-17 likewise (``_player``'s ``block``)."""
    methods, pay, remove_at = t.methods, rows.pay, rows.remove_at

    def attack(k, b, move):
        i, m = move >> 8 & 3, move >> 4 & 15
        y = k[b + F + i]
        remove_at(k, b + F, i)
        no = y >> 16
        pay(k, b, methods[no][m][1], move & 15)
        k[BA:PSD + 1] = (no, y & 0x3FFF, m, 0, 0, 0, 0, 0)
        k[ST] = BLOCK

    return attack


def make_core(game):
    """The core of ``game`` (every option value is handled), its tables built
    from the cards and :mod:`.rules` now (a swapped rule is followed)."""
    t = _card_tables(game)
    r = _reading(t)
    t.kinds = r.kinds
    encode, decode = _codec(game, t)
    other = _other_moves(t, r)
    moves = _mover(_main_moves(t, r, other.attack_moves), other)
    rows = _rows()
    steps = _turn_steps(t, rows)
    took = _take(t, r, steps)
    settle, toplen = _settler(t, steps, took, _duel_step(t, rows))
    attack = _attacker(t, rows)
    play_main = _main_play(t, rows, steps, _event_step(t, rows, steps), attack, settle)
    play = _player(t, rows, steps, took, settle, toplen, play_main, attack)
    return SimpleNamespace(encode=encode, decode=decode, player=r.player, moves=moves, chance=r.chance,
                           play=play, returns=r.returns)
