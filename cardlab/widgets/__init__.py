"""Interactive boards, the class app and tree views for JupyterLab (needs
ipywidgets: ``pip install cardlab[notebook]``).

- :func:`board` / :class:`Board`: play any registered game against people
  and agents, with perspectives, undo/redo, a move log, hints and rule
  explanations.  Fair play: every move text and picture a view gets comes
  from :func:`cardlab.render.seen_move`; the moves to choose from appear
  only in the mover's own view; two persons at one screen get a privacy
  screen between their turns (:meth:`Board.ready`); the hint is the fair
  one (only what the player can see) unless a teacher ticks "open hint";
  ``board(game, players, seat=1, locked=True)`` is a classroom board that
  keeps a student in their seat (no other view, no seat or option
  changes, no undo or redo, only the fair hint).  ``language="ja"`` makes a
  board speak Japanese (``None``, the default: :func:`cardlab.i18n.get_language`
  when it draws); its selector "Language 言語" switches every text at once.
- :func:`play_app` / :class:`PlayApp`: the class app of
  ``notebooks/play.ipynb`` (served by Voila); a link like
  ``?game=mipig&seat=0&lock=1&opponent=heuristic&seed=3`` starts a locked
  board at once (:func:`parse_query`); ``&lang=ja`` gives the page in
  Japanese (:func:`query_language`).
- :class:`TreeView`: a small game tree with its solved values; expand a
  node, jump a board to it.

The widgets call only the public API of the engine (``legal_actions``,
``observation``, ``explain``, :class:`cardlab.Match`, :func:`cardlab.analyse`,
:func:`cardlab.tree`, :func:`cardlab.solve_tree`); the pictures come from the
pure functions of :mod:`cardlab.render`.
"""

from .app import QUERY_KEYS, PlayApp, parse_query, play_app, query_language
from .board import AGENT_DEFAULTS, SEAT_CHOICES, Board, board
from .treeview import TreeView, tree_svg

__all__ = ["board", "Board", "play_app", "PlayApp", "parse_query", "query_language", "QUERY_KEYS", "TreeView",
           "tree_svg", "SEAT_CHOICES", "AGENT_DEFAULTS"]
