"""mipig (mipigトレーディングカード): a test for every rule MP-1 … MP-25 and
MP-Q1 … MP-Q6 of docs/rules/mipig.md, the seed's bonus table and bonus
example, card files, hand-counted perft, exact solves."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.games.mipig import (
    ATTRIBUTES,
    MARKS,
    attribute_bonus,
    janken_beats,
    janken_matrix,
    janken_value,
    load_cards,
    matrix_game_value,
)


# -- a small test card set --------------------------------------------------------
def card(cid, top, bottom, left, right, attribute="play", janken="rock"):
    return {"id": cid, "name": cid, "top": top, "bottom": bottom, "left": left, "right": right,
            "attribute": attribute, "janken": janken}


TEST_CARDS = {"name": "test pigs", "cards": [
    card("R5", 5, 5, 5, 5, "wisdom", "rock"),
    card("S5", 5, 5, 5, 5, "wisdom", "scissors"),
    card("P5", 5, 5, 5, 5, "healing", "paper"),
    card("R5b", 5, 5, 5, 5, "guidance", "rock"),
    card("L4", 4, 4, 4, 4, "love", "rock"),
    card("L6", 6, 6, 6, 6, "love", "paper"),
    card("E1", 1, 2, 3, 4, "play", "rock"),        # top 1, bottom 2, left 3, right 4
    card("E6", 6, 7, 8, 9, "healing", "paper"),    # top 6, bottom 7, left 8, right 9
    card("W9", 9, 9, 9, 9, "wisdom", "paper"),
    card("W1", 1, 1, 1, 1, "wisdom", "rock"),
    *[card(f"G{i}", 1, 1, 1, 1, "guidance", "scissors") for i in range(1, 10)],
]}


def battle_state(cells, mover=0, graves=((), ()), first=0, **options):
    """A battle-phase position: ``cells`` are (x, y, owner, card id, face_up);
    the hands are the ready hands of the option ``hands``.  The position must be
    one that play reaches (J): a face-up card that touches no face-up opponent
    card fought one that was lost (MP-12, MP-15), so its opponent gets a lost
    G-card in the graveyard for each; then the player with fewer cards gets G-cards to
    own as many: face down on a free square touching only their own cards (so
    they change no attack), else in the graveyard once a battle was fought."""
    near = ((1, 0), (-1, 0), (0, 1), (0, -1))
    occ = {(x, y): (o, u) for x, y, o, _, u in cells}
    used = {c[3] for c in cells} | set(graves[0]) | set(graves[1])
    fillers = iter(f"G{i}" for i in range(1, 10) if f"G{i}" not in used)
    gr = [list(graves[0]), list(graves[1])]
    cells = list(cells)
    for o in (0, 1):
        lonely = sum(1 for c in cells if c[4] and c[2] == o and not any(
            occ.get((c[0] + dx, c[1] + dy)) == (1 - o, True) for dx, dy in near))
        while len(gr[1 - o]) < lonely:
            gr[1 - o].append(next(fillers))
    own = [[c[3] for c in cells if c[2] == p] + gr[p] for p in (0, 1)]
    n = max(len(own[0]), len(own[1]))
    for p in (0, 1):
        while len(own[p]) < n:
            f = next(fillers)
            own[p].append(f)
            free = [(c[0] + dx, c[1] + dy) for c in cells if c[2] == p for dx, dy in near
                    if (c[0] + dx, c[1] + dy) not in occ and all(
                        occ.get((c[0] + dx + ex, c[1] + dy + ey), (p,))[0] == p for ex, ey in near)]
            if not free:
                gr[p].append(f)
                continue
            cells.append((*free[0], p, f, False))
            occ[free[0]] = (p, False)
    game = cardlab.load("mipig", cards=TEST_CARDS, hand_size=n, hands=own, first_player=first, **options)
    d = {"phase": "battle", "to_move": mover, "first_player": first, "decided_by": "option",
         "hands": [[], []],
         "field": [{"x": x, "y": y, "owner": o, "card": c, "face_up": u} for x, y, o, c, u in cells],
         "graveyards": gr, "janken_round": 0, "pending": None, "shown": [[], []], "outcome": None}
    return game.state_from_dict(d)


def placed(game, actions):
    s = game.new_initial_state()
    for a in actions:
        s = s.apply(a)
    return s


def duo_game(**options):
    opts = {"cards": TEST_CARDS, "hand_size": 2, "hands": [["R5", "L4"], ["S5", "L6"]], "first_player": 0}
    opts.update(options)
    return cardlab.load("mipig", **opts)


# -- cards ----------------------------------------------------------------------------
def test_MP_1_a_card_has_four_numbers_an_attribute_and_a_janken_mark():
    """MP-1: top, bottom, left, right, attribute 属性 and janken mark じゃんけんマーク."""
    for c in load_cards().cards:
        assert len(c.edges) == 4 and all(isinstance(v, int) for v in c.edges)
        assert c.attribute in ATTRIBUTES and c.janken in MARKS
    # the back shows only the logo: a face-down card of the opponent has no numbers in the view
    g = cardlab.load("mipig", hand_size=2)
    s = g.new_initial_state(seed=4)
    s = s.apply(s.legal_actions()[0])  # player 0's janken pick
    while s.current_player != 1 or s.phase != "placement" or not s.cells():
        s = s.apply(s.legal_actions()[0] if s.current_player >= 0 else s.chance_outcomes()[0][0])
    view = s.observation(1)["field"]
    assert [c["card"] for c in view if c["owner"] == 0] == [None]


def test_MP_2_exactly_five_attributes_and_the_file_check():
    """MP-2: 愛 智 癒 遊 導; any other attribute is refused, Japanese names are accepted."""
    assert ATTRIBUTES == ("love", "wisdom", "healing", "play", "guidance")
    bad = {"cards": [card("X", 1, 1, 1, 1, "fire")]}
    with pytest.raises(cardlab.CardFileError, match=r"<card dict>: card 'X', field 'attribute'.*愛"):
        load_cards(bad)
    ok = load_cards({"cards": [card("X", 1, 1, 1, 1, "癒", "チョキ")]})
    assert ok.cards[0].attribute == "healing" and ok.cards[0].janken == "scissors"


def test_MP_3_both_formats_and_the_small_ones():
    """MP-3: 5 cards each (5枚勝負) and 10 (10枚勝負); 1-4 for teaching; equal hands."""
    for n in (1, 2, 3, 4, 5, 10):
        s = cardlab.load("mipig", hand_size=n).new_initial_state(seed=n)
        assert len(s.hand(0)) == len(s.hand(1)) == n
    with pytest.raises(cardlab.OptionError, match="hand_size accepts a whole number from 1 to 10"):
        cardlab.load("mipig", hand_size=11)
    with pytest.raises(cardlab.OptionError, match=r"hands\[1\] has 3 cards but hand_size is 5"):
        cardlab.load("mipig", hands=["starter_a", "trio_b"])
    assert cardlab.load("mipig", hand_size=10, hands=["full_a", "full_b"]).new_initial_state().hand(0)


# -- where the cards come from: each player's own copy (MP-3, seed: お互いに…用意します) ----------
SEED_QUOTE = "お互いに同じ枚数のカードを手札として用意します"


def dealing_player_1(game, hand0):
    """The deal after player 0 got ``hand0``: player 1's first card is next."""
    return game.state_from_dict({
        "phase": "deal", "to_move": 1, "first_player": None, "decided_by": "undecided",
        "hands": [list(hand0), []], "field": [], "graveyards": [[], []], "janken_round": 0,
        "pending": None, "shown": [[], []], "outcome": None})


def test_MP_3_each_player_is_dealt_from_their_own_copy_of_the_card_set():
    """MP-3 and the seed: 「お互いに同じ枚数のカードを手札として用意します」 (each
    player prepares the same number of cards as a hand): the players bring
    their own cards, so by default (``deal="own"``) player 1's hand comes
    from player 1's own copy of the card set.  Player 1's first card is any
    of the 30, player 0's five included, each with probability 1/30; the
    second any card but player 1's first (no repeats within a hand)."""
    game = cardlab.load("mipig")
    assert game.options["deal"] == "own" and game.options_dict() == {}
    s = game.new_initial_state()
    for _ in range(5):
        s = s.apply(s.chance_outcomes()[0][0])
    hand0 = s.hand(0)
    assert hand0 == ["p01", "p02", "p03", "p04", "p05"] and s.to_dict()["to_move"] == 1
    first = s.chance_outcomes()
    assert [a for a, _ in first] == [f"deal {c}" for c in game.ids]
    assert {p for _, p in first} == {Fraction(1, len(game.cards))} == {Fraction(1, 30)}
    assert {f"deal {c}" for c in hand0} <= {a for a, _ in first}
    t = s.apply("deal p03")  # player 0 holds p03 too
    second = t.chance_outcomes()
    assert [a for a, _ in second] == [f"deal {c}" for c in game.ids if c != "p03"]
    assert {p for _, p in second} == {Fraction(1, 29)}
    assert "own copy" in t.explain("deal p01")
    # seeded deals give a card to both players
    both = [seed for seed in range(40)
            if set(game.new_initial_state(seed=seed).hand(0)) & set(game.new_initial_state(seed=seed).hand(1))]
    assert both
    u = game.new_initial_state(seed=both[0])
    assert len(set(u.hand(0))) == len(set(u.hand(1))) == 5


def test_MP_3_deal_shared_takes_both_hands_from_one_card_set():
    """MP-3, option ``deal="shared"`` (one physical set of 30 cards shared by
    the two players): player 1's cards are dealt from what player 0 left,
    25 cards at 1/25 each, so the two hands never share a card."""
    game = cardlab.load("mipig", deal="shared")
    s = dealing_player_1(game, ["p01", "p02", "p03", "p04", "p05"])
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [f"deal {c}" for c in game.ids[5:]]
    assert {p for _, p in outcomes} == {Fraction(1, 25)}
    assert "one shared card set" in s.explain("deal p07")
    for seed in range(40):
        t = game.new_initial_state(seed=seed)
        assert not set(t.hand(0)) & set(t.hand(1))


def test_MP_3_the_deal_option_and_hand_size_errors_name_the_option():
    """MP-3: ``deal`` accepts "own" and "shared"; the hand size is bounded by
    one copy of the card set (``deal="own"``) or by half of it (``"shared"``),
    and the messages name the option and what would be accepted."""
    with pytest.raises(cardlab.OptionError,
                       match=r"option deal='mine' is not accepted; deal accepts 'own' or 'shared'"):
        cardlab.load("mipig", deal="mine")
    four = {"cards": TEST_CARDS["cards"][:4]}
    assert len(cardlab.load("mipig", cards=four, hand_size=4).new_initial_state(seed=1).hand(1)) == 4
    with pytest.raises(cardlab.OptionError, match=r"hand_size=5 but the card set <card dict> has only 4 cards; "
                                                  r"with deal='own' each hand comes from its player's own copy "
                                                  r"of the card set: choose hand_size ≤ 4"):
        cardlab.load("mipig", cards=four, hand_size=5)
    with pytest.raises(cardlab.OptionError, match=r"hand_size=3 with deal='shared' deals 6 cards from one card set "
                                                  r"of 4 \(<card dict>\): choose hand_size ≤ 2, or deal='own'"):
        cardlab.load("mipig", cards=four, hand_size=3, deal="shared")
    assert cardlab.load("mipig", cards=four, hand_size=2, deal="shared").new_initial_state(seed=2).hand(1)


def deal_distribution(game):
    """The engine's chance tree of the whole deal, transpositions merged:
    ``{(hand 0, hand 1): probability}``."""
    layer, done = {game.new_initial_state(): Fraction(1)}, {}
    while layer:
        nxt: dict = {}
        for s, p in layer.items():
            if s.phase != "deal":
                key = (tuple(s.hand(0)), tuple(s.hand(1)))
                done[key] = done.get(key, 0) + p
                continue
            for a, q in s.chance_outcomes():
                t = s.apply(a)
                nxt[t] = nxt.get(t, 0) + p * q
        layer = nxt
    return done


