"""The hand-out of a lesson's rooms (issue W): a slip a pupil, to print on
A4 and cut out.  Each slip has the pupil's name, their room, seat, game and
opponent, the full link of their seat (what :func:`cardlab.rooms.class_url`
makes: an address a pupil's laptop opens), a QR code of that link and the
seat's short code (:meth:`cardlab.rooms.RoomStore.code`), which a pupil can
type on the join page (``?join``) instead.

The QR codes are drawn by segno (pure Python, in the ``notebook`` extra with
the class app): ``import cardlab`` does not need it, only the sheet does.

>>> import tempfile, os
>>> from cardlab.rooms import RoomStore
>>> store = RoomStore(os.path.join(tempfile.mkdtemp(), "class.db"))
>>> _rooms = store.pairings("koinobori", ["Aiko", "Ben", "Chie"])
>>> [(s.pupil, s.room, s.seat, s.opponents) for s in slips(store, "http://10.0.0.5:8866/")]
[('Aiko', 'R1', 0, 'Ben'), ('Ben', 'R1', 1, 'Aiko'), ('Chie', 'R2', 0, 'heuristic')]
>>> slips(store, "http://10.0.0.5:8866/")[0].link.startswith("http://10.0.0.5:8866/?room=R1&seat=0&key=")
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from . import i18n
from .errors import CardlabError
from .games import load as load_game
from .i18n import _
from .rooms import RoomStore, class_url

__all__ = ["Slip", "slips", "join_url", "qr_svg", "sheet_html", "write_sheet", "SLIPS_A_PAGE"]

#: slips on one A4 page: two columns, four rows (each about 95 x 67 mm)
SLIPS_A_PAGE = 8


@dataclass(frozen=True)
class Slip:
    """One pupil's slip: their name, room, seat, game (its title), who they
    play (``opponents``: their names, an agent's name), the full link of
    their seat and its short code."""

    pupil: str
    room: str
    seat: int
    game: str
    opponents: str
    link: str
    code: str
    #: a tournament's slip (its name): one link and code for all its rounds
    tournament: str = ""


def join_url(base: str) -> str:
    """The join page, where a pupil types their code: ``BASE?join``."""
    return f"{base}?join"


def slips(store: RoomStore, base: str | None = None, lesson: int | str | None = None) -> list[Slip]:
    """A slip for each pupil's seat of the lesson's rooms (``lesson``: as
    :meth:`~cardlab.rooms.RoomStore.ids`; default the current lesson), room
    by room; ``base``: the class app's address (default
    :func:`~cardlab.rooms.class_url`: this machine on the class network).
    An agent's seat gets none; the seats' codes are made when missing.  The
    rooms of a tournament's rounds get no slips of their own: each of its
    pupils gets one for the whole tournament instead."""
    base = class_url() if base is None else base
    ids = store.ids(lesson)
    out, in_tournament = _tournament_slips(store, base, ids)
    for rid in ids:
        if rid in in_tournament:
            continue
        room = store.room(rid)
        game = room.load()
        title = _(game.title) if game.title else room.game
        names = room.names()
        people = [i for i, who in enumerate(room.seats) if who == "person"]
        for seat, link in zip(people, store.links(rid, base=base)):
            others = ", ".join(n for j, n in enumerate(names) if j != seat)
            out.append(Slip(names[seat], rid, seat, title, others, link, store.code(rid, seat)))
    return out


def _tournament_slips(store: RoomStore, base: str, ids: list[str]) -> tuple[list[Slip], set[str]]:
    """A slip for each pupil of each tournament with a room among ``ids``
    (its link and code open their game of every round), and those rooms."""
    from .tournament_store import Tournaments

    cups, out, rooms = Tournaments(store), [], set()
    for t in cups.all():
        mine = {r for n in range(1, t.made + 1) for r in cups.rooms(t.id, n) if r is not None}
        if not mine & set(ids):
            continue
        rooms |= mine
        title = _(load_game(t.game).title) or t.game
        for name, link in cups.links(t.id, base):
            out.append(Slip(name, f"T{t.id}", -1, title, "", link, cups.code(t.id, name), tournament=t.label()))
    return out, rooms


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as inline SVG (error correction M: a slip that
    is folded or smudged still scans), sized by the page's CSS."""
    try:
        import segno
    except ImportError:
        raise CardlabError(_("the hand-out's QR codes need segno: pip install 'cardlab[notebook]' (or segno)")) \
            from None
    return segno.make(text, error="m", micro=False).svg_inline(omitsize=True)


