"""Who sits where and whose view is drawn: the seats of a :class:`~cardlab.widgets.Board`
(a person or an agent), its view (a player, "player to move" with a privacy
screen between two persons' turns, or "reveal all") and its lock."""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as widgets

from .. import i18n
from ..agents import AGENTS, LEVELS, NAMES, Agent, LevelAgent
from ..errors import CardlabError
from ..i18n import _
from .controls import _seat_options

_PERSON = (None, "person", "human")


class SeatsMixin:
    """The seats, the view and the privacy screen of a :class:`~cardlab.widgets.Board`
    (it keeps ``match``, ``seat``, ``locked``, ``_view``, ``_ready``, the pickers)."""

    def _make_seat(self, seat: int, who: Any) -> Agent | None:
        if who in _PERSON:
            return None
        if isinstance(who, Agent):
            if who.name not in NAMES:
                self._custom[who.name] = who  # chosen again from the dropdown later
            return who
        if who in self._custom:
            return self._custom[who]
        if who not in NAMES:
            raise ValueError(_("seat {seat}: {who} is not a player; use 'person' or an agent: {agents} "
                               "(or a cardlab.agents.Agent)").format(seat=seat, who=repr(who),
                                                                      agents=", ".join(NAMES)))
        rng = random.Random(f"{self.seed}/{seat}/{who}")
        if who in LEVELS:
            return LevelAgent(who, seed=rng, **self.agent_options.get(who, {}))
        return AGENTS[who](seed=rng, **self.agent_options.get(who, {}))

    def _refuse_if_locked(self, what: str, widget: widgets.Widget | None = None, value: Any = None) -> None:
        """Raise when the board is locked: ``what`` is not for a student
        (``widget``, when given, gets ``value`` back: nothing changed)."""
        if self.locked:
            if widget is not None:
                self._show(widget, value)
            raise CardlabError(_("this board is locked to player {player}: {what} is not allowed; allowed "
                                 "are your own moves, step ▶, run ▶▶, new game, 'agents move by themselves' "
                                 "and the fair hint").format(player=self.seat, what=what))

    @property
    def players(self) -> list[str]:
        """Who plays each seat: ``'person'`` or the agent's name."""
        return ["person" if a is None else a.name for a in self.match.players]

    def _persons(self) -> list[int]:
        """The seats played by persons at this screen."""
        return [i for i, a in enumerate(self.match.players) if a is None]

    def set_player(self, seat: int, who: Any) -> None:
        """Put a person (``'person'``) or an agent (a level or another agent
        of :data:`cardlab.agents.NAMES`, or an Agent) in ``seat``; if that agent
        is to move and agents move by themselves, it moves."""
        n = self.game.spec.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(_("seat must be 0..{last}, not {seat}").format(last=n - 1, seat=repr(seat)))
        self._refuse_if_locked(_("changing who plays a seat"), self.seat_pickers[seat], self.players[seat])
        agent = self._make_seat(seat, who)
        self.match.players[seat] = agent
        with i18n.using(self.language_code):
            self._name_in_picker(seat, "person" if agent is None else agent.name)
        self._mark = len(self.match.history)
        self._settle()
        self._refresh()

    def _name_in_picker(self, seat: int, name: str) -> None:
        """Seat ``seat``'s dropdown shows ``name`` (an agent of one's own is added to it)."""
        dd = self.seat_pickers[seat]
        names = [o if isinstance(o, str) else o[1] for o in dd.options]
        if name not in names:
            self._syncing = True
            try:
                dd.options = _seat_options(names + [name])
            finally:
                self._syncing = False
        self._show(dd, name)

    def set_perspective(self, perspective: int | str | None, refresh: bool = True) -> None:
        """Whose view the table shows: a player index, ``'mover'`` (the
        person to move; a privacy screen between two persons' turns) or
        ``'all'``/``None`` (reveal everything).  A locked board keeps its seat."""
        n = self.game.spec.num_players
        if perspective is None:
            perspective = "all"
        if perspective not in ("all", "mover") and not (
                isinstance(perspective, int) and not isinstance(perspective, bool) and 0 <= perspective < n):
            raise ValueError(_("perspective must be a player 0..{last}, 'mover' or 'all', not {perspective}").format(
                last=n - 1, perspective=repr(perspective)))
        if perspective != self.seat:
            self._refuse_if_locked(_("another view than player {player}'s").format(player=self.seat),
                                   self.view_picker, self.seat)
        if perspective == "mover" and getattr(self, "_view", None) != "mover":
            self._ready = None  # anybody may have looked meanwhile: the screen comes up again
        self._view = perspective
        self._show(self.view_picker, perspective)
        if refresh:
            self._refresh()

    def _shown_seat(self) -> int:
        """The seat the view "player to move" shows: the person to move; when
        no person is, the person the screen was last lifted for (or the last
        person who moved); with no person at all, the player to move."""
        s, persons = self.match.state, self._persons()
        p = s.current_player
        if p >= 0 and (p in persons or not persons):
            return p
        if self._ready in persons:
            return self._ready  # type: ignore[return-value]
        moved = [m.player for m in self.match.history if m.player >= 0 and (m.player in persons or not persons)]
        return moved[-1] if moved else persons[0] if persons else 0

    @property
    def perspective(self) -> int | None:
        """The player whose view is drawn now (``None``: everything shown)."""
        if self._view == "all":
            return None
        if self._view == "mover":
            return self._shown_seat()
        return self._view  # type: ignore[return-value]

    @property
    def waiting_for(self) -> int | None:
        """The seat the privacy screen waits for (``None``: no screen).  It
        is up when two or more persons share this screen with the view
        "player to move" and the seat to show is not the one the screen was
        last lifted for (:meth:`ready`)."""
        if self.locked or self._view != "mover" or len(self._persons()) < 2:
            return None
        shown = self._shown_seat()
        return None if shown == self._ready else shown

    def ready(self) -> None:
        """The privacy screen's button: the person it waits for sits at the
        screen; their view is drawn."""
        waiting = self.waiting_for
        if waiting is None:
            raise CardlabError(_("no privacy screen is up: it shows between the turns of two persons at one "
                                 "screen, with the view 'player to move'"))
        self._ready = waiting
        self._refresh()
