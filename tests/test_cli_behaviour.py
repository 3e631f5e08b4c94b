"""The command line behaves as a Unix user expects (issue Y, item 6): help
texts in plain words (no reST markup), a closed pipe ends quietly (no
traceback; 141 as a tool killed by SIGPIPE, or 0 when all was written), EOF
(Ctrl-D) at the ``cardlab play`` prompt ends the prompt's line, value tables
stay aligned for long fractions, and "1 hidden card" in the singular.

The pipe and the prompt are tried on a real process (a pipe closed before
the process writes; a pseudo-terminal for Ctrl-D).
"""

from __future__ import annotations

import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import cardlab
from cardlab import render
from cardlab.analysis import Analysis, _rows, _width
from cardlab.cli import EXIT_BROKEN_PIPE, PROMPT, build_parser, main

#: what reST (Sphinx) markup looks like in a text: ``literal``, :role:`target`, **bold**
MARKUP = re.compile(r"``|:(func|meth|class|mod|data|attr|exc):`|\*\*")
#: runs the installed entry point as the console script does
CARDLAB = [sys.executable, "-c", "import sys; from cardlab.cli import main; sys.exit(main())"]
ENV = {**os.environ, "LANGUAGE": "en", "PYTHONUNBUFFERED": ""}


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sorted(sub.choices)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_help_text_is_plain_text(language, capsys):
    """``cardlab --help`` and every sub-command's help: no ``literal`` or :func:`x` markup."""
    for command in [[], *([c] for c in _commands())]:
        with pytest.raises(SystemExit) as stop:
            main(["--lang", language, *command, "--help"])
        assert stop.value.code == 0
        out = capsys.readouterr().out
        assert "usage" in out or "使い方" in out or "cardlab" in out
        assert not MARKUP.search(out), (command, MARKUP.search(out).group(0), out)
    with pytest.raises(SystemExit):
        main(["--lang", "en", "--help"])
    assert "The cardlab command line" in capsys.readouterr().out


def _closed_pipe(args: list[str], cwd) -> tuple[int, str]:
    """Run ``cardlab ARGS`` with its output to a pipe closed before it writes: the status and stderr."""
    p = subprocess.Popen(CARDLAB + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV, cwd=cwd)
    p.stdout.close()  # the reader went away (cardlab ... | head -0)
    err = p.stderr.read().decode()
    return p.wait(timeout=120), err


@pytest.mark.parametrize("args", [["games"], ["rooms", "--db", "rooms.db"], ["--help"], ["play", "--help"]])
def test_a_closed_pipe_ends_quietly_with_141(args, tmp_path):
    status, err = _closed_pipe(args, tmp_path)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err
    assert status == EXIT_BROKEN_PIPE == 141


def test_a_pipe_read_to_the_end_still_gives_0(tmp_path):
    done = subprocess.run(CARDLAB + ["games"], capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "koinobori" in done.stdout and done.stderr == ""


def _read_until(fd: int, wanted: bytes, seconds: float = 60) -> bytes:
    got = b""
    end = time.monotonic() + seconds
    while wanted not in got and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            got += chunk
    return got


def test_eof_at_the_play_prompt_prints_a_newline_and_leaves(tmp_path):
    """Ctrl-D at ``cardlab play``'s prompt on a terminal: the prompt's line is
    ended (the shell's prompt then starts on a line of its own), status 0."""
    master, slave = pty.openpty()
    p = subprocess.Popen(CARDLAB + ["play", "koinobori", "--seed", "3"], stdin=slave, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=ENV, cwd=tmp_path)
    os.close(slave)
    try:
        out = _read_until(p.stdout.fileno(), PROMPT.encode().rstrip())
        assert out.endswith(PROMPT.encode()), out[-200:]
        os.write(master, b"\x04")  # Ctrl-D at the start of a line: the terminal reports end of input
        rest, err = p.communicate(timeout=60)
    finally:
        os.close(master)
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert rest == b"\n" and b"Traceback" not in err


def _columns_end(line: str) -> list[int]:
    """Where the value, ≈ and loss columns of a table line end, in terminal columns."""
    m = re.match(r"(\S.*?) {2,}(\S+) {2,}(\S+) {2,}(\S+)", line)
    assert m, line
    return [_width(line[:m.end(i)]) for i in (2, 3, 4)]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_value_table_stays_aligned_for_long_fractions(language):
    values = {"play higoi": Fraction(1903, 2520), "play magoi": Fraction(-123456789, 987654321),
              "nobori fuki+magoi": Fraction(2737, 4320), "pass": Fraction(0)}
    a = Analysis(player=1, rows=_rows(values), nodes=0, kind="open")
    with cardlab.i18n.using(language):
        lines = str(a).splitlines()
    table = lines[1:]  # after the title: the heading, then a row a move
    assert any(len(str(r["value"])) > 9 or len(str(r["loss"])) > 7 for r in a.rows)  # wider than before
    ends = {tuple(_columns_end(line.split("  ← ")[0])) for line in table}
    assert len(ends) == 1, "\n".join(table)


def test_cardlab_solve_table_aligned_on_a_real_position(tmp_path, capsys):
    """A Koi-koi Nobori position (open hands) whose values are fractions like 23689/50400."""
    s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(13):
        s = s.apply(rng.choice(s.chance_outcomes())[0] if s.current_player == cardlab.CHANCE
                    else rng.choice(s.legal_actions()))
    pos = tmp_path / "pos.json"
    pos.write_text(__import__("json").dumps(s.to_dict()))
    assert main(["--lang", "en", "solve", "koinobori", "--position", str(pos)]) == 0
    out = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(out) if line.startswith("action"))
    table = [line.split("  ← ")[0] for line in out[head:] if line.strip()]
    assert len(table) == 1 + len(s.legal_actions())
    assert max(len(w) for line in table[1:] for w in line.split()) > 9  # a long fraction is there
    assert len({tuple(_columns_end(line)) for line in table}) == 1, "\n".join(table)


#: the games whose text board shows a hidden hand as its number of cards
HIDDEN_HANDS = ["koinobori", "mipig", "mazemon", "toritsuki"]


def _one_hidden_card_board(name: str) -> tuple[cardlab.State, int]:
    """A position (random play) where a viewer sees the other's hand as one hidden card."""
    game = cardlab.load(name)
    for seed in range(40):
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal():
            for viewer in (0, 1):
                if re.search(r"\b1 hidden card", render.text(s, perspective=viewer)):
                    return s, viewer
            s = s.apply(rng.choice(s.chance_outcomes())[0] if s.current_player == cardlab.CHANCE
                        else rng.choice(s.legal_actions()))
    raise AssertionError(f"{name}: no position with one hidden card in 40 games")


@pytest.mark.parametrize("name", HIDDEN_HANDS)
def test_one_hidden_card_is_singular(name):
    s, viewer = _one_hidden_card_board(name)
    board = render.text(s, perspective=viewer)
    assert "1 hidden card" in board and "1 hidden cards" not in board


@pytest.mark.parametrize("name", HIDDEN_HANDS)
def test_one_hidden_card_in_japanese(name):
    s, viewer = _one_hidden_card_board(name)
    with cardlab.i18n.using("ja"):
        ja = render.text(s, perspective=viewer)
    assert "hidden card" not in ja and "見えない" in ja  # Japanese counts with 枚 / まい, no plural
