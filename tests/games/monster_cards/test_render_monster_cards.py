"""The MONSTER CARDS renderer (cardlab/games/monster_cards/render.py) and card
builder form (cardlab/widgets/monster_cards_builder.py): what each
perspective may see, the key items of the table for 2 to 8 players, the
scale of a battle, a board played to the end by clicking, and the builder
driven headlessly."""

from __future__ import annotations

import re

import pytest

import cardlab
from cardlab import render
from cardlab.games import monster_cards as mc
from cardlab.games.monster_cards import Card
from cardlab.games.monster_cards import render as mr
from cardlab.widgets import monster_cards_board
from cardlab.widgets import board
from cardlab.widgets.monster_cards_builder import CardBuilder

from test_render import playout_states as playout
from test_widgets import click_to_end


def titles(h: str) -> list[str]:
    return re.findall(r"<title>(.*?)</title>", h)


def P(hand=(), deck=(), top=(), grave=(), out=False):
    return {"out": out, "hand": list(hand), "deck_top": list(top), "deck": list(deck), "graveyard": list(grave)}


def pos(game, players, turn=0, attack=None, gc=None):
    z = lambda x: None if x is None else {"owner": x[0], "card": x[1]}  # noqa: E731
    return game.state_from_dict({"phase": "action", "turn": turn, "attack": z(attack), "gamechanger": z(gc),
                                 "pending": None, "players": players})


# tide's sun_seraph sits only in player 1's hand; infernal_lord (ember) only in player 0's graveyard
SECRET = [P(["ash_hound", "cinder_knight"], ["magma_wyrm", "ember_imp"], grave=["shade_bat", "infernal_lord"]),
          P(["sun_seraph", "tide_archer"], ["leviathan", "kelp_sprite"])]


# -- what a perspective may see (MC-8) --------------------------------------------------
@pytest.mark.parametrize("players", [2, 3])
def test_MC_8_redealt_hidden_cards_render_identically(players):
    """MC-8: hand, deck and graveyard are hidden from the other players: a
    redeal of what player p cannot see gives the same HTML and text for p."""
    game = cardlab.load("monster_cards", players=players)
    for seed in range(2):
        for i, s in enumerate(playout(game, seed)[::4]):
            for p in range(players):
                other = s.redeal(p, seed * 100 + i)
                assert other.information_set(p) == s.information_set(p)
                assert mr.html(other, perspective=p) == mr.html(s, perspective=p)
                assert mr.text(other, perspective=p) == mr.text(s, perspective=p)


def test_MC_8_hidden_hand_and_graveyard_absent_from_the_html():
    """MC-8: a card only in another player's hand or graveyard is absent from
    that perspective (backs and counts instead), present for its owner and
    with everything shown; MC-7 the ruins are public."""
    s = pos(cardlab.load("monster_cards"), SECRET, attack=(1, "storm_eel"))
    for p, secret, mine in ((0, "sun_seraph", "infernal_lord"), (1, "infernal_lord", "sun_seraph")):
        h, t = mr.html(s, perspective=p), mr.text(s, perspective=p)
        assert secret not in h and secret not in t
        assert mine in h
        assert "card back 裏 (hidden), player" in h and "hidden (見えない)" in h
    everything = mr.html(s)
    assert "sun_seraph" in everything and "infernal_lord" in everything
    assert "rest (順不明): ember_imp, magma_wyrm" in everything  # the deck's unknown rest, None only
    assert "rest (順不明)" not in mr.html(s, perspective=0)
    assert "graveyard (墓地) shade_bat → infernal_lord |" in mr.text(s, perspective=0)  # MC-8 in order, top last
    assert "graveyard (墓地) 2 |" in mr.text(s, perspective=1)
    ruins = s.ruins(1)
    assert ruins and all(c in mr.html(s, perspective=0) for c in ruins)


def test_MC_8_open_hands_shows_every_hand():
    """MC-8 with open_hands: every hand and graveyard is shown to everybody."""
    s = pos(cardlab.load("monster_cards", open_hands=True), SECRET, attack=(1, "storm_eel"))
    h = mr.html(s, perspective=0)
    assert "sun_seraph" in h and "infernal_lord" in h and "card back" not in h.split("deck (山札)")[0]
    assert "open hands" in h


