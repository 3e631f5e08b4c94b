"""mipig (mipigトレーディングカード) fair play: what each player may know of a
move (``MipigState.public_action``), every position a player cannot tell
apart (``MipigState.hidden`` with :func:`cardlab.hidden.arrangements`), and
the fair hint computed from them.  Each test cites its rule ids (MP-n, MP-Qn).
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from leak import open_average, positions
from test_mipig import battle_state, card

import cardlab
from cardlab import CHANCE, render
from cardlab.agents import open_hands_copy
from cardlab.games.mipig import MARKS
from cardlab.hidden import arrangements, count_fillings

#: six pigs, two of each janken mark: small enough to list every deal
SIX = {"name": "six pigs", "cards": [
    card("R1", 1, 2, 3, 4, "love", "rock"), card("R2", 4, 3, 2, 1, "love", "rock"),
    card("S1", 2, 2, 5, 5, "wisdom", "scissors"), card("S2", 5, 5, 2, 2, "play", "scissors"),
    card("P1", 3, 3, 3, 3, "healing", "paper"), card("P2", 6, 1, 1, 6, "love", "paper")]}
#: three rock pigs and three scissors pigs (MP-Q2: a janken tie that cannot break)
ROCKS = {"cards": [card(f"R{i}", 5, 5, 5, 5, janken="rock") for i in range(1, 4)]
         + [card(f"S{i}", 5, 5, 5, 5, janken="scissors") for i in range(1, 4)]}


def play(game, *actions):
    s = game.new_initial_state()
    for a in actions:
        s = s.apply(a)
    return s


# -- what a viewer may know of a move (MP-4, MP-7, MP-Q3, MP-Q6) ------------------------------
def test_MP_7_the_last_card_laid_face_down_is_not_named_to_the_opponent():
    """MP-5, MP-7, MP-Q6 (regression: in 20 random games, 31 lines like
    "Player 1 lays p26 face down at 2,6" were shown to the opponent, each
    the mover's last card): every card is laid face down, so the opponent
    reads the square and never the card, also when only one card was left."""
    game = cardlab.load("mipig")
    last = 0
    for s, a in positions(game, range(20)):
        if not a.startswith("place "):
            continue
        q = s.current_player
        _, cid, square = a.split()
        seen = render.seen_move(s, a, 1 - q)
        assert (seen.action, seen.hidden, seen.picture) == (f"place ?? {square}", True, "")
        assert seen.label == f"Player {q} lays a card face down at {square}"
        rules = "MP-6, MP-5" if not s.cells() else "MP-7, MP-5"
        assert seen.line == f"Player {q} lays a card face down at {square}. ({rules})"
        assert cid not in seen.line and cid not in seen.label
        own = render.seen_move(s, a, q)
        assert not own.hidden and f"lays {cid} face down at {square}" in own.line
        last += len(s.hand(q)) == 1
    assert last == 40  # both players' last cards of 20 games


def test_MP_4_MP_Q3_the_first_pick_of_a_simultaneous_janken_is_hidden_until_the_second():
    """MP-4 (それぞれ手札から1枚を選び、同時に見せましょう) and MP-25/MP-Q3: player
    0 picks first without showing; player 1 reads ``show ??`` / ``pick ??``
    with the same rule ids whatever was picked.  Player 1's pick completes
    the janken: both cards (marks) are revealed at once, so player 0 reads it
    all.  A card dealt is seen by its owner only (MP-3, MP-Q6)."""
    g = cardlab.load("mipig", cards=SIX, hand_size=2)
    root = g.new_initial_state()
    assert root.public_action("deal R1", 0) == "deal R1" and root.public_action("deal R1", 1) == "deal ??"
    assert render.seen_move(root, "deal R1", 1).line == "Player 0 is dealt a card. (MP-3)"
    s = play(g, "deal R1", "deal P1", "deal S1", "deal S2")
    assert s.phase == "janken" and s.current_player == 0
    lines = {render.seen_move(s, a, 1) for a in s.legal_actions()}
    assert len(lines) == 1
    (seen,) = lines
    assert seen.action == "show ??"
    assert seen.line == ("Player 0 picks a card for the janken to decide who goes first; it stays hidden until "
                         "player 1 picks. (MP-4)")
    t = s.apply("show R1")
    assert [t.public_action(a, 0) for a in t.legal_actions()] == t.legal_actions() == ["show S1", "show S2"]
    assert "against player 0's R1" in render.seen_move(t, "show S1", 0).line
    # the end janken (MP-25, MP-Q3): rock and scissors face up for player 0
    u = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True),
                      (5, 3, 1, "P5", True)]).apply("attack 0,0 1,0")
    assert u.phase == "tiebreak" and u.legal_actions() == ["pick rock", "pick scissors"]
    lines = {render.seen_move(u, a, 1) for a in u.legal_actions()}
    assert [x.line for x in lines] == [
        "Player 0 picks a janken mark; it stays hidden until player 1 picks. (MP-25, MP-Q3)"]
    w = u.apply("pick scissors")
    assert all(w.public_action(a, 0) == a for a in w.legal_actions())


def test_MP_11_MP_12_MP_18_attacks_passes_and_coins_are_public_and_open_hands_shows_all():
    """MP-11, MP-12 (both cards turned face up before everybody), MP-18,
    MP-Q2: attacks, passes and coins are seen by both players; only a
    face-down placement (MP-7), a deal to the other player (MP-3) and player
    0's janken picks (MP-4, MP-Q3) are not, and of those the opponent reads
    the kind.  With open hands (MP-Q6) every move is public but player 0's
    janken pick: open hands show cards, never a choice not yet made (issue Q)."""
    hidden: set[str] = set()
    public: set[str] = set()
    for game in (cardlab.load("mipig", hand_size=3), cardlab.load("mipig", hand_size=2, first_player="random")):
        for s, a in positions(game, range(6), agents=("random", "heuristic")):
            for v in (0, 1):
                seen = s.public_action(a, v)
                if seen == a:
                    public.add(a.split()[0])
                    continue
                assert v != s.current_player
                if a.startswith("place "):
                    assert seen == f"place ?? {a.split()[2]}"
                    seen = "place ??"
                assert seen in ("deal ??", "place ??") or (seen in ("show ??", "pick ??") and v == 1)
                hidden.add(seen)
            o = open_hands_copy(s)
            sealed = a.split()[0] in ("show", "pick") and s.current_player == 0
            assert o.public_action(a, 0) == a
            assert o.public_action(a, 1) == (f"{a.split()[0]} ??" if sealed else a)
    assert {"deal ??", "show ??", "place ??"} <= hidden
    assert {"deal", "show", "place", "attack", "coin"} <= public


def test_MP_Q4_MP_Q6_both_players_name_every_square_alike():
    """MP-Q4, MP-7, MP-Q6 (issue L): a square's name depends only on where cards were laid,
    which both players see, so both read the same names: the square of a face-down card
    laid (``place ?? x,y``), each player's observation, the places of the unseen cards
    (``hidden``) and every re-deal of them (which changes no name) agree with to_dict()."""
    game = cardlab.load("mipig", hand_size=4)
    rng = random.Random(3)
    negative = 0
    for s, a in positions(game, range(12), agents=("random", "heuristic")):
        field = sorted((c["x"], c["y"], c["owner"], c["face_up"]) for c in s.to_dict()["field"])
        negative += any(x < 0 or y < 0 for x, y, *_ in field)
        for v in (0, 1):
            seen = s.observation(v)["field"]
            assert sorted((c["x"], c["y"], c["owner"], c["face_up"]) for c in seen) == field
            down = sorted(f"face down {x},{y}" for x, y, o, up in field if o != v and not up)
            h = s.hidden(v)
            assert sorted(name for name, _ in h.places if name.startswith("face down")) == down
            t = s.redeal(v, rng)
            assert sorted((c["x"], c["y"], c["owner"], c["face_up"]) for c in t.to_dict()["field"]) == field
        if a.startswith("place "):
            mover, square = s.current_player, a.split()[2]
            x, y = (int(w) for w in square.split(","))
            assert s.public_action(a, 1 - mover) == f"place ?? {square}"
            after = s.apply(a).observation(1 - mover)["field"]
            assert [(c["owner"], c["card"]) for c in after if (c["x"], c["y"]) == (x, y)] == [(mover, None)]
    assert negative > 20  # cards were laid left of or above the first one


# -- every position a player cannot tell apart (MP-4, MP-Q2, MP-Q3, MP-Q6) ----------------
def check_arrangements(s, v: int, rng: random.Random) -> int:
    """The arrangements of ``s`` for ``v``: the true position is one, each
    has ``v``'s information set and comes once, the probabilities add up to
    1, and they are exactly the positions that re-deals give.  Returns
    their number."""
    arr = arrangements(s, v, limit=20_000)
    states = {t for t, _ in arr}
    assert s in states and len(states) == len(arr)
    assert sum(w for _, w in arr) == 1 and all(w > 0 for _, w in arr)
    assert all(t.information_set(v) == s.information_set(v) for t in states)
    redeals = {s.redeal(v, rng) for _ in range(30 * len(arr) + 20)}
    assert redeals == states, (v, s.to_dict(), redeals ^ states)
    return len(arr)


@pytest.mark.parametrize("options", [
    {}, {"deal": "shared"}, {"first_player": "random"}, {"first_player": "random", "deal": "shared"},
    {"tiebreak_cards": "all_on_field"}, {"tiebreak_cards": "all_on_field", "tiebreak": "value"},
    {"hands": [["R1", "S2"], ["P1", "R2"]]}, {"hands": [["R1", "S2"], ["R1", "P2"]]}],
    ids=["janken", "janken_shared", "coin", "coin_shared", "all_on_field", "value", "ready_hands",
         "ready_hands_one_card_twice"])
def test_MP_Q6_arrangements_of_small_games_are_the_redeals(options):
    """MP-Q6: the opponent's hand and face-down cards, the cards dealt to
    nobody and player 0's pending janken pick (MP-4, MP-Q3) are what a player
    cannot see; at every position of small games (two cards each out of six,
    each player's from its own copy, MP-3, or both from one set with
    ``deal="shared"``) the arrangements are exactly what re-deals give."""
    game = cardlab.load("mipig", cards=SIX, hand_size=2, **options)
    rng = random.Random(4)
    several = 0
    for s, _ in positions(game, range(8), agents=("random", "heuristic")):
        for v in (0, 1):
            several += check_arrangements(s, v, rng) > 1
    assert several > 50


def test_MP_4_player_0s_pending_janken_card_is_one_of_its_hand_for_player_1():
    """MP-4: while player 1 picks, player 0's card is hidden: it is one more
    place (a card of player 0's hand), so with one shared card set
    (``deal="shared"``) each of the 4 x 3 ordered pairs of the 4 cards
    player 1 cannot see is one arrangement; for player 0 only player 1's
    hand is unknown (6 pairs)."""
    g = cardlab.load("mipig", cards=SIX, hand_size=2, deal="shared")
    s = play(g, "deal R1", "deal P1", "deal S1", "deal S2", "show P1")
    h = s.hidden(1)
    assert h.places == (("janken pick", 1), ("opponent hand", 1), ("dealt to nobody", 2))
    arr = arrangements(s, 1)
    assert len(arr) == 12 and all(w == Fraction(1, 12) for _, w in arr)
    assert {(t.to_dict()["pending"], tuple(t.hand(0))) for t, _ in arr} == {
        (a, tuple(sorted((a, b), key=g.index.get))) for a, b in permutations(["R1", "R2", "P1", "P2"], 2)}
    assert len(arrangements(s, 0)) == 6 and s.hidden(0).places == (("opponent hand", 2), ("dealt to nobody", 2))


def test_MP_3_MP_4_with_own_copies_the_opponents_cards_may_be_mine_too():
    """MP-3 (seed: 「お互いに同じ枚数のカードを手札として用意します」, each player's
    own cards, ``deal="own"``), MP-4, MP-Q6: player 1 holds S1 and S2, player
    0 R1 and P1.  Player 0's cards come from player 0's own copy, so while
    player 1 picks, player 0's shown card and the other card of its hand are
    an ordered pair of the 6 cards, S1 and S2 included, but not S1 and S2
    together (all four cards scissors: no janken, a coin, MP-Q2): 6 x 5 - 2
    = 28 arrangements of 1/28; for player 0, player 1's hand is any 2 of the
    6: C(6, 2) = 15, one of them R1 and P1 like its own."""
    g = cardlab.load("mipig", cards=SIX, hand_size=2)
    s = play(g, "deal R1", "deal P1", "deal S1", "deal S2", "show P1")
    assert s.hidden(1).places == (("janken pick", 1), ("opponent hand", 1), ("dealt to nobody", 4))
    arr = arrangements(s, 1)
    assert len(arr) == 28 and all(w == Fraction(1, 28) for _, w in arr)
    assert {(t.to_dict()["pending"], tuple(t.hand(0))) for t, _ in arr} == {
        (a, tuple(sorted((a, b), key=g.index.get))) for a, b in permutations(g.ids, 2) if {a, b} != {"S1", "S2"}}
    arr0 = arrangements(s, 0)
    assert len(arr0) == 15 and all(w == Fraction(1, 15) for _, w in arr0)
    assert ("R1", "P1") in {tuple(t.hand(1)) for t, _ in arr0}
    # a hand dealt a card the other player holds too
    t = play(g, "deal R1", "deal P1", "deal R1", "deal S2")
    assert t.hand(0) == ["R1", "P1"] and t.hand(1) == ["R1", "S2"]
    assert sorted(tuple(u.hand(1)) for u, _ in arrangements(t, 0)) == sorted(
        tuple(sorted(pair, key=g.index.get)) for pair in combinations(g.ids, 2))
    # both show their R1 (MP-4): a tie (MP-Q2), each player's R1 is known and stays in its hand
    tie = t.apply("show R1").apply("show R1")
    assert tie.phase == "janken" and tie.observation(0)["shown"] == [["R1"], ["R1"]]
    assert g.state_from_dict(tie.to_dict()) == tie
    assert t.apply("show R1").public_action("show R1", 0) == "show R1"
    assert sorted(tuple(u.hand(1)) for u, _ in arrangements(tie, 0)) == sorted(
        ("R1", c) for c in ("R2", "S1", "S2", "P1", "P2"))


@pytest.mark.parametrize("deal,others", [("shared", ["R2", "P1", "P2"]), ("own", ["R1", "R2", "S2", "P1", "P2"])])
def test_MP_4_a_card_shown_in_the_janken_stays_with_its_player(deal, others):
    """MP-4 (the shown cards go back to the hands): after a tied round both
    shown cards are known, so player 1's hand holds S1 and one card player 0
    cannot place: one of the three left by player 0's two (one shared card
    set), or with own copies (MP-3) any of the five others of player 1's
    set; a filling that deals S1 to nobody is none."""
    g = cardlab.load("mipig", cards=SIX, hand_size=2, deal=deal)
    s = play(g, "deal R1", "deal S2", "deal S1", "deal P1", "show S2", "show S1")
    assert s.phase == "janken" and s.observation(0)["shown"] == [["S2"], ["S1"]]
    arr = arrangements(s, 0)
    assert sorted(tuple(t.hand(1)) for t, _ in arr) == sorted(
        tuple(sorted(("S1", c), key=g.index.get)) for c in others)
    assert all(w == Fraction(1, len(others)) for _, w in arr)


@pytest.mark.parametrize("deal", ["shared", "own"])
def test_MP_Q2_the_marks_of_a_tie_that_cannot_break_and_of_a_played_janken(deal):
    """MP-Q2: a coin "every card has the same mark" tells player 0 that player
    1's card is a rock too (R2 or R3; with own copies, MP-3, R1 as well); a
    janken played tells it that player 1's card is not (S1, S2 or S3),
    though the information set says neither."""
    g = cardlab.load("mipig", cards=ROCKS, hand_size=1, deal=deal)
    s = play(g, "deal R1", "deal R2")
    unseen, rocks = (tuple(range(1, 6)), ["R2", "R3"]) if deal == "shared" else (tuple(range(6)), ["R1", "R2", "R3"])
    assert s.current_player == CHANCE and s.hidden(0).cards == unseen
    assert sorted(t.hand(1)[0] for t, _ in arrangements(s, 0)) == rocks
    t = play(g, "deal R1", "deal S2")
    assert t.phase == "janken"
    assert sorted(u.hand(1)[0] for u, _ in arrangements(t, 0)) == ["S1", "S2", "S3"]
    assert {t.redeal(0, seed).hand(1)[0] for seed in range(60)} == {"S1", "S2", "S3"}


ROCK4 = {"cards": [card(f"R{i}", 5, 5, 5, 5, janken="rock") for i in range(1, 5)]
         + [card("S1", 5, 5, 5, 5, janken="scissors"), card("P1", 5, 5, 5, 5, janken="paper")]}


def end_janken(game, up1: str, down1: str, **changes):
    """Equal face-up counts (MP-25): player 0 has R1 face up and R2 face
    down, player 1 ``up1`` face up and ``down1`` face down, none touching
    an opponent card; with ``tiebreak_cards='all_on_field'`` face-down marks
    count too (MP-Q3)."""
    d = {"phase": "tiebreak", "to_move": 0, "first_player": 0, "decided_by": "option", "hands": [[], []],
         "field": [{"x": 0, "y": 0, "owner": 0, "card": "R1", "face_up": True},
                   {"x": 1, "y": 0, "owner": 1, "card": up1, "face_up": True},
                   {"x": 0, "y": 1, "owner": 0, "card": "R2", "face_up": False},
                   {"x": 2, "y": 0, "owner": 1, "card": down1, "face_up": False}],
         "graveyards": [[], []], "janken_round": 0, "pending": None, "shown": [[], []], "outcome": None}
    d.update(changes)
    return game.state_from_dict(d)


def face_down_of_1(s, v: int = 0) -> list[str]:
    """Player 1's face-down card in each arrangement for ``v``, sorted."""
    return sorted(t.to_dict()["field"][3]["card"] for t, _ in arrangements(s, v))


@pytest.mark.parametrize("deal,mine", [("shared", []), ("own", ["R1", "R2"])])
def test_MP_25_MP_Q3_the_end_janken_fits_the_face_down_marks(deal, mine):
    """MP-25, MP-Q3 with ``tiebreak_cards='all_on_field'``: player 0's cards
    are all rock.  Against player 1's face-up rock, had player 1's face-down
    card been the rock R4 no pick could break the tie and the game would
    have ended in a draw: at the end janken player 0 knows it is S1 or P1
    (re-deals too).  Against a face-up scissors, a tied round needs a rock:
    R3 or R4, not P1.  With ``tiebreak='value'`` the value tells: 0 (R4 or
    S1: player 1 can always tie) or -1 (P1: paper beats rock).  With own
    copies (MP-3) player 0's rocks R1 and R2 are among player 1's rocks too."""
    g = cardlab.load("mipig", cards=ROCK4, hand_size=2, first_player=0, tiebreak_cards="all_on_field",
                     deal=deal, janken_rounds=5)
    s = end_janken(g, "R3", "S1")
    assert s.legal_actions() == ["pick rock"]
    assert face_down_of_1(s) == ["P1", "S1"]
    assert {s.redeal(0, seed).to_dict()["field"][3]["card"] for seed in range(40)} == {"P1", "S1"}
    assert face_down_of_1(end_janken(g, "S1", "P1")) == ["P1"] + mine + ["R3", "R4"]
    assert face_down_of_1(end_janken(g, "S1", "R3", janken_round=1)) == mine + ["R3", "R4"]
    v = g.with_options(tiebreak="value")
    for outcome, cards in (("0", mine + ["R4", "S1"]), ("-1", ["P1"])):
        e = end_janken(v, "R3", cards[-1], phase="end", outcome=outcome)
        assert e.possible() and e.returns()[0] == int(outcome)
        assert face_down_of_1(e) == cards


def test_MP_Q3_player_0s_pending_mark_is_hidden_from_player_1():
    """MP-25, MP-Q3: while player 1 picks, player 0's mark is one of its two
    legal marks (rock, scissors), each an arrangement of weight 1/2."""
    u = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True),
                      (5, 3, 1, "P5", True)]).apply("attack 0,0 1,0")
    w = u.apply("pick rock")
    h = w.hidden(1)
    assert h.cards == MARKS and h.places[-2:] == (("end janken pick", 1), ("marks not picked", 2))
    arr = arrangements(w, 1)
    assert sorted(t.to_dict()["pending"] for t, _ in arr) == ["rock", "scissors"]
    assert all(p == Fraction(1, 2) for _, p in arr)
    assert arrangements(w, 0) == [(w, 1)]


