"""Issue R in a real browser: two pupils, each in their own browser
context (two laptops), play a whole game of Koi-koi Nobori through their
room links on one Voila server; after every move each page's move log is
exactly what its seat may read (the seen_move lines of issue I) and the
other page shows the move by itself.  Midway the server stops and starts
again: both pupils reload their links and finish the game.
"""

from __future__ import annotations

import os

import pytest

from cardlab import render
from cardlab.rooms import RoomStore, read_export, replay

from browser_support import ROOT, board_info, board_locator, ensure_chromium, log_count, screenshot, until, voila

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (cardlab's test extra)")
    from playwright.sync_api import sync_playwright

    chromium = ensure_chromium()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True)
        yield b
        b.close()


def expected_log(store: RoomStore, room_id: str, seat: int) -> list[str]:
    """The move log the page of ``seat`` must show: each stored move as
    that seat may read it (render.seen_move), nothing more."""
    room = store.room(room_id)
    s = room.load().new_initial_state()
    lines = []
    for i, (player, action) in enumerate(store.moves(room_id), 1):
        who = "chance" if player < 0 else f"P{player} ({room.seats[player]})"
        lines.append(f"{i}. {who}: {render.seen_move(s, action, seat).label}")
        s = s.apply(action)
    return lines


def open_pages(browser, url: str, store: RoomStore, room_id: str):
    pages = []
    for link in store.links(room_id):
        context = browser.new_context(viewport={"width": 1280, "height": 1800})  # a laptop of its own
        page = context.new_page()
        page.goto(url.replace("/?", "/" + link + "&", 1), timeout=90_000)
        pages.append(page)
    return pages


def board_of(page):
    until(lambda: page.locator("button", has_text="hint").count(), bool, "the pupil's board", 90)
    return board_locator(page.locator("body"))


def test_R_two_pupils_on_two_laptops_finish_a_game_across_a_restart(browser, tmp_path):
    db = tmp_path / "class-rooms.db"
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "person"], seed=3, name="Aiko v Ben")
    old = os.environ.get("CARDLAB_ROOMS")
    os.environ["CARDLAB_ROOMS"] = str(db)  # the server's kernels open this store
    try:
        moves_before_restart = 4
        for part in ("before", "after"):
            (tmp_path / part).mkdir()
            with voila(ROOT / "notebooks" / "play.ipynb", tmp_path / part) as url:
                pages = open_pages(browser, url, store, room.id)
                boards = [board_of(p) for p in pages]
                played = 0
                while not store.state(room.id).is_terminal():
                    s = store.state(room.id)
                    n = store.seq(room.id)
                    for seat, b in enumerate(boards):  # every page shows the room as its seat may read it
                        want = expected_log(store, room.id, seat)
                        info = until(lambda: board_info(b), lambda i: log_count(i) == len(want),
                                     f"page {seat}: the room's {len(want)} moves")
                        assert info["log"] == want, (seat, info["log"], want)
                    mover = boards[s.current_player]
                    until(lambda: board_info(mover)["offers"], bool, "the mover's buttons")
                    assert not board_info(boards[1 - s.current_player])["offers"]
                    mover.locator("button.cardlab-offer").first.click()
                    until(lambda: store.seq(room.id), lambda m: m > n, "the move stored")
                    played += 1
                    if part == "before" and played == moves_before_restart:
                        screenshot(pages[0], "room-koinobori-before-restart")
                        break
                if part == "after":
                    for seat, b in enumerate(boards):
                        until(lambda: board_info(b)["status"], lambda t: t.startswith("Game over: "),
                              f"page {seat}: the end")
                    screenshot(pages[1], "room-koinobori-end")
                for p in pages:
                    p.context.close()
    finally:
        if old is None:
            os.environ.pop("CARDLAB_ROOMS", None)
        else:
            os.environ["CARDLAB_ROOMS"] = old
    end = store.state(room.id)
    assert end.is_terminal()
    games, _ = store.export(tmp_path / "export")
    assert replay(read_export(games)[0])[-1] == end
