"""Exact where it can be: the first player's value under best play with open
hands over **every** deal, as an exact distribution, and the equilibrium
value of the smallest hidden-card variants.

A *deal* is what chance decides before the next decision: from a game's
start, every chance event until the first player chooses (the cards dealt,
a coin for the first player); from a later position (``position=``), the
chance events it waits on (a card to draw).  :func:`deal_values` lists them
all with their exact probabilities (:meth:`cardlab.State.chance_outcomes`:
Fractions; equal positions reached by different draws are merged, their
probabilities added), solves each with every card shown
(:func:`cardlab.solve`, ``open_hands=True``), and returns the distribution
of seat 0's value: ``{value: probability}``, Fractions both.  Its mean is
the value of the whole game (or position) with open hands.

Small enough: mipig with ``hand_size=1`` (1,200 deals, a second), Koi-koi
Nobori with a 10-card deck (19 deals) or ``deck="short"`` (534 deals, under
a minute).  Mazemon's decks hold 10 cards (MZ-1) and Toritsuki's at least
30 (TK-1): no option makes a whole game small, so their exact figures are
of endgames (:func:`endgame`: the earliest chance position of a seeded game
from which every deal solves within a budget).

:func:`equilibrium_value` is the value of the hidden-card game itself (each
player sees only their own cards) by :func:`cardlab.equilibrium.solve_equilibrium`:
Koi-koi Nobori with the 10-card deck, mipig with two fixed hands of two cards.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from ..core import CHANCE, State, sample_chance
from ..errors import CardlabError, TooLargeError
from ..games import load
from ..i18n import _

__all__ = ["DealValues", "deals", "deal_values", "endgame", "equilibrium_value", "open_game"]

#: the most deals :func:`deal_values` lists by default
MAX_DEALS = 20_000


@dataclass(frozen=True)
class DealValues:
    """Seat 0's open-hands value over every deal: ``distribution`` maps each
    value to its exact probability; ``deals`` the distinct positions
    solved; ``mean`` the expected value; ``win``/``draw``/``loss`` the
    probability that seat 0's value is above, at, below 0; ``first`` the
    expected value of whoever moves first on their own (``None`` where a
    simultaneous choice starts the play: mipig's janken)."""

    game: str
    options: dict
    distribution: dict
    deals: int
    nodes: int
    seconds: float
    first: Fraction | None

    @property
    def mean(self) -> Fraction:
        return sum((v * p for v, p in self.distribution.items()), Fraction(0))

    @property
    def win(self) -> Fraction:
        return sum((p for v, p in self.distribution.items() if v > 0), Fraction(0))

    @property
    def draw(self) -> Fraction:
        return self.distribution.get(Fraction(0), Fraction(0))

    @property
    def loss(self) -> Fraction:
        return sum((p for v, p in self.distribution.items() if v < 0), Fraction(0))

    def __str__(self) -> str:
        return _("{game}: seat 0's open-hands value over all {deals:,} deals: mean {mean} (≈ {approx:+.4f}); "
                 "P(ahead) {win}, P(level) {draw}, P(behind) {loss}").format(
            game=self.game, deals=self.deals, mean=self.mean, approx=float(self.mean), win=self.win,
            draw=self.draw, loss=self.loss)


def open_game(game: str, options: Mapping[str, Any] | None = None):
    """The game with every card shown (``open_hands=True``)."""
    return load(game, **{**dict(options or {}), "open_hands": True})


def deals(position: State, *, max_deals: int = MAX_DEALS) -> dict[State, Fraction]:
    """Every position the chance events from ``position`` lead to before the
    next decision (or the end), with its exact probability; equal positions merged."""
    frontier: dict[State, Fraction] = {position: Fraction(1)}
    while any(s.current_player == CHANCE for s in frontier):
        new: dict[State, Fraction] = {}
        for s, p in frontier.items():
            if s.current_player != CHANCE:
                new[s] = new.get(s, Fraction(0)) + p
                continue
            for a, q in s.chance_outcomes():
                c = s._apply(a)
                new[c] = new.get(c, Fraction(0)) + p * q
        if len(new) > max_deals:
            raise TooLargeError(_("more than max_deals={limit:,} deals; take a smaller variant (fewer cards) or "
                                  "a later position, or raise max_deals").format(limit=max_deals))
        frontier = new
    return frontier


def _first_mover(s: State) -> int | None:
    return None if s.is_terminal() or s.simultaneous() or s.simultaneous_start() is not None else s.current_player


def deal_values(game: str, options: Mapping[str, Any] | None = None, *, position: State | None = None,
                viewer: int | None = None, max_deals: int = MAX_DEALS,
                max_nodes: int | None = 2_000_000) -> DealValues:
    """Seat 0's open-hands value over every deal (see the module doc).
    ``position`` starts from there instead of the game's start; with
    ``viewer``, the deals are the arrangements of the cards ``viewer`` cannot
    see there (:func:`cardlab.hidden.arrangements`: every deal that agrees
    with what that player has seen, with its exact probability), not chance
    events to come.  Raises :class:`~cardlab.TooLargeError` past
    ``max_deals`` deals or a deal past ``max_nodes`` positions."""
    from ..hidden import arrangements, open_hands_copy
    from ..solve import solve

    start = time.perf_counter()
    g = open_game(game, options)
    if viewer is not None:
        if position is None:
            raise CardlabError(_("viewer= needs a position= (the deals that agree with what the viewer saw there)"))
        found: dict[State, Fraction] = {}
        for a, p in arrangements(position, viewer, limit=max_deals):
            o = open_hands_copy(a)
            found[o] = found.get(o, Fraction(0)) + p
    else:
        found = deals(g.new_initial_state() if position is None else open_hands_copy(position), max_deals=max_deals)
    dist: dict[Fraction, Fraction] = {}
    nodes, first, known = 0, Fraction(0), g.spec.num_players == 2
    for s, p in found.items():
        if s.is_terminal():
            v = Fraction(s.returns()[0])
        else:
            sol = solve(s, max_nodes=max_nodes, progress=False)
            v, nodes = Fraction(sol.value), nodes + sol.nodes
        dist[v] = dist.get(v, Fraction(0)) + p
        mover = _first_mover(s)
        known = known and (mover is not None or s.is_terminal())
        first += p * (v if mover in (0, None) else -v)
    return DealValues(game, dict(options or {}), dict(sorted(dist.items())), len(found), nodes,
                      time.perf_counter() - start, first if known else None)


def _solves(found: Any, max_nodes: int) -> bool:
    from ..hidden import open_hands_copy
    from ..solve import solve

    try:
        for d in found:
            if not d.is_terminal():
                solve(open_hands_copy(d), max_nodes=max_nodes, progress=False)
    except TooLargeError:
        return False
    return True


def endgame(game: str, options: Mapping[str, Any] | None = None, *, seed: int = 0, max_deals: int = 200,
            max_nodes: int = 200_000) -> tuple[State, int | None]:
    """A small "variant" of a game no option makes small (Mazemon,
    Toritsuki): a position of a seeded game (heuristic agents) and a
    ``viewer`` for :func:`deal_values`.  The earliest chance position from
    which every deal solves within ``max_deals`` deals and ``max_nodes``
    positions each (viewer ``None``); failing that (Mazemon deals everything
    at its start), the earliest decision at which every arrangement of the
    cards its mover cannot see solves so (viewer: the mover)."""
    from ..agents import HeuristicAgent
    from ..hidden import arrangements, open_hands_copy

    g = load(game, **dict(options or {}))
    rng = random.Random(seed)
    agent = HeuristicAgent(seed=rng.randrange(2**32))
    s, path = g.new_initial_state(), []
    while not s.is_terminal():
        path.append(s)
        s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else agent.choose(s))
    for c in path:
        if c.current_player == CHANCE:
            try:
                if _solves(deals(open_hands_copy(c), max_deals=max_deals), max_nodes):
                    return c, None
            except (TooLargeError, CardlabError):
                continue
    for c in path:
        if c.current_player >= 0 and not g.spec.perfect_information:
            try:
                found = [a for a, _p in arrangements(c, c.current_player, limit=max_deals)]
            except TooLargeError:
                continue
            if _solves(found, max_nodes):
                return c, c.current_player
    raise CardlabError(_("{game}: no position of the game of seed {seed} solves within the budget").format(
        game=game, seed=seed))


def equilibrium_value(game: str, options: Mapping[str, Any] | None = None, *,
                      max_nodes: int = 200_000) -> Fraction:
    """Seat 0's value of the hidden-card game from its start (every deal,
    each player seeing only their own cards), exactly, by the sequence-form
    LP (:func:`cardlab.equilibrium.solve_equilibrium`); raises
    :class:`~cardlab.TooLargeError` for a variant too large for it."""
    from ..equilibrium import solve_equilibrium

    g = load(game, **dict(options or {}))
    return Fraction(solve_equilibrium(g.new_initial_state(), max_nodes=max_nodes).value)
