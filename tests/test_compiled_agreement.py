"""Issue X, item 2: mipig's word core (``cardlab/games/mipig/wcore.py``, Cython's
pure-Python mode) agrees with today's compact core (``cardlab/games/mipig/core.py``)
whether it runs compiled or as Python: the same position after every step, the same
players, moves in the same order and returns on seeded random games of every option
set it handles, and the same playouts (same seeds, same returns and steps) from the
default deal, the reference positions (``tests/data/reference/mipig.json``) and the
yardstick's deals (``benchmarks/mipig_yardstick.py``).

Runs in both builds: as it is (the pure build, or whatever ``cardlab`` imports), and
from a compiled copy made by ``build_tools/build_compiled.py cython``::

    cd build/compiled/cython && CARDLAB_EXPECT_COMPILED=1 ../../../.venv/bin/python -m pytest \\
        -p no:cacheprovider -q ../../../tests/test_compiled_agreement.py

(``CARDLAB_EXPECT_COMPILED=1`` fails the run if the module did not load compiled.)"""

from __future__ import annotations

import builtins
import importlib.util
import json
import os
import random
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.cores import _playout_core, core_of, perft, playout_from
from cardlab.games.mipig import core as mipig_core
from cardlab.games.mipig import wcore

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference" / "mipig.json").read_text("utf-8"))


def test_X_the_build_is_the_one_expected():
    """The module says whether it runs compiled, and that is where it was loaded from."""
    assert wcore.compiled == (not wcore.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__


def steps_agree(core, pos, wc, rng, note=None) -> int:
    """One random game from ``pos`` on today's core and the word core ``wc`` side by side
    (shared by every game's agreement tests): at every step the same position
    (``to_pos``), player, moves or chance outcomes in order (and their weights where the
    word core gives ``chance()``); at the end the same returns.  ``note(pos, player,
    move)`` is called at each step (``move`` None at the end): a game's own checks and
    tallies.  The steps played."""
    wc.load(pos)
    steps = 0
    weights = hasattr(wc, "chance")
    while True:
        assert wc.to_pos() == pos, steps
        p = core.player(pos)
        assert wc.player() == p, steps
        if p == TERMINAL:
            assert wc.returns() == tuple(core.returns(pos)), steps
            if note is not None:
                note(pos, p, None)
            return steps
        moves = [o for o, _w in core.chance(pos)] if p == CHANCE else list(core.moves(pos))
        assert wc.moves() == moves, steps
        if p == CHANCE and weights:
            assert wc.chance() == list(core.chance(pos)), steps
        m = moves[rng.randrange(len(moves))]
        if note is not None:
            note(pos, p, m)
        pos = core.play(pos, m)
        wc.play(m)
        steps += 1


def walk(game, core, wc, rng) -> int:
    """``steps_agree`` from the deal."""
    return steps_agree(core, core.encode(game.new_initial_state()), wc, rng)


@pytest.mark.parametrize("i", range(len(mipig_core.TEST_OPTIONS)))
def test_X_word_core_steps_agree_with_core(i):
    """MP-3 … MP-25: every step of 25 seeded games per option set; an option set beyond
    the word core (a card twice in a hand) gives None."""
    game = cardlab.load("mipig", **mipig_core.TEST_OPTIONS[i])
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    twice = game.fixed_hands is not None and any(h.count(c) > 1 for h in game.fixed_hands for c in h)
    assert (wc is None) == twice
    if wc is None:
        return
    total = sum(walk(game, core, wc, random.Random(seed)) for seed in range(25))
    assert total > 25


def playouts_agree(module, game, core, pos, seeds, rng_class=random.Random, limit: int = 10_000) -> int:
    """The word core of ``module`` (a game's ``wcore``) plays out from ``pos`` exactly as
    ``cardlab.cores._playout_core`` plays on ``core`` (today's core, never a word core hung
    on it): seed by seed the same returns and steps, and the generator left in the same
    state.  The steps in all.  (Shared by every game's agreement tests.)"""
    wc, start = module.make_word_core(game, core), module.make_word_core(game, core)
    start.load(pos)
    total = 0
    for seed in seeds:
        want_rng, got_rng = rng_class(seed), rng_class(seed)
        want = _playout_core(core, pos, want_rng, limit, game.spec.num_players)
        wc.copy_from(start)
        got = wc.playout(got_rng, limit)
        assert (tuple(got[0]), got[1]) == (tuple(want[0]), want[1]), seed
        assert got_rng.getstate() == want_rng.getstate(), seed
        total += got[1]
    return total


def same_playouts(game, state, seeds, rng_class=random.Random):
    core = core_of(game)
    playouts_agree(wcore, game, core, core.encode(state), seeds, rng_class)


class OwnRandom(random.Random):
    """A Random subclass: the word core draws through its ``randrange``."""


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom], ids=["Random", "subclass"])
def test_X_same_playouts_from_the_deal(rng_class):
    game = cardlab.load("mipig")
    same_playouts(game, game.new_initial_state(), range(300), rng_class)


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_playouts_from_the_reference_positions(entry):
    game = cardlab.load("mipig", **entry.get("options", {}))
    same_playouts(game, game.state_from_dict(entry["position"]), range(50))


