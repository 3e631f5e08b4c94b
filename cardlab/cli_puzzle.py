"""``cardlab puzzle`` and ``cardlab puzzles``: solve a puzzle in the terminal, list and make banks.

    cardlab puzzle mipig                        # a puzzle near your rating
    cardlab puzzle mipig --theme MP-20          # one on the attribute bonus
    cardlab puzzle mazemon --id mazemon-0007 --ratings me.json
    cardlab puzzles list koinobori --theme kabutogaeshi
    cardlab puzzles generate mazemon -n 20 --out my-puzzles.json

A puzzle shows the mover's view only (every card for an open-hands one),
asks for the mover's move, says at once whether it is right (and, for a
wrong one, what it costs), then plays out the solution and explains it.
``--ratings FILE`` keeps the pupil's Glicko-2 rating and the puzzles' there
(:mod:`cardlab.glicko`).  Bad input (an unknown game, id or theme, a
malformed bank or ratings file) gives one line and exit code 2.
:mod:`cardlab.cli` registers both (:func:`add_puzzle_parsers`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable

from . import render
from .errors import CardlabError
from .i18n import _, pgettext

__all__ = ["add_puzzle_parsers", "cmd_puzzle", "cmd_generate", "cmd_list", "read_ratings"]


def read_ratings(path: str | None) -> dict[str, Any]:
    """The ratings file (a new one when ``path`` does not exist yet)."""
    from .glicko import Glicko

    data: dict[str, Any] = {"pupil": Glicko().to_dict(), "puzzles": {}, "history": []}
    if path is None or not Path(path).exists():
        return data
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
        Glicko(**found["pupil"])
        for r in found["puzzles"].values():
            Glicko(**r)
        if not isinstance(found["history"], list):
            raise TypeError("history")
    except (OSError, ValueError, KeyError, TypeError, AttributeError, CardlabError) as exc:
        raise CardlabError(_("{file}: not a ratings file of cardlab puzzle ({error})").format(
            file=path, error=exc)) from None
    return found


def _pick(args: argparse.Namespace, rating: float) -> Any:
    from .puzzles import load, puzzle

    if args.id:
        return puzzle(args.game, args.id, path=args.bank)
    found = load(args.game, theme=args.theme, kind=args.kind, path=args.bank)
    if not found:
        raise CardlabError(_("the bank of {game} has no puzzle of that kind").format(game=args.game))
    near = sorted(found, key=lambda p: (abs(p.rating - rating), p.id))[:10]
    return random.Random(args.seed).choice(near)


def _themes(p: Any) -> str:
    """A puzzle's themes, each with the rule id it teaches."""
    from .puzzles import theme_names

    names = theme_names(p.game)
    return ", ".join(f"{names[t].title()} ({names[t].rule})" for t in p.themes)


def _said(state: Any, move: str, mover: int) -> str:
    """The mover's move as the board's button and the explanation name it."""
    return render.seen_move(state, move, mover).label


def _show(p: Any, state: Any) -> None:
    viewer = p.mover if p.kind == "fair" else None
    print(render.text(state, perspective=viewer))
    for i, a in enumerate(state.legal_actions()):  # the words of the explanation, and the notation one may type
        label = _said(state, a, p.mover)
        print(f"  [{i}] {a}" if label == a else "  " + pgettext("cli move list", "[{index}] {label} ({action})").format(
            index=i, label=label, action=a))


def _ask(legal: list[str], read: Callable[[str], str]) -> str | None:
    """The move the pupil names (a number or the move), ``None`` on quit or
    the end of the input; a bad answer is said and asked again."""
    while True:
        try:
            text = " ".join(read(_("your move (a number or a move; quit): ")).split())
        except EOFError:
            return None
        if text == "quit":
            return None
        if text.isdigit() and int(text) < len(legal):
            return legal[int(text)]
        if text in legal:
            return text
        print(_("{answer} is not one of the moves listed: type a number 0..{last} or a move").format(
            answer=repr(text), last=len(legal) - 1))


