"""A minimal packed-int solver of mipig (issue P's yardstick for the solver).

Issue P: "solver searches as fast as a minimal hand-written packed-int
solver of the same rules".  This is that solver, for open-hands positions
from the placement phase on: plain alpha-beta with make/unmake on a small
board array and bitmasks, and a transposition table (a dict) keyed by one
int, value and bound packed in one int.  It is written from the rule digest
(``docs/rules/mipig.md``), not from cardlab's engine or its core: it reads
the position through ``State.to_dict()``, the cards' numbers through
cardlab's card loader, and the end janken's value (MP-25, MP-Q3) from
``cardlab.games.mipig.janken_value`` (what the solver gets from the janken's
matrix game under the default tiebreak).

Handles: ``open_hands=True``, ``first_player`` 0 or 1, ready hands or a
seeded deal (no card twice in one hand), ``hand_size`` 3-5 (any, in fact),
``tiebreak`` 'janken' / 'value' / 'draw', ``janken_rounds``, the default
card set; the placement or battle phase.  Other options raise ValueError.

The search never uses Fractions: the end values a game can reach (a win,
a loss, a draw and the janken values of every pair of mark sets) are sorted
once and the search runs on their ranks, which order the same way.

The key of a position (MP-Q4: translated fields are one position): card
slot ``i`` (player 0's hand first, then player 1's) owns ``F`` bits holding
0 in hand, 1 in the graveyard, else ``2 + 2*(square - corner) + face_up``
with ``square = x*G + y`` and ``corner`` the smallest x and y on the field;
the sum over slots is kept for absolute squares and shifted by
``2*corner*(slots on the field)`` when read, so no slot is rewritten when
the field's corner moves; the mover is the lowest bit.

As a script: a markdown table of seeded open-hands deals, the yardstick
against ``cardlab.solve`` (values must agree; times are CPU seconds)::

    python benchmarks/mipig_yardstick.py            # 10 deals of 3 cards each (under a minute)
    python benchmarks/mipig_yardstick.py --four --five --repeat 3   # and larger ones, fastest of 3 runs
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cardlab  # noqa: E402
from cardlab.games.mipig import janken_value, load_cards  # noqa: E402

ATTRS = ("love", "wisdom", "healing", "play", "guidance")
MARKS = ("rock", "scissors", "paper")
EXACT, LOWER, UPPER = 0, 1, 2


def setup(state) -> dict:
    """The position's card slots and squares, read from ``state.to_dict()``."""
    d = state.to_dict()
    o = state.game.options
    if not o["open_hands"] or o["first_player"] not in (0, 1) or o["payoff"] != "win" \
            or o["cards"] is not None or o["tiebreak_cards"] != "face_up" or o["deal"] != "own":
        raise ValueError("the yardstick takes open hands, first_player 0 or 1, payoff 'win', "
                         "tiebreak_cards 'face_up', deal 'own' and the default card set")
    if d["phase"] not in ("placement", "battle"):
        raise ValueError(f"the yardstick starts in the placement or battle phase, not {d['phase']}")
    by_id = {c.id: c for c in load_cards().cards}
    slots = []  # card slots: player 0's cards, then player 1's; where: "hand", "grave" or (x, y, face_up)
    for p in (0, 1):
        slots += [(p, by_id[c], "hand") for c in d["hands"][p]]
        slots += [(p, by_id[c["card"]], (c["x"], c["y"], c["face_up"])) for c in d["field"] if c["owner"] == p]
        slots += [(p, by_id[c], "grave") for c in d["graveyards"][p]]
        ids = [s[1].id for s in slots if s[0] == p]
        if len(set(ids)) != len(ids):
            raise ValueError("the yardstick takes no card twice in one player's cards")
    return {"slots": slots, "first": d["first_player"], "mover": d["to_move"],
            "tiebreak": o["tiebreak"], "rounds": o["janken_rounds"]}