def share_probability(cards: int, n: int) -> Fraction:
    """Two hands of ``n`` cards, each drawn without repeats from its own copy
    of ``cards`` cards, share at least one card: 1 - C(cards - n, n) / C(cards, n)."""
    return 1 - Fraction(math.comb(cards - n, n), math.comb(cards, n))


def test_MP_3_the_chance_that_two_own_hands_share_a_card_is_exact():
    """MP-3 (seed: 「お互いに同じ枚数のカードを手札として用意します」): on small
    card files the engine's whole chance tree of the deal gives every pair
    of hands the probability 1/C(N, n)² and the two hands share a card with
    probability 1 - C(N-n, n)/C(N, n) (3/5 for two cards out of six); with
    ``deal="shared"`` never.  For two 5-card hands out of cardlab's 30 pigs
    that is 2128/3393 (about 63%): sympy's hypergeometric law of the number
    of player 0's cards in player 1's hand, and the engine's own deal of
    player 1's hand (every branch that avoids player 0's cards, merged)."""
    for size, n in ((6, 2), (7, 3)):
        small = {"cards": [card(f"c{i}", 5, 5, 5, 5) for i in range(size)]}
        dist = deal_distribution(cardlab.load("mipig", cards=small, hand_size=n, first_player=0))
        assert len(dist) == math.comb(size, n) ** 2 and set(dist.values()) == {Fraction(1, math.comb(size, n) ** 2)}
        shared = sum(p for (h0, h1), p in dist.items() if set(h0) & set(h1))
        assert shared == share_probability(size, n)
        one_set = deal_distribution(cardlab.load("mipig", cards=small, hand_size=n, first_player=0, deal="shared"))
        assert sum(one_set.values()) == 1 and not any(set(h0) & set(h1) for h0, h1 in one_set)
    assert share_probability(6, 2) == Fraction(3, 5)
    from sympy import Rational
    from sympy.stats import P, Hypergeometric
    X = Hypergeometric("X", 30, 5, 5)
    assert P(X >= 1) == Rational(2128, 3393) == Rational(*share_probability(30, 5).as_integer_ratio())
    # the engine: the probability of dealing player 1 five cards none of which player 0 holds
    game = cardlab.load("mipig")
    hand0 = ["p03", "p08", "p14", "p22", "p30"]
    layer, apart = {dealing_player_1(game, hand0): Fraction(1)}, Fraction(0)
    while layer:
        nxt: dict = {}
        for s, p in layer.items():
            for a, q in s.chance_outcomes():
                if a.split()[1] in hand0:
                    continue
                if len(s.hand(1)) == 4:
                    apart += p * q
                else:
                    t = s.apply(a)
                    nxt[t] = nxt.get(t, 0) + p * q
        layer = nxt
    assert 1 - apart == share_probability(30, 5) == Fraction(2128, 3393)


def test_MP_3_random_games_with_a_card_in_both_hands_play_to_the_end():
    """MP-3 (each player's own copy): random 5- and 10-card games in which
    both players hold one and the same card play to the end; the same card
    lies on the field twice (once per owner) and may end in both
    graveyards; every position saves and loads, every move is explained,
    both views and the boards draw it, and the opponent's copy stays hidden
    (MP-Q6) while it is face down."""
    rng = random.Random(21)
    games = twice_on_field = twice_in_graves = 0
    for n in (5, 10):
        game = cardlab.load("mipig", hand_size=n)
        for seed in range(200):
            s = game.new_initial_state(seed=seed)
            common = set(s.hand(0)) & set(s.hand(1))
            if not common:
                continue
            games += 1
            while not s.is_terminal():
                assert game.state_from_dict(s.to_dict()) == s
                cells = s.to_dict()["field"]
                ids = Counter(c["card"] for c in cells)
                if any(ids[c] == 2 for c in common):
                    twice_on_field += 1
                for v in (0, 1):
                    seen = s.observation(v)
                    down = [c for c in cells if c["owner"] != v and not c["face_up"]]
                    assert [c["card"] for c in seen["field"] if c["owner"] != v and not c["face_up"]] == \
                        [None] * len(down)
                    assert cardlab.render.text(s, perspective=v) and cardlab.render.html(s, perspective=v)
                a = rng.choice(s.legal_actions()) if s.current_player >= 0 else s.chance_outcomes()[0][0]
                assert "MP-" in s.explain(a)
                s = s.apply(a)
            graves = s.to_dict()["graveyards"]
            twice_in_graves += bool(set(graves[0]) & set(graves[1]))
            assert str(s) and s.returns()[0] in (-1, 0, 1)
            if games >= 12 * n // 5:
                break
    assert games >= 12 and twice_on_field > 50 and twice_in_graves


def test_MP_15_two_copies_of_one_card_fight_and_each_goes_to_its_owners_graveyard():
    """MP-3 (own copies), MP-11 … MP-15, MP-22: player 0's E1 attacks player
    1's E1 to its right: right 4 against left 3, the attacker wins and
    player 1's copy goes to player 1's graveyard; the other copy stays on
    the field as player 0's.  Bonuses count each owner's own copies only."""
    game = cardlab.load("mipig", cards=TEST_CARDS, hand_size=2, first_player=0)
    d = {"phase": "battle", "to_move": 0, "first_player": 0, "decided_by": "option", "hands": [[], []],
         "field": [{"x": 0, "y": 0, "owner": 0, "card": "E1", "face_up": False},  # laid in turn (J)
                   {"x": 1, "y": 0, "owner": 1, "card": "E1", "face_up": False},
                   {"x": 0, "y": 1, "owner": 0, "card": "E6", "face_up": False},
                   {"x": 1, "y": 1, "owner": 1, "card": "E6", "face_up": False}],
         "graveyards": [[], []], "janken_round": 0, "pending": None, "shown": [[], []], "outcome": None}
    s = game.state_from_dict(d)
    assert s.observation(0)["field"][2]["card"] is None and s.observation(1)["field"][0]["card"] is None
    b = s.explain_battle("attack 0,0 1,0")
    assert (b.attacker_card.id, b.defender_card.id, b.attacker_player, b.defender_player) == ("E1", "E1", 0, 1)
    assert (b.attacker_number, b.defender_number, b.result, b.loser_card.id) == (4, 3, "attacker", "E1")
    assert b.attacker_bonus.count == b.defender_bonus.count == 1  # each side counts its own play 遊 cards
    t = s.apply("attack 0,0 1,0")
    after = t.to_dict()
    assert after["graveyards"] == [[], ["E1"]]
    assert [(c["owner"], c["card"], c["face_up"]) for c in after["field"]] == [
        (0, "E1", True), (0, "E6", False), (1, "E6", False)]
    assert game.state_from_dict(after) == t and "player 1's E1" in s.explain("attack 0,0 1,0")
    assert "E1" in cardlab.render.text(t, perspective=1)


def test_MP_3_a_saved_position_may_give_both_players_one_card_only_with_own_copies():
    """MP-3: with ``deal="own"`` a saved position may hold a card in both
    players' cards, never twice in one player's; with ``deal="shared"``
    a card is in one place only.  The errors name the field and the option."""
    def pos(h0, h1):
        return {"phase": "placement", "to_move": 0, "first_player": 0, "decided_by": "option",
                "hands": [h0, h1], "field": [], "graveyards": [[], []], "janken_round": 0, "pending": None,
                "shown": [[], []], "outcome": None}

    own = cardlab.load("mipig", hand_size=2, first_player=0)
    s = own.state_from_dict(pos(["p01", "p02"], ["p02", "p03"]))
    assert s.hand(0) == ["p01", "p02"] and s.hand(1) == ["p02", "p03"]
    with pytest.raises(cardlab.PositionError, match=r"field 'hands': player 1 holds p02 twice; with deal='own' "
                                                    r"a card may be in both players' cards, once in each"):
        own.state_from_dict(pos(["p01", "p02"], ["p02", "p02"]))
    shared = own.with_options(deal="shared")
    with pytest.raises(cardlab.PositionError, match=r"field 'hands': p02 is in both players' cards; with "
                                                    r"deal='shared' the hands come from one card set"):
        shared.state_from_dict(pos(["p01", "p02"], ["p02", "p03"]))


def test_MP_3_perft_of_the_own_deal_adds_exactly_the_duplicate_deals():
    """MP-3, tests/data/perft/mipig.json: two cards each, three deals deep.
    Own copies (``deal="own"``): 30 × 29 × 30 = 26100 paths; one shared set:
    30 × 29 × 28 = 24360.  Every shared path is an own path, and the 1740
    more are exactly the paths whose third card (player 1's first) is one of
    player 0's two: for each first deal (divide) 29 × 2 = 58 more."""
    def paths(s, depth):
        if depth == 0:
            return [()]
        return [(a,) + rest for a, _ in s.chance_outcomes() for rest in paths(s.apply(a), depth - 1)]

    own = paths(cardlab.load("mipig", hand_size=2).new_initial_state(), 3)
    shared = paths(cardlab.load("mipig", hand_size=2, deal="shared").new_initial_state(), 3)
    assert (len(own), len(shared)) == (30 * 29 * 30, 30 * 29 * 28) == (26100, 24360)
    assert set(shared) <= set(own) and len(set(own)) == len(own)
    assert set(own) - set(shared) == {p for p in own if p[2] in p[:2]}
    divide_own, divide_shared = Counter(p[0] for p in own), Counter(p[0] for p in shared)
    assert {a: divide_own[a] - divide_shared[a] for a in divide_own} == {a: 58 for a in divide_own}
    data = {e["name"]: e for e in json.loads(
        (Path(__file__).parents[2] / "data" / "perft" / "mipig.json").read_text("utf-8"))}
    assert (data["deal-two-cards-own"]["depth"], data["deal-two-cards-own"]["count"]) == (3, 26100)
    assert (data["deal-two-cards-shared"]["options"], data["deal-two-cards-shared"]["count"]) == (
        {"hand_size": 2, "deal": "shared"}, 24360)


# -- who goes first ---------------------------------------------------------------------
def test_MP_4_janken_marks_decide_and_the_cards_go_back():
    """MP-4: the shown cards' marks decide (rock beats scissors); the cards return to the hands."""
    g = duo_game(first_player="janken")
    s = g.new_initial_state()
    assert s.phase == "janken" and s.current_player == 0
    assert s.legal_actions() == ["show R5", "show L4"]  # card-file order
    t = s.apply("show R5").apply("show S5")  # rock beats scissors
    assert t.phase == "placement" and t.first_player == 0 and t.current_player == 0
    assert sorted(t.hand(0)) == ["L4", "R5"] and sorted(t.hand(1)) == ["L6", "S5"]
    u = s.apply("show L4").apply("show L6")  # rock loses to paper: player 1 first
    assert u.first_player == 1 and u.current_player == 1
    assert "player 1 goes first (MP-4)" in s.apply("show L4").explain("show L6")


# -- placement -------------------------------------------------------------------------
def test_MP_5_players_alternate_from_the_first_player():
    """MP-5: first player places, then the other, alternating, face down."""
    g = duo_game(first_player=1)
    s = g.new_initial_state()
    movers = []
    while s.phase == "placement":
        movers.append(s.current_player)
        s = s.apply(s.legal_actions()[0])
    assert movers == [1, 0, 1, 0]
    assert not any(up for *_, up in s.cells())


def test_MP_6_the_first_card_may_go_anywhere():
    """MP-6: anywhere is one position up to translation (MP-Q4): one action per card; the
    first card's square is named 0,0 for the rest of the game."""
    s = duo_game().new_initial_state()
    assert s.legal_actions() == ["place R5 0,0", "place L4 0,0"]


def test_MP_7_later_cards_share_a_full_edge_not_a_corner():
    """MP-7: the four edge neighbours are legal, a corner touch is not; either owner counts."""
    s = duo_game().new_initial_state().apply("place R5 0,0")
    spots = sorted({a.split()[2] for a in s.legal_actions()})
    assert spots == sorted(["-1,0", "1,0", "0,-1", "0,1"])
    with pytest.raises(cardlab.IllegalActionError, match="(?i)legal: place"):
        s.apply("place S5 1,1")
    t = s.apply("place S5 1,0")  # player 1 next to player 0's card
    # player 0 may now touch player 1's card too: (2,0) touches only the opponent's card
    assert "place L4 2,0" in t.legal_actions()


