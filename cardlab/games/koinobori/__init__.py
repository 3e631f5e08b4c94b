"""Koi-koi Nobori (こいこいのぼり): two players pair carp-streamer cards from
hand with carp on the field into nobori, which score by colour; a
kabutogaeshi sends one of the opponent's nobori back into the deck, and the
optional koi-koi call after a third nobori bets on one more.  Rules:
``docs/rules/koinobori.md``.

The game's package, to read in this order: ``rules`` (the rules as small
pure functions: pairs, who can act, the end, koi-koi, the score), ``state``
(the Game and the State: the flow of a turn, calling ``rules``), ``cards``
(the card file and its checks), ``positions`` (what a saved position must
be), ``text`` (explanations and words), ``core`` (the compact core the
solvers search, its tables built from ``rules``), ``render`` (its
pictures) and ``wcore`` (the core on C words, issue X: random playouts where
it runs compiled).
"""

from ...builds import import_typed
from . import cards, core, positions, render, rules, state, text
from .state import *  # noqa: F403  (the public names of the game)
from .state import __all__, Koinobori

#: the game, for the catalogue (:mod:`cardlab.games`)
GAME = Koinobori

#: the core on C words: compiled where it is built, else (CARDLAB_PURE=1 too) as Python
wcore = import_typed(f"{__name__}.wcore")


def __getattr__(name: str):
    """Every other name of the game's modules, as the single module before
    the package had them (``_can_act``, ``ACTION_RE``, ``card_name``, ...)."""
    for module in (state, rules, cards, text, positions):
        if hasattr(module, name):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
