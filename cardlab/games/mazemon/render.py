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

from ... import display
from ...core import State
from .cards import ATTR_JA, Card, load_cards, shared_materials, summon_cost
from .state import MazemonState
from .text import _sep, attribute_word, technique_word
from ...i18n import N_, _, get_language, ngettext, pgettext

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
#: the phase in the head line: English with the Japanese beside it
PHASE_TERM = {"janken": N_("janken じゃんけん"), "trash": N_("trash トラッシュ"), "charge": N_("charge チャージ"),
              "summon": N_("summon しゅつげん"), "battle": N_("battle バトル"), "substitute": N_("substitute みがわり"),
              "steal": N_("steal ちょくせつこうげき"), "end": N_("end おわり")}
PHASE_NOTE = {
    "janken": N_("janken じゃんけん decides who goes first (MZ-2)"),
    "trash": N_("the first player sets aside 2 cards unseen: トラッシュ (MZ-3, MZ-Q8)"),
    "charge": N_("charge チャージ: exactly one hand card goes face down into mana (MZ-6)"),
    "summon": N_("summon しゅつげん (pay the cost after materials そざい, MZ-7, MZ-18), attack こうげき (MZ-8) or end おわり (MZ-9)"),
    "battle": N_("battle バトル: attack with a monster that has not attacked (MZ-8), or end おわり (MZ-9)"),
    "substitute": N_("substitute みがわり: the defender may tap 1 mana so that another monster takes the attack (MZ-19)"),
    "steal": N_("direct attack ちょくせつこうげき: one card of the hand is taken at random (MZ-22, MZ-Q2)"),
    "end": N_("game over おわり (MZ-23, MZ-24, MZ-Q6)"),
}
RESULT_JA = {"ko": N_("KO 一撃"), "wound": N_("wound キズ"), "mutual": N_("mutual あいうち")}
ATTR_TERM = {"fire": N_("fire ほのお"), "grass": N_("grass くさ"), "water": N_("water みず")}
#: the options that differ from their defaults, as the table's last line shows them
OPTION_TEXT = {("material_count", "per_monster"): N_("material_count='per_monster'"),
               ("both_three", "draw"): N_("both_three='draw'"),
               ("payoff", "score"): N_("payoff='score'")}


def attr_term(attr: str) -> str:
    """``fire ほのお``: the attribute with its Japanese beside it (in Japanese: ``ほのお``)."""
    return _(ATTR_TERM[attr])


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
    display.check_perspective(state, perspective)
    if perspective == display.SPECTATOR:  # the class: what both seats' views have in common
        return display.public_view(view, state)
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
        who = (_("game over · draw") if r == 0
               else _("game over · player {player} wins").format(player=0 if r > 0 else 1))
    elif ph == "janken":
        who = _("janken じゃんけん")
    elif v["current"] >= 0 and v["current"] != v["turn"]:
        who = _("player {player}'s turn · {phase} · player {decider} decides").format(
            player=v["turn"], phase=_(PHASE_TERM[ph]), decider=v["current"])
    else:
        who = _("player {player}'s turn · {phase}").format(player=v["turn"], phase=_(PHASE_TERM[ph]))
    seen = (pgettext("mazemon", "everything shown") if perspective is None
            else pgettext("mazemon", "as seen by the class") if perspective == display.SPECTATOR
            else pgettext("mazemon", "as seen by player {player}").format(player=perspective))
    return _("Mazemon (マゼモン) · {who} · {seen}").format(who=who, seen=seen)


def _result_line(v: dict[str, Any]) -> str:
    c = [pl["captured"] for pl in v["players"]]
    r = v["returns"][0]
    winner = pgettext("mazemon", "draw 引き分け") if r == 0 else _("player {player} wins 勝ち").format(player=0 if r > 0 else 1)
    return _("captured とったカード {first} : {second} → {winner}").format(first=c[0], second=c[1], winner=winner)


