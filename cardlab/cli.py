"""The ``cardlab`` command line: games, play, deal, solve, tree, simulate.

    cardlab games
    cardlab play koinobori --opponent heuristic --seed 3
    cardlab play koinobori --seed 3 --reveal          # a teacher: every card shown
    cardlab deal koinobori --seed 3 --move 0 --out pos.json
    cardlab solve koinobori --position pos.json
    cardlab tree koinobori --position pos.json --format graphml --out tree.graphml
    cardlab simulate koinobori -n 1000 --agents heuristic random

Options of a game are given as ``-o NAME=VALUE`` (VALUE read as JSON when it
parses, and ``True``/``False``/``None`` as Python spells them:
``-o open_hands=true -o payoff=score``).

A position to solve is a :meth:`State.to_dict` saved as JSON: ``cardlab deal``
writes the one that ``cardlab play`` with the same ``--seed`` reaches after
the given moves, and ``save FILE`` inside ``cardlab play --reveal`` writes the
current one (it holds every card, so only a teacher's ``--reveal`` game may
save).

``cardlab play`` shows the person at ``--seat`` only what that seat may see:
each move (chance, the agents' and their own) as its public line
(:func:`cardlab.render.seen_move`: ``"Player 1's move hidden from player 0:
draw ドロー: ??"``), their view of the table as a text board
(:func:`cardlab.render.text` with ``perspective=seat``), and, on ``hint``,
the fair hint (:func:`cardlab.analyse` with ``player=seat``: computed only
from what the seat can see).  ``--reveal`` is for a teacher who wants
everything: the full table, every move's full explanation and the open hint
(every card seen).  :func:`transcript` and :func:`hint` build that text
from the match alone, so the leak test can compare it for matches the seat
cannot tell apart; :func:`cmd_play` only reads the person's input.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from . import agents as _agents
from . import render
from .core import CHANCE, Game, State, load, make_rng, sample_chance
from .solve import BYTES_PER_POSITION, DEFAULT_MAX_NODES
from .errors import CardlabError, TooLargeError
from .match import Match

__all__ = ["main", "transcript", "steps", "hint", "parse_move"]

#: one move of a match: the position before it and the action taken there
Step = tuple[State, str]


#: option values as a Python user types them (JSON spells them true, false, null)
_PYTHON_WORDS = {"True": True, "False": False, "None": None}


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise CardlabError(f"option {pair!r} must look like NAME=VALUE (e.g. open_hands=true)")
        if value in _PYTHON_WORDS:
            out[name] = _PYTHON_WORDS[value]
            continue
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


def _seats(game: Game, seat: int, opponent: str) -> list[Any]:
    """``cardlab play``'s players: the person at ``seat``, the agent elsewhere
    (``cardlab deal`` builds the same match, so one seed gives one deal)."""
    players: list[Any] = [opponent] * game.spec.num_players
    players[seat] = None
    return players


def _save(state: State, path: str) -> str:
    """Write ``state.to_dict()`` as JSON; the line that says so."""
    try:
        Path(path).write_text(json.dumps(state.to_dict(), ensure_ascii=False, indent=1) + "\n", "utf-8")
    except OSError as exc:
        raise CardlabError(f"{path}: cannot write the position file ({exc.strerror})") from None
    return f"position saved to {path} (solve it: cardlab solve {state.game.name} --position {path})"


def _position(args: argparse.Namespace):
    where = args.position
    try:
        d = json.loads(Path(where).read_text("utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path, bytes that are not UTF-8
        why = getattr(exc, "strerror", None) or "not a readable UTF-8 text file"
        if isinstance(exc, json.JSONDecodeError):
            why = f"not valid JSON (line {exc.lineno}: {exc.msg})"
        raise CardlabError(f"{where}: cannot read the position file: {why}") from None
    except RecursionError:
        raise CardlabError(f"{where}: the JSON is nested too deeply to be a position") from None
    if not isinstance(d, dict):
        raise CardlabError(f"{where}: a position file holds one JSON object (State.to_dict(), as cardlab deal "
                           f"writes it), not {type(d).__name__ if d is not None else 'null'}")
    saved = d.get("options") or {}
    if not isinstance(saved, dict):
        raise CardlabError(f"{where}: 'options' must be a JSON object of the game's options, not "
                           f"{type(saved).__name__}")
    opts = {**saved, **_options(args.option)}
    game = load(args.game, **opts)
    d = {**d, "options": game.options_dict()}
    return game.state_from_dict(d)


def cmd_games(args: argparse.Namespace) -> int:
    from .core import _REGISTRY, games

    for name in games():
        cls = _REGISTRY[name]
        print(f"{name:<15} {cls.title}")
    return 0


# -- play: what the person at a seat is shown ---------------------------------
def steps(match: Match, start: int = 0) -> list[Step]:
    """The moves of ``match`` from the ``start``-th on, each with the
    position before it."""
    return [(s, m.action) for s, m in zip(match.states[start:], match.history[start:])]


def transcript(moves: Iterable[Step], state: State, seat: int, reveal: bool = False) -> Iterator[str]:
    """The lines the person at ``seat`` reads for one turn: each move of
    ``moves`` as they may know it (:func:`cardlab.render.seen_move`), then
    ``state`` (where the moves led) as they may see it
    (:func:`cardlab.render.text`), with the returns when the game is over or
    their numbered legal moves when it is their turn.  ``reveal`` (a
    teacher) shows everything: full explanations and the full table.

    Built only through those gates, so two matches the seat cannot tell
    apart give the same lines (``tests/test_cli.py`` checks it).

    >>> import cardlab
    >>> m = cardlab.Match(cardlab.load("koinobori"), [None, "random"], seed=29)
    >>> _ = m.advance()
    >>> lines = list(transcript(steps(m), m.state, seat=0))
    >>> lines[3], lines[-1]
    ('  A chance event hidden from player 0: deal 配る: ?? (KN-7).', '  [6] play magoi')
    """
    viewer = None if reveal else seat
    for before, action in moves:
        yield "  " + render.seen_move(before, action, viewer).line
    yield ""
    yield from render.text(state, perspective=viewer).splitlines()
    if state.is_terminal():
        yield "game over; returns: " + ", ".join(str(r) for r in state.returns())
    elif state.current_player == seat:
        for i, a in enumerate(state.legal_actions()):
            yield f"  [{i}] {a}"


def hint(state: State, seat: int, reveal: bool = False, *, max_nodes: int | None = 100_000,
         max_arrangements: int = 500, samples: int = 40) -> str:
    """The hint for the person at ``seat``, to move in ``state``: the fair
    one, :func:`cardlab.analyse` with ``player=seat``, computed only from
    what the seat can see (exact over the arrangements of the cards they
    cannot see, or over ``samples`` random ones with a 95 % interval when
    there are more than ``max_arrangements``); with ``reveal`` the open
    hint, every card seen.  When it cannot be computed (more than
    ``max_nodes`` positions to solve), a line saying why."""
    from .solve import analyse

    kind = "open" if reveal else "fair"
    try:
        if reveal:
            a = analyse(_agents.open_hands_copy(state), max_nodes=max_nodes, progress=False)
        else:
            a = analyse(state, player=seat, max_nodes=max_nodes, max_arrangements=max_arrangements,
                        samples=samples, progress=False)
    except TooLargeError:
        return (f"no {kind} hint here, too large to compute (more than {max_nodes:,} positions to solve): "
                f"ask again nearer the end of the game, or raise --hint-max-nodes (now {max_nodes:,})"
                + ("" if reveal else " or lower --hint-samples"))
    except CardlabError as exc:
        return f"no {kind} hint here: {exc}"
    if reveal:
        return f"open hint (every card, also those player {seat} cannot see)\n{a}"
    if a.kind == "open":  # the game is played with every card open
        return f"fair hint (only what player {seat} can see: every card is open in this game)\n{a}"
    return str(a)  # its title says: fair hint (only what player p can see)


_NUMBER = re.compile(r"[+-]?\d+")


def parse_move(text: str, legal: Sequence[str], commands: str | None = "hint, undo, quit") -> str:
    """The legal move ``text`` names: its number in ``legal`` or its
    notation.  Raises :class:`~cardlab.CardlabError` saying what was wrong
    and what is accepted (``commands``: the words the prompt also takes;
    ``None`` where no list of moves was shown, so the message names them all).

    >>> parse_move("1", ["pass", "play aokoi"]), parse_move(" play  aokoi ", ["pass", "play aokoi"])
    ('play aokoi', 'play aokoi')
    >>> parse_move("7", ["pass", "play aokoi"])
    Traceback (most recent call last):
    cardlab.errors.CardlabError: there is no move number 7: type a number 0..1 or a move (pass, play aokoi), or hint, undo, quit
    """
    words = " ".join(text.split())
    if commands is None:
        accepted = f"a number 0..{len(legal) - 1} or a move ({', '.join(legal)})"
    else:
        shown = ", ".join(legal[:6]) + (f", … ({len(legal)} in all, listed above)" if len(legal) > 6 else "")
        accepted = f"type a number 0..{len(legal) - 1} or a move ({shown}), or {commands}"
    if _NUMBER.fullmatch(words):
        i = int(words)
        if 0 <= i < len(legal):
            return legal[i]
        raise CardlabError(f"there is no move number {i}: {accepted}")
    if words in legal:
        return words
    raise CardlabError(f"{words!r} is not a legal move here: {accepted}")


PROMPT = "your move (a number or a move; hint, undo, quit): "


def cmd_play(args: argparse.Namespace) -> int:
    """The input loop of ``cardlab play``: what is shown comes from
    :func:`transcript` and :func:`hint`; bad input is refused with a line
    saying why and changes nothing."""
    game = load(args.game, **_options(args.option))
    n = game.spec.num_players
    seat = args.seat
    if not 0 <= seat < n:
        msg = f"argument --seat: {game.name} has {n} players, so a seat is 0..{n - 1}, not {seat}"
        if getattr(args, "parser", None) is None:
            raise CardlabError(msg)
        args.parser.error(msg)  # exits with argparse's usage line, status 2
    # a Namespace built by hand may lack the newer options: their defaults then
    reveal = getattr(args, "reveal", False)
    limits = {"max_nodes": getattr(args, "hint_max_nodes", 100_000),
              "max_arrangements": getattr(args, "hint_max_arrangements", 500),
              "samples": getattr(args, "hint_samples", 40)}
    match = Match(game, _seats(game, seat, args.opponent), seed=args.seed)
    inp = args.input or sys.stdin
    shown = 0  # moves of match.history already printed
    while True:
        match.advance()
        for line in transcript(steps(match, shown), match.state, seat, reveal):
            print(line)
        shown = len(match.history)
        if match.is_over():
            return 0
        while True:  # read until a move is played or taken back
            print(PROMPT, end="", flush=True)
            line = inp.readline()
            text = line.strip()
            if not inp.isatty():
                print(text)  # piped input is not echoed: show what was read
            if not line or text == "quit":
                return 0
            if not text:
                continue
            if text == "hint":
                print("thinking… (Ctrl-C stops the hint)", flush=True)
                try:
                    print(hint(match.state, seat, reveal, **limits))
                except KeyboardInterrupt:
                    print("hint stopped")
            elif text.split()[0] == "save":
                path = text[4:].strip()
                if not reveal:
                    print("save writes the whole position, every hidden card too: only a teacher's game "
                          "(cardlab play --reveal) may save; or make the position with cardlab deal")
                elif not path:
                    print("save needs a file name: save pos.json")
                else:
                    try:
                        print(_save(match.state, path))
                    except CardlabError as exc:
                        print(exc)
            elif text == "undo":
                if any(m.player == seat for m in match.history):
                    match.undo(to_person=True)
                    shown = len(match.history)
                    print("taken back: your last move and every move after it")
                    break
                print("nothing to undo: you have not moved yet")
            else:
                try:
                    action = parse_move(text, match.state.legal_actions())
                except CardlabError as exc:
                    print(exc)
                    continue
                match.play(action)
                break


def cmd_deal(args: argparse.Namespace) -> int:
    """Deal with ``--seed`` as ``cardlab play`` does, play each
    ``--move`` (chance events between them drawn as in ``play``), save the
    position."""
    game = load(args.game, **_options(args.option))
    match = Match(game, _seats(game, 0, "heuristic"), seed=args.seed)

    def chance() -> None:  # only chance events: every move is given
        while match.state.current_player == CHANCE and not match.is_over():
            match.step()

    chance()
    for i, text in enumerate(args.move, 1):
        if match.is_over():
            raise CardlabError(f"--move {text!r} (move {i}): the game is already over")
        try:
            match.play(parse_move(text, match.state.legal_actions(), commands=None))
        except CardlabError as exc:
            raise CardlabError(f"--move {text!r} (move {i}): {exc}") from None
        chance()
    print(render.text(match.state))
    print(_save(match.state, args.out))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .solve import analyse, solve

    s = _position(args)
    print(s)
    if not s.game.spec.perfect_information:
        raise CardlabError(f"{s.game.name} hides cards with these options, and solve needs every card seen: "
                           f"add -o open_hands=true to solve the position with all cards open")
    try:
        print(solve(s, max_nodes=args.max_nodes, progress=True))
        if s.current_player >= 0:
            print(analyse(s, max_nodes=args.max_nodes, progress=False))
    except TooLargeError:
        raise CardlabError(f"the solve passed --max-nodes {args.max_nodes} positions: raise --max-nodes "
                           "or solve a later position (fewer cards left)") from None
    return 0


def cmd_tree(args: argparse.Namespace) -> int:
    from .bridges.gambit import write_efg
    from .tree import tree, write_dot, write_graphml

    s = _position(args)
    try:  # Gambit's format is a tree: transpositions stay apart there
        G = tree(s, max_depth=args.max_depth, max_nodes=args.max_nodes,
                 merge_transpositions=not args.no_merge and args.format != "efg")
    except TooLargeError:
        raise CardlabError(f"the tree has more than --max-nodes {args.max_nodes} nodes: raise --max-nodes, "
                           "give --max-depth, or start from a later position") from None
    try:
        {"graphml": write_graphml, "dot": write_dot, "efg": write_efg}[args.format](G, args.out)
    except OSError as exc:
        raise CardlabError(f"{args.out}: cannot write the tree ({exc.strerror})") from None
    print(f"{G.number_of_nodes()} nodes, {G.number_of_edges()} edges → {args.out}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    opts = _options(args.option)
    game = load(args.game, **opts)
    n = game.spec.num_players
    agents = args.agents or ["random"]
    if len(agents) > 1 and len(agents) != n:
        if "players" in game.options and "players" not in opts:  # the agents name the seats
            game = load(args.game, **opts, players=len(agents))
            n = game.spec.num_players
        else:
            raise CardlabError(f"--agents names {len(agents)} agents but {game.name} has {n} players here: "
                               f"give one agent (it plays every seat) or {n}")
    names = agents * n if len(agents) == 1 else agents
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


def cmd_rooms(args: argparse.Namespace) -> int:
    """The class rooms of a store: the teacher's link and a line a room."""
    from .rooms import RoomStore

    try:
        store = RoomStore(args.db)
    except Exception as exc:  # sqlite3 errors: a file that is not a store
        raise CardlabError(f"{args.db}: cannot open the class rooms ({exc})") from None
    print(f"class rooms: {args.db}")
    print(f"the teacher's page (keep it to yourself; every card shows there): "
          f"{args.url}?teacher={store.key(None, 'teacher')}")
    for row in store.summary():
        now = "over" if row["over"] else f"player {row['to_move']} to move"
        print(f"  {row['room']}: {row['name']} · {row['game']} · {row['moves']} moves · {now}")
        for link in store.links(row["room"]):
            print(f"      {args.url}{link}")
    return 0


