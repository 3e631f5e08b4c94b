"""The conformance suite every registered game passes (OpenSpiel-style).

Random playouts check the protocol at every step; the hidden-information leak
test re-deals what a player cannot see; bad input is refused without change.
A game added to ``cardlab.games`` gets all of this for free.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.core import sample_chance

PLAYOUTS = 1000
SLOW_PLAYOUTS = 10_000


def check_state(s, game):
    """Every protocol promise that can be checked on one state."""
    p = s.current_player
    assert p in (CHANCE, TERMINAL) or 0 <= p < game.spec.num_players
    assert s.is_terminal() == (p == TERMINAL)
    d = s.to_dict()
    assert game.state_from_dict(json.loads(json.dumps(d))) == s, "to_dict/state_from_dict round trip"
    assert hash(game.state_from_dict(d)) == hash(s)
    for q in range(game.spec.num_players):
        json.dumps(s.observation(q))
        hash(s.information_set(q))
    if p == TERMINAL:
        assert s.legal_actions() == [] and s.chance_outcomes() == []
        r = s.returns()
        assert len(r) == game.spec.num_players
        assert all(game.spec.min_utility <= x <= game.spec.max_utility for x in r), r
        if game.spec.zero_sum:
            assert sum(r) == 0
    elif p == CHANCE:
        outs = s.chance_outcomes()
        assert outs and all(isinstance(pr, Fraction) and pr > 0 for _, pr in outs)
        assert sum(pr for _, pr in outs) == 1
        assert len({a for a, _ in outs}) == len(outs)
        assert all(game.ACTION_RE.fullmatch(a) for a, _ in outs)
    else:
        legal = s.legal_actions()
        assert legal, "a decision node without legal actions"
        assert len(set(legal)) == len(legal)
        assert all(game.ACTION_RE.fullmatch(a) for a in legal), legal


def playout(game, seed, check=True):
    rng = random.Random(seed)
    s = game.new_initial_state()
    steps = 0
    while True:
        if check:
            check_state(s, game)
        if s.is_terminal():
            return s, steps
        key = s.to_dict()
        if s.current_player == CHANCE:
            a = sample_chance(s, rng)
        else:
            a = rng.choice(s.legal_actions())
        child = s.apply(a)
        assert s.to_dict() == key, "apply() changed its parent"
        s = child
        steps += 1
        assert steps <= (game.spec.max_game_length or math.inf), "longer than the declared max_game_length"


def test_random_playouts(game):
    """10^3 seeded random playouts: protocol checks at every step."""
    lengths = [playout(game, seed)[1] for seed in range(PLAYOUTS)]
    assert max(lengths) <= (game.spec.max_game_length or math.inf)


@pytest.mark.slow
def test_random_playouts_slow(game):
    """10^4 seeded playouts (light checks), run by CI with ``-m slow``."""
    for seed in range(SLOW_PLAYOUTS):
        s, steps = playout(game, 10**6 + seed, check=False)
        check_state(s, game)


def test_hidden_information_does_not_leak(game):
    """Re-deal every card a player cannot see: what they know must not change;
    and states sharing an information set show that player the same observation."""
    rng = random.Random(0)
    changed = 0
    seen: dict = {}  # (player, information set) -> observation: one info set, one view
    for seed in range(150):
        s = game.new_initial_state()
        r = random.Random(seed)
        while not s.is_terminal():
            for q in range(game.spec.num_players):
                obs = json.dumps(s.observation(q), sort_keys=True)
                assert seen.setdefault((q, s.information_set(q)), obs) == obs, (
                    "two states in one information set look different to that player")
                t = s.redeal(q, rng)
                assert t.information_set(q) == s.information_set(q)
                assert t.observation(q) == s.observation(q)
                assert t.current_player == s.current_player
                if s.current_player == q:
                    assert t.legal_actions() == s.legal_actions()
                changed += t != s
            s = s.apply(sample_chance(s, r) if s.current_player == CHANCE else r.choice(s.legal_actions()))
    if game.spec.perfect_information:
        assert changed == 0
    else:
        assert changed > 0, "redeal never changed a hidden card: the leak test would test nothing"


def test_information_sets_differ_where_cards_differ(game):
    """Hidden cards make different information sets only for those who see them."""
    if game.spec.perfect_information:
        pytest.skip("perfect information: every player sees everything")
    s = game.new_initial_state(seed=11)
    p = s.current_player
    other = (p + 1) % game.spec.num_players
    for _ in range(50):
        t = s.redeal(other, random.Random(_))
        if t.information_set(p) != s.information_set(p):
            return
    pytest.fail("re-dealing the opponent's cards never changed what the mover sees; "
                "is the mover's own hand part of the information set?")


def test_unknown_game_lists_the_games():
    with pytest.raises(cardlab.UnknownGameError, match="the games are: .*koinobori"):
        cardlab.load("hanafuda")


def test_unknown_option_lists_the_options(game_name):
    with pytest.raises(cardlab.OptionError, match="accepted options"):
        cardlab.load(game_name, no_such_option=1)


def test_bad_option_value_says_what_is_accepted(game_name):
    if "open_hands" in cardlab.load(game_name).OPTIONS:
        with pytest.raises(cardlab.OptionError, match="open_hands accepts True or False"):
            cardlab.load(game_name, open_hands="yes")


def test_illegal_and_malformed_actions_change_nothing(game):
    s = game.new_initial_state(seed=5)
    before = s.to_dict()
    with pytest.raises(cardlab.MalformedActionError, match="notation"):
        s.apply("%%% not an action %%%")
    with pytest.raises(cardlab.MalformedActionError):
        s.apply(42)
    # a well-formed action that is not legal here: a chance outcome at a decision node or vice versa
    rng = random.Random(1)
    t = s
    while t.current_player != CHANCE and not t.is_terminal():
        t = t.apply(rng.choice(t.legal_actions()))
    if t.current_player == CHANCE:
        outcome = t.chance_outcomes()[0][0]
        with pytest.raises(cardlab.IllegalActionError, match="Legal:"):
            s.apply(outcome)
    assert s.to_dict() == before


def test_malformed_position_is_refused(game):
    s = game.new_initial_state(seed=5)
    d = s.to_dict()
    with pytest.raises(cardlab.PositionError):
        game.state_from_dict({"game": game.name})
    with pytest.raises(cardlab.PositionError):
        game.state_from_dict([1, 2, 3])
    with pytest.raises(cardlab.PositionError):
        game.state_from_dict({**d, "game": "not-this-game"})
    assert game.state_from_dict(d) == s


def test_seeded_initial_state_is_reproducible(game):
    assert game.new_initial_state(seed=3) == game.new_initial_state(seed=3)
    assert len({game.new_initial_state(seed=i) for i in range(20)}) > 1


def test_errors_derive_from_cardlab_error():
    for exc in (cardlab.UnknownGameError, cardlab.OptionError, cardlab.IllegalActionError,
                cardlab.MalformedActionError, cardlab.PositionError, cardlab.CardFileError,
                cardlab.NotSolvableError, cardlab.TooLargeError):
        assert issubclass(exc, cardlab.CardlabError)