def _cost(p: Any, state: Any, move: str) -> str:
    """What a wrong first move costs, in words (later moves: only that it is wrong)."""
    if state != p.state:
        return ""
    lost = p.cost(move)
    span = state.game.spec.max_utility - state.game.spec.min_utility
    return _(" It is worth {loss} less ({share:.0%} of the payoff range).").format(loss=lost, share=float(lost / span))


def _play(p: Any, read: Callable[[str], str]) -> bool | None:
    """Ask the mover's moves of the solution, play out the replies; whether
    every answer was right (``None``: the pupil quit)."""
    state, viewer, right = p.state, (p.mover if p.kind == "fair" else None), True
    for move in p.solution:
        if state.current_player == p.mover and right:
            _show(p, state)
            answer = _ask(state.legal_actions(), read)
            if answer is None:
                return None
            if answer == move:
                print(_("Right: {move}.").format(move=_said(state, move, p.mover)))
            else:
                right = False
                print(_("Wrong: {answer}; the best move is {move}.").format(
                    answer=_said(state, answer, p.mover), move=_said(state, move, p.mover)) + _cost(p, state, answer))
        print("  " + render.seen_move(state, move, viewer).line)
        state = state.apply(move)
    return right


def cmd_puzzle(args: argparse.Namespace) -> int:
    """Solve one puzzle in the terminal."""
    from .glicko import Glicko, attempt

    ratings = read_ratings(args.ratings)
    pupil = Glicko(**ratings["pupil"])
    p = _pick(args, pupil.rating)
    kind = _("all cards shown") if p.kind == "open" else _("you see only your own cards")
    print(_("puzzle {id} ({kind}), rating {rating:.0f}, themes: {themes}").format(
        id=p.id, kind=kind, rating=ratings["puzzles"].get(p.id, {}).get("rating", p.rating),
        themes=_themes(p) or "-"))
    print(_("You are player {player}: find the best move.").format(player=p.mover))
    solved = _play(p, input)
    if solved is None:
        return 0
    print(p.explanation())
    if args.ratings:
        old = Glicko(**ratings["puzzles"].get(p.id, {"rating": p.rating, "rd": 350.0, "vol": 0.06}))
        pupil, new = attempt(pupil, old, solved)
        ratings["pupil"], ratings["puzzles"][p.id] = pupil.to_dict(), new.to_dict()
        ratings["history"].append({"puzzle": p.id, "solved": solved, "rating": round(pupil.rating, 1)})
        Path(args.ratings).write_text(json.dumps(ratings, indent=1) + "\n", encoding="utf-8")
        print(_("your puzzle rating: {rating}").format(rating=pupil))
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """List the puzzles of a bank."""
    from .puzzles import load

    for p in load(args.game, theme=args.theme, kind=args.kind, path=args.bank):
        print(f"{p.id}  {p.kind:<4}  {p.rating:>6.0f}  " + _themes(p))
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    """Make a bank of puzzles from seeded games."""
    from .puzzles.bank import write_bank
    from .puzzles.generate import generate, puzzle_game

    game = puzzle_game(args.game, args.kind)
    out_path = args.out or f"{args.game}-puzzles.json"
    before: list = []
    runs: list = []
    if args.add and Path(out_path).exists():  # the bank to add to: read (and checked) before any game is played
        from .puzzles.bank import read_bank

        old = read_bank(out_path, args.game)
        before, done = old["puzzles"], old["generated"]
        runs = done.get("runs") or [{k: v for k, v in done.items() if k != "runs"}]

    def progress(kept: int, looked: int, games: int) -> None:
        print("\r" + _("{kept} puzzles from {games} games…").format(kept=kept, games=games), end="", file=sys.stderr)

    records, figures = generate(game, args.n, seed=args.seed, seconds=args.seconds, nodes=args.nodes,
                                max_games=args.max_games, callback=progress, kind=args.kind,
                                before=before)
    print(file=sys.stderr)
    figures.update(nodes=args.nodes, first_seed=args.seed, options=dict(game.options))
    if args.kind:
        figures["kind"] = args.kind
    if before:
        runs.append(figures)
        figures = {k: sum(r.get(k, 0) for r in runs) for k in ("games", "candidates")}
        figures.update(kept=len(before) + len(records), seconds=round(sum(r.get("seconds", 0) for r in runs), 1),
                       nodes=runs[0].get("nodes", args.nodes), first_seed=runs[0].get("first_seed", 0), runs=runs)
        figures.update({k: v for k, v in done.items() if k not in figures})  # what the bank noted (its cap)
    out = write_bank(args.game, before + records, figures, out_path)
    print(_("{kept} puzzles of {game} from {games} games ({candidates} positions looked at, {seconds} s): "
            "{file}").format(game=args.game, file=out, **figures))
    return 0


