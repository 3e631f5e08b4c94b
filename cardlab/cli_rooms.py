"""``cardlab rooms``: a class's rooms from the command line (the teacher's
link, each room with its pupils' links, the hand-out sheet)."""
from __future__ import annotations

import argparse
from typing import Callable

from .errors import CardlabError
from .i18n import N_, _, translated

#: sqlite3's messages when a class's store cannot be opened, the same way
_SQLITE_ERRORS = {m: m for m in (N_("unable to open database file"), N_("file is not a database"),
                                 N_("database is locked"), N_("attempt to write a readonly database"))}


def open_store(path: str | None):
    """The class's store at ``path`` (a SQLite file, or ``postgresql://…``;
    ``None``: :func:`cardlab.rooms.default_path`, ``$CARDLAB_ROOMS`` or
    class-rooms.db); a file that is not one, a malformed address or a server
    that does not answer is refused with a clear error."""
    from .rooms import RoomStore, default_path

    path = default_path() if path is None else path

    try:
        return RoomStore(path)
    except CardlabError:  # cardlab.store_db.StoreError: it says what was wrong and what is accepted
        raise
    except Exception as exc:  # sqlite3 errors: a file that is not a store
        reason = translated(_SQLITE_ERRORS.get(str(exc)), str(exc))
        raise CardlabError(_("{path}: cannot open the class rooms ({reason})").format(path=path, reason=reason)) \
            from None


def class_arguments(p: argparse.ArgumentParser) -> None:
    """``--db`` and ``--url``: the class's store and the class app's address (rooms, tournament)."""
    p.add_argument("--db", metavar=_("DB"),
                   help=_("the class's store: a SQLite file (make play uses class-rooms.db) or a school's "
                          "postgresql://USER:PASSWORD@HOST:PORT/DATABASE (default: $CARDLAB_ROOMS, else "
                          "class-rooms.db)"))
    p.add_argument("--url", metavar=_("URL"),
                   help=_("the class app's address (default: this machine on the class network, or $PLAY_URL)"))


def cmd_rooms(args: argparse.Namespace) -> int:
    """The class rooms of a store: the teacher's link, a line a room of this lesson (``--sheet``: a hand-out)."""
    from .rooms import class_url
    from .store_db import shown

    store = open_store(args.db)
    args.url = args.url or class_url()  # this machine on the class network (or $PLAY_URL)
    print(_("class rooms: {path}").format(path=shown(store.path)))
    print(_("the teacher's page (keep it to yourself; every card shows there): {link}")
          .format(link=f"{args.url}?teacher={store.key(None, 'teacher')}"))
    for row in store.summary():
        if row["over"]:
            line = _("  {room}: {name} · {game} · {moves} moves · over")
        else:
            line = _("  {room}: {name} · {game} · {moves} moves · player {player} to move")
        print(line.format(room=row["room"], name=row["name"], game=row["game"], moves=row["moves"],
                          player=row["to_move"]))
        for link in store.links(row["room"]):
            print(f"      {args.url}{link}")
    if args.sheet:  # cardlab.handout's QR codes need segno (the notebook extra): imported only here
        from .handout import write_sheet
        print(_("the hand-out sheet (print it on A4): {path}").format(path=write_sheet(store, args.sheet, args.url)))
    return 0


def add_rooms_parser(parser: argparse.ArgumentParser,
                     add_parser: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``rooms`` to ``parser`` (``add_parser(name, help, description)``:
    :func:`cardlab.cli.build_parser`'s); ``parser``."""
    p = add_parser("rooms", _("the class rooms: the teacher's link, each room and its pupils' links"))
    class_arguments(p)
    p.add_argument("--sheet", metavar=_("FILE"),
                   help=_("write this lesson's hand-out to FILE (for A4: each pupil's link, QR code and code)"))
    p.set_defaults(func=cmd_rooms)
    return parser
