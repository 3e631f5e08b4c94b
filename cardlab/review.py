"""The review of a finished game: every decision of every person, the fair
value of the move made and of the best move (from what that player could
see then), the loss and a mark.

>>> import cardlab
>>> m = cardlab.Match(cardlab.load("koinobori"), ["heuristic", "random"], seed=3)
>>> _ = m.play_to_end()
>>> r = cardlab.review(m, nodes=500)
>>> r.decisions[0].mark in MARKS
True

**What is reviewed.**  :func:`review` takes a :class:`cardlab.Match`, a
saved game (one entry of a class export's ``games.json``, or
:func:`record` of a match: the game, its options, the seed, who sat in
each seat and every move, chance included, as :func:`cardlab.rooms.replay`
plays them) or the file holding them.  It reviews the decisions of the
people: the seats the game says a person played (``None`` in a match's
players, ``"person"`` in a room), since a pupil reviewing a game against
an agent wants their own moves; where every seat was an agent, or the
record does not say, every seat.  ``seats=`` chooses others (``"all"``).

**Each decision.**  :func:`cardlab.analyse` of the position before the move
with ``player=`` the mover, within the budget (``nodes=``, default
:data:`NODES`, deterministic; or ``seconds=``): only what the mover could
see then, so a move is judged by what its player knew, not by the cards
that were hidden from them.  The loss is the best move's value minus the
made move's, as a share of the game's payoff range (in a win/lose game,
about the share of the winning chances given away).  A decision with one
legal move is marked "only move" and counts in no summary.

**The marks** (:data:`THRESHOLDS`, per game): best (the move the analysis
values highest), good, inaccuracy, mistake, blunder.  An estimate has a 95 %
interval; a move is marked by the loss it *surely* has: its loss minus the
noise of the two values (half the width of the 95 % interval of their
difference, :meth:`cardlab.Analysis.difference`: both moves are valued on
the same arrangements, so the difference is compared pair by pair).  So a
move whose loss is inside the noise is "good", never a mistake; exact values
(the endgame) have no noise.  The intervals count the sampling only: an
estimate values moves by random playouts (:mod:`cardlab.anytime`).

**Who may see it.**  The review shows every reviewed player's moves and
values, from each player's own information: after the game, when every
card may be shown, that tells nobody anything they may not know.  During
a game it would (the other player's values read their hand): :func:`review`
refuses an unfinished game unless ``unfinished=True`` (a teacher's page).
"""

from __future__ import annotations

import html
import io
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from . import render
from .agents import LEVELS, level_label
from .analysis import _pad, analyse
from .anytime import check_budget
from .core import CHANCE, State
from .errors import CardlabError
from .games import load
from .i18n import _, get_language, pgettext

__all__ = ["review", "Review", "Decision", "record", "read_games", "MARKS", "THRESHOLDS", "NODES",
           "ReviewError", "mark", "mark_word"]

#: the default budget of each decision's analysis (positions searched plus playout steps)
NODES = 20_000

#: the marks, best first; "only move" is a decision with one legal move
MARKS = ("best", "good", "inaccuracy", "mistake", "blunder")
ONLY_MOVE = "only move"

