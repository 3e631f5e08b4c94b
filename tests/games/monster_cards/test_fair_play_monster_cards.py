"""MONSTER CARDS (モンスターカード) fair play: what each player may know of a
move (``MonsterCardsState.public_action``), every position a player cannot
tell apart (``MonsterCardsState.hidden`` with
:func:`cardlab.hidden.arrangements`), and the fair hint computed from them.
Each test cites its rule ids (MC-n, MC-Qn).
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import permutations, product

import pytest
from leak import open_average, positions
from test_monster_cards import P, pos

import cardlab
from cardlab import render
from cardlab.agents import open_hands_copy
from cardlab.hidden import arrangements, count_fillings


@pytest.fixture
def game():
    return cardlab.load("monster_cards")


def names(game, card: str) -> tuple[str, str]:
    """Both ways a text may name a card: its name and its Japanese name."""
    return card, game.card(card).japanese


# -- what a viewer may know of a move (MC-7, MC-8) ------------------------------------------------
def draw_node(game, hand1, deck1):
    """Player 1 draws its third card (MC-9) from ``deck1``; the ember attacker is player 0's."""
    return pos(game, [P(["ember_imp"] * 3, ["ash_hound"] * 3), P(hand1, deck1)], turn=1, phase="draw",
               attack=(0, "magma_wyrm"))


def test_MC_9_MC_8_another_players_draw_is_never_named(game):
    """MC-9, MC-8 (regression: "Player 1 draws tide_archer" was shown to the
    other players when the deck left one possible outcome): a drawn card goes
    into a hidden hand, so the others read a draw of an unseen card, the same
    for every deck they cannot tell apart; its owner reads it all."""
    s = draw_node(game, ["reef_crab", "kelp_sprite"], ["tide_archer", "tide_archer"])
    assert s.chance_outcomes() == [("draw tide_archer", 1)]
    seen = render.seen_move(s, "draw tide_archer", 0)
    assert (seen.action, seen.hidden, seen.label, seen.picture) == ("draw ??", True, "Player 1 draws a card (引く)", "")
    assert seen.line == "Player 1 draws a card (引く). (MC-9)"
    for word in names(game, "tide_archer"):
        assert word not in seen.line and word not in seen.label
    other = draw_node(game, ["tide_archer", "kelp_sprite"], ["reef_crab", "tide_archer"])
    assert other.information_set(0) == s.information_set(0) and len(other.chance_outcomes()) == 2
    assert {render.seen_move(other, a, 0) for a, _ in other.chance_outcomes()} == {seen}
    own = render.seen_move(s, "draw tide_archer", 1)
    assert not own.hidden and own.line == render.with_rules(*render.split_rules(s.explain("draw tide_archer")))
    assert "tide_archer" in own.line
    opened = open_hands_copy(s)
    assert not render.seen_move(opened, "draw tide_archer", 0).hidden  # open hands: all public


def test_MC_3_MC_8_damage_is_seen_by_the_damaged_player_only(game):
    """MC-3, MC-8, MC-4 (Ambush): damage moves the deck's top card to the
    graveyard, hidden from the others, the player who dealt it too; the
    damaged player sees the card."""
    s = pos(game, [P(["ember_imp"] * 2, ["ash_hound"] * 3), P(["reef_crab"], ["tide_archer"] * 2)],
            phase="mill", pending={"target": 1, "damage": 1, "then": "action"}, attack=(1, "storm_eel"))
    assert s.chance_outcomes() == [("mill tide_archer", 1)]
    seen = render.seen_move(s, "mill tide_archer", 0)
    assert (seen.action, seen.hidden) == ("mill ??", True)
    assert seen.line == ("Damage (ダメージ): the top card of player 1's deck goes to the graveyard (墓地). "
                         "(MC-3, MC-8)")
    assert not any(w in seen.line for w in names(game, "tide_archer"))
    assert render.visible(s, "mill tide_archer", 1)


