"""One game of the rule-design lab, played to its end, and what it records.

:func:`play_game` is the job :mod:`cardlab.batch` runs for
:mod:`cardlab.design` (a ``"call"`` job: :func:`cardlab.batch.call_job`).
Every seat is an agent or a level (:func:`cardlab.agents.make`); the seed
decides every chance event (the deals are the same for every pairing of
agents: chance draws from its own stream) and every agent's choices.

Besides the result, a game records at each decision how many legal moves
there were (the branching factor) and, when ``evaluate`` is a positive node
budget, seat 0's **evaluation**: the anytime analysis
(:func:`cardlab.analyse`, ``nodes=evaluate``, deterministic) of the same
position with every card shown (:func:`cardlab.hidden.open_hands_copy`), the
best move's value for the player to move, turned into seat 0's (two
players, zero-sum: the negative of seat 1's).  It is cheap (300 positions by
default, about 1 ms a decision in most games) and it is the judge's view,
not a player's: it sees every card, so it says who is ahead in the position
as it really is.  The first one, at the first decision, is the **deal
value**: what the deal alone promises seat 0 before anyone has chosen.
Games of more than two players record no evaluation (a single number cannot
say who leads among three).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any, Callable, Mapping

from ..core import CHANCE, State, sample_chance
from ..games import load

__all__ = ["EVAL_NODES", "play_game", "LIMIT_DRAWS", "has_limit", "lead_changes", "decided_at"]

#: the evaluation's node budget a decision (see the module doc)
EVAL_NODES = 300


def _mipig_limit_draw(final: State) -> bool:
    """mipig (MP-Q3): the end janken stopped by the ``janken_rounds`` cap."""
    cap = final.game.options.get("janken_rounds")
    d = final.to_dict()
    return cap is not None and str(d.get("outcome")) == "0" and int(d.get("janken_round") or 0) >= cap


#: per game: the option that sets its limit (a cap on moves, turns or tied
#: rounds; the limit applies when the option is not ``None``), and whether
#: a drawn game was drawn by it rather than by the play.  A game not listed
#: has no such limit: every draw it has is natural.
LIMIT_DRAWS: dict[str, tuple[str, Callable[[State], bool]]] = {"mipig": ("janken_rounds", _mipig_limit_draw)}


def has_limit(game: Any) -> bool:
    """Whether ``game`` (a loaded game) has a limit that can draw a game."""
    entry = LIMIT_DRAWS.get(game.name)
    return entry is not None and game.options.get(entry[0]) is not None


def _seat0_value(state: State, nodes: int) -> float:
    """Seat 0's evaluation of ``state`` (a decision; see the module doc)."""
    from ..analysis import analyse
    from ..hidden import open_hands_copy

    a = analyse(open_hands_copy(state), nodes=nodes)
    v = float(a.value)
    return v if state.current_player == 0 else -v


def lead_changes(evals: list[float]) -> int:
    """How often the side ahead changes: seat 0 leads where the evaluation is
    positive, seat 1 where negative; a level position (0) leads nobody and
    changes nothing."""
    changes, last = 0, 0
    for v in evals:
        side = (v > 0) - (v < 0)
        if side:
            changes += last != 0 and side != last
            last = side
    return changes


def decided_at(evals: list[float], winner: int | None) -> float | None:
    """The share of the decisions played before the winner's lead became
    final: the first decision from which the evaluation favours the eventual
    winner at every later one, divided by the number of decisions (0: ahead
    from the deal on; 1: never ahead before the end).  ``None`` for a draw
    or a game without evaluations."""
    if winner is None or not evals:
        return None
    sign = 1 if winner == 0 else -1
    i = len(evals)
    while i > 0 and evals[i - 1] * sign > 0:
        i -= 1
    return i / len(evals)


def _returns(final: State) -> list[Fraction]:
    return [Fraction(x) for x in final.returns()]


def play_game(job: Mapping[str, Any]) -> dict[str, Any]:
    """Play one game of ``job`` (``game``, ``options``, ``seed``, ``agents``:
    one name per seat, ``evaluate``: the evaluation's node budget, 0 for
    none) and return its columns (see :data:`cardlab.design.GAME_COLUMNS`)."""
    from ..agents import make

    game = load(job["game"], **job["options"])
    chance = random.Random(f"deal {job['seed']}")
    seeds = random.Random(f"agents {job['seed']}")
    players = [make(a, seed=seeds.randrange(2**32)) for a in job["agents"]]
    nodes = int(job.get("evaluate") or 0) if game.spec.num_players == 2 else 0
    s = game.new_initial_state()
    decisions, transitions, branching, first = [0] * game.spec.num_players, 0, 0, None
    evals: list[float] = []
    while not s.is_terminal():
        transitions += 1
        if s.current_player == CHANCE:
            s = s._apply(sample_chance(s, chance))
            continue
        p = s.current_player
        if first is None and not s.simultaneous() and s.simultaneous_start() is None:
            first = p  # the first to move on their own (a janken's picks decide it, not start it)
        decisions[p] += 1
        branching += len(s.legal_actions())
        if nodes:
            evals.append(_seat0_value(s, nodes))
        s = s._apply(players[p].choose(s))
    rets = _returns(s)
    best = max(rets)
    winner = rets.index(best) if rets.count(best) == 1 else None
    limit = winner is None and has_limit(game) and LIMIT_DRAWS[game.name][1](s)
    return {"agents": list(job["agents"]), "result": rets[0], "returns": rets, "winner": winner,
            "limit_draw": bool(limit), "first": first, "decisions": sum(decisions),
            "seat_decisions": decisions, "transitions": transitions, "branching": branching,
            "nodes": transitions, "lead_changes": lead_changes(evals) if evals else None,
            "evaluations": len(evals), "decided_at": decided_at(evals, winner),
            "deal_value": evals[0] if evals else None}
