"""Toritsuki card battle (とりつきカードバトル): every rule of docs/rules/toritsuki.md.

Positions are built with :func:`pos` from small hand-written dicts; card facts
used below come from ``cardlab/data/toritsuki.json`` (deck A is player 0's,
deck B player 1's unless a test says otherwise):

* 1 Hibana-kozo, Brave (イサマシ族) E, cost 0: m1 30 strike, m2 50 skill cost 1; possesses own Brave +20
* 2 Kamado-baba, Brave D, cost 1: m1 40, m2 60 cost 1; possesses own rank ≤ C +20
* 3 Rosoku-nyudo, Brave C, cost 1: m1 50, m2 70; possesses own method strike +30
* 4 Noroshi-maru, Brave B, cost 2: m1 60, m2 80, m3 100 spell cost 2; possesses the opponent's −20
* 5 Homura-hime, Brave A, cost 3: m1 70 …; possesses own Brave +30
* 6 Mizutama, Slippery (ニョロロン族) E, cost 0: m1 30 strike, m2 50 spell cost 1
* 16 Koishi, Tough (ゴーケツ族) E: m1 30; 18 Jizo-bei, Tough C: m1 50 strike

The default card file has no battle-method icon (TK-Q7); the icon file
(``cards="icons"``, ``cardlab/data/toritsuki_icons.json``) is the same set with
pierce (貫通) on Noroshi-maru's m3 and Homura-hime's possession, guard (守り)
on Jizo-bei's m1 and Nagisa-no-kami's (10) possession, among others.
"""

from __future__ import annotations

import json
import random
from collections import Counter
import time
from fractions import Fraction
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL, CardFileError, IllegalActionError, PositionError
from cardlab.core import sample_chance
from cardlab.games.toritsuki import RANKS, BattleReport, load_cards

GAME = cardlab.load("toritsuki")
OPEN = cardlab.load("toritsuki", open_hands=True)
ICONS = cardlab.load("toritsuki", cards="icons")  # the optional icon file: exceptions to TK-21 (TK-Q7)


def y(card, rested=0, moved=0, bonus=0):
    return [card, rested, moved, bonus]


def player(**kw):
    d = {"hand": [], "unseen": [], "deck_top": [], "front": [], "back": [], "yoki": [0, 0],
         "damage": [0, 0], "trash": 0}
    d.update(kw)
    d.setdefault("deck_size", len(d["deck_top"]) + len(d["unseen"]))
    return d


def pos(game=GAME, *, stage="main", tp=0, first_turn=False, event_used=False, pending=0,
        battle=None, p0=None, p1=None, first_player=0, as_dict=False):
    """A hand-made position (its dict with ``as_dict``); the cards it does not place are in the trash (a
    count), so the totals add up to the decks (J)."""
    d = {"game": "toritsuki", "options": game.options_dict(), "stage": stage, "turn_player": tp,
         "first_player": first_player, "first_turn": first_turn, "event_used": event_used,
         "pending": pending, "winner": None, "battle": battle,
         "players": [player(**(p0 or {"unseen": [1, 1, 2]})), player(**(p1 or {"unseen": [6, 6, 7]}))]}
    fill_yoki(game, d)
    fill_trash(game, d, given=[p0 or {}, p1 or {}])
    return d if as_dict else game.state_from_dict(d)


def fill_yoki(game, d):
    """Face-down yoki were charged from the deck, so the unseen pool holds them too (TK-12, J):
    a hand-made position whose pool lists only the deck gets the yoki's cards added, the
    lowest card numbers with copies to spare (without a known deck order, TK-Q6)."""
    if game.options["known_deck_order"]:
        return
    for p, q in enumerate(d["players"]):
        missing = q["deck_size"] - len(q["deck_top"]) + sum(q["yoki"]) - len(q["unseen"])
        if missing <= 0:
            continue
        spare = Counter(game.deck_lists[p])
        spare.subtract(q["hand"] + q["unseen"] + q["deck_top"] + [r[0] for r in q["front"] + q["back"]])
        b = d["battle"]
        if b is not None:
            side = "attacker" if p == d["turn_player"] else "blocker"
            spare.subtract([c for c in (b[side], b[side + "_possession"]) if c is not None])
        extra = sorted(spare.elements())[:missing]
        q["unseen"] = sorted(q["unseen"] + extra)


def fill_trash(game, d, given=({}, {})):
    """Put every card a hand-made position ``d`` does not place into the trash (TK-29)."""
    b = d["battle"]
    for p, q in enumerate(d["players"]):
        if "trash" in given[p]:
            continue
        in_battle = 0
        if b is not None:
            side = "attacker" if p == d["turn_player"] else "blocker"
            in_battle = (b[side] is not None) + (b[side + "_possession"] is not None)
        placed = (len(q["hand"]) + q["deck_size"] + sum(q["yoki"]) + len(q["front"]) + len(q["back"])
                  + sum(q["damage"]) + in_battle)
        q["trash"] = len(game.deck_lists[p]) - placed


def battle(a, am, b=None, bm=0, ab=0, bb=0, apos=None, bpos=None):
    return {"attacker": a, "attacker_bonus": ab, "attacker_method": am, "blocker": b, "blocker_bonus": bb,
            "blocker_method": bm, "attacker_possession": apos, "blocker_possession": bpos}


def P(s, p):
    return s.to_dict()["players"][p]


def trashed(s, t, p):
    """How many cards went into player ``p``'s trash from ``s`` to ``t`` (TK-29)."""
    return P(t, p)["trash"] - P(s, p)["trash"]


def run(s, *actions):
    for a in actions:
        s = s.apply(a)
    return s


# -- deck and start -----------------------------------------------------------
def test_ready_decks_follow_deck_rule():
    """TK-1: the two ready decks have 30 cards and at most 3 copies of a card number."""
    for name, lst in GAME.cardset.decks.items():
        assert len(lst) >= 30
        assert max(lst.count(no) for no in lst) <= 3


def test_deck_rule_errors_name_card_and_rule():
    """TK-1: a 4th copy or a 29-card deck is refused naming the card and the rule."""
    a = list(GAME.cardset.decks["A"])
    four = a[:-1] + [a[0]]  # a fourth Hibana-kozo (card 1 is there 3 times)
    with pytest.raises(CardFileError, match=r"card 1 'Hibana-kozo' appears 4 times; TK-1 allows at most 3"):
        cardlab.load("toritsuki", decks=[four, "B"])
    with pytest.raises(CardFileError, match=r"29 cards; TK-1 needs at least 30"):
        cardlab.load("toritsuki", decks=[a[:-1], "B"])
    with pytest.raises(CardFileError, match="card 999 is not in the card file"):
        cardlab.load("toritsuki", decks=["A", a[:-1] + [999]])
    with pytest.raises(CardFileError, match="no deck named 'Z'"):
        cardlab.load("toritsuki", decks=["Z", "B"])
    big = cardlab.load("toritsuki", decks=[a + [44, 44], "B"])  # 32 cards is fine
    assert len(big.deck_lists[0]) == 32


def test_start_deal_five_each_damage_and_yoki_zero():
    """TK-2: damage 0, yoki 0, both decks shuffled, 5 cards dealt to each."""
    s = GAME.new_initial_state()
    assert s.current_player == CHANCE and s.stage == "deal"
    outs = s.chance_outcomes()
    assert sum(p for _, p in outs) == 1
    assert dict(outs)["deal 1"] == Fraction(3, 30)  # 3 Hibana-kozo among 30 cards
    s = GAME.new_initial_state(seed=4)
    assert s.stage == "mulligan"
    for p in (0, 1):
        d = P(s, p)
        assert len(d["hand"]) == 5 and d["deck_size"] == 25
        assert d["damage"] == [0, 0] and d["yoki"] == [0, 0]


def test_no_hand_limit():
    """TK-2: no hand limit: a draw into a hand of 12 cards keeps all 13."""
    hand = [1, 1, 2, 2, 3, 3, 4, 5, 11, 11, 12, 12]
    s = pos(stage="draw", p0={"hand": hand, "unseen": [13, 13, 14]}, first_turn=False)
    s = s.apply("draw 13")
    assert len(P(s, 0)["hand"]) == 13 and s.stage == "main"


def test_mulligan_once_each_then_coin():
    """TK-3: mulligan once, optional: the hand is shuffled back and 5 drawn again."""
    s = GAME.new_initial_state(seed=4)
    assert s.current_player == 0 and s.legal_actions() == ["keep", "mulligan"]
    before = P(s, 0)
    s = s.apply("mulligan")
    d = P(s, 0)
    assert d["hand"] == [] and d["deck_size"] == 30 and sorted(d["unseen"]) == sorted(before["unseen"] + before["hand"])
    rng = random.Random(1)
    while s.current_player == CHANCE:
        s = s.apply(sample_chance(s, rng))
    assert len(P(s, 0)["hand"]) == 5 and s.current_player == 1  # player 0 is not asked again
    s = s.apply("keep")
    assert s.stage == "coin"
    no = cardlab.load("toritsuki", mulligan=False).new_initial_state(seed=4)
    assert no.stage == "main"  # no mulligan question: deal, coin, first turn