def test_MP_8_ownership_stays_visible():
    """MP-8: everybody sees whose each face-down card is."""
    g = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0)
    s = placed(g, ["place p01 0,0", "place p05 1,0"])
    for p in (0, 1):
        owners = sorted((c["x"], c["owner"]) for c in s.observation(p)["field"])
        assert owners == [(0, 0), (1, 1)]


def test_MP_9_placement_ends_when_both_hands_are_empty():
    """MP-9: the battle starts only when both hands are empty."""
    s = duo_game().new_initial_state()
    phases = []
    while s.phase == "placement":
        phases.append((len(s.hand(0)), len(s.hand(1))))
        s = s.apply(s.legal_actions()[0])
    assert phases[-1] == (0, 1) and s.phase == "battle" and s.hand(0) == s.hand(1) == []


# -- battle -------------------------------------------------------------------------------
def test_MP_10_the_battle_starts_with_the_first_player_and_alternates():
    """MP-10: first player attacks first, then turns alternate."""
    for first in (0, 1):
        s = duo_game(first_player=first).new_initial_state()
        while s.phase == "placement":
            s = s.apply(s.legal_actions()[0])
        assert s.current_player == first
        s2 = s.apply(s.legal_actions()[0])
        if s2.phase == "battle":
            assert s2.current_player == 1 - first


def test_MP_11_attack_a_touching_opponent_card_face_down_or_up():
    """MP-11: an own face-down card against an edge-touching opponent card (face down or up)."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "S5", True), (0, 1, 1, "P5", False),
                      (1, 1, 0, "L4", False), (3, 3, 1, "W9", False)])
    acts = s.legal_actions()
    assert "attack 0,0 1,0" in acts  # face-up target
    assert "attack 0,0 0,1" in acts  # face-down target
    assert "attack 1,1 0,1" in acts and "attack 1,1 1,0" in acts
    assert not any(a.endswith(" 3,3") for a in acts)  # not touching
    assert not any(a.endswith(" 1,1") for a in acts)  # own card


def test_MP_12_both_cards_turn_face_up_a_face_up_defender_stays():
    """MP-12: attacker and defender are face up after the reveal (here: a draw keeps both)."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False)])
    t = s.apply("attack 0,0 1,0")  # 5 = 5, rock = rock: draw, both stay
    assert sorted((x, up) for x, _, _, _, up in t.cells()) == [(0, 1), (1, 1)]
    s2 = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", True)])
    assert s2.explain_battle("attack 0,0 1,0").defender_was_face_up


def test_MP_13_the_larger_number_with_its_bonus_wins():
    """MP-13: touching edge numbers compared, each with its bonus; larger wins."""
    s = battle_state([(0, 0, 0, "W9", False), (1, 0, 1, "R5", False)])
    b = s.explain_battle("attack 0,0 1,0")
    assert (b.attacker_total, b.defender_total, b.result, b.janken) == (9, 5, "attacker", None)
    # with a bonus the smaller printed number can win: L4 + 2 against R5 + 0
    s2 = battle_state([(0, 0, 0, "L4", False), (1, 0, 1, "R5", False),
                       (0, 1, 0, "L6", True), (0, 2, 0, "L4", True)])
    b2 = s2.explain_battle("attack 0,0 1,0")
    assert (b2.attacker_number, b2.attacker_bonus.bonus, b2.attacker_total, b2.result) == (4, 2, 6, "attacker")


def test_MP_14_equal_numbers_go_to_janken_then_draw():
    """MP-14: equal totals: janken marks decide; equal marks: a draw."""
    cases = [("R5", "S5", "attacker"), ("R5", "P5", "defender"), ("R5", "R5b", "draw")]
    for a, d, result in cases:
        s = battle_state([(0, 0, 0, a, False), (1, 0, 1, d, False)])
        b = s.explain_battle("attack 0,0 1,0")
        assert b.janken is not None and b.result == result, (a, d)
        assert "MP-14" in b.text()


def test_MP_15_winner_stays_loser_to_graveyard_draw_both_stay():
    """MP-15: winner face up on the field; loser to its owner's graveyard 墓地; draw: both stay."""
    s = battle_state([(0, 0, 0, "W9", False), (1, 0, 1, "R5", False), (0, 1, 1, "S5", False)])
    t = s.apply("attack 0,0 1,0")
    assert [(c, o, u) for _, _, c, o, u in t.cells() if c == t.game.index["W9"]] == [(t.game.index["W9"], 0, 1)]
    assert "R5" in t.observation(0)["graveyards"][1]
    s2 = battle_state([(0, 0, 0, "W1", False), (1, 0, 1, "R5", False), (0, 1, 1, "S5", False)])
    t2 = s2.apply("attack 0,0 1,0")
    assert "W1" in t2.observation(1)["graveyards"][0]
    assert t2.face_up_count(1) == 1


def test_MP_16_a_face_up_card_never_attacks_again():
    """MP-16: after a draw the attacker is face up and cannot attack; it can still be attacked."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 1, 1, "S5", False)])
    t = s.apply("attack 0,0 1,0")  # draw: both face up
    t = t.apply("attack 0,1 0,0")  # player 1's face-down S5 attacks the face-up R5
    assert t.is_terminal() or not any(a.startswith("attack 0,0") for a in t.legal_actions())
    u = s.apply("attack 0,0 1,0")
    assert all(not a.startswith("attack 1,0") for a in u.legal_actions())  # face-up R5b cannot attack


def test_MP_17_a_face_down_card_with_no_opponent_neighbour_stays_down():
    """MP-17: a face-down card without an opponent card on any edge cannot be turned up."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "S5", False), (0, 1, 0, "L4", False)])
    assert all(not a.startswith("attack 0,1") for a in s.legal_actions())


def test_MP_18_no_attack_means_pass():
    """MP-18: a player without an attack passes and the turn goes over."""
    s = battle_state([(0, 0, 0, "R5", True), (1, 0, 1, "S5", False)], mover=0)
    assert s.legal_actions() == ["pass"]
    t = s.apply("pass")
    assert t.current_player == 1 and t.legal_actions() == ["attack 1,0 0,0"]
    assert "MP-18" in s.explain("pass")


# -- attribute bonus ------------------------------------------------------------------
def love_battle(k):
    """Player 0's face-down L4 attacks player 1's R5 with k-1 other face-up love cards of player 0."""
    cells = [(0, 0, 0, "L4", False), (1, 0, 1, "R5", False)]
    cells += [(0, i, 0, "L6" if i % 2 else "L4", True) for i in range(1, k)]
    return battle_state(cells).explain_battle("attack 0,0 1,0")


def test_MP_19_two_or_more_of_one_attribute_give_a_bonus():
    """MP-19: one face-up love card: no bonus; two: a bonus on all four numbers."""
    assert love_battle(1).attacker_bonus.bonus == 0
    assert love_battle(2).attacker_bonus.bonus == 1
    # all four numbers: the bonus holds whichever edge faces the defender
    for cells, act in [([(1, 0, 0, "L4", False), (0, 0, 1, "R5", False)], "attack 1,0 0,0"),
                       ([(0, 1, 0, "L4", False), (0, 0, 1, "R5", False)], "attack 0,1 0,0"),
                       ([(0, 0, 0, "L4", False), (0, 1, 1, "R5", False)], "attack 0,0 0,1")]:
        b = battle_state(cells + [(5, 5, 0, "L6", True)]).explain_battle(act)
        assert b.attacker_total == b.attacker_number + 1


def test_MP_20_the_bonus_table_of_the_seed():
    """MP-20 and the seed's table: 2 cards +1, 3 +2, 4 +3, 5 +4, and +1 more per card after."""
    seed_table = {2: 1, 3: 2, 4: 3, 5: 4}
    for count, bonus in seed_table.items():
        assert attribute_bonus(count) == bonus
        b = love_battle(count)
        assert (b.attacker_bonus.count, b.attacker_bonus.bonus) == (count, bonus)
        assert b.attacker_total == 4 + bonus
    assert love_battle(6).attacker_bonus.bonus == 5  # 以降も…+1 (no upper limit)
    assert attribute_bonus(12) == 11


def test_seed_example_three_love_cards_each_get_plus_two():
    """Seed example (MP-20): with three own face-up 愛 cards, each of them is +2 on every side."""
    # the attacker is the third love card: +2
    assert love_battle(3).attacker_bonus.bonus == 2
    # a defender that is one of three face-up love cards of player 1 also gets +2; the cards
    # need not touch each other (離れていても)
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "L4", True), (3, 2, 1, "L6", True),
                      (5, 4, 1, "L4", True)])
    b = s.explain_battle("attack 0,0 1,0")
    assert (b.defender_bonus.count, b.defender_bonus.bonus, b.defender_total) == (3, 2, 6)
    assert b.result == "defender"


def test_MP_21_counted_after_the_reveal_including_this_battle():
    """MP-21: the attacker and the defender revealed in this battle count themselves."""
    s = battle_state([(0, 0, 0, "L4", False), (1, 0, 1, "L6", False),
                      (0, 1, 0, "L6", True), (2, 0, 1, "L4", True)])
    b = s.explain_battle("attack 0,0 1,0")
    assert (b.attacker_bonus.count, b.defender_bonus.count) == (2, 2)
    assert (b.attacker_total, b.defender_total) == (5, 7)


def test_MP_22_only_own_face_up_cards_on_the_field_count():
    """MP-22: face-down cards, the graveyard and the opponent's cards do not count."""
    s = battle_state([(0, 0, 0, "L4", False), (1, 0, 1, "L6", True),  # opponent's love, face up
                      (0, 1, 0, "L6", False)],                          # own love, face down
                     graves=(("L4",), ()))                              # own love in the graveyard
    b = s.explain_battle("attack 0,0 1,0")
    assert b.attacker_bonus.count == 1 and b.attacker_bonus.bonus == 0
    assert b.defender_bonus.count == 1 and b.defender_bonus.bonus == 0


# -- the end -----------------------------------------------------------------------------
def test_MP_23_the_game_ends_when_nobody_can_attack():
    """MP-23: the end comes when neither player can attack, even with face-down cards left."""
    s = battle_state([(0, 0, 0, "W9", False), (1, 0, 1, "R5", False), (2, 0, 1, "S5", False)],
                     tiebreak="draw")  # S5 touches only R5, which loses (laid in turn, J)
    t = s.apply("attack 0,0 1,0")
    assert t.is_terminal()
    assert any(not up for *_, up in t.cells())  # the isolated S5 stays face down


def test_MP_24_more_face_up_cards_wins_face_down_and_graveyard_do_not_count():
    """MP-24: count own face-up cards on the field only."""
    s = battle_state([(0, 0, 0, "W9", False), (1, 0, 1, "R5", False), (2, 0, 1, "S5", False),
                      (3, 0, 1, "P5", False)])  # S5 and P5 behind R5, which loses (laid in turn, J)
    t = s.apply("attack 0,0 1,0")
    assert t.is_terminal() and t.face_up_count(0) == 1 and t.face_up_count(1) == 0
    assert t.returns() == [1, -1]  # player 1 has two face-down cards: they do not count
    assert cardlab.load("mipig", payoff="score").spec.max_utility == 5


