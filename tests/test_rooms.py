"""Issue R, the store of class rooms (``cardlab.rooms``): rooms in SQLite
that survive the server stopping, one move per number when pages race,
links a pupil cannot edit into another seat, and an export that replays."""

from __future__ import annotations

import csv
import multiprocessing as mp
import random

import pytest

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL

import cardlab
from cardlab.rooms import RoomError, RoomStore, StaleMoveError, read_export, replay


def play_out(store: RoomStore, room_id: str, rng: random.Random, moves: int | None = None) -> None:
    done = 0
    while moves is None or done < moves:
        s = store.state(room_id)
        if s.is_terminal():
            return
        store.play(room_id, store.seq(room_id), rng.choice(s.legal_actions()))
        done += 1


@pytest.mark.parametrize("game", ["koinobori", "mipig", "mazemon", "toritsuki", "monster_cards"])
def test_R_a_room_goes_on_after_the_server_stops(db, game, tmp_path):
    """Nothing lost: the store is closed mid-game (the server stops) and
    opened again from its file; the room is where it was and plays to the
    end; the exported move list replays to the same final state."""
    store = RoomStore(db)
    room = store.create(game, ["person"] * cardlab.load(game).spec.num_players, seed=5)
    play_out(store, room.id, random.Random(1), moves=6)
    before, moves = store.state(room.id), store.moves(room.id)
    store.close()
    again = RoomStore(db)
    assert again.state(room.id) == before and again.moves(room.id) == moves
    play_out(again, room.id, random.Random(2))
    end = again.state(room.id)
    assert end.is_terminal()
    games, results = again.export(tmp_path / "export")
    (record,) = read_export(games)
    assert replay(record)[-1] == end
    rows = list(csv.DictReader(results.open(encoding="utf-8")))
    assert [(r["room"], r["seat"]) for r in rows] == [(room.id, str(i)) for i in range(len(end.returns()))]
    assert all(r["result"] in ("win", "loss", "draw") for r in rows)


def test_R_chance_is_the_rooms_whoever_draws_it(another_db):
    """The deal and every draw come from the room's seed and the move
    number: two stores (two classes) with the same room and moves hold the
    same game."""
    a, b = RoomStore(another_db("a.db")), RoomStore(another_db("b.db"))
    ra = a.create("koinobori", ["person", "person"], seed=9)
    rb = b.create("koinobori", ["person", "person"], seed=9)
    for _ in range(10):
        s = a.state(ra.id)
        if s.is_terminal():
            break
        move = s.legal_actions()[0]
        a.play(ra.id, a.seq(ra.id), move)
        b.play(rb.id, b.seq(rb.id), move)
    assert a.moves(ra.id) == b.moves(rb.id)
    c = RoomStore(another_db("c.db")).create("koinobori", ["person", "person"], seed=10)
    assert c.id == "R1"


def test_R_a_stale_or_illegal_move_is_refused_and_stores_nothing(db):
    store = RoomStore(db)
    room = store.create("mipig", ["person", "person"], seed=1)
    n, s = store.seq(room.id), store.state(room.id)
    with pytest.raises(cardlab.IllegalActionError):
        store.play(room.id, n, "pass")
    assert store.seq(room.id) == n
    with pytest.raises(StaleMoveError, match=f"move {n + 1} was already played"):
        store.play(room.id, n + 1, s.legal_actions()[0])
    with pytest.raises(StaleMoveError):
        store.play(room.id, n - 1, s.legal_actions()[0])
    assert store.seq(room.id) == n and store.state(room.id) == s
    with pytest.raises(RoomError, match="there is no room 'R9'; the rooms are: R1"):
        store.state("R9")


def _race(path, room_id, seq, action, barrier, results):
    store = RoomStore(path)
    barrier.wait()
    try:
        store.play(room_id, seq, action)
        results.put("stored")
    except StaleMoveError:
        results.put("stale")


