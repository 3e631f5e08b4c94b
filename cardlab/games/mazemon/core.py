"""The compact core of Mazemon (cardlab.cores, issue P item 4).

The rules are :mod:`.rules` (rule ids from ``docs/rules/mazemon.md``): the
core's tables are built by calling them when the core is made
(:class:`Tables`): who moves (:func:`.rules.player_to_move`), the summons
(:func:`.rules.summons` over the game's cost table of
:func:`.rules.summon_cost`), the attacks in their canonical order
(:func:`.rules.attacks` over the fight table of :func:`.rules.fight`), みがわり
(:func:`.rules.substitute_possible`), what a battle does
(:func:`.rules.battle_effect`), the quiet turns
(:func:`.rules.quiet_turns_after`), the win (:func:`.rules.is_won`) and the
returns (:func:`.rules.outcome`).  Every option is handled: ``open_hands``
changes only what players see, ``payoff`` and ``both_three`` only the
returns, and ``cards``, ``deck0``, ``deck1`` and ``material_count`` only the
tables.  ``make_core`` never gives ``None``; ``encode`` gives ``None`` only
for a key outside the engine's invariants (never from a reachable or loaded
position).

A position is one int, the State's key (:data:`.key.LAYOUT`) bit-packed by
:data:`POS` with the two players' fields ordered *mover first* ("x": the
player whose turn it is, ``turn``; "y": the other; a turn change swaps
them).  What the move generator reads lies low (small ints are cheap to take
apart): phase, turn, the flags, x's untapped mana, battle zone and hand, then
y's.  Masks are over deck slots.  The engine's first is -1 only before the
janken and its pending attack -1 only outside the substitute phase: both are
stored as 0 then (the phase tells them apart).  Only the mover's monsters
can have attacked (MZ-8; the engine clears them at the end of the turn), so
y has no "attacked" field.  Moves are ``kind | x << 4 | y << 8`` (x, y deck
slots; kinds below); chance outcomes are moves of the chance kinds, each of
weight 1.

Bookkeeping.  The engine ends a turn by itself when only 'end' is left
(MZ-9): to know that, ``play`` works out the mover's moves of the position
it leaves, and keeps that list for the ``moves`` call that follows on the
same position object (playouts and the solver make that call next), which
hands it over.
"""

from __future__ import annotations

from ...layout import Bits
from . import rules
from .key import PLAYER_FIELDS
from .rules import BATTLE, CHARGE, DECK_SIZE, END, FULL, JANKEN, STEAL, SUB, SUMMON, TRASH

__all__ = ["make_core", "MazemonCore", "TEST_OPTIONS", "POS"]

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

#: the packed position, low bits first (x: the mover, y: the other player)
POS = Bits(("phase", 3), ("turn", 1), ("direct_used", 1), ("substitute_used", 1),
           ("x_untapped", 4), ("x_battle", DECK_SIZE), ("x_hand", DECK_SIZE),
           ("acted", 1), ("quiet_turns", 2), ("first", 1), ("spare", 2),
           ("y_untapped", 4), ("y_battle", DECK_SIZE), ("y_hand", DECK_SIZE),
           ("x_attacked", DECK_SIZE), ("pending_attacker", 4), ("pending_target", 4),
           ("x_wounded", DECK_SIZE), ("x_out", DECK_SIZE), ("x_mana", 4), ("x_captured", 2),
           ("y_wounded", DECK_SIZE), ("y_out", DECK_SIZE), ("y_mana", 4), ("y_captured", 2))
_S = POS.shift

# move kinds (low 4 bits of a move)
K_CHARGE, K_SUMMON, K_ATTACK, K_DIRECT, K_END, K_SUBST, K_DECLINE, K_JANKEN, K_TRASH, K_STEAL = range(10)
END_MOVE, DECLINE_MOVE = K_END, K_DECLINE

# the turn fields
PH_MASK, MVB, DUB, SUB_B, ACB = 7, 1 << _S["turn"], 1 << _S["direct_used"], 1 << _S["substitute_used"], 1 << _S["acted"]
NCS, FIB, PAS, PTS = _S["quiet_turns"], 1 << _S["first"], _S["pending_attacker"], _S["pending_target"]
NC_MASK, PEND_MASK = 3 << NCS, 0xFF << PAS
# the players' fields: x (the mover) and y
XU, XB, XH, XA, XW, XO, XM, XC = (_S["x_" + n] for n in ("untapped", "battle", "hand", "attacked", "wounded",
                                                         "out", "mana", "captured"))