#: per game: the largest loss (a share of the payoff range, after the noise is
#: taken off) that is still good, an inaccuracy, a mistake; past the last, a blunder.
#:
#: Why these: a share of the range is, in these win/lose games, about the
#: share of the winning chances a move gives away (chess tools mark 10, 20,
#: 30 points of winning chance).  How much one move can give away differs
#: per game, so the steps were set from the losses measured in seeded games
#: (``analyse(nodes=5000)`` at every decision with more than one move, four
#: seeds, the random agent against the heuristic one and the club level
#: against random): "good" reaches about the loss the club level stays under
#: in 9 moves of 10, "blunder" starts near the random agent's 90th percentile.
#:
#: ==============  ======================  ==================  ===========
#: game            club: 75th / 90th pct.  heuristic: 75th     random: 90th
#: ==============  ======================  ==================  ===========
#: koinobori       0.00 / 0.04             0.10                0.25
#: mazemon         0.07 / 0.11             0.15                0.35
#: monster_cards   0.00 / 0.14             0.08                0.33
#: mipig           0.17 / 0.30             0.22                0.42
#: toritsuki       0.00 / 0.08             0.25                0.50
#: ==============  ======================  ==================  ===========
#:
#: mipig's losses are large for every player: its decisions are simultaneous
#: picks, each valued against the other player's best mix, and a pick
#: outside the mix loses at once; Toritsuki's are large for the weak agents
#: (a wrong attack loses a monster) and small for the club level.
THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "koinobori": (0.04, 0.10, 0.20),
    "mazemon": (0.05, 0.12, 0.25),
    "monster_cards": (0.05, 0.12, 0.25),
    "mipig": (0.08, 0.17, 0.30),
    "toritsuki": (0.05, 0.15, 0.30),
}
#: a game not in the table (a game of one's own)
DEFAULT_THRESHOLDS = (0.04, 0.10, 0.20)


def mark_word(word: str) -> str:
    """A mark as a person reads it, in the current language."""
    return {"best": pgettext("review mark", "best"), "good": pgettext("review mark", "good"),
            "inaccuracy": pgettext("review mark", "inaccuracy"), "mistake": pgettext("review mark", "mistake"),
            "blunder": pgettext("review mark", "blunder"), ONLY_MOVE: pgettext("review mark", "only move")}[word]


class ReviewError(CardlabError, ValueError):
    """A game that cannot be reviewed: a move that does not replay, a
    record that is not a game, an unfinished game."""


def mark(loss: float, noise: float, thresholds: Sequence[float], *, best: bool = False,
         forced: bool = False) -> str:
    """The mark of a move: ``"only move"`` when ``forced``, ``"best"`` when
    it is the best (or loses nothing), else by the loss it surely has,
    ``loss - noise``, against ``thresholds`` (good, inaccuracy, mistake).

    >>> mark(0.15, 0.0, (0.04, 0.10, 0.20)), mark(0.15, 0.12, (0.04, 0.10, 0.20))
    ('mistake', 'good')
    """
    if forced:
        return ONLY_MOVE
    if best or loss <= 0:
        return "best"
    sure = max(0.0, loss - noise)
    for word, limit in zip(("good", "inaccuracy", "mistake"), thresholds):
        if sure <= limit:
            return word
    return "blunder"


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: move ``number`` (1 = the first move of the
    game, chance included, as the move log counts), the ``player`` and
    their ``name``, the ``action`` made, its ``value`` and the ``best``
    action's (for the player, from what they could see), the ``loss`` and
    its ``noise`` (shares of the payoff range), the ``mark``; ``analysis``
    is the whole :class:`cardlab.Analysis` (``None`` for an only move)."""

    number: int
    player: int
    name: str
    action: str
    value: Any
    best: str
    best_value: Any
    loss: float
    noise: float
    mark: str
    exact: bool
    state: State = field(repr=False, compare=False)
    analysis: Any = field(default=None, repr=False, compare=False)


def _agent_label(name: str) -> str:
    """An agent's name as a page shows it (a level with its Japanese name)."""
    if name in LEVELS:
        return level_label(name)
    words = {"random": pgettext("seat", "random"), "heuristic": pgettext("seat", "heuristic"),
             "solver": pgettext("seat", "solver"), "mcts": pgettext("seat", "mcts")}
    return words.get(name, name)


def _names(seats: Sequence[str], room_name: str = "") -> list[str]:
    """A name a seat: the pupils' names from a room's name ("alice v bob", as
    :meth:`cardlab.rooms.RoomStore.pairings` names its rooms), an agent's
    label, else ``""`` (shown as "player i")."""
    parts = [p.strip() for p in room_name.split(" v ")] if room_name else []
    out = []
    for i, who in enumerate(seats):
        if who != "person":
            out.append(_agent_label(who))
        else:
            out.append(parts[i] if len(parts) == len(seats) else "")
    return out


