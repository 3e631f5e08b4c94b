"""Every position a player cannot tell from the true one, with its probability.

A game with hidden cards describes what one player cannot see with
:meth:`cardlab.State.hidden`: the unseen cards and the places they fill.
From that, :func:`arrangements` lists every filling consistent with what the
player has seen (the same information set), each with its exact probability,
and :func:`sample_arrangement` draws one uniformly at random.  The fair hint
(:func:`cardlab.analyse` with ``player=``) averages over them: a single-dummy
analysis, computed only from what that player may know, each arrangement
solved as its :func:`open_hands_copy` (the same position with every card shown).

Both depend only on the player's information set, never on where the hidden
cards really are: the unseen cards are put in a canonical order first, and
the random draws are seeded from the information set.

>>> import cardlab
>>> s = cardlab.load("koinobori").new_initial_state(seed=3)
>>> arr = arrangements(s, 0, limit=10_000)
>>> sum(p for _, p in arr)
Fraction(1, 1)
>>> all(t.information_set(0) == s.information_set(0) for t, _ in arr)
True
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Iterator

from .core import Hidden, State
from .errors import CardlabError, TooLargeError
from .i18n import _

__all__ = ["arrangements", "count_fillings", "sample_arrangement", "information_rng", "open_hands_copy"]


def _key(card) -> tuple:
    return (type(card).__name__, card)


def _subsets(left: tuple[tuple, ...], i: int, size: int, after: tuple[int, ...] | None = None) -> Iterator[tuple]:
    """The distinct sub-multisets of ``size`` cards of ``left[i:]`` (``(card, count)`` pairs);
    ``after[j]`` is how many cards ``left[j:]`` holds (worked out once)."""
    if after is None:
        counts = [n for _, n in left]
        after = tuple(sum(counts[j:]) for j in range(len(counts) + 1))
    if size == 0:
        yield ()
        return
    if after[i] < size:  # not enough cards left: a dead end
        return
    card, have = left[i]
    for take in range(min(have, size), -1, -1):
        for rest in _subsets(left, i + 1, size - take, after):
            yield (card,) * take + rest


def _sequences(left: tuple[tuple, ...], size: int) -> Iterator[tuple]:
    """The distinct sequences of ``size`` cards drawn from ``left``."""
    if size == 0:
        yield ()
        return
    for j, (card, have) in enumerate(left):
        if have:
            fewer = left[:j] + ((card, have - 1),) + left[j + 1:]
            for rest in _sequences(fewer, size - 1):
                yield (card,) + rest


def _fillings(h: Hidden) -> Iterator[tuple[tuple[tuple, ...], int]]:
    """Every distinct filling of the places, with ``prod(c!)`` over the
    repeated cards inside unordered places (its weight is the inverse);
    independent groups (:attr:`Hidden.groups`) multiply."""
    groups = h.split()

    def rec(g: int, k: int, left: tuple[tuple, ...]) -> Iterator[tuple[tuple[tuple, ...], int]]:
        if k == len(groups[g][1]):  # this group is full: the next one, with its own cards
            if g + 1 == len(groups):
                yield (), 1
                return
            cards = groups[g + 1][0]
            yield from rec(g + 1, 0, tuple(sorted(Counter(cards).items(), key=lambda x: _key(x[0]))))
            return
        name, size = groups[g][1][k]
        ordered = name in h.ordered
        for part in (_sequences(left, size) if ordered else _subsets(left, 0, size)):
            taken = Counter(part)
            rest_left = tuple((c, n - taken.get(c, 0)) for c, n in left)
            den = 1 if ordered else math.prod(math.factorial(n) for n in taken.values())
            for rest, d in rec(g, k + 1, rest_left):
                yield (part,) + rest, den * d

    yield from rec(0, 0, tuple(sorted(Counter(groups[0][0]).items(), key=lambda x: _key(x[0]))))


def _distinct_count(h: Hidden) -> int | None:
    """How many fillings there are when no card repeats within a group
    (worked out, not listed); ``None`` when some card repeats."""
    total = 1
    for cards, places in h.split():
        if len(set(cards)) != len(cards):
            return None
        n = len(cards)
        for name, size in places:
            total *= math.perm(n, size) if name in h.ordered else math.comb(n, size)
            n -= size
    return total


def count_fillings(state: State, player: int, limit: int) -> int | None:
    """How many fillings of the hidden places there are (before checking
    them against what ``player`` saw), or ``None`` when more than ``limit``."""
    h = state.hidden(player)
    if h is None:
        return 1
    if (_distinct_count(h) or 0) > limit:
        return None
    n = 0
    for _filling in _fillings(h):
        n += 1
        if n > limit:
            return None
    return n


def _too_many(h: Hidden, limit: int, player: int) -> TooLargeError:
    return TooLargeError(_("more than {limit:,} arrangements of the {cards} cards player {player} cannot "
                           "see; raise the limit or sample them").format(limit=limit, cards=len(h.cards),
                                                                         player=player))


def arrangements(state: State, player: int, *, limit: int = 1000) -> list[tuple[State, Fraction]]:
    """Every position ``player`` cannot tell from ``state``, with its exact
    probability given what that player has seen (cards dealt at random).

    Raises :class:`~cardlab.TooLargeError` when there are more than
    ``limit`` fillings of the hidden places to look at.
    """
    h = state.hidden(player)
    if h is None:
        return [(state, Fraction(1))]
    if (_distinct_count(h) or 0) > limit:  # more than the limit, known without listing them
        raise _too_many(h, limit, player)
    seen = state.information_set(player)
    found: list[tuple[State, Fraction]] = []
    n = 0
    for contents, den in _fillings(h):
        n += 1
        if n > limit:
            raise _too_many(h, limit, player)
        t = h.build(contents)
        if t is not None and t.information_set(player) == seen:
            found.append((t, Fraction(1, den)))
    total = sum(w for _, w in found)
    if not found:  # pragma: no cover (the true position is always one of them)
        raise AssertionError(f"{state.game.name}: no arrangement matches what player {player} saw")
    return [(t, w / total) for t, w in found]


def information_rng(state: State, player: int, salt: str = "") -> random.Random:
    """A random stream seeded only from what ``player`` knows of ``state``
    (the same for every position that player cannot tell apart)."""
    text = f"{state.game!r}|{player}|{state.information_set(player)!r}|{salt}"
    return random.Random(hashlib.sha256(text.encode()).hexdigest())


def sample_arrangement(state: State, player: int, rng: random.Random, tries: int = 10_000,
                       check: bool = True) -> State:
    """One position ``player`` cannot tell from ``state``, drawn with its
    probability (the unseen cards shuffled in a canonical order and dealt to
    the places; a deal that contradicts what the player saw is drawn again).
    ``check=False``: the first deal that makes a position, whether or not it
    agrees with all the player saw (a last resort where none that agrees can
    be found)."""
    h = state.hidden(player)
    if h is None:
        return state
    seen = state.information_set(player)
    groups = [(sorted(cards, key=_key), places) for cards, places in h.split()]
    for _try in range(tries):
        contents = []
        for pool, places in groups:
            rng.shuffle(pool)
            i = 0
            for name, size in places:
                part = tuple(pool[i:i + size])
                contents.append(part if name in h.ordered else tuple(sorted(part, key=_key)))
                i += size
        t = h.build(tuple(contents))
        if t is not None and (not check or t.information_set(player) == seen):
            return t
    raise TooLargeError(_("{game}: no deal consistent with what player {player} saw in {tries:,} tries").format(
        game=state.game.name, player=player, tries=tries))


def open_hands_copy(state: State) -> State:
    """The same position in the game's open-hands variant (perfect information)."""
    game = state.game
    if game.spec.perfect_information:
        return state
    if "open_hands" not in game.OPTIONS:
        raise CardlabError(_("{game} has no open_hands option").format(game=game.name))
    open_game = game.__dict__.get("_open_game")
    if open_game is None:  # made once per game (a card file is read again to make it)
        open_game = game.__dict__["_open_game"] = game.with_options(open_hands=True)
    d = state.to_dict()
    d["options"] = open_game.options_dict()
    return open_game.state_from_dict(d)
