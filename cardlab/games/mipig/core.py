"""The compact core of mipig (issue P, item 4): the rules of
:mod:`.rules` and :mod:`.state` on one int per position, its tables built by
calling :mod:`.rules` (the bonus MP-20, the battle MP-13/MP-14, janken, the
steps and facing edges MP-Q5, the end MP-24, MP-Q2/MP-Q3).

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

Every option is handled.  ``encode`` reads the State's key by its named
fields (``state.fields()``, :data:`.key.KEY`) and gives None only for a field
wider or taller than ``2n`` squares (no game reaches one).  ``decode`` makes
the State through the game (``game.state_of``) with the origin ``(0, 0)``:
the squares' names (outside the key) are not kept.
"""

from __future__ import annotations

from types import SimpleNamespace

from ...core import CHANCE, TERMINAL
from . import rules
from .key import BATTLE, COIN, DEAL, END, JANKEN, KEY, PLACE, TIEBREAK, cell, cell_parts

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
    """The core of this mipig game: every option is handled.  Its tables are
    built here by calling :mod:`.rules` (looked up through the module, so a
    rule swapped there is the core's too)."""
    return MipigCore(game)


class MipigCore:
    """One mipig game's rules on ints (see the module docstring).  Made in
    named steps: the bit layout (:func:`_layout`), the tables of the rules
    (:func:`_rule_tables`), then the steps of each phase as closures over
    those tables (the end, the battle, the placement, the jankens, the deal),
    and the API edge (``encode``/``decode`` through the key's named fields)."""

    def __init__(self, game) -> None:
        self.game = game
        t = _layout(game)
        _rule_tables(game, t)
        t.marks, t.finish = _end_steps(t)
        t.attacks, t.attack_cache, t.battle_next = _battle_steps(t)
        t.attack = _attack_step(t)
        t.spots, t.place, t.distinct = _placement_steps(t)
        t.show, t.pick, t.after_deal = _janken_steps(t)
        self.outs, self.code_of = t.outs, t.code_of
        self.player, self.moves, self.chance, self.play, self.random_move = _moves(t)
        rets = [(0, 0)] + [(v, -v) for v in t.outs[1:]]
        OUT, OUTM = t.OUT, (1 << (t.CNT - t.OUT)) - 1
        JANKEN_, TIEBREAK_ = JANKEN, TIEBREAK

        def returns(pos):
            return rets[(pos >> OUT) & OUTM]

        def simultaneous(pos):
            ph = pos & 15
            return ph == JANKEN_ or ph == TIEBREAK_  # mover 0: the janken starts (MP-4, MP-25)

        self.returns, self.simultaneous = returns, simultaneous
        self.encode, self.decode = _encoder(game, t), _decoder(game, t)
        self.uniform_chance = True  # MP-3: every card alike; the coin (MP-Q2) fair
        # the solver's move ordering: on 5 of 6 whole 4-each deals 1.8-2.8x fewer nodes, on one 1.5x more
        self.history_heuristic = True


