"""The review of a finished game on a page (:mod:`cardlab.review`): the
board's "review this game" button at game over (:class:`ReviewMixin`, on
locked pupils' boards too: the game is over, every card may be shown), and
the teacher's per-room review (:class:`RoomReview`, in the class rooms'
:class:`~cardlab.widgets.room.Lobby`).  Both show the review's table and its
picture (:meth:`cardlab.review.Review.png` in an ``ipywidgets.Image``).

The review is computed in the button's handler with a progress bar;
interrupting the kernel stops it with the decisions reviewed so far.
"""

from __future__ import annotations

import html as _html
from typing import Any, Callable

import ipywidgets as widgets

from .. import i18n
from ..errors import CardlabError
from ..i18n import _
from ..review import Review, _names, review

__all__ = ["ReviewPanel", "ReviewMixin", "RoomReview", "BOARD_NODES"]

#: the budget of each decision's analysis on a page (a review of 15-30
#: decisions then takes a few seconds; ``cardlab.review`` defaults to more)
BOARD_NODES = 8_000


class ReviewPanel(widgets.VBox):
    """A "review this game" button, a progress bar, the review's table and
    its picture.  ``source()`` gives what to review: ``(game, keywords)``
    for :func:`cardlab.review.review` (``None``: nothing to review now)."""

    def __init__(self, source: Callable[[], tuple[Any, dict[str, Any]] | None],
                 language: Callable[[], str | None] = lambda: None, nodes: int = BOARD_NODES,
                 on_click: Callable[[], Any] | None = None) -> None:
        self.source, self.language, self.nodes = source, language, nodes
        self.button = widgets.Button(button_style="info", layout=widgets.Layout(width="auto"))
        self.button.add_class("cardlab-review")
        self.button.on_click(lambda _b: (on_click or self.run)())
        self.progress = widgets.IntProgress(value=0, min=0, max=1,
                                            layout=widgets.Layout(width="160px", display="none"))
        self.table = widgets.HTML()
        self.image = widgets.Image(format="png", layout=widgets.Layout(display="none", max_width="100%"))
        self.image.add_class("cardlab-review-plot")
        #: the review shown (``None``: none yet), the key of what it reviewed, the language it was drawn in
        self.review: Review | None = None
        self._key: Any = None
        self._drawn: str | None = None
        super().__init__([widgets.HBox([self.button, self.progress], layout=widgets.Layout(align_items="center")),
                          self.table, self.image], layout=widgets.Layout(width="100%"))
        self.label()

    def label(self) -> None:
        """The button's label in the page's language (and the review drawn again in it)."""
        with i18n.using(self.language()):
            self.button.description = _("review this game")
            self.button.tooltip = _("every decision of the game: the fair value of the move made and of the "
                                    "best move, from what the player could see then, and a mark")
            if self.review is not None and self._drawn != i18n.get_language():
                self._draw()

    def clear(self) -> None:
        self.review, self._key = None, None
        self.table.value = ""
        self.image.layout.display = "none"
        self.image.value = b""

    def run(self, key: Any = None) -> Review | None:
        """Compute the review (a progress bar meanwhile) and show it; a
        refusal is shown in the table's place."""
        with i18n.using(self.language()):
            given = self.source()
            if given is None:
                return None
            game, kw = given
            bar = self.progress
            bar.value, bar.max, bar.layout.display = 0, 1, None

            def progress(done: int, total: int) -> None:
                bar.max, bar.value = max(1, total), done

            try:
                self.review = review(game, nodes=self.nodes, callback=progress, **kw)
            except CardlabError as exc:
                self.clear()
                self.table.value = '<span style="color:#b00">' + _html.escape(str(exc)) + "</span>"
                return None
            finally:
                bar.layout.display = "none"
            self._key = key
            self._draw()
            return self.review

    def _draw(self) -> None:
        r = self.review
        assert r is not None
        self.table.value = r._repr_html_()
        self._drawn = i18n.get_language()
        try:
            self.image.value = r.png()
        except ImportError:  # matplotlib is in the notebook extra
            self.image.layout.display = "none"
            self.table.value += "<div>" + _html.escape(_("(the picture needs matplotlib)")) + "</div>"
            return
        self.image.layout.display = None


class ReviewMixin:
    """The board's side: :attr:`review_panel` (in the controls' row), shown
    at game over; :meth:`review` computes and shows the review of the
    board's game (the persons' seats, or every seat when only agents play)."""

    #: the budget of each decision's analysis
    review_nodes = BOARD_NODES

    @property
    def review_panel(self) -> ReviewPanel:
        panel = self.__dict__.get("_review_panel")
        if panel is None:
            panel = ReviewPanel(self._review_source, lambda: self.language_code, self.review_nodes,
                                on_click=lambda: self._guard(self.review))
            self.__dict__["_review_panel"] = panel
        return panel

    def _review_source(self) -> tuple[Any, dict[str, Any]] | None:
        if not self.match.state.is_terminal():
            return None
        seats = list(self.players)
        room = getattr(self, "room", None)  # a class room's board: the pupils' names
        names = _names(seats, room.name if room is not None else "")
        persons = [i for i, who in enumerate(seats) if who == "person"]
        return self.match, {"seats": persons or "all", "names": names}

    def review(self) -> Review | None:
        """Review the finished game and show it below the controls (``None``
        and a line saying why when there is nothing to review)."""
        if not self.match.state.is_terminal():
            raise CardlabError(_("the review is for a finished game: play it to the end first"))
        self.review_panel.nodes = self.review_nodes
        out = self.review_panel.run(key=self.match.state)
        self._refresh()
        return out

    def _draw_review(self) -> None:
        """Show the button at game over (and the review of this game, if
        made); hide it during a game."""
        panel = self.review_panel
        over = self.match.state.is_terminal() and self.waiting_for is None
        if panel.review is not None and panel._key != self.match.state:
            panel.clear()  # another game now
        panel.layout.display = None if over else "none"
        panel.label()


class RoomReview(widgets.VBox):
    """The teacher's review of a room: a choice of the finished rooms and
    the :class:`ReviewPanel` of the chosen room's game."""

    def __init__(self, store: Any, language: Callable[[], str | None] = lambda: None,
                 nodes: int = BOARD_NODES) -> None:
        self.store = store
        self.rooms = widgets.Dropdown(options=[], layout=widgets.Layout(width="360px"))
        self.panel = ReviewPanel(self._source, language, nodes, on_click=lambda: self.panel.run(key=self.rooms.value))
        self.language = language
        self.rooms.observe(lambda _c: self.panel.clear(), names="value")
        super().__init__([self.rooms, self.panel])
        self.refresh()

    def _source(self) -> tuple[Any, dict[str, Any]] | None:
        rid = self.rooms.value
        if not rid:
            return None
        room = self.store.room(rid)
        game = {"room": rid, "name": room.name, "game": room.game, "options": room.options, "seed": room.seed,
                "seats": list(room.seats), "moves": [a for _p, a in self.store.moves(rid)]}
        return game, {}

    def refresh(self) -> None:
        """The finished rooms to choose from (in the page's language)."""
        with i18n.using(self.language()):
            self.rooms.description = _("review")
            done = [r for r in self.store.summary() if r["over"]]
            options = [(f"{r['room']}: {r['name']}", r["room"]) for r in done]
            if list(self.rooms.options) != options:
                keep = self.rooms.value
                self.rooms.options = options
                ids = [rid for _label, rid in options]
                self.rooms.value = keep if keep in ids else (ids[0] if ids else None)
            self.panel.label()
