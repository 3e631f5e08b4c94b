"""What a pupil reads of the moves is in plain words (issue Y, docs/texts.md):
no log line, explanation or command-line line that a viewer reads holds the
developer words retired from them ("??", "chance event", "A chance event
hidden from player 0"), in English or Japanese, for any viewer of whole
seeded games of every game; a hidden move reads as what happened ("Player 1
is dealt a card"), its rule ids after the sentence."""

from __future__ import annotations

import pytest
from leak import positions

import cardlab
from cardlab import i18n, render
from cardlab.cli import steps, transcript
from cardlab.widgets import board

#: the words retired from every text a viewer reads of a move
RETIRED = ("??", "chance event", "Chance event", "hidden from player", "偶然の出来事", "ぐうぜんの できごと",
           "には見えない", "には みえない")
LANGUAGES = ("en", "ja")
GAMES = cardlab.games.names()


def retired_in(text: str) -> list[str]:
    return [word for word in RETIRED if word in text]


@pytest.mark.parametrize("game_name", GAMES)
def test_every_move_of_whole_games_reads_in_plain_words_for_every_viewer(game_name):
    """Every move of seeded games (to the end), for every viewer and the
    teacher, in both languages: the log label, the line (the command line's)
    and the sentence a board shows; hidden moves read as a sentence."""
    game = cardlab.load(game_name)
    hidden = 0
    for s, a in positions(game, range(3)):
        for viewer in (None, *range(game.spec.num_players)):
            for lang in LANGUAGES:
                with i18n.using(lang):
                    seen = render.seen_move(s, a, viewer)
                for text in (seen.label, seen.line, seen.sentence):
                    assert not retired_in(text), (game_name, a, viewer, lang, text)
                assert seen.sentence and not render.rule_ids(seen.sentence), (a, viewer, lang, seen.sentence)
                assert not seen.rules or seen.line.rstrip(")）").endswith(", ".join(seen.rules)), seen.line
                hidden += seen.hidden
    assert hidden > 0, "no move was hidden from anybody: the test would test nothing"


@pytest.mark.parametrize("game_name", GAMES)
def test_a_boards_log_and_explanations_read_in_plain_words(game_name):
    """A whole game of agents on a board, read from every view in both
    languages: the move log, "What happened" (text and HTML) never show a
    retired word; the rule ids are drawn small after the sentence."""
    n = cardlab.load(game_name).spec.num_players
    b = board(game_name, ["random"] * n, seed=2)
    b.run_button.click()
    assert b.state.is_terminal()
    b._mark = 0  # every move in "What happened"
    for view in (*range(n), "all"):
        b.set_perspective(view)
        for lang in LANGUAGES:
            b.language_picker.value = lang
            lines = b.log_lines() + b.explanation_lines() + [b.log_html.value, b.explanation.value]
            for text in lines:
                assert not retired_in(text), (view, lang, text)
            assert '<small class="cardlab-rules"' in b.explanation.value


def test_the_deal_reads_as_what_happened_to_the_viewer_KN_7_KN_8():
    """KN-7, KN-8: the other player's cards read "Player 1 is dealt a card",
    "Player 1 draws a card", with the rule id after the sentence; the card
    itself only for its owner."""
    root = cardlab.load("koinobori").new_initial_state()
    assert render.seen_move(root, "deal higoi", 1).line == "Player 0 is dealt a card. (KN-7)"
    assert render.seen_move(root, "deal higoi", 1).label == "Player 0 is dealt a card"
    assert render.seen_move(root, "deal higoi", 0).line == "Player 0 is dealt a higoi. (KN-7)"
    m = cardlab.Match(cardlab.load("koinobori"), [None, "random"], seed=29)
    m.advance()
    lines = list(transcript(steps(m), m.state, seat=0))
    assert lines.count("  Player 1 is dealt a card. (KN-7)") == 3
    assert not [x for x in lines if retired_in(x)]


def test_split_rules_moves_the_ids_out_of_the_sentence():
    """An aside keeps its words and loses its ids; an aside of ids alone goes."""
    assert render.split_rules("Edges (MP-Q5): attacker 9 (only 1 card, a bonus needs 2, MP-19) = 9 (MP-13).") == (
        "Edges: attacker 9 (only 1 card, a bonus needs 2) = 9.", ("MP-Q5", "MP-19", "MP-13"))
    assert render.split_rules("4 damage (MC-11: 攻撃を受ける代わりに, MC-13, MC-3).") == (
        "4 damage (攻撃を受ける代わりに).", ("MC-11", "MC-13", "MC-3"))
    assert render.split_rules("あおこいが配られます（KN-7）。") == ("あおこいが配られます。", ("KN-7",))
    assert render.split_rules("no rule here (really).") == ("no rule here (really).", ())


def test_a_game_without_words_for_its_hidden_moves_still_reads_plainly(monkeypatch):
    """A game whose text module has no ``hidden_text`` gets plain sentences
    of its own, never ``??``."""
    monkeypatch.setattr(render, "_text_module", lambda name: None)
    root = cardlab.load("koinobori").new_initial_state()
    seen = render.seen_move(root, "deal higoi", 1)
    assert seen.hidden and not retired_in(seen.line) and seen.line.endswith("(KN-7)")
    s = cardlab.load("mipig", hand_size=2, first_player=0).new_initial_state(seed=3)
    a = next(x for x in s.legal_actions() if x.startswith("place"))
    assert not retired_in(render.hidden_sentence(s, "??", 1))
    assert not retired_in(render.seen_move(s, a, 1).line)
