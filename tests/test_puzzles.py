"""Issue U: puzzles from the solver (``cardlab.puzzles``), their Glicko-2
ratings (``cardlab.glicko``) and ``cardlab puzzle`` / ``cardlab puzzles``."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

import cardlab
from cardlab import i18n, puzzles
from cardlab.cli import main
from cardlab.glicko import Glicko, attempt, update
from cardlab.hidden import arrangements
from cardlab.puzzles.bank import FIELDS, BankError, UnknownPuzzleError, bank_path
from cardlab.puzzles.check import PuzzleCheckError, check, only_move
from cardlab.puzzles.generate import PER_PATTERN, generate, pattern, puzzle_game
from cardlab.puzzles.text import move_words, worth
from cardlab.puzzles.themes import THEMES, tag

ROOT = Path(__file__).resolve().parent.parent
BANKS = [g for g in cardlab.games() if bank_path(g).exists()]


# --- Glicko-2 -------------------------------------------------------------------------------------

def test_glicko2_reproduces_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (glicko2.pdf): a player
    rated 1500, RD 200, volatility 0.06 (tau 0.5) beats a 1400/30 player and
    loses to 1550/100 and 1700/300: 1464.06, RD 151.52, volatility 0.05999.
    (The paper rounds its intermediate figures; unrounded, the rating is
    1464.051, within 0.01 of the paper's.)"""
    r = update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)],
               tau=0.5)
    assert r.rating == pytest.approx(1464.06, abs=0.01)
    assert r.rd == pytest.approx(151.52, abs=0.01)
    assert r.vol == pytest.approx(0.05999, abs=0.00001)


def test_glicko2_attempt_moves_pupil_and_puzzle_opposite_ways():
    pupil, puzzle = Glicko(1500, 200), Glicko(1700, 100)
    won, lost = attempt(pupil, puzzle, True)
    assert won.rating > pupil.rating and lost.rating < puzzle.rating
    failed, held = attempt(pupil, puzzle, False)
    assert failed.rating < pupil.rating and held.rating > puzzle.rating
    assert won.rd < pupil.rd  # a game makes a rating surer
    assert update(pupil, []).rd > pupil.rd  # a period without games makes it less sure


@pytest.mark.parametrize("bad", [{"rd": 0}, {"vol": -1}, {"rating": float("nan")}, {"rating": "1500"}])
def test_glicko2_refuses_bad_ratings(bad):
    with pytest.raises(cardlab.CardlabError, match="Glicko rating"):
        Glicko(**bad)
    with pytest.raises(cardlab.CardlabError, match="score is 0"):
        update(Glicko(), [(Glicko(), 2)])


# --- the test a puzzle passes ---------------------------------------------------------------------

def _mazemon_records(n=4):
    records, figures = generate(puzzle_game("mazemon"), n, seed=4, max_games=40)
    assert figures["kept"] == len(records) == n
    return records


@pytest.fixture(scope="module")
def made():
    return _mazemon_records()


def test_generated_puzzles_pass_the_check_at_every_move_of_the_mover(made):
    for r in made:
        game = cardlab.load("mazemon", **r["position"].get("options", {}))
        state = game.state_from_dict(r["position"])
        steps = check(state, r["solution"], Fraction(r["margin"]))
        assert steps[0].move == r["solution"][0]
        assert all(s.gap >= Fraction(r["margin"]) for s in steps)
        values = {a: Fraction(v) for a, v in r["values"].items()}
        best = values.pop(r["solution"][0])
        assert all((best - v) / 2 >= Fraction(r["margin"]) for v in values.values())
        assert "explanation" not in r, "made from the stored values when shown, not stored as prose"
        assert r["line"] == [str(s.values[s.move]) for s in steps] and r["line"][0] == r["values"][r["solution"][0]]


def test_a_wrong_solution_is_refused(made):
    r = made[0]
    state = cardlab.load("mazemon", **r["position"].get("options", {})).state_from_dict(r["position"])
    other = next(a for a in state.legal_actions() if a != r["solution"][0])
    with pytest.raises(PuzzleCheckError, match="not the only best move"):
        check(state, [other], Fraction(r["margin"]))
    with pytest.raises(PuzzleCheckError):  # a margin larger than the gap found
        check(state, r["solution"][:1], Fraction(r["gap"]) + Fraction(1, 100))


