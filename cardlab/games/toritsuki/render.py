"""Toritsuki card battle (とりつきカードバトル) as text and as an HTML/SVG table.

Pure functions of a state and a perspective: ``perspective=p`` draws only
``state.observation(p)`` (the opponent's hand as card backs unless the game
has open hands); ``perspective=None`` shows everything (``state.to_dict()``).

Each side shows its back row (後衛, blocks) and front row (前衛, attacks),
three places each (TK-13, TK-27); a resting yokai (休憩) is turned sideways,
a ready one (元気) stands upright (TK-10, TK-16).  Then the yoki zone (妖気おきば:
ready upright, resting sideways, all face down, TK-12, TK-25), the damage zone
(ダメージおきば: face up, or turned face down by a yoki boost, 妖気ブースト,
TK-26), deck (山札) and trash (トラッシュ) counts, and the hand (手札).  The
battle panel (BP勝負) shows the attacker and its battle method, the blocker
and its method, both possessions (とりつく!) and the BP sums with every
modifier and its source (``state.battle_report()``, TK-21).  When the defender
decides in the middle of the attacker's turn (block or not, which blocker and
method, possession: TK-17, TK-19) a prompt names the decider; only the
decider (or ``perspective=None``) sees the list of choices of a possession,
since they name cards of the decider's hand.

The engine does not identify face-down yoki or damage cards (TK-Q6): they
are drawn as counts, the same for everybody.

>>> import cardlab
>>> s = cardlab.load("toritsuki", first_player=0).new_initial_state(seed=1)
>>> print(text(s, perspective=1).splitlines()[0])
Toritsuki card battle (とりつきカードバトル) · mulligan マリガン · player 0 decides · as seen by player 1
>>> "<svg" in html(s, perspective=0)
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from ... import display
from ...core import CHANCE, State
from .cards import CATEGORY_JA, ICON_JA, RANKS, Card, category_text, icon_text
from .state import ToritsukiState
from ...i18n import N_, _, get_language, npgettext, pgettext

__all__ = ["STAGE_JA", "action_label", "back_svg", "battle_html", "card_svg", "html", "text", "view"]

NAME = "toritsuki"
CW, CH = 118, 150          # a card face, px
BW, BH = 26, 36            # a face-down / small card, px
OWNER = ("#2f6fb5", "#c2453c")
BACK = ("#3d2b5c", "#d8c9f0")
#: the eight tribes of the original (種族, TK-23)
TRIBE_COLOUR = {"charming": "#f8d9ea", "brave": "#f6d2c4", "tough": "#e6dccb", "mysterious": "#dcf1e4",
                "heartful": "#dadfe3", "slippery": "#cfe3f7", "eerie": "#f7efbf", "shady": "#ddd3ea"}
#: an event's effect in a few words, for the small card face (TK-Q2); the full text is its tooltip
EFFECT_SHORT = {"draw": lambda v: _("draw {n}").format(n=v),
                "ready_yoki": lambda v: _("ready {n} yoki").format(n=v),
                "bp_up": lambda v: _("+{n} BP this turn").format(n=v),
                "heal": lambda v: _("heal {n} damage").format(n=v),
                "banish": lambda v: _("trash a rank ≤ {rank}").format(rank=RANKS[v]),
                "charge": lambda v: _("charge {n} yoki").format(n=v),
                "rest": lambda v: _("a blocker rests"),
                "win_if_field": lambda v: _("{n} yokai: win").format(n=v)}
STAGE_JA = {"shuffle": "シャッフル", "deal": "配る", "mulligan": "マリガン", "coin": "先攻決め",
            "draw": "ドロー", "main": "メイン", "evdraw": "ドロー", "battle": "バトル", "block": "ブロック",
            "damage": "ダメージ", "possess_a": "とりつく!", "reveal_a": "とりつく!",
            "possess_d": "とりつく!", "reveal_d": "とりつく!", "duel": "BP勝負", "over": "終了"}
STAGE_EN = {"possess_a": N_("possession"), "reveal_a": N_("possession reveal"), "possess_d": N_("possession"),
            "reveal_d": N_("possession reveal"), "evdraw": N_("event draw"), "coin": N_("first player")}
STAGE_NOTE = {
    "shuffle": N_("each deck is shuffled; with a known deck order the order is laid out (TK-2, TK-Q6)"),
    "deal": N_("each player draws 5 (TK-2)"),
    "mulligan": N_("mulligan マリガン: keep, or shuffle the hand back and draw 5 again, once (TK-3)"),
    "coin": N_("a fair coin decides the first player (TK-4, TK-Q3)"),
    "draw": N_("draw time ドロータイム: one card (TK-11)"),
    "main": N_("main メイン: summon 召喚, move 移動 (any yokai, as often as you like), one event イベント; "
             "attacking ends the main phase (TK-13, TK-14)"),
    "evdraw": N_("an event draws cards (TK-Q2)"),
    "battle": N_("battle time バトルタイム: attack with a ready front-row yokai, or end (TK-14, TK-16)"),
    "block": N_("block? ブロック: the defender decides (TK-17, TK-18)"),
    "damage": N_("damage ダメージ: the deck top goes face up into the damage zone (TK-18)"),
    "possess_a": N_("the attacker's possession とりつく! (TK-19)"),
    "reveal_a": N_("the attacker's deck top is revealed for possession (TK-19)"),
    "possess_d": N_("the defender's possession とりつく! (TK-19)"),
    "reveal_d": N_("the defender's deck top is revealed for possession (TK-19)"),
    "over": N_("game over 終了 (TK-6, TK-7, TK-8)"),
}


# -- the view: what the perspective may see ---------------------------------------
def view(state: State, perspective: int | None = None) -> dict[str, Any]:
    """The facts to draw, from ``observation(perspective)`` (or, with
    ``perspective=None``, from ``to_dict()``): a shown hand is a list of card
    numbers, a hidden one an int (its size)."""
    display.check_perspective(state, perspective)
    if perspective == display.SPECTATOR:  # the class: what both seats' views have in common
        return display.public_view(view, state)
    d = state.to_dict() if perspective is None else state.observation(perspective)
    v = {k: d[k] for k in ("stage", "turn_player", "first_player", "first_turn", "event_used",
                           "winner", "battle")}
    players = []
    for pl in d["players"]:
        e = {k: pl[k] for k in ("deck_size", "deck_top", "front", "back", "yoki", "damage", "trash")}
        e["hand"] = pl["hand"] if "hand" in pl else pl["hand_size"]
        players.append(e)
    v["players"] = players
    v["current"] = state.current_player
    rep = state.battle_report()  # type: ignore[attr-defined]
    v["report"] = None if rep is None else rep.as_dict()  # the duel uses public facts only
    return v


def _ja() -> bool:
    return get_language() == "ja"


def _term(st: str) -> str:
    """A stage by its English word and the seed's Japanese word (in Japanese: the Japanese only)."""
    if _ja():
        return STAGE_JA[st]
    return f"{STAGE_EN.get(st, st)} {STAGE_JA[st]}"


