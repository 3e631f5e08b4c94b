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
- :class:`LevelAgent`: the named levels a teacher picks (:data:`LEVELS`:
  beginner, club, strong, expert), each the anytime analysis
  (:func:`cardlab.analyse` with ``player=``, only what it can see) with a
  budget of work per move, and a clock cap so the strongest stays within
  2 s a move.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from .core import CHANCE, State, make_rng, sample_chance
from .cores import playout
from .errors import CardlabError, TooLargeError
from .hidden import open_hands_copy  # noqa: F401  (its home was here: cardlab.agents.open_hands_copy)
from .i18n import N_, _, get_language, pgettext

__all__ = ["Agent", "RandomAgent", "HeuristicAgent", "SolverAgent", "MCTSAgent", "LevelAgent", "Level", "LEVELS",
           "level_label", "make", "AGENTS", "NAMES"]


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


@dataclass(frozen=True)
class Level:
    """A named level: the work per move (``nodes``: positions searched plus
    playout steps, :func:`cardlab.analyse`) and a cap of CPU time
    (``seconds``, the thread's: a busy machine does not weaken a level)."""

    name: str
    nodes: int
    seconds: float
    #: the level's name on a Japanese page (the usual words for a player's grade)
    ja: str
    #: one line a teacher reads
    doc: str


#: the levels, weakest first
LEVELS = {level.name: level for level in (
    Level("beginner", 1_000, 0.25, "初心者", N_("plays a few random games on from each move (a quick guess)")),
    Level("club", 8_000, 0.5, "中級者", N_("a short anytime analysis of each move (about a tenth of a second)")),
    Level("strong", 40_000, 1.0, "上級者", N_("solves the endgame exactly, a longer analysis before it")),
    # the clock cap leaves room: an analysis stops at its next check after the cap, up to 0.25 s
    # later (measured: 2.24 s CPU at most with a 2 s cap, benchmarks/levels.py)
    Level("expert", 160_000, 1.75, "達人", N_("the longest analysis: up to 2 s a move")),
)}


def _level(name: str) -> Level:
    """The level called ``name``; an unknown name is refused with the list of levels."""
    if name not in LEVELS:
        raise CardlabError(_("unknown level {name}; the levels are: {levels}").format(
            name=repr(name), levels=", ".join(LEVELS)))
    return LEVELS[name]


def level_label(name: str) -> str:
    """A level's name as a page shows it: ``"club (中級者)"`` in English,
    the Japanese word alone in Japanese."""
    level = _level(name)
    words = {"beginner": pgettext("level", "beginner"), "club": pgettext("level", "club"),
             "strong": pgettext("level", "strong"), "expert": pgettext("level", "expert")}
    return level.ja if get_language() == "ja" else f"{words.get(name, name)} ({level.ja})"


def _not_worse(rows: list[dict]) -> list[str]:
    """The moves of an estimate that are not clearly worse than its best:
    those whose 95 % interval reaches the best move's.  At a simultaneous
    choice (a janken) the level draws one of them: a pure pick there can be
    read and beaten, and two levels that each always show rock would tie
    for ever (MP-Q2: a tie is played again)."""
    best = next(r for r in rows if r["best"])
    low = best.get("interval", (best["value"], best["value"]))[0]
    return [r["action"] for r in rows if r.get("interval", (r["value"], r["value"]))[1] >= low]


class LevelAgent(Agent):
    """A named level (:data:`LEVELS`): the move the anytime analysis of the
    player to move (fair: only what it can see) values highest, within the
    level's budget; at a simultaneous choice, a pick drawn from the optimal
    mix where it was solved exactly, else from the moves not clearly worse
    than the best (:func:`_not_worse`).  ``seconds`` overrides the level's
    clock cap."""

    def __init__(self, level: str = "club", seed: int | random.Random | None = None, *,
                 seconds: float | None = None) -> None:
        super().__init__(seed)
        self.level = _level(level)
        self.name = level
        self.seconds = self.level.seconds if seconds is None else seconds
        self.last = None  # the last analysis (for a board that shows why)

    def choose(self, state: State) -> str:
        from .analysis import analyse

        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        a = analyse(state, player=state.current_player, nodes=self.level.nodes, seconds=self.seconds, clock="cpu")
        self.last = a
        if a.mix:
            picks = [x for x in legal if a.mix.get(x)]
            return self.rng.choices(picks, weights=[float(a.mix[x]) for x in picks])[0]
        values = {r["action"]: r["value"] for r in a.rows}
        if state.simultaneous() or state.simultaneous_start() is not None:  # either half of the choice
            return self.rng.choice(_not_worse(a.rows))
        return max(legal, key=lambda x: (values[x], -legal.index(x)))

    def __repr__(self) -> str:
        return f"LevelAgent({self.name!r})"


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent, "solver": SolverAgent, "mcts": MCTSAgent}
#: every name :func:`make` accepts, as a picker lists them: the levels (weakest first), then the other agents
NAMES = tuple(LEVELS) + tuple(AGENTS)


def make(name: str | Agent, seed: int | random.Random | None = None) -> Agent:
    """An agent from its name: a level (``beginner``, ``club``, ``strong``,
    ``expert``: :data:`LEVELS`) or ``random``, ``heuristic``, ``solver``,
    ``mcts``."""
    if isinstance(name, Agent):
        return name
    if name in LEVELS:
        return LevelAgent(name, seed=seed)
    if name not in AGENTS:
        raise CardlabError(_("unknown agent {name}; the levels are: {levels}; the other agents: {agents}").format(
            name=repr(name), levels=", ".join(LEVELS), agents=", ".join(AGENTS)))
    return AGENTS[name](seed=seed)
