"""The Toritsuki renderer (cardlab/games/toritsuki/render.py): what each
perspective may see, the key items of the table (front and back rows with
resting yokai sideways, yoki and damage zones, deck counts, the battle panel
with every BP modifier, the defender's block and possession prompts) and a
board played to the end by clicking."""

from __future__ import annotations

import html
import random
import re

import pytest
from test_render import playout_states as playout
from test_toritsuki import GAME, OPEN, battle, pos, y

import cardlab
from cardlab import render
from cardlab.games.toritsuki import render as tr
from cardlab.widgets import board
from test_widgets import board_plays_to_the_end, hand_over


def titles(h: str) -> list[str]:
    return re.findall(r"<title>(.*?)</title>", h)


def first_stage(stage, game=GAME, seeds=range(200)):
    for seed in seeds:
        for s in playout(game, seed):
            if s.stage == stage:
                return s
    raise AssertionError(f"no {stage} state found")  # pragma: no cover


# -- what a perspective may see (TK-Q6) ------------------------------------------------------
def test_TK_Q6_a_perspective_never_shows_the_opponents_hand():
    """TK-Q6 (hands are hidden): re-dealt hidden cards render identically for
    that player (HTML and text), the opponent's hand is drawn as as many
    backs as it has cards, and no face of it appears, in every stage."""
    stages = set()
    for seed in range(5):
        for i, s in enumerate(playout(GAME, seed)):
            stages.add(s.stage)
            for p in (0, 1):
                h, t = tr.html(s, perspective=p), tr.text(s, perspective=p)
                n = len(s.to_dict()["players"][1 - p]["hand"])
                assert h.count(f"face down 裏向き (hidden hand card), player {1 - p}") == n
                assert (f"{n} hidden cards" if n != 1 else "1 hidden card") in t
                if i % 2 == 0:
                    other = s.redeal(p, seed * 1000 + i)
                    assert other.information_set(p) == s.information_set(p)
                    assert tr.html(other, perspective=p) == h
                    assert tr.text(other, perspective=p) == t
    assert {"mulligan", "main", "battle", "block", "possess_a", "possess_d", "over"} <= stages


def test_TK_19_possession_choices_only_for_the_decider():
    """TK-19: the defender's possession choices name cards of the defender's
    hand: the prompt lists them for the defender (and for everybody-shown),
    the attacker sees only who decides."""
    s = pos(stage="possess_d", battle=battle(3, 1, 6, 1),
            p0={"unseen": [2, 2, 4]}, p1={"hand": [6, 16], "unseen": [7, 7, 8]})
    assert s.current_player == 1 and "possess 6" in s.legal_actions()
    mine, theirs = tr.html(s, perspective=1), tr.html(s, perspective=0)
    assert "Possess? とりつく! (TK-19)" in mine and "Possess? とりつく! (TK-19)" in theirs
    assert "<code>possess 6</code>" in mine and "<code>possess 6</code>" in tr.html(s)
    assert "<code>" not in theirs and "Mizutama" not in theirs.split("Battle panel")[0]


def test_TK_Q6_open_hands_and_known_deck_order_are_shown():
    """TK-Q6: open_hands shows both hands to both players; known_deck_order
    shows the deck tops (public), in order."""
    s = OPEN.new_initial_state(seed=3)
    h = tr.html(s, perspective=1)
    assert "hidden hand card" not in h and "options: open_hands" in h
    for p in (0, 1):
        for no in s.to_dict()["players"][p]["hand"]:
            assert any(t.startswith(f"#{no} ") for t in titles(h))
    k = cardlab.load("toritsuki", known_deck_order=True, open_hands=True, mulligan=False, first_player=0)
    s = k.new_initial_state(seed=2)
    top = s.to_dict()["players"][1]["deck_top"]
    card = k.cards[top[0]]
    h = tr.html(s, perspective=0)
    assert f"deck top 山札の上 (known order, TK-Q6): {html.escape(card.name)}" in h
    assert f"… ({len(top)} known)" in h


