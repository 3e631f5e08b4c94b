"""Issue T, "Done when" item 1: at the first decision and every later one of
seeded games of every game, with its default options, with open hands and
with its largest option set, ``cardlab.analyse(s, player=p, seconds=2)``
answers with a value for every legal move and never raises.  Prints the CPU
and wall seconds per call and every failure.

    python benchmarks/anytime_cpu.py                    # one seeded game per game and option set
    python benchmarks/anytime_cpu.py --seeds 3 --seconds 2 --games mipig

The largest option set of each game (:data:`LARGEST`): the option values
that make its game tree largest, with the other options at their defaults.
The games are played by a heuristic agent against a random one (seats
alternate with the seed); the analysis only looks, it does not choose.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import traceback
from pathlib import Path

import cardlab
from cardlab import CHANCE
from cardlab.agents import make
from cardlab.core import sample_chance

#: per game, the option values that make it largest, and why
LARGEST = {
    "koinobori": (dict(roles=True, koikoi=True, payoff="score"),
                  "roles and the koi-koi call add decisions and end bonuses; score payoff: many values"),
    "mazemon": (dict(material_count="per_monster", payoff="score"),
                "materials counted per monster: more summons are legal; score payoff"),
    "mipig": (dict(hand_size=10, tiebreak_cards="all_on_field"),
              "10 cards each (10枚勝負), the end janken on every card of the field"),
    "monster_cards": (dict(players=8), "8 players (the most MC-1 allows)"),
    "toritsuki": (dict(cards="icons"), "the icon cards (pierce, guard: more battle rules); mulligan on, "
                                       "yokai may change rows more than once a turn (the defaults)"),
}


def option_sets(game_name: str) -> list[tuple[str, dict]]:
    """The three option sets measured: default, open hands, largest."""
    return [("default", {}), ("open hands", {"open_hands": True}),
            ("largest " + ", ".join(f"{k}={v}" for k, v in LARGEST[game_name][0].items()), LARGEST[game_name][0])]


def check(a, s) -> str:
    """What is wrong with an analysis of ``s`` ("" when nothing is)."""
    legal = s.legal_actions()
    values = {r["action"]: r["value"] for r in a.rows}
    if sorted(values) != sorted(legal):
        return f"rows {sorted(values)} are not the legal moves {legal}"
    bad = [m for m, v in values.items() if v is None or not math.isfinite(float(v))]
    return f"no value for {bad}" if bad else ""


def measure_game(game, seed: int, seconds: float) -> dict:
    """Analyse every decision of one seeded game; CPU and wall per call, failures."""
    rng = random.Random(seed)
    agents = [make("heuristic" if (i + seed) % 2 == 0 else "random", seed=seed * 10 + i)
              for i in range(game.spec.num_players)]
    s = game.new_initial_state()
    out = dict(cpu=[], wall=[], exact=0, failures=[])
    ply = 0
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s = s._apply(sample_chance(s, rng))
            continue
        t, w = time.process_time(), time.perf_counter()
        try:
            a = cardlab.analyse(s, player=s.current_player, seconds=seconds)
            wrong = check(a, s)
            out["exact"] += a.exact
        except Exception as e:  # noqa: BLE001  (any failure is what this benchmark reports)
            where = traceback.extract_tb(e.__traceback__)[-1]
            wrong = f"{type(e).__name__}: {e} (at {Path(where.filename).name}:{where.lineno}: {where.line})"
        out["cpu"].append(time.process_time() - t)
        out["wall"].append(time.perf_counter() - w)
        if wrong:
            out["failures"].append(f"seed {seed} decision {ply}: {wrong}")
        ply += 1
        s = s._apply(agents[s.current_player].choose(s))
    return out


def run(games: list[str], seeds: int, seconds: float) -> tuple[list[str], list[str]]:
    """The table rows and the failures."""
    lines = [f"| game | options | games | calls | CPU median s | CPU max s | wall median s | wall max s "
             f"| exact answers | failures |", "|---|---|---|---|---|---|---|---|---|---|"]
    failures = []
    for g in games:
        for label, opts in option_sets(g):
            game = cardlab.load(g, **opts)
            cpu, wall, exact, fails = [], [], 0, []
            for seed in range(seeds):
                r = measure_game(game, seed, seconds)
                cpu += r["cpu"]
                wall += r["wall"]
                exact += r["exact"]
                fails += r["failures"]
            failures += [f"{g} ({label}) {f}" for f in fails]
            lines.append(f"| {g} | {label} | {seeds} | {len(cpu)} | {statistics.median(cpu):.2f} | {max(cpu):.2f} "
                         f"| {statistics.median(wall):.2f} | {max(wall):.2f} | {exact} | {len(fails)} |")
            print(lines[-1], flush=True)
    return lines, failures


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(LARGEST), type=lambda v: v.split(","))
    ap.add_argument("--seeds", type=int, default=1, help="seeded games per game and option set")
    ap.add_argument("--seconds", type=float, default=2.0, help="the budget of each analysis (wall clock)")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    print(f"analyse(s, player=p, seconds={args.seconds}) at every decision\n")
    print("largest option sets: " + "; ".join(f"{g}: {why}" for g, (_o, why) in LARGEST.items() if g in args.games))
    lines, failures = run(args.games, args.seeds, args.seconds)
    print("\n" + "\n".join(lines))
    print(f"\nfailures: {len(failures)}")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
