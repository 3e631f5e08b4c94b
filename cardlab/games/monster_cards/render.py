"""MONSTER CARDS (モンスターカード) as text and as an HTML/SVG table, for 2 to 8 players.

Pure functions of a state and a perspective: ``perspective=p`` draws only
``state.observation(p)`` (another player's hand, known deck top and graveyard
(墓地) as counts and card backs, unless the game has open hands);
``perspective=None`` shows everything (``state.to_dict()``).

The shared zones sit in the middle: the attack zone (攻撃ゾーン), the defence
zone (防衛ゾーン, empty between turns: a battle resolves at once), the
GameChanger zone (ゲームチェンジャーゾーン) and the ruins (跡地, public).  Each
seat shows its deck (山札), hand (手札) and graveyard; a player who is out
is marked 脱落.

A battle is not part of a position (it resolves within the move), so the
scale (勝負の秤) is drawn from a :class:`~cardlab.games.monster_cards.Battle`:
``html(state, battle=b)`` adds it, :func:`scale_svg` draws it alone, and
:func:`last_battle` finds the last battle of a played history.
:func:`cardlab.widgets.monster_cards_board.board` makes a board whose table
shows the scale of the last battle after each battle (:class:`BattleRenderer`).

>>> import cardlab
>>> s = cardlab.load("monster_cards").new_initial_state(seed=2)
>>> print(text(s, perspective=1))
MONSTER CARDS (モンスターカード) · 2 players · player 0 to move (action) · as seen by player 1
  attack zone (攻撃ゾーン): —
  GameChanger zone (ゲームチェンジャーゾーン): —
  player 0: hand (手札) 3 hidden | deck (山札) 17 | graveyard (墓地) 0 | ruins (跡地) 0
  player 1: hand (手札) — | deck (山札) 20 | graveyard (墓地) — | ruins (跡地) 0
>>> "<svg" in html(s, perspective=0)
True
"""

from __future__ import annotations

import math
from collections import Counter
from html import escape
from typing import Any, Sequence

from ... import display
from ...core import State
from ...i18n import N_, _, get_language, pgettext
from .battle import Battle
from .cards import KEYS, SKILLS, Card, load_affinity
from .text import card_name

__all__ = ["text", "html", "action_label", "view", "card_svg", "scale_svg", "battle_html",
           "last_battle", "BattleRenderer", "term"]

NAME = "monster_cards"

W, H = 78, 108  # card size in px
ATTR_COLOUR = {"none": ("#e4e4e4", "#222"), "fire": ("#f4c7b8", "#611"), "water": ("#c4dcf4", "#123a66"),
               "wood": ("#cfe8c2", "#1f4d14"), "light": ("#f7ecb0", "#5a4a00"),
               "dark": ("#cfc3de", "#2b1845")}
#: the seed's skill icon colours: Standard brown, Discard blue, GameChanger purple
SKILL_COLOUR = {"standard": "#8b5a2b", "discard": "#2f6fc0", "gamechanger": "#7d3fa8"}
RARITY_COLOUR = {"C": "#888888", "R": "#3a7bd5", "SR": "#c98a00", "UR": "#c0306a"}
BACK = ("#303a5c", "#c9a44a")
SEAT = ("#2f6fb5", "#c2453c", "#2e8b57", "#b8860b", "#7b4f8f", "#d2691e", "#008b8b", "#556b2f")
PHASE_NOTE = {
    "draw": N_("draw until the hand holds 3 (MC-9)"),
    "action": N_("optional Discard skills and GameChangers (MC-10, MC-Q10), then play one card to the defence "
                 "zone or, taking the attack, to the attack zone (MC-11)"),
    "mill": N_("damage: cards go from the deck top to the graveyard 墓地 one by one (MC-3)"),
    "end": N_("game over: the last player with cards wins (MC-19)"),
}
VERB = {"defend": N_("defend 防衛"), "attack": N_("attack 攻撃"), "discard": N_("discard 捨てる"),
        "gc": N_("GameChanger ゲームチェンジャー"), "draw": N_("draw 引く"), "mill": N_("damage ダメージ")}


def _ja() -> bool:
    return get_language() == "ja"


def term(key: str, value: str, state_or_tables: Any = None) -> str:
    """``fire 火``: an affinity value (MC-5) with its Japanese beside it (in
    Japanese: the Japanese name alone)."""
    tables = _tables(state_or_tables)
    jp = tables.japanese[key].get(value, "")
    if _ja() and jp:
        return jp
    return f"{value} {jp}".strip()


