"""The mipig renderer (cardlab/games/mipig/render.py): what each perspective may
see, the key items of the table (grid, placement squares, attack arrows,
hands, backs, bonuses, graveyards, the end count) and a board played to the
end by clicking."""

from __future__ import annotations

import html
import re

import pytest

import cardlab
from builders import mipig_battle as battle
from cardlab import render
from cardlab.games.mipig import ATTRIBUTE_JA, MARK_JA
from cardlab.games.mipig import render as mr
from cardlab.widgets import board
from test_widgets import click_to_end

from test_render import playout_states as playout


def titles(h: str) -> list[str]:
    return re.findall(r"<title>(.*?)</title>", h)


def hidden_ids(state, p):
    """The ids of the cards player p may not see: the opponent's hand and
    face-down cards, less the ids p sees elsewhere (each player's hand comes
    from their own copy of the card set, MP-3: p may hold the same card)."""
    o = 1 - p
    d = state.to_dict()
    hidden = set(d["hands"][o]) | {c["card"] for c in d["field"] if c["owner"] == o and not c["face_up"]}
    seen = set(d["hands"][p]) | set(d["graveyards"][0]) | set(d["graveyards"][1]) | set(sum(d["shown"], [])) \
        | {c["card"] for c in d["field"] if c["owner"] == p or c["face_up"]}
    return hidden - seen


# -- what a perspective may see (MP-Q6) -----------------------------------------------
def test_MP_Q6_a_perspective_never_shows_the_cards_it_may_not_see():
    """MP-Q6: the opponent's hand and face-down cards are absent from that
    player's HTML and text (only backs), and re-dealt hidden cards render
    identically, in every phase."""
    game = cardlab.load("mipig")
    phases = set()
    for seed in range(4):
        for i, s in enumerate(playout(game, seed)):
            phases.add(s.phase)
            for p in (0, 1):
                h, t = mr.html(s, perspective=p), mr.text(s, perspective=p)
                for cid in hidden_ids(s, p):
                    assert f"{cid} " not in "".join(titles(h)) and f">{cid}<" not in h, (cid, s.phase)
                    assert f":{cid}" not in t and f" {cid}" not in t.split("graveyard")[0].split("hand 手札")[-1]
                if i % 2 == 0:
                    other = s.redeal(p, seed * 1000 + i)
                    assert other.information_set(p) == s.information_set(p)
                    assert mr.html(other, perspective=p) == h
                    assert mr.text(other, perspective=p) == t
    assert {"janken", "placement", "battle", "end"} <= phases


