"""The projector size of a board (issue Y, item 3), without a browser: the
switch, the class on the board's root, a link's ``projector=1``.  What it
looks like (every game, both languages, 24 px and nothing cut) is checked in
a real browser: tests/test_layout_browser.py."""

from __future__ import annotations

import pytest

import cardlab
import cardlab.widgets
from cardlab import CardlabError
from cardlab.widgets.app import parse_query, play_app
from cardlab.widgets.projector import PROJECTOR_CLASS, PROJECTOR_CSS


def _big(b) -> bool:
    return PROJECTOR_CLASS in b._dom_classes


def test_Y3_the_switch_puts_the_class_on_the_boards_root_and_takes_it_off():
    b = cardlab.widgets.board("koinobori", seed=1)
    assert not b.projector and not _big(b) and not b.projector_box.value
    assert b.projector_box in b.children[0].children and b.projector_style in b.children[0].children
    assert f".{PROJECTOR_CLASS}{{zoom:2}}" in b.projector_style.value == PROJECTOR_CSS
    b.projector_box.value = True  # what a click does
    assert b.projector and _big(b)
    moves = len(b.match.history)
    b.set_projector(False)
    assert not _big(b) and not b.projector_box.value and len(b.match.history) == moves  # the game is untouched
    big = cardlab.widgets.board("mipig", projector=True, language="ja")
    assert _big(big) and big.projector_box.value
    assert "cardlab-grid" in big.grid._dom_classes and "cardlab-pictures" in big.table._dom_classes


def test_Y3_a_locked_board_may_be_made_big_too():
    b = cardlab.widgets.board("mipig", ["person", "heuristic"], seat=0, locked=True)
    b.projector_box.value = True
    assert _big(b) and b.projector_box in b.children[0].children and not b._message


def test_Y3_a_link_asks_for_the_projector_size():
    assert parse_query("projector=1") == {"projector": True}
    assert parse_query("lang=ja&projector=off") == {"lang": "ja", "projector": False}
    assert parse_query("game=mipig&projector=yes")["projector"] is True
    assert "projector" not in parse_query("game=mipig")
    with pytest.raises(CardlabError, match="projector='2' is not accepted; projector accepts 0 or 1"):
        parse_query("game=mipig&projector=2")
    assert _big(play_app(query="game=koinobori&projector=1").board)
    assert _big(play_app(query="game=mipig&seat=0&lock=1&projector=1").board)
    assert not _big(play_app(query="game=mipig&seat=0&lock=1").board)


def test_Y3_the_class_app_keeps_the_size_for_its_next_board():
    app = play_app(query="projector=1")
    app.play()
    assert _big(app.board)
    app.board.projector_box.value = False  # switched off on the board: the next board is normal
    app.show_setup()
    app.play()
    assert not _big(app.board)
    app.board.projector_box.value = True
    app.show_setup()
    app.play()
    assert _big(app.board)


def test_Y3_a_room_link_asks_for_the_projector_size(tmp_path):
    """A pupil's room link with ``&projector=1`` opens their board big; without it, not."""
    from cardlab.rooms import RoomStore
    from cardlab.widgets.room import RoomBoard, room_page

    store = RoomStore(tmp_path / "class.db")
    store.pairings("koinobori", ["Aiko", "Ben"], seed=1)
    link = store.links("R1")[0].lstrip("?")
    pages = [room_page(link + extra, store) for extra in ("&projector=1", "")]
    boards = [next(c for c in page.children if isinstance(c, RoomBoard)) for page in pages]
    assert _big(boards[0]) and boards[0].projector_box.value and not _big(boards[1])
    for b in boards:
        b.close()
