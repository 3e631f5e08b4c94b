"""Issue P's limits: how large a position cardlab.solve takes in seconds and
memory, each case in a fresh process (CPU time; peak resident memory of
that process), against the issue's targets.

    python benchmarks/limits.py              # every case
    python benchmarks/limits.py --quick      # one position per case, the small cases only
    python benchmarks/limits.py --case kn6   # one case (the table row of each of its positions)
    python benchmarks/limits.py --case mipig5 --left 8   # mipig 5 each from 8 placements before the end

Cases (open hands everywhere, so every card is seen: perfect information):

- ``mipig3``: mipig, 3 cards each, whole games from the first placement,
  against the minimal packed-int solver of ``benchmarks/mipig_yardstick.py``
  (target: cardlab within 3× of it, values equal);
- ``mipig4``: 4 each, whole games from the first placement (≤ 20 s, ≤ 500 MB);
- ``mipig5``: 5 each, from the last four placements (≤ 10 s; ``--left K``: the last
  K placements, 10 from the deal: issue X's "from the deal within 10 minutes");
- ``kn6`` / ``kn8``: Koi-koi Nobori with the default deck, the first turn of
  a seeded random game at which the deck holds 6 (8) cards and each hand 3
  (the first seeds whose games get there)
  (deck 6: ≤ 5 s; deck 8: ≤ 60 s and ≤ 1 GB); ``kn10`` (only with
  ``--case kn10``) the same with 10 cards in the deck.

mipig: ``first_player=0, tiebreak="value"`` (hands dealt from each player's own card set, as
the yardstick takes them).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import cardlab
from cardlab import CHANCE
from cardlab.core import sample_chance

HERE = Path(__file__).resolve().parent
MIPIG = dict(open_hands=True, first_player=0, tiebreak="value")
#: case -> (what, target seconds, target MB, positions, with --quick)
CASES = {
    "mipig3": ("mipig 3 each, whole game", None, None, 6, 2),
    "mipig4": ("mipig 4 each, whole game", 20, 500, 3, 0),
    "mipig5": ("mipig 5 each, last four placements", 10, None, 3, 1),
    "kn6": ("Koi-koi Nobori deck 6, 3 in each hand", 5, None, 3, 1),
    "kn8": ("Koi-koi Nobori deck 8, 3 in each hand", 60, 1000, 2, 0),
    "kn10": ("Koi-koi Nobori deck 10, 3 in each hand", None, None, 1, 0),
}
#: cases only ``--case`` runs (kn10: about 300 million positions, a quarter of an hour)
LONG = {"kn10"}


def position(case: str, seed: int, left: int = 4):
    """The position of ``case`` for ``seed`` (deterministic); ``left``: mipig5's placements left."""
    if case.startswith("mipig"):
        n = int(case[5])
        s = cardlab.load("mipig", hand_size=n, **MIPIG).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while case == "mipig5" and len(s.cells()) < 2 * n - left:  # play placements until `left` are left
            s = s._apply(rng.choice(s.legal_actions()))
        return s
    want = int(case[2:])
    game = cardlab.load("koinobori", open_hands=True)
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    while not s.is_terminal():
        d = s.to_dict()
        deck = sum(d["deck"].values())
        if deck < want:
            return None  # this seed's game never gets there
        if (deck == want and d["stage"] == "turn" and s.current_player >= 0
                and all(sum(h.values()) == 3 for h in d["hands"])):
            return s
        s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    return None


def seeds(case: str, count: int) -> list[int]:
    """The first ``count`` seeds that give ``case`` a position."""
    out, seed = [], 0
    while len(out) < count:
        if case.startswith("mipig") or position(case, seed) is not None:
            out.append(seed)
        seed += 1
    return out


def run_one(case: str, seed: int, left: int = 4) -> dict:
    """Solve one position here (the child process) and measure it."""
    s = position(case, seed, left)
    sys.setrecursionlimit(100_000)
    out = {}
    runs = 1
    if case == "mipig3":  # small: the fastest of three runs each (the first pays one-off imports)
        sys.path.insert(0, str(HERE))
        from mipig_yardstick import solve as yardstick

        runs = 3
        for _ in range(runs):
            t = time.process_time()
            out["yardstick"] = str(yardstick(s))
            out["yardstick_s"] = min(out.get("yardstick_s", 1e9), time.process_time() - t)
    for _ in range(runs):
        t = time.process_time()
        sol = cardlab.solve(s, progress=False, max_nodes=None)
        out["seconds"] = min(out.get("seconds", 1e9), time.process_time() - t)
    out.update(value=str(sol.value), nodes=sol.nodes, entries=sol.tt_entries,
               mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--case", choices=sorted(CASES))
    ap.add_argument("--left", type=int, default=4, help="mipig5: placements left (10: from the deal)")
    ap.add_argument("--child", nargs=2, metavar=("CASE", "SEED"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(run_one(args.child[0], int(args.child[1]), args.left)))
        return
    print(f"cardlab {cardlab.__version__}, Python {sys.version.split()[0]}\n")
    print("| case | seed | value | nodes | table entries | CPU s | peak MB | target | met |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case, (what, secs, mb, count, quick) in CASES.items():
        if case != args.case and (args.case or case in LONG):
            continue
        if case == "mipig5" and args.left != 4:  # issue X: within 10 minutes CPU and 4 GB
            what, secs, mb = f"mipig 5 each, last {args.left} placements", 600, 4000
        for seed in seeds(case, quick if args.quick else count):
            r = json.loads(subprocess.run([sys.executable, __file__, "--child", case, str(seed), "--left", str(args.left)], check=True,
                                          capture_output=True, text=True).stdout)
            if case == "mipig3":
                if r["yardstick"] != r["value"]:
                    raise AssertionError(f"mipig3 seed {seed}: yardstick {r['yardstick']} != cardlab {r['value']}")
                ratio = r["seconds"] / r["yardstick_s"]
                target, met = f"≤ 3× yardstick ({r['yardstick_s']:.2f} s)", f"{ratio:.1f}× " + (
                    "yes" if ratio <= 3 else "no")
            else:
                target = " and ".join(t for t in (f"≤ {secs} s" if secs else "", f"≤ {mb} MB" if mb else "") if t) or "—"
                ok = (not secs or r["seconds"] <= secs) and (not mb or r["mb"] <= mb)
                met = "yes" if ok else "no"
            print(f"| {what} | {seed} | {r['value']} | {r['nodes']:,} | {r['entries']:,} | {r['seconds']:.2f} | "
                  f"{r['mb']:,.0f} | {target} | {met} |", flush=True)


if __name__ == "__main__":
    main()
