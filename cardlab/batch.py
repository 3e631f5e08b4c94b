"""Batch analysis: thousands of independent solves and matches on every core
of a laptop, or on a Dask cluster, returned as one tidy table.

Three questions, three functions, one engine:

- :func:`solve_deals` solves seeded deals (or endgames after ``random_moves``
  random moves) exactly, with open hands: the first player's advantage over
  all deals, the value of an endgame; :func:`solve_positions` solves
  positions given as ``state.to_dict()``.
- :func:`tournament` plays every agent against every other, in both seats,
  over many seeds; :func:`standings` gives win rates with Wilson intervals.
- :func:`sweep` asks the same question over a grid of game options (a rule
  variant, a deck); :func:`summarize` groups the rows by option.

Each returns a :class:`Table`: a list of dicts, one row per job, sorted by job
id, with the columns of :data:`COLUMNS`.  A job is decided by its seed alone,
so the table does not depend on the executor or on the number of workers
(only the ``time`` column varies).

``executor`` chooses where the jobs run: ``None`` (local processes on all
cores), an int (that many local processes), ``"serial"`` (this process), any
:class:`concurrent.futures.Executor`, or a ``dask.distributed.Client`` (the
same jobs on a Dask cluster; dask is imported only then).  ``checkpoint=path``
appends every finished row to a JSON-lines file; running the same call again
reads it back and runs only the jobs still missing, so an interrupted run
resumes where it stopped.  An error in one job is kept in that job's row
(``error`` names the exception; ``game``, ``options`` and ``seed`` say where)
and does not lose the other rows.  A job that cannot run at all (a missing
or unknown field, an unknown game, an option the game refuses, a value the
table cannot store such as a ``pathlib.Path``) is refused before any job
runs, naming the job's index and the field (:mod:`cardlab.batch_check`).

>>> from cardlab import batch
>>> t = batch.solve_deals("mipig", range(3), options={"hand_size": 1}, executor="serial",
...                       progress=False)
>>> [(r["seed"], r["to_move"], r["result"]) for r in t]
[(0, 1, Fraction(1, 1)), (1, 0, Fraction(1, 1)), (2, 0, Fraction(-1, 1))]
"""

from __future__ import annotations

import concurrent.futures as cf
import itertools
import json
import math
import os
import random
import time
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping, Sequence

from . import games
from .batch_check import check_jobs, encode as _encode
from .core import CHANCE, sample_chance
from .games import load
from .errors import CardlabError
from .i18n import _
from .solve import DEFAULT_MAX_NODES

__all__ = [
    "COLUMNS", "Table", "solve_job", "position_job", "match_job", "call_job", "run", "solve_deals",
    "solve_positions", "tournament",
    "sweep", "standings", "summarize", "wilson", "local_dask_client",
]

#: The columns of every row, in order.
#:
#: ``id`` job number (rows are sorted by it); ``task`` ``"solve"`` or
#: ``"match"``; ``game`` and ``options`` (the options given, a dict); ``seed``;
#: ``agents`` (a match: one agent label per seat) or ``solver`` (a solve: the
#: method); ``random_moves`` (a solve: random transitions played after the
#: deal); ``to_move`` (a solve: the player to move in the solved position);
#: ``result`` player 0's payoff, exact (a solve: the value under perfect
#: play; a match: what player 0 got); ``returns`` every player's;
#: ``winner`` (a match: the seat with the highest payoff, ``None`` for a
#: draw); ``nodes`` (a solve: positions searched; a match: transitions
#: played); ``time`` seconds; ``error`` ``None`` or ``"ExceptionType:
#: message"``.
COLUMNS = ("id", "task", "game", "options", "seed", "agents", "solver", "random_moves",
           "to_move", "result", "returns", "winner", "nodes", "time", "error")


# -- jobs: small JSON-able dicts, run by pure functions ------------------------

