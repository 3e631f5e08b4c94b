"""Mazemon (マゼモン): ten cards each, spent as mana or fought as monsters.

Two players hold their whole deck of ten cards; each turn one card goes face
down into mana (チャージ), monsters are summoned with that mana (cheaper when
they share materials, そざい, with the monsters already out) and fight: the
technique number first, then fire, grass and water beating each other, a KO
or a wound (キズ).  Three captured monsters win.  Rules:
``docs/rules/mazemon.md``.

The game's package, read it in this order: ``rules`` (each rule a small
pure function with its rule id), ``state`` (the Game and the State: the
flow of a turn calling the rules), ``key`` (the State's key, field by
field), ``cards`` (the cards, the card file's schema, the tables of a game),
``positions`` (what a saved position must satisfy), ``text`` (explanations
and prose), ``core`` (the compact core the solvers search, its tables built
from the rules), ``render`` (its pictures and texts) and ``wcore`` (the core
on C words, its tables copied from ``core``'s: random playouts where it runs
compiled).
"""

from ...builds import import_typed
from . import cards, core, key, positions, render, rules, state, text
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, Mazemon

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = Mazemon

#: the core on C words: compiled where it is built, else (CARDLAB_PURE=1 too) as Python
wcore = import_typed(f"{__name__}.wcore")


def __getattr__(name: str):
    """Every other name of the game's modules, as before the package was split
    (its state module, then the cards, the words, the rules, the key and the
    position checks)."""
    for module in (state, cards, text, rules, key, positions):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module 'cardlab.games.mazemon' has no attribute {name!r}")
