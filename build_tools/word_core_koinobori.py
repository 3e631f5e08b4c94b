"""Koi-koi Nobori's word core against today's core (issue X): CPU time of seeded random
playouts of the default game from the start.

Three ways, each in a fresh process, every round in turn, each way's fastest round kept:

- ``core``: today's core (``cardlab/games/koinobori/core.py``) as Python
  (``CARDLAB_PURE=1``), on ``cardlab.cores._playout_core``;
- ``words``: ``WordCore.playout`` (``cardlab/games/koinobori/wcore.py``) as it imports
  here: compiled where it is built (``cythonize -i -3 cardlab/games/koinobori/wcore.py``);
- ``words-python``: the same with ``CARDLAB_PURE=1`` (the ``.py`` as Python).

Every way plays the same games (one ``random.Random(7)`` for all playouts): their
returns summed and their steps must agree, else the script stops.

    nice -n 10 .venv/bin/python build_tools/word_core_koinobori.py --playouts 20000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

WAYS = {"core": {"CARDLAB_PURE": "1"}, "words": {"CARDLAB_PURE": ""}, "words-python": {"CARDLAB_PURE": "1"}}


def child(way: str, playouts: int) -> dict:
    """One way's run: CPU seconds, the returns summed, the steps, whether compiled."""
    import random

    import cardlab
    from cardlab.cores import _playout_core
    from cardlab.games.koinobori import core as kn_core
    from cardlab.games.koinobori import wcore

    game = cardlab.load("koinobori")
    core = kn_core.make_core(game)  # not core_of: today's core without a word core on it
    pos = core.encode(game.new_initial_state())
    wc = wcore.make_word_core(game, core)
    rng = random.Random(7)
    total = steps = 0
    t = time.process_time()
    if way == "core":
        for _ in range(playouts):
            ret, k = _playout_core(core, pos, rng, 10_000, 2)
            total += ret[0]
            steps += k
    else:
        for _ in range(playouts):
            wc.load(pos)
            ret, k = wc.playout(rng)
            total += ret[0]
            steps += k
    cpu = time.process_time() - t
    return {"cpu": cpu, "total": total, "steps": steps, "compiled": wcore.compiled}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--playouts", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ways", default=",".join(WAYS))
    ap.add_argument("--child", choices=list(WAYS))
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.playouts)))
        return
    ways = args.ways.split(",")
    best: dict = {}
    for r in range(args.rounds):
        for way in ways[r % len(ways):] + ways[:r % len(ways)]:  # the order rotated
            env = dict(os.environ, **WAYS[way])
            out = subprocess.run([sys.executable, __file__, "--child", way, "--playouts", str(args.playouts)],
                                 env=env, check=True, capture_output=True, text=True).stdout
            got = json.loads(out.strip().splitlines()[-1])
            print(f"round {r + 1} {way}: {got}", flush=True)
            if way in best and (got["total"], got["steps"]) != (best[way]["total"], best[way]["steps"]):
                raise SystemExit(f"{way} played other games in round {r + 1}")
            if way not in best or got["cpu"] < best[way]["cpu"]:
                best[way] = got
    results = {(b["total"], b["steps"]) for b in best.values()}
    if len(results) != 1:
        raise SystemExit(f"the ways disagree: {best}")
    base = best[ways[0]]["cpu"]
    print(f"\n{args.playouts:,} playouts of the default game, {best[ways[0]]['steps']:,} steps, "
          f"returns summed {best[ways[0]]['total']}; CPU s, fastest of {args.rounds}")
    print("| way | compiled | CPU s | × " + ways[0] + " | M steps/s |\n|---|---|---|---|---|")
    for way in ways:
        b = best[way]
        print(f"| {way} | {b['compiled']} | {b['cpu']:.2f} | {base / b['cpu']:.2f} | {b['steps'] / b['cpu'] / 1e6:.2f} |")


if __name__ == "__main__":
    main()
