"""Compile cardlab's hot modules from their own ``.py`` source (issue X, item 1's first
step: choose the compiler by measurement on mipig).

Two ways, the same source: Cython in pure-Python mode (``cythonize`` of the ``.py``
files; Cython reads plain Python), also with Cython's augmenting ``.pxd`` files of
``build_tools/augment/`` copied next to their ``.py`` (``cython-pxd``: ``Search`` an
extension type with C counters and cpdef methods), and mypyc (compiles
type-checked Python; its types are checked at run time).  None changes the ``.py``
files: where nothing is compiled they import and run as Python.

By default each build goes to a copy of the package, ``build/compiled/<tool>/cardlab``
(``.so`` files next to their ``.py``), so the pure, the Cython and the mypyc builds
can be measured side by side (``benchmarks/compiled_speed.py`` puts a copy first on
``sys.path``); ``--inplace`` compiles into ``cardlab/`` itself (remove the ``.so``
files to get the pure build back)::

    python build_tools/build_compiled.py cython cython-pxd mypyc   # the copies; prints the compile times
    python build_tools/build_compiled.py cython --inplace
    python build_tools/build_compiled.py cython --typed-only   # the word cores alone, as pip install . builds
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the modules compiled: mipig's compact core, the playout loop, the exact search
MODULES = ["cardlab/games/mipig/core.py", "cardlab/cores.py", "cardlab/search.py"]
#: modules typed for Cython's pure-Python mode (C words, ``import cython``): Cython builds only
TYPED = sorted(p.relative_to(ROOT).as_posix() for p in ROOT.glob("cardlab/games/*/wcore.py")) + ["cardlab/wsearch.py"]
BIN = Path(sys.executable).parent


def command(tool: str, modules: list[str]) -> list[str]:
    if tool in ("cython", "cython-pxd"):
        return [str(BIN / "cythonize"), "-i", "-3", "-j", "1", *modules]
    if tool == "mypyc":
        return [str(BIN / "mypyc"), *modules]
    raise SystemExit(f"unknown tool {tool!r}: cython or mypyc")


def build(tool: str, inplace: bool = False, modules: list[str] | None = None, name: str | None = None) -> dict:
    """Compile ``modules`` with ``tool`` (by default :data:`MODULES`, and :data:`TYPED` for
    Cython) into ``build/compiled/<name>`` (``name`` by default ``tool``);
    ``{"dir", "seconds", "cpu"}`` (wall and the compiler processes' CPU seconds)."""
    if modules is None:
        modules = MODULES + (TYPED if tool.startswith("cython") else [])
    where = ROOT if inplace else ROOT / "build" / "compiled" / (name or tool)
    if not inplace:
        if where.exists():
            shutil.rmtree(where)
        where.mkdir(parents=True)
        shutil.copytree(ROOT / "cardlab", where / "cardlab",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    if tool == "cython-pxd":  # Cython's augmenting .pxd files next to their .py (the .py unchanged)
        shutil.copytree(ROOT / "build_tools" / "augment" / "cardlab", where / "cardlab", dirs_exist_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(command(tool, modules), cwd=where, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode:
        sys.stderr.write(run.stdout[-4000:] + run.stderr[-4000:])
        raise SystemExit(f"{tool}: the build failed")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"dir": str(where), "seconds": seconds, "cpu": cpu}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tools", nargs="+", choices=("cython", "cython-pxd", "mypyc"))
    ap.add_argument("--inplace", action="store_true", help="compile into cardlab/ itself")
    ap.add_argument("--typed-only", action="store_true",
                    help="only the typed modules (what `pip install .` compiles): into build/compiled/<tool>-typed")
    args = ap.parse_args(argv)
    for tool in args.tools:
        modules = TYPED if args.typed_only else None
        got = build(tool, args.inplace, modules, f"{tool}-typed" if args.typed_only else None)
        count = len(modules) if modules else len(MODULES) + (len(TYPED) if tool.startswith("cython") else 0)
        print(f"{tool}: {count} modules in {got['seconds']:.1f} s wall, {got['cpu']:.1f} s CPU -> {got['dir']}")


if __name__ == "__main__":
    main()
