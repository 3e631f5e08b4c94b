# cython: boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Koi-koi Nobori's compact core on fixed-width words (issue X), in Cython's
pure-Python mode: compiled by Cython where it is built (``setup.py``,
``build_tools/build_compiled.py``), else run as this very Python (with
:mod:`cardlab._cython_shim` where Cython is absent), with the same results.

The rules are :mod:`.core`'s: its tables (:class:`.core._Tables`, built there by
calling :mod:`.rules`) are copied into flat typed arrays, and its steps (``play``,
``to_turn``, ``refill_or_turn``, ``captured``: KN-7 … KN-15, KN-Q3 … KN-Q7, KN-Q11)
are written here on words, each citing the same rule ids: no third copy of the
rules.  What :mod:`.core` memoises by calling :mod:`.rules` when first met (the moves
of :func:`.rules.turn_moves`, the koi-koi verdicts of
:func:`.rules.koikoi_after_nobori`) is memoised here the same way, in flat arrays
filled when first met, and so are the scores of :func:`.rules.score` (by one
player's nobori bits, where :mod:`.core` memoises both players' together) and the
payoffs of :func:`.rules.payoff` (by the difference).

A position is :mod:`.core`'s int in two 64-bit words (``lo``: bits 0-63, ``hi``:
bits 64-127; the default deck's position has 81 bits): a delta of :mod:`.core`'s
tables is added as a 128-bit two's complement pair (``lo`` with carry into
``hi``), a field is read by a 128-bit shift, a mask tested on both words.  So
:meth:`WordCore.load` and :meth:`WordCore.to_pos` are a split and a join, and the
moves, their order and their codes are :mod:`.core`'s.  Handled: every deck whose
position fits 128 bits, whose field's counts fit 16 bits together and each player's
nobori counts 18 (every option set of :data:`.core.TEST_OPTIONS`); :func:`make_word_core`
gives None otherwise.

:meth:`WordCore.playout` plays a random game drawn from ``rng`` exactly as
:func:`cardlab.cores.playout_from` draws it on :mod:`.core` (the same seeds, the same
games): each chance node by ``rng.randrange`` of its reduced weights' total (the
``_draw`` of :mod:`cardlab.cores`), each move by ``rng.choice``.
"""

from __future__ import annotations

import random
from array import array

try:
    import cython
except ImportError:  # pragma: no cover  (no Cython: the module runs as Python)
    from ... import _cython_shim as cython

from ... import core as _cardlab
from . import core as _core
from . import rules

__all__ = ["make_word_core", "WordCore", "compiled"]

#: whether this module runs compiled
compiled = cython.compiled
M64 = cython.declare(cython.ulonglong, 0xFFFFFFFFFFFFFFFF)
# core's stages (indexes in rules.STAGES) and move codes, as C constants
FIRST = cython.declare(cython.int, _core.FIRST)
DEAL = cython.declare(cython.int, _core.DEAL)
TURN = cython.declare(cython.int, _core.TURN)
REFL = cython.declare(cython.int, _core.REFL)
FUKI = cython.declare(cython.int, _core.FUKI)
KOIK = cython.declare(cython.int, _core.KOIK)
END = cython.declare(cython.int, _core.END)
CAPTURE = cython.declare(cython.int, _core.CAPTURE)
AGARI = cython.declare(cython.int, _core.AGARI)
KOIKOI = cython.declare(cython.int, _core.KOIKOI)
CHANCE0 = cython.declare(cython.int, _core.CHANCE0)
CHANCE = cython.declare(cython.int, _cardlab.CHANCE)
TERMINAL = cython.declare(cython.int, _cardlab.TERMINAL)
GO_ON = cython.declare(cython.int, rules.GO_ON)
CALL = cython.declare(cython.int, rules.CALL)
FAILED = cython.declare(cython.int, rules.FAILED)
HAND_SIZE = cython.declare(cython.int, rules.HAND_SIZE)
KB = cython.declare(cython.int, 2 * rules.K)  # a hand's kabutogaeshi count: bits KB, KB + 1 of its 10
MAXM = cython.declare(cython.int, 16)  # at most 15 moves a turn: 6 nobori, 3 plays, 6 kabuto


def make_word_core(game, core=None):
    """The word core of a Koi-koi Nobori game, or None where its deck is beyond it;
    ``core`` is the game's :mod:`.core` core (made here when not given)."""
    w = _Words(game, core if core is not None else _core.make_core(game))
    return WordCore(w) if w.ok else None


