"""Toritsuki card battle (とりつきカードバトル) fair play: what each player may
know of a move (``ToritsukiState.public_action``), every position a player
cannot tell apart (``ToritsukiState.hidden`` with
:func:`cardlab.hidden.arrangements`), and the fair hint computed from them.
Each test cites its rule ids (TK-n, TK-Qn).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

from leak import open_average, positions
from test_toritsuki import GAME, ICONS, P, pos, y

import cardlab
from cardlab import CHANCE, render
from cardlab.agents import open_hands_copy
from cardlab.hidden import arrangements, count_fillings


def names(no: int) -> tuple[str, ...]:
    """Every way a text may name card ``no``: its number, English and Japanese names."""
    c = GAME.cards[no]
    return f"#{no}", c.name, c.japanese


# -- what a viewer may know of a move (TK-2, TK-11, TK-18, TK-19, TK-Q6) -----------------------
def test_TK_2_TK_11_the_opponents_deal_and_draw_never_name_the_card():
    """TK-2, TK-11, TK-7 (regression: "MONSTER CARDS and Toritsuki [printed]
    the opponent's deals and draws" whenever the true state left only one
    possible card): player 1 draws the last card of its deck, the only
    outcome there; player 0 reads a draw of an unseen card, the same as in
    a position it cannot tell apart where the last card is another one.
    Every card of the opening deal (TK-2) or of an event's draw (TK-24,
    TK-Q2) reads alike to the other player, with the rule ids of the
    stage; the owner reads it all."""
    s = pos(stage="draw", tp=1, p1={"hand": [8], "unseen": [7], "back": [y(6)]})
    twin = pos(stage="draw", tp=1, p1={"hand": [7], "unseen": [8], "back": [y(6)]})
    assert s.chance_outcomes() == [("draw 7", 1)] and twin.chance_outcomes() == [("draw 8", 1)]
    assert twin.information_set(0) == s.information_set(0)
    seen = render.seen_move(s, "draw 7", 0)
    assert (seen.action, seen.hidden, seen.label, seen.picture) == ("draw ??", True, "Player 1 draws a card", "")
    assert seen.line == "Player 1 draws a card. (TK-11)"
    assert not any(w in seen.line + seen.label for w in names(7))
    assert render.seen_move(twin, "draw 8", 0) == seen
    own = render.seen_move(s, "draw 7", 1)
    assert not own.hidden and GAME.cards[7].name in own.line
    root = GAME.new_initial_state()  # player 0's opening hand
    deals = [a for a, _ in root.chance_outcomes()]
    assert {render.seen_move(root, a, 1) for a in deals} == {render.SeenMove(
        CHANCE, "deal ??", True, "Player 0 is dealt a card", "Player 0 is dealt a card. (TK-2)", "",
        "Player 0 is dealt a card.", ("TK-2",))}
    assert all(render.visible(root, a, 0) for a in deals)
    event_draw = pos(stage="evdraw", tp=1, event_used=True, p1={"hand": [8], "unseen": [7, 9]})
    assert {render.seen_move(event_draw, a, 0).line for a in ("draw 7", "draw 9")} == {
        "Player 1 draws a card. (TK-24, TK-Q2)"}


def test_TK_13_TK_18_TK_19_every_other_move_is_public():
    """TK-13, TK-16, TK-17, TK-19, TK-3, TK-4: summons, moves, events,
    attacks, blocks, possessions, mulligans and the coin are played on the
    table; TK-18 damage goes face up (表向き); TK-19 a possession from the
    deck turns the top card over (めくる).  Only a card dealt or drawn into
    the other player's hand is hidden, and only its card.  With open hands
    (TK-Q6) every move is public."""
    hidden: set[str] = set()
    public: set[str] = set()
    for s, a in positions(GAME, range(8), agents=("random", "heuristic")):
        verb = a.split()[0]
        for v in (0, 1):
            shown = s.public_action(a, v)
            if verb in ("deal", "draw") and v != s.turn_player:
                assert shown == f"{verb} ??"
                hidden.add(verb)
            else:
                assert shown == a
                public.add(verb)
        assert open_hands_copy(s).public_action(a, 1 - s.turn_player) == a
    assert hidden == {"deal", "draw"}
    assert {"keep", "first", "summon", "attack", "block", "noblock", "pass", "possess", "damage",
            "reveal", "end", "deal", "draw"} <= public
    known = cardlab.load("toritsuki", known_deck_order=True).new_initial_state()
    a = known.chance_outcomes()[0][0]
    assert a.startswith("shuffle ") and known.public_action(a, 1) == a  # TK-Q6 the order is laid out


# -- every position a player cannot tell apart (TK-Q6) -----------------------------------------
def deal_weights(s, p: int) -> dict[tuple, Fraction]:
    """Each hand the opponent may hold with its probability, counted over the
    physical cards ``p`` cannot see (from what ``p`` observes: the
    opponent's hand size and its cards in hand or unseen): the share of the
    sets of that many physical cards that make this hand."""
    seen = s.observation(p)["players"][1 - p]
    cards, size = Counter(seen["unseen_or_in_hand"]), seen["hand_size"]
    out = {}
    for hand in {tuple(sorted(c)) for c in combinations(seen["unseen_or_in_hand"], size)}:
        ways = math.prod(math.comb(cards[no], n) for no, n in Counter(hand).items())
        out[hand] = Fraction(ways, math.comb(sum(cards.values()), size))
    return out


def test_TK_Q6_arrangements_of_a_hand_made_endgame_count_repeated_cards():
    """TK-Q6, TK-1 (up to 3 copies of a card): player 1 holds one of Mizutama,
    Shiofuki-gani ×2, Amagappa; the other cards are its deck and face-down
    yoki.  Player 0's arrangements are the 3 possible hands, weighted by the
    physical cards (Shiofuki-gani twice as likely); player 1, who sees its
    own hand, cannot tell player 0's hand from its deck."""
    s = pos(p0={"hand": [2], "unseen": [1, 3], "front": [y(3)]},
            p1={"hand": [6], "unseen": [7, 7, 8], "deck_size": 2, "yoki": [1, 0], "back": [y(16)]})
    h = s.hidden(0)
    assert sorted(h.cards) == [6, 7, 7, 8]
    assert h.places == (("opponent hand", 1), ("opponent deck and face-down yoki", 3))
    arr = arrangements(s, 0)
    assert {tuple(P(t, 1)["hand"]): w for t, w in arr} == deal_weights(s, 0) == {
        (6,): Fraction(1, 4), (7,): Fraction(1, 2), (8,): Fraction(1, 4)}
    assert {t for t, _ in arr} == {s.redeal(0, seed) for seed in range(60)}
    assert {tuple(P(t, 0)["hand"]) for t, _ in arrangements(s, 1)} == {(1,), (2,), (3,)}
    assert open_hands_copy(s).hidden(0) is None and open_hands_copy(s).redeal(0, 1) == open_hands_copy(s)


def test_TK_Q6_arrangements_are_the_redeals_of_late_positions():
    """TK-Q6: in late positions of seeded games, each player's arrangements
    hold the true position once, each with the player's information set;
    their probabilities add up to 1 and are the shares of the physical
    deals, and they are exactly the positions ``redeal`` gives."""
    rng = random.Random(5)
    checked = 0
    for s, _ in positions(GAME, range(4, 8)):
        if s.is_terminal() or any(count_fillings(s, v, 12) is None for v in (0, 1)):
            continue
        for v in (0, 1):
            arr = arrangements(s, v)
            states = {t for t, _ in arr}
            assert s in states and len(states) == len(arr)
            assert sum(w for _, w in arr) == 1
            assert all(t.information_set(v) == s.information_set(v) for t in states)
            assert {s.redeal(v, rng) for _ in range(30 * len(arr))} == states
            assert {tuple(P(t, 1 - v)["hand"]): w for t, w in arr} == deal_weights(s, v)
            checked += len(arr) > 1
    assert checked > 20


# -- the fair hint (TK-Q6) --------------------------------------------------------------------
def hint_position(hand1: list[int], unseen1: list[int]):
    """With the icon file (TK-Q7): player 0's battle time: its Noroshi-maru
    (Brave B; m3 100 spell, pierce, cost 2) can attack player 1's Amagappa
    (Slippery C; m1 50, m2 70 spell) at 5 damage; player 0's deck holds one
    card, so it loses at its next draw unless it wins now.  Player 1 holds
    one of Mizutama, Uzumaki-dayu, Nagisa-no-kami, Koishi, Iwa-otoko, or the second
    Iwa-otoko, its face-down yoki: the unseen pool is the deck and the yoki (TK-12, J)."""
    return pos(ICONS, stage="battle", p0={"front": [y(4)], "yoki": [2, 0], "unseen": [1]},
               p1={"hand": hand1, "unseen": sorted(unseen1 + [17]), "deck_size": len(unseen1), "back": [y(8)],
                   "yoki": [1, 0], "damage": [5, 0]})


def brute_force_hint(s, p: int) -> dict[str, Fraction]:
    """Every order of the cards ``p`` cannot see (the opponent's cards in
    hand or unseen, from what ``p`` observes), the first ones dealt to the
    hand, the rest to the deck and face-down yoki; each world solved with
    open hands and averaged with equal weight."""
    o = 1 - p
    seen = s.observation(p)["players"][o]
    worlds = []
    for order in permutations(seen["unseen_or_in_hand"]):
        d = s.to_dict()
        d["players"][o]["hand"] = list(order[:seen["hand_size"]])
        d["players"][o]["unseen"] = list(order[seen["hand_size"]:])
        worlds.append((s.game.state_from_dict(d), 1))
    return open_average(s, p, worlds)


def test_TK_Q6_fair_hint_is_the_average_over_what_player_0_cannot_see():
    """TK-Q6 (hands hidden), TK-16, TK-19, TK-20, TK-21, TK-23, TK-Q7 (pierce
    and guard, from the icon file), TK-7: the fair hint is the exact
    equal-weight average of the open-hands values over every order of the
    6 cards player 0 cannot see (5 kinds): only the
    pierce attack can win; Nagisa-no-kami (+30, guard) in hand (1 in 6) saves
    player 1, otherwise its possession from the deck top (any of the 5 unseen
    cards left, the face-down yoki among them) finds it one time in five:
    player 1 survives 1/6 + 5/6·1/5 = 1/3, so the pierce is worth 2/3 − 1/3.
    Two positions player 0 cannot tell apart get the same hint."""
    s = hint_position([9], [6, 10, 16, 17])
    fair = cardlab.analyse(s, player=0)
    assert (fair.kind, fair.arrangements) == ("fair", 5)
    values = {r["action"]: r["value"] for r in fair.rows}
    assert values == brute_force_hint(s, 0)
    assert values == {"attack F1 m1": -1, "attack F1 m2": -1, "attack F1 m3": Fraction(1, 3), "end": -1}
    twin = hint_position([10], [6, 9, 16, 17])
    assert twin != s and twin.information_set(0) == s.information_set(0)
    assert cardlab.analyse(twin, player=0).rows == fair.rows
    assert cardlab.solve(open_hands_copy(twin)).value == -1  # the open value differs: Nagisa is in hand