# -- the fair hint (MP-Q6) ----------------------------------------------------------------------
def last_placement(first_cards: tuple[str, str], hand1: tuple[str, str], game=None):
    """Player 1 lays its last card (MP-5, MP-9): player 0's ``first_cards``
    lie face down at 0,0 and 0,1, player 1's first card at 1,0."""
    game = game or cardlab.load("mipig", cards=SIX, hand_size=2, first_player=0)
    d = {"phase": "placement", "to_move": 1, "first_player": 0, "decided_by": "option",
         "hands": [[], [hand1[1]]],
         "field": [{"x": 0, "y": 0, "owner": 0, "card": first_cards[0], "face_up": False},
                   {"x": 0, "y": 1, "owner": 0, "card": first_cards[1], "face_up": False},
                   {"x": 1, "y": 0, "owner": 1, "card": hand1[0], "face_up": False}],
         "graveyards": [[], []], "janken_round": 0, "pending": None, "shown": [[], []], "outcome": None}
    return game.state_from_dict(d)


def brute_force_hint(s, p: int) -> dict[str, Fraction]:
    """Every order of the cards ``p`` cannot see, the first ones laid on the
    opponent's face-down squares, each world solved with open hands and
    averaged with equal weight.  The cards ``p`` cannot see: one shared
    card set (``deal="shared"``), those not in ``p``'s observation; own
    copies (MP-3), the opponent's copy but the opponent's cards seen."""
    game = s.game
    seen = s.observation(p)
    if game.options["deal"] == "shared":
        known = set(seen["hand"]) | {c["card"] for c in seen["field"] if c["card"]}
    else:
        known = {c["card"] for c in seen["field"] if c["card"] and c["owner"] != p}
    unseen = [c for c in game.ids if c not in known]
    squares = [i for i, c in enumerate(seen["field"]) if c["card"] is None]
    worlds = []
    for order in permutations(unseen):
        d = s.to_dict()
        for i, cid in zip(squares, order):
            d["field"][i]["card"] = cid
        worlds.append((game.state_from_dict(d), 1))
    return open_average(s, p, worlds)


