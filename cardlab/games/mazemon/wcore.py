"""Mazemon's compact core on fixed-width words (issue X), in Cython's pure-Python
mode: compiled by Cython where it is built (``setup.py``, or ``cythonize -i``), else
run as this very Python (with :mod:`cardlab._cython_shim` where Cython is absent),
with the same results.

The rules are :mod:`.core`'s: its tables (:class:`.core.Tables`, built there by
calling :mod:`.rules`) are copied into flat typed arrays, and its steps (the charge
MZ-6, summons MZ-7 MZ-18, attacks MZ-8 MZ-Q4, みがわり MZ-19 MZ-21 MZ-Q5, the battle's
effects MZ-12 … MZ-17 MZ-20 MZ-Q7, the direct attack and its steal MZ-22 MZ-Q2, the
win MZ-23, the turn's end MZ-5 MZ-9 MZ-Q6, the trash MZ-3 MZ-Q8 and the janken MZ-2)
are :mod:`.core`'s steps written on C words: no third copy of the rules.

A position is one mutable :class:`WordCore` of three 64-bit words, :mod:`.core`'s
130-bit int (:data:`.core.POS`) cut at its fields and regrouped, mover first as there:
``h`` the turn fields (:data:`HEAD`: phase and turn lowest, as in ``POS``), ``x`` the
mover's fields and ``y`` the other player's (:data:`SIDE`; y's ``attacked`` is always
0, as ``POS`` has none).  A turn's end swaps ``x`` and ``y``.  Moves and chance
outcomes are :mod:`.core`'s codes, in its order.

:meth:`WordCore.load` and :meth:`WordCore.to_pos` convert from and to :mod:`.core`'s
int; :meth:`WordCore.playout` plays a random game drawn from ``rng`` exactly as
:func:`cardlab.cores.playout_from` draws it on :mod:`.core` (the same seeds, the same
games).  Every option set is handled.
"""

from __future__ import annotations

import random
import weakref
from array import array

try:
    import cython
except ImportError:  # pragma: no cover  (no Cython: the module runs as Python)
    from ... import _cython_shim as cython

from ...core import CHANCE, TERMINAL
from ...layout import Bits
from . import core as _core
from . import rules

__all__ = ["make_word_core", "WordCore", "compiled", "HEAD", "SIDE"]

#: whether this module runs compiled
compiled = cython.compiled

#: the turn fields' word (phase and turn lowest, as in core.POS)
HEAD = Bits(("phase", 3), ("turn", 1), ("direct_used", 1), ("substitute_used", 1), ("acted", 1),
            ("quiet_turns", 2), ("first", 1), ("spare", 2), ("pending_attacker", 4), ("pending_target", 4))
#: a player's word (x: the mover, y: the other)
SIDE = Bits(("untapped", 4), ("battle", 10), ("hand", 10), ("attacked", 10), ("wounded", 10), ("out", 10),
            ("mana", 4), ("captured", 2))


def _runs() -> tuple:
    """core.POS's fields as runs ``(shift in POS, mask, word, shift in the word)``:
    fields next to each other in both are one run (8 runs for 25 fields)."""
    fields = [(_core.POS.shift[n], HEAD.shift[n], 0, HEAD.mask[n].bit_length()) for n, _w in HEAD.fields]
    for word, who in ((1, "x_"), (2, "y_")):
        fields += [(_core.POS.shift[who + n], SIDE.shift[n], word, SIDE.mask[n].bit_length())
                   for n, _w in SIDE.fields if who + n in _core.POS.shift]
    runs = []
    for src, dst, word, bits in sorted(fields):
        last = runs[-1] if runs else None
        if last and last[2] == word and last[0] + last[3] == src and last[1] + last[3] == dst:
            last[3] += bits
        else:
            runs.append([src, dst, word, bits])
    assert sum(r[3] for r in runs) == _core.POS.width  # every field of POS, once
    return tuple((src, (1 << bits) - 1, word, dst) for src, dst, word, bits in runs)


_RUNS = _runs()


def _words(v) -> list:
    """:mod:`.core`'s int (a position, or a mask on one) as ``[h, x, y]``."""
    w = [0, 0, 0]
    for src, mask, word, dst in _RUNS:
        w[word] |= (v >> src & mask) << dst
    return w


def _join(h, x, y):
    """``[h, x, y]`` as :mod:`.core`'s int."""
    w = (h, x, y)
    pos = 0
    for src, mask, word, dst in _RUNS:
        pos |= (w[word] >> dst & mask) << src
    return pos


