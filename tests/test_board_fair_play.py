"""Fair play on the board (issue I): what a board shows one viewer depends
only on what that viewer may know.

*Equal information, equal output*, on the widgets themselves: for every
registered game, two boards whose positions the viewer cannot tell apart (a
start ``s`` and ``t = s.redeal(v, rng)``, then a history played on both,
each move in ``t`` the twin of the move in ``s``) must show that viewer
byte-identical widget trees (:func:`dump`: every synced field of every
widget, as the browser receives it).  Checked on a locked board for seat
``v`` (with the fair hint) and on a hot-seat board (two or more persons at
one screen) at its privacy screen and in ``v``'s view after :meth:`ready`.

Also: moves only in the mover's own view, the privacy screen, the locked
board's refusals, the fair hint on the board, and the class app's URL
parameters.
"""

from __future__ import annotations

import json
import random
from typing import Any

import ipywidgets as widgets
import pytest

import cardlab
from cardlab import CHANCE, render
from cardlab.errors import CardlabError
from cardlab.widgets import PlayApp, board, parse_query, play_app

from leak import choices, enough
from test_render import ENDGAME

SEEDS = (1, 2)
STEPS = 60  # moves of each history (the games' ends are reached in many of them)
#: a small, deterministic hint budget: the hint is compared too, it must stay quick
HINT = {"hint_nodes": 1500, "hint_max_arrangements": 30}


def dump(w: widgets.Widget) -> dict[str, Any]:
    """Everything a widget sends to the browser (every synced field: type,
    description, value, tooltip, options, titles, disabled, button style,
    dom classes, layout ...), with its children and layout dumped in turn
    instead of their model ids."""
    out: dict[str, Any] = {"type": type(w).__name__}
    for key in sorted(w.keys):
        value = getattr(w, key)
        if isinstance(value, widgets.Widget):
            value = dump(value)
        elif isinstance(value, (list, tuple)) and any(isinstance(x, widgets.Widget) for x in value):
            value = [dump(x) for x in value]
        out[key] = value
    return out


def shown(b) -> str:
    """The board's whole widget tree as text (compared byte for byte)."""
    return json.dumps(dump(b), sort_keys=True, ensure_ascii=False, default=repr)


def twin_move(s, a: str, t, v: int, rng: random.Random) -> str | None:
    """The move in ``t`` that corresponds to ``a`` in ``s`` for viewer ``v``
    (as :func:`leak.twin`): ``a`` itself when it is legal in ``t`` and leaves
    ``v`` knowing the same, else (only for a move ``v`` did not make) the one
    that does and differs from ``a`` in the fewest words; ``None``: none."""
    after = s.apply(a).information_set(v)
    same = [b for b in choices(t) if t.apply(b).information_set(v) == after]
    if a in same:
        return a
    if not same or s.current_player == v:
        return None
    words = a.split()

    def distance(b: str) -> int:
        w = b.split()
        return sum(x != y for x, y in zip(w, words)) + 10 * abs(len(w) - len(words))

    best = min(map(distance, same))
    return rng.choice([b for b in same if distance(b) == best])


def play_twins(s, t, v: int, rng: random.Random) -> list[tuple[str, str]]:
    """Up to STEPS moves ``(a, b)`` from ``s`` and ``t``: in ``s`` a random
    move or chance outcome among those that have a twin in ``t`` (an
    opponent may reveal a card that ``t`` does not give them), in ``t`` its
    twin; it ends when none has."""
    pairs: list[tuple[str, str]] = []
    while not s.is_terminal() and len(pairs) < STEPS:
        options = choices(s)
        rng.shuffle(options)
        found = next(((a, b) for a in options if (b := twin_move(s, a, t, v, rng)) is not None), None)
        if found is None:
            break
        pairs.append(found)
        s, t = s.apply(found[0]), t.apply(found[1])
    return pairs


def differing(s, t, pairs) -> int:
    """In how many positions of the twin histories ``s`` and ``t`` differ."""
    n = 0
    for a, b in pairs:
        n += s != t
        s, t = s.apply(a), t.apply(b)
    return n + (s != t)