# -- the key items ---------------------------------------------------------------------------
def test_TK_13_TK_27_rows_of_three_resting_yokai_sideways():
    """TK-13: three places in each row (empty ones drawn), back row 後衛 and
    front row 前衛; TK-10/TK-16: a resting yokai (休憩) is drawn sideways;
    TK-27: places are the sorted slots F1.. of the notation."""
    s = pos(stage="battle", p0={"unseen": [2, 2], "front": [y(3), y(1, rested=1)], "back": [y(11)]},
            p1={"unseen": [6, 7], "back": [y(6), y(16, rested=1)], "front": [y(21)]})
    h = tr.html(s)
    assert h.count("empty place of the front row 前衛 (TK-13)") == 3
    assert h.count("empty place of the back row 後衛 (TK-13)") == 3
    assert h.count("resting 休憩 (sideways)") == 2 and h.count("ready 元気") >= 4
    ts = titles(h)
    assert any(t.startswith("#1 Hibana-kozo") and "place F1 · resting 休憩 (sideways)" in t for t in ts)
    assert any(t.startswith("#3 Rosoku-nyudo") and "place F2 · ready 元気" in t for t in ts)
    assert "back row 後衛 (blocks)" in h and "front row 前衛 (attacks)" in h
    assert "Hibana-kozo#1 休憩 resting" in tr.text(s, perspective=1)


def test_TK_12_TK_25_TK_26_yoki_and_damage_zones():
    """TK-12/TK-25: yoki face down, ready upright and resting sideways;
    TK-26: a damage card turned face down by a yoki boost stays apart from
    the face-up ones; TK-6: the count out of 6."""
    s = pos(p0={"unseen": [2, 2], "front": [y(3)], "yoki": [2, 3], "damage": [1, 2]},
            p1={"unseen": [6, 7]})
    h = tr.html(s, perspective=1)
    assert h.count("yoki 妖気, ready 元気 (upright), player 0") == 2
    assert h.count("yoki 妖気, resting 休憩 (sideways, paid this turn), player 0") == 3
    assert h.count("face up 表向き (can pay 1 by yoki boost, TK-26), player 0") == 1
    assert h.count("turned face down by a yoki boost 妖気ブースト (TK-26), player 0") == 2
    assert "<b>3</b> / 6 (1 face up, 2 turned down)" in h
    assert "deck 山札 <b>2</b>" in h


def test_TK_21_battle_panel_shows_every_modifier_and_the_sums():
    """TK-20, TK-21: the battle panel shows the attacker's and the blocker's
    methods, both possessions and each BP with every modifier and its source,
    as battle_report() gives them; the same for every perspective."""
    s = pos(stage="possess_d", battle=battle(3, 1, 8, 1, ab=20, apos=4), event_used=True,
            p0={"unseen": [2, 2]}, p1={"hand": [6], "unseen": [7, 7]})
    rep = s.battle_report()
    assert rep.defender.modifiers and rep.attacker.modifiers
    for p in (0, 1, None):
        h = tr.html(s, perspective=p)
        assert "Battle panel バトル" in h
        assert f"<b>= {rep.attacker.total}</b>" in h and f"<b>= {rep.defender.total}</b>" in h
        for src, v in rep.attacker.modifiers + rep.defender.modifiers:
            assert f"{v:+d} {html.escape(src)}" in h
        assert "possession とりつく! by the attacker: Noroshi-maru" in h
        ts = titles(h)  # the fighters, resting, with the possessing card beside the attacker
        assert sum(t.startswith("#3 Rosoku-nyudo") and t.endswith("attacking アタック中, player 0") for t in ts) == 1
        assert sum(t.startswith("#8 Amagappa") and t.endswith("blocking ブロック中, player 1") for t in ts) == 1
        assert sum(t.startswith("#4 Noroshi-maru") and t.endswith("possessing とりつき中, player 0") for t in ts) == 1
    assert rep.text() in tr.text(s, perspective=1)


