"""MONSTER CARDS (モンスターカード): every rule MC-1 … MC-19, MC-Q1 … MC-Q10, the
seed's battle and affinity examples, the skill library in all three forms,
the card builder, card files, and exact solving of small endgames."""

from __future__ import annotations

import copy
import json
import re
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.games import monster_cards as mc
from cardlab.games.monster_cards import SKILLS, Card, battle

DATA = Path(__file__).parents[2] / "data"
PERFT_FILE = DATA / "perft" / "monster_cards.json"
REFERENCE_FILE = DATA / "reference" / "monster_cards.json"
NEUTRAL = dict(attribute="none", race="human", size="medium", means="melee")


def lab(name, rarity, skill=None, attack=2, **aff):
    """A card for the lab deck: every affinity even unless given."""
    return {"name": name, "rarity": rarity, "attack": attack, **{**NEUTRAL, **aff}, "skill": skill}


#: every skill at C (plain), SR (SP) and UR (ULT) once, and eight of each plain card
LAB_CARDS = ([lab(f"{s}_{r.lower()}", r, s) for s in SKILLS for r in ("C", "SR", "UR")]
             + [{**lab(f"{r.lower()}_plain", r), "count": 8} for r in mc.RARITIES]
             + [lab("weak_plain", "C", attack=1), lab("strong_plain", "C", attack=5)])
LAB_DECK = {"name": "lab", "cards": LAB_CARDS}


def lab_game(**opts):
    size = sum(c.get("count", 1) for c in LAB_CARDS)
    base = dict(decks=[LAB_DECK], deck_size=size, max_cost=10_000, open_hands=True)
    return cardlab.load("monster_cards", **{**base, **opts})


def P(hand=(), deck=(), top=(), grave=(), out=False):
    return {"out": out, "hand": list(hand), "deck_top": list(top), "deck": list(deck), "graveyard": list(grave)}


def pos(game, players, turn=0, attack=None, gc=None, phase="action", pending=None):
    z = lambda x: None if x is None else {"owner": x[0], "card": x[1]}  # noqa: E731
    # J, MC-9, MC-11: a player who has played since the draw holds at most 2; the rest was played (ruins)
    players = [dict(p, hand=p["hand"][:2]) if len(p["hand"]) > 2 and not (q == turn and phase == "action")
               and (p["deck"] or p["deck_top"]) else p for q, p in enumerate(players)]
    return game.state_from_dict({"phase": phase, "turn": turn, "attack": z(attack), "gamechanger": z(gc),
                                 "pending": pending, "players": players})


def card(name):
    return Card.from_dict({k: v for k, v in next(c for c in LAB_CARDS if c["name"] == name).items() if k != "count"})


def zones(state, p):
    return state.to_dict()["players"][p]


def until_decision(state):
    """Play the first outcome of every chance event up to the next decision or the end."""
    while state.current_player == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def gone(before, after, p):
    """The cards of player ``p`` that went to the ruins between two states."""
    rest = list(after.ruins(p))
    for c in before.ruins(p):
        rest.remove(c)
    return rest


# -- the seed's examples (MC-14 … MC-17) -------------------------------------------------
SEED_DEFENDER = Card("seed_defender", "SR", 2, "fire", "human", "medium", "magic")
SEED_ATTACKER = Card("seed_attacker", "C", 2, "none", "demon", "medium", "defence")


def test_seed_scale_example_sr_defender_vs_c_attacker():
    """MC-14, MC-15, MC-16: the seed's battle: defender SR vs attacker C moves the
    short hand 2 toward the attacker; fire vs none even, human vs demon toward
    the attacker, medium vs medium even, magic vs defence toward the defender;
    the long hand (centre) is nearer the defender than the short hand: success."""
    b = battle(SEED_DEFENDER, SEED_ATTACKER)
    assert b.short_hand == -2
    assert [(s["key"], s["winner"], s["long_hand"]) for s in b.steps] == [
        ("attribute", "even", 0), ("race", "attacker", -1), ("size", "even", -1), ("means", "defender", 0)]
    assert b.long_hand == 0 and b.score == 2 and b.result == "success"
    text = b.explain()
    for piece in ("short hand (短針)", "long hand (長針)", "属性", "種族", "サイズ", "手段",
                  "防衛成功", "2 toward the attacker"):
        assert piece in text, piece


def test_seed_affinity_examples():
    """MC-17: none vs fire is even; demon beats human; magic beats defence; medium vs medium even."""
    t = mc.load_affinity()
    assert t.compare("attribute", "fire", "none") == t.compare("attribute", "none", "fire") == 0
    assert t.compare("race", "demon", "human") == 1 and t.compare("race", "human", "demon") == -1
    assert t.compare("means", "magic", "defence") == 1 and t.compare("means", "defence", "magic") == -1
    assert t.compare("size", "medium", "medium") == 0


def test_seed_c_needs_three_advantages_against_sr():
    """MC-16, MC-2: C against SR starts 2 behind; with 2 affinity wins it is a draw, with 3 it wins."""
    sr = Card("sr", "SR", 1, "none", "human", "medium", "melee")
    two = Card("two", "C", 1, "none", "demon", "large", "melee")  # demon > human, large > medium
    assert battle(two, sr).result == "draw" and battle(two, sr).score == 0
    three = Card("three", "C", 1, "none", "demon", "large", "defence")  # defence beats melee
    b = battle(three, sr)
    assert b.long_hand == 3 and b.short_hand == 2 and b.result == "success"
    # and the same card attacking the SR: the SR defender has 2 + (−3) = −1: failure
    assert battle(sr, three).result == "failure"


# -- decks, cards, costs (MC-1 … MC-6) -------------------------------------------------
def test_players_option_2_to_8():
    """MC-1: 2 to 8 players; other numbers are refused with what is accepted."""
    for n in range(2, 9):
        g = cardlab.load("monster_cards", players=n)
        assert g.spec.num_players == n
        assert g.new_initial_state(seed=n).current_player == 0
    for bad in (1, 9, "3", True):
        with pytest.raises(cardlab.OptionError, match="whole number from 2 to 8"):
            cardlab.load("monster_cards", players=bad)


def test_deck_size_and_cost_rules_and_options():
    """MC-1: exactly 20 cards and total cost at most 200, both table options;
    errors name the deck, the card and the rule."""
    ember = mc.ready_deck("ember")
    mc.validate_deck(ember)
    with pytest.raises(mc.DeckError, match=r"'ember': 19 cards; MC-1 asks for exactly 20 \(table option deck_size"):
        mc.validate_deck(mc.Deck("ember", ember.cards[:19]))
    cost = ember.cost()
    with pytest.raises(mc.DeckError, match=rf"total cost {cost} is over 150 \(MC-1.*max_cost=150.*at card '"):
        mc.validate_deck(ember, max_cost=150)
    mc.validate_deck(ember, max_cost=cost)  # exactly the limit is allowed (以内)
    with pytest.raises(mc.DeckError, match="over 150"):
        cardlab.load("monster_cards", max_cost=150)
    small = {"name": "small", "cards": [{**lab("c_plain", "C"), "count": 4}]}
    g = cardlab.load("monster_cards", decks=[small], deck_size=4)
    assert len(g.deck_ids[0]) == 4
    with pytest.raises(mc.DeckError, match="4 cards; MC-1 asks for exactly 20"):
        cardlab.load("monster_cards", decks=[small])


def test_two_ready_decks_are_legal_and_original():
    """MC-1, MC-Q3: the two ready decks have 20 cards, cost ≤ 200, and use every skill."""
    used = set()
    for name in mc.READY_DECKS:
        d = mc.validate_deck(mc.ready_deck(name))
        assert len(d.cards) == 20 and d.cost() <= 200
        used |= {c.skill for c in d.cards if c.skill}
    assert used == set(SKILLS)
    with pytest.raises(mc.DeckError, match="no ready deck 'fire'; the ready decks are ember, tide"):
        mc.ready_deck("fire")


def test_rarity_points():
    """MC-2: C, R, SR, UR give 1-4 points: the short hand moves by the difference."""
    for d in mc.RARITIES:
        for a in mc.RARITIES:
            b = battle(card(f"{d.lower()}_plain"), card(f"{a.lower()}_plain"))
            assert b.short_hand == mc.RARITY_POINTS[a] - mc.RARITY_POINTS[d]
            pd, pa = mc.RARITY_POINTS[d], mc.RARITY_POINTS[a]
            assert b.result == ("success" if pd > pa else "failure" if pd < pa else "draw")


def test_attack_power_is_damage_and_does_not_decide_battles():
    """MC-3: a failed defence moves attack-power cards from the deck top to the graveyard;
    attack power does not change who wins."""
    assert battle(card("c_plain"), card("weak_plain")).result == battle(card("c_plain"), card("strong_plain")).result
    g = lab_game()
    s = pos(g, [P(["c_plain", "r_plain"], ["c_plain", "sr_plain"] * 4), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "strong_plain"))
    assert s.battle("defend c_plain").result == "draw" and s.battle("defend c_plain").damage == 5
    s = pos(g, [P(["c_plain", "r_plain"], ["c_plain", "sr_plain"] * 4), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "sr_plain"))
    t = s.apply("defend c_plain")  # C vs SR: failure, 2 damage
    assert t.current_player == CHANCE and t.to_dict()["pending"] == {"target": 0, "damage": 2, "then": "end"}
    t = t.apply("mill sr_plain").apply("mill c_plain")
    assert zones(t, 0)["graveyard"] == ["sr_plain", "c_plain"]
    assert len(zones(t, 0)["deck"]) == 6 and t.turn == 1


def test_skill_levels_sp_and_ult():
    """MC-4: a skill on an SR card is its SP form, on a UR card its ULT form."""
    for s in SKILLS.values():
        assert [card(f"{s.id}_{r}").amount for r in ("c", "sr", "ur")] == list(s.amount)
        assert "SP" in s.describe(2) and "ULT" in s.describe(3)
    assert card("fury_sr").level == 2 and card("fury_ur").level == 3 and Card("x", "R", 1, **NEUTRAL).level == 1
    cats = [s.category for s in SKILLS.values()]
    assert all(cats.count(c) >= 3 for c in mc.CATEGORIES)


