"""The command line's files and flags: making a position (``cardlab deal``,
``save`` in ``cardlab play --reveal``), trees for Gambit, option values as
Python spells them, the agents naming the seats, and errors that speak of
the command line's flags (never of a Python call)."""

from __future__ import annotations

import io
import json
import re

import pytest

import cardlab
from cardlab.bridges.gambit import read_efg
from cardlab.cli import main


def cli(capsys, argv, typed: str = ""):
    """``cardlab <argv>`` (stdin ``typed``): exit status, stdout, stderr."""
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(typed)
    try:
        code = main(argv)
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("game", ["koinobori", "mipig", "mazemon", "monster_cards", "toritsuki"])
def test_deal_saves_the_position_play_reaches_with_the_same_seed(capsys, tmp_path, game):
    """``cardlab deal GAME --seed N --out F`` writes the position at which
    ``cardlab play GAME --seed N --reveal`` first asks the person (seat 0) for
    a move, where ``save F`` writes it too: one seed, one deal."""
    dealt, saved = tmp_path / "dealt.json", tmp_path / "saved.json"
    code, out, _ = cli(capsys, ["deal", game, "--seed", "5", "--out", str(dealt)])
    assert code == 0 and f"position saved to {dealt}" in out
    d = json.loads(dealt.read_text("utf-8"))
    g = cardlab.load(game)
    s = g.state_from_dict(d)
    assert s.current_player != cardlab.CHANCE and s != g.new_initial_state()
    if s.current_player == 0:  # play asks the person at once: save there
        code, out, _ = cli(capsys, ["play", game, "--seed", "5", "--reveal"], f"save {saved}\nquit\n")
        assert code == 0 and f"position saved to {saved}" in out
        assert json.loads(saved.read_text("utf-8")) == d


def test_deal_plays_the_moves_it_is_given(capsys, tmp_path):
    """``--move`` takes a number or a move's text, as ``cardlab play`` does."""
    by_number, by_text = tmp_path / "n.json", tmp_path / "t.json"
    g = cardlab.load("mipig")
    code, _, _ = cli(capsys, ["deal", "mipig", "--seed", "2", "--out", str(by_number)])
    s = g.state_from_dict(json.loads(by_number.read_text("utf-8")))
    a = s.legal_actions()[1]
    t = s.apply(a)
    assert t.current_player != cardlab.CHANCE  # mipig's janken picks: no chance between them
    b = t.legal_actions()[0]
    code, _, _ = cli(capsys, ["deal", "mipig", "--seed", "2", "--move", "1", "--move", "0",
                              "--out", str(by_number)])
    code2, _, _ = cli(capsys, ["deal", "mipig", "--seed", "2", "--move", a, "--move", b, "--out", str(by_text)])
    assert code == code2 == 0
    want = t.apply(b).to_dict()
    assert json.loads(by_number.read_text("utf-8")) == json.loads(by_text.read_text("utf-8")) == want


def test_deal_then_solve_with_open_hands(capsys, tmp_path):
    """The README's path: make a position, then solve it."""
    pos = tmp_path / "pos.json"
    moves = ["--move", "0"] * 7
    code, _, _ = cli(capsys, ["deal", "koinobori", "--seed", "3", *moves, "--out", str(pos)])
    assert code == 0
    code, out, err = cli(capsys, ["solve", "koinobori", "--position", str(pos)])
    assert code == 2
    assert "add -o open_hands=true" in err and "cardlab.load" not in err
    code, out, err = cli(capsys, ["solve", "koinobori", "--position", str(pos), "-o", "open_hands=True"])
    assert code == 0 and "← best" in out


def test_deal_refuses_a_bad_move_and_writes_nothing(capsys, tmp_path):
    pos = tmp_path / "pos.json"
    code, _, err = cli(capsys, ["deal", "koinobori", "--seed", "3", "--move", "99", "--out", str(pos)])
    assert code == 2 and not pos.exists()
    assert "--move '99' (move 1): there is no move number 99: a number 0.." in err
    assert "listed above" not in err and "hint, undo" not in err  # nothing was listed, no prompt