ONE = cython.declare(cython.ulonglong, 1)
FULL = cython.declare(cython.ulonglong, rules.FULL)  # a mask of deck slots (MZ-1)
NS = cython.declare(cython.int, rules.DECK_SIZE)
# the phases (rules.py) and the move kinds (core.py) as C constants
JANKEN = cython.declare(cython.int, rules.JANKEN)
TRASH = cython.declare(cython.int, rules.TRASH)
CHARGE = cython.declare(cython.int, rules.CHARGE)
SUMMON = cython.declare(cython.int, rules.SUMMON)
BATTLE = cython.declare(cython.int, rules.BATTLE)
SUB = cython.declare(cython.int, rules.SUB)
STEAL = cython.declare(cython.int, rules.STEAL)
END = cython.declare(cython.int, rules.END)
K_CHARGE = cython.declare(cython.int, _core.K_CHARGE)
K_SUMMON = cython.declare(cython.int, _core.K_SUMMON)
K_ATTACK = cython.declare(cython.int, _core.K_ATTACK)
K_DIRECT = cython.declare(cython.int, _core.K_DIRECT)
K_END = cython.declare(cython.int, _core.K_END)
K_SUBST = cython.declare(cython.int, _core.K_SUBST)
K_DECLINE = cython.declare(cython.int, _core.K_DECLINE)
K_JANKEN = cython.declare(cython.int, _core.K_JANKEN)
K_TRASH = cython.declare(cython.int, _core.K_TRASH)
K_STEAL = cython.declare(cython.int, _core.K_STEAL)
# the turn fields in h
PH = cython.declare(cython.ulonglong, HEAD.mask["phase"])
TURN = cython.declare(cython.ulonglong, 1 << HEAD.shift["turn"])
DU = cython.declare(cython.ulonglong, 1 << HEAD.shift["direct_used"])
SU = cython.declare(cython.ulonglong, 1 << HEAD.shift["substitute_used"])
ACTED = cython.declare(cython.ulonglong, 1 << HEAD.shift["acted"])
FIRST = cython.declare(cython.ulonglong, 1 << HEAD.shift["first"])
QS = cython.declare(cython.int, HEAD.shift["quiet_turns"])
QM = cython.declare(cython.ulonglong, HEAD.mask["quiet_turns"] << HEAD.shift["quiet_turns"])
PA = cython.declare(cython.int, HEAD.shift["pending_attacker"])
PT = cython.declare(cython.int, HEAD.shift["pending_target"])
PEND = cython.declare(cython.ulonglong, (1 << HEAD.shift["pending_target"] + 4) - (1 << PA))
# a player's fields in x and y
UM = cython.declare(cython.ulonglong, SIDE.mask["untapped"])  # (untapped lowest)
SB = cython.declare(cython.int, SIDE.shift["battle"])
SH = cython.declare(cython.int, SIDE.shift["hand"])
SA = cython.declare(cython.int, SIDE.shift["attacked"])
SW = cython.declare(cython.int, SIDE.shift["wounded"])
SO = cython.declare(cython.int, SIDE.shift["out"])
SM = cython.declare(cython.int, SIDE.shift["mana"])
SC = cython.declare(cython.int, SIDE.shift["captured"])
ATT = cython.declare(cython.ulonglong, SIDE.mask["attacked"] << SIDE.shift["attacked"])
#: LOW[mask]: the lowest deck slot of a non-empty mask
LOW = array("Q", [max((m & -m).bit_length() - 1, 0) for m in range(rules.FULL + 1)])


def _ints(kind, values):
    return array(kind, [int(v) for v in values])


#: core -> its tables (None: beyond the word core), for more word cores of one core
_BY_CORE = weakref.WeakKeyDictionary()
_NONE = object()


def make_word_core(game, core=None):
    """The word core of a Mazemon game (every option set is handled: the options change
    only :mod:`.core`'s tables), or None where those tables are beyond it (an attack
    table not in target order, a battle's effect on the turn fields: only a swapped
    rule could make them so); ``core`` is the game's :mod:`.core` core (made here when
    not given)."""
    if core is None:
        core = _core.make_core(game)
    tables = _BY_CORE.get(core, _NONE)
    if tables is _NONE:
        tables = _BY_CORE[core] = _tables(_core.Tables(game))
    return None if tables is None else WordCore(tables, core)