def test_fair_puzzles_are_labelled_by_the_arrangements():
    """A fair puzzle is "sure" exactly when its answer is a best move in
    every arrangement of the cards the mover cannot see."""
    fair = puzzles.load("koinobori", kind="fair")
    mixed = [p for p in fair if p.label == "sure"][:3] + [p for p in fair if p.label != "sure"][:3]
    assert len({p.label for p in mixed}) == 2, "the bank has both labels"
    for p in mixed:
        step = only_move(p.state, p.margin)
        per_world = []
        for world, _w in arrangements(p.state, p.mover, limit=500):
            a = cardlab.analyse(cardlab.hidden.open_hands_copy(world), nodes=puzzles.NODES)
            values = {r["action"]: r["value"] for r in a.rows}
            per_world.append(values[p.answer] == max(values.values()))
        assert step.sure == all(per_world) == (p.label == "sure")


def test_themes_are_tagged_from_what_happens():
    said = [(True, "Player 0's Ember Boar attacks X … → Vine Serpent is knocked out at once (一撃) (MZ-12).")]
    assert "ko" in tag("mazemon", said)
    assert "substitute" not in tag("mazemon", [(False, "Player 1 uses no substitute (MZ-19).")])
    assert "summon" not in tag("mazemon", [(False, "Player 1 summons Ember Boar (cost 2; MZ-7).")])  # not the mover


@pytest.mark.parametrize("game", sorted(THEMES))
def test_every_theme_teaches_a_rule_of_the_digest(game):
    digest = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    for theme in THEMES[game]:
        assert re.search(rf"^- {re.escape(theme.rule)} ", digest, re.M), theme


# --- the shipped bank -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", BANKS)
def test_shipped_bank_is_complete(game):
    data = puzzles.read_bank(bank_path(game), game)
    ps = puzzles.load(game)
    assert len(ps) == len(data["puzzles"]) == data["generated"]["kept"] >= 100  # the floor a game
    assert len({p.id for p in ps}) == len(ps)
    known = puzzles.theme_names(game)
    for p in ps:
        assert p.answer in p.state.legal_actions() and p.state.current_player == p.mover
        assert set(p.themes) <= set(known) and p.rating > 0
        assert p.explanation("en") != p.explanation("ja")
        assert p.kind == "open" or not p.state.game.spec.perfect_information
        assert p.margin == puzzles.margin_of(game, p.kind) and p.gap >= p.margin
    # variety: no exercise more than PER_PATTERN times (Toritsuki's first bank held one choice 88 times)
    patterns = Counter(pattern(r) for r in data["puzzles"])
    assert max(patterns.values()) <= PER_PATTERN, patterns.most_common(1)


@pytest.mark.parametrize("game", BANKS)
def test_a_few_shipped_puzzles_verify(game):
    """The solver's check (uniqueness and margin) on the first and last
    puzzle of each bank; every one: the slow test below."""
    ps = puzzles.load(game)
    for p in {ps[0].id: ps[0], ps[-1].id: ps[-1]}.values():
        puzzles.verify(p)


@pytest.mark.slow
@pytest.mark.parametrize("game", BANKS)
def test_every_shipped_puzzle_verifies(game):
    for p in puzzles.load(game):
        puzzles.verify(p)


def test_verify_checks_the_values_the_explanation_says():
    """The values a shipped explanation is made from are the solver's."""
    p = next(q for q in puzzles.load("mazemon") if len(q.line) > 1)
    puzzles.verify(p)
    with pytest.raises(PuzzleCheckError, match="field 'line' is"):
        puzzles.verify(dataclasses.replace(p, line=p.line[:1] + (p.line[1] - 1,) + p.line[2:]))
    other = next(a for a in p.values if a != p.answer)
    with pytest.raises(PuzzleCheckError, match="field 'values' is"):
        puzzles.verify(dataclasses.replace(p, values={**p.values, other: p.values[other] - Fraction(1, 100)}))


