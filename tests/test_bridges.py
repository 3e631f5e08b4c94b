"""Bridges: Gambit .efg files (write, read back, pygambit agrees) and the
OpenSpiel adapter (random_sim_test on every game, OpenSpiel's algorithms on
cardlab games).  pygambit and pyspiel are optional: those tests skip without."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import cardlab
from cardlab.bridges.gambit import EFGError, read_efg, write_efg
from cardlab.equilibrium import game_tree, matrix_tree, solve_equilibrium

from test_equilibrium import RPS, TINY_DECK, kuhn_tree, tiny_koinobori

KUHN_EFG = """EFG 2 R "Kuhn poker" { "Alice" "Bob" }
"the classic, written by hand in Gambit's format"
c "" 1 "" { "JQ" 1/6 "JK" 1/6 "QJ" 1/6 "QK" 1/6 "KJ" 1/6 "KQ" 1/6 } 0
"""


def _kuhn_efg_text() -> str:
    """A hand-written .efg of Kuhn poker (own card, then the betting)."""
    lines = [KUHN_EFG.rstrip("\n")]
    cards = "JQK"
    infoset = {}
    outcome = [0]

    def iset(p, key):
        d = infoset.setdefault(p, {})
        d.setdefault(key, len(d) + 1)
        return d[key]

    def leaf(v):
        outcome[0] += 1
        lines.append(f't "" {outcome[0]} "" {{ {v}, {-v} }}')

    for c0 in range(3):
        for c1 in range(3):
            if c0 == c1:
                continue
            s = 1 if c0 > c1 else -1
            lines.append(f'p "" 1 {iset(1, cards[c0])} "" {{ "pass" "bet" }} 0')
            lines.append(f'p "" 2 {iset(2, cards[c1] + "p")} "" {{ "pass" "bet" }} 0')
            leaf(s)
            lines.append(f'p "" 1 {iset(1, cards[c0] + "pb")} "" {{ "pass" "bet" }} 0')
            leaf(-1)
            leaf(2 * s)
            lines.append(f'p "" 2 {iset(2, cards[c1] + "b")} "" {{ "pass" "bet" }} 0')
            leaf(1)
            leaf(2 * s)
    return "\n".join(lines) + "\n"


# -- Gambit ------------------------------------------------------------------------------
def test_kuhn_from_a_hand_written_efg_has_value_minus_one_eighteenth():
    G = read_efg(_kuhn_efg_text())
    assert G.graph["players"] == ["Alice", "Bob"]
    assert G.number_of_nodes() == 55
    assert solve_equilibrium(G).value == Fraction(-1, 18)


def test_efg_round_trip_keeps_structure_and_value(tmp_path):
    s = tiny_koinobori()
    G = game_tree(s)
    path = tmp_path / "tiny.efg"
    text = write_efg(G, path)
    assert path.read_text(encoding="utf-8") == text
    H = read_efg(path)
    assert H.number_of_nodes() == G.number_of_nodes()
    assert sorted(d["action"] for _, _, d in H.edges(data=True)) == \
        sorted(d["action"] for _, _, d in G.edges(data=True))
    probs = sorted(d["prob"] for _, _, d in H.edges(data=True) if d["prob"] is not None)
    assert probs == sorted(d["prob"] for _, _, d in G.edges(data=True) if d["prob"] is not None)
    n_infosets = len({d["infoset"] for _, d in G.nodes(data=True) if d["infoset"]})
    assert len({d["infoset"] for _, d in H.nodes(data=True) if d["infoset"]}) == n_infosets
    assert solve_equilibrium(H).value == solve_equilibrium(G).value == Fraction(11, 14)
    assert cardlab.solve_tree(H)[0] == cardlab.solve_tree(G)[0]


def test_efg_quotes_and_state_input():
    G = matrix_tree([[1, -1], [-1, 1]], ['say "hi"', "back\\slash"])
    H = read_efg(write_efg(G, title='a "quoted" title'))
    assert H.graph["game"] == 'a "quoted" title'
    assert [d["action"] for _, _, d in H.out_edges(0, data=True)] == ['say "hi"', "back\\slash"]
    text = write_efg(tiny_koinobori())  # a position is expanded with perfect recall
    assert text.startswith('EFG 2 R "cardlab.load(\'koinobori\'')


def test_bad_efg_names_line_and_problem():
    with pytest.raises(EFGError, match="line 1: the file must start with 'EFG 2 R'"):
        read_efg("NFG 1 R \"x\" { \"a\" \"b\" }\n")
    bad = KUHN_EFG.replace("1/6 } 0", "1/5 } 0")
    with pytest.raises(EFGError, match="do not sum to 1"):
        read_efg(bad)
    with pytest.raises(EFGError, match=r"line 3: a node starts with 'c', 'p' or 't', not 'x'"):
        read_efg('EFG 2 R "g" { "a" "b" }\n""\nx "" 1\n')


def test_gambit_lp_agrees_with_cardlab():
    """pygambit reads the .efg and its own exact LP gives the same value."""
    pytest.importorskip("pygambit")
    from cardlab.bridges.gambit import pygambit_value

    assert pygambit_value(kuhn_tree()) == Fraction(-1, 18)
    assert pygambit_value(read_efg(_kuhn_efg_text())) == Fraction(-1, 18)
    assert pygambit_value(matrix_tree(RPS, ["r", "p", "s"])) == 0
    game = cardlab.load("koinobori", deck={**TINY_DECK, "cards": {**TINY_DECK["cards"], "higoi": 3}})
    s = game.new_initial_state()  # 9 cards: 1,297 nodes
    assert pygambit_value(s) == solve_equilibrium(s).value


# -- OpenSpiel ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pyspiel():
    mod = pytest.importorskip("pyspiel")
    from cardlab.bridges import openspiel

    openspiel.register()
    return mod


@pytest.mark.parametrize("name", cardlab.games())
@pytest.mark.parametrize("open_hands", [False, True])
def test_openspiel_random_sim_test(pyspiel, name, open_hands):
    """OpenSpiel's own conformance test (random playouts, serialisation)."""
    game = pyspiel.load_game(f"cardlab_{name}", {"options": json.dumps({"open_hands": open_hands})})
    assert game.get_type().short_name == f"cardlab_{name}"
    info = game.get_type().information
    spec = cardlab.load(name, open_hands=open_hands).spec
    # a sealed simultaneous pick (mipig's janken, issue Q) is imperfect information, open hands too
    assert (info == pyspiel.GameType.Information.PERFECT_INFORMATION) == (open_hands and not spec.simultaneous)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_actions_are_stable_strings(pyspiel):
    from cardlab.bridges.openspiel import openspiel_game, to_cardlab

    game = openspiel_game(cardlab.load("koinobori", open_hands=True))
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    ids = s.legal_actions()
    assert ids == sorted(ids)
    names = [s.action_to_string(s.current_player(), a) for a in ids]
    assert sorted(names) == sorted(to_cardlab(s).legal_actions())
    again = openspiel_game(cardlab.load("koinobori", open_hands=True))
    assert again.actions is game.actions  # one mapping per game options in a process
    t = again.new_initial_state()
    for a in s.history():
        t.apply_action(a)
    assert to_cardlab(t) == to_cardlab(s)


