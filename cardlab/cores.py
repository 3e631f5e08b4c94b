"""Compact engine cores: each game's rules again, on small integer positions,
for the solvers and for random playouts (issue P, item 4).

The public :class:`~cardlab.State` stays what users and notebooks see: an
immutable, hashable object with string actions, explanations and views.
Under it, a game module may offer a *core*: the same rules on positions that
are plain ints (or tuples of ints), with integer moves and integer chance
weights, and no strings, Fractions or objects on the hot path.  The solvers
search cores where one exists and fall back to the ``State`` otherwise;
:func:`playout` plays random games on them.

A core is built for one :class:`~cardlab.Game` (its options fixed) by
``make_core(game)`` of the game's ``core`` module (``cardlab.games.mipig.core``), which returns ``None`` when
the options are beyond it.  :func:`core_of` finds and caches it.  A core
offers:

``encode(state) -> pos``
    the position of a public state (``None`` if this state is beyond the
    core).  Two states are equal exactly when their positions are equal.
``decode(pos) -> State``
    the public state back: ``decode(encode(s)) == s``.
``player(pos) -> int``
    the player to move, :data:`~cardlab.CHANCE` or :data:`~cardlab.TERMINAL`.
``moves(pos) -> list[int]`` (or a tuple; callers never change it)
    the legal moves, in the order of ``decode(pos).legal_actions()``: move
    ``i`` is that list's action ``i`` (the solver maps best moves back to
    action strings by their index).
``chance(pos) -> list[tuple[int, int]]`` (or a tuple)
    ``(outcome, weight)`` pairs in the order of ``chance_outcomes()``, each
    weight a positive int: outcome ``i`` has probability
    ``weight_i / sum(weights)``.
``play(pos, move) -> pos``
    the position after a move or a chance outcome (never checked: moves come
    from ``moves`` or ``chance``).
``returns(pos) -> tuple``
    one payoff per player at the end, as ``State.returns()`` gives them.
``simultaneous(pos) -> bool``
    (only for games whose ``spec.simultaneous`` can be true) whether ``pos``
    is a simultaneous choice; the solver hands those positions to the
    ``State`` search, which solves their matrix games.
``uniform_chance`` (optional attribute, default false)
    true when every chance node's weights are all equal: :func:`playout`
    then draws an outcome by its index alone.
``history_heuristic`` (optional attribute, default false)
    true asks the solver to try first the moves whose cut-offs have saved
    it the most (the history heuristic, weighted by the size of the subtree
    searched below the cutting move).  Measured per core: it more than halves
    mipig's search on most deals and doubles Koi-koi Nobori's, so only mipig
    asks.
``random_move(pos, randrange) -> move`` (optional)
    ``moves(pos)[randrange(len(moves(pos)))]``, found without building the
    list where that is cheaper (what ``rng.choice`` draws, from the same
    random numbers).

``tests/test_cores.py`` checks every core against its ``State`` move by move
on thousands of seeded random games.

A game package may also have a *word core* (``wcore``, issue X: mipig's), the
same rules on C words in Cython's pure-Python mode.  Where it runs compiled
and handles the game's options, :func:`core_of` hangs it on the core and
:func:`playout_from` plays on it: the same games from the same random numbers
(``tests/test_compiled_agreement.py``, ``tests/test_compiled_wiring.py``).
``CARDLAB_PURE=1`` in the environment turns it off; :func:`build_info` says per
game which cores run compiled.
"""

from __future__ import annotations

import random
import sys
from bisect import bisect_left
from math import gcd
from typing import Any

from . import games
from .builds import compiled, import_typed, pure
from .core import CHANCE, TERMINAL, Game, State, sample_chance

__all__ = ["core_of", "playout", "playout_from", "perft", "build_info"]

_NONE = object()

# the cores lived in cardlab/cores/<game>.py before each game had a package:
# ``import cardlab.cores.mipig`` still gives the game's core module
for _name, _package in games.CATALOGUE.items():
    sys.modules[f"{__name__}.{_name}"] = _package.core