def twin_histories(game, v: int, seed: int, tries: int = 8):
    """``(s, t, pairs)``: a start ``s`` (a seeded deal, or the first position
    of a random game from it where ``v`` does not see every card), ``t`` =
    ``s`` re-dealt for ``v`` and the twin moves played from them
    (:func:`play_twins`): of ``tries`` re-deals, the one whose history
    differs from ``s``'s in the most positions."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    while s.current_player == CHANCE or not (game.spec.perfect_information or s.is_terminal()
                                             or any(s.redeal(v, rng) != s for _ in range(3))):
        s = s.apply(rng.choice(choices(s)))  # (a board settles chance by itself: start at a decision)
    found = []
    for _ in range(tries):
        t = s.redeal(v, rng)
        pairs = play_twins(s, t, v, random.Random(seed))
        found.append((differing(s, t, pairs), len(pairs), t, pairs))
    _, _, t, pairs = max(found, key=lambda x: x[:2])
    return s, t, pairs


def seats(game, person_seats) -> list[str]:
    return ["person" if i in person_seats else "random" for i in range(game.spec.num_players)]


def step_both(bs, bt, a: str, b: str) -> None:
    """One move of the twin histories on both boards (chance included), then redraw."""
    bs.match.play(a)
    bt.match.play(b)
    bs.redraw()
    bt.redraw()


# -- equal information, equal widgets ----------------------------------------------------
def test_locked_board_shows_twins_the_same(game):
    """A locked board for seat v: table, grid, hand, moves, log, "What
    happened", status, controls and the fair hint are byte-identical for
    positions v cannot tell apart."""
    n = game.spec.num_players
    differ = hints = 0
    for seed in SEEDS:
        for v in range(n):
            s0, t0, pairs = twin_histories(game, v, seed)
            kw = dict(seat=v, locked=True, autoplay=False, seed=seed, **HINT)
            bs, bt = board(s0, seats(game, [v]), **kw), board(t0, seats(game, [v]), **kw)
            assert shown(bs) == shown(bt), (game.name, seed, v, 0)
            for i, (a, b) in enumerate(pairs, 1):
                step_both(bs, bt, a, b)
                if bs.state.current_player == v and (i % 4 == 0 or hints == 0):  # a short game: its first turn
                    assert bs.moves_shown() and bt.moves_shown()
                    bs.hint()
                    bt.hint()
                    hints += 1
                assert shown(bs) == shown(bt), (game.name, seed, v, i, a, b, bs.state.to_dict(), bt.state.to_dict())
                differ += bs.state != bt.state
    assert hints > 0
    if not game.spec.perfect_information:
        assert differ > enough(game, 20, 1), "the twins never differed: this test would test nothing"


def test_hot_seat_board_shows_twins_the_same(game):
    """Every seat a person at one screen (view "player to move"): the
    privacy screen is the same for every pair of twins, and after "ready"
    the board in v's view is the same too."""
    n = game.spec.num_players
    ready = 0
    for v in range(n):
        s0, t0, pairs = twin_histories(game, v, SEEDS[0])
        everyone = seats(game, range(n))
        bs, bt = board(s0, everyone, seed=1, **HINT), board(t0, everyone, seed=1, **HINT)
        for i, (a, b) in enumerate([(None, None)] + pairs):
            if a is not None:
                step_both(bs, bt, a, b)
            assert bs.waiting_for == bt.waiting_for
            assert shown(bs) == shown(bt), (game.name, v, i)
            if bs.waiting_for == v:
                bs.ready()
                bt.ready()
                ready += 1
                assert bs.perspective == bt.perspective == v
                assert shown(bs) == shown(bt), (game.name, v, i, "after ready")
    assert ready >= n


# -- moves only in the mover's own view ------------------------------------------------------
def test_moves_only_in_the_movers_own_view(game):
    """A person at seat 0 to move: in player 1's view no button, hand, pick
    or list of moves, and play/pick refuse; in their own view or "reveal
    all", exactly the legal actions."""
    b = board(game, seats(game, [0]), seed=3)
    s = b.state
    assert s.current_player == 0 and b.perspective == 0
    assert list(b.action_buttons) == s.legal_actions()
    b.set_perspective(1)
    assert b.state == s and not b.moves_shown()
    assert b.action_buttons == {} and b.pick_buttons == {} and b.items_box.children == ()
    assert b.actions_box.children == () and b.list_box.children == () and b.picker.layout.display == "none"
    assert "Player 0 (person) to move: player 0 moves in player 0&#x27;s own view" in b.status.value
    assert b.hint_button.disabled
    with pytest.raises(CardlabError, match="no move can be played here now: player 0 moves in player 0's own view"):
        b.play(s.legal_actions()[0])
    lay = render.layout(s, perspective=0)
    if lay is not None and lay.paths:
        with pytest.raises(CardlabError, match="cannot be picked now; on offer: nothing"):
            b.pick(next(iter(lay.offered())))
    assert b.state == s
    for view in ("all", "mover", 0):
        b.set_perspective(view)
        assert list(b.action_buttons) == s.legal_actions() and b.moves_shown()


