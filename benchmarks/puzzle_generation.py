"""Issue U: how long making puzzles takes, and how many candidate positions
each kept puzzle costs.

    .venv/bin/python benchmarks/puzzle_generation.py            # the shipped banks' own figures
    .venv/bin/python benchmarks/puzzle_generation.py --run 20   # and a fresh run of 20 a game, timed here

The shipped banks (``cardlab/data/puzzles/<game>.json``) keep the figures of
the run that made them (``generated``: seeded games played, candidate
positions looked at, puzzles kept, wall seconds on the machine of that run,
the node budget of each analysis).  ``--run N`` generates N more per game
from seeds past the bank's own (CPU time here, nothing written) and prints
the same columns, with the load average: on a loaded machine the wall time
says little, the CPU time and the candidates per puzzle do.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import cardlab
from cardlab.puzzles.bank import bank_path
from cardlab.puzzles.generate import generate, puzzle_game


def shipped(game: str) -> dict:
    data = json.loads(Path(bank_path(game)).read_text(encoding="utf-8"))
    run = dict(data["generated"])
    run["kinds"] = sorted({p["kind"] for p in data["puzzles"]})
    return run


def fresh(game: str, n: int) -> dict:
    bank = shipped(game)
    first = bank.get("first_seed", 0) + bank["games"]
    t, w = time.process_time(), time.perf_counter()
    records, figures = generate(puzzle_game(game), n, seed=first, max_games=2000)
    figures.update(cpu=time.process_time() - t, wall=time.perf_counter() - w, first_seed=first,
                   kinds=sorted({r["kind"] for r in records}))
    return figures


def row(game: str, f: dict, cpu: bool) -> str:
    kept = max(f["kept"], 1)
    per100 = (f["cpu"] if cpu else f["seconds"]) / kept * 100
    return (f"| {game} | {f['kept']} | {'/'.join(f['kinds'])} | {f['games']} | {f['candidates']} "
            f"| {f['candidates'] / kept:.1f} | {f['cpu'] if cpu else f['seconds']:.1f} | {per100 / 60:.2f} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(cardlab.games.names()))
    ap.add_argument("--run", type=int, default=0, metavar="N", help="also generate N puzzles a game here, timed")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    head = ("| game | kept | kinds | seeded games | candidates | candidates a puzzle | {s} | minutes per 100 |\n"
            "|---|---|---|---|---|---|---|---|")
    print("The shipped banks, as their run recorded it (wall seconds of that machine):\n")
    print(head.format(s="wall s"))
    for g in games:
        print(row(g, shipped(g), cpu=False))
    if args.run:
        load = os.getloadavg()[0]
        print(f"\nA fresh run of {args.run} a game here, CPU time (load average {load:.1f} at the start):\n")
        print(head.format(s="CPU s"))
        for g in games:
            print(row(g, fresh(g, args.run), cpu=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
