"""Mazemon (マゼモン) as text and as an HTML/SVG table.

Pure functions of a state and a perspective: ``perspective=p`` draws only
``state.observation(p)`` (the opponent's hand as card backs unless the game
has open hands); ``perspective=None`` shows everything (``state.to_dict()``).

Each side shows its battle zone (バトルゾーン, at most 3 monsters; a wounded
one, キズ, is drawn upside down, MZ-17), its mana row (マナゾーン, face down;
a tapped card is turned sideways, MZ-4), the first player's two trashed cards
(トラッシュ, MZ-3), the hand (てふだ: faces for the owner, backs for the
opponent) with the mana a summon would cost now (MZ-18, shown before paying),
and the captured pile (とったカード, MZ-23).  At a substitute decision
(みがわり, MZ-19) the table shows the pending attack, the defender's choices
and how each battle would end.  Mana in play is never identified by the
engine, so every mana card is a back, for everybody.

>>> import cardlab
>>> s = cardlab.load("mazemon").new_initial_state(seed=1)
>>> print(text(s, perspective=1))
Mazemon (マゼモン) · player 0's turn · charge チャージ · as seen by player 1
  first player せんて: 0 (janken じゃんけん, MZ-2)
  player 0: captured とったカード 0 · mana マナ 0 (0 untapped) · trash トラッシュ 2 · hand てふだ 8 hidden cards
    battle zone バトルゾーン: —
  player 1: captured とったカード 0 · mana マナ 0 (0 untapped) · hand てふだ tide_whale(3), coral_knight(2), mist_jelly(1), river_otter(2), ink_squid(3), moss_tortoise(2), vine_serpent(2), clover_bell(1), spark_wren(1), flare_whale(3)
    battle zone バトルゾーン: —
>>> "<svg" in html(s, perspective=0)
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from .. import render
from ..core import State
from ..games.mazemon import ATTR_JA, Card, MazemonState, shared_materials, summon_cost

__all__ = ["action_label", "attr_term", "back_svg", "battle_html", "card_svg", "html", "material_japanese",
           "pay_now", "text", "view"]

NAME = "mazemon"
CW, CH = 96, 128          # a monster card, px
MW, MH = 30, 42           # a face-down mana / trash / hand card, px
OWNER = ("#2f6fb5", "#c2453c")
ATTR_COLOUR = {"fire": ("#f4d3c4", "#c0392b"), "grass": ("#d6efcf", "#2e8b3a"),
               "water": ("#cfe3f7", "#2265b0")}
BACK = ("#5b3f8c", "#e6dcf5")
PHASE_JA = {"janken": "じゃんけん", "trash": "トラッシュ", "charge": "チャージ", "summon": "しゅつげん",
            "battle": "バトル", "substitute": "みがわり", "steal": "ちょくせつこうげき", "end": "おわり"}
PHASE_NOTE = {
    "janken": "janken じゃんけん decides who goes first (MZ-2)",
    "trash": "the first player sets aside 2 cards unseen: トラッシュ (MZ-3, MZ-Q8)",
    "charge": "charge チャージ: exactly one hand card goes face down into mana (MZ-6)",
    "summon": "summon しゅつげん (pay the cost after materials そざい, MZ-7, MZ-18), attack こうげき (MZ-8) or end おわり (MZ-9)",
    "battle": "battle バトル: attack with a monster that has not attacked (MZ-8), or end おわり (MZ-9)",
    "substitute": "substitute みがわり: the defender may tap 1 mana so that another monster takes the attack (MZ-19)",
    "steal": "direct attack ちょくせつこうげき: one card of the hand is taken at random (MZ-22, MZ-Q2)",
    "end": "game over おわり (MZ-23, MZ-24, MZ-Q6)",
}
RESULT_JA = {"ko": "KO 一撃", "wound": "wound キズ", "mutual": "mutual あいうち"}


def attr_term(attr: str) -> str:
    """``fire ほのお``: the attribute with its Japanese beside it."""
    return f"{attr} {ATTR_JA[attr]}"


def material_japanese(game: Any) -> dict[str, str]:
    """The Japanese names of the materials (そざい) from the game's card file
    (its optional ``materials`` map, checked when the file was loaded); an
    unnamed material keeps its English name."""
    return dict(game.card_set.materials)


# -- the view: what the perspective may see ---------------------------------------
def view(state: State, perspective: int | None = None) -> dict[str, Any]:
    """The facts to draw, from ``observation(perspective)`` (or, with
    ``perspective=None``, from ``to_dict()``): a shown hand is a list of card
    ids, a hidden one an int (its size)."""
    render.check_perspective(state, perspective)
    d = state.to_dict() if perspective is None else state.observation(perspective)
    v = {k: d[k] for k in ("phase", "turn", "first", "quiet_turns", "acted", "substitute_used",
                           "direct_used", "pending", "players")}
    v["current"] = state.current_player
    v["returns"] = state.returns() if state.is_terminal() else None
    return v


def pay_now(state: State, player: int, card_id: str, zone: list[str] | None = None) -> tuple[int, int]:
    """``(shared materials, mana to pay)`` to summon ``card_id`` of ``player``
    next to ``zone`` (default: the player's battle zone now), by MZ-18/MZ-Q3."""
    g = state.game
    ids = [m["card"] for m in state.observation(player)["players"][player]["battle"]] if zone is None else zone
    here = [g.card(player, c) for c in ids]  # type: ignore[attr-defined]
    card = g.card(player, card_id)  # type: ignore[attr-defined]
    mode = g.options["material_count"]
    return shared_materials(card, here, mode), summon_cost(card, here, mode)


def _head(v: dict[str, Any], perspective: int | None) -> str:
    ph = v["phase"]
    if ph == "end":
        r = v["returns"][0]
        who = "game over · " + ("draw" if r == 0 else f"player {0 if r > 0 else 1} wins")
    elif ph == "janken":
        who = "janken じゃんけん"
    else:
        who = f"player {v['turn']}'s turn · {ph} {PHASE_JA[ph]}"
        if v["current"] >= 0 and v["current"] != v["turn"]:
            who += f" · player {v['current']} decides"
    seen = "everything shown" if perspective is None else f"as seen by player {perspective}"
    return f"Mazemon (マゼモン) · {who} · {seen}"


def _result_line(v: dict[str, Any]) -> str:
    c = [pl["captured"] for pl in v["players"]]
    r = v["returns"][0]
    winner = "draw 引き分け" if r == 0 else f"player {0 if r > 0 else 1} wins 勝ち"
    return f"captured とったカード {c[0]} : {c[1]} → {winner}"


# -- text ----------------------------------------------------------------------------
@render.register_text(NAME)
def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; a hidden hand shows as its number of cards and each
    shown hand card carries the mana its summon costs now, e.g. ``petal_fox(1)``
    (``perspective=None``: ``str(state)``, everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective)]
    if v["first"] is not None:
        lines.append(f"  first player せんて: {v['first']} (janken じゃんけん, MZ-2)")
    if v["pending"]:
        lines.append(f"  pending attack こうげき: {v['pending']['attacker']} → {v['pending']['target']}"
                     " · substitute みがわり? (MZ-19)")
    for p in (0, 1):
        pl = v["players"][p]
        hand = pl["hand"]
        if isinstance(hand, int):
            shown = f"{hand} hidden cards"
        else:
            shown = ", ".join(f"{c}({pay_now(state, p, c)[1]})" for c in hand) or "—"
        trash = " · trash トラッシュ 2" if v["first"] == p and v["phase"] != "trash" else ""
        lines.append(f"  player {p}: captured とったカード {pl['captured']} · mana マナ {pl['mana']} "
                     f"({pl['untapped']} untapped){trash} · hand てふだ {shown}")
        zone = [m["card"] + (" キズ" if m["wounded"] else "") + (" こうげきずみ" if m["attacked"] else "")
                for m in pl["battle"]]
        lines.append(f"    battle zone バトルゾーン: {' · '.join(zone) or '—'}")
        if pl["out"]:
            lines.append(f"    out of play: {', '.join(pl['out'])}")
    if v["returns"] is not None:
        lines.append("  result: " + _result_line(v))
    return "\n".join(lines)


