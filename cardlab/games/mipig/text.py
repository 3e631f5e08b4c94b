"""mipig in words for people (MP-1 … MP-25): the names of attributes,
marks, edges and phases, a card and a position as text, and the
explanations of moves (:func:`explain`, :func:`explain_battle` with its
:class:`Battle` and :class:`Bonus`).  The rules are :mod:`.rules`; this
module only says them."""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field
from fractions import Fraction
from typing import Any

from ...errors import IllegalActionError
from ...i18n import N_, _, get_language, pgettext
from . import rules
from .cards import ATTRIBUTE_JA, ATTRIBUTE_TERM, MARK_JA, MARK_TERM, Card, card_name, card_text
from .key import (BATTLE, COIN, DEAL, DIRS, END, HOW_COIN, HOW_LOCKED, HOW_ROUNDS, HOWS, JANKEN, KEY, PHASES,
                  SHIFT)
from .rules import EDGES, MARKS

__all__ = ["hidden_text", "Battle", "Bonus", "explain", "explain_battle", "state_text", "card_text", "card_name",
           "mark_word", "how_text", "direction_text", "ATTRIBUTE_JA", "MARK_JA", "ATTRIBUTE_TERM",
           "MARK_TERM", "EDGE_TERM", "PHASE_JA", "PHASE_TERM"]

#: the terms as a person reads them: English with the Japanese beside it; in Japanese only the Japanese
EDGE_TERM = {"top": N_("top 上"), "bottom": N_("bottom 下"), "left": N_("left 左"), "right": N_("right 右")}
PHASE_JA = {"deal": "配札", "janken": "先攻決め (じゃんけん)", "coin": "コイン",
            "placement": "配置フェーズ", "battle": "バトルフェーズ", "tiebreak": "じゃんけん決着",
            "end": "ゲーム終了"}
PHASE_TERM = {"deal": N_("deal (配札)"), "janken": N_("janken (先攻決め (じゃんけん))"), "coin": N_("coin (コイン)"),
              "placement": N_("placement (配置フェーズ)"), "battle": N_("battle (バトルフェーズ)"),
              "tiebreak": N_("tiebreak (じゃんけん決着)"), "end": N_("end (ゲーム終了)")}
# an attack's direction, in a sentence
_WHERE = {"right": N_("to its right"), "left": N_("to its left"), "below": N_("below it"), "above": N_("above it")}


def mark_word(mark: str) -> str:
    """A janken mark alone, as a person reads it: ``rock`` (グー in Japanese)."""
    return {"rock": pgettext("janken mark", "rock"), "scissors": pgettext("janken mark", "scissors"),
            "paper": pgettext("janken mark", "paper")}.get(mark, mark)


def how_text(how: str) -> str:
    """How the first player was decided (:data:`HOWS`), as a person reads it."""
    return {"undecided": pgettext("mipig first player", "undecided"),
            "option": pgettext("mipig first player", "option"),
            "janken": pgettext("mipig first player", "janken"),
            "coin": pgettext("mipig first player", "coin"),
            "coin: janken tie cannot break": pgettext("mipig first player", "coin: janken tie cannot break"),
            "coin: janken round limit": pgettext("mipig first player", "coin: janken round limit")}.get(how, how)


def direction_text(direction: str) -> str:
    """An attack's direction (``right``, ``left``, ``below``, ``above``) as a person reads it."""
    return {"right": pgettext("mipig direction", "right"), "left": pgettext("mipig direction", "left"),
            "below": pgettext("mipig direction", "below"), "above": pgettext("mipig direction", "above")
            }.get(direction, direction)


# -- battle explanation ------------------------------------------------------------
@dataclass(frozen=True)
class Bonus:
    """One side's attribute bonus in a battle (MP-19 … MP-22)."""

    player: int
    attribute: str
    count: int       # own face-up cards of that attribute on the field, after the reveal
    bonus: int

    def text(self) -> str:
        a = _(ATTRIBUTE_TERM[self.attribute])
        if self.bonus:
            return _("+{bonus} ({count} face-up {attribute} cards of player {player}: "
                     "{count} - 1, MP-19/MP-20)").format(bonus=self.bonus, count=self.count, attribute=a,
                                                         player=self.player)
        return _("+0 (only {count} face-up {attribute} card of player {player}; a bonus needs 2, MP-19)").format(
            count=self.count, attribute=a, player=self.player)


