"""Kernels are freed (issue W, item 8): Voila starts a kernel for every page
it serves; ``make play`` has Voila shut a kernel down when its page is gone.

Voila itself asks for the shutdown when a page is closed (its
``beforeunload``); a page that never says goodbye (a tab that crashed, a
laptop put to sleep, a reload the browser did not let finish) leaves its
kernel, about 76 MB each, until Voila's culler shuts it down: ``make play``
gives it ``--MappingKernelManager.cull_idle_timeout`` (a kernel idle that
long with no page connected), ``cull_interval`` and ``cull_connected=False``
(a page still open is never culled, however long its pupil thinks).

The test starts Voila with the culling flags of the Makefile's ``play``
target (with short times), opens 20 pages one after another (locked links
of every game) and closes them, half with the page's goodbye and half
without, reloads one more, and keeps one page open all along: in the end
only the open page's kernel is left, and that page still plays.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time

import pytest

import cardlab

from browser_support import BIN, ROOT, _wait_http, board_info, board_locator, free_port, log_count, until

sys.path.insert(0, str(ROOT / "benchmarks"))
import class_load  # noqa: E402  (the load test's process listing and make play's flags)

pytestmark = pytest.mark.browser

PAGES = 20
IDLE, EVERY = 6, 1  # seconds: the test's culling times (make play: PLAY_CULL_IDLE, PLAY_CULL_EVERY)


def play_cull_flags() -> list[str]:
    """The culling flags of ``make play`` (the Makefile's ``PLAY_KERNELS``), its
    times replaced by the test's."""
    flags = class_load.play_flags(PLAY_CULL_IDLE=IDLE, PLAY_CULL_EVERY=EVERY)
    assert any("cull_idle_timeout" in f for f in flags) and "--MappingKernelManager.cull_connected=False" in flags
    assert not any("$(" in f for f in flags), flags  # every time of the play target given
    return flags


def open_board(page, url: str):
    page.goto(url, timeout=120_000)
    until(lambda: page.locator("button", has_text="hint").count(), bool, "the locked board", 120)
    board = board_locator(page.locator("body"))
    until(lambda: board_info(board)["offers"], bool, "the board's moves", 60)
    return board


def test_closed_and_gone_pages_kernels_are_shut_down_and_an_open_one_stays(browser, tmp_path):
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), CARDLAB_ROOMS=str(tmp_path / "class.db"))
    cmd = [str(BIN / "voila"), str(ROOT / "notebooks" / "play.ipynb"), "--no-browser", f"--port={port}",
           "--Voila.ip=127.0.0.1", f"--Voila.token={token}", *play_cull_flags()]
    base = f"http://127.0.0.1:{port}/?token={token}"
    games = cardlab.games()
    with open(tmp_path / "voila.log", "wb") as log:
        server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_http(base, server, tmp_path / "voila.log")
            context = browser.new_context()
            staying = context.new_page()
            board = open_board(staying, f"{base}&game=koinobori&seat=0&lock=1&opponent=random&seed=1")
            most, t0 = 1, time.monotonic()
            for i in range(PAGES):
                page = context.new_page()
                open_board(page, f"{base}&game={games[i % len(games)]}&seat=0&lock=1&opponent=random&seed={i}")
                most = max(most, len(class_load.kernels(server.pid)))
                if i == PAGES - 1:
                    page.reload(timeout=120_000)  # the reloaded page's first kernel is left behind
                    until(lambda: page.locator("button", has_text="hint").count(), bool, "the reloaded board", 120)
                page.close(run_before_unload=i % 2 == 0)  # odd pages leave without a goodbye
            opened = time.monotonic() - t0
            left = until(lambda: class_load.kernels(server.pid), lambda k: len(k) == 1,
                         "the kernels left: only the open page's", 4 * IDLE + 60)
            assert len(left) == 1
            before = log_count(board_info(board))
            board.locator("button.cardlab-offer").first.click()  # the page left open still plays
            until(lambda: log_count(board_info(board)), lambda n: n > before, "the open page's move", 60)
            assert class_load.kernels(server.pid) == left
            print(f"{PAGES + 2} pages opened in {opened:.0f} s, at most {most} kernels at once; "
                  f"{len(left)} left (the open page's)")
            context.close()
        finally:
            server.terminate()  # the server this test started, by its process id
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=10)
