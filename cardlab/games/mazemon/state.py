"""Mazemon (マゼモン): ten cards each, spent as mana or fought as monsters.

Rules: ``docs/rules/mazemon.md`` (MZ-1 … MZ-24, MZ-Q1 … MZ-Q8), from the
seed text ``001_5aabee5a802d11b2.txt``.  This module is the Game and the
flow of a turn; every decision is a function of :mod:`.rules`, called
through that module.  The cards are in :mod:`.cards`, what a saved
position must satisfy in :mod:`.positions`, the words in :mod:`.text`.

Representation.  A deck holds ten *distinct* cards, so each zone of a player
is a 10-bit mask over the slots of that player's deck (slot order = the deck
list in the card file).  The key's fields are named by :data:`LAYOUT`
(:attr:`MazemonState.fields`).  Per player the key keeps: hand (てふだ), battle zone
(バトルゾーン), wounded (キズ), attacked this turn, mana (マナ) count,
untapped mana, captured cards (とったカード, a count) and ``out``: the player's
cards publicly out of play (knocked out, stolen, or a trashed substitute).
Which cards lie face down in mana or in the first player's trash is never
stored: those cards can never come back (MZ-6, MZ-17), so the rest of the
game does not depend on them; a card that is in none of hand, battle zone
and ``out`` is in mana or in the first player's trash.

Turn phases: ``charge`` (MZ-6) → ``summon`` (MZ-7; an attack ends the
summoning) → ``battle`` (MZ-8).  A turn whose only possible action left is
``end`` ends by itself.  The defender's substitute (みがわり, MZ-19) is the
phase ``substitute`` whose current player is the defender, in the middle of
the attacker's turn.  Chance: janken (MZ-2, the winner goes first, 1/2 each),
the first player's two trashed cards (MZ-3, MZ-Q8, every pair 1/45) and the
card a direct attack takes (MZ-22, MZ-Q2, uniform over the hand).

Choices where the digest is silent (beyond its MZ-Q defaults):

* janken is a fair chance node (its equilibrium), not a simultaneous game;
* the card charged this turn is an untapped mana at once (seed: ② charge,
  then ③ summon with mana);
* the phases keep their order: after the first attack no more summons;
* みがわり is once per attacker's turn, paid from mana the defender left
  untapped in their own turn (mana untaps only at its owner's MZ-5);
* a direct attack needs a card in the opponent's hand; the card taken is
  named by the chance outcome (captured cards lie open);
* a quiet turn (MZ-Q6) is one in which no charge, summon or attack was made,
  whether or not one was possible; a turn whose only action left is ``end``
  ends by itself;
* a deck is ten different cards; ``payoff="score"`` is the difference of
  captured cards (0 when both reach three at once).

Notation (player actions, then chance outcomes)::

    charge petal_fox              put a hand card into mana (MZ-6)
    summon oak_giant              pay its cost after materials (MZ-7, MZ-18)
    attack oak_giant tide_whale   your monster attacks theirs (MZ-8)
    direct oak_giant              take a random card of their hand (MZ-22)
    end                           end the turn (MZ-9)
    substitute coral_knight       the defender's みがわり (MZ-19)
    decline                       the defender lets the attack through
    janken 0 / trash a+b / steal x   chance: janken winner, trashed pair, stolen card
"""


from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any, Mapping

from ...core import Game, Hidden, Option, Spec, State, bool_option, make_rng
from ...errors import OptionError
from ...i18n import N_, _
from . import positions, rules, text
from .cards import ID_RE, Card, CardSet, cost_table, fight_table, load_cards, shared_materials, summon_cost
from .rules import (ATTRIBUTES, BATTLE, CHARGE, DECK_SIZE, END, FULL, JANKEN, PHASES, STEAL, SUB, SUMMON,
                    TRASH, attribute_relation)
from .key import (ACTED, DIRECT_USED, FIRST, LAYOUT, PENDING_A, PENDING_T, PHASE, QUIET, SEAT,
                  SUB_USED, TURN, Seat)