def record(match: Any, names: Sequence[str] | None = None) -> dict[str, Any]:
    """A match as a saved game (the entry of a class export's ``games.json``:
    game, options, seed, seats, every move with chance's): ``json.dump`` it,
    and ``cardlab review FILE`` or :func:`review` reads it back."""
    seats = ["person" if p is None else p.name for p in match.players]
    rec = {"game": match.game.name, "options": match.game.options_dict(), "seed": None, "seats": seats,
           "moves": [m.action for m in match.history]}
    if names is not None:
        rec["name"] = " v ".join(names)
    return rec


def read_games(path: str | Path, room: str | None = None) -> dict[str, Any]:
    """The saved game in the JSON file ``path``: a game (a dict) or a class
    export (a list; ``room`` picks one, needed when it holds several)."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise ReviewError(_("{path}: cannot read the saved game ({reason})").format(
            path=path, reason=exc.strerror or exc)) from None
    except ValueError as exc:
        raise ReviewError(_("{path}: not a saved game: not valid JSON ({reason})").format(path=path, reason=exc)) \
            from None
    return pick_game(data, room, str(path))


def pick_game(data: Any, room: str | None, where: str = "") -> dict[str, Any]:
    """One game of ``data`` (a saved game, or a list of them: a class export)."""
    games = data if isinstance(data, list) else [data]
    if not games or not all(isinstance(g, dict) and "game" in g and "moves" in g for g in games):
        raise ReviewError(_("{path}: not a saved game: expected a JSON object with 'game' and 'moves' (or a "
                            "class export, a list of them)").format(path=where or "?"))
    ids = [str(g.get("room", "")) for g in games]
    if room is not None:
        if room not in ids:
            raise ReviewError(_("{path}: there is no room {room}; the rooms are: {rooms}").format(
                path=where or "?", room=repr(room), rooms=", ".join(i for i in ids if i) or _("none")))
        return games[ids.index(room)]
    if len(games) > 1:
        raise ReviewError(_("{path} holds {n} games: choose one with --room ({rooms})").format(
            path=where or "?", n=len(games), rooms=", ".join(ids)))
    return games[0]


def _legal_at(s: State) -> list[str]:
    return [a for a, _p in s.chance_outcomes()] if s.current_player == CHANCE else s.legal_actions()


def replay(rec: dict[str, Any]) -> tuple[list[State], list[str]]:
    """The positions of a saved game and its moves, each move checked; a move
    that does not replay raises :class:`ReviewError` naming it, its number
    and what was legal there."""
    moves = rec.get("moves")
    if not isinstance(moves, list) or not all(isinstance(a, str) for a in moves):
        raise ReviewError(_("a saved game's 'moves' is a list of moves (text), not {value}").format(
            value=repr(moves)[:60]))
    options = rec.get("options") or {}
    if not isinstance(options, dict):
        raise ReviewError(_("a saved game's 'options' is a JSON object, not {value}").format(value=repr(options)))
    s = load(str(rec["game"]), **options).new_initial_state()
    states = [s]
    for i, action in enumerate(moves, 1):
        if s.is_terminal():
            raise ReviewError(_("move {number} ({move}) does not replay: the game was already over").format(
                number=i, move=repr(action)))
        try:
            s = s.apply(action)
        except CardlabError as exc:
            legal = _legal_at(s)
            shown = ", ".join(legal[:12]) + (", …" if len(legal) > 12 else "")
            raise ReviewError(_("move {number} ({move}) does not replay: {reason}; legal there: {legal}").format(
                number=i, move=repr(action), reason=str(exc).splitlines()[0], legal=shown)) from None
        states.append(s)
    return states, list(moves)


def _source(game: Any, room: str | None) -> tuple[list[State], list[str], list[str], list[str]]:
    """States, moves, who sat in each seat and the seats' names of a match,
    a saved game or a file."""
    if isinstance(game, (str, Path)):
        game = read_games(game, room)
    elif isinstance(game, list):
        game = pick_game(game, room)
    if isinstance(game, dict):
        states, moves = replay(game)
        n = states[0].game.spec.num_players
        seats = game.get("seats")
        if not (isinstance(seats, list) and len(seats) == n and all(isinstance(x, str) for x in seats)):
            seats = ["?"] * n  # not said: every seat is reviewed
        return states, moves, list(seats), _names(seats, str(game.get("name") or ""))
    if hasattr(game, "history") and hasattr(game, "states"):
        seats = ["person" if p is None else p.name for p in game.players]
        return list(game.states), [m.action for m in game.history], seats, _names(seats)
    raise TypeError(f"review() takes a cardlab.Match, a saved game (dict), a class export (list) or a file, "
                    f"not {type(game).__name__}")


def _reviewed_seats(seats: Sequence[str], chosen: Any) -> list[int]:
    n = len(seats)
    if chosen == "all":
        return list(range(n))
    if chosen is not None:
        out = sorted({int(x) for x in chosen})
        if not all(0 <= x < n for x in out):
            raise ReviewError(_("seats are 0..{last}, not {seats}").format(last=n - 1, seats=list(chosen)))
        return out
    persons = [i for i, who in enumerate(seats) if who == "person"]
    return persons or list(range(n))


def review(game: Any, *, nodes: int | None = None, seconds: float | None = None, seats: Any = None,
           room: str | None = None, names: Sequence[str] | None = None, unfinished: bool = False,
           callback: Callable[[int, int], None] | None = None) -> "Review":
    """The :class:`Review` of a finished game (see the module doc): ``game``
    is a :class:`cardlab.Match`, a saved game (a dict: :func:`record`, an
    entry of a class export), a class export (a list; ``room="R1"``) or a
    JSON file of either.  ``nodes`` (default :data:`NODES`) or ``seconds``:
    the budget of each decision's analysis.  ``seats``: ``None`` (the
    people's, else all), ``"all"`` or a list.  ``names``: a name a seat.
    ``callback(done, total)``: after each decision.  Ctrl-C stops it with
    the decisions reviewed so far (``review.stopped``).

    It shows every reviewed player's moves and what each could see: fine
    after the game; an unfinished game is refused unless ``unfinished=True``.
    Raises :class:`ReviewError` for a move that does not replay (naming it,
    its number and what was legal there), :class:`cardlab.BudgetError` for
    a bad budget; nothing changes then."""
    check_budget(seconds, nodes)
    if nodes is None and seconds is None:
        nodes = NODES
    states, moves, who, seat_names = _source(game, room)
    if names is not None:
        seat_names = [str(x) for x in names] + seat_names[len(names):]
    final = states[len(moves)]
    if not final.is_terminal() and not unfinished:
        raise ReviewError(_("the game is not over (move {number} is next): a review shows every player's moves "
                            "and what they could see, so it is for a finished game (unfinished=True for a "
                            "teacher)").format(number=len(moves) + 1))
    chosen = _reviewed_seats(who, seats)
    todo = [i for i, (s, _a) in enumerate(zip(states, moves)) if s.current_player in chosen]
    out = Review(final.game, seat_names, chosen, final, nodes=nodes, seconds=seconds)
    try:
        for k, i in enumerate(todo):
            d = _decision(states[i], moves[i], i + 1, seat_names, nodes, seconds)
            out.decisions.append(d)
            if callback is not None:
                callback(k + 1, len(todo))
            if d.analysis is not None and d.analysis.stopped:
                out.stopped = True
                break
    except KeyboardInterrupt:
        out.stopped = True
    out.total = len(todo)
    out.length = len(moves)
    return out


def _decision(s: State, action: str, number: int, names: Sequence[str], nodes: int | None,
              seconds: float | None) -> Decision:
    """The review of one move: the analysis of the position before it, for its mover."""
    p = s.current_player
    spec = s.game.spec
    span = float(spec.max_utility - spec.min_utility) or 1.0
    name = names[p] if p < len(names) else ""
    if len(s.legal_actions()) == 1:
        return Decision(number, p, name, action, None, action, None, 0.0, 0.0, ONLY_MOVE, True, s)
    a = analyse(s, player=p, nodes=nodes, seconds=seconds)
    rows = {r["action"]: r for r in a.rows}
    made = rows[action]
    top = max(a.rows, key=lambda r: (r["best"], r["action"] == action, r["value"]))
    if made["best"]:
        top = made
    loss = float(top["value"] - made["value"]) / span
    noise = 0.0
    if not a.exact and top is not made:  # the two moves compared on the same arrangements
        noise = a.difference(top["action"], action)[1] / span
    word = mark(loss, noise, THRESHOLDS.get(s.game.name, DEFAULT_THRESHOLDS), best=bool(made["best"]))
    return Decision(number, p, name, action, made["value"], top["action"], top["value"], loss, noise, word,
                    a.exact, s, a)


def _num(v: Any, exact: bool) -> str:
    """A value as the table shows it (≈: an estimate)."""
    return "—" if v is None else f"{float(v):+.3f}" + ("" if exact else "≈")


class Review:
    """The review of a game: :attr:`decisions` (a :class:`Decision` each),
    :meth:`summary` a player; printing gives a text table, a notebook an
    HTML one; :meth:`plot` (matplotlib) and :meth:`png` draw each player's
    expected result over the game."""

    def __init__(self, game: Any, names: Sequence[str], seats: Sequence[int], final: State, *,
                 nodes: int | None, seconds: float | None) -> None:
        self.game = game
        self.names = list(names)
        self.seats = list(seats)
        self.final = final
        self.nodes, self.seconds = nodes, seconds
        self.decisions: list[Decision] = []
        self.stopped = False
        self.total = 0
        #: how many moves the game had (chance's too)
        self.length = 0
        self.thresholds = THRESHOLDS.get(game.name, DEFAULT_THRESHOLDS)

    mark_word = staticmethod(mark_word)

    def who(self, player: int) -> str:
        """A player as the review names them: "P0 alice", or "P0"."""
        name = self.names[player] if player < len(self.names) else ""
        return f"P{player} {name}" if name else f"P{player}"

    def summary(self) -> dict[int, dict[str, Any]]:
        """A reviewed player: how many moves of each mark, and the mean loss
        (over the decisions with more than one legal move)."""
        out = {}
        for p in self.seats:
            ds = [d for d in self.decisions if d.player == p and d.mark != ONLY_MOVE]
            counts = {m: sum(d.mark == m for d in ds) for m in MARKS}
            out[p] = {"counts": counts, "decisions": len(ds),
                      "mean_loss": sum(d.loss for d in ds) / len(ds) if ds else 0.0}
        return out

    @property
    def over(self) -> bool:
        return self.final.is_terminal()

    def _label(self, d: Decision, action: str) -> str:
        return action if get_language() == "en" else render.action_label(d.state, action)

    def _budget(self) -> str:
        if self.seconds is not None:
            return _("{seconds:g} s a decision").format(seconds=self.seconds)
        return _("{nodes:,} positions a decision").format(nodes=self.nodes)

    def title(self) -> str:
        """One line: the game, the result, what the values are."""
        game = _(self.game.title) if getattr(self.game, "title", "") else self.game.name
        result = (_("result: {returns}").format(returns=", ".join(f"{float(x):+g}" for x in self.final.returns()))
                  if self.over else _("not over"))
        return _("Review of {game} ({result}): each value is the player's expected result from what they could "
                 "see then ({budget})").format(game=game, result=result, budget=self._budget())

    def rows(self) -> list[list[str]]:
        """The table's rows, as text: number, player, move, value, best move, value, loss, mark."""
        out = []
        for d in self.decisions:
            loss = "—" if d.mark == ONLY_MOVE else f"{d.loss:.0%}"
            if d.noise and d.mark != ONLY_MOVE:
                loss += f" ±{d.noise:.0%}"
            out.append([str(d.number), self.who(d.player), self._label(d, d.action), _num(d.value, d.exact),
                        self._label(d, d.best), _num(d.best_value, d.exact), loss, mark_word(d.mark)])
        return out

    @staticmethod
    def headings() -> list[str]:
        return [pgettext("review", "move"), pgettext("review", "player"), pgettext("review", "played"),
                pgettext("review", "value"), pgettext("review", "best move"), pgettext("review", "value"),
                pgettext("review", "loss"), pgettext("review", "mark")]

    def summary_lines(self) -> list[str]:
        lines = []
        for p, s in self.summary().items():
            counts = ", ".join(f"{mark_word(m)} {s['counts'][m]}" for m in MARKS)
            lines.append(_("{player}: {counts}; mean loss {loss:.1%} over {n} decisions").format(
                player=self.who(p), counts=counts, loss=s["mean_loss"], n=s["decisions"]))
        return lines

    def notes(self) -> list[str]:
        """What the marks mean, and whether the review is whole."""
        good, inacc, mistake = self.thresholds
        lines = [_("loss: a share of the payoff range (≈: an estimate, ± its noise; a move is marked by the loss "
                   "it surely has). Marks: good ≤ {good:.0%}, inaccuracy ≤ {inaccuracy:.0%}, mistake ≤ "
                   "{mistake:.0%}, blunder above.").format(good=good, inaccuracy=inacc, mistake=mistake)]
        if self.stopped:
            lines.append(_("stopped: {done} of {total} decisions reviewed").format(
                done=len(self.decisions), total=self.total))
        return lines

    def __str__(self) -> str:
        head, rows = self.headings(), self.rows()
        widths = [max([_cols(h)] + [_cols(r[i]) for r in rows]) for i, h in enumerate(head)]
        right = {0, 3, 5, 6}

        def line(cells: Sequence[str]) -> str:
            return "  ".join(_pad(c, w, right=i in right) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

        return "\n".join([self.title(), line(head)] + [line(r) for r in rows] + [""] + self.summary_lines()
                         + self.notes())

    def __repr__(self) -> str:
        return f"<Review of {self.game.name}: {len(self.decisions)} decisions, seats {self.seats}>"

    def _repr_html_(self) -> str:
        esc = html.escape
        colours = {"inaccuracy": "#fff3c4", "mistake": "#ffd8a8", "blunder": "#ffb3b3", "best": "#d8f5d0"}
        body = "".join(
            f'<tr style="background:{colours.get(d.mark, "transparent")}">'
            + "".join(f"<td>{esc(c)}</td>" for c in r) + "</tr>" for d, r in zip(self.decisions, self.rows()))
        head = "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in self.headings()) + "</tr>"
        return (f"<div class='cardlab-review'><table><caption>{esc(self.title())}</caption>{head}{body}</table>"
                + "".join(f"<div>{esc(x)}</div>" for x in self.summary_lines() + self.notes()) + "</div>")

    def plot(self, ax: Any = None) -> Any:
        """A matplotlib figure: each reviewed player's expected result (the
        value of the move they made, from what they could see) at each of
        their decisions, and the result at the end; inaccuracies, mistakes
        and blunders marked.  Needs matplotlib (imported here only)."""
        from .review_plot import plot

        return plot(self, ax)

    def png(self, dpi: int = 96) -> bytes:
        """:meth:`plot` as PNG bytes (a page's picture)."""
        fig = self.plot()
        out = io.BytesIO()
        fig.savefig(out, format="png", dpi=dpi, metadata={"Software": None})
        return out.getvalue()


def _cols(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
