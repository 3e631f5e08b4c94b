# cython: infer_types=True, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Toritsuki's compact core on fixed-width words (issue X) in Cython's pure-Python mode: compiled
where built, else this very Python (on :mod:`cardlab._cython_shim` without Cython), the same results.
No third copy of the rules: the tables are :mod:`.core`'s (:func:`.core_tables._card_tables`, built
by calling :mod:`.rules`) in flat typed arrays, and every step (deal and mulligan TK-2 … TK-4, the
turn TK-9 … TK-15, summon, release, move, event TK-13, TK-24, TK-Q2, the attack TK-14 … TK-22, the
end TK-6 … TK-8) is core's step on C words with the same rule ids; the duel's outcome is
:func:`.rules.duel`'s, cached as core does.  A position is one mutable :class:`WordCore`: core's 45
fields as 64-bit words (``k``, layout :data:`.core.POS`) but the known deck tops (TK-Q6), a list of
kinds per player (``top``).  Moves, their order and codes are core's.  Handled: at most 31 kinds a
deck, 4 methods a card (else :func:`make_word_core` gives None).  Locals are typed by inference.
"""

from __future__ import annotations

import random
from array import array

try:
    import cython
except ImportError:  # pragma: no cover  (no Cython: the module runs as Python)
    from ... import _cython_shim as cython

from ...core import CHANCE, TERMINAL
from . import core as _core
from . import core_tables as _ct

__all__ = ["make_word_core", "WordCore", "compiled"]

#: whether this module runs compiled
compiled = cython.compiled
# core's fields (core_tables.POS, SIDE), stages and codes as C globals
cython.declare(ST=cython.int, TP=cython.int, FP=cython.int, FT=cython.int, EV=cython.int, PD=cython.int,
               WN=cython.int, BA=cython.int, BAB=cython.int, BAM=cython.int, BB=cython.int, BBB=cython.int,
               BBM=cython.int, PSA=cython.int, PSD=cython.int, H=cython.int, PO=cython.int, N=cython.int,
               TOP=cython.int, F=cython.int, B=cython.int, YR=cython.int, YS=cython.int, DU=cython.int,
               DD=cython.int, TR=cython.int)
ST, TP, FP, FT, EV, PD, WN = _ct.ST, _ct.TP, _ct.FP, _ct.FT, _ct.EV, _ct.PD, _ct.WN
BA, BAB, BAM, BB, BBB, BBM, PSA, PSD = _ct.BA, _ct.BAB, _ct.BAM, _ct.BB, _ct.BBB, _ct.BBM, _ct.PSA, _ct.PSD
H, PO, N, TOP, F, B, YR, YS, DU, DD, TR = _ct.H, _ct.PO, _ct.N, _ct.TOP, _ct.F, _ct.B, _ct.YR, _ct.YS, _ct.DU, \
    _ct.DD, _ct.TR
cython.declare(SHUFFLE=cython.int, DEAL=cython.int, MULLIGAN=cython.int, COIN=cython.int, DRAW=cython.int,
               MAIN=cython.int, EVDRAW=cython.int, BATTLE=cython.int, BLOCK=cython.int, DAMAGE=cython.int,
               POSS_A=cython.int, REVEAL_A=cython.int, POSS_D=cython.int, REVEAL_D=cython.int, OVER=cython.int,
               DUEL=cython.int)
(SHUFFLE, DEAL, MULLIGAN, COIN, DRAW, MAIN, EVDRAW, BATTLE, BLOCK, DAMAGE, POSS_A, REVEAL_A, POSS_D, REVEAL_D,
 OVER, DUEL) = (_ct.SHUFFLE, _ct.DEAL, _ct.MULLIGAN, _ct.COIN, _ct.DRAW, _ct.MAIN, _ct.EVDRAW, _ct.BATTLE,
                _ct.BLOCK, _ct.DAMAGE, _ct.POSS_A, _ct.REVEAL_A, _ct.POSS_D, _ct.REVEAL_D, _ct.OVER, _ct.DUEL)
cython.declare(KEEP=cython.int, MULL=cython.int, SUMMON=cython.int, RELEASE=cython.int, MOVE=cython.int,
               EVENT=cython.int, ATTACK=cython.int, END=cython.int, BLOCKM=cython.int, NOBLOCK=cython.int,
               PASS=cython.int, PDECK=cython.int, PHAND=cython.int, NOTARGET=cython.int)
KEEP, MULL, SUMMON, RELEASE, MOVE, EVENT, ATTACK, END, BLOCKM, NOBLOCK, PASS, PDECK, PHAND, NOTARGET = (
    _ct.KEEP, _ct.MULL, _ct.SUMMON, _ct.RELEASE, _ct.MOVE, _ct.EVENT, _ct.ATTACK, _ct.END, _ct.BLOCKM,
    _ct.NOBLOCK, _ct.PASS, _ct.PDECK, _ct.PHAND, _ct.NOTARGET)
cython.declare(E_DRAW=cython.int, E_READY=cython.int, E_BP=cython.int, E_HEAL=cython.int, E_BANISH=cython.int,
               E_CHARGE=cython.int, E_REST=cython.int, E_WIN=cython.int)
E_DRAW, E_READY, E_BP, E_HEAL, E_BANISH, E_CHARGE, E_REST, E_WIN = (
    _ct.E_DRAW, _ct.E_READY, _ct.E_BP, _ct.E_HEAL, _ct.E_BANISH, _ct.E_CHARGE, _ct.E_REST, _ct.E_WIN)
cython.declare(EMPTY=cython.longlong, RESTED=cython.longlong, MOVED=cython.longlong, ONE=cython.longlong,
               NK_MAX=cython.int, MM=cython.int)
EMPTY, RESTED, MOVED, ONE = _ct.EMPTY, _ct.RESTED, _ct.MOVED, 1
NK_MAX, MM = 31, 4  # kinds a deck (2 bits a kind in one signed word); methods a card (codes target * 4 + method)


def make_word_core(game, core=None):
    """The word core of a Toritsuki game, or None where its cards are beyond it (a deck of
    more than 31 kinds, a card of more than 4 methods); ``core``: the game's :mod:`.core` core."""
    t = _ct._card_tables(game)
    if max(len(t.kno[0]), len(t.kno[1])) > NK_MAX or max(len(m) for m in t.methods) > MM:
        return None
    return WordCore(game, t, core if core is not None else _core.make_core(game))