YU, YB, YH, YW, YO, YM, YC = (_S["y_" + n] for n in ("untapped", "battle", "hand", "wounded", "out", "mana",
                                                     "captured"))
D1, D2 = YU - XU, YW - XW  # y's untapped, battle zone and hand lie D1 above x's; the rest D2 above
assert (YB - XB, YH - XH, YO - XO, YM - XM, YC - XC, POS.width) == (D1, D1, D2, D2, D2, YC + 2)
LO = (1 << ACB.bit_length() - 1) - 1  # phase, turn, direct_used, substitute_used, x untapped, zone and hand
XU_MASK, XA_MASK, YB_MASK, YH_MASK, YU_MASK = 15 << XU, FULL << XA, FULL << YB, FULL << YH, 15 << YU
G1X = (1 << XH + DECK_SIZE) - (1 << XU)  # x untapped, zone, hand
G1Y_BH = (1 << YH + DECK_SIZE) - (1 << YB)  # y zone, hand
G2X = (1 << YW) - (1 << XW)  # x wounded, out, mana, captured
KEEP_ON_SWAP = MVB | FIB  # the rest of the turn fields start afresh (MZ-5)
#: the zones possible (MZ-4)
SMALL = tuple(m for m in range(FULL + 1) if rules.POP[m] <= rules.ZONE_LIMIT)


def make_core(game) -> "MazemonCore":
    """The core of a Mazemon game (every option is handled)."""
    return MazemonCore(game)


#: (decks' tables, rules) -> (summonable, attacks, attacks1), see Tables
_MADE: dict = {}


class Tables:
    """The per-game tables of the core, each built by calling :mod:`.rules`."""

    def __init__(self, game) -> None:
        self.game_cost = game.cost  # rules.summon_cost per card and zone (MZ-18, MZ-Q3)
        # the two largest tables depend only on the decks' tables and the rules they call: made
        # once per deck pair (a game loaded again with other options, or a position of the same
        # decks, takes them from here), and again when a rule is swapped (the key holds the rules)
        key = (game.cost, game.fight, rules.summons, rules.may_summon, rules.attacks)
        made = _MADE.get(key)
        if made is None:
            if len(_MADE) >= 64:
                _MADE.clear()
            made = _MADE[key] = ([self._summonable(game.cost[p]) for p in (0, 1)], *self._attacks(game))
        self.summonable, self.attacks, self.attacks1 = made
        self.attack = [self._attack(game.fight[p]) for p in (0, 1)]
        self.player_of = tuple(rules.player_to_move(ph, mv) for mv in (0, 1) for ph in range(8))
        # won[x's captures | y's captures << 2]: MZ-23
        self.won = tuple(rules.is_won(c & 3, c >> 2) for c in range(16))
        # quiet[acted | quiet turns << 1]: (the count after the turn, whether the game ends) (MZ-Q6)
        self.quiet = tuple((n, n >= rules.QUIET_TURNS_END)
                           for i in range(8) for n in (rules.quiet_turns_after(i >> 1, bool(i & 1)),))
        opts = game.options
        # ret[turn << 4 | mover's captures << 2 | other's captures]: MZ-23, MZ-24, MZ-Q6, MZ-Q7
        ret = []
        for mv in (0, 1):
            for cx in range(4):
                for cy in range(4):
                    c0, c1 = (cx, cy) if mv == 0 else (cy, cx)
                    d = rules.outcome(c0, c1, mv, opts["payoff"], opts["both_three"])
                    ret.append((d, -d))
        self.ret = tuple(ret)

    @staticmethod
    def _summonable(costs) -> list[int]:
        """``t[zone << 4 | untapped]``: the mask of cards one can pay for (MZ-7, MZ-18)."""
        t = [0] * ((FULL + 1) << 4)
        for zone in SMALL:
            for u in range(16):
                t[zone << 4 | u] = sum(1 << i for i in rules.summons(FULL, zone, u, costs))
        return t

    @staticmethod
    def _attacks(game) -> tuple[list, list]:
        """The attacks of one attacker i on the targets T (MZ-8, :func:`.rules.attacks`):
        ``attacks[p << 1 | two][i][T]`` is (KO, wound, mutual) moves, each in
        target slot order; ``attacks1[p << 1 | two][1 << i][T]`` the three
        joined.  two: 2+ untapped mana (else only the 1-mana attacks, MZ-Q4)."""
        attacks, attacks1 = [], []
        for p in (0, 1):
            fights = game.fight[p]
            for two in (0, 1):
                split, joined = [], [None] * (FULL + 1)
                for i in range(DECK_SIZE):
                    row, row1 = [None] * (FULL + 1), [None] * (FULL + 1)
                    for t in SMALL:
                        ms: list[tuple] = [(), (), ()]
                        for x, y in rules.attacks(1 << i, t, 1 + two, fights):
                            ms[fights[x][y][0]] += (K_ATTACK | x << 4 | y << 8,)
                        row[t] = tuple(ms)
                        row1[t] = ms[0] + ms[1] + ms[2]
                    split.append(row)
                    joined[1 << i] = row1
                attacks.append(split)
                attacks1.append(joined)
        return attacks, attacks1

    @staticmethod
    def _attack(fights) -> list:
        """``attack[x][y]``: (mana as untapped mana, the みがわり table, the battle's
        effects).  The みがわり table is indexed by used | untapped mana << 1 |
        several monsters << 2 (MZ-19, MZ-21); the effects by substitute |
        defender wounded << 1 | attacker wounded << 2, each ``(and, or, add)``
        on the position (:func:`.rules.battle_effect`)."""
        out = []
        for x in range(DECK_SIZE):
            row = []
            for y in range(DECK_SIZE):
                result, pay, attr_wins = fights[x][y]
                may_sub = tuple(rules.substitute_possible(bool(i & 1), i >> 1 & 1, 1 + (i >> 2), not attr_wins)
                                for i in range(8))
                may_sub = may_sub if any(may_sub) else ()  # () when never (MZ-21): play skips it
                effects = tuple(_effect(x, y, rules.battle_effect(result, bool(i & 2), bool(i & 4), bool(i & 1)))
                                for i in range(8))
                row.append((pay << XU, may_sub, effects))
            out.append(row)
        return out


