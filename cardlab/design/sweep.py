"""Sweeps: the design metrics over a grid of options, on :mod:`cardlab.batch`,
resumable from a CSV of finished games.

:func:`plan` checks everything before any game is played (the game, every
option value of the grid, the agents, the skill pair) and lists the jobs;
:func:`run_plan` plays them on :mod:`cardlab.batch` (``executor``: ``"serial"``,
a number of local processes, a :class:`concurrent.futures.Executor` or a
``dask.distributed.Client``), appending every finished game to ``csv`` so
that the same call again plays only the games still missing.
"""

from __future__ import annotations

import csv as _csv
import itertools
import json
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from .. import games as _games
from ..errors import CardlabError
from ..i18n import _
from .play import EVAL_NODES, has_limit

__all__ = ["Plan", "plan", "run_plan", "parse_grid", "GAME_COLUMNS", "read_csv"]

#: the columns of a game's row (and of the CSV, in order): ``kind`` ``"self"``
#: (self-play) or ``"skill"`` (the stronger against the weaker); ``options``
#: and ``agents`` as JSON; the result and what the game recorded
#: (:func:`cardlab.design.play.play_game`)
GAME_COLUMNS = ("kind", "game", "options", "seed", "agents", "evaluate", "result", "returns", "winner",
                "limit_draw", "first", "decisions", "seat_decisions", "transitions", "branching",
                "lead_changes", "evaluations", "decided_at", "deal_value", "error", "time")
_JSON = {"options", "agents", "returns", "seat_decisions"}
_FUNCTION = "cardlab.design.play:play_game"


@dataclass
class Plan:
    """What a sweep will play: the option ``points`` (dicts, the grid's
    combinations over ``options``), ``games`` self-play games of ``agent`` a
    point, and as many of ``skill[0]`` (stronger) against ``skill[1]``
    (``None``: no skill games)."""

    game: str
    points: list[dict[str, Any]]
    games: int
    agent: str
    skill: tuple[str, str] | None
    evaluate: int
    seed: int = 0
    seats: list[int] = field(default_factory=list)
    #: per point: whether its game has a limit that can draw a game (:func:`cardlab.design.play.has_limit`)
    limits: list[bool] = field(default_factory=list)

    def jobs(self) -> list[dict[str, Any]]:
        """Every job, point by point: the self-play games, then the skill games."""
        from ..batch import call_job

        out = []
        for opts, n in zip(self.points, self.seats):
            for s in range(self.seed, self.seed + self.games):
                out.append(call_job(_FUNCTION, self.game, s, opts, kind="self", agents=[self.agent] * n,
                                    evaluate=self.evaluate))
            if self.skill:
                for s in range(self.seed, self.seed + self.games):
                    seats = [self.skill[1]] * n
                    seats[s % n] = self.skill[0]
                    out.append(call_job(_FUNCTION, self.game, s, opts, kind="skill", agents=seats, evaluate=0))
        return out


def parse_value(text: str) -> Any:
    """An option value typed on a command line: a number, True/False/None, JSON, else the text."""
    for word, value in (("true", True), ("false", False), ("none", None)):
        if text.strip().lower() == word:
            return value
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


def parse_grid(specs: Iterable[str]) -> dict[str, list[Any]]:
    """``["hand_size=3,4,5", "deal=own"]`` -> ``{"hand_size": [3, 4, 5], "deal": ["own"]}``."""
    grid: dict[str, list[Any]] = {}
    for spec in specs:
        name, sep, values = spec.partition("=")
        if not sep or not name.strip():
            raise CardlabError(_("an option is NAME=VALUE[,VALUE...] (hand_size=3,4,5), not {spec}").format(
                spec=repr(spec)))
        grid[name.strip()] = [parse_value(v) for v in values.split(",") if v.strip()]
    return grid


def _check_agents(agent: str, skill: Any) -> tuple[str, tuple[str, str] | None]:
    from ..agents import LEVELS, NAMES

    for a in [agent] + (list(skill) if isinstance(skill, (list, tuple)) else []):
        if a not in NAMES:
            raise CardlabError(_("unknown agent {name}; the levels are: {levels}; the other agents: {agents}").format(
                name=repr(a), levels=", ".join(LEVELS), agents=", ".join(n for n in NAMES if n not in LEVELS)))
    if skill is None:
        return agent, None
    levels = list(LEVELS)
    if skill == "auto":
        if agent not in LEVELS or agent == levels[-1]:
            raise CardlabError(_("skill='auto' plays the level above the self-play agent against it, and {agent} has "
                                 "no level above it (the levels: {levels}); give skill=(stronger, weaker), for "
                                 "example ('club', 'beginner'), or skill=None").format(
                agent=repr(agent), levels=", ".join(levels)))
        return agent, (levels[levels.index(agent) + 1], agent)
    if not (isinstance(skill, (list, tuple)) and len(skill) == 2 and skill[0] != skill[1]):
        raise CardlabError(_("skill is a pair of two different agents (stronger, weaker), 'auto' or None, not "
                             "{skill}").format(skill=repr(skill)))
    if all(a in LEVELS for a in skill) and levels.index(skill[0]) < levels.index(skill[1]):
        raise CardlabError(_("skill=({strong}, {weak}): the stronger level comes first").format(
            strong=repr(skill[0]), weak=repr(skill[1])))
    return agent, (skill[0], skill[1])


