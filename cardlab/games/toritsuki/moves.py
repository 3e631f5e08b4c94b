"""What a Toritsuki player may do (TK-13 … TK-19, TK-Q8): the legal actions
of each stage and the chance outcomes.  A mixin of
:class:`~.state.ToritsukiState` (its key laid out as :data:`~.positions.KEY`).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from . import rules
from .positions import (BA, BATTLE, BK, BLOCK, CHANCE_STAGES, COIN, EV, FR, FT, H, MAIN, MULLIGAN, P0, P1, PO,
                        POSS_A, POSS_D, ST, TAKE_VERB, TP, YR, DU)
from .positions import distinct as _distinct, runs as _runs, uniq as _uniq
from .rules import ROW

__all__ = ["LegalMoves"]

_CACHE_SIZE = 4096  # entries per memo table (recent positions only)


def _boosts(P: tuple | list, cost: int) -> range:
    """TK-25, TK-26, TK-Q8: :func:`.rules.boosts` for player ``P``'s money."""
    return rules.boosts(cost, P[YR], P[DU])


def _with_payments(action: str, P: tuple, cost: int) -> list[str]:
    """TK-Q8: ``action`` paid ready yoki first, then ``action boost N`` for
    every other number of boosts that can pay; nothing if it cannot be paid."""
    b = _boosts(P, cost)
    return [action] + [f"{action} boost {n}" for n in b[1:]] if b else []


