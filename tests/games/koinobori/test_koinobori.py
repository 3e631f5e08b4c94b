"""Koi-koi Nobori (こいこいのぼり): every rule of docs/rules/koinobori.md.

Each test cites its rule ids (KN-n, KN-Qn).  Positions are written as
``to_dict`` dicts, the way a teacher sets up a lesson.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.games.koinobori import CARDS, COLOURS, load_deck


def pos(game, *, stage="turn", to_move=0, deck=None, field=None, hands=None, nobori=None,
        kabuto=(0, 0), koikoi=(0, 0), won=None, then=""):
    """A position dict; the deck gets whatever the other zones leave of the card file."""
    field = field if field is not None else {"higoi": 1, "aokoi": 1, "magoi": 1}
    hands = hands or [{}, {}]
    nobori = nobori or [{}, {}]
    if deck is None:
        left = dict(game.deck_data["cards"])
        for zone in [field, *hands]:
            for c, n in zone.items():
                left[c] -= n
        for nob in nobori:
            for k, n in nob.items():
                if k.startswith("fuki+"):
                    left["fukinagashi"] -= n
                    left[k[5:]] -= n
                else:
                    left[k] -= 2 * n
        left["kabutogaeshi"] -= sum(kabuto)
        deck = left
    return game.state_from_dict({
        "stage": stage, "to_move": to_move, "deck": deck, "field": field, "hands": hands,
        "nobori": nobori, "kabutogaeshi_used": list(kabuto), "koikoi": list(koikoi),
        "koikoi_won": won, "then": then, "options": game.options_dict()})


@pytest.fixture
def game():
    return cardlab.load("koinobori")


@pytest.fixture
def open_game():
    return cardlab.load("koinobori", open_hands=True)


# -- cards ---------------------------------------------------------------------
def test_KN_1_three_carp_colours_KN_Q1_default_deck(game):
    """KN-1 carp in three colours; KN-Q1 the default deck is cardlab's own data."""
    deck = load_deck()
    assert COLOURS == ("higoi", "aokoi", "magoi")
    assert deck["cards"] == {"higoi": 6, "aokoi": 6, "magoi": 6, "fukinagashi": 3, "kabutogaeshi": 2}
    assert deck["points"] == {"magoi": 3, "higoi": 2, "aokoi": 1}
    assert "cardlab's own choice" in deck["name"]


def test_KN_2_fukinagashi_pairs_with_any_carp_never_with_another(game):
    """KN-2: a fukinagashi pairs with a carp of any colour; two never pair."""
    s = pos(game, hands=[{"fukinagashi": 1}, {"aokoi": 1}])
    assert [a for a in s.legal_actions() if a.startswith("nobori")] == [
        "nobori fuki+higoi", "nobori fuki+aokoi", "nobori fuki+magoi"]
    # the field only ever holds carp: a fukinagashi cannot be played there to meet another
    assert "play fukinagashi" not in s.legal_actions()
    with pytest.raises(cardlab.IllegalActionError):
        s.apply("play fukinagashi")


def test_KN_3_KN_11_kabutogaeshi_returns_a_nobori_and_leaves_two_in_hand(game):
    """KN-3, KN-11 (seed flow): kabutogaeshi sends both cards of an opponent's
    nobori back into the deck; no refill, so the player goes on with 2 cards."""
    s = pos(game, hands=[{"kabutogaeshi": 1, "higoi": 1, "aokoi": 1}, {"magoi": 1}],
            nobori=[{}, {"fuki+magoi": 1, "aokoi": 1}])
    deck_before = s.deck_size
    t = s.apply("kabuto fuki+magoi")
    assert t.nobori(1)["fuki+magoi"] == 0 and t.nobori(1)["aokoi"] == 1
    assert t.deck_size == deck_before + 2
    assert t.to_dict()["deck"]["fukinagashi"] == s.to_dict()["deck"]["fukinagashi"] + 1
    assert sum(t.hand(0).values()) == 2  # no hand refill
    assert t.to_dict()["kabutogaeshi_used"] == [1, 0]  # beside the captured cards
    assert t.current_player == 1  # the turn is over; no chance event followed
    assert "KN-11" in s.explain("kabuto fuki+magoi")


def test_KN_Q6_kabutogaeshi_needs_an_opponent_nobori(game):
    """KN-Q6: not allowed when the opponent has no nobori."""
    s = pos(game, hands=[{"kabutogaeshi": 1, "higoi": 1}, {"magoi": 1}])
    assert not any(a.startswith("kabuto") for a in s.legal_actions())
    with pytest.raises(cardlab.IllegalActionError, match="Legal: nobori higoi, play higoi"):
        s.apply("kabuto higoi")


# -- set-up ----------------------------------------------------------------------
def test_KN_4_KN_5_KN_6_KN_7_setup(game):
    """KN-4 one carp of each colour on the field; KN-5 the rest is the deck;
    KN-6/KN-7 the first player (seat 0) draws 3, then the second, first starts."""
    root = game.new_initial_state()
    assert root.field == {"higoi": 1, "aokoi": 1, "magoi": 1}
    assert root.deck_size == 23 - 3
    assert root.current_player == CHANCE
    outs = dict(root.chance_outcomes())
    assert outs == {"deal higoi": Fraction(5, 20), "deal aokoi": Fraction(5, 20),
                    "deal magoi": Fraction(5, 20), "deal fukinagashi": Fraction(3, 20),
                    "deal kabutogaeshi": Fraction(2, 20)}
    s = root
    for i, a in enumerate(["deal higoi", "deal higoi", "deal magoi", "deal aokoi"]):
        s = s.apply(a)
    assert s.hand(0) == {"higoi": 2, "aokoi": 0, "magoi": 1, "fukinagashi": 0, "kabutogaeshi": 0}
    assert sum(s.hand(1).values()) == 1  # the fourth card goes to the second player
    s = s.apply("deal aokoi").apply("deal fukinagashi")
    assert s.current_player == 0 and s.stage == "turn"
    assert s.deck_size == 14


# -- a turn ------------------------------------------------------------------------
def test_KN_8_nobori_then_hand_refill_then_field_refill_with_reshuffle(game):
    """KN-8 (seed flow): make a nobori → draw 1 into the hand → refill the field:
    reveal until a carp, lay it, shuffle the rest back (the outcome is the carp's
    colour with probability carps of that colour / carps in the deck)."""
    s = pos(game, hands=[{"higoi": 1, "aokoi": 1, "fukinagashi": 1}, {"magoi": 3}])
    t = s.apply("nobori higoi")
    assert t.nobori(0)["higoi"] == 1 and t.field["higoi"] == 0
    assert t.current_player == CHANCE and t.stage == "draw_hand"
    n = t.deck_size
    outs = dict(t.chance_outcomes())
    assert outs["draw fukinagashi"] == Fraction(t.to_dict()["deck"]["fukinagashi"], n)
    u = t.apply("draw fukinagashi")
    assert u.hand(0)["fukinagashi"] == 2 and u.stage == "refill"
    deck = u.to_dict()["deck"]
    carps = deck["higoi"] + deck["aokoi"] + deck["magoi"]
    assert dict(u.chance_outcomes()) == {f"refill {c}": Fraction(deck[c], carps) for c in COLOURS}
    v = u.apply("refill magoi")
    assert v.field == {"higoi": 0, "aokoi": 1, "magoi": 2}
    assert v.current_player == 1 and v.deck_size == n - 2
    assert "KN-8" in s.explain("nobori higoi")