def test_an_agent_to_move_offers_nothing_and_cannot_be_played_for():
    b = board("koinobori", ["random", "person"], seed=2, autoplay=False)
    assert b.state.current_player == 0 and b.perspective == 1
    assert b.action_buttons == {} and not b.moves_shown()
    with pytest.raises(CardlabError, match=r"player 0 is an agent \(random\): press step"):
        b.play(b.state.legal_actions()[0])


# -- the privacy screen ----------------------------------------------------------------------
def test_privacy_screen_hides_both_hands_until_ready(game):
    """Between two persons' turns nothing of either hand is drawn: the
    screen looks the same when both hands are dealt anew; after "Pass to
    Player p — click when ready" the board shows p's view."""
    n = game.spec.num_players
    rng = random.Random(5)
    s = game.new_initial_state(seed=5)
    u = s
    for p in range(n):  # every hand dealt anew, each keeping what the others see
        u = u.redeal(p, rng)
    everyone = seats(game, range(n))
    bs, bu = board(s, everyone, seed=1), board(u, everyone, seed=1)
    p = s.current_player
    assert bs.waiting_for == p and bs.perspective == p
    assert bs.table.value == bs.log_html.value == bs.explanation.value == ""
    assert bs.action_buttons == {} and bs.pick_buttons == {} and bs.grid.children == ()
    assert bs.ready_button in bs.status_box.children
    assert bs.ready_button.description == f"Pass to Player {p} — click when ready"
    assert bs.hint_button.disabled and bs.hint().startswith("No hint")
    assert shown(bs) == shown(bu)
    bs.ready_button.click()
    bu.ready()
    assert bs.waiting_for is None and bs.ready_button not in bs.status_box.children
    assert bs.table.value == render.html(s, perspective=p) or bs.table.value == render.layout(s, perspective=p).above
    assert list(bs.action_buttons) == s.legal_actions()
    if not game.spec.perfect_information and s.hidden(p) is not None:
        assert shown(bs) != shown(bu), "the re-deal changed no hand: this test would test nothing"
    with pytest.raises(CardlabError, match="no privacy screen is up"):
        bs.ready()


def test_privacy_screen_comes_between_two_persons_turns():
    """koinobori, two persons: after P0's move the screen waits for P1,
    nothing of P0's hand or of the log is drawn, and P1 sees their own view."""
    b = board("koinobori", ["person", "person"], seed=4)
    b.ready()
    hand0 = render.html(b.state, perspective=0)
    b.action_buttons[b.state.legal_actions()[0]].click()
    while b.state.current_player == 0:  # the same person moves on: no screen
        assert b.waiting_for is None and b.action_buttons
        b.action_buttons[b.state.legal_actions()[0]].click()
    assert b.waiting_for == 1 and "pass the screen to player 1" in b.status.value
    assert b.table.value == "" and b.log_html.value == "" and b.action_buttons == {}
    assert hand0 not in shown(b)
    b.ready_button.click()
    assert b.perspective == 1 and b.table.value == render.html(b.state, perspective=1)
    assert "What happened" in b.explanation.value and "move log" in b.log_html.value
    lines = b.explanation_lines()  # P0's moves and the cards dealt, drawn or laid out: P1 has not moved yet
    assert lines and not any(x.startswith("P1 ") for x in lines)
    # back to another view and to "player to move": anybody may have looked, the screen comes up again
    b.set_perspective("all")
    b.set_perspective("mover")
    assert b.waiting_for == 1


def test_one_person_gets_no_privacy_screen():
    b = board("koinobori", ["person", "heuristic"], seed=4, perspective="mover")
    assert b.waiting_for is None and b.action_buttons


# -- the locked classroom board ----------------------------------------------------------------
def koinobori_endgame():
    game = cardlab.load("koinobori")
    return game.state_from_dict(dict(ENDGAME, options=game.options_dict()))