def test_first_player_coin_or_fixed():
    """TK-4, TK-Q3: a fair coin decides the first player; the option fixes it."""
    s = run(GAME.new_initial_state(seed=4), "keep", "keep")
    assert s.chance_outcomes() == [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
    t = s.apply("first 1")
    assert t.turn_player == 1 and t.stage == "main" and t.to_dict()["first_player"] == 1
    fixed = cardlab.load("toritsuki", first_player=1, mulligan=False).new_initial_state(seed=4)
    assert fixed.stage == "main" and fixed.turn_player == 1
    with pytest.raises(cardlab.OptionError, match="first_player accepts None, 0 or 1"):
        cardlab.load("toritsuki", first_player=2)


def test_first_turn_no_draw_no_event_no_battle():
    """TK-5: the first player's first turn: no draw, no event, no battle; the second player draws."""
    s = run(GAME.new_initial_state(seed=4), "keep", "keep", "first 0")
    d = P(s, 0)
    assert len(d["hand"]) == 5 and d["deck_size"] == 24 and d["yoki"] == [1, 0]  # only the charge
    # the yokai was summoned this turn with the one yoki charged (TK-12, TK-13, J)
    s = pos(first_turn=True, p0={"hand": [1, 41], "unseen": [1, 2], "front": [y(2)], "yoki": [0, 1]})
    acts = s.legal_actions()
    assert not any(a.startswith(("event", "attack")) for a in acts) and acts[-1] == "end"
    t = s.apply("end")
    assert t.stage == "draw" and t.turn_player == 1  # the second player's first turn has its draw
    t2 = pos(first_turn=False, p0={"hand": [1, 41], "unseen": [1, 2], "front": [y(2)]})
    assert "event 41" in t2.legal_actions() and "attack F1 m1" in t2.legal_actions()


# -- winning ------------------------------------------------------------------
def test_sixth_damage_loses():
    """TK-6: the sixth damage card ends the game: that player loses."""
    s = pos(stage="damage", p1={"unseen": [6, 6, 7], "damage": [3, 2]})
    t = s.apply("damage 7")
    assert t.is_terminal() and t.returns() == [1, -1]
    assert P(t, 1)["damage"] == [4, 2]


def test_deck_out_loses_at_that_instant():
    """TK-7, TK-Q4: a deck running out ends the game at once: at draw, at charge, at damage."""
    s = pos(stage="draw", tp=1, p1={"unseen": [6]})
    assert s.apply("draw 6").returns() == [1, -1]  # the draw took the last card
    s = pos(stage="draw", tp=1, p1={"unseen": [6, 7]})
    t = s.apply("draw 6")  # the charge takes the last one
    assert t.is_terminal() and t.returns() == [1, -1] and P(t, 1)["yoki"] == [1, 0]
    s = pos(stage="damage", p1={"unseen": [6]})
    assert s.apply("damage 6").returns() == [1, -1]
    s = pos(stage="possess_a", battle=battle(1, 1, 6, 1), p0={"unseen": [2]})
    t = s.apply("possess deck").apply("reveal 2")  # possession from the deck can run it out too
    assert t.returns() == [-1, 1]


def test_card_win_condition():
    """TK-8: Grand Parade (ようかいパレード) wins with 6 yokai on the field, else does nothing."""
    full = {"hand": [49], "unseen": [1, 2], "front": [y(1), y(2), y(3)], "back": [y(11), y(12), y(13)]}
    t = pos(p0=full).apply("event 49")
    assert t.is_terminal() and t.returns() == [1, -1]
    five = dict(full, back=[y(11), y(12)])
    s = pos(p0=five)
    t = s.apply("event 49")
    assert not t.is_terminal() and trashed(s, t, 0) == 1 and "event 49" not in t.legal_actions()


# -- the turn ---------------------------------------------------------------------
def test_start_refresh_draw_charge():
    """TK-9, TK-10, TK-11, TK-12: start, refresh (yokai and yoki ready), draw one, charge one."""
    # a deck of 3 and 3 face-down yoki charged from it: the unseen pool holds all 6 (TK-12)
    # player 1's battle: player 0's front yokai attacked in its own turn, its back yokai has blocked in this one
    s = pos(tp=1, stage="battle", p0={"unseen": [1, 1, 2, 3, 3, 4], "deck_size": 3, "front": [y(1, rested=1)],
                                      "back": [y(2, rested=1)], "yoki": [0, 3]}, p1={"unseen": [6, 6, 7], "front": [y(21)]})
    t = s.apply("end")  # player 1 ends; player 0's turn starts
    d = P(t, 0)
    assert t.stage == "draw" and d["front"] == [y(1)] and d["back"] == [y(2)] and d["yoki"] == [3, 0]
    assert dict(t.chance_outcomes()) == {"draw 1": Fraction(1, 3), "draw 2": Fraction(1, 6),
                                         "draw 3": Fraction(1, 3), "draw 4": Fraction(1, 6)}
    u = t.apply("draw 2")
    d = P(u, 0)
    assert d["hand"] == [2] and d["deck_size"] == 1 and d["yoki"] == [4, 0] and u.stage == "main"
    # the charged card is face down: nobody knows it, it stays among the unseen cards
    assert d["unseen"] == [1, 1, 3, 3, 4]


def test_summon_rows_and_cost():
    """TK-13, TK-25, TK-28: summon ready into front or back, paying the cost, 3 per row."""
    s = pos(p0={"hand": [1, 2, 5], "unseen": [1, 3], "yoki": [1, 0], "front": [y(11), y(12)]})
    acts = s.legal_actions()
    assert "summon 1 F" in acts and "summon 2 B" in acts and "summon 5 F" not in acts  # 5 costs 3
    t = s.apply("summon 2 F")
    d = P(t, 0)
    assert d["front"] == [y(2), y(11), y(12)] and d["yoki"] == [0, 1] and d["hand"] == [1, 5]
    assert "summon 1 F" not in t.legal_actions() and "summon 1 B" in t.legal_actions()
    assert "attack F1 m1" in t.legal_actions()  # TK-28 no summoning sickness


def test_make_room_only_when_full():
    """TK-13: with all 6 places full a yokai may go to the trash to make room."""
    five = {"hand": [1], "unseen": [2, 2], "front": [y(3), y(4), y(11)], "back": [y(12), y(13)]}
    assert not any(a.startswith("release") for a in pos(p0=five).legal_actions())
    six = dict(five, back=[y(12), y(13), y(14)])
    s = pos(p0=six)
    acts = s.legal_actions()
    assert "release F1" in acts and "release B3" in acts and "summon 1 F" not in acts
    t = s.apply("release B1")
    assert trashed(s, t, 0) == 1 and len(P(t, 0)["back"]) == 2 and "summon 1 B" in t.legal_actions()
    no_summon = dict(six, hand=[41])  # nothing to summon: no reason to make room
    assert not any(a.startswith("release") for a in pos(p0=no_summon).legal_actions())


def arrangement(s, p=0):
    """Player ``p``'s rows as card numbers (front, back), marks left out."""
    d = P(s, p)
    return tuple(e[0] for e in d["front"]), tuple(e[0] for e in d["back"])


def test_TK_13_moving_is_not_limited_each_arrangement_once():
    """TK-13 (seed: 「自分の場の妖怪を移動させる」, no limit), option
    ``move_once_per_turn`` (default False, the seed): one ``move`` action
    moves any set of yokai between the rows at once; every arrangement but
    the current one is offered exactly once.  Right after a rearrangement
    no other is offered (it would only compose with the first); after any
    other main action (summon, release, event) moving is offered again,
    the same yokai back included."""
    assert GAME.options["move_once_per_turn"] is False
    s = pos(p0={"hand": [1, 2], "unseen": [2, 3], "yoki": [2, 0], "front": [y(3), y(4)], "back": [y(11)]})
    moves = [a for a in s.legal_actions() if a.startswith("move")]
    assert moves == ["move F1", "move F2", "move B1", "move F1 F2", "move F1 B1", "move F2 B1", "move F1 F2 B1"]
    # 3 yokai, at most 3 a row: 2³ arrangements, each reached once, none the current one
    assert len({arrangement(s.apply(a)) for a in moves} | {arrangement(s)}) == 8
    t = s.apply("move F1 B1")  # Rosoku-nyudo back, Kazaguruma front (both rows keep their sizes)
    assert P(t, 0)["front"] == [y(4), y(11, moved=1)] and P(t, 0)["back"] == [y(3, moved=1)]
    assert not any(a.startswith("move") for a in t.legal_actions())
    u = t.apply("summon 1 B")  # another action: the marks go, Rosoku-nyudo may come back
    assert P(u, 0)["back"] == [y(1), y(3)] and "move B2" in u.legal_actions()
    assert arrangement(u.apply("move B2")) == ((3, 4, 11), (1,))
    # the old house rule as an option: each yokai changes rows once a turn, summons or not
    once = cardlab.load("toritsuki", move_once_per_turn=True)
    s1 = pos(once, p0={"hand": [1, 2], "unseen": [2, 3], "yoki": [2, 0], "front": [y(3), y(4)], "back": [y(11)]})
    t1 = s1.apply("move F1 B1")
    assert [a for a in t1.legal_actions() if a.startswith("move")] == ["move F1"]  # only Noroshi-maru left
    u1 = t1.apply("summon 1 B")
    assert [a for a in u1.legal_actions() if a.startswith("move")] == ["move F1", "move B1", "move F1 B1"]


def test_TK_13_a_move_that_changes_nothing_is_not_offered():
    """TK-13, TK-27: trading two alike yokai between the rows, or moving
    the second of two alike yokai of a row, reaches no new arrangement: not
    offered.  Hibana-kozo in each row and Noroshi-maru in front: the 5 other
    arrangements of {1, 1, 4}, once each."""
    s = pos(p0={"unseen": [2, 3], "front": [y(1), y(4)], "back": [y(1)]})
    moves = [a for a in s.legal_actions() if a.startswith("move")]
    assert moves == ["move F1", "move F2", "move B1", "move F1 F2", "move F2 B1"]
    got = [arrangement(s.apply(a)) for a in moves]
    assert len(set(got)) == 5 and arrangement(s) not in got
    full = pos(p0={"unseen": [2, 3], "front": [y(1), y(1), y(4)], "back": [y(11), y(12), y(13)]})
    moves = [a for a in full.legal_actions() if a.startswith("move")]
    # both rows full: only as many go back as come forward; the two Hibana-kozo count once
    assert "move F1" not in moves and "move F2 B1" not in moves and "move F1 B1" in moves
    assert len(moves) == len({arrangement(full.apply(a)) for a in moves}) == 2 * 3 + 2 * 3 + 1 * 1
    u = full.apply("move F1 F3 B2 B3")
    assert arrangement(u) == ((1, 12, 13), (1, 4, 11))


def test_TK_13_unlimited_moves_cannot_loop_agents_or_trees():
    """TK-13 with ``move_once_per_turn=False`` (the default): moving back and
    forth cannot loop.  A random agent's main phase with four yokai and
    nothing else to do is a rearrangement at most, then an attack or the end
    (2 actions); ``tree()`` of a small endgame is finite, also without
    merging transpositions, and its main phase meets each of the 2³
    arrangements of player 0's three yokai; the solver and ``solve_tree``
    agree on it."""
    s = pos(p0={"unseen": [2, 2], "front": [y(1), y(3)], "back": [y(11), y(12)]})
    for seed in range(30):
        rng = random.Random(seed)
        t, n = s, 0
        while t.stage == "main" and t.turn_player == 0:
            t = t.apply(rng.choice(t.legal_actions()))
            n += 1
        assert n <= 2
    known = cardlab.load("toritsuki", open_hands=True, known_deck_order=True)
    small = pos(known, p0={"deck_top": [2], "front": [y(1), y(3)], "back": [y(11)]},
                p1={"deck_top": [7], "back": [y(6)]})
    for merge in (True, False):
        G = cardlab.tree(small, max_nodes=5000, merge_transpositions=merge)
        mains = {arrangement(G.nodes[n]["state"]) for n in G.nodes
                 if G.nodes[n]["state"].stage == "main" and G.nodes[n]["state"].turn_player == 0}
        assert len(mains) == 8
        assert cardlab.solve_tree(G)[0][0] == cardlab.solve(small, progress=False).value


def test_one_event_per_main():
    """TK-13, TK-24: one event card per main phase, no cost."""
    s = pos(p0={"hand": [41, 41], "unseen": [1, 2, 3]})
    t = s.apply("event 41")
    assert t.stage == "evdraw" and P(t, 0)["yoki"] == [0, 0]
    u = t.apply("draw 2")
    assert u.stage == "main" and not any(a.startswith("event") for a in u.legal_actions())


def test_several_attacks_then_end():
    """TK-14, TK-15: attacks one yokai at a time, as many as chosen; the turn ends."""
    s = pos(p0={"unseen": [2, 2], "front": [y(1), y(3)]}, p1={"unseen": [6, 6, 7]})
    s = s.apply("attack F1 m1")  # Hibana-kozo; nothing can block: 1 damage
    assert s.stage == "damage"
    s = s.apply("damage 6")
    # the resting Hibana-kozo sorts first (F1); only Rosoku-nyudo (F2) can still attack
    assert s.stage == "battle" and s.legal_actions() == ["attack F2 m1", "end"]
    s = s.apply("attack F2 m1").apply("damage 7")
    assert s.turn_player == 1 and s.stage == "draw"  # nothing left to attack with: the turn ended
    assert P(s, 1)["damage"] == [2, 0]


def test_end_of_turn_ends_bonus():
    """TK-15, TK-Q2: +BP until end of turn (Cheering おうえん) is gone at the end."""
    s = pos(p0={"hand": [44], "unseen": [1, 2], "front": [y(1)]}).apply("event 44 F1")
    assert P(s, 0)["front"] == [y(1, bonus=20)]
    assert P(s.apply("end"), 0)["front"] == [y(1)]


# -- one attack -------------------------------------------------------------------
def test_attack_rests_and_needs_payable_cost():
    """TK-16: a ready front yokai rests; a method that costs more than can be paid is not offered."""
    s = pos(p0={"unseen": [2, 2], "front": [y(4)], "back": [y(3)]}, p1={"unseen": [6, 7], "back": [y(6)]})
    acts = [a for a in s.legal_actions() if a.startswith("attack")]
    assert acts == ["attack F1 m1"]  # Noroshi-maru m2 costs 1, m3 costs 2: no yoki
    s = pos(p0={"unseen": [2, 2], "front": [y(4)], "yoki": [1, 0], "damage": [1, 0]},
            p1={"unseen": [6, 7], "back": [y(6)]})
    assert "attack F1 m3" in s.legal_actions()  # 1 yoki + 1 yoki boost
    t = s.apply("attack F1 m3")
    assert t.stage == "block" and t.current_player == 1 and P(t, 0)["front"] == []
    assert t.to_dict()["battle"]["attacker"] == 4


def test_block_is_the_defenders_choice():
    """TK-17: the defender (current player) picks a ready back yokai and a payable method, or not."""
    # the battle of this turn: player 1's 16 has blocked an attack already (TK-17), player 0's 1 has attacked
    s = pos(p0={"unseen": [2, 2], "front": [y(1, rested=1), y(3)]}, stage="battle",
            p1={"unseen": [6, 7], "back": [y(6), y(16, rested=1)], "front": [y(21)], "yoki": [0, 0]})
    t = s.apply("attack F2 m1")
    assert t.current_player == 1 and t.legal_actions() == ["block B1 m1", "noblock"]
    u = t.apply("block B1 m1")
    assert u.stage == "possess_a" and u.current_player == 0
    assert P(u, 1)["back"] == [y(16, rested=1)]


def test_no_block_one_damage_face_up():
    """TK-18: no block: no battle, the defender's deck top goes face up into damage."""
    s = pos(p0={"unseen": [2, 2], "front": [y(3), y(1)]}, p1={"unseen": [6, 7], "back": [y(6)]})
    t = s.apply("attack F2 m1").apply("noblock")
    assert t.stage == "damage" and dict(t.chance_outcomes()) == {"damage 6": Fraction(1, 2),
                                                                  "damage 7": Fraction(1, 2)}
    u = t.apply("damage 7")
    assert P(u, 1)["damage"] == [1, 0] and P(u, 1)["deck_size"] == 1 and P(u, 1)["back"] == [y(6)]
    assert P(u, 0)["front"] == [y(1), y(3, rested=1)]  # the attacker stays resting, unharmed


def in_battle(game=GAME, apos=None, bpos=None, stage="possess_a", p0=None, p1=None, a=3, am=1, b=6, bm=1):
    return pos(game, stage=stage, battle=battle(a, am, b, bm, apos=apos, bpos=bpos),
               p0=p0 or {"unseen": [2, 2, 4]}, p1=p1 or {"unseen": [7, 7, 8]})


def test_possession_from_deck_fits_or_trash():
    """TK-19: from the deck the top card is revealed; it possesses if it fits, else to the trash."""
    s = in_battle(p0={"unseen": [2, 41, 4]})  # attacker Rosoku-nyudo (Brave C, strike)
    t = s.apply("possess deck")
    assert t.stage == "reveal_a"
    u = t.apply("reveal 2")  # Kamado-baba: own yokai rank ≤ C: fits
    assert u.to_dict()["battle"]["attacker_possession"] == 2 and u.current_player == 1
    u = t.apply("reveal 41")  # an event never possesses
    assert u.to_dict()["battle"]["attacker_possession"] is None and trashed(t, u, 0) == 1
    s = in_battle(p0={"unseen": [5, 4]}, a=2)  # Homura-hime needs a Brave yokai: Kamado-baba is Brave
    assert s.apply("possess deck").apply("reveal 5").to_dict()["battle"]["attacker_possession"] == 5
    s = in_battle(p0={"unseen": [2, 2, 4]}, p1={"unseen": [8, 7]}, a=5)  # Homura-hime is rank A
    t = s.apply("possess deck").apply("reveal 2")  # Kamado-baba needs rank ≤ C: to the trash
    assert t.to_dict()["battle"]["attacker_possession"] is None and trashed(s, t, 0) == 1


def test_possession_from_hand_only_fitting_cards_attacker_first():
    """TK-19: from the hand only a fitting card; attacker first, then defender, once each."""
    s = in_battle(p0={"hand": [1, 11, 41], "unseen": [2, 2]}, p1={"hand": [6, 16], "unseen": [7, 7]})
    assert s.current_player == 0
    assert s.legal_actions() == ["pass", "possess deck", "possess 1"]  # 11 needs Mysterious, 41 is an event
    t = s.apply("possess 1")
    assert t.current_player == 1 and t.stage == "possess_d"
    # the blocker is Mizutama (Slippery): Mizutama possesses Slippery yokai, Koishi only Tough ones
    assert t.legal_actions() == ["pass", "possess deck", "possess 6"]
    assert P(t, 0)["hand"] == [11, 41]


def test_opponent_possession_lowers_their_bp():
    """TK-20: a card that possesses the opponent's yokai lowers its BP."""
    s = in_battle(p0={"hand": [4], "unseen": [2, 2]}, a=3, b=8)  # 8 Amagappa: Slippery C, m1 50
    t = s.apply("possess 4")
    rep = t.battle_report()
    assert rep.defender.modifiers == [("possession (とりつく) by Noroshi-maru #4 of player 0", -20)]
    assert rep.defender.total == 30 and rep.attacker.total == 50


def test_duel_loser_faints_tie_both():
    """TK-21: the higher BP wins, the loser faints to the trash; a tie faints both."""
    s = in_battle(stage="possess_d", a=3, b=6)  # 50 against 30
    t = s.apply("pass")
    assert t.stage == "battle" or t.turn_player == 1
    assert trashed(s, t, 1) == 1 and P(t, 0)["front"] == [y(3, rested=1)]
    s = in_battle(stage="possess_d", a=1, b=6)  # 30 against 30: both faint
    t = s.apply("pass")
    assert trashed(s, t, 0) == 1 and trashed(s, t, 1) == 1
    assert P(t, 0)["front"] == [] and P(t, 1)["back"] == []


def test_TK_Q7_default_tie_faints_both_and_a_win_deals_no_damage():
    """TK-Q7, TK-21 (seed: 「勝った場合: 特に無し」, 「引き分けの場合: バトルした双方の妖怪が気絶する」):
    in the default card file no battle method and no possession carries an
    icon that overturns these: Rosoku-nyudo 50 against Jizo-bei's Rock
    Smash 50 faints both; Noroshi-maru's Great Bonfire 100 beats Mizutama 30
    and deals no damage."""
    yokai = [c for c in GAME.cards.values() if c.is_yokai]
    assert all(m.icon is None for c in yokai for m in c.methods) and all(c.poss_icon is None for c in yokai)
    s = in_battle(stage="possess_d", a=3, b=18, p1={"unseen": [7, 7]})
    t = s.apply("pass")
    assert trashed(s, t, 0) == 1 and trashed(s, t, 1) == 1 and P(t, 1)["back"] == []
    s = in_battle(stage="possess_d", a=4, am=3, b=6, p0={"unseen": [2, 2, 3]}, p1={"unseen": [7, 7]})
    t = s.apply("pass")
    assert t.stage != "damage" and P(t, 1)["damage"] == [0, 0] and trashed(s, t, 1) == 1


def test_TK_Q7_icon_file_is_the_default_set_plus_the_exceptions():
    """TK-Q7, TK-21, TK-23: the optional icon file (``cards="icons"``,
    ``cardlab/data/toritsuki_icons.json``) is the default set with icons
    added, nothing else: guard (守り) does not faint on a tie, pierce (貫通)
    adds 1 damage on a win — exceptions to TK-21 that its name states."""
    icons, plain = _raw("toritsuki_icons.json"), _raw()
    assert "exceptions to the base rules TK-21" in icons["name"]
    for c in icons["cards"]:
        for m in c.get("methods", []):
            m["icon"] = None
        c.get("possess", {}).pop("icon", None)
    assert {k: v for k, v in icons.items() if k != "name"} == {k: v for k, v in plain.items() if k != "name"}
    assert ICONS.cardset.where == "cardlab/data/toritsuki_icons.json"
    assert {m.icon for c in ICONS.cards.values() for m in c.methods} == {None, "pierce", "guard"}
    s = in_battle(ICONS, stage="possess_d", a=3, b=18, p1={"unseen": [7, 7]})  # 50 vs Jizo-bei 50 guard
    t = s.apply("pass")
    assert trashed(s, t, 0) == 1 and trashed(s, t, 1) == 0 and [e[0] for e in P(t, 1)["back"]] == [18]
    assert "guard (守り, an exception to TK-21" in s.explain("pass")
    s = in_battle(ICONS, stage="possess_d", a=4, am=3, b=6, p0={"unseen": [2, 2, 3]},
                  p1={"unseen": [7, 7]})  # 100 pierce vs 30
    t = s.apply("pass")
    assert t.stage == "damage" and trashed(s, t, 1) == 1
    assert P(t.apply("damage 7"), 1)["damage"] == [1, 0]


def test_possessing_cards_go_to_owners_trash():
    """TK-22: at the end of the attack every possessing card goes to its owner's trash."""
    s = in_battle(p0={"hand": [2], "unseen": [2, 4]}, p1={"hand": [6], "unseen": [7, 8]}, a=3, b=7)
    t = s.apply("possess 2")  # Rosoku 50+20 = 70
    # Shiofuki-gani (7: Slippery D, m1 40) possessed by Mizutama (Slippery +20) = 60: the attacker wins
    u = t.apply("possess 6")
    d0 = P(u, 0)
    assert trashed(s, u, 0) == 1 and trashed(s, u, 1) == 2  # possession cards, and the fainted blocker
    assert d0["front"] == [y(3, rested=1)] and u.to_dict()["battle"] is None


def test_battle_explanation_structured_and_text():
    """TK-21: the explanation gives both BPs with every modifier and its source."""
    s = pos(stage="possess_a", battle=battle(3, 1, 7, 1, ab=20), p0={"hand": [2], "unseen": [2, 4]},
            p1={"hand": [9], "unseen": [7, 8]}, event_used=True)
    t = s.apply("possess 2")
    line = t.explain("possess 9")  # Uzumaki-dayu possesses the opponent's yokai: -20
    assert "BP 50 +20 (event until end of turn) +20 (possession (とりつく) by Kamado-baba #2 of player 0)" in line
    assert "-20 (possession (とりつく) by Uzumaki-dayu #9 of player 1) = 70" in line
    assert "the attacker wins" in line and "faints" in line
    rep = t.apply("possess deck").battle_report()
    assert isinstance(rep, BattleReport)
    d = rep.as_dict()
    assert d["attacker"]["total"] == 90 and d["defender"]["total"] == 40 and d["winner"] == "attacker"
    assert json.loads(json.dumps(d)) == d


# -- cards and resources ------------------------------------------------------------
def test_card_data_kinds():
    """TK-23, TK-Q1: 8 tribes, ranks E-S, ≥ 40 yokai with several methods, possession conditions of several kinds."""
    cs = load_cards()
    yokai = [c for c in cs.cards.values() if c.is_yokai]
    events = [c for c in cs.cards.values() if not c.is_yokai]
    assert len(cs.tribes) == 8 and len(yokai) >= 40 and len(events) >= 8
    assert {c.tribe for c in yokai} == set(cs.tribes)
    assert {RANKS[c.rank] for c in yokai} == set("EDCBAS")
    assert all(len(c.methods) >= 2 for c in yokai)
    assert {m.category for c in yokai for m in c.methods} == {"strike", "skill", "spell"}
    assert {m.icon for c in yokai for m in c.methods} == {None}  # TK-Q7: icons only in the icon file
    kinds = {(c.cond_tribe is not None, c.cond_rank_max is not None, c.cond_category is not None, c.target)
             for c in yokai}
    assert {(True, False, False, "own"), (False, True, False, "own"), (False, False, True, "own"),
            (False, False, False, "opponent")} <= kinds


def test_card_file_errors_name_file_card_field(tmp_path):
    """TK-Q1: a bad card file raises CardFileError naming the file, the card and the field."""
    data = json.loads(json.dumps(cardlab.load("toritsuki").cardset and _raw()))
    data["cards"][2]["methods"][0]["category"] = "magic"
    f = tmp_path / "cards.json"
    f.write_text(json.dumps(data))
    with pytest.raises(CardFileError, match=r"cards.json: card 3 'Rosoku-nyudo', field 'methods\[0\].category'"):
        cardlab.load("toritsuki", cards=str(f))
    data = _raw()
    data["cards"][0]["possess"]["condition"] = {"tribe": "lava"}
    with pytest.raises(CardFileError, match=r"card 1 'Hibana-kozo', field 'possess.condition': tribe must be one of"):
        load_cards(data)
    data = _raw()
    data["cards"][40]["effect"] = {"kind": "explode"}
    with pytest.raises(CardFileError, match=r"card 41 'Snack Time', field 'effect'"):
        load_cards(data)
    data = _raw()
    data["cards"][0]["rank"] = "Z"
    with pytest.raises(CardFileError, match=r"field 'rank'"):
        load_cards(data)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(CardFileError, match="not valid JSON"):
        load_cards(tmp_path / "bad.json")
    with pytest.raises(CardFileError, match="missing.json: cannot read the card file"):
        cardlab.load("toritsuki", cards=str(tmp_path / "missing.json"))


def _raw(name="toritsuki.json"):
    from importlib import resources
    return json.loads(resources.files("cardlab.data").joinpath(name).read_text("utf-8"))


def test_TK_23_default_tribes_are_the_eight_of_the_original():
    """TK-23 (seed: 「種族は原作準拠であり、プリチー族 など 8種類」): the default
    card file's tribes are exactly the eight of the original franchise,
    Japanese with English; every one is used; the icon file has the same."""
    eight = [("charming", "Charming", "プリチー族"), ("brave", "Brave", "イサマシ族"), ("tough", "Tough", "ゴーケツ族"),
             ("mysterious", "Mysterious", "フシギ族"), ("heartful", "Heartful", "ポカポカ族"),
             ("slippery", "Slippery", "ニョロロン族"), ("eerie", "Eerie", "ブキミー族"), ("shady", "Shady", "ウスラカゲ族")]
    for name in ("toritsuki.json", "toritsuki_icons.json"):
        assert [(t["id"], t["name"], t["japanese"]) for t in _raw(name)["tribes"]] == eight
    cs = load_cards()
    assert [(t, cs.tribe_ja[t]) for t in cs.tribes] == [(i, ja) for i, _, ja in eight]
    assert {c.tribe for c in cs.cards.values() if c.is_yokai} == {i for i, _, _ in eight}


def test_TK_23_a_yokai_with_one_battle_method_is_refused(tmp_path):
    """TK-23 (seed: 「複数のバトル方法を持ち」): a card file whose yokai has a
    single battle method is refused, naming the file, the card and the field."""
    data = _raw()
    data["cards"][2]["methods"] = data["cards"][2]["methods"][:1]
    f = tmp_path / "one.json"
    f.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    with pytest.raises(CardFileError, match=r"one.json: card 3 'Rosoku-nyudo', field 'methods': .*"
                                            r"several battle methods \(複数のバトル方法, TK-23\).*2 to 4.*got 1"):
        cardlab.load("toritsuki", cards=str(f))


def test_user_card_file_is_used(tmp_path):
    """TK-Q1: a user's own card file through the cards option."""
    data = _raw()
    data["cards"][0]["methods"][0]["bp"] = 99
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    g = cardlab.load("toritsuki", cards=str(f))
    assert g.cards[1].methods[0].bp == 99


def test_event_has_no_cost():
    """TK-24: events cost nothing; they go to the trash after use."""
    s = pos(p0={"hand": [45], "unseen": [1, 2], "damage": [1, 1]})
    assert "event 45" in s.legal_actions()
    t = s.apply("event 45")
    assert P(t, 0)["yoki"] == [0, 0] and trashed(s, t, 0) == 2


def test_paying_yoki_then_boost_which_never_returns():
    """TK-25, TK-26, TK-Q5: ready yoki pay first, then face-up damage turned face down; it stays down."""
    s = pos(p0={"hand": [5], "unseen": [1, 2, 2], "yoki": [2, 0], "damage": [2, 0]}, p1={"unseen": [6, 6, 7, 7]})
    t = s.apply("summon 5 F")  # cost 3: 2 yoki + 1 boost
    d = P(t, 0)
    assert d["yoki"] == [0, 2] and d["damage"] == [1, 1]
    u = run(t, "end", "draw 6", "end", "draw 1")  # player 1's turn passes; player 0 refreshes
    d = P(u, 0)
    assert d["yoki"] == [3, 0] and d["damage"] == [1, 1]  # yoki came back, the boost did not
    s = pos(p0={"hand": [5], "unseen": [1, 2, 2], "yoki": [1, 0], "damage": [1, 3]})
    assert "summon 5 F" not in s.legal_actions()  # face-down damage cannot pay


def test_block_cost_paid_by_defender():
    """TK-Q5, TK-17: a blocking method's cost is paid from the defender's yoki."""
    s = pos(p0={"unseen": [2, 2], "front": [y(3)]}, p1={"unseen": [7, 7], "back": [y(6)], "yoki": [0, 1],
                                                         "damage": [1, 0]})
    t = s.apply("attack F1 m1")
    assert "block B1 m2" in t.legal_actions()
    assert P(t.apply("block B1 m2"), 1)["damage"] == [0, 1]


def payments(s, start):
    return [a for a in s.legal_actions() if a.startswith(start)]


def test_TK_Q8_which_ready_yoki_is_never_asked():
    """TK-Q8, TK-25: face-down yoki are all alike and never looked at, so
    which ready yoki pays cannot matter: with ready yoki only there is one
    action per summon, and paying rests that many of them."""
    s = pos(p0={"hand": [5], "unseen": [1, 2, 2], "yoki": [3, 1]})
    assert payments(s, "summon 5") == ["summon 5 F", "summon 5 B"]
    assert P(s.apply("summon 5 F"), 0)["yoki"] == [0, 4]
    forced = pos(p0={"hand": [5], "unseen": [1, 2, 2], "yoki": [1, 0], "damage": [2, 0]})
    assert payments(forced, "summon 5") == ["summon 5 F", "summon 5 B"]  # 1 yoki + 2 boosts: no choice
    assert P(forced.apply("summon 5 F"), 0)["damage"] == [0, 2]


def test_TK_Q8_boost_or_not_is_offered_as_actions():
    """TK-Q8, TK-25, TK-26: with ready yoki and face-up damage both able to
    pay, the plain action pays ready yoki first (boosts only for what they
    cannot pay); ``… boost N`` turns N face-up damage cards down instead
    (妖気ブースト), for a summon, an attack and a block alike."""
    s = pos(p0={"hand": [5], "unseen": [1, 2, 2], "yoki": [2, 0], "damage": [2, 0]})
    assert payments(s, "summon 5 F") == ["summon 5 F", "summon 5 F boost 2"]  # cost 3: 1 or 2 boosts
    d = P(s.apply("summon 5 F"), 0)
    assert d["yoki"] == [0, 2] and d["damage"] == [1, 1]
    d = P(s.apply("summon 5 F boost 2"), 0)
    assert d["yoki"] == [1, 1] and d["damage"] == [0, 2]
    line = s.explain("summon 5 F boost 2")
    assert "1 ready yoki rested" in line and "2 face-up damage cards turned face down (妖気ブースト" in line
    assert "TK-Q8" in line
    a = pos(p0={"unseen": [2, 2], "front": [y(4)], "yoki": [2, 0], "damage": [1, 0]},
            p1={"unseen": [6, 7], "back": [y(6)], "yoki": [1, 0], "damage": [1, 0]})
    assert payments(a, "attack F1 m3") == ["attack F1 m3", "attack F1 m3 boost 1"]
    assert payments(a, "attack F1 m1") == ["attack F1 m1"]  # nothing to pay
    b = a.apply("attack F1 m3 boost 1")
    assert P(b, 0)["yoki"] == [1, 1] and P(b, 0)["damage"] == [0, 1]
    assert b.legal_actions() == ["block B1 m1", "block B1 m2", "block B1 m2 boost 1", "noblock"]
    c = b.apply("block B1 m2 boost 1")
    assert P(c, 1)["yoki"] == [1, 0] and P(c, 1)["damage"] == [0, 1]
    with pytest.raises(IllegalActionError):
        a.apply("attack F1 m1 boost 1")


def test_TK_Q8_a_boost_can_cost_the_game():
    """TK-Q8, TK-26, TK-Q2: the choice is real, and ready yoki first is the
    better side of it: a rested yoki can come back (here at once, by Deep
    Breath しんこきゅう, which readies resting yoki), a boost never does.
    Player 0 (deck B; 1 yoki, 1 face-up damage; Mizutama in front; a 1-card
    deck, so it loses at its next draw, TK-7) must attack three times into
    two blockers to put player 1's 6th damage through: summon Shiofuki-gani
    (cost 1), Deep Breath, summon Uzumaki-dayu (cost 2).  Paid with the
    yoki, Deep Breath readies it and the 2 are there: a win; paid with the
    boost, only 1 is left: a loss."""
    known = cardlab.load("toritsuki", open_hands=True, known_deck_order=True, decks=["B", "A"])
    s = pos(known, p0={"hand": [7, 9, 43], "deck_top": [16], "front": [y(6)], "yoki": [1, 0], "damage": [1, 0]},
            p1={"deck_top": [11, 11, 12], "back": [y(2), y(3)], "damage": [5, 0]})
    assert payments(s, "summon 7 F") == ["summon 7 F", "summon 7 F boost 1"]
    assert cardlab.solve(s.apply("summon 7 F"), progress=False).value == 1
    assert cardlab.solve(s.apply("summon 7 F boost 1"), progress=False).value == -1


def test_place_in_row_means_nothing():
    """TK-27: rows are sets: the same yokai in another order is the same position."""
    a = pos(p0={"unseen": [2, 2], "front": [y(3), y(1)], "back": [y(12), y(11)]})
    b = pos(p0={"unseen": [2, 2], "front": [y(1), y(3)], "back": [y(11), y(12)]})
    assert a == b and hash(a) == hash(b)
    front_only = pos(p0={"unseen": [2, 2], "back": [y(3)]}, p1={"unseen": [7, 7], "back": [y(6)]})
    assert not any(a.startswith("attack") for a in front_only.legal_actions())  # back row does not attack


def test_summoned_yokai_can_attack_at_once():
    """TK-28: no summoning sickness."""
    s = pos(p0={"hand": [1], "unseen": [2, 2]}).apply("summon 1 F")
    assert "attack F1 m1" in s.legal_actions()


def test_trash_and_damage_are_different():
    """TK-29: healing moves a damage card into the trash, a different zone."""
    s = pos(p0={"hand": [45], "unseen": [1, 2], "damage": [2, 0]})
    d = P(s.apply("event 45"), 0)
    assert d["damage"] == [1, 0] and trashed(s, s.apply("event 45"), 0) == 2


# -- events (TK-Q2) ------------------------------------------------------------------
BA = cardlab.load("toritsuki", decks=["B", "A"])  # player 0 plays deck B's events


def test_events_draw_ready_charge():
    """TK-Q2: draw 2 (えんそく), ready 2 yoki (しんこきゅう), charge 1 (ちょきんばこ)."""
    base = {"unseen": [6, 7, 8], "yoki": [0, 3]}
    s = pos(BA, p0=dict(base, hand=[42]), p1={"unseen": [1, 2]})
    t = s.apply("event 42").apply("draw 6")
    assert t.stage == "evdraw"
    assert t.apply("draw 7").stage == "main"
    s = pos(BA, p0=dict(base, hand=[43]), p1={"unseen": [1, 2]})
    assert P(s.apply("event 43"), 0)["yoki"] == [2, 1]
    s = pos(BA, p0=dict(base, hand=[47]), p1={"unseen": [1, 2]})
    d = P(s.apply("event 47"), 0)
    assert d["yoki"] == [1, 3] and d["deck_size"] == 2


def test_events_banish_and_rest():
    """TK-Q2: Purification (おはらい) trashes an opposing yokai of rank ≤ D; Lullaby (こもりうた) rests a blocker."""
    p1 = {"unseen": [1, 2], "front": [y(3)], "back": [y(2), y(11)]}
    s = pos(BA, p0={"hand": [46, 48], "unseen": [6, 7]}, p1=p1)
    acts = s.legal_actions()
    assert "event 46 oB1" in acts and "event 46 oF1" not in acts  # Rosoku-nyudo is rank C
    assert "event 48 oB1" in acts and "event 48 oB2" in acts and "event 48 oF1" not in acts  # blockers only
    d = P(s.apply("event 46 oB1"), 1)
    assert d["back"] == [y(11)] and trashed(s, s.apply("event 46 oB1"), 1) == 1
    d = P(s.apply("event 48 oB1"), 1)
    assert d["back"] == [y(2, rested=1), y(11)]


def test_event_bp_up_counts_in_battle():
    """TK-Q2, TK-21: Cheering +20 until end of turn is a modifier of the duel."""
    s = pos(p0={"hand": [44], "unseen": [1, 2], "front": [y(1)]}, p1={"unseen": [7, 7], "back": [y(6)]})
    start = s
    s = run(s, "event 44 F1", "attack F1 m1", "block B1 m1", "pass")
    rep = s.battle_report()
    assert rep.attacker.total == 50 and rep.attacker.modifiers == [("event until end of turn", 20)]
    t = s.apply("pass")
    # no attacker left: the turn ended (TK-15) and the +20 with it
    assert trashed(start, t, 1) == 1 and t.turn_player == 1 and P(t, 0)["front"] == [y(1, rested=1)]


# -- hidden information and solving (TK-Q6) ------------------------------------------------
def test_hidden_hands_and_open_hands():
    """TK-Q6: the opponent's hand is hidden (only its size); open_hands shows it."""
    s = GAME.new_initial_state(seed=3)
    o = s.observation(0)
    assert "hand" in o["players"][0] and "hand" not in o["players"][1]
    assert o["players"][1]["hand_size"] == 5
    assert not GAME.spec.perfect_information and OPEN.spec.perfect_information
    t = OPEN.new_initial_state(seed=3)
    assert t.observation(0)["players"][1]["hand"] == P(t, 1)["hand"]
    assert t.redeal(0, 1) is t


def test_known_deck_order_option():
    """TK-Q6: known_deck_order lays the deck order out by chance once; later draws need no chance."""
    g = cardlab.load("toritsuki", known_deck_order=True, open_hands=True, mulligan=False, first_player=0)
    s = g.new_initial_state()
    assert s.stage == "shuffle" and len(s.chance_outcomes()) == len(g.kinds[0])
    s = g.new_initial_state(seed=2)
    d = P(s, 1)
    assert len(d["deck_top"]) == 25 and d["deck_size"] == 25 and d["unseen"] == []
    top = d["deck_top"][0]
    s = s.apply("end")  # player 1's turn: the draw is the known top card, no chance node
    assert s.current_player == 1 and top in P(s, 1)["hand"] and P(s, 1)["deck_size"] == 23


def endgame(game=OPEN):
    """Player 0 to attack; player 1 has 5 damage; a block, possessions and a one-card deck decide."""
    return pos(game, p0={"hand": [2], "unseen": [1, 3], "front": [y(3), y(1)], "yoki": [1, 0]},
               p1={"hand": [6], "unseen": [7, 8], "back": [y(16)], "damage": [5, 0]})


def test_endgame_solved_exactly():
    """TK-Q6: an endgame with open hands is solved exactly (expectiminimax over the deck draws)."""
    s = endgame()
    sol = cardlab.solve(s, progress=False)
    assert sol.value == cardlab.minimax(s).value
    assert sol.value == 1  # two attackers against one blocker at 5 damage: player 0 wins
    # the same with known deck order: no chance left
    k = cardlab.load("toritsuki", open_hands=True, known_deck_order=True)
    d = endgame().to_dict()
    d["options"] = k.options_dict()
    for p, deck in zip(d["players"], ([1, 3], [7, 8])):  # the decks, without player 0's face-down yoki
        p["deck_top"], p["unseen"] = deck, []
    t = k.state_from_dict(d)
    assert cardlab.solve(t, progress=False).value == 1


# -- protocol details ------------------------------------------------------------------
def test_current_player_is_the_deciding_player():
    """TK-17, TK-19: block and the defender's possession are the defender's decisions."""
    s = pos(p0={"unseen": [2, 2], "front": [y(3)]}, p1={"unseen": [7, 7], "back": [y(6)]})
    seen = []
    for a in ("attack F1 m1", "block B1 m1", "pass", "pass"):
        seen.append((s.stage, s.current_player))
        s = s.apply(a)
    assert seen == [("main", 0), ("block", 1), ("possess_a", 0), ("possess_d", 1)]


def test_bad_positions_are_refused_naming_the_field():
    """Bad input (TK-13 rows of 3, TK-1 copies) is refused with the field named."""
    d = pos().to_dict()
    bad = json.loads(json.dumps(d))
    bad["players"][0]["front"] = [y(1), y(2), y(3), y(4)]
    with pytest.raises(PositionError, match=r"players\[0\].front must be a list of at most 3"):
        GAME.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["players"][0]["hand"] = [1, 1]  # with unseen [1, 1, 2]: four Hibana-kozo
    with pytest.raises(PositionError, match="card 1 4 times"):
        GAME.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["players"][1]["hand"] = [1]
    with pytest.raises(PositionError, match=r"players\[1\].hand must be a list of card numbers"):
        GAME.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["stage"] = "possess_a"
    with pytest.raises(PositionError, match="needs a battle"):
        GAME.state_from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["players"][0]["deck_size"] = 9
    with pytest.raises(PositionError, match="deck_size"):
        GAME.state_from_dict(bad)


def test_illegal_action_changes_nothing():
    s = pos(p0={"hand": [5], "unseen": [1, 2]})
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="(?i)legal: "):
        s.apply("summon 5 F")
    assert s.to_dict() == before


