"""The Japanese interface in a real browser (marker ``browser``, issue M).

In JupyterLab every Japanese edition of a tutorial (``notebooks/ja/``) runs
all its cells; its last board plays one move of the person by clicking. In
the Voila app, opened with ``?lang=ja``, the set-up is done in Japanese for
every game and one move is played. Each time the board's texts (table,
status, buttons, explanation, log) must hold no English word but card ids,
rule ids and the words the Japanese rule texts themselves write in Latin
letters, and a Japanese font must draw them (the page's text is measured:
a missing font draws nothing or boxes of another width). Screenshots:
test-artifacts/screenshots/ja-*.png.
"""

from __future__ import annotations

import re
import shutil

import pytest

import cardlab
from cardlab import i18n, render
from cardlab.i18n import _, pgettext

from browser_support import ROOT, board_info, jupyterlab, screenshot, until, voila
from test_i18n import SEED_WORDS, _card_ids

pytestmark = pytest.mark.browser

NOTEBOOKS = ROOT / "notebooks"
JA = NOTEBOOKS / "ja"
WAIT = 120
#: the Japanese tutorials opened in JupyterLab: (notebook, game of its last board)
TUTORIALS = [("00_welcome", "koinobori")] + [
    (name, name) for name in cardlab.games() if (JA / f"{name}.ipynb").exists()]


def _last_board(scope):
    boards = scope.locator(".cardlab-board-widget")
    until(lambda: boards.count(), bool, "a cardlab board (.cardlab-board-widget) in the page", WAIT)
    return boards.last


def _info(board) -> dict:
    """board_info, or empty while the board is still being drawn (children not all there)."""
    from playwright.sync_api import Error

    empty = {"table": "", "status": "", "prompt": "", "actions": [], "offers": [], "explanation": "",
             "hint": "", "log": [], "summary": "", "view": None}
    try:
        return board_info(board)
    except Error:
        return empty


def _board_text(info: dict) -> str:
    return " ".join([info["table"], info["status"], info["prompt"], " ".join(info["actions"]),
                     info["explanation"], " ".join(info["log"])])


def _no_english(game_name: str, text: str) -> None:
    """No English word in ``text`` (a page's textContent, where neighbouring
    cards run together: "p02p13", "MC17"): card ids and the seed's own Latin
    words are taken out first, wherever they start."""
    allowed = _card_ids(game_name) | SEED_WORDS[game_name] | {game_name}
    words = "|".join(re.escape(w) for w in sorted(allowed, key=len, reverse=True))
    bare = re.sub(rf"(?<![A-Za-z])(?:{words})", " ", render.RULE_ID_RE.sub(" ", text))
    left = {w for w in re.findall(r"[A-Za-z]+", bare) if len(w) > 1}  # "x00" is the axis x and a square
    assert left == set(), text[:2000]


def _japanese_font_draws(page) -> None:
    """Japanese text is drawn with a font that has its glyphs: 日本語 is as wide
    as three full-width glyphs and wider than three Latin letters."""
    widths = page.evaluate("""() => {
        const c = document.createElement('canvas').getContext('2d');
        const font = getComputedStyle(document.querySelector(".cardlab-board-widget") || document.body).fontFamily;
        c.font = '16px ' + font;
        return [c.measureText('日本語').width, c.measureText('iii').width];
    }""")
    assert widths[0] > 2 * widths[1] and widths[0] >= 36, widths


def _play_one_move(board, game_name: str, shot: str, page) -> dict:
    """Click the first offer until the person's move is in the log (a grid move
    takes several picks); the board's texts before and after are Japanese."""
    info = until(lambda: _info(board), lambda i: i["table"] and i["status"] and i["offers"],
                 "the board's table, status and moves", WAIT)
    _no_english(game_name, _board_text(info))
    screenshot(page, f"{shot}-1-start", board)
    before = len(info["log"])
    for _i in range(6):
        prompt = info["prompt"]
        board.locator("button.cardlab-offer").first.click()
        info = until(lambda: _info(board), lambda i: len(i["log"]) > before or i["prompt"] != prompt,
                     "the move log (or the pick prompt) after a click", WAIT)
        if len(info["log"]) > before:
            break
    else:
        raise AssertionError(f"six clicks and no move in the log: {info}")
    info = until(lambda: _info(board), lambda i: i["explanation"], "the explanation of the move", WAIT)
    assert render.RULE_ID_RE.search(info["explanation"]), info["explanation"]
    _no_english(game_name, _board_text(info))
    screenshot(page, f"{shot}-2-moved", board)
    return info


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("lab-ja")
    shutil.copytree(NOTEBOOKS, work / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    with jupyterlab(work, work) as (base, token):
        yield base, token


@pytest.mark.parametrize("notebook,game_name", TUTORIALS, ids=[t[0] for t in TUTORIALS])
def test_japanese_tutorial_board_in_jupyterlab(browser, lab, notebook, game_name):
    """notebooks/ja/<notebook>.ipynb in JupyterLab: all cells run, the board
    speaks Japanese and plays a move by clicks."""
    from test_widgets_browser import run_all

    base, token = lab
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        run_all(page, f"{base}/lab/tree/notebooks/ja/{notebook}.ipynb?reset&token={token}")
        panel = page.locator(".jp-NotebookPanel:visible")
        board = _last_board(panel)
        _japanese_font_draws(page)
        _play_one_move(board, game_name, f"ja-lab-{notebook}", page)
    finally:
        page.close()


@pytest.fixture(scope="session")
def voila_app(tmp_path_factory):
    pytest.importorskip("voila", reason="pip install voila (cardlab's test extra)")
    work = tmp_path_factory.mktemp("voila-ja")
    with voila(NOTEBOOKS / "play.ipynb", work) as url:
        yield url


@pytest.mark.parametrize("game_name", cardlab.games())
def test_japanese_voila_app(browser, voila_app, game_name):
    """The class app with ?lang=ja: the set-up in Japanese (game, seats), the
    board in Japanese, one move played by clicks."""
    from cardlab.widgets.board import seat_label

    game = cardlab.load(game_name)
    with i18n.using("ja"):
        title, play = render.game_title(game), pgettext("app", "play")
        game_label, person, agent = _("game"), seat_label("person"), seat_label("heuristic")
    page = browser.new_page(viewport={"width": 1280, "height": 2000})
    try:
        page.goto(f"{voila_app}&lang=ja", timeout=90_000)
        app = page.locator(".cardlab-play")
        picker = app.get_by_role("combobox", name=game_label, exact=True)
        picker.wait_for(timeout=90_000)
        picker.select_option(label=title)
        until(lambda: app.locator(".cardlab-play-about").inner_text(), lambda t: title in t,
              "the game's description", WAIT)
        seats = app.locator(".cardlab-play-seats select")
        until(lambda: seats.count(), lambda n: n == game.spec.num_players, "the seat pickers", WAIT)
        seats.nth(0).select_option(label=person)
        for i in range(1, game.spec.num_players):
            seats.nth(i).select_option(label=agent)
        _japanese_font_draws(page)
        screenshot(page, f"ja-voila-{game_name}-0-setup")
        app.get_by_role("button", name=play, exact=True).click()
        board = _last_board(app)
        _play_one_move(board, game_name, f"ja-voila-{game_name}", page)
    finally:
        page.close()
