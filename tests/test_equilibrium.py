"""Hidden-information solving: the exact sequence-form LP, CFR+, best
responses, against known values (Kuhn poker −1/18, Kuhn 1950; rock-paper-
scissors 0) and on tiny cardlab variants."""

from __future__ import annotations

import json
from fractions import Fraction

import networkx as nx
import pytest

import cardlab
from conftest import DATA
from cardlab.equilibrium import (
    _simplex,
    best_response_value,
    cfr,
    collapse_subgames,
    expected_value,
    exploitability,
    game_tree,
    matrix_tree,
    sequence_form,
    solve_equilibrium,
)

RPS = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
#: a 10-card Koi-koi Nobori deck (4 higoi, 3 aokoi, 3 magoi, no specials): a
#: whole deal with hidden hands has a 6,734-node tree; one card stays in the
#: deck, so neither player knows the other's hand for sure
TINY_DECK = {"name": "tiny", "cards": {"higoi": 4, "aokoi": 3, "magoi": 3, "fukinagashi": 0,
                                       "kabutogaeshi": 0},
             "points": {"higoi": 2, "aokoi": 1, "magoi": 3}, "roles": []}


def kuhn_tree() -> nx.DiGraph:
    """Kuhn poker (Kuhn 1950) as a cardlab tree: J < Q < K, ante 1, bet 1;
    player 0 acts first.  Information sets: own card and the betting."""
    G = nx.DiGraph(root=0, merged=False, truncated=False)

    def node(**kw):
        n = G.number_of_nodes()
        attrs = dict(player=cardlab.TERMINAL, terminal=False, returns=None, infoset=None,
                     label="", depth=0, frontier=False)
        attrs.update(kw)
        G.add_node(n, **attrs)
        return n

    def leaf(v):
        return node(terminal=True, returns=(Fraction(v), Fraction(-v)))

    root = node(player=cardlab.CHANCE)
    cards = "JQK"
    for c0 in range(3):
        for c1 in range(3):
            if c0 == c1:
                continue
            sign = 1 if c0 > c1 else -1
            a = node(player=0, infoset=f"0:{cards[c0]}")
            G.add_edge(root, a, action=cards[c0] + cards[c1], player=-1, prob=Fraction(1, 6))
            b = node(player=1, infoset=f"1:{cards[c1]}-pass")
            G.add_edge(a, b, action="pass", player=0, prob=None)
            G.add_edge(b, leaf(sign), action="pass", player=1, prob=None)
            c = node(player=0, infoset=f"0:{cards[c0]}-pass-bet")
            G.add_edge(b, c, action="bet", player=1, prob=None)
            G.add_edge(c, leaf(-1), action="pass", player=0, prob=None)
            G.add_edge(c, leaf(2 * sign), action="bet", player=0, prob=None)
            d = node(player=1, infoset=f"1:{cards[c1]}-bet")
            G.add_edge(a, d, action="bet", player=0, prob=None)
            G.add_edge(d, leaf(1), action="pass", player=1, prob=None)
            G.add_edge(d, leaf(2 * sign), action="bet", player=1, prob=None)
    return G


def tiny_koinobori():
    return cardlab.load("koinobori", deck=TINY_DECK).new_initial_state()


def test_kuhn_poker_value_is_minus_one_eighteenth():
    """Kuhn (1950): the first player's value is −1/18; the solution is exact
    and unexploitable; the known family of equilibria (bet the jack with
    some α ≤ 1/3, the king with 3α; player 1 calls a bet with the queen 1/3)."""
    G = kuhn_tree()
    eq = solve_equilibrium(G)
    assert eq.value == Fraction(-1, 18)
    assert exploitability(G, eq.strategies) == 0
    s0, s1 = eq.strategies
    alpha = s0["0:J"]["bet"]
    assert 0 <= alpha <= Fraction(1, 3)
    assert s0["0:K"]["bet"] == 3 * alpha
    assert s0["0:Q"]["bet"] == 0
    assert s1["1:Q-bet"]["bet"] == Fraction(1, 3)
    assert s1["1:K-bet"]["bet"] == 1 and s1["1:J-bet"]["bet"] == 0
    assert s1["1:J-pass"]["bet"] == Fraction(1, 3)
    assert expected_value(G, eq.strategies) == Fraction(-1, 18)


def test_rock_paper_scissors_uniform_and_zero():
    eq = solve_equilibrium(matrix_tree(RPS, ["rock", "paper", "scissors"]))
    assert eq.value == 0
    for p, I in ((0, "0:0"), (1, "1:0")):
        assert eq.strategies[p][I] == {a: Fraction(1, 3) for a in ("rock", "paper", "scissors")}