def test_KN_9_KN_Q9_fukinagashi_pair_counts_as_the_carp_colour(game):
    """KN-9, KN-Q9 default: a pair made with a fukinagashi is stacked on top and
    scores as its carp, like a plain pair of that colour."""
    s = pos(game, nobori=[{"fuki+magoi": 1, "higoi": 1}, {"fuki+aokoi": 2}], hands=[{"higoi": 1}, {"aokoi": 1}])
    assert s.score(0) == 3 + 2 and s.score(1) == 1 + 1


def test_KN_Q9_card_file_gives_fukinagashi_pairs_their_own_points(tmp_path):
    """KN-Q9: a card file may give fukinagashi pairs their own points with the
    optional field fukinagashi_points (carp colour -> points); a colour it
    leaves out scores as its carp."""
    data = load_deck()
    assert data["fukinagashi_points"] == data["points"]  # the default: as the carp
    data["fukinagashi_points"] = {"magoi": 5, "aokoi": 0}
    path = tmp_path / "fuki.json"
    path.write_text(json.dumps(data), "utf-8")
    assert load_deck(str(path))["fukinagashi_points"] == {"higoi": 2, "aokoi": 0, "magoi": 5}
    g = cardlab.load("koinobori", deck=str(path), payoff="score")
    s = pos(g, nobori=[{"fuki+magoi": 1, "magoi": 1}, {"fuki+aokoi": 1, "fuki+higoi": 1}],
            hands=[{"higoi": 1}, {"aokoi": 1}])
    assert s.score(0) == 5 + 3 and s.score(1) == 0 + 2
    plain = cardlab.load("koinobori", payoff="score")
    assert g.spec.max_utility > plain.spec.max_utility  # 3 fukinagashi may score 5 with a magoi
    from cardlab.games.koinobori import render as kr
    assert "<title>nobori fuki+magoi ふきながし+まごい: 5 points</title>" in kr.html(s)


def test_KN_10_play_and_draw_with_immediate_capture(game):
    """KN-10 (seed flow): play a hand card to the field, draw; a drawn card that
    pairs with a field card is captured at once, otherwise it joins the hand."""
    s = pos(game, hands=[{"aokoi": 1, "kabutogaeshi": 1}, {"magoi": 1}])
    t = s.apply("play aokoi")
    assert t.field["aokoi"] == 2 and t.stage == "draw_play"
    hit = t.apply("draw higoi")
    assert hit.nobori(0)["higoi"] == 1 and hit.field["higoi"] == 0
    assert hit.stage == "draw_hand"  # KN-Q3 default: the KN-8 steps follow a draw capture
    miss = t.apply("draw kabutogaeshi")
    assert miss.hand(0)["kabutogaeshi"] == 2 and miss.current_player == 1
    assert "captured at once (KN-10)" in t.explain("draw higoi")


def test_KN_10_kabutogaeshi_and_fukinagashi_are_never_played_to_the_field(game):
    """KN-10: never a kabutogaeshi or a fukinagashi onto the field."""
    s = pos(game, hands=[{"kabutogaeshi": 1, "fukinagashi": 1, "higoi": 1}, {"magoi": 1}])
    plays = [a for a in s.legal_actions() if a.startswith("play")]
    assert plays == ["play higoi"]
    for bad in ("play kabutogaeshi", "play fukinagashi"):
        with pytest.raises(cardlab.IllegalActionError):
            s.apply(bad)


def test_KN_10_drawn_fukinagashi_chooses_its_carp(game):
    """KN-10 with KN-2: a drawn fukinagashi pairs with any field carp; with several
    colours on the field the player chooses which."""
    s = pos(game, hands=[{"aokoi": 1}, {"magoi": 1}])
    t = s.apply("play aokoi").apply("draw fukinagashi")
    assert t.current_player == 0 and t.legal_actions() == ["capture higoi", "capture aokoi", "capture magoi"]
    u = t.apply("capture magoi")
    assert u.nobori(0)["fuki+magoi"] == 1 and u.field["magoi"] == 0
    assert u.stage == "draw_hand"  # KN-Q3: then the KN-8 steps
    v = u.apply("draw higoi")
    assert sum(v.field.values()) == 3 and v.current_player == 1  # field still full: no refill


def test_KN_Q3_refill_after_draw_capture_default_and_literal_option():
    """KN-Q3: by default a capture by the drawn card (KN-10) is a nobori and the
    KN-8 steps follow (draw 1 into the hand, refill the field); the option
    refill_after_draw_capture=False is the literal reading: no hand draw."""
    assert cardlab.load("koinobori").OPTIONS["refill_after_draw_capture"].default is True
    for option, stage in ((True, "draw_hand"), (False, "turn")):
        g = cardlab.load("koinobori", refill_after_draw_capture=option)
        s = pos(g, hands=[{"aokoi": 1, "magoi": 1}, {"magoi": 1}])
        t = s.apply("play aokoi").apply("draw higoi")
        assert t.nobori(0)["higoi"] == 1 and t.stage == stage
        if option:
            assert t.current_player == CHANCE and t.apply("draw aokoi").hand(0)["aokoi"] == 1
            assert "then draws 1" in s.apply("play aokoi").explain("draw higoi")
        else:
            assert sum(t.hand(0).values()) == 1 and t.current_player == 1
            assert "no hand draw (KN-Q3" in s.apply("play aokoi").explain("draw higoi")
    # the drawn fukinagashi that chooses its carp (KN-10, KN-2) is followed the same way
    g = cardlab.load("koinobori")
    u = pos(g, hands=[{"aokoi": 1}, {"magoi": 1}]).apply("play aokoi").apply("draw fukinagashi")
    assert u.apply("capture magoi").stage == "draw_hand"


def hand_sizes_until_the_deck_runs_out(options, games):
    """Every turn of seeded random games, until the deck first runs out: each
    player's hand size and the kabutogaeshi they have used."""
    import random

    from cardlab.core import sample_chance

    g = cardlab.load("koinobori", **options)
    for seed in range(games):
        rng = random.Random(seed)
        s = g.new_initial_state()
        while not s.is_terminal() and (s.stage == "deal" or s.deck_size):
            if s.stage == "turn":
                d = s.to_dict()
                yield [(sum(d["hands"][p].values()), d["kabutogaeshi_used"][p]) for p in (0, 1)]
            s = s.apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))


def test_KN_Q3_KN_11_hands_stay_at_three_but_for_kabutogaeshi():
    """KN-Q3 with the seed's KN-11 note ("no hand refill after a kabutogaeshi,
    so you go on with 2 cards"): by default a hand holds 3 cards less one per
    kabutogaeshi used, as long as the deck has cards; the literal option lets
    hands shrink after draw captures."""
    seen = list(hand_sizes_until_the_deck_runs_out({}, 40))
    assert len(seen) > 400
    assert all(size == 3 - used for turn in seen for size, used in turn)
    literal = list(hand_sizes_until_the_deck_runs_out({"refill_after_draw_capture": False}, 40))
    assert any(size < 3 - used for turn in literal for size, used in turn)


