"""Issue X: Toritsuki's word core (``cardlab/games/toritsuki/wcore.py``, Cython's pure-Python
mode) agrees with today's compact core (``cardlab/games/toritsuki/core.py``) whether it runs
compiled or as Python: the same position after every step, the same players, moves in the same
order and returns on seeded random games of every option set of ``core.TEST_OPTIONS``, the
same playouts (same seeds: the same returns, steps and generator state after) from the start,
from mid-game positions and from the reference positions (``tests/data/reference/toritsuki.json``),
and the same perft.  Rule ids: docs/rules/toritsuki.md (TK-1 … TK-29, TK-Q1 … TK-Q8).

Runs in both builds: as Python (``CARDLAB_PURE=1``, or no compiled module), and compiled in
place (``cythonize -i -3 cardlab/games/toritsuki/wcore.py``) with ``CARDLAB_EXPECT_COMPILED=1``,
which fails the run if the module did not load compiled."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest
from test_compiled_agreement import OwnRandom, playouts_agree, steps_agree, without_cython

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.builds import pure
from cardlab.cores import _playout_core, core_of, perft
from cardlab.games.toritsuki import core as tk_core
from cardlab.games.toritsuki import wcore
from cardlab.games.toritsuki.core_tables import DD, DU, EV_KINDS, EVENT, N, STAGES, WN, _card_tables

REFERENCE = json.loads((Path(__file__).parent / "data" / "reference" / "toritsuki.json").read_text("utf-8"))
OPTIONS = tk_core.TEST_OPTIONS
#: a deck of 31 kinds (the most a hand's word holds) against one of 31 others (TK-1)
NOS = [c["no"] for c in json.loads((Path(cardlab.__file__).parent / "data" / "toritsuki.json").read_text("utf-8"))
       ["cards"]]
WIDE = {"decks": [NOS[:31], NOS[1:32]]}


def test_X_the_build_is_the_one_expected():
    """The module says whether it runs compiled, and that is where it was loaded from."""
    assert wcore.compiled == (not wcore.__file__.endswith(".py"))
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__


def test_X_core_of_hangs_the_word_core_where_it_runs_compiled():
    """``cardlab.cores.core_of`` plays out on the word core exactly where it runs compiled and
    ``CARDLAB_PURE`` is unset (the package's ``wcore`` is wired in)."""
    core = core_of(cardlab.load("toritsuki", first_player=1))
    assert hasattr(core, "word_cores") == (wcore.compiled and not pure())


def walk(game, core, wc, rng, seen=None, pos=None) -> int:
    """``steps_agree`` from ``pos`` (the start); ``seen`` counts the stages, move kinds, event
    kinds and ends met."""

    def note(pos, p, m):
        seen["stage", STAGES[pos[0]]] += 1
        if m is None:
            seen["end", end_rule(pos)] += 1
        elif p != CHANCE:
            seen["move", m >> 24] += 1
            if m >> 24 == EVENT:
                seen["event", EV_KINDS[game_tables(game).effect[m >> 8 & 0xFFFF][0]]] += 1

    pos = core.encode(game.new_initial_state()) if pos is None else pos
    return steps_agree(core, pos, wc, rng, None if seen is None else note)


def end_rule(pos) -> str:
    """How a game ended: TK-6 (six damage), TK-7 (a deck ran out) or TK-8 (a card's own win)."""
    loser = 15 + 15 * (1 - pos[WN])
    if pos[loser + DU] + pos[loser + DD] >= 6:
        return "TK-6"
    return "TK-7" if pos[loser + N] <= 0 else "TK-8"


_TABLES: dict = {}


def game_tables(game):
    if id(game) not in _TABLES:
        _TABLES[id(game)] = _card_tables(game)
    return _TABLES[id(game)]


@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[str(o) for o in OPTIONS])
def test_X_word_core_steps_agree_with_core(i):
    """TK-2 … TK-29, TK-Q2 … TK-Q8: every step of 20 seeded games per option set (deal,
    mulligan, coin, turns, summons, releases, moves, events, attacks, blocks, possessions,
    duels, damage, the end): the same position, player, moves in order and returns."""
    game = cardlab.load("toritsuki", **OPTIONS[i])
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    assert wc is not None
    total = sum(walk(game, core, wc, random.Random(seed)) for seed in range(20))
    assert total > 20 * 50


def test_X_the_walks_meet_every_stage_move_event_and_end():
    """The seeded games of the agreement tests pass through every stage (TK-Q6's shuffle with
    the known deck order), every move kind (TK-3, TK-13, TK-14, TK-16 … TK-19), every event
    kind (TK-Q2) and every way to end (TK-6, TK-7, TK-8): the agreement covers them all."""
    seen: Counter = Counter()
    for options in ({}, {"known_deck_order": True}, {"cards": "icons"}):
        game = cardlab.load("toritsuki", **options)
        core = core_of(game)
        wc = wcore.make_word_core(game, core)
        for seed in range(20):
            walk(game, core, wc, random.Random(seed), seen)
    assert {k[1] for k in seen if k[0] == "stage"} == set(STAGES)
    assert {k[1] for k in seen if k[0] == "move"} == set(range(13))
    assert {k[1] for k in seen if k[0] == "event"} == set(EV_KINDS)
    assert {k[1] for k in seen if k[0] == "end"} == {"TK-6", "TK-7", "TK-8"}


