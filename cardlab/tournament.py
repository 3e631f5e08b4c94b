"""Class tournaments (issue W, item 5): who plays whom in each round, and
the standings.  Pure: names and results in, pairings and tables out.  The
rounds' rooms and their results live in the room store
(:mod:`cardlab.tournament_store`); the teacher's page shows them
(:mod:`cardlab.widgets.tournament`).

Two systems (:data:`SYSTEMS`):

- **round robin** (:func:`round_robin`): everyone plays everyone once, by
  the circle method.  With an odd number of pupils the odd seat is a bye
  (each pupil sits out once) or an agent at a chosen level, whom every
  pupil then plays once.
- **Swiss** (:func:`swiss_round`), over a chosen number of rounds: each
  round pairs pupils with the same or the nearest points, never the same
  two twice where another pairing avoids it; with an odd number, the bye
  goes to the lowest-placed pupil who has not had one (or an agent plays).

In both, seats are alternated: a pupil sits first (seat 0) about as often
as second, and never three times running where it can be avoided.

Points (:func:`points`): a win 1, a draw ½, a loss 0; a bye scores nothing
in a round robin (everyone has one) and 1 in a Swiss (as FIDE's pairing bye).
Standings (:func:`standings`): points; then Buchholz (Swiss,
:func:`buchholz`) or Sonneborn-Berger (round robin,
:func:`sonneborn_berger`); then head-to-head among those still tied
(:func:`head_to_head`); then name.

>>> rounds = round_robin(["Aiko", "Ben", "Chie", "Dai"])
>>> len(rounds), [len(r) for r in rounds]
(3, [2, 2, 2])
>>> rounds[0][0]
Pairing(first='Aiko', second='Dai', score=None)
>>> played = [[p.played(1) for p in r] for r in rounds]   # the first seat wins every game
>>> table = standings(["Aiko", "Ben", "Chie", "Dai"], played)
>>> [(s.name, show_points(s.points), show_points(s.tiebreak)) for s in table]
[('Chie', '2', '3'), ('Aiko', '2', '2'), ('Dai', '1', '2'), ('Ben', '1', '1')]

Chie and Aiko have 2 points each; Chie beat Aiko and Ben (1 + 2 points:
Sonneborn-Berger 3), Aiko beat Ben and Dai (1 + 1: 2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Sequence

from .errors import CardlabError
from .i18n import N_, _

__all__ = ["SYSTEMS", "BYE_POINTS", "Pairing", "Standing", "TournamentError", "check_system", "entrants", "round_robin",
           "swiss_round", "seats", "seat_due", "points", "buchholz", "sonneborn_berger", "head_to_head",
           "standings", "show_points"]

#: the systems, as stored, with the words a page shows them in
SYSTEMS = {"round_robin": N_("round robin"), "swiss": N_("Swiss")}
#: what a bye scores: nothing in a round robin (every pupil has one when they are odd), 1 in a Swiss
BYE_POINTS = {"round_robin": Fraction(0), "swiss": Fraction(1)}
WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


class TournamentError(CardlabError, ValueError):
    """A tournament that cannot be made or go on (too few pupils, a name twice, a round not over)."""


@dataclass(frozen=True)
class Pairing:
    """One game of a round: who sits first (seat 0) and second (``None``:
    ``first`` has a bye), and the first's points once it is played
    (``score``: 1, ½ or 0; ``None`` while it goes on)."""

    first: str
    second: str | None
    score: Fraction | None = None

    @property
    def bye(self) -> bool:
        return self.second is None

    def played(self, score: Fraction | int | str) -> "Pairing":
        """The same pairing with the first's points (``1``, ``"1/2"``, ``0``)."""
        score = Fraction(score)
        if score not in (WIN, DRAW, LOSS):
            raise TournamentError(_("a game scores 1, 1/2 or 0 for the first seat, not {score}").format(score=score))
        return replace(self, score=score)

    def of(self, name: str) -> Fraction | None:
        """``name``'s points from this game (``None``: not theirs, or not played yet; a bye: ``None``)."""
        if self.score is None or self.second is None:
            return None
        if name == self.first:
            return self.score
        return WIN - self.score if name == self.second else None

    def opponent(self, name: str) -> str | None:
        return self.second if name == self.first else (self.first if name == self.second else None)


