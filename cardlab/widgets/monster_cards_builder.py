"""A card builder form for MONSTER CARDS (モンスターカード作成): ipywidgets only.

The form builds a :class:`cardlab.games.monster_cards.Card`; the engine
decides everything: the card is made by ``Card(...)`` (which refuses a broken
rule with a :class:`~cardlab.games.monster_cards.CardError` naming the card
and the field; the form shows that message and keeps its last good card), the
cost comes from ``Card.cost`` and the cost table of
:func:`~cardlab.games.monster_cards.load_costs` (MC-6, MC-Q2), shown live
term by term as the fields change.  Cards can be collected into a deck, which
:func:`~cardlab.games.monster_cards.validate_deck` checks (MC-1).

>>> from cardlab.widgets.monster_cards_builder import CardBuilder
>>> f = CardBuilder()
>>> f.set_fields(name="ash_cub", rarity="SR", attack=3, skill="fury")
>>> f.cost_html.value
'cost (コスト, MC-6): rarity SR 7 + attack 3 → 3 + skill Standard (スタンダード) 2 = <b>12</b>'
>>> f.build().cost()
12
"""

from __future__ import annotations

import html as _html
from typing import Any, Mapping

import ipywidgets as widgets

from ..games.monster_cards import (CATEGORY_JAPANESE, KEY_JAPANESE, KEYS, LEVEL, RARITIES, SKILLS, Card,
                                   CardError, Deck, DeckError, load_affinity, load_costs, validate_deck)
from ..i18n import _, get_language, pgettext

__all__ = ["CardBuilder", "card_builder"]

_FIELDS = ("name", "japanese", "rarity", "attack", *KEYS, "skill")


def _ja() -> bool:
    """Japanese texts now: names from the card data are shown in Japanese only."""
    return get_language() == "ja"


def _field_label(field: str) -> str:
    """A field of :class:`Card` as a person reads it (English: its name)."""
    labels = {"name": pgettext("card field", "name"), "japanese": pgettext("card field", "japanese"),
              "rarity": pgettext("card field", "rarity"), "attack": pgettext("card field", "attack"),
              "attribute": pgettext("card field", "attribute"), "race": pgettext("card field", "race"),
              "size": pgettext("card field", "size"), "means": pgettext("card field", "means"),
              "skill": pgettext("card field", "skill")}
    return labels.get(field, field)


def _category_name(category: str) -> str:
    """A skill category (MC-Q3): ``Standard (スタンダード)``; in Japanese ``スタンダード``."""
    if _ja():
        return CATEGORY_JAPANESE[category]
    return f"{category.capitalize().replace('changer', 'Changer')} ({CATEGORY_JAPANESE[category]})"


