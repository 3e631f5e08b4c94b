"""Boards and tree views driven headless: every control is clicked from
Python (``button.click()``, setting a dropdown's value) and what changed is
checked.  No browser is needed."""

from __future__ import annotations

import html
import random

import pytest

import cardlab
from cardlab import render
from cardlab.agents import RandomAgent, open_hands_copy
from cardlab.widgets import AGENT_DEFAULTS, SEAT_CHOICES, Board, TreeView, board, tree_svg

from test_render import ENDGAME

FAST = {"solver": {"max_nodes": 500, "samples": 2}, "mcts": {"iterations": 20}}
AGENT_NAMES = [a for a in SEAT_CHOICES if a in cardlab.agents.AGENTS]  # the levels: tests/test_levels.py


def hand_over(b: Board) -> None:
    """Two persons at one screen: when the privacy screen is up, check that
    nothing of the game is drawn, then click "Pass to Player p"."""
    if b.waiting_for is None:
        return
    p = b.waiting_for
    assert b.status_box.children == (b.status, b.ready_button)
    assert b.ready_button.description == f"Pass to Player {p} — click when ready"
    assert not b.action_buttons and not b.pick_buttons and b.items_box.children == ()
    assert b.table.value == b.log_html.value == b.explanation.value == b.hint_html.value == ""
    b.ready_button.click()
    assert b.waiting_for is None and b.perspective == p and b.status_box.children == (b.status,)


def click_to_end(b: Board, seed: int, limit: int = 3000, each=None) -> int:
    """Click seeded random action buttons until the game ends; the clicks made
    (a privacy screen between two persons' turns is passed with :func:`hand_over`).
    ``each(b)``, when given, checks the board before every click."""
    rng = random.Random(seed)
    clicks = 0
    while not b.state.is_terminal():
        hand_over(b)
        assert b.action_buttons, f"stuck: {b.status.value}"
        assert clicks < limit
        if each is not None:
            each(b)
        rng.choice(sorted(b.action_buttons.values(), key=lambda w: w.description)).click()
        clicks += 1
    return clicks


def board_plays_to_the_end(name: str, seed: int, stage: str, limit: int = 1000) -> tuple[set, str]:
    """A person against random on the board of ``name``, drawn by its own
    renderer (``cardlab.games.<name>.render``), clicked to the end; checks each
    click's labels and table, and the final table in both views.  Returns
    the values of the state's ``stage`` attribute seen on the way and the
    last table as player 0 saw it."""
    module = cardlab.games.package(name).render
    b = board(name, ["person", "random"], seed=seed)
    seen = set()

    def check(b):
        assert not b._message, b._message
        seen.add(getattr(b.state, stage))
        for a, button in b.action_buttons.items():
            assert button.description == render.action_label(b.state, a)
        assert b.table.value == module.html(b.state, perspective=0)

    click_to_end(b, seed, limit=limit, each=check)
    assert not b._message, b._message
    assert b.status.value.startswith("Game over: ")
    final = b.table.value
    assert final == module.html(b.state, perspective=0)
    b.view_picker.value = "all"
    assert b.table.value == module.html(b.state)
    return seen, final


def koinobori_endgame(**options):
    game = cardlab.load("koinobori", **options)
    return game.state_from_dict(dict(ENDGAME, options=game.options_dict()))


# -- playing whole games ---------------------------------------------------------
def fast_agent(name: str, seed: int) -> cardlab.agents.Agent:
    """The named agent with small budgets, so whole games stay quick in tests."""
    agent = cardlab.agents.AGENTS[name](seed=seed, **FAST.get(name, {}))
    if name == "solver":
        agent.fallback.iterations = 20  # its MCTS fallback, used when a position is too large
    return agent


