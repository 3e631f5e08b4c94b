"""Issue L: nothing drawn sticks out of its card.  Positions of every game
(seeded games, every card open), drawn by the game's own renderer in
Debian's chromium: every text of every card picture must lie inside its
picture (a long name such as かぶとがえし, a Mazemon material line, is fitted
to the card).  A screenshot per game is kept under test-artifacts/."""

from __future__ import annotations

import contextlib

import pytest

import cardlab
from cardlab import i18n, render

from browser_support import screenshot

pytestmark = pytest.mark.browser

#: the texts of each SVG picture that reach beyond its width
OUTSIDE_JS = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    const vb = svg.viewBox && svg.viewBox.baseVal;
    const width = vb && vb.width ? vb.width : svg.width.baseVal.value;
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.width && (b.x < -1 || b.x + b.width > width + 1)) out.push(t.textContent);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def page(browser):
    p = browser.new_page(viewport={"width": 1100, "height": 900})
    yield p
    p.close()


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", cardlab.games())
def test_no_text_sticks_out_of_its_card(page, name, language):
    """In English and in Japanese (issue M: the card frames fit Japanese labels)."""
    game = cardlab.load(name, open_hands=True)
    outside: set[str] = set()
    drawn = 0
    for seed in range(3):
        m = cardlab.Match(game, ["random"] * game.spec.num_players, seed=seed)
        for step in range(80):
            if m.is_over():
                break
            m.step()
            if step % 5:
                continue
            with i18n.using(language):
                picture = render.html(m.state)
            page.set_content(f"<html><body style='font-family:sans-serif'>{picture}</body></html>")
            outside |= set(page.evaluate(OUTSIDE_JS))
            drawn += 1
    assert drawn > 10 and not outside, sorted(outside)
    screenshot(page, f"layout-{name}" + ("" if language == "en" else f"-{language}"))


# -- the option row: each option one control, its label and values whole ----------------------
#: every text of the option row that its box cuts: a label, a button, a dropdown's value (each
#: choice of a dropdown is measured in the dropdown's font against the room its box leaves)
CUT_IN_JS = """(root) => {
  const out = [], ctx = document.createElement('canvas').getContext('2d');
  for (const el of root.querySelectorAll('.widget-label, button')) {
    if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) out.push(el.textContent);
  }
  for (const sel of root.querySelectorAll('select')) {
    const cs = getComputedStyle(sel);
    ctx.font = cs.font;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 14;
    for (const o of sel.options) if (ctx.measureText(o.text).width > room) out.push(o.text);
  }
  return out;
}"""
CLIPPED_OPTIONS_JS = f"() => [...document.querySelectorAll('.cardlab-option')].flatMap({CUT_IN_JS})"

OPTION_ROWS = '''import ipywidgets as w
import cardlab, cardlab.widgets
rows = []
for lang in ("en", "ja"):
    for name in cardlab.games():
        b = cardlab.widgets.board(name, language=lang, autoplay=False)
        b.options_box.add_class(f"cardlab-test-{name}-{lang}")
        rows.append(w.VBox([w.HTML(f"<b>{name} {lang}</b>"), b.options_box]))
w.VBox(rows)
'''


@contextlib.contextmanager
def _voila_page(tmp_path_factory, name: str, code: str):
    """A page (Voila) of a notebook with one cell, ``code``; yields its URL."""
    pytest.importorskip("voila", reason="pip install voila (cardlab's test extra)")
    import nbformat

    from browser_support import voila

    work = tmp_path_factory.mktemp(name)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nbformat.write(nb, work / f"{name}.ipynb")
    with voila(work / f"{name}.ipynb", work) as url:
        yield url


@pytest.fixture(scope="module")
def option_rows(tmp_path_factory):
    """A page (Voila) with the option row of every game's board, English and Japanese."""
    with _voila_page(tmp_path_factory, "options", OPTION_ROWS) as url:
        yield url


def test_Y_option_rows_and_dropdowns_are_never_cut(browser, option_rows):
    """Issue Y: each option is one control with its whole label beside it
    and its values in words; no label, switch or dropdown value is cut, in
    English or Japanese, on any board (a screenshot per language)."""
    page = browser.new_page(viewport={"width": 1100, "height": 2400})
    try:
        page.goto(option_rows, timeout=90_000)
        for language in ("en", "ja"):
            for name in cardlab.games():
                page.locator(f".cardlab-test-{name}-{language} .cardlab-option").first.wait_for(timeout=90_000)
        controls = page.locator(".cardlab-option")
        wanted = sum(1 for name in cardlab.games() for o in cardlab.load(name).OPTIONS.values()
                     if o.choices is not None)
        assert controls.count() == 2 * wanted
        texts = page.locator(".cardlab-option").all_inner_texts()
        assert not [t for t in texts if "_" in t], texts  # values in words, not identifiers
        assert page.evaluate(CLIPPED_OPTIONS_JS) == []
        screenshot(page, "options-rows")
        # the check can fail: a dropdown squeezed to 9em cuts its label or its values
        page.evaluate("() => { document.querySelector('.widget-dropdown.cardlab-option').style.width = '9em'; }")
        assert page.evaluate(CLIPPED_OPTIONS_JS)
    finally:
        page.close()


