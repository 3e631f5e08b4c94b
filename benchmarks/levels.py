"""The levels' round robin: per game, the levels (beginner, club, strong,
expert: ``cardlab.agents.LEVELS``) and today's agents (random, heuristic,
mcts; the solver agent with ``--solver``, in the games where it finishes)
play each other, seats alternated; a markdown table of each pairing's score
with its 95 % interval, an Elo rating per player (random = 0, fitted to the
whole round robin: ``cardlab.ratings``), the CPU a move, and a check line
per game: does each level beat the one below it?

    python benchmarks/levels.py                     # all pairings, 100 games each, 2 workers
    python benchmarks/levels.py --pairings adjacent --games-per-pairing 20
    python benchmarks/levels.py --report            # the table of what the CSV holds so far

Every finished game is appended to a CSV (``--csv``): run it again and it
goes on where it stopped (Ctrl-C is safe); ``--report`` only reads it.
Games ``2k`` and ``2k + 1`` of a pairing are the same deal with the seats
swapped.  A score is the points of the first player of the pairing (a win
1, a draw ½) over its games; its interval is Wilson's on those points.  "A
beats B" means the lower end of A's interval is above ½.

The levels stop at a node budget or a cap of CPU time per move (the
thread's: a busy machine does not weaken them), whichever comes first; the
cap rarely binds, so a run is nearly repeatable.

Each row keeps ``method``: a hash of the files the levels decide with
(:data:`METHOD_FILES`) as they were when the games began. A pairing with a
level counts only the games of today's method (``--all``: every game);
the other agents' pairings do not depend on it and count every game.
"""

from __future__ import annotations

import argparse
import csv
import functools
import hashlib
import multiprocessing
import os
import queue
import random
import sys
import time
import traceback
from pathlib import Path

import cardlab
from cardlab.agents import LEVELS, Agent, make
from cardlab.batch import wilson
from cardlab.errors import CardlabError
from cardlab.match import Match
from cardlab.ratings import elo

HERE = Path(__file__).resolve().parent
CSV = HERE / "results" / "levels.csv"
FIELDS = ["game", "a", "b", "index", "seed", "seat_a", "score_a", "returns", "moves",
          "a_cpu", "a_moves", "a_max", "b_cpu", "b_moves", "b_max", "seconds", "method"]
AGENTS = ["random", "heuristic", "mcts"]
#: where the solver agent does not finish a game in reasonable time (issue 31: Toritsuki)
NO_SOLVER = {"toritsuki"}
#: the method of the games played before the column existed (sessions 12-13)
OLD_METHOD = "before-4bdc149d20a7"
#: the code a level's choice depends on (the games' rules aside)
METHOD_FILES = ("agents.py", "analysis.py", "anytime.py", "hidden.py", "search.py")


@functools.lru_cache(maxsize=None)
def method() -> str:
    """The hash of the levels' code (the anytime analysis and the agents),
    read once per process when the run begins."""
    root = Path(cardlab.__file__).resolve().parent
    digest = hashlib.sha256()
    for name in METHOD_FILES:
        digest.update((root / name).read_bytes())
    return digest.hexdigest()[:12]


#: earlier methods whose levels play as today's in some games, each with why: the code between
#: them changed only where those games never go (``tests/test_levels.py`` checks the reason)
SAME_PLAY = {
    # a1d4388 changed only LevelAgent's branch at a simultaneous choice and cardlab/matrix.py (which
    # only simultaneous choices reach); only mipig has simultaneous choices (its janken, MP-4, MP-25)
    ("d5b312f1bf27", "533284de9d33"): ("koinobori", "mazemon", "monster_cards", "toritsuki"),
}


def _plays_as_now(row: dict, now: str) -> bool:
    return row["game"] in SAME_PLAY.get((now, row.get("method") or OLD_METHOD), ())


