"""Issue T item 6, the review of a game (``cardlab.review``): every decision
of every person, the fair value of the move made and of the best move, the
loss and a mark; the CLI's ``cardlab review``; the board's "review this
game" at game over; the teacher's per-room review."""

from __future__ import annotations

import copy
import json
import random

import pytest

import cardlab
from cardlab.cli import main
from cardlab.review import MARKS, THRESHOLDS, ReviewError, mark, record, review
from cardlab.rooms import RoomStore

#: small budgets: the tests check the review's bookkeeping, not the analysis's strength
NODES = 600
PNG = b"\x89PNG\r\n\x1a\n"


def agents_game(name: str, seed: int, players=("heuristic", "random")) -> cardlab.Match:
    m = cardlab.Match(cardlab.load(name), list(players), seed=seed)
    m.play_to_end()
    return m


@pytest.mark.parametrize("name", cardlab.games())
def test_T6_marks_follow_losses_and_thresholds(name):
    """A seeded agents' game of each game: every decision of every seat
    (only agents played) in order, each mark the one its loss (less its
    noise) earns against the game's thresholds, the best move's loss 0, the
    summary counting the marks."""
    m = agents_game(name, seed=4)
    r = review(m, nodes=NODES)
    movers = [(i + 1, mv.player, mv.action) for i, mv in enumerate(m.history) if mv.player >= 0]
    assert [(d.number, d.player, d.action) for d in r.decisions] == movers
    assert r.seats == [0, 1] and not r.stopped and r.over
    for d in r.decisions:
        assert d.loss >= 0 and d.noise >= 0
        if d.mark == "only move":
            assert len(d.state.legal_actions()) == 1
            continue
        assert d.mark == mark(d.loss, d.noise, THRESHOLDS[name], best=d.action == d.best)
        if d.action == d.best:
            assert d.loss == 0 and d.mark == "best"
        else:
            assert d.loss > 0 or d.value == d.best_value
        assert d.noise == 0 or not d.exact
        rows = {row["action"]: row["value"] for row in d.analysis.rows}
        assert rows[d.action] == d.value and rows[d.best] == d.best_value == max(rows.values())
    for p, s in r.summary().items():
        mine = [d for d in r.decisions if d.player == p and d.mark != "only move"]
        assert sum(s["counts"].values()) == s["decisions"] == len(mine)
        assert s["mean_loss"] == pytest.approx(sum(d.loss for d in mine) / max(1, len(mine)))
    text = str(r)
    assert text.count("\n") >= len(r.decisions) + 2 and "P0 heuristic" in text and "mean loss" in text
    assert "<table>" in r._repr_html_()


def test_T6_the_review_is_deterministic_and_reviews_the_persons():
    """A node budget gives the same review twice; a match with a person
    reviews that person's seat only (what a pupil wants), unless asked."""
    m = agents_game("koinobori", seed=2)
    a, b = review(m, nodes=NODES), review(m, nodes=NODES)
    assert [(d.value, d.best, d.mark) for d in a.decisions] == [(d.value, d.best, d.mark) for d in b.decisions]
    m.players[1] = None  # seat 1 was a person
    persons = review(m, nodes=NODES)
    assert persons.seats == [1] and {d.player for d in persons.decisions} == {1}
    assert [d.mark for d in persons.decisions] == [d.mark for d in a.decisions if d.player == 1]
    assert review(m, nodes=NODES, seats="all").seats == [0, 1]


def _exact_blunder(name: str = "koinobori"):
    """A decision of a seeded game where the analysis is exact and a legal
    move loses more than a mistake may: (match, index in the history, the bad move)."""
    limit = THRESHOLDS[name][2]
    for seed in range(1, 40):
        m = agents_game(name, seed, ("heuristic", "heuristic"))
        for i in range(len(m.history) - 1, -1, -1):
            s, mv = m.states[i], m.history[i]
            if mv.player < 0 or len(s.legal_actions()) < 2:
                continue
            a = cardlab.analyse(s, player=mv.player, nodes=NODES)
            if not a.exact:
                break  # earlier positions are larger still
            span = float(s.game.spec.max_utility - s.game.spec.min_utility)
            bad = [r["action"] for r in a.rows if float(r["loss"]) / span > limit]
            if bad:
                return m, i, bad[0]
    raise AssertionError("no exact endgame decision with a blunder in 40 seeded games")


def test_T6_a_planted_blunder_is_marked_a_blunder():
    """A move whose exact loss is large, planted in an endgame position of a
    seeded game (the game then played to its end), is marked a blunder."""
    m, i, bad = _exact_blunder()
    planted = cardlab.Match(m.game, ["heuristic", "heuristic"], seed=11, state=m.states[0])
    for mv in m.history[:i]:
        planted.play(mv.action)
    planted.play(bad)
    planted.play_to_end()
    r = review(planted, nodes=NODES)
    (d,) = [d for d in r.decisions if d.number == i + 1]
    assert d.action == bad and d.exact and d.noise == 0
    assert d.loss > THRESHOLDS["koinobori"][2] and d.mark == "blunder"
    assert r.summary()[d.player]["counts"]["blunder"] >= 1


