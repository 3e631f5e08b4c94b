"""Issue X, item 2: mipig's word core wired in.  Where it runs compiled, the random
playouts of :func:`cardlab.cores.playout_from` (the anytime estimate, the levels, the
MCTS agent, ``cardlab.cores.playout``) run on it; ``CARDLAB_PURE=1`` turns it off; seeded
results are the same either way.  :func:`cardlab.build_info` says which cores run
compiled.

Runs in both builds: as installed (``pip install -e .`` compiles the word core where it
can; ``CARDLAB_EXPECT_COMPILED=1`` fails the run if it is not compiled) and with
``CARDLAB_PURE=1`` (the ``.py`` runs; ``make test`` runs both).  In the pure build the
word core is made to count as compiled (``words`` below), so it is used as Python and
the comparison still has two sides.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import warnings
from importlib.machinery import ModuleSpec

import pytest

import cardlab
from cardlab import CHANCE, agents, builds, cores
from cardlab.builds import SLACK, import_typed
from cardlab.core import sample_chance
from cardlab.cores import core_of, playout, playout_from
from cardlab.games.mipig import wcore


@pytest.fixture
def words(monkeypatch):
    """The word core counts as compiled (it is, in a compiled build) and the pure path is
    not forced: a game loaded now plays out on it."""
    monkeypatch.delenv("CARDLAB_PURE", raising=False)
    monkeypatch.setattr(wcore, "compiled", True)


def load(pure: bool, monkeypatch, **options):
    """A fresh game (its core made now) with the pure path forced or not."""
    if pure:
        monkeypatch.setenv("CARDLAB_PURE", "1")
    else:
        monkeypatch.delenv("CARDLAB_PURE", raising=False)
    game = cardlab.load("mipig", **options)
    core_of(game)
    return game


def test_X_build_info_says_which_cores_run_compiled(monkeypatch):
    monkeypatch.delenv("CARDLAB_PURE", raising=False)
    info = cardlab.build_info()
    assert set(info) == set(cardlab.games.names())
    assert info["mipig"]["word_core"] == wcore.compiled == (not wcore.__file__.endswith(".py"))
    assert info["mipig"]["used"] == wcore.compiled
    for name, package in cardlab.games.CATALOGUE.items():  # every game with a word core says the same of its own
        module = getattr(package, "wcore", None)
        assert info[name]["word_core"] == (None if module is None else module.compiled)
        assert info[name]["used"] == bool(module is not None and module.compiled)
        assert info[name]["search"] == (info[name]["used"] and import_typed("cardlab.wsearch").compiled)
    monkeypatch.setenv("CARDLAB_PURE", "1")
    assert not any(row["used"] or row["search"] for row in cardlab.build_info().values())
    if os.environ.get("CARDLAB_EXPECT_COMPILED") == "1":
        assert wcore.compiled, wcore.__file__


def test_X_word_core_used_where_compiled_not_where_pure(words, monkeypatch):
    """The core carries the word core (compiled, options it handles), not with
    CARDLAB_PURE=1, not as Python, not where the options are beyond it (a card twice)."""
    assert core_of(load(False, monkeypatch)).word_cores is not None
    assert getattr(core_of(load(True, monkeypatch)), "word_cores", None) is None
    twice = load(False, monkeypatch, hand_size=3, hands=[["p01", "p01", "p02"], ["p03", "p04", "p04"]],
                 open_hands=True)
    assert getattr(core_of(twice), "word_cores", None) is None
    monkeypatch.setattr(wcore, "compiled", False)
    assert getattr(core_of(load(False, monkeypatch)), "word_cores", None) is None


def into_placement(state, steps: int, walk: random.Random):
    """``state`` after ``steps`` seeded random moves and chance outcomes (from the deal:
    into the placement)."""
    for _ in range(steps):
        state = state._apply(sample_chance(state, walk) if state.current_player == CHANCE
                             else walk.choice(state.legal_actions()))
    return state


def totals(game, seeds) -> tuple:
    """The summed returns and steps of seeded playouts from the deal and from a
    placement, and the generators' states after them."""
    state = game.new_initial_state(seed=3)
    later = into_placement(state, 6, random.Random(0))
    out = []
    for start in (state, later):
        rng = random.Random(seeds)
        got = [playout(start, rng) for _ in range(seeds)]
        out.append((sum(r[0] for r, _s in got), sum(s for _r, s in got), rng.getstate()))
    return tuple(out)


@pytest.mark.parametrize("options", [{}, {"hand_size": 4, "open_hands": True, "first_player": 1},
                                     {"tiebreak": "janken", "first_player": "janken"}],
                         ids=["default", "open 4 each", "jankens"])
