"""Compact core of Toritsuki (cardlab/games/toritsuki.py; rules
docs/rules/toritsuki.md, TK-1 … TK-29, TK-Q1 … TK-Q8).

Handles every option (open_hands, known_deck_order, mulligan,
move_once_per_turn, first_player, cards, decks): the card data is read from
the game, so any card file and any decks work.

Position: a flat tuple of 45 small ints (``pos[i]``):

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

Moves: ``kind << 24 | …``: summon ``no << 8 | row << 4 | boosts`` (row 1 =
back); release the place 0-5 (F1-F3, B1-B3); move the mask of places that
change rows; event ``no << 8 | place`` (own or the opponent's, 15 none);
attack / block ``slot << 8 | method << 4 | boosts``; possess from the hand
``no << 8``.  Chance outcomes: the kind index of the card taken, or the
first player.
"""

from __future__ import annotations

from itertools import combinations
from types import SimpleNamespace

from ...core import CHANCE, TERMINAL
from . import state as T

__all__ = ["make_core", "TEST_OPTIONS"]

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

STAGES = (T.SHUFFLE, T.DEAL, T.MULLIGAN, T.COIN, T.DRAW, T.MAIN, T.EVDRAW, T.BATTLE, T.BLOCK, T.DAMAGE,
          T.POSS_A, T.REVEAL_A, T.POSS_D, T.REVEAL_D, T.OVER)
(SHUFFLE, DEAL, MULLIGAN, COIN, DRAW, MAIN, EVDRAW, BATTLE, BLOCK, DAMAGE,
 POSS_A, REVEAL_A, POSS_D, REVEAL_D, OVER) = range(15)
DUEL = 15  # transient: settled at once (TK-21)
ST, TP, FP, FT, EV, PD, WN, BA, BAB, BAM, BB, BBB, BBM, PSA, PSD = range(15)
H, PO, N, TOP, F, B, YR, YS, DU, DD, TR = 0, 1, 2, 3, 4, 7, 10, 11, 12, 13, 14
EMPTY = 0x3FFF << 16  # beyond every card number (≤ 9999): sorts last; low 16 bits clear
RESTED, MOVED = 1 << 15, 1 << 14
# move kinds
KEEP, MULL, SUMMON, RELEASE, MOVE, EVENT, ATTACK, END, BLOCKM, NOBLOCK, PASS, PDECK, PHAND = range(13)
NOTARGET = 15
PIERCE, GUARD = 1, 2
EV_KINDS = ("draw", "ready_yoki", "bp_up", "heal", "banish", "charge", "rest", "win_if_field")
E_DRAW, E_READY, E_BP, E_HEAL, E_BANISH, E_CHARGE, E_REST, E_WIN = range(8)


def _move_table() -> dict:
    """TK-13: for (front size, back size, mask of unmoved places) the row
    changes in the engine's order (combinations of the unmoved places by
    size; F places are bits 0-2, B places bits 3-5), 3 a row at most."""
    table = {}
    for nf in range(4):
        for nb in range(4):
            places = [i for i in range(nf)] + [3 + i for i in range(nb)]
            for um in range(64):
                if um & ~sum(1 << s for s in places):
                    continue
                slots = [s for s in places if um >> s & 1]
                out = []
                for n in range(1, len(slots) + 1):
                    for pick in combinations(slots, n):
                        n_out = sum(s < 3 for s in pick)
                        n_in = n - n_out
                        if nf - n_out + n_in > 3 or nb - n_in + n_out > 3:
                            continue
                        out.append(sum(1 << s for s in pick))
                table[nf, nb, um] = out
    return table


_MOVES: dict = {}  # _move_table(), built once
_CHUNKS: list = []  # per 8-bit chunk of a hand or pool: (kinds, (kind, count) pairs) of each byte