def test_openspiel_action_limit_names_it(pyspiel):
    from cardlab.bridges.openspiel import openspiel_game

    game = openspiel_game(cardlab.load("mipig", hand_size=3), max_actions=5)
    with pytest.raises(cardlab.TooLargeError, match="more than max_actions=5 distinct actions"):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])


def test_openspiel_search_matches_cardlab_solve(pyspiel):
    """OpenSpiel's expectiminimax (chance) and alpha_beta_search (a position
    declared deterministic) give cardlab.solve's values."""
    from open_spiel.python.algorithms import minimax

    from cardlab.bridges.openspiel import openspiel_game

    game = cardlab.load("koinobori", deck=TINY_DECK, open_hands=True)
    s = game.new_initial_state()
    og = openspiel_game(s)
    value, _ = minimax.expectiminimax(og.new_initial_state(), 100, None, 0)
    assert value == pytest.approx(float(cardlab.solve(s).value))
    # a mipig open-hand position without chance: alpha-beta
    mg = cardlab.load("mipig", hand_size=2, open_hands=True, first_player=0, tiebreak="value",
                      hands=[["p01", "p05"], ["p09", "p12"]])
    m = mg.new_initial_state()
    ab = openspiel_game(m, deterministic=True)
    value, _ = minimax.alpha_beta_search(ab, maximum_depth=100, maximizing_player_id=0)
    assert value == pytest.approx(float(cardlab.solve(m).value))


def test_openspiel_cfr_and_mcts_run_on_cardlab(pyspiel):
    """OpenSpiel's CFR (tabular, perfect-recall information state strings)
    approaches the exact value; its MCTS bot plays a whole game."""
    import numpy as np
    from open_spiel.python.algorithms import cfr as os_cfr
    from open_spiel.python.algorithms import expected_game_score, mcts

    from cardlab.bridges.openspiel import openspiel_game

    og = openspiel_game(cardlab.load("koinobori", deck=TINY_DECK))
    solver = os_cfr.CFRPlusSolver(og)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    v = expected_game_score.policy_value(og.new_initial_state(), [policy] * 2)
    assert v[0] == pytest.approx(11 / 14, abs=0.05)
    mg = openspiel_game(cardlab.load("mipig", hand_size=2, open_hands=True))
    bots = [mcts.MCTSBot(mg, 1.4, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                         random_state=np.random.RandomState(1)) for _ in range(2)]
    s = mg.new_initial_state()
    rng = np.random.RandomState(2)
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            s.apply_action(bots[s.current_player()].step(s))
    assert sorted(s.returns()) in ([-1.0, 1.0], [0.0, 0.0])
