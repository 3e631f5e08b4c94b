"""The rule-design metrics, each from the rows of many games, with its 95 %
interval.

Every metric is a :class:`Metric`: ``value``, ``lo`` and ``hi`` (the 95 %
interval), ``n`` (the games it rests on) and ``anchor``: the name of the
Ludii metric it follows (Ludii's *metrics* module: ``AdvantageP1``,
``Balance``, ``Drawishness``, ``LeadChange``, ``DecisivenessMoves``,
``DurationMoves``, ``BranchingFactorAverage``; ``SkillTrace``), or ``""``
where it follows none.  The definitions (a *score* is 1 for a win, ½ for a
draw of two players, ``1/n`` for a draw of ``n``, 0 for a loss):

``seat_score``  (AdvantageP1) seat 0's mean score; ½ is no seat advantage
    for two players (``1/n`` for ``n``).  Wilson interval on the points.
``first_score``  the same for the player who moved first on their own
    (in mipig the janken decides who; in Koi-koi Nobori ``first_player``).
``balance``  (Balance) ``1 − (max_i w_i − min_i w_i)`` with ``w_i`` the
    share of games seat ``i`` won: 1 is perfectly balanced.  Percentile
    bootstrap over games (1,000 resamples, seeded).
``drawishness``  (Drawishness) the share of games drawn by the play, draws
    caused by a limit (a cap on tied rounds: mipig's ``janken_rounds``)
    left out; ``limit_draws`` counts those apart (``None``: the game has no
    such limit).  Wilson interval.
``lead_change``  (LeadChange) per game, the number of times the side ahead
    changes by the evaluation (:mod:`cardlab.design.play`) divided by the
    evaluations minus one; the mean over games, normal interval.
``decisiveness``  (DecisivenessMoves) per won game, the share of its
    decisions played before the winner's lead became final
    (:func:`cardlab.design.play.decided_at`); the mean, normal interval.
    Small: decided early; near 1: open to the end.
``duration``  (DurationMoves) decisions a game (every player's moves, not
    chance): the mean (normal interval) and ``duration_sd``, its standard
    deviation (the spread; bootstrap interval).  ``transitions`` counts chance
    events too.
``branching``  (BranchingFactorAverage) legal moves a decision over all
    decisions of all games (a ratio of sums); bootstrap interval.
``skill``  (SkillTrace, one step of it) the stronger agent's mean score
    against the weaker, seats alternated (the stronger in seat ``seed mod
    n``), same deals; Wilson interval; ``skill_elo`` is the same as an Elo
    difference (:func:`cardlab.ratings.elo`, one virtual drawn game added).
``luck``  how much of the result the deal alone predicts: the squared
    correlation (R²) between seat 0's result and the **deal value** (the
    evaluation of the first decision, every card shown: what the deal
    promises seat 0 before anyone chooses), over the self-play games.  0: the
    deal says nothing; 1: the deal decides.  Interval from Fisher's z of the
    correlation, squared (clipped at 0 when it covers 0).
``open_value``  (small variants, beside the exact distribution of
    :mod:`cardlab.design.exact`) seat 0's value with open hands of one
    sampled deal a seed, solved exactly; the mean, normal interval: the
    exact mean should fall inside it about 19 times in 20.

Intervals: Wilson's for shares of games, the normal ``mean ± 1.96 s/√n``
for means, a percentile bootstrap for the rest.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ..batch import wilson
from ..i18n import N_

__all__ = ["Metric", "METRICS", "game_metrics", "skill_metrics", "score", "mean_metric"]

#: metric name -> (the anchor it follows, a short line a class reads); in report order
METRICS: dict[str, tuple[str, str]] = {
    "seat_score": ("AdvantageP1", N_("seat 0's mean score (½: no seat advantage)")),
    "first_score": ("", N_("the first mover's mean score")),
    "balance": ("Balance", N_("1 − the largest gap between the seats' win rates")),
    "drawishness": ("Drawishness", N_("games drawn by the play (limit draws apart)")),
    "limit_draws": ("", N_("games drawn by a limit (a cap on tied rounds)")),
    "lead_change": ("LeadChange", N_("how often the side ahead changes, a decision")),
    "decisiveness": ("DecisivenessMoves", N_("share of a won game before the winner's lead is final")),
    "duration": ("DurationMoves", N_("decisions a game")),
    "duration_sd": ("", N_("spread of the decisions a game (standard deviation)")),
    "transitions": ("", N_("transitions a game, chance included")),
    "branching": ("BranchingFactorAverage", N_("legal moves a decision")),
    "skill": ("SkillTrace", N_("the stronger agent's mean score against the weaker")),
    "skill_elo": ("SkillTrace", N_("the same as an Elo difference")),
    "luck": ("", N_("how much of the result the deal alone predicts (R²)")),
    "open_value": ("", N_("seat 0's open-hands value of sampled deals (beside the exact one)")),
}


@dataclass(frozen=True)
class Metric:
    """One metric's value, its 95 % interval and the games it rests on."""

    name: str
    value: float | None
    lo: float | None
    hi: float | None
    n: int

    @property
    def anchor(self) -> str:
        return METRICS[self.name][0]

    def __str__(self) -> str:
        if self.value is None:
            return "—"
        return f"{self.value:.3f} [{self.lo:.3f}, {self.hi:.3f}]"


