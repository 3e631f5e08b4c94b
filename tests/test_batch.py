"""cardlab.batch: the same table on one process, a process pool and a real
Dask cluster; resume after a killed run; one failing job does not lose the
others; summaries (Wilson intervals against published values)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from fractions import Fraction

import pytest

import cardlab
from cardlab import batch
from cardlab.errors import CardlabError

MIPIG2 = {"hand_size": 2}


def strip(table):
    return table.drop("time")


@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("distributed")
    with batch.local_dask_client(2) as client:
        yield client


@pytest.fixture(scope="module")
def pool():
    ex = batch._local_pool(2)
    yield ex
    ex.shutdown()


def test_solve_table_is_the_same_on_one_process_a_pool_and_dask(dask_client, pool):
    seeds = range(20)
    serial = batch.solve_deals("mipig", seeds, options=MIPIG2, executor="serial", progress=False)
    local = batch.solve_deals("mipig", seeds, options=MIPIG2, executor=pool, progress=False,
                              chunksize=3)
    on_dask = batch.solve_deals("mipig", seeds, options=MIPIG2, executor=dask_client, progress=False)
    assert strip(serial) == strip(local) == strip(on_dask)
    assert [r["id"] for r in on_dask] == list(range(20))
    info = dask_client.scheduler_info()
    addresses = [info["address"], *info["workers"]]
    assert len(info["workers"]) == 2 and all(a.startswith("tcp://127.0.0.1:") for a in addresses)
    assert all(list(r) == list(batch.COLUMNS) for r in on_dask)
    assert not on_dask.errors
    # every row is the exact value of that deal, as a direct solve gives it
    game = cardlab.load("mipig", open_hands=True, **MIPIG2)
    for r in serial[:5]:
        sol = cardlab.solve(game.new_initial_state(r["seed"]), progress=False)
        assert (r["result"], r["nodes"], r["options"]) == (sol.value, sol.nodes,
                                                             {"hand_size": 2, "open_hands": True})


def test_tournament_is_the_same_on_a_pool_and_dask(dask_client, pool):
    kw = dict(options={"deck": "short"}, progress=False)
    local = batch.tournament("koinobori", ["random", "heuristic"], range(8), executor=pool, **kw)
    on_dask = batch.tournament("koinobori", ["random", "heuristic"], range(8), executor=dask_client, **kw)
    assert strip(local) == strip(on_dask)
    assert len(local) == 16  # two seatings x eight seeds
    assert {tuple(r["agents"]) for r in local} == {("random", "heuristic"), ("heuristic", "random")}
    for r in local:
        assert r["winner"] == (None if r["returns"][0] == r["returns"][1] else
                               r["returns"].index(max(r["returns"])))
    table = batch.standings(local)
    assert [(t["agent"], t["opponent"]) for t in table] == [("heuristic", "random"), ("random", "heuristic")]
    h, r = table
    assert h["games"] == r["games"] == 16
    assert (h["wins"], h["draws"], h["losses"]) == (r["losses"], r["draws"], r["wins"])
    assert h["ci_low"] <= h["win_rate"] <= h["ci_high"]


def test_results_do_not_depend_on_the_number_of_processes_or_chunks():
    jobs = [batch.match_job("mazemon", s, ["random", ["mcts", {"iterations": 5}]]) for s in range(6)]
    one = batch.run(jobs, executor=1, progress=False, chunksize=4)
    two = batch.run(jobs, executor=2, progress=False, chunksize=1)
    assert strip(one) == strip(two)
    assert one[0]["agents"] == ["random", "mcts(iterations=5)"]


def test_a_failing_job_keeps_its_game_options_and_seed_and_the_others_survive(dask_client):
    jobs = [batch.solve_job("mipig", 0, {"hand_size": 2, "open_hands": True}),
            batch.position_job({"game": "mipig", "options": {"hand_size": 2}, "junk": 1}),  # bad position
            batch.solve_job("mipig", 2, {"hand_size": 2}),                        # hidden cards
            batch.solve_job("koinobori", 3, {"open_hands": True}, max_nodes=50),  # too large
            batch.solve_job("mipig", 4, {"hand_size": 2, "open_hands": True})]
    for executor in ("serial", dask_client):
        t = batch.run(jobs, executor=executor, progress=False, chunksize=5)
        assert [r["error"] is None for r in t] == [True, False, False, False, True]
        bad = {r["id"]: r for r in t.errors}  # a bad option is refused before any job runs: test_bad_input.py
        assert bad[1]["error"].startswith("PositionError") and "junk" in bad[1]["error"]
        assert bad[2]["error"].startswith("NotSolvableError") and "open_hands=True" in bad[2]["error"]
        assert bad[3]["error"].startswith("TooLargeError") and bad[3]["game"] == "koinobori"
        assert bad[1]["options"] == {"hand_size": 2} and bad[1]["result"] is None
        assert t[4]["result"] == cardlab.solve(
            cardlab.load("mipig", open_hands=True, hand_size=2).new_initial_state(4), progress=False).value


RUNNER = textwrap.dedent("""
    import sys
    from cardlab import batch
    if __name__ == "__main__":
        batch.solve_deals("mipig", range(40), options={"hand_size": 2}, executor="serial",
                          checkpoint=sys.argv[1], chunksize=1, progress=False)
