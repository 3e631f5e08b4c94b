"""The report of a design sweep: an HTML page with the metrics of every
option point (value and 95 % interval), the exact figures beside the sampled
ones, the definitions, and a plot of each metric by option.

matplotlib is imported here only (``import cardlab`` does not need it); the
figure is a plain :class:`matplotlib.figure.Figure` (no pyplot), embedded in
the page as a PNG.
"""

from __future__ import annotations

import base64
import html as _html
import io
import os
from typing import Any, Sequence

from ..i18n import _
from .metrics import METRICS

__all__ = ["html", "figure", "PLOTTED"]

#: the metrics drawn, one panel each
PLOTTED = ("seat_score", "balance", "drawishness", "lead_change", "decisiveness", "duration", "branching",
           "skill", "luck")


def _label(options: dict[str, Any], varying: Sequence[str]) -> str:
    shown = {k: v for k, v in options.items() if k in varying} or options
    return ", ".join(f"{k}={v}" for k, v in shown.items()) or _("default options")


def _varying(points: Sequence[Any]) -> list[str]:
    keys = []
    for p in points:
        keys += [k for k in p.options if k not in keys]
    return [k for k in keys if len({repr(p.options.get(k)) for p in points}) > 1]


def figure(points: Sequence[Any]):
    """One panel per metric of :data:`PLOTTED`: its value at each point with
    the 95 % interval as an error bar."""
    from matplotlib.figure import Figure

    from ..review_plot import _show_in_notebooks

    _show_in_notebooks()  # a cell whose value is this figure shows it as a picture
    varying = _varying(points)
    labels = [_label(p.options, varying) for p in points]
    shown = [m for m in PLOTTED if any(p.metrics.get(m) and p.metrics[m].value is not None for p in points)]
    cols = 3
    rows = max(1, -(-len(shown) // cols))
    fig = Figure(figsize=(4.2 * cols, 3.0 * rows), layout="constrained")
    for i, name in enumerate(shown):
        ax = fig.add_subplot(rows, cols, i + 1)
        xs, ys, err = [], [], [[], []]
        for x, p in enumerate(points):
            m = p.metrics.get(name)
            if m is None or m.value is None:
                continue
            xs.append(x)
            ys.append(m.value)
            err[0].append(max(0.0, m.value - m.lo))
            err[1].append(max(0.0, m.hi - m.value))
        ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=4, color="#1c7ed6")
        ax.set_title(f"{name} ({METRICS[name][0]})" if METRICS[name][0] else name, fontsize=10)
        ax.set_xticks(range(len(points)), labels, fontsize=8, rotation=20 if len(points) > 3 else 0)
        ax.grid(alpha=0.3)
    return fig


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _metric_table(points: Sequence[Any], varying: list[str]) -> str:
    names = [n for n in METRICS if any(n in p.metrics for p in points)]
    head = "".join(f"<th>{_html.escape(n)}</th>" for n in names)
    body = []
    for p in points:
        cells = "".join(f"<td>{_html.escape(str(p.metrics[n])) if n in p.metrics else '—'}</td>" for n in names)
        body.append(f"<tr><th>{_html.escape(_label(p.options, varying))}</th>{cells}</tr>")
    first = _html.escape(_("options"))
    return f"<table class='metrics'><tr><th>{first}</th>{head}</tr>" + "".join(body) + "</table>"


def _exact_table(points: Sequence[Any], varying: list[str]) -> str:
    rows = []
    for p in points:
        e = p.exact
        if e is None:
            continue
        sampled = p.metrics.get("open_value")
        rows.append(_row(*(str(x) for x in (
            _label(p.options, varying), f"{e.deals:,}", f"{e.mean} (≈ {float(e.mean):+.4f})",
            str(sampled) if sampled is not None else "—", e.win, e.draw, e.loss,
            "—" if e.first is None else f"{e.first} (≈ {float(e.first):+.4f})"))))
    if not rows:
        return "<p>" + _html.escape(_("No point of this sweep is small enough for the exact figures.")) + "</p>"
    head = "".join(f"<th>{_html.escape(h)}</th>" for h in (
        _("options"), _("deals"), _("exact mean, seat 0"), _("sampled deals, mean [95 %]"), _("P(ahead)"),
        _("P(level)"), _("P(behind)"), _("first mover's exact mean")))
    return f"<table class='exact'><tr>{head}</tr>" + "".join(rows) + "</table>"


def _definitions() -> str:
    rows = "".join(_row(n, a or "—", _(line)) for n, (a, line) in METRICS.items())
    head = "".join(f"<th>{_html.escape(h)}</th>" for h in (_("metric"), _("Ludii anchor"), _("meaning")))
    return f"<table class='defs'><tr>{head}</tr>{rows}</table>"


def _row(*cells: str) -> str:
    return "<tr>" + "".join(f"<td>{_html.escape(c)}</td>" for c in cells) + "</tr>"


def _h2(text: str) -> str:
    return f"<h2>{_html.escape(text)}</h2>"


_STYLE = ("body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:1em 0}"
          "td,th{border:1px solid #ccc;padding:.25em .5em;font-size:.85em;text-align:left}"
          "th{background:#f1f3f5}")


def html(points: Sequence[Any], path: str | os.PathLike | None = None, *, plots: bool = True,
         title: str | None = None) -> str:
    """The report as an HTML page (written to ``path`` when given)."""
    if not points:
        raise ValueError("a report needs at least one point")
    first = points[0]
    varying = _varying(points)
    title = title or _("Rule design: {game}").format(game=first.game)
    skill = (_("skill: {strong} against {weak}, seats alternated").format(strong=first.skill[0], weak=first.skill[1])
             if first.skill else _("no skill games"))
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_html.escape(title)}</title>"
             f"<style>{_STYLE}</style></head><body><h1>{_html.escape(title)}</h1>",
             "<p>" + _html.escape(_("{games} self-play games of {agent} a point; {skill}. Each figure: value "
                                    "[{percent} interval].").format(games=first.games, agent=first.agent, skill=skill,
                                                                        percent="95 %"))
             + "</p>",
             _h2(_("Metrics by option")), _metric_table(points, varying)]
    if plots:
        alt = _html.escape(_("metrics by option"))
        parts.append(f"<img alt='{alt}' src='data:image/png;base64,{_png(figure(points))}'>")
    parts += [_h2(_("Exact, with open hands, over every deal")), _exact_table(points, varying),
              _h2(_("Definitions")), _definitions(), "</body></html>"]
    page = "\n".join(parts)
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(page)
    return page