def test_comparison_order():
    """MC-5: the long hand compares attribute, race, size, means, in that order."""
    b = battle(card("c_plain"), card("c_plain"))
    assert [s["key"] for s in b.steps] == list(mc.KEYS)
    t = mc.load_affinity()
    assert len(t.values["attribute"]) == 6 and len(t.values["race"]) == 10
    assert len(t.values["size"]) == 3 and len(t.values["means"]) == 5
    assert t.japanese["race"]["spirit"] == "精霊" and t.japanese["means"]["ranged"] == "遠距離"


def test_cost_formula_from_data():
    """MC-6, MC-Q2: cost = rarity + attack + skill category, from the data table."""
    costs = mc.load_costs()
    c = Card("x", "SR", 4, **NEUTRAL, skill="ambush")
    assert c.cost() == costs["rarity"]["SR"] + costs["attack"]["4"] + costs["skill"]["discard"] == 13
    assert Card("y", "C", 1, **NEUTRAL).cost() == 3
    mine = {"rarity": {"C": 1, "R": 1, "SR": 1, "UR": 1}, "attack": {str(a): 0 for a in range(1, 6)},
            "skill": {"none": 0, "standard": 5, "discard": 5, "gamechanger": 5}}
    assert c.cost(mc.load_costs(mine)) == 6
    g = cardlab.load("monster_cards", costs=mine, max_cost=200)
    assert g.costs["rarity"]["UR"] == 1
    # an average card costs about 10, so an average 20-card deck about 200
    assert Card("avg", "R", 3, **NEUTRAL, skill="mend").cost() in range(8, 12)
    with pytest.raises(cardlab.CardFileError, match="field 'attack', entry '5'"):
        mc.load_costs({**mine, "attack": {"1": 0, "2": 0, "3": 0, "4": 0}})


def test_card_builder_errors_name_card_and_field():
    """MC-2, MC-3, MC-5, MC-Q3: the card builder refuses bad fields, naming card and field."""
    ok = dict(name="imp", rarity="C", attack=2, **NEUTRAL)
    for field, bad, msg in (("rarity", "SSR", "one of C, R, SR, UR"), ("attack", 6, "1 to 5"),
                            ("attack", True, "1 to 5"), ("race", "elf", "human"),
                            ("skill", "laser", "one of mend"), ("name", "Big Imp", "lower-case")):
        with pytest.raises(mc.CardError, match=rf"field '{field}': .*{msg}"):
            Card(**{**ok, field: bad})
    assert Card(**{**ok, "attribute": "水", "means": "魔法"}).attribute == "water"


def test_card_file_errors_name_file_card_field(tmp_path):
    """MC-Q3: card files are validated: CardFileError names the file, the card and the field."""
    path = tmp_path / "mine.json"
    cards = [lab("good", "C"), lab("bad_one", "C", attack=9)]
    path.write_text(json.dumps({"name": "mine", "cards": cards}))
    with pytest.raises(cardlab.CardFileError, match=r"mine\.json: card 'bad_one', field 'attack'"):
        mc.load_deck(path)
    path.write_text(json.dumps({"name": "mine", "cards": [{**lab("good", "C"), "count": 0}]}))
    with pytest.raises(cardlab.CardFileError, match=r"mine\.json: card 'good', field 'count'"):
        mc.load_deck(path)
    path.write_text(json.dumps({"name": "mine", "cards": [{**lab("good", "C"), "colour": 1}]}))
    with pytest.raises(cardlab.CardFileError, match=r"card 'good', field 'colour': unknown field"):
        mc.load_deck(path)
    path.write_text("{not json")
    with pytest.raises(cardlab.CardFileError, match=r"mine\.json: not valid JSON"):
        mc.load_deck(path)
    with pytest.raises(cardlab.CardFileError, match="cannot read"):
        mc.load_deck(tmp_path / "missing.json")
    path.write_text(json.dumps({"name": "mine", "cards": [{**lab("good", "C"), "count": 20}]}))
    g = cardlab.load("monster_cards", decks=[str(path), "tide"])
    assert g.decks[0].name == "mine" and g.decks[1].name == "tide"
    clash = {"name": "clash", "cards": [{**lab("reef_crab", "R"), "count": 20}]}
    with pytest.raises(mc.DeckError, match="card 'reef_crab' is defined differently"):
        cardlab.load("monster_cards", decks=[clash, "tide"])