def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1 (as :mod:`cardlab.cli`'s)."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(_("must be a whole number of at least 1, not {value}").format(value=repr(text)))
    return int(text)


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar=pgettext("metavar", "game"))
    p.add_argument("--theme", metavar=_("THEME"), help=_("only puzzles with this theme or rule id (MP-20, …)"))
    p.add_argument("--kind", choices=("fair", "open"),
                   help=_("fair: you see only your cards; open: all cards shown"))
    p.add_argument("--bank", metavar=_("FILE"), help=_("a bank file instead of the shipped one"))


def add_puzzle_parsers(parser: argparse.ArgumentParser,
                       add_parser: Callable[..., argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add ``puzzle`` and ``puzzles`` (``generate``, ``list``) to ``parser``
    (``add_parser(name, help, description)``: :func:`cardlab.cli.build_parser`'s)."""
    p = add_parser("puzzle", _("solve a puzzle: find the one good move"),
                   _("Solve a puzzle from the shipped bank: the position as the mover sees it; type the move. "
                     "Right or wrong is said at once, then the solution plays out with its explanation."))
    _filters(p)
    p.add_argument("--id", metavar=_("ID"), help=_("the puzzle's id (for example mipig-0001)"))
    p.add_argument("--seed", type=int, default=None, metavar=_("SEED"), help=_("decides which puzzle is picked"))
    p.add_argument("--ratings", metavar=_("FILE"),
                   help=_("keep your Glicko-2 puzzle rating and the puzzles' ratings in this JSON file"))
    p.set_defaults(func=cmd_puzzle)
    group = add_parser("puzzles", _("the puzzle banks: list them, make one"))
    sub = group.add_subparsers(dest="puzzles_command", required=True, metavar="{generate,list}")
    g = sub.add_parser("generate", help=_("make puzzles from seeded games"),
                       description=_("Make puzzles from seeded games of mixed agents: positions where the mover's "
                                     "exact analysis has one best move by the game's margin."))
    g.add_argument("game", metavar=pgettext("metavar", "game"))
    g.add_argument("-n", type=_positive, default=100, metavar=_("N"), help=_("how many puzzles (default 100)"))
    g.add_argument("--seed", type=int, default=0, metavar=_("SEED"), help=_("the first game's seed (default 0)"))
    g.add_argument("--seconds", type=float, default=None, metavar=_("SECONDS"), help=_("stop after about this long"))
    g.add_argument("--max-games", type=_positive, default=1000, metavar=_("N"),
                   help=_("play at most N games (default 1000)"))
    g.add_argument("--nodes", type=_positive, default=60_000, metavar=_("N"),
                   help=_("each exact analysis searches at most N positions (default 60000)"))
    g.add_argument("--out", metavar=_("FILE"), help=_("the bank file to write (default GAME-puzzles.json)"))
    g.add_argument("--kind", choices=("fair", "open"),
                   help=_("only fair puzzles (you see only your cards) or only open ones (default: both)"))
    g.add_argument("--add", action="store_true",
                   help=_("add the new puzzles to the bank file of --out, after its own, instead of replacing it"))
    g.set_defaults(func=cmd_generate)
    ls = sub.add_parser("list", help=_("list the puzzles of a bank"))
    _filters(ls)
    ls.set_defaults(func=cmd_list)
    return parser