def plan(game: str, grid: Mapping[str, Sequence[Any]] | None = None, *, options: Mapping[str, Any] | None = None,
         games: int = 100, agent: str = "beginner", skill: Any = "auto", evaluate: int = EVAL_NODES,
         seed: int = 0) -> Plan:
    """Check a sweep and list its points (see the module doc); every error
    is raised here, before any game is played.  ``grid=None`` is one point
    (``options``); an empty grid, an option with no value, an option value
    the game refuses, an unknown agent, a skill pair that does not fit are
    refused with what was wrong."""
    _games.package(game)  # an unknown game: UnknownGameError naming the games
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise CardlabError(_("games={games}: the games a point is a whole number, at least 1").format(
            games=repr(games)))
    if not isinstance(evaluate, int) or isinstance(evaluate, bool) or evaluate < 0:
        raise CardlabError(_("evaluate={evaluate}: the evaluation's node budget is a whole number, 0 for none").format(
            evaluate=repr(evaluate)))
    agent, pair = _check_agents(agent, skill)
    if grid is not None:
        if not grid:
            raise CardlabError(_("the grid is empty: give at least one option with its values "
                                 "(hand_size=3,4,5)"))
        for name, values in grid.items():
            if isinstance(values, (str, bytes)) or not list(values):
                raise CardlabError(_("option {name} of the grid has no values: give a list of them").format(
                    name=repr(name)))
    names = list(grid or {})
    points, seats, limits = [], [], []
    for combo in itertools.product(*(list(grid[n]) for n in names)):
        opts = {**dict(options or {}), **dict(zip(names, combo))}
        g = _games.load(game, **opts)  # a value the game refuses: OptionError naming it
        points.append(opts)
        seats.append(g.spec.num_players)
        limits.append(has_limit(g))
    return Plan(game, points, games, agent, pair, evaluate, seed, seats, limits)


def _key(job: Mapping[str, Any]) -> str:
    return json.dumps([job["kind"], job["game"], job["options"], job["seed"], job["agents"], job["evaluate"]],
                      sort_keys=True, default=str)


def _decode(name: str, text: str) -> Any:
    if text == "":
        return None
    if name in _JSON:
        value = json.loads(text)
        return [Fraction(x) for x in value] if name == "returns" else value
    if name == "result":
        return Fraction(text)
    if name in ("limit_draw",):
        return text == "True"
    if name in ("kind", "game", "error"):
        return text
    return float(text) if name in ("time", "decided_at", "deal_value") else int(text)


def read_csv(path: str | os.PathLike) -> list[dict[str, Any]]:
    """The games a sweep's CSV holds (a line cut short by an interruption is skipped)."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, newline="", encoding="utf-8") as f:
        for raw in _csv.DictReader(f):
            try:
                if None in raw or any(raw.get(c) is None for c in GAME_COLUMNS):
                    continue
                rows.append({c: _decode(c, raw[c]) for c in GAME_COLUMNS})
            except (ValueError, TypeError, ZeroDivisionError):
                continue
    return rows


def _encode(name: str, value: Any) -> str:
    if value is None:
        return ""
    if name in _JSON:
        return json.dumps([str(x) for x in value] if name == "returns" else value, sort_keys=True)
    return str(value)


def _executor(executor: Any) -> tuple[Any, Any]:
    """The executor to pass to :func:`cardlab.batch.run`, and the pool to shut down after (or ``None``)."""
    from ..batch import _local_pool

    if isinstance(executor, int) and not isinstance(executor, bool):
        if executor < 1:
            raise CardlabError(_("executor={executor}: the number of processes must be at least 1").format(
                executor=repr(executor)))
        if executor == 1:
            return "serial", None
        pool = _local_pool(executor)
        return pool, pool
    if executor is None:
        n = os.cpu_count() or 1
        return _executor(n)
    return executor, None


def run_plan(p: Plan, *, executor: Any = "serial", csv: str | os.PathLike | None = None,
             progress: bool | None = None, callback: Callable[[int, int], None] | None = None,
             chunk: int | None = None) -> list[dict[str, Any]]:
    """Play every job of ``p`` not already in ``csv`` and return every game's
    row (those read back first).  Progress: a tqdm bar (``progress=False``
    for none) and ``callback(done, total)`` after each chunk of games."""
    from ..batch import _Progress, run

    jobs = p.jobs()
    done = {_key(r): r for r in (read_csv(csv) if csv is not None else []) if not r.get("error")}
    todo = [j for j in jobs if _key(j) not in done]
    total = len(jobs)
    ex, own = _executor(executor) if todo else ("serial", None)
    bar = _Progress(total, total - len(todo), progress, _("{game} design").format(game=p.game))
    size = chunk or (8 if ex == "serial" else 32)
    new_file = csv is not None and not (os.path.exists(csv) and os.path.getsize(csv))
    out = open(csv, "a", newline="", encoding="utf-8") if csv is not None else None
    try:
        writer = _csv.DictWriter(out, GAME_COLUMNS) if out is not None else None
        if writer is not None and new_file:
            writer.writeheader()
        finished = total - len(todo)
        for i in range(0, len(todo), size):
            part = todo[i:i + size]
            for j, row in zip(part, run(part, executor=ex, progress=False)):
                row = {c: (j.get(c) if c in ("kind", "evaluate", "agents") and row.get(c) is None else row.get(c))
                       for c in GAME_COLUMNS}
                done[_key(j)] = row
                if writer is not None:
                    writer.writerow({c: _encode(c, row[c]) for c in GAME_COLUMNS})
            if out is not None:
                out.flush()
            finished += len(part)
            bar.update(len(part))
            if callback is not None:
                callback(finished, total)
    finally:
        bar.close()
        if out is not None:
            out.close()
        if own is not None:
            own.shutdown(wait=True, cancel_futures=True)
    return [done[_key(j)] for j in jobs]