def test_MC_7_MC_10_MC_11_every_player_action_is_public(game):
    """MC-7, MC-10, MC-11: every card a player plays goes face up to the
    attack, defence or GameChanger zone or to the ruins (跡地), seen by all;
    only draws (MC-9) and damage (MC-3) are hidden, from all but their owner.
    With open hands every move is public."""
    hidden: set[tuple[str, bool]] = set()
    public: set[str] = set()
    for s, a in positions(game, range(6), agents=("random", "heuristic")):
        verb = a.split()[0]
        owner = s.turn if verb == "draw" else s.to_dict()["pending"]["target"] if verb == "mill" else None
        for v in (0, 1):
            shown = s.public_action(a, v)
            if shown == a:
                public.add(verb)
            else:
                assert shown == f"{verb} ??"
                hidden.add((verb, v == owner))
        assert open_hands_copy(s).public_action(a, 1 - (owner or 0)) == a
    assert hidden == {("draw", False), ("mill", False)}
    assert {"defend", "attack", "discard", "gc", "draw", "mill"} <= public


def test_MC_19_MC_7_the_card_a_player_goes_out_with_stays_known(game):
    """MC-19, MC-7, MC-18 (found by the leak test): player 1 defends, fails
    and is out; the defending card stays in the ruins for everybody, so the
    positions after two different defences are not alike to player 0 and
    each defence is shown whole."""
    def before(hand1, deck1):
        return pos(game, [P(["ember_imp"] * 2, ["ash_hound"] * 3), P(hand1, deck1)],
                   turn=1, attack=(0, "infernal_lord"))
    s, t = before(["mist_wisp", "kelp_sprite"], ["reef_crab"]), before(["reef_crab", "kelp_sprite"], ["mist_wisp"])
    assert s.information_set(0) == t.information_set(0)
    u, w = s.apply("defend mist_wisp"), t.apply("defend reef_crab")
    assert u.is_terminal() and w.is_terminal() and u.information_set(0) != w.information_set(0)
    assert "mist_wisp" in u.observation(0)["players"][1]["ruins"]
    assert render.seen_move(s, "defend mist_wisp", 0).line == render.with_rules(
        *render.split_rules(s.explain("defend mist_wisp")))


# -- every position a player cannot tell apart (MC-8) ---------------------------------------------
def brute_force_worlds(s, p: int) -> dict:
    """Every position ``p`` cannot tell from ``s``, with its probability, by
    another route: each other player's unseen cards (their deck list less
    what ``p`` observes in the ruins and the shared zones) in every order,
    cut into hand, deck top, deck and graveyard of the observed sizes."""
    game, obs = s.game, s.observation(p)
    shown = [z for z in (obs["attack"], obs["gamechanger"]) if z]
    cuts = []
    for q, seen in enumerate(obs["players"]):
        if q == p or seen["out"]:
            continue
        unseen = Counter(c.name for c in game.decks[q].cards)
        unseen -= Counter(seen["ruins"]) + Counter(z["card"] for z in shown if z["owner"] == q)
        sizes = (seen["hand"], seen["deck_top"], seen["deck"] - seen["deck_top"], seen["graveyard"])
        cuts.append((q, list(unseen.elements()), sizes))
    worlds: Counter = Counter()
    for orders in product(*(permutations(cards) for _, cards, _ in cuts)):
        d = s.to_dict()
        for (q, _, sizes), order in zip(cuts, orders):
            i = [0, sizes[0], sizes[0] + sizes[1], sizes[0] + sizes[1] + sizes[2], len(order)]
            for j, f in enumerate(("hand", "deck_top", "deck", "graveyard")):
                d["players"][q][f] = list(order[i[j]:i[j + 1]])
        worlds[game.state_from_dict(d)] += 1
    total = sum(worlds.values())
    return {t: Fraction(n, total) for t, n in worlds.items()}


