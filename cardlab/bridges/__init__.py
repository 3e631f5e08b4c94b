"""Bridges to the tools users already hold: Gambit (``.efg`` files, optional
``pygambit``) and OpenSpiel (an adapter registering cardlab games as
OpenSpiel Python games, optional ``open-spiel``).

The optional packages are imported lazily, inside the functions that need
them, so ``import cardlab.bridges.gambit`` works without them.
"""

__all__ = ["gambit", "openspiel"]