@pytest.mark.parametrize("game", BANKS)
def test_load_by_theme_and_rule_id(game):
    ps = puzzles.load(game)
    theme = next((t for p in ps for t in p.themes), None)
    if theme is None:
        pytest.skip(f"no puzzle of {game} has a theme")
    rule = puzzles.theme_names(game)[theme].rule
    by_theme, by_rule = puzzles.load(game, theme=theme), puzzles.load(game, theme=rule)
    assert by_theme and all(theme in p.themes for p in by_theme)
    assert {p.id for p in by_theme} <= {p.id for p in by_rule}


def test_fair_puzzle_shows_the_mover_only_what_they_may_see(capsys, monkeypatch):
    """The leak check of a puzzle: the same puzzle with the hidden cards
    arranged another way prints the same view and question."""
    p = puzzles.load("koinobori", kind="fair")[0]
    worlds = [w for w, _ in arrangements(p.state, p.mover, limit=500)]
    assert len(worlds) > 1, "a fair puzzle with something hidden"
    from cardlab.cli_puzzle import _show

    seen = set()
    for world in worlds[:4]:
        _show(p, world)
        seen.add(capsys.readouterr().out)
    assert len(seen) == 1


# --- the explanation, in the board's words ------------------------------------------------------------

def _words(p, lang):
    """Each first move and each move of the whole solution (the replies
    after the mover's last move too) as the board's buttons and its move
    log name them for the mover (cardlab.render.seen_move)."""
    with i18n.using(lang):
        first = {a: cardlab.render.seen_move(p.state, a, p.mover).label for a in p.values}
        return first, dict(zip(p.solution, move_words(p.state, p.solution, p.mover)))


@pytest.mark.parametrize("game", BANKS)
def test_explanations_name_the_moves_with_the_boards_words_in_english_and_japanese(game):
    """Every shipped puzzle's explanation, in English and Japanese, names
    every move (each first move with its value, the solution's moves) with
    the words the board and its move log use in that language, never with
    the notation (``attack -1,2 -2,2``, ``nobori magoi``)."""
    differ = False
    for p in puzzles.load(game):
        said = {lang: _words(p, lang) for lang in ("en", "ja")}
        for lang, (first, line) in said.items():
            text = p.explanation(lang)
            for move, words in [*first.items(), *line.items()]:
                assert words in text, (p.id, lang, words, text)
                if move not in words:  # the notation is not part of the words ("end" in "end turn")
                    assert move not in text, (p.id, lang, move, text)
        differ = differ or said["en"] != said["ja"]
        assert p.explanation("en") != p.explanation("ja")
    assert differ, "the Japanese words are the Japanese board's, not the English ones"


def test_an_explanation_in_notation_fails_the_words_test():
    """The test above catches the old explanations, written in notation."""
    p = puzzles.load("koinobori")[0]
    old = f"Only {p.answer} is best: it is worth {p.values[p.answer]}."
    first, _line = _words(p, "en")
    assert first[p.answer] not in old and p.answer in old
    assert first[p.answer] in p.explanation("en") and p.answer not in p.explanation("en")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_MC_2_monster_cards_explanation_names_each_card_as_the_board_does(lang):
    """MC-2: a MONSTER CARDS explanation names each card of the moves as the
    board's buttons and move log do, with the names printed on its face (its
    id and its Japanese name; in Japanese the Japanese name alone), never by
    its bare id (the sentence of what the answer does is the game's prose)."""
    for p in puzzles.load("monster_cards"):
        with i18n.using(lang):
            does = cardlab.render.seen_move(p.state, p.answer, p.mover).line
            button = cardlab.render.action_label(p.state, p.answer)
        text = p.explanation(lang)
        assert button in text, (p.id, button, text)
        words = text.replace(does, "")
        for move in p.values:
            card = p.state.game.card(move.split()[1])
            printed = card.japanese if lang == "ja" else f"{card.name} {card.japanese}"
            assert button.endswith(printed if move == p.answer else button.split()[-1]), (p.id, button)
            assert printed in words and not re.search(rf"\b{card.name}\b(?! {card.japanese})", words), (
                p.id, card.name, words)