def test_explain_names_rules_and_text_board():
    """TK-13, TK-16, TK-18, TK-19: explain() cites the rule; str() uses the Japanese terms."""
    s = pos(p0={"hand": [1], "unseen": [2, 2], "front": [y(3)]}, p1={"unseen": [7, 7], "back": [y(6)]})
    assert "TK-13" in s.explain("summon 1 F") and "召喚" in s.explain("summon 1 F")
    assert "TK-16" in s.explain("attack F1 m1")
    t = s.apply("attack F1 m1")
    assert "TK-18" in t.explain("noblock") and "TK-17" in t.explain("block B1 m1")
    text = str(t)
    for word in ("前衛", "後衛", "手札", "妖気", "ダメージ", "トラッシュ", "山札"):
        assert word in text
    u = t.apply("block B1 m1")
    assert "BP勝負" in str(u) and "TK-19" in u.explain("possess deck")


def test_explain_names_the_moving_yokai_and_the_event_effect():
    """TK-13, TK-27, TK-24, TK-Q2: a move names each yokai that changes
    rows and where it goes (not a slot); an event says what it does and to
    which yokai (Lullaby こもりうた: rests a ready yokai of the opponent's
    back row, which then cannot block), never a bare ``rest 0``."""
    s = pos(p0={"hand": [44], "unseen": [2, 2], "front": [y(1), y(3)], "back": [y(11)]})
    line = s.explain("move F1 B1")
    assert ("moves Hibana-kozo (ひばなこぞう) #1 from the front row (前衛) to the back row (後衛) and "
            "Kazaguruma (かざぐるま) #11 from the back row (後衛) to the front row (前衛)") in line
    assert "F1" not in line and "TK-13" in line
    line = s.explain("event 44 F2")
    assert "+20 BP" in line and "Rosoku-nyudo (ろうそくにゅうどう) #3" in line and "bp_up" not in line
    s = pos(BA, p0={"hand": [48, 46], "unseen": [6, 7]}, p1={"unseen": [1, 2], "back": [y(2)], "front": [y(1)]})
    line = s.explain("event 48 oB1")
    assert "rest" in line and "Kamado-baba (かまどばば) #2" in line and "cannot block" in line
    assert "rest 0" not in line and "TK-Q2" in line
    assert "Hibana-kozo (ひばなこぞう) #1" in s.explain("event 46 oF1") and "rank D or lower" in s.explain("event 46 oF1")
    for c in GAME.cards.values():  # every event kind has its text
        if not c.is_yokai:
            kind, value = c.effect
            text = c.effect_text()
            assert text != f"{kind} {value}" and "_" not in text and len(text) > 15, text


