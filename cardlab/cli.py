"""The cardlab command line: games, play, deal, solve, tree, simulate.

    cardlab games
    cardlab play koinobori --opponent heuristic --seed 3
    cardlab play koinobori --seed 3 --reveal          # a teacher: every card shown
    cardlab deal koinobori --seed 3 --move 0 --out pos.json
    cardlab solve koinobori --position pos.json
    cardlab tree koinobori --position pos.json --format graphml --out tree.graphml
    cardlab simulate koinobori -n 1000 --agents heuristic random
    cardlab review class-export/games.json --room R1   # marks of each move (cardlab.cli_review)
    cardlab --lang ja play koinobori                   # in Japanese (default: the environment)

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
(:func:`cardlab.render.seen_move`: ``"Player 1 draws a card. (TK-11)"``),
their view of the table as a text board
(:func:`cardlab.render.text` with ``perspective=seat``), and, on ``hint``,
the fair hint (:func:`cardlab.analyse` with ``player=seat``: computed only
from what the seat can see).  ``--reveal`` is for a teacher who wants
everything: the full table, every move's full explanation and the open hint
(every card seen).  :func:`transcript` and :func:`hint` build that text
from the match alone, so the leak test can compare it for matches the seat
cannot tell apart; :func:`cmd_play` only reads the person's input.

Everything the CLI prints, its help included, is in the language of
``--lang`` (``en`` or ``ja``; before or after the sub-command), else of the
environment (:func:`cardlab.i18n.get_language`: ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``).  argparse's own texts ("usage:", "options", its
error lines) are translated too: while :func:`main` runs in a language other
than English, argparse's module-level ``_``/``ngettext`` look its texts up in
cardlab's catalogue (:func:`_argparse_speaks`, table :data:`ARGPARSE_TEXTS`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from . import agents as _agents
from . import render
from . import games
from .core import CHANCE, Game, State, make_rng, sample_chance
from .games import load
from .solve import BYTES_PER_POSITION, DEFAULT_MAX_NODES
from .errors import CardlabError, OptionError, TooLargeError
from .cli_hint import HINT_SECONDS, estimate, hint, seconds_arg  # noqa: F401  (hint: also cardlab.cli.hint)
from .i18n import LANGUAGES, N_, _, check_language, get_language, pgettext, using
from .i18n import translated as _translated
from .match import Match
from .cli_design import add_design_parser
from .cli_review import add_review_parser
from .cli_puzzle import add_puzzle_parsers
from .cli_rooms import add_rooms_parser
from .cli_tournament import add_tournament_parser

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
            raise CardlabError(_("option {option} must look like NAME=VALUE (e.g. open_hands=true)")
                               .format(option=repr(pair)))
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


def _opponent_help() -> str:
    """``--opponent``'s help: the levels, each with its one line, then the other agents."""
    levels = "; ".join(f"{name} ({level.ja}): {_(level.doc)}" for name, level in _agents.LEVELS.items())
    return _("the agent in every other seat (default heuristic): a level, {levels}; or {agents}").format(
        levels=levels, agents=", ".join(_agents.AGENTS))


def _save(state: State, path: str) -> str:
    """Write ``state.to_dict()`` as JSON; the line that says so."""
    try:
        Path(path).write_text(json.dumps(state.to_dict(), ensure_ascii=False, indent=1) + "\n", "utf-8")
    except OSError as exc:
        raise CardlabError(_("{path}: cannot write the position file ({reason})")
                           .format(path=path, reason=_os_reason(exc))) from None
    return (_("position saved to {path} (solve it: cardlab solve {game} --position {path})")
            .format(path=path, game=state.game.name))


#: errors of the operating system a person may meet reading or writing a file (their
#: English is the C library's; shown translated when the catalogue has them, else as the OS says)
_OS_ERRORS = {errno.ENOENT: N_("No such file or directory"), errno.EACCES: N_("Permission denied"),
              errno.EISDIR: N_("Is a directory"), errno.ENOTDIR: N_("Not a directory"),
              errno.ENOSPC: N_("No space left on device"), errno.EROFS: N_("Read-only file system"),
              errno.ENAMETOOLONG: N_("File name too long")}