def _pairs(values):
    """Python ints (deltas, masks; negative ones too) as 128-bit two's complement
    pairs: ``lo, hi`` of each, side by side."""
    a = array("Q")
    for v in values:
        v &= (1 << 128) - 1
        a.extend((v & ((1 << 64) - 1), v >> 64))
    return a


class _Deltas:
    """core's tables of deltas and masks, each a run of 128-bit pairs in one array ``D``
    (a word core adds pair ``D[table's offset + i]`` for core's ``pos += table[i]``)."""

    def __init__(self):
        self.D, self.off = array("Q"), {}

    def put(self, name, values):
        """Table ``name``'s values after the others; its offset in ``off``."""
        self.off[name] = len(self.D) // 2
        self.D.extend(_pairs(values))


def _ints(values):
    return array("i", [int(v) for v in values])


class _Words:
    """The flat tables of one game's word cores, copied from :class:`.core._Tables`
    (shared by its word cores), and the memos filled when first met."""

    def __init__(self, game, core):
        self.game, self.core = game, core
        t = _core._Tables(game)
        B, self.B = t.B, t.B
        self.FS, field_bits = B.shift["field0"], t.FMASK >> B.shift["field0"]
        self.H0S, self.TS, self.NS = B.shift["hand0.0"], t.TS, t.NS
        self.NBM = t.NB
        self.ok = B.width <= 128 and field_bits.bit_length() <= 16 and t.NB.bit_length() <= 18
        if not self.ok:
            return
        self.koikoi = bool(game.options["koikoi"])
        self.after = 1 if game.options["refill_after_draw_capture"] else 2  # KN-Q3
        self.PLAYER, self.CK = _ints(t.PLAYER), _ints(t.CK)
        # deltas by sm (the stage bits: stage * 2 + mover) and masks, 128-bit pairs
        d = self.d = _Deltas()
        d.put("TD", [t.TD[sm][m] if t.TD[sm] else 0 for sm in range(32) for m in range(16)])
        d.put("CD", [t.CD[sm][CHANCE0 + i] for sm in range(32) for i in range(5)])
        d.put("FC", [t.FC[sm][c] for sm in range(32) for c in range(3)])
        d.put("NOBP", [t.NOB_P[sm][k] for sm in range(32) for k in range(6)])
        d.put("HANDP", [t.HAND_P[sm][i] for sm in range(32) for i in range(5)])
        for name in ("TURN_O", "END_O", "END_P", "REFL_P", "DRAWH_P", "KOIK_P", "FUKI_P", "KOI_P", "KOI_O", "WON_P"):
            d.put(name, getattr(t, name))
        self.NSP = _ints(t.NSP)
        d.put("FLD1", t.FLD1)
        d.put("FIRSTD", [t.DECK1[i] + t.SM[DEAL][i] for i in (0, 1)])  # KN-Q11: the player dealt first
        d.put("THN", [then << t.TS for then in range(4)])
        for name in ("DECKM", "CARPM", "HCARP"):  # masks: the deck, its carp, KN-Q4's
            d.put(name, [getattr(t, name)])
        # FI by the field's bits, DC by FI and card
        self.FI = _ints(t.FI.get(f << self.FS, 0) for f in range(field_bits + 1))
        self.DC = _ints(t.DC[fi][i] for fi in range(32) for i in range(5))
        self._hands(t)
        # the deck's fields (the chance outcomes, KN-7, KN-8, KN-10, KN-Q8) and the nobori's within a player's block
        self.DSH = _ints(B.shift[f"deck{i}"] for i in range(5))
        self.DMK = _ints(B.mask[f"deck{i}"] for i in range(5))
        self.NOFF = _ints(B.shift[f"nobori0.{k}"] - t.NS[0] for k in range(6))
        self.NMK = _ints(B.mask[f"nobori0.{k}"] for k in range(6))
        # memos: koi-koi verdicts by (the mover's nobori bits, calls), moves by (hand, colours, deck, held)
        self.VER = array("i", [-1]) * (1 << (t.NB.bit_length() + 2))
        self.MVN = array("i", [-1]) * (self.NH * 8 * 2 * 64)
        self.MV = array("i", [0]) * (self.NH * 8 * 2 * 64 * MAXM)
        self.FUKM = _ints([0] * (8 * 4))
        for col in range(8):  # KN-10, KN-2: a drawn fukinagashi picks its carp (core's turn_moves at 'fuki')
            kinds = rules.draw_capture(rules.F, _core._presence(col))
            self.FUKM[col * 4] = len(kinds)
            for j, k in enumerate(kinds):
                self.FUKM[col * 4 + 1 + j] = CAPTURE + k - 3
        self.presence = [_core._presence(col) for col in range(8)]  # the field's colours as counts 0 or 1
        self.held = [tuple(held >> k & 1 for k in range(6)) for held in range(64)]  # as core's HELD_T
        self.SC = array("i", [0]) * (2 << t.NB.bit_length())  # scores by (nobori bits, koi-koi won), when SCN
        self.SCN = array("i", [0]) * (2 << t.NB.bit_length())
        self.WONS = B.shift["won"]
        self.payoffs = {}

    def _hands(self, t):
        """KN-7, KN-12, KN-Q4: core's tables keyed by hands (ACT by both hands, HSUM,
        DEAL_TO), by each hand's 10 bits: ``HX`` numbers the hands that occur."""
        H0S = self.H0S
        hands = sorted({k >> H0S & 1023 for k in t.ACT})
        self.NH = len(hands)
        self.hands = [_core._hand_counts(b) for b in hands]  # each hand as counts (core's _hand_counts)
        self.HX = _ints([-1] * 1024)
        for j, b in enumerate(hands):
            self.HX[b] = j
        self.ACT = _ints([0] * (self.NH * self.NH))
        for k, v in t.ACT.items():
            self.ACT[self.HX[k >> H0S & 1023] * self.NH + self.HX[k >> (H0S + 10) & 1023]] = v
        self.HS = _ints(t.HSUM.get(b << (H0S + 10 * p), 0) for p in (0, 1) for b in range(1024))
        self.d.put("DT", [t.DEAL_TO[p][b << (H0S + 10 * p)][i] if b << (H0S + 10 * p) in t.DEAL_TO[p] else 0
                           for p in (0, 1) for b in range(1024) for i in range(5)])

    def score(self, key):
        """KN-13, KN-14, KN-15: :func:`.rules.score` of one player's nobori (``key >> 1``:
        their bits) with the koi-koi bonus or not (``key & 1``), memoised (core's ``returns``)."""
        nob = key >> 1 << self.NS[0]
        nobori = tuple(self.B.get(nob, f"nobori0.{k}") for k in range(6))
        game = self.game
        self.SC[key] = rules.score(nobori, game.points, game.fuki_points, game.role_list, bool(key & 1))
        self.SCN[key] = 1
        return self.SC[key]

    def payoff(self, difference):
        """KN-13, KN-Q10: the returns of a score difference (core's ``returns``), memoised."""
        d = rules.payoff(difference, self.game.options["payoff"])
        r = self.payoffs[difference] = (d, -d)
        return r

    def verdict(self, key):
        """KN-15, KN-Q7: core's verdict of ``key`` (the mover's nobori bits << 2, the
        opponent's call << 1, the mover's call), memoised."""
        nob = key >> 2 << self.NS[0]
        count = sum(self.B.get(nob, f"nobori0.{k}") for k in range(6))
        v = self.VER[key] = rules.koikoi_after_nobori(count, rules.KOIKOI_AT if key & 1 else 0, bool(key & 2))
        return v

    def turn_moves(self, key, hand, col, deck, held):
        """KN-8 … KN-11, KN-Q4, KN-Q6: core's turn moves of ``hand`` (its 10 bits) with
        the colours ``col`` on the field, the deck (not) empty and the opponent's nobori
        kinds ``held`` (each bit: one or more of that kind), memoised at ``key``."""
        moves = rules.turn_moves(deck, self.presence[col], self.hands[self.HX[hand]], self.held[held])
        for j, (verb, i) in enumerate(moves):
            self.MV[key * MAXM + j] = _core.VERB_CODE[verb] + i
        self.MVN[key] = len(moves)
        return len(moves)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
