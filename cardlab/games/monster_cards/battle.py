"""MONSTER CARDS' battle: the scale 勝負の秤 (MC-14 … MC-18), explained.

:func:`battle` fights one battle with the rules of :mod:`.rules` (the short
hand :func:`~.rules.short_hand`, the long hand's marks
:func:`~.rules.affinity_marks`, the :func:`~.rules.scale` and its
:func:`~.rules.outcome`) and keeps every step for the explanation
(:meth:`Battle.explain`) and the picture of the scale (:mod:`.render`).
The State and the compact core both take a battle's result from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...i18n import _
from . import rules, text
from .cards import SKILLS, Affinity, Card, _default_affinity
from .rules import KEYS

__all__ = ["Battle", "battle", "attack_power"]


@dataclass
class Battle:
    """A battle explained.  Marks count toward the defender (+) or the attacker (−).

    ``short_hand`` (短針) is where the rarity difference put the short hand
    (MC-14: toward the disadvantaged side); ``steps`` the four affinity
    comparisons (MC-15) as dicts ``key, defender, attacker, winner, long_hand``
    (the long hand 長針 after the step); ``skill_marks`` extra long-hand marks
    from skills; ``result`` "success" / "failure" / "draw" (MC-16); ``damage``
    the attack power a failed defence costs (MC-3, MC-18).
    """

    defender: str
    attacker: str
    defender_rarity: str
    attacker_rarity: str
    short_hand: int
    steps: list[dict[str, Any]]
    skill_marks: int
    long_hand: int
    score: int
    result: str
    damage: int
    notes: list[str] = field(default_factory=list)
    #: the Japanese names of the two cards (``"defender"``, ``"attacker"``) and
    #: of the affinity values (``key: {value: name}``), for Japanese texts
    japanese: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("defender", "attacker", "defender_rarity", "attacker_rarity",
                                              "short_hand", "steps", "skill_marks", "long_hand", "score",
                                              "result", "damage", "notes")}

    def explain(self) -> str:
        """The battle as text: short hand, the four comparisons, the result."""
        return text.battle_text(self)

    def __str__(self) -> str:
        return self.explain()


def attack_power(attacker: Card, gamechanger: Card | None = None) -> int:
    """MC-3: the cards an attack by ``attacker`` mills: its attack power, plus
    Fury (猛攻) while it attacks and a Bloodlust (血の渇き) GameChanger in force.

    >>> attack_power(Card("a", "C", 2, "none", "human", "medium", "melee", skill="fury"))
    3
    """
    fury = attacker.amount if attacker.skill == "fury" else 0
    blood = gamechanger.amount if gamechanger is not None and gamechanger.skill == "bloodlust" else 0
    return rules.attack_power(attacker.attack, fury, blood)


def battle(defender: Card, attacker: Card, *, affinity: Affinity | None = None,
           gamechanger: Card | None = None) -> Battle:
    """Compute one battle exactly as the seed's two hands do (MC-14 … MC-16).

    >>> d = Card("d", "SR", 1, "fire", "human", "medium", "magic")
    >>> a = Card("a", "C", 1, "none", "demon", "medium", "defence")
    >>> b = battle(d, a)
    >>> b.short_hand, [s["winner"] for s in b.steps], b.long_hand, b.result
    (-2, ['even', 'attacker', 'even', 'defender'], 0, 'success')
    """
    t = affinity or _default_affinity()
    gc = SKILLS[gamechanger.skill] if gamechanger is not None and gamechanger.category == "gamechanger" else None
    gc_n = gamechanger.amount if gc else 0
    notes: list[str] = []
    leveller = gc_n if gc and gc.id == "leveller" else None
    short = rules.short_hand(defender.rarity, attacker.rarity, leveller)  # MC-14
    if short != rules.short_hand(defender.rarity, attacker.rarity):
        notes.append(_("GameChanger {card} Leveller (均衡): the rarity difference counts at most {n}").format(
            card=text.card_name(gamechanger), n=gc_n))
    flips = gc_n if gc and gc.id == "inversion" else 0
    values = [(getattr(defender, key), getattr(attacker, key)) for key in KEYS]
    marks = rules.affinity_marks([t.compare(key, dv, av) for key, (dv, av) in zip(KEYS, values)], flips)  # MC-15
    long_ = 0
    steps = []
    for i, (key, (dv, av), c) in enumerate(zip(KEYS, values, marks)):
        long_ += c
        steps.append({"key": key, "defender": dv, "attacker": av,
                      "winner": {1: "defender", -1: "attacker", 0: "even"}[c],
                      "long_hand": long_, "reversed": i < flips})
    extra = 0
    if defender.skill == "bulwark":
        extra = defender.amount
        notes.append(_("{card} Bulwark (堅守){form}: the long hand moves {n} more toward the defender").format(
            card=text.card_name(defender), form=" " + text.LEVEL_NAMES[defender.level] if defender.level > 1 else "",
            n=extra))
    long_ += extra
    score = rules.scale(short, long_)  # MC-16
    japanese = {"defender": defender.japanese, "attacker": attacker.japanese,
                **{key: {v: t.japanese[key].get(v, v) for v in pair} for key, pair in zip(KEYS, values)}}
    return Battle(defender.name, attacker.name, defender.rarity, attacker.rarity, short, steps, extra,
                  long_, score, rules.outcome(score), attack_power(attacker, gamechanger), notes, japanese)
