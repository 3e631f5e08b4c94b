"""``make lite`` as the first and only command in a fresh clone (issue Y,
item 8): the ``lite`` extra brings everything ``jupyter lite build`` needs
(jupyter-server among them: without it the build stopped with "jupyter-server
is not installed"), and a second ``make lite`` (or ``make lite-serve``) finds
the site up to date and builds nothing.

Slow (a new virtual environment, PyPI and npm at build time): run with
``pytest -m slow tests/test_lite_fresh.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _fresh_copy(dest: Path) -> None:
    """The files git tracks, as they are in the working tree (a clone of what would be committed)."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in files.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)


def test_make_lite_works_in_a_fresh_clone_and_then_is_up_to_date(tmp_path):
    for tool in ("git", "make", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool}")
    clone = tmp_path / "clone"
    _fresh_copy(clone)
    python = f"PYTHON={sys.executable}"
    done = subprocess.run(["make", python, "lite"], cwd=clone, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (clone / "_site" / "index.html").is_file() and (clone / "_site" / "files" / "notebooks").is_dir()
    # nothing changed: make lite-serve would serve at once (make -q: 0 when up to date)
    assert subprocess.run(["make", "-q", python, "_site/index.html"], cwd=clone).returncode == 0
    again = subprocess.run(["make", "-n", python, "lite-serve"], cwd=clone, capture_output=True, text=True)
    assert "build.py" not in again.stdout and "serve.py" in again.stdout
    (clone / "notebooks" / "mipig.ipynb").touch()  # an input changed: built again
    assert "build.py" in subprocess.run(["make", "-n", python, "lite"], cwd=clone, capture_output=True,
                                        text=True).stdout