def core_of(game: Game) -> Any:
    """The compact core of ``game`` (cached on the game), or ``None`` when its
    module has none or its options are beyond it.  Where the game's package has a
    word core (``wcore``) running compiled for these options, the core carries it
    (``word_cores``) and :func:`playout_from` plays on it (issue X)."""
    core = game.__dict__.get("_core", _NONE)
    if core is _NONE:
        package = games.CATALOGUE.get(game.name)
        module = getattr(package, "core", None)
        core = None if module is None else module.make_core(game)
        words = None if core is None else _word_cores(game, core, getattr(package, "wcore", None))
        if words is not None:
            core.word_cores = words
        game.__dict__["_core"] = core
    return core


def build_info() -> dict[str, dict[str, bool | None]]:
    """Per game, which of its cores run compiled: ``core`` (the compact core) and
    ``word_core`` (the core on C words, issue X; None where the game has none), ``used``:
    whether playouts use the word core (compiled and not ``CARDLAB_PURE=1``; still only for
    the option sets it handles), and ``search``: whether ``cardlab.solve`` searches on it
    (the word search, :mod:`cardlab.wsearch`, compiled too).  A pure install (no C
    compiler, no Cython, the JupyterLite site) says False everywhere."""
    # (imported here: it imports the search, which imports this; never under CARDLAB_PURE=1,
    #  where import_typed would put the .py in place of an imported compiled module)
    search = not pure() and bool((sys.modules.get("cardlab.wsearch") or import_typed("cardlab.wsearch")).compiled)
    info = {}
    for name, package in games.CATALOGUE.items():
        wcore = compiled(getattr(package, "wcore", None))
        used = bool(wcore) and not pure()
        info[name] = {"core": compiled(getattr(package, "core", None)), "word_core": wcore,
                      "used": used, "search": used and search}
    return info


class _WordCores:
    """The word cores of one game to play out on: a playout changes the word core it
    runs on, so each playout takes one (made when none is spare) and gives it back."""

    def __init__(self, module: Any, game: Game, core: Any, first: Any) -> None:
        self.module, self.game, self.core, self.spare = module, game, core, [first]

    def take(self) -> Any:
        try:
            return self.spare.pop()
        except IndexError:  # another thread's playout holds it
            return self.module.make_word_core(self.game, self.core)

    def give(self, wc: Any) -> None:
        self.spare.append(wc)


def _word_cores(game: Game, core: Any, module: Any) -> _WordCores | None:
    """The game's word cores where ``module`` (its package's ``wcore``) runs compiled,
    handles these options and is not turned off (``CARDLAB_PURE=1``); and only after it
    played one seeded game from the start exactly as :func:`playout_from` plays it on
    ``core`` (the same returns, steps and random numbers drawn: its draws copy this
    Python's ``Random.randrange``), else None.  As Python the word core is slower than
    the core (issue X): it is used compiled only."""
    if module is None or not getattr(module, "compiled", False) or pure():
        return None
    wc = module.make_word_core(game, core)
    if wc is None:
        return None
    pos = core.encode(game.new_initial_state())
    want_rng, got_rng = random.Random(1), random.Random(1)
    want = _playout_core(core, pos, want_rng, 10_000, game.spec.num_players)
    wc.load(pos)
    got = wc.playout(got_rng, 10_000)
    if (tuple(got[0]), got[1]) != (tuple(want[0]), want[1]) or got_rng.getstate() != want_rng.getstate():
        return None
    return _WordCores(module, game, core, wc)


#: a chance node's ``(outcome, weight)`` pairs -> how to draw from them (_draw)
_DRAWS: dict = {}


def _draw(outs) -> tuple[int, list[int], list[int]]:
    """How :func:`~cardlab.core.sample_chance` draws from ``(outcome, weight)``
    pairs: ``randrange(size)`` (size the lcm of the reduced probabilities'
    denominators), then the first outcome whose running total passes it."""
    g = gcd(*(w for _o, w in outs))
    cumulative, total = [], 0
    for _o, w in outs:
        total += w // g
        cumulative.append(total - 1)
    return total, cumulative, [o for o, _w in outs]