def test_TK_17_TK_18_block_prompt_and_buttons_for_the_defender():
    """TK-17, TK-18: after an attack the defender decides (the current
    player, in the attacker's turn); the table names the attack and the
    choices with their explanations, and a board gives the defender's seat
    the block / no block buttons."""
    # player 1's 16 has blocked an earlier attack of this turn (TK-17), by player 0's 1 (resting, TK-16)
    s = pos(p0={"unseen": [2, 2], "front": [y(1, rested=1), y(3)]}, stage="battle",
            p1={"unseen": [6, 7], "back": [y(6), y(16, rested=1)], "front": [y(21)]}).apply("attack F2 m1")
    assert s.stage == "block" and s.current_player == 1 and s.turn_player == 0
    for p in (0, 1, None):
        h = tr.html(s, perspective=p)
        assert "Block? ブロックする? (TK-17, TK-18)</b> — player 1 decides" in h
        assert "attack アタック: player 0's Rosoku-nyudo" in h
        for a in s.legal_actions():
            assert h.count(html.escape(s.explain(a))) == 1, a
    assert "block? player 1 decides (TK-17)" in tr.text(s, perspective=0)
    assert "the defender has not chosen yet (TK-17)" in tr.html(s, perspective=0)
    b = board(s, ["random", "person"], seed=1)
    assert set(b.action_buttons) == {"block B1 m1", "noblock"}
    assert b.action_buttons["noblock"].description == "no block ブロックしない"
    assert "Block? ブロックする?" in b.table.value
    b.action_buttons["block B1 m1"].click()
    assert b.match.history[0].action == "block B1 m1" and not b._message


def test_TK_23_TK_24_cards_carry_both_languages():
    """TK-23: a yokai shows cost, tribe (種族, with its Japanese), rank, its
    battle methods (BP, cost, 戦/技/術, icons) and its possession line;
    TK-24: an event card shows its effect."""
    g = GAME
    c = g.cards[3]
    svg = tr.card_svg(c, g.cardset.tribe_ja)
    assert c.japanese in svg and c.name in svg and "イサマシ族 Brave" in svg and "とりつく" in svg
    for i, m in enumerate(c.methods, 1):
        assert f"m{i} {m.name} ({m.japanese}) BP {m.bp}" in svg
    ev = tr.card_svg(g.cards[41])
    assert "event イベント" in ev and g.cards[41].effect_text() in ev
    s = GAME.new_initial_state(seed=2)
    h = tr.html(s)
    for term in ("前衛", "後衛", "妖気おきば", "ダメージおきば", "手札", "山札", "トラッシュ", "元気"):
        assert term in h, term


def test_TK_6_game_over_names_the_winner():
    """TK-6: six damage loses; the table says who won."""
    end = playout(GAME, 4)[-1]
    assert end.is_terminal()
    w = end.to_dict()["winner"]
    for p in (0, 1, None):
        assert f"game over · player {w} wins 勝ち" in tr.html(end, perspective=p)
        assert "game over 終了 (TK-6, TK-7, TK-8)" in tr.html(end, perspective=p)


def test_action_labels_put_japanese_beside_english():
    assert tr.action_label("summon 12 F") == "summon 召喚 #12 → front 前衛"
    assert tr.action_label("summon 2 B") == "summon 召喚 #2 → back 後衛"
    assert tr.action_label("attack F1 m2") == "attack アタック F1 m2"
    assert tr.action_label("block B2 m1") == "block ブロック B2 m1"
    assert tr.action_label("noblock") == "no block ブロックしない"
    assert tr.action_label("possess deck") == "possess from the deck 山札からとりつく!"
    assert tr.action_label("possess 6") == "possess from the hand 手札からとりつく! #6"
    assert tr.action_label("pass") == "no possession とりつかない"
    assert tr.action_label("event 44 F1") == "event イベント #44 F1"
    assert tr.action_label("move F1 B2") == "move 移動 F1 B2"
    assert tr.action_label("release B2") == "to the trash トラッシュ B2"
    assert tr.action_label("mulligan") == "mulligan マリガン"
    assert render.action_label("toritsuki", "odd") == "odd"
    assert render.has_renderer("toritsuki")




def test_TK_Q8_TK_Q2_labels_name_the_boost_and_event_cards_say_what_they_do():
    """TK-Q8: a payment with face-up damage (妖気ブースト) shows on the button;
    TK-Q2, TK-24: an event card shows what it does (Lullaby こもりうた: a
    blocker rests), never a bare ``rest 0``."""
    assert tr.action_label("summon 5 F boost 2") == "summon 召喚 #5 → front 前衛 · boost 妖気ブースト 2"
    assert tr.action_label("attack F1 m3 boost 1") == "attack アタック F1 m3 · boost 妖気ブースト 1"
    assert tr.action_label("block B1 m2 boost 1") == "block ブロック B1 m2 · boost 妖気ブースト 1"
    ba = cardlab.load("toritsuki", decks=["B", "A"])
    lullaby = tr.card_svg(ba.cards[48])
    assert "rest 0" not in lullaby and "cannot block" in lullaby and "a blocker rests" in lullaby
    for c in GAME.cards.values():
        if not c.is_yokai:
            assert tr.EFFECT_SHORT[c.effect[0]](c.effect[1]) in tr.card_svg(c)