@pytest.mark.parametrize("n", [3, 4])
def test_X_same_playouts_from_the_yardstick_deals(n):
    """benchmarks/mipig_yardstick.py's deals: open hands, first player seed % 2."""
    for seed in range(10):
        game = cardlab.load("mipig", hand_size=n, open_hands=True, first_player=seed % 2)
        same_playouts(game, game.new_initial_state(seed=seed), range(20))


def without_cython(monkeypatch, module):
    """A typed module's ``.py`` (``module``: its compiled or Python import) run where
    ``import cython`` fails (the Lite site): on cardlab's shim, as Python."""
    real_import = builtins.__import__

    def no_cython(name, *args, **kwargs):
        if name == "cython":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cython)
    base = module.__name__.rpartition(".")[2]
    path = Path(module.__file__).with_name(base + ".py")
    spec = importlib.util.spec_from_file_location(f"{module.__package__}._{base}_without_cython", path)
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    monkeypatch.setattr(builtins, "__import__", real_import)
    assert plain.cython.__name__ == "cardlab._cython_shim" and not plain.compiled
    return plain


def test_X_runs_without_cython(monkeypatch):
    """Where ``import cython`` fails (the Lite site) the module runs on cardlab's shim,
    with the same playouts."""
    plain = without_cython(monkeypatch, wcore)
    game = cardlab.load("mipig")
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    for seed in range(20):
        wc = plain.make_word_core(game, core)
        wc.load(pos)
        got = wc.playout(random.Random(seed))
        want = playout_from(core, pos, random.Random(seed))
        assert (tuple(got[0]), got[1]) == (tuple(want[0]), want[1])


@pytest.mark.parametrize("n,seed,depth", [(3, 0, 5), (3, 3, 6), (2, 5, 6)])
def test_X_same_tree_on_words(n, seed, depth):
    """The tree walk under a search (moves and steps at every node): the word core's perft
    counts today's core's lines, from the yardstick's deals."""
    game = cardlab.load("mipig", hand_size=n, open_hands=True, first_player=seed % 2)
    core = core_of(game)
    pos = core.encode(game.new_initial_state(seed=seed))
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(depth) == perft(core, pos, depth)


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_tree_from_the_reference_positions(entry):
    game = cardlab.load("mipig", **entry.get("options", {}))
    core = core_of(game)
    pos = core.encode(game.state_from_dict(entry["position"]))
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(6) == perft(core, pos, 6)


@pytest.mark.parametrize("n,depth", [(1, 30), (2, 10)])
@pytest.mark.parametrize("tiebreak", ["janken", "value"])
def test_X_perft_from_a_deal_through_every_phase(tiebreak, n, depth):
    """Closed deals (1 card each: whole games; 2 each: 10 steps) of four cards of two marks,
    all equal numbers: the deal, the first-player janken (ties, the coin), placement,
    battles by marks, the end janken."""
    cards = [{"id": f"c{i}", "name": "x", "top": 5, "bottom": 5, "left": 5, "right": 5,
              "janken": ("rock", "scissors")[i % 2], "attribute": "love"} for i in range(4)]
    game = cardlab.load("mipig", hand_size=n, tiebreak=tiebreak, cards={"cards": cards})
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(depth) == perft(core, pos, depth)
