"""Fair play: no hidden card reaches a viewer who may not see it.

The leak test (equal information, equal output) runs on every registered
game: for positions of random and agent play, every viewer, and re-deals of
what that viewer cannot see, every text and picture shown must be the same.
"""

from __future__ import annotations

import random

from leak import class_twin, enough, move_view, positions, state_view, twin

import cardlab
from cardlab.render import SPECTATOR

SEEDS = range(12)


def test_leak_equal_information_equal_output(game):
    """Positions and moves a viewer cannot tell apart look the same to that
    viewer: the table, the grid, the hand and moves of the player to move,
    and every move's log line, explanation and picture."""
    rng = random.Random(1)
    n = game.spec.num_players
    compared = 0
    for s, a in positions(game, SEEDS, agents=("random", "heuristic")):
        for v in range(n):
            found = twin(s, a, v, rng)
            if found is None:
                continue
            t, b = found
            assert state_view(t, v) == state_view(s, v), (v, s.to_dict(), t.to_dict())
            assert move_view(t, b, v) == move_view(s, a, v), (v, a, b, s.to_dict(), t.to_dict())
            assert state_view(t.apply(b), v) == state_view(s.apply(a), v), (v, a, b)
            compared += (t, b) != (s, a)
    if not game.spec.perfect_information:
        assert compared > enough(game, 100, 10), "the re-deals never changed anything: the leak test would test nothing"


def test_leak_the_class_sees_no_hidden_card(game):
    """The class's view (:data:`cardlab.render.SPECTATOR`, the projector's
    "show to the class"): positions and moves that differ only in cards
    some seat keeps hidden (hands, face-down cards, the deck's order) look
    the same to the class, the table, the grid and every move's line and
    picture."""
    rng = random.Random(4)
    compared = 0
    for s, a in positions(game, SEEDS, agents=("random", "heuristic")):
        found = class_twin(s, a, rng)
        if found is None:
            continue
        t, b = found
        assert state_view(t, SPECTATOR) == state_view(s, SPECTATOR), (s.to_dict(), t.to_dict())
        assert move_view(t, b, SPECTATOR) == move_view(s, a, SPECTATOR), (a, b, s.to_dict(), t.to_dict())
        assert state_view(t.apply(b), SPECTATOR) == state_view(s.apply(a), SPECTATOR), (a, b)
        compared += (t, b) != (s, a)
    if not game.spec.perfect_information:
        assert compared > enough(game, 100, 10), "the re-deals never changed anything: the leak test would test nothing"


def _late_decisions(game, seeds, limit=300):
    """Decision positions of seeded random games whose hidden cards can be
    arranged in at most ``limit`` ways (the end of a deal)."""
    from cardlab.hidden import count_fillings

    for s, _ in positions(game, seeds):
        p = s.current_player
        if p >= 0 and count_fillings(s, p, limit) is not None:
            yield s


def test_arrangements_are_exactly_what_the_player_cannot_tell_apart(game):
    """:func:`cardlab.hidden.arrangements`: every position has the player's
    information set, the true one is among them, none twice, and their
    exact probabilities add up to 1; re-deals (``State.redeal``) never
    leave them."""
    from fractions import Fraction

    from cardlab.hidden import arrangements, count_fillings

    rng = random.Random(2)
    checked = 0
    for s in _late_decisions(game, range(3)):
        for v in range(game.spec.num_players):
            if count_fillings(s, v, 10_000) is None:  # small for the mover, not always for the others
                continue
            arr = arrangements(s, v, limit=10_000)
            states = [t for t, _ in arr]
            assert s in states and len(set(states)) == len(states)
            assert sum(w for _, w in arr) == 1 and all(isinstance(w, Fraction) and w > 0 for _, w in arr)
            info = s.information_set(v)
            assert all(t.information_set(v) == info for t in states)
            for _ in range(3):
                assert s.redeal(v, rng) in states
            checked += len(arr) > 1
    if not game.spec.perfect_information:
        assert checked > 0


def _small(game):
    """MONSTER CARDS: damage fills each hidden, ordered graveyard (墓地, MC-8),
    so no decision of a game of 20-card decks is small enough to solve; its
    fair hint is checked on 5-card decks of the ready decks' cards."""
    if game.name != "monster_cards":
        return game
    from cardlab.games.monster_cards import ready_deck

    decks = [{"name": d, "cards": [c.to_dict() for c in ready_deck(d).cards[::4]]} for d in ("ember", "tide")]
    return game.with_options(decks=decks, deck_size=5)


def test_fair_hint_depends_only_on_what_the_player_sees(game):
    """The fair hint (exact, and sampled when capped) is the same for every
    position the player cannot tell apart; with every card seen it is the
    open analysis."""
    game = _small(game)
    rng = random.Random(3)
    done = 0
    for s in _late_decisions(game, range(8), limit=40):
        p = s.current_player
        try:
            fair = cardlab.analyse(s, player=p, max_nodes=10_000)
            sampled = cardlab.analyse(s, player=p, max_nodes=10_000, max_arrangements=1, samples=5)
        except cardlab.TooLargeError:
            continue
        if game.spec.perfect_information:
            assert fair.kind == "open" and fair.rows == cardlab.analyse(s, max_nodes=10_000).rows
        else:
            assert fair.kind == "fair" and sampled.kind in ("sampled", "fair")
        for _ in range(3):
            t = s.redeal(p, rng)
            assert cardlab.analyse(t, player=p, max_nodes=10_000).rows == fair.rows
            assert cardlab.analyse(t, player=p, max_nodes=10_000, max_arrangements=1,
                                   samples=5).rows == sampled.rows
        done += 1
        if done >= 3:
            break
    assert done > 0, "no small position found: the test would test nothing"
