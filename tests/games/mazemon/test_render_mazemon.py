"""The Mazemon renderer (cardlab/games/mazemon/render.py): what each perspective
may see, the key items of the table (battle zones with wounds upside down,
mana rows with tapped cards sideways, trash, hands with their summon price,
captured piles, the substitute prompt, attack costs) and a board played to
the end by clicking."""

from __future__ import annotations

import html
import random
import re

import pytest
from test_mazemon import pos, tgame
from test_render import playout_states as playout

import cardlab
from cardlab import render
from cardlab.games.mazemon import render as mr
from cardlab.widgets import board
from test_widgets import board_plays_to_the_end, hand_over


def titles(h: str) -> list[str]:
    return re.findall(r"<title>(.*?)</title>", h)


def substitute_position(seed_from=0):
    """The first substitute decision (みがわり) of seeded random playouts."""
    game = cardlab.load("mazemon")
    for seed in range(seed_from, seed_from + 200):
        for s in playout(game, seed):
            if s.phase == "substitute":
                return s
    raise AssertionError("no substitute decision found")  # pragma: no cover


# -- what a perspective may see (MZ-4, MZ-Q8) ---------------------------------------------
def test_MZ_4_MZ_Q8_a_perspective_never_shows_the_opponents_hand():
    """MZ-4 (the hand is hidden from the opponent), MZ-Q8: no card id of the
    opponent's hand appears in a player's HTML or text, and re-dealt hidden
    cards render identically, in every phase."""
    game = cardlab.load("mazemon")
    ids = [c for deck in game.ids for c in deck]
    assert not any(a != b and a in b for a in ids for b in ids)  # an id never hides inside another
    phases = set()
    for seed in range(6):
        for i, s in enumerate(playout(game, seed)):
            phases.add(s.phase)
            for p in (0, 1):
                h, t = mr.html(s, perspective=p), mr.text(s, perspective=p)
                for cid in s.hand(1 - p):
                    assert cid not in h and cid not in t, (cid, s.phase)
                if i % 3 == 0:
                    other = s.redeal(p, seed * 1000 + i)
                    assert other.information_set(p) == s.information_set(p)
                    assert mr.html(other, perspective=p) == h
                    assert mr.text(other, perspective=p) == t
    assert {"charge", "summon", "battle", "substitute", "end"} <= phases


def test_MZ_Q8_open_hands_shows_both_hands_with_prices():
    """MZ-Q8 open_hands: both hands are shown to both players, with their prices."""
    s = cardlab.load("mazemon", open_hands=True).new_initial_state(seed=1)
    h = mr.html(s, perspective=1)
    assert "hidden hand card" not in h and "open hands (MZ-Q8)" in h
    for p in (0, 1):
        for cid in s.hand(p):
            assert f"<title>{cid} · " in h


def test_MZ_1_MZ_3_hidden_hand_as_backs_and_the_trash():
    """MZ-1 ten cards in hand, MZ-3 the first player's two trashed cards lie
    face down, unseen by both: backs for everybody, even with perspective None."""
    s = cardlab.load("mazemon").new_initial_state(seed=1)  # player 0 first: 8 cards, player 1: 10
    first = s.observation(0)["first"]
    seen = mr.html(s, perspective=1 - first)
    assert seen.count(f"face down うらむき (hidden hand card), player {first}") == 8
    for p in (0, 1, None):
        assert mr.html(s, perspective=p).count("trash トラッシュ, unseen by both (MZ-3, MZ-Q8)") == 2
    assert f"player {first}: captured とったカード 0 · mana マナ 0 (0 untapped) · trash トラッシュ 2 · hand てふだ 8 hidden cards" \
        in mr.text(s, perspective=1 - first)


# -- the key items ---------------------------------------------------------------------------------
def test_MZ_4_MZ_17_battle_zone_of_three_wounds_upside_down():
    """MZ-4: the battle zone holds at most three monsters (empty places drawn);
    MZ-17: a wounded monster (キズ) is drawn upside down."""
    g = tgame()
    s = pos(g, {"battle": ["r_fire900", ("r_water800", True, False)]},
            {"battle": ["b_grass650", "b_water600", "b_fire750"], "hand": ["b_fire500"]})
    h = mr.html(s)
    assert h.count("empty place of the battle zone (MZ-4)") == 1
    assert h.count("wounded キズ (upside down, MZ-17)") == 1 and h.count("rotate(180") == 1
    assert "r_water800 キズ" in mr.text(s, perspective=1)
    t = s.apply("attack r_fire900 b_grass650")  # KO (MZ-12): an empty place again
    assert mr.html(t).count("empty place of the battle zone (MZ-4)") == 2