# -- zones and the turn (MC-7 … MC-13) --------------------------------------------------
def test_shared_zones_and_ruins():
    """MC-7: one attack card, one GameChanger, the defence card only during the battle;
    cards after battle go to the ruins for good."""
    g = lab_game()
    s = pos(g, [P(["ur_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "r_plain"), gc=(1, "leveller_c"))
    t = s.apply("defend ur_plain")
    d = t.to_dict()
    assert d["attack"] == {"owner": 0, "card": "ur_plain"} and d["gamechanger"]["card"] == "leveller_c"
    assert gone(s, t, 1) == ["r_plain"] and t.observation(0)["players"][1]["ruins"] == t.ruins(1)
    assert "defence" not in d  # the defence zone holds a card only while a battle resolves


def test_hidden_zones_and_graveyard_not_ruins():
    """MC-8: hand, deck and graveyard are hidden from the others; only counts show;
    the graveyard is not the ruins."""
    g = cardlab.load("monster_cards")
    s = pos(g, [P(["ash_hound", "ember_imp"], ["ember_imp", "shade_bat"], grave=["magma_wyrm"]),
                P(["reef_crab"] * 2, ["kelp_sprite", "leviathan"], grave=["storm_eel"])], attack=(1, "tide_archer"))
    o = s.observation(0)
    assert o["players"][0]["hand"] == ["ash_hound", "ember_imp"] and o["players"][0]["graveyard"] == ["magma_wyrm"]
    assert o["players"][1]["hand"] == 2 and o["players"][1]["graveyard"] == 1 and o["players"][1]["deck"] == 2
    assert len(o["players"][1]["ruins"]) == 20 - 2 - 2 - 1 - 1  # hand, deck, graveyard, attacker
    assert o["players"][1]["ruins"].count("storm_eel") == 1  # of two: one in the graveyard
    assert s.information_set(0) != pos(g, [P(["ash_hound", "ember_imp"], ["ember_imp", "shade_bat"],
                                             grave=["magma_wyrm"]),
                                           P(["reef_crab"] * 3, ["kelp_sprite", "storm_eel"], grave=["leviathan"])],
                                       attack=(1, "tide_archer")).information_set(1)


def test_heal_returns_graveyard_top_to_deck_top_and_empty_graveyard_does_nothing():
    """MC-8: healing puts graveyard cards back on the deck top (the last damaged first
    to come back on top of the others), and does nothing with an empty graveyard."""
    g = lab_game()
    s = pos(g, [P(["mend_ur", "c_plain"], ["c_plain", "r_plain"], grave=["sr_plain", "ur_plain", "r_plain", "c_plain"]),
                P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "c_plain"))
    t = s.apply("defend mend_ur")  # UR against C: the defence succeeds, no damage
    assert zones(t, 0)["deck_top"] == ["ur_plain", "r_plain", "c_plain"] and zones(t, 0)["graveyard"] == ["sr_plain"]
    # damage takes the known top first, in order: healing then damage is an undo
    s2 = pos(g, [P(["c_plain"] * 2, ["c_plain", "r_plain"], top=["ur_plain", "sr_plain"]),
                 P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "ur_plain"))
    t2 = s2.apply("defend c_plain")  # fails, 2 damage from the known top, no chance needed
    assert zones(t2, 0)["graveyard"] == ["ur_plain", "sr_plain"] and zones(t2, 0)["deck_top"] == []
    s3 = pos(g, [P(["mend_ur", "c_plain"], ["c_plain", "r_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3)],
             attack=(1, "c_plain"))
    assert zones(s3.apply("defend mend_ur"), 0)["deck"] == ["c_plain", "r_plain"]


def test_draw_to_three():
    """MC-9: the turn starts by drawing until 3 cards; nothing with 3 or more."""
    g = cardlab.load("monster_cards", open_hands=True)
    s = g.new_initial_state()
    assert s.current_player == CHANCE and s.phase == "draw"
    for a in ("draw ember_imp", "draw ash_hound", "draw ember_imp"):
        assert s.current_player == CHANCE
        s = s.apply(a)
    assert s.current_player == 0 and zones(s, 0)["hand"] == ["ash_hound", "ember_imp", "ember_imp"]
    g2 = lab_game()
    # (J: a hand holds at most 2 once its owner has played, MC-11, so every turn start draws)
    s = pos(g2, [P(["c_plain"] * 2, ["c_plain"] * 3), P(["r_plain"], ["c_plain", "r_plain", "ur_plain"])],
            attack=(1, "c_plain"))
    t = s.apply("defend c_plain")
    assert t.current_player == CHANCE and [a for a, _ in t.chance_outcomes()] == [
        "draw c_plain", "draw r_plain", "draw ur_plain"]
    assert all(p == Fraction(1, 3) for _, p in t.chance_outcomes())


def test_discard_and_gamechanger_before_the_play():
    """MC-10: Discard skills and GameChangers before the mandatory play; a new
    GameChanger replaces the old one (to the ruins); a card is always kept for the play."""
    g = lab_game()
    s = pos(g, [P(["inversion_sr", "revive_c", "c_plain"], ["c_plain"] * 3, grave=["r_plain"]),
                P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "c_plain"), gc=(1, "leveller_c"))
    acts = s.legal_actions()
    assert {"gc inversion_sr", "discard revive_c"} <= set(acts)
    t = s.apply("gc inversion_sr")
    assert t.current_player == 0 and t.to_dict()["gamechanger"] == {"owner": 0, "card": "inversion_sr"}
    assert gone(s, t, 1) == ["leveller_c"]
    t = t.apply("discard revive_c")
    assert zones(t, 0)["deck_top"] == ["r_plain"] and t.current_player == 0
    assert t.legal_actions() == ["defend c_plain", "attack c_plain"]  # the last card is for the play
    t = until_decision(t.apply("attack c_plain"))
    assert t.turn == 1
    lone = pos(g, [P(["revive_c"], ["c_plain"] * 3, grave=["r_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3)])
    assert lone.legal_actions() == ["defend revive_c"]  # the last card must be played (MC-11)


def test_play_to_defence_or_attack_zone():
    """MC-11: a defence-zone card fights the attacker, or moves to an empty attack zone;
    an attack-zone card takes the attacker's attack and pushes it away (to the ruins, MC-Q5)."""
    g = lab_game()
    players = [P(["r_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)]
    s = pos(g, players)
    assert s.legal_actions() == ["defend c_plain", "defend r_plain"]  # attack zone empty
    t = s.apply("defend r_plain")
    assert t.to_dict()["attack"] == {"owner": 0, "card": "r_plain"} and gone(s, t, 0) == []
    s = pos(g, players, attack=(1, "ur_plain"))
    t = s.apply("attack c_plain")
    assert t.to_dict()["attack"] == {"owner": 0, "card": "c_plain"} and gone(s, t, 1) == ["ur_plain"]
    assert t.to_dict()["pending"] == {"target": 0, "damage": 2, "then": "end"}
    assert "pushing ur_plain to the ruins (MC-Q5)" in s.explain("attack c_plain")


def test_playing_ends_the_turn():
    """MC-12: after the one play (and its battle) the next player's turn begins."""
    g = lab_game()
    s = pos(g, [P(["ur_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "r_plain"))
    for a in s.legal_actions():
        t = until_decision(s.apply(a))
        assert t.turn == 1 and t.current_player == 1


def test_attacker_attacks_the_turn_player():
    """MC-13: the attack-zone card attacks whoever's turn it is: the damage of a failed
    defence always goes to the turn player, whoever owns the attacker."""
    g = lab_game(players=3)
    for turn in (0, 2):
        players = [P(["c_plain", "c_plain"], ["c_plain", "r_plain"] * 2) for _ in range(3)]
        s = pos(g, players, turn=turn, attack=(1, "ur_plain"))
        t = s.apply("defend c_plain")
        assert t.to_dict()["pending"]["target"] == turn


# -- the battle (MC-14 … MC-18) --------------------------------------------------------
def test_short_hand_moves_to_the_disadvantaged_side():
    """MC-14: the short hand moves by the rarity difference toward the weaker side."""
    assert battle(card("sr_plain"), card("c_plain")).short_hand == -2
    assert battle(card("c_plain"), card("ur_plain")).short_hand == 3
    assert battle(card("r_plain"), card("r_plain")).short_hand == 0


def test_long_hand_one_mark_per_comparison():
    """MC-15: each comparison moves the long hand one mark to the side with the advantage."""
    d = Card("d", "C", 1, "water", "demon", "small", "magic")
    a = Card("a", "C", 1, "fire", "human", "large", "defence")
    b = battle(d, a)
    assert [s["long_hand"] for s in b.steps] == [1, 2, 3, 4] and b.result == "success"
    b = battle(a, d)
    assert [s["long_hand"] for s in b.steps] == [-1, -2, -3, -4] and b.result == "failure"


def test_result_by_the_two_hands():
    """MC-16: long hand nearer the defender: success; nearer the attacker: failure; same mark: draw."""
    for d, a, res in (("r_plain", "c_plain", "success"), ("c_plain", "r_plain", "failure"),
                      ("sr_plain", "sr_plain", "draw")):
        b = battle(card(d), card(a))
        assert b.result == res
        assert (b.long_hand > b.short_hand, b.long_hand < b.short_hand) == (res == "success", res == "failure")
        assert b.score == (mc.RARITY_POINTS[b.defender_rarity] - mc.RARITY_POINTS[b.attacker_rarity]
                           + sum({"defender": 1, "attacker": -1, "even": 0}[s["winner"]] for s in b.steps))


def test_success_and_failure():
    """MC-18: a successful defender becomes the attacker; a failed defender goes to the
    ruins and its player takes the attack power in damage."""
    g = lab_game()
    s = pos(g, [P(["ur_plain", "c_plain"], ["c_plain", "r_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "sr_plain"))
    t = s.apply("defend ur_plain")
    assert t.to_dict()["attack"] == {"owner": 0, "card": "ur_plain"} and gone(s, t, 1) == ["sr_plain"]
    t = s.apply("defend c_plain")
    assert t.to_dict()["attack"] == {"owner": 1, "card": "sr_plain"} and gone(s, t, 0) == ["c_plain"]
    assert t.to_dict()["pending"] == {"target": 0, "damage": 2, "then": "end"}
    assert "defence fails, player 0 takes 2 damage (MC-18, MC-3)" in s.explain("defend c_plain")
    assert "short hand (短針) +2" in s.explain("defend c_plain")


def test_battle_explanation_structure_and_text():
    """MC-14, MC-15, MC-16: every battle is explained: the short hand, the four comparisons
    with the long hand after each, the result, structured and as text."""
    g = cardlab.load("monster_cards", open_hands=True)
    s = pos(g, [P(["infernal_lord", "ember_imp"], ["ember_imp", "shade_bat"]),
                P(["reef_crab"] * 3, ["kelp_sprite", "leviathan"])], attack=(1, "tide_archer"))
    b = s.battle("defend infernal_lord")
    d = b.to_dict()
    assert d["defender"] == "infernal_lord" and d["attacker"] == "tide_archer" and d["short_hand"] == -2
    assert [x["key"] for x in d["steps"]] == list(mc.KEYS)
    # fire vs water: water wins; demon vs human: demon wins; large vs medium: large wins; magic vs ranged: ranged
    assert [x["winner"] for x in d["steps"]] == ["attacker", "defender", "defender", "attacker"]
    assert d["skill_marks"] == 3  # infernal_lord: Bulwark ULT
    assert d["long_hand"] == 3 and d["result"] == "success"
    json.dumps(d)
    text = b.explain()
    assert text.count("MC-15") == 4 and "Bulwark (堅守) ULT" in text and "防衛成功" in text
    assert s.battle("attack ember_imp") is None


def test_elimination_and_last_player_standing():
    """MC-19: a deck at 0 puts the player out; the last player with a deck wins (1, others −1/(n−1))."""
    g = lab_game()
    s = pos(g, [P(["c_plain", "c_plain"], ["c_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "ur_plain"))
    t = s.apply("defend c_plain")
    assert t.is_terminal() and t.winner() == 1 and t.returns() == [-1, 1]
    assert "game over: player 1 wins (MC-19)" in str(t)
    g3 = lab_game(players=3)
    s = pos(g3, [P(["c_plain", "c_plain"], ["c_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3, out=False),
                 P(out=True)], attack=(1, "ur_plain"))
    t = s.apply("defend c_plain")
    assert t.returns() == [Fraction(-1, 2), 1, Fraction(-1, 2)] and sum(t.returns()) == 0
    assert g3.spec.min_utility == Fraction(-1, 2) and g3.spec.max_utility == 1 and g3.spec.zero_sum


def test_ruins_of_a_player_who_is_out_stay():
    """MC-19, MC-7: a player who is out takes hand, deck and graveyard out of
    the game face down; their ruins stay as everybody saw them.  A saved
    position keeps those cards as ``gone`` (a hand-written one without it has
    none of that player's cards in the ruins)."""
    g = lab_game(players=3, open_hands=False)
    s = pos(g, [P(["c_plain", "r_plain"], ["sr_plain"], grave=["ur_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3),
                P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "fury_ur"))
    t = s.apply("defend c_plain")  # fails: out, the other two play on
    assert t.turn == 1 and t.observation(2)["players"][0]["out"]
    assert gone(s, t, 0) == ["c_plain"] and t.observation(2)["players"][0]["ruins"] == t.ruins(0)
    d = t.to_dict()["players"][0]
    assert (d["hand"], d["deck"], d["graveyard"]) == ([], [], [])
    assert d["gone"] == ["r_plain", "sr_plain", "ur_plain"]  # sorted: a multiset
    assert g.state_from_dict(t.to_dict()) == t and "gone" not in t.to_dict()["players"][1]
    written = pos(g, [P(out=True), P(["c_plain"] * 3, ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
                  turn=1, attack=(1, "fury_ur"))
    assert written.ruins(0) == []
    with pytest.raises(cardlab.PositionError, match=r"players\[1\]\.gone: only a player who is out"):
        g.state_from_dict({**written.to_dict(), "players": [d, {**P(["c_plain"] * 3, ["c_plain"] * 3), "gone": []},
                                                            P(["c_plain"] * 3, ["c_plain"] * 3)]})


# -- the skills (MC-4, MC-Q3): every skill in its three forms ---------------------------------
@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 3)])
def test_skill_mend(rarity, n):
    """MC-Q3 Mend (癒し, Standard): when played, heal n (1 / SP 2 / ULT 3)."""
    g = lab_game()
    grave = ["c_plain", "r_plain", "sr_plain", "ur_plain"]
    for owner, a in ((0, f"attack mend_{rarity}"), (1, f"defend mend_{rarity}")):
        # replacing one's own attacker costs no damage (MC-Q6); C against C is a draw
        s = pos(g, [P([f"mend_{rarity}", "c_plain"], ["c_plain"] * 2, grave=grave),
                    P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(owner, "c_plain"))
        t = s.apply(a)
        assert zones(t, 0)["deck_top"] == grave[4 - n:] and zones(t, 0)["graveyard"] == grave[:4 - n]
        assert f"Mend (癒し) heals {n}: the top {n} of the graveyard" in s.explain(a)


@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 3)])
def test_skill_fury(rarity, n):
    """MC-Q3 Fury (猛攻, Standard): attack power +n while attacking (1 / SP 2 / ULT 3)."""
    b = battle(card("c_plain"), card(f"fury_{rarity}"))
    plain = battle(card("c_plain"), card(f"{rarity}_plain"))
    assert b.damage == 2 + n and b.result == plain.result
    # only while attacking: as a defender it adds nothing
    assert battle(card(f"fury_{rarity}"), card("c_plain")).damage == 2
    g = lab_game()
    s = pos(g, [P(["c_plain", "c_plain"], ["c_plain", "r_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, f"fury_{rarity}"))
    if rarity != "c":
        assert s.apply("defend c_plain").to_dict()["pending"]["damage"] == 2 + n


@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 3)])
def test_skill_bulwark(rarity, n):
    """MC-Q3 Bulwark (堅守, Standard): when defending, the long hand moves n more toward the defender."""
    b = battle(card(f"bulwark_{rarity}"), card("ur_plain"))
    plain = battle(card(f"{rarity}_plain"), card("ur_plain"))
    assert b.skill_marks == n and b.long_hand == plain.long_hand + n and b.score == plain.score + n
    assert battle(card("c_plain"), card(f"bulwark_{rarity}")).score == battle(card("c_plain"), card(f"{rarity}_plain")).score


@pytest.mark.parametrize("rarity,n", [("c", 2), ("sr", 3), ("ur", 4)])
def test_skill_revive(rarity, n):
    """MC-Q3 Revive (再起, Discard): heal n (2 / SP 3 / ULT 4); MC-Q10: with an empty graveyard
    it may still be used and heals nothing (MC-8)."""
    g = lab_game()
    grave = ["c_plain", "r_plain", "sr_plain", "ur_plain", "weak_plain"]
    s = pos(g, [P([f"revive_{rarity}", "c_plain"], ["c_plain"] * 2, grave=grave), P(["c_plain"] * 3, ["c_plain"] * 3)])
    t = s.apply(f"discard revive_{rarity}")
    assert zones(t, 0)["deck_top"] == grave[5 - n:] and gone(s, t, 0) == [f"revive_{rarity}"]
    s = pos(g, [P([f"revive_{rarity}", "c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)])
    t = s.apply(f"discard revive_{rarity}")
    assert zones(t, 0)["deck"] == ["c_plain"] * 2 and zones(t, 0)["deck_top"] == [] and t.current_player == 0
    assert gone(s, t, 0) == [f"revive_{rarity}"] and "heals nothing" in s.explain(f"discard revive_{rarity}")


@pytest.mark.parametrize("rarity,cap", [("c", "C"), ("sr", "R"), ("ur", "SR")])
def test_skill_banish(rarity, cap):
    """MC-Q3 Banish (追放, Discard): the attack-zone card goes to the ruins if its rarity is
    at most C / SP R / ULT SR; MC-Q10: against a rarer card it may be used and does nothing."""
    g = lab_game()
    nxt = mc.RARITIES[mc.RARITIES.index(cap) + 1]
    for target, works in ((cap, True), (nxt, False)):
        s = pos(g, [P([f"banish_{rarity}", "c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)],
                attack=(1, f"{target.lower()}_plain"))
        t = s.apply(f"discard banish_{rarity}")
        assert t.current_player == 0 and gone(s, t, 0) == [f"banish_{rarity}"]
        assert (t.to_dict()["attack"] is None) == works
        assert ("nothing happens" in s.explain(f"discard banish_{rarity}")) == (not works)


@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 3)])
def test_skill_ambush(rarity, n):
    """MC-Q3 Ambush (奇襲, Discard): the attack-zone card's owner takes n damage (1 / SP 2 / ULT 3);
    MC-Q10: used against one's own attacker it does nothing."""
    g = lab_game()
    s = pos(g, [P([f"ambush_{rarity}", "c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain", "r_plain"] * 3)],
            attack=(1, "c_plain"))
    t = s.apply(f"discard ambush_{rarity}")
    assert t.to_dict()["pending"] == {"target": 1, "damage": n, "then": "action"}
    for _ in range(n):
        t = t.apply("mill r_plain")
    assert t.current_player == 0 and zones(t, 1)["graveyard"] == ["r_plain"] * n
    own = pos(g, [P([f"ambush_{rarity}", "c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)],
              attack=(0, "r_plain"))
    t = own.apply(f"discard ambush_{rarity}")  # MC-Q10: allowed, never hurts yourself
    assert t.current_player == 0 and t.to_dict()["pending"] is None and zones(t, 0)["graveyard"] == []
    assert "nothing happens: the attacker is their own" in own.explain(f"discard ambush_{rarity}")
    lethal = pos(g, [P([f"ambush_{rarity}", "c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * n)],
                 attack=(1, "c_plain"))
    assert lethal.apply(f"discard ambush_{rarity}").winner() == 0  # MC-19: out at once


@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 3)])
def test_skill_bloodlust(rarity, n):
    """MC-Q3 Bloodlust (血の渇き, GameChanger): every attack power +n, only from the GameChanger zone."""
    gc = card(f"bloodlust_{rarity}")
    assert battle(card("c_plain"), card("ur_plain"), gamechanger=gc).damage == 2 + n
    assert battle(card("c_plain"), gc).damage == 2  # attacking itself it is a plain card


@pytest.mark.parametrize("rarity,n", [("c", 1), ("sr", 2), ("ur", 4)])
def test_skill_inversion(rarity, n):
    """MC-Q3 Inversion (反転, GameChanger): the first n comparisons are reversed (1 / SP 2 / ULT all 4)."""
    d = Card("d", "C", 1, "water", "demon", "small", "magic")
    a = Card("a", "C", 1, "fire", "human", "large", "defence")
    b = battle(d, a, gamechanger=card(f"inversion_{rarity}"))
    assert [s["reversed"] for s in b.steps] == [i < n for i in range(4)]
    assert b.long_hand == (4 - n) - n
    assert "reversed by a GameChanger" in b.explain()


@pytest.mark.parametrize("rarity,cap", [("c", 2), ("sr", 1), ("ur", 0)])
def test_skill_leveller(rarity, cap):
    """MC-Q3 Leveller (均衡, GameChanger): the rarity difference counts at most 2 / SP 1 / ULT 0."""
    gc = card(f"leveller_{rarity}")
    assert battle(card("ur_plain"), card("c_plain"), gamechanger=gc).short_hand == -cap
    assert battle(card("c_plain"), card("ur_plain"), gamechanger=gc).short_hand == cap
    assert battle(card("r_plain"), card("c_plain"), gamechanger=gc).short_hand == -min(1, cap)


def test_gamechanger_works_only_in_its_zone_through_the_game():
    """MC-4, MC-10: a GameChanger placed in its zone changes the battles of everyone."""
    g = lab_game()
    players = [P(["c_plain", "leveller_ur"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)]
    s = pos(g, players, attack=(1, "ur_plain"))
    assert "fails" in s.explain("defend c_plain")
    assert "draw" in s.explain("defend leveller_ur")  # in the defence zone, no effect but rarity
    t = pos(g, [P(["c_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "ur_plain"), gc=(1, "leveller_ur"))
    assert "draw" in t.explain("defend c_plain")


# -- the silent places (MC-Q1 … MC-Q8) -------------------------------------------------
def test_affinity_tables_are_data_and_checked(tmp_path):
    """MC-Q1: default tables antisymmetric and as described; a user's own tables load; a table
    that is not antisymmetric or misses a pair is refused with the pair named."""
    t = mc.load_affinity()
    for key in mc.KEYS:
        for a in t.values[key]:
            assert t.compare(key, a, a) == 0
            for b in t.values[key]:
                assert t.compare(key, a, b) == -t.compare(key, b, a)
    at = lambda a, b: t.compare("attribute", a, b)  # noqa: E731
    assert at("fire", "wood") == at("wood", "water") == at("water", "fire") == at("light", "dark") == 1
    assert all(at("none", x) == 0 for x in t.values["attribute"])
    assert [sum(t.compare("means", a, b) == 1 for b in t.values["means"]) for a in t.values["means"]] == [2] * 5
    assert sorted(sum(t.compare("size", a, b) == 1 for b in t.values["size"]) for a in t.values["size"]) == [1, 1, 1]
    raw = json.loads((mc.resources.files("cardlab.data") / "monster_cards_affinity.json").read_text("utf-8"))
    raw["keys"]["size"]["table"]["small"]["large"] = "="  # large beats small? no longer even both ways
    with pytest.raises(mc.AffinityError, match=r"key 'size': the pair \('small', 'large'\) is not antisymmetric"):
        mc.load_affinity(raw)
    raw = json.loads((mc.resources.files("cardlab.data") / "monster_cards_affinity.json").read_text("utf-8"))
    del raw["keys"]["race"]["table"]["ghost"]["dragon"]
    path = tmp_path / "aff.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(cardlab.CardFileError, match=r"aff\.json: key 'race': the pair \('ghost', 'dragon'\) is missing"):
        cardlab.load("monster_cards", affinity=str(path))
    raw = json.loads((mc.resources.files("cardlab.data") / "monster_cards_affinity.json").read_text("utf-8"))
    raw["keys"]["attribute"]["table"]["none"]["fire"] = "+"
    raw["keys"]["attribute"]["table"]["fire"]["none"] = "-"
    g = cardlab.load("monster_cards", affinity=raw)
    assert g.affinity.compare("attribute", "none", "fire") == 1
    assert g.battle_result(g.card_id["ember_imp"], g.card_id["reef_crab"], -1) == \
        (battle(g.card("ember_imp"), g.card("reef_crab"), affinity=g.affinity).result, 2)


def test_cost_formula_is_data():
    """MC-Q2: the cost table is data, loadable from the user's own file, checked."""
    with pytest.raises(cardlab.CardFileError, match=r"field 'rarity'"):
        cardlab.load("monster_cards", costs={"attack": {}, "skill": {}})
    costs = mc.load_costs()
    avg = [Card("a", r, a, **NEUTRAL, skill=s).cost() for r in ("R",) for a in (2, 3) for s in ("mend", None)]
    assert 6 <= sum(avg) / len(avg) <= 12 and costs["skill"]["gamechanger"] > costs["skill"]["none"]


def test_skill_library_texts():
    """MC-Q3: the library: original skills with Japanese names and SP/ULT texts, offered by the builder."""
    for s in SKILLS.values():
        for level in (1, 2, 3):
            assert str(s.amount[level - 1]) in s.describe(level) and s.japanese in s.describe(level)
    assert "Fury (猛攻) ULT" in str(card("fury_ur"))


@pytest.mark.parametrize("on_draw", ["both_to_ruins", "attacker_stays"])
def test_draw_option(on_draw):
    """MC-Q4: a drawn battle: no damage; both cards to the ruins (default) or the attacker stays."""
    g = lab_game(on_draw=on_draw)
    s = pos(g, [P(["sr_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "sr_plain"))
    t = s.apply("defend sr_plain")
    assert t.to_dict()["pending"] is None and zones(t, 0)["graveyard"] == []
    assert gone(s, t, 0) == ["sr_plain"]
    if on_draw == "both_to_ruins":
        assert t.to_dict()["attack"] is None and gone(s, t, 1) == ["sr_plain"]
    else:
        assert t.to_dict()["attack"] == {"owner": 1, "card": "sr_plain"} and gone(s, t, 1) == []


def test_cards_after_battle_go_to_the_ruins():
    """MC-Q5: a beaten attacker, a failed defender and a pushed-away card go to the ruins for good."""
    g = lab_game()
    s = pos(g, [P(["ur_plain", "c_plain", "r_plain"], ["c_plain"] * 5), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "sr_plain"))
    assert gone(s, s.apply("defend ur_plain"), 1) == ["sr_plain"]
    assert gone(s, s.apply("defend c_plain"), 0) == ["c_plain"]
    assert gone(s, s.apply("attack r_plain"), 1) == ["sr_plain"]


@pytest.mark.parametrize("rule", ["no_attack", "attacks"])
def test_own_attacker_option(rule):
    """MC-Q6: the turn player's own attacker: by default it does not attack its owner and a
    defence-zone play goes to the ruins; with 'attacks' a normal battle follows."""
    g = lab_game(own_attacker=rule)
    s = pos(g, [P(["c_plain", "r_plain"], ["c_plain", "r_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(0, "ur_plain"))
    assert "attack c_plain" in s.legal_actions() and "defend c_plain" in s.legal_actions()
    t = s.apply("defend c_plain")
    if rule == "no_attack":
        assert t.to_dict()["attack"] == {"owner": 0, "card": "ur_plain"} and gone(s, t, 0) == ["c_plain"]
        assert t.to_dict()["pending"] is None and "(MC-Q6)" in s.explain("defend c_plain")
    else:
        assert t.to_dict()["pending"] == {"target": 0, "damage": 2, "then": "end"}
    assert gone(s, s.apply("attack r_plain"), 0) == ["ur_plain"]


@pytest.mark.parametrize("by_drawing", [True, False])
def test_running_out_by_drawing(by_drawing):
    """MC-Q7: by default drawing the last card puts the player out at once; with
    out_by_drawing=False only damage (or a turn with nothing to play) does."""
    g = lab_game(out_by_drawing=by_drawing)
    s = pos(g, [P(["c_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"], ["c_plain"])], attack=(1, "c_plain"))
    t = s.apply("defend c_plain")  # C vs C: a draw; then player 1 draws the last card
    if by_drawing:
        assert t.is_terminal() and t.winner() == 0
    else:
        assert t.current_player == 1 and zones(t, 1)["hand"] == ["c_plain"] * 2 and zones(t, 1)["deck"] == []
        u = until_decision(t.apply("defend c_plain"))  # to the empty attack zone; player 0 draws 2
        assert u.current_player == 0 and len(zones(u, 0)["hand"]) == 3
        v = u.apply("defend c_plain")  # player 0: C vs C, a draw; player 1 plays on with an empty deck
        assert v.current_player == 1 and zones(v, 1)["hand"] == ["c_plain"]
        w = v.apply("defend c_plain")
        assert w.current_player == 0  # the whole deck drawn at once, and player 0 is not out
        x = w.apply("defend c_plain")
        assert x.is_terminal() and x.winner() == 0  # player 1 starts a turn with nothing: out
    if by_drawing:
        with pytest.raises(cardlab.PositionError, match="empty deck but is not out"):
            pos(g, [P(["c_plain"], []), P(["c_plain"], ["r_plain"])])
    else:
        assert pos(g, [P(["c_plain"], []), P(["c_plain"], ["r_plain"])]).current_player == 0


def test_turn_order_skips_players_who_are_out():
    """MC-Q8: seat order, skipping players who are out; max-n solving for three or more."""
    g = lab_game(players=4)
    s = pos(g, [P(["c_plain"] * 3, ["c_plain"] * 3), P(out=True), P(out=True), P(["c_plain"] * 3, ["c_plain"] * 3)],
            turn=3, attack=(1, "r_plain"))
    t = until_decision(s.apply("attack c_plain"))  # the attack taken (MC-11), then the next seat
    assert t.turn == 0
    s = pos(g, [P(["c_plain"] * 3, ["c_plain"] * 3), P(out=True), P(["c_plain"] * 3, ["c_plain"] * 3),
                P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "r_plain"))
    assert until_decision(s.apply("attack c_plain")).turn == 2


def test_MC_Q9_every_ready_deck_card_has_a_skill(tmp_path):
    """MC-Q9: every card of the default decks has a skill of one of the seed's three
    categories, and its cost counts that category (MC-6, MC-Q2: rarity + attack + skill
    category) with each deck still within 200 (MC-1); a user's deck file may still hold a
    card without a skill, which loads and plays."""
    costs = mc.load_costs()
    for name in mc.READY_DECKS:
        deck = mc.ready_deck(name)
        assert all(c.skill in SKILLS and c.category in mc.CATEGORIES for c in deck.cards), name
        assert deck.cost() == sum(costs["rarity"][c.rarity] + costs["attack"][str(c.attack)]
                                  + costs["skill"][c.category] for c in deck.cards) <= 200
    plain = {"name": "plain_slime", "rarity": "C", "attack": 2, "attribute": "none", "race": "beast",
             "size": "small", "means": "melee", "count": 20}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"name": "plain", "cards": [plain]}), "utf-8")
    g = cardlab.load("monster_cards", decks=[str(path), "tide"])
    slime = g.card("plain_slime")
    assert slime.skill is None and slime.cost() == costs["rarity"]["C"] + costs["attack"]["2"] + costs["skill"]["none"]
    s = until_decision(g.new_initial_state(seed=1))
    assert s.legal_actions() == ["defend plain_slime"]


def test_MC_Q10_discard_skills_whenever_in_hand_even_with_nothing_to_do():
    """MC-Q10: a Discard skill may be used whenever its card is in hand (and another card
    is left for the play, MC-11); where its effect finds nothing it does nothing but send
    the card to the ruins: a revive with an empty graveyard (墓地にカードがなければ回復効果は
    発動しません), a banish or an ambush with an empty attack zone."""
    g = lab_game()
    for card_name in ("revive_c", "banish_c", "ambush_c"):  # a hand holds 3 at most (MC-9, J)
        s = pos(g, [P([card_name, "c_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)])
        assert f"discard {card_name}" in s.legal_actions()
        t = s.apply(f"discard {card_name}")
        assert t.current_player == 0 and t.to_dict()["pending"] is None and gone(s, t, 0) == [card_name]
        assert zones(t, 0)["deck"] == zones(s, 0)["deck"] and zones(t, 1) == zones(s, 1)
        assert t.to_dict()["attack"] is None
        e = s.explain(f"discard {card_name}")
        assert "(MC-4, MC-10, MC-Q10)" in e and ("heals nothing" in e or "nothing happens" in e)


def test_MC_Q10_gamechangers_without_a_limit_a_turn():
    """MC-Q10: the seed sets no limit on GameChanger plays: several may be placed in one
    turn, each replacing the one before (to the ruins, MC-10); the last card of the hand
    is kept for the mandatory play (MC-11)."""
    g = lab_game()
    s = pos(g, [P(["bloodlust_c", "inversion_sr", "c_plain"], ["c_plain"] * 3),  # 3 at most (MC-9, J)
                P(["c_plain"] * 3, ["c_plain"] * 3)], attack=(1, "ur_plain"), gc=(1, "leveller_ur"))
    t = s
    for gc in ("bloodlust_c", "inversion_sr"):
        assert f"gc {gc}" in t.legal_actions()
        u = t.apply(f"gc {gc}")
        assert u.current_player == 0 and u.to_dict()["gamechanger"] == {"owner": 0, "card": gc}
        assert gone(t, u, 0) + gone(t, u, 1) == [t.to_dict()["gamechanger"]["card"]]
        t = u
    assert t.legal_actions() == ["defend c_plain", "attack c_plain"]


def test_MC_Q10_repeated_extra_plays_terminate():
    """MC-Q10: without a limit a turn, every Discard or GameChanger play still takes a card
    out of the hand for good and nothing comes back to a hand before the next draw, so each
    turn ends: the whole game tree of a hand full of extras is finite, its longest path
    within the spec's bound, and the solver and the MCTS agent finish on it."""
    import networkx as nx

    g = lab_game()
    s = pos(g, [P(["bloodlust_c", "inversion_sr", "revive_c"], ["banish_c", "ambush_c", "c_plain"],
                  grave=["r_plain"]),  # 3 cards at most in a hand (MC-9, J)
                P(["leveller_c", "revive_sr"], ["c_plain"] * 3)], attack=(1, "r_plain"))
    G = cardlab.tree(s, max_nodes=200_000)
    assert nx.is_directed_acyclic_graph(G)
    assert nx.dag_longest_path_length(G) <= g.spec.max_game_length
    extras = 0
    for a, b, d in G.edges(data=True):
        before, after = G.nodes[a]["state"], G.nodes[b]["state"]
        verb = d["action"].split()[0]
        if verb in ("discard", "gc"):
            p = before.current_player
            assert len(zones(after, p)["hand"]) == len(zones(before, p)["hand"]) - 1 and after.turn == p
            extras += 1
    assert extras > 50
    twice = [(a, b) for a, b, d in G.edges(data=True) if d["action"].startswith("gc ")
             and any(G.edges[q, a]["action"].startswith("gc ") for q in G.predecessors(a))]
    assert twice  # two GameChangers in one turn
    assert cardlab.solve(s, progress=False).value == cardlab.minimax(s).value
    assert cardlab.agents.MCTSAgent(seed=1, iterations=200).choose(s) in s.legal_actions()


def test_MC_11_replacing_the_attacker_takes_its_attack():
    """MC-11, the seed: 「そのカードからの攻撃を受ける代わりにカードをどかして、自分のカードを
    配置します」: a card played to the attack zone pushes the attacker away (to the ruins,
    MC-Q5) in exchange for taking its attack, the attack power with Fury and a Bloodlust
    GameChanger (MC-3), as much as a failed defence costs; one's own attacker does not attack
    its owner (MC-Q6); the option replacing='free' plays the other reading (no damage)."""
    players = [P(["c_plain", "r_plain"], ["c_plain", "r_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)]
    g = lab_game()
    s = pos(g, players, attack=(1, "fury_sr"), gc=(1, "bloodlust_c"))
    t = s.apply("attack r_plain")
    assert t.to_dict()["attack"] == {"owner": 0, "card": "r_plain"} and gone(s, t, 1) == ["fury_sr"]
    assert t.to_dict()["pending"] == {"target": 0, "damage": 2 + 2 + 1, "then": "end"}
    assert s.battle("defend c_plain").damage == 5 and s.battle("defend c_plain").result == "failure"
    assert "takes the attack of fury_sr: 5 damage (MC-11" in s.explain("attack r_plain")
    u = until_decision(t)
    assert u.turn == 1 and len(zones(u, 0)["graveyard"]) == 5 and u.to_dict()["attack"]["owner"] == 0
    free = pos(lab_game(replacing="free"), players, attack=(1, "fury_sr"), gc=(1, "bloodlust_c"))
    v = free.apply("attack r_plain")
    assert v.to_dict()["pending"] is None and v.turn == 1 and "No damage" in free.explain("attack r_plain")
    own = pos(g, players, attack=(0, "fury_sr"))
    assert own.apply("attack r_plain").to_dict()["pending"] is None
    mine = pos(lab_game(own_attacker="attacks"), players, attack=(0, "fury_sr"))
    assert mine.apply("attack r_plain").to_dict()["pending"] == {"target": 0, "damage": 4, "then": "end"}
    lethal = pos(g, [P(["c_plain", "r_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)],
                 attack=(1, "fury_sr"))
    assert lethal.apply("attack r_plain").winner() == 1
    assert "Player 0 has no card left in the deck after the damage" in lethal.explain("attack r_plain")


def test_explanations_say_what_really_happens():
    """MC-8, MC-Q10: Mend says how many cards really come back, and that it heals nothing
    with an empty graveyard; MC-9, MC-Q7, MC-19: a player put out by the draw at the start
    of their turn is named, with the winner, in the line of the move that ends the game
    (also in every player's view of that move)."""
    g = lab_game()
    for grave, said in (([], "heals nothing: the graveyard (墓地) is empty"), (["r_plain"], "heals 1: the top 1"),
                        (["r_plain"] * 4, "heals 3: the top 3")):
        s = pos(g, [P(["mend_ur", "c_plain"], ["c_plain"] * 2, grave=grave), P(["c_plain"] * 3, ["c_plain"] * 3)],
                attack=(1, "c_plain"))
        assert said in s.explain("defend mend_ur")
    s = pos(g, [P(["c_plain", "c_plain"], ["c_plain"] * 3), P(["c_plain"], ["c_plain"])], attack=(1, "c_plain"))
    assert s.apply("defend c_plain").winner() == 0
    line = s.explain("defend c_plain")
    assert line.startswith("Player 0 defends with c_plain")
    assert ("Player 1 must draw the last card of their deck at the start of their turn (MC-9): a deck at 0 "
            "puts the player out (脱落) at once (MC-Q7, MC-19). Player 0 is the last player with cards and wins "
            "(MC-19).") in line
    for viewer in (0, 1, None):
        assert cardlab.render.seen_move(s, "defend c_plain", viewer).line == cardlab.render.with_rules(
            *cardlab.render.split_rules(line))
    t = s.apply("attack c_plain")  # a replacement: 2 damage first (chance), then player 1's draw
    assert "must draw the last card" not in s.explain("attack c_plain")
    t = t.apply("mill c_plain")
    assert "Player 1 must draw the last card" in t.explain("mill c_plain") and t.apply("mill c_plain").winner() == 0


# -- the protocol, notation, positions ------------------------------------------------------
def test_notation_and_bad_input():
    """MC-11: actions are 'defend X', 'attack X', 'discard X', 'gc X'; bad ones change nothing."""
    g = cardlab.load("monster_cards", open_hands=True)
    s = g.new_initial_state(seed=4)
    before = s.to_dict()
    with pytest.raises(cardlab.MalformedActionError, match="notation"):
        s.apply("play the dragon")
    with pytest.raises(cardlab.IllegalActionError, match="Legal:"):
        s.apply("defend leviathan")
    assert s.to_dict() == before
    assert all(g.ACTION_RE.fullmatch(a) for a in s.legal_actions())


def test_bad_positions_are_refused_with_the_field():
    """MC-19, MC-7: positions are validated, with the field named."""
    g = lab_game()
    good = [P(["c_plain"], ["c_plain"] * 2), P(["c_plain"] * 3, ["c_plain"] * 3)]
    with pytest.raises(cardlab.PositionError, match="not a card of this game"):
        pos(g, [P(["dragon"], ["c_plain"]), good[1]])
    with pytest.raises(cardlab.PositionError, match="holds 3 'fury_ur'; their deck has 1"):
        pos(g, [P(["fury_ur"] * 3, ["c_plain"]), good[1]])
    with pytest.raises(cardlab.PositionError, match="has no GameChanger skill"):
        pos(g, good, gc=(0, "c_plain"))
    with pytest.raises(cardlab.PositionError, match="not where play stops"):
        pos(g, [good[0], P(["c_plain"] * 2, ["c_plain"] * 2, top=["c_plain"])], phase="draw", turn=1)  # a known top
    with pytest.raises(cardlab.PositionError, match=r"at most 2 \(MC-9, MC-11\)"):  # J: a full hand before the draw
        g.state_from_dict({"phase": "draw", "turn": 1, "attack": None, "gamechanger": None, "pending": None,
                           "players": good})
    with pytest.raises(cardlab.PositionError, match="exactly one player not out"):
        pos(g, good, phase="end")
    with pytest.raises(cardlab.PositionError, match="saved with options"):
        g.state_from_dict({**pos(g, good).to_dict(), "options": {}})


def test_str_shows_the_board_with_japanese_terms():
    """MC-7, MC-8: the text board names the zones in English and Japanese."""
    s = cardlab.load("monster_cards").new_initial_state(seed=2)
    text = str(s)
    for term in ("攻撃ゾーン", "ゲームチェンジャーゾーン", "手札", "山札", "墓地", "跡地"):
        assert term in text
    assert "(MC-11)" in s.explain(s.legal_actions()[0])


def test_perft_smallest_counts_by_hand():
    """MC-9: from the root, player 0 draws from the 20-card ember deck: 10 kinds, so
    perft(1) = 10; after one draw, 8 kinds with ≥ 2 copies leave 10 kinds and the 2
    single cards leave 9: perft(2) = 8·10 + 2·9 = 98.  The data file agrees."""
    g = cardlab.load("monster_cards")
    root = g.new_initial_state()
    kinds = {}
    for c in mc.ready_deck("ember").cards:
        kinds[c.name] = kinds.get(c.name, 0) + 1
    assert len(kinds) == 10 and sorted(kinds.values()).count(1) == 2
    assert len(root.chance_outcomes()) == 10
    assert sum(len(root.apply(a).chance_outcomes()) for a, _ in root.chance_outcomes()) == 98
    entries = json.loads((PERFT_FILE).read_text("utf-8"))
    counts = {(e["name"], e["depth"]): e["count"] for e in entries}
    assert counts[("root", 1)] == 10 and counts[("root", 2)] == 98


# -- exact solving of small endgames ---------------------------------------------------------
THREE_PLAYER = {
    "phase": "action", "turn": 0, "attack": {"owner": 1, "card": "storm_eel"}, "gamechanger": None,
    "pending": None,
    "players": [P(["ash_hound", "cinder_knight"], ["magma_wyrm", "ember_imp"]),
                P(["reef_crab", "tide_archer"], ["leviathan", "kelp_sprite"]),
                P(["ember_imp", "shade_bat"], ["night_priest", "ash_hound"])],
}


def test_reference_value_worked_by_hand():
    """MC-11, MC-Q7, MC-9: 'doomed-draw' of the reference file, value 0 by hand.  Player 1
    (deck: leviathan, reef_crab) draws one of two cards against player 0's infernal_lord
    (attack 5).  Drawn reef_crab: three reef_crabs; each defence fails (5 damage, one card
    left: out) and replacing takes the same attack (MC-11): player 0 wins.  Drawn
    leviathan: it beats the lord (short hand +1, long hand +2); player 0 holds two
    ember_imps (J: at most 2 once played, MC-11) and draws a third card (ember_imp or
    ash_hound) with one left in the deck; each defence fails against the leviathan (7
    damage) and replacing takes those 7: player 1 wins.  ½·1 + ½·(−1) = 0.  With free
    replacing (the option) player 0 would push the leviathan away for nothing and
    player 1's next turn would draw the last card (MC-Q7): value 1."""
    entries = json.loads(REFERENCE_FILE.read_text("utf-8"))
    e = next(x for x in entries if x["name"] == "doomed-draw")
    g = cardlab.load("monster_cards", **e["options"])
    s = g.state_from_dict(e["position"])
    assert s.current_player == CHANCE and len(s.chance_outcomes()) == 2
    assert cardlab.solve(s, progress=False).value == Fraction(e["value"]) == 0
    assert battle(g.card("leviathan"), g.card("infernal_lord")).result == "success"
    assert battle(g.card("reef_crab"), g.card("infernal_lord")).result == "failure"
    assert battle(g.card("ember_imp"), g.card("leviathan")).damage == 7
    free = g.with_options(replacing="free")
    assert cardlab.solve(free.state_from_dict({**e["position"], "options": free.options_dict()}),
                         progress=False).value == 1


def test_solve_two_player_endgame_exactly():
    """MC-19: a small two-player endgame with open hands solves exactly, alpha-beta and plain
    expectiminimax agreeing."""
    g = cardlab.load("monster_cards", open_hands=True)
    s = g.state_from_dict(json.loads(REFERENCE_FILE.read_text("utf-8"))[0]["position"])
    t0 = time.perf_counter()
    sol = cardlab.solve(s, progress=False)
    assert time.perf_counter() - t0 < 30
    assert sol.value == cardlab.minimax(s).value and sol.method.startswith("alpha-beta")


def test_solve_three_player_endgame_with_max_n():
    """MC-Q8: three players solve with max-n (said in the result); every player's value is
    within the returns' bounds and the values sum to 0."""
    g = cardlab.load("monster_cards", players=3, open_hands=True)
    s = g.state_from_dict(THREE_PLAYER)
    sol = cardlab.solve(s, progress=False)
    assert sol.method == "max-n" and sol.nodes > 100
    assert all(Fraction(-1, 2) <= v <= 1 for v in sol.values) and sum(sol.values) == 0
    assert sol.values == (Fraction(-1, 2), Fraction(-1, 2), 1)


def test_hidden_solve_refused():
    """MC-8: with hidden hands the exact solver refuses and says how to solve."""
    s = cardlab.load("monster_cards").new_initial_state(seed=1)
    with pytest.raises(cardlab.NotSolvableError, match="open_hands=True"):
        cardlab.solve(s)


def test_redealt_positions_are_real_positions():
    """MC-8: a re-deal of the hidden cards is itself a position that saves and loads
    (where play stops depends only on public counts), and keeps every count."""
    import random

    from cardlab.core import sample_chance

    g = cardlab.load("monster_cards", players=3)
    rng = random.Random(5)
    s = g.new_initial_state()
    seen = 0
    while not s.is_terminal():
        for q in range(3):
            t = s.redeal(q, rng)
            assert g.state_from_dict(json.loads(json.dumps(t.to_dict()))) == t
            for p in range(3):
                a, b = zones(s, p), zones(t, p)
                assert [len(a[f]) for f in a if f != "out"] == [len(b[f]) for f in b if f != "out"]
            seen += t != s
        s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert seen > 0


def test_heuristic_uses_public_counts():
    """MC-19: the heuristic compares deck and hand sizes; at the end it is the result."""
    g = lab_game()
    s = pos(g, [P(["c_plain"] * 2, ["c_plain"] * 5), P(["c_plain"] * 3, ["c_plain"] * 2)], attack=(1, "r_plain"))
    assert s.heuristic(0) > 0 > s.heuristic(1)
    end = pos(g, [P(["c_plain", "c_plain"], ["c_plain"]), P(["c_plain"] * 3, ["c_plain"] * 3)],
              attack=(1, "ur_plain")).apply("defend c_plain")
    assert end.heuristic(1) == 100.0 and end.heuristic(0) == -100.0


def test_chance_events_are_explained():
    """MC-9, MC-3: draws and damage are explained with their rule."""
    g = lab_game()
    s = pos(g, [P(["c_plain", "c_plain"], ["c_plain", "r_plain"] * 3), P(["c_plain"] * 3, ["c_plain"] * 3)],
            attack=(1, "ur_plain"))
    t = s.apply("defend c_plain")
    assert "(MC-3, MC-8)" in t.explain("mill r_plain") and "1 more to go" in t.explain("mill r_plain")
    u = g.new_initial_state()
    assert "(MC-9)" in u.explain(u.chance_outcomes()[0][0])


def test_own_tables_with_new_values(tmp_path):
    """MC-Q1, MC-5: a user's own tables may bring new values (an ice attribute); the builder and
    card files check against the game's tables, and the ready decks must fit them."""
    raw = json.loads((mc.resources.files("cardlab.data") / "monster_cards_affinity.json").read_text("utf-8"))
    attr = raw["keys"]["attribute"]
    attr["values"]["ice"] = "氷"
    for v, row in attr["table"].items():
        row["ice"] = "-" if v == "fire" else "+" if v == "water" else "="
    attr["table"]["ice"] = {v: "+" if v == "fire" else "-" if v == "water" else "=" for v in attr["values"]}
    tables = mc.load_affinity(raw)
    yeti = Card("yeti", "R", 3, "氷", "beast", "large", "melee", tables=tables)
    assert yeti.attribute == "ice" and "ice (氷)" in str(yeti)
    with pytest.raises(mc.CardError, match="field 'attribute'"):
        Card("yeti", "R", 3, "ice", "beast", "large", "melee")  # not in cardlab's own tables
    fish = Card("fish", "R", 3, "water", "sea", "large", "melee", tables=tables)
    assert battle(yeti, fish, affinity=tables).steps[0]["winner"] == "attacker"
    deck = {"name": "frost", "cards": [{**{k: v for k, v in yeti.to_dict().items()}, "count": 20}]}
    g = cardlab.load("monster_cards", affinity=raw, decks=[deck, "tide"])
    assert g.card("yeti").attribute == "ice"
    with pytest.raises(cardlab.CardFileError, match="field 'attribute'"):
        cardlab.load("monster_cards", decks=[deck, "tide"])
    del raw["keys"]["race"]["values"]["ghost"]
    del raw["keys"]["race"]["table"]["ghost"]
    for row in raw["keys"]["race"]["table"].values():
        del row["ghost"]
    with pytest.raises(cardlab.CardFileError, match=r"monster_cards_decks\.json \(ember\): card 'grave_caller', field 'race'"):
        cardlab.load("monster_cards", affinity=raw)



# -- issue J: every loadable position is one the rules can reach; every bad input a clear error ----------
def one_line(exc_info, limit=300):
    text = str(exc_info.value)
    assert "\n" not in text and len(text) < limit and "malformed position" not in text, text
    return text


def test_J_owner_and_player_fields_are_whole_numbers_MC_7_MC_13():
    """J, MC-7, MC-13: ``attack.owner=0.0`` (issue J's example: accepted, then
    legal_actions()/html() raised TypeError) is refused, and so are True/False
    as owners, targets and damage, and 0/1 for a player's ``out`` (MC-19)."""
    g = lab_game()
    base = pos(g, [P(["c_plain"], ["c_plain"] * 2), P(["c_plain"] * 2, ["c_plain"] * 3)], attack=(1, "r_plain"),
               gc=(1, "bloodlust_c")).to_dict()
    for field, value, name in (("attack", {"owner": 0.0, "card": "r_plain"}, "attack"),
                               ("attack", {"owner": True, "card": "r_plain"}, "attack.owner"),
                               ("gamechanger", {"owner": True, "card": "bloodlust_c"}, "gamechanger.owner"),
                               ("attack", {"owner": 1, "card": ["r_plain"]}, "attack.card")):
        with pytest.raises(cardlab.PositionError, match=re.escape(name)) as e:
            g.state_from_dict({**base, field: value})
        one_line(e)
    for out in (0, 1, "no", None):
        players = [dict(base["players"][0]), {**base["players"][1], "out": out}]
        with pytest.raises(cardlab.PositionError, match=re.escape("players[1].out")) as e:
            g.state_from_dict({**base, "players": players})
        one_line(e)
    mill = pos(g, [P(["c_plain"], ["c_plain"] * 5), P(["c_plain"] * 2, ["c_plain"] * 3)], attack=(1, "r_plain"),
               phase="mill", pending={"target": 0, "damage": 2, "then": "end"}).to_dict()
    for pending in ({"target": False, "damage": 2, "then": "end"}, {"target": 0, "damage": True, "then": "end"}):
        with pytest.raises(cardlab.PositionError, match="pending") as e:
            g.state_from_dict({**mill, "pending": pending})
        one_line(e)


def test_J_names_and_words_are_strings_with_a_short_error_MC_7():
    """J, MC-7, MC-8: a list where a card name or the phase belongs is refused naming the
    field (not a TypeError turned into 'malformed position'); a huge value is never
    repeated in the message."""
    g = lab_game()
    base = pos(g, [P(["c_plain"], ["c_plain"] * 2), P(["c_plain"] * 2, ["c_plain"] * 3)]).to_dict()
    for bad, field in (({**base, "phase": ["action"]}, "phase"), ({**base, "phase": "x" * 10_000}, "phase"),
                       ({**base, "players": [{**base["players"][0], "hand": [["c_plain"]]}, base["players"][1]]},
                        "players[0].hand"),
                       ({**base, "players": [{**base["players"][0], "deck": ["y" * 10_000]}, base["players"][1]]},
                        "players[0].deck"),
                       ({**base, "attack": {"owner": 1, "card": "c_plain", "x" * 10_000: 1}}, "attack"),
                       ({**base, "options": {"x" * 10_000: 1}}, "options")):
        with pytest.raises(cardlab.PositionError, match=re.escape(field)) as e:
            g.state_from_dict(bad)
        one_line(e)


def test_J_pending_damage_is_what_a_move_can_leave_MC_3_MC_11_MC_18():
    """J, MC-3, MC-11, MC-18, MC-10: damage pending after a play (then 'end') falls on the turn player
    (a failed defence or a replacement) and is at most an attack's power; after an Ambush
    discard (then 'action') it falls on the attacker's owner, another player, is at most
    an Ambush's size, and the turn player still holds a card for the mandatory play (MC-11)."""
    g = lab_game()
    players = [P(["c_plain"], ["c_plain"] * 5), P(["c_plain"] * 2, ["r_plain"] * 5)]

    def mill(target, damage, then, hand0=("c_plain",), attack=(1, "r_plain")):
        ps = [{**players[0], "hand": list(hand0)}, players[1]]
        return pos(g, ps, attack=attack, phase="mill", pending={"target": target, "damage": damage, "then": then})

    assert mill(0, 2, "end").current_player == CHANCE  # a failed defence: 2 of 2 to go
    assert mill(1, 3, "action").current_player == CHANCE  # Ambush ULT: 3 to the attacker's owner
    for args, why in (((1, 2, "end"), "the turn player"), ((0, 2, "action"), "the attack-zone card's owner"),
                      ((0, 3, "end"), "at most 2"), ((1, 4, "action"), "at most 3"),
                      ((1, 2, "action", ()), "holds no card"),
                      ((0, 2, "end", ("c_plain",), None), "attack zone")):
        with pytest.raises(cardlab.PositionError, match=f"pending.*{re.escape(why)}") as e:
            mill(*args)
        one_line(e)


def test_J_the_winner_of_a_finished_game_is_the_last_player_MC_19():
    """J, MC-19: a position in the phase 'end' names as ``turn`` the one player not out; one
    naming a player who is out is refused (not quietly rewritten)."""
    g = lab_game()
    ps = [P(out=True), P(["c_plain"] * 2, ["c_plain"] * 3)]
    assert pos(g, ps, turn=1, phase="end").returns() == [-1, 1]
    with pytest.raises(cardlab.PositionError, match=r"turn.*player 1 .*MC-19") as e:
        pos(g, ps, turn=0, phase="end")
    one_line(e)


def test_J_options_of_a_saved_position_compare_as_json_MC_1():
    """J, MC-1: a game loaded with decks as a tuple saves positions that load again after a
    trip through JSON (a list); a position's options are shown short when they differ."""
    g = cardlab.load("monster_cards", decks=("ember", "tide"))
    s = g.new_initial_state(seed=1)
    assert g.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_J_card_files_type_check_every_field_MC_5_MC_Q1_MC_Q2_MC_Q3(tmp_path):
    """J, MC-5, MC-Q1, MC-Q2, MC-Q3: a list where a name belongs, an unknown field or a field of the
    wrong type in a deck, affinity or cost file is a CardFileError naming file, card and field
    (never a TypeError), in one short line."""
    card = lab("good", "C", skill="fury")
    deck = lambda **kw: {"name": "mine", "cards": [{**card, **kw, "count": 20}]}  # noqa: E731
    for bad, match in ((deck(attribute=["fire"]), "card 'good', field 'attribute'"),
                       (deck(skill=["fury"]), "card 'good', field 'skill'"),
                       (deck(skill={"a": 1}), "card 'good', field 'skill'"),
                       (deck(japanese=["x"]), "card 'good', field 'japanese'"),
                       (deck(name=["x" * 5000]), "field 'name'"),
                       ({**deck(), "name": ["x"]}, "field 'name'"),
                       ({**deck(), "japanese": 3}, "field 'japanese'"),
                       ({**deck(), "colour": "red"}, "field 'colour': unknown")):
        with pytest.raises(cardlab.CardFileError, match=re.escape(match)) as e:
            cardlab.load("monster_cards", decks=[bad, "tide"])
        one_line(e)
    raw = json.loads((mc.resources.files("cardlab.data") / "monster_cards_affinity.json").read_text("utf-8"))
    for change, match in ((lambda r: r["keys"]["size"].__setitem__("values", [["small"]]), "key 'size', field 'values'"),
                          (lambda r: r["keys"]["size"]["values"].__setitem__("small", ["小"]), "key 'size', field 'values'"),
                          (lambda r: r["keys"]["size"]["table"]["small"].__setitem__("large", ["+"]),
                           "pair ('small', 'large')"),
                          (lambda r: r["keys"]["size"].__setitem__("japanese", 5), "key 'size', field 'japanese'"),
                          (lambda r: r["keys"]["size"].__setitem__("colour", "x"), "key 'size', field 'colour': unknown"),
                          (lambda r: r.__setitem__("name", []), "field 'name'"),
                          (lambda r: r.__setitem__("colour", 1), "field 'colour': unknown")):
        r = json.loads(json.dumps(raw))
        change(r)
        with pytest.raises(mc.AffinityError, match=re.escape(match)) as e:
            cardlab.load("monster_cards", affinity=r)
        one_line(e)
    costs = json.loads((mc.resources.files("cardlab.data") / "monster_cards_costs.json").read_text("utf-8"))
    for change, match in ((lambda c: c["attack"].__setitem__("6", 0.5), "field 'attack', entry '6': unknown"),
                          (lambda c: c.__setitem__("note", 0.5), "field 'note'"),
                          (lambda c: c.__setitem__("colour", "x"), "field 'colour': unknown")):
        c = json.loads(json.dumps(costs))
        change(c)
        with pytest.raises(cardlab.CardFileError, match=re.escape(match)) as e:
            cardlab.load("monster_cards", costs=c)
        one_line(e)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(deck(race=["human"])))
    with pytest.raises(cardlab.CardFileError, match=r"mine\.json: card 'good', field 'race'"):
        cardlab.load("monster_cards", decks=[str(path), "tide"])


def test_J_counts_tell_the_past_first_draw_and_seat_order_MC_9_MC_Q8_MC_3():
    """J, MC-9, MC-Q8, MC-3: a player's cards out of the deck and graveyard were all drawn;
    none before their first turn, at least 3 once it has begun (MC-9), and nothing hurts
    a player who has not drawn (MC-3, MC-18); in the first round the players before the
    turn player have drawn and those after have not (seat order, MC-Q8).  A position
    mid-draw loads; a card taken out of a fresh deck (so into the ruins), a graveyard
    before the first draw, or a first round out of seat order is refused."""
    g = cardlab.load("monster_cards", open_hands=True)
    root = g.new_initial_state()
    middraw = root.apply(root.chance_outcomes()[0][0])
    assert g.state_from_dict(middraw.to_dict()) == middraw and len(zones(middraw, 0)["hand"]) == 1
    d = g.new_initial_state(seed=1).to_dict()
    p1 = d["players"][1]
    for players, match in (([d["players"][0], {**p1, "deck": p1["deck"][1:]}], r"players\[1\]: only 1 .*drew 3 \(MC-9\)"),
                           ([d["players"][0], {**p1, "deck": p1["deck"][1:], "graveyard": p1["deck"][:1]}],
                            r"players\[1\]: has drawn no card yet.*graveyard")):
        with pytest.raises(cardlab.PositionError, match=match) as e:
            g.state_from_dict({**d, "players": players})
        one_line(e)
    g3 = cardlab.load("monster_cards", players=3, open_hands=True)
    m = cardlab.Match(g3, ["random"] * 3, seed=2)
    while m.state.current_player != 1:
        m.step()
    d = m.state.to_dict()  # player 1's first turn: 0 has played, 2 has not drawn
    assert g3.state_from_dict(d) == m.state and zones(m.state, 2)["hand"] == []
    fresh0 = {**d["players"][0], "hand": [], "deck": sorted(c.name for c in g3.decks[0].cards), "deck_top": [],
              "graveyard": []}
    with pytest.raises(cardlab.PositionError, match=r"players\[0\]: has drawn no card, but .*before player 1's") as e:
        g3.state_from_dict({**d, "attack": None, "gamechanger": None, "players": [fresh0, *d["players"][1:]]})
    one_line(e)
    with pytest.raises(cardlab.PositionError, match=r"players\[1\]: has drawn or is out while player 2 .*MC-Q8") as e:
        g3.state_from_dict({**d, "turn": 0})
    one_line(e)


def _ruins(g, d, q):
    """Player q's cards in no listed zone (the ruins), as names."""
    left = Counter(c.name for c in g.decks[q].cards)
    p = d["players"][q]
    for f in ("hand", "deck_top", "deck", "graveyard"):
        left.subtract(p[f])
    for z in (d["attack"], d["gamechanger"]):
        if z and z["owner"] == q:
            left[z["card"]] -= 1
    return sorted(left.elements())


def test_J_hand_sizes_at_each_stage_MC_9_MC_11():
    """J, MC-9, MC-11: a hand is only refilled up to 3 at the start of its owner's turn and
    nothing else adds to it, and each turn plays a card (MC-11): no hand ever holds more than
    3, and a player who is not in the middle of their turn holds at most 2.  A card of the
    ruins put back into such a hand (issue J's 'hand sizes not checked') is refused."""
    g = cardlab.load("monster_cards", open_hands=True)
    m = cardlab.Match(g, ["random"] * 2, seed=5)
    for _ in range(30):
        m.step()
    while not (m.state.to_dict()["phase"] == "action" and _ruins(g, m.state.to_dict(), 1 - m.state.current_player)):
        m.step()
    d = m.state.to_dict()
    assert g.state_from_dict(d) == m.state
    o = 1 - d["turn"]
    extra = _ruins(g, d, o)[0]
    hand = sorted(d["players"][o]["hand"] + [extra] * (3 - len(d["players"][o]["hand"])))
    assert Counter(hand) - Counter(d["players"][o]["hand"]) <= Counter(_ruins(g, d, o))  # from the ruins
    bad = copy.deepcopy(d)
    bad["players"][o]["hand"] = hand
    with pytest.raises(cardlab.PositionError, match=r"at most 2 .*MC-11") as e:
        g.state_from_dict(bad)
    one_line(e)
    t = d["turn"]
    bad = copy.deepcopy(d)
    bad["players"][t]["hand"] = sorted(bad["players"][t]["hand"] + bad["players"][t]["deck"][:4 - len(d["players"][t]["hand"])])
    bad["players"][t]["deck"] = bad["players"][t]["deck"][4 - len(d["players"][t]["hand"]):]
    with pytest.raises(cardlab.PositionError, match=r"more than 3.*MC-9") as e:
        g.state_from_dict(bad)
    one_line(e)


def test_J_cards_out_of_the_hands_match_the_turns_MC_11_MC_10_MC_Q8():
    """J, MC-11, MC-10, MC-Q8: each turn plays exactly one card from the hand; the only other
    ways out of a hand are a Discard skill or a GameChanger (MC-10), at most two a turn (the
    hand holds 3 after the draw and keeps one to play).  Turns go round in seat order, so the
    players' plays differ by at most one.  Cards of the deck moved to the ruins (many
    'dropped' deck cards) are more than the turns can have played: refused."""
    g = cardlab.load("monster_cards", open_hands=True)
    m = cardlab.Match(g, ["random"] * 2, seed=3)
    for _ in range(12):
        m.step()
    while m.state.to_dict()["phase"] != "action":
        m.step()
    d = m.state.to_dict()
    assert g.state_from_dict(d) == m.state
    o = 1 - d["turn"]
    bad = copy.deepcopy(d)
    bad["players"][o]["deck"] = bad["players"][o]["deck"][:3]  # the rest into the ruins
    with pytest.raises(cardlab.PositionError, match=r"players\[\d\]: .*MC-11") as e:
        g.state_from_dict(bad)
    one_line(e)


@pytest.mark.parametrize("players,seed", [(3, 0), (3, 4), (2, 0), (2, 3)])
def test_J_ruins_of_a_player_who_is_out_match_the_turns_MC_19_MC_7_MC_11_MC_10_MC_Q8(players, seed):
    """J, MC-19, MC-7, MC-11, MC-10, MC-Q8: a player who is out took hand, deck and graveyard
    out of the game (``gone``); the rest of their deck is in the ruins or a zone, and every
    such card left the hand by a play (one a turn, MC-11) or, for a Discard or GameChanger
    card, at most two a turn (MC-10).  They stopped playing when they went out, so they
    played at most as often as the players still in (seat order, MC-Q8), and at the end at
    most once more than the winner.  Their gone cards claimed as ruins: refused."""
    g = cardlab.load("monster_cards", players=players)
    m = cardlab.Match(g, ["random"] * players, seed=seed)
    m.play_to_end()
    s = next(s for s in m.states if any(p["out"] for p in s.to_dict()["players"]))
    d = s.to_dict()
    assert g.state_from_dict(d) == s and (d["phase"] == "end") == (players == 2)
    q = next(q for q, p in enumerate(d["players"]) if p["out"])
    bad = copy.deepcopy(d)
    bad["players"][q]["gone"] = []  # all of it to the ruins
    with pytest.raises(cardlab.PositionError, match=rf"players\[{q}\]: .*plays.*MC-11") as e:
        g.state_from_dict(bad)
    one_line(e)
