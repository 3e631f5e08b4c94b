"""cardlab benchmark table: playout speed, exact solving against the plain
minimax baseline, tree building speed and memory, and how strong each agent
plays against random.  Prints markdown tables.

    python benchmarks/run.py            # everything
    python benchmarks/run.py --quick    # fewer playouts and matches
    python benchmarks/run.py --agents heuristic,mcts   # which agents meet random
    python benchmarks/run.py --solve-only   # just the exact-solving table

Figures are wall-clock on whatever machine runs it (shared machines are noisy:
compare ratios, not absolute times).  Timed values are the median of
``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import cardlab
from cardlab import CHANCE, TooLargeError
from cardlab.core import sample_chance
from cardlab.cores import core_of, playout

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "data" / "reference"
LARGER = ROOT / "benchmarks" / "positions"


def timed(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def playouts(game, n, seed=0):
    rng = random.Random(seed)
    steps = 0
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            a = sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions())
            s = s._apply(a)
            steps += 1
    return steps


def core_playouts(game, n, seed=0):
    """The same random games on the game's compact core (cardlab.cores)."""
    rng = random.Random(seed)
    root = game.new_initial_state()
    return sum(playout(root, rng)[1] for _ in range(n))


def table(headers, rows):
    print("| " + " | ".join(headers) + " |")
    print("|" + "|".join("---" for _ in headers) + "|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    print()


def references(folder=REFERENCE):
    """Positions of ``folder/<game>.json`` (the test references, or the larger
    benchmark positions of ``benchmarks/positions``)."""
    for path in sorted(folder.glob("*.json")):
        if path.stem not in cardlab.games():
            continue
        for entry in json.loads(path.read_text("utf-8")):
            game = cardlab.load(path.stem, **entry.get("options", {}))
            s = (game.state_from_dict(entry["position"]) if "position" in entry
                 else game.new_initial_state(seed=entry["seed"]))
            yield f"{path.stem}/{entry.get('name')}", s


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--solve-only", action="store_true", help="print only the exact-solving table")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline-nodes", type=int, default=3_000_000,
                    help="give up the plain minimax baseline past this many nodes")
    ap.add_argument("--agents", default="heuristic",
                    help="comma-separated agents that play random in the strength table "
                         "(mcts and solver take seconds per game)")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    n_play = 50 if args.quick else 300
    print(f"cardlab {cardlab.__version__}, Python {sys.version.split()[0]}\n")

    if not args.solve_only:
        print("## Random playouts: the public State, and the compact core (cardlab.cores)")
        rows = []
        for name in cardlab.games():
            for options in ({}, {"open_hands": True}):
                game = cardlab.load(name, **options)
                if options and "open_hands" not in game.OPTIONS:
                    continue
                t, steps = timed(lambda: playouts(game, n_play), repeat)
                row = [name + (" open" if options else ""), n_play, f"{steps / n_play:.1f}", f"{steps / t:,.0f}"]
                if core_of(game) is None:
                    rows.append(row + ["—", "—"])
                    continue
                tc, steps_c = timed(lambda: core_playouts(game, n_play), repeat)
                rows.append(row + [f"{steps_c / tc:,.0f}", f"{(steps_c / tc) / (steps / t):.1f}×"])
        table(["game", "games", "mean length", "State states/s", "core states/s", "core speed-up"], rows)

    print("## Exact solving (alpha-beta, Star1 below chance nodes, + table) against plain minimax "
          "(no table, no pruning)")
    rows = []
    for label, s in list(references()) + list(references(LARGER)):
        t, sol = timed(lambda: cardlab.solve(s, progress=False), repeat)
        try:
            tb, base = timed(lambda: cardlab.minimax(s, max_nodes=args.baseline_nodes), 1)
            base_cols = [f"{tb * 1000:,.1f}", f"{base.nodes:,}", f"{tb / t:,.1f}×"]
        except TooLargeError:
            base_cols = [f"> {args.baseline_nodes:,} nodes", "—", "—"]
        rows.append([label, str(sol.value), f"{t * 1000:,.1f}", f"{sol.nodes:,}", f"{sol.tt_entries:,}",
                     f"{sol.tt_hits:,}"] + base_cols)
    table(["position", "value", "solve ms", "nodes", "distinct positions", "table hits",
           "minimax ms", "minimax nodes", "speed-up"], rows)

    if args.solve_only:
        return

    print("## Tree building (networkx, transpositions merged)")
    table(["position", "nodes", "build ms", "nodes/s", "bytes/node (peak, traced)", "bytes/node retained"],
          tree_rows())

    print("## Fair hint (analyse(state, player=p)): early, middle and late decisions of seeded games")
    table(["game", "position", "hidden cards", "kind", "arrangements", "nodes", "seconds"],
          fair_hint_rows(seeds=1 if args.quick else 3))

    n_match = 40 if args.quick else 200
    print(f"## Agent strength: mean return against random ({n_match} matches each, seats alternating)")
    table(["game", "agent", "mean return", "95 % CI", "won", "ms per match"],
          strength(args.agents.split(","), n_match))


