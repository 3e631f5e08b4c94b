"""What the players of Toritsuki see (TK-Q6): the saved position
(``to_dict``), each player's observation and information set, the hidden
cards (``redeal``, ``hidden``), the public form of a move, the heuristic.
A mixin of :class:`~.state.ToritsukiState` (its key laid out as
:data:`~.positions.KEY`).
"""

from __future__ import annotations

import random
from typing import Any

from ...core import Hidden, make_rng
from .positions import BA, BK, BLOCK, DD, DU, EV, FP, FR, FT, H, KEY, N, OVER, P0, PD, PO, ST, TOP, TP, TR, WN, YR, YS

__all__ = ["PlayerViews"]

_CACHE_SIZE = 4096  # entries of the table of keys to_dict wrote (recent positions only)


class PlayerViews:
    """The State's views (see the module docstring)."""

    __slots__ = ()

    def _public_player(self, p: int) -> dict[str, Any]:
        P = self._k[P0 + p]
        return {"deck_size": P[N], "deck_top": list(P[TOP]), "front": [list(y) for y in P[FR]],
                "back": [list(y) for y in P[BK]],
                "yoki": [P[YR], P[YS]], "damage": [P[DU], P[DD]], "trash": P[TR]}

    def _head(self) -> dict[str, Any]:
        k = self._k
        b = k[BA]
        battle = None
        if b is not None:
            blocked = k[ST] != BLOCK
            battle = {"attacker": b[0], "attacker_bonus": b[1], "attacker_method": b[2] + 1,
                      "blocker": b[3] if blocked else None, "blocker_bonus": b[4],
                      "blocker_method": b[5] + 1 if blocked else 0,
                      "attacker_possession": b[6] or None, "blocker_possession": b[7] or None}
        return {"stage": k[ST], "turn_player": k[TP], "first_player": None if k[FP] < 0 else k[FP],
                "first_turn": k[FT], "event_used": k[EV], "pending": k[PD],
                "winner": None if k[WN] < 0 else k[WN], "battle": battle}

    def to_dict(self) -> dict[str, Any]:
        known = self.game._known
        if len(known) > _CACHE_SIZE:
            known.clear()
        known[self._k] = self._k
        d = {"game": "toritsuki", "options": dict(self.game.saved_options), **self._head()}
        ps = []
        for p in (0, 1):
            P = self._k[P0 + p]
            ps.append({"hand": list(P[H]), "unseen": list(P[PO]),
                       **self._public_player(p)})
        d["players"] = ps
        return d

    def observation(self, player: int) -> dict[str, Any]:
        """The hand of ``player``; of the opponent only the hand size and the
        cards not yet seen (hand and unseen merged) unless ``open_hands``."""
        d = {**self._head(), "current_player": self.current_player, "you": player}
        ps = []
        for p in (0, 1):
            P = self._k[P0 + p]
            e = self._public_player(p)
            if p == player or self.game.options["open_hands"]:
                e["hand"] = list(P[H])
                e["unseen"] = list(P[PO])
            else:
                e["hand_size"] = len(P[H])
                e["unseen_or_in_hand"] = sorted(P[H] + P[PO])
            ps.append(e)
        d["players"] = ps
        return d

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        o = 1 - player
        O = k[P0 + o]
        hidden = (len(O[H]), tuple(sorted(O[H] + O[PO]))) + O[N:]
        return KEY.replace(k, **{"player%d" % o: hidden})

    def redeal(self, player: int, seed: int | random.Random | None = None) -> Any:
        """Deal the opponent's hand anew from the cards ``player`` has not seen."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        o = 1 - player
        O = self._k[P0 + o]
        pool = list(O[H] + O[PO])
        rng.shuffle(pool)
        h = len(O[H])
        k = list(self._k)
        k[P0 + o] = (tuple(sorted(pool[:h])), tuple(sorted(pool[h:]))) + O[N:]
        return type(self)(self.game, tuple(k))

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's hand and their unseen pool (deck and face-down
        yoki, TK-Q6): every split of those cards into a hand of the same size
        and a pool is a position ``player`` cannot tell apart, as in
        :meth:`redeal`.  The deck order is chance and the known deck top
        (``known_deck_order``) public, so nothing else is hidden."""
        if self.game.options["open_hands"]:
            return None
        o = 1 - player
        O = self._k[P0 + o]

        def build(contents: tuple[tuple, ...]) -> Any:
            k = list(self._k)
            k[P0 + o] = (tuple(sorted(contents[0])), tuple(sorted(contents[1]))) + O[N:]
            return type(self)(self.game, tuple(k))

        return Hidden(O[H] + O[PO], (("opponent hand", len(O[H])),
                                     ("opponent deck and face-down yoki", len(O[PO]))), build)

    def public_action(self, action: str, viewer: int) -> str:
        """A card dealt or drawn into a hand (TK-2, TK-3, TK-11, an event's
        draw TK-Q2) is seen by its owner only: ``deal ??``, ``draw ??``.
        Every other move is public, whichever card it is: the choices
        (keep, mulligan, summon, move, event, attack, block, possession) are
        played on the table; damage goes face up into the damage zone
        (表向きに配置, TK-18); a possession from the deck turns the top card
        over (めくる, TK-19); a known deck order is laid out for everybody
        (TK-Q6); the coin is seen by both (TK-4).  With ``open_hands``
        every move is public."""
        if self.game.options["open_hands"] or viewer == self.current_player:
            return action
        verb = action.partition(" ")[0]
        if verb in ("deal", "draw") and viewer != self._owner():
            return f"{verb} ??"
        return action

    def heuristic(self, player: int) -> float:
        """Damage lead, field BP, cards in hand and money: ready yoki and
        face-up damage (a boost) alike, resting yoki a little (they come back,
        a boost does not, TK-Q8) — only what ``player`` sees."""
        k = self._k
        if k[ST] == OVER:
            return 100.0 * self.returns()[player]
        g = self.game

        def side(p: int) -> float:
            P = k[P0 + p]
            bp = sum(max(m.bp for m in g.cards[y[0]].methods) for y in P[FR] + P[BK])
            return (-3.0 * (P[DU] + P[DD]) + bp / 40 + 0.5 * len(P[H]) + 0.3 * (P[YR] + P[DU]) + 0.1 * P[YS]
                    + 0.05 * P[N])
        return side(player) - side(1 - player)