def test_save_in_play_needs_reveal(capsys, tmp_path):
    """A pupil's game may not save: the file holds every hidden card."""
    pos = tmp_path / "pos.json"
    code, out, _ = cli(capsys, ["play", "koinobori", "--seed", "3"], f"save {pos}\nsave\nquit\n")
    assert code == 0 and not pos.exists()
    assert "only a teacher's game (cardlab play --reveal) may save" in out
    code, out, _ = cli(capsys, ["play", "koinobori", "--seed", "3", "--reveal"], "save\nquit\n")
    assert "save needs a file name: save pos.json" in out


def test_tree_format_efg_is_gambits(capsys, tmp_path):
    """``cardlab tree --format efg`` writes the Gambit file the library writes
    (a tree: transpositions kept apart)."""
    pos, efg = tmp_path / "pos.json", tmp_path / "t.efg"
    s = cardlab.load("mipig", hand_size=2, open_hands=True, first_player=0).new_initial_state(seed=1)
    pos.write_text(json.dumps(s.to_dict()), "utf-8")
    code, out, _ = cli(capsys, ["tree", "mipig", "--position", str(pos), "--format", "efg", "--out", str(efg)])
    assert code == 0
    G = read_efg(efg.read_text("utf-8"))
    want = cardlab.tree(s, merge_transpositions=False)
    assert G.number_of_nodes() == want.number_of_nodes()
    assert f"{want.number_of_nodes()} nodes" in out


def test_too_large_speaks_of_the_flags(capsys, tmp_path):
    pos = tmp_path / "pos.json"
    # hand_size=4: its exact solve takes seconds, far past the 0.3 s below on any machine (hand_size=3
    # solves in about 0.35 s here, so a quicker machine turned the estimate into the exact answer)
    s = cardlab.load("mipig", hand_size=4, open_hands=True, first_player=0).new_initial_state(seed=1)
    pos.write_text(json.dumps(s.to_dict()), "utf-8")
    assert s.current_player >= 0
    # solve past --max-nodes at a decision: the anytime estimate of each move, marked as one (issue T)
    code, out, err = cli(capsys, ["solve", "mipig", "--position", str(pos), "--max-nodes", "50", "--seconds", "0.3"])
    assert code == 0 and "too large to solve exactly (more than --max-nodes 50 positions): an ESTIMATE" in out
    assert "max_nodes=" not in out + err and "← best" in out and "probably best: " in out
    assert all(re.search(rf"^{re.escape(a)} +-?[0-9.]+ .* [-+][0-9.]+ … [-+][0-9.]+", out, re.M)
               for a in s.legal_actions())
    # at a chance node there is no move to estimate: what to do instead
    chance = s.game.new_initial_state()
    assert chance.current_player < 0
    pos.write_text(json.dumps(chance.to_dict()), "utf-8")
    code, _, err = cli(capsys, ["solve", "mipig", "--position", str(pos), "--max-nodes", "50"])
    assert code == 2 and "--max-nodes 50" in err and "chance is to act here" in err and "cardlab deal" in err
    code, _, err = cli(capsys, ["tree", "mipig", "--position", str(pos), "--max-nodes", "50", "--out",
                                str(tmp_path / "t.graphml")])
    assert code == 2 and "--max-nodes 50" in err and "give --max-depth" in err and "truncate=True" not in err
    assert "cardlab solve" in err and "later position" in err
    code, _, err = cli(capsys, ["tree", "mipig", "--position", str(pos), "--max-nodes", "50", "--format", "efg",
                                "--out", str(tmp_path / "t.efg")])
    assert code == 2 and "Gambit's efg needs the whole tree" in err


@pytest.mark.parametrize("bad", ["0", "-1", "abc"])
def test_solve_refuses_bad_seconds(capsys, bad):
    with pytest.raises(SystemExit) as exc:
        main(["solve", "mipig", "--position", "x.json", f"--seconds={bad}"])
    assert exc.value.code == 2 and "argument --seconds: must be a positive number of seconds" in capsys.readouterr().err


@pytest.mark.parametrize("spelling", ["True", "true"])
def test_option_values_as_python_and_json_spell_them(capsys, spelling):
    code, out, _ = cli(capsys, ["simulate", "mipig", "-n", "1", "-o", f"open_hands={spelling}",
                                "-o", "hand_size=2"])
    assert code == 0 and "open_hands=True" in out