def test_MP_Q6_backs_for_hidden_cards_faces_for_own_face_down_cards():
    """MP-1 (the back shows only the logo), MP-Q6: the owner sees the face of
    an own face-down card (marked 裏), the opponent a back; everything shown
    (perspective None) marks face-down cards but shows their faces."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p02", False)])
    seen0 = mr.html(s, perspective=0)
    assert "p01 Momo" in seen0 and "p02 Tonta" not in seen0
    assert seen0.count("face down 裏向き (card back), player 1") == 1
    assert "face down 裏向き (hidden from the opponent)" in seen0
    everything = mr.html(s)
    assert "p01 Momo" in everything and "p02 Tonta" in everything and "card back" not in everything
    assert everything.count("hidden from the opponent") == 2


def test_MP_Q6_open_hands_shows_every_card():
    """MP-Q6 open_hands: both hands and all face-down cards are shown to both players."""
    game = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0, open_hands=True)
    s = game.new_initial_state()
    h = mr.html(s, perspective=1)
    assert "card back" not in h and "p01 Momo" in h and "p12 Daifuku" in h
    assert "open hands (MP-Q6)" in h


def test_hidden_hand_shows_as_backs_with_its_count_MP_3():
    """MP-3: both players hold the same number of cards; the other hand is a row of backs."""
    s = cardlab.load("mipig", first_player=0).new_initial_state(seed=5)
    h = mr.html(s, perspective=0)
    assert h.count("face down 裏向き (card back), player 1") == 5 and "5 hidden (見えない)" in h
    assert "player 1: hand 手札 5 hidden cards" in mr.text(s, perspective=0)



def test_MP_3_the_deal_says_where_the_cards_come_from():
    """MP-3 (seed: 「お互いに同じ枚数のカードを手札として用意します」): while
    dealing, the table says each hand comes from its player's own copy of
    the card set; with ``deal="shared"`` that both come from one card set,
    and the options line names the option."""
    own = cardlab.load("mipig").new_initial_state()
    h = mr.html(own, perspective=0)
    assert "each from their own copy of the card set" in h and "deal=" not in h
    shared = cardlab.load("mipig", deal="shared").new_initial_state()
    h = mr.html(shared, perspective=1)
    assert "both from one shared card set" in h and "options: deal=&#x27;shared&#x27;" in h
    assert "deal=&#x27;shared&#x27;" in mr.html(shared.apply("deal p01").apply("deal p02"))


# -- the key items ---------------------------------------------------------------
def test_MP_6_MP_7_the_grid_offers_exactly_the_legal_squares():
    """MP-6: an empty field offers one square; MP-7: later only the squares
    sharing an edge; the dashed squares are those of the legal actions."""
    game = cardlab.load("mipig", hand_size=3, hands=["trio_a", "trio_b"], first_player=0)
    s = game.new_initial_state()
    assert mr.placement_targets(s) == [(0, 0)]
    for a in ("place p01 0,0", "place p03 1,0", "place p05 -1,0"):
        s = s.apply(a)
        squares = {tuple(int(v) for v in x.split()[2].split(",")) for x in s.legal_actions()}
        assert set(mr.placement_targets(s)) == squares
        for p in (0, 1, None):
            h = mr.html(s, perspective=p)
            got = re.findall(r"<title>placement target 配置できる場所 (-?\d+),(-?\d+) \(MP-7\)</title>", h)
            assert {(int(x), int(y)) for x, y in got} == squares
    assert (2, 1) not in mr.placement_targets(s) and (-2, -1) not in mr.placement_targets(s)  # corners (MP-7)
    assert "x=-2" in mr.html(s) and ">-2,0<" in mr.html(s)  # the square names of the notation (MP-Q4)


def text_cell(t: str, x: int, y: int) -> str:
    """The 8 characters the text board draws on square ``x,y`` (columns named by its ``x=`` head)."""
    lines = t.splitlines()
    head = next(ln for ln in lines if ln.lstrip().startswith("x="))
    xs = [int(v) for v in re.findall(r"x=(-?\d+)", head)]
    row = next(ln for ln in lines if re.match(rf"  y={y}\s", ln))
    i = xs.index(x)
    return row[7 + 8 * i:15 + 8 * i]


def test_MP_Q4_every_view_names_a_square_as_the_notation_for_the_whole_game():
    """MP-Q4, MP-5 … MP-7 (issue L): a card laid left of and above the first one, then cards
    leaving the field in battle; every view (text, HTML, the board's grid, each perspective)
    draws each card on the square its placement named, the first card on 0,0; the grid's
    dashed squares and arrows carry the names of the moves."""
    from test_mipig import CROSS_MOVES, cross_game

    s = cross_game().new_initial_state()
    home: dict[str, tuple[int, int]] = {}
    for a in CROSS_MOVES:
        words = a.split()
        if words[0] == "place":
            home[words[1]] = tuple(int(v) for v in words[2].split(","))
        s = s.apply(a)
        field = s.to_dict()["field"]
        xs, ys = [c["x"] for c in field], [c["y"] for c in field]
        for p in (0, 1, None):
            t = mr.text(s, perspective=p)
            h = mr.html(s, perspective=p)
            lay = mr.layout(s, perspective=p)
            for c in field:
                seen = c["card"] if p is None or c["owner"] == p or c["face_up"] else "??"
                assert text_cell(t, *home[c["card"]]).startswith(f"{c['owner']}:{seen}"), (a, p, t)
                assert lay.squares[home[c["card"]]] and "placement target" not in lay.squares[home[c["card"]]]
                if seen != "??":
                    assert f"<title>{c['card']} " in lay.squares[home[c["card"]]]
            x0, y0 = min(xs + [x for x, _ in mr.placement_targets(s)]), min(ys + [y for _, y in mr.placement_targets(s)])
            assert lay.bounds()[:2] == (x0, y0) and f">x={x0}</text>" in h
        for x, y in mr.placement_targets(s):
            assert f"<title>placement target 配置できる場所 {x},{y} (MP-7)</title>" in mr.html(s)
        arrows = re.findall(r"<title>attack 攻撃 (-?\d+,-?\d+) → (-?\d+,-?\d+) \(MP-11\)</title>", mr.html(s))
        assert arrows == [tuple(x.split()[1:]) for x in s.legal_actions() if x.startswith("attack")]
    assert text_cell(mr.text(s), 0, 0).startswith("0:A") and home["A"] == (0, 0)
    assert "keep their names" in mr.layout(s, perspective=0).grid_title and "MP-Q4" in mr.layout(s).grid_title


def test_MP_8_ownership_is_drawn_for_every_card():
    """MP-8: the owner of every card (face down too) is visible: its colour and the back's orientation."""
    game = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0)
    s = game.new_initial_state().apply("place p01 0,0").apply("place p05 1,0")
    h = mr.html(s, perspective=0)
    assert 'stroke="#2f6fb5" stroke-width="3" stroke-dasharray="5 3"' in h  # player 0, face down
    assert 'fill="#7b4f8f" stroke="#c2453c"' in h and "rotate(180" in h     # player 1's back, turned
    assert "0:p01 ▽" in mr.text(s, perspective=0) and "1:??  ▽" in mr.text(s, perspective=0)


