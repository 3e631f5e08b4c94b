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

"Show to the class" (issue W, item 6): :class:`ClassView` puts one class
room on the projector as the class may see it (a link
``?room=R1&view=class&projector=1``, :func:`class_link`, from a button on the
teacher's wall): the public table, whose turn, the last move, the result, and
no card that either player keeps hidden.  What the class may see is decided
where every viewer's is (:data:`cardlab.render.SPECTATOR`, a viewer who is no
seat, in :func:`cardlab.render.html` and :func:`cardlab.render.seen_move`),
never here.  It follows the room's moves by reading the store (no key: it
shows a pupil nothing they could not read off the projector).
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import ipywidgets as widgets

from .. import i18n, render
from ..core import State
from ..errors import CardlabError
from ..i18n import _
from ..rooms import RoomStore
from . import polling
from .names import result_names, shown_names

__all__ = ["ProjectorMixin", "PROJECTOR_CLASS", "PROJECTOR_CSS", "TEXT_ZOOM", "PICTURE_ZOOM", "ClassView",
           "class_link", "class_page", "CLASS_VIEW_KEYS"]

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


# -- "show to the class": one room as the class may see it ------------------------------
#: the URL parameters of the class's view (``?room=R1&view=class&projector=1&lang=ja``); any other
#: one is refused: no parameter can make it show more
CLASS_VIEW_KEYS = ("room", "view", "projector", "lang")


def class_link(room_id: str, base: str = "", language: str | None = None, projector: bool = True) -> str:
    """The link of room ``room_id`` shown to the class (``base``: the class
    app's address), in projector size unless ``projector=False``.

    >>> class_link("R1", "http://10.0.0.5:8866/", "ja")
    'http://10.0.0.5:8866/?room=R1&view=class&projector=1&lang=ja'
    """
    query = {"room": room_id, "view": "class", **({"projector": "1"} if projector else {}),
             **({"lang": language} if language else {})}
    return f"{base}?{urlencode(query)}"


def class_page(given: dict[str, str], store: RoomStore, language: str | None = None) -> widgets.Widget:
    """What a link with ``view=`` opens: the room shown to the class
    (:class:`ClassView`), or a message naming what is wrong (an unknown
    room, ``view=`` other than ``class``, any parameter but
    :data:`CLASS_VIEW_KEYS`: a seat's key or an option cannot open it up)."""
    extra = [k for k in given if k not in CLASS_VIEW_KEYS and k != "token" and not k.startswith("voila")]
    try:
        if given.get("view") != "class":
            raise CardlabError(_("URL parameter view={text} is not accepted; view accepts class").format(
                text=repr(given.get("view"))))
        if extra:
            raise CardlabError(_("URL parameter {name} is not accepted with view=class (the class's view shows no "
                                 "hidden card); accepted: {keys}").format(name=repr(extra[0]),
                                                                           keys=", ".join(CLASS_VIEW_KEYS)))
        if not given.get("room"):
            raise CardlabError(_("the link needs room= (the room to show), as the teacher's wall gives it"))
        projector = given.get("projector", "0").strip().lower() in ("1", "yes", "true", "on")
        return ClassView(store, given.get("room", ""), projector=projector, language=language)
    except CardlabError as exc:
        with i18n.using(language):
            return widgets.HTML('<span style="color:#b00">' + html.escape(
                _("This link does not show a room: {reason}").format(reason=exc)) + "</span>")


class ClassView(widgets.VBox):
    """Room ``room_id`` of ``store`` as the class may see it, live: who
    plays whom, how it stands, the last move and the table, each as
    :data:`cardlab.render.SPECTATOR` sees it; ``projector``: in projector
    size.  It reads the store every ``poll`` seconds in a kernel (plain
    Python: call :meth:`sync`) and never writes to it."""

    def __init__(self, store: RoomStore, room_id: str, *, projector: bool = True, language: str | None = None,
                 poll: float | None = 1.0) -> None:
        super().__init__()
        self.language = None if language is None else i18n.check_language(language)
        self.store, self.room_id = store, room_id
        self.room = store.room(room_id)  # an unknown room raises, naming the rooms
        self.title, self.status, self.last, self.table = (widgets.HTML() for _i in range(4))
        self.table.add_class("cardlab-pictures")
        self.last.add_class("cardlab-pictures")
        style = widgets.HTML(PROJECTOR_CSS, layout=widgets.Layout(display="none"))
        self.children = [style, self.title, self.status, self.last, self.table]
        self.add_class("cardlab-class-view")
        self.projector = bool(projector)
        if self.projector:
            self.add_class(PROJECTOR_CLASS)
        self._seen: tuple[int, bool] | None = None
        self.sync()
        self._poller = polling.start(poll, self.sync)

    def sync(self) -> bool:
        """Draw the room again if it moved (or was ended) since the last look; whether it did."""
        moves, ended = self.store.moves(self.room_id), self.store.ended(self.room_id)
        if self._seen == (len(moves), ended):
            return False
        self._seen = (len(moves), ended)
        s, last = self.store.last_move(self.room_id)
        self.show(s, *(last or (None, None)), ended)
        return True

    def show(self, state: State, before: State | None = None, action: str | None = None,
             ended: bool = False) -> None:
        """Draw ``state``, with ``action`` (played in ``before``) as the last
        move: everything as the class sees it."""
        with i18n.using(self.language):
            self._draw(state, before, action, ended)

    def _draw(self, state: State, before: State | None, action: str | None, ended: bool) -> None:
        e = html.escape
        names = shown_names(self.room)
        game = _(state.game.title) if state.game.title else self.room.game
        self.title.value = ("<b>" + e(_("room {room} · {game} · {names}").format(
            room=self.room_id, game=game, names=_(" against ").join(names))) + "</b> · "
            + e(_("shown to the class: no hidden card")))
        p = state.current_player
        if state.is_terminal():
            standing = _("Game over: {result}.").format(result=result_names(state, names))
        elif ended:
            standing = _("The teacher ended this room: no more moves.")
        elif p >= 0:
            standing = _("{name} to move").format(name=names[p])
        else:
            standing = _("chance is to act")
        self.status.value = f"<b>{e(standing)}</b>"
        if before is None or action is None:
            self.last.value = e(_("no move yet"))
        else:
            seen = render.seen_move(before, action, render.SPECTATOR)
            rules = f' <small style="color:#888">{e(", ".join(seen.rules))}</small>' if seen.rules else ""
            self.last.value = (e(_("last: {move}").format(move=_("{name}: {move}").format(
                name=names[before.current_player], move=seen.sentence))) + rules
                + (f"<div>{seen.picture}</div>" if seen.picture else ""))
        self.table.value = render.html(state, perspective=render.SPECTATOR)

    def close(self) -> None:
        polling.stop(getattr(self, "_poller", None))
        super().close()

    def __repr__(self) -> str:
        return f"ClassView(room={self.room_id!r}, moves={self._seen[0] if self._seen else 0})"
