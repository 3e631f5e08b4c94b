"""mipig trading cards (mipigトレーディングカード): lay pigs face down, then battle edge to edge.

Rules: ``docs/rules/mipig.md`` (MP-1 … MP-25, MP-Q1 … MP-Q6), from the seed
text ``000_3f4121ab15de4f29.txt``.  Rule ids in comments, in
:meth:`MipigState.explain` and in :class:`Battle` point there.

The game in one breath: each player holds ``hand_size`` cards (5枚勝負 and
10枚勝負, MP-3; 1-4 for teaching), dealt at random from the player's own copy
of the card set (the seed: お互いに同じ枚数のカードを手札として用意します, each
player prepares their own hand; so both players may hold the same card, never
twice in one hand); ``deal="shared"`` deals both hands from one set instead
(two players sharing one physical set of 30 cards).  A janken of cards
decides who goes first (MP-4).  Players alternate laying cards face down on
an unbounded grid, each touching an earlier card along a full edge
(placement 配置フェーズ, MP-5 … MP-9).  Then they alternate attacks (battle
バトルフェーズ, MP-10 … MP-18): a face-down card of yours against a touching
card of the opponent; both are turned up, attribute bonuses (属性ボーナス,
MP-19 … MP-22) are added to the two touching edge numbers, the larger wins,
a tie goes to the janken marks.  More face-up cards at the end wins (MP-23 …
MP-25).

The package.  :mod:`.rules` holds the rules as small pure functions (the
battle, the bonus MP-20, janken, the free squares); this module the Game
(options, the deal, who goes first) and the State (the flow of a turn),
which call them; :mod:`.key` declares the position's key tuple (``KEY``,
read by name); :mod:`.cards` the cards and their file; :mod:`.seen` what
each player sees; :mod:`.positions` the check of a saved position;
:mod:`.text` the words; :mod:`.core` the compact core the solvers search,
whose tables are built by calling :mod:`.rules`.

Square names (MP-Q4).  The key's coordinates are for search only.  A square
keeps one name for the whole game: the first card laid is at ``0,0``, x grows
to the right and y downwards, and a card laid left of or above the field gets
a negative name (``place p07 -1,0``).  Each state carries, outside its key,
its *origin*: the name of the key's square ``(0, 0)`` (the smallest x and y
on the field by name; ``(0, 0)`` on an empty field).  The actions, their
parsing, :meth:`MipigState.explain`, the observations and information sets,
:meth:`MipigState.to_dict` and the renderers all use the names; only the key
is translated.  The origin changes when a card is laid left of or above the
field, or when the card(s) of the leftmost column or top row leave it.

Simultaneous choices (MP-4, MP-Q2, MP-Q3, MP-25) are written in two levels
(:meth:`cardlab.State.simultaneous`): player 0 picks, then player 1, whose
observation and information set show only *that* player 0 has picked, with
open hands too (open hands show cards, never a choice not yet made).  The
solvers take each janken as the matrix game it is; a tie is picked again
until it breaks (MP-Q2, MP-Q3): the tied janken comes back to the very
same position, and its value is a fixed point (:mod:`cardlab.matrix`).
A tie on a mark that no card of either player beats cannot break
(:func:`tie_can_break`; MP-Q2, MP-Q3): a coin for the first player, a draw
at the end, as when every card shows one mark.  ``janken_rounds=N`` caps
the tied rounds (then a coin, or a draw at the end).

Fair play (MP-Q6): :meth:`MipigState.public_action` is what a player may know
of a move (the square of a face-down card but not the card, ``place ?? 1,0``;
player 0's janken pick only once player 1 has picked too), and
:meth:`MipigState.hidden` every card a player cannot see, for
:func:`cardlab.hidden.arrangements` and the fair hint.

Notation (player actions, then chance outcomes)::

    show p07            first-player janken: show card p07 from your hand (MP-4)
    place p07 -1,0      lay p07 face down on square -1,0: left of the first card (MP-5 … MP-7)
    attack 0,0 1,0      your face-down card at (0,0) attacks the card at (1,0) (MP-11)
    pass                no attack possible (MP-18)
    pick rock           end-of-game janken: one of your counted cards with that mark (MP-25)
    deal p07            chance: the next card dealt (player 0's hand first, MP-3)
    coin 1              chance: a fair coin makes player 1 first (MP-Q2)

Coordinates: x grows to the right, y grows downwards; a card's ``top`` edge
faces y-1, ``right`` faces x+1 (MP-Q5).  The first card laid is on ``0,0``
and every square keeps its name to the end of the game (MP-Q4).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from typing import Any, Mapping

from ...core import CHANCE, TERMINAL, Game, Hidden, Option, Spec, State, bool_option
from ...i18n import N_
from . import rules, seen, text
from .cards import Card, CardSet, load_cards, ready_hands
from .key import (BATTLE, COIN, DEAL, DIRS, END, HOW_COIN, HOW_JANKEN, HOW_LOCKED, HOW_OPTION, HOW_ROUNDS, HOWS,
                  JANKEN, KEY, NEAR, PHASES, PLACE, SHIFT, TIEBREAK, XSTEP, attackers, cell, cell_parts, free_spots,
                  normalise)
from .rules import (ATTRIBUTES, MARKS, attribute_bonus, janken_beats, janken_matrix, janken_value,
                    matrix_game_value, tie_can_break)
from .text import Battle, Bonus

__all__ = ["Mipig", "MipigState", "Card", "CardSet", "Battle", "Bonus", "load_cards",
           "attribute_bonus", "janken_beats", "tie_can_break", "janken_matrix", "janken_value", "matrix_game_value",
           "ATTRIBUTES", "MARKS"]

_ID = r"[A-Za-z0-9_.\-]+"
ACTION_RE = re.compile(
    rf"(show|deal) {_ID}|place {_ID} -?\d+,-?\d+|attack -?\d+,-?\d+ -?\d+,-?\d+|pass"
    rf"|pick (rock|scissors|paper)|coin [01]")


def _cards_ok(value: Any) -> bool:
    if value is None:
        return True
    if not isinstance(value, (str, Mapping)):  # options stay JSON-able (to_dict)
        return False
    load_cards(value)  # raises CardFileError naming file, card, field
    return True


def _hands_ok(value: Any) -> bool:
    return value is None or (isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(h, str) or (isinstance(h, (list, tuple)) and all(isinstance(x, str) for x in h))
        for h in value))


def _int_in(lo: int, hi: int):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


# -- the game --------------------------------------------------------------------
class Mipig(Game):
    """mipig trading cards (mipigトレーディングカード), two players.

    >>> import cardlab
    >>> game = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0)
    >>> state = game.new_initial_state(seed=1)
    >>> state.current_player, state.legal_actions()[0]
    (0, 'place p05 0,0')
    """

    name = "mipig"
    title = N_("mipig trading cards (mipigトレーディングカード)")
    rules = "mipig.md"
    OPTIONS = {
        "open_hands": bool_option(N_("every player sees every card, hands, face-down cards and pending "
                                     "janken picks: perfect information (MP-Q6)")),
        "hand_size": Option(5, N_("cards per player: 5 (5枚勝負) or 10 (10枚勝負), 1-4 for teaching (MP-3)"),
                            check=_int_in(1, 10), accepts=N_("a whole number from 1 to 10"),
                            label=N_('hand size (5枚勝負, 10枚勝負)')),
        "deal": Option("own", N_("where a random deal (hands=None) takes the cards from: 'own' each hand "
                                 "from its player's own copy of the card set (the seed: お互いに…用意します, "
                                 "MP-3), 'shared' both hands from one card set"),
                       choices=("own", "shared"), label=N_('deal: own cards or one set')),
        "first_player": Option("janken", N_("who goes first: 'janken' (MP-4, MP-Q2), 0, 1 or 'random' (a coin)"),
                               choices=("janken", 0, 1, "random"),
                               check=lambda v: type(v) in (int, str),  # not True, not 1.0
                               accepts=N_("'janken', 0, 1 or 'random'"), label=N_('first player 先攻')),
        "tiebreak": Option("janken", N_("equal face-up counts (MP-25): 'janken' (simultaneous picks, MP-Q3), "
                                        "'value' (the exact value of that janken game), 'draw'"),
                           choices=("janken", "value", "draw"), label=N_('equal at the end: tiebreak')),
        "tiebreak_cards": Option("face_up", N_("the cards whose marks the end janken may use: 'face_up' own "
                                               "face-up cards, or 'all_on_field' (MP-Q3)"),
                                 choices=("face_up", "all_on_field"), label=N_('tiebreak janken cards')),
        "janken_rounds": Option(None, N_("tied janken rounds (あいこ): None (the default) picks again until the "
                                         "tie breaks (MP-Q2, MP-Q3); a number N caps them: after N ties a coin "
                                         "for the first player (MP-Q2), a draw for the end janken (MP-Q3)"),
                                check=lambda v: v is None or _int_in(1, 20)(v),
                                accepts=N_("None (no cap) or a whole number from 1 to 20"),
                                label=N_('janken rounds (あいこ)'), choice_words={None: N_("no cap")}),
        "payoff": Option("win", N_("returns(): 'win' (1/-1/0) or 'score' (face-up count difference, no tiebreak)"),
                         choices=("win", "score")),
        "cards": Option(None, N_("the card set: None (cardlab's own), a JSON file path or a dict (MP-Q1)"),
                        check=_cards_ok, accepts=N_("None, a path (a string) to a JSON card file, or a dict")),
        "hands": Option(None, N_("None (deal hand_size cards each at random, as the option deal says), or "
                                 "two ready hands: names from the card file or lists of card ids"),
                        check=_hands_ok,
                        accepts=N_("None or a list of two hands (a hand name or a list of card ids)")),
    }
    ACTION_GRAMMAR = N_("'show p07', 'place p07 -1,0', 'attack 0,0 1,0', 'pass', 'pick rock'; chance: "
                        "'deal p07', 'coin 0'/'coin 1' (squares: the first card laid is 0,0 and names never "
                        "change; x grows right, y grows down)")
    ACTION_RE = ACTION_RE

    def _setup(self) -> None:
        cs = load_cards(self.options["cards"])
        self.card_set = cs
        self.cards = cs.cards
        self.ids = tuple(c.id for c in cs.cards)
        self.index = {c.id: i for i, c in enumerate(cs.cards)}
        self.edge = tuple(c.edges for c in cs.cards)
        self.attr = tuple(ATTRIBUTES.index(c.attribute) for c in cs.cards)
        self.mark = tuple(MARKS.index(c.janken) for c in cs.cards)
        n = self.options["hand_size"]
        self.n = n
        #: MP-3: both hands from one card set (no card in both hands), not each from its own copy
        self.shared = self.options["deal"] == "shared"
        self.rounds = self.options["janken_rounds"]  # None: no cap (MP-Q2, MP-Q3)
        #: the tied rounds allowed (no cap: more than any game plays); with no cap the round
        #: count stays 0, so a tied janken comes back to the very same position (a cycle)
        self.cap = self.rounds if self.rounds is not None else 10**9
        #: the ready hands of the option ``hands`` (card indices, sorted), or None: a random deal (MP-3)
        self.fixed_hands = ready_hands(cs, self.options["hands"], n, self.shared)
        self._parsed: dict[str, tuple] = {}
        self._free: dict[tuple, list[tuple[int, int]]] = {}   # field key -> free squares (key coordinates)
        self._spots: dict[tuple, list[str]] = {}  # (field key, origin) -> their names (MP-Q4)

    def _make_spec(self) -> Spec:
        n, r = self.n, self.rounds
        fp = self.options["first_player"]
        bound = Fraction(n if self.options["payoff"] == "score" else 1)
        # Deal 2n; first-player janken ≤ 2r picks and 1 coin; placement 2n.
        # Battle ≤ 4n: each attack turns a face-down attacker up for good (MP-16),
        # so ≤ 2n attacks; a pass happens only when the opponent can attack (MP-18),
        # and the opponent then must attack, so passes ≤ attacks.  End janken ≤ 2r.
        length = None if r is None else (2 * n if self.fixed_hands is None else 0) + 2 * r + 1 + 2 * n + 4 * n + 2 * r
        return Spec(num_players=2,
                    chance=self.fixed_hands is None or fp in ("janken", "random"),
                    perfect_information=self.options["open_hands"],
                    min_utility=-bound, max_utility=bound, max_game_length=length,
                    simultaneous=fp == "janken" or self.options["tiebreak"] == "janken")


    def state_of(self, key: tuple, origin: tuple[int, int] = (0, 0)) -> "MipigState":
        """The state of the key ``key`` (:data:`key.KEY`) whose square ``(0, 0)``
        is named ``origin`` (MP-Q4): the factory the core's ``decode`` and
        the position check use."""
        return MipigState(self, key, origin)

    def _start(self, phase: int, h0: tuple, h1: tuple, mover: int = 0, first: int = -1,
               how: int = 0) -> "MipigState":
        """A state before the first card is laid: only the hands are known."""
        return MipigState(self, KEY.make(phase=phase, mover=mover, first=first, how=how, hand0=h0, hand1=h1,
                                         field=(), grave0=(), grave1=(), round=0, pending=-1, shown0=(),
                                         shown1=(), outcome=None))

    def _root(self) -> "MipigState":
        if self.fixed_hands is None:
            return self._start(DEAL, (), ())
        return self._after_deal(self.fixed_hands[0], self.fixed_hands[1])

    def _after_deal(self, h0: tuple, h1: tuple) -> "MipigState":
        """MP-4, MP-Q2: how the first player is decided, once the hands are dealt."""
        fp = self.options["first_player"]
        if fp in (0, 1):
            return self._start(PLACE, h0, h1, fp, fp, HOW_OPTION)
        if fp == "random":
            return self._start(COIN, h0, h1, how=HOW_COIN)
        if not rules.janken_decides(self.mark[c] for c in h0 + h1):  # MP-Q2: the tie cannot break
            return self._start(COIN, h0, h1, how=HOW_LOCKED)
        return self._start(JANKEN, h0, h1)

    def parse(self, action: str) -> tuple:
        """The action as a tuple ``(verb, ...)`` (cached; the action is well formed).
        Squares stay names (MP-Q4): ``("place", card, x, y)``, ``("attack", ax, ay, dx, dy)``;
        the state turns them into key coordinates."""
        t = self._parsed.get(action)
        if t is None:
            parts = action.split(" ")
            verb = parts[0]
            if verb in ("show", "deal"):
                t = (verb, self.index.get(parts[1], -1))
            elif verb == "place":
                x, y = parts[2].split(",")
                t = (verb, self.index.get(parts[1], -1), int(x), int(y))
            elif verb == "attack":
                ax, ay = parts[1].split(",")
                dx, dy = parts[2].split(",")
                t = (verb, int(ax), int(ay), int(dx), int(dy))
            elif verb == "pick":
                t = (verb, MARKS.index(parts[1]))
            elif verb == "coin":
                t = (verb, int(parts[1]))
            else:
                t = (verb,)
            if len(self._parsed) < 200_000:
                self._parsed[action] = t
        return t


    def _state_from_dict(self, d: Mapping[str, Any]) -> "MipigState":
        from .positions import from_dict

        return from_dict(self, d)


# -- the state -------------------------------------------------------------------
class MipigState(State):
    """A mipig position; see the module docstring for the key and the notation.

    Square names (MP-Q4): ``_o``, outside the key, is the *origin*, the name
    of the key's square ``(0, 0)``; a square's name is its key coordinates
    plus the origin.  Equality and hashing use the key alone, so two states
    whose layouts differ only by a translation are equal (``==``, one hash)
    although they may name their squares differently (``"place p07 2,0"``
    in one is ``"place p07 -1,0"`` in the other).  The solver's
    transposition table (keyed on the key) gives both one value; its
    principal variation and best actions are those of the state solved, in
    its names.  :func:`cardlab.tree` merges them into one node that keeps
    the state reached first: the edges out of it carry that state's names,
    and an edge into it the names of the parent it comes from.  The
    information sets carry the origin (what a player sees names the squares
    of the moves), so such states share no information set.
    """

    __slots__ = ("_o",)


    __slots__ = ("_o",)

    def __init__(self, game: Game, key: tuple, origin: tuple[int, int] = (0, 0)) -> None:
        _set = object.__setattr__  # State.__init__ and the origin in one call (a hot path)
        _set(self, "game", game)
        _set(self, "_k", key)
        _set(self, "_h", None)
        _set(self, "_o", origin)

    @property
    def key(self) -> tuple:
        """The position's key tuple, its fields named by :data:`key.KEY`."""
        return self._k

    def fields(self) -> dict[str, Any]:
        """The key's fields by name (:data:`key.KEY`): what the core's ``encode`` reads."""
        return KEY.named(self._k)

    def _with(self, **changes: Any) -> "MipigState":
        """This position with the named fields changed (same origin)."""
        return MipigState(self.game, KEY.replace(self._k, **changes), self._o)

    @property
    def origin(self) -> tuple[int, int]:
        """MP-Q4: the name ``(x, y)`` of the smallest x and y on the field
        (``(0, 0)`` on an empty field); a square's key coordinates plus this
        are its name."""
        return self._o

    def key_pos(self, x: int, y: int) -> int:
        """The key position (packed) of the square named ``x,y``."""
        ox, oy = self._o
        return (x - ox) * XSTEP + (y - oy)

    def square_name(self, pos: int) -> tuple[int, int]:
        """The name ``(x, y)`` of the key position ``pos``."""
        return (pos >> 5) + self._o[0], (pos & 31) + self._o[1]

    # -- reading the position ------------------------------------------------------
    @property
    def phase(self) -> str:
        return PHASES[self._k[KEY.phase]]

    @property
    def first_player(self) -> int | None:
        first = self._k[KEY.first]
        return None if first < 0 else first

    @property
    def current_player(self) -> int:
        ph = self._k[0]  # KEY.phase
        if ph == END:
            return TERMINAL
        if ph == DEAL or ph == COIN:
            return CHANCE
        return self._k[1]  # KEY.mover

    def hand(self, p: int) -> list[str]:
        return self.hand_ids(self._k[KEY.hand0 + p])

    def hand_ids(self, cards: tuple) -> list[str]:
        ids = self.game.ids
        return [ids[c] for c in cards]

    def cells(self) -> list[tuple[int, int, int, int, int]]:
        """The field as ``(x, y, card, owner, face_up)`` tuples, sorted by x then y;
        ``x, y`` is the square's name (MP-Q4: the first card laid is on ``0, 0``)."""
        ox, oy = self._o
        return [(x + ox, y + oy, c, o, u) for x, y, c, o, u in map(cell_parts, self._k[KEY.field])]

    def face_up_count(self, p: int) -> int:
        """MP-24: own face-up cards on the field."""
        return sum(1 for v in self._k[KEY.field] if v & 1 and (v >> 1) & 1 == p)

    def tiebreak_marks(self, p: int) -> list[int]:
        """MP-25, MP-Q3: the marks of a player's remaining cards."""
        every = self.game.options["tiebreak_cards"] == "all_on_field"
        mark = self.game.mark
        return sorted({mark[(v >> 2) & 1023] for v in self._k[KEY.field]
                       if (v >> 1) & 1 == p and (every or v & 1)})

    # -- moves ---------------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        k = self._k
        ph, p = k[KEY.phase], k[KEY.mover]
        g = self.game
        if ph == PLACE:
            ids = g.ids
            return [f"place {ids[c]} {s}" for c in sorted(set(k[KEY.hand0 + p])) for s in self._spots()]
        if ph == BATTLE:
            return self._attacks(p) or ["pass"]  # MP-18
        if ph == JANKEN:
            return [f"show {g.ids[c]}" for c in sorted(set(k[KEY.hand0 + p]))]
        if ph == TIEBREAK:
            return [f"pick {MARKS[m]}" for m in self.tiebreak_marks(p)]
        return []

    def _spots(self) -> list[str]:
        """MP-6, MP-7: the names of the squares a card may be laid on (cached per field and origin)."""
        g = self.game
        fld = self._k[KEY.field]
        spots = g._spots.get((fld, self._o))
        if spots is None:
            free = g._free.get(fld)
            if free is None:
                free = free_spots(fld)
                if len(g._free) < 500_000:
                    g._free[fld] = free
            ox, oy = self._o
            spots = [f"{x + ox},{y + oy}" for x, y in free]
            if len(g._spots) < 500_000:
                g._spots[(fld, self._o)] = spots
        return spots

    def _attacks(self, p: int) -> list[str]:
        """MP-11, MP-16: player p's face-down cards against each touching opponent card."""
        fld = self._k[KEY.field]
        occ = {v >> SHIFT: v for v in fld}
        ox, oy = self._o
        acts = []
        for v in fld:  # sorted by position
            if not v & 1 and (v >> 1) & 1 == p:  # MP-16 face-down attackers only
                pos = v >> SHIFT
                for d in NEAR:
                    w = occ.get(pos + d)
                    if w is not None and (w >> 1) & 1 != p:  # MP-11 a touching opponent card
                        q = pos + d
                        acts.append(f"attack {(pos >> 5) + ox},{(pos & 31) + oy} {(q >> 5) + ox},{(q & 31) + oy}")
        return acts

    def chance_outcomes(self) -> list[tuple[str, Fraction]]:
        k = self._k
        if k[KEY.phase] == COIN:
            return [("coin 0", Fraction(1, 2)), ("coin 1", Fraction(1, 2))]
        if k[KEY.phase] == DEAL:  # MP-3: no card twice in one hand; with deal='shared' none in both
            g = self.game
            h0, h1 = k[KEY.hand0], k[KEY.hand1]
            used = set(h0) | set(h1) if g.shared else set(h0 if len(h0) < g.n else h1)
            left = [c for c in range(len(g.ids)) if c not in used]
            pr = Fraction(1, len(left))
            return [(f"deal {g.ids[c]}", pr) for c in left]
        return []

    def _apply(self, action: str) -> "MipigState":
        t = self.game.parse(action)
        verb = t[0]
        if verb == "place":
            return self._place(t[1], t[2], t[3])
        if verb == "attack":
            return self._attack(self.key_pos(t[1], t[2]), self.key_pos(t[3], t[4]))
        if verb == "pass":  # MP-18
            return self._with(mover=1 - self._k[KEY.mover])
        if verb == "deal":
            return self._deal(t[1])
        if verb == "coin":  # MP-Q2 fallback
            return self._with(phase=PLACE, mover=t[1], first=t[1], round=0, pending=-1)
        if verb == "show":
            return self._show(t[1])
        if verb == "pick":
            return self._pick(t[1])
        raise AssertionError(action)  # pragma: no cover (apply() checked it)

    def _place(self, c: int, nx: int, ny: int) -> "MipigState":
        """MP-5 … MP-7: lay card ``c`` face down on the square named ``nx,ny``."""
        k, o = self._k, self._o
        p = k[KEY.mover]
        hand = list(k[KEY.hand0 + p])
        hand.remove(c)
        x, y = nx - o[0], ny - o[1]  # the square's name in key coordinates
        cells = list(k[KEY.field])
        if x < 0 or y < 0:  # MP-Q4: keep the smallest coordinates at 0, the names stay
            d = ((-x if x < 0 else 0) * XSTEP + (-y if y < 0 else 0)) << SHIFT
            cells = [v + d for v in cells]
            o = (min(nx, o[0]), min(ny, o[1]))
            x, y = max(x, 0), max(y, 0)
        cells.append(cell(x, y, c, p, 0))
        cells.sort()
        hands = [k[KEY.hand0], k[KEY.hand1]]
        hands[p] = tuple(hand)
        if hands[1 - p] or hands[p]:
            return MipigState(self.game, KEY.replace(k, mover=1 - p, hand0=hands[0], hand1=hands[1],
                                                     field=tuple(cells)), o)
        # MP-9, MP-10: both hands empty, the battle starts with the first player
        first = k[KEY.first]
        return self._battle_next(first, tuple(cells), k[KEY.grave0], k[KEY.grave1], first, o)

    def _deal(self, c: int) -> "MipigState":
        """MP-3: card ``c`` to player 0's hand until it is full, then to player 1's."""
        g, k = self.game, self._k
        h0, h1 = k[KEY.hand0], k[KEY.hand1]
        if len(h0) < g.n:
            h0 = tuple(sorted(h0 + (c,)))
        else:
            h1 = tuple(sorted(h1 + (c,)))
        if len(h1) == g.n:
            return g._after_deal(h0, h1)
        return MipigState(g, KEY.replace(k, mover=0 if len(h0) < g.n else 1, first=-1, how=0, hand0=h0, hand1=h1))

    def _show(self, c1: int) -> "MipigState":
        """MP-4 simultaneous: player 0 picks, then player 1 unseen; MP-Q2 a tie is picked again."""
        g, k = self.game, self._k
        if k[KEY.mover] == 0:
            return self._with(mover=1, pending=c1)
        c0 = k[KEY.pending]
        s0, s1 = k[KEY.shown0], k[KEY.shown1]
        if not g.options["open_hands"]:  # the shown cards become known (MP-Q6)
            s0 = tuple(sorted(set(s0) | {c0}))
            s1 = tuple(sorted(set(s1) | {c1}))
        m0, m1 = g.mark[c0], g.mark[c1]
        after = dict(round=0, pending=-1, shown0=s0, shown1=s1, outcome=None)
        if m0 == m1:  # MP-Q2: pick again, up to janken_rounds (no cap: the same position again)
            r = k[KEY.round] + 1 if g.rounds is not None else 0
            if not rules.tie_can_break(m0, {g.mark[c] for c in k[KEY.hand0] + k[KEY.hand1]}):  # MP-Q2: a coin
                return self._with(phase=COIN, mover=0, first=-1, how=HOW_LOCKED, **after)
            if r >= g.cap:
                return self._with(phase=COIN, mover=0, first=-1, how=HOW_ROUNDS, **after)
            return self._with(phase=JANKEN, mover=0, **dict(after, round=r))
        f = 0 if rules.janken_result(m0, m1) > 0 else 1
        return self._with(phase=PLACE, mover=f, first=f, how=HOW_JANKEN, **after)

    def _pick(self, m1: int) -> "MipigState":
        """MP-25, MP-Q3: the end janken, player 0 then player 1 unseen; a tie is picked again."""
        g, k = self.game, self._k
        if k[KEY.mover] == 0:
            return self._with(mover=1, pending=m1)
        m0 = k[KEY.pending]
        if m0 != m1:
            return self._with(phase=END, pending=-1, outcome=rules.janken_result(m0, m1))
        r = k[KEY.round] + 1 if g.rounds is not None else 0
        if r >= g.cap or not rules.tie_can_break(m0, set(self.tiebreak_marks(0)) | set(self.tiebreak_marks(1))):
            return self._with(phase=END, round=r, pending=-1, outcome=0)  # MP-Q3: a draw
        return self._with(phase=TIEBREAK, mover=0, round=r, pending=-1, outcome=None)

    def fight(self, occ: dict, apos: int, dpos: int) -> tuple:
        """The battle of ``apos`` against ``dpos`` on the field ``occ`` (pos -> cell):
        ``(result, a_num, d_num, a_bonus, d_bonus, a_count, d_count, janken_used)``
        with result 1 attacker wins, -1 defender wins, 0 draw (MP-12 … MP-14, MP-19 … MP-22)."""
        g = self.game
        va, vd = occ[apos] | 1, occ[dpos] | 1  # MP-12 both face up
        ca, cd = (va >> 2) & 1023, (vd >> 2) & 1023
        pa, pd = (va >> 1) & 1, (vd >> 1) & 1
        attr = g.attr
        aa, ad = attr[ca], attr[cd]
        na = nd = 0
        for pos, v in occ.items():  # MP-21: counted after the reveal, MP-22 own face-up only
            if v & 1 or pos == apos or pos == dpos:
                o = (v >> 1) & 1
                a = attr[(v >> 2) & 1023]
                if o == pa and a == aa:
                    na += 1
                if o == pd and a == ad:
                    nd += 1
        ea, ed, _d = DIRS[dpos - apos]
        a_num, d_num = g.edge[ca][ea], g.edge[cd][ed]
        ba, bd = rules.attribute_bonus(na), rules.attribute_bonus(nd)  # MP-20
        res = rules.battle_result(a_num + ba, d_num + bd, g.mark[ca], g.mark[cd])  # MP-13, MP-14
        return res, a_num, d_num, ba, bd, na, nd, a_num + ba == d_num + bd

    def _attack(self, apos: int, dpos: int) -> "MipigState":
        """MP-11 … MP-15: the battle, its loser to the graveyard, and the next turn."""
        k = self._k
        occ = {v >> SHIFT: v for v in k[KEY.field]}
        res = self.fight(occ, apos, dpos)[0]
        graves = [k[KEY.grave0], k[KEY.grave1]]
        occ[apos] |= 1
        occ[dpos] |= 1
        origin = self._o
        if res:  # MP-15: the loser goes to its owner's graveyard
            v = occ.pop(dpos if res > 0 else apos)
            o = (v >> 1) & 1
            graves[o] = tuple(sorted(graves[o] + ((v >> 2) & 1023,)))
            fld, mx, my = normalise(list(occ.values()))
            if mx or my:  # shifted: the key positions changed, the names did not (MP-Q4)
                occ = None
                origin = (origin[0] + mx, origin[1] + my)
        else:
            fld = tuple(sorted(occ.values()))
        return self._battle_next(1 - k[KEY.mover], fld, graves[0], graves[1], k[KEY.first], origin, occ)

    def _battle_next(self, mover: int, fld: tuple, g0: tuple, g1: tuple, first: int,
                     origin: tuple[int, int], occ: dict | None = None) -> "MipigState":
        """The battle continues with ``mover`` (who may have to pass, MP-18) or ends (MP-23)."""
        s = MipigState(self.game, KEY.replace(self._k, phase=BATTLE, mover=mover, first=first, hand0=(), hand1=(),
                                              field=fld, grave0=g0, grave1=g1, round=0, pending=-1, outcome=None),
                       origin)
        if attackers(fld, occ) != (False, False):
            return s
        return s.finished()

    def finished(self) -> "MipigState":
        """MP-23 … MP-25: the battle over, count own face-up cards; equal counts go
        to the janken tiebreak (MP-Q3)."""
        g = self.game
        c0, c1 = self.face_up_count(0), self.face_up_count(1)
        end = dict(phase=END, mover=0, round=0, pending=-1)
        if g.options["payoff"] == "score":
            return self._with(outcome=c0 - c1, **end)
        if c0 != c1:
            return self._with(outcome=rules.count_result(c0, c1), **end)
        mode = g.options["tiebreak"]
        if mode == "draw":
            return self._with(outcome=0, **end)
        m0, m1 = self.tiebreak_marks(0), self.tiebreak_marks(1)
        if mode == "value":
            v = rules.janken_value(m0, m1, g.rounds)
            return self._with(outcome=int(v) if v.denominator == 1 else v, **end)
        if rules.janken_settled(m0, m1):  # MP-Q3: no pick can break the tie
            return self._with(outcome=0, **end)
        return self._with(phase=TIEBREAK, mover=0, round=0, pending=-1, outcome=None)

    def returns(self) -> list:
        o = self._k[KEY.outcome]
        if self._k[KEY.phase] != END or o is None:
            return [0, 0]
        return [o, -o]

    # -- simultaneous choices (MP-4, MP-Q2, MP-Q3, MP-25) -----------------------------------
    def simultaneous(self) -> tuple[int, ...]:
        """``(0, 1)`` where a janken starts (MP-4 同時に, MP-25): player 0 picks,
        then player 1 without seeing it, open hands or not."""
        k = self._k
        return (0, 1) if (k[KEY.phase] == JANKEN or k[KEY.phase] == TIEBREAK) and k[KEY.mover] == 0 else ()

    def simultaneous_start(self) -> "MipigState | None":
        """Player 1's half of a janken: the position before player 0's pick."""
        k = self._k
        if (k[KEY.phase] == JANKEN or k[KEY.phase] == TIEBREAK) and k[KEY.mover] == 1:
            return self._with(mover=0, pending=-1)
        return None

    # -- what players see (MP-Q6, :mod:`.seen`) ----------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return seen.observation(self, player)

    def information_set(self, player: int) -> tuple:
        """What ``player`` knows, with the origin (MP-Q4): see :func:`.seen.information_set`."""
        return seen.information_set(self, player)

    def public_action(self, action: str, viewer: int) -> str:
        """What ``viewer`` may know of ``action`` (MP-Q6): see :func:`.seen.public_action`.

        >>> import cardlab
        >>> s = cardlab.load("mipig", hand_size=2, first_player=0).new_initial_state(seed=1)
        >>> a = s.legal_actions()[0]
        >>> a, s.public_action(a, 0), s.public_action(a, 1)
        ('place p05 0,0', 'place p05 0,0', 'place ?? 0,0')
        """
        return seen.public_action(self, action, viewer)

    def hidden(self, player: int) -> Hidden | None:
        """What ``player`` cannot see (MP-Q6): see :func:`.seen.hidden`."""
        return seen.hidden(self, player)

    def possible(self) -> bool:
        """Whether this position can be reached from its own cards: see :func:`.seen.possible`."""
        return seen.possible(self)

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "MipigState":
        """Deal anew every card ``player`` cannot see: see :func:`.seen.redeal`."""
        return seen.redeal(self, player, seed)

    def heuristic(self, player: int) -> float:
        """Face-up lead, plus a little for own face-down cards that can still attack."""
        if self._k[KEY.phase] == END:
            return 100.0 * float(self.returns()[player])
        occ = {v >> SHIFT: v for v in self._k[KEY.field]}
        ready = 0
        for pos, v in occ.items():
            if not v & 1 and (v >> 1) & 1 == player:
                if any(w is not None and (w >> 1) & 1 != player for w in (occ.get(pos + d) for d in NEAR)):
                    ready += 1
        return self.face_up_count(player) - self.face_up_count(1 - player) + 0.3 * ready

    # -- saving and showing ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        k = self._k
        g = self.game
        ids = g.ids
        pending = None
        if k[KEY.pending] >= 0:
            pending = ids[k[KEY.pending]] if k[KEY.phase] == JANKEN else MARKS[k[KEY.pending]]
        return {
            "game": "mipig",
            "options": g.options_dict(),
            "phase": PHASES[k[KEY.phase]],
            "to_move": k[KEY.mover],
            "first_player": self.first_player,
            "decided_by": HOWS[k[KEY.how]],
            "hands": [self.hand(0), self.hand(1)],
            "field": [{"x": x, "y": y, "owner": o, "card": ids[c], "face_up": bool(u)}
                      for x, y, c, o, u in self.cells()],
            "graveyards": [self.hand_ids(k[KEY.grave0]), self.hand_ids(k[KEY.grave1])],
            "janken_round": k[KEY.round],
            "pending": pending,
            "shown": [self.hand_ids(k[KEY.shown0]), self.hand_ids(k[KEY.shown1])],
            "outcome": None if k[KEY.outcome] is None else str(k[KEY.outcome]),
        }

    def explain_battle(self, action: str) -> Battle:
        """The structured explanation of an attack action here (before it happens): :func:`.text.explain_battle`."""
        return text.explain_battle(self, action)

    def explain(self, action: str) -> str:
        return text.explain(self, action)

    def __str__(self) -> str:
        return text.state_text(self)
