"""``cardlab review``: the review of a saved game (:mod:`cardlab.review`).

    cardlab review game.json                          # a saved game (cardlab.review.record)
    cardlab review class-export/games.json --room R1  # a room of a class export
    cardlab review game.json --nodes 5000             # a quicker, rougher review

It prints every person's moves with their marks (every seat's when the file
does not say who was a person), the loss of each and a summary a player.
Bad input (a missing file, an unknown room, a move that does not replay, an
unfinished game without ``--unfinished``, a budget that is not positive:
:func:`cardlab.anytime.check_budget`) gives one line and exit code 2.
:mod:`cardlab.cli` registers it (:func:`add_review_parser`).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from .i18n import _

__all__ = ["add_review_parser", "cmd_review"]


def _progress() -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A progress bar on stderr (tqdm when it is installed, else nothing)."""
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the notebook extra
        return (lambda done, total: None), (lambda: None)
    bar: list[Any] = []

    def update(done: int, total: int) -> None:
        if not bar:
            bar.append(tqdm(total=total, desc=_("reviewing"), unit=_(" decisions"), file=sys.stderr,
                            leave=False))
        bar[0].n = done
        bar[0].refresh()

    def close() -> None:
        if bar:
            bar[0].close()

    return update, close


def cmd_review(args: argparse.Namespace) -> int:
    """Review the saved game in ``args.file`` (``--room`` for a class export)."""
    from .review import read_games, review

    game = read_games(args.file, args.room)
    update, close = _progress()
    try:
        r = review(game, nodes=args.nodes, seconds=args.seconds, unfinished=args.unfinished,
                   seats="all" if args.all_seats else None, callback=update)
    finally:
        close()
    if game.get("room"):
        print(_("room {room}: {name}").format(room=game["room"], name=game.get("name") or game["room"]))
    print(r)
    return 0


def add_review_parser(parser: argparse.ArgumentParser,
                      add_parser: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``review`` sub-command to ``parser`` (``add_parser(name, help,
    description)``: :func:`cardlab.cli.build_parser`'s); ``parser``."""
    p = add_parser("review", _("review a finished game: each person's moves with their value, loss and mark"),
                   _("Review a saved game (cardlab.review.record, or a class export's games.json with --room): "
                     "for each decision of each person, the fair value of the move made and of the best move, "
                     "from what that player could see then; the loss and a mark (best, good, inaccuracy, "
                     "mistake, blunder)."))
    p.add_argument("file", metavar=_("FILE"), help=_("a saved game or a class export (games.json)"))
    p.add_argument("--room", metavar=_("ROOM"), help=_("the room to review in a class export (R1, R2, …)"))
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=int, default=None, metavar=_("N"),
                        help=_("the analysis of each decision searches N positions (default 20000; "
                               "the same answer every time)"))
    budget.add_argument("--seconds", type=float, default=None, metavar=_("SECONDS"),
                        help=_("the analysis of each decision takes about this long instead"))
    p.add_argument("--all-seats", action="store_true",
                   help=_("review the agents' moves too (default: the persons' seats)"))
    p.add_argument("--unfinished", action="store_true",
                   help=_("for a teacher: review a game that is not over"))
    p.set_defaults(func=cmd_review)
    return parser