def _who(v: dict[str, Any]) -> str:
    st = v["stage"]
    if st == "over":
        return _("game over · player {player} wins 勝ち").format(player=v["winner"])
    term = _term(st)
    if v["current"] == CHANCE:
        return _("{stage} · chance").format(stage=term)
    if st in ("shuffle", "deal", "mulligan", "coin"):
        return _("{stage} · player {player} decides").format(stage=term, player=v["current"])
    out = _("player {player}'s turn · {stage}").format(player=v["turn_player"], stage=term)
    if v["current"] != v["turn_player"]:
        out += _(" · player {player} decides").format(player=v["current"])
    return out


def _head(v: dict[str, Any], perspective: int | None) -> str:
    seen = (pgettext("toritsuki", "everything shown") if perspective is None
            else pgettext("toritsuki", "as seen by the class") if perspective == display.SPECTATOR
            else pgettext("toritsuki", "as seen by player {player}").format(player=perspective))
    return _("Toritsuki card battle (とりつきカードバトル) · {who} · {seen}").format(who=_who(v), seen=seen)


def _name(state: State, no: int) -> str:
    c = state.game.cards[no]  # type: ignore[attr-defined]
    if _ja():  # the name printed on the card
        return f"{c.japanese} #{no}"
    return f"{c.name} ({c.japanese}) #{no}"


def _short_name(card: Card) -> str:
    return card.japanese if _ja() else card.name


def _slot(slot: str) -> str:
    """A place as the notation names it (``F1``); in Japanese by the row (前衛1)."""
    if not _ja() or len(slot) != 2 or slot[0] not in "FB":
        return slot
    if slot[0] == "F":
        return pgettext("toritsuki place", "F{n}").format(n=slot[1])
    return pgettext("toritsuki place", "B{n}").format(n=slot[1])


def _target(word: str) -> str:
    """An event's target as the notation names it (``oB1``: the opponent's B1); in Japanese by the row."""
    if _ja() and word[:1] == "o" and len(word) == 3:
        return _("opponent's {place}").format(place=_slot(word[1:]))
    return _slot(word)


def _method_no(m: str) -> str:
    """A battle method by its number as the notation names it (``m2``)."""
    return _("m{n}").format(n=m[1:]) if _ja() else m


# -- text ----------------------------------------------------------------------------
def _yokai_text(state: State, y: list) -> str:
    c = state.game.cards[y[0]]  # type: ignore[attr-defined]
    bonus = f" +{y[3]}BP" if y[3] else ""
    state_word = _("休憩 resting") if y[1] else _("元気 ready")
    return f"{_short_name(c)}#{c.no}{bonus} {state_word}"


