"""The puzzle of the lesson in the class app (issue U, items 4 and 5).

- :class:`LessonPuzzlePanel`: the teacher's section of
  :class:`cardlab.widgets.room.Lobby`: pick the puzzle of the lesson (an id;
  or a game and a theme: the puzzle nearest the class's median rating),
  each pupil's link and code, and a table of each pupil's puzzle rating and
  attempts (this lesson's, and the lessons before).
- :class:`LessonPuzzlePage`: a pupil's page (``?puzzle=lesson&pupil=NAME&key=…``,
  or their code on the join page): the puzzle of the lesson on a
  :class:`~cardlab.widgets.puzzle.PuzzleBoard` (the mover's view only),
  right or wrong at once with the explanation, the solution played out, the
  attempt stored with the new rating (:mod:`cardlab.puzzle_store`); then
  the next puzzles of its game and theme near the pupil's rating.  A new
  puzzle of the lesson appears by itself.
- :func:`puzzle_page`: what a ``?puzzle=…`` link opens (``?puzzle=mipig-0001``:
  free practice, nothing stored).
"""

from __future__ import annotations

import html
from typing import Any, Callable, Sequence
from urllib.parse import parse_qsl

import ipywidgets as widgets

from . import polling
from .. import i18n
from ..errors import CardlabError
from ..games import load, names as game_names
from ..i18n import _, pgettext
from ..puzzle_store import Attempt, LessonPuzzle, PuzzleStore, find, game_of
from ..puzzles.bank import bank_path
from ..puzzles.session import Result
from ..puzzles.text import answer_words
from ..puzzles.themes import theme_names
from ..rooms import RoomStore, default_path
from ..store_db import errors
from .puzzle import PuzzleBoard

__all__ = ["LessonPuzzleBoard", "LessonPuzzlePage", "LessonPuzzlePanel", "puzzle_page", "attempts_html"]


def _red(text: str) -> str:
    return '<span style="color:#b00">' + html.escape(text) + "</span>"


class LessonPuzzleBoard(PuzzleBoard):
    """A :class:`PuzzleBoard` for ``pupil`` of the class in ``book``: their
    rating and the puzzles they tried come from the store, and each finished
    puzzle is stored there (:meth:`cardlab.puzzle_store.PuzzleStore.record`)."""

    def __init__(self, book: PuzzleStore, pupil: str, lp: LessonPuzzle, *, language: str | None = None) -> None:
        self.book, self.pupil = book, pupil
        self.moves_played: list[str] = []
        self.stored: Attempt | None = None
        self.saved = widgets.HTML()
        self.saved.add_class("cardlab-puzzle-saved")
        super().__init__(lp.puzzle.game, theme=lp.theme, pid=lp.puzzle.id, language=language)
        self.children = self.children[:-1] + (self.saved, self.children[-1])

    def next_puzzle(self, pid: str | None = None) -> None:
        s = self.session
        s.rating = self.book.rating(self.pupil)
        s.history = [{"puzzle": t} for t in self.book.tried(self.pupil)]
        s.puzzle_ratings = self.book.puzzle_ratings()
        self.moves_played, self.stored = [], None
        self.saved.value = ""
        super().next_puzzle(pid)

    def choose(self, move: str) -> Result:
        """Play ``move`` as the pupil; when the puzzle is over, store the attempt."""
        r = super().choose(move)
        self.moves_played.append(move)
        if r.done:
            with i18n.using(self.language):
                try:
                    self.stored = self.book.record(self.pupil, self.puzzle.id, self.moves_played)
                except (CardlabError, *errors()) as exc:
                    self.saved.value = _red(_("your answer could not be stored: {reason}").format(reason=exc))
                    return r
                self.session.rating = self.stored.rating
                self._draw()
                self.saved.value = html.escape(self._saved_text(self.stored))
        return r

    @staticmethod
    def _saved_text(a: Attempt) -> str:
        if not a.rated:
            return _("Stored (a puzzle you tried before: your rating stays {rating}).").format(rating=a.rating)
        return _("Stored: your puzzle rating {before:.0f} → {rating}.").format(before=a.before, rating=a.rating)


