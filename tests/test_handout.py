"""Issue W, item 2: the hand-out.  A slip a pupil (name, room, seat, the
full link, a QR code of it and a four-letter code), a printable A4 sheet
from the teacher's page and from ``cardlab rooms --sheet FILE``, and the
join page where a pupil types the code instead of the link."""

from __future__ import annotations

import base64
import re
import subprocess
import sys

import pytest

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL
from cardlab.handout import SLIPS_A_PAGE, qr_svg, sheet_html, slips
from cardlab.rooms import CODE_LETTERS, RoomError, RoomStore
from cardlab.widgets.room import JoinBox, Lobby, RoomBoard, room_page

BASE = "http://192.168.1.5:8866/"
PUPILS = ["Aiko", "Ben", "Chie", "Dai", "Emi", "Fumi", "Gen", "Hana", "Ichiro", "Jun", "Kenji"]


@pytest.fixture
def store(db):
    s = RoomStore(db)
    s.pairings("koinobori", PUPILS, seed=1)  # five rooms of two, Kenji against the heuristic agent
    return s


def test_W_a_slip_a_pupil_with_the_full_link_and_a_code_of_four_plain_letters(store, tmp_path):
    got = slips(store, BASE)
    assert [s.pupil for s in got] == PUPILS  # the agent's seat gets none
    assert [(s.room, s.seat) for s in got[:3]] == [("R1", 0), ("R1", 1), ("R2", 0)]
    assert got[0].opponents == "Ben" and got[-1].opponents == "heuristic" and got[0].game.startswith("Koi-koi Nobori")
    for s in got:
        assert s.link == f"{BASE}?room={s.room}&seat={s.seat}&key={store.key(s.room, s.seat)}"
        assert len(s.code) == 4 and set(s.code) <= set(CODE_LETTERS)
    assert not set(CODE_LETTERS) & set("IL0O1S5Z2B8G6")  # no letter read as another one or a digit
    assert len({s.code for s in got}) == len(got)
    again = RoomStore(store.path)  # the codes are kept: a sheet printed yesterday still works
    assert [s.code for s in slips(again, BASE)] == [s.code for s in got]


def test_W_a_code_opens_its_seat_typed_in_any_case(store):
    aiko, ben = slips(store, BASE)[:2]
    assert store.join(aiko.code) == ("R1", 0) and store.join(ben.code.lower()) == ("R1", 1)
    assert store.join(f" {ben.code[:2]}-{ben.code[2:].lower()} ") == ("R1", 1)
    unused = next(c for c in (a + b + c + d for a in "AC" for b in "DE" for c in "FH" for d in "JK")
                  if c not in {s.code for s in slips(store, BASE)})
    with pytest.raises(RoomError, match="no seat has the code"):
        store.join(unused)
    with pytest.raises(RoomError, match="no pupil's seat 1"):
        store.code("R6", 1)  # the agent's seat
    store.remove("R1")
    with pytest.raises(RoomError):
        store.join(aiko.code)  # a removed room's codes go with it


def test_W_the_join_page_opens_the_pupils_room_from_the_code(store, monkeypatch):
    from cardlab.widgets import play_app

    chie = slips(store, BASE)[2]
    page = room_page(f"join={chie.code.lower()}", store)
    board = page.children[0].children[1]
    assert isinstance(board, RoomBoard) and (board.room_id, board.seat) == ("R2", 0)
    assert "you (Chie) against Dai" in page.children[0].children[0].value
    box = room_page("join", store)  # no code yet: the box to type it in
    assert isinstance(box, JoinBox) and box.code.value == ""
    box.code.value = "QQQQ" if chie.code != "QQQQ" else "AAAA"
    assert box.join() is None and "no seat has the code" in box.message.value
    box.code.value = chie.code
    assert box.join() is box.children[0] and box.children[0].children[1].seat == 0
    monkeypatch.setenv("CARDLAB_ROOMS", store.path)
    ja = play_app(query=f"join={chie.code}&lang=ja")
    assert isinstance(ja, JoinBox) and "ルーム R2" in ja.children[0].children[0].value  # the room's page, Japanese
    # the start page of the class app has the box too: joining puts the room in the page's place
    app = play_app(query="")
    assert app.children[1] is app.join_box and app.join_box.code.description == "your code"
    app.join_box.code.value = chie.code
    app.join_box.join_button.click()
    assert len(app.children) == 1 and app.children[0].children[1].room_id == "R2"


