"""The interactive board: an ipywidgets composition around a :class:`cardlab.Match`.

The engine stays the only place that knows the rules: the board draws
``render.html(state, perspective=...)`` (which draws
``state.observation(player)``), offers exactly ``state.legal_actions()`` as
buttons, and asks the match to play, undo and redo.  No game state lives in
the widgets; they are redrawn from the match after every change.

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

from .. import render
from ..agents import AGENTS, Agent, open_hands_copy
from ..core import CHANCE, Game, State, load
from ..errors import CardlabError, OptionError, TooLargeError
from ..match import Match
from ..solve import analyse

__all__ = ["Board", "board", "SEAT_CHOICES", "AGENT_DEFAULTS"]

#: what a seat dropdown offers: a person, or one of cardlab.agents
SEAT_CHOICES = ("person",) + tuple(AGENTS)
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
    :meth:`play`, :meth:`pick`, :meth:`clear_picks`, :meth:`undo`, :meth:`redo`, :meth:`new_game`,
    :meth:`step`, :meth:`run`, :meth:`hint`, :meth:`set_player`,
    :meth:`set_perspective`, :meth:`set_option`, :meth:`set_state`.

    What is hidden: the table and the move log show only what the chosen view
    may see (a card drawn by another player reads ``draw ??``; a card laid
    face down on a square, ``place ?? 1,3``).  The action
    buttons belong to the player to move and so show that player's options;
    when two people share one screen, use the view "player to move".  The
    hint is computed with every hand shown, and says so.
    """

    def __init__(self, game_or_state: Game | State | str, players: Sequence[Any] | None = None,
                 perspective: int | str | None = "auto", *, seed: int = 0, autoplay: bool | None = None,
                 hint_max_nodes: int = 20_000, agent_options: dict[str, dict[str, Any]] | None = None,
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
        self.hint_max_nodes = hint_max_nodes
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
        self.autoplay = any(a is None for a in seats) if autoplay is None else bool(autoplay)
        self._hint: tuple[State, str, frozenset[str]] | None = None
        self._mark = 0
        self._message = ""
        self.action_buttons: dict[str, widgets.Button] = {}
        self._syncing = False
        self._cache: list[State] = []
        self._cache_actions: list[str] = []
        self._seen: dict[tuple, str] = {}
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
            dd = widgets.Dropdown(options=options, value=name, description=f"player {i}",
                                  layout=widgets.Layout(width="210px"))
            dd.observe(lambda ch, i=i: self._on_widget(self.set_player, i, ch["new"]), names="value")
            self.seat_pickers.append(dd)
        views = [(f"view as player {i}", i) for i in range(n)] + [("player to move", "mover"),
                                                                    ("reveal all", "all")]
        self.view_picker = widgets.Dropdown(options=views, description="view",
                                            layout=widgets.Layout(width="230px"))
        self.option_widgets: dict[str, widgets.Widget] = {}
        self.undo_button = widgets.Button(description="↶ undo", tooltip="take back the last move "
                                          "(back to your last decision when you play a seat)")
        self.redo_button = widgets.Button(description="↷ redo", tooltip="replay the move taken back")
        self.new_button = widgets.Button(description="new game", tooltip="a fresh deal, same seats")
        self.step_button = widgets.Button(description="step ▶", tooltip="one agent move or chance event")
        self.run_button = widgets.Button(description="run ▶▶", tooltip="agents play until a person must move")
        self.hint_button = widgets.Button(description="hint", tooltip="exact value of every legal action "
                                          "(solver, open hands) when the position is small enough")
        self.auto_box = widgets.Checkbox(value=self.autoplay, description="agents move by themselves",
                                         indent=False, layout=widgets.Layout(width="220px"))
        self.undo_button.on_click(lambda _: self._guard(self.undo))
        self.redo_button.on_click(lambda _: self._guard(self.redo))
        self.new_button.on_click(lambda _: self._guard(self.new_game))
        self.step_button.on_click(lambda _: self._guard(self.step))
        self.run_button.on_click(lambda _: self._guard(self.run))
        self.hint_button.on_click(lambda _: self._guard(self.hint))
        self.auto_box.observe(lambda ch: self._on_widget(self.set_autoplay, ch["new"]), names="value")

        # -- the displays ------------------------------------------------------
        self.table = widgets.HTML()
        self.grid_title = widgets.HTML()
        self.grid = widgets.GridBox()
        self.table_below = widgets.HTML()
        self.status = widgets.HTML()
        self.actions_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.pick_prompt = widgets.HTML()
        self.clear_button = widgets.Button(description="clear choice", tooltip="take back the picks of "
                                           "this move (nothing has been played yet)",
                                           layout=widgets.Layout(width="auto", min_width="120px"))
        self.clear_button.on_click(lambda _: self._guard(self.clear_picks))
        self.items_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.list_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.list_accordion = widgets.Accordion(children=[self.list_box],
                                                titles=("every legal move as a button (一覧)",))
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
        super().__init__(children=[
            widgets.HBox(self.seat_pickers + [self.view_picker], layout=widgets.Layout(flex_flow="row wrap")),
            self.options_box,
            widgets.VBox([self.table, self.grid_title, self.grid, self.table_below]),
            self.status,
            widgets.VBox([self.picker, self.actions_box, self.list_accordion]),
            widgets.HBox([self.undo_button, self.redo_button, self.new_button, self.step_button,
                          self.run_button, self.hint_button, self.auto_box],
                         layout=widgets.Layout(flex_flow="row wrap")),
            self.explanation, self.hint_html, self.log_html,
        ])
        persons = [i for i, a in enumerate(seats) if a is None]
        if perspective == "auto":
            perspective = persons[0] if len(persons) == 1 else "mover" if persons else "all"
        self.set_perspective(perspective, refresh=False)
        self.view_picker.observe(lambda ch: self._on_widget(self.set_perspective, ch["new"]), names="value")
        self._settle()
        self._refresh()

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
            raise ValueError(f"seat {seat}: {who!r} is not a player; use 'person' or an agent: "
                             f"{', '.join(AGENTS)} (or a cardlab.agents.Agent)")
        rng = random.Random(f"{self.seed}/{seat}/{who}")
        return AGENTS[who](seed=rng, **self.agent_options.get(who, {}))

    @property
    def players(self) -> list[str]:
        """Who plays each seat: ``'person'`` or the agent's name."""
        return ["person" if a is None else a.name for a in self.match.players]

    def set_player(self, seat: int, who: Any) -> None:
        """Put a person (``'person'``) or an agent (a name of
        :data:`cardlab.agents.AGENTS` or an Agent) in ``seat``; if that agent
        is to move and agents move by themselves, it moves."""
        n = self.game.spec.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, not {seat!r}")
        agent = self._make_seat(seat, who)
        self.match.players[seat] = agent
        name = "person" if agent is None else agent.name
        dd = self.seat_pickers[seat]
        if name not in dd.options:
            self._syncing = True
            try:
                dd.options = list(dd.options) + [name]
            finally:
                self._syncing = False
        self._show(dd, name)
        self._mark = len(self.match.history)
        self._settle()
        self._refresh()

    def set_perspective(self, perspective: int | str | None, refresh: bool = True) -> None:
        """Whose view the table shows: a player index, ``'mover'`` (the
        player to move) or ``'all'``/``None`` (reveal everything)."""
        n = self.game.spec.num_players
        if perspective is None:
            perspective = "all"
        if perspective not in ("all", "mover") and not (
                isinstance(perspective, int) and not isinstance(perspective, bool) and 0 <= perspective < n):
            raise ValueError(f"perspective must be a player 0..{n - 1}, 'mover' or 'all', not {perspective!r}")
        self._view = perspective
        self._show(self.view_picker, perspective)
        if refresh:
            self._refresh()

    @property
    def perspective(self) -> int | None:
        """The player whose view is drawn now (``None``: everything shown)."""
        if self._view == "all":
            return None
        if self._view == "mover":
            p = self.match.state.current_player
            if p >= 0:
                return p
            movers = [m.player for m in self.match.history if m.player >= 0]
            return movers[-1] if movers else 0
        return self._view  # type: ignore[return-value]

    def _build_options(self) -> None:
        self.option_widgets = {}
        for name, opt in self.game.OPTIONS.items():
            if opt.choices is None:
                continue
            value = self.game.options[name]
            if set(opt.choices) == {False, True}:
                w: widgets.Widget = widgets.Checkbox(value=value, description=name, indent=False,
                                                     tooltip=opt.doc + " (starts a new game)",
                                                     layout=widgets.Layout(width="auto"))
            else:
                w = widgets.Dropdown(options=list(opt.choices), value=value, description=name,
                                     tooltip=opt.doc + " (starts a new game)",
                                     layout=widgets.Layout(width="200px"))
            w.observe(lambda ch, name=name: self._on_widget(self.set_option, name, ch["new"]), names="value")
            self.option_widgets[name] = w
        self.options_box.children = list(self.option_widgets.values())

    def set_option(self, name: str, value: Any) -> None:
        """Change a game option; this starts a new game with the new options."""
        if name not in self.game.OPTIONS:
            raise OptionError(f"{self.game.name}: unknown option {name!r}; "
                              f"accepted options: {', '.join(sorted(self.game.OPTIONS))}")
        if self.game.options[name] == value:
            return
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
        self._mark = 0
        self._settle()
        self._refresh()

    def set_state(self, state: State) -> None:
        """Jump to a position (for instance a node of a :class:`TreeView`);
        the seats stay, the history starts there."""
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

    def _persons(self) -> bool:
        return any(p is None for p in self.match.players)

    def _settle(self) -> None:
        """Chance events always happen by themselves; agents too when autoplay is on."""
        m = self.match
        for _ in range(_MAX_STEPS):
            s = m.state
            if s.is_terminal():
                return
            if s.current_player == CHANCE or (self.autoplay and not m.to_move_is_person()):
                m.step()
            else:
                return

    def play(self, action: str) -> None:
        """Play ``action`` for the player to move (what an action button does)."""
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
            raise CardlabError("the game is over; start a new game or undo")
        if s.current_player >= 0 and m.to_move_is_person():
            raise CardlabError(f"player {s.current_player} is a person: play one of the action buttons")
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
        if not self._persons():
            return m.can_undo()
        return any(mv.player >= 0 and m.players[mv.player] is None for mv in m.history)

    def undo(self) -> None:
        """Take back the last move; when a person plays a seat, go back to
        that person's last decision (chance and agent moves are undone too)."""
        if not self._can_undo():
            raise CardlabError("nothing to undo" + (" (no move of a person yet)" if self._persons() else ""))
        self.match.undo(to_person=self._persons())
        self._mark = len(self.match.history)
        self._refresh()

    def redo(self) -> None:
        """Replay what undo took back (the same chance outcomes), up to the
        next decision of a person."""
        m = self.match
        if not m.can_redo():
            raise CardlabError("nothing to redo")
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
        self._settle()
        self._refresh()

    # -- hint ---------------------------------------------------------------------------
    def hint(self) -> str:
        """Show (and return as HTML) the exact value of each legal action,
        from :func:`cardlab.analyse` on the open-hands copy, or say why not."""
        s = self.match.state
        if s.current_player < 0:
            msg = "No hint: " + ("the game is over." if s.is_terminal() else "chance is to act.")
        else:
            try:
                open_state = open_hands_copy(s)
                a = analyse(open_state, max_nodes=self.hint_max_nodes, progress=False)
            except TooLargeError:
                msg = (f"No exact hint here: the position is too large to solve (more than "
                       f"{self.hint_max_nodes:,} positions). Hints work in small endgames; "
                       f"the solver agent plays such positions by sampling instead.")
            except CardlabError as exc:
                msg = f"No exact hint for this game: {exc}"
            else:
                note = ("" if open_state is s else " Computed with every hand shown (open hands, "
                        "the deck still random): it uses cards this player cannot see.")
                bold = ' style="font-weight:bold"'
                rows = "".join(
                    f"<tr{bold if r['best'] else ''}>"
                    f"<td>{_html.escape(r['action'])}</td><td>{r['value']}</td>"
                    f"<td>{float(r['value']):+.3f}</td><td>{r['loss']}</td>"
                    f"<td>{'best' if r['best'] else ''}</td></tr>" for r in a.rows)
                msg = (f"<div><b>Hint</b>: exact value of each action for player {a.player} "
                       f"({a.nodes:,} positions searched).{_html.escape(note)}</div>"
                       "<table><tr><th>action</th><th>value</th><th>≈</th><th>loss</th><th></th></tr>"
                       f"{rows}</table>")
                self._hint = (s, msg, frozenset(r["action"] for r in a.rows if r["best"]))
                self._refresh()
                return msg
        self._hint = (s, _html.escape(msg), frozenset())
        self._refresh()
        return msg

    def best_actions(self) -> list[str]:
        """The actions the last hint marked best (empty without a hint here)."""
        if self._hint is None or self._hint[0] != self.match.state:
            return []
        return [a for a in self.match.state.legal_actions() if a in self._hint[2]]

    # -- picks: a move chosen on the grid ------------------------------------------------
    @property
    def picks(self) -> tuple[str, ...]:
        """The picks made so far for the next move (``()`` when none)."""
        return self._picks if self._picks_at is self.match.state else ()

    def _pick_step(self, key: str) -> int | None:
        """The step ``key`` may be picked at now: the next one, or an earlier
        one (instead of what was chosen there); ``None``: not on offer."""
        lay, picks = self._layout, self.picks
        if lay is None or not self._person_to_move():
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
            lay = self._layout
            offered = sorted(lay.offered(picks)) if lay is not None and self._person_to_move() else []
            raise CardlabError(f"{key!r} cannot be picked now; on offer: "
                               + (", ".join(offered) or "nothing (no person to move with picks)"))
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

    def _person_to_move(self) -> bool:
        s = self.match.state
        return s.current_player >= 0 and self.match.to_move_is_person()

    # -- drawing ---------------------------------------------------------------------------
    def _show(self, widget: widgets.Widget, value: Any) -> None:
        """Put ``value`` in a control without running its handler again."""
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

    def _public(self, before: State, action: str, viewer: int | None) -> str:
        """What ``viewer`` may know of ``action`` (:func:`cardlab.render.public_action`), cached."""
        key = (before, action, viewer)
        if key not in self._seen:
            self._seen[key] = render.public_action(before, action, viewer)
        return self._seen[key]

    def _visible(self, before: State, action: str, viewer: int | None) -> bool:
        return self._public(before, action, viewer) == action

    def _who(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        return f"P{player} ({self.players[player]})"

    def log_lines(self) -> list[str]:
        """The move log as the current view may read it: what the viewer
        cannot tell apart reads ``??`` (:func:`cardlab.render.public_action`);
        a move of which nothing is known reads ``(hidden)``."""
        viewer = self.perspective
        lines = []
        for i, (before, mv) in enumerate(zip(self.states(), self.match.history), 1):
            public = self._public(before, mv.action, viewer)
            what = "(hidden)" if public == "??" else render.action_label(before, public)
            lines.append(f"{i}. {self._who(mv.player)}: {what}")
        return lines

    def explanation_lines(self) -> list[str]:
        """What the last moves did and which rule made them happen (the moves
        since the last control was used; at least the last move)."""
        return [line for line, _ in self._explained()]

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
            mv, before = hist[i], states[i]
            seen = self._visible(before, mv.action, viewer)
            line = mv.explanation if seen else render.move_text(before, mv.action, viewer, mv.explanation)
            pic = render.move_html(before, mv.action) if seen and mv.player >= 0 else ""
            out.append((f"{self._who(mv.player)}: {line}", pic))
        return out

    def _status_text(self) -> str:
        s = self.match.state
        if s.is_terminal():
            r = ", ".join(str(x) for x in s.returns())
            return f"Game over. Returns: {r}."
        p = s.current_player
        if p == CHANCE:
            return "Chance is to act: press step ▶."
        who = self.players[p]
        if who == "person":
            return f"Player {p} (person) to move: choose an action."
        return f"Player {p} ({who}) to move: press step ▶ or run ▶▶."

    def _pick_button(self, key: str, step: int, chosen: bool, best: frozenset[str]) -> widgets.Button:
        lay = self._layout
        assert lay is not None
        # under a square: the square's width; under a card of the hand: as wide as its label
        size = widgets.Layout(width=_BUTTON) if key.startswith("sq:") else widgets.Layout(width="auto")
        if chosen:
            b = widgets.Button(description="✓ chosen", button_style="info",
                               tooltip="chosen 選択中; click to take it back", layout=size)
            b.add_class("cardlab-picked")
        else:
            leads = lay.offered(self.picks[:step])[key]
            label = lay.labels[step] if step < len(lay.labels) else "choose"
            tip = leads[0] if len(leads) == 1 else f"{key.split(':', 1)[1]}: {len(leads)} moves"
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
        self.grid_title.value = f'<div style="font-family:sans-serif;font-size:13px">{_html.escape(lay.grid_title)}</div>'
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
        person = self._person_to_move()
        # the items (the mover's own cards) only for a person to move
        self.items_box.children = [self._piece(f"item:{k}", h, best) for k, h in lay.items.items()] \
            if person else []
        if person and lay.paths:
            step = len(self.picks)
            prompt = lay.prompts[step] if step < len(lay.prompts) else "choose"
            chosen = ", ".join(p.split(":", 1)[1] for p in self.picks)
            self.pick_prompt.value = (f"<b>Your move</b>: {_html.escape(prompt)}"
                                      + (f" · chosen: {_html.escape(chosen)}" if chosen else "")
                                      + (f" · {_html.escape(lay.items_title)}:" if self.items_box.children else ""))
            self.picker.layout.display = None
            self.clear_button.disabled = not self.picks
        else:
            self.pick_prompt.value = ""
            self.picker.layout.display = "none"

    def _refresh(self) -> None:
        m, s = self.match, self.match.state
        viewer = self.perspective
        hint = self._hint if self._hint is not None and self._hint[0] == s else None
        best = hint[2] if hint is not None else frozenset()
        self.pick_buttons = {}
        self._layout = render.layout(s, perspective=viewer) if self._renderer is render.html else None
        if self._layout is None:
            self.table.value = self._renderer(s, perspective=viewer)
            self.grid_title.value, self.table_below.value = "", ""
            self.grid.children = []
            self.items_box.children = []
            self.picker.layout.display = "none"
        else:
            self._draw_layout(self._layout, best)
        status = _html.escape(self._status_text())
        if self._message:
            status += f' <span style="color:#b00">{_html.escape(self._message)}</span>'
        self.status.value = status
        buttons: dict[str, widgets.Button] = {}
        if s.current_player >= 0 and m.to_move_is_person():
            for a in s.legal_actions():
                # the tooltip is the notation only: explain(a) previews the outcome,
                # which may name cards the mover cannot see yet (a face-down defender)
                b = widgets.Button(description=render.action_label(s, a), tooltip=a,
                                   layout=widgets.Layout(width="auto"))
                if hint is not None and a in hint[2]:
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
        self.redo_button.disabled = not m.can_redo()
        self.step_button.disabled = s.is_terminal() or not agent_to_move
        self.run_button.disabled = s.is_terminal() or not agent_to_move
        self.hint_button.disabled = s.current_player < 0
        entries = self._explained()
        self.explanation.value = ("" if not entries else
                                  '<div style="line-height:1.35"><b>What happened</b> (rule ids from '
                                  "the rules digest):" + "".join(f"<div>{_html.escape(x)}</div>{pic}"
                                                                 for x, pic in entries) + "</div>")
        self.hint_html.value = hint[1] if hint is not None else ""
        log = self.log_lines()
        self.log_html.value = ('<details><summary>move log (' + str(len(log)) + ' moves)</summary>'
                               '<div style="max-height:14em;overflow:auto;font-family:monospace">'
                               + "<br>".join(_html.escape(x) for x in log) + "</div></details>")

    def __repr__(self) -> str:
        view = {"all": "all", "mover": "mover"}.get(self._view, self._view)  # type: ignore[arg-type]
        return (f"Board({self.game.name!r}, players={self.players}, view={view!r}, "
                f"moves={len(self.match.history)})")


def board(game_or_state: Game | State | str, players: Sequence[Any] | None = None,
          perspective: int | str | None = "auto", **kwargs: Any) -> Board:
    """A playable board for any registered game (or any state).

    ``players`` lists each seat: ``'person'`` or an agent (``'random'``,
    ``'heuristic'``, ``'solver'``, ``'mcts'`` or a
    :class:`cardlab.agents.Agent`); default: a person against random.
    ``perspective``: a player index, ``'mover'``, ``'all'`` (reveal
    everything) or ``'auto'`` (the only person's seat; the player to move when
    several persons play; everything when only agents play).  Other keywords:
    ``seed`` (chance and agents), ``autoplay``, ``hint_max_nodes``,
    ``agent_options`` (e.g. ``{"solver": {"max_nodes": 5000}}``) and
    ``renderer`` (``'generic'`` for the text board of any game).

    >>> import cardlab.widgets
    >>> b = cardlab.widgets.board("koinobori", ["person", "random"], seed=1)
    >>> b
    Board('koinobori', players=['person', 'random'], view=0, moves=6)
    >>> first = sorted(b.action_buttons)[0]
    >>> b.action_buttons[first].click()
    >>> len(b.match.history) > 6
    True
    """
    return Board(game_or_state, players, perspective, **kwargs)