# -- HTML / SVG --------------------------------------------------------------------------
def _svg(width: float, height: float, body: str, title: str = "") -> str:
    t = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="margin:2px;flex:none">{t}{body}</svg>')


def _back_body(w: float, h: float) -> str:
    return (f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="4" fill="{BACK[0]}" stroke="#333"/>'
            f'<rect x="4" y="4" width="{w - 8}" height="{h - 8}" rx="2" fill="none" stroke="{BACK[1]}" '
            f'stroke-dasharray="3 2"/>')


def back_svg(title: str, *, tapped: bool = False) -> str:
    """A face-down card (mana, trash or a hidden hand card); ``tapped`` turns it sideways."""
    if tapped:
        body = f'<g transform="translate({MH},0) rotate(90)">{_back_body(MW, MH)}</g>'
        return _svg(MH, MW, body, title)
    return _svg(MW, MH, _back_body(MW, MH), title)


def _card_body(card: Card, mats_ja: dict[str, str], pay: tuple[int, int] | None) -> str:
    fill, ink = ATTR_COLOUR[card.attribute]
    mats = " ".join(mats_ja.get(m, m) for m in card.materials)
    parts = [f'<rect x="1" y="1" width="{CW - 2}" height="{CH - 2}" rx="6" fill="{fill}" stroke="{ink}" stroke-width="2"/>',
             f'<text x="6" y="14" font-size="9" font-weight="bold" fill="{ink}">{escape(ATTR_JA[card.attribute])}</text>',
             (f'<circle cx="{CW - 12}" cy="11" r="8" fill="#fff" stroke="{ink}"/>'
              f'<text x="{CW - 12}" y="14" font-size="9" text-anchor="middle">{card.cost}</text>'),
             f'<text x="{CW / 2}" y="30" font-size="10" text-anchor="middle" font-weight="bold">{escape(card.japanese)}</text>',
             f'<text x="{CW / 2}" y="41" font-size="8" text-anchor="middle">{escape(card.name)}</text>',
             f'<text x="{CW / 2}" y="56" font-size="9" text-anchor="middle">HP {card.hp}</text>',
             f'<text x="{CW / 2}" y="72" font-size="8" text-anchor="middle">{escape(card.technique_japanese)}</text>',
             f'<text x="{CW / 2}" y="85" font-size="11" text-anchor="middle" font-weight="bold">わざ {card.power}</text>',
             f'<text x="{CW / 2}" y="100" font-size="8" text-anchor="middle" fill="#333"'
             + (f' textLength="{CW - 8}" lengthAdjust="spacingAndGlyphs"' if len(mats) > 9 else "")
             + f">そざい {escape(mats)}</text>"]
    if pay is not None:  # words printed under the card, not a box: nothing here is a button
        parts.append(f'<text x="{CW / 2}" y="{CH - 10}" font-size="8.5" font-style="italic" fill="#333" '
                     f'text-anchor="middle">summon for {pay[1]} マナ</text>')
    return "".join(parts)


