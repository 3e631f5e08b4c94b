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
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Callable

from . import games
from .core import CHANCE, State
from .display import (GAME_TITLES, RULE_ID_RE, Layout, check_perspective, game_title, generic_html, generic_text,
                      observation_text, public_action, rule_ids, visible)
from .i18n import _, pgettext

__all__ = [
    "text", "html", "action_label", "generic_html", "generic_text", "observation_text",
    "visible", "public_action", "seen_move", "SeenMove", "rule_ids", "check_perspective", "has_renderer", "RULE_ID_RE",
    "Layout", "layout", "move_html", "game_title", "GAME_TITLES",
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


def _render(name: str, fallback: Callable[..., str], state: State, perspective: int | None) -> str:
    check_perspective(state, perspective)
    return (_part(state.game.name, name) or fallback)(state, perspective=perspective)


def text(state: State, *, perspective: int | None = None) -> str:
    """The readable text board; ``perspective=p`` shows only what player
    ``p`` may see (``None``: everything, the same as ``str(state)``)."""
    return _render("text", generic_text, state, perspective)


def html(state: State, *, perspective: int | None = None) -> str:
    """An HTML picture of the state; ``perspective`` hides what that player
    cannot see (``None``: show everything)."""
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


def layout(state: State, *, perspective: int | None = None) -> Layout | None:
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
def _hidden_line(player: int, viewer: int | None, label: str | None, ids: list[str], kana: bool = False) -> str:
    """The line of a move ``viewer`` cannot see (``label``: what they may
    know of it, ``None``: nothing), citing the rule ids ``ids``.  ``kana``:
    in the simple kana words of a game written for children (Mazemon)."""
    rules = ", ".join(ids)
    if kana:
        if player == CHANCE:
            if label is None:
                text = (pgettext("mazemon", "A chance event hidden from player {viewer} ({rules}).") if ids
                        else pgettext("mazemon", "A chance event hidden from player {viewer}."))
            else:
                text = (pgettext("mazemon", "A chance event hidden from player {viewer}: {label} ({rules}).") if ids
                        else pgettext("mazemon", "A chance event hidden from player {viewer}: {label}."))
        elif label is None:
            text = (pgettext("mazemon", "Player {player}'s move hidden from player {viewer} ({rules}).") if ids
                    else pgettext("mazemon", "Player {player}'s move hidden from player {viewer}."))
        else:
            text = (pgettext("mazemon", "Player {player}'s move hidden from player {viewer}: {label} ({rules}).")
                    if ids else pgettext("mazemon", "Player {player}'s move hidden from player {viewer}: {label}."))
    elif player == CHANCE:
        if label is None:
            text = (_("A chance event hidden from player {viewer} ({rules}).") if ids
                    else _("A chance event hidden from player {viewer}."))
        else:
            text = (_("A chance event hidden from player {viewer}: {label} ({rules}).") if ids
                    else _("A chance event hidden from player {viewer}: {label}."))
    elif label is None:
        text = (_("Player {player}'s move hidden from player {viewer} ({rules}).") if ids
                else _("Player {player}'s move hidden from player {viewer}."))
    else:
        text = (_("Player {player}'s move hidden from player {viewer}: {label} ({rules}).") if ids
                else _("Player {player}'s move hidden from player {viewer}: {label}."))
    return text.format(player=player, viewer=viewer, label=label, rules=rules)


#: games whose Japanese texts are written in simple kana for children
_KANA_GAMES = frozenset({"mazemon"})


@dataclass(frozen=True)
class SeenMove:
    """One move as one viewer may know it; every text and picture of a move
    that a board, the command line or a page shows goes through
    :func:`seen_move`.

    ``action`` is the public form (:func:`public_action`), ``label`` its
    readable label for a move log (``"(hidden)"`` when nothing of it is
    known), ``line`` the explanation with its rule ids, ``picture`` the
    game's HTML picture of it (a battle) or ``""``.
    """

    player: int
    action: str
    hidden: bool
    label: str
    line: str
    picture: str


def seen_move(state: State, action: str, viewer: int | None, explanation: str | None = None) -> SeenMove:
    """The gate: what ``viewer`` (``None``: a teacher who sees everything)
    may read and see of ``action`` played in ``state``.  It is built only
    from the move's public form and the game's texts of public moves, so two
    positions and moves the viewer cannot tell apart give the same answer
    (the leak test of ``tests/test_fair_play.py`` checks it for every game).

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> seen_move(root, "deal aokoi", 1).line
    'A chance event hidden from player 1: deal 配る: ?? (KN-7).'
    """
    player = state.current_player
    public = public_action(state, action, viewer)
    if public == action:
        line = state.explain(action) if explanation is None else explanation
        return SeenMove(player, action, False, action_label(state, action), line, move_html(state, action)
                        if player >= 0 else "")
    known = None if public == "??" else action_label(state, public)
    # the rule ids of the move: a game cites the rules of a move by its public kind
    ids = rule_ids(state.explain(action) if explanation is None else explanation)
    kana = state.game.name in _KANA_GAMES
    line = _hidden_line(player, viewer, known, ids, kana)
    hidden = pgettext("mazemon", "(hidden)") if kana else _("(hidden)")
    label = hidden if known is None else known
    return SeenMove(player, public, True, label, line, "")