# -- text ----------------------------------------------------------------------------
def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; a hidden hand shows as its number of cards and each
    shown hand card carries the mana its summon costs now, e.g. ``petal_fox(1)``
    (``perspective=None``: ``str(state)``, everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective)]
    if v["first"] is not None:
        lines.append("  " + _("first player せんて: {player} (janken じゃんけん, MZ-2)").format(player=v["first"]))
    if v["pending"]:
        lines.append("  " + _("pending attack こうげき: {attacker} → {target} · substitute みがわり? (MZ-19)").format(
            attacker=v["pending"]["attacker"], target=v["pending"]["target"]))
    for p in (0, 1):
        pl = v["players"][p]
        hand = pl["hand"]
        if isinstance(hand, int):
            shown = ngettext("{n} hidden card", "{n} hidden cards", hand).format(n=hand)
        else:
            shown = ", ".join(f"{c}({pay_now(state, p, c)[1]})" for c in hand) or "—"
        trash = " · " + _("trash トラッシュ 2") if v["first"] == p and v["phase"] != "trash" else ""
        lines.append("  " + _("player {player}: captured とったカード {captured} · mana マナ {mana} "
                              "({untapped} untapped){trash} · hand てふだ {hand}").format(
            player=p, captured=pl["captured"], mana=pl["mana"], untapped=pl["untapped"], trash=trash, hand=shown))
        zone = [m["card"] + (" キズ" if m["wounded"] else "") + (" こうげきずみ" if m["attacked"] else "")
                for m in pl["battle"]]
        lines.append("    " + _("battle zone バトルゾーン: {zone}").format(zone=' · '.join(zone) or '—'))
        if pl["out"]:
            lines.append("    " + _("out of play: {cards}").format(cards=', '.join(pl['out'])))
    if v["returns"] is not None:
        lines.append("  " + _("result: {result}").format(result=_result_line(v)))
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
    english = get_language() != "ja"  # in Japanese the card shows its Japanese names only
    parts = [f'<rect x="1" y="1" width="{CW - 2}" height="{CH - 2}" rx="6" fill="{fill}" stroke="{ink}" stroke-width="2"/>',
             f'<text x="6" y="14" font-size="9" font-weight="bold" fill="{ink}">{escape(ATTR_JA[card.attribute])}</text>',
             (f'<circle cx="{CW - 12}" cy="11" r="8" fill="#fff" stroke="{ink}"/>'
              f'<text x="{CW - 12}" y="14" font-size="9" text-anchor="middle">{card.cost}</text>'),
             f'<text x="{CW / 2}" y="30" font-size="10" text-anchor="middle" font-weight="bold">{escape(card.japanese)}</text>',
             (f'<text x="{CW / 2}" y="41" font-size="8" text-anchor="middle">{escape(card.name)}</text>'
              if english else ""),
             f'<text x="{CW / 2}" y="56" font-size="9" text-anchor="middle">HP {card.hp}</text>',
             f'<text x="{CW / 2}" y="72" font-size="8" text-anchor="middle">{escape(card.technique_japanese)}</text>',
             f'<text x="{CW / 2}" y="85" font-size="11" text-anchor="middle" font-weight="bold">わざ {card.power}</text>',
             f'<text x="{CW / 2}" y="100" font-size="8" text-anchor="middle" fill="#333"'
             + (f' textLength="{CW - 8}" lengthAdjust="spacingAndGlyphs"' if len(mats) > 9 else "")
             + f">そざい {escape(mats)}</text>"]
    if pay is not None:  # words printed under the card, not a box: nothing here is a button
        price = escape(_("summon for {mana} マナ").format(mana=pay[1]))
        parts.append(f'<text x="{CW / 2}" y="{CH - 10}" font-size="8.5" font-style="italic" fill="#333" '
                     f'text-anchor="middle">{price}</text>')
    return "".join(parts)


