"""Issue T item 2: how good the anytime analysis is, measured against the
exact fair hint.

    python benchmarks/anytime_quality.py --minutes 50         # run (resumable) and print the tables
    python benchmarks/anytime_quality.py --report             # only the tables, from the CSV
    python benchmarks/anytime_quality.py --seeds 40 --games mipig,koinobori --jobs 2

The positions come from seeded games (:func:`play`: seat agents random,
heuristic and the level "beginner", by seed), the decisions where the player
to move has at least two legal moves.  Per seeded game, walking back from its
last decision, each decision's exact fair hint (``cardlab.analyse(s,
player=p, max_nodes=--cap, max_arrangements=--arrangements)``, kind "fair"
or "open") is computed until the first that is too large (or sampled, or
takes longer than ``--exact-seconds``): those are the decisions where an
exact answer exists.  Of them the earliest (the hardest, where the anytime
answer is mostly an estimate) and up to ``--per-game - 1`` more drawn at
random are kept; at each, ``cardlab.analyse(s, player=p, seconds=t)`` for t
in ``--budgets``: its pick (the first move of highest value, as
:class:`cardlab.agents.LevelAgent` picks) is an exact best move or not, and
its loss (exact value of the best move minus that of the pick, as a share of
the payoff range ``spec.max_utility - spec.min_utility``).  A position's
``stage`` (how far into its game) is its decision's index among the game's
decisions with at least two moves, divided by their number.

Every ``--early-every``-th seed also gives one position before the first
exact one (no exact answer): its 2 s answer against a 60 s one (same best
move, and the loss of the 2 s pick by the 60 s values).

Each row of ``benchmarks/results/anytime_quality.csv`` is one position and
budget, with the git commit and a hash of ``cardlab/anytime.py`` and ``analysis.py`` (the method
may change between runs: the tables count only the rows of the current hash
unless ``--all``), the moves that lead to the position (``history``: every
action, chance outcomes included, from ``new_initial_state()``: :func:`replay`), and the CPU
and wall seconds of each call.  A seed is done once its ``seed_done`` row is
written; a run skips the seeds done with the current ``anytime.py`` and
appends (after a change of the method it measures the same seeds again).

The budgets are CPU seconds of the analysing thread (``clock="cpu"``), so a
shared, busy machine gives each call the same work as a quiet one; the wall
seconds per call are printed too.
"""

from __future__ import annotations

import argparse
import csv
import functools
import hashlib
import importlib
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CSV = RESULTS / "anytime_quality.csv"
GAMES = ("koinobori", "mazemon", "mipig", "monster_cards", "toritsuki")
#: the seat agents of seed % 3
SEATS = (("heuristic", "random"), ("random", "heuristic"), ("beginner", "heuristic"))
FIELDS = ("row", "game", "seed", "ply", "decisions", "stage", "player", "legal", "budget", "exact_kind",
          "exact_arrangements", "exact_nodes", "exact_cpu", "kind", "pick", "best", "in_best", "loss",
          "cpu", "wall", "load", "solved", "arrangements", "agents", "head", "anytime_hash", "history")


@functools.lru_cache(maxsize=None)
def versions() -> dict[str, str]:
    """The commit and a hash of cardlab/anytime.py and analysis.py (what the rows were
    measured with), read once per process, when cardlab is imported: a file
    edited during a run does not relabel the rows its old code measures."""
    importlib.import_module("cardlab.anytime")  # loaded now, with the file hashed here

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    digest = hashlib.sha256((ROOT / "cardlab" / "anytime.py").read_bytes())
    digest.update((ROOT / "cardlab" / "analysis.py").read_bytes())  # since 2026-12-04: analyse() passes options
    return {"head": head[:12], "anytime_hash": digest.hexdigest()[:12]}


def load_game(name: str):
    """The game of a CSV row: a game's name, or a variant of it written
    ``game:option=value;option=value`` (``monster_cards:deck_size=8``)."""
    import cardlab

    game, _sep, opts = name.partition(":")
    options = {}
    for pair in filter(None, opts.split(";")):
        key, _eq, text = pair.partition("=")
        options[key] = int(text) if text.lstrip("-").isdigit() else {"true": True, "false": False}.get(text, text)
    return cardlab.load(game, **options)


