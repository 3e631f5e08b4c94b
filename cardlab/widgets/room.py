"""A pupil's board in a class room (issue R): the room lives in a
:class:`cardlab.rooms.RoomStore` on the teacher's machine; each pupil's page
(its own Voila kernel) shows a locked :class:`~cardlab.widgets.Board` for
their seat.  Their moves are stored, numbered; the other seats' moves
(classmates on other laptops, agents, chance) come from the store, which
the page reads every half second without blocking its widgets.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from ..core import State
from ..errors import CardlabError
from ..rooms import RoomStore, StaleMoveError
from .board import Board

__all__ = ["RoomBoard"]


class RoomBoard(Board):
    """Seat ``seat`` of room ``room_id`` in ``store``: a locked board (the
    seat's own view, its moves, the fair hint); :meth:`sync` brings the
    moves stored by other pages; :meth:`play` stores the pupil's move (or
    says that the room moved on, and shows where it is)."""

    def __init__(self, store: RoomStore, room_id: str, seat: int, *, poll: float | None = 0.5,
                 **board_kw: Any) -> None:
        self._poller: asyncio.Task | None = None
        room = store.room(room_id)
        game = room.load()
        n = game.spec.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise CardlabError(f"room {room_id} has seats 0..{n - 1}, not {seat!r}")
        if room.seats[seat] != "person":
            raise CardlabError(f"seat {seat} of room {room_id} is played by an agent ({room.seats[seat]})")
        self.store, self.room_id, self.room = store, room_id, room
        # the other seats move elsewhere: a placeholder agent keeps the board's
        # lock rule (one person here); it never moves, the store does
        players = ["random" if i != seat else "person" for i in range(n)]
        self._syncing_room = threading.Lock()
        self._room_message = ""
        super().__init__(game, players, seat=seat, locked=True, seed=room.seed, autoplay=False, **board_kw)
        for w in (self.step_button, self.run_button, self.auto_box):
            w.layout.display = "none"
        self.sync()
        if poll:
            try:
                loop = asyncio.get_running_loop()  # a kernel's loop (Voila, JupyterLab)
            except RuntimeError:
                loop = None  # plain Python: call sync() yourself
            if loop is not None:
                self._poller = loop.create_task(self._poll(poll))

    # -- the room ---------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return list(self.room.seats)

    def _settle(self) -> None:
        """Chance and the other seats happen in the store, not on this page."""

    def sync(self) -> bool:
        """Bring this page up to the room's stored moves (chance and agents
        due now are played in the store first); True when something changed."""
        with self._syncing_room:
            self.store.advance(self.room_id)
            stored = [a for _, a in self.store.moves(self.room_id)]
            mine = [m.action for m in self.match.history]
            if stored[:len(mine)] != mine:  # the room's file was replaced: start from its moves
                self._new_match(self._start)
                mine = []
            new = stored[len(mine):]
            if not new:
                return False
            self._mark = len(self.match.history)
            for action in new:
                self.match.play(action)
            self._refresh()
            return True

    async def _poll(self, every: float) -> None:
        while not self.state.is_terminal():
            await asyncio.sleep(every)
            try:
                await asyncio.get_running_loop().run_in_executor(None, self._fetch)
            except Exception as exc:  # noqa: BLE001 - shown on the page, the poll goes on
                self._room_message = f"the room cannot be read now ({exc}); retrying"
                self._refresh()

    def _fetch(self) -> None:
        if self.store.seq(self.room_id) != len(self.match.history) or self._room_message:
            self._room_message = ""
            self.sync()

    def play(self, action: str) -> None:
        """Store the pupil's move as the room's next; if a page moved first
        (a stale page), show the room as it is now and say so."""
        why = self._no_moves_why()
        if why is not None:
            raise CardlabError(f"no move can be played here now: {why}")
        self.state.apply(action)  # a bad action is refused here, nothing stored
        try:
            self.store.play(self.room_id, len(self.match.history), action)
            self._room_message = ""
        except StaleMoveError:
            self._room_message = "the room had moved on: this is the game as it is now"
        self.sync()
        self._refresh()

    def _status_text(self) -> str:
        s = self.state
        p = s.current_player
        text = super()._status_text()
        if not s.is_terminal() and p >= 0 and p != self.seat:
            who = self.room.seats[p]
            text = (f"Player {p} ({'a classmate' if who == 'person' else who}) to move: "
                    "their move appears here by itself.")
        return text + (f" ({self._room_message})" if self._room_message else "")

    def close(self) -> None:
        if getattr(self, "_poller", None) is not None:
            self._poller.cancel()
        super().close()

    def __repr__(self) -> str:
        return f"RoomBoard(room={self.room_id!r}, seat={self.seat}, moves={len(self.match.history)})"

    @property
    def room_state(self) -> State:
        """The room's position in the store (this page may be behind it)."""
        return self.store.state(self.room_id)