@dataclass(frozen=True)
class Standing:
    """A row of the standings: the place (``rank``, 1 first), the name,
    the points, the second tie-break (Buchholz or Sonneborn-Berger), the
    points against those tied with them (head-to-head), games played,
    won, drawn, lost, byes, and whether this entrant is an agent."""

    rank: int
    name: str
    points: Fraction
    tiebreak: Fraction
    head_to_head: Fraction
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    agent: bool = False


def check_system(system: str) -> str:
    """``system`` if it is one of :data:`SYSTEMS`; else :class:`TournamentError` naming them."""
    if system not in SYSTEMS:
        raise TournamentError(_("the systems are {systems}, not {system}").format(
            systems=", ".join(SYSTEMS), system=repr(system)))
    return system


def entrants(names: Sequence[str], agent: str | None = None) -> list[str]:
    """The tournament's pupils from the names typed (blank lines dropped,
    a name twice once), at least two; ``agent`` (a level's name, who takes
    the odd seat) may not be a pupil's name."""
    kept = list(dict.fromkeys(n.strip() for n in names if n.strip()))
    if len(kept) < 2:
        raise TournamentError(_("a tournament needs two pupils or more; got {n}").format(n=len(kept)))
    if agent is not None and agent in kept:
        raise TournamentError(_("a pupil is called {name}, like the agent of the odd seat: rename them")
                              .format(name=repr(agent)))
    return kept


