"""The interactive board: an ipywidgets composition around a :class:`cardlab.Match`.

The engine stays the only place that knows the rules: the board draws
``render.html(state, perspective=...)`` (which draws
``state.observation(player)``), offers exactly ``state.legal_actions()`` as
buttons, and asks the match to play, undo and redo.  No game state lives in
the widgets; they are redrawn from the match after every change.

Fair play: every text and picture of a move (the log, "What happened") comes
from :func:`cardlab.render.seen_move`, the one gate; the moves to choose from
(buttons, the hand, grid picks) are drawn only in the mover's own view (or
"reveal all"); two persons at one screen get a privacy screen between their
turns; a locked board (``locked=True``) keeps a student in their seat; the
hint is the fair one (:func:`cardlab.analyse` with ``player=``) unless a
teacher asks for the open one.

A game that registers a :class:`cardlab.render.Layout` (mipig) is drawn
around a grid of clickable squares instead: a move is made of picks (a card
of the hand, then a square; an attacker, then its target), and only the
picks that lead to a legal action are offered.

The parts of a board, each in its module: the controls a board shares with
the class app (:mod:`~cardlab.widgets.controls`), the seats, views and
privacy screen (:mod:`~cardlab.widgets.seats`), the hint
(:mod:`~cardlab.widgets.hint`), the picks on a grid
(:mod:`~cardlab.widgets.picks`) and the move log
(:mod:`~cardlab.widgets.movelog`); here the board itself: how it is built,
played and drawn.
"""

from __future__ import annotations

import html as _html
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from .. import i18n, render
from ..agents import NAMES, Agent
from ..core import CHANCE, Game, State
from ..games import load
from ..errors import CardlabError, OptionError
from ..i18n import _, ngettext, pgettext
from ..match import Match
from .controls import (SEAT_CHOICES, _relabel, _seat_options, _text_em, language_picker, levels_tip, option_value,
                       option_widget, result_words, seat_label, shown_value, value_text)
from .hint import HintMixin, hint_budget
from .movelog import LogMixin
from .picks import PicksMixin
from .projector import ProjectorMixin
from .review import ReviewMixin
from .seats import SeatsMixin

__all__ = ["Board", "board", "SEAT_CHOICES", "AGENT_DEFAULTS", "option_widget", "option_value", "shown_value",
           "result_words", "seat_label", "language_picker"]

#: keyword arguments for the agents a board makes (kept small so a move is quick)
AGENT_DEFAULTS: dict[str, dict[str, Any]] = {"solver": {"max_nodes": 20_000}, "mcts": {"iterations": 200}}
_MAX_STEPS = 100_000

Renderer = Callable[..., str]


def _resolve(game_or_state: Game | State | str) -> tuple[Game, State | None]:
    if isinstance(game_or_state, str):
        return load(game_or_state), None
    if isinstance(game_or_state, Game):
        return game_or_state, None
    if isinstance(game_or_state, State):
        return game_or_state.game, game_or_state
    raise TypeError("board() takes a game name (str), a cardlab.Game or a cardlab.State, "
                    f"not {type(game_or_state).__name__}")



def _players_of(game: Game, players: Sequence[Any] | None) -> list[Any]:
    """Who plays each seat, as given (default: a person against random), one per seat."""
    n = game.spec.num_players
    if players is None:
        players = ["person"] + ["random"] * (n - 1)
    players = list(players)
    if len(players) != n:
        raise ValueError(f"{game.name} has {n} seats; players must list {n} entries "
                         f"(each 'person' or an agent: {', '.join(NAMES)}), got {len(players)}")
    return players


def _renderer_of(renderer: Renderer | str | None) -> Renderer:
    """The function that draws the table (``None``: :func:`cardlab.render.html`)."""
    if renderer == "generic":
        return render.generic_html
    if renderer is not None and not callable(renderer):
        raise ValueError(f"renderer must be None, 'generic' or a function(state, *, perspective), "
                         f"not {renderer!r}")
    return renderer or render.html


