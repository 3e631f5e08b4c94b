"""Issue X: Toritsuki's random playouts on today's core against its word core
(``cardlab/games/toritsuki/wcore.py``), CPU time, each way in a fresh process.

    nice -n 10 .venv/bin/cythonize -i -3 -j 1 cardlab/games/toritsuki/wcore.py   # the compiled build
    nice -n 10 .venv/bin/python build_tools/word_core_toritsuki.py --playouts 5000 --rounds 3

Ways: ``core`` (``cardlab.cores._playout_core`` on ``core.py``, ``CARDLAB_PURE=1``: today's
pure path), ``words-py`` (the word core as Python, ``CARDLAB_PURE=1``), ``words`` (the word core
as imported: compiled where built).  Seeded playouts of the default game from the start (seed i
for playout i); ``time.process_time`` around the playouts only; each way's best of the rounds
(rounds interleaved, the order rotated).  Every way must give the same totals (returns, steps).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

WAYS = {"core": "1", "words-py": "1", "words": ""}  # way -> CARDLAB_PURE


def one(way: str, playouts: int) -> dict:
    """Play the playouts one way in this process: CPU seconds, steps, player 0's total."""
    import random

    import cardlab
    from cardlab.cores import _playout_core, core_of
    from cardlab.games.toritsuki import wcore

    game = cardlab.load("toritsuki")
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    wc = wcore.make_word_core(game, core)
    steps = total = 0
    start = time.process_time()
    for seed in range(playouts):
        if way == "core":
            r, n = _playout_core(core, pos, random.Random(seed), 10_000, 2)
        else:
            wc.load(pos)
            r, n = wc.playout(random.Random(seed))
        steps, total = steps + n, total + r[0]
    return {"way": way, "seconds": time.process_time() - start, "steps": steps, "total": total,
            "compiled": bool(wcore.compiled)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playouts", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--one", choices=sorted(WAYS), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.playouts)))
        return
    best: dict = {}
    ways = list(WAYS)
    for r in range(args.rounds):
        for way in ways[r % len(ways):] + ways[:r % len(ways)]:
            env = dict(os.environ, CARDLAB_PURE=WAYS[way])
            out = subprocess.run([sys.executable, __file__, "--one", way, "--playouts", str(args.playouts)],
                                 env=env, check=True, capture_output=True, text=True).stdout
            got = json.loads(out.strip().splitlines()[-1])
            print(f"round {r + 1}: {way}: {got['seconds']:.3f} s (compiled: {got['compiled']})", flush=True)
            if way not in best or got["seconds"] < best[way]["seconds"]:
                best[way] = got
    sums = {(b["steps"], b["total"]) for b in best.values()}
    assert len(sums) == 1, f"the ways disagree: {best}"
    base = best["core"]["seconds"]
    print(f"\n{args.playouts} playouts, {best['core']['steps']} steps, player 0's total {best['core']['total']}")
    print("| way | CPU s | × core |\n|---|---|---|")
    for way in ways:
        print(f"| {way}{' (compiled)' if best[way]['compiled'] else ''} | {best[way]['seconds']:.3f} "
              f"| {base / best[way]['seconds']:.2f} |")


if __name__ == "__main__":
    main()
