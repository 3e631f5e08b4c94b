"""Mazemon in words: the explanation of a battle (:class:`Battle`,
:func:`battle`), of every action (:func:`explain`, :func:`battle_report`)
and the position as text (:func:`state_text`).  Everything a person reads
that is not a picture; the decisions come from :mod:`.rules`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ...i18n import N_, _, get_language, pgettext
from . import rules
from .cards import ATTR_JA, Card

__all__ = ["hidden_text", "Battle", "battle", "battle_report", "explain", "state_text", "technique_word", "attribute_word",
           "card_name", "card_names", "ATTR_TERM", "PHASE_JA", "PHASE_TERM", "RESULT_NAMES"]

#: the attribute as a person reads it in a battle report: English with the Japanese beside it
ATTR_TERM = {"fire": N_("fire/ほのお"), "grass": N_("grass/くさ"), "water": N_("water/みず")}
RESULT_NAMES = ("KO (一撃)", "wound (キズ)", "mutual (あいうち)")
PHASE_JA = ("じゃんけん", "トラッシュ", "チャージ", "しゅつげん", "バトル", "みがわり",
            "ちょくせつこうげき", "おわり")
#: the phase as :meth:`MazemonState.__str__` shows it
PHASE_TERM = (N_("janken (じゃんけん)"), N_("trash (トラッシュ)"), N_("charge (チャージ)"),
              N_("summon (しゅつげん)"), N_("battle (バトル)"), N_("substitute (みがわり)"),
              N_("steal (ちょくせつこうげき)"), N_("end (おわり)"))


def card_name(card: Card) -> str:
    """The name of ``card`` as a person reads it: its Japanese name in Japanese."""
    return card.japanese if get_language() == "ja" else card.name


def card_names(card: Card) -> str:
    """``Name (ジャパニーズ)`` in English, the Japanese name alone in Japanese."""
    return card.japanese if get_language() == "ja" else f"{card.name} ({card.japanese})"


def _sep() -> str:
    """The separator between the clauses of a battle report."""
    return pgettext("mazemon clause separator", "; ")


def technique_word(relation: str) -> str:
    """The attacker's technique ``"wins"``, ``"ties"`` or ``"loses"`` (MZ-10), as a person reads it."""
    if relation == "wins":
        return pgettext("mazemon technique", "wins")
    if relation == "ties":
        return pgettext("mazemon technique", "ties")
    return pgettext("mazemon technique", "loses")


def attribute_word(relation: str) -> str:
    """The attacker's attribute ``"wins"``, ``"same"`` or ``"loses"`` (MZ-11), as a person reads it."""
    if relation == "wins":
        return pgettext("mazemon attribute", "wins")
    if relation == "same":
        return pgettext("mazemon attribute", "same")
    return pgettext("mazemon attribute", "loses")


