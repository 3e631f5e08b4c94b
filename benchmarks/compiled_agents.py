"""mipig's word core through the public API: the MCTS agent, the anytime analysis and
``cardlab.cores.playout``, compiled against pure, interleaved in one run (issue X).

"Compiled" is this install as ``pip install -e .`` built it (``cardlab.build_info()``
must say the word core runs compiled); "pure" is the same install with
``CARDLAB_PURE=1`` (the ``.py`` runs as Python, today's core plays out).  Each round
runs both, in turn, each in a fresh process; a process times its tasks in CPU seconds
(``time.process_time``) after its imports and one warm-up move, and reports its
results: both must give the same moves, values and playout totals (same seeds).  Each
build keeps its fastest round.

Tasks, on mipig's default game (five cards each dealt, closed hands), from positions
five random steps into the game (seeds 0 … ``--positions``-1):

- ``mcts``: ``agents.make("mcts", seed)`` (ISMCTS, 300 iterations: a tree on the public
  ``State``, one random playout per iteration on the core) chooses a move;
- ``analyse``: ``cardlab.analyse(state, player, nodes=20_000)`` (exact worlds, then
  short UCT searches with random playouts on the core);
- ``playout``: ``cardlab.cores.playout`` of 2,000 seeded random games from each.

    python benchmarks/compiled_agents.py --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

TASKS = ("mcts", "analyse", "playout")


def positions(count: int) -> list:
    import random

    import cardlab
    from cardlab import CHANCE
    from cardlab.core import sample_chance

    out = []
    for seed in range(count):
        state, walk = cardlab.load("mipig").new_initial_state(seed=seed), random.Random(seed)
        for _ in range(5):
            state = state._apply(sample_chance(state, walk) if state.current_player == CHANCE
                                 else walk.choice(state.legal_actions()))
        out.append(state)
    return out


def child(count: int) -> dict:
    """One build's run: ``{"info", "cpu": {task: s}, "results": {task: ...}, "playouts"}``."""
    import random

    import cardlab
    from cardlab import agents
    from cardlab.cores import playout

    states = positions(count)
    agents.make("mcts", seed=0).choose(states[0])  # warm-up: imports, the cores
    cpu, results = {}, {}
    start = time.process_time()
    results["mcts"] = [agents.make("mcts", seed=i).choose(s) for i, s in enumerate(states)]
    cpu["mcts"] = time.process_time() - start
    start = time.process_time()
    results["analyse"] = [[(r["action"], round(float(r["value"]), 12)) for r in
                           cardlab.analyse(s, player=s.current_player, nodes=20_000).rows] for s in states]
    cpu["analyse"] = time.process_time() - start
    start = time.process_time()
    totals = []
    for i, s in enumerate(states):
        rng = random.Random(i)
        got = [playout(s, rng) for _ in range(2_000)]
        totals.append((float(sum(r[0] for r, _k in got)), sum(k for _r, k in got)))
    cpu["playout"] = time.process_time() - start
    results["playout"] = totals
    return {"info": cardlab.build_info()["mipig"], "cpu": cpu, "results": results,
            "playouts": {"mcts": 300 * count, "playout": 2_000 * count}}


def run(build: str, count: int) -> dict:
    env = dict(os.environ, CARDLAB_PURE="1" if build == "pure" else "0")
    out = subprocess.run([sys.executable, __file__, "--child", str(count)], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child is not None:
        print(json.dumps(child(args.child)))
        return
    best: dict = {}
    for r in range(args.rounds):
        for build in (("pure", "compiled") if r % 2 == 0 else ("compiled", "pure")):
            got = run(build, args.positions)
            prev = best.get(build)
            best[build] = got if prev is None else dict(got, cpu={t: min(prev["cpu"][t], got["cpu"][t]) for t in TASKS})
    if not best["compiled"]["info"]["used"] or best["pure"]["info"]["used"]:
        raise SystemExit(f"the builds are not the ones expected: {best['compiled']['info']}, {best['pure']['info']}")
    same = best["pure"]["results"] == best["compiled"]["results"]
    print(f"same moves, values and playout totals: {same}")
    print("| build | mcts s | × | analyse s | × | playouts s | × |")
    print("|---|---|---|---|---|---|---|")
    for build in ("pure", "compiled"):
        cells = []
        for t in TASKS:
            s = best[build]["cpu"][t]
            cells += [f"{s:.2f}", f"{best['pure']['cpu'][t] / s:.2f}"]
        print(f"| {build} | " + " | ".join(cells) + " |")
    if not same:
        raise SystemExit("the builds disagree")


if __name__ == "__main__":
    main()
