"""The compact core against its State on every reachable state (issue S,
item 7), written once for every game: as OpenSpiel checks its Python games
against their C++ twins, not on a sample.

``every_state(root, core)`` walks breadth first every state reachable from
``root`` (equal states merged), and at each checks what ``tests/test_cores.py``
checks move by move on random games: ``encode`` and ``decode``, the player,
the simultaneous flag, the payoffs, the chance probabilities (exact), the
moves in the same order (each move reaches the same position on both sides),
and the core's optional parts (``uniform_chance``, ``random_move``).  It
returns the number of states, which each test compares with the number it
states, so a walk that shrinks shows.

``notation(code, state) -> str``, when given, also checks each move's and
outcome's own name (for a core whose moves can be written as actions).
``returns_before_end=True`` also compares the payoffs before the end (zeros,
as ``State.returns()`` gives them), for a core whose ``returns`` answers there.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import Any, Callable

from cardlab import CHANCE, TERMINAL


def check(state: Any, core: Any, pos: Any, notation: Callable[[int, Any], str] | None = None,
          returns_before_end: bool = False) -> list:
    """Compare one state with the core; its children as ``(state, pos)`` pairs."""
    where = state.to_dict()
    assert core.encode(state) == pos, where
    assert core.decode(pos) == state, where
    p = state.current_player
    assert core.player(pos) == p, where
    if state.game.spec.simultaneous:
        assert core.simultaneous(pos) == bool(p >= 0 and state.simultaneous()), where
    if p == TERMINAL:
        assert tuple(core.returns(pos)) == tuple(state.returns()), where
        return []
    if returns_before_end:
        assert tuple(core.returns(pos)) == tuple(state.returns()), where
    if p == CHANCE:
        outs, probs = core.chance(pos), state.chance_outcomes()
        total = sum(w for _, w in outs)
        assert [Fraction(w, total) for _, w in outs] == [q for _, q in probs], where
        if notation is not None:
            assert [notation(m, state) for m, _ in outs] == [a for a, _ in probs], where
        if getattr(core, "uniform_chance", False):  # what playout's draw by index relies on
            assert len({w for _, w in outs}) == 1, where
        pairs = [(a, m) for (a, _), (m, _) in zip(probs, outs)]
    else:
        moves, acts = core.moves(pos), state.legal_actions()
        assert len(moves) == len(acts), (where, acts)
        if notation is not None:
            assert [notation(m, state) for m in moves] == acts, where
        if getattr(core, "random_move", None) is not None:  # what rng.choice(moves) would draw
            for k in range(len(moves)):
                drawn: list[int] = []
                assert core.random_move(pos, lambda n: drawn.append(n) or k) == moves[k], (where, k)
                assert drawn == [len(moves)]  # one draw, among all the moves
        pairs = list(zip(acts, moves))
    children = []
    for a, m in pairs:  # the same order: each move leads to the same position on both sides
        child, child_pos = state._apply(a), core.play(pos, m)
        assert core.encode(child) == child_pos, (where, a)
        children.append((child, child_pos))
    return children


def every_state(root: Any, core: Any, notation: Callable[[int, Any], str] | None = None,
                returns_before_end: bool = False) -> int:
    """Check every state reachable from ``root`` once; their number."""
    seen = {root}
    todo = deque([(root, core.encode(root))])
    while todo:
        state, pos = todo.popleft()
        for child, child_pos in check(state, core, pos, notation, returns_before_end):
            if child not in seen:
                seen.add(child)
                todo.append((child, child_pos))
    return len(seen)