# -- the key items ------------------------------------------------------------------------
def test_MC_7_shared_zones_and_MC_4_gamechanger_in_force():
    """MC-7: attack, defence and GameChanger zones and the ruins in the middle;
    MC-4: the GameChanger in force is described; Japanese beside English."""
    s = pos(cardlab.load("monster_cards"), SECRET, attack=(1, "storm_eel"), gc=(1, "dawn_oracle"))
    h = mr.html(s, perspective=0)
    for label in ("attack zone 攻撃ゾーン", "defence zone 防衛ゾーン", "GameChanger zone ゲームチェンジャーゾーン",
                  "ruins 跡地", "hand (手札)", "deck (山札)", "graveyard (墓地)"):
        assert label in h, label
    assert "GameChanger in force" in h and "Leveller (均衡)" in h
    assert "storm_eel" in "".join(titles(h)) and "(player 1)" in "".join(titles(h))
    assert "empty 空" in h  # the defence zone between turns


def test_MC_2_MC_3_MC_5_card_face():
    """MC-2 rarity, MC-3 attack power, MC-5 the four affinity values in order
    with Japanese names, MC-4 the skill icon in the seed's category colour."""
    c = Card("ash_cub", "SR", 4, "fire", "beast", "small", "melee", "revive", "灰の子")
    svg = mr.card_svg(c)
    assert ">SR</text>" in svg and "攻 4" in svg and "灰の子" in svg
    order = [svg.index(x) for x in ("火 fire", "獣 beast", "小 small", "近接 melee")]
    assert order == sorted(order)
    assert mr.SKILL_COLOUR["discard"] in svg and "再起 SP" in svg
    assert escape_title(str(c)) in titles(svg)[0]
    assert mr.SKILL_COLOUR == {"standard": "#8b5a2b", "discard": "#2f6fc0", "gamechanger": "#7d3fa8"}


def escape_title(s: str) -> str:
    from html import escape
    return escape(s)


def test_MC_19_eliminated_players_and_the_winner():
    """MC-19: players who are out are marked 脱落; at the end the winner is named."""
    game = cardlab.load("monster_cards", players=3)
    end = playout(game, 3)[-1]
    assert end.is_terminal()
    h = mr.html(end, perspective=0)
    w = end.winner()
    assert f"player {w} wins 勝ち (MC-19)" in h and "winner 勝者" in h
    outs = [q for q in range(3) if q != w]
    assert h.count("out 脱落 (deck empty, MC-19)") == 2
    assert "out 脱落: " + ", ".join(f"player {q}" for q in outs) in h
    assert f"player {outs[0]}: out (脱落)" in mr.text(end, perspective=w)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_MC_1_every_seat_is_drawn_for_2_to_8_players(players):
    """MC-1: 2 to 8 players, every seat drawn (the viewer's last), MC-Q8 seat order."""
    s = cardlab.load("monster_cards", players=players).new_initial_state(seed=1)
    for p in (0, players - 1, None):
        h = mr.html(s, perspective=p)
        found = [int(x) for x in re.findall(r">Player (\d+)</b>", h)]
        assert sorted(found) == list(range(players))
        if p is not None:
            assert found[-1] == p and "(you)" in h
            assert found == [(p + 1 + i) % players for i in range(players)]


