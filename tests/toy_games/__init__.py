"""Toy games: each package here is a game outside cardlab's catalogue that the
shared tests (conformance, leak test, trees, solver, board) take as they take the
catalogue's games (tests/conftest.py finds them). Adding one is adding a folder."""
