"""Issue S, item 7: the compact core (cardlab/games/monster_cards/core.py)
against the State on *every* state reachable from the root of small
configurations (as OpenSpiel checks its Python games against their C++
twins): a breadth-first walk over the State, equal states merged, and at
each state the core's ``encode`` (also of every child, against ``play``),
``decode(encode(s)) == s``, the player, the moves in order, the chance
outcomes with their exact probabilities, the payoffs at the end, and the
optional parts of the protocol where the core has them: the shared walk of
``tests/agreement.py``, with the moves' and draws' names below.

The configurations: tiny decks (2-4 cards a player, every skill among
them, SP and ULT forms), 2 and 3 players, open and hidden hands, and
every rule option (MC-Q4 on_draw, MC-Q6 own_attacker, MC-11 replacing,
MC-Q7 out_by_drawing) in at least one of them."""

from __future__ import annotations

import pytest

import cardlab
from cardlab import CHANCE
from cardlab.games.monster_cards.core import make_core

from agreement import every_state

VERBS = ("defend", "attack", "discard", "gc")


def card(name, rarity, attack, attribute, race, size, means, skill=None, count=1):
    return {"name": name, "rarity": rarity, "attack": attack, "attribute": attribute, "race": race,
            "size": size, "means": means, "skill": skill, "count": count}


RED = {"name": "red", "cards": [
    card("r_mend", "R", 2, "fire", "human", "medium", "melee", "mend"),
    card("r_fury", "C", 3, "water", "beast", "small", "ranged", "fury"),
    card("r_revive", "SR", 1, "wood", "spirit", "large", "magic", "revive"),
    card("r_banish", "UR", 2, "light", "dragon", "medium", "special", "banish"),
]}
BLUE = {"name": "blue", "cards": [
    card("b_bulwark", "UR", 3, "none", "demon", "large", "defence", "bulwark"),
    card("b_ambush", "C", 1, "fire", "machine", "small", "magic", "ambush"),
    card("b_invert", "UR", 2, "water", "insect", "medium", "melee", "inversion"),
    card("b_plain", "C", 2, "light", "human", "small", "special"),
]}
GREEN = {"name": "green", "cards": [
    card("g_blood", "R", 4, "dark", "god", "small", "defence", "bloodlust"),
    card("g_level", "SR", 5, "wood", "ghost", "large", "ranged", "leveller"),
    card("g_fury", "UR", 1, "fire", "sea", "small", "melee", "fury"),
    card("g_plain", "R", 3, "none", "insect", "medium", "magic"),
]}


def deck(d, n):
    return {"name": d["name"], "cards": d["cards"][:n]}


#: (name, options): small decks, every skill and every option in one of them
CONFIGS = [
    ("2p-4-open", {"decks": [RED, BLUE], "deck_size": 4, "max_cost": 1000, "open_hands": True}),
    ("2p-4-hidden-attacks-stays", {"decks": [RED, BLUE], "deck_size": 4, "max_cost": 1000,
                                   "own_attacker": "attacks", "on_draw": "attacker_stays"}),
    ("2p-4-gamechangers", {"decks": [GREEN, BLUE], "deck_size": 4, "max_cost": 1000, "open_hands": True}),
    ("2p-3-free-no-out-by-drawing", {"decks": [deck(BLUE, 3), deck(RED, 3)], "deck_size": 3, "max_cost": 1000,
                                     "replacing": "free", "out_by_drawing": False}),
    ("3p-4", {"decks": [RED, BLUE, GREEN], "deck_size": 4, "max_cost": 1000, "players": 3, "open_hands": True}),
    ("2p-4-mixed-no-out-by-drawing", {"decks": [{"name": "rg", "cards": RED["cards"][:2] + GREEN["cards"][:2]},
                                                {"name": "bg", "cards": BLUE["cards"][:2] + GREEN["cards"][2:]}],
                                      "deck_size": 4, "max_cost": 1000, "out_by_drawing": False,
                                      "own_attacker": "attacks", "on_draw": "attacker_stays"}),
    ("3p-3-free-stays", {"decks": [deck(GREEN, 3), deck(BLUE, 3), deck(RED, 3)], "deck_size": 3,
                         "max_cost": 1000, "players": 3, "replacing": "free", "on_draw": "attacker_stays",
                         "out_by_drawing": False}),
]


#: configuration -> the number of states reachable from the root (the walk covers each)
STATES = {"2p-4-open": 917, "2p-4-hidden-attacks-stays": 917, "2p-4-gamechangers": 992,
          "2p-3-free-no-out-by-drawing": 233, "3p-4": 23999, "2p-4-mixed-no-out-by-drawing": 1413,
          "3p-3-free-stays": 4308}


def notation(code: int, state) -> str:
    """The State's action of the core's move code (``card << 2 | verb``), or of a
    chance outcome's card (drawn or milled, as the State's outcomes say)."""
    if state.current_player == CHANCE:
        return f"{state.chance_outcomes()[0][0].split()[0]} {state.game.cards[code].name}"
    return f"{VERBS[code & 3]} {state.game.cards[code >> 2].name}"


@pytest.mark.parametrize("name,options", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_core_agrees_with_state_on_every_reachable_state(name, options):
    """Issue S item 7 (MC-1 … MC-19): the core and the State agree on every reachable state."""
    game = cardlab.load("monster_cards", **options)
    assert every_state(game.new_initial_state(), make_core(game), notation) == STATES[name]
