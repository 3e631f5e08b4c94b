"""The checks :func:`cardlab.batch.run` makes on every job before any job
runs (and before a process pool starts): a job is a dict with the fields of
its task, a known game, options the game accepts, and values a table and its
checkpoint file can store (JSON, exact fractions included).  A bad job raises
:class:`~cardlab.errors.CardlabError` naming the job's index, the field and
what the field accepts, so that a long run never stops half-way, or loses
its table, over a typing slip.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Mapping, Sequence

from . import games
from .errors import CardlabError, UnknownGameError
from .i18n import _

__all__ = ["check_jobs", "encode", "TASKS"]

#: each task's fields: those a job must have, and those it may have
TASKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "solve": (("task", "game", "seed"), ("options", "random_moves", "max_nodes", "position", "id")),
    "match": (("task", "game", "seed", "agents"), ("options", "id")),
    "call": (("task", "function", "game", "seed"), ("options", "id")),  # and the function's own arguments
}


def encode(v: Any) -> Any:
    """``json.dumps``'s ``default``: an exact fraction as ``{"fraction": "1/3"}``."""
    if isinstance(v, Fraction):
        return {"fraction": str(v)}
    raise TypeError(f"{v!r} is not JSON-able")


def _refuse(index: int, field: str, value: Any, accepted: str, error: type = CardlabError) -> CardlabError:
    return error(_("job {index}: {field}={value} is not accepted; {field} accepts {accepted}").format(
        index=index, field=field, value=f"{value!r:.80}", accepted=accepted))


def _storable(index: int, field: str, value: Any) -> None:
    """Refuse a value the checkpoint file cannot store (a ``pathlib.Path``, a set, an object)."""
    try:
        json.dumps(value, default=encode, allow_nan=False)
    except (TypeError, ValueError):
        if isinstance(value, Mapping):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise _refuse(index, f"{field} key", k, _("text (a string)")) from None
                _storable(index, f"{field}[{k!r}]", v)
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                _storable(index, f"{field}[{i}]", v)
        raise _refuse(index, field, value, _("values a table can store: text, whole numbers, numbers, "
                                             "True/False, None, fractions, lists and dicts of these "
                                             "(a path as str(path))")) from None


def _fields(index: int, job: Any) -> str:
    if not isinstance(job, Mapping):
        raise _refuse(index, "job", job, _("a dict made by solve_job(), position_job(), match_job() or "
                                           "call_job()"))
    task = job.get("task")
    if task not in TASKS:  # 'call' jobs are cardlab's own (cardlab.design): not named here
        raise CardlabError(_("a job's task is 'solve' or 'match', not {task} (job {job})").format(
            task=f"{task!r:.80}", job=index))
    need, may = TASKS[task]
    missing = [k for k in need if k not in job and not (k == "seed" and "position" in job)]
    if missing:
        raise CardlabError(_("job {index}: a {task} job needs the field {field}; its fields are: {fields}").format(
            index=index, task=task, field=repr(missing[0]), fields=", ".join(need + may)))
    unknown = sorted(k for k in job if k not in need + may) if task != "call" else []
    if unknown:
        raise CardlabError(_("job {index}: unknown field {field} in a {task} job; its fields are: {fields}").format(
            index=index, field=repr(unknown[0]), task=task, fields=", ".join(need + may)))
    return task


def _whole(index: int, job: Mapping[str, Any], field: str, low: int | None, words: str) -> None:
    """Refuse a field that is present and not None (when ``low`` allows None) nor a whole number >= ``low``."""
    if field not in job:
        return
    v = job[field]
    if type(v) is int and (low is None or v >= low):
        return
    raise _refuse(index, field, v, words)


def _game(index: int, job: Mapping[str, Any], loaded: dict[str, Any]) -> Any:
    """The job's game with its options (each different one loaded once), or the error naming the job."""
    name, options = job["game"], job.get("options", {})
    if not isinstance(name, str) or name not in games.names():
        raise _refuse(index, "game", name, ", ".join(games.names()), UnknownGameError)
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise _refuse(index, "options", options, _("a dict of the game's options"))
    key = json.dumps([name, options], sort_keys=True, default=repr)
    if key not in loaded:
        try:
            loaded[key] = games.load(name, **options)
        except (CardlabError, TypeError, ValueError, OSError) as exc:
            message = _("job {index}: {error}").format(index=index, error=exc)
            raise (type(exc)(message) if isinstance(exc, CardlabError) else CardlabError(message)) from None
    return loaded[key]


def _agents(index: int, agents: Any, game: Any) -> None:
    from .agents import AGENTS

    n = game.spec.num_players
    if not isinstance(agents, (list, tuple)) or len(agents) != n:
        raise _refuse(index, "agents", agents, _("a list of {n} agents, one per seat").format(n=n))
    for seat, a in enumerate(agents):
        name, kwargs = a, {}
        if isinstance(a, (list, tuple)) and len(a) == 2:
            name, kwargs = a
        if not isinstance(name, str) or name not in AGENTS or not isinstance(kwargs, Mapping):
            raise _refuse(index, f"agents[{seat}]", a, _("an agent's name ({agents}) or [name, {{keyword: value}}]")
                          .format(agents=", ".join(AGENTS)))
        try:
            AGENTS[name](seed=0, **kwargs)
        except (TypeError, ValueError) as exc:
            raise CardlabError(_("job {index}: the agent {field}={value} cannot be made: {error}").format(
                index=index, field=f"agents[{seat}]", value=repr(a), error=exc)) from None


def _check_solve(index: int, job: Mapping[str, Any]) -> None:
    if job.get("position") is None or job.get("seed") is not None:
        _whole(index, job, "seed", None, _("a whole number"))
    _whole(index, job, "random_moves", 0, _("a whole number, 0 or more"))
    if job.get("max_nodes") is not None:
        _whole(index, job, "max_nodes", 1, _("None or a whole number, 1 or more"))
    position = job.get("position")
    if position is not None and not (isinstance(position, Mapping) and position.get("game") == job["game"]):
        raise _refuse(index, "position", position, _("a position of {game} from state.to_dict()").format(
            game=job["game"]))


def check_jobs(jobs: Sequence[Any]) -> None:
    """Raise :class:`CardlabError` for the first job that cannot run or cannot be stored."""
    loaded: dict[str, Any] = {}
    for index, job in enumerate(jobs):
        task = _fields(index, job)
        game = _game(index, job, loaded)  # first: an option's own words say best what it accepts
        for field, value in job.items():
            _storable(index, field, value)
        if task == "solve":
            _check_solve(index, job)
        elif task == "match":
            _whole(index, job, "seed", None, _("a whole number"))
            _agents(index, job["agents"], game)
        elif not (isinstance(job["function"], str) and job["function"].startswith("cardlab.")
                  and ":" in job["function"]):
            raise _refuse(index, "function", job["function"], _("a cardlab function as 'cardlab.module:name'"))
