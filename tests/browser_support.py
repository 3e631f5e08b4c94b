"""Helpers for the real-browser tests (tests/test_widgets_browser.py).

- :func:`ensure_chromium`: Debian's ``chromium``; installed with apt when it is
  missing and we run as root (as ``.ci/run`` does); no browser download.
- :func:`jupyterlab` / :func:`voila`: a server on 127.0.0.1 and a free port,
  stopped (by its process id) when the ``with`` block ends.
- :func:`board_*`: find and drive a :class:`cardlab.widgets.Board` in a page.

The recipe and its pitfalls: /work/shared/JUPYTER.md (JupyterLab's news
fetch switched off, ``?reset`` workspaces, run-all through the command
registry rather than the kernel-idle indicator).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
BIN = Path(sys.executable).parent


#: what the browser tests need from apt: the browser, and a Japanese font so that
#: screenshots show the cards' kana and kanji (not empty boxes)
APT_PACKAGES = {"chromium": "chromium", "font": "fonts-ipafont-gothic"}


def _has_japanese_font() -> bool:
    if shutil.which("fc-list") is None:
        return False
    out = subprocess.run(["fc-list", ":lang=ja"], stdout=subprocess.PIPE, text=True).stdout
    return bool(out.strip())


def ensure_chromium() -> str:
    """The path of Debian's chromium.  When it (or a Japanese font) is
    missing and we run as root, as ``.ci/run`` does: ``apt-get update &&
    apt-get install -y chromium fonts-ipafont-gothic``.  No browser is
    downloaded by playwright.  Raises RuntimeError saying what to do when
    chromium cannot be had."""
    missing = [pkg for what, pkg in APT_PACKAGES.items()
               if not (shutil.which("chromium") if what == "chromium" else _has_japanese_font())]
    if missing and shutil.which("apt-get") is not None and os.geteuid() == 0:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", *missing]):
            done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}")
    found = shutil.which("chromium")
    if not found:
        raise RuntimeError("the browser tests need Debian's chromium (/usr/bin/chromium): run "
                           "`apt-get install -y chromium` as root (playwright downloads no browser here)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, log: Path, seconds: float = 90) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url} after {seconds} s:\n{log.read_text()[-3000:]}")


def _port_closed(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


@contextlib.contextmanager
def _server(cmd: list[str], env: dict[str, str], url: str, port: int, log: Path) -> Iterator[None]:
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_http(url, proc, log)
            yield
        finally:
            proc.terminate()  # the server we started, by its process id
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
    for _ in range(50):
        if _port_closed(port):
            return
        time.sleep(0.1)
    raise RuntimeError(f"port {port} still answers after the server stopped")


@contextlib.contextmanager
def jupyterlab(root_dir: Path, work: Path) -> Iterator[tuple[str, str]]:
    """A JupyterLab serving ``root_dir`` with a random token; yields
    ``(base_url, token)``.  Settings, runtime files and the log go to ``work``."""
    settings = work / "lab-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(work / "lab-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(work / "lab-workspaces"),
               JUPYTER_RUNTIME_DIR=str(work / "runtime"))
    cmd = [str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           "--port-retries=0", f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
           "--allow-root", f"--ServerApp.root_dir={root_dir}"]
    base = f"http://127.0.0.1:{port}"
    with _server(cmd, env, f"{base}/api/status?token={token}", port, work / "lab.log"):
        yield base, token


@contextlib.contextmanager
def voila(notebook: Path, work: Path) -> Iterator[str]:
    """``voila NOTEBOOK`` on 127.0.0.1 with a random token; yields the page's URL."""
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(work / "runtime"))
    cmd = [str(BIN / "voila"), str(notebook), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
           f"--Voila.token={token}"]
    url = f"http://127.0.0.1:{port}/?token={token}"
    with _server(cmd, env, url, port, work / "voila.log"):
        yield url


def until(get, ok, what: str, seconds: float = 60):
    """Poll ``get()`` until ``ok(value)``; fail naming ``what`` and the last value."""
    end = time.monotonic() + seconds
    while True:
        value = get()
        if ok(value):
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: still {value!r} after {seconds} s")
        time.sleep(0.2)


