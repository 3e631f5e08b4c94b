"""Issue X: Koi-koi Nobori's word core (``cardlab/games/koinobori/wcore.py``, Cython's
pure-Python mode) agrees with today's compact core (``cardlab/games/koinobori/core.py``)
whether it runs compiled or as Python: the same position after every step, the same
players, moves in the same order and returns on seeded random games of every option
set of ``core.TEST_OPTIONS``, on every reachable position of small decks, and the same
playouts (same seeds, same returns and steps, the generator left in the same state)
from the start and from positions in mid-game, and the same perft.

Runs in both builds: as Python (``CARDLAB_PURE=1``, or no build) and compiled in place
(``cythonize -i -3 cardlab/games/koinobori/wcore.py``, or ``pip install -e .``) with
``CARDLAB_EXPECT_COMPILED=1``, which fails the run if the module did not load compiled."""

from __future__ import annotations

import os
import random
from collections import deque

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.builds import pure
from cardlab.cores import _playout_core, build_info, core_of, perft, playout
from cardlab.games.koinobori import core as kn_core
from cardlab.games.koinobori import wcore

from test_compiled_agreement import OwnRandom, playouts_agree, steps_agree, without_cython

#: small decks whose every reachable position is walked (tests/games/koinobori/test_koinobori_core.py's)
TEN = {"cards": {"higoi": 3, "aokoi": 2, "magoi": 2, "fukinagashi": 2, "kabutogaeshi": 1},
       "points": {"higoi": 2, "aokoi": 1, "magoi": 3}}
KOIKOI = {"cards": {"higoi": 5, "aokoi": 3, "magoi": 3, "fukinagashi": 1, "kabutogaeshi": 0},
          "points": {"higoi": 1, "aokoi": 2, "magoi": 3}}
SMALL = [
    {"deck": TEN},
    {"deck": TEN, "open_hands": True, "refill_after_draw_capture": False, "payoff": "score", "first_player": 1},
    {"deck": TEN, "roles": True, "koikoi": True, "first_player": "random", "payoff": "score"},
    {"deck": KOIKOI, "koikoi": True, "payoff": "score", "refill_after_draw_capture": False},
]


def setup(options):
    game = cardlab.load("koinobori", **options)
    core = core_of(game)
    return game, core, core.encode(game.new_initial_state())


def test_X_the_build_is_the_one_expected():
    """The module says whether it runs compiled, and that is where it was loaded from;
    ``core_of`` hangs it on the core exactly where it runs compiled and not pure (after its
    seeded check game from the start, KN-7 … KN-15, came out as on the core)."""
    assert wcore.compiled == (not wcore.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__
    assert build_info()["koinobori"]["word_core"] == wcore.compiled
    core = core_of(cardlab.load("koinobori", open_hands=True, payoff="score"))
    assert (getattr(core, "word_cores", None) is not None) == (wcore.compiled and not pure())


def walk(core, pos, wc, rng, seen) -> int:
    """``steps_agree``; ``seen`` collects the stages met and the moves played."""
    return steps_agree(core, pos, wc, rng, lambda pos, _p, m: m is None or seen.add(((pos & 31) >> 1, m)))


@pytest.mark.parametrize("i", range(len(kn_core.TEST_OPTIONS)))
def test_X_word_core_steps_agree_with_core(i):
    """KN-4 … KN-15, KN-Q3 … KN-Q7, KN-Q11: every step of 25 seeded games per option set
    (deal, turns, draws, refills, the fukinagashi's choice, koi-koi, the end); every option
    set is handled."""
    game, core, pos = setup(kn_core.TEST_OPTIONS[i])
    wc = wcore.make_word_core(game, core)
    assert wc is not None
    seen = set()
    total = sum(walk(core, pos, wc, random.Random(seed), seen) for seed in range(25))
    assert total > 25 * 5
    stages = {s for s, _m in seen}
    assert {kn_core.DEAL, kn_core.TURN} <= stages
    if game.options["koikoi"]:
        assert kn_core.KOIK in stages


def test_X_random_games_meet_every_move():
    """KN-8 … KN-15, KN-Q4, KN-Q11: the seeded games of all option sets play every move
    code (nobori, play, kabuto, pass, capture, agari, koikoi) and every stage."""
    seen = set()
    for options in kn_core.TEST_OPTIONS:
        game, core, pos = setup(options)
        wc = wcore.make_word_core(game, core)
        for seed in range(25):
            walk(core, pos, wc, random.Random(seed), seen)
    assert {m for _s, m in seen if m < 32} == set(range(21))
    assert {s for s, _m in seen} == set(range(kn_core.END))


@pytest.mark.parametrize("i", range(len(SMALL)))
def test_X_every_reachable_position_agrees(i):
    """KN-1 … KN-Q12 on small decks: at every position reachable from the start, the same
    player, moves (or chance outcomes) in order, chance weights, returns at the end, and
    each move's child;
    ``key`` tells positions apart exactly where ``to_pos`` does."""
    game, core, root = setup(SMALL[i])
    wc = wcore.make_word_core(game, core)
    seen, todo, keys = {root}, deque([root]), set()
    while todo:
        pos = todo.popleft()
        wc.load(pos)
        keys.add(wc.key())
        p = core.player(pos)
        assert wc.player() == p, pos
        if p == TERMINAL:
            assert wc.returns() == tuple(core.returns(pos)), pos
            continue
        moves = [o for o, _w in core.chance(pos)] if p == CHANCE else list(core.moves(pos))
        assert wc.moves() == moves, pos
        assert wc.chance() == list(core.chance(pos)), pos
        for m in moves:
            child = core.play(pos, m)
            wc.load(pos)
            wc.play(m)
            assert wc.to_pos() == child, (pos, m)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert len(keys) == len(seen) > 10_000


def same_playouts(core, pos, seeds, rng_class=random.Random, limit=10_000) -> int:
    """``playouts_agree`` on Koi-koi Nobori's word core: the steps in all."""
    return playouts_agree(wcore, core.game, core, pos, seeds, rng_class, limit)


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom], ids=["Random", "subclass"])
@pytest.mark.parametrize("i", range(len(kn_core.TEST_OPTIONS)))
def test_X_same_playouts_from_the_start(i, rng_class):
    """KN-7, KN-8, KN-10, KN-Q8, KN-Q11: the chance draws (the deal, draws, refills, the
    first player) by their weights, the moves by ``rng.choice``: 60 seeded games per option
    set, with ``random.Random`` and a subclass (drawn through its ``randrange``)."""
    _game, core, pos = setup(kn_core.TEST_OPTIONS[i])
    assert same_playouts(core, pos, range(60), rng_class) > 60 * 5


