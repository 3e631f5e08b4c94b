"""cardlab: five small Japanese card games for teaching and analysis in JupyterLab.

>>> import cardlab
>>> game = cardlab.load("koinobori", open_hands=True)
>>> state = game.new_initial_state(seed=7)
>>> sorted(cardlab.games())[0]
'koinobori'

Texts people read come in English or Japanese: ``cardlab.set_language("ja")``
(the default follows ``LANG``/``LANGUAGE``; see :mod:`cardlab.i18n`).
"""

from .core import CHANCE, TERMINAL, Game, Spec, State
from .games import load
from .errors import (
    CardFileError,
    CardlabError,
    IllegalActionError,
    MalformedActionError,
    NotSolvableError,
    OptionError,
    PositionError,
    TooLargeError,
    BudgetError,
    UnknownGameError,
)
from .tree import tree, tree_state, write_dot, write_graphml
from .solve import Analysis, Solution, analyse, minimax, solve, solve_tree
from .match import Match
from .review import Review, review
from .i18n import get_language, set_language
from .cores import build_info
from . import agents, batch, games, i18n, render

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "TERMINAL", "Game", "Spec", "State", "games", "load",
    "CardlabError", "UnknownGameError", "OptionError", "IllegalActionError",
    "MalformedActionError", "PositionError", "CardFileError", "NotSolvableError",
    "TooLargeError", "BudgetError",
    "tree", "tree_state", "write_graphml", "write_dot",
    "solve", "solve_tree", "analyse", "minimax", "Solution", "Analysis",
    "Match", "review", "Review", "agents", "batch", "render", "i18n", "set_language", "get_language",
    "build_info",
]