SMALL = {"cards": {"higoi": 2, "aokoi": 2, "magoi": 2, "fukinagashi": 1, "kabutogaeshi": 2},
         "points": {"higoi": 2, "aokoi": 1, "magoi": 3}}


def test_KN_12_empty_deck_does_not_end_the_game_while_a_pair_is_possible():
    """KN-12 (seed flow): the deck is empty but a nobori can be made: play goes on;
    the game ends only when neither player can make one."""
    g = cardlab.load("koinobori", deck=SMALL)
    s = pos(g, field={"higoi": 1, "aokoi": 1}, hands=[{"higoi": 1, "magoi": 1}, {"magoi": 1}],
            nobori=[{}, {"fuki+aokoi": 1}], kabuto=(1, 1))
    assert s.deck_size == 0 and not s.is_terminal()
    assert s.legal_actions() == ["nobori higoi"]  # no play-and-draw without a deck
    t = s.apply("nobori higoi")
    # nothing to draw, no carp to refill; neither magoi finds a partner on the field
    assert t.is_terminal() and t.returns() == [1, -1]


def test_KN_Q4_a_player_who_cannot_act_passes():
    """KN-Q4: a player who can do nothing passes; the game ends when both can do nothing."""
    g = cardlab.load("koinobori", deck=SMALL)
    s = pos(g, field={"higoi": 1}, hands=[{"magoi": 1}, {"higoi": 1}],
            nobori=[{"aokoi": 1}, {"fuki+magoi": 1}], kabuto=(1, 1))
    assert s.deck_size == 0 and s.legal_actions() == ["pass"]
    t = s.apply("pass")
    assert t.current_player == 1 and t.legal_actions() == ["nobori higoi"]
    assert t.apply("nobori higoi").is_terminal()


def test_KN_Q4_kabutogaeshi_alone_does_not_keep_the_game_going():
    """KN-Q4: holding a kabutogaeshi (with an opponent nobori to take) is not
    'being able to make a nobori': when neither can pair, the game is over."""
    deck = {"cards": {"higoi": 2, "aokoi": 1, "magoi": 2, "fukinagashi": 1, "kabutogaeshi": 3},
            "points": {"higoi": 2, "aokoi": 1, "magoi": 3}}
    g = cardlab.load("koinobori", deck=deck)
    s = pos(g, to_move=1, field={"aokoi": 1, "magoi": 1},
            hands=[{"kabutogaeshi": 1, "higoi": 1}, {"magoi": 1}], nobori=[{}, {"fuki+higoi": 1}],
            kabuto=(1, 1))
    assert s.deck_size == 0 and s.legal_actions() == ["nobori magoi"]
    end = s.apply("nobori magoi")
    assert end.is_terminal() and end.returns() == [-1, 1]


def test_KN_13_higher_total_wins_and_payoff_option():
    """KN-13: each nobori scores by colour; the higher total wins.  Payoff option
    'win' (1/-1/0) or 'score' (the difference)."""
    for payoff, expect in (("win", [1, -1]), ("score", [3, -3])):
        g = cardlab.load("koinobori", payoff=payoff)
        s = pos(g, hands=[{"kabutogaeshi": 1}, {"kabutogaeshi": 1}],  # nobody can act (KN-12)
                nobori=[{"higoi": 1, "magoi": 2, "aokoi": 1}, {"higoi": 1, "aokoi": 1, "fuki+magoi": 1}])
        s = g.state_from_dict({**s.to_dict(), "stage": "end"})
        assert s.score(0) == 2 + 6 + 1 and s.score(1) == 2 + 1 + 3
        assert s.returns() == expect
    g = cardlab.load("koinobori")
    assert g.spec.min_utility == -1 and g.spec.max_utility == 1


def test_KN_Q10_equal_scores_are_a_draw():
    """KN-Q10: equal scores are a draw: returns 0, 0 (with either payoff)."""
    for payoff in ("win", "score"):
        g = cardlab.load("koinobori", payoff=payoff)
        s = pos(g, stage="end", hands=[{"kabutogaeshi": 1}, {"kabutogaeshi": 1}],  # nobody can act (KN-12)
                nobori=[{"magoi": 1}, {"higoi": 1, "fuki+aokoi": 1}])
        assert s.is_terminal() and s.score(0) == s.score(1) == 3
        assert s.returns() == [0, 0]
        assert "result: draw" in str(s)


def test_KN_Q11_first_player_seat_0_by_default_or_a_chance_event():
    """KN-Q11 (KN-6 "janken or similar"): seat 0 moves first by default (the
    janken happens before the game); first_player=1 gives the other seat;
    first_player='random' makes it a chance event, 1/2 each.  The first
    player is dealt first (KN-7) and moves first."""
    from cardlab import render

    g = cardlab.load("koinobori")
    assert g.OPTIONS["first_player"].default == 0
    assert g.new_initial_state().stage == "deal"
    coin = cardlab.load("koinobori", first_player="random")
    root = coin.new_initial_state()
    assert root.current_player == CHANCE
    assert root.chance_outcomes() == [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
    assert "KN-Q11" in root.explain("first 1")
    for first in (0, 1):
        for start in (root.apply(f"first {first}"),
                      cardlab.load("koinobori", first_player=first).new_initial_state()):
            assert start.stage == "deal" and start.to_dict()["to_move"] == first
            s = start.apply("deal magoi")
            assert s.hand(first)["magoi"] == 1 and sum(s.hand(1 - first).values()) == 0
            # KN-7: the card dealt to the first player is hidden from the other
            assert render.public_action(start, "deal magoi", 1 - first) == "deal ??"
            assert render.public_action(start, "deal magoi", first) == "deal magoi"
            for a in ("deal higoi", "deal higoi", "deal aokoi", "deal aokoi", "deal aokoi"):
                s = s.apply(a)
            assert s.hand(first) == {"higoi": 2, "aokoi": 0, "magoi": 1, "fukinagashi": 0, "kabutogaeshi": 0}
            assert s.stage == "turn" and s.current_player == first
            again = s.game.state_from_dict(s.to_dict())
            assert again == s
    with pytest.raises(cardlab.OptionError, match=r"first_player accepts 0, 1 or 'random'"):
        cardlab.load("koinobori", first_player=True)
    with pytest.raises(cardlab.OptionError, match=r"first_player accepts"):
        cardlab.load("koinobori", first_player=2)


def test_KN_Q11_KN_7_KN_8_positions_that_contradict_the_flow_are_refused():
    """KN-Q11, KN-7, KN-8: a position whose stage contradicts the options or
    the flow of a turn is refused with what was wrong and what is accepted."""
    g = cardlab.load("koinobori")
    root = g.new_initial_state().to_dict()
    with pytest.raises(cardlab.PositionError, match=r"stage 'first' .* needs first_player='random'"):
        g.state_from_dict(dict(root, stage="first"))
    with pytest.raises(cardlab.PositionError, match=r"during the deal to_move is the first player \(KN-7\); "
                                                    r"this game has first_player=0, the position says 1"):
        g.state_from_dict(dict(root, to_move=1))
    coin = cardlab.load("koinobori", first_player="random")
    dealt = coin.new_initial_state().apply("first 1").apply("deal higoi").to_dict()
    with pytest.raises(cardlab.PositionError, match="empty hands"):
        coin.state_from_dict(dict(dealt, stage="first", to_move=0))
    assert coin.state_from_dict(dealt).to_dict() == dealt
    s = pos(g, hands=[{"higoi": 1}, {"aokoi": 1}]).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"then is what follows a capture .* got then='draw_hand' "
                                                    r"at stage 'turn'"):
        g.state_from_dict(dict(s, then="draw_hand"))
    with pytest.raises(cardlab.PositionError, match=r"got then='' at stage 'koikoi'"):
        cardlab.load("koinobori", koikoi=True).state_from_dict(dict(s, stage="koikoi", options={"koikoi": True}))


