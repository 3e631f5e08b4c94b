"""Build the JupyterLite classroom site (``make lite``): JupyterLab and a
Python kernel (Pyodide) that run in the browser from static files.

Offline by construction: nothing is fetched at run time.

- Pyodide's runtime comes from the npm package ``pyodide`` (installed into
  ``build/lite/npm``), the version that jupyterlite-pyodide-kernel expects
  (its ``PYODIDE_VERSION``), and is served from ``static/pyodide/``.  The npm
  package holds no packages, so the pure-Python wheels the kernel itself loads
  from Pyodide's lock file (micropip, IPython and their dependencies) are
  downloaded from PyPI and put next to it; the lock file keeps only those.
- cardlab's own wheel and what it needs (``lite/wheels.txt``) are served from
  the site's ``pypi/`` folder (piplite); PyPI fallback is switched off
  (``lite/jupyter-lite.json``).
- The notebooks are Lite copies of ``notebooks/*.ipynb``: outputs cleared, a
  first cell that installs cardlab from the site, and the cells tagged
  ``lite-skip-<why>`` (Dask, OpenSpiel, Gambit, processes, slow solves, long runs, matplotlib)
  replaced by one sentence saying why (``lite-skip``: left out silently).

Usage: ``python lite/build.py [--out _site]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from jupyterlite_pyodide_kernel.constants import PYODIDE_PYTHON_VERSION, PYODIDE_VERSION

ROOT = Path(__file__).resolve().parent.parent
LITE = ROOT / "lite"
BUILD = ROOT / "build" / "lite"
PIP = [sys.executable, "-m", "pip"]

#: the notebooks of the site, in the order of the welcome notebook
NOTEBOOKS = ["00_welcome", "koinobori", "mipig", "mazemon", "monster_cards", "toritsuki", "puzzles", "play"]
#: and their Japanese editions (notebooks/ja/, issue M)
NOTEBOOKS += [f"ja/{name}" for name in NOTEBOOKS[:-1]]
#: the page the site opens on
START = "notebooks/00_welcome.ipynb"
#: what the kernel loads from Pyodide's lock file by itself (micropip, then
#: piplite installs ipython and jedi); their dependencies are added from the lock
KERNEL_LOCK_PACKAGES = ["micropip", "ipython", "jedi"]
#: Pyodide's runtime files from the npm package
RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide.js"]

#: the sentence that replaces the cells tagged lite-skip-<why>
WHY = {
    "dask": "*In the browser version this part is left out: a Dask cluster needs processes and a network, "
            "which a web page does not have.*",
    "processes": "*In the browser version this part is left out: it runs games on several processes, "
                 "and a web page has only one.*",
    "openspiel": "*In the browser version this part is left out: OpenSpiel is a compiled library that "
                 "does not exist for the browser's Python.*",
    "gambit": "*In the browser version this part is left out: Gambit is a compiled library that does not "
              "exist for the browser's Python.*",
    "slow": "*In the browser version this part is left out: its exact solve takes minutes in a browser; "
            "run it in JupyterLab (`make lab`).*",
    "long": "*In the browser version this part is left out to keep the notebook under a minute: it plays or "
            "solves many whole games, seconds in JupyterLab but several times that in a browser; run it in "
            "JupyterLab (`make lab`).*",
    "matplotlib": "*In the browser version this part is left out: the picture needs matplotlib, which this "
                  "offline site does not carry; in JupyterLab (`make lab`) and on the board (*review this game*) "
                  "it is drawn.*",
    "server": "*In the browser version this part is left out: it needs a server (Voila, the class rooms), "
              "and this site has none.*",
}
#: the last cell of the welcome notebook in the browser: what this site leaves out
WELCOME_NOTE = ("*This is the browser copy of cardlab (JupyterLite): the welcome notebook, the five tutorials, "
                "the puzzles and play.ipynb run here with nothing installed. The analysts' notebooks "
                "(trees_and_solving, batch_analysis, rule_design) and the class rooms need a full Python: "
                "`make lab`.*")
WELCOME_NOTE_JA = ("*これはブラウザだけで動く cardlab（JupyterLite）です。ようこそのノートブックと五つのチュートリアル、"
                   "パズル、play.ipynb は何もインストールせずにここで動きます。分析用のノートブック（trees_and_solving、"
                   "batch_analysis、rule_design）とクラスのルームには、ふつうの Python が必要です：`make lab`。*")
#: the first cell of every Lite notebook
INSTALL = ("# in the browser: install cardlab from this site's own wheels (nothing comes from the internet)\n"
           "%pip install -q cardlab ipywidgets")


def run(cmd: list[str], **kw) -> None:
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run(cmd, check=True, **kw)


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pyodide_runtime(dest: Path) -> None:
    """Pyodide's runtime from npm, the wheels the kernel loads from the lock
    file (from PyPI), and a lock file that lists only those."""
    npm = BUILD / "npm"
    pkg = npm / "node_modules" / "pyodide"
    if shutil.which("npm") is None:
        raise SystemExit("make lite needs npm for Pyodide's runtime (the npm package pyodide): apt-get install npm")
    if not (pkg / "package.json").exists() or json.loads((pkg / "package.json").read_text())["version"] != PYODIDE_VERSION:
        npm.mkdir(parents=True, exist_ok=True)
        (npm / "package.json").write_text('{"private": true}\n')
        run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(npm), f"pyodide@{PYODIDE_VERSION}"])
    dest.mkdir(parents=True)
    for name in RUNTIME:
        shutil.copy2(pkg / name, dest / name)
    lock = json.loads((pkg / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    key = {canonical(k): k for k in packages}  # the lock's depends spell names either way (prompt_toolkit)
    need, todo = set(), list(KERNEL_LOCK_PACKAGES)
    while todo:
        name = key[canonical(todo.pop())]
        if name not in need:
            need.add(name)
            todo.extend(packages[name]["depends"])
    cache = BUILD / "lock-wheels"
    cache.mkdir(parents=True, exist_ok=True)
    missing = [n for n in sorted(need) if not (cache / packages[n]["file_name"]).exists()]
    if missing:
        run([*PIP, "download", "--quiet", "--no-deps", "--only-binary=:all:", "--python-version",
             PYODIDE_PYTHON_VERSION, "--dest", str(cache),
             *(f"{n}=={packages[n]['version']}" for n in missing)])
    kept = {}
    for name in sorted(need):
        entry = dict(packages[name])
        wheel = cache / entry["file_name"]
        if not wheel.exists():
            raise SystemExit(f"PyPI gave no {entry['file_name']} for Pyodide's lock entry {name}")
        shutil.copy2(wheel, dest / wheel.name)
        entry["sha256"] = sha256(wheel)
        kept[name] = entry
    lock["packages"] = kept
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1) + "\n")


def wheels(dest: Path) -> None:
    """cardlab's wheel and the pinned wheels of lite/wheels.txt."""
    dest.mkdir(parents=True)
    # the pure wheel (py3-none-any, what Pyodide installs): nothing compiled (setup.py)
    run([*PIP, "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dest), str(ROOT)],
        env=dict(os.environ, CARDLAB_PURE="1"))
    cache = BUILD / "wheels"
    run([*PIP, "download", "--quiet", "--no-deps", "--only-binary=:all:", "--python-version",
         PYODIDE_PYTHON_VERSION, "--dest", str(cache), "-r", str(LITE / "wheels.txt")])
    pins = [line.split("==") for line in (LITE / "wheels.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    for name, version in pins:
        stem = f"{name.replace('-', '_')}-{version}-"
        found = [w for w in cache.glob("*.whl") if w.name.lower().startswith(stem.lower())]
        if len(found) != 1:
            raise SystemExit(f"expected one wheel {stem}*.whl in {cache}, found {found}")
        shutil.copy2(found[0], dest / found[0].name)


def lite_notebook(nb: dict, name: str) -> dict:
    """The Lite copy of the notebook ``nb`` (notebooks/NAME.ipynb, read as JSON)."""
    nb = dict(nb, metadata=dict(nb["metadata"]))
    cells = [{"cell_type": "code", "execution_count": None, "id": "lite-install",
              "metadata": {}, "outputs": [], "source": INSTALL}]
    last_why = None
    for cell in nb["cells"]:
        tags = cell["metadata"].get("tags", [])
        why = next((t.removeprefix("lite-skip-") for t in tags if t.startswith("lite-skip-")), None)
        if "lite-skip" in tags:
            continue
        if why:
            if why not in WHY:
                raise SystemExit(f"notebooks/{name}.ipynb: cell tag lite-skip-{why} is not known; "
                                 f"accepted: lite-skip, {', '.join('lite-skip-' + w for w in WHY)}")
            if why != last_why:  # one sentence for a run of cells left out for the same reason
                cells.append({"cell_type": "markdown", "id": f"lite-why-{len(cells)}", "metadata": {},
                              "source": WHY[why]})
            last_why = why
            continue
        last_why = None
        cell = dict(cell)
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        cells.append(cell)
    if name == "00_welcome":
        cells.append({"cell_type": "markdown", "id": "lite-note", "metadata": {}, "source": WELCOME_NOTE})
    if name == "ja/00_welcome":
        cells.append({"cell_type": "markdown", "id": "lite-note", "metadata": {}, "source": WELCOME_NOTE_JA})
    nb["cells"] = cells
    nb["metadata"]["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
    return nb


def contents(dest: Path) -> None:
    (dest / "notebooks").mkdir(parents=True)
    for name in NOTEBOOKS:
        nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text("utf-8"))
        text = json.dumps(lite_notebook(nb, name), indent=1, ensure_ascii=False) + "\n"
        (dest / "notebooks" / f"{name}.ipynb").parent.mkdir(parents=True, exist_ok=True)
        (dest / "notebooks" / f"{name}.ipynb").write_text(text, "utf-8")
    shutil.copytree(ROOT / "docs" / "rules", dest / "docs" / "rules")  # the notebooks link to the digests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_site", help="the site's folder (default _site)")
    out = parser.parse_args().out.resolve()
    stage = BUILD / "stage"  # the lite dir jupyter lite builds from
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    for name in ["jupyter-lite.json", "overrides.json"]:  # the kernel's settings; JupyterLab's (no news fetch)
        shutil.copy2(LITE / name, stage / name)
    pyodide_runtime(stage / "static" / "pyodide")
    wheels(stage / "pypi")
    contents(stage / "files")
    shutil.rmtree(out, ignore_errors=True)
    run([str(Path(sys.executable).parent / "jupyter"), "lite", "build", "--lite-dir", str(stage),
         "--contents", str(stage / "files"), "--output-dir", str(out), "--no-sourcemaps"], cwd=stage)
    # the site's address opens the welcome notebook (the config script stays: the app reads it)
    (out / "index.html").write_text(
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>cardlab</title>\n'
        '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">{}</script>\n'
        f'<meta http-equiv="refresh" content="0; url=lab/index.html?path={START}"></head>\n'
        f'<body><a href="lab/index.html?path={START}">cardlab: the welcome notebook</a></body></html>\n')
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve every file as it is
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} ({size / 2**20:.0f} MB, Pyodide {PYODIDE_VERSION})")


if __name__ == "__main__":
    main()
