"""Binder: the ``binder/`` configuration and a simulation of what Binder builds.

- ``repo2docker --no-build`` reads ``binder/`` and prints the Dockerfile it
  would build (no Docker needed): the configuration is valid and is the one
  used (Python from runtime.txt, pip from binder/requirements.txt).
- The simulation (marker ``slow``): a fresh virtual environment made only
  from the ``binder/`` files (which install what ``make lab`` installs, so
  this is also make lab's environment: ``tests/test_fresh_environment.py``) (the Python of runtime.txt, ``pip install -r
  binder/requirements.txt`` from a copy of the repository's files, postBuild
  if there is one) runs every notebook with nbclient, so a notebook that works
  only on a developer's machine (a package of the test extra, a file outside
  the repository) fails here.  pip's cache makes it take a minute or two.
- The README's Binder badge opens JupyterLab at the welcome notebook.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
BINDER = ROOT / "binder"
#: repo2docker reads the first of these it finds and ignores the later ones
R2D_ORDER = ("Dockerfile", "default.nix", "install.R", "environment.yml", "Pipfile", "requirements.txt")


def runtime_python() -> str:
    """'3.11' from binder/runtime.txt ('python-3.11')."""
    text = (BINDER / "runtime.txt").read_text().strip()
    m = re.fullmatch(r"python-(3\.\d+)", text)
    assert m, f"binder/runtime.txt must read python-3.X, not {text!r}"
    return m.group(1)


def test_binder_files_are_the_ones_repo2docker_uses():
    """Only one environment file in binder/ (repo2docker would ignore the
    others); requirements install cardlab itself (a binder/ folder turns off
    the automatic install) with its notebook extra."""
    present = [f for f in R2D_ORDER if (BINDER / f).exists()]
    assert present == ["requirements.txt"], present
    reqs = [ln.split("#")[0].strip() for ln in (BINDER / "requirements.txt").read_text().splitlines()]
    cardlab = [r for r in reqs if r.startswith("-e .[")]
    assert len(cardlab) == 1 and "notebook" in cardlab[0][5:-1].split(","), reqs
    runtime_python()
    start = BINDER / "start"
    if start.exists():
        assert start.read_text().rstrip().endswith('exec "$@"'), "binder/start must end with exec \"$@\""


def test_repo2docker_no_build():
    """repo2docker --no-build --debug: valid config, Python of runtime.txt,
    pip install -r binder/requirements.txt after the repository is copied."""
    pytest.importorskip("repo2docker", reason="pip install jupyter-repo2docker (cardlab's test extra)")
    exe = Path(sys.executable).parent / "repo2docker"
    done = subprocess.run([str(exe), "--no-build", "--debug", str(ROOT)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=300)
    out = done.stdout
    assert done.returncode == 0, out[-3000:]
    assert f"python={runtime_python()}" in out, out[:2000]
    assert "FROM " in out
    copy = out.index("COPY --chown=0:0 src/ ${REPO_DIR}/")
    install = out.index('pip install --no-cache-dir -r "binder/requirements.txt"')
    assert copy < install  # `-e .` needs the repository in place


def test_readme_binder_badge_opens_the_welcome_notebook():
    """The README's badge: mybinder.org, JupyterLab at notebooks/00_welcome.ipynb."""
    readme = (ROOT / "README.md").read_text("utf-8")
    links = re.findall(r"\]\((https://mybinder\.org/v2/[^)\s]+)\)", readme)
    assert links, "no mybinder.org link in README.md"
    for link in links:
        url = urlparse(link)
        assert re.fullmatch(r"/v2/gh/[\w.-]+/[\w.-]+/[\w./-]+", url.path), link
        urlpath = parse_qs(url.query)["urlpath"][0]
        kind, _, target = urlpath.partition("/")
        assert kind in ("lab", "voila"), link
        path = target.removeprefix("tree/").removeprefix("render/")
        assert (ROOT / path).is_file(), f"{link}: no {path} in the repository"
    assert any("urlpath=lab/tree/notebooks/00_welcome.ipynb" in link for link in links), links


def _repository_files() -> list[str]:
    """The files a clone has: the tracked ones (as they are in the working
    tree; a new file counts once it is added to git)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached"],
                         cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout.decode()
    return sorted({f for f in out.split("\0") if f and (ROOT / f).is_file()})


RUNNER = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    report = {}
    for path in sorted(Path("notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        # where the kernel's Python and cardlab come from: the fresh environment
        nb.cells.append(nbformat.v4.new_code_cell(
            "import sys, cardlab; print(sys.prefix); print(cardlab.__file__)"))
        try:
            NotebookClient(nb, timeout=900, kernel_name="python3",
                           resources={"metadata": {"path": str(path.parent)}}).execute()
        except CellExecutionError as error:
            report[path.name] = {"error": str(error)[-3000:]}
            continue
        where = "".join(o.get("text", "") for o in nb.cells[-1].outputs).split()
        stderr = [o["text"] for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if o.get("name") == "stderr"]
        report[path.name] = {"where": where, "stderr": stderr}
    print(json.dumps(report))
""")


@pytest.mark.slow
def test_binder_simulation(tmp_path):
    """A fresh venv from binder/ only runs every notebook (nbclient)."""
    version = runtime_python()
    python = shutil.which(f"python{version}")
    if python is None and f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        python = sys.executable
    if python is None:
        pytest.skip(f"no python{version} here (binder/runtime.txt)")
    repo = tmp_path / "repo"
    for f in _repository_files():
        if f.startswith(".venv/"):
            continue
        (repo / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, repo / f)
    # a clean environment: nothing from the developer's venv, user site or Jupyter dirs
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("VIRTUAL_ENV", "PYTHON", "JUPYTER", "CONDA", "PIP_"))}
    venv = tmp_path / "venv"
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               JUPYTER_DATA_DIR=str(tmp_path / "jupyter-data"), JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter-config"),
               JUPYTER_RUNTIME_DIR=str(tmp_path / "jupyter-runtime"), IPYTHONDIR=str(tmp_path / "ipython"),
               MPLCONFIGDIR=str(tmp_path / "mpl"),
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")

    def run(cmd, timeout=900):
        done = subprocess.run(cmd, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, timeout=timeout)
        assert done.returncode == 0, f"{' '.join(map(str, cmd))}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    run([python, "-m", "venv", str(venv)])
    run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"])
    if (repo / "binder" / "postBuild").exists():
        run(["bash", "binder/postBuild"])
    # make lab's environment too (tests/test_fresh_environment.py): the test tools are not there
    absent = subprocess.run([str(venv / "bin" / "python"), "-c", "import nbval"], cwd=repo, env=env,
                            capture_output=True)
    assert absent.returncode != 0, "nbval is installed: this is not the environment make lab makes"
    report = json.loads(run([str(venv / "bin" / "python"), "-c", RUNNER], timeout=3600).splitlines()[-1])
    assert report, "no notebook ran"
    assert (repo / "notebooks" / "00_welcome.ipynb").exists() and "00_welcome.ipynb" in report
    failed = {nb: r["error"] for nb, r in report.items() if "error" in r}
    assert not failed, "notebooks fail in the Binder environment:\n" + "\n\n".join(
        f"--- {nb}\n{err}" for nb, err in failed.items())
    for nb, r in report.items():
        prefix, module = r["where"]
        assert Path(prefix) == venv, f"{nb} ran in {prefix}, not the fresh environment"
        assert Path(module).is_relative_to(repo), f"{nb} imported cardlab from {module}"
