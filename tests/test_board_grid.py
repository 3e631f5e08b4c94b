"""The board's grid (issue B): a move chosen by clicking squares and cards.

mipig registers a :class:`cardlab.render.Layout`; the board draws its field
as a grid of squares and offers, step by step, only the picks that lead to a
legal action: a card of the hand, then a square (MP-5 … MP-7); an attacker,
then its target (MP-11, MP-16, MP-17); the card shown for the first-player
janken (MP-4).  Everything here clicks the buttons a person would click.
"""

from __future__ import annotations

import random
import re

import pytest

import cardlab
from cardlab import render
from cardlab.agents import open_hands_copy
from cardlab.errors import CardlabError
from cardlab.games.mipig import render as mr
from cardlab.widgets import board

from builders import mipig_battle as battle


def offers(b) -> list[str]:
    """The picks of the next step (not the switches to an earlier choice)."""
    return sorted(k for k, w in b.pick_buttons.items() if "cardlab-offer" in w._dom_classes)


def switches(b) -> list[str]:
    return sorted(k for k, w in b.pick_buttons.items() if "cardlab-switch" in w._dom_classes)


def listed(b) -> list[str]:
    """The actions shown as plain buttons (not chosen on the grid)."""
    return [a for a, w in b.action_buttons.items() if w in b.actions_box.children]


def grid_buttons(b) -> list:
    """The buttons under the grid's squares."""
    return [w for cell in b.grid.children for w in getattr(cell, "children", ()) if hasattr(w, "click")]


def placement_board(**options):
    game = cardlab.load("mipig", hand_size=3, first_player=0, **options)
    return board(game, ["person", "random"], seed=2)


def play_by_picks(b, rng: random.Random, limit: int = 400) -> int:
    """Click offered picks (or a listed button when a step has no picks)
    until the game ends; checks at every step that the offers are legal."""
    clicks = 0
    while not b.state.is_terminal():
        assert clicks < limit and not b._message, b._message
        s = b.state
        lay = mr.layout(s, perspective=0)
        assert set(lay.paths) <= set(s.legal_actions())
        if offers(b):
            assert set(offers(b)) == set(lay.offered(b.picks))
            b.pick_buttons[rng.choice(offers(b))].click()
        else:
            assert not lay.paths and listed(b) == s.legal_actions()
            b.action_buttons[rng.choice(listed(b))].click()
        clicks += 1
    return clicks


# -- placement: a card of the hand, then a square ------------------------------------
def test_MP_6_MP_7_placement_offers_the_hand_then_only_the_legal_squares():
    """MP-6/MP-7: after choosing a card, the grid offers exactly the legal
    squares (the dashed ones of the renderer), each with its own button."""
    b = placement_board()
    s = b.state
    assert s.phase == "placement" and s.current_player == 0
    hand = s.hand(0)
    assert offers(b) == sorted(f"item:{c}" for c in hand)  # first: which card (MP-5)
    assert len(b.items_box.children) == len(hand) and "hand 手札" in b.pick_prompt.value
    assert not grid_buttons(b)  # no square is offered before a card is chosen
    b.pick_buttons[f"item:{hand[0]}"].click()
    assert b.picks == (f"item:{hand[0]}",) and len(b.match.history) == len(b.states()) - 1
    squares = offers(b)
    assert squares == sorted(f"sq:{x},{y}" for x, y in mr.placement_targets(s))
    assert switches(b) == sorted(f"item:{c}" for c in hand[1:])  # another card instead
    assert "配置できる場所" in b.pick_prompt.value and f"chosen: {hand[0]}" in b.pick_prompt.value
    assert sorted(k for k, w in b.pick_buttons.items() if w in grid_buttons(b)) == squares
    before = len(b.match.history)
    x, y = squares[0][3:].split(",")
    b.pick_buttons[squares[0]].click()
    assert b.match.history[before].action == f"place {hand[0]} {x},{y}" and b.picks == ()