def _effect(x: int, y: int, e: rules.Effect) -> tuple[int, int, int]:
    """A battle's :class:`.rules.Effect` as ``(and, or, add)`` on the position."""
    andm, orm = -1, 0
    if e.defender_out:  # leaves the zone (its wound with it)
        andm &= ~(1 << YB + y | 1 << YW + y)
        orm |= 1 << YO + y
    if e.defender_wound:
        orm |= 1 << YW + y
    if e.attacker_out:
        andm &= ~(1 << XB + x | 1 << XW + x | 1 << XA + x)
        orm |= 1 << XO + x
    if e.attacker_wound:
        orm |= 1 << XW + x
    return andm, orm, e.attacker_captures << XC | e.defender_captures << YC


class MazemonCore:
    """player / moves / chance / play / returns on packed ints (module docstring)."""

    def __init__(self, game) -> None:
        self.game = game
        self._last = (None, None)  # the last state encoded and its position
        t = Tables(game)
        self.player = _player(t)
        self.moves, self.play = _steps(t)
        self.chance = _chance()
        ret, zero = t.ret, (0, 0)

        def returns(pos):
            if pos & 7 != END:
                return zero
            return ret[(pos & MVB) << 1 | (pos >> XC & 3) << 2 | pos >> YC]

        self.returns = returns
        self.uniform_chance = True  # MZ-2, MZ-3, MZ-22: a fair coin, any two cards, any steal alike

    def encode(self, state):
        """The position of ``state`` (``None`` for a key outside the engine's invariants)."""
        if state.game is not self.game and state.game != self.game:
            return None
        last = self._last
        if last[0] == state:  # playouts encode the same root again and again
            return last[1]
        f = state.fields
        ph, mv = f["phase"], f["turn"]
        sub = ph == SUB
        if ((f["first"] < 0) != (ph == JANKEN) or (f["pending_attacker"] < 0) != (not sub)
                or (f["pending_target"] < 0) != (not sub) or f["quiet_turns"] > 3 or f[f"attacked{1 - mv}"]):
            return None
        values = {"phase": ph, "turn": mv, "first": max(f["first"], 0), "quiet_turns": f["quiet_turns"],
                  "acted": f["acted"], "substitute_used": f["substitute_used"], "direct_used": f["direct_used"],
                  "pending_attacker": f["pending_attacker"] if sub else 0,
                  "pending_target": f["pending_target"] if sub else 0}
        for who, p in (("x_", mv), ("y_", 1 - mv)):
            for name in PLAYER_FIELDS:
                if who == "x_" or name != "attacked":
                    values[who + name] = f[f"{name}{p}"]
        if not POS.fits(**values):
            return None
        pos = POS.pack(**values)
        self._last = (state, pos)
        return pos

    def decode(self, pos):
        """The public state of ``pos``, made by the game (:meth:`Mazemon.from_fields`)."""
        v = POS.unpack(pos)
        ph, mv = v["phase"], v["turn"]
        sub = ph == SUB
        fields = {"phase": ph, "turn": mv, "first": -1 if ph == JANKEN else v["first"],
                  "quiet_turns": v["quiet_turns"], "acted": v["acted"], "substitute_used": v["substitute_used"],
                  "direct_used": v["direct_used"], "pending_attacker": v["pending_attacker"] if sub else -1,
                  "pending_target": v["pending_target"] if sub else -1}
        for who, p in (("x_", mv), ("y_", 1 - mv)):
            for name in PLAYER_FIELDS:
                fields[f"{name}{p}"] = v.get(who + name, 0)
        return self.game.from_fields(**fields)