def test_MC_8_arrangements_are_exact():
    """MC-8: another player's hand, deck top (in order), deck and graveyard
    (in order) are hidden; the arrangements are exactly the positions and
    probabilities of every order of the unseen cards, with repeated cards,
    for two players and for three (each player's cards stay theirs)."""
    g2 = cardlab.load("monster_cards")
    s = pos(g2, [P(["ash_hound", "night_priest"], ["ember_imp", "magma_wyrm"], grave=["ember_imp"]),
                 P(["reef_crab", "tide_archer"], ["leviathan", "reef_crab"], top=["kelp_sprite"],
                   grave=["mist_wisp", "storm_eel"])], attack=(1, "storm_eel"))
    g3 = cardlab.load("monster_cards", players=3)
    s3 = pos(g3, [P(["ash_hound", "cinder_knight"], ["magma_wyrm", "ember_imp"]),
                  P(["reef_crab", "tide_archer"], ["leviathan", "reef_crab"]),
                  P(["ember_imp", "shade_bat"], ["ember_imp", "ash_hound"], grave=["shade_bat"])],
             attack=(1, "storm_eel"))
    # e.g. s3 for player 2: 6 hands of player 0's 4 different cards × 4 of player 1's (two reef_crab)
    for state, p, n in ((s, 0, 690), (s, 1, 18), (s3, 0, 4 * 11), (s3, 2, 6 * 4)):
        arr = arrangements(state, p, limit=100_000)
        assert dict(arr) == brute_force_worlds(state, p) and len(arr) == n
        assert state in dict(arr) and sum(w for _, w in arr) == 1
        assert all(t.information_set(p) == state.information_set(p) for t, _ in arr)
    assert s.hidden(0).ordered == {"player 1 deck top", "player 1 graveyard"}
    assert open_hands_copy(s).hidden(0) is None


def test_MC_8_arrangements_are_the_redeals(game):
    """MC-8: on late positions of played games the arrangements hold the
    true position, each with the player's information set and once, add up
    to 1, and are exactly the positions ``redeal`` gives."""
    rng = random.Random(5)
    checked = 0
    for s, _ in positions(game, range(4)):
        for v in (0, 1):
            if s.is_terminal() or count_fillings(s, v, 30) is None:
                continue
            arr = arrangements(s, v, limit=30)
            states = {t for t, _ in arr}
            assert s in states and len(states) == len(arr) and sum(w for _, w in arr) == 1
            assert all(t.information_set(v) == s.information_set(v) for t in states)
            assert {s.redeal(v, rng) for _ in range(60 * len(arr))} == states
            checked += len(arr) > 1
    assert checked > 20


# -- the fair hint (MC-8, MC-19) ------------------------------------------------------------------
def hint_position(game, hand1, deck1, grave1):
    """Player 0 to move against player 1's Moss Golem (attack 2: a replacement
    costs 2, MC-11); player 1 holds, draws from and has lost six tide cards
    that player 0 cannot see."""
    return pos(game, [P(["ash_hound", "night_priest"], ["ember_imp", "magma_wyrm"], grave=["ember_imp"]),
                      P(hand1, deck1, grave=grave1)], attack=(1, "moss_golem"))


def brute_force_hint(s, p: int) -> dict[str, Fraction]:
    """Every order of the unseen cards (:func:`brute_force_worlds`), each
    world solved with open hands, averaged with equal weight per order."""
    return open_average(s, p, brute_force_worlds(s, p).items())


def test_MC_8_MC_19_fair_hint_is_the_average_over_what_player_0_cannot_see(game):
    """MC-8, MC-19, MC-4 (Mend heals from the graveyard, so its order
    counts): the fair hint is the exact average of the open-hands values over
    every way player 1's six unseen cards may lie, and two positions player 0
    cannot tell apart get the same hint."""
    s = hint_position(game, ["reef_crab", "tide_archer"], ["kelp_sprite", "leviathan"], ["reef_crab", "mist_wisp"])
    fair = cardlab.analyse(s, player=0)
    assert (fair.kind, fair.arrangements) == ("fair", 102)
    values = {r["action"]: r["value"] for r in fair.rows}
    assert values == brute_force_hint(s, 0)
    assert values == {"defend ash_hound": -1, "defend night_priest": Fraction(-3, 4), "attack ash_hound": -1,
                      "attack night_priest": Fraction(-3, 5)}
    twin = hint_position(game, ["leviathan", "mist_wisp"], ["reef_crab", "reef_crab"], ["kelp_sprite", "tide_archer"])
    assert twin != s and twin.information_set(0) == s.information_set(0)
    assert cardlab.analyse(twin, player=0).rows == fair.rows