@dataclass(frozen=True)
class Battle:
    """Everything about one battle (MP-11 … MP-15, MP-19 … MP-22, MP-Q5).

    ``result`` is ``"attacker"``, ``"defender"`` or ``"draw"``; ``loser_card``
    the card sent to the graveyard 墓地 (``None`` on a draw).
    """

    attacker_player: int
    defender_player: int
    attacker_card: Card
    defender_card: Card
    attacker_pos: tuple[int, int]   # the squares' names (MP-Q4), as in the action
    defender_pos: tuple[int, int]
    direction: str
    attacker_edge: str
    defender_edge: str
    attacker_number: int
    defender_number: int
    attacker_bonus: Bonus
    defender_bonus: Bonus
    attacker_total: int
    defender_total: int
    janken: tuple[str, str] | None
    result: str
    loser_card: Card | None
    defender_was_face_up: bool
    rules: tuple[str, ...] = dc_field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": {"player": self.attacker_player, "card": self.attacker_card.id,
                         "pos": list(self.attacker_pos), "edge": self.attacker_edge,
                         "number": self.attacker_number, "bonus": self.attacker_bonus.bonus,
                         "bonus_count": self.attacker_bonus.count, "total": self.attacker_total},
            "defender": {"player": self.defender_player, "card": self.defender_card.id,
                         "pos": list(self.defender_pos), "edge": self.defender_edge,
                         "number": self.defender_number, "bonus": self.defender_bonus.bonus,
                         "bonus_count": self.defender_bonus.count, "total": self.defender_total,
                         "was_face_up": self.defender_was_face_up},
            "direction": self.direction,
            "janken": list(self.janken) if self.janken else None,
            "result": self.result,
            "loser": self.loser_card.id if self.loser_card else None,
            "rules": list(self.rules),
        }

    def text(self) -> str:
        a, d = self.attacker_card, self.defender_card
        gap = "" if get_language() == "ja" else " "  # between sentences: Japanese puts none after 。
        up = _("already face up") if self.defender_was_face_up else _("turned face up")
        (ax, ay), (dx, dy) = self.attacker_pos, self.defender_pos
        head = _("Player {attacker}'s {attacker_card} at {attacker_square} attacks player {defender}'s "
                 "{defender_card} {where} at {defender_square} (MP-11); both face up (defender {up}, MP-12)."
                 ).format(attacker=self.attacker_player, attacker_card=f"{a.id} {card_name(a)}",
                          attacker_square=f"{ax},{ay}", defender=self.defender_player,
                          defender_card=f"{d.id} {card_name(d)}", where=_(_WHERE[self.direction]),
                          defender_square=f"{dx},{dy}", up=up)
        nums = gap + _("Edges (MP-Q5): attacker {attacker_edge} {attacker_number} {attacker_bonus} = "
                       "{attacker_total}; defender {defender_edge} {defender_number} {defender_bonus} = "
                       "{defender_total}.").format(
            attacker_edge=_(EDGE_TERM[self.attacker_edge]), attacker_number=self.attacker_number,
            attacker_bonus=self.attacker_bonus.text(), attacker_total=self.attacker_total,
            defender_edge=_(EDGE_TERM[self.defender_edge]), defender_number=self.defender_number,
            defender_bonus=self.defender_bonus.text(), defender_total=self.defender_total)
        if self.janken is None:
            why = gap + (_("The larger number wins (MP-13): the attacker wins.") if self.result == "attacker"
                         else _("The larger number wins (MP-13): the defender wins."))
        else:
            ma, md = self.janken
            marks = dict(attacker_mark=_(MARK_TERM[ma]), defender_mark=_(MARK_TERM[md]),
                         attacker_word=mark_word(ma), defender_word=mark_word(md))
            why = gap + {
                "attacker": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                              "{attacker_word} beats {defender_word}: the attacker wins."),
                "defender": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                              "{defender_word} beats {attacker_word}: the defender wins."),
                "draw": _("Equal numbers: janken marks {attacker_mark} against {defender_mark} (MP-14); "
                          "{attacker_word} against {defender_word} is a tie too: a draw."),
            }[self.result].format(**marks)
        if self.loser_card is None:
            end = gap + _("Both stay on the field face up (MP-15).")
        else:
            end = gap + _("{card} goes to its owner's graveyard 墓地; the winner stays face up (MP-15).").format(
                card=f"{self.loser_card.id} {card_name(self.loser_card)}")
        return head + nums + why + end

    def __str__(self) -> str:
        return self.text()


