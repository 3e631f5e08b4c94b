"""Every notebook runs in the environment ``make lab`` makes (issue L): a
fresh virtual environment with cardlab and only its ``notebook`` extra
(``pip install -e '.[notebook]'``, the Makefile's own line), then each
notebook executed there from the first cell to the last.  A dependency that
only the test extra brings (nbval, pygambit, open-spiel, pandas ...) and a
notebook uses would fail here, as it fails for a newcomer after ``make lab``.

Slow (a pip install and every notebook): CI runs it with ``-m slow``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_makefile_installs_the_notebook_extra():
    """The environment below is the one ``make lab`` makes."""
    make = (ROOT / "Makefile").read_text("utf-8")
    assert re.search(r"^lab: \$\(VENV\)/\.lab-installed", make, re.M)
    assert "pip install --quiet -e '.[notebook]'" in make


@pytest.fixture(scope="module")
def lab_env(tmp_path_factory) -> Path:
    env = tmp_path_factory.mktemp("lab") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    py = env / "bin" / "python"
    done = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[notebook]"],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    # the test tools are not there: this is make lab's environment, not make test's
    assert subprocess.run([str(py), "-c", "import nbval"], capture_output=True).returncode != 0
    # and a notebook run with its jupyter gets its own Python as the kernel
    nb = env.parent / "prefix.ipynb"
    nb.write_text('{"cells": [{"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], '
                  '"source": "import sys; print(sys.prefix)"}], "metadata": {}, "nbformat": 4, '
                  '"nbformat_minor": 5}', "utf-8")
    done = subprocess.run([str(env / "bin" / "jupyter"), "nbconvert", "--to", "notebook", "--execute",
                           "--stdout", str(nb)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and str(env) in done.stdout, done.stderr[-3000:]
    return env


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_in_the_lab_environment(lab_env, notebook, tmp_path):
    jupyter = lab_env / "bin" / "jupyter"
    done = subprocess.run([str(jupyter), "nbconvert", "--to", "notebook", "--execute",
                           "--ExecutePreprocessor.timeout=1800", "--output-dir", str(tmp_path), str(notebook)],
                          cwd=notebook.parent, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-4000:]
