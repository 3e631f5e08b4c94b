"""MONSTER CARDS (モンスターカード): 2 to 8 players fight with decks they built.

Rules: ``docs/rules/monster_cards.md`` (MC-1 … MC-19, MC-Q1 … MC-Q10), from
the seed text ``002_42026b479678a9ff.txt``.  Rule ids in comments, in
:meth:`MonsterCardsState.explain` and in :meth:`Battle.explain` point there.

Cards are made by the players: :class:`Card` is the card builder (its cost
comes from a data table, MC-Q2), :func:`load_deck` reads a deck file and
:func:`validate_deck` checks it (MC-1).  The affinity tables (MC-5, MC-Q1)
and the cost formula are JSON data in ``cardlab/data``; a user passes their
own with the options ``affinity`` and ``costs``.  The skill library
(:data:`SKILLS`, MC-4, MC-Q3) is cardlab's own: three skills in each
category, each with its SP (SR card) and ULT (UR card) form.

Representation.  Every card design of the game has a small id (the designs
sorted by name).  Per player the key holds the hand (a sorted tuple: a
multiset), the known top of the deck (cards healed back from the graveyard,
in order, known to their owner), the rest of the deck (a sorted tuple: its
order is unknown to everybody, so drawing and damage from it are chance
events, one card at a time) and the graveyard (墓地, an ordered pile: damage
puts the deck's top card on it, healing puts its top card back on the deck,
so healing undoes the latest damage).  A player who is out (MC-19) keeps
one more zone, the cards that left the game with them face down (a sorted
tuple).  The ruins (跡地) are not stored: they are every card of a player's
deck that is in no other zone, so they stay what everybody saw (MC-7).

Places the seed settles (quoted in the digest): a card played to the attack
zone takes the attacker's attack in exchange (MC-11: 「そのカードからの攻撃を
受ける代わりにカードをどかして、自分のカードを配置します」; the option
``replacing="free"`` plays the other reading, with no damage); cards after a
battle go to the ruins (MC-Q4, MC-Q5: 「跡地 … 戦闘後のカード…が置かれる場所」);
a deck at 0 loses, also by drawing (MC-Q7: 「山札 … 0枚になると負けです」);
Discard skills and GameChangers any number of times a turn, a heal with an
empty graveyard doing nothing (MC-Q10).

Notation (player actions, then chance outcomes)::

    defend X      play X to the defence zone (防衛ゾーン): a battle follows (MC-11, MC-14 … MC-18)
    attack X      play X to the attack zone (攻撃ゾーン): take the attacker's attack, then push it away (MC-11)
    discard X     discard X to the ruins for its Discard skill (MC-10; any number a turn, MC-Q10)
    gc X          place X in the GameChanger zone (MC-10; any number a turn, MC-Q10)
    draw X        chance: the turn player draws X (MC-9)
    mill X        chance: damage moves X from the deck top to the graveyard (MC-3)
"""


from __future__ import annotations

import random
import re
from bisect import insort
from collections import Counter
from fractions import Fraction
from typing import Any, Iterable, Mapping

from ...core import CHANCE, TERMINAL, Game, Hidden, Option, Spec, State, bool_option, make_rng
from ...i18n import N_, _
from . import positions, rules, text
from .battle import Battle, attack_power, battle
from .cards import (KEYS, RARITIES, READY_DECKS, SKILLS, Affinity, AffinityError, Card, CardError, Deck, DeckError,
                    Skill, _short, load_affinity, load_costs, load_deck, ready_deck, validate_deck)
from .key import (ACT, ALIVE, ATTACK, DRAW, END, GAMECHANGER, GONE, GRAVE, HAND, HIDDEN_ZONES, KEY, MILL, PENDING,
                  PHASE, PHASE_NAMES, PLAYERS, REST, TOP, TURN, ZONE_NAMES)

__all__ = [
    "MonsterCards", "MonsterCardsState", "Card", "Skill", "SKILLS", "Battle", "battle",
    "attack_power", "Affinity", "load_affinity", "load_costs", "load_deck", "validate_deck", "ready_deck",
    "READY_DECKS", "CardError", "DeckError", "AffinityError", "RARITIES", "KEYS",
]

_N = r"[a-z][a-z0-9_]*"
ACTION_RE = re.compile(rf"(defend|attack|discard|gc|draw|mill) {_N}")


