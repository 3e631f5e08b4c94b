"""A puzzle's explanation, made when it is shown, in the language of the page.

The bank stores what the explanation says as data (the values of the moves,
the value of each of the mover's moves of the solution, the kind and the
label: :mod:`cardlab.puzzles.bank`); the sentences come from the catalogue
(:mod:`cardlab.i18n`), and every move is named with the words the board's
buttons and its move log use: the move's label as the mover may read it
(:func:`cardlab.render.seen_move`, the one place that decides what a
player may see), never its notation.  So an explanation shows only what the
mover may see, and the solution, told to its end: each reply with the
player who plays it (a move the mover does not see in the move log's plain
sentence), each further move of the mover with its value, and how the line
ends (in an open puzzle the game's result; else the value it keeps).

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


def _then(move: str, value: Fraction | None) -> str:
    """The sentence of one of the mover's further moves of the solution."""
    if value is None:  # a bank of format 1 does not store the values of the further moves
        return _("Then {move} is again the only good move.").format(move=_quoted(move))
    return _("Then {move} is again the only good move (worth {value}).").format(move=_quoted(move), value=_value(value))


def _reply(seen: Any) -> str:
    """The sentence of a move of another player in the solution, as the
    mover reads it: who plays it and its button's words, or, for a move the
    mover does not see, what happens in plain words (the sentence names who)."""
    if seen.hidden:
        return seen.sentence
    return _("Player {player} answers {move}.").format(player=seen.player, move=_quoted(seen.label))


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
        parts += _further(p, viewer, lo, hi)
        return _sentences(parts)


def _further(p: Any, viewer: int, lo: Fraction, hi: Fraction) -> list[str]:
    """The rest of the solution after the answer, move by move as the mover
    reads it (:func:`cardlab.render.seen_move`): each reply with who plays
    it, each of the mover's further moves with its value, and how the line
    ends."""
    out: list[str] = []
    n = 0
    for state, move in zip(p.positions, p.solution):
        seen = seen_move(state, move, viewer)
        if state.current_player != p.mover:
            out.append(_reply(seen))
        elif n:
            out.append(_then(seen.label, p.line[n] if n < len(p.line) else None))
        n += state.current_player == p.mover
    return out + _end(p, lo, hi)


def _end(p: Any, lo: Fraction, hi: Fraction) -> list[str]:
    """How the solution line ends for the mover: in an open puzzle, the game
    over and its result; else the value the line keeps (in a fair puzzle the
    average over the cards the mover cannot see, never the result of the
    arrangement the puzzle came from; a bank of format 1: nothing)."""
    last = p.positions[-1].apply(p.solution[-1])
    if p.kind == "open" and last.is_terminal():
        got = Fraction(last.returns()[p.mover])
        if got == hi:
            return [_("The game is then over: you win.")]
        if got == lo:
            return [_("The game is then over: you lose.")]
        return [_("The game is then over: you get {value} ({share} of a win).").format(
            value=_value(got), share=worth(got, lo, hi))]
    if not p.line or len(p.solution) == 1:  # one move: its value is said first
        return []
    return [_("That is the whole line: it keeps its value for you, {value} ({share} of a win).").format(
        value=_value(p.line[-1]), share=worth(p.line[-1], lo, hi))]
