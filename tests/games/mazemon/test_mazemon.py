"""Mazemon (マゼモン): every rule of docs/rules/mazemon.md, the seed's examples,
card files, explanations and exact endgames.

Each test cites its rule ids (MZ-n, MZ-Qn).  Positions are written as
``to_dict`` dicts; a small test card set holds the seed's example values.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from itertools import combinations

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.games.mazemon import (
    ATTRIBUTES,
    Battle,
    Card,
    attribute_relation,
    battle,
    load_cards,
    summon_cost,
)


# -- a test card set with the seed's example values --------------------------------
def _card(cid, attr, power, hp=1500, cost=1, mats=None):
    return {"id": cid, "name": cid.replace("_", " ").title(), "japanese": "テスト", "attribute": attr,
            "hp": hp, "cost": cost, "technique": {"name": "Test", "japanese": "テストわざ", "power": power},
            "materials": list(mats or (f"{cid}_a", f"{cid}_b"))}


RED = [  # player 0
    _card("r_fire900", "fire", 900, 1800, 2),
    _card("r_water800", "water", 800, 2200, 2),
    _card("r_grass900", "grass", 900, 1500, 2),
    _card("r_water600", "water", 600, 1200, 1),
    _card("r_grass700", "grass", 700, 1300, 1),
    _card("r_titan", "water", 500, 1000, 2, ["whale", "sword", "giant", "moon"]),
    _card("r_big", "fire", 850, 2000, 3, ["whale", "sword", "giant"]),
    _card("r_small", "grass", 550, 900, 2, ["whale", "sword", "giant"]),
    _card("r_fire500", "fire", 500, 1000, 1),
    _card("r_grass500", "grass", 500, 1000, 1),
]
BLUE = [  # player 1
    _card("b_grass650", "grass", 650, 1350),
    _card("b_water600", "water", 600, 1350),
    _card("b_fire750", "fire", 750, 1600),
    _card("b_fire950", "fire", 950, 1700),
    _card("b_grass700", "grass", 700, 1300),
    _card("b_water900", "water", 900, 2000),
    _card("b_fire500", "fire", 500, 1000),
    _card("b_grass500", "grass", 500, 1000),
    _card("b_water500", "water", 500, 1000),
    _card("b_fire600", "fire", 600, 1100),
]
TEST_CARDS = {"name": "test set", "cards": RED + BLUE,
              "decks": {"red": [c["id"] for c in RED], "blue": [c["id"] for c in BLUE]}}


def tgame(**opts):
    return cardlab.load("mazemon", cards=TEST_CARDS, deck0="red", deck1="blue", **opts)


def card(cid):
    return load_cards(TEST_CARDS).cards[cid]


def pos(game, p0, p1, *, phase="summon", turn=0, first=1, quiet=0, acted=None, sub_used=False,
        direct_used=False, pending=None):
    """A position: each player is a dict with hand, battle (ids, or (id, wounded,
    attacked)), out, captured, untapped; mana is whatever the other zones leave.
    ``acted`` defaults to what the phase requires: false at the charge, true
    after it (a summon phase reached by a charge, J)."""
    if acted is None:
        acted = phase not in ("janken", "trash", "charge")
    players = []
    for p, pl in enumerate((p0, p1)):
        battle_zone = []
        for m in pl.get("battle", []):
            cid, wounded, attacked = (m, False, False) if isinstance(m, str) else m
            battle_zone.append({"card": cid, "wounded": wounded, "attacked": attacked})
        hand, out = list(pl.get("hand", [])), list(pl.get("out", []))
        mana = 10 - len(hand) - len(battle_zone) - len(out) - (2 if p == first else 0)
        players.append({"hand": hand, "battle": battle_zone, "mana": mana,
                        "untapped": pl.get("untapped", mana), "captured": pl.get("captured", 0),
                        "out": out})
    _fit_mana_to_turns(game, players, phase, turn, first)
    return game.state_from_dict({
        "phase": phase, "turn": turn, "first": first, "quiet_turns": quiet, "acted": acted,
        "substitute_used": sub_used, "direct_used": direct_used, "pending": pending,
        "players": players, "options": game.options_dict()})


def _fit_mana_to_turns(game, players, phase, turn, first):
    """Mana counts the turns (MZ-6, J): a hand-made position whose zones leave one player more
    mana than the turns can have charged gets the surplus as cards knocked out of play as
    substitutes (MZ-20, MZ-Q5: to the owner's trash, no score), the highest card ids first, as
    many as the opponent's turns allow (one per turn after the owner's first charge, MZ-19, J);
    the rest as cards the opponent captured."""
    if phase in ("janken", "trash"):
        return
    turns = []
    for p, pl in enumerate(players):
        ahead = int(p == first and turn == first)
        due = int(p == turn and phase == "charge")
        turns.append(pl["mana"] - ahead + due)  # the second player's turns this mana tells
    t = min(x for x, pl in zip(turns, players) if pl["hand"]) if any(pl["hand"] for pl in players) else None
    if t is None:
        return
    for p, pl in enumerate(players):
        surplus = turns[p] - t
        if surplus > 0:
            used = set(pl["hand"] + pl["out"] + [m["card"] for m in pl["battle"]])
            free = [c for c in reversed(game.ids[p]) if c not in used][:surplus]
            pl["out"] = pl["out"] + free
            pl["mana"] -= surplus
            pl["untapped"] = min(pl["untapped"], pl["mana"])
            o = 1 - p
            spare = int(o == first and turn == first) - int(o == first) - int(turn == o)
            subs = len(pl["out"]) - players[o]["captured"]
            players[o]["captured"] += max(0, subs - max(0, t + spare))


def zone(state, p):
    return {m["card"]: m["wounded"] for m in state.battle_zone(p)}


@pytest.fixture
def g():
    return tgame()


# -- the seed's battle examples (MZ-10 … MZ-16), one test each --------------------
def test_seed_ko_900_vs_650_fire_beats_grass(g):
    """MZ-12 (seed 一撃): わざ 900 > 650 and fire → grass: KO; the defender goes
    unwounded straight to the attacker's captured cards."""
    b = battle(card("r_fire900"), card("b_grass650"))
    assert (b.technique, b.attribute, b.hp, b.result, b.rule) == ("wins", "wins", None, "ko", "MZ-12")
    s = pos(g, {"battle": ["r_fire900"]}, {"battle": ["b_grass650"], "hand": ["b_fire500"]})
    t = s.apply("attack r_fire900 b_grass650")
    assert zone(t, 1) == {} and t.captured(0) == 1 and t.to_dict()["players"][1]["out"] == ["b_grass650"]


def test_seed_ko_800_vs_600_same_water_hp_2200_vs_1350(g):
    """MZ-12, MZ-16 (seed 一撃): わざ 800 > 600, both water, HP 2200 > 1350: KO."""
    b = battle(card("r_water800"), card("b_water600"))
    assert (b.technique, b.attribute, b.hp, b.result, b.rule) == ("wins", "same", (2200, 1350), "ko", "MZ-12")
    s = pos(g, {"battle": ["r_water800"]}, {"battle": ["b_water600"], "hand": ["b_fire500"]})
    assert s.apply("attack r_water800 b_water600").captured(0) == 1