def test_locked_board_has_no_view_seat_option_undo_or_open_hint_controls(game):
    b = board(game, seats(game, [0]), seat=0, locked=True, seed=2)
    text = shown(b)
    assert b.locked and b.perspective == 0 and repr(b).endswith("locked=True)")
    for absent in ("reveal all", "view as player", "player to move", "open hint", "↶ undo", "↷ redo"):
        assert absent not in text, absent
    assert b.view_picker not in b.children[0].children and b.seat_label in b.children[0].children
    assert b.options_box.children == ()
    assert "You are player 0" in b.seat_label.value and "locked" in b.seat_label.value
    assert list(b.action_buttons) == b.state.legal_actions()


def test_locked_refusals_name_what_is_allowed_and_change_nothing():
    s = koinobori_endgame()
    b = board(s, ["person", "heuristic"], seat=0, locked=True, seed=1)
    b.play(s.legal_actions()[0])  # a move of one's own is allowed; undo would be a peek
    before, state, n = shown(b), b.state, len(b.match.history)
    refused = [(b.set_perspective, 1), (b.set_perspective, "all"), (b.set_perspective, "mover"),
               (b.set_player, 1, "random"), (b.set_player, 0, "heuristic"), (b.set_option, "koikoi", True),
               (b.set_state, s), (b.undo,), (b.redo,), (b.set_open_hint, True)]
    for fn, *args in refused:
        with pytest.raises(CardlabError, match=r"this board is locked to player 0: .* is not allowed; allowed "
                                               r"are your own moves, step ▶, run ▶▶, new game, 'agents move "
                                               r"by themselves' and the fair hint"):
            fn(*args)
        assert shown(b) == before and b.state == state and len(b.match.history) == n, fn.__name__
    b._guard(b.undo)  # as a button would: the refusal is shown in the status line, nothing else changes
    assert "is locked to player 0" in b.status.value and b.state == state
    # the controls a locked board does not draw, set anyway: refused, and put back
    b.view_picker.value = "all"
    b.seat_pickers[1].value = "random"
    b.option_widgets["koikoi"].value = True
    b.open_hint_box.value = True
    assert (b.view_picker.value, b.seat_pickers[1].value, b.option_widgets["koikoi"].value) == (0, "heuristic", False)
    assert b.open_hint_box.value is False and b.perspective == 0 and b.players == ["person", "heuristic"]
    assert "is locked to player 0" in b.status.value and b.state == state and not b.game.options["koikoi"]
    assert "open hint" not in b.hint()


def test_locked_board_needs_one_person_in_its_seat():
    with pytest.raises(ValueError, match="locked=True needs seat="):
        board("koinobori", ["person", "random"], locked=True)
    with pytest.raises(ValueError, match="a locked board has one person, in seat 1"):
        board("koinobori", ["person", "random"], seat=1, locked=True)
    with pytest.raises(ValueError, match="a locked board has one person"):
        board("koinobori", ["person", "person"], seat=0, locked=True)
    with pytest.raises(ValueError, match="shows only seat 0's view"):
        board("koinobori", ["person", "random"], seat=0, locked=True, perspective="all")
    with pytest.raises(ValueError, match="seat must be a player 0..1"):
        board("koinobori", ["person", "random"], seat=2)


def test_locked_board_gives_the_fair_hint_for_its_seat():
    s = koinobori_endgame()
    b = board(s, ["person", "heuristic"], seat=0, locked=True, seed=1)
    assert "fair hint (only what you can see)" in b.hint_button.tooltip
    html = b.hint()
    fair = cardlab.analyse(s, player=0, progress=False)
    assert fair.title in html and "open hint" not in html and "every hand shown" not in html
    assert b.best_actions() == [r["action"] for r in fair.rows if r["best"]]
    assert [a for a, w in b.action_buttons.items() if w.button_style == "success"] == b.best_actions()


def test_open_hint_is_a_teachers_choice_and_says_so():
    s = koinobori_endgame()
    b = board(s, ["person", "heuristic"], seed=1)
    assert any(b.open_hint_box in getattr(w, "children", ()) for w in b.children[5].children)
    b.open_hint_box.value = True
    html = b.hint()
    assert "open hint (every card)" in html and "cards this player cannot see" in html
    b.set_open_hint(False)
    assert "fair hint" in b.hint()


