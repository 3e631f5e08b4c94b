"""A match: a game played from its start by people and agents, with history,
undo and redo.  States stay immutable; the match keeps the list of them."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from . import agents as _agents
from .core import CHANCE, Game, State, make_rng, sample_chance
from .errors import CardlabError
from .i18n import _

__all__ = ["Match", "Move"]


@dataclass(frozen=True)
class Move:
    """One transition of a match: who acted (a seat or -1 for chance), the
    action's notation and the one-line explanation with its rule id."""

    player: int
    action: str
    explanation: str

    def __str__(self) -> str:
        if self.player == CHANCE:
            return _("chance: {action}").format(action=self.action)
        return _("P{player}: {action}").format(player=self.player, action=self.action)


class Match:
    """Play a game: ``players`` gives each seat ``None`` (a person) or an agent
    (an :class:`~cardlab.agents.Agent` or its name); ``seed`` decides every
    chance event and every agent's choices (chance draws as
    ``game.new_initial_state(seed)`` does: the same seed deals the same cards).

    >>> import cardlab
    >>> m = cardlab.Match(cardlab.load("koinobori"), ["random", "heuristic"], seed=4)
    >>> final = m.play_to_end()
    >>> final.is_terminal(), len(m.history) > 6
    (True, True)
    """

    def __init__(self, game: Game, players: Sequence[str | _agents.Agent | None] | None = None,
                 seed: int | random.Random | None = None, state: State | None = None) -> None:
        n = game.spec.num_players
        players = list(players) if players is not None else [None] * n
        if len(players) != n:
            raise CardlabError(_("{game} has {seats} seats; got {players} players").format(
                game=game.name, seats=n, players=len(players)))
        self.game = game
        self.rng = make_rng(seed)  # chance: the same draws as game.new_initial_state(seed)
        agents_rng = random.Random(f"agents {seed}" if isinstance(seed, int) else self.rng.getrandbits(64))
        self.players = [None if p in (None, "human", "person") else
                        _agents.make(p, seed=agents_rng.randrange(2**32)) for p in players]
        if game.spec.simultaneous and any(p is not None for p in self.players):
            from .matrix import warm

            warm()  # an agent's first janken would pay sympy's start inside its move's clock
        self._states: list[State] = [state if state is not None else game.new_initial_state()]
        self.history: list[Move] = []
        self._redo: list[Move] = []

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def states(self) -> tuple[State, ...]:
        """Every state of the match so far, the start first (``states[i + 1]``
        follows ``history[i]``)."""
        return tuple(self._states)

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def to_move_is_person(self) -> bool:
        p = self.state.current_player
        return p >= 0 and self.players[p] is None

    def play(self, action: str) -> State:
        """Apply an action (a person's move, or a chosen chance outcome)."""
        s = self.state
        new = s.apply(action)  # raises on bad input; nothing changes then
        self._record(s, " ".join(action.split()), new)
        self._redo.clear()
        return new

    def _record(self, s: State, action: str, new: State) -> None:
        self.history.append(Move(s.current_player, action, s.explain(action)))
        self._states.append(new)

    def step(self) -> Move | None:
        """One chance event or one agent move; ``None`` when a person is to move
        or the game is over."""
        s = self.state
        if s.is_terminal():
            return None
        if s.current_player == CHANCE:
            action = sample_chance(s, self.rng)
        else:
            agent = self.players[s.current_player]
            if agent is None:
                return None
            action = agent.choose(s)
        self.play(action)
        return self.history[-1]

    def advance(self) -> list[Move]:
        """Run chance and agents until a person must move or the game ends."""
        moves = []
        while (m := self.step()) is not None:
            moves.append(m)
        return moves

    def play_to_end(self, max_steps: int = 100_000) -> State:
        """Play to the end; every seat must be an agent."""
        for _step in range(max_steps):
            if self.state.is_terminal():
                return self.state
            if self.step() is None:
                raise CardlabError(_("player {player} is a person; play their move with match.play(action)").format(
                    player=self.state.current_player))
        raise CardlabError(_("the game did not end within {steps} steps").format(steps=max_steps))

    def can_undo(self) -> bool:
        return bool(self.history)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self, to_person: bool = False) -> None:
        """Take back the last transition; with ``to_person=True`` go back to
        the last decision a person made (skipping chance and agents)."""
        if not self.history:
            raise CardlabError(_("nothing to undo: the match is at its start"))
        while self.history:
            move = self.history.pop()
            self._states.pop()
            self._redo.append(move)
            if not to_person or (move.player >= 0 and self.players[move.player] is None):
                break

    def redo(self) -> None:
        """Replay the last undone transition (the same chance outcome too)."""
        if not self._redo:
            raise CardlabError(_("nothing to redo"))
        move = self._redo.pop()
        s = self.state
        self._record(s, move.action, s._apply(move.action))

    def restart(self, seed: int | random.Random | None = None, state: State | None = None) -> None:
        """A new game in the same seats, from ``state`` (default: a new deal)."""
        if seed is not None:
            self.rng = make_rng(seed)
        self._states = [state if state is not None else self.game.new_initial_state()]
        self.history.clear()
        self._redo.clear()

    def log(self) -> list[str]:
        """The moves so far in notation, one line each."""
        return [str(m) for m in self.history]

    def __repr__(self) -> str:
        seats = [p.name if p else "person" for p in self.players]
        return f"Match({self.game!r}, {seats}, moves={len(self.history)})"