def test_seed_wound_900_vs_750_grass_vs_fire_costs_two_mana(g):
    """MZ-13, MZ-8 (seed キズ): わざ 900 > 750 but grass loses to fire: a wound,
    and the attack at an attribute disadvantage costs 2 mana."""
    b = battle(card("r_grass900"), card("b_fire750"))
    assert (b.technique, b.attribute, b.result, b.rule, b.attack_cost) == ("wins", "loses", "wound", "MZ-13", 2)
    two = pos(g, {"battle": ["r_grass900"], "untapped": 2}, {"battle": ["b_fire750"], "hand": ["b_fire500"]})
    t = two.apply("attack r_grass900 b_fire750")
    assert zone(t, 1) == {"b_fire750": True} and zone(t, 0) == {"r_grass900": False}
    assert t.mana(0)[1] == 0
    one = pos(g, {"battle": ["r_grass900", "r_water600"], "untapped": 1},
              {"battle": ["b_fire750"], "hand": ["b_fire500"]})
    assert one.legal_actions() == ["attack r_water600 b_fire750", "end"]  # water beats fire: 1 mana


def test_seed_wound_600_vs_950_water_vs_fire_attacker_unhurt(g):
    """MZ-14 (seed キズ): わざ 600 < 950 but water beats fire: the defender is
    wounded, the attacker takes no wound (no あいうち); it costs 1 mana."""
    b = battle(card("r_water600"), card("b_fire950"))
    assert (b.technique, b.attribute, b.result, b.rule, b.attack_cost) == ("loses", "wins", "wound", "MZ-14", 1)
    s = pos(g, {"battle": ["r_water600"]}, {"battle": ["b_fire950"], "hand": ["b_fire500"]})
    t = s.apply("attack r_water600 b_fire950")
    assert zone(t, 0) == {"r_water600": False} and zone(t, 1) == {"b_fire950": True}


def test_seed_mutual_700_vs_700_both_grass(g):
    """MZ-15 (seed あいうち): わざ 700 = 700, both grass: neither wins, both wounded."""
    b = battle(card("r_grass700"), card("b_grass700"))
    assert (b.technique, b.attribute, b.result, b.rule) == ("ties", "same", "mutual", "MZ-15")
    s = pos(g, {"battle": ["r_grass700"]}, {"battle": ["b_grass700"], "hand": ["b_fire500"]})
    t = s.apply("attack r_grass700 b_grass700")
    assert zone(t, 0) == {"r_grass700": True} and zone(t, 1) == {"b_grass700": True}


def test_seed_cost_example_cost_3_three_shared_materials_pays_1(g):
    """MZ-18 (seed そざい): cost 3, whale/sword/giant shared with the monster in
    the zone: pay 1 mana."""
    assert summon_cost(card("r_big"), [card("r_titan")]) == 1
    s = pos(g, {"battle": ["r_titan"], "hand": ["r_big"], "untapped": 1}, {"hand": ["b_fire500"]})
    t = s.apply("summon r_big")
    assert set(zone(t, 0)) == {"r_titan", "r_big"} and t.mana(0)[1] == 0
    assert "paying 1 mana (cost 3 − 3 shared materials (そざい), but at least 1" in s.explain("summon r_big")


def test_seed_minimum_one_mana(g):
    """MZ-18 (seed さいてい1まい): cost 2 with three shared materials still costs
    1, never 0: with no untapped mana it cannot be summoned."""
    assert card("r_small").cost == 2
    assert summon_cost(card("r_small"), [card("r_titan")]) == 1
    assert summon_cost(card("r_small"), [card("r_titan"), card("r_big")], "per_monster") == 1
    s = pos(g, {"battle": ["r_titan"], "hand": ["r_small"], "untapped": 1}, {"hand": ["b_fire500"]})
    assert "summon r_small" in s.legal_actions()
    t = s.apply("summon r_small")  # pays its 1 mana: nothing is left, the turn ends by itself
    assert t.mana(0) == (7, 0) and t.turn == 1 and zone(t, 0) == {"r_titan": False, "r_small": False}


# -- the rest of the battle table ---------------------------------------------------------
def test_MZ_10_MZ_11_attributes_and_technique_first():
    """MZ-11: fire beats grass, grass beats water, water beats fire; MZ-10 the
    technique number decides first (same attribute, equal HP: wound, not KO)."""
    assert [attribute_relation(a, b) for a, b in [("fire", "grass"), ("grass", "water"), ("water", "fire")]] \
        == ["wins"] * 3
    assert [attribute_relation(b, a) for a, b in [("fire", "grass"), ("grass", "water"), ("water", "fire")]] \
        == ["loses"] * 3
    assert all(attribute_relation(a, a) == "same" for a in ATTRIBUTES)
    lo = Card("lo", "Lo", "ロ", "fire", 1500, 1, "t", "t", 500, ("a", "b"))
    hi = Card("hi", "Hi", "ハ", "grass", 1000, 1, "t", "t", 900, ("a", "b"))
    assert battle(lo, hi).result == "wound" and battle(lo, hi).rule == "MZ-14"  # attribute alone: wound
    assert battle(hi, lo).result == "wound" and battle(hi, lo).rule == "MZ-13"  # technique alone: wound


def test_MZ_16_hp_only_on_equal_attributes():
    """MZ-16: HP is compared only when the attributes are the same."""
    a = Card("a", "A", "ア", "water", 3000, 1, "t", "t", 900, ("x", "y"))
    same_low = Card("b", "B", "ベ", "water", 3500, 1, "t", "t", 600, ("x", "y"))
    same_high = Card("c", "C", "シ", "water", 900, 1, "t", "t", 600, ("x", "y"))
    other = Card("d", "D", "デ", "grass", 100, 1, "t", "t", 600, ("x", "y"))
    assert battle(a, same_high).result == "ko" and battle(a, same_high).hp == (3000, 900)
    assert battle(a, same_low).result == "wound" and battle(a, same_low).rule == "MZ-13"
    assert battle(a, other).hp is None and battle(a, other).result == "wound"  # HP 3000 > 100 ignored
    assert "HP not compared" in battle(a, other).text()


def test_MZ_17_second_wound_knocks_out_to_opponents_captured(g):
    """MZ-17: a wounded card wounded again is knocked out into the opponent's
    captured cards, never back to hand or mana."""
    s = pos(g, {"battle": ["r_water600"]}, {"battle": [("b_fire950", True, False)], "hand": ["b_fire500"]})
    t = s.apply("attack r_water600 b_fire950")
    assert zone(t, 1) == {} and t.captured(0) == 1
    d = t.to_dict()["players"][1]
    assert d["out"] == ["b_fire950"] and "b_fire950" not in d["hand"]
    assert "MZ-17" in s.explain("attack r_water600 b_fire950")


# -- set-up (MZ-1 … MZ-4, MZ-Q8) -----------------------------------------------------------
def test_MZ_1_all_ten_cards_in_hand_no_draw_pile():
    """MZ-1: each player holds all ten cards; nothing is ever drawn."""
    game = cardlab.load("mazemon")
    root = game.new_initial_state()
    assert len(root.hand(0)) == len(root.hand(1)) == 10
    assert root.hand(0) == list(load_cards().decks["hinoko"])
    assert not any(a.startswith("draw") for a, _ in root.chance_outcomes())


def test_MZ_2_janken_decides_the_first_player():
    """MZ-2: janken (a fair chance node) and its winner moves first."""
    root = cardlab.load("mazemon").new_initial_state()
    assert root.current_player == CHANCE
    assert root.chance_outcomes() == [("janken 0", Fraction(1, 2)), ("janken 1", Fraction(1, 2))]
    for w in (0, 1):
        s = root.apply(f"janken {w}")
        assert s.to_dict()["first"] == w
        s = s.apply(s.chance_outcomes()[0][0])
        assert s.current_player == w and s.phase == "charge"