def test_R_two_pages_racing_store_exactly_one_move(db):
    """Two kernels (processes, each with its own connection) move at the
    same number at the same moment, six times: each time exactly one
    move is stored and the other page is told; the room stays whole."""
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "person"], seed=2)
    ctx = mp.get_context("spawn")
    rng = random.Random(0)
    for _ in range(6):
        s = store.state(room.id)
        if s.is_terminal():
            break
        n = store.seq(room.id)
        legal = s.legal_actions()
        picks = [rng.choice(legal), rng.choice(legal)]
        barrier, results = ctx.Barrier(2), ctx.Queue()
        procs = [ctx.Process(target=_race, args=(str(db), room.id, n, a, barrier, results)) for a in picks]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        outcome = sorted(results.get(timeout=5) for _ in procs)
        assert outcome == ["stale", "stored"]
        assert store.moves(room.id)[n][1] in picks
        store.state(room.id)  # replays: every stored move legal in turn


def test_R_links_carry_a_key_a_pupil_cannot_edit(db, another_db):
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "heuristic"], seed=1)
    (link,) = store.links(room.id)
    assert link.startswith(f"?room={room.id}&seat=0&key=")
    key = link.rsplit("=", 1)[1]
    assert store.check_key(room.id, 0, key)
    assert not store.check_key(room.id, 1, key) and not store.check_key("R2", 0, key)
    assert store.check_key(None, "teacher", store.key(None, "teacher"))
    assert not store.check_key(room.id, 0, store.key(None, "teacher"))
    # the secret is the store's: another class's store makes other keys
    assert RoomStore(another_db("other.db")).key(room.id, 0) != key
    # and stays with the file when the server restarts
    assert RoomStore(db).key(room.id, 0) == key


def test_R_a_round_of_pairings_for_a_list_of_names(db):
    store = RoomStore(db)
    rooms = store.pairings("mipig", ["Aiko", "Ben", "Chie", "Dai", "Emi"], seed=4)
    assert [r.name for r in rooms] == ["Aiko v Ben", "Chie v Dai", "Emi v heuristic"]
    assert [r.seats for r in rooms] == [("person", "person"), ("person", "person"), ("person", "heuristic")]
    assert len({r.seed for r in rooms}) == 3
    rows = store.summary()
    assert [r["room"] for r in rows] == ["R1", "R2", "R3"] and not any(r["over"] for r in rows)
    with pytest.raises(cardlab.CardlabError, match="has 2 seats; got 3"):
        store.create("mipig", ["person"] * 3)
    with pytest.raises(cardlab.CardlabError, match="a seat is 'person' or an agent"):
        store.create("mipig", ["person", "genius"])
    with pytest.raises(cardlab.OptionError):
        store.create("mipig", ["person", "person"], options={"hand_size": 99})
    assert store.ids() == ["R1", "R2", "R3"]  # nothing half made


def test_R_agents_take_any_seat_and_play_the_same_whoever_asks(another_db):
    """An agent's move is seeded from the room's seed and the move number:
    two stores (two classes) with the same room play the same game."""
    games = []
    for name in ("a.db", "b.db"):
        store = RoomStore(another_db(name))
        room = store.create("koinobori", ["heuristic", "random"], seed=6)
        end = store.advance(room.id)
        assert end.is_terminal()
        games.append(store.moves(room.id))
    assert games[0] == games[1] and len(games[0]) > 20


# -- the pupils' pages -------------------------------------------------------------
from cardlab import render  # noqa: E402
from cardlab.widgets.room import RoomBoard  # noqa: E402


