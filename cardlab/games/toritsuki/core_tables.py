"""The compact core's position layout and tables (see :mod:`.core`): the
declared layout of the 45 small ints (:data:`POS`, :data:`SIDE`), the codes of
stages and moves, the per-card tables built from the cards and
:mod:`.rules`, ``encode`` / ``decode`` and the reading of a position.
"""

from __future__ import annotations

from itertools import combinations
from types import SimpleNamespace

from ...core import CHANCE, TERMINAL
from ...layout import Layout
from . import positions, rules

#: a player's fields in the core's position (15 small ints)
SIDE = Layout("hand", "unseen", "deck_size", "deck_top", "front1", "front2", "front3", "back1", "back2", "back3",
              "yoki_ready", "yoki_resting", "damage_up", "damage_down", "trash")
#: the core's position: the State's head, the battle, then player 0's and player 1's SIDE fields
POS = Layout("stage", "turn_player", "first_player", "first_turn", "event_used", "pending", "winner",
             *positions.BATTLE_LAYOUT.names, *(f"p{p}_{name}" for p in (0, 1) for name in SIDE.names))
ST, TP, FP, FT, EV, PD, WN = POS.stage, POS.turn_player, POS.first_player, POS.first_turn, POS.event_used, \
    POS.pending, POS.winner
BA, BAB, BAM, BB, BBB, BBM, PSA, PSD = (POS.index[name] for name in positions.BATTLE_LAYOUT.names)
H, PO, N, TOP, F, B = SIDE.hand, SIDE.unseen, SIDE.deck_size, SIDE.deck_top, SIDE.front1, SIDE.back1
YR, YS, DU, DD, TR = SIDE.yoki_ready, SIDE.yoki_resting, SIDE.damage_up, SIDE.damage_down, SIDE.trash
BASE0, SIZE = POS.p0_hand, len(SIDE)  # player p's fields start at BASE0 + SIZE * p
assert (BASE0, SIZE, BASE0 + 2 * SIZE) == (15, 15, len(POS))  # the numbers written in the hot paths below
ROWS = (BASE0 + F, BASE0 + B, BASE0 + SIZE + F, BASE0 + SIZE + B)  # every row of both players
STAGES = positions.STAGES
(SHUFFLE, DEAL, MULLIGAN, COIN, DRAW, MAIN, EVDRAW, BATTLE, BLOCK, DAMAGE,
 POSS_A, REVEAL_A, POSS_D, REVEAL_D, OVER) = range(15)
DUEL = 15  # transient: settled at once (TK-21)
EMPTY = 0x3FFF << 16  # beyond every card number (≤ 9999): sorts last; low 16 bits clear
RESTED, MOVED = 1 << 15, 1 << 14
# move kinds
KEEP, MULL, SUMMON, RELEASE, MOVE, EVENT, ATTACK, END, BLOCKM, NOBLOCK, PASS, PDECK, PHAND = range(13)
NOTARGET = 15
EV_KINDS = tuple(rules.EVENT_KINDS)
E_DRAW, E_READY, E_BP, E_HEAL, E_BANISH, E_CHARGE, E_REST, E_WIN = (EV_KINDS.index(k) for k in (
    "draw", "ready_yoki", "bp_up", "heal", "banish", "charge", "rest", "win_if_field"))


_TABLES: dict = {}  # tables that depend on a rule and a size only, by (rule function, size …)


def _cached(make, *key):
    """``make(*key)``, built once per key (the rule function is part of the key: a swapped rule builds anew)."""
    table = _TABLES.get((make, *key))
    if table is None:
        table = _TABLES[(make, *key)] = make(*key)
    return table


def _move_table(row: int) -> dict:
    """TK-13: for (front size, back size, mask of unmoved places) the row
    changes in the engine's order (combinations of the unmoved places by
    size; F places are bits 0-2, B places bits 3-5), ``row`` a row at most."""
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
                        if nf - n_out + n_in > row or nb - n_in + n_out > row:
                            continue
                        out.append(sum(1 << s for s in pick))
                table[nf, nb, um] = out
    return table


_CHUNKS: list = []  # per 8-bit chunk of a hand or pool: (kinds, (kind, count) pairs) of each byte


