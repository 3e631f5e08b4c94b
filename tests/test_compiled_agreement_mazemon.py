"""Issue X: Mazemon's word core (``cardlab/games/mazemon/wcore.py``, Cython's pure-Python
mode) agrees with today's compact core (``cardlab/games/mazemon/core.py``) whether it
runs compiled or as Python: the same position after every step, the same players,
moves in the same order and returns on seeded random games of every option set of
``core.TEST_OPTIONS`` and from the reference positions
(``tests/data/reference/mazemon.json``), the same playouts (same seeds, same returns
and steps, the generator left in the same state) from the start, from positions in
mid-game and from the reference positions, and the same perft.

Runs in both builds: as Python (``CARDLAB_PURE=1``, or no build) and compiled in place
(``cythonize -i -3 cardlab/games/mazemon/wcore.py``, or ``pip install -e .``) with
``CARDLAB_EXPECT_COMPILED=1``, which fails the run if the module did not load compiled."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.builds import pure
from cardlab.cores import _playout_core, build_info, core_of, perft
from cardlab.games.mazemon import core as mz_core
from cardlab.games.mazemon import rules, wcore

from test_compiled_agreement import OwnRandom, playouts_agree, steps_agree, without_cython

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference" / "mazemon.json").read_text("utf-8"))
OPTIONS = mz_core.TEST_OPTIONS
KINDS = range(10)  # core.py's move kinds: charge … steal


def setup(options):
    game = cardlab.load("mazemon", **options)
    core = core_of(game)
    return game, core, core.encode(game.new_initial_state())


class Skewed(random.Random):
    """A Random subclass whose ``randrange`` and ``choice`` draw otherwise than
    ``Random._randbelow``: the same games only if the word core calls them."""

    def randrange(self, n):
        return int(self.random() * n)

    def choice(self, seq):
        return seq[int(self.random() * len(seq))]


def test_X_the_build_is_the_one_expected():
    """The module says whether it runs compiled, and that is where it was loaded from;
    ``core_of`` hangs it on the core exactly where it runs compiled and not pure."""
    assert wcore.compiled == (not wcore.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__
    assert build_info()["mazemon"]["word_core"] == wcore.compiled
    core = core_of(cardlab.load("mazemon", material_count="per_monster"))
    assert (getattr(core, "word_cores", None) is not None) == (wcore.compiled and not pure())


def walk(core, pos, wc, rng, kinds=None, keys=None) -> int:
    """``steps_agree`` from ``pos``, the returns compared at every step too; the kinds of
    the moves played are counted in ``kinds``, each position's key noted in ``keys``
    (key -> position: equal keys, equal positions)."""

    def note(pos, p, m):
        assert wc.returns() == tuple(core.returns(pos))
        if keys is not None:
            assert keys.setdefault(wc.key(), pos) == pos
        if kinds is not None and m is not None:
            kinds[m & 15] += 1

    return steps_agree(core, pos, wc, rng, note)


@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[str(o) for o in OPTIONS])
def test_X_word_core_steps_agree_with_core(i):
    """MZ-2 … MZ-24, MZ-Q2 … MZ-Q8: every step of 30 seeded games per option set (the
    janken, the trash, charges, summons, attacks, direct attacks and their steals,
    みがわり and its refusal, the turn's end: every move kind is met, and games ending by
    three captures and by quiet turns); the key is equal exactly where the position is."""
    game, core, pos = setup(OPTIONS[i])
    wc = wcore.make_word_core(game, core)
    kinds, keys = Counter(), {}
    total = sum(walk(core, pos, wc, random.Random(seed), kinds, keys) for seed in range(30))
    assert total > 30 * 20
    assert set(kinds) == set(KINDS), kinds
    assert len(set(keys.values())) == len(keys)
    ends = Counter()
    for seed in range(30):
        wc.load(pos)
        wc.playout(random.Random(seed))
        end = mz_core.POS.unpack(wc.to_pos())
        ends[end["x_captured"] == 3 or end["y_captured"] == 3, end["quiet_turns"] == 2] += 1
    assert ends[True, False] and ends[False, True], ends  # MZ-23 and MZ-24, MZ-Q6


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
@pytest.mark.parametrize("open_hands", [True, False], ids=["open", "hidden"])
def test_X_steps_agree_from_the_reference_positions(entry, open_hands):
    """MZ-19 … MZ-24, MZ-Q2, MZ-Q5, MZ-Q6, MZ-Q7: the small endgames of the reference
    positions (a substitute decision, steals that decide, nothing left), open and hidden
    hands, 20 seeded games each."""
    options = {**entry.get("options", {}), "open_hands": open_hands}
    game = cardlab.load("mazemon", **options)
    core = core_of(game)
    pos = core.encode(game.state_from_dict({**entry["position"], "options": game.options_dict()}))
    wc = wcore.make_word_core(game, core)
    for seed in range(20):
        walk(core, pos, wc, random.Random(seed))


def same_playouts(game, core, pos, seeds, rng_class=random.Random, limit=10_000):
    """``playouts_agree`` on Mazemon's word core."""
    playouts_agree(wcore, game, core, pos, seeds, rng_class, limit)


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom, Skewed], ids=["Random", "subclass", "skewed"])
def test_X_same_playouts_from_the_start(rng_class):
    """MZ-1 … MZ-24: 300 seeded games of the default game from the start; a subclass of
    Random (its own randrange and choice called) alike."""
    same_playouts(*setup({}), range(300), rng_class)


