"""Issue X: the exact search on words (:mod:`cardlab.wsearch`) on every game that has a word
core, not only mipig (``tests/test_word_search.py``): on late positions of seeded games
with open hands it gives today's :class:`cardlab.search.Search` value and searches the same
tree (the same node, table-hit and table-entry counts), and a node budget stops it at the
same node with the same error.

Runs in both builds, like ``tests/test_word_search.py``: as installed (``pip install -e .``
compiles the word cores and the word search) and with ``CARDLAB_PURE=1`` (``make test``
runs both; the ``.py`` files run as Python)."""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab import CHANCE, TooLargeError
from cardlab.builds import import_typed
from cardlab.core import sample_chance
from cardlab.search import Search

wsearch = import_typed("cardlab.wsearch")

#: game -> (options, steps back from the end, seeds): positions of 5 to 9,000 nodes
CASES = {
    "koinobori": ({}, 8, range(6)),
    "mazemon": ({}, 10, range(6)),
    "monster_cards": ({"players": 2}, 6, (0, 3)),
    "toritsuki": ({}, 6, (0, 1, 2, 3, 5)),
}
GAMES = [g for g in CASES if getattr(cardlab.games.CATALOGUE[g], "wcore", None) is not None]


def late(game, seed: int, back: int):
    """The state ``back`` steps before the end of a seeded random game (chance drawn by its
    probabilities)."""
    rng, s, line = random.Random(seed), game.new_initial_state(seed=seed), []
    while not s.is_terminal():
        line.append(s)
        s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    return line[max(0, len(line) - back)]


def counts(search, state):
    return search.exact(state), search.nodes, search.hits, search.entries()


@pytest.mark.parametrize("name", GAMES)
def test_X_word_search_gives_todays_value_and_tree(name):
    """KN, MZ, MC, TK endgames (chance nodes included: draws, steals, reveals): the value,
    nodes, table hits and entries of today's search."""
    options, back, seeds = CASES[name]
    game = cardlab.load(name, open_hands=True, **options)
    nodes = 0
    for seed in seeds:
        state = late(game, seed, back)
        got = wsearch.word_search(game, progress=False)
        assert isinstance(got, wsearch.WordSearch), name
        want = counts(Search(game, progress=False), state)
        assert counts(got, state) == want, (name, seed)
        nodes += want[1]
    assert nodes > 50  # searches, not only leaves


@pytest.mark.parametrize("name", GAMES)
def test_X_word_search_budget_stops_where_todays_does(name):
    """The node budget: the same TooLargeError at the same node count."""
    options, back, seeds = CASES[name]
    game = cardlab.load(name, open_hands=True, **options)
    state = late(game, seeds[0], back + 4)
    errors = []
    for search in (Search(game, max_nodes=40, progress=False), wsearch.word_search(game, max_nodes=40, progress=False)):
        with pytest.raises(TooLargeError) as e:
            search.exact(state)
        errors.append((str(e.value), search.nodes))
    assert errors[0] == errors[1]