def test_MP_25_equal_counts_go_to_a_janken_of_the_remaining_cards():
    """MP-25: equal face-up counts: a janken with each player's remaining own cards."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False)])
    t = s.apply("attack 0,0 1,0")  # draw: one face-up card each, both rock: cannot break
    assert t.is_terminal() and t.returns() == [0, 0]
    s2 = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True),
                       (5, 3, 1, "P5", True)])
    t2 = s2.apply("attack 0,0 1,0")
    assert t2.phase == "tiebreak" and t2.current_player == 0
    assert t2.legal_actions() == ["pick rock", "pick scissors"]
    end = t2.apply("pick scissors").apply("pick paper")
    assert end.is_terminal() and end.returns() == [1, -1]
    assert "wins the game (MP-25)" in t2.apply("pick scissors").explain("pick paper")


# -- silent places --------------------------------------------------------------------------
def test_MP_Q1_the_default_card_set_is_fair_and_original():
    """MP-Q1: at least 30 cards, numbers 1-9, five attributes and three marks evenly spread."""
    cs = load_cards()
    assert len(cs.cards) >= 30
    nums = Counter(v for c in cs.cards for v in c.edges)
    assert set(nums) == set(range(1, 10)) and max(nums.values()) <= 2 * min(nums.values())
    attrs = Counter(c.attribute for c in cs.cards)
    marks = Counter(c.janken for c in cs.cards)
    assert set(attrs) == set(ATTRIBUTES) and len(set(attrs.values())) == 1
    assert set(marks) == set(MARKS) and len(set(marks.values())) == 1
    pairs = Counter((c.attribute, c.janken) for c in cs.cards)
    assert len(pairs) == 15 and len(set(pairs.values())) == 1
    totals = [sum(c.edges) for c in cs.cards]
    assert max(totals) - min(totals) <= 4
    for name, ids in cs.hands.items():
        assert len(set(ids)) == len(ids), name


def test_MP_Q1_a_users_card_file(tmp_path):
    """MP-Q1: a user's own card file is loaded with the option ``cards``."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(TEST_CARDS), "utf-8")
    g = cardlab.load("mipig", cards=str(path), hand_size=2)
    assert g.cards[0].id == "R5"
    s = g.new_initial_state(seed=1)
    assert set(s.hand(0)) <= {c["id"] for c in TEST_CARDS["cards"]}


@pytest.mark.parametrize("data,match", [
    ({"cards": [card("A", 1, 1, 1, 10 ** 3)]}, r"card 'A', field 'right': must be a whole number from 0 to 99"),
    ({"cards": [card("A", 1, 1, 1, 1, janken="stone")]}, r"card 'A', field 'janken'"),
    ({"cards": [card("A", 1, 1, 1, 1), card("A", 2, 2, 2, 2)]}, r"card 'A', field 'id': used by two cards"),
    ({"cards": [{**card("A", 1, 1, 1, 1), "colour": "red"}]}, r"card 'A', field 'colour': unknown field"),
    ({"cards": [card("A B", 1, 1, 1, 1)]}, r"card 'A B', field 'id'"),
    ({"cards": [{k: v for k, v in card("A", 1, 1, 1, 1).items() if k != "top"}]}, r"card 'A', field 'top'"),
    ({"cards": [card("A", 1, 1, 1, 1)], "hands": {"h": ["B"]}}, r"hand 'h': card 'B' is not in the card list"),
    ({"cards": [], "deck": 1}, r"unknown top-level fields \['deck'\]"),
])
def test_card_file_errors_name_file_card_and_field(tmp_path, data, match):
    """CardFileError names the file, the card and the field; nothing is loaded."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(cardlab.CardFileError, match=match) as info:
        cardlab.load("mipig", cards=str(path))
    assert str(path) in str(info.value)


def test_card_file_that_is_not_json_or_missing(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json", "utf-8")
    with pytest.raises(cardlab.CardFileError, match="broken.json: not valid JSON"):
        load_cards(path)
    with pytest.raises(cardlab.CardFileError, match="nothere.json: cannot read"):
        load_cards(tmp_path / "nothere.json")
    with pytest.raises(cardlab.OptionError, match=r"hands\[0\]='nope' is not a ready hand"):
        cardlab.load("mipig", hands=["nope", "starter_b"])
    with pytest.raises(cardlab.OptionError, match="deals 20 cards from one card set of 19"):
        cardlab.load("mipig", cards=TEST_CARDS, hand_size=10, deal="shared")
    assert len(cardlab.load("mipig", cards=TEST_CARDS, hand_size=10).new_initial_state(seed=1).hand(1)) == 10


def test_MP_Q2_a_janken_tie_repeats_then_a_coin():
    """MP-Q2: a tie: both pick again; after janken_rounds ties a fair coin decides."""
    g = duo_game(first_player="janken", janken_rounds=2, hands=[["R5", "L6"], ["R5b", "S5"]])
    s = g.new_initial_state().apply("show R5").apply("show R5b")  # rock-rock: again
    assert s.phase == "janken" and s.current_player == 0 and s.observation(1)["janken_round"] == 1
    t = s.apply("show R5").apply("show R5b")  # tie again: the round limit, a coin
    assert t.current_player == CHANCE and t.chance_outcomes() == [("coin 0", Fraction(1, 2)),
                                                                   ("coin 1", Fraction(1, 2))]
    assert t.apply("coin 1").first_player == 1
    assert "2 janken rounds all tied" in t.explain("coin 1")


def test_MP_Q2_every_card_the_same_mark_falls_back_to_a_coin():
    """MP-Q2: if every card of both hands has one mark, the tie cannot break: a coin at once."""
    g = duo_game(first_player="janken", hands=[["R5", "L4"], ["R5b", "W1"]])  # all rock
    s = g.new_initial_state()
    assert s.current_player == CHANCE and s.observation(0)["decided_by"] == "coin: janken tie cannot break"


def test_MP_Q2_first_player_options():
    """MP-Q2: first_player 0, 1 or 'random' (a coin), and bad values are refused."""
    assert duo_game(first_player=0).new_initial_state().current_player == 0
    assert duo_game(first_player=1).new_initial_state().current_player == 1
    r = duo_game(first_player="random").new_initial_state()
    assert r.current_player == CHANCE and len(r.chance_outcomes()) == 2
    with pytest.raises(cardlab.OptionError, match="first_player accepts 'janken', 0, 1 or 'random'"):
        duo_game(first_player=2)
    with pytest.raises(cardlab.OptionError, match="first_player"):
        duo_game(first_player=True)


def test_MP_Q2_the_second_chooser_cannot_see_the_first_choice():
    """MP-Q2 (MP-4 at once): player 1's information set is the same whatever player 0 showed."""
    g = cardlab.load("mipig", cards=TEST_CARDS, hand_size=2, hands=[["R5", "P5"], ["S5", "L6"]])
    s = g.new_initial_state()
    a, b = s.apply("show R5"), s.apply("show P5")
    assert a.information_set(1) == b.information_set(1) and a.observation(1) == b.observation(1)
    assert a.information_set(0) != b.information_set(0)
    # once both have shown, both cards are public
    assert a.apply("show L6").observation(1)["shown"] == [["R5"], ["L6"]]
    # open hands show cards, never a choice not yet made (issue Q): the pick stays sealed
    og = g.with_options(open_hands=True)
    a, b = og.new_initial_state().apply("show R5"), og.new_initial_state().apply("show P5")
    assert a.information_set(1) == b.information_set(1) and a.observation(1) == b.observation(1)
    assert og.new_initial_state().public_action("show R5", 1) == "show ??"
    assert a.information_set(0) != b.information_set(0)


def tiebreak_state(**options):
    return battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True),
                         (5, 3, 1, "P5", True)], **options).apply("attack 0,0 1,0")


def test_MP_Q3_the_end_janken_is_simultaneous_and_repeats():
    """MP-Q3: player 1 cannot see player 0's pick; a tie repeats; after janken_rounds ties: draw."""
    t = tiebreak_state(janken_rounds=2)
    a, b = t.apply("pick rock"), t.apply("pick scissors")
    assert a.information_set(1) == b.information_set(1)
    assert a.observation(1)["pending_pick"] == "picked (hidden)"
    again = a.apply("pick rock")
    assert again.phase == "tiebreak" and again.current_player == 0
    end = again.apply("pick rock").apply("pick rock")
    assert end.is_terminal() and end.returns() == [0, 0]


def test_MP_Q3_the_value_of_the_end_janken():
    """MP-Q3: tiebreak='value' ends with the exact value of that small simultaneous game."""
    # rock/paper against rock/scissors, one round: [[0, 1], [1, -1]] has value 1/3 (x = 2/3 rock)
    assert matrix_game_value([[0, 1], [1, -1]]) == Fraction(1, 3)
    assert janken_value([0, 2], [0, 1], 1) == Fraction(1, 3)
    # more rounds: v_{k} = value([[v_{k+1}, 1], [1, -1]]) = (1 + v) / (3 - v)... by hand:
    v = Fraction(0)
    for _ in range(3):
        # equalise x*v + (1-x) = x - (1-x)  =>  x = 2/(3-v), value = (1+v)/(3-v)
        v = (1 + v) / (3 - v)
    assert janken_value([0, 2], [0, 1], 3) == v == Fraction(3, 5)
    assert janken_value([0, 1, 2], [0, 1, 2], 5) == 0
    assert janken_value([0], [0], 5) == 0 and janken_value([0], [], 5) == 0
    assert janken_value([0], [1, 2], 5) == -1  # player 1 shows paper
    # rock+scissors face up for player 0 against rock+paper (players swapped): -(3/5)
    s = tiebreak_state(tiebreak="value", janken_rounds=3)
    assert s.is_terminal()
    m0, m1 = s.tiebreak_marks(0), s.tiebreak_marks(1)
    assert s.returns()[0] == janken_value(m0, m1, 3)
    assert (m0, m1) == ([0, 1], [0, 2]) and s.returns()[0] == -Fraction(3, 5)


