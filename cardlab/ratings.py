"""Elo ratings fitted to the results of a round robin.

:func:`elo` finds the ratings that make the games played most likely under
the Bradley–Terry model in Elo units: a player rated ``d`` points above
another is expected to score ``1 / (1 + 10 ** (-d / 400))`` of the points
against it (a draw counts half a point for each, as in chess).  This is the
maximum-likelihood fit of every game at once (not the running update of a
chess federation, which depends on the order of the games), so a round robin
gets one answer.  One player is the anchor, its rating fixed (``random`` at
0, say); the 95 % interval of every other rating comes from the Fisher
information of the fit (the curvature of the likelihood at its top), which
is the interval of that rating's difference from the anchor.

A player who won or lost every game has no finite best rating; ``prior``
adds that many virtual drawn games to every pairing that was played
(``prior=1`` changes a 100-game score of 75 % to 74.75 %), which keeps every
rating finite.

>>> r = elo({("a", "b"): (75, 100)}, anchor="b")
>>> round(r["a"].rating)
191
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from .errors import CardlabError
from .i18n import _

__all__ = ["Rating", "elo", "expected_score"]

#: Elo points per unit of the natural log-odds
SCALE = 400 / math.log(10)


@dataclass(frozen=True)
class Rating:
    """A fitted rating and its 95 % interval (``lo``, ``hi``); ``games``
    played, ``score`` the points won (a draw is half a point)."""

    player: str
    rating: float
    lo: float
    hi: float
    games: float
    score: float

    def __str__(self) -> str:
        return f"{self.rating:+.0f} [{self.lo:+.0f}, {self.hi:+.0f}]"


def expected_score(difference: float) -> float:
    """What a player rated ``difference`` points above another is expected to score."""
    return 1 / (1 + 10 ** (-difference / 400))


def _tables(results: Mapping[tuple[str, str], tuple[float, float]], prior: float):
    """The players (in order of first mention); per pair the games ``n``
    and the first player's points ``s`` (a pair given both ways is added
    up), the prior added; each player's games and points without it."""
    players: list[str] = []
    for pair, (points, games) in results.items():
        if len(pair) != 2 or pair[0] == pair[1]:
            raise CardlabError(_("a result is for two different players, not {pair}").format(pair=repr(pair)))
        if not 0 <= points <= games:
            raise CardlabError(_("points won must be between 0 and the games played: {pair} won {points} of "
                                 "{games}").format(pair=repr(pair), points=points, games=games))
        players += [p for p in pair if p not in players]
    k = len(players)
    n, s = np.zeros((k, k)), np.zeros((k, k))
    for (a, b), (points, games) in results.items():
        i, j = players.index(a), players.index(b)
        n[i, j] += games
        n[j, i] += games
        s[i, j] += points
        s[j, i] += games - points
    raw = (n.sum(axis=1), s.sum(axis=1))  # games and points, before the prior
    played = n > 0
    n[played] += prior
    s[played] += prior / 2
    return players, n, s, raw


def _connected(n: np.ndarray) -> bool:
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.nonzero(n[i])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == len(n)


def elo(results: Mapping[tuple[str, str], tuple[float, float]], *, anchor: str, anchor_rating: float = 0.0,
        prior: float = 0.0, z: float = 1.96) -> dict[str, Rating]:
    """Maximum-likelihood Elo ratings (see the module doc).

    ``results`` maps a pair ``(a, b)`` to ``(points, games)``: ``a`` won
    ``points`` of the ``games`` they played (wins plus half the draws).
    ``anchor`` is rated ``anchor_rating``.  Raises :class:`CardlabError`
    when the players do not all meet through some chain of games, or when a
    rating has no finite best value (a player who won or lost everything:
    give ``prior``).
    """
    players, n, s, (played, points) = _tables(results, prior)
    if anchor not in players:
        raise CardlabError(_("the anchor {anchor} played no game; the players are: {players}").format(
            anchor=repr(anchor), players=", ".join(players)))
    if not _connected(n):
        raise CardlabError(_("the players do not all meet through a chain of games; ratings cannot be compared"))
    wins = s.sum(axis=1)
    games = n.sum(axis=1)
    if any(w <= 0 or w >= g for w, g in zip(wins, games)):
        raise CardlabError(_("a player won or lost every game, so its rating has no finite value; give prior= "
                             "(virtual draws per pairing), for example prior=1"))
    a = players.index(anchor)
    free = [i for i in range(len(players)) if i != a]
    theta = np.zeros(len(players))  # natural log-strengths, the anchor's fixed at 0
    for _step in range(100):  # Newton's method on the concave log-likelihood
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i's expected score against j
        grad = (s - n * p).sum(axis=1)
        w = n * p * (1 - p)
        hess = np.diag(w.sum(axis=1)) - w  # minus the Hessian
        step = np.clip(np.linalg.solve(hess[np.ix_(free, free)], grad[free]), -2, 2)  # damped far from the top
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    w = n * p * (1 - p)
    cov = np.linalg.inv((np.diag(w.sum(axis=1)) - w)[np.ix_(free, free)])
    out = {}
    for i, name in enumerate(players):
        r = anchor_rating + SCALE * theta[i]
        half = 0.0 if i == a else z * SCALE * math.sqrt(cov[free.index(i), free.index(i)])
        out[name] = Rating(name, float(r), float(r - half), float(r + half), float(played[i]), float(points[i]))
    return out
