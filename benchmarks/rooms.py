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

Last, a pupil against an agent (mcts, 300 iterations): how long the
pupil's click holds the page (its handler stores the move and returns;
the agent thinks in a thread of its own) and how long until the agent's
reply is on the page.
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


def agent_run(moves: int, folder: Path, agent: str = "mcts", game: str = "koinobori") -> dict:
    """A pupil against an agent: how long the pupil's click holds the page
    (the handler: store the move, draw chance) and how long until the
    agent's reply is on the page (it thinks in a thread of its own)."""
    db = folder / f"agent-{agent}.db"
    store = RoomStore(db)
    handler, reply = [], []
    seed = 0
    while len(handler) < moves:
        room = store.create(game, ["person", agent], seed=seed)
        seed += 1
        page = RoomBoard(RoomStore(db), room.id, 0, poll=None)
        page.wait_for_agents()
        rng = random.Random(seed)
        while not page.state.is_terminal() and len(handler) < moves:
            start = time.perf_counter()
            page.play(rng.choice(page.state.legal_actions()))
            handler.append(time.perf_counter() - start)
            page.wait_for_agents()
            reply.append(time.perf_counter() - start)
    return {"agent": agent, "moves": len(handler), "handler_p50": statistics.median(handler),
            "handler_p95": statistics.quantiles(handler, n=20)[18], "reply_p50": statistics.median(reply),
            "reply_p95": statistics.quantiles(reply, n=20)[18]}


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
        a = agent_run(min(args.moves, 60), Path(tmp))
    print(f"\na pupil against {a['agent']} ({a['moves']} moves): the click holds the page "
          f"{1000 * a['handler_p50']:.1f} ms (p50), {1000 * a['handler_p95']:.1f} ms (p95); the agent's reply "
          f"is on the page after {1000 * a['reply_p50']:.0f} ms (p50), {1000 * a['reply_p95']:.0f} ms (p95)")


if __name__ == "__main__":
    main()