def test_MP_Q3_which_cards_count_option():
    """MP-Q3: tiebreak_cards='all_on_field' lets face-down cards' marks be picked too."""
    cells = [(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (-1, 0, 0, "P5", False),
             (2, 0, 1, "W1", False)]  # P5 and W1 touch only their own (laid in turn, J)
    assert battle_state(cells).apply("attack 0,0 1,0").is_terminal()  # rock against rock: draw
    t = battle_state(cells, tiebreak_cards="all_on_field").apply("attack 0,0 1,0")
    assert t.phase == "tiebreak" and t.legal_actions() == ["pick rock", "pick paper"]


def test_MP_Q4_a_battle_renames_no_square():
    """MP-Q4, MP-15: when the loser leaves the field, the winner keeps its square's name."""
    s = battle_state([(0, 0, 1, "R5", False), (1, 0, 0, "W9", False)], mover=0)
    t = s.apply("attack 1,0 0,0")
    assert [(x, y) for x, y, *_ in t.cells()] == [(1, 0)]


# -- MP-Q4: a square keeps its name (issue L) ------------------------------------------------
#: four pigs laid left of and above the first card, then taken off the field by battles
CROSS = {"name": "cross pigs", "cards": [
    card("A", 5, 5, 9, 5, "love", "rock"),       # left 9: beats B's right 1
    card("B", 9, 5, 5, 1, "wisdom", "rock"),     # top 9: beats C's bottom 1
    card("C", 5, 1, 5, 9, "healing", "rock"),    # right 9: beats D's left 1
    card("D", 5, 5, 1, 5, "play", "rock")]}
#: A first at 0,0; B left of it, C above B, D above A; then D, C and B leave the field in turn
#: (D: the top row keeps C; C: the top row empties; B: the left column empties)
CROSS_MOVES = ["place A 0,0", "place B -1,0", "place C -1,-1", "place D 0,-1",
               "attack -1,-1 0,-1", "attack -1,0 -1,-1", "attack 0,0 -1,0"]


def cross_game(**options):
    return cardlab.load("mipig", cards=CROSS, hand_size=2, hands=[["A", "C"], ["B", "D"]],
                        first_player=0, **options)


def squares(s) -> dict:
    """Card id -> the name ``(x, y)`` of its square, from ``to_dict()``."""
    return {c["card"]: (c["x"], c["y"]) for c in s.to_dict()["field"]}


def translate(action: str, dx: int, dy: int) -> str:
    """``action`` with every square name moved by ``(dx, dy)``."""
    def move(w):
        if "," not in w:
            return w
        x, y = w.split(",")
        return f"{int(x) + dx},{int(y) + dy}"
    return " ".join(move(w) for w in action.split())


def test_MP_Q4_MP_5_MP_7_a_square_keeps_its_name_from_placement_to_the_end():
    """MP-Q4, MP-5, MP-6, MP-7 (issue L): the first card laid is at 0,0; a card laid left of or
    above the field gets a negative name and no other square is renamed; cards leaving the field
    in battle (MP-15) rename nothing either.  The same name in the actions, the explain() lines,
    the battles, to_dict and both players' observations, from placement to the end."""
    s = cross_game().new_initial_state()
    assert s.legal_actions() == ["place A 0,0", "place C 0,0"]  # MP-6: the first card at 0,0
    home: dict[str, tuple[int, int]] = {}
    for a in CROSS_MOVES:
        assert a in s.legal_actions(), (a, s.legal_actions())
        line = s.explain(a)
        words = a.split()
        if words[0] == "place":
            home[words[1]] = tuple(int(v) for v in words[2].split(","))
            assert f"lays {words[1]} face down at {words[2]}," in line
        else:
            b = s.explain_battle(a)
            names = {sq: cid for cid, sq in home.items()}
            assert (b.attacker_pos, b.defender_pos) == tuple(tuple(int(v) for v in w.split(",")) for w in words[1:])
            assert (b.attacker_card.id, b.defender_card.id) == (names[b.attacker_pos], names[b.defender_pos])
            assert f" at {words[1]} attacks " in line and f" at {words[2]} (MP-11)" in line
        s = s.apply(a)
        on_field = squares(s)
        assert on_field == {cid: home[cid] for cid in on_field}
        assert on_field.get("A", (0, 0)) == (0, 0)
        for p in (0, 1):
            seen = s.observation(p)["field"]
            assert sorted((c["x"], c["y"]) for c in seen) == sorted(on_field.values())
            assert all(home[c["card"]] == (c["x"], c["y"]) for c in seen if c["card"] is not None)
    assert s.is_terminal() and squares(s) == {"A": (0, 0)} and s.returns() == [1, -1]
    assert s.to_dict()["graveyards"] == [["C"], ["B", "D"]]


def test_MP_Q4_MP_11_the_attacks_keep_the_names_after_the_field_shrinks():
    """MP-Q4, MP-11: after the top row and then the left column empty, the attacks still name
    the squares as they were laid (a position reached over the shrinking field)."""
    s = cross_game().new_initial_state()
    for a in CROSS_MOVES[:5]:
        s = s.apply(a)
    assert s.legal_actions() == ["attack -1,0 -1,-1", "attack -1,0 0,0"]
    s = s.apply("attack -1,0 -1,-1")  # the top row is empty now
    assert s.legal_actions() == ["attack 0,0 -1,0"]
    with pytest.raises(cardlab.IllegalActionError):
        s.apply("attack 1,0 0,0")  # the names the field had when its top-left was 0,0


def test_MP_Q4_translated_layouts_are_one_state_each_with_its_own_names():
    """MP-Q4: positions that differ only by a translation are one position (== and hash, so the
    solver's transposition table and the tree merge them; the value is the same), while each
    keeps the square names of its own game: the first card at 0,0, the moves translated."""
    g = cardlab.load("mipig", cards=TEST_CARDS, hand_size=2, hands=[["R5", "L4"], ["S5", "L6"]],
                     first_player=0, open_hands=True)
    a = placed(g, ["place R5 0,0", "place S5 1,0", "place L4 2,0"])
    b = placed(g, ["place L4 0,0", "place S5 -1,0", "place R5 -2,0"])
    assert a == b and hash(a) == hash(b)
    assert squares(a) == {"R5": (0, 0), "S5": (1, 0), "L4": (2, 0)}
    assert squares(b) == {"R5": (-2, 0), "S5": (-1, 0), "L4": (0, 0)}
    assert b.legal_actions() == [translate(x, -2, 0) for x in a.legal_actions()]
    # what a player knows names the squares too: one information set, one set of move names
    assert a.information_set(1) != b.information_set(1)
    sa, sb = cardlab.solve(a, progress=False), cardlab.solve(b, progress=False)
    assert sa.value == sb.value
    assert sb.best_actions == [translate(x, -2, 0) for x in sa.best_actions]
    assert sb.pv == [translate(x, -2, 0) for x in sa.pv]
    # the tree merges the two into one node, named as the first order reached it
    G = cardlab.tree(g.new_initial_state())
    merged = [n for n in G if G.nodes[n]["state"] == a]
    assert len(merged) == 1
    into = {x for e in G.in_edges(merged[0]) for x in G.edges[e]["action"].split(" | ")}
    assert {"place L4 2,0", "place R5 -2,0"} <= into
    out = {x for e in G.out_edges(merged[0]) for x in G.edges[e]["action"].split(" | ")}
    assert out == set(G.nodes[merged[0]]["state"].legal_actions())


def test_MP_Q4_to_dict_keeps_the_names_and_old_positions_load_as_before():
    """MP-Q4: to_dict() saves each square under its name and state_from_dict() gives it back
    (negative names included); a saved field is taken as named, whatever its smallest x and y,
    so the positions saved before (smallest x and y 0) load with the same names as before."""
    s = cross_game().new_initial_state()
    for a in CROSS_MOVES[:5]:
        s = s.apply(a)
    d = s.to_dict()
    assert min(c["x"] for c in d["field"]) == -1 and min(c["y"] for c in d["field"]) == -1
    t = s.game.state_from_dict(d)
    assert t == s and t.to_dict() == d and t.legal_actions() == s.legal_actions()
    assert [t.explain(a) for a in t.legal_actions()] == [s.explain(a) for a in s.legal_actions()]
    for p in (0, 1):
        assert t.observation(p) == s.observation(p)
    moved = json.loads(json.dumps(d))
    for c in moved["field"]:
        c["x"] += 7
        c["y"] -= 3
    u = s.game.state_from_dict(moved)
    assert u == s and u.to_dict() == moved
    assert u.legal_actions() == [translate(x, 7, -3) for x in s.legal_actions()]
    # every stored position (perft, reference) loads with its own names, as before
    data = Path(__file__).parents[2] / "data"
    stored = 0
    for kind in ("perft", "reference"):
        for e in json.loads((data / kind / "mipig.json").read_text("utf-8")):
            if "position" in e and e["position"]["field"]:
                pos = e["position"]
                got = cardlab.load("mipig", **e.get("options", {})).state_from_dict(pos).to_dict()
                assert got["field"] == pos["field"], e["name"]
                stored += 1
    assert stored >= 5


def test_MP_Q5_which_edge_faces_which():
    """MP-Q5: right against left, left against right, bottom against top, top against bottom."""
    cases = {(1, 0): ("right", 4, "left", 8), (-1, 0): ("left", 3, "right", 9),
             (0, 1): ("bottom", 2, "top", 6), (0, -1): ("top", 1, "bottom", 7)}
    for (dx, dy), want in cases.items():
        s = battle_state([(5, 5, 0, "E1", False), (5 + dx, 5 + dy, 1, "E6", False)])
        (act,) = s.legal_actions()
        b = s.explain_battle(act)
        assert (b.attacker_edge, b.attacker_number, b.defender_edge, b.defender_number) == want


def test_MP_Q6_hidden_cards_and_open_hands():
    """MP-Q6: a face-down card is known to its owner only; hands are unknown; open_hands shows all."""
    g = cardlab.load("mipig", hand_size=3, first_player=0)
    s = g.new_initial_state(seed=8)
    s = s.apply(s.legal_actions()[0])
    me, other = s.observation(0), s.observation(1)
    assert me["field"][0]["card"] is not None and other["field"][0]["card"] is None
    assert other["opponent_hand"] == 2 and isinstance(me["opponent_hand"], int)
    changed = {s.redeal(1, random.Random(i)) for i in range(20)}
    assert len(changed) > 1 and all(t.information_set(1) == s.information_set(1) for t in changed)
    og = g.with_options(open_hands=True)
    assert og.spec.perfect_information and not g.spec.perfect_information
    os_ = og.new_initial_state(seed=8)
    os_ = os_.apply(os_.legal_actions()[0])
    assert os_.observation(1)["field"][0]["card"] is not None
    assert isinstance(os_.observation(1)["opponent_hand"], list)
    assert os_.redeal(1, 3) is os_


def test_redeal_keeps_the_cards_shown_in_the_janken():
    """MP-4 shows a card to the opponent: a re-deal must keep it among that player's cards."""
    g = cardlab.load("mipig", hand_size=3)
    s = g.new_initial_state(seed=2)
    while s.phase == "janken":
        s = s.apply(s.legal_actions()[0])
    shown0 = s.observation(1)["shown"][0]
    assert shown0
    for i in range(30):
        t = s.redeal(1, i)
        assert set(shown0) <= set(t.hand(0)) and t.information_set(1) == s.information_set(1)


# -- explanations, text, positions ------------------------------------------------------
def test_battle_explanation_structured_and_text():
    """Every battle explains its two edges, each bonus and why, the janken, the result."""
    s = battle_state([(0, 0, 0, "L4", False), (1, 0, 1, "R5", False), (0, 1, 0, "L6", True)])
    b = s.explain_battle("attack 0,0 1,0")
    d = b.to_dict()
    assert d["attacker"]["edge"] == "right" and d["defender"]["edge"] == "left"
    assert d["attacker"]["bonus"] == 1 and d["defender"]["bonus"] == 0
    assert d["janken"] == ["rock", "rock"] and d["result"] == "draw" and d["loser"] is None
    text = s.explain("attack 0,0 1,0")
    for part in ("right 右 4", "left 左 5", "+1", "MP-19", "MP-14", "a draw", "MP-15", "MP-Q5"):
        assert part in text, part
    with pytest.raises(cardlab.IllegalActionError, match="not an attack that is legal here"):
        s.explain_battle("attack 1,0 0,0")


def test_text_board_and_explanations_have_japanese_terms():
    g = cardlab.load("mipig", hand_size=2)
    s = g.new_initial_state(seed=3)
    rng = random.Random(3)
    while not s.is_terminal():
        if s.current_player >= 0:
            a = rng.choice(s.legal_actions())
            assert "MP-" in s.explain(a)
        else:
            a = s.chance_outcomes()[0][0]
            assert s.explain(a)
        s = s.apply(a)
    text = str(s)
    assert "フィールド" in text and "墓地" in text and "ゲーム終了" in text


def test_bad_positions_name_the_field():
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "S5", False)])
    d = s.to_dict()
    for change, field in [({"phase": "fight"}, "phase"), ({"to_move": 2}, "to_move"),
                          ({"field": [{"x": 0, "y": 0}]}, r"field\[0\]"),
                          ({"hands": [["R5"], []]}, "hands"), ({"outcome": "1"}, "outcome"),
                          ({"graveyards": [["nope"], []]}, r"graveyards\[0\]")]:
        with pytest.raises(cardlab.PositionError, match=field):
            s.game.state_from_dict({**d, **change})
    assert s.game.state_from_dict(d) == s


def test_janken_beats_is_rock_scissors_paper():
    """MP-14: rock beats scissors, scissors beat paper, paper beats rock."""
    r, sc, p = (MARKS.index(m) for m in ("rock", "scissors", "paper"))
    assert janken_beats(r, sc) and janken_beats(sc, p) and janken_beats(p, r)
    assert not any(janken_beats(m, m) for m in range(3))


# -- perft by hand, exact solving ---------------------------------------------------------
def count(s, depth):
    if depth == 0 or s.is_terminal():
        return 1
    acts = [a for a, _ in s.chance_outcomes()] if s.current_player == CHANCE else s.legal_actions()
    return sum(count(s._apply(a), depth - 1) for a in acts)


def test_perft_counts_by_hand():
    """Placement (MP-6, MP-7): 2 first cards; then 2 cards × 4 edges; then 6 free edges of a domino."""
    s = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0).new_initial_state()
    assert [count(s, d) for d in (1, 2, 3)] == [2, 2 * 8, 2 * 8 * 6]
    # the deal: 30 cards, then 29 (both to player 0)
    r = cardlab.load("mipig").new_initial_state()
    assert [count(r, d) for d in (1, 2)] == [30, 30 * 29]
    # MP-3, one card each: player 1 draws from its own copy (30), or from what player 0 left (29)
    one = cardlab.load("mipig", hand_size=1)
    assert count(one.new_initial_state(), 2) == 30 * 30
    assert count(one.with_options(deal="shared").new_initial_state(), 2) == 30 * 29