def test_KN_Q12_KN_12_the_end_is_a_property_of_the_position():
    """KN-Q12 (KN-12): a position in which neither player can make a nobori is
    over, however it was built: loaded with state_from_dict it is terminal and
    equal to the same position reached by play; the kabutogaeshi in hand does
    not revive it (KN-Q4)."""
    g = cardlab.load("koinobori", deck=SMALL)
    before = pos(g, to_move=1, field={"higoi": 1, "aokoi": 1},
                 hands=[{"kabutogaeshi": 1, "magoi": 1}, {"higoi": 1, "magoi": 1}],
                 nobori=[{"fuki+aokoi": 1}, {}], kabuto=(0, 1))
    played = before.apply("nobori higoi")  # deck empty: no draw, no refill; no pair left
    assert played.is_terminal()
    d = played.to_dict()
    loaded = g.state_from_dict(dict(d, stage="turn"))
    assert loaded.is_terminal() and loaded.legal_actions() == [] and loaded == played
    assert loaded.returns() == played.returns() == [-1, 1]
    # the same for a position caught between the steps of a turn (KN-8, KN-Q5)
    for stage in ("draw_hand", "refill"):
        assert g.state_from_dict(dict(d, stage=stage, to_move=1)) == played


def test_KN_14_KN_Q2_mitsunobori_role_bonus():
    """KN-14, KN-Q2: with roles on, mitsunobori (one nobori of each colour) adds 3."""
    g = cardlab.load("koinobori", roles=True, payoff="score")
    s = pos(g, nobori=[{"higoi": 1, "aokoi": 1, "fuki+magoi": 1}, {"magoi": 2}],
            hands=[{"higoi": 1}, {"aokoi": 1}])
    assert s.roles_met(0) == ["mitsunobori"] and s.roles_met(1) == []
    assert s.score(0) == 2 + 1 + 3 + 3
    plain = cardlab.load("koinobori", payoff="score")
    assert pos(plain, nobori=[{"higoi": 1, "aokoi": 1, "fuki+magoi": 1}, {}],
               hands=[{"higoi": 1}, {"aokoi": 1}]).score(0) == 6


def test_KN_Q2_user_defined_roles_as_data(tmp_path):
    """KN-Q2: other roles only as user data; all roles that apply are added (KN-14)."""
    data = load_deck()
    data["roles"].append({"name": "sanren-magoi", "bonus": 4, "requires": {"magoi": 2}})
    path = tmp_path / "deck.json"
    path.write_text(json.dumps(data), "utf-8")
    g = cardlab.load("koinobori", roles=True, deck=str(path))
    s = pos(g, nobori=[{"higoi": 1, "aokoi": 1, "magoi": 2}, {}], hands=[{"higoi": 1}, {}])
    assert s.roles_met(0) == ["mitsunobori", "sanren-magoi"]
    assert s.score(0) == 2 + 1 + 6 + 3 + 4


def koikoi_position(g, count_before=2):
    nob0 = {"higoi": 1, "aokoi": count_before - 1} if count_before else {}
    return pos(g, hands=[{"magoi": 1, "higoi": 1}, {"higoi": 1, "aokoi": 1}], nobori=[nob0, {"aokoi": 1}])


def test_KN_15_agari_ends_the_game_now():
    """KN-15: at the third nobori the player declares agari (end now) or koi-koi."""
    g = cardlab.load("koinobori", koikoi=True)
    s = koikoi_position(g).apply("nobori magoi")
    assert s.current_player == 0 and s.legal_actions() == ["agari", "koikoi"]
    end = s.apply("agari")
    assert end.is_terminal() and end.returns() == [1, -1]


def test_KN_15_koikoi_success_gives_five():
    """KN-15: after koi-koi, one more nobori ends the game at once with +5."""
    g = cardlab.load("koinobori", koikoi=True, payoff="score")
    s = koikoi_position(g).apply("nobori magoi").apply("koikoi")
    assert s.current_player == CHANCE and s.to_dict()["koikoi"] == [3, 0]
    s = s.apply("draw higoi").apply("refill magoi")  # the turn finishes as usual
    s = s.apply("play aokoi").apply("draw kabutogaeshi")  # player 1's turn, no pair
    t = s.apply("nobori higoi")
    assert t.is_terminal() and t.score(0) == 2 + 1 + 3 + 2 + 5 and t.to_dict()["koikoi_won"] == 0


def test_KN_15_koikoi_fails_when_the_opponent_pairs_first():
    """KN-15: if the opponent makes a nobori first, koi-koi fails: the game ends at
    once with no bonus."""
    g = cardlab.load("koinobori", koikoi=True, payoff="score")
    s = koikoi_position(g).apply("nobori magoi").apply("koikoi")
    s = s.apply("draw magoi").apply("refill magoi")
    t = s.apply("nobori aokoi")  # player 1 pairs
    assert t.is_terminal() and t.to_dict()["koikoi_won"] is None
    assert t.score(0) == 2 + 1 + 3


def test_KN_Q7_kabutogaeshi_against_koikoi():
    """KN-Q7: the koi-koi stays declared after a kabutogaeshi takes a nobori; one
    more nobori means a count above the one at the call."""
    g = cardlab.load("koinobori", koikoi=True, payoff="score")
    s = pos(g, hands=[{"higoi": 1, "magoi": 1}, {"kabutogaeshi": 1, "magoi": 1}], to_move=1,
            nobori=[{"higoi": 1, "aokoi": 1, "magoi": 1}, {}], koikoi=(3, 0))
    t = s.apply("kabuto aokoi")
    assert t.to_dict()["koikoi"] == [3, 0] and sum(t.nobori(0).values()) == 2
    u = t.apply("nobori higoi")  # back to 3 nobori: not more than at the call
    assert not u.is_terminal()
    assert u.current_player == CHANCE


def test_KN_16_each_option_alone():
    """KN-16: role bonuses and koi-koi are independent options."""
    only_roles = cardlab.load("koinobori", roles=True)
    only_koikoi = cardlab.load("koinobori", koikoi=True)
    s = koikoi_position(only_roles).apply("nobori magoi")
    assert s.current_player == CHANCE  # no koi-koi call without the option
    assert only_roles.role_list and not only_koikoi.role_list
    assert koikoi_position(only_koikoi).apply("nobori magoi").legal_actions() == ["agari", "koikoi"]