# -- round robin --------------------------------------------------------------------------
def round_robin(names: Sequence[str], odd: str | None = None) -> list[list[Pairing]]:
    """Every round of a round robin, by the circle method: the first name
    stays, the others turn one place a round, and place ``i`` plays place
    ``n-1-i``; every two pupils meet exactly once.  With an odd number,
    ``odd`` (an agent's name) takes the extra place, or a bye when ``None``.
    Seats (Berger's rule): the first place's game alternates seats round
    by round; in the others the upper place sits first in odd places;
    everyone sits first as often as second, give or take one."""
    ring: list[str | None] = list(names)
    if len(ring) % 2:
        ring.insert(0, odd)  # the fixed place: the bye (or the agent) alternates seats, nobody minds
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        rest = ring[1:]
        k = r % (n - 1)
        turned = [ring[0]] + (rest[-k:] + rest[:-k] if k else rest)
        games = []
        for i in range(n // 2):
            a, b = turned[i], turned[n - 1 - i]
            if (r % 2 == 1) if i == 0 else (i % 2 == 1):
                a, b = b, a
            games.append(_pairing(a, b))
        rounds.append(sorted(games, key=lambda p: p.bye))  # the bye last
    return rounds


def _pairing(a: str | None, b: str | None) -> Pairing:
    """``a`` against ``b`` (``None``: the other has a bye)."""
    if a is None:
        return Pairing(b, None)
    return Pairing(a, b)


# -- Swiss ---------------------------------------------------------------------------------
#: the costs of a Swiss pairing, each tier above all the tiers below it can add up to (up to 60 pupils, 30 rounds)
_REMATCH, _MUST_SEAT, _BYE_PLACE, _SCORE, _SEAT, _PLACE = 10**19, 10**16, 10**13, 10**6, 10**4, 1
_BYE = ("bye",)  # the bye's place in the matching (a tuple: no name is one)


def seat_due(history: Sequence[int]) -> int:
    """Which seat a pupil is due next and how much, from their seats so far
    (``history``: +1 first, -1 second, byes left out): positive wants
    first, negative second; 3 must (first twice more than second, or the
    same seat the last two games), 2 should (once more), 1 would rather
    (the other seat than last time), 0 either."""
    if not history:
        return 0
    balance, last = sum(history), history[-1]
    away = -1 if balance > 0 else 1  # the seat that evens the balance
    if abs(balance) >= 2:
        return 3 * away
    if len(history) >= 2 and history[-2] == last:
        return -3 * last
    return 2 * away if balance else -last


def seats(a: str, b: str, due: dict[str, int], place: dict[str, int], round_number: int) -> Pairing:
    """Who of ``a`` and ``b`` sits first: the one due first more (:func:`seat_due`);
    when they are due alike, the higher placed (lower ``place``) has their
    wish, and with no wish sits first in odd rounds."""
    da, db = due.get(a, 0), due.get(b, 0)
    if da != db:
        return Pairing(a, b) if da > db else Pairing(b, a)
    high, low = (a, b) if place[a] < place[b] else (b, a)
    wants_first = da > 0 or (da == 0 and round_number % 2 == 1)
    return Pairing(high, low) if wants_first else Pairing(low, high)


def _history(names: Sequence[str], played: Sequence[Sequence[Pairing]]) -> tuple[dict, dict, dict]:
    """Each pupil's opponents met (with how often), their seats (+1/-1) and byes, from the rounds played."""
    met: dict[str, dict[str, int]] = {n: {} for n in names}
    sat: dict[str, list[int]] = {n: [] for n in names}
    byes = {n: 0 for n in names}
    for rnd in played:
        for p in rnd:
            if p.second is None:
                byes[p.first] += 1
                continue
            met[p.first][p.second] = met[p.first].get(p.second, 0) + 1
            met[p.second][p.first] = met[p.second].get(p.first, 0) + 1
            sat[p.first].append(1)
            sat[p.second].append(-1)
    return met, sat, byes


def swiss_round(names: Sequence[str], played: Sequence[Sequence[Pairing]], *,
                agent: str | None = None) -> list[Pairing]:
    """The next round of a Swiss after the rounds ``played``: the pairing
    of least cost (a perfect matching of least weight, networkx's
    blossom), the costs in this order, each outweighing all below it: a
    rematch (a bye twice), a pupil in the seat they must not have again
    (:func:`seat_due` 3), a bye above the lowest-placed pupil without one
    (with an odd number), the difference in points (squared), two pupils
    due the same seat, and the distance in places (so 1st meets 2nd in a
    group on equal points).  Places: points, then the order of ``names``.
    ``agent``: an entrant who takes any seat (no seat due)."""
    import networkx as nx

    names = list(names)
    pts = {n: points(n, played, BYE_POINTS["swiss"]) for n in names}
    order = sorted(names, key=lambda n: (-pts[n], names.index(n)))
    place: dict = {n: i for i, n in enumerate(order)}
    met, sat, byes = _history(names, played)
    due = {n: 0 if n == agent else seat_due(sat[n]) for n in names}
    nodes: list = order + ([_BYE] if len(order) % 2 else [])
    place[_BYE], pts[_BYE] = len(order), Fraction(0)

    def cost(a, b) -> int:
        if b is _BYE:  # the pupils without a bye placed below ``a`` would rather have it
            rematch = byes[a]
            above = _BYE_PLACE * sum(byes[x] == 0 and place[x] > place[a] for x in order)
        else:
            rematch, above = met[a].get(b, 0), 0
        clash = due.get(a, 0) * due.get(b, 0) > 0  # both due the same seat
        worst = min(abs(due.get(a, 0)), abs(due.get(b, 0))) if clash else 0
        return (_REMATCH * rematch + _MUST_SEAT * (worst == 3) + above + _SCORE * int(2 * (pts[a] - pts[b])) ** 2
                + _SEAT * worst * (worst < 3) + _PLACE * abs(place[a] - place[b]))

    graph = nx.Graph()
    top = _REMATCH * (len(played) + 2)  # every pair weighs more than nothing: the matching is perfect
    for a, b in combinations(nodes, 2):
        graph.add_edge(a, b, weight=top - cost(a, b))
    matched = sorted((sorted(pair, key=place.__getitem__) for pair in nx.max_weight_matching(graph, True)),
                     key=lambda pair: place[pair[0]])
    round_number = len(played) + 1
    games = [Pairing(a, None) if b is _BYE else seats(a, b, due, place, round_number) for a, b in matched]
    return sorted(games, key=lambda p: p.bye)


# -- points and tie-breaks -------------------------------------------------------------------
def points(name: str, rounds: Sequence[Sequence[Pairing]], bye: Fraction = Fraction(0)) -> Fraction:
    """``name``'s points: a win 1, a draw ½, a loss 0 (games not over yet:
    nothing), a bye ``bye`` (:data:`BYE_POINTS`)."""
    total = Fraction(0)
    for rnd in rounds:
        for p in rnd:
            if p.bye and p.first == name:
                total += bye
            elif p.of(name) is not None:
                total += p.of(name)
    return total


def buchholz(name: str, rounds: Sequence[Sequence[Pairing]], pts: dict[str, Fraction]) -> Fraction:
    """Buchholz (the Swiss tie-break): the sum of the points (``pts``) of
    every opponent ``name`` has played (a game over; a bye adds nothing)."""
    return sum((pts[p.opponent(name)] for rnd in rounds for p in rnd if p.of(name) is not None), Fraction(0))


def sonneborn_berger(name: str, rounds: Sequence[Sequence[Pairing]], pts: dict[str, Fraction]) -> Fraction:
    """Sonneborn-Berger (the round robin's tie-break): the points (``pts``)
    of every opponent ``name`` beat, and half those of every opponent they drew with."""
    return sum((p.of(name) * pts[p.opponent(name)] for rnd in rounds for p in rnd if p.of(name) is not None),
               Fraction(0))


def head_to_head(name: str, tied: Sequence[str], rounds: Sequence[Sequence[Pairing]]) -> Fraction:
    """Head-to-head: ``name``'s points from the games against the others
    in ``tied`` (those level with them on points and the second tie-break)."""
    return sum((p.of(name) for rnd in rounds for p in rnd
                if p.of(name) is not None and p.opponent(name) in tied and p.opponent(name) != name), Fraction(0))


def standings(names: Sequence[str], rounds: Sequence[Sequence[Pairing]], system: str = "round_robin", *,
              agent: str | None = None) -> list[Standing]:
    """The table: points (:func:`points`), then :func:`buchholz` (Swiss)
    or :func:`sonneborn_berger` (round robin), then :func:`head_to_head`
    among those still level, then name (alphabetical, ignoring case).
    ``agent``: the entrant who is an agent (ranked like a pupil, marked)."""
    check_system(system)
    names = list(names) + ([agent] if agent is not None and agent not in names else [])
    pts = {n: points(n, rounds, BYE_POINTS[system]) for n in names}
    second = buchholz if system == "swiss" else sonneborn_berger
    tb = {n: second(n, rounds, pts) for n in names}
    level = {}
    for n in names:
        tied = [m for m in names if (pts[m], tb[m]) == (pts[n], tb[n])]
        level[n] = head_to_head(n, tied, rounds)
    order = sorted(names, key=lambda n: (-pts[n], -tb[n], -level[n], n.casefold(), n))
    rows = []
    for rank, n in enumerate(order, 1):
        mine = [p.of(n) for rnd in rounds for p in rnd if p.of(n) is not None]
        rows.append(Standing(rank, n, pts[n], tb[n], level[n], len(mine), mine.count(WIN), mine.count(DRAW),
                             mine.count(LOSS), sum(p.bye and p.first == n for rnd in rounds for p in rnd),
                             n == agent))
    return rows


def show_points(x: Fraction) -> str:
    """Points as a table shows them: ``2``, ``½``, ``1½``.

    >>> [show_points(Fraction(k, 2)) for k in range(4)]
    ['0', '½', '1', '1½']
    """
    whole, half = divmod(Fraction(x) * 2, 2)
    if half == 0:
        return str(int(whole))
    return ("" if whole == 0 else str(int(whole))) + "½"