def test_MZ_4_MZ_5_mana_row_tapped_sideways():
    """MZ-4: mana lies face down in one row, a tapped card sideways; MZ-5 the
    next turn untaps them all."""
    g = tgame()
    s = pos(g, {"battle": ["r_grass900"], "untapped": 3}, {"battle": ["b_fire750"], "hand": ["b_fire500"]},
            phase="battle")
    mana = s.mana(0)[0]
    t = s.apply("attack r_grass900 b_fire750")  # at a disadvantage: 2 mana (MZ-8)
    assert t.mana(0) == (mana, 1) and t.turn == 1  # nothing left to pay for: the turn ended (MZ-9)
    h = mr.html(t, perspective=1)
    assert h.count("mana マナ, tapped よこむき (used this turn), player 0") == mana - 1
    assert h.count("mana マナ, untapped (upright), player 0") == 1
    assert h.count("rotate(90)") == mana - 1 + (t.mana(1)[0] - t.mana(1)[1])
    assert f"{mana} mana, 1 untapped, {mana - 1} tapped" in h
    u = t.apply("charge b_fire500")
    u = u.apply("end") if u.turn == 1 else u
    assert u.turn == 0 and u.mana(0) == (mana, mana)  # MZ-5: all upright again
    assert "tapped よこむき (used this turn), player 0" not in mr.html(u)


def test_MZ_18_hand_cards_show_the_price_before_paying_seed_cost_example():
    """MZ-18 (seed そざい): cost 3 with whale/sword/giant shared pays 1 — the
    hand card shows it before paying, and the minimum-1 rule: cost 2 with
    three shared materials still shows 1."""
    g = tgame()
    s = pos(g, {"battle": ["r_titan"], "hand": ["r_big", "r_small", "r_fire500"], "untapped": 1},
            {"hand": ["b_fire500"]})
    h = mr.html(s, perspective=0)
    assert "summon now: COST 3 − 3 shared そざい → pay 1 mana (at least 1, MZ-18)" in h
    assert "summon now: COST 2 − 3 shared そざい → pay 1 mana (at least 1, MZ-18)" in h
    assert "summon now: COST 1 − 0 shared そざい → pay 1 mana" in h
    assert "r_big(1), r_small(1), r_fire500(1)" in mr.text(s, perspective=0)
    assert mr.pay_now(s, 0, "r_big") == (3, 1)
    assert "paying 1 mana" in s.explain("summon r_big")  # the engine agrees
    other = mr.html(s, perspective=1)  # the opponent sees backs only (and prices of its own hand)
    assert "r_big" not in other and other.count("summon now") == 1


def test_MZ_8_MZ_Q4_attack_costs_shown_before_paying():
    """MZ-8, MZ-Q4: each possible attack shows its mana (2 at an attribute
    disadvantage against the declared target) and its outcome (seed: 900 vs
    750 grass → fire, a wound for 2 mana; a second wound knocks out, MZ-17)."""
    g = tgame()
    s = pos(g, {"battle": ["r_grass900", "r_water600"]},
            {"battle": ["b_fire750", ("b_fire950", True, False)], "hand": ["b_fire500"]}, phase="battle")
    h = mr.html(s, perspective=1)
    assert "r_grass900 → b_fire750: 2 mana, wound キズ (MZ-13)" in h
    assert "r_water600 → b_fire950: 1 mana, wound キズ (MZ-14), b_fire950 knocked out (MZ-17)" in h
    empty = pos(g, {"battle": ["r_grass900"]}, {"hand": ["b_fire500"]}, phase="battle")
    assert "a direct attack ちょくせつこうげき costs 1 mana (MZ-22, MZ-Q2)" in mr.html(empty)


def test_MZ_19_MZ_20_the_substitute_prompt_offers_the_defenders_choices():
    """MZ-19: at みがわり the defender decides (current player), the table
    shows the pending attack and every choice with what it would do; MZ-20 a
    knocked-out substitute scores nothing."""
    s = substitute_position()
    d = s.current_player
    assert d == 1 - s.turn
    for p in (0, 1, None):
        h = mr.html(s, perspective=p)
        assert "Substitute? みがわり (MZ-19)" in h and f"Player {d} decides" in h
        for a in s.legal_actions():
            assert h.count(html.escape(s.explain(a))) == 1, a
        assert "scores nothing, MZ-20" in h
    assert "pending attack こうげき:" in mr.text(s, perspective=d)
    assert f"player {d} decides" in mr.text(s, perspective=1 - d)
    after = s.apply(s.legal_actions()[-1])
    assert "Substitute?" not in mr.html(after)