def _line_words(p, lang):
    """What the explanation must say of each move of the solution after the
    answer, in order: a reply as the player who plays it and the words the
    mover reads (a move the mover does not see: its plain sentence), a
    further move of the mover as its button reads."""
    out = []
    with i18n.using(lang):
        for state, move in list(zip(p.positions, p.solution))[1:]:
            seen = cardlab.render.seen_move(state, move, p.mover)
            if state.current_player == p.mover:
                out.append(seen.label)
            elif seen.hidden:
                out.append(seen.sentence)
            else:
                out.append(i18n._("Player {player} answers {move}.").format(
                    player=state.current_player, move=i18n.pgettext("puzzle move", "“{move}”").format(
                        move=seen.label)))
    return out


@pytest.mark.parametrize("game, least", [("mipig", 10), ("mazemon", 10), ("koinobori", 3)])
def test_explanation_says_the_whole_solution_line_with_who_plays_each(game, least):
    """The explanation goes on after the mover's last move: every reply of
    the solution, in order, with the player who plays it, in the words the
    mover reads on the board, then how the line ends (the game over and its
    result, or the value the line keeps for the mover).  (Toritsuki's bank
    had such lines only in the one exercise it held 72 times, now twice
    without a reply: not a case here.)"""
    tried = 0
    for p in puzzles.load(game):
        last = max(i for i, st in enumerate(p.positions) if st.current_player == p.mover)
        if last == len(p.solution) - 1:
            continue
        end = p.positions[-1].apply(p.solution[-1])
        for lang in ("en", "ja"):
            text, at = p.explanation(lang), 0
            for words in _line_words(p, lang):
                at = text.find(words, at)
                assert at >= 0, (p.id, lang, words, text)
                at += len(words)
            spec = p.state.game.spec
            lo, hi = Fraction(spec.min_utility), Fraction(spec.max_utility)
            with i18n.using(lang):
                if end.is_terminal():  # the result, else its share of a win
                    got = Fraction(end.returns()[p.mover])
                    ending = {hi: i18n._("The game is then over: you win."),
                              lo: i18n._("The game is then over: you lose.")}.get(got, worth(got, lo, hi))
                else:  # the share of a win of the value the line keeps
                    ending = worth(p.line[-1], lo, hi)
            assert ending in text[at:], (p.id, lang, ending, text[at:])
        tried += 1
    assert tried >= least, f"{game}: only {tried} puzzles with replies after the mover's last move"


def test_a_hidden_reply_is_said_as_the_mover_sees_it():
    """A reply the mover does not see (a MAZEMON charge, face down) is said
    in the plain sentence of the mover's move log, never with the words of
    its owner's button, which name the card."""
    said = 0
    for p in puzzles.load("mazemon", kind="fair"):
        for state, move in list(zip(p.positions, p.solution))[1:]:
            seen = cardlab.render.seen_move(state, move, p.mover)
            if seen.hidden:
                for lang in ("en", "ja"):
                    with i18n.using(lang):
                        hidden, owners = (cardlab.render.seen_move(state, move, p.mover).sentence,
                                          cardlab.render.action_label(state, move))
                    text = p.explanation(lang)
                    assert hidden in text and owners not in text, (p.id, lang, hidden, owners, text)
                said += 1
    assert said


def test_a_bank_of_format_1_is_read_and_explained_in_words(tmp_path):
    """A bank of the first format (its explanation stored as prose in
    notation, no ``line``) still loads; what is shown is made from its
    values, in words (the mover's further moves without their values, and
    no value kept at the end of the line)."""
    data = json.loads(bank_path("mazemon").read_text(encoding="utf-8"))
    several = next(r for r in data["puzzles"] if len(r["line"]) > 1)
    data.update(format=1, puzzles=[several])
    del several["line"]
    several["explanation"] = {"en": f"Only {several['solution'][0]} is best.", "ja": "…"}
    f = tmp_path / "old.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    p = puzzles.load("mazemon", path=f)[0]
    now = puzzles.puzzle("mazemon", p.id).explanation("en")
    kept = re.sub(r" That is the whole line: .*$", "", now)
    assert p.line == () and p.explanation("en") == re.sub(r" \(worth [^()]*(\([^()]*\))?\)", "", kept) != kept
    assert p.answer not in p.explanation("en") and "again the only good move." in p.explanation("en")