def mid_game(core, pos, seed, at=(2, 6, 12, 25, 40)):
    """The positions of a seeded random game at the steps ``at`` (those it reaches)."""
    rng, out, step = random.Random(seed), [], 0
    while core.player(pos) != TERMINAL:
        if step in at:
            out.append(pos)
        p = core.player(pos)
        moves = [o for o, _w in core.chance(pos)] if p == CHANCE else list(core.moves(pos))
        pos = core.play(pos, moves[rng.randrange(len(moves))])
        step += 1
    return out


@pytest.mark.parametrize("i", range(len(kn_core.TEST_OPTIONS)))
def test_X_same_playouts_from_mid_game(i):
    """KN-8 … KN-15, KN-Q3 … KN-Q7: 20 playouts from each of the positions 2, 6, 12, 25 and
    40 steps into five seeded games (with a subclass from half of them), and a playout cut
    off at ``limit`` (zeros)."""
    _game, core, start = setup(kn_core.TEST_OPTIONS[i])
    positions = [pos for seed in range(5) for pos in mid_game(core, start, 100 + seed)]
    assert len(positions) >= 10
    for j, pos in enumerate(positions):
        same_playouts(core, pos, range(20), OwnRandom if j % 2 else random.Random)
    same_playouts(core, start, range(5), limit=7)


def test_X_public_playout_agrees():
    """KN-7 … KN-15: ``cardlab.cores.playout`` (on the word core where ``core_of`` hung it,
    else on the core) gives today's core's games from the start and after three steps."""
    game, core, pos = setup({"open_hands": True})
    states = [game.new_initial_state()]
    for _ in range(3):
        s = states[-1]
        states.append(s.child(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0]))
    for s in (states[0], states[3]):
        p = core.encode(s)
        for seed in range(30):
            want_rng, got_rng = random.Random(seed), random.Random(seed)
            assert playout(s, got_rng) == _playout_core(core, p, want_rng, 10_000, 2), seed
            assert got_rng.getstate() == want_rng.getstate()


@pytest.mark.parametrize("options,depth", [({}, 8), ({"koikoi": True, "first_player": "random"}, 8),
                                           (SMALL[2], 11), (SMALL[3], 12)])
def test_X_same_tree_on_words(options, depth):
    """KN-4 … KN-15: the tree walk under a search (moves or chance outcomes and a step at
    every node): the word core's perft counts today's core's lines, from the start and from
    a position 20 steps into a seeded game (8 where the game is shorter)."""
    _game, core, pos = setup(options)
    wc = wcore.make_word_core(core.game, core)
    for p in (pos, mid_game(core, pos, 7, at=(8, 20))[-1]):
        wc.load(p)
        assert wc.perft(depth) == perft(core, p, depth)


def test_X_runs_without_cython(monkeypatch):
    """Where ``import cython`` fails (the Lite site) the module runs on cardlab's shim,
    with the same playouts (KN-7 … KN-15) and the same perft."""
    plain = without_cython(monkeypatch, wcore)
    game, core, pos = setup({"koikoi": True, "roles": True})
    wc = plain.make_word_core(game, core)
    for seed in range(20):
        want_rng, got_rng = random.Random(seed), random.Random(seed)
        want = _playout_core(core, pos, want_rng, 10_000, 2)
        wc.load(pos)
        assert wc.playout(got_rng) == (tuple(want[0]), want[1])
        assert got_rng.getstate() == want_rng.getstate()
    wc.load(pos)
    assert wc.perft(7) == perft(core, pos, 7)
