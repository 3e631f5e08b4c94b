"""Issue S's speed check: the same measurements on two checkouts of cardlab,
run in turns (old, new, old, new ...), CPU time, best of the rounds.

    python benchmarks/layout_speed.py OLD_CHECKOUT NEW_CHECKOUT [--rounds 3]

Per game: loading the game and making its core; seeded random playouts on
the compact core (cardlab.cores.playout) from the root, the core made
before the clock starts; and the solver on every reference position of
tests/data/reference/<game>.json (its node counts must be equal on both
sides).  Each measurement runs in a fresh process of the checkout, so the two
never share a module.  Prints a markdown table with the ratio new/old.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

PLAYOUTS = {"koinobori": 20_000, "mazemon": 4_000, "mipig": 15_000, "monster_cards": 20_000, "toritsuki": 1_500}

CHILD = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import cardlab
from cardlab.cores import core_of, playout
root, what, game_name, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t = time.process_time()
game = cardlab.load(game_name)
core_of(game)
if what == "build":  # loading the game (its card file) and making its core, once
    print(json.dumps({"cpu": time.process_time() - t, "count": 1}))
elif what == "playouts":  # the core is made before the clock starts
    s = game.new_initial_state()
    rng = random.Random(0)
    t = time.process_time()
    steps = sum(playout(s, rng)[1] for _ in range(n))
    print(json.dumps({"cpu": time.process_time() - t, "count": steps}))
else:
    entries = json.load(open(f"{root}/tests/data/reference/{game_name}.json", encoding="utf-8"))
    states = []
    for e in entries:
        g = cardlab.load(game_name, **e.get("options", {}))
        states.append(g.state_from_dict(e["position"]) if "position" in e else g.new_initial_state(seed=e["seed"]))
    t = time.process_time()
    nodes = 0
    for s in states:
        try:
            nodes += cardlab.solve(s).nodes
        except cardlab.CardlabError:
            pass
    print(json.dumps({"cpu": time.process_time() - t, "count": nodes}))
"""


def run(checkout: str, what: str, game: str, n: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, checkout, what, game, str(n)], capture_output=True,
                         text=True, check=True, cwd=checkout)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print("| game | measure | old CPU s | new CPU s | new/old | counts equal |")
    print("|---|---|---|---|---|---|")
    for game, n in PLAYOUTS.items():
        for what in ("build", "playouts", "solve"):
            best = {"old": None, "new": None}
            counts = {}
            for _ in range(args.rounds):
                for side in ("old", "new"):
                    r = run(getattr(args, side), what, game, n)
                    best[side] = r["cpu"] if best[side] is None else min(best[side], r["cpu"])
                    counts[side] = r["count"]
            label = {"build": "load + make the core",
                     "playouts": f"{n:,} playouts ({counts['new']:,} steps)",
                     "solve": f"reference solves ({counts['new']:,} nodes)"}[what]
            print(f"| {game} | {label} | {best['old']:.3f} | {best['new']:.3f} | {best['new'] / best['old']:.3f} | "
                  f"{counts['old'] == counts['new']} |", flush=True)


if __name__ == "__main__":
    main()
