"""Issue X: MONSTER CARDS' word core (``cardlab/games/monster_cards/wcore.py``, Cython's
pure-Python mode) agrees with today's compact core (``cardlab/games/monster_cards/core.py``)
whether it runs compiled or as Python: the same position after every step, the same
players, moves and chance outcomes in the same order and the same returns on seeded
random games of every option set of ``core.TEST_OPTIONS`` and from the reference positions
(``tests/data/reference/monster_cards.json``), on every reachable position of the tiny
configurations of ``tests/games/monster_cards/test_monster_cards_core.py``; the same
playouts (same seeds: the same returns, steps and generator state after) from the start
and from mid-game positions; the same perft.

Runs in both builds: as Python (``CARDLAB_PURE=1``, or no build) and compiled
(``cythonize -i`` of the module, or ``pip install -e .``)::

    CARDLAB_EXPECT_COMPILED=1 .venv/bin/python -m pytest -p no:cacheprovider -q \\
        tests/test_compiled_agreement_monster_cards.py

(``CARDLAB_EXPECT_COMPILED=1`` fails the run if the module did not load compiled.)"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.builds import pure
from cardlab.cores import _playout_core, core_of, perft
from cardlab.games.monster_cards import core as mc_core
from cardlab.games.monster_cards import wcore

from test_compiled_agreement import OwnRandom, playouts_agree, steps_agree, without_cython

HERE = Path(__file__).parent
REFERENCE = json.loads((HERE / "data" / "reference" / "monster_cards.json").read_text("utf-8"))


def tiny_configs():
    """The core test's tiny configurations (every skill, SP and ULT forms, every option)."""
    path = HERE / "games" / "monster_cards" / "test_monster_cards_core.py"
    spec = importlib.util.spec_from_file_location("_monster_cards_core_configs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CONFIGS


TINY = tiny_configs()


def test_X_the_build_is_the_one_expected():
    """No rule (the build): the module says whether it runs compiled, and that is where it
    was loaded from."""
    assert wcore.compiled == (not wcore.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__


def same_position(core, pos, wc) -> None:
    """The word core holds ``pos``: the same int back, player, moves (or chance outcomes,
    with their weights) and returns."""
    assert wc.to_pos() == pos
    assert wc.key() == pos
    p = core.player(pos)
    assert wc.player() == p
    if p == CHANCE:
        assert wc.chance() == list(core.chance(pos))
        assert wc.moves() == [o for o, _w in core.chance(pos)]
    elif p == TERMINAL:
        assert wc.moves() == []
    else:
        assert wc.moves() == list(core.moves(pos))
    assert wc.returns() == tuple(core.returns(pos))


def walk(core, pos, wc, rng) -> int:
    """``steps_agree`` from ``pos``, with :func:`same_position` at every step."""
    return steps_agree(core, pos, wc, rng, lambda pos, _p, _m: same_position(core, pos, wc))


@pytest.mark.parametrize("i", range(len(mc_core.TEST_OPTIONS)))
def test_X_word_core_steps_agree_with_core(i):
    """MC-1 … MC-19, MC-Q4 … MC-Q10: every step of 25 seeded games per option set (2, 3, 4
    and 8 players, open and hidden hands, every rule option, small decks with every skill,
    17 kinds of card and five copies of one): the word core handles each."""
    game = cardlab.load("monster_cards", **mc_core.TEST_OPTIONS[i])
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    pos = core.encode(game.new_initial_state())
    total = sum(walk(core, pos, wc, random.Random(seed)) for seed in range(25))
    assert total > 25 * 10


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_word_core_steps_agree_from_the_reference_positions(entry):
    """MC-3, MC-8 … MC-19, MC-Q4, MC-Q6, MC-Q7: every step of 20 seeded games from each
    reference position (Mend and Fury, a doomed draw, Discard skills, a GameChanger,
    Banish, the own attacker either way, the attacker staying, no out by drawing, three
    players)."""
    game = cardlab.load("monster_cards", **entry.get("options", {}))
    core = core_of(game)
    pos = core.encode(game.state_from_dict(entry["position"]))
    wc = wcore.make_word_core(game, core)
    assert sum(walk(core, pos, wc, random.Random(seed)) for seed in range(20)) >= 20


def every_position(core, root):
    """Every position reachable from ``root`` (each once)."""
    seen, todo = {root}, [root]
    while todo:
        pos = todo.pop()
        yield pos
        p = core.player(pos)
        if p == TERMINAL:
            continue
        for m in [o for o, _w in core.chance(pos)] if p == CHANCE else core.moves(pos):
            child = core.play(pos, m)
            if child not in seen:
                seen.add(child)
                todo.append(child)


@pytest.mark.parametrize("options", [o for _n, o in TINY], ids=[n for n, _o in TINY])
def test_X_every_reachable_position_agrees(options):
    """MC-3 … MC-19, MC-Q4 … MC-Q10 (every skill, every rule option, a whole deck drawn, the
    known deck top, outs by damage and by drawing): on every position reachable in the
    tiny games, the word core holds it and each move or outcome leads where the core's
    does (``copy_from`` then ``play``)."""
    game = cardlab.load("monster_cards", **options)
    core = core_of(game)
    here, child = wcore.make_word_core(game, core), wcore.make_word_core(game, core)
    count = 0
    for pos in every_position(core, core.encode(game.new_initial_state())):
        here.load(pos)
        same_position(core, pos, here)
        count += 1
        p = core.player(pos)
        if p == TERMINAL:
            continue
        for m in [o for o, _w in core.chance(pos)] if p == CHANCE else core.moves(pos):
            child.copy_from(here)
            child.play(m)
            assert child.to_pos() == core.play(pos, m), (pos, m)
    assert count > 200


def mid_game(game, core, seeds, steps=12):
    """Positions ``steps`` seeded random steps into games (fewer where a game ends first)."""
    out = []
    for seed in seeds:
        rng, pos = random.Random(seed), core.encode(game.new_initial_state())
        for _ in range(steps):
            p = core.player(pos)
            if p == TERMINAL:
                break
            moves = [o for o, _w in core.chance(pos)] if p == CHANCE else list(core.moves(pos))
            pos = core.play(pos, moves[rng.randrange(len(moves))])
        out.append(pos)
    return out


def same_playouts(game, pos, seeds, rng_class=random.Random, limit=10_000):
    """``playouts_agree`` on MONSTER CARDS' word core (any number of players)."""
    playouts_agree(wcore, game, core_of(game), pos, seeds, rng_class, limit)


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom], ids=["Random", "subclass"])
def test_X_same_playouts_from_the_start(rng_class):
    """MC-3, MC-9 (chance by the deck's counts), MC-10 … MC-19: 300 seeded playouts of the
    default game from the start."""
    game = cardlab.load("monster_cards")
    same_playouts(game, core_of(game).encode(game.new_initial_state()), range(300), rng_class)


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom], ids=["Random", "subclass"])
@pytest.mark.parametrize("i", range(len(mc_core.TEST_OPTIONS)))
def test_X_same_playouts_on_every_option_set(i, rng_class):
    """MC-1 … MC-19, MC-Q4 … MC-Q10, payoffs of 3 to 8 players (MC-19: Fractions): 30
    playouts from the start and 3 from each of 10 mid-game positions per option set."""
    game = cardlab.load("monster_cards", **mc_core.TEST_OPTIONS[i])
    core = core_of(game)
    same_playouts(game, core.encode(game.new_initial_state()), range(30), rng_class)
    for pos in mid_game(game, core, range(10)):
        same_playouts(game, pos, range(3), rng_class)


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_playouts_from_the_reference_positions(entry):
    """MC-3, MC-8 … MC-19, MC-Q4, MC-Q6, MC-Q7: 50 playouts from each reference position."""
    game = cardlab.load("monster_cards", **entry.get("options", {}))
    core = core_of(game)
    same_playouts(game, core.encode(game.state_from_dict(entry["position"])), range(50))


