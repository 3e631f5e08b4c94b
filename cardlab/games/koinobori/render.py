"""Koi-koi Nobori (こいこいのぼり) as text and as an HTML/SVG table.

Pure functions of a state and a perspective: ``perspective=p`` draws only
``state.observation(p)`` (the other hand as card backs unless the game has
open hands); ``perspective=None`` shows everything (``state.to_dict()``).

>>> import cardlab
>>> s = cardlab.load("koinobori").new_initial_state(seed=3)
>>> print(text(s, perspective=1))
Koi-koi Nobori (こいこいのぼり) · player 0 to move (turn) · as seen by player 1
  field (場): higoi, aokoi, magoi
  deck (山札): 14 cards
  player 0: hand 3 hidden cards | nobori — | score 0
  player 1: hand higoi, magoi, fukinagashi | nobori — | score 0
>>> "<svg" in html(s, perspective=0)
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from ... import display
from ...core import State
from .rules import CARDS, COLOURS, KINDS
from .text import ENGLISH, JAPANESE, TITLE, card_name, list_text, role_name, stage_word
from ...i18n import N_, _, get_language, ngettext, pgettext

__all__ = ["text", "html", "action_label", "view", "card_svg"]

NAME = "koinobori"

#: card face colour, text colour
FACE = {
    "higoi": ("#d1382b", "#ffffff"),
    "aokoi": ("#2160b8", "#ffffff"),
    "magoi": ("#262626", "#ffffff"),
    "fukinagashi": ("#f7f3e8", "#222222"),
    "kabutogaeshi": ("#d9b03c", "#222222"),
}
STREAMER = ("#2160b8", "#d1382b", "#f7f3e8", "#e8c23a", "#2e8b57")  # the five fukinagashi colours
BACK = ("#8a5a34", "#f3e6cf")
W, H = 46, 64  # card size in px

STAGE_NOTE = {
    "first": N_("who goes first (先攻) is decided by chance (KN-6, KN-Q11)"),
    "deal": N_("dealing: three cards each, first player first (KN-7)"),
    "turn": N_("make a nobori (KN-8), play and draw (KN-10), or use kabutogaeshi (KN-11)"),
    "draw_hand": N_("draw 1 card into the hand (KN-8)"),
    "refill": N_("refill the field: reveal until a carp (KN-8)"),
    "draw_play": N_("draw 1: a card that pairs is captured at once (KN-10)"),
    "fuki": N_("the drawn fukinagashi (ふきながし) pairs with any carp: choose which (KN-10, KN-9)"),
    "koikoi": N_("third nobori: call agari (上がり, stop now) or koi-koi (こいこい, play on for +5) (KN-15)"),
    "end": N_("game over (KN-12, KN-13)"),
}
KIND_JA = {**JAPANESE, **{f"fuki+{c}": f"ふきながし+{JAPANESE[c]}" for c in COLOURS}}


def term(name: str) -> str:
    """``higoi ひごい``: the card or nobori name with its Japanese beside it
    (in Japanese only the Japanese: ``ひごい``)."""
    if name not in KIND_JA:
        return name
    return KIND_JA[name] if get_language() == "ja" else f"{name} {KIND_JA[name]}"


# -- the view: what the perspective may see -------------------------------------
def view(state: State, perspective: int | None = None) -> dict[str, Any]:
    """The facts to draw, from ``observation(perspective)`` (or, with
    ``perspective=None``, from ``to_dict()``): ``hands`` holds a count dict
    for a hand that is shown and an int (its size) for a hidden one."""
    display.check_perspective(state, perspective)
    if perspective == display.SPECTATOR:  # the class: what both seats' views have in common
        return display.public_view(view, state)
    obs = state.observation(0 if perspective is None else perspective)
    if perspective is None:
        d = state.to_dict()
        hands = d["hands"]
    else:
        hands = [None, None]
        hands[perspective] = obs["hand"]
        hands[1 - perspective] = obs["opponent_hand"]
    roles = [state.roles_met(p) for p in (0, 1)] if state.game.options["roles"] else [[], []]  # type: ignore[attr-defined]
    return {
        "stage": obs["stage"], "to_move": obs["to_move"], "field": obs["field"], "deck": obs["deck"],
        "hands": hands, "nobori": obs["nobori"], "kabutogaeshi_used": obs["kabutogaeshi_used"],
        "koikoi": obs["koikoi"], "scores": obs["scores"], "roles": roles,
        "returns": state.returns() if state.is_terminal() else None,
    }


def _head(v: dict[str, Any], perspective: int | None) -> str:
    stage = v["stage"]
    head = {"end": _("game over"), "deal": _("dealing"), "first": _("choosing the first player")}.get(
        stage) or _("player {player} to move ({stage})").format(player=v["to_move"], stage=stage_word(stage))
    seen = (_("everything shown") if perspective is None else _("as seen by the class")
            if perspective == display.SPECTATOR else _("as seen by player {player}").format(player=perspective))
    return f"{_(TITLE)} · {head} · {seen}"


def _cards(counts: dict[str, int]) -> str:
    s = list_text(f"{card_name(n)}×{c}" if c > 1 else card_name(n) for n, c in counts.items() if c)
    return s or "—"


def _roles(state: State, names: list[str]) -> list[str]:
    """The names of the roles met, as a person reads them (the card file's Japanese in Japanese)."""
    by_name = {r["name"]: r for r in state.game.deck_data["roles"]}  # type: ignore[attr-defined]
    return [role_name(by_name[n]) if n in by_name else n for n in names]


# -- text --------------------------------------------------------------------------
def text(state: State, *, perspective: int | None = None) -> str:
    """The text board; a hidden hand shows as its number of cards
    (``perspective=None``: ``str(state)``, everything)."""
    if perspective is None:
        return str(state)
    v = view(state, perspective)
    lines = [_head(v, perspective), "  " + _("field (場): {cards}").format(cards=_cards(v["field"])),
             "  " + _("deck (山札): {count} cards").format(count=v["deck"])]
    sep = pgettext("list separator", ", ")
    for p in (0, 1):
        hand = v["hands"][p]
        shown = _cards(hand) if isinstance(hand, dict) else ngettext(
            "{count} hidden card", "{count} hidden cards", hand).format(count=hand)
        extra = ""
        if v["kabutogaeshi_used"][p]:
            extra += sep + _("kabutogaeshi used {count}").format(count=v["kabutogaeshi_used"][p])
        if v["koikoi"][p]:
            extra += sep + _("koi-koi at {count}").format(count=v["koikoi"][p])
        extra += "".join(sep + _("role {role}").format(role=r) for r in _roles(state, v["roles"][p]))
        lines.append("  " + _("player {player}: hand {hand} | nobori {nobori} | score {score}{extra}").format(
            player=p, hand=shown, nobori=_cards(v["nobori"][p]), score=v["scores"][p], extra=extra))
    if v["returns"] is not None:
        r = v["returns"][0]
        lines.append("  " + (_("result: draw") if r == 0 else
                             _("result: player {player} wins").format(player=0 if r > 0 else 1)))
    return "\n".join(lines)


# -- HTML / SVG ------------------------------------------------------------------
def _card_body(kind: str | None, points: int | None, badge: str) -> str:
    """The SVG elements of one card at (0, 0); ``kind=None`` is face down."""
    if kind is None:
        parts = ["<title>" + escape(_("face down (伏せ札)")) + "</title>"
                 f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="5" fill="{BACK[0]}" '
                 f'stroke="#333"/><rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="3" '
                 f'fill="none" stroke="{BACK[1]}" stroke-dasharray="3 2"/>']
    else:
        fill, ink = FACE[kind]
        tip = _("{card} ({meaning})").format(card=term(kind), meaning=_(ENGLISH[kind]))
        parts = [f"<title>{escape(tip)}</title>"
                 f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="5" fill="{fill}" stroke="#333"/>']
        if kind == "fukinagashi":
            for i, c in enumerate(STREAMER):
                parts.append(f'<rect x="6" y="{20 + 5 * i}" width="{W - 12}" height="5" fill="{c}"/>')
        elif kind == "kabutogaeshi":
            parts.append('<path d="M10 38 Q23 14 36 38 Z" fill="#6b4f12"/>')
        else:  # a carp
            parts.append(f'<ellipse cx="{W / 2}" cy="33" rx="14" ry="6" fill="none" stroke="{ink}"/>'
                         f'<path d="M{W / 2 + 14} 33 l6 -5 v10 Z" fill="{ink}"/>')
        # a long name (かぶとがえし, ふきながし) is fitted to the card, never spilling off it
        fit = f' textLength="{W - 6}" lengthAdjust="spacingAndGlyphs"' if len(JAPANESE[kind]) > 4 else ""
        parts.append(f'<text x="{W / 2}" y="13" font-size="9" text-anchor="middle" fill="{ink}"{fit}>'
                     f"{JAPANESE[kind]}</text>")
        if get_language() != "ja":  # the notation's name under the Japanese one (in Japanese: the Japanese alone)
            short = kind if kind != "kabutogaeshi" else "kabuto"
            fit_en = f' textLength="{W - 6}" lengthAdjust="spacingAndGlyphs"' if len(short) > 7 else ""
            parts.append(f'<text x="{W / 2}" y="{H - 7}" font-size="8" text-anchor="middle" fill="{ink}"{fit_en}>'
                         f"{short}</text>")
        if points is not None:
            parts.append(f'<text x="{W / 2}" y="{H - 17}" font-size="8" text-anchor="middle" '
                         f'fill="{ink}">{points}点</text>')
    if badge:
        parts.append(f'<circle cx="{W - 9}" cy="9" r="8" fill="#fff" stroke="#333"/>'
                     f'<text x="{W - 9}" y="12" font-size="9" text-anchor="middle">{escape(badge)}</text>')
    return "".join(parts)


def _svg(width: int, height: int, body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" style="margin:1px;flex:none">{body}</svg>')


def card_svg(kind: str | None, *, points: int | None = None, badge: str = "") -> str:
    """One card as a small inline SVG; ``kind=None`` is a face-down card."""
    return _svg(W, H, _card_body(kind, points, badge))


def _row(cards: list[str]) -> str:
    return ('<span style="display:inline-flex;flex-wrap:wrap;align-items:center">'
            + ("".join(cards) or '<span style="color:#888;padding:0 4px">—</span>') + "</span>")


def _hand_html(hand: dict[str, int] | int, points: dict[str, int]) -> str:
    if isinstance(hand, int):
        hidden = _("{count} hidden (見えない)").format(count=hand)
        return _row([card_svg(None) for _i in range(hand)]) + f" <small>{escape(hidden)}</small>"
    return _row([card_svg(k, points=points.get(k)) for k in CARDS for _i in range(hand.get(k, 0))])


def _nobori_svg(kind: str, points: dict[str, int]) -> str:
    """A captured pair as one picture, the fukinagashi on top of its carp (KN-9);
    ``points`` maps each nobori kind to what it scores (KN-Q9)."""
    colour = kind.split("+")[-1]
    upper = "fukinagashi" if kind.startswith("fuki+") else colour
    tip = _("nobori {kind}: {points} points").format(kind=term(kind), points=points[kind])
    body = (f"<title>{escape(tip)}</title>"
            f"<g>{_card_body(colour, points[kind], '')}</g>"
            f'<g transform="translate(14,8)">{_card_body(upper, points[kind], "")}</g>')
    return _svg(W + 16, H + 10, body)


def _seat_html(v: dict[str, Any], p: int, points: dict[str, int], worth: dict[str, int], label: str) -> str:
    nob = [_nobori_svg(k, worth) for k in KINDS for _i in range(v["nobori"][p].get(k, 0))]
    notes = [_("score (得点) {score}").format(score=f"<b>{v['scores'][p]}</b>")]
    if v["kabutogaeshi_used"][p]:
        notes.append(escape(_("kabutogaeshi used (かぶとがえし) {count}").format(count=v["kabutogaeshi_used"][p])))
    if v["koikoi"][p]:
        notes.append(escape(_("koi-koi called (こいこい) at {count} nobori").format(count=v["koikoi"][p])))
    for r in v["roles"][p]:
        notes.append(_("role (役) {role}").format(role=escape(r)))
    turn = " " + escape(_("◀ to move")) if v["stage"] not in ("end", "deal") and v["to_move"] == p else ""
    player = escape(_("Player {player}").format(player=p))
    return (f'<div style="margin:4px 0;padding:4px;border:1px solid #ccc;border-radius:6px">'
            f"<div><b>{player}</b> {label}{turn} · {' · '.join(notes)}</div>"
            + "<div>" + escape(_("hand (手札):")) + f" {_hand_html(v['hands'][p], points)}</div>"
            + "<div>" + escape(_("nobori (のぼり):")) + f" {_row(nob)}</div></div>")


def html(state: State, *, perspective: int | None = None) -> str:
    """The table: both seats (the viewer's at the bottom), the field (場) and
    the deck (山札), scores, kabutogaeshi, koi-koi and the options in play."""
    v = view(state, perspective)
    deck_data = state.game.deck_data  # type: ignore[attr-defined]
    points = dict(deck_data["points"])
    worth = {**points, **{f"fuki+{c}": n for c, n in deck_data["fukinagashi_points"].items()}}  # KN-Q9
    v["roles"] = [_roles(state, names) for names in v["roles"]]
    field = _row([card_svg(c, points=points[c]) for c in COLOURS for _i in range(v["field"][c])])
    deck = (card_svg(None, badge=str(v["deck"])) if v["deck"] else
            '<span style="color:#888">' + escape(pgettext("koinobori deck", "empty")) + "</span>")
    seat = display.is_seat(perspective)
    bottom = perspective if seat else 0
    top = 1 - bottom
    you = escape(_("(you)")) if seat else ""
    opts = state.game.options
    first = opts["first_player"]
    on = [name for name, flag in ((_("koi-koi こいこい (KN-15)"), opts["koikoi"]),
                                  (_("role bonuses 役 (KN-14)"), opts["roles"]),
                                  (_("no hand draw after a draw capture (KN-Q3)"),
                                   not opts["refill_after_draw_capture"]),
                                  (_("first player by chance, 1/2 each (KN-Q11)"), first == "random"),
                                  (_("player {player} goes first (KN-Q11)").format(player=first),
                                   first not in (0, "random")),
                                  (_("open hands (KN-Q8)"), opts["open_hands"])) if flag]
    note = _(STAGE_NOTE[v["stage"]]) if v["stage"] in STAGE_NOTE else v["stage"]
    if v["returns"] is not None:
        r = v["returns"][0]
        note += " · " + (pgettext("game result", "draw") if r == 0 else
                         _("player {player} wins").format(player=0 if r > 0 else 1)) + \
            f" ({v['scores'][0]} : {v['scores'][1]})"
    rules_on = _("optional rules on: {rules}").format(rules=list_text(on))
    return (
        '<div class="cardlab-board cardlab-koinobori" style="font-family:sans-serif;font-size:13px;'
        'max-width:720px">'
        f"<div><b>{escape(_head(v, perspective))}</b></div>"
        + _seat_html(v, top, points, worth, escape(_("(opponent)")) if seat else "")
        + '<div style="margin:4px 0;padding:6px;background:#e9f3e6;border-radius:6px">'
        + _("field (場): {cards}").format(cards=field) + " &nbsp; " + _("deck (山札): {deck}").format(deck=deck)
        + "</div>"
        + _seat_html(v, bottom, points, worth, you)
        + f'<div style="color:#444">{escape(note)}</div>'
        + (f'<div style="color:#444">{escape(rules_on)}</div>' if on else "")
        + "</div>"
    )


# -- action labels -------------------------------------------------------------------
VERB = {"nobori": N_("nobori のぼり"), "play": N_("play 出す"), "capture": N_("capture 取る"),
        "kabuto": N_("kabutogaeshi かぶとがえし"), "deal": N_("deal 配る"), "draw": N_("draw 引く"),
        "refill": N_("refill 補充"), "first": N_("first player 先攻")}
WORD = {"agari": N_("agari 上がり (stop)"), "koikoi": N_("koi-koi こいこい (play on)"), "pass": N_("pass パス")}


def action_label(action: str) -> str:
    """A button label with the Japanese terms.

    >>> action_label("nobori fuki+magoi")
    'nobori のぼり: fuki+magoi ふきながし+まごい'
    >>> action_label("koikoi")
    'koi-koi こいこい (play on)'
    """
    if action in WORD:
        return _(WORD[action])
    verb, _sep, arg = action.partition(" ")
    if verb == "first" and arg in ("0", "1"):
        return _("first player 先攻: {player}").format(player=arg)
    return f"{_(VERB[verb]) if verb in VERB else verb}: {term(arg)}" if arg else action
