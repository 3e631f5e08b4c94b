"""The projector size of a board: one switch (and ``projector=True``, a link's
``projector=1``) that draws the whole board large enough to read from the
back of a classroom on a 1080p projector.

One CSS class on the board's root does it for every game, with no game's
renderer knowing: ``cardlab-projector`` doubles everything on the board (its
text, buttons and option controls: 13 px type becomes 26 px), and the game's
pictures (the cards on the table and in "What happened", the grid of squares
and the cards of the hand under it, with their buttons) are drawn half as
large again, three times in all, so that a card's 8 px name or number reads
at 24 px.  CSS ``zoom`` scales the layout
too (the board reflows to its room and nothing overlaps), unlike a
transform; the rule sits in a ``<style>`` in a hidden widget of the board.
"""

from __future__ import annotations

import ipywidgets as widgets

from ..i18n import _

__all__ = ["ProjectorMixin", "PROJECTOR_CLASS", "PROJECTOR_CSS", "TEXT_ZOOM", "PICTURE_ZOOM"]

#: the class on a board's root in projector size
PROJECTOR_CLASS = "cardlab-projector"
#: how much larger the text and the controls are drawn, and the pictures besides
TEXT_ZOOM, PICTURE_ZOOM = 2, 1.5
PROJECTOR_CSS = (
    "<style>"
    f".{PROJECTOR_CLASS}{{zoom:{TEXT_ZOOM}}}"
    f".{PROJECTOR_CLASS} .cardlab-pictures svg,.{PROJECTOR_CLASS} .cardlab-grid{{zoom:{PICTURE_ZOOM}}}"
    "</style>"
)


class ProjectorMixin:
    """The projector switch of a :class:`~cardlab.widgets.Board`."""

    #: whether the board is drawn in projector size
    projector: bool = False

    def _make_projector_controls(self, on: bool) -> None:
        self.projector_box = widgets.Checkbox(value=bool(on), indent=False, layout=widgets.Layout(width="auto"))
        self.projector_box.add_class("cardlab-projector-switch")
        self.projector_box.observe(lambda ch: self._on_widget(self.set_projector, ch["new"]), names="value")
        #: the rule of the projector size (a hidden widget: a ``<style>`` applies wherever it is)
        self.projector_style = widgets.HTML(PROJECTOR_CSS, layout=widgets.Layout(display="none"))

    def _mark_pictures(self, pictures: list[widgets.Widget], grids: list[widgets.Widget]) -> None:
        """Name the parts whose pictures (SVG) are drawn larger among their words (the
        table, "What happened"), and the grids whose squares, pictures and buttons are
        drawn larger together (a square's width is the grid's)."""
        for w in pictures:
            w.add_class("cardlab-pictures")
        for w in grids:
            w.add_class("cardlab-grid")

    def set_projector(self, on: bool) -> None:
        """Draw the board in projector size (``True``) or in its normal size:
        what the switch "big (projector)" does; a display setting, allowed on
        a locked board too."""
        self.projector = bool(on)
        if self.projector:
            self.add_class(PROJECTOR_CLASS)
        else:
            self.remove_class(PROJECTOR_CLASS)
        self._show(self.projector_box, self.projector)

    def _label_projector(self) -> None:
        self.projector_box.description = _("big (projector)")
        self.projector_box.tooltip = _("cards three times and text twice as large, to read from the back of a "
                                       "classroom (in a link: projector=1)")