@pytest.mark.parametrize("agent", AGENT_NAMES)
def test_every_board_plays_to_the_end_against_every_agent(game_name, agent):
    n = cardlab.load(game_name).spec.num_players
    for seed in (1, 2) if game_name == "koinobori" else (1,):  # the others' agents are slower
        b = board(game_name, ["person", fast_agent(agent, seed)] + ["random"] * (n - 2), seed=seed)
        assert b.players == ["person", agent] + ["random"] * (n - 2)
        assert not b._message, b._message
        clicks = click_to_end(b, seed)
        assert clicks >= 1 and not b._message
        assert b.status.value.startswith("Game over: ")
        assert b.action_buttons == {} and b.actions_box.children == ()
        assert b.hint_button.disabled and b.step_button.disabled and b.run_button.disabled
        assert len(b.log_lines()) == len(b.match.history)
        persons = [m for m in b.match.history if m.player == 0]
        assert len(persons) == clicks


def test_generic_board_plays_every_game_to_the_end(game_name):
    """A game without its own renderer still gets a working board: the text
    board (or one player's observation) and one button per legal action."""
    n = cardlab.load(game_name).spec.num_players
    b = board(game_name, ["person"] + ["random"] * (n - 1), seed=3, renderer="generic")
    assert b.table.value == render.generic_html(b.state, perspective=0)
    assert list(b.action_buttons) == b.state.legal_actions()
    click_to_end(b, 3)
    assert b.table.value == render.generic_html(b.state, perspective=0)
    b.view_picker.value = "all"
    assert b.table.value == render.generic_html(b.state) == f'<pre class="cardlab-board">{html.escape(str(b.state))}</pre>'


def test_board_offers_exactly_the_legal_actions(game_name):
    b = board(game_name, seed=4)
    s = b.state
    assert s.current_player == 0
    assert list(b.action_buttons) == s.legal_actions()
    for a, button in b.action_buttons.items():
        assert button.description == render.action_label(s, a)
        assert button.tooltip == a  # the notation: explain() may preview hidden outcomes
    lay = render.layout(s, perspective=0)
    if lay is None:
        assert b.table.value == render.html(s, perspective=0)
        assert list(b.actions_box.children) == list(b.action_buttons.values())
    else:  # a grid: the actions with picks are chosen there, the others stay buttons
        assert (b.table.value, b.table_below.value) == (lay.above, lay.below)
        assert set(lay.paths) <= set(s.legal_actions())
        shown = [a for a, w in b.action_buttons.items() if w in b.actions_box.children]
        assert shown == [a for a in s.legal_actions() if a not in lay.paths]
        assert set(b.pick_buttons) == set(lay.offered())


def test_person_against_person_with_the_mover_view():
    """Two persons at one screen: each sees only their own view, and a
    privacy screen comes up whenever the screen must pass to the other."""
    b = board("koinobori", ["person", "person"], seed=3)
    assert b.view_picker.value == "mover" and b.perspective == 0 and b.waiting_for == 0
    screens, last = [], None
    rng = random.Random(3)
    while not b.state.is_terminal():
        p = b.state.current_player
        if p != last:
            screens.append(b.waiting_for)
            hand_over(b)
            last = p
        assert b.waiting_for is None and b.table.value == render.html(b.state, perspective=p)
        b.action_buttons[rng.choice(sorted(b.action_buttons))].click()
    movers = [m.player for m in b.match.history if m.player >= 0]
    turns = [p for i, p in enumerate(movers) if i == 0 or p != movers[i - 1]]
    assert screens == turns and len(turns) > 2  # a screen before every change of person
    assert {m.player for m in b.match.history} == {-1, 0, 1}
    assert b.waiting_for is None and "Game over" in b.status.value  # the last person keeps the screen