def _check_seat(n: int, players: list[Any], persons: list[int], perspective: Any, seat: int | None,
                locked: bool) -> None:
    """``seat`` is a player; a locked board has one person, in ``seat``, and shows only their view."""
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n):
        raise ValueError(f"seat must be a player 0..{n - 1} (the seat of the person at this screen), "
                         f"not {seat!r}")
    if locked:
        if seat is None:
            raise ValueError(f"locked=True needs seat=: the student's seat, a player 0..{n - 1}")
        if persons != [seat]:
            raise ValueError(f"a locked board has one person, in seat {seat}; the other seats are agents "
                             f"({', '.join(NAMES)}), not {players!r}")
        if perspective not in ("auto", seat):
            raise ValueError(f"a locked board shows only seat {seat}'s view, not perspective={perspective!r}")


class Board(SeatsMixin, HintMixin, PicksMixin, LogMixin, ReviewMixin, ProjectorMixin, widgets.VBox):
    """A playable board for any game; see :func:`board`.

    Public methods mirror the controls (each button calls one):
    :meth:`play`, :meth:`pick`, :meth:`clear_picks`, :meth:`ready`, :meth:`undo`, :meth:`redo`,
    :meth:`new_game`, :meth:`step`, :meth:`run`, :meth:`hint`, :meth:`set_open_hint`,
    :meth:`set_player`, :meth:`set_perspective`, :meth:`set_option`, :meth:`set_autoplay`,
    :meth:`set_state`; :meth:`redraw` after changing :attr:`match` directly.

    What is hidden: the table, the move log and "What happened" show only
    what the chosen view may see (:func:`cardlab.render.seen_move`: a card
    drawn by another player reads ``draw ??``; a card laid face down on a
    square, ``place ?? 1,3``).  The moves to choose from (action buttons,
    the hand, grid picks) appear only in the mover's own view or "reveal
    all".  Two or more persons at one screen (view "player to move") get a
    privacy screen between their turns: nothing is drawn until the next
    person clicks "Pass to Player p — click when ready" (:meth:`ready`).
    ``locked=True`` keeps the screen in ``seat``: no other view, no seat or
    option changes, no undo or redo, only the fair hint.  The lock is for
    the widgets (a Voila page); Python in a notebook can read everything.
    """

    def __init__(self, game_or_state: Game | State | str, players: Sequence[Any] | None = None,
                 perspective: int | str | None = "auto", *, seat: int | None = None, locked: bool = False,
                 seed: int = 0, autoplay: bool | None = None, hint_seconds: float = 2,
                 hint_nodes: int | None = None, hint_max_arrangements: int | None = None,
                 hint_max_nodes: int | None = None, hint_samples: int | None = None,
                 agent_options: dict[str, dict[str, Any]] | None = None,
                 renderer: Renderer | str | None = None, language: str | None = None,
                 projector: bool = False) -> None:
        #: the language this board speaks (``None``: :func:`cardlab.i18n.get_language` when it draws)
        self.language = None if language is None else i18n.check_language(language)
        with i18n.using(self.language):
            self._build(game_or_state, players, perspective, seat=seat, locked=locked, seed=seed,
                        autoplay=autoplay, hint=hint_budget(hint_seconds, hint_nodes, hint_max_nodes, hint_samples),
                        hint_max_arrangements=hint_max_arrangements,
                        agent_options=agent_options, renderer=renderer, projector=projector)

    @property
    def language_code(self) -> str:
        """The language the board draws in now (``"en"`` or ``"ja"``)."""
        return self.language or i18n.get_language()

    def set_language(self, language: str | None) -> None:
        """Speak ``language`` (``"en"``, ``"ja"``; ``None``: the session's):
        every label, the status, the log, "What happened" and the hint are
        drawn again in it at once (what the language selector does)."""
        self.language = None if language is None else i18n.check_language(language)
        self._refresh()

    def _build(self, game_or_state: Game | State | str, players: Sequence[Any] | None = None,
               perspective: int | str | None = "auto", *, seat: int | None = None, locked: bool = False,
               seed: int = 0, autoplay: bool | None = None, hint: tuple[float, int | None] = (2.0, None),
               hint_max_arrangements: int | None = None,
               agent_options: dict[str, dict[str, Any]] | None = None,
               renderer: Renderer | str | None = None, projector: bool = False) -> None:
        """The board's steps of construction: the seats, the checks of the
        lock, the board's own record, the controls, the displays, the match,
        the page's order; then the first view drawn."""
        game, start = _resolve(game_or_state)
        players = _players_of(game, players)
        self.seed = seed
        self.hint_max_arrangements = hint_max_arrangements
        self.agent_options = {k: dict(v) for k, v in AGENT_DEFAULTS.items()}
        for k, v in (agent_options or {}).items():
            self.agent_options.setdefault(k, {}).update(v)
        self._renderer: Renderer = _renderer_of(renderer)
        self._custom: dict[str, Agent] = {}
        seats = [self._make_seat(i, p) for i, p in enumerate(players)]
        persons = [i for i, a in enumerate(seats) if a is None]
        _check_seat(game.spec.num_players, players, persons, perspective, seat, locked)
        self._start_record(seats, seat, locked, autoplay)
        self._make_controls(seats, *hint)
        self._make_projector_controls(projector)
        self._make_displays()
        self.game = game
        self._start = start if start is not None else game.new_initial_state()
        self.match = Match(game, seats, seed=seed, state=self._start)
        self._build_options()
        super().__init__(children=self._page())
        self.add_class("cardlab-board-widget")  # found by the browser tests in any language
        self.hint_button.add_class("cardlab-hint")
        self._mark_pictures([self.table, self.table_below, self.explanation, self.hint_html],
                            [self.grid, self.items_box])
        self.set_projector(projector)
        if perspective == "auto":
            perspective = (seat if seat is not None else persons[0] if len(persons) == 1
                           else "mover" if persons else "all")
        self.set_perspective(perspective, refresh=False)
        self.view_picker.observe(lambda ch: self._on_widget(self.set_perspective, ch["new"]), names="value")
        self.language_picker.observe(lambda ch: self._on_widget(self.set_language, ch["new"]), names="value")
        self._settle()
        self._refresh()

    def _start_record(self, seats: list[Agent | None], seat: int | None, locked: bool,
                      autoplay: bool | None) -> None:
        """What the board keeps besides the match: the seat and lock, the
        hint given, the caches of the history, the picks of a move."""
        #: the seat of the person at this screen (``None``: not given)
        self.seat = seat
        #: a classroom board: only ``seat``'s view and moves, the fair hint; see the class doc
        self.locked = bool(locked)
        self.autoplay = any(a is None for a in seats) if autoplay is None else bool(autoplay)
        # the hint given: (position, view, its HTML in the language asked, best actions); shown only to
        # that view at that position, drawn again in another language
        self._hint: tuple[State, int | None, Callable[[], str], frozenset[str]] | None = None
        self._labelled: str | None = None  # the language the controls were last labelled in
        self._ready: int | None = None  # the person the privacy screen was last lifted for
        self._mark = 0
        self._message = ""
        self.action_buttons: dict[str, widgets.Button] = {}
        self._syncing = False
        self._cache: list[State] = []
        self._cache_actions: list[str] = []
        self._seen: dict[tuple, render.SeenMove] = {}
        self._picks: tuple[str, ...] = ()
        self._picks_at: State | None = None
        self._layout: render.Layout | None = None
        #: the clickable picks now offered: pick -> its button (squares ``sq:x,y``, items ``item:key``)
        self.pick_buttons: dict[str, widgets.Button] = {}

    def _make_controls(self, seats: list[Agent | None], hint_seconds: float, hint_nodes: int | None) -> None:
        """The seat, view and language pickers, the buttons and the hint's settings."""
        self.seat_pickers = []
        for i, agent in enumerate(seats):
            name = "person" if agent is None else agent.name
            options = list(SEAT_CHOICES) + ([name] if name not in SEAT_CHOICES else [])
            dd = widgets.Dropdown(options=_seat_options(options), value=name, layout=widgets.Layout(width="210px"))
            dd.observe(lambda ch, i=i: self._on_widget(self.set_player, i, ch["new"]), names="value")
            self.seat_pickers.append(dd)
        self.view_picker = widgets.Dropdown(options=self._view_options(len(seats)),
                                            layout=widgets.Layout(width="230px"))
        #: the language selector (English / 日本語)
        self.language_picker = language_picker(self.language or i18n.get_language())
        #: what a locked board shows instead of the seat and view pickers
        self.seat_label = widgets.HTML()
        self.option_widgets: dict[str, widgets.Widget] = {}
        self.undo_button = widgets.Button()
        self.redo_button = widgets.Button()
        self.new_button = widgets.Button()
        self.step_button = widgets.Button()
        self.run_button = widgets.Button()
        self.hint_button = widgets.Button()
        self.open_hint_box = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
        self._make_hint_controls(hint_seconds, hint_nodes)  # its budget, think longer, stop, progress
        self.auto_box = widgets.Checkbox(value=self.autoplay, indent=False, layout=widgets.Layout(width="220px"))
        self.ready_button = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self.ready_button.on_click(lambda _: self._guard(self.ready))
        self.undo_button.on_click(lambda _: self._guard(self.undo))
        self.redo_button.on_click(lambda _: self._guard(self.redo))
        self.new_button.on_click(lambda _: self._guard(self.new_game))
        self.step_button.on_click(lambda _: self._guard(self.step))
        self.run_button.on_click(lambda _: self._guard(self.run))
        self.auto_box.observe(lambda ch: self._on_widget(self.set_autoplay, ch["new"]), names="value")
        self.open_hint_box.observe(lambda ch: self._on_widget(self.set_open_hint, ch["new"]), names="value")

    def _make_displays(self) -> None:
        """The table (or grid), the status, the moves to choose from, "What
        happened", the hint and the log."""
        self.table = widgets.HTML()
        self.grid_title = widgets.HTML()
        self.grid = widgets.GridBox()
        self.table_below = widgets.HTML()
        self.status = widgets.HTML()
        self.status_box = widgets.HBox([self.status], layout=widgets.Layout(align_items="center",
                                                                              flex_flow="row wrap"))
        self.actions_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.pick_prompt = widgets.HTML()
        self.clear_button = widgets.Button(layout=widgets.Layout(width="auto", min_width="120px"))
        self.clear_button.on_click(lambda _: self._guard(self.clear_picks))
        self.items_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.list_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.list_accordion = widgets.Accordion(children=[self.list_box])
        self.picker = widgets.VBox([widgets.HBox([self.pick_prompt, self.clear_button],
                                                 layout=widgets.Layout(align_items="center")),
                                    self.items_box])
        self.explanation = widgets.HTML()
        self.hint_html = widgets.HTML()
        self.log_html = widgets.HTML()
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))

    def _page(self) -> list[widgets.Widget]:
        """The board's rows, top to bottom.  A locked board has no view, seat
        or option controls, no undo, no open hint: they are not drawn at all."""
        undo = [] if self.locked else [self.undo_button, self.redo_button]
        hint_settings = self._hint_settings()
        return [
            widgets.HBox(([self.seat_label] if self.locked else self.seat_pickers + [self.view_picker])
                         + [self.language_picker, self.projector_box, self.projector_style],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.options_box,
            widgets.VBox([self.table, self.grid_title, self.grid, self.table_below]),
            self.status_box,
            widgets.VBox([self.picker, self.actions_box, self.list_accordion]),
            widgets.HBox(undo + [self.new_button, self.step_button, self.run_button, self.hint_button,
                                 widgets.HBox(hint_settings, layout=widgets.Layout(align_items="center")),
                                 self.auto_box, self.review_panel],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.explanation, self.hint_html, self.log_html,
        ]

    # -- the labels of the controls -------------------------------------------------
    @staticmethod
    def _view_options(n: int) -> list[tuple[str, Any]]:
        return [(_("view as player {player}").format(player=i), i) for i in range(n)] + [
            (_("player to move"), "mover"), (_("reveal all"), "all")]

    def _label_controls(self) -> None:
        """Every control's label and help in the current language (a switch
        of language draws them again; the values stay)."""
        lang = i18n.get_language()
        if self._labelled == lang:
            return
        self._syncing = True
        try:
            for i, dd in enumerate(self.seat_pickers):
                dd.description = _("player {player}").format(player=i)
                _relabel(dd, _seat_options([o if isinstance(o, str) else o[1] for o in dd.options]))
                dd.tooltip = levels_tip()  # what each level is
            self.view_picker.description = pgettext("board", "view")
            _relabel(self.view_picker, self._view_options(self.game.spec.num_players))
            for dd in self.seat_pickers + [self.view_picker]:
                _fit(dd)
            self.language_picker.value = lang
        finally:
            self._syncing = False
        for b, label, tip in (
                (self.undo_button, _("↶ undo"),
                 _("take back the last move (back to your last decision when you play a seat)")),
                (self.redo_button, _("↷ redo"), _("replay the move taken back")),
                (self.new_button, _("new game"), _("a fresh deal, same seats")),
                (self.step_button, _("step ▶"), _("one agent move or chance event")),
                (self.run_button, _("run ▶▶"), _("agents play until a person must move")),
                (self.auto_box, _("agents move by themselves"), None),
                (self.clear_button, _("clear choice"),
                 _("take back the picks of this move (nothing has been played yet)"))):
            b.description = label
            if tip is not None:
                b.tooltip = tip
        self._label_hint_controls()
        self._label_projector()
        self.ready_button.tooltip = _("the next person sits at the screen: show their view")
        self.list_accordion.titles = (_("every legal move as a button (一覧)"),)
        if self._labelled is not None:
            self._build_options()  # the options' labels and help come from the game, in this language
        self._labelled = lang

    # -- options (the seats and views: SeatsMixin) ------------------------------------
    def _build_options(self) -> None:
        with i18n.using(self.language_code):
            self._make_option_widgets()

    def _make_option_widgets(self) -> None:
        self.option_widgets = {}
        for name, opt in self.game.OPTIONS.items():
            if opt.choices is None:
                continue
            w = option_widget(name, opt, self.game.options[name], " " + _("(starts a new game)"))
            w.observe(lambda ch, name=name, w=w: self._on_widget(self.set_option, name, option_value(w)),
                      names="value")
            self.option_widgets[name] = w
        self.options_box.children = [] if self.locked else list(self.option_widgets.values())

    def set_option(self, name: str, value: Any) -> None:
        """Change a game option; this starts a new game with the new options."""
        if name not in self.game.OPTIONS:
            raise OptionError(_("{game}: unknown option {name}; accepted options: {options}").format(
                game=self.game.name, name=repr(name), options=", ".join(sorted(self.game.OPTIONS))))
        if self.game.options[name] == value:
            return
        self._refuse_if_locked(_("changing the game's options"), self.option_widgets.get(name),
                               self.game.options[name])
        try:
            game = self.game.with_options(**{name: value})
        except CardlabError:
            w = self.option_widgets.get(name)
            if w is not None:
                self._show(w, self.game.options[name])  # put the widget back; nothing changed
            raise
        self.game = game
        self._new_match(game.new_initial_state())
        w = self.option_widgets.get(name)
        if w is not None:
            self._show(w, value)

    def _new_match(self, start: State) -> None:
        self._start = start
        seats = list(self.match.players)
        self.match = Match(start.game, seats, seed=self.seed, state=start)
        self._hint = None
        self._ready = None
        self._mark = 0
        self._settle()
        self._refresh()

    def set_state(self, state: State) -> None:
        """Jump to a position (for instance a node of a :class:`TreeView`);
        the seats stay, the history starts there."""
        self._refuse_if_locked(_("jumping to another position"))
        if not isinstance(state, State):
            raise TypeError(f"set_state takes a cardlab.State, not {type(state).__name__}")
        if state.game.spec.num_players != self.game.spec.num_players:
            raise ValueError(f"this board has {self.game.spec.num_players} seats; the position is "
                             f"for {state.game.spec.num_players} players")
        if state.game != self.game:
            self.game = state.game
            self._build_options()
        self._new_match(state)

    def set_autoplay(self, value: bool) -> None:
        """Whether agents (and chance) move by themselves, or only on step/run."""
        self.autoplay = bool(value)
        self._show(self.auto_box, self.autoplay)
        self._settle()
        self._refresh()

    # -- playing -----------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The position on the board now."""
        return self.match.state

    def _settle(self) -> None:
        """Chance events always happen by themselves; agents too when autoplay is on."""
        m = self.match
        for _step in range(_MAX_STEPS):
            s = m.state
            if s.is_terminal():
                return
            if s.current_player == CHANCE or (self.autoplay and not m.to_move_is_person()):
                m.step()
            else:
                return

    def _no_moves_why(self) -> str | None:
        """Why no move may be chosen on this screen now (``None``: it may):
        a person is to move, the view is theirs (or everything) and no
        privacy screen is up."""
        s = self.match.state
        p = s.current_player
        if p < 0:
            return (_("nobody is to move: the game is over") if s.is_terminal() else
                    _("nobody is to move: chance is to act"))
        if self.match.players[p] is not None:
            return _("player {player} is an agent ({agent}): press step ▶ or run ▶▶").format(
                player=p, agent=seat_label(self.players[p]))
        if self.waiting_for is not None:
            return _("the screen waits for player {player}: click 'Pass to Player {player}'").format(
                player=self.waiting_for)
        if self.perspective not in (None, p):
            if self.locked:
                return _("player {player} moves in player {player}'s own view").format(player=p)
            return _("player {player} moves in player {player}'s own view (view as player {player}, player to "
                     "move, or reveal all)").format(player=p)
        return None

    def moves_shown(self) -> bool:
        """Whether the moves of the player to move are offered on this
        screen (buttons, hand, grid picks): see :meth:`play`."""
        return self._no_moves_why() is None

    def play(self, action: str) -> None:
        """Play ``action`` for the person to move (what an action button
        does); only in that person's own view or "reveal all", and not
        behind a privacy screen."""
        why = self._no_moves_why()
        if why is not None:
            raise CardlabError(_("no move can be played here now: {why}").format(why=why))
        self._mark = len(self.match.history)
        self.match.play(action)  # raises on a bad action; nothing changes then
        self._settle()
        self._refresh()

    def step(self) -> None:
        """One agent move (or the pending chance events), then the chance
        events that follow it."""
        m = self.match
        self._mark = len(m.history)
        s = m.state
        if s.is_terminal():
            raise CardlabError(_("the game is over; start a new game or undo"))
        if s.current_player >= 0 and m.to_move_is_person():
            raise CardlabError(_("player {player} is a person: play one of the action buttons").format(
                player=s.current_player))
        m.step()
        while m.state.current_player == CHANCE:
            m.step()
        self._refresh()

    def run(self) -> None:
        """Agents and chance play until a person must move or the game ends."""
        self._mark = len(self.match.history)
        self.match.advance()
        self._refresh()

    def _can_undo(self) -> bool:
        m = self.match
        if self.locked:
            return False
        if not self._persons():
            return m.can_undo()
        return any(mv.player >= 0 and m.players[mv.player] is None for mv in m.history)

    def undo(self) -> None:
        """Take back the last move; when a person plays a seat, go back to
        that person's last decision (chance and agent moves are undone too).
        Not on a locked board: taking a move back after seeing what it
        revealed is a peek."""
        self._refuse_if_locked(_("undo (taking a move back after seeing what it revealed)"))
        if not self._can_undo():
            raise CardlabError(_("nothing to undo (no move of a person yet)") if self._persons() else
                               _("nothing to undo"))
        self.match.undo(to_person=bool(self._persons()))
        self._mark = len(self.match.history)
        self._refresh()

    def redo(self) -> None:
        """Replay what undo took back (the same chance outcomes), up to the
        next decision of a person.  Not on a locked board."""
        self._refuse_if_locked(pgettext("refused", "redo"))
        m = self.match
        if not m.can_redo():
            raise CardlabError(_("nothing to redo"))
        self._mark = len(m.history)
        m.redo()
        if self._persons():
            while m.can_redo() and not m.is_over() and not m.to_move_is_person():
                m.redo()
        self._refresh()

    def new_game(self) -> None:
        """A fresh deal of the same game, same seats (the match's random
        stream goes on, so the deal is new but reproducible from the seed)."""
        self.match.restart()
        self._start = self.match.state
        self._mark = 0
        self._hint = None
        self._ready = None
        self._settle()
        self._refresh()

    # -- drawing ---------------------------------------------------------------------------
    def _show(self, widget: widgets.Widget, value: Any) -> None:
        """Put ``value`` in a control without running its handler again."""
        value = shown_value(widget, value)
        if widget.value != value:
            self._syncing = True
            try:
                widget.value = value
            finally:
                self._syncing = False

    def _on_widget(self, fn: Callable[..., Any], *args: Any) -> None:
        """A control's value changed: a user's choice, unless we set it ourselves."""
        if not self._syncing:
            self._guard(fn, *args)

    def _guard(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run a control's method; a refusal is shown on the board, not raised
        into the event loop."""
        with i18n.using(self.language_code):
            try:
                self._message = ""
                fn(*args)
            except (CardlabError, ValueError) as exc:
                self._message = str(exc).splitlines()[0]
                self._refresh()

    def _status_text(self) -> str:
        s = self.match.state
        if s.is_terminal():
            return _("Game over: {result}.").format(result=result_words(s))
        p = s.current_player
        if p == CHANCE:
            return _("Chance is to act: press step ▶.")
        who = self.players[p]
        if who != "person":
            return _("Player {player} ({agent}) to move: press step ▶ or run ▶▶.").format(
                player=p, agent=seat_label(who))
        if self.waiting_for is not None:
            return _("Player {player} (person) to move: pass the screen to player {player}.").format(player=p)
        why = self._no_moves_why()
        if why is None:
            return _("Player {player} (person) to move: choose an action.").format(player=p)
        return _("Player {player} (person) to move: {why}.").format(player=p, why=why)

    def _draw_table(self, best: frozenset[str]) -> None:
        """The table as the view sees it (a grid when the game has a layout)."""
        s, viewer = self.match.state, self.perspective
        self._layout = render.layout(s, perspective=viewer) if self._renderer is render.html else None
        if self._layout is None:
            self.table.value = self._renderer(s, perspective=viewer)
            self.grid_title.value, self.table_below.value = "", ""
            self.grid.children = []
            self.items_box.children = []
            self.picker.layout.display = "none"
        else:
            self._draw_layout(self._layout, best)

    def _draw_screen(self, seat: int) -> None:
        """The privacy screen: nothing of the game but who is to sit down."""
        self._layout = None
        self.table.value = self.grid_title.value = self.table_below.value = ""
        self.grid.children = self.items_box.children = ()
        self.picker.layout.display = "none"
        self.ready_button.description = _("Pass to Player {player} — click when ready").format(player=seat)

    def redraw(self) -> None:
        """Draw the board again from :attr:`match` (after changing the match
        directly, e.g. ``b.match.play(action)``)."""
        self._refresh()

    def _refresh(self) -> None:
        with i18n.using(self.language_code):
            self._label_controls()
            self._draw()

    def _draw(self) -> None:
        """Draw every part of the board (in the language of the block it runs in)."""
        m, s = self.match, self.match.state
        waiting = self.waiting_for
        moves = self.moves_shown()
        hint = self._shown_hint()
        best = hint[1] if hint is not None and moves else frozenset()
        self.pick_buttons = {}
        if waiting is None:
            self._draw_table(best)
        else:
            self._draw_screen(waiting)
        self.status_box.children = [self.status] if waiting is None else [self.status, self.ready_button]
        status = _html.escape(self._status_text())
        if self._message:
            status += f' <span style="color:#b00">{_html.escape(self._message)}</span>'
        self.status.value = status
        if self.locked:
            others = ", ".join(_("player {player}: {who}").format(player=i, who=seat_label(who))
                               for i, who in enumerate(self.players) if i != self.seat)
            options = ", ".join(f"{self.game.OPTIONS[k].title(k)}: {value_text(k, self.game.OPTIONS[k], v)}"
                                for k, v in self.game.options.items()
                                if k in self.option_widgets and v != self.game.OPTIONS[k].default)
            you = (_("You are player {player} ({others}; options: {options}).") if options else
                   _("You are player {player} ({others}).")).format(player=self.seat, others=others, options=options)
            self.seat_label.value = _html.escape(
                you + " " + _("A locked classroom board: your own view, your moves and the fair hint."))
        buttons: dict[str, widgets.Button] = {}
        if moves:
            for a in s.legal_actions():
                # the tooltip is the notation of the mover's own move, shown only to the mover
                # (explain(a) would preview the outcome, which may name a face-down defender)
                b = widgets.Button(description=render.action_label(s, a), tooltip=a,
                                   layout=widgets.Layout(width="auto"))
                if a in best:
                    b.button_style = "success"
                b.on_click(lambda _, a=a: self._guard(self.play, a))
                buttons[a] = b
        self.action_buttons = buttons
        paths = self._layout.paths if self._layout is not None else {}
        self.actions_box.children = [b for a, b in buttons.items() if a not in paths]
        for b in self.actions_box.children:
            b.add_class("cardlab-offer")
        listed = [b for a, b in buttons.items() if a in paths]
        self.list_box.children = listed
        self.list_accordion.layout.display = None if listed else "none"
        agent_to_move = s.current_player == CHANCE or (s.current_player >= 0 and not m.to_move_is_person())
        self.undo_button.disabled = not self._can_undo()
        self.redo_button.disabled = self.locked or not m.can_redo()
        self.step_button.disabled = s.is_terminal() or not agent_to_move
        self.run_button.disabled = s.is_terminal() or not agent_to_move
        self._draw_hint_controls()
        self._draw_review()
        entries = [] if waiting is not None else self.explanation_entries()
        self.explanation.value = ("" if not entries else
                                  '<div style="line-height:1.35"><b>' + _("What happened") + "</b>" + "".join(
                                      f"<div>{_html.escape(x)}{_rules_html(ids)}</div>{pic}"
                                      for x, ids, pic in entries) + "</div>")
        self.hint_html.value = hint[0] if hint is not None else ""
        if waiting is not None:
            self.log_html.value = ""
            return
        log = self.log_lines()
        self.log_html.value = ('<details><summary>' + ngettext("move log ({n} moves)", "move log ({n} moves)",
                                                               len(log)).format(n=len(log)) + '</summary>'
                               '<div style="max-height:14em;overflow:auto;font-family:monospace">'
                               + "<br>".join(_html.escape(x) for x in log) + "</div></details>")

    def __repr__(self) -> str:
        view = {"all": "all", "mover": "mover"}.get(self._view, self._view)  # type: ignore[arg-type]
        return (f"Board({self.game.name!r}, players={self.players}, view={view!r}, "
                f"moves={len(self.match.history)}" + (", locked=True)" if self.locked else ")"))


def _fit(dd: widgets.Dropdown) -> None:
    """A dropdown as wide as its label and its longest value (in this language), none of them cut."""
    dd.style.description_width = "initial"
    longest = max((_text_em(label) for label in dd._options_labels), default=4)
    dd.layout.width = f"{_text_em(dd.description) + 1.2 + longest + 4:.1f}em"


def _rules_html(ids: tuple[str, ...]) -> str:
    """The rule ids of a line, small and grey after its sentence (the rules
    digest's ids: a pupil reads past them, a teacher looks them up)."""
    if not ids:
        return ""
    return (' <small class="cardlab-rules" style="color:#777" title="' + _html.escape(_("rule ids of the rules digest"))
            + '">(' + _html.escape(", ".join(ids)) + ")</small>")


def board(game_or_state: Game | State | str, players: Sequence[Any] | None = None,
          perspective: int | str | None = "auto", **kwargs: Any) -> Board:
    """A playable board for any registered game (or any state).

    ``players`` lists each seat: ``'person'`` or an agent (``'random'``,
    ``'heuristic'``, ``'solver'``, ``'mcts'`` or a
    :class:`cardlab.agents.Agent`); default: a person against random.
    ``perspective``: a player index, ``'mover'`` (the person to move, with a
    privacy screen between two persons' turns), ``'all'`` (reveal
    everything) or ``'auto'`` (``seat`` if given; the only person's seat;
    the player to move when several persons play; everything when only
    agents play).  ``seat``: the seat of the person at this screen;
    ``locked=True`` (with ``seat``, the other seats agents) makes a
    classroom board: that seat's view only, no seat, option or view
    changes, no undo or redo, only the fair hint.  Other keywords: ``seed``
    (chance and agents), ``autoplay``, the hint's budget ``hint_seconds``
    (default 2; ``hint_nodes``: a deterministic budget of positions, for
    tests and notebooks; the old caps ``hint_max_nodes`` and
    ``hint_samples`` are ignored, with a warning), ``agent_options``
    (e.g. ``{"solver": {"max_nodes": 5000}}``) and ``renderer``
    (``'generic'`` for the text board of any game).  ``language``:
    ``'en'`` or ``'ja'`` (``None``: :func:`cardlab.i18n.get_language` each
    time the board draws); the selector "Language 言語" on the board
    switches it, and everything is drawn again in the new language.
    ``projector=True``: the board in projector size (the switch "big
    (projector)"; :meth:`Board.set_projector`): text and controls twice,
    the cards three times as large.

    >>> import cardlab.widgets
    >>> b = cardlab.widgets.board("koinobori", ["person", "random"], seed=1)
    >>> b
    Board('koinobori', players=['person', 'random'], view=0, moves=6)
    >>> first = sorted(b.action_buttons)[0]
    >>> b.action_buttons[first].click()
    >>> len(b.match.history) > 6
    True
    >>> locked = cardlab.widgets.board("koinobori", ["heuristic", "person"], seat=1, locked=True)
    >>> locked.set_perspective("all")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardlab.errors.CardlabError: this board is locked to player 1: another view ... is not allowed; allowed are ...
    """
    return Board(game_or_state, players, perspective, **kwargs)