def _chunks(nk: int) -> tuple[list, list]:
    """Per 8-bit chunk j of a count-packed hand or pool (kinds 4j … 4j+3): its kinds, and (kind, count) pairs."""
    while len(_CHUNKS) < (nk + 3) // 4:
        j = len(_CHUNKS)
        _CHUNKS.append(([tuple(4 * j + i for i in range(4) if byte >> 2 * i & 3) for byte in range(256)],
                        [tuple((4 * j + i, byte >> 2 * i & 3) for i in range(4) if byte >> 2 * i & 3)
                         for byte in range(256)]))
    return [c[0] for c in _CHUNKS[:(nk + 3) // 4]], [c[1] for c in _CHUNKS[:(nk + 3) // 4]]


def _payments(boosts, top_cost: int, size: int) -> list:
    """TK-25, TK-26, TK-Q8: ``payments[cost][ready][face_up]`` is ``(first, stop)``
    of :func:`.rules.boosts` (the numbers of boosts that can pay; empty
    when ``first == stop``), for every cost and up to ``size`` ready yoki and
    face-up damage cards."""
    seen: dict = {}
    table = []
    for c in range(top_cost + 1):
        by_ready = []
        for ready in range(size + 1):
            row = []
            for up in range(size + 1):
                r = boosts(c, ready, up)
                pair = (r.start, r.stop if r.stop > r.start else r.start)
                row.append(seen.setdefault(pair, pair))
            by_ready.append(row)
        table.append(by_ready)
    return table


def _unpayable(boosts, top_cost: int, size: int) -> list:
    """TK-25, TK-26: ``unpayable[ready][face_up]``, the lowest cost that cannot be
    paid (``top_cost + 1`` if none), from :func:`_payments`' table."""
    payments = _cached(_payments, boosts, top_cost, size)
    return [[next((c for c, row in enumerate(payments) if row[ready][up][0] >= row[ready][up][1]), top_cost + 1)
             for up in range(size + 1)] for ready in range(size + 1)]


def _fitsets(fits, numbered) -> list:
    """TK-19: ``(no, fitset)`` for each ``(no, card)`` of ``numbered``: the
    ``target_no * 4 + method`` of every target there that ``fits`` (:func:`.rules.fits`)."""
    return [(no, frozenset(target * 4 + m for target, other in numbered for m in range(len(other.methods))
                           if fits(card, other, m))) for no, card in numbered]


def _card_tables(game) -> SimpleNamespace:
    """Per card number: what the hot paths read, each from the cards and :mod:`.rules`."""
    cards = game.cards
    top_no = max(cards) + 1
    t = SimpleNamespace(is_yokai=[False] * top_no, cost=[0] * top_no, methods=[()] * top_no,
                        mincost=[0] * top_no, rank=[0] * top_no, poss_bp=[0] * top_no, poss_icon=[0] * top_no,
                        effect=[(0, 0)] * top_no, fitset=[frozenset()] * top_no,
                        # TK-20: does a possession of the attacker's side [1] / the defender's [0] go on the attacker?
                        on_attacker=([False] * top_no, [False] * top_no))
    for no, c in cards.items():
        if c.is_yokai:
            t.is_yokai[no] = True
            t.cost[no] = c.cost
            t.methods[no] = tuple((m.bp, m.cost, rules.icon_bits((m.icon,))) for m in c.methods)
            t.mincost[no] = min(m.cost for m in c.methods)
            t.rank[no] = c.rank
            for side in (0, 1):
                t.on_attacker[side][no] = rules.on_attacker(bool(side), c.target == "own")
            t.poss_bp[no] = c.poss_bp
            t.poss_icon[no] = rules.icon_bits((c.poss_icon,))
        else:
            t.effect[no] = (EV_KINDS.index(c.effect[0]), c.effect[1])
    # TK-19 possession conditions: fitset[no] holds target_no * 4 + method of every fitting target
    yokai_nos = sorted(no for no in set(game.kinds[0]) | set(game.kinds[1]) if t.is_yokai[no])
    for no, fitting in _cached(_fitsets, rules.fits, tuple((no, cards[no]) for no in yokai_nos)):
        t.fitset[no] = fitting
    size = max(len(d) for d in game.deck_lists)
    t.lost_at = [rules.loses_by_damage(n) for n in range(size + 2)]  # TK-6 by the number of damage cards
    t.duel = rules.duel
    top_cost = max(9, *(m[1] for ms in t.methods for m in ms), *t.cost)
    t.payments = _cached(_payments, rules.boosts, top_cost, size)
    t.unpayable = _cached(_unpayable, rules.boosts, top_cost, size)
    t.kno = [list(game.kinds[p]) for p in (0, 1)]
    t.kidx = [dict(game.index[p]) for p in (0, 1)]
    nk = max(len(t.kno[0]), len(t.kno[1]))
    t.tw = (nk + 1).bit_length()
    t.tmask = (1 << t.tw) - 1
    t.m1 = int("01" * nk, 2) if nk else 0
    t.chunk_kinds, t.chunk_counts = _chunks(nk)
    t.move_table = _cached(_move_table, rules.ROW)
    opts = game.options
    t.kdo, t.mulligan, t.move_once = (bool(opts["known_deck_order"]), bool(opts["mulligan"]),
                                      bool(opts["move_once_per_turn"]))
    t.hand_start = rules.HAND_START
    return t


def _codec(game, t) -> tuple:
    """``encode`` reads the State's named fields (``state.key_fields()``);
    ``decode`` builds the State through the game (``game._from_key``)."""
    kno, kidx, tw, tmask, kinds = t.kno, t.kidx, t.tw, t.tmask, t.kinds
    KEY, PLAYER = positions.KEY, positions.PLAYER

    def counts(p, nos):
        h = 0
        for no in nos:
            h += 1 << 2 * kidx[p][no]
        return h

    def row_codes(row):
        out = [y[0] << 16 | y[1] << 15 | y[2] << 14 | y[3] for y in row]
        return out + [EMPTY] * (3 - len(out))

    def encode(state):
        k = state.key_fields()
        if k["stage"] not in STAGES:
            return None
        out = [STAGES.index(k["stage"]), k["turn_player"], k["first_player"], int(k["first_turn"]),
               int(k["event_used"]), k["pending"], k["winner"]]
        out += list(k["battle"]) if k["battle"] is not None else [0] * 8
        for p in (0, 1):
            P = k[f"player{p}"]
            top = 0
            for j, no in enumerate(P["deck_top"]):
                top |= (kidx[p][no] + 1) << (tw * j)
            if any(y[3] >= 1 << 14 for y in P["front"] + P["back"]):
                return None
            out += [counts(p, P["hand"]), counts(p, P["unseen"]), P["deck_size"], top]
            out += row_codes(P["front"]) + row_codes(P["back"])
            out += [P["yoki_ready"], P["yoki_resting"], P["damage_up"], P["damage_down"], P["trash"]]
        return tuple(out)

    def unpack_nos(p, h):
        out = []
        for i in kinds(h):
            out += [kno[p][i]] * ((h >> 2 * i) & 3)
        return tuple(out)

    def unrow(codes):
        return tuple((y >> 16, y >> 15 & 1, y >> 14 & 1, y & 0x3FFF) for y in codes if y != EMPTY)

    def decode(pos):
        ps = []
        for p in (0, 1):
            b = BASE0 + SIZE * p
            top, tk = [], pos[b + TOP]
            while tk:
                top.append(kno[p][(tk & tmask) - 1])
                tk >>= tw
            ps.append(PLAYER.make(
                hand=unpack_nos(p, pos[b + H]), unseen=unpack_nos(p, pos[b + PO]), deck_size=pos[b + N],
                deck_top=tuple(top), front=unrow(pos[b + F:b + F + 3]), back=unrow(pos[b + B:b + B + 3]),
                yoki_ready=pos[b + YR], yoki_resting=pos[b + YS], damage_up=pos[b + DU],
                damage_down=pos[b + DD], trash=pos[b + TR]))
        return game._from_key(KEY.make(
            stage=STAGES[pos[ST]], turn_player=pos[TP], first_player=pos[FP], first_turn=bool(pos[FT]),
            event_used=bool(pos[EV]), pending=pos[PD], winner=pos[WN], player0=ps[0], player1=ps[1],
            battle=tuple(pos[BA:PSD + 1]) if pos[BA] else None))

    return encode, decode


def _reading(t) -> SimpleNamespace:
    """Who moves, the payoffs, the chance outcomes, the possession test."""
    chunk_kinds, chunk_counts, m1 = t.chunk_kinds, t.chunk_counts, t.m1
    on_attacker, fitset = t.on_attacker, t.fitset
    m2 = m1 << 1

    def hand_size(h):
        return (h & m1).bit_count() + 2 * (h & m2).bit_count()

    def kinds(h):
        """Kind indexes present in a count-packed hand or pool, ascending."""
        out = []
        for table in chunk_kinds:
            if not h:
                break
            out += table[h & 255]
            h >>= 8
        return out

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
        """TK-19, TK-20: card ``no`` of ``owner`` meets its condition on the yokai it would possess."""
        if on_attacker[owner == k[TP]][no]:
            return k[BA] * 4 + k[BAM] in fitset[no]
        return k[BB] * 4 + k[BBM] in fitset[no]

    return SimpleNamespace(hand_size=hand_size, kinds=kinds, player=player, returns=returns, chance=chance,
                           fits=fits)