def test_T6_moves_that_do_not_replay_are_refused_and_change_nothing():
    m = agents_game("koinobori", seed=5)
    rec = record(m)
    k = next(i for i, mv in enumerate(m.history) if mv.player >= 0 and len(m.states[i].legal_actions()) > 1)
    bad = copy.deepcopy(rec)
    bad["moves"][k] = "play nothing"
    kept = copy.deepcopy(bad)
    with pytest.raises(ReviewError, match=rf"move {k + 1} \('play nothing'\) does not replay: .*legal there: "):
        review(bad, nodes=NODES)
    assert bad == kept
    legal = m.states[k].legal_actions()
    wrong = next(a for a in m.states[k + 1].legal_actions() + ["pass"] if a not in legal)
    bad["moves"][k] = wrong
    with pytest.raises(ReviewError, match=rf"move {k + 1} .*legal there: {legal[0]}"):
        review(bad, nodes=NODES)
    with pytest.raises(cardlab.UnknownGameError):
        review({**rec, "game": "chess"})
    with pytest.raises(cardlab.BudgetError):
        review(m, nodes=0)
    with pytest.raises(ReviewError, match="not over"):
        review({**rec, "moves": rec["moves"][:k + 1]}, nodes=NODES)
    part = review({**rec, "moves": rec["moves"][:k + 1]}, nodes=NODES, unfinished=True)
    assert not part.over and part.decisions[-1].number == k + 1


def test_T6_ctrl_c_keeps_the_decisions_reviewed_so_far():
    m = agents_game("mazemon", seed=3)

    def stop_after_two(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    r = review(m, nodes=NODES, callback=stop_after_two)
    assert r.stopped and len(r.decisions) == 2 and r.total > 2 and "stopped: 2 of" in str(r)


def test_T6_plot_and_png():
    pytest.importorskip("matplotlib")
    r = review(agents_game("monster_cards", seed=2), nodes=NODES)
    fig = r.plot()
    ax = fig.axes[0]
    assert [ln.get_label() for ln in ax.lines if ln.get_label().startswith("P")] == ["P0 heuristic", "P1 random"]
    assert ax.lines[0].get_xdata()[-1] == r.length + 1  # the result, after the last move
    assert r.png().startswith(PNG)


def _class_export(tmp_path):
    store = RoomStore(tmp_path / "class.db")
    rooms = store.pairings("koinobori", ["alice", "bob", "carol"], seed=3)
    rng = random.Random(1)
    for room in rooms:
        while not (s := store.advance(room.id)).is_terminal():
            store.play(room.id, store.seq(room.id), rng.choice(s.legal_actions()))
    games, _results = store.export(tmp_path / "export")
    return store, games


def test_T6_cli_reviews_a_room_of_a_class_export(tmp_path, capsys):
    """``cardlab review games.json --room R1`` prints every person's moves
    with the pupils' names and marks; R2 (carol against an agent) only carol's."""
    _store, games = _class_export(tmp_path)
    assert main(["review", str(games), "--room", "R1", "--nodes", str(NODES)]) == 0
    out = capsys.readouterr().out
    assert "alice v bob" in out and "P0 alice" in out and "P1 bob" in out
    records = json.loads(games.read_text("utf-8"))
    lines = [ln for ln in out.splitlines() if ln.strip()[:1].isdigit()]  # a line a decision
    assert len(lines) == sum(1 for s in cardlab.rooms.replay(records[0])[:-1] if s.current_player >= 0)
    assert all(ln.split()[-1] in MARKS + ("move",) for ln in lines)  # "only move" ends in "move"
    assert main(["review", str(games), "--room", "R2", "--nodes", str(NODES)]) == 0
    out = capsys.readouterr().out
    assert "P0 carol" in out and "P1 " not in out


def test_T6_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    _store, games = _class_export(tmp_path)
    records = json.loads(games.read_text("utf-8"))
    records[0]["moves"][8] = "capture nothing"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(records), "utf-8")
    cases = [([str(tmp_path / "missing.json")], "missing.json"),
             ([str(games), "--room", "R9"], "no room 'R9'; the rooms are: R1, R2"),
             ([str(games)], "choose one with --room"),
             ([str(broken), "--room", "R1"], "move 9 ('capture nothing') does not replay")]
    for argv, said in cases:
        assert main(["review", *argv, "--nodes", str(NODES)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and said in err and "Traceback" not in err, err


def test_T6_board_offers_the_review_at_game_over():
    pytest.importorskip("matplotlib")
    import cardlab.widgets as cw
    from cardlab import agents

    b = cw.board("koinobori", ["heuristic", "person"], seat=1, locked=True, seed=3)
    b.review_nodes = NODES
    assert b.review_panel.layout.display == "none"  # during the game: no review (it would leak)
    bot = agents.make("heuristic", seed=1)
    while not b.state.is_terminal():
        b.play(bot.choose(b.state))
    assert b.review_panel.layout.display is None and b.review_panel.button.description == "review this game"
    b.review_panel.button.click()
    assert b._message == "" and bytes(b.review_panel.image.value).startswith(PNG)
    assert b.review_panel.image.layout.display is None and "<table>" in b.review_panel.table.value
    assert {d.player for d in b.review_panel.review.decisions} == {1}  # the person's seat
    b.set_language("ja")
    assert b.review_panel.button.description and bytes(b.review_panel.image.value).startswith(PNG)


def test_T6_teachers_page_reviews_a_finished_room(tmp_path):
    pytest.importorskip("matplotlib")
    from cardlab.widgets.room import Lobby

    store, _games = _class_export(tmp_path)
    lobby = Lobby(store, poll=None)
    rr = lobby.room_review
    assert [v for _label, v in rr.rooms.options] == ["R1", "R2"]
    rr.panel.nodes = NODES
    rr.rooms.value = "R2"
    rr.panel.button.click()
    assert bytes(rr.panel.image.value).startswith(PNG) and "carol" in rr.panel.table.value
