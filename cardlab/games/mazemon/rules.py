"""The rules of Mazemon as small pure functions (``docs/rules/mazemon.md``).

Each function decides one rule on small values (attribute words, numbers,
deck-slot masks, cards) and cites its rule ids.  The State
(:mod:`.state`) calls them through this module, and the compact core
(:mod:`.core`) builds its tables by calling them, so a rule changed here is
changed for both (``tests/games/mazemon/test_mazemon_rule_swap.py``).
Nothing here is for people to read (no i18n, no display).

>>> technique_relation(900, 800), attribute_relation("fire", "grass")
('wins', 'wins')
>>> battle_result("wins", "wins", 1800, 1500)
('ko', 'MZ-12')
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, NamedTuple, Sequence

from ...core import CHANCE, TERMINAL

#: the three attributes (ぞくせい), each beating the next (MZ-11)
ATTRIBUTES = ("fire", "grass", "water")
BEATS = {"fire": "grass", "grass": "water", "water": "fire"}
DECK_SIZE = 10  # MZ-1
ZONE_LIMIT = 3  # MZ-4, MZ-7
TRASHED = 2  # MZ-3
WIN_CAPTURES = 3  # MZ-23
QUIET_TURNS_END = 2  # MZ-24, MZ-Q6: two quiet turns in a row end the game
MATERIAL_COUNTS = ("distinct", "per_monster")  # MZ-Q3
#: the battle results, in the canonical order of attacks (KO first)
KO, WOUND, MUTUAL = 0, 1, 2
RESULT_CODES = ("ko", "wound", "mutual")

# phases of a turn (MZ-2 … MZ-9, MZ-19, MZ-22)
JANKEN, TRASH, CHARGE, SUMMON, BATTLE, SUB, STEAL, END = range(8)
PHASES = ("janken", "trash", "charge", "summon", "battle", "substitute", "steal", "end")

FULL = (1 << DECK_SIZE) - 1
#: BITS[mask]: the deck slots in ``mask``; POP[mask]: how many
BITS = tuple(tuple(i for i in range(DECK_SIZE) if m >> i & 1) for m in range(FULL + 1))
POP = tuple(len(b) for b in BITS)


# -- who acts ---------------------------------------------------------------------
def player_to_move(phase: int, turn: int) -> int:
    """Who decides in ``phase`` on ``turn``'s turn: chance for janken (MZ-2),
    the trash (MZ-3, MZ-Q8) and a direct attack's card (MZ-22, MZ-Q2); the
    defender at a substitute decision (MZ-19); nobody at the end."""
    if phase == END:
        return TERMINAL
    if phase in (JANKEN, TRASH, STEAL):
        return CHANCE
    if phase == SUB:
        return 1 - turn
    return turn


def trash_pairs() -> list[tuple[int, int]]:
    """MZ-3, MZ-Q8: the pairs of deck slots the first player may set aside, all alike."""
    return list(combinations(range(DECK_SIZE), TRASHED))


# -- the battle (MZ-8, MZ-10 … MZ-16, MZ-21, MZ-Q4) ------------------------------------
def technique_relation(attacker_power: int, defender_power: int) -> str:
    """MZ-10: the attacker's technique number ``"wins"``, ``"ties"`` or ``"loses"``."""
    if attacker_power > defender_power:
        return "wins"
    return "ties" if attacker_power == defender_power else "loses"


def attribute_relation(attacker: str, defender: str) -> str:
    """MZ-11: ``"wins"``, ``"same"`` or ``"loses"`` for the attacker's attribute.

    >>> attribute_relation("fire", "grass"), attribute_relation("fire", "water")
    ('wins', 'loses')
    """
    if attacker == defender:
        return "same"
    return "wins" if BEATS[attacker] == defender else "loses"


