"""Issue S, item 2: the State and the compact core both call the rules of
``cardlab/games/monster_cards/rules.py`` through the module, so swapping one
rule function changes both alike.  The rule swapped here is the scale
(勝負の秤, MC-16, with the short hand of MC-14 and the long hand of MC-15):
``rules.scale(short, long_)``, the score whose sign decides a battle."""

from __future__ import annotations

import random

import cardlab
from cardlab import CHANCE, TERMINAL
from cardlab.games.monster_cards import rules
from cardlab.games.monster_cards.core import make_core

ORIGINAL_SCALE = rules.scale


def reversed_rarity_scale(short: int, long_: int) -> int:
    """A different scale: the rarer card is at a disadvantage (the short hand pulls the other way)."""
    return long_ + short


def lockstep_until_battle_differs(game, core, seed: int):
    """Random moves on the State and the core side by side, each step checked
    (encode, decode, the player, the moves); returns the first position where
    a defence's result under the game's scale differs from the original
    scale's, with that move, or None at the end of the game."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    pos = core.encode(s)
    while True:
        assert core.encode(s) == pos and core.decode(pos) == s
        p = s.current_player
        assert core.player(pos) == p
        if p == TERMINAL:
            assert tuple(core.returns(pos)) == tuple(s.returns())
            return None
        if p == CHANCE:
            outs, probs = core.chance(pos), s.chance_outcomes()
            i = rng.randrange(len(outs))
            s, pos = s._apply(probs[i][0]), core.play(pos, outs[i][0])
            continue
        acts, moves = s.legal_actions(), core.moves(pos)
        assert len(acts) == len(moves)
        for a, m in zip(acts, moves):
            b = s.battle(a)
            if b is not None and rules.outcome(ORIGINAL_SCALE(b.short_hand, b.long_hand)) != b.result:
                return s, a, m
        i = rng.randrange(len(acts))
        s, pos = s._apply(acts[i]), core.play(pos, moves[i])


def outcome_on_both(game, core, s, action, move):
    """The State's battle result of ``action`` and the position after it, on the
    State and on the core (the core's position decoded)."""
    after = s._apply(action)
    return s.battle(action).result, after, core.decode(core.play(core.encode(s), move))


def test_MC_16_the_scale_swapped_state_and_core_follow_then_agree_again(monkeypatch):
    """MC-14 … MC-16: with ``rules.scale`` swapped (the rarer card at a
    disadvantage), a fresh game and a fresh core both fight by the swapped
    scale: at a defence whose result the swap changes, the State's battle,
    the State's next position and the core's next position all follow it.
    With the rule restored, a fresh game and core agree again, on the
    original result."""
    monkeypatch.setattr(rules, "scale", reversed_rarity_scale)
    game = cardlab.load("monster_cards", open_hands=True)
    core = make_core(game)
    found = None
    for seed in range(20):
        found = lockstep_until_battle_differs(game, core, seed)
        if found:
            break
    assert found is not None, "no defence whose result the swapped scale changes"
    s, action, move = found
    b = s.battle(action)
    assert b.score == reversed_rarity_scale(b.short_hand, b.long_hand)
    swapped_result, swapped_after, swapped_core_after = outcome_on_both(game, core, s, action, move)
    assert swapped_result == rules.outcome(reversed_rarity_scale(b.short_hand, b.long_hand))
    assert swapped_core_after == swapped_after  # the core fought by the swapped scale too
    saved = s.to_dict()

    monkeypatch.undo()
    assert rules.scale is ORIGINAL_SCALE
    game2 = cardlab.load("monster_cards", open_hands=True)
    core2 = make_core(game2)
    s2 = game2.state_from_dict(saved)
    result, after, core_after = outcome_on_both(game2, core2, s2, action, move)
    assert result == rules.outcome(ORIGINAL_SCALE(b.short_hand, b.long_hand)) != swapped_result
    assert core_after == after  # State and core agree again
    assert after.to_dict() != swapped_after.to_dict()  # and the outcome differs from the swapped one
    for seed in range(3):  # and they agree over whole games
        assert lockstep_until_battle_differs(game2, core2, seed) is None
