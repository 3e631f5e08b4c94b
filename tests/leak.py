"""The leak test's tools: what a viewer is shown of a position and of a move,
and pairs of histories that viewer cannot tell apart.

*Equal information, equal output*: for every position and move, re-deal
everything the viewer cannot see (:meth:`cardlab.State.redeal`), find a move
there that leaves the viewer with the same information, and compare every
text and picture the viewer would be shown, byte for byte.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import cardlab
from cardlab import CHANCE, render
from cardlab.core import sample_chance


def enough(game, usual: int, short: int) -> int:
    """How many differing twins a fair-play test needs before it may say it
    tested something: ``usual``, or ``short`` for a game of at most ten moves
    (a toy game of tests/toy_games has few positions to re-deal)."""
    return usual if (game.spec.max_game_length or 99) > 10 else short


def choices(s) -> list[str]:
    return [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()


def state_view(s, v: int) -> dict[str, Any]:
    """Everything of position ``s`` that a board, the command line or a page
    shows viewer ``v``: the table (HTML and text), the grid layout with its
    squares and, for the player to move, their hand and their moves."""
    out: dict[str, Any] = {"html": render.html(s, perspective=v), "text": render.text(s, perspective=v)}
    lay = render.layout(s, perspective=v)
    if lay is not None:
        out["layout"] = (lay.above, lay.below, sorted(lay.squares.items()), lay.grid_title, lay.items,
                         lay.items_title, sorted(lay.paths.items()), lay.prompts, lay.labels)
    if s.current_player == v:
        out["moves"] = [(a, render.action_label(s, a)) for a in s.legal_actions()]
    return out


def move_view(s, a: str, v: int) -> render.SeenMove:
    """Everything of move ``a`` in ``s`` that is shown to viewer ``v``."""
    return render.seen_move(s, a, v)


def twin(s, a: str, v: int, rng: random.Random, tries: int = 6):
    """A position ``t`` that ``v`` cannot tell from ``s`` (a re-deal) and
    the move ``b`` there that is ``a`` with other hidden cards: ``a`` itself
    when it is legal in ``t`` and leaves ``v`` knowing the same, else the
    move that does and differs from ``a`` in the fewest words (only for a
    viewer who did not make the move).  ``None``
    when the re-deals tried have no such move."""
    after = s.apply(a).information_set(v)
    words = a.split()

    def distance(b: str) -> int:
        w = b.split()
        return sum(x != y for x, y in zip(w, words)) + 10 * abs(len(w) - len(words))

    for _ in range(tries):
        t = s.redeal(v, rng)
        same = [b for b in choices(t) if t.apply(b).information_set(v) == after]
        if a in same:
            return t, a
        if same and s.current_player != v:  # an actor knows their own move
            best = min(map(distance, same))
            return t, rng.choice([b for b in same if distance(b) == best])
    return None


def class_twin(s, a: str, rng: random.Random, tries: int = 6):
    """A position and move the class (:data:`cardlab.render.SPECTATOR`, who
    sees only what every seat sees) cannot tell from ``(s, a)``: a twin for
    seat 0 (:func:`twin`), then a twin of that for seat 1, and so on; what
    every seat sees is kept by each step.  ``None`` when a step found none."""
    found = (s, a)
    for v in range(s.game.spec.num_players):
        found = twin(*found, v, rng, tries)
        if found is None:
            return None
    return found


def positions(game, seeds, agents=("random",)) -> Iterator[tuple[Any, str]]:
    """Every position of seeded games (to the very end: last cards, nearly
    empty decks) with the move taken there."""
    for seed in seeds:
        rng = random.Random(seed)
        name = agents[seed % len(agents)]
        seats = [cardlab.agents.make(name, seed=rng.randrange(2**32)) for _ in range(game.spec.num_players)]
        s = game.new_initial_state()
        while not s.is_terminal():
            a = sample_chance(s, rng) if s.current_player == CHANCE else seats[s.current_player].choose(s)
            yield s, a
            s = s.apply(a)


def open_average(s, p: int, worlds) -> dict[str, Any]:
    """The brute force the fair hint is checked against: ``worlds`` are
    ``(position, weight)`` pairs that player ``p`` cannot tell from ``s``,
    found by a route of the test's own (every order of the unseen cards,
    say); each is solved with open hands after each legal action of ``s``
    and the values for ``p`` are averaged by the weights (normalised here)."""
    from fractions import Fraction

    from cardlab.agents import open_hands_copy

    totals = {a: Fraction(0) for a in s.legal_actions()}
    solved: dict = {}
    mass = Fraction(0)
    for world, weight in worlds:
        assert world.information_set(p) == s.information_set(p)
        opened = open_hands_copy(world)
        for a in totals:
            child = opened.apply(a)
            if child not in solved:
                solved[child] = child.returns()[p] if child.is_terminal() else cardlab.solve(child).values[p]
            totals[a] += weight * solved[child]
        mass += weight
    return {a: v / mass for a, v in totals.items()}