@pytest.mark.parametrize("game", ["koinobori", "mazemon", "toritsuki"])
def test_R_two_pupils_play_a_whole_game_from_their_own_pages(db, game):
    """Two pages (two kernels: each its own connection to the store) play a
    room to the end by clicking their buttons; after every move each page
    shows the room's position in its own seat's view only, and its log is
    the seat's seen_move lines (equal information, equal output: issue I)."""
    teacher = RoomStore(db)
    room = teacher.create(game, ["person", "person"], seed=3)
    pages = [RoomBoard(RoomStore(db), room.id, seat, poll=None) for seat in (0, 1)]
    rng = random.Random(4)
    for _ in range(3000):
        s = teacher.state(room.id)
        if s.is_terminal():
            break
        page = pages[s.current_player]
        assert page.state == s and page.action_buttons
        other = pages[1 - s.current_player]
        assert not other.action_buttons  # not their turn: nothing to click
        rng.choice(list(page.action_buttons.values())).click()
        assert not page._message, page._message
        other.sync()
        for seat, p in enumerate(pages):
            assert p.state == teacher.state(room.id) and p.perspective == seat and p.locked
            assert p.table.value == p._renderer(p.state, perspective=seat) or p._layout is not None
    assert teacher.state(room.id).is_terminal()
    for seat, p in enumerate(pages):
        hist = p.states()
        want = [render.seen_move(hist[i], m.action, seat) for i, m in enumerate(p.match.history)]
        assert all(line.endswith(w.label) for line, w in zip(p.log_lines(), want, strict=True))
        assert any(w.hidden for w in want)  # the other seat's hidden moves read as hidden here
    assert all(p.status.value.startswith("Game over: ") for p in pages)


def test_R_a_stale_page_is_told_and_shows_the_room(db):
    """The same seat open in two tabs: both click; the second is told the
    room moved on, and nothing is stored twice."""
    store = RoomStore(db)
    room = store.create("mipig", ["person", "heuristic"], seed=2, options={"first_player": 0})
    a, b = (RoomBoard(RoomStore(db), room.id, 0, poll=None) for _ in range(2))
    n = store.seq(room.id)
    first = list(a.action_buttons)[0]
    a.action_buttons[first].click()
    b.action_buttons[list(b.action_buttons)[-1]].click()
    assert "the room had moved on" in b.status.value
    for page in (a, b):  # the agent's reply is computed off the pages' loops
        page.wait_for_agents(60)
    assert store.moves(room.id)[n][1] == first and b.state == a.state == store.state(room.id)


def test_R_a_page_refuses_a_seat_it_cannot_have(db):
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "random"], seed=1)
    with pytest.raises(cardlab.CardlabError, match="seat 1 of room R1 is played by an agent"):
        RoomBoard(store, room.id, 1, poll=None)
    with pytest.raises(cardlab.CardlabError, match="has seats 0..1, not 2"):
        RoomBoard(store, room.id, 2, poll=None)


def test_R_links_open_the_seat_and_nothing_else(db, monkeypatch):
    """play_app (the Voila page) opens a room link as the pupil's locked
    board; an edited seat, a wrong key or an agent's seat opens nothing;
    the teacher's key opens the lobby."""
    from cardlab.widgets import play_app
    from cardlab.widgets.room import Lobby

    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "person"], seed=1, name="Aiko v Ben")
    link0, link1 = store.links(room.id)
    page = play_app(query=link0[1:])
    b = page.children[1]
    assert isinstance(b, RoomBoard) and b.seat == 0 and b.locked and "you are player 0" in page.children[0].value
    assert b.new_button.layout.display == "none" and page.children[2].get_title(0).startswith("Rules, rule by rule")
    with pytest.raises(cardlab.CardlabError, match="a room plays one game"):
        b.new_game()
    for w in (b.step_button, b.run_button, b.auto_box):  # no control moves an agent (issue W)
        assert w.layout.display == "none"
    for call in (b.step, b.run, lambda: b.set_autoplay(True)):
        with pytest.raises(cardlab.CardlabError, match="allowed are your own moves and the fair hint"):
            call()
    for bad in (link0[1:].replace("seat=0", "seat=1"), link1[1:] + "0", f"room={room.id}&seat=0"):
        page = play_app(query=bad)
        assert "This link does not open a room" in page.value and not isinstance(page, RoomBoard)
    assert "does not open a room" in play_app(query="teacher=nope").value
    lobby = play_app(query=f"teacher={store.key(None, 'teacher')}")
    assert isinstance(lobby, Lobby) and "Aiko v Ben" in lobby.rooms_html.value


