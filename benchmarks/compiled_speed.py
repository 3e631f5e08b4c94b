"""mipig's core and the exact search compiled against pure Python, interleaved in one
run (issue X, item 1's first step: choose the compiler by measurement).

The builds are copies of the package made by ``build_tools/build_compiled.py``
(``build/compiled/cython``, ``cython-pxd``, ``mypyc``: the same ``.py`` source, the
hot modules compiled next to it) and the worktree's own ``cardlab`` (pure).  Each
round runs every build once, in turn, each in a fresh process (the build's copy
first on ``sys.path``); a process times its tasks in CPU seconds
(``time.process_time``) after its imports, the games' cores built and a first
small solve, and reports its results.  Each build keeps its fastest round.

Tasks: random playouts of mipig's core (``cardlab.cores.playout_from``, the
default game: five cards each dealt, closed hands), the same playouts (same seed)
on the word core (``cardlab/games/mipig/wcore.py``, C words in Cython's pure-Python
mode: compiled in the Cython builds, as Python in the others; its × pure is against
today's core in the pure build), the tree walk under a search (``perft``: every line
of ``--perft`` steps from a 3-each open deal, on today's core and on the word core),
and ``cardlab.solve`` of
whole open-hands deals of 3 cards each (seeds 0-9) and 4 each (seeds 0-1), the
reference positions of ``benchmarks/mipig_yardstick.py``.  Agreement: every
build must give the same playout results (returns and steps, same seeds), and
on every deal the same value, best moves, principal variation and node count.

    python build_tools/build_compiled.py cython cython-pxd mypyc
    python benchmarks/compiled_speed.py --builds pure,cython,cython-pxd,mypyc   # 3 rounds, a markdown table
    python benchmarks/compiled_speed.py --rounds 5 --playouts 50000 --no-four
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDS = {"pure": ROOT, **{b: ROOT / "build" / "compiled" / b for b in ("cython", "cython-pxd", "mypyc")}}
MODULES = ("cardlab.games.mipig.core", "cardlab.cores", "cardlab.search", "cardlab.games.mipig.wcore")


def child(root: str, playouts: int, four: bool, perft_depth: int = 8) -> dict:
    """One build's run: ``{"files", "cpu": {task: s}, "results": {task: ...}}``."""
    sys.path.insert(0, root)
    import importlib
    import random

    import cardlab
    from cardlab.cores import core_of, perft, playout_from

    files = {m: os.path.relpath(importlib.import_module(m).__file__, root) for m in MODULES}
    warm = cardlab.load("mipig", hand_size=1, open_hands=True, first_player=0)
    cardlab.solve(warm.new_initial_state(seed=0), max_nodes=None, progress=False)  # sympy's import
    deals = {"solve 3 each": [(3, seed) for seed in range(10)], "solve 4 each": [(4, 0), (4, 1)] if four else []}
    states = {}
    for task, cases in deals.items():
        for n, seed in cases:
            g = cardlab.load("mipig", hand_size=n, open_hands=True, first_player=seed % 2)
            core_of(g)  # the core's tables are built outside the timing
            states[(n, seed)] = g.new_initial_state(seed=seed)
    g = cardlab.load("mipig")
    core = core_of(g)
    pos = core.encode(g.new_initial_state())
    cpu, results = {}, {}
    rng = random.Random(7)
    t = time.process_time()
    total = steps = 0
    for _ in range(playouts):
        ret, k = playout_from(core, pos, rng)
        total += ret[0]
        steps += k
    cpu["playouts"] = time.process_time() - t
    results["playouts"] = [total, steps]
    # the same playouts on the word core (wcore.py: C words; compiled in the Cython builds)
    from cardlab.games.mipig.wcore import make_word_core

    start, wc = make_word_core(g, core), make_word_core(g, core)
    start.load(pos)
    rng = random.Random(7)
    t = time.process_time()
    total = steps = 0
    for _ in range(playouts):
        wc.copy_from(start)
        ret, k = wc.playout(rng)
        total += ret[0]
        steps += k
    cpu["word playouts"] = time.process_time() - t
    if [total, steps] != results["playouts"]:
        raise SystemExit(f"the word core's playouts disagree: {[total, steps]} != {results['playouts']}")
    # the tree walk under a search (moves and steps at every node), today's core and the word core
    tree = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0)
    tree_pos = core_of(tree).encode(tree.new_initial_state(seed=2))
    t = time.process_time()
    results["perft"] = perft(core_of(tree), tree_pos, perft_depth)
    cpu["perft"] = time.process_time() - t
    wtree = make_word_core(tree, core_of(tree))
    wtree.load(tree_pos)
    t = time.process_time()
    lines = wtree.perft(perft_depth)
    cpu["word perft"] = time.process_time() - t
    if lines != results["perft"]:
        raise SystemExit(f"the word core's perft disagrees: {lines} != {results['perft']}")
    for task, cases in deals.items():
        if not cases:
            continue
        got = []
        t = time.process_time()
        for case in cases:
            sol = cardlab.solve(states[case], max_nodes=None, progress=False)
            got.append([str(sol.value), sol.best_actions, sol.pv, sol.nodes, sol.tt_hits])
        cpu[task] = time.process_time() - t
        results[task] = got
    return {"files": files, "cpu": cpu, "results": results}