def test_KN_Q5_refill_stops_when_no_carp_is_left(game):
    """KN-Q5: when the deck holds no carp the refill stops and the field stays short."""
    s = pos(game, deck={"fukinagashi": 1, "kabutogaeshi": 1},
            field={"higoi": 1, "aokoi": 1, "magoi": 1},
            hands=[{"higoi": 1}, {"aokoi": 1, "magoi": 1}],
            nobori=[{"higoi": 1, "aokoi": 2, "magoi": 2}, {"fuki+higoi": 2}],
            kabuto=(1, 0))
    t = s.apply("nobori higoi").apply("draw kabutogaeshi")
    assert t.current_player == 1 and sum(t.field.values()) == 2


def test_KN_Q8_hidden_hands_and_exact_chance():
    """KN-Q8: hands and deck order are hidden; drawing is a chance node with exact
    rational probabilities; open_hands gives perfect information."""
    g = cardlab.load("koinobori")
    s = g.new_initial_state(seed=4)
    obs = s.observation(1)
    assert obs["opponent_hand"] == 3 and isinstance(obs["hand"], dict)
    assert not g.spec.perfect_information
    with pytest.raises(cardlab.NotSolvableError, match="open_hands=True"):
        cardlab.solve(s)
    o = cardlab.load("koinobori", open_hands=True)
    assert o.spec.perfect_information
    assert o.new_initial_state(seed=4).observation(1)["opponent_hand"] == s.hand(0)


# -- card files ----------------------------------------------------------------
@pytest.mark.parametrize("change,message", [
    (lambda d: d["cards"].update(higoi=-1), r"card 'higoi', field 'cards': count must be a whole number from 1"),
    (lambda d: d["cards"].pop("magoi"), r"card 'magoi', field 'cards': missing count"),
    (lambda d: d["cards"].update(sakura=2), r"card 'sakura', field 'cards': unknown card"),
    (lambda d: d["points"].update(aokoi="one"), r"card 'aokoi', field 'points'"),
    (lambda d: d["roles"][0]["requires"].update(gold=1), r"card 'mitsunobori', field 'requires': unknown condition"),
    (lambda d: d["roles"][0].update(bonus=-3), r"card 'mitsunobori', field 'bonus'"),
    # KN-Q9: the optional points of fukinagashi pairs
    (lambda d: d.update(fukinagashi_points={"sakura": 1}),
     r"card 'sakura', field 'fukinagashi_points': only the colours higoi, aokoi, magoi"),
    (lambda d: d.update(fukinagashi_points={"magoi": -1}),
     r"card 'magoi', field 'fukinagashi_points': points must be a whole number from 0 to 100, got -1"),
    (lambda d: d.update(fukinagashi_points={"higoi": True}), r"card 'higoi', field 'fukinagashi_points'"),
    (lambda d: d.update(fukinagashi_points=[4, 4, 4]),
     r"'fukinagashi_points' must map some of the colours \['higoi', 'aokoi', 'magoi'\] to points"),
])
def test_KN_Q1_KN_Q9_malformed_card_file_names_file_card_and_field(tmp_path, change, message):
    """KN-Q1, KN-Q9: a user's card file is checked; errors name the file, the card, the field."""
    data = load_deck()
    change(data)
    path = tmp_path / "mydeck.json"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(cardlab.CardFileError, match=message) as err:
        cardlab.load("koinobori", deck=str(path))
    assert "mydeck.json" in str(err.value)


def test_KN_Q1_unreadable_and_invalid_json_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", "utf-8")
    with pytest.raises(cardlab.CardFileError, match=r"bad.json: not valid JSON \(line 1"):
        cardlab.load("koinobori", deck=str(bad))
    with pytest.raises(cardlab.CardFileError, match="cannot read"):
        cardlab.load("koinobori", deck=str(tmp_path / "missing.json"))


def test_KN_Q1_small_user_deck_changes_the_game():
    """KN-Q1: a user deck (as a dict) changes the counts everywhere."""
    small = {"cards": {"higoi": 2, "aokoi": 2, "magoi": 2, "fukinagashi": 1, "kabutogaeshi": 2},
             "points": {"higoi": 1, "aokoi": 1, "magoi": 1}}
    g = cardlab.load("koinobori", deck=small)
    assert g.new_initial_state().deck_size == 6
    assert g.spec.max_utility == 1


# -- positions -----------------------------------------------------------------
def test_position_with_wrong_card_total_is_refused(game):
    d = pos(game, hands=[{"higoi": 1}, {"aokoi": 1}]).to_dict()
    d["hands"][0]["higoi"] = 5
    with pytest.raises(cardlab.PositionError, match="holds 10 higoi cards in all; the deck has 6"):
        game.state_from_dict(d)
    d = pos(game, hands=[{"higoi": 1}, {"aokoi": 1}]).to_dict()
    d["stage"] = "lunch"
    with pytest.raises(cardlab.PositionError, match="stage 'lunch' unknown"):
        game.state_from_dict(d)


def test_text_board_has_japanese_terms(game):
    text = str(game.new_initial_state(seed=1))
    assert "場" in text and "山札" in text and "こいこいのぼり" in text


def test_KN_8_explanation_says_what_really_follows_a_nobori():
    """KN-8 with KN-Q5: the explanation of a nobori says what follows it here,
    from what every player can see: with an empty deck there is no draw and
    no refill; with a full field no refill."""
    g = cardlab.load("koinobori", deck=SMALL)
    empty = pos(g, field={"higoi": 1, "aokoi": 1}, hands=[{"higoi": 1, "magoi": 1}, {"magoi": 1}],
                nobori=[{}, {"fuki+aokoi": 1}], kabuto=(1, 1))
    line = empty.explain("nobori higoi")
    assert "draws 1" not in line and "refilled" not in line
    assert "the deck is empty: no draw and no refill" in line
    s = pos(cardlab.load("koinobori"), hands=[{"higoi": 1, "aokoi": 1}, {"magoi": 1}])
    assert "then draws 1 and the field is refilled" in s.explain("nobori higoi")
    full = pos(cardlab.load("koinobori"), field={"higoi": 2, "aokoi": 1, "magoi": 1},
               hands=[{"higoi": 1}, {"magoi": 1}])
    assert "then draws 1; the field still holds 3 cards, no refill" in full.explain("nobori higoi")


def _paths_to_the_next_turn(s):
    """The verbs of every chance path from ``s`` until a player must choose
    (a koi-koi call is answered with koi-koi, so that the turn goes on)."""
    if s.is_terminal():
        return [["end"]]
    if s.stage == "koikoi":
        return _paths_to_the_next_turn(s.apply("koikoi"))
    if not s.is_chance_node():
        return [[]]
    return [[a.split()[0]] + rest for a, _ in s.chance_outcomes()
            for rest in _paths_to_the_next_turn(s.apply(a))]


