"""The ``cardlab`` command line: games, play, solve, tree, simulate.

    cardlab games
    cardlab play koinobori --opponent heuristic --seed 3
    cardlab solve koinobori --position endgame.json
    cardlab tree koinobori --position endgame.json --format graphml --out tree.graphml
    cardlab simulate koinobori -n 1000 --agents heuristic random

Options of a game are given as ``-o NAME=VALUE`` (VALUE read as JSON when it
parses: ``-o open_hands=true -o payoff=score``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

from . import agents as _agents
from .core import CHANCE, load, make_rng, sample_chance
from .errors import CardlabError
from .match import Match

__all__ = ["main"]


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise CardlabError(f"option {pair!r} must look like NAME=VALUE (e.g. open_hands=true)")
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _position(args: argparse.Namespace):
    try:
        d = json.loads(Path(args.position).read_text("utf-8"))
    except OSError as exc:
        raise CardlabError(f"{args.position}: cannot read the position file ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise CardlabError(f"{args.position}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
    opts = {**(d.get("options") or {}), **_options(args.option)}
    game = load(args.game, **opts)
    d = {**d, "options": game.options_dict()}
    return game.state_from_dict(d)


def cmd_games(args: argparse.Namespace) -> int:
    from .core import _REGISTRY, games

    for name in games():
        cls = _REGISTRY[name]
        print(f"{name:<15} {cls.title}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    game = load(args.game, **_options(args.option))
    n = game.spec.num_players
    players: list[Any] = [args.opponent] * n
    players[args.seat] = None
    match = Match(game, players, seed=args.seed)
    inp = args.input or sys.stdin
    while True:
        for move in match.advance():
            print(f"  {move}   — {move.explanation}")
        s = match.state
        if s.is_terminal():
            print(s)
            print("returns:", s.returns())
            return 0
        print()
        print(s if game.spec.perfect_information else _view(s, args.seat))
        legal = s.legal_actions()
        for i, a in enumerate(legal):
            print(f"  [{i}] {a}")
        print("your move (number or notation; 'undo', 'hint', 'quit'): ", end="", flush=True)
        line = inp.readline()
        if not line or line.strip() == "quit":
            return 0
        text = line.strip()
        if text == "undo":
            if match.can_undo():
                match.undo(to_person=True)
            continue
        if text == "hint":
            from .solve import analyse

            try:
                print(analyse(_agents.open_hands_copy(s), max_nodes=100_000, progress=False))
            except CardlabError as exc:
                print("no exact hint here:", exc)
            continue
        action = legal[int(text)] if text.isdigit() and int(text) < len(legal) else text
        try:
            match.play(action)
        except CardlabError as exc:
            print(exc)


def _view(state, seat: int) -> str:
    return json.dumps(state.observation(seat), ensure_ascii=False, indent=1)


def cmd_solve(args: argparse.Namespace) -> int:
    from .solve import analyse, solve

    s = _position(args)
    print(s)
    sol = solve(s, max_nodes=args.max_nodes, progress=True)
    print(sol)
    if s.current_player >= 0:
        print(analyse(s, max_nodes=args.max_nodes, progress=False))
    return 0


def cmd_tree(args: argparse.Namespace) -> int:
    from .tree import tree, write_dot, write_graphml

    s = _position(args)
    G = tree(s, max_depth=args.max_depth, max_nodes=args.max_nodes,
             merge_transpositions=not args.no_merge)
    if args.format == "graphml":
        write_graphml(G, args.out)
    else:
        write_dot(G, args.out)
    print(f"{G.number_of_nodes()} nodes, {G.number_of_edges()} edges → {args.out}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    game = load(args.game, **_options(args.option))
    n = game.spec.num_players
    names = (args.agents or ["random"]) * n
    names = names[:n]
    rng = make_rng(args.seed)
    wins = [0] * n
    draws = 0
    total = [0.0] * n
    try:
        from tqdm.auto import tqdm

        rounds = tqdm(range(args.n), desc="games", unit=" games")
    except ImportError:
        rounds = range(args.n)
    for _ in rounds:
        seats = [_agents.make(name, seed=rng.randrange(2**32)) for name in names]
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s._apply(sample_chance(s, rng))
            else:
                s = s.apply(seats[s.current_player].choose(s))
        r = s.returns()
        best = max(r)
        winners = [i for i, x in enumerate(r) if x == best]
        if len(winners) == 1:
            wins[winners[0]] += 1
        else:
            draws += 1
        total = [t + float(x) for t, x in zip(total, r)]
    print(f"{args.n} games of {game!r}")
    for i in range(n):
        print(f"  seat {i} ({names[i]}): wins {wins[i] / args.n:.1%}, mean return {total[i] / args.n:+.3f}")
    print(f"  draws: {draws / args.n:.1%}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardlab", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games").set_defaults(func=cmd_games)

    def game_parser(name: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.add_argument("game")
        p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
        return p

    p = game_parser("play", "play in the terminal against an agent")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--opponent", default="heuristic", choices=sorted(_agents.AGENTS))
    p.add_argument("--seed", type=int)
    p.set_defaults(func=cmd_play, input=None)
    p = game_parser("solve", "solve a position (JSON from State.to_dict) exactly")
    p.add_argument("--position", required=True)
    p.add_argument("--max-nodes", type=int, default=20_000_000)
    p.set_defaults(func=cmd_solve)
    p = game_parser("tree", "write the game tree of a position")
    p.add_argument("--position", required=True)
    p.add_argument("--format", choices=("graphml", "dot"), default="graphml")
    p.add_argument("--out", required=True)
    p.add_argument("--max-depth", type=int)
    p.add_argument("--max-nodes", type=int, default=100_000)
    p.add_argument("--no-merge", action="store_true", help="keep transpositions apart (a tree)")
    p.set_defaults(func=cmd_tree)
    p = game_parser("simulate", "play many games between agents")
    p.add_argument("-n", type=int, default=100)
    p.add_argument("--agents", nargs="+", choices=sorted(_agents.AGENTS))
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CardlabError as exc:
        print(f"cardlab: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