#: the messages of Python's JSON reader (json.JSONDecodeError.msg), the same way
_JSON_ERRORS = {m: m for m in (N_("Expecting value"), N_("Extra data"), N_("Expecting ',' delimiter"),
                               N_("Expecting ':' delimiter"), N_("Expecting property name enclosed in double quotes"),
                               N_("Unterminated string starting at"), N_("Invalid control character at"),
                               N_("Invalid \\escape"), N_("Illegal trailing comma before end of object"),
                               N_("Illegal trailing comma before end of array"))}

def _os_reason(exc: OSError) -> str:
    """Why a file could not be read or written, in the current language when the catalogue knows it."""
    return _translated(_OS_ERRORS.get(exc.errno), exc.strerror)


def _kind(value: Any) -> str:
    """What a JSON value is, in words (``list``, ``str``, ``null``: Python's names in English)."""
    name = "null" if value is None else type(value).__name__
    words = {"list": pgettext("JSON value", "list"), "str": pgettext("JSON value", "str"),
             "int": pgettext("JSON value", "int"), "float": pgettext("JSON value", "float"),
             "bool": pgettext("JSON value", "bool"), "dict": pgettext("JSON value", "dict"),
             "null": pgettext("JSON value", "null")}
    return words.get(name, name)


def _position(args: argparse.Namespace):
    where = args.position
    try:
        d = json.loads(Path(where).read_text("utf-8"))
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path, bytes that are not UTF-8
        why = (_os_reason(exc) if getattr(exc, "strerror", None) else None) or _("not a readable UTF-8 text file")
        if isinstance(exc, json.JSONDecodeError):
            why = _("not valid JSON (line {line}: {message})").format(
                line=exc.lineno, message=_translated(_JSON_ERRORS.get(exc.msg), exc.msg))
        raise CardlabError(_("{path}: cannot read the position file: {reason}").format(path=where, reason=why)) \
            from None
    except RecursionError:
        raise CardlabError(_("{path}: the JSON is nested too deeply to be a position").format(path=where)) from None
    if not isinstance(d, dict):
        raise CardlabError(_("{path}: a position file holds one JSON object (State.to_dict(), as cardlab deal "
                             "writes it), not {kind}").format(path=where, kind=_kind(d)))
    saved = d.get("options") or {}
    if not isinstance(saved, dict):
        raise CardlabError(_("{path}: 'options' must be a JSON object of the game's options, not {kind}")
                           .format(path=where, kind=_kind(saved)))
    opts = {**saved, **_options(args.option)}
    game = load(args.game, **opts)
    d = {**d, "options": game.options_dict()}
    return game.state_from_dict(d)