# -- the scale (MC-14 … MC-16) ------------------------------------------------------------------
def hand_tip(svg: str, name: str) -> tuple[float, float, float]:
    m = re.search(r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="([\d.]+)"[^>]*><title>' + name, svg)
    cx, cy, x, y = map(float, m.groups())
    return x - cx, cy - y, cx


def test_MC_14_MC_15_MC_16_the_seed_scale_example():
    """MC-14: defender SR vs attacker C moves the short hand 2 marks toward the
    attacker (left); MC-15/MC-17 the long hand ends at the centre (even, demon
    beats human, even, magic beats defence); MC-16 long hand nearer the
    defender than the short hand: success."""
    d = Card("seed_defender", "SR", 2, "fire", "human", "medium", "magic")
    a = Card("seed_attacker", "C", 2, "none", "demon", "medium", "defence")
    b = mc.battle(d, a)
    svg = mr.scale_svg(b)
    sx, sy, _ = hand_tip(svg, "short hand 短針 -2")
    lx, ly, _ = hand_tip(svg, "long hand 長針 \\+0")
    assert sx < 0 < sy and lx == 0 < ly  # short hand toward the attacker, long hand straight up
    assert "defence succeeds 防衛成功" in svg and "attacker 攻撃側" in svg and "defender 防衛側" in svg
    h = mr.battle_html(b)
    assert "勝負の秤" in h and "short hand (短針), MC-14" in h


def test_MC_16_failure_and_draw_on_the_scale():
    """MC-16: long hand nearer the attacker: failure; same mark: draw."""
    weak = Card("weak", "C", 1, "none", "human", "medium", "melee")
    strong = Card("strong", "UR", 1, "none", "human", "medium", "melee")
    fail = mr.scale_svg(mc.battle(weak, strong))
    assert "defence fails 防衛失敗" in fail
    sx, _, _ = hand_tip(fail, "short hand 短針 \\+3")
    assert sx > 0
    assert "draw 引き分け" in mr.scale_svg(mc.battle(weak, weak))


def test_MC_18_last_battle_of_a_history_and_the_board_scale():
    """MC-18: the board draws the scale of the last battle after each battle;
    last_battle finds it in a history (None before the first)."""
    b = monster_cards_board.board(cardlab.load("monster_cards"), ["random", "random"], seed=5)
    assert "last battle" not in b.table.value  # no battle yet
    b.run()
    assert b.state.is_terminal()
    hist = [m.action for m in b.match.history]
    found = mr.last_battle(b.states(), hist)
    assert found is not None and hist[found[0]].startswith("defend ")
    assert "last battle 戦闘 (勝負の秤)" in b.table.value and found[1].explain().splitlines()[0].split(":")[0] in \
        b.table.value
    assert mr.last_battle(b.states()[:1], []) is None


# -- the board ---------------------------------------------------------------------------
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2)])
def test_board_plays_a_game_to_the_end_by_clicking(players, seed):
    """The board draws this renderer (with the last battle's scale) and plays
    a whole game by clicking its action buttons; the view picker lists every
    player."""
    b = monster_cards_board.board("monster_cards" if players == 2 else cardlab.load("monster_cards", players=players),
                 ["person"] + ["random"] * (players - 1), seed=seed)
    assert [v for _, v in b.view_picker.options] == list(range(players)) + ["mover", "all"]
    battles = []

    def check(b):
        assert not b._message, b._message
        for a, button in b.action_buttons.items():
            assert button.description == mr.action_label(a, b.state)  # each card as its face prints it
        found = mr.last_battle(b.states(), [m.action for m in b.match.history])
        assert b.table.value == mr.html(b.state, perspective=0, battle=found and found[1])
        battles.append(found is not None)

    click_to_end(b, seed, limit=400, each=check)
    assert not b._message, b._message
    assert any(battles)
    assert b.status.value.startswith("Game over: ")
    assert "game over" in b.table.value
    b.view_picker.value = "all"
    assert "everything shown" in b.table.value


def test_board_perspective_switch_lists_eight_players():
    """MC-1 with 8 players: the framework's view picker lists all 8 seats."""
    b = monster_cards_board.board(cardlab.load("monster_cards", players=8), ["random"] * 8, seed=1, autoplay=False)
    assert [v for _, v in b.view_picker.options] == list(range(8)) + ["mover", "all"]
    b.view_picker.value = 7
    assert "as seen by player 7" in b.table.value


def test_action_labels_and_registered():
    assert mr.action_label("defend ember_imp") == "defend 防衛: ember_imp"
    assert mr.action_label("attack ember_imp") == "attack 攻撃: ember_imp"
    assert mr.action_label("gc pyre_totem") == "GameChanger ゲームチェンジャー: pyre_totem"
    assert mr.action_label("discard shade_bat") == "discard 捨てる: shade_bat"
    assert render.has_renderer("monster_cards")  # html and text: test_render.py, every game


