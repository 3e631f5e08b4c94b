"""Issue L: nothing drawn sticks out of its card.  Positions of every game
(seeded games, every card open), drawn by the game's own renderer in
Debian's chromium: every text of every card picture must lie inside its
picture (a long name such as かぶとがえし, a Mazemon material line, is fitted
to the card).  A screenshot per game is kept under test-artifacts/."""

from __future__ import annotations

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
CLIPPED_OPTIONS_JS = """() => {
  const out = [], ctx = document.createElement('canvas').getContext('2d');
  for (const row of document.querySelectorAll('.cardlab-option')) {
    for (const el of row.querySelectorAll('.widget-label, button')) {
      if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) out.push(el.textContent);
    }
    for (const sel of row.querySelectorAll('select')) {
      const cs = getComputedStyle(sel);
      ctx.font = cs.font;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 14;
      for (const o of sel.options) if (ctx.measureText(o.text).width > room) out.push(o.text);
    }
  }
  return out;
}"""

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


@pytest.fixture(scope="module")
def option_rows(tmp_path_factory):
    """A page (Voila) with the option row of every game's board, English and Japanese."""
    pytest.importorskip("voila", reason="pip install voila (cardlab's test extra)")
    import nbformat

    from browser_support import voila

    work = tmp_path_factory.mktemp("options")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(OPTION_ROWS)])
    nbformat.write(nb, work / "options.ipynb")
    with voila(work / "options.ipynb", work) as url:
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