def test_MZ_3_MZ_Q8_first_player_trashes_two_unseen():
    """MZ-3, MZ-Q8: the first player sets aside two unseen cards (a chance node,
    every pair 1/45): 8 cards against 10; the second player cannot tell which."""
    s = cardlab.load("mazemon").new_initial_state().apply("janken 1")
    outs = s.chance_outcomes()
    assert len(outs) == 45 and {p for _, p in outs} == {Fraction(1, 45)} and sum(p for _, p in outs) == 1
    t = s.apply("trash tide_whale+ink_squid")
    assert len(t.hand(1)) == 8 and len(t.hand(0)) == 10
    assert "tide_whale" not in t.hand(1)
    u = s.apply("trash coral_knight+spark_wren")
    assert t.information_set(0) == u.information_set(0)  # player 0 sees only "8 cards"
    assert t.information_set(1) != u.information_set(1)
    assert t.observation(0)["players"][1]["hand"] == 8


def test_MZ_3_MZ_Q8_explain_names_the_trashed_cards():
    """MZ-3, MZ-Q8: explain() is the full record (a teacher's, a replay's), so it
    names the two trashed cards by name; what a player may read of that move goes
    through seen_move, which hides them from both (tests/test_fair_play_mazemon.py)."""
    s = cardlab.load("mazemon").new_initial_state().apply("janken 1")
    g = s.game
    line = s.explain("trash tide_whale+ink_squid")
    for cid in ("tide_whale", "ink_squid"):
        card = g.card(1, cid)
        assert f"{card.name} ({card.japanese})" in line
    assert "MZ-3" in line and "MZ-Q8" in line


def test_MZ_4_zones_battle_zone_holds_three(g):
    """MZ-4, MZ-7: battle zone (face up, at most 3), mana, hand (hidden), captured."""
    s = pos(g, {"battle": ["r_fire500", "r_grass500", "r_water600"], "hand": ["r_grass700"]},
            {"hand": ["b_fire500"]})
    assert not any(a.startswith("summon") for a in s.legal_actions())
    obs = s.observation(1)
    assert set(obs["players"][0]) == {"hand", "battle", "mana", "untapped", "captured", "out"}
    assert obs["players"][0]["hand"] == 1 and [m["card"] for m in obs["players"][0]["battle"]] == [
        "r_water600", "r_fire500", "r_grass500"]
    assert "バトルゾーン" in str(s) and "マナ" in str(s) and "とったカード" in str(s)


def test_MZ_Q8_open_hands_option():
    """MZ-Q8: hands are hidden, except with open_hands=True (perfect information)."""
    hidden, shown = cardlab.load("mazemon"), cardlab.load("mazemon", open_hands=True)
    assert not hidden.spec.perfect_information and shown.spec.perfect_information
    s = shown.new_initial_state(seed=4)
    assert isinstance(s.observation(1 - s.current_player)["players"][s.current_player]["hand"], list)
    t = hidden.new_initial_state(seed=4)
    assert isinstance(t.observation(1 - t.current_player)["players"][t.current_player]["hand"], int)
    with pytest.raises(cardlab.NotSolvableError, match="open_hands=True"):
        cardlab.solve(t)


# -- the turn (MZ-5 … MZ-9) -------------------------------------------------------------------
def test_MZ_5_untap_at_the_start_of_the_turn(g):
    """MZ-5: the mover's tapped mana stand up again when their turn begins."""
    s = pos(g, {"battle": ["r_fire500"], "hand": ["r_grass500"], "untapped": 0},
            {"battle": ["b_fire500"], "untapped": 1}, turn=1)
    assert s.mana(0) == (8, 0) and s.legal_actions() == ["attack b_fire500 r_fire500", "end"]
    t = s.apply("end")
    assert t.current_player == 0 and t.phase == "charge" and t.mana(0) == (8, 8)
    assert t.mana(1) == (7, 1)  # the opponent's tapped mana stays tapped until their turn


def test_MZ_6_charge_is_mandatory_and_charged_cards_never_fight(g):
    """MZ-6: exactly one hand card into mana every turn, for both players; a
    charged card is gone from the hand and cannot be summoned."""
    s = pos(g, {"hand": ["r_fire500", "r_grass500"]}, {"hand": ["b_fire500"]}, phase="charge")
    assert s.legal_actions() == ["charge r_fire500", "charge r_grass500"]
    with pytest.raises(cardlab.IllegalActionError):
        s.apply("end")
    t = s.apply("charge r_fire500")
    assert t.mana(0) == (s.mana(0)[0] + 1, s.mana(0)[1] + 1)
    assert "summon r_fire500" not in t.legal_actions() and t.hand(0) == ["r_grass500"]
    u = t.apply("end")
    assert u.current_player == 1 and u.legal_actions() == ["charge b_fire500"]  # the second player too


def test_MZ_7_summon_several_per_turn_while_mana_lasts(g):
    """MZ-7: tap mana equal to the cost; any number per turn, up to 3 in the zone."""
    s = pos(g, {"hand": ["r_fire500", "r_grass500", "r_water600", "r_grass700"], "untapped": 4},
            {"hand": ["b_fire500"]})
    t = s.apply("summon r_fire500").apply("summon r_grass500")
    assert "summon r_grass700" in t.legal_actions()
    t = t.apply("summon r_water600")
    assert len(zone(t, 0)) == 3 and t.mana(0)[1] == 1 and t.current_player == 0
    assert "summon r_grass700" not in t.legal_actions()  # the zone holds 3


def test_MZ_8_attack_once_per_monster_even_on_the_summoning_turn(g):
    """MZ-8: 1 mana per attack, each monster at most once per turn, also on
    the turn it was summoned; summoning stops once the battle has begun."""
    s = pos(g, {"hand": ["r_fire900", "r_grass500"], "battle": ["r_fire500"], "untapped": 5},
            {"battle": ["b_grass650", "b_water900"], "hand": ["b_fire500"], "untapped": 0})
    t = s.apply("summon r_fire900")
    assert "attack r_fire900 b_water900" in t.legal_actions() and "summon r_grass500" in t.legal_actions()
    u = t.apply("attack r_fire900 b_water900")  # fire ← water: disadvantage, 2 mana
    assert u.mana(0)[1] == 1 and u.current_player == 0
    # no second attack, no summon once the battle began; r_fire500 may still attack
    assert u.legal_actions() == ["attack r_fire500 b_grass650", "end"]


def test_MZ_9_end_passes_the_turn(g):
    """MZ-9: after 'end' the opponent's turn begins at MZ-5 (untap) and MZ-6."""
    s = pos(g, {"battle": ["r_fire500"], "hand": ["r_grass500"]}, {"hand": ["b_fire500"], "untapped": 0})
    t = s.apply("end")
    assert t.turn == 1 and t.phase == "charge" and t.mana(1)[1] == t.mana(1)[0]
    assert "MZ-9" in s.explain("end")


# -- substitute みがわり (MZ-19 … MZ-21, MZ-Q4, MZ-Q5) -----------------------------------------
def sub_position(g, **kw):
    return pos(g, {"battle": ["r_fire900", "r_grass700"], "untapped": 3},
               {"battle": ["b_grass650", "b_water900", "b_grass700"], "hand": ["b_fire500"], "untapped": 2}, **kw)


def test_MZ_19_substitute_is_the_defenders_decision_mid_turn(g):
    """MZ-19: when attacked the defender may tap 1 mana to put another monster
    in the way; the state says it is the defender's decision (current_player)."""
    s = sub_position(g)
    t = s.apply("attack r_grass700 b_grass700")  # あいうち otherwise
    assert t.phase == "substitute" and t.turn == 0 and t.current_player == 1
    assert t.legal_actions() == ["substitute b_grass650", "substitute b_water900", "decline"]
    assert t.to_dict()["pending"] == {"attacker": "r_grass700", "target": "b_grass700"}
    u = t.apply("substitute b_water900")  # grass beats water: the substitute is wounded
    assert u.mana(1)[1] == 1 and zone(u, 1)["b_water900"] and not zone(u, 1)["b_grass700"]
    assert u.current_player == 0
    d = t.apply("decline")
    assert zone(d, 1)["b_grass700"] and zone(d, 0)["r_grass700"]


