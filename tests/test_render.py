"""The pure renderers: text and HTML of any state, from any perspective.

The main property: what a perspective shows depends only on what that player
may see, so two states the player cannot tell apart (a redeal of the cards
they cannot see) render identically.
"""

from __future__ import annotations

import random

import pytest

import cardlab
from cardlab import render
from cardlab.core import sample_chance
from cardlab.games.koinobori import render as kr

ENDGAME = {  # a Koi-koi Nobori endgame: 2 cards in the deck, both kabutogaeshi used
    "stage": "turn", "to_move": 0, "deck": {"higoi": 1, "fukinagashi": 1},
    "field": {"higoi": 1, "aokoi": 1, "magoi": 1},
    "hands": [{"aokoi": 1, "magoi": 1}, {"higoi": 1, "magoi": 1}],
    "nobori": [{"higoi": 1, "aokoi": 1, "fuki+higoi": 1}, {"aokoi": 1, "magoi": 1, "fuki+magoi": 1}],
    "kabutogaeshi_used": [1, 1], "koikoi": [0, 0], "koikoi_won": None, "then": "",
}


def playout_states(game, seed, limit=400):
    """The states of one seeded random playout, root included."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    out = [s]
    while not s.is_terminal() and len(out) < limit:
        a = sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions())
        s = s.apply(a)
        out.append(s)
    return out


def test_perspective_shows_only_the_observation(game):
    """KN-Q8 (and every game's hidden cards): a perspective's text and HTML
    are equal for states that player cannot tell apart (redeal)."""
    n = game.spec.num_players
    for seed in range(3):
        for s in playout_states(game, seed)[::3]:
            for p in range(n):
                other = s.redeal(p, seed + 100)
                assert other.information_set(p) == s.information_set(p)
                assert render.html(other, perspective=p) == render.html(s, perspective=p)
                assert render.text(other, perspective=p) == render.text(s, perspective=p)
                # the generic renderings obey the same rule
                assert render.generic_html(other, perspective=p) == render.generic_html(s, perspective=p)


def test_renderings_are_deterministic_and_show_everything_without_perspective(game):
    s = playout_states(game, 1)[-1]
    assert render.html(s) == render.html(s)
    assert render.generic_text(s) == str(s)
    assert render.generic_html(s).startswith('<pre class="cardlab-board">')
    assert s._repr_html_() == render.html(s)


def test_every_game_registers_its_renderers(game):
    """``render.html`` / ``render.text`` draw with the game's own module of
    ``cardlab.games.<game>.render`` (mid-game and at the end); ``text`` without a
    perspective is ``str(state)``; a bad perspective is refused there too."""
    if game.name not in cardlab.games():
        pytest.skip("a toy game of tests/toy_games draws with the generic renderer")
    module = cardlab.games.package(game.name).render
    assert render.has_renderer(game.name)
    states = playout_states(game, 7)
    for s in (states[len(states) // 2], states[-1]):
        assert render.html(s) == render.html(s) == module.html(s) == s._repr_html_()
        assert render.text(s) == str(s) and render.text(s, perspective=0) == module.text(s, perspective=0)
        with pytest.raises(ValueError, match="perspective must be None"):
            module.html(s, perspective=game.spec.num_players)


def test_bad_perspective_is_refused_with_what_is_accepted():
    s = cardlab.load("koinobori").new_initial_state(seed=1)
    for bad in (2, -1, "0", True, 1.0):
        with pytest.raises(ValueError, match=r"perspective must be None .* or a player 0\.\.1"):
            render.html(s, perspective=bad)
    with pytest.raises(ValueError, match="perspective"):
        render.text(s, perspective=5)


def test_generic_text_lists_the_observation():
    s = cardlab.load("koinobori").new_initial_state(seed=3)
    text = render.generic_text(s, perspective=1)
    assert "as seen by player 1" in text
    assert "opponent_hand: 3" in text  # only the number of the hidden cards
    assert "hand: higoi, magoi, fukinagashi" in text
    table = render.generic_html(s, perspective=1)
    assert "<th" in table and "opponent_hand" in table


def test_observation_text_formats_counts_and_nesting():
    assert render.observation_text({"a": {"x": 2, "y": 0}, "b": [1, None]}) == "  a: x×2\n  b: [1; —]"
    assert render.observation_text(5) == "  5"


def test_koinobori_html_hides_the_other_hand_KN_Q8():
    """KN-Q8: hands are hidden; the viewer sees card backs for the other hand."""
    s = cardlab.load("koinobori").new_initial_state(seed=3)  # P0 aokoi+2 kabuto, P1 higoi magoi fuki
    seen0 = kr.html(s, perspective=0)
    assert seen0.count("face down (伏せ札)") == 3 + 1  # three hidden cards and the deck
    assert "<title>fukinagashi ふきながし" not in seen0  # the fukinagashi is in P1's hand only
    seen1 = kr.html(s, perspective=1)
    assert "<title>fukinagashi ふきながし" in seen1
    assert "<title>kabutogaeshi かぶとがえし" not in seen1
    everything = kr.html(s)
    assert "<title>fukinagashi" in everything and "<title>kabutogaeshi" in everything
    assert "face down" in everything  # the deck stays face down


def test_koinobori_open_hands_shows_both_hands_KN_Q8():
    """KN-Q8 open_hands: every player sees both hands; the deck stays random."""
    s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=3)
    seen0 = kr.html(s, perspective=0)
    assert "<title>fukinagashi" in seen0 and seen0.count("face down") == 1
    assert "open hands (KN-Q8)" in seen0


def test_koinobori_table_labels_in_japanese_and_english_KN_1_KN_2_KN_3():
    """KN-1..KN-3: the card names are shown with their Japanese beside them."""
    s = cardlab.load("koinobori").new_initial_state(seed=3)
    h = kr.html(s)
    for term in ("場", "山札", "手札", "のぼり", "得点", "higoi ひごい", "aokoi あおこい", "magoi まごい",
                 "ひごい", "あおこい", "まごい", "ふきながし", "かぶとがえし"):
        assert term in h, term
    assert "点" in h  # points printed on the carp cards (KN-Q1 default deck)


def test_koinobori_endgame_shows_nobori_scores_and_kabutogaeshi_KN_9_KN_11_KN_13():
    """KN-9 (fukinagashi pairs drawn on top), KN-11 (used kabutogaeshi shown),
    KN-13 (scores per player)."""
    s = cardlab.load("koinobori").state_from_dict(ENDGAME)
    h = kr.html(s, perspective=0)
    assert "kabutogaeshi used (かぶとがえし) 1" in h
    assert h.count("<title>nobori fuki+") == 2  # one fuki pair each
    assert f"score (得点) <b>{s.score(0)}</b>" in h and f"score (得点) <b>{s.score(1)}</b>" in h
    t = kr.text(s, perspective=1)
    assert "player 0: hand 2 hidden cards" in t and "kabutogaeshi used 1" in t
    assert kr.text(s) == str(s)


def test_koinobori_options_and_koikoi_stage_are_shown_KN_14_KN_15():
    """KN-14/KN-15: the optional rules in play are listed; at the koi-koi
    decision the table says what the two calls mean."""
    game = cardlab.load("koinobori", koikoi=True, roles=True)
    s = game.new_initial_state(seed=2)
    h = kr.html(s)
    assert "koi-koi こいこい (KN-15)" in h and "role bonuses 役 (KN-14)" in h
    # player 1 holds 2 nobori: a third would have been a koi-koi decision of its own (KN-15, J)
    d = dict(ENDGAME, stage="koikoi", then="draw_hand", options=game.options_dict(),
             deck={"higoi": 2, "fukinagashi": 2},
             nobori=[{"higoi": 1, "aokoi": 1, "fuki+magoi": 1}, {"aokoi": 1, "magoi": 1}])
    k = game.state_from_dict(d)
    assert k.legal_actions() == ["agari", "koikoi"]
    assert "call agari (上がり" in kr.html(k) and "koi-koi (こいこい" in kr.html(k)
    assert kr.html(k).count("role (役) mitsunobori") == 1  # one nobori of each colour (KN-Q2)
    assert kr.html(k.game.with_options(roles=False).state_from_dict(
        dict(d, options={"koikoi": True}))).count("role (役)") == 0


def test_koinobori_board_names_the_choices_that_differ_from_the_defaults_KN_Q3_KN_Q11():
    """KN-Q3, KN-Q11: the defaults (the KN-8 steps after a draw capture, seat 0
    first) need no note; the literal KN-Q3 option and a first player other
    than seat 0 are listed with the optional rules; the coin toss for the
    first player is a stage of its own."""
    default = kr.html(cardlab.load("koinobori").new_initial_state(seed=2))
    assert "KN-Q3" not in default and "KN-Q11" not in default
    literal = kr.html(cardlab.load("koinobori", refill_after_draw_capture=False).new_initial_state(seed=2))
    assert "no hand draw after a draw capture (KN-Q3)" in literal
    coin = cardlab.load("koinobori", first_player="random").new_initial_state()
    h = kr.html(coin)
    assert "first player by chance, 1/2 each (KN-Q11)" in h
    assert "who goes first (先攻) is decided by chance (KN-6, KN-Q11)" in h
    assert "player 1 goes first (KN-Q11)" in kr.html(cardlab.load("koinobori", first_player=1).new_initial_state())
    assert kr.text(coin, perspective=0).startswith("Koi-koi Nobori (こいこいのぼり) · choosing the first player")
    assert kr.action_label("first 1") == "first player 先攻: 1"


def test_koinobori_game_over_names_the_winner_KN_12():
    s = playout_states(cardlab.load("koinobori"), 5)[-1]
    assert s.is_terminal()
    h = kr.html(s, perspective=0)
    r = s.returns()[0]
    assert ("draw" if r == 0 else f"player {0 if r > 0 else 1} wins") in h
    assert "game over (KN-12, KN-13)" in h


def test_action_labels_put_japanese_beside_english():
    assert kr.action_label("nobori higoi") == "nobori のぼり: higoi ひごい"
    assert kr.action_label("play aokoi") == "play 出す: aokoi あおこい"
    assert kr.action_label("kabuto fuki+magoi") == "kabutogaeshi かぶとがえし: fuki+magoi ふきながし+まごい"
    assert kr.action_label("agari") == "agari 上がり (stop)"
    assert render.action_label("koinobori", "pass") == "pass パス"
    assert render.action_label("no-such-game", "move 3") == "move 3"


def test_visible_knows_which_moves_a_viewer_sees_KN_7_KN_8():
    """KN-7 the deal is hidden from the other player; KN-8 a field refill is
    seen by both; a draw into the hand only by its owner."""
    root = cardlab.load("koinobori").new_initial_state()
    assert render.visible(root, "deal higoi", 0) and not render.visible(root, "deal higoi", 1)
    assert render.visible(root, "deal higoi", None)
    seen = set()
    for seed in range(10):
        s = root
        rng = random.Random(seed)
        seen |= _check_visibility(s, rng)
    assert seen == {"refill", "draw"}


def _check_visibility(s, rng):
    seen = set()
    while not s.is_terminal():
        if s.is_chance_node():
            a = sample_chance(s, rng)
            verb = a.split()[0]
            mover = s.to_dict()["to_move"]
            if verb == "refill":
                assert render.visible(s, a, 0) and render.visible(s, a, 1)
                seen.add(verb)
            elif verb == "draw" and s.to_dict()["stage"] == "draw_hand" and len(s.chance_outcomes()) > 1:
                assert render.visible(s, a, mover) and not render.visible(s, a, 1 - mover)
                seen.add(verb)
        else:
            a = rng.choice(s.legal_actions())
            assert render.visible(s, a, 0) and render.visible(s, a, 1)  # every move is public
        s = s.apply(a)
    return seen


def test_seen_move_line_hides_with_rule_ids():
    root = cardlab.load("koinobori").new_initial_state()
    assert render.seen_move(root, "deal aokoi", 0).line == "Player 0 is dealt an aokoi. (KN-7)"
    assert render.seen_move(root, "deal aokoi", 1).line == "Player 0 is dealt a card. (KN-7)"
    assert render.seen_move(root, "deal aokoi", 1).rules == ("KN-7",)
    assert render.rule_ids("see (KN-10, KN-Q3) and MZ-4") == ["KN-10", "KN-Q3", "MZ-4"]


def test_public_action_MP_7_the_square_of_a_face_down_card_is_public():
    """MP-7: the square where a face-down card is laid is public, the card is
    not: the opponent reads ``place ?? x,y``."""
    s = cardlab.load("mipig", hand_size=2, first_player=0).new_initial_state(seed=3)
    a = next(x for x in s.legal_actions() if x.startswith("place"))
    _, card, square = a.split()
    assert render.public_action(s, a, 0) == a and render.public_action(s, a, None) == a
    assert render.public_action(s, a, 1) == f"place ?? {square}"
    assert not render.visible(s, a, 1)
    assert render.seen_move(s, a, 1).line.startswith(f"Player 0 lays a card face down at {square}. (MP-")


def test_public_action_MC_11_a_transposition_is_not_hidden():
    """MC-11: a card played to the attack zone or to the defence zone may end
    in the very same position; everybody saw which zone it went to, so the
    move is not hidden from anybody."""
    game = cardlab.load("monster_cards")
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal() and found < 3:
            if s.is_chance_node():
                s = s.apply(sample_chance(s, rng))
                continue
            acts = s.legal_actions()
            for a in acts:
                same = [b for b in acts if b != a and s.apply(b) == s.apply(a)]
                if same:
                    found += 1
                    assert all(render.visible(s, x, v) for x in [a] + same for v in range(game.spec.num_players))
            s = s.apply(rng.choice(acts))
        if found >= 3:
            break
    assert found >= 3


def test_has_renderer():
    assert render.has_renderer("koinobori")
    assert not render.has_renderer("no-such-game")


def test_MP_Q6_layout_gives_the_hand_and_the_moves_only_to_the_player_to_move():
    """The issue's example: at player 0's turn, ``layout(s, perspective=1)``
    listed player 0's hand (MP-Q6: hands are hidden).  Now the hand to pick
    from and the paths of the moves belong to the mover's own view only."""
    s = cardlab.load("mipig", hand_size=3, first_player=0).new_initial_state(seed=3)
    assert s.current_player == 0
    mine, theirs = render.layout(s, perspective=0), render.layout(s, perspective=1)
    assert mine.items and mine.paths
    assert theirs.items == {} and theirs.paths == {} and theirs.prompts == ()
    assert not any(card in h for card in s.to_dict()["hands"][0] for h in theirs.squares.values())
    assert render.layout(s, perspective=None).items == mine.items
