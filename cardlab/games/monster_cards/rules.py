"""MONSTER CARDS' rules as small pure functions (docs/rules/monster_cards.md).

Each function takes small values (rarities, counts, tuples of signs) and
cites its rule ids; the State (:mod:`.state`), the battle (:mod:`.battle`)
and the compact core (:mod:`.core`) call them through this module
(``rules.scale(...)``), so that a rule changed here changes all of them.
Nothing here knows a State, a string for people or a picture.

>>> short_hand("SR", "C"), affinity_marks((0, -1, 0, 1)), scale(-2, 0), outcome(scale(-2, 0))
(-2, (0, -1, 0, 1), 2, 'success')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

#: MC-2 the rarities and their points of advantage in battle
RARITIES = ("C", "R", "SR", "UR")
RARITY_POINTS = {"C": 1, "R": 2, "SR": 3, "UR": 4}
#: MC-4 the skill level of a rarity: 1 plain, 2 SP (SR), 3 ULT (UR)
LEVEL = {"C": 1, "R": 1, "SR": 2, "UR": 3}
#: MC-5 the four affinity keys, in the order of comparison
KEYS = ("attribute", "race", "size", "means")
#: MC-9 a hand is refilled up to this many cards at the turn start
HAND_TARGET = 3


def skill_amount(amounts: Sequence[int], rarity: str) -> int:
    """MC-4: the size of a skill on a card of ``rarity`` (its SP form on an SR
    card, its ULT form on a UR card); ``amounts`` are the three forms' sizes."""
    return amounts[LEVEL[rarity] - 1]


def attack_power(attack: int, fury: int = 0, bloodlust: int = 0) -> int:
    """MC-3: the cards an attack mills: the attacker's attack power, plus its
    Fury (猛攻) while it attacks and a Bloodlust (血の渇き) GameChanger in force
    (MC-4, MC-Q3)."""
    return attack + fury + bloodlust


def short_hand(defender_rarity: str, attacker_rarity: str, leveller: int | None = None) -> int:
    """MC-14: where the short hand (短針) stands, in marks toward the defender
    (+) or the attacker (−): it moves toward the disadvantaged side by the
    rarity difference (MC-2).  A Leveller (均衡) GameChanger caps the
    difference at ``leveller`` marks (MC-Q3)."""
    diff = RARITY_POINTS[defender_rarity] - RARITY_POINTS[attacker_rarity]
    if leveller is not None and abs(diff) > leveller:
        diff = leveller if diff > 0 else -leveller
    return -diff


def affinity_marks(signs: Sequence[int], reversed_first: int = 0) -> tuple[int, ...]:
    """MC-15: the long hand's (長針) move at each of the four comparisons in the
    order of :data:`KEYS`: +1 toward the defender when it has the advantage
    (``sign`` +1), −1 toward the attacker, 0 on even.  An Inversion (反転)
    GameChanger reverses the first ``reversed_first`` comparisons (MC-Q3)."""
    return tuple(-s if i < reversed_first else s for i, s in enumerate(signs))


def scale(short: int, long_: int) -> int:
    """MC-16, the scale (勝負の秤): how far the long hand stands nearer the
    defender than the short hand (> 0: nearer the defender; < 0: nearer the
    attacker; 0: the same mark)."""
    return long_ - short


def outcome(score: int) -> str:
    """MC-16: ``"success"`` (defence succeeds, MC-18), ``"failure"`` or ``"draw"``
    (MC-Q4) from the :func:`scale`'s score."""
    return "success" if score > 0 else "failure" if score < 0 else "draw"


def banishes(attacker_rarity: str, reach: int) -> bool:
    """The Banish (追放) Discard skill (MC-10, MC-Q3): the attack-zone card goes
    to the ruins if its rarity points (MC-2) are at most ``reach``."""
    return RARITY_POINTS[attacker_rarity] <= reach


def healed(amount: int, graveyard: int) -> int:
    """MC-8, MC-Q10: how many cards a heal of ``amount`` brings back from a
    graveyard of ``graveyard`` cards (none from an empty one)."""
    return min(amount, graveyard)


def heal(graveyard: tuple, top: tuple, amount: int) -> tuple[tuple, tuple]:
    """MC-8: the graveyard's top cards go back on top of the deck one by one,
    so they come back in the order they left (healing undoes the latest
    damage): ``(graveyard, deck top)`` after the heal."""
    k = healed(amount, len(graveyard))
    if not k:
        return graveyard, top
    return graveyard[:len(graveyard) - k], graveyard[len(graveyard) - k:] + top


def to_draw(hand: int) -> int:
    """MC-9: the cards a player with ``hand`` cards draws at the turn start."""
    return max(0, HAND_TARGET - hand)


def next_player(alive: Sequence[int], turn: int) -> int:
    """MC-Q8: the next player after ``turn`` in seat order who is not out."""
    n = len(alive)
    for j in range(1, n + 1):
        q = (turn + j) % n
        if alive[q]:
            return q
    return turn


def payoffs(players: int, winner: int) -> tuple:
    """MC-19: 1 for the last player with cards, −1/(n−1) for each other
    (zero-sum; with two players 1 and −1)."""
    lose = -1 if players == 2 else Fraction(-1, players - 1)
    return tuple(1 if q == winner else lose for q in range(players))
