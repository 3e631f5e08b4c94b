"""Issue W, item 3: lessons.  The class list is kept between lessons (typed
once, in the room store); "new lesson" ends the lesson's rooms and keeps them
in the archive (out of the list, the watch picker and the export); a room can
be ended, reset or removed; making rooms twice for the same pupils asks
first; the export is a lesson's, and results.csv's lesson column names it."""

from __future__ import annotations

import csv
import random
import time

import pytest
from test_rooms import play_out

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL
from cardlab.rooms import DuplicateRoomsError, RoomEndedError, RoomError, RoomStore, read_export
from cardlab.widgets.room import Lobby, RoomBoard, room_page


def test_W_the_class_list_is_typed_once_and_kept_between_lessons(db):
    store = RoomStore(db)
    assert store.roster() == [] and Lobby(store, poll=None).names.value == ""
    lobby = Lobby(store, poll=None)
    lobby.names.value = "Aiko\nBen\n\n Chie \nBen\n"
    lobby.make_button.click()
    assert store.roster() == ["Aiko", "Ben", "Chie"]  # blank lines and a repeat dropped
    store.new_lesson()
    again = RoomStore(db)  # another day, the server started again
    assert again.roster() == ["Aiko", "Ben", "Chie"]
    assert Lobby(again, poll=None).names.value == "Aiko\nBen\nChie"  # the next lesson's page has the names


def test_W_a_new_lesson_archives_the_rooms_out_of_the_list_the_picker_and_the_export(db, tmp_path):
    store = RoomStore(db)
    first = store.pairings("koinobori", ["Aiko", "Ben", "Chie", "Dai"], seed=1)
    play_out(store, "R1", random.Random(2))
    play_out(store, "R2", random.Random(2), moves=2)
    lesson1 = store.lesson()
    assert lesson1.name == time.strftime("%Y-%m-%d") and lesson1.ended is None
    assert store.ids() == ["R1", "R2"] and [r.lesson for r in first] == [lesson1.name] * 2
    lesson2 = store.new_lesson()
    assert lesson2.name == f"{lesson1.name} (2)" and store.lesson(lesson1.id).ended is not None
    assert store.ids() == [] and store.summary() == [] and store.ids(lesson1.id) == ["R1", "R2"]
    assert store.ended("R1") and store.ended("R2")
    with pytest.raises(RoomEndedError, match="R2 was ended"):  # the archive's rooms take no more moves
        store.play("R2", store.seq("R2"), store.state("R2").legal_actions()[0])
    lobby = Lobby(store, poll=None)
    assert list(lobby.watch.options) == [] and "no rooms yet" in lobby.rooms_html.value
    store.pairings("koinobori", ["Aiko", "Ben"], seed=5)  # no "asks first": the old rooms are over or ended
    lobby.refresh()
    assert list(lobby.watch.options) == ["R3"] and "R1" not in lobby.rooms_html.value
    # the export is this lesson's; the archive's lesson exports on its own
    games, results = store.export(tmp_path / "now")
    assert [g["room"] for g in read_export(games)] == ["R3"]
    rows = list(csv.DictReader(results.open(encoding="utf-8")))
    assert {r["lesson"] for r in rows} == {lesson2.name} and len(rows) == 2
    games, results = store.export(tmp_path / "then", lesson=lesson1.id)
    assert [g["room"] for g in read_export(games)] == ["R1", "R2"]
    assert {g["lesson"] for g in read_export(games)} == {lesson1.name}
    rows = list(csv.DictReader(results.open(encoding="utf-8")))
    assert [r["lesson"] for r in rows] == [lesson1.name] * 4 and rows[0]["result"] in ("win", "loss", "draw")
    named = store.new_lesson("fractions, week 3")
    assert store.lessons()[-1] == named and named.name == "fractions, week 3" and store.ended("R3")


def test_W_a_room_can_be_ended_and_its_pupils_pages_say_so(db):
    store = RoomStore(db)
    store.pairings("mipig", ["Aiko", "Ben"], seed=2)
    pages = [RoomBoard(RoomStore(db), "R1", seat, poll=None) for seat in (0, 1)]
    mover = pages[store.state("R1").current_player]
    assert mover.action_buttons
    store.end("R1")
    assert store.ended("R1") and store.ids() == ["R1"]  # it stays in the list, with its moves
    mover._fetch()  # the page's poll
    assert not mover.action_buttons and "The teacher ended this room" in mover.status.value
    with pytest.raises(RoomEndedError):
        store.play("R1", store.seq("R1"), store.state("R1").legal_actions()[0])
    assert Lobby(store, poll=None).rooms_html.value.count("ended by the teacher") == 1
    assert store.busy(["Aiko", "Ben"]) == []  # an ended room is no reason to ask


def test_W_a_reset_room_starts_from_its_first_deal_and_the_pages_follow(db):
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben"], seed=7)
    start = store.state("R1")
    page = RoomBoard(RoomStore(db), "R1", 0, poll=None)
    play_out(store, "R1", random.Random(1), moves=5)
    store.end("R1")
    page._fetch()
    assert page.state == store.state("R1") != start and page._ended
    assert store.reset("R1") == start and not store.ended("R1")  # the same deal, and it goes on
    page._fetch()
    assert page.state == start and not page._ended
    assert (page.action_buttons != {}) == (start.current_player == 0)


