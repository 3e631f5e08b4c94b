"""The controls a board and the class app share: the seat and language
pickers, a game option's control and how a finished game reads
(:func:`result_words`).  Labels follow the current language
(:mod:`cardlab.i18n`)."""

from __future__ import annotations

from typing import Any, Sequence

import ipywidgets as widgets

from .. import i18n
from ..agents import LEVELS, NAMES, level_label
from ..core import Option, State
from ..i18n import _, pgettext

__all__ = ["SEAT_CHOICES", "LANGUAGE_LABEL", "result_words", "seat_label", "levels_tip", "language_picker",
           "option_widget", "option_value", "shown_value", "value_text"]

#: what a seat dropdown offers: a person, a level (weakest first) or one of the other agents of cardlab.agents
SEAT_CHOICES = ("person",) + NAMES
#: a dropdown's value None means "nothing chosen" (a blank box): this stands for the choice None
_NONE = "\u2063none"


def result_words(state: State) -> str:
    """How a finished game ended, as a student says it: "player 0 wins",
    "a draw", "players 0 and 2 share the win"; where the game pays points
    (``payoff="score"``, or returns other than win/draw/loss), the returns
    after it: "player 1 wins by 3 (returns -3, 3)"."""
    r = state.returns()
    best = max(r)
    winners = [i for i, x in enumerate(r) if x == best]
    returns = ", ".join(str(x) for x in r)
    some = ", ".join(map(str, winners[:-1]))
    if not (state.game.options.get("payoff") == "score" or any(x not in (-1, 0, 1) for x in r)):
        if len(winners) == len(r):
            return _("a draw")
        if len(winners) == 1:
            return _("player {player} wins").format(player=winners[0])
        return _("players {players} and {last} share the win").format(players=some, last=winners[-1])
    if len(winners) == len(r):
        return _("a draw (returns {returns})").format(returns=returns)
    if len(winners) == 1:
        if len(r) == 2:
            return _("player {player} wins by {points} (returns {returns})").format(
                player=winners[0], points=best, returns=returns)
        return _("player {player} wins (returns {returns})").format(player=winners[0], returns=returns)
    return _("players {players} and {last} share the win (returns {returns})").format(
        players=some, last=winners[-1], returns=returns)


def _tr(text: str) -> str:
    """A text that comes from elsewhere (a game, a renderer) in the current
    language when the catalogue has it ("" stays "": gettext would give the
    catalogue's header)."""
    return _(text) if text else text


def seat_label(name: str) -> str:
    """What a seat dropdown shows for ``name`` (``'person'`` or an agent's
    name), in the current language; an agent of one's own keeps its name;
    a level reads as :func:`cardlab.agents.level_label` says."""
    if name in LEVELS:
        return level_label(name)
    labels = {"person": pgettext("seat", "person"), "random": pgettext("seat", "random"),
              "heuristic": pgettext("seat", "heuristic"), "solver": pgettext("seat", "solver"),
              "mcts": pgettext("seat", "mcts")}
    return labels.get(name, name)


def levels_tip() -> str:
    """The tooltip of a dropdown that offers the levels: each level's label
    and its one line, in the current language."""
    return "; ".join(f"{level_label(n)}: {_(level.doc)}" for n, level in LEVELS.items())


def _seat_options(names: Sequence[str]) -> list[Any]:
    """A seat dropdown's options: the plain names when every label is the
    name, else a (label, name) pair each (a dropdown reads a list that mixes
    the two as values)."""
    if all(seat_label(n) == n for n in names):
        return list(names)
    return [(seat_label(n), n) for n in names]


#: what the language selector is labelled: readable whatever the language shown
LANGUAGE_LABEL = "Language 言語"


def language_picker(value: str) -> widgets.ToggleButtons:
    """The language selector of a board and of the play app: English / 日本語."""
    w = widgets.ToggleButtons(options=[(name, code) for code, name in i18n.LANGUAGES.items()], value=value,
                              description=LANGUAGE_LABEL, style={"button_width": "80px",
                                                                 "description_width": "initial"},
                              layout=widgets.Layout(width="auto"))
    w.add_class("cardlab-language")
    return w


def _relabel(widget: widgets.Widget, options: list[Any]) -> None:
    """Give a dropdown other labels for the same values (its value stays;
    the caller keeps its handlers quiet meanwhile)."""
    if tuple(widget.options) != tuple(options):
        value = widget.value
        widget.options = options
        widget.value = value