@cython.cclass
class WordCore:
    """One Toritsuki game's rules on C words, and one position of it (mutable)."""

    cython.declare(k=cython.longlong[:], tmp=cython.longlong[:], top=cython.int[:], tl=cython.int[:],
                   buf=cython.int[:], CAP=cython.int, TW=cython.int, Y=cython.int, P1=cython.int, ND=cython.int,
                   hand_start=cython.int, kdo=cython.bint, mulligan_opt=cython.bint, move_once=cython.bint)
    cython.declare(nk=cython.int[:], kno=cython.int[:], kidx=cython.int[:], is_yokai=cython.int[:],
                   cost=cython.int[:], mincost=cython.int[:], rank=cython.int[:], poss_bp=cython.int[:],
                   poss_icon=cython.int[:], eff_kind=cython.int[:], eff_value=cython.int[:], on_att=cython.int[:],
                   nmeth=cython.int[:], mbp=cython.int[:], mcost=cython.int[:], micon=cython.int[:],
                   dense=cython.int[:], fit=cython.int[:], lost_at=cython.int[:], pay_lo=cython.int[:],
                   pay_hi=cython.int[:], unpayable=cython.int[:], mt_off=cython.int[:], mt_len=cython.int[:],
                   mt=cython.int[:])
    cython.declare(game=object, t=object, core=object, outcomes=dict, duel_rule=object, bits=object,
                   randrange=object)

    def __init__(self, game, t, core) -> None:
        self.game, self.t, self.core, self.outcomes, self.duel_rule = game, t, core, {}, t.duel
        size = max(len(d) for d in game.deck_lists)
        nk = [len(t.kno[0]), len(t.kno[1])]
        self.CAP, self.TW, self.P1, self.Y = size + 8, t.tw, size + 1, len(t.is_yokai)
        self.hand_start, self.kdo, self.mulligan_opt, self.move_once = t.hand_start, t.kdo, t.mulligan, t.move_once
        self.nk = array("i", nk)
        self.kno = array("i", [t.kno[p][i] if i < nk[p] else 0 for p in (0, 1) for i in range(NK_MAX)])
        self.kidx = array("i", [t.kidx[p].get(no, -1) for p in (0, 1) for no in range(self.Y)])
        self._card_arrays(t)
        self._rule_arrays(t, size)
        self.k, self.tmp = array("q", [0] * len(_ct.POS)), array("q", [0] * 12)
        self.top, self.tl = array("i", [0] * (2 * self.CAP)), array("i", [0, 0])
        self.buf = array("i", [0] * (NK_MAX * 4 * (size + 2) + 256 + NK_MAX * 8 + 3 * MM * (size + 2)))

    def _card_arrays(self, t) -> None:
        """Core's card tables (TK-19, TK-20, TK-23, TK-Q2, TK-Q7) by card number; ``fitset`` on dense numbers."""
        self.is_yokai, self.cost, self.mincost = array("i", t.is_yokai), array("i", t.cost), array("i", t.mincost)
        self.rank, self.poss_bp, self.poss_icon = array("i", t.rank), array("i", t.poss_bp), array("i", t.poss_icon)
        self.eff_kind, self.eff_value = array("i", [e[0] for e in t.effect]), array("i", [e[1] for e in t.effect])
        self.on_att = array("i", list(t.on_attacker[0]) + list(t.on_attacker[1]))
        self.nmeth = array("i", [len(m) for m in t.methods])
        flat = [m[j] if j < len(m) else (0, 0, 0) for m in t.methods for j in range(MM)]
        self.mbp, self.mcost, self.micon = (array("i", [x[f] for x in flat]) for f in range(3))
        yokai = sorted({no for p in (0, 1) for no in t.kno[p] if t.is_yokai[no]})
        dense, nd = [-1] * self.Y, len(yokai)
        for d, no in enumerate(yokai):
            dense[no] = d
        fit = [0] * (nd * nd * MM)
        for no in yokai:
            for target, m in (divmod(code, 4) for code in t.fitset[no]):
                if dense[target] >= 0:
                    fit[(dense[no] * nd + dense[target]) * MM + m] = 1
        self.ND, self.dense, self.fit = nd, array("i", dense), array("i", fit)

    def _rule_arrays(self, t, size) -> None:
        """Core's ``lost_at`` (TK-6), ``payments``, ``unpayable`` (TK-25, TK-26, TK-Q8), ``move_table`` (TK-13)."""
        P1 = size + 1
        self.lost_at = array("i", t.lost_at)
        pairs = [t.payments[c][r][u] for c in range(len(t.payments)) for r in range(P1) for u in range(P1)]
        self.pay_lo, self.pay_hi = array("i", [p[0] for p in pairs]), array("i", [p[1] for p in pairs])
        self.unpayable = array("i", [t.unpayable[r][u] for r in range(P1) for u in range(P1)])
        off, ln, masks = [0] * 1024, [0] * 1024, []
        for (nf, nb, um), out in t.move_table.items():
            off[(nf * 4 + nb) * 64 + um], ln[(nf * 4 + nb) * 64 + um] = len(masks), len(out)
            masks += out
        self.mt_off, self.mt_len, self.mt = array("i", off), array("i", ln), array("i", masks or [0])

    # -- conversions and the protocol of cardlab.cores on this position ----------------------------
    @cython.ccall
    def copy_from(self, other: WordCore) -> cython.void:
        """Set this position to ``other``'s (a core of the same game)."""
        self.k[:] = other.k
        self.top[:] = other.top
        self.tl[:] = other.tl

    def load(self, pos) -> None:
        """Set this position to :mod:`.core`'s tuple ``pos``."""
        for i in range(45):
            self.k[i] = 0 if i == 15 + TOP or i == 30 + TOP else pos[i]  # the tops: below
        for p in range(2):
            tk, j = pos[15 + 15 * p + TOP], 0
            while tk:
                self.top[p * self.CAP + j] = (tk & ((1 << self.TW) - 1)) - 1
                tk, j = tk >> self.TW, j + 1
            self.tl[p] = j

    def to_pos(self) -> tuple:
        """This position as :mod:`.core`'s tuple."""
        tk: object
        c: object  # (Python ints: the tops are longer than a word)
        out = [self.k[i] for i in range(45)]
        for p in range(2):
            tk = 0
            for j in range(self.tl[p]):
                c = self.top[p * self.CAP + j] + 1
                tk |= c << (self.TW * j)
            out[15 + 15 * p + TOP] = tk
        return tuple(out)

    @cython.ccall
    def player(self) -> cython.int:
        """The player to move (the defender at a block or its possession, TK-17, TK-19), CHANCE or TERMINAL."""
        st = self.k[ST]
        if st == OVER:
            return TERMINAL
        if st == MAIN or st == BATTLE or st == POSS_A or st == MULLIGAN:
            return self.k[TP]
        return 1 - self.k[TP] if st == BLOCK or st == POSS_D else CHANCE

    def moves(self) -> list:
        """The legal moves, or the chance outcomes (:meth:`chance`'s), in :mod:`.core`'s order."""
        if self.player() == CHANCE:
            return [o for o, _w in self.chance()]
        return [self.buf[i] for i in range(self._moves())]

    def chance(self) -> list:
        """Core's ``chance``: (outcome, weight) pairs (TK-4 the coin; TK-Q6 a deck's kind, its count)."""
        if self.k[ST] == COIN:
            return [(0, 1), (1, 1)]
        pool = self.k[15 + 15 * self._owner() + PO]
        return [(i, (pool >> 2 * i) & 3) for i in range(self.nk[self._owner()]) if (pool >> 2 * i) & 3]

    def returns(self) -> tuple:
        """TK-6 … TK-8: (1, -1) or (-1, 1) for the winner, (0, 0) before the end (core's ``returns``)."""
        return (0, 0) if self.k[WN] < 0 else (1, -1) if self.k[WN] == 0 else (-1, 1)

    def perft(self, depth: cython.int) -> int:
        """``cardlab.cores.perft`` on words: the lines of ``depth`` steps (chance outcomes are steps)."""
        return self._perft(depth, [WordCore(self.game, self.t, self.core) for _ in range(depth)])

    @cython.cfunc
    def _perft(self, depth: cython.int, stack: list) -> cython.longlong:
        if depth == 0 or self.k[ST] == OVER:
            return 1
        child: WordCore = stack[depth - 1]
        total: cython.longlong = 0
        for m in self.moves():
            child.copy_from(self)
            child.play(m)
            total += child._perft(depth - 1, stack)
        return total

    def playout(self, rng, limit: cython.int = 10_000) -> tuple:
        """A random game from here drawn from ``rng`` as ``cardlab.cores._playout_core`` draws it:
        ``(returns, steps)`` (``randrange`` and ``choice`` are ``_randbelow``, see :meth:`_below`)."""
        self.randrange = rng.randrange
        self.bits = rng.getrandbits if type(rng) is random.Random else None
        steps: cython.int = 0
        while True:
            st = self.k[ST]
            if st == OVER:
                return self.returns(), steps
            if steps == limit:
                return (0, 0), steps
            if st == COIN:  # TK-4, TK-Q3: two outcomes of weight 1
                self.play(self._below(2))
            elif st == MAIN or st == BATTLE or st == BLOCK or st == POSS_A or st == POSS_D or st == MULLIGAN:
                self.play(self.buf[self._below(self._moves())])
            else:
                self.play(self._draw())
            steps += 1

    @cython.cfunc
    def _below(self, n: cython.int) -> cython.int:
        """``rng.randrange(n)``: getrandbits(n.bit_length()) until below n (a subclass: its own randrange)."""
        if self.bits is None or n <= 0:  # (n <= 0: randrange's error)
            return self.randrange(n)
        b = 0
        while n >> b:
            b += 1
        r: cython.int = self.bits(b)
        while r >= n:
            r = self.bits(b)
        return r

    @cython.cfunc
    def _draw(self) -> cython.int:
        """The kind taken from a deck's unknown part (TK-2, TK-11, TK-18, TK-19) as ``cardlab.cores._draw``
        draws from core's ``chance``: randrange(sum of counts / gcd), the first kind whose total passes it."""
        o = self._owner()
        pool, g, total = self.k[15 + 15 * o + PO], 0, 0
        for i in range(self.nk[o]):
            c = (pool >> 2 * i) & 3
            if c and g != 1:
                g = c if g == 0 or g == c else 1  # counts are 1 … 3: their gcd
            total += c
        r = self._below(total // g if g else 0)
        for i in range(self.nk[o]):
            r -= ((pool >> 2 * i) & 3) // g
            if r < 0:
                return i
        return -1

    @cython.cfunc
    def _owner(self) -> cython.int:
        """Whose deck a chance stage takes from: the defender's at a damage or its reveal (TK-18, TK-19)."""
        return 1 - self.k[TP] if self.k[ST] == DAMAGE or self.k[ST] == REVEAL_D else self.k[TP]

    # -- the moves (core's _mover, _main_moves, _other_moves) --------------------------------------
    @cython.cfunc
    def _moves(self) -> cython.int:
        """The deciding stage's moves into ``buf``, in core's order; their number."""
        st, tp = self.k[ST], self.k[TP]
        if st == MAIN:
            return self._main_moves()
        if st == BATTLE or st == BLOCK:  # TK-16 and end; TK-17, then TK-18 no block
            b = 15 + 15 * tp if st == BATTLE else 30 - 15 * tp
            n = self._method_moves(b, ATTACK if st == BATTLE else BLOCKM, 0)
            self.buf[n] = END << 24 if st == BATTLE else NOBLOCK << 24
            return n + 1
        if st == POSS_A or st == POSS_D:
            return self._possess_moves(tp if st == POSS_A else 1 - tp)
        self.buf[0], self.buf[1] = KEEP << 24, MULL << 24  # MULLIGAN, TK-3
        return 2

    @cython.cfunc
    def _main_moves(self) -> cython.int:
        """TK-13, TK-14, TK-24: the main phase's moves (core's ``main_moves``)."""
        k = self.k
        tp, n = k[TP], 0
        b = 15 + 15 * tp
        nf: cython.int = (k[b + F] != EMPTY) + (k[b + F + 1] != EMPTY) + (k[b + F + 2] != EMPTY)
        nb: cython.int = (k[b + B] != EMPTY) + (k[b + B + 1] != EMPTY) + (k[b + B + 2] != EMPTY)
        hand, affordable, has_event = k[b + H], False, False
        for i in range(self.nk[tp]):  # TK-13 summon, TK-25 paid in yoki
            no = self.kno[tp * NK_MAX + i]
            if not (hand >> 2 * i) & 3:
                continue
            if not self.is_yokai[no]:
                has_event = True
                continue
            x = (self.cost[no] * self.P1 + k[b + YR]) * self.P1 + k[b + DU]
            lo, hi = self.pay_lo[x], self.pay_hi[x]
            affordable = affordable or lo < hi
            base = SUMMON << 24 | no << 8
            for row in range(2):  # the front row, then the back (16)
                for x in range(lo, hi if (nb if row else nf) < 3 else lo):
                    self.buf[n] = base | row << 4 | x
                    n += 1
        if affordable and nf == 3 and nb == 3:  # TK-13 make room
            for i in range(6):
                if i % 3 == 0 or k[b + F + i] != k[b + F + i - 1]:
                    self.buf[n] = RELEASE << 24 | i
                    n += 1
        if self.move_once or not (k[b + F] | k[b + F + 1] | k[b + F + 2] | k[b + B] | k[b + B + 1]
                                  | k[b + B + 2]) & MOVED:  # TK-13 move
            n = self._rearrangements(b, nf, nb, n)
        if has_event and not k[EV] and not k[FT]:  # TK-24 one event a main phase; none on TK-5's first turn
            n = self._event_moves(b, n)
        if not k[FT]:  # TK-5 no battle on the first player's first turn; TK-14 an attack ends main
            n = self._method_moves(b, ATTACK, n)
        self.buf[n] = END << 24
        return n + 1

    @cython.cfunc
    def _rearrangements(self, b: cython.int, nf: cython.int, nb: cython.int, n: cython.int) -> cython.int:
        """TK-13 move: every other arrangement once (core's ``rearrangements``, ``shape_moves``), from ``n``."""
        k = self.k
        um, dup, pairs = 0, 0, 0
        for s in range(6):
            if k[b + F + s] != EMPTY and not k[b + F + s] & MOVED:
                um |= 1 << s
            if s % 3 and k[b + F + s] == k[b + F + s - 1] and k[b + F + s] != EMPTY:
                dup |= 1 << s  # a place alike the one before it in its row
        if not um:
            return n
        for i in range(9):
            if i // 3 < nf and i % 3 < nb and k[b + F + i // 3] == k[b + B + i % 3]:
                pairs |= 1 << i  # front i // 3 and back i % 3 alike: trading them changes nothing
        off = self.mt_off[(nf * 4 + nb) * 64 + um]
        for s in range(self.mt_len[(nf * 4 + nb) * 64 + um]):
            mask = self.mt[off + s]
            if (mask & dup) >> 1 & ~mask:
                continue  # of alike yokai in a row, the first ones only
            fm, bm = mask & 7, mask >> 3 & 7  # the mask's trades of front i and back j: bits 3i + j
            if not pairs & ((bm if fm & 1 else 0) | (bm << 3 if fm & 2 else 0) | (bm << 6 if fm & 4 else 0)):
                self.buf[n] = MOVE << 24 | mask
                n += 1
        return n

    @cython.cfunc
    def _event_moves(self, b: cython.int, n: cython.int) -> cython.int:
        """TK-24, TK-Q2: the hand's events with their targets (core's ``events``), from ``n``."""
        k = self.k
        tp, hand = k[TP], k[b + H]
        for i in range(self.nk[tp]):
            no = self.kno[tp * NK_MAX + i]
            if not (hand >> 2 * i) & 3 or self.is_yokai[no]:
                continue
            kind, base = self.eff_kind[no], EVENT << 24 | no << 8
            if kind != E_BP and kind != E_BANISH and kind != E_REST:
                self.buf[n] = base | NOTARGET
                n += 1
                continue
            o = (b if kind == E_BP else 45 - b) + F
            prev = -1
            for s in range(3 if kind == E_REST else 0, 6):
                y = k[o + s]
                prev = -1 if s == 3 else prev
                if (y != EMPTY and y != prev and (kind != E_BANISH or self.rank[y >> 16] <= self.eff_value[no])
                        and (kind != E_REST or not y & RESTED)):
                    self.buf[n] = base | s
                    n += 1
                prev = y
        return n

    @cython.cfunc
    def _method_moves(self, b: cython.int, kind: cython.int, n: cython.int) -> cython.int:
        """TK-16 attacks (front row) or TK-17 blocks (back), each way to pay (TK-25, TK-26, TK-Q8), from ``n``."""
        k = self.k
        o = b + (B if kind == BLOCKM else F)
        prev = -1
        for i in range(3):
            y = k[o + i]
            if y == EMPTY:
                break
            if y != prev and not y & RESTED:
                base, no = kind << 24 | i << 8, y >> 16
                for m in range(self.nmeth[no]):
                    x = (self.mcost[no * MM + m] * self.P1 + k[b + YR]) * self.P1 + k[b + DU]
                    for x in range(self.pay_lo[x], self.pay_hi[x]):
                        self.buf[n] = base | m << 4 | x
                        n += 1
            prev = y
        return n

    @cython.cfunc
    def _possess_moves(self, who: cython.int) -> cython.int:
        """TK-19: pass, from the deck, or each fitting yokai of the hand (core's ``possess_moves``)."""
        hand = self.k[15 + 15 * who + H]
        n: cython.int = 2
        self.buf[0], self.buf[1] = PASS << 24, PDECK << 24
        for i in range(self.nk[who]):
            no = self.kno[who * NK_MAX + i]
            if (hand >> 2 * i) & 3 and self.is_yokai[no] and self._fits(no, who):
                self.buf[n] = PHAND << 24 | no << 8
                n += 1
        return n

    @cython.cfunc
    def _fits(self, no: cython.int, owner: cython.int) -> cython.bint:
        """TK-19, TK-20: card ``no`` of ``owner`` fits the yokai it would possess (core's ``fits``)."""
        d = 0 if self.on_att[(1 if owner == self.k[TP] else 0) * self.Y + no] else BB - BA  # the blocker's
        target, m = self.k[BA + d], self.k[BAM + d]
        return self.fit[(self.dense[no] * self.ND + self.dense[target]) * MM + m] != 0

    # -- rows, paying, known tops, the end of a battle (core's _rows; TK-22, TK-25, TK-26, TK-Q6) ----------
    @cython.cfunc
    def _add_yokai(self, o: cython.int, y: cython.longlong) -> cython.void:
        """``y`` into the row at ``o``'s last place, the row sorted (the engine's tuple order, empty places last)."""
        k = self.k
        k[o + 2] = y
        if k[o] > k[o + 1]:
            k[o], k[o + 1] = k[o + 1], k[o]
        if k[o + 1] > k[o + 2]:
            k[o + 1], k[o + 2] = k[o + 2], k[o + 1]
            if k[o] > k[o + 1]:
                k[o], k[o + 1] = k[o + 1], k[o]

    @cython.cfunc
    def _remove_at(self, o: cython.int, i: cython.int) -> cython.void:
        for i in range(i, 2):
            self.k[o + i] = self.k[o + i + 1]
        self.k[o + 2] = EMPTY

    @cython.cfunc
    def _clear_row(self, o: cython.int, bits: cython.longlong) -> cython.void:
        """``bits`` off the row's yokai, re-sorted, where any of them has one."""
        if (self.k[o] | self.k[o + 1] | self.k[o + 2]) & bits:
            for i in range(3):
                self.k[o + i] &= ~bits
            self._add_yokai(o, self.k[o + 2])

    @cython.cfunc
    def _pay(self, b: cython.int, c: cython.int, boosts: cython.int) -> cython.void:
        """TK-25, TK-26: ``boosts`` face-up damage turned face down, the rest ready yoki rested."""
        self.k[b + YR], self.k[b + YS] = self.k[b + YR] - (c - boosts), self.k[b + YS] + c - boosts
        self.k[b + DU], self.k[b + DD] = self.k[b + DU] - boosts, self.k[b + DD] + boosts

    @cython.cfunc
    def _pop_top(self, p: cython.int) -> cython.int:
        """The known top card's kind, taken off player ``p``'s list (-1: none known)."""
        if not self.tl[p]:
            return -1
        c = self.top[p * self.CAP]
        self.tl[p] -= 1
        for i in range(self.tl[p]):
            self.top[p * self.CAP + i] = self.top[p * self.CAP + i + 1]
        return c

    @cython.cfunc
    def _end_battle(self, stage: cython.int) -> cython.void:
        """The battle's fields cleared (TK-22), then ``stage``."""
        for i in range(BA, PSD + 1):
            self.k[i] = 0
        self.k[ST] = stage

    @cython.cfunc
    def _lose(self, loser: cython.int) -> cython.void:
        """TK-6, TK-7: the game ends at once."""
        self.k[WN] = 1 - loser
        self._end_battle(OVER)

    # -- the turn and the setup (core's _turn_steps, _take) ------------------------------------------
    @cython.cfunc
    def _charge_and_main(self) -> cython.void:
        """TK-12 charge, then the main phase; TK-7 an empty deck loses."""
        tp = self.k[TP]
        b = 15 + 15 * tp
        self._pop_top(tp)
        self.k[b + N], self.k[b + YR] = self.k[b + N] - 1, self.k[b + YR] + 1
        if self.k[b + N] > 0:
            self.k[ST] = MAIN
        else:
            self._lose(tp)

    @cython.cfunc
    def _start_turn(self, p: cython.int, first: cython.bint) -> cython.void:
        """TK-15 the last turn's end (bonus, move marks), TK-9 start, TK-10 refresh, TK-11 draw (not at TK-5)."""
        k = self.k
        b = 15 + 15 * p
        for o in range(0 if first else 4):
            self._clear_row(15 + 15 * (o >> 1) + (B if o & 1 else F), 0x7FFF)
        k[TP], k[FP], k[FT], k[EV], k[PD] = p, p if first else k[FP], first, 0, 0
        self._clear_row(b + F, RESTED | MOVED)
        self._clear_row(b + B, RESTED | MOVED)
        k[b + YR], k[b + YS] = k[b + YR] + k[b + YS], 0
        if first:
            self._charge_and_main()
        else:
            k[ST] = DRAW

    @cython.cfunc
    def _after_mulligan(self) -> cython.void:
        """TK-3: player 1 decides next; then TK-4, TK-Q3 the coin, or the fixed first player's first turn."""
        self.k[PD] = 0
        if self.k[TP] == 0:
            self.k[ST], self.k[TP] = MULLIGAN, 1
        elif self.k[FP] < 0:
            self.k[ST], self.k[TP] = COIN, 0
        else:
            self._start_turn(self.k[FP], True)

    @cython.cfunc
    def _mulligan(self, b: cython.int) -> cython.void:
        """TK-3: the hand (and the known tops) back into the deck, shuffled; 5 again."""
        k = self.k
        k[b + PO] += k[b + H]
        c = self._pop_top((b - 15) // 15)
        while c >= 0:
            k[b + PO] += ONE << 2 * c
            c = self._pop_top((b - 15) // 15)
        k[b + H], k[b + N], k[ST], k[PD] = 0, k[b + N] + self.hand_start, SHUFFLE if self.kdo else DEAL, 1

    @cython.cfunc
    def _took(self, o: cython.int, i: cython.int) -> cython.void:
        """Kind ``i`` has left player ``o``'s deck at the current stage; put it where it goes (core's ``took``)."""
        k = self.k
        st, b = k[ST], 15 + 15 * o
        if st == DEAL:  # TK-2, TK-3
            k[b + H] += ONE << 2 * i
            n = 0
            for j in range(self.nk[o]):  # the hand's size
                n += (k[b + H] >> 2 * j) & 3
            if n < self.hand_start:
                return
            if k[PD] == 1:
                self._after_mulligan()
            elif o == 0:
                k[TP] = 1
            elif self.mulligan_opt:
                k[ST], k[TP] = MULLIGAN, 0
            else:  # no mulligans (pending 0, player 1's hand): the coin
                self._after_mulligan()
        elif k[b + N] == 0:  # TK-7, TK-Q4 the deck ran out
            self._lose(o)
        elif st == DRAW or st == EVDRAW:  # TK-11, then TK-12; an event's draws (TK-Q2)
            k[b + H] += ONE << 2 * i
            if st == DRAW:
                self._charge_and_main()
            elif k[PD] > 0:
                k[PD] -= 1
            else:
                k[ST] = MAIN
        elif st == DAMAGE:  # TK-18 face up; TK-6
            k[b + DU] += 1
            if self.lost_at[k[b + DU] + k[b + DD]]:
                self._lose(o)
            else:
                k[ST] = BATTLE
        else:  # REVEAL_A / REVEAL_D, TK-19
            no = self.kno[o * NK_MAX + i]
            if self.is_yokai[no] and self._fits(no, o):
                k[PSA if st == REVEAL_A else PSD] = no
            else:
                k[b + TR] += 1
            k[ST] = POSS_D if st == REVEAL_A else DUEL

    # -- the battle and what needs no decision (core's _duel_step, _settler) --------------------------
    @cython.cfunc
    def _duel(self) -> cython.void:
        """TK-20, TK-21, TK-22 (icons TK-Q7), the outcome by :func:`.rules.duel` (cached as core caches it)."""
        k = self.k
        a, am, ab, d, dm, db = k[BA], k[BAM], k[BAB], k[BB], k[BBM], k[BBB]
        at, dt = self.mbp[a * MM + am] + ab, self.mbp[d * MM + dm] + db
        aic, dic = self.micon[a * MM + am], self.micon[d * MM + dm]
        for j in range(2):  # TK-20: the attacker's possession, then the defender's, on either side
            c = k[PSA + j]
            if c and self.on_att[(1 - j) * self.Y + c]:
                at, aic = at + self.poss_bp[c], aic | self.poss_icon[c]
            elif c:
                dt, dic = dt + self.poss_bp[c], dic | self.poss_icon[c]
        key = (at, dt, aic, dic)
        outcome = self.outcomes.get(key)
        if outcome is None:
            r = self.duel_rule(at, dt, aic, dic)
            outcome = self.outcomes[key] = (1 if r[1] else 0) | (2 if r[2] else 0) | (4 if r[3] else 0)
        out: cython.int = outcome
        A = 15 + 15 * k[TP]
        D = 45 - A
        if out & 1:  # the loser faints to the trash (TK-21), a tie both
            k[A + TR] += 1
        else:
            self._add_yokai(A + F, a << 16 | RESTED | ab)
        if out & 2:
            k[D + TR] += 1
        else:
            self._add_yokai(D + B, d << 16 | RESTED | db)
        k[A + TR], k[D + TR] = k[A + TR] + (k[PSA] != 0), k[D + TR] + (k[PSD] != 0)  # TK-22 possessions
        self._end_battle(DAMAGE if out & 4 else BATTLE)

    @cython.cfunc
    def _no_block(self) -> cython.void:
        """TK-18: the attacker stays resting; the defender takes 1 damage."""
        self._add_yokai(15 + 15 * self.k[TP] + F, self.k[BA] << 16 | RESTED | self.k[BAB])
        self._end_battle(DAMAGE)

    @cython.cfunc
    def _can_act(self, b: cython.int, o: cython.int) -> cython.bint:
        """A ready yokai in the row at ``o`` with a method player ``b`` can pay (TK-16, TK-17)."""
        limit = self.unpayable[self.k[b + YR] * self.P1 + self.k[b + DU]]
        for i in range(3):
            y = self.k[o + i]
            if y != EMPTY and not y & RESTED and self.mincost[y >> 16] < limit:
                return True
        return False

    @cython.cfunc
    def _settle(self) -> cython.void:
        """What needs no decision (core's ``settle``): known tops (TK-Q6), duels (TK-21), TK-5, TK-14, TK-18."""
        k = self.k
        while True:
            st = k[ST]
            if st == DUEL:
                self._duel()
            elif st == BATTLE:
                b = 15 + 15 * k[TP]
                if not k[FT] and self._can_act(b, b + F):
                    return
                self._start_turn(1 - k[TP], False)
            elif st == BLOCK:
                b = 30 - 15 * k[TP]
                if self._can_act(b, b + B):
                    return
                self._no_block()  # TK-18 nothing can block
            elif (not self.kdo or st > REVEAL_D or st == MULLIGAN or st == COIN or st == MAIN or st == POSS_A
                  or st == POSS_D):
                return
            else:  # a take stage with a known deck order (TK-Q6)
                o = 1 - k[TP] if st == DAMAGE or st == REVEAL_D else k[TP]
                b = 15 + 15 * o
                if st == SHUFFLE:
                    if self.tl[o] < k[b + N]:
                        return
                    if k[PD] == 1:
                        k[ST] = DEAL
                    elif o == 0:
                        k[TP] = 1
                    else:
                        k[ST], k[TP] = DEAL, 0
                elif self.tl[o]:
                    k[b + N] -= 1
                    self._took(o, self._pop_top(o))
                else:
                    return

    @cython.cfunc
    def _event(self, b: cython.int, no: cython.int, slot: cython.int) -> cython.void:
        """TK-24, TK-Q2: one event a main phase; it goes to the trash (core's ``event``)."""
        k = self.k
        tp, kind, value = k[TP], self.eff_kind[no], self.eff_value[no]
        k[b + H] -= ONE << 2 * self.kidx[tp * self.Y + no]
        k[b + TR], k[EV] = k[b + TR] + 1, 1
        o = (b if kind == E_BP else 45 - b) + (F if slot < 3 else B)  # the target's row
        if kind == E_DRAW:
            k[ST], k[PD] = EVDRAW, value - 1
        elif kind == E_READY:
            n = min(value, k[b + YS])
            k[b + YR], k[b + YS] = k[b + YR] + n, k[b + YS] - n
        elif kind == E_BP or kind == E_BANISH or kind == E_REST:
            y = k[o + slot % 3]
            self._remove_at(o, slot % 3)
            if kind == E_BANISH:
                k[45 - b + TR] += 1
            else:
                self._add_yokai(o, y + value if kind == E_BP else y | RESTED)
        elif kind == E_HEAL:  # face-down damage first; healed damage to the trash (TK-29)
            for i in range(value):
                if not k[b + DD] and not k[b + DU]:
                    break
                k[b + DD if k[b + DD] else b + DU] -= 1
                k[b + TR] += 1
        elif kind == E_CHARGE:  # TK-12
            for i in range(value):
                self._pop_top(tp)
                k[b + N], k[b + YR] = k[b + N] - 1, k[b + YR] + 1
                if k[b + N] <= 0:
                    self._lose(tp)
                    return
        elif kind == E_WIN:  # TK-8
            n = 0
            for i in range(6):  # yokai on the field
                n += k[b + F + i] != EMPTY
            if n >= value:
                k[ST], k[WN] = OVER, tp

    # -- playing a move (core's _main_play, _player, _attacker) ------------------------------------------
    @cython.cfunc
    def _rearrange(self, b: cython.int, move: cython.int) -> cython.void:
        """TK-13: the picked yokai change rows, marked (core's MOVE step)."""
        k, tmp = self.k, self.tmp
        nf, nb = 0, 0
        for s in range(6):
            y, moved = k[b + F + s], move >> s & 1
            y = y | MOVED if moved and y != EMPTY else y
            if y != EMPTY and moved == (s < 3):  # to the back: a front yokai moved, or a back one staying
                tmp[6 + nb], nb = y, nb + 1
            elif y != EMPTY:
                tmp[nf], nf = y, nf + 1
        for s in range(3):
            k[b + F + s], k[b + B + s] = tmp[s] if s < nf else EMPTY, tmp[6 + s] if s < nb else EMPTY
        self._add_yokai(b + F, k[b + F + 2])
        self._add_yokai(b + B, k[b + B + 2])

    @cython.cfunc
    def _play_main(self, move: cython.int) -> cython.void:
        """TK-13, TK-14, TK-24, TK-28: a main-phase move, settled (core's ``play_main``)."""
        k = self.k
        tp, kind = k[TP], move >> 24
        b = 15 + 15 * tp
        if kind == SUMMON:  # TK-13, TK-28 ready at once
            no = move >> 8 & 0xFFFF
            k[b + H] -= ONE << 2 * self.kidx[tp * self.Y + no]
            self._pay(b, self.cost[no], move & 15)
            self._add_yokai(b + B if move & 16 else b + F, ONE * no << 16)
        elif kind == MOVE:  # TK-13 (nothing to settle)
            self._rearrange(b, move)
            return
        elif kind == EVENT:
            self._event(b, move >> 8 & 0xFFFF, move & 15)
        elif kind == RELEASE:  # TK-13 make room
            self._remove_at(b + (F if (move & 7) < 3 else B), (move & 7) % 3)
            k[b + TR] += 1
        elif kind == ATTACK:
            self._attack(b, move)
        else:  # END, without battle
            self._start_turn(1 - k[TP], False)
        if kind == ATTACK or (kind != END and not self.move_once):
            self._clear_row(b + F, MOVED)  # after a summon, release or event moving is offered again
            self._clear_row(b + B, MOVED)
        self._settle()

    @cython.cfunc
    def _attack(self, b: cython.int, move: cython.int) -> cython.void:
        """TK-16: the attacker leaves the front row, its method paid; TK-17 the blocker likewise (back row)."""
        k = self.k
        i, m = move >> 8 & 3, move >> 4 & 15
        o = b + (B if move >> 24 == BLOCKM else F)
        y = k[o + i]
        no = y >> 16
        self._remove_at(o, i)
        self._pay(b, self.mcost[no * MM + m], move & 15)
        if o == b + F:
            self._end_battle(BLOCK)
            k[BA], k[BAB], k[BAM] = no, y & 0x3FFF, m
        else:
            k[BB], k[BBB], k[BBM], k[ST] = no, y & 0x3FFF, m, POSS_A

    @cython.ccall
    def play(self, move: cython.int) -> cython.void:
        """Play a move or a chance outcome, then what needs no decision (core's ``play``)."""
        k = self.k
        st, tp, kind = k[ST], k[TP], move >> 24
        if st == MAIN:
            self._play_main(move)
            return
        if st == BATTLE and kind == END:
            self._start_turn(1 - k[TP], False)
        elif st == BLOCK and kind == NOBLOCK:
            self._no_block()
        elif st == BATTLE or st == BLOCK:
            self._attack(15 + 15 * tp if st == BATTLE else 30 - 15 * tp, move)
        elif (st == POSS_A or st == POSS_D) and kind == PDECK:  # TK-19
            k[ST] = REVEAL_A if st == POSS_A else REVEAL_D
        elif st == POSS_A or st == POSS_D:
            if kind == PHAND:
                o, no = tp if st == POSS_A else 1 - tp, move >> 8 & 0xFFFF
                k[15 + 15 * o + H] -= ONE << 2 * self.kidx[o * self.Y + no]
                k[PSA if st == POSS_A else PSD] = no
            k[ST] = POSS_D if st == POSS_A else DUEL
        elif st == MULLIGAN:
            if kind == MULL:
                self._mulligan(15 + 15 * tp)
            else:
                self._after_mulligan()
        elif st == COIN:  # TK-4, TK-Q3
            self._start_turn(move, True)
        else:  # a card from the unknown part of a deck
            o = self._owner()
            b = 15 + 15 * o
            k[b + PO] -= ONE << 2 * move
            if st == SHUFFLE:  # TK-Q6 laid out in the known order
                self.top[o * self.CAP + self.tl[o]] = move
                self.tl[o] += 1
            else:
                k[b + N] -= 1
                self._took(o, move)
        self._settle()
