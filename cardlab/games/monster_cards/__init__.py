"""MONSTER CARDS (モンスターカード): 2 to 8 players fight with decks they built.

Each player defends, turn by turn, against the one card in the shared attack
zone; the battle is decided on a scale (勝負の秤) by the cards' rarity and
their four affinities; a failed defence mills the defender's deck, and the
last player with cards in their deck wins (docs/rules/monster_cards.md).

The game's package: ``rules`` (the rules as small pure functions, the scale
among them), ``state`` (the Game and the State: the flow of a turn),
``key`` (the declared layout of a position), ``cards`` (skills, affinity
tables, costs, the card builder and deck files), ``battle`` (one battle,
explained), ``positions`` (what a saved position must be), ``text`` (the
explanations), ``core`` (the compact core the solvers search, its tables
built from ``rules``), ``render`` (its pictures and texts) and ``wcore``
(the core on C words, issue X: random playouts where it runs compiled).
"""

from ...builds import import_typed
from . import battle as _battle_module  # noqa: F401  (the battle module, before the name battle is the function)
from . import cards, core, key, positions, render, rules, state, text
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, MonsterCards

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = MonsterCards

#: the core on C words: compiled where it is built, else (CARDLAB_PURE=1 too) as Python
wcore = import_typed(f"{__name__}.wcore")

_MODULES = (state, cards, _battle_module, rules, key, text, positions)


def __getattr__(name: str):
    """Every other name of the game's modules as before the package (the
    module that now defines it: the state module first)."""
    for module in _MODULES:
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module 'cardlab.games.monster_cards' has no attribute {name!r}")