def test_R_the_teachers_lobby_makes_rooms_watches_and_exports(db, tmp_path):
    store = RoomStore(db)
    from cardlab.widgets.room import Lobby

    lobby = Lobby(store, poll=None)
    lobby.make_button.click()
    assert "write the pupils' names" in lobby.message.value and store.ids() == []
    lobby.game_picker.value = "mipig"
    lobby.names.value = "Aiko\nBen\n\nChie\n"
    lobby.make_button.click()
    assert store.ids() == ["R1", "R2"] and "2 rooms made" in lobby.message.value
    assert lobby.rooms_html.value.count("seat 0") == 2 and lobby.rooms_html.value.count("seat 1") == 1
    lobby.watch.value = "R1"
    s = store.state("R1")
    assert lobby.watch_html.value == render.html(s)  # every card: the teacher's view
    store.advance("R2")
    play_out(store, "R1", random.Random(3))
    lobby.refresh()
    assert "over: " in lobby.rooms_html.value
    lobby.export_button.click()
    games = tmp_path / "class-export" / store.lesson().name / "games.json"  # a folder a lesson
    assert games.exists() and [r["room"] for r in read_export(games)] == ["R1", "R2"]
    assert replay(read_export(games)[0])[-1] == store.state("R1")


def test_R_cardlab_rooms_prints_the_teachers_link_and_each_seat(db, capsys):
    from cardlab.cli import main

    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben", "Chie"])
    assert main(["rooms", "--db", str(db), "--url", "http://10.0.0.5:8866/"]) == 0
    out = capsys.readouterr().out
    assert f"http://10.0.0.5:8866/?teacher={store.key(None, 'teacher')}" in out
    for link in store.links("R1") + store.links("R2"):
        assert f"http://10.0.0.5:8866/{link}" in out
    assert "R2: Chie v heuristic" in out


# -- agents think off the page's event loop ---------------------------------------------
import threading  # noqa: E402


class SlowAgents:
    """``cardlab.agents.make`` for the test: the real agent, whose
    ``choose`` waits (on an event, not a clock) until the test lets it
    answer; counts the moves asked of it."""

    def __init__(self, monkeypatch):
        import cardlab.agents

        self.real, self.go, self.asked = cardlab.agents.make, threading.Event(), threading.Semaphore(0)
        self.calls, self.counting = 0, threading.Lock()
        monkeypatch.setattr(cardlab.agents, "make", self.make)

    def make(self, name, seed=None):
        agent, slow = self.real(name, seed=seed), self

        class Slow:
            def choose(self, state):
                with slow.counting:
                    slow.calls += 1
                slow.asked.release()
                assert slow.go.wait(60), "the test never let the agent answer"
                return agent.choose(state)

        return Slow()

    def wait_asked(self, times: int = 1) -> None:
        for _ in range(times):
            assert self.asked.acquire(timeout=60), "no agent was asked to move"


def agent_moves(store: RoomStore, room_id: str, seat: int) -> int:
    return sum(p == seat for p, _ in store.moves(room_id))


def test_R_an_agents_thinking_does_not_freeze_the_pupils_page(db, monkeypatch):
    """Agents take any seat and think off the page's event loop: the
    pupil's click returns while the agent (here one that waits until the
    test lets it answer) has not moved yet; meanwhile the page's poll and
    its buttons work (the page says the agent is to move, a click is
    refused with a message, not a freeze); the agent's move then arrives
    on the page by itself."""
    slow = SlowAgents(monkeypatch)
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "heuristic"], seed=3)
    page = RoomBoard(RoomStore(db), room.id, 0, poll=None)
    assert page.state.current_player == 0 and page.action_buttons
    list(page.action_buttons.values())[0].click()  # returns: the agent thinks in a thread
    slow.wait_asked()
    n = store.seq(room.id)
    assert page.state == store.state(room.id) and page.state.current_player == 1
    assert agent_moves(store, room.id, 1) == 0 and not page.action_buttons
    assert "Player 1 (heuristic) to move: their move appears here by itself" in page.status.value
    page._fetch()  # the poll's read of the store: returns at once, nothing new
    assert not page.sync() and page.think() is None  # one agent thinks for the page, not two
    page.hint_button.click()  # the page's buttons still answer
    assert page.hint_html.value.startswith("No hint: player 1 is to move")
    assert store.seq(room.id) == n and slow.calls == 1
    slow.go.set()
    page.wait_for_agents(60)
    assert agent_moves(store, room.id, 1) >= 1
    assert page.state == store.state(room.id) and page.state.current_player == 0 and page.action_buttons
    assert "Player 0 (person) to move" in page.status.value
    assert len(page.store._db._connections) == 1  # the agent's thread closed its connection to the store


