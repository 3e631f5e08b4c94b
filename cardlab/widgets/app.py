"""The class app (``notebooks/play.ipynb``, served by Voila with ``make play``):
choose a game, the seats and the options, then play on a :class:`~cardlab.widgets.Board`.

A link can start a board directly, with no set-up: Voila puts the page's
query string into the kernel's environment variable ``QUERY_STRING``, and
:func:`play_app` reads it.  ``?game=mipig&seat=0&lock=1&opponent=heuristic&seed=3``
gives a student a locked board in seat 0 against the heuristic agent; game
options may follow (``&open_hands=0&hand_size=4``).  Bad parameters give a
message naming what is accepted, and no board.  The lock holds inside the
page; a student who edits the link gets the link they wrote, so hand out
the link and not the notebook.

Only the public API: :func:`cardlab.games`, :func:`cardlab.load`,
``Game.OPTIONS``, ``Game.spec`` and :func:`cardlab.widgets.board`.
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import ipywidgets as widgets

from ..agents import AGENTS
from ..core import Game, games, load
from ..errors import CardlabError
from .board import SEAT_CHOICES, Board, board, option_value, option_widget, shown_value

__all__ = ["PlayApp", "play_app", "parse_query", "QUERY_KEYS"]

#: the URL parameters besides the game's options
QUERY_KEYS = ("game", "seat", "lock", "opponent", "seed")
_IGNORED = ("token",)  # Voila's own: its token, and voila-template, voila-theme, ...
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
#: the rule digests of a clone of the repository (an installed wheel has none)
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_panel(game: Game) -> widgets.Widget:
    """The game's rule digest (``docs/rules/<game>.md``), folded, to read
    on the page itself: a link to a file outside the notebook folder opens
    neither in Voila nor in JupyterLab's output.  Where the digest is not
    at hand (cardlab installed without its repository), where to find it."""
    path = RULES_DIR / game.rules
    if not path.is_file():
        return widgets.HTML(f"Rules, rule by rule: <code>docs/rules/{html.escape(game.rules)}</code> in the "
                            "cardlab repository.")
    from IPython.display import Markdown

    out = widgets.Output()
    out.append_display_data(Markdown(path.read_text("utf-8")))
    panel = widgets.Accordion(children=[out])
    panel.set_title(0, f"Rules, rule by rule (docs/rules/{game.rules})")
    panel.selected_index = None
    panel.add_class("cardlab-play-rules")
    return panel


def _option_value(game: Game, name: str, text: str) -> Any:
    """A game option's value from its text in a URL: one of its choices
    (``0``/``1`` for a switch), a number, or a word."""
    opt = game.OPTIONS[name]
    low = text.strip().lower()
    if opt.choices is not None:
        for c in opt.choices:
            if isinstance(c, bool) and low in (_TRUE if c else _FALSE):
                return c
            if not isinstance(c, bool) and low == str(c).lower():
                return c
        accepted = "0 or 1" if set(opt.choices) == {False, True} else ", ".join(map(str, opt.choices))
        raise CardlabError(f"URL parameter {name}={text!r} is not accepted; {name} accepts {accepted}")
    if isinstance(opt.default, int) and not isinstance(opt.default, bool):
        try:
            return int(text)
        except ValueError:
            raise CardlabError(f"URL parameter {name}={text!r} is not accepted; {name} accepts a whole "
                               "number") from None
    if isinstance(opt.default, str):
        return text
    raise CardlabError(f"URL parameter {name!r} cannot be set from a link (it takes a card file or a "
                       "list); set it in a notebook")


def _settable(game: Game) -> list[str]:
    """The options a link may set: choices, numbers and words."""
    return [k for k, o in game.OPTIONS.items() if o.choices is not None or isinstance(o.default, (int, str))]


def parse_query(query: str) -> dict[str, Any]:
    """The settings a page's query string asks for (``{}`` when it asks for
    none): ``game``, ``seat`` (default 0), ``lock`` (0 or 1, default 0),
    ``opponent`` (an agent for every other seat, default ``heuristic``;
    ``person`` for two persons at one screen), ``seed`` (default 0) and
    ``options`` (the game's options given).  Raises
    :class:`~cardlab.CardlabError` naming what is accepted.

    >>> parse_query("game=mipig&seat=1&lock=1&hand_size=4")
    {'game': 'mipig', 'seat': 1, 'seed': 0, 'lock': True, 'opponent': 'heuristic', 'options': {'hand_size': 4}}
    >>> parse_query("token=abc")
    {}
    """
    pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)
             if k not in _IGNORED and not k.startswith("voila")]
    if not pairs:
        return {}
    given: dict[str, str] = {}
    for k, v in pairs:
        if k in given:
            raise CardlabError(f"URL parameter {k!r} is given twice")
        given[k] = v
    if "game" not in given:
        raise CardlabError(f"the link needs game=, one of {', '.join(games())} (other parameters: "
                           f"{', '.join(QUERY_KEYS[1:])} and the game's options)")
    name = given.pop("game")
    if name not in games():
        raise CardlabError(f"URL parameter game={name!r} is not a game; accepted: {', '.join(games())}")
    game = load(name)
    out: dict[str, Any] = {"game": name}
    for key, default in (("seat", "0"), ("seed", "0")):
        text = given.pop(key, default)
        try:
            out[key] = int(text)
        except ValueError:
            raise CardlabError(f"URL parameter {key}={text!r} is not accepted; {key} accepts a whole number"
                               ) from None
    lock = given.pop("lock", "0").strip().lower()
    if lock not in _TRUE + _FALSE:
        raise CardlabError(f"URL parameter lock={lock!r} is not accepted; lock accepts 0 or 1")
    out["lock"] = lock in _TRUE
    out["opponent"] = given.pop("opponent", "heuristic")
    if out["opponent"] not in SEAT_CHOICES:
        raise CardlabError(f"URL parameter opponent={out['opponent']!r} is not accepted; opponent accepts "
                           f"{', '.join(AGENTS)} (or person, for two persons at one screen)")
    settable = _settable(game)
    unknown = [k for k in given if k not in settable]
    if unknown:
        raise CardlabError(f"unknown URL parameter {unknown[0]!r}; accepted: {', '.join(QUERY_KEYS)} and the "
                           f"options of {name}: {', '.join(settable)}")
    out["options"] = {k: _option_value(game, k, v) for k, v in given.items()}
    return out


class PlayApp(widgets.VBox):
    """Choose a game, the seats and the options; "play" puts a board below
    and folds the set-up away ("◀ set-up" brings it back): the board has
    its own seat and option controls, so they are never shown twice.

    ``query`` (a page's query string, see :func:`parse_query`) that asks
    for a game starts that board at once, with no set-up; bad parameters
    show a message naming what is accepted.
    """

    def __init__(self, game: str = "koinobori", seed: int = 0, query: str = "") -> None:
        self.board: Board | None = None
        self.board_box = widgets.VBox()
        self.message = widgets.HTML()
        self.game_picker = widgets.Dropdown(
            options=[(f"{load(n).title}", n) for n in games()],
            value=game, description="game", layout=widgets.Layout(width="420px"))
        self.about = widgets.HTML()
        self.about.add_class("cardlab-play-about")
        self.rules_box = widgets.VBox()
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box.add_class("cardlab-play-seats")
        self.seed_box = widgets.IntText(value=seed, description="seed", layout=widgets.Layout(width="160px"))
        self.play_button = widgets.Button(description="play", button_style="primary",
                                          tooltip="a new game with these seats and options")
        self.setup_button = widgets.Button(description="◀ set-up", tooltip="choose another game, seats or options",
                                           layout=widgets.Layout(display="none"))
        self.setup = widgets.VBox([self.game_picker, self.about, self.options_box, self.seats_box,
                                   widgets.HBox([self.seed_box, self.play_button])])
        self.option_widgets: dict[str, widgets.Widget] = {}
        super().__init__()
        self.add_class("cardlab-play")
        self.play_button.on_click(lambda _: self.play())
        self.setup_button.on_click(lambda _: self.show_setup())
        try:
            asked = parse_query(query)
        except CardlabError as error:
            self.message.value = (f'<span style="color:#b00">This link does not start a game: '
                                  f"{html.escape(str(error))}</span>")
            self.children = [self.message]
            return
        if asked:
            self.game_picker.value = asked["game"]
        self._choose_game()
        if asked:
            self._start_from_link(asked)
            return
        self.children = [self.setup, self.message, self.setup_button, self.board_box, self.rules_box]
        self.game_picker.observe(lambda change: self._choose_game(), names="value")

    # -- the set-up -------------------------------------------------------------
    def _choose_game(self) -> None:
        game = load(self.game_picker.value)
        self.option_widgets = {}
        for name, option in game.OPTIONS.items():
            w = option_widget(name, option, option.default)
            if w is None:
                continue  # card files and ready hands: for notebooks, not for this page
            w.observe(lambda change: self._seats(), names="value")
            self.option_widgets[name] = w
        self.options_box.children = list(self.option_widgets.values())
        doc = (type(game).__doc__ or "").strip().splitlines()[0]
        self.about.value = f"<b>{html.escape(doc)}</b> Hover over an option for what it does."
        self.rules_box.children = [rules_panel(game)]
        self._seats()

    def options(self) -> dict[str, Any]:
        """The chosen options that differ from the game's defaults."""
        game = load(self.game_picker.value)
        chosen = {k: option_value(w) for k, w in self.option_widgets.items()}
        return {k: v for k, v in chosen.items() if v != game.OPTIONS[k].default}

    def _game(self) -> Game:
        return load(self.game_picker.value, **self.options())

    def _seats(self) -> None:
        """One seat picker per player (the number can depend on an option)."""
        self.message.value = ""
        try:
            n = self._game().spec.num_players
        except CardlabError as error:
            self.message.value = f'<span style="color:#b00">{html.escape(str(error))}</span>'
            return
        old = [w.value for w in self.seats_box.children]
        if len(old) == n:  # the same seats: keep the pickers (a choice made meanwhile stays)
            return
        self.seats_box.children = [
            widgets.Dropdown(options=list(SEAT_CHOICES),
                             value=old[i] if i < len(old) else ("person" if i == 0 else "heuristic"),
                             description=f"player {i}", layout=widgets.Layout(width="210px"))
            for i in range(n)]

    @property
    def players(self) -> list[str]:
        """The seats chosen: ``'person'`` or an agent's name."""
        return [w.value for w in self.seats_box.children]

    # -- the game ---------------------------------------------------------------
    def play(self) -> None:
        """A new board with the chosen game, options, seats and seed; the
        set-up folds away (the board has its own seat and option controls)."""
        self.message.value = ""
        try:
            self.board = board(self._game(), self.players, seed=self.seed_box.value)
        except (CardlabError, ValueError) as error:
            self.message.value = f'<span style="color:#b00">{html.escape(str(error))}</span>'
            return
        self.board_box.children = [self.board]
        self.setup.layout.display = "none"
        self.setup_button.layout.display = None

    def show_setup(self) -> None:
        """Back to the set-up: the board goes away."""
        self.board = None
        self.board_box.children = []
        self.setup.layout.display = None
        self.setup_button.layout.display = "none"

    def _start_from_link(self, asked: dict[str, Any]) -> None:
        """The board a link asks for, with no set-up (a message instead when
        the game refuses the settings)."""
        name, seat, lock = asked["game"], asked["seat"], asked["lock"]
        try:
            game = load(name, **asked["options"])
            n = game.spec.num_players
            if not 0 <= seat < n:
                raise CardlabError(f"URL parameter seat={seat} is not accepted; {name} has seats 0..{n - 1}")
            if lock and asked["opponent"] == "person":
                raise CardlabError("a locked board has one person: opponent= must be an agent "
                                   f"({', '.join(AGENTS)})")
            players = [asked["opponent"]] * n
            players[seat] = "person"
            hot_seat = asked["opponent"] == "person"  # persons share the screen: the view follows the mover
            self.board = board(game, players, seat=None if hot_seat else seat, locked=lock, seed=asked["seed"])
        except (CardlabError, ValueError) as error:
            self.message.value = (f'<span style="color:#b00">This link does not start a game: '
                                  f"{html.escape(str(error))}</span>")
            self.children = [self.message]
            return
        for name_, value in asked["options"].items():
            if name_ in self.option_widgets:
                w = self.option_widgets[name_]
                w.value = shown_value(w, value)
        self.seed_box.value = asked["seed"]
        self.seats_box.children = [widgets.Dropdown(options=list(SEAT_CHOICES), value=p) for p in players]
        self.message.value = (f"<b>{html.escape(game.title or name)}</b>: "
                              + ("persons at one screen, taking turns" if hot_seat else f"you play player {seat}")
                              + (" (a locked classroom board)." if lock else "."))
        self.board_box.children = [self.board]
        self.children = [self.message, self.board_box, self.rules_box]

    def __repr__(self) -> str:
        return (f"PlayApp(game={self.game_picker.value!r}, options={self.options()}, "
                f"players={self.players}, seed={self.seed_box.value}, board={self.board!r})")


def play_app(game: str = "koinobori", seed: int = 0, query: str | None = None) -> widgets.Widget:
    """The class app; ``query`` defaults to the page's query string (Voila
    sets ``QUERY_STRING`` in the kernel's environment), so a link such as
    ``…/play.ipynb?game=mipig&seat=0&lock=1&opponent=heuristic`` starts a
    locked board at once (:func:`parse_query` lists what is accepted).  A
    class room's link (``?room=R1&seat=0&key=…``, or the teacher's
    ``?teacher=KEY``) opens that room instead
    (:func:`cardlab.widgets.room.room_page`).

    >>> play_app(query="")
    PlayApp(game='koinobori', options={}, players=['person', 'heuristic'], seed=0, board=None)
    >>> play_app(query="game=mipig&seat=0&lock=1&hand_size=3").board
    Board('mipig', players=['person', 'heuristic'], view=0, moves=6, locked=True)
    """
    query = os.environ.get("QUERY_STRING", "") if query is None else query
    if any(k in ("room", "teacher") for k, _ in parse_qsl(query)):
        from .room import room_page

        return room_page(query)  # a class room: a pupil's seat or the teacher's page
    return PlayApp(game, seed, query)