PLAY_DESCRIPTION = """Play in the terminal against an agent.  You see what your seat may see:
each move as its public line (a card drawn by the opponent reads "??"),
your view of the table, and on 'hint' the fair hint, computed only from
what you can see.  --reveal shows everything (for a teacher); there
'save FILE' writes the current position for cardlab solve and tree."""


def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardlab", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games").set_defaults(func=cmd_games)

    def game_parser(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=description or help)
        p.add_argument("game")
        p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE")
        return p

    p = game_parser("play", "play in the terminal against an agent", PLAY_DESCRIPTION)
    p.add_argument("--seat", type=int, default=0, help="your seat, 0 to the number of players - 1 (default 0)")
    p.add_argument("--opponent", default="heuristic", choices=sorted(_agents.AGENTS),
                   help="the agent in every other seat (default heuristic)")
    p.add_argument("--seed", type=int, help="decides the deal, every chance event and the agents' choices")
    p.add_argument("--reveal", action="store_true",
                   help="for a teacher: show every card, every move in full and the open hint")
    p.add_argument("--hint-max-nodes", type=_positive, default=100_000, metavar="N",
                   help="positions the hint may solve before it gives up (default 100000)")
    p.add_argument("--hint-max-arrangements", type=_positive, default=500, metavar="N",
                   help="the fair hint is exact up to N arrangements of the hidden cards (default 500)")
    p.add_argument("--hint-samples", type=_positive, default=40, metavar="N",
                   help="beyond that, it samples N arrangements and shows a 95%% interval (default 40)")
    p.set_defaults(func=cmd_play, input=None, parser=p)
    p = game_parser("deal", "deal a game (as cardlab play with the same --seed), play some moves, "
                            "save the position for solve and tree")
    p.add_argument("--seed", type=int, help="decides the deal and every chance event, as in cardlab play")
    p.add_argument("--move", action="append", default=[], metavar="MOVE",
                   help="a move to play, a number or the move's text, as cardlab play takes it; repeat it for "
                        "more moves (chance events between them come from --seed)")
    p.add_argument("--out", required=True, help="the JSON file to write (State.to_dict)")
    p.set_defaults(func=cmd_deal)
    p = game_parser("solve", "solve a position (JSON from State.to_dict) exactly")
    p.add_argument("--position", required=True)
    p.add_argument("--max-nodes", type=_positive, default=DEFAULT_MAX_NODES, metavar="N",
                   help=f"stop after N positions (default {DEFAULT_MAX_NODES:,}: about "
                        f"{DEFAULT_MAX_NODES * BYTES_PER_POSITION / 1e9:.1g} GB of table)")
    p.set_defaults(func=cmd_solve)
    p = game_parser("tree", "write the game tree of a position")
    p.add_argument("--position", required=True)
    p.add_argument("--format", choices=("graphml", "dot", "efg"), default="graphml",
                   help="graphml (networkx, Gephi), dot (Graphviz) or efg (Gambit)")
    p.add_argument("--out", required=True)
    p.add_argument("--max-depth", type=_positive, metavar="N")
    p.add_argument("--max-nodes", type=_positive, default=100_000, metavar="N")
    p.add_argument("--no-merge", action="store_true", help="keep transpositions apart (a tree)")
    p.set_defaults(func=cmd_tree)
    p = sub.add_parser("rooms", help="the class rooms: the teacher's link, each room and its pupils' links")
    p.add_argument("--db", default="class-rooms.db", help="the class's store (make play uses class-rooms.db)")
    p.add_argument("--url", default="http://127.0.0.1:8866/", help="the address of the class app (make play)")
    p.set_defaults(func=cmd_rooms)
    p = game_parser("simulate", "play many games between agents")
    p.add_argument("-n", type=_positive, default=100, metavar="N", help="the number of games (default 100)")
    p.add_argument("--agents", nargs="+", choices=sorted(_agents.AGENTS))
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command: 0 when it worked, 2 with one line on stderr when the
    input was wrong, 130 (quietly) on Ctrl-C."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CardlabError as exc:
        print(f"cardlab: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