def run_round(builds: list[str], args) -> dict:
    out = {}
    for name in builds:
        cmd = [sys.executable, __file__, "--child", str(BUILDS[name]), "--playouts", str(args.playouts),
               "--perft", str(args.perft)]
        if not args.four:
            cmd.append("--no-four")
        got = subprocess.run(cmd, capture_output=True, text=True, cwd="/")
        if got.returncode:
            raise SystemExit(f"{name}: {got.stderr[-3000:]}")
        out[name] = json.loads(got.stdout.splitlines()[-1])
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--playouts", type=int, default=40_000)
    ap.add_argument("--no-four", dest="four", action="store_false", help="leave out the 4-each deals")
    ap.add_argument("--builds", default="pure,cython,mypyc")
    ap.add_argument("--perft", type=int, default=8, help="the tree walk's depth (3-each deal, seed 2)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.playouts, args.four, args.perft)))
        return
    os.nice(10)  # a shared machine: the children inherit it
    builds = args.builds.split(",")
    start = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    best: dict = {b: {} for b in builds}
    reference, files = None, {}
    for r in range(args.rounds):
        order = builds[r % len(builds):] + builds[:r % len(builds)]  # each build goes first in turn
        got = run_round(order, args)
        for b in builds:
            files[b] = got[b]["files"]
            if reference is None:
                reference = got[b]["results"]
            if got[b]["results"] != reference:
                raise SystemExit(f"{b} disagrees with {builds[0]}: {got[b]['results']} != {reference}")
            for task, s in got[b]["cpu"].items():
                best[b][task] = min(best[b].get(task, float("inf")), s)
    tasks = list(best[builds[0]])
    print(f"{start}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores); niced; "
          f"CPU seconds, fastest of {args.rounds} interleaved rounds\n")
    print("| build | " + " | ".join(f"{t} s | × pure" for t in tasks) + " |")
    print("|---|" + "---|---|" * len(tasks))
    base = {t: t[5:] if t.startswith("word ") else t for t in tasks}  # the word core against today's
    for b in builds:
        cells = [f"{best[b][t]:.2f} | {best[builds[0]][base[t]] / best[b][t]:.2f}" for t in tasks]
        print(f"| {b} | " + " | ".join(cells) + " |")
    playouts = reference["playouts"]
    print(f"\nplayouts: {args.playouts:,} games, {playouts[1]:,} steps "
          f"({playouts[1] / best[builds[0]]['playouts']:,.0f} steps/s pure)")
    print("word playouts: the same games on the word core (cardlab/games/mipig/wcore.py; × pure: against "
          "today's core in the pure build); every build's word core gave today's core's results")
    print(f"perft: the lines of {args.perft} steps from the 3-each open deal of seed 2 ({reference['perft']:,}), "
          f"today's core; word perft: the same on the word core (× pure: against today's core, pure build)")
    for task in (t for t in tasks if t.startswith("solve")):
        print(f"{task}: nodes " + ", ".join(f"{row[3]:,}" for row in reference[task]))
    print(f"agreement: every build gave the same playout results and, on every deal, the same value, best "
          f"moves, principal variation, node and table-hit counts ({args.rounds} rounds)")
    for b in builds:
        print(f"{b}: " + ", ".join(f"{m} <- {f}" for m, f in files[b].items()))


if __name__ == "__main__":
    main()