@pytest.mark.parametrize("players,limit", [(2, 1), (2, 7), (3, 20)])
def test_X_a_cut_off_playout_returns_zeros(players, limit):
    """MC-19 not reached: a playout cut off after ``limit`` steps gives a zero for every
    player, as today's core."""
    game = cardlab.load("monster_cards", players=players)
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    wc.load(core.encode(game.new_initial_state()))
    assert wc.playout(random.Random(5), limit) == ((0,) * players, limit)
    same_playouts(game, core.encode(game.new_initial_state()), range(20), limit=limit)


def test_X_runs_without_cython(monkeypatch):
    """MC-1 … MC-19 with 3 players: where ``import cython`` fails (the Lite site) the module
    runs on cardlab's shim, with the same steps and playouts."""
    plain = without_cython(monkeypatch, wcore)
    game = cardlab.load("monster_cards", players=3)
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    wc = plain.make_word_core(game, core)
    assert sum(walk(core, pos, wc, random.Random(seed)) for seed in range(5)) > 50
    for seed in range(20):
        wc.load(pos)
        got_rng, want_rng = random.Random(seed), random.Random(seed)
        got = wc.playout(got_rng)
        assert (tuple(got[0]), got[1]) == _playout_core(core, pos, want_rng, 10_000, 3)
        assert got_rng.getstate() == want_rng.getstate()


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_tree_from_the_reference_positions(entry):
    """MC-3 … MC-19: the tree walk under a search (moves, chance outcomes and a step at every
    node): the word core's perft counts today's core's lines, 8 steps deep (most of these
    end games whole)."""
    game = cardlab.load("monster_cards", **entry.get("options", {}))
    core = core_of(game)
    pos = core.encode(game.state_from_dict(entry["position"]))
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(8) == perft(core, pos, 8)
    assert wc.to_pos() == pos  # the walk leaves the position as it was