def test_max_game_length_holds_on_long_games():
    """The declared bound holds with the longest random games we can find (TK-7 ends them)."""
    longest = 0
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.new_initial_state()
        n = 0
        while not s.is_terminal():
            s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
            n += 1
        longest = max(longest, n)
    assert longest <= GAME.spec.max_game_length


def test_random_playouts_are_fast():
    """200 random games (no checks) take well under the conformance budget."""
    t = time.perf_counter()
    for seed in range(200):
        rng = random.Random(seed)
        s = GAME.new_initial_state()
        while s.current_player != TERMINAL:
            s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert time.perf_counter() - t < 30


# -- perft and reference data, checked by hand -------------------------------------------
DATA = __import__("pathlib").Path(__file__).parents[2] / "data"


def _entry(kind, name):
    return next(e for e in json.loads((DATA / kind / "toritsuki.json").read_text("utf-8")) if e["name"] == name)


def test_perft_smallest_counts_by_hand():
    """TK-2, TK-18, TK-19, TK-Q7: the smallest perft counts reasoned by hand.

    The deal (TK-2) draws for player 0 from deck A: 18 card numbers, 8 of them
    single copies.  After a first card with 2-3 copies 18 numbers remain, after
    a single 17: 10·18 + 8·17 = 316 paths of depth 2.  In the defender's
    possession position (with the icon file, TK-Q7): ``pass`` (the pierce win
    then takes 1 damage from 5 different cards) or ``possess deck`` (5
    different cards revealed): 10.  With the default cards the pierce is
    gone: ``pass`` ends the attack without damage, and the turn (nothing
    left to attack with) passes to player 1, whose draw has 5 outcomes: 10
    again, along other paths.
    """
    lst = GAME.deck_lists[0]
    kinds = sorted(set(lst))
    singles = [no for no in kinds if lst.count(no) == 1]
    assert (len(kinds), len(singles)) == (18, 8)
    assert len(GAME.new_initial_state().chance_outcomes()) == 18
    assert _entry("perft", "root-deal")["count"] == 10 * 18 + 8 * 17
    e = _entry("perft", "defender-possession")
    s = cardlab.load("toritsuki", **e["options"]).state_from_dict(e["position"])
    assert s.legal_actions() == ["pass", "possess deck"]
    assert [len(s.apply(a).chance_outcomes()) for a in s.legal_actions()] == [5, 5]
    assert e["count"] == 10 and e["depth"] == 2
    assert e["options"] == {"open_hands": True, "cards": "icons"}
    d = _entry("perft", "defender-possession-default")
    assert d["position"] == dict(e["position"], options={"open_hands": True}) and d["count"] == 10
    s = OPEN.state_from_dict(d["position"])
    assert s.apply("pass").stage == "draw" and len(s.apply("pass").chance_outcomes()) == 5