def test_agents_only_board_waits_for_step_and_run():
    """Without a person, agents move on step ▶ / run ▶▶ (autoplay off)."""
    b = board("koinobori", ["random", "heuristic"], seed=5)
    assert not b.autoplay and b.view_picker.value == "all" and b.perspective is None
    assert b.state.current_player == 0 and len(b.match.history) == 6  # the deal ran by itself
    assert not b.step_button.disabled and b.action_buttons == {}
    before = len(b.match.history)
    b.step_button.click()
    assert b.match.history[before].player == 0  # one agent decision...
    assert b.state.current_player >= 0 or b.state.is_terminal()  # ...then its chance events
    assert all(m.player == -1 for m in b.match.history[before + 1:])
    b.undo_button.click()  # no person: back one transition
    assert len(b.match.history) == len(b.states()) - 1
    b.run_button.click()
    assert b.state.is_terminal() and b.run_button.disabled


def test_autoplay_checkbox():
    b = board("koinobori", ["random", "random"], seed=6)
    assert not b.state.is_terminal()
    b.auto_box.value = True
    assert b.autoplay and b.state.is_terminal()
    b.new_button.click()
    assert b.state.is_terminal()  # autoplay on: the fresh game plays itself out
    b.auto_box.value = False
    b.new_button.click()
    assert b.state.current_player == 0


# -- undo, redo, new game ---------------------------------------------------------------
def test_undo_goes_back_to_the_persons_decision_and_redo_replays_it():
    b = board("koinobori", ["person", "random"], seed=7)
    assert b.undo_button.disabled and b.redo_button.disabled  # no move of a person yet
    start = b.state
    first = b.state.legal_actions()[0]
    b.action_buttons[first].click()
    after = b.state
    n_after = len(b.match.history)
    assert not b.undo_button.disabled
    b.undo_button.click()
    assert b.state == start and len(b.match.history) == 6
    assert list(b.action_buttons) == start.legal_actions()
    assert not b.redo_button.disabled
    b.redo_button.click()
    assert b.state == after and len(b.match.history) == n_after  # same chance outcomes
    assert b.redo_button.disabled
    b.undo_button.click()
    other = start.legal_actions()[-1]
    b.action_buttons[other].click()  # a different move: the redo is gone, the log follows
    assert b.redo_button.disabled and b.match.history[6].action == other
    states = b.states()
    assert states[-1] == b.state and len(states) == len(b.match.history) + 1
    assert all(x.apply(m.action) == y for x, m, y in zip(states, b.match.history, states[1:]))


def test_undo_with_nothing_to_undo_says_so():
    b = board("koinobori", seed=8)
    b.undo_button.click()
    assert "nothing to undo" in b.status.value
    b.redo_button.click()
    assert "nothing to redo" in b.status.value


def test_new_game_deals_again():
    b = board("koinobori", ["person", "random"], seed=9)
    click_to_end(b, 1)
    old = [m.action for m in b.match.history[:6]]
    b.new_button.click()
    assert len(b.match.history) == 6 and b.state.current_player == 0
    assert b.explanation.value.count("(KN-7)") >= 1
    assert not b.state.is_terminal()
    again = board("koinobori", ["person", "random"], seed=9)
    assert [m.action for m in again.match.history] == old  # the seed decides the deal


# -- seats, views, options ------------------------------------------------------------
def test_seat_picker_changes_who_plays():
    b = board("koinobori", ["person", "random"], seed=10)
    b.seat_pickers[1].value = "heuristic"
    assert b.players == ["person", "heuristic"]
    assert isinstance(b.match.players[1], cardlab.agents.HeuristicAgent)
    b.seat_pickers[0].value = "mcts"  # the person leaves: autoplay stays on, so agents finish
    assert b.players == ["mcts", "heuristic"] and b.state.is_terminal()
    b.seat_pickers[0].value = "person"
    assert b.state.is_terminal() and not b.action_buttons
    b.new_button.click()
    assert b.state.current_player == 0 and b.action_buttons


