"""Deprecated name of :mod:`cardlab.matrix` (the matrix-game maths, which the
games, the solver and the equilibrium code share): ``from cardlab.matrix
import matrix_solution``."""

import warnings

from .matrix import MatrixSolution, capped_value, matrix_solution, repeated_value

warnings.warn("cardlab.simultaneous is now cardlab.matrix", DeprecationWarning, stacklevel=2)

__all__ = ["MatrixSolution", "matrix_solution", "repeated_value", "capped_value"]