def explain_battle(s: Any, action: str) -> Battle:
    """The structured explanation of an attack action here (before it happens).

    >>> import cardlab
    >>> g = cardlab.load("mipig", hand_size=1, hands=[["p01"], ["p02"]], first_player=0)
    >>> s = g.new_initial_state().apply("place p01 0,0").apply("place p02 1,0")
    >>> b = s.explain_battle("attack 0,0 1,0")
    >>> (b.attacker_edge, b.attacker_number, b.defender_edge, b.defender_number, b.result)
    ('right', 9, 'left', 8, 'attacker')
    """
    if s.key[KEY.phase] != BATTLE or action not in s.legal_actions() or action == "pass":
        raise IllegalActionError(_("mipig: {action} is not an attack that is legal here; legal: {legal}").format(
            action=repr(action), legal=", ".join(s.legal_actions()) or pgettext("mipig list", "none")))
    g = s.game
    _verb, ax, ay, dx, dy = g.parse(action)
    apos, dpos = s.key_pos(ax, ay), s.key_pos(dx, dy)
    occ = {v >> SHIFT: v for v in s.key[KEY.field]}
    res, an, dn, ba, bd, na, nd, jk = s.fight(occ, apos, dpos)
    va, vd = occ[apos], occ[dpos]
    ca, cd = (va >> 2) & 1023, (vd >> 2) & 1023
    pa, pd = (va >> 1) & 1, (vd >> 1) & 1
    ea, ed, direction = DIRS[dpos - apos]
    card_a, card_d = g.cards[ca], g.cards[cd]
    rules = ["MP-11", "MP-12", "MP-13", "MP-Q5", "MP-19", "MP-20", "MP-21", "MP-22"]
    if jk:
        rules.append("MP-14")
    rules.append("MP-15")
    return Battle(
        attacker_player=pa, defender_player=pd, attacker_card=card_a, defender_card=card_d,
        attacker_pos=(ax, ay), defender_pos=(dx, dy),
        direction=direction, attacker_edge=EDGES[ea], defender_edge=EDGES[ed],
        attacker_number=an, defender_number=dn,
        attacker_bonus=Bonus(pa, card_a.attribute, na, ba),
        defender_bonus=Bonus(pd, card_d.attribute, nd, bd),
        attacker_total=an + ba, defender_total=dn + bd,
        janken=(card_a.janken, card_d.janken) if jk else None,
        result={1: "attacker", -1: "defender", 0: "draw"}[res],
        loser_card=None if res == 0 else (card_d if res > 0 else card_a),
        defender_was_face_up=bool(vd & 1), rules=tuple(rules))

