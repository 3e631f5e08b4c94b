"""The picture of a :class:`cardlab.review.Review`: each reviewed player's
expected result over the game.  matplotlib is imported here only (``import
cardlab`` does not need it); the figure is a plain
:class:`matplotlib.figure.Figure` (no pyplot: no window, no global state)."""

from __future__ import annotations

import sys
from typing import Any

from .i18n import _

__all__ = ["plot"]

#: how a mark is drawn on a player's line (colour, marker)
MARK_STYLE = {"inaccuracy": ("#d4a000", "o"), "mistake": ("#e8590c", "s"), "blunder": ("#c92a2a", "X")}

#: fonts with Japanese glyphs, tried after matplotlib's own (only those installed are named)
_JAPANESE_FONTS = ("IPAGothic", "IPAPGothic", "Noto Sans CJK JP", "Noto Sans JP", "TakaoGothic",
                   "Hiragino Sans", "Yu Gothic", "MS Gothic")


def _fonts() -> list[str]:
    """matplotlib's sans-serif font, then an installed one with Japanese
    glyphs (a missing name would make matplotlib warn on stderr)."""
    from matplotlib import font_manager, rcParams

    have = {f.name for f in font_manager.fontManager.ttflist}
    first = [f for f in rcParams["font.sans-serif"] if f in have][:1]
    return first + [f for f in _JAPANESE_FONTS if f in have][:1]


def _show_in_notebooks() -> None:
    """In IPython, a Figure that is a cell's value shows as a picture (pyplot
    would arrange it, but this figure is not pyplot's: no second copy)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and getattr(shell, "display_formatter", None) is not None:
        from IPython.core.pylabtools import select_figure_formats

        select_figure_formats(shell, {"png"})


def plot(review: Any, ax: Any = None) -> Any:
    """The figure (or, given ``ax``, that axes' figure): x the move number,
    y the value of the move each player made (their expected result, from
    what they could see), the result at the end; inaccuracies, mistakes and
    blunders marked."""
    from matplotlib.figure import Figure

    _show_in_notebooks()
    fonts = _fonts()
    if ax is None:
        fig = Figure(figsize=(7.5, 3.6), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    spec = review.game.spec
    lo, hi = float(spec.min_utility), float(spec.max_utility)
    last = review.length + 1  # the result, after the last move
    for p in review.seats:
        pts = [(d.number, float(d.value)) for d in review.decisions if d.player == p and d.value is not None]
        if review.over:
            pts.append((last, float(review.final.returns()[p])))
        if not pts:
            continue
        xs, ys = zip(*pts)
        ax.plot(xs, ys, marker=".", label=review.who(p))
        for d in review.decisions:
            if d.player == p and d.mark in MARK_STYLE:
                colour, marker = MARK_STYLE[d.mark]
                ax.plot([d.number], [float(d.value)], marker=marker, color=colour, markersize=9, linestyle="none")
    for word, (colour, marker) in MARK_STYLE.items():  # the legend of the marks
        if any(d.mark == word for d in review.decisions):
            ax.plot([], [], marker=marker, color=colour, linestyle="none", label=review.mark_word(word))
    ax.axhline(0, color="#999", linewidth=0.6)
    pad = (hi - lo) * 0.05
    ax.set_ylim(lo - pad, hi + pad)
    ax.set_xlabel(_("move"), fontfamily=fonts)
    ax.set_ylabel(_("expected result"), fontfamily=fonts)
    ax.set_title(_("{game}: each player's expected result, from what they could see").format(
        game=_(review.game.title) if getattr(review.game, "title", "") else review.game.name),
        fontfamily=fonts, fontsize=10)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="best", fontsize=8, prop={"family": fonts, "size": 8})
    return fig