def play(game_name: str, seed: int) -> tuple[list, list[str], list[str]]:
    """A seeded game: its decisions ``(state, index into history)`` where the
    player to move has at least two moves, every action played (chance
    included) and the seat agents."""
    from cardlab import CHANCE
    from cardlab.agents import make
    from cardlab.core import sample_chance

    game = load_game(game_name)
    rng = random.Random(seed)
    names = SEATS[seed % len(SEATS)]
    agents = [make(names[i % 2], seed=seed * 10 + i) for i in range(game.spec.num_players)]
    s = game.new_initial_state()
    history: list[str] = []
    decisions = []
    while not s.is_terminal():
        if s.current_player == CHANCE:
            a = sample_chance(s, rng)
        else:
            if len(s.legal_actions()) > 1:
                decisions.append((s, len(history)))
            a = agents[s.current_player].choose(s)
        history.append(a)
        s = s._apply(a)
    return decisions, history, [names[i % 2] for i in range(game.spec.num_players)]


def replay(game_name: str, history: str):
    """The position of a CSV row: its ``history`` replayed from
    ``new_initial_state()`` (the games of the level "beginner" depend on the
    clock, so a seed alone may not give the same game again)."""
    s = load_game(game_name).new_initial_state()
    for a in history.split("|") if history else []:
        s = s.apply(a)
    return s


def exact(s, cap: int, max_arrangements: int):
    """The exact fair hint of ``s`` and its CPU seconds, or ``None`` when it is
    too large or only sampled."""
    import cardlab
    from cardlab import TooLargeError

    t = time.process_time()
    try:
        a = cardlab.analyse(s, player=s.current_player, max_nodes=cap, progress=False,
                            max_arrangements=max_arrangements)
    except TooLargeError:
        return None, time.process_time() - t
    return (a if a.kind in ("fair", "open") else None), time.process_time() - t


def timed_anytime(s, seconds: float):
    """``cardlab.analyse(s, player=..., seconds=..., clock="cpu")``, its pick, CPU and wall seconds."""
    import cardlab

    t, w = time.process_time(), time.perf_counter()
    a = cardlab.analyse(s, player=s.current_player, seconds=seconds, clock="cpu")
    cpu, wall = time.process_time() - t, time.perf_counter() - w
    a.load = os.getloadavg()[0]
    pick = next(r["action"] for r in a.rows if r["best"])
    return a, pick, cpu, wall


def judge(reference, pick: str, span) -> tuple[int, float, str]:
    """Whether ``pick`` is a best move of ``reference`` (an Analysis), its loss
    as a share of ``span``, and the best moves."""
    values = {r["action"]: r["value"] for r in reference.rows}
    top = max(values.values())
    best = [a for a, v in values.items() if v == top]
    return int(pick in best), float(Fraction(top - values[pick]) / span) if not isinstance(
        top, float) else (top - values[pick]) / float(span), "|".join(best)


def walk_back(decisions: list, args) -> tuple[list, int]:
    """The decisions with an exact answer, latest first, each ``(i, analysis,
    cpu)``, and the index of the first decision without one (-1: every one)."""
    from cardlab.hidden import count_fillings

    found = []
    for i in range(len(decisions) - 1, -1, -1):
        s = decisions[i][0]
        # more fillings than --arrangements: the exact fair hint would only sample (the very test
        # cardlab.hidden.arrangements makes), found by counting in 0.05 s instead of 2-10 s of samples
        if count_fillings(s, s.current_player, args.arrangements) is None:
            return found, i
        ref, cpu = exact(s, args.cap, args.arrangements)
        if ref is None:
            return found, i
        found.append((i, ref, cpu))
        if cpu > args.exact_seconds:
            return found, i - 1
    return found, -1


def base_row(game_name: str, seed: int, state, ply: int, n: int, history: list[str], agents, ver) -> dict:
    """The fields every row of one position shares."""
    return dict(game=game_name, seed=seed, ply=ply, decisions=n, stage=f"{ply / n:.3f}" if n else "",
                player=state.current_player, legal=len(state.legal_actions()), agents="/".join(agents),
                history="|".join(history), **ver)


def measure_position(s, ref, ref_cpu: float, budgets, common: dict) -> list[dict]:
    """One row per budget: the anytime answer at ``s`` against ``ref``."""
    span = s.game.spec.max_utility - s.game.spec.min_utility
    rows = []
    for t in budgets:
        a, pick, cpu, wall = timed_anytime(s, t)
        ok, loss, best = judge(ref, pick, span)
        rows.append(dict(common, row="position", budget=t, exact_kind=ref.kind, exact_arrangements=ref.arrangements,
                         exact_nodes=ref.nodes, exact_cpu=f"{ref_cpu:.3f}", kind=a.kind, pick=pick, best=best,
                         in_best=ok, loss=f"{loss:.6f}", cpu=f"{cpu:.3f}", wall=f"{wall:.3f}",
                         load=f"{a.load:.1f}", solved=a.solved,
                         arrangements=a.arrangements))
    return rows


