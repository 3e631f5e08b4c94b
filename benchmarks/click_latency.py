"""Issue Y item 4: how long a click on the board takes to show the redrawn
board, in a real browser (Debian's chromium), in JupyterLab and in Voila.

    .venv/bin/python benchmarks/click_latency.py [--games mipig,...] [--clicks 60] [--where lab,voila]

Per game, one person (seat 0) plays seeded whole games against ``random``
(whose thinking takes no time: only the page's own work is measured).  A
click is any button the board offers the person: a move, a card, a square,
a janken hand.  The time runs from the click (``performance.now()`` in the
page, right before ``click()``) to the last change of the board's DOM
before it stays still for :data:`QUIET_MS`: the board redrawn, the agent's
reply included.  In JupyterLab the board is a notebook cell's
:class:`cardlab.widgets.Board`; in Voila it is the class app
(``notebooks/play.ipynb?game=…&seat=0&opponent=random``).  Prints a
markdown table: clicks, p50, p95 and max per game and place, and the load
average (a loaded machine says little about a quiet one).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import cardlab  # noqa: E402
from browser_support import board_locator, ensure_chromium, jupyterlab, until, voila  # noqa: E402

#: the board counts as redrawn once its DOM has not changed for this long
QUIET_MS = 300
#: a click with no change at all within this long is an error
TIMEOUT_MS = 15_000

#: one click, timed in the page: the buttons the person may click now, or
#: (given a label's index) the click and the time to the settled redraw
_OFFERS_JS = """(v) => {
    const c = v.children;
    const buttons = [...v.querySelectorAll('button.cardlab-offer'), ...c[4].querySelectorAll('button')];
    return buttons.filter(b => !b.disabled && b.offsetParent !== null).map(b => b.textContent.trim());
}"""
_NEW_GAME_JS = """(v) => {
    const b = [...v.children[5].querySelectorAll('button')].find(b => b.textContent.trim() === 'new game');
    if (!b || b.disabled) return false;
    b.click();
    return true;
}"""
_CLICK_JS = """(v, [index, quiet, timeout]) => new Promise((resolve) => {
    const c = v.children;
    const buttons = [...v.querySelectorAll('button.cardlab-offer'), ...c[4].querySelectorAll('button')]
        .filter(b => !b.disabled && b.offsetParent !== null);
    let last = null, timer = null;
    const done = () => { observer.disconnect(); resolve(last === null ? null : last - t0); };
    const observer = new MutationObserver(() => {
        last = performance.now();
        clearTimeout(timer);
        timer = setTimeout(done, quiet);
    });
    observer.observe(v, {subtree: true, childList: true, characterData: true, attributes: true});
    timer = setTimeout(done, timeout);
    const t0 = performance.now();
    buttons[index].click();
})"""


def notebook(game: str, seed: int) -> dict:
    """A one-cell notebook: a board of ``game``, seat 0 a person, the others random."""
    n = cardlab.load(game).spec.num_players
    source = (f"import cardlab.widgets\n"
              f"cardlab.widgets.Board({game!r}, players=[None] + ['random'] * {n - 1}, seed={seed})")
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": "board", "metadata": {},
                       "outputs": [], "source": source}],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def play_clicks(page, scope, clicks: int, rng: random.Random) -> tuple[list[float], int]:
    """``clicks`` timed clicks on the board in ``scope`` (an
    untimed "new game" at each game's end); the times (ms) and the errors
    (a click that changed nothing)."""
    times, errors = [], 0
    board = board_locator(scope)
    for _ in range(clicks):
        offers = until(lambda: board.evaluate(_OFFERS_JS), lambda o: o is not None, "the board's buttons", 30)
        if not offers:  # the game is over: a new one (not timed)
            if not board.evaluate(_NEW_GAME_JS):
                break
            until(lambda: board.evaluate(_OFFERS_JS), bool, "the buttons of a new game", 30)
            continue
        ms = board.evaluate(_CLICK_JS, [rng.randrange(len(offers)), QUIET_MS, TIMEOUT_MS])
        if ms is None:
            errors += 1
        else:
            times.append(ms)
    return times, errors


def _on_pages(browser, games: list[str], clicks: int, open_board) -> dict[str, tuple[list[float], int]]:
    """Each game on a page of its own: ``open_board(page, game)`` opens it
    and gives the locator the board is in; then the timed clicks."""
    out = {}
    for g in games:
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        try:
            scope = open_board(page, g)
            until(lambda: scope.locator("button", has_text="hint").count(), bool, "the board", 90)
            out[g] = play_clicks(page, scope, clicks, random.Random(g))
        finally:
            page.close()
    return out


def in_lab(browser, games: list[str], clicks: int, work: Path) -> dict[str, tuple[list[float], int]]:
    nbdir = work / "nb"
    nbdir.mkdir()
    for g in games:
        (nbdir / f"{g}.ipynb").write_text(json.dumps(notebook(g, 1)))

    with jupyterlab(nbdir, work / "lab") as (base, token):
        def open_board(page, g):
            page.goto(f"{base}/lab/tree/{g}.ipynb?reset&token={token}")
            page.wait_for_function("window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=90_000)
            page.evaluate("""async () => {
                const app = window.jupyterapp, nb = app.shell.currentWidget;
                await nb.context.ready; await nb.sessionContext.ready;
                return await app.commands.execute('notebook:run-all-cells');
            }""")
            return page.locator(".jp-NotebookPanel:visible")

        return _on_pages(browser, games, clicks, open_board)


def in_voila(browser, games: list[str], clicks: int, work: Path) -> dict[str, tuple[list[float], int]]:
    with voila(ROOT / "notebooks" / "play.ipynb", work) as url:
        def open_board(page, g):
            page.goto(f"{url}&game={g}&seat=0&opponent=random&seed=1", timeout=90_000)
            return page.locator("body")

        return _on_pages(browser, games, clicks, open_board)


def table(results: dict[str, dict[str, tuple[list[float], int]]]) -> str:
    rows = ["| where | game | clicks | p50 ms | p95 ms | max ms | errors |", "|---|---|---|---|---|---|---|"]
    for where, per_game in results.items():
        for g, (times, errors) in per_game.items():
            if len(times) < 2:
                rows.append(f"| {where} | {g} | {len(times)} | | | | {errors} |")
                continue
            q = statistics.quantiles(times, n=20, method="inclusive")
            rows.append(f"| {where} | {g} | {len(times)} | {statistics.median(times):.0f} | {q[18]:.0f} "
                        f"| {max(times):.0f} | {errors} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(cardlab.games.names()))
    ap.add_argument("--clicks", type=int, default=60, help="clicks per game and place (fewer when the game ends)")
    ap.add_argument("--where", default="lab,voila")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    from playwright.sync_api import sync_playwright

    results = {}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=ensure_chromium(), headless=True)
        with contextlib.closing(browser):
            for where in args.where.split(","):
                work = Path(tmp) / where
                work.mkdir()
                results[where] = (in_lab if where == "lab" else in_voila)(browser, games, args.clicks, work)
    print(f"click to redrawn board (settled {QUIET_MS} ms), person vs random; "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} cores\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
