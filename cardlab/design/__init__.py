"""The rule-design lab: how fair, how long, how lucky a game is, and what an
option changes, measured by self-play with 95 % intervals, and exactly where
the game is small enough.

>>> from cardlab import design
>>> point = design.measure("koinobori", games=6, agent="random", skill=("heuristic", "random"),
...                        evaluate=50, progress=False)
>>> sorted(point.metrics)[:3], point.metrics["duration"].n
(['balance', 'branching', 'decisiveness'], 6)

- :func:`measure` (one option point) and :func:`sweep` (a grid of options)
  play the games on :mod:`cardlab.batch` and return :class:`Point` objects
  whose ``metrics`` are :class:`~cardlab.design.metrics.Metric` values: the
  definitions, each with the Ludii metric it follows, are in
  :mod:`cardlab.design.metrics`; what a game records (the evaluation that
  lead changes, decisiveness and luck read) in :mod:`cardlab.design.play`.
- :func:`deal_values` (:mod:`cardlab.design.exact`): the first player's
  value with open hands over every deal, an exact distribution;
  :func:`equilibrium_value` the hidden-card game's value.
- :func:`report_html` (:mod:`cardlab.design.report`): the HTML report with
  its tables and plots (matplotlib, imported only there).
- ``cardlab design GAME --option hand_size=3,4,5 --games 400 --out report.html``
  (:mod:`cardlab.cli_design`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .exact import DealValues, deal_values, endgame, equilibrium_value
from .metrics import METRICS, Metric, game_metrics, skill_metrics
from .play import EVAL_NODES
from .sweep import GAME_COLUMNS, Plan, parse_grid, plan, read_csv, run_plan

__all__ = ["measure", "sweep", "Point", "Plan", "plan", "run_plan", "parse_grid", "read_csv", "points",
           "Metric", "METRICS", "GAME_COLUMNS", "EVAL_NODES", "DealValues", "deal_values", "endgame",
           "equilibrium_value", "report_html", "figure", "sampled_open_value", "exact_or_none"]


@dataclass
class Point:
    """One option point of a sweep: its ``options``, the ``metrics``
    (name -> :class:`Metric`), the agents, and ``exact``
    (:class:`DealValues`, when asked for and small enough) beside the sampled
    figures."""

    game: str
    options: dict[str, Any]
    metrics: dict[str, Metric]
    agent: str
    skill: tuple[str, str] | None
    games: int
    exact: DealValues | None = None
    rows: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def table(self) -> list[tuple[str, str, str]]:
        """``(metric, value [interval], anchor)`` rows, in report order."""
        return [(name, str(self.metrics[name]), METRICS[name][0]) for name in METRICS if name in self.metrics]

    def __str__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items()) or "default options"
        lines = [f"{self.game} ({opts}): {self.games} games of {self.agent}"]
        lines += [f"  {name:<13} {value:<28} {anchor}" for name, value, anchor in self.table()]
        if self.exact is not None:
            lines.append(f"  exact         {self.exact}")
        failed = [r for r in self.rows if r.get("error")]
        if failed:
            lines.append(f"  {len(failed)} games failed (left out), the first: {failed[0]['error']}")
        return "\n".join(lines)


def points(p: Plan, rows: Sequence[Mapping[str, Any]]) -> list[Point]:
    """The rows of a plan's games grouped into its points, with their metrics."""
    def key(options: Mapping[str, Any]) -> str:  # a point read back from a CSV has lists for tuples
        return json.dumps(options, sort_keys=True, default=str)

    out = []
    for opts, limit in zip(p.points, p.limits):
        mine = [r for r in rows if key(r["options"]) == key(opts)]
        metrics = game_metrics([r for r in mine if r["kind"] == "self"], has_limit=limit)
        if p.skill:
            metrics.update(skill_metrics([r for r in mine if r["kind"] == "skill"], *p.skill))
        out.append(Point(p.game, opts, metrics, p.agent, p.skill, p.games, rows=list(mine)))
    return out


def sweep(game: str, grid: Mapping[str, Sequence[Any]] | None = None, *, options: Mapping[str, Any] | None = None,
          games: int = 100, agent: str = "beginner", skill: Any = "auto", evaluate: int = EVAL_NODES,
          seed: int = 0, exact: bool = False, executor: Any = "serial", csv: str | os.PathLike | None = None,
          progress: bool | None = None, callback: Callable[[int, int], None] | None = None) -> list[Point]:
    """The metrics at every point of ``grid`` (``{"hand_size": [3, 4, 5]}``,
    over ``options``): ``games`` self-play games of ``agent`` (a level or an
    agent: :func:`cardlab.agents.make`) and as many of ``skill`` = (stronger,
    weaker), seats alternated (``"auto"``: the level above ``agent`` against
    it; ``None``: no skill metrics).  ``evaluate`` is the evaluation's node
    budget (0: no lead changes, decisiveness or luck).  With ``exact=True``
    each point also gets :func:`deal_values` where it is small enough (else
    ``None``).  Everything is checked first (:func:`plan`); ``csv`` makes the
    sweep resumable (:func:`run_plan`)."""
    p = plan(game, grid, options=options, games=games, agent=agent, skill=skill, evaluate=evaluate, seed=seed)
    rows = run_plan(p, executor=executor, csv=csv, progress=progress, callback=callback)
    out = points(p, rows)
    if exact:
        for point in out:
            point.exact = exact_or_none(game, point.options)
            if point.exact is not None:
                point.metrics["open_value"] = sampled_open_value(game, point.options, range(seed, seed + games))
    return out


def measure(game: str, options: Mapping[str, Any] | None = None, **kw: Any) -> Point:
    """The metrics of one option point (the keywords of :func:`sweep`)."""
    return sweep(game, None, options=options, **kw)[0]


def exact_or_none(game: str, options: Mapping[str, Any], max_deals: int = 2_000,
                  max_nodes: int = 200_000) -> DealValues | None:
    """:func:`deal_values` of a small variant, ``None`` when it is too large."""
    from ..errors import TooLargeError

    try:
        return deal_values(game, options, max_deals=max_deals, max_nodes=max_nodes)
    except TooLargeError:
        return None


def sampled_open_value(game: str, options: Mapping[str, Any], seeds: Sequence[int]) -> Metric:
    """Seat 0's open-hands value of sampled deals (one a seed, each solved
    exactly: :func:`cardlab.batch.solve_deals`), the mean with its normal
    95 % interval: the sampled figure beside :func:`deal_values`' exact one."""
    from ..batch import solve_deals
    from .metrics import mean_metric

    rows = solve_deals(game, seeds, options=options, executor="serial", progress=False)
    return mean_metric("open_value", [float(r["result"]) for r in rows if not r.get("error")])


def figure(points: Sequence[Point]):
    """The metrics by option as a matplotlib figure (:func:`cardlab.design.report.figure`)."""
    from .report import figure as _figure

    return _figure(points)


def report_html(points: Sequence[Point], path: str | os.PathLike | None = None, **kw: Any) -> str:
    """The HTML report of a sweep (:func:`cardlab.design.report.html`)."""
    from .report import html

    return html(points, path, **kw)