def playout(state: State, rng: random.Random, limit: int = 10_000, *, use_core: bool = True) -> tuple[tuple, int]:
    """One random game from ``state``: uniform among the legal moves, chance
    by its exact probabilities, drawn from ``rng`` exactly as
    :func:`~cardlab.core.sample_chance` and ``rng.choice(legal_actions())``
    draw them, so a seeded playout on the core is the same game as on the
    ``State``.  Returns ``(returns, steps)``; after ``limit`` steps the game
    is cut off and the returns are zeros (as ``State.returns()`` before the
    end).  Uses the game's core when it has one (and ``use_core``)."""
    core = core_of(state.game) if use_core else None
    steps = 0
    if core is None or (pos := core.encode(state)) is None:
        s = state
        while (p := s.current_player) != TERMINAL:
            if steps == limit:
                return tuple(s.returns()), steps
            s = s._apply(sample_chance(s, rng) if p == CHANCE else rng.choice(s.legal_actions()))
            steps += 1
        return tuple(s.returns()), steps
    return playout_from(core, pos, rng, limit, state.game.spec.num_players)


def playout_from(core: Any, pos: Any, rng: random.Random, limit: int = 10_000,
                 num_players: int = 2) -> tuple[tuple, int]:
    """:func:`playout` from a position of ``core`` (no ``State`` made):
    ``(returns, steps)``, zeros when cut off after ``limit`` steps.  On the core's
    compiled word core where it has one (:func:`core_of`): the same game, the same
    random numbers drawn."""
    words = getattr(core, "word_cores", None)
    if words is None:
        return _playout_core(core, pos, rng, limit, num_players)
    wc = words.take()
    try:
        wc.load(pos)
        r, steps = wc.playout(rng, limit)
    finally:
        words.give(wc)
    return tuple(r), steps


def _playout_core(core: Any, pos: Any, rng: random.Random, limit: int, num_players: int) -> tuple[tuple, int]:
    """:func:`playout_from` on the core itself."""
    steps = 0
    player, moves, chance, play = core.player, core.moves, core.chance, core.play
    choice, randrange = rng.choice, rng.randrange
    draws = _DRAWS
    uniform = getattr(core, "uniform_chance", False)
    random_move = getattr(core, "random_move", None)
    while (p := player(pos)) != TERMINAL:
        if steps == limit:
            return (0,) * num_players, steps
        if p == CHANCE:
            outs = chance(pos)
            if uniform:  # equal weights: sample_chance draws randrange(len(outs)), the outcome of that index
                pos = play(pos, outs[randrange(len(outs))][0])
                steps += 1
                continue
            key = outs if outs.__class__ is tuple else tuple(outs)
            draw = draws.get(key)
            if draw is None:
                if len(draws) >= 100_000:
                    draws.clear()
                draw = draws[key] = _draw(outs)
            size, cumulative, outcomes = draw
            pos = play(pos, outcomes[bisect_left(cumulative, randrange(size))])
        elif random_move is not None:
            pos = play(pos, random_move(pos, randrange))
        else:
            pos = play(pos, choice(moves(pos)))
        steps += 1
    return tuple(core.returns(pos)), steps


def perft(core: Any, pos: Any, depth: int) -> int:
    """The number of lines of ``depth`` steps from ``pos`` on ``core`` (fewer where the
    game ends; chance outcomes count as steps): the tree walk under a search, to check
    one core against another (issue X: mipig's word core)."""
    p = core.player(pos)
    if depth == 0 or p == TERMINAL:
        return 1
    moves = [o for o, _w in core.chance(pos)] if p == CHANCE else core.moves(pos)
    return sum(perft(core, core.play(pos, m), depth - 1) for m in moves)
