"""Pure display functions: a state to text or HTML, seen by one player or by
everybody.  Rules never import this; ``State._repr_html_`` does, lazily.

A game may register richer renderers (:func:`register_html`,
:func:`register_text`) and readable action labels
(:func:`register_action_label`); the built-in ones live in
:mod:`cardlab.renderers` and are loaded on first use.  A game without them
still renders: as its text board (everything shown) or as the observation of
one player (``perspective=p``), which by the game protocol holds only what
that player may see.

Everything here is a pure function of its arguments: the same state gives the
same text, so notebook outputs stay deterministic.

>>> import cardlab
>>> s = cardlab.load("koinobori").new_initial_state(seed=1)
>>> print(generic_text(s, perspective=1).splitlines()[0])
Koi-koi Nobori (こいこいのぼり) · player 0 to move · as seen by player 1
"""

from __future__ import annotations

import html as _html
import importlib
import inspect
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .core import CHANCE, TERMINAL, State
from .i18n import N_, _, pgettext

__all__ = [
    "text", "html", "register_html", "register_text", "register_action_label",
    "action_label", "generic_html", "generic_text", "observation_text",
    "visible", "public_action", "seen_move", "SeenMove", "rule_ids", "check_perspective", "has_renderer", "RULE_ID_RE",
    "Layout", "register_layout", "layout", "register_move_html", "move_html", "game_title", "GAME_TITLES",
]

_HTML: dict[str, Callable[..., str]] = {}
_TEXT: dict[str, Callable[..., str]] = {}
_LABEL: dict[str, Callable[..., str]] = {}
_LABEL_TAKES_STATE: dict[str, bool] = {}
_LAYOUT: dict[str, Callable[..., "Layout"]] = {}
_MOVE_HTML: dict[str, Callable[[State, str], str]] = {}
_loaded = False

#: a rule id of the digests: ``KN-8``, ``MZ-Q3``
RULE_ID_RE = re.compile(r"\b[A-Z]{2}-Q?\d+\b")

#: the games' titles (``Game.title``, English with the Japanese beside it), for
#: the catalogue: a page shows ``_(title)``, the Japanese title alone in Japanese
GAME_TITLES = (
    N_("Koi-koi Nobori (こいこいのぼり)"),
    N_("Mazemon (マゼモン)"),
    N_("mipig trading cards (mipigトレーディングカード)"),
    N_("MONSTER CARDS (モンスターカード)"),
    N_("Toritsuki card battle (とりつきカードバトル)"),
)


def game_title(game: Any) -> str:
    """The title of ``game`` (a :class:`~cardlab.Game`) in the current
    language (its name when it has no title)."""
    return _(game.title) if game.title else game.name


def _load_builtin() -> None:
    """Import :mod:`cardlab.renderers` once (it registers the built-in renderers)."""
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("cardlab.renderers")