def _name(state: Any, name: str, printed: bool = False) -> str:
    """A card name as a person reads it: in Japanese the card's Japanese name
    (from the game's card data), else its id; ``printed``: in English its id
    and its Japanese name, the two names its face prints (:func:`card_svg`)."""
    if not (_ja() or printed) or state is None:
        return name
    game = getattr(state, "game", state)
    card_id = getattr(game, "card_id", None)
    if not card_id or name not in card_id:
        return name
    card = game.card(name)
    if printed and not _ja() and card.japanese:
        return f"{name} {card.japanese}"
    return card_name(card)


def _phase(phase: str) -> str:
    """A phase name (draw, action, mill, end) as a person reads it."""
    return {"draw": pgettext("monster_cards phase", "draw"), "action": pgettext("monster_cards phase", "action"),
            "mill": pgettext("monster_cards phase", "mill"),
            "end": pgettext("monster_cards phase", "end")}.get(phase, phase)


def _result(result: str) -> str:
    """A battle result (success, failure, draw) as a person reads it."""
    return {"success": pgettext("battle result", "success"), "failure": pgettext("battle result", "failure"),
            "draw": pgettext("battle result", "draw")}.get(result, result)


def _choice(value: Any) -> str:
    """An option value in the options line (English: as written in code)."""
    words = {"takes_attack": pgettext("monster_cards option", "takes_attack"),
             "free": pgettext("monster_cards option", "free"),
             "both_to_ruins": pgettext("monster_cards option", "both_to_ruins"),
             "attacker_stays": pgettext("monster_cards option", "attacker_stays"),
             "no_attack": pgettext("monster_cards option", "no_attack"),
             "attacks": pgettext("monster_cards option", "attacks"),
             "True": pgettext("monster_cards option", "True"),
             "False": pgettext("monster_cards option", "False")}
    return words.get(str(value), str(value))


def _tables(x: Any):
    if x is None:
        return load_affinity()
    if isinstance(x, State):
        return x.game.affinity  # type: ignore[attr-defined]
    return x


# -- the view: what the perspective may see -------------------------------------
def view(state: State, perspective: int | None = None) -> dict[str, Any]:
    """The facts to draw, from ``observation(perspective)`` (or, with
    ``perspective=None``, from ``to_dict()`` and the ruins).  Each seat holds
    ``hand``, ``deck_top`` and ``graveyard`` as a list of card names when shown
    and as an int (the count) when hidden; ``deck`` is the number of cards in
    the deck (with ``perspective=None`` also ``deck_cards``, the unknown rest)."""
    display.check_perspective(state, perspective)
    if perspective == display.SPECTATOR:  # the class: what both seats' views have in common
        return display.public_view(view, state)
    n = state.game.spec.num_players
    obs = state.observation(0 if perspective is None else perspective)
    seats = [dict(p) for p in obs["players"]]
    if perspective is None:
        full = state.to_dict()["players"]
        for q in range(n):
            for f in ("hand", "deck_top", "graveyard"):
                seats[q][f] = full[q][f]
            seats[q]["deck_cards"] = full[q]["deck"]
    return {
        "players": n, "phase": obs["phase"], "turn": obs["turn"], "attack": obs["attack"],
        "gamechanger": obs["gamechanger"], "pending": obs["pending"],
        "seats": seats, "returns": state.returns() if state.is_terminal() else None,
    }


def _head(v: dict[str, Any], perspective: int | None) -> str:
    if v["phase"] == "end":
        what = _("game over: player {player} wins 勝ち (MC-19)").format(player=v["turn"])
    else:
        what = (_("player {player} to move ({phase})") if v["phase"] == "action" else
                _("player {player}'s turn ({phase}: chance)")).format(player=v["turn"], phase=_phase(v["phase"]))
    seen = (_("everything shown") if perspective is None else _("as seen by the class")
            if perspective == display.SPECTATOR else _("as seen by player {player}").format(player=perspective))
    return _("MONSTER CARDS (モンスターカード) · {n} players · {what} · {seen}").format(
        n=v["players"], what=what, seen=seen)