def tree_rows():
    """Rows of the tree table: each reference position's whole tree, its
    building time, the traced peak while building and what the finished tree
    retains (the memory freed when it goes), per node."""
    rows = []
    for label, s in references():
        tracemalloc.start()
        t0 = time.perf_counter()
        G = cardlab.tree(s, max_nodes=500_000)
        t = time.perf_counter() - t0
        _, peak = tracemalloc.get_traced_memory()
        n = G.number_of_nodes()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        del G  # what the tree retains is what goes with it (not the engines' own bounded memo tables)
        gc.collect()
        retained = held - tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        rows.append([label, f"{n:,}", f"{t * 1000:,.1f}", f"{n / t:,.0f}", f"{peak / n:,.0f}", f"{retained / n:,.0f}"])
    return rows


def fair_hint_rows(seeds, max_nodes=200_000):
    """Rows of the fair-hint table: for each hidden-card game and seed, the
    first decision, one in the middle, one at nine tenths and the last one
    of a random game,
    with the defaults of :func:`cardlab.analyse` (exact up to 500
    arrangements, else 40 samples) and a node cap."""
    rows = []
    for name in cardlab.games():
        game = cardlab.load(name)
        if game.spec.perfect_information:
            continue
        for seed in range(seeds):
            rng = random.Random(seed)
            s, decisions = game.new_initial_state(), []
            while not s.is_terminal():
                if s.current_player >= 0:
                    decisions.append(s)
                a = sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions())
                s = s.apply(a)
            n = len(decisions)
            picks = {"first": decisions[0], "middle": decisions[n // 2], "late": decisions[(9 * n) // 10 - 1],
                     "last": decisions[-1]}
            for where, d in picks.items():
                p = d.current_player
                hidden = d.hidden(p)
                n_hidden = len(hidden.cards) if hidden is not None else 0
                t0 = time.perf_counter()
                try:
                    a = cardlab.analyse(d, player=p, max_nodes=max_nodes, progress=False)
                    cols = [a.kind, f"{a.arrangements:,}", f"{a.nodes:,}"]
                except TooLargeError:
                    cols = ["too large", "—", f"> {max_nodes:,}"]
                rows.append([name, f"seed {seed} {where}", n_hidden] + cols
                            + [f"{time.perf_counter() - t0:.2f}"])
    return rows


def strength(agents, n):
    """Rows of the strength table: each agent against random players in
    every game (the agent in seat 0 on even seeds, seat 1 on odd ones), run
    with :func:`cardlab.batch.run`."""
    from cardlab import batch

    rows = []
    for name in cardlab.games():
        seats = cardlab.load(name).spec.num_players
        for agent in agents:
            jobs = []
            for seed in range(n):
                players = ["random"] * seats
                players[seed % 2] = agent
                jobs.append(batch.match_job(name, seed, players))
            results = batch.run(jobs, progress=False)  # a process per core
            mine = [float(r["returns"][r["seed"] % 2]) for r in results if r["error"] is None]
            errors = len(results) - len(mine)
            mean = statistics.fmean(mine)
            half = 1.96 * statistics.stdev(mine) / len(mine) ** 0.5
            won = sum(r["winner"] == r["seed"] % 2 for r in results if r["error"] is None)
            ms = 1000 * statistics.fmean(r["time"] for r in results)
            rows.append([name, agent, f"{mean:+.3f}", f"{mean - half:+.3f} … {mean + half:+.3f}",
                         f"{won}/{len(mine)}" + (f" ({errors} errors)" if errors else ""), f"{ms:,.0f}"])
    return rows


if __name__ == "__main__":
    main()
