"""MONSTER CARDS' compact core on fixed-width words (issue X), in Cython's pure-Python
mode: compiled by Cython where it is built (``setup.py``, ``build_tools/build_compiled.py``),
else run as this very Python (with :mod:`cardlab._cython_shim` where Cython is absent),
with the same results.

The rules are :mod:`.core`'s: its tables (built there by calling :mod:`.rules` and the
battle of :mod:`.battle`: the damage ``DMG``, Mend's and the Discard skills' amounts,
``BANISHES``, ``HEALED``, ``TO_DRAW``, the turn order ``NEXT``, the payoffs ``RET``, the
players' kinds) are copied into flat typed arrays, a battle's result is taken from
``game.battle_result`` as :mod:`.core` takes it (once per defender, attacker and
GameChanger), and every step (the draw MC-9, the play MC-10 … MC-13, the scale's
result MC-14 … MC-18, the damage MC-3, healing MC-8, MC-Q10, the outs MC-19, MC-Q7,
the turn order MC-Q8) is :mod:`.core`'s step written on C ints: no third copy of the
rules.

A position is one mutable :class:`WordCore`, :mod:`.core`'s fields one C int each
(phase, turn, the attack and GameChanger zones as ``(card + 1) << 3 | owner``, the
pending damage's target, ``then`` and damage left, the alive set) and per player: the
counts (hand, known deck top, graveyard, rest of the deck), the hand and the rest as one
count a kind of the player's deck (local ids: the kinds in card-id order), and the
graveyard-then-top sequence ``S`` as one local id + 1 a card.  Move codes and chance
outcomes are :mod:`.core`'s (``card << 2 | verb``; the card id).  Every option set is
handled but games of more than :data:`MAX_CARDS` different cards (the battle table has
one C int a defender, attacker and GameChanger: 1 MB at 64 cards): :func:`make_word_core`
gives None there.

:meth:`WordCore.to_pos` and :meth:`WordCore.load` convert to and from :mod:`.core`'s
int position (its :class:`~cardlab.layout.Bits` layout, read and written as 64-bit
words); :meth:`WordCore.playout` plays a random game drawn from ``rng`` exactly as
:func:`cardlab.cores._playout_core` draws it (the same seeds, the same games).
"""

from __future__ import annotations

import random
import sys
from array import array

try:
    import cython
except ImportError:  # pragma: no cover  (no Cython: the module runs as Python)
    from ... import _cython_shim as cython

from ...core import CHANCE, TERMINAL
from . import core as _core

__all__ = ["make_word_core", "WordCore", "compiled", "MAX_CARDS"]

#: whether this module runs compiled
compiled = cython.compiled
#: the most different cards a game may have for the word core (its battle table)
MAX_CARDS = 64
_BIG = sys.byteorder == "big"
ONE = cython.declare(cython.ulonglong, 1)
ALL64 = cython.declare(cython.ulonglong, 0xFFFF_FFFF_FFFF_FFFF)
# core.py's codes as C constants: phases, verbs (move & 3), Discard skills
ACT = cython.declare(cython.int, _core.ACT)
DRAW = cython.declare(cython.int, _core.DRAW)
MILL = cython.declare(cython.int, _core.MILL)
END = cython.declare(cython.int, _core.END)
DEFEND = cython.declare(cython.int, _core.DEFEND)
ATTACK = cython.declare(cython.int, _core.ATTACK)
DISCARD = cython.declare(cython.int, _core.DISCARD)
GC = cython.declare(cython.int, _core.GC)
REVIVE = cython.declare(cython.int, _core.REVIVE)
BANISH = cython.declare(cython.int, _core.BANISH)
UNKNOWN = cython.declare(cython.int, -(1 << 30))  # a battle not looked up yet


def make_word_core(game, core=None):
    """The word core of a MONSTER CARDS game, or None where its options are beyond it
    (more than :data:`MAX_CARDS` different cards); ``core`` is the game's :mod:`.core`
    core (made here when not given)."""
    if len(game.cards) > MAX_CARDS:
        return None
    return WordCore(Tables(game, core if core is not None else _core.make_core(game)))