def explain(s: Any, action: str) -> str:
    g = s.game
    k = s.key
    p = k[KEY.mover]
    t = g.parse(action)
    verb = t[0]
    if verb == "attack":
        return explain_battle(s, action).text()
    if verb == "place":
        card, square = card_ref(s, action.split()[1]), action.split()[2]
        if not k[KEY.field]:
            return _("Player {player} lays {card} face down at {square}, anywhere: the first card (MP-6); "
                     "players alternate (MP-5).").format(player=p, card=card, square=square)
        return _("Player {player} lays {card} face down at {square}, touching a card along a full edge "
                 "(MP-7); players alternate (MP-5).").format(player=p, card=card, square=square)
    if verb == "pass":
        return _("Player {player} has no face-down card touching an opponent card and passes (MP-18).").format(
            player=p)
    if verb == "deal":
        who = 0 if len(k[KEY.hand0]) < g.n else 1
        card = card_ref(s, g.ids[t[1]])
        if g.shared:
            return _("Player {player} is dealt {card} from one shared card set ({n} cards each, MP-3).").format(
                player=who, card=card, n=g.n)
        return _("Player {player} is dealt {card} from player {player}'s own copy of the card set "
                 "({n} cards each, MP-3).").format(player=who, card=card, n=g.n)
    if verb == "coin":
        if k[KEY.how] == HOW_COIN:
            return _("A fair coin: player {player} goes first (first_player='random'; MP-Q2).").format(
                player=t[1])
        if k[KEY.how] == HOW_LOCKED:
            return _("A fair coin: player {player} goes first (a janken tie that cannot break: no card "
                     "beats the tied mark; MP-Q2).").format(player=t[1])
        if k[KEY.how] == HOW_ROUNDS:
            return _("A fair coin: player {player} goes first ({rounds} janken rounds all tied; MP-Q2).").format(
                player=t[1], rounds=g.rounds)
        return _("A fair coin: player {player} goes first ({why}; MP-Q2).").format(player=t[1], why="")
    if verb == "show":
        c = g.cards[t[1]]
        if p == 0:
            return _("Player 0 picks {card} ({mark}) for the first-player janken; player 1 picks without "
                     "seeing it (MP-4).").format(card=card_ref(s, c.id), mark=_(MARK_TERM[c.janken]))
        c0 = g.cards[k[KEY.pending]]
        m0, m1 = g.mark[k[KEY.pending]], g.mark[t[1]]
        cards = dict(card=card_ref(s, c.id), mark=_(MARK_TERM[c.janken]), card0=card_ref(s, c0.id),
                     mark0=_(MARK_TERM[c0.janken]))
        if m0 == m1 and not rules.tie_can_break(m0, {g.mark[c] for c in k[KEY.hand0] + k[KEY.hand1]}):
            return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie that "
                     "cannot break, no card of either hand beats {word}: a fair coin decides (MP-Q2); both "
                     "cards go back to the hands.").format(word=mark_word(c.janken), **cards)
        elif m0 == m1 and g.rounds is not None and k[KEY.round] + 1 >= g.rounds:
            return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie, the "
                     "{rounds}th: a fair coin decides (MP-Q2); both cards go back to the hands.").format(
                rounds=g.rounds, **cards)
        elif m0 == m1:
            return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): a tie: both pick "
                     "again (MP-Q2); both cards go back to the hands.").format(**cards)
        return _("Player 1 picks {card} ({mark}) against player 0's {card0} ({mark0}): player {player} goes "
                 "first (MP-4); both cards go back to the hands.").format(
            player=0 if rules.janken_beats(m0, m1) else 1, **cards)
    if verb == "pick":
        m = MARKS[t[1]]
        if p == 0:
            return _("Player 0 picks {mark} for the end janken; player 1 cannot see it (MP-25, MP-Q3).").format(
                mark=_(MARK_TERM[m]))
        m0 = k[KEY.pending]
        marks = dict(mark=_(MARK_TERM[m]), mark0=_(MARK_TERM[MARKS[m0]]))
        if m0 == t[1] and not rules.tie_can_break(m0, set(s.tiebreak_marks(0)) | set(s.tiebreak_marks(1))):
            return _("Player 1 picks {mark} against player 0's {mark0}: a tie that cannot break, no counted "
                     "card beats {word}: a draw (MP-Q3).").format(word=mark_word(m), **marks)
        elif m0 == t[1] and g.rounds is not None and k[KEY.round] + 1 >= g.rounds:
            return _("Player 1 picks {mark} against player 0's {mark0}: a tie, the {rounds}th: a draw "
                     "(MP-Q3).").format(rounds=g.rounds, **marks)
        elif m0 == t[1]:
            return _("Player 1 picks {mark} against player 0's {mark0}: a tie: pick again (MP-Q3).").format(
                **marks)
        return _("Player 1 picks {mark} against player 0's {mark0}: player {player} wins the game "
                 "(MP-25).").format(player=0 if rules.janken_beats(m0, t[1]) else 1, **marks)
    return action

