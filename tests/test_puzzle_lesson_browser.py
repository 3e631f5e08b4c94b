"""Issue U, items 4 and 5, in a real browser (Voila): the teacher sets the
puzzle of the lesson on the teacher's page, a pupil opens it from her link,
answers wrong, sees the explanation and the solution, then solves the next
puzzle; the teacher's page shows both attempts and her new rating."""

from __future__ import annotations

import re

import pytest

from cardlab import render
from cardlab.puzzle_store import PuzzleStore, find
from cardlab.puzzles import load
from cardlab.rooms import RoomStore

from browser_support import ROOT, screenshot, teacher_page, until
from browser_support import voila
from test_rooms_browser import squeeze

pytestmark = pytest.mark.browser

WAIT = 120  # seconds: a kernel's start on the shared 2-core machine
PUPILS = ["Aiko", "Ben"]


def _click_moves(page, moves: list[str]) -> None:
    """Click the pupil's moves (each button's tooltip is its action), each once it is drawn."""
    for m in moves:
        button = page.locator(f'.cardlab-lesson-puzzle button[title="{m}"]')
        until(lambda: button.count(), bool, f"the move {m}", WAIT)
        button.first.click()


def test_U_a_pupil_answers_the_puzzle_of_the_lesson_and_the_teacher_sees_the_rating(browser, tmp_path,
                                                                                    monkeypatch):
    db = tmp_path / "class.db"
    monkeypatch.setenv("CARDLAB_ROOMS", str(db))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    store = RoomStore(db)
    book = PuzzleStore(store)
    p = next(q for q in load("koinobori") if len(book.mover_moves(q)) == 1 and q.kind == "fair")
    wrong = next(a for a in p.state.legal_actions() if a != p.answer)
    with voila(ROOT / "notebooks" / "play.ipynb", tmp_path) as url:
        context, teacher, set_button = teacher_page(browser, url, store, "set the puzzle of the lesson", WAIT)
        teacher.get_by_placeholder("one pupil a line").fill("\n".join(PUPILS))
        teacher.get_by_placeholder("mipig-0001").fill(p.id)
        set_button.click()
        until(lambda: squeeze(teacher.locator("body").inner_text()),
              lambda t: f"{p.id} is the puzzle of the lesson" in t, "the puzzle set", WAIT)
        assert store.roster() == PUPILS and book.lesson_puzzle().puzzle.id == p.id

        aiko = context.new_page()  # Aiko's link (another tab of the same browser)
        aiko.goto(f"{url}&{book.link('Aiko')[1:]}", timeout=WAIT * 1000)
        until(lambda: squeeze(aiko.locator("body").inner_text()),
              lambda t: "The puzzle of the lesson, for Aiko" in t and f"puzzle {p.id}" in t, "Aiko's puzzle", WAIT)
        _click_moves(aiko, [wrong])
        feedback = aiko.locator(".cardlab-puzzle-feedback")
        until(lambda: squeeze(feedback.inner_text()), lambda t: t.startswith("Wrong:"), "the wrong answer said", WAIT)
        text = squeeze(feedback.inner_text())
        assert squeeze(p.explanation("en"))[:60] in text and "It is worth" in text
        words = {a: render.action_label(p.state, a) for a in (p.answer, wrong)}  # the buttons' words
        assert f"Only “{words[p.answer]}” is best" in text and f"“{words[wrong]}”: " in text, text
        assert p.answer not in text and wrong not in text, text  # the moves in words, not in notation
        saved = aiko.locator(".cardlab-puzzle-saved")
        until(lambda: saved.inner_text(), lambda t: "Stored: your puzzle rating 1500 →" in t, "the attempt stored", WAIT)
        screenshot(aiko, "puzzle-lesson-pupil-wrong")

        aiko.locator("button", has_text="next puzzle").click()
        head = until(lambda: squeeze(aiko.locator(".cardlab-lesson-puzzle").inner_text()),
                     lambda t: re.search(r"puzzle (\S+) \(", t) and f"puzzle {p.id} (" not in t, "the next puzzle",
                     WAIT)
        q = find(re.search(r"puzzle (\S+) \(", head).group(1))
        _click_moves(aiko, book.mover_moves(q))
        until(lambda: squeeze(feedback.inner_text()), lambda t: t.startswith("Right:"), "the right answer said", WAIT)
        until(lambda: len(book.attempts("Aiko")), lambda n: n == 2, "both attempts stored", WAIT)
        first, second = book.attempts("Aiko")
        assert (first.puzzle, first.solved, second.puzzle, second.solved) == (p.id, False, q.id, True)
        assert second.rating.rating > first.rating.rating
        until(lambda: saved.inner_text(), lambda t: f"→ {second.rating}" in t, "the new rating on her page", WAIT)
        screenshot(aiko, "puzzle-lesson-pupil-right")

        table = teacher.locator("table.cardlab-puzzle-table")
        until(lambda: squeeze(table.inner_text()) if table.count() else "",
              lambda t: f"{p.id} ✗" in t and f"{q.id} ✓" in t and str(second.rating) in t,
              "the attempts and the new rating on the teacher's page", WAIT)
        screenshot(teacher, "puzzle-lesson-teacher", teacher.locator(".cardlab-lesson-puzzle-panel"))
        context.close()
    store.close()
