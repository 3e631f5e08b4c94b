"""Issue W, item 6 (second half): "show to the class" puts one room on the
projector in a view with no hidden card (:class:`cardlab.widgets.projector.ClassView`).

- In every game, the page shows the class nothing any seat keeps hidden:
  *equal information, equal output* on the whole page (its widget tree as
  the browser receives it), for the room's position and last move and a
  twin that differs in every card some seat cannot see
  (:func:`leak.class_twin`); the render-level leak test of the class's view
  is in tests/test_fair_play.py.
- No URL parameter, alone or in pairs, makes the view show more: a seat's
  or the teacher's valid key, options, another view, all refused with a
  message; only the language and the projector size may change.
- The teacher's wall has *show to the class* for each room, and its link
  opens that room's view in projector size; the view follows the room.
"""

from __future__ import annotations

import itertools
import random
from urllib.parse import urlsplit

import pytest
from leak import class_twin
from test_board_fair_play import dump
from test_rooms import play_out

import cardlab
from cardlab import render
from cardlab.i18n import _
from cardlab.rooms import RoomStore
from cardlab.widgets.app import play_app
from cardlab.widgets.projector import PROJECTOR_CLASS, ClassView, class_link
from cardlab.widgets.room import Lobby, RoomBoard, room_page


@pytest.fixture
def store(tmp_path, monkeypatch):
    """The class's store, which the class app's pages open too."""
    monkeypatch.setenv("CARDLAB_ROOMS", str(tmp_path / "class.db"))
    monkeypatch.delenv("QUERY_STRING", raising=False)
    return RoomStore(tmp_path / "class.db")


def _last_move(store: RoomStore, rid: str):
    """The position before the room's last player's move, and that move."""
    s = store.room(rid).load().new_initial_state()
    before = action = None
    for player, a in store.moves(rid):
        if player >= 0:
            before, action = s, a
        s = s._apply(a)
    return before, action


@pytest.mark.parametrize("game", cardlab.games())
def test_W6_the_class_view_shows_no_hidden_card_in_every_game(store, game):
    """The page of a room shown to the class is the same, byte for byte,
    for the room's last move and position and for a twin in which every
    card some seat cannot see is dealt anew (and the move made with them)."""
    n = cardlab.load(game).spec.num_players
    room = store.create(game, ["person"] * n, seed=5)
    view = room_page(f"room={room.id}&view=class&projector=1", store)
    assert isinstance(view, ClassView) and PROJECTOR_CLASS in view._dom_classes
    rng = random.Random(f"class view {game}")
    compared = 0
    for _ in range(60):
        play_out(store, room.id, rng, moves=1)
        if store.state(room.id).is_terminal():
            break
        assert view.sync()  # the room moved: the page draws it again
        before, action = _last_move(store, room.id)
        found = class_twin(before, action, rng)
        if found is None:
            continue
        t, b = found
        after, twin_after = before.apply(action), t.apply(b)
        if render.html(twin_after, perspective=None) == render.html(after, perspective=None):
            continue  # nothing hidden differs yet
        shown = []
        for x, y in ((before, action), (t, b)):
            view.show(x.apply(y), x, y)
            shown.append(dump(view))
        assert shown[0] == shown[1], f"{game}: the class's view shows a card some seat keeps hidden"
        compared += 1
    assert compared >= 5, "the twins hardly differed: the test would test little"


def _keys(store: RoomStore, rid: str) -> list[tuple[str, str]]:
    """Every parameter that opens more elsewhere, with values that work there
    (a seat's and the teacher's real keys), and other views."""
    return [("seat", "0"), ("key", store.key(rid, 0)), ("teacher", store.key(None, "teacher")),
            ("lock", "0"), ("open_hands", "1"), ("known_deck_order", "1"), ("perspective", "0"),
            ("reveal", "1"), ("game", "mipig"), ("seed", "4"), ("pupil", "Aiko"), ("join", ""),
            ("view", "seat"), ("view", "all"), ("view", "teacher"), ("colour", "red")]


HARMLESS = [("projector", "0"), ("projector", "1"), ("lang", "ja"), ("lang", "en"), ("token", "abc")]