def test_perft_moves_and_boosts_first_layer_by_hand():
    """TK-13, TK-Q8, TK-16: the first layer of ``main-moves-and-boosts``:
    four yokai (two a row) have 2⁴ arrangements, less the two with 4 in a
    row and the current one: 13 moves; Kamado-baba (cost 1) into either row,
    with the yoki or a boost: 4 summons; two attackers, each m1 (free) and
    m2 (cost 1, with the yoki or a boost): 6 attacks; and end: 24."""
    e = _entry("perft", "main-moves-and-boosts")
    s = OPEN.state_from_dict(e["position"])
    acts = s.legal_actions()
    kinds = Counter(a.split()[0] for a in acts)
    assert kinds == {"move": 13, "summon": 4, "attack": 6, "end": 1} and len(acts) == 24


def test_reference_value_by_hand():
    """TK-19, TK-21, TK-6, TK-7, TK-Q7, TK-12: the reference value 1/3, worked out by hand
    with the icon file (pierce is an exception to TK-21).

    Noroshi-maru attacks with Great Bonfire (100, pierce) possessed by
    Hibana-kozo (+20): 120.  Player 1 blocks with Nagisa-no-kami's 100 and has
    5 damage.  Passing loses at once (120 > 100, pierce: the 6th damage).
    Player 1's unseen pool is the deck (6, 7, 8, 16, 17) and the face-down yoki
    charged from it, here a second Mizutama (TK-12, J): the top card is any of
    these six.  Only Mizutama (6, Slippery) possesses the Slippery
    blocker: 120 = 120, both faint, no pierce, and player 0 then loses at the
    next turn's draw from a one-card deck (TK-7); the other 4 cards miss and
    player 0 wins.  min(1, 2/6·(−1) + 4/6·1) = 1/3.  With the deck order known
    and 6 on top the reveal always ties: −1.
    """
    e = _entry("reference", "pierce-hangs-on-the-defenders-reveal")
    s = cardlab.load("toritsuki", **e["options"]).state_from_dict(e["position"])
    assert cardlab.solve(s, progress=False).value == Fraction(1, 3) == Fraction(e["value"])
    assert cardlab.solve(s.apply("pass"), progress=False).value == 1
    e = _entry("reference", "known-order-reveal-ties")
    k = cardlab.load("toritsuki", **e["options"])
    assert cardlab.solve(k.state_from_dict(e["position"]), progress=False).value == -1 == Fraction(e["value"])
    # with the default cards (no pierce) passing wins no damage: player 0 then loses at its next
    # draw from a one-card deck (TK-7), whatever player 1 does: -1
    d = _entry("reference", "no-pierce-the-deck-decides")
    assert d["position"] == dict(e_pierce_position(), options={"open_hands": True})
    assert cardlab.solve(OPEN.state_from_dict(d["position"]), progress=False).value == -1 == Fraction(d["value"])