def _counted(names: Sequence[str], state: Any = None) -> str:
    c = Counter(names)
    return ", ".join(f"{_name(state, x)}×{m}" if m > 1 else _name(state, x) for x, m in sorted(c.items())) or "—"


def _shown(x: Any, state: Any = None) -> str:
    return (_("{n} hidden").format(n=x) if isinstance(x, int) and x else "—" if isinstance(x, int)
            else _counted(x, state))


def _pile_text(x: Any, state: Any = None) -> str:
    """A graveyard: its count when hidden, else its cards in order (top last)."""
    return str(x) if isinstance(x, int) else " → ".join(_name(state, c) for c in x) or "—"


def _zone_text(z: dict | None, state: State) -> str:
    if z is None:
        return "—"
    c = state.game.card(z["card"])  # type: ignore[attr-defined]
    return _("{card} [{rarity}] (player {player})").format(card=_name(state, c.name), rarity=c.rarity,
                                                         player=z["owner"])


# -- text --------------------------------------------------------------------------
def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; hidden zones show as counts (``perspective=None``:
    ``str(state)``, everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective),
             "  " + _("attack zone (攻撃ゾーン): {zone}").format(zone=_zone_text(v["attack"], state)),
             "  " + _("GameChanger zone (ゲームチェンジャーゾーン): {zone}").format(
                 zone=_zone_text(v["gamechanger"], state))]
    if v["pending"]:
        lines.append("  " + _("damage pending: {n} to player {player}").format(
            n=v["pending"]["damage"], player=v["pending"]["target"]))
    for q, z in enumerate(v["seats"]):
        if z["out"]:
            lines.append("  " + _("player {player}: out (脱落)").format(player=q))
            continue
        top = "" if not z["deck_top"] else _(" (known top: {cards})").format(cards=_shown(z["deck_top"], state))
        lines.append("  " + _("player {player}: hand (手札) {hand} | deck (山札) {deck}{top} | "
                              "graveyard (墓地) {graveyard} | ruins (跡地) {ruins}").format(
            player=q, hand=_shown(z["hand"], state), deck=z["deck"], top=top,
            graveyard=_pile_text(z["graveyard"], state), ruins=len(z["ruins"])))
    return "\n".join(lines)