def test_MZ_19_substitute_once_per_turn_and_needs_mana(g):
    """MZ-19: once per turn, and only with an untapped mana."""
    s = sub_position(g)
    t = s.apply("attack r_grass700 b_grass700").apply("substitute b_grass650")
    assert t.mana(1)[1] == 1 and zone(t, 1)["b_grass650"]
    u = t.apply("attack r_fire900 b_water900")  # no attribute win, but みがわり is used up
    assert u.phase != "substitute"
    assert zone(u, 1)["b_water900"] and zone(u, 0)["r_fire900"]  # the battle was fought: あいうち
    poor = pos(g, {"battle": ["r_grass700"]}, {"battle": ["b_grass650", "b_grass700"], "untapped": 0,
                                                "hand": ["b_fire500"]})
    assert poor.apply("attack r_grass700 b_grass700").phase != "substitute"


def test_MZ_20_MZ_Q5_knocked_out_substitute_scores_nothing(g):
    """MZ-20, MZ-Q5: the substitute fights with its own values; knocked out, it
    goes to its owner's trash and the attacker captures nothing."""
    s = pos(g, {"battle": ["r_water800"], "untapped": 2},
            {"battle": ["b_water900", ("b_water600", True, False)], "hand": ["b_fire500"], "untapped": 1})
    t = s.apply("attack r_water800 b_water900")  # 800 < 900, both water: あいうち if declined
    assert t.current_player == 1
    r = t.battle_report("substitute b_water600")
    assert r["substitute"] and r["result"] == "ko" and r["knocked_out"][0]["rule"] == "MZ-20"
    u = t.apply("substitute b_water600")
    assert u.captured(0) == 0 and "b_water600" in u.to_dict()["players"][1]["out"]
    assert zone(u, 1) == {"b_water900": False} and zone(u, 0) == {"r_water800": False}


def test_MZ_21_MZ_Q4_no_substitute_against_an_attribute_win(g):
    """MZ-21, MZ-Q4: an attack that wins on attribute against the declared
    target cannot be answered with みがわり."""
    s = sub_position(g)
    t = s.apply("attack r_fire900 b_grass650")  # fire → grass: KO, no substitute
    assert t.current_player == 0 and t.captured(0) == 1
    assert "MZ-21" in s.explain("attack r_fire900 b_grass650")
    assert battle(card("r_fire900"), card("b_grass650")).substitute_allowed is False


def test_MZ_Q4_cost_is_judged_against_the_declared_target(g):
    """MZ-Q4: the 2-mana disadvantage is judged against the declared target;
    a substitute does not change what was paid."""
    s = sub_position(g)
    t = s.apply("attack r_fire900 b_water900")  # fire ← water: 2 mana
    assert t.mana(0)[1] == 1 and t.current_player == 1
    r = t.battle_report("substitute b_grass650")
    assert r["attack_cost"] == 2 and r["result"] == "ko"  # judged with the substitute's values (MZ-Q5)


# -- direct attack (MZ-22, MZ-Q2) ----------------------------------------------------------
def test_MZ_22_MZ_Q2_direct_attack_takes_a_random_hand_card(g):
    """MZ-22, MZ-Q2: with the opposing zone empty, a monster that has not
    attacked and 1 mana take one card of the hand at random, once per turn."""
    s = pos(g, {"battle": ["r_fire500", "r_grass500"], "untapped": 3},
            {"hand": ["b_fire500", "b_water500", "b_grass500"]})
    assert [a for a in s.legal_actions() if a.startswith("direct")] == ["direct r_fire500", "direct r_grass500"]
    t = s.apply("direct r_fire500")
    assert t.current_player == CHANCE
    assert t.chance_outcomes() == [(f"steal {c}", Fraction(1, 3))
                                   for c in ["b_fire500", "b_grass500", "b_water500"]]
    u = t.apply("steal b_water500")
    assert u.captured(0) == 1 and len(u.hand(1)) == 2 and "b_water500" in u.to_dict()["players"][1]["out"]
    # once per turn: r_grass500 has not attacked and 2 mana are left, yet the turn is over
    assert u.mana(0)[1] == 2 and u.turn == 1 and u.phase == "charge"
    busy = pos(g, {"battle": ["r_fire500"]}, {"battle": ["b_fire600"], "hand": ["b_fire500"]})
    assert not any(a.startswith("direct") for a in busy.legal_actions())


# -- the end (MZ-23, MZ-24, MZ-Q6, MZ-Q7) ---------------------------------------------------
def test_MZ_23_three_captures_win_at_once(g):
    """MZ-23: the moment a player has 3 captured cards that player wins."""
    s = pos(g, {"battle": ["r_fire900"], "captured": 2}, {"battle": ["b_grass650"], "hand": ["b_fire500"],
                                                            "out": ["b_fire950", "b_water900"]})
    t = s.apply("attack r_fire900 b_grass650")
    assert t.current_player == TERMINAL and t.returns() == [1, -1] and t.winner() == 0


def test_MZ_24_MZ_Q6_nobody_can_act_more_captures_win(g):
    """MZ-24, MZ-Q6: two turns in a row without charge, summon or attack end
    the game; more captured cards win, equal is a draw."""
    q = pos(g, {"battle": ["r_fire500"], "captured": 1},
            {"battle": ["b_fire600"], "out": ["b_fire950"], "untapped": 1}, quiet=0, acted=False)
    u = q.apply("end")  # quiet turn 1 (player 0 could attack but did not)
    assert u.to_dict()["quiet_turns"] == 1 and u.current_player == 1
    v = u.apply("end")  # quiet turn 2: the game is over
    assert v.current_player == TERMINAL and v.returns() == [1, -1]
    draw = pos(g, {"battle": ["r_fire500"]}, {"battle": ["b_fire600"], "untapped": 1}, acted=False)
    assert draw.apply("end").apply("end").returns() == [0, 0]


def test_MZ_Q6_attacks_are_optional_charging_is_not(g):
    """MZ-Q6: a charge counts as a change, so the count of quiet turns restarts."""
    s = pos(g, {"battle": ["r_fire500"]}, {"battle": ["b_fire600"], "hand": ["b_fire500"]}, acted=False)
    t = s.apply("end")
    assert t.current_player == 1 and t.phase == "charge" and t.to_dict()["quiet_turns"] == 1
    assert t.legal_actions() == ["charge b_fire500"]  # no 'end' before charging
    u = t.apply("charge b_fire500").apply("end")
    assert u.current_player == 0 and u.to_dict()["quiet_turns"] == 0


def test_MZ_Q7_wounded_attacker_in_a_mutual_goes_to_the_defender(g):
    """MZ-Q7: mutual wounds on an attacker with one wound knock it out into the
    defender's owner's captured cards."""
    s = pos(g, {"battle": [("r_grass700", True, False)]}, {"battle": ["b_grass700"], "hand": ["b_fire500"]})
    t = s.apply("attack r_grass700 b_grass700")
    assert zone(t, 0) == {} and t.captured(1) == 1 and zone(t, 1) == {"b_grass700": True}


def test_MZ_Q7_both_reach_three_attacker_first_or_draw():
    """MZ-Q7: both reach 3 in one battle: the attacker's side is checked first
    (default), or it is a draw with both_three='draw'."""
    for opt, expected in (("attacker", [1, -1]), ("draw", [0, 0])):
        game = tgame(both_three=opt)
        s = pos(game, {"battle": [("r_grass700", True, False)], "captured": 2, "out": ["r_fire900", "r_big"]},
                {"battle": [("b_grass700", True, False)], "captured": 2, "hand": ["b_fire500"],
                 "out": ["b_fire950", "b_water900"]})
        t = s.apply("attack r_grass700 b_grass700")
        assert t.captured(0) == t.captured(1) == 3 and t.returns() == expected


