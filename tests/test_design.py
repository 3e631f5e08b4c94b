"""cardlab.design: the rule-design metrics (definitions on hand-made rows,
every metric of every game on a few games), the checks before any work,
resumable sweeps, the report and ``cardlab design``."""

from __future__ import annotations

import csv
import math
from fractions import Fraction

import pytest

import cardlab
from cardlab import design
from cardlab.cli import main
from cardlab.design import metrics, play
from cardlab.errors import CardlabError, OptionError, UnknownGameError

QUICK = dict(agent="random", skill=("heuristic", "random"), evaluate=30, progress=False)


def row(winner, *, result=None, first=0, decisions=10, branching=30, lead=None, evals=0, decided=None,
        deal=None, limit=False, agents=("a", "a")):
    """A game's row as play_game returns it (two players unless ``winner`` says more)."""
    n = 2
    res = Fraction(0) if winner is None else Fraction(1 if winner == 0 else -1)
    return {"winner": winner, "returns": [res, -res][:n], "result": res if result is None else result,
            "first": first, "decisions": decisions, "transitions": decisions + 3, "branching": branching,
            "lead_changes": lead, "evaluations": evals, "decided_at": decided, "deal_value": deal,
            "limit_draw": limit, "agents": list(agents)}


# ---------------------------------------------------------------- definitions

def test_lead_changes_count_only_a_change_of_side():
    assert play.lead_changes([0.2, 0.5, 0.0, 0.1]) == 0  # level is no change
    assert play.lead_changes([0.2, -0.1, 0.0, -0.3, 0.4]) == 2
    assert play.lead_changes([0.0, -0.1, 0.3]) == 1


def test_decided_at_is_where_the_winner_leads_for_good():
    assert play.decided_at([0.5, -0.2, 0.1, 0.3], winner=0) == 2 / 4
    assert play.decided_at([0.5, 0.2], winner=0) == 0.0
    assert play.decided_at([0.5, 0.2], winner=1) == 1.0
    assert play.decided_at([0.5], winner=None) is None


def test_balance_is_one_minus_the_gap_between_the_seats_win_rates():
    rows = [row(0), row(0), row(0), row(1)]
    m = metrics.game_metrics(rows)
    assert m["balance"].value == pytest.approx(1 - (0.75 - 0.25))
    assert m["seat_score"].value == pytest.approx(0.75)
    assert m["balance"].lo <= m["balance"].value <= m["balance"].hi


def test_drawishness_leaves_limit_draws_apart():
    rows = [row(None), row(None, limit=True), row(0), row(1)]
    m = metrics.game_metrics(rows, has_limit=True)
    assert m["drawishness"].value == pytest.approx(1 / 4)
    assert m["limit_draws"].value == pytest.approx(1 / 4)
    assert metrics.game_metrics(rows)["limit_draws"].value is None  # a game without a limit


def test_luck_is_the_share_the_deal_predicts():
    decided = [row(0, deal=0.9), row(1, deal=-0.8), row(0, deal=0.7), row(1, deal=-0.9), row(0, deal=0.8)]
    unrelated = [row(0, deal=0.5), row(1, deal=0.5), row(0, deal=-0.5), row(1, deal=-0.5), row(0, deal=0.1)]
    high, low = metrics.game_metrics(decided)["luck"], metrics.game_metrics(unrelated)["luck"]
    assert high.value > 0.9 and low.value < 0.1
    assert high.lo <= high.value <= high.hi


def test_skill_is_the_stronger_agents_score_with_seats_alternated():
    rows = [row(0, agents=("s", "w")), row(0, agents=("w", "s")), row(1, agents=("w", "s")),
            row(None, agents=("s", "w"))]
    m = metrics.skill_metrics(rows, "s", "w")
    assert m["skill"].value == pytest.approx((1 + 0 + 1 + 0.5) / 4)
    assert m["skill_elo"].value > 0


# ---------------------------------------------------------------- every metric of every game

@pytest.mark.parametrize("game", cardlab.games())
def test_every_metric_of_every_game_with_its_interval(game, monkeypatch):
    if game == "toritsuki":  # its evaluation costs about 0.25 s a decision (8 playouts a move): the
        # game's own heuristic stands in here; the slow test below runs the real one
        monkeypatch.setattr(play, "_seat0_value", lambda s, nodes: s.heuristic(0) - s.heuristic(1))
    p = design.measure(game, games=4, **QUICK)
    for name in design.METRICS:
        if name in ("limit_draws", "open_value"):
            continue
        m = p.metrics[name]
        assert m.value is not None, name
        assert m.lo - 1e-9 <= m.value <= m.hi + 1e-9, (name, m)
    assert p.metrics["duration"].value > 1 and p.metrics["branching"].value >= 1


@pytest.mark.slow
def test_toritsuki_metrics_with_the_real_evaluation():
    p = design.measure("toritsuki", games=4, agent="heuristic", skill=("heuristic", "random"), evaluate=30,
                       progress=False)
    assert all(p.metrics[n].value is not None for n in ("lead_change", "decisiveness", "luck"))


def test_mipig_limit_draws_counted_when_janken_rounds_caps_them():
    p = design.plan("mipig", {"janken_rounds": [None, 1]}, games=1, **{k: v for k, v in QUICK.items()
                                                                       if k != "progress"})
    assert p.limits == [False, True]