# -- the game ------------------------------------------------------------------------
def _players_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 8


def _decks_ok(v: Any) -> bool:
    if v is None:
        return True
    return (isinstance(v, (list, tuple)) and 1 <= len(v) <= 8
            and all(isinstance(x, (str, dict)) for x in v))


def _table_ok(v: Any) -> bool:
    return v is None or isinstance(v, (str, dict))


def _size_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100


def _cost_ok(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100_000


class MonsterCards(Game):
    """MONSTER CARDS (モンスターカード), 2 to 8 players, decks the players built.

    >>> import cardlab
    >>> game = cardlab.load("monster_cards", open_hands=True)
    >>> s = game.new_initial_state(seed=1)
    >>> s.current_player, s.legal_actions()[0].startswith("defend")
    (0, True)
    """

    name = "monster_cards"
    title = N_("MONSTER CARDS (モンスターカード)")
    rules = "monster_cards.md"
    OPTIONS = {
        "players": Option(2, N_("number of players, 2 to 8 (MC-1)"), check=_players_ok,
                          accepts=N_("a whole number from 2 to 8"), label=N_('players (2-8人)')),
        "open_hands": bool_option(N_("every player sees every hand, deck top and graveyard; "
                                     "the unknown part of each deck stays random"), label=N_("open hands")),
        "decks": Option(None, N_("the players' decks, dealt in seat order and repeated: names of ready decks "
                                 "('ember', 'tide'), deck-file paths or deck dicts; None: ember, tide, ember, …"),
                        check=_decks_ok, accepts=N_("None or a list of 1-8 deck names, paths or dicts")),
        "deck_size": Option(20, N_("cards in each deck (MC-1)"), check=_size_ok, accepts=N_("a whole number 1-100"),
                            label=N_('deck size 山札')),
        "max_cost": Option(200, N_("highest total cost of a deck (MC-1)"), check=_cost_ok,
                           accepts=N_("a whole number 0-100000"), label=N_('deck cost limit')),
        "affinity": Option(None, N_("affinity tables: a JSON path or dict (MC-Q1); None: cardlab's own"),
                           check=_table_ok, accepts=N_("None, a path to a JSON file, or a dict")),
        "costs": Option(None, N_("cost formula: a JSON path or dict (MC-Q2); None: cardlab's own"),
                        check=_table_ok, accepts=N_("None, a path to a JSON file, or a dict")),
        "on_draw": Option("both_to_ruins", N_("a drawn battle (MC-Q4): both cards to the ruins, or "
                                              "the attacker stays"),
                          choices=("both_to_ruins", "attacker_stays"), label=N_('on a tie (引き分け)'),
                          choice_words={"both_to_ruins": N_("both_to_ruins"), "attacker_stays": N_("attacker_stays")}),
        "own_attacker": Option("no_attack", N_("the turn player's own card in the attack zone (MC-Q6): "
                                               "'no_attack' (it does not attack its owner; a defence-zone play goes "
                                               "to the ruins) or 'attacks' (a battle as against anybody's card)"),
                               choices=("no_attack", "attacks"), label=N_('your own attack card'),
                               choice_words={"no_attack": N_("no_attack"), "attacks": N_("attacks")}),
        "replacing": Option("takes_attack", N_("a card played to the attack zone (MC-11): 'takes_attack' "
                                               "(the seed: the turn player takes the attacker's attack, "
                                               "「攻撃を受ける代わりに」, then their card pushes it away) or 'free' "
                                               "(no damage)"),
                            choices=("takes_attack", "free"), label=N_('replacing the attack card'),
                            choice_words={"takes_attack": N_("takes_attack"), "free": N_("free")}),
        "out_by_drawing": bool_option(N_("a deck emptied by drawing puts the player out at once (MC-Q7); "
                                         "False: only damage does, or a turn with no card to play"), True,
                                      label=N_('out by drawing')),
    }
    ACTION_GRAMMAR = N_("'defend X', 'attack X', 'discard X', 'gc X'; chance: 'draw X', 'mill X' "
                        "(X a card name such as ember_imp)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        o = self.options
        self.affinity = load_affinity(o["affinity"])
        self.costs = load_costs(o["costs"])
        n = o["players"]
        sources = list(o["decks"]) if o["decks"] is not None else list(READY_DECKS)
        decks: list[Deck] = []
        for i in range(n):
            src = sources[i % len(sources)]
            if isinstance(src, str) and src in READY_DECKS:
                deck = ready_deck(src, self.affinity)
            elif isinstance(src, str) and src.endswith(".json") or isinstance(src, dict):
                deck = load_deck(src, self.affinity)
            else:
                raise DeckError(_("monster_cards: deck {deck} of player {player} is neither a ready deck "
                                  "({ready}) nor a .json file or a dict").format(
                    deck=_short(src), player=i, ready=", ".join(READY_DECKS)))
            validate_deck(deck, deck_size=o["deck_size"], max_cost=o["max_cost"], costs=self.costs)
            decks.append(deck)
        by_name: dict[str, Card] = {}
        for deck in decks:
            for c in deck.cards:
                if c.name in by_name and by_name[c.name] != c:
                    raise DeckError(_("monster_cards: card {card} is defined differently in two decks; "
                                      "one name, one card").format(card=repr(c.name)))
                by_name[c.name] = c
        self.decks = decks
        self.cards: tuple[Card, ...] = tuple(by_name[k] for k in sorted(by_name))
        self.card_id = {c.name: i for i, c in enumerate(self.cards)}
        self.deck_ids = tuple(tuple(sorted(self.card_id[c.name] for c in d.cards)) for d in decks)
        self.deck_counts = tuple(Counter(ids) for ids in self.deck_ids)
        self.names = tuple(c.name for c in self.cards)
        self.deck_vectors = tuple(tuple(cnt[c] for c in range(len(self.cards))) for cnt in self.deck_counts)
        self._battles: dict[tuple, tuple[str, int]] = {}
        self.saved_options = self.options_dict()  # what a saved position must have been saved with
        cat = [c.category for c in self.cards]
        self.is_gc = tuple(x == "gamechanger" for x in cat)
        self.discard_skill = tuple(c.skill if x == "discard" else None for c, x in zip(self.cards, cat))
        self.mend = tuple(c.amount if c.skill == "mend" else 0 for c in self.cards)

    def _make_spec(self) -> Spec:
        n = self.options["players"]
        total = sum(len(d) for d in self.deck_ids)
        max_heal = max([c.amount for c in self.cards if c.skill in ("mend", "revive")] + [0])
        # Proof of the bound.  Every player action moves ≥ 1 card out of a hand
        # for good (to a zone or the ruins; nothing comes back to a hand but by
        # drawing, and nothing leaves the ruins or zones for a hand, deck or
        # graveyard), and a card once played never returns, so actions ≤ total.
        # Decks gain cards only by healing, ≤ max_heal per action, so draws +
        # damage (the only chance events, one card each) ≤ total + max_heal·total.
        return Spec(num_players=n, chance=True, perfect_information=self.options["open_hands"],
                    min_utility=Fraction(-1, n - 1), max_utility=Fraction(1),
                    max_game_length=total * (2 + max_heal), zero_sum=True)

    def _root(self) -> "MonsterCardsState":
        n = self.options["players"]
        players = tuple(((), (), self.deck_ids[i], ()) for i in range(n))
        return _settle(self, DRAW, 0, (), (), (), (1,) * n, [list(p) for p in players])

    def card(self, name: str) -> Card:
        return self.cards[self.card_id[name]]

    def attack_power(self, a: int, gc: int) -> int:
        """The damage attacker id ``a`` deals under GameChanger id ``gc`` (−1: none), MC-3."""
        return attack_power(self.cards[a], self.cards[gc] if gc >= 0 else None)

    def battle_result(self, d: int, a: int, gc: int) -> tuple[str, int]:
        """(result, damage) of defender id ``d`` vs attacker id ``a`` under GameChanger id ``gc`` (−1: none)."""
        key = (d, a, gc)
        r = self._battles.get(key)
        if r is None:
            b = battle(self.cards[d], self.cards[a], affinity=self.affinity,
                       gamechanger=self.cards[gc] if gc >= 0 else None)
            r = self._battles[key] = (b.result, b.damage)
        return r

    # -- making states: the factories the positions and the core use ---------------------
    def _state_from_dict(self, d: Mapping[str, Any]) -> "MonsterCardsState":
        """A saved position, checked (:func:`.positions.state_from_dict`)."""
        return positions.state_from_dict(self, d)

    def state_of(self, **fields: Any) -> "MonsterCardsState":
        """The state whose key has these fields (:data:`.key.KEY`), as it is
        (a compact core's ``decode``): nothing is played or checked."""
        return MonsterCardsState(self, KEY.make(**fields))

    def settled(self, *, phase: str, turn: int, attack: tuple, gamechanger: tuple, pending: tuple,
                alive: tuple, players: tuple) -> "MonsterCardsState":
        """The state reached from these fields when everything certain has been
        played (:func:`_settle`): the position a saved one must equal."""
        return _settle(self, phase, turn, attack, gamechanger, pending, tuple(alive), [list(z) for z in players])


# -- the flow of play: from one stop to the next ------------------------------------------------
def _key(phase: str, turn: int, attack: tuple, gc: tuple, pend: tuple, alive: tuple, ps: list) -> tuple:
    """A key with the fields of :data:`.key.KEY`, in its order."""
    return (phase, turn, attack, gc, pend, alive, tuple(tuple(z) for z in ps))


assert KEY.names == ("phase", "turn", "attack", "gamechanger", "pending", "alive", "players")  # _key's order

def _remove(t: tuple, c: int) -> tuple:
    i = t.index(c)
    return t[:i] + t[i + 1:]


def _insert(t: tuple, c: int) -> tuple:
    lst = list(t)
    insort(lst, c)
    return tuple(lst)


def _heal(ps: list, p: int, n: int) -> None:
    """MC-8: the graveyard's top cards go back on top of the deck (:func:`.rules.heal`)."""
    ps[p][GRAVE], ps[p][TOP] = rules.heal(ps[p][GRAVE], ps[p][TOP], n)


def _settle(game: MonsterCards, phase, turn, attack, gc, pend, alive, ps,
            log: list | None = None) -> "MonsterCardsState":
    """Play everything that is certain, up to the next decision, chance event or the end.

    Certain: a draw or damage from the known deck top, and a draw or damage
    that takes the whole deck (its order cannot matter).  Both depend only on
    public counts, so where play stops never reveals a hidden card; a deck
    rest of one kind is still a chance event (with one outcome).  ``log``
    (a list, or None) collects ``(player, how)`` for each player put out on
    the way, ``how`` "damage", "draw" or "empty" (for the explanations)."""
    by_draw = game.options["out_by_drawing"]
    while True:
        if sum(alive) <= 1:
            winner = alive.index(1)
            return MonsterCardsState(game, _key(END, winner, attack, gc, (), alive, ps))
        if phase == MILL:
            target, rem, then = pend
            z = ps[target]
            if alive[target] and rem > 0:
                if rem >= len(z[TOP]) + len(z[REST]):  # the whole deck goes: out (MC-19), order moot
                    alive, ps = _out(alive, ps, target, log, "damage")
                    continue
                if z[TOP]:  # the known top goes first, no chance involved
                    c = z[TOP][0]
                    z[TOP] = z[TOP][1:]
                else:
                    return MonsterCardsState(game, _key(MILL, turn, attack, gc, (target, rem, then), alive, ps))
                z[GRAVE] = z[GRAVE] + (c,)
                pend = (target, rem - 1, then)
                if not z[TOP] and not z[REST]:  # MC-19 the deck reached 0
                    alive, ps = _out(alive, ps, target, log, "damage")
                continue
            pend = ()
            if then == ACT and alive[turn]:
                phase = ACT
                continue
            phase, turn = DRAW, rules.next_player(alive, turn)
            continue
        if phase == DRAW:
            z = ps[turn]
            if not rules.to_draw(len(z[HAND])):  # MC-9
                phase = ACT
                continue
            if not z[TOP] and not z[REST]:  # only without out_by_drawing
                if z[HAND]:
                    phase = ACT
                else:  # nothing to play: out (MC-Q7 option)
                    alive, ps = _out(alive, ps, turn, log, "empty")
                    phase, turn = DRAW, rules.next_player(alive, turn)
                continue
            if rules.to_draw(len(z[HAND])) >= len(z[TOP]) + len(z[REST]):
                # the whole deck comes to the hand: the order of the draws does not matter
                z[HAND] = tuple(sorted(z[HAND] + z[TOP] + z[REST]))
                z[TOP] = z[REST] = ()
                if by_draw:  # MC-Q7: out at once
                    alive, ps = _out(alive, ps, turn, log, "draw")
                    phase, turn = DRAW, rules.next_player(alive, turn)
                else:
                    phase = ACT
                continue
            if z[TOP]:  # the known top comes first, no chance involved
                c = z[TOP][0]
                z[TOP] = z[TOP][1:]
            else:
                return MonsterCardsState(game, _key(DRAW, turn, attack, gc, (), alive, ps))
            z[HAND] = _insert(z[HAND], c)
            if by_draw and not z[TOP] and not z[REST]:  # MC-Q7: out at once
                alive, ps = _out(alive, ps, turn, log, "draw")
                phase, turn = DRAW, rules.next_player(alive, turn)
            continue
        return MonsterCardsState(game, _key(ACT, turn, attack, gc, (), alive, ps))


def _out(alive: tuple, ps: list, p: int, log: list | None = None, how: str = "") -> tuple[tuple, list]:
    """MC-19: the player is out; their hand, deck and graveyard leave the game
    face down (the zone ``GONE``, a multiset), so their ruins stay (MC-7)."""
    if log is not None:
        log.append((p, how))
    alive = alive[:p] + (0,) + alive[p + 1:]
    ps[p] = [(), (), (), (), tuple(sorted(c for zone in ps[p] for c in zone))]
    return alive, ps


class MonsterCardsState(State):
    """A MONSTER CARDS position; see the module docstring for the notation.

    The key tuple is ``(phase, turn, attack, gamechanger, pending, alive,
    players)`` with ``attack``/``gamechanger`` ``()`` or ``(owner,
    card id)``, ``pending`` ``()`` or ``(target, damage left, then)`` and each
    player ``(hand, deck top, deck rest, graveyard)``, and ``((), (), (), (),
    gone)`` once out.
    """

    __slots__ = ()

    # -- reading the position ---------------------------------------------------
    @property
    def key(self) -> tuple:
        """The position's key tuple, its fields named by :data:`.key.KEY`."""
        return self._k

    @property
    def fields(self) -> dict[str, Any]:
        """The key's fields by name (:data:`.key.KEY`): what a core encodes."""
        return KEY.named(self._k)

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._k[PHASE]]

    @property
    def turn(self) -> int:
        return self._k[TURN]

    @property
    def current_player(self) -> int:
        ph = self._k[PHASE]
        if ph == ACT:
            return self._k[TURN]
        if ph == END:
            return TERMINAL
        return CHANCE

    def _names(self, ids: Iterable[int]) -> list[str]:
        names = self.game.names
        return [names[i] for i in ids]

    def deck_size(self, p: int) -> int:
        z = self._k[PLAYERS][p]
        return len(z[TOP]) + len(z[REST])

    def ruins(self, p: int) -> list[str]:
        """Player ``p``'s cards in the ruins (跡地): in no other zone (MC-7)."""
        k = self._k
        pool = list(self.game.deck_vectors[p])
        z = k[PLAYERS][p]
        for zone in z:
            for c in zone:
                pool[c] -= 1
        for zone in (k[ATTACK], k[GAMECHANGER]):
            if zone and zone[0] == p:
                pool[zone[1]] -= 1
        names = self.game.names
        return [names[c] for c, m in enumerate(pool) for _ in range(m)]

    def winner(self) -> int | None:
        return self._k[TURN] if self._k[PHASE] == END else None

    def returns(self) -> list:
        """MC-19: 1 for the last player standing, −1/(n−1) for each other
        (zero-sum; with two players 1 and −1)."""
        k = self._k
        n = len(k[ALIVE])
        if k[PHASE] != END:
            return [0] * n
        return list(rules.payoffs(n, k[TURN]))

    def heuristic(self, player: int) -> float:
        """Own deck and hand against the strongest other player (public counts only)."""
        k = self._k
        if k[PHASE] == END:
            return 100.0 * float(self.returns()[player])
        if not k[ALIVE][player]:
            return -100.0
        mine = self.deck_size(player) + 0.5 * len(k[PLAYERS][player][HAND])
        others = [self.deck_size(q) + 0.5 * len(k[PLAYERS][q][HAND])
                  for q in range(len(k[ALIVE])) if q != player and k[ALIVE][q]]
        bonus = 1.0 if k[ATTACK] and k[ATTACK][0] == player else 0.0
        return mine - max(others) + bonus

    # -- moves --------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        k = self._k
        if k[PHASE] != ACT:
            return []
        game = self.game
        p = k[TURN]
        hand = k[PLAYERS][p][HAND]
        kinds = sorted(set(hand))
        names = [game.cards[c].name for c in kinds]
        acts = [f"defend {x}" for x in names]
        attack = k[ATTACK]
        if attack:
            acts += [f"attack {x}" for x in names]
        if len(hand) >= 2:  # MC-10 extras, as many as wished, keep a card for the mandatory play (MC-11)
            acts += [f"discard {x}" for c, x in zip(kinds, names) if game.discard_skill[c]]  # MC-Q10
            acts += [f"gc {x}" for c, x in zip(kinds, names) if game.is_gc[c]]  # MC-Q10: no limit a turn
        return acts

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        if k[PHASE] == DRAW:
            who, verb = k[TURN], "draw"
        elif k[PHASE] == MILL:
            who, verb = k[PENDING][0], "mill"
        else:
            return []
        rest = k[PLAYERS][who][REST]
        n = len(rest)
        cards = self.game.cards
        return [(f"{verb} {cards[c].name}", Fraction(rest.count(c), n)) for c in sorted(set(rest))]

    def _apply(self, action: str) -> "MonsterCardsState":
        return self._play(action)

    def _discard_effect(self, c: int) -> tuple[str, int]:
        """What discarding card id ``c`` does here (MC-10, MC-Q10): ``("heal", k)``
        with k the cards that come back (0 with an empty graveyard), ``("banish",
        0 or 1)``, ``("ambush", player)`` or ``("ambush", -1)`` when the
        attack-zone card is missing, the turn player's own or its owner is out:
        the skill may always be used; where its effect finds nothing, it does nothing."""
        k = self._k
        card = self.game.cards[c]
        skill, n, attack = card.skill, card.amount, k[ATTACK]
        if skill == "revive":
            return "heal", rules.healed(n, len(k[PLAYERS][k[TURN]][GRAVE]))
        if skill == "banish":
            return "banish", int(bool(attack) and rules.banishes(self.game.cards[attack[1]].rarity, n))
        hit = bool(attack) and attack[0] != k[TURN] and bool(k[ALIVE][attack[0]])
        return "ambush", attack[0] if hit else -1

    def _replace_damage(self) -> int:
        """The damage a play to the attack zone costs here (MC-11): the
        attacker's attack power, as if it attacked, or 0 (an empty zone, the
        turn player's own card that does not attack them (MC-Q6), or the option
        ``replacing="free"``)."""
        k = self._k
        g = self.game
        attack = k[ATTACK]
        if not attack or g.options["replacing"] == "free":
            return 0
        if attack[0] == k[TURN] and g.options["own_attacker"] == "no_attack":
            return 0
        return g.attack_power(attack[1], k[GAMECHANGER][1] if k[GAMECHANGER] else -1)

    def _play(self, action: str, log: list | None = None) -> "MonsterCardsState":
        """The move; ``log`` collects the players put out on the way (see :func:`_settle`)."""
        game = self.game
        verb, _sep, name = action.partition(" ")
        c = game.card_id[name]
        phase, turn, attack, gc, pend, alive, players = self._k  # the fields of KEY, in order
        ps = [list(z) for z in players]
        if verb == "draw":  # MC-9
            z = ps[turn]
            z[REST] = _remove(z[REST], c)
            z[HAND] = _insert(z[HAND], c)
            if game.options["out_by_drawing"] and not z[REST] and not z[TOP]:  # MC-Q7
                alive, ps = _out(alive, ps, turn, log, "draw")
                return _settle(game, DRAW, rules.next_player(alive, turn), attack, gc, (), alive, ps, log)
            return _settle(game, DRAW, turn, attack, gc, (), alive, ps, log)
        if verb == "mill":  # MC-3 damage, one card at a time
            target, rem, then = pend
            z = ps[target]
            z[REST] = _remove(z[REST], c)
            z[GRAVE] = z[GRAVE] + (c,)
            if not z[REST] and not z[TOP]:  # MC-19
                alive, ps = _out(alive, ps, target, log, "damage")
            return _settle(game, MILL, turn, attack, gc, (target, rem - 1, then), alive, ps, log)
        if verb == "discard":  # MC-10, MC-Q10: the card goes to the ruins; its effect may find nothing
            what, x = self._discard_effect(c)
            ps[turn][HAND] = _remove(ps[turn][HAND], c)
            if what == "heal":
                _heal(ps, turn, x)
            elif what == "banish" and x:
                attack = ()
            elif what == "ambush" and x >= 0:
                return _settle(game, MILL, turn, attack, gc, (x, game.cards[c].amount, ACT), alive, ps, log)
            return _settle(game, ACT, turn, attack, gc, (), alive, ps, log)
        damage = self._replace_damage() if verb == "attack" else 0
        ps[turn][HAND] = _remove(ps[turn][HAND], c)
        if verb == "gc":  # MC-10: replaces any GameChanger (to the ruins); MC-Q10: no limit a turn
            return _settle(game, ACT, turn, attack, (turn, c), (), alive, ps, log)
        if game.mend[c]:  # Mend: heals when played
            _heal(ps, turn, game.mend[c])
        end = (DRAW, rules.next_player(alive, turn))
        if damage:  # MC-11: the card takes the attack zone, then the attack's damage resolves (as MC-18)
            return _settle(game, MILL, turn, (turn, c), gc, (turn, damage, END), alive, ps, log)
        if verb == "attack" or not attack:  # MC-11 (an empty attack zone takes the card)
            return _settle(game, *end, (turn, c), gc, (), alive, ps, log)
        if attack[0] == turn and game.options["own_attacker"] == "no_attack":  # MC-Q6
            return _settle(game, *end, attack, gc, (), alive, ps, log)
        result, damage = game.battle_result(c, attack[1], gc[1] if gc else -1)
        if result == "success":  # MC-18, MC-Q5: the beaten attacker goes to the ruins
            return _settle(game, *end, (turn, c), gc, (), alive, ps, log)
        if result == "failure":  # MC-18: damage to the defending player
            return _settle(game, MILL, turn, attack, gc, (turn, damage, END), alive, ps, log)
        if game.options["on_draw"] == "both_to_ruins":  # MC-Q4
            attack = ()
        return _settle(game, *end, attack, gc, (), alive, ps, log)

    def battle(self, action: str) -> Battle | None:
        """The :class:`Battle` that ``action`` (``"defend X"``) would fight here, or None."""
        k = self._k
        verb, _sep, name = action.partition(" ")
        if verb != "defend" or k[PHASE] != ACT or not k[ATTACK] or name not in self.game.card_id:
            return None
        if k[ATTACK][0] == k[TURN] and self.game.options["own_attacker"] == "no_attack":
            return None
        g = self.game
        return battle(g.card(name), g.cards[k[ATTACK][1]], affinity=g.affinity,
                      gamechanger=g.cards[k[GAMECHANGER][1]] if k[GAMECHANGER] else None)

    # -- what players see ------------------------------------------------------------
    def _zone(self, z: tuple) -> dict | None:
        return {"owner": z[0], "card": self.game.cards[z[1]].name} if z else None

    def observation(self, player: int) -> dict[str, Any]:
        k = self._k
        open_hands = self.game.options["open_hands"]
        pend = k[PENDING]
        view = []
        for q, z in enumerate(k[PLAYERS]):
            see = open_hands or q == player
            view.append({
                "out": not k[ALIVE][q],
                "hand": self._names(z[HAND]) if see else len(z[HAND]),
                "deck": len(z[TOP]) + len(z[REST]),
                "deck_top": self._names(z[TOP]) if see else len(z[TOP]),
                "graveyard": self._names(z[GRAVE]) if see else len(z[GRAVE]),
                "ruins": self.ruins(q),
            })
        return {
            "phase": PHASE_NAMES[k[PHASE]], "turn": k[TURN],
            "attack": self._zone(k[ATTACK]), "gamechanger": self._zone(k[GAMECHANGER]),
            "pending": {"target": pend[0], "damage": pend[1]} if pend else None,
            "players": view,
        }

    def information_set(self, player: int) -> tuple:
        k = self._k
        if self.game.options["open_hands"]:
            return k
        # another player's zones: sizes only, plus their ruins (跡地), which are public (MC-7)
        hidden = tuple(z if q == player else (len(z[HAND]), len(z[TOP]), len(z[REST]), len(z[GRAVE]),
                                              tuple(self.ruins(q)))
                       for q, z in enumerate(k[PLAYERS]))
        return KEY.replace(k, players=hidden)  # own deck rest: a multiset its owner can work out anyway

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MonsterCardsState":
        """Deal anew every other player's hand, deck and graveyard from their
        unseen cards (a player who is out has none left to deal)."""
        if self.game.options["open_hands"]:
            return self
        rng = make_rng(seed)
        k = self._k
        ps = []
        for q, z in enumerate(k[PLAYERS]):
            if q == player or not k[ALIVE][q]:
                ps.append(z)
                continue
            pool = list(z[HAND] + z[TOP] + z[REST] + z[GRAVE])
            rng.shuffle(pool)
            sizes = [len(x) for x in z]
            parts, i = [], 0
            for s in sizes:
                parts.append(pool[i:i + s])
                i += s
            ps.append((tuple(sorted(parts[0])), tuple(parts[1]), tuple(sorted(parts[2])), tuple(parts[3])))
        return MonsterCardsState(self.game, KEY.replace(k, players=tuple(ps)))

    def public_action(self, action: str, viewer: int) -> str:
        """Every player action is public: its card goes face up to a shared
        zone or to the ruins (MC-7, MC-10, MC-11), ``defend``/``attack`` even
        when both would end in the same position.  A draw goes into a hand
        and damage onto a graveyard, both hidden from the others (MC-8): only
        their owner sees the card, the others read ``draw ??`` or ``mill ??``
        (never the card, even when only one can come).  Open hands: all public."""
        verb = action.partition(" ")[0]
        if self.game.options["open_hands"] or verb not in ("draw", "mill"):
            return action
        k = self._k
        owner = k[TURN] if verb == "draw" else k[PENDING][0] if k[PENDING] else None
        return action if viewer == owner else f"{verb} ??"

    def hidden(self, player: int) -> Hidden | None:
        """As in :meth:`redeal`: each other player's hand, known deck top (in
        order), deck (a multiset: its order is unknown to everybody) and
        graveyard (in order), MC-8.  What a player who is out left the game
        with is no place: the ruins tell which cards it is.  The cards are
        ``(owner, card id)`` pairs (two seats may hold cards of one name),
        and each other player is a group of its own: their cards fill only
        their own places."""
        if self.game.options["open_hands"]:
            return None
        k = self._k
        game = self.game
        others = [q for q in range(len(k[PLAYERS])) if q != player and k[ALIVE][q]]
        cards = tuple((q, c) for q in others for zone in k[PLAYERS][q] for c in zone)
        places = tuple((f"player {q} {ZONE_NAMES[i]}", len(k[PLAYERS][q][i])) for q in others for i in HIDDEN_ZONES)
        ordered = frozenset(f"player {q} {ZONE_NAMES[i]}" for q in others for i in (TOP, GRAVE))

        def build(contents: tuple[tuple, ...]) -> MonsterCardsState | None:
            ps = list(k[PLAYERS])
            for j, q in enumerate(others):
                zones = [()] * 4
                for i, zone in zip(HIDDEN_ZONES, contents[4 * j:4 * j + 4]):
                    zones[i] = tuple(c for _owner, c in zone)
                ps[q] = tuple(zones)
            return MonsterCardsState(game, KEY.replace(k, players=tuple(ps)))

        return Hidden(cards, places, build, ordered, groups=(len(HIDDEN_ZONES),) * len(others))

    def to_dict(self) -> dict[str, Any]:
        k = self._k
        pend = k[PENDING]
        return {
            "game": "monster_cards",
            "options": self.game.options_dict(),
            "phase": PHASE_NAMES[k[PHASE]], "turn": k[TURN],
            "attack": self._zone(k[ATTACK]), "gamechanger": self._zone(k[GAMECHANGER]),
            "pending": {"target": pend[0], "damage": pend[1], "then": "action" if pend[2] == ACT else "end"}
            if pend else None,
            "players": [{"out": not k[ALIVE][q], "hand": self._names(z[HAND]), "deck_top": self._names(z[TOP]),
                         "deck": self._names(z[REST]), "graveyard": self._names(z[GRAVE]),
                         **({} if k[ALIVE][q] else {"gone": self._names(z[GONE])})}
                        for q, z in enumerate(k[PLAYERS])],
        }

    def explain(self, action: str) -> str:
        """One line on what ``action`` does and why, with the rule ids; it
        ends with every player the move puts out (MC-19), also one who must
        draw the last card of their deck at the start of their turn (MC-Q7),
        and the winner.  Only public facts: cards played face up, counts."""
        return text.explain(self, action)

    def __str__(self) -> str:
        return text.state_text(self)