def test_MZ_21_no_prompt_against_an_attribute_win():
    """MZ-21: an attack that wins on attribute goes through without a prompt."""
    g = tgame()
    s = pos(g, {"battle": ["r_fire900"]}, {"battle": ["b_grass650", "b_water600"], "hand": ["b_fire500"],
                                           "untapped": 1}, phase="battle")
    t = s.apply("attack r_fire900 b_grass650")
    assert t.phase != "substitute" and "Substitute?" not in mr.html(t)


def test_MZ_23_captured_pile_and_the_winner():
    """MZ-23: the third captured card wins at once; the table counts each
    captured pile and names the winner."""
    g = tgame()
    s = pos(g, {"battle": ["r_fire900"], "captured": 2},  # no hands: player 1 has no captures (MZ-19, J)
            {"battle": ["b_grass650"], "out": ["b_fire950", "b_water900"]})
    end = s.apply("attack r_fire900 b_grass650")
    assert end.is_terminal()
    for p in (0, 1, None):
        h = mr.html(end, perspective=p)
        assert "captured とったカード <b>3</b> / 3" in h and h.count("captured card ") == 3
        assert "captured とったカード 3 : 0 → player 0 wins 勝ち" in h
        assert "game over おわり (MZ-23, MZ-24, MZ-Q6)" in h
    assert "result: captured とったカード 3 : 0 → player 0 wins 勝ち" in mr.text(end, perspective=1)


def test_MZ_11_cards_show_attribute_numbers_and_materials_in_both_languages():
    """MZ-11 attributes (ほのお/くさ/みず), MZ-10 わざ, MZ-16 HP, MZ-18 そざい with
    their Japanese names from the card file."""
    game = cardlab.load("mazemon", open_hands=True)
    s = game.new_initial_state(seed=2)
    h = mr.html(s)
    for term in ("バトルゾーン", "マナゾーン", "てふだ", "とったカード", "トラッシュ", "ほのお", "くさ", "みず",
                 "わざ", "そざい", "summon for", "HP", "せんて"):
        assert term in h, term
    c = game.card(0, "magma_giant")
    svg = mr.card_svg(c, mr.material_japanese(game))
    assert "マグマキョジン" in svg and "わざ 950" in svg and "HP 2200" in svg and "巨人 いし 剣" in svg
    assert "fire ほのお" in svg
    own = tgame()
    assert mr.material_japanese(own) == {} and "r_fire900_a" in mr.card_svg(own.card(0, "r_fire900"))


def test_battle_html_MZ_12_MZ_16():
    """MZ-12, MZ-16 (seed 一撃): 800 vs 600, both water, HP 2200 vs 1350: KO."""
    g = tgame()
    s = pos(g, {"battle": ["r_water800"]}, {"battle": ["b_water600"], "hand": ["b_fire500"]})
    h = mr.battle_html(s.battle_report("attack r_water800 b_water600"))
    assert "HP 2200 vs 1350 (same attribute, MZ-16)" in h and "KO 一撃</b> (MZ-12)" in h
    assert "1 mana (MZ-8, MZ-Q4)" in h


def test_action_labels_put_japanese_beside_english():
    assert mr.action_label("charge petal_fox") == "charge チャージ: petal_fox"
    assert mr.action_label("summon oak_giant") == "summon しゅつげん: oak_giant"
    assert mr.action_label("attack oak_giant tide_whale") == "attack こうげき: oak_giant → tide_whale"
    assert mr.action_label("direct oak_giant") == "direct attack ちょくせつこうげき: oak_giant"
    assert mr.action_label("substitute coral_knight") == "substitute みがわり: coral_knight"
    assert mr.action_label("decline") == "no substitute みがわりしない"
    assert mr.action_label("end") == "end turn おわり"
    assert mr.action_label("janken 1") == "janken じゃんけん: player 1 first"
    assert mr.action_label("trash a+b") == "trash トラッシュ: a + b"
    assert mr.action_label("steal x") == "take うばう: x"
    assert render.action_label("mazemon", "odd") == "odd"
    assert render.has_renderer("mazemon")