def card_svg(card: Card, mats_ja: dict[str, str] | None = None, *, wounded: bool = False,
             attacked: bool = False, pay: tuple[int, int] | None = None, target: bool = False) -> str:
    """One monster card (マゼモン) as a small inline SVG: attribute (ぞくせい),
    COST, names, HP, technique (わざ) and materials (そざい).  ``wounded``
    draws it upside down (キズ, MZ-17); ``pay`` = (shared, mana) adds the
    summon price now (MZ-18); ``target`` outlines the attacked monster."""
    mats_ja = mats_ja or {}
    body = _card_body(card, mats_ja, pay)
    wound, done = escape(_("キズ wound")), escape(_("attacked こうげきずみ"))
    if wounded:
        body = f'<g transform="rotate(180 {CW / 2} {CH / 2})">{body}</g>'
        body += (f'<rect x="{CW / 2 - 30}" y="{CH / 2 - 9}" width="60" height="16" rx="3" fill="#b00" />'
                 f'<text x="{CW / 2}" y="{CH / 2 + 3}" font-size="10" text-anchor="middle" fill="#fff">'
                 f'{wound}</text>')
    if attacked:
        body += (f'<rect x="2" y="{CH - 18}" width="{CW - 4}" height="14" rx="3" fill="#444" opacity="0.85"/>'
                 f'<text x="{CW / 2}" y="{CH - 8}" font-size="8" text-anchor="middle" fill="#fff">'
                 f'{done}</text>')
    if target:
        body += f'<rect x="0" y="0" width="{CW}" height="{CH}" rx="7" fill="none" stroke="#e0a000" stroke-width="4"/>'
    if get_language() == "ja":  # the names printed on the card, in Japanese
        title = (f"{card.id} · {card.japanese} · {attr_term(card.attribute)} · "
                 f"わざ {card.technique_japanese} {card.power} · HP {card.hp} · "
                 f"COST {card.cost} · そざい {'/'.join(mats_ja.get(m, m) for m in card.materials)}")
    else:
        title = (f"{card.id} · {card.name} ({card.japanese}) · {attr_term(card.attribute)} · "
                 f"わざ {card.technique} ({card.technique_japanese}) {card.power} · HP {card.hp} · "
                 f"COST {card.cost} · そざい {'/'.join(card.materials)}")
    if wounded:
        title += " · " + _("wounded キズ (upside down, MZ-17)")
    if pay is not None:
        title += " · " + _("summon now: COST {cost} − {shared} shared そざい → pay {mana} mana "
                           "(at least 1, MZ-18)").format(cost=card.cost, shared=pay[0], mana=pay[1])
    return _svg(CW, CH, body, title)


def _shown(state: State, player: int, card_id: str) -> str:
    """A card of ``player`` named on the table: by its id, in Japanese by its Japanese name."""
    return state.game.card(player, card_id).japanese if get_language() == "ja" else card_id  # type: ignore[attr-defined]


def _row(items: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center">'
            + ("".join(items) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _zone_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str]) -> str:
    g = state.game
    pend = v["pending"]
    target = pend["target"] if pend and p != v["turn"] else None
    cards = [card_svg(g.card(p, m["card"]), mats_ja, wounded=m["wounded"],  # type: ignore[attr-defined]
                      attacked=m["attacked"], target=m["card"] == target) for m in v["players"][p]["battle"]]
    free = escape(_("empty あき"))
    empty = _svg(CW, CH, f'<rect x="2" y="2" width="{CW - 4}" height="{CH - 4}" rx="6" fill="none" '
                 f'stroke="#aaa" stroke-dasharray="5 4"/><text x="{CW / 2}" y="{CH / 2}" font-size="9" '
                 f'text-anchor="middle" fill="#999">{free}</text>',
                 _("empty place of the battle zone (MZ-4)"))
    cards += [empty] * (3 - len(cards))
    return _row(cards)


def _hand_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str]) -> str:
    hand = v["players"][p]["hand"]
    if isinstance(hand, int):
        back = _("face down うらむき (hidden hand card), player {player}").format(player=p)
        backs = [back_svg(back) for _i in range(hand)]
        return _row(backs) + " <small>" + escape(pgettext("mazemon", "{n} hidden (見えない)").format(n=hand)) + "</small>"
    g = state.game
    return _row([card_svg(g.card(p, c), mats_ja, pay=pay_now(state, p, c)) for c in hand])  # type: ignore[attr-defined]


def _mana_html(v: dict[str, Any], p: int) -> str:
    pl = v["players"][p]
    tapped = pl["mana"] - pl["untapped"]
    upright = _("mana マナ, untapped (upright), player {player}").format(player=p)
    sideways = _("mana マナ, tapped よこむき (used this turn), player {player}").format(player=p)
    cards = ([back_svg(upright) for _i in range(pl["untapped"])]
             + [back_svg(sideways, tapped=True) for _i in range(tapped)])
    count = _("{mana} mana, {untapped} untapped, {tapped} tapped").format(
        mana=pl["mana"], untapped=pl["untapped"], tapped=tapped)
    return _row(cards) + f" <small>{escape(count)}</small>"


