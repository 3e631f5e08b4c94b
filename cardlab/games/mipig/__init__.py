"""mipig trading cards (mipigトレーディングカード): lay pigs face down, then battle edge to edge.

The game's package: ``rules`` (the rules as small pure functions), ``state``
(the Game and the State), ``key`` (the position's declared layout),
``cards`` (the cards and their file), ``seen`` (what each player sees),
``positions`` (the check of a saved position), ``text`` (the words),
``core`` (the compact core the solvers search), ``render`` (its pictures),
``wcore`` (the core on C words: random playouts where it runs compiled).
"""

from ...builds import import_typed
from . import cards, core, key, positions, render, rules, seen, state, text
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, Mipig

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = Mipig

#: the core on C words: compiled where it is built, else (CARDLAB_PURE=1 too) as Python
wcore = import_typed(f"{__name__}.wcore")

#: where a name not in ``__all__`` is looked up, in this order (the names of the state module before the split)
_MODULES = (state, rules, text, cards, key, seen, positions)


def __getattr__(name: str):
    """Every other name of the game's modules, as before the package was split."""
    for module in _MODULES:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module 'cardlab.games.mipig' has no attribute {name!r}")