def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; ``perspective=None`` is ``str(state)`` (everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective)]
    for p in (0, 1):
        pl = v["players"][p]
        hand = pl["hand"]
        if isinstance(hand, int):
            shown = npgettext("toritsuki", "{n} hidden card", "{n} hidden cards", hand).format(n=hand)
        else:
            shown = ", ".join(f"{_short_name(state.game.cards[no])}#{no}" for no in hand) or "—"  # type: ignore[attr-defined]
        lines.append(_("  player {player}: deck 山札 {deck} · yoki 妖気 {ready} ready/{resting} resting · "
                       "damage ダメージ {up} up/{down} down · trash トラッシュ {trash}").format(
            player=p, deck=pl["deck_size"], ready=pl["yoki"][0], resting=pl["yoki"][1], up=pl["damage"][0],
            down=pl["damage"][1], trash=pl["trash"]))
        lines.append(_("    front 前衛: {front} | back 後衛: {back}").format(
            front=", ".join(_yokai_text(state, y) for y in pl["front"]) or "—",
            back=", ".join(_yokai_text(state, y) for y in pl["back"]) or "—"))
        lines.append(_("    hand 手札: {hand}").format(hand=shown))
    rep = state.battle_report()  # type: ignore[attr-defined]
    if rep is not None:
        lines.append("  " + rep.text())
    elif v["battle"] is not None:
        b = v["battle"]
        lines.append(_("  attack アタック: {card} method {method} · block? player {player} decides (TK-17)").format(
            card=_name(state, b["attacker"]), method=b["attacker_method"], player=1 - v["turn_player"]))
    return "\n".join(lines)


# -- HTML / SVG --------------------------------------------------------------------------
def _svg(width: float, height: float, body: str, title: str = "") -> str:
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="margin:2px;flex:none">{t}{body}</svg>')


def _back_body(w: float, h: float, fill: str = BACK[0], line: str = BACK[1]) -> str:
    return (f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="3" fill="{fill}" stroke="#222"/>'
            f'<rect x="4" y="4" width="{w - 8}" height="{h - 8}" rx="2" fill="none" stroke="{line}" '
            f'stroke-dasharray="3 2"/>')


def back_svg(title: str, *, resting: bool = False, fill: str = BACK[0]) -> str:
    """A face-down card (yoki, a hidden hand card, a boosted damage card);
    ``resting`` turns it sideways (休憩)."""
    if resting:
        body = f'<g transform="translate({BH},0) rotate(90)">{_back_body(BW, BH, fill)}</g>'
        return _svg(BH, BW, body, title)
    return _svg(BW, BH, _back_body(BW, BH, fill), title)


def _damage_up_svg(title: str) -> str:
    body = (f'<rect x="1" y="1" width="{BW - 2}" height="{BH - 2}" rx="3" fill="#fff" stroke="#b00" '
            f'stroke-width="1.5"/><text x="{BW / 2}" y="{BH / 2 + 4}" font-size="10" text-anchor="middle" '
            f'fill="#b00">傷</text>')
    return _svg(BW, BH, body, title)


def _fitted(text: str, x_end: float, y: float, size: float, room: float) -> str:
    """``text`` ending at ``x_end``, squeezed into ``room`` when it is wider
    (estimated: a kana or kanji is one em, a Latin letter about 0.55 em) so
    that it never runs under the cost circle or off the card."""
    width = sum(size if ord(ch) > 0x2E80 else 0.55 * size for ch in text)
    fit = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if width > room else ""
    return f'<text x="{x_end}" y="{y}" font-size="{size}" text-anchor="end"{fit}>{escape(text)}</text>'


def _tribe(card: Card, tribe_ja: dict[str, str]) -> str:
    """``イサマシ族 Brave``: the tribe's Japanese and English names (TK-23); in Japanese the Japanese only."""
    if _ja() and tribe_ja.get(card.tribe):
        return tribe_ja[card.tribe]
    return f"{tribe_ja.get(card.tribe, '')} {card.tribe.capitalize()}".strip()


def _method_line(i: int, m: Any) -> str:
    icon = f" {ICON_JA[m.icon]}" if m.icon else ""
    cost = f" 妖気{m.cost}" if m.cost else ""
    return f"{_method_no(f'm{i}')} {CATEGORY_JA[m.category]} {m.bp}{cost}{icon}"