@pytest.mark.parametrize("deal,ways", [("shared", 4 * 3), ("own", 6 * 5)])
def test_MP_Q6_fair_hint_at_the_last_placement_is_the_average_over_player_0s_face_down_cards(deal, ways):
    """MP-Q6, MP-5 … MP-9: player 1's fair hint for its last card is the
    exact equal-weight average of the open-hands values over the ways player
    0's two face-down cards may be: with one shared card set the 4 x 3
    ordered pairs of the cards player 1 does not hold, with own copies
    (MP-3, 「お互いに同じ枚数のカードを手札として用意します」) the 6 x 5 ordered
    pairs of player 0's whole set, P1 and R2 (player 1's own) included.  Two
    positions player 1 cannot tell apart get the same hint."""
    game = cardlab.load("mipig", cards=SIX, hand_size=2, first_player=0, deal=deal)
    s = last_placement(("R1", "S2"), ("P1", "R2"), game)
    assert count_fillings(s, 1, 100) == ways
    fair = cardlab.analyse(s, player=1)
    assert (fair.kind, fair.arrangements) == ("fair", ways)
    values = {r["action"]: r["value"] for r in fair.rows}
    assert values == brute_force_hint(s, 1)
    assert len(set(values.values())) > 1  # the hint tells the squares apart
    twin = last_placement(("P2", "S1"), ("P1", "R2"), game)
    assert twin != s and twin.information_set(1) == s.information_set(1)
    assert cardlab.analyse(twin, player=1).rows == fair.rows
    if deal == "own":  # player 0 may have laid player 1's own P1 and R2
        same = last_placement(("P1", "R2"), ("P1", "R2"), game)
        assert same.information_set(1) == s.information_set(1)
        assert cardlab.analyse(same, player=1).rows == fair.rows