def test_TK_Q7_TK_13_options_are_named_on_the_table():
    """TK-Q7: the icon file is named on the table as the exceptions to
    TK-21; TK-13: the move_once_per_turn house rule is named too."""
    s = cardlab.load("toritsuki", cards="icons", move_once_per_turn=True).new_initial_state(seed=1)
    h = tr.html(s)
    assert "icon file: pierce 貫通, guard 守り (exceptions to TK-21, TK-Q7)" in h
    assert "each yokai moves once a turn (house rule, TK-13)" in h
    assert "exceptions to TK-21" not in tr.html(GAME.new_initial_state(seed=1))


# -- the board ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_board_plays_a_game_to_the_end_by_clicking(seed):
    """The board draws this renderer and plays a whole game (mulligan,
    summons, attacks, blocks, possessions) by clicking its buttons."""
    seen, final = board_plays_to_the_end("toritsuki", seed, "stage", limit=1000)
    assert {"mulligan", "main"} <= seen
    assert "game over 終了" in final


def test_TK_17_TK_19_two_people_reach_the_defenders_decisions_by_clicking():
    """TK-17, TK-19: two people share the screen (view: the player to move,
    passed on behind a privacy screen); clicking at random reaches a block
    and a defender's possession decided by the defender in the middle of
    the other player's turn."""
    for seed in range(40):
        b = board("toritsuki", ["person", "person"], seed=seed)
        rng = random.Random(seed)
        found = set()
        while not b.state.is_terminal():
            hand_over(b)  # the privacy screen between the two people
            s = b.state
            if s.stage in ("block", "possess_d"):
                assert s.current_player == 1 - s.turn_player
                assert b.table.value == tr.html(s, perspective=s.current_player)
                assert set(b.action_buttons) == set(s.legal_actions())
                found.add(s.stage)
                if found == {"block", "possess_d"}:
                    return
            rng.choice(sorted(b.action_buttons.values(), key=lambda w: w.description)).click()
    raise AssertionError("no defender's decision reached")  # pragma: no cover


def test_TK_4_chance_events_have_labels_and_stay_hidden_in_the_log():
    """TK-4 (who goes first) and the deals and draws read with their
    Japanese terms; TK-2: every card dealt into player 0's opening hand
    reads "Player 0 is dealt a card" to player 1 in the log, whichever card it is, and with its
    number to player 0."""
    assert tr.action_label("first 1") == "first player 先攻: player 1"
    assert tr.action_label("draw 7") == "draw ドロー: #7"
    assert tr.action_label("deal ??") == "deal 配る: ??"
    s = cardlab.load("toritsuki").new_initial_state()  # the deal of player 0's opening hand
    deals = [a for a, _ in s.chance_outcomes()]
    assert all(a.startswith("deal ") for a in deals)
    assert [render.seen_move(s, a, 0).label for a in deals] == [f"deal 配る: #{a.split()[1]}" for a in deals]
    assert {render.seen_move(s, a, 1).label for a in deals} == {"Player 0 is dealt a card"}


def test_buttons_name_each_card_and_method_as_printed():
    """Issue L: a pupil finds a button's card by its printed name, not by
    ``#11`` or ``F1 m1``: with the position, every summon, attack, block,
    move, event and possession label names the card (and the battle
    method), English and Japanese."""
    from cardlab import render

    m = cardlab.Match(cardlab.load("toritsuki"), ["random", "random"], seed=2)
    kinds = set()
    while not m.is_over():
        s = m.state
        if s.current_player >= 0:
            for a in s.legal_actions():
                verb = a.split()[0]
                label = render.action_label(s, a)
                if verb in ("summon", "attack", "block", "move", "event", "possess", "release") and a != "possess deck":
                    kinds.add(verb)
                    assert "#" not in label and not re.search(r"\b[FB]\d\b|\bm\d\b", label), (a, label)
                    assert re.search(r"[ぁ-んァ-ン一-龥]", label), label
        m.step()
    assert {"summon", "attack", "block", "move", "event"} <= kinds
