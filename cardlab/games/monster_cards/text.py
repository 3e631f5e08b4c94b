"""MONSTER CARDS' texts for people: skills, cards, battles, moves and positions.

Everything a person reads that is not a picture (the pictures are in
:mod:`.render`): the classes' ``__str__``/``describe``/``explain`` call
these functions.  Only public facts of a position are told.
"""

from __future__ import annotations

from typing import Any

from ...i18n import N_, _, get_language, pgettext
from .key import (ALIVE, ATTACK, END, GAMECHANGER, GRAVE, HAND, PENDING, PHASE, PHASE_NAMES, PLAYERS, REST, TOP,
                  TURN)
from .rules import HAND_TARGET, KEYS, short_hand

#: the skill forms by level (MC-4)
LEVEL_NAMES = {1: "", 2: "SP", 3: "ULT"}
#: the keys as a person reads them (Japanese: the seed's own words)
KEY_TERM = {"attribute": N_("attribute (属性)"), "race": N_("race (種族)"), "size": N_("size (サイズ)"),
            "means": N_("means (手段)")}
CATEGORY_TERM = {"standard": N_("standard (スタンダード)"), "discard": N_("discard (ディスカード)"),
                 "gamechanger": N_("gamechanger (ゲームチェンジャー)")}


def _ja() -> bool:
    """Japanese texts right now (names from the card data are shown in Japanese)."""
    return get_language() == "ja"


def card_name(card: Any) -> str:
    """A card's name as a person reads it: its Japanese name in Japanese (when
    the card data has one), else its name in the notation."""
    return card.japanese if _ja() and card.japanese else card.name


def value_name(tables: Any, key: str, value: str) -> str:
    """An affinity value as a person reads it: ``fire`` in English, ``火`` in Japanese."""
    return tables.japanese[key].get(value, value) if _ja() else value


def skill_text(skill: Any, level: int = 1) -> str:
    """A skill of the library at ``level`` (MC-4: 2 SP, 3 ULT) in one line."""
    form = LEVEL_NAMES[level]
    tag = f" {form}" if form else ""
    name = skill.japanese if _ja() else f"{skill.english} ({skill.japanese})"
    return _("{skill}{form}, {category}: {effect}").format(
        skill=name, form=tag, category=_(CATEGORY_TERM[skill.category]),
        effect=_(skill.text).format(n=skill.amount[level - 1]))


def card_text(card: Any, japanese: dict) -> str:
    """A card in one line (``str(card)``); ``japanese`` the affinity values' Japanese names."""
    t = japanese
    skill = skill_text(card.skill_info, card.level) if card.skill else _("no skill")
    if _ja():
        name = card.japanese or card.name
        values = "・".join(t[k][getattr(card, k)] for k in KEYS)
    else:
        name = card.name + (f" {card.japanese}" if card.japanese else "")
        values = ", ".join(f"{getattr(card, k)} ({t[k][getattr(card, k)]})" for k in KEYS)
    return _("{name} [{rarity}] attack (攻撃力) {attack}, {values}; {skill}").format(
        name=name, rarity=card.rarity, attack=card.attack, values=values, skill=skill)