def test_MP_Q3_fair_hint_of_the_end_janken_ignores_player_0s_hidden_pick():
    """MP-25, MP-Q3 (issue Q): player 0 (rock, scissors) has picked; player 1
    (rock, paper) does not know which.  One round, then a draw
    (janken_rounds=1): the matrix for player 0 is [[0, -1], [-1, 1]] (rows
    rock, scissors; columns rock, paper); by hand player 0 plays rock 2/3
    (0·x - (1 - x) = -x + (1 - x)), and against that both of player 1's
    picks are worth 1/3 to player 1, whose own best mix is rock 2/3, paper
    1/3.  The same hint whichever mark player 0 really picked, and the same
    as with open hands: the pick is sealed in both."""
    u = battle_state([(0, 0, 0, "R5", False), (1, 0, 1, "R5b", False), (0, 3, 0, "G9", True),
                      (5, 3, 1, "P5", True)], janken_rounds=1).apply("attack 0,0 1,0")
    hints = []
    for picked in ("pick rock", "pick scissors"):
        fair = cardlab.analyse(u.apply(picked), player=1)
        assert (fair.kind, fair.arrangements) == ("fair", 2)
        assert fair.mix == {"pick rock": Fraction(2, 3), "pick paper": Fraction(1, 3)}
        hints.append({r["action"]: r["value"] for r in fair.rows})
        opened = cardlab.analyse(open_hands_copy(u.apply(picked)))
        assert {r["action"]: r["value"] for r in opened.rows} == hints[-1]
    assert hints[0] == hints[1] == {"pick rock": Fraction(1, 3), "pick paper": Fraction(1, 3)}