@pytest.mark.parametrize("options,depth", [({}, 6), ({"players": 3, "open_hands": True}, 5)], ids=["default", "3p"])
def test_X_same_tree_from_the_start(options, depth):
    """MC-3, MC-9 … MC-19: perft from the start (the first draws, the first plays and battles)."""
    game = cardlab.load("monster_cards", **options)
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(depth) == perft(core, pos, depth)


WHOLE = [(n, o) for n, o in TINY if n != "3p-4"]  # 3p-4: 14 M lines


@pytest.mark.parametrize("options", [o for _n, o in WHOLE], ids=[n for n, _o in WHOLE])
def test_X_same_tree_of_whole_tiny_games(options):
    """MC-3 … MC-19, MC-Q4, MC-Q6, MC-Q7 (without out by drawing: the whole deck to the
    hand), MC-Q8: perft of whole tiny games (1,000 to 240,000 lines)."""
    game = cardlab.load("monster_cards", **options)
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(60) == perft(core, pos, 60) > 1000


def test_X_too_many_cards_for_the_word_core():
    """MC-1, MC-14 … MC-16: more than MAX_CARDS different cards in the decks: no word core
    (its battle table: one int a defender, attacker and GameChanger), the core alone; 22
    cards (17 kinds in a deck): one."""
    n = wcore.MAX_CARDS + 1
    deck = {"name": "many", "cards": [{"name": f"m{i:03d}", "rarity": "C", "attack": 1, "attribute": "none",
                                       "race": "human", "size": "small", "means": "melee", "skill": None}
                                      for i in range(n)]}
    game = cardlab.load("monster_cards", decks=[deck], deck_size=n, max_cost=100_000)
    assert wcore.make_word_core(game, core_of(game)) is None
    assert getattr(core_of(game), "word_cores", None) is None
    small = cardlab.load("monster_cards", **mc_core.TEST_OPTIONS[-1])
    assert wcore.make_word_core(small, core_of(small)) is not None


def test_X_core_of_plays_on_the_word_core_where_it_runs_compiled():
    """MC-1 … MC-19 (4 players): ``core_of`` hangs the word core on the core where it runs
    compiled (not with ``CARDLAB_PURE=1``): its check game from the start came out as on
    the core."""
    core = core_of(cardlab.load("monster_cards", players=4))
    assert (getattr(core, "word_cores", None) is not None) == (wcore.compiled and not pure())