def search(state) -> tuple[Fraction, int, int]:
    """The exact value for player 0, the positions searched and the table's size."""
    info = setup(state)
    slots = info["slots"]
    N = len(slots)
    owner = [s[0] for s in slots]
    attr = [ATTRS.index(s[1].attribute) for s in slots]
    mark = [MARKS.index(s[1].janken) for s in slots]
    G = 3 * N + 3  # square x*G + y; room for every card on any side of the field
    dirs = (-G, -1, 1, G)
    # MP-Q5: a defender at square + dd: the attacker's edge number and the defender's
    facing = {-G: ("left", "right"), -1: ("top", "bottom"), 1: ("bottom", "top"), G: ("right", "left")}
    a_num = {dd: [getattr(s[1], facing[dd][0]) for s in slots] for dd in dirs}
    d_num = {dd: [getattr(s[1], facing[dd][1]) for s in slots] for dd in dirs}
    F = (4 * N * G + 4).bit_length()
    SL = [1 << (i * F) for i in range(N)]
    board = [0] * (G * G)  # slot + 1, 0 empty
    where = [-1] * N
    cols = [0] * G
    rows = [0] * G
    hand = [0, 0]          # slot masks
    count = [0] * 10       # own face-up cards on the field per (player, attribute) (MP-19 … MP-22)
    up = field = kabs = mf = 0
    first, mover = info["first"], info["mover"]
    minx = miny = G
    # the end values (MP-24, MP-25): a loss, a draw, a win and every janken value; searched as ranks
    sets = [[m for m in range(3) if b >> m & 1] for b in range(8)]
    jv = {(b0, b1): (Fraction(0) if info["tiebreak"] == "draw" else janken_value(sets[b0], sets[b1], info["rounds"]))
          for b0 in range(8) for b1 in range(8)}
    values = sorted(set(jv.values()) | {Fraction(-1), Fraction(0), Fraction(1)})
    rank = {v: r for r, v in enumerate(values)}
    tie_rank = [rank[jv[(b >> 3, b & 7)]] for b in range(64)]
    WIN, LOSS = rank[1], rank[-1]
    table: dict[int, int] = {}
    nodes = 0

    def lay(i, q):
        nonlocal field, minx, miny, kabs, mf
        board[q] = i + 1
        where[i] = q
        field |= 1 << i
        x, y = divmod(q, G)
        cols[x] += 1
        rows[y] += 1
        if x < minx:
            minx = x
        if y < miny:
            miny = y
        kabs += (2 + 2 * q) * SL[i]
        mf += SL[i]

    def lift(i):
        """Card slot i leaves the field (taken back, or lost: MP-15)."""
        nonlocal field, minx, miny, kabs, mf
        q = where[i]
        board[q] = 0
        field ^= 1 << i
        x, y = divmod(q, G)
        cols[x] -= 1
        rows[y] -= 1
        if field:
            while not cols[minx]:
                minx += 1
            while not rows[miny]:
                miny += 1
        kabs -= (2 + 2 * q) * SL[i]  # a lost card keeps its face-up 1: the graveyard's code
        mf -= SL[i]

    def attacks(p):
        """MP-11, MP-16, MP-17: (attacker slot, defender slot, direction)."""
        out = []
        f = field & ~up
        while f:
            b = f & -f
            f ^= b
            i = b.bit_length() - 1
            if owner[i] == p:
                q = where[i]
                for dd in dirs:
                    j = board[q + dd] - 1
                    if j >= 0 and owner[j] != p:
                        out.append((i, j, dd))
        return out

    def end_rank():
        """MP-23 … MP-25: more own face-up cards wins; equal counts, the end janken."""
        c0 = c1 = m0 = m1 = 0
        f = field & up
        while f:
            b = f & -f
            f ^= b
            i = b.bit_length() - 1
            if owner[i]:
                c1 += 1
                m1 |= 1 << mark[i]
            else:
                c0 += 1
                m0 |= 1 << mark[i]
        if c0 != c1:
            return WIN if c0 > c1 else LOSS
        return tie_rank[m0 << 3 | m1]

    def spots():
        """MP-6, MP-7: the empty squares sharing an edge with a card."""
        if not field:
            return [(N + 1) * G + N + 1]
        out = set()
        f = field
        while f:
            b = f & -f
            f ^= b
            q = where[b.bit_length() - 1]
            for dd in dirs:
                if not board[q + dd]:
                    out.add(q + dd)
        return out

    def fight(i, j, dd, alpha, beta):
        """Slot i attacks slot j (MP-11 … MP-15, MP-19 … MP-22), then the search goes on."""
        nonlocal up, kabs, mover, minx, miny
        p = owner[i]
        bj = 1 << j
        was_up = up & bj
        ci, cj = p * 5 + attr[i], (1 - p) * 5 + attr[j]
        up |= 1 << i | bj  # MP-12
        count[ci] += 1
        kabs += SL[i]
        if not was_up:
            count[cj] += 1
            kabs += SL[j]
        na, nd = count[ci], count[cj]  # MP-21: after the reveal
        ta = a_num[dd][i] + (na - 1 if na > 1 else 0)  # MP-20
        td = d_num[dd][j] + (nd - 1 if nd > 1 else 0)
        if ta == td:  # MP-14: rock beats scissors beats paper beats rock
            mi, mj = mark[i], mark[j]
            loser = -1 if mi == mj else j if (mj - mi) % 3 == 1 else i
        else:
            loser = j if ta > td else i
        mover = 1 - p
        if loser >= 0:  # MP-15
            cl = cj if loser == j else ci
            count[cl] -= 1
            q = where[loser]
            mx, my = minx, miny
            lift(loser)
            v = ab(alpha, beta)
            lay(loser, q)
            minx, miny = mx, my
            count[cl] += 1
        else:
            v = ab(alpha, beta)
        mover = p
        count[ci] -= 1
        kabs -= SL[i]
        if not was_up:
            count[cj] -= 1
            kabs -= SL[j]
            up ^= 1 << i | bj
        else:
            up ^= 1 << i
        return v

    def ab(alpha, beta):
        nonlocal nodes, mover, minx, miny
        nodes += 1
        key = (kabs - 2 * (minx * G + miny) * mf) << 1 | mover
        e = table.get(key)
        if e is not None:
            v = e >> 2
            flag = e & 3
            if flag == EXACT:
                return v
            if flag == LOWER:
                if v >= beta:
                    return v
                if v > alpha:
                    alpha = v
            else:
                if v <= alpha:
                    return v
                if v < beta:
                    beta = v
        a0, b0 = alpha, beta
        p = mover
        best = -1 if p == 0 else len(values)
        if hand[0] | hand[1]:  # placement (MP-5 … MP-9)
            free = spots()
            h = hand[p]
            # MP-9, MP-10: after the last card the battle starts with the first player
            nxt = first if (hand[0] | hand[1]) == h and h & (h - 1) == 0 else 1 - p
            while h and alpha < beta:
                b = h & -h
                h ^= b
                i = b.bit_length() - 1
                hand[p] ^= b
                mover = nxt
                for q in free:
                    mx, my = minx, miny
                    lay(i, q)
                    v = ab(alpha, beta)
                    lift(i)
                    minx, miny = mx, my
                    if p == 0:
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                    elif v < best:
                        best = v
                        if v < beta:
                            beta = v
                    if alpha >= beta:
                        break
                mover = p
                hand[p] ^= b
        else:  # battle (MP-10 … MP-18)
            moves = attacks(p)
            if not moves:
                if not attacks(1 - p):
                    return end_rank()  # MP-23
                mover = 1 - p  # MP-18: pass
                v = ab(alpha, beta)
                mover = p
                return v
            for i, j, dd in moves:
                v = fight(i, j, dd, alpha, beta)
                if p == 0:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
        table[key] = best << 2 | (UPPER if best <= a0 else LOWER if best >= b0 else EXACT)
        return best

    xs = [s[2][0] for s in slots if isinstance(s[2], tuple)] or [0]
    ys = [s[2][1] for s in slots if isinstance(s[2], tuple)] or [0]
    ox, oy = N + 1 - min(xs), N + 1 - min(ys)
    for i, (p, _card, at) in enumerate(slots):
        if at == "hand":
            hand[p] |= 1 << i
        elif at == "grave":
            up |= 1 << i
            kabs += SL[i]
        else:
            lay(i, (at[0] + ox) * G + at[1] + oy)
            if at[2]:
                up |= 1 << i
                kabs += SL[i]
                count[p * 5 + attr[i]] += 1
    v = values[ab(-1, len(values))]
    return v, nodes, len(table)


