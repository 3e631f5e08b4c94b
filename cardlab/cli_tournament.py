"""``cardlab tournament``: a class tournament from the command line (issue
W, item 5): make one (``--new`` and the pupils' names), go on to the next
round (``--next``, ``--force``), or show it: each round's games by name,
the open round's links, and the standings with their tie-breaks.  The
rules: :mod:`cardlab.tournament`; the store: :mod:`cardlab.tournament_store`."""

from __future__ import annotations

import argparse
from typing import Callable

from .cli_rooms import class_arguments, open_store
from .errors import CardlabError
from .i18n import _

__all__ = ["cmd_tournament", "add_tournament_parser", "standings_lines"]


def standings_lines(t, rows) -> list[str]:
    """The standings as lines of text: place, name, points and the tie-breaks, games won, drawn and lost."""
    from .agents import level_label
    from .tournament import show_points

    second = _("Buchholz") if t.system == "swiss" else _("Sonneborn-Berger")
    names = [level_label(r.name) if r.agent else r.name for r in rows]
    width = max([len(n) for n in names] + [len(_("pupil"))])
    place, pupil, points, level = _("place"), _("pupil"), _("points"), _("head-to-head")
    lines = [f"{place:>5}  {pupil:<{width}}  {points:>6}  {second:>16}  {level:>12}  "
             + _("won") + "/" + _("drawn") + "/" + _("lost")]
    for r, name in zip(rows, names):
        lines.append(f"{r.rank:>5}  {name:<{width}}  {show_points(r.points):>6}  {show_points(r.tiebreak):>16}  "
                     f"{show_points(r.head_to_head):>12}  {r.won}/{r.drawn}/{r.lost}")
    return lines


def _show(cups, t, url: str) -> None:
    """Print ``t``: each round's games (the open round's with its links) and the standings."""
    from .agents import level_label
    from .tournament import SYSTEMS, show_points

    def who(name: str) -> str:
        return level_label(name) if name == t.agent else name

    store = cups.store
    print(_("{tournament}: {system}, {game}; round {number} of {rounds}").format(
        tournament=t.label(), system=_(SYSTEMS[t.system]), game=t.game, number=t.made, rounds=t.rounds))
    for number, games in enumerate(cups.rounds(t.id), 1):
        print("  " + _("round {number}").format(number=number))
        for p, rid in zip(games, cups.rooms(t.id, number)):
            if p.bye:
                print("    " + _("{name}: a bye").format(name=who(p.first)))
                continue
            result = "v" if p.score is None else f"{show_points(p.score)}-{show_points(1 - p.score)}"
            print(f"    {rid}: {who(p.first)} {result} {who(p.second)}")
            if number > t.closed and p.score is None:
                for link in store.links(rid):
                    print(f"      {url}{link}")
    for line in standings_lines(t, cups.standings(t.id)):
        print("  " + line)
    print(_("each pupil's link and code for the whole tournament (they open their game of each round)") + ":")
    for name, link in cups.links(t.id, url):
        print("  " + _("{name} (code {code})").format(name=name, code=cups.code(t.id, name)) + f": {link}")


def cmd_tournament(args: argparse.Namespace) -> int:
    """Make, go on with, or show a tournament of the class's store."""
    from .rooms import class_url
    from .store_db import shown
    from .tournament_store import Tournaments

    cups = Tournaments(open_store(args.db))
    url = args.url or class_url()
    if args.new:
        t = cups.create(args.new, game=args.game, system=args.system, rounds=args.rounds, agent=args.odd,
                        name=args.name or "", seed=len(cups.store.ids("all")))
        print(_("{tournament} made: round 1 of {rounds} is in the rooms below.").format(
            tournament=t.label(), rounds=t.rounds))
    else:
        every = cups.all()
        if not every:
            raise CardlabError(_("{path} has no tournament yet: make one with --new and the pupils' names")
                               .format(path=shown(cups.store.path)))
        t = cups.get(args.id) if args.id is not None else every[-1]
        if args.next:
            if not cups.next_round(t.id, force=args.force):
                print(_("{tournament} is over: the final standings.").format(tournament=t.label()))
            t = cups.get(t.id)
    _show(cups, t, url)
    return 0


def add_tournament_parser(parser: argparse.ArgumentParser,
                          add_parser: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``tournament`` to ``parser`` (``add_parser(name, help, description)``:
    :func:`cardlab.cli.build_parser`'s); ``parser``."""
    from .agents import LEVELS
    from .tournament import SYSTEMS

    p = add_parser("tournament", _("a class tournament: make one, the next round, the standings"))
    class_arguments(p)
    p.add_argument("--new", nargs="+", metavar=_("NAME"), help=_("make a tournament of these pupils"))
    p.add_argument("--game", default="koinobori", help=_("the game of a new tournament (default: koinobori)"))
    p.add_argument("--system", choices=list(SYSTEMS), default="swiss", help=_("round_robin or swiss (default)"))
    p.add_argument("--rounds", type=int, help=_("how many rounds (default: the usual)"))
    p.add_argument("--odd", choices=list(LEVELS), help=_("the level of the agent in the odd seat (default: a bye)"))
    p.add_argument("--name", help=_("the new tournament's name"))
    p.add_argument("--id", type=int, help=_("which tournament (default: the last made)"))
    p.add_argument("--next", action="store_true",
                   help=_("record this round's results and make the next round's rooms"))
    p.add_argument("--force", action="store_true",
                   help=_("with --next: end the games still going and count them as draws"))
    p.set_defaults(func=cmd_tournament)
    return parser
