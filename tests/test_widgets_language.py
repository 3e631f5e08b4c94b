"""The board and the play app in Japanese: ``language=`` on a board, the
selector "Language 言語" (everything drawn again at once, the log and "What
happened" included), two boards of two languages side by side, and the app's
selector and ``?lang=ja`` link.  Driven headless, as tests/test_widgets.py."""

from __future__ import annotations

import random

import pytest

from cardlab import i18n, render
from cardlab.errors import CardlabError, OptionError
from cardlab.widgets import PlayApp, board, parse_query, play_app
from cardlab.widgets.app import query_language

from test_board_fair_play import shown


def play_some(b, seed: int, moves: int = 4) -> None:
    """Click seeded random action buttons (a few moves, or to the end)."""
    rng = random.Random(seed)
    for _ in range(moves):
        if b.state.is_terminal() or not b.action_buttons:
            return
        b.action_buttons[rng.choice(sorted(b.action_buttons))].click()


def texts(b) -> str:
    """The words of the board's own controls (labels, help, options)."""
    out = [b.status.value, b.log_html.value, b.explanation.value, b.view_picker.description]
    for w in [b.undo_button, b.redo_button, b.new_button, b.step_button, b.run_button, b.hint_button,
              b.open_hint_box, b.hint_seconds_box, b.think_button, b.stop_button, b.auto_box, b.clear_button]:
        out += [w.description, w.tooltip or ""]
    out += [label for label, _ in b.view_picker.options]
    return "\n".join(out)


def test_a_board_with_language_ja_speaks_japanese():
    b = board("koinobori", ["person", "random"], seed=1, language="ja")
    assert b.language == b.language_code == "ja" and b.language_picker.value == "ja"
    assert b.language_picker.description == "Language 言語"
    assert [label for label, _ in b.language_picker.options] == ["English", "日本語"]
    assert b.status.value == "プレイヤー0（人）の番：手を選んでください。"
    assert [label for label, _ in b.view_picker.options] == [
        "プレイヤー0の視点", "プレイヤー1の視点", "手番のプレイヤー", "全部見せる"]
    assert b.undo_button.description == "↶ 一手戻す" and b.hint_button.description == "ヒント"
    assert dict((v, k) for k, v in b.seat_pickers[1].options)["random"] == "ランダム"
    assert b.seat_pickers[1].value == "random" and b.seat_pickers[0].description == "プレイヤー0"
    assert "手の記録（6手）" in b.log_html.value and "偶然" not in b.log_html.value
    assert "<b>何が起きたか</b>" in b.explanation.value
    for english in ("view as player", "↶ undo", "Player 0", "move log", "What happened", "chance:"):
        assert english not in texts(b), english


def test_an_english_board_is_unchanged_and_a_bad_language_is_refused():
    b = board("koinobori", ["person", "random"], seed=1)
    assert b.language is None and b.language_code == "en" and b.language_picker.value == "en"
    assert b.status.value == "Player 0 (person) to move: choose an action."
    assert b.seat_pickers[1].options[-1] == ("mcts", "mcts")  # in English an agent's label is its name
    with pytest.raises(OptionError, match="unknown language 'fr'"):
        board("koinobori", language="fr")


def test_switching_the_selector_draws_everything_again_and_back():
    b = board("mipig", ["person", "random"], seed=3)
    play_some(b, 3)
    english, log_en = shown(b), b.log_lines()
    b.language_picker.value = "ja"
    assert b.language == "ja" and b.undo_button.description == "↶ 一手戻す"
    assert b.status.value.startswith("プレイヤー") and "手の記録" in b.log_html.value
    # the log and the explanations are made again from the positions, in Japanese (not the match's record)
    states, viewer = b.states(), b.perspective
    with i18n.using("ja"):
        want = [f"{i}. {b._who(mv.player)}：{render.seen_move(s, mv.action, viewer).label}" if mv.player >= 0
                else f"{i}. {render.seen_move(s, mv.action, viewer).label}"
                for i, (s, mv) in enumerate(zip(states, b.match.history), 1)]
    assert b.log_lines() == want and any(x.split("：", 1)[0].endswith("）") for x in want)
    assert "P0 (person)" not in b.log_html.value
    b.language_picker.value = "en"
    assert shown(b) == english and b.log_lines() == log_en


