"""The move log and "What happened" of a :class:`~cardlab.widgets.Board`:
every move as the view drawn may know it (:func:`cardlab.render.seen_move`,
the one gate), with the rule that made it happen."""

from __future__ import annotations

from typing import Any

from .. import i18n, render
from ..core import CHANCE, State
from ..i18n import _, pgettext
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
