"""Mazemon (マゼモン) fair play: what each player may know of a move
(``MazemonState.public_action``), every position a player cannot tell apart
(``MazemonState.hidden`` with :func:`cardlab.hidden.arrangements`), and the
fair hint computed from them.  Each test cites its rule ids (MZ-n, MZ-Qn).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest
from leak import open_average, positions
from test_mazemon import pos

import cardlab
from cardlab import CHANCE, render
from cardlab.agents import open_hands_copy
from cardlab.hidden import arrangements, count_fillings


@pytest.fixture
def game():
    return cardlab.load("mazemon")


def names(game, cid: str) -> tuple[str, ...]:
    """Every way a text may name a card: its id, English and Japanese names."""
    c = game.card_set.cards[cid]
    return cid, c.name, c.japanese


def trash_node(game):
    s = game.new_initial_state().apply("janken 0")
    assert s.current_player == CHANCE and s.phase == "trash"
    return s


# -- what a viewer may know of a move (MZ-3, MZ-6, MZ-Q8) -------------------------------------
def test_MZ_6_charging_the_last_hand_card_is_not_named_to_the_opponent(game):
    """MZ-6, MZ-4 (regression: "Player 1 charges Spark Wren face down into
    mana" was shown to player 0 because it was player 1's last hand card):
    the charged card goes face down, so the opponent's log reads a charge of
    an unseen card, the same whichever card it was; its owner reads it all."""
    s = pos(game, {"battle": ["oak_giant"], "out": ["kagari_owl"]},
            {"hand": ["spark_wren"], "out": ["tide_whale"]}, phase="charge", turn=1, first=0)
    assert s.legal_actions() == ["charge spark_wren"]
    seen = render.seen_move(s, "charge spark_wren", 0)
    assert (seen.action, seen.hidden, seen.picture) == ("charge ??", True, "")
    assert seen.label == "Player 1 charges a card face down into mana (チャージ)"
    assert seen.line == "Player 1 charges a card face down into mana (チャージ). (MZ-6)"
    for word in names(game, "spark_wren"):
        assert word not in seen.line and word not in seen.label
    other = pos(game, {"battle": ["oak_giant"], "out": ["kagari_owl"]},
                {"hand": ["mist_jelly"], "out": ["tide_whale"]}, phase="charge", turn=1, first=0)
    assert render.seen_move(other, "charge mist_jelly", 0) == seen
    own = render.seen_move(s, "charge spark_wren", 1)
    assert not own.hidden and "Spark Wren" in own.line
    assert render.seen_move(s, "charge spark_wren", None).line == own.line


def test_MZ_3_MZ_Q8_the_trashed_pair_is_named_to_nobody(game):
    """MZ-3, MZ-Q8 (regression: the first player's trashed pair was printed):
    the two cards are set aside unseen (見ないで よけておく), by the first
    player too; both players read the same line for every pair."""
    s = trash_node(game)
    outcomes = [a for a, _ in s.chance_outcomes()]
    assert len(outcomes) == 45
    for v in (0, 1):
        lines = {render.seen_move(s, a, v) for a in outcomes}
        assert len(lines) == 1
        (seen,) = lines
        assert (seen.action, seen.hidden) == ("trash ??", True)
        assert seen.line == (f"Player {s.turn} sets aside two cards unseen (トラッシュ); neither player may look "
                             "at them. (MZ-3, MZ-Q8)")
        assert not any(w in seen.line for cid in game.ids[0] for w in names(game, cid))
    assert render.seen_move(s, outcomes[0], None).line == render.with_rules(*render.split_rules(s.explain(outcomes[0])))


def test_MZ_4_MZ_22_every_other_move_is_public(game):
    """MZ-4, MZ-7, MZ-8, MZ-19, MZ-22, MZ-2: summons, attacks, substitutes,
    the card a direct attack takes (it lies open among the captured cards),
    janken and 'end' are seen by both players; only a charge (by the
    opponent) and the trash are not.  With open hands (MZ-Q8) every move is
    public."""
    hidden_kinds: set[tuple[str, bool]] = set()
    public_kinds: set[str] = set()
    opened = cardlab.load("mazemon", open_hands=True)
    for s, a in positions(game, range(8), agents=("random", "heuristic")):
        verb = a.split()[0]
        for v in (0, 1):
            public = s.public_action(a, v)
            if public == a:
                public_kinds.add(verb)
            else:
                assert public == f"{verb} ??"
                hidden_kinds.add((verb, v == s.current_player))
        assert open_hands_copy(s).public_action(a, 0) == a
    assert hidden_kinds == {("charge", False), ("trash", False)}
    assert {"janken", "charge", "summon", "attack", "direct", "steal", "end", "decline"} <= public_kinds
    assert opened.new_initial_state().apply("janken 0").public_action("trash kagari_owl+petal_fox", 1) == \
        "trash kagari_owl+petal_fox"


# -- every position a player cannot tell apart (MZ-4, MZ-Q8) ---------------------------------
def late_positions(game, seeds, limit=40):
    for s, _ in positions(game, seeds):
        if not s.is_terminal() and all(count_fillings(s, v, limit) is not None for v in (0, 1)):
            yield s


def test_MZ_Q8_arrangements_are_the_redeals(game):
    """MZ-4, MZ-Q8: the opponent's hand, mana and trash are what a player
    cannot see; the arrangements of late positions hold the true position,
    each with the player's information set and once, their probabilities
    add up to 1, and they are exactly the positions ``redeal`` gives (every
    hand of the right size from the opponent's cards in neither battle zone
    nor ``out``)."""
    rng = random.Random(5)
    checked = 0
    for s in late_positions(game, range(10)):
        for v in (0, 1):
            arr = arrangements(s, v, limit=10_000)
            states = {t for t, _ in arr}
            assert s in states and len(states) == len(arr)
            assert sum(w for _, w in arr) == 1
            assert all(t.information_set(v) == s.information_set(v) for t in states)
            redeals = {s.redeal(v, rng) for _ in range(40 * len(arr))}
            assert redeals == states
            checked += len(arr) > 1
    assert checked > 20


def test_MZ_9_a_hand_that_would_have_ended_the_turn_is_no_arrangement(game):
    """MZ-9 (a turn with nothing left to do but 'end' ends by itself): player
    1 is still in its summon phase with 1 untapped mana and no monster, so
    its hand holds a card of cost 1; player 0 cannot see which two of Mist
    Jelly (cost 1), Tide Whale, Coral Knight, Ink Squid, Vine Serpent and Flare
    Whale (cost 2 or 3) it holds, but only the five hands with Mist Jelly are
    possible.  (Four turns each, J: player 1's two cards out of play that player
    0 did not capture are substitutes knocked out on player 0's turns, MZ-19, MZ-20.)"""
    s = pos(game, {"hand": ["petal_fox"], "battle": ["oak_giant"], "out": ["kagari_owl", "ember_boar"],
                   "captured": 2},
            {"hand": ["mist_jelly", "tide_whale"], "untapped": 1, "captured": 2,
             "out": ["river_otter", "moss_tortoise", "clover_bell", "spark_wren"]},
            turn=1, first=0, acted=True)
    assert (s.mana(0)[0], s.mana(1)[0]) == (4, 4)
    assert s.legal_actions() == ["summon mist_jelly", "end"]
    h = s.hidden(0)
    assert sorted(h.cards) == ["coral_knight", "flare_whale", "ink_squid", "mist_jelly", "tide_whale",
                               "vine_serpent"]
    assert h.places == (("opponent hand", 2), ("opponent mana and trash", 4))
    arr = arrangements(s, 0)
    assert {frozenset(t.hand(1)) for t, _ in arr} == {
        frozenset({"mist_jelly", c}) for c in ("tide_whale", "coral_knight", "ink_squid", "vine_serpent",
                                               "flare_whale")}
    assert all(w == Fraction(1, 5) for _, w in arr)
    assert {s.redeal(0, seed) for seed in range(100)} == {t for t, _ in arr}
    # not the mover: any one of player 0's seven unseen cards (hand 1, trash 2, mana 4: as many as
    # player 1's turns, MZ-6, J)
    assert len(arrangements(s, 1)) == 7


# -- the fair hint (MZ-Q8) ---------------------------------------------------------------
def hint_position(game, hand1):
    """Player 0 to move, its Oak Giant against player 1's Coral Knight;
    player 1 holds two of Spark Wren, Mist Jelly, Clover Bell, Flare Whale,
    Moss Tortoise and Vine Serpent (the other four are its mana).  Four turns
    of player 1 (J): one of its three cards out of play was captured, the other
    two are substitutes knocked out on player 0's turns (MZ-19, MZ-20)."""
    return pos(game, {"hand": ["petal_fox"], "battle": ["oak_giant"], "untapped": 2, "captured": 1,
                      "out": ["kagari_owl"]},
               {"hand": hand1, "battle": ["coral_knight"], "untapped": 1, "captured": 1,
                "out": ["tide_whale", "river_otter", "ink_squid"]},
               first=0, acted=True)


def brute_force_hint(s, p: int) -> dict[str, Fraction]:
    """Every order of the opponent's unseen cards (from the deck list and
    what ``p`` observes), the first ones dealt to the hand, each world solved
    with open hands and averaged with equal weight."""
    game, o = s.game, 1 - p
    seen = s.observation(p)["players"][o]
    shown = {m["card"] for m in seen["battle"]} | set(seen["out"])
    unseen = [c for c in game.ids[o] if c not in shown]
    worlds = []
    for order in permutations(unseen):
        d = s.to_dict()
        d["players"][o]["hand"] = list(order[:seen["hand"]])
        worlds.append((game.state_from_dict(d), 1))
    return open_average(s, p, worlds)


def test_MZ_Q8_fair_hint_is_the_average_over_what_player_0_cannot_see(game):
    """MZ-Q8 (hands hidden), MZ-8, MZ-12, MZ-13: the fair hint of a late
    position is the exact equal-weight average of the open-hands values over
    every hand player 1 may hold (15 hands, each from 24 orders of the cards),
    and two positions player 0 cannot tell apart get the same hint."""
    s = hint_position(game, ["spark_wren", "mist_jelly"])
    fair = cardlab.analyse(s, player=0)
    assert (fair.kind, fair.arrangements) == ("fair", 15)
    values = {r["action"]: r["value"] for r in fair.rows}
    assert values == brute_force_hint(s, 0)
    assert values == {"attack oak_giant coral_knight": Fraction(2, 5), "summon petal_fox": 1, "end": -1}
    twin = hint_position(game, ["clover_bell", "flare_whale"])
    assert twin != s and twin.information_set(0) == s.information_set(0)
    assert cardlab.analyse(twin, player=0).rows == fair.rows
