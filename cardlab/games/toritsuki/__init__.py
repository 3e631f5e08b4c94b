"""Toritsuki card battle (とりつきカードバトル): summon yokai, attack, possess.

The game's package: ``rules`` (the rules as small pure functions), ``state``
(the Game and the State), ``moves`` (the legal actions), ``views`` (what
the players see), ``positions`` (the key's layout and the checks of
``state_from_dict``), ``cards`` (card data and the card file), ``text``
(explanations and prose), ``core`` (the compact core the solvers search),
``render`` (its pictures and texts), ``wcore`` (the core on C words: random
playouts where it runs compiled).
"""

from ...builds import import_typed
from . import cards, core, positions, render, rules, state, text
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, Toritsuki

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = Toritsuki

#: the core on C words: compiled where it is built, else (CARDLAB_PURE=1 too) as Python
wcore = import_typed(f"{__name__}.wcore")


def __getattr__(name: str):
    """Every other name of the game's modules, as before the package split
    (``RESULT_TEXT``, ``category_text``, ``check_deck``, ``HAND_START`` …)."""
    for module in (state, cards, text, rules, positions):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