def test_matrix_game_with_a_mixed_value():
    """Matching-pennies-like game [[2, -1], [-1, 1]]: value 1/5, p(row 0) = 2/5."""
    eq = solve_equilibrium(matrix_tree([[2, -1], [-1, 1]], ["a", "b"], ["c", "d"]))
    assert eq.value == Fraction(1, 5)
    assert eq.strategies[0]["0:0"]["a"] == Fraction(2, 5)
    assert eq.strategies[1]["1:0"]["c"] == Fraction(2, 5)


def test_mipig_janken_value_agrees_with_the_game_module():
    """The end janken of mipig (MP-Q3) as a one-round matrix game: the LP
    gives the same value as mipig.janken_value, rock/paper against
    rock/scissors = 1/3."""
    from cardlab.games.mipig import janken_beats, janken_value

    m0, m1 = [0, 2], [0, 1]
    A = [[1 if janken_beats(a, b) else -1 if janken_beats(b, a) else 0 for b in m1] for a in m0]
    eq = solve_equilibrium(matrix_tree(A, [str(a) for a in m0], [str(b) for b in m1]))
    assert eq.value == janken_value(m0, m1, 1) == Fraction(1, 3)


def test_simplex_small_lp():
    """max x + y  s.t.  x + 2y <= 4,  3x + y <= 6,  x, y >= 0: optimum 14/5 at (8/5, 6/5)."""
    value, sol = _simplex([{0: Fraction(1), 1: Fraction(2)}, {0: Fraction(3), 1: Fraction(1)}],
                          [Fraction(4), Fraction(6)], ["<=", "<="], {0: Fraction(1), 1: Fraction(1)},
                          set(), 2)
    assert value == Fraction(14, 5)
    assert sol == {0: Fraction(8, 5), 1: Fraction(6, 5)}


def test_sequence_form_sizes_of_kuhn():
    sf = sequence_form(kuhn_tree())
    assert sf.size == (13, 13)  # 1 + 6 information sets × 2 actions each
    assert sum(sf.payoff.values()) == 0  # Kuhn is symmetric: the payoffs of all leaves cancel
    assert len(sf.parent[0]) == len(sf.parent[1]) == 6


def test_cfr_converges_on_kuhn():
    G = kuhn_tree()
    res = cfr(G, 400, every=100)
    assert [t for t, _ in res.curve] == [100, 200, 300, 400]
    assert res.exploitability < 0.002
    assert res.curve[-1][1] < res.curve[0][1] / 2
    assert abs(res.value - (-1 / 18)) < 0.002


def test_best_response_to_always_pass():
    """Against a player 0 who always passes (and folds to a bet), player 1's best
    response bets every hand: player 0 then loses 1 on each deal."""
    G = kuhn_tree()
    passive = {I: {"pass": Fraction(1), "bet": Fraction(0)} for I in ("0:J", "0:Q", "0:K",
                                                                       "0:J-pass-bet", "0:Q-pass-bet",
                                                                       "0:K-pass-bet")}
    uniform = {I: {"pass": Fraction(1, 2), "bet": Fraction(1, 2)}
               for I in ("1:J-pass", "1:Q-pass", "1:K-pass", "1:J-bet", "1:Q-bet", "1:K-bet")}
    assert best_response_value(G, (passive, uniform), 1) == 1
    assert exploitability(G, (passive, uniform)) > 0


def test_tiny_koinobori_exact_cfr_and_unexploitable():
    """Koi-koi Nobori with a 10-card deck and hidden hands: exact value 11/14,
    an unexploitable equilibrium, CFR+ close to it; with open hands the first
    player would get 61/70: the hidden hands cost them 3/35."""
    s = tiny_koinobori()
    G = game_tree(s)
    eq = solve_equilibrium(G)
    assert eq.value == Fraction(11, 14)
    assert exploitability(G, eq.strategies) == 0
    res = cfr(G, 60, every=30)
    assert res.exploitability < 0.01
    assert abs(res.value - 11 / 14) < 0.01
    open_game = cardlab.load("koinobori", deck=TINY_DECK, open_hands=True)
    assert cardlab.solve(open_game.new_initial_state()).value == Fraction(61, 70)


def test_collapse_keeps_the_value_and_perfect_information_trees_need_no_lp():
    """A perfect-information tree collapses to its root: the LP is trivial and
    the value is the one of cardlab.solve (backward induction)."""
    game = cardlab.load("koinobori", deck=TINY_DECK, open_hands=True)
    s = game.new_initial_state()
    G = game_tree(s)
    H, fixed = collapse_subgames(G)
    assert H.number_of_nodes() == 1
    eq = solve_equilibrium(G)
    assert eq.value == cardlab.solve(s).value
    assert exploitability(G, eq.strategies) == 0