def test_perft_of_the_janken_by_hand():
    """MP-4, MP-Q2: duo_a (p01 rock, p09 paper) against duo_b (p05 scissors, p12 paper).
    Depth 1: 2 shows; 2: 4 pairs.  Three pairs decide (rock-scissors: player 0 first;
    rock-paper and paper-scissors: player 1 first), paper-paper ties.  Depth 3: 2 first
    placements in each decided line, 2 new shows after the tie = 8.  Depth 4: 8 second
    placements (2 cards × 4 edges) after each of 6 first placements, 2 answers to each of
    the 2 new shows: 48 + 4 = 52 (tests/data/perft/mipig.json)."""
    s = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"]).new_initial_state()
    assert [count(s, d) for d in (1, 2, 3, 4)] == [2, 4, 8, 6 * 8 + 2 * 2]
    data = {e["name"]: e for e in json.loads(
        (Path(__file__).parents[2] / "data" / "perft" / "mipig.json").read_text("utf-8"))}
    assert (data["duo-janken"]["depth"], data["duo-janken"]["count"]) == (4, 52)
    assert (data["duo-placement"]["depth"], data["duo-placement"]["count"]) == (3, 96)
    assert (data["deal-root"]["depth"], data["deal-root"]["count"]) == (2, 870)


def test_a_one_card_game_solved_by_hand():
    """1 card each, player 0 first: p01 (right 9, left 2, top 4, bottom 4, rock) against p02
    (top 1, bottom 6, left 8, right 7, scissors).  Player 1 places p02 on one of 4 edges; player 0
    attacks: right 9 > left 8 wins, left 2 < right 7 loses, bottom 4 > top 1 wins,
    top 4 < bottom 6 loses.  Player 1 picks a losing edge for player 0: value -1."""
    g = cardlab.load("mipig", hand_size=1, hands=[["p01"], ["p02"]], first_player=0, open_hands=True)
    sol = cardlab.solve(g.new_initial_state(), progress=False)
    assert sol.value == -1
    s = g.new_initial_state().apply("place p01 0,0")
    a = cardlab.analyse(s)
    assert {r["action"]: r["value"] for r in a.rows} == {
        "place p02 -1,0": 1, "place p02 0,-1": 1, "place p02 0,1": -1, "place p02 1,0": -1}


def test_open_hand_solves_of_small_deals():
    """2v2 and 3v3 open-hand full games solve exactly (first player 0, exact end janken)."""
    for n in (2, 3):
        g = cardlab.load("mipig", open_hands=True, hand_size=n, first_player=0, tiebreak="value")
        s = g.new_initial_state(seed=1)
        sol = cardlab.solve(s, progress=False)
        assert -1 <= sol.value <= 1 and sol.best_actions
        assert cardlab.solve(s.apply(sol.best_actions[0]), progress=False).value == sol.value


def test_solve_refuses_hidden_cards():
    g = cardlab.load("mipig", hand_size=2)
    with pytest.raises(cardlab.NotSolvableError, match="open_hands=True"):
        cardlab.solve(g.new_initial_state(seed=1))


def test_max_game_length_holds_for_long_games():
    """The declared bound (deal, janken rounds, placement, ≤ 4n battle moves, tiebreak) holds."""
    g = cardlab.load("mipig", hand_size=10, janken_rounds=3)
    rng = random.Random(5)
    for _ in range(60):
        s, steps = g.new_initial_state(), 0
        while not s.is_terminal():
            a = rng.choice([a for a, _ in s.chance_outcomes()] if s.current_player == CHANCE
                           else s.legal_actions())
            s, steps = s._apply(a), steps + 1
        assert steps <= g.spec.max_game_length


# -- an independent battle referee ----------------------------------------------------------
BEATS = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
FACING = {(1, 0): ("right", "left"), (-1, 0): ("left", "right"), (0, 1): ("bottom", "top"),
          (0, -1): ("top", "bottom")}


def referee(before: dict, action: str, cards: dict) -> tuple:
    """MP-12 … MP-15, MP-19 … MP-22, MP-Q5 written again from the digest, on to_dict data:
    the field (squares by name, owner, card, face up) and the graveyards after the attack.
    A square keeps its name when a card leaves the field (MP-Q4)."""
    (ax, ay), (dx, dy) = (tuple(map(int, p.split(","))) for p in action.split()[1:])
    field = {(c["x"], c["y"]): dict(c) for c in before["field"]}
    att, dfn = field[(ax, ay)], field[(dx, dy)]
    att["face_up"] = dfn["face_up"] = True

    def bonus(owner, attribute):
        n = sum(1 for c in field.values()
                if c["owner"] == owner and c["face_up"] and cards[c["card"]]["attribute"] == attribute)
        return n - 1 if n >= 2 else 0

    ea, ed = FACING[(dx - ax, dy - ay)]
    ta = cards[att["card"]][ea] + bonus(att["owner"], cards[att["card"]]["attribute"])
    td = cards[dfn["card"]][ed] + bonus(dfn["owner"], cards[dfn["card"]]["attribute"])
    ma, md = cards[att["card"]]["janken"], cards[dfn["card"]]["janken"]
    graves = [sorted(g) for g in before["graveyards"]]
    loser = None
    if ta != td:
        loser = (dx, dy) if ta > td else (ax, ay)
    elif (ma, md) in BEATS:
        loser = (dx, dy)
    elif (md, ma) in BEATS:
        loser = (ax, ay)
    if loser:
        gone = field.pop(loser)
        graves[gone["owner"]] = sorted(graves[gone["owner"]] + [gone["card"]])
    cells = sorted((x, y, c["owner"], c["card"], c["face_up"]) for (x, y), c in field.items())
    return cells, graves


def test_every_battle_of_random_games_matches_an_independent_referee():
    """Random 5- and 10-card games: each attack's result equals the referee's (MP-13 … MP-15,
    MP-19 … MP-22), and no square is renamed by it (MP-Q4)."""
    cards = {c["id"]: c for c in json.loads(
        (Path(cardlab.__file__).parent / "data" / "mipig.json").read_text("utf-8"))["cards"]}
    rng = random.Random(11)
    battles = 0
    for n in (5, 10):
        g = cardlab.load("mipig", hand_size=n, first_player="random")
        for _ in range(60):
            s = g.new_initial_state(seed=rng.randrange(10 ** 6))
            while not s.is_terminal():
                if s.current_player == CHANCE:
                    s = s.apply(s.chance_outcomes()[0][0])
                    continue
                a = rng.choice(s.legal_actions())
                t = s.apply(a)
                if a.startswith("attack"):
                    battles += 1
                    cells, graves = referee(s.to_dict(), a, cards)
                    after = t.to_dict()
                    got = sorted((c["x"], c["y"], c["owner"], c["card"], c["face_up"]) for c in after["field"])
                    assert (got, [sorted(x) for x in after["graveyards"]]) == (cells, graves), (a, str(s))
                s = t
    assert battles > 500


def test_solver_agent_plays_the_hidden_game_through_open_hand_copies():
    """MP-Q6: the solver agent solves open-hand re-deals of what it cannot see; the cards shown in
    the janken (kept in hidden positions) are dropped from the open copies without error."""
    g = cardlab.load("mipig", hand_size=2)
    agent = cardlab.agents.SolverAgent(seed=1)
    rng = random.Random(2)
    s = g.new_initial_state(seed=2)
    saw_shown = False
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s = s.apply(s.chance_outcomes()[0][0])
            continue
        saw_shown |= bool(s.observation(0)["shown"][1])
        s = s.apply(agent.choose(s) if s.current_player == 0 else rng.choice(s.legal_actions()))
    assert saw_shown


@pytest.mark.parametrize("deal,rocks", [("shared", {"R2", "R3"}), ("own", {"R1", "R2", "R3"})])
def test_MP_Q2_redeal_respects_an_unbreakable_tie(deal, rocks):
    """MP-Q2, MP-Q6: a coin after 'every card has the same mark' tells each player the other's
    marks; a re-deal of the hidden hand keeps to that mark.  With ``deal="own"`` (MP-3) player 1's
    card comes from its own copy, so it may be R1 too; with ``"shared"`` not."""
    cs = {"cards": [card(f"R{i}", 5, 5, 5, 5, janken="rock") for i in range(1, 4)]
          + [card(f"S{i}", 5, 5, 5, 5, janken="scissors") for i in range(1, 4)]}
    g = cardlab.load("mipig", cards=cs, hand_size=1, deal=deal)
    s = g.new_initial_state().apply("deal R1").apply("deal R2")
    assert s.current_player == CHANCE and s.observation(0)["decided_by"] == "coin: janken tie cannot break"
    dealt = {s.redeal(0, random.Random(i)).hand(1)[0] for i in range(60)}
    assert dealt == rocks
    # a janken is played: so the other hand is not all rock like player 0's
    t = g.new_initial_state().apply("deal R1").apply("deal S2")
    assert t.phase == "janken"
    assert {t.redeal(0, random.Random(i)).hand(1)[0] for i in range(60)} == {"S1", "S2", "S3"}


# -- issue J: every loadable position is one the rules can reach ---------------------------------
def j_end_state():
    """An end reached by the end janken (MP-25, MP-Q3): player 0's scissors beat paper."""
    return tiebreak_state().apply("pick scissors").apply("pick paper")


def test_J_MP_Q2_the_first_player_option_takes_no_float():
    """J, MP-Q2: first_player=1.0 (equal to 1 but not 1) is refused, naming the option."""
    with pytest.raises(cardlab.OptionError, match="first_player"):
        cardlab.load("mipig", first_player=1.0)
    with pytest.raises(cardlab.OptionError, match="first_player"):
        cardlab.load("mipig", first_player=0.0)


@pytest.mark.parametrize("change,field", [
    ({"to_move": 0.0}, "to_move"), ({"first_player": 0.0}, "first_player"),
    ({"to_move": True}, "to_move"), ({"janken_round": False}, "janken_round")])