def score(row: Mapping[str, Any], seat: int) -> float:
    """A seat's score in one game: 1 a win, 1/n a draw of n players, 0 a loss."""
    if row["winner"] is None:
        return 1 / len(row["returns"])
    return 1.0 if row["winner"] == seat else 0.0


def _share(name: str, k: float, n: int) -> Metric:
    if n == 0:
        return Metric(name, None, None, None, 0)
    lo, hi = wilson(k, n)
    return Metric(name, k / n, lo, hi, n)


def mean_metric(name: str, xs: Sequence[float]) -> Metric:
    n = len(xs)
    if n == 0:
        return Metric(name, None, None, None, 0)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return Metric(name, m, m - half, m + half, n)


def _bootstrap(name: str, rows: Sequence[Any], stat: Callable[[Sequence[Any]], float | None],
               rounds: int = 1000, seed: int = 0) -> Metric:
    """``stat`` of the rows, with a percentile bootstrap interval over them."""
    n = len(rows)
    value = stat(rows) if n else None
    if value is None:
        return Metric(name, None, None, None, n)
    rng = random.Random(seed)
    draws = sorted(x for x in (stat([rows[rng.randrange(n)] for _i in range(n)]) for _r in range(rounds))
                   if x is not None)
    lo, hi = draws[int(0.025 * len(draws))], draws[min(len(draws) - 1, int(0.975 * len(draws)))]
    return Metric(name, value, lo, hi, n)


def _balance(rows: Sequence[Mapping[str, Any]]) -> float:
    seats = len(rows[0]["returns"])
    wins = [sum(1 for r in rows if r["winner"] == i) / len(rows) for i in range(seats)]
    return 1 - (max(wins) - min(wins))


def _sd(xs: Sequence[float]) -> float | None:
    if len(xs) < 2:
        return None
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _luck(rows: Sequence[Mapping[str, Any]]) -> Metric:
    pairs = [(float(r["deal_value"]), float(r["result"])) for r in rows if r.get("deal_value") is not None]
    n = len(pairs)
    if n < 4:
        return Metric("luck", None, None, None, n)
    xs, ys = zip(*pairs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return Metric("luck", 0.0 if syy == 0 or sxx == 0 else None, 0.0, 1.0, n)
    r = max(-0.999999, min(0.999999, sxy / math.sqrt(sxx * syy)))
    z, half = math.atanh(r), 1.96 / math.sqrt(n - 3)
    lo, hi = math.tanh(z - half), math.tanh(z + half)
    squares = (0.0 if lo <= 0 <= hi else min(lo * lo, hi * hi), max(lo * lo, hi * hi))
    return Metric("luck", r * r, squares[0], squares[1], n)


def game_metrics(rows: Sequence[Mapping[str, Any]], *, has_limit: bool = False) -> dict[str, Metric]:
    """The self-play metrics (every one of :data:`METRICS` but the skill
    pair) of the rows of one option point (rows with an ``error`` are left out)."""
    rows = [r for r in rows if not r.get("error")]
    n = len(rows)
    firsts = [r for r in rows if r.get("first") is not None]
    natural = sum(1 for r in rows if r["winner"] is None and not r.get("limit_draw"))
    limits = sum(1 for r in rows if r.get("limit_draw"))
    rates = [r["lead_changes"] / (r["evaluations"] - 1) for r in rows
             if r.get("lead_changes") is not None and r["evaluations"] > 1]
    out = [
        _share("seat_score", sum(score(r, 0) for r in rows), n),
        _share("first_score", sum(score(r, r["first"]) for r in firsts), len(firsts)),
        _bootstrap("balance", rows, _balance),
        _share("drawishness", natural, n),
        _share("limit_draws", limits, n) if has_limit else Metric("limit_draws", None, None, None, n),
        mean_metric("lead_change", rates),
        mean_metric("decisiveness", [r["decided_at"] for r in rows if r.get("decided_at") is not None]),
        mean_metric("duration", [r["decisions"] for r in rows]),
        _bootstrap("duration_sd", [r["decisions"] for r in rows], _sd),
        mean_metric("transitions", [r["transitions"] for r in rows]),
        _bootstrap("branching", rows, lambda rs: sum(r["branching"] for r in rs) / max(1, sum(r["decisions"] for r in rs))),
        _luck(rows),
    ]
    return {m.name: m for m in out}


def skill_metrics(rows: Sequence[Mapping[str, Any]], strong: str, weak: str) -> dict[str, Metric]:
    """``skill`` and ``skill_elo`` from games of ``strong`` against ``weak``
    (the stronger's seat is the one its label holds in ``agents``)."""
    from ..ratings import elo

    rows = [r for r in rows if not r.get("error")]
    points = sum(score(r, r["agents"].index(strong)) for r in rows)
    n = len(rows)
    out = {"skill": _share("skill", points, n)}
    if n:
        ratings = elo({(strong, weak): (points, n)}, anchor=weak, prior=1)
        r = ratings[strong]
        out["skill_elo"] = Metric("skill_elo", r.rating, r.lo, r.hi, n)
    else:
        out["skill_elo"] = Metric("skill_elo", None, None, None, 0)
    return out