def card_svg(card: Card, mats_ja: dict[str, str] | None = None, *, wounded: bool = False,
             attacked: bool = False, pay: tuple[int, int] | None = None, target: bool = False) -> str:
    """One monster card (マゼモン) as a small inline SVG: attribute (ぞくせい),
    COST, names, HP, technique (わざ) and materials (そざい).  ``wounded``
    draws it upside down (キズ, MZ-17); ``pay`` = (shared, mana) adds the
    summon price now (MZ-18); ``target`` outlines the attacked monster."""
    mats_ja = mats_ja or {}
    body = _card_body(card, mats_ja, pay)
    if wounded:
        body = f'<g transform="rotate(180 {CW / 2} {CH / 2})">{body}</g>'
        body += (f'<rect x="{CW / 2 - 30}" y="{CH / 2 - 9}" width="60" height="16" rx="3" fill="#b00" />'
                 f'<text x="{CW / 2}" y="{CH / 2 + 3}" font-size="10" text-anchor="middle" fill="#fff">キズ wound</text>')
    if attacked:
        body += (f'<rect x="2" y="{CH - 18}" width="{CW - 4}" height="14" rx="3" fill="#444" opacity="0.85"/>'
                 f'<text x="{CW / 2}" y="{CH - 8}" font-size="8" text-anchor="middle" fill="#fff">attacked こうげきずみ</text>')
    if target:
        body += f'<rect x="0" y="0" width="{CW}" height="{CH}" rx="7" fill="none" stroke="#e0a000" stroke-width="4"/>'
    title = (f"{card.id} · {card.name} ({card.japanese}) · {attr_term(card.attribute)} · "
             f"わざ {card.technique} ({card.technique_japanese}) {card.power} · HP {card.hp} · "
             f"COST {card.cost} · そざい {'/'.join(card.materials)}")
    if wounded:
        title += " · wounded キズ (upside down, MZ-17)"
    if pay is not None:
        title += (f" · summon now: COST {card.cost} − {pay[0]} shared そざい → pay {pay[1]} mana "
                  f"(at least 1, MZ-18)")
    return _svg(CW, CH, body, title)


