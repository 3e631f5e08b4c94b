"""The hand-out (issue W, item 2) in a real browser, on Voila: the teacher's
page makes the sheet; printed, it is A4, two pages for eleven pupils; its QR
codes decode to the pupils' links (zxing-cpp reads the printed page's
picture, when installed), and a decoded link opens that pupil's board; a
pupil who types their code on the join page (``?join=CODE``) or in the class
app's start page gets their board too."""

from __future__ import annotations

import base64
import io
import re

import pytest

from cardlab.handout import slips
from cardlab.rooms import RoomStore

from browser_support import ROOT, screenshot, until, voila
from test_rooms_browser import squeeze

pytestmark = pytest.mark.browser

WAIT = 120  # seconds: a kernel's start on the shared 2-core machine
CLASS = "http://class.example/"  # the address the sheet's links carry (PLAY_URL): the test opens them on its server
PUPILS = ["Aiko", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen", "Hana", "Ichiro", "Jun", "Kenji"]


def _open_seat(page, url: str, what: str) -> str:
    page.goto(url, timeout=WAIT * 1000)
    return until(lambda: squeeze(page.locator("body").inner_text()), lambda t: what in t and "hint" in t,
                 what, WAIT)


def test_the_sheet_prints_on_a4_and_its_codes_open_the_pupils_boards(browser, tmp_path, monkeypatch):
    db = tmp_path / "class.db"
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    monkeypatch.setenv("PLAY_URL", CLASS)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    store = RoomStore(db)
    store.pairings("koinobori", PUPILS, seed=2)
    want = slips(store, CLASS)
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 1600})
        page = context.new_page()
        page.goto(f"{url}&teacher={store.key(None, 'teacher')}", timeout=WAIT * 1000)
        until(lambda: page.locator("button", has_text="hand-out sheet").count(), bool, "the teacher's page", WAIT)
        page.locator("button", has_text="hand-out sheet").click()
        link = page.locator("a[download]")
        until(lambda: link.count(), bool, "the sheet's link", WAIT)
        screenshot(page, "handout-teacher-page")
        href = link.get_attribute("href")
        sheet = base64.b64decode(href.split("base64,", 1)[1]).decode("utf-8")
        assert sheet.count('<div class="slip">') == len(PUPILS)
        assert (tmp_path / "class-export" / store.lesson().name / "handout.html").read_text("utf-8") == sheet

        printed = context.new_page()
        printed.set_content(sheet)
        pdf = printed.pdf(prefer_css_page_size=True)
        assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == 2  # eight slips a page
        box = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
        assert box and (round(float(box.group(1))), round(float(box.group(2)))) == (595, 842)  # A4 in points
        picture = screenshot(printed, "handout-sheet")
        decoded = _decode(picture)
        if decoded is not None:
            assert decoded == {s.link for s in want}, "the QR codes are the pupils' links"
        chie = next(s for s in want if s.pupil == "Chie")
        text = _open_seat(page, f"{url}&{chie.link[len(CLASS) + 1:]}", "you (Chie) against Dai")
        assert "room R2" in text

        aiko = want[0]  # by code, on the join page (typed in small letters)
        text = _open_seat(page, f"{url}&join={aiko.code.lower()}", "you (Aiko) against Ben")
        screenshot(page, "handout-joined-by-code")
        page.goto(url, timeout=WAIT * 1000)  # the class app's start page: the join box
        until(lambda: page.locator("button", has_text="join").count(), bool, "the join box", WAIT)
        ben = want[1]
        page.get_by_placeholder("ABCD").fill(ben.code)
        page.locator("button", has_text="join").click()
        until(lambda: squeeze(page.locator("body").inner_text()), lambda t: "you (Ben) against Aiko" in t,
              "Ben's board from the start page", WAIT)
        context.close()


def _decode(png) -> set[str] | None:
    """The texts of every QR code in the picture (None: no decoder here)."""
    try:
        import zxingcpp
        from PIL import Image
    except ImportError:
        return None
    image = Image.open(io.BytesIO(png.read_bytes()) if hasattr(png, "read_bytes") else png).convert("L")
    return {r.text for r in zxingcpp.read_barcodes(image)}