def register_html(game_name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Decorator: ``fn(state, *, perspective=None) -> str`` renders that game as HTML."""
    def deco(fn: Callable[..., str]) -> Callable[..., str]:
        _HTML[game_name] = fn
        return fn
    return deco


def register_text(game_name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Decorator: ``fn(state, *, perspective=None) -> str`` renders that game as text."""
    def deco(fn: Callable[..., str]) -> Callable[..., str]:
        _TEXT[game_name] = fn
        return fn
    return deco


def register_action_label(game_name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Decorator: ``fn(action, state=None) -> str``, a readable label for a
    button (with the Japanese term beside the English one).  ``state`` is the
    position the action is played in, when known: a label can then name a
    card as the card itself reads, not by its id."""
    def deco(fn: Callable[..., str]) -> Callable[..., str]:
        _LABEL[game_name] = fn
        _LABEL_TAKES_STATE[game_name] = len(inspect.signature(fn).parameters) > 1
        return fn
    return deco


def register_layout(game_name: str) -> Callable[[Callable[..., "Layout"]], Callable[..., "Layout"]]:
    """Decorator: ``fn(state, *, perspective=None) -> Layout``, the table of
    that game as HTML around a grid of squares, with the legal actions of the
    player to move as paths of picks (see :class:`Layout`)."""
    def deco(fn: Callable[..., Layout]) -> Callable[..., Layout]:
        _LAYOUT[game_name] = fn
        return fn
    return deco


def register_move_html(game_name: str) -> Callable[[Callable[[State, str], str]], Callable[[State, str], str]]:
    """Decorator: ``fn(state, action) -> str``, a picture of what ``action``
    does in ``state`` (a battle, say), or ``""`` when there is none."""
    def deco(fn: Callable[[State, str], str]) -> Callable[[State, str], str]:
        _MOVE_HTML[game_name] = fn
        return fn
    return deco


def check_perspective(state: State, perspective: int | None) -> int | None:
    """Return ``perspective`` if it is ``None`` or a seat of the game, else
    raise ``ValueError`` naming what is accepted."""
    n = state.game.spec.num_players
    if perspective is None or (isinstance(perspective, int) and not isinstance(perspective, bool)
                               and 0 <= perspective < n):
        return perspective
    raise ValueError(_("perspective must be None (show everything) or a player 0..{last}, not {perspective}").format(
        last=n - 1, perspective=repr(perspective)))


def has_renderer(game_name: str) -> bool:
    """Whether a game-specific HTML renderer is registered for ``game_name``."""
    _load_builtin()
    return game_name in _HTML


def _render(table: dict[str, Callable[..., str]], fallback: Callable[..., str],
            state: State, perspective: int | None) -> str:
    check_perspective(state, perspective)
    _load_builtin()
    return table.get(state.game.name, fallback)(state, perspective=perspective)


def text(state: State, *, perspective: int | None = None) -> str:
    """The readable text board; ``perspective=p`` shows only what player
    ``p`` may see (``None``: everything, the same as ``str(state)``)."""
    return _render(_TEXT, generic_text, state, perspective)


def html(state: State, *, perspective: int | None = None) -> str:
    """An HTML picture of the state; ``perspective`` hides what that player
    cannot see (``None``: show everything)."""
    return _render(_HTML, generic_html, state, perspective)


def action_label(state_or_game_name: State | str, action: str) -> str:
    """A readable button label for ``action`` (the action itself when the game
    registered no labels)."""
    _load_builtin()
    if isinstance(state_or_game_name, str):
        name, state = state_or_game_name, None
    else:
        name, state = state_or_game_name.game.name, state_or_game_name
    fn = _LABEL.get(name)
    if fn is None:
        return action
    return fn(action, state) if state is not None and _LABEL_TAKES_STATE[name] else fn(action)


# -- interactive layouts: a grid of squares and moves made of picks ----------
@dataclass(frozen=True)
class Layout:
    """A table as HTML around a grid of squares, and the legal actions of
    the player to move as *paths of picks*: pure data that a board turns into
    clickable squares (``cardlab.widgets.Board``).

    A pick is ``"sq:x,y"`` (a square of the grid) or ``"item:key"`` (one of
    ``items``, e.g. a card of the hand).  ``paths`` maps an action to its
    picks in order (``"place p07 -1,0"`` → ``("item:p07", "sq:-1,0")``);
    actions without a path stay ordinary buttons.  ``prompts[i]`` says what
    the ``i``-th pick chooses, ``labels[i]`` is the text of its buttons.
    ``squares`` maps every square of the grid (x to the right, y downwards)
    to the HTML drawn on it (``""``: an empty square); only what
    ``perspective`` may see is drawn there, as in :func:`html`.
    """

    above: str
    below: str
    squares: dict[tuple[int, int], str]
    grid_title: str = ""
    items: dict[str, str] = field(default_factory=dict)
    items_title: str = ""
    paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    prompts: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()

    def bounds(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)``, the corners of the grid (all 0 when it is empty)."""
        if not self.squares:
            return 0, 0, 0, 0
        xs = [x for x, _ in self.squares]
        ys = [y for _, y in self.squares]
        return min(xs), min(ys), max(xs), max(ys)

    def offered(self, picks: tuple[str, ...] = ()) -> dict[str, list[str]]:
        """The next picks after ``picks``, each with the actions it still
        leads to.

        >>> lay = Layout("", "", {}, paths={"a": ("item:x", "sq:0,0"), "b": ("item:x", "sq:1,0")})
        >>> lay.offered(), lay.offered(("item:x",))
        ({'item:x': ['a', 'b']}, {'sq:0,0': ['a'], 'sq:1,0': ['b']})
        """
        out: dict[str, list[str]] = {}
        n = len(picks)
        for action, path in self.paths.items():
            if len(path) > n and path[:n] == picks:
                out.setdefault(path[n], []).append(action)
        return out

    def action_of(self, picks: tuple[str, ...]) -> str | None:
        """The action whose path is exactly ``picks`` (``None``: not complete)."""
        for action, path in self.paths.items():
            if path == picks:
                return action
        return None


def layout(state: State, *, perspective: int | None = None) -> Layout | None:
    """The game's interactive :class:`Layout` of ``state`` as seen by
    ``perspective``, or ``None`` when the game registered none.  The hand
    to pick from and the paths of the moves are those of the player to
    move, so a view of another seat gets neither."""
    check_perspective(state, perspective)
    _load_builtin()
    fn = _LAYOUT.get(state.game.name)
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
    _load_builtin()
    fn = _MOVE_HTML.get(state.game.name)
    return fn(state, action) if fn is not None else ""


# -- the generic renderings (any game) ---------------------------------------
def _value_text(v: Any) -> str:
    if isinstance(v, dict):
        if v and all(isinstance(x, int) and not isinstance(x, bool) for x in v.values()):
            shown = [f"{k}×{x}" if x != 1 else str(k) for k, x in v.items() if x]
            return ", ".join(shown) or "—"
        return "{" + ", ".join(f"{k}: {_value_text(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + "; ".join(_value_text(x) for x in v) + "]"
    if v is None:
        return "—"
    return str(v)


def observation_text(obs: Any) -> str:
    """An observation (a JSON-able dict) as readable lines ``key: value``;
    count dicts print as ``higoi×2, magoi``.

    >>> print(observation_text({"hand": {"a": 2, "b": 1, "c": 0}, "deck": 5}))
      hand: a×2, b
      deck: 5
    """
    if not isinstance(obs, dict):
        return "  " + json.dumps(obs, ensure_ascii=False, sort_keys=True, default=str)
    return "\n".join(f"  {k}: {_value_text(v)}" for k, v in obs.items())


def _head(state: State, perspective: int | None) -> str:
    p = state.current_player
    if p == CHANCE:
        who = _("chance to act")
    elif p == TERMINAL:
        who = _("game over")
    else:
        who = _("player {player} to move").format(player=p)
    view = (_("everything shown") if perspective is None
            else _("as seen by player {player}").format(player=perspective))
    return f"{game_title(state.game)} · {who} · {view}"


def generic_text(state: State, *, perspective: int | None = None) -> str:
    """Any game: ``str(state)`` (everything), or the observation of one player."""
    if perspective is None:
        return str(state)
    lines = [_head(state, perspective), observation_text(state.observation(perspective))]
    if state.is_terminal():
        lines.append("  " + _("returns: {returns}").format(returns=", ".join(str(r) for r in state.returns())))
    return "\n".join(lines)


def generic_html(state: State, *, perspective: int | None = None) -> str:
    """Any game: the text board in a ``<pre>``, or one player's observation as a table."""
    if perspective is None:
        return f'<pre class="cardlab-board">{_html.escape(str(state))}</pre>'
    obs = state.observation(perspective)
    items = obs.items() if isinstance(obs, dict) else [(_("observation"), obs)]
    rows = "".join(f"<tr><th style=\"text-align:left\">{_html.escape(str(k))}</th>"
                   f"<td style=\"text-align:left\">{_html.escape(_value_text(v))}</td></tr>"
                   for k, v in items)
    if state.is_terminal():
        rows += ("<tr><th style=\"text-align:left\">" + _html.escape(_("returns"))
                 + "</th><td style=\"text-align:left\">"
                 + _html.escape(", ".join(str(r) for r in state.returns())) + "</td></tr>")
    return (f'<table class="cardlab-board"><caption>{_html.escape(_head(state, perspective))}'
            f"</caption>{rows}</table>")


# -- what a viewer may know of a move: the one gate ---------------------------
def visible(state: State, action: str, viewer: int | None) -> bool:
    """Whether ``viewer`` may know all of ``action`` (a player action or a
    chance outcome) taken in ``state`` (:func:`public_action` leaves it whole).
    ``viewer=None`` sees everything; an actor always knows their own move.

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> visible(root, "deal higoi", 0), visible(root, "deal higoi", 1)
    (True, False)
    """
    return public_action(state, action, viewer) == action


def public_action(state: State, action: str, viewer: int | None) -> str:
    """``action`` as ``viewer`` may know it: the words the viewer cannot know
    read ``??`` (``"place ?? 1,3"``: a face-down card laid on a public
    square); the action itself when the viewer sees it; ``"??"`` when nothing
    of it is known.  The game decides (:meth:`cardlab.State.public_action`)
    from the public kind of the move alone, so the answer is the same for
    every position and move the viewer cannot tell apart.

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> public_action(root, "deal higoi", 0), public_action(root, "deal higoi", 1)
    ('deal higoi', 'deal ??')
    """
    if viewer is None:
        return action
    return state.public_action(action, viewer)


def rule_ids(explanation: str) -> list[str]:
    """The rule ids an explanation cites, in order.

    >>> rule_ids("captured at once (KN-10, KN-9).")
    ['KN-10', 'KN-9']
    """
    return RULE_ID_RE.findall(explanation)


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