def _tables(t) -> dict | None:
    """:class:`.core.Tables` ``t`` as flat typed arrays (see :class:`WordCore`)."""
    n = rules.DECK_SIZE
    # attacks[p << 1 | two][i][T] (KO, wound, mutual): the targets of each as 10-bit masks
    amask = [0] * (4 * n << 10)
    for pt in range(4):
        for i in range(n):
            for zone in _core.SMALL:
                word = 0
                for r, moves in enumerate(t.attacks[pt][i][zone]):
                    targets = 0
                    for m in moves:
                        y = m >> 8
                        if m & 255 != K_ATTACK | i << 4 or targets >> y:  # not this attacker's, in slot order
                            return None
                        targets |= 1 << y
                    word |= targets << 10 * r
                amask[(pt * n + i) << 10 | zone] = word
    pay, subs, eff = [], [], []
    for p in (0, 1):
        for x in range(n):
            for y in range(n):
                cost, may_sub, effects = t.attack[p][x][y]
                pay.append(_words(cost)[1])
                subs.append(sum(1 << i for i, ok in enumerate(may_sub) if ok))
                for andm, orm, add in effects:
                    a, o, d = _words(andm & (1 << _core.POS.width) - 1), _words(orm), _words(add)
                    if a[0] != (1 << HEAD.width) - 1 or o[0] or d[0]:
                        return None
                    eff += [a[1], o[1], d[1], a[2], o[2], d[2]]
    return {
        "cost": _ints("Q", [c for costs in t.game_cost for row in costs for c in row]),
        "summonable": _ints("Q", [m for p in (0, 1) for m in t.summonable[p]]),
        "amask": _ints("Q", amask), "pay": _ints("Q", pay), "subs": _ints("Q", subs), "eff": _ints("Q", eff),
        "player_of": _ints("q", t.player_of), "won": _ints("Q", t.won),
        "quiet": _ints("Q", [nc | over << 3 for nc, over in t.quiet]), "ret": t.ret,
    }


