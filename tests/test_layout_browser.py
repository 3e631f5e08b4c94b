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