# -- the projector size: every board readable from the back of a classroom ----------------------
PROJECTOR_BOARDS = '''import ipywidgets as w
import cardlab, cardlab.widgets
boards = []
for lang in ("en", "ja"):
    for name in cardlab.games():
        g = cardlab.load(name, open_hands=True)
        n = g.spec.num_players
        b = cardlab.widgets.board(g, ["person"] + ["random"] * (n - 1), "all", seed=3, language=lang,
                                  projector=True, hint_nodes=200)
        for _ in range(3):  # cards on the table, and "What happened" with their pictures
            s = b.state
            if s.is_terminal() or not b.moves_shown():
                break
            b.play(sorted(s.legal_actions())[-1])
        b.add_class(f"cardlab-test-{name}-{lang}")
        boards.append(b)
w.VBox(boards)
'''

#: what a board in projector size draws too small, cut or beyond the page: every text of a card
#: picture below 24 px (its font size times every zoom and scale on the way), any other text not
#: at least twice its size (CSS zoom), a label, button or dropdown value its box cuts, a card text
#: beyond its card, a part beyond the page's right edge
PROJECTOR_JS = """(board) => {
  const small = [], unzoomed = [], outside = [], beyond = [], cut = (""" + CUT_IN_JS + """)(board);
  const visible = (e) => e.getClientRects().length > 0;
  for (const t of board.querySelectorAll('svg text')) {
    if (!visible(t) || !t.textContent.trim()) continue;
    const b = t.getBBox(), r = t.getBoundingClientRect();
    const px = parseFloat(getComputedStyle(t).fontSize) * (b.height ? r.height / b.height : 0);
    if (px < 23.5) small.push(t.textContent + ' ' + px.toFixed(1) + 'px');
  }
  for (const e of board.querySelectorAll('*')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && visible(e) && !e.closest('svg') && e.currentCSSZoom < 2) {
      unzoomed.push(e.textContent.trim().slice(0, 40));
    }
  }
  outside.push(...(""" + OUTSIDE_JS.replace("document.", "board.") + """)(board));
  for (const e of board.querySelectorAll('*')) {
    const right = e.getBoundingClientRect().right;
    if (visible(e) && right > window.innerWidth + 1) beyond.push(e.tagName + ' ' + e.className);
  }
  return {small, unzoomed: unzoomed.slice(0, 10), cut, outside, beyond: beyond.slice(0, 10),
          zoom: board.currentCSSZoom, svgs: board.querySelectorAll('svg text').length};
}"""


@pytest.fixture(scope="module")
def projector_boards(tmp_path_factory):
    """A page (Voila) with a board of every game in projector size, English and Japanese."""
    with _voila_page(tmp_path_factory, "projector", PROJECTOR_BOARDS) as url:
        yield url


def _whole_board(page, board, name):
    """A screenshot of the whole board: Voila scrolls its page inside a box as high as
    the window, so the window is made as high as the board for the picture."""
    height = int(board.evaluate("e => e.getBoundingClientRect().height")) + 300
    page.set_viewport_size({"width": 1920, "height": max(1080, min(height, 16000))})
    screenshot(page, name, board)
    page.set_viewport_size({"width": 1920, "height": 1080})


def test_Y3_projector_size_is_readable_from_the_back_and_cuts_nothing(browser, projector_boards):
    """Issue Y, item 3: on a 1080p projector (1920 x 1080 px) every board in
    projector size draws its cards' names and numbers at 24 px or more,
    every other text at twice its size, and nothing cut, outside its card or
    beyond the page, in English and Japanese (a screenshot per game and
    language); switched off, the same board is back to its normal size."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        page.goto(projector_boards, timeout=120_000)
        for language in ("en", "ja"):
            for name in cardlab.games():
                board = page.locator(f".cardlab-test-{name}-{language}")
                board.locator("svg").first.wait_for(timeout=120_000)
                found = board.evaluate(PROJECTOR_JS)
                assert found["zoom"] >= 2 and found["svgs"] > 5, (name, language, found)
                assert found["small"] == [] and found["unzoomed"] == [], (name, language, found)
                assert found["cut"] == [] and found["outside"] == [] and found["beyond"] == [], (name, language, found)
                _whole_board(page, board, f"projector-{name}-{language}")
        # the check can fail: switched off, the cards' texts are small again (and still not cut)
        for language in ("en", "ja"):
            board = page.locator(f".cardlab-test-koinobori-{language}")
            board.locator(".cardlab-projector-switch input").click()
            page.wait_for_timeout(500)
            normal = board.evaluate(PROJECTOR_JS)
            assert normal["zoom"] == 1 and normal["small"] and normal["unzoomed"], normal
            assert normal["cut"] == [] and normal["outside"] == [] and normal["beyond"] == [], normal
            _whole_board(page, board, f"projector-off-koinobori-{language}")
    finally:
        page.close()
