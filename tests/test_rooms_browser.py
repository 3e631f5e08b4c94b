"""Issue R in a real browser: two pupils, each in their own browser
context (two laptops), play a whole game of every game that hides cards
from a seat (mipig, mazemon, monster_cards, toritsuki, koinobori) through
their room links on one Voila server.  After every move each page shows
only what its seat may see (the leak check of issue I on the page text):
its move log is exactly the seat's seen_move lines, and its table is
exactly the table of the seat's own view (the text of a board for that
seat, which tests/test_board_fair_play.py checks shows equal output for
equal information); the other page shows the move by itself.  Midway the
server stops and starts again: both pupils reload their links and finish
the game; the exported move list replays to the same final state.

The pupils click what a seeded agent would play (the game stays short,
and the same on every run): a button by its move, or on a grid (mipig)
the card and then the square, one click each.
"""

from __future__ import annotations

import html.parser
import json
import random
import re
import time

import ipywidgets as widgets
import pytest

import cardlab
from cardlab import CHANCE, render
from cardlab.agents import make
from cardlab.rooms import RoomStore, read_export, replay
from cardlab.widgets.room import RoomBoard

from browser_support import ROOT, board_info, board_locator, log_count, screenshot, until, voila

pytestmark = pytest.mark.browser

WAIT = 90  # seconds: the other page's poll, a kernel's start on the shared 2-core machine
#: every game that hides cards from a seat, with the room's seed: whole games, default
#: options, seeds whose games (with the pupils' seeded clicks) are short (12-20 decisions)
GAMES = {"koinobori": 3, "mipig": 13, "mazemon": 16, "monster_cards": 9, "toritsuki": 18}
MOVES_BEFORE_RESTART = 4


def test_R_the_browser_test_covers_every_hidden_card_game():
    assert sorted(GAMES) == sorted(g for g in cardlab.games() if not cardlab.load(g).spec.perfect_information)


def expected_log(store: RoomStore, room_id: str, seat: int) -> list[str]:
    """The move log the page of ``seat`` must show: each stored move as
    that seat may read it (render.seen_move), nothing more."""
    room = store.room(room_id)
    s = room.load().new_initial_state()
    lines = []
    for i, (player, action) in enumerate(store.moves(room_id), 1):
        who = "" if player < 0 else f"P{player} ({room.seats[player]}): "
        lines.append(f"{i}. {who}{render.seen_move(s, action, seat).label}")
        s = s.apply(action)
    return lines


class _Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def widget_text(w: widgets.Widget) -> str:
    """The text a widget shows in the page (its textContent): the text of
    an HTML widget's value, a button's label, a box's children in order."""
    if isinstance(w, widgets.HTML):
        p = _Text()
        p.feed(w.value)
        p.close()
        return "".join(p.parts)
    if isinstance(w, widgets.Button):
        return w.description
    if isinstance(w, widgets.Box):
        return "".join(widget_text(c) for c in w.children)
    return ""


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def seat_table(ref: RoomBoard) -> str:
    """The table (child 2 of the board) of the seat's own board, brought up
    to the room's moves: all the page of that seat may show of the table."""
    ref.sync()
    return squeeze(widget_text(ref.children[2]))


def pupil_move(s, seed: int, n: int) -> str:
    """What the pupil to move clicks: a seeded agent's choice (the same on every run)."""
    return make("heuristic", seed=random.Random(f"pick:{seed}:{n}").randrange(2**32)).choose(s)


def offer(board, title: str):
    """The offered button (a move, a card or a square) whose tooltip is ``title``."""
    return board.locator(f"button.cardlab-offer[title={json.dumps(title, ensure_ascii=False)}]")


def click_move(board, s, seat: int, action: str) -> int:
    """Play ``action`` on the board by clicking: its button, or on a grid
    its picks in order (each pick's button: its tooltip is the move it
    leads to, or ``key: N moves``).  The number of clicks."""
    lay = render.layout(s, perspective=seat)
    path = lay.paths.get(action) if lay is not None else None
    if not path:
        button = offer(board, action)
        until(lambda: button.count(), lambda c: c == 1, f"the button of {action!r}", WAIT)
        button.click()
        return 1
    picks: tuple[str, ...] = ()
    for key in path:
        leads = lay.offered(picks)[key]
        title = leads[0] if len(leads) == 1 else f"{key.split(':', 1)[1]}: {len(leads)} moves"
        button = offer(board, title)
        until(lambda: button.count(), lambda c: c == 1, f"the pick {key!r} of {action!r}", WAIT)
        button.click()
        picks += (key,)
        if len(picks) < len(path):  # the pick is shown before the next is looked for (same tooltip)
            chosen = "chosen: " + ", ".join(k.split(":", 1)[1] for k in picks)
            until(lambda: board_info(board)["prompt"], lambda p: chosen in p, f"{chosen!r} of {action!r}", WAIT)
    return len(path)


def open_pages(browser, url: str, store: RoomStore, room_id: str):
    pages = []
    for link in store.links(room_id):
        context = browser.new_context(viewport={"width": 1280, "height": 1800})  # a laptop of its own
        page = context.new_page()
        page.goto(url.replace("/?", "/" + link + "&", 1), timeout=WAIT * 1000)
        pages.append(page)
    return pages