def test_reference_rearrange_to_attack_twice_by_hand():
    """TK-13, TK-14, TK-18, TK-7: player 1 has 5 damage and one blocker;
    player 0 (Hibana-kozo in front, Kazaguruma behind) loses at its next
    draw from a one-card deck.  Only bringing Kazaguruma forward (``move
    B1``) gives two attacks: one is blocked, the other is the 6th damage.
    Every other move loses."""
    e = _entry("reference", "rearrange-to-attack-twice")
    s = OPEN.state_from_dict(e["position"])
    values = {r["action"]: r["value"] for r in cardlab.analyse(s, progress=False).rows}
    assert values == {"move F1": -1, "move B1": 1, "move F1 B1": -1, "attack F1 m1": -1, "end": -1}
    assert Fraction(e["value"]) == 1


def e_pierce_position():
    return _entry("reference", "pierce-hangs-on-the-defenders-reveal")["position"]


def test_position_round_trip_canonical_and_checked():
    """TK-27: an unsorted hand or row in a hand-written position comes back canonical; edits are checked."""
    s = pos(p0={"hand": [2, 1], "unseen": [1, 3], "front": [y(3), y(1)]})
    d = s.to_dict()
    assert d["players"][0]["hand"] == [1, 2] and d["players"][0]["front"] == [y(1), y(3)]
    assert GAME.state_from_dict(json.loads(json.dumps(d))) == s
    d["players"][0]["hand"] = [2, 1, 1]  # with the front one and the unseen one: four Hibana-kozo
    with pytest.raises(PositionError, match="card 1 4 times"):
        GAME.state_from_dict(d)


