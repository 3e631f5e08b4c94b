"""Issue T item 6 in a real browser (marker ``browser``): a pupil's locked
board whose game is over shows "review this game"; a click draws the
review's table and its picture.  Screenshot:
test-artifacts/screenshots/review-board.png."""

from __future__ import annotations

import json

import pytest

from browser_support import jupyterlab, screenshot, until

pytestmark = pytest.mark.browser

#: a locked board (the pupil in seat 1), its game played to the end by a heuristic pupil
CELL = """\
import cardlab.widgets as cw
from cardlab import agents
b = cw.board("koinobori", ["heuristic", "person"], seat=1, locked=True, seed=3)
b.review_nodes = 2000
pupil = agents.make("heuristic", seed=1)
while not b.state.is_terminal():
    b.play(pupil.choose(b.state))
b"""


def _notebook(path) -> None:
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": CELL}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), "utf-8")


def test_T6_review_this_game_draws_its_plot(browser, tmp_path):
    pytest.importorskip("matplotlib")
    _notebook(tmp_path / "review.ipynb")
    with jupyterlab(tmp_path, tmp_path) as (base, token):
        page = browser.new_page(viewport={"width": 1280, "height": 1800})
        try:
            page.goto(f"{base}/lab/tree/review.ipynb?reset&token={token}")
            page.wait_for_function("window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=90_000)
            assert page.evaluate("""async () => {
                const app = window.jupyterapp, nb = app.shell.currentWidget;
                await nb.context.ready;
                await nb.sessionContext.ready;
                return await app.commands.execute('notebook:run-all-cells');
            }""")
            panel = page.locator(".jp-NotebookPanel:visible")
            button = panel.get_by_role("button", name="review this game", exact=True)
            until(lambda: button.count(), bool, "the 'review this game' button at game over", 120)
            assert "Game over" in panel.inner_text()
            button.click()
            plot = panel.locator("img.cardlab-review-plot")
            until(lambda: plot.count() and plot.evaluate("i => i.complete && i.naturalWidth"), bool,
                  "the review's picture", 120)
            table = panel.locator(".cardlab-review table")
            text = table.inner_text()
            assert "best move" in text and "P1" in text and "P0 " not in text  # the pupil's seat only
            board = panel.locator(".cardlab-board-widget")
            path = screenshot(page, "review-board", board)
            assert path.stat().st_size > 10_000
        finally:
            page.close()