def test_seat_given_as_an_agent_object():
    agent = RandomAgent(seed=3)
    b = board("koinobori", ["person", agent], seed=1)
    assert b.match.players[1] is agent and b.seat_pickers[1].value == "random"
    b.set_player(1, "solver")
    assert b.match.players[1].max_nodes == AGENT_DEFAULTS["solver"]["max_nodes"]
    assert b.seat_pickers[1].value == "solver"
    other = cardlab.agents.MCTSAgent(seed=1, iterations=5)
    b.set_player(1, other)  # the very agent given, not a new one made from its name
    assert b.match.players[1] is other and b.seat_pickers[1].value == "mcts"


class FirstAgent(cardlab.agents.Agent):
    """A user's own agent: always the first legal action."""

    name = "first"

    def choose(self, state):
        return state.legal_actions()[0]


def test_a_users_own_agent_gets_its_seat_choice():
    mine = FirstAgent()
    b = board("koinobori", ["person", mine], seed=2)
    assert b.seat_pickers[1].options[-1] == ("first", "first") and b.seat_pickers[1].value == "first"
    b.seat_pickers[1].value = "random"
    assert b.players == ["person", "random"]
    b.seat_pickers[1].value = "first"  # chosen again from the dropdown: the same object
    assert b.match.players[1] is mine and not b._message
    click_to_end(b, 2)
    assert all(m.action == b.states()[i].legal_actions()[0]
               for i, m in enumerate(b.match.history) if m.player == 1)


def test_view_picker_switches_what_is_hidden_KN_Q8():
    """KN-Q8: the teacher shows what each player knows and what is hidden."""
    b = board("koinobori", ["person", "random"], seed=11)
    s = b.state
    assert b.table.value == render.html(s, perspective=0)
    for value, p in ((1, 1), ("all", None), ("mover", 0), (0, 0)):
        b.view_picker.value = value
        assert b.perspective == p
        assert b.table.value == render.html(s, perspective=p)
    b.view_picker.value = 1
    hidden = [line for line in b.log_lines() if "a card" in line]
    assert len(hidden) == 3 and all(x.endswith("Player 0 is dealt a card") for x in hidden)  # P0's cards (KN-7)
    b.view_picker.value = "all"
    assert not [line for line in b.log_lines() if "a card" in line]


def test_option_widgets_start_a_new_game_with_the_option_KN_15():
    """KN-15 koi-koi is switched on from the board (a new game starts)."""
    b = board("koinobori", seed=12)
    assert set(b.option_widgets) == {"open_hands", "payoff", "roles", "koikoi", "refill_after_draw_capture",
                                     "first_player"}
    b.action_buttons[b.state.legal_actions()[0]].click()
    b.option_widgets["koikoi"].value = True
    assert b.game.options["koikoi"] and len(b.match.history) == 6
    assert "koi-koi こいこい (KN-15)" in b.table.value
    b.option_widgets["payoff"].value = "score"
    assert b.game.options["payoff"] == "score" and b.game.options["koikoi"]
    assert b.game.spec.max_utility > 1


def test_koikoi_call_is_a_pair_of_buttons_at_the_right_moment_KN_15():
    """KN-15: after the third nobori the person gets exactly agari / koi-koi."""
    found = 0
    for seed in range(40):
        b = board("koinobori", ["person", "person"], seed=seed)
        b.option_widgets["koikoi"].value = True
        rng = random.Random(seed)
        hand_over(b)
        while not b.state.is_terminal() and "koikoi" not in b.action_buttons:
            b.action_buttons[rng.choice(sorted(b.action_buttons))].click()
            hand_over(b)
        if "koikoi" not in b.action_buttons:
            continue
        found += 1
        assert list(b.action_buttons) == ["agari", "koikoi"]
        assert b.action_buttons["koikoi"].description == "koi-koi こいこい (play on)"
        assert "call agari (上がり" in b.table.value
        if found == 1:
            b.action_buttons["agari"].click()
            assert b.state.is_terminal() and "(KN-15)" in b.explanation.value
        else:
            b.action_buttons["koikoi"].click()
            assert not b.state.is_terminal() and b.state.to_dict()["koikoi"] != [0, 0]
            break
    assert found == 2