# -- materials (MZ-18, MZ-Q3) ---------------------------------------------------------------
def test_MZ_18_MZ_Q3_material_count_distinct_or_per_monster():
    """MZ-18, MZ-Q3: shared materials counted once each ('distinct', default)
    or once per monster having them ('per_monster')."""
    new = Card("n", "N", "ン", "fire", 1000, 4, "t", "t", 500, ("whale", "sword"))
    z1 = Card("a", "A", "ア", "fire", 1000, 1, "t", "t", 500, ("whale", "moon"))
    z2 = Card("b", "B", "ビ", "fire", 1000, 1, "t", "t", 500, ("whale", "root"))
    assert summon_cost(new, []) == 4
    assert summon_cost(new, [z1, z2]) == 3
    assert summon_cost(new, [z1, z2], "per_monster") == 2
    with pytest.raises(cardlab.OptionError, match="distinct' or 'per_monster"):
        summon_cost(new, [], "some")
    s = pos(tgame(material_count="per_monster"), {"battle": ["r_titan"], "hand": ["r_big"], "untapped": 1},
            {"hand": ["b_fire500"]})
    assert "summon r_big" in s.legal_actions()


# -- cards and card files (MZ-Q1) -------------------------------------------------------------
def test_MZ_Q1_original_card_set_and_two_ready_decks():
    """MZ-Q1: cardlab's own set of ≥ 20 cards (values in the seed's ranges) and
    two ready 10-card decks, chosen by the deck0 / deck1 options."""
    cs = load_cards()
    assert len(cs.cards) >= 20 and {c.attribute for c in cs.cards.values()} == set(ATTRIBUTES)
    assert all(len(d) == 10 for d in cs.decks.values()) and len(cs.decks) >= 2
    assert all(1 <= c.cost <= 3 and 2 <= len(c.materials) <= 4 for c in cs.cards.values())
    game = cardlab.load("mazemon", deck0="shizuku", deck1="hinoko")
    assert game.new_initial_state().hand(0) == list(cs.decks["shizuku"])
    with pytest.raises(cardlab.OptionError, match="deck1 accepts 'hinoko', 'shizuku'"):
        cardlab.load("mazemon", deck1="nope")


def test_MZ_Q1_user_card_file(tmp_path):
    """MZ-Q1: a user's own card file, by path, chosen with the cards option."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(TEST_CARDS), "utf-8")
    game = cardlab.load("mazemon", cards=str(path), deck0="blue", deck1="red")
    assert game.new_initial_state().hand(0)[0] == "b_grass650"


@pytest.mark.parametrize("change,field", [
    (lambda d: d["cards"][0].update(attribute="wind"), "'attribute'"),
    (lambda d: d["cards"][0].update(hp="lots"), "'hp'"),
    (lambda d: d["cards"][0].update(cost=0), "'cost'"),
    (lambda d: d["cards"][0].update(materials=["only"]), "'materials'"),
    (lambda d: d["cards"][0]["technique"].update(power=-5), "'technique'"),
    (lambda d: d["cards"][0].update(colour="red"), "'colour'"),
    (lambda d: d["cards"][1].update(id="r_fire900"), "'id'"),
])
def test_MZ_Q1_card_file_errors_name_file_card_and_field(tmp_path, change, field):
    """MZ-Q1: a malformed card file raises CardFileError naming file, card, field."""
    data = json.loads(json.dumps(TEST_CARDS))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(cardlab.CardFileError, match=rf"bad\.json: card 'r_\w+', field {field}"):
        cardlab.load("mazemon", cards=str(path), deck0="red", deck1="blue")


def test_MZ_Q1_deck_and_file_errors(tmp_path):
    """MZ-Q1: decks must list ten different known cards; unreadable files are named."""
    data = json.loads(json.dumps(TEST_CARDS))
    data["decks"]["red"] = data["decks"]["red"][:9]
    with pytest.raises(cardlab.CardFileError, match="deck 'red', field 'cards': must list exactly 10"):
        load_cards(data)
    data["decks"]["red"] = ["r_fire900"] * 10
    with pytest.raises(cardlab.CardFileError, match="must all be different"):
        load_cards(data)
    with pytest.raises(cardlab.CardFileError, match="nothere.json: cannot read"):
        load_cards(tmp_path / "nothere.json")
    (tmp_path / "broken.json").write_text("{", "utf-8")
    with pytest.raises(cardlab.CardFileError, match="broken.json: not valid JSON"):
        load_cards(tmp_path / "broken.json")


# -- explanations ----------------------------------------------------------------------------
def test_battle_explanation_structured_and_text(g):
    """MZ-8, MZ-12, MZ-16: every battle has a structured explanation (technique,
    attribute relation, HP when used, result, rule id) and a text one."""
    s = pos(g, {"battle": ["r_water800"], "untapped": 2}, {"battle": ["b_water600"], "hand": ["b_fire500"]})
    r = s.battle_report("attack r_water800 b_water600")
    assert (r["technique"], r["attribute"], r["hp"], r["result"], r["rule"]) == (
        "wins", "same", [2200, 1350], "ko", "MZ-12")
    json.dumps(r)
    text = s.explain("attack r_water800 b_water600")
    for part in ("800 > 600", "HP 2200 > 1350", "一撃", "MZ-12", "MZ-16", "1 mana"):
        assert part in text, (part, text)
    assert isinstance(battle(card("r_water800"), card("b_water600")), Battle)
    with pytest.raises(ValueError, match="starts no battle"):
        s.battle_report("end")


def test_explain_every_action_cites_a_rule():
    """MZ-2, MZ-3, MZ-6 … MZ-22: explain() gives one line with a rule id for every
    action and chance outcome met in a few games."""
    import random
    from cardlab.core import sample_chance
    game = cardlab.load("mazemon")
    for seed in range(5):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            a = sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions())
            line = s.explain(a)
            assert "MZ-" in line and "\n" not in line, (a, line)
            s = s.apply(a)


# -- positions -----------------------------------------------------------------------------------
def test_bad_positions_are_refused_naming_the_field(g):
    """MZ-4, MZ-19: inconsistent positions raise PositionError naming what is wrong."""
    good = pos(g, {"battle": ["r_fire500"]}, {"hand": ["b_fire500"]}).to_dict()
    bad = json.loads(json.dumps(good))
    bad["players"][0]["mana"] += 1
    with pytest.raises(cardlab.PositionError, match="players\\[0\\]"):
        g.state_from_dict(bad)
    bad = json.loads(json.dumps(good))
    bad["players"][1]["hand"] = ["r_fire500"]
    with pytest.raises(cardlab.PositionError, match="not a card of player 1's deck"):
        g.state_from_dict(bad)
    bad = json.loads(json.dumps(good))
    bad["phase"] = "substitute"
    with pytest.raises(cardlab.PositionError, match="pending"):
        g.state_from_dict(bad)
    bad = json.loads(json.dumps(good))
    bad["players"][0]["battle"] = [{"card": c, "wounded": False, "attacked": False}
                                   for c in ["r_fire500", "r_grass500", "r_titan", "r_big"]]
    with pytest.raises(cardlab.PositionError, match="at most 3"):
        g.state_from_dict(bad)
    assert g.state_from_dict(good).to_dict() == good


# -- perft by hand -----------------------------------------------------------------------------------
def test_perft_small_depths_by_hand():
    """MZ-2, MZ-3, MZ-6, MZ-7: perft from the start, counted by hand.

    Depth 1: janken, 2.  Depth 2: 2 × 45 trashed pairs = 90.  Depth 3: the
    first player charges one of 8 cards: 720.  Depth 4: after the charge the
    first player has 1 mana: each cost-1 card left in the hand is a summon,
    plus 'end'; with no cost-1 card left the turn has already ended by itself
    and the node is the second player's charge (10 cards)."""
    from test_perft_and_solvers import perft
    game = cardlab.load("mazemon")
    root = game.new_initial_state()
    assert [perft(root, d) for d in (1, 2, 3)] == [2, 90, 720]
    cs = load_cards()
    total = 0
    for first, name in enumerate(("hinoko", "shizuku")):
        deck = cs.decks[name]
        for trashed in combinations(deck, 2):
            hand = [c for c in deck if c not in trashed]
            for charged in hand:
                ones = sum(1 for c in hand if c != charged and cs.cards[c].cost == 1)
                total += ones + 1 if ones else 10
    assert perft(root, 4) == total