def solve_job(game: str, seed: int, options: Mapping[str, Any] | None = None, *,
              random_moves: int = 0, max_nodes: int | None = DEFAULT_MAX_NODES) -> dict[str, Any]:
    """A job: deal with ``seed``, play ``random_moves`` random transitions
    (player moves and chance, drawn from the same seed), solve exactly."""
    return {"task": "solve", "game": game, "options": dict(options or {}), "seed": seed,
            "random_moves": random_moves, "max_nodes": max_nodes}


def position_job(position: Mapping[str, Any], *, max_nodes: int | None = DEFAULT_MAX_NODES) -> dict[str, Any]:
    """A job: solve one position given as :meth:`State.to_dict` output (it
    names its ``game`` and ``options``; the row's ``seed`` is ``None``)."""
    if not isinstance(position, Mapping) or not isinstance(position.get("game"), str):
        raise CardlabError(_("a position job needs a position from state.to_dict() (a dict with 'game' and "
                             "'options'), not {position}").format(position=f"{position!r:.80}"))
    return {"task": "solve", "game": position["game"], "options": dict(position.get("options") or {}),
            "seed": None, "position": dict(position), "max_nodes": max_nodes}


def match_job(game: str, seed: int, agents: Sequence[Any],
              options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A job: one match, ``agents[i]`` in seat ``i``; ``seed`` decides every
    chance event and every agent's choice.  An agent is a name
    (``"random"``, ``"heuristic"``, ``"solver"``, ``"mcts"``) or ``[name,
    {keyword: value}]`` (``["mcts", {"iterations": 50}]``)."""
    return {"task": "match", "game": game, "options": dict(options or {}), "seed": seed,
            "agents": [_agent_spec(a) for a in agents]}


def _agent_spec(agent: Any) -> Any:
    from .agents import AGENTS

    if isinstance(agent, str):
        name, kwargs = agent, {}
    elif (isinstance(agent, (list, tuple)) and len(agent) == 2 and isinstance(agent[0], str)
          and isinstance(agent[1], Mapping)):
        name, kwargs = agent[0], dict(agent[1])
    else:
        raise CardlabError(_("an agent in a batch is a name or [name, {{keyword: value}}], not {agent}; the "
                             "agents are: {agents}").format(agent=repr(agent), agents=", ".join(AGENTS)))
    if name not in AGENTS:
        raise CardlabError(_("unknown agent {name}; the agents are: {agents}").format(
            name=repr(name), agents=", ".join(AGENTS)))
    return [name, kwargs] if kwargs else name


def agent_label(agent: Any) -> str:
    """``"mcts(iterations=50)"`` for ``["mcts", {"iterations": 50}]``."""
    if isinstance(agent, str):
        return agent
    name, kwargs = agent
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in sorted(kwargs.items()))})"


_GAMES: dict[str, Any] = {}


def _game(name: str, options: Mapping[str, Any]):
    """Games are cached per worker process: loading card data once."""
    key = json.dumps([name, options], sort_keys=True, default=str)
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        g = _GAMES[key] = load(name, **options)
    return g


def _blank(job: Mapping[str, Any]) -> dict[str, Any]:
    row = dict.fromkeys(COLUMNS)
    row.update(id=job.get("id"), task=job["task"], game=job["game"], options=job["options"],
               seed=job["seed"])
    if job["task"] == "match":
        row["agents"] = [agent_label(a) for a in job["agents"]]
    else:
        row["random_moves"] = job.get("random_moves", 0)
    return row


def _run_solve(job: Mapping[str, Any], row: dict[str, Any]) -> None:
    from .solve import solve

    game = _game(job["game"], job["options"])
    rng = random.Random(job["seed"])  # the deal, then the random moves, from one stream
    if job.get("position") is not None:
        state = game.state_from_dict(job["position"])
    else:
        state = game.new_initial_state(rng)
    for _move in range(job.get("random_moves", 0)):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            state = state._apply(sample_chance(state, rng))
        else:
            state = state._apply(rng.choice(state.legal_actions()))
    row["to_move"] = state.current_player
    sol = solve(state, max_nodes=job.get("max_nodes", DEFAULT_MAX_NODES), progress=False)
    row.update(solver=sol.method, result=sol.value, returns=list(sol.values), nodes=sol.nodes)


def _run_match(job: Mapping[str, Any], row: dict[str, Any]) -> None:
    from .agents import AGENTS
    from .match import Match

    game = _game(job["game"], job["options"])
    rng = random.Random(job["seed"])
    players = []
    for a in job["agents"]:
        name, kwargs = (a, {}) if isinstance(a, str) else a
        players.append(AGENTS[name](seed=rng.randrange(2**32), **kwargs))
    m = Match(game, players, seed=rng.randrange(2**32))
    final = m.play_to_end()
    rets = [Fraction(x) for x in final.returns()]
    best = max(rets)
    row.update(result=rets[0], returns=rets, nodes=len(m.history),
               winner=rets.index(best) if rets.count(best) == 1 else None)


def call_job(function: str, game: str, seed: int, options: Mapping[str, Any] | None = None,
             **arguments: Any) -> dict[str, Any]:
    """A job run by another cardlab module: ``function`` (``"cardlab.design.play:play_game"``)
    is called with the job (a dict holding ``game``, ``options``, ``seed`` and the
    JSON-able ``arguments``) and returns the columns it adds to the row.  Named by
    a string, so batch imports no module above it (cardlab.design uses it)."""
    if not (isinstance(function, str) and function.startswith("cardlab.") and ":" in function):
        raise CardlabError(_("a call job names a cardlab function as 'cardlab.module:name', not {function}").format(
            function=repr(function)))
    return {"task": "call", "function": function, "game": game, "options": dict(options or {}), "seed": seed,
            **arguments}


def _run_call(job: Mapping[str, Any], row: dict[str, Any]) -> None:
    import importlib

    module, _sep, name = job["function"].partition(":")
    row.update(getattr(importlib.import_module(module), name)(job))


def run_job(job: Mapping[str, Any]) -> dict[str, Any]:
    """Run one job and return its row; an exception becomes the row's ``error``."""
    row = _blank(job)
    start = time.perf_counter()
    try:
        if job["task"] == "solve":
            _run_solve(job, row)
        elif job["task"] == "call":
            _run_call(job, row)
        else:
            _run_match(job, row)
    except Exception as exc:  # one job's failure must not lose the others
        row["error"] = f"{type(exc).__name__}: {exc}"
    row["time"] = time.perf_counter() - start
    return row


def run_chunk(jobs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Run several jobs in one worker call (cheap jobs would drown in overhead)."""
    return [run_job(j) for j in jobs]


# -- the table -----------------------------------------------------------------

class Table(list):
    """The rows of a batch run (a list of dicts, sorted by ``id``).

    ``errors`` lists the rows whose job failed; ``resumed`` counts the rows
    read back from a checkpoint; ``to_pandas()`` gives a DataFrame when pandas
    is installed; ``select(*columns)`` keeps some columns (drop ``time`` before
    comparing two runs).  Printing gives a text table.
    """

    resumed: int = 0

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [r for r in self if r.get("error")]

    def select(self, *columns: str) -> "Table":
        return Table({c: r.get(c) for c in columns} for r in self)

    def drop(self, *columns: str) -> "Table":
        return Table({k: v for k, v in r.items() if k not in columns} for r in self)

    def to_pandas(self):
        try:
            import pandas as pd
        except ImportError:
            raise CardlabError(_("to_pandas() needs pandas (pip install pandas); the table itself is a plain "
                                 "list of dicts")) from None
        return pd.DataFrame(list(self))

    def to_text(self, columns: Sequence[str] | None = None, limit: int | None = 30) -> str:
        """A plain text table (``time`` left out unless asked for)."""
        return format_table(self, columns, limit)

    def __str__(self) -> str:
        return self.to_text()


def _cell(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}"
    if isinstance(v, dict):
        return ", ".join(f"{k}={x}" for k, x in v.items()) or "—"
    if isinstance(v, (list, tuple)):
        return " vs ".join(map(str, v)) if v and isinstance(v[0], str) else "[" + ", ".join(map(str, v)) + "]"
    return str(v)


def format_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None,
                 limit: int | None = 30) -> str:
    """Rows (dicts) as an aligned text table; ``time`` is left out by default
    so that printed tables do not change from run to run."""
    if not rows:
        return "(no rows)"
    if columns is None:
        columns = [c for c in rows[0] if c != "time"
                   and any(r.get(c) not in (None, {}, []) for r in rows)]
    shown = list(rows if limit is None else rows[:limit])
    cells = [[_cell(r.get(c)) for c in columns] for r in shown]
    widths = [max([len(c)] + [len(x[i]) for x in cells]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip()]
    lines += ["  ".join(x.ljust(w) for x, w in zip(line, widths)).rstrip() for line in cells]
    if len(shown) < len(rows):
        lines.append(f"... {len(rows) - len(shown)} more rows")
    return "\n".join(lines)


# -- checkpoints: JSON lines ---------------------------------------------------

def _decode(d: dict) -> Any:
    if len(d) == 1 and "fraction" in d:
        return Fraction(d["fraction"])
    return d


def _checkpoint_line(job: Mapping[str, Any], row: Mapping[str, Any]) -> str:
    """The checkpoint's line for a finished job.  A row holding a value JSON
    cannot store (a call job's own column) is kept in the table and written
    as an error, so that it runs again on resume: the run goes on."""
    try:
        return json.dumps({"key": _job_key(job), "row": row}, default=_encode) + "\n"
    except (TypeError, ValueError) as exc:
        row = dict(row, error=f"{type(exc).__name__}: the row could not be stored: {exc}")
        return json.dumps({"key": _job_key(job), "row": row}, default=str) + "\n"


def _job_key(job: Mapping[str, Any]) -> str:
    """What identifies a job across runs (not its id, not its position)."""
    return json.dumps({k: v for k, v in job.items() if k != "id"}, sort_keys=True, default=str)


def _read_checkpoint(path: str) -> dict[str, dict[str, Any]]:
    done: dict[str, dict[str, Any]] = {}
    if not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line, object_hook=_decode)
                done[entry["key"]] = entry["row"]
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by an interruption: that job runs again
    return done


def _open_checkpoint(path: str):
    """Open for appending; a last line cut short by an interruption is ended
    first, so that the next row starts on a line of its own."""
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            cut = f.read(1) != b"\n"
    else:
        cut = False
    out = open(path, "a", encoding="utf-8")
    if cut:
        out.write("\n")
    return out


# -- executors -----------------------------------------------------------------

def _is_dask_client(executor: Any) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "gather")


def local_dask_client(n_workers: int | None = None, *, processes: bool = True):
    """A ``dask.distributed.Client`` of a new cluster on this machine: one
    single-threaded worker per core (or ``n_workers``), no dashboard.  With
    ``processes=True`` the workers are separate processes and every socket is
    bound to 127.0.0.1; with ``processes=False`` they are threads of this
    process (quick to start, no network at all, but they share one
    interpreter lock: a demonstration, not a speed-up).  ``client.close()``
    stops the cluster too; use it in a ``with`` block.  For a real cluster
    make the client yourself (``Client("tcp://scheduler:8786")``) and pass it
    as ``executor``."""
    try:
        from distributed import Client
    except ImportError:
        raise CardlabError(_('a Dask cluster needs dask.distributed: pip install "dask[distributed]"')) from None
    where = {"host": "127.0.0.1"} if processes else {}  # in-process: the inproc:// transport
    return Client(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1, processes=processes,
                  dashboard_address=None, **where,
                  # the scheduler's HTTP server (health checks) on a free loopback port
                  scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})


def _workers(executor: Any) -> int:
    if _is_dask_client(executor):
        try:
            return max(1, sum(executor.nthreads().values()))
        except Exception:
            return 1
    n = getattr(executor, "_max_workers", None)
    return n or (os.cpu_count() or 1)


def _chunks(jobs: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def _local_pool(n: int) -> cf.ProcessPoolExecutor:
    import multiprocessing as mp

    # forkserver: no fork of a process that runs threads (a notebook kernel, Dask)
    method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(["cardlab", "cardlab.batch"])
    return cf.ProcessPoolExecutor(max_workers=n, mp_context=ctx)


def _submit_all(executor: Any, chunks: list[list[dict[str, Any]]]) -> Iterator[tuple[list, Any]]:
    """Yield ``(chunk, rows or exception)`` as chunks finish, in any order."""
    if executor == "serial":
        for chunk in chunks:
            yield chunk, run_chunk(chunk)
        return
    if _is_dask_client(executor):
        from distributed import as_completed  # lazily: only for a Dask cluster

        futures = {executor.submit(run_chunk, c, pure=False): c for c in chunks}
        try:
            for fut in as_completed(futures):
                try:
                    yield futures[fut], fut.result()
                except Exception as exc:  # a lost worker: these jobs get an error row
                    yield futures[fut], exc
        finally:
            for fut in futures:
                fut.cancel()
        return
    futures = {executor.submit(run_chunk, c): c for c in chunks}
    try:
        for fut in cf.as_completed(futures):
            try:
                yield futures[fut], fut.result()
            except Exception as exc:  # a worker process died (BrokenProcessPool)
                yield futures[fut], exc
    finally:
        for fut in futures:
            fut.cancel()


class _Progress:
    def __init__(self, total: int, initial: int, show: bool | None, desc: str) -> None:
        self.bar = None
        if show is False:
            return
        try:
            from tqdm.auto import tqdm
        except ImportError:  # no tqdm: no bar, the run goes on
            return
        self.bar = tqdm(total=total, initial=initial, desc=desc, unit=" jobs")

    def update(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run(jobs: Iterable[Mapping[str, Any]], *, executor: Any = None, checkpoint: str | os.PathLike | None = None,
        progress: bool | None = None, chunksize: int | None = None, desc: str = "jobs") -> Table:
    """Run jobs (from :func:`solve_job` / :func:`match_job`) and return their rows.

    ``executor``: ``None`` (a process per core), an int (that many local
    processes), ``"serial"`` (in this process), a
    :class:`concurrent.futures.Executor` or a ``dask.distributed.Client``
    (executors given are not shut down).  ``checkpoint``: a JSON-lines file
    that keeps every finished row; rows already there (without an error) are
    not run again; a row it cannot store is kept in the table and written as
    an error, so that it runs again on resume.  ``chunksize``: jobs per
    worker call (default: about four calls per worker).  ``progress``: a
    tqdm bar (``False`` for none).  Every job is checked first
    (:func:`cardlab.batch_check.check_jobs`): a bad one raises
    :class:`~cardlab.CardlabError` before any work starts.
    """
    jobs = list(jobs)
    check_jobs(jobs)  # every job, before any runs: a bad one names its index, field and what is accepted
    jobs = [{"options": {}, **j, "id": i} for i, j in enumerate(jobs)]
    rows: dict[int, dict[str, Any]] = {}
    done = _read_checkpoint(os.fspath(checkpoint)) if checkpoint is not None else {}
    todo = []
    for j in jobs:
        old = done.get(_job_key(j))
        if old is not None and not old.get("error"):
            rows[j["id"]] = dict(old, id=j["id"])
        else:
            todo.append(j)
    resumed = len(rows)

    own = None
    if executor is None or (isinstance(executor, int) and not isinstance(executor, bool)):
        n = (os.cpu_count() or 1) if executor is None else executor
        if n < 1:
            raise CardlabError(_("executor={executor}: the number of processes must be at least 1").format(
                executor=repr(executor)))
        own = executor = _local_pool(n) if todo else "serial"
    elif not (executor == "serial" or _is_dask_client(executor) or isinstance(executor, cf.Executor)):
        raise CardlabError(_("executor={executor} is not accepted; use None (all cores), an int (processes), "
                             "'serial', a concurrent.futures.Executor or a dask.distributed.Client").format(
            executor=repr(executor)))
    if chunksize is None:
        chunksize = max(1, min(50, len(todo) // (4 * (1 if executor == "serial" else _workers(executor))) or 1))
    bar = _Progress(len(jobs), resumed, progress, desc)
    out = _open_checkpoint(os.fspath(checkpoint)) if checkpoint is not None else None
    try:
        for chunk, result in _submit_all(executor, _chunks(todo, chunksize)):
            if isinstance(result, BaseException):
                result = [dict(_blank(j), error=f"{type(result).__name__}: the worker failed: {result}")
                          for j in chunk]
            for j, row in zip(chunk, result):
                rows[j["id"]] = row
                if out is not None:
                    out.write(_checkpoint_line(j, row))
            if out is not None:
                out.flush()
            bar.update(len(chunk))
    finally:
        bar.close()
        if out is not None:
            out.close()
        if own is not None and own != "serial":
            own.shutdown(wait=True, cancel_futures=True)
    table = Table(rows[i] for i in sorted(rows))
    table.resumed = resumed
    return table


# -- the three questions -------------------------------------------------------

def _with_open_hands(game: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    options = dict(options or {})
    cls = games.package(game).GAME  # an unknown game: UnknownGameError naming the games
    if "open_hands" in cls.OPTIONS:
        options.setdefault("open_hands", True)
    return options


def solve_deals(game: str, seeds: Iterable[int], *, options: Mapping[str, Any] | None = None,
                random_moves: int = 0, max_nodes: int | None = DEFAULT_MAX_NODES, **run_kw: Any) -> Table:
    """Solve the deal of every seed exactly (``open_hands=True`` is added
    when the game has the option), after ``random_moves`` random transitions.

    ``result`` is player 0's exact value; ``to_move`` who moves first in the
    solved position.  Other keywords go to :func:`run`.
    """
    options = _with_open_hands(game, options)
    load(game, **options)  # bad options fail here, once, not in every job
    jobs = [solve_job(game, s, options, random_moves=random_moves, max_nodes=max_nodes) for s in seeds]
    run_kw.setdefault("desc", f"solving {game}")
    return run(jobs, **run_kw)


def solve_positions(positions: Iterable[Mapping[str, Any]], *, max_nodes: int | None = DEFAULT_MAX_NODES,
                    **run_kw: Any) -> Table:
    """Solve positions given as :meth:`State.to_dict` output (open hands:
    each names its game and options), one row each in the order given.
    Other keywords go to :func:`run`."""
    jobs = [position_job(p, max_nodes=max_nodes) for p in positions]
    run_kw.setdefault("desc", "solving positions")
    return run(jobs, **run_kw)


def tournament(game: str, agents: Sequence[Any], seeds: Iterable[int], *,
               options: Mapping[str, Any] | None = None, **run_kw: Any) -> Table:
    """Every agent against every other, in both seats, one match per seed and
    seating (the same seeds for every pairing: the deals are shared).

    Summarise with :func:`standings`.  Other keywords go to :func:`run`.
    """
    options = dict(options or {})
    g = load(game, **options)
    if g.spec.num_players != 2:
        raise CardlabError(_("tournament() pairs agents in two seats; {game} with these options has {players} "
                             "players: use run() with match_job() for more seats").format(
            game=game, players=g.spec.num_players))
    specs = [_agent_spec(a) for a in agents]
    labels = [agent_label(a) for a in specs]
    if len(set(labels)) != len(labels) or len(labels) < 2:
        raise CardlabError(_("tournament() needs at least two different agents, got {labels}").format(labels=labels))
    seeds = list(seeds)
    jobs = [match_job(game, s, [a, b], options)
            for a, b in itertools.permutations(specs, 2) for s in seeds]
    run_kw.setdefault("desc", f"{game} tournament")
    return run(jobs, **run_kw)


def sweep(game: str, grid: Mapping[str, Sequence[Any]], seeds: Iterable[int], *,
          task: str = "solve", options: Mapping[str, Any] | None = None,
          agents: Sequence[Any] = ("heuristic", "heuristic"), random_moves: int = 0,
          max_nodes: int | None = DEFAULT_MAX_NODES, **run_kw: Any) -> Table:
    """The same question over every combination of the option values in
    ``grid`` (``{"koikoi": [False, True]}``): exact solves (``task="solve"``)
    or matches between ``agents`` (``task="match"``), for the same seeds.

    Summarise with :func:`summarize` (``by="options"``).  Other keywords go
    to :func:`run`.
    """
    if task not in ("solve", "match"):
        raise CardlabError(_("sweep(task={task}): task is 'solve' or 'match'").format(task=repr(task)))
    base = _with_open_hands(game, options) if task == "solve" else dict(options or {})
    names = list(grid)
    seeds = list(seeds)
    jobs = []
    for values in itertools.product(*(list(grid[n]) for n in names)):
        opts = {**base, **dict(zip(names, values))}
        load(game, **opts)  # a bad option value fails here, naming it
        for s in seeds:
            jobs.append(solve_job(game, s, opts, random_moves=random_moves, max_nodes=max_nodes)
                        if task == "solve" else match_job(game, s, agents, opts))
    run_kw.setdefault("desc", f"{game} sweep")
    return run(jobs, **run_kw)


# -- summaries -----------------------------------------------------------------

def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials (95 % by default).

    >>> [round(x, 4) for x in wilson(8, 10)]
    [0.4902, 0.9433]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def standings(rows: Sequence[Mapping[str, Any]], z: float = 1.96) -> Table:
    """Pairwise results of a tournament: for each pair of agents, the first
    one's wins, draws and losses over both seats, its win rate with the
    Wilson interval, and its score rate (a draw counts half)."""
    pairs: dict[tuple[str, str], list[int]] = {}
    for r in rows:
        if r.get("task") != "match" or r.get("error"):
            continue
        a, b = r["agents"]
        for me, other, seat in ((a, b, 0), (b, a, 1)):
            wdl = pairs.setdefault((me, other), [0, 0, 0])
            w = r["winner"]
            wdl[0 if w == seat else 1 if w is None else 2] += 1
    out = Table()
    for (me, other), (w, d, l) in sorted(pairs.items()):
        n = w + d + l
        lo, hi = wilson(w, n, z)
        out.append({"agent": me, "opponent": other, "games": n, "wins": w, "draws": d, "losses": l,
                    "win_rate": round(w / n, 3), "ci_low": round(lo, 3), "ci_high": round(hi, 3),
                    "score_rate": round((w + d / 2) / n, 3)})
    return out


def summarize(rows: Sequence[Mapping[str, Any]], by: str | Sequence[str] = "options",
              z: float = 1.96) -> Table:
    """Group rows by some columns and report, for each group: the number of
    jobs and of errors, the mean ``result`` (exact for solves, and as a
    float), the share of rows where player 0 came out ahead (``result > 0``:
    a won match, or a deal that player 0 wins in expectation) with its Wilson
    interval, and the draws (``result == 0``)."""
    by = [by] if isinstance(by, str) else list(by)
    groups: dict[str, tuple[dict[str, Any], list]] = {}
    for r in rows:
        key_vals = {c: r.get(c) for c in by}
        key = json.dumps(key_vals, sort_keys=True, default=str)
        groups.setdefault(key, (key_vals, []))[1].append(r)
    out = Table()
    for key_vals, members in groups.values():
        good = [r for r in members if not r.get("error")]
        n = len(good)
        wins = sum(1 for r in good if r["result"] > 0)
        draws = sum(1 for r in good if r["result"] == 0)
        lo, hi = wilson(wins, n, z)
        mean = sum((r["result"] for r in good), Fraction(0)) / n if n else None
        out.append({**key_vals, "jobs": len(members), "errors": len(members) - n, "mean_result": mean,
                    "mean": round(float(mean), 4) if n else None, "p0_win_rate": round(wins / n, 3) if n else None, "ci_low": round(lo, 3),
                    "ci_high": round(hi, 3), "draws": draws})
    return out