def test_heuristic_sees_only_own_information():
    """TK-Q6: the heuristic of a player does not change when hidden cards are re-dealt."""
    s = GAME.new_initial_state(seed=8)
    for seed in range(5):
        assert s.redeal(0, seed).heuristic(0) == s.heuristic(0)
    hurt = pos(p0={"unseen": [1, 2], "damage": [3, 0]})
    assert hurt.heuristic(0) < pos().heuristic(0)


def test_every_action_is_explained_with_a_rule():
    """TK-9 … TK-22: explain() names a rule for every action and chance outcome met in 20 random games."""
    g = cardlab.load("toritsuki", known_deck_order=True)
    for game in (GAME, g):
        for seed in range(10):
            rng = random.Random(seed)
            s = game.new_initial_state()
            while not s.is_terminal():
                acts = [a for a, _ in s.chance_outcomes()] if s.current_player == CHANCE else s.legal_actions()
                for a in acts:
                    line = s.explain(a)
                    assert "TK-" in line and "\n" not in line, (a, line)
                s = s._apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(acts))


# -- J: every loadable position is one the rules can reach ------------------------------
def main_dict(**kw):
    return pos(p0={"hand": [1, 2], "unseen": [1, 3, 3], "front": [y(4)], "yoki": [1, 0]},
               p1={"hand": [6], "unseen": [7, 8], "back": [y(16)], "damage": [2, 1]}, as_dict=True, **kw)


def refused(d, match, game=GAME):
    """``d`` is refused with a one-line PositionError matching ``match``, and left as it was."""
    before = json.dumps(d, sort_keys=True)
    with pytest.raises(PositionError, match=match) as exc:
        game.state_from_dict(d)
    assert "\n" not in str(exc.value) and len(str(exc.value)) < 400
    assert json.dumps(d, sort_keys=True) == before


def edited(d, f):
    d = json.loads(json.dumps(d))
    f(d)
    return d


def test_J_card_totals_add_up_to_the_decks():
    """J, TK-1, TK-29, TK-12: the cards of hand, deck, yoki, field, damage,
    trash and battle add up to the player's deck; the unseen pool is the deck
    and the face-down yoki charged from it.  A card removed from a hand, 20
    more in the trash, an unseen card too many or too few are refused."""
    d = main_dict()
    assert GAME.state_from_dict(d).to_dict()["players"][0]["trash"] == 30 - 2 - 3 - 1 - 1
    refused(edited(d, lambda d: d["players"][0].update(hand=[1])), r"players\[0\].* 29 cards.* 30")
    refused(edited(d, lambda d: d["players"][1].update(trash=d["players"][1]["trash"] + 20)),
            r"players\[1\].trash must be a count 0-30, got 43")
    refused(edited(d, lambda d: d["players"][1].update(trash=d["players"][1]["trash"] + 1)),
            r"players\[1\] has 31 cards.* 30")
    refused(edited(d, lambda d: d["players"][0].update(unseen=[1, 2, 3, 3, 5])), r"players\[0\].unseen")
    refused(edited(d, lambda d: d["players"][0].update(unseen=[3, 3])), r"players\[0\].deck_size")


def test_J_six_damage_is_over():
    """J, TK-6: a position where a player has 6 damage is over, with the
    other player the winner; one where nobody has lost is not over."""
    refused(edited(main_dict(), lambda d: d["players"][1].update(damage=[5, 3], trash=d["players"][1]["trash"] - 5)),
            "TK-6")
    six = edited(main_dict(), lambda d: d["players"][1].update(damage=[5, 1], trash=d["players"][1]["trash"] - 3))
    refused(six, "TK-6")
    over = dict(six, stage="over", winner=0)
    s = GAME.state_from_dict(over)
    assert s.is_terminal() and s.returns() == [1, -1]
    refused(dict(over, winner=1), "winner")  # the winner cannot have 6 damage
    refused(dict(main_dict(), stage="over", winner=0), "winner")  # nobody has lost (TK-6, TK-7, TK-8)


def test_J_empty_deck_is_over():
    """J, TK-7, TK-Q4: a deck of 0 cards ends the game at that instant, so a
    draw (or any other stage) from an empty deck is refused, not a chance
    node with no outcomes nor a negative deck."""
    d = main_dict(stage="draw", tp=1)
    d["players"][1].update(deck_size=0, yoki=[2, 0], unseen=[7, 8], trash=d["players"][1]["trash"])
    refused(d, "TK-7")
    d["players"][1].update(unseen=[], yoki=[0, 0], trash=d["players"][1]["trash"] + 2)
    refused(d, "TK-7")
    out = edited(d, lambda d: d.update(stage="over", winner=0))
    assert GAME.state_from_dict(out).returns() == [1, -1]


def test_J_types_are_exact():
    """J, TK-Q6: a card number, a player, a flag is an int, never a bool:
    ``deck_top: [true]`` would have made the action ``summon True B``."""
    known = cardlab.load("toritsuki", known_deck_order=True, open_hands=True)
    m = cardlab.Match(known, ["random", "random"], seed=4)
    for _ in range(40):
        m.step()
    d = m.state.to_dict()
    assert known.state_from_dict(d) == m.state
    refused(edited(d, lambda d: d["players"][0]["deck_top"].__setitem__(0, True)), r"deck_top", known)
    d = main_dict()
    refused(dict(d, turn_player=True), "turn_player")
    refused(dict(d, first_player=True), "first_player")
    refused(edited(d, lambda d: d["players"][0]["front"][0].__setitem__(1, False)), r"players\[0\].front")
    refused(edited(d, lambda d: d["players"][0].update(hand=[True, 2])), r"players\[0\].hand")
    refused(edited(d, lambda d: d["players"][0].update(yoki=[True, 0])), r"players\[0\].yoki")
    refused(edited(d, lambda d: d["players"][0].update(unseen=list(range(3000)))), r"players\[0\].unseen")
    played = m.state.to_dict()  # a position the game wrote: nothing may be added to it either
    refused(edited(played, lambda d: d["players"][1].update(extra=1)), r"players\[1\]", known)
    refused(edited(played, lambda d: d["players"][1]["yoki"].append(0)), r"players\[1\].yoki", known)
    refused(edited(played, lambda d: d["players"][1]["front"].append([[1]])), r"players\[1\].front", known)


def test_J_stage_invariants():
    """J, TK-2, TK-3, TK-5, TK-14, TK-18, TK-19, TK-Q2, TK-Q3, TK-Q6: what each stage needs."""
    d = main_dict()
    refused(dict(d, stage="draw", event_used=True), "event")  # the draw comes before the main phase
    refused(dict(d, first_turn=True, turn_player=1), "TK-5")  # only the first player's first turn
    refused(dict(d, stage="battle", first_turn=True), "TK-5")  # no battle on it
    refused(dict(d, stage="mulligan", first_player=None), "TK-3")  # setup stages: nothing on the field yet
    refused(dict(d, stage="coin", first_player=None), "TK-2")
    refused(dict(d, first_player=None), "first_player")  # after the coin, somebody is first
    refused(dict(d, stage="evdraw", pending=0), "event")  # an event's draw follows an event
    refused(edited(d, lambda d: d["players"][1]["back"][0].__setitem__(3, 20)), "TK-Q2")  # +BP is the mover's
    refused(edited(d, lambda d: d["players"][1]["back"][0].__setitem__(2, 1)), "moved")  # only in a main phase
    refused(edited(d, lambda d: d["players"][0]["front"][0].__setitem__(3, 20)), "TK-Q2")  # no event used
    refused(edited(d, lambda d: d["players"][0]["front"][0].__setitem__(1, 1)), "TK-10")  # refreshed, TK-16
    assert GAME.state_from_dict(dict(d, stage="battle")).legal_actions()[-1] == "end"  # after an attack
    refused(edited(d, lambda d: d.update(stage="battle") or d["players"][0]["front"][0].__setitem__(1, 1)),
            "TK-14")  # no ready attacker is left: the battle stage would have been skipped
    refused(edited(d, lambda d: d["players"][0].update(deck_top=[3], unseen=[1, 3])), "TK-Q6")
    fixed = cardlab.load("toritsuki", first_player=0)
    s = fixed.new_initial_state(seed=1)
    refused(dict(s.to_dict(), first_player=1), "first_player", fixed)
    deal = GAME.new_initial_state()
    refused(edited(deal.to_dict(), lambda d: d["players"][1].update(hand=[6], unseen=d["players"][1]["unseen"][1:], deck_size=29)),
            "TK-2")
    nomull = cardlab.load("toritsuki", mulligan=False)
    m = cardlab.Match(GAME, ["random", "random"], seed=1)
    while m.state.stage != "mulligan":
        m.step()
    refused(dict(m.state.to_dict(), options=nomull.options_dict()), "TK-3", nomull)