from .text import Battle, battle

__all__ = ["Mazemon", "MazemonState", "Card", "CardSet", "Battle", "load_cards", "battle",
           "summon_cost", "shared_materials", "attribute_relation", "ATTRIBUTES"]

ACTION_RE = re.compile(
    rf"charge {ID_RE}|summon {ID_RE}|attack {ID_RE} {ID_RE}|direct {ID_RE}|end"
    rf"|substitute {ID_RE}|decline|janken [01]|trash {ID_RE}\+{ID_RE}|steal {ID_RE}"
)

# kept for the tests and notebooks that read them here
_BITS, _POP = rules.BITS, rules.POP


def _cards_ok(value: Any) -> bool:
    if value is None:
        return True
    load_cards(value)  # raises CardFileError naming file, card and field
    return True


def _name_ok(value: Any) -> bool:
    return isinstance(value, str) and bool(value)
class Mazemon(Game):
    """Mazemon (マゼモン), two players, ten cards each.

    >>> import cardlab
    >>> game = cardlab.load("mazemon", open_hands=True)
    >>> state = game.new_initial_state(seed=1)
    >>> state.legal_actions()[0].startswith("charge")
    True
    """

    name = "mazemon"
    title = N_("Mazemon (マゼモン)")
    rules = "mazemon.md"
    OPTIONS = {
        "open_hands": bool_option(N_("both players see both hands and the trash (MZ-Q8)")),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (captured-card difference)"),
                         choices=("win", "score")),
        "material_count": Option("distinct", N_("shared materials (MZ-18): each material of the new "
                                                "monster once ('distinct') or once per monster having it (MZ-Q3)"),
                                 choices=("distinct", "per_monster"), label=N_('count materials そざい')),
        "both_three": Option("attacker", N_("both players reach 3 captures in one battle: the attacker "
                                            "wins ('attacker') or it is a draw ('draw') (MZ-Q7)"),
                             choices=("attacker", "draw"), label=N_('both reach three captures')),
        "cards": Option(None, N_("the card file: None (cardlab's own set), a JSON path or a dict (MZ-Q1)"),
                        check=_cards_ok, accepts=N_("None, a path to a JSON card file, or a dict")),
        "deck0": Option("hinoko", N_("player 0's deck: a deck name of the card file"),
                        check=_name_ok, accepts=N_("a deck name of the card file")),
        "deck1": Option("shizuku", N_("player 1's deck: a deck name of the card file"),
                        check=_name_ok, accepts=N_("a deck name of the card file")),
    }
    ACTION_GRAMMAR = N_("'charge X', 'summon X', 'attack X Y', 'direct X', 'end', 'substitute X', "
                        "'decline' (X, Y card ids); chance: 'janken 0|1', 'trash X+Y', 'steal X'")
    ACTION_RE = ACTION_RE
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.card_set = cs
        decks = []
        for p in (0, 1):
            dname = self.options[f"deck{p}"]
            if dname not in cs.decks:
                raise OptionError(_("mazemon: option {option}={value} is not a deck of {source}; "
                                    "{option} accepts {choices}").format(
                    option=f"deck{p}", value=repr(dname), source=cs.source,
                    choices=', '.join(map(repr, sorted(cs.decks)))))
            decks.append(tuple(cs.cards[c] for c in cs.decks[dname]))
        #: decks[p][slot] is the Card in that slot of player p's deck
        self.decks: tuple[tuple[Card, ...], tuple[Card, ...]] = (decks[0], decks[1])
        self.ids = tuple(tuple(c.id for c in d) for d in self.decks)
        self.slot = tuple({c.id: i for i, c in enumerate(d)} for d in self.decks)
        #: cost[p][i][zone mask]: rules.summon_cost (MZ-18, MZ-Q3)
        self.cost = tuple(cost_table(d, self.options["material_count"]) for d in self.decks)
        #: fight[p][i][j]: rules.fight, (result, mana, wins on attribute) (MZ-8, MZ-10 … MZ-16, MZ-21)
        self.fight = tuple(fight_table(self.decks[p], self.decks[1 - p]) for p in (0, 1))

    def _make_spec(self) -> Spec:
        bound = Fraction(rules.WIN_CAPTURES if self.options["payoff"] == "score" else 1)
        # Why the bound holds.  At most n = 2*10-2 cards ever leave the hands;
        # each charge, summon or steal takes one, so those are ≤ n and a steal
        # costs 2 transitions (direct + chance).  Every battle either knocks a
        # monster out (≤ n times) or gives a first wound to an unwounded one
        # (≤ n times, a wound never heals): ≤ 2n battles of ≤ 2 transitions
        # (attack + substitute decision).  Every turn but the last two quiet
        # ones (MZ-Q6) holds one of those ≤ 3n events and is followed by at
        # most one quiet turn, and a turn has at most one 'end': turns ≤
        # 2*3n + 2.  Plus janken and trash.
        n = 2 * DECK_SIZE - rules.TRASHED
        return Spec(num_players=2, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound,
                    max_game_length=2 + 2 * n + 2 * (2 * n) + (2 * 3 * n + 2))

    def _root(self) -> "MazemonState":
        seat = dict(hand=FULL, battle=0, wounded=0, attacked=0, mana=0, untapped=0, captured=0, out=0)
        return self.from_fields(phase=JANKEN, turn=0, first=-1, quiet_turns=0, acted=0, substitute_used=0,
                                direct_used=0, pending_attacker=-1, pending_target=-1,
                                **{f"{n}{p}": v for p in (0, 1) for n, v in seat.items()})

    def from_fields(self, **fields: int) -> "MazemonState":
        """The state whose key has these fields (:data:`LAYOUT`, every field by
        name; unchecked: :meth:`state_from_dict` checks a saved position)."""
        return MazemonState(self, LAYOUT.make(**fields))

    def card(self, player: int, card_id: str) -> Card:
        """The card ``card_id`` of ``player``'s deck."""
        return self.decks[player][self.slot[player][card_id]]

    def _state_from_dict(self, d: Mapping[str, Any]) -> "MazemonState":
        """A position of :meth:`MazemonState.to_dict`, refused with
        :class:`~cardlab.PositionError` unless the rules can reach it
        (:func:`.positions.key_from_dict`)."""
        return MazemonState(self, positions.key_from_dict(self, d))