def battle_text(b: Any) -> str:
    """The battle as text: short hand, the four comparisons, the result."""
    def marks(n: int) -> str:
        if n == 0:
            return _("centre")
        if n > 0:
            return _("{n} toward the defender").format(n=abs(n))
        return _("{n} toward the attacker").format(n=abs(n))

    jp = b.japanese if get_language() == "ja" else {}

    def value(key: str, v: str) -> str:
        return jp.get(key, {}).get(v, v)
    lines = [_("Battle (戦闘): defender (防衛) {defender} [{defender_rarity}] vs "
               "attacker (攻撃) {attacker} [{attacker_rarity}]").format(
        defender=jp.get("defender") or b.defender, defender_rarity=b.defender_rarity,
        attacker=jp.get("attacker") or b.attacker, attacker_rarity=b.attacker_rarity)]
    d = -short_hand(b.defender_rarity, b.attacker_rarity)  # the rarity difference (MC-2, MC-14)
    if b.short_hand:
        ahead, moves = abs(d), abs(b.short_hand)
        if d > 0:
            what = (_("the defender is {ahead} ahead, the short hand moves {moves} toward the attacker")
                    if b.short_hand < 0 else
                    _("the defender is {ahead} ahead, the short hand moves {moves} toward the defender"))
        else:
            what = (_("the attacker is {ahead} ahead, the short hand moves {moves} toward the attacker")
                    if b.short_hand < 0 else
                    _("the attacker is {ahead} ahead, the short hand moves {moves} toward the defender"))
        what = what.format(ahead=ahead, moves=moves)
    elif d == 0:
        what = _("no difference, it stays at the centre")
    else:
        what = _("the difference does not count (GameChanger), it stays at the centre")
    lines.append("  " + _("short hand (短針), MC-14: rarity {defender} vs {attacker}: {what}").format(
        defender=b.defender_rarity, attacker=b.attacker_rarity, what=what))
    for s in b.steps:
        who = {"defender": _("the defender has the advantage: +1 toward the defender"),
               "attacker": _("the attacker has the advantage: 1 toward the attacker"),
               "even": _("even: the long hand stays")}[s["winner"]]
        flip = _(" (reversed by a GameChanger)") if s.get("reversed") else ""
        lines.append("  " + _("{key}, MC-15: {defender} vs {attacker}: {verdict}{reversed}; "
                              "long hand (長針) {long_hand}").format(
            key=_(KEY_TERM[s["key"]]), defender=value(s["key"], s["defender"]),
            attacker=value(s["key"], s["attacker"]), verdict=who, reversed=flip,
            long_hand=marks(s["long_hand"])))
    for n in b.notes:
        lines.append(f"  {n}")
    res = {"success": _("defence succeeds (防衛成功): the defender becomes the attacker (MC-18)"),
           "failure": _("defence fails (防衛失敗): {damage} damage to the defending player (MC-18, MC-3)").format(
               damage=b.damage),
           "draw": _("draw (引き分け): the hands are on the same mark (MC-16, MC-Q4)")}[b.result]
    lines.append("  " + _("result, MC-16: long hand {long_hand}, short hand {short_hand}: {result}").format(
        long_hand=marks(b.long_hand), short_hand=marks(b.short_hand), result=res))
    return "\n".join(lines)


def explain(state: Any, action: str) -> str:
    """One line on what ``action`` does and why, with the rule ids; it ends
    with every player the move puts out (MC-19) and the winner."""
    verb, _sep, name = action.partition(" ")
    if name not in state.game.card_id:
        return action
    return explain_move(state, verb, name, state.turn) + explain_outs(state, action)


def explain_outs(state: Any, action: str) -> str:
    """The players a move puts out (MC-19, MC-Q7) and the winner, as sentences."""
    legal = state.legal_actions() if state.current_player >= 0 else [a for a, _w in state.chance_outcomes()]
    if action not in legal:
        return ""
    log: list = []
    after = state._play(action, log)
    why = {"draw": _(" Player {player} must draw the last card of their deck at the start of their turn (MC-9): "
                     "a deck at 0 puts the player out (脱落) at once (MC-Q7, MC-19)."),
           "damage": _(" Player {player} has no card left in the deck after the damage: out (脱落) (MC-3, MC-19)."),
           "empty": _(" Player {player} starts a turn with no card to draw or play: out (脱落) (MC-Q7).")}
    text = "".join(why[how].format(player=q) for q, how in log)
    if after.is_terminal():
        text += _(" Player {player} is the last player with cards and wins (MC-19).").format(player=after.winner())
    return text


def heal_text(what: str, healed: int) -> str:
    if healed:
        return _("{what} heals {n}: the top {n} of the graveyard (墓地) go back on the deck (MC-8)").format(
            what=what, n=healed)
    return _("{what} heals nothing: the graveyard (墓地) is empty "
             "(MC-8: 墓地にカードがなければ回復効果は発動しません)").format(what=what)


def _shown(state: Any, name: str) -> str:
    """A card of this game as a person reads it (its Japanese name in Japanese)."""
    return card_name(state.game.card(name))


