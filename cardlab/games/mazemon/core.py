"""The compact core of Mazemon (cardlab.cores, issue P item 4).

The rules are the engine's (``cardlab/games/mazemon.py``, rule ids from
``docs/rules/mazemon.md``); its per-game tables (``game.cost``: MZ-18 with
the ``material_count`` option, ``game.fight``: MZ-10 … MZ-16, MZ-8, MZ-21)
are used as they are.  Every option is handled: ``open_hands`` changes only
what players see, ``payoff`` and ``both_three`` only :meth:`returns`, and
``cards``, ``deck0``, ``deck1`` and ``material_count`` only those tables.
``make_core`` never gives ``None``; ``encode`` gives ``None`` only for a key
outside the engine's invariants (never from a reachable or loaded position).

A position is one int, the engine's key bit-packed with the two players'
fields ordered *mover first* ("x": the player whose turn it is, ``turn``;
"y": the other; a turn change swaps them).  What the move generator reads
lies low (small ints are cheap to take apart)::

    bits   0-2   phase (the engine's JANKEN … END)   bits  60-69  x attacked (mask)
    bit    3     turn (the mover)                     bits  70-73  pending attacker (0 unless substitute)
    bit    4     direct_used                          bits  74-77  pending target (0 unless substitute)
    bit    5     substitute_used                      bits  78-87  x wounded (mask)
    bits   6-9   x untapped mana                      bits  88-97  x out (mask)
    bits  10-19  x battle zone (mask)                 bits  98-101 x mana
    bits  20-29  x hand (mask)                        bits 102-103 x captured
    bit   30     acted                                bits 104-129 y wounded, out, mana, captured
    bits  31-32  quiet_turns                                       (as x's, 26 bits up)
    bit   33     first (0 before the janken)
    bits  36-59  y untapped, battle zone, hand (as x's, 30 bits up)

Masks are over deck slots.  The engine's first is -1 only before the janken
and its pending attack -1 only outside the substitute phase: both are stored
as 0 then (the phase tells them apart).  Only the mover's monsters can have
attacked (MZ-8; the engine clears them at the end of the turn), so y has no
"attacked" field.  Moves are ``kind | x << 4 | y << 8`` (x, y deck slots;
kinds below); chance outcomes are moves of the chance kinds, each of weight 1.

Bookkeeping.  The engine ends a turn by itself when only 'end' is left
(MZ-9): to know that, ``play`` works out the mover's moves of the position
it leaves, and keeps that list for the ``moves`` call that follows on the
same position object (playouts and the solver make that call next), which
hands it over.  Per-game tables (made once in :func:`make_core`) hold the
affordable summons per zone and untapped mana (MZ-7, MZ-18), the attacks per
attacker and targets in the engine's order (MZ-8), and what each summon,
attack and battle adds to the position.
"""

from __future__ import annotations

from itertools import combinations

from ...core import CHANCE, TERMINAL
from .state import (
    BATTLE,
    CHARGE,
    DECK_SIZE,
    END,
    JANKEN,
    KO,
    MUTUAL,
    STEAL,
    SUB,
    SUMMON,
    TRASH,
    WIN_CAPTURES,
    ZONE_LIMIT,
    MazemonState,
)

__all__ = ["make_core", "MazemonCore", "TEST_OPTIONS"]

#: option sets the agreement test (tests/test_cores.py) plays; the reference
#: positions (tests/data/reference/mazemon.json) use open_hands=True
TEST_OPTIONS = [
    {},
    {"open_hands": True},
    {"payoff": "score"},
    {"material_count": "per_monster"},
    {"both_three": "draw"},
    {"deck0": "shizuku", "deck1": "hinoko", "open_hands": True, "payoff": "score"},
    {"deck0": "hinoko", "deck1": "hinoko", "material_count": "per_monster", "both_three": "draw"},
]

# move kinds (low 4 bits of a move)
K_CHARGE, K_SUMMON, K_ATTACK, K_DIRECT, K_END, K_SUBST, K_DECLINE, K_JANKEN, K_TRASH, K_STEAL = range(10)
END_MOVE, DECLINE_MOVE = K_END, K_DECLINE

