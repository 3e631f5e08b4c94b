"""The rules of Toritsuki card battle as small pure functions (rules:
``docs/rules/toritsuki.md``, TK-1 … TK-29, TK-Q1 … TK-Q8).

Small values only (whole numbers, tuples, cards): no position, no words for
people.  The State (:mod:`.state`) and the compact core (:mod:`.core`) both
call these functions *through the module* (``rules.duel(...)``), so that a
test can swap one rule and see both follow it.

Choices where the digest is silent (each tested in ``tests/games/toritsuki/test_toritsuki.py``):

* Payment (TK-25, TK-26, TK-Q5, TK-Q8).  Which ready yoki pays is never
  asked: face-down yoki are all alike (counts).  Whether to boost is a real
  choice (the position differs), so it is offered: the plain action pays
  ready yoki first and boosts only what they cannot pay; ``… boost N`` turns
  N face-up damage cards down instead.  Paying with yoki first is never
  worse (the yoki come back at the refresh, a boost never does; healing
  takes face-down damage first, so it never favours a boost), but the seed
  leaves the choice to the player.
* Moving (TK-13): the seed sets no limit.  A ``move`` action moves any set
  of yokai between the rows at once (``move F1 B2`` trades two yokai, which
  is how a full row changes), so every arrangement is one action.  The
  moved yokai are marked; while a mark is on the field no other ``move`` is
  offered (a second rearrangement would only compose with the first), and
  any other main action (summon, release, event) takes the marks off.  Only
  moves that reach a new arrangement are offered, each arrangement once (of
  two alike yokai in a row only the first is named; two alike yokai are not
  traded).  Every other main action is irreversible (a card leaves the hand,
  the trash grows, the event is used), so the game graph has no cycle:
  depth-first search, ``tree()`` expansion and random agents always end, and
  a main phase has at most one rearrangement more than its other actions.
  The option ``move_once_per_turn`` restores a house rule (not the seed's):
  each yokai changes rows at most once a turn, and the marks stay until the
  end of the main phase.  Making room (TK-13) is offered only when all 6
  places are full and a yokai in hand can be paid for.
* The first attack ends the main phase (TK-14): there is no separate "go to
  battle" action; ``end`` in the main phase ends the turn without battle.
  Steps with a single possible choice (no attacker left, nothing can block)
  are taken at once.
* The deck runs out (TK-7, TK-Q4) the moment its last card leaves it.
* Icons (TK-23, TK-Q7): the seed gives them no meaning, and the default
  card file has none.  The engine knows two, pierce (貫通: an attacker that
  wins the duel also deals 1 damage) and guard (守り: does not faint on a
  tie); both overturn TK-21 (「勝った場合: 特に無し」, a tie faints both), so
  they appear only in the optional icon file ``cards="icons"``
  (``cardlab/data/toritsuki_icons.json``), as named exceptions.  A
  possessing card may grant an icon (TK-20).
* Tribes (TK-23): the default file has the eight tribes of the original
  franchise (「種族は原作準拠」: プリチー族 Charming … ウスラカゲ族 Shady);
  the cards themselves are cardlab's own.
* Events (TK-Q2): draw, ready yoki, +BP until end of turn, heal (face-down
  damage first, into the trash), banish a low-rank yokai, charge, rest an
  opposing blocker, and one card with its own win condition (TK-8).
* Hidden information (TK-Q6): hands and deck order; face-down yoki are part
  of the unseen pool.  ``open_hands`` makes hands public (the deck stays
  chance); ``known_deck_order`` deals each shuffle's order by chance at once
  and makes it public, so that later play has no chance at all.  Of the
  moves, only a card dealt or drawn into a hand is hidden, from the other
  player (``public_action``); damage and possession reveals are face up.

>>> duel(50, 40, 0, 0)
Duel(winner='attacker', attacker_faints=False, defender_faints=True, pierce=False)
>>> duel(40, 40, 0, GUARD).defender_faints
False
>>> list(boosts(3, ready=2, face_up=2))
[1, 2]
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["RANKS", "CATEGORIES", "ICONS", "HAND_START", "DAMAGE_LOSS", "ROW", "DECK_MIN", "COPIES_MAX",
           "PIERCE", "GUARD", "icon_bits", "Duel", "duel", "boosts", "can_pay", "fits", "on_attacker",
           "loses_by_damage", "EVENT_KINDS"]

RANKS = "EDCBAS"  # rank E (lowest) … S (highest), TK-23
CATEGORIES = ("strike", "skill", "spell")  # 戦 技 術, TK-23
ICONS = ("pierce", "guard")  # only in the optional icon file: exceptions to TK-21 (TK-Q7)
EVENT_KINDS = {  # kind: parameters it needs (TK-Q2)
    "draw": ("n",), "ready_yoki": ("n",), "bp_up": ("n",), "heal": ("n",),
    "banish": ("rank_max",), "charge": ("n",), "rest": (), "win_if_field": ("n",),
}
HAND_START = 5  # TK-2 (and TK-3: a mulligan draws 5 again)
DAMAGE_LOSS = 6  # TK-6
ROW = 3  # TK-13: 3 places a row, 6 in all
DECK_MIN, COPIES_MAX = 30, 3  # TK-1

#: icons as bits (TK-Q7): a side's icons are the union of its method's and its possessions'
PIERCE, GUARD = 1, 2


def icon_bits(icons) -> int:
    """TK-Q7: the bits of icon names (``None`` and unknown names add nothing)."""
    return (PIERCE if "pierce" in icons else 0) | (GUARD if "guard" in icons else 0)


class Duel(NamedTuple):
    """The outcome of a BP duel (TK-21)."""

    winner: str  # "attacker", "defender" or "tie"
    attacker_faints: bool
    defender_faints: bool
    pierce: bool  # the defender also takes 1 damage (TK-Q7 pierce)


def duel(attacker_bp: int, defender_bp: int, attacker_icons: int, defender_icons: int) -> Duel:
    """TK-21: the higher BP wins; the loser faints, a tie faints both.  The
    icon file's exceptions (TK-Q7): guard does not faint on a tie, pierce
    also deals 1 damage when it wins (TK-18's damage)."""
    if attacker_bp > defender_bp:
        return Duel("attacker", False, True, bool(attacker_icons & PIERCE))
    if attacker_bp < defender_bp:
        return Duel("defender", True, False, False)
    return Duel("tie", not attacker_icons & GUARD, not defender_icons & GUARD, False)


def loses_by_damage(damage: int) -> bool:
    """TK-6: 6 or more damage cards lose."""
    return damage >= DAMAGE_LOSS


def can_pay(cost: int, ready: int, face_up: int) -> bool:
    """TK-25, TK-26, TK-Q5: ready yoki and face-up damage (yoki boost) pay a cost."""
    return cost <= ready + face_up


def boosts(cost: int, ready: int, face_up: int) -> range:
    """TK-25, TK-26, TK-Q8: the numbers of face-up damage cards that may pay
    ``cost`` beside ready yoki (empty when it cannot be paid); the first is
    ready yoki first."""
    return range(max(0, cost - ready), min(cost, face_up) + 1)


def on_attacker(owner_attacks: bool, target_own: bool) -> bool:
    """TK-20: a possessing card goes on its own side's yokai, or (target
    "opponent") on the other side's: does it go on the attacker?"""
    return owner_attacks == target_own


def fits(card, target, method: int) -> bool:
    """TK-19: does possessing ``card`` meet its condition on the yokai card
    ``target`` battling with its method ``method`` (tribe, rank at most,
    method category; TK-Q1)?"""
    if not card.is_yokai:
        return False
    if card.cond_tribe is not None and target.tribe != card.cond_tribe:
        return False
    if card.cond_rank_max is not None and target.rank > card.cond_rank_max:
        return False
    return card.cond_category is None or target.methods[method].category == card.cond_category