def battle_result(technique: str, attribute: str, attacker_hp: int, defender_hp: int) -> tuple[str, str]:
    """MZ-12 … MZ-16: the result (``"ko"``, ``"wound"``, ``"mutual"``) and the
    rule that decided it; HP counts only with the same attribute (MZ-16)."""
    if technique == "wins":
        if attribute == "wins" or (attribute == "same" and attacker_hp > defender_hp):
            return "ko", "MZ-12"
        return "wound", "MZ-13"
    if attribute == "wins":
        return "wound", "MZ-14"
    return "mutual", "MZ-15"


def attack_cost(attribute: str) -> int:
    """MZ-8, MZ-Q4: 1 mana, 2 at an attribute disadvantage against the declared target."""
    return 2 if attribute == "loses" else 1


def substitute_allowed(attribute: str) -> bool:
    """MZ-21: no みがわり against an attack that wins on attribute."""
    return attribute != "wins"


class Verdict(NamedTuple):
    """What :func:`judge` decides for one attacker and one defender."""

    technique: str
    attribute: str
    hp: tuple[int, int] | None
    result: str
    rule: str
    attack_cost: int
    substitute_allowed: bool


def judge(attacker: Any, defender: Any) -> Verdict:
    """The battle of two cards (anything with ``power``, ``attribute`` and
    ``hp``): MZ-10 … MZ-16, its cost (MZ-8, MZ-Q4) and MZ-21."""
    tech = technique_relation(attacker.power, defender.power)
    rel = attribute_relation(attacker.attribute, defender.attribute)
    result, rule = battle_result(tech, rel, attacker.hp, defender.hp)
    hp = (attacker.hp, defender.hp) if rel == "same" else None  # MZ-16
    return Verdict(tech, rel, hp, result, rule, attack_cost(rel), substitute_allowed(rel))


def fight(attacker: Any, defender: Any) -> tuple[int, int, bool]:
    """``(result code, mana, wins on attribute)`` of :func:`judge`: one entry
    of the games' fight table (the State's and the core's)."""
    v = judge(attacker, defender)
    return RESULT_CODES.index(v.result), v.attack_cost, not v.substitute_allowed


class Effect(NamedTuple):
    """What a battle does to the two monsters and the captures (:func:`battle_effect`)."""

    defender_out: bool  # leaves the battle zone, out of play
    defender_wound: bool  # takes a first wound
    attacker_out: bool
    attacker_wound: bool
    attacker_captures: int  # cards added to the attacker's captured cards
    defender_captures: int


def battle_effect(result: int, defender_wounded: bool, attacker_wounded: bool, substitute: bool) -> Effect:
    """MZ-12 KO, MZ-17 a second wound knocks out, MZ-13 … MZ-15 a first wound,
    MZ-15 the attacker wounded too, MZ-Q7 knocked out then (to the defender's
    captures), MZ-20, MZ-Q5 a knocked-out substitute scores nothing."""
    d_out = result == KO or defender_wounded
    hit = result == MUTUAL
    a_out = hit and attacker_wounded
    return Effect(d_out, not d_out, a_out, hit and not attacker_wounded,
                  int(d_out and not substitute), int(a_out))


def substitute_possible(used: bool, defender_untapped: int, defender_monsters: int, allowed: bool) -> bool:
    """MZ-19: once per turn, 1 untapped mana and another monster to stand in; MZ-21."""
    return allowed and not used and defender_untapped > 0 and defender_monsters > 1


# -- summons and materials (MZ-7, MZ-18, MZ-Q3) ---------------------------------------
def shared_materials(card: Any, zone: Sequence[Any], material_count: str = "distinct") -> int:
    """MZ-18, MZ-Q3: how many materials (そざい) ``card`` shares with the monsters in ``zone``.

    ``"distinct"`` counts each material of the new card once if any monster
    in the zone has it; ``"per_monster"`` once per monster that has it.
    """
    if material_count == "distinct":
        return sum(1 for m in card.materials if any(m in z.materials for z in zone))
    if material_count == "per_monster":
        mine = set(card.materials)
        return sum(len(mine.intersection(z.materials)) for z in zone)
    raise ValueError(f"material_count={material_count!r}; one of {MATERIAL_COUNTS}")


