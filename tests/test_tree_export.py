"""Trees that networkx writes (issue Y, item 5): ``networkx.write_graphml``,
``write_gexf`` and ``node_link_data`` (through ``json``) take
``cardlab.tree(...)`` as it is and round-trip it, while lookups keep the
exact values (fractions, tuples, None) and the positions
(:func:`cardlab.tree_state`) for the code that computes with them."""

from __future__ import annotations

import json
from fractions import Fraction

import networkx as nx
import pytest

import cardlab
from cardlab.tree import tree_state

from test_core import ref_state

TINY = {"name": "tiny", "cards": {"higoi": 4, "aokoi": 3, "magoi": 3, "fukinagashi": 0, "kabutogaeshi": 0},
        "points": {"higoi": 2, "aokoi": 1, "magoi": 3}, "roles": []}


class _Trees(dict):
    """A merged endgame with chance and payoffs; an unmerged hidden-hands tree
    (information sets, None at chance and terminal nodes); each built when first asked for."""

    def __missing__(self, name):
        if name == "endgame":
            G = cardlab.tree(ref_state(1))
        else:
            G = cardlab.tree(cardlab.load("koinobori", deck=TINY).new_initial_state(), merge_transpositions=False)
        self[name] = G
        return G


TREES = _Trees()
NAMES = ["endgame", "hidden"]


def _exact_returns(text: str) -> tuple:
    return tuple(Fraction(x) for x in text.split())


@pytest.mark.parametrize("name", NAMES)
def test_networkx_write_graphml_round_trips_the_tree(name, tmp_path):
    G = TREES[name]
    path = tmp_path / "t.graphml"
    nx.write_graphml(G, path)  # raised "GraphML does not support type <class 'KoinoboriState'>" before
    H = nx.read_graphml(path, node_type=int)
    assert set(H.nodes) == set(G.nodes) and set(H.edges) == set(G.edges)
    assert H.graph["game"] == G.graph["game"] and H.graph["merged"] is G.graph["merged"]
    terminals = 0
    for n, d in G.nodes(data=True):
        assert H.nodes[n] == dict(d)  # every listed column, with its type (int, bool, str)
        assert H.nodes[n].get("parent") == d["parent"] and H.nodes[n].get("infoset") == d["infoset"]
        if d["terminal"]:
            terminals += 1
            assert _exact_returns(H.nodes[n]["returns_text"]) == d["returns"]
    chance = 0
    for u, v, e in G.edges(data=True):
        assert H.edges[u, v] == dict(e)
        if e["prob"] is not None:
            chance += 1
            assert Fraction(H.edges[u, v]["prob_text"]) == e["prob"]
    assert terminals and chance  # the tree has both, so the columns were tried


@pytest.mark.parametrize("name", NAMES)
def test_networkx_gexf_and_node_link_json_take_the_tree(name, tmp_path):
    G = TREES[name]
    nx.write_gexf(G, tmp_path / "t.gexf")
    X = nx.read_gexf(tmp_path / "t.gexf", node_type=int)
    assert X.number_of_nodes() == G.number_of_nodes() and X.number_of_edges() == G.number_of_edges()
    assert {X.nodes[n]["label"] for n in X} == {d["label"] for _, d in G.nodes(data=True)}
    text = json.dumps(nx.node_link_data(G))
    back = nx.node_link_graph(json.loads(text))
    assert set(back.edges) == set(G.edges)
    assert all(back.nodes[n] == dict(d) for n, d in G.nodes(data=True))
    assert "State" not in text and "Fraction" not in text


