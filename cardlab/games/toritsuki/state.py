"""Toritsuki card battle (とりつきカードバトル): summon yokai, attack, possess.

Rules: ``docs/rules/toritsuki.md`` (TK-1 … TK-29, TK-Q1 … TK-Q8), from the
seed text ``003_50cbaf1ce9c159c0.txt``.  Rule ids in comments and in
:meth:`ToritsukiState.explain` point there.

Representation.  Each player's cards are counted over the distinct card
numbers of that player's deck ("kinds").  Hands are multisets (count tuples).
Face-down yoki (妖気) are never looked at by anybody and never come back, so
their identity cannot matter: the deck's unknown cards and the face-down yoki
charged from them form one *unseen pool* (a count tuple), and the deck is
only its size ``n`` (plus an optional known ``top`` sequence, public, used by
``known_deck_order`` and by hand-made endgames).  A card taken from the
unknown part of a deck (draw, damage, possession reveal) is a chance outcome
with probability ``count / pool size``, exactly the probability of that card
being on top; charging (TK-12) needs no chance at all.

A yokai on the field is ``(card, rested, moved, bonus)``; a row (前衛 front,
後衛 back) is a sorted tuple of them, since the place inside a row means
nothing (TK-27).  Slots in actions (``F1``, ``B3``) index that sorted row.

Notation (player actions, then chance outcomes)::

    keep / mulligan           TK-3
    summon 12 F               summon card 12 into the front (F) or back (B) row, TK-13
    release B2                all 6 places full: send a yokai to the trash, TK-13
    move F1 / move F1 B2      the listed yokai change rows (front ↔ back), all at once, TK-13
    event 44 F1 / event 48 oB1 / event 41   one event a main phase, TK-13, TK-24
    attack F1 m2              attack with front yokai 1, battle method 2, TK-16 (from the
                              main phase it also ends the main phase, TK-14)
    end                       end the turn (from main: without any attack)
    block B1 m1 / noblock     TK-17, TK-18
    … boost N                 after a summon, attack or block: pay with N face-up
                              damage cards (妖気ブースト) where ready yoki could pay, TK-Q8
    possess deck / possess 12 / pass     とりつく!, TK-19
    shuffle N, deal N, draw N, damage N, reveal N, first K   chance outcomes

Choices where the digest is silent: see :mod:`.rules`.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any, Mapping

from ...core import CHANCE, TERMINAL, Game, Option, Spec, State, bool_option
from ...i18n import N_
from . import positions, rules, text
from .cards import Card, CardSet, Method, cards_ok, decks_ok, game_decks, load_cards
from .moves import _CACHE_SIZE, LegalMoves, _boosts, _with_payments  # noqa: F401  (the legal actions moved there)
from .positions import (BA, BATTLE, BK, BLOCK, CHANCE_STAGES, COIN, DAMAGE, DD, DEAL, DRAW, DU, DUEL, EV, EVDRAW,
                        FP, FR, FT, H, KEY, MAIN, MULLIGAN, N, OVER, P0, P1, PD, PLAYER, PO, POSS_A, POSS_D,
                        REVEAL_A, REVEAL_D, SHUFFLE, ST, TAKE_VERB, TOP, TP, TR, WN, YR, YS)
from .positions import insert as _insert, remove as _remove, split_boost as _split_boost
from .rules import CATEGORIES, HAND_START, ICONS, RANKS
from .text import BattleReport, SideReport
from .views import PlayerViews

__all__ = ["Toritsuki", "ToritsukiState", "Card", "Method", "CardSet", "load_cards",
           "BattleReport", "SideReport", "RANKS", "CATEGORIES", "ICONS"]

ACTION_RE = re.compile(
    r"keep|mulligan|release [FB][1-3]|move( [FB][1-3]){1,6}"
    r"|(summon \d+ [FB]|attack F[1-3] m[1-9]|block B[1-3] m[1-9])( boost [1-9])?"
    r"|event \d+( o?[FB][1-3])?|end|noblock"
    r"|possess (deck|\d+)|pass|(shuffle|deal|draw|damage|reveal) \d+|first [01]"
)


# -- the game -----------------------------------------------------------------
class Toritsuki(Game):
    """Toritsuki card battle (とりつきカードバトル), two players.

    >>> import cardlab
    >>> game = cardlab.load("toritsuki", first_player=0)
    >>> s = game.new_initial_state(seed=1)
    >>> s.current_player, s.legal_actions()
    (0, ['keep', 'mulligan'])
    """

    name = "toritsuki"
    title = N_("Toritsuki card battle (とりつきカードバトル)")
    rules = "toritsuki.md"
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees both hands and unseen cards; the deck order stays chance "
                                     "(TK-Q6)")),
        "known_deck_order": bool_option(
            N_("each shuffle lays out the whole deck order by chance at once, public from then on (TK-Q6)"),
            label=N_("known deck order")),
        "mulligan": bool_option(N_("the optional one-time mulligan (TK-3)"), default=True),
        "move_once_per_turn": bool_option(
            N_("house rule, not the seed's: each yokai changes rows at most once a turn (TK-13)"),
            label=N_("move once per turn")),
        "first_player": Option(None, N_("who goes first: None for a fair coin (chance), or 0 or 1 (TK-Q3)"),
                               choices=(None, 0, 1), check=lambda v: not isinstance(v, bool),
                               accepts=N_("None, 0 or 1"), choice_words={None: N_("a coin (random)")}),
        "cards": Option(None, N_("the card file: None (cardlab's own set), 'icons' (the same set with the "
                                 "battle-method icons pierce 貫通 and guard 守り, exceptions to TK-21, TK-Q7), "
                                 "a JSON path or dict (TK-Q1)"),
                        check=cards_ok, accepts=N_("None, 'icons', a path to a JSON card file, or a dict")),
        "decks": Option(None, N_("the two decks: None (ready decks A and B), or [deck0, deck1] where each is "
                                 "a deck name of the card file or a list of card numbers (TK-1)"),
                        check=decks_ok,
                        accepts=N_("None or a list of two decks (names or lists of card numbers)")),
    }
    # the notation, as error messages show it (the quoted actions stay as they are in every language)
    ACTION_GRAMMAR = N_("'keep', 'mulligan', 'summon 12 F', 'release B2', 'move F1', 'move F1 B2', "
                        "'event 44 F1', 'event 48 oB1', 'end', 'attack F1 m2', 'block B1 m1', "
                        "'summon 5 F boost 1' (also after attack and block), "
                        "'noblock', 'possess deck', 'possess 12', 'pass'; chance: 'shuffle N', 'deal N', "
                        "'draw N', 'damage N', 'reveal N', 'first K'")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.cardset = cs
        self.cards = cs.cards
        lists = game_decks(cs, self.options["decks"])
        self.deck_lists = tuple(lists)
        self.kinds = tuple(tuple(sorted(set(lst))) for lst in lists)
        self.index = tuple({no: i for i, no in enumerate(k)} for k in self.kinds)
        self.copies = tuple(Counter(lst) for lst in lists)
        self.kindset = tuple(frozenset(k) for k in self.kinds)
        self.yokai = tuple(frozenset(no for no in k if self.cards[no].is_yokai) for k in self.kinds)
        #: the fewest yokai on the field a card of each deck wins with (TK-8), None without such a card
        self.win_field = tuple(min((self.cards[no].effect[1] for no in k if self.cards[no].effect[:1] == ("win_if_field",)),
                                   default=None) for k in self.kinds)
        #: the most cards one event of each deck draws (TK-Q2): bounds ``pending`` at an event's draw
        self.max_draw = tuple(max((self.cards[no].effect[1] for no in k if self.cards[no].effect[:1] == ("draw",)),
                                  default=0) for k in self.kinds)
        self.saved_options = self.options_dict()
        # legal actions and chance outcomes depend on the key only: memoised
        self._legal_cache: dict = {}
        #: keys written by to_dict (so known valid): state_from_dict skips the checks for them
        self._known: dict = {}
        self._chance_cache: dict = {}

    def _make_spec(self) -> Spec:
        n0, n1 = len(self.deck_lists[0]), len(self.deck_lists[1])
        # Setup: ≤ n0+n1 shuffle outcomes (known_deck_order), 10 deals, 2 mulligan
        # choices and for each mulligan another shuffle (≤ n) and 5 deals, 1 coin.
        setup = 2 * (n0 + n1) + 10 + 2 + 10 + 1
        # After the deal every later card taken from a deck is ≤ 1 chance
        # transition; C such cards exist, C ≤ n0 + n1 − 10 (the game ends when a
        # deck is empty, TK-7).  Every turn charges a card (TK-12), so turns
        # T ≤ C + 1.  A main phase with S summons has ≤ S + 1 releases (only
        # with all 6 places full), ≤ 1 event and ≤ 2S + 3 rearrangements (one
        # before each other main action and one at its end; with
        # move_once_per_turn ≤ 6 + S, each yokai once), so ≤ 4S + 9 decisions;
        # then 1 end of main, ≤ 3 attacks × 4 decisions (attack, block, 2
        # possessions) and 1 end: ≤ 4S + 23 a turn, and ΣS ≤ the cards ever in
        # hand ≤ 10 + C.
        c = n0 + n1 - 10
        return Spec(num_players=2, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=Fraction(-1), max_utility=Fraction(1),
                    max_game_length=setup + c + 4 * (10 + c) + 23 * (c + 1))

    def _root(self) -> "ToritsukiState":
        players = [self._player(p) for p in (0, 1)]
        stage = SHUFFLE if self.options["known_deck_order"] else DEAL
        first = self.options["first_player"]
        key = KEY.make(stage=stage, turn_player=0, first_player=-1 if first is None else first, first_turn=False,
                       event_used=False, pending=0, winner=-1, player0=players[0], player1=players[1], battle=None)
        return ToritsukiState(self, key)

    def _player(self, p: int) -> tuple:
        return PLAYER.make(hand=(), unseen=self.deck_lists[p], deck_size=len(self.deck_lists[p]), deck_top=(),
                           front=(), back=(), yoki_ready=0, yoki_resting=0, damage_up=0, damage_down=0, trash=0)

    # -- positions ----------------------------------------------------------
    def _from_key(self, key: tuple) -> "ToritsukiState":
        """The state of a key laid out as :data:`~.positions.KEY` (for the
        position checks and the core's ``decode``; not checked)."""
        return ToritsukiState(self, key)

    def _state_from_dict(self, d: Mapping[str, Any]) -> "ToritsukiState":
        """A position, checked completely (:func:`.positions.state_from_dict`)."""
        return positions.state_from_dict(self, d)

def _battle_values(cards: Mapping[int, Card], tp: int, b: tuple) -> tuple[int, int, int, int]:
    """TK-20, TK-21, TK-Q7: the attacker's and the defender's BP (method, event
    bonus, possessions) and icon bits, as :func:`.rules.duel` takes them."""
    bp = [cards[b[0]].methods[b[2]].bp + b[1], cards[b[3]].methods[b[5]].bp + b[4]]
    icons = [rules.icon_bits((cards[b[0]].methods[b[2]].icon,)), rules.icon_bits((cards[b[3]].methods[b[5]].icon,))]
    for owner, poss in ((tp, b[6]), (1 - tp, b[7])):
        if poss:
            c = cards[poss]
            side = 0 if rules.on_attacker(owner == tp, c.target == "own") else 1
            bp[side] += c.poss_bp
            icons[side] |= rules.icon_bits((c.poss_icon,))
    return bp[0], bp[1], icons[0], icons[1]


def _pay(P: list, cost: int, boosts: int | None = None) -> None:
    """TK-25, TK-26, TK-Q5, TK-Q8: ``boosts`` face-up damage cards turned face
    down, the rest in ready yoki rested; by default ready yoki first."""
    if boosts is None:
        boosts = max(0, cost - P[YR])
    P[YR] -= cost - boosts
    P[YS] += cost - boosts
    P[DU] -= boosts
    P[DD] += boosts


def _unmark(P: list) -> None:
    """Take the move marks off player ``P``'s yokai (TK-13)."""
    for r in (FR, BK):
        if any(y[2] for y in P[r]):
            P[r] = tuple(sorted((y[0], y[1], 0, y[3]) for y in P[r]))


def _charge(P: list) -> bool:
    """TK-12: the top card face down, ready, into the yoki zone; False if the deck ran out (TK-7)."""
    if P[TOP]:
        P[TOP] = P[TOP][1:]
    P[N] -= 1
    P[YR] += 1
    return P[N] > 0


class ToritsukiState(LegalMoves, PlayerViews, State):
    """A Toritsuki position.  The key is ``(stage, tp, first_player, first_turn,
    event_used, pending, winner, player0, player1, battle)``; a player is
    ``(hand, unseen, deck_size, deck_top, front, back, yoki_ready, yoki_resting,
    damage_up, damage_down, trash)``; a battle is ``(a_card, a_bonus, a_method,
    b_card, b_bonus, b_method, a_possession, b_possession)``.
    """

    __slots__ = ()

    # -- reading ---------------------------------------------------------------
    @property
    def stage(self) -> str:
        return self._k[ST]

    @property
    def turn_player(self) -> int:
        return self._k[TP]

    def key_fields(self) -> dict[str, Any]:
        """The key's fields by name (:data:`~.positions.KEY`), each player's
        fields by name too (:data:`~.positions.PLAYER`), the battle as its
        tuple (:data:`~.positions.BATTLE_LAYOUT`) or ``None``: what a core's
        ``encode`` reads."""
        d = KEY.named(self._k)
        d["player0"], d["player1"] = PLAYER.named(self._k[P0]), PLAYER.named(self._k[P1])
        return d

    def player(self, p: int) -> tuple:
        return self._k[P0 + p]

    @property
    def current_player(self) -> int:
        """The deciding player: the defender decides blocks and its own possession (TK-17, TK-19)."""
        stage = self._k[ST]
        if stage == OVER:
            return TERMINAL
        if stage in CHANCE_STAGES:
            return CHANCE
        if stage == BLOCK or stage == POSS_D:
            return 1 - self._k[TP]
        return self._k[TP]

    def _owner(self) -> int:
        """Whose deck a chance stage takes from."""
        stage, tp = self._k[ST], self._k[TP]
        return 1 - tp if stage in (DAMAGE, REVEAL_D) else tp

    def returns(self) -> list:
        w = self._k[WN]
        if w < 0:
            return [0, 0]
        return [1, -1] if w == 0 else [-1, 1]

    def card(self, no: int) -> Card:
        return self.game.cards[no]

    def yokai_at(self, slot: str, player: int | None = None) -> Card:
        """The yokai in ``slot`` (``"F1"``: front row, first place; ``"B2"``:
        back row, second) of ``player`` (default: the player to move), as
        the move notation names it."""
        p = self.current_player if player is None else player
        row = self._k[P0 + p][FR if slot[0] == "F" else BK]
        return self.game.cards[row[int(slot[1:]) - 1][0]]

    def hand(self, p: int) -> dict[int, int]:
        return dict(Counter(self._k[P0 + p][H]))

    # -- transitions ---------------------------------------------------------------
    def _apply(self, action: str) -> "ToritsukiState":
        return ToritsukiState(self.game, self._settle(self._step(action)))

    def _step(self, action: str) -> list:
        """The raw effect of one action; :meth:`_settle` then runs what follows on its own."""
        g = self.game
        k = list(self._k)
        stage, tp = k[ST], k[TP]
        Ps = [list(k[P0]), list(k[P1])]
        verb, _sep, arg = action.partition(" ")
        if stage in CHANCE_STAGES:
            if verb == "first":  # TK-4, TK-Q3
                return self._start_turn(k, Ps, int(arg), True)
            o = self._owner()
            no = int(arg)
            P = Ps[o]
            P[PO] = _remove(P[PO], no)
            if stage == SHUFFLE:
                P[TOP] = P[TOP] + (no,)
                k[P0], k[P1] = tuple(Ps[0]), tuple(Ps[1])
                return k
            P[N] -= 1
            return self._took(k, Ps, o, no)
        if stage == MULLIGAN:
            if verb == "mulligan":  # TK-3: the hand back into the deck, shuffled; draw 5 again
                P = Ps[tp]
                P[PO], P[H], P[TOP] = tuple(sorted(P[PO] + P[H] + P[TOP])), (), ()
                P[N] += HAND_START
                k[ST] = SHUFFLE if g.options["known_deck_order"] else DEAL
                k[PD] = 1
                return self._pack(k, Ps)
            return self._after_mulligan(k, Ps)
        P = Ps[tp]
        if stage == MAIN:
            return self._main(k, Ps, verb, arg)
        if stage == BATTLE:
            if verb == "end":
                return self._end_turn(k, Ps)
            return self._step_attack(k, Ps, arg)
        if stage == BLOCK:
            D = Ps[1 - tp]
            if verb == "noblock":
                return self._no_block(k, Ps)
            head, boosts = _split_boost(arg)
            slot, m = head.split()
            i = int(slot[1]) - 1
            y = D[BK][i]
            D[BK] = D[BK][:i] + D[BK][i + 1:]
            mi = int(m[1:]) - 1
            _pay(D, g.cards[y[0]].methods[mi].cost, boosts)  # TK-17, TK-Q8
            b = k[BA]
            k[BA] = (b[0], b[1], b[2], y[0], y[3], mi, 0, 0)
            k[ST] = POSS_A
            return self._pack(k, Ps)
        if stage in (POSS_A, POSS_D):
            who = tp if stage == POSS_A else 1 - tp
            if verb == "pass":
                k[ST] = POSS_D if stage == POSS_A else DUEL
            elif arg == "deck":
                k[ST] = REVEAL_A if stage == POSS_A else REVEAL_D
            else:
                no = int(arg)
                W = Ps[who]
                W[H] = _remove(W[H], no)
                b = list(k[BA])
                b[6 if stage == POSS_A else 7] = no
                k[BA] = tuple(b)
                k[ST] = POSS_D if stage == POSS_A else DUEL
            return self._pack(k, Ps)
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _step_attack(self, k: list, Ps: list, arg: str) -> list:
        """TK-16: the attacker rests, chooses a method and pays its cost."""
        P = Ps[k[TP]]
        head, boosts = _split_boost(arg)
        slot, m = head.split()
        i = int(slot[1]) - 1
        y = P[FR][i]
        P[FR] = P[FR][:i] + P[FR][i + 1:]
        mi = int(m[1:]) - 1
        _pay(P, self.game.cards[y[0]].methods[mi].cost, boosts)  # TK-Q8
        k[BA] = (y[0], y[3], mi, 0, 0, 0, 0, 0)
        k[ST] = BLOCK
        return self._pack(k, Ps)

    def _pack(self, k: list, Ps: list) -> list:
        k[P0], k[P1] = tuple(Ps[0]), tuple(Ps[1])
        return k

    def _lose(self, k: list, Ps: list, loser: int) -> list:
        """TK-6, TK-7: the game ends at once."""
        k[ST], k[WN], k[BA] = OVER, 1 - loser, None
        return self._pack(k, Ps)

    def _took(self, k: list, Ps: list, o: int, no: int) -> list:
        """Card ``no`` has left player ``o``'s deck at stage ``k[ST]``: put it where it goes."""
        g = self.game
        P = Ps[o]
        stage = k[ST]
        if stage == DEAL:
            P[H] = _insert(P[H], no)
            if len(P[H]) < HAND_START:
                return self._pack(k, Ps)
            if k[PD] == 1:  # the mulligan's new hand is complete
                return self._after_mulligan(k, Ps)
            if o == 0:
                k[TP] = 1
                return self._pack(k, Ps)
            if g.options["mulligan"]:
                k[ST], k[TP] = MULLIGAN, 0
                return self._pack(k, Ps)
            return self._coin(k, Ps)
        if P[N] == 0:  # TK-7, TK-Q4 the deck ran out: that player loses at this instant
            return self._lose(k, Ps, o)
        if stage == DRAW:  # TK-11, then TK-12 charge
            P[H] = _insert(P[H], no)
            return self._charge_and_main(k, Ps)
        if stage == EVDRAW:
            P[H] = _insert(P[H], no)
            if k[PD] > 0:
                k[PD] -= 1
            else:
                k[ST] = MAIN
            return self._pack(k, Ps)
        if stage == DAMAGE:  # TK-18 face up into the damage zone
            P[DU] += 1
            if rules.loses_by_damage(P[DU] + P[DD]):  # TK-6
                return self._lose(k, Ps, o)
            k[ST] = BATTLE
            return self._pack(k, Ps)
        # REVEAL_A / REVEAL_D, TK-19: attach if it meets the condition, else trash
        self_k = ToritsukiState(g, tuple(self._pack(k, Ps)))
        b = list(k[BA])
        if self_k._fits(no, o):
            b[6 if stage == REVEAL_A else 7] = no
            k[BA] = tuple(b)
        else:
            P[TR] += 1
        k[ST] = POSS_D if stage == REVEAL_A else DUEL
        return self._pack(k, Ps)

    def _after_mulligan(self, k: list, Ps: list) -> list:
        k[PD] = 0
        if k[TP] == 0:
            k[ST], k[TP] = MULLIGAN, 1
            return self._pack(k, Ps)
        return self._coin(k, Ps)

    def _coin(self, k: list, Ps: list) -> list:
        if k[FP] < 0:
            k[ST], k[TP] = COIN, 0
            return self._pack(k, Ps)
        return self._start_turn(k, Ps, k[FP], True)

    def _start_turn(self, k: list, Ps: list, p: int, first: bool) -> list:
        """TK-9 start, TK-10 refresh, TK-11 draw (not on the first player's first turn, TK-5)."""
        k[TP], k[FP], k[FT], k[EV], k[PD] = p, p if first else k[FP], first, False, 0
        P = Ps[p]
        P[FR] = tuple(sorted((y[0], 0, 0, y[3]) for y in P[FR]))
        P[BK] = tuple(sorted((y[0], 0, 0, y[3]) for y in P[BK]))
        P[YR], P[YS] = P[YR] + P[YS], 0
        if first:
            return self._charge_and_main(k, Ps)
        k[ST] = DRAW
        return self._pack(k, Ps)

    def _charge_and_main(self, k: list, Ps: list) -> list:
        """TK-12 charge: the top card face down, ready, into the yoki zone."""
        p = k[TP]
        if not _charge(Ps[p]):
            return self._lose(k, Ps, p)
        k[ST] = MAIN
        return self._pack(k, Ps)

    def _end_turn(self, k: list, Ps: list) -> list:
        """TK-15: effects until end of turn end; the other player's turn starts."""
        for P in Ps:
            for r in (FR, BK):
                if any(y[3] or y[2] for y in P[r]):
                    P[r] = tuple(sorted((y[0], y[1], 0, 0) for y in P[r]))
        return self._start_turn(k, Ps, 1 - k[TP], False)

    def _no_block(self, k: list, Ps: list) -> list:
        """TK-18: no battle; the attacker stays resting, the defender takes 1 damage."""
        b = k[BA]
        P = Ps[k[TP]]
        P[FR] = tuple(sorted(P[FR] + ((b[0], 1, 0, b[1]),)))
        k[BA] = None
        k[ST] = DAMAGE
        return self._pack(k, Ps)

    def _main(self, k: list, Ps: list, verb: str, arg: str) -> list:
        g = self.game
        tp = k[TP]
        P = Ps[tp]
        if verb == "move":  # TK-13: the listed yokai change rows, marked (see _move_actions)
            picked = {"F": set(), "B": set()}
            for slot in arg.split():
                picked[slot[0]].add(int(slot[1]) - 1)
            front, back = P[FR], P[BK]
            P[FR] = tuple(sorted([y for i, y in enumerate(front) if i not in picked["F"]]
                                 + [(y[0], y[1], 1, y[3]) for i, y in enumerate(back) if i in picked["B"]]))
            P[BK] = tuple(sorted([y for i, y in enumerate(back) if i not in picked["B"]]
                                 + [(y[0], y[1], 1, y[3]) for i, y in enumerate(front) if i in picked["F"]]))
            return self._pack(k, Ps)
        if verb == "summon":  # TK-13, TK-28 ready at once
            head, boosts = _split_boost(arg)
            no_s, row = head.split()
            no = int(no_s)
            P[H] = _remove(P[H], no)
            _pay(P, g.cards[no].cost, boosts)
            r = FR if row == "F" else BK
            P[r] = tuple(sorted(P[r] + ((no, 0, 0, 0),)))
        elif verb == "release":
            r = FR if arg[0] == "F" else BK
            i = int(arg[1]) - 1
            P[r] = P[r][:i] + P[r][i + 1:]
            P[TR] += 1
        elif verb == "event":
            k = self._event(k, Ps, arg)
        elif verb == "attack":  # the main phase ends, TK-14 battle; move marks only matter in main
            k = self._step_attack(k, Ps, arg)  # the slot names the marked row: unmark after it
            _unmark(P)
            return self._pack(k, Ps)
        elif verb == "end":
            return self._end_turn(k, Ps)
        if not g.options["move_once_per_turn"]:
            _unmark(P)  # after a summon, release or event moving is offered again (TK-13)
        return self._pack(k, Ps)

    def _event(self, k: list, Ps: list, arg: str) -> list:
        """TK-24, TK-Q2: one event card per main phase; it goes to the trash."""
        g = self.game
        tp = k[TP]
        P, O = Ps[tp], Ps[1 - tp]
        parts = arg.split()
        no = int(parts[0])
        P[H] = _remove(P[H], no)
        P[TR] += 1
        k[EV] = True
        kind, value = g.cards[no].effect
        if kind == "draw":
            k[ST], k[PD] = EVDRAW, value - 1
        elif kind == "ready_yoki":
            r = min(value, P[YS])
            P[YR], P[YS] = P[YR] + r, P[YS] - r
        elif kind == "bp_up":
            slot = parts[1]
            r = FR if slot[0] == "F" else BK
            i = int(slot[1]) - 1
            y = P[r][i]
            P[r] = tuple(sorted(P[r][:i] + P[r][i + 1:] + ((y[0], y[1], y[2], y[3] + value),)))
        elif kind == "heal":  # face-down damage first: face-up ones can still pay (TK-26)
            for _i in range(value):
                if P[DD]:
                    P[DD] -= 1
                elif P[DU]:
                    P[DU] -= 1
                else:
                    break
                P[TR] += 1  # TK-29 healed damage goes to the trash
        elif kind in ("banish", "rest"):
            slot = parts[1]
            r = FR if slot[1] == "F" else BK
            i = int(slot[2]) - 1
            y = O[r][i]
            rest = O[r][:i] + O[r][i + 1:]
            if kind == "banish":
                O[TR] += 1
                O[r] = rest
            else:
                O[r] = tuple(sorted(rest + ((y[0], 1, y[2], y[3]),)))
        elif kind == "charge":
            for _i in range(value):
                if not _charge(P):
                    return self._lose(k, Ps, tp)
        elif kind == "win_if_field":  # TK-8 a card's own win condition
            if len(P[FR]) + len(P[BK]) >= value:
                k[ST], k[WN] = OVER, tp
        return self._pack(k, Ps)

    def _settle(self, k: list) -> tuple:
        """Run what needs no decision: known deck tops, the BP duel, skipped choices."""
        g = self.game
        while True:
            stage = k[ST]
            if stage in TAKE_VERB:
                o = 1 - k[TP] if stage in (DAMAGE, REVEAL_D) else k[TP]
                P = k[P0 + o]
                if stage == SHUFFLE:
                    if len(P[TOP]) < P[N]:
                        break
                    if k[PD] == 1:  # shuffled after a mulligan: deal the new hand
                        k[ST] = DEAL
                    elif o == 0:
                        k[TP] = 1
                    else:
                        k[ST], k[TP] = DEAL, 0
                    continue
                if not P[TOP]:
                    break
                Ps = [list(k[P0]), list(k[P1])]
                no = P[TOP][0]
                Ps[o][TOP] = P[TOP][1:]
                Ps[o][N] -= 1
                k = self._took(k, Ps, o, no)
                continue
            if stage == DUEL:
                k = self._duel(k)
                continue
            if stage == BATTLE:
                s = ToritsukiState(g, tuple(k))
                if not s._attack_actions():
                    k = self._end_turn(k, [list(k[P0]), list(k[P1])])
                    continue
                break
            if stage == BLOCK:
                s = ToritsukiState(g, tuple(k))
                if not s._block_actions():  # TK-18 nothing can block
                    k = self._no_block(k, [list(k[P0]), list(k[P1])])
                    continue
                break
            break
        return tuple(k)

    def _duel(self, k: list) -> list:
        """TK-20, TK-21, TK-22: the BP duel (:func:`.rules.duel`), fainting,
        possessing cards to the trash."""
        tp, b = k[TP], k[BA]
        out = rules.duel(*_battle_values(self.game.cards, tp, b))
        Ps = [list(k[P0]), list(k[P1])]
        A, D = Ps[tp], Ps[1 - tp]
        if out.attacker_faints:
            A[TR] += 1
        else:
            A[FR] = tuple(sorted(A[FR] + ((b[0], 1, 0, b[1]),)))
        if out.defender_faints:
            D[TR] += 1
        else:
            D[BK] = tuple(sorted(D[BK] + ((b[3], 1, 0, b[4]),)))
        if b[6]:
            A[TR] += 1
        if b[7]:
            D[TR] += 1
        k[BA] = None
        k[ST] = DAMAGE if out.pierce else BATTLE
        return self._pack(k, Ps)

    # -- battle explanation -------------------------------------------------------------
    def battle_report(self) -> BattleReport | None:
        """The BP duel as it stands (after the block): both BPs, every modifier and its source."""
        if self._k[BA] is None or self._k[ST] == BLOCK:
            return None
        return text.report(self.game, self._k[TP], self._k[BA])

    # -- text --------------------------------------------------------------------------
    def explain(self, action: str) -> str:
        return text.explain(self, action)

    def __str__(self) -> str:
        return text.state_text(self)
