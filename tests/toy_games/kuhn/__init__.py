"""Kuhn poker, the smallest card game with hidden cards: three cards (J, Q,
K), one each, one round of betting.  Not one of cardlab's games: a toy that
shows how a game is added (issue S, item 9).  This folder is all there is of
it: ``rules.py`` (the rules as small pure functions), ``state.py`` (the Game
and the State); ``tests/conftest.py`` finds every package of
``tests/toy_games/`` and puts it beside the catalogue's games, so the
conformance suite, the leak test, trees, the solver and the board take it
with no change anywhere else.  Its value for the first player is -1/18
(Kuhn 1950), which ``test_kuhn.py`` checks against the exact solvers.
"""

from . import rules, state
from .state import Kuhn, KuhnState

#: the game (a package of cardlab's catalogue has the same face)
GAME = Kuhn

__all__ = ["GAME", "Kuhn", "KuhnState", "rules", "state"]