def _layout(game) -> SimpleNamespace:
    """The cards (local indices), the outcomes and the bit offsets of a position."""
    opts = game.options
    n = game.n
    t = SimpleNamespace(n=n, opts=opts)
    if game.fixed_hands is not None:
        univ = sorted(set(game.fixed_hands[0]) | set(game.fixed_hands[1]))
        most = max(max(h.count(c) for c in h) for h in game.fixed_hands)
    else:
        univ = list(range(len(game.cards)))
        most = 1
    t.univ, t.U = univ, len(univ)
    t.local = {c: i for i, c in enumerate(univ)}
    t.cb = max(1, (t.U - 1).bit_length())
    t.cm = (1 << t.cb) - 1
    t.w = most.bit_length()
    t.wm = (1 << t.w) - 1
    t.S = S = 2 * n + 1
    t.W = W = 2 * n * S
    t.WM, t.W2 = (1 << W) - 1, 2 * W
    # outcomes (MP-23 … MP-25, MP-Q3): None, the whole numbers, the end janken's values
    outs: list = [None] + list(range(-2 * n, 2 * n + 1))
    t.jv = {}
    if opts["tiebreak"] == "value":
        for b0 in range(8):
            for b1 in range(8):
                v = rules.janken_value(_MARK_SETS[b0], _MARK_SETS[b1], game.rounds)
                v = int(v) if v.denominator == 1 else v
                if v not in outs:
                    outs.append(v)
                t.jv[b0 << 3 | b1] = outs.index(v)
    t.outs = outs
    t.code_of = {v: i for i, v in enumerate(outs) if v is not None}
    t.PB = (max(t.U, 3) + 1).bit_length()
    t.PEND = 14
    t.OUT = t.PEND + t.PB
    t.CNT = t.OUT + max(1, len(outs).bit_length())
    t.HB = HB = t.U * t.w
    t.H0 = t.CNT + 40
    t.H1 = t.H0 + HB
    t.G0 = t.H1 + HB
    t.G1 = t.G0 + HB
    t.SB = 0 if opts["open_hands"] else t.U
    t.S0 = t.G1 + HB
    t.S1 = t.S0 + t.SB
    t.C = t.S1 + t.SB
    t.M = t.C + 2 * n * t.cb
    t.HM, t.SM, t.CM = (1 << HB) - 1, (1 << t.SB) - 1, (1 << (2 * n * t.cb)) - 1
    t.HEAD = (1 << t.CNT) - 1       # phase … outcome
    t.KEEP_FH = 0x1F << 4           # the header's first and how
    t.H_OFF, t.G_OFF = (t.H0, t.H1), (t.G0, t.G1)
    t.attr = [game.attr[c] for c in univ]
    t.mark = [game.mark[c] for c in univ]
    t.COL0 = (1 << S) - 1
    t.ROW0 = sum(1 << (x * S) for x in range(2 * n))
    t.ROWS = [sum(1 << (x * S + y) for x in range(2 * n)) for y in range(S)]
    t.EXT = (2 * n + 1) * S         # placement squares: the frame shifted by one column and one row
    t.LOWS = [(1 << s) - 1 for s in range(max(t.EXT + S, W, 2 * n * t.cb) + 2)]
    t.PASS = -1
    t.PASS_ONLY = (t.PASS,)  # MP-18

    def header(ph, mv, first, how, rnd=0, pend=-1, out=0):
        return ph | mv << 3 | (first + 1) << 4 | how << 6 | rnd << 9 | (pend + 1) << t.PEND | out << t.OUT

    t.header = header
    t.rounds, t.cap = game.rounds, game.cap
    return t


#: the mark sets of three bits (bit m: mark m), as lists of marks
_MARK_SETS = [[m for m in range(3) if b >> m & 1] for b in range(8)]


def _rule_tables(game, t: SimpleNamespace) -> None:
    """The rules as tables, each built by calling :mod:`.rules`."""
    S, U, w, wm, univ, mark = t.S, t.U, t.w, t.wm, t.univ, t.mark
    # MP-7, MP-11, MP-Q5: direction k of rules.STEPS as a square difference; the attacker's and
    # the defender's numbers on the touching edges (rules.facing_edges)
    t.DOFF = tuple(dx * S + dy for dx, dy in rules.STEPS)
    facing = [rules.facing_edges(dx, dy) for dx, dy in rules.STEPS]
    t.a_num = [[game.edge[c][fa] for c in univ] for fa, _fd in facing]
    t.d_num = [[game.edge[c][fd] for c in univ] for _fa, fd in facing]
    # MP-19 … MP-22: the bonus difference of a battle from the two counts before the reveal
    # (rules.attribute_bonus): the attacker's card adds one to its count, the defender's too
    # unless it was face up already (j = 1)
    bonus = [rules.attribute_bonus(c) for c in range(18)]
    t.DIFF = [bonus[ca + 1] - bonus[cd + 1 - j] for ca in range(16) for cd in range(16) for j in (0, 1)]
    # MP-13, MP-14: equal totals go to the marks (rules.battle_result of two equal totals)
    t.jk = [rules.battle_result(0, 0, a, b) for a in range(3) for b in range(3)]
    t.win3 = [rules.janken_result(a, b) for a in range(3) for b in range(3)]  # MP-4, MP-25
    # MP-Q2, MP-Q3 (rules.tie_can_break): the cards (count vectors) and marks that break a tie on mark m
    t.beats_w = [sum(wm << (c * w) for c in range(U) if rules.tie_can_break(m, (mark[c],))) for m in range(3)]
    t.beat_mark = [sum(1 << a for a in range(3) if rules.tie_can_break(m, (a,))) for m in range(3)]
    marks_of = [sum(wm << (c * w) for c in range(U) if mark[c] == m) for m in range(3)]
    t.mark_w = marks_of
    # MP-4, MP-Q2 (rules.janken_decides): a janken is played for the hands' mark set b
    t.decides = [rules.janken_decides(_MARK_SETS[b]) for b in range(8)]
    # MP-25, MP-Q3 (rules.janken_settled): the end janken is a draw at once, per mark sets b0 << 3 | b1
    t.settled = [rules.janken_settled(_MARK_SETS[b >> 3], _MARK_SETS[b & 7]) for b in range(64)]
    # MP-24 (rules.count_result): the end's outcome code per face-up difference c0 - c1 (+ 2n)
    n2 = 2 * t.n
    score = t.opts["payoff"] == "score"
    t.by_diff = [END | t.code_of[d if score else rules.count_result(d, 0)] << t.OUT for d in range(-n2, n2 + 1)]
    t.PICKS = [tuple(_MARK_SETS[b]) for b in range(8)]


