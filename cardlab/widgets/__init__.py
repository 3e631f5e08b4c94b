"""Interactive boards and tree views for JupyterLab (needs ipywidgets:
``pip install cardlab[notebook]``).

- :func:`board` / :class:`Board`: play any registered game against people
  and agents, with perspectives, undo/redo, a move log, hints and rule
  explanations.
- :class:`TreeView`: a small game tree with its solved values; expand a
  node, jump a board to it.

The widgets call only the public API of the engine (``legal_actions``,
``observation``, ``explain``, :class:`cardlab.Match`, :func:`cardlab.analyse`,
:func:`cardlab.tree`, :func:`cardlab.solve_tree`); the pictures come from the
pure functions of :mod:`cardlab.render`.
"""

from .board import AGENT_DEFAULTS, SEAT_CHOICES, Board, board
from .treeview import TreeView, tree_svg

__all__ = ["board", "Board", "TreeView", "tree_svg", "SEAT_CHOICES", "AGENT_DEFAULTS"]