def test_X_a_deck_of_31_kinds_and_one_of_32():
    """TK-1: decks of 31 kinds fill a hand's word (the steps agree); a deck of 32 kinds is
    beyond the word core (None: the core plays alone)."""
    game = cardlab.load("toritsuki", **WIDE)
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    assert max(len(k) for k in game.kinds) == 31
    assert sum(walk(game, core, wc, random.Random(seed)) for seed in range(10)) > 500
    assert wcore.make_word_core(cardlab.load("toritsuki", decks=[NOS[:32], NOS[:31]])) is None


def test_X_same_draws_where_every_kind_has_three_copies():
    """TK-1, TK-2, TK-Q6: decks of 10 kinds thrice each: every card taken from a deck is drawn as
    ``cardlab.cores._draw`` draws it, by the counts over their gcd (3 at the deal: randrange(10),
    not randrange(30); a gcd of 2 would draw the same either way, getrandbits being the top bits
    of one word); the same steps and the same playouts."""
    game = cardlab.load("toritsuki", decks=[[no for no in NOS[:10] for _ in "abc"],
                                            [no for no in NOS[10:20] for _ in "abc"]])
    core = core_of(game)
    start = core.encode(game.new_initial_state())
    assert {c for _o, c in core.chance(start)} == {3}
    assert sum(walk(game, core, wcore.make_word_core(game, core), random.Random(seed)) for seed in range(5)) > 250
    same_playouts(game, start, range(100))


def mid_positions(game, core, seeds=range(3), steps=(15, 60, 120)):
    """Positions a few random steps into seeded games (every stage a game passes)."""
    out = []
    for seed in seeds:
        rng, pos = random.Random(seed), core.encode(game.new_initial_state())
        for n in range(max(steps) + 1):
            p = core.player(pos)
            if p == TERMINAL:
                break
            if n in steps:
                out.append(pos)
            moves = [o for o, _w in core.chance(pos)] if p == CHANCE else core.moves(pos)
            pos = core.play(pos, moves[rng.randrange(len(moves))])
    return out


def same_playouts(game, pos, seeds, rng_class=random.Random, limit=10_000):
    """``playouts_agree`` on Toritsuki's word core."""
    playouts_agree(wcore, game, core_of(game), pos, seeds, rng_class, limit)


@pytest.mark.parametrize("rng_class", [random.Random, OwnRandom], ids=["Random", "subclass"])
def test_X_same_playouts_from_the_start(rng_class):
    """TK-2 … TK-8: whole random games of the default game (the deal, mulligans, the coin TK-Q3,
    the turns), drawn from the same numbers: chance by core's weights (TK-Q6), moves by ``choice``."""
    game = cardlab.load("toritsuki")
    same_playouts(game, core_of(game).encode(game.new_initial_state()), range(300), rng_class)


@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[str(o) for o in OPTIONS])
def test_X_same_playouts_on_every_option_set(i):
    """TK-Q3, TK-Q6, TK-Q7, TK-13, TK-3: each option set, from the start and from positions 15,
    60 and 120 random steps in, with ``Random`` and a subclass; cut off after a few steps too."""
    game = cardlab.load("toritsuki", **OPTIONS[i])
    core = core_of(game)
    start = core.encode(game.new_initial_state())
    same_playouts(game, start, range(20))
    same_playouts(game, start, range(5), limit=7)
    for pos in mid_positions(game, core):
        same_playouts(game, pos, range(10))
        same_playouts(game, pos, range(5), OwnRandom)


@pytest.mark.parametrize("entry", REFERENCE, ids=[e["name"] for e in REFERENCE])
def test_X_same_playouts_and_tree_from_the_reference_positions(entry):
    """The reference endgames (possession reveals TK-19, pierce TK-Q7, blocks TK-17, the deck's
    end TK-7, moving to attack twice TK-13): the same playouts and the same perft to depth 6."""
    game = cardlab.load("toritsuki", **entry.get("options", {}))
    core = core_of(game)
    pos = core.encode(game.state_from_dict(entry["position"]))
    same_playouts(game, pos, range(50))
    wc = wcore.make_word_core(game, core)
    wc.load(pos)
    assert wc.perft(6) == perft(core, pos, 6)


@pytest.mark.parametrize("i", range(len(OPTIONS)), ids=[str(o) for o in OPTIONS])
def test_X_same_tree_on_words(i):
    """The tree walk under a search (moves and a step at every node, each child a copy): the
    word core's perft counts today's core's lines from the start (the deal, TK-2) and from
    positions 15, 60 and 120 random steps in."""
    game = cardlab.load("toritsuki", **OPTIONS[i])
    core = core_of(game)
    wc = wcore.make_word_core(game, core)
    for pos, depth in [(core.encode(game.new_initial_state()), 3)] + [(p, 4) for p in mid_positions(game, core)]:
        wc.load(pos)
        assert wc.perft(depth) == perft(core, pos, depth)
        assert wc.to_pos() == pos  # the walk leaves the position as it was


def test_X_runs_without_cython(monkeypatch):
    """Where ``import cython`` fails (the Lite site) the module runs on cardlab's shim, with the
    same playouts and steps (TK-2 … TK-8)."""
    plain = without_cython(monkeypatch, wcore)
    game = cardlab.load("toritsuki", known_deck_order=True)
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    for seed in range(10):
        wc = plain.make_word_core(game, core)
        wc.load(pos)
        want_rng, got_rng = random.Random(seed), random.Random(seed)
        want = _playout_core(core, pos, want_rng, 10_000, 2)
        got = wc.playout(got_rng)
        assert (tuple(got[0]), got[1]) == (tuple(want[0]), want[1])
        assert got_rng.getstate() == want_rng.getstate()
    assert walk(game, core, plain.make_word_core(game, core), random.Random(1)) > 50
