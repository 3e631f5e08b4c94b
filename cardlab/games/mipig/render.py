"""mipig trading cards (mipigトレーディングカード) as text and as an HTML/SVG table.

Pure functions of a state and a perspective: ``perspective=p`` draws only
``state.observation(p)`` (the opponent's hand and face-down cards as card
backs, unless the game has open hands); ``perspective=None`` shows everything
(``state.to_dict()``), face-down cards with their faces, marked face down.

The field (フィールド) is drawn as a grid with the square names of the action
notation (``place p07 -1,0``, ``attack 0,0 1,0``; the first card laid is on
``0,0`` and a square keeps its name to the end, MP-Q4): during placement the legal
squares (MP-6, MP-7) are dashed boxes labelled with their coordinates; during
the battle the legal attacks of the player to move (MP-11, MP-16, MP-17) are
arrows from attacker to target.  Face-up cards carry their attribute bonus
(属性ボーナス, MP-19 … MP-22) as a badge.

>>> import cardlab
>>> s = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0).new_initial_state()
>>> print(text(s, perspective=1))
mipig (mipigトレーディングカード) · player 0 to move · placement (配置フェーズ) · as seen by player 1
  first player 先攻: 0 (option)
  player 0: hand 手札 2 hidden cards · graveyard 墓地 — · face up 表向き 0
  player 1: hand 手札 p05 p12 · graveyard 墓地 — · face up 表向き 0
  field フィールド: empty; the first card may go anywhere (MP-6)
>>> "<svg" in html(s, perspective=0)
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from ... import display
from ...core import State
from . import rules
from .cards import ATTRIBUTE_JA, MARK_JA, Card
from .text import (ATTRIBUTE_TERM, EDGE_TERM, MARK_TERM, PHASE_TERM, Battle, card_name, direction_text, how_text,
                   mark_word)
from ...i18n import N_, _, get_language, npgettext, pgettext

__all__ = ["text", "html", "layout", "move_html", "action_label", "view", "card_svg", "battle_html",
           "placement_targets", "attack_options"]

NAME = "mipig"

CW, CH = 64, 64      # a square of the field, px
PAD = 3              # card inset in its square
AXIS = 18            # room for the coordinate labels
OWNER = ("#2f6fb5", "#c2453c")           # player 0 blue, player 1 red (MP-8)
OWNER_LIGHT = ("#e6effa", "#fae8e6")
BACK = "#7b4f8f"
ATTR_COLOUR = {"love": "#e76f9a", "wisdom": "#4a7fc1", "healing": "#4caf7a",
               "play": "#e9a23b", "guidance": "#8a63c7"}
EDGE_JA = {"top": "上", "bottom": "下", "left": "左", "right": "右"}
def mark_glyph(mark: str, x: float, y: float) -> str:
    """The janken hand of a card as a small drawing centred at (x, y): a
    fist (グー), two fingers (チョキ), an open hand (パー).  Drawn, not an
    emoji, so that it shows with any font (headless browsers and many
    classroom machines have no emoji font)."""
    ink = ' fill="none" stroke="#333" stroke-width="1.3" stroke-linecap="round"'
    if mark == "rock":
        body = f'<circle cx="{x}" cy="{y}" r="3.6" fill="#333"/>'
    elif mark == "scissors":
        body = (f'<path d="M{x - 3},{y - 4.5} L{x},{y + 1.5} L{x + 3},{y - 4.5}"{ink}/>'
                f'<circle cx="{x}" cy="{y + 2.5}" r="2" fill="#333"/>')
    else:
        body = (f'<rect x="{x - 3}" y="{y - 1}" width="6" height="5" rx="1.5" fill="#333"/>'
                + "".join(f'<line x1="{x + dx}" y1="{y - 1}" x2="{x + dx}" y2="{y - 5}"{ink}/>'
                          for dx in (-2.4, -0.8, 0.8, 2.4)))
    return f'<g class="cardlab-janken-{mark}">{body}</g>'

PHASE_NOTE = {
    "deal": N_("dealing: the same number of cards each (MP-3)"),
    "janken": N_("who goes first: both show a card at once, the janken marks decide (MP-4, MP-Q2)"),
    "coin": N_("a fair coin decides who goes first (MP-Q2)"),
    "placement": N_("placement 配置フェーズ: lay a card face down on a dashed square (MP-5, MP-6, MP-7)"),
    "battle": N_("battle バトルフェーズ: a face-down card attacks a touching opponent card (MP-10, MP-11, MP-16)"),
    "tiebreak": N_("equal face-up counts: each picks a mark of a remaining card at once (MP-25, MP-Q3)"),
    "end": N_("game over ゲーム終了: own face-up cards are counted (MP-23, MP-24)"),
}


def mark_term(mark: str) -> str:
    """``rock グー``: a janken mark with its Japanese beside it (in Japanese: ``グー``)."""
    return _(MARK_TERM[mark]) if mark in MARK_TERM else f"{mark} {MARK_JA[mark]}"


def attr_term(attr: str) -> str:
    """``love 愛``: an attribute with its Japanese beside it (in Japanese: ``愛``)."""
    return _(ATTRIBUTE_TERM[attr]) if attr in ATTRIBUTE_TERM else f"{attr} {ATTRIBUTE_JA[attr]}"


def _pending_text(pending: Any) -> str:
    """A pending janken pick as a person reads it: a card id, a mark, or that it is hidden."""
    if pending == "picked (hidden)":
        return _("picked (hidden)")
    if pending in MARK_TERM:
        return mark_word(pending)
    return str(pending)


def _option_value(value: Any) -> str:
    """An option's value on the board (``'shared'``, ``3``), as a person reads it."""
    words = {"'own'": pgettext("mipig option value", "'own'"),
             "'shared'": pgettext("mipig option value", "'shared'"),
             "'janken'": pgettext("mipig option value", "'janken'"),
             "'random'": pgettext("mipig option value", "'random'"),
             "'value'": pgettext("mipig option value", "'value'"),
             "'draw'": pgettext("mipig option value", "'draw'"),
             "'face_up'": pgettext("mipig option value", "'face_up'"),
             "'all_on_field'": pgettext("mipig option value", "'all_on_field'"),
             "'win'": pgettext("mipig option value", "'win'"),
             "'score'": pgettext("mipig option value", "'score'")}
    return words.get(repr(value), repr(value))


