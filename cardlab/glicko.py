"""Glicko-2 ratings: a pupil's and a puzzle's rating after each attempt.

Mark Glickman's Glicko-2 system ("Example of the Glicko-2 system",
http://www.glicko.net/glicko/glicko2.pdf): a rating ``mu``, a rating
deviation ``rd`` (how unsure the rating is) and a volatility ``vol`` (how
much the rating is expected to move), updated once per *rating period* from
the games played in it.  A puzzle attempt counts as a game between the pupil
and the puzzle: solving it is a win for the pupil (1), failing it a win for
the puzzle (0), as lichess rates its puzzles.

:func:`update` is the paper's steps 1-8 (step 5's volatility by the Illinois
algorithm the paper gives); :func:`attempt` rates one attempt both ways.  It
is a small pure-Python implementation checked against the paper's worked
example (``tests/test_puzzles.py``); the ``glicko2`` package on PyPI has not
been released since 2024 and would be one more dependency for 150 lines.

>>> r = update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)])
>>> round(r.rating, 2), round(r.rd, 2), round(r.vol, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .errors import CardlabError
from .i18n import _

__all__ = ["Glicko", "update", "attempt", "TAU", "SCALE", "START"]

#: the system constant: how much the volatility may change (the paper
#: suggests 0.3 to 1.2; its example uses 0.5)
TAU = 0.5
#: Glicko-2's scale: 173.7178 rating points per unit (400 / ln 10)
SCALE = 400 / math.log(10)
#: a new player's rating, deviation and volatility (the paper's defaults)
START = (1500.0, 350.0, 0.06)
#: step 5's convergence tolerance
EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating: ``rating`` (1500 a newcomer), ``rd`` (its
    deviation, 350 a newcomer) and ``vol`` (its volatility)."""

    rating: float = START[0]
    rd: float = START[1]
    vol: float = START[2]

    def __post_init__(self) -> None:
        for name in ("rating", "rd", "vol"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise CardlabError(_("a Glicko rating's {field} must be a finite number, not {value}").format(
                    field=name, value=repr(value)))
        if self.rd <= 0 or self.vol <= 0:
            raise CardlabError(_("a Glicko rating's deviation and volatility must be positive, not rd={rd} "
                                 "vol={vol}").format(rd=self.rd, vol=self.vol))

    @property
    def mu(self) -> float:
        return (self.rating - 1500) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE

    def to_dict(self) -> dict[str, float]:
        return {"rating": self.rating, "rd": self.rd, "vol": self.vol}

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {2 * self.rd:.0f}"


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, vol: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility (the Illinois algorithm of the paper)."""
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    return math.exp(big_a / 2)


def update(player: Glicko, games: Iterable[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player``'s rating after one rating period in which it played
    ``games``: ``(opponent, score)`` pairs, score 1 a win, 0 a loss, 0.5 a
    draw.  No games: only the deviation grows (step 6)."""
    games = list(games)
    for _opponent, score in games:
        if not (isinstance(score, (int, float)) and 0 <= score <= 1):
            raise CardlabError(_("a game's score is 0 (a loss), 0.5 (a draw) or 1 (a win), not {score}").format(
                score=repr(score)))
    mu, phi = player.mu, player.phi
    if not games:
        return Glicko(player.rating, SCALE * math.sqrt(phi * phi + player.vol ** 2), player.vol)
    v_inv = 0.0
    total = 0.0
    for opp, score in games:
        g = _g(opp.phi)
        e = _expected(mu, opp.mu, opp.phi)
        v_inv += g * g * e * (1 - e)
        total += g * (score - e)
    v = 1 / v_inv
    vol = _volatility(phi, player.vol, v, v * total, tau)
    phi_star = math.sqrt(phi * phi + vol * vol)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * total
    return Glicko(1500 + SCALE * new_mu, SCALE * new_phi, vol)


def attempt(pupil: Glicko, puzzle: Glicko, solved: bool, tau: float = TAU) -> tuple[Glicko, Glicko]:
    """The pupil's and the puzzle's ratings after one attempt (a game the
    pupil wins by solving the puzzle), each rated against the other's
    rating from before the attempt."""
    score = 1.0 if solved else 0.0
    return update(pupil, [(puzzle, score)], tau), update(puzzle, [(pupil, 1 - score)], tau)