""")


def _valid_lines(path):
    with open(path, encoding="utf-8") as f:
        return sum(1 for line in f if line.endswith("}\n"))


def test_a_killed_run_resumes_where_it_stopped(tmp_path):
    ckpt = tmp_path / "run.jsonl"
    script = tmp_path / "runner.py"
    script.write_text(RUNNER)
    proc = subprocess.Popen([sys.executable, str(script), str(ckpt)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (ckpt.exists() and _valid_lines(ckpt) >= 5):
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    done_before = _valid_lines(ckpt)
    assert 5 <= done_before < 40, "the run must be killed in the middle"
    with open(ckpt, "a", encoding="utf-8") as f:
        f.write('{"key": "cut short by the kil')  # a half-written last line
    resumed = batch.solve_deals("mipig", range(40), options=MIPIG2, executor="serial",
                                checkpoint=ckpt, progress=False)
    assert resumed.resumed == done_before
    assert _valid_lines(ckpt) - done_before == 40 - done_before  # only the missing jobs ran
    fresh = batch.solve_deals("mipig", range(40), options=MIPIG2, executor="serial", progress=False)
    assert strip(resumed) == strip(fresh)
    # a finished checkpoint answers everything; another question reuses nothing of it
    again = batch.solve_deals("mipig", range(40), options=MIPIG2, executor="serial",
                              checkpoint=ckpt, progress=False)
    assert again.resumed == 40 and strip(again) == strip(fresh)
    other = batch.solve_deals("mipig", range(3), options={"hand_size": 1}, executor="serial",
                              checkpoint=ckpt, progress=False)
    assert other.resumed == 0


def test_rows_with_errors_run_again_on_resume(tmp_path):
    ckpt = tmp_path / "c.jsonl"
    jobs = [batch.solve_job("mipig", s, {"hand_size": 1, "open_hands": True}) for s in range(3)]
    first = batch.run(jobs, executor="serial", checkpoint=ckpt, progress=False)
    lines = ckpt.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["row"]["error"] = "BrokenProcessPool: the worker failed"
    lines[1] = json.dumps(entry)
    ckpt.write_text("\n".join(lines) + "\n")
    second = batch.run(jobs, executor="serial", checkpoint=ckpt, progress=False)
    assert second.resumed == 2 and not second.errors
    assert strip(second) == strip(first)
    assert isinstance(second[0]["result"], Fraction)  # fractions survive the JSON file


def test_sweep_covers_the_grid_and_summarize_groups_by_options():
    t = batch.sweep("mipig", {"first_player": [0, 1], "tiebreak": ["janken", "value"]}, range(4),
                    options={"hand_size": 1}, executor="serial", progress=False)
    assert len(t) == 16
    combos = [(r["options"]["first_player"], r["options"]["tiebreak"]) for r in t[::4]]
    assert combos == [(0, "janken"), (0, "value"), (1, "janken"), (1, "value")]
    s = batch.summarize(t, by="options")
    assert [g["jobs"] for g in s] == [4, 4, 4, 4]
    for g, rows in zip(s, (t[i:i + 4] for i in range(0, 16, 4))):
        assert g["mean_result"] == sum(r["result"] for r in rows) / 4
        assert g["draws"] == sum(r["result"] == 0 for r in rows)
    m = batch.sweep("mazemon", {"deck0": ["hinoko", "shizuku"]}, range(3), task="match",
                    agents=["random", "random"], executor="serial", progress=False)
    assert [r["options"] for r in m[::3]] == [{"deck0": "hinoko"}, {"deck0": "shizuku"}]
    assert all(r["task"] == "match" and r["agents"] == ["random", "random"] for r in m)


def test_solving_after_random_moves_matches_a_direct_replay():
    t = batch.solve_deals("koinobori", [5, 6], options={"deck": "short"}, random_moves=8,
                          executor="serial", progress=False)
    import random
    from cardlab.core import sample_chance
    game = cardlab.load("koinobori", deck="short", open_hands=True)
    for r in t:
        rng = random.Random(r["seed"])
        s = game.new_initial_state(rng)
        for _ in range(8):
            if s.is_terminal():
                break
            s = s._apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
        assert (r["to_move"], r["result"]) == (s.current_player, cardlab.solve(s, progress=False).value)


def test_wilson_matches_newcombe_1998():
    """Wilson score intervals of Newcombe (1998), Statistics in Medicine 17:857, Table I."""
    for (k, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        got = batch.wilson(k, n)
        assert (round(got[0], 4), round(got[1], 4)) == (lo, hi)
    assert batch.wilson(0, 0) == (0.0, 1.0)


def test_bad_input_is_refused_with_what_is_accepted():
    with pytest.raises(CardlabError, match="executor='threads' is not accepted; use None"):
        batch.solve_deals("mipig", [1], options=MIPIG2, executor="threads")
    with pytest.raises(CardlabError, match="at least 1"):
        batch.solve_deals("mipig", [1], options=MIPIG2, executor=0)
    with pytest.raises(CardlabError, match="unknown agent 'genius'; the agents are: random"):
        batch.tournament("mipig", ["random", "genius"], [1])
    with pytest.raises(CardlabError, match="at least two different agents"):
        batch.tournament("mipig", ["random", "random"], [1])
    with pytest.raises(CardlabError, match="2 players|has 3 players"):
        batch.tournament("monster_cards", ["random", "heuristic"], [1], options={"players": 3})
    with pytest.raises(CardlabError, match="task is 'solve' or 'match'"):
        batch.sweep("mipig", {"hand_size": [1]}, [1], task="play")
    with pytest.raises(cardlab.OptionError, match="hand_size"):
        batch.sweep("mipig", {"hand_size": [1, 99]}, [1])
    with pytest.raises(cardlab.UnknownGameError, match="the games are"):
        batch.solve_deals("chess", [1])
    with pytest.raises(CardlabError, match="task is 'solve' or 'match', not 'dance'"):
        batch.run([{"task": "dance"}], executor="serial")


def test_progress_bar_and_its_fallback_without_tqdm(monkeypatch, capsys):
    jobs = [batch.solve_job("mipig", s, {"hand_size": 1, "open_hands": True}) for s in range(3)]
    batch.run(jobs, executor="serial", progress=True, desc="teaching")
    err = capsys.readouterr().err
    assert "teaching" in err and "3/3" in err
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # as if tqdm were not installed
    t = batch.run(jobs, executor="serial", progress=True)
    assert len(t) == 3 and capsys.readouterr().err == ""


def test_to_pandas_only_with_pandas(monkeypatch):
    t = batch.solve_deals("mipig", [1], options={"hand_size": 1}, executor="serial", progress=False)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(CardlabError, match="needs pandas"):
        t.to_pandas()
    monkeypatch.undo()
    if "pandas" in sys.modules or _has("pandas"):
        assert list(t.to_pandas().columns) == list(batch.COLUMNS)
    assert "time" not in str(t).splitlines()[0].split()  # printed tables leave times out


def _has(module):
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_import_cardlab_does_not_import_dask():
    code = ("import sys, cardlab, cardlab.batch; cardlab.games(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', 'tqdm', 'pandas')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONWARNINGS": "error"})
    assert out.stdout.strip() == "[]"


def test_an_in_process_dask_cluster_gives_the_same_table_too():
    pytest.importorskip("distributed")
    jobs = [batch.match_job("mipig", s, ["random", "heuristic"], {"hand_size": 3}) for s in range(6)]
    with batch.local_dask_client(2, processes=False) as client:
        assert client.scheduler_info()["address"].startswith("inproc://")
        on_dask = batch.run(jobs, executor=client, progress=False)
    assert strip(on_dask) == strip(batch.run(jobs, executor="serial", progress=False))


def test_solve_positions_from_to_dict():
    game = cardlab.load("koinobori", deck="short", open_hands=True)
    deals = batch.solve_deals("koinobori", [2, 3], options={"deck": "short"}, random_moves=10,
                              executor="serial", progress=False)
    import random
    from cardlab.core import sample_chance
    positions = []
    for seed in (2, 3):
        rng = random.Random(seed)
        s = game.new_initial_state(rng)
        for _ in range(10):
            if s.is_terminal():
                break
            s = s._apply(sample_chance(s, rng) if s.is_chance_node() else rng.choice(s.legal_actions()))
        positions.append(s.to_dict())
    t = batch.solve_positions(positions + [{"game": "koinobori", "stage": "nonsense"}],
                              executor="serial", progress=False)
    assert [r["result"] for r in t[:2]] == [r["result"] for r in deals]
    assert t[0]["seed"] is None and t[0]["options"] == {"deck": "short", "open_hands": True}
    assert t[2]["error"].startswith("PositionError") and t[2]["game"] == "koinobori"
    with pytest.raises(CardlabError, match="state.to_dict"):
        batch.position_job({"stage": "turn"})