def board_of(page):
    """The pupil's board in the page (a kernel starts for it: on a loaded
    2-core machine that can take a while).  When Voila's page fails to
    fetch the board's widgets from the kernel in time ("Error displaying
    widget: model not found": a grid board has hundreds of widgets), the
    pupil reloads their link, as a pupil would: at most twice."""
    def shown():
        if page.locator("button", has_text="hint").count():
            return "board"
        return "error" if "model not found" in page.locator("body").inner_text() else ""

    for attempt in range(3):
        if until(shown, bool, "the pupil's board", 2 * WAIT) == "board":
            return board_locator(page.locator("body"))
        if attempt < 2:
            print("the page failed to show its widgets (model not found): reloading the link")
            page.reload(timeout=WAIT * 1000)
    raise AssertionError(f"no board after two reloads; the page shows: {squeeze(page.locator('body').inner_text())[:2000]!r}")


def check_pages(boards, refs, store: RoomStore, room_id: str) -> None:
    """The leak check on the pupils' pages: each page's log is its seat's
    seen_move lines and its table is its seat's own table, nothing more."""
    for b, ref in zip(boards, refs):
        seat = ref.seat
        want = expected_log(store, room_id, seat)
        info = until(lambda: board_info(b), lambda i: log_count(i) == len(want),
                     f"page {seat}: the room's {len(want)} moves", WAIT)
        assert info["log"] == want, (seat, info["log"], want)
        table = seat_table(ref)
        until(lambda: squeeze(board_info(b)["table"]), lambda t: t == table,
              f"page {seat}: the table of seat {seat}'s own view ({table[:300]!r})", WAIT)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_R_two_pupils_on_two_laptops_finish_a_game_across_a_restart(browser, tmp_path, monkeypatch, game):
    t0 = time.monotonic()
    seed = GAMES[game]
    db = tmp_path / "class-rooms.db"
    store = RoomStore(db)
    room = store.create(game, ["person", "person"], seed=seed, name="Aiko v Ben")
    refs = [RoomBoard(RoomStore(db), room.id, seat, poll=None) for seat in (0, 1)]  # each seat's own view
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))  # the server's kernels open this store
    played = clicks = 0
    for part in ("before", "after"):
        (tmp_path / part).mkdir()
        with voila(ROOT / "notebooks" / "play.ipynb", tmp_path / part) as url:
            pages = open_pages(browser, url, store, room.id)
            boards = [board_of(p) for p in pages]
            while not store.state(room.id).is_terminal():
                s = store.state(room.id)
                n = store.seq(room.id)
                check_pages(boards, refs, store, room.id)
                me = s.current_player
                mover = boards[me]
                until(lambda: board_info(mover)["offers"], bool, "the mover's buttons", WAIT)
                assert not board_info(boards[1 - me])["offers"]  # not their turn: nothing to click
                clicks += click_move(mover, s, me, pupil_move(s, seed, n))
                until(lambda: (store.seq(room.id), store.state(room.id).current_player),
                      lambda sp: sp[0] > n and sp[1] != CHANCE, "the move stored (and the draws after it)", WAIT)
                played += 1
                if part == "before" and played == MOVES_BEFORE_RESTART:
                    screenshot(pages[0], f"room-{game}-before-restart")
                    break
            if part == "after":
                check_pages(boards, refs, store, room.id)
                for seat, b in enumerate(boards):
                    until(lambda: board_info(b)["status"], lambda t: t.startswith("Game over: "),
                          f"page {seat}: the end", WAIT)
                screenshot(pages[1], f"room-{game}-end")
            for p in pages:
                p.context.close()
    end = store.state(room.id)
    assert end.is_terminal() and played > MOVES_BEFORE_RESTART
    for seat in (0, 1):  # the game hid something from each seat: the leak check had something to find
        states = replay({"game": game, "options": {}, "moves": [a for _, a in store.moves(room.id)]})
        assert any(render.seen_move(states[i], a, seat).hidden for i, (_, a) in enumerate(store.moves(room.id)))
    games, _ = store.export(tmp_path / "export")
    assert replay(read_export(games)[0])[-1] == end
    print(f"{game}: {played} pupils' moves ({clicks} clicks), {store.seq(room.id)} stored moves, "
          f"{time.monotonic() - t0:.0f} s")


def test_R_a_pupil_plays_an_agent_whose_moves_appear_by_themselves(browser, tmp_path, monkeypatch):
    """An agent in a seat (it thinks in a thread of the page's kernel):
    the pupil's page shows each of its moves by itself, in the pupil's
    own view only, to the end of the game."""
    db = tmp_path / "class-rooms.db"
    store = RoomStore(db)
    room = store.create("koinobori", ["mcts", "person"], seed=4, name="Chie v mcts")
    ref = RoomBoard(RoomStore(db), room.id, 1, poll=None)
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))  # the server's kernels open this store
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        (page,) = open_pages(browser, url, store, room.id)
        board = board_of(page)
        agent_moves = 0
        while True:  # the agent moves first: the page's kernel computes its move
            s = until(lambda: store.state(room.id), lambda s: s.is_terminal() or s.current_player == 1,
                      "the agent's move", WAIT)
            agent_moves = sum(p == 0 for p, _ in store.moves(room.id))
            check_pages([board], [ref], store, room.id)
            if s.is_terminal():
                break
            n = store.seq(room.id)
            until(lambda: board_info(board)["offers"], bool, "the pupil's buttons", WAIT)
            click_move(board, s, 1, pupil_move(s, 4, n))
            until(lambda: store.seq(room.id), lambda m: m > n, "the pupil's move stored", WAIT)
        until(lambda: board_info(board)["status"], lambda t: t.startswith("Game over: "), "the end", WAIT)
        screenshot(page, "room-koinobori-agent-end")
        page.context.close()
    assert agent_moves >= 3 and store.state(room.id).is_terminal()
    print(f"koinobori against mcts: {agent_moves} agent moves, {store.seq(room.id)} stored moves")