# -- exact endgames ---------------------------------------------------------------------------------
def endgame(game, h0, h1, b0=(), b1=()):
    return pos(game, {"hand": list(h0), "battle": list(b0)}, {"hand": list(h1), "battle": list(b1)},
               phase="charge", first=0)


def test_endgame_four_cards_each_solves_quickly():
    """MZ-Q8: with open hands a four-cards-each endgame (one monster each on the
    board) is solved exactly by cardlab.solve in well under the time limit, and
    agrees with its own principal variation."""
    game = cardlab.load("mazemon", open_hands=True)
    ids0, ids1 = game.ids
    s = endgame(game, ids0[1:5], ids1[1:5], [ids0[5]], [ids1[5]])
    start = time.perf_counter()
    sol = cardlab.solve(s, progress=False)
    assert time.perf_counter() - start < 20
    assert sol.value in (-1, 0, 1) and sol.best_actions and sol.nodes < 200_000
    t = s
    for a in sol.pv:
        t = t.apply(a)
    assert cardlab.solve(t, progress=False).value == sol.value


def test_endgame_solve_equals_plain_minimax():
    """MZ-Q8: a small open endgame: alpha-beta + table gives the plain
    expectiminimax value with far fewer nodes."""
    game = cardlab.load("mazemon", open_hands=True)
    ids0, ids1 = game.ids
    s = endgame(game, ids0[3:5], ids1[3:4], [ids0[5]], [ids1[5]])
    sol, base = cardlab.solve(s, progress=False), cardlab.minimax(s, max_nodes=2_000_000)
    assert sol.value == base.value and sol.nodes < base.nodes


def test_MZ_24_payoff_score_is_the_capture_difference():
    """MZ-24, MZ-23: payoff='score' returns the difference of captured cards,
    within the declared bounds (±3)."""
    game = tgame(payoff="score")
    assert (game.spec.min_utility, game.spec.max_utility) == (-3, 3)
    s = pos(game, {"battle": ["r_fire500"], "captured": 1, "out": ["r_fire900", "r_big"]},
            {"battle": ["b_fire600"], "captured": 2, "out": ["b_fire950"]}, acted=False)
    t = s.apply("end").apply("end")  # two quiet turns (MZ-Q6)
    assert t.current_player == TERMINAL and t.returns() == [-1, 1]
    # no hands: turns need not match the mana, no substitutes out, so player 1 has 0 captures (MZ-19, J)
    win = pos(game, {"battle": ["r_fire900"], "captured": 2}, {"battle": ["b_grass650"],
                                                                 "out": ["b_fire950", "b_water900"]})
    assert win.apply("attack r_fire900 b_grass650").returns() == [3, -3]


def test_MZ_Q8_heuristic_and_observation_use_only_what_the_player_sees():
    """MZ-Q8: re-dealing the opponent's hidden cards changes neither what a
    player observes nor that player's heuristic."""
    import random
    from cardlab.core import sample_chance
    game = cardlab.load("mazemon")
    rng = random.Random(3)
    s = game.new_initial_state()
    checked = 0
    while not s.is_terminal():
        for q in (0, 1):
            t = s.redeal(q, rng)
            assert t.heuristic(q) == s.heuristic(q) and t.observation(q) == s.observation(q)
            checked += t != s
        s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert checked > 0


@pytest.mark.parametrize("mode", ["distinct", "per_monster"])
def test_MZ_18_MZ_Q3_cost_table_matches_summon_cost(mode):
    """MZ-18, MZ-Q3: the engine's precomputed costs equal summon_cost() for
    every card and every possible battle zone."""
    from cardlab.games.mazemon.state import _BITS
    game = cardlab.load("mazemon", material_count=mode)
    for p, deck in enumerate(game.decks):
        for i, c in enumerate(deck):
            for m in range(1024):
                assert game.cost[p][i][m] == summon_cost(c, [deck[j] for j in _BITS[m]], mode)


def test_MZ_22_MZ_Q2_direct_attack_value_worked_by_hand():
    """MZ-22, MZ-Q2, MZ-19, MZ-21, MZ-23: a position whose exact value is worked out by hand
    (from a seeded random game, with player 0's last two cards out of play as well, J).

    Player 0 (1 capture, Ember Boar and Petal Fox unhurt, 2 untapped mana) may take one of
    player 1's three cards at random (player 1 has 2 captures and an empty zone).  Then
    player 0 has 2 captures and nothing more to do (one direct attack a turn); player 1
    charges (5 mana), keeps one card and wins only by a KO this turn (MZ-12): Tide Whale
    KOs Ember Boar (900 > 800, water beats fire), and no みがわり against an attribute win
    (MZ-21); Moss Tortoise KOs Petal Fox (700 > 650, both grass, more HP) but player 0 still
    has a mana for みがわり (MZ-19): Ember Boar takes it, a mutual wound, and player 0's
    next attack knocks the wounded tortoise out for the third capture.  So player 0 wins
    only when Tide Whale is taken (1/3, +1), else loses (−1); ending the turn instead
    lets the whale in at once (−1).  Value −1/3."""
    game = cardlab.load("mazemon", open_hands=True)
    s = pos(game, {"battle": ["ember_boar", "petal_fox"], "untapped": 2, "captured": 1,
                   "out": ["kiln_crab", "bubble_frog", "kagari_owl", "bamboo_ronin"]},
            {"hand": ["tide_whale", "mist_jelly", "moss_tortoise"], "untapped": 3, "captured": 2,
             "out": ["river_otter"]},
            phase="battle", first=1)
    assert s.legal_actions() == ["direct ember_boar", "direct petal_fox", "end"]
    a = cardlab.analyse(s, progress=False)
    assert {r["action"]: r["value"] for r in a.rows} == {
        "direct ember_boar": Fraction(-1, 3), "direct petal_fox": Fraction(-1, 3), "end": -1}
    t = s.apply("direct ember_boar")
    values = {o: cardlab.solve(t.apply(o), progress=False).value for o, _ in t.chance_outcomes()}
    assert values == {"steal tide_whale": 1, "steal mist_jelly": -1, "steal moss_tortoise": -1}


def test_MZ_9_turn_ends_by_itself_only_when_nothing_is_left():
    """MZ-9, MZ-Q6: a turn ends by itself exactly when no summon, attack or
    direct attack is possible (the fast check agrees with the full list)."""
    import random
    from cardlab.core import sample_chance
    from cardlab.games.mazemon.state import _can_act, _options
    game = cardlab.load("mazemon")
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.phase in ("summon", "battle"):
                k = list(s._k)
                assert _can_act(game, k) == any(_options(game, k))
                assert len(s.legal_actions()) > 1  # never a lone 'end' after a real move
                seen += 1
            s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert seen > 100