@pytest.mark.parametrize("game", [g for g in BANKS if puzzles.load(g, kind="fair")])
def test_a_fair_explanation_shows_the_mover_only_what_they_may_see(game):
    """The leak check of the explanation: the same fair puzzle with the
    hidden cards arranged another way explains itself the same way, in
    English and Japanese, but for what the answer does: that is the line the
    board's move log shows the mover once it is played (a mipig attack turns
    the defender face up), through the same gate."""
    tried = 0
    for p in puzzles.load(game, kind="fair"):
        if len(p.mover_moves) > 1:
            continue  # the replies of a longer solution belong to the position the mover was shown
        try:
            worlds = [w for w, _ in arrangements(p.state, p.mover, limit=200)][:4]
        except cardlab.TooLargeError:
            continue
        if len(worlds) < 2:
            continue
        for lang in ("en", "ja"):
            shown = set()
            for w in worlds:
                text = dataclasses.replace(p, state=w).explanation(lang)
                with i18n.using(lang):
                    does = cardlab.render.seen_move(w, p.answer, p.mover).line
                assert text.count(does) == 1, (p.id, lang, does, text)
                shown.add(text.replace(does, ""))
            assert len(shown) == 1, (p.id, lang, shown)
        tried += 1
        if tried == 3:
            break
    assert tried, f"no fair puzzle of {game} with something hidden"


# --- bad input ------------------------------------------------------------------------------------

def test_unknown_id_theme_and_game():
    with pytest.raises(UnknownPuzzleError, match="no puzzle 'mazemon-9999'"):
        puzzles.puzzle("mazemon", "mazemon-9999")
    with pytest.raises(UnknownPuzzleError, match="has the theme 'KN-99'; the themes are"):
        puzzles.load("koinobori", theme="KN-99")
    with pytest.raises(cardlab.UnknownGameError, match="unknown game 'chess'"):
        puzzles.load("chess")


def _bank_with(tmp_path, change):
    data = json.loads(bank_path("mazemon").read_text(encoding="utf-8"))
    data["puzzles"] = copy.deepcopy(data["puzzles"][:2])
    change(data)
    f = tmp_path / "bank.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    return f


@pytest.mark.parametrize("field", sorted(FIELDS))
def test_malformed_bank_names_file_puzzle_and_field(tmp_path, field):
    def drop(data):
        del data["puzzles"][1][field]

    f = _bank_with(tmp_path, drop)
    pid = json.loads(bank_path("mazemon").read_text(encoding="utf-8"))["puzzles"][1]["id"]
    where = "puzzle 2" if field == "id" else f"puzzle '{pid}'"  # without its id, a puzzle is named by its place
    with pytest.raises(BankError, match=rf"bank\.json: {where}: field '{field}' is missing"):
        puzzles.load("mazemon", path=f)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["puzzles"][0].update(kind="closed"), "field 'kind' must be 'fair' or 'open'"),
    (lambda d: d["puzzles"][0].update(margin="a tenth"), "field 'margin' is not a fraction"),
    (lambda d: d["puzzles"][0].update(themes=["no_such_theme"]), "unknown theme 'no_such_theme'"),
    (lambda d: d["puzzles"][0]["position"].update(phase="nowhere"), "field 'position'"),
    (lambda d: d["puzzles"][0].update(mover=1 - d["puzzles"][0]["mover"]), "field 'mover'"),
    (lambda d: d.update(format=3), "field 'format' must be 1 or 2, not 3"),
    (lambda d: d["puzzles"][0].update(line=["1", "x"]), "field 'line' is not a fraction: 'x'"),
    (lambda d: d["puzzles"][0].update(line=d["puzzles"][0]["line"] * 5), "field 'line' must hold the value of each"),
    (lambda d: d["puzzles"][0].update(solution=["no such move"]), "field 'solution'"),
])
def test_malformed_bank_says_what_is_wrong(tmp_path, change, message):
    f = _bank_with(tmp_path, change)
    with pytest.raises(BankError, match=re.escape(message)):
        puzzles.load("mazemon", path=f)