def cmd_games(args: argparse.Namespace) -> int:
    for name in games.names():
        cls = games.package(name).GAME
        print(f"{name:<15} {_(cls.title)}")
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
    ('  Player 1 is dealt a card. (KN-7)', '  [6] play magoi')
    """
    viewer = None if reveal else seat
    for before, action in moves:
        yield "  " + render.seen_move(before, action, viewer).line
    yield ""
    yield from render.text(state, perspective=viewer).splitlines()
    if state.is_terminal():
        yield _("game over; returns: {returns}").format(returns=", ".join(str(r) for r in state.returns()))
    elif state.current_player == seat:
        english = get_language() == "en"
        for i, a in enumerate(state.legal_actions()):
            label = a if english else render.action_label(state, a)  # the mover's own moves
            if label == a:
                yield f"  [{i}] {a}"
            else:
                yield "  " + pgettext("cli move list", "[{index}] {label} ({action})").format(
                    index=i, label=label, action=a)


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
        accepted = _("a number 0..{last} or a move ({moves})").format(last=len(legal) - 1, moves=", ".join(legal))
    else:
        shown = ", ".join(legal[:6])
        if len(legal) > 6:
            shown = _("{moves}, … ({count} in all, listed above)").format(moves=shown, count=len(legal))
        accepted = (_("type a number 0..{last} or a move ({moves}), or {commands}")
                    .format(last=len(legal) - 1, moves=shown, commands=commands))
    if _NUMBER.fullmatch(words):
        i = int(words)
        if 0 <= i < len(legal):
            return legal[i]
        raise CardlabError(_("there is no move number {number}: {accepted}").format(number=i, accepted=accepted))
    if words in legal:
        return words
    raise CardlabError(_("{move} is not a legal move here: {accepted}").format(move=repr(words), accepted=accepted))


#: the prompt of ``cardlab play`` (English; shown as ``_(PROMPT)``)
PROMPT = N_("your move (a number or a move; hint, undo, quit): ")


def cmd_play(args: argparse.Namespace) -> int:
    """The input loop of ``cardlab play``: what is shown comes from
    :func:`transcript` and :func:`hint`; bad input is refused with a line
    saying why and changes nothing."""
    game = load(args.game, **_options(args.option))
    n = game.spec.num_players
    seat = args.seat
    if not 0 <= seat < n:
        msg = (_("{game} has {count} players, so a seat is 0..{last}, not {seat}")
               .format(game=game.name, count=n, last=n - 1, seat=seat))
        if getattr(args, "parser", None) is None:
            raise CardlabError(_("argument {argument}: {message}").format(argument="--seat", message=msg))
        args.parser.error(_("argument {argument}: {message}").format(argument="--seat", message=msg))
        # (exits with argparse's usage line, status 2)
    # a Namespace built by hand may lack the newer options: their defaults then
    reveal = getattr(args, "reveal", False)
    limits = {"seconds": getattr(args, "hint_seconds", HINT_SECONDS),
              "max_arrangements": getattr(args, "hint_max_arrangements", None)}
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
            print(_(PROMPT), end="", flush=True)
            line = inp.readline()
            text = line.strip()
            if not inp.isatty():
                print(text)  # piped input is not echoed: show what was read
            if not line and inp.isatty():  # EOF (Ctrl-D) at the prompt: end its line, as a shell does
                print()
            if not line or text == "quit":
                return 0
            if not text:
                continue
            if text == "hint":
                print(_("thinking for up to {seconds:g} s… (Ctrl-C stops the hint with the answer so far)").format(
                    seconds=limits["seconds"]), flush=True)
                try:
                    print(hint(match.state, seat, reveal, **limits))
                except KeyboardInterrupt:  # before the analysis had any answer (after: it shows the answer so far)
                    print(_("hint stopped before it had an answer: ask again, or give a shorter --hint-seconds"))
            elif text.split()[0] == "save":
                path = text[4:].strip()
                if not reveal:
                    print(_("save writes the whole position, every hidden card too: only a teacher's game "
                            "(cardlab play --reveal) may save; or make the position with cardlab deal"))
                elif not path:
                    print(_("save needs a file name: save pos.json"))
                else:
                    try:
                        print(_save(match.state, path))
                    except CardlabError as exc:
                        print(exc)
            elif text == "undo":
                if any(m.player == seat for m in match.history):
                    match.undo(to_person=True)
                    shown = len(match.history)
                    print(_("taken back: your last move and every move after it"))
                    break
                print(_("nothing to undo: you have not moved yet"))
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
            raise CardlabError(_("--move {move} (move {number}): the game is already over")
                               .format(move=repr(text), number=i))
        try:
            match.play(parse_move(text, match.state.legal_actions(), commands=None))
        except CardlabError as exc:
            raise CardlabError(_("--move {move} (move {number}): {reason}")
                               .format(move=repr(text), number=i, reason=exc)) from None
        chance()
    print(render.text(match.state))
    print(_save(match.state, args.out))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .solve import analyse, solve

    s = _position(args)
    print(s)
    if not s.game.spec.perfect_information:
        raise CardlabError(_("{game} hides cards with these options, and solve needs every card seen: "
                             "add -o open_hands=true to solve the position with all cards open")
                           .format(game=s.game.name))
    try:
        print(solve(s, max_nodes=args.max_nodes, progress=True))
        if s.current_player >= 0:
            print(analyse(s, max_nodes=args.max_nodes, progress=False))
    except TooLargeError:  # an estimate instead (at a decision), or what to do
        print(estimate(s, getattr(args, "seconds", 5.0), args.max_nodes))
    return 0


def cmd_tree(args: argparse.Namespace) -> int:
    from .bridges.gambit import write_efg
    from .tree import tree, write_dot, write_graphml

    s = _position(args)
    try:  # Gambit's format is a tree: transpositions stay apart there
        G = tree(s, max_depth=args.max_depth, max_nodes=args.max_nodes,
                 merge_transpositions=not args.no_merge and args.format != "efg")
    except TooLargeError:
        depth = (_("--max-depth gives the first levels only in graphml or dot (Gambit's efg needs the whole tree)")
                 if args.format == "efg" else _("give --max-depth (for example --max-depth 3: the first levels only)"))
        raise CardlabError(_("the tree has more than --max-nodes {max_nodes} nodes: {depth}; start from a later "
                             "position (cardlab deal with more --move: fewer cards left), raise --max-nodes, or ask "
                             "cardlab solve for the value of each move (an estimate when it is too large to "
                             "solve)").format(max_nodes=args.max_nodes, depth=depth)) from None
    try:
        {"graphml": write_graphml, "dot": write_dot, "efg": write_efg}[args.format](G, args.out)
    except OSError as exc:
        raise CardlabError(_("{path}: cannot write the tree ({reason})").format(path=args.out, reason=_os_reason(exc))) \
            from None
    print(_("{nodes} nodes, {edges} edges → {path}").format(nodes=G.number_of_nodes(), edges=G.number_of_edges(),
                                                            path=args.out))
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
            raise CardlabError(_("--agents names {agents} agents but {game} has {count} players here: "
                                 "give one agent (it plays every seat) or {count}")
                               .format(agents=len(agents), game=game.name, count=n))
    names = agents * n if len(agents) == 1 else agents
    rng = make_rng(args.seed)
    wins = [0] * n
    draws = 0
    total = [0.0] * n
    try:
        from tqdm.auto import tqdm

        rounds = tqdm(range(args.n), desc=_("games"), unit=_(" games"))
    except ImportError:
        rounds = range(args.n)
    for _round in rounds:
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
    print(_("{n} games of {game}").format(n=args.n, game=repr(game)))
    for i in range(n):
        print(_("  seat {seat} ({agent}): wins {wins:.1%}, mean return {mean:+.3f}")
              .format(seat=i, agent=names[i], wins=wins[i] / args.n, mean=total[i] / args.n))
    print(_("  draws: {draws:.1%}").format(draws=draws / args.n))
    return 0


PLAY_DESCRIPTION = N_("""Play in the terminal against an agent.  You see what your seat may see:
each move as you may know it (a card drawn by the opponent reads "Player 1 draws a card"),
your view of the table, and on 'hint' the fair hint, computed only from
what you can see.  --reveal shows everything (for a teacher); there
'save FILE' writes the current position for cardlab solve and tree.""")


def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(_("must be a whole number of at least 1, not {value}").format(value=repr(text)))
    return value


def _language(text: str) -> str:
    """argparse type of ``--lang``: a language cardlab speaks (``ja``, ``ja_JP.UTF-8``: ``"ja"``)."""
    try:
        return check_language(text)
    except OptionError:
        raise argparse.ArgumentTypeError(
            _("unknown language {language}; cardlab speaks {accepted}").format(
                language=repr(text), accepted=", ".join(f"{k!r} ({v})" for k, v in LANGUAGES.items()))) from None


#: the first paragraph of this module's docstring: the description of ``cardlab --help``
DESCRIPTION = N_("The cardlab command line: games, play, deal, solve, tree, simulate.")

#: argparse's own texts that ``cardlab`` shows, each with cardlab's msgid for it (named
#: placeholders, as every cardlab text) and the %-specifiers argparse fills in its place
ARGPARSE_TEXTS: dict[str, tuple[str, dict[str, str]]] = {
    "usage: ": (N_("usage: "), {}),
    "positional arguments": (N_("positional arguments"), {}),
    "options": (N_("options"), {}),
    "show this help message and exit": (N_("show this help message and exit"), {}),
    "%(prog)s: error: %(message)s\n": (N_("{prog}: error: {message}\n"),
                                       {"prog": "%(prog)s", "message": "%(message)s"}),
    "argument %(argument_name)s: %(message)s": (N_("argument {argument}: {message}"),
                                                {"argument": "%(argument_name)s", "message": "%(message)s"}),
    "the following arguments are required: %s": (N_("the following arguments are required: {arguments}"),
                                                 {"arguments": "%s"}),
    "unrecognized arguments: %s": (N_("unrecognized arguments: {arguments}"), {"arguments": "%s"}),
    "invalid choice: %(value)r (choose from %(choices)s)": (
        N_("invalid choice: {value} (choose from {choices})"), {"value": "%(value)r", "choices": "%(choices)s"}),
    "invalid %(type)s value: %(value)r": (N_("invalid {type} value: {value}"),
                                          {"type": "%(type)s", "value": "%(value)r"}),
    "expected one argument": (N_("expected one argument"), {}),
    "expected at least one argument": (N_("expected at least one argument"), {}),
    "expected at most one argument": (N_("expected at most one argument"), {}),
    "ambiguous option: %(option)s could match %(matches)s": (
        N_("ambiguous option: {option} could match {matches}"), {"option": "%(option)s", "matches": "%(matches)s"}),
    "unknown parser %(parser_name)r (choices: %(choices)s)": (
        N_("unknown sub-command {name} (choices: {choices})"), {"name": "%(parser_name)r", "choices": "%(choices)s"}),
    "not allowed with argument %s": (N_("not allowed with argument {argument}"), {"argument": "%s"}),
    "ignored explicit argument %r": (N_("ignored explicit argument {value}"), {"value": "%r"}),
}


def _argparse_text(message: Any) -> Any:
    """argparse's ``_`` while cardlab speaks another language: its text from
    cardlab's catalogue (in argparse's %-form), or the text itself."""
    if not isinstance(message, str) or message not in ARGPARSE_TEXTS:
        return message
    msgid, specs = ARGPARSE_TEXTS[message]
    text = _(msgid)
    if specs:  # argparse fills it with %: a % of the translation itself is doubled
        text = text.replace("%", "%%")
    for name, spec in specs.items():
        text = text.replace("{" + name + "}", spec)
    return text


@contextlib.contextmanager
def _argparse_speaks(language: str) -> Iterator[None]:
    """While it lasts, argparse's texts (its module-level ``_``, which is
    :func:`gettext.gettext`) come from cardlab's catalogue in ``language``
    (the parser must be built inside: argparse translates its group titles
    then); English leaves argparse as it is."""
    if language == "en":
        yield
        return
    saved = argparse._
    argparse._ = _argparse_text
    try:
        yield
    finally:
        argparse._ = saved


def _peek_language(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` in ``argv`` (before ``--``), None when not given
    or not a language cardlab speaks (argparse then says so, in the
    environment's language)."""
    given = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            given = argv[i + 1]
        elif word.startswith("--lang="):
            given = word.partition("=")[2]
    if given is None:
        return None
    try:
        return check_language(given)
    except OptionError:
        return None


