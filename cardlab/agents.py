"""Agents: who sits in a seat of a :class:`~cardlab.Match`.

Every agent has ``choose(state) -> action``.  Agents use only what the player
to move may know: where cards are hidden, they look at determinizations made
by :meth:`~cardlab.State.redeal`, never at the hidden cards themselves.

- :class:`RandomAgent`: a uniformly random legal action.
- :class:`HeuristicAgent`: one ply of look-ahead on :meth:`State.heuristic`.
- :class:`SolverAgent`: perfect play by :func:`cardlab.analyse` when the game
  has perfect information and the position is small enough; with hidden
  cards, perfect-information Monte Carlo (solve several open-hand
  determinizations, add up the values); falls back to MCTS when too large.
- :class:`MCTSAgent`: single-observer information-set Monte Carlo tree
  search (determinized UCT), for long games.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .core import CHANCE, State, make_rng, sample_chance
from .cores import playout
from .errors import CardlabError, TooLargeError
from .hidden import open_hands_copy  # noqa: F401  (its home was here: cardlab.agents.open_hands_copy)
from .i18n import _

__all__ = ["Agent", "RandomAgent", "HeuristicAgent", "SolverAgent", "MCTSAgent", "make", "AGENTS"]


class Agent:
    """Base class; ``name`` is shown in boards and logs."""

    name = "agent"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = make_rng(seed)

    def choose(self, state: State) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, state: State) -> str:
        return self.rng.choice(state.legal_actions())


def _expected_heuristic(state: State, player: int, rng: random.Random, depth: int = 2) -> float:
    """Heuristic after resolving up to ``depth`` chance levels by expectation."""
    if state.current_player != CHANCE or depth == 0:
        return state.heuristic(player)
    return sum(float(p) * _expected_heuristic(state._apply(a), player, rng, depth - 1)
               for a, p in state.chance_outcomes())


class HeuristicAgent(Agent):
    """Fast: tries each action on a determinization of the hidden cards and
    keeps the one with the best :meth:`State.heuristic` (random tie-break)."""

    name = "heuristic"

    def choose(self, state: State) -> str:
        me = state.current_player
        world = state.redeal(me, self.rng)
        scored = []
        for a in world.legal_actions():
            scored.append((_expected_heuristic(world._apply(a), me, self.rng), self.rng.random(), a))
        legal = set(state.legal_actions())
        best = max(t for t in scored if t[2] in legal)
        return best[2]


class SolverAgent(Agent):
    """Perfect play where the solver can reach the end; see the module doc."""

    name = "solver"

    def __init__(self, seed: int | random.Random | None = None, *, max_nodes: int = 200_000,
                 samples: int = 6, fallback_iterations: int = 400) -> None:
        super().__init__(seed)
        self.max_nodes = max_nodes
        self.samples = samples
        self.fallback = MCTSAgent(seed=self.rng, iterations=fallback_iterations)
        self.last_exact = False

    def choose(self, state: State) -> str:
        from .solve import analyse

        me = state.current_player
        worlds = ([state] if state.game.spec.perfect_information else
                  [open_hands_copy(state.redeal(me, self.rng)) for _i in range(self.samples)])
        totals: dict[str, Any] = {}
        mix: dict[str, Any] = {}
        try:
            for w in worlds:
                a = analyse(w, max_nodes=self.max_nodes, progress=False)
                for row in a.rows:
                    totals[row["action"]] = totals.get(row["action"], 0) + row["value"]
                for action, q in (a.mix or {}).items():
                    mix[action] = mix.get(action, 0) + q
        except TooLargeError:
            self.last_exact = False
            return self.fallback.choose(state)
        self.last_exact = len(worlds) == 1
        legal = state.legal_actions()
        if mix:  # a simultaneous choice: draw from the optimal mix (a pure pick can be read)
            picks = [a for a in legal if mix.get(a)]
            return self.rng.choices(picks, weights=[float(mix[a]) for a in picks])[0]
        return max(legal, key=lambda a: (totals.get(a, -math.inf), -legal.index(a)))


class _Node:
    __slots__ = ("player", "visits", "total", "avail", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[str, _Node] = {}


class MCTSAgent(Agent):
    """Single-observer ISMCTS: each iteration draws a determinization of what
    the player cannot see, walks one shared tree of actions with UCB
    (counting how often each action was available), rolls out at random and
    backs up the payoff scaled to [0, 1]; the most visited action is played."""

    name = "mcts"

    def __init__(self, seed: int | random.Random | None = None, *, iterations: int = 300,
                 exploration: float = 0.7) -> None:
        super().__init__(seed)
        self.iterations = iterations
        self.c = exploration

    def choose(self, state: State) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player
        spec = state.game.spec
        lo, span = float(spec.min_utility), float(spec.max_utility - spec.min_utility) or 1.0
        rng = self.rng
        root = _Node(me)
        for _i in range(self.iterations):
            s = state.redeal(me, rng)
            node, path = root, []
            while not s.is_terminal():
                if s.current_player == CHANCE:
                    s = s._apply(sample_chance(s, rng))
                    continue
                acts = s.legal_actions()
                for a in acts:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                untried = [a for a in acts if a not in node.children]
                if untried:
                    a = rng.choice(untried)
                    child = _Node(s.current_player)
                    child.avail = 1
                    node.children[a] = child
                    path.append(child)
                    s = s._apply(a)
                    break
                a = max(acts, key=lambda x: node.children[x].total / node.children[x].visits
                        + self.c * math.sqrt(math.log(node.children[x].avail) / node.children[x].visits))
                node = node.children[a]
                path.append(node)
                s = s._apply(a)
            r = playout(s, rng)[0]  # on the game's compact core where it has one
            for n in path:
                n.visits += 1
                n.total += (float(r[n.player]) - lo) / span
        return max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                         -legal.index(a)))


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "solver": SolverAgent, "mcts": MCTSAgent}


def make(name: str | Agent, seed: int | random.Random | None = None) -> Agent:
    """An agent from its name (``random``, ``heuristic``, ``solver``, ``mcts``)."""
    if isinstance(name, Agent):
        return name
    if name not in AGENTS:
        raise CardlabError(_("unknown agent {name}; the agents are: {agents}").format(
            name=repr(name), agents=", ".join(AGENTS)))
    return AGENTS[name](seed=seed)