# -- one battle explained (MZ-10 … MZ-16) -------------------------------------------------
@dataclass(frozen=True)
class Battle:
    """The explanation of one battle: what was compared and which rule decided.

    ``technique`` and ``attribute`` are the attacker's ``"wins"``/``"ties"``/
    ``"loses"`` and ``"wins"``/``"same"``/``"loses"``; ``hp`` is ``(attacker,
    defender)`` when HP was compared (same attribute, MZ-16) and ``None``
    otherwise; ``result`` is ``"ko"``, ``"wound"`` or ``"mutual"`` and
    ``rule`` the rule id that decided it; ``attack_cost`` is the mana of
    attacking this defender (MZ-8) and ``substitute_allowed`` whether the
    defender may use みがわり against it (MZ-21).
    """

    attacker: str
    defender: str
    attacker_power: int
    defender_power: int
    technique: str
    attacker_attribute: str
    defender_attribute: str
    attribute: str
    hp: tuple[int, int] | None
    result: str
    rule: str
    attack_cost: int
    substitute_allowed: bool
    #: the cards' Japanese names (shown in Japanese; not part of :meth:`as_dict`)
    attacker_japanese: str = field(default="", repr=False, compare=False)
    defender_japanese: str = field(default="", repr=False, compare=False)

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["hp"] = list(self.hp) if self.hp else None
        del d["attacker_japanese"], d["defender_japanese"]
        return d

    def names(self) -> tuple[str, str]:
        """(attacker, defender) as a person reads them: the Japanese names in Japanese."""
        if get_language() == "ja":
            return self.attacker_japanese or self.attacker, self.defender_japanese or self.defender
        return self.attacker, self.defender

    def text(self) -> str:
        sign = {"wins": ">", "ties": "=", "loses": "<"}[self.technique]
        a, d = self.attacker_attribute, self.defender_attribute
        arrow = {"wins": "→", "same": "=", "loses": "←"}[self.attribute]
        attacker, defender = self.names()
        parts = [_("わざ technique {attacker_power} {sign} {defender_power} ({relation}, MZ-10)").format(
                     attacker_power=self.attacker_power, sign=sign, defender_power=self.defender_power,
                     relation=technique_word(self.technique)),
                 _("attribute {attacker_attribute} {arrow} {defender_attribute} ({relation}, MZ-11)").format(
                     attacker_attribute=_(ATTR_TERM[a]), arrow=arrow, defender_attribute=_(ATTR_TERM[d]),
                     relation=attribute_word(self.attribute))]
        if self.hp:
            rel = ">" if self.hp[0] > self.hp[1] else "≤"
            parts.append(_("same attribute, HP {attacker_hp} {sign} {defender_hp} (MZ-16)").format(
                attacker_hp=self.hp[0], sign=rel, defender_hp=self.hp[1]))
        else:
            parts.append(_("HP not compared (attributes differ, MZ-16)"))
        if self.result == "ko":
            outcome = _("{defender} is knocked out at once (一撃)").format(defender=defender)
        elif self.result == "wound":
            outcome = _("{defender} takes a wound (キズ), {attacker} none").format(defender=defender, attacker=attacker)
        else:
            outcome = _("both take a wound (あいうち)")
        return _("{attacker} vs {defender}: {comparison} → {outcome} ({rule})").format(
            attacker=attacker, defender=defender, comparison=_sep().join(parts), outcome=outcome, rule=self.rule)

    __str__ = text


def battle(attacker: Card, defender: Card) -> Battle:
    """Judge a battle by the table of MZ-10 … MZ-16 (:func:`.rules.judge`) and explain it.

    >>> from cardlab.games.mazemon.cards import load_cards
    >>> cs = load_cards()
    >>> b = battle(cs.cards["magma_giant"], cs.cards["petal_fox"])
    >>> b.result, b.rule, b.attack_cost
    ('ko', 'MZ-12', 1)
    """
    v = rules.judge(attacker, defender)
    return Battle(attacker.name, defender.name, attacker.power, defender.power, v.technique,
                  attacker.attribute, defender.attribute, v.attribute, v.hp, v.result, v.rule,
                  v.attack_cost, v.substitute_allowed, attacker.japanese, defender.japanese)


# -- the actions explained ----------------------------------------------------------------
def battle_report(state: Any, action: str) -> dict[str, Any]:
    """The structured explanation of the battle an action starts or settles
    (:meth:`MazemonState.battle_report`)."""
    f, g = state.fields, state.game
    verb, _sp, arg = action.partition(" ")
    p = f["turn"]
    o = 1 - p
    if verb == "attack" and f["phase"] in (rules.SUMMON, rules.BATTLE):
        a, _sp, t = arg.partition(" ")
        x, y, sub = g.slot[p][a], g.slot[o][t], False
    elif verb in ("substitute", "decline") and f["phase"] == rules.SUB:
        x = f["pending_attacker"]
        y, sub = (g.slot[o][arg], True) if verb == "substitute" else (f["pending_target"], False)
    else:
        raise ValueError(_("mazemon: {action} starts no battle in this position "
                           "(phase {phase}); battles come from 'attack X Y', "
                           "'substitute Z' and 'decline'").format(action=repr(action),
                                                                  phase=rules.PHASES[f["phase"]]))
    ac, dc = g.decks[p][x], g.decks[o][y]
    b = battle(ac, dc)
    d_wounded, a_wounded = bool(f[f"wounded{o}"] >> y & 1), bool(f[f"wounded{p}"] >> x & 1)
    effect = rules.battle_effect(rules.RESULT_CODES.index(b.result), d_wounded, a_wounded, sub)
    knocked: list[dict[str, Any]] = []
    if effect.defender_out:
        knocked.append({"card": dc.id, "owner": o,
                        "to": "trash (MZ-20, MZ-Q5)" if sub else f"player {p}'s captured cards",
                        "rule": "MZ-20" if sub else ("MZ-12" if b.result == "ko" else "MZ-17")})
    if effect.attacker_out:
        knocked.append({"card": ac.id, "owner": p, "to": f"player {o}'s captured cards", "rule": "MZ-Q7"})
    out = b.as_dict()
    sub_ok = verb == "attack" and rules.substitute_possible(
        bool(f["substitute_used"]), f[f"untapped{o}"], rules.POP[f[f"battle{o}"]], b.substitute_allowed)
    out.update({"attacker_player": p, "attacker_card": ac.id, "defender_card": dc.id,
                "substitute": sub, "substitute_possible": sub_ok,
                "attacker_wounded_before": a_wounded, "defender_wounded_before": d_wounded,
                "knocked_out": knocked})
    if sub:
        out["attack_cost"] = g.fight[p][x][f["pending_target"]][1]  # paid against the declared target (MZ-Q4)
    return out


