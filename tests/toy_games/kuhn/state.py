"""The Game and the State of Kuhn poker: the flow of a hand, calling rules.py."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Mapping

from cardlab.core import CHANCE, TERMINAL, Game, Hidden, Spec, State, bool_option, check_keys, make_rng
from cardlab.errors import PositionError
from cardlab.layout import Layout

from . import rules

#: the position: the two cards ("" until dealt) and the betting so far
KEY = Layout("card0", "card1", "history")


class Kuhn(Game):
    name = "kuhn"
    title = "Kuhn poker"
    ACTION_GRAMMAR = "deal J|Q|K, check, bet, call or fold"
    ACTION_RE = re.compile(r"deal [JQK]|check|bet|call|fold")
    OPTIONS = {"open_hands": bool_option("both cards face up (for exact solving)")}

    def _make_spec(self) -> Spec:
        return Spec(num_players=2, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=Fraction(-2), max_utility=Fraction(2), max_game_length=5)

    def _root(self) -> "KuhnState":
        return KuhnState(self, KEY.make(card0="", card1="", history=""))

    def _state_from_dict(self, d: Mapping[str, Any]) -> "KuhnState":
        check_keys(d, KEY.names, "kuhn")
        cards = [d["card0"], d["card1"]]
        if any(c not in ("",) + rules.CARDS for c in cards) or (cards[0] and cards[0] == cards[1]):
            raise PositionError(f"kuhn: the cards are two different of {rules.CARDS} (or '' before the deal)")
        h = d["history"]
        if not isinstance(h, str) or not any(e.startswith(h) for e in rules.ENDINGS) or (h and not cards[1]):
            raise PositionError("kuhn: history is a beginning of one of " + ", ".join(rules.ENDINGS))
        if not cards[0] and cards[1]:
            raise PositionError("kuhn: player 0 is dealt first")
        return KuhnState(self, KEY.make(card0=cards[0], card1=cards[1], history=h))


class KuhnState(State):
    __slots__ = ()

    @property
    def current_player(self) -> int:
        c0, c1, h = self._k
        if not c1:
            return CHANCE
        return TERMINAL if rules.over(h) else len(h) % 2

    def legal_actions(self) -> list[str]:
        return list(rules.moves(self._k[KEY.history])) if self.current_player >= 0 else []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        if self.current_player != CHANCE:
            return []
        left = [c for c in rules.CARDS if c != self._k[KEY.card0]]
        return [(f"deal {c}", Fraction(1, len(left))) for c in left]

    def _apply(self, action: str) -> "KuhnState":
        c0, c1, h = self._k
        if action.startswith("deal "):
            card = action[5:]
            return KuhnState(self.game, KEY.replace(self._k, **({"card1": card} if c0 else {"card0": card})))
        return KuhnState(self.game, KEY.replace(self._k, history=h + rules.code(action)))

    def returns(self) -> list:
        c0, c1, h = self._k
        if not rules.over(h):
            return [0, 0]
        v = rules.payoff(h, c0, c1)
        return [v, -v]

    def _shown(self, player: int) -> bool:
        """Whether ``player`` sees the other card: open hands, or the showdown."""
        return self.game.options["open_hands"] or rules.over(self._k[KEY.history])

    def observation(self, player: int) -> dict[str, Any]:
        c0, c1, h = self._k
        return {"card": (c0, c1)[player], "other card": (c0, c1)[1 - player] if self._shown(player) else "?",
                "betting": h}

    def information_set(self, player: int) -> tuple:
        c0, c1, h = self._k
        return ("kuhn", player, (c0, c1)[player], h, (c0, c1)[1 - player] if self._shown(player) else "")

    def public_action(self, action: str, viewer: int) -> str:
        dealt_to = 0 if not self._k[KEY.card0] else 1
        if action.startswith("deal ") and viewer != dealt_to and not self.game.options["open_hands"]:
            return "deal ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        c0, c1, h = self._k
        if not c1 or self._shown(player):
            return None
        mine = (c0, c1)[player]
        unseen = tuple(c for c in rules.CARDS if c != mine)

        def build(contents: tuple[tuple, ...]) -> "KuhnState":
            other = contents[0][0]
            return KuhnState(self.game, KEY.replace(self._k, **{("card1" if player == 0 else "card0"): other}))
        return Hidden(unseen, (("other hand", 1), ("left out", 1)), build)

    def redeal(self, player: int, seed: Any = None) -> "KuhnState":
        found = self.hidden(player)
        if found is None:
            return self
        rng = make_rng(seed)
        other = rng.choice(found.cards)
        return found.build(((other,), tuple(c for c in found.cards if c != other)))

    def to_dict(self) -> dict[str, Any]:
        return {"game": "kuhn", "options": self.game.options_dict(), **KEY.named(self._k)}

    def __str__(self) -> str:
        c0, c1, h = self._k
        return f"Kuhn poker: cards {c0 or '-'} {c1 or '-'}, betting '{h}'"