def test_KN_8_KN_Q3_KN_Q5_what_the_explanation_of_a_capture_says_comes_true():
    """KN-8, KN-Q3, KN-Q5: what the explanation of a nobori (or of a drawn card
    that captures) says will follow does follow, on every chance path: a draw,
    no draw, a refill, no refill, or the end."""
    import random

    from cardlab.core import sample_chance

    checked = set()
    for options in ({}, {"refill_after_draw_capture": False}, {"koikoi": True}):
        g = cardlab.load("koinobori", **options)
        for seed in range(12):
            rng = random.Random(seed)
            s = g.new_initial_state()
            while not s.is_terminal():
                moves = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
                for a in moves:
                    line = s.explain(a)
                    if "captur" not in line or s.stage == "deal":
                        continue
                    t = s.apply(a)
                    paths = _paths_to_the_next_turn(t)
                    claims = {
                        "no draw": "no draw and no refill" in line or "no hand draw" in line,
                        "draw": "draws 1" in line or "draws the last card" in line,
                        "refill": "the field is refilled (KN-8)" in line,
                        "no refill": "no refill" in line or "stays short" in line,
                        "end": "the game ends at once" in line,
                    }
                    for claim, said in claims.items():
                        if not said:
                            continue
                        checked.add(claim)
                        verb = {"no draw": "draw", "no refill": "refill"}.get(claim, claim)
                        holds = [verb in path for path in paths]
                        assert (all(holds) if not claim.startswith("no ") else not any(holds)), (line, paths)
                s = s.apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    assert checked == {"no draw", "draw", "refill", "no refill", "end"}


def test_explanations_use_the_right_article():
    """"an aokoi", never "a aokoi": every explanation of seeded random games,
    for every move and chance outcome on the way."""
    import random
    import re

    from cardlab.core import sample_chance

    wrong = re.compile(r"\b[Aa] [aeiou]|\b[Aa]n [^aeiou\W]")
    for options in ({}, {"koikoi": True}, {"first_player": "random"}):
        g = cardlab.load("koinobori", **options)
        for seed in range(6):
            rng = random.Random(seed)
            s = g.new_initial_state()
            while not s.is_terminal():
                moves = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
                for a in moves:
                    assert not wrong.search(s.explain(a)), s.explain(a)
                s = s.apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
    root = cardlab.load("koinobori").new_initial_state()
    assert root.explain("deal aokoi").startswith("Player 0 is dealt an aokoi")


def test_actions_explain_their_rule(game):
    s = pos(game, hands=[{"higoi": 1, "fukinagashi": 1}, {"aokoi": 1}])
    for a in s.legal_actions():
        assert "KN-" in s.explain(a)


def test_KN_5_KN_7_perft_of_the_deal_by_counting():
    """KN-5/KN-7: the deal draws from 5 kinds (5 of each carp, 3 fukinagashi, 2
    kabutogaeshi left after KN-4), so the number of deal sequences of length d is
    5^d minus those using a kind more often than it exists: 5, 25, 5^3 - 1 (three
    kabutogaeshi), 5^4 - 17 - 1 (3 or 4 kabutogaeshi; 4 fukinagashi)."""
    import sys
    from itertools import product
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parents[2]))  # tests/
    from test_perft_and_solvers import perft

    root = cardlab.load("koinobori").new_initial_state()
    limits = {"higoi": 5, "aokoi": 5, "magoi": 5, "fukinagashi": 3, "kabutogaeshi": 2}
    for d in (1, 2, 3, 4):
        count = sum(1 for seq in product(limits, repeat=d) if all(seq.count(c) <= n for c, n in limits.items()))
        assert perft(root, d) == count
    assert [perft(root, d) for d in (1, 2, 3, 4)] == [5, 25, 124, 607]


def test_KN_Q1_short_deck_solves_a_whole_deal():
    """KN-Q1: the named 'short' deck (cardlab's own, 15 cards) makes a whole deal
    small enough to solve exactly with open hands (KN-Q8); the analysis of the
    first move agrees with the solve."""
    g = cardlab.load("koinobori", open_hands=True, deck="short")
    assert sum(g.counts) == 15
    s = g.new_initial_state(seed=0)
    a = cardlab.analyse(s, max_nodes=2_000_000)
    sol = cardlab.solve(s, max_nodes=2_000_000)
    assert a.value == sol.value and [r["action"] for r in a.rows if r["best"]] == sol.best_actions
    with pytest.raises(cardlab.OptionError, match="'short'"):
        cardlab.load("koinobori", deck=12)


def test_KN_4_KN_7_a_deck_too_small_to_deal_is_refused():
    """KN-4/KN-7: the field takes 3 cards and each hand 3: a card file with fewer
    than 9 cards could never be dealt, and is refused."""
    tiny = {"cards": {"higoi": 2, "aokoi": 2, "magoi": 2, "fukinagashi": 1, "kabutogaeshi": 0},
            "points": {"higoi": 1, "aokoi": 1, "magoi": 1}}
    with pytest.raises(cardlab.CardFileError, match="add up to 7; a game needs at least 9"):
        cardlab.load("koinobori", deck=tiny)


# -- fair play: what the opponent may know, the fair hint ----------------------------
def test_KN_7_KN_8_a_draw_into_the_hand_stays_hidden_even_from_a_one_kind_deck():
    """The issue's example: the deck holds only magoi, player 1 draws into the
    hand (KN-8).  Player 0 must read 'draw ??', not 'draw magoi' (from which
    the opponent's hand could be deduced); a draw that pairs at once is public
    (KN-10)."""
    from cardlab import render

    game = cardlab.load("koinobori", deck="short")
    s = pos(game, stage="draw_hand", to_move=1, field={"higoi": 1}, deck={"magoi": 1},
            hands=[{"aokoi": 2}, {"higoi": 1, "aokoi": 1}],
            nobori=[{"higoi": 1}, {"fuki+aokoi": 1, "magoi": 1, "fuki+magoi": 1}], kabuto=(1, 0))
    assert s.chance_outcomes() == [("draw magoi", 1)]
    seen = render.seen_move(s, "draw magoi", 0)
    assert seen.hidden and "magoi" not in seen.line + seen.label and seen.action == "draw ??"
    assert render.seen_move(s, "draw magoi", 1).line == render.with_rules(*render.split_rules(s.explain("draw magoi")))
    t = pos(game, stage="draw_play", to_move=1, field={"higoi": 1}, deck={"higoi": 1, "magoi": 1},
            hands=[{"aokoi": 2}, {"aokoi": 1}],
            nobori=[{"higoi": 1}, {"fuki+aokoi": 1, "fuki+magoi": 1, "magoi": 1}], kabuto=(1, 0))
    assert render.public_action(t, "draw higoi", 0) == "draw higoi"  # pairs with the field: captured face up
    assert render.public_action(t, "draw magoi", 0) == "draw ??"     # into the hand


def _physical_average(s, p):
    """Brute force: every assignment of the unseen physical cards (each copy
    its own card) to the opponent's hand and the deck, equally likely;
    each solved with open hands."""
    from itertools import permutations

    from leak import open_average

    o = 1 - p
    d = s.to_dict()
    pool = [c for c in CARDS for _ in range(d["deck"][c] + d["hands"][o][c])]
    n = sum(d["hands"][o].values())
    worlds = []
    for perm in permutations(range(len(pool))):
        hand = {c: 0 for c in CARDS}
        deck = {c: 0 for c in CARDS}
        for j, i in enumerate(perm):
            (hand if j < n else deck)[pool[i]] += 1
        hands = list(d["hands"])
        hands[o] = hand
        worlds.append((s.game.state_from_dict(dict(d, deck=deck, hands=hands)), 1))
    return open_average(s, p, worlds)


