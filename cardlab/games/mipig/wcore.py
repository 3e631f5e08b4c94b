"""mipig's compact core on fixed-width words (issue X, item 1: a prototype of the
playout path), in Cython's pure-Python mode: compiled by Cython where it is built
(``build_tools/build_compiled.py``), else run as this very Python (with
:mod:`cardlab._cython_shim` where Cython is absent), with the same results.

The rules are :mod:`.core`'s: its tables (built there by calling :mod:`.rules`)
are copied into flat typed arrays, and the steps of the hot phases (the deal
MP-3, the placement MP-5 … MP-9, MP-Q4, the battle MP-10 … MP-23 and its end
MP-23 … MP-25) are :mod:`.core`'s steps written on C words: no third copy of the
rules.  The rare phases (the jankens MP-4, MP-25 and the coin MP-Q2: at most a few
steps a game) go through :mod:`.core` itself, the position converted both ways.

A position is one mutable :class:`WordCore`: the header and the face-up counts as
in :mod:`.core` (one word each), the hands, graveyards and shown sets as 64-bit
sets of local cards, and the field as a mailbox: a board of ``B = 4n + 3`` columns
of ``B`` squares (``board[x*B + y]`` = local card + 1, owner << 7, face up << 8)
and the occupied squares ascending (``sq``), which is :mod:`.core`'s square order,
so moves, their order and their codes are :mod:`.core`'s.  A field loaded from a
position starts at ``(OFF, OFF)``, ``OFF = 2n + 1``; a field of ``2n`` cards at
most never leaves the board from there.  Handled: one copy of a card per hand
(``w == 1``) and at most 64 local cards; :func:`make_word_core` gives None
otherwise.

:meth:`WordCore.to_pos` and :meth:`WordCore.load` convert to and from
:mod:`.core`'s int position; :meth:`WordCore.playout` plays a random game drawn
from ``rng`` exactly as :func:`cardlab.cores.playout_from` draws it (the same
seeds, the same games).
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
from . import key

__all__ = ["make_word_core", "WordCore", "compiled"]

#: whether this module runs compiled
compiled = cython.compiled
ONE = cython.declare(cython.ulonglong, 1)
# the phases (key.py) as C constants
DEAL = cython.declare(cython.int, key.DEAL)
JANKEN = cython.declare(cython.int, key.JANKEN)
COIN = cython.declare(cython.int, key.COIN)
PLACE = cython.declare(cython.int, key.PLACE)
BATTLE = cython.declare(cython.int, key.BATTLE)
TIEBREAK = cython.declare(cython.int, key.TIEBREAK)
END = cython.declare(cython.int, key.END)
_K = cython.declare(cython.int, 12)  # placement move: card << _K | square (core._K)
_MODES = {"janken": 0, "value": 1, "draw": 2}


def make_word_core(game, core=None):
    """The word core of a mipig game, or None where its options are beyond it; ``core``
    is the game's :mod:`.core` core (made here when not given)."""
    t = _core._layout(game)
    if t.w != 1 or t.U > 64:
        return None
    _core._rule_tables(game, t)
    return WordCore(t, core if core is not None else _core.make_core(game))


@cython.cfunc
@cython.inline
def _popcount(x: cython.ulonglong) -> cython.int:
    k: cython.int = 0
    while x:
        x &= x - ONE
        k += 1
    return k


@cython.cfunc
def _nth(x: cython.ulonglong, i: cython.int) -> cython.int:
    """The index of the ``i``-th set bit of ``x`` (from 0, lowest first)."""
    c: cython.int = 0
    while True:
        if x & ONE:
            if i == 0:
                return c
            i -= 1
        x >>= 1
        c += 1


def _ints(kind, values):
    return array(kind, [int(v) for v in values])


