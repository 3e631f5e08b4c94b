"""The boards in a real browser (marker ``browser``; ``make test`` runs
``pytest -m browser tests``).

One JupyterLab (127.0.0.1, a random token) serves a copy of notebooks/; for
every tutorial ``notebooks/<game>.ipynb`` of a registered game (and the
welcome notebook) Debian's chromium, driven by the Python ``playwright``
package, opens it, runs all cells, finds the game's board (the last board of
the notebook: the tutorial's "play" board), plays one complete turn by
clicking, switches the view and asks for a hint, checking the text each
click must change.  The Voila app ``notebooks/play.ipynb`` gets the same for
every registered game; a link with URL parameters opens a locked board (no
view switch, no reveal all, no open hint, no undo); two persons at one
screen get a privacy screen between their turns.  Screenshots:
test-artifacts/screenshots/.

Nothing is downloaded: chromium comes from apt (installed by the session
fixture when missing, as CI runs as root), playwright is pointed at it.
Recipe and pitfalls: /work/shared/JUPYTER.md.
"""

from __future__ import annotations

import re
import shutil
import time

import pytest

import cardlab

from browser_support import (ROOT, until, board_info, board_locator, board_part,
                             jupyterlab, log_count, mover_of, screenshot, voila)

pytestmark = pytest.mark.browser

NOTEBOOKS = ROOT / "notebooks"
#: the notebooks opened in JupyterLab: (notebook, game of its board)
TUTORIALS = [("00_welcome", "koinobori")] + [
    (name, name) for name in cardlab.games() if (NOTEBOOKS / f"{name}.ipynb").exists()]