# the turn fields (module docstring)
PH_MASK, MVB, DUB, SUB_B, ACB, NCS, FIB, PAS, PTS = 7, 1 << 3, 1 << 4, 1 << 5, 1 << 30, 31, 1 << 33, 70, 74
NC_MASK, PEND_MASK = 3 << NCS, 0xFF << PAS
FULL = (1 << DECK_SIZE) - 1
# the players' fields: x (the mover) and y
XU, XB, XH, XA, XW, XO, XM, XC = 6, 10, 20, 60, 78, 88, 98, 102
D1, D2 = 30, 26  # y's untapped, battle zone and hand lie D1 above x's; the rest D2 above
YU, YB, YH, YW, YO, YM, YC = XU + D1, XB + D1, XH + D1, XW + D2, XO + D2, XM + D2, XC + D2
LO = (1 << 30) - 1  # phase, turn, direct_used, substitute_used, x untapped, zone and hand
XU_MASK, XA_MASK, YB_MASK, YH_MASK, YU_MASK = 15 << XU, FULL << XA, FULL << YB, FULL << YH, 15 << YU
G1X = (1 << XH + DECK_SIZE) - (1 << XU)  # x untapped, zone, hand
G1Y_BH = (1 << YH + DECK_SIZE) - (1 << YB)  # y zone, hand
G2X = (1 << YW) - (1 << XW)  # x wounded, out, mana, captured
KEEP_ON_SWAP = MVB | FIB  # the rest of the turn fields start afresh (MZ-5)


def _bits(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(DECK_SIZE) if mask >> i & 1)


def make_core(game) -> "MazemonCore":
    """The core of a Mazemon game (every option is handled)."""
    return MazemonCore(game)