def measure_early(s, args, common: dict) -> dict:
    """A position without an exact answer: the 2 s answer judged by the 60 s one."""
    span = s.game.spec.max_utility - s.game.spec.min_utility
    long_a, long_pick, long_cpu, _w = timed_anytime(s, args.long)
    a, pick, cpu, wall = timed_anytime(s, args.short)
    ok, loss, best = judge(long_a, pick, span)
    return dict(common, row="early", budget=f"{args.short}v{args.long}", exact_kind=long_a.kind,
                exact_arrangements=long_a.arrangements, exact_nodes=long_a.nodes, exact_cpu=f"{long_cpu:.3f}",
                kind=a.kind, pick=pick, best=best, in_best=ok, loss=f"{loss:.6f}", cpu=f"{cpu:.3f}",
                wall=f"{wall:.3f}", load=f"{a.load:.1f}", solved=a.solved, arrangements=a.arrangements)


def task(job: tuple) -> list[dict]:
    """Every row of one seeded game (run in a worker process); a failure gives
    one ``error`` row (and no ``seed_done``: the next run tries it again)."""
    try:
        return measure_seed(*job[:3]) if len(job) == 3 else measure_again(*job)
    except Exception as e:  # noqa: BLE001  (a failure of the analysis is a result here)
        return [dict(versions(), row="error", game=job[0], seed=job[1], pick=f"{type(e).__name__}: {e}"[:300])]


def measure_seed(game_name: str, seed: int, args) -> list[dict]:
    """Every row of one seeded game."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    ver = dict(versions())
    decisions, history, agents = play(game_name, seed)
    n = len(decisions)
    found, frontier = walk_back(decisions, args)
    rng = random.Random(f"{game_name} {seed}")
    chosen = found[-1:] + rng.sample(found[:-1], min(len(found) - 1, args.per_game - 1)) if found else []
    rows = []
    for i, ref, ref_cpu in chosen:
        s, at = decisions[i]
        common = base_row(game_name, seed, s, i, n, history[:at], agents, ver)
        rows += measure_position(s, ref, ref_cpu, args.budgets, common)
    if args.early_every and seed % args.early_every == 0 and frontier >= 0:
        i = rng.randrange(frontier + 1)
        s, at = decisions[i]
        rows.append(measure_early(s, args, base_row(game_name, seed, s, i, n, history[:at], agents, ver)))
    done = dict(base_row(game_name, seed, decisions[0][0], 0, n, [], agents, ver) if decisions else ver,
                row="seed_done", game=game_name, seed=seed, solved=len(found), ply=frontier)
    return rows + [done]


def measure_again(game_name: str, seed: int, args, stored: list[dict]) -> list[dict]:
    """The positions an earlier anytime.py measured in one seeded game (its
    ``position`` and ``early`` rows), measured again by today's: the same
    positions, so two methods are compared on equal ground."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    ver = dict(versions())
    rows = []
    for old in stored:
        s = replay(game_name, old["history"])
        keep = ("game", "seed", "ply", "decisions", "stage", "player", "legal", "agents", "history")
        common = dict({k: old[k] for k in keep}, **ver)
        if old["row"] == "early":
            rows.append(measure_early(s, args, common))
            continue
        ref, ref_cpu = exact(s, args.cap, max(args.arrangements, int(old["exact_arrangements"] or 0)))
        if ref is not None:
            rows += measure_position(s, ref, ref_cpu, args.budgets, common)
    return rows + [dict(ver, row="seed_done", game=game_name, seed=seed, kind="again",
                        solved=sum(r["row"] == "position" for r in stored))]


def again_jobs(args, rows: list[dict], done: set) -> list[tuple]:
    """One job per seeded game that rows of the hashes ``args.again`` hold
    and today's anytime.py has not measured: its distinct positions."""
    wanted = set(args.again.split(","))
    by_seed: dict[tuple[str, int], dict[tuple, dict]] = {}
    for r in rows:
        if r["row"] in ("position", "early") and r["game"] in args.games and (
                "any" in wanted or r["anytime_hash"] in wanted):
            key = (r["game"], int(r["seed"]))
            by_seed.setdefault(key, {}).setdefault((r["row"], r["ply"], r["history"]), r)
    return [(g, seed, args, list(found.values())) for (g, seed), found in sorted(
        by_seed.items(), key=lambda item: (item[0][1], item[0][0])) if (g, seed) not in done]


