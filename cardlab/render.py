"""Pure display functions, dispatched to each game's ``render`` module: a
state to text or HTML, seen by one player or by everybody, and the gate
(:func:`seen_move`) that every text and picture of a move shown to a viewer
passes through.  Rules never import this; ``State._repr_html_`` does, lazily.

A game's package may carry a ``render`` module (:mod:`cardlab.games.mipig.render`)
defining any of ``html(state, *, perspective)``, ``text(state, *,
perspective)``, ``action_label(action[, state])``, ``layout(state, *,
perspective)`` and ``move_html(state, action)``; what it leaves out falls
back to the generic renderings of :mod:`cardlab.display` (its text board, or
the observation of one player, which by the game protocol holds only what
that player may see).  The pieces the games' renderers share live in
:mod:`cardlab.display`, below them; this module is above them.

>>> import cardlab
>>> s = cardlab.load("koinobori").new_initial_state(seed=1)
>>> print(text(s, perspective=1).splitlines()[0])
Koi-koi Nobori (こいこいのぼり) · player 0 to move (turn) · as seen by player 1

Besides the seats, one more viewer: :data:`SPECTATOR`, the class in front
of a projector, sees only what every seat sees (no hand, no face-down card,
not the deck's order); every function here takes it as a perspective or
viewer, and the games draw it from what their seats' views have in common
(:func:`cardlab.display.public_view`).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Callable

from . import games
from .core import CHANCE, State
from .display import (GAME_TITLES, RULE_ID_RE, SPECTATOR, Layout, check_perspective, game_title, generic_html,
                      generic_text, observation_text, public_action, rule_ids, split_rules, visible)
from .i18n import _

__all__ = [
    "text", "html", "action_label", "generic_html", "generic_text", "observation_text",
    "visible", "public_action", "seen_move", "SeenMove", "rule_ids", "check_perspective", "has_renderer", "RULE_ID_RE",
    "Layout", "layout", "move_html", "game_title", "GAME_TITLES", "hidden_sentence", "with_rules", "split_rules",
    "SPECTATOR",
]


def _renderer(game_name: str) -> ModuleType | None:
    """The ``render`` module of a game of the catalogue (``None``: none)."""
    package = games.CATALOGUE.get(game_name)
    return getattr(package, "render", None)


def _part(game_name: str, name: str) -> Callable[..., Any] | None:
    return getattr(_renderer(game_name), name, None)


def has_renderer(game_name: str) -> bool:
    """Whether the game draws itself as HTML (else the generic rendering)."""
    return _part(game_name, "html") is not None


def _render(name: str, fallback: Callable[..., str], state: State, perspective: int | str | None) -> str:
    check_perspective(state, perspective)
    return (_part(state.game.name, name) or fallback)(state, perspective=perspective)


def text(state: State, *, perspective: int | str | None = None) -> str:
    """The readable text board; ``perspective=p`` shows only what player
    ``p`` may see (``None``: everything, the same as ``str(state)``;
    :data:`SPECTATOR`: what every player sees)."""
    return _render("text", generic_text, state, perspective)


def html(state: State, *, perspective: int | str | None = None) -> str:
    """An HTML picture of the state; ``perspective`` hides what that player
    cannot see (``None``: show everything; :data:`SPECTATOR`: what any
    player keeps hidden is hidden)."""
    return _render("html", generic_html, state, perspective)


def action_label(state_or_game_name: State | str, action: str) -> str:
    """A readable button label for ``action`` (the action itself when the game
    has no labels).  Given the state the action is played in, a label can
    name a card as the card itself reads, not by its id."""
    if isinstance(state_or_game_name, str):
        name, state = state_or_game_name, None
    else:
        name, state = state_or_game_name.game.name, state_or_game_name
    fn = _part(name, "action_label")
    if fn is None:
        return action
    takes_state = len(inspect.signature(fn).parameters) > 1
    return fn(action, state) if state is not None and takes_state else fn(action)


def layout(state: State, *, perspective: int | str | None = None) -> Layout | None:
    """The game's interactive :class:`Layout` of ``state`` as seen by
    ``perspective``, or ``None`` when the game has none.  The hand
    to pick from and the paths of the moves are those of the player to
    move, so a view of another seat gets neither."""
    check_perspective(state, perspective)
    fn = _part(state.game.name, "layout")
    if fn is None:
        return None
    lay = fn(state, perspective=perspective)
    if perspective is not None and perspective != state.current_player:
        # the hand to pick from and the moves belong to the player to move only
        lay = replace(lay, items={}, items_title="", paths={}, prompts=(), labels=())
    return lay


def move_html(state: State, action: str) -> str:
    """A picture of what ``action`` does in ``state`` (``""`` when the game
    draws none).  It may show what the action reveals: call it only for a
    viewer who may see the move (:func:`visible`)."""
    fn = _part(state.game.name, "move_html")
    return fn(state, action) if fn is not None else ""


# -- what a viewer may read of a move: the one gate ----------------------------
def _text_module(game_name: str) -> ModuleType | None:
    """The ``text`` module of a game of the catalogue (its words), if any."""
    return getattr(games.CATALOGUE.get(game_name), "text", None)


def hidden_sentence(state: State, public: str, viewer: int | str) -> str:
    """What ``viewer`` reads of a move they do not fully see, whose public
    form is ``public`` (``"deal ??"``): what happened, in plain words
    ("Player 1 is dealt a card."), from the game's ``text.hidden_text(state,
    public, viewer)``, which may use only what the viewer sees; a game
    without one gets a plain sentence of its own.  Never the developer's
    ``??`` (``docs/texts.md``).  The class (:data:`SPECTATOR`: through
    :func:`seen_move`, a seat who knows as little) reads a plain sentence."""
    if viewer == SPECTATOR:
        player = state.current_player
        return (_("Something happens that the class does not see.") if player == CHANCE
                else _("Player {player} makes a move that the class does not see.").format(player=player))
    fn = getattr(_text_module(state.game.name), "hidden_text", None)
    sentence = fn(state, public, viewer) if fn is not None else None
    if sentence:
        return sentence
    player = state.current_player
    if public == "??":
        return (_("Something happens that player {viewer} does not see.") if player == CHANCE
                else _("Player {player} makes a move that player {viewer} does not see.")).format(
            player=player, viewer=viewer)
    move = action_label(state, public).replace("??", _("a card"))
    return (_("{move}, unseen by player {viewer}.") if player == CHANCE
            else _("Player {player}: {move}, unseen by player {viewer}.")).format(
        player=player, move=move, viewer=viewer)


def _reader(state: State, action: str, public: str, viewer: int | str) -> int | str:
    """Whose words a viewer reads of a move they do not fully see: their
    own; the class (:data:`SPECTATOR`) reads those of a seat who knows no
    more of it than the class (the seat not dealt the card, not the mover),
    and its own plain sentence when no seat knows as little."""
    if viewer != SPECTATOR:
        return viewer
    seats = [p for p in range(state.game.spec.num_players) if public_action(state, action, p) == public]
    return seats[0] if seats else SPECTATOR


def with_rules(sentence: str, ids: tuple[str, ...]) -> str:
    """A sentence with the rule ids it cites after it (a line of the command line).

    >>> with_rules("Player 1 draws a card.", ("KN-8",))
    'Player 1 draws a card. (KN-8)'
    """
    return _("{sentence} ({rules})").format(sentence=sentence, rules=", ".join(ids)) if ids else sentence


@dataclass(frozen=True)
class SeenMove:
    """One move as one viewer may know it; every text and picture of a move
    that a board, the command line or a page shows goes through
    :func:`seen_move`.

    ``action`` is the public form (:func:`public_action`; ``??`` for what
    the viewer cannot know: notation, never shown as words), ``label`` its
    readable label for a move log (for a hidden move, what happened in
    plain words: "Player 1 is dealt a card"), ``line`` the explanation with
    its rule ids after it, ``picture`` the game's HTML picture of it (a
    battle) or ``""``; ``sentence`` is ``line`` without the rule ids and
    ``rules`` the ids (a page shows them small, after the sentence).
    """

    player: int
    action: str
    hidden: bool
    label: str
    line: str
    picture: str
    sentence: str = ""
    rules: tuple[str, ...] = ()


def seen_move(state: State, action: str, viewer: int | str | None, explanation: str | None = None) -> SeenMove:
    """The gate: what ``viewer`` (``None``: a teacher who sees everything;
    :data:`SPECTATOR`: the class, who sees what every seat sees) may read
    and see of ``action`` played in ``state``.  It is built only
    from the move's public form and the game's texts of public moves, so two
    positions and moves the viewer cannot tell apart give the same answer
    (the leak test of ``tests/test_fair_play.py`` checks it for every game).

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> seen_move(root, "deal aokoi", 1).line
    'Player 0 is dealt a card. (KN-7)'
    >>> seen_move(root, "deal aokoi", 0).line
    'Player 0 is dealt an aokoi. (KN-7)'
    >>> seen_move(root, "deal aokoi", SPECTATOR).line
    'Player 0 is dealt a card. (KN-7)'
    """
    player = state.current_player
    public = public_action(state, action, viewer)
    explained = state.explain(action) if explanation is None else explanation
    if public == action:
        sentence, ids = split_rules(explained)
        return SeenMove(player, action, False, action_label(state, action), with_rules(sentence, ids),
                        move_html(state, action) if player >= 0 else "", sentence, ids)
    # the rule ids of the move: a game cites the rules of a move by its public kind
    ids = tuple(dict.fromkeys(rule_ids(explained)))
    sentence = hidden_sentence(state, public, _reader(state, action, public, viewer))  # type: ignore[arg-type]
    return SeenMove(player, public, True, sentence.rstrip(".。"), with_rules(sentence, ids), "", sentence, ids)