def test_MP_Q4_the_grid_keeps_the_square_names_after_a_card_left_of_the_first():
    """MP-Q4, MP-6, MP-7 (issue L): after player 1 lays a card left of the first card, the
    grid still draws the first card on 0,0, names the new one -1,0 and offers the squares
    by the names of the moves (-2,0 further left); the move played is named as clicked."""
    game = cardlab.load("mipig", hand_size=3, hands=["trio_a", "trio_b"], first_player=0)
    s = game.new_initial_state().apply("place p01 0,0").apply("place p03 -1,0")
    b = board(s, ["person", "random"], seed=2)
    lay = mr.layout(b.state, perspective=0)
    assert "p01" in lay.squares[(0, 0)] and "card back" in lay.squares[(-1, 0)]
    assert lay.bounds() == (-2, -1, 1, 1)
    labels = [w.value for w in b.grid.children[1:5]]
    assert [re.sub(r"<[^>]+>", "", v) for v in labels] == ["-2", "-1", "0", "1"]
    b.pick("item:p05")
    assert offers(b) == sorted(f"sq:{x},{y}" for x, y in mr.placement_targets(b.state))
    assert "sq:-2,0" in offers(b) and "sq:0,0" not in offers(b)
    before = len(b.match.history)
    b.pick_buttons["sq:-2,0"].click()
    assert b.match.history[before].action == "place p05 -2,0"
    field = {(c["x"], c["y"]): c["card"] for c in b.state.to_dict()["field"]}
    assert field[(0, 0)] == "p01" and field[(-1, 0)] == "p03" and field[(-2, 0)] == "p05"


def test_MP_5_switching_the_card_and_taking_a_choice_back():
    """MP-5: another card of the hand replaces the chosen one; clicking the
    chosen card again (or "clear choice") takes the choice back; nothing is
    played meanwhile."""
    b = placement_board()
    hand = b.state.hand(0)
    n = len(b.match.history)
    assert b.clear_button.disabled
    b.pick_buttons[f"item:{hand[0]}"].click()
    b.pick_buttons[f"item:{hand[1]}"].click()
    assert b.picks == (f"item:{hand[1]}",) and not b.clear_button.disabled
    chosen = [w for box in b.items_box.children for w in box.children if "cardlab-picked" in w._dom_classes]
    assert len(chosen) == 1
    chosen[0].click()
    assert b.picks == ()
    b.pick(f"item:{hand[2]}")
    b.clear_button.click()
    assert b.picks == () and len(b.match.history) == n and not b._message


def test_a_pick_not_on_offer_is_refused_and_changes_nothing():
    b = placement_board()
    hand = b.state.hand(0)
    b.pick(f"item:{hand[0]}")
    state, picks = b.state, b.picks
    with pytest.raises(CardlabError, match=r"'sq:9,9' cannot be picked now; on offer: sq:"):
        b.pick("sq:9,9")
    with pytest.raises(CardlabError, match="cannot be picked now"):
        b.pick("item:nonsense")
    assert b.state is state and b.picks == picks
    b._guard(b.pick, "sq:9,9")  # as a button would: the refusal is shown, nothing changes
    assert "cannot be picked now" in b._message and b.picks == picks


def test_picks_are_forgotten_when_the_position_changes():
    b = placement_board()
    b.pick(f"item:{b.state.hand(0)[0]}")
    b.new_button.click()
    assert b.picks == ()
    b.pick(f"item:{b.state.hand(0)[0]}")
    b.view_picker.value = "all"  # another view: the same position, the choice stays
    assert len(b.picks) == 1