def test_R_two_pages_computing_the_same_agent_move_store_it_once(db, monkeypatch):
    """The same seat open in two tabs: both pages see the agent to move
    and both compute its move at the same time; exactly one is stored for
    that number, the other is dropped, and both pages show the room."""
    slow = SlowAgents(monkeypatch)
    store = RoomStore(db)
    room = store.create("koinobori", ["person", "random"], seed=5)
    a, b = (RoomBoard(RoomStore(db), room.id, 0, poll=None) for _ in range(2))
    list(a.action_buttons.values())[0].click()
    n = store.seq(room.id)
    assert b.sync() and b.state == a.state and b.state.current_player == 1
    slow.wait_asked(2)  # both pages' agents think about move n
    slow.go.set()
    for page in (a, b):
        page.wait_for_agents(60)
    moves = store.moves(room.id)
    assert moves[n][0] == 1 and slow.calls > agent_moves(store, room.id, 1)  # one answer was dropped
    assert a.state == b.state == store.state(room.id) and a.state.current_player == 0


# -- the lobby's options ----------------------------------------------------------------------
def test_R_the_lobby_makes_rooms_with_the_games_options(db):
    """The teacher's create-room form shows the chosen game's options (the
    class app's controls, with their labels and choice words); rooms made
    with an option that is not the default carry it into their game (the
    pupils' pages play it); an option the game refuses makes no room."""
    from cardlab.widgets.room import Lobby

    store = RoomStore(db)
    lobby = Lobby(store, poll=None)
    lobby.game_picker.value = "mipig"
    mipig = cardlab.load("mipig")
    shown = {w.description for w in lobby.options_box.children}
    assert {mipig.OPTIONS["hand_size"].title("hand_size"), mipig.OPTIONS["deal"].title("deal")} <= shown
    assert "cards" not in lobby.option_widgets  # card files: for notebooks
    lobby.option_widgets["hand_size"].value = 4
    lobby.option_widgets["deal"].value = "shared"
    assert lobby.options() == {"hand_size": 4, "deal": "shared"}
    lobby.names.value = "Aiko\nBen"
    lobby.make_button.click()
    assert store.ids() == ["R1"] and store.room("R1").options == {"hand_size": 4, "deal": "shared"}
    assert store.state("R1").game.options["hand_size"] == 4 and store.state("R1").game.options["deal"] == "shared"
    assert "hand_size=4" in lobby.rooms_html.value
    page = RoomBoard(RoomStore(db), "R1", 0, poll=None)
    assert page.game.options["hand_size"] == 4 and page.state == store.state("R1")
    lobby.option_widgets["hand_size"].value = 99
    lobby.names.value = "Chie\nDai"
    lobby.make_button.click()
    assert "no rooms made" in lobby.message.value and "hand_size" in lobby.message.value
    assert store.ids() == ["R1"] and lobby.names.value == "Chie\nDai"
    lobby.game_picker.value = "koinobori"  # another game: its own options, at their defaults
    assert "hand_size" not in lobby.option_widgets and lobby.options() == {}
    lobby.option_widgets["koikoi"].value = True
    lobby.make_button.click()
    assert store.room("R2").options == {"koikoi": True} and store.room("R2").game == "koinobori"
    lobby.game_picker.value = "toritsuki"  # a choice in words (Option.choice_words): None reads "a coin"
    first = lobby.option_widgets["first_player"]
    assert [label for label, _ in first.options][0] == "a coin (random)" and lobby.options() == {}
    first.value = 1
    lobby.names.value = "Emi\nFumi"
    lobby.make_button.click()
    assert store.room("R3").options == {"first_player": 1} and store.state("R3").game.options["first_player"] == 1


