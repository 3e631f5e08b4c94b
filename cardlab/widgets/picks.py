"""A move chosen on a grid (a game that draws a :class:`cardlab.render.Layout`,
mipig): the squares and the mover's cards as pictures with a pick button
under those that lead to a legal action; the picks of a move, taken back
one by one or all at once."""

from __future__ import annotations

import html as _html

import ipywidgets as widgets

from .. import render
from ..errors import CardlabError
from ..i18n import _, ngettext, pgettext
from .controls import _tr

_CELL = 96          # px: a square of a grid (a card and the button under it)
_BUTTON = "92px"    # the pick buttons under squares and cards


class PicksMixin:
    """The grid of a :class:`~cardlab.widgets.Board` (it keeps ``_layout``,
    ``_picks``, ``_picks_at``, ``pick_buttons`` and the grid's widgets)."""

    @property
    def picks(self) -> tuple[str, ...]:
        """The picks made so far for the next move (``()`` when none)."""
        return self._picks if self._picks_at is self.match.state else ()

    def _pick_step(self, key: str) -> int | None:
        """The step ``key`` may be picked at now: the next one, or an earlier
        one (instead of what was chosen there); ``None``: not on offer."""
        lay, picks = self._layout, self.picks
        if lay is None or not self.moves_shown():
            return None
        for j in range(len(picks), -1, -1):
            if key in lay.offered(picks[:j]):
                return j
        return None

    def pick(self, key: str) -> None:
        """Pick a square (``'sq:x,y'``) or an item (``'item:p07'``) for the
        next move, as its button does: the next step, or instead of an
        earlier choice; picking a chosen one again takes it back.  When the
        picks make a legal action, it is played."""
        picks = self.picks
        if key in picks:
            self._set_picks(picks[:picks.index(key)])
            return
        j = self._pick_step(key)
        if j is None:
            lay, why = self._layout, self._no_moves_why()
            offered = sorted(lay.offered(picks)) if lay is not None and why is None else []
            if offered:
                raise CardlabError(_("{key} cannot be picked now; on offer: {offered}").format(
                    key=repr(key), offered=", ".join(offered)))
            raise CardlabError(_("{key} cannot be picked now; on offer: nothing ({why})").format(
                key=repr(key), why=why or _("no move with picks")))
        picks = picks[:j] + (key,)
        action = self._layout.action_of(picks)  # type: ignore[union-attr]
        if action is not None:
            self.play(action)
        else:
            self._set_picks(picks)

    def clear_picks(self) -> None:
        """Take back the picks of the move being chosen (nothing was played)."""
        self._set_picks(())

    def _set_picks(self, picks: tuple[str, ...]) -> None:
        self._picks, self._picks_at = picks, self.match.state
        self._refresh()

    def _pick_button(self, b: widgets.Button, key: str, step: int, chosen: bool, best: frozenset[str]) -> None:
        """Set the pick button ``b`` of ``key``: "✓ chosen", or what picking it does."""
        lay = self._layout
        assert lay is not None
        for css in ("cardlab-picked", "cardlab-offer", "cardlab-switch"):
            b.remove_class(css)
        if chosen:
            b.description, b.button_style = _("✓ chosen"), "info"
            b.tooltip = _("chosen 選択中; click to take it back")
            b.add_class("cardlab-picked")
            return
        leads = lay.offered(self.picks[:step])[key]
        b.description = _tr(lay.labels[step]) if step < len(lay.labels) else pgettext("pick", "choose")
        b.tooltip = leads[0] if len(leads) == 1 else ngettext(
            "{pick}: {n} move", "{pick}: {n} moves", len(leads)).format(pick=key.split(":", 1)[1], n=len(leads))
        b.add_class("cardlab-offer" if step == len(self.picks) else "cardlab-switch")
        b.button_style = "success" if best.intersection(leads) else ""
        self.pick_buttons[key] = b

    def _cell(self, key: str) -> tuple[widgets.VBox, widgets.HTML, widgets.Button]:
        """The widgets of ``key``'s square or item, made once and then only
        changed (a click redraws what changed, not the whole grid: issue Y)."""
        cells = self.__dict__.setdefault("_cells", {})
        if key not in cells:
            square = key.startswith("sq:")
            box = widgets.VBox(layout=widgets.Layout(width=f"{_CELL}px" if square else "auto",
                                                     align_items="center", margin="0 2px"))
            pic = widgets.HTML(layout=widgets.Layout(margin="0"))
            # under a square: the square's width; under a card of the hand: as wide as its label
            b = widgets.Button(layout=widgets.Layout(width=_BUTTON if square else "auto"))
            b.on_click(lambda _, key=key: self._guard(self.pick, key))
            cells[key] = (box, pic, b)
        return cells[key]

    def _piece(self, key: str, html: str, best: frozenset[str]) -> widgets.Widget:
        """A square or an item: its picture, with a button under it when it can be picked."""
        box, pic, b = self._cell(key)
        pic.value = html
        picks = self.picks
        step = picks.index(key) if key in picks else self._pick_step(key)
        if step is None:
            box.children = (pic,)
        else:
            self._pick_button(b, key, step, key in picks, best)
            box.children = (pic, b)
        return box

    def _draw_layout(self, lay: render.Layout, best: frozenset[str]) -> None:
        self.table.value, self.table_below.value = lay.above, lay.below
        self.grid_title.value = ('<div style="font-family:sans-serif;font-size:13px">'
                                 + _html.escape(_tr(lay.grid_title)) + "</div>")
        x0, y0, x1, y1 = lay.bounds()
        cells: list[widgets.Widget] = []
        if lay.squares:
            small = '<div style="font-family:sans-serif;font-size:10px;color:#666;text-align:center">{}</div>'
            cells.append(widgets.HTML(small.format("y＼x")))
            cells += [widgets.HTML(small.format(x)) for x in range(x0, x1 + 1)]
            for y in range(y0, y1 + 1):
                cells.append(widgets.HTML(small.format(y)))
                for x in range(x0, x1 + 1):
                    cells.append(self._piece(f"sq:{x},{y}", lay.squares.get((x, y), ""), best))
        self.grid.children = cells
        gl = self.grid.layout
        gl.grid_template_columns = f"28px repeat({x1 - x0 + 1}, {_CELL}px)" if lay.squares else None
        gl.grid_gap, gl.justify_items, gl.align_items = "2px", "center", "flex-start"
        gl.padding, gl.width = "4px", "fit-content"
        moves = self.moves_shown()
        # the items (the mover's own cards) only where the mover's moves are offered
        self.items_box.children = [self._piece(f"item:{k}", h, best) for k, h in lay.items.items()] \
            if moves else []
        if moves and lay.paths:
            step = len(self.picks)
            prompt = _tr(lay.prompts[step]) if step < len(lay.prompts) else pgettext("pick", "choose")
            chosen = ", ".join(p.split(":", 1)[1] for p in self.picks)
            self.pick_prompt.value = ("<b>" + _("Your move") + "</b>: " + _html.escape(prompt)
                                      + (" · " + _html.escape(_("chosen: {picks}").format(picks=chosen))
                                         if chosen else "")
                                      + (f" · {_html.escape(_tr(lay.items_title))}:"
                                         if self.items_box.children else ""))
            self.picker.layout.display = None
            self.clear_button.disabled = not self.picks
        else:
            self.pick_prompt.value = ""
            self.picker.layout.display = "none"