def _row(items: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center">'
            + ("".join(items) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _zone_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str]) -> str:
    g = state.game
    pend = v["pending"]
    target = pend["target"] if pend and p != v["turn"] else None
    cards = [card_svg(g.card(p, m["card"]), mats_ja, wounded=m["wounded"],  # type: ignore[attr-defined]
                      attacked=m["attacked"], target=m["card"] == target) for m in v["players"][p]["battle"]]
    empty = _svg(CW, CH, f'<rect x="2" y="2" width="{CW - 4}" height="{CH - 4}" rx="6" fill="none" '
                 f'stroke="#aaa" stroke-dasharray="5 4"/><text x="{CW / 2}" y="{CH / 2}" font-size="9" '
                 f'text-anchor="middle" fill="#999">empty あき</text>', "empty place of the battle zone (MZ-4)")
    cards += [empty] * (3 - len(cards))
    return _row(cards)


def _hand_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str]) -> str:
    hand = v["players"][p]["hand"]
    if isinstance(hand, int):
        backs = [back_svg(f"face down うらむき (hidden hand card), player {p}") for _ in range(hand)]
        return _row(backs) + f" <small>{hand} hidden (見えない)</small>"
    g = state.game
    return _row([card_svg(g.card(p, c), mats_ja, pay=pay_now(state, p, c)) for c in hand])  # type: ignore[attr-defined]


def _mana_html(v: dict[str, Any], p: int) -> str:
    pl = v["players"][p]
    tapped = pl["mana"] - pl["untapped"]
    cards = ([back_svg(f"mana マナ, untapped (upright), player {p}") for _ in range(pl["untapped"])]
             + [back_svg(f"mana マナ, tapped よこむき (used this turn), player {p}", tapped=True)
                for _ in range(tapped)])
    return _row(cards) + f" <small>{pl['mana']} mana, {pl['untapped']} untapped, {tapped} tapped</small>"


def _seat_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str], label: str) -> str:
    pl = v["players"][p]
    notes = [f"captured とったカード <b>{pl['captured']}</b> / 3"]
    if v["first"] == p:
        notes.append("first player せんて")
    turn = ""
    if v["phase"] not in ("end", "janken", "trash"):
        if v["current"] == p:
            turn = " ◀ to move"
        elif v["turn"] == p:
            turn = " (its turn)"
    trash = ""
    if v["first"] == p and v["phase"] != "trash":
        trash = (" &nbsp; trash トラッシュ: "
                 + _row([back_svg(f"trash トラッシュ, unseen by both (MZ-3, MZ-Q8), player {p}")] * 2))
    captured = _row([_svg(MW, MH, f'<rect x="1" y="1" width="{MW - 2}" height="{MH - 2}" rx="4" fill="#fff" '
                          f'stroke="{OWNER[1 - p]}"/><text x="{MW / 2}" y="{MH / 2 + 4}" font-size="10" '
                          f'text-anchor="middle">{i + 1}</text>', f"captured card {i + 1} of player {p}")
                     for i in range(pl["captured"])])
    out = (f" &nbsp; <small>out of play (knocked out, taken or trashed substitutes): "
           f"{escape(', '.join(pl['out']))}</small>" if pl["out"] else "")
    return (f'<div style="margin:4px 0;padding:4px;border:2px solid {OWNER[p]};border-radius:6px">'
            f"<div><b>Player {p}</b> {label}{turn} · {' · '.join(notes)}</div>"
            f"<div>battle zone バトルゾーン (max 3): {_zone_html(state, v, p, mats_ja)}</div>"
            f"<div>mana マナゾーン: {_mana_html(v, p)}{trash}</div>"
            f"<div>hand てふだ: {_hand_html(state, v, p, mats_ja)}</div>"
            f"<div>captured とったカード: {captured}{out}</div></div>")