def _value_words() -> dict[str, str]:
    """Option values that are identifiers in the code (``face_up``), as a
    page says them, in the current language."""
    return {
        "win": pgettext("option value", "win or lose"),
        "score": pgettext("option value", "score difference"),
        "random": pgettext("option value", "random (a coin)"),
        "janken": pgettext("option value", "janken"),
        "value": pgettext("option value", "exact value"),
        "draw": pgettext("option value", "a draw"),
        "own": pgettext("option value", "own cards"),
        "shared": pgettext("option value", "one shared set"),
        "face_up": pgettext("option value", "own face-up cards"),
        "all_on_field": pgettext("option value", "all cards on the field"),
        "distinct": pgettext("option value", "once per material"),
        "per_monster": pgettext("option value", "once per monster"),
        "attacker": pgettext("option value", "the attacker wins"),
        "both_to_ruins": pgettext("option value", "both to the ruins"),
        "attacker_stays": pgettext("option value", "the attacker stays"),
        "no_attack": pgettext("option value", "does not attack"),
        "attacks": pgettext("option value", "attacks"),
        "takes_attack": pgettext("option value", "takes the attack"),
        "free": pgettext("option value", "no damage"),
    }


def value_text(name: str, opt: Option, value: Any) -> str:
    """How the value ``value`` of option ``name`` reads on a page: words,
    never the identifier of the code (``all_on_field`` → "all cards on the
    field"); a first player by seat ("player 1"); a switch "on" / "off".

    >>> from cardlab.core import Option
    >>> value_text("tiebreak_cards", Option("face_up", "", ("face_up", "all_on_field")), "all_on_field")
    'all cards on the field'
    """
    if value is True or value is False:
        return pgettext("option value", "on") if value else pgettext("option value", "off")
    own_words = opt.choice_words or {}
    if isinstance(value, str) and value in _value_words() and own_words.get(value, value) == value:
        return _value_words()[value]  # the game's own words for it, if any, are words: those win
    if isinstance(value, int) and name == "first_player":
        return _("player {player}").format(player=value)
    return opt.choice_text(value)


def _text_em(text: str) -> float:
    """About how wide ``text`` is in em (a kana or kanji 1, a Latin letter 0.6)."""
    return sum(1.0 if ord(ch) >= 0x2E80 else 0.62 for ch in text)


def option_widget(name: str, opt: Option, value: Any, note: str = "") -> widgets.Widget | None:
    """The control of a game option, as a page shows it: one control with
    its label before it (the option's short one, :meth:`Option.title`),
    wide enough for its label and its longest value, which read as words
    (:func:`value_text`); a switch is a pair of buttons off / on, a choice a
    dropdown, a whole number a number box (None for card files and ready
    hands, which a notebook sets).  Its help, on hover, is what the option
    does (its doc).  Read it back with :func:`option_value`."""
    label, tip = opt.title(name), f"{_tr(opt.doc)}{note}"
    label_em = _text_em(label) + 1.2
    if opt.choices is not None and set(opt.choices) == {False, True}:
        w: widgets.Widget = widgets.ToggleButtons(
            options=[(value_text(name, opt, c), c) for c in (False, True)], value=value, description=label,
            tooltip=tip, tooltips=[tip, tip], style={"button_width": "auto", "description_width": "initial"},
            layout=widgets.Layout(width=f"{label_em + 7:.1f}em", display="flex", flex_flow="row nowrap",
                                  align_items="center"))
    elif opt.choices is not None:
        words = [(value_text(name, opt, c), _NONE if c is None else c) for c in opt.choices]
        longest = max(_text_em(text) for text, _c in words)
        w = widgets.Dropdown(options=words, value=_NONE if value is None else value, description=label,
                             tooltip=tip, style={"description_width": "initial"},
                             layout=widgets.Layout(width=f"{label_em + longest + 4:.1f}em"))
    elif isinstance(opt.default, int) and not isinstance(opt.default, bool):
        w = widgets.IntText(value=value, description=label, tooltip=tip,
                            layout=widgets.Layout(width=f"{label_em + 6:.1f}em"))
    else:
        return None
    w.style.description_width = "initial"
    w.add_class("cardlab-option")
    w.layout.margin = "2px 1.6em 4px 0"
    return w


def option_value(widget: widgets.Widget) -> Any:
    """The option value a control from :func:`option_widget` holds."""
    return None if widget.value == _NONE else widget.value


def shown_value(widget: widgets.Widget, value: Any) -> Any:
    """What a control from :func:`option_widget` holds for the option value ``value``."""
    return _NONE if value is None and isinstance(widget, widgets.Dropdown) else value