def _option_name(name: str) -> str:
    """An option's name on the board (``hand_size``), as a person reads it."""
    return {"hand_size": pgettext("mipig option", "hand_size"), "deal": pgettext("mipig option", "deal"),
            "first_player": pgettext("mipig option", "first_player"),
            "tiebreak": pgettext("mipig option", "tiebreak"),
            "tiebreak_cards": pgettext("mipig option", "tiebreak_cards"),
            "payoff": pgettext("mipig option", "payoff")}.get(name, name)


# -- the view: what the perspective may see -------------------------------------
def view(state: State, perspective: int | None = None) -> dict[str, Any]:
    """The facts to draw, from ``observation(perspective)`` (or, with
    ``perspective=None``, from ``to_dict()``).  ``hands`` holds a list of card
    ids for a hand that is shown and an int (its size) for a hidden one; each
    field cell is ``{x, y, owner, face_up, card}`` with ``card=None`` for a
    face-down card the perspective may not see."""
    display.check_perspective(state, perspective)
    if perspective == display.SPECTATOR:  # the class: what both seats' views have in common
        return display.public_view(view, state)
    if perspective is None:
        d = state.to_dict()
        hands: list[Any] = d["hands"]
        field = d["field"]
        pending = d["pending"]
        face_up = [sum(1 for c in field if c["face_up"] and c["owner"] == p) for p in (0, 1)]
    else:
        d = state.observation(perspective)
        hands = [None, None]
        hands[perspective] = d["hand"]
        hands[1 - perspective] = d["opponent_hand"]
        field = d["field"]
        pending = d["pending_pick"]
        face_up = d["face_up"]
    return {
        "phase": d["phase"], "to_move": d["to_move"], "first_player": d["first_player"],
        "decided_by": d["decided_by"], "hands": hands, "field": field, "graveyards": d["graveyards"],
        "pending": pending, "shown": d["shown"], "janken_round": d["janken_round"], "face_up": face_up,
        "outcome": d["outcome"], "returns": state.returns() if state.is_terminal() else None,
    }


def bonuses(field: list[dict[str, Any]], cards: dict[str, Card]) -> dict[tuple[int, int], tuple[int, int]]:
    """MP-19, MP-20, MP-22: ``(x, y) -> (bonus, count)`` for every face-up card
    on the field (count: its owner's face-up cards of its attribute)."""
    count: dict[tuple[int, str], int] = {}
    for c in field:
        if c["face_up"]:
            key = (c["owner"], cards[c["card"]].attribute)
            count[key] = count.get(key, 0) + 1
    out = {}
    for c in field:
        if c["face_up"]:
            n = count[(c["owner"], cards[c["card"]].attribute)]
            out[(c["x"], c["y"])] = (rules.attribute_bonus(n), n)
    return out