def counted(rows, every: bool = False) -> list[dict]:
    """The rows a table counts: every game of a pairing without a level, and
    only today's method's games of a pairing with one (``every``: all); a
    game of an earlier method that plays as today's (:data:`SAME_PLAY`)
    fills an index of its pairing today's method has not played (one game
    an index: games ``2k`` and ``2k + 1`` of two methods are the same deals)."""
    now = method()
    if every:
        return list(rows)
    keep = [r for r in rows if (r.get("method") or OLD_METHOD) == now or not ({r["a"], r["b"]} & set(LEVELS))]
    have = {(r["game"], r["a"], r["b"], r["index"]) for r in keep}
    for r in rows:
        key = (r["game"], r["a"], r["b"], r["index"])
        if key not in have and {r["a"], r["b"]} & set(LEVELS) and _plays_as_now(r, now):
            keep.append(r)
            have.add(key)
    return keep


def players(game: str, solver: bool) -> list[str]:
    return AGENTS + (["solver"] if solver and game not in NO_SOLVER else []) + list(LEVELS)


def pairings(game: str, which: str, solver: bool) -> list[tuple[str, str]]:
    """``all``: every pair of players; ``adjacent``: what the check line and
    a chain of ratings need first: each level against the one below it,
    the weakest level against heuristic, heuristic against random and mcts against heuristic."""
    levels = list(LEVELS)
    if which == "adjacent":
        out = [(hi, lo) for lo, hi in zip(levels, levels[1:])]
        return out + [(levels[0], "heuristic"), ("heuristic", "random"), ("mcts", "heuristic")]
    every = players(game, solver)  # the later (stronger) player first
    return [(b, a) for i, a in enumerate(every) for b in every[i + 1:]]


class _Timed(Agent):
    """An agent whose CPU time a move is counted."""

    def __init__(self, agent):
        super().__init__(0)
        self.agent, self.cpu, self.moves, self.max = agent, 0.0, 0, 0.0

    def choose(self, state):
        t = time.process_time()
        action = self.agent.choose(state)
        dt = time.process_time() - t
        self.cpu, self.moves, self.max = self.cpu + dt, self.moves + 1, max(self.max, dt)
        return action


def play(job: tuple[str, str, str, int, str]) -> dict:
    """One game of a pairing: ``a`` in seat ``index % 2``, the deal from
    ``index // 2``; the row the CSV keeps."""
    game_name, a, b, index, how = job
    seed = random.Random(f"{game_name} {a} {b} {index // 2}").randrange(2**31)
    game = cardlab.load(game_name)
    rng = random.Random(seed)
    seat_a = index % 2
    ta, tb = _Timed(make(a, seed=rng.randrange(2**32))), _Timed(make(b, seed=rng.randrange(2**32)))
    seats = [ta, tb] if seat_a == 0 else [tb, ta]
    start = time.perf_counter()
    m = Match(game, seats, seed=seed)
    final = m.play_to_end()
    r = [float(x) for x in final.returns()]
    mine, theirs = r[seat_a], r[1 - seat_a]
    return dict(game=game_name, a=a, b=b, index=index, seed=seed, seat_a=seat_a,
                score_a=1.0 if mine > theirs else 0.5 if mine == theirs else 0.0,
                returns=" ".join(f"{x:g}" for x in r), moves=len(m.history),
                a_cpu=round(ta.cpu, 3), a_moves=ta.moves, a_max=round(ta.max, 3),
                b_cpu=round(tb.cpu, 3), b_moves=tb.moves, b_max=round(tb.max, 3),
                seconds=round(time.perf_counter() - start, 2), method=how)


