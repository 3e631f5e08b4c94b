"""cardlab's compiled modules (issue X): everything else is in pyproject.toml.

``pip install .`` (and ``-e .``, and a wheel build) compiles the typed modules of
:data:`TYPED` (Cython's pure-Python mode: the ``.py`` is the source, it runs as Python
where nothing compiles) with Cython, where Cython (a build requirement, pure Python
where it has no wheel) and a C compiler are there.  Each is an optional extension:
where it fails to build (no compiler, no Python headers) setuptools skips it and the
install is the pure one, without a word.  ``CARDLAB_PURE=1`` builds the pure wheel on
purpose (the JupyterLite site's: ``py3-none-any``).  ``cardlab.build_info()`` says what
an install runs compiled.
"""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

#: the modules compiled (module name, source): the typed ones, each game's word core and the
#: search on words (build_tools/build_compiled.py)
TYPED = sorted((f"cardlab.games.{path.parent.name}.wcore", path.as_posix())
               for path in Path("cardlab/games").glob("*/wcore.py")) + [("cardlab.wsearch", "cardlab/wsearch.py")]


def compiler_found() -> bool:
    """Whether the C compiler the build would call is there (sysconfig's ``CC``, or
    ``$CC``): without one, no time is spent turning the sources into C."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def ext_modules() -> list[Extension]:
    if os.environ.get("CARDLAB_PURE", "") not in ("", "0") or not compiler_found():
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # no Cython (a build without isolation in an environment without it)
        return []
    extensions = cythonize([Extension(name, [source]) for name, source in TYPED],
                           language_level=3, quiet=True, build_dir="build/cython")
    for extension in extensions:  # (set after cythonize: it makes new Extensions, without the flag)
        extension.optional = True
    return extensions


setup(ext_modules=ext_modules())
