"""The compact core of mipig (issue P, item 4): the rules of
``cardlab/games/mipig.py`` on one int per position.

Cards are *local* indices: the distinct cards of the two ready hands
(option ``hands``), else the whole card set, in card-file order, so sorted
local indices are sorted card indices.  ``cb`` bits hold one; a multiset of
cards (a hand, a graveyard) is a vector of ``w``-bit counts, one per local
card (``w`` is 1 unless a ready hand holds a card twice).

The field (MP-Q4) lives on a grid of columns of ``S = 2n + 1`` squares
(``n`` the hand size): square ``q = x*S + y`` in the key's coordinates
(smallest x and y 0, so at most ``2n`` columns: ``W = 2n*S`` squares); row
``y = 2n`` stays empty, so a shift by one square never wraps into the next
column.  Squares sort like the key's ``x*32 + y``, so move orders agree.

Bits of a position, lowest first::

    phase 3 | mover 1 | first+1 2 | how 3 | round 5 | pending+1 | outcome code
    | face-up counts: 4 bits per (player, attribute), player 0's five first
    | hand0 | hand1 | grave0 | grave1 | shown0 | shown1   (shown: sets, closed hands only)
    | cards on the field, local indices in square order (cb bits each, 2n slots)
    | occupied mask | player-1 mask | face-up mask      (W bits each, at the top)

The pending pick is a local card (first-player janken, MP-4) or a mark (end
janken, MP-25); the outcome is an index into the game's list of outcomes
(None, the whole numbers, the end janken's values).  The face-up counts
are bookkeeping: the key does not hold them, they follow from its field
(MP-19 … MP-22, kept incrementally for the bonus; the face-up totals of
MP-24 are popcounts).  Who can attack (MP-11, MP-16, MP-17, MP-23) is a few
mask operations, no loop over cards: own face-down cards AND the squares
next to opponent cards (four shifts), the next mover's first.  A player's
attack moves depend on the three masks alone: they are cached per field
(and player); a battle step finds the next mover's there, which are also
the next ``moves`` call's.  A battle step itself is table-driven per
(mover, move): its changes to the counts and graveyards are one addition,
to the masks one xor.  A translation (MP-Q4) is one shift of the three
masks together (every square below the shift is empty); the cards on the
field keep their order.

Moves: ``card << 12 | square`` to place (the square in the field's frame
shifted by one column and one row, so that squares left of and above the
field are >= 0), ``square << 2 | k`` to attack in direction k of
``(-S, -1, +1, +S)`` (the engine's order), ``-1`` to pass (MP-18), the local
card to show (MP-4), the mark to pick (MP-25); chance outcomes: the local
card dealt, the coin's first player.

Every option is handled.  ``encode`` gives None only for a field wider or
taller than ``2n`` squares (no game reaches one).  ``decode`` gives the
origin ``(0, 0)``: the squares' names (outside the key) are not kept.
"""

from __future__ import annotations

from ...core import CHANCE, TERMINAL
from .state import (BATTLE, COIN, DEAL, END, JANKEN, PLACE, TIEBREAK, MipigState, _pack, _unpack,
                           janken_beats, janken_value)

__all__ = ["make_core", "MipigCore", "TEST_OPTIONS"]

_FEW = {"id": "x", "name": "x", "top": 5, "bottom": 5, "left": 5, "right": 5, "attribute": "love"}