def solve(state) -> Fraction:
    """The exact value for player 0 of an open-hands mipig position (placement or battle)."""
    return search(state)[0]


# -- the benchmark table ----------------------------------------------------------------
def _row(label, state, repeat=1):
    ys = cs = float("inf")
    for _ in range(repeat):  # each keeps its fastest run (a shared machine is noisy)
        t = time.process_time()
        yv, ynodes, yentries = search(state)
        ys = min(ys, time.process_time() - t)
        t = time.process_time()
        sol = cardlab.solve(state, max_nodes=None, progress=False)
        cs = min(cs, time.process_time() - t)
    assert sol.value == yv, (label, sol.value, yv, state.to_dict())
    return [label, str(yv), f"{ys:.2f}", f"{ynodes:,}", f"{yentries:,}", str(sol.value), f"{cs:.2f}",
            f"{sol.nodes:,}", f"{cs / ys:.1f}" if ys else "—"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10, help="seeded 3-each deals (default 10)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each search; the fastest counts (default 1)")
    ap.add_argument("--four", action="store_true", help="also 4-each deals from the first placement")
    ap.add_argument("--five", action="store_true", help="also 5-each deals from the last four placements")
    ap.add_argument("--tiebreak", default="janken", choices=("janken", "value", "draw"))
    args = ap.parse_args(argv)
    heads = ["deal", "yardstick value", "s", "nodes", "table", "cardlab.solve value", "s", "nodes",
             "cardlab / yardstick"]
    print("| " + " | ".join(heads) + " |")
    print("|" + "---|" * len(heads))
    # a first small solve: imports (sympy for the janken's fixed point) stay out of the times
    warm = cardlab.load("mipig", hand_size=1, open_hands=True, first_player=0, tiebreak=args.tiebreak)
    cardlab.solve(warm.new_initial_state(seed=0), max_nodes=None, progress=False)
    cases = []
    for seed in range(args.deals):
        g = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=seed % 2, tiebreak=args.tiebreak)
        cases.append((f"3 each, seed {seed}", g.new_initial_state(seed=seed)))
    if args.four:
        for seed in range(2):
            g = cardlab.load("mipig", hand_size=4, open_hands=True, first_player=seed % 2, tiebreak=args.tiebreak)
            cases.append((f"4 each, seed {seed}", g.new_initial_state(seed=seed)))
    if args.five:
        for seed in range(2):
            g = cardlab.load("mipig", hand_size=5, open_hands=True, first_player=seed % 2, tiebreak=args.tiebreak)
            s = g.new_initial_state(seed=seed)
            rng = random.Random(seed)
            for k in range(6):  # six seeded random placements; the last four are searched
                s = s.apply(rng.choice(s.legal_actions()))
            cases.append((f"5 each, seed {seed}, last 4 placements", s))
    rows = []
    for label, s in cases:
        rows.append(_row(label, s, args.repeat))
        print("| " + " | ".join(rows[-1]) + " |", flush=True)
    print(f"\nCPU seconds (time.process_time); values agree on all {len(rows)} positions.")


if __name__ == "__main__":
    main()
