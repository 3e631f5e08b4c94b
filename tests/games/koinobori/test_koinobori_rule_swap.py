"""Koi-koi Nobori's rules live in one place (issue S, item 2): a rule
function swapped in ``cardlab.games.koinobori.rules`` changes the State and
every core made afterwards alike, and with the rule restored both agree
with the rule book again."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.games.koinobori import core as kcore
from cardlab.games.koinobori import rules

#: KN-15: the koi-koi caller (player 0) won with a fourth nobori: 2 higoi + 2 aokoi
#: nobori, 2 * 2 + 2 * 1 = 6 points, + 5 for the koi-koi; player 1 has none
KOIKOI_WON = {
    "stage": "end", "to_move": 0, "options": {"koikoi": True, "payoff": "score"},
    "deck": {"higoi": 2, "aokoi": 2, "fukinagashi": 3, "kabutogaeshi": 2}, "field": {"magoi": 1},
    "hands": [{"magoi": 2}, {"magoi": 3}], "nobori": [{"higoi": 2, "aokoi": 2}, {}],
    "kabutogaeshi_used": [0, 0], "koikoi": [3, 0], "koikoi_won": 0, "then": "",
}
#: KN-Q4: only kabutogaeshi in the hands, player 0 holds a nobori: by the rule book
#: nobody can act, so the position is over (KN-12, KN-Q12)
KABUTO_ONLY = {
    "stage": "turn", "to_move": 0, "options": {},
    "deck": {"higoi": 4, "aokoi": 5, "magoi": 6, "fukinagashi": 3}, "field": {"aokoi": 1},
    "hands": [{"kabutogaeshi": 1}, {"kabutogaeshi": 1}], "nobori": [{"higoi": 1}, {}],
    "kabutogaeshi_used": [0, 0], "koikoi": [0, 0], "koikoi_won": None, "then": "",
}


def _both(d, options):
    """The position ``d`` on a fresh game, its fresh core and the core's int of it."""
    game = cardlab.load("koinobori", **options)
    state = game.state_from_dict(d)
    core = kcore.make_core(game)
    return state, core, core.encode(state)


def test_KN_15_swapped_koikoi_bonus_reaches_state_and_core(monkeypatch):
    """KN-15: the koi-koi bonus (rules.koikoi_bonus) made 50: the State's score
    and returns and the core's returns all take it; restored, both give +5."""
    state, core, pos = _both(KOIKOI_WON, {"koikoi": True, "payoff": "score"})
    assert state.score(0) == 11 and state.returns() == [11, -11] == list(core.returns(pos))
    monkeypatch.setattr(rules, "koikoi_bonus", lambda won: 50 if won else 0)
    state, core, pos = _both(KOIKOI_WON, {"koikoi": True, "payoff": "score"})
    assert state.score(0) == 56 and state.returns() == [56, -56] == list(core.returns(pos))
    monkeypatch.undo()
    state, core, pos = _both(KOIKOI_WON, {"koikoi": True, "payoff": "score"})
    assert state.returns() == [11, -11] == list(core.returns(pos))


def test_KN_13_KN_15_swapped_score_turns_the_winner_on_state_and_core(monkeypatch):
    """KN-13..15: a score rule (rules.score) that counts a koi-koi win as a
    penalty of 10 turns the winner (payoff 'win'): the State and the core both
    follow it; restored, player 0 wins on both again."""
    original = rules.score
    options = {"koikoi": True, "payoff": "score"}
    win_options = {"koikoi": True}
    d = dict(KOIKOI_WON, options={"koikoi": True})
    state, core, pos = _both(d, win_options)
    assert state.returns() == [1, -1] == list(core.returns(pos))

    def penalty(nobori, points, fuki_points, roles, koikoi_won):
        return original(nobori, points, fuki_points, roles, False) - (10 if koikoi_won else 0)

    monkeypatch.setattr(rules, "score", penalty)
    state, core, pos = _both(d, win_options)
    assert state.returns() == [-1, 1] == list(core.returns(pos))
    state, core, pos = _both(KOIKOI_WON, options)
    assert state.score(0) == -4 and state.returns() == [-4, 4] == list(core.returns(pos))
    monkeypatch.undo()
    state, core, pos = _both(d, win_options)
    assert state.returns() == [1, -1] == list(core.returns(pos))


def test_KN_Q4_KN_12_swapped_can_act_moves_the_end_on_state_and_core(monkeypatch):
    """KN-Q4, KN-12: with a "can act" (rules.can_act) in which a kabutogaeshi
    alone keeps the game going, a position that the rule book ends goes on:
    the State and the core's tables (built from the rule) both pass to the
    player who can take the opponent's nobori back (KN-11)."""
    game = cardlab.load("koinobori")
    assert game.state_from_dict(KABUTO_ONLY).is_terminal()  # the rule book: over
    original = rules.can_act
    monkeypatch.setattr(rules, "can_act", lambda deck, field, hand: original(deck, field, hand) or bool(hand[4]))
    state, core, pos = _both(KABUTO_ONLY, {})
    assert state.current_player == 0 == core.player(pos)
    assert state.legal_actions() == ["pass"] and core.moves(pos) == (kcore.PASS,)
    state, pos = state.apply("pass"), core.play(pos, kcore.PASS)
    assert core.encode(state) == pos and state.current_player == 1 == core.player(pos)
    assert state.legal_actions() == ["kabuto higoi"] and core.moves(pos) == (9,)
    monkeypatch.undo()
    state, core, pos = _both(dict(KABUTO_ONLY, stage="end"), {})
    assert state.is_terminal() and core.player(pos) == cardlab.TERMINAL


@pytest.mark.parametrize("name", ["score", "can_act", "game_over", "payoff", "turn_moves", "draw_capture",
                                  "koikoi_after_nobori", "nobori_cards", "dealt_to", "field_full"])
def test_KN_rules_are_called_through_the_module(name):
    """The State and the core name each rule they use as ``rules.<name>``, never
    imported by name (so a swap reaches them); koikoi_bonus (KN-15) and
    role_met (KN-14) are reached through rules.score."""
    import inspect
    import re

    from cardlab.games.koinobori import state as kstate

    sources = {m.__name__: inspect.getsource(m) for m in (kstate, kcore)}
    assert any(f"rules.{name}(" in src for src in sources.values()), name
    for module, src in sources.items():
        assert not re.search(rf"from \.rules import[^)]*\b{name}\b", src), (module, name)