# ---------------------------------------------------------------- checks before any work

@pytest.mark.parametrize("kwargs, match", [
    (dict(grid={}), "grid is empty"),
    (dict(grid={"hand_size": []}), "has no values"),
    (dict(grid={"hand_size": [3, 0]}), "hand_size=0 is not accepted"),
    (dict(grid={"colour": [1]}), "unknown option 'colour'"),
    (dict(agent="grandmaster"), "unknown agent 'grandmaster'"),
    (dict(agent="expert"), "no level above it"),
    (dict(agent="heuristic"), "no level above it"),
    (dict(skill=("beginner", "strong")), "the stronger level comes first"),
    (dict(skill=("club", "club")), "two different agents"),
    (dict(games=0), "at least 1"),
])
def test_bad_input_is_refused_before_any_game(kwargs, match, monkeypatch):
    monkeypatch.setattr(play, "play_game", lambda job: pytest.fail("a game was played"))
    grid = kwargs.pop("grid", {"hand_size": [1]})
    with pytest.raises((CardlabError, OptionError), match=match):
        design.sweep("mipig", grid, **{"progress": False, **kwargs})


def test_unknown_game_is_refused():
    with pytest.raises(UnknownGameError, match="unknown game"):
        design.plan("chess")


def test_cli_bad_option_value_exits_2_before_any_game(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["design", "mipig", "--option", "hand_size=3,11", "--out", str(out)]) == 2
    assert "hand_size=11 is not accepted" in capsys.readouterr().err
    assert not out.exists() and not (tmp_path / "r.csv").exists()


# ---------------------------------------------------------------- resumable sweeps

def test_a_sweep_resumes_from_its_csv(tmp_path, monkeypatch):
    path = tmp_path / "games.csv"
    first = design.sweep("mipig", {"hand_size": [1, 2]}, games=3, csv=path, **QUICK)
    with open(path, newline="") as f:
        assert len(list(csv.DictReader(f))) == 2 * 3 * 2  # self-play and skill games, two points
    played = []
    real = play.play_game
    monkeypatch.setattr(play, "play_game", lambda job: played.append(job) or real(job))
    again = design.sweep("mipig", {"hand_size": [1, 2]}, games=3, csv=path, **QUICK)
    assert played == []
    assert [str(m) for m in again[1].metrics.values()] == [str(m) for m in first[1].metrics.values()]
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:10])  # the last game cut short
    design.sweep("mipig", {"hand_size": [1, 2]}, games=3, csv=path, **QUICK)
    assert len(played) == 1


def test_parse_grid_reads_values():
    assert design.parse_grid(["hand_size=3,4", "open_hands=true", "tiebreak=value"]) == {
        "hand_size": [3, 4], "open_hands": [True], "tiebreak": ["value"]}
    with pytest.raises(CardlabError, match="NAME=VALUE"):
        design.parse_grid(["hand_size"])


# ---------------------------------------------------------------- report and CLI

def test_cli_design_writes_the_report_with_its_plots(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    out = tmp_path / "report.html"
    code = main(["design", "mipig", "--option", "hand_size=1,2", "--games", "4", "--agent", "random",
                 "--skill", "heuristic,random", "--evaluate", "30", "--exact", "--out", str(out)])
    assert code == 0
    page = out.read_text()
    assert page.count("data:image/png;base64,") == 1 and "Balance" in page and "hand_size=2" in page
    assert "1,200" in page  # the exact figure of hand_size=1 (every deal), beside the sampled one
    assert (tmp_path / "report.csv").exists()
    assert "seat_score" in capsys.readouterr().out


def test_import_cardlab_design_needs_no_matplotlib():
    import subprocess
    import sys

    code = ("import sys; sys.modules['matplotlib'] = None; import cardlab, cardlab.design, cardlab.cli_design; "
            "print('ok')")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "ok"


def test_metric_intervals_are_95_percent_wilson_for_shares():
    m = metrics.game_metrics([row(0)] * 8 + [row(1)] * 2)["seat_score"]
    lo, hi = cardlab.batch.wilson(8, 10)
    assert (m.lo, m.hi) == (lo, hi) and math.isclose(m.value, 0.8)


def test_a_call_job_names_a_cardlab_function():
    with pytest.raises(CardlabError, match="'cardlab.module:name'"):
        cardlab.batch.call_job("os:system", "mipig", 1)
    job = cardlab.batch.call_job("cardlab.design.play:play_game", "mipig", 1, {"hand_size": 1},
                                 agents=["random", "random"], evaluate=0)
    (row,) = cardlab.batch.run([job], executor="serial", progress=False)
    assert row["error"] is None and row["decisions"] >= 2 and row["winner"] in (0, 1, None)


def test_a_failed_game_is_left_out_and_said(monkeypatch):
    real = play.play_game

    def flaky(job):
        if job["seed"] == 1 and job["kind"] == "self":
            raise RuntimeError("lost worker")
        return real(job)

    monkeypatch.setattr(play, "play_game", flaky)
    p = design.measure("mipig", {"hand_size": 1}, games=4, **QUICK)
    assert p.metrics["duration"].n == 3 and p.metrics["skill"].n == 4
    assert "1 games failed (left out), the first: RuntimeError: lost worker" in str(p)
