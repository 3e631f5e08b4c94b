"""The declared layout of a MONSTER CARDS position (issue S, item 3).

The State's key tuple is ``(phase, turn, attack, gamechanger, pending,
alive, players)``, named by :data:`KEY`:

- ``phase`` :data:`DRAW`, :data:`ACT`, :data:`MILL` or :data:`END`;
- ``turn`` the turn player (the winner at the end);
- ``attack`` / ``gamechanger`` ``()`` or ``(owner, card id)`` (MC-7);
- ``pending`` ``()`` or ``(target, damage left, then)`` in the phase mill, ``then``
  :data:`ACT` (after an Ambush) or :data:`END` (after the play);
- ``alive`` one 1/0 a player (MC-19);
- ``players`` one tuple of zones a player, indexed by :data:`HAND`, :data:`TOP`
  (the known deck top, in order), :data:`REST` (the rest of the deck, sorted:
  a multiset), :data:`GRAVE` (the graveyard, in order) and, once out,
  :data:`GONE` (what left the game with them, sorted).

The module constants (``PHASE`` … ``PLAYERS``) are the layout's indices,
for the State's hot code.
"""

from __future__ import annotations

from ...layout import Layout

__all__ = ["KEY", "PHASE", "TURN", "ATTACK", "GAMECHANGER", "PENDING", "ALIVE", "PLAYERS",
           "DRAW", "ACT", "MILL", "END", "PHASE_NAMES", "PHASE_CODES",
           "HAND", "TOP", "REST", "GRAVE", "GONE", "ZONE_NAMES", "HIDDEN_ZONES"]

KEY = Layout("phase", "turn", "attack", "gamechanger", "pending", "alive", "players")
PHASE, TURN, ATTACK, GAMECHANGER, PENDING, ALIVE, PLAYERS = (
    KEY.phase, KEY.turn, KEY.attack, KEY.gamechanger, KEY.pending, KEY.alive, KEY.players)

# phases
DRAW, ACT, MILL, END = "D", "A", "M", "E"
PHASE_NAMES = {DRAW: "draw", ACT: "action", MILL: "mill", END: "end"}
PHASE_CODES = {v: k for k, v in PHASE_NAMES.items()}

# a player's zones (MC-8), and GONE once out (MC-19)
HAND, TOP, REST, GRAVE, GONE = 0, 1, 2, 3, 4
ZONE_NAMES = ("hand", "deck top", "deck", "graveyard")
#: the hidden places of one player, the deck first: filled first, its many
#: cards are chosen once, not once per filling of the smaller places
HIDDEN_ZONES = (REST, HAND, TOP, GRAVE)