# -- SVG pieces ----------------------------------------------------------------------
def _svg(width: float, height: float, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="margin:1px;flex:none;font-family:sans-serif">{body}</svg>')


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else s[:n - 1] + "…"


def card_svg(card: Card | None, *, owner: int | None = None, badge: str = "",
             tables: Any = None, note: str = "") -> str:
    """One card as a small inline SVG (``card=None``: a card back, 裏).

    The face shows the rarity (MC-2), the attack power (攻撃力, MC-3), the four
    affinity values in the order of comparison (MC-5) with their Japanese
    names, and the skill icon in the seed's colours (Standard brown, Discard
    blue, GameChanger purple, MC-4)."""
    edge = SEAT[owner % len(SEAT)] if owner is not None else "#333"
    if card is None:
        who = "" if owner is None else _(", player {player}").format(player=owner)
        title = _("card back 裏 (hidden){who}{note}").format(who=who, note=note)
        body = (f"<title>{escape(title)}</title>"
                f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="{BACK[0]}" stroke="{edge}" '
                f'stroke-width="2"/><circle cx="{W / 2}" cy="{H / 2}" r="18" fill="none" stroke="{BACK[1]}" '
                f'stroke-width="3"/><text x="{W / 2}" y="{H / 2 + 5}" font-size="14" text-anchor="middle" '
                f'fill="{BACK[1]}">MC</text>')
    else:
        t = _tables(tables)
        fill, ink = ATTR_COLOUR.get(card.attribute, ("#eee", "#222"))
        ja = _ja()
        jp = escape(card.japanese) if card.japanese else ""
        first, second = escape(_short(card.name, 15)), jp
        if ja and jp:  # in Japanese the card's Japanese name first, its id below
            first, second = jp, escape(_short(card.name, 15))
        rows = []
        for i, k in enumerate(KEYS):
            val = getattr(card, k)
            shown = escape(t.japanese[k].get(val, '')) if ja else f"{escape(t.japanese[k].get(val, ''))} {escape(val)}"
            rows.append(f'<text x="5" y="{52 + 11 * i}" font-size="8.5" fill="{ink}">{shown}</text>')
        skill = ""
        if card.skill:
            sk = SKILLS[card.skill]
            form = {2: " SP", 3: " ULT"}.get(card.level, "")
            skill = (f'<circle cx="12" cy="{H - 12}" r="7" fill="{SKILL_COLOUR[sk.category]}"/>'
                     f'<text x="22" y="{H - 9}" font-size="8" fill="{ink}">{escape(sk.japanese)}{form}</text>')
        who = "" if owner is None else _(" (player {player})").format(player=owner)
        body = (f"<title>{escape(str(card))}{escape(who)}{escape(note)}</title>"
                f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="{fill}" stroke="{edge}" '
                f'stroke-width="2"/>'
                f'<rect x="4" y="4" width="{24 if len(card.rarity) > 1 else 16}" height="13" rx="3" '
                f'fill="{RARITY_COLOUR[card.rarity]}"/>'
                f'<text x="{16 if len(card.rarity) > 1 else 12}" y="14" font-size="9" text-anchor="middle" '
                f'fill="#fff" font-weight="bold">{card.rarity}</text>'
                f'<text x="{W - 5}" y="14" font-size="9" text-anchor="end" fill="{ink}">攻 {card.attack}</text>'
                f'<text x="{W / 2}" y="29" font-size="8.5" text-anchor="middle" fill="{ink}" '
                f'font-weight="bold">{first}</text>'
                f'<text x="{W / 2}" y="40" font-size="8.5" text-anchor="middle" fill="{ink}">{second}</text>'
                + "".join(rows) + skill)
    if badge:
        body += (f'<rect x="{W - 30}" y="{H - 20}" width="26" height="15" rx="7" fill="#fff" stroke="#333"/>'
                 f'<text x="{W - 17}" y="{H - 9}" font-size="9" text-anchor="middle">{escape(badge)}</text>')
    return _svg(W, H, body)


def _empty_slot(label: str) -> str:
    title, empty = _("{label}: empty").format(label=label), _("empty 空")
    return _svg(W, H, f"<title>{escape(title)}</title>"
                      f'<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="6" fill="none" stroke="#999" '
                      f'stroke-dasharray="5 4"/><text x="{W / 2}" y="{H / 2 + 3}" font-size="9" '
                      f'text-anchor="middle" fill="#999">{escape(empty)}</text>')


def scale_svg(battle: Battle, *, size: int = 220) -> str:
    """The scale (勝負の秤) of one battle: a dial with the attacker's side on
    the left and the defender's on the right, the short hand (短針, MC-14: the
    rarity difference, toward the disadvantaged side) and the long hand (長針,
    MC-15: one mark per affinity advantage, from the centre).  Long hand
    nearer the defender than the short hand: the defence succeeds (MC-16)."""
    r = max(7, abs(battle.short_hand), abs(battle.long_hand))
    cx, cy, rad = size / 2, size * 0.62, size * 0.42

    def at(mark: float, length: float) -> tuple[float, float]:
        ang = math.pi / 2 - (mark / r) * (math.pi / 2 * 0.9)  # 0 straight up, + to the right
        return round(cx + length * math.cos(ang), 1), round(cy - length * math.sin(ang), 1)

    parts = ["<title>" + escape(_("scale 勝負の秤: short hand 短針 {short:+d}, long hand 長針 "
                                  "{long:+d} (marks toward the defender +, attacker −): {result} "
                                  "(MC-14, MC-15, MC-16)").format(short=battle.short_hand, long=battle.long_hand,
                                                                  result=_result(battle.result))) + "</title>",
             f'<rect x="0" y="0" width="{size}" height="{size * 0.8:.0f}" rx="8" fill="#fbf8f0" stroke="#bbb"/>']
    x0, y0 = at(-r, rad)
    x1, y1 = at(r, rad)
    parts.append(f'<path d="M{x0} {y0} A{rad} {rad} 0 0 1 {x1} {y1}" fill="none" stroke="#555" '
                 f'stroke-width="2"/>')
    for m in range(-r, r + 1):
        a, b = at(m, rad), at(m, rad - (9 if m == 0 else 5))
        parts.append(f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="#555" '
                     f'stroke-width="{2 if m == 0 else 1}"/>')
        if m % 2 == 0 or r <= 7:
            lx, ly = at(m, rad + 10)
            parts.append(f'<text x="{lx}" y="{ly + 3}" font-size="8" text-anchor="middle" fill="#555">'
                         f"{abs(m)}</text>")
    left, right = _("◀ attacker 攻撃側"), _("defender 防衛側 ▶")
    parts.append(f'<text x="8" y="{size * 0.76:.0f}" font-size="10" fill="#a33">{escape(left)}</text>'
                 f'<text x="{size - 8}" y="{size * 0.76:.0f}" font-size="10" text-anchor="end" '
                 f'fill="#236">{escape(right)}</text>')
    long_title = _("long hand 長針 {n:+d}").format(n=battle.long_hand)
    short_title = _("short hand 短針 {n:+d}").format(n=battle.short_hand)
    sx, sy = at(battle.short_hand, rad * 0.55)
    lx, ly = at(battle.long_hand, rad * 0.9)
    parts.append(f'<line x1="{cx}" y1="{cy}" x2="{lx}" y2="{ly}" stroke="#1f5fa8" stroke-width="2.5" '
                 f'stroke-linecap="round"><title>{escape(long_title)}</title></line>')
    parts.append(f'<line x1="{cx}" y1="{cy}" x2="{sx}" y2="{sy}" stroke="#b3261e" stroke-width="6" '
                 f'stroke-linecap="round"><title>{escape(short_title)}</title></line>')
    parts.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="#333"/>')
    res = {"success": _("defence succeeds 防衛成功"), "failure": _("defence fails 防衛失敗"),
           "draw": _("draw 引き分け")}[battle.result]
    parts.append(f'<text x="{cx}" y="{size * 0.14:.0f}" font-size="11" text-anchor="middle" '
                 f'font-weight="bold">{escape(res)}</text>')
    return _svg(size, round(size * 0.8), "".join(parts))


def battle_html(battle: Battle, state_or_game: Any = None) -> str:
    """A battle: both cards (when the game is given), the scale and the
    engine's explanation (:meth:`Battle.explain`)."""
    cards = ""
    game = getattr(state_or_game, "game", state_or_game)
    if game is not None and hasattr(game, "card_id"):
        t = game.affinity
        attacker, defender = _("attacker 攻撃"), _("defender 防衛")
        cards = (f'<div style="text-align:center"><small>{escape(attacker)}</small><br>'
                 f"{card_svg(game.card(battle.attacker), tables=t)}</div>"
                 f'<div style="text-align:center"><small>{escape(defender)}</small><br>'
                 f"{card_svg(game.card(battle.defender), tables=t)}</div>")
    return ('<div class="cardlab-mc-battle" style="display:flex;flex-wrap:wrap;gap:8px;align-items:center;'
            'margin:4px 0;padding:6px;border:1px solid #ddd;border-radius:6px">'
            + cards + scale_svg(battle)
            + f'<pre style="font-size:11px;margin:0;white-space:pre-wrap">{escape(battle.explain())}</pre></div>')


def _row(items: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center">'
            + ("".join(items) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _zone_html(label: str, z: dict | None, state: State) -> str:
    g = state.game
    inner = _empty_slot(label) if z is None else card_svg(g.card(z["card"]), owner=z["owner"],  # type: ignore[attr-defined]
                                                           tables=g.affinity)  # type: ignore[attr-defined]
    owner = "" if z is None else "<br><small>" + escape(_("player {player}").format(player=z["owner"])) + "</small>"
    return (f'<div style="text-align:center;margin:0 6px"><small><b>{escape(label)}</b></small><br>'
            f"{inner}{owner}</div>")


def _pile_html(x: Any, state: State, owner: int, what: str) -> str:
    g = state.game
    if isinstance(x, int):
        if not x:
            return '<span style="color:#888">—</span>'
        return (card_svg(None, owner=owner, badge=str(x), note=_(" ({what})").format(what=what))
                + " <small>" + escape(_("{n} hidden (見えない)").format(n=x)) + "</small>")
    return _row([card_svg(g.card(c), owner=owner, tables=g.affinity) for c in x])  # type: ignore[attr-defined]


def _seat_html(v: dict[str, Any], q: int, state: State, perspective: int | None) -> str:
    z = v["seats"][q]
    colour = SEAT[q % len(SEAT)]
    you = _(" (you)") if perspective == q else ""
    if z["out"]:
        return ('<div style="margin:3px;padding:4px 8px;border:1px dashed #aaa;border-radius:6px;color:#888">'
                + _("<b>Player {player}</b>{you} · out 脱落 (deck empty, MC-19)").format(player=q, you=you)
                + "</div>")
    turn = _(" ◀ to move") if v["phase"] != "end" and v["turn"] == q else ""
    if v["phase"] == "end":
        turn = _(" · winner 勝者")
    deck = (card_svg(None, owner=q, badge=str(z["deck"]), note=_(" (deck)")) if z["deck"]
            else '<span style="color:#888">' + escape(_("empty")) + "</span>")
    top = ""
    if z["deck_top"]:
        top = _(" · known top 上: ") + _pile_html(z["deck_top"], state, q, _("known deck top"))
    if "deck_cards" in z and z["deck_cards"]:
        top += (' <small title="' + escape(_("order unknown to everybody")) + '">'
                + escape(_("rest (順不明): {cards}").format(cards=_counted(z["deck_cards"], state))) + "</small>")
    grave = z["graveyard"]
    if isinstance(grave, int):
        grave_html = escape(_("{n} hidden (見えない)").format(n=grave)) if grave else "—"
    else:
        grave_html = (escape(_("{cards} (top last)").format(cards=" → ".join(_name(state, c) for c in grave)))
                      if grave else "—")
    ruins = escape(_counted(z["ruins"], state))
    return (f'<div style="margin:3px;padding:4px 8px;border:2px solid {colour};border-radius:6px;'
            f'flex:1 1 320px">'
            + f'<div><b style="color:{colour}">' + escape(_("Player {player}").format(player=q)) + f"</b>{you}{turn}"
            + _(" · deck 山札 <b>{deck}</b> · hand 手札 {hand} · graveyard 墓地 {graveyard} · ruins 跡地 {ruins}").format(
                deck=z["deck"], hand=z["hand"] if isinstance(z["hand"], int) else len(z["hand"]),
                graveyard=grave if isinstance(grave, int) else len(grave), ruins=len(z["ruins"])) + "</div>"
            + "<div>" + _("hand (手札): {cards}").format(cards=_pile_html(z["hand"], state, q, _("hand"))) + "</div>"
            + "<div>" + _("deck (山札): {deck}{top}").format(deck=deck, top=top) + "</div>"
            + "<div><small>" + _("graveyard (墓地): {cards}").format(cards=grave_html) + "</small></div>"
            + "<div><small>" + _("ruins (跡地, public): {cards}").format(cards=ruins) + "</small></div></div>")


def html(state: State, *, perspective: int | None = None, battle: Battle | None = None) -> str:
    """The table for 2 to 8 players: the shared zones in the middle (attack,
    defence, GameChanger), every seat around them with its deck, hand and
    graveyard (hidden ones as counts), the players who are out, and, when
    ``battle`` is given, that battle's scale (勝負の秤)."""
    v = view(state, perspective)
    order = list(range(v["players"]))
    if display.is_seat(perspective):  # the viewer's seat last (at the bottom), the others in seat order
        order = order[perspective + 1:] + order[:perspective + 1]
    seats = [_seat_html(v, q, state, perspective) for q in order]
    note = _(PHASE_NOTE[v["phase"]]) if v["phase"] in PHASE_NOTE else v["phase"]
    if v["pending"]:
        note += _(" · damage pending: {n} more to player {player}").format(
            n=v["pending"]["damage"], player=v["pending"]["target"])
    if v["returns"] is not None:
        note += _(" · returns {returns}").format(returns=", ".join(str(x) for x in v["returns"]))
    gc = v["gamechanger"]
    gc_note = ""
    if gc is not None:
        c = state.game.card(gc["card"])  # type: ignore[attr-defined]
        gc_note = ("<div><small>" + escape(_("GameChanger in force (ゲームチェンジャー): {skill} (MC-4)").format(
            skill=SKILLS[c.skill].describe(c.level))) + "</small></div>")
    middle = ('<div style="margin:4px 0;padding:6px;background:#eef3e8;border-radius:6px">'
              '<div style="display:flex;flex-wrap:wrap;align-items:flex-start">'
              + _zone_html(_("GameChanger zone ゲームチェンジャーゾーン"), gc, state)
              + _zone_html(_("attack zone 攻撃ゾーン"), v["attack"], state)
              + _zone_html(_("defence zone 防衛ゾーン"), None, state)
              + '<div style="margin:0 6px;max-width:260px"><small><b>' + escape(_("ruins 跡地")) + "</b>"
              + escape(_(" (public, MC-7): "))
              + escape(", ".join(_("player {player} {n}").format(player=q, n=len(z["ruins"]))
                                 for q, z in enumerate(v["seats"])))
              + "<br>" + escape(_("the defence zone holds a card only while its battle resolves (MC-11, MC-18)"))
              + "</small></div></div>" + gc_note + "</div>")
    opts = state.game.options
    on = [_("replacing={value} (MC-11)").format(value=_choice(opts["replacing"])),
          _("on_draw={value} (MC-Q4)").format(value=_choice(opts["on_draw"])),
          _("own_attacker={value} (MC-Q6)").format(value=_choice(opts["own_attacker"])),
          _("out_by_drawing={value} (MC-Q7)").format(value=_choice(opts["out_by_drawing"]))]
    if opts["open_hands"]:
        on.append(_("open hands"))
    out = [q for q, z in enumerate(v["seats"]) if z["out"]]
    out_note = ("" if not out else
                '<div style="color:#444">' + escape(_("out 脱落: {players}").format(
                    players=", ".join(_("player {player}").format(player=q) for q in out))) + "</div>")
    scale = "" if battle is None else (
        "<div><b>" + escape(_("last battle 戦闘 (勝負の秤)")) + "</b></div>" + battle_html(battle, state))
    return ('<div class="cardlab-board cardlab-monster-cards" style="font-family:sans-serif;font-size:13px;'
            'max-width:900px">'
            f"<div><b>{escape(_head(v, perspective))}</b></div>"
            '<div style="display:flex;flex-wrap:wrap">' + "".join(seats[:-1]) + "</div>"
            + middle
            + '<div style="display:flex;flex-wrap:wrap">' + seats[-1] + "</div>"
            + scale
            + f'<div style="color:#444">{escape(note)}</div>' + out_note
            + '<div style="color:#666"><small>' + escape(_("options: {options}").format(options=", ".join(on)))
            + "</small></div>"
            + "</div>")


# -- the last battle of a history, and a board that draws it ----------------------------
def last_battle(states: Sequence[State], actions: Sequence[str]) -> tuple[int, Battle] | None:
    """``(index, battle)`` of the last battle fought in a history, where
    ``states[i]`` is the position before ``actions[i]`` (as
    :meth:`cardlab.widgets.Board.states` and ``Match.history`` give them);
    None before the first battle.  Battles are public: both cards are played
    face up (MC-11)."""
    for i in range(min(len(states), len(actions)) - 1, -1, -1):
        if actions[i].startswith("defend "):
            b = states[i].battle(actions[i])  # type: ignore[attr-defined]
            if b is not None:
                return i, b
    return None


class BattleRenderer:
    """A board renderer: :func:`html` plus the scale of the last battle of
    the board's match (set :attr:`board` after building the board;
    :func:`cardlab.widgets.monster_cards_board.board` does it)."""

    def __init__(self) -> None:
        self.board: Any = None

    def __call__(self, state: State, *, perspective: int | None = None) -> str:
        b = self.board
        found = None
        if b is not None and b.match.state is state:
            found = last_battle(b.states(), [m.action for m in b.match.history])
        return html(state, perspective=perspective, battle=None if found is None else found[1])


def move_html(state: State, action: str) -> str:
    """A defence (``defend X``) as its battle: both cards, the scale 勝負の秤
    and the explanation (:func:`battle_html`); ``""`` for any other move."""
    b = state.battle(action)  # type: ignore[attr-defined]
    return "" if b is None else battle_html(b, state)


# -- action labels -------------------------------------------------------------------
def action_label(action: str, state: State | None = None) -> str:
    """A button label with the Japanese term; with ``state``, the card is
    named as its face prints it (its id and its Japanese name; in Japanese
    its Japanese name alone), else by its id.

    >>> action_label("defend ember_imp")
    'defend 防衛: ember_imp'
    >>> import cardlab
    >>> action_label("defend ember_imp", cardlab.load("monster_cards").new_initial_state())
    'defend 防衛: ember_imp 火の小鬼'
    """
    verb, _sep, arg = action.partition(" ")
    if verb in VERB and arg:
        return _("{verb}: {card}").format(verb=_(VERB[verb]), card=_name(state, arg, printed=True))
    return action