def _gcd(a: cython.longlong, b: cython.longlong) -> cython.longlong:
    while b:
        a, b = b, a % b
    return a


@cython.cclass
class WordCore:
    """One Koi-koi Nobori game's rules on C words, and one position of it (mutable)."""

    lo: cython.ulonglong
    hi: cython.ulonglong
    FS: cython.int
    FM: cython.ulonglong
    H0S: cython.int
    TS: cython.int
    NS0: cython.int
    NS1: cython.int
    NBM: cython.ulonglong
    NH: cython.int
    koikoi: cython.bint
    after: cython.int
    D: cython.ulonglong[:]
    PLAYER: cython.int[:]
    CK: cython.int[:]
    TD: cython.int
    CD: cython.int
    FC: cython.int
    NOBP: cython.int
    HANDP: cython.int
    TURN_O: cython.int
    END_O: cython.int
    END_P: cython.int
    REFL_P: cython.int
    DRAWH_P: cython.int
    KOIK_P: cython.int
    FUKI_P: cython.int
    KOI_P: cython.int
    KOI_O: cython.int
    WON_P: cython.int
    NSP: cython.int[:]
    FLD1: cython.int
    FIRSTD: cython.int
    THN: cython.int
    DECKM: cython.int
    CARPM: cython.int
    HCARP: cython.int
    FI: cython.int[:]
    DC: cython.int[:]
    HX: cython.int[:]
    ACT: cython.int[:]
    HS: cython.int[:]
    DT: cython.int
    DSH: cython.int[:]
    DMK: cython.int[:]
    NOFF: cython.int[:]
    NMK: cython.int[:]
    VER: cython.int[:]
    MVN: cython.int[:]
    MV: cython.int[:]
    FUKM: cython.int[:]
    buf: cython.int[:]
    wt: cython.longlong[:]
    w: object
    SC: cython.int[:]
    SCN: cython.int[:]
    WONS: cython.int
    payoffs: dict
    bits: object
    randrange: object

    def __init__(self, w) -> None:
        self.w, self.payoffs, self.SC, self.SCN, self.WONS = w, w.payoffs, w.SC, w.SCN, w.WONS
        self.FS, self.FM, self.H0S, self.TS = w.FS, len(w.FI) - 1, w.H0S, w.TS
        self.NS0, self.NS1, self.NBM, self.NH = w.NS[0], w.NS[1], w.NBM, w.NH
        self.koikoi, self.after = w.koikoi, w.after
        self.PLAYER, self.CK, self.NSP = w.PLAYER, w.CK, w.NSP
        off = w.d.off  # each table of deltas or masks: its offset in D
        self.D, self.TD, self.CD, self.FC, self.NOBP = w.d.D, off["TD"], off["CD"], off["FC"], off["NOBP"]
        self.HANDP, self.TURN_O, self.END_O, self.END_P = off["HANDP"], off["TURN_O"], off["END_O"], off["END_P"]
        self.REFL_P, self.DRAWH_P, self.KOIK_P, self.FUKI_P = off["REFL_P"], off["DRAWH_P"], off["KOIK_P"], off["FUKI_P"]
        self.KOI_P, self.KOI_O, self.WON_P, self.DT = off["KOI_P"], off["KOI_O"], off["WON_P"], off["DT"]
        self.FLD1, self.FIRSTD, self.THN = off["FLD1"], off["FIRSTD"], off["THN"]
        self.DECKM, self.CARPM, self.HCARP = off["DECKM"], off["CARPM"], off["HCARP"]
        self.FI, self.DC, self.HX, self.ACT, self.HS = w.FI, w.DC, w.HX, w.ACT, w.HS
        self.DSH, self.DMK, self.NOFF, self.NMK = w.DSH, w.DMK, w.NOFF, w.NMK
        self.VER, self.MVN, self.MV, self.FUKM = w.VER, w.MVN, w.MV, w.FUKM
        self.buf = array("i", [0] * MAXM)
        self.wt = array("q", [0] * MAXM)
        self.lo = self.hi = 0

    @cython.ccall
    def copy_from(self, other: WordCore) -> cython.void:
        """Set this position to ``other``'s (a word core of the same game)."""
        self.lo, self.hi = other.lo, other.hi

    # -- conversions: core's int position in and out ---------------------------------------
    def load(self, pos) -> None:
        """Set this position to :mod:`.core`'s ``pos``."""
        self.lo, self.hi = pos & 0xFFFFFFFFFFFFFFFF, pos >> 64

    def to_pos(self):
        """This position as :mod:`.core`'s int."""
        hi: object = self.hi
        return hi << 64 | self.lo

    def key(self) -> tuple:
        """This position as a hashable (its two words), equal exactly where :meth:`to_pos` is."""
        return (self.lo, self.hi)

    # -- words: add a delta, read a field, test a mask ------------------------------------------
    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _add(self, j: cython.int) -> cython.void:
        """Add the 128-bit pair ``j`` of ``D`` (core's ``pos += T[i]``: ``j`` is table T's
        offset + i)."""
        lo: cython.ulonglong = (self.lo + self.D[2 * j]) & M64
        self.hi = (self.hi + self.D[2 * j + 1] + (1 if lo < self.lo else 0)) & M64
        self.lo = lo

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _sub(self, j: cython.int) -> cython.void:
        """Subtract the 128-bit pair ``j`` of ``D`` (core's ``pos -= T[i]``)."""
        lo: cython.ulonglong = (self.lo - self.D[2 * j]) & M64
        self.hi = (self.hi - self.D[2 * j + 1] - (1 if lo > self.lo else 0)) & M64
        self.lo = lo

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _get(self, s: cython.int, m: cython.ulonglong) -> cython.ulonglong:
        """The field at bit ``s`` with mask ``m`` (core's ``pos >> s & m``)."""
        if s >= 64:
            return (self.hi >> (s - 64)) & m
        if s == 0:
            return self.lo & m
        return ((self.lo >> s) | (self.hi << (64 - s))) & m

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _has(self, j: cython.int) -> cython.bint:
        """Whether this position has a bit of the mask pair ``j`` of ``D`` (core's ``pos & M``)."""
        return (self.lo & self.D[2 * j]) != 0 or (self.hi & self.D[2 * j + 1]) != 0

    @cython.cfunc
    @cython.inline
    @cython.exceptval(check=False)
    def _fi(self) -> cython.int:
        """KN-8: core's FI of the field (colours present << 1, 16 when full)."""
        return self.FI[(self.lo >> self.FS) & self.FM] if self.FS + 16 <= 64 else self.FI[self._get(self.FS, self.FM)]

    # -- the protocol of cardlab.cores on this position --------------------------------------
    def player(self) -> int:
        return self.PLAYER[self.lo & 31]

    def moves(self) -> list:
        """The legal moves (or the chance outcomes), in :mod:`.core`'s order."""
        k: cython.int = self._moves()
        return [self.buf[i] for i in range(k)]

    def chance(self) -> list:
        """The chance outcomes and their weights (core's ``chance``): none but at a chance node."""
        k: cython.int = self._moves() if self.PLAYER[self.lo & 31] == CHANCE else 0
        return [(self.buf[i], self.wt[i]) for i in range(k)]

    def play(self, m: cython.int) -> None:
        """Play move (or chance outcome) ``m`` on this position."""
        self._play(m)

    @cython.ccall
    def returns(self) -> tuple:
        """:mod:`.core`'s returns (KN-13 … KN-15, KN-Q10): each player's score, then the payoff."""
        if (self.lo & 31) >> 1 != END:
            return tuple(self.w.core.returns(self.to_pos()))
        won: cython.int = self._get(self.WONS, 3)  # 1 + the koi-koi winner (0: none)
        k0: cython.int = self._get(self.NS0, self.NBM) << 1 | (1 if won == 1 else 0)
        k1: cython.int = self._get(self.NS1, self.NBM) << 1 | (1 if won == 2 else 0)
        s0: cython.int = self.SC[k0] if self.SCN[k0] else self.w.score(k0)
        s1: cython.int = self.SC[k1] if self.SCN[k1] else self.w.score(k1)
        r = self.payoffs.get(s0 - s1)
        return r if r is not None else self.w.payoff(s0 - s1)

    def perft(self, depth: cython.int) -> int:
        """The number of lines of ``depth`` steps from this position (fewer where the game
        ends; chance outcomes count as steps): the tree walk under a search, on words."""
        stack = [WordCore(self.w) for _ in range(depth)]
        return self._perft(depth, stack)

    @cython.cfunc
    def _perft(self, depth: cython.int, stack: list) -> cython.longlong:
        if depth == 0 or self.PLAYER[self.lo & 31] == TERMINAL:
            return 1
        child: WordCore = stack[depth - 1]
        total: cython.longlong = 0
        i: cython.int
        k: cython.int = self._moves()
        for i in range(k):
            child.lo, child.hi = self.lo, self.hi
            child._play(self.buf[i])
            total += child._perft(depth - 1, stack)
        return total

    def playout(self, rng, limit: cython.int = 10_000) -> tuple:
        """A random game from this position, drawn from ``rng`` as
        :func:`cardlab.cores.playout_from` draws it on :mod:`.core`: ``(returns, steps)``."""
        # Random.randrange(n) and Random.choice are _randbelow(n): getrandbits(n.bit_length())
        # until below n; drawn here the same way without its Python frames (a subclass: its randrange)
        self.randrange = rng.randrange
        self.bits = rng.getrandbits if type(rng) is random.Random else None
        steps: cython.int = 0
        sm: cython.int
        p: cython.int
        k: cython.int
        i: cython.int
        g: cython.longlong
        total: cython.longlong
        r: cython.longlong
        while True:
            sm = self.lo & 31
            p = self.PLAYER[sm]
            if p == TERMINAL:
                break
            if steps == limit:
                return (0, 0), steps
            if sm >> 1 == TURN:  # rng.choice(moves), from the memo
                k = self._turn_key(p)
                self._play(self.MV[k * MAXM + self._below(self.MVN[k])])
                steps += 1
                continue
            k = self._moves()
            if p >= 0:  # rng.choice(moves)
                self._play(self.buf[self._below(k)])
            else:  # cardlab.cores._draw: randrange of the reduced weights' total, the first outcome past it
                g = self.wt[0]
                i = 1
                while i < k and g != 1:  # (most often 1 after a few: no division then)
                    g = _gcd(self.wt[i], g)
                    i += 1
                total = 0
                for i in range(k):
                    total += self.wt[i] if g == 1 else self.wt[i] // g
                r = self._below(total)
                total = 0
                i = 0
                while True:
                    total += self.wt[i] if g == 1 else self.wt[i] // g
                    if r < total:
                        break
                    i += 1
                self._play(self.buf[i])
            steps += 1
        return self.returns(), steps

    @cython.cfunc
    def _below(self, n: cython.longlong) -> cython.longlong:
        """``rng.randrange(n)`` (and ``rng.choice`` of ``n`` things): the same number."""
        k: cython.int = 0
        r: cython.longlong
        if n <= 0:  # as randrange (nothing to draw from: never on a position of the core's)
            raise ValueError("empty range in WordCore.playout")
        if self.bits is None:
            return self.randrange(n)
        while n >> k:
            k += 1
        r = self.bits(k)
        while r >= n:
            r = self.bits(k)
        return r

    # -- the moves and chance outcomes (core's moves and chance) ---------------------------------
    @cython.cfunc
    def _moves(self) -> cython.int:
        """The moves, or the chance outcomes (their weights into ``wt``), into ``buf``; their number."""
        sm: cython.int = self.lo & 31
        stage: cython.int = sm >> 1
        p: cython.int = sm & 1
        i: cython.int
        n: cython.int
        k: cython.int = 0
        if stage == TURN:
            return self._turn_moves(p)
        if self.PLAYER[sm] == CHANCE:  # chance: KN-Q11 the first player, KN-7, KN-8, KN-10, KN-Q8 the deck's cards
            if stage == FIRST:
                self.buf[0], self.buf[1], self.wt[0], self.wt[1] = CHANCE0, CHANCE0 + 1, 1, 1
                return 2
            for i in range(3 if stage == REFL else 5):  # KN-8 (2), KN-Q5: the refill reveals the carp
                n = self._get(self.DSH[i], self.DMK[i])
                if n:
                    self.buf[k], self.wt[k] = CHANCE0 + i, n
                    k += 1
            return k
        if stage == FUKI:  # KN-10, KN-2: the drawn fukinagashi's carp
            i = (self._fi() >> 1 & 7) * 4
            for k in range(self.FUKM[i]):
                self.buf[k] = self.FUKM[i + 1 + k]
            return self.FUKM[i]
        if stage == KOIK:  # KN-15
            self.buf[0], self.buf[1] = AGARI, KOIKOI
            return 2
        return 0

    @cython.cfunc
    def _turn_moves(self, p: cython.int) -> cython.int:
        """KN-8 … KN-11, KN-Q4, KN-Q6: core's turn moves into ``buf``; their number."""
        key: cython.int = self._turn_key(p)
        j: cython.int
        for j in range(self.MVN[key]):
            self.buf[j] = self.MV[key * MAXM + j]
        return self.MVN[key]

    @cython.cfunc
    def _turn_key(self, p: cython.int) -> cython.int:
        """KN-8 … KN-11, KN-Q4, KN-Q6: where core's turn moves are memoised (``MVN[key]`` of
        them from ``MV[key * MAXM]``), by the mover's hand, the colours on the field, the
        deck (not) empty and, with a kabutogaeshi in hand, the kinds of the opponent's
        nobori; memoised when first met."""
        hand: cython.int = self._get(self.H0S + 10 * p, 1023)
        col: cython.int = self._fi() >> 1 & 7
        deck: cython.int = 1 if self._has(self.DECKM) else 0
        held: cython.int = 0
        k: cython.int
        if hand >> KB & 3:
            nob: cython.ulonglong = self._get(self.NS0 if p else self.NS1, self.NBM)
            for k in range(6):
                if nob >> self.NOFF[k] & self.NMK[k]:
                    held |= 1 << k
        key: cython.int = ((self.HX[hand] * 8 + col) * 2 + deck) * 64 + held
        if self.MVN[key] < 0:
            self.w.turn_moves(key, hand, col, deck, held)
        return key

    # -- the steps on words (core's play, to_turn, refill_or_turn, captured) ---------------------
    @cython.cfunc
    def _play(self, m: cython.int) -> cython.void:
        """A chance outcome or a player's move (core's ``play``)."""
        sm: cython.int = self.lo & 31
        k: cython.int
        i: cython.int
        kind: cython.int
        p: cython.int
        then: cython.int
        if m >= CHANCE0:
            i = m - CHANCE0
            self._add(self.CD + sm * 5 + i)  # the card leaves the deck (into a hand or the field), sm cleared
            k = self.CK[sm]
            if k == 1:  # after a hand draw or a refill: refill (again) or the turn ends (KN-8)
                self._refill_or_turn(sm)
            elif k == 2:  # KN-10: a drawn card that pairs is captured at once
                kind = self.DC[self._fi() * 5 + i]
                if kind >= 0:
                    self._add(self.NOBP + sm * 6 + kind)
                    self._sub(self.FLD1 + kind % 3)
                    self._captured(sm, self.after)
                elif kind == -2:  # KN-2: the player picks the carp
                    self._add(self.THN + self.after)
                    self._add(self.FUKI_P + sm)
                else:
                    self._add(self.HANDP + sm * 5 + i)
                    self._to_turn(sm)
            elif k == 3:  # KN-7: 3 to the first player (the mover), then 3 to the other
                p = sm & 1
                self._add(self.DT + (p * 1024 + self._get(self.H0S + 10 * p, 1023)) * 5 + i)
                if self.HS[(1 - p) * 1024 + self._get(self.H0S + 10 * (1 - p), 1023)] < HAND_SIZE:
                    self.lo += sm
                else:
                    self._to_turn(sm ^ 1)  # the first player's turn (KN-7)
            else:  # FIRST, KN-Q11: that player is dealt first
                self._add(self.FIRSTD + i)
            return
        if m < 16:  # a turn move
            self._add(self.TD + sm * 16 + m)
            if m < 6:  # KN-8: a nobori, then draw 1 and refill
                self._captured(sm, 1)
            elif m >= 9:  # KN-11, KN-Q4: the turn ends (m < 9: KN-10, the draw follows)
                self._to_turn(sm)
            return
        then = self._get(self.TS, 3)
        if m < AGARI:  # the drawn fukinagashi takes its carp (KN-10, KN-2)
            self._add(self.FC + sm * 3 + m - CAPTURE)
            self._sub(self.THN + then)
            self._captured(sm, then)
            return
        self.lo -= sm
        self._sub(self.THN + then)
        if m == AGARI:  # KN-15
            self._add(self.END_P + sm)
            return
        # KN-15, KN-Q7: koi-koi, called at the third nobori; then the draw or refill
        self._add(self.KOI_P + sm)
        if then == 1 and self._has(self.DECKM):
            self._add(self.DRAWH_P + sm)
        else:
            self._refill_or_turn(sm)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _to_turn(self, sm: cython.int) -> cython.void:
        """The other player's turn, or the end when neither can make a nobori (KN-12, KN-Q4)."""
        hands: cython.int
        if self._has(self.HCARP) and self._has(self.DECKM):  # the fast case of the KN-Q4 test
            self._add(self.TURN_O + sm)
            return
        hands = self._get(self.H0S, 0xFFFFF)
        if (self.ACT[self.HX[hands & 1023] * self.NH + self.HX[hands >> 10]]
                >> ((self._fi() & 14) | (1 if self._has(self.DECKM) else 0)) & 1):
            self._add(self.TURN_O + sm)
        else:
            self._add(self.END_O + sm)

    @cython.cfunc
    @cython.exceptval(check=False)
    def _refill_or_turn(self, sm: cython.int) -> cython.void:
        """KN-8 (2): a field short of 3 cards is refilled while the deck holds a carp
        (KN-Q5); else the turn ends."""
        if not self._fi() & 16 and self._has(self.CARPM):
            self._add(self.REFL_P + sm)
        else:
            self._to_turn(sm)

    @cython.cfunc
    def _captured(self, sm: cython.int, then: cython.int) -> cython.void:
        """After a new nobori of the mover: koi-koi (KN-15, KN-Q7), then ``then`` (1: draw 1
        and refill, KN-8; 2: refill only, KN-Q3).  The stage bits are cleared; ``sm`` held them."""
        key: cython.int
        v: cython.int
        if self.koikoi:
            key = (self._get(self.NSP[sm], self.NBM) << 2 | (2 if self._has(self.KOI_O + sm) else 0)
                   | (1 if self._has(self.KOI_P + sm) else 0))
            v = self.VER[key]
            if v < 0:
                v = self.w.verdict(key)
            if v != GO_ON:
                if v == FAILED:  # the opponent's koi-koi fails
                    self._add(self.END_P + sm)
                elif v == CALL:
                    self._add(self.THN + then)
                    self._add(self.KOIK_P + sm)
                else:  # one more than at the call
                    self._add(self.WON_P + sm)
                    self._add(self.END_P + sm)
                return
        if then == 1 and self._has(self.DECKM):  # KN-8 (1): no draw from an empty deck
            self._add(self.DRAWH_P + sm)
        else:
            self._refill_or_turn(sm)