def test_simulate_agents_name_the_seats(capsys):
    """Three agents for MONSTER CARDS play three seats (MC-1: 2-8 players);
    for a two-player game three agents are refused, saying what fits."""
    code, out, _ = cli(capsys, ["simulate", "monster_cards", "-n", "2", "--agents", "heuristic", "random",
                                "random"])
    assert code == 0 and "players=3" in out and "seat 2 (random)" in out
    code, out, err = cli(capsys, ["simulate", "koinobori", "-n", "2", "--agents", "heuristic", "random",
                                  "random"])
    assert code == 2 and not out
    assert "--agents names 3 agents but koinobori has 2 players here: give one agent" in err
    code, out, err = cli(capsys, ["simulate", "monster_cards", "-n", "2", "-o", "players=4", "--agents",
                                  "heuristic", "random"])
    assert code == 2 and "has 4 players here" in err


@pytest.mark.parametrize("content,message", [
    (b"[]", "a position file holds one JSON object (State.to_dict(), as cardlab deal writes it), not list"),
    (b"null", "not null"),
    (b"\xff\xfe{}", "not a readable UTF-8 text file"),
    (b"[" * 3000 + b"]" * 3000, ("not list", "nested too deeply")),  # as deep as the recursion limit allows
    (b"[" * 100_000 + b"]" * 100_000, "the JSON is nested too deeply to be a position"),
    (b"{", "not valid JSON (line 1"),
    (b'{"options": [1]}', "'options' must be a JSON object"),
])
def test_J_a_bad_position_file_is_one_line_and_exit_2(capsys, tmp_path, content, message):
    """Issue J: what a position file holds is checked before it is used; the
    error is one line naming the file, and the exit status is 2."""
    pos = tmp_path / "pos.json"
    pos.write_bytes(content)
    for cmd in (["solve", "koinobori"], ["tree", "koinobori", "--out", str(tmp_path / "t.graphml")]):
        code, out, err = cli(capsys, [*cmd, "--position", str(pos)])
        assert code == 2 and err.startswith(f"cardlab: {pos}:"), err
        assert any(m in err for m in ((message,) if isinstance(message, str) else message)), err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_J_unwritable_tree_and_counts_below_one(capsys, tmp_path):
    pos = tmp_path / "pos.json"
    s = cardlab.load("mipig", hand_size=1, open_hands=True, first_player=0).new_initial_state(seed=1)
    pos.write_text(json.dumps(s.to_dict()), "utf-8")
    code, _, err = cli(capsys, ["tree", "mipig", "--position", str(pos), "--out", "/nonexistent/t.graphml"])
    assert code == 2 and err.startswith("cardlab: /nonexistent/t.graphml: cannot write the tree")
    for argv in (["simulate", "koinobori", "-n", "0"], ["simulate", "koinobori", "-n", "-3"],
                 ["solve", "koinobori", "--position", str(pos), "--max-nodes", "0"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert "must be a whole number of at least 1" in capsys.readouterr().err


def test_J_ctrl_c_exits_130_quietly(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("cardlab.cli.Match.advance", interrupted)
    code, out, err = cli(capsys, ["play", "koinobori", "--seed", "1"])
    assert code == 130 and "Traceback" not in err and err.strip() == ""


def test_J_solve_has_a_default_budget():
    """Issue J: with no max_nodes a solve stops at DEFAULT_MAX_NODES, saying
    how large the search was (and about how much memory it held)."""
    from cardlab.solve import BYTES_PER_POSITION, DEFAULT_MAX_NODES
    import inspect

    for fn in (cardlab.solve, cardlab.analyse):
        assert inspect.signature(fn).parameters["max_nodes"].default == DEFAULT_MAX_NODES
    assert DEFAULT_MAX_NODES * BYTES_PER_POSITION < 1e9  # below 1 GB by default
    s = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0).new_initial_state(seed=1)
    with pytest.raises(cardlab.TooLargeError, match=r"passed max_nodes=50 positions \(about .* GB of table\)"):
        cardlab.solve(s, max_nodes=50)
