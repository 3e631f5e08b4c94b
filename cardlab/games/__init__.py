"""The catalogue: cardlab's games, listed here by hand.

Each game is a package of its own (``cardlab.games.mipig``): its rules, its
State, its compact core and its pictures.  Nothing registers itself on
import; this module is the one list, above the games, and
:func:`cardlab.load` and :func:`cardlab.games` read it.

``cardlab.games`` is both this package (``cardlab.games.koinobori``) and the
function the API has always offered: ``cardlab.games()`` lists the names.
(Importing ``cardlab.games.mipig`` sets the attribute ``games`` of
``cardlab`` to this package, so the package itself must be callable.)

>>> import cardlab
>>> cardlab.games()
['koinobori', 'mazemon', 'mipig', 'monster_cards', 'toritsuki']
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ..core import Game
from ..errors import UnknownGameError
from ..i18n import _
from . import koinobori, mazemon, mipig, monster_cards, toritsuki

__all__ = ["CATALOGUE", "names", "load", "package"]

#: name -> the game's package (its ``GAME`` is the Game class)
CATALOGUE: dict[str, types.ModuleType] = {
    p.GAME.name: p for p in (koinobori, mazemon, mipig, monster_cards, toritsuki)
}


def names() -> list[str]:
    """The names of the games, sorted."""
    return sorted(CATALOGUE)


def package(name: str) -> types.ModuleType:
    """The package of the game called ``name``."""
    try:
        return CATALOGUE[name]
    except (KeyError, TypeError):
        raise UnknownGameError(
            _("unknown game {name}; the games are: {games}").format(name=repr(name), games=", ".join(names())))


def load(name: str, **options: Any) -> Game:
    """Load a game by name with options.

    >>> import cardlab
    >>> cardlab.load("koinobori", open_hands=True).spec.perfect_information
    True
    """
    return package(name).GAME(**options)


class _CallableModule(types.ModuleType):
    def __call__(self) -> list[str]:
        """The names of the games, sorted."""
        return names()


sys.modules[__name__].__class__ = _CallableModule
