"""Lock means lock (issue W, item 7) in a real browser, on Voila: the
newcomer's link ``?game=mipig&seat=0&lock=1&open_hands=1`` shows a message
and no board; a locked link shows exactly its seat's own table (the table of
the same link's board built here, with the same class secret) and no
control that re-deals or moves an agent; the same link with ``lock=0`` is a
board without the lock, of other cards.  The widget-tree test of every parameter, alone and in
pairs, is tests/test_lock.py."""

from __future__ import annotations

import pytest

from cardlab.widgets.app import PlayApp

from browser_support import ROOT, board_info, board_locator, screenshot, until, voila
from test_rooms_browser import squeeze, widget_text

pytestmark = pytest.mark.browser

WAIT = 120  # seconds: a kernel's start on the shared 2-core machine
LINK = "game=koinobori&seat=0&lock=1&opponent=heuristic&seed=3"


def page_board(page, url: str):
    page.goto(url, timeout=WAIT * 1000)
    until(lambda: page.locator("button", has_text="hint").count(), bool, "the board", WAIT)
    board = board_locator(page.locator("body"))
    until(lambda: board_info(board)["offers"], bool, "the board's moves", WAIT)
    return board


def test_a_locked_link_in_the_browser_shows_its_seat_and_nothing_else(browser, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_ROOMS", str(tmp_path / "class.db"))  # the server's kernels and this test: one secret
    monkeypatch.delenv("QUERY_STRING", raising=False)
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        page = browser.new_context(viewport={"width": 1280, "height": 1800}).new_page()
        page.goto(f"{url}&game=mipig&seat=0&lock=1&open_hands=1", timeout=WAIT * 1000)
        text = until(lambda: squeeze(page.locator("body").inner_text()),
                     lambda t: "This link does not start a game" in t, "the refusal", WAIT)
        assert "open_hands='1' is not accepted with lock=1: it shows cards the locked seat may not see" in text
        assert page.locator("button", has_text="hint").count() == 0
        screenshot(page, "lock-open-hands-refused")

        board = page_board(page, f"{url}&{LINK}")
        want = PlayApp(query=LINK).board
        info = board_info(board)
        assert squeeze(info["table"]) == squeeze(widget_text(want.children[2])), "the page's table is its seat's own"
        shown = board.evaluate("""(v) => [...v.querySelectorAll('button, label, option')]
            .filter(e => e.offsetParent !== null).map(e => e.textContent.trim())""")
        assert "hint" in shown
        for label in ("new game", "step ▶", "run ▶▶", "agents move by themselves", "reveal all", "↶ undo"):
            assert label not in shown, label
        screenshot(page, "lock-locked-board", board)

        unlocked = page_board(page, f"{url}&{LINK.replace('lock=1', 'lock=0')}")
        assert squeeze(board_info(unlocked)["table"]) != squeeze(info["table"]), "lock=0 dealt the locked link's cards"
        assert "reveal all" in squeeze(unlocked.inner_text())  # a board without the lock: of another deal
        page.context.close()
