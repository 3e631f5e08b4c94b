"""Issue X: the exact search on mipig's word core (``cardlab/wsearch.py``,
Cython's pure-Python mode) gives ``cardlab.solve``'s value, and searches the same tree
as today's :class:`cardlab.search.Search` (the same node, table-hit and table-entry
counts), on the yardstick's open deals (3 and 4 cards each), the reference positions
and random late positions of several option sets (chance: the deal, the coin; the
jankens' matrix games; Fractions), with the same budget error.

Runs in both builds, like ``tests/test_compiled_wiring.py``: as installed (``pip install
-e .`` compiles it; ``CARDLAB_EXPECT_COMPILED=1`` fails the run if it is not compiled)
and with ``CARDLAB_PURE=1`` (the ``.py`` runs as Python)."""

from __future__ import annotations

import importlib
import json
import os
import random
from fractions import Fraction
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL, TooLargeError
from cardlab.builds import import_typed
from cardlab.core import sample_chance
from cardlab.cores import core_of
from cardlab.games.mipig import wcore
from cardlab.search import Search
from test_compiled_agreement import without_cython

wsearch = import_typed("cardlab.wsearch")
solve_module = importlib.import_module("cardlab.solve")  # (cardlab.solve is the function)
REFERENCE = json.loads((Path(__file__).parent / "data" / "reference" / "mipig.json").read_text("utf-8"))

