"""The anytime benchmarks (benchmarks/anytime_quality.py, anytime_cpu.py,
fusion.py) run on a tiny size, so they cannot rot.  Nothing here checks a
time: only that the scripts run and that what they write is well formed."""

from __future__ import annotations

import csv
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import anytime_cpu  # noqa: E402
import anytime_quality  # noqa: E402
import fusion  # noqa: E402

from cardlab.equilibrium import solve_equilibrium  # noqa: E402


def test_anytime_quality_tiny_run_resumes(tmp_path, capsys):
    """One seeded game, one budget, an early position: rows judged against the
    exact answer, the seed marked done, and a second run measures nothing new."""
    out = tmp_path / "q.csv"
    argv = ["--games", "koinobori", "--seeds", "1", "--per-game", "2", "--budgets", "0.05", "--early-every", "1",
            "--short", "0.05", "--long", "0.1", "--cap", "20000", "--jobs", "1", "--csv", str(out)]
    anytime_quality.main(argv)
    rows = list(csv.DictReader(out.open()))
    assert [r["row"] for r in rows].count("seed_done") == 1
    positions = [r for r in rows if r["row"] == "position"]
    assert positions, "the last decisions of a game have an exact answer"
    for r in positions:
        assert r["exact_kind"] in ("fair", "open")
        assert 0 <= float(r["loss"]) <= 1
        assert (float(r["loss"]) == 0) == (r["pick"] in r["best"].split("|")) == (r["in_best"] == "1")
        assert r["anytime_hash"] and r["head"]
    assert "Every position with an exact answer" in capsys.readouterr().out
    anytime_quality.main(argv)
    assert "0 seeded games to measure (1 done before)" in capsys.readouterr().out
    assert len(list(csv.DictReader(out.open()))) == len(rows)


def test_anytime_cpu_tiny_run(capsys):
    """Every decision of one Koi-koi Nobori game, for the three option sets,
    answered without a failure."""
    assert anytime_cpu.main(["--games", "koinobori", "--seconds", "0.05"]) == 0
    out = capsys.readouterr().out
    assert out.count("| koinobori |") == 2 * 3  # printed as it goes, then in the table
    assert "failures: 0" in out


def test_anytime_cpu_check_names_a_missing_move():
    import cardlab

    s = cardlab.load("koinobori").new_initial_state(seed=1)
    while s.current_player < 0:
        s = s.apply(s.chance_outcomes()[0][0])
    a = cardlab.analyse(s, player=s.current_player, nodes=2000)
    assert anytime_cpu.check(a, s) == ""
    a.rows = a.rows[1:]
    assert "not the legal moves" in anytime_cpu.check(a, s)


def test_fusion_tiny_koinobori():
    """The table's figures agree with the equilibrium solved here, and a game
    without a small variant says so."""
    r = fusion.measure("koinobori")
    import cardlab

    game = cardlab.load("koinobori", **fusion.VARIANTS["koinobori"][0])
    assert r["eq"] == solve_equilibrium(game.new_initial_state()).value
    assert isinstance(r["fair"], Fraction)
    assert 0 <= r["outside_reached"] <= r["reached"] <= r["sets"]
    assert r["outside_reached"] <= r["outside"] <= r["sets"]
    lines = fusion.table(["toritsuki"])
    assert "none small enough" in lines[-1]


@pytest.mark.parametrize("xs, top", [([0.0] * 19 + [1.0], 0.0), ([0.0] * 18 + [1.0, 1.0], 1.0)])
def test_p95_nearest_rank(xs, top):
    assert anytime_quality.p95(xs) == top


def test_anytime_quality_rows_replay_to_their_position(tmp_path):
    """A row's history gives back its position: the player to move and the
    number of legal moves it recorded."""
    out = tmp_path / "q.csv"
    anytime_quality.main(["--games", "mipig", "--seeds", "1", "--per-game", "1", "--budgets", "0.05",
                          "--early-every", "0", "--cap", "20000", "--jobs", "1", "--csv", str(out)])
    rows = [r for r in csv.DictReader(out.open()) if r["row"] == "position"]
    assert rows
    for r in rows:
        s = anytime_quality.replay(r["game"], r["history"])
        assert (s.current_player, len(s.legal_actions())) == (int(r["player"]), int(r["legal"]))


def test_walk_back_stops_by_counting_where_the_exact_hint_would_only_sample(monkeypatch):
    """A decision with more fillings of the hidden places than
    ``--arrangements`` has no exact fair hint (``cardlab.hidden.arrangements``
    refuses it by the same count, and ``analyse`` then samples): the walk stops
    there without the 2-10 s of a sampled answer.  MONSTER CARDS, seed 500:
    its last decision is such a one."""
    import types

    from cardlab import TooLargeError
    from cardlab.hidden import arrangements

    decisions, _history, _agents = anytime_quality.play("monster_cards", 500)
    last = decisions[-1][0]
    with pytest.raises(TooLargeError):
        arrangements(last, last.current_player, limit=5000)
    monkeypatch.setattr(anytime_quality, "exact", lambda *a: pytest.fail("exact() called past the count"))
    args = types.SimpleNamespace(cap=3_000_000, arrangements=5000, exact_seconds=60)
    assert anytime_quality.walk_back(decisions, args) == ([], len(decisions) - 1)
