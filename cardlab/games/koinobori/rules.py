"""Koi-koi Nobori's rules as small pure functions on small values.

Each function cites its rule ids in ``docs/rules/koinobori.md``.  Values:
a zone is a tuple of counts (``hand``, ``deck``: by :data:`CARDS`;
``field``: by :data:`COLOURS`; ``nobori``: by :data:`KINDS`); a card or a
nobori kind is its index in those tuples.  The State (:mod:`.state`) and
the compact core (:mod:`.core`) both call these functions through the
module (``rules.score(...)``), so a rule changed here changes both.

>>> can_act(0, (1, 0, 0), (1, 0, 0, 0, 0))   # a higoi pairs with the field's higoi
True
>>> score((1, 0, 1, 0, 0, 0), (2, 1, 3), (2, 1, 3), [], koikoi_won=True)
10
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...layout import Layout

#: card kinds, in the order of every count tuple (KN-1, KN-2, KN-3)
CARDS = ("higoi", "aokoi", "magoi", "fukinagashi", "kabutogaeshi")
COLOURS = CARDS[:3]  # KN-1 the carp (こい) colours
F, K = 3, 4  # fukinagashi (KN-2), kabutogaeshi (KN-3)
#: nobori kinds: a plain pair of one colour, or fukinagashi + that colour (KN-9)
KINDS = COLOURS + tuple(f"fuki+{c}" for c in COLOURS)

# stages of the turn
FIRST, DEAL, TURN, DRAW_HAND, REFILL, DRAW_PLAY, FUKI, KOIKOI, END = (
    "first", "deal", "turn", "draw_hand", "refill", "draw_play", "fuki", "koikoi", "end")
STAGES = (FIRST, DEAL, TURN, DRAW_HAND, REFILL, DRAW_PLAY, FUKI, KOIKOI, END)
CHANCE_STAGES = {FIRST, DEAL, DRAW_HAND, REFILL, DRAW_PLAY}

#: the fields of a position (the State's key, KN-Q8: every zone a tuple of
#: counts): the stage and the player whose turn it is, the zones, the
#: kabutogaeshi used and the koi-koi count at the call of each player, the
#: koi-koi winner (-1: none) and what follows a capture waiting at stage
#: 'fuki' or 'koikoi' ('', 'draw_hand' or 'refill', KN-Q3)
KEY = Layout("stage", "mover", "deck", "field", "hand0", "hand1", "nobori0", "nobori1",
             "kabutogaeshi_used", "koikoi", "koikoi_won", "then")

HAND_SIZE = 3  # KN-7 three cards dealt to each hand
FIELD_SIZE = 3  # KN-4, KN-8 the field holds three carp
KOIKOI_AT = 3  # KN-15 koi-koi is called at the third nobori
KOIKOI_BONUS = 5  # KN-15

#: what a new nobori does to a koi-koi (KN-15, KN-Q7): see :func:`koikoi_after_nobori`
GO_ON, CALL, WON, FAILED = 0, 1, 2, 3


# -- pairs and moves -----------------------------------------------------------
def nobori_cards(kind: int) -> tuple[int, ...]:
    """KN-8, KN-9: the cards a nobori of ``kind`` holds (counts by CARDS):
    two carp of its colour, or one carp and a fukinagashi."""
    cards = [0] * 5
    cards[kind % 3] += 1
    cards[kind % 3 if kind < 3 else F] += 1
    return tuple(cards)


def pairs(hand: Sequence[int], field: Sequence[int]) -> list[int]:
    """KN-8, KN-2: the nobori kinds a hand can make with the field, plain
    pairs first, then fukinagashi pairs (two fukinagashi never pair)."""
    kinds = [c for c in range(3) if hand[c] and field[c]]
    if hand[F]:
        kinds += [3 + c for c in range(3) if field[c]]
    return kinds


def can_act(deck_size: int, field: Sequence[int], hand: Sequence[int]) -> bool:
    """KN-Q4 "can make a nobori": a hand card pairs with a field card, or the
    deck is not empty and the hand holds a carp to play (KN-10); a
    kabutogaeshi alone does not count."""
    if any(hand[c] and field[c] for c in range(3)):
        return True
    if hand[F] and any(field):
        return True
    return bool(deck_size and (hand[0] or hand[1] or hand[2]))


def game_over(deck_size: int, field: Sequence[int], hand0: Sequence[int], hand1: Sequence[int]) -> bool:
    """KN-12, KN-Q4, KN-Q12: the game is over when neither player can make a nobori."""
    return not can_act(deck_size, field, hand0) and not can_act(deck_size, field, hand1)


def turn_moves(deck_size: int, field: Sequence[int], hand: Sequence[int],
               opponent_nobori: Sequence[int]) -> list[tuple[str, int]]:
    """The moves of a turn in canonical order, as ``(verb, index)``: make a
    nobori (KN-8, KN-9: the kind), play a carp and draw (KN-10: the colour,
    only while the deck has a card), kabutogaeshi against a nobori the
    opponent holds (KN-11, KN-Q6: the kind); ``("pass", -1)`` when nothing
    else is possible (KN-Q4)."""
    moves = [("nobori", k) for k in pairs(hand, field)]
    if deck_size:
        moves += [("play", c) for c in range(3) if hand[c]]
    if hand[K]:
        moves += [("kabuto", k) for k in range(6) if opponent_nobori[k]]
    return moves or [("pass", -1)]


def draw_capture(card: int, field: Sequence[int]) -> list[int]:
    """KN-10, KN-2: the nobori kinds the card drawn after a play makes with
    the field: none (it goes to the hand), one (captured at once), or
    several (a fukinagashi: the player chooses the carp)."""
    if card < 3:
        return [card] if field[card] else []
    if card == F:
        return [3 + c for c in range(3) if field[c]]
    return []


# -- the deal and the refill ---------------------------------------------------
def dealt_to(first: int, first_hand_size: int) -> int:
    """KN-7: the first player is dealt 3 cards, then the second."""
    return first if first_hand_size < HAND_SIZE else 1 - first


def field_full(field: Sequence[int]) -> bool:
    """KN-8 (2): a field of 3 cards or more needs no refill."""
    return sum(field) >= FIELD_SIZE


def can_refill(deck: Sequence[int]) -> bool:
    """KN-8 (2), KN-Q5: the refill reveals until a carp; with no carp in the deck it stops."""
    return bool(deck[0] or deck[1] or deck[2])


# -- koi-koi -------------------------------------------------------------------
def koikoi_after_nobori(count: int, called_at: int, opponent_called: bool) -> int:
    """KN-15, KN-Q7: what a new nobori of a player does, with the koikoi
    option: the opponent's koi-koi fails (:data:`FAILED`, the game ends, no
    bonus); a nobori beyond the count at the player's own call wins
    (:data:`WON`, the game ends with the bonus); the third nobori without a
    call asks for agari or koi-koi (:data:`CALL`); else :data:`GO_ON`.
    ``count``: the player's nobori with the new one; ``called_at``: their
    count when they called koi-koi (0: no call)."""
    if opponent_called:
        return FAILED
    if called_at:
        return WON if count > called_at else GO_ON
    return CALL if count == KOIKOI_AT else GO_ON


# -- the score -----------------------------------------------------------------
def role_met(requires: Mapping[str, int], nobori: Sequence[int]) -> bool:
    """KN-14, KN-Q2: a role's conditions on the nobori counts: some of each
    colour (a fukinagashi pair counts as its carp), in all ("nobori"), with a
    fukinagashi ("fukinagashi")."""
    have = {c: nobori[i] + nobori[i + 3] for i, c in enumerate(COLOURS)}
    have["nobori"] = sum(nobori)
    have["fukinagashi"] = nobori[3] + nobori[4] + nobori[5]
    return all(have[k] >= v for k, v in requires.items())


def nobori_points(nobori: Sequence[int], points: Sequence[int], fuki_points: Sequence[int]) -> int:
    """KN-13: points per nobori by colour; a fukinagashi pair scores its own
    points by its carp's colour (KN-9, KN-Q9: by default the carp's)."""
    return sum(nobori[i] * points[i] + nobori[i + 3] * fuki_points[i] for i in range(3))


def koikoi_bonus(won: bool) -> int:
    """KN-15: +5 for the player whose koi-koi succeeds."""
    return KOIKOI_BONUS if won else 0


def score(nobori: Sequence[int], points: Sequence[int], fuki_points: Sequence[int],
          roles: Sequence[Mapping[str, Any]], koikoi_won: bool) -> int:
    """KN-13, KN-14, KN-15: the nobori points, every role met, the koi-koi bonus."""
    total = nobori_points(nobori, points, fuki_points)
    total += sum(r["bonus"] for r in roles if role_met(r["requires"], nobori))
    return total + koikoi_bonus(koikoi_won)


def payoff(difference: int, kind: str) -> int:
    """KN-13, KN-Q10: player 0's payoff from the score difference: the
    difference itself (``"score"``) or 1, -1, 0 (``"win"``; equal is a draw)."""
    if kind == "win":
        return (difference > 0) - (difference < 0)
    return difference


def best_score(counts: Sequence[int], points: Sequence[int], fuki_points: Sequence[int],
               roles: Sequence[Mapping[str, Any]], koikoi: bool) -> int:
    """A bound on a score: each nobori holds ≥ 1 carp, worth at most the
    better of its two ways to score (KN-13, KN-Q9), every role (KN-14), the
    koi-koi bonus (KN-15)."""
    best = sum(c * max(p, f) for c, p, f in zip(counts, points, fuki_points))
    return best + sum(r["bonus"] for r in roles) + (koikoi_bonus(True) if koikoi else 0)