def test_bank_that_is_not_json(tmp_path):
    f = tmp_path / "bank.json"
    f.write_text("{", encoding="utf-8")
    with pytest.raises(BankError, match="bank.json: not JSON"):
        puzzles.load("mazemon", path=f)


# --- the command line -----------------------------------------------------------------------------

def _answer(monkeypatch, *lines):
    feed = iter(lines)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(feed))


def test_cli_puzzle_right_answer_and_ratings(tmp_path, monkeypatch, capsys):
    p = puzzles.load("mazemon")[0]
    mover_moves = [m for m, s in zip(p.solution, _states(p)) if s.current_player == p.mover]
    _answer(monkeypatch, *mover_moves)
    ratings = tmp_path / "me.json"
    assert main(["--lang", "en", "puzzle", "mazemon", "--id", p.id, "--ratings", str(ratings)]) == 0
    out = capsys.readouterr().out
    assert out.count("Right: ") == len(mover_moves) and "Wrong" not in out
    assert p.explanation("en") in out
    saved = json.loads(ratings.read_text())
    assert saved["pupil"]["rating"] > 1500 and saved["history"] == [
        {"puzzle": p.id, "solved": True, "rating": round(saved["pupil"]["rating"], 1)}]


def _states(p):
    s, out = p.state, []
    for m in p.solution:
        out.append(s)
        s = s.apply(m)
    return out


def test_cli_puzzle_wrong_answer_says_what_it_costs(monkeypatch, capsys):
    p = puzzles.load("mazemon")[0]
    wrong = next(a for a in p.state.legal_actions() if a != p.answer)
    _answer(monkeypatch, "99", wrong)  # a bad number is refused and asked again
    assert main(["--lang", "en", "puzzle", "mazemon", "--id", p.id]) == 0
    out = capsys.readouterr().out
    assert "'99' is not one of the moves listed" in out
    said = {a: cardlab.render.action_label(p.state, a) for a in (wrong, p.answer)}  # the board's words
    assert f"Wrong: {said[wrong]}; the best move is {said[p.answer]}. It is worth {p.cost(wrong)} less" in out


def test_cli_puzzle_says_the_moves_in_words_in_japanese(monkeypatch, capsys):
    """``cardlab --lang ja puzzle``: the list, "right" and the explanation
    name the moves as the Japanese board does (the notation only in the list,
    to be typed)."""
    p = puzzles.load("koinobori")[0]
    _answer(monkeypatch, p.answer)
    assert main(["--lang", "ja", "puzzle", "koinobori", "--id", p.id]) == 0
    out = capsys.readouterr().out
    with i18n.using("ja"):
        words = cardlab.render.seen_move(p.state, p.answer, p.mover).label
    assert p.explanation("ja") in out and words in p.explanation("ja") and p.answer not in p.explanation("ja")
    assert f"{words}（{p.answer}）" in out and out.count(p.answer) == 1  # the list of moves only


def test_cli_puzzle_bad_input(capsys, tmp_path):
    assert main(["puzzle", "mazemon", "--id", "mazemon-9999"]) == 2
    assert "no puzzle 'mazemon-9999'" in capsys.readouterr().err
    bad = tmp_path / "r.json"
    bad.write_text('{"pupil": {"rating": "high"}}')
    assert main(["puzzle", "mazemon", "--ratings", str(bad)]) == 2
    assert "not a ratings file" in capsys.readouterr().err
    assert bad.read_text() == '{"pupil": {"rating": "high"}}'  # nothing stored


def test_cli_puzzles_generate_and_list(tmp_path, capsys):
    out = tmp_path / "mine.json"
    assert main(["--lang", "en", "puzzles", "generate", "mazemon", "-n", "2", "--seed", "4", "--out", str(out)]) == 0
    assert "2 puzzles of mazemon" in capsys.readouterr().out
    assert len(puzzles.load("mazemon", path=out)) == 2
    assert main(["puzzles", "list", "mazemon", "--bank", str(out)]) == 0
    assert capsys.readouterr().out.count("mazemon-000") == 2