# -- the flow of a turn on a key list (MZ-5 … MZ-9, MZ-12 … MZ-23) --------------------------
def _start_turn(k: list, p: int) -> None:
    """MZ-5 untap, then MZ-6 charge (skipped with an empty hand)."""
    k[TURN] = p
    k[ACTED] = k[SUB_USED] = k[DIRECT_USED] = 0
    k[PENDING_A] = k[PENDING_T] = -1
    s = SEAT[p]
    k[s.untapped] = k[s.mana]
    k[PHASE] = CHARGE if k[s.hand] else SUMMON


def _end_turn(k: list) -> None:
    """MZ-9, and MZ-Q6: two quiet turns in a row end the game."""
    p = k[TURN]
    k[SEAT[p].attacked] = 0
    k[QUIET] = rules.quiet_turns_after(k[QUIET], bool(k[ACTED]))
    if k[QUIET] >= rules.QUIET_TURNS_END:
        k[PHASE] = END
        k[ACTED] = k[SUB_USED] = k[DIRECT_USED] = 0
        return
    _start_turn(k, 1 - p)


def _options(g: Mazemon, k: list | tuple) -> tuple[list, list, list]:
    """(summons, attacks, directs) of the mover, as slots / slot pairs (:func:`.rules.options`)."""
    p = k[TURN]
    me, you = SEAT[p], SEAT[1 - p]
    return rules.options(k[PHASE] == SUMMON, k[me.hand], k[me.battle], k[me.attacked], k[me.untapped],
                         k[you.battle], bool(k[DIRECT_USED]), k[you.hand], g.cost[p], g.fight[p])