def test_MP_11_MP_16_MP_17_attack_arrows_are_the_legal_attacks():
    """MP-11 attacks go from an own face-down card to a touching opponent card;
    MP-16 a face-up card draws no arrow; MP-17 a lone face-down card neither."""
    # p03 and p06 face up: each beat a card now in the graveyard; p05 touches only its own (J)
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p02", False), (0, 1, 0, "p03", True),
                (1, 1, 1, "p04", False), (0, 2, 0, "p05", False), (2, 1, 1, "p06", True)],
               graves=(["p07"], ["p08"]))
    arrows = re.findall(r"<title>attack 攻撃 (\d+,\d+) → (\d+,\d+) \(MP-11\)</title>", mr.html(s))
    assert arrows == [tuple(a.split()[1:]) for a in s.legal_actions()]
    assert ("0,0", "1,0") in arrows and not any(a == "0,1" or a == "0,2" for a, _ in arrows)
    assert mr.attack_options(s) == [((0, 0), (1, 0))]
    t = s.apply("attack 0,0 1,0")  # player 1's turn: p04 at (1,1) attacks the face-up p03 at (0,1)
    assert ("1,1", "0,1") in re.findall(r"attack 攻撃 (\d+,\d+) → (\d+,\d+)", mr.html(t, perspective=0))


def test_MP_18_a_pass_is_announced():
    """MP-18: with no attack the table says the player passes."""
    # p01 and p03 face up, each the winner of a battle whose loser is in player 1's graveyard;
    # p05 touches only its own cards (J: a position play reaches)
    s = battle([(0, 0, 0, "p01", True), (1, 0, 1, "p02", False), (0, 1, 0, "p03", True),
                (-1, 1, 0, "p05", False)], graves=([], ["p06", "p07"]))
    assert s.legal_actions() == ["pass"]
    assert "has no attack and passes (MP-18)" in mr.html(s)


def test_MP_19_MP_20_MP_22_bonus_badges_match_the_engine():
    """MP-19/MP-20: each face-up card carries +(count-1) of its owner's face-up
    cards of its attribute; MP-22 face-down, graveyard and opponent cards do
    not count; the badge agrees with explain_battle."""
    love = ["p01", "p02", "p03", "p16", "p17"]  # five love 愛 cards
    cells = [(0, 0, 0, "p18", False), (1, 0, 1, "p04", False)]  # p18 love attacks
    cells += [(0, i, 0, c, True) for i, c in enumerate(love[:3], 1)]  # three face-up love
    cells += [(3, 3, 0, love[3], False)]  # face down: does not count
    cells += [(5, 0, 1, "p19", True), (5, 1, 1, "p20", True)]  # player 1's wisdom pair
    s = battle(cells, graves=([love[4]], ["p21", "p22", "p23"]))
    h = mr.html(s)
    assert "bonus 属性ボーナス +2 (3 face-up love 愛, MP-20)" in h
    assert h.count(">+2</text>") == 3 and h.count(">+1</text>") == 2  # p19/p20: wisdom +1 each
    b = s.explain_battle("attack 0,0 1,0")
    assert b.attacker_bonus.bonus == 3  # the attacker's reveal makes four (MP-21)
    after = s.apply("attack 0,0 1,0")
    h2 = mr.html(after)
    assert h2.count(">+3</text>") == 4 and "4 face-up love 愛" in h2
    assert mr.bonuses([], {}) == {}