def test_W_the_sheet_is_laid_out_for_a4_with_every_pupils_link_qr_and_code(store):
    text = sheet_html(store, BASE)
    got = slips(store, BASE)
    assert "@page { size: A4" in text and text.count('class="page"') == -(-len(got) // SLIPS_A_PAGE) == 2
    assert text.count('<div class="slip">') == len(got)
    for s in got:  # each slip's QR code is the code of its own pupil's link (not a neighbour's)
        slip = re.search(r'<div class="slip">((?:(?!<div class="slip">).)*?' + re.escape(s.code) + ")", text, re.S)
        assert slip and f'<div class="name">{s.pupil}</div>' in slip.group(1)
        assert qr_svg(s.link) in slip.group(1) and s.link.replace("&", "&amp;") in text
    assert f"{BASE}?join" in text and "0.0.0.0" not in text and "127.0.0.1" not in text
    ja = sheet_html(store, BASE, language="ja")
    assert '<html lang="ja">' in ja and ja.count('<div class="slip">') == len(got)


def test_W_the_teachers_page_makes_the_sheet_and_shows_each_seats_code(store):
    lobby = Lobby(store, poll=None, base=BASE)
    for s in slips(store, BASE):
        assert f"seat {s.seat} ({s.pupil}, code {s.code})" in lobby.rooms_html.value
    lobby.sheet_button.click()
    path = lobby.hand_out()
    assert path.name == "handout.html" and path.parent.name == store.lesson().name
    data = re.search(r'href="data:text/html;charset=utf-8;base64,([^"]+)"', lobby.sheet_link.value).group(1)
    assert base64.b64decode(data).decode("utf-8") == path.read_text("utf-8") == sheet_html(store, BASE)
    store.new_lesson()  # the next lesson's sheet has none of the archive's pupils
    assert Lobby(store, poll=None, base=BASE).hand_out().read_text("utf-8").count('<div class="slip">') == 0


def test_W_cardlab_rooms_writes_the_sheet(store, tmp_path, capsys, monkeypatch):
    from cardlab.cli import main

    out = tmp_path / "sheets" / "today.html"
    assert main(["rooms", "--db", store.path, "--url", BASE, "--sheet", str(out)]) == 0
    assert str(out) in capsys.readouterr().out and out.read_text("utf-8") == sheet_html(store, BASE)
    monkeypatch.setenv("PLAY_URL", "http://cards.school.example/")  # no --url: the class's address
    assert main(["rooms", "--db", store.path, "--sheet", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "http://cards.school.example/?teacher=" in printed
    assert "http://cards.school.example/?room=R1&amp;seat=0" in out.read_text("utf-8")


def test_W_import_cardlab_does_not_need_segno_only_the_sheet_does(tmp_path):
    code = """
import sys
sys.modules["segno"] = None  # segno not installed
import cardlab, cardlab.rooms, cardlab.handout, cardlab.cli
from cardlab.rooms import RoomStore
store = RoomStore(sys.argv[1])
store.pairings("koinobori", ["Aiko", "Ben"])
assert cardlab.handout.slips(store, "http://x/")[0].code
try:
    cardlab.handout.sheet_html(store, "http://x/")
except cardlab.CardlabError as exc:
    assert "segno" in str(exc), exc
    print("refused")
"""
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "c.db")], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "refused", done.stderr


def test_a_tournament_gives_each_pupil_one_slip_for_all_its_rounds(db):
    """The rooms of a tournament's rounds get no slips of their own: each
    pupil gets one with the tournament's link and code (which open their
    game of every round), and the sheet says so."""
    from cardlab.rooms import RoomStore
    from cardlab.tournament_store import Tournaments
    from cardlab.handout import sheet_html, slips

    store = RoomStore(db)
    cups = Tournaments(store)
    t = cups.create(["Aiko", "Ben", "Chie", "Dai"], game="mipig", system="round_robin")
    out = slips(store, "http://10.0.0.5:8866/")
    assert [s.pupil for s in out] == ["Aiko", "Ben", "Chie", "Dai"]
    links = dict(cups.links(t.id, "http://10.0.0.5:8866/"))
    assert all(s.tournament == t.label() and s.link == links[s.pupil] and s.code == cups.code(t.id, s.pupil)
               for s in out)
    page = sheet_html(store, "http://10.0.0.5:8866/", language="en")
    assert "your game of every round opens from this slip" in page and "?room=R1&amp;seat=0" not in page
