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
"""

from __future__ import annotations

import html as _html
import random
from typing import Any, Callable, Sequence

import ipywidgets as widgets

from .. import i18n, render
from ..agents import AGENTS, Agent, open_hands_copy
from ..core import CHANCE, Game, Option, State
from ..games import load
from ..errors import CardlabError, OptionError, TooLargeError
from ..i18n import _, ngettext, pgettext
from ..match import Match
from ..solve import analyse

__all__ = ["Board", "board", "SEAT_CHOICES", "AGENT_DEFAULTS", "option_widget", "option_value", "shown_value",
           "result_words", "seat_label", "language_picker"]

#: what a seat dropdown offers: a person, or one of cardlab.agents
SEAT_CHOICES = ("person",) + tuple(AGENTS)
#: a dropdown's value None means "nothing chosen" (a blank box): this stands for the choice None
_NONE = "\u2063none"


def result_words(state: State) -> str:
    """How a finished game ended, as a student says it: "player 0 wins",
    "a draw", "players 0 and 2 share the win"; where the game pays points
    (``payoff="score"``, or returns other than win/draw/loss), the returns
    after it: "player 1 wins by 3 (returns -3, 3)"."""
    r = state.returns()
    best = max(r)
    winners = [i for i, x in enumerate(r) if x == best]
    returns = ", ".join(str(x) for x in r)
    some = ", ".join(map(str, winners[:-1]))
    if not (state.game.options.get("payoff") == "score" or any(x not in (-1, 0, 1) for x in r)):
        if len(winners) == len(r):
            return _("a draw")
        if len(winners) == 1:
            return _("player {player} wins").format(player=winners[0])
        return _("players {players} and {last} share the win").format(players=some, last=winners[-1])
    if len(winners) == len(r):
        return _("a draw (returns {returns})").format(returns=returns)
    if len(winners) == 1:
        if len(r) == 2:
            return _("player {player} wins by {points} (returns {returns})").format(
                player=winners[0], points=best, returns=returns)
        return _("player {player} wins (returns {returns})").format(player=winners[0], returns=returns)
    return _("players {players} and {last} share the win (returns {returns})").format(
        players=some, last=winners[-1], returns=returns)


def _tr(text: str) -> str:
    """A text that comes from elsewhere (a game, a renderer) in the current
    language when the catalogue has it ("" stays "": gettext would give the
    catalogue's header)."""
    return _(text) if text else text


def seat_label(name: str) -> str:
    """What a seat dropdown shows for ``name`` (``'person'`` or an agent's
    name), in the current language; an agent of one's own keeps its name."""
    labels = {"person": pgettext("seat", "person"), "random": pgettext("seat", "random"),
              "heuristic": pgettext("seat", "heuristic"), "solver": pgettext("seat", "solver"),
              "mcts": pgettext("seat", "mcts")}
    return labels.get(name, name)


def _seat_options(names: Sequence[str]) -> list[Any]:
    """A seat dropdown's options: the names, each with its label when the
    label is another text (in English the options stay the plain names)."""
    return [n if seat_label(n) == n else (seat_label(n), n) for n in names]


#: what the language selector is labelled: readable whatever the language shown
LANGUAGE_LABEL = "Language 言語"


def language_picker(value: str) -> widgets.ToggleButtons:
    """The language selector of a board and of the play app: English / 日本語."""
    w = widgets.ToggleButtons(options=[(name, code) for code, name in i18n.LANGUAGES.items()], value=value,
                              description=LANGUAGE_LABEL, style={"button_width": "80px",
                                                                 "description_width": "initial"},
                              layout=widgets.Layout(width="auto"))
    w.add_class("cardlab-language")
    return w


def _relabel(widget: widgets.Widget, options: list[Any]) -> None:
    """Give a dropdown other labels for the same values (its value stays;
    the caller keeps its handlers quiet meanwhile)."""
    if tuple(widget.options) != tuple(options):
        value = widget.value
        widget.options = options
        widget.value = value


def option_widget(name: str, opt: Option, value: Any, note: str = "") -> widgets.Widget | None:
    """The control of a game option, as a page shows it: a checkbox for a
    switch, a dropdown for choices, a number box for a whole number (None
    for card files and ready hands, which a notebook sets).  Its label is
    the option's short one (:meth:`Option.title`, whole, never cut); its
    help, on hover, names the option and says what it does.  Read it back
    with :func:`option_value`."""
    label, tip = opt.title(name), f"{name}: {_tr(opt.doc)}{note}"
    if opt.choices is not None and set(opt.choices) == {False, True}:
        return widgets.Checkbox(value=value, description=label, indent=False, tooltip=tip,
                                layout=widgets.Layout(width="auto"))
    if opt.choices is not None:
        w: widgets.Widget = widgets.Dropdown(
            options=[(opt.choice_text(c), _NONE if c is None else c) for c in opt.choices],
            value=_NONE if value is None else value, description=label, tooltip=tip,
            layout=widgets.Layout(width="auto"))
    elif isinstance(opt.default, int) and not isinstance(opt.default, bool):
        w = widgets.IntText(value=value, description=label, tooltip=tip, layout=widgets.Layout(width="220px"))
    else:
        return None
    w.style.description_width = "initial"
    return w


def option_value(widget: widgets.Widget) -> Any:
    """The option value a control from :func:`option_widget` holds."""
    return None if widget.value == _NONE else widget.value


def shown_value(widget: widgets.Widget, value: Any) -> Any:
    """What a control from :func:`option_widget` holds for the option value ``value``."""
    return _NONE if value is None and isinstance(widget, widgets.Dropdown) else value
#: keyword arguments for the agents a board makes (kept small so a move is quick)
AGENT_DEFAULTS: dict[str, dict[str, Any]] = {"solver": {"max_nodes": 20_000}, "mcts": {"iterations": 200}}
_PERSON = (None, "person", "human")
_MAX_STEPS = 100_000
_CELL = 96          # px: a square of a grid (a card and the button under it)
_BUTTON = "92px"    # the pick buttons under squares and cards

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


class Board(widgets.VBox):
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
                 seed: int = 0, autoplay: bool | None = None, hint_max_nodes: int = 20_000,
                 hint_max_arrangements: int = 500, hint_samples: int = 40,
                 agent_options: dict[str, dict[str, Any]] | None = None,
                 renderer: Renderer | str | None = None, language: str | None = None) -> None:
        #: the language this board speaks (``None``: :func:`cardlab.i18n.get_language` when it draws)
        self.language = None if language is None else i18n.check_language(language)
        with i18n.using(self.language):
            self._build(game_or_state, players, perspective, seat=seat, locked=locked, seed=seed,
                        autoplay=autoplay, hint_max_nodes=hint_max_nodes,
                        hint_max_arrangements=hint_max_arrangements, hint_samples=hint_samples,
                        agent_options=agent_options, renderer=renderer)

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
                 seed: int = 0, autoplay: bool | None = None, hint_max_nodes: int = 20_000,
                 hint_max_arrangements: int = 500, hint_samples: int = 40,
                 agent_options: dict[str, dict[str, Any]] | None = None,
                 renderer: Renderer | str | None = None) -> None:
        game, start = _resolve(game_or_state)
        n = game.spec.num_players
        if players is None:
            players = ["person"] + ["random"] * (n - 1)
        players = list(players)
        if len(players) != n:
            raise ValueError(f"{game.name} has {n} seats; players must list {n} entries "
                             f"(each 'person' or an agent: {', '.join(AGENTS)}), got {len(players)}")
        self.seed = seed
        self.hint_max_arrangements = hint_max_arrangements
        self.agent_options = {k: dict(v) for k, v in AGENT_DEFAULTS.items()}
        for k, v in (agent_options or {}).items():
            self.agent_options.setdefault(k, {}).update(v)
        if renderer == "generic":
            renderer = render.generic_html
        elif renderer is not None and not callable(renderer):
            raise ValueError(f"renderer must be None, 'generic' or a function(state, *, perspective), "
                             f"not {renderer!r}")
        self._renderer: Renderer = renderer or render.html
        self._custom: dict[str, Agent] = {}
        seats = [self._make_seat(i, p) for i, p in enumerate(players)]
        persons = [i for i, a in enumerate(seats) if a is None]
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n):
            raise ValueError(f"seat must be a player 0..{n - 1} (the seat of the person at this screen), "
                             f"not {seat!r}")
        if locked:
            if seat is None:
                raise ValueError(f"locked=True needs seat=: the student's seat, a player 0..{n - 1}")
            if persons != [seat]:
                raise ValueError(f"a locked board has one person, in seat {seat}; the other seats are agents "
                                 f"({', '.join(AGENTS)}), not {players!r}")
            if perspective not in ("auto", seat):
                raise ValueError(f"a locked board shows only seat {seat}'s view, not perspective={perspective!r}")
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

        # -- the controls ----------------------------------------------------
        self.seat_pickers = []
        for i, agent in enumerate(seats):
            name = "person" if agent is None else agent.name
            options = list(SEAT_CHOICES) + ([name] if name not in SEAT_CHOICES else [])
            dd = widgets.Dropdown(options=_seat_options(options), value=name, layout=widgets.Layout(width="210px"))
            dd.observe(lambda ch, i=i: self._on_widget(self.set_player, i, ch["new"]), names="value")
            self.seat_pickers.append(dd)
        self.view_picker = widgets.Dropdown(options=self._view_options(n), layout=widgets.Layout(width="230px"))
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
        self.hint_nodes_box = widgets.BoundedIntText(value=hint_max_nodes, min=1, max=10**9,
                                                     style={"description_width": "initial"},
                                                     layout=widgets.Layout(width="210px"))
        self.hint_samples_box = widgets.BoundedIntText(value=hint_samples, min=2, max=100_000,
                                                       style={"description_width": "initial"},
                                                       layout=widgets.Layout(width="130px"))
        #: the fair hint's progress (arrangements solved), shown while it is computed
        self.hint_progress = widgets.IntProgress(value=0, min=0, max=1, layout=widgets.Layout(
            width="120px", display="none"))
        self.auto_box = widgets.Checkbox(value=self.autoplay, indent=False, layout=widgets.Layout(width="220px"))
        self.ready_button = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self.ready_button.on_click(lambda _: self._guard(self.ready))
        self.undo_button.on_click(lambda _: self._guard(self.undo))
        self.redo_button.on_click(lambda _: self._guard(self.redo))
        self.new_button.on_click(lambda _: self._guard(self.new_game))
        self.step_button.on_click(lambda _: self._guard(self.step))
        self.run_button.on_click(lambda _: self._guard(self.run))
        self.hint_button.on_click(lambda _: self._guard(self.hint))
        self.auto_box.observe(lambda ch: self._on_widget(self.set_autoplay, ch["new"]), names="value")
        self.open_hint_box.observe(lambda ch: self._on_widget(self.set_open_hint, ch["new"]), names="value")

        # -- the displays ------------------------------------------------------
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

        self.game = game
        self._start = start if start is not None else game.new_initial_state()
        self.match = Match(game, seats, seed=seed, state=self._start)
        self._build_options()
        # a locked board has no view, seat or option controls, no undo, no open hint: not drawn at all
        undo = [] if self.locked else [self.undo_button, self.redo_button]
        hint_settings = ([] if self.locked else [self.open_hint_box]) + [
            self.hint_nodes_box, self.hint_samples_box, self.hint_progress]
        super().__init__(children=[
            widgets.HBox(([self.seat_label] if self.locked else self.seat_pickers + [self.view_picker])
                         + [self.language_picker],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.options_box,
            widgets.VBox([self.table, self.grid_title, self.grid, self.table_below]),
            self.status_box,
            widgets.VBox([self.picker, self.actions_box, self.list_accordion]),
            widgets.HBox(undo + [self.new_button, self.step_button, self.run_button, self.hint_button,
                                 widgets.HBox(hint_settings, layout=widgets.Layout(align_items="center")),
                                 self.auto_box],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.explanation, self.hint_html, self.log_html,
        ])
        self.add_class("cardlab-board-widget")  # found by the browser tests in any language
        self.hint_button.add_class("cardlab-hint")
        if perspective == "auto":
            perspective = (seat if seat is not None else persons[0] if len(persons) == 1
                           else "mover" if persons else "all")
        self.set_perspective(perspective, refresh=False)
        self.view_picker.observe(lambda ch: self._on_widget(self.set_perspective, ch["new"]), names="value")
        self.language_picker.observe(lambda ch: self._on_widget(self.set_language, ch["new"]), names="value")
        self._settle()
        self._refresh()

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
            self.view_picker.description = pgettext("board", "view")
            _relabel(self.view_picker, self._view_options(self.game.spec.num_players))
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
                (self.hint_button, pgettext("button", "hint"),
                 _("fair hint (only what you can see): the value of each of your moves, averaged over every "
                   "arrangement of the cards you cannot see, when the position is small enough")),
                (self.open_hint_box, _("open hint (every card)"),
                 _("for a teacher: the hint computed with every hand shown (it uses cards the player cannot see)")),
                (self.hint_nodes_box, _("hint positions ≤"), _("the hint gives up beyond this many positions")),
                (self.hint_samples_box, _("samples"),
                 _("arrangements drawn for the fair hint when there are more than {n:,}").format(
                     n=self.hint_max_arrangements)),
                (self.auto_box, _("agents move by themselves"), None),
                (self.clear_button, _("clear choice"),
                 _("take back the picks of this move (nothing has been played yet)"))):
            b.description = label
            if tip is not None:
                b.tooltip = tip
        self.ready_button.tooltip = _("the next person sits at the screen: show their view")
        self.list_accordion.titles = (_("every legal move as a button (一覧)"),)
        if self._labelled is not None:
            self._build_options()  # the options' labels and help come from the game, in this language
        self._labelled = lang

    # -- seats, perspective, options ----------------------------------------------
    def _make_seat(self, seat: int, who: Any) -> Agent | None:
        if who in _PERSON:
            return None
        if isinstance(who, Agent):
            if who.name not in AGENTS:
                self._custom[who.name] = who  # chosen again from the dropdown later
            return who
        if who in self._custom:
            return self._custom[who]
        if who not in AGENTS:
            raise ValueError(_("seat {seat}: {who} is not a player; use 'person' or an agent: {agents} "
                               "(or a cardlab.agents.Agent)").format(seat=seat, who=repr(who),
                                                                      agents=", ".join(AGENTS)))
        rng = random.Random(f"{self.seed}/{seat}/{who}")
        return AGENTS[who](seed=rng, **self.agent_options.get(who, {}))

    def _refuse_if_locked(self, what: str, widget: widgets.Widget | None = None, value: Any = None) -> None:
        """Raise when the board is locked: ``what`` is not for a student
        (``widget``, when given, gets ``value`` back: nothing changed)."""
        if self.locked:
            if widget is not None:
                self._show(widget, value)
            raise CardlabError(_("this board is locked to player {player}: {what} is not allowed; allowed "
                                 "are your own moves, step ▶, run ▶▶, new game, 'agents move by themselves' "
                                 "and the fair hint").format(player=self.seat, what=what))

    @property
    def players(self) -> list[str]:
        """Who plays each seat: ``'person'`` or the agent's name."""
        return ["person" if a is None else a.name for a in self.match.players]

    def _persons(self) -> list[int]:
        """The seats played by persons at this screen."""
        return [i for i, a in enumerate(self.match.players) if a is None]

    def set_player(self, seat: int, who: Any) -> None:
        """Put a person (``'person'``) or an agent (a name of
        :data:`cardlab.agents.AGENTS` or an Agent) in ``seat``; if that agent
        is to move and agents move by themselves, it moves."""
        n = self.game.spec.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(_("seat must be 0..{last}, not {seat}").format(last=n - 1, seat=repr(seat)))
        self._refuse_if_locked(_("changing who plays a seat"), self.seat_pickers[seat], self.players[seat])
        agent = self._make_seat(seat, who)
        self.match.players[seat] = agent
        with i18n.using(self.language_code):
            self._name_in_picker(seat, "person" if agent is None else agent.name)
        self._mark = len(self.match.history)
        self._settle()
        self._refresh()

    def _name_in_picker(self, seat: int, name: str) -> None:
        """Seat ``seat``'s dropdown shows ``name`` (an agent of one's own is added to it)."""
        dd = self.seat_pickers[seat]
        names = [o if isinstance(o, str) else o[1] for o in dd.options]
        if name not in names:
            self._syncing = True
            try:
                dd.options = _seat_options(names + [name])
            finally:
                self._syncing = False
        self._show(dd, name)

    def set_perspective(self, perspective: int | str | None, refresh: bool = True) -> None:
        """Whose view the table shows: a player index, ``'mover'`` (the
        person to move; a privacy screen between two persons' turns) or
        ``'all'``/``None`` (reveal everything).  A locked board keeps its seat."""
        n = self.game.spec.num_players
        if perspective is None:
            perspective = "all"
        if perspective not in ("all", "mover") and not (
                isinstance(perspective, int) and not isinstance(perspective, bool) and 0 <= perspective < n):
            raise ValueError(_("perspective must be a player 0..{last}, 'mover' or 'all', not {perspective}").format(
                last=n - 1, perspective=repr(perspective)))
        if perspective != self.seat:
            self._refuse_if_locked(_("another view than player {player}'s").format(player=self.seat),
                                   self.view_picker, self.seat)
        if perspective == "mover" and getattr(self, "_view", None) != "mover":
            self._ready = None  # anybody may have looked meanwhile: the screen comes up again
        self._view = perspective
        self._show(self.view_picker, perspective)
        if refresh:
            self._refresh()

    def _shown_seat(self) -> int:
        """The seat the view "player to move" shows: the person to move; when
        no person is, the person the screen was last lifted for (or the last
        person who moved); with no person at all, the player to move."""
        s, persons = self.match.state, self._persons()
        p = s.current_player
        if p >= 0 and (p in persons or not persons):
            return p
        if self._ready in persons:
            return self._ready  # type: ignore[return-value]
        moved = [m.player for m in self.match.history if m.player >= 0 and (m.player in persons or not persons)]
        return moved[-1] if moved else persons[0] if persons else 0

    @property
    def perspective(self) -> int | None:
        """The player whose view is drawn now (``None``: everything shown)."""
        if self._view == "all":
            return None
        if self._view == "mover":
            return self._shown_seat()
        return self._view  # type: ignore[return-value]

    @property
    def waiting_for(self) -> int | None:
        """The seat the privacy screen waits for (``None``: no screen).  It
        is up when two or more persons share this screen with the view
        "player to move" and the seat to show is not the one the screen was
        last lifted for (:meth:`ready`)."""
        if self.locked or self._view != "mover" or len(self._persons()) < 2:
            return None
        shown = self._shown_seat()
        return None if shown == self._ready else shown

    def ready(self) -> None:
        """The privacy screen's button: the person it waits for sits at the
        screen; their view is drawn."""
        waiting = self.waiting_for
        if waiting is None:
            raise CardlabError(_("no privacy screen is up: it shows between the turns of two persons at one "
                                 "screen, with the view 'player to move'"))
        self._ready = waiting
        self._refresh()

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

    # -- hint ---------------------------------------------------------------------------
    def set_open_hint(self, value: bool) -> None:
        """For a teacher: the hint with every card seen (the open-hands
        analysis) instead of the fair one.  Not on a locked board."""
        if value:
            self._refuse_if_locked(_("the open hint (every card)"), self.open_hint_box, False)
        self._show(self.open_hint_box, bool(value))

    def hint(self) -> str:
        """Show (and return as HTML) the value of each legal action for the
        player to move, or say why there is none.

        The **fair hint** (default): :func:`cardlab.analyse` with
        ``player=``, from only what that player can see (exact over every
        arrangement of the hidden cards, or sampled with a 95 % interval),
        with a progress bar; only in that player's own view (or "reveal
        all").  With the open hint switched on (:meth:`set_open_hint`): the
        exact values with every hand shown, and it says so.  The caps:
        ``hint_nodes_box`` (positions), ``hint_samples_box`` and
        ``hint_max_arrangements``."""
        with i18n.using(self.language_code):
            return self._give_hint()

    def _give_hint(self) -> str:
        s, viewer = self.match.state, self.perspective
        p = s.current_player
        max_nodes = self.hint_nodes_box.value
        text: Callable[[], str] = str
        best, table = frozenset[str](), False
        if p < 0:
            over = s.is_terminal()
            text = lambda: _("No hint: the game is over.") if over else _("No hint: chance is to act.")  # noqa: E731
        elif not self._hint_allowed():
            locked = self.locked
            text = lambda: (_("No hint: player {player} is to move, and a hint is shown only in player "  # noqa: E731
                              "{player}'s own view.") if locked else
                            _("No hint: player {player} is to move, and a hint is shown only in player "
                              "{player}'s own view (or reveal all).")).format(player=p)
        else:
            bar = self.hint_progress
            bar.value, bar.max, bar.layout.display = 0, 1, None

            def progress(done: int, total: int) -> None:
                bar.max, bar.value = total, done

            open_hint = self.open_hint_box.value and not self.locked
            try:
                if open_hint:
                    a = analyse(open_hands_copy(s), max_nodes=max_nodes, progress=False, callback=progress)
                else:
                    a = analyse(s, player=p, max_nodes=max_nodes, max_arrangements=self.hint_max_arrangements,
                                samples=self.hint_samples_box.value, progress=False, callback=progress)
            except TooLargeError:
                text = lambda: (_("No hint here: the position is too large to solve (more than {nodes:,} "  # noqa: E731
                                  "positions). Hints work in small endgames; raise 'hint positions ≤' to search "
                                  "longer.") if open_hint else
                                _("No hint here: the position is too large to solve (more than {nodes:,} "
                                  "positions over the arrangements of the hidden cards). Hints work in small "
                                  "endgames; raise 'hint positions ≤' to search longer.")).format(nodes=max_nodes)
            except CardlabError as exc:
                why = str(exc)
                text = lambda: _("No hint for this game: {error}").format(error=why)  # noqa: E731
            else:
                shown_open = open_hint and not s.game.spec.perfect_information
                text, table = (lambda: self._hint_html(a, shown_open, s)), True
                best = frozenset(r["action"] for r in a.rows if r["best"])
            finally:
                bar.layout.display = "none"
        self._hint = (s, viewer, text if table else (lambda: _html.escape(text())), best)
        self._refresh()
        return text()

    def _hint_allowed(self) -> bool:
        """A hint is for the player to move, in their own view (or "reveal
        all"), with no privacy screen up."""
        p = self.match.state.current_player
        return p >= 0 and self.waiting_for is None and self.perspective in (None, p)

    @staticmethod
    def _hint_html(a: Any, open_hint: bool, state: State | None = None) -> str:
        """An :class:`cardlab.Analysis` as the hint's HTML: what it is, then
        each action's value, its loss (and the 95 % interval when sampled).
        Each action reads as its notation; in another language than English,
        as its button in ``state`` reads (the mover's own moves, which the
        mover's view shows anyway)."""
        def named(action: str) -> str:
            if state is None or i18n.get_language() == "en":
                return action
            return render.action_label(state, action)

        if open_hint:
            what = _("open hint (every card): exact value of each action for player {player}, computed with "
                     "every hand shown (open hands, the deck still random): it uses cards this player cannot "
                     "see").format(player=a.player)
        elif a.kind == "open":
            what = _("exact value of each action for player {player} (this game hides no card)").format(
                player=a.player)
        else:
            what = _tr(a.title)
        sampled = a.kind == "sampled"

        def num(v: Any) -> str:
            return f"{float(v):.3f}" if sampled else str(v)

        bold = ' style="font-weight:bold"'
        best_word = pgettext("hint", "best")
        rows = "".join(
            f"<tr{bold if r['best'] else ''}>"
            f"<td>{_html.escape(named(r['action']))}</td><td>{num(r['value'])}</td>"
            f"<td>{float(r['value']):+.3f}</td><td>{num(r['loss'])}</td>"
            + (f"<td>{r['interval'][0]:+.2f} … {r['interval'][1]:+.2f}</td>" if sampled else "")
            + "<td>" + (best_word if r['best'] else "") + "</td></tr>" for r in a.rows)
        return ("<div><b>" + _("Hint") + "</b>: "
                + _html.escape(_("{what} ({nodes:,} positions searched).").format(what=what, nodes=a.nodes))
                + "</div><table><tr><th>" + pgettext("hint", "action") + "</th><th>" + pgettext("hint", "value")
                + "</th><th>≈</th><th>" + pgettext("hint", "loss") + "</th>"
                + ("<th>" + _("{percent} interval").format(percent="95 %") + "</th>" if sampled else "")
                + f"<th></th></tr>{rows}</table>")

    def _shown_hint(self) -> tuple[str, frozenset[str]] | None:
        """The hint given at this position to this view (HTML, best actions)."""
        h = self._hint
        if h is None or h[0] != self.match.state or h[1] != self.perspective or self.waiting_for is not None:
            return None
        return h[2](), h[3]

    def best_actions(self) -> list[str]:
        """The actions the hint shown now marked best (empty without one)."""
        h = self._shown_hint()
        return [] if h is None else [a for a in self.match.state.legal_actions() if a in h[1]]

    # -- picks: a move chosen on the grid ------------------------------------------------
    @property
    def picks(self) -> tuple[str, ...]:
        """The picks made so far for the next move (``()`` when none)."""
        return self._picks if self._picks_at is self.match.state else ()

    def _pick_step(self, key: str) -> int | None:
        """The step ``key`` may be picked at now: the next one, or an earlier
        one (instead of what was chosen there); ``None``: not on offer."""
        lay, picks = self._layout, self.picks
        if lay is None or not self.moves_shown():
            return None
        for j in range(len(picks), -1, -1):
            if key in lay.offered(picks[:j]):
                return j
        return None

    def pick(self, key: str) -> None:
        """Pick a square (``'sq:x,y'``) or an item (``'item:p07'``) for the
        next move, as its button does: the next step, or instead of an
        earlier choice; picking a chosen one again takes it back.  When the
        picks make a legal action, it is played."""
        picks = self.picks
        if key in picks:
            self._set_picks(picks[:picks.index(key)])
            return
        j = self._pick_step(key)
        if j is None:
            lay, why = self._layout, self._no_moves_why()
            offered = sorted(lay.offered(picks)) if lay is not None and why is None else []
            if offered:
                raise CardlabError(_("{key} cannot be picked now; on offer: {offered}").format(
                    key=repr(key), offered=", ".join(offered)))
            raise CardlabError(_("{key} cannot be picked now; on offer: nothing ({why})").format(
                key=repr(key), why=why or _("no move with picks")))
        picks = picks[:j] + (key,)
        action = self._layout.action_of(picks)  # type: ignore[union-attr]
        if action is not None:
            self.play(action)
        else:
            self._set_picks(picks)

    def clear_picks(self) -> None:
        """Take back the picks of the move being chosen (nothing was played)."""
        self._set_picks(())

    def _set_picks(self, picks: tuple[str, ...]) -> None:
        self._picks, self._picks_at = picks, self.match.state
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

    def states(self) -> list[State]:
        """The position before each move of the history, and the current one
        (kept between redraws: only new moves are replayed)."""
        hist = self.match.history
        if not self._cache or self._cache[0] is not self._start:
            self._cache = [self._start]
            self._cache_actions = []
            self._seen = {}
        acts = self._cache_actions
        k = 0
        while k < min(len(acts), len(hist)) and acts[k] == hist[k].action:
            k += 1
        del acts[k:]
        del self._cache[k + 1:]
        for mv in hist[k:]:
            self._cache.append(self._cache[-1].apply(mv.action))
            acts.append(mv.action)
        return list(self._cache)

    def _seen_move(self, before: State, mv: Any, viewer: int | None) -> render.SeenMove:
        """Move ``mv`` played in ``before`` as ``viewer`` may know it: the one
        gate, :func:`cardlab.render.seen_move` (cached)."""
        lang = i18n.get_language()
        key = (before, mv.action, viewer, lang)
        if key not in self._seen:
            # the texts are made again in the language drawn now (the match's record keeps
            # the explanation in the language it was played in)
            self._seen[key] = render.seen_move(before, mv.action, viewer, None)
        return self._seen[key]

    def _who(self, player: int) -> str:
        if player == CHANCE:
            return pgettext("log", "chance")
        return _("P{player} ({who})").format(player=player, who=seat_label(self.players[player]))

    def log_lines(self) -> list[str]:
        """The move log as the current view may read it (:func:`cardlab.render.seen_move`):
        what the viewer cannot tell apart reads ``??``; a move of which
        nothing is known reads ``(hidden)``."""
        viewer = self.perspective
        with i18n.using(self.language_code):
            return [_("{number}. {who}: {move}").format(number=i, who=self._who(mv.player),
                                                       move=self._seen_move(before, mv, viewer).label)
                    for i, (before, mv) in enumerate(zip(self.states(), self.match.history), 1)]

    def explanation_lines(self) -> list[str]:
        """What the last moves did and which rule made them happen (the moves
        since the last control was used; at least the last move)."""
        with i18n.using(self.language_code):
            return [line for line, _pic in self._explained()]

    def _explained(self) -> list[tuple[str, str]]:
        """Each move since the last control: its line, and the game's picture
        of it (a mipig battle, say) when the view may see it (else ``""``)."""
        hist = self.match.history
        if not hist:
            return []
        states = self.states()
        viewer = self.perspective
        out = []
        for i in range(min(self._mark, len(hist) - 1), len(hist)):
            seen = self._seen_move(states[i], hist[i], viewer)
            out.append((_("{who}: {line}").format(who=self._who(hist[i].player), line=seen.line), seen.picture))
        return out

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

    def _pick_button(self, key: str, step: int, chosen: bool, best: frozenset[str]) -> widgets.Button:
        lay = self._layout
        assert lay is not None
        # under a square: the square's width; under a card of the hand: as wide as its label
        size = widgets.Layout(width=_BUTTON) if key.startswith("sq:") else widgets.Layout(width="auto")
        if chosen:
            b = widgets.Button(description=_("✓ chosen"), button_style="info",
                               tooltip=_("chosen 選択中; click to take it back"), layout=size)
            b.add_class("cardlab-picked")
        else:
            leads = lay.offered(self.picks[:step])[key]
            label = _tr(lay.labels[step]) if step < len(lay.labels) else pgettext("pick", "choose")
            tip = leads[0] if len(leads) == 1 else ngettext("{pick}: {n} move", "{pick}: {n} moves", len(leads)).format(
                pick=key.split(":", 1)[1], n=len(leads))
            b = widgets.Button(description=label, layout=size, tooltip=tip)
            b.add_class("cardlab-offer" if step == len(self.picks) else "cardlab-switch")
            if best.intersection(leads):
                b.button_style = "success"
            self.pick_buttons[key] = b
        b.on_click(lambda _, key=key: self._guard(self.pick, key))
        return b

    def _piece(self, key: str, html: str, best: frozenset[str]) -> widgets.Widget:
        """A square or an item: its picture, with a button under it when it can be picked."""
        box = widgets.Layout(width=f"{_CELL}px" if key.startswith("sq:") else "auto", align_items="center",
                             margin="0 2px")
        pic = widgets.HTML(html, layout=widgets.Layout(margin="0"))
        picks = self.picks
        if key in picks:
            return widgets.VBox([pic, self._pick_button(key, picks.index(key), True, best)], layout=box)
        step = self._pick_step(key)
        if step is None:
            return widgets.VBox([pic], layout=box)
        return widgets.VBox([pic, self._pick_button(key, step, False, best)], layout=box)

    def _draw_layout(self, lay: render.Layout, best: frozenset[str]) -> None:
        self.table.value, self.table_below.value = lay.above, lay.below
        self.grid_title.value = ('<div style="font-family:sans-serif;font-size:13px">'
                                 + _html.escape(_tr(lay.grid_title)) + "</div>")
        x0, y0, x1, y1 = lay.bounds()
        cells: list[widgets.Widget] = []
        if lay.squares:
            small = '<div style="font-family:sans-serif;font-size:10px;color:#666;text-align:center">{}</div>'
            cells.append(widgets.HTML(small.format("y＼x")))
            cells += [widgets.HTML(small.format(x)) for x in range(x0, x1 + 1)]
            for y in range(y0, y1 + 1):
                cells.append(widgets.HTML(small.format(y)))
                for x in range(x0, x1 + 1):
                    cells.append(self._piece(f"sq:{x},{y}", lay.squares.get((x, y), ""), best))
        self.grid.children = cells
        gl = self.grid.layout
        gl.grid_template_columns = f"28px repeat({x1 - x0 + 1}, {_CELL}px)" if lay.squares else None
        gl.grid_gap, gl.justify_items, gl.align_items = "2px", "center", "flex-start"
        gl.padding, gl.width = "4px", "fit-content"
        moves = self.moves_shown()
        # the items (the mover's own cards) only where the mover's moves are offered
        self.items_box.children = [self._piece(f"item:{k}", h, best) for k, h in lay.items.items()] \
            if moves else []
        if moves and lay.paths:
            step = len(self.picks)
            prompt = _tr(lay.prompts[step]) if step < len(lay.prompts) else pgettext("pick", "choose")
            chosen = ", ".join(p.split(":", 1)[1] for p in self.picks)
            self.pick_prompt.value = ("<b>" + _("Your move") + "</b>: " + _html.escape(prompt)
                                      + (" · " + _html.escape(_("chosen: {picks}").format(picks=chosen))
                                         if chosen else "")
                                      + (f" · {_html.escape(_tr(lay.items_title))}:"
                                         if self.items_box.children else ""))
            self.picker.layout.display = None
            self.clear_button.disabled = not self.picks
        else:
            self.pick_prompt.value = ""
            self.picker.layout.display = "none"

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
            options = ", ".join(f"{k}={v}" for k, v in self.game.options.items()
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
        self.hint_button.disabled = not self._hint_allowed()
        entries = [] if waiting is not None else self._explained()
        self.explanation.value = ("" if not entries else
                                  '<div style="line-height:1.35"><b>' + _("What happened") + "</b> "
                                  + _("(rule ids from the rules digest):") + "".join(
                                      f"<div>{_html.escape(x)}</div>{pic}" for x, pic in entries) + "</div>")
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
    (chance and agents), ``autoplay``, the hint's caps ``hint_max_nodes``,
    ``hint_max_arrangements`` and ``hint_samples``, ``agent_options``
    (e.g. ``{"solver": {"max_nodes": 5000}}``) and ``renderer``
    (``'generic'`` for the text board of any game).  ``language``:
    ``'en'`` or ``'ja'`` (``None``: :func:`cardlab.i18n.get_language` each
    time the board draws); the selector "Language 言語" on the board
    switches it, and everything is drawn again in the new language.

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