def test_J_MP_5_MP_10_players_are_whole_numbers_not_floats_or_bools(change, field):
    """J, MP-5, MP-10: the game's own check refuses a float or a bool where a player or a
    round number belongs (to_move=0.0 was accepted, then legal_actions() gave nothing)."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "S5", False)])
    with pytest.raises(cardlab.PositionError, match=field):
        s.game._state_from_dict({**s.to_dict(), **change})
    d = s.to_dict()
    d["field"][0]["owner"] = 0.0
    with pytest.raises(cardlab.PositionError, match=r"field\[0\]\.owner"):
        s.game._state_from_dict(d)


@pytest.mark.parametrize("path,value,field", [
    (("field", 0, "card"), ["R5"], r"field\[0\]\.card"), (("hands", 0), [["R5"]], r"hands\[0\]"),
    (("graveyards", 1), [{"id": "S5"}], r"graveyards\[1\]")])
def test_J_MP_1_card_ids_and_words_of_the_wrong_type_name_the_field(path, value, field):
    """J, MP-1: a list or an object where a card id or a word belongs is refused with a
    PositionError naming the field (it raised TypeError, or was taken as is)."""
    s = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "S5", False)])
    d = s.to_dict()
    place = d
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    with pytest.raises(cardlab.PositionError, match=field):
        s.game.state_from_dict(d)


def test_J_MP_24_MP_25_an_ended_game_keeps_the_outcome_its_cards_give():
    """J, MP-23, MP-24: an end with its outcome negated is refused (the issue's example
    returned [-1, 1] at 3 to 2 face up; here 2 to 1); MP-25, MP-Q3: an end janken ends in a
    win before the last round, in a draw only after janken_rounds tied rounds, with player 1's
    pick (to_move 1), never with a fraction, and the outcome is a string as to_dict writes it."""
    s = battle_state([(0, 0, 0, "W9", False), (1, 0, 1, "R5", False), (0, 1, 0, "W1", True),
                      (1, 1, 1, "G1", True)], tiebreak="draw")
    end = s.apply("attack 0,0 1,0")
    assert end.is_terminal() and end.returns() == [1, -1]
    d = end.to_dict()
    assert s.game.state_from_dict(d) == end
    with pytest.raises(cardlab.PositionError, match="outcome"):
        s.game.state_from_dict({**d, "outcome": "-1"})
    j = j_end_state()
    dj = j.to_dict()
    assert j.returns() == [1, -1] and dj["to_move"] == 1 and j.game.state_from_dict(dj) == j
    for change in ({"outcome": "0"}, {"outcome": "1/3"}, {"janken_round": 5}, {"outcome": 1},
                   {"to_move": 0}):
        with pytest.raises(cardlab.PositionError, match="outcome|janken_round|phase"):
            j.game.state_from_dict({**dj, **change})


def test_J_MP_23_nobody_picks_in_the_end_janken_while_a_card_can_attack():
    """J, MP-23, MP-25: the end janken starts only when neither player can attack: a tiebreak
    position with two touching face-down cards of both players is refused."""
    t = tiebreak_state()
    d = t.to_dict()
    assert t.game.state_from_dict(d) == t
    for c in d["field"]:
        if (c["x"], c["y"]) in ((0, 0), (1, 0)):
            c["face_up"] = False
    with pytest.raises(cardlab.PositionError, match="MP-23"):
        t.game.state_from_dict(d)


def test_J_MP_4_MP_Q2_how_the_first_player_was_decided_fits_the_option():
    """J, MP-4, MP-Q2: a janken or a coin only with the option that calls for it; decided_by
    'option' only with the option's player; a janken round below janken_rounds; a coin is
    chance's move (to_move 0, as the engine writes it)."""
    jk = duo_game(first_player="janken", hands=[["R5", "L4"], ["S5", "L6"]])
    start = jk.new_initial_state()
    assert start.phase == "janken"
    fixed = jk.with_options(first_player=0)
    with pytest.raises(cardlab.PositionError, match="phase|decided_by|first_player"):
        fixed.state_from_dict({**start.to_dict(), "options": fixed.options_dict()})
    place = fixed.new_initial_state().to_dict()
    for change in ({"first_player": 1, "to_move": 1}, {"decided_by": "janken"},
                   {"decided_by": "coin: janken round limit"}):
        with pytest.raises(cardlab.PositionError, match="first_player|decided_by"):
            fixed.state_from_dict({**place, **change})
    with pytest.raises(cardlab.PositionError, match="janken_round"):
        jk.state_from_dict({**start.to_dict(), "janken_round": jk.options["janken_rounds"]})
    coin = jk.with_options(first_player="random")
    toss = coin.new_initial_state()
    assert coin.state_from_dict(toss.to_dict()) == toss
    for change in ({"to_move": 1}, {"decided_by": "coin: janken round limit"}):
        with pytest.raises(cardlab.PositionError, match="to_move|decided_by"):
            coin.state_from_dict({**toss.to_dict(), **change})


def test_J_MP_4_MP_Q6_the_cards_shown_in_the_janken_fit_its_result():
    """J, MP-4, MP-Q2, MP-Q6: after a janken the cards shown are known; a placement decided by a
    janken shows the winning pair (the winner goes first), ties only with equal marks."""
    jk = duo_game(first_player="janken", hands=[["R5", "L4"], ["S5", "L6"]])
    won = jk.new_initial_state().apply("show R5").apply("show S5")  # rock beats scissors
    d = won.to_dict()
    assert d["shown"] == [["R5"], ["S5"]] and d["first_player"] == 0 and jk.state_from_dict(d) == won
    for change in ({"shown": [[], []]}, {"first_player": 1, "to_move": 1},
                   {"shown": [["R5"], ["L6"]]}, {"shown": [["R5", "L4"], ["S5"]]},
                   {"shown": [["R5", "R5"], ["S5"]]}):
        with pytest.raises(cardlab.PositionError, match="shown|first_player"):
            jk.state_from_dict({**d, **change})
    # a tie (rock against rock), then paper beats rock
    tie = duo_game(first_player="janken", hands=[["R5", "P5"], ["R5b", "S5"]]).new_initial_state()
    after = tie.apply("show R5").apply("show R5b").apply("show P5").apply("show R5b")  # paper beats rock
    da = after.to_dict()
    assert da["shown"] == [["R5", "P5"], ["R5b"]] and da["first_player"] == 0
    assert tie.game.state_from_dict(da) == after
    # an open-hands copy drops what was shown, as before
    op = tie.game.with_options(open_hands=True)
    assert op.state_from_dict({**da, "options": op.options_dict()}).to_dict()["shown"] == [[], []]


def test_J_MP_3_the_deal_comes_first_and_only_without_ready_hands():
    """J, MP-3: a dealing position has no janken round, nothing shown and a game without ready
    hands (the option hands has nothing to deal)."""
    g = cardlab.load("mipig", hand_size=2)
    s = g.new_initial_state().apply("deal p01")
    d = s.to_dict()
    assert g.state_from_dict(d) == s
    for change in ({"janken_round": 2}, {"shown": [["p01"], []]}):
        with pytest.raises(cardlab.PositionError, match="janken_round|shown"):
            g.state_from_dict({**d, **change})
    ready = g.with_options(hands=[["p01", "p02"], ["p03", "p04"]])
    with pytest.raises(cardlab.PositionError, match="deal|hands"):
        ready.state_from_dict({**d, "hands": [["p01"], []], "options": ready.options_dict()})


@pytest.mark.parametrize("change,field", [
    ({"attribute": ["love"]}, "attribute"), ({"janken": ["rock"]}, "janken"),
    ({"janken": {"rock": 1}}, "janken")])
def test_J_MP_1_MP_2_card_file_fields_of_the_wrong_type(change, field):
    """J, MP-1, MP-2: a list or an object where a word belongs in a card file is refused with a
    CardFileError naming the file, the card and the field (it raised TypeError)."""
    data = {"cards": [card("A", 1, 1, 1, 1), {**card("B", 2, 2, 2, 2), **change}]}
    with pytest.raises(cardlab.CardFileError, match=rf"card 'B', field '{field}'"):
        cardlab.load("mipig", cards=data)


@pytest.mark.parametrize("data,match", [
    ({"cards": [card("A", 1, 1, 1, 1)], "hands": {"h": [["A"]]}}, r"hand 'h'"),
    ({"cards": [card("A", 1, 1, 1, 1)], "hands": {"h": [{"A": 1}]}}, r"hand 'h'"),
    ({"cards": [card("A", 1, 1, 1, 1)], "name": ["x"]}, r"'name'"),
    ({"cards": [card("A", 1, 1, 1, 1)], "note": {"x": 1}}, r"'note'")])
def test_J_MP_Q1_card_file_names_and_hands_of_the_wrong_type(data, match):
    """J, MP-Q1: the file's name, note and ready hands are type-checked too."""
    with pytest.raises(cardlab.CardFileError, match=match):
        cardlab.load("mipig", cards=data, hand_size=1)


def test_J_MP_5_MP_7_a_placement_is_laid_card_by_card_alternating():
    """J, MP-5, MP-7: a placement field must be one the players can lay one card at a time,
    alternating from the first player, each card touching an earlier one: the row
    1 0 0 0 1 (player 0 first) is connected but cannot be laid (player 1's second card would
    need a neighbour before player 0 has laid the middle), 0 1 0 0 1 can."""
    g = cardlab.load("mipig", hand_size=3, hands=[["p01", "p02", "p03"], ["p04", "p05", "p06"]],
                     first_player=0)

    def pos(owners):
        cards = iter(["p01", "p02", "p03"]), iter(["p04", "p05", "p06"])
        field = [{"x": x, "y": 0, "owner": o, "card": next(cards[o]), "face_up": False}
                 for x, o in enumerate(owners)]
        return {"phase": "placement", "to_move": 1, "first_player": 0, "decided_by": "option",
                "hands": [[], ["p06"]], "field": field, "graveyards": [[], []], "janken_round": 0,
                "pending": None, "shown": [[], []], "outcome": None}

    s = g.state_from_dict(pos([0, 1, 0, 0, 1]))
    assert s.legal_actions()[0].startswith("place p06")
    with pytest.raises(cardlab.PositionError, match=r"field 'field': no placement alternating .*MP-7"):
        g.state_from_dict(pos([1, 0, 0, 0, 1]))


def test_J_MP_15_MP_23_an_end_follows_at_least_one_battle():
    """J, MP-15, MP-23: the battle ends only after an attack, which leaves a face-up card on
    the field: an end with every card face down is refused."""
    g = cardlab.load("mipig", hand_size=1, hands=[["p01"], ["p02"]], first_player=0)
    d = {"phase": "end", "to_move": 0, "first_player": 0, "decided_by": "option", "hands": [[], []],
         "field": [{"x": 0, "y": 0, "owner": 0, "card": "p01", "face_up": False}],
         "graveyards": [[], ["p02"]], "janken_round": 0, "pending": None, "shown": [[], []], "outcome": "0"}
    with pytest.raises(cardlab.PositionError, match=r"face-up card .*MP-15"):
        g.state_from_dict(d)
    d["field"][0]["face_up"] = True  # p01 won its battle and is face up: 1 to 0
    with pytest.raises(cardlab.PositionError, match="outcome"):
        g.state_from_dict(d)
    assert g.state_from_dict({**d, "outcome": "1"}).returns() == [1, -1]


# -- issue Q: the janken solved as the simultaneous game it is (MP-4, MP-Q2, MP-Q3, MP-25) ------
def _two_row_value(A):
    """The exact value of a 2 × n zero-sum matrix game, computed apart from
    cardlab: the row player's payoff x·A[0] + (1-x)·A[1] against each column
    is a line in x; the lower envelope is highest at an end or where two
    lines cross, so the best of those candidates is the value."""
    lines = [(Fraction(a) - Fraction(b), Fraction(b)) for a, b in zip(A[0], A[1])]  # slope, intercept
    xs = {Fraction(0), Fraction(1)}
    for (s1, c1), (s2, c2) in itertools.combinations(lines, 2):
        if s1 != s2 and 0 <= (c2 - c1) / (s1 - s2) <= 1:
            xs.add((c2 - c1) / (s1 - s2))
    return max(min(s * x + c for s, c in lines) for x in xs)


def _filled(A, v):
    return [[v if x is None else x for x in row] for row in A]


def test_Q_the_end_janken_open_hands_is_the_simultaneous_game_MP_25_MP_Q3():
    """MP-25, MP-Q3 (issue Q): rock/scissors for player 0 against rock/paper for player 1,
    equal face-up counts.  The open-hands solve used to let player 1 see player 0's pick
    (value 0); the real game is simultaneous: with janken_rounds=5 (five tied rounds,
    then a draw) it is worth -5/7 to player 0; with no cap (the default: picked again
    until it breaks) -1, the fixed point the capped values fall to."""
    A = [[None, -1], [-1, 1]]  # rows: player 0's rock, scissors; columns: player 1's rock, paper
    v = Fraction(0)
    capped = []
    for _ in range(5):
        v = _two_row_value(_filled(A, v))
        capped.append(v)
    assert capped[-1] == Fraction(-5, 7)
    s5 = tiebreak_state(janken_rounds=5, open_hands=True)
    assert s5.phase == "tiebreak" and s5.simultaneous() == (0, 1)
    sol = cardlab.solve(s5)
    assert sol.value == Fraction(-5, 7)
    # the mixes of the first round, whose tie is worth the four rounds after it (-2/3):
    # x·(-2/3) - (1-x) = -x + (1-x), so rock 6/7 for each
    assert sol.mixes[0] == {"pick rock": Fraction(6, 7), "pick scissors": Fraction(1, 7)}
    assert sol.mixes[1] == {"pick rock": Fraction(6, 7), "pick paper": Fraction(1, 7)}
    assert "player 0 mixes pick rock 6/7, pick scissors 1/7" in str(sol)
    # no cap: the same position comes back after a tie, and the value is the fixed point -1
    s = tiebreak_state(open_hands=True)  # the default: no cap
    assert s.game.options["janken_rounds"] is None
    again = s.apply("pick rock").apply("pick rock")
    assert again == s
    assert cardlab.solve(s).value == -1 == janken_value([0, 1], [0, 2])
    assert _two_row_value(_filled(A, -1)) == -1  # -1 is a fixed point
    w = Fraction(0)
    for n in range(1, 400):
        w = _two_row_value(_filled(A, w))
        assert w > -1 and (n < 5 or w <= capped[-1])  # falling towards it, never past it
    assert w < Fraction(-99, 100)
    # tiebreak='value' ends the game with that value at once
    assert tiebreak_state(tiebreak="value", janken_rounds=None).returns()[0] == -1
    assert tiebreak_state(tiebreak="value", janken_rounds=5).returns()[0] == Fraction(-5, 7)