RULE_ID = re.compile(r"\b[A-Z]{2}-Q?\d+")
WAIT = 120  # seconds: an agent's reply, a hint search
#: the person plays this many whole turns (the first may be only a set-up choice, like a mulligan)
TURNS = 2
TURN_CLICKS = 60


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab for the session, serving a copy of notebooks/ (so that
    running cells and autosave never touch the repository's notebooks)."""
    work = tmp_path_factory.mktemp("lab")
    shutil.copytree(NOTEBOOKS, work / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    with jupyterlab(work, work) as (base, token):
        yield base, token


def _until(get, ok, what: str, seconds: float = WAIT):
    return until(get, ok, what, seconds)


def _title_shown(game: cardlab.Game, table: str) -> bool:
    return game.title in table or game.name.replace("_", " ").lower() in table.lower()


def play_turn_view_hint(page, board, game: cardlab.Game, shot: str, whole_page: bool = True) -> list[str]:
    """On ``board`` (a locator): TURNS complete turns of the person to move,
    clicking what is offered (the first each time: an action button, or a
    square or card of a grid, so a grid move takes several clicks); a turn is over
    when another player has moved (or the game is over); then the view "reveal all" and the
    hint.  Asserts what must change; returns the actions clicked.
    Screenshots: the whole page, or (``whole_page=False``) the board alone
    (JupyterLab and Voila scroll inside a panel: a "full page" shot would cut
    the board)."""
    def shoot(step: str) -> None:
        screenshot(page, f"{shot}-{step}", None if whole_page else board)

    info = _until(lambda: board_info(board), lambda i: i["table"] and i["status"] and i["summary"],
                  "the board's table and status")
    assert _title_shown(game, info["table"]), f"not a {game.name} board: {info['table'][:200]!r}"
    m = re.match(r"Player (\d+) \(person\) to move", info["status"])
    assert m and info["offers"], f"no person to move on the board: {info['status']!r}"
    me = f"P{m.group(1)}"
    start, start_count = info, log_count(info)
    shoot("1-start")

    offers = board.locator("button.cardlab-offer")  # action buttons, and squares or cards of a grid
    clicked, turns, boundary = [], 0, start_count
    for _ in range(TURN_CLICKS):
        before, prompt = log_count(info), info["prompt"]
        clicked.append(info["offers"][0])
        offers.first.click()
        # a move: the log grows; one pick of a move chosen on the grid: the prompt shows the choice
        # (the prompt may be redrawn before the log: wait for one of the two, not for any change)
        info = _until(lambda: board_info(board), lambda i: log_count(i) > before or (
            i["prompt"] != prompt and "chosen" in i["prompt"]),
                      f"the move log (or the pick prompt) after clicking {clicked[-1]!r}")
        if log_count(info) == before:  # one pick of a move chosen on the grid: the next pick
            continue
        if info["status"].startswith("Game over"):
            break
        if any(mover_of(ln) not in (me, "chance") for ln in info["log"][boundary:]):
            turns, boundary = turns + 1, log_count(info)  # another player has moved: a turn is over
            if turns == TURNS:
                break
        info = _until(lambda: board_info(board), lambda i: i["offers"] or not i["status"].startswith(
            f"Player {me[1:]} (person)"), "the action buttons after a move")
    else:
        raise AssertionError(f"{TURN_CLICKS} clicks ({clicked}) and {me} has not played {TURNS} turns")
    # the turn is over and its text changed: log, explanation (with rule ids), table
    assert log_count(info) > start_count
    assert any(mover_of(ln) == me for ln in info["log"][start_count:])
    assert info["explanation"] != start["explanation"] and RULE_ID.search(info["explanation"]), info["explanation"]
    assert info["table"] != start["table"]
    shoot("2-turn")

    if not info["status"].startswith("Game over"):
        # perspective: reveal everything; with hidden cards the table shows more
        view = board_part(board, 0).locator("select").last
        seen = info["table"]
        view.select_option(label="reveal all")
        info = _until(lambda: board_info(board), lambda i: i["view"] == "reveal all" and (
            game.spec.perfect_information or i["table"] != seen), "the table after 'reveal all'")
        assert "as seen by" not in info["table"] or game.spec.perfect_information
        # the hint: exact values, or why there are none
        board_part(board, 5).get_by_role("button", name="hint", exact=True).click()
        info = _until(lambda: board_info(board), lambda i: i["hint"], "the hint")
        assert info["hint"].startswith(("Hint", "No hint")) and "too large" not in info["hint"], info["hint"]
        shoot("3-view-hint")
    return clicked


def run_all(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=90_000)
    ok = page.evaluate("""async () => {
        const app = window.jupyterapp;
        const nb = app.shell.currentWidget;
        await nb.context.ready;
        await nb.sessionContext.ready;
        return await app.commands.execute('notebook:run-all-cells');
    }""")
    panel = page.locator(".jp-NotebookPanel:visible")
    errors = panel.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
    assert ok and errors.count() == 0, "cells failed: " + " | ".join(errors.all_inner_texts())[:3000]


@pytest.mark.parametrize("notebook,game_name", TUTORIALS, ids=[t[0] for t in TUTORIALS])
def test_tutorial_board_in_jupyterlab(browser, lab, notebook, game_name):
    """A tutorial in JupyterLab: every cell runs; its board plays a turn by
    clicks, switches the view, gives a hint."""
    base, token = lab
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        run_all(page, f"{base}/lab/tree/notebooks/{notebook}.ipynb?reset&token={token}")
        panel = page.locator(".jp-NotebookPanel:visible")
        _until(lambda: panel.locator("button", has_text="hint").count(), bool, "a board in the notebook", 60)
        board = board_locator(panel)
        play_turn_view_hint(page, board, cardlab.load(game_name), f"lab-{notebook}", whole_page=False)
    finally:
        page.close()


# -- the Voila app ---------------------------------------------------------------------------
@pytest.fixture(scope="session")
def voila_app(tmp_path_factory):
    pytest.importorskip("voila", reason="pip install voila (cardlab's test extra)")
    work = tmp_path_factory.mktemp("voila")
    with voila(NOTEBOOKS / "play.ipynb", work) as url:
        yield url


@pytest.mark.parametrize("game_name", cardlab.games())
def test_voila_app(browser, voila_app, game_name):
    """notebooks/play.ipynb served by Voila: choose the game, a person and an
    agent, an option; start; play a turn, switch the view, ask for a hint."""
    game = cardlab.load(game_name)
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        t0 = time.monotonic()
        page.goto(voila_app, timeout=90_000)
        app = page.locator(".cardlab-play")
        app.get_by_role("combobox", name="game").wait_for(timeout=90_000)
        loaded = time.monotonic() - t0
        print(f"voila page load: {loaded:.1f} s")
        assert loaded < 30, f"the Voila page took {loaded:.1f} s to load"
        app.get_by_role("combobox", name="game").select_option(label=game.title)
        _until(lambda: app.locator(".cardlab-play-about").inner_text(), lambda t: game.title in t,
               "the game's description")
        seats = app.locator(".cardlab-play-seats select")
        assert seats.count() == game.spec.num_players
        # an option: the number of players where it is one (the seats follow), else the
        # payoff, else a rule switch (off / on)
        option = None
        if "players" in game.OPTIONS:
            box = app.get_by_role("spinbutton", name=game.OPTIONS["players"].title("players"), exact=True)
            box.fill("3")
            box.press("Enter")
            _until(lambda: seats.count(), lambda n: n == 3, "three seat pickers")
            game = game.with_options(players=3)
        elif "payoff" in game.OPTIONS:
            from cardlab.widgets.controls import value_text  # the value as the page words it (issue Y)

            option = ("combobox", game.OPTIONS["payoff"].title("payoff"),
                      value_text("payoff", game.OPTIONS["payoff"], "score"))
            app.get_by_role("combobox", name=option[1], exact=True).select_option(label=option[2])
            game = game.with_options(payoff="score")
        else:
            name = next(k for k, o in game.OPTIONS.items() if o.choices is not None
                        and set(o.choices) == {False, True} and k != "open_hands")
            option = ("switch", game.OPTIONS[name].title(name), not game.options[name])  # its label (issue L)
            app.locator(".cardlab-option", has_text=option[1]).get_by_role(
                "button", name="on" if option[2] else "off", exact=True).click()
            game = game.with_options(**{name: option[2]})
        seats.nth(0).select_option("person")
        for i in range(1, game.spec.num_players):
            seats.nth(i).select_option("heuristic")
        screenshot(page, f"voila-{game_name}-0-setup")
        app.get_by_role("button", name="play", exact=True).click()
        _until(lambda: app.locator("button", has_text="hint").count(), bool, "the board", 60)
        board = board_locator(app)
        info = _until(lambda: board_info(board), lambda i: i["status"], "the board's status")
        assert info["status"].startswith("Player 0 (person)"), info["status"]
        pickers = board_part(board, 0).locator("select")  # the seats, then the view
        assert pickers.count() == game.spec.num_players + 1
        assert pickers.nth(1).input_value() == "heuristic"
        if option is not None:  # the board plays with the chosen option
            role, name, value = option
            if role == "combobox":
                assert board_part(board, 1).get_by_role(role, name=name, exact=True).input_value() == value
            else:  # a switch: its "on" or "off" button is the pressed one
                pressed = board_part(board, 1).locator(".cardlab-option", has_text=name).get_by_role(
                    "button", name="on" if value else "off", exact=True)
                assert "mod-active" in (pressed.get_attribute("class") or "")
        play_turn_view_hint(page, board, game, f"voila-{game_name}", whole_page=False)
    finally:
        page.close()


# -- fair play in the page: locked links and the privacy screen ----------------------------
def _widget_text(scope) -> str:
    """Every text inside ``scope`` (a locator), with the options of every
    dropdown and every tooltip."""
    return scope.evaluate("""(root) => root.textContent + ' ' +
        [...root.querySelectorAll('option')].map(o => o.textContent).join(' ') + ' ' +
        [...root.querySelectorAll('[title]')].map(e => e.title).join(' ')""")


def _text(locator) -> str:
    """A locator's textContent with the white space of board_info."""
    return re.sub(r"\s+", " ", locator.evaluate("e => e.textContent")).strip()


@pytest.mark.parametrize("game_name", ["mipig", "koinobori"])
def test_voila_locked_link(browser, voila_app, game_name):
    """``?game=...&seat=0&lock=1&opponent=heuristic``: a locked board at
    once, no set-up; a move is played by clicking; the page has no view
    switch, no "reveal all", no open hint and no undo; the hint is the fair one."""
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        page.goto(f"{voila_app}&game={game_name}&seat=0&lock=1&opponent=heuristic&seed=3", timeout=90_000)
        app = page.locator(".cardlab-play")
        _until(lambda: app.locator("button", has_text="hint").count(), bool, "the locked board", 90)
        board = board_locator(app)
        info = _until(lambda: board_info(board), lambda i: i["status"] and i["offers"], "the board's moves")
        assert info["status"].startswith("Player 0 (person) to move: choose an action"), info["status"]
        assert "you play player 0 (a locked classroom board)" in _text(app)
        assert page.locator("select").count() == 0  # no set-up, no seats, no view, no options
        text, page_text = _widget_text(app), _widget_text(page.locator("body"))
        for absent in ("reveal all", "view as player", "player to move", "open hint", "undo", "redo"):
            assert absent not in text, absent
        assert "reveal all" not in page_text and "open hint" not in page_text
        shot = f"voila-locked-{game_name}"
        screenshot(page, f"{shot}-1-start", board)
        before, prompt = log_count(info), info["prompt"]
        for _ in range(4):  # one move: a button, or the picks of a grid move (a card, then a square)
            board.locator("button.cardlab-offer").first.click()
            info = _until(lambda: board_info(board), lambda i: log_count(i) > before or (
                i["prompt"] != prompt and "chosen" in i["prompt"]), "the move log (or the pick prompt) after a click")
            if log_count(info) > before:
                break
            prompt = info["prompt"]
        assert any(mover_of(ln) == "P0" for ln in info["log"][before:]), info["log"]
        assert RULE_ID.search(info["explanation"]), info["explanation"]
        info = _until(lambda: board_info(board), lambda i: i["offers"] or i["status"].startswith("Game over"),
                      "player 0's next move")
        if info["offers"]:
            board_part(board, 5).get_by_role("button", name="hint", exact=True).click()
            info = _until(lambda: board_info(board), lambda i: i["hint"], "the hint")
            assert info["hint"].startswith(("Hint: fair hint (only what player 0 can see)",
                                            "Hint: estimate (only what player 0 can see")), info["hint"]
            assert "too large" not in info["hint"] and "best: " in info["hint"], info["hint"]
        screenshot(page, f"{shot}-2-moved", board)
        assert page.locator("select").count() == 0
        for absent in ("reveal all", "open hint", "undo"):
            assert absent not in _widget_text(app), absent
    finally:
        page.close()


def _moved(board, count: int) -> bool:
    """Whether the board's log has more than ``count`` moves (``False``
    while the board is being redrawn, or while a privacy screen hides the log)."""
    from playwright.sync_api import Error

    try:
        info = board_info(board)
    except Error:
        return False
    return bool(info["summary"]) and log_count(info) > count


def _hot_seat(page, voila_app: str, game_name: str):
    """The Voila app with ``game_name`` set up for two persons at one screen
    (person, person) and started; the app's locator."""
    page.goto(voila_app, timeout=90_000)
    app = page.locator(".cardlab-play")
    app.get_by_role("combobox", name="game").wait_for(timeout=90_000)
    app.get_by_role("combobox", name="game").select_option(label=cardlab.load(game_name).title)
    seats = app.locator(".cardlab-play-seats select")
    seats.nth(0).select_option("person")
    seats.nth(1).select_option("person")
    app.get_by_role("button", name="play", exact=True).click()
    return app


def test_voila_hot_seat_privacy_screen(browser, voila_app):
    """Two persons at one screen (set-up: person, person): a privacy screen
    before the first turn and between the two persons' turns; nothing of
    the table, the hands or the log is in the page until it is clicked."""
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        app = _hot_seat(page, voila_app, "koinobori")

        def screen_for(p: int):
            """The privacy screen's button, once nothing of the game is in the page."""
            button = app.get_by_role("button", name=f"Pass to Player {p} — click when ready")
            button.wait_for(timeout=60_000)
            text = _text(app)
            for absent in ("as seen by", "move log", "What happened", "手札"):
                assert absent not in text, (absent, text)
            assert app.locator("button.cardlab-offer").count() == 0
            return button, text

        button, _ = screen_for(0)
        assert app.locator(".cardlab-play-seats").is_hidden()  # the set-up folded away: one seat row
        screenshot(page, "voila-hot-seat-1-screen")
        button.click()
        app.locator("details summary").first.wait_for(timeout=60_000)  # the board's move log: drawn again
        board = board_locator(app)
        info = _until(lambda: board_info(board), lambda i: i["offers"], "player 0's moves after ready")
        assert info["status"].startswith("Player 0 (person) to move: choose an action")
        screenshot(page, "voila-hot-seat-2-player0", board)
        table0 = info["table"]
        passed = app.get_by_role("button", name="Pass to Player 1 — click when ready")
        for _ in range(20):  # player 0 plays until the screen passes to player 1
            count = log_count(info)
            board.locator("button.cardlab-offer").first.click()
            _until(lambda: passed.count() or _moved(board, count), bool, "the next move or the privacy screen")
            if passed.count():
                break
            info = _until(lambda: board_info(board), lambda i: i["offers"], "player 0's next move")
        button, text = screen_for(1)
        assert table0 not in text
        screenshot(page, "voila-hot-seat-3-screen")
        button.click()
        # the offers and the move log are separate widgets, drawn one after the other: wait for both
        info = _until(lambda: board_info(board), lambda i: i["offers"] and i["log"], "player 1's moves and log after ready")
        assert info["status"].startswith("Player 1 (person) to move: choose an action"), info["status"]
        assert info["table"] != table0 and any(mover_of(ln) == "P0" for ln in info["log"]), info["log"]
        screenshot(page, "voila-hot-seat-4-player1", board)
    finally:
        page.close()


def test_voila_hot_seat_janken_is_sealed_then_revealed(browser, voila_app):
    """MP-4 (issue Q): mipig's first-player janken between two persons at one
    screen.  Player 0 picks behind the privacy screen; player 1 then sees only
    that player 0 has picked ("Player 0 picks a card for the janken ...; it
    stays hidden"), never which card; once player 1
    has picked, the log shows both cards."""
    page = browser.new_page(viewport={"width": 1280, "height": 2400})
    try:
        app = _hot_seat(page, voila_app, "mipig")
        app.get_by_role("button", name="Pass to Player 0 — click when ready").click(timeout=60_000)
        app.locator("details summary").first.wait_for(timeout=60_000)  # the board's move log: drawn again
        board = board_locator(app)
        info = _until(lambda: board_info(board), lambda i: i["offers"] and i["log"], "player 0's janken")
        assert info["status"].startswith("Player 0 (person) to move"), info["status"]
        assert all(o.startswith("show") for o in info["offers"]), info["offers"]
        count = log_count(info)
        board.locator("button.cardlab-offer").first.click()
        passed = app.get_by_role("button", name="Pass to Player 1 — click when ready")
        passed.wait_for(timeout=60_000)
        passed.click()
        info = _until(lambda: board_info(board), lambda i: i["offers"] and log_count(i) > count,
                      "player 1's janken after ready")
        assert info["status"].startswith("Player 1 (person) to move"), info["status"]
        sealed = info["log"][-1]
        assert re.fullmatch(r"\d+\. P0 \(person\): Player 0 picks a card for the janken to decide who goes first; "
                            r"it stays hidden until player 1 picks", sealed), info["log"]
        screenshot(page, "voila-hot-seat-janken-sealed", board)
        count = log_count(info)
        board.locator("button.cardlab-offer").first.click()
        ready = app.get_by_role("button", name=re.compile(r"Pass to Player \d — click when ready"))
        _until(lambda: ready.count() or _moved(board, count), bool, "the janken's result")
        if ready.count():
            ready.click()
        info = _until(lambda: board_info(board), lambda i: i["log"] and log_count(i) > count, "the revealed janken")
        both = [ln for ln in info["log"] if "show 見せる" in ln]
        assert [re.sub(r"^\d+\. (P\d) \(person\): show 見せる: p\d\d$", r"\1", ln) for ln in both] == ["P0", "P1"], both
        screenshot(page, "voila-hot-seat-janken-revealed", board)
    finally:
        page.close()