def _ints(values):
    return array("i", [int(v) for v in values])


@cython.cfunc
@cython.inline
def _get(w: cython.ulonglong[:], off: cython.int, width: cython.int) -> cython.int:
    """The field of ``width`` (< 64) bits at bit ``off`` of the words ``w``."""
    i: cython.int = off >> 6
    s: cython.int = off & 63
    v: cython.ulonglong = w[i] >> s
    if s + width > 64:
        v |= (w[i + 1] << (64 - s)) & ALL64
    return cython.cast(cython.int, v & ((ONE << width) - ONE))


@cython.cfunc
@cython.inline
def _put(w: cython.ulonglong[:], off: cython.int, v: cython.ulonglong) -> cython.void:
    """Or ``v`` (a field's value, fewer than 64 bits) into the words ``w`` at bit ``off``."""
    i: cython.int = off >> 6
    s: cython.int = off & 63
    w[i] |= (v << s) & ALL64
    if s and v >> (64 - s):
        w[i + 1] |= v >> (64 - s)


@cython.cfunc
@cython.inline
@cython.cdivision(True)
def _gcd(a: cython.int, b: cython.int) -> cython.int:
    while b:
        a, b = b, a % b
    return a


@cython.cclass
class Tables:
    """One game's rules as flat C tables (:mod:`.core`'s), shared by its word cores."""

    n: cython.int
    K: cython.int
    D: cython.int
    C: cython.int
    HT: cython.int
    NW: cython.int
    free: cython.bint
    own_attacks: cython.bint
    both_to_ruins: cython.bint
    by_draw: cython.bint
    nk: cython.int[:]
    glob: cython.int[:]
    loc: cython.int[:]
    disc: cython.int[:]
    amount: cython.int[:]
    is_gc: cython.int[:]
    mend: cython.int[:]
    banishes: cython.int[:]
    healed: cython.int[:]
    to_draw: cython.int[:]
    nxt: cython.int[:]
    dmg: cython.int[:]
    bat: cython.int[:]
    AO: cython.int
    GO: cython.int
    AW: cython.int
    PO: cython.int
    PTH: cython.int
    PRO: cython.int
    RW: cython.int
    HW: cython.int
    LO: cython.int
    DB: cython.int
    SO: cython.int[:]
    BS: cython.int[:]
    NHO: cython.int[:]
    NTO: cython.int[:]
    NGO: cython.int[:]
    NRO: cython.int[:]
    HOF: cython.int[:]
    ROF: cython.int[:]
    CW: cython.int[:]
    game: object
    core: object
    ret: list
    zero: tuple

    def __init__(self, game, core) -> None:
        o = game.options
        n, C, D = core.n, len(core.cards), o["deck_size"]
        K = max(len(kinds) for kinds in core.KINDS)
        self.game, self.core = game, core
        self.n, self.C, self.D, self.K, self.HT = n, C, D, K, core.HT
        self.free, self.own_attacks = o["replacing"] == "free", o["own_attacker"] == "attacks"
        self.both_to_ruins, self.by_draw = o["on_draw"] == "both_to_ruins", bool(o["out_by_drawing"])
        # the players' kinds: local id <-> card id (core's KINDS, LOCAL)
        self.nk = _ints(len(kinds) for kinds in core.KINDS)
        self.glob = _ints(kinds[i] if i < len(kinds) else -1 for kinds in core.KINDS for i in range(K))
        self.loc = _ints(v for row in core.LOCAL for v in row)
        # per card: MC-10's Discard skills, MC-Q10's GameChangers, MC-8's Mend
        self.disc = _ints(kind for kind, _a in core.dsk)
        self.amount = _ints(a for _k, a in core.dsk)
        self.is_gc = _ints(game.is_gc)
        self.mend = _ints(core.mend)
        self.banishes = _ints(v for row in core.BANISHES for v in row)
        self.healed = _ints(v for row in core.HEALED for v in row)  # [amount][graveyard], D + 1 a row
        self.to_draw = _ints(core.TO_DRAW)
        self.nxt = _ints(v for row in core.NEXT for v in row)  # [alive][turn], MC-Q8
        self.dmg = _ints(v for row in core.DMG for v in row)  # [attacker + 1][gamechanger + 1], MC-3
        self.bat = _ints([UNKNOWN] * (C * C * (C + 1)))  # [defender][attacker][gamechanger + 1]
        self.ret, self.zero = [tuple(r) for r in core.RET], (0,) * n
        self._layout(core, K)

    def _layout(self, core, K) -> None:
        """Where core's fields lie in its int (its :class:`~cardlab.layout.Bits`)."""
        n = self.n
        self.NW = (core.bits.width + 63) // 64 + 1
        self.AO, self.GO, self.AW = core.AO, core.GO, core.AW
        self.PO, self.PTH, self.PRO, self.RW = core.PO, core.PTH, core.PRO, core.RM.bit_length()
        self.LO, self.DB, self.HW = core.LO, core.DB, core.HW
        self.SO, self.BS = _ints(core.SO), _ints(core.BS)
        self.NHO, self.NTO, self.NGO, self.NRO = _ints(core.NHO), _ints(core.NTO), _ints(core.NGO), _ints(core.NRO)
        wid = [[(r, m.bit_length()) for r, m in core.WID[p]] + [(0, 0)] * (K - len(core.WID[p])) for p in range(n)]
        self.HOF = _ints(core.HO[p] + r for p in range(n) for r, _w in wid[p])
        self.ROF = _ints(core.RO[p] + r for p in range(n) for r, _w in wid[p])
        self.CW = _ints(w for p in range(n) for _r, w in wid[p])

    @cython.cfunc
    def battle(self, d: cython.int, a: cython.int, g: cython.int) -> cython.int:
        """MC-14 … MC-18: defender ``d`` against attacker ``a`` under GameChanger ``g`` (card
        + 1, 0 none): 1 success, 0 draw, minus the damage (core's ``battles``, from
        ``game.battle_result``: the scale of :func:`.rules.scale`)."""
        i: cython.int = (d * self.C + a) * (self.C + 1) + g
        r: cython.int = self.bat[i]
        if r == UNKNOWN:
            res, damage = self.game.battle_result(d, a, g - 1)
            r = 1 if res == "success" else 0 if res == "draw" else -damage
            self.bat[i] = r
        return r