def _can_act(g: Mazemon, k: list | tuple) -> bool:
    """Whether :func:`_options` finds anything (the mover has more to do than 'end')."""
    return any(_options(g, k))


def _settle(g: Mazemon, k: list) -> "MazemonState":
    """End the turn while only 'end' is left to do (MZ-9)."""
    while k[PHASE] in (SUMMON, BATTLE) and not _can_act(g, k):
        _end_turn(k)
    return MazemonState(g, tuple(k))


def _won(k: list | tuple) -> bool:
    return rules.is_won(k[SEAT[0].captured], k[SEAT[1].captured])


def _knock_out(k: list, s: Seat, bit: int) -> None:
    """The monster ``bit`` leaves the battle zone, out of play (MZ-12, MZ-17, MZ-Q7)."""
    k[s.battle] &= ~bit
    k[s.wounded] &= ~bit
    k[s.attacked] &= ~bit
    k[s.out] |= bit


def _resolve(g: Mazemon, k: list, x: int, y: int, sub: bool) -> "MazemonState":
    """The battle of the mover's slot ``x`` against the defender's slot ``y``
    (a substitute when ``sub``): :func:`.rules.battle_effect`, then MZ-23."""
    p = k[TURN]
    me, you = SEAT[p], SEAT[1 - p]
    ybit, xbit = 1 << y, 1 << x
    e = rules.battle_effect(g.fight[p][x][y][0], bool(k[you.wounded] & ybit), bool(k[me.wounded] & xbit), sub)
    if e.defender_out:
        _knock_out(k, you, ybit)
    if e.defender_wound:
        k[you.wounded] |= ybit
    if e.attacker_out:
        _knock_out(k, me, xbit)
    if e.attacker_wound:
        k[me.wounded] |= xbit
    k[me.captured] += e.attacker_captures
    k[you.captured] += e.defender_captures
    if _won(k):  # MZ-23
        k[PHASE] = END
        return MazemonState(g, tuple(k))
    k[PHASE] = BATTLE
    return _settle(g, k)