class CardBuilder(widgets.VBox):
    """The form: text fields for the name (notation) and the Japanese name,
    dropdowns for the rarity (MC-2), the four affinity keys (MC-5, English
    and Japanese) and the skill (MC-Q3, or none), a whole-number box for the
    attack power (MC-3: the engine accepts 1-5).  ``build`` makes the card
    (button "build"), ``add`` puts it in :attr:`deck` (button "add to deck"),
    ``check_deck`` runs :func:`validate_deck` on it.

    Attributes read by tests and notebooks: :attr:`card` (the last card
    built, or None), :attr:`error` (the engine's message of the last refusal,
    or ""), :attr:`cards` (the deck so far), :attr:`cost_html`,
    :attr:`message`, :attr:`deck_html`.
    """

    def __init__(self, *, affinity: Any = None, costs: Mapping | str | None = None,
                 deck_size: int = 20, max_cost: int = 200) -> None:
        self.tables = affinity if hasattr(affinity, "japanese") else load_affinity(affinity)
        self.costs = load_costs(costs)
        self.deck_size, self.max_cost = deck_size, max_cost
        self.card: Card | None = None
        self.error = ""
        self.cards: list[Card] = []
        t = self.tables
        lay = widgets.Layout(width="300px")
        self.inputs: dict[str, widgets.Widget] = {
            "name": widgets.Text(value="new_card", description=_("name"), layout=lay,
                                 tooltip=_("the card's name in actions: lower-case letters, digits, _")),
            "japanese": widgets.Text(value="", description=_("名前 (jp)"), layout=lay),
            "rarity": widgets.Dropdown(options=list(RARITIES), value="C", description=_("rarity"),
                                       layout=lay),
            "attack": widgets.IntText(value=2, description=_("attack 攻撃力"), layout=lay),
        }
        ja = _ja()  # the keys' and skills' names come from the data: Japanese only, or both
        for k in KEYS:
            self.inputs[k] = widgets.Dropdown(
                options=[(t.japanese[k][v] if ja else f"{v} {t.japanese[k][v]}", v) for v in t.values[k]],
                value=t.values[k][0], description=KEY_JAPANESE[k] if ja else f"{k} {KEY_JAPANESE[k]}", layout=lay)
        self.inputs["skill"] = widgets.Dropdown(
            options=[(_("none なし"), "")] + [(f"{s.japanese} ({CATEGORY_JAPANESE[s.category]})" if ja
                                               else f"{s.english} {s.japanese} ({s.category})", s.id)
                                              for s in SKILLS.values()],
            value="", description=_("skill"), layout=lay)
        for w in self.inputs.values():
            w.style = {"description_width": "110px"}
            w.observe(lambda _: self._update(), names="value")
        self.cost_html = widgets.HTML()
        self.skill_html = widgets.HTML()
        self.message = widgets.HTML()
        self.deck_html = widgets.HTML()
        self.build_button = widgets.Button(description=_("build"), tooltip=_("make the card (Card(...))"))
        self.add_button = widgets.Button(description=_("add to deck"), tooltip=_("build and add one copy"))
        self.check_button = widgets.Button(description=_("check deck"), tooltip=_("validate_deck (MC-1)"))
        self.clear_button = widgets.Button(description=_("clear deck"))
        self.build_button.on_click(lambda _: self.build())
        self.add_button.on_click(lambda _: self.add())
        self.check_button.on_click(lambda _: self.check_deck())
        self.clear_button.on_click(lambda _: self.clear())
        super().__init__(children=[*self.inputs.values(), self.cost_html, self.skill_html,
                                   widgets.HBox([self.build_button, self.add_button, self.check_button,
                                                 self.clear_button]),
                                   self.message, self.deck_html])
        self._update()
        self._show_deck()

    # -- reading the form ----------------------------------------------------------
    def values(self) -> dict[str, Any]:
        """The form's fields as ``Card`` keyword arguments."""
        v = {f: self.inputs[f].value for f in _FIELDS}
        v["skill"] = v["skill"] or None
        return v

    def set_fields(self, **fields: Any) -> None:
        """Set form fields by name (as a user typing would); unknown names are refused."""
        for f, x in fields.items():
            if f not in self.inputs:
                raise ValueError(_("the card builder has no field {field}; fields: {fields}")
                                 .format(field=repr(f), fields=", ".join(_FIELDS)))
            self.inputs[f].value = "" if (f == "skill" and x is None) else x

    def _make(self) -> Card:
        return Card(tables=self.tables, **self.values())

    # -- live display --------------------------------------------------------------------
    def _update(self) -> None:
        v = self.values()
        c = self.costs
        cat = SKILLS[v["skill"]].category if v["skill"] else None
        skill = _("skill {category}").format(category=_category_name(cat)) if cat else _("no skill")
        attack = c["attack"].get(str(v["attack"]))
        try:
            total = str(self._make().cost(self.costs))
        except CardError as exc:
            total = _("— ({field} not accepted)").format(field=_html.escape(_field_label(exc.field)))
        parts = _("rarity {rarity} {rarity_cost} + attack {attack} → {attack_cost} + {skill} {skill_cost}").format(
            rarity=v["rarity"], rarity_cost=c["rarity"][v["rarity"]], attack=v["attack"],
            attack_cost="?" if attack is None else attack, skill=skill, skill_cost=c["skill"][cat or "none"])
        self.cost_html.value = _("cost (コスト, MC-6): {parts} = <b>{total}</b>").format(parts=parts, total=total)
        if v["skill"]:
            level = LEVEL.get(v["rarity"], 1)  # MC-4: SP on SR, ULT on UR
            self.skill_html.value = f"<small>{_html.escape(SKILLS[v['skill']].describe(level))}</small>"
        else:
            self.skill_html.value = ""

    def _say(self, text: str, ok: bool) -> None:
        colour = "#206020" if ok else "#b00020"
        self.message.value = f'<span style="color:{colour}">{_html.escape(text)}</span>'

    def _show_deck(self) -> None:
        total = sum(x.cost(self.costs) for x in self.cards)
        counts: dict[str, int] = {}
        ja = _ja()
        for x in self.cards:  # a card's name: its Japanese one in Japanese (when it has one)
            shown = x.japanese if ja and x.japanese else x.name
            counts[shown] = counts.get(shown, 0) + 1
        listed = ", ".join(f"{k}×{m}" if m > 1 else k for k, m in counts.items()) or "—"
        self.deck_html.value = _("deck (山札): {count}/{size} cards, cost {total}/{max_cost} (MC-1): {cards}").format(
            count=len(self.cards), size=self.deck_size, total=total, max_cost=self.max_cost,
            cards=_html.escape(listed))

    # -- the buttons -------------------------------------------------------------------
    def build(self) -> Card | None:
        """Build the card from the form; on a refusal keep the last card, show
        and remember the engine's message, and return None."""
        try:
            card = self._make()
        except CardError as exc:
            self.error = str(exc)
            self._say(self.error, False)
            return None
        self.card, self.error = card, ""
        self._say(_("built: {card} · cost {cost}").format(card=card, cost=card.cost(self.costs)), True)
        return card

    def add(self, copies: int = 1) -> Card | None:
        """Build the card and add ``copies`` of it to the deck (nothing on a refusal)."""
        card = self.build()
        if card is not None:
            self.cards.extend([card] * copies)
            self._show_deck()
        return card

    def clear(self) -> None:
        """Empty the deck."""
        self.cards = []
        self._show_deck()
        self.message.value = ""

    def deck(self, name: str = "my deck") -> Deck:
        """The cards added so far as a Deck (not yet validated)."""
        return Deck(name, tuple(self.cards))

    def check_deck(self, name: str = "my deck") -> Deck | None:
        """Validate the deck (MC-1); show the engine's message on a refusal."""
        try:
            deck = validate_deck(self.deck(name), deck_size=self.deck_size, max_cost=self.max_cost,
                                 costs=self.costs)
        except DeckError as exc:
            self.error = str(exc)
            self._say(self.error, False)
            return None
        self.error = ""
        self._say(_("deck {name} accepted: {count} cards, cost {cost} (MC-1)").format(
            name=repr(name), count=len(deck.cards), cost=deck.cost(self.costs)), True)
        return deck

    def __repr__(self) -> str:
        name = None if self.card is None else self.card.name
        return f"CardBuilder(card={name!r}, deck={len(self.cards)} cards, error={bool(self.error)})"


def card_builder(**kwargs: Any) -> CardBuilder:
    """A :class:`CardBuilder` (keywords: ``affinity``, ``costs``, ``deck_size``, ``max_cost``)."""
    return CardBuilder(**kwargs)
