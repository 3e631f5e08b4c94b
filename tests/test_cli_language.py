"""The CLI's language (issue M): ``cardlab --lang ja|en …`` (before or after
the sub-command), else the environment (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); the help (argparse's own words too) and the
output in that language; an unknown language refused with the accepted ones."""

from __future__ import annotations

import argparse
import gettext
import io

import pytest

from cardlab import i18n
from cardlab.cli import main


@pytest.fixture
def env(monkeypatch):
    """A clean language environment: no session language, no locale variables;
    ``env(LANG="ja_JP.UTF-8")`` sets some."""
    monkeypatch.setattr(i18n, "_session", None)
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)

    def set_env(**values: str) -> None:
        for var, value in values.items():
            monkeypatch.setenv(var, value)
    return set_env


def run(capsys, argv: list[str], stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """``main(argv)``: its status (argparse's exit too), stdout and stderr."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["--lang", "ja", "--help"], ["--lang=ja", "--help"], ["--help", "--lang", "ja"]])
def test_lang_ja_gives_japanese_help(env, capsys, argv):
    code, out, _ = run(capsys, argv)
    assert code == 0
    assert out.startswith("使い方: cardlab")  # argparse's "usage: "
    assert "位置引数:" in out and "オプション:" in out and "このヘルプを表示して終了します" in out
    assert "ヘルプと出力の言語" in out and "ゲームの一覧を表示します" in out
    for english in ("usage:", "positional arguments", "options:", "show this help", "list the games"):
        assert english not in out
    assert argparse._ is gettext.gettext  # the hook is gone after the run


def test_lang_ja_gives_japanese_help_of_a_sub_command(env, capsys):
    code, out, _ = run(capsys, ["--lang", "ja", "play", "--help"])
    assert code == 0 and out.startswith("使い方: cardlab play")
    assert "ターミナルでエージェントと対戦します" in out and "ヒントが考える秒数" in out
    assert "Play in the terminal" not in out and "your seat" not in out


def test_lang_ja_gives_japanese_output(env, capsys, monkeypatch, tmp_path):
    code, out, _ = run(capsys, ["--lang", "ja", "games"])
    assert code == 0 and "koinobori       こいこいのぼり\n" in out and "Koi-koi" not in out
    code, out, _ = run(capsys, ["games", "--lang", "ja"])  # after the sub-command too
    assert code == 0 and "こいこいのぼり" in out and "Koi-koi" not in out
    # an error of cardlab's, and argparse's own error line
    code, _, err = run(capsys, ["--lang", "ja", "deal", "koinobori", "--seed", "3", "--move", "99",
                                "--out", str(tmp_path / "p.json")])
    assert code == 2 and err.startswith("cardlab: --move '99'（1手目）: 99番の手はありません")
    code, _, err = run(capsys, ["--lang", "ja", "play", "koinobori", "--seat", "5"])
    assert code == 2 and "使い方: cardlab play" in err
    assert "cardlab play: エラー: 引数 --seat: koinobori のプレイヤーは2人なので、席は0〜1です" in err
    code, _, err = run(capsys, ["--lang", "ja", "play"])
    assert code == 2 and "エラー: 次の引数が必要です: ゲーム" in err
    # the play loop: its prompt and its answers
    code, out, _ = run(capsys, ["--lang", "ja", "play", "koinobori", "--seed", "3"], "undo\nbogus\nquit\n", monkeypatch)
    assert code == 0
    assert "あなたの番です（番号か手を入力。hint, undo, quit も使えます）: " in out
    assert "取り消す手はありません: あなたはまだ一手も打っていません" in out
    assert "'bogus' はここでは打てない手です" in out
    assert "your move" not in out and "nothing to undo" not in out


def test_environment_ja_is_the_default(env, capsys):
    env(LANG="ja_JP.UTF-8")
    code, out, _ = run(capsys, ["--help"])
    assert code == 0 and out.startswith("使い方: cardlab") and "このヘルプを表示して終了します" in out
    code, out, _ = run(capsys, ["games"])
    assert code == 0 and "こいこいのぼり" in out and "Koi-koi" not in out
    env(LANG="C", LC_ALL="ja_JP.UTF-8")  # the first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG decides
    assert run(capsys, ["--help"])[1].startswith("使い方: cardlab")


def test_english_environment_is_english(env, capsys):
    code, out, _ = run(capsys, ["--help"])
    assert code == 0 and out.startswith("usage: cardlab") and "show this help message and exit" in out
    env(LANG="fr_FR.UTF-8")  # a language cardlab does not speak: English
    assert run(capsys, ["--help"])[1].startswith("usage: cardlab")


@pytest.mark.parametrize("argv", [["--lang", "xx", "games"], ["--lang=xx", "games"], ["games", "--lang", "xx"]])
def test_unknown_language_is_refused_with_the_accepted_ones(env, capsys, argv):
    code, out, err = run(capsys, argv)
    assert code == 2 and out == ""
    assert err.startswith("usage: cardlab")
    assert "error: argument --lang: unknown language 'xx'; cardlab speaks 'en' (English), 'ja' (日本語)" in err


def test_unknown_language_in_a_japanese_environment_is_refused_in_japanese(env, capsys):
    env(LANG="ja_JP.UTF-8")
    code, _, err = run(capsys, ["--lang", "xx", "games"])
    assert code == 2 and err.startswith("使い方: cardlab")
    assert "エラー: 引数 --lang: 不明な言語 'xx' です。cardlab が話せる言語: 'en' (English), 'ja' (日本語)" in err


@pytest.mark.parametrize("argv", [["--lang", "en"], ["--lang", "en_US.UTF-8"]])
def test_lang_en_overrides_a_japanese_environment(env, capsys, argv):
    env(LANG="ja_JP.UTF-8")
    code, out, _ = run(capsys, [*argv, "--help"])
    assert code == 0 and out.startswith("usage: cardlab") and "show this help message and exit" in out
    assert "使い方" not in out
    code, out, _ = run(capsys, [*argv, "games"])
    assert code == 0 and "koinobori       Koi-koi Nobori (こいこいのぼり)\n" in out
    code, _, err = run(capsys, [*argv, "play", "koinobori", "--seat", "5"])
    assert code == 2 and "error: argument --seat: koinobori has 2 players, so a seat is 0..1, not 5" in err


def test_the_description_is_the_docstring_s_first_paragraph():
    """``cardlab --help`` says the first paragraph of cardlab.cli's docstring,
    marked for the catalogue as DESCRIPTION: the two must not drift apart."""
    from cardlab import cli

    assert cli.DESCRIPTION == cli.__doc__.split("\n\n")[0]
