"""The opponents' levels (cardlab.agents.LEVELS): offered wherever an
opponent is chosen (the board's seat picker, the class app's opponent=, the
rooms' odd one, ``cardlab play --opponent``), bad names refused with the list
of levels, only what the player can see used, and a whole game of every game
played (small budgets: the levels' node budgets are made small here, and
their clock cap long, so a test is the same on a loaded machine)."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest

import cardlab
from cardlab import CHANCE, i18n
from cardlab.agents import LEVELS, NAMES, LevelAgent, level_label, make
from cardlab.core import sample_chance


@pytest.fixture
def small_levels(monkeypatch):
    """Every level with a fortieth of its budget (at least 100 nodes), a
    minute's clock: deterministic and quick; still weakest first."""
    for name, level in list(LEVELS.items()):
        monkeypatch.setitem(LEVELS, name, dataclasses.replace(level, nodes=max(100, level.nodes // 40),
                                                              seconds=60.0))


def _decision(game: cardlab.Game, seed: int, moves: int) -> cardlab.State:
    """A decision about ``moves`` random moves into a seeded game (with more than one legal move)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    done = 0
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s = s._apply(sample_chance(s, rng))
            continue
        if done >= moves and len(s.legal_actions()) > 1:
            return s
        s = s._apply(rng.choice(s.legal_actions()))
        done += 1
    pytest.skip("the game ended before the decision")


def test_the_levels_are_weakest_first_and_named_in_both_languages():
    assert list(LEVELS) == ["beginner", "club", "strong", "expert"]
    budgets = [level.nodes for level in LEVELS.values()]
    assert budgets == sorted(budgets) and len(set(budgets)) == 4
    assert max(level.seconds for level in LEVELS.values()) <= 2  # the strongest: at most 2 s a move
    assert level_label("club") == "club (中級者)"
    with i18n.using("ja"):
        assert [level_label(n) for n in LEVELS] == ["初心者", "中級者", "上級者", "達人"]
    assert NAMES[:4] == tuple(LEVELS) and "heuristic" in NAMES


@pytest.mark.parametrize("make_it", [lambda: LevelAgent("grandmaster"), lambda: level_label("grandmaster"),
                                     lambda: make("grandmaster")])
def test_a_bad_level_is_refused_with_the_list_of_levels(make_it):
    with pytest.raises(cardlab.CardlabError, match="'grandmaster'; the levels are: beginner, club, strong, expert"):
        make_it()


@pytest.mark.parametrize("game", cardlab.games())
def test_a_level_sees_only_what_its_player_sees(game, small_levels):
    """Two positions the player to move cannot tell apart: the same choice."""
    g = cardlab.load(game)
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        s = _decision(g, seed, 2 + seed)
        p = s.current_player
        t = s.redeal(p, rng)
        if t == s:
            continue
        assert t.information_set(p) == s.information_set(p)
        for name in ("beginner", "strong"):
            assert LevelAgent(name, seed=4).choose(s) == LevelAgent(name, seed=4).choose(t)
        checked += 1
        if checked == 2:
            break
    assert checked or g.spec.perfect_information, "no re-deal differed: the test would test nothing"


@pytest.mark.parametrize("game", cardlab.games())
def test_a_level_plays_a_whole_game_of_every_game(game, small_levels):
    m = cardlab.Match(cardlab.load(game), ["club", "random"], seed=2)
    assert isinstance(m.players[0], LevelAgent) and m.players[0].name == "club"
    assert m.play_to_end().is_terminal()
    assert m.players[0].last is not None  # it analysed at least one decision


def test_the_board_picker_offers_the_levels_with_their_lines():
    import cardlab.widgets

    b = cardlab.widgets.board("koinobori", ["person", "club"], seed=1, autoplay=False)
    dd = b.seat_pickers[1]
    values = [o if isinstance(o, str) else o[1] for o in dd.options]
    assert values[:5] == ["person", "beginner", "club", "strong", "expert"]
    assert dd.value == "club" and ("club (中級者)", "club") in dd.options
    assert isinstance(b.match.players[1], LevelAgent)
    assert "club (中級者): " + LEVELS["club"].doc in dd.tooltip
    b.set_player(1, "expert")
    assert b.players == ["person", "expert"]
    with pytest.raises(ValueError, match="use 'person' or an agent: beginner, club, strong, expert, random"):
        b.set_player(1, "grandmaster")
    jb = cardlab.widgets.board("koinobori", ["person", "strong"], seed=1, autoplay=False, language="ja")
    assert ("上級者", "strong") in jb.seat_pickers[1].options


def test_the_class_app_takes_a_level_as_opponent(monkeypatch, small_levels):
    from cardlab.widgets.app import PlayApp, parse_query

    monkeypatch.delenv("QUERY_STRING", raising=False)
    assert parse_query("game=mipig&opponent=club")["opponent"] == "club"
    with pytest.raises(cardlab.CardlabError, match="opponent accepts beginner, club, strong, expert, random"):
        parse_query("game=mipig&opponent=grandmaster")
    app = PlayApp(query="game=koinobori&seat=0&lock=1&opponent=beginner&seed=3")
    assert app.board is not None and app.board.players == ["person", "beginner"]
    assert isinstance(app.board.match.players[1], LevelAgent)
    setup = PlayApp(game="koinobori")
    assert "expert" in [o if isinstance(o, str) else o[1] for o in setup.seats_box.children[1].options]


def test_the_odd_one_in_the_rooms_plays_a_level(tmp_path, small_levels):
    from cardlab.rooms import RoomStore
    from cardlab.widgets.room import Lobby

    store = RoomStore(tmp_path / "class.db")
    rooms = store.pairings("koinobori", ["Aiko", "Ben", "Chie"], seed=4, odd="club")
    assert [r.seats for r in rooms] == [("person", "person"), ("person", "club")]
    with pytest.raises(cardlab.CardlabError, match=r"an agent \(beginner, club, strong, expert, random"):
        store.create("koinobori", ["person", "grandmaster"])
    both = store.create("koinobori", ["beginner", "club"], seed=1)
    assert store.advance(both.id).is_terminal()  # the agents' moves, stored
    lobby = Lobby(store, poll=None)
    values = [o if isinstance(o, str) else o[1] for o in lobby.odd.options]
    assert values[:4] == list(LEVELS) and lobby.odd.value == "heuristic"
    assert "expert (達人)" in lobby.odd.tooltip


def test_cardlab_play_against_a_level_to_the_end(capsys, monkeypatch, small_levels):
    from cardlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 40))
    assert main(["play", "koinobori", "--opponent", "club", "--seed", "3"]) == 0
    assert "game over; returns: " in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["play", "koinobori", "--opponent", "grandmaster"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'grandmaster'" in err and "'beginner', 'club', 'strong', 'expert'" in err
    monkeypatch.setenv("COLUMNS", "300")  # the help's lines unwrapped
    main_help = io.StringIO()
    monkeypatch.setattr("sys.stdout", main_help)
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    assert "club (中級者): " in main_help.getvalue()


def test_MP_Q2_two_levels_break_a_janken_tie():
    """MP-Q2: a janken tie is picked again.  Two levels that each always
    showed the hand their analysis valued highest tied for ever (the levels'
    round robin met it: club against beginner, mipig, rock against rock for
    ten minutes); at a simultaneous choice a level draws among the moves not
    clearly worse than the best, so the tie breaks.  The deal is that game's."""
    seed = random.Random("mipig club beginner 4").randrange(2**31)
    rng = random.Random(seed)
    club, beginner = make("club", seed=rng.randrange(2**32)), make("beginner", seed=rng.randrange(2**32))
    m = cardlab.Match(cardlab.load("mipig"), [beginner, club], seed=seed)
    while not m.state.simultaneous():
        m.step()
    for picks in range(40):
        if not m.state.simultaneous() and m.state.simultaneous_start() is None:
            break
        m.step()
    else:
        raise AssertionError(f"the janken is still tied after 40 picks: {m.history[-4:]}")
    assert picks >= 2  # at least one tie was played again


def test_a_level_draws_at_the_second_half_of_a_janken_too_MP_Q3(monkeypatch):
    """MP-Q3, MP-4: player 1 picks after player 0's unseen pick, where the state
    names no simultaneous players (``simultaneous()`` is empty there, only
    ``simultaneous_start()`` says so).  With an estimate that finds both picks
    equal, the level drew nothing there and always took the first: in the levels'
    round robin a beginner showed rock against the heuristic's rock 4,595 times in
    one mipig game, which never ended.  It draws among the picks not clearly worse."""
    import cardlab.analysis

    s = cardlab.load("mipig").new_initial_state(3)
    # a janken: play random moves to player 1's half of one
    rng = random.Random(3)
    while not (s.current_player == 1 and s.simultaneous_start() is not None):
        assert not s.is_terminal(), "no janken in this game"
        s = s.apply(sample_chance(s, rng) if s.current_player == CHANCE else rng.choice(s.legal_actions()))
    assert s.simultaneous() == ()
    rows = [{"action": a, "value": 1.0, "loss": 0.0, "best": True, "exact": False, "interval": (1.0, 1.0)}
            for a in s.legal_actions()]
    estimate = dataclasses.make_dataclass("Estimate", [("rows", list), ("mix", object)])(rows, None)
    monkeypatch.setattr(cardlab.analysis, "analyse", lambda *args, **kw: estimate)
    picks = {LevelAgent("beginner", seed=k).choose(s) for k in range(20)}
    assert picks == set(s.legal_actions())


def test_the_round_robins_earlier_games_count_only_where_the_levels_play_as_today(monkeypatch):
    """benchmarks/levels.py counts an earlier method's games where the code
    between the two changed only where a game never goes (``SAME_PLAY``): the
    janken fix (a LevelAgent branch at a simultaneous choice, and
    cardlab/matrix.py) for the games with no simultaneous choice.  Those games'
    states keep the protocol's "never simultaneous" answers; and a game of the
    earlier method fills only an index today's method has not played."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import levels
    from cardlab.core import State

    for (now, before), games in levels.SAME_PLAY.items():
        for name in games:
            assert not cardlab.load(name).spec.simultaneous, name
            cls = type(cardlab.load(name).new_initial_state(0))
            assert cls.simultaneous is State.simultaneous, name
            assert cls.simultaneous_start is State.simultaneous_start, name
    assert type(cardlab.load("mipig").new_initial_state(0)).simultaneous_start is not State.simultaneous_start
    (now, before), games = next(iter(levels.SAME_PLAY.items()))
    row = dict(game=games[0], a="club", b="beginner", score_a="1.0")
    rows = [dict(row, index="0", method=now), dict(row, index="0", method=before, score_a="0.0"),
            dict(row, index="1", method=before), dict(row, game="mipig", index="1", method=before),
            dict(row, a="heuristic", b="random", index="0", method="older")]
    monkeypatch.setattr(levels, "method", lambda: now)
    kept = levels.counted(rows)
    assert kept == [rows[0], rows[4], rows[2]]


@pytest.mark.parametrize("game, seats, warmed", [
    ("mipig", "['club', 'random']", True),
    ("mipig", "[Wrapped(cardlab.agents.make('club')), None]", True),  # as benchmarks/levels.py times a level
    ("mipig", "[None, None]", False),  # two people: no agent's clock to spare
    ("koinobori", "['club', 'random']", False)])
def test_a_match_with_an_agent_starts_sympy_before_the_first_janken_MP_4(game, seats, warmed):
    """MP-4: a janken tied for ever has its value at a fixed point that sympy
    solves; a process's first cost 0.26 s of CPU (sympy's start; the next ones
    0.002-0.006 s), inside a level's move (the round robin's 2.53 s where the
    cap is 1.75 s).  A Match with an agent in a game with simultaneous choices
    pays it when it is made; a game without them does not load sympy for it."""
    import subprocess
    import sys

    code = ("import sys, cardlab, cardlab.agents; assert 'sympy' not in sys.modules\n"
            "class Wrapped(cardlab.agents.Agent):\n"
            "    def __init__(self, agent): super().__init__(0); self.agent = agent\n"
            "    def choose(self, state): return self.agent.choose(state)\n"
            f"cardlab.Match(cardlab.load({game!r}), {seats}, seed=1); print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(warmed)]