def explain_move(state: Any, verb: str, name: str, p: int) -> str:
    """What the move ``verb name`` of player ``p`` does, with its rule ids."""
    k = state.key
    g = state.game
    shown = _shown(state, name)
    if verb == "draw":
        return _("Player {player} draws {card} (引く) to refill the hand to {n} (MC-9).").format(
            player=p, card=shown, n=HAND_TARGET)
    if verb == "mill":
        return _("Damage (ダメージ): {card} goes from player {player}'s deck top to the graveyard (墓地) "
                 "(MC-3, MC-8); {n} more to go.").format(card=shown, player=k[PENDING][0], n=k[PENDING][1] - 1)
    card = g.card(name)
    c = g.card_id[name]
    grave = len(k[PLAYERS][p][GRAVE])
    heal = (_(" On play, {heal} (MC-4).").format(heal=heal_text(_("Mend (癒し)"), min(card.amount, grave)))
            if g.mend[c] else "")
    if verb == "discard":
        what, x = state._discard_effect(c)
        skill = skill_text(card.skill_info, card.level)
        attacker = g.cards[k[ATTACK][1]] if k[ATTACK] else None
        if what == "heal":
            done = heal_text(_("it"), x)
        elif what == "banish":
            done = (_("{card} goes to the ruins").format(card=card_name(attacker)) if x else
                    _("nothing happens: the attack zone is empty") if attacker is None else
                    _("nothing happens: {card} is {rarity}, rarer than the skill reaches").format(
                        card=card_name(attacker), rarity=attacker.rarity))
        else:
            done = (_("player {player} takes {n} damage (MC-3)").format(player=x, n=card.amount) if x >= 0 else
                    _("nothing happens: the attack zone is empty") if attacker is None else
                    _("nothing happens: the attacker is their own") if k[ATTACK][0] == p else
                    _("nothing happens: the attacker's owner is out"))
        return _("Player {player} discards {card} to the ruins (跡地) for its skill: {skill}; {done} "
                 "(MC-4, MC-10, MC-Q10).").format(player=p, card=shown, skill=skill, done=done)
    if verb == "gc":
        return _("Player {player} places {card} in the GameChanger zone (ゲームチェンジャーゾーン), replacing any "
                 "there: {skill} (MC-4, MC-10, MC-Q10).").format(
            player=p, card=shown, skill=skill_text(card.skill_info, card.level))
    if verb == "attack":
        pushed = (_(", pushing {card} to the ruins (MC-Q5)").format(card=card_name(g.cards[k[ATTACK][1]]))
                  if k[ATTACK] else "")
        damage = state._replace_damage()
        took = ""
        if damage:
            took = _(" In exchange player {player} takes the attack of {card}: {damage} damage "
                     "(MC-11: 攻撃を受ける代わりに, MC-13, MC-3).").format(
                player=p, card=card_name(g.cards[k[ATTACK][1]]), damage=damage)
        elif k[ATTACK] and g.options["replacing"] == "free":
            took = _(" No damage (option replacing='free').")
        return _("Player {player} plays {card} to the attack zone (攻撃ゾーン){pushed}; no battle "
                 "(MC-11).{took}{heal}").format(player=p, card=shown, pushed=pushed, took=took, heal=heal)
    if not k[ATTACK]:
        return _("Player {player} plays {card} to the defence zone; the attack zone is empty, so it moves there "
                 "(MC-11).{heal}").format(player=p, card=shown, heal=heal)
    b = state.battle(f"defend {name}")
    if b is None:
        return _("Player {player} plays {card} to the defence zone; the attacker is their own and does not "
                 "attack them, so {card} goes to the ruins at the end of the turn (MC-Q6).{heal}").format(
            player=p, card=shown, heal=heal)
    res = {"success": _("defence succeeds, {card} becomes the attacker (MC-18)").format(card=shown),
           "failure": _("defence fails, player {player} takes {damage} damage (MC-18, MC-3)").format(
               player=p, damage=b.damage),
           "draw": (_("draw, both cards go to the ruins (MC-16, MC-Q4)")
                    if g.options["on_draw"] == "both_to_ruins" else
                    _("draw, {card} goes to the ruins, the attacker stays (MC-16, MC-Q4)").format(card=shown))}
    marks = " ".join(f"{key_word(s['key'])} "
                     f"{'+' if s['winner'] == 'defender' else '−' if s['winner'] == 'attacker' else '='}"
                     for s in b.steps)
    skill = _(", skill +{n}").format(n=b.skill_marks) if b.skill_marks else ""
    return _("Player {player} defends with {card} against {attacker}: short hand (短針) {short:+d}, "
             "long hand (長針) {long:+d} ({marks}{skill}): {result} (MC-14, MC-15, MC-16).{heal}").format(
        player=p, card=shown, attacker=_shown(state, b.attacker), short=b.short_hand, long=b.long_hand,
        marks=marks, skill=skill, result=res[b.result], heal=heal)