# -- issue W: links that open, pupils' boards that play one game ---------------------------------
def test_W_every_link_shown_uses_the_class_network_address(db, monkeypatch):
    """The teacher's page shows each seat's whole link with the address the
    pupils' laptops open: the page's own host when it is one they can reach,
    this machine's address on the class network when the page was opened as
    0.0.0.0, 127.0.0.1 or localhost, and ``$PLAY_URL`` when the teacher gives it."""
    from cardlab.rooms import class_url, lan_address, page_url
    from cardlab.widgets.room import Lobby

    monkeypatch.delenv("PLAY_URL", raising=False)
    store = RoomStore(db)
    store.pairings("koinobori", ["Aiko", "Ben"])
    here = lan_address()
    assert here not in ("0.0.0.0", "") and class_url(port=8866) == f"http://{here}:8866/"
    for host, port, want in (("0.0.0.0", "8866", f"http://{here}:8866/"),
                             ("localhost", "9000", f"http://{here}:9000/"),
                             ("192.168.1.5", "8866", "http://192.168.1.5:8866/")):
        monkeypatch.setenv("SERVER_NAME", host)
        monkeypatch.setenv("SERVER_PORT", port)
        monkeypatch.setenv("SCRIPT_NAME", "/")
        assert page_url() == want
        shown = Lobby(store, poll=None).rooms_html.value
        for link in store.links("R1"):
            assert f'<a href="{want}{link.replace("&", "&amp;")}"' in shown
        assert "0.0.0.0" not in shown and "127.0.0.1" not in shown and "localhost" not in shown
    monkeypatch.setenv("PLAY_URL", "http://cards.school.example:8866")
    assert page_url() == "http://cards.school.example:8866/"
    assert "http://cards.school.example:8866/?room=R1&amp;seat=0&amp;key=" in Lobby(store, poll=None).rooms_html.value


