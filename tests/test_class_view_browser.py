"""Issue W, item 6 in a real browser: on the teacher's page (Voila, the
class app), the wall's *show to the class* opens a room in progress as the
class may see it, in projector size, in a tab of its own; the page names
no card that either pupil keeps hidden, shows the table, whose turn and
the last move as the class may read them, and follows the room's next move
by itself.  Screenshots: test-artifacts/screenshots/class-view-toritsuki.png
(a 1080p projector's screen) and class-view-toritsuki-whole.png.
"""

from __future__ import annotations

import random
import re

import pytest
from test_rooms import play_out

import cardlab
from cardlab import render
from cardlab.rooms import RoomStore
from cardlab.widgets.projector import PROJECTOR_CLASS

from browser_support import ROOT, screenshot, teacher_page, until, voila

pytestmark = pytest.mark.browser

WAIT = 90  # seconds: a kernel's start on the shared 2-core machine, the page's poll


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _plain(fragment: str) -> str:
    """The text of an HTML fragment as a page shows it (tags dropped, entities read)."""
    import html

    return squeeze(html.unescape(re.sub(r"<[^>]+>", " ", fragment)))


def hidden_cards(state) -> list[int]:
    """Toritsuki: the numbers of the cards in either pupil's hand that are in
    no public place (no copy of them in a front or back row)."""
    players = state.to_dict()["players"]
    public = {c[0] for p in players for row in ("front", "back") for c in p[row]}
    return sorted({n for p in players for n in p["hand"]} - public)


def test_W6_show_to_the_class_opens_a_room_with_no_hidden_card(browser, tmp_path, monkeypatch):
    db = tmp_path / "class.db"
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    store = RoomStore(db)
    store.pairings("toritsuki", ["Aiko", "Ben"], seed=2)
    rng = random.Random(7)
    play_out(store, "R1", rng, moves=14)  # a room in progress: hands, deck and rows filled
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        context, teacher, _make = teacher_page(browser, url, store, "make rooms", WAIT)
        link = teacher.locator("a.class-view").first
        until(lambda: link.count(), bool, "the wall's show to the class", WAIT)
        assert squeeze(link.inner_text()) == "show to the class"
        assert "view=class" in link.get_attribute("href") and "projector=1" in link.get_attribute("href")
        with context.expect_page(timeout=WAIT * 1000) as opened:
            link.click()
        page = opened.value  # the projector's tab
        view = page.locator(".cardlab-class-view")
        until(lambda: view.count(), bool, "the class's view", WAIT)
        state = store.state("R1")
        want_table = re.sub(r"\s+", "", _plain(render.html(state, perspective=render.SPECTATOR)))
        until(lambda: re.sub(r"\s+", "", view.text_content()), lambda t: want_table in t, "the class's table", WAIT)
        text = squeeze(view.text_content())
        assert "shown to the class: no hidden card" in text and "as seen by the class" in text
        assert PROJECTOR_CLASS in view.get_attribute("class")
        hidden = hidden_cards(state)
        assert hidden, "no card is hidden: the test would test nothing"
        for n in hidden:  # a card shows as "#7 Shiofuki-gani ..."; a hidden one is only counted
            assert not re.search(rf"#{n}\b", text), f"card #{n} of a hand is on the class's page"
        teacher_text = _plain(render.html(state, perspective=None))
        assert all(re.search(rf"#{n}\b", teacher_text) for n in hidden)  # the check can fail
        # a pupil moves: the class's page follows by itself (its poll), the last move as the class reads it
        before = store.seq("R1")
        play_out(store, "R1", rng, moves=1)
        s = store.room("R1").load().new_initial_state()
        for player, action in store.moves("R1"):
            if player >= 0:
                prev, last = s, action
            s = s._apply(action)
        line = render.seen_move(prev, last, render.SPECTATOR).sentence
        until(lambda: re.sub(r"\s+", "", view.text_content()), lambda t: re.sub(r"\s+", "", line) in t,
              "the next move on the page", WAIT)
        assert store.seq("R1") > before
        text = squeeze(view.text_content())
        assert not any(re.search(rf"#{n}\b", text) for n in hidden_cards(store.state("R1")))
        page.set_viewport_size({"width": 1280, "height": 3900})  # tall enough for the whole view, both hands
        screenshot(page, "class-view-toritsuki-whole")
        page.set_viewport_size({"width": 1920, "height": 1080})  # a projector
        path = screenshot(page, "class-view-toritsuki")
        print(f"screenshot: {path}; hidden cards checked: {hidden}")
        context.close()
    assert cardlab.load("toritsuki").spec.num_players == 2
