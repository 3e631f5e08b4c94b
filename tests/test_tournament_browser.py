"""Issue W, item 5, in a real browser (Voila): the teacher types four names
on the teacher's page, makes a two-round Swiss, the first round's games are
played (in the store, as the pupils' pages store them), *next round* makes
the second round's rooms at one click, and after the second round the page
shows the final standings with the pupils' names, in the store's order.
A pupil's one link for the whole tournament shows her game of round 1, then
of round 2 by itself when the teacher makes it."""

from __future__ import annotations

import random

import pytest

from cardlab.rooms import RoomStore
from cardlab.tournament_store import Tournaments

from browser_support import ROOT, screenshot, teacher_page, until, voila
from test_rooms import play_out
from test_rooms_browser import squeeze

pytestmark = pytest.mark.browser

WAIT = 120  # seconds: a kernel's start on the shared 2-core machine
PUPILS = ["Aiko", "Ben", "Chie", "Dai"]


def _standings(page) -> list[str]:
    """The names in the page's standings table, top first."""
    rows = page.locator("table.cardlab-standings tr")
    return [rows.nth(i).locator("td").nth(1).inner_text().strip() for i in range(1, rows.count())]


def _opponent(cups: Tournaments, tid: int, number: int, name: str) -> str:
    (game,) = [p for p in cups.rounds(tid)[number - 1] if name in (p.first, p.second)]
    return game.opponent(name)


def test_W_the_teacher_makes_a_two_round_tournament_and_the_standings_show_names(browser, tmp_path, monkeypatch):
    db = tmp_path / "class.db"
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    store = RoomStore(db)
    cups = Tournaments(store)
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        context, page, make = teacher_page(browser, url, store, "make the tournament", WAIT)
        page.get_by_placeholder("one pupil a line").fill("\n".join(PUPILS))
        page.get_by_role("combobox", name="rounds").select_option(label="2")
        make.click()
        until(lambda: squeeze(page.locator("body").inner_text()), lambda t: "round 1 of 2 is in the rooms" in t,
              "the tournament made", WAIT)
        (t,) = cups.all()
        assert (t.rounds, t.system, list(t.entrants)) == (2, "swiss", PUPILS)
        until(lambda: _standings(page), lambda names: sorted(names) == PUPILS, "the standings by name", WAIT)
        aiko = context.new_page()  # Aiko's one link for the whole tournament (another tab of the same browser)
        aiko.goto(f"{url}&{dict(cups.links(t.id))['Aiko'][1:]}", timeout=WAIT * 1000)
        first = _opponent(cups, t.id, 1, "Aiko")
        until(lambda: squeeze(aiko.locator("body").inner_text()), lambda x: f"you (Aiko) against {first}" in x,
              "Aiko's game of round 1", WAIT)
        for rid in cups.rooms(t.id, 1):
            play_out(store, rid, random.Random(1))
        page.locator("button", has_text="next round").click()
        until(lambda: squeeze(page.locator("body").inner_text()), lambda t: "round 2 of 2: 2 rooms made" in t,
              "the second round's rooms", WAIT)
        second = _opponent(cups, t.id, 2, "Aiko")
        assert second != first
        until(lambda: squeeze(aiko.locator("body").inner_text()), lambda x: f"you (Aiko) against {second}" in x,
              "Aiko's game of round 2 on her page, by itself", WAIT)
        screenshot(aiko, "tournament-pupil-round-2")
        screenshot(page, "tournament-round-2", page.locator(".cardlab-tournament"))
        for rid in cups.rooms(t.id, 2):
            play_out(store, rid, random.Random(2))
        page.locator("button", has_text="next round").click()
        until(lambda: squeeze(page.locator("body").inner_text()), lambda t: "final standings after 2 rounds" in t,
              "the final standings", WAIT)
        want = [r.name for r in cups.standings(t.id)]
        assert sorted(want) == PUPILS and cups.get(t.id).finished
        until(lambda: _standings(page), lambda names: names == want, f"the standings {want}", WAIT)
        text = squeeze(page.locator(".cardlab-tournament").inner_text())  # the tournament's section: names only
        assert "player" not in text and "round 2: " in text and "round 1: " in text
        assert all(text.count(name) >= 3 for name in PUPILS)  # the standings and both rounds
        screenshot(page, "tournament-final-standings", page.locator(".cardlab-tournament"))
        screenshot(page, "tournament-teacher-page")
        context.close()
    pairs = [frozenset((p.first, p.second)) for rnd in cups.rounds(t.id) for p in rnd]
    assert len(set(pairs)) == 4  # two rounds of two games, no rematch