def battle_html(b: Any) -> str:
    """A :class:`~cardlab.games.mazemon.Battle` (or a ``battle_report`` dict)
    as a small table: technique, attribute, HP, result and the rule."""
    d = b if isinstance(b, dict) else b.as_dict()
    hp = (f"HP {d['hp'][0]} vs {d['hp'][1]} (same attribute, MZ-16)" if d["hp"]
          else "HP not compared (MZ-16)")
    sub = "allowed" if d["substitute_allowed"] else "not allowed: wins on attribute (MZ-21)"
    return ('<table style="border-collapse:collapse;font-size:12px">'
            f"<tr><td>attacker</td><td><b>{escape(d['attacker'])}</b> {attr_term(d['attacker_attribute'])} "
            f"わざ {d['attacker_power']}</td></tr>"
            f"<tr><td>defender</td><td><b>{escape(d['defender'])}</b> {attr_term(d['defender_attribute'])} "
            f"わざ {d['defender_power']}</td></tr>"
            f"<tr><td>technique わざ</td><td>{d['technique']} (MZ-10)</td></tr>"
            f"<tr><td>attribute ぞくせい</td><td>{d['attribute']} (MZ-11)</td></tr>"
            f"<tr><td>HP</td><td>{hp}</td></tr>"
            f"<tr><td>result</td><td><b>{RESULT_JA[d['result']]}</b> ({d['rule']})</td></tr>"
            f"<tr><td>attack cost</td><td>{d['attack_cost']} mana (MZ-8, MZ-Q4)</td></tr>"
            f"<tr><td>substitute みがわり</td><td>{sub}</td></tr></table>")


@render.register_move_html(NAME)
def move_html(state: State, action: str) -> str:
    """A battle as the table of :func:`battle_html`, drawn for the move that
    settles it: an attack with no みがわり decision after it, or the
    defender's ``substitute Z`` / ``decline`` (MZ-19); ``""`` otherwise."""
    verb = action.split(" ", 1)[0]
    if verb not in ("attack", "substitute", "decline"):
        return ""
    if verb == "attack" and state.apply(action).phase == "substitute":  # type: ignore[attr-defined]
        return ""  # the defender decides first; the battle is drawn with that decision
    return battle_html(state.battle_report(action))  # type: ignore[attr-defined]


def _attacks_html(state: State, v: dict[str, Any]) -> str:
    """The price and the outcome of every attack the player to move could
    declare now (MZ-8: 1 mana, 2 at an attribute disadvantage, MZ-Q4), shown
    before paying; all of it is public (both battle zones are face up)."""
    if v["phase"] not in ("summon", "battle"):
        return ""
    p = v["turn"]
    mine = [m["card"] for m in v["players"][p]["battle"] if not m["attacked"]]
    theirs = [m["card"] for m in v["players"][1 - p]["battle"]]
    rows = []
    for a in mine:
        for t in theirs:
            r = state.battle_report(f"attack {a} {t}")  # type: ignore[attr-defined]
            out = "".join(f", {x['card']} knocked out ({x['rule']})" for x in r["knocked_out"])
            rows.append(f"{a} → {t}: {r['attack_cost']} mana, {RESULT_JA[r['result']]} ({r['rule']}){out}")
    if mine and not theirs and not v["direct_used"]:
        rows.append("the opponent's battle zone is empty: a direct attack ちょくせつこうげき costs 1 mana (MZ-22, MZ-Q2)")
    if not rows:
        return ""
    return (f'<div style="color:#333;font-size:12px">attack costs こうげき (player {p}, '
            f"{v['players'][p]['untapped']} untapped mana): " + escape("; ".join(rows)) + "</div>")


def _pending_html(state: State, v: dict[str, Any]) -> str:
    """The substitute prompt (みがわり, MZ-19): the defender decides in the middle of the turn."""
    pend = v["pending"]
    if not pend:
        return ""
    a, d = v["turn"], 1 - v["turn"]
    rows = [(f"<li>decline みがわりしない: {escape(pend['target'])} takes the attack — "
             f"{escape(state.explain('decline'))}</li>")]
    for m in v["players"][d]["battle"]:
        if m["card"] != pend["target"]:
            rows.append(f"<li>substitute みがわり {escape(m['card'])} (tap 1 mana; knocked out it scores "
                        f"nothing, MZ-20) — {escape(state.explain('substitute ' + m['card']))}</li>")
    return ('<div style="margin:4px 0;padding:6px;background:#fff4d6;border:1px solid #e0a000;border-radius:6px">'
            f"<b>Substitute? みがわり (MZ-19)</b> — player {a}'s {escape(pend['attacker'])} attacks player "
            f"{d}'s {escape(pend['target'])}. Player {d} decides: tap 1 of {v['players'][d]['untapped']} "
            f"untapped mana so that another monster takes the attack, or decline."
            f"<ul style=\"margin:2px 0\">{''.join(rows)}</ul></div>")