def card_title(card: Card, tribe_ja: dict[str, str]) -> str:
    """The full description of a card (the SVG tooltip), English beside Japanese
    (in Japanese: the Japanese names only)."""
    name = card.japanese if _ja() else f"{card.name} ({card.japanese})"
    if not card.is_yokai:
        return _("#{no} {name} · event イベント · {effect} (TK-24, TK-Q2)").format(
            no=card.no, name=name, effect=card.effect_text())
    methods = "; ".join(
        _("m{i} {name} BP {bp}, cost {cost}, {category}").format(
            i=i, name=m.japanese if _ja() and m.japanese else f"{m.name} ({m.japanese})", bp=m.bp, cost=m.cost,
            category=category_text(m.category))
        + (f", {icon_text(m.icon)}" if m.icon else "") for i, m in enumerate(card.methods, 1))
    cond = card.condition_text(tribe_ja)
    if card.target == "own":
        poss = _("possess とりつく (own side): {condition} → BP {bp}").format(condition=cond,
                                                                           bp=f"{card.poss_bp:+d}")
    else:
        poss = _("possess とりつく (opponent 相手): {condition} → BP {bp}").format(condition=cond,
                                                                               bp=f"{card.poss_bp:+d}")
    if card.poss_icon:
        poss += _(", grants {icon}").format(icon=icon_text(card.poss_icon))
    return _("#{no} {name} · yokai 妖怪 · tribe 種族 {tribe} · rank {rank} · summon cost {cost} · "
             "methods バトル方法: {methods} · {possess}").format(
        no=card.no, name=name, tribe=_tribe(card, tribe_ja), rank=RANKS[card.rank], cost=card.cost,
        methods=methods, possess=poss)


def _card_body(card: Card, tribe_ja: dict[str, str], slot: str, bonus: int) -> str:
    if not card.is_yokai:
        kind, value = card.effect
        event = _("event イベント")
        return (f'<rect x="1" y="1" width="{CW - 2}" height="{CH - 2}" rx="6" fill="#fdf6e3" stroke="#8a6d1f" '
                f'stroke-width="2"/>'
                f'<text x="{CW / 2}" y="18" font-size="9" text-anchor="middle" fill="#8a6d1f">'
                f'{escape(event)}</text>'
                f'<text x="{CW / 2}" y="44" font-size="11" text-anchor="middle" font-weight="bold">'
                f'{escape(card.japanese)}</text>'
                + ("" if _ja() else
                   f'<text x="{CW / 2}" y="58" font-size="9" text-anchor="middle">{escape(card.name)}</text>')
                + f'<text x="{CW / 2}" y="90" font-size="10" text-anchor="middle">'
                f'{escape(EFFECT_SHORT[kind](value))}</text>'
                f'<text x="{CW / 2}" y="{CH - 8}" font-size="8" text-anchor="middle" fill="#555">#{card.no}</text>')
    fill = TRIBE_COLOUR.get(card.tribe, "#eee")
    under = f"#{card.no}" if _ja() else f"{card.name} #{card.no}"
    parts = [(f'<rect x="1" y="1" width="{CW - 2}" height="{CH - 2}" rx="6" fill="{fill}" stroke="#333" '
              f'stroke-width="1.5"/>'),
             (f'<circle cx="12" cy="12" r="9" fill="#fff" stroke="#333"/>'
              f'<text x="12" y="15.5" font-size="10" text-anchor="middle">{card.cost}</text>'),
             _fitted(f"{_tribe(card, tribe_ja)} · {RANKS[card.rank]}", CW - 6, 14, 9, CW - 29),
             (f'<text x="{CW / 2}" y="32" font-size="11" text-anchor="middle" font-weight="bold">'
              f'{escape(card.japanese)}</text>'),
             f'<text x="{CW / 2}" y="44" font-size="8.5" text-anchor="middle">{escape(under)}</text>']
    for i, m in enumerate(card.methods, 1):
        parts.append(f'<text x="6" y="{48 + 13 * i}" font-size="9">{escape(_method_line(i, m))}</text>')
    parts.append(f'<text x="{CW / 2}" y="{CH - 22}" font-size="8" text-anchor="middle" fill="#333">'
                 f'とりつく {escape(card.condition_text(tribe_ja))}</text>'
                 f'<text x="{CW / 2}" y="{CH - 12}" font-size="8" text-anchor="middle" fill="#333">'
                 f'{"" if card.target == "own" else "相手 "}BP {card.poss_bp:+d}'
                 f'{" " + ICON_JA[card.poss_icon] if card.poss_icon else ""}</text>')
    if slot:
        parts.append(f'<text x="{CW - 6}" y="{CH - 4}" font-size="8" text-anchor="end" fill="#555">'
                     f'{escape(_slot(slot))}</text>')
    if bonus:
        parts.append(f'<rect x="{CW - 44}" y="20" width="40" height="13" rx="3" fill="#1a7f37"/>'
                     f'<text x="{CW - 24}" y="30" font-size="9" text-anchor="middle" fill="#fff">+{bonus} BP</text>')
    return "".join(parts)