def state_text(state: Any) -> str:
    """The position in a few lines (``str(state)``)."""
    k = state.key
    g = state.game
    n = len(k[ALIVE])
    head = (_("game over: player {player} wins (MC-19)").format(player=k[TURN]) if k[PHASE] == END else
            _("player {player}'s turn ({phase})").format(player=k[TURN], phase=phase_word(PHASE_NAMES[k[PHASE]])))
    lines = [_("MONSTER CARDS (モンスターカード) · {n} players · {head}").format(n=n, head=head)]

    def zone(z: tuple) -> str:
        if not z:
            return "—"
        return _("{card} [{rarity}] (player {player})").format(
            card=card_name(g.cards[z[1]]), rarity=g.cards[z[1]].rarity, player=z[0])
    lines.append("  " + _("attack zone (攻撃ゾーン): {zone}").format(zone=zone(k[ATTACK])))
    lines.append("  " + _("GameChanger zone (ゲームチェンジャーゾーン): {zone}").format(zone=zone(k[GAMECHANGER])))
    if k[PENDING]:
        lines.append("  " + _("damage pending: {n} to player {player}").format(n=k[PENDING][1], player=k[PENDING][0]))
    names = g.names
    for q, z in enumerate(k[PLAYERS]):
        if not k[ALIVE][q]:
            lines.append("  " + _("player {player}: out (脱落)").format(player=q))
            continue
        hand = ", ".join(card_name(g.card(names[c])) for c in z[HAND]) or "—"
        top = (_(" (top: {cards})").format(cards=", ".join(card_name(g.card(names[c])) for c in z[TOP]))
               if z[TOP] else "")
        lines.append("  " + _("player {player}: hand (手札) {hand} | deck (山札) {deck}{top} | "
                              "graveyard (墓地) {graveyard} | ruins (跡地) {ruins}").format(
            player=q, hand=hand, deck=len(z[TOP]) + len(z[REST]), top=top, graveyard=len(z[GRAVE]),
            ruins=len(state.ruins(q))))
    return "\n".join(lines)



def key_word(key: str) -> str:
    """An affinity key in a short list (``attribute +``)."""
    return {"attribute": pgettext("affinity", "attribute"), "race": pgettext("affinity", "race"),
            "size": pgettext("affinity", "size"), "means": pgettext("affinity", "means")}[key]


def phase_word(phase: str) -> str:
    """A phase name (``draw``, ``action``, ``mill``, ``end``) as a person reads it."""
    return {"draw": pgettext("monster_cards phase", "draw"), "action": pgettext("monster_cards phase", "action"),
            "mill": pgettext("monster_cards phase", "mill"),
            "end": pgettext("monster_cards phase", "end")}.get(phase, phase)


def hidden_text(state: Any, public: str, viewer: int) -> str | None:
    """What ``viewer`` reads of a card that goes where only its owner sees
    it (MC-8): a draw into the hand (``draw ??``), damage onto the graveyard
    (``mill ??``)."""
    verb = public.partition(" ")[0]
    k = state.key
    if verb == "draw":
        return _("Player {player} draws a card (引く).").format(player=state.turn)
    if verb == "mill" and k[PENDING]:
        return _("Damage (ダメージ): the top card of player {player}'s deck goes to the graveyard (墓地).").format(player=k[PENDING][0])
    return None
