"""Class rooms (issue R): how long a move takes to reach the other pupil's
page, with 2, 10 and 20 rooms open, and how much memory a page holds.
Prints its own table.

    .venv/bin/python benchmarks/rooms.py [--moves N]

Each room has two pages (two RoomBoards, each with its own connection to
the store, as two Voila kernels have).  A move is timed from the mover's
click (the store's write) to the other page's board redrawn after its
next read of the store (``sync``).  A page reads the store every
``poll`` seconds (0.5 in the app), so a pupil waits the measured time plus
up to one poll interval, on average half of it: the last columns add it.
Every page here shares one process; in Voila each page is a kernel of its
own, so the memory column is per page *on top of* a kernel (a Voila
kernel with cardlab loaded: see the README).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from cardlab.rooms import RoomStore
from cardlab.widgets.room import RoomBoard

POLL = 0.5


def run(rooms: int, moves: int, folder: Path, game: str = "koinobori") -> dict:
    db = folder / f"rooms-{rooms}.db"
    store = RoomStore(db)
    def opened(seed: int):
        room = store.create(game, ["person", "person"], seed=seed)
        return room.id, [RoomBoard(RoomStore(db), room.id, seat, poll=None) for seat in (0, 1)]

    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    pairs = [opened(i) for i in range(rooms)]
    per_page = (tracemalloc.get_traced_memory()[0] - before) / (2 * rooms)
    tracemalloc.stop()
    rng = random.Random(1)
    times = []
    while len(times) < moves:
        i = rng.randrange(rooms)
        room_id, pages = pairs[i]
        s = store.state(room_id)
        if s.is_terminal():  # a finished game: the pupils start another in a new room
            pairs[i] = opened(len(store.ids()))
            continue
        mover, other = pages[s.current_player], pages[1 - s.current_player]
        action = rng.choice(s.legal_actions())
        start = time.perf_counter()
        mover.play(action)
        other.sync()
        times.append(time.perf_counter() - start)
        for _, ps in pairs:  # every other page reads the store too, as their polls do
            for p in ps:
                if p is not other and p is not mover:
                    p.store.seq(p.room_id)
    q = statistics.quantiles(times, n=20)
    return {"rooms": rooms, "moves": len(times), "p50": statistics.median(times), "p95": q[18],
            "page_kb": per_page / 1024}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [run(n, args.moves, Path(tmp)) for n in (2, 10, 20)]
    print(f"{'rooms':>5} {'moves':>6} {'p50 ms':>8} {'p95 ms':>8} {'+poll p50':>10} {'+poll p95':>10} {'KB/page':>8}")
    for r in rows:
        print(f"{r['rooms']:>5} {r['moves']:>6} {1000 * r['p50']:>8.1f} {1000 * r['p95']:>8.1f} "
              f"{1000 * (r['p50'] + POLL / 2):>10.0f} {1000 * (r['p95'] + POLL * 0.95):>10.0f} {r['page_kb']:>8.0f}")


if __name__ == "__main__":
    main()
