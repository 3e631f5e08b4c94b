"""A puzzle's explanation, made when it is shown, in the language of the page.

The bank stores what the explanation says as data (the values of the moves,
the value of each of the mover's moves of the solution, the kind and the
label: :mod:`cardlab.puzzles.bank`); the sentences come from the catalogue
(:mod:`cardlab.i18n`), and every move is named with the words the board's
buttons and its move log use: the move's label as the mover may read it
(:func:`cardlab.render.seen_move`, the one place that decides what a
player may see), never its notation.  So an explanation shows only what the
mover may see, and the solution.

>>> from cardlab import puzzles
>>> from cardlab.i18n import using
>>> p = puzzles.load("koinobori")[0]
>>> with using("en"):
...     explanation(p).split(":")[0]
'Only “play 出す'
>>> with using("ja"):
...     move_words(p.state, p.solution, p.mover)
['出す: あおこい']
"""

from __future__ import annotations

from fractions import Fraction
from functools import reduce
from typing import Any, Sequence

from ..core import State
from ..errors import CardlabError
from ..i18n import _, pgettext, using
from ..render import seen_move

__all__ = ["explanation", "move_words", "answer_words", "worth"]


def worth(value: Fraction, lo: Fraction, hi: Fraction) -> str:
    """A value's share of a win (``lo`` a loss, ``hi`` a win), as a percentage."""
    share = (Fraction(value) - lo) / (hi - lo)
    return f"{float(share):.0%}".replace("%", " %")


def _value(value: Fraction) -> str:
    return f"{value} (≈ {float(value):+.2f})" if Fraction(value).denominator != 1 else str(value)


def move_words(state: State, moves: Sequence[str], viewer: int | None) -> list[str]:
    """``moves`` played one after another from ``state``, each named as
    ``viewer`` reads it on the board and in its move log (the label of
    :func:`cardlab.render.seen_move`: the button's words for a move the
    viewer sees, what happened in plain words for one they do not)."""
    out = []
    for move in moves:
        out.append(seen_move(state, move, viewer).label)
        state = state.apply(move)
    return out


def answer_words(p: Any, moves: Sequence[str]) -> list[str]:
    """A pupil's ``moves`` in puzzle ``p`` (one at each of the mover's
    decisions along the solution, as an attempt stores them), each named as
    the board named it when the pupil chose it (a move that is not legal
    there: as it was given)."""
    decisions = [s for s in p.positions if s.current_player == p.mover]
    out = []
    for state, move in zip(decisions, moves):
        try:
            out.append(seen_move(state, move, p.mover).label)
        except CardlabError:
            out.append(move)
    return out + list(moves[len(out):])


def _quoted(words: str) -> str:
    return pgettext("puzzle move", "“{move}”").format(move=words)


def _sentences(parts: list[str]) -> str:
    """Sentences one after another (a space between them in English, none in Japanese)."""
    return reduce(lambda first, second: pgettext("puzzle explanation", "{first} {second}").format(
        first=first, second=second), parts)


def _then(replies: list[str], move: str, value: Fraction | None) -> str:
    """The sentence of one of the mover's further moves of the solution."""
    if value is None:  # a bank of format 1 does not store the values of the further moves
        said = (_("Then, after {replies}, {move} is again the only good move.") if replies
                else _("Then {move} is again the only good move."))
    else:
        said = (_("Then, after {replies}, {move} is again the only good move (worth {value}).") if replies
                else _("Then {move} is again the only good move (worth {value})."))
    listed = pgettext("list separator", ", ").join(_quoted(r) for r in replies)
    return said.format(replies=listed, move=_quoted(move), value=_value(value) if value is not None else "")


def _others(p: Any, words: dict[str, str], best: Fraction, lo: Fraction, hi: Fraction) -> str:
    others = sorted((a for a in p.values if a != p.answer), key=lambda a: -p.values[a])
    return _sentences([_("The other moves:")] + [
        _("{move}: {value} ({share}), {loss} less.").format(
            move=_quoted(words[a]), value=_value(p.values[a]), share=worth(p.values[a], lo, hi),
            loss=_value(best - p.values[a])) for a in others])


def explanation(p: Any, language: str | None = None) -> str:
    """Why the answer of puzzle ``p`` (a :class:`~cardlab.puzzles.Puzzle`)
    is the one good move and what the other moves are worth, in
    ``language`` (default: cardlab's), as the mover may read it."""
    with using(language):
        viewer = p.mover  # an open puzzle shows the mover every card; a fair one only theirs
        spec = p.state.game.spec
        lo, hi = Fraction(spec.min_utility), Fraction(spec.max_utility)
        best = p.values[p.answer]
        words = {a: seen_move(p.state, a, viewer).label for a in p.values}
        parts = [_("Only {move} is best: it is worth {value} ({share} of a win).").format(
            move=_quoted(words[p.answer]), value=_value(best), share=worth(best, lo, hi))]
        if p.kind == "open":
            parts.append(_("All cards are shown: this is the exact value with every card seen."))
        else:
            parts.append(_("The values count only what you can see: the average over every arrangement of the "
                           "cards you cannot see."))
            parts.append(_("It is best whatever the hidden cards are.") if p.label == "sure" else _(
                "It is best on average over the cards you cannot see, but not in every arrangement of them: "
                "a best-on-average puzzle."))
        parts.append(_others(p, words, best, lo, hi))
        parts.append(_("What it does: {text}").format(text=seen_move(p.state, p.answer, viewer).line))
        parts += _further(p, viewer)
        return _sentences(parts)


def _further(p: Any, viewer: int) -> list[str]:
    """The sentences of the mover's further moves of the solution, each
    after the replies before it, named as the mover reads them."""
    out: list[str] = []
    replies: list[str] = []
    n = 0
    for state, move in zip(p.positions, p.solution):
        said = seen_move(state, move, viewer).label
        if state.current_player == p.mover:
            if n:
                out.append(_then(replies, said, p.line[n] if n < len(p.line) else None))
            n, replies = n + 1, []
        else:
            replies.append(said)
    return out
