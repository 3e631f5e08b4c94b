"""A module imported where it is first used, not where it is named.

A class's pupils each have a kernel of their own (``make play``: one a
page), and none of them draws a game tree: networkx alone was a third of
such a kernel's memory (22 MB of 61 after ``import cardlab.widgets``).  The
modules that build trees name it through :func:`lazy`, so ``import cardlab``
still needs it installed (a declared dependency) but loads it only when a
tree, a tree solve or a tree view is asked for.

>>> import sys
>>> nx = lazy("networkx")
>>> nx.DiGraph.__name__, "networkx" in sys.modules
('DiGraph', True)
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

__all__ = ["lazy"]


class _Lazy(ModuleType):
    """Stands for the module ``name`` until an attribute is read: then the
    module is imported and its names copied here (later reads are plain)."""

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(vars(module))
        return getattr(module, attr)


def lazy(name: str) -> Any:
    """The module ``name``, imported at its first attribute read."""
    return _Lazy(name)