def summon_cost(card: Any, zone: Sequence[Any], material_count: str = "distinct") -> int:
    """MZ-18: the cost minus the shared materials, without limit, but at least 1."""
    return max(1, card.cost - shared_materials(card, zone, material_count))


def may_summon(zone: int, cost: int, untapped: int) -> bool:
    """MZ-7, MZ-4: room in the battle zone (a mask) and the cost in untapped mana."""
    return POP[zone] < ZONE_LIMIT and cost <= untapped


# -- what the mover may do (MZ-7, MZ-8, MZ-22) ------------------------------------------
def summons(hand: int, zone: int, untapped: int, costs: Sequence[Sequence[int]]) -> list[int]:
    """MZ-7, MZ-18: the hand's slots the mover can summon (``costs[i][zone]``)."""
    return [i for i in BITS[hand] if may_summon(zone, costs[i][zone], untapped)]


def attacks(ready: int, targets: int, untapped: int, fights: Sequence[Sequence[tuple]]) -> list[tuple[int, int]]:
    """MZ-8, MZ-Q4: (attacker, target) slot pairs the untapped mana pays for,
    KO first, then wound, then mutual (the canonical order), each by slots."""
    found = [(i, j) for i in BITS[ready] for j in BITS[targets] if fights[i][j][1] <= untapped]
    found.sort(key=lambda ij: fights[ij[0]][ij[1]][0])
    return found


def directs(ready: int, targets: int, direct_used: bool, opponent_hand: int) -> list[int]:
    """MZ-22, MZ-Q2: with the opposing zone empty, once per turn, a monster
    that has not attacked may take a card of a non-empty hand."""
    if targets or direct_used or not opponent_hand:
        return []
    return list(BITS[ready])


def options(summon_phase: bool, hand: int, zone: int, attacked: int, untapped: int, targets: int,
            direct_used: bool, opponent_hand: int, costs: Sequence, fights: Sequence) -> tuple[list, list, list]:
    """(summons, attacks, directs) of the mover: every action needs mana
    (MZ-7, MZ-8, MZ-Q2); summons only before the first attack."""
    if not untapped:
        return [], [], []
    ready = zone & ~attacked  # MZ-8: each monster attacks once per turn
    return (summons(hand, zone, untapped, costs) if summon_phase else [],
            attacks(ready, targets, untapped, fights), directs(ready, targets, direct_used, opponent_hand))


# -- the end (MZ-23, MZ-24, MZ-Q6, MZ-Q7) ------------------------------------------------
def is_won(captured0: int, captured1: int) -> bool:
    """MZ-23: a player with three captured cards wins at once."""
    return captured0 >= WIN_CAPTURES or captured1 >= WIN_CAPTURES


def quiet_turns_after(quiet: int, acted: bool) -> int:
    """MZ-Q6: the count of quiet turns in a row after a turn ends (game over at 2)."""
    return 0 if acted else quiet + 1


def outcome(captured0: int, captured1: int, turn: int, payoff: str, both_three: str) -> int:
    """Player 0's result at the end (player 1's is its negative): MZ-23 three
    captures win; MZ-Q7 both at once: the attacker (``turn``) wins or a
    draw; MZ-24, MZ-Q6 otherwise more captures win, equal is a draw.
    ``payoff="score"``: the difference of captures."""
    if payoff == "score":
        return captured0 - captured1
    if captured0 >= WIN_CAPTURES and captured1 >= WIN_CAPTURES:
        return 0 if both_three == "draw" else (1 if turn == 0 else -1)
    if captured0 >= WIN_CAPTURES:
        return 1
    if captured1 >= WIN_CAPTURES:
        return -1
    return (captured0 > captured1) - (captured0 < captured1)