def test_Q_no_fixed_mix_reaches_the_uncapped_value_one_within_epsilon_does_MP_Q3():
    """MP-Q3 (issue Q), the janken above with no cap: -1 is a value no fixed mix of
    player 1 reaches.  Rock for sure would let player 0 show rock for ever (a tie that
    never ends decides nothing, 0); so player 1 mixes in paper now and then, as the
    matrix with the tie worth -1 + 1/100 says, and holds player 0 to -1 + 2/201 at most,
    within 1/100.  Checked apart from cardlab: against a fixed pick of player 0 the
    game ends with the first round that is not a tie."""
    s = tiebreak_state(open_hands=True)
    sol = cardlab.solve(s)
    assert sol.value == -1 and sol.mix_epsilon == {1: Fraction(1, 100)}
    y = sol.mixes[1]
    assert y == {"pick rock": Fraction(200, 201), "pick paper": Fraction(1, 201)}
    beats = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}
    worst = Fraction(-1)
    for mine in ("rock", "scissors"):  # player 0's fixed pick
        decided = {b.split()[1]: q for b, q in y.items() if b.split()[1] != mine}
        ends = sum(decided.values())
        payoff = sum(q * (1 if (mine, b) in beats else -1) for b, q in decided.items()) / ends
        worst = max(worst, payoff)
    assert worst == Fraction(-199, 201) <= -1 + Fraction(1, 100)
    assert "within 1/100 of the value" in str(sol)
    hint = cardlab.analyse(s.apply("pick rock"))
    assert hint.mix == y and hint.mix_epsilon == Fraction(1, 100) and "within 1/100" in str(hint)
    # two solver agents: the janken ends (player 1's paper, sooner or later)
    for seed in range(5):
        m = cardlab.Match(s.game, ["solver", "solver"], seed=seed, state=s)
        m.play_to_end()
        assert m.state.is_terminal() and len(m.history) % 2 == 0


def test_MP_Q3_the_player_the_uncapped_janken_does_not_favour_ends_it():
    """MP-Q3, MP-25: the janken above with no cap is worth -1 to player 0, who holds
    that with rock (a tie, or -1 against paper) and with scissors (-1 against rock,
    +1 against paper).  Rock only ties player 1's likely rock: against player 1's
    mix (200/201 rock) the choice would end once in 201 rounds, and two levels
    showed rock to each other for hundreds of rounds (a mipig game of the levels'
    round robin that never ended).  Player 0's mix is the pick that holds the value
    and does best against that mix: scissors (-199/201 against -1), and the
    janken ends at its first round."""
    s = tiebreak_state(open_hands=True)
    sol = cardlab.solve(s)
    assert sol.value == -1
    assert sol.mixes[0] == {"pick rock": 0, "pick scissors": 1}
    hint = cardlab.analyse(s)
    assert hint.mix == sol.mixes[0]
    assert {r["action"]: r["value"] for r in hint.rows} == {"pick rock": -1, "pick scissors": Fraction(-199, 201)}
    # the same janken with hidden cards, two levels: over by the first round, every seed
    for seed in range(4):
        m = cardlab.Match(s.game, ["club", "club"], seed=seed, state=tiebreak_state())
        m.play_to_end()
        assert [mv.action for mv in m.history] == ["pick scissors", "pick rock"]


def test_Q_the_first_player_janken_is_a_matrix_game_MP_4_MP_Q2():
    """MP-4, MP-Q2 (issue Q): the first-player janken's value, from the values of the two
    games that follow it (player 0 first, player 1 first: solved with first_player 0 and 1,
    no janken in them), as a matrix game solved apart from cardlab: capped at two tied
    rounds then a coin, and with no cap (rock against rock comes back to the same position)."""
    hands = [["R5", "S5"], ["R5b", "P5"]]  # rock, scissors against rock, paper
    opts = dict(cards=TEST_CARDS, hand_size=2, hands=hands, open_hands=True)
    x0 = cardlab.solve(cardlab.load("mipig", first_player=0, **opts).new_initial_state()).value
    x1 = cardlab.solve(cardlab.load("mipig", first_player=1, **opts).new_initial_state()).value
    assert x0 != x1  # who goes first matters in this deal
    A = [[None, x1], [x1, x0]]  # rock vs rock tie, rock vs paper: 1 first; scissors vs rock: 1; vs paper: 0
    coin = (x0 + x1) / 2
    v = coin
    for _ in range(2):
        v = _two_row_value(_filled(A, v))
    capped = cardlab.load("mipig", first_player="janken", janken_rounds=2, **opts).new_initial_state()
    assert capped.simultaneous() == (0, 1)
    assert cardlab.solve(capped).value == v
    root = cardlab.load("mipig", first_player="janken", janken_rounds=None, **opts).new_initial_state()
    value = cardlab.solve(root).value
    assert _two_row_value(_filled(A, value)) == value  # a fixed point
    w = Fraction(0)
    for _ in range(300):
        w = _two_row_value(_filled(A, w))
    assert abs(w - value) < Fraction(1, 50)  # the one the capped values go to
    # player 1's half: the fair answer comes from the start of the choice, not from the pick
    half = root.apply("show R5")
    a = cardlab.analyse(half)
    assert a.mix == cardlab.analyse(root.apply("show S5")).mix and sum(a.mix.values()) == 1
    assert str(a).splitlines()[1].startswith("a simultaneous choice (同時): the best is to mix")


def test_MP_Q2_MP_Q3_a_tie_on_a_mark_no_card_beats_cannot_break():
    """MP-Q2, MP-Q3 ("if no pick can break the tie"): a tie on a mark that no card of either
    player beats cannot break: picking again could be lost, never won against the tied mark,
    and best play would tie for ever.  The first-player janken goes to a coin, the end
    janken is a draw; a tie on a mark some card beats is picked again.  The value is the
    same as the one the repeated janken converges to (0 both)."""
    # first player: rock, scissors against rock, scissors; no paper anywhere
    g = duo_game(first_player="janken", hands=[["R5", "S5"], ["R5b", "G1"]])
    s = g.new_initial_state()
    assert s.phase == "janken"
    again = s.apply("show S5").apply("show G1")  # scissors tie: the rocks beat scissors
    assert again.phase == "janken" and again.current_player == 0
    assert "a tie: both pick again (MP-Q2)" in s.apply("show S5").explain("show G1")
    coin = s.apply("show R5").apply("show R5b")  # rock tie: no paper, it cannot break
    assert coin.current_player == CHANCE and coin.observation(0)["decided_by"] == "coin: janken tie cannot break"
    assert "no card of either hand beats rock: a fair coin decides (MP-Q2)" in s.apply("show R5").explain("show R5b")
    assert "a janken tie that cannot break" in coin.explain("coin 1")
    for u in (coin, coin.apply("coin 0")):
        assert g.state_from_dict(u.to_dict()) == u
    hidden = cardlab.load("mipig", **dict(g.options, first_player="janken"))
    d = dict(coin.to_dict(), shown=[[], []])  # a tie that cannot break needs a janken played
    with pytest.raises(cardlab.PositionError):
        hidden.state_from_dict(d)
    # the end janken: rock and scissors against rock and scissors; paper nowhere
    cells = [(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True), (5, 3, 1, "S5", True)]
    end = battle_state(cells).apply("attack 0,0 1,0")
    assert end.phase == "tiebreak" and end.tiebreak_marks(0) == end.tiebreak_marks(1) == [0, 1]
    drawn = end.apply("pick rock").apply("pick rock")
    assert drawn.is_terminal() and drawn.returns() == [0, 0]
    assert "a tie that cannot break, no counted card beats rock: a draw (MP-Q3)" in \
        end.apply("pick rock").explain("pick rock")
    assert end.game.state_from_dict(drawn.to_dict()) == drawn
    assert end.apply("pick scissors").apply("pick scissors").phase == "tiebreak"  # rock beats scissors
    assert end.apply("pick rock").apply("pick scissors").returns() == [1, -1]
    assert janken_matrix([0, 1], [0, 1]) == [[0, 1], [-1, None]]
    for rounds in (None, 1, 5):
        assert janken_value([0, 1], [0, 1], rounds) == 0
        assert cardlab.solve(battle_state(cells, open_hands=True, janken_rounds=rounds)
                             .apply("attack 0,0 1,0")).value == 0


def test_Q_trees_solve_tree_and_pygambit_agree_on_a_janken_MP_Q3():
    """MP-Q3 (issue Q): the tree writes the janken in two levels (player 1's nodes in one
    information set); solve_tree, the sequence-form LP and pygambit (through the .efg)
    find the solve's value; with no cap the merged tree has a cycle (the tie) and
    solve_tree finds the fixed point."""
    from cardlab.equilibrium import solve_equilibrium

    s = tiebreak_state(janken_rounds=2, open_hands=True)
    G = cardlab.tree(s, merge_transpositions=False)
    assert G.nodes[0]["simultaneous"] == (0, 1)
    ones = {d["infoset"] for _, d in G.nodes(data=True) if d["player"] == 1 and d["depth"] == 1}
    assert len(ones) == 1  # player 1 does not see player 0's pick
    value = cardlab.solve(s).value
    assert value == Fraction(-1, 2)  # two rounds: 0 → -1/3 → -(4/3)/(8/3)
    assert cardlab.solve_tree(G)[0][0] == value == solve_equilibrium(s).value
    pytest.importorskip("pygambit")
    from cardlab.bridges.gambit import pygambit_value
    assert pygambit_value(G) == value
    H = cardlab.tree(tiebreak_state(open_hands=True, janken_rounds=None))
    assert any(H.has_edge(c, 0) for c in H.succ[0])  # the tie leads back
    assert cardlab.solve_tree(H)[0][0] == -1


def test_J_MP_7_MP_10_MP_12_MP_15_MP_18_battle_fields_are_checked_square_by_square():
    """J, MP-5 … MP-7, MP-10 … MP-18: a battle field is what the placement laid (one group,
    owners alternating from the first player) less the cards lost since (each leaves its
    square empty); a face-up card fought a touching opponent card, face up now or lost
    (MP-12, MP-15); every battle leaves a face-up winner; each attack turns up one face-down
    card of the attacker and the players alternate (MP-10, MP-11, MP-16, MP-18).  Mutations
    of real positions of a seeded game are refused naming the field."""
    g = cardlab.load("mipig", first_player=0)
    m = cardlab.Match(g, ["random"] * 2, seed=0)
    m.play_to_end()
    start = next(s for s in m.states if s.phase == "battle")  # nothing fought yet
    after = m.states[m.states.index(start) + 1]  # player 0's first attack: one card lost
    d0, d1 = start.to_dict(), after.to_dict()
    assert (d0["to_move"], d1["to_move"], d1["graveyards"]) == (0, 1, [[], ["p30"]])
    assert g.state_from_dict(d0) == start and g.state_from_dict(d1) == after

    def refused(d, change, match):
        e = json.loads(json.dumps(d))
        change(e)
        with pytest.raises(cardlab.PositionError, match=match):
            g.state_from_dict(e)

    # a face-up card that fought nobody: its neighbours are face down and nobody lost a card
    refused(d0, lambda e: e["field"][0].update(face_up=True), r"field.*face-up card on 0,-1 .*fought none")
    # a card apart from the others, with no lost card to have joined them (MP-7)
    refused(d0, lambda e: e["field"][0].update(x=9), r"field.*2 groups.*MP-7")
    # a lost card with no battle: the winner would be face up (MP-15)
    refused(d0, lambda e: (e["graveyards"][1].append(e["field"][0]["card"]), e["field"].pop(0)),
            r"field.*every battle leaves its winner.*MP-15")
    refused(d1, lambda e: e["field"][7].update(face_up=False), r"field.*every battle leaves its winner")
    # the first player attacks first (MP-10): player 1 cannot be to move before any attack
    refused(d0, lambda e: e.update(to_move=1), r"field.*alternating attacks.*MP-18")