@cython.cclass
class WordCore:
    """One MONSTER CARDS game's rules on C words, and one position of it (mutable)."""

    T: Tables
    n: cython.int
    K: cython.int
    D: cython.int
    C: cython.int
    phase: cython.int
    turn: cython.int
    attack: cython.int
    gcz: cython.int
    target: cython.int
    then: cython.int
    damage: cython.int
    alive: cython.int
    nhand: cython.int[:]
    ntop: cython.int[:]
    ngrave: cython.int[:]
    nrest: cython.int[:]
    hand: cython.int[:]
    rest: cython.int[:]
    seq: cython.int[:]
    buf: cython.int[:]
    bits: object
    randrange: object
    choice: object

    def __init__(self, tables: Tables) -> None:
        self.T = tables
        n, K, D = tables.n, tables.K, tables.D
        self.n, self.K, self.D, self.C = n, K, D, tables.C
        self.nhand, self.ntop, self.ngrave, self.nrest = (_ints([0] * n) for _ in range(4))
        self.hand, self.rest = _ints([0] * (n * K)), _ints([0] * (n * K))
        self.seq = _ints([0] * (n * D))
        self.buf = _ints([0] * (4 * K + 4))
        self.phase = END

    @cython.ccall
    def copy_from(self, other: WordCore) -> cython.void:
        """Set this position to ``other``'s (a core of the same game)."""
        i: cython.int
        self.phase, self.turn, self.attack, self.gcz = other.phase, other.turn, other.attack, other.gcz
        self.target, self.then, self.damage, self.alive = other.target, other.then, other.damage, other.alive
        for i in range(self.n):
            self.nhand[i] = other.nhand[i]
            self.ntop[i] = other.ntop[i]
            self.ngrave[i] = other.ngrave[i]
            self.nrest[i] = other.nrest[i]
        for i in range(self.n * self.K):
            self.hand[i] = other.hand[i]
            self.rest[i] = other.rest[i]
        for i in range(self.n * self.D):
            self.seq[i] = other.seq[i]

    # -- conversions: core's int position in and out -----------------------------------------
    def load(self, pos) -> None:
        """Set this position to :mod:`.core`'s ``pos`` (its fields read as 64-bit words)."""
        T: Tables = self.T
        ws = array("Q", pos.to_bytes(8 * T.NW, "little"))
        if _BIG:  # pragma: no cover
            ws.byteswap()
        w: cython.ulonglong[:] = ws
        p: cython.int
        i: cython.int
        b: cython.int
        self.phase, self.turn = _get(w, 0, 2), _get(w, 2, 3)
        self.attack, self.gcz = _get(w, T.AO, T.AW), _get(w, T.GO, T.AW)
        self.target, self.then, self.damage = _get(w, T.PO, 3), _get(w, T.PTH, 1), _get(w, T.PRO, T.RW)
        self.alive = _get(w, T.LO, self.n)
        for p in range(self.n):
            self.nhand[p] = _get(w, T.NHO[p], T.HW)
            self.ntop[p] = _get(w, T.NTO[p], T.DB)
            self.ngrave[p] = _get(w, T.NGO[p], T.DB)
            self.nrest[p] = _get(w, T.NRO[p], T.DB)
            for i in range(self.K):
                b = p * self.K + i
                self.hand[b] = _get(w, T.HOF[b], T.CW[b]) if T.CW[b] else 0
                self.rest[b] = _get(w, T.ROF[b], T.CW[b]) if T.CW[b] else 0
            for i in range(self.D):
                self.seq[p * self.D + i] = _get(w, T.SO[p] + i * T.BS[p], T.BS[p])

    def to_pos(self):
        """This position as :mod:`.core`'s int."""
        T: Tables = self.T
        ws = array("Q", bytes(8 * T.NW))
        w: cython.ulonglong[:] = ws
        p: cython.int
        i: cython.int
        b: cython.int
        _put(w, 0, self.phase)
        _put(w, 2, self.turn)
        _put(w, T.AO, self.attack)
        _put(w, T.GO, self.gcz)
        _put(w, T.PO, self.target)
        _put(w, T.PTH, self.then)
        _put(w, T.PRO, self.damage)
        _put(w, T.LO, self.alive)
        for p in range(self.n):
            _put(w, T.NHO[p], self.nhand[p])
            _put(w, T.NTO[p], self.ntop[p])
            _put(w, T.NGO[p], self.ngrave[p])
            _put(w, T.NRO[p], self.nrest[p])
            for i in range(self.K):
                b = p * self.K + i
                _put(w, T.HOF[b], self.hand[b])
                _put(w, T.ROF[b], self.rest[b])
            for i in range(self.ngrave[p] + self.ntop[p]):
                _put(w, T.SO[p] + i * T.BS[p], self.seq[p * self.D + i])
        if _BIG:  # pragma: no cover
            ws.byteswap()
        return int.from_bytes(ws.tobytes(), "little")

    def key(self):
        """A hashable of this position, equal exactly where :meth:`to_pos` is: that int."""
        return self.to_pos()

    # -- the protocol of cardlab.cores on this position ----------------------------------------
    def player(self) -> int:
        """MC-12, MC-Q8: the turn player in the action phase; chance in the draw (MC-9) and
        the mill (MC-3); terminal at the end (MC-19)."""
        if self.phase == ACT:
            return self.turn
        return TERMINAL if self.phase == END else CHANCE

    def moves(self) -> list:
        """The legal moves (or the chance outcomes), in :mod:`.core`'s order and codes."""
        k: cython.int
        i: cython.int
        if self.phase == ACT:
            k = self._moves()
            return [self.buf[i] for i in range(k)]
        if self.phase == END:
            return []
        return [c for c, _w in self.chance()]

    def chance(self) -> list:
        """MC-3, MC-9: the ``(card, weight)`` outcomes of a chance position (the unknown
        rest of the drawing or milled player's deck, one a kind, weight its count), as
        :mod:`.core`'s ``chance``."""
        p: cython.int = self.turn if self.phase == DRAW else self.target
        b: cython.int = p * self.K
        i: cython.int
        return [(self.T.glob[b + i], self.rest[b + i]) for i in range(self.T.nk[p]) if self.rest[b + i]]

    def play(self, m: cython.int) -> None:
        """Play move (or chance outcome) ``m`` on this position."""
        if self.phase == ACT:
            self._act(m)
        else:
            self._chance(m)

    def returns(self) -> tuple:
        """MC-19: 1 for the winner, −1/(n−1) for each other at the end; zeros before."""
        return self.T.ret[self.turn] if self.phase == END else self.T.zero

    def perft(self, depth: cython.int) -> int:
        """The number of lines of ``depth`` steps from this position (fewer where the game
        ends; chance outcomes count as steps), as :func:`cardlab.cores.perft` counts them."""
        stack = [WordCore(self.T) for _ in range(depth)]
        return self._perft(depth, stack)

    @cython.cfunc
    def _perft(self, depth: cython.int, stack: list) -> cython.longlong:
        if depth == 0 or self.phase == END:
            return 1
        child: WordCore = stack[depth - 1]
        total: cython.longlong = 0
        k: cython.int
        i: cython.int
        b: cython.int
        p: cython.int
        if self.phase == ACT:
            k = self._moves()
            moves = [self.buf[i] for i in range(k)]  # buf is the children's too
            for i in range(k):
                child.copy_from(self)
                child._act(moves[i])
                total += child._perft(depth - 1, stack)
            return total
        p = self.turn if self.phase == DRAW else self.target
        b = p * self.K
        for i in range(self.T.nk[p]):
            if self.rest[b + i]:
                child.copy_from(self)
                child._chance(self.T.glob[b + i])
                total += child._perft(depth - 1, stack)
        return total

    def playout(self, rng, limit: cython.int = 10_000) -> tuple:
        """A random game from this position, drawn from ``rng`` as
        :func:`cardlab.cores._playout_core` draws it: ``(returns, steps)``; cut off after
        ``limit`` steps, zeros for every player."""
        # Random.randrange(n) and Random.choice are _randbelow(n): getrandbits(n.bit_length())
        # until below n; drawn here the same way without their Python frames (a subclass: its
        # own randrange and choice)
        plain: cython.bint = type(rng) is random.Random
        self.bits = rng.getrandbits if plain else None
        self.randrange, self.choice = rng.randrange, rng.choice
        steps: cython.int = 0
        k: cython.int
        while self.phase != END:
            if steps == limit:
                return self.T.zero, steps
            if self.phase == ACT:
                if plain:
                    k = self._moves()
                    self._act(self.buf[self._below(k)])
                else:
                    self._act(self.choice(self.moves()))
            else:
                self._chance(self._draw())
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

    @cython.cfunc
    @cython.cdivision(True)
    def _draw(self) -> cython.int:
        """MC-3, MC-9: a chance outcome drawn as ``cardlab.cores._draw`` draws it: the
        weights divided by their gcd, ``randrange`` of their total, the first outcome whose
        running total passes it."""
        p: cython.int = self.turn if self.phase == DRAW else self.target
        b: cython.int = p * self.K
        nk: cython.int = self.T.nk[p]
        i: cython.int
        g: cython.int = 0
        total: cython.int = 0
        r: cython.int
        for i in range(nk):
            g = _gcd(self.rest[b + i], g)
        for i in range(nk):
            total += self.rest[b + i] // g
        r = self._below(total)
        for i in range(nk):
            r -= self.rest[b + i] // g
            if r < 0:
                return self.T.glob[b + i]
        return -1

    # -- the steps on words ----------------------------------------------------------------------
    @cython.cfunc
    def _moves(self) -> cython.int:
        """MC-10, MC-11, MC-Q10: the turn player's moves (core's ``moves``: defences, attacks
        if the attack zone holds a card, then with two cards or more in hand the Discard
        skills and the GameChangers, each in card-id order) into ``buf``; their number."""
        T: Tables = self.T
        p: cython.int = self.turn
        b: cython.int = p * self.K
        i: cython.int
        c: cython.int
        k: cython.int = 0
        have: cython.int
        size: cython.int = 0
        for i in range(T.nk[p]):
            if self.hand[b + i]:
                size += self.hand[b + i]
                self.buf[k] = T.glob[b + i] << 2 | DEFEND
                k += 1
        have = k
        if self.attack:
            for i in range(have):
                self.buf[k] = self.buf[i] | ATTACK
                k += 1
        if size >= 2:  # MC-10: keep a card for the play (MC-11)
            for i in range(have):
                c = self.buf[i] >> 2
                if T.disc[c]:
                    self.buf[k] = c << 2 | DISCARD
                    k += 1
            for i in range(have):
                c = self.buf[i] >> 2
                if T.is_gc[c]:
                    self.buf[k] = c << 2 | GC
                    k += 1
        return k

    @cython.cfunc
    def _chance(self, c: cython.int) -> cython.void:
        """A chance outcome (core's ``play`` in the draw and the mill; the known deck top is
        empty there): MC-9 card ``c`` drawn from the unknown deck, or MC-3 milled from it onto
        the graveyard (S grows by one)."""
        T: Tables = self.T
        t: cython.int
        b: cython.int
        nh: cython.int
        if self.phase == DRAW:
            t = self.turn
            b = t * self.K + T.loc[t * self.C + c]
            self.hand[b] += 1
            self.rest[b] -= 1
            self.nhand[t] += 1
            self.nrest[t] -= 1
            nh = self.nhand[t]
            if nh == T.HT:
                self.phase = ACT
            elif T.to_draw[nh] >= self.nrest[t]:  # else the next draw: chance again
                self._settle()
            return
        t = self.target
        self.rest[t * self.K + T.loc[t * self.C + c]] -= 1
        self.nrest[t] -= 1
        self.seq[t * self.D + self.ngrave[t]] = T.loc[t * self.C + c] + 1
        self.ngrave[t] += 1
        self.damage -= 1
        if not self.damage:  # else more damage: chance again (less than the deck is left, MC-19)
            self._settle()

    @cython.cfunc
    def _act(self, m: cython.int) -> cython.void:
        """A move (core's ``play`` in the action phase): MC-10, MC-11, MC-Q6, MC-14 … MC-18."""
        T: Tables = self.T
        p: cython.int = self.turn
        g: cython.int = m >> 2
        v: cython.int = m & 3
        att: cython.int = self.attack
        me: cython.int = (g + 1) << 3 | p
        r: cython.int
        self.hand[p * self.K + T.loc[p * self.C + g]] -= 1  # the card leaves the hand
        self.nhand[p] -= 1
        if v >= DISCARD:
            self._extra(p, g, v, att)
            return
        if T.mend[g]:  # Mend heals when played (MC-8)
            self._heal(p, T.mend[g])
        if v == ATTACK:  # MC-11: the card pushes the attacker to the ruins
            self.attack = me
            if att and not T.free and ((att & 7) != p or T.own_attacks):  # after taking its attack (MC-3)
                self._hurt(p, T.dmg[(att >> 3) * (self.C + 1) + (self.gcz >> 3)])
            else:
                self._next_turn(p)
            return
        if not att:  # MC-11: an empty attack zone takes the card
            self.attack = me
            self._next_turn(p)
            return
        if (att & 7) == p and not T.own_attacks:  # MC-Q6: to the ruins, no battle
            self._next_turn(p)
            return
        r = T.battle(g, (att >> 3) - 1, self.gcz >> 3)  # MC-14 … MC-16, the scale
        if r > 0:  # MC-18 success: the beaten attacker to the ruins (MC-Q5)
            self.attack = me
            self._next_turn(p)
        elif r < 0:  # MC-18 failure: the attack's damage to the defender (MC-3)
            self._hurt(p, -r)
        else:
            if T.both_to_ruins:  # MC-16 draw, MC-Q4
                self.attack = 0
            self._next_turn(p)

    @cython.cfunc
    def _extra(self, p: cython.int, g: cython.int, v: cython.int, att: cython.int) -> cython.void:
        """The moves before the play (MC-10, MC-Q10, core's ``extra``): a GameChanger
        (replacing any), or a Discard skill, whose effect may find nothing: Revive heals,
        Banish sends a low enough attacker to the ruins, Ambush mills the attacker's owner."""
        T: Tables = self.T
        kind: cython.int
        q: cython.int
        if v == GC:
            self.gcz = (g + 1) << 3 | p
            return
        kind = T.disc[g]
        if kind == REVIVE:
            self._heal(p, T.amount[g])
        elif kind == BANISH:
            if att and T.banishes[g * self.C + (att >> 3) - 1]:
                self.attack = 0
        else:  # Ambush: the attacker's owner, another player not out; the turn goes on after
            q = att & 7
            if att and q != p and self.alive >> q & 1:
                self.phase = MILL
                self.target = q
                self.then = 1
                self.damage = T.amount[g]
                self._settle()

    @cython.cfunc
    def _heal(self, p: cython.int, amount: cython.int) -> cython.void:
        """MC-8, MC-Q10: the graveyard's latest cards back on the deck top (only S's split
        moves; none from an empty graveyard)."""
        k: cython.int = self.T.healed[amount * (self.D + 1) + self.ngrave[p]]
        self.ntop[p] += k
        self.ngrave[p] -= k

    @cython.cfunc
    def _hurt(self, p: cython.int, damage: cython.int) -> cython.void:
        """MC-3, MC-18: the turn player takes ``damage`` (core's ``hurt``): chance for the
        first card from the unknown deck, else settled."""
        self.phase = MILL
        self.target = p
        self.damage = damage
        if damage < self.nrest[p] and not self.ntop[p]:
            return
        self._settle()

    @cython.cfunc
    def _next_turn(self, p: cython.int) -> cython.void:
        """MC-9, MC-12, MC-Q8: the next player not out draws (core's ``next_turn``)."""
        T: Tables = self.T
        t: cython.int = T.nxt[self.alive * self.n + p]
        nh: cython.int = self.nhand[t]
        self.turn = t
        self.phase = DRAW
        if nh == T.HT:
            self.phase = ACT
            return
        if T.to_draw[nh] < self.nrest[t] and not self.ntop[t]:
            return  # a draw from the unknown deck: chance
        self._settle()

    @cython.cfunc
    def _settle(self) -> cython.void:
        """Play what is certain up to the next stop (core's ``settle``): damage from the known
        deck top (MC-3, MC-8), outs (MC-19, MC-Q7), draws of the known top (MC-9), the whole
        deck to the hand without MC-Q7, the next player (MC-Q8)."""
        T: Tables = self.T
        t: cython.int
        rem: cython.int
        nt: cython.int
        nh: cython.int
        deck: cython.int
        k: cython.int
        b: cython.int
        i: cython.int
        d: cython.int
        while True:
            if self.phase == MILL:
                t = self.target
                rem = self.damage
                if rem and self.alive >> t & 1:
                    nt = self.ntop[t]
                    if rem >= nt + self.nrest[t]:  # the whole deck goes: out (MC-3, MC-19)
                        self._out(t)
                        if self.phase == END:
                            return
                        continue
                    if not nt:
                        return  # damage from the unknown deck: chance
                    k = nt if nt < rem else rem  # the known top goes first: only the split moves
                    self.ngrave[t] += k
                    self.ntop[t] -= k
                    self.damage -= k
                    continue
                k = self.then
                self.target = self.then = self.damage = 0
                t = self.turn
                if k and self.alive >> t & 1:  # after an Ambush the turn goes on (MC-10)
                    self.phase = ACT
                    return
                self.turn = T.nxt[self.alive * self.n + t]
                self.phase = DRAW
                continue
            if self.phase == DRAW:  # MC-9
                t = self.turn
                nh = self.nhand[t]
                if nh >= T.HT:
                    self.phase = ACT
                    return
                nt = self.ntop[t]
                deck = nt + self.nrest[t]
                if not deck and nh:  # only without out_by_drawing (MC-Q7)
                    self.phase = ACT
                    return
                if deck and T.to_draw[nh] >= deck and not T.by_draw:  # the whole deck comes to the hand
                    self._take_deck(t)
                    return
                if not deck or T.to_draw[nh] >= deck:  # nothing to play, or MC-Q7: out at once
                    self._out(t)
                    if self.phase == END:
                        return
                    self.turn = T.nxt[self.alive * self.n + t]
                    continue
                if not nt:
                    return  # a draw from the unknown deck: chance
                # the known top comes first: top[0] is S's digit ngrave, top[1:] moves down
                b = t * self.D
                d = self.seq[b + self.ngrave[t]]
                for i in range(b + self.ngrave[t], b + self.ngrave[t] + nt - 1):
                    self.seq[i] = self.seq[i + 1]
                self.seq[b + self.ngrave[t] + nt - 1] = 0
                self.hand[t * self.K + d - 1] += 1
                self.nhand[t] += 1
                self.ntop[t] -= 1
                continue
            return

    @cython.cfunc
    def _out(self, p: cython.int) -> cython.void:
        """MC-19 (core's ``out``): player p is out; hand, deck and graveyard leave the game
        face down (gone: the rest counts); at most one player left ends the game, the last
        one with cards the winner."""
        i: cython.int
        b: cython.int = p * self.K
        w: cython.int = -1
        for i in range(self.K):
            self.rest[b + i] += self.hand[b + i]
            self.hand[b + i] = 0
        for i in range(p * self.D, p * self.D + self.ngrave[p] + self.ntop[p]):
            self.rest[b + self.seq[i] - 1] += 1
            self.seq[i] = 0
        self.nhand[p] = self.ntop[p] = self.ngrave[p] = self.nrest[p] = 0
        self.alive &= ~(1 << p)
        if self.alive & (self.alive - 1) == 0:
            for i in range(self.n):
                if self.alive >> i & 1:
                    w = i
            self.phase = END
            self.turn = w
            self.target = self.then = self.damage = 0

    @cython.cfunc
    def _take_deck(self, t: cython.int) -> cython.void:
        """MC-9 without MC-Q7's out (core's ``take_deck``): the whole deck (known top and
        rest) comes to the hand."""
        i: cython.int
        b: cython.int = t * self.K
        g: cython.int = t * self.D + self.ngrave[t]
        for i in range(self.K):
            self.hand[b + i] += self.rest[b + i]
            self.rest[b + i] = 0
        for i in range(g, g + self.ntop[t]):
            self.hand[b + self.seq[i] - 1] += 1
            self.seq[i] = 0
        self.nhand[t] += self.ntop[t] + self.nrest[t]
        self.ntop[t] = self.nrest[t] = 0
        self.phase = ACT