# -- hints, explanations, the log ---------------------------------------------------------
def hint_cells(b, row) -> str:
    """A row's first two cells in the hint's table: the move as its button
    reads (its notation in the title) and its exact value."""
    return (f'<td title="{html.escape(row["action"])}">{html.escape(render.action_label(b.state, row["action"]))}'
            f'</td><td>{row["value"]}</td>')


def test_open_hint_gives_the_exact_value_of_each_action_in_a_small_endgame():
    s = koinobori_endgame()  # hidden hands: the open hint uses the open-hands copy
    b = board(s, ["person", "random"], seed=1, hint_nodes=100_000)
    assert b.state == s and not b.hint_button.disabled
    b.open_hint_box.value = True  # a teacher's choice
    b.hint_button.click()
    expected = cardlab.analyse(open_hands_copy(s), progress=False)
    for row in expected.rows:
        assert hint_cells(b, row) in b.hint_html.value
    best = [r["action"] for r in expected.rows if r["best"]]
    assert b.best_actions() == best
    assert [a for a, w in b.action_buttons.items() if w.button_style == "success"] == best
    assert "open hint (every card)" in b.hint_html.value and "open hands" in b.hint_html.value
    assert b.think_button.layout.display == "none"  # exact: thinking longer would change nothing
    b.action_buttons[best[0]].click()
    assert b.hint_html.value == "" and b.best_actions() == []  # the hint belonged to that position


def test_fair_hint_uses_only_what_the_player_can_see():
    """The default hint: cardlab.analyse(state, player=p) with a budget, exact
    over every arrangement of the cards p cannot see where the search
    finishes (the same answer as without a budget), with a progress bar."""
    s = koinobori_endgame()
    b = board(s, ["person", "random"], seed=1, hint_nodes=100_000)
    seen = []
    b.hint_progress.observe(lambda ch: seen.append((b.hint_progress.value, b.hint_progress.max)), names="value")
    b.hint_button.click()
    fair = cardlab.analyse(s, player=0, progress=False)
    assert fair.kind == "fair" and fair.arrangements > 1
    assert fair.title in html.unescape(b.hint_html.value) and "open hint" not in b.hint_html.value
    for row in fair.rows:
        assert hint_cells(b, row) in b.hint_html.value
    assert b.best_actions() == [r["action"] for r in fair.rows if r["best"]]
    assert [a for a, w in b.action_buttons.items() if w.button_style == "success"] == b.best_actions()
    assert html.escape(fair.advice(lambda a: render.action_label(s, a))) in b.hint_html.value
    assert html.escape(fair.assumption) in b.hint_html.value
    assert seen[-1] == (1000, 1000) and len(seen) > 1  # the analysis's progress, out of 1000
    assert b.hint_progress.layout.display == "none"  # shown while the hint is computed
    # a hint is shown to the view it was given to: not to the other player
    b.view_picker.value = 1
    assert b.hint_html.value == "" and b.action_buttons == {} and b.best_actions() == []
    assert b.hint().startswith("No hint: player 0 is to move, and a hint is shown only in player 0's own view")
    assert b.hint_html.value.startswith("No hint") and b.hint_button.disabled
    b.view_picker.value = 0
    assert b.hint_html.value == "" and not b.hint_button.disabled  # the refusal replaced the hint