def _player(t: Tables):
    player_of = t.player_of

    def player(pos):
        return player_of[pos & 15]

    return player


def _chance():
    steal_outs = tuple(tuple((K_STEAL | i << 4, 1) for i in b) for b in rules.BITS)  # MZ-22, MZ-Q2: uniform
    trash_outs = tuple((K_TRASH | i << 4 | j << 8, 1) for i, j in rules.trash_pairs())  # MZ-3, MZ-Q8
    janken_outs = ((K_JANKEN, 1), (K_JANKEN | 1 << 4, 1))  # MZ-2: a fair coin

    def chance(pos):
        ph = pos & 7
        if ph == STEAL:  # MZ-22, MZ-Q2
            return list(steal_outs[(pos & YH_MASK) >> YH])
        if ph == TRASH:  # MZ-3, MZ-Q8
            return list(trash_outs)
        if ph == JANKEN:  # MZ-2
            return list(janken_outs)
        return []

    return chance


def _turn_end(t: Tables):
    """MZ-9, MZ-Q6 (two quiet turns end the game), then MZ-5 and MZ-6."""
    quiet = t.quiet

    def end_turn(pos):
        nc, over = quiet[pos >> 30 & 7]  # acted | quiet turns << 1
        if over:
            return pos & ~(PH_MASK | NC_MASK | SUB_B | DUB | XA_MASK) | END | nc << NCS
        # the other player's turn: swap x and y, untap (MZ-5: untapped = mana), and charge
        # if the hand has a card (MZ-6); attacked, acted, the flags and pending start afresh
        return ((pos & KEEP_ON_SWAP ^ MVB) | nc << NCS | (pos & G1X) << D1 | (pos & G1Y_BH) >> D1
                | (pos & G2X) << D2 | (pos >> YW) << XW | (pos >> YM & 15) << XU
                | (CHARGE if pos & YH_MASK else SUMMON))

    return end_turn


def _settler(t: Tables, end_turn):
    """``settle(pos)`` and ``moves(pos)``.  ``settle``: end the turn while only 'end' is left (MZ-9, the engine's
    _settle).  Finds the mover's moves in the summon and battle phases, in the
    engine's order: attacks (KO, wound, mutual; then attacker and target
    slots; MZ-8), direct attacks (MZ-22), summons (MZ-7, MZ-18), 'end'; and
    keeps them for the moves() call that follows."""
    bits, summonable, attacks, attacks1 = rules.BITS, t.summonable, t.attacks, t.attacks1
    summon_end = tuple(tuple(K_SUMMON | i << 4 for i in b) + (END_MOVE,) for b in bits)  # summons, then 'end'
    direct_moves = tuple(tuple(K_DIRECT | i << 4 for i in b) for b in bits)
    end_only = summon_end[0]
    charge_moves = tuple(tuple(K_CHARGE | i << 4 for i in b) for b in bits)
    subst_moves = tuple(tuple(K_SUBST | i << 4 for i in b) + (DECLINE_MOVE,) for b in bits)  # MZ-19
    stash = (None, None)  # (the position settle last left to its mover, its moves)

    def settle(pos):
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
                        a_t = attacks[p << 1 | (u >= 2)]
                        rb = bits[ready]
                        a = a_t[rb[0]][targets]
                        b = a_t[rb[1]][targets]
                        if len(rb) == 2:
                            ms = [*a[0], *b[0], *a[1], *b[1], *a[2], *b[2], *tail]
                        else:
                            c = a_t[rb[2]][targets]
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

    return settle, moves