@pytest.mark.parametrize("deal,ways", [("shared", 4 * 3), ("own", 6 * 5 - 2)])
def test_MP_4_fair_hint_of_the_first_player_janken_ignores_player_0s_hidden_card(deal, ways):
    """MP-4 (同時に見せましょう): while player 1 picks, player 0's card is hidden,
    with open hands too (issue Q: the open-hands value for player 1 is that of
    the simultaneous choice, not of the pick, so it is the same after R1 and
    after P1); the fair hint averages over every card player 0 may hold and show (4 x 3
    ordered pairs from one shared set; 6 x 5 from player 0's own copy, MP-3,
    less S1 with S2 and S2 with S1, which would leave only scissors and a
    coin instead of a janken, MP-Q2), so it is the same whichever card was
    really shown."""
    g = cardlab.load("mipig", cards=SIX, hand_size=2, deal=deal)
    shown = [play(g, "deal R1", "deal P1", "deal S1", "deal S2", f"show {c}") for c in ("R1", "P1")]
    opened = [cardlab.analyse(open_hands_copy(s)).rows for s in shown]
    assert opened[0] == opened[1]
    hints = [cardlab.analyse(s, player=1) for s in shown]
    assert [(h.kind, h.arrangements) for h in hints] == [("fair", ways)] * 2
    assert hints[0].rows == hints[1].rows


def test_MP_Q3_the_sampled_fair_hint_of_a_full_games_end_janken():
    """MP-25, MP-Q3, MP-Q6: at the end janken of a 5-card game player 1
    cannot see player 0's mark, face-down cards nor the 25 cards of player
    0's own copy (MP-3) dealt to nobody (with the two marks not picked: 27):
    too many arrangements to list, so the hint samples them (each
    draw must find a legal mark quickly) and is the same for every
    position player 1 cannot tell apart."""
    game = cardlab.load("mipig")
    found = [s for s, _ in positions(game, range(60)) if s.phase == "tiebreak" and s.current_player == 1
             and count_fillings(s, 1, 500) is None]
    assert found
    s = found[0]
    assert s.hidden(1).places[-2:] == (("end janken pick", 1), ("dealt to nobody", 27))
    hint = cardlab.analyse(s, player=1)
    assert hint.kind == "sampled" and hint.arrangements == 40
    rng = random.Random(6)
    for _ in range(3):
        t = s.redeal(1, rng)
        assert cardlab.analyse(t, player=1).rows == hint.rows