def test_W_a_removed_room_is_gone_and_its_links_open_nothing(db):
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben", "Chie", "Dai"])
    link = store.links("R1")[0]
    stale = RoomStore(db)
    page = RoomBoard(stale, "R1", 0, poll=None)  # a page open on another kernel
    store.remove("R1")
    assert store.ids() == ["R2"] and store.moves("R2")
    with pytest.raises(RoomError):
        store.room("R1")
    assert "does not open a room" in room_page(link[1:], store).value
    with pytest.raises(RoomError, match="R1 was removed"):
        page._fetch()  # the page's poll shows the message; nothing is written for a removed room
    assert store._db.execute("SELECT COUNT(*) FROM moves WHERE room='R1'").fetchone()[0] == 0
    assert store.create("koinobori", ["person", "person"]).id == "R2-" + store.ids()[-1].split("-")[1]  # no clash


def test_W_making_rooms_twice_for_the_same_pupils_asks_first(db):
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben", "Chie", "Dai"])
    with pytest.raises(DuplicateRoomsError, match="Ben, Chie already play") as exc:
        store.pairings("koinobori", ["Ben", "Chie", "Emi"])
    assert exc.value.pupils == ["Ben", "Chie"] and store.ids() == ["R1", "R2"]  # nothing made
    assert [r.id for r in store.pairings("koinobori", ["Ben", "Chie"], again=True)] == ["R3"]
    play_out(store, "R1", random.Random(3))
    assert store.busy(["Aiko", "Ben", "Dai"]) == ["Ben", "Dai"]  # Aiko's game is over: Ben plays in R3

    lobby = Lobby(store, poll=None)
    lobby.names.value = "Dai\nEmi"
    lobby.make_button.click()
    assert "Dai already play" in lobby.message.value and store.ids() == ["R1", "R2", "R3"]  # asked, not made
    assert lobby.confirm_button.layout.display is None
    lobby.cancel_button.click()
    assert store.ids() == ["R1", "R2", "R3"] and lobby.confirm_button.layout.display == "none"
    lobby.confirm_button.click()  # nothing asked now: nothing done
    assert store.ids() == ["R1", "R2", "R3"]
    lobby.make_button.click()
    lobby.confirm_button.click()
    assert store.ids() == ["R1", "R2", "R3", "R4"] and store.room("R4").pupils == ("Dai", "Emi")
    assert "1 rooms made" in lobby.message.value and "R4" in lobby.rooms_html.value


def test_W_the_teachers_page_ends_resets_removes_and_begins_a_new_lesson(db, tmp_path):
    store = RoomStore(db)
    lobby = Lobby(store, poll=None)
    lobby.end_button.click()
    assert "choose a room under watch first" in lobby.message.value
    lobby.names.value = "Aiko\nBen\nChie\nDai"
    lobby.make_button.click()
    lobby.watch.value = "R1"
    play_out(store, "R1", random.Random(5), moves=3)
    lobby.reset_button.click()
    assert "Its 3 moves are dropped" in lobby.message.value  # asked: not done yet
    assert sum(p >= 0 for p, _a in store.moves("R1")) == 3
    lobby.confirm_button.click()
    assert all(p < 0 for p, _a in store.moves("R1")) and "starts again" in lobby.message.value  # the deal only
    lobby.end_button.click()
    assert store.ended("R1") and "R1 ended" in lobby.message.value
    lobby.watch.value = "R2"
    lobby.remove_button.click()
    assert store.ids() == ["R1", "R2"]
    lobby.confirm_button.click()
    assert store.ids() == ["R1"] and list(lobby.watch.options) == ["R1"]
    old = store.lesson()
    lobby.lesson_name.value = "week 2"
    lobby.new_lesson_button.click()
    assert f"end lesson {old.name} and its 1 rooms" in lobby.message.value and store.ids() == ["R1"]
    lobby.confirm_button.click()
    assert store.ids() == [] and store.lesson().name == "week 2" and list(lobby.watch.options) == []
    assert "Lesson week 2: 0 rooms; 1 past lessons" in lobby.lesson_html.value
    assert [label for label, _v in lobby.lesson_picker.options] == ["week 2 (this lesson)", old.name]
    lobby.lesson_picker.value = old.id  # the archive's lesson, exported to a folder of its own
    lobby.export_button.click()
    games = tmp_path / "class-export" / old.name / "games.json"
    assert [g["room"] for g in read_export(games)] == ["R1"]


def test_W_an_older_store_gets_its_rooms_into_a_first_lesson(db):
    from cardlab.store_db import open_database

    old = open_database(db)  # its tables made as an older cardlab made them, in SQLite or PostgreSQL
    old.create("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE rooms (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
            seed INTEGER NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL, pupils TEXT NOT NULL DEFAULT '[]');
        CREATE TABLE moves (room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, player INTEGER NOT NULL,
            action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, seq));
        INSERT INTO rooms VALUES ('R1', 'Aiko v Ben', 'koinobori', '{}', 3, '["person", "person"]', 0, '[]');""")
    old.close()
    store = RoomStore(db)
    assert store.ids() == ["R1"] and len(store.lessons()) == 1 and not store.ended("R1")
    assert store.room("R1").lesson == store.lesson().name
    assert len(RoomStore(db).lessons()) == 1  # opened again: still one lesson