def _seat_html(state: State, v: dict[str, Any], p: int, mats_ja: dict[str, str], label: str) -> str:
    pl = v["players"][p]
    notes = [_("captured とったカード <b>{captured}</b> / 3").format(captured=pl['captured'])]
    if v["first"] == p:
        notes.append(escape(_("first player せんて")))
    turn = ""
    if v["phase"] not in ("end", "janken", "trash"):
        if v["current"] == p:
            turn = " ◀ " + escape(_("to move"))
        elif v["turn"] == p:
            turn = " (" + escape(_("its turn")) + ")"
    trash = ""
    if v["first"] == p and v["phase"] != "trash":
        unseen = _("trash トラッシュ, unseen by both (MZ-3, MZ-Q8), player {player}").format(player=p)
        trash = (" &nbsp; " + escape(_("trash トラッシュ")) + ": " + _row([back_svg(unseen)] * 2))
    captured = _row([_svg(MW, MH, f'<rect x="1" y="1" width="{MW - 2}" height="{MH - 2}" rx="4" fill="#fff" '
                          f'stroke="{OWNER[1 - p]}"/><text x="{MW / 2}" y="{MH / 2 + 4}" font-size="10" '
                          f'text-anchor="middle">{i + 1}</text>',
                          _("captured card {number} of player {player}").format(number=i + 1, player=p))
                     for i in range(pl["captured"])])
    out = (" &nbsp; <small>" + escape(_("out of play (knocked out, taken or trashed substitutes): {cards}").format(
        cards=', '.join(_shown(state, p, c) for c in pl['out']))) + "</small>" if pl["out"] else "")
    who = escape(_("Player {player}").format(player=p))
    zone_l, mana_l = escape(_("battle zone バトルゾーン (max 3):")), escape(_("mana マナゾーン:"))
    hand_l, captured_l = escape(_("hand てふだ:")), escape(_("captured とったカード:"))
    return (f'<div style="margin:4px 0;padding:4px;border:2px solid {OWNER[p]};border-radius:6px">'
            f"<div><b>{who}</b> {label}{turn} · {' · '.join(notes)}</div>"
            f"<div>{zone_l} {_zone_html(state, v, p, mats_ja)}</div>"
            f"<div>{mana_l} {_mana_html(v, p)}{trash}</div>"
            f"<div>{hand_l} {_hand_html(state, v, p, mats_ja)}</div>"
            f"<div>{captured_l} {captured}{out}</div></div>")


def _japanese_names(d: dict[str, Any], game: Any = None) -> tuple[str, str]:
    """The Japanese names of the two cards of a ``battle_report`` dict: from
    ``game``'s decks, else from cardlab's own card set when the card there has
    the name the report gives, else the report's names."""
    names = []
    for key, side in (("attacker", 0), ("defender", 1)):
        cid, name = d.get(key + "_card"), d[key]
        if game is not None and "attacker_player" in d:
            p = d["attacker_player"] if side == 0 else 1 - d["attacker_player"]
            names.append(game.card(p, cid).japanese)
            continue
        own = _own_cards().get(cid) if isinstance(cid, str) else None
        names.append(own.japanese if own is not None and own.name == name else name)
    return names[0], names[1]


def _own_cards() -> dict[str, Card]:
    """cardlab's own card set (MZ-Q1), read once."""
    global _OWN
    if _OWN is None:
        _OWN = dict(load_cards().cards)
    return _OWN


_OWN: dict[str, Card] | None = None