class LessonPuzzlePage(widgets.VBox):
    """``pupil``'s page for the puzzle of the lesson (their link or code):
    the puzzle on a :class:`LessonPuzzleBoard`, or a line saying that none
    is set yet; a new puzzle of the lesson replaces the board by itself (it
    looks every ``poll`` seconds: :meth:`sync`), not in the middle of a puzzle."""

    def __init__(self, store: RoomStore, pupil: str, *, poll: float | None = 2.0,
                 language: str | None = None) -> None:
        super().__init__()
        self.add_class("cardlab-lesson-puzzle")
        self.book, self.pupil, self.language = PuzzleStore(store), pupil, language
        self.head = widgets.HTML()
        self.board: LessonPuzzleBoard | None = None
        self.shown: str | None = None  # the id of the puzzle of the lesson shown
        self.sync()
        self._poller = polling.start(poll, self.sync)

    def sync(self) -> bool:
        """Show the puzzle of the lesson if it changed (and no puzzle is half
        solved on the board); True then."""
        with i18n.using(self.language):
            lp = self.book.lesson_puzzle()
            now = None if lp is None else lp.puzzle.id
            busy = self.board is not None and 0 < self.board.session.step and not self.board.session.done
            if now == self.shown or busy:
                return False
            self.shown = now
            self.head.value = "<b>" + html.escape(_("The puzzle of the lesson, for {name}").format(
                name=self.pupil)) + "</b>"
            if lp is None:
                self.board = None
                self.children = [self.head, widgets.HTML(html.escape(_(
                    "No puzzle of the lesson yet: it appears here by itself when your teacher sets one.")))]
            else:
                self.board = LessonPuzzleBoard(self.book, self.pupil, lp, language=self.language)
                self.children = [self.head, self.board]
        return True

    def close(self) -> None:
        polling.stop(self._poller)
        super().close()


def puzzle_page(query: str, store: RoomStore | None = None, *, language: str | None = None) -> widgets.Widget:
    """What a ``?puzzle=…`` link opens: ``?puzzle=lesson&pupil=NAME&key=…``
    the pupil's :class:`LessonPuzzlePage` (``store``: the class's, default
    :func:`cardlab.rooms.default_path`); ``?puzzle=<id>`` (``mipig-0001``) a
    :class:`~cardlab.widgets.puzzle.PuzzleBoard` starting with that puzzle,
    for free practice (nothing stored); or a message saying what is wrong."""
    given = dict(parse_qsl(query, keep_blank_values=True))
    with i18n.using(language) as language:
        pid = given.get("puzzle", "")
        if pid != "lesson":
            try:
                return PuzzleBoard(game_of(pid), pid=find(pid).id, language=language)
            except CardlabError as exc:
                return widgets.HTML(_red(_("This link does not open a puzzle: {reason}").format(reason=exc)))
        store = store or RoomStore(default_path())
        name = given.get("pupil", "")
        if not PuzzleStore(store).check_key(name, given.get("key", "")):
            return widgets.HTML(_red(_("This link does not open a puzzle: {reason}").format(reason=_(
                "the pupil and the key do not belong together; ask your teacher for your link"))))
        return LessonPuzzlePage(store, name, language=language)


# -- the teacher's section --------------------------------------------------------------------------------------
def _games() -> list[str]:
    return [g for g in game_names() if bank_path(g).exists()]


def _title(game: str) -> str:
    """A game's title in the current language (its name when it has none)."""
    title = load(game).title
    return _(title) if title else game


_TABLE_CSS = ("<style>.cardlab-puzzle-table{border-collapse:collapse}.cardlab-puzzle-table th{border-bottom:1px solid "
              "#999}.cardlab-puzzle-table td,.cardlab-puzzle-table th{padding:2px 10px;text-align:left;"
              "vertical-align:top}</style>")


def attempts_html(book: PuzzleStore, pupils: Sequence[str]) -> str:
    """Each pupil's puzzle rating, their attempts of this lesson (the puzzle,
    ✓ or ✗, the moves, the rating after) and the lessons before (attempts,
    solved, the rating at the end), as a table."""
    e = html.escape
    store = book.store
    current = store.lesson()
    names = {x.id: x.name for x in store.lessons()}
    names_seen = list(dict.fromkeys(list(pupils) + [a.pupil for a in book.attempts()]))
    rows, puzzles = [], {}

    def said(a: Attempt) -> str:  # the pupil's moves as their board named them
        if a.puzzle not in puzzles:
            try:
                puzzles[a.puzzle] = find(a.puzzle)
            except CardlabError:  # a puzzle no longer shipped: its moves as stored
                return ", ".join(a.moves)
        return pgettext("list separator", ", ").join(answer_words(puzzles[a.puzzle], a.moves))

    for name in names_seen:
        now = [f"{e(a.puzzle)} {'✓' if a.solved else '✗'} ({e(said(a))}) → {a.rating.rating:.0f}"
               for a in book.attempts(name, current.id)]
        before = [e(_("{lesson}: {solved} of {n} solved, {rating:.0f}").format(
                     lesson=names.get(lesson, lesson), solved=solved, n=n, rating=rating))
                  for lesson, n, solved, rating in book.history(name) if lesson != current.id]
        rows.append(f"<tr><td>{e(name)}</td><td><b>{e(str(book.rating(name)))}</b></td>"
                    f"<td>{'<br>'.join(now) or '-'}</td><td>{'<br>'.join(before) or '-'}</td></tr>")
    heads = (_("pupil"), _("puzzle rating"), _("this lesson"), _("earlier lessons"))
    return (_TABLE_CSS + '<table class="cardlab-puzzle-table"><tr>' + "".join(f"<th>{e(h)}</th>" for h in heads) + "</tr>"
            + "".join(rows) + "</table>")