def _end_steps(t: SimpleNamespace):
    """MP-23 … MP-25, MP-Q3: the marks of the remaining cards, and the end of the battle."""
    M, W, W2, WM, C, CM, cb, cm = t.M, t.W, t.W2, t.WM, t.C, t.CM, t.cb, t.cm
    every_all = t.opts["tiebreak_cards"] == "all_on_field"
    tb_mode = t.opts["tiebreak"]
    score = t.opts["payoff"] == "score"
    mark_bits = ([8 << m for m in t.mark], [1 << m for m in t.mark])  # player 0's marks << 3 | player 1's
    CLEAR = ~t.HEAD | t.KEEP_FH  # the header cleared, but first and how
    OUT, code_of, jv, by_diff, settled = t.OUT, t.code_of, t.jv, t.by_diff, t.settled
    n2 = 2 * t.n
    DRAW = END | code_of[0] << OUT

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

    def finish(pos):
        """MP-23 … MP-25, MP-Q3: the battle is over; count own face-up cards."""
        ms = pos >> (M + W)  # own | up << W
        up = ms >> W
        c1 = (up & ms).bit_count()
        d = up.bit_count() - 2 * c1  # c0 - c1
        base = pos & CLEAR
        if score or d:
            return base | by_diff[d + n2]
        if tb_mode == "draw":
            return base | DRAW
        bs = marks(pos)
        if tb_mode == "value":
            return base | END | jv[bs] << OUT
        if settled[bs]:  # MP-Q3: no pick can break the tie
            return base | DRAW
        return base | TIEBREAK

    return marks, finish


def _attack_table(t: SimpleNamespace) -> list:
    """The battle step's table per mover p and attack move m (square << 2 | direction): the
    squares below the attacker and the defender (their ranks), the two players' card tables,
    the defender's face-up bit, and the field masks flipped by a win, a loss (both: the
    defender face down, face up) and a draw's position increment (face down, face up; the
    mover's bit flipped)."""
    U, W, W2, M, CNT = t.U, t.W, t.W2, t.M, t.CNT
    # MP-19 … MP-22: per (player, card) the face-up count's bit offset and one at that offset
    cnt_off = [[CNT + (p * 5 + t.attr[c]) * 4 for c in range(U)] for p in (0, 1)]
    # MP-15: one card to its owner's graveyard, with the mover's bit flipped (MP-10: the
    # opponent moves next; every battle step but a draw sends exactly one card there)
    flip = (8, -8)
    to_grave = [[(1 << (t.G_OFF[o] + c * t.w)) + flip[p] for c in range(U)] for p in (0, 1) for o in (0, 1)]
    # per mover p, direction k and card c: (number on the edge, count offset, one at it, to the
    # graveyard), attacker (number a_num) and defender (d_num, the opponent's card)
    side = [[[(num[k][c], cnt_off[o][c], 1 << cnt_off[o][c], to_grave[2 * p + o][c]) for c in range(U)]
             for k in range(4)] for p in (0, 1) for num, o in ((t.a_num, p), (t.d_num, 1 - p))]
    ATK: list = [[None] * (4 * W), [None] * (4 * W)]
    for p in (0, 1):
        for a in range(W):
            for k in range(4):
                d = a + t.DOFF[k]
                if not 0 <= d < W:
                    continue
                ua, ud = 1 << (W2 + a), 1 << (W2 + d)
                win = 1 << d | (1 - p) << (W + d) | ua  # MP-15: the defender's square emptied
                loss = 1 << a | p << (W + a)            # the attacker's
                ATK[p][a << 2 | k] = (t.LOWS[a], t.LOWS[d], side[2 * p][k], side[2 * p + 1][k], ud,
                                      (win, win | ud, loss | ud, loss,
                                       ((ua | ud) << M) + flip[p], (ua << M) + flip[p]))
    return ATK


