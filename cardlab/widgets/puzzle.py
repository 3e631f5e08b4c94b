"""A puzzle board for notebooks: find the one good move (:mod:`cardlab.puzzles`).

:class:`PuzzleBoard` shows the mover's view only (every card for an
open-hands puzzle), one button per legal move, and says at once whether the
move is right, with the explanation and, for a wrong move, what it costs;
the solution then plays out and the pupil's Glicko-2 rating moves
(:class:`cardlab.puzzles.session.Session`, which holds all the logic: the
widget only draws it).  "next puzzle" picks the unsolved one rated nearest
the pupil, of the chosen theme.

>>> b = PuzzleBoard("koinobori", language="en")
>>> b.choose(b.session.puzzle.answer).right
True
"""

from __future__ import annotations

import html as _html
from typing import Any

import ipywidgets as widgets

from .. import i18n, render
from ..i18n import _
from ..puzzles.session import Result, Session
from ..puzzles.themes import theme_names

__all__ = ["PuzzleBoard", "puzzle_board"]


class PuzzleBoard(widgets.VBox):
    """The puzzles of ``game`` on a board (``theme``: only those; ``pid``:
    start with that one; ``language``: "en" or "ja", default cardlab's)."""

    def __init__(self, game: str, *, theme: str | None = None, pid: str | None = None,
                 language: str | None = None, path: Any = None) -> None:
        self.language = language
        self.session = Session(game, theme=theme, path=path)
        self.header = widgets.HTML()
        self.picture = widgets.HTML()
        self.moves = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.feedback = widgets.HTML()
        self.feedback.add_class("cardlab-puzzle-feedback")
        self.next_button = widgets.Button(button_style="info")
        self.next_button.on_click(lambda _b: self.next_puzzle())
        self.last: Result | None = None
        super().__init__([self.header, self.picture, self.moves, self.feedback, self.next_button])
        self.next_puzzle(pid)

    @property
    def puzzle(self) -> Any:
        return self.session.puzzle

    def next_puzzle(self, pid: str | None = None) -> None:
        self.session.next(pid)
        self.last = None
        self._draw()

    def choose(self, move: str) -> Result:
        """Play ``move`` as the pupil (what a move button does)."""
        self.last = self.session.answer(move)
        self._draw()
        return self.last

    def _viewer(self) -> int | None:
        return self.puzzle.mover if self.puzzle.kind == "fair" else None

    def _draw(self) -> None:
        with i18n.using(self.language):
            p, state = self.puzzle, self.session.state
            names = theme_names(p.game)
            themes = ", ".join(f"{names[t].title()} ({names[t].rule})" for t in p.themes) or "-"
            kind = _("all cards shown") if p.kind == "open" else _("you see only your own cards")
            self.header.value = "<b>" + _html.escape(_("puzzle {id} ({kind}), rating {rating:.0f}, themes: {themes}")
                                                    .format(id=p.id, kind=kind, rating=p.rating, themes=themes))
            self.header.value += "</b><br>" + _html.escape(
                _("You are player {player}: find the best move.").format(player=p.mover)
                + " " + _("your puzzle rating: {rating}").format(rating=self.session.rating))
            self.picture.value = render.html(state, perspective=self._viewer())
            self.moves.children = self._buttons(state)
            self.feedback.value = self._feedback()
            self.next_button.description = _("next puzzle")
            self.next_button.layout.display = None if self.session.done else "none"

    def _buttons(self, state: Any) -> tuple:
        if self.session.done:
            return ()
        buttons = []
        for a in state.legal_actions():
            b = widgets.Button(description=render.action_label(state, a), tooltip=a,
                               layout=widgets.Layout(width="auto"))
            b.on_click(lambda _b, a=a: self.choose(a))
            buttons.append(b)
        return tuple(buttons)

    def _feedback(self) -> str:
        r = self.last
        if r is None:
            return ""
        def said(move: str) -> str:  # the move as its button reads
            return render.action_label(r.position, move) if r.position is not None else move

        if r.right:
            text = _("Right: {move}.").format(move=said(r.move))
        else:
            text = _("Wrong: {answer}; the best move is {move}.").format(answer=said(r.move), move=said(r.best))
            if r.cost:
                text += _(" It is worth {loss} less.").format(loss=r.cost)
        lines = [_html.escape(text)]
        state = self.puzzle.state
        for m in self.puzzle.solution[:self.session.step]:
            if m in r.played:
                lines.append("· " + _html.escape(render.seen_move(state, m, self._viewer()).line))
            state = state.apply(m)
        if self.session.done:
            lines.append(_html.escape(self.puzzle.explanation(i18n.get_language())))
        return "<br>".join(lines)


def puzzle_board(game: str, **kwargs: Any) -> PuzzleBoard:
    """A :class:`PuzzleBoard` (see there)."""
    return PuzzleBoard(game, **kwargs)
