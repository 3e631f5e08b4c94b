"""The move log and "What happened" of a :class:`~cardlab.widgets.Board`:
every move as the view drawn may know it (:func:`cardlab.render.seen_move`,
the one gate), with the rule that made it happen."""

from __future__ import annotations

from typing import Any

from .. import i18n, render
from ..core import CHANCE, State
from ..i18n import _
from .controls import seat_label


class LogMixin:
    """The history side of a :class:`~cardlab.widgets.Board` (it keeps the
    positions of the history, ``_cache``, and the moves as seen, ``_seen``)."""

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
        """Who made a move, as a log line names them (``""``: nobody, a card
        dealt, drawn or revealed: the line says what happened)."""
        if player == CHANCE:
            return ""
        return _("P{player} ({who})").format(player=player, who=seat_label(self.players[player]))

    def _said(self, player: int, text: str) -> str:
        """``text`` after the name of who made the move (a card dealt: ``text`` alone)."""
        who = self._who(player)
        return _("{who}: {line}").format(who=who, line=text) if who else text

    def log_lines(self) -> list[str]:
        """The move log as the current view may read it (:func:`cardlab.render.seen_move`):
        a move the viewer does not see reads as what happened to them
        ("Player 1 is dealt a card")."""
        viewer = self.perspective
        with i18n.using(self.language_code):
            return [_("{number}. {move}").format(number=i, move=self._said(
                mv.player, self._seen_move(before, mv, viewer).label))
                    for i, (before, mv) in enumerate(zip(self.states(), self.match.history), 1)]

    def explanation_lines(self) -> list[str]:
        """What the last moves did and which rule made them happen (the moves
        since the last control was used; at least the last move): each a
        sentence with its rule ids after it."""
        with i18n.using(self.language_code):
            return [self._said(player, seen.line) for player, seen in self._explained()]

    def explanation_entries(self) -> list[tuple[str, tuple[str, ...], str]]:
        """The lines of :meth:`explanation_lines` for a page: each its
        sentence, the rule ids it cites (drawn small after it) and the
        game's picture of the move (``""``: none)."""
        return [(self._said(player, seen.sentence), seen.rules, seen.picture) for player, seen in self._explained()]

    def _explained(self) -> list[tuple[int, render.SeenMove]]:
        """Each move since the last control as the view may know it, with its mover."""
        hist = self.match.history
        if not hist:
            return []
        states = self.states()
        viewer = self.perspective
        return [(hist[i].player, self._seen_move(states[i], hist[i], viewer))
                for i in range(min(self._mark, len(hist) - 1), len(hist))]
