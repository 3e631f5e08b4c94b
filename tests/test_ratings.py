"""cardlab.ratings: maximum-likelihood Elo ratings of a round robin."""

import math

import pytest

from cardlab.errors import CardlabError
from cardlab.ratings import SCALE, elo, expected_score


def test_two_players_three_quarters_is_191_elo():
    r = elo({("a", "b"): (75, 100)}, anchor="b")
    assert r["b"].rating == 0
    assert r["a"].rating == pytest.approx(400 * math.log10(3), abs=0.01)  # 190.85
    assert expected_score(r["a"].rating) == pytest.approx(0.75)


def test_fisher_interval_of_two_players():
    """Two players: the interval is ± z / sqrt(n p (1 - p)) in log-odds."""
    r = elo({("a", "b"): (75, 100)}, anchor="b")["a"]
    half = 1.96 * SCALE / math.sqrt(100 * 0.75 * 0.25)
    assert (r.lo, r.hi) == (pytest.approx(r.rating - half), pytest.approx(r.rating + half))
    assert (r.games, r.score) == (100, 75)


def test_symmetric_results_give_equal_ratings():
    results = {("a", "b"): (60, 100), ("b", "c"): (60, 100), ("c", "a"): (60, 100)}
    r = elo(results, anchor="a", anchor_rating=1000)
    assert [round(r[p].rating, 6) for p in "abc"] == [1000, 1000, 1000]


def test_anchor_shifts_every_rating_alike():
    results = {("a", "b"): (70, 100), ("b", "c"): (55, 80), ("a", "c"): (30, 40)}
    zero, thousand = elo(results, anchor="c"), elo(results, anchor="c", anchor_rating=1000)
    for p in "abc":
        assert thousand[p].rating - zero[p].rating == pytest.approx(1000)


def test_a_chain_adds_up():
    """a 75 % over b, b 75 % over c, never met: a is twice 191 over c."""
    r = elo({("a", "b"): (75, 100), ("b", "c"): (75, 100)}, anchor="c")
    assert r["b"].rating == pytest.approx(190.85, abs=0.01)
    assert r["a"].rating == pytest.approx(2 * 190.85, abs=0.02)
    assert r["a"].hi - r["a"].lo > r["b"].hi - r["b"].lo  # further from the anchor, less sure


def test_the_fit_is_the_top_of_the_likelihood():
    """At the fit, each player's expected points equal its points."""
    results = {("a", "b"): (62, 100), ("b", "c"): (41.5, 90), ("a", "c"): (70, 100), ("c", "d"): (66, 100)}
    r = elo(results, anchor="d")
    expected = {p: 0.0 for p in "abcd"}
    points = {p: 0.0 for p in "abcd"}
    for (x, y), (s, n) in results.items():
        e = n * expected_score(r[x].rating - r[y].rating)
        expected[x] += e
        expected[y] += n - e
        points[x] += s
        points[y] += n - s
    assert expected == pytest.approx(points)


def test_a_clean_sweep_needs_a_prior():
    with pytest.raises(CardlabError, match="prior="):
        elo({("a", "b"): (10, 10)}, anchor="b")
    r = elo({("a", "b"): (10, 10)}, anchor="b", prior=1)  # 10.5 of 11
    assert r["a"].rating == pytest.approx(SCALE * math.log(10.5 / 0.5), abs=0.01)
    assert r["a"].score == 10


@pytest.mark.parametrize("results, match", [
    ({("a", "b"): (5, 10), ("c", "d"): (5, 10)}, "chain of games"),
    ({("a", "a"): (5, 10)}, "two different players"),
    ({("a", "b"): (11, 10)}, "between 0 and the games"),
])
def test_bad_results_are_refused(results, match):
    with pytest.raises(CardlabError, match=match):
        elo(results, anchor="a")


def test_an_unknown_anchor_is_refused():
    with pytest.raises(CardlabError, match="anchor 'z' played no game; the players are: a, b"):
        elo({("a", "b"): (5, 10)}, anchor="z")
