"""The teacher's wall (issue W, item 6): every room of the lesson at a
glance, on the teacher's page (:class:`cardlab.widgets.room.Lobby`), drawn
again at each of its polls: a card a room with who plays (● their page is
open, ○ it is not: :mod:`cardlab.presence`), whose turn it is, the last move
and the score.  The teacher sees every card, so the last move
is read as it was played (:func:`cardlab.render.seen_move` with no viewer);
this is never shown to a pupil.  Each card has *show to the class*: a link
that opens the room as the class may see it, for the projector
(:class:`cardlab.widgets.projector.ClassView`: no hidden card).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable

import ipywidgets as widgets

from .. import i18n, presence, render
from ..core import State
from ..i18n import _
from ..rooms import RoomStore, outcome
from .names import result_names, shown_names
from .projector import class_link

__all__ = ["Glance", "glance", "wall_html", "class_button", "Wall"]


@dataclass(frozen=True)
class Glance:
    """One room at a glance: its id, game (title), who plays each seat,
    the seat to move (``None``: nobody; the game is over or the room ended),
    how many moves the players made, the last of them (``"Ben: play
    magoi"``, ``""`` before the first), each seat's score (points so far
    where the game counts them, the returns once it is over; else empty)
    how it stands (``"Aiko to move"``, ``"over: Ben wins"``, ``"ended by the
    teacher"``), whether the game is over, the winning seats and whether
    the teacher ended the room."""

    room: str
    game: str
    names: tuple
    to_move: int | None
    moves: int
    last: str
    scores: tuple
    standing: str
    over: bool = False
    winners: tuple = ()
    ended: bool = False
    #: per seat: ``True`` the pupil's page is open, ``False`` it is not
    #: (closed, or not seen for a while: :mod:`cardlab.presence`), ``None`` an agent
    connected: tuple = ()


def _scores(state: State) -> tuple:
    n = state.game.spec.num_players
    if state.is_terminal():
        return tuple(state.returns())
    score = getattr(state, "score", None)  # a game that counts points as it goes (koinobori)
    if callable(score):
        try:
            return tuple(score(p) for p in range(n))
        except (TypeError, ValueError):
            return ()
    return ()


def glance(store: RoomStore, room_id: str) -> Glance:
    """The room ``room_id`` of ``store`` at a glance (its moves replayed once)."""
    room = store.room(room_id)
    names = shown_names(room)
    s, played = store.last_move(room_id)
    moves = sum(player >= 0 for player, _action in store.moves(room_id))
    last = "" if played is None else _("{name}: {move}").format(
        name=names[played[0].current_player], move=render.seen_move(*played, None).label)
    ended = store.ended(room_id)
    to_move = None if s.is_terminal() or ended or s.current_player < 0 else s.current_player
    if s.is_terminal():
        standing = _("over: {result}").format(result=result_names(s, names))
    elif ended:
        standing = _("ended by the teacher")
    elif to_move is None:
        standing = _("chance is to act")
    else:
        standing = _("{name} to move").format(name=names[to_move])
    title = _(s.game.title) if s.game.title else room.game
    seen = presence.connected(store, room_id)
    on = tuple(seen.get(i, False) if who == "person" else None for i, who in enumerate(room.seats))
    return Glance(room_id, title, tuple(names), to_move, moves, last, _scores(s), standing,
                  s.is_terminal(), tuple(outcome(s)[1]), ended, on)


_CSS = ("<style>.cardlab-wall{display:flex;flex-wrap:wrap;gap:8px}"
        ".cardlab-wall .card{border:1px solid #bbb;border-radius:6px;padding:6px 8px;width:230px;font-size:13px}"
        ".cardlab-wall .card.over{background:#f4f4f4;color:#555}.cardlab-wall .card.ended{background:#fbeaea}"
        ".cardlab-wall .turn{font-weight:bold;background:#fff3b0}.cardlab-wall td{padding:0 4px}"
        ".cardlab-wall .last{color:#333;font-size:12px}.cardlab-wall .on{color:#1a7f37}"
        ".cardlab-wall .away{color:#999}.cardlab-wall a.class-view{text-decoration:none;padding:0 8px;"
        "line-height:28px;display:inline-block}</style>")


def _card(g: Glance) -> str:
    e = html.escape
    rows = []
    for i, name in enumerate(g.names):
        mark = "▶" if i == g.to_move else ("★" if i in g.winners else "")
        score = e(str(g.scores[i])) if i < len(g.scores) else ""
        css = ' class="turn"' if i == g.to_move else ""
        on = g.connected[i] if i < len(g.connected) else None
        tip = e(_("page open") if on else _("page not open"))
        dot = "" if on is None else (f'<span class="on" title="{tip}">●</span>' if on else
                                     f'<span class="away" title="{tip}">○</span>')
        rows.append(f"<tr{css}><td>{mark}</td><td>{dot} {e(name)}</td><td>{score}</td></tr>")
    kind = "over" if g.over else ("ended" if g.ended else "")
    moves = _("{n} moves").format(n=g.moves)
    last = _("last: {move}").format(move=g.last) if g.last else _("no move yet")
    return (f'<div class="card {kind}" data-room="{e(g.room)}"><b>{e(g.room)}</b> · {e(g.game)} · {e(moves)}'
            f'<table>{"".join(rows)}</table><div>{e(g.standing)}</div><div class="last">{e(last)}</div></div>')


def wall_html(store: RoomStore) -> str:
    """Every room of the current lesson as a card (``""`` when there is none)."""
    cards = [_card(glance(store, rid)) for rid in store.ids()]
    return _CSS + '<div class="cardlab-wall">' + "".join(cards) + "</div>" if cards else ""


def class_button(room_id: str, base: str = "") -> str:
    """*show to the class* ("クラスに見せる"): a link styled as a button that
    opens room ``room_id`` in a new tab as the class may see it, in
    projector size and the page's language (:func:`cardlab.widgets.projector.class_link`).
    Relative to the teacher's page (``base=""``): it opens on the address
    the teacher's browser uses, which the projector's machine (usually the
    teacher's own) can open; copied, the browser makes it a full address."""
    e = html.escape
    link = class_link(room_id, base, i18n.get_language())
    tip = _("open this room for the projector: the table, whose turn and the last move, with no hidden card "
            "(no key needed: it shows nothing a pupil may not see)")
    label = _("show to the class")
    return (f'<a class="class-view jupyter-button widget-button" href="{e(link)}" target="_blank" '
            f'title="{e(tip)}">{e(label)}</a>')


class Wall(widgets.Box):
    """The wall on the teacher's page: each room's card (:func:`glance`)
    with a *watch* button that shows that room with every card
    (``on_watch(room_id)``: the page's watch picker) and *show to the class*
    (:func:`class_button`; ``base``: the class app's address, default the
    teacher's page's own).  The cards' widgets are made once a room and then
    only changed at each :meth:`refresh`."""

    def __init__(self, on_watch: Callable[[str], None], base: str = "") -> None:
        super().__init__(layout=widgets.Layout(display="flex", flex_flow="row wrap"))
        self.add_class("cardlab-wall")
        self._on_watch, self.base = on_watch, base
        self._style = widgets.HTML(_CSS)
        self._cards: dict[str, tuple[widgets.VBox, widgets.HTML, widgets.Button, widgets.HTML]] = {}

    def refresh(self, store: RoomStore) -> None:
        """Every room of the store's current lesson, as it stands."""
        kids = []
        for rid in store.ids():
            if rid not in self._cards:
                card = widgets.HTML()
                button = widgets.Button(description=_("watch"), tooltip=_("show this room with every card below"),
                                        layout=widgets.Layout(width="auto"))
                button.on_click(lambda _b, rid=rid: self._on_watch(rid))
                show = widgets.HTML()
                self._cards[rid] = (widgets.VBox([card, button, show]), card, button, show)
            box, card, button, show = self._cards[rid]
            card.value = _card(glance(store, rid))
            button.description, button.tooltip = _("watch"), _("show this room with every card below")
            show.value = class_button(rid, self.base)
            kids.append(box)
        self.children = [self._style, *kids] if kids else []

    @property
    def value(self) -> str:
        """The cards' HTML as shown (``""`` when there is no room)."""
        return "".join(kid.children[0].value for kid in self.children[1:])