def test_KN_Q8_fair_hint_equals_a_brute_force_over_every_deal():
    """The fair hint of a late deal (hidden hands, KN-Q8) is the exact average
    over every way the unseen cards can lie, by their chance (a brute force
    over every physical arrangement of the unseen cards agrees), and it is
    the same for every position the player cannot tell apart."""
    game = cardlab.load("koinobori", deck="short")
    s = pos(game, stage="turn", to_move=0, field={"higoi": 1, "aokoi": 1},
            deck={"magoi": 1, "aokoi": 2, "fukinagashi": 1},
            hands=[{"higoi": 1, "magoi": 1}, {"aokoi": 1, "magoi": 1}],
            nobori=[{"higoi": 1}, {"fuki+magoi": 1}], kabuto=(1, 0))
    fair = cardlab.analyse(s, player=0)
    assert fair.kind == "fair" and fair.arrangements > 1
    brute = _physical_average(s, 0)
    assert {r["action"]: r["value"] for r in fair.rows} == brute
    import random

    for seed in range(5):
        t = s.redeal(0, random.Random(seed))
        assert cardlab.analyse(t, player=0).rows == fair.rows
    with pytest.raises(cardlab.NotSolvableError, match="player to move"):
        cardlab.analyse(s, player=1)


@pytest.mark.parametrize("options", [{"first_player": "random"},
                                     {"first_player": 1, "refill_after_draw_capture": False, "koikoi": True}])
def test_KN_Q11_KN_Q3_leak_test_with_the_other_settings(options):
    """KN-Q8 with KN-Q11 and KN-Q3: the leak test (equal information, equal
    output) also holds with a coin for the first player, with seat 1 first
    (the deal to seat 1 is hidden from seat 0, KN-7) and with the literal
    KN-Q3 option."""
    from test_fair_play import test_leak_equal_information_equal_output

    test_leak_equal_information_equal_output(cardlab.load("koinobori", **options))


# -- issue J: every loadable position is one the rules can reach ---------------
def _full_deal(g):
    s = g.new_initial_state()
    for a in ("deal higoi", "deal aokoi", "deal magoi", "deal fukinagashi", "deal higoi", "deal aokoi"):
        s = s.apply(a)
    return s.to_dict()


def test_J_KN_Q11_first_player_option_must_be_a_whole_number():
    """J, KN-Q11 (KN-6): first_player=1.0 or 0.0 is refused when loading,
    not accepted and broken later at the deal."""
    for value in (1.0, 0.0, "1", [1]):
        with pytest.raises(cardlab.OptionError, match=r"first_player accepts 0, 1 or 'random'"):
            cardlab.load("koinobori", first_player=value)


def test_J_KN_6_KN_15_player_indices_in_a_position_are_whole_numbers(game):
    """J, KN-6, KN-15: to_move, koikoi_won and kabutogaeshi_used hold whole
    numbers (players 0 or 1), never True/False."""
    d = game.new_initial_state().to_dict()
    with pytest.raises(cardlab.PositionError, match=r"to_move must be 0 or 1, got True"):
        game.state_from_dict(dict(d, to_move=True))
    k = cardlab.load("koinobori", koikoi=True)
    d = pos(k, stage="end", hands=[{"higoi": 1}, {"aokoi": 1}],  # agari at the third nobori (KN-15)
            nobori=[{"higoi": 1, "aokoi": 1, "magoi": 1}, {}]).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"koikoi_won must be null, 0 or 1, got True"):
        k.state_from_dict(dict(d, koikoi_won=True))
    with pytest.raises(cardlab.PositionError, match=r"koikoi_won must be null, 0 or 1, got -1"):
        k.state_from_dict(dict(d, koikoi_won=-1))
    d = pos(game, hands=[{"higoi": 1}, {"aokoi": 1}], kabuto=(1, 0)).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"kabutogaeshi_used must hold two whole numbers"):
        game.state_from_dict(dict(d, kabutogaeshi_used=[True, 0]))


def test_J_KN_7_a_deal_with_both_hands_full_is_refused(game):
    """J, KN-7: three cards each, the first player first; a 'deal' stage with
    both hands full (it would deal a fourth card) or the second player served
    before the first is refused."""
    d = _full_deal(game)
    assert game.state_from_dict(d).stage == "turn"
    with pytest.raises(cardlab.PositionError, match=r"stage 'deal'.*3 cards each.*first player"):
        game.state_from_dict(dict(d, stage="deal"))
    half = game.new_initial_state().apply("deal higoi").to_dict()
    swapped = dict(half, hands=[half["hands"][1], half["hands"][0]])
    with pytest.raises(cardlab.PositionError, match=r"stage 'deal'"):
        game.state_from_dict(swapped)
    with pytest.raises(cardlab.PositionError, match=r"stage 'deal'.*field"):
        game.state_from_dict(dict(half, field={"higoi": 2, "aokoi": 1}, deck=dict(half["deck"], magoi=6, higoi=3)))


def test_J_KN_7_KN_8_KN_Q3_hands_never_hold_more_than_three(game):
    """J, KN-7, KN-8, KN-Q3: a hand is dealt 3 and every draw follows a card
    leaving it, so no hand holds more than 3; the mover holds at most 2 while
    the draw of the turn is still to come."""
    d = pos(game, hands=[{"higoi": 2, "aokoi": 1}, {"aokoi": 1}]).to_dict()
    d["hands"][0]["aokoi"] += 1
    d["deck"]["aokoi"] -= 1
    with pytest.raises(cardlab.PositionError, match=r"hands\[0\] holds 4 cards; a hand holds at most 3"):
        game.state_from_dict(d)
    d = pos(game, hands=[{"higoi": 1, "aokoi": 2}, {"aokoi": 1}], nobori=[{"magoi": 1}, {}]).to_dict()
    game.state_from_dict(dict(d, stage="refill", field={"higoi": 1, "aokoi": 1},
                              deck=dict(d["deck"], magoi=d["deck"]["magoi"] + 1)))
    with pytest.raises(cardlab.PositionError, match=r"stage 'draw_hand'.*hands\[0\] holds 3"):
        game.state_from_dict(dict(d, stage="draw_hand"))