def test_lookups_keep_the_exact_values_the_listing_holds_plain_columns():
    G = TREES["endgame"]
    leaf = next(n for n, d in G.nodes(data=True) if d["terminal"])
    d = G.nodes[leaf]
    assert all(isinstance(r, Fraction) for r in d["returns"]) and "returns" in d and "returns" not in set(d)
    assert d["returns_text"] == " ".join(str(r) for r in d["returns"]) and "returns_text" in d
    root = G.nodes[0]
    assert root["parent"] is None and root.get("returns") is None and "parent" not in dict(root)
    u, v = next((u, v) for u, v, e in G.edges(data=True) if e["prob"] is not None)
    assert isinstance(G.edges[u, v]["prob"], Fraction) and "prob" not in dict(G.edges[u, v])
    assert isinstance(G.graph["state"], cardlab.State) and "state" in G.graph and "state" not in dict(G.graph)
    assert all(type(x) in (bool, int, float, str) for _, a in G.nodes(data=True) for x in a.values())


def test_tree_state_gives_each_node_s_position_and_refuses_a_graph_without_them(tmp_path):
    G = TREES["endgame"]
    s = ref_state(1)
    assert tree_state(G, 0) == s == cardlab.tree_state(G, 0)
    for u, v, e in list(G.edges(data=True))[:30]:
        if G.nodes[v]["parent"] == u:  # the edge through which v was first reached
            assert tree_state(G, v) == tree_state(G, u).apply(e["action"].split(" | ")[0]) == G.nodes[v]["state"]
    nx.write_graphml(G, tmp_path / "t.graphml")
    back = nx.read_graphml(tmp_path / "t.graphml", node_type=int)
    with pytest.raises(cardlab.CardlabError, match="keeps no positions"):
        tree_state(back, 0)
    with pytest.raises(cardlab.CardlabError, match="no node"):
        tree_state(G, -5)


def test_copies_keep_the_exact_values_and_the_positions():
    G = TREES["endgame"]
    for H in (G.copy(), G.subgraph(list(G.nodes)).copy()):
        assert all(H.nodes[n]["returns"] == d["returns"] for n, d in G.nodes(data=True))
        assert all(H.edges[u, v]["prob"] == e["prob"] for u, v, e in G.edges(data=True))
        assert tree_state(H, max(H.nodes)) == tree_state(G, max(G.nodes))
    assert cardlab.solve_tree(G.copy())[0] == cardlab.solve_tree(cardlab.tree(ref_state(1)))[0]


def test_after_solve_tree_both_writers_work(tmp_path):
    G = cardlab.tree(ref_state(1))
    values = cardlab.solve_tree(G)  # writes each node's exact value tuple
    nx.write_graphml(G, tmp_path / "nx.graphml")
    H = nx.read_graphml(tmp_path / "nx.graphml", node_type=int)
    assert _exact_returns(H.nodes[0]["value_text"]) == values[0]
    cardlab.write_graphml(G, tmp_path / "cardlab.graphml")  # every attribute under its own name, the boards too
    C = nx.read_graphml(tmp_path / "cardlab.graphml", node_type=int)
    assert _exact_returns(C.nodes[0]["value"]) == values[0] and C.nodes[0]["position"] == str(ref_state(1))
    leaf = next(n for n, d in G.nodes(data=True) if d["terminal"])
    assert _exact_returns(C.nodes[leaf]["returns"]) == G.nodes[leaf]["returns"]
    assert all(Fraction(e["prob"]) == G.edges[u, v]["prob"] and e["prob_float"] == float(G.edges[u, v]["prob"])
               for u, v, e in C.edges(data=True) if "prob" in e)


def test_a_tree_read_from_gambit_s_format_is_written_by_networkx_too(tmp_path):
    from cardlab.bridges.gambit import read_efg, write_efg

    G = cardlab.tree(cardlab.load("koinobori", deck=TINY).new_initial_state(), merge_transpositions=False)
    H = read_efg(write_efg(G))
    nx.write_graphml(H, tmp_path / "h.graphml")
    back = nx.read_graphml(tmp_path / "h.graphml", node_type=int)
    assert back.number_of_nodes() == G.number_of_nodes()
    leaf = next(n for n, d in H.nodes(data=True) if d["terminal"])
    assert _exact_returns(back.nodes[leaf]["returns_text"]) == H.nodes[leaf]["returns"]
    assert H.graph["players"] == ["player 0", "player 1"]  # the exact value on lookup, as before
    json.dumps(nx.node_link_data(H))