def screenshot(page, name: str, element=None) -> Path:
    """A screenshot kept under test-artifacts/screenshots/: the whole page,
    or just ``element`` (a locator, scrolled into view first)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if element is None:
        page.screenshot(path=str(path), full_page=True)
    else:
        element.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        element.screenshot(path=str(path))
    return path


# -- a Board in the page ----------------------------------------------------------------------
# A Board is a VBox whose children are, in order: seats and view, options, table,
# status, action buttons, controls (undo ... hint), explanation, hint, move log
# (cardlab/widgets/board.py).  It is found from its "hint" button: the controls' row.
CONTROLS = ("↶ undo", "↷ redo", "new game", "step ▶", "run ▶▶", "hint")

_BOARDS_JS = """(root) => {
    const hints = [...root.querySelectorAll('button')].filter(b => b.textContent.trim() === 'hint');
    return hints.map(b => b.parentElement.parentElement).filter(v =>
        v.querySelector('details summary') && v.children.length === 9);
}"""


def board_locator(scope, which: int = -1):
    """The board ``which`` (default the last one) inside ``scope`` (a
    locator), marked with the attribute ``data-test-board`` so that
    Playwright locators can address it."""
    n = scope.evaluate(f"""(root, which) => {{
        const boards = ({_BOARDS_JS})(root);
        boards.forEach(b => b.removeAttribute('data-test-board'));
        if (!boards.length) return 0;
        boards.at(which).setAttribute('data-test-board', '1');
        return boards.length;
    }}""", which)
    if not n:
        raise AssertionError("no cardlab board (a widget box with a 'hint' button and a move log) in the page")
    return scope.locator("[data-test-board]")


def board_part(board, index: int):
    """Child ``index`` of the board's VBox (0 seats/view ... 8 move log)."""
    return board.locator(f":scope > :nth-child({index + 1})")


def board_info(board) -> dict:
    """What the board shows now: table text, status, action button labels,
    the labels of what may be clicked next (``offers``: action buttons, and
    the squares and cards of a grid), the pick prompt, explanation, hint and
    move-log lines (the log's text even when folded), and the chosen view
    (``None`` on a locked board, which has no view picker).
    textContent, not innerText: JupyterLab 4 skips rendering cells out of
    view (content-visibility), and innerText is empty there."""
    return board.evaluate("""(v) => {
        const c = v.children;
        const text = (e) => (e.textContent || '').replace(/\\s+/g, ' ').trim();
        const log = c[8].querySelector('details');  // none behind a privacy screen, or mid-redraw
        const lines = log ? [...log.querySelectorAll('div')].map(d => d.innerHTML.split('<br>'))
            .flat().map(s => s.replace(/<[^>]*>/g, '').trim()).filter(s => s) : [];
        return {table: text(c[2]), status: text(c[3]),
                actions: [...c[4].querySelectorAll('button')].map(b => b.textContent.trim()),
                offers: [...v.querySelectorAll('button.cardlab-offer')].map(b => b.textContent.trim()),
                prompt: text(c[4].children[0] || c[4]),
                explanation: text(c[6]), hint: text(c[7]),
                summary: log ? log.querySelector('summary').textContent.trim() : '', log: lines,
                view: [...c[0].querySelectorAll('select')].map(s => s.value).pop() ?? null};
    }""")


def log_count(info: dict) -> int:
    m = re.search(r"move log \((\d+) moves\)", info["summary"])
    assert m, info["summary"]
    return int(m.group(1))


def mover_of(line: str) -> str:
    """'P1' from a move-log line like '7. P1 (random): nobori higoi';
    'chance' for a card dealt, drawn or laid out ('3. Player 1 is dealt a card')."""
    m = re.match(r"\d+\. (?:(P\d+) \(|.)", line)
    assert m, line
    return m.group(1) or "chance"


def teacher_page(browser, url: str, store, button: str, wait: float = 90):
    """The class's teacher's page in a new browser context (pupils' tabs may
    open in the same context), once ``button`` (its text) is on it;
    ``(context, page, that button's locator)``."""
    context = browser.new_context(viewport={"width": 1280, "height": 1800})
    page = context.new_page()
    page.goto(f"{url}&teacher={store.key(None, 'teacher')}", timeout=wait * 1000)
    found = page.locator("button", has_text=button)
    until(lambda: found.count(), bool, "the teacher's page", wait)
    return context, page, found