def test_MP_15_graveyards_and_MP_24_the_end_count():
    """MP-15: the loser goes to its owner's graveyard 墓地, shown face up to
    both; MP-23/MP-24: at the end the face-up counts and the winner are shown."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p02", False)])  # right 9 against left 8
    end = s.apply("attack 0,0 1,0")
    assert end.is_terminal()
    for p in (0, 1, None):
        h = mr.html(end, perspective=p)
        assert "p02 Tonta" in h.split("graveyard 墓地:")[1 if p in (0, None) else 2].split("</div>")[0]
        assert "face up 表向き 1 : 0 → player 0 wins 勝ち" in h
        assert "game over ゲーム終了" in h
    assert "result: face up 表向き 1 : 0 → player 0 wins 勝ち" in mr.text(end, perspective=1)


def test_MP_25_a_tie_says_so_and_the_tiebreak_is_shown():
    """MP-25, MP-Q3: equal counts go to the janken; player 0's pick is hidden from player 1."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p03", True), (2, 0, 0, "p04", True)], hand_size=2,
               graves=([], ["p09"]))  # p04 and p03 face up side by side: they fought (J)
    t = s.apply("attack 0,0 1,0")  # p01 right 9 vs p03 left 9: rock vs paper, player 1 wins
    assert t.face_up_count(0) == t.face_up_count(1) == 1 and t.phase == "tiebreak"
    assert "each picks a mark of a remaining card at once (MP-25, MP-Q3)" in mr.html(t)
    u = t.apply(t.legal_actions()[0])
    assert "picked (hidden)" in mr.html(u, perspective=1)
    assert "pending pick: picked (hidden)" in mr.text(u, perspective=1)
    mark = u.legal_actions()[0].split()[1]
    end = u.apply(f"pick {mark}")
    assert end.is_terminal() and "face up 表向き 1 : 1 → player 1 wins 勝ち after the janken tiebreak (MP-25)" in mr.html(end)
    v = cardlab.load("mipig", hand_size=2, first_player=0, tiebreak="value").state_from_dict(
        dict(s.to_dict(), options={"hand_size": 2, "first_player": 0, "tiebreak": "value"}))
    w = v.apply("attack 0,0 1,0")
    assert w.is_terminal() and "face up 表向き 1 : 1 →" in mr.html(w)


def test_MP_4_the_janken_pick_is_hidden_from_player_1():
    """MP-4, MP-Q2: player 0's shown card is a hidden pick for player 1 until both show."""
    game = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"])
    s = game.new_initial_state()
    assert s.phase == "janken"
    t = s.apply("show p01")
    assert "picked (hidden)" in mr.html(t, perspective=1) and "p01" not in mr.html(t, perspective=1)
    assert "has picked a card: p01" in mr.html(t, perspective=0)
    u = t.apply("show p05")  # rock beats scissors: player 0 first; the shown cards are public
    assert "shown in the first-player janken (MP-4): p01" in mr.html(u, perspective=1)
    assert "first player 先攻" in mr.html(u, perspective=1)


def test_MP_1_MP_2_cards_show_numbers_attribute_and_mark_in_both_languages():
    """MP-1: four numbers, attribute and janken mark on the face; MP-2 the five attributes."""
    cs = cardlab.load("mipig").cards
    svg = "".join(mr.card_svg(c, 0) for c in cs)
    for c in cs:
        assert f"top 上 {c.top}, bottom 下 {c.bottom}, left 左 {c.left}, right 右 {c.right}" in svg
    for a, ja in ATTRIBUTE_JA.items():
        assert f"{a} {ja}" in svg and f">{ja}</text>" in svg
    for m, ja in MARK_JA.items():
        assert f"{m} {ja}" in svg
    h = mr.html(cardlab.load("mipig", first_player=0).new_initial_state(seed=1))
    for term in ("フィールド", "手札", "墓地", "表向き", "配置フェーズ", "先攻", "属性ボーナス"):
        assert term in h, term


def test_battle_picture_MP_13_MP_14():
    """MP-13/MP-14: the battle picture shows both edges, bonuses, totals, the janken and the text."""
    s = battle([(0, 0, 0, "p01", False), (1, 0, 1, "p03", False)])  # 9 against 9, rock vs paper
    b = s.explain_battle("attack 0,0 1,0")
    h = mr.battle_html(b)
    assert "right 右 9 + bonus 0 = <b>9</b>" in h and "left 左 9 + bonus 0 = <b>9</b>" in h
    assert "janken rock グー against paper パー (MP-14)" in h
    assert "to the graveyard 墓地" in h and "wins 勝ち" in h
    assert html.escape(b.text()) in h