# -- the board ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_board_plays_a_game_to_the_end_by_clicking(seed):
    """The board draws this renderer and plays a whole game (charge, summon,
    battle, the end) by clicking its buttons."""
    seen, final = board_plays_to_the_end("mazemon", seed, "phase", limit=500)
    assert {"charge", "summon"} <= seen
    assert "game over おわり" in final


def test_MZ_19_board_offers_the_substitute_buttons_to_the_defender():
    """MZ-19: the defender's みがわり is simply a state whose current player is
    the defender: a person in that seat gets the substitute/decline buttons
    and the prompt on the table, in the middle of the other player's turn."""
    s = substitute_position()
    d = s.current_player
    players = ["random", "random"]
    players[d] = "person"
    b = board(s, players, seed=3)
    assert set(b.action_buttons) == set(s.legal_actions())
    assert "Substitute? みがわり (MZ-19)" in b.table.value
    assert b.action_buttons["decline"].description == "no substitute みがわりしない"
    b.action_buttons["decline"].click()
    assert b.match.history[0].action == "decline" and not b._message


def test_board_with_two_people_reaches_a_substitute_by_clicking():
    """MZ-19: two people share the screen (view: the player to move, passed
    on behind a privacy screen); clicking at random reaches a substitute
    decision in the middle of a turn."""
    for seed in range(30):
        b = board("mazemon", ["person", "person"], seed=seed)
        rng = random.Random(seed)
        while not b.state.is_terminal():
            hand_over(b)  # the privacy screen between the two people
            if b.state.phase == "substitute":
                assert b.state.current_player == 1 - b.state.turn
                assert b.table.value == mr.html(b.state, perspective=b.state.current_player)
                assert "Substitute? みがわり" in b.table.value and "decline" in b.action_buttons
                return
            rng.choice(sorted(b.action_buttons.values(), key=lambda w: w.description)).click()
    raise AssertionError("no substitute decision reached")  # pragma: no cover


def test_MZ_19_MZ_21_the_board_draws_each_battle_when_it_is_settled():
    """A battle is drawn (:func:`mr.move_html`) by the move that settles it:
    an attack with no みがわり decision after it (MZ-21, or none possible), or
    the defender's substitute / decline (MZ-19); an attack that leaves the
    decision to the defender draws nothing yet."""
    game = cardlab.load("mazemon")
    seen = set()
    for seed in range(40):
        states = playout(game, seed)
        for s, t in zip(states, states[1:]):
            if s.is_chance_node():
                continue
            a = next(x for x in s.legal_actions() if s.apply(x) == t)
            pic = mr.move_html(s, a)
            verb = a.split()[0]
            if verb in ("substitute", "decline") or (verb == "attack" and t.phase != "substitute"):
                assert pic == mr.battle_html(s.battle_report(a)) and "technique わざ" in pic
                seen.add(verb if verb != "attack" else "settled attack")
            else:
                assert pic == ""
                if verb == "attack":
                    seen.add("attack, decision pending")
        if len(seen) == 4:
            break
    assert seen == {"substitute", "decline", "settled attack", "attack, decision pending"}


def test_buttons_name_each_card_as_it_is_printed():
    """A student finds a button's card by the name printed on it (issue L):
    every card in a label reads "Bonfire Owl カガリフクロウ", never its id
    ``kagari_owl``; the price under a hand card is words, not a box that
    looks like a button."""
    game = cardlab.load("mazemon")
    ids = {cid for deck in game.ids for cid in deck}
    m = cardlab.Match(game, ["random", "random"], seed=4)
    labels = []
    while not m.is_over():
        s = m.state
        acts = [a for a, _ in s.chance_outcomes()] if s.current_player == cardlab.CHANCE else s.legal_actions()
        labels += [render.action_label(s, a) for a in acts]
        m.step()
    assert len(labels) > 50
    for label in labels:
        words = set(label.replace("+", " ").replace("→", " ").replace(":", " ").split())
        assert not words & ids, label
    assert any("Bonfire Owl カガリフクロウ" in x or "Ember Boar ホムラブタ" in x for x in labels)
    s = cardlab.load("mazemon", open_hands=True).new_initial_state(seed=2)
    while "summon for" not in mr.html(s, perspective=s.current_player):
        s = s.apply(s.legal_actions()[0])
    h = mr.html(s, perspective=s.current_player)
    assert "はらう" not in h and 'height="15" rx="3" fill="#fff"' not in h