def test_W6_no_url_parameter_opens_the_class_view_up(store):
    """``?room=R1&view=class`` with any other parameter, alone or in pairs
    (a seat's valid key, the teacher's, options, other views): a message
    and nothing else; with only the language or the projector size: the
    class's view, never a seat's board or the teacher's page."""
    store.pairings("mipig", ["Aiko", "Ben"], seed=2)
    play_out(store, "R1", random.Random(3), moves=6)
    state = store.state("R1")
    base = "room=R1&view=class"
    edits = _keys(store, "R1") + HARMLESS
    kinds = set()
    for pair in itertools.chain(((e,) for e in edits), itertools.combinations(edits, 2)):
        query = base + "".join(f"&{k}={v}" for k, v in pair)
        page = play_app(query=query)
        assert not isinstance(page, (RoomBoard, Lobby)) and "RoomBoard" not in repr(dump(page))
        if all(p in HARMLESS for p in pair):
            assert isinstance(page, ClassView), query
            language = next((v for k, v in pair if k == "lang"), "en")  # a link's first lang= counts
            with cardlab.i18n.using(language):
                assert page.table.value == render.html(state, perspective=render.SPECTATOR), query
            assert (PROJECTOR_CLASS in page._dom_classes) == (dict(pair).get("projector") == "1"), query
            kinds.add("class view")
        else:
            language = next((v for k, v in pair if k == "lang"), "en")
            with cardlab.i18n.using(language):
                said = _("This link does not show a room: {reason}").split("{")[0]
            assert page.value.startswith('<span style="color:#b00">' + said), query
            kinds.add("refused")
    assert kinds == {"class view", "refused"}
    assert "seat" in play_app(query=base + "&seat=0").value and "accepted: room, view, projector, lang" in \
        play_app(query=base + "&seat=0").value


def test_W6_a_class_link_that_names_no_room_says_so(store):
    store.pairings("koinobori", ["Aiko", "Ben"], seed=1)
    assert "the link needs room=" in play_app(query="view=class").value
    assert "there is no room &#x27;R7&#x27;; the rooms are: R1" in play_app(query="room=R7&view=class").value


def test_W6_the_wall_has_show_to_the_class_and_it_opens_the_rooms_view(store):
    """Each room's card on the wall has *show to the class*, a link (a new
    tab) to that room's view in projector size and the page's language."""
    store.pairings("koinobori", ["Aiko", "Ben", "Chie", "Dai"], seed=1)
    play_out(store, "R2", random.Random(5), moves=3)
    lobby = Lobby(store, poll=None, base="http://10.1.2.3:8866/")
    boxes = lobby.wall.children[1:]
    assert len(boxes) == 2
    for rid, box in zip(("R1", "R2"), boxes):
        button = box.children[2].value
        link = class_link(rid, "", "en")  # relative: the address of the teacher's own page
        assert ">show to the class</a>" in button and 'target="_blank"' in button
        assert f'href="{link.replace("&", "&amp;")}"' in button
        page = play_app(query=urlsplit(link).query)
        assert isinstance(page, ClassView) and page.room_id == rid and PROJECTOR_CLASS in page._dom_classes
        assert page.table.value == render.html(store.state(rid), perspective=render.SPECTATOR)
    ja = Lobby(store, poll=None, base="http://10.1.2.3:8866/", language="ja")
    assert "lang=ja" in ja.wall.children[1].children[2].value


def test_W6_the_class_view_follows_the_room(store):
    """The view reads the store at each poll: a move appears with its last
    move line as the class may read it; the end of the room is said."""
    store.pairings("toritsuki", ["Aiko", "Ben"], seed=1)
    view = ClassView(store, "R1", poll=None)
    assert "no move yet" in view.last.value and not view.sync()
    play_out(store, "R1", random.Random(1), moves=1)
    assert view.sync() and not view.sync()
    before, action = _last_move(store, "R1")
    seen = render.seen_move(before, action, render.SPECTATOR)
    assert "last: Aiko: " + seen.sentence.replace("'", "&#x27;") in view.last.value
    assert view.table.value == render.html(store.state("R1"), perspective=render.SPECTATOR)
    store.end("R1")
    assert view.sync() and "The teacher ended this room" in view.status.value


def test_W6_a_move_no_seat_knows_as_little_of_as_the_class_reads_as_a_plain_sentence(monkeypatch):
    """Where each seat knows another part of a move (seat 0 the kind, seat 1
    the card), the class knows neither part and reads a sentence that names
    nothing; a part every seat knows is kept."""
    from toy_games.kuhn.state import Kuhn, KuhnState

    forms = {0: "deal ??", 1: "?? K"}
    monkeypatch.setattr(KuhnState, "public_action", lambda self, action, viewer: forms[viewer])
    root = Kuhn().new_initial_state()
    assert render.public_action(root, "deal K", render.SPECTATOR) == "?? ??"
    seen = render.seen_move(root, "deal K", render.SPECTATOR)
    assert seen.hidden and seen.sentence == "Something happens that the class does not see." and "K" not in seen.label
    forms[1] = "deal ??"
    assert render.seen_move(root, "deal K", render.SPECTATOR) == render.seen_move(root, "deal K", 0)