# -- the class app and its URL parameters -------------------------------------------------------
def test_parse_query_accepts_games_seats_agents_and_simple_options():
    assert parse_query("") == parse_query("token=abc&voila-theme=dark") == {}
    assert parse_query("game=mipig&seat=0&lock=1&opponent=heuristic&seed=3&open_hands=0&hand_size=4"
                       "&first_player=1") == {
        "game": "mipig", "seat": 0, "seed": 3, "lock": True, "opponent": "heuristic",
        "options": {"open_hands": False, "hand_size": 4, "first_player": 1}}
    assert parse_query("game=koinobori&koikoi=true&payoff=score")["options"] == {"koikoi": True, "payoff": "score"}
    assert parse_query("game=toritsuki&first_player=none")["options"] == {"first_player": None}
    assert parse_query("game=koinobori&opponent=person")["lock"] is False


@pytest.mark.parametrize("query,message", [
    ("seat=0", r"the link needs game=, one of koinobori, .*"),
    ("game=chess", r"game='chess' is not a game; accepted: koinobori, "),
    ("game=mipig&seat=x", r"seat='x' is not accepted; seat accepts a whole number"),
    ("game=mipig&lock=maybe", r"lock='maybe' is not accepted; lock accepts 0 or 1"),
    ("game=mipig&opponent=robot", r"opponent='robot' is not accepted; opponent accepts beginner, club, strong, expert, random, heuristic"),
    ("game=mipig&colour=red", r"unknown URL parameter 'colour'; accepted: game, seat, lock, opponent, seed "
                              r"and the options of mipig: open_hands, hand_size"),
    ("game=mipig&open_hands=perhaps", r"open_hands='perhaps' is not accepted; open_hands accepts 0 or 1"),
    ("game=mipig&first_player=2", r"first_player='2' is not accepted; first_player accepts janken, 0, 1, random"),
    ("game=mipig&hand_size=four", r"hand_size='four' is not accepted; hand_size accepts a whole number"),
    ("game=mipig&cards=x", r"unknown URL parameter 'cards'"),
    ("game=mipig&game=koinobori", r"'game' is given twice"),
])
def test_parse_query_refuses_naming_what_is_accepted(query, message):
    with pytest.raises(CardlabError, match=message):
        parse_query(query)


def test_app_from_a_link_starts_a_locked_board_with_no_set_up(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "token=t0k&game=mipig&seat=1&lock=1&opponent=random&seed=3&hand_size=3")
    app = play_app()
    b = app.board
    assert b is not None and b.locked and b.seat == 1 and b.players == ["random", "person"]
    assert b.game.options["hand_size"] == 3 and b.seed == 3
    # the guide first (issue M: it was the notebook's markdown, English only), then the board
    assert list(app.children) == [app.guide, app.message, app.board_box, app.rules_box]
    assert app.board_box.children == (b,)
    assert "you play player 1 (a locked classroom board)" in app.message.value
    text = shown(app)
    for absent in ("reveal all", "view as player", "open hint", "↶ undo", '"description": "game"', '"play"'):
        assert absent not in text, absent
    assert repr(app) == (f"PlayApp(game='mipig', options={{'hand_size': 3}}, players=['random', 'person'], "
                         f"seed=3, board={b!r})")


def test_app_from_a_link_for_persons_at_one_screen():
    app = PlayApp(query="game=koinobori&opponent=person&koikoi=1")
    b = app.board
    assert b.players == ["person", "person"] and not b.locked and b.game.options["koikoi"]
    assert b.waiting_for == 0 and "persons at one screen" in app.message.value


@pytest.mark.parametrize("query,message", [
    ("game=mipig&seat=5", "seat=5 is not accepted; mipig has seats 0..1"),
    ("game=mipig&lock=1&opponent=person", "a locked board has one person: opponent= must be an agent"),
    ("game=mipig&hand_size=99", "hand_size=99 is not accepted"),
    ("game=nothing", "is not a game; accepted: koinobori"),
])
def test_app_from_a_bad_link_says_what_is_accepted_and_starts_nothing(query, message):
    app = PlayApp(query=query)
    assert app.board is None and list(app.children) == [app.message]
    assert "This link does not start a game" in app.message.value and message in app.message.value


def test_app_without_a_link_shows_the_set_up_then_only_the_boards_controls(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = play_app(seed=2)
    assert app.board is None and app.setup.layout.display is None
    app.seats_box.children[1].value = "person"
    app.play_button.click()
    b = app.board
    assert b is not None and not b.locked and b.players == ["person", "person"] and b.waiting_for == 0
    # the set-up folds away: the seat and option pickers are the board's own, shown once
    assert app.setup.layout.display == "none" and app.setup_button.layout.display is None
    app.setup_button.click()
    assert app.board is None and app.board_box.children == () and app.setup.layout.display is None