def read(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def jobs_to_run(games, which, n, solver, done):
    """The games not in the CSV yet, round by round (every pairing gets its
    games 0 and 1, then 2 and 3, ...), so a run stopped early is balanced."""
    todo = []
    for pair_round in range(0, n, 2):
        for g in games:
            for a, b in pairings(g, which, solver):
                for index in (pair_round, pair_round + 1):
                    if index < n and (g, a, b, str(index)) not in done:
                        todo.append((g, a, b, index, method()))
    return todo


def results(jobs, workers: int, stop: float | None):
    """The rows of the games, played by ``workers`` processes, each row as
    soon as its game ends (a long game holds up no other); no game is
    started after ``stop`` (``time.perf_counter``)."""
    def late() -> bool:
        return stop is not None and time.perf_counter() >= stop

    if workers <= 1:
        for job in jobs:
            if late():
                return
            yield play(job)
        return
    finished: queue.Queue = queue.Queue()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        todo, running = iter(jobs), 0
        while True:
            while running <= workers and not late() and (job := next(todo, None)) is not None:
                pool.apply_async(play, (job,), callback=finished.put, error_callback=finished.put)
                running += 1
            if not running:
                return
            row = finished.get()
            running -= 1
            if isinstance(row, BaseException):  # one game failed: said, and played again on the next run
                print(f"\na game failed: {type(row).__name__}: {row}", file=sys.stderr, flush=True)
                traceback.print_exception(row, file=sys.stderr)
                continue
            yield row


def upgrade(path: Path) -> None:
    """A CSV written before the ``method`` column: rewritten with it (its
    games marked :data:`OLD_METHOD`)."""
    if not path.exists():
        return
    with path.open(newline="") as f:
        header = next(csv.reader(f), [])
    if "method" in header:
        return
    rows = read(path)
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(dict(r, method=OLD_METHOD) for r in rows)


def run(path: Path, jobs, workers: int, stop: float | None = None) -> None:
    upgrade(path)
    new = not path.exists()
    with path.open("a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        for i, row in enumerate(results(jobs, workers, stop), 1):
            w.writerow(row)
            f.flush()
            print(f"\r{i}/{len(jobs)} {row['game']} {row['a']}-{row['b']} #{row['index']} "
                  f"{row['seconds']:.0f}s   ", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def tally(rows):
    """Per game and pairing (as ordered in the CSV): games, points of ``a``;
    per game and player: CPU seconds and moves, the longest move."""
    pairs, cpu = {}, {}
    for r in rows:
        key = (r["game"], r["a"], r["b"])
        n, s = pairs.get(key, (0, 0.0))
        pairs[key] = (n + 1, s + float(r["score_a"]))
        for side in "ab":
            c = cpu.setdefault((r["game"], r[side]), [0.0, 0, 0.0])
            c[0] += float(r[f"{side}_cpu"])
            c[1] += int(r[f"{side}_moves"])
            c[2] = max(c[2], float(r[f"{side}_max"]))
    return pairs, cpu


def score_text(points: float, n: int) -> str:
    lo, hi = wilson(points, n)
    return f"{points / n:.2f} [{lo:.2f}, {hi:.2f}]"


def check_line(game, pairs) -> str:
    """Does each level beat the one below it (lower end of its interval above ½)?"""
    levels = list(LEVELS)
    notes = []
    for lo, hi in zip(levels, levels[1:]):
        n, s = pairs.get((game, hi, lo), (0, 0.0))
        if (game, lo, hi) in pairs:
            m, t = pairs[(game, lo, hi)]
            n, s = n + m, s + m - t
        if not n:
            notes.append(f"{hi} vs {lo}: not played")
        elif wilson(s, n)[0] <= 0.5:
            why = "ahead, but ½ is inside the interval" if s / n > 0.5 else "not ahead"
            few = f" (only {n} games)" if n < 100 else ""
            notes.append(f"{hi} vs {lo}: {score_text(s, n)}, {why}{few}")
    return "yes" if not notes else "no (" + "; ".join(notes) + ")"


def ratings_text(game, pairs) -> dict[str, str]:
    results = {(a, b): (s, n) for (g, a, b), (n, s) in pairs.items() if g == game}
    names = {p for pair in results for p in pair}
    anchor = "random" if "random" in names else ("heuristic" if "heuristic" in names else min(names))
    try:
        fitted = elo(results, anchor=anchor, prior=1)
    except CardlabError as exc:
        return {p: f"({exc})" for p in names}
    return {p: f"{r} ({anchor} = 0)" if p == anchor else str(r) for p, r in fitted.items()}


def report(rows) -> str:
    pairs, cpu = tally(rows)
    out = []
    for game in sorted({g for g, _a, _b in pairs}):
        out += [f"### {game}", "", "| pairing | games | score of the first [95 %] | beats? |", "|---|---|---|---|"]
        for (g, a, b), (n, s) in sorted(pairs.items()):
            if g == game:
                lo, hi = wilson(s, n)
                verdict = a if lo > 0.5 else b if hi < 0.5 else "—"
                out.append(f"| {a} vs {b} | {n} | {score_text(s, n)} | {verdict} |")
        rated = ratings_text(game, pairs)
        out += ["", "| player | Elo [95 %] | CPU a move: mean / max (s) |", "|---|---|---|"]
        order = [p for p in AGENTS + ["solver"] + list(LEVELS) if (game, p) in cpu]
        for p in order:
            c = cpu[(game, p)]
            out.append(f"| {p} | {rated.get(p, '')} | {c[0] / max(1, c[1]):.3f} / {c[2]:.2f} |")
        out += ["", f"each level beats the one below it: {check_line(game, pairs)}", ""]
    out.append(f"({len(rows)} games in all)")
    hours = full_run_hours(rows, pairs, cpu)
    if hours:
        out.append(f"the full round robin (every pairing, 100 games each, these games) would take about "
                   f"{hours:.0f} CPU hours, {hours / 2:.0f} h on 2 idle cores (estimated from the CPU a game "
                   f"of each player so far)")
    return "\n".join(out)


def full_run_hours(rows, pairs, cpu, n: int = 100) -> float:
    """The CPU hours of every pairing of ``all`` (without the solver) at ``n``
    games: a game costs the CPU its two players spent in a game so far."""
    games: dict[tuple[str, str], int] = {}
    for (g, a, b), (count, _s) in pairs.items():
        games[(g, a)] = games.get((g, a), 0) + count
        games[(g, b)] = games.get((g, b), 0) + count
    per_game = {key: cpu[key][0] / games[key] for key in games}
    total = 0.0
    for g in {g for g, _a, _b in pairs}:
        for a, b in pairings(g, "all", False):
            if (g, a) not in per_game or (g, b) not in per_game:
                return 0.0
            total += n * (per_game[(g, a)] + per_game[(g, b)])
    return total / 3600


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(cardlab.games.names()), help="comma-separated (default: all)")
    ap.add_argument("--games-per-pairing", "-n", type=int, default=100)
    ap.add_argument("--pairings", choices=["all", "adjacent"], default="all")
    ap.add_argument("--solver", action="store_true", help="add the solver agent (not in Toritsuki)")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--csv", type=Path, default=CSV, help="where finished games are kept (default %(default)s)")
    ap.add_argument("--minutes", type=float, help="stop starting new games after this long")
    ap.add_argument("--report", action="store_true", help="only print the table of the CSV")
    ap.add_argument("--all", action="store_true", help="count the games of every method, not only today's")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    if not args.report:
        done = {(r["game"], r["a"], r["b"], r["index"]) for r in counted(read(args.csv))}
        todo = jobs_to_run(games, args.pairings, args.games_per_pairing, args.solver, done)
        stop = None if args.minutes is None else time.perf_counter() + 60 * args.minutes
        run(args.csv, todo, args.workers, stop)
    print(f"method {method()}" + (" and every earlier one" if args.all else ""))
    print(report([r for r in counted(read(args.csv), args.all) if r["game"] in games]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
