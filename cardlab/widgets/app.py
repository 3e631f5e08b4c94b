"""The class app (``notebooks/play.ipynb``, served by Voila with ``make play``):
choose a game, the seats and the options, then play on a :class:`~cardlab.widgets.Board`.

A link can start a board directly, with no set-up: Voila puts the page's
query string into the kernel's environment variable ``QUERY_STRING``, and
:func:`play_app` reads it.  ``?game=mipig&seat=0&lock=1&opponent=heuristic&seed=3``
gives a student a locked board in seat 0 against the heuristic agent; game
options may follow (``&open_hands=0&hand_size=4``).  Bad parameters give a
message naming what is accepted, and no board.  A locked link cannot be
opened up by editing it: ``lock=1`` refuses the options that show hidden
cards (:data:`SHOWS_HIDDEN`), its deal is drawn from the class's secret and
the whole link (:class:`LinkBoard`), so an edited link (another seat,
``lock=0``, another seed or option) deals other cards, and its board has no
control that re-deals or moves an agent.  ``&lang=ja`` (or ``en``) gives
the page in that language (the same deal); the selector "Language 言語"
switches it on the page; ``&projector=1`` draws the board in projector size
(:meth:`cardlab.widgets.Board.set_projector`), for the front of a class.

Only the public API: :func:`cardlab.games`, :func:`cardlab.load`,
``Game.OPTIONS``, ``Game.spec`` and :func:`cardlab.widgets.board`.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any, Callable
from urllib.parse import parse_qsl

import ipywidgets as widgets

from .. import i18n
from ..agents import NAMES
from ..core import Game
from ..games import load, names as games
from ..errors import CardlabError
from ..i18n import _, pgettext
from .board import Board, board
from .controls import (SEAT_CHOICES, _relabel, _seat_options, _tr, language_picker, levels_tip, option_value,
                       option_widget, shown_value)
from ..rooms import RoomStore, default_path
from .room import JoinBox, OneGameMixin, room_page
from .lesson_puzzle import puzzle_page
from .rules_panel import RULES_DIR, rules_panel  # noqa: F401  (RULES_DIR: also cardlab.widgets.app.RULES_DIR)

__all__ = ["PlayApp", "LinkBoard", "play_app", "parse_query", "query_language", "QUERY_KEYS", "LANGUAGE_KEY",
           "SHOWS_HIDDEN"]

#: the URL parameters besides the game's options
QUERY_KEYS = ("game", "seat", "lock", "opponent", "seed")
#: the URL parameter of the page's language (``?lang=ja``), which any link may carry
LANGUAGE_KEY = "lang"
#: the URL parameter of the projector size (``?projector=1``), which any link may carry too
PROJECTOR_KEY = "projector"
#: game options whose values show a player cards the rules otherwise hide: refused on a locked link
SHOWS_HIDDEN = {"open_hands": (True,), "known_deck_order": (True,)}
_IGNORED = ("token",)  # Voila's own: its token, and voila-template, voila-theme, ...
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
def guide_html(setup: bool = True, locked: bool = False) -> str:
    """The page's guide (what the notebook's text said), in the current
    language: how to play on this page.  ``setup``: the page has the set-up
    (not a board a link started); ``locked``: a locked classroom board, where
    the guide says nothing of what the lock takes away (two persons at one
    screen, undo)."""
    points = []
    if setup:
        points.append(_("Choose a <b>game</b>, who sits in each <b>seat</b> (a <b>person</b> at this screen, or the "
                        "computer: <code>random</code>, <code>heuristic</code>, <code>solver</code>, "
                        "<code>mcts</code>) and the game's options (hover over an option to read what it does), "
                        "then press <b>play</b>. <b>◀ set-up</b> brings the choices back."))
    points.append(_("Your moves are the buttons under the board: click one. You see only your own cards; the "
                    "opponent's hidden cards are backs."))
    if locked:
        points.append(_("<b>hint</b> shows how good each of your moves is, worked out only from what you can see, "
                        "at every move within a few seconds: exact near the end of a game, before that an estimate "
                        "with its margin (± …); <b>think longer</b> makes it surer."))
    else:
        points.append(_("Two persons at one screen: a privacy screen (<i>Pass to Player 1 — click when ready</i>) "
                        "comes between your turns, so neither sees the other's hand."))
        points.append(_("<b>hint</b> shows how good each of your moves is, worked out only from what you can see, "
                        "at every move within a few seconds: exact near the end of a game, before that an estimate "
                        "with its margin (± …); <b>think longer</b> makes it surer; <b>undo</b> takes your move "
                        "back."))
    return ("<h2>" + html.escape(_("Play a cardlab game")) + "</h2><ol>"
            + "".join(f"<li>{p}</li>" for p in points) + "</ol><p>"
            + _("The rules of each game, rule by rule: open <i>Rules, rule by rule</i> under the board.") + "</p>")


def teacher_html() -> str:
    """The part for the teacher (what the notebook's text said): links for a
    class, and the class rooms, in the current language."""
    def code(text: str) -> str:
        return f"<code>{html.escape(text)}</code>"

    links = ("<p><b>" + html.escape(_("For the teacher: links for a class.")) + "</b> "
             + _("A link can start a board at once, with no set-up: {link} gives the student player 0 against the "
                 "heuristic agent on a <b>locked</b> board: only their own view, no seat or option changes, no undo "
                 "(taking a move back after seeing what it revealed is a peek), no new deal, and only the fair "
                 "hint. Game options may follow ({options}); a wrong parameter gives a message saying what is "
                 "accepted. A locked link cannot be opened up by editing it: it refuses open hands, and an edited "
                 "link (another seat or seed, or no lock) deals other cards, never this link's. Keep the views of "
                 "every hand and the hint that uses every card for the front of the class. {serve} serves this "
                 "page to the class's laptops and prints its address on the class network ({url} gives "
                 "another).").format(
                 link=code("http://HOST:8866/?game=mipig&seat=0&lock=1&opponent=heuristic&seed=3"),
                 options=code("&open_hands=0&hand_size=4"), serve=code("make play"),
                 url=code("make play PLAY_URL=http://…:8866/"))
             + "</p>")
    rooms = ("<p><b>" + html.escape(_("Class rooms, each pupil on their own laptop.")) + "</b> "
             + _("{serve} prints the teacher's link ({teacher}; {rooms} prints it again): there, type the pupils' "
                 "names once (the list is kept for the next lesson) and press <i>make rooms</i>; every seat gets "
                 "its own link ({seat_link}) and a four-letter code, and <i>hand-out sheet</i> prints them for A4 "
                 "with a QR code a pupil; a pupil may instead type the code at {join}. The opponent's moves appear "
                 "by themselves; <i>new lesson</i> keeps the rooms in the archive of {db}.").format(
                 serve=code("make play"), teacher=code("?teacher=…"), rooms=code("cardlab rooms"),
                 seat_link=code("?room=R1&seat=0&key=…"), join=code("?join"), db=code("class-rooms.db"))
             + "</p>")
    return links + rooms


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
        if set(opt.choices) == {False, True}:
            raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts 0 or 1").format(
                name=name, text=repr(text)))
        raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts {accepted}").format(
            name=name, text=repr(text), accepted=", ".join(map(str, opt.choices))))
    if isinstance(opt.default, int) and not isinstance(opt.default, bool):
        try:
            return int(text)
        except ValueError:
            raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts a whole "
                                 "number").format(name=name, text=repr(text))) from None
    if isinstance(opt.default, str):
        return text
    raise CardlabError(_("URL parameter {name} cannot be set from a link (it takes a card file or a "
                         "list); set it in a notebook").format(name=repr(name)))


def _settable(game: Game) -> list[str]:
    """The options a link may set: choices, numbers and words."""
    return [k for k, o in game.OPTIONS.items() if o.choices is not None or isinstance(o.default, (int, str))]


def query_language(query: str) -> str | None:
    """The language a page's query string asks for (``?lang=ja``), or
    ``None`` when it asks for none or for one cardlab does not speak
    (:func:`parse_query` says what is wrong then).

    >>> query_language("game=mipig&lang=ja"), query_language("game=mipig")
    ('ja', None)
    """
    for k, v in parse_qsl(query, keep_blank_values=True):
        if k == LANGUAGE_KEY:
            try:
                return i18n.check_language(v)
            except CardlabError:
                return None
    return None


def _page_settings(given: dict[str, str]) -> dict[str, Any]:
    """The settings of a page that need no game (``lang``, ``projector``),
    taken out of ``given``; a value not accepted raises, naming what is."""
    out: dict[str, Any] = {}
    if LANGUAGE_KEY in given:
        text = given.pop(LANGUAGE_KEY)
        try:
            out[LANGUAGE_KEY] = i18n.check_language(text)
        except CardlabError:
            raise CardlabError(_("URL parameter lang={text} is not accepted; lang accepts {accepted}").format(
                text=repr(text), accepted=", ".join(f"{k} ({v})" for k, v in i18n.LANGUAGES.items()))) from None
    if PROJECTOR_KEY in given:
        text = given.pop(PROJECTOR_KEY).strip().lower()
        if text not in _TRUE + _FALSE:
            raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts 0 or 1").format(
                name=PROJECTOR_KEY, text=repr(text)))
        out[PROJECTOR_KEY] = text in _TRUE
    return out


def parse_query(query: str) -> dict[str, Any]:
    """The settings a page's query string asks for (``{}`` when it asks for
    none): ``game``, ``seat`` (default 0), ``lock`` (0 or 1, default 0),
    ``opponent`` (an agent for every other seat, a level such as ``club``
    or another agent, default ``heuristic``;
    ``person`` for two persons at one screen), ``seed`` (default 0) and
    ``options`` (the game's options given); ``lang`` (``en`` or ``ja``)
    only when the link gives it, which it may do without a game (the
    set-up in that language); ``projector`` (``True`` or ``False``) only
    when the link gives it (``projector=1``), also without a game.  Raises
    :class:`~cardlab.CardlabError` naming what is accepted.

    >>> parse_query("game=mipig&seat=1&lock=1&hand_size=4")
    {'game': 'mipig', 'seat': 1, 'seed': 0, 'lock': True, 'opponent': 'heuristic', 'options': {'hand_size': 4}}
    >>> parse_query("token=abc")
    {}
    >>> parse_query("lang=ja")
    {'lang': 'ja'}
    """
    pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True)
             if k not in _IGNORED and not k.startswith("voila")]
    if not pairs:
        return {}
    given: dict[str, str] = {}
    for k, v in pairs:
        if k in given:
            raise CardlabError(_("URL parameter {name} is given twice").format(name=repr(k)))
        given[k] = v
    language = _page_settings(given)  # its language, its projector size: they need no game
    if language and not given:
        return language
    if "game" not in given:
        raise CardlabError(_("the link needs game=, one of {games} (other parameters: {keys} and the game's "
                             "options)").format(games=", ".join(games()), keys=", ".join(QUERY_KEYS[1:])))
    name = given.pop("game")
    if name not in games():
        raise CardlabError(_("URL parameter game={name} is not a game; accepted: {games}").format(
            name=repr(name), games=", ".join(games())))
    game = load(name)
    out: dict[str, Any] = {"game": name}
    for key, default in (("seat", "0"), ("seed", "0")):
        text = given.pop(key, default)
        try:
            out[key] = int(text)
        except ValueError:
            raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts a whole "
                                 "number").format(name=key, text=repr(text))) from None
    lock = given.pop("lock", "0").strip().lower()
    if lock not in _TRUE + _FALSE:
        raise CardlabError(_("URL parameter {name}={text} is not accepted; {name} accepts 0 or 1").format(
            name="lock", text=repr(lock)))
    out["lock"] = lock in _TRUE
    out["opponent"] = given.pop("opponent", "heuristic")
    if out["opponent"] not in SEAT_CHOICES:
        raise CardlabError(_("URL parameter opponent={text} is not accepted; opponent accepts {agents} (or "
                             "person, for two persons at one screen)").format(
            text=repr(out["opponent"]), agents=", ".join(NAMES)))
    settable = _settable(game)
    unknown = [k for k in given if k not in settable]
    if unknown:
        raise CardlabError(_("unknown URL parameter {name}; accepted: {keys} and the options of {game}: "
                             "{options}").format(name=repr(unknown[0]), keys=", ".join(QUERY_KEYS), game=name,
                                                 options=", ".join(settable)))
    out["options"] = {k: _option_value(game, k, v) for k, v in given.items()}
    if out["lock"]:
        for k, v in out["options"].items():
            if v in SHOWS_HIDDEN.get(k, ()):
                raise CardlabError(_("URL parameter {name}={text} is not accepted with lock=1: it shows cards the "
                                     "locked seat may not see").format(name=k, text=repr(given[k])))
    out.update(language)
    return out


def link_text(game: Game, seat: int, opponent: str, seed: int) -> str:
    """A locked link as one text (what its deal is keyed by): the game with
    all its options, the seat, the opponent and the seed; not its language."""
    return json.dumps({"game": game.name, "options": game.options, "seat": seat, "opponent": opponent,
                       "seed": seed}, sort_keys=True, default=repr)


def _deal_seed(link: str) -> int:
    """The seed of a locked link's deal, from the class's secret (the room store's)."""
    store = RoomStore(default_path())
    try:
        return store.link_seed(link)
    finally:
        store.close()


class LinkBoard(OneGameMixin, Board):
    """The locked board a link starts (``lock=1``): the seat's own view, its
    moves and the fair hint, nothing else.  Its deal (every chance event) is
    drawn from the class's secret and the whole link
    (:meth:`cardlab.rooms.RoomStore.link_seed`), so the same link deals the
    same cards again, and no edited link (another seat, ``lock=0``, another
    seed or option) deals these: nothing of this game can be seen by editing
    the link.  No control re-deals or steps an agent (they move by
    themselves)."""

    def __init__(self, game: Game, players: list[str], *, seat: int, seed: int, deal: int,
                 language: str | None = None, projector: bool = False) -> None:
        super().__init__(game, players, seat=seat, locked=True, seed=seed, autoplay=True, language=language,
                         projector=projector)
        self._one_game()
        self.match.restart(seed=deal)  # the deal of this link: the first one (from seed) is dropped unseen
        Board.new_game(self)


class PlayApp(widgets.VBox):
    """Choose a game, the seats and the options; "play" puts a board below
    and folds the set-up away ("◀ set-up" brings it back): the board has
    its own seat and option controls, so they are never shown twice.

    ``query`` (a page's query string, see :func:`parse_query`) that asks
    for a game starts that board at once, with no set-up; bad parameters
    show a message naming what is accepted.  ``language``: ``'en'`` or
    ``'ja'`` (``None``: the current one; a link's ``lang=`` comes first);
    the selector "Language 言語" (in the set-up, and on the board) draws
    the page again in the other language.
    """

    def __init__(self, game: str = "koinobori", seed: int = 0, query: str = "",
                 language: str | None = None) -> None:
        language = query_language(query) or language
        #: the language of the page (``None``: the current one when it draws)
        self.language = None if language is None else i18n.check_language(language)
        self.board: Board | None = None
        self.board_box = widgets.VBox()
        self.message = widgets.HTML()
        self._message: Callable[[], str] = str  # the message, made again in another language
        self.game_picker = widgets.Dropdown(options=self._game_options(), value=game,
                                            layout=widgets.Layout(width="420px"))
        self.about = widgets.HTML()
        self.about.add_class("cardlab-play-about")
        self.rules_box = widgets.VBox()
        self.options_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.seats_box.add_class("cardlab-play-seats")
        self.seed_box = widgets.IntText(value=seed, layout=widgets.Layout(width="160px"))
        self.play_button = widgets.Button(button_style="primary")
        self.setup_button = widgets.Button(layout=widgets.Layout(display="none"))
        #: the language selector of the set-up (the board has its own)
        self.language_picker = language_picker(self.language_code)
        self.setup = widgets.VBox([self.language_picker, self.game_picker, self.about, self.options_box,
                                   self.seats_box, widgets.HBox([self.seed_box, self.play_button])])
        #: the guide at the top of the page, and the folded part for the teacher
        self.guide = widgets.HTML()
        self.guide.add_class("cardlab-play-guide")
        self.teacher_text = widgets.HTML()
        self.teacher = widgets.Accordion(children=[self.teacher_text])
        self.teacher.selected_index = None
        self.teacher.add_class("cardlab-play-teacher")
        #: a class room's short code (from the teacher's hand-out) opens the pupil's room in place of the page
        self.join_box = JoinBox(language=self.language, on_join=lambda page: setattr(self, "children", [page]))
        self._from_link = self._locked = False  # a board a link started (no set-up); a locked one
        #: the boards in projector size (a link's ``projector=1``; the board's switch changes it)
        self.projector = False
        self.option_widgets: dict[str, widgets.Widget] = {}
        self._labelled: str | None = None
        self._quiet = False
        super().__init__()
        self.add_class("cardlab-play")
        self.play_button.on_click(lambda _: self.play())
        self.setup_button.on_click(lambda _: self.show_setup())
        self.language_picker.observe(lambda ch: self._on_language(ch["new"]), names="value")
        with i18n.using(self.language):
            self._label()
            try:
                asked = parse_query(query)
            except CardlabError as error:
                self._say_link_error(str(error))
                return
            self.projector = asked.get(PROJECTOR_KEY, False)
            if "game" in asked:
                self.game_picker.value = asked["game"]
            self._choose_game()
            if "game" in asked:
                self._start_from_link(asked)
                return
        self.children = [self.guide, self.join_box, self.setup, self.message, self.setup_button, self.board_box,
                         self.rules_box, self.teacher]
        self.game_picker.observe(lambda change: None if self._quiet else self._choose_game(), names="value")

    # -- the language -------------------------------------------------------------
    @property
    def language_code(self) -> str:
        """The language the page draws in now (``"en"`` or ``"ja"``)."""
        return self.language or i18n.get_language()

    def set_language(self, language: str | None) -> None:
        """Draw the page (and its board) again in ``language`` (``"en"``,
        ``"ja"``; ``None``: the current one): what the selector does."""
        self.language = None if language is None else i18n.check_language(language)
        with i18n.using(self.language_code):
            self._label()
        if self.board is not None and self.board.language_code != self.language_code:
            self.board.set_language(self.language_code)

    def _on_language(self, language: str) -> None:
        if not self._quiet:
            self.set_language(language)

    def _on_board_language(self, board_: Board, language: str) -> None:
        """The board's own selector was switched: the page follows."""
        if not board_._syncing and self.language_code != language:
            self.set_language(language)

    def _game_options(self) -> list[tuple[str, str]]:
        return [(_tr(load(n).title), n) for n in games()]

    def _label(self) -> None:
        """Every text of the page in the current language (the values stay)."""
        lang = i18n.get_language()
        self._quiet = True
        try:
            self.language_picker.value = lang
        finally:
            self._quiet = False
        self.message.value = self._message()
        self._guide()
        if self._labelled == lang:
            return
        first = self._labelled is None
        self._labelled = lang
        self.game_picker.description = _("game")
        self._quiet = True
        try:
            _relabel(self.game_picker, self._game_options())
        finally:
            self._quiet = False
        self.seed_box.description = _("seed")
        self.play_button.description = pgettext("app", "play")
        self.play_button.tooltip = _("a new game with these seats and options")
        self.setup_button.description = _("◀ set-up")
        self.setup_button.tooltip = _("choose another game, seats or options")
        for i, w in enumerate(self.seats_box.children):
            w.description = _("player {player}").format(player=i) if w.description else ""
            _relabel(w, _seat_options(list(SEAT_CHOICES)))
            w.tooltip = levels_tip()
        if not first:
            self._describe_game()

    def _guide(self) -> None:
        """The guide and the teacher's part in the current language."""
        self.guide.value = guide_html(setup=not self._from_link, locked=self._locked)
        self.teacher_text.value = teacher_html()
        self.teacher.set_title(0, _("For the teacher"))
        self.join_box.label(i18n.get_language())

    def _say(self, make: Callable[[], str]) -> None:
        """Show the message ``make()`` (made again when the language changes)."""
        self._message = make
        self.message.value = make()

    def _say_error(self, error: str) -> None:
        self._say(lambda: f'<span style="color:#b00">{html.escape(error)}</span>')

    def _say_link_error(self, error: str) -> None:
        self._say(lambda: ('<span style="color:#b00">' + html.escape(
            _("This link does not start a game: {error}").format(error=error)) + "</span>"))
        self.children = [self.message]

    # -- the set-up -------------------------------------------------------------
    def _choose_game(self) -> None:
        game = load(self.game_picker.value)
        self.option_widgets = {}
        self._option_controls(game, {name: option.default for name, option in game.OPTIONS.items()})
        self._describe_game()
        self._seats()

    def _option_controls(self, game: Game, values: dict[str, Any]) -> None:
        for name, option in game.OPTIONS.items():
            w = option_widget(name, option, values[name])
            if w is None:
                continue  # card files and ready hands: for notebooks, not for this page
            w.observe(lambda change: self._seats(), names="value")
            self.option_widgets[name] = w
        self.options_box.children = list(self.option_widgets.values())

    def _describe_game(self) -> None:
        """The game's line, its options' labels and its rules panel, in the current language."""
        game = load(self.game_picker.value)
        if self.option_widgets:
            values = {k: option_value(w) for k, w in self.option_widgets.items()}
            self.option_widgets = {}
            self._option_controls(game, {k: values.get(k, o.default) for k, o in game.OPTIONS.items()})
        doc = (type(game).__doc__ or "").strip().splitlines()[0]
        about = _tr(doc)
        if about == doc and i18n.get_language() != "en":
            about = _tr(game.title) or doc  # the game's line has no translation: its title does
        self.about.value = (f"<b>{html.escape(about)}</b> "
                            + html.escape(_("Hover over an option for what it does.")))
        self.rules_box.children = [rules_panel(game)]

    def options(self) -> dict[str, Any]:
        """The chosen options that differ from the game's defaults."""
        game = load(self.game_picker.value)
        chosen = {k: option_value(w) for k, w in self.option_widgets.items()}
        return {k: v for k, v in chosen.items() if v != game.OPTIONS[k].default}

    def _game(self) -> Game:
        return load(self.game_picker.value, **self.options())

    def _seats(self) -> None:
        """One seat picker per player (the number can depend on an option)."""
        with i18n.using(self.language_code):
            self._say(str)
            try:
                n = self._game().spec.num_players
            except CardlabError as error:
                self._say_error(str(error))
                return
            old = [w.value for w in self.seats_box.children]
            if len(old) == n:  # the same seats: keep the pickers (a choice made meanwhile stays)
                return
            self.seats_box.children = [
                widgets.Dropdown(options=_seat_options(list(SEAT_CHOICES)),
                                 value=old[i] if i < len(old) else ("person" if i == 0 else "heuristic"),
                                 description=_("player {player}").format(player=i), tooltip=levels_tip(),
                                 layout=widgets.Layout(width="210px"))
                for i in range(n)]

    @property
    def players(self) -> list[str]:
        """The seats chosen: ``'person'`` or an agent's name."""
        return [w.value for w in self.seats_box.children]

    # -- the game ---------------------------------------------------------------
    def _follow(self, board_: Board) -> None:
        board_.language_picker.observe(lambda ch: self._on_board_language(board_, ch["new"]), names="value")
        board_.projector_box.observe(lambda ch: setattr(self, "projector", ch["new"]), names="value")

    def play(self) -> None:
        """A new board with the chosen game, options, seats and seed; the
        set-up folds away (the board has its own seat and option controls)."""
        with i18n.using(self.language_code):
            self._say(str)
            try:
                self.board = board(self._game(), self.players, seed=self.seed_box.value, language=self.language,
                                   projector=self.projector)
            except (CardlabError, ValueError) as error:
                self._say_error(str(error))
                return
        self._follow(self.board)
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
                raise CardlabError(_("URL parameter seat={seat} is not accepted; {game} has seats 0..{last}").format(
                    seat=seat, game=name, last=n - 1))
            if lock and asked["opponent"] == "person":
                raise CardlabError(_("a locked board has one person: opponent= must be an agent ({agents})").format(
                    agents=", ".join(NAMES)))
            players = [asked["opponent"]] * n
            players[seat] = "person"
            hot_seat = asked["opponent"] == "person"  # persons share the screen: the view follows the mover
            if lock:
                deal = _deal_seed(link_text(game, seat, asked["opponent"], asked["seed"]))
                self.board = LinkBoard(game, players, seat=seat, seed=asked["seed"], deal=deal,
                                       language=self.language, projector=self.projector)
            else:
                self.board = board(game, players, seat=None if hot_seat else seat, seed=asked["seed"],
                                   language=self.language, projector=self.projector)
        except (CardlabError, ValueError) as error:
            self._say_link_error(str(error))
            return
        self._follow(self.board)
        for name_, value in asked["options"].items():
            if name_ in self.option_widgets:
                w = self.option_widgets[name_]
                w.value = shown_value(w, value)
        self.seed_box.value = asked["seed"]
        self.seats_box.children = [widgets.Dropdown(options=_seat_options(list(SEAT_CHOICES)), value=p,
                                                    tooltip=levels_tip()) for p in players]

        def message() -> str:
            title = html.escape(_(game.title) if game.title else name)
            if hot_seat:
                text = (_("persons at one screen, taking turns (a locked classroom board).") if lock else
                        _("persons at one screen, taking turns."))
            else:
                text = (_("you play player {player} (a locked classroom board).") if lock else
                        _("you play player {player}.")).format(player=seat)
            return f"<b>{title}</b>: " + html.escape(text)

        self._say(message)
        self.board_box.children = [self.board]
        # a locked board: the guide says nothing of what the lock takes away, and no part for the teacher
        self._from_link, self._locked = True, lock
        self._guide()
        self.children = [self.guide, self.message, self.board_box, self.rules_box] + ([] if lock else [self.teacher])

    def __repr__(self) -> str:
        return (f"PlayApp(game={self.game_picker.value!r}, options={self.options()}, "
                f"players={self.players}, seed={self.seed_box.value}, board={self.board!r})")


def play_app(game: str = "koinobori", seed: int = 0, query: str | None = None,
             language: str | None = None) -> widgets.Widget:
    """The class app; ``query`` defaults to the page's query string (Voila
    sets ``QUERY_STRING`` in the kernel's environment), so a link such as
    ``…/play.ipynb?game=mipig&seat=0&lock=1&opponent=heuristic`` starts a
    locked board at once (:func:`parse_query` lists what is accepted).  A
    class room's link (``?room=R1&seat=0&key=…``, or the teacher's
    ``?teacher=KEY``; ``?join=CODE``, or ``?join`` to type a seat's short
    code; ``?room=R1&view=class&projector=1``, the room shown to the class
    with no hidden card) opens that room instead
    (:func:`cardlab.widgets.room.room_page`); ``?puzzle=lesson&pupil=NAME&key=…``
    a pupil's puzzle of the lesson, ``?puzzle=mipig-0001`` that puzzle to
    practise (:func:`cardlab.widgets.lesson_puzzle.puzzle_page`).  ``language``: ``'en'`` or
    ``'ja'`` (``None``: the current one); a link's ``lang=ja`` comes first.

    >>> play_app(query="")
    PlayApp(game='koinobori', options={}, players=['person', 'heuristic'], seed=0, board=None)
    >>> play_app(query="game=mipig&seat=0&lock=1&hand_size=3").board
    Board('mipig', players=['person', 'heuristic'], view=0, moves=6, locked=True)
    """
    query = os.environ.get("QUERY_STRING", "") if query is None else query
    if any(k == "puzzle" for k, _ in parse_qsl(query, keep_blank_values=True)):
        # the puzzle of the lesson (?puzzle=lesson&pupil=…&key=…) or a puzzle to practise (?puzzle=mipig-0001)
        return puzzle_page(query, language=query_language(query) or language)
    if any(k in ("room", "teacher", "join", "view") for k, _ in parse_qsl(query, keep_blank_values=True)):
        # a class room: a pupil's seat, the teacher's page, or a room shown to the class (view=class)
        return room_page(query, language=query_language(query) or language)
    return PlayApp(game, seed, query, language)
