"""mipig trading cards (mipigトレーディングカード): lay pigs face down, then battle edge to edge.

The game's package: ``state`` (the Game and the State), ``core`` (the
compact core the solvers search), ``render`` (its pictures and texts).
"""

from . import core, render, state
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, Mipig

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = Mipig


def __getattr__(name: str):
    """Every other name of the game's modules as before the package (its state module)."""
    return getattr(state, name)