def _battle_steps(t: SimpleNamespace):
    """MP-10, MP-11, MP-16 … MP-18, MP-23: who can attack with what, and whether the battle goes on."""
    S, W, W2, WM, M, PASS_ONLY, finish = t.S, t.W, t.W2, t.WM, t.M, t.PASS_ONLY, t.finish
    # attacks from a square: the opponent squares next to it (rules.STEPS), read from opp << S
    # shifted by the square
    pat_bits = tuple(1 << (S + d) for d in t.DOFF)
    PAT = sum(pat_bits)
    TAB = [{pt: tuple(q << 2 | k for k in range(4) if pt & pat_bits[k])
            for pt in (sum(pat_bits[k] for k in range(4) if j >> k & 1) for j in range(16))}
           for q in range(W)]
    # MP-11, MP-16, MP-17: per mover p, the field's masks -> p's attack moves (or the pass)
    attack_cache: tuple = ({}, {})

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

    def battle_next(pos):
        """MP-10, MP-23: the battle goes on (the mover may have to pass) or ends."""
        ms = pos >> M
        p = 1 if pos & 8 else 0
        if ((attack_cache[p].get(ms) or attacks(ms, p)) is not PASS_ONLY
                or (attack_cache[1 - p].get(ms) or attacks(ms, 1 - p)) is not PASS_ONLY):
            return pos
        return finish(pos)

    return attacks, attack_cache, battle_next


def _attack_step(t: SimpleNamespace):
    """MP-11 … MP-15, MP-19 … MP-22: the battle step, table-driven per (mover, move)."""
    S, WM, M, CNT, cb, cm = t.S, t.WM, t.M, t.CNT, t.cb, t.cm
    PASS_ONLY, finish, mark, jk, DIFF = t.PASS_ONLY, t.finish, t.mark, t.jk, t.DIFF
    COL0, ROW0, ROWS, attacks, attack_cache = t.COL0, t.ROW0, t.ROWS, t.attacks, t.attack_cache
    ATK0, ATK1 = _attack_table(t)
    mark3 = [3 * m for m in mark]
    AT = [t.C + i * cb for i in range(2 * t.n)]   # the card of rank i on the field: at bit AT[i]
    KEEP_LOW = [(1 << r) - 1 for r in AT]
    MOVE_DOWN = [((1 << M) - 1) ^ ((1 << (r + cb)) - 1) for r in AT]
    CNTS = (1 << (CNT + 40)) - 1  # the header and the face-up counts
    t.AT, t.KEEP_LOW = AT, KEEP_LOW

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
        # MP-13, MP-20: number + bonus, the bonuses' difference from the counts before the reveal
        cnt = pos & CNTS
        j = 1 if ms & dbit else 0
        res = na - nd + DIFF[((cnt >> oa) & 15) << 5 | ((cnt >> od) & 15) << 1 | j]
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
        if (attack_cache[p].get(ms) or attacks(ms, p)) is not PASS_ONLY:  # the opponent passes
            return pos
        return finish(pos)

    return attack


