"""``cardlab play``: the person at a seat is shown only what that seat may see.

The leak test of the command line (equal information, equal output): the
transcript :func:`cardlab.cli.transcript` prints for a seat over a whole
match is byte-identical for a twin of that match in which every step the
seat cannot see is replaced by the closest move leaving the seat the same
information (``tests/leak.py``).  Then the issue's examples, through
``cardlab.cli.main`` with a scripted input: no dealt or drawn card of the
opponent, ``--reveal`` shows them, the hint is the fair one, bad input is
refused with a clear message and changes nothing.
"""

from __future__ import annotations

import io
import random
import re

import pytest

import cardlab
from cardlab import render
from cardlab.cli import hint, main, steps, transcript
from cardlab.hidden import arrangements

from leak import choices, twin


def played(game, seed: int, seat: int):
    """A match played by agents, cut into the turns ``cardlab play`` shows
    the person at ``seat``: ``(moves, board)`` for each position where the
    seat is to move and for the end, ``moves`` the ``(position, action)``
    steps since the previous one (the seat's own move first)."""
    names = ("heuristic", "random")
    m = cardlab.Match(game, [names[(seed + i) % 2] for i in range(game.spec.num_players)], seed=seed)
    m.play_to_end()
    walk, states = steps(m), m.states
    ends = [i for i, s in enumerate(states) if s.current_player == seat or s.is_terminal()]
    out, start = [], 0
    for i in ends:
        out.append((walk[start:i], states[i]))
        start = i
    return out


def unlike_twin(s, a: str, seat: int, rng: random.Random, tries: int = 6):
    """A step the seat cannot tell from ``(s, a)``, unlike it where it can
    be: a re-deal ``t`` of what the seat cannot see and, for a move the seat
    cannot see all of (:func:`cardlab.render.visible`), the move ``b != a``
    there closest to ``a`` in words that leaves the seat the same
    information; else :func:`leak.twin` (which keeps ``a`` when it can),
    else the step itself."""
    if not render.visible(s, a, seat):
        after = s.apply(a).information_set(seat)
        words = a.split()
        for _ in range(tries):
            t = s.redeal(seat, rng)
            other = [b for b in choices(t) if b != a and t.apply(b).information_set(seat) == after]
            if other:
                return t, min(other, key=lambda b: (sum(x != y for x, y in zip(b.split(), words))
                                                    + 10 * abs(len(b.split()) - len(words)), b))
    return twin(s, a, seat, rng) or (s, a)


def twin_turns(turns, seat: int, rng: random.Random):
    """The same turns with every step replaced by :func:`unlike_twin` and
    every board by a re-deal of what the seat cannot see, and the number of
    steps whose move changed."""
    out, changed = [], 0
    for moves, board in turns:
        new = [unlike_twin(s, a, seat, rng) for s, a in moves]
        changed += sum(b != a for (_, a), (_, b) in zip(moves, new))
        out.append((new, board.redeal(seat, rng)))
    return out, changed


def lines(turns, seat: int, reveal: bool = False) -> list[str]:
    return [line for moves, board in turns for line in transcript(moves, board, seat, reveal)]


def test_cli_leak_equal_information_equal_transcript(game_name):
    """A seat reads the same transcript, byte for byte, in two matches it
    cannot tell apart; with --reveal (a teacher) they differ, so the twins
    do hide something from the seat."""
    game = cardlab.load(game_name)
    changed = 0
    for seed in range(4):
        rng = random.Random(seed)
        for seat in range(game.spec.num_players):
            turns = played(game, seed, seat)
            twins, n = twin_turns(turns, seat, rng)
            changed += n
            assert lines(twins, seat) == lines(turns, seat), (game_name, seed, seat)
            assert n == 0 or lines(twins, seat, reveal=True) != lines(turns, seat, reveal=True)
    assert changed > 30, "the twins hardly differed: the leak test would test little"


