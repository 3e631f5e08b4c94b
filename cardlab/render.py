"""Pure display functions: a state to text or HTML.  Rules never import this;
``State._repr_html_`` does, lazily.  A game may register a richer HTML
renderer with :func:`register_html`."""

from __future__ import annotations

import html as _html
from typing import Callable

from .core import State

__all__ = ["text", "html", "register_html"]

_HTML: dict[str, Callable[..., str]] = {}


def register_html(game_name: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Decorator: ``fn(state, *, perspective=None) -> str`` renders that game."""
    def deco(fn: Callable[..., str]) -> Callable[..., str]:
        _HTML[game_name] = fn
        return fn
    return deco


def text(state: State) -> str:
    """The readable text board (``str(state)``)."""
    return str(state)


def html(state: State, *, perspective: int | None = None) -> str:
    """An HTML picture of the state; ``perspective`` hides what that player
    cannot see (``None``: show everything)."""
    fn = _HTML.get(state.game.name)
    if fn is not None:
        return fn(state, perspective=perspective)
    return f'<pre class="cardlab-board">{_html.escape(str(state))}</pre>'
