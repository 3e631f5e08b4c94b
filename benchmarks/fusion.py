"""Issue T item 3: where the fair hint and the equilibrium differ (strategy
fusion), on variants small enough for :mod:`cardlab.equilibrium`.

    python benchmarks/fusion.py                 # every game with a small variant
    python benchmarks/fusion.py --games koinobori

The fair hint (``cardlab.analyse(s, player=p)``) values each move by solving
every arrangement of the hidden cards with open hands and averaging: it
assumes that after this move everything is played as if every card were
shown, so it can count on a later choice that depends on cards the player
will never see (*strategy fusion*).  The equilibrium (the sequence-form LP of
:func:`cardlab.equilibrium.solve_equilibrium`) plays each information set as
one.  Per game, on its small variant (:data:`VARIANTS`):

- the fair-hint value of the root: over the chance events before the first
  decision, the value of the fair hint's best move there (for player 0),
  against the equilibrium value and the open-hands value of the same deal;
- over the decisions of the variant's tree, each information set once (those
  with at least two moves): how often none of the fair hint's best moves is
  in the equilibrium's support (the moves it plays with positive
  probability), over all of them and over those the equilibrium reaches
  (with positive probability, both players following it).

An equilibrium's moves in a set it never reaches are arbitrary, so the
second count is the telling one.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

import cardlab
from cardlab import CHANCE
from cardlab.equilibrium import game_tree, solve_equilibrium

#: the 10-card Koi-koi Nobori deck of tests/test_equilibrium.py and the notebook trees_and_solving
TINY_DECK = {"name": "tiny", "cards": {"higoi": 4, "aokoi": 3, "magoi": 3, "fukinagashi": 0, "kabutogaeshi": 0},
             "points": {"higoi": 2, "aokoi": 1, "magoi": 3}, "roles": []}
#: per game: the options of its small variant and what it is
VARIANTS = {
    "koinobori": (dict(deck=TINY_DECK), "10-card deck (4 higoi, 3 aokoi, 3 magoi), hidden hands, whole deal"),
    "mipig": (dict(hand_size=2, hands=[["p03", "p08"], ["p06", "p11"]], first_player=0, tiebreak="draw"),
              "2 cards each (p03 p08 against p06 p11), player 0 first, hidden face-down cards"),
}
#: the games without a variant small enough, and why
NO_VARIANT = {
    "mazemon": "the decks are the card file's (MZ-1), no option makes them small: the tree of a whole game "
               "is far past the LP's reach",
    "monster_cards": "deck_size must be the size of every deck given (MC-1); the ready decks hold 20 cards",
    "toritsuki": "TK-1: a deck holds at least 30 cards; the tree of a whole game is far past the LP's reach",
}


def reach(G, strategies) -> dict:
    """Each node's probability when both players follow ``strategies``."""
    root = G.graph.get("root", 0)
    out = {root: Fraction(1)}
    stack = [root]
    while stack:
        n = stack.pop()
        d = G.nodes[n]
        for m, e in G.succ[n].items():
            if d["player"] == CHANCE:
                q = e["prob"]
            else:
                q = strategies[d["player"]].get(d["infoset"], {}).get(e["action"], 0)
            out[m] = out[n] * q
            stack.append(m)
    return out


def fair_hint(state, cache: dict, key):
    """The fair hint's values at ``state`` for the player to move (cached by information set)."""
    if key not in cache:
        a = cardlab.analyse(state, player=state.current_player, max_nodes=None, progress=False,
                            max_arrangements=100_000)
        cache[key] = {r["action"]: r["value"] for r in a.rows}
    return cache[key]


def root_value(G, cache: dict) -> Fraction:
    """Over the chance events before the first decision, the value of the fair
    hint's best move there, for player 0."""
    root = G.graph.get("root", 0)
    total, stack = Fraction(0), [(root, Fraction(1))]
    while stack:
        n, q = stack.pop()
        d = G.nodes[n]
        if d["terminal"]:
            total += q * d["returns"][0]
        elif d["player"] == CHANCE:
            stack += [(m, q * e["prob"]) for m, e in G.succ[n].items()]
        else:
            best = max(fair_hint(d["state"], cache, d["infoset"]).values())
            total += q * (best if d["player"] == 0 else -best)
    return total


def measure(game_name: str) -> dict:
    """The figures of one game's small variant."""
    opts, _what = VARIANTS[game_name]
    game = cardlab.load(game_name, **opts)
    G = game_tree(game.new_initial_state())
    eq = solve_equilibrium(G)
    reached = reach(G, eq.strategies)
    cache: dict = {}
    sets: dict = {}
    for n, d in G.nodes(data=True):
        if d["player"] >= 0 and G.out_degree(n) > 1:
            sets.setdefault(d["infoset"], []).append(n)
    out = dict(nodes=G.number_of_nodes(), sets=len(sets), reached=0, outside=0, outside_reached=0,
               pick_outside_reached=0, examples=[])
    for I, nodes in sets.items():
        d = G.nodes[nodes[0]]
        values = fair_hint(d["state"], cache, I)
        top = max(values.values())
        best = [a for a, v in values.items() if v == top]
        support = {a for a, q in eq.strategies[d["player"]].get(I, {}).items() if q}
        seen = any(reached.get(n, 0) > 0 for n in nodes)
        out["reached"] += seen
        if not support & set(best):
            out["outside"] += 1
            out["outside_reached"] += seen
            if seen and len(out["examples"]) < 3:
                out["examples"].append((I, d["player"], best, sorted(support)))
        out["pick_outside_reached"] += seen and best[0] not in support
    out.update(eq=eq.value, fair=root_value(G, cache),
               open=cardlab.solve(game.with_options(open_hands=True).new_initial_state(), progress=False).value)
    return out


def table(games: list[str]) -> list[str]:
    """The table, one row per game (and the games without a small variant)."""
    lines = ["| game | variant | tree nodes | information sets (≥ 2 moves) | reached by the equilibrium "
             "| equilibrium value | fair-hint value of the root | open-hands value "
             "| fair best move outside the equilibrium's support: all sets | reached sets |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for g in games:
        if g in NO_VARIANT:
            lines.append(f"| {g} | none small enough: {NO_VARIANT[g]} | | | | | | | | |")
            continue
        r = measure(g)
        share = r["outside_reached"] / r["reached"] if r["reached"] else 0
        lines.append(f"| {g} | {VARIANTS[g][1]} | {r['nodes']:,} | {r['sets']} | {r['reached']} "
                     f"| {r['eq']} (≈ {float(r['eq']):+.3f}) | {r['fair']} (≈ {float(r['fair']):+.3f}) "
                     f"| {r['open']} (≈ {float(r['open']):+.3f}) | {r['outside']} of {r['sets']} "
                     f"| {r['outside_reached']} of {r['reached']} ({share:.0%}) |")
        for I, p, best, support in r["examples"]:
            lines.append(f"|  | e.g. player {p} at {I}: fair best {best}, equilibrium plays {support} | | | | | | | | |")
    return lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(sorted({*VARIANTS, *NO_VARIANT})), type=lambda v: v.split(","))
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    print("\n".join(table(args.games)))


if __name__ == "__main__":
    main()
