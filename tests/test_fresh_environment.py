"""Every notebook runs in the environment ``make lab`` makes (issue L): a
fresh virtual environment with cardlab and only its ``notebook`` extra
(``pip install -e '.[notebook]'``, the Makefile's own line).  A dependency
that only the test extra brings (nbval, pygambit, open-spiel, pandas ...) and
a notebook uses would fail there, as it fails for a newcomer after ``make lab``.

That environment is exactly Binder's: ``binder/requirements.txt`` installs
the same line and nothing else, so the Binder simulation of
``tests/test_binder.py`` (a fresh venv from ``binder/`` alone, every notebook
executed, nbval shown absent) is this check too.  Each notebook therefore
runs once in a fresh environment, not once per environment (issue S).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lab_line() -> str:
    make = (ROOT / "Makefile").read_text("utf-8")
    assert re.search(r"^lab: \$\(VENV\)/\.lab-installed", make, re.M)
    m = re.search(r"^\$\(VENV\)/\.lab-installed:.*\n\t\$\(BIN\)/python -m pip install --quiet (-e '\.\[[\w,]+\]')$",
                  make, re.M)
    assert m, "the Makefile's .lab-installed rule no longer reads as expected"
    return m.group(1).replace("'", "")


def test_the_makefile_installs_the_notebook_extra():
    """The environment of ``make lab``: cardlab with its notebook extra."""
    assert _lab_line() == "-e .[notebook]"


def test_binder_installs_what_make_lab_installs():
    """binder/requirements.txt is make lab's install line and nothing else, so
    the Binder simulation's fresh environment is make lab's environment."""
    reqs = [ln.split("#")[0].strip() for ln in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    assert [r for r in reqs if r] == [_lab_line()]
