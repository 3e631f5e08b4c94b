"""What each player of mipig sees (MP-Q6): the observation, the
information set, the public form of a move, and the unseen cards
(:func:`hidden`, :func:`redeal`) with the check that a filling of them
could have been played (:func:`possible`).  The State's methods of the same
names call these."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...core import Hidden, make_rng
from . import rules
from .key import (CARD_MASK, END, HOW_JANKEN, HOW_LOCKED, HOW_ROUNDS, HOWS, JANKEN, KEY, PHASES, SHIFT,
                  TIEBREAK, UNKNOWN, cell_parts)
from .rules import MARKS

__all__ = ["observation", "information_set", "public_action", "hidden", "possible", "redeal"]


def sees_pending(player: int) -> bool:
    """Player 0's janken pick is theirs alone until player 1 has picked too
    (MP-4, MP-Q3): open hands show cards, never a choice not yet made."""
    return player == 0


def field_view(s: Any, player: int) -> tuple:
    if s.game.options["open_hands"]:
        return s.key[KEY.field]
    return tuple(v if v & 1 or (v >> 1) & 1 == player else v | CARD_MASK for v in s.key[KEY.field])


def observation(s: Any, player: int) -> dict[str, Any]:
    k = s.key
    g = s.game
    ids = g.ids
    o = 1 - player
    open_hands = g.options["open_hands"]
    fld = []
    ox, oy = s.origin
    for v in field_view(s, player):
        x, y, c, owner, up = cell_parts(v)
        fld.append({"x": x + ox, "y": y + oy, "owner": owner, "face_up": bool(up),
                    "card": None if c == UNKNOWN else ids[c]})
    pending: Any = None
    if k[KEY.pending] >= 0:
        if not sees_pending(player):
            pending = "picked (hidden)"
        else:
            pending = ids[k[KEY.pending]] if k[KEY.phase] == JANKEN else MARKS[k[KEY.pending]]
    return {
        "phase": PHASES[k[KEY.phase]],
        "to_move": k[KEY.mover],
        "first_player": None if k[KEY.first] < 0 else k[KEY.first],
        "decided_by": HOWS[k[KEY.how]],
        "hand": s.hand(player),
        "opponent_hand": s.hand(o) if open_hands else len(k[KEY.hand0 + o]),
        "field": fld,
        "graveyards": [s.hand_ids(k[KEY.grave0]), s.hand_ids(k[KEY.grave1])],
        "janken_round": k[KEY.round],
        "pending_pick": pending,
        "shown": [s.hand_ids(k[KEY.shown0]), s.hand_ids(k[KEY.shown1])],
        "face_up": [s.face_up_count(0), s.face_up_count(1)],
        "outcome": None if k[KEY.outcome] is None else str(k[KEY.outcome]),
    }


def information_set(s: Any, player: int) -> tuple:
    """What ``player`` knows, with the origin (MP-Q4): the square names of
    the moves depend on it, and it depends only on where cards were laid
    and which left the field, which both players see."""
    k = s.key
    if s.game.options["open_hands"]:
        return (k if sees_pending(player) or k[KEY.pending] < 0 else KEY.replace(k, pending=True)) + (s.origin,)
    o = 1 - player
    pending = k[KEY.pending] if sees_pending(player) else k[KEY.pending] >= 0
    return (k[KEY.phase], k[KEY.mover], k[KEY.first], k[KEY.how], k[KEY.hand0 + player], len(k[KEY.hand0 + o]), field_view(s, player),
            k[KEY.grave0], k[KEY.grave1], k[KEY.round], pending, k[KEY.shown0], k[KEY.shown1], k[KEY.outcome], player, s.origin)


def public_action(s: Any, action: str, viewer: int) -> str:
    """What ``viewer`` may know of ``action`` (MP-Q6), from its kind alone:

    - ``place ?? x,y``: a card is laid face down (裏向き, MP-5, MP-7) on a
      square everybody sees; its orientation shows whose it is (MP-8);
    - ``deal ??``: a card dealt to the other player's hand 手札 (MP-3);
    - ``show ??`` and ``pick ??``: player 0's pick of a simultaneous
      janken, the first-player one (同時に見せましょう, MP-4) or the end one
      (MP-25, MP-Q3), unseen until player 1 picks too; player 1's pick
      reveals both, so it is public;
    - attacks, passes and coins are public: an attack turns both cards
      face up before everybody (表向きにします, MP-11, MP-12), a pass
      has no card (MP-18).

    An actor knows their own move; with ``open_hands`` every move is
    public but player 0's janken pick, still a choice not yet made for
    player 1 (MP-4, MP-Q3).

    >>> import cardlab
    >>> s = cardlab.load("mipig", hand_size=2, first_player=0).new_initial_state(seed=1)
    >>> a = s.legal_actions()[0]
    >>> a, s.public_action(a, 0), s.public_action(a, 1)
    ('place p05 0,0', 'place p05 0,0', 'place ?? 0,0')
    """
    k = s.key
    words = action.split()
    if viewer == s.current_player:
        return action
    if words[0] in ("show", "pick") and k[KEY.mover] == 0:
        return f"{words[0]} ??"
    if s.game.options["open_hands"]:
        return action
    if words[0] == "place":
        return f"place ?? {words[2]}"
    if words[0] == "deal":
        owner = 0 if len(k[KEY.hand0]) < s.game.n else 1
        return action if viewer == owner else "deal ??"
    if words[0] in ("show", "pick") and k[KEY.mover] == 0:
        return f"{words[0]} ??"
    return action


def hidden(s: Any, player: int) -> Hidden | None:
    """What ``player`` cannot see (MP-Q6), in this order: player 0's
    pending card of the first-player janken (for player 1, MP-4), the
    rest of the opponent's hand 手札, each face-down opponent card on the
    field (by square), player 0's pending mark of the end janken (for
    player 1, MP-Q3: the three marks are three more "cards", one picked),
    and last the cards dealt to nobody (a random deal) with the two marks
    not picked.  Own cards, face-up cards and graveyards 墓地 stay where
    they are; a card the opponent showed in the janken (MP-4) is theirs,
    in the hand or face down.

    The unseen cards of a random deal (MP-3): with ``deal="own"`` the
    opponent's own copy of the card set less the opponent's cards seen
    (so they may be cards ``player`` holds too); with ``deal="shared"``
    the one card set less every card seen, ``player``'s own included.

    ``build`` returns ``None`` for a filling the player can rule out
    (:meth:`possible`): a shown card dealt to nobody, marks that
    contradict how the first player was decided (MP-Q2), an end janken
    that does not fit the marks (MP-25, MP-Q3).  Every filling weighs
    the same: a pending card is any card of the hand, a pending mark any
    legal mark, each as likely (with ``tiebreak_cards='all_on_field'``
    the legal marks may depend on unseen cards: a deal with more of them
    then weighs more).
    """
    g = s.game
    if g.options["open_hands"]:
        return None
    k = s.key
    o = 1 - player
    fld = k[KEY.field]
    slots, visible, mine = sides(s, player)
    seen = Counter(visible)
    if g.fixed_hands is not None:  # the ready hands are known to both: only where the cards are is not
        left = Counter(g.fixed_hands[o])
        left.subtract(seen)
        cards = sorted(left.elements())
    else:  # MP-3: the rest of the opponent's own copy (deal='own'), or of the one shared set
        cards = [c for c in range(len(g.ids)) if c not in seen and not (g.shared and c in mine)]
    pick_card = k[KEY.phase] == JANKEN and k[KEY.pending] >= 0 and o == 0
    pick_mark = k[KEY.phase] == TIEBREAK and k[KEY.pending] >= 0 and o == 0
    n_hand = len(k[KEY.hand0 + o])
    places = [("janken pick", 1)] if pick_card else []
    places.append(("opponent hand", n_hand - pick_card))
    places += [("face down {},{}".format(*s.square_name(fld[i] >> SHIFT)), 1) for i in slots]
    if pick_mark:
        places.append(("end janken pick", 1))
    rest = len(cards) - n_hand - len(slots) + 2 * pick_mark
    if rest or g.fixed_hands is None:
        places.append(("dealt to nobody" if g.fixed_hands is None else "marks not picked", rest))

    def build(contents: tuple[tuple, ...]) -> Any:
        parts = iter(contents)
        new = list(k)
        if pick_card:
            (new[KEY.pending],) = next(parts)
            new[KEY.hand0 + o] = tuple(sorted(next(parts) + (new[KEY.pending],)))
        else:
            new[KEY.hand0 + o] = next(parts)
        placed = [next(parts)[0] for _ in slots]
        if pick_mark:
            (mark,) = next(parts)
            if not isinstance(mark, str) or any(isinstance(c, str) for c in placed):
                return None  # a mark among the cards, or a card picked as a mark
            new[KEY.pending] = MARKS.index(mark)
        cells = list(fld)
        for i, c in zip(slots, placed):
            cells[i] = (cells[i] & ~CARD_MASK) | (c << 2)
        new[KEY.field] = tuple(sorted(cells))
        t = g.state_of(tuple(new), s.origin)
        return t if t.possible() else None

    return Hidden(tuple(cards) + (MARKS if pick_mark else ()), tuple(places), build)


def sides(s: Any, player: int) -> tuple[list[int], list[int], set[int]]:
    """What ``player`` knows of the cards, for :meth:`hidden` and
    :meth:`redeal`: the field indices of the opponent's face-down cards,
    the opponent's cards seen (face up on the field, shown in the
    first-player janken, MP-4) and every card of ``player``'s own."""
    k, o = s.key, 1 - player
    fld = k[KEY.field]
    slots = [i for i, v in enumerate(fld) if not v & 1 and (v >> 1) & 1 == o]
    visible = [(v >> 2) & 1023 for v in fld if v & 1 and (v >> 1) & 1 == o] + list(k[KEY.grave0 + o])
    mine = set(k[KEY.hand0 + player]) | set(k[KEY.grave0 + player]) | {(v >> 2) & 1023 for v in fld if (v >> 1) & 1 == player}
    return slots, visible, mine