def test_X_same_playout_totals_either_way(words, monkeypatch, options):
    """MP-3 … MP-25: the same seeds give the same playout totals (returns, steps) and leave
    the generator in the same state, on the word core and with CARDLAB_PURE=1."""
    fast = load(False, monkeypatch, **options)
    assert core_of(fast).word_cores is not None
    pure = load(True, monkeypatch, **options)
    assert totals(fast, 60) == totals(pure, 60)


def test_X_same_estimate_and_moves_either_way(words, monkeypatch):
    """Through the public API: the anytime analysis at a node budget (its playouts in the
    drawn worlds) and the MCTS agent's moves are the same with and without the word core
    (which the first run used)."""
    taken = []
    take = cores._WordCores.take
    monkeypatch.setattr(cores._WordCores, "take", lambda self: taken.append(1) or take(self))
    results = []
    for pure in (False, True):
        game = load(pure, monkeypatch)
        state = into_placement(game.new_initial_state(seed=5), 5, random.Random(1))
        a = cardlab.analyse(state, player=state.current_player, nodes=3_000)
        agent = agents.MCTSAgent(seed=7, iterations=60)
        moves, s = [], state
        for _ in range(3):
            moves.append(agent.choose(s))
            s = s._apply(moves[-1])
        results.append(([(r["action"], r["value"]) for r in a.rows], moves))
        if not pure:
            assert len(taken) > 100
            used = len(taken)
    assert len(taken) == used
    assert results[0] == results[1]


def test_X_a_word_core_that_draws_otherwise_is_not_used(words, monkeypatch):
    """The word core is used only after one seeded game from the start came out as on the
    core: one that drew one random number more is refused."""
    real = wcore.make_word_core

    class Off:
        def __init__(self, wc):
            self.wc = wc

        def load(self, pos):
            self.wc.load(pos)

        def playout(self, rng, limit=10_000):
            rng.random()
            return self.wc.playout(rng, limit)

    monkeypatch.setattr(wcore, "make_word_core", lambda game, core=None: Off(real(game, core)))
    assert getattr(core_of(load(False, monkeypatch)), "word_cores", None) is None


def test_X_playouts_at_once_each_on_its_own_word_core(words, monkeypatch):
    """A playout changes the word core it runs on: playouts in threads each take one (a
    new one when none is spare) and give it back; the results are those of one thread."""
    game = load(False, monkeypatch)
    core = core_of(game)
    pos = core.encode(game.new_initial_state())
    want = [playout_from(core, pos, random.Random(seed)) for seed in range(40)]
    got = [None] * 40

    def run(k):
        for seed in range(k, 40, 4):
            got[seed] = playout_from(core, pos, random.Random(seed))

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want
    assert 1 <= len(core.word_cores.spare) <= 4
    assert core.word_cores.take() is not core.word_cores.take()  # none spare: a new one


def test_X_pure_runs_the_py():
    """CARDLAB_PURE=1: the word core imports from its .py (whatever is built), runs as
    Python and is not used; the agreement tests run it so (make test)."""
    code = ("import cardlab; from cardlab.games.mipig import wcore; "
            "print(wcore.__file__.endswith('.py'), wcore.compiled, cardlab.build_info()['mipig']['used'])")
    env = dict(os.environ, CARDLAB_PURE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "False"]


@pytest.fixture
def fake_build(tmp_path, monkeypatch):
    """A package ``fakepkg`` whose module ``typed`` is "compiled" (a stand-in file the
    finder is made to report) next to its .py; returns (source, built, imported names)."""
    pkg = tmp_path / "fakepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    source, built = pkg / "typed.py", pkg / "typed.built"
    source.write_text("compiled = False\n")
    built.write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(builds.importlib.util, "find_spec", lambda name: ModuleSpec(name, None, origin=str(built)))
    imported = []
    monkeypatch.setattr(builds.importlib, "import_module", lambda name: imported.append(name) or "the built one")
    monkeypatch.delenv("CARDLAB_PURE", raising=False)
    yield source, built, imported
    sys.modules.pop("fakepkg.typed", None)
    sys.modules.pop("fakepkg", None)


def test_X_a_build_older_than_its_py_is_not_loaded(fake_build, monkeypatch):
    """An editable install whose .py changed after it was compiled runs the .py (with a
    warning), not the old build; an up-to-date build is imported; CARDLAB_PURE=1 runs the
    .py without a warning."""
    source, built, imported = fake_build
    now = source.stat().st_mtime
    os.utime(built, (now - 2 * SLACK, now - 2 * SLACK))
    with pytest.warns(RuntimeWarning, match="newer than its compiled module"):
        module = import_typed("fakepkg.typed")
    assert module.__file__ == str(source) and not module.compiled and imported == []
    os.utime(built, (now, now))
    assert import_typed("fakepkg.typed") == "the built one" and imported == ["fakepkg.typed"]
    monkeypatch.setenv("CARDLAB_PURE", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert import_typed("fakepkg.typed").__file__ == str(source)
    assert imported == ["fakepkg.typed"]