def test_action_labels_put_japanese_beside_english():
    assert mr.action_label("place p07 -1,0") == "place 配置: p07 at -1,0"
    assert mr.action_label("attack 0,0 1,0") == "attack 攻撃: 0,0 → 1,0"
    assert mr.action_label("pass") == "pass パス (no attack, MP-18)"
    assert mr.action_label("show p01") == "show 見せる: p01"
    assert mr.action_label("pick paper") == "pick 選ぶ: paper パー"
    assert mr.action_label("coin 1") == "coin コイン: player 1 first"
    assert mr.action_label("deal p03") == "deal 配る: p03"
    assert render.action_label("mipig", "odd") == "odd"
    assert render.has_renderer("mipig")



# -- the board ---------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2])
def test_board_plays_a_game_to_the_end_by_clicking(seed):
    """The board draws this renderer's layout (the table above and below the
    field, the field as a grid of squares) and plays a whole game (janken,
    placement, battle, the end) by clicking its buttons, listed or on the grid."""
    b = board("mipig", ["person", "random"], seed=seed)
    seen = set()

    def check(b):
        assert not b._message, b._message
        seen.add(b.state.phase)
        for a, button in b.action_buttons.items():
            assert button.description == mr.action_label(a)
        lay = mr.layout(b.state, perspective=0)
        assert (b.table.value, b.table_below.value) == (lay.above, lay.below)

    click_to_end(b, seed, limit=500, each=check)
    assert not b._message, b._message
    assert {"janken", "placement"} <= seen
    assert b.status.value.startswith("Game over: ")
    assert "game over ゲーム終了" in b.table_below.value and "→" in b.table_below.value
    b.view_picker.value = "all"
    lay = mr.layout(b.state)
    assert b.table.value + b.table_below.value == lay.above + lay.below


def test_MP_Q6_the_layout_shows_a_perspective_only_what_it_may_see():
    """MP-Q6: the board's layout (above, below and every square of the field)
    holds none of the cards the perspective may not see, and each square of
    an opponent's face-down card is a back even when the perspective holds
    that card too (own copies, MP-3); its items are the mover's own cards,
    which the board offers only to the person to move."""
    game = cardlab.load("mipig")
    for seed in range(3):
        for s in playout(game, seed):
            for p in (0, 1):
                lay = mr.layout(s, perspective=p)
                h = lay.above + lay.below + "".join(lay.squares.values())
                for cid in hidden_ids(s, p):
                    assert f"{cid} " not in "".join(titles(h)) and f">{cid}<" not in h, (cid, s.phase)
                for c in s.to_dict()["field"]:  # the opponent's face-down squares: backs, whatever p holds
                    if c["owner"] != p and not c["face_up"]:
                        sq = lay.squares[(c["x"], c["y"])]
                        assert "card back" in sq and f">{c['card']}<" not in sq, (c, s.phase)
                if lay.items:
                    assert set(lay.items) <= set(s.to_dict()["hands"][s.current_player])


def test_layout_html_is_the_table_with_the_field_as_squares_MP_8():
    """The layout's parts are the table of :func:`html`; every card on the
    field has its square, drawn with its owner's colour (MP-8)."""
    s = playout(cardlab.load("mipig"), 3)[-1]
    lay = mr.layout(s, perspective=None)
    full = mr.html(s)
    assert lay.above[:-6] in full and lay.below.split('max-width:760px">', 1)[1][:-6] in full
    for c in s.to_dict()["field"]:
        sq = lay.squares[(c["x"], c["y"])]
        assert mr.OWNER[c["owner"]] in sq and f">{c['card']}<" in sq
    x0, y0, x1, y1 = lay.bounds()
    assert len(lay.squares) == (x1 - x0 + 1) * (y1 - y0 + 1)


def test_MP_1_janken_hands_are_drawn_not_emoji():
    """Issue L: ✊ ✌ ✋ showed as empty boxes without an emoji font; each
    card draws its janken hand (MP-1, MP-4) as SVG, beside its Japanese word."""
    from cardlab.games.mipig import render as mr

    game = cardlab.load("mipig")
    seen = set()
    for card in game.cards:
        svg = mr.card_svg(card)
        assert not set("✊✌✋") & set(svg)
        assert f'class="cardlab-janken-{card.janken}"' in svg
        seen.add(card.janken)
    assert seen == {"rock", "scissors", "paper"}