# -- issue J: only positions the rules can reach load; every bad input a clear error ------------
def reached(game, want, seeds=range(200)):
    """The ``to_dict`` of the first position of seeded random games for which
    ``want(state)`` holds: a position the rules reached by play."""
    import random
    from cardlab.core import sample_chance
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            if want(s):
                return json.loads(json.dumps(s.to_dict()))
            s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    raise AssertionError("no such position in the seeded games")


def refused(game, d, match):
    before = json.dumps(d, sort_keys=True)
    with pytest.raises(cardlab.PositionError, match=match) as info:
        game.state_from_dict(d)
    assert json.dumps(d, sort_keys=True) == before and "\n" not in str(info.value)
    return str(info.value)


def test_J_MZ_23_MZ_24_MZ_Q6_end_at_nil_nil_without_quiet_turns_is_refused():
    """J, MZ-23, MZ-24, MZ-Q6: the issue's example: phase "end" at 0-0 with no
    quiet turns was loaded as a finished game.  The game ends only at three
    captures or after two quiet turns; a loaded position that is over by
    those rules is over, and one that is not is no end."""
    game = cardlab.load("mazemon")
    d = reached(game, lambda s: s.phase == "summon" and s.captured(0) == s.captured(1) == 0)
    d["phase"] = "end"
    refused(game, d, "phase end.*MZ-23.*MZ-Q6")
    end = reached(game, lambda s: s.is_terminal() is False and s.phase == "battle")
    end["quiet_turns"] = 2  # two quiet turns, but the game is still going on
    refused(game, end, "quiet_turns")


def test_J_MZ_Q6_quiet_end_needs_a_quiet_position():
    """J, MZ-Q6, MZ-6: a game ended by two quiet turns has nothing done in the
    last turn, and both hands are empty (with a card in hand a player must
    charge, so the turn is not quiet)."""
    g = tgame()
    quiet = pos(g, {"battle": ["r_fire500"]}, {"battle": ["b_fire600"], "untapped": 1},
                acted=False).apply("end").apply("end")
    d = quiet.to_dict()
    assert quiet.is_terminal() and d["quiet_turns"] == 2 and g.state_from_dict(d) == quiet
    for field, value, match in [("acted", True, "acted"), ("direct_used", True, "direct_used"),
                                ("substitute_used", True, "substitute_used")]:
        bad = json.loads(json.dumps(d))
        bad[field] = value
        refused(g, bad, match)
    bad = json.loads(json.dumps(d))
    bad["players"][1]["battle"] = []
    bad["players"][1]["hand"] = ["b_fire600"]
    refused(g, bad, "hand.*MZ-Q6")


def test_J_MZ_23_a_win_needs_an_attack_this_turn():
    """J, MZ-23: three captures are made by an attack or a direct attack, so a
    finished game won on captures has 'acted' set in its last turn."""
    g = tgame()
    s = pos(g, {"battle": ["r_fire900"], "captured": 2}, {"battle": ["b_grass650"], "hand": ["b_fire500"],
                                                            "out": ["b_fire950", "b_water900"]})
    d = s.apply("attack r_fire900 b_grass650").to_dict()
    assert g.state_from_dict(d).returns() == [1, -1]
    d["acted"] = False
    refused(g, d, "acted.*MZ-23")


@pytest.mark.parametrize("field,value,match", [
    ("turn", 1, "turn.*MZ-2"), ("quiet_turns", 1, "quiet_turns"), ("acted", True, "acted"),
    ("direct_used", True, "direct_used"),
])
def test_J_MZ_2_janken_is_the_untouched_start(field, value, match):
    """J, MZ-2, MZ-1: before the janken nothing has happened: player 0's 'turn'
    (as the game starts), no quiet turn, no action."""
    game = cardlab.load("mazemon")
    d = game.new_initial_state().to_dict()
    d[field] = value
    refused(game, d, match)


def test_J_MZ_3_trash_is_the_untouched_start_of_the_first_player():
    """J, MZ-3: at the trash nothing has been done yet."""
    game = cardlab.load("mazemon")
    d = game.new_initial_state().apply("janken 1").to_dict()
    assert game.state_from_dict(d).current_player == CHANCE
    d["substitute_used"] = True
    refused(game, d, "substitute_used")


def test_J_MZ_5_charge_starts_with_all_mana_untapped():
    """J, MZ-5, MZ-6: the charge comes right after the untap, so every mana of
    the player to move is upright and nothing else has happened this turn."""
    game = cardlab.load("mazemon")
    d = reached(game, lambda s: s.phase == "charge" and s.mana(s.turn)[0] >= 2)
    bad = json.loads(json.dumps(d))
    bad["players"][d["turn"]]["untapped"] -= 1
    refused(game, bad, "untapped.*MZ-5")
    bad = json.loads(json.dumps(d))
    bad["acted"] = True
    refused(game, bad, "acted")


def test_J_MZ_7_MZ_8_summoning_ends_with_the_first_attack():
    """J, MZ-7, MZ-8: in the summon phase nobody has attacked yet this turn
    (the first attack ends the summoning)."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500"], "hand": ["r_grass500"], "untapped": 2},
            {"battle": ["b_fire600"], "hand": ["b_fire500"]}, acted=True).to_dict()
    bad = json.loads(json.dumps(d))
    bad["players"][0]["battle"][0]["attacked"] = True
    refused(g, bad, "attacked.*MZ-8")
    bad = json.loads(json.dumps(d))
    bad["substitute_used"] = True
    refused(g, bad, "substitute_used")


def test_J_MZ_8_battle_phase_follows_an_attack():
    """J, MZ-8: the battle phase begins with an attack, so 'acted' is set."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500", "r_grass500"], "untapped": 2},
            {"battle": ["b_fire600"], "hand": ["b_fire500"]}, phase="battle", acted=True).to_dict()
    d["acted"] = False
    refused(g, d, "acted.*MZ-8")


def test_J_MZ_9_a_turn_with_only_end_left_has_ended_by_itself():
    """J, MZ-9: the engine ends a turn by itself when only 'end' is left, so a
    summon or battle phase in which the mover can do nothing else is refused."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500"], "untapped": 1}, {"battle": ["b_fire600"], "hand": ["b_fire500"]},
            acted=True).to_dict()
    d["players"][0]["untapped"] = 0
    refused(g, d, "nothing to do but 'end'.*MZ-9")


def test_J_MZ_22_direct_attack_state_is_consistent():
    """J, MZ-22, MZ-Q2: a direct attack is made by a monster (which then has
    attacked) against an empty battle zone that stays empty all turn."""
    g = tgame()
    s = pos(g, {"battle": ["r_water800"], "untapped": 2}, {"hand": ["b_fire500", "b_water500"]})
    stealing = s.apply("direct r_water800").to_dict()
    assert g.state_from_dict(stealing).current_player == CHANCE
    bad = json.loads(json.dumps(stealing))
    bad["players"][0]["battle"][0]["attacked"] = False
    refused(g, bad, "attacked.*MZ-22")
    busy = pos(g, {"battle": ["r_water800", "r_fire500"], "untapped": 2},
               {"battle": ["b_fire600"], "hand": ["b_fire500"]}, phase="battle", acted=True).to_dict()
    busy["direct_used"] = True
    refused(g, busy, "direct_used.*MZ-22")


def test_J_MZ_Q6_one_quiet_turn_means_the_opponent_holds_no_card():
    """J, MZ-Q6, MZ-6: the last turn was quiet only if its player could not
    charge, i.e. their hand is empty (hands never refill, MZ-1)."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500"], "untapped": 1}, {"battle": ["b_fire600"], "hand": ["b_fire500"]},
            acted=True).to_dict()
    d["quiet_turns"] = 1
    refused(g, d, "quiet_turns.*MZ-Q6")


