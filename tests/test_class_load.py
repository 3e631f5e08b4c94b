"""The class load test (issue W, item 9: benchmarks/class_load.py) cannot
rot: run at two pupils (one room, real chromium tabs on a Voila server as
``make play`` serves it), every move a pupil clicked must reach the other
pupil's page, with no error, and nothing the run started may be left.
Nothing here checks a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import class_load  # noqa: E402

MOVES = 3


class FakePage:
    """A page as :func:`class_load.latencies` reads it: its recorder's notes."""

    def __init__(self, counts, clicks):
        self.rec = {"counts": counts, "clicks": clicks, "board": 1}

    def wait_for_function(self, js, timeout, polling):
        """As Playwright's, for :func:`class_load.ask`'s question (its ``js``
        wrapped to answer a list): a handle on the answer."""
        answer = {"count": self.rec["counts"][-1][1]} if class_load._STATE_JS in js else self.rec
        return FakeHandle([answer])


class FakeHandle:
    def __init__(self, value):
        self.value = value

    def json_value(self):
        return self.value

    def dispose(self):
        pass


class SilentPage:
    """A page that never answers (Playwright's timeout)."""

    def wait_for_function(self, js, timeout, polling):
        raise TimeoutError(f"Timeout {timeout}ms exceeded.")


def test_a_page_that_does_not_answer_costs_its_deadline_not_the_run():
    """Session 16's 60-pupil run waited, idle, on one evaluate; ``ask`` gives
    None and says so in the page's console lines."""
    page = SilentPage()
    assert class_load.ask(page, class_load._STATE_JS, seconds=0.01) is None
    assert page.console == ["(no answer: TimeoutError)"]
    assert class_load.records(page) == {}


class FakeStore:
    def __init__(self, seq):
        self._seq = seq

    def seq(self, room_id):
        return self._seq


def test_a_move_the_other_page_never_shows_is_an_error():
    """The check the browser test relies on can fail: seat 0's move 5 -> 6
    shows on seat 1's page 400 ms after the click; seat 1's answer 6 -> 7
    never shows on seat 0's page (the store has it)."""
    pages = [FakePage([[1000, 5], [2500, 6]], [1100, 3000]), FakePage([[1000, 5], [1500, 6]], [2000])]
    played = [{"room": "R1", "seat": 0, "seq": 5, "stored": 6}, {"room": "R1", "seat": 1, "seq": 6, "stored": 7}]
    times, errors = class_load.latencies(FakeStore(7), [{"id": "R1", "pages": pages}], played, move_timeout=0.1)
    assert times == [400]
    assert errors == ["room R1: move 7 (seat 1) never showed on the other page"]


def test_the_load_test_serves_with_the_play_targets_culling():
    flags = class_load.play_flags()
    assert "--MappingKernelManager.cull_connected=False" in flags
    assert "--VoilaExecutor.iopub_timeout=120" in flags  # a loaded machine's boards are not dropped
    assert not any("$(" in f for f in flags), flags


def left(seen: list[list]) -> list[str]:
    """The processes of a run (its server, kernels and chromium: pid and
    start time) still alive."""
    procs = class_load._processes()
    return [procs[pid][2][:200] for pid, started in seen if pid in procs and procs[pid][1] == started]


@pytest.mark.browser
def test_two_pupils_every_move_reaches_the_other_page(tmp_path):
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (cardlab's test extra)")
    out = tmp_path / "load.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "class_load.py"), "--pupils", "2",
                           "--moves", str(MOVES), "--json", str(out), "--timeout", "300", "--move-timeout", "120"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    print(done.stdout)
    (row,) = json.loads(out.read_text())
    assert row["errors"] == [], row["errors"]
    assert done.returncode == 0, done.stdout[-3000:]
    assert row["boards"] == 2 and row["kernels"] == 2
    assert row["moves"] == MOVES == len(row["latencies_ms"])  # each stored move timed on the other page
    assert [m["seat"] for m in row["played"]] != [row["played"][0]["seat"]] * MOVES  # both pupils clicked
    assert all(m["stored"] > m["seq"] for m in row["played"])
    assert all(0 < t < 120_000 for t in row["latencies_ms"])
    assert "| 2 | 2 |" in done.stdout  # the markdown table's row
    assert len(row["processes"]) > 4  # the server, two kernels, chromium's processes
    assert left(row["processes"]) == []  # all stopped