# -- the card builder form (MC-6, MC-Q2, MC-1) ------------------------------------------------
def test_MC_6_MC_Q2_builder_shows_the_cost_live():
    """MC-6, MC-Q2: the cost formula (rarity + attack + skill category, from the
    data table) is shown term by term and changes as the fields change."""
    f = CardBuilder()
    f.set_fields(name="ash_cub", rarity="R", attack=4, skill="bloodlust")
    costs = mc.load_costs()
    want = costs["rarity"]["R"] + costs["attack"]["4"] + costs["skill"]["gamechanger"]
    assert f.cost_html.value.endswith(f"= <b>{want}</b>") and "GameChanger (ゲームチェンジャー)" in f.cost_html.value
    f.set_fields(rarity="UR")
    assert f"= <b>{want - costs['rarity']['R'] + costs['rarity']['UR']}</b>" in f.cost_html.value
    assert "ULT" in f.skill_html.value  # MC-4 the UR form
    card = f.build()
    assert card == Card("ash_cub", "UR", 4, "none", "human", "small", "melee", "bloodlust") and f.error == ""
    assert card.cost() == want - costs["rarity"]["R"] + costs["rarity"]["UR"]


def test_MC_3_builder_refuses_with_the_engine_message():
    """MC-3 (attack 1-5), MC-5 (affinity values), the name rule: the form shows the
    engine's CardError message and keeps its last good card."""
    f = CardBuilder()
    f.set_fields(name="good", attack=3)
    good = f.build()
    f.set_fields(attack=9)
    assert "— (attack not accepted)" in f.cost_html.value
    assert f.build() is None and f.card is good
    with pytest.raises(mc.CardError) as exc:
        Card("good", "C", 9, "none", "human", "small", "melee")
    assert f.error == str(exc.value) and "a whole number from 1 to 5" in f.message.value
    f.set_fields(attack=2, name="Bad Name")
    f.build_button.click()
    assert "field 'name'" in f.error and f.card is good
    with pytest.raises(ValueError, match="no field 'colour'"):
        f.set_fields(colour="red")


def test_MC_1_builder_deck_refused_then_accepted():
    """MC-1: the deck is checked by validate_deck: too expensive is refused with
    the engine's message, 20 cheap cards are accepted."""
    f = CardBuilder()
    f.set_fields(name="big", rarity="UR", attack=5, skill="fury")
    for _ in range(20):
        f.add_button.click()
    assert len(f.cards) == 20
    f.check_button.click()
    assert "over 200 (MC-1" in f.error and "20/20 cards" in f.deck_html.value
    f.clear_button.click()
    f.set_fields(name="small", rarity="C", attack=1, skill=None)
    f.add(19)
    assert f.check_deck() is None and "19 cards; MC-1 asks for exactly 20" in f.error
    f.add()
    deck = f.check_deck("cheap")
    assert deck is not None and len(deck.cards) == 20 and "accepted" in f.message.value
    assert repr(f) == "CardBuilder(card='small', deck=20 cards, error=False)"


def test_MC_11_MC_18_the_board_draws_each_battle_with_its_scale():
    """MC-11: a card played to the defence zone fights the attack-zone card;
    the default board draws that battle (both cards, the scale 勝負の秤 and
    the explanation, :func:`mr.move_html`) under "what happened"; a card
    played to the attack zone draws nothing."""
    game = cardlab.load("monster_cards")
    battles = 0
    for seed in range(20):
        states = playout(game, seed)
        for s, t in zip(states, states[1:]):
            if s.is_chance_node():
                continue
            for a in s.legal_actions():
                b = s.battle(a)
                if b is None:
                    assert mr.move_html(s, a) == ""
                else:
                    assert mr.move_html(s, a) == mr.battle_html(b, s) and "<svg" in mr.move_html(s, a)
                    battles += 1
        if battles >= 5:
            break
    assert battles >= 5
    bd = board("monster_cards", ["person", "random"], seed=5)
    shown = 0
    while not bd.state.is_terminal():
        s = bd.state
        defend = [a for a in s.legal_actions() if s.battle(a) is not None]
        bd.action_buttons[(defend or s.legal_actions())[0]].click()
        if defend:
            assert 'class="cardlab-mc-battle"' in bd.explanation.value
            shown += 1
    assert shown >= 1
