"""Issue W, item 6 (first half): the teacher's wall, every room of the
lesson at a glance on the teacher's page: whose turn, the last move, the
score; the archive's rooms are not on it."""

from __future__ import annotations

import random
import re

import pytest

from test_rooms import play_out

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL
from cardlab import render
from cardlab.rooms import RoomStore, outcome
from cardlab.widgets.room import Lobby
from cardlab.widgets.wall import glance, wall_html


def _last_players_move(store: RoomStore, rid: str) -> tuple:
    s = store.room(rid).load().new_initial_state()
    last = None
    for player, action in store.moves(rid):
        if player >= 0:
            last = (player, render.seen_move(s, action, None).label)
        s = s._apply(action)
    return last


def test_W_the_wall_shows_every_room_whose_turn_the_last_move_and_the_score(db):
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben", "Chie", "Dai", "Emi"], seed=3)
    store.pairings("mipig", ["Fumi", "Gen"], seed=4)
    play_out(store, "R1", random.Random(1), moves=5)
    play_out(store, "R2", random.Random(2))
    store.advance("R3")
    play_out(store, "R4", random.Random(3), moves=2)
    store.end("R4")
    cards = {rid: glance(store, rid) for rid in store.ids()}
    r1, r2, r3, r4 = (cards[r] for r in ("R1", "R2", "R3", "R4"))
    s1 = store.state("R1")
    assert r1.to_move == s1.current_player and r1.standing == f"{r1.names[s1.current_player]} to move"
    assert r1.moves == 5 and r1.scores == tuple(s1.score(p) for p in range(2))  # koinobori's points so far
    player, label = _last_players_move(store, "R1")
    assert r1.last == f"{r1.names[player]}: {label}"
    s2 = store.state("R2")
    assert r2.over and r2.to_move is None and r2.scores == tuple(s2.returns())
    assert r2.winners == tuple(outcome(s2)[1]) and r2.standing.startswith("over: ")
    assert r3.names == ("Emi", "heuristic") and r3.to_move == 0 and (r3.last, r3.moves) == ("", 0)
    assert r4.ended and r4.to_move is None and r4.standing == "ended by the teacher" and r4.scores == ()
    page = wall_html(store)
    assert re.findall(r'data-room="(R\d)"', page) == ["R1", "R2", "R3", "R4"]
    assert 'class="card over"' in page and 'class="card ended"' in page
    assert page.count('class="turn"') == 2  # R1's and R3's player to move; none in a room over or ended
    store.new_lesson()
    assert wall_html(store) == ""  # the archive's rooms leave the wall


def test_W_the_teachers_page_shows_the_wall_and_it_follows_the_moves(db):
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben"], seed=1)
    lobby = Lobby(store, poll=None)
    assert lobby.wall in lobby.children and 'data-room="R1"' in lobby.wall.value
    assert "no move yet" in lobby.wall.value
    play_out(store, "R1", random.Random(4), moves=1)
    lobby.refresh()  # what the page's poll does every two seconds
    player, label = _last_players_move(store, "R1")
    assert f"last: {['Aiko', 'Ben'][player]}: {label}" in lobby.wall.value
    # a room's *watch* button shows it below with every card (the teacher's view)
    assert not lobby.watch_html.value or lobby.watch.value == "R1"
    lobby.watch.value = None
    buttons = [b for b in lobby.wall.children[1].children if isinstance(b, type(lobby.export_button))]
    buttons[0].click()
    assert lobby.watch.value == "R1" and lobby.watch_html.value == render.html(store.state("R1"))


def test_W_the_wall_says_whose_page_is_open(db, monkeypatch):
    """W item 6: a pupil's open page tells the store it is there (at most
    every few seconds, from its poll); the wall marks the seat ● while it
    does and ○ once it has not for a while (or never did); an agent's seat
    gets no mark."""
    import cardlab.presence as presence
    from cardlab.widgets.room import RoomBoard

    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben", "Chie"], seed=3)  # R1 Aiko v Ben, R2 Chie v an agent
    clock = [1000.0]
    monkeypatch.setattr(presence.time, "time", lambda: clock[0])
    aiko = RoomBoard(store, "R1", 0, poll=None)
    aiko._fetch()  # what its poll does every half second
    chie = RoomBoard(store, "R2", 0, poll=None)
    chie._fetch()
    assert glance(store, "R1").connected == (True, False)  # Ben has not opened his link
    assert glance(store, "R2").connected == (True, None)
    page = wall_html(store)
    assert page.count('class="on"') == 2 and page.count('class="away"') == 1
    clock[0] += presence.AWAY_AFTER + 1  # Aiko's laptop asleep: no poll since
    chie._seen_at = float("-inf")
    chie._fetch()
    assert glance(store, "R1").connected == (False, False) and glance(store, "R2").connected == (True, None)