def make_core(game):
    """The core of ``game`` (every option value is handled)."""
    opts = game.options
    kdo = bool(opts["known_deck_order"])
    mulligan_opt = bool(opts["mulligan"])
    move_once = bool(opts["move_once_per_turn"])
    cards = game.cards
    top_no = max(cards) + 1
    is_yokai = [False] * top_no
    cost = [0] * top_no
    methods = [()] * top_no  # (bp, cost, icon bits)
    mincost = [0] * top_no
    rank = [0] * top_no
    own = [True] * top_no
    poss_bp = [0] * top_no
    poss_icon = [0] * top_no
    effect = [(0, 0)] * top_no
    icon_bit = {None: 0, "pierce": PIERCE, "guard": GUARD}
    for no, c in cards.items():
        if c.is_yokai:
            is_yokai[no] = True
            cost[no] = c.cost
            methods[no] = tuple((m.bp, m.cost, icon_bit[m.icon]) for m in c.methods)
            mincost[no] = min(m.cost for m in c.methods)
            rank[no] = c.rank
            own[no] = c.target == "own"
            poss_bp[no] = c.poss_bp
            poss_icon[no] = icon_bit[c.poss_icon]
        else:
            effect[no] = (EV_KINDS.index(c.effect[0]), c.effect[1])
    # TK-19 possession conditions: fitset[no] holds target_no * 4 + method of every fitting target
    fitset = [frozenset()] * top_no
    yokai_nos = sorted(no for no in set(game.kinds[0]) | set(game.kinds[1]) if is_yokai[no])
    for no in yokai_nos:
        c = cards[no]
        fitset[no] = frozenset(
            t * 4 + m for t in yokai_nos for m, meth in enumerate(cards[t].methods)
            if (c.cond_tribe is None or cards[t].tribe == c.cond_tribe)
            and (c.cond_rank_max is None or cards[t].rank <= c.cond_rank_max)
            and (c.cond_category is None or meth.category == c.cond_category))
    kno = [list(game.kinds[p]) for p in (0, 1)]
    kidx = [dict(game.index[p]) for p in (0, 1)]
    nk = max(len(kno[0]), len(kno[1]))
    tw = (nk + 1).bit_length()
    tmask = (1 << tw) - 1
    m1 = int("01" * nk, 2) if nk else 0
    m2 = m1 << 1
    move_table = _MOVES or _MOVES.update(_move_table()) or _MOVES

    def hand_size(h):
        return (h & m1).bit_count() + 2 * (h & m2).bit_count()

    # per 8-bit chunk j of a count-packed hand or pool (kinds 4j … 4j+3): its kinds, and (kind, count) pairs
    while len(_CHUNKS) < (nk + 3) // 4:
        j = len(_CHUNKS)
        _CHUNKS.append(([tuple(4 * j + i for i in range(4) if byte >> 2 * i & 3) for byte in range(256)],
                        [tuple((4 * j + i, byte >> 2 * i & 3) for i in range(4) if byte >> 2 * i & 3)
                         for byte in range(256)]))
    chunk_kinds = [c[0] for c in _CHUNKS[:(nk + 3) // 4]]
    chunk_counts = [c[1] for c in _CHUNKS[:(nk + 3) // 4]]

    def kinds(h):
        """Kind indexes present in a count-packed hand or pool, ascending."""
        out = []
        for table in chunk_kinds:
            if not h:
                break
            out += table[h & 255]
            h >>= 8
        return out

    def toplen(t):
        return (t.bit_length() + tw - 1) // tw

    # -- encode / decode ---------------------------------------------------------
    def counts(p, nos):
        h = 0
        for no in nos:
            h += 1 << 2 * kidx[p][no]
        return h

    def row_codes(row):
        out = [y[0] << 16 | y[1] << 15 | y[2] << 14 | y[3] for y in row]
        return out + [EMPTY] * (3 - len(out))

    def encode(state):
        k = state._k
        if k[0] not in STAGES:
            return None
        out = [STAGES.index(k[0]), k[1], k[2], int(k[3]), int(k[4]), k[5], k[6]]
        out += list(k[9]) if k[9] is not None else [0] * 8
        for p in (0, 1):
            P = k[7 + p]
            top = 0
            for j, no in enumerate(P[T.TOP]):
                top |= (kidx[p][no] + 1) << (tw * j)
            if any(y[3] >= 1 << 14 for y in P[T.FR] + P[T.BK]):
                return None
            out += [counts(p, P[T.H]), counts(p, P[T.PO]), P[T.N], top]
            out += row_codes(P[T.FR]) + row_codes(P[T.BK])
            out += [P[T.YR], P[T.YS], P[T.DU], P[T.DD], P[T.TR]]
        return tuple(out)

    def unpack_nos(p, h):
        out = []
        for i in kinds(h):
            out += [kno[p][i]] * ((h >> 2 * i) & 3)
        return tuple(out)

    def unrow(codes):
        return tuple((y >> 16, y >> 15 & 1, y >> 14 & 1, y & 0x3FFF) for y in codes if y != EMPTY)

    def decode(pos):
        k = pos
        ps = []
        for p in (0, 1):
            b = 15 + 15 * p
            top, t = [], k[b + TOP]
            while t:
                top.append(kno[p][(t & tmask) - 1])
                t >>= tw
            ps.append((unpack_nos(p, k[b + H]), unpack_nos(p, k[b + PO]), k[b + N], tuple(top),
                       unrow(k[b + F:b + F + 3]), unrow(k[b + B:b + B + 3]),
                       k[b + YR], k[b + YS], k[b + DU], k[b + DD], k[b + TR]))
        battle = tuple(k[BA:PSD + 1]) if k[BA] else None
        key = (STAGES[k[0]], k[1], k[2], bool(k[3]), bool(k[4]), k[5], k[6], ps[0], ps[1], battle)
        return T.ToritsukiState(game, key)

    # -- reading -----------------------------------------------------------------
    def player(pos):
        st = pos[0]
        if st == OVER:
            return TERMINAL
        if st == MAIN or st == BATTLE or st == POSS_A or st == MULLIGAN:
            return pos[1]
        if st == BLOCK or st == POSS_D:  # the defender decides (TK-17, TK-19)
            return 1 - pos[1]
        return CHANCE

    def returns(pos):
        w = pos[WN]
        if w < 0:
            return (0, 0)
        return (1, -1) if w == 0 else (-1, 1)

    def chance(pos):
        st = pos[0]
        if st == COIN:  # TK-4, TK-Q3
            return [(0, 1), (1, 1)]
        o = 1 - pos[1] if st == DAMAGE or st == REVEAL_D else pos[1]
        pool = pos[16 + 15 * o]
        out = []
        for table in chunk_counts:  # the top card of the unknown deck: probability count / pool size
            if not pool:
                break
            out += table[pool & 255]
            pool >>= 8
        return out

    def fits(k, no, owner):
        """TK-19: card ``no`` of ``owner`` meets its condition on the yokai it would possess."""
        if (owner == k[TP]) == own[no]:
            return k[BA] * 4 + k[BAM] in fitset[no]
        return k[BB] * 4 + k[BBM] in fitset[no]

    # -- legal moves -------------------------------------------------------------
    def pays(out, code, c, yr, du):
        """TK-25, TK-26, TK-Q8: ``code`` once per number of boosts that can pay ``c``."""
        out += range(code + (c - yr if c > yr else 0), code + (c if c < du else du) + 1)

    def attack_moves(k, b, out):
        yr, du = k[b + YR], k[b + DU]
        prev = -1
        for i in range(3):
            y = k[b + F + i]
            if y == EMPTY:
                break
            if y != prev and not y & RESTED:  # TK-16 ready front yokai; alike ones once
                base = ATTACK << 24 | i << 8
                for m, (_bp, c, _ic) in enumerate(methods[y >> 16]):
                    pays(out, base | m << 4, c, yr, du)
            prev = y
        return out

    def main_moves(k):
        tp = k[TP]
        b = 15 + 15 * tp
        ob = 45 - b
        yr, du = k[b + YR], k[b + DU]
        f0, f1, f2, b0, b1, b2 = k[b + F:b + F + 6]
        nf = (f0 != EMPTY) + (f1 != EMPTY) + (f2 != EMPTY)
        nb = (b0 != EMPTY) + (b1 != EMPTY) + (b2 != EMPTY)
        out = []
        hand_nos = [kno[tp][i] for i in kinds(k[b + H])]
        affordable = False
        for no in hand_nos:  # TK-13 summon, TK-25 paid in yoki
            if is_yokai[no]:
                c = cost[no]
                if c <= yr + du:
                    affordable = True
                    if nf < 3:
                        pays(out, SUMMON << 24 | no << 8, c, yr, du)
                    if nb < 3:
                        pays(out, SUMMON << 24 | no << 8 | 16, c, yr, du)
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
        # TK-13 move: every other arrangement once
        row = (f0, f1, f2, b0, b1, b2)
        marked = (f0 | f1 | f2 | b0 | b1 | b2) & MOVED
        if move_once or not marked:
            um = 0
            for s in range(6):
                y = row[s]
                if y != EMPTY and not y & MOVED:
                    um |= 1 << s
            if um:
                dup = 0  # places alike the one before them in their row
                if f1 == f0 and f1 != EMPTY:
                    dup |= 2
                if f2 == f1 and f2 != EMPTY:
                    dup |= 4
                if b1 == b0 and b1 != EMPTY:
                    dup |= 16
                if b2 == b1 and b2 != EMPTY:
                    dup |= 32
                pairs = [1 << i | 8 << j for i in range(nf) if row[i] in (b0, b1, b2)
                         for j in range(nb) if row[i] == row[3 + j]]
                for mask in move_table[nf, nb, um]:
                    if (mask & dup) >> 1 & ~mask:
                        continue  # of alike yokai in a row, the first ones only
                    if pairs and any(pm & mask == pm for pm in pairs):
                        continue  # trading alike yokai changes nothing
                    out.append(MOVE << 24 | mask)
        if not k[EV] and not k[FT]:  # TK-24 one event a main phase; none on TK-5's first turn
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
        if not k[FT]:  # TK-5 no battle on the first player's first turn; TK-14 an attack ends main
            attack_moves(k, b, out)
        out.append(END << 24)
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
                for m, (_bp, c, _ic) in enumerate(methods[y >> 16]):
                    pays(out, base | m << 4, c, yr, du)
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

    # -- transitions -------------------------------------------------------------
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
        for o in (19, 22, 34, 37):
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

    def took(k, o, i):
        """Kind ``i`` has left player ``o``'s deck at the current stage: put it where it goes."""
        st = k[ST]
        b = 15 + 15 * o
        if st == DEAL:  # TK-2, TK-3
            k[b + H] += 1 << 2 * i
            if hand_size(k[b + H]) < T.HAND_START:
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
            if k[b + DU] + k[b + DD] >= T.DAMAGE_LOSS:
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

    def duel(k):
        """TK-20, TK-21, TK-22 (icons: TK-Q7)."""
        tp = k[TP]
        a, ab, am, d, db, dm, pa, pd = k[BA:PSD + 1]
        abp, _c, aic = methods[a][am]
        dbp, _c, dic = methods[d][dm]
        at, dt = abp + ab, dbp + db
        if pa:
            if own[pa]:
                at += poss_bp[pa]
                aic |= poss_icon[pa]
            else:
                dt += poss_bp[pa]
                dic |= poss_icon[pa]
        if pd:
            if own[pd]:
                dt += poss_bp[pd]
                dic |= poss_icon[pd]
            else:
                at += poss_bp[pd]
                aic |= poss_icon[pd]
        pierce = False
        if at > dt:
            a_dies, d_dies, pierce = False, True, aic & PIERCE
        elif at < dt:
            a_dies, d_dies = True, False
        else:
            a_dies, d_dies = not aic & GUARD, not dic & GUARD
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

    def can_act(k, b, o):
        """A ready yokai in the row at ``o`` with a method player ``b`` can pay (TK-16, TK-17)."""
        money = k[b + YR] + k[b + DU]
        for y in k[o:o + 3]:
            if y != EMPTY and not y & RESTED and mincost[y >> 16] <= money:
                return True
        return False

    def settle(k):
        """What needs no decision: known deck tops, the duel, skipped choices."""
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
                t = k[b + TOP]
                if st == SHUFFLE:
                    if toplen(t) < k[b + N]:
                        return
                    if k[PD] == 1:
                        k[ST] = DEAL
                    elif o == 0:
                        k[TP] = 1
                    else:
                        k[ST] = DEAL
                        k[TP] = 0
                    continue
                if not t:
                    return
                k[b + TOP] = t >> tw
                k[b + N] -= 1
                took(k, o, (t & tmask) - 1)

    def event(k, b, no, slot):
        """TK-24, TK-Q2: one event a main phase; it goes to the trash."""
        tp = k[TP]
        k[b + H] -= 1 << 2 * kidx[tp][no]
        k[b + TR] += 1
        k[EV] = 1
        kind, value = effect[no]
        if kind == E_DRAW:
            k[ST] = EVDRAW
            k[PD] = value - 1
        elif kind == E_READY:
            r = min(value, k[b + YS])
            k[b + YR] += r
            k[b + YS] -= r
        elif kind == E_BP:
            o = b + F + slot
            y = k[o] + value
            o = b + F if slot < 3 else b + B
            remove_at(k, o, slot % 3)
            add_yokai(k, o, y)
        elif kind == E_HEAL:  # face-down damage first; healed damage to the trash (TK-29)
            for _ in range(value):
                if k[b + DD]:
                    k[b + DD] -= 1
                elif k[b + DU]:
                    k[b + DU] -= 1
                else:
                    break
                k[b + TR] += 1
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
            nf = sum(y != EMPTY for y in k[b + F:b + F + 6])
            if nf >= value:
                k[ST] = OVER
                k[WN] = tp

    def play(pos, move):
        k = list(pos)
        st = k[ST]
        tp = k[TP]
        if st == MAIN:
            b = 15 + 15 * tp
            kind = move >> 24
            if kind == SUMMON:  # TK-13, TK-28 ready at once
                no = move >> 8 & 0xFFFF
                k[b + H] -= 1 << 2 * kidx[tp][no]
                pay(k, b, cost[no], move & 15)
                add_yokai(k, b + B if move & 16 else b + F, no << 16)
            elif kind == RELEASE:  # TK-13 make room
                s = move & 7
                remove_at(k, b + F if s < 3 else b + B, s % 3)
                k[b + TR] += 1
            elif kind == MOVE:  # TK-13 the picked yokai change rows, marked
                mask = move & 63
                fr, bk = [], []
                for s in range(6):
                    y = k[b + F + s]
                    if y == EMPTY:
                        continue
                    if mask >> s & 1:
                        (bk if s < 3 else fr).append(y | MOVED)
                    else:
                        (fr if s < 3 else bk).append(y)
                fr += [EMPTY] * (3 - len(fr))
                bk += [EMPTY] * (3 - len(bk))
                fr.sort()
                bk.sort()
                k[b + F:b + F + 3] = fr
                k[b + B:b + B + 3] = bk
                return tuple(k)
            elif kind == EVENT:
                event(k, b, move >> 8 & 0xFFFF, move & 15)
            elif kind == ATTACK:
                attack(k, b, move)
                unmark(k, b)
                settle(k)
                return tuple(k)
            else:  # END without battle
                end_turn(k)
                settle(k)
                return tuple(k)
            if not move_once:
                unmark(k, b)  # after a summon, release or event moving is offered again
            settle(k)
            return tuple(k)
        if st == BATTLE:
            if move >> 24 == END:
                end_turn(k)
            else:
                attack(k, 15 + 15 * tp, move)
        elif st == BLOCK:
            if move >> 24 == NOBLOCK:
                no_block(k)
            else:  # TK-17
                d = 30 - 15 * tp
                i, m = move >> 8 & 3, move >> 4 & 15
                y = k[d + B + i]
                remove_at(k, d + B, i)
                no = y >> 16
                pay(k, d, methods[no][m][1], move & 15)
                k[BB], k[BBB], k[BBM] = no, y & 0x3FFF, m
                k[ST] = POSS_A
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
            if move >> 24 == MULL:  # TK-3 the hand back, shuffled; 5 again
                b = 15 + 15 * tp
                pool = k[b + PO] + k[b + H]
                t = k[b + TOP]
                while t:
                    pool += 1 << 2 * ((t & tmask) - 1)
                    t >>= tw
                k[b + PO] = pool
                k[b + H] = k[b + TOP] = 0
                k[b + N] += T.HAND_START
                k[ST] = SHUFFLE if kdo else DEAL
                k[PD] = 1
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

    def attack(k, b, move):
        """TK-16: the attacker rests, chooses a method, pays its cost."""
        i, m = move >> 8 & 3, move >> 4 & 15
        y = k[b + F + i]
        remove_at(k, b + F, i)
        no = y >> 16
        pay(k, b, methods[no][m][1], move & 15)
        k[BA:PSD + 1] = (no, y & 0x3FFF, m, 0, 0, 0, 0, 0)
        k[ST] = BLOCK

    return SimpleNamespace(encode=encode, decode=decode, player=player, moves=moves, chance=chance,
                           play=play, returns=returns)
