"""Positions the tests of several files build, written once (issue S, item 7):
``from builders import mipig_battle``.  ``tests/`` is on ``sys.path``
through its conftest, so a test in ``tests/games/<g>/`` imports them too."""

from __future__ import annotations

import cardlab


def mipig_battle(cells, graves=([], []), mover=0, hand_size=None, **options):
    """A battle-phase position of cardlab's own cards: cells are (x, y, owner, card, face_up)."""
    n = hand_size or max(sum(1 for c in cells if c[2] == p) + len(graves[p]) for p in (0, 1))
    game = cardlab.load("mipig", hand_size=n, first_player=0, **options)
    return game.state_from_dict({
        "phase": "battle", "to_move": mover, "first_player": 0, "decided_by": "option",
        "hands": [[], []], "graveyards": [list(graves[0]), list(graves[1])],
        "field": [{"x": x, "y": y, "owner": o, "card": c, "face_up": u} for x, y, o, c, u in cells],
        "janken_round": 0, "pending": None, "shown": [[], []], "outcome": None,
        "options": game.options_dict()})