def test_hint_estimates_where_the_old_one_said_too_large_and_thinks_longer():
    """At the first decision, where the exact search does not finish, the
    hint is an estimate: every move with its value and interval, the best
    marked, the advice; "think longer" asks again with four times the budget."""
    b = board("koinobori", seed=2, hint_nodes=2000)
    b.hint_button.click()
    page = b.hint_html.value
    assert "too large" not in page and "estimate" in page and "95 % interval" in page
    a = cardlab.analyse(b.state, player=0, nodes=2000)
    assert not a.exact and html.escape(a.title) in page
    assert page.count("<tr") == 1 + len(b.state.legal_actions()) and page.count("± ") >= len(a.rows)
    assert b.best_actions() == [r["action"] for r in a.rows if r["best"]]
    assert [x for x, w in b.action_buttons.items() if w.button_style == "success"] == b.best_actions()
    assert b.think_button.layout.display is None and b.think_button.description == "think longer"
    b.think_button.click()
    longer = cardlab.analyse(b.state, player=0, nodes=8000)
    assert html.escape(longer.title) in b.hint_html.value and b._hint_budget[3] == 8000
    assert b.think_longer() and b._hint_budget[3] == 32_000  # four times the last, at this position


def test_old_hint_caps_are_accepted_and_ignored_with_a_warning():
    with pytest.warns(DeprecationWarning, match="hint_max_nodes= is ignored"):
        b = board("koinobori", seed=2, hint_max_nodes=500, hint_nodes=1000)
    with pytest.warns(DeprecationWarning, match="hint_samples= is ignored"):
        board("koinobori", seed=2, hint_samples=6)
    assert "too large" not in b.hint() and b.best_actions()
    for bad in (0, -1, "abc", float("nan")):
        with pytest.raises(cardlab.BudgetError, match="seconds must be a positive number of seconds"):
            board("koinobori", hint_seconds=bad)
    with pytest.raises(cardlab.BudgetError, match="nodes must be a positive whole number"):
        board("koinobori", hint_nodes=0)


def test_hint_with_nothing_to_decide():
    b = board("koinobori", ["random", "random"], seed=3, autoplay=True)
    assert b.state.is_terminal() and b.hint_button.disabled
    assert b.hint().startswith("No hint: the game is over")


def test_explanation_line_cites_the_rule_of_the_last_action_KN_8_KN_10():
    """KN-8/KN-10: the explanation says what happened and which rule did it."""
    b = board("koinobori", ["person", "person"], seed=4)
    b.view_picker.value = "all"
    a = b.state.legal_actions()[0]
    b.action_buttons[a].click()
    last = b.match.history[-1]
    sentence, ids = render.split_rules(last.explanation)
    line = render.with_rules(sentence, ids)
    assert b.explanation_lines()[-1] == (line if last.player == -1 else f"P1 (person): {line}")
    assert html.escape(sentence) in b.explanation.value
    assert any(x in b.explanation.value for x in ("(KN-8", "(KN-10"))
    assert b.explanation_lines()[0].startswith("P0 (person): ")


def test_hidden_chance_events_are_hidden_in_explanation_and_log():
    b = board("koinobori", ["random", "person"], seed=5)  # seat 1 watches the deal and P0's turn
    assert b.perspective == 1
    lines = b.explanation_lines()
    hidden = [x for x in lines if "Player 0 is dealt a card" in x or "Player 0 draws a card" in x]
    assert hidden and all(x.endswith(")") and "(KN-" in x for x in hidden)
    assert sum(x.endswith("Player 0 is dealt a card") for x in b.log_lines()) >= 3


def test_board_repr_is_deterministic():
    a = board("koinobori", ["person", "heuristic"], seed=21)
    b = board("koinobori", ["person", "heuristic"], seed=21)
    assert repr(a) == repr(b) == "Board('koinobori', players=['person', 'heuristic'], view=0, moves=6)"
    assert a.table.value == b.table.value and a.log_html.value == b.log_html.value