def _explain_battle(state: Any, verb: str, action: str) -> str:
    g = state.game
    p = state.turn
    o = 1 - p
    r = battle_report(state, action)
    attacker = card_name(g.card(p, r["attacker_card"]))
    defender = card_name(g.card(o, r["defender_card"]))
    if verb == "attack":
        lead = _("Player {player}'s {attacker} attacks {defender} for {cost} mana ({rules})").format(
            player=p, attacker=attacker, defender=defender, cost=r["attack_cost"],
            rules="MZ-8, MZ-Q4" if r["attack_cost"] == 2 else "MZ-8")
    elif verb == "substitute":
        lead = _("Player {player} taps 1 mana: {defender} takes the attack instead "
                 "(みがわり, MZ-19, MZ-Q5)").format(player=o, defender=defender)
    else:
        lead = _("Player {player} uses no substitute").format(player=o)
    outs = []
    for x in r["knocked_out"]:
        name = x["card"] if get_language() != "ja" else card_name(g.card(x["owner"], x["card"]))
        where = (_("trash (MZ-20, MZ-Q5)") if x["rule"] == "MZ-20"
                 else _("player {player}'s captured cards").format(player=1 - x["owner"]))
        if x["rule"] == "MZ-17":
            outs.append(_("{card} was already wounded and is knocked out → {destination} ({rule})").format(
                card=name, destination=where, rule=x["rule"]))
        else:
            outs.append(_("{card} is knocked out → {destination} ({rule})").format(
                card=name, destination=where, rule=x["rule"]))
    fought = battle(g.card(p, r["attacker_card"]), g.card(o, r["defender_card"]))
    if outs:
        text = _("{lead}. {battle}. {knocked_out}.").format(
            lead=lead, battle=fought.text(), knocked_out=_sep().join(outs))
    else:
        text = _("{lead}. {battle}.").format(lead=lead, battle=fought.text())
    if verb == "attack":
        if r["substitute_possible"]:
            text += " " + _("Player {player} may answer with みがわり (MZ-19).").format(player=o)
        elif not r["substitute_allowed"]:
            text += " " + _("No みがわり: it wins on attribute (MZ-21).")
    return text


def _explain_summon(state: Any, arg: str) -> str:
    g, f = state.game, state.fields
    p = f["turn"]
    i = g.slot[p][arg]
    zone_mask = f[f"battle{p}"]
    card = g.decks[p][i]
    pay = g.cost[p][i][zone_mask]
    shared = rules.shared_materials(card, [g.decks[p][j] for j in rules.BITS[zone_mask]],
                                    g.options["material_count"])
    least = card.cost - shared < 1
    if shared and least:
        note = _("cost {cost} − {shared} shared materials (そざい), but at least 1").format(
            cost=card.cost, shared=shared)
    elif shared:
        note = _("cost {cost} − {shared} shared materials (そざい)").format(cost=card.cost, shared=shared)
    elif least:
        note = _("cost {cost}, but at least 1").format(cost=card.cost)
    else:
        note = _("cost {cost}").format(cost=card.cost)
    return _("Player {player} summons {card} to the battle zone, paying {pay} mana "
             "({note}; しゅつげん, MZ-7, MZ-18).").format(player=p, card=card_names(card), pay=pay, note=note)


