"""The compact cores (cardlab.cores, issue P item 4) agree with the public
State move by move: the same positions, players, legal moves in the same
order, chance probabilities, simultaneous choices and payoffs, on seeded
random games of every option set each core module lists in TEST_OPTIONS.

Since issue S each game's own tests (``tests/games/<g>/test_<g>_core.py``)
compare core and State on *every* reachable state of small configurations;
the random walks here reach the large default ones, and are kept short
(60 games per option set, 300 more in the slow run; 300 and 2,000 before)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.cores import core_of, playout


def variants():
    out = []
    for name in cardlab.games():
        module = cardlab.games.package(name).core
        for i, options in enumerate(module.TEST_OPTIONS):
            out.append(pytest.param(name, options, id=f"{name}-{i}"))
    return out


VARIANTS = variants()


def walk(game, core, rng, check_decode=False):
    """One random game on the State and on the core side by side."""
    s = game.new_initial_state()
    pos = core.encode(s)
    simultaneous = game.spec.simultaneous
    steps = 0
    while True:
        assert core.encode(s) == pos, (steps, s.to_dict())
        if check_decode:
            assert core.decode(pos) == s
        p = s.current_player
        assert core.player(pos) == p, (steps, s.to_dict())
        if simultaneous:
            assert core.simultaneous(pos) == bool(p >= 0 and s.simultaneous()), (steps, s.to_dict())
        if p == TERMINAL:
            assert tuple(core.returns(pos)) == tuple(s.returns())
            return steps
        if p == CHANCE:
            outs = core.chance(pos)
            probs = s.chance_outcomes()
            total = sum(w for _, w in outs)
            assert [Fraction(w, total) for _, w in outs] == [q for _, q in probs], (steps, s.to_dict())
            if getattr(core, "uniform_chance", False):  # what playout's draw by index relies on
                assert len({w for _, w in outs}) == 1, (steps, s.to_dict())
            i = rng.randrange(len(outs))
            s, pos = s._apply(probs[i][0]), core.play(pos, outs[i][0])
        else:
            moves = core.moves(pos)
            acts = s.legal_actions()
            assert len(moves) == len(acts), (steps, s.to_dict(), acts)
            if getattr(core, "random_move", None) is not None:  # what rng.choice(moves) would draw
                for k in (0, len(moves) - 1, rng.randrange(len(moves))):
                    drawn = []
                    assert core.random_move(pos, lambda n: drawn.append(n) or k) == moves[k], (steps, k, s.to_dict())
                    assert drawn == [len(moves)]  # one draw, among all the moves
            i = rng.randrange(len(acts))
            s, pos = s._apply(acts[i]), core.play(pos, moves[i])
        steps += 1


@pytest.mark.parametrize("name,options", VARIANTS)
def test_core_agrees_with_state(name, options):
    """P item 4: 60 seeded games per option set (the slow run: 300 more).
    Also the optional parts of the protocol: a core that says its chance is
    uniform has equal weights at every chance node met, and its
    ``random_move`` picks the move of the index drawn."""
    game = cardlab.load(name, **options)
    core = core_of(game)
    assert core is not None, f"{name} {options}: make_core gave no core"
    rng = random.Random(f"{name}{sorted(options.items())}")
    for i in range(60):
        walk(game, core, rng, check_decode=i < 20)


@pytest.mark.slow
@pytest.mark.parametrize("name,options", VARIANTS)
def test_core_agrees_with_state_thousands(name, options):
    """P item 4: 300 more seeded games per option set."""
    game = cardlab.load(name, **options)
    core = core_of(game)
    rng = random.Random(f"slow {name}{sorted(options.items())}")
    for _ in range(300):
        walk(game, core, rng)


@pytest.mark.parametrize("name,options", VARIANTS)
def test_core_playout_is_the_state_playout(name, options):
    """cardlab.cores.playout on the core draws exactly as on the State: the
    same seed plays the same game (same length, same payoffs), so MCTS
    rollouts on cores change no seeded result."""
    game = cardlab.load(name, **options)
    root = game.new_initial_state()
    for seed in range(40):
        on_core = playout(root, random.Random(seed))
        assert on_core == playout(root, random.Random(seed), use_core=False)
        assert len(on_core[0]) == game.spec.num_players and on_core[1] > 0


def test_core_of_caches():
    game = cardlab.load("koinobori")
    assert core_of(game) is core_of(game)
