"""Kuhn poker, the toy game of tests/toy_games/ (issue S, item 9): its known
value, -1/18 for the first player (Kuhn 1950; OpenSpiel's tests use the
same figure), found by cardlab's exact machinery with nothing of the game
outside its folder."""

from fractions import Fraction

import cardlab
from cardlab.equilibrium import solve_equilibrium
from toy_games import kuhn


def test_kuhn_value_is_minus_one_eighteenth():
    root = kuhn.GAME().new_initial_state()
    eq = solve_equilibrium(root)
    assert eq.value == Fraction(-1, 18)


def test_kuhn_tree_has_every_deal_and_betting():
    G = cardlab.tree(kuhn.GAME().new_initial_state())
    leaves = [n for n in G if G.out_degree(n) == 0]
    assert len(leaves) == 6 * 5  # six deals, five ways for the betting to end


def test_kuhn_open_cards_solve():
    """With both cards dealt, the perfect-information search: K against J,
    the first player bets and the second folds or calls and loses 2."""
    s = kuhn.GAME(open_hands=True).new_initial_state().apply("deal K").apply("deal J")
    assert cardlab.solve(s).value == 1