def test_X_same_playouts_from_one_generator():
    """2,000 games drawn one after another from one generator (as the benchmarks draw
    them): the same returns summed, the same steps and the same generator state."""
    game, core, pos = setup({})
    wc = wcore.make_word_core(game, core)
    want_rng, got_rng = random.Random(7), random.Random(7)
    want = got = (0, 0)
    for _ in range(2_000):
        r, k = _playout_core(core, pos, want_rng, 10_000, 2)
        want = (want[0] + r[0], want[1] + k)
        wc.load(pos)
        r, k = wc.playout(got_rng)
        got = (got[0] + r[0], got[1] + k)
    assert got == want and got_rng.getstate() == want_rng.getstate()


def mid_game(core, pos, seed, steps):
    """The position ``steps`` random steps (fewer where the game ends) into a seeded game."""
    rng = random.Random(seed)
    for _ in range(steps):
        p = core.player(pos)
        if p == TERMINAL:
            break
        moves = [o for o, _w in core.chance(pos)] if p == CHANCE else list(core.moves(pos))
        pos = core.play(pos, moves[rng.randrange(len(moves))])
    return pos


@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[str(o) for o in OPTIONS])
@pytest.mark.parametrize("rng_class", [random.Random, Skewed], ids=["Random", "skewed"])
def test_X_same_playouts_from_mid_game(i, rng_class):
    """MZ-5 … MZ-24 and the options' tables: 20 games from each of 12 positions 3 … 36
    steps into seeded games (every phase but the janken), per option set."""
    game, core, pos = setup(OPTIONS[i])
    phases = set()
    for seed in range(12):
        mid = mid_game(core, pos, 100 + seed, 3 + 3 * seed)
        phases.add(mid & 7)
        same_playouts(game, core, mid, range(20), rng_class)
    assert len(phases) >= 3, phases


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_playouts_from_the_reference_positions(entry):
    """MZ-19 … MZ-24, MZ-Q2, MZ-Q5, MZ-Q7: 50 games from each reference position."""
    game = cardlab.load("mazemon", **entry.get("options", {}))
    core = core_of(game)
    same_playouts(game, core, core.encode(game.state_from_dict(entry["position"])), range(50))


@pytest.mark.parametrize("limit", [0, 1, 2, 5, 20])
def test_X_playouts_cut_off_at_the_limit(limit):
    """After ``limit`` steps a playout stops with zero returns, as today's core's."""
    game, core, pos = setup({"payoff": "score"})
    same_playouts(game, core, pos, range(30), limit=limit)
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.playout(random.Random(0), limit) == ((0, 0), limit)


@pytest.mark.parametrize("i,depth", [(0, 6), (3, 6), (5, 5)])
def test_X_same_perft_from_the_start(i, depth):
    """MZ-2, MZ-3, MZ-6, MZ-7, MZ-18: the tree walk (moves or outcomes and a step at
    every node) from the start counts today's core's lines."""
    game, core, pos = setup(OPTIONS[i])
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(depth) == perft(core, pos, depth)


@pytest.mark.parametrize("i", [0, 4, 6])
def test_X_same_perft_from_mid_game(i):
    """MZ-5 … MZ-24: perft 4 from 6 positions 8 … 33 steps into seeded games."""
    game, core, pos = setup(OPTIONS[i])
    wc = wcore.make_word_core(game, core)
    for seed in range(6):
        mid = mid_game(core, pos, seed, 8 + 5 * seed)
        wc.load(mid)
        assert wc.perft(4) == perft(core, mid, 4), seed


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_perft_from_the_reference_positions(entry):
    """MZ-19 … MZ-24, MZ-Q2, MZ-Q5, MZ-Q7: perft 12 from each reference position (most
    of them whole games)."""
    game = cardlab.load("mazemon", **entry.get("options", {}))
    core = core_of(game)
    pos = core.encode(game.state_from_dict(entry["position"]))
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(12) == perft(core, pos, 12)


def test_X_runs_without_cython(monkeypatch):
    """Where ``import cython`` fails (the Lite site) the module runs on cardlab's shim,
    with the same playouts (MZ-1 … MZ-24)."""
    plain = without_cython(monkeypatch, wcore)
    game, core, pos = setup({})
    wc = plain.make_word_core(game, core)
    for seed in range(30):
        want_rng, got_rng = random.Random(seed), random.Random(seed)
        wc.load(pos)
        got = wc.playout(got_rng)
        want = _playout_core(core, pos, want_rng, 10_000, 2)
        assert (tuple(got[0]), got[1]) == (tuple(want[0]), want[1]) and got_rng.getstate() == want_rng.getstate()


def test_X_an_attack_table_beyond_the_word_core_gives_none(monkeypatch):
    """MZ-8: core.py's attack lists are held as target masks; a swapped
    ``rules.attacks`` listing a class's targets in another order is beyond them: no word
    core, and ``core_of`` plays on today's core."""

    def reversed_attacks(ready, targets, untapped, fights):
        return sorted(ORIGINAL(ready, targets, untapped, fights), key=lambda ij: (fights[ij[0]][ij[1]][0], -ij[1]))

    ORIGINAL = rules.attacks
    monkeypatch.setattr(rules, "attacks", reversed_attacks)
    game = cardlab.load("mazemon")
    assert wcore.make_word_core(game) is None
    assert getattr(core_of(game), "word_cores", None) is None
    monkeypatch.undo()
    assert wcore.make_word_core(cardlab.load("mazemon")) is not None