def card_svg(card: Card, tribe_ja: dict[str, str] | None = None, *, resting: bool = False,
             slot: str = "", bonus: int = 0, mark: str = "") -> str:
    """One card as a small inline SVG: cost, tribe (種族), rank, names, battle
    methods (BP, cost, 戦/技/術, icon) and the possession (とりつく) line; an
    event card shows its effect.  ``resting`` turns the card sideways (休憩),
    ``slot`` is its place (``F1``), ``bonus`` a +BP until the end of the turn,
    ``mark`` outlines it (e.g. the attacker)."""
    tribe_ja = tribe_ja or {}
    body = _card_body(card, tribe_ja, slot, bonus)
    if mark:
        body += f'<rect x="0" y="0" width="{CW}" height="{CH}" rx="7" fill="none" stroke="#e0a000" stroke-width="4"/>'
    title = card_title(card, tribe_ja)
    if slot:
        title += _(" · place {slot} · {state}").format(
            slot=_slot(slot), state=_("resting 休憩 (sideways)") if resting else _("ready 元気"))
    if bonus:
        title += _(" · +{bonus} BP until the end of the turn").format(bonus=bonus)
    if mark:
        title += f" · {mark}"
    if resting:
        body = f'<g transform="translate({CH},0) rotate(90)">{body}</g>'
        return _svg(CH, CW, body, title)
    return _svg(CW, CH, body, title)