#: open-hands option sets: the jankens (first player, end; capped, uncapped, two marks
#: only), the end's values, draws, the coin, a shared deal, scores, fixed hands
OPTIONS = [
    {"hand_size": 3},
    {"hand_size": 3, "first_player": 0, "tiebreak": "value"},
    {"hand_size": 3, "first_player": 1, "tiebreak": "draw"},
    {"hand_size": 2, "deal": "shared", "first_player": "random", "payoff": "score"},
    {"hand_size": 3, "tiebreak_cards": "all_on_field", "janken_rounds": 2},
    {"hand_size": 2, "janken_rounds": 1, "tiebreak": "value"},
    {"hand_size": 4, "hands": [["p01", "p04", "p07", "p10"], ["p02", "p05", "p08", "p11"]]},
    {"hand_size": 2, "hands": ["duo_a", "duo_b"], "first_player": "random"},
    {"hand_size": 3, "cards": {"cards": [{"id": f"c{i}", "name": "x", "top": 5, "bottom": 5, "left": 5,
                                          "right": 5, "janken": ("rock", "scissors")[i % 2],
                                          "attribute": ("love", "play")[i // 3]} for i in range(6)]}},
    {"hand_size": 5, "first_player": 0},
]


def both(game, state, **options):
    """The value of ``state`` by today's search and by the word search (which must be one):
    the value, and each search's (nodes, table hits, table entries)."""
    options.setdefault("progress", False)
    want, got = Search(game, **options), wsearch.word_search(game, **options)
    assert isinstance(got, wsearch.WordSearch)
    v, w = want.exact(state), got.exact(state)
    assert w == v and type(w) is type(v)
    return v, (want.nodes, want.hits, want.entries()), (got.nodes, got.hits, got.entries())


def test_X_the_build_is_the_one_expected():
    assert wsearch.compiled == (not wsearch.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wsearch.compiled, wsearch.__file__
    if os.environ.get("CARDLAB_PURE", "") not in ("", "0"):
        assert not wsearch.compiled


@pytest.mark.parametrize("n,seed", [(3, seed) for seed in range(10)] + [(4, 1)])
def test_X_the_yardstick_deals(n, seed):
    """benchmarks/compiled_speed.py's deals (open hands, first player seed % 2): solve's
    value, and the same tree as today's search."""
    game = cardlab.load("mipig", hand_size=n, open_hands=True, first_player=seed % 2)
    state = game.new_initial_state(seed=seed)
    v, want, got = both(game, state, max_nodes=None)
    assert got == want and want[0] > 1000
    assert Fraction(v) == cardlab.solve(state, max_nodes=None, progress=False).value


@pytest.mark.slow
def test_X_the_four_each_deal_of_seed_0():
    game = cardlab.load("mipig", hand_size=4, open_hands=True, first_player=0)
    v, want, got = both(game, game.new_initial_state(seed=0), max_nodes=None)
    assert got == want


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_the_reference_positions(entry):
    game = cardlab.load("mipig", **entry.get("options", {}))
    state = game.state_from_dict(entry["position"])
    v, want, got = both(game, state)
    assert got == want
    assert Fraction(v) == cardlab.solve(state, progress=False).value


#: option sets whose unseeded start is a chance node the search can take whole: the deal
#: (MP-3) of 1 card each, or of 2 each from four cards of two marks; the coin (MP-Q2)
CHANCE_ROOTS = [
    {"hand_size": 1},
    {"hand_size": 1, "first_player": "random", "tiebreak": "value"},
    {"hand_size": 2, "hands": ["duo_a", "duo_b"], "first_player": "random"},
    {"hand_size": 2, "hands": [["p01", "p04"], ["p02", "p05"]], "first_player": "random", "tiebreak": "value"},
    {"hand_size": 2, "cards": {"cards": [{"id": f"c{i}", "name": "x", "top": 5, "bottom": 5, "left": 5,
                                          "right": 5, "janken": ("rock", "scissors")[i % 2],
                                          "attribute": ("love", "play")[i // 2]} for i in range(4)]}},
]


@pytest.mark.parametrize("options", CHANCE_ROOTS, ids=["deal 1", "deal and coin 1", "coin 2", "coin 2 fixed",
                                                      "deal 2"])
def test_X_from_the_deal_and_the_coin(options):
    """MP-3, MP-Q2: Star1 at the deal and the coin, the whole game below; and after each
    of the deal's first outcomes (not symmetric: values other than 0)."""
    game = cardlab.load("mipig", open_hands=True, **options)
    start = game.new_initial_state()
    assert start.current_player == CHANCE
    states = [start] + [start._apply(a) for a, _p in start.chance_outcomes()[:3]]
    values = set()
    for state in states:
        v, want, got = both(game, state)
        assert got == want
        assert Fraction(v) == cardlab.solve(state, progress=False).value
        values.add(v)
    assert len(values) > 1


def late(game, rng: random.Random, left: int):
    """A random position of ``game`` with at most ``left`` cards in the hands (then 0-3
    random steps more: into the battle, the end janken), from a seeded deal."""
    s = game.new_initial_state(seed=rng.randrange(10**6))
    extra = rng.randrange(4)
    while s.current_player != TERMINAL:
        f = s.fields()
        if len(f["hand0"]) + len(f["hand1"]) <= left:
            if not extra:
                break
            extra -= 1
        s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("i", range(len(OPTIONS)))
def test_X_random_late_positions(i, monkeypatch):
    """MP-3 … MP-25, MP-Q2, MP-Q3: 12 random late positions per option set (and the deal
    itself where the hands are of 2): solve's value, the same tree as today's search."""
    game = cardlab.load("mipig", open_hands=True, **OPTIONS[i])
    rng = random.Random(i)
    states = [late(game, rng, rng.choice((3, 4, 5) if game.n <= 3 else (3, 4))) for _ in range(12)]
    if game.n == 2:
        states.append(game.new_initial_state(seed=i))
    for state in states:
        v, want, got = both(game, state)
        assert got == want
        assert Fraction(v) == cardlab.solve(state, progress=False).value


def test_X_chance_jankens_and_fractions_are_met(monkeypatch):
    """The random positions above reach the walk's chance nodes, its matrix games (a janken
    inside the search, ties picked again) and values that are not whole numbers."""
    seen = {"matrix": 0, "tie": 0}
    real = wsearch._choice_value

    def counting(A):
        seen["matrix"] += 1
        seen["tie"] += any(x is None for row in A for x in row)
        return real(A)

    monkeypatch.setattr(wsearch, "_choice_value", counting)
    values = set()
    for i in (0, 3, 4, 8):
        game = cardlab.load("mipig", open_hands=True, **OPTIONS[i])
        rng = random.Random(i)
        for _ in range(6):
            values.add(both(game, late(game, rng, 4))[0])
        if game.n == 2:
            values.add(both(game, game.new_initial_state(seed=i))[0])
    for options in CHANCE_ROOTS[:2]:
        game = cardlab.load("mipig", open_hands=True, **options)
        values.add(both(game, game.new_initial_state())[0])
    assert seen["matrix"] > 10 and seen["tie"] > 0
    assert any(Fraction(v).denominator > 1 for v in values)


@pytest.mark.parametrize("budget", [1, 500, 4_000])
def test_X_a_node_budget_stops_it_as_it_stops_today(budget):
    """The same TooLargeError (message and all), at the same node."""
    game = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0)
    state = game.new_initial_state(seed=0)
    errors = []
    for search in (Search(game, max_nodes=budget), wsearch.word_search(game, max_nodes=budget)):
        with pytest.raises(TooLargeError) as e:
            search.exact(state)
        errors.append((str(e.value), search.nodes))
    assert errors[0] == errors[1] and errors[0][1] == budget + 1


@pytest.mark.parametrize("options", [{"table": False}, {"pruning": False}, {"max_table": 300}],
                         ids=["no table", "no pruning", "small table"])
def test_X_the_search_options(options):
    """No table, no pruning, a table that forgets (its older half): the same value and tree."""
    game = cardlab.load("mipig", hand_size=2, open_hands=True, tiebreak="value", janken_rounds=1)
    for seed in range(3):
        state = late(game, random.Random(seed), 4)
        v, want, got = both(game, state, **options)
        assert got == want


def test_X_beyond_the_word_core_it_is_todays_search():
    """A card twice in a hand (make_word_core gives None), or the State search: a plain
    Search, the same value."""
    twice = cardlab.load("mipig", hand_size=3, hands=[["p01", "p01", "p02"], ["p03", "p04", "p04"]],
                         open_hands=True, first_player=0)
    search = wsearch.word_search(twice)
    assert type(search) is Search
    state = twice.new_initial_state()
    assert Fraction(search.exact(state)) == cardlab.solve(state, progress=False).value
    game = cardlab.load("mipig", hand_size=2, open_hands=True)
    assert type(wsearch.word_search(game, use_core=False)) is Search


@pytest.fixture
def words(monkeypatch):
    """The word core and the word search count as compiled (they are, in a compiled build)
    and the pure path is not forced: a game loaded now is solved on words."""
    monkeypatch.delenv("CARDLAB_PURE", raising=False)
    monkeypatch.setattr(wcore, "compiled", True)
    monkeypatch.setattr(wsearch, "compiled", True)


def fresh(monkeypatch, pure: bool, **options):
    """A fresh open-hands game (its core made now), the pure path forced or not."""
    if pure:
        monkeypatch.setenv("CARDLAB_PURE", "1")
    else:
        monkeypatch.delenv("CARDLAB_PURE", raising=False)
    game = cardlab.load("mipig", open_hands=True, **options)
    core_of(game)
    return game


def test_X_solve_searches_on_words_where_compiled(words, monkeypatch):
    """cardlab.solve's search: on words where the word core is hung on the core (compiled,
    these options); today's with CARDLAB_PURE=1, beyond the word core, with core=False, or
    where the word search is not compiled."""
    assert type(solve_module._search(fresh(monkeypatch, False, hand_size=2))) is wsearch.WordSearch
    assert type(solve_module._search(fresh(monkeypatch, True, hand_size=2))) is Search
    twice = fresh(monkeypatch, False, hand_size=3, hands=[["p01", "p01", "p02"], ["p03", "p04", "p04"]])
    assert type(solve_module._search(twice)) is Search
    assert type(solve_module._search(fresh(monkeypatch, False, hand_size=2), use_core=False)) is Search
    monkeypatch.setattr(wsearch, "compiled", False)
    assert type(solve_module._search(fresh(monkeypatch, False, hand_size=2))) is Search


@pytest.mark.parametrize("options,seed,steps", [
    ({"hand_size": 3, "first_player": 0}, 0, 0), ({"hand_size": 3, "first_player": 1, "tiebreak": "value"}, 4, 3),
    ({"hand_size": 2}, 1, 0), ({"hand_size": 2, "hands": ["duo_a", "duo_b"], "first_player": "random"}, None, 0)],
    ids=["deal 3", "3 each, 3 steps in", "first-player janken", "coin"])
def test_X_solve_gives_the_same_solution_either_way(words, monkeypatch, options, seed, steps):
    """The public solve on words and with CARDLAB_PURE=1 (today's search): the same value,
    best actions (mixes at a janken), principal variation and counts."""
    used, make = [], solve_module._search
    monkeypatch.setattr(solve_module, "_search", lambda game, **o: used.append(type(make(game, **o))) or make(game, **o))
    sols = []
    for pure in (False, True):
        game = fresh(monkeypatch, pure, **options)
        state = game.new_initial_state(seed=seed)  # (seed None: the coin, MP-Q2)
        walk = random.Random(seed)
        for _ in range(steps):
            state = state._apply(walk.choice(state.legal_actions()))
        sol = cardlab.solve(state, progress=False)
        sols.append((sol.value, sol.best_actions, sol.pv, sol.nodes, sol.tt_hits, sol.tt_entries, sol.method,
                     sol.mixes, sol.mix_epsilon))
    assert used[0] is wsearch.WordSearch and used[-1] is Search
    assert sols[0] == sols[1] and sols[0][3] > 10


def test_X_runs_without_cython(monkeypatch):
    """Where ``import cython`` fails (the Lite site) the module runs on cardlab's shim, with
    today's values and tree."""
    plain = without_cython(monkeypatch, wsearch)
    game = cardlab.load("mipig", hand_size=2, open_hands=True, tiebreak="value", janken_rounds=1)
    for seed in range(3):
        state = late(game, random.Random(seed), 4)
        want, got = Search(game), plain.word_search(game)
        assert isinstance(got, plain.WordSearch)
        assert (got.exact(state), got.nodes, got.hits) == (want.exact(state), want.nodes, want.hits)