_CSS = """
@page { size: A4; margin: 10mm; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "Noto Sans CJK JP", "Noto Sans JP", sans-serif; color: #000; }
.page { width: 190mm; break-after: page; page-break-after: always; }
.page:last-child { break-after: auto; page-break-after: auto; }
.head { height: 7mm; font-size: 9pt; color: #444; display: flex; justify-content: space-between; }
.slips { display: grid; grid-template-columns: 95mm 95mm; grid-auto-rows: 67mm; }
.slip { border: 0.3mm dashed #888; padding: 4mm; display: flex; gap: 4mm; overflow: hidden;
        break-inside: avoid; page-break-inside: avoid; }
.qr { flex: 0 0 32mm; }
.qr svg { width: 32mm; height: 32mm; display: block; }
.text { flex: 1; min-width: 0; display: flex; flex-direction: column; gap: 1.2mm; }
.name { font-size: 15pt; font-weight: bold; overflow-wrap: anywhere; }
.where { font-size: 9pt; }
.code { font: bold 19pt monospace; letter-spacing: 0.25em; }
.how { font-size: 7.5pt; color: #333; }
.link { font: 6.5pt monospace; overflow-wrap: anywhere; color: #333; }
@media screen { body { background: #eee; } .page { background: #fff; margin: 8mm auto; padding: 10mm;
                width: 210mm; min-height: 297mm; } }
"""


def _slip_html(s: Slip, join: str) -> str:
    e = html.escape
    if s.tournament:
        where = _("{tournament} · {game}").format(tournament=s.tournament, game=s.game)
        against = _("your game of every round opens from this slip")
    else:
        where = _("room {room} · seat {seat} · {game}").format(room=s.room, seat=s.seat, game=s.game)
        against = _("against {others}").format(others=s.opponents)
    how = _("Scan the QR code, or open {url} and type your code:").format(url=join)
    return (f'<div class="slip"><div class="qr">{qr_svg(s.link)}</div><div class="text">'
            f'<div class="name">{e(s.pupil)}</div><div class="where">{e(where)}<br>{e(against)}</div>'
            f'<div class="how">{e(how)}</div><div class="code">{e(s.code)}</div>'
            f'<div class="link">{e(s.link)}</div></div></div>')


def sheet_html(store: RoomStore, base: str | None = None, lesson: int | str | None = None,
               language: str | None = None) -> str:
    """The printable sheet of the lesson's slips: one HTML page, laid out
    for A4 (:data:`SLIPS_A_PAGE` slips a page, dashed lines to cut along),
    in ``language`` (``None``: the current one)."""
    with i18n.using(language) as language:
        base = class_url() if base is None else base
        name = store.lesson(None if lesson in (None, "all") else int(lesson)).name
        all_slips = slips(store, base, lesson)
        join = join_url(base)
        title = _("Hand-out: lesson {lesson}").format(lesson=name)
        pages = []
        count = max(1, -(-len(all_slips) // SLIPS_A_PAGE))
        for k in range(count):
            part = all_slips[k * SLIPS_A_PAGE:(k + 1) * SLIPS_A_PAGE]
            head = (f'<div class="head"><span>{html.escape(title)}</span><span>'
                    + html.escape(_("page {page} of {pages} · cut along the dashed lines").format(page=k + 1,
                                                                                                pages=count))
                    + "</span></div>")
            body = "".join(_slip_html(s, join) for s in part) or (
                "<p>" + html.escape(_("no pupil's room in this lesson yet")) + "</p>")
            pages.append(f'<section class="page">{head}<div class="slips">{body}</div></section>')
        return (f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
                f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
                f"<body>{''.join(pages)}</body></html>\n")


def write_sheet(store: RoomStore, path: str | Path, base: str | None = None, lesson: int | str | None = None,
                language: str | None = None) -> Path:
    """Write :func:`sheet_html` to ``path`` (folders made); the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(sheet_html(store, base, lesson, language), "utf-8")
    return path
