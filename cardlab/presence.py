"""Whose page is open (issue W, the teacher's wall): each pupil's room page
writes when it last looked at the store, at most every :data:`SEEN_EVERY`
seconds (its poll looks every half second); the wall reads a seat as
connected while that is less than :data:`AWAY_AFTER` seconds ago.  A page
closed, reloaded elsewhere or asleep stops writing, and the seat reads as
away after that long.

>>> import tempfile, os
>>> from cardlab.rooms import RoomStore
>>> store = RoomStore(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> mark_seen(store, "R1", 0, now=100.0)
>>> connected(store, "R1", now=110.0), connected(store, "R1", now=130.0)
({0: True}, {0: False})
"""

from __future__ import annotations

import time

from .rooms import RoomStore

__all__ = ["SEEN_EVERY", "AWAY_AFTER", "mark_seen", "connected"]

#: a page writes that it is there at most this often (seconds)
SEEN_EVERY = 5.0
#: a seat not seen for this long reads as away (three missed writes)
AWAY_AFTER = 15.0

_SCHEMA = ("CREATE TABLE IF NOT EXISTS pages (room TEXT NOT NULL, seat INTEGER NOT NULL, seen REAL NOT NULL, "
           "PRIMARY KEY (room, seat))")


def mark_seen(store: RoomStore, room: str, seat: int, now: float | None = None) -> None:
    """Seat ``seat`` of ``room`` has its page open now."""
    with store.transaction():
        store.execute(_SCHEMA)
        store.execute("INSERT INTO pages (room, seat, seen) VALUES (?, ?, ?) "
                      "ON CONFLICT (room, seat) DO UPDATE SET seen = excluded.seen",
                      (room, seat, time.time() if now is None else now))


def connected(store: RoomStore, room: str, now: float | None = None) -> dict[int, bool]:
    """Each seat of ``room`` whose page was ever seen: whether it is connected now."""
    now = time.time() if now is None else now
    with store.transaction():
        store.execute(_SCHEMA)
    rows = store.execute("SELECT seat, seen FROM pages WHERE room = ?", (room,)).fetchall()
    return {seat: now - seen < AWAY_AFTER for seat, seen in rows}