def _placement_steps(t: SimpleNamespace):
    """MP-5 … MP-9, MP-Q4: the free squares, and laying a card."""
    S, W, U, M, w, wm, cb, EXT = t.S, t.W, t.U, t.M, t.w, t.wm, t.cb, t.EXT
    HM, H_OFF, AT, KEEP_LOW, battle_next = t.HM, t.H_OFF, t.AT, t.KEEP_LOW, t.battle_next
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

    # the cards on the field: laying a card of rank i keeps the bits below AT[i] and moves
    # those from AT[i] up to the field's masks up by cb (MP-5)
    MOVE_UP = [((1 << M) - 1) ^ ((1 << r) - 1) for r in AT]
    # MP-5: a card of player p's hand; its bits on placement square s (shifted frame, MP-Q4)
    hand_one = [[1 << (H_OFF[p] + c * w) for c in range(U)] for p in (0, 1)]
    put = [[1 << s | p << (s + W) for s in range(EXT)] for p in (0, 1)]
    LOW_W = [t.WM & t.LOWS[s] for s in range(EXT)]
    SH = [(S if s >= S else 0) + (1 if s % S else 0) for s in range(EXT)]  # the shift back (MP-Q4)
    HANDS = (HM | HM << t.HB) << t.H0  # both hands

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

    return spots, place, distinct


def _janken_steps(t: SimpleNamespace):
    """MP-4, MP-25, MP-Q2, MP-Q3: who goes first after the deal, and the two jankens."""
    header, HEAD, KEEP_FH, PEND, PB, OUT = t.header, t.HEAD, t.KEEP_FH, t.PEND, t.PB, t.OUT
    H0, H1, HM, S0, S1, mark, marks = t.H0, t.H1, t.HM, t.S0, t.S1, t.mark, t.marks
    beats_w, beat_mark, mark_w, decides, win3, code_of = (t.beats_w, t.beat_mark, t.mark_w, t.decides, t.win3,
                                                          t.code_of)
    fp, rounds, cap, open_hands = t.opts["first_player"], t.rounds, t.cap, t.opts["open_hands"]
    PM = (1 << PB) - 1

    def after_deal(pos):  # MP-3, MP-4, MP-Q2: who goes first
        base = pos & ~HEAD
        if fp == 0 or fp == 1:
            return base | header(PLACE, fp, fp, 1)
        if fp == "random":
            return base | header(COIN, 0, -1, 3)
        hs = (pos >> H0) & HM | (pos >> H1) & HM
        if not decides[sum(1 << m for m in range(3) if hs & mark_w[m])]:  # one mark: cannot break
            return base | header(COIN, 0, -1, 4)
        return base | header(JANKEN, 0, -1, 0)

    def show(pos, c):
        """MP-4, MP-Q2: the first-player janken, player 0 then player 1 unseen."""
        if not (pos >> 3) & 1:
            return pos | 8 | (c + 1) << PEND
        c0 = ((pos >> PEND) & PM) - 1
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
        f = 0 if win3[3 * m0 + m1] > 0 else 1
        return base | header(PLACE, f, f, 2)

    def pick(pos, mk):
        """MP-25, MP-Q3: the end janken, player 0 then player 1 unseen."""
        if not (pos >> 3) & 1:
            return pos | 8 | (mk + 1) << PEND
        m0 = ((pos >> PEND) & PM) - 1
        base = pos & ~HEAD | (pos & KEEP_FH)
        rnd = (pos >> 9) & 31
        if m0 != mk:
            return base | END | 8 | rnd << 9 | code_of[win3[3 * m0 + mk]] << OUT
        r = rnd + 1 if rounds is not None else 0
        bs = marks(pos)
        if r >= cap or not (bs >> 3 | bs) & beat_mark[m0]:
            return base | END | 8 | r << 9 | code_of[0] << OUT  # MP-Q3: a draw
        return base | TIEBREAK | r << 9

    return show, pick, after_deal


def _moves(t: SimpleNamespace):
    """The core's ``player``, ``moves``, ``chance``, ``play`` and ``random_move``."""
    M, WM, HM, H0, H1, H_OFF, w, n = t.M, t.WM, t.HM, t.H0, t.H1, t.H_OFF, t.w, t.n
    attack_cache, attacks, attack, place, spots, distinct = (t.attack_cache, t.attacks, t.attack, t.place, t.spots,
                                                             t.distinct)
    show, pick, after_deal, marks, PICKS = t.show, t.pick, t.after_deal, t.marks, t.PICKS
    HEAD, header, shared = t.HEAD, t.header, t.opts["deal"] == "shared"
    ALL = [(c, 1) for c in range(t.U)]
    who = [TERMINAL if ph == END else CHANCE if ph in (DEAL, COIN) else mv for mv in (0, 1) for ph in range(8)]

    def player(pos):
        return who[pos & 15]

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

    def chance(pos):
        if pos & 7 == COIN:
            return [(0, 1), (1, 1)]
        h0 = (pos >> H0) & HM
        h1 = (pos >> H1) & HM
        used = h0 | h1 if shared else h0 if h0.bit_count() < n else h1
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

    return player, moves, chance, play, random_move


