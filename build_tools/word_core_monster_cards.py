"""Issue X: MONSTER CARDS' random playouts on today's core against its word core
(``cardlab/games/monster_cards/wcore.py``), as Python and compiled.

Four ways, each in a fresh process per round (the order rotated), CPU seconds
(``time.process_time``) after the imports and the tables are built, each way's fastest
round kept:

- ``core``: ``cardlab.cores._playout_core`` on today's core (``core.py``), ``CARDLAB_PURE=1``;
- ``word as Python``: ``WordCore.playout``, ``CARDLAB_PURE=1`` (the ``.py`` runs);
- ``word compiled``: ``WordCore.playout`` from the compiled module (``cythonize -i``);
- ``word compiled (load)``: the same, each playout from core.py's int (``load``, as
  ``cardlab.cores.playout_from`` does) instead of a copy of the loaded start.

The games: ``--playouts`` random games of the default game (2 players, 20-card decks
ember and tide, hidden hands) from its start, drawn one after another from
``random.Random(7)``; every way must give the same returns summed, steps and generator
state.

    nice -n 10 .venv/bin/python build_tools/word_core_monster_cards.py --playouts 20000 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

WAYS = {"core": "1", "word as Python": "1", "word compiled": "0", "word compiled (load)": "0"}


def child(way: str, playouts: int) -> dict:
    import random

    import cardlab
    from cardlab.cores import _playout_core, core_of
    from cardlab.games.monster_cards import wcore

    if way.startswith("word compiled") and not wcore.compiled:
        raise SystemExit(f"the word core did not load compiled: {wcore.__file__}")
    game = cardlab.load("monster_cards")
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    start, wc = wcore.make_word_core(game, core), wcore.make_word_core(game, core)
    start.load(pos)
    wc.copy_from(start)
    wc.playout(random.Random(0))  # the battles' results looked up (as core.py's cache fills)
    _playout_core(core, pos, random.Random(0), 10_000, 2)
    rng = random.Random(7)
    total = steps = 0
    t = time.process_time()
    if way == "core":
        for _ in range(playouts):
            r, k = _playout_core(core, pos, rng, 10_000, 2)
            total += r[0]
            steps += k
    elif way.endswith("(load)"):
        for _ in range(playouts):
            wc.load(pos)
            r, k = wc.playout(rng)
            total += r[0]
            steps += k
    else:
        for _ in range(playouts):
            wc.copy_from(start)
            r, k = wc.playout(rng)
            total += r[0]
            steps += k
    cpu = time.process_time() - t
    return {"cpu": cpu, "result": [total, steps, hash(rng.getstate()[1])]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--playouts", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ways", default=",".join(WAYS), help="of: " + ", ".join(WAYS))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.playouts)))
        return
    ways = args.ways.split(",")
    best: dict[str, float] = {}
    results = {}
    for r in range(args.rounds):
        for way in ways[r % len(ways):] + ways[:r % len(ways)]:
            env = {**os.environ, "CARDLAB_PURE": WAYS[way]}
            out = subprocess.run([sys.executable, __file__, "--child", way, "--playouts", str(args.playouts)],
                                 env=env, capture_output=True, text=True, check=True)
            got = json.loads(out.stdout)
            best[way] = min(best.get(way, got["cpu"]), got["cpu"])
            results[way, r] = got["result"]
    if len({tuple(v) for v in results.values()}) != 1:
        raise SystemExit(f"the ways disagree: {results}")
    total, steps, _ = next(iter(results.values()))
    base = best.get("core")
    print(f"{args.playouts:,} playouts of the default game from the start, {steps:,} steps, "
          f"player 0's returns summed {total}; CPU s, fastest of {args.rounds}")
    print("| way | CPU s | × core | steps/s |\n|---|---|---|---|")
    for way in ways:
        times = f"{base / best[way]:.2f}" if base else "-"
        print(f"| {way} | {best[way]:.3f} | {times} | {steps / best[way] / 1e6:.2f} M |")


if __name__ == "__main__":
    main()
