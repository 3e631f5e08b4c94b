"""A puzzle's explanation, in English and in Japanese, stored in the bank.

The bank carries both languages as data (a pupil reads the one the page
speaks), so the sentences are written here in both, not looked up in the
catalogue; what a move does is the game's own explanation
(``State.explain``) in that language.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..i18n import using
from ..render import seen_move

__all__ = ["explanation", "worth"]

WORDS = {
    "en": {
        "only": "Only {move} is best: it is worth {value} ({share} of a win).",
        "open": "All cards are shown: this is the exact value with every card seen.",
        "fair": "The values count only what you can see: the average over every arrangement of the cards "
                "you cannot see.",
        "sure": "It is best whatever the hidden cards are.",
        "best_on_average": "It is best on average over the cards you cannot see, but not in every "
                           "arrangement of them: a best-on-average puzzle.",
        "other": "{move}: {value} ({share}), {loss} less.",
        "others": "The other moves:",
        "happens": "What it does: {text}",
        "then": "Then, after {replies}, {move} is again the only good move (worth {value}).",
        "then_direct": "Then {move} is again the only good move (worth {value}).",
        "sep": " ",
    },
    "ja": {
        "only": "最善手は {move} だけです。価値は {value}（勝ちの {share}）。",
        "open": "すべてのカードを見せた局面です。すべてのカードが見えるときの正確な価値です。",
        "fair": "価値はあなたに見えるものだけから計算しています。見えないカードのあらゆる配置の平均です。",
        "sure": "見えないカードがどう配られていても、この手が最善です。",
        "best_on_average": "見えないカードの配置の平均で最善ですが、すべての配置で最善というわけではありません"
                           "（平均で最善の問題）。",
        "other": "{move}：{value}（{share}）、{loss} 低い。",
        "others": "ほかの手：",
        "happens": "この手で起こること：{text}",
        "then": "続いて {replies} のあと、{move} がふたたび唯一の好手です（価値 {value}）。",
        "then_direct": "続いて {move} がふたたび唯一の好手です（価値 {value}）。",
        "sep": "",
    },
}


def worth(value: Fraction, lo: Fraction, hi: Fraction) -> str:
    """A value's share of a win (``lo`` a loss, ``hi`` a win), as a percentage."""
    share = (Fraction(value) - lo) / (hi - lo)
    return f"{float(share):.0%}".replace("%", " %")


def _value(value: Fraction) -> str:
    return f"{value} (≈ {float(value):+.2f})" if Fraction(value).denominator != 1 else str(value)


def explanation(record: dict[str, Any], steps: list, lang: str) -> str:
    """The explanation of a puzzle (its bank ``record`` and the
    :class:`~cardlab.puzzles.check.Step` list of its solution) in ``lang``."""
    w = WORDS[lang]
    first = steps[0]
    spec = first.state.game.spec
    lo, hi = Fraction(spec.min_utility), Fraction(spec.max_utility)
    best = first.values[first.move]
    parts = [w["only"].format(move=first.move, value=_value(best), share=worth(best, lo, hi))]
    parts.append(w["open"] if record["kind"] == "open" else w["fair"])
    if record["kind"] == "fair":
        parts.append(w[record["label"]])
    others = sorted((a for a in first.values if a != first.move), key=lambda a: -first.values[a])
    parts.append(w["others"] + w["sep"] + w["sep"].join(
        w["other"].format(move=a, value=_value(first.values[a]), share=worth(first.values[a], lo, hi),
                          loss=_value(best - first.values[a])) for a in others))
    viewer = first.state.current_player if record["kind"] == "fair" else None
    with using(lang):  # what the board shows the mover of their own move (cardlab.render.seen_move)
        parts.append(w["happens"].format(text=seen_move(first.state, first.move, viewer).line))
    for prev, step in zip(steps, steps[1:]):
        value = _value(step.values[step.move])
        parts.append(w["then"].format(replies=", ".join(prev.reply), move=step.move, value=value) if prev.reply
                     else w["then_direct"].format(move=step.move, value=value))
    return w["sep"].join(parts)