class LegalMoves:
    """The State's legal actions and chance outcomes (see the module docstring)."""

    __slots__ = ()

    # -- legal actions -----------------------------------------------------------
    def legal_actions(self) -> list[str]:
        cache = self.game._legal_cache
        acts = cache.get(self._k)
        if acts is None:
            if len(cache) > _CACHE_SIZE:
                cache.clear()
            acts = cache[self._k] = tuple(self._legal())
        return list(acts)

    def _legal(self) -> list[str]:
        k = self._k
        stage, tp = k[ST], k[TP]
        if stage == MAIN:
            return self._main_actions()
        if stage == BATTLE:
            return self._attack_actions() + ["end"]
        if stage == BLOCK:
            return self._block_actions() + ["noblock"]
        if stage == POSS_A or stage == POSS_D:
            return self._possess_actions(tp if stage == POSS_A else 1 - tp)
        if stage == MULLIGAN:
            return ["keep", "mulligan"]
        return []

    def _main_actions(self) -> list[str]:
        k = self._k
        tp = k[TP]
        g = self.game
        P = k[P0 + tp]
        front, back = P[FR], P[BK]
        acts = []
        affordable = [no for no in _uniq(P[H]) if g.cards[no].is_yokai and _boosts(P, g.cards[no].cost)]
        for no in affordable:
            if len(front) < ROW:
                acts += _with_payments(f"summon {no} F", P, g.cards[no].cost)
            if len(back) < ROW:
                acts += _with_payments(f"summon {no} B", P, g.cards[no].cost)
        full = len(front) == ROW and len(back) == ROW
        if full and affordable:  # TK-13 make room
            acts += [f"release F{i + 1}" for i in _distinct(front)]
            acts += [f"release B{i + 1}" for i in _distinct(back)]
        acts += self._move_actions(P)
        if not k[EV] and not k[FT]:  # one event per main; none on the first player's first turn (TK-5)
            O = k[P1 - tp]
            for no in _uniq(P[H]):
                if g.cards[no].is_yokai:
                    continue
                kind, value = g.cards[no].effect
                if kind == "bp_up":
                    acts += [f"event {no} F{i + 1}" for i in _distinct(front)]
                    acts += [f"event {no} B{i + 1}" for i in _distinct(back)]
                elif kind == "banish":
                    for r, name in ((O[FR], "F"), (O[BK], "B")):
                        acts += [f"event {no} o{name}{i + 1}" for i in _distinct(r)
                                 if g.cards[r[i][0]].rank <= value]
                elif kind == "rest":
                    acts += [f"event {no} oB{i + 1}" for i in _distinct(O[BK]) if not O[BK][i][1]]
                else:
                    acts.append(f"event {no}")
        # attacking ends the main phase (TK-13 → TK-14): no separate "battle" step
        return acts + self._attack_actions() + ["end"]

    def _move_actions(self, P: tuple) -> list[str]:
        """TK-13: each arrangement of the rows other than this one, once, as
        one ``move`` of the yokai that change rows (see the module doc: no
        limit, no cycle)."""
        front, back = P[FR], P[BK]
        if not self.game.options["move_once_per_turn"] and any(y[2] for y in front + back):
            return []  # just rearranged: another rearrangement only after another main action
        rows = {"F": front, "B": back}
        slots = [(r, i) for r, row in rows.items() for i in range(len(row)) if not row[i][2]]
        acts = []
        for n in range(1, len(slots) + 1):
            for pick in combinations(slots, n):
                if any(i and rows[r][i - 1] == rows[r][i] and (r, i - 1) not in pick for r, i in pick):
                    continue  # of alike yokai in a row, name the first ones only
                out = {rows[r][i] for r, i in pick if r == "F"}
                into = {rows[r][i] for r, i in pick if r == "B"}
                n_out, n_in = sum(r == "F" for r, _i in pick), sum(r == "B" for r, _i in pick)
                if out & into or len(front) - n_out + n_in > ROW or len(back) - n_in + n_out > ROW:
                    continue  # trading alike yokai changes nothing; 3 a row at most
                acts.append("move " + " ".join(f"{r}{i + 1}" for r, i in pick))
        return acts

    def _attack_actions(self) -> list[str]:
        tp = self._k[TP]
        P = self._k[P0 + tp]
        if self._k[FT]:  # TK-5 no battle on the first player's first turn
            return []
        front = P[FR]
        return [a for i in _distinct(front) if not front[i][1]
                for j, m in enumerate(self.game.cards[front[i][0]].methods)
                for a in _with_payments(f"attack F{i + 1} m{j + 1}", P, m.cost)]

    def _block_actions(self) -> list[str]:
        d = 1 - self._k[TP]
        P = self._k[P0 + d]
        back = P[BK]
        return [a for i in _distinct(back) if not back[i][1]
                for j, m in enumerate(self.game.cards[back[i][0]].methods)
                for a in _with_payments(f"block B{i + 1} m{j + 1}", P, m.cost)]

    def _possess_actions(self, p: int) -> list[str]:
        g = self.game
        P = self._k[P0 + p]
        acts = ["pass", "possess deck"]
        for no in _uniq(P[H]):
            if g.cards[no].is_yokai and self._fits(no, p):
                acts.append(f"possess {no}")
        return acts

    def _fits(self, no: int, owner: int) -> bool:
        """TK-19, TK-20: does card ``no`` of ``owner`` meet its condition
        (:func:`.rules.fits`) on the yokai it would possess?"""
        cards = self.game.cards
        c = cards[no]
        b = self._k[BA]
        if rules.on_attacker(owner == self._k[TP], c.target == "own"):
            return rules.fits(c, cards[b[0]], b[2])
        return rules.fits(c, cards[b[3]], b[5])

    # -- chance ------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        stage = k[ST]
        if stage not in CHANCE_STAGES:
            return []
        if stage == COIN:
            return [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
        o = self._owner()
        pool = k[P0 + o][PO]
        verb = TAKE_VERB[stage]
        cache = self.game._chance_cache
        outs = cache.get((verb, pool))
        if outs is None:
            if len(cache) > _CACHE_SIZE:
                cache.clear()
            total = len(pool)
            outs = cache[verb, pool] = tuple((f"{verb} {no}", Fraction(c, total)) for no, c in _runs(pool))
        return list(outs)
