"""Issue S, item 2: the rules are written once, in cardlab/games/mipig/rules.py, and
both the State and the compact core call them through the module.  Swapping one
rule there, the attribute bonus MP-20 (``rules.attribute_bonus``), changes what a
battle does in the State and in a freshly made core alike; restored, both are
back to the seed's table (count - 1)."""

from __future__ import annotations

import pytest
from test_mipig import battle_state

from cardlab.games.mipig import rules
from cardlab.games.mipig.core import make_core

#: (cells, the attack): a battle whose result turns on the size of the bonus (MP-19 … MP-22)
BATTLES = {
    # L4 (love) attacks R5 with two more face-up love cards of its own: 4 + 2 against 5 (MP-20)
    "attacker's bonus": ([(0, 0, 0, "L4", False), (1, 0, 1, "R5", False),
                          (0, 1, 0, "L6", True), (0, 2, 0, "L4", True)], "attack 0,0 1,0"),
    # L4 with one more face-up love card: 4 + 1 against 5, a tie on the numbers, rock against rock (MP-14)
    "a tie by the bonus": ([(0, 0, 0, "L4", False), (1, 0, 1, "R5", False), (0, 1, 0, "L6", True)],
                           "attack 0,0 1,0"),
    # the defender is face up already, one of three face-up love cards of player 1 (MP-21, MP-22)
    "defender's bonus": ([(0, 0, 0, "R5", False), (1, 0, 1, "L4", True), (3, 2, 1, "L6", True),
                          (5, 4, 1, "L4", True)], "attack 0,0 1,0"),
    # the face-up defender L4 with one more face-up love card: 5 against 4 + 1, rock against rock
    "a tie by the defender's bonus": ([(0, 0, 0, "R5", False), (1, 0, 1, "L4", True), (3, 2, 1, "L6", True)],
                                      "attack 0,0 1,0"),
}

SWAPS = {
    "no bonus": lambda count: 0,
    "twice the bonus": lambda count: 2 * (count - 1) if count >= 2 else 0,
}


def after(cells, action):
    """The position after ``action`` by the State, and by a core made now for the same game:
    both checked to be the same position."""
    s = battle_state(cells)
    core = make_core(s.game)
    pos = core.encode(s)
    move = core.moves(pos)[s.legal_actions().index(action)]
    t, got = s.apply(action), core.play(pos, move)
    assert core.encode(t) == got and core.decode(got) == t
    assert core.player(got) == t.current_player and tuple(core.returns(got)) == tuple(t.returns())
    return t


def result(t):
    """What the battle did: each player's graveyard and face-up count (MP-15, MP-24)."""
    d = t.to_dict()
    return d["graveyards"], [t.face_up_count(0), t.face_up_count(1)]


@pytest.mark.parametrize("battle,swap", [(b, "no bonus") for b in BATTLES] + [
    ("a tie by the bonus", "twice the bonus"), ("a tie by the defender's bonus", "twice the bonus")])
def test_MP_20_swapping_the_attribute_bonus_changes_state_and_core_alike(monkeypatch, battle, swap):
    """MP-20 (with MP-13, MP-14, MP-19 … MP-22): the State and a fresh core follow
    ``rules.attribute_bonus`` swapped, and agree again once it is restored."""
    cells, action = BATTLES[battle]
    before = result(after(cells, action))
    explained = battle_state(cells).explain_battle(action)
    assert explained.attacker_bonus.bonus + explained.defender_bonus.bonus > 0  # the bonus is at play
    with monkeypatch.context() as m:
        m.setattr(rules, "attribute_bonus", SWAPS[swap])
        swapped = result(after(cells, action))
        b = battle_state(cells).explain_battle(action)
        assert (b.attacker_bonus.bonus, b.defender_bonus.bonus) == (
            SWAPS[swap](b.attacker_bonus.count), SWAPS[swap](b.defender_bonus.count))
    assert swapped != before  # the outcome differs: both followed the swapped rule
    assert result(after(cells, action)) == before  # restored: the seed's bonus, count - 1


def test_MP_20_the_seed_table_is_the_rule():
    """MP-20: the rule itself, 2 cards +1, 3 +2, 4 +3, 5 +4, none for one card (MP-19)."""
    assert [rules.attribute_bonus(n) for n in range(1, 6)] == [0, 1, 2, 3, 4]
