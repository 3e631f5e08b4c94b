"""What every game's display shares: the interactive :class:`Layout`, the
generic renderings of any game, and what a viewer may know of a move
(:func:`visible`, :func:`public_action`).

This module sits below the games' own ``render`` modules (each game draws
itself with these pieces); :mod:`cardlab.render`, above the games, picks the
game's renderer and is where every text and picture of a move shown to a
viewer passes (:func:`cardlab.render.seen_move`).  Rules never import either.

Everything here is a pure function of its arguments: the same state gives the
same text, so notebook outputs stay deterministic.

>>> import cardlab
>>> s = cardlab.load("koinobori").new_initial_state(seed=1)
>>> print(generic_text(s, perspective=1).splitlines()[0])
Koi-koi Nobori (こいこいのぼり) · player 0 to move · as seen by player 1
"""

from __future__ import annotations

import html as _html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from .core import CHANCE, TERMINAL, State
from .i18n import N_, _

__all__ = [
    "GAME_TITLES", "RULE_ID_RE", "SPECTATOR", "Layout", "check_perspective", "game_title", "generic_html",
    "generic_text", "is_seat", "observation_text", "public_action", "public_view", "rule_ids", "split_rules",
    "visible",
]

#: the class in front of a projector (issue W, item 6): a viewer who is no seat
#: and sees only what every seat sees (no hand, no face-down card, not the deck's
#: order).  It is given wherever a seat's number goes (``perspective=SPECTATOR``,
#: ``viewer=SPECTATOR``); ``None`` stays the teacher, who sees everything.
SPECTATOR = "class"


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


def check_perspective(state: State, perspective: int | str | None) -> int | str | None:
    """Return ``perspective`` if it is ``None``, :data:`SPECTATOR` or a seat
    of the game, else raise ``ValueError`` naming what is accepted."""
    n = state.game.spec.num_players
    if perspective is None or perspective == SPECTATOR or (
            isinstance(perspective, int) and not isinstance(perspective, bool) and 0 <= perspective < n):
        return perspective
    raise ValueError(_("perspective must be None (show everything), {spectator} (the class: what every seat "
                       "sees) or a player 0..{last}, not {perspective}").format(
        spectator=repr(SPECTATOR), last=n - 1, perspective=repr(perspective)))


def is_seat(perspective: int | str | None) -> bool:
    """Whether ``perspective`` is one seat's (not everything, not the class)."""
    return perspective is not None and perspective != SPECTATOR


def _common(values: list[Any]) -> Any:
    """What views of one fact by every seat have in common: the fact where
    they agree; the size where some show a hand and the others only count
    it; part by part for dicts (the keys all have) and lists of one length;
    else ``None`` (someone does not see it)."""
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        return {k: _common([v[k] for v in values]) for k in first if all(k in v for v in values)}
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1:
        return [_common(list(column)) for column in zip(*values)]
    counts = {v for v in values if isinstance(v, int) and not isinstance(v, bool)}
    if len(counts) == 1 and all(isinstance(v, (list, dict)) or (v in counts and not isinstance(v, bool))
                                for v in values):
        return counts.pop()  # a hand shown to its owner, counted for the others
    return None


def public_view(view: Any, state: State) -> Any:
    """What the class sees (:data:`SPECTATOR`): the facts ``view(state, p)``
    of every seat ``p`` have in common (:func:`_common`), so nothing one seat
    keeps from another is in it; a game's renderer draws it as it draws a
    seat's view."""
    return _common([view(state, p) for p in range(state.game.spec.num_players)])


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


def _head(state: State, perspective: int | str | None) -> str:
    p = state.current_player
    if p == CHANCE:
        who = _("chance to act")
    elif p == TERMINAL:
        who = _("game over")
    else:
        who = _("player {player} to move").format(player=p)
    view = (_("everything shown") if perspective is None else _("as seen by the class")
            if perspective == SPECTATOR else _("as seen by player {player}").format(player=perspective))
    return f"{game_title(state.game)} · {who} · {view}"


def _observation(state: State, perspective: int | str) -> Any:
    """One seat's observation, or the class's: what every seat's has in common."""
    if perspective == SPECTATOR:
        return public_view(lambda s, p: s.observation(p), state)
    return state.observation(perspective)  # type: ignore[arg-type]


def generic_text(state: State, *, perspective: int | str | None = None) -> str:
    """Any game: ``str(state)`` (everything), or the observation of one
    player (of the class: what every player's has in common)."""
    if perspective is None:
        return str(state)
    lines = [_head(state, perspective), observation_text(_observation(state, perspective))]
    if state.is_terminal():
        lines.append("  " + _("returns: {returns}").format(returns=", ".join(str(r) for r in state.returns())))
    return "\n".join(lines)


