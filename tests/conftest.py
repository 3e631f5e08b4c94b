"""Shared fixtures: the catalogue's games, each with and without open hands,
and the toy games of ``tests/toy_games/`` (a game added there is tested like
the catalogue's: conformance, leak test, trees, solver, board)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

import cardlab

# the tests read cardlab's texts in English whatever the machine's LANG says; a test
# that wants Japanese asks for it (cardlab.i18n.using("ja"), language="ja", --lang ja)
cardlab.set_language("en")

DATA = Path(__file__).parent / "data"


def toy_games():
    """The packages of ``tests/toy_games/`` (each names its Game ``GAME``, as a
    package of the catalogue does), imported by name: ``tests/`` is on
    ``sys.path`` through this file."""
    folder = Path(__file__).parent / "toy_games"
    return [importlib.import_module(f"toy_games.{p.name}")
            for p in sorted(folder.iterdir()) if (p / "__init__.py").is_file()]


TOY_GAMES = toy_games()


def game_variants():
    """(id, game) for every game of the catalogue (default options, and open
    hands) and every toy game."""
    out = []
    for name in cardlab.games():
        out.append((name, cardlab.load(name)))
        if "open_hands" in cardlab.load(name).OPTIONS:
            out.append((f"{name}-open", cardlab.load(name, open_hands=True)))
    for toy in TOY_GAMES:
        out.append((toy.GAME.name, toy.GAME()))
    return out


VARIANTS = game_variants()


@pytest.fixture(params=[g for _, g in VARIANTS], ids=[i for i, _ in VARIANTS])
def game(request):
    return request.param


@pytest.fixture(params=cardlab.games())
def game_name(request):
    return request.param


def data_entries(kind: str):
    """``(id, game, entry)`` for every entry of ``tests/data/<kind>/<game>.json``
    whose game is registered (kind: ``perft`` or ``reference``)."""
    out = []
    for path in sorted((DATA / kind).glob("*.json")):
        if path.stem not in cardlab.games():
            continue
        for i, entry in enumerate(json.loads(path.read_text("utf-8"))):
            game = cardlab.load(path.stem, **entry.get("options", {}))
            out.append((f"{path.stem}-{entry.get('name', i)}", game, entry))
    return out


def position(game, entry):
    """The state an entry describes: ``position`` (a dict) or ``seed`` (a deal)."""
    if "position" in entry:
        return game.state_from_dict(entry["position"])
    return game.new_initial_state(seed=entry["seed"])


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium under playwright, shared by the browser tests (no
    browser download: apt installs chromium when missing, as root in CI)."""
    pytest.importorskip("playwright.sync_api", reason="pip install playwright (cardlab's test extra)")
    from playwright.sync_api import sync_playwright

    from browser_support import ensure_chromium

    chromium = ensure_chromium()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, headless=True)
        yield b
        b.close()