@cython.cclass
class WordCore:
    """One mipig game's rules on C words, and one position of it (mutable)."""

    n: cython.int
    S: cython.int
    B: cython.int
    OFF: cython.int
    U: cython.int
    n2: cython.int
    OUT: cython.int
    tb: cython.int
    shared: cython.bint
    score: cython.bint
    every_all: cython.bint
    KEEP_FH: cython.ulonglong
    DRAW: cython.ulonglong
    a_num: cython.int[:]
    d_num: cython.int[:]
    attr: cython.int[:]
    mark: cython.int[:]
    diff: cython.int[:]
    jk: cython.int[:]
    jv: cython.int[:]
    settled: cython.int[:]
    dabs: cython.int[:]
    by_diff: cython.ulonglong[:]
    head: cython.ulonglong
    cnt: cython.ulonglong
    h0: cython.ulonglong
    h1: cython.ulonglong
    g0: cython.ulonglong
    g1: cython.ulonglong
    s0: cython.ulonglong
    s1: cython.ulonglong
    board: cython.int[:]
    sq: cython.int[:]
    buf: cython.int[:]
    nf: cython.int
    minx: cython.int
    miny: cython.int
    maxx: cython.int
    maxy: cython.int
    JANKEN0: cython.ulonglong
    COIN3: cython.ulonglong
    COIN4: cython.ulonglong
    COIN5: cython.ulonglong
    FIXED: cython.ulonglong
    fp: cython.int
    open_hands: cython.bint
    rounds: cython.bint
    cap: cython.longlong
    PEND: cython.int
    PM: cython.int
    decides: cython.int[:]
    win3: cython.int[:]
    beat_mark: cython.int[:]
    pick_end: cython.ulonglong[:]
    mark_w: cython.ulonglong[:]
    beats_w: cython.ulonglong[:]
    core: object
    t: object
    bits: object
    randrange: object

    def __init__(self, t, core) -> None:
        self.t, self.core = t, core
        n, U = t.n, t.U
        self.n, self.S, self.U, self.n2 = n, t.S, U, 2 * n
        self.B, self.OFF = 4 * n + 3, 2 * n + 1
        self.OUT = t.OUT
        self.tb = _MODES[t.opts["tiebreak"]]
        self.shared = t.opts["deal"] == "shared"
        self.score = t.opts["payoff"] == "score"
        self.every_all = t.opts["tiebreak_cards"] == "all_on_field"
        self.KEEP_FH = t.KEEP_FH
        self.DRAW = END | t.code_of[0] << t.OUT
        self.a_num = _ints("i", [t.a_num[k][c] for k in range(4) for c in range(U)])
        self.d_num = _ints("i", [t.d_num[k][c] for k in range(4) for c in range(U)])
        self.attr, self.mark = _ints("i", t.attr), _ints("i", t.mark)
        self.diff, self.jk = _ints("i", t.DIFF), _ints("i", t.jk)
        self.jv = _ints("i", [t.jv.get(b, 0) for b in range(64)])
        self.settled = _ints("i", t.settled)
        B = self.B
        self.dabs = _ints("i", [dx * B + dy for dx, dy in _core.rules.STEPS])
        self.by_diff = _ints("Q", t.by_diff)
        self._janken_tables(t)
        self.board = _ints("i", [0] * (B * B))
        self.sq = _ints("i", [0] * (2 * n + 1))
        self.buf = _ints("i", [0] * (B * B))
        self.nf = 0
        self.minx = self.miny = self.maxx = self.maxy = self.OFF

    def _janken_tables(self, t) -> None:
        """MP-4, MP-25, MP-Q2, MP-Q3: core's tables of the jankens and the coin, and the
        headers they lead to (core's ``header``)."""
        fp, h = t.opts["first_player"], t.header
        self.fp = fp if fp in (0, 1) else 2 if fp == "random" else 3
        self.FIXED = h(PLACE, fp, fp, 1) if fp in (0, 1) else 0
        self.COIN3, self.COIN4, self.COIN5 = h(COIN, 0, -1, 3), h(COIN, 0, -1, 4), h(COIN, 0, -1, 5)
        self.JANKEN0 = h(JANKEN, 0, -1, 0)
        self.open_hands, self.rounds, self.cap = t.opts["open_hands"], t.rounds is not None, t.cap
        self.PEND, self.PM = t.PEND, (1 << t.PB) - 1
        self.decides, self.win3, self.beat_mark = _ints("i", t.decides), _ints("i", t.win3), _ints("i", t.beat_mark)
        self.pick_end = _ints("Q", [END | 8 | t.code_of[t.win3[i]] << t.OUT for i in range(9)])
        self.mark_w, self.beats_w = _ints("Q", t.mark_w), _ints("Q", t.beats_w)

    @cython.ccall
    def copy_from(self, other: WordCore) -> cython.void:
        """Set this position to ``other``'s (a core of the same game)."""
        i: cython.int
        for i in range(self.nf):
            self.board[self.sq[i]] = 0
        self.head, self.cnt = other.head, other.cnt
        self.h0, self.h1, self.g0, self.g1, self.s0, self.s1 = other.h0, other.h1, other.g0, other.g1, other.s0, other.s1
        self.nf = other.nf
        for i in range(self.nf):
            self.sq[i] = other.sq[i]
            self.board[self.sq[i]] = other.board[self.sq[i]]
        self._bounds()

    # -- conversions: core's int position in and out ---------------------------------------
    def load(self, pos) -> None:
        """Set this position to :mod:`.core`'s ``pos``."""
        t = self.t
        i: cython.int
        for i in range(self.nf):
            self.board[self.sq[i]] = 0
        self.head = pos & t.HEAD
        self.cnt = (pos >> t.CNT) & ((1 << 40) - 1)
        self.h0, self.h1 = (pos >> t.H0) & t.HM, (pos >> t.H1) & t.HM
        self.g0, self.g1 = (pos >> t.G0) & t.HM, (pos >> t.G1) & t.HM
        self.s0, self.s1 = (pos >> t.S0) & t.SM, (pos >> t.S1) & t.SM
        ms = pos >> t.M
        occ, own, up = ms & t.WM, (ms >> t.W) & t.WM, ms >> t.W2
        cards = (pos >> t.C) & t.CM
        S, B, OFF = t.S, self.B, self.OFF
        k = 0
        while occ:
            b = occ & -occ
            q = b.bit_length() - 1
            a = (OFF + q // S) * B + OFF + q % S
            self.board[a] = (cards & t.cm) + 1 | (own >> q & 1) << 7 | (up >> q & 1) << 8
            self.sq[k] = a
            k += 1
            cards >>= t.cb
            occ ^= b
        self.nf = k
        self._bounds()

    def to_pos(self):
        """This position as :mod:`.core`'s int."""
        t = self.t
        one: object = 1
        occ: object = 0
        own: object = 0
        up: object = 0
        cards: object = 0
        S, B = t.S, self.B
        for i in range(self.nf):
            a = self.sq[i]
            q = (a // B - self.minx) * S + a % B - self.miny
            v = self.board[a]
            occ |= one << q
            if v & 128:
                own |= one << q
            if v & 256:
                up |= one << q
            card: object = (v & 127) - 1
            cards |= card << (i * t.cb)
        pos: object = self.head
        words = [(self.cnt, t.CNT), (self.h0, t.H0), (self.h1, t.H1), (self.g0, t.G0), (self.g1, t.G1),
                 (self.s0, t.S0), (self.s1, t.S1)]
        for v, off in words:
            pos |= v << off
        return pos | cards << t.C | (occ | own << t.W | up << t.W2) << t.M

    @cython.ccall
    @cython.cdivision(True)
    def key(self) -> tuple:
        """This position as a tuple of words, equal exactly where :meth:`to_pos` is (the
        exact search's table key): the header, hands, graveyards, shown sets, then the
        field's cards, three a word (square from the smallest x and y << 9 | card + 1,
        owner << 7, face up << 8); the face-up counts follow from the field."""
        i: cython.int
        a: cython.int
        k: cython.int = 0
        f: cython.ulonglong = 0
        B: cython.int = self.B
        words = [self.head, self.h0, self.h1, self.g0, self.g1, self.s0, self.s1]
        for i in range(self.nf):
            a = self.sq[i]
            f = f << 21 | cython.cast(cython.ulonglong, ((a // B - self.minx) * self.S + a % B - self.miny) << 9
                                                     | (self.board[a] & 511))
            k += 1
            if k == 3:
                words.append(f)
                f = 0
                k = 0
        if k:
            words.append(f)
        return tuple(words)

    @cython.cfunc
    @cython.cdivision(True)
    def _bounds(self) -> cython.void:
        """MP-Q4: the field's smallest and largest x and y (the translation: moves are
        relative to the smallest)."""
        i: cython.int
        y: cython.int
        B: cython.int = self.B
        if self.nf == 0:
            self.minx = self.miny = self.maxx = self.maxy = self.OFF
            return
        self.minx = self.sq[0] // B
        self.maxx = self.sq[self.nf - 1] // B
        self.miny = self.maxy = self.sq[0] % B
        for i in range(1, self.nf):
            y = self.sq[i] % B
            if y < self.miny:
                self.miny = y
            elif y > self.maxy:
                self.maxy = y

    # -- the protocol of cardlab.cores on this position --------------------------------------
    def player(self) -> int:
        ph: cython.int = self.head & 7
        if ph == END:
            return TERMINAL
        if ph == DEAL or ph == COIN:  # the deal, the coin (MP-3, MP-Q2)
            return CHANCE
        return (self.head >> 3) & 1

    def simultaneous(self) -> bool:
        """Whether the mover picks at the same time as the other (a janken: MP-4, MP-25), as
        :mod:`.core`'s ``simultaneous``: the mover 0 starts it, the mover 1 answers."""
        hm: cython.int = self.head & 15
        return hm == JANKEN or hm == TIEBREAK

    def moves(self) -> list:
        """The legal moves (or the chance outcomes' moves), in :mod:`.core`'s order."""
        ph: cython.int = self.head & 7
        p: cython.int = (self.head >> 3) & 1
        k: cython.int
        i: cython.int
        c: cython.int
        out: list = []
        if ph == BATTLE:
            k = self._attacks(p, True)
            for i in range(k):
                out.append(self.buf[i])
            return out if k else [-1]
        if ph == PLACE:
            k = self._spots()
            hand: cython.ulonglong = self.h1 if p else self.h0
            for i in range(k):  # the squares' codes (buf is scratch)
                self.buf[i] = self._code(self.buf[i])
            for c in range(self.U):
                if hand >> c & ONE:
                    for i in range(k):
                        out.append(c << _K | self.buf[i])
            return out
        if ph == DEAL:
            used: cython.ulonglong = self._used()
            return [c for c in range(self.U) if not used >> c & ONE]
        if ph == COIN:
            return [0, 1]
        if ph == JANKEN:  # MP-4: each card of the hand once
            hand = self.h1 if p else self.h0
            return [c for c in range(self.U) if hand >> c & ONE]
        if ph == TIEBREAK:  # MP-25: each mark of the remaining cards
            k = self._marks() >> 3 * (1 - p) & 7
            return [mk for mk in range(3) if k >> mk & 1]
        return []

    def play(self, m: cython.int) -> None:
        """Play move (or chance outcome) ``m`` on this position."""
        ph: cython.int = self.head & 7
        if ph == BATTLE:
            if m < 0:  # MP-18: pass
                self.head ^= 8
            else:
                self._attack(m)
        elif ph == PLACE:
            self._place(m >> _K, self._square(m & 4095))
        elif ph == DEAL:
            self._deal(m)
        elif ph == COIN:
            self._coin(m)
        elif ph == JANKEN:
            self._show(m)
        elif ph == TIEBREAK:
            self._pick(m)

    def perft(self, depth: cython.int) -> int:
        """The number of lines of ``depth`` steps from this position (fewer where the game
        ends; chance outcomes count as steps): the tree walk under a search, on words."""
        stack = [WordCore(self.t, self.core) for _ in range(depth)]
        return self._perft(depth, stack)

    @cython.cfunc
    def _perft(self, depth: cython.int, stack: list) -> cython.longlong:
        ph: cython.int = self.head & 7
        if depth == 0 or ph == END:
            return 1
        child: WordCore = stack[depth - 1]
        total: cython.longlong = 0
        k: cython.int
        i: cython.int
        c: cython.int
        hand: cython.ulonglong
        if ph == BATTLE:
            k = self._attacks((self.head >> 3) & 1, True)
            if not k:
                child.copy_from(self)
                child.head ^= 8
                return child._perft(depth - 1, stack)
            for i in range(k):
                child.copy_from(self)
                child._attack(self.buf[i])
                total += child._perft(depth - 1, stack)
        elif ph == PLACE:
            hand = self.h1 if (self.head >> 3) & 1 else self.h0
            k = self._spots()
            for c in range(self.U):
                if hand >> c & ONE:
                    for i in range(k):
                        child.copy_from(self)
                        child._place(c, self.buf[i])
                        total += child._perft(depth - 1, stack)
        elif ph == DEAL:
            hand = self._used()
            for c in range(self.U):
                if not hand >> c & ONE:
                    child.copy_from(self)
                    child._deal(c)
                    total += child._perft(depth - 1, stack)
        else:
            for m in self.moves():
                child.copy_from(self)
                child.play(m)
                total += child._perft(depth - 1, stack)
        return total

    def returns(self) -> tuple:
        return tuple(self.core.returns(self.head))

    def playout(self, rng, limit: cython.int = 10_000) -> tuple:
        """A random game from this position, drawn from ``rng`` as
        :func:`cardlab.cores.playout_from` draws it: ``(returns, steps)``."""
        # Random.randrange(n) is _randbelow(n): getrandbits(n.bit_length()) until below n;
        # drawn here the same way without its Python frames (a subclass: its own randrange)
        self.randrange = rng.randrange
        self.bits = rng.getrandbits if type(rng) is random.Random else None
        steps: cython.int = 0
        ph: cython.int
        p: cython.int
        k: cython.int
        i: cython.int
        nc: cython.int
        hand: cython.ulonglong
        while True:
            ph = self.head & 7
            if ph == END:
                break
            if steps == limit:
                return (0, 0), steps
            p = (self.head >> 3) & 1
            if ph == BATTLE:
                k = self._attacks(p, True)
                if k:
                    i = self._below(k)
                    self._attack(self.buf[i])
                else:
                    self._below(1)  # MP-18: the pass, the only move (rng.choice draws all the same)
                    self.head ^= 8
            elif ph == PLACE:
                hand = self.h1 if p else self.h0
                nc = _popcount(hand)
                k = self._spots()
                i = self._below(nc * k)
                self._place(_nth(hand, i // k), self.buf[i % k])
            elif ph == DEAL:
                i = self._below(self.U - _popcount(self._used()))
                self._deal(_nth(~self._used(), i))
            elif ph == COIN:
                self._coin(self._below(2))
            elif ph == JANKEN:
                hand = self.h1 if p else self.h0
                self._show(_nth(hand, self._below(_popcount(hand))))
            else:  # TIEBREAK
                k = self._marks() >> 3 * (1 - p) & 7
                self._pick(_nth(k, self._below(_popcount(k))))
            steps += 1
        return self.returns(), steps

    @cython.cfunc
    def _below(self, n: cython.int) -> cython.int:
        """``rng.randrange(n)``, the same number."""
        k: cython.int = 0
        r: cython.int
        if self.bits is None:
            return self.randrange(n)
        while n >> k:
            k += 1
        r = self.bits(k)
        while r >= n:
            r = self.bits(k)
        return r

    # -- the steps on words ----------------------------------------------------------------
    @cython.cfunc
    def _used(self) -> cython.ulonglong:
        """MP-3: the cards not to be dealt now (to this hand, or at all)."""
        if self.shared:
            return self.h0 | self.h1
        return self.h0 if _popcount(self.h0) < self.n else self.h1

    @cython.cfunc
    def _deal(self, c: cython.int) -> cython.void:
        """MP-3: card ``c`` dealt (core's ``play`` in the deal)."""
        if _popcount(self.h0) < self.n:
            self.h0 |= ONE << c
        elif _popcount(self.h1) == self.n - 1:  # the last card
            self.h1 |= ONE << c
            self._after_deal()
            return
        else:
            self.h1 |= ONE << c
        if _popcount(self.h0) == self.n:
            self.head |= 8
        else:
            self.head &= ~cython.cast(cython.ulonglong, 8)

    @cython.cfunc
    @cython.cdivision(True)
    def _code(self, a: cython.int) -> cython.int:
        """The placement square of board square ``a``: core's frame shifted by one column and row."""
        return (a // self.B - self.minx + 1) * self.S + a % self.B - self.miny + 1

    @cython.cfunc
    @cython.cdivision(True)
    def _square(self, s: cython.int) -> cython.int:
        return (self.minx + s // self.S - 1) * self.B + self.miny + s % self.S - 1

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _spots(self) -> cython.int:
        """MP-6, MP-7: the empty squares next to a card, ascending, into ``buf``; their number."""
        x: cython.int
        y: cython.int
        a: cython.int
        k: cython.int = 0
        B: cython.int = self.B
        if self.nf == 0:
            self.buf[0] = self.OFF * B + self.OFF
            return 1
        for x in range(self.minx - 1, self.maxx + 2):
            for y in range(self.miny - 1, self.maxy + 2):
                a = x * B + y
                if not self.board[a] and (self.board[a - B] or self.board[a - 1] or self.board[a + 1]
                                          or self.board[a + B]):
                    self.buf[k] = a
                    k += 1
        return k

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.cdivision(True)
    def _place(self, c: cython.int, a: cython.int) -> cython.void:
        """MP-5 … MP-9, MP-Q4: lay card ``c`` face down on board square ``a``."""
        p: cython.int = (self.head >> 3) & 1
        i: cython.int = self.nf
        if p:
            self.h1 &= ~(ONE << c)
        else:
            self.h0 &= ~(ONE << c)
        self.board[a] = (c + 1) | p << 7
        while i > 0 and self.sq[i - 1] > a:
            self.sq[i] = self.sq[i - 1]
            i -= 1
        self.sq[i] = a
        self.nf += 1
        self._bounds()
        if self.h0 | self.h1:
            self.head ^= 8
            return
        first: cython.ulonglong = (self.head >> 4) & 3  # MP-9, MP-10: the first player attacks first
        self.head = (self.head & ~cython.cast(cython.ulonglong, 15)) | BATTLE | (first - 1) << 3
        p = (self.head >> 3) & 1
        if not self._attacks(p, False) and not self._attacks(1 - p, False):
            self._finish()

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.cdivision(True)
    def _attacks(self, p: cython.int, out: cython.bint) -> cython.int:
        """MP-11, MP-16, MP-17: player p's attacks (own face-down cards next to opponent
        cards, core's order and codes), into ``buf`` when ``out``; their number."""
        i: cython.int
        k: cython.int
        a: cython.int
        v: cython.int
        w: cython.int
        count: cython.int = 0
        B: cython.int = self.B
        for i in range(self.nf):
            a = self.sq[i]
            v = self.board[a]
            if (v >> 7 & 1) != p or v & 256:
                continue
            for k in range(4):
                w = self.board[a + self.dabs[k]]
                if w and (w >> 7 & 1) != p:
                    if not out:
                        return 1
                    self.buf[count] = ((a // B - self.minx) * self.S + a % B - self.miny) << 2 | k
                    count += 1
        return count

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    @cython.cdivision(True)
    def _attack(self, m: cython.int) -> cython.void:
        """MP-11 … MP-15, MP-19 … MP-22, MP-Q5: the battle of square m >> 2 in direction m & 3
        (core's ``attack``)."""
        p: cython.int = (self.head >> 3) & 1
        q: cython.int = m >> 2
        k: cython.int = m & 3
        a: cython.int = (self.minx + q // self.S) * self.B + self.miny + q % self.S
        d: cython.int = a + self.dabs[k]
        ca: cython.int = (self.board[a] & 127) - 1
        cd: cython.int = (self.board[d] & 127) - 1
        j: cython.int = (self.board[d] >> 8) & 1
        oa: cython.int = (p * 5 + self.attr[ca]) * 4
        od: cython.int = ((1 - p) * 5 + self.attr[cd]) * 4
        U: cython.int = self.U
        # MP-12, MP-21, MP-22: both face up, counted after the reveal; MP-13, MP-20: number + bonus
        res: cython.int = (self.a_num[k * U + ca] - self.d_num[k * U + cd]
                           + self.diff[((self.cnt >> oa) & 15) << 5 | ((self.cnt >> od) & 15) << 1 | j])
        if not res:
            res = self.jk[3 * self.mark[ca] + self.mark[cd]]  # MP-14
        self.head ^= 8  # MP-10: the opponent moves next
        if res > 0:  # MP-15: the loser goes to its owner's graveyard
            self.cnt += ONE << oa
            if j:
                self.cnt -= ONE << od
            if p:
                self.g0 += ONE << cd
            else:
                self.g1 += ONE << cd
            self.board[a] |= 256
            self._remove(d)
        elif res < 0:
            if not j:
                self.cnt += ONE << od
            if p:
                self.g1 += ONE << ca
            else:
                self.g0 += ONE << ca
            self.board[d] |= 256
            self._remove(a)
        else:  # a draw: both stay, face up
            self.cnt += ONE << oa
            if not j:
                self.cnt += ONE << od
            self.board[a] |= 256
            self.board[d] |= 256
        # MP-10, MP-18, MP-23: the opponent attacks, or passes, or nobody can: the end
        if not self._attacks(1 - p, False) and not self._attacks(p, False):
            self._finish()

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _remove(self, a: cython.int) -> cython.void:
        i: cython.int = 0
        self.board[a] = 0
        while self.sq[i] != a:
            i += 1
        self.nf -= 1
        while i < self.nf:
            self.sq[i] = self.sq[i + 1]
            i += 1
        self._bounds()  # MP-Q4: moves are relative to the smallest x and y

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _finish(self) -> cython.void:
        """MP-23 … MP-25, MP-Q3: the battle is over; count own face-up cards (core's ``finish``)."""
        i: cython.int
        v: cython.int
        c0: cython.int = 0
        c1: cython.int = 0
        bs: cython.int = 0
        for i in range(self.nf):
            v = self.board[self.sq[i]]
            if v & 256:
                if v & 128:
                    c1 += 1
                else:
                    c0 += 1
        base: cython.ulonglong = self.head & self.KEEP_FH
        if self.score or c0 != c1:
            self.head = base | self.by_diff[c0 - c1 + self.n2]
        elif self.tb == 2:
            self.head = base | self.DRAW
        elif self.tb == 1:
            bs = self._marks()
            self.head = base | END | cython.cast(cython.ulonglong, self.jv[bs]) << self.OUT
        elif self.settled[self._marks()]:  # MP-Q3: no pick can break the tie
            self.head = base | self.DRAW
        else:
            self.head = base | TIEBREAK

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _marks(self) -> cython.int:
        """MP-25, MP-Q3: the marks (3-bit sets) of the players' remaining cards, player 0's << 3
        | player 1's (core's ``marks``)."""
        i: cython.int
        v: cython.int
        bs: cython.int = 0
        for i in range(self.nf):
            v = self.board[self.sq[i]]
            if v & 256 or self.every_all:
                bs |= (1 if v & 128 else 8) << self.mark[(v & 127) - 1]
        return bs

    # -- the jankens and the coin (core's after_deal, show, pick, the coin's play) ----------------
    @cython.cfunc
    def _after_deal(self) -> cython.void:
        """MP-3, MP-4, MP-Q2: who goes first."""
        b: cython.int = 0
        m: cython.int
        if self.fp < 2:
            self.head = self.FIXED
        elif self.fp == 2:
            self.head = self.COIN3
        else:
            for m in range(3):
                if (self.h0 | self.h1) & self.mark_w[m]:
                    b |= 1 << m
            self.head = self.JANKEN0 if self.decides[b] else self.COIN4  # one mark: cannot break

    @cython.cfunc
    def _coin(self, m: cython.int) -> cython.void:
        """MP-Q2: the coin's first player (core's play in the coin)."""
        self.head = (self.head & (7 << 6)) | PLACE | m << 3 | (m + 1) << 4

    @cython.cfunc
    def _show(self, c: cython.int) -> cython.void:
        """MP-4, MP-Q2: the first-player janken, player 0 then player 1 unseen."""
        if not (self.head >> 3) & 1:
            self.head |= 8 | cython.cast(cython.ulonglong, c + 1) << self.PEND
            return
        c0: cython.int = ((self.head >> self.PEND) & self.PM) - 1
        if not self.open_hands:  # the shown cards become known (MP-Q6)
            self.s0 |= ONE << c0
            self.s1 |= ONE << c
        m0: cython.int = self.mark[c0]
        m1: cython.int = self.mark[c]
        r: cython.longlong = 0
        if m0 == m1:  # MP-Q2: pick again
            if self.rounds:
                r = ((self.head >> 9) & 31) + 1
            if not (self.h0 | self.h1) & self.beats_w[m0]:
                self.head = self.COIN4
            elif r >= self.cap:
                self.head = self.COIN5
            else:
                self.head = self.JANKEN0 | r << 9
            return
        f: cython.ulonglong = 0 if self.win3[3 * m0 + m1] > 0 else 1
        self.head = PLACE | f << 3 | (f + 1) << 4 | 2 << 6

    @cython.cfunc
    def _pick(self, mk: cython.int) -> cython.void:
        """MP-25, MP-Q3: the end janken, player 0 then player 1 unseen."""
        if not (self.head >> 3) & 1:
            self.head |= 8 | cython.cast(cython.ulonglong, mk + 1) << self.PEND
            return
        m0: cython.int = ((self.head >> self.PEND) & self.PM) - 1
        base: cython.ulonglong = self.head & self.KEEP_FH
        rnd: cython.ulonglong = (self.head >> 9) & 31
        if m0 != mk:
            self.head = base | self.pick_end[3 * m0 + mk] | rnd << 9
            return
        r: cython.longlong = rnd + 1 if self.rounds else 0
        bs: cython.int = self._marks()
        if r >= self.cap or not (bs >> 3 | bs) & self.beat_mark[m0]:
            self.head = base | self.DRAW | 8 | r << 9  # MP-Q3: a draw
        else:
            self.head = base | TIEBREAK | r << 9
