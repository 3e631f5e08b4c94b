"""The time of one sweep point of ``cardlab design`` per game: ``--games``
self-play games (400 by default, as ``cardlab design --games 400``) of the
level ``beginner``, as many skill games (``club`` against ``beginner``,
seats alternated) and the evaluation at every decision (300 positions), on
one process, on every local core, and on a local Dask cluster (one worker
process per core; only when dask.distributed is installed: the ``dask`` and
``notebook`` extras have it, cardlab itself does not need it).

    .venv/bin/python benchmarks/design_sweep.py                         # 400 games, every mode, every game
    .venv/bin/python benchmarks/design_sweep.py --games 40 --modes serial
    .venv/bin/python benchmarks/design_sweep.py --game toritsuki --games 4
    .venv/bin/python benchmarks/design_sweep.py --exact       # only the exact figures of EXACT

``--exact`` computes instead the exact figures of :data:`EXACT` (the
open-hands value over every deal, :func:`cardlab.design.deal_values`: too
slow for a notebook) and appends them to the same file.

It prints a markdown table (wall seconds, CPU seconds of this process: the
workers of a process pool or a Dask cluster are not counted, games a second, and the wall time a 400-game point would take
at that rate when fewer games were run) and appends it to
``benchmarks/results/design_sweep.md``.  The games are the same in every
mode (a game is decided by its seed): the script checks that the metrics
agree.  The levels stop at a clock cap a move (wall time), so on a loaded
machine they search less; the node budgets make a quiet machine's run
repeatable.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import cardlab
from cardlab import design

RESULTS = Path(__file__).resolve().parent / "results" / "design_sweep.md"


#: (game, options, what it shows): exact figures quoted by notebooks/rule_design.ipynb
EXACT = [
    ("koinobori", {"deck": "short", "refill_after_draw_capture": True}, "the short deck, refill (the default)"),
    ("koinobori", {"deck": "short", "refill_after_draw_capture": False}, "the short deck, no refill"),
]


def exact_table() -> list[str]:
    lines = ["| game | options | deals | seat 0's exact value (first player) | ≈ | seconds |",
             "| --- | --- | --- | --- | --- | --- |"]
    for game, options, _what in EXACT:
        d = design.deal_values(game, options)
        lines.append(f"| {game} | {options} | {d.deals:,} | {d.mean} | {float(d.mean):+.4f} | {d.seconds:.0f} |")
        print(lines[-1], flush=True)
    return lines


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def executor_for(mode: str):
    """(executor, closer) for a mode; ``None`` when the mode cannot run here."""
    if mode == "serial":
        return "serial", None
    if mode == "cores":
        return os.cpu_count() or 1, None
    try:
        import distributed  # noqa: F401
    except ImportError:
        return None, None
    client = cardlab.batch.local_dask_client()
    return client, client.close


def time_point(game: str, games: int, mode: str, agent: str, evaluate: int):
    ex, close = executor_for(mode)
    if ex is None:
        return None
    start, c0 = time.perf_counter(), cpu()
    try:
        point = design.measure(game, games=games, agent=agent, evaluate=evaluate, executor=ex, progress=False)
    finally:
        if close is not None:
            close()
    return point, time.perf_counter() - start, cpu() - c0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=cardlab.games(), help="a game (default: every game)")
    ap.add_argument("--games", type=int, default=400, help="self-play games of the point (default 400)")
    ap.add_argument("--modes", nargs="+", default=["serial", "cores", "dask"], choices=["serial", "cores", "dask"])
    ap.add_argument("--agent", default="beginner")
    ap.add_argument("--evaluate", type=int, default=design.EVAL_NODES)
    ap.add_argument("--exact", action="store_true", help="only the exact figures of EXACT")
    args = ap.parse_args(argv)
    if args.exact:
        lines = [f"\n## {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: exact, open hands, every deal\n"]
        lines += exact_table()
        with open(RESULTS, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        return
    lines = [f"\n## {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {args.games} games a point, "
             f"agent {args.agent}, evaluation {args.evaluate} positions, {os.cpu_count()} cores, "
             f"load average {os.getloadavg()[0]:.1f}\n",
             "| game | mode | games (+ skill games) | wall s | CPU s (this process) | games/s | a 400-game point, wall s |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    RESULTS.parent.mkdir(exist_ok=True)
    out = open(RESULTS, "a", encoding="utf-8")  # a line at a time: a stopped run keeps its rows
    print("\n".join(lines))
    out.write("\n".join(lines) + "\n")
    for game in args.game or cardlab.games():
        seen = None
        for mode in args.modes:
            got = time_point(game, args.games, mode, args.agent, args.evaluate)
            if got is None:
                line = f"| {game} | {mode} | — | not run: dask.distributed is not installed | | | |"
            else:
                point, wall, used = got
                n = 2 * args.games
                line = (f"| {game} | {mode} | {args.games} (+{args.games}) | {wall:.1f} | {used:.1f} | "
                        f"{n / wall:.2f} | {wall * 400 / args.games:.0f} |")
                table = [(k, round(m.value, 6) if m.value is not None else None)
                         for k, m in point.metrics.items() if k not in ("skill", "skill_elo")]
                if seen is not None and table != seen:
                    line += " metrics differ from the first mode's (the levels' clock cap was reached)"
                seen = table
            print(line, flush=True)
            out.write(line + "\n")
            out.flush()
    out.close()


if __name__ == "__main__":
    main()
