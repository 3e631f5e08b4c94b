"""Shared fixtures: the registered games, each with and without open hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardlab

DATA = Path(__file__).parent / "data"


def game_variants():
    """(id, game) for every registered game: default options, and open hands."""
    out = []
    for name in cardlab.games():
        out.append((name, cardlab.load(name)))
        if "open_hands" in cardlab.load(name).OPTIONS:
            out.append((f"{name}-open", cardlab.load(name, open_hands=True)))
    return out


VARIANTS = game_variants()


@pytest.fixture(params=[g for _, g in VARIANTS], ids=[i for i, _ in VARIANTS])
def game(request):
    return request.param


@pytest.fixture(params=cardlab.games())
def game_name(request):
    return request.param


def reference_positions():
    """Solver reference positions of every game: tests/data/reference_positions.json."""
    return json.loads((DATA / "reference_positions.json").read_text("utf-8"))
