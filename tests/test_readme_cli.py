"""The README's command-line examples run as written (issue T): every line
of its "Command line" block, in a fresh folder, in order (``deal`` writes
the positions ``solve`` and ``tree`` read); ``play`` gets ``hint`` then
``quit`` as its input."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from cardlab.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands() -> list[list[str]]:
    """The commands of the README's "Command line" block, without their comments."""
    text = README.read_text("utf-8")
    section = text.split("## Command line", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]


def test_readme_block_is_found():
    commands = readme_commands()
    assert commands and all(c[0] == "cardlab" for c in commands)
    assert any(c[1] == "solve" for c in commands) and any("efg" in c for c in commands)


@pytest.mark.slow
def test_readme_command_line_examples_run_as_written(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for argv in readme_commands():
        monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
        code = main(argv[1:])
        out, err = capsys.readouterr()
        assert code == 0, (argv, err)
        if argv[1] == "play":
            assert "← best" in out and "best: " in out and "too large" not in out, argv
        if argv[1] == "solve":
            assert "← best" in out, out