def run(capsys, monkeypatch, argv: list[str], typed: str) -> str:
    """``cardlab <argv>`` with ``typed`` as the person's input; its stdout."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(argv) == 0
    return capsys.readouterr().out


#: the person's picks in ``cardlab play koinobori --seed 3``, to the end of
#: the game; the opponent then draws fukinagashi, fukinagashi and aokoi
#: into the hand
SEED_3 = "1\n0\n0\n0\n0\n"


def koinobori_3() -> cardlab.Match:
    """The match ``cardlab play koinobori --seed 3`` plays with ``SEED_3``."""
    m = cardlab.Match(cardlab.load("koinobori"), [None, "heuristic"], seed=3)
    for pick in SEED_3.split():
        m.advance()
        m.play(m.state.legal_actions()[int(pick)])
    m.advance()
    assert m.is_over()
    return m


def hidden_lines(m: cardlab.Match, seat: int) -> list[str]:
    """The full explanations of the moves of ``m`` that ``seat`` may not see."""
    return [s.explain(a) for s, a in steps(m) if not render.visible(s, a, seat)]


def test_issue_play_koinobori_seed_3_never_shows_the_opponents_cards(capsys, monkeypatch):
    """The issue's example: the opponent's three dealt cards and every card
    they draw into the hand stay hidden; the person's own view is a text
    board, not raw JSON; moves the seat cannot see read as hidden."""
    out = run(capsys, monkeypatch, ["play", "koinobori", "--seed", "3"], SEED_3)
    hidden = hidden_lines(koinobori_3(), 0)
    draws = [x for x in hidden if "draws" in x]
    assert "Player 1 draws fukinagashi into the hand (KN-8)." in draws and len(draws) == 3
    for line in draws:
        assert line not in out
    assert out.count("  Player 1 draws a card. (KN-8)\n") == 3
    # the deals: the seat's own three in full, the opponent's three hidden
    assert len(re.findall(r"^  Player 0 is dealt an? \w+\. \(KN-7\)$", out, re.M)) == 3
    assert out.count("  Player 1 is dealt a card. (KN-7)\n") == 3
    assert "player 1: hand 3 hidden cards" in out
    assert "as seen by player 0" in out and "opponent_hand" not in out and "{" not in out
    assert "game over; returns: " in out


def test_issue_reveal_shows_every_card(capsys, monkeypatch):
    """--reveal (a teacher): every deal and draw in full, the full table."""
    out = run(capsys, monkeypatch, ["play", "koinobori", "--seed", "3", "--reveal"], SEED_3)
    m = koinobori_3()
    assert len(re.findall(r"^  Player [01] is dealt an? \w+\. \(KN-7\)$", out, re.M)) == 6
    for line in hidden_lines(m, 0):
        assert f"  {render.with_rules(*render.split_rules(line))}\n" in out
    assert "hidden" not in out
    assert render.text(m.states[6]) in out  # the table after the deal, both hands shown


def late_koinobori() -> tuple[cardlab.State, str]:
    """``cardlab play koinobori -o payoff=score --seed 26`` after three moves
    of the person (the first listed): the opponent holds three cards the
    person cannot see, in four possible arrangements; and the input."""
    m = cardlab.Match(cardlab.load("koinobori", payoff="score"), [None, "heuristic"], seed=26)
    for _ in range(3):
        m.advance()
        m.play(m.state.legal_actions()[0])
    m.advance()
    return m.state, "0\n0\n0\nhint\nquit\n"


def test_hint_is_the_fair_one_and_says_so(capsys, monkeypatch):
    """``hint`` prints the fair hint (only what the seat can see), the same
    for every deal the seat cannot tell apart; --reveal prints the open one,
    labelled so."""
    s, typed = late_koinobori()
    assert len(arrangements(s, 0)) == 4
    fair = hint(s, 0, nodes=200_000)
    assert fair == hint(s, 0)  # exact within 2 s too
    assert fair.splitlines()[1] == ("fair hint (only what player 0 can see): exact average over "
                                    "the 4 arrangements of the hidden cards")
    # another deal the seat cannot tell apart: the same fair hint, another open one
    open_ = hint(s, 0, reveal=True)
    assert open_.startswith("open hint (every card, also those player 0 cannot see)\n")
    rng = random.Random(0)
    other = next(t for t in (s.redeal(0, rng) for _ in range(50)) if hint(t, 0, reveal=True) != open_)
    assert hint(other, 0) == fair
    out = run(capsys, monkeypatch, ["play", "koinobori", "-o", "payoff=score", "--seed", "26"], typed)
    assert fair in out and "open hint" not in out
    out = run(capsys, monkeypatch, ["play", "koinobori", "-o", "payoff=score", "--seed", "26", "--reveal"], typed)
    assert open_ in out and "fair hint" not in out


def test_hint_answers_at_the_first_decision_of_every_game(game_name):
    """Issue T: the hint answers at every decision (the anytime analysis):
    a value for every legal move, the best marked, one sentence naming it."""
    game = cardlab.load(game_name)
    m = cardlab.Match(game, [None] + ["heuristic"] * (game.spec.num_players - 1), seed=3)
    m.advance()
    s = m.state
    text = hint(s, 0, nodes=3000)
    legal = s.legal_actions()
    assert "too large" not in text and "no fair hint" not in text
    rows = [line for line in text.splitlines() if line.split("  ")[0].strip() in legal]
    assert sorted(r.split("  ")[0].strip() for r in rows) == sorted(legal)
    assert sum("← best" in r for r in rows) >= 1
    advice = next(line for line in text.splitlines() if line.startswith(("probably best: ", "best: ")))
    assert any(a in advice for a in legal)
    assert text == hint(s, 0, nodes=3000)  # a node budget: the same answer again


def test_hint_within_its_seconds_in_play_and_old_flags_still_accepted(capsys, monkeypatch):
    """``hint`` in ``cardlab play`` at the first decision, within
    --hint-seconds; the old caps --hint-max-nodes and --hint-samples are
    accepted (and ignored)."""
    out = run(capsys, monkeypatch, ["play", "koinobori", "--seed", "3", "--hint-seconds", "0.5",
                                    "--hint-max-nodes", "10", "--hint-samples", "6"], "hint\nquit\n")
    assert "thinking for up to 0.5 s… (Ctrl-C stops the hint with the answer so far)" in out
    assert "too large" not in out and "95 % interval" in out
    assert "probably best: " in out and "← best" in out
    assert re.search(r"^nobori aokoi +-?\d", out, re.M) and re.search(r"^play aokoi +-?\d", out, re.M)


def test_ctrl_c_stops_the_hint_with_the_answer_so_far(monkeypatch):
    """Ctrl-C while the hint thinks: the analysis stops with what it has
    (here: after its first arrangement) and says so."""
    import cardlab.cli_hint as cli_hint

    def interrupt(done: int, total: int) -> None:
        if done < total:
            raise KeyboardInterrupt

    monkeypatch.setattr(cli_hint, "_progress", lambda seconds: (interrupt, None))
    m = cardlab.Match(cardlab.load("koinobori"), [None, "heuristic"], seed=3)
    m.advance()
    text = hint(m.state, 0, seconds=30)
    assert text.endswith("(stopped with Ctrl-C: the answer so far)")
    assert "← best" in text and "probably best: " in text


@pytest.mark.parametrize("bad", ["0", "-1", "abc", "nan", "inf"])
def test_bad_hint_seconds_are_refused(capsys, bad):
    with pytest.raises(SystemExit) as exc:
        main(["play", "koinobori", f"--hint-seconds={bad}"])
    assert exc.value.code == 2
    assert (f"argument --hint-seconds: must be a positive number of seconds, for example 2 or 0.5, not {bad!r}"
            in capsys.readouterr().err)


PROMPT = "your move (a number or a move; hint, undo, quit): "


def test_bad_input_is_refused_clearly_and_changes_nothing(capsys, monkeypatch):
    """An undo before any move, an illegal move and numbers out of range
    each get a line saying what was wrong and what is accepted; the game
    goes on exactly as without them."""
    argv = ["play", "koinobori", "--seed", "29"]
    plain = run(capsys, monkeypatch, argv, "0\nquit\n")
    noisy = run(capsys, monkeypatch, argv, "undo\nfoo\nplay  aokoi\n99\n-1\n\n0\nquit\n")
    accepted = ("type a number 0..6 or a move (nobori higoi, nobori magoi, nobori fuki+higoi, "
                "nobori fuki+aokoi, nobori fuki+magoi, play higoi, … (7 in all, listed above)), "
                "or hint, undo, quit")
    refusals = ["nothing to undo: you have not moved yet",
                f"'foo' is not a legal move here: {accepted}",
                f"'play aokoi' is not a legal move here: {accepted}",
                f"there is no move number 99: {accepted}",
                f"there is no move number -1: {accepted}"]
    noisy_lines = noisy.splitlines()
    for line in refusals:
        assert line in noisy_lines
    shown = [x for x in noisy_lines if x not in refusals and not x.startswith(PROMPT)]
    assert shown == [x for x in plain.splitlines() if not x.startswith(PROMPT)]
    assert sum(x.startswith(PROMPT) for x in noisy_lines) == 8


def test_bad_options_are_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "koinobori", "--seat", "2"])
    assert exc.value.code == 2
    assert "argument --seat: koinobori has 2 players, so a seat is 0..1, not 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "monster_cards", "-o", "players=3", "--seat", "-1"])
    assert "monster_cards has 3 players, so a seat is 0..2, not -1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "koinobori", "--opponent", "genius"])
    assert "argument --opponent: invalid choice: 'genius'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "koinobori", "--hint-max-arrangements", "0"])
    assert "argument --hint-max-arrangements: must be a whole number of at least 1, not '0'" in capsys.readouterr().err