def test_J_MZ_7_monsters_in_the_battle_zone_were_paid_with_mana():
    """J, MZ-7: a monster is summoned by tapping mana, and mana is never lost,
    so a player with a monster has mana."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500"], "untapped": 1}, {"battle": ["b_fire600"], "hand": ["b_fire500"]},
            acted=True).to_dict()
    # player 1 (first: 2 cards trashed) with b_fire600 in the battle zone and the 7 others in hand
    d["players"][1].update(mana=0, untapped=0, hand=[c for c in g.ids[1] if c not in ("b_fire600", "b_fire500")][:7])
    refused(g, d, r"players\[1\].*mana.*MZ-7")


@pytest.mark.parametrize("path,value,match", [
    (("turn",), 1.0, "turn"),
    (("players", 0, "hand"), [["r_fire500"]], r"players\[0\]\.hand"),
    (("players", 0, "battle", 0, "card"), ["r_fire500"], r"players\[0\]\.battle"),
    (("pending",), {"attacker": ["x"], "target": "b_fire600"}, "pending"),
    (("players", 0, "captured"), True, r"players\[0\]\.captured"),
    (("phase",), ["end"], "phase"),
    (("phase",), "x" * 5000, "phase"),
])
def test_J_MZ_4_wrong_types_are_refused_naming_the_field(path, value, match):
    """J, MZ-4: the issue's ``turn=1.0``, and card ids, numbers and words of the
    wrong type, are refused with PositionError naming the field (one short
    line, never a repr of a huge value)."""
    g = tgame()
    d = pos(g, {"battle": ["r_fire500"], "untapped": 1}, {"battle": ["b_fire600"], "hand": ["b_fire500"]},
            acted=True).to_dict()
    place = d
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    msg = refused(g, d, match)
    assert len(msg) < 400 and "malformed" not in msg


@pytest.mark.parametrize("change,match", [
    (lambda d: d["materials"].update(lantern=5), "materials.*lantern"),
    (lambda d: d.update(materials=["lantern"]), "materials"),
    (lambda d: d.update(name=["a list"]), "'name'"),
    (lambda d: d["decks"]["hinoko"].update(name=["x"]), "deck 'hinoko', field 'name'"),
    (lambda d: d["decks"]["hinoko"]["cards"].__setitem__(0, ["kagari_owl"]), "deck 'hinoko', field 'cards'"),
    (lambda d: d["cards"][0].update(id=["kagari_owl"]), "field 'id'"),
    (lambda d: d["cards"][0]["technique"].update(name=""), "technique"),
])
def test_J_MZ_Q1_every_card_file_field_is_type_checked(change, match):
    """J, MZ-Q1: the issue's ``materials.lantern=5`` (loaded, then html()
    broke), and lists where a name belongs, are refused with CardFileError
    naming the file, the card or deck and the field."""
    from importlib import resources
    data = json.loads(resources.files("cardlab.data").joinpath("mazemon.json").read_text("utf-8"))
    change(data)
    with pytest.raises(cardlab.CardFileError, match=match) as info:
        cardlab.load("mazemon", cards=data)
    assert len(str(info.value)) < 400


def test_J_MZ_Q1_deck_check_is_linear_time():
    """J, MZ-Q1: a huge deck list is refused at once (no quadratic check), in
    one short line (its length, not its repr)."""
    from importlib import resources
    data = json.loads(resources.files("cardlab.data").joinpath("mazemon.json").read_text("utf-8"))
    data["decks"]["hinoko"]["cards"] = ["kagari_owl"] * 200_000
    t = time.perf_counter()
    with pytest.raises(cardlab.CardFileError, match="deck 'hinoko'") as info:
        load_cards(data)
    assert time.perf_counter() - t < 2 and len(str(info.value)) < 400


def test_J_positions_the_engine_produces_all_load():
    """J, MZ-1 … MZ-24: every position of seeded random games (and every
    redeal of a hidden hand, MZ-Q8) loads again as itself."""
    import random
    from cardlab.core import sample_chance
    for game in (cardlab.load("mazemon"), tgame(material_count="per_monster", both_three="draw")):
        for seed in range(30):
            rng = random.Random(seed)
            s = game.new_initial_state()
            while True:
                assert game.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s
                if s.current_player >= 0:
                    r = s.redeal(1 - s.current_player, seed)
                    assert game.state_from_dict(r.to_dict()) == r
                if s.is_terminal():
                    break
                s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))


def test_J_MZ_6_mana_counts_follow_the_turns():
    """J, MZ-6, MZ-3, MZ-9: every turn charges exactly one card while the hand has one, and
    turns alternate from the first player (MZ-9), so a player whose hand still holds cards
    has charged on each of their turns: the two mana counts tell the same turn number (the
    first player one turn ahead on their own turn, the charge of a turn in the phase charge
    still to come).  A card moved from a hand into the mana (one charge too many), or from
    the mana back to the hand, is refused; so is a hand emptied with no mana at all."""
    game = cardlab.load("mazemon")
    d = reached(game, lambda s: s.phase in ("summon", "battle") and all(s.to_dict()["players"][p]["hand"]
                                                                         for p in (0, 1)) and s.mana(0)[0] >= 2)
    assert game.state_from_dict(d)
    for p in (0, 1):
        bad = json.loads(json.dumps(d))
        bad["players"][p]["hand"].pop()
        bad["players"][p]["mana"] += 1
        bad["players"][p]["untapped"] += 1
        refused(game, bad, r"mana .*turn.*MZ-6")
    o = 1 - d["turn"]
    bad = json.loads(json.dumps(d))
    cards = [c for c in game.ids[o] if c not in bad["players"][o]["hand"] + bad["players"][o]["out"]
             and c not in [m["card"] for m in bad["players"][o]["battle"]]]
    bad["players"][o]["hand"].append(cards[0])
    bad["players"][o]["mana"] -= 1
    bad["players"][o]["untapped"] = min(bad["players"][o]["untapped"], bad["players"][o]["mana"])
    refused(game, bad, r"mana .*turn.*MZ-6")


def test_J_MZ_19_MZ_20_substitutes_knocked_out_are_at_most_the_opponents_turns():
    """J, MZ-19, MZ-20, MZ-Q5, MZ-6, MZ-9: a card out of play that the opponent did not capture
    is a substitute knocked out (to its owner's trash, no score).  みがわり is used on the
    opponent's turn, once per turn, tapping one of the defender's mana: so at most one per
    opponent turn after the defender's first charge (the current turn only once
    substitute_used).  Second player to move with 2 mana each: player 1 (first) has had two
    turns, one of them after player 0's first charge; player 0's own turn is the second since
    player 1's first charge.  One such card each is reachable, two are not."""
    g = cardlab.load("mazemon")
    m = cardlab.Match(g, ["random"] * 2, seed=0)
    m.play_to_end()
    d = next(s.to_dict() for s in m.states if s.to_dict()["phase"] == "summon"
             and [p["mana"] for p in s.to_dict()["players"]] == [2, 2])
    assert (d["turn"], d["first"], [p["mana"] for p in d["players"]]) == (0, 1, [2, 2])
    for p in (0, 1):
        for k, ok in ((1, True), (2, False)):
            e = json.loads(json.dumps(d))
            q = e["players"][p]
            q["out"], q["hand"] = q["hand"][:k], q["hand"][k:]  # k cards knocked out as substitutes
            if ok:
                g.state_from_dict(e)
            else:
                refused(g, e, rf"players\[{p}\]\.out: {k} cards .* substitutes knocked out \(MZ-20\).*MZ-19")
