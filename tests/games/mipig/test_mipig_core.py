"""Issue S, item 7: the compact core (cardlab/games/mipig/core.py) agrees with the
State on *every* state reachable from the root of a few small games (as OpenSpiel
checks its Python games against their C++ twins), not on a sample: a breadth-first
walk over the State, equal states merged, compares at each state ``encode`` (and
``decode(encode(s)) == s``), the player, the simultaneous choice, the moves in
number and order (each move played on both sides gives the same position), the
chance outcomes as exact probabilities, ``uniform_chance`` and ``random_move``,
and the payoffs at the end (the shared walk of ``tests/agreement.py``).

The configurations are small (hands of 1-2 cards, card sets of 3-4; 141 to 50,917
states each, 95,039 in all) and between them use every option: the deal (own copies, one shared set, ready hands with a card
twice), the first player (janken MP-4 with its ties MP-Q2, a coin, the option),
open and closed hands (the cards shown, MP-Q6), the end (janken MP-25/MP-Q3, its
value, a draw, the score; capped rounds; all cards on the field), and battles with
bonuses (MP-19 … MP-22), ties on the numbers (MP-14) and translations (MP-Q4)."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.games.mipig.core import make_core

from agreement import every_state


def card(cid, top, bottom, left, right, attribute, janken):
    return {"id": cid, "name": cid, "top": top, "bottom": bottom, "left": left, "right": right,
            "attribute": attribute, "janken": janken}


#: four cards: three of one attribute (bonuses, MP-20), equal numbers (ties, MP-14), all three marks
FOUR = {"cards": [card("a", 5, 5, 5, 5, "love", "rock"), card("b", 5, 5, 5, 5, "love", "scissors"),
                  card("c", 3, 7, 6, 4, "wisdom", "paper"), card("d", 6, 4, 5, 5, "love", "rock")]}
#: the first three of them
THREE = {"cards": FOUR["cards"][:3]}
#: two marks only and equal numbers: janken ties that cannot break (MP-Q2, MP-Q3)
LOCKED = {"cards": [card("r", 5, 5, 5, 5, "play", "rock"), card("s", 5, 5, 5, 5, "play", "scissors"),
                    card("t", 5, 5, 5, 5, "love", "rock")]}

#: (id, options, the number of distinct states reachable from the root)
CONFIGS = [
    ("shared-janken-closed", dict(cards=FOUR, hand_size=2, deal="shared"), 50917),
    ("own-coin-open-score", dict(cards=THREE, hand_size=2, first_player="random", open_hands=True,
                                 payoff="score"), 27753),
    ("ready-twice-value-rounds", dict(hand_size=2, hands=[["p01", "p01"], ["p02", "p03"]], tiebreak="value",
                                      janken_rounds=1), 1490),
    ("locked-all-on-field-rounds", dict(cards=LOCKED, hand_size=2, hands=[["r", "s"], ["s", "t"]],
                                        tiebreak_cards="all_on_field", janken_rounds=2, open_hands=True), 14738),
    ("one-card-draw-first-1", dict(cards=FOUR, hand_size=1, first_player=1, tiebreak="draw"), 141),
]


@pytest.mark.parametrize("options,count", [pytest.param(o, n, id=i) for i, o, n in CONFIGS])
def test_core_agrees_with_state_on_every_reachable_state(options, count):
    """Item 7: every reachable state of a small mipig game (MP-1 … MP-25, MP-Q2 … MP-Q6)."""
    game = cardlab.load("mipig", **options)
    n = every_state(game.new_initial_state(), make_core(game))
    assert n == count  # the walk covers what it says (and a change of the rules shows here)
