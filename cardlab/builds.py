"""Which build of cardlab's typed modules runs (issue X): compiled or as Python.

The typed modules (``cardlab/games/mipig/wcore.py``: Cython's pure-Python mode) are
compiled by ``pip install .`` where a C compiler and Cython are there (``setup.py``);
the compiled module sits next to its ``.py``.  :func:`import_typed` imports one:
compiled, except

- with ``CARDLAB_PURE=1`` in the environment (:func:`pure`): the ``.py`` runs as
  Python, as on a machine without a compiler or on the JupyterLite site;
- where the ``.py`` was changed after it was compiled (an editable install whose
  source moved on: ``pip install -e .`` compiles it again): the ``.py`` runs, with a
  warning, rather than an old build of it.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType

__all__ = ["pure", "compiled", "import_typed"]

#: the compiled module counts as built from its ``.py`` unless the ``.py`` is this many
#: seconds newer (an install writes the two one after the other)
SLACK = 2.0


def pure() -> bool:
    """Whether the environment forces the pure path: ``CARDLAB_PURE`` set and not ``0``."""
    return os.environ.get("CARDLAB_PURE", "") not in ("", "0")


def compiled(module: ModuleType | None) -> bool | None:
    """Whether ``module`` was loaded compiled (from an extension, not its ``.py``); None
    for no module."""
    if module is None:
        return None
    return not (getattr(module, "__file__", None) or "").endswith(".py")


def import_typed(name: str) -> ModuleType:
    """Import the typed module ``name`` (``cardlab.games.mipig.wcore``): compiled where it
    is built, up to date and not turned off (:func:`pure`), else from its ``.py``."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None or spec.origin.endswith(".py"):
        return importlib.import_module(name)  # not compiled
    source = Path(spec.origin).parent / (name.rpartition(".")[2] + ".py")
    if not source.exists():
        return importlib.import_module(name)
    if not pure():
        if source.stat().st_mtime <= Path(spec.origin).stat().st_mtime + SLACK:
            return importlib.import_module(name)
        warnings.warn(f"{source} is newer than its compiled module: it runs as Python "
                      "(pip install -e . compiles it again)", RuntimeWarning, stacklevel=2)
    spec = importlib.util.spec_from_file_location(name, source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