@cython.cclass
class WordCore:
    """One Mazemon game's rules on C words, and one position of it (mutable): the words
    ``h``, ``x``, ``y`` (module docstring).  The tables, from :class:`.core.Tables`:
    ``cost[(p*10 + i) << 10 | zone]`` (``game.cost``), ``summonable[p << 14 | zone << 4 |
    untapped]``, ``amask[(pt*10 + i) << 10 | targets]`` (``attacks``: KO, wound and mutual
    targets, 10 bits each), ``pay``, ``subs`` (the みがわり table as 8 bits) and ``eff`` (6
    words each: x's and, or, add, y's and, or, add) per ``(p*10 + x)*10 + y`` (``attack``),
    ``player_of``, ``won``, ``quiet`` (count | over << 3), ``ret``; the trash and janken
    outcomes are :mod:`.core`'s chance outcomes."""

    h: cython.ulonglong
    x: cython.ulonglong
    y: cython.ulonglong
    nm: cython.int  # the moves in buf (settle found them for this position), or -1
    buf: cython.longlong[:]
    low: cython.ulonglong[:]
    cost: cython.ulonglong[:]
    summonable: cython.ulonglong[:]
    amask: cython.ulonglong[:]
    pay: cython.ulonglong[:]
    subs: cython.ulonglong[:]
    eff: cython.ulonglong[:]
    player_of: cython.longlong[:]
    won: cython.ulonglong[:]
    quiet: cython.ulonglong[:]
    trash: cython.longlong[:]
    janken: cython.longlong[:]
    ntrash: cython.int
    ret: tuple
    tables: dict
    core: object
    bits: object
    randrange: object
    choice: object

    def __init__(self, tables, core) -> None:
        self.tables, self.core = tables, core
        self.cost, self.summonable, self.amask = tables["cost"], tables["summonable"], tables["amask"]
        self.pay, self.subs, self.eff = tables["pay"], tables["subs"], tables["eff"]
        self.player_of, self.won = tables["player_of"], tables["won"]
        self.quiet, self.ret = tables["quiet"], tables["ret"]
        trash = [o for o, _w in core.chance(TRASH)]  # MZ-3, MZ-Q8: core's outcomes, in its order
        self.trash, self.ntrash = array("q", trash), len(trash)
        self.janken = array("q", [o for o, _w in core.chance(JANKEN)])  # MZ-2
        self.low = LOW
        self.buf = array("q", [0] * 64)
        self.h = self.x = self.y = 0
        self.nm = -1

    @cython.ccall
    def copy_from(self, other: WordCore) -> cython.void:
        """Set this position to ``other``'s (a core of the same game)."""
        self.h, self.x, self.y = other.h, other.x, other.y
        self.nm = -1

    # -- conversions: core's int position in and out ----------------------------------------
    def load(self, pos) -> None:
        """Set this position to :mod:`.core`'s ``pos``."""
        self.h, self.x, self.y = _words(pos)
        self.nm = -1

    def to_pos(self):
        """This position as :mod:`.core`'s int."""
        return _join(self.h, self.x, self.y)

    def key(self) -> tuple:
        """This position as a tuple of its three words: equal exactly where :meth:`to_pos` is."""
        return (self.h, self.x, self.y)

    # -- the protocol of cardlab.cores on this position ---------------------------------------
    def player(self) -> int:
        return self.player_of[self.h & 15]

    def moves(self) -> list:
        """The legal moves, or at a chance node the outcomes, in :mod:`.core`'s order."""
        k: cython.int = self._fill()
        return [self.buf[i] for i in range(k)]

    def play(self, m: cython.longlong) -> None:
        """Play move (or chance outcome) ``m`` on this position."""
        self._play(m)

    def returns(self) -> tuple:
        """MZ-23, MZ-24, MZ-Q6, MZ-Q7: core's ``ret`` table ((0, 0) before the end)."""
        return self._returns()

    @cython.cfunc
    def _returns(self) -> tuple:
        if self.h & PH != END:
            return (0, 0)
        return self.ret[(self.h & TURN) << 1 | (self.x >> SC & 3) << 2 | self.y >> SC & 3]

    def perft(self, depth: cython.int) -> int:
        """The number of lines of ``depth`` steps from this position (fewer where the game
        ends; chance outcomes count as steps), as :func:`cardlab.cores.perft` counts them."""
        stack = [WordCore(self.tables, self.core) for _ in range(depth)]
        return self._perft(depth, stack)

    @cython.cfunc
    def _perft(self, depth: cython.int, stack: list) -> cython.longlong:
        if depth == 0 or self.h & PH == END:
            return 1
        child: WordCore = stack[depth - 1]
        total: cython.longlong = 0
        i: cython.int
        k: cython.int = self._fill()
        for i in range(k):
            child.copy_from(self)
            child._play(self.buf[i])
            total += child._perft(depth - 1, stack)
        return total

    def playout(self, rng, limit: cython.int = 10_000) -> tuple:
        """A random game from this position, drawn from ``rng`` as
        :func:`cardlab.cores.playout_from` draws it on :mod:`.core`: ``(returns, steps)``,
        zeros when cut off after ``limit`` steps.  Chance is uniform (``randrange`` of the
        outcomes' number), a move ``rng.choice(moves)``: both ``Random._randbelow``,
        reproduced here from ``getrandbits``; a subclass of Random is called itself."""
        if type(rng) is random.Random:
            self.bits = rng.getrandbits
        else:
            self.bits, self.randrange, self.choice = None, rng.randrange, rng.choice
        steps: cython.int = 0
        k: cython.int
        i: cython.int
        while self.h & PH != END:
            if steps == limit:
                return (0, 0), steps
            k = self._fill()
            if self.bits is not None:
                self._play(self.buf[self._below(k)])
            elif self.player_of[self.h & 15] == CHANCE:
                i = self.randrange(k)
                self._play(self.buf[i])
            else:
                self._play(self.choice([self.buf[i] for i in range(k)]))
            steps += 1
        return self._returns(), steps

    @cython.cfunc
    def _below(self, n: cython.int) -> cython.int:
        """``Random._randbelow(n)`` (randrange, choice), the same number from ``getrandbits``."""
        k: cython.int = 0
        r: cython.int
        while n >> k:
            k += 1
        r = self.bits(k)
        while r >= n:
            r = self.bits(k)
        return r

    # -- the moves -------------------------------------------------------------------------
    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _fill(self) -> cython.int:
        """The moves (or chance outcomes) of this position into ``buf``, in :mod:`.core`'s
        order: core's ``moves`` and ``chance``; their number."""
        ph: cython.int = self.h & PH
        k: cython.int = 0
        i: cython.int
        m: cython.ulonglong
        if ph == SUMMON or ph == BATTLE:
            if self.nm >= 0:
                return self.nm
            if self.x & UM:
                k = self._gen()
            if k <= 1:  # a position the engine never leaves to its mover: only 'end' (core's moves)
                self.buf[0] = K_END
                k = 1
            return k
        if ph == CHARGE:  # MZ-6: a card of the hand into mana
            m = self.x >> SH & FULL
            while m:
                self.buf[k] = K_CHARGE | self.low[m] << 4
                m &= m - ONE
                k += 1
        elif ph == SUB:  # MZ-19: another monster of the defender, or decline
            m = self.y >> SB & FULL & ~(ONE << (self.h >> PT & 15))
            while m:
                self.buf[k] = K_SUBST | self.low[m] << 4
                m &= m - ONE
                k += 1
            self.buf[k] = K_DECLINE
            k += 1
        elif ph == STEAL:  # MZ-22, MZ-Q2: any card of the opponent's hand alike
            m = self.y >> SH & FULL
            while m:
                self.buf[k] = K_STEAL | self.low[m] << 4
                m &= m - ONE
                k += 1
        elif ph == TRASH:  # MZ-3, MZ-Q8: any two cards alike
            for i in range(self.ntrash):
                self.buf[i] = self.trash[i]
            k = self.ntrash
        elif ph == JANKEN:  # MZ-2: a fair coin
            self.buf[0], self.buf[1] = self.janken[0], self.janken[1]
            k = 2
        return k

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _gen(self) -> cython.int:
        """The mover's moves in the summon and battle phases (core's ``settle``), in the
        engine's order: attacks (KO, wound, mutual; then attacker and target slots; MZ-8,
        MZ-Q4: two mana or more for the 2-mana ones), direct attacks (MZ-22), summons
        (MZ-7, MZ-18), 'end' (MZ-9); into ``buf``, their number."""
        p: cython.ulonglong = self.h >> 3 & 1
        u: cython.ulonglong = self.x & UM
        zone: cython.ulonglong = self.x >> SB & FULL
        ready: cython.ulonglong = zone & ~(self.x >> SA)  # MZ-8: each monster attacks once per turn
        targets: cython.ulonglong = self.y >> SB & FULL
        base: cython.ulonglong = (p << 1 | (u >= 2)) * NS
        k: cython.int = 0
        r: cython.int
        a: cython.ulonglong
        m: cython.ulonglong
        i: cython.ulonglong
        if ready and targets:
            for r in range(3):
                a = ready
                while a:
                    i = self.low[a]
                    m = self.amask[(base + i) << 10 | targets] >> 10 * r & FULL
                    while m:
                        self.buf[k] = K_ATTACK | i << 4 | self.low[m] << 8
                        m &= m - ONE
                        k += 1
                    a &= a - ONE
        elif ready and not self.h & DU and self.y >> SH & FULL:  # MZ-22: once per turn, a card to take
            while ready:
                self.buf[k] = K_DIRECT | self.low[ready] << 4
                ready &= ready - ONE
                k += 1
        if self.h & PH == SUMMON:  # MZ-7: summons before the first attack
            m = self.summonable[p << 14 | zone << 4 | u] & self.x >> SH
            while m:
                self.buf[k] = K_SUMMON | self.low[m] << 4
                m &= m - ONE
                k += 1
        self.buf[k] = K_END
        return k + 1

    # -- the steps on words ----------------------------------------------------------------
    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _play(self, m: cython.longlong) -> cython.void:
        """core's ``play``: move or chance outcome ``m`` (``kind | x << 4 | y << 8``)."""
        kind: cython.int = m & 15
        a: cython.ulonglong = m >> 4 & 15
        b: cython.ulonglong = m >> 8
        p: cython.ulonglong = self.h >> 3 & 1
        j: cython.ulonglong
        s: cython.ulonglong
        zone: cython.ulonglong
        self.nm = -1
        if kind == K_CHARGE:  # MZ-6: face down into mana, usable this turn; summon next
            self.x = self.x - (ONE << SH + a) + (ONE << SM) + 1
            self.h = self.h + (SUMMON - CHARGE) | ACTED
            self._settle()
        elif kind == K_SUMMON:  # MZ-7, MZ-18: hand -> zone, less its cost in untapped mana
            zone = self.x >> SB & FULL
            self.x = self.x + (ONE << SB + a) - (ONE << SH + a) - self.cost[(p * NS + a) << 10 | zone]
            self.h |= ACTED
            self._settle()
        elif kind == K_ATTACK:  # MZ-8: 1 mana, 2 at an attribute disadvantage (MZ-Q4)
            j = (p * NS + a) * NS + b
            self.x = self.x - self.pay[j] | ONE << SA + a
            self.h |= ACTED
            s = self.subs[j]
            if s:  # MZ-19, MZ-21: the defender may answer with a substitute
                zone = self.y >> SB & FULL
                if s >> (((self.h & SU) != 0) | ((self.y & UM) != 0) << 1 | ((zone & (zone - 1)) != 0) << 2) & 1:
                    self.h = self.h & ~PH | SUB | a << PA | b << PT
                    return
            self._resolve(a, b, 0)
        elif kind == K_END:  # MZ-9
            self._end_turn()
            self._settle()
        elif kind == K_DECLINE:
            a, b = self.h >> PA & 15, self.h >> PT & 15
            self.h &= ~PEND
            self._resolve(a, b, 0)
        elif kind == K_SUBST:  # MZ-19, MZ-Q5: 1 of the defender's mana; the substitute's own values
            b = self.h >> PA & 15
            self.h = self.h & ~PEND | SU
            self.y -= 1
            self._resolve(b, a, 1)
        elif kind == K_DIRECT:  # MZ-22, MZ-Q2: one attacker, 1 mana, once per turn
            self.x = self.x - 1 | ONE << SA + a
            self.h = self.h & ~PH | ACTED | DU | STEAL
        elif kind == K_STEAL:  # MZ-22: the card goes to the mover's captures
            self.y = self.y - (ONE << SH + a) | ONE << SO + a
            self.x += ONE << SC
            self._after_capture()
        elif kind == K_TRASH:  # MZ-3: two cards aside unseen, then the first turn's charge (MZ-6)
            self.x -= (ONE << SH + a) + (ONE << SH + b)
            self.h = self.h & ~PH | CHARGE
        else:  # K_JANKEN, MZ-2: the winner goes first (the players' fields are alike still)
            self.h = self.h & ~PH | TRASH | a << 3 | a * FIRST

    @cython.cfunc
    @cython.boundscheck(False)
    @cython.wraparound(False)
    def _resolve(self, a: cython.ulonglong, d: cython.ulonglong, sub: cython.ulonglong) -> cython.void:
        """The mover's ``a`` against the defender's ``d`` (a substitute when ``sub``): their
        battle effect (MZ-12 … MZ-17, MZ-20, MZ-Q5, MZ-Q7; core's ``resolve``), then MZ-23."""
        p: cython.ulonglong = self.h >> 3 & 1
        e: cython.ulonglong = ((((p * NS + a) * NS + d) << 3 | sub | (self.y >> SW + d & 1) << 1
                               | (self.x >> SW + a & 1) << 2) * 6)
        self.x = (self.x & self.eff[e] | self.eff[e + 1]) + self.eff[e + 2]
        self.y = (self.y & self.eff[e + 3] | self.eff[e + 4]) + self.eff[e + 5]
        if self.eff[e + 2] | self.eff[e + 5]:
            self._after_capture()
        else:
            self.h = self.h & ~PH | BATTLE
            self._settle()

    @cython.cfunc
    def _after_capture(self) -> cython.void:
        """MZ-23: three captures win at once; else the battle goes on."""
        if self.won[(self.x >> SC & 3) | (self.y >> SC & 3) << 2]:
            self.h = self.h & ~PH | END
        else:
            self.h = self.h & ~PH | BATTLE
            self._settle()

    @cython.cfunc
    def _settle(self) -> cython.void:
        """MZ-9: end the turn while only 'end' is left (core's ``settle``); the moves found
        stay in ``buf`` for this position."""
        ph: cython.int
        k: cython.int
        while True:
            ph = self.h & PH
            if ph != SUMMON and ph != BATTLE:
                return
            if self.x & UM:
                k = self._gen()
                if k > 1:
                    self.nm = k
                    return
            self._end_turn()

    @cython.cfunc
    def _end_turn(self) -> cython.void:
        """MZ-9, MZ-Q6 (two quiet turns end the game), then MZ-5 and MZ-6 (core's
        ``end_turn``): the other player moves, its mana untapped, charging if its hand has
        a card; the mover's attacks, its flags and pending start afresh."""
        q: cython.ulonglong = self.quiet[((self.h & ACTED) != 0) | (self.h >> QS & 3) << 1]
        nc: cython.ulonglong = q & 7
        x: cython.ulonglong = self.x
        if q >> 3:
            self.h = self.h & ~(PH | QM | SU | DU) | END | nc << QS
            self.x &= ~ATT
            return
        self.h = ((self.h & (TURN | FIRST)) ^ TURN | nc << QS
                  | (CHARGE if self.y >> SH & FULL else SUMMON))
        self.x = self.y & ~UM | self.y >> SM & UM
        self.y = x & ~ATT