def test_the_hint_is_drawn_again_in_the_other_language():
    from test_render import ENDGAME
    import cardlab

    game = cardlab.load("koinobori")
    b = board(game.state_from_dict(dict(ENDGAME, options=game.options_dict())), ["person", "random"])
    b.hint_button.click()
    assert "<b>Hint</b>" in b.hint_html.value
    # each action reads as its button does (the mover's own moves, in the mover's view), its notation the
    # title on an English page (a Japanese page shows no English word)
    assert all(f'<td title="{a}">{btn.description}</td>' in b.hint_html.value for a, btn in b.action_buttons.items())
    b.set_language("ja")
    assert "<b>ヒント</b>" in b.hint_html.value and "<th>手</th>" in b.hint_html.value
    assert all(f'<td>{btn.description}</td>' in b.hint_html.value for a, btn in b.action_buttons.items())
    assert b.best_actions() and all(b.action_buttons[a].button_style == "success" for a in b.best_actions())


def test_two_boards_in_two_languages_keep_theirs():
    ja = board("koinobori", ["person", "random"], seed=2, language="ja")
    with i18n.using("ja"):
        en = board("koinobori", ["person", "random"], seed=2, language="en")
    for _ in range(3):
        play_some(ja, 1, 1)
        play_some(en, 1, 1)
    assert ja.undo_button.description == "↶ 一手戻す" and en.undo_button.description == "↶ undo"
    assert "手の記録" in ja.log_html.value and "move log" in en.log_html.value
    with i18n.using("ja"):
        en.redraw()
    assert en.status.value.startswith(("Player", "Game over")) and "P0 (person)" in en.log_html.value
    assert ja.status.value.startswith(("プレイヤー", "ゲーム終了"))


def test_a_board_without_language_follows_the_language_when_it_draws():
    b = board("toritsuki", ["person", "random"], seed=1)
    assert b.undo_button.description == "↶ undo"
    with i18n.using("ja"):
        b.redraw()
    assert b.undo_button.description == "↶ 一手戻す" and b.language_picker.value == "ja" and b.language is None
    b.redraw()
    assert b.undo_button.description == "↶ undo" and b.language_picker.value == "en"


def test_errors_shown_on_a_japanese_board_are_japanese():
    b = board("koinobori", ["heuristic", "person"], seat=1, locked=True, language="ja")
    assert b.language_picker in b.children[0].children  # a student may switch the language
    b.view_picker.value = "all"
    assert "この盤はプレイヤー1に固定されています" in b.status.value and b.perspective == 1
    assert "あなたはプレイヤー1です" in b.seat_label.value
    b.language_picker.value = "en"
    assert "You are player 1" in b.seat_label.value


def test_query_language_and_parse_query():
    assert query_language("game=mipig&lang=ja") == "ja" and query_language("lang=xx") is None
    assert parse_query("lang=ja") == {"lang": "ja"}
    assert parse_query("game=mipig&lang=en")["lang"] == "en"
    assert "lang" not in parse_query("game=mipig")
    with pytest.raises(CardlabError, match=r"lang='fr' is not accepted; lang accepts en \(English\), ja"):
        parse_query("game=mipig&lang=fr")


def test_app_link_with_lang_ja_starts_a_japanese_board(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "game=mipig&seat=0&lock=1&opponent=heuristic&hand_size=3&lang=ja")
    app = play_app()
    assert app.board is not None and app.board.language == "ja" and app.board.locked
    assert "あなたはプレイヤー0です（授業用の固定された盤）。" in app.message.value
    # the guide (nothing of what the lock takes away) and no part for the teacher
    assert list(app.children) == [app.guide, app.message, app.board_box, app.rules_box]
    app.board.language_picker.value = "en"  # the board's selector: the page follows
    assert app.language == "en" and "you play player 0 (a locked classroom board)." in app.message.value


def test_app_set_up_in_japanese_from_lang_alone_and_a_bad_link_in_japanese():
    app = PlayApp(query="lang=ja")
    assert app.board is None and app.language == "ja" and app.setup in app.children
    assert app.game_picker.description == "ゲーム" and app.play_button.description == "遊ぶ"
    assert app.seats_box.children[1].description == "プレイヤー1"
    bad = PlayApp(query="game=mipig&seat=7&lang=ja")
    assert bad.board is None and "このリンクではゲームを始められません" in bad.message.value


def test_app_selector_switches_the_set_up_and_the_board():
    app = PlayApp(seed=1)
    app.option_widgets["koikoi"].value = True
    app.seats_box.children[1].value = "random"
    app.language_picker.value = "ja"
    assert app.play_button.description == "遊ぶ" and app.seed_box.description == "シード"
    assert app.option_widgets["koikoi"].value is True and app.players == ["person", "random"]
    assert app.game_picker.value == "koinobori" and "オプションにマウスを重ねると" in app.about.value
    app.play_button.click()
    b = app.board
    assert b.language == "ja" and b.undo_button.description == "↶ 一手戻す" and b.game.options["koikoi"]
    app.language_picker.value = "en"
    assert b.undo_button.description == "↶ undo" and app.play_button.description == "play"