def battle_html(b: Any, game: Any = None) -> str:
    """A :class:`~cardlab.games.mazemon.Battle` (or a ``battle_report`` dict)
    as a small table: technique, attribute, HP, result and the rule.  In
    Japanese the cards are named by their Japanese names (for a dict: when the
    ``game`` is given, else by their names in the report)."""
    d = b if isinstance(b, dict) else b.as_dict()
    attacker, defender = d["attacker"], d["defender"]
    if not isinstance(b, dict):
        attacker, defender = b.names()
    elif get_language() == "ja":
        attacker, defender = _japanese_names(d, game)
    hp = (_("HP {attacker_hp} vs {defender_hp} (same attribute, MZ-16)").format(
              attacker_hp=d['hp'][0], defender_hp=d['hp'][1]) if d["hp"]
          else _("HP not compared (MZ-16)"))
    sub = (pgettext("mazemon substitute", "allowed") if d["substitute_allowed"]
           else _("not allowed: wins on attribute (MZ-21)"))
    label = {"attacker": pgettext("mazemon battle", "attacker"), "defender": pgettext("mazemon battle", "defender"),
             "technique": _("technique わざ"), "attribute": _("attribute ぞくせい"),
             "result": pgettext("mazemon battle", "result"), "cost": _("attack cost"),
             "substitute": _("substitute みがわり")}
    lab = {k: escape(v) for k, v in label.items()}
    result = _(RESULT_JA[d["result"]])
    cost = _("{cost} mana (MZ-8, MZ-Q4)").format(cost=d["attack_cost"])
    return ('<table style="border-collapse:collapse;font-size:12px">'
            f"<tr><td>{lab['attacker']}</td><td><b>{escape(attacker)}</b> "
            f"{attr_term(d['attacker_attribute'])} わざ {d['attacker_power']}</td></tr>"
            f"<tr><td>{lab['defender']}</td><td><b>{escape(defender)}</b> "
            f"{attr_term(d['defender_attribute'])} わざ {d['defender_power']}</td></tr>"
            f"<tr><td>{lab['technique']}</td><td>{technique_word(d['technique'])} (MZ-10)</td></tr>"
            f"<tr><td>{lab['attribute']}</td><td>{attribute_word(d['attribute'])} (MZ-11)</td></tr>"
            f"<tr><td>HP</td><td>{hp}</td></tr>"
            f"<tr><td>{lab['result']}</td><td><b>{result}</b> "
            f"({d['rule']})</td></tr>"
            f"<tr><td>{lab['cost']}</td><td>{cost}</td></tr>"
            f"<tr><td>{lab['substitute']}</td><td>{sub}</td></tr></table>")


def move_html(state: State, action: str) -> str:
    """A battle as the table of :func:`battle_html`, drawn for the move that
    settles it: an attack with no みがわり decision after it, or the
    defender's ``substitute Z`` / ``decline`` (MZ-19); ``""`` otherwise."""
    verb = action.split(" ", 1)[0]
    if verb not in ("attack", "substitute", "decline"):
        return ""
    if verb == "attack" and state.apply(action).phase == "substitute":  # type: ignore[attr-defined]
        return ""  # the defender decides first; the battle is drawn with that decision
    return battle_html(state.battle_report(action), state.game)  # type: ignore[attr-defined]


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
            out = "".join(_(", {card} knocked out ({rule})").format(
                card=_shown(state, x["owner"], x['card']), rule=x['rule']) for x in r["knocked_out"])
            rows.append(_("{attacker} → {target}: {cost} mana, {result} ({rule}){knocked_out}").format(
                attacker=_shown(state, p, a), target=_shown(state, 1 - p, t), cost=r['attack_cost'], result=_(RESULT_JA[r['result']]), rule=r['rule'],
                knocked_out=out))
    if mine and not theirs and not v["direct_used"]:
        rows.append(_("the opponent's battle zone is empty: a direct attack ちょくせつこうげき costs 1 mana "
                      "(MZ-22, MZ-Q2)"))
    if not rows:
        return ""
    return ('<div style="color:#333;font-size:12px">'
            + _("attack costs こうげき (player {player}, {untapped} untapped mana): {attacks}").format(
                player=p, untapped=v['players'][p]['untapped'], attacks=escape(_sep().join(rows))) + "</div>")


def _pending_html(state: State, v: dict[str, Any]) -> str:
    """The substitute prompt (みがわり, MZ-19): the defender decides in the middle of the turn."""
    pend = v["pending"]
    if not pend:
        return ""
    a, d = v["turn"], 1 - v["turn"]
    rows = ["<li>" + _("decline みがわりしない: {target} takes the attack — {explanation}").format(
        target=escape(_shown(state, d, pend['target'])), explanation=escape(state.explain('decline'))) + "</li>"]
    for m in v["players"][d]["battle"]:
        if m["card"] != pend["target"]:
            rows.append("<li>" + _("substitute みがわり {card} (tap 1 mana; knocked out it scores nothing, MZ-20) "
                                   "— {explanation}").format(
                card=escape(_shown(state, d, m['card'])),
                explanation=escape(state.explain('substitute ' + m['card']))) + "</li>")
    return ('<div style="margin:4px 0;padding:6px;background:#fff4d6;border:1px solid #e0a000;border-radius:6px">'
            "<b>" + escape(_("Substitute? みがわり (MZ-19)")) + "</b> — "
            + _("player {attacker_player}'s {attacker} attacks player {defender_player}'s {target}. "
                "Player {defender_player} decides: tap 1 of {untapped} untapped mana so that another monster "
                "takes the attack, or decline.").format(
                attacker_player=a, attacker=escape(_shown(state, a, pend['attacker'])), defender_player=d,
                target=escape(_shown(state, d, pend['target'])), untapped=v['players'][d]['untapped'])
            + f"<ul style=\"margin:2px 0\">{''.join(rows)}</ul></div>")


