"""Toritsuki in words: the explanation of every move (with its rule ids),
the text board, the BP duel's report (TK-21) and the names of stages,
rows, icons and results — everything a person reads that is not a picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core import CHANCE
from ...i18n import N_, _, get_language, ngettext, pgettext
from . import rules
from .cards import Method, category_text
from .positions import (BA, BATTLE, BK, BLOCK, COIN, DAMAGE, DD, DEAL, DRAW, DU, DUEL, EVDRAW, FR, H, MAIN,
                        MULLIGAN, N, OVER, P0, P1, PD, POSS_A, POSS_D, REVEAL_A, REVEAL_D, SHUFFLE, ST, TOP, TP,
                        TR, WN, YR, YS)
from .positions import runs as _runs, split_boost as _split_boost

__all__ = ["hidden_text", "explain", "state_text", "report", "BattleReport", "SideReport", "RESULT_TEXT", "ICON_TEXT",
           "ROW_NAME"]

ICON_TEXT = {"pierce": N_("pierce (貫通, an exception to TK-21 from the icon file): a win also deals 1 damage"),
             "guard": N_("guard (守り, an exception to TK-21 from the icon file): no fainting on a tie")}
#: the outcome of a BP duel (TK-21), for ``BattleReport.text``
RESULT_TEXT = {"attacker": N_("the attacker wins"), "defender": N_("the blocker wins"), "tie": N_("a tie")}
ROW_NAME = {"F": N_("the front row (前衛)"), "B": N_("the back row (後衛)")}


@dataclass
class SideReport:
    """One side of a BP duel: the chosen BP and every modifier with its source."""

    player: int
    card: int
    name: str
    method: str
    category: str
    base_bp: int
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    icons: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.base_bp + sum(v for _src, v in self.modifiers)

    def text(self) -> str:
        mods = "".join(f" {v:+d} ({src})" for src, v in self.modifiers)
        icons = f" [{'; '.join(_(ICON_TEXT[i]) for i in self.icons)}]" if self.icons else ""
        return _("player {player} {name} {method} ({category}) BP {bp}{modifiers} = {total}{icons}").format(
            player=self.player, name=self.name, method=self.method, category=category_text(self.category),
            bp=self.base_bp, modifiers=mods, total=self.total, icons=icons)


@dataclass
class BattleReport:
    """The BP duel (BP勝負) of one attack: both sides, the winner, who faints."""

    attacker: SideReport
    defender: SideReport
    winner: str  # "attacker", "defender" or "tie"
    fainted: list[str]
    pierce: bool

    def as_dict(self) -> dict[str, Any]:
        def side(s: SideReport) -> dict[str, Any]:
            return {"player": s.player, "card": s.card, "name": s.name, "method": s.method,
                    "category": s.category, "base_bp": s.base_bp,
                    "modifiers": [list(m) for m in s.modifiers], "icons": list(s.icons), "total": s.total}
        return {"attacker": side(self.attacker), "defender": side(self.defender), "winner": self.winner,
                "fainted": list(self.fainted), "pierce": self.pierce}

    def text(self) -> str:
        res = _(RESULT_TEXT[self.winner])
        sep = "、" if get_language() == "ja" else ", "
        faint = _("; faints (気絶): {names}").format(names=sep.join(self.fainted)) if self.fainted else ""
        pierce = _("; pierce (貫通, an exception to TK-21): the defender takes 1 damage") if self.pierce else ""
        return _("BP duel (BP勝負, TK-21): attacker {attacker} vs blocker {blocker}: "
                 "{result}{faints}{pierce}").format(attacker=self.attacker.text(), blocker=self.defender.text(),
                                                     result=res, faints=faint, pierce=pierce)

    __str__ = text



def _payment_text(P: tuple, cost: int, boosts: int | None) -> str:
    """The payment of ``cost`` in words (TK-25, TK-26, TK-Q8)."""
    if cost == 0:
        return _("nothing to pay")
    b = max(0, cost - P[YR]) if boosts is None else boosts
    yoki = _("{n} ready yoki rested").format(n=cost - b)
    boost = ngettext("{n} face-up damage card turned face down (妖気ブースト, TK-26)",
                     "{n} face-up damage cards turned face down (妖気ブースト, TK-26)", b).format(n=b)
    if cost - b and b:
        how = _("{yoki} and {boost}").format(yoki=yoki, boost=boost)
    else:
        how = yoki if cost - b else boost
    return _("paying {cost} yoki (妖気): {how} (TK-25, TK-Q8)").format(cost=cost, how=how)


def _stage_name(stage: str) -> str:
    """``stage`` as the text board names it (the stage itself in English; in Japanese the seed's words)."""
    return {
        SHUFFLE: pgettext("toritsuki stage", "shuffle"), DEAL: pgettext("toritsuki stage", "deal"),
        MULLIGAN: pgettext("toritsuki stage", "mulligan"), COIN: pgettext("toritsuki stage", "coin"),
        DRAW: pgettext("toritsuki stage", "draw"), MAIN: pgettext("toritsuki stage", "main"),
        EVDRAW: pgettext("toritsuki stage", "evdraw"), BATTLE: pgettext("toritsuki stage", "battle"),
        BLOCK: pgettext("toritsuki stage", "block"), DAMAGE: pgettext("toritsuki stage", "damage"),
        POSS_A: pgettext("toritsuki stage", "possess_a"), REVEAL_A: pgettext("toritsuki stage", "reveal_a"),
        POSS_D: pgettext("toritsuki stage", "possess_d"), REVEAL_D: pgettext("toritsuki stage", "reveal_d"),
        DUEL: pgettext("toritsuki stage", "duel"), OVER: pgettext("toritsuki stage", "over"),
    }[stage]


def _method_name(m: Method) -> str:
    """A battle method's name as printed (in Japanese its Japanese name)."""
    return m.japanese or m.name if get_language() == "ja" else m.name



# -- text --------------------------------------------------------------------------
def explain(state: Any, action: str) -> str:
    """What ``action`` does at ``state``, in words, with its rule ids."""
    k = state._k
    who = state.current_player
    verb, _sep, arg = action.partition(" ")
    tail = ""
    if k[ST] in (POSS_D, REVEAL_D) and k[ST] != OVER:
        nk = state._step(action)
        if nk[ST] == DUEL:
            tail = " " + report(state.game, nk[TP], nk[BA]).text()
    if verb == "keep":
        return _("Player {player} keeps the opening hand (TK-3).").format(player=who)
    if verb == "mulligan":
        return _("Player {player} shuffles the hand back and draws 5 again, once (マリガン, TK-3).").format(
            player=who)
    if verb in ("summon", "release", "move"):
        return _explain_field(state, verb, arg, who)
    if verb == "event":
        return _explain_event(state, arg, who)
    if verb == "end":
        if k[ST] == MAIN:
            return _("Player {player} ends the turn (エンドタイム, TK-15), without battle.").format(player=who)
        return _("Player {player} ends the turn (エンドタイム, TK-15).").format(player=who)
    if verb in ("attack", "block"):
        return _explain_battle(state, verb, arg, who)
    if verb == "noblock":
        return _("Player {player} does not block: no battle, 1 damage from the deck top (TK-18).").format(
            player=who)
    if verb == "pass":
        return _("Player {player} does not possess (TK-19).").format(player=who) + tail
    if verb == "possess":
        if arg == "deck":
            return _("Player {player} possesses (とりつく!): the deck top is revealed (TK-19, TK-20).").format(
                player=who) + tail
        return _("Player {player} possesses (とりつく!): {card} from the hand (TK-19, TK-20).").format(
            player=who, card=_card_name(state, arg)) + tail
    if verb in ("first", "shuffle", "deal", "draw", "damage", "reveal"):
        return _explain_chance(state, verb, arg, tail)
    return action


def _card_name(state: Any, no: int | str) -> str:
    """Card ``no`` by name, as the explanations print it."""
    return state.game.cards[int(no)].label()


def _slot_name(state: Any, slot: str) -> str:
    """The yokai in ``slot`` of the player to move (``"F1"``) or of the
    opponent (``"oB2"``), by name."""
    k = state._k
    tp = k[TP]
    theirs = slot[0] == "o"
    slot = slot.lstrip("o")
    y = k[P1 - tp if theirs else P0 + tp][FR if slot[0] == "F" else BK][int(slot[1]) - 1]
    return (_("player {player}'s {card}").format(player=1 - tp, card=_card_name(state, y[0])) if theirs
            else _card_name(state, y[0]))


def _row_name(letter: str) -> str:
    return _(ROW_NAME[letter])


def _explain_field(state: Any, verb: str, arg: str, who: int) -> str:
    """``summon``, ``release`` and ``move`` in words (TK-13, TK-27, TK-28)."""
    if verb == "summon":
        head, boosts = _split_boost(arg)
        no, r = head.split()
        P = state._k[P0 + state._k[TP]]
        return _("Player {player} summons (召喚) {card} into {row}, ready (TK-13, TK-28), {payment}.").format(
            player=who, card=_card_name(state, no), row=_row_name(r),
            payment=_payment_text(P, state.game.cards[int(no)].cost, boosts))
    if verb == "release":
        return _("All 6 places are full: player {player} sends {card} from {row} to the trash to make room "
                 "(TK-13).").format(player=who, card=_slot_name(state, arg), row=_row_name(arg[0]))
    parts = [_("{card} from {row} to {other_row}").format(
        card=_slot_name(state, s), row=_row_name(s[0]), other_row=_row_name("B" if s[0] == "F" else "F"))
        for s in arg.split()]
    what = parts[0]
    for i, part in enumerate(parts[1:], 2):
        what = (_("{moves} and {move}") if i == len(parts) else _("{moves}, {move}")).format(
            moves=what, move=part)
    return _("Player {player} moves {moves} (移動, TK-13, TK-27).").format(player=who, moves=what)


def _explain_event(state: Any, arg: str, who: int) -> str:
    """An event card in words, with its target if it has one (TK-13, TK-24, TK-Q2)."""
    no, *target = arg.split()
    effect = state.game.cards[int(no)].effect_text()
    if target:
        return _("Player {player} uses the event (イベント) {card}: {effect}; target: {target} in {row} "
                 "(TK-13, TK-24, TK-Q2).").format(player=who, card=_card_name(state, no), effect=effect,
                                                  target=_slot_name(state, target[0]),
                                                  row=_row_name(target[0][-2]))
    return _("Player {player} uses the event (イベント) {card}: {effect} (TK-13, TK-24, TK-Q2).").format(
        player=who, card=_card_name(state, no), effect=effect)


def _explain_battle(state: Any, verb: str, arg: str, who: int) -> str:
    """An ``attack`` (TK-14, TK-16) or a ``block`` (TK-17) in words, with its payment."""
    k = state._k
    tp = k[TP]
    head, boosts = _split_boost(arg)
    slot, m = head.split()
    if verb == "block":
        D = k[P1 - tp]
        y = D[BK][int(slot[1]) - 1]
        meth = state.game.cards[y[0]].methods[int(m[1:]) - 1]
        return _("Player {player} blocks (ブロック) with {card} using {method} (BP {bp}, cost {cost}) (TK-17); "
                 "{payment}.").format(player=who, card=_card_name(state, y[0]), method=_method_name(meth),
                                      bp=meth.bp, cost=meth.cost, payment=_payment_text(D, meth.cost, boosts))
    P = k[P0 + tp]
    y = P[FR][int(slot[1]) - 1]
    meth = state.game.cards[y[0]].methods[int(m[1:]) - 1]
    payment = _payment_text(P, meth.cost, boosts)
    mname = _method_name(meth)
    if k[ST] == MAIN:
        return _("Player {player} ends the main phase, goes to battle (TK-14) and attacks (アタック) with "
                 "{card} using {method} (BP {bp}, cost {cost}); it rests (TK-16); {payment}.").format(
            player=who, card=_card_name(state, y[0]), method=mname, bp=meth.bp, cost=meth.cost, payment=payment)
    return _("Player {player} attacks (アタック) with {card} using {method} (BP {bp}, cost {cost}); it rests "
             "(TK-16); {payment}.").format(player=who, card=_card_name(state, y[0]), method=mname, bp=meth.bp,
                                           cost=meth.cost, payment=payment)


def _explain_chance(state: Any, verb: str, arg: str, tail: str) -> str:
    """A chance outcome in words: the coin (TK-4), a card taken from a deck (TK-2 … TK-19, TK-Q6)."""
    k = state._k
    tp = k[TP]
    name = lambda no: state.game.cards[int(no)].label()
    if verb == "first":
        return _("Player {player} goes first (TK-4, TK-Q3).").format(player=arg)
    if verb == "shuffle":
        return _("{card} is laid in the deck order, known to both players (TK-2, TK-Q6).").format(card=name(arg))
    if verb == "deal":  # the rule ids depend on the public stage only: the same for every card
        return _("{card} is dealt into player {player}'s hand ({rules}).").format(
            card=name(arg), player=tp, rules="TK-3" if k[PD] == 1 else "TK-2")
    if verb == "draw":
        return _("Player {player} draws {card} ({rules}).").format(
            player=tp, card=name(arg), rules="TK-11" if k[ST] == DRAW else "TK-24, TK-Q2")
    if verb == "damage":
        return _("{card} goes face up into the damage zone (ダメージ, TK-18, TK-6).").format(card=name(arg))
    if verb == "reveal":
        if state._fits(int(arg), state._owner()):
            return _("{card} is revealed: it possesses (TK-19).").format(card=name(arg)) + tail
        return _("{card} is revealed: it does not fit, to the trash (TK-19).").format(card=name(arg)) + tail
    return f"{verb} {arg}"


def state_text(state: Any) -> str:
    """The position as a few lines of text (``str(state)``)."""
    g = state.game
    k = state._k
    stage = k[ST]
    if stage == OVER:
        head = _("game over: player {player} wins").format(player=k[WN])
    else:
        cp = state.current_player
        if cp == CHANCE:
            head = _("stage {stage}, turn of player {player}, chance").format(
                stage=_stage_name(stage), player=k[TP])
        else:
            head = _("stage {stage}, turn of player {player}, player {decider} to decide").format(
                stage=_stage_name(stage), player=k[TP], decider=cp)
    lines = [_("Toritsuki card battle (とりつきカードバトル) · {head}").format(head=head)]

    def yk(y: tuple) -> str:
        c = g.cards[y[0]]
        extra = f"+{y[3]}" if y[3] else ""
        return f"{c.shown_name()}#{c.no}{extra}({'休' if y[1] else '元'})"
    for p in (0, 1):
        P = k[P0 + p]
        hand = ", ".join(f"{g.cards[no].shown_name()}#{no}" + (f"×{c}" if c > 1 else "")
                         for no, c in _runs(P[H])) or "—"
        top = _(" top {cards}").format(cards=list(P[TOP])) if P[TOP] else ""
        lines.append(_("  player {player}: deck (山札) {deck}{top} | yoki (妖気) {ready} ready/{resting} resting | "
                       "damage (ダメージ) {up} up/{down} down | trash (トラッシュ) {trash}").format(
            player=p, deck=P[N], top=top, ready=P[YR], resting=P[YS], up=P[DU], down=P[DD], trash=P[TR]))
        lines.append(_("    front (前衛): {front} | back (後衛): {back}").format(
            front=", ".join(map(yk, P[FR])) or "—", back=", ".join(map(yk, P[BK])) or "—"))
        lines.append(_("    hand (手札): {hand}").format(hand=hand))
    rep = state.battle_report()
    if rep is not None:
        lines.append("  " + rep.text())
    elif k[BA] is not None:
        lines.append(_("  attack by {card}#{no} (method {method})").format(
            card=g.cards[k[BA][0]].shown_name(), no=k[BA][0], method=k[BA][2] + 1))
    return "\n".join(lines)



def report(g: Any, tp: int, b: tuple) -> BattleReport:
    """TK-20, TK-21: both BPs with every modifier and its source."""
    sides = []
    for who, (no, bonus, mi) in ((tp, b[0:3]), (1 - tp, b[3:6])):
        c = g.cards[no]
        m = c.methods[mi]
        if get_language() == "ja":  # the names printed on the card
            s = SideReport(who, no, c.japanese, m.japanese or m.name, m.category, m.bp)
        else:
            s = SideReport(who, no, f"{c.name} ({c.japanese})", f"{m.name} ({m.japanese})", m.category, m.bp)
        if m.icon:
            s.icons.append(m.icon)
        if bonus:
            s.modifiers.append((_("event until end of turn"), bonus))
        sides.append(s)
    for owner, poss in ((tp, b[6]), (1 - tp, b[7])):
        if not poss:
            continue
        c = g.cards[poss]
        on = sides[0] if rules.on_attacker(owner == tp, c.target == "own") else sides[1]
        on.modifiers.append((_("possession (とりつく) by {card} #{no} of player {player}").format(
            card=c.shown_name(), no=poss, player=owner), c.poss_bp))
        if c.poss_icon and c.poss_icon not in on.icons:
            on.icons.append(c.poss_icon)
    a, d = sides
    out = rules.duel(a.total, d.total, rules.icon_bits(a.icons), rules.icon_bits(d.icons))
    fainted = [s.name for s, faints in ((a, out.attacker_faints), (d, out.defender_faints)) if faints]
    return BattleReport(a, d, out.winner, fainted, out.pierce)


def hidden_text(state: Any, public: str, viewer: int) -> str | None:
    """What ``viewer`` reads of a card dealt or drawn into the other hand
    (TK-2, TK-3, TK-11, TK-Q2): who got a card, never which."""
    verb = public.partition(" ")[0]
    owner = 1 - viewer
    if verb == "deal":
        return _("Player {player} is dealt a card.").format(player=owner)
    if verb == "draw":
        return _("Player {player} draws a card.").format(player=owner)
    return None