class MazemonState(State):
    """A Mazemon position; see the module docstring for the notation.

    The key's fields are named by :data:`LAYOUT` (:attr:`fields`): ``(phase,
    turn, first, quiet_turns, acted, substitute_used, direct_used,
    pending_attacker, pending_target)`` followed, for each player, by
    ``(hand, battle, wounded, attacked, mana, untapped, captured, out)``
    (masks over deck slots, and counts).
    """

    __slots__ = ()

    # -- reading the position ---------------------------------------------------
    @property
    def fields(self) -> dict[str, int]:
        """The key's fields by name (:data:`LAYOUT`): ``fields["hand1"]`` is
        player 1's hand as a mask over deck slots."""
        return LAYOUT.named(self._k)

    @property
    def phase(self) -> str:
        return PHASES[self._k[PHASE]]

    @property
    def turn(self) -> int:
        """Whose turn it is (also while the defender decides a substitute)."""
        return self._k[TURN]

    @property
    def current_player(self) -> int:
        return rules.player_to_move(self._k[PHASE], self._k[TURN])

    def _blk(self, p: int) -> Seat:
        """Player ``p``'s fields (values, by name)."""
        k = self._k
        return Seat(*(k[i] for i in SEAT[p]))

    def hand(self, p: int) -> list[str]:
        return [self.game.ids[p][i] for i in _BITS[self._k[SEAT[p].hand]]]

    def battle_zone(self, p: int) -> list[dict[str, Any]]:
        s = self._blk(p)
        return [{"card": self.game.ids[p][i], "wounded": bool(s.wounded >> i & 1),
                 "attacked": bool(s.attacked >> i & 1)} for i in _BITS[s.battle]]

    def captured(self, p: int) -> int:
        """How many of the opponent's cards ``p`` has captured (とったカード)."""
        return self._k[SEAT[p].captured]

    def mana(self, p: int) -> tuple[int, int]:
        """(mana cards, untapped) of player ``p``."""
        return self._k[SEAT[p].mana], self._k[SEAT[p].untapped]

    # -- moves ----------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """Canonical order: attacks (KO, wound, mutual; then by deck slot),
        direct attacks, summons, 'end'; substitutes then 'decline'."""
        k, g = self._k, self.game
        ph, p = k[PHASE], k[TURN]
        if ph == CHARGE:
            return [f"charge {g.ids[p][i]}" for i in _BITS[k[SEAT[p].hand]]]
        if ph in (SUMMON, BATTLE):
            summons, attacks, directs = _options(g, k)
            mine, theirs = g.ids[p], g.ids[1 - p]
            return ([f"attack {mine[i]} {theirs[j]}" for i, j in attacks]
                    + [f"direct {mine[i]}" for i in directs]
                    + [f"summon {mine[i]}" for i in summons] + ["end"])
        if ph == SUB:
            o = 1 - p
            others = k[SEAT[o].battle] & ~(1 << k[PENDING_T])
            return [f"substitute {g.ids[o][j]}" for j in _BITS[others]] + ["decline"]
        return []

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k, g = self._k, self.game
        ph = k[PHASE]
        if ph == JANKEN:  # MZ-2: janken, modelled as a fair coin (its equilibrium)
            return [("janken 0", Fraction(1, 2)), ("janken 1", Fraction(1, 2))]
        if ph == TRASH:  # MZ-3, MZ-Q8: two unseen cards of the shuffled hand
            ids = g.ids[k[TURN]]
            pairs = rules.trash_pairs()
            return [(f"trash {ids[i]}+{ids[j]}", Fraction(1, len(pairs))) for i, j in pairs]
        if ph == STEAL:  # MZ-22, MZ-Q2: one card of the hand at random
            o = 1 - k[TURN]
            hand = _BITS[k[SEAT[o].hand]]
            return [(f"steal {g.ids[o][i]}", Fraction(1, len(hand))) for i in hand]
        return []

    def _apply(self, action: str) -> "MazemonState":
        g = self.game
        k = list(self._k)
        verb, _sp, arg = action.partition(" ")
        p = k[TURN]
        me, you = SEAT[p], SEAT[1 - p]
        if verb == "charge":  # MZ-6: face down into mana; usable this turn
            k[me.hand] &= ~(1 << g.slot[p][arg])
            k[me.mana] += 1
            k[me.untapped] += 1
            k[ACTED] = 1
            k[PHASE] = SUMMON
            return _settle(g, k)
        if verb == "summon":  # MZ-7, MZ-18
            i = g.slot[p][arg]
            k[me.untapped] -= g.cost[p][i][k[me.battle]]
            k[me.hand] &= ~(1 << i)
            k[me.battle] |= 1 << i
            k[ACTED] = 1
            return _settle(g, k)
        if verb == "attack":  # MZ-8
            a, _sp, t = arg.partition(" ")
            return self._attack(k, g.slot[p][a], g.slot[1 - p][t])
        if verb in ("substitute", "decline"):  # MZ-19, MZ-Q5: the substitute fights with its own values
            x, y = k[PENDING_A], k[PENDING_T]
            k[PENDING_A] = k[PENDING_T] = -1
            if verb == "decline":
                return _resolve(g, k, x, y, False)
            k[you.untapped] -= 1
            k[SUB_USED] = 1
            return _resolve(g, k, x, g.slot[1 - p][arg], True)
        if verb == "direct":  # MZ-22, MZ-Q2: one attacker, 1 mana, once per turn
            k[me.untapped] -= 1
            k[me.attacked] |= 1 << g.slot[p][arg]
            k[ACTED] = k[DIRECT_USED] = 1
            k[PHASE] = STEAL
            return MazemonState(g, tuple(k))
        if verb == "steal":
            bit = 1 << g.slot[1 - p][arg]
            k[you.hand] &= ~bit
            k[you.out] |= bit
            k[me.captured] += 1
            if _won(k):  # MZ-23
                k[PHASE] = END
                return MazemonState(g, tuple(k))
            k[PHASE] = BATTLE
            return _settle(g, k)
        if verb == "end":  # MZ-9
            _end_turn(k)
            return _settle(g, k)
        if verb == "janken":  # MZ-2: the winner goes first
            k[TURN] = k[FIRST] = int(arg)
            k[PHASE] = TRASH
            return MazemonState(g, tuple(k))
        if verb == "trash":  # MZ-3
            a, _sp, b = arg.partition("+")
            k[me.hand] &= ~((1 << g.slot[p][a]) | (1 << g.slot[p][b]))
            _start_turn(k, p)
            return _settle(g, k)
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _attack(self, k: list, x: int, y: int) -> "MazemonState":
        """MZ-8: pay (2 at an attribute disadvantage, MZ-Q4); the defender may
        answer with みがわり (MZ-19, MZ-21), else the battle is fought."""
        g = self.game
        p = k[TURN]
        me, you = SEAT[p], SEAT[1 - p]
        _res, cost, attr_wins = g.fight[p][x][y]
        k[me.untapped] -= cost
        k[me.attacked] |= 1 << x
        k[ACTED] = 1
        if rules.substitute_possible(bool(k[SUB_USED]), k[you.untapped], _POP[k[you.battle]], not attr_wins):
            k[PHASE], k[PENDING_A], k[PENDING_T] = SUB, x, y
            return MazemonState(g, tuple(k))
        return _resolve(g, k, x, y, False)

    # -- the end (MZ-23, MZ-24, MZ-Q6, MZ-Q7) ---------------------------------------------
    def returns(self) -> list:
        k = self._k
        if k[PHASE] != END:
            return [0, 0]
        d = rules.outcome(k[SEAT[0].captured], k[SEAT[1].captured], k[TURN],
                          self.game.options["payoff"], self.game.options["both_three"])
        return [d, -d]

    def winner(self) -> int | None:
        """The winning player at the end, ``None`` for a draw or before the end."""
        r = self.returns()
        if self._k[PHASE] != END or r[0] == 0:
            return None
        return 0 if r[0] > 0 else 1

    # -- what players see ----------------------------------------------------------
    def _hidden_hand(self, viewer: int, p: int) -> bool:
        return p != viewer and not self.game.options["open_hands"]

    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        pend = None
        if k[PHASE] == SUB:
            pend = {"attacker": self.game.ids[k[TURN]][k[PENDING_A]],
                    "target": self.game.ids[1 - k[TURN]][k[PENDING_T]]}
        players = []
        for p in (0, 1):
            blk = self._blk(p)
            hand: Any = _POP[blk.hand] if self._hidden_hand(player, p) else self.hand(p)
            players.append({"hand": hand, "battle": self.battle_zone(p), "mana": blk.mana,
                            "untapped": blk.untapped, "captured": blk.captured,
                            "out": [self.game.ids[p][i] for i in _BITS[blk.out]]})
        return {"phase": PHASES[k[PHASE]], "turn": k[TURN], "first": None if k[FIRST] < 0 else k[FIRST],
                "quiet_turns": k[QUIET], "acted": bool(k[ACTED]), "substitute_used": bool(k[SUB_USED]),
                "direct_used": bool(k[DIRECT_USED]), "pending": pend, "players": players}

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        h = SEAT[1 - player].hand
        return LAYOUT.replace(k, **{f"hand{1 - player}": -1 - _POP[k[h]]})

    def _settled(self) -> bool:
        """Whether the mover still has something to do besides 'end' in the
        summon and battle phases (otherwise the turn has ended by itself)."""
        return self._k[PHASE] not in (SUMMON, BATTLE) or _can_act(self.game, self._k)

    def public_action(self, action: str, viewer: int) -> str:
        """Every move is public except two.  A charged card goes face down
        into mana (MZ-6, MZ-4: the seed's うらむきで マナゾーンへ), so the
        opponent sees ``charge ??``; the first player's two cards are set
        aside unseen (MZ-3, MZ-Q8: 見ないで よけておく), so nobody sees more
        than ``trash ??``.  Summons and battles happen in the face-up battle
        zone (MZ-4, MZ-7, MZ-8, MZ-19), janken in the open (MZ-2), and the
        card a direct attack takes lies open among the captured cards
        (MZ-22; ``out`` in :meth:`observation`)."""
        if self.game.options["open_hands"]:
            return action
        verb = action.partition(" ")[0]
        if verb == "trash":
            return "trash ??"
        if verb == "charge" and viewer != self.current_player:
            return "charge ??"
        return action

    def hidden(self, player: int) -> Hidden | None:
        """The opponent's cards in neither battle zone nor ``out``: their
        hand, and together their mana and trash, face down (MZ-4, MZ-Q8).

        The position records no more of the face-down cards (which one is
        mana, which one trash: they never come back, MZ-6, MZ-17), so they
        are one place; for the same reason the player's own face-down cards
        (the own deck outside hand, battle zone and ``out``) are no place.
        A filling that leaves the mover nothing to do but 'end' contradicts
        what the player saw (that turn would have ended by itself)."""
        if self.game.options["open_hands"]:
            return None
        g, k = self.game, self._k
        o = 1 - player
        s = SEAT[o]
        cards = tuple(g.ids[o][i] for i in _BITS[FULL & ~(k[s.battle] | k[s.out])])
        in_hand = _POP[k[s.hand]]
        settled = self._settled()

        def build(contents: tuple[tuple, ...]) -> MazemonState | None:
            t = MazemonState(g, LAYOUT.replace(k, **{f"hand{o}": sum(1 << g.slot[o][c] for c in contents[0])}))
            return t if t._settled() or not settled else None

        return Hidden(cards, (("opponent hand", in_hand),
                              ("opponent mana and trash", len(cards) - in_hand)), build)

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MazemonState":
        """Deal the opponent's hand anew from the cards ``player`` cannot see
        (their hand, their mana and their trash: :meth:`hidden`), again
        while the deal contradicts what the player saw."""
        h = self.hidden(player)
        if h is None:
            return self
        rng = make_rng(seed)
        n = h.places[0][1]
        while True:
            hand = rng.sample(h.cards, n)
            t = h.build((tuple(hand), tuple(c for c in h.cards if c not in hand)))
            if t is not None:
                return t

    def to_dict(self) -> dict[str, Any]:
        d = self.observation(0)
        d["players"][1]["hand"] = self.hand(1)
        d["players"][0]["hand"] = self.hand(0)
        return {"game": "mazemon", "options": self.game.options_dict(), **d}

    def heuristic(self, player: int) -> float:
        """Captures, then the board (power and HP, halved when wounded), mana
        and cards in hand; only what ``player`` sees."""
        if self._k[PHASE] == END:
            return 100.0 * self.returns()[player]
        g = self.game
        total = 0.0
        for p, sign in ((player, 1.0), (1 - player, -1.0)):
            blk = self._blk(p)
            v = 10.0 * blk.captured + 0.4 * blk.mana + 0.6 * _POP[blk.hand]
            for i in _BITS[blk.battle]:
                c = g.decks[p][i]
                v += (c.power / 400 + c.hp / 1500) * (0.5 if blk.wounded >> i & 1 else 1.0)
            total += sign * v
        return total


    # -- in words (:mod:`.text`) ---------------------------------------------------------
    def battle_report(self, action: str) -> dict[str, Any]:
        """The structured explanation of the battle an action starts or settles.

        For ``attack X Y`` (the target as declared; the defender may still
        substitute) and ``substitute Z`` / ``decline`` at a substitute
        decision: the :class:`Battle` fields plus who attacks, whether みがわり
        is possible, the wounds before and what is knocked out and where it goes.
        """
        return text.battle_report(self, action)

    def explain(self, action: str) -> str:
        return text.explain(self, action)

    def __str__(self) -> str:
        return text.state_text(self)