def html(state: State, *, perspective: int | None = None) -> str:
    """The table: both sides (the viewer's at the bottom) with battle zones,
    mana rows, trash, hands (with summon prices), captured piles, the
    substitute prompt and the options in play."""
    v = view(state, perspective)
    mats_ja = material_japanese(state.game)
    seat = display.is_seat(perspective)
    bottom = perspective if seat else 0
    top = 1 - bottom
    opts = state.game.options
    on = [_(OPTION_TEXT[k, opts[k]]) if (k, opts[k]) in OPTION_TEXT else f"{k}={opts[k]!r}"
          for k, default in (("material_count", "distinct"), ("both_three", "attacker"),
                             ("payoff", "win")) if opts[k] != default]
    if opts["open_hands"]:
        on.append(_("open hands (MZ-Q8)"))
    if opts["cards"] is not None:
        on.append(_("own card file (MZ-Q1)"))
    flags = []
    if v["substitute_used"]:
        flags.append(_("substitute みがわり used this turn (MZ-19)"))
    if v["direct_used"]:
        flags.append(_("direct attack ちょくせつこうげき used this turn (MZ-22)"))
    if v["quiet_turns"] and v["phase"] != "end":
        flags.append(_("{n} quiet turn before (two end the game, MZ-Q6)").format(n=v['quiet_turns']))
    note = _(PHASE_NOTE[v["phase"]])
    if v["returns"] is not None:
        note += " · " + _result_line(v)
    return (
        '<div class="cardlab-board cardlab-mazemon" style="font-family:sans-serif;font-size:13px;max-width:760px">'
        f"<div><b>{escape(_head(v, perspective))}</b></div>"
        + _seat_html(state, v, top, mats_ja, escape(pgettext("mazemon", "(opponent)")) if seat else "")
        + _pending_html(state, v) + _attacks_html(state, v)
        + _seat_html(state, v, bottom, mats_ja, escape(pgettext("mazemon", "(you)")) if seat else "")
        + f'<div style="color:#444">{escape(note)}</div>'
        + (f'<div style="color:#444">{escape(" · ".join(flags))}</div>' if flags else "")
        + ('<div style="color:#444">' + escape(pgettext("mazemon", "options: {options}").format(options=", ".join(on))) + "</div>"
           if on else "")
        + "</div>"
    )


# -- action labels -------------------------------------------------------------------------
VERB = {"charge": N_("charge チャージ"), "summon": N_("summon しゅつげん"), "direct": N_("direct attack ちょくせつこうげき"),
        "substitute": N_("substitute みがわり"), "steal": N_("take うばう"), "trash": N_("trash トラッシュ")}


def action_label(action: str, state: MazemonState | None = None) -> str:
    """A button label with the Japanese terms; with the position, each card
    by the name printed on it (English and Japanese; in Japanese the Japanese
    name alone), as a player finds it on the table, else by its id.

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
        return _("end turn おわり")
    if action == "decline":
        return _("no substitute みがわりしない")
    verb, _sp, arg = action.partition(" ")
    cards = state.game.card_set.cards if state is not None else {}
    ja = get_language() == "ja"

    def name(cid: str) -> str:
        card = cards.get(cid)
        return cid if card is None else card.japanese if ja else f"{card.name} {card.japanese}"

    if verb == "attack":
        a, _sp, t = arg.partition(" ")
        return _("attack こうげき: {attacker} → {target}").format(attacker=name(a), target=name(t))
    if verb == "janken":
        return _("janken じゃんけん: player {player} first").format(player=arg)
    if verb == "trash":
        return pgettext("mazemon", "{verb}: {card}").format(verb=_(VERB["trash"]), card=" + ".join(name(c) for c in arg.split("+")))
    return pgettext("mazemon", "{verb}: {card}").format(verb=_(VERB[verb]), card=name(arg)) if verb in VERB else action