def explain(state: Any, action: str) -> str:
    """What ``action`` does in ``state``, with its rule ids (:meth:`MazemonState.explain`)."""
    g = state.game
    verb, _sp, arg = action.partition(" ")
    p = state.turn
    o = 1 - p
    if verb in ("attack", "substitute", "decline"):
        return _explain_battle(state, verb, action)
    if verb == "charge":
        return _("Player {player} charges {card} face down into mana (チャージ, MZ-6); it can never fight.").format(
            player=p, card=card_name(g.card(p, arg)))
    if verb == "summon":
        return _explain_summon(state, arg)
    if verb == "direct":
        return _("Player {player}'s {card} attacks directly for 1 mana: player {opponent}'s battle zone "
                 "is empty, one card of their hand is taken at random (ちょくせつこうげき, MZ-22, MZ-Q2).").format(
            player=p, card=card_name(g.card(p, arg)), opponent=o)
    if verb == "steal":
        return _("The card taken from player {opponent}'s hand is {card}: player {player} captures it "
                 "(MZ-22, MZ-23).").format(opponent=o, card=card_name(g.card(o, arg)), player=p)
    if verb == "end":
        return _("Player {player} ends the turn (MZ-9); two turns in a row without charge, summon or attack "
                 "end the game (MZ-Q6).").format(player=p)
    if verb == "janken":
        return _("Player {player} wins the janken (じゃんけん) and goes first (MZ-2).").format(player=arg)
    if verb == "trash":
        a, b = (g.card(p, c) for c in arg.split("+"))
        return _("Player {player} sets aside two cards unseen (トラッシュ): {first} and {second}; "
                 "neither player may look at them (MZ-3, MZ-Q8).").format(
            player=p, first=card_names(a), second=card_names(b))
    return action


# -- the position as text -------------------------------------------------------------------
def _head(state: Any) -> str:
    f = state.fields
    ph = f["phase"]
    if ph == rules.END:
        w = state.winner()
        head = (_("game over (おわり): draw") if w is None
                else _("game over (おわり): player {player} wins").format(player=w))
    elif ph == rules.JANKEN:
        head = _("janken (じゃんけん) to decide the first player")
    else:
        who = state.current_player
        if who >= 0 and who != f["turn"]:
            head = _("player {player}'s turn, {phase}, player {decider} decides").format(
                player=f["turn"], phase=_(PHASE_TERM[ph]), decider=who)
        else:
            head = _("player {player}'s turn, {phase}").format(player=f["turn"], phase=_(PHASE_TERM[ph]))
    return _("Mazemon (マゼモン) · {head}").format(head=head)


def state_text(state: Any) -> str:
    """The position in a few lines (:meth:`MazemonState.__str__`)."""
    f, g = state.fields, state.game
    ja = get_language() == "ja"
    lines = [_head(state)]
    if f["phase"] == rules.SUB:
        pa, pt = g.decks[f["turn"]][f["pending_attacker"]], g.decks[1 - f["turn"]][f["pending_target"]]
        lines.append("  " + _("pending attack: {attacker} → {target}").format(
            attacker=pa.japanese if ja else pa.id, target=pt.japanese if ja else pt.id))
    for p in (1, 0):
        zone = []
        wounded, attacked = f[f"wounded{p}"], f[f"attacked{p}"]
        for i in rules.BITS[f[f"battle{p}"]]:
            c = g.decks[p][i]
            marks = (" キズ" if wounded >> i & 1 else "") + (" " + _("attacked こうげきずみ") if attacked >> i & 1 else "")
            if ja:  # the Japanese name alone, and HP apart from its number
                zone.append(f"{c.japanese} [{ATTR_JA[c.attribute]} わざ {c.power} HP {c.hp}{marks}]")
            else:
                zone.append(f"{c.name} {c.japanese} [{ATTR_JA[c.attribute]} わざ{c.power} HP{c.hp}{marks}]")
        first = " (" + _("せんて first") + ")" if f["first"] == p else ""
        lines.append("  " + _("player {player}{first}: captured (とったカード) {captured} | mana (マナ) {mana}, "
                              "{untapped} untapped | hand (てふだ) {hand}").format(
            player=p, first=first, captured=f[f"captured{p}"], mana=f[f"mana{p}"], untapped=f[f"untapped{p}"],
            hand=', '.join(state.hand(p)) or '—'))
        lines.append("    " + _("battle zone (バトルゾーン): {zone}").format(zone=' · '.join(zone) or '—'))
    return "\n".join(lines)


def hidden_text(state: Any, public: str, viewer: int) -> str | None:
    """What ``viewer`` reads of a move they do not fully see: two cards set
    aside unseen (``trash ??``, MZ-3) or a card charged face down into the
    other player's mana (``charge ??``, MZ-6)."""
    verb = public.partition(" ")[0]
    if verb == "trash":
        return _("Player {player} sets aside two cards unseen (トラッシュ); neither player may look at them.").format(
            player=state.turn)
    if verb == "charge":
        return _("Player {player} charges a card face down into mana (チャージ).").format(player=state.turn)
    return None
