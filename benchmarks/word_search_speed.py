"""The exact search on mipig's word core against today's search, interleaved in one run
(issue X: the search on words; ``cardlab/wsearch.py``).

Three ways, each in a fresh process per round (order rotated), CPU seconds
(``time.process_time``) after the imports, the games' cores built and a first small
solve: ``today`` (:class:`cardlab.search.Search` on mipig's compact core), ``words``
(:func:`wsearch.word_search`, compiled: the install's build, ``pip install -e .``) and
``words-py`` (the same with ``CARDLAB_PURE=1``: ``wsearch.py`` and ``wcore.py`` run as
Python).  Each way keeps its fastest round.  Task: the exact value (``Search.exact``, what
``cardlab.solve``'s value is) of the yardstick's whole open deals, 3 cards each (seeds
0-9) and 4 each (seeds 0-1), first player seed % 2; each task twice in a row (new
searches, new tables): the first time includes sympy solving each new end-janken
matrix (``cardlab.matrix.repeated_value``, cached per process by the search, the same
work in every way), "again" is the search alone.  Agreement: every way must give the
same values and node counts.

    python benchmarks/word_search_speed.py                  # 3 rounds, a markdown table
    python benchmarks/word_search_speed.py --rounds 5 --ways today,words --no-four
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
WAYS = {"today": {}, "words": {}, "words-py": {"CARDLAB_PURE": "1"}}


def child(way: str, four: bool) -> dict:
    """One way's run: ``{"compiled", "cpu": {task: s}, "results": {task: [[value, nodes], ...]}}``."""
    sys.path.insert(0, str(ROOT))
    import cardlab
    from cardlab.builds import import_typed
    from cardlab.cores import core_of
    from cardlab.search import Search

    wsearch = import_typed("cardlab.wsearch")
    make = Search if way == "today" else wsearch.word_search
    warm = cardlab.load("mipig", hand_size=1, open_hands=True, first_player=0)
    make(warm, max_nodes=None).exact(warm.new_initial_state(seed=0))
    tasks = {"3 each": [(3, seed) for seed in range(10)], "4 each": [(4, 0), (4, 1)] if four else []}
    cpu, results = {}, {}
    for task, cases in tasks.items():
        if not cases:
            continue
        games = [cardlab.load("mipig", hand_size=n, open_hands=True, first_player=seed % 2) for n, seed in cases]
        states = [g.new_initial_state(seed=seed) for g, (_n, seed) in zip(games, cases)]
        for g in games:
            core_of(g)  # the core's tables are built outside the timing
        for run in ("", " again"):  # the second time the janken matrices' values are known (cached)
            got = []
            t = time.process_time()
            for g, s in zip(games, states):
                search = make(g, max_nodes=None, progress=False)
                got.append([str(search.exact(s)), search.nodes])
            cpu[task + run] = time.process_time() - t
            results[task + run] = got
    return {"compiled": wsearch.compiled, "cpu": cpu, "results": results}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ways", default="today,words,words-py")
    ap.add_argument("--no-four", dest="four", action="store_false", help="leave out the 4-each deals")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.four)))
        return
    os.nice(10)  # a shared machine: the children inherit it
    ways = args.ways.split(",")
    start, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    best: dict = {w: {} for w in ways}
    reference, compiled = None, {}
    for r in range(args.rounds):
        for way in ways[r % len(ways):] + ways[:r % len(ways)]:  # each way goes first in turn
            env = {k: v for k, v in os.environ.items() if k != "CARDLAB_PURE"} | WAYS[way]
            cmd = [sys.executable, __file__, "--child", way] + ([] if args.four else ["--no-four"])
            run = subprocess.run(cmd, capture_output=True, text=True, cwd="/", env=env)
            if run.returncode:
                raise SystemExit(f"{way}: {run.stderr[-3000:]}")
            got = json.loads(run.stdout.splitlines()[-1])
            compiled[way] = got["compiled"]
            reference = reference or got["results"]
            if got["results"] != reference:
                raise SystemExit(f"{way} disagrees: {got['results']} != {reference}")
            for task, s in got["cpu"].items():
                best[way][task] = min(best[way].get(task, float("inf")), s)
        load = max(load, os.getloadavg())
    tasks = list(best[ways[0]])
    print(f"{start}; load average up to {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores); niced; "
          f"CPU seconds, fastest of {args.rounds} interleaved rounds\n")
    print("| way | wsearch compiled | " + " | ".join(f"{t} s | × {ways[0]}" for t in tasks) + " |")
    print("|---|---|" + "---|---|" * len(tasks))
    for w in ways:
        cells = [f"{best[w][t]:.2f} | {best[ways[0]][t] / best[w][t]:.2f}" for t in tasks]
        print(f"| {w} | {compiled[w]} | " + " | ".join(cells) + " |")
    for task in (t for t in tasks if not t.endswith("again")):
        print(f"\n{task}: nodes " + ", ".join(f"{row[1]:,}" for row in reference[task]))
    print(f"agreement: every way gave the same values and node counts ({args.rounds} rounds)")


if __name__ == "__main__":
    main()