@render.register_html(NAME)
def html(state: State, *, perspective: int | None = None) -> str:
    """The table: both sides (the viewer's at the bottom) with battle zones,
    mana rows, trash, hands (with summon prices), captured piles, the
    substitute prompt and the options in play."""
    v = view(state, perspective)
    mats_ja = material_japanese(state.game)
    bottom = 0 if perspective is None else perspective
    top = 1 - bottom
    opts = state.game.options
    on = [f"{k}={opts[k]!r}" for k, default in (("material_count", "distinct"), ("both_three", "attacker"),
                                                ("payoff", "win")) if opts[k] != default]
    if opts["open_hands"]:
        on.append("open hands (MZ-Q8)")
    if opts["cards"] is not None:
        on.append("own card file (MZ-Q1)")
    flags = []
    if v["substitute_used"]:
        flags.append("substitute みがわり used this turn (MZ-19)")
    if v["direct_used"]:
        flags.append("direct attack ちょくせつこうげき used this turn (MZ-22)")
    if v["quiet_turns"] and v["phase"] != "end":
        flags.append(f"{v['quiet_turns']} quiet turn before (two end the game, MZ-Q6)")
    note = PHASE_NOTE[v["phase"]]
    if v["returns"] is not None:
        note += " · " + _result_line(v)
    return (
        '<div class="cardlab-board cardlab-mazemon" style="font-family:sans-serif;font-size:13px;max-width:760px">'
        f"<div><b>{escape(_head(v, perspective))}</b></div>"
        + _seat_html(state, v, top, mats_ja, "" if perspective is None else "(opponent)")
        + _pending_html(state, v) + _attacks_html(state, v)
        + _seat_html(state, v, bottom, mats_ja, "" if perspective is None else "(you)")
        + f'<div style="color:#444">{escape(note)}</div>'
        + (f'<div style="color:#444">{escape(" · ".join(flags))}</div>' if flags else "")
        + (f'<div style="color:#444">options: {escape(", ".join(on))}</div>' if on else "")
        + "</div>"
    )


# -- action labels -------------------------------------------------------------------------
VERB = {"charge": "charge チャージ", "summon": "summon しゅつげん", "direct": "direct attack ちょくせつこうげき",
        "substitute": "substitute みがわり", "steal": "take うばう", "trash": "trash トラッシュ"}


@render.register_action_label(NAME)
def action_label(action: str, state: MazemonState | None = None) -> str:
    """A button label with the Japanese terms; with the position, each card
    by the name printed on it (English and Japanese), as a player finds it
    on the table, else by its id.

    >>> action_label("attack oak_giant tide_whale")
    'attack こうげき: oak_giant → tide_whale'
    >>> action_label("decline")
    'no substitute みがわりしない'
    >>> import cardlab
    >>> s = cardlab.load("mazemon").new_initial_state().apply("janken 0")
    >>> action_label("trash kagari_owl+ember_boar", s)
    'trash トラッシュ: Bonfire Owl カガリフクロウ + Ember Boar ホムラブタ'
    """
    if action == "end":
        return "end turn おわり"
    if action == "decline":
        return "no substitute みがわりしない"
    verb, _, arg = action.partition(" ")
    cards = state.game.card_set.cards if state is not None else {}

    def name(cid: str) -> str:
        card = cards.get(cid)
        return cid if card is None else f"{card.name} {card.japanese}"

    if verb == "attack":
        a, _, t = arg.partition(" ")
        return f"attack こうげき: {name(a)} → {name(t)}"
    if verb == "janken":
        return f"janken じゃんけん: player {arg} first"
    if verb == "trash":
        return "trash トラッシュ: " + " + ".join(name(c) for c in arg.split("+"))
    return f"{VERB[verb]}: {name(arg)}" if verb in VERB else action