def read_rows(path: Path = CSV) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def run(args) -> None:
    """Measure the seeds not yet done, two games' seeds interleaved, appending to the CSV."""
    now = versions()["anytime_hash"]  # a changed method measures the same seeds again
    done = {(r["game"], int(r["seed"])) for r in read_rows(args.csv)
            if r["row"] == "seed_done" and r["anytime_hash"] == now}
    if args.again:
        jobs = again_jobs(args, read_rows(args.csv), done)
    else:
        jobs = [(g, seed, args) for seed in range(args.first_seed, args.first_seed + args.seeds)
                for g in args.games if (g, seed) not in done]
    print(f"{len(jobs)} seeded games to measure ({len(done)} done before)", flush=True)
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    new = not args.csv.exists()
    ctx = multiprocessing.get_context("spawn")
    with args.csv.open("a", newline="") as f, ctx.Pool(args.jobs, maxtasksperchild=1) as pool:
        out = csv.DictWriter(f, FIELDS)
        if new:
            out.writeheader()
        pending = [pool.apply_async(task, (job,)) for job in jobs[:args.jobs]]
        queue = jobs[args.jobs:]
        while pending:
            ready = [p for p in pending if p.ready()]
            if not ready:
                time.sleep(0.5)
                continue
            for p in ready:
                pending.remove(p)
                rows = p.get()
                out.writerows(rows)
                f.flush()
                print(f"  {rows[-1]['game']} seed {rows[-1]['seed']}: {len(rows) - 1} rows", flush=True)
                if queue and (deadline is None or time.time() < deadline):
                    pending.append(pool.apply_async(task, (queue.pop(0),)))


