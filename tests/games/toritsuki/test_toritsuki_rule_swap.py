"""Issue S item 2: the State and a fresh core call the rules through
``cardlab.games.toritsuki.rules``; swap one rule and both follow it.

The battle (TK-21): a BP tie faints both yokai.  Swapped for a house rule
(ties go to the blocker: only the attacker faints), the State and a core made
after the swap both keep the blocker; with the rule restored they agree again
on the seed's rule.  The damage (TK-6): six damage cards lose; swapped for
three, the third damage ends the game on both sides.
"""

from __future__ import annotations

import pytest
from test_toritsuki import battle, pos

import cardlab
from cardlab.games.toritsuki import core as tcore
from cardlab.games.toritsuki import rules


def tie_goes_to_the_blocker(attacker_bp, defender_bp, attacker_icons, defender_icons):
    """A house rule instead of TK-21's tie: the blocker wins ties."""
    if attacker_bp == defender_bp:
        return rules.Duel("defender", True, False, False)
    return ORIGINAL_DUEL(attacker_bp, defender_bp, attacker_icons, defender_icons)


ORIGINAL_DUEL = rules.duel


def after(game, s, action):
    """``action`` on the State and on a core made now: both successors (the core's decoded)."""
    core = tcore.make_core(game)
    if s.current_player == cardlab.CHANCE:
        moves, acts = [o for o, _w in core.chance(core.encode(s))], [a for a, _p in s.chance_outcomes()]
    else:
        moves, acts = core.moves(core.encode(s)), s.legal_actions()
    move = moves[acts.index(action)]
    return s.apply(action), core.decode(core.play(core.encode(s), move))


def tie_position(game):
    """TK-21: Hibana-kozo 30 attacks, Mizutama 30 blocks; the defender's possession comes last."""
    return pos(game, stage="possess_d", battle=battle(1, 1, 6, 1),
               p0={"unseen": [2, 2, 4]}, p1={"unseen": [7, 7, 8]})


def test_TK_21_swapped_tie_rule_is_followed_by_state_and_core(monkeypatch):
    """TK-21 swapped (ties go to the blocker): the State and a fresh core both keep the blocker."""
    game = cardlab.load("toritsuki")
    s = tie_position(game)
    state, from_core = after(game, s, "pass")
    assert state == from_core
    assert state.to_dict()["players"][1]["back"] == []  # TK-21: a tie faints both
    monkeypatch.setattr(rules, "duel", tie_goes_to_the_blocker)
    swapped_state, swapped_core = after(game, s, "pass")
    assert swapped_state == swapped_core != state
    assert [y[0] for y in swapped_state.to_dict()["players"][1]["back"]] == [6]  # the blocker stays
    assert swapped_state.to_dict()["players"][0]["front"] == []  # the attacker fainted
    report = s.battle_report()  # the report of the duel as it stands follows the same rule
    assert report is not None and report.winner == "defender" and report.fainted == [report.attacker.name]
    monkeypatch.setattr(rules, "duel", ORIGINAL_DUEL)
    again_state, again_core = after(game, s, "pass")
    assert again_state == again_core == state


@pytest.mark.parametrize("loss", [3, 6])
def test_TK_6_swapped_damage_loss_is_followed_by_state_and_core(monkeypatch, loss):
    """TK-6 swapped (3 damage cards lose instead of 6): the third damage ends the game on both sides."""
    monkeypatch.setattr(rules, "loses_by_damage", lambda damage: damage >= loss)
    game = cardlab.load("toritsuki")
    s = pos(game, stage="damage", tp=0, p0={"unseen": [2, 2, 4], "front": [[3, 1, 0, 0]]},
            p1={"unseen": [7, 7, 8], "damage": [2, 0]})
    for action in s.chance_outcomes():
        state, from_core = after(game, s, action[0])
        assert state == from_core
        assert (state.stage == "over") == (loss == 3)