GUIDE_EN = ("Play a cardlab game", "Choose a <b>game</b>", "<b>◀ set-up</b> brings the choices back",
            "<i>Pass to Player 1 — click when ready</i>", "<b>undo</b> takes your move back",
            "open <i>Rules, rule by rule</i> under the board")
GUIDE_JA = ("カードゲームで遊ぼう", "「<b>遊ぶ</b>」を押します", "「<b>◀ 設定</b>」", "プレイヤー1に交代",
            "「<b>↶ 一手戻す</b>」", "「ルール（1つずつ）」を開いて")


def _guide_and_teacher(app, language: str, setup: bool = True) -> None:
    """The guide and the teacher's part of ``app`` are all in ``language``
    (``setup``: the page has the set-up, and the guide's point on it)."""
    assert "cardlab-play-guide" in app.guide._dom_classes and "cardlab-play-teacher" in app.teacher._dom_classes
    assert app.guide in app.children and app.teacher in app.children
    guide, teacher = app.guide.value, app.teacher_text.value
    if language == "en":
        assert all(t in guide for t in GUIDE_EN[:1] + GUIDE_EN[1 if setup else 3:]), guide
        assert app.teacher.get_title(0) == "For the teacher"
        assert "<b>For the teacher: links for a class.</b> A link can start a board at once" in teacher
        assert "<code>http://HOST:8866/?game=mipig&amp;seat=0&amp;lock=1&amp;opponent=heuristic&amp;seed=3</code>" \
            in teacher
        assert "<b>Class rooms, each pupil on their own laptop.</b> <code>make play</code> prints" in teacher
        assert "press <i>make rooms</i>" in teacher
    else:
        assert all(t in guide for t in GUIDE_JA[:1] + GUIDE_JA[1 if setup else 3:]), guide
        assert not english_words(guide), english_words(guide)
        assert app.teacher.get_title(0) == "先生へ"
        assert "<b>先生へ：授業で使うリンク</b>" in teacher and "「ルームを作る」" in teacher
        assert "<code>make play</code>" in teacher and "Serve this page" not in teacher


def english_words(text: str) -> list[str]:
    """The Latin-letter words of ``text`` outside its HTML tags."""
    import re

    return re.findall(r"[A-Za-z]{2,}", re.sub(r"<[^>]*>", " ", text))


def test_app_guide_and_teacher_part_follow_the_selector(monkeypatch):
    """The notebook's guide and the teacher's part are the app's own HTML:
    the selector (the set-up's, then the board's) switches them."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = play_app(language="en")
    assert app.children[0] is app.guide and app.children[-1] is app.teacher
    assert app.teacher.selected_index is None  # folded
    _guide_and_teacher(app, "en")
    app.language_picker.value = "ja"
    _guide_and_teacher(app, "ja")
    app.play_button.click()  # the set-up folds away (◀ set-up brings it back): the guide stays
    _guide_and_teacher(app, "ja")
    app.board.language_picker.value = "en"
    _guide_and_teacher(app, "en")


def test_app_guide_and_teacher_part_in_japanese_from_the_link(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=ja")
    app = play_app()
    _guide_and_teacher(app, "ja")
    app.language_picker.value = "en"
    _guide_and_teacher(app, "en")
    link = PlayApp(query="game=koinobori&seat=1&opponent=random&lang=ja")  # a board a link started, not locked
    _guide_and_teacher(link, "ja", setup=False)
    assert "「<b>遊ぶ</b>」" not in link.guide.value  # no set-up on that page: nothing about it


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_locked_link_shows_nothing_of_what_the_lock_takes_away(language):
    """A locked classroom board: the guide has the moves, the fair hint and
    the rules, and nothing of the set-up, two persons at one screen or undo;
    there is no part for the teacher (it tells of every hand and the open hint)."""
    app = PlayApp(query=f"game=mipig&seat=0&lock=1&opponent=heuristic&lang={language}")
    assert app.board.locked and app.teacher not in app.children and app.guide in app.children
    guide = app.guide.value
    for absent in ("undo", "reveal", "open hint", "set-up", "Pass to", "一手戻す", "全部見せる", "全公開", "設定",
                   "交代"):
        assert absent not in guide, absent
    assert ("<b>hint</b> shows how good" if language == "en" else "「<b>ヒント</b>」を押すと") in guide
    app.board.language_picker.value = "ja" if language == "en" else "en"
    assert app.teacher not in app.children and "undo" not in app.guide.value and "一手戻す" not in app.guide.value
