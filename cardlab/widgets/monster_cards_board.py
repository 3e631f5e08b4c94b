"""A MONSTER CARDS board: :func:`cardlab.widgets.board` whose table also
draws the scale (勝負の秤) of the last battle after each battle.

The widget sits above the game: it takes the game's pure renderer
(:class:`cardlab.games.monster_cards.render.BattleRenderer`) and gives it
the board whose history it reads; the game's package imports nothing of
the widgets.

>>> import cardlab
>>> from cardlab.widgets.monster_cards_board import board
>>> b = board(cardlab.load("monster_cards"), ["random", "random"], seed=5, autoplay=False)
>>> "攻撃ゾーン" in b.table.value
True
"""

from __future__ import annotations

from typing import Any, Sequence

from ..games.monster_cards.render import BattleRenderer
from .board import board as make_board

__all__ = ["board"]


def board(game_or_state: Any = "monster_cards", players: Sequence[Any] | None = None,
          perspective: Any = "auto", **kwargs: Any):
    """A :func:`cardlab.widgets.board` whose table also draws the scale of
    the last battle (勝負の秤) after each battle."""
    r = BattleRenderer()
    b = make_board(game_or_state, players, perspective, renderer=r, **kwargs)
    r.board = b
    b.set_autoplay(b.autoplay)  # redraw, now with the history
    return b
