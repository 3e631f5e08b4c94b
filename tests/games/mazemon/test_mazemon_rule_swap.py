"""Issue S, item 2: each rule is written once, in ``cardlab/games/mazemon/rules.py``.
Swapping one rule function there changes the State and the compact core alike:
a fresh game and a fresh core both follow the swapped battle result, and
agree with each other again once the rule is restored."""

from __future__ import annotations

import cardlab
from cardlab.cores import core_of
from cardlab.games.mazemon import rules
from test_mazemon import pos

ATTACK = "attack kagari_owl moss_tortoise"  # fire 650 against grass 700: technique loses, attribute wins


def _ko_on_attribute(technique, attribute, attacker_hp, defender_hp):
    """A different MZ-14: an attribute win is a KO even when the technique loses or ties."""
    if technique != "wins" and attribute == "wins":
        return "ko", "MZ-14"
    return ORIGINAL(technique, attribute, attacker_hp, defender_hp)


ORIGINAL = rules.battle_result


def _after_attack(game):
    """The position after ATTACK by the State and by a fresh core (decoded)."""
    s = pos(game, {"battle": ["kagari_owl"], "hand": ["ember_boar"], "untapped": 2},
            {"battle": ["moss_tortoise"], "hand": ["tide_whale"]}, phase="battle", first=1)
    assert ATTACK in s.legal_actions()
    by_state = s.apply(ATTACK)
    core = core_of(game)
    p = core.encode(s)
    code = core.moves(p)[s.legal_actions().index(ATTACK)]
    by_core = core.decode(core.play(p, code))
    return by_state, by_core


def _fields(state):
    return state.battle_zone(1), state.captured(0)


def test_MZ_14_MZ_12_swapped_battle_result_is_followed_by_state_and_core(monkeypatch):
    """MZ-14 (a wound on the defender only) swapped for a KO (as MZ-12): a
    fresh game's State and its fresh core both knock Moss Tortoise out and
    capture it; with the rule restored both wound it again."""
    before_state, before_core = _after_attack(cardlab.load("mazemon", open_hands=True))
    assert before_state == before_core
    assert _fields(before_state) == ([{"card": "moss_tortoise", "wounded": True, "attacked": False}], 0)

    monkeypatch.setattr(rules, "battle_result", _ko_on_attribute)
    swapped_state, swapped_core = _after_attack(cardlab.load("mazemon", open_hands=True))
    assert _fields(swapped_state) == ([], 1)  # knocked out at once, captured
    assert swapped_state == swapped_core
    g = cardlab.load("mazemon")
    assert g.fight[0][g.slot[0]["kagari_owl"]][g.slot[1]["moss_tortoise"]][0] == rules.KO

    monkeypatch.undo()
    again_state, again_core = _after_attack(cardlab.load("mazemon", open_hands=True))
    assert again_state == again_core == before_state
