"""``cardlab design``: the rule-design metrics of a game over a grid of
options, as a text table and an HTML report (:mod:`cardlab.design`).

    cardlab design mipig --option hand_size=3,4,5 --games 400 --out report.html
    cardlab design koinobori --option refill_after_draw_capture=true,false --agent beginner --workers 2
    cardlab design mipig --option hand_size=1 --exact --games 50 --agent random --skill heuristic,random

Every finished game goes to a CSV (``--csv``, default: the report's name
with ``.csv``); the same command again plays only the games still missing.
Progress shows on stderr.  Bad input (an option value the game refuses, an
empty grid, an unknown agent, a skill pair that does not fit, no matplotlib
for the plots) gives one line and exit code 2 before any game is played.
:mod:`cardlab.cli` registers it (:func:`add_design_parser`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
from typing import Any, Callable

from .errors import CardlabError
from .i18n import _, pgettext

__all__ = ["add_design_parser", "cmd_design"]


def _skill(text: str) -> Any:
    words = [w.strip() for w in text.split(",") if w.strip()]
    if text.strip().lower() in ("auto", "none"):
        return text.strip().lower() if text.strip().lower() == "auto" else None
    return tuple(words)


def cmd_design(args: argparse.Namespace) -> int:
    """Plan (every check first), play, print the metrics, write the report."""
    from . import design

    grid = design.parse_grid(args.option)
    if args.option and not grid:
        raise CardlabError(_("the grid is empty: give at least one option with its values (hand_size=3,4,5)"))
    if args.out and not args.no_plots and importlib.util.find_spec("matplotlib") is None:
        raise CardlabError(_('the report\'s plots need matplotlib: pip install "cardlab[notebook]", or give '
                             '--no-plots'))
    p = design.plan(args.game, grid or None, games=args.games, agent=args.agent, skill=_skill(args.skill),
                    evaluate=args.evaluate, seed=args.seed)
    csv = args.csv or (os.path.splitext(args.out)[0] + ".csv" if args.out else None)
    workers = args.workers or os.cpu_count() or 1
    rows = design.run_plan(p, executor=workers, csv=csv, progress=None)
    points = design.points(p, rows)
    if args.exact:
        for point in points:
            point.exact = design.exact_or_none(args.game, point.options)
            if point.exact is not None:
                point.metrics["open_value"] = design.sampled_open_value(
                    args.game, point.options, range(args.seed, args.seed + args.games))
    for point in points:
        print(point)
    if args.out:
        design.report_html(points, args.out, plots=not args.no_plots)
        print(_("report written to {path}").format(path=args.out))
    return 0


def add_design_parser(parser: argparse.ArgumentParser,
                      add_parser: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``design`` sub-command (``add_parser(name, help, description)``:
    :func:`cardlab.cli.build_parser`'s); ``parser``."""
    from .agents import NAMES

    p = add_parser("design", _("rule design: how fair, long and lucky a game is, by option"),
                   _("Self-play games of a level or agent at every point of a grid of options: seat "
                     "advantage, balance, draws, lead changes, decisiveness, duration, branching factor, "
                     "skill against luck, each with its {percent} interval; the exact open-hands value over every "
                     "deal where the variant is small (--exact); an HTML report with plots (--out).").format(
                       percent="95 %"))
    p.add_argument("game", metavar=pgettext("metavar", "game"))
    p.add_argument("-o", "--option", action="append", default=[], metavar=_("NAME=V1,V2"),
                   help=_("an option and its values, one point each (repeat for a grid)"))
    p.add_argument("--games", type=int, default=100, metavar=_("N"),
                   help=_("self-play games a point (default 100; as many skill games)"))
    p.add_argument("--agent", default="beginner", choices=NAMES, help=_("who plays the self-play games"))
    p.add_argument("--skill", default="auto", metavar=_("STRONG,WEAK"),
                   help=_("the skill games: stronger,weaker; auto (the level above --agent against it) or none"))
    p.add_argument("--evaluate", type=int, default=300, metavar=_("N"),
                   help=_("the evaluation's positions a decision (lead changes, decisiveness, luck; 0: none)"))
    p.add_argument("--seed", type=int, default=0, metavar=_("SEED"), help=_("the first game's seed"))
    p.add_argument("--workers", type=int, default=1, metavar=_("N"),
                   help=_("processes (default 1; 0: every core)"))
    p.add_argument("--csv", metavar=_("CSV"), help=_("the finished games (default: the report's name with .csv)"))
    p.add_argument("--exact", action="store_true",
                   help=_("also the exact open-hands value over every deal, where the variant is small"))
    p.add_argument("--out", metavar=_("OUT"), help=_("write the HTML report here"))
    p.add_argument("--no-plots", action="store_true", help=_("a report without plots (no matplotlib needed)"))
    p.set_defaults(func=cmd_design)
    return parser