def _row(items: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center">'
            + ("".join(items) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _empty(row: str) -> str:
    empty = _("empty 空き")
    return _svg(CW, CH, f'<rect x="2" y="2" width="{CW - 4}" height="{CH - 4}" rx="6" fill="none" '
                f'stroke="#aaa" stroke-dasharray="5 4"/><text x="{CW / 2}" y="{CH / 2}" font-size="9" '
                f'text-anchor="middle" fill="#999">{escape(empty)}</text>',
                _("empty place of the {row} (TK-13)").format(row=row))


def _field_row(state: State, v: dict[str, Any], p: int, which: str) -> str:
    g = state.game
    tribe_ja = g.cardset.tribe_ja  # type: ignore[attr-defined]
    letter = "F" if which == "front" else "B"
    cards = []
    for i, y in enumerate(v["players"][p][which], 1):
        cards.append(card_svg(g.cards[y[0]], tribe_ja, resting=bool(y[1]),  # type: ignore[attr-defined]
                              slot=f"{letter}{i}", bonus=y[3]))
    row = _("front row 前衛") if which == "front" else _("back row 後衛")
    cards += [_empty(row)] * (3 - len(cards))
    return _row(cards)


def _hand_html(state: State, v: dict[str, Any], p: int) -> str:
    hand = v["players"][p]["hand"]
    if isinstance(hand, int):
        title = _("face down 裏向き (hidden hand card), player {player}").format(player=p)
        return _row([back_svg(title) for _i in range(hand)]) + \
            " <small>" + escape(_("{n} hidden 見えない").format(n=hand)) + "</small>"
    g = state.game
    tribe_ja = g.cardset.tribe_ja  # type: ignore[attr-defined]
    return _row([card_svg(g.cards[no], tribe_ja) for no in hand])  # type: ignore[attr-defined]


def _yoki_html(pl: dict[str, Any], p: int) -> str:
    ready, resting = pl["yoki"]
    up = _("yoki 妖気, ready 元気 (upright), player {player}").format(player=p)
    side = _("yoki 妖気, resting 休憩 (sideways, paid this turn), player {player}").format(player=p)
    cards = ([back_svg(up) for _i in range(ready)]
             + [back_svg(side, resting=True) for _i in range(resting)])
    return _row(cards) + " <small>" + escape(_("{ready} ready 元気, {resting} resting 休憩").format(
        ready=ready, resting=resting)) + "</small>"


def _damage_html(pl: dict[str, Any], p: int) -> str:
    up, down = pl["damage"]
    face_up = _("damage ダメージ, face up 表向き (can pay 1 by yoki boost, TK-26), player {player}").format(player=p)
    face_down = _("damage ダメージ, turned face down by a yoki boost 妖気ブースト (TK-26), player {player}").format(
        player=p)
    cards = ([_damage_up_svg(face_up) for _i in range(up)]
             + [back_svg(face_down, fill="#6b1f1f") for _i in range(down)])
    return _row(cards) + " <small>" + _("<b>{total}</b> / 6 ({up} face up, {down} turned down)").format(
        total=up + down, up=up, down=down) + "</small>"


def _seat_html(state: State, v: dict[str, Any], p: int, label: str, top: bool) -> str:
    pl = v["players"][p]
    notes = [_("deck 山札 <b>{n}</b>").format(n=pl["deck_size"]), _("trash トラッシュ {n}").format(n=pl["trash"])]
    if v["first_player"] == p:
        notes.append(_("first player 先攻"))
    turn = ""
    if v["stage"] != "over":
        if v["current"] == p:
            turn = _(" ◀ to decide")
        elif v["turn_player"] == p and v["stage"] not in ("shuffle", "deal", "mulligan", "coin"):
            turn = _(" (its turn)")
    if pl["deck_top"]:
        tops = ", ".join(_name(state, no) for no in pl["deck_top"][:5])
        more = _(" … ({n} known)").format(n=len(pl["deck_top"])) if len(pl["deck_top"]) > 5 else ""
        notes.append(_("deck top 山札の上 (known order, TK-Q6): {cards}{more}").format(cards=escape(tops), more=more))
    back = "<div>" + _("back row 後衛 (blocks): {row}").format(row=_field_row(state, v, p, "back")) + "</div>"
    front = "<div>" + _("front row 前衛 (attacks): {row}").format(row=_field_row(state, v, p, "front")) + "</div>"
    rows = back + front if top else front + back
    return (f'<div style="margin:4px 0;padding:4px;border:2px solid {OWNER[p]};border-radius:6px">'
            + "<div>" + _("<b>Player {player}</b> {label}{turn} · {notes}").format(
                player=p, label=label, turn=turn, notes=" · ".join(notes)) + "</div>"
            + rows
            + "<div>" + _("yoki zone 妖気おきば: {zone}").format(zone=_yoki_html(pl, p)) + "</div>"
            + "<div>" + _("damage zone ダメージおきば: {zone}").format(zone=_damage_html(pl, p)) + "</div>"
            + "<div>" + _("hand 手札: {cards}").format(cards=_hand_html(state, v, p)) + "</div></div>")


def battle_html(report: Any) -> str:
    """A :class:`~cardlab.games.toritsuki.BattleReport` (or its ``as_dict()``)
    as a table: each side's method, base BP, every modifier with its source,
    the sum, icons, and who faints (TK-20, TK-21)."""
    d = report if isinstance(report, dict) else report.as_dict()
    rows = []
    for role, ja in (("attacker", "アタック"), ("defender", "ブロック")):
        s = d[role]
        mods = "".join(f"<br>{v:+d} {escape(src)}" for src, v in s["modifiers"])
        icons = (" · " + ", ".join(_("{icon} (exception to TK-21)").format(icon=icon_text(i)) for i in s["icons"])
                 if s["icons"] else "")
        if _ja():
            side = _("{role} (player {player})").format(role=ja + "側", player=s["player"])
        else:
            side = f"{role} {ja} (player {s['player']})"
        rows.append(f"<tr><td>{side}</td><td><b>{escape(s['name'])}</b> #{s['card']}"
                    f"<br>{escape(s['method'])} {category_text(s['category'])}{icons}</td>"
                    f"<td>BP {s['base_bp']}{mods}</td><td><b>= {s['total']}</b></td></tr>")
    res = {"attacker": N_("the attacker wins 勝ち"), "defender": N_("the blocker wins 勝ち"),
           "tie": N_("a tie 引き分け")}
    faint = _(" · faints 気絶: {names}").format(names=escape(", ".join(d["fainted"]))) if d["fainted"] else ""
    pierce = _(" · pierce 貫通: 1 damage (exception to TK-21)") if d["pierce"] else ""
    rows.append("<tr><td>" + _("BP duel BP勝負") + f"</td><td colspan=\"3\"><b>{_(res[d['winner']])}</b>"
                f"{faint}{pierce} (TK-21)</td></tr>")
    return ('<table style="border-collapse:collapse;font-size:12px" border="1" cellpadding="3">'
            + "".join(rows) + "</table>")


def _battle_panel(state: State, v: dict[str, Any], perspective: int | None) -> str:
    b = v["battle"]
    if b is None or v["stage"] == "over":
        return ""
    g = state.game
    tp = v["turn_player"]
    a_card = g.cards[b["attacker"]]  # type: ignore[attr-defined]
    am = a_card.methods[b["attacker_method"] - 1]
    method = am.japanese if _ja() and am.japanese else f"{am.name} ({am.japanese})"
    lines = [_("attack アタック: player {player}'s {card} with {method} {category} BP {bp}").format(
        player=tp, card=escape(_name(state, b["attacker"])), method=escape(method),
        category=category_text(am.category), bp=am.bp)]
    for key in ("attacker_possession", "blocker_possession"):
        if b[key]:
            line = (_("possession とりつく! by the attacker: {card}") if key == "attacker_possession"
                    else _("possession とりつく! by the blocker: {card}"))
            lines.append(line.format(card=escape(_name(state, b[key]))))
    parts = "<br>".join(lines) + _fighters(state, v)
    if v["report"] is not None:
        parts += battle_html(v["report"])
    prompt = _prompt(state, v, perspective)
    return ('<div style="margin:4px 0;padding:6px;background:#fff4d6;border:1px solid #e0a000;border-radius:6px">'
            "<b>" + _("Battle panel バトル") + f"</b><br>{parts}{prompt}</div>")


def _fighters(state: State, v: dict[str, Any]) -> str:
    """The battling yokai (resting, out of their rows during the attack, TK-16,
    TK-17) with the cards possessing them beside them (TK-19)."""
    g = state.game
    tribe_ja = g.cardset.tribe_ja  # type: ignore[attr-defined]
    b = v["battle"]
    tp = v["turn_player"]
    items = [card_svg(g.cards[b["attacker"]], tribe_ja, resting=True,  # type: ignore[attr-defined]
                      bonus=b["attacker_bonus"], mark=_("attacking アタック中, player {player}").format(player=tp))]
    if b["attacker_possession"]:
        items.append(card_svg(g.cards[b["attacker_possession"]], tribe_ja,  # type: ignore[attr-defined]
                              mark=_("possessing とりつき中, player {player}").format(player=tp)))
    items.append('<span style="font-size:20px;padding:0 8px">' + _("vs") + "</span>")
    if b["blocker"] is not None:
        items.append(card_svg(g.cards[b["blocker"]], tribe_ja, resting=True,  # type: ignore[attr-defined]
                              bonus=b["blocker_bonus"],
                              mark=_("blocking ブロック中, player {player}").format(player=1 - tp)))
    else:
        block = _("block? ブロック?")
        items.append(_svg(CW, CH, f'<rect x="2" y="2" width="{CW - 4}" height="{CH - 4}" rx="6" fill="none" '
                          f'stroke="#e0a000" stroke-dasharray="5 4"/><text x="{CW / 2}" y="{CH / 2}" '
                          f'font-size="10" text-anchor="middle">{escape(block)}</text>',
                          _("the defender has not chosen yet (TK-17)")))
    if b["blocker_possession"]:
        items.append(card_svg(g.cards[b["blocker_possession"]], tribe_ja,  # type: ignore[attr-defined]
                              mark=_("possessing とりつき中, player {player}").format(player=1 - tp)))
    return "<div>" + _row(items) + "</div>"


def _prompt(state: State, v: dict[str, Any], perspective: int | None) -> str:
    """The defender's (or attacker's) decision in the middle of the turn: block
    (TK-17, TK-18) or possession (TK-19); the current player is the decider."""
    st = v["stage"]
    d = v["current"]
    if st == "block":
        head = _("<b>Block? ブロックする? (TK-17, TK-18)</b> — player {player} decides: block with a ready "
                 "back-row yokai and one of its methods, or take 1 damage").format(player=d)
    elif st in ("possess_a", "possess_d"):
        if st == "possess_a":
            head = _("<b>Possess? とりつく! (TK-19)</b> — player {player}, the attacker アタック側, decides: "
                     "from the deck top, from the hand, or pass").format(player=d)
        else:
            head = _("<b>Possess? とりつく! (TK-19)</b> — player {player}, the defender ブロック側, decides: "
                     "from the deck top, from the hand, or pass").format(player=d)
    else:
        return ""
    if perspective is not None and perspective != d and st != "block":
        end = "。" if _ja() else "."
        return f'<div style="margin-top:4px">{head}{end}</div>'  # the choices name the decider's hand
    if _ja():  # each choice by its Japanese label (the notation is English words)
        items = "".join(f"<li><b>{escape(action_label(a, state))}</b> — {escape(state.explain(a))}</li>"
                        for a in state.legal_actions())
    else:
        items = "".join(f"<li><code>{escape(a)}</code> — {escape(state.explain(a))}</li>"
                        for a in state.legal_actions())
    return f'<div style="margin-top:4px">{head}:<ul style="margin:2px 0">{items}</ul></div>'


def html(state: State, *, perspective: int | None = None) -> str:
    """The table: both sides (the viewer's at the bottom) with back and front
    rows, yoki and damage zones, deck and trash counts, hands, and between them
    the battle panel with the decision prompt."""
    v = view(state, perspective)
    seat = display.is_seat(perspective)
    bottom = perspective if seat else 0
    top = 1 - bottom
    opts = state.game.options
    on = [pgettext("toritsuki option", "open_hands") if name == "open_hands"
          else pgettext("toritsuki option", "known_deck_order")
          for name in ("open_hands", "known_deck_order") if opts[name]]
    if not opts["mulligan"]:
        on.append(_("no mulligan"))
    if opts["first_player"] is not None:
        on.append(_("first_player={player}").format(player=opts["first_player"]))
    if opts["cards"] == "icons":
        on.append(_("icon file: pierce 貫通, guard 守り (exceptions to TK-21, TK-Q7)"))
    elif opts["cards"] is not None:
        on.append(_("own cards (TK-Q1)"))
    if opts["decks"] is not None:
        on.append(_("own decks (TK-Q1)"))
    if opts["move_once_per_turn"]:
        on.append(_("each yokai moves once a turn (house rule, TK-13)"))
    flags = []
    if v["first_turn"] and v["stage"] not in ("over",):
        flags.append(_("the first player's first turn: no draw, event or battle (TK-5)"))
    if v["event_used"]:
        flags.append(_("event イベント used this main phase (TK-24)"))
    note = _(STAGE_NOTE[v["stage"]]) if v["stage"] in STAGE_NOTE else v["stage"]
    return (
        '<div class="cardlab-board cardlab-toritsuki" style="font-family:sans-serif;font-size:13px;max-width:820px">'
        f"<div><b>{escape(_head(v, perspective))}</b></div>"
        + _seat_html(state, v, top, pgettext("toritsuki", "(opponent)") if seat else "", True)
        + _battle_panel(state, v, perspective)
        + _seat_html(state, v, bottom, pgettext("toritsuki", "(you)") if seat else "", False)
        + f'<div style="color:#444">{escape(note)}</div>'
        + (f'<div style="color:#444">{escape(" · ".join(flags))}</div>' if flags else "")
        + ('<div style="color:#444">' + escape(_("options: {options}").format(options=", ".join(on))) + "</div>"
           if on else "")
        + "</div>"
    )


# -- action labels -------------------------------------------------------------------------
ROWS = {"F": N_("front 前衛"), "B": N_("back 後衛")}


def action_label(action: str, state: ToritsukiState | None = None) -> str:
    """A button label with the Japanese terms; with the position, each card
    by the name printed on it and each battle method by its name, as a
    player finds them on the table (else by number and slot).

    >>> action_label("summon 12 F")
    'summon 召喚 #12 → front 前衛'
    >>> action_label("block B1 m2")
    'block ブロック B1 m2'
    >>> action_label("draw 7"), action_label("deal ??")
    ('draw ドロー: #7', 'deal 配る: ??')
    >>> action_label("attack F1 m3 boost 1")
    'attack アタック F1 m3 · boost 妖気ブースト 1'

    """
    fixed = {"keep": N_("keep the hand キープ"), "mulligan": N_("mulligan マリガン"), "end": N_("end エンド"),
             "noblock": N_("no block ブロックしない"), "pass": N_("no possession とりつかない"),
             "possess deck": N_("possess from the deck 山札からとりつく!")}
    if action in fixed:
        return _(fixed[action])
    head, sep, boosts = action.partition(" boost ")
    if sep:  # TK-Q8: paid with face-up damage cards
        return _("{action} · boost 妖気ブースト {n}").format(action=action_label(head, state), n=boosts)
    verb, _sep, arg = action.partition(" ")
    if state is not None and verb in ("summon", "attack", "block", "possess", "event", "move", "release"):
        return _named_label(state, verb, arg)
    if verb == "summon":
        no, row = arg.split()
        return _("summon 召喚 #{no} → {row}").format(no=no, row=_(ROWS[row]))
    if verb in ("attack", "block"):
        slot, m = arg.split()
        where = f"{_slot(slot)} {_method_no(m)}"
        return (_("attack アタック {where}") if verb == "attack" else _("block ブロック {where}")).format(where=where)
    if verb == "possess":
        return _("possess from the hand 手札からとりつく! #{no}").format(no=arg)
    if verb == "event":
        return _("event イベント #{event}").format(event=" ".join(map(_target, arg.split())))
    if verb == "move":
        return _("move 移動 {slots}").format(slots=" ".join(_slot(w) for w in arg.split()))
    if verb == "release":
        return _("to the trash トラッシュ {slot}").format(slot=_slot(arg))
    if verb == "first":
        return _("first player 先攻: player {player}").format(player=arg)
    chance = {"deal": N_("deal 配る"), "draw": N_("draw ドロー"), "damage": N_("damage ダメージ"),
              "reveal": N_("reveal めくる")}
    if verb in chance:  # a card number, or ?? when the viewer may not see it
        return f"{_(chance[verb])}: {'#' + arg if arg.isdigit() else arg}"
    if verb == "shuffle" and _ja():  # the notation itself in English
        return _("shuffle: card #{no} laid in the deck order").format(no=arg)
    return action


def _named_label(state: ToritsukiState, verb: str, arg: str) -> str:
    """A player move's label naming its cards as printed ("summon 召喚 Kappa かっぱ → front 前衛")."""
    ja = _ja()

    def card(no: str) -> str:
        c = state.card(int(no))
        return c.japanese if ja else f"{c.name} {c.japanese}"

    def yokai(slot: str) -> str:
        c = state.yokai_at(slot)
        return c.japanese if ja else f"{c.name} {c.japanese}"

    def method(slot: str, m: str) -> str:
        meth = state.yokai_at(slot).methods[int(m[1:]) - 1]
        name = (meth.japanese or meth.name) if ja else f"{meth.name} {meth.japanese}"
        return f"{name} (BP {meth.bp})"

    if verb == "summon":
        no, row = arg.split()
        return _("summon 召喚 {card} → {row}").format(card=card(no), row=_(ROWS[row]))
    if verb in ("attack", "block"):
        slot, m = arg.split()
        what = f"{yokai(slot)} · {method(slot, m)}"
        return (_("attack アタック: {what}") if verb == "attack" else _("block ブロック: {what}")).format(what=what)
    if verb == "possess":
        return _("possess from the hand 手札からとりつく! {card}").format(card=card(arg))
    if verb == "event":
        return _("event イベント {card}").format(card=card(arg.split()[0]))
    if verb == "move":
        return _("move 移動: {moves}").format(moves=", ".join(
            f"{yokai(s)} → {_(ROWS['B' if s[0] == 'F' else 'F'])}" for s in arg.split()))
    return _("to the trash トラッシュ {card}").format(card=yokai(arg))  # release
