"""The class app's set-up as a student reads it (issue L): every option
with a whole, readable label and its help on hover, a choice of None shown
as words (not a blank box), and the game's rule digest on the page."""

from __future__ import annotations

import pytest

import cardlab
from cardlab.widgets.app import RULES_DIR, PlayApp
from cardlab.widgets.board import option_value, option_widget
from cardlab.widgets.controls import value_text


@pytest.mark.parametrize("game", cardlab.games())
def test_every_option_reads_whole_with_its_help(game, monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = PlayApp(game=game)
    g = cardlab.load(game)
    assert app.option_widgets, game
    for name, w in app.option_widgets.items():
        opt = g.OPTIONS[name]
        assert w.description == opt.title(name) and "_" not in w.description
        # never a fixed box that cuts the label: as wide as it needs, or as wide as label and longest value
        assert w.layout.width == "auto" or w.layout.width.endswith("em")
        assert w.tooltip.startswith(opt.doc)  # the help on hover is what the option does
        assert option_value(w) == opt.default
        if hasattr(w, "options"):  # a dropdown or a switch: every value in words, the default is shown
            assert all(label.strip() and "_" not in label for label, _ in w.options), w.options
            assert w.value is not None and w.label == value_text(name, opt, opt.default)


def test_a_choice_of_none_is_shown_and_chosen():
    """Toritsuki's first_player default None (a coin) was a blank dropdown."""
    opt = cardlab.load("toritsuki").OPTIONS["first_player"]
    w = option_widget("first_player", opt, None)
    assert w.label == opt.choice_text(None) and option_value(w) is None
    w.value = 1
    assert option_value(w) == 1
    app = PlayApp(game="toritsuki")
    app.option_widgets["first_player"].value = 0
    assert app.options()["first_player"] == 0
    app.option_widgets["first_player"].value = option_widget("first_player", opt, None).value
    assert "first_player" not in app.options()


def test_app_link_with_a_choice_of_none():
    app = PlayApp(query="game=toritsuki&first_player=none&seed=2")
    assert app.board is not None and app.board.game.options["first_player"] is None
    assert option_value(app.option_widgets["first_player"]) is None


@pytest.mark.parametrize("game", cardlab.games())
def test_the_rules_digest_is_on_the_page(game, monkeypatch):
    """The digest ``docs/rules/<game>.md`` (every rule id) folds open on the
    page, with the set-up and under a board a link started."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    g = cardlab.load(game)
    text = (RULES_DIR / g.rules).read_text("utf-8")
    for app in (PlayApp(game=game), PlayApp(query=f"game={game}&seed=1")):
        assert app.rules_box in app.children
        (panel,) = app.rules_box.children
        assert panel.get_title(0) == f"Rules, rule by rule (docs/rules/{g.rules})"
        (out,) = panel.children
        assert out.outputs[0]["data"]["text/markdown"] == text


def test_seat_pickers_stay_when_the_game_changes_with_as_many_seats(monkeypatch):
    """The seat pickers are rebuilt only when the number of seats changes: a
    seat chosen in the page just before another two-player game is picked
    stays chosen (the browser had set the old picker while the kernel built
    new ones); MONSTER CARDS with three players gets three."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    app = PlayApp(game="koinobori")
    pickers = list(app.seats_box.children)
    pickers[1].value = "person"
    app.game_picker.value = "mipig"
    assert list(app.seats_box.children) == pickers and app.players == ["person", "person"]
    app.game_picker.value = "monster_cards"
    app.option_widgets["players"].value = 3
    assert len(app.players) == 3 and app.players[:2] == ["person", "person"]
    app.game_picker.value = "mipig"
    assert len(app.players) == 2


def test_a_pupils_kernel_does_not_load_networkx():
    """Issue W, item 9: every pupil's page has a kernel of its own (make play), and
    none draws a game tree; networkx was 22 MB of such a kernel's 61 after
    ``import cardlab.widgets``.  The class app's page loads it only if a tree is
    asked for, and a tree still comes as networkx's graph."""
    import os
    import subprocess
    import sys

    code = ("import sys, cardlab.widgets\n"
            "app = cardlab.widgets.play_app()\n"
            "assert 'networkx' not in sys.modules, 'networkx loaded by the class page'\n"
            "import cardlab, networkx\n"
            "G = cardlab.tree(cardlab.load('mipig', hand_size=1, open_hands=True).new_initial_state(1), max_depth=2)\n"
            "assert isinstance(G, networkx.DiGraph) and G.number_of_nodes() > 1\n")
    env = {k: v for k, v in os.environ.items() if k != "QUERY_STRING"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