def generic_html(state: State, *, perspective: int | str | None = None) -> str:
    """Any game: the text board in a ``<pre>``, or one player's (the class's) observation as a table."""
    if perspective is None:
        return f'<pre class="cardlab-board">{_html.escape(str(state))}</pre>'
    obs = _observation(state, perspective)
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


def visible(state: State, action: str, viewer: int | str | None) -> bool:
    """Whether ``viewer`` may know all of ``action`` (a player action or a
    chance outcome) taken in ``state`` (:func:`public_action` leaves it whole).
    ``viewer=None`` sees everything; an actor always knows their own move.

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> visible(root, "deal higoi", 0), visible(root, "deal higoi", 1)
    (True, False)
    """
    return public_action(state, action, viewer) == action


def public_action(state: State, action: str, viewer: int | str | None) -> str:
    """``action`` as ``viewer`` may know it: the words the viewer cannot know
    read ``??`` (``"place ?? 1,3"``: a face-down card laid on a public
    square); the action itself when the viewer sees it; ``"??"`` when nothing
    of it is known.  The game decides (:meth:`cardlab.State.public_action`)
    from the public kind of the move alone, so the answer is the same for
    every position and move the viewer cannot tell apart.  The class
    (:data:`SPECTATOR`) knows a word only where every seat knows it.

    >>> import cardlab
    >>> root = cardlab.load("koinobori").new_initial_state()
    >>> public_action(root, "deal higoi", 0), public_action(root, "deal higoi", 1)
    ('deal higoi', 'deal ??')
    >>> public_action(root, "deal higoi", SPECTATOR)
    'deal ??'
    """
    if viewer is None:
        return action
    if viewer == SPECTATOR:
        return _common_action(action, [state.public_action(action, p) for p in range(state.game.spec.num_players)])
    return state.public_action(action, viewer)  # type: ignore[arg-type]


def _common_action(action: str, forms: list[str]) -> str:
    """The words of ``action`` that every seat's public form of it keeps
    (the others ``??``); ``"??"`` when a seat knows nothing of it or the
    forms do not line up word by word."""
    words = action.split()
    if any(f == "??" for f in forms) or any(len(f.split()) != len(words) for f in forms):
        return action if all(f == action for f in forms) else "??"
    return " ".join(w if all(f.split()[i] == w for f in forms) else "??" for i, w in enumerate(words))


def rule_ids(explanation: str) -> list[str]:
    """The rule ids an explanation cites, in order.

    >>> rule_ids("captured at once (KN-10, KN-9).")
    ['KN-10', 'KN-9']
    """
    return RULE_ID_RE.findall(explanation)


#: a bracketed aside, ASCII or full width (asides one deep inside it)
_ASIDE_RE = re.compile(r"([(（])((?:[^()（）]|[(（][^()（）]*[)）])*)([)）])")
#: the separators of the parts of an aside; a part ``KN-8: quote`` keeps its quote
_PART_SEP_RE = re.compile(r"\s*[,;/、，；]\s*")
_CITED_RE = re.compile(r"^(?:[A-Z]{2}-Q?\d+\s*[:：]\s*)+")


def _aside_without_ids(m: re.Match) -> str:
    opening, inner, closing = m.groups()
    if not RULE_ID_RE.search(inner):
        return m.group(0)
    parts = [_CITED_RE.sub("", part) for part in _PART_SEP_RE.split(inner.strip())]
    words = [part for part in parts if part and not RULE_ID_RE.fullmatch(part)]
    if not words:
        return ""
    return opening + ("、" if opening == "（" else ", ").join(words) + closing


def split_rules(explanation: str) -> tuple[str, tuple[str, ...]]:
    """An explanation as a sentence a pupil reads without the rule ids in
    its way, and the ids it cites (in order, each once): a bracketed aside
    loses its ids (``(チャージ, MZ-6)`` → ``(チャージ)``, ``(MC-8: quote)`` →
    ``(quote)``) and goes when nothing else is in it.  A page shows the ids
    after the sentence, small (:func:`cardlab.render.seen_move`).

    >>> split_rules("captured at once (KN-10, KN-9); then draws 1 (KN-Q3).")
    ('captured at once; then draws 1.', ('KN-10', 'KN-9', 'KN-Q3'))
    >>> split_rules("チャージします（チャージ、MZ-6）。")
    ('チャージします（チャージ）。', ('MZ-6',))
    """
    ids = tuple(dict.fromkeys(RULE_ID_RE.findall(explanation)))
    if not ids:
        return explanation, ()
    sentence = _ASIDE_RE.sub(_aside_without_ids, explanation)
    sentence = re.sub(r"[ \t]+([.,;:!?。、，；：])", r"\1", sentence)
    sentence = re.sub(r"[ \t]{2,}", " ", sentence).strip()
    return sentence, ids