def p95(xs: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    xs = sorted(xs)
    return xs[max(0, math.ceil(0.95 * len(xs)) - 1)]


def quality_table(rows: list[dict], title: str, budgets: list[str]) -> list[str]:
    """Per game and budget: positions, share best, mean and p95 loss, the 2 s targets."""
    lines = [f"\n{title}\n", "| game | budget s | positions | stage (min-median) | best move | mean loss "
             "| p95 loss | target at 2 s (mean ≤ 2 %, p95 ≤ 10 %) |", "|---|---|---|---|---|---|---|---|"]
    for g in sorted({r["game"] for r in rows}):
        for t in budgets:
            rs = [r for r in rows if r["game"] == g and r["budget"] == t]
            if not rs:
                lines.append(f"| {g} | {t} | 0 | | | | | |")
                continue
            loss = [float(r["loss"]) for r in rs]
            stage = sorted(float(r["stage"]) for r in rs)
            mean, top = statistics.fmean(loss), p95(loss)
            met = ("yes" if mean <= 0.02 and top <= 0.10 else "no") if float(t) == 2 else ""
            lines.append(f"| {g} | {t} | {len(rs)} | {stage[0]:.2f}-{statistics.median(stage):.2f} "
                         f"| {statistics.fmean(int(r['in_best']) for r in rs):.0%} | {mean:.1%} | {top:.1%} | {met} |")
    return lines


def early_table(rows: list[dict]) -> list[str]:
    """Per game: the short answer against the long one where no exact answer exists."""
    lines = ["\nEarly positions (no exact answer): the short answer judged by the long one\n",
             "| game | budgets s | positions | stage (min-median) | same best move | mean loss by the long values "
             "| long answer exact |", "|---|---|---|---|---|---|---|"]
    for g in sorted({r["game"] for r in rows}):
        rs = [r for r in rows if r["game"] == g]
        stage = sorted(float(r["stage"]) for r in rs)
        lines.append(f"| {g} | {rs[0]['budget']} | {len(rs)} | {stage[0]:.2f}-{statistics.median(stage):.2f} "
                     f"| {statistics.fmean(int(r['in_best']) for r in rs):.0%} "
                     f"| {statistics.fmean(float(r['loss']) for r in rs):.1%} "
                     f"| {sum(r['exact_kind'] != 'estimate' for r in rs)} |")
    return lines


def cpu_table(rows: list[dict], budgets: list[str]) -> list[str]:
    """CPU and wall seconds per anytime call, per budget."""
    lines = ["\nCPU per anytime call (the budget is CPU time; an exact answer may come sooner)\n",
             "| budget s | calls | CPU median | CPU max | wall median | wall max | load median | answered exactly |",
             "|---|---|---|---|---|---|---|---|"]
    for t in budgets:
        rs = [r for r in rows if r["budget"] == t]
        if rs:
            cpu, wall = [float(r["cpu"]) for r in rs], [float(r["wall"]) for r in rs]
            lines.append(f"| {t} | {len(rs)} | {statistics.median(cpu):.2f} | {max(cpu):.2f} | "
                         f"{statistics.median(wall):.2f} | {max(wall):.2f} "
                         f"| {statistics.median(float(r['load'] or 0) for r in rs):.1f} "
                         f"| {sum(r['kind'] != 'estimate' for r in rs)} |")
    return lines


def report(args) -> str:
    """The tables, from the CSV (rows of the current anytime.py unless ``--all``)."""
    rows = read_rows(args.csv)
    ver = versions()
    hashes: dict[str, int] = {}
    for r in rows:
        hashes[r["anytime_hash"]] = hashes.get(r["anytime_hash"], 0) + (r["row"] == "position")
    if not args.all:
        wanted = set((args.hash or ver["anytime_hash"]).split(","))
        rows = [r for r in rows if r["anytime_hash"] in wanted]
    rows = [r for r in rows if r["game"] in args.games]
    pos = [r for r in rows if r["row"] == "position"]
    budgets = [str(t) for t in args.budgets]
    seeds = [r for r in rows if r["row"] == "seed_done"]
    lines = [f"anytime quality: {args.csv.name}, rows of anytime.py {args.hash or ver['anytime_hash']} "
             f"(now {ver['anytime_hash']} at {ver['head']})"
             + (" (every version)" if args.all else "") + f"; position rows per anytime.py hash: {hashes}",
             f"seeded games: {len(seeds)}; positions: " + ", ".join(
                 f"{g} {len({(r['seed'], r['ply'], r['history']) for r in pos if r['game'] == g})}" for g in args.games)]
    lines += quality_table(pos, "Every position with an exact answer", budgets)
    lines += quality_table([r for r in pos if r["kind"] == "estimate"],
                           "Only where the anytime answer is an estimate (the exact solve did not fit the budget)",
                           budgets)
    errors = [r for r in rows if r["row"] == "error"]
    lines += [f"\nfailures: {len(errors)}"] + [f"  {r['game']} seed {r['seed']}: {r['pick']}" for r in errors]
    early = [r for r in rows if r["row"] == "early"]
    if early:
        lines += early_table(early)
    lines += cpu_table(pos + [dict(r, budget=r["budget"].split("v")[0]) for r in early], budgets)
    return "\n".join(lines)


def number(text: str) -> float:
    """A budget as written (``2`` stays ``2``, ``0.5`` a float)."""
    return float(text) if "." in text else int(text)


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), type=lambda v: v.split(","),
                    help="comma-separated; a variant as game:option=value;... (monster_cards:deck_size=8)")
    ap.add_argument("--seeds", type=int, default=40, help="seeded games per game (from --first-seed)")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--per-game", type=int, default=3, help="positions measured per seeded game")
    ap.add_argument("--budgets", default="0.5,2,10", type=lambda v: [number(x) for x in v.split(",")])
    ap.add_argument("--cap", type=int, default=3_000_000, help="nodes of an exact solve")
    ap.add_argument("--arrangements", type=int, default=5000, help="arrangements of an exact solve")
    ap.add_argument("--exact-seconds", type=float, default=60, help="stop walking back after a slower exact solve")
    ap.add_argument("--early-every", type=int, default=4, help="every n-th seed: an early position (0: none)")
    ap.add_argument("--short", type=number, default=2)
    ap.add_argument("--long", type=number, default=60)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=0, help="start no new seeded game after this (0: no limit)")
    ap.add_argument("--csv", type=Path, default=CSV)
    ap.add_argument("--again", help="measure again the positions that rows of these anytime.py hashes hold "
                    "(comma-separated, or any), with today's anytime.py, instead of new seeded games")
    ap.add_argument("--report", action="store_true", help="only print the tables")
    ap.add_argument("--all", action="store_true", help="count rows of every anytime.py version")
    ap.add_argument("--hash", help="count the rows of these anytime.py hashes, comma-separated "
                    "(default: the current file's; name an older one only where its diff cannot change a result)")
    return ap.parse_args(argv)


def main(argv=None) -> None:
    args = parse(argv)
    if not args.report:
        run(args)
    print(report(args))


if __name__ == "__main__":
    main()