class LessonPuzzlePanel(widgets.VBox):
    """The teacher's section for the puzzle of the lesson (on the
    :class:`~cardlab.widgets.room.Lobby`): ``names()`` the pupils typed on
    the page (kept as the roster when a puzzle is set), ``language()`` the
    page's, ``base`` the class app's address in the pupils' links."""

    def __init__(self, store: RoomStore, *, names: Callable[[], Sequence[str]] = lambda: (),
                 language: Callable[[], str | None] = lambda: None, base: str = "") -> None:
        super().__init__()
        self.add_class("cardlab-lesson-puzzle-panel")
        self.store, self.book, self.base = store, PuzzleStore(store), base
        self._names, self._language = names, language
        with i18n.using(language()):
            self._build()
        self.refresh()

    def _build(self) -> None:
        games = _games()
        self.game = widgets.Dropdown(options=[(_title(g), g) for g in games], value=games[0] if games else None,
                                     description=_("game"), layout=widgets.Layout(width="360px"))
        self.theme = widgets.Dropdown(description=_("theme"), layout=widgets.Layout(width="360px"))
        self.pid = widgets.Text(placeholder="mipig-0001", description=_("or the id"))
        self.set_button = widgets.Button(description=_("set the puzzle of the lesson"), button_style="primary",
                                         layout=widgets.Layout(width="auto"),
                                         tooltip=_("by default the puzzle nearest the class's median rating, not "
                                                   "set in a lesson before"))
        self.message, self.current, self.table, self.links = (widgets.HTML() for _i in range(4))
        self.set_button.on_click(lambda _b: self.set_puzzle())
        self.game.observe(lambda _c: self._themes(), names="value")
        self._themes()
        self.children = [widgets.HTML("<b>" + html.escape(_("Puzzle of the lesson")) + "</b> " + html.escape(
                             _("(each pupil opens it from their link or code; their answers are rated)"))),
                         widgets.HBox([self.game, self.theme]), widgets.HBox([self.pid, self.set_button]),
                         self.message, self.current, self.table, self.links]

    def _themes(self) -> None:
        with i18n.using(self._language()):
            names = theme_names(self.game.value) if self.game.value else {}
            self.theme.options = [(_("any theme"), "")] + [(f"{t.title()} ({t.rule})", k) for k, t in names.items()]
            self.theme.value = ""

    def _say(self, text: str, error: bool = False) -> None:
        self.message.value = _red(text) if error else html.escape(text)

    def set_puzzle(self) -> Any:
        """Set the puzzle of the lesson from the choices (the id first); the puzzle, or ``None`` (then a message)."""
        with i18n.using(self._language()):
            names = [n.strip() for n in self._names() if n.strip()]
            try:
                if names:
                    self.store.set_roster(names)  # the class list, for the next lesson too
                pid = self.pid.value.strip() or None  # an id typed: that puzzle, whatever the game and theme chosen
                p = self.book.set_lesson_puzzle(game=None if pid else self.game.value,
                                                theme=None if pid else self.theme.value or None, pid=pid)
            except CardlabError as exc:
                self._say(_("no puzzle set: {reason}").format(reason=exc), error=True)
                return None
            self.pid.value = ""
            self._say(_("{id} is the puzzle of the lesson: the pupils' pages show it.").format(id=p.id))
            self._refresh()
            return p

    def refresh(self) -> None:
        with i18n.using(self._language()):
            self._refresh()

    def _refresh(self) -> None:
        lp = self.book.lesson_puzzle()
        if lp is None:
            self.current.value = "<i>" + html.escape(_("no puzzle of the lesson yet")) + "</i>"
        else:
            p, names = lp.puzzle, theme_names(lp.puzzle.game)
            themes = ", ".join(f"{names[t].title()} ({names[t].rule})" for t in p.themes) or "-"
            self.current.value = html.escape(_("Now: {id} ({game}), rating {rating}, themes: {themes}").format(
                id=p.id, game=_title(p.game), rating=self.book.puzzle_rating(p), themes=themes))
        roster = self.store.roster()
        self.table.value = attempts_html(self.book, roster)
        rows = []
        for n in roster:
            who, link = _("{name} (code {code})").format(name=n, code=self.book.code(n)), self.book.link(n, self.base)
            rows.append(f'<div>{html.escape(who)}: <a href="{html.escape(link)}" target="_blank"><code>'
                        f"{html.escape(link)}</code></a></div>")
        self.links.value = ("<details><summary>" + html.escape(_("each pupil's link and code for the puzzle of the "
                                                                 "lesson (the same in every lesson)"))
                            + "</summary>" + "".join(rows) + "</details>") if rows else ""
