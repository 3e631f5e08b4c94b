"""Koi-koi Nobori (こいこいのぼり): pair carp-streamer cards into nobori.

Rules: ``docs/rules/koinobori.md`` (KN-1 … KN-16, KN-Q1 … KN-Q12), from the
seed text ``004_a89c246bd081cc4c.txt``.  Rule ids in comments and in
:meth:`KoinoboriState.explain` point there.

Representation.  Every card of a colour is like every other, and the deck is
shuffled after every refill and every kabutogaeshi, so no zone has an order
that anybody knows: each zone is a multiset kept as a tuple of counts in the
order :data:`CARDS`.  Drawing from the deck is a chance node whose outcomes
are card kinds with probability ``count / deck size`` (KN-Q8); the field
refill (reveal until a carp, shuffle the rest back, KN-8) has outcomes the
carp colours with probability ``carps of that colour / carps in deck``.

Notation (player actions, then chance outcomes)::

    nobori higoi          hand higoi + field higoi (KN-8)
    nobori fuki+magoi     hand fukinagashi + field magoi (KN-2, KN-9)
    play aokoi            play and draw (KN-10)
    capture higoi         the drawn fukinagashi takes field higoi (KN-10)
    kabuto fuki+higoi     take back the opponent's nobori of that kind (KN-11)
    agari / koikoi        after a third nobori, with the koikoi option (KN-15)
    pass                  nothing else is possible (KN-Q4)
    deal X / draw X / refill X   chance: the card dealt, drawn, laid on the field
    first 0 / first 1     chance: who goes first, with first_player='random' (KN-Q11)
"""

from __future__ import annotations

import itertools
import math
import random
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

from ...core import CHANCE, TERMINAL, Game, Hidden, Option, Spec, State, bool_option, make_rng
from ...cardfile import short as _brief
from ...errors import PositionError
from ...i18n import N_
from . import positions, rules, text
from .cards import load_deck
from .rules import (CARDS, CHANCE_STAGES, COLOURS, DEAL, DRAW_HAND, DRAW_PLAY, END, F, FIRST, FUKI, K, KEY, KINDS,
                    KOIKOI, REFILL, TURN)
from .text import TITLE
# names this module had before the split, still importable from it
from .cards import NAMED_DECKS, ROLE_KEYS  # noqa: F401,E402
from .rules import KOIKOI_BONUS, STAGES  # noqa: F401,E402
from .text import ENGLISH, JAPANESE, _a, card_name, list_text, role_name, stage_word  # noqa: F401,E402

__all__ = ["Koinobori", "KoinoboriState", "load_deck", "CARDS", "COLOURS", "KINDS"]

_C = "(higoi|aokoi|magoi)"
_ANY = "(higoi|aokoi|magoi|fukinagashi|kabutogaeshi)"
ACTION_RE = re.compile(
    rf"(nobori|kabuto) (fuki\+)?{_C}|play {_ANY}|capture {_C}|agari|koikoi|pass"
    rf"|(deal|draw) {_ANY}|refill {_C}|first [01]"
)
#: the verbs of :func:`rules.turn_moves` as actions
# the indexes of the key's fields (KEY)
_STAGE, _MOVER, _DECK, _FIELD, _HAND0, _HAND1 = KEY.stage, KEY.mover, KEY.deck, KEY.field, KEY.hand0, KEY.hand1
_NOB0, _NOB1, _KAB, _KOI, _WON, _THEN = (KEY.nobori0, KEY.nobori1, KEY.kabutogaeshi_used, KEY.koikoi,
                                         KEY.koikoi_won, KEY.then)
_VERB = {"nobori": lambda k: f"nobori {KINDS[k]}", "play": lambda c: f"play {COLOURS[c]}",
         "kabuto": lambda k: f"kabuto {KINDS[k]}", "pass": lambda _i: "pass"}


def _deck_ok(value: Any) -> bool:
    if value is None:
        return True
    if not isinstance(value, (str, Path, Mapping)):
        return False
    load_deck(value)  # raises CardFileError naming file, card, field
    return True