# -- bad input -----------------------------------------------------------------------------
def test_bad_input_is_refused_and_changes_nothing():
    with pytest.raises(TypeError, match=r"game name \(str\), a cardlab.Game or a cardlab.State"):
        board(42)
    with pytest.raises(cardlab.UnknownGameError):
        board("no-such-game")
    with pytest.raises(ValueError, match="koinobori has 2 seats"):
        board("koinobori", ["person"])
    with pytest.raises(ValueError, match="'robot' is not a player"):
        board("koinobori", ["person", "robot"])
    with pytest.raises(ValueError, match="perspective must be"):
        board("koinobori", perspective=3)
    with pytest.raises(ValueError, match="renderer must be"):
        board("koinobori", renderer="fancy")
    b = board("koinobori", seed=1)
    before, n = b.state, len(b.match.history)
    with pytest.raises(cardlab.IllegalActionError):
        b.play("nobori fuki+higoi" if "nobori fuki+higoi" not in b.state.legal_actions() else "pass")
    with pytest.raises(cardlab.MalformedActionError):
        b.play("jump")
    with pytest.raises(ValueError, match="seat must be"):
        b.set_player(2, "random")
    with pytest.raises(cardlab.OptionError, match="unknown option 'speed'"):
        b.set_option("speed", 3)
    with pytest.raises(TypeError, match="set_state takes a cardlab.State"):
        b.set_state("turn")
    with pytest.raises(cardlab.CardlabError, match="is a person"):
        b.step()
    assert b.state == before and len(b.match.history) == n


def test_a_refused_option_puts_its_widget_back():
    b = board("koinobori", seed=1)
    w = b.option_widgets["payoff"]
    with pytest.raises(cardlab.OptionError):
        b.set_option("payoff", "money")
    assert w.value == "win" and b.game.options["payoff"] == "win"


# -- tree view -------------------------------------------------------------------------------
def test_tree_view_values_match_the_solver():
    s = koinobori_endgame(open_hands=True)
    tv = TreeView(s)
    assert tv.solved and tv.focus == 0 and tv.note == ""
    G = tv.graph
    assert G.number_of_nodes() == cardlab.tree(s, merge_transpositions=False).number_of_nodes()
    assert G.nodes[0]["value"][0] == cardlab.solve(s, progress=False).value
    assert f"v={G.nodes[0]['value'][0]}" in tv.picture.value
    assert list(tv.child_buttons) == s.legal_actions()
    assert repr(tv) == f"TreeView('koinobori', nodes={G.number_of_nodes()}, solved=True, focus='root')"


def test_tree_view_controls():
    s = koinobori_endgame(open_hands=True)
    b = board(s, ["person", "person"], seed=1)
    tv = TreeView(s, board=b, depth=1)
    assert tv.up_button.disabled and tv.root_button.disabled and not tv.jump_button.disabled
    first = s.legal_actions()[0]
    pic = tv.picture.value
    tv.child_buttons[first].click()
    assert tv.actions() == [first] and tv.focus != 0 and tv.picture.value != pic
    assert tv.focus_state == s.apply(first)
    tv.child_buttons[next(iter(tv.child_buttons))].click()  # a chance node's first outcome
    assert len(tv.actions()) == 2
    tv.up_button.click()
    assert tv.actions() == [first]
    tv.depth_picker.value = 3
    assert tv.depth == 3 and tv.picture.value.count("<text") > pic.count("<text")
    tv.jump_button.click()
    assert b.state == s.apply(first) or b.state.is_terminal() or b.match.history  # chance ran on
    assert b.states()[0] == s.apply(first)
    tv.root_button.click()
    assert tv.focus == 0 and tv.actions() == []


def test_tree_view_of_hidden_cards_uses_the_open_hands_copy():
    s = koinobori_endgame()
    tv = TreeView(s)
    assert tv.root_state == open_hands_copy(s) and "open-hands copy" in tv.note
    tv.jump_button.click()  # no board: says so, changes nothing
    assert "has no board" in tv.info.value and tv.focus == 0


def test_tree_view_too_large_says_so():
    s = cardlab.load("koinobori", open_hands=True).new_initial_state(seed=1)
    tv = TreeView(s, max_nodes=200, depth=1)
    assert not tv.solved and "more than 200 nodes" in tv.note
    assert "v=" not in tv.picture.value