def test_J_KN_15_koikoi_stage_and_counts_need_the_koikoi_option(game):
    """J, KN-15, KN-Q7: without the koikoi option there is no 'koikoi' stage,
    no koi-koi count and no koi-koi win; with it, a count is the 3 nobori at
    the call (never 10**8), held by one player at most."""
    s = pos(game, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "aokoi": 1, "magoi": 1}, {}]).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"stage 'koikoi': it needs the koikoi option \(KN-15\)"):
        game.state_from_dict(dict(s, stage="koikoi", then="draw_hand"))
    with pytest.raises(cardlab.PositionError, match=r"koikoi must be \[0, 0\] without the koikoi option"):
        game.state_from_dict(dict(s, koikoi=[3, 0]))
    k = cardlab.load("koinobori", koikoi=True)
    s = pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "aokoi": 1, "magoi": 1}, {"aokoi": 1}],
            koikoi=(3, 0)).to_dict()
    assert k.state_from_dict(s).to_dict() == s
    for bad in ([10**8, 0], [2, 0], [3, 3]):
        with pytest.raises(cardlab.PositionError, match=r"koikoi"):
            k.state_from_dict(dict(s, koikoi=bad))
    # KN-15: a fourth nobori after the call ends the game: it cannot be a turn
    four = pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "aokoi": 2, "magoi": 1}, {}], koikoi=(3, 0),
               stage="end", won=0).to_dict()
    assert k.state_from_dict(four).is_terminal()
    with pytest.raises(cardlab.PositionError, match=r"nobori\[0\]"):
        k.state_from_dict(dict(four, stage="turn", koikoi_won=None))
    with pytest.raises(cardlab.PositionError, match=r"koikoi_won"):
        k.state_from_dict(dict(four, stage="turn"))
    # a third nobori without a call is the 'koikoi' stage (KN-15), never a plain turn
    three = dict(s, koikoi=[0, 0])
    with pytest.raises(cardlab.PositionError, match=r"nobori\[0\].*3"):
        k.state_from_dict(three)
    assert k.state_from_dict(dict(three, stage="koikoi", then="draw_hand")).legal_actions() == ["agari", "koikoi"]
    two = pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "magoi": 1}, {}]).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"stage 'koikoi': the call comes at the mover's third nobori"):
        k.state_from_dict(dict(two, stage="koikoi", then="draw_hand"))


def test_J_KN_10_KN_Q3_stages_of_a_turn_need_what_they_act_on(game):
    """J, KN-10, KN-Q3: 'draw_play' follows a card played to the field and
    needs a card to draw; 'fuki' (the drawn fukinagashi choosing its carp)
    needs two carp colours on the field and is followed by the hand draw
    only with refill_after_draw_capture."""
    d = pos(game, field={"higoi": 1, "aokoi": 2}, hands=[{"magoi": 2}, {"kabutogaeshi": 2}],
            nobori=[{"higoi": 1, "fuki+higoi": 3}, {"aokoi": 2, "magoi": 2}]).to_dict()
    assert d["stage"] == "end" and not any(d["deck"].values())  # nobody can act (KN-12)
    with pytest.raises(cardlab.PositionError, match=r"stage 'draw_play'.*deck"):
        game.state_from_dict(dict(d, stage="draw_play"))
    f = pos(game, field={"higoi": 1}, hands=[{"magoi": 1}, {"aokoi": 1}]).to_dict()
    f["deck"]["fukinagashi"] -= 1  # drawn, waiting for its carp
    with pytest.raises(cardlab.PositionError, match=r"stage 'fuki'.*two carp colours"):
        game.state_from_dict(dict(f, stage="fuki", then="draw_hand"))
    f["field"] = {"higoi": 1, "aokoi": 1}
    f["deck"]["aokoi"] -= 1
    assert game.state_from_dict(dict(f, stage="fuki", then="draw_hand")).legal_actions() == [
        "capture higoi", "capture aokoi"]
    with pytest.raises(cardlab.PositionError, match=r"then='refill'.*refill_after_draw_capture"):
        game.state_from_dict(dict(f, stage="fuki", then="refill"))


def test_J_KN_Q12_KN_12_an_end_that_is_not_over_is_refused():
    """J, KN-Q12, KN-12, KN-15: a loaded 'end' is over by the rules: neither
    player can make a nobori, or (koikoi option) agari, a failed or a
    successful koi-koi.  An 'end' stage where a player can still act is
    refused; the same position as a turn plays on."""
    g = cardlab.load("koinobori")
    d = pos(g, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"magoi": 1}, {}]).to_dict()
    with pytest.raises(cardlab.PositionError, match=r"stage 'end'.*can still make a nobori.*KN-12"):
        g.state_from_dict(dict(d, stage="end"))
    k = cardlab.load("koinobori", koikoi=True)
    agari = pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "aokoi": 1, "magoi": 1}, {}],
                stage="end")
    assert agari.is_terminal()  # KN-15 agari at the third nobori
    with pytest.raises(cardlab.PositionError, match=r"stage 'end'"):
        pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"higoi": 1, "magoi": 1}, {}], stage="end")
    failed = pos(k, hands=[{"higoi": 1}, {"aokoi": 1}], nobori=[{"magoi": 1}, {"higoi": 1, "aokoi": 1, "fuki+magoi": 1}],
                 to_move=0,
                 koikoi=(0, 3), stage="end")
    assert failed.is_terminal()  # KN-15 the koi-koi of player 1 fails


def test_J_position_errors_are_one_short_line(game):
    """J: a refusal names the field and the reason in one short line, never a
    repr of a huge value."""
    d = game.new_initial_state().to_dict()
    for field, value in (("hands", [{"higoi": [0] * 5000}, {}]), ("deck", {"x" * 5000: 1}),
                         ("options", {"koikoi": ["y" * 5000]}), ("stage", "z" * 5000), ("field", "w" * 5000)):
        with pytest.raises(cardlab.PositionError) as err:
            game.state_from_dict(dict(d, **{field: value}))
        assert len(str(err.value)) < 300 and "\n" not in str(err.value), field


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(name=["default"]), r"'name' must be a string"),
    (lambda d: d["roles"][0].update(name=["mitsunobori"]), r"field 'name': each role needs a name"),
    (lambda d: d["roles"][0].update(japanese=3), r"field 'japanese': must be a string"),
    (lambda d: d.update(roles={"mitsunobori": 3}), r"'roles' must be a list"),
    (lambda d: d["cards"].update(higoi=[6]), r"card 'higoi', field 'cards': count must be a whole number"),
])
def test_J_KN_Q1_KN_Q2_card_file_fields_are_type_checked(change, message):
    """J, KN-Q1, KN-Q2: every field of a card file (given as a dict) is
    type-checked: a list where a name belongs is a CardFileError naming the
    card and the field."""
    data = load_deck()
    change(data)
    with pytest.raises(cardlab.CardFileError, match=message):
        cardlab.load("koinobori", deck=data)


def test_J_KN_Q12_KN_Q8_unseen_cards_are_dealt_only_as_the_play_allows():
    """J, KN-Q12, KN-Q8, KN-12: a game that ended because neither player
    could make a nobori tells everybody that the opponent's hand holds no
    card that could act; the worlds a player cannot tell apart (redeal,
    hidden arrangements) keep it so, and each of them loads again."""
    import random

    from cardlab.hidden import arrangements

    g = cardlab.load("koinobori", deck=SMALL)
    s = pos(g, field={"higoi": 1}, hands=[{"kabutogaeshi": 1}, {"kabutogaeshi": 1}],
            deck={"higoi": 1, "aokoi": 2, "magoi": 2, "fukinagashi": 1}, nobori=[{}, {}])
    assert s.is_terminal() and s.deck_size == 6  # KN-12: no pair and no carp to play
    for seed in range(20):
        t = s.redeal(0, random.Random(seed))
        assert t.hand(1) == {"higoi": 0, "aokoi": 0, "magoi": 0, "fukinagashi": 0, "kabutogaeshi": 1}
        assert g.state_from_dict(t.to_dict()) == t
    worlds = arrangements(s, 0)
    assert [t for t, _ in worlds] == [s] and worlds[0][1] == 1