def test_cli_puzzles_generate_adds_one_kind_to_a_bank(tmp_path, capsys):
    """``--kind`` makes only fair (or open) puzzles; ``--add`` puts them after a
    bank's own, ids counting on, and keeps each run's figures (how Toritsuki's
    shipped bank got its fair puzzles of the game itself after the open ones of
    the known-deck-order variant)."""
    out = tmp_path / "mine.json"
    assert main(["--lang", "en", "puzzles", "generate", "mazemon", "-n", "1", "--seed", "4", "--kind", "open",
                 "--out", str(out)]) == 0
    assert main(["--lang", "en", "puzzles", "generate", "mazemon", "-n", "1", "--seed", "4", "--kind", "fair",
                 "--add", "--out", str(out)]) == 0
    capsys.readouterr()
    ps = puzzles.load("mazemon", path=out)
    assert [(p.id, p.kind) for p in ps] == [("mazemon-0001", "open"), ("mazemon-0002", "fair")]
    data = puzzles.read_bank(out, "mazemon")
    runs = data["generated"]["runs"]
    assert [r["kind"] for r in runs] == ["open", "fair"] and data["generated"]["kept"] == 2
    assert data["generated"]["games"] == sum(r["games"] for r in runs)


def test_cli_puzzles_generate_refuses_a_kind_the_game_does_not_have(tmp_path, capsys):
    """Toritsuki's open puzzles come from the known-deck-order variant, which hides
    nothing: fair ones come from the game itself, and a variant without hidden
    cards has none (the error says which it has); nothing is written."""
    from cardlab.puzzles.generate import generate, puzzle_game

    assert puzzle_game("toritsuki", "fair").options["known_deck_order"] is False
    assert puzzle_game("toritsuki", "open").options["known_deck_order"] is True
    with pytest.raises(cardlab.CardlabError, match="no fair puzzles; it has: open"):
        generate(puzzle_game("toritsuki"), 1, kind="fair")


def test_the_pattern_cap_keeps_two_of_an_exercise_and_ids_go_on():
    """Two puzzles whose answer, moves offered and themes are the same are one
    exercise for a pupil (Toritsuki's endgames: do not possess from a deck near its
    end, TK-7, 88 times in its first bank): a bank keeps PER_PATTERN of each, counting
    the puzzles it has; a puzzle added gets a number past every id, so an id left
    out is never given to another puzzle."""
    from cardlab.puzzles.generate import capped, next_number

    def rec(pid, answer, offered=("pass", "possess deck"), themes=("no_possession",)):
        return {"id": pid, "kind": "open", "solution": [answer], "values": {a: "0" for a in offered},
                "themes": list(themes)}

    same = [rec(f"t-{i:04d}", "pass") for i in (1, 2, 3, 4)]
    other = rec("t-0005", "pass", themes=("no_possession", "bp_duel"))
    assert [r["id"] for r in capped([*same, other])] == ["t-0001", "t-0002", "t-0005"]
    assert capped(same[2:], before=same[:1]) == [same[2]]
    assert next_number([same[0], same[3], {"id": "mine"}]) == 5 and next_number([]) == 1


def test_generate_stopped_with_ctrl_c_keeps_the_puzzles_made_so_far():
    """Long work can be stopped (issue T, item 7): Ctrl-C during a generation
    returns the puzzles made so far, and the figures say it was stopped."""
    seen = []

    def stop_after_a_puzzle(kept, looked, games):
        seen.append((kept, games))
        if kept:
            raise KeyboardInterrupt

    records, figures = generate(puzzle_game("mazemon"), 50, seed=4, max_games=40, callback=stop_after_a_puzzle)
    assert figures["stopped"] is True and (len(records), figures["games"]) == seen[-1]
    assert 1 <= len(records) < 50 and figures["kept"] == len(records)
    assert [r["id"] for r in records] == [f"mazemon-{i:04d}" for i in range(1, len(records) + 1)]
    _records, figures = generate(puzzle_game("mazemon"), 1, seed=4, max_games=40)
    assert "stopped" not in figures