class MazemonCore:
    """player / moves / chance / play / returns on packed ints (module docstring)."""

    def __init__(self, game) -> None:
        self.game = game
        self._last = ((), None)  # the last key encoded and its position
        bits = [_bits(m) for m in range(FULL + 1)]
        small = [m for m in range(FULL + 1) if len(bits[m]) <= ZONE_LIMIT]  # the zones possible (MZ-4)
        cost, fight = game.cost, game.fight  # MZ-18; MZ-8, MZ-10 … MZ-16, MZ-21
        # SUMMONABLE[p][zone << 4 | untapped]: the cards p can pay for (MZ-7, MZ-18)
        summonable = []
        for p in (0, 1):
            t = [0] * ((FULL + 1) << 4)
            for zone in small:
                if len(bits[zone]) < ZONE_LIMIT:  # MZ-7: a summon needs room
                    for u in range(16):
                        t[zone << 4 | u] = sum(1 << i for i in range(DECK_SIZE) if cost[p][i][zone] <= u)
            summonable.append(t)

        def codes(kind):  # codes(kind)[mask]: the moves of that kind for the slots of mask
            return tuple(tuple(kind | i << 4 for i in b) for b in bits)

        charge_moves, summon_moves, direct_moves = codes(K_CHARGE), codes(K_SUMMON), codes(K_DIRECT)
        summon_end = tuple(ms + (END_MOVE,) for ms in summon_moves)  # MZ-7: summons, then 'end'
        end_only = summon_end[0]
        subst_moves = tuple(ms + (DECLINE_MOVE,) for ms in codes(K_SUBST))  # MZ-19: substitutes, then decline
        steal_outs = tuple(tuple((m, 1) for m in ms) for ms in codes(K_STEAL))  # MZ-22, MZ-Q2: uniform
        trash_outs = tuple((K_TRASH | i << 4 | j << 8, 1) for i, j in combinations(range(DECK_SIZE), 2))  # MZ-3
        janken_outs = ((K_JANKEN, 1), (K_JANKEN | 1 << 4, 1))  # MZ-2: a fair coin
        # the attacks of one attacker i on the targets T (MZ-8): ATTACKS[p << 1 | two][i][T] is
        # (KO, wound, mutual) moves, each in target slot order; ATTACKS1[p << 1 | two][1 << i][T]
        # the three joined.  two: 2+ untapped mana (else only the 1-mana attacks, MZ-Q4).
        # T: at most 3 monsters (MZ-4).
        attacks, attacks1 = [], []
        for p in (0, 1):
            for two in (0, 1):
                split, joined = [], [None] * (FULL + 1)
                for i in range(DECK_SIZE):
                    row, row1 = [None] * (FULL + 1), [None] * (FULL + 1)
                    row[0], row1[0] = ((), (), ()), ()
                    for t in small[1:]:  # T after T less its highest slot j: add the attack on j
                        j = t.bit_length() - 1
                        ms = list(row[t ^ 1 << j])
                        result, pay, _aw = fight[p][i][j]
                        if two or pay == 1:
                            ms[result] += (K_ATTACK | i << 4 | j << 8,)
                        row[t] = tuple(ms)
                        row1[t] = ms[0] + ms[1] + ms[2]
                    split.append(row)
                    joined[1 << i] = row1
                attacks.append(split)
                attacks1.append(joined)

        # returns: RET[turn << 4 | mover's captures << 2 | other's captures]
        score = game.options["payoff"] == "score"
        draw3 = game.options["both_three"] == "draw"
        ret = []
        for mv in (0, 1):
            for cx in range(4):
                for cy in range(4):
                    c0, c1 = (cx, cy) if mv == 0 else (cy, cx)
                    if score:
                        d = c0 - c1
                    elif c0 >= WIN_CAPTURES and c1 >= WIN_CAPTURES:  # MZ-Q7: the attacker's side first
                        d = 0 if draw3 else (1 if mv == 0 else -1)
                    elif c0 >= WIN_CAPTURES or c1 >= WIN_CAPTURES:  # MZ-23
                        d = 1 if c0 >= WIN_CAPTURES else -1
                    else:  # MZ-24, MZ-Q6: more captured cards wins
                        d = (c0 > c1) - (c0 < c1)
                    ret.append((d, -d))
        ret = tuple(ret)
        zero = (0, 0)
        # player: PLAYER[turn << 3 | phase]
        player_of = []
        for mv in (0, 1):
            for ph in range(8):
                player_of.append(TERMINAL if ph == END else CHANCE if ph in (JANKEN, TRASH, STEAL)
                                 else 1 - mv if ph == SUB else mv)  # MZ-19: the defender decides
        player_of = tuple(player_of)
        # per slot: its bit in each field; what play adds for a summon and an attack
        bit = [[1 << (f + i) for i in range(DECK_SIZE)] for f in (XH, XB, XW, XA, XO, YH, YB, YW, YO)]
        xh_bit, xb_bit, xw_bit, xa_bit, xo_bit, yh_bit, yb_bit, yw_bit, yo_bit = bit
        xab = [b | ACB for b in xa_bit]  # attacked, and acted
        x_out = [~(xb_bit[i] | xw_bit[i] | xa_bit[i]) for i in range(DECK_SIZE)]  # MZ-Q7: leave the zone
        y_out = [~(yb_bit[i] | yw_bit[i]) for i in range(DECK_SIZE)]  # MZ-12, MZ-17: leave the zone
        # summon[p][i][zone]: hand -> zone, less its cost in untapped mana (MZ-7, MZ-18)
        summon0, summon1 = ([[xb_bit[i] - xh_bit[i] - (c << XU) for c in cost[p][i]] for i in range(DECK_SIZE)]
                            for p in (0, 1))
        # fight[p][x][y]: (result, its mana as untapped mana, wins on attribute) (MZ-8 … MZ-16, MZ-21)
        fight0, fight1 = ([[(r, pay << XU, aw) for r, pay, aw in row] for row in fight[p]] for p in (0, 1))
        charge_add = (1 << XM) + (1 << XU) + (SUMMON - CHARGE)  # MZ-6: one more mana, untapped; summon next
        xc_one, yc_one, xc_mask, xc_won, u_one, yu_one = 1 << XC, 1 << YC, 3 << XC, WIN_CAPTURES << XC, 1 << XU, 1 << YU

        def player(pos):
            return player_of[pos & 15]

        def end_turn(pos):
            """MZ-9, MZ-Q6 (two quiet turns end the game), then MZ-5 and MZ-6."""
            if pos & ACB:
                nc = 0
            else:
                nc = (pos >> NCS & 3) + 1
                if nc >= 2:
                    return pos & ~(PH_MASK | NC_MASK | SUB_B | DUB | XA_MASK) | END | nc << NCS
            # the other player's turn: swap x and y, untap (MZ-5: untapped = mana), and charge
            # if the hand has a card (MZ-6); attacked, acted, the flags and pending start afresh
            return ((pos & KEEP_ON_SWAP ^ MVB) | nc << NCS | (pos & G1X) << D1 | (pos & G1Y_BH) >> D1
                    | (pos & G2X) << D2 | (pos >> YW) << XW | (pos >> YM & 15) << XU
                    | (CHARGE if pos & YH_MASK else SUMMON))

        stash = (None, None)  # (the position settle last left to its mover, its moves)

        def settle(pos):
            """End the turn while only 'end' is left (MZ-9, the engine's _settle).
            Finds the mover's moves in the summon and battle phases, in the
            engine's order: attacks (KO, wound, mutual; then attacker and target
            slots; MZ-8), direct attacks (MZ-22), summons (MZ-7, MZ-18), 'end';
            and keeps them for the moves() call that follows."""
            nonlocal stash
            while True:
                lo = pos & LO
                ph = lo & 7
                if ph != SUMMON and ph != BATTLE:
                    return pos
                u = lo >> XU & 15
                if u:
                    p = lo >> 3 & 1
                    zone = lo >> XB & FULL
                    tail = summon_end[summonable[p][zone << 4 | u] & lo >> XH] if ph == SUMMON else end_only
                    ready = zone & ~((pos & XA_MASK) >> XA)  # MZ-8: each monster attacks once per turn
                    targets = (pos & YB_MASK) >> YB
                    if ready and targets:
                        if ready & (ready - 1):
                            t = attacks[p << 1 | (u >= 2)]
                            rb = bits[ready]
                            a = t[rb[0]][targets]
                            b = t[rb[1]][targets]
                            if len(rb) == 2:
                                ms = [*a[0], *b[0], *a[1], *b[1], *a[2], *b[2], *tail]
                            else:
                                c = t[rb[2]][targets]
                                ms = [*a[0], *b[0], *c[0], *a[1], *b[1], *c[1], *a[2], *b[2], *c[2], *tail]
                        else:
                            ms = [*attacks1[p << 1 | (u >= 2)][ready][targets], *tail]
                    elif ready and not lo & DUB and pos & YH_MASK:  # MZ-22: once per turn, a card to take
                        ms = [*direct_moves[ready], *tail]
                    else:
                        ms = list(tail)
                    if len(ms) > 1:
                        stash = (pos, ms)
                        return pos
                pos = end_turn(pos)

        def resolve(pos, x, y, sub):
            """The mover's x against the defender's y (a substitute when sub):
            MZ-12 … MZ-17, MZ-20, MZ-Q5, MZ-Q7, then MZ-23."""
            result = (fight1 if pos & MVB else fight0)[x][y][0]
            if result == KO or pos & yw_bit[y]:  # MZ-12 KO, or MZ-17 a second wound
                pos = pos & y_out[y] | yo_bit[y]
                if not sub:  # MZ-20: a knocked-out substitute scores nothing (MZ-Q5)
                    pos += xc_one
            else:  # MZ-13, MZ-14, MZ-15: a first wound
                pos |= yw_bit[y]
            if result == MUTUAL:  # MZ-15: the attacker is wounded too
                if pos & xw_bit[x]:  # MZ-Q7: knocked out, to the defender's captures
                    pos = (pos & x_out[x] | xo_bit[x]) + yc_one
                else:
                    pos |= xw_bit[x]
            if pos & xc_mask == xc_won or pos >> YC == WIN_CAPTURES:  # MZ-23
                return pos & ~PH_MASK | END
            return settle(pos & ~PH_MASK | BATTLE)

        def moves(pos):
            nonlocal stash
            kept = stash
            if kept[0] is not pos:
                ph = pos & 7
                if ph == CHARGE:  # MZ-6
                    return list(charge_moves[(pos & LO) >> XH])
                if ph == SUB:  # MZ-19: another monster of the defender, or decline
                    return list(subst_moves[(pos & YB_MASK) >> YB & ~(1 << (pos >> PTS & 15))])
                if ph != SUMMON and ph != BATTLE:
                    return []
                if settle(pos) is not pos:  # (a position the engine never leaves to its mover)
                    return [END_MOVE]
                kept = stash
            stash = (None, None)  # settled just now: hand its list over
            return kept[1]

        def chance(pos):
            ph = pos & 7
            if ph == STEAL:  # MZ-22, MZ-Q2
                return list(steal_outs[(pos & YH_MASK) >> YH])
            if ph == TRASH:  # MZ-3, MZ-Q8
                return list(trash_outs)
            if ph == JANKEN:  # MZ-2
                return list(janken_outs)
            return []

        def play(pos, m):
            kind = m & 15
            x = m >> 4 & 15
            if kind == K_CHARGE:  # MZ-6: face down into mana, usable this turn
                return settle(pos - xh_bit[x] + charge_add | ACB)
            if kind == K_SUMMON:  # MZ-7, MZ-18
                return settle(pos + (summon1 if pos & MVB else summon0)[x][(pos & LO) >> XB & FULL] | ACB)
            if kind == K_ATTACK:  # MZ-8: 1 mana, 2 at an attribute disadvantage (MZ-Q4)
                y = m >> 8
                _res, pay, attr_wins = (fight1 if pos & MVB else fight0)[x][y]
                pos = pos - pay | xab[x]
                if not (pos & SUB_B or attr_wins) and pos & YU_MASK:  # MZ-19, MZ-21
                    zone = pos & YB_MASK
                    if zone & (zone - 1):  # another monster to stand in
                        return pos & ~PH_MASK | SUB | x << PAS | y << PTS
                return resolve(pos, x, y, False)
            if kind == K_END:  # MZ-9
                return settle(end_turn(pos))
            if kind == K_DECLINE:
                return resolve(pos & ~PEND_MASK, pos >> PAS & 15, pos >> PTS & 15, False)
            if kind == K_SUBST:  # MZ-19, MZ-Q5: 1 of the defender's mana; the substitute's own values
                return resolve((pos & ~PEND_MASK | SUB_B) - yu_one, pos >> PAS & 15, x, True)
            if kind == K_DIRECT:  # MZ-22, MZ-Q2: one attacker, 1 mana, once per turn
                return (pos - u_one) & ~PH_MASK | xab[x] | DUB | STEAL
            if kind == K_STEAL:  # MZ-22: the card goes to the mover's captures
                pos = (pos - yh_bit[x] | yo_bit[x]) + xc_one
                if pos & xc_mask == xc_won:  # MZ-23
                    return pos & ~PH_MASK | END
                return settle(pos & ~PH_MASK | BATTLE)
            if kind == K_TRASH:  # MZ-3: two cards aside unseen, then the first turn's charge (MZ-6)
                return pos - xh_bit[x] - xh_bit[m >> 8] & ~PH_MASK | CHARGE
            # K_JANKEN, MZ-2: the winner goes first (the players' fields are alike still)
            return pos & ~PH_MASK | TRASH | x << 3 | x * FIB

        def returns(pos):
            if pos & 7 != END:
                return zero
            return ret[(pos & MVB) << 1 | (pos >> XC & 3) << 2 | pos >> YC]

        self.player, self.moves, self.chance, self.play, self.returns = player, moves, chance, play, returns
        self.uniform_chance = True  # MZ-2, MZ-3, MZ-22: a fair coin, any two cards, any steal alike

    # (field of the engine's player block, its place for x, for y; None: never set for y)
    _FIELDS = ((XH, YH, FULL), (XB, YB, FULL), (XW, YW, FULL), (XA, None, FULL),
               (XM, YM, 15), (XU, YU, 15), (XC, YC, 3), (XO, YO, FULL))

    def encode(self, state):
        """The position of ``state`` (``None`` for a key outside the engine's invariants)."""
        if state.game is not self.game and state.game != self.game:
            return None
        k = state._k
        last = self._last
        if last[0] == k:  # playouts encode the same root again and again
            return last[1]
        ph, mv, fi, nc, ac, su, du, pa, pt = k[:9]
        if (fi < 0) != (ph == JANKEN) or (pa < 0) != (ph != SUB) or (pt < 0) != (ph != SUB) or nc > 3:
            return None
        pos = ph | mv << 3 | du * DUB | su * SUB_B | ac * ACB | nc << NCS | max(fi, 0) * FIB
        if ph == SUB:
            pos |= pa << PAS | pt << PTS
        for who, p in ((0, mv), (1, 1 - mv)):
            for v, places in zip(k[9 + 8 * p:17 + 8 * p], self._FIELDS):
                if v > places[2] or (v and places[who] is None):
                    return None
                if v:
                    pos |= v << places[who]
        self._last = (k, pos)
        return pos

    def decode(self, pos):
        """The public state of ``pos``."""
        ph, mv = pos & 7, pos >> 3 & 1
        sub = ph == SUB
        head = (ph, mv, -1 if ph == JANKEN else int(pos & FIB != 0), pos >> NCS & 3, int(pos & ACB != 0),
                int(pos & SUB_B != 0), int(pos & DUB != 0),
                pos >> PAS & 15 if sub else -1, pos >> PTS & 15 if sub else -1)
        blocks = [tuple(0 if places[who] is None else pos >> places[who] & places[2] for places in self._FIELDS)
                  for who in (0, 1)]
        if mv:
            blocks.reverse()
        return MazemonState(self.game, head + blocks[0] + blocks[1])