def placement_targets(state: State) -> list[tuple[int, int]]:
    """The squares where the player to move may lay a card (MP-6, MP-7), in the
    coordinates of the action notation; empty outside placement.  Read from
    ``legal_actions()``: the squares only, never which cards are in the hand."""
    out: list[tuple[int, int]] = []
    if state.current_player < 0:
        return out
    for a in state.legal_actions():
        if a.startswith("place "):
            x, y = a.split()[2].split(",")
            sq = (int(x), int(y))
            if sq not in out:
                out.append(sq)
    return out


def attack_options(state: State) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The legal attacks of the player to move as ``(attacker, target)``
    squares (MP-11, MP-16, MP-17); empty outside the battle or on a pass."""
    out = []
    if state.current_player < 0:
        return out
    for a in state.legal_actions():
        if a.startswith("attack "):
            _verb, fa, fd = a.split()
            ax, ay = fa.split(",")
            dx, dy = fd.split(",")
            out.append(((int(ax), int(ay)), (int(dx), int(dy))))
    return out


def _head(v: dict[str, Any], perspective: int | None) -> str:
    ph = v["phase"]
    if ph == "end":
        head = _("game over")
    elif ph in ("deal", "coin"):
        head = _("chance to act")
    else:
        head = _("player {player} to move").format(player=v["to_move"])
    seen = (pgettext("mipig", "everything shown") if perspective is None
            else pgettext("mipig", "as seen by the class") if perspective == display.SPECTATOR
            else pgettext("mipig", "as seen by player {player}").format(player=perspective))
    return _("mipig (mipigトレーディングカード) · {head} · {phase} · {seen}").format(
        head=head, phase=_(PHASE_TERM[ph]), seen=seen)


def _result(v: dict[str, Any]) -> str:
    r = v["returns"][0]
    fu = v["face_up"]
    count = _("face up 表向き {count0} : {count1}").format(count0=fu[0], count1=fu[1])
    if r == 0:
        who = _("a draw 引き分け")
    elif fu[0] != fu[1] or float(r) in (1.0, -1.0):
        who = pgettext("mipig", "player {player} wins 勝ち").format(player=0 if r > 0 else 1)
    else:
        who = _("player 0's value {value}").format(value=v["outcome"])
    if fu[0] != fu[1]:
        return _("{count} → {result}").format(count=count, result=who)
    return _("{count} → {result} after the janken tiebreak (MP-25)").format(count=count, result=who)


# -- text --------------------------------------------------------------------------
def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; hidden cards show as ``??`` and a hidden hand as its
    number of cards (``perspective=None``: ``str(state)``, everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective)]
    if v["first_player"] is not None:
        lines.append(_("  first player 先攻: {player} ({how})").format(player=v["first_player"],
                                                                       how=how_text(v["decided_by"])))
    for p in (0, 1):
        h = v["hands"][p]
        if not h:
            shown = "—"
        elif isinstance(h, int):
            shown = npgettext("mipig", "{n} hidden card", "{n} hidden cards", h).format(n=h)
        else:
            shown = " ".join(h)
        lines.append(_("  player {player}: hand 手札 {hand} · graveyard 墓地 {graveyard} · face up 表向き {count}"
                       ).format(player=p, hand=shown, graveyard=" ".join(v["graveyards"][p]) or "—",
                                count=v["face_up"][p]))
    if v["pending"] is not None:
        lines.append(_("  pending pick: {pick}").format(pick=_pending_text(v["pending"])))
    cells = v["field"]
    if not cells:
        lines.append(_("  field フィールド: empty; the first card may go anywhere (MP-6)"))
    else:  # the squares by name (MP-Q4): the first card laid is on 0,0
        x0, y0 = min(c["x"] for c in cells), min(c["y"] for c in cells)
        w = max(c["x"] for c in cells) + 1 - x0
        h = max(c["y"] for c in cells) + 1 - y0
        grid = [["   .    "] * w for _ in range(h)]
        for c in cells:
            grid[c["y"] - y0][c["x"] - x0] = f"{c['owner']}:{c['card'] or '??':<4}{'▲' if c['face_up'] else '▽'} "[:8]
        lines.append(_("  field フィールド (owner:card, ▲ face up 表, ▽ face down 裏, ?? unseen):"))
        lines.append("      " + "".join(f"x={x:<6}" for x in range(x0, x0 + w)))
        lines.extend(f"  y={y + y0:<2} " + "".join(grid[y]).rstrip() for y in range(h))
    if v["returns"] is not None:
        lines.append(_("  result: {result}").format(result=_result(v)))
    return "\n".join(lines)


# -- HTML / SVG ------------------------------------------------------------------
def _card_body(card: Card | None, owner: int | None, *, face_down: bool = False,
               bonus: tuple[int, int] | None = None, w: int = CW - 2 * PAD, h: int = CH - 2 * PAD) -> str:
    """The SVG elements of one card at (0, 0).  ``card=None``: the back (only
    the logo, MP-1).  ``face_down``: a face-down card whose face this viewer
    may see (its owner, or everything shown)."""
    edge = OWNER[owner] if owner is not None else "#333"
    if card is None:
        rot = f' transform="rotate(180 {w / 2} {h / 2})"' if owner == 1 else ""
        title = (_("face down 裏向き (card back)") if owner is None
                 else _("face down 裏向き (card back), player {player}").format(player=owner))
        return (f"<title>{escape(title)}</title>"
                f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="5" fill="{BACK}" '
                f'stroke="{edge}" stroke-width="3"/>'
                f'<g{rot}><text x="{w / 2}" y="{h / 2 + 4}" font-size="11" text-anchor="middle" '
                f'fill="#fff" font-weight="bold">mipig</text></g>')
    a = card.attribute
    name = card_name(card) if get_language() == "ja" else f"{card.name} {card.japanese}"
    tip = _("{id} {name} · {attribute} · {mark} · top 上 {top}, bottom 下 {bottom}, left 左 {left}, "
            "right 右 {right}").format(id=card.id, name=name, attribute=attr_term(a), mark=mark_term(card.janken),
                                      top=card.top, bottom=card.bottom, left=card.left, right=card.right)
    if face_down:
        tip += " · " + _("face down 裏向き (hidden from the opponent)")
    if bonus is not None and bonus[0]:
        tip += " · " + _("bonus 属性ボーナス +{bonus} ({count} face-up {attribute}, MP-20)").format(
            bonus=bonus[0], count=bonus[1], attribute=attr_term(a))
    fill = "#f1f1f1" if face_down else "#fffdf8"
    dash = ' stroke-dasharray="5 3"' if face_down else ""
    parts = [f"<title>{escape(tip)}</title>",
             f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="5" fill="{fill}" '
             f'stroke="{edge}" stroke-width="{3 if owner is not None else 1}"{dash}/>',
             f'<rect x="{w / 2 - 9}" y="{h / 2 - 10}" width="18" height="15" rx="3" fill="{ATTR_COLOUR[a]}"/>',
             f'<text x="{w / 2}" y="{h / 2 + 2}" font-size="11" text-anchor="middle" fill="#fff">'
             f"{ATTRIBUTE_JA[a]}</text>",
             mark_glyph(card.janken, w / 2 - 14, h / 2 + 12),
             f'<text x="{w / 2 + 4}" y="{h / 2 + 15}" font-size="9" text-anchor="middle">'
             f"{MARK_JA[card.janken]}</text>",
             f'<text x="{w / 2}" y="11" font-size="11" text-anchor="middle" font-weight="bold">{card.top}</text>',
             f'<text x="{w / 2}" y="{h - 3}" font-size="11" text-anchor="middle" font-weight="bold">'
             f"{card.bottom}</text>",
             f'<text x="5" y="{h / 2 + 4}" font-size="11" text-anchor="middle" font-weight="bold">{card.left}</text>',
             f'<text x="{w - 5}" y="{h / 2 + 4}" font-size="11" text-anchor="middle" font-weight="bold">'
             f"{card.right}</text>",
             f'<text x="3" y="9" font-size="8" fill="#555">{escape(card.id)}</text>']
    if face_down:
        parts.append(f'<text x="{w - 3}" y="9" font-size="8" text-anchor="end" fill="#555">裏</text>')
    if bonus is not None and bonus[0]:
        parts.append(f'<rect x="{w - 19}" y="{h - 15}" width="18" height="13" rx="6" fill="#d4a017"/>'
                     f'<text x="{w - 10}" y="{h - 5}" font-size="9" text-anchor="middle" fill="#fff" '
                     f'font-weight="bold">+{bonus[0]}</text>')
    return "".join(parts)


def _target_body(x: int, y: int, w: int = CW - 2 * PAD, h: int = CH - 2 * PAD) -> str:
    """The SVG elements of a legal placement square at (0, 0): dashed, with its coordinates (MP-7)."""
    title = _("placement target 配置できる場所 {square} (MP-7)").format(square=f"{x},{y}")
    return (f"<title>{escape(title)}</title>"
            f'<rect x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" rx="5" fill="#f4fbf2" '
            f'stroke="#5a9e4b" stroke-dasharray="4 3"/>'
            f'<text x="{w / 2}" y="{h / 2 + 4}" font-size="11" text-anchor="middle" '
            f'fill="#3d7a31">{x},{y}</text>')


def _svg(width: float, height: float, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="margin:1px;flex:none;font-family:sans-serif">{body}</svg>')


def card_svg(card: Card | None, owner: int | None = None, *, face_down: bool = False,
             bonus: tuple[int, int] | None = None) -> str:
    """One card as a small inline SVG: its four numbers, attribute 属性 and
    janken mark (MP-1); ``card=None`` is a card back; ``bonus=(b, n)`` puts a
    ``+b`` badge on it (MP-20)."""
    w, h = CW - 2 * PAD, CH - 2 * PAD
    return _svg(w, h, _card_body(card, owner, face_down=face_down, bonus=bonus))


def _row(cards: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center;vertical-align:middle">'
            + ("".join(cards) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _field_svg(state: State, v: dict[str, Any], cards: dict[str, Card], perspective: int | None) -> str:
    cells = v["field"]
    targets = placement_targets(state)
    attacks = attack_options(state)
    if not cells and not targets:
        empty = escape(pgettext("mipig field", "empty"))
        return f'<span style="color:#888">{empty}</span>'
    squares = [(c["x"], c["y"]) for c in cells] + targets
    x0, y0 = min(x for x, _ in squares), min(y for _, y in squares)
    x1, y1 = max(x for x, _ in squares), max(y for _, y in squares)
    width, height = AXIS + (x1 - x0 + 1) * CW, AXIS + (y1 - y0 + 1) * CH

    def at(x: int, y: int) -> tuple[float, float]:
        return AXIS + (x - x0) * CW, AXIS + (y - y0) * CH

    parts = []
    for x in range(x0, x1 + 1):
        parts.append(f'<text x="{at(x, y0)[0] + CW / 2}" y="12" font-size="10" text-anchor="middle" '
                     f'fill="#666">x={x}</text>')
    for y in range(y0, y1 + 1):
        parts.append(f'<text x="2" y="{at(x0, y)[1] + CH / 2 + 3}" font-size="10" fill="#666">{y}</text>')
    parts.append('<text x="2" y="12" font-size="10" fill="#666">y</text>')
    bon = bonuses([c for c in cells if c["card"] is not None], cards)
    for c in cells:
        px, py = at(c["x"], c["y"])
        card = cards[c["card"]] if c["card"] is not None else None
        body = _card_body(card, c["owner"], face_down=not c["face_up"], bonus=bon.get((c["x"], c["y"])))
        parts.append(f'<g transform="translate({px + PAD},{py + PAD})">{body}</g>')
    for x, y in targets:
        px, py = at(x, y)
        parts.append(f'<g transform="translate({px + PAD},{py + PAD})">{_target_body(x, y)}</g>')
    if attacks:
        parts.append('<defs><marker id="mipig-arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
                     'markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" '
                     'fill="#d0312d"/></marker></defs>')
        for (ax, ay), (dx, dy) in attacks:
            (sx, sy), (tx, ty) = at(ax, ay), at(dx, dy)
            sx, sy, tx, ty = sx + CW / 2, sy + CH / 2, tx + CW / 2, ty + CH / 2
            # across the shared edge, beside the numbers (which sit on the centre lines)
            ox, oy = (0, -12) if ay == dy else (-14, 0)
            title = _("attack 攻撃 {attacker} → {target} (MP-11)").format(attacker=f"{ax},{ay}", target=f"{dx},{dy}")
            parts.append(f"<g><title>{escape(title)}</title>"
                         f'<line x1="{sx + (tx - sx) / 4 + ox}" y1="{sy + (ty - sy) / 4 + oy}" '
                         f'x2="{sx + 3 * (tx - sx) / 4 + ox}" y2="{sy + 3 * (ty - sy) / 4 + oy}" '
                         'stroke="#d0312d" stroke-width="2.5" stroke-opacity="0.85" '
                         f'marker-end="url(#mipig-arrow)"/></g>')
    return _svg(width, height, "".join(parts))


def _hand_html(hand: list[str] | int, owner: int, cards: dict[str, Card]) -> str:
    if hand == 0:
        return _row([])
    if isinstance(hand, int):
        hidden = escape(pgettext("mipig", "{n} hidden (見えない)").format(n=hand))
        return _row([card_svg(None, owner) for _i in range(hand)]) + f" <small>{hidden}</small>"
    return _row([card_svg(cards[c], owner) for c in hand])


def _seat_html(v: dict[str, Any], p: int, cards: dict[str, Card], label: str) -> str:
    turn = " ◀ " + pgettext("mipig", "to move") if v["phase"] not in ("end", "deal", "coin") and v["to_move"] == p else ""
    first = " · " + _("first player 先攻") if v["first_player"] == p else ""
    grave = _row([card_svg(cards[c], p) for c in v["graveyards"][p]])
    shown = ""
    if v["shown"][p]:
        shown = "<div><small>" + escape(_("shown in the first-player janken (MP-4): {cards}").format(
            cards=" ".join(v["shown"][p]))) + "</small></div>"
    who = escape(_("Player {player}").format(player=p))
    face_up, hand, graveyard = _("face up 表向き"), _("hand 手札"), _("graveyard 墓地")
    return (f'<div style="margin:4px 0;padding:4px;border:1px solid {OWNER[p]};border-radius:6px;'
            f'background:{OWNER_LIGHT[p]}">'
            f'<div><b style="color:{OWNER[p]}">{who}</b> '
            f'{label}{turn}{first} · {face_up} '
            f"<b>{v['face_up'][p]}</b></div>"
            f"<div>{hand}: {_hand_html(v['hands'][p], p, cards)}</div>"
            f"<div>{graveyard}: {grave}</div>{shown}</div>")


def _pending_html(v: dict[str, Any]) -> str:
    if v["pending"] is None:
        return ""
    if v["phase"] == "janken":
        what = _("player 0 has picked a card: {pick} (player 1 picks without seeing it, MP-4/MP-Q3)")
    else:
        what = _("player 0 has picked a mark: {pick} (player 1 picks without seeing it, MP-4/MP-Q3)")
    return f'<div style="color:#444">{escape(what.format(pick=_pending_text(v["pending"])))}</div>'


def _parts(state: State, perspective: int | None) -> tuple[str, str, str, dict[str, Any], dict[str, Card]]:
    """The table's HTML above the field, the field's caption and the HTML
    below it; with the view and the card set."""
    v = view(state, perspective)
    cards = {c.id: c for c in state.game.cards}  # type: ignore[attr-defined]
    seat = display.is_seat(perspective)
    bottom = perspective if seat else 0
    top = 1 - bottom
    note = _(PHASE_NOTE[v["phase"]])
    if v["phase"] == "battle" and not attack_options(state):
        note += " · " + _("player {player} has no attack and passes (MP-18)").format(player=v["to_move"])
    if v["phase"] == "deal":
        note += ", " + (_("both from one shared card set") if state.game.options["deal"] == "shared"
                        else _("each from their own copy of the card set"))
    if v["phase"] == "janken" and v["janken_round"]:
        note += " · " + _("round {round}: the last one was a tie (MP-Q2)").format(round=v["janken_round"] + 1)
    result = f'<div style="font-weight:bold">{escape(_result(v))}</div>' if v["returns"] is not None else ""
    opts = state.game.options
    on = [_("{name}={value}").format(name=_option_name(k), value=_option_value(opts[k]))
          for k in ("hand_size", "deal", "first_player", "tiebreak", "tiebreak_cards", "payoff")
          if opts[k] != state.game.OPTIONS[k].default]
    if opts["open_hands"]:
        on.append(_("open hands (MP-Q6)"))
    above = (f"<div><b>{escape(_head(v, perspective))}</b></div>"
             + _seat_html(v, top, cards, escape(pgettext("mipig", "(opponent)")) if seat else ""))
    caption = escape(_("field フィールド (blue border: player 0, red: player 1; dashed: face down 裏向き; "
                       "+n: attribute bonus 属性ボーナス):"))
    below = (_seat_html(v, bottom, cards, escape(pgettext("mipig", "(you)")) if seat else "")
             + _pending_html(v)
             + f'<div style="color:#444">{escape(note)}</div>' + result
             + ('<div style="color:#444">' + escape(_("options: {options}").format(options=", ".join(on)))
                + "</div>" if on else ""))
    return above, caption, below, v, cards


def _frame(inner: str) -> str:
    return ('<div class="cardlab-board cardlab-mipig" style="font-family:sans-serif;font-size:13px;'
            f'max-width:760px">{inner}</div>')


def html(state: State, *, perspective: int | None = None) -> str:
    """The table: both seats (the viewer's at the bottom) with hands 手札 and
    graveyards 墓地, the field フィールド as a grid with the legal placement
    squares or attack arrows, bonuses on the cards and the end-of-game count."""
    above, caption, below, v, cards = _parts(state, perspective)
    return _frame(above
                  + '<div style="margin:4px 0;padding:6px;background:#eef5e9;border-radius:6px">'
                  f"{caption}<br>{_field_svg(state, v, cards, perspective)}</div>"
                  + below)


def layout(state: State, *, perspective: int | None = None) -> display.Layout:
    """The board's interactive table: the field フィールド as a grid of
    squares (what ``perspective`` may see on each), placement as "a card of
    the hand 手札, then a dashed square" (MP-5 … MP-7) and an attack as
    "attacker, then target" (MP-11, MP-16, MP-17); the card shown for the
    first-player janken is picked from the hand too (MP-4).  The tiebreak
    marks, the pass and chance stay ordinary buttons.

    >>> import cardlab
    >>> s = cardlab.load("mipig", hand_size=2, hands=["duo_a", "duo_b"], first_player=0).new_initial_state()
    >>> lay = layout(s, perspective=0)
    >>> lay.paths["place p01 0,0"], sorted(lay.offered())
    (('item:p01', 'sq:0,0'), ['item:p01', 'item:p09'])
    """
    above, caption, below, v, cards = _parts(state, perspective)
    squares: dict[tuple[int, int], str] = {}
    for x, y in placement_targets(state):
        squares[(x, y)] = _svg(CW - 2 * PAD, CH - 2 * PAD, _target_body(x, y))
    bon = bonuses([c for c in v["field"] if c["card"] is not None], cards)
    for c in v["field"]:
        card = cards[c["card"]] if c["card"] is not None else None
        squares[(c["x"], c["y"])] = card_svg(card, c["owner"], face_down=not c["face_up"],
                                             bonus=bon.get((c["x"], c["y"])))
    if squares:  # the empty squares inside the bounding box
        xs, ys = [x for x, _ in squares], [y for _, y in squares]
        for x in range(min(xs), max(xs) + 1):
            for y in range(min(ys), max(ys) + 1):
                squares.setdefault((x, y), "")
    paths: dict[str, tuple[str, ...]] = {}
    items: dict[str, str] = {}
    prompts: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    mover = state.current_player
    for a in state.legal_actions() if mover >= 0 else ():
        parts = a.split()
        if parts[0] == "place":
            paths[a] = (f"item:{parts[1]}", f"sq:{parts[2]}")
            # the mover's own card: the board offers it only to the person to move
            items.setdefault(parts[1], card_svg(cards[parts[1]], mover))
            prompts = (_("choose a card of your hand 手札 to lay face down (MP-5)"),
                       _("choose a dashed square 配置できる場所 next to a card (MP-6, MP-7)"))
            labels = (_("lay 置く"), _("here 配置"))
        elif parts[0] == "show":
            paths[a] = (f"item:{parts[1]}",)
            items.setdefault(parts[1], card_svg(cards[parts[1]], mover))
            prompts = (_("choose a card of your hand 手札 to show: its janken mark じゃんけん decides who "
                         "goes first (MP-4)"),)
            labels = (_("show 見せる"),)
        elif parts[0] == "attack":
            paths[a] = (f"sq:{parts[1]}", f"sq:{parts[2]}")
            prompts = (_("choose an attacker: one of your face-down cards 裏向き (MP-11, MP-16)"),
                       _("choose the target: a touching opponent card (MP-11, MP-17)"))
            labels = (_("attack 攻撃"), _("target 対象"))
    return display.Layout(
        above=_frame(above), below=_frame(below), squares=squares,
        grid_title=(caption + " " + _("The squares keep their names for the whole game (MP-Q4): the first card "
                                      "laid is on 0,0, x grows to the right and y downwards, and the squares "
                                      "left of or above it have negative numbers.")
                    if squares else _("field フィールド: empty")), items=items,
        items_title=_("hand 手札 of player {player}").format(player=mover) if items else "", paths=paths,
        prompts=prompts, labels=labels)


def move_html(state: State, action: str) -> str:
    """An attack as a picture (:func:`battle_html`, without its text: the
    board prints the move's explanation beside it); ``""`` for any other move."""
    if action.startswith("attack "):
        return battle_html(state.explain_battle(action), with_text=False)  # type: ignore[attr-defined]
    return ""


# -- a battle, drawn ---------------------------------------------------------------
def battle_html(battle: Battle, *, with_text: bool = True) -> str:
    """A :class:`~cardlab.games.mipig.Battle` (``state.explain_battle(action)``)
    as a picture: the two cards side by side with the compared edges, the
    bonuses, the totals, the janken if it came to that, and the result; the
    text of :meth:`Battle.text` below (unless ``with_text=False``)."""
    b = battle

    def side(role: str, p: int, card: Card, edge: str, num: int, bonus: Any, total: int) -> str:
        won = b.result == role
        lost = b.loser_card is not None and not won
        tag = _("wins 勝ち") if won else _("to the graveyard 墓地") if lost else pgettext("mipig", "draw 引き分け")
        who = _("attacker") if role == "attacker" else _("defender")
        return (f'<td style="padding:4px;text-align:center;vertical-align:top">'
                f"{card_svg(card, p, bonus=(bonus.bonus, bonus.count))}<br>"
                f"<b>{escape(who)}</b> " + escape(_("(player {player})").format(player=p)) + "<br>"
                + _("{edge} {number} + bonus {bonus} = <b>{total}</b>").format(
                    edge=escape(_(EDGE_TERM[edge])), number=num, bonus=bonus.bonus, total=total)
                + f"<br>{escape(tag)}</td>")

    jk = ""
    if b.janken is not None:
        jk = "<div>" + escape(_("equal numbers: janken {attacker_mark} against {defender_mark} (MP-14)").format(
            attacker_mark=mark_term(b.janken[0]), defender_mark=mark_term(b.janken[1]))) + "</div>"
    return ('<div class="cardlab-mipig-battle" style="font-family:sans-serif;font-size:13px;max-width:640px">'
            "<table><tr>"
            + side("attacker", b.attacker_player, b.attacker_card, b.attacker_edge, b.attacker_number,
                   b.attacker_bonus, b.attacker_total)
            + f'<td style="padding:4px;vertical-align:middle">→ {escape(direction_text(b.direction))} →</td>'
            + side("defender", b.defender_player, b.defender_card, b.defender_edge, b.defender_number,
                   b.defender_bonus, b.defender_total)
            + f"</tr></table>{jk}" + (f"<div>{escape(b.text())}</div>" if with_text else "") + "</div>")


# -- action labels -------------------------------------------------------------------
def action_label(action: str) -> str:
    """A button label with the Japanese terms.

    >>> action_label("place p07 -1,0")
    'place 配置: p07 at -1,0'
    >>> action_label("attack 0,0 1,0")
    'attack 攻撃: 0,0 → 1,0'
    >>> action_label("pick rock")
    'pick 選ぶ: rock グー'

    A move's public form (``display.public_action``) reads ``??`` for what
    the viewer may not know:

    >>> action_label("place ?? 1,0"), action_label("pick ??")
    ('place 配置: ?? at 1,0', 'pick 選ぶ: ??')
    """
    parts = action.split()
    verb = parts[0]
    if verb == "place" and len(parts) == 3:
        return _("place 配置: {card} at {square}").format(card=parts[1], square=parts[2])
    if verb == "attack" and len(parts) == 3:
        return _("attack 攻撃: {attacker} → {target}").format(attacker=parts[1], target=parts[2])
    if verb == "pass":
        return _("pass パス (no attack, MP-18)")
    if verb == "show" and len(parts) == 2:
        return _("show 見せる: {card}").format(card=parts[1])
    if verb == "pick" and len(parts) == 2 and (parts[1] in MARK_JA or parts[1] == "??"):
        return _("pick 選ぶ: {mark}").format(mark=mark_term(parts[1]) if parts[1] in MARK_JA else parts[1])
    if verb == "deal" and len(parts) == 2:
        return _("deal 配る: {card}").format(card=parts[1])
    if verb == "coin" and len(parts) == 2:
        return _("coin コイン: player {player} first").format(player=parts[1])
    return action