def possible(s: Any) -> bool:
    """Whether this position can be reached from its own cards, for the
    checks an information set leaves out: the cards shown in the
    first-player janken belong to their players (MP-4); the marks of the
    two hands allowed a janken winner exactly when a janken was played
    (MP-Q2); the end janken fits the marks of the remaining cards (a
    pending mark is one of them, a tied round needs a mark in common, a
    win a mark that beats, MP-25, MP-Q3); the rest of the end follows
    from the cards (MP-23, MP-24).  :meth:`hidden` and :meth:`redeal`
    keep only such positions."""
    k = s.key
    g = s.game
    own = [set(k[KEY.hand0 + p]) | set(k[KEY.grave0 + p]) | {(v >> 2) & 1023 for v in k[KEY.field] if (v >> 1) & 1 == p}
           for p in (0, 1)]
    if not (set(k[KEY.shown0]) <= own[0] and set(k[KEY.shown1]) <= own[1]):
        return False
    marks = {g.mark[c] for c in own[0] | own[1]}
    locked = rules.locked({g.mark[c] for c in own[0]}, {g.mark[c] for c in own[1]})
    if (k[KEY.how] == HOW_LOCKED and not locked) or ((k[KEY.phase] == JANKEN or k[KEY.how] in (HOW_JANKEN, HOW_ROUNDS)) and len(marks) < 2):
        return False
    if k[KEY.how] == HOW_LOCKED and len(marks) > 1 and not (k[KEY.shown0] or k[KEY.shown1]) and not g.options["open_hands"]:
        return False  # a tie that cannot break, with more than one mark: a janken was played
    if k[KEY.phase] not in (TIEBREAK, END):
        return True
    end = s.finished()  # how the battle ended with these cards
    if end.key[KEY.phase] == END:
        return end.key == k
    if k[KEY.phase] == END and k[KEY.mover] == 0:  # it ended without the janken that these cards call for
        return False
    m0, m1 = s.tiebreak_marks(0), s.tiebreak_marks(1)
    if k[KEY.round] and not set(m0) & set(m1):
        return False
    if k[KEY.phase] == TIEBREAK:
        return k[KEY.pending] < 0 or k[KEY.pending] in m0
    won = k[KEY.outcome]
    if won == 0:  # a draw: after the last allowed tie, or a tie that cannot break (MP-Q3)
        return (g.rounds is not None and k[KEY.round] == g.rounds) or rules.locked(m0, m1)
    return any(rules.janken_beats(a, b) if won > 0 else rules.janken_beats(b, a) for a in m0 for b in m1)