# -- battle: an attacker, then its target ---------------------------------------------
def test_MP_11_MP_16_MP_17_attack_is_attacker_then_target():
    """MP-11/MP-16/MP-17: the grid offers the face-down cards that can
    attack; after one is chosen, exactly its legal targets."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p03", False), (0, 1, 0, "p05", False),
                (1, 1, 1, "p02", False)])  # the battle's start: every card face down (MP-9)
    b = board(s, ["person", "random"], seed=1)
    attacks = mr.attack_options(s)
    assert offers(b) == sorted({f"sq:{a[0]},{a[1]}" for a, _ in attacks})
    assert "attacker" in b.pick_prompt.value and not b.items_box.children
    assert all(b.pick_buttons[k].description == "attack 攻撃" for k in offers(b))
    b.pick("sq:0,0")
    targets = sorted(f"sq:{d[0]},{d[1]}" for a, d in attacks if a == (0, 0))
    assert offers(b) == targets and all(b.pick_buttons[k].description == "target 対象" for k in targets)
    before = len(b.match.history)
    b.pick_buttons["sq:1,0"].click()
    assert b.match.history[before].action == "attack 0,0 1,0"
    # the battle is drawn under "what happened": both edges, the janken (9 against 9, MP-14)
    pictures = b.explanation.value.split('class="cardlab-mipig-battle"')
    assert len(pictures) == 1 + sum(m.action.startswith("attack") for m in b.match.history[before:])
    assert "janken rock グー against paper パー (MP-14)" in pictures[1]


def _played(game, seed):
    m = cardlab.Match(game, ["random"] * game.spec.num_players, seed=seed)
    m.play_to_end()
    return m.states


def test_MP_18_a_pass_stays_a_button():
    """MP-18: with no attack the pass is an ordinary button; the grid offers nothing."""
    game = cardlab.load("mipig", hand_size=3)  # a pass that play reaches (J: made-up fields are refused)
    s = next(t for seed in range(100) for t in _played(game, seed)
             if t.current_player == 0 and t.legal_actions() == ["pass"])
    b = board(s, ["person", "random"], seed=1)
    assert offers(b) == [] and listed(b) == ["pass"]


# -- janken, hints, views, whole games --------------------------------------------------
def test_MP_4_the_janken_card_is_chosen_from_the_hand():
    b = board(cardlab.load("mipig", hand_size=3), ["person", "random"], seed=3)
    s = b.state
    assert s.phase == "janken"
    assert offers(b) == sorted(f"item:{c}" for c in s.hand(0))
    assert "じゃんけん" in b.pick_prompt.value and b.pick_buttons[offers(b)[0]].description == "show 見せる"
    before, key = len(b.match.history), offers(b)[0]
    b.pick_buttons[key].click()
    assert b.match.history[before].action == f"show {key[len('item:'):]}"


@pytest.mark.parametrize("open_hint", [False, True], ids=["fair", "open"])
def test_hint_marks_the_picks_of_the_best_moves(open_hint):
    """The best actions of the hint given (the fair one, or a teacher's
    open one) colour the picks that lead to them."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p03", False), (0, 1, 0, "p05", False),
                (1, 1, 1, "p02", False)])
    b = board(s, ["person", "random"], seed=1, hint_nodes=200_000)
    b.set_open_hint(open_hint)
    b.hint()
    assert ("open hint (every card)" in b.hint_html.value) == open_hint
    best = set(b.best_actions())
    a = (cardlab.analyse(open_hands_copy(s), nodes=200_000) if open_hint  # the board's analysis, same budget
         else cardlab.analyse(s, player=0, nodes=200_000))
    assert best == {r["action"] for r in a.rows if r["best"]} and best
    lay = mr.layout(b.state, perspective=0)
    for k in offers(b):
        green = b.pick_buttons[k].button_style == "success"
        assert green == bool(best & set(lay.offered()[k])), k


def test_nobody_to_move_nothing_to_pick():
    """An agent to move: the grid is drawn, nothing is offered, pick refuses."""
    b = board(cardlab.load("mipig", hand_size=2), ["random", "random"], seed=2)
    assert b.state.current_player >= 0 and b.pick_buttons == {}
    assert b.picker.layout.display == "none"
    with pytest.raises(CardlabError, match="nothing"):
        b.pick("sq:0,0")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_games_by_picks_only(seed):
    """Janken, placement and battle played to the end by clicking picks."""
    b = board(cardlab.load("mipig", hand_size=4), ["person", "random"], seed=seed)
    clicks = play_by_picks(b, random.Random(seed))
    assert clicks > 4 and b.status.value.startswith("Game over")
    assert "game over ゲーム終了" in b.table_below.value


def test_generic_renderer_has_no_grid():
    b = board("mipig", ["person", "random"], seed=1, renderer="generic")
    assert b.grid.children == () and b.pick_buttons == {}
    assert list(b.actions_box.children) == list(b.action_buttons.values())
    assert render.layout(cardlab.load("koinobori").new_initial_state()) is None