def test_W_make_play_serves_every_address_and_prints_the_class_address(tmp_path):
    """``make play`` serves on every address (0.0.0.0) and gives Voila and
    ``cardlab rooms`` the class network's address (or ``PLAY_URL``), with
    Voila's culling of the kernels of pages that are gone."""
    import os
    import re
    import shutil
    import subprocess
    from pathlib import Path

    from cardlab.rooms import class_url

    if shutil.which("make") is None:
        pytest.skip("no make")
    root = Path(__file__).resolve().parent.parent
    for given, want in (("", class_url("0.0.0.0", 8866)), ("http://cards.local:8866/", "http://cards.local:8866/")):
        recipe = subprocess.run(["make", "-n", "play", f"PLAY_URL={given}"], cwd=root,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=True).stdout
        assert "--Voila.ip=0.0.0.0" in recipe and '--Voila.custom_display_url="$url"' in recipe
        assert "--MappingKernelManager.cull_idle_timeout=300" in recipe and "cull_connected=False" in recipe
        line = next(ln for ln in recipe.splitlines() if ln.startswith("url="))
        url = subprocess.run(["sh", "-c", line.rstrip(" &\\") + ' && echo "$url"'], cwd=root, text=True,
                             stdout=subprocess.PIPE, check=True, env=dict(os.environ, PLAY_URL="")).stdout.strip()
        assert url == want and "0.0.0.0" not in url and re.match(r"http://[^/]+:8866/$", url)
        assert '--url "$url"' in recipe
    # a school's store: the same PostgreSQL address for the pages and for cardlab rooms (issue W, item 10)
    school = "postgresql://teacher:pw@db.school.example/cards?sslmode=require"
    recipe = subprocess.run(["make", "-n", "play", f"CARDLAB_ROOMS={school}"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, check=True).stdout
    assert f"export PLAY_URL='' CARDLAB_ROOMS='{school}'" in recipe and f"rooms --db '{school}'" in recipe


def _finish(store: RoomStore, room_id: str, rng: random.Random) -> None:
    """Play the room to its end: the pupils' moves seeded random, the agents' through the store."""
    while not store.state(room_id).is_terminal():
        s = store.state(room_id)
        if store.agent_to_move(s, room_id):
            store.advance(room_id)
        else:
            store.play(room_id, store.seq(room_id), rng.choice(s.legal_actions()))


def test_W_names_everywhere_results_a_row_a_seat_and_the_winner(another_db, tmp_path, monkeypatch):
    """Pupils read "you (Aiko) against Ben" and "you win" / "Ben wins"; the
    teacher's list says who won; results.csv has a row a seat (lesson, room,
    game, seat, pupil, opponent, result, score, moves) and the winner."""
    import time

    from cardlab.rooms import RESULT_COLUMNS, outcome
    from cardlab.widgets import play_app
    from cardlab.widgets.room import Lobby

    for attempt in range(40):  # a game Aiko wins and one Ben wins: both sentences are read
        db = another_db(f"class{attempt}.db")
        store = RoomStore(db)
        store.pairings("koinobori", ["Aiko", "Ben", "Chie"], seed=attempt)
        _finish(store, "R1", random.Random(attempt))
        _finish(store, "R2", random.Random(attempt))
        winners = [outcome(store.state(r))[1] for r in ("R1", "R2")]
        if winners[0] == [1] and winners[1]:
            break
    else:
        pytest.fail("no seeded game that Ben wins")
    assert store.room("R1").pupils == ("Aiko", "Ben") and store.room("R2").names() == ["Chie", "heuristic"]
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    link0, link1 = store.links("R1")
    page0, page1 = play_app(query=link0[1:]), play_app(query=link1[1:])
    assert "<b>you (Aiko) against Ben</b> · room R1" in page0.children[0].value
    assert "<b>you (Ben) against Aiko</b>" in page1.children[0].value
    assert page0.children[1].status.value.startswith("Game over: Ben wins.")
    assert page1.children[1].status.value.startswith("Game over: you win.")
    assert "over: Ben wins" in Lobby(store, poll=None).rooms_html.value
    _games, results = store.export(tmp_path / "export")
    rows = list(csv.DictReader(results.open(encoding="utf-8")))
    assert tuple(rows[0]) == RESULT_COLUMNS and len(rows) == 4
    today = time.strftime("%Y-%m-%d")
    r1 = [(r["lesson"], r["room"], r["game"], r["seat"], r["pupil"], r["opponent"], r["result"], r["score"],
           r["winner"]) for r in rows[:2]]
    assert r1 == [(today, "R1", "koinobori", "0", "Aiko", "Ben", "loss", "-1", "Ben"),
                  (today, "R1", "koinobori", "1", "Ben", "Aiko", "win", "1", "Ben")]
    players_moves = sum(p >= 0 for p, _a in store.moves("R1"))
    assert {r["moves"] for r in rows[:2]} == {str(players_moves)} and players_moves > 0
    chie = outcome(store.state("R2"))[1]
    assert rows[2]["pupil"] == "Chie" and rows[3]["pupil"] == "heuristic"
    assert rows[2]["winner"] == ("Chie" if chie == [0] else "heuristic")


def test_W_a_store_made_before_names_were_kept_opens_and_reads_names_from_the_room(db):
    """An older store (no pupils column) gets the column when opened; its
    rooms' names come from "Aiko v Ben"."""
    from cardlab.store_db import open_database

    old = open_database(db)  # its tables made as an older cardlab made them, in SQLite or PostgreSQL
    old.create("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE rooms (id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL, options TEXT NOT NULL,
            seed INTEGER NOT NULL, seats TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE moves (room TEXT NOT NULL REFERENCES rooms(id), seq INTEGER NOT NULL, player INTEGER NOT NULL,
            action TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (room, seq));
        INSERT INTO rooms VALUES ('R1', 'Aiko v Ben', 'koinobori', '{}', 3, '["person", "person"]', 0);
        INSERT INTO rooms VALUES ('R2', 'R2', 'koinobori', '{}', 4, '["person", "heuristic"]', 0);""")
    old.close()
    store = RoomStore(db)
    assert store.room("R1").names() == ["Aiko", "Ben"] and store.room("R2").names() == ["player 0", "heuristic"]
    store.pairings("mipig", ["Chie", "Dai"])
    assert store.room(store.ids()[-1]).pupils == ("Chie", "Dai")
    assert RoomStore(db).room("R1").names() == ["Aiko", "Ben"]  # opened again: the column is there once