def test_mipig_two_cards_exact():
    """mipig, 2 cards each (fixed hands, player 0 first, MP-3 teaching size):
    the LP over the hidden face-down cards gives an unexploitable equilibrium."""
    game = cardlab.load("mipig", hand_size=2, hands=[["p01", "p05"], ["p09", "p12"]],
                        first_player=0, tiebreak="draw")
    G = game_tree(game.new_initial_state())
    eq = solve_equilibrium(G)
    assert eq.value == -1  # the second player wins whatever the first does
    assert exploitability(G, eq.strategies) == 0
    # and the second player's win is no accident of hidden cards: the open game agrees
    assert cardlab.solve(game.with_options(open_hands=True).new_initial_state()).value == -1


def test_too_large_names_the_size():
    s = tiny_koinobori()
    with pytest.raises(cardlab.TooLargeError, match=r"more than max_nodes=100 nodes"):
        solve_equilibrium(s, max_nodes=100)
    with pytest.raises(cardlab.TooLargeError, match=r"33 \+ 1 = 34 sequences, more than max_sequences=20"):
        solve_equilibrium(s, max_sequences=20)


def test_refuses_dags_frontiers_and_other_games():
    s = tiny_koinobori()
    with pytest.raises(cardlab.NotSolvableError, match="merge_transpositions=False"):
        solve_equilibrium(cardlab.tree(s))
    with pytest.raises(cardlab.NotSolvableError, match="frontier"):
        solve_equilibrium(cardlab.tree(s, merge_transpositions=False, max_depth=2))
    G = matrix_tree([[1]], ["a"])
    G.nodes[2]["returns"] = (Fraction(1), Fraction(1))
    with pytest.raises(cardlab.NotSolvableError, match="zero-sum"):
        solve_equilibrium(G)
    with pytest.raises(TypeError, match="State or a networkx DiGraph"):
        solve_equilibrium("kuhn")
    with pytest.raises(ValueError, match="at least 1"):
        cfr(kuhn_tree(), 0)


def test_imperfect_recall_is_refused():
    """A tree where player 0 forgets their own first move cannot be solved by the sequence form."""
    G = nx.DiGraph(root=0)
    G.add_node(0, player=0, terminal=False, returns=None, infoset="0:a", frontier=False)
    for i, a in enumerate(("l", "r")):
        n = 1 + i
        G.add_node(n, player=0, terminal=False, returns=None, infoset="0:b", frontier=False)
        G.add_edge(0, n, action=a, player=0, prob=None)
        for j, b in enumerate(("x", "y")):
            m = 3 + 2 * i + j
            G.add_node(m, player=-2, terminal=True, returns=(Fraction(i ^ j), -Fraction(i ^ j)),
                       infoset=None, frontier=False)
            G.add_edge(n, m, action=b, player=0, prob=None)
    with pytest.raises(cardlab.NotSolvableError, match="perfect recall"):
        solve_equilibrium(G)


@pytest.mark.parametrize("rounds, value", [(1, Fraction(1, 3)), (2, Fraction(1, 2)), (5, Fraction(5, 7))])
def test_mipig_end_janken_as_a_hidden_information_game(rounds, value):
    """MP-25, MP-Q3: the end-of-game janken played out as simultaneous picks
    (hidden hands: the second chooser does not see the first pick) has the
    equilibrium value that tiebreak="value" uses (mipig.janken_value); with
    open hands the pick stays sealed (issue Q) and cardlab.solve, taking the
    janken as a matrix game, finds the same value (it used to be 0: the
    second chooser saw the pick)."""
    from cardlab.games.mipig import MARKS, janken_value

    ref = next(e for e in json.loads((DATA / "reference" / "mipig.json").read_text("utf-8"))
               if e["name"] == "draw-then-tiebreak-value")
    game = cardlab.load("mipig", **{**ref["options"], "open_hands": False, "tiebreak": "janken",
                                    "janken_rounds": rounds})
    s = game.state_from_dict({**ref["position"], "options": game.options_dict()})
    eq = solve_equilibrium(s)
    rock, paper, scissors = (MARKS.index(m) for m in ("rock", "paper", "scissors"))
    assert eq.value == value == janken_value([rock, paper], [rock, scissors], rounds)
    first_pick = eq.strategies[0]["0:1"]
    assert first_pick["pick rock"] == 1 - Fraction(1, rounds + 2)
    open_game = game.with_options(open_hands=True)
    assert cardlab.solve(open_game.state_from_dict({**ref["position"],
                                                    "options": open_game.options_dict()})).value == value
