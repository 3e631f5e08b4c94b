"""Issue X, item 4: the compiled word cores and the search on words against today's cores
and search, every game, interleaved in one run.

Three ways, each in a fresh process per round (the order rotated), CPU seconds
(``time.process_time``) after the imports and the cores' tables are built:

- ``pure``: ``CARDLAB_PURE=1``, what a machine without a compiler and the JupyterLite
  site run: today's compact cores (``core.py``) and :class:`cardlab.search.Search`;
- ``compiled``: the install's build (``pip install -e .`` compiles each game's
  ``wcore.py`` and ``cardlab/wsearch.py`` with Cython where it can): the word cores where
  :func:`cardlab.cores.core_of` hung them on the cores, the word search where
  ``cardlab.solve`` takes it;
- ``words-py`` (playouts only): the word cores' own ``.py`` run as Python
  (``CARDLAB_PURE=1``, ``WordCore.playout`` called directly): what one source costs
  where nothing compiles (there the cores of ``pure`` are used instead).

Tasks: ``playouts GAME``, random games of the default game from its start on
:func:`cardlab.cores.playout_from` (seeded: the same games either way; the returns
summed and the steps must agree); ``search NAME``, the exact value
(``Search.exact``, what ``cardlab.solve``'s value is) of the reference positions of
:data:`SEARCHES` by the search ``cardlab.solve`` uses (``cardlab.solve._search``): the
values and node counts must agree.  Each way keeps its fastest round.

    python benchmarks/word_cores.py                       # 3 rounds, every task, a markdown table
    python benchmarks/word_cores.py --rounds 1 --tasks playouts
    python benchmarks/word_cores.py --tasks "search kn8"
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WAYS = {"pure": {"CARDLAB_PURE": "1"}, "compiled": {}, "words-py": {"CARDLAB_PURE": "1"}}
#: random games of the default game per playout task (about 2-5 s CPU each on today's core)
PLAYOUTS = {"mipig": 20_000, "koinobori": 20_000, "mazemon": 20_000, "monster_cards": 10_000, "toritsuki": 1_000}
#: the search tasks: name -> (what, game, options, how the positions are made, seeds)
SEARCHES = {
    "mipig4": ("mipig 4 each, whole open deals (the yardstick's seeds 0-1)", "mipig", {"hand_size": 4}, "deal", [0, 1]),
    "kn8": ("Koi-koi Nobori deck 8, 3 in each hand (benchmarks/limits.py kn8)", "koinobori", {}, "kn8", [0, 1]),
    "mazemon": ("Mazemon endgames: 14 steps before the end of seeded open games", "mazemon", {}, 14, [0, 1, 2]),
    "toritsuki": ("Toritsuki endgames: 12 steps before the end of seeded open games", "toritsuki", {}, 12, [0, 1, 2]),
}


def positions(name: str) -> list:
    """The states of search task ``name`` (deterministic)."""
    import cardlab
    from cardlab import CHANCE
    from cardlab.core import sample_chance

    _what, game_name, options, how, seeds = SEARCHES[name]
    states = []
    for seed in seeds:
        if how == "deal":
            game = cardlab.load(game_name, open_hands=True, first_player=seed % 2, **options)
            states.append(game.new_initial_state(seed=seed))
        elif how == "kn8":
            sys.path.insert(0, str(HERE))
            from limits import position, seeds as limit_seeds

            states = [position("kn8", s) for s in limit_seeds("kn8", len(seeds))]
            break
        else:  # ``how`` steps before the end of a seeded random game with open hands
            game = cardlab.load(game_name, open_hands=True, **options)
            rng, s, line = random.Random(seed), game.new_initial_state(seed=seed), []
            while not s.is_terminal():
                line.append(s)
                s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
            states.append(line[max(0, len(line) - how)])
    return states


def child(way: str, tasks: list[str]) -> dict:
    """One way's run: ``{"build", "cpu": {task: s}, "results": {task: ...}, "searches": {task: type}}``."""
    sys.path.insert(0, str(ROOT))
    import importlib

    import cardlab
    from cardlab.cores import build_info, core_of, playout_from

    solve_module = importlib.import_module("cardlab.solve")  # (cardlab.solve is the function)
    cpu, results, searches = {}, {}, {}
    for task in tasks:
        kind, name = task.split(" ", 1)
        if kind == "playouts":
            game = cardlab.load(name)
            core = core_of(game)
            pos = core.encode(game.new_initial_state())
            rng, total, steps = random.Random(0), None, 0
            n = game.spec.num_players
            if way == "words-py":  # the word core's .py itself
                wc = cardlab.games.CATALOGUE[name].wcore.make_word_core(game, core)

                def play(core, pos, rng, limit, n, wc=wc):
                    wc.load(pos)
                    return wc.playout(rng, limit)
            else:
                play = playout_from
            t = time.process_time()
            for _ in range(PLAYOUTS[name]):
                r, k = play(core, pos, rng, 10_000, n)
                total = list(r) if total is None else [a + b for a, b in zip(total, r)]
                steps += k
            cpu[task] = time.process_time() - t
            results[task] = [[str(x) for x in total], steps]
        elif way == "words-py":
            continue  # (the search as Python: benchmarks/word_search_speed.py, mipig)
        else:
            states = positions(name)
            for s in states:
                core_of(s.game)  # the tables outside the timing
            got = []
            t = time.process_time()
            for s in states:
                search = solve_module._search(s.game, max_nodes=None, progress=False)
                got.append([str(search.exact(s)), search.nodes])
                searches[task] = type(search).__name__
            cpu[task] = time.process_time() - t
            results[task] = got
    return {"build": build_info(), "cpu": cpu, "results": results, "searches": searches}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tasks", default="playouts,search",
                    help="comma-separated: playouts, search, or single tasks ('playouts mipig', 'search kn8')")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    tasks = []
    for t in args.tasks.split(","):
        t = t.strip()
        tasks += ([f"playouts {g}" for g in PLAYOUTS] if t == "playouts" else
                  [f"search {s}" for s in SEARCHES] if t == "search" else [t])
    if args.child:
        print(json.dumps(child(args.child, tasks)))
        return
    os.nice(10)  # a shared machine: the children inherit it
    ways = list(WAYS)
    start, load = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), os.getloadavg()
    best: dict = {w: {} for w in ways}
    reference, info, searches = None, {}, {}
    for r in range(args.rounds):
        for way in ways[r % len(ways):] + ways[:r % len(ways)]:  # each way goes first in turn
            env = {k: v for k, v in os.environ.items() if k != "CARDLAB_PURE"} | WAYS[way]
            cmd = [sys.executable, __file__, "--child", way, "--tasks", ",".join(tasks)]
            run = subprocess.run(cmd, capture_output=True, text=True, cwd="/", env=env)
            if run.returncode:
                raise SystemExit(f"{way}: {run.stderr[-3000:]}")
            got = json.loads(run.stdout.splitlines()[-1])
            info[way], searches[way] = got["build"], got["searches"]
            reference = reference or got["results"]
            if any(reference.get(t, v) != v for t, v in got["results"].items()):
                raise SystemExit(f"{way} disagrees: {got['results']} != {reference}")
            reference = reference | got["results"]
            for task, s in got["cpu"].items():
                best[way][task] = min(best[way].get(task, float("inf")), s)
        load = max(load, os.getloadavg())
    print(f"{start}; load average up to {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores); niced; "
          f"CPU seconds, fastest of {args.rounds} interleaved rounds\n")
    print("| task | what | pure s | compiled s | × | compiled runs on | word core as Python s | × |")
    print("|---|---|---|---|---|---|---|---|")
    for task in tasks:
        kind, name = task.split(" ", 1)
        if kind == "playouts":
            what = f"{PLAYOUTS[name]:,} random games, {reference[task][1]:,} steps"
            on = "word core" if info["compiled"][name]["used"] and info["compiled"][name]["word_core"] else "today's core"
        else:
            what = SEARCHES[name][0] + "; nodes " + ", ".join(f"{row[1]:,}" for row in reference[task])
            on = searches["compiled"].get(task, "?")
        p, c = best["pure"][task], best["compiled"][task]
        w = best.get("words-py", {}).get(task)
        py = f"{w:.2f} | {p / w:.2f}" if w else "— | —"
        print(f"| {task} | {what} | {p:.2f} | {c:.2f} | {p / c:.1f} | {on} | {py} |")
    print(f"\nagreement: every way gave the same playout totals, values and node counts ({args.rounds} rounds)")


if __name__ == "__main__":
    main()
