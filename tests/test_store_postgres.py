"""Issue W, item 10: a school's class rooms on PostgreSQL.  The store's own
tests (test_rooms, test_lessons, test_tournament, test_puzzle_store,
test_lessons_wall) run on both backends through ``pg_support.db``; these
check what only PostgreSQL has: the address and its errors, psycopg loaded
only for it, several app servers (processes) moving in one room at once,
and the test server itself."""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import subprocess
import sys
import time

import pytest

import pg_support
from browser_support import free_port

from cardlab.core import CHANCE
from cardlab.rooms import RoomStore, StaleMoveError, default_path
from cardlab.store_db import PostgreSQL, StoreError, errors, shown


@pytest.fixture
def pg(request, tmp_path, monkeypatch):
    """A new database on the tests' server (the working folder: ``tmp_path``)."""
    url = pg_support.server(request.config).new_database()
    monkeypatch.chdir(tmp_path)
    return url


def test_W_import_cardlab_needs_no_psycopg():
    """psycopg is imported only when a postgresql:// store is opened: not by
    cardlab, its rooms, its command line, or a SQLite store."""
    code = ("import sys, tempfile, os, cardlab, cardlab.rooms, cardlab.cli, cardlab.tournament_store, "
            "cardlab.puzzle_store, cardlab.presence\n"
            "cardlab.rooms.RoomStore(os.path.join(tempfile.mkdtemp(), 'c.db')).create('koinobori', ['person'] * 2)\n"
            "print('psycopg' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_W_without_psycopg_a_postgresql_store_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg: ImportError
    with pytest.raises(StoreError, match=r"needs psycopg: pip install 'cardlab\[school\]'") as caught:
        RoomStore("postgresql://cardlab@127.0.0.1:5432/class")
    assert caught.value.__suppress_context__


@pytest.mark.parametrize("url, wrong", [
    ("postgresql://cardlab@127.0.0.1:port/class", "Port could not be cast to integer"),
    ("postgresql://cardlab@127.0.0.1:99999/class", "Port out of range"),
    ("postgresql://cardlab@127.0.0.1/class?colour=blue", "colour"),
])
def test_W_a_malformed_address_says_what_was_wrong_and_what_is_accepted(url, wrong):
    with pytest.raises(StoreError) as caught:
        RoomStore(url)
    message = str(caught.value)
    assert message.startswith(f"{url}: not a PostgreSQL address (") and wrong in message
    assert "a SQLite file (class-rooms.db) or postgresql://USER:PASSWORD@HOST:PORT/DATABASE" in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__  # no psycopg traceback


def test_W_an_unreachable_server_says_so_without_the_password():
    url = f"postgresql://teacher:s3cret@127.0.0.1:{free_port()}/class"  # nothing listens there
    start = time.monotonic()
    with pytest.raises(StoreError) as caught:
        RoomStore(url, timeout=3)
    message = str(caught.value)
    assert time.monotonic() - start < 30
    assert message.startswith("postgresql://teacher:***@127.0.0.1:")
    assert "cannot open the class's rooms on the PostgreSQL server (" in message and "refused" in message
    assert "s3cret" not in message and "\n" not in message
    assert "postgresql://USER:PASSWORD@HOST:PORT/DATABASE" in message


def test_W_a_pupils_link_says_the_school_server_does_not_answer(monkeypatch):
    from cardlab.widgets import play_app

    monkeypatch.setenv("CARDLAB_ROOMS", f"postgresql://teacher:s3cret@127.0.0.1:{free_port()}/class")
    page = play_app(query="room=R1&seat=0&key=0123456789abcdef")
    assert "This link does not open a room: postgresql://teacher:***@127.0.0.1:" in page.value
    assert "cannot open the class&#x27;s rooms on the PostgreSQL server" in page.value and "s3cret" not in page.value


def test_W_a_database_that_is_not_there_is_named(pg):
    url = pg.rsplit("/", 1)[0] + "/no_such_class"
    with pytest.raises(StoreError, match='database "no_such_class" does not exist'):
        RoomStore(url)


def test_W_cardlab_rooms_refuses_a_bad_address_in_one_line(capsys):
    from cardlab.cli import main

    url = f"postgresql://teacher:s3cret@127.0.0.1:{free_port()}/class"
    assert main(["rooms", "--db", url]) != 0
    err = capsys.readouterr().err
    assert "cannot open the class's rooms on the PostgreSQL server" in err
    assert "Traceback" not in err and "s3cret" not in err


def test_W_cardlab_rooms_and_the_class_app_open_the_store_that_CARDLAB_ROOMS_names(pg, monkeypatch, capsys):
    from cardlab.cli import main
    from cardlab.widgets import play_app

    store = RoomStore(pg)
    store.pairings("koinobori", ["Aiko", "Ben"])
    monkeypatch.setenv("CARDLAB_ROOMS", pg)
    assert default_path() == pg  # the address as written (a Path would make postgresql:/ of it)
    assert main(["rooms", "--url", "http://10.0.0.5:8866/"]) == 0  # --db: $CARDLAB_ROOMS
    out = capsys.readouterr().out
    assert f"class rooms: {pg}" in out and "R1: Aiko v Ben" in out
    link0, _link1 = store.links("R1")
    page = play_app(query=link0[1:])
    assert "<b>you (Aiko) against Ben</b> · room R1" in page.children[0].value


def test_W_times_keep_their_precision_on_postgresql(pg):
    """PostgreSQL's REAL is single precision (a clock time to about two
    minutes): the store's times are DOUBLE PRECISION there."""
    from cardlab import presence

    store = RoomStore(pg)
    presence.mark_seen(store, "R1", 0, now=1796369225.053392)
    assert presence.connected(store, "R1", now=1796369225.053392 + 14.9) == {0: True}
    assert presence.connected(store, "R1", now=1796369225.053392 + 15.1) == {0: False}
    lesson = store.lesson()
    assert abs(lesson.started - time.time()) < 60


def _app_server(url: str, room: str, seed: int, barrier, results) -> None:
    """One app server's pupils: play the room's moves as fast as they can
    until it is over, each at the number they last saw; count what was stored."""
    store = RoomStore(url)
    rng, stored, stale = random.Random(seed), 0, 0
    barrier.wait(60)
    while True:
        n = store.seq(room)
        s = store.state(room)  # at move n, or past it if another server just moved
        if s.is_terminal():
            break
        if s.current_player == CHANCE:  # another server's move, its chance events not drawn yet
            continue
        try:
            store.play(room, n, rng.choice(s.legal_actions()))
            stored += 1
        except StaleMoveError:
            stale += 1
    store.draw_code(room, 0)  # every server asks for the same seat's code: one is made
    results.put((stored, stale, store.draw_code(room, 0)))


def test_W_app_servers_moving_in_one_room_store_each_number_once(pg):
    """Four app servers (processes, each its own connections) play one room
    to its end at full speed: every move number is stored once, by one of
    them (the others were told the move was stale), and the moves replay."""
    store = RoomStore(pg)
    room = store.create("toritsuki", ["person", "person"], seed=3)
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(4), ctx.Queue()
    procs = [ctx.Process(target=_app_server, args=(pg, room.id, i, barrier, results)) for i in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(240)
    assert [p.exitcode for p in procs] == [0] * 4
    got = [results.get(timeout=5) for _ in procs]
    players = sum(p >= 0 for p, _a in store.moves(room.id))
    assert sum(stored for stored, _s, _c in got) == players > 10
    assert sum(stale for _st, stale, _c in got) > 0  # they did race
    assert {code for _st, _s, code in got} == {store.code(room.id, 0)}  # one code made, the same for all
    assert store.state(room.id).is_terminal()  # every stored move was legal in turn


def test_W_a_server_waiting_too_long_for_a_rooms_lock_gives_up_as_sqlite_does(pg):
    """While one server holds room R1's lock, another one's move there waits
    at most its timeout and then raises one of the store's errors (its
    page's poll tries again), as a busy SQLite file does; other rooms go on."""
    first = RoomStore(pg)
    room, other = first.create("koinobori", ["person"] * 2, seed=1), first.create("koinobori", ["person"] * 2)
    second = RoomStore(pg, timeout=1)
    s, n = second.state(room.id), second.seq(room.id)
    with first._write(room.id):
        start = time.monotonic()
        with pytest.raises(errors(), match="lock timeout"):
            second.play(room.id, n, s.legal_actions()[0])
        assert 0.9 < time.monotonic() - start < 10
        o = second.state(other.id)
        second.play(other.id, second.seq(other.id), o.legal_actions()[0])  # another room's lock: no wait
    second.play(room.id, n, s.legal_actions()[0])
    assert first.seq(room.id) > n


def test_W_a_connection_the_server_dropped_is_made_again(pg):
    """The database server restarted (here: the store's connection ended by
    the server): the look that meets it fails with a store error, which the
    page's poll lets pass; the next one connects again."""
    import psycopg

    store = RoomStore(pg)
    room = store.create("koinobori", ["person"] * 2, seed=4)
    n = store.seq(room.id)
    with psycopg.connect(pg, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (store._db.db.info.backend_pid,))
    with pytest.raises(errors()):
        store.seq(room.id)
    assert store.seq(room.id) == n and store.state(room.id).current_player == 0


def test_W_the_errors_of_a_store_include_psycopgs_once_loaded(pg):
    import psycopg
    import sqlite3

    RoomStore(pg)
    assert set(errors()) == {sqlite3.Error, psycopg.Error}


def test_W_sql_is_written_once_and_read_by_both():
    assert PostgreSQL.sql("INSERT INTO meta VALUES ('a?', ?) ON CONFLICT (key) DO NOTHING") == \
        "INSERT INTO meta VALUES ('a?', %s) ON CONFLICT (key) DO NOTHING"
    assert PostgreSQL.ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, at REAL, s TEXT)") == \
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n BIGINT NOT NULL, " \
        "at DOUBLE PRECISION, s TEXT)"
    assert shown("postgresql://u:p@h:5/d") == "postgresql://u:***@h:5/d" and shown("class.db") == "class.db"


def test_W_a_test_server_that_cannot_start_fails_the_tests_in_ci(monkeypatch):
    """No silent skip: with no server the PostgreSQL tests fail, saying why;
    CARDLAB_NO_POSTGRES=1 skips them on a developer's machine, never in CI."""
    monkeypatch.setattr(pg_support, "_server", None)
    monkeypatch.setattr(pg_support, "_failed", "no PostgreSQL server for the store's tests: initdb failed")
    monkeypatch.delenv(pg_support.NO_POSTGRES, raising=False)
    with pytest.raises(pytest.fail.Exception, match="initdb failed"):
        pg_support.server()
    monkeypatch.setenv(pg_support.NO_POSTGRES, "1")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="initdb failed"):
        pg_support.server()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="CARDLAB_NO_POSTGRES=1"):
        pg_support.server()


def test_W_the_test_server_runs_as_a_user_postgres_accepts(request):
    """PostgreSQL refuses root: as root the server runs as 'postgres' or 'nobody'."""
    server = pg_support.server(request.config)
    assert server.running and (server.user is None) == (os.geteuid() != 0)
    assert server.user != "root"