# -- the game ---------------------------------------------------------------
class Koinobori(Game):
    """Koi-koi Nobori (こいこいのぼり), two players.

    >>> import cardlab
    >>> game = cardlab.load("koinobori", open_hands=True)
    >>> state = game.new_initial_state(seed=1)
    >>> state.current_player, len(state.legal_actions()) > 0
    (0, True)
    """

    name = "koinobori"
    title = TITLE
    rules = "koinobori.md"
    # the option texts are marked for the catalogue and translated where they are shown
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees both hands; the deck stays random (KN-Q8)")),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (the score difference)"),
                         choices=("win", "score")),
        "roles": bool_option(N_("role bonuses 役ボーナス at the end, e.g. mitsunobori (KN-14, KN-Q2)"),
                             label=N_("roles 役")),
        "koikoi": bool_option(N_("the koi-koi call after a third nobori (KN-15)"), label=N_("koi-koi こいこい")),
        "refill_after_draw_capture": bool_option(
            N_("a capture by the drawn card (KN-10) is a nobori followed by the KN-8 steps: draw 1, refill "
               "the field (KN-Q3); False: the literal reading, no hand draw after it"), default=True,
            label=N_("refill after a draw capture")),
        "first_player": Option(0, N_("who goes first (KN-6): seat 0 or 1 (the janken happens before the "
                                     "game), or 'random': a chance event, 1/2 each (KN-Q11)"),
                               choices=(0, 1, "random"), check=lambda v: type(v) is int or v == "random",
                               accepts=N_("0, 1 or 'random'"), label=N_("first player 先攻")),
        "deck": Option(None, N_("card counts, points and roles: 'short', a JSON file path or a dict (KN-Q1)"),
                       check=_deck_ok,
                       accepts=N_("None (the default deck), 'short', a path to a JSON card file, or a dict")),
    }
    # the notation, as error messages show it (the quoted actions stay as they are in every language)
    ACTION_GRAMMAR = N_("'nobori higoi', 'nobori fuki+magoi', 'play aokoi', 'capture higoi', "
                        "'kabuto fuki+higoi', 'agari', 'koikoi', 'pass'; chance: "
                        "'deal X', 'draw X', 'refill X' (X a card: higoi, aokoi, magoi, fukinagashi, kabutogaeshi)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        deck = load_deck(self.options["deck"])
        self.deck_data = deck
        self.counts = tuple(deck["cards"][c] for c in CARDS)
        self.points = tuple(deck["points"][c] for c in COLOURS)
        self.fuki_points = tuple(deck["fukinagashi_points"][c] for c in COLOURS)  # KN-Q9
        self.role_list = deck["roles"] if self.options["roles"] else []

    def _make_spec(self) -> Spec:
        n, k = sum(self.counts), self.counts[K]
        best = rules.best_score(self.counts, self.points, self.fuki_points, self.role_list, self.options["koikoi"])
        bound = Fraction(best if self.options["payoff"] == "score" else 1)
        # deck draws ≤ n + 2k (each kabutogaeshi puts 2 cards back); every
        # turn draws, captures or is a pass answered by the other player; one
        # coin for the first player (KN-Q11).
        return Spec(num_players=2, chance=True,
                    perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound,
                    max_game_length=6 * (n + 2 * k) + 13)

    def _root(self) -> "KoinoboriState":
        deck = list(self.counts)
        for i in range(3):  # KN-4 one carp of each colour on the field
            deck[i] -= 1
        z5, z6 = (0,) * 5, (0,) * 6
        first = self.options["first_player"]  # KN-Q11; during the deal the mover is the first player
        stage, first = (FIRST, 0) if first == "random" else (DEAL, first)
        return self._from_key(KEY.make(stage=stage, mover=first, deck=tuple(deck), field=(1, 1, 1), hand0=z5,
                                       hand1=z5, nobori0=z6, nobori1=z6, kabutogaeshi_used=(0, 0), koikoi=(0, 0),
                                       koikoi_won=-1, then=""))

    def _from_key(self, key: tuple) -> "KoinoboriState":
        """The state of a key of the layout :data:`~.rules.KEY` (the core's decode builds states here)."""
        return KoinoboriState(self, key)

    def _state_from_dict(self, d: Mapping[str, Any]) -> "KoinoboriState":
        # KN-Q12: the same position as one reached by play (steps with nothing to do skipped,
        # the end when neither player can make a nobori)
        return KoinoboriState(self, _settle(positions.key_from_dict(self, d)))

    def _check_flow(self, key: tuple) -> None:
        """:func:`.positions.check_flow`: a position the rules cannot reach is refused."""
        positions.check_flow(self, key)


def _can_act(deck: tuple, field: tuple, hand: tuple) -> bool:
    """KN-Q4 (:func:`.rules.can_act`) on a deck of counts."""
    return rules.can_act(sum(deck), field, hand)


def _role_met(role: Mapping[str, Any], nob: tuple) -> bool:
    """KN-14 (:func:`.rules.role_met`): a role's conditions on the nobori counts."""
    return rules.role_met(role["requires"], nob)


def _settle(key: tuple) -> tuple:
    """The key with the steps that have nothing to do skipped: no hand draw
    from an empty deck (KN-8), no refill of a full field or from a deck
    without carp (KN-Q5), and the end when, at a turn, neither player can
    make a nobori (KN-12, KN-Q4).  Play and ``state_from_dict`` both pass
    through here, so the end is a property of the position (KN-Q12)."""
    stage, p, deck, field, h0, h1 = key[:6]  # the first fields of KEY
    if stage == DRAW_HAND and not sum(deck):
        stage = REFILL
    if stage == REFILL and (rules.field_full(field) or not rules.can_refill(deck)):
        stage, p = TURN, 1 - p  # KN-Q5: no carp left, the field stays short
    if stage == TURN and rules.game_over(sum(deck), field, h0, h1):
        stage = END  # KN-12
    return (stage, p) + key[2:] if (stage, p) != key[:2] else key


def _add(t: tuple, i: int, d: int) -> tuple:
    lst = list(t)
    lst[i] += d
    return tuple(lst)


def _move(t: tuple, cards: tuple, sign: int) -> tuple:
    """The counts ``t`` with ``cards`` (counts) added (``sign`` 1) or taken (-1)."""
    return tuple(a + sign * b for a, b in zip(t, cards))


class KoinoboriState(State):
    """A Koi-koi Nobori position; see the module docstring for the notation.

    The key tuple has the fields of :data:`~.rules.KEY`: ``(stage, mover,
    deck, field, hand0, hand1, nobori0, nobori1, kabutogaeshi_used, koikoi,
    koikoi_won, then)``; :attr:`key` and :meth:`fields` give it.
    """

    __slots__ = ()

    # -- reading the position -------------------------------------------------
    @property
    def key(self) -> tuple:
        """The position as a tuple of the layout :data:`~.rules.KEY` (equal positions, equal keys)."""
        return self._k

    def fields(self) -> dict[str, Any]:
        """The position's fields by name (:data:`~.rules.KEY`)."""
        return KEY.named(self._k)

    @property
    def stage(self) -> str:
        return self._k[_STAGE]

    @property
    def mover(self) -> int:
        """Whose turn it is (also during the chance events of that turn)."""
        return self._k[_MOVER]

    @property
    def current_player(self) -> int:
        stage = self._k[_STAGE]
        if stage == END:
            return TERMINAL
        if stage in CHANCE_STAGES:
            return CHANCE
        return self._k[_MOVER]

    def hand(self, p: int) -> dict[str, int]:
        return dict(zip(CARDS, self._k[_HAND0 + p]))

    def nobori(self, p: int) -> dict[str, int]:
        return dict(zip(KINDS, self._k[_NOB0 + p]))

    @property
    def field(self) -> dict[str, int]:
        return dict(zip(COLOURS, self._k[_FIELD]))

    @property
    def deck_size(self) -> int:
        return sum(self._k[_DECK])

    def _can_act(self, p: int) -> bool:
        """KN-Q4: a pair is possible, or the deck is not empty and a carp can be played."""
        k = self._k
        return rules.can_act(sum(k[_DECK]), k[_FIELD], k[_HAND0 + p])

    def score(self, p: int) -> int:
        """KN-13 points per nobori colour (a fuki pair counts as its carp unless the
        card file gives it its own points, KN-9, KN-Q9), plus role bonuses (KN-14)
        and the koi-koi bonus (KN-15): :func:`.rules.score`."""
        g = self.game
        return rules.score(self._k[_NOB0 + p], g.points, g.fuki_points, g.role_list,
                           self._k[_WON] == p)

    def roles_met(self, p: int) -> list[str]:
        return [r["name"] for r in self.game.role_list if rules.role_met(r["requires"], self._k[_NOB0 + p])]

    def heuristic(self, player: int) -> float:
        """Score lead, plus a little for pairs ready in hand (public and own cards only)."""
        if self._k[_STAGE] == END:
            return 100.0 * self.returns()[player]
        hand, field = self._k[_HAND0 + player], self._k[_FIELD]
        ready = sum(1 for i in range(3) if hand[i] and field[i]) + (hand[F] > 0)
        return self.score(player) - self.score(1 - player) + 0.5 * ready + 0.3 * hand[K]

    def returns(self) -> list:
        if self._k[_STAGE] != END:
            return [0, 0]
        d = rules.payoff(self.score(0) - self.score(1), self.game.options["payoff"])  # KN-13, KN-Q10
        return [d, -d]

    # -- moves -----------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        k = self._k
        stage, p = k[_STAGE], k[_MOVER]
        if stage == TURN:  # KN-8, KN-9, KN-10, KN-11, KN-Q4, KN-Q6
            moves = rules.turn_moves(sum(k[_DECK]), k[_FIELD], k[_HAND0 + p], k[_NOB1 - p])
            return [_VERB[verb](i) for verb, i in moves]
        if stage == FUKI:
            return [f"capture {KINDS[kind][5:]}" for kind in rules.draw_capture(F, k[_FIELD])]
        if stage == KOIKOI:
            return ["agari", "koikoi"]
        return []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        stage = self._k[_STAGE]
        deck = self._k[_DECK]
        if stage == FIRST:  # KN-Q11
            return [("first 0", Fraction(1, 2)), ("first 1", Fraction(1, 2))]
        if stage in (DEAL, DRAW_HAND, DRAW_PLAY):
            n = sum(deck)
            verb = "deal" if stage == DEAL else "draw"
            return [(f"{verb} {c}", Fraction(deck[i], n)) for i, c in enumerate(CARDS) if deck[i]]
        if stage == REFILL:  # KN-8 (2): the first carp revealed
            n = deck[0] + deck[1] + deck[2]
            return [(f"refill {c}", Fraction(deck[i], n)) for i, c in enumerate(COLOURS) if deck[i]]
        return []

    def _apply(self, action: str) -> "KoinoboriState":
        verb, _sep, arg = action.partition(" ")
        if verb in ("first", "deal", "draw", "refill"):
            return self._chance(verb, arg)
        (stage, p, deck, field, h0, h1, n0, n1, kab, koi, won, then) = self._k  # in KEY's order
        hands, nob = [h0, h1], [n0, n1]
        if verb == "capture":  # the drawn fukinagashi chooses its carp (KN-10, KN-2)
            j = COLOURS.index(arg)
            nob[p] = _add(nob[p], 3 + j, 1)
            return self._captured(p, deck, _add(field, j, -1), hands, nob, kab, koi, won, then)
        if verb == "nobori":  # KN-8, KN-9: a hand card and a field card of its colour
            kind = KINDS.index(arg)
            j = kind % 3
            hands[p] = _add(_move(hands[p], rules.nobori_cards(kind), -1), j, 1)  # the field gives the carp j
            nob[p] = _add(nob[p], kind, 1)
            return self._captured(p, deck, _add(field, j, -1), hands, nob, kab, koi, won, DRAW_HAND)
        if verb == "play":  # KN-10
            i = COLOURS.index(arg)
            hands[p] = _add(hands[p], i, -1)
            return self._next(DRAW_PLAY, p, deck, _add(field, i, 1), hands, nob, kab, koi, won, "")
        if verb == "kabuto":  # KN-11: both cards back into the deck, reshuffled; no refill
            kind = KINDS.index(arg)
            o = 1 - p
            nob[o] = _add(nob[o], kind, -1)
            deck = _move(deck, rules.nobori_cards(kind), 1)
            hands[p] = _add(hands[p], K, -1)
            kab = _add(kab, p, 1)
            return self._end_turn(p, deck, field, hands, nob, kab, koi, won)
        if verb == "pass":  # KN-Q4
            return self._end_turn(p, deck, field, hands, nob, kab, koi, won)
        if verb == "agari":  # KN-15
            return self._next(END, p, deck, field, hands, nob, kab, koi, won, "")
        if verb == "koikoi":  # KN-15, KN-Q7 remember the count at the call
            koi = _add(koi, p, sum(nob[p]))
            return self._next(then, p, deck, field, hands, nob, kab, koi, won, "")
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _chance(self, verb: str, arg: str) -> "KoinoboriState":
        """A chance outcome: the coin (KN-Q11), a card dealt (KN-7), drawn
        (KN-8, KN-10) or laid on the field (KN-8)."""
        (stage, p, deck, field, h0, h1, n0, n1, kab, koi, won, then) = self._k  # in KEY's order
        hands, nob = [h0, h1], [n0, n1]
        if verb == "first":  # KN-Q11 the coin: that player is dealt first and moves first
            return self._next(DEAL, int(arg), deck, field, hands, nob, kab, koi, won, "")
        i = CARDS.index(arg)
        deck = _add(deck, i, -1)
        if stage == DEAL:  # KN-7 first player (p), then second, draw 3 each; the first starts
            who = rules.dealt_to(p, sum(hands[p]))
            hands[who] = _add(hands[who], i, 1)
            done = sum(hands[1 - p]) == rules.HAND_SIZE
            return self._next(TURN if done else DEAL, p, deck, field, hands, nob, kab, koi, won, "")
        if stage == DRAW_HAND:  # KN-8 (1)
            hands[p] = _add(hands[p], i, 1)
            return self._next(REFILL, p, deck, field, hands, nob, kab, koi, won, "")
        if stage == REFILL:  # KN-8 (2) the first carp revealed goes to the field
            return self._next(REFILL, p, deck, _add(field, i, 1), hands, nob, kab, koi, won, "")
        # DRAW_PLAY, KN-10: a drawn card that pairs is captured at once
        after = DRAW_HAND if self.game.options["refill_after_draw_capture"] else REFILL  # KN-Q3
        kinds = rules.draw_capture(i, field)
        if len(kinds) == 1:
            nob[p] = _add(nob[p], kinds[0], 1)
            return self._captured(p, deck, _add(field, kinds[0] % 3, -1), hands, nob, kab, koi, won, after)
        if kinds:  # KN-2: the player chooses the carp of the drawn fukinagashi
            return self._next(FUKI, p, deck, field, hands, nob, kab, koi, won, after)
        hands[p] = _add(hands[p], i, 1)
        return self._end_turn(p, deck, field, hands, nob, kab, koi, won)

    # -- flow ------------------------------------------------------------------
    def _captured(self, p, deck, field, hands, nob, kab, koi, won, then) -> "KoinoboriState":
        """After any new nobori: the koi-koi consequences (KN-15, KN-Q7), then ``then``."""
        if self.game.options["koikoi"]:
            verdict = rules.koikoi_after_nobori(sum(nob[p]), koi[p], bool(koi[1 - p]))
            if verdict == rules.FAILED:  # the opponent's koi-koi fails: the game ends now
                return self._next(END, p, deck, field, hands, nob, kab, koi, won, "")
            if verdict == rules.WON:
                return self._next(END, p, deck, field, hands, nob, kab, koi, p, "")
            if verdict == rules.CALL:
                return self._next(KOIKOI, p, deck, field, hands, nob, kab, koi, won, then)
        return self._next(then, p, deck, field, hands, nob, kab, koi, won, "")

    def _end_turn(self, p, deck, field, hands, nob, kab, koi, won) -> "KoinoboriState":
        return self._next(TURN, 1 - p, deck, field, hands, nob, kab, koi, won, "")

    def _next(self, stage, p, deck, field, hands, nob, kab, koi, won, then) -> "KoinoboriState":
        """Build the next state (its key in KEY's order), skipping steps that have nothing to do (:func:`_settle`)."""
        return KoinoboriState(self.game, _settle((stage, p, deck, field, hands[0], hands[1], nob[0], nob[1],
                                                  kab, koi, won, then)))

    # -- what players see --------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        opp = 1 - player
        open_hands = self.game.options["open_hands"]
        return {
            "stage": k[_STAGE],
            "to_move": k[_MOVER],
            "field": self.field,
            "deck": sum(k[_DECK]),
            "hand": self.hand(player),
            "opponent_hand": self.hand(opp) if open_hands else sum(k[_HAND0 + opp]),
            "nobori": [self.nobori(0), self.nobori(1)],
            "kabutogaeshi_used": list(k[_KAB]),
            "koikoi": list(k[_KOI]),
            "scores": [self.score(0), self.score(1)],
        }

    def information_set(self, player: int) -> tuple:
        k = self._k
        opp_hand = k[_HAND1 - player] if self.game.options["open_hands"] else sum(k[_HAND1 - player])
        return (k[_STAGE], k[_MOVER], sum(k[_DECK]), k[_FIELD], k[_HAND0 + player], opp_hand, k[_NOB0], k[_NOB1],
                k[_KAB], k[_KOI], k[_WON], k[_THEN])

    def _agrees(self, key: tuple) -> bool:
        """A filling of the unseen cards agrees with what everybody saw: the
        stage is the one the rules leave there (a game that went on has a
        player who can act, one that ended by KN-12 has none, KN-Q12)."""
        if _settle(key) != key:
            return False
        try:
            self.game._check_flow(key)
        except PositionError:
            return False
        return True

    def _with_unseen(self, o: int, deck: tuple, hand: tuple) -> tuple:
        """The key with player ``o``'s hand and the deck replaced."""
        return KEY.replace(self._k, deck=tuple(deck), **{f"hand{o}": tuple(hand)})

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "KoinoboriState":
        """Deal the opponent's hand anew from the cards ``player`` has not seen
        (only deals that agree with what was seen, by their chance)."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        o = 1 - player
        unseen = [a + b for a, b in zip(self._k[_DECK], self._k[_HAND0 + o])]
        pool = [i for i in range(5) for _ in range(unseen[i])]
        rng.shuffle(pool)
        n = sum(self._k[_HAND0 + o])
        hand, deck = [0] * 5, [0] * 5
        for j, i in enumerate(pool):
            (hand if j < n else deck)[i] += 1
        key = self._with_unseen(o, deck, hand)
        if self._agrees(key):
            return KoinoboriState(self.game, key)
        # the shuffle contradicts what was seen (say an ended game in which the
        # opponent could still act): draw among the deals that agree, each
        # hand by its number of ways (at most 3 cards: a handful of hands)
        worlds, weights = [], []
        for h in itertools.product(*(range(min(c, n) + 1) for c in unseen)):
            if sum(h) == n:
                key = self._with_unseen(o, tuple(c - x for c, x in zip(unseen, h)), h)
                if self._agrees(key):
                    worlds.append(key)
                    weights.append(math.prod(math.comb(c, x) for c, x in zip(unseen, h)))
        r = rng.randrange(sum(weights))
        for world, w in zip(worlds, weights):
            if r < w:
                return KoinoboriState(self.game, world)
            r -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def public_action(self, action: str, viewer: int) -> str:
        """A card dealt or drawn into a hand is seen only by its owner
        (KN-7, KN-8, KN-10); every other move is public: carp played and
        captured face up, refills revealed to the field, the calls."""
        k = self._k
        if self.game.options["open_hands"] or viewer == self.current_player:
            return action
        verb, _sep, arg = action.partition(" ")
        mover = k[_MOVER]
        if verb == "deal":  # KN-7 the first player (the mover) is dealt 3 first
            owner = rules.dealt_to(mover, sum(k[_HAND0 + mover]))
            return action if viewer == owner else "deal ??"
        if verb == "draw":
            if k[_STAGE] == DRAW_PLAY and rules.draw_capture(CARDS.index(arg), k[_FIELD]):
                return action  # it pairs: captured face up (KN-10)
            return action if viewer == mover else "draw ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's hand and the deck (carp on the field and nobori are public)."""
        if self.game.options["open_hands"]:
            return None
        o = 1 - player
        k = self._k
        cards = tuple(i for i in range(5) for _ in range(k[_DECK][i] + k[_HAND0 + o][i]))

        def build(contents: tuple[tuple, ...]) -> KoinoboriState:
            hand, deck = ([0] * 5 for _ in range(2))
            for i in contents[0]:
                hand[i] += 1
            for i in contents[1]:
                deck[i] += 1
            new = self._with_unseen(o, deck, hand)
            return KoinoboriState(self.game, new) if self._agrees(new) else None

        return Hidden(cards, (("opponent hand", sum(k[_HAND0 + o])), ("deck", sum(k[_DECK]))), build)

    def to_dict(self) -> dict[str, Any]:
        k = self.fields()
        return {
            "game": "koinobori",
            "options": self.game.options_dict(),
            "stage": k["stage"],
            "to_move": k["mover"],
            "deck": dict(zip(CARDS, k["deck"])),
            "field": self.field,
            "hands": [self.hand(0), self.hand(1)],
            "nobori": [self.nobori(0), self.nobori(1)],
            "kabutogaeshi_used": list(k["kabutogaeshi_used"]),
            "koikoi": list(k["koikoi"]),
            "koikoi_won": None if k["koikoi_won"] < 0 else k["koikoi_won"],
            "then": k["then"],
        }

    # -- words (:mod:`.text`) -----------------------------------------------------
    def explain(self, action: str) -> str:
        return text.explain(self, action)

    def __str__(self) -> str:
        return text.describe(self)
