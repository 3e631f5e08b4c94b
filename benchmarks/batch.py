"""Jobs per second of cardlab.batch: one local process, every local core, and a
local Dask cluster (one worker process per core, bound to 127.0.0.1), for a
solving workload and a tournament workload.  Prints its own table.

    .venv/bin/python benchmarks/batch.py [--solves N] [--matches N]

Every executor must give the same table (times aside); the script checks it.
"""

from __future__ import annotations

import argparse
import os
import time

from cardlab import batch


def workloads(n_solves: int, n_matches: int):
    """(name, jobs): exact solves of mipig 2-card deals; a three-agent
    Koi-koi Nobori (short deck) tournament, both seats."""
    solves = [batch.solve_job("mipig", s, {"hand_size": 2, "open_hands": True}) for s in range(n_solves)]
    agents = ["random", "heuristic", ["mcts", {"iterations": 20}]]
    per_pair = max(1, n_matches // 6)
    matches = [batch.match_job("koinobori", s, [a, b], {"deck": "short"})
               for i, a in enumerate(agents) for j, b in enumerate(agents) if i != j
               for s in range(per_pair)]
    return [("solve mipig hand_size=2", solves), ("tournament koinobori short", matches)]


def timed(jobs, executor, repeat: int):
    """The table and the best wall time of ``repeat`` runs (the machine may be shared)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        table = batch.run(jobs, executor=executor, progress=False)
        best = min(best, time.perf_counter() - start)
        assert not table.errors, table.errors[:3]
    return table.drop("time"), best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--solves", type=int, default=300)
    ap.add_argument("--matches", type=int, default=240)
    ap.add_argument("--repeat", type=int, default=2, help="best of this many runs")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    batch.run(workloads(2, 0)[0][1], executor=1, progress=False)  # start the fork server once
    rows = []
    with batch.local_dask_client(cores) as client:
        for name, jobs in workloads(args.solves, args.matches):
            reference = None
            for label, executor in (("1 process", 1), (f"{cores} processes", cores),
                                    (f"Dask LocalCluster, {cores} workers", client)):
                table, seconds = timed(jobs, executor, args.repeat)
                if reference is None:
                    reference = table
                assert table == reference, f"{label} gave another table for {name}"
                rows.append((name, label, len(jobs), seconds, len(jobs) / seconds))
    print(f"cardlab.batch on {cores} cores, load average {os.getloadavg()[0]:.1f} (best of {args.repeat}; pool start-up included; same table on every executor)")
    print(f"{'workload':<28} {'executor':<32} {'jobs':>5} {'seconds':>8} {'jobs/s':>8}")
    for name, label, n, seconds, rate in rows:
        print(f"{name:<28} {label:<32} {n:>5} {seconds:>8.2f} {rate:>8.1f}")


if __name__ == "__main__":
    main()