def test_J_battle_invariants():
    """J, TK-17, TK-18, TK-19, TK-21: a battle in progress is one an attack makes."""
    b = pos(stage="possess_a", battle=battle(3, 1, 16, 1), as_dict=True,
            p0={"hand": [1], "unseen": [2, 2], "front": [y(1)]}, p1={"unseen": [6, 7], "back": [y(18)]})
    assert GAME.state_from_dict(b).legal_actions() == ["pass", "possess deck", "possess 1"]
    d = dict(b, stage="possess_d")
    d["battle"] = dict(b["battle"], attacker_possession=1)
    d["players"] = [dict(b["players"][0], hand=[]), b["players"][1]]
    assert GAME.state_from_dict(d).current_player == 1
    refused(dict(d, battle=dict(d["battle"], attacker_possession=11)), "TK-19")  # 11 does not fit on 3
    refused(edited(b, lambda d: d["battle"].update(blocker_possession=6) or d["players"][1].update(
        trash=d["players"][1]["trash"] - 1)), "TK-19")  # the duel follows at once
    refused(dict(b, battle=dict(b["battle"], blocker_bonus=20)), "TK-Q2")
    refused(dict(b, battle=dict(b["battle"], attacker_bonus=20)), "TK-Q2")  # no event used this turn
    refused(edited(b, lambda d: d["players"][0].update(front=[y(1), y(5), y(12)], trash=d["players"][0]["trash"] - 2)),
            "front")  # the attacker left a front row of 3: at most 2 remain
    blk = pos(stage="block", battle=battle(3, 1), as_dict=True, p0={"unseen": [2, 2]}, p1={"unseen": [6, 7]})
    refused(blk, "TK-18")  # nothing can block: no block stage


def test_J_positions_of_play_load_with_full_checks():
    """J: every position the engine reaches (by play under each option, and
    the arrangements ``redeal`` deals) loads in a fresh game, whose
    ``state_from_dict`` checks it fully, as the same position."""
    variants = [{}, {"known_deck_order": True}, {"open_hands": True, "mulligan": False},
                {"move_once_per_turn": True, "cards": "icons"}, {"first_player": 1, "decks": ["B", "A"]}]
    for opts in variants:
        for seed in range(3):
            m = cardlab.Match(cardlab.load("toritsuki", **opts), ["random", "random"], seed=seed)
            m.play_to_end()
            fresh = cardlab.load("toritsuki", **opts)  # nothing known: every check runs
            for s in list(m.states) + [s.redeal(0, 5) for s in m.states[::7]]:
                assert fresh.state_from_dict(json.loads(json.dumps(s.to_dict()))) == s


def test_J_check_deck_is_linear():
    """J, TK-1: a deck of 27,000 cards is checked in well under a second."""
    from cardlab.games.toritsuki import check_deck
    cards = {no: GAME.cards[1] for no in range(1, 9001)}
    lst = [no for no in range(1, 9001) for _ in range(3)]
    t = time.perf_counter()
    assert len(check_deck(lst, cards, "big")) == 27000
    assert time.perf_counter() - t < 1.0
    with pytest.raises(CardFileError, match="card 7 .* 4 times"):
        check_deck(lst + [7], cards, "big")


def test_J_card_file_fields_are_type_checked(tmp_path):
    """J, TK-Q1, TK-1: a list or number where a name belongs is a CardFileError naming file and field."""
    data = json.loads((Path(cardlab.__file__).parent / "data" / "toritsuki.json").read_text("utf-8"))
    bad = json.loads(json.dumps(data))
    bad["tribes"][0]["japanese"] = ["x"]
    with pytest.raises(CardFileError, match="tribes"):
        load_cards(bad)
    bad = json.loads(json.dumps(data))
    bad["name"] = ["x"]
    with pytest.raises(CardFileError, match="name"):
        load_cards(bad)
    bad = json.loads(json.dumps(data))
    bad["cards"][3]["methods"][0]["japanese"] = 5
    with pytest.raises(CardFileError, match=r"methods\[0\]"):
        load_cards(bad)
    deck_file = tmp_path / "decks.json"
    deck_file.write_text(json.dumps({"decks": ["A", 5]}))
    with pytest.raises(CardFileError, match="deck of player 1"):
        cardlab.load("toritsuki", decks=str(deck_file))


def test_J_unseen_pool_is_exactly_deck_and_face_down_yoki_TK_12():
    """J, TK-12, TK-25, TK-Q6: yoki are charged face down from the deck top and never leave the
    yoki zone, and nobody looks at them: the unseen pool is exactly the unknown deck and the
    face-down yoki (with a known deck order, TK-Q6, charges take known cards: the unknown deck
    only).  A pool missing a yoki's card (or one card of it dropped), or one card too many, is
    refused; the positions of play load (test_J_positions_of_play_load_with_full_checks)."""
    d = main_dict()  # player 0: deck of 3 and 1 face-down yoki, so a pool of 4
    assert len(d["players"][0]["unseen"]) == 4 and GAME.state_from_dict(d)
    refused(edited(d, lambda d: d["players"][0]["unseen"].pop()), r"players\[0\].unseen holds 3 .*TK-12")
    refused(edited(d, lambda d: d["players"][0].update(yoki=[2, 0], trash=d["players"][0]["trash"] - 1)),
            r"players\[0\].unseen holds 4 cards: it is exactly the 3 unknown cards .* 2 face-down yoki")
    m = cardlab.Match(GAME, ["random", "random"], seed=4)
    for _ in range(40):
        m.step()
    live = m.state.to_dict()
    assert sum(live["players"][0]["yoki"]) > 0
    refused(edited(live, lambda d: d["players"][0]["unseen"].pop(0)), r"players\[0\].unseen .*TK-12")


def test_J_the_defenders_back_row_rests_only_by_blocking_TK_17_TK_10():
    """J, TK-17, TK-10, TK-24: the defender's back-row yokai rest only by blocking (TK-17) in
    this turn (they were refreshed at their own turn's start, TK-10, and a rested attacker stays
    in the front row), or by a Lullaby event (こもりうた, one event a main phase, TK-24): before
    the battle, with no event used, none of them rests; after one event, at most one, and only
    if the turn player's deck holds the resting event."""
    rested = {"unseen": [6, 7], "back": [y(6), y(16, rested=1)], "front": [y(21)]}
    refused(pos(p0={"unseen": [2, 2], "front": [y(3)]}, p1=rested, as_dict=True), r"players\[1\].*TK-17")
    refused(pos(p0={"unseen": [2, 2], "front": [y(3)]}, p1=rested, stage="draw", as_dict=True), "TK-17")
    # deck A has no Lullaby: even after an event the back row cannot rest
    refused(pos(p0={"unseen": [2, 2], "front": [y(3)]}, p1=rested, event_used=True, as_dict=True), "TK-17")
    deck_b = cardlab.load("toritsuki", decks=["B", "A"])
    assert 48 in deck_b.deck_lists[0]
    lullaby = pos(deck_b, p0={"unseen": [6, 7], "front": [y(21)]},
                  p1={"unseen": [2, 2], "back": [y(3), y(4, rested=1)]}, event_used=True)
    assert lullaby.stage == "main"
    refused(pos(deck_b, p0={"unseen": [6, 7], "front": [y(21)]},
                p1={"unseen": [2, 2], "back": [y(3, rested=1), y(4, rested=1)]}, event_used=True, as_dict=True),
            game=deck_b, match="TK-17")


def test_J_TK_5_TK_12_TK_13_TK_25_first_turn_field_is_what_the_resting_yoki_paid():
    """J, TK-5, TK-12, TK-13, TK-25: the engine keeps no record of which cards were seen (hands
    and the unseen pool are multisets, damage and trash are counts), so a hand card exchanged
    with an unseen one is another deal (TK-2, TK-11) and is accepted.  What the position does
    record is the payment: on the first player's first turn (no draw, event or battle) the
    one charged yoki is all there is, and every yokai on the field was summoned this turn,
    so the resting yoki are its cost.  A field yokai exchanged with an unseen yokai of
    another cost is refused; with one of the same cost it is another deal."""
    m = cardlab.Match(GAME, ["random"] * 2, seed=0)
    m.play_to_end()
    d = next(s.to_dict() for s in m.states if s.to_dict()["first_turn"]
             and s.to_dict()["players"][s.to_dict()["turn_player"]]["front"])
    p = d["turn_player"]
    q = d["players"][p]
    assert q["front"] == [[17, 0, 0, 0]] and q["yoki"] == [0, 1] and GAME.cards[17].cost == 1

    def swapped(zone, i, new):
        e = json.loads(json.dumps(d))
        r = e["players"][p]
        old = r[zone][i][0] if zone == "front" else r[zone][i]
        if zone == "front":
            r[zone][i][0] = new
        else:
            r[zone][i] = new
        r["unseen"].remove(new)
        r["unseen"] = sorted(r["unseen"] + [old])
        return e

    other = next(c for c in q["unseen"] if c not in q["hand"])
    GAME.state_from_dict(swapped("hand", 0, other))  # another deal: reachable
    GAME.state_from_dict(swapped("front", 0, 7))  # cost 1 as well
    for cheap_or_dear in (6, 9):  # cost 0 and cost 2
        assert GAME.cards[cheap_or_dear].cost != 1
        refused(swapped("front", 0, cheap_or_dear), r"TK-13.*paid 1")
    e = json.loads(json.dumps(d))
    e["players"][p]["yoki"] = [1, 1]  # charged twice: a deck card more in the yoki (the pool holds both)
    e["players"][p]["deck_size"] -= 1
    refused(e, "charged one yoki.*TK-12")