# -- the API edge: the State's named key fields (key.KEY) in and out ----------------------
def _encoder(game, t: SimpleNamespace):
    """``encode(state)``: the position of a State, from its named fields."""
    header, code_of, local, w, attr, n, S, SB = t.header, t.code_of, t.local, t.w, t.attr, t.n, t.S, t.SB
    H0, H1, G0, G1, S0, S1, C, CNT, M, W, W2 = t.H0, t.H1, t.G0, t.G1, t.S0, t.S1, t.C, t.CNT, t.M, t.W, t.W2
    cb = t.cb

    def encode(state):
        f = state.fields()
        ph, outcome, pend = f["phase"], f["outcome"], f["pending"]
        if outcome is not None and outcome not in code_of:
            return None
        pos = header(ph, f["mover"], f["first"], f["how"], f["round"], -1,
                     0 if outcome is None else code_of[outcome])
        if pend >= 0:
            pos |= (pend + 1 if ph == TIEBREAK else local[pend] + 1) << t.PEND
        for off, cs in ((H0, f["hand0"]), (H1, f["hand1"]), (G0, f["grave0"]), (G1, f["grave1"])):
            for c in cs:
                if c not in local:
                    return None
                pos += 1 << (off + local[c] * w)
        for off, cs in ((S0, f["shown0"]), (S1, f["shown1"])):
            if cs and not SB:
                return None
            for c in cs:
                pos |= 1 << (off + local[c])
        occ = own = up = cards = 0
        for i, (x, y, c, o, u) in enumerate(sorted(map(cell_parts, f["field"]))):
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

    return encode


def _decoder(game, t: SimpleNamespace):
    """``decode(pos)``: the State of a position, made by the game (its origin ``(0, 0)``)."""
    univ, U, w, wm, HM, SM, CM, cm, cb, S, W, W2, WM, M = (t.univ, t.U, t.w, t.wm, t.HM, t.SM, t.CM, t.cm, t.cb,
                                                           t.S, t.W, t.W2, t.WM, t.M)
    PM, outs, OUTM = (1 << t.PB) - 1, t.outs, (1 << (t.CNT - t.OUT)) - 1

    def cardset(v):
        out = []
        while v:
            b = v & -v
            out.append(univ[b.bit_length() - 1])
            v ^= b
        return tuple(out)

    def multiset(v):
        if w > 1:
            return tuple(univ[c] for c in range(U) for _ in range((v >> (c * w)) & wm))
        return cardset(v)

    def decode(pos):
        ph = pos & 7
        pend = ((pos >> t.PEND) & PM) - 1
        if pend >= 0 and ph == JANKEN:
            pend = univ[pend]
        ms = pos >> M
        occ, own, up = ms & WM, (ms >> W) & WM, ms >> W2
        cards = (pos >> t.C) & CM
        cells = []
        while occ:
            b = occ & -occ
            q = b.bit_length() - 1
            cells.append(cell(q // S, q % S, univ[cards & cm], own >> q & 1, up >> q & 1))
            cards >>= cb
            occ ^= b
        return game.state_of(KEY.make(
            phase=ph, mover=(pos >> 3) & 1, first=((pos >> 4) & 3) - 1, how=(pos >> 6) & 7, round=(pos >> 9) & 31,
            pending=pend, outcome=outs[(pos >> t.OUT) & OUTM], field=tuple(cells),
            hand0=multiset((pos >> t.H0) & HM), hand1=multiset((pos >> t.H1) & HM),
            grave0=multiset((pos >> t.G0) & HM), grave1=multiset((pos >> t.G1) & HM),
            shown0=cardset((pos >> t.S0) & SM), shown1=cardset((pos >> t.S1) & SM)))

    return decode
