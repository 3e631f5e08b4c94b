"""A board in a real JupyterLab, driven in Debian's chromium (marker ``browser``;
deselected by default: run with ``pytest -m browser tests/test_widgets_browser.py``).

Needs ``playwright`` (the Python package only: no downloaded browser) and
``/usr/bin/chromium`` (``apt-get install chromium``); skipped without them.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path: Path):
    """A JupyterLab server on a free port with a notebook that opens a board."""
    pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        'import cardlab.widgets\nb = cardlab.widgets.board("koinobori", ["person", "random"], seed=1)\nb')]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, tmp_path / "board.ipynb")
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
    port, token = _free_port(), secrets.token_hex(16)
    jupyter = shutil.which("jupyter", path=str(Path(sys.executable).parent)) or "jupyter"
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"))
    log = open(tmp_path / "lab.log", "wb")
    proc = subprocess.Popen(
        [jupyter, "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
         "--allow-root", f"--ServerApp.root_dir={tmp_path}"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("JupyterLab did not start: " + (tmp_path / "lab.log").read_text()[-2000:])
        yield base, token, tmp_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def test_board_plays_in_jupyterlab(lab):
    """The board renders in JupyterLab; clicking an action button plays it
    (the move log grows and the explanation cites KN-8)."""
    from playwright.sync_api import expect, sync_playwright

    base, token, folder = lab
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        page = browser.new_page(viewport={"width": 1200, "height": 1400})
        page.goto(f"{base}/lab/tree/board.ipynb?reset&token={token}")
        page.wait_for_function("window.jupyterapp?.shell.currentWidget?.sessionContext", timeout=90_000)
        page.evaluate("""async () => {
            const app = window.jupyterapp;
            const nb = app.shell.currentWidget;
            await nb.context.ready;
            await nb.sessionContext.ready;
            await app.commands.execute('notebook:run-all-cells');
        }""")
        panel = page.locator(".jp-NotebookPanel:visible")
        pair = panel.get_by_role("button", name="nobori のぼり: higoi ひごい")
        expect(pair).to_be_visible(timeout=90_000)
        expect(panel.get_by_text("move log (6 moves)")).to_be_visible()
        expect(panel.get_by_role("combobox").first).to_be_visible()
        pair.click()
        expect(panel.get_by_text("What happened")).to_be_visible(timeout=30_000)
        expect(panel.get_by_text("(KN-8").first).to_be_visible()
        expect(panel.get_by_text("move log (6 moves)")).to_have_count(0)
        page.screenshot(path=str(folder / "board.png"), full_page=True)
        browser.close()