def card_ref(s: Any, card_id: str) -> str:
    """A card in a sentence: its id (in Japanese, with its Japanese name beside it)."""
    i = s.game.index.get(card_id)
    if i is None or get_language() != "ja":
        return card_id
    c = s.game.cards[i]
    return f"{c.id} {card_name(c)}"


def state_text(s: Any) -> str:
    k = s.key
    g = s.game
    ph = PHASES[k[KEY.phase]]
    if k[KEY.phase] == END:
        o = k[KEY.outcome]
        res = (pgettext("mipig", "draw 引き分け") if o == 0 else pgettext("mipig", "player {player} wins 勝ち").format(player=0 if o > 0 else 1)
               if g.options["payoff"] == "win" and Fraction(o).denominator == 1
               else _("value {value}").format(value=o))
        head = _("game over ゲーム終了 · {result}").format(result=res)
    elif k[KEY.phase] in (DEAL, COIN):
        head = _(PHASE_TERM[ph])
    else:
        head = _("player {player} to move · {phase}").format(player=k[KEY.mover], phase=_(PHASE_TERM[ph]))
    lines = [_("mipig (mipigトレーディングカード) · {head}").format(head=head)]
    if k[KEY.first] >= 0:
        lines.append(_("  first player 先攻: {player} ({how})").format(player=k[KEY.first], how=how_text(HOWS[k[KEY.how]])))
    for p in (0, 1):
        lines.append(_("  player {player}: hand 手札 [{hand}] · graveyard 墓地 [{graveyard}] · face up 表向き "
                       "{count}").format(player=p, hand=" ".join(s.hand(p)) or "—",
                                         graveyard=" ".join(s.hand_ids(k[KEY.grave0 + p])) or "—",
                                         count=s.face_up_count(p)))
    if k[KEY.pending] >= 0:
        lines.append(_("  pending pick: {pick}").format(
            pick=g.ids[k[KEY.pending]] if k[KEY.phase] == JANKEN else mark_word(MARKS[k[KEY.pending]])))
    cells = s.cells()
    if cells:  # the squares by name (MP-Q4): the first card laid is on 0,0
        x0, y0 = s.origin
        w = max(x for x, *_ in cells) + 1 - x0
        h = max(y for _, y, *_ in cells) + 1 - y0
        grid = [["   .    "] * w for _ in range(h)]
        for x, y, c, o, u in cells:
            grid[y - y0][x - x0] = f"{o}:{g.ids[c]:<4}{'▲' if u else '▽'} "[:8].ljust(8)
        lines.append(_("  field フィールド (owner:card, ▲ face up 表, ▽ face down 裏):"))
        lines.append("      " + "".join(f"x={x:<6}" for x in range(x0, x0 + w)))
        for y in range(h):
            lines.append(f"  y={y + y0:<2} " + "".join(grid[y]).rstrip())
    return "\n".join(lines)


def hidden_text(s: Any, public: str, viewer: int) -> str | None:
    """What ``viewer`` reads of a move they do not fully see (MP-Q6, public
    forms of :func:`.seen.public_action`): a card dealt to the other hand, a
    card laid face down on a square, player 0's janken pick not yet shown."""
    words = public.split()
    other = 1 - viewer
    if words[0] == "deal":
        return _("Player {player} is dealt a card.").format(player=other)
    if words[0] == "place" and len(words) == 3:
        return _("Player {player} lays a card face down at {square}.").format(player=other, square=words[2])
    if words[0] == "show":
        return _("Player {player} picks a card for the janken to decide who goes first; it stays hidden until "
                 "player {viewer} picks.").format(player=other, viewer=viewer)
    if words[0] == "pick":
        return _("Player {player} picks a janken mark; it stays hidden until player {viewer} picks.").format(
            player=other, viewer=viewer)
    return None