def _resolver(t: Tables, settle):
    """``resolve(pos, effects, x, y, sub)``: the mover's x against the defender's y
    (a substitute when sub): their :func:`.rules.battle_effect` table
    (``effects``, :meth:`Tables._attack`), then MZ-23."""
    won = t.won

    def resolve(pos, effects, x, y, sub):
        andm, orm, add = effects[sub | (pos >> YW + y & 1) << 1 | (pos >> XW + x & 1) << 2]
        pos = (pos & andm | orm) + add
        if add and won[pos >> XC & 3 | pos >> YC << 2]:  # MZ-23: a capture may win
            return pos & ~PH_MASK | END
        return settle(pos & ~PH_MASK | BATTLE)

    return resolve


def _steps(t: Tables):
    """``moves(pos)`` and ``play(pos, move)``."""
    end_turn = _turn_end(t)
    settle, moves = _settler(t, end_turn)
    resolve = _resolver(t, settle)
    attack, won = t.attack, t.won
    xh_bit = [1 << XH + i for i in range(DECK_SIZE)]
    yh_bit, yo_bit = [1 << YH + i for i in range(DECK_SIZE)], [1 << YO + i for i in range(DECK_SIZE)]
    xab = [1 << XA + i | ACB for i in range(DECK_SIZE)]  # attacked, and acted
    # summon[p][i][zone]: hand -> zone, less its cost in untapped mana (MZ-7, MZ-18)
    summon = [[[(1 << XB + i) - xh_bit[i] - (c << XU) for c in costs[i]] for i in range(DECK_SIZE)]
              for costs in (t.game_cost)]
    charge_add = (1 << XM) + (1 << XU) + (SUMMON - CHARGE)  # MZ-6: one more mana, untapped; summon next
    xc_one, u_one, yu_one = 1 << XC, 1 << XU, 1 << YU

    def play(pos, m):
        kind = m & 15
        x = m >> 4 & 15
        if kind == K_CHARGE:  # MZ-6: face down into mana, usable this turn
            return settle(pos - xh_bit[x] + charge_add | ACB)
        if kind == K_SUMMON:  # MZ-7, MZ-18
            return settle(pos + summon[pos >> 3 & 1][x][(pos & LO) >> XB & FULL] | ACB)
        if kind == K_ATTACK:  # MZ-8: 1 mana, 2 at an attribute disadvantage (MZ-Q4)
            y = m >> 8
            pay, may_sub, effects = attack[pos >> 3 & 1][x][y]
            pos = pos - pay | xab[x]
            if may_sub:  # MZ-19, MZ-21
                zone = pos & YB_MASK
                if may_sub[(pos & SUB_B != 0) | (pos & YU_MASK != 0) << 1 | (zone & (zone - 1) != 0) << 2]:
                    return pos & ~PH_MASK | SUB | x << PAS | y << PTS
            return resolve(pos, effects, x, y, False)
        if kind == K_END:  # MZ-9
            return settle(end_turn(pos))
        if kind == K_DECLINE:
            a, y = pos >> PAS & 15, pos >> PTS & 15
            return resolve(pos & ~PEND_MASK, attack[pos >> 3 & 1][a][y][2], a, y, False)
        if kind == K_SUBST:  # MZ-19, MZ-Q5: 1 of the defender's mana; the substitute's own values
            a = pos >> PAS & 15
            return resolve((pos & ~PEND_MASK | SUB_B) - yu_one, attack[pos >> 3 & 1][a][x][2], a, x, True)
        if kind == K_DIRECT:  # MZ-22, MZ-Q2: one attacker, 1 mana, once per turn
            return (pos - u_one) & ~PH_MASK | xab[x] | DUB | STEAL
        if kind == K_STEAL:  # MZ-22: the card goes to the mover's captures
            pos = (pos - yh_bit[x] | yo_bit[x]) + xc_one
            if won[pos >> XC & 3 | pos >> YC << 2]:  # MZ-23
                return pos & ~PH_MASK | END
            return settle(pos & ~PH_MASK | BATTLE)
        if kind == K_TRASH:  # MZ-3: two cards aside unseen, then the first turn's charge (MZ-6)
            return pos - xh_bit[x] - xh_bit[m >> 8] & ~PH_MASK | CHARGE
        # K_JANKEN, MZ-2: the winner goes first (the players' fields are alike still)
        return pos & ~PH_MASK | TRASH | x << 3 | x * FIB

    return moves, play