def redeal(s: Any, player: int, seed: int | random.Random | None = None) -> Any:
    """Deal anew every card ``player`` cannot see: the opponent's hand and
    face-down cards (keeping the cards the opponent showed in the janken,
    MP-4), and the opponent's pending janken pick.  A deal the player
    could rule out (:meth:`possible`) is dealt again."""
    if s.game.options["open_hands"]:
        return s
    rng = make_rng(seed)
    for _try in range(1000):
        t = deal_unseen(s, player, rng)
        if t.possible():
            return t
    return s  # pragma: no cover (the pool is narrowed so that nearly every deal fits)


def deal_unseen(s: Any, player: int, rng: random.Random) -> Any:
    """One random deal of what ``player`` cannot see (:meth:`redeal`)."""
    g = s.game
    k = list(s.key)
    o = 1 - player
    fld = list(k[KEY.field])
    slots, visible, mine = sides(s, player)
    n_hand = len(k[KEY.hand0 + o])
    need = n_hand + len(slots)
    if g.fixed_hands is not None:
        left = Counter(g.fixed_hands[o])
        left.subtract(visible)
        chosen = list(left.elements())
    else:
        known = set(visible)
        forced = [c for c in k[KEY.shown0 + o] if c not in known]
        pool = [c for c in range(len(g.ids))  # MP-3: own copies, or the rest of one shared set
                if c not in known and c not in forced and not (g.shared and c in mine)]
        if k[KEY.how] == HOW_LOCKED:  # a tie that could not break: the opponent's marks are K or the one K beats
            marks = {g.mark[c] for c in mine}
            fits = {m for K in marks if not rules.tie_can_break(K, marks)
                    for m in range(3) if m == K or rules.janken_beats(K, m)}
            pool = [c for c in pool if g.mark[c] in fits]
        chosen = forced + rng.sample(pool, need - len(forced))
    rng.shuffle(chosen)
    k[KEY.hand0 + o] = tuple(sorted(chosen[:n_hand]))
    for i, c in zip(slots, chosen[n_hand:]):
        fld[i] = (fld[i] & ~CARD_MASK) | (c << 2)
    k[KEY.field] = tuple(sorted(fld))
    if k[KEY.pending] >= 0 and o == 0 and k[KEY.mover] == 1:  # the opponent's pending pick, unseen
        if k[KEY.phase] == JANKEN:
            k[KEY.pending] = rng.choice(sorted(set(k[KEY.hand0])))
        elif k[KEY.phase] == TIEBREAK:
            t = g.state_of(tuple(k), s.origin)
            k[KEY.pending] = rng.choice(t.tiebreak_marks(0))
    return g.state_of(tuple(k), s.origin)