def _columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a Japanese character: two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


#: characters a line must not start with (Japanese line breaking, 禁則)
_NO_LINE_START = "、。，．）」』】〕・ー…:;,.)]"


def _wrap_wide(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces or
    between Japanese characters (a space between two Japanese characters
    was a line break of the source: it goes)."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "", text)
    tokens = re.findall(r"[\x21-\x7e]+| |[^\x00-\x7f]", text)  # an ASCII word, a space, a wide character
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if line and _columns(line + tok) > width and tok != " " and tok[0] not in _NO_LINE_START:
            lines.append(line.rstrip())
            line = ""
        if line or tok != " ":
            line += tok
    if line.strip():
        lines.append(line.rstrip())
    return lines


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, wrapping a text with Japanese in it by the
    columns it takes on a terminal (argparse counts characters; a Japanese
    one takes two columns).  Texts without wide characters: as argparse."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if _columns(text) == len(text):
            return super()._split_lines(text, width)
        return _wrap_wide(text, width)

    def _format_action(self, action: argparse.Action) -> str:
        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        extra = _columns(invocation) - len(invocation)  # argparse padded it by characters
        head, found, rest = text.partition(invocation)
        if extra and found and rest.startswith(" " * (extra + 2)):
            text = head + found + rest[extra:]
        return text

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if _columns(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in _wrap_wide(text, width - len(indent)))

#: the sub-commands kept in modules of their own, in the order of the help: each adds
#: its parsers with ``add(parser, add_parser)`` (``add_parser(name, help, description)``)
SUB_COMMANDS = (add_rooms_parser, add_tournament_parser, add_review_parser, add_design_parser, add_puzzle_parsers)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``cardlab``, its help in the current language (build it
    inside :func:`_argparse_speaks` for argparse's own texts too)."""
    parser = argparse.ArgumentParser(prog="cardlab", description=_(DESCRIPTION), formatter_class=_HelpFormatter)
    lang_help = _("the language of the help and of the output: en (English) or ja (日本語); "
                  "default: the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); before or after the sub-command")
    parser.add_argument("--lang", type=_language, default=None, metavar=_("LANG"), help=lang_help)
    # dest: the name argparse's errors give the sub-command ("argument command: invalid choice");
    # nothing reads it (each sub-command sets func)
    sub = parser.add_subparsers(dest=pgettext("argument", "command"), required=True)

    def add_parser(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=description, formatter_class=_HelpFormatter)
        # --lang after the sub-command too (SUPPRESS: it does not undo one given before; its help
        # is cardlab --help's)
        p.add_argument("--lang", type=_language, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return p

    add_parser("games", _("list the games")).set_defaults(func=cmd_games)

    def game_parser(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        p = add_parser(name, help, description or help)
        p.add_argument("game", metavar=pgettext("metavar", "game"))
        p.add_argument("-o", "--option", action="append", default=[], metavar=_("NAME=VALUE"))
        return p

    n = _("N")
    p = game_parser("play", _("play in the terminal against an agent"), _(PLAY_DESCRIPTION))
    p.add_argument("--seat", type=int, default=0, metavar=_("SEAT"),
                   help=_("your seat, 0 to the number of players - 1 (default 0)"))
    p.add_argument("--opponent", default="heuristic", choices=_agents.NAMES, help=_opponent_help())
    p.add_argument("--seed", type=int, metavar=_("SEED"),
                   help=_("decides the deal, every chance event and the agents' choices"))
    p.add_argument("--reveal", action="store_true",
                   help=_("for a teacher: show every card, every move in full and the open hint"))
    p.add_argument("--hint-seconds", type=seconds_arg, default=HINT_SECONDS, metavar=_("SECONDS"),
                   help=_("how long the hint thinks (default 2); Ctrl-C stops it with the answer so far"))
    p.add_argument("--hint-max-arrangements", type=_positive, default=None, metavar=n,
                   help=_("the fair hint lists up to N arrangements of the hidden cards, else draws them "
                          "(default: as many as its time could solve)"))
    for old in ("--hint-max-nodes", "--hint-samples"):  # old flags: accepted, ignored (the hint has a time budget)
        p.add_argument(old, type=_positive, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_play, input=None, parser=p)
    p = game_parser("deal", _("deal a game (as cardlab play with the same --seed), play some moves, "
                              "save the position for solve and tree"))
    p.add_argument("--seed", type=int, metavar=_("SEED"),
                   help=_("decides the deal and every chance event, as in cardlab play"))
    p.add_argument("--move", action="append", default=[], metavar=_("MOVE"),
                   help=_("a move to play, a number or the move's text, as cardlab play takes it; repeat it for "
                          "more moves (chance events between them come from --seed)"))
    p.add_argument("--out", required=True, metavar=_("OUT"), help=_("the JSON file to write (State.to_dict)"))
    p.set_defaults(func=cmd_deal)
    p = game_parser("solve", _("solve a position (JSON from State.to_dict) exactly"))
    p.add_argument("--position", required=True, metavar=_("POSITION"))
    p.add_argument("--max-nodes", type=_positive, default=DEFAULT_MAX_NODES, metavar=n,
                   help=_("stop after N positions (default {max_nodes:,}: about {size:.1g} GB of table)").format(
                       max_nodes=DEFAULT_MAX_NODES, size=DEFAULT_MAX_NODES * BYTES_PER_POSITION / 1e9))
    p.add_argument("--seconds", type=seconds_arg, default=5.0, metavar=_("SECONDS"),
                   help=_("past --max-nodes: an estimate of each move from this many seconds of search (default 5)"))
    p.set_defaults(func=cmd_solve)
    p = game_parser("tree", _("write the game tree of a position"))
    p.add_argument("--position", required=True, metavar=_("POSITION"))
    p.add_argument("--format", choices=("graphml", "dot", "efg"), default="graphml",
                   help=_("graphml (networkx, Gephi), dot (Graphviz) or efg (Gambit)"))
    p.add_argument("--out", required=True, metavar=_("OUT"))
    p.add_argument("--max-depth", type=_positive, metavar=n)
    p.add_argument("--max-nodes", type=_positive, default=100_000, metavar=n)
    p.add_argument("--no-merge", action="store_true", help=_("keep transpositions apart (a tree)"))
    p.set_defaults(func=cmd_tree)
    p = game_parser("simulate", _("play many games between agents"))
    p.add_argument("-n", type=_positive, default=100, metavar=n, help=_("the number of games (default 100)"))
    p.add_argument("--agents", nargs="+", choices=_agents.NAMES)
    p.add_argument("--seed", type=int, default=0, metavar=_("SEED"))
    p.set_defaults(func=cmd_simulate)
    for add in SUB_COMMANDS:
        add(parser, add_parser)
    return parser


#: the exit status when the reader of the output went away (``cardlab rooms | head``): 128 + SIGPIPE,
#: as a Unix tool killed by the signal reports it
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command: 0 when it worked, 2 with one line on stderr when the
    input was wrong, 130 (quietly) on Ctrl-C, 141 (quietly) when the output's
    reader closed the pipe (``cardlab games | head -1``).  Everything is said
    in the language of ``--lang`` (else the environment's), help included."""
    try:
        try:
            return _main(argv)
        finally:  # (also after --help's exit) a closed pipe shows here, not at exit after main returned
            sys.stdout.flush()
    except BrokenPipeError:
        # Python's documented way (library/signal.html, "Note on SIGPIPE"): the rest of the output
        # goes to devnull, so the flush at exit raises nothing either
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


def _main(argv: Sequence[str] | None) -> int:
    """:func:`main` but for a closed pipe."""
    argv = list(sys.argv[1:] if argv is None else argv)
    language = _peek_language(argv) or get_language()
    with using(language), _argparse_speaks(language):
        args = build_parser().parse_args(argv)
    language = args.lang or language  # the same, unless argparse read an abbreviated --lang
    with using(language), _argparse_speaks(language):  # argparse's too: play's --seat error uses it
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