def test_tree_view_bad_input():
    with pytest.raises(TypeError, match="TreeView takes a cardlab.State"):
        TreeView("koinobori")
    tv = TreeView(koinobori_endgame(open_hands=True))
    with pytest.raises(ValueError, match="is not an edge of the node in focus"):
        tv.expand("pass")
    with pytest.raises(ValueError, match="depth must be"):
        tv.set_depth(0)
    with pytest.raises(ValueError, match="not in the tree"):
        tree_svg(tv.graph, focus=10**6)


def test_tree_svg_marks_best_moves_and_is_pure():
    s = koinobori_endgame(open_hands=True)
    tv = TreeView(s)
    svg = tree_svg(tv.graph, 0, 1)
    assert svg == tree_svg(tv.graph, 0, 1)
    best = cardlab.solve(s, progress=False).best_actions
    assert svg.count('stroke="#2a8a3a"') == len(best)
    assert svg.count("<circle") + svg.count("<path") + svg.count("<rect") == 1 + len(s.legal_actions())


def test_value_text_for_two_players_and_for_max_n():
    from fractions import Fraction

    from cardlab.widgets.treeview import value_text

    assert value_text((Fraction(1, 2), Fraction(-1, 2))) == "v=1/2"
    assert value_text((Fraction(3), Fraction(1), Fraction(0))) == "v=(3, 1, 0)"
    assert value_text((Fraction(2), Fraction(1))) == "v=(2, 1)"  # not zero-sum: the whole tuple
    assert value_text(None) == ""


def test_action_tooltips_reveal_nothing_hidden():
    """Button tooltips show the notation only: an explanation previews the
    outcome, which may name a face-down card the mover cannot see."""
    import cardlab

    for name in cardlab.games():
        b = cardlab.widgets.board(cardlab.load(name), ["person", "person"], seed=3)
        hand_over(b)
        assert b.action_buttons
        for action, button in b.action_buttons.items():
            assert button.tooltip == action


def test_game_over_in_a_students_words():
    """Issue L: "Game over. Returns: 1, -1." read like a program; the board
    says who won, and the points only where the game pays points."""
    from fractions import Fraction
    from types import SimpleNamespace

    from cardlab.widgets.board import result_words

    def end(returns, **options):
        return SimpleNamespace(returns=lambda: returns, game=SimpleNamespace(options=options))

    assert result_words(end([1, -1])) == "player 0 wins"
    assert result_words(end([-1, 1], payoff="win")) == "player 1 wins"
    assert result_words(end([0, 0])) == "a draw"
    assert result_words(end([Fraction(-3), Fraction(3)], payoff="score")) == "player 1 wins by 3 (returns -3, 3)"
    assert result_words(end([Fraction(1), Fraction(1, 2), Fraction(-3, 2)])) == \
        "player 0 wins (returns 1, 1/2, -3/2)"
    assert result_words(end([1, -1, 1])) == "players 0 and 2 share the win"
    b = board("koinobori", ["random", "random"], seed=2)
    b.run_button.click()
    assert b.state.is_terminal()
    assert b.status.value == f"Game over: {result_words(b.state)}."


@pytest.mark.parametrize("name", cardlab.games())
def test_a_seeded_board_deals_what_the_same_seed_deals(name):
    """L: ``board(game, seed=1)`` (the welcome notebook's board) deals the
    cards that ``new_initial_state(seed=1)``, shown just below it, deals;
    agents take their own draws, so seating an agent changes no card."""
    game = cardlab.load(name)
    n = game.spec.num_players
    for seed in (1, 7):
        dealt = game.new_initial_state(seed=seed)
        for seats in (["person"] * n, ["heuristic"] + ["person"] * (n - 1), ["random"] * n):
            b = board(name, seats, seed=seed)
            first = next(s for s in b.match.states if s.current_player != cardlab.CHANCE)
            assert first == dealt, (seats, seed)