TEST_OPTIONS = [
    {},
    {"open_hands": True},
    {"hand_size": 3, "first_player": 0, "open_hands": True, "tiebreak": "value"},
    {"hand_size": 3, "first_player": 1, "tiebreak": "draw"},
    {"hand_size": 2, "deal": "shared", "first_player": "random", "payoff": "score"},
    {"hand_size": 3, "tiebreak_cards": "all_on_field", "janken_rounds": 2},
    {"hand_size": 2, "janken_rounds": 1, "tiebreak": "value"},
    {"hand_size": 4, "hands": [["p01", "p04", "p07", "p10"], ["p02", "p05", "p08", "p11"]]},
    {"hand_size": 2, "hands": ["duo_a", "duo_b"], "first_player": "random", "open_hands": True},
    {"hand_size": 3, "hands": [["p01", "p01", "p02"], ["p03", "p04", "p04"]], "open_hands": True},
    {"hand_size": 1},
    {"hand_size": 10, "first_player": 0, "open_hands": True},
    # two marks only, numbers equal: janken ties that cannot break (MP-Q2, MP-Q3), battles by marks (MP-14)
    {"hand_size": 3, "cards": {"cards": [dict(_FEW, id=f"c{i}", janken=("rock", "scissors")[i % 2],
                                              attribute=("love", "play")[i // 3]) for i in range(6)]}},
    {"hand_size": 2, "cards": {"cards": [dict(_FEW, id=f"r{i}", janken="rock") for i in range(4)]}},
]

_K = 12  # placement move: card << _K | square


def make_core(game):
    """The core of this mipig game: every option is handled."""
    return MipigCore(game)


class MipigCore:
    """One mipig game's rules on ints (see the module docstring)."""

    def __init__(self, game) -> None:
        self.game = game
        opts = game.options
        n = game.n
        if game.fixed_hands is not None:
            univ = sorted(set(game.fixed_hands[0]) | set(game.fixed_hands[1]))
            most = max(max(h.count(c) for c in h) for h in game.fixed_hands)
        else:
            univ = list(range(len(game.cards)))
            most = 1
        U = len(univ)
        local = {c: i for i, c in enumerate(univ)}
        cb = max(1, (U - 1).bit_length())
        cm = (1 << cb) - 1
        w = most.bit_length()
        wm = (1 << w) - 1
        S = 2 * n + 1
        W = 2 * n * S
        WM = (1 << W) - 1
        W2 = 2 * W
        # outcomes (MP-23 … MP-25, MP-Q3): None, the whole numbers, the end janken's values
        outs: list = [None] + list(range(-2 * n, 2 * n + 1))
        mark_sets = [[m for m in range(3) if b >> m & 1] for b in range(8)]
        jv = {}
        if opts["tiebreak"] == "value":
            for b0 in range(8):
                for b1 in range(8):
                    v = janken_value(mark_sets[b0], mark_sets[b1], game.rounds)
                    v = int(v) if v.denominator == 1 else v
                    if v not in outs:
                        outs.append(v)
                    jv[b0 << 3 | b1] = outs.index(v)
        code_of = {v: i for i, v in enumerate(outs) if v is not None}
        self.outs = outs
        self.code_of = code_of
        rets = [(0, 0)] + [(v, -v) for v in outs[1:]]
        # bit offsets
        PB = (max(U, 3) + 1).bit_length()
        PEND = 14
        OUT = PEND + PB
        CNT = OUT + max(1, len(outs).bit_length())
        HB = U * w
        H0 = CNT + 40
        H1 = H0 + HB
        G0 = H1 + HB
        G1 = G0 + HB
        SB = 0 if opts["open_hands"] else U
        S0 = G1 + HB
        S1 = S0 + SB
        C = S1 + SB
        M = C + 2 * n * cb
        HM = (1 << HB) - 1
        SM = (1 << SB) - 1
        CM = (1 << (2 * n * cb)) - 1
        HEAD = (1 << CNT) - 1       # phase … outcome
        KEEP_FH = 0x1F << 4         # the header's first and how
        H_OFF = (H0, H1)
        G_OFF = (G0, G1)
        attr = [game.attr[c] for c in univ]
        mark = [game.mark[c] for c in univ]
        # MP-Q5: direction k of (-S, -1, +1, +S): attacker edge, defender edge (top, bottom, left, right)
        DOFF = (-S, -1, 1, S)
        a_num = [[game.edge[c][e] for c in univ] for e in (2, 0, 1, 3)]
        d_num = [[game.edge[c][e] for c in univ] for e in (3, 1, 0, 2)]
        # MP-14: janken of two marks, 1 the first wins
        jk = [1 if janken_beats(a, b) else -1 if janken_beats(b, a) else 0 for a in range(3) for b in range(3)]
        # MP-Q2: the cards (count vector, w bits each) whose mark beats mark m
        beats_w = [sum(wm << (c * w) for c in range(U) if janken_beats(mark[c], m)) for m in range(3)]
        mark_w = [sum(wm << (c * w) for c in range(U) if mark[c] == m) for m in range(3)]
        # mark masks: the marks that beat m
        beat_mark = [sum(1 << a for a in range(3) if janken_beats(a, m)) for m in range(3)]
        COL0 = (1 << S) - 1
        ROW0 = sum(1 << (x * S) for x in range(2 * n))
        ROWS = [sum(1 << (x * S + y) for x in range(2 * n)) for y in range(S)]
        # placement squares (frame shifted by one column and one row): the shift back (MP-Q4)
        EXT = (2 * n + 1) * S
        SH = [(S if s >= S else 0) + (1 if s % S else 0) for s in range(EXT)]
        LOWS = [(1 << s) - 1 for s in range(max(EXT + S, W, 2 * n * cb) + 2)]
        # attacks from a square: the opponent squares next to it, read from opp << S shifted by the square
        PAT = 1 | 1 << (S - 1) | 1 << (S + 1) | 1 << (2 * S)
        pat_bits = (1, 1 << (S - 1), 1 << (S + 1), 1 << (2 * S))
        TAB = [{t: tuple(q << 2 | k for k in range(4) if t & pat_bits[k])
                for t in (sum(pat_bits[k] for k in range(4) if j >> k & 1) for j in range(16))}
               for q in range(W)]
        every_all = opts["tiebreak_cards"] == "all_on_field"
        tb_mode = opts["tiebreak"]
        score = opts["payoff"] == "score"
        rounds = game.rounds
        cap = game.cap
        open_hands = opts["open_hands"]
        fp = opts["first_player"]
        shared = game.shared
        PASS = -1
        ALL = [(c, 1) for c in range(U)]
        PICKS = [tuple(m for m in range(3) if b >> m & 1) for b in range(8)]

        hand_cache: dict = {}

        def distinct(h):  # the distinct local cards of a count vector, ascending
            if w == 1:
                got = []
                while h:
                    b = h & -h
                    got.append(b.bit_length() - 1)
                    h ^= b
                return got
            got = hand_cache.get(h)
            if got is None:
                got = tuple(c for c in range(U) if h >> (c * w) & wm)
                if len(hand_cache) > 100_000:
                    hand_cache.clear()
                hand_cache[h] = got
            return got

        def header(ph, mv, first, how, rnd=0, pend=-1, out=0):
            return ph | mv << 3 | (first + 1) << 4 | how << 6 | rnd << 9 | (pend + 1) << PEND | out << OUT

        mark_bits = ([8 << m for m in mark], [1 << m for m in mark])  # player 0's marks << 3 | player 1's

        def marks(pos):
            """MP-25, MP-Q3: the marks (3-bit sets) of the players' remaining cards, player 0's << 3
            | player 1's."""
            ms = pos >> M
            occ = ms & WM
            own = (ms >> W) & WM
            keep = occ if every_all else ms >> W2
            cards = (pos >> C) & CM
            b0, b1 = mark_bits
            out = 0
            while occ:
                b = occ & -occ
                if b & keep:
                    out |= (b1 if b & own else b0)[cards & cm]
                cards >>= cb
                occ ^= b
            return out

        def after_deal(pos):  # MP-3, MP-4, MP-Q2: who goes first
            base = pos & ~HEAD
            if fp == 0 or fp == 1:
                return base | header(PLACE, fp, fp, 1)
            if fp == "random":
                return base | header(COIN, 0, -1, 3)
            hs = (pos >> H0) & HM | (pos >> H1) & HM
            if sum(1 for m in range(3) if hs & mark_w[m]) == 1:  # one mark: cannot break
                return base | header(COIN, 0, -1, 4)
            return base | header(JANKEN, 0, -1, 0)

        CLEAR = ~HEAD | KEEP_FH  # the header cleared, but first and how
        end_with = [END | i << OUT for i in range(len(outs))]  # the end, with outcome i

        def finish(pos):
            """MP-23 … MP-25, MP-Q3: the battle is over; count own face-up cards."""
            ms = pos >> (M + W)  # own | up << W
            up = ms >> W
            c1 = (up & ms).bit_count()
            c0 = up.bit_count() - c1
            base = pos & CLEAR
            if score:
                return base | end_with[code_of[c0 - c1]]
            if c0 != c1:
                return base | end_with[code_of[1 if c0 > c1 else -1]]
            if tb_mode == "draw":
                return base | end_with[code_of[0]]
            bs = marks(pos)
            if tb_mode == "value":
                return base | end_with[jv[bs]]
            b0, b1 = bs >> 3, bs & 7
            if not b0 or not b1 or (b0 == b1 and b0 & (b0 - 1) == 0):  # MP-Q3: cannot break
                return base | end_with[code_of[0]]
            return base | TIEBREAK

        who = [TERMINAL if ph == END else CHANCE if ph in (DEAL, COIN) else mv
               for mv in (0, 1) for ph in range(8)]

        def player(pos):
            return who[pos & 15]

        # MP-11, MP-16, MP-17: per mover p, the field's masks -> p's attack moves (or the pass)
        attack_cache: tuple = ({}, {})
        PASS_ONLY = (PASS,)  # MP-18

        def attacks(ms, p):
            """The attack moves of player p on the field ``ms`` (``attack_cache``'s misses)."""
            occ = ms & WM
            own = (ms >> W) & WM
            if p:
                mine, opp = own, occ ^ own
            else:
                mine, opp = occ ^ own, own
            a = mine & ~(ms >> W2) & ((opp << 1) | (opp >> 1) | (opp << S) | (opp >> S))
            if not a:
                got = PASS_ONLY
            else:
                q = opp << S
                got = ()
                while a:
                    b = a & -a
                    s = b.bit_length() - 1
                    got += TAB[s][(q >> s) & PAT]
                    a ^= b
            cache = attack_cache[p]
            if len(cache) > 100_000:
                cache.clear()
            cache[ms] = got
            return got

        def moves(pos):
            ph = pos & 7
            p = 1 if pos & 8 else 0
            if ph == BATTLE:  # MP-11, MP-18 (attack_cache: the moves of the field's masks)
                ms = pos >> M
                return attack_cache[p].get(ms) or attacks(ms, p)
            if ph == PLACE:  # MP-5 … MP-7: each card (sorted, once) on each free square
                free = spots((pos >> M) & WM)
                return [c << _K | s for c in distinct((pos >> H_OFF[p]) & HM) for s in free]
            if ph == JANKEN:  # MP-4
                return list(distinct((pos >> H_OFF[p]) & HM))
            if ph == TIEBREAK:  # MP-25
                return list(PICKS[marks(pos) >> 3 * (1 - p) & 7])
            return []

        def random_move(pos, randrange):
            """``moves(pos)[randrange(len(moves(pos)))]``, a placement without the list."""
            if pos & 7 != PLACE:
                ms = moves(pos)
                return ms[randrange(len(ms))]
            free = spots((pos >> M) & WM)
            nf = len(free)
            cs = distinct((pos >> H_OFF[(pos >> 3) & 1]) & HM)
            i = randrange(len(cs) * nf)
            return cs[i // nf] << _K | free[i % nf]

        spot_cache: dict = {0: (S + 1,)}  # the first card: square (0, 0) (MP-6)

        def spots(occ):
            """MP-6, MP-7: the empty squares next to a card (shifted frame), ascending."""
            got = spot_cache.get(occ)
            if got is None:
                e = occ << (S + 1)
                free = ((e << 1) | (e >> 1) | (e << S) | (e >> S)) & ~e
                got = []
                while free:
                    b = free & -free
                    got.append(b.bit_length() - 1)
                    free ^= b
                if len(spot_cache) > 100_000:
                    spot_cache.clear()
                    spot_cache[0] = (S + 1,)
                spot_cache[occ] = got
            return got

        def chance(pos):
            if pos & 7 == COIN:
                return [(0, 1), (1, 1)]
            h0 = (pos >> H0) & HM
            h1 = (pos >> H1) & HM
            if shared:
                used = h0 | h1
            else:
                used = h0 if h0.bit_count() < n else h1
            out = ALL[:]  # MP-3: the cards not dealt yet (to this hand, or at all)
            while used:
                c = used.bit_length() - 1
                del out[c]
                used ^= 1 << c
            return out

        def play(pos, m):
            ph = pos & 7
            if ph == BATTLE:
                if m < 0:  # MP-18: pass
                    return pos ^ 8
                return attack(pos, m)
            if ph == PLACE:
                return place(pos, m)
            if ph == DEAL:  # MP-3 (a random deal: w == 1, a hand is a set)
                if ((pos >> H0) & HM).bit_count() < n:
                    pos += 1 << (H0 + m * w)
                else:
                    pos += 1 << (H1 + m * w)
                if ((pos >> H1) & HM).bit_count() == n:
                    return after_deal(pos)
                return pos & ~8 | (8 if ((pos >> H0) & HM).bit_count() == n else 0)
            if ph == COIN:  # MP-Q2
                return pos & ~HEAD | (pos & (7 << 6)) | header(PLACE, m, m, 0)
            if ph == JANKEN:
                return show(pos, m)
            if ph == TIEBREAK:
                return pick(pos, m)
            raise AssertionError(pos)  # pragma: no cover

        # the cards on the field: the card of rank i at bit AT[i]; laying a card of rank i keeps
        # the bits below AT[i] and moves those from AT[i] up to the field's masks up by cb (MP-5),
        # removing one keeps the bits below AT[i] and moves those above it down by cb (MP-15)
        BELOW_M = (1 << M) - 1
        AT = [C + i * cb for i in range(2 * n)]
        KEEP_LOW = [(1 << r) - 1 for r in AT]
        MOVE_UP = [BELOW_M ^ ((1 << r) - 1) for r in AT]
        MOVE_DOWN = [BELOW_M ^ ((1 << (r + cb)) - 1) for r in AT]
        # MP-5: a card of player p's hand; its bits on placement square s (shifted frame, MP-Q4)
        hand_one = [[1 << (H_OFF[p] + c * w) for c in range(U)] for p in (0, 1)]
        put = [[1 << s | p << (s + W) for s in range(EXT)] for p in (0, 1)]
        LOW_W = [WM & LOWS[s] for s in range(EXT)]
        HANDS = (HM | HM << HB) << H0  # both hands

        def place(pos, m):
            """MP-5 … MP-7, MP-Q4: lay card ``m >> 12`` face down on square ``m & 4095``."""
            c, s = m >> _K, m & 4095
            p = 1 if pos & 8 else 0
            pos -= hand_one[p][c]
            ms = (pos >> M) << (S + 1)
            i = (ms & LOW_W[s]).bit_count()  # the card's rank: the cards from it up move up by cb
            ms = (ms | put[p][s]) >> SH[s]
            pos = (pos & KEEP_LOW[i]) | c << AT[i] | (pos & MOVE_UP[i]) << cb | ms << M
            if pos & HANDS:
                return pos ^ 8
            # MP-9, MP-10: both hands empty, the first player attacks first
            first = (pos >> 4) & 3
            pos = pos & ~15 | BATTLE | (first - 1) << 3
            return battle_next(pos)

        def battle_next(pos):
            """MP-10, MP-23: the battle goes on (the mover may have to pass) or ends."""
            ms = pos >> M
            p = 1 if pos & 8 else 0
            if ((attack_cache[p].get(ms) or attacks(ms, p)) is not PASS_ONLY
                    or (attack_cache[1 - p].get(ms) or attacks(ms, 1 - p)) is not PASS_ONLY):
                return pos
            return finish(pos)

        # The battle step, table-driven per mover p and attack move m: few operations on the
        # position (each makes a new int of a few hundred bits).
        # MP-19 … MP-22: per (player, card) the face-up count's bit offset and one at that offset
        cnt_off = [[CNT + (p * 5 + attr[c]) * 4 for c in range(U)] for p in (0, 1)]
        # MP-15: one card to its owner's graveyard, with the mover's bit flipped (MP-10: the
        # opponent moves next; every battle step but a draw sends exactly one card there)
        flip = (8, -8)
        to_grave = [[(1 << (G_OFF[o] + c * w)) + flip[p] for c in range(U)] for p in (0, 1) for o in (0, 1)]
        # per mover p, direction k and card c: (number on the edge, count offset, one at it, to the
        # graveyard), attacker (number a_num) and defender (d_num, the opponent's card)
        side = [[[(num[k][c], cnt_off[o][c], 1 << cnt_off[o][c], to_grave[2 * p + o][c]) for c in range(U)]
                 for k in range(4)] for p in (0, 1) for num, o in ((a_num, p), (d_num, 1 - p))]
        CNTS = (1 << (CNT + 40)) - 1  # the header and the face-up counts
        # per mover p and attack move m: the squares below the attacker and the defender (their
        # ranks), the two players' card tables, the defender's face-up bit, and the field masks
        # flipped by a win, a loss (both: the defender face down, face up) and a draw's position
        # increment (face down, face up; the mover's bit flipped)
        ATK: list = [[None] * (4 * W), [None] * (4 * W)]
        for p in (0, 1):
            for a in range(W):
                for k in range(4):
                    d = a + DOFF[k]
                    if not 0 <= d < W:
                        continue
                    ua, ud = 1 << (W2 + a), 1 << (W2 + d)
                    win = 1 << d | (1 - p) << (W + d) | ua  # MP-15: the defender's square emptied
                    loss = 1 << a | p << (W + a)            # the attacker's
                    ATK[p][a << 2 | k] = (LOWS[a], LOWS[d], side[2 * p][k], side[2 * p + 1][k], ud,
                                          (win, win | ud, loss | ud, loss,
                                           ((ua | ud) << M) + flip[p], (ua << M) + flip[p]))
        ATK0, ATK1 = ATK
        mark3 = [3 * m for m in mark]

        def attack(pos, m):
            """MP-11 … MP-15, MP-19 … MP-22, MP-Q5: the battle of square m >> 2 in direction m & 3."""
            if pos & 8:
                p, tab, nxt = 1, ATK1, attack_cache[0]
            else:
                p, tab, nxt = 0, ATK0, attack_cache[1]
            la, ld, A, D, dbit, xs = tab[m]
            ms = pos >> M
            occ = ms & WM
            ra = (occ & la).bit_count()  # the cards' ranks
            rd = (occ & ld).bit_count()
            ca = (pos >> AT[ra]) & cm
            cd = (pos >> AT[rd]) & cm
            na, oa, ia, ga = A[ca]
            nd, od, id_, gd = D[cd]
            # MP-12, MP-21: both face up, counted after the reveal (MP-22: own face-up cards);
            # MP-13, MP-20: number + bonus (count - 1); here both + count, the same comparison,
            # on the counts before the reveal: the attacker's card adds one to its count, the
            # defender's too unless it was face up already (then the difference gains one)
            cnt = pos & CNTS
            res = na + ((cnt >> oa) & 15) - nd - ((cnt >> od) & 15)
            if ms & dbit:
                res += 1
                j = 1
            else:
                j = 0
            if not res:
                res = jk[mark3[ca] + mark[cd]]  # MP-14
            # the counts and graveyards change by one addition (delta), the masks by one xor
            if res > 0:  # MP-15: the loser goes to its owner's graveyard
                r = rd
                delta = ia + gd - id_ if j else ia + gd
                ms ^= xs[j]
            elif res < 0:
                r = ra
                delta = ga if j else id_ + ga
                ms ^= xs[2 + j]
            else:  # a draw: both stay, face up
                pos += ia + xs[5] if j else ia + id_ + xs[4]
                r = -1
                ms = pos >> M
            if r >= 0:
                occ = ms & WM
                if not occ & COL0 or not occ & ROW0:  # MP-Q4: translate back to x, y >= 0
                    mx = ((occ & -occ).bit_length() - 1) // S
                    my = 0
                    while not occ & ROWS[my]:
                        my += 1
                    ms >>= mx * S + my
                pos = ((pos & KEEP_LOW[r]) + delta) | ((pos & MOVE_DOWN[r]) >> cb) | ms << M
            # MP-10, MP-18, MP-23: the opponent moves next (and may have to pass), unless nobody can
            # attack; the opponent's moves, found here, are the next ``moves`` call's
            if (nxt.get(ms) or attacks(ms, 1 - p)) is not PASS_ONLY:
                return pos
            # the opponent passes: can the mover still attack?
            if (attack_cache[p].get(ms) or attacks(ms, p)) is not PASS_ONLY:
                return pos
            return finish(pos)

        def show(pos, c):
            """MP-4, MP-Q2: the first-player janken, player 0 then player 1 unseen."""
            if not (pos >> 3) & 1:
                return pos | 8 | (c + 1) << PEND
            c0 = ((pos >> PEND) & ((1 << PB) - 1)) - 1
            if not open_hands:  # the shown cards become known (MP-Q6)
                pos |= 1 << (S0 + c0) | 1 << (S1 + c)
            m0, m1 = mark[c0], mark[c]
            base = pos & ~HEAD
            if m0 == m1:  # MP-Q2: pick again
                r = ((pos >> 9) & 31) + 1 if rounds is not None else 0
                if not ((pos >> H0) & HM | (pos >> H1) & HM) & beats_w[m0]:
                    return base | header(COIN, 0, -1, 4)
                if r >= cap:
                    return base | header(COIN, 0, -1, 5)
                return base | header(JANKEN, 0, -1, 0, r)
            f = 0 if janken_beats(m0, m1) else 1
            return base | header(PLACE, f, f, 2)

        def pick(pos, mk):
            """MP-25, MP-Q3: the end janken, player 0 then player 1 unseen."""
            if not (pos >> 3) & 1:
                return pos | 8 | (mk + 1) << PEND
            m0 = ((pos >> PEND) & ((1 << PB) - 1)) - 1
            base = pos & ~HEAD | (pos & KEEP_FH)
            rnd = (pos >> 9) & 31
            if m0 != mk:
                return base | END | 8 | rnd << 9 | code_of[1 if janken_beats(m0, mk) else -1] << OUT
            r = rnd + 1 if rounds is not None else 0
            bs = marks(pos)
            if r >= cap or not (bs >> 3 | bs) & beat_mark[m0]:
                return base | END | 8 | r << 9 | code_of[0] << OUT  # MP-Q3: a draw
            return base | TIEBREAK | r << 9

        def returns(pos):
            return rets[(pos >> OUT) & ((1 << (CNT - OUT)) - 1)]

        def simultaneous(pos):
            ph = pos & 15
            return ph == JANKEN or ph == TIEBREAK  # mover 0: the janken starts (MP-4, MP-25)

        # -- the API edge ----------------------------------------------------------
        def encode(state):
            k = state._k
            ph, mv, first, how, h0, h1, fld, g0, g1, rnd, pend, s0, s1, outcome = k
            if outcome is not None and outcome not in code_of:
                return None
            pos = header(ph, mv, first, how, rnd, -1, 0 if outcome is None else code_of[outcome])
            if pend >= 0:
                pos |= (pend + 1 if ph == TIEBREAK else local[pend] + 1) << PEND
            for off, cs in ((H0, h0), (H1, h1), (G0, g0), (G1, g1)):
                for c in cs:
                    if c not in local:
                        return None
                    pos += 1 << (off + local[c] * w)
            for off, cs in ((S0, s0), (S1, s1)):
                if cs and not SB:
                    return None
                for c in cs:
                    pos |= 1 << (off + local[c])
            occ = own = up = cards = 0
            for i, (x, y, c, o, u) in enumerate(sorted(map(_unpack, fld))):
                if x >= 2 * n or y >= 2 * n or c not in local:
                    return None
                q = x * S + y
                occ |= 1 << q
                own |= o << q
                up |= u << q
                cards |= local[c] << (i * cb)
                if u:
                    pos += 1 << (CNT + (o * 5 + attr[local[c]]) * 4)
            return pos | cards << C | (occ | own << W | up << W2) << M

        def decode(pos):
            ph, mv = pos & 7, (pos >> 3) & 1
            first = ((pos >> 4) & 3) - 1
            how = (pos >> 6) & 7
            rnd = (pos >> 9) & 31
            pend = ((pos >> PEND) & ((1 << PB) - 1)) - 1
            if pend >= 0 and ph == JANKEN:
                pend = univ[pend]
            outcome = outs[(pos >> OUT) & ((1 << (CNT - OUT)) - 1)]

            def multiset(off):
                v = (pos >> off) & HM
                if w > 1:
                    return tuple(univ[c] for c in range(U) for _ in range((v >> (c * w)) & wm))
                return cardset(v)

            def cardset(v):
                out = []
                while v:
                    b = v & -v
                    out.append(univ[b.bit_length() - 1])
                    v ^= b
                return tuple(out)

            ms = pos >> M
            occ, own, up = ms & WM, (ms >> W) & WM, ms >> W2
            cards = (pos >> C) & CM
            cells = []
            while occ:
                b = occ & -occ
                q = b.bit_length() - 1
                cells.append(_pack(q // S, q % S, univ[cards & cm], own >> q & 1, up >> q & 1))
                cards >>= cb
                occ ^= b
            key = (ph, mv, first, how, multiset(H0), multiset(H1), tuple(cells), multiset(G0),
                   multiset(G1), rnd, pend, cardset((pos >> S0) & SM), cardset((pos >> S1) & SM), outcome)
            return MipigState(game, key)

        self.random_move = random_move
        self.uniform_chance = True  # MP-3: every card alike; the coin (MP-Q2) fair
        # the solver's move ordering: on 5 of 6 whole 4-each deals 1.8-2.8x fewer nodes, on one 1.5x more
        self.history_heuristic = True
        self.encode, self.decode = encode, decode
        self.player, self.moves, self.chance, self.play = player, moves, chance, play
        self.returns, self.simultaneous = returns, simultaneous
