"""The rules of Kuhn poker as small pure functions (ids ``KU-n`` are this
toy's own: it has no rule digest in docs/rules/)."""

from __future__ import annotations

#: KU-1: the deck, lowest first; each player antes 1 and gets one card
CARDS = ("J", "Q", "K")
#: the betting so far is a string of "c" (check / call) and "b" (bet) ...
#: KU-2: ... and it ends after these sequences; "f" marks a fold
ENDINGS = ("cc", "bc", "bf", "cbc", "cbf")


def moves(history: str) -> tuple[str, ...]:
    """KU-2: facing a bet a player calls or folds, else checks or bets."""
    return ("call", "fold") if history.endswith("b") else ("check", "bet")


def code(move: str) -> str:
    return {"check": "c", "call": "c", "bet": "b", "fold": "f"}[move]


def over(history: str) -> bool:
    return history in ENDINGS


def payoff(history: str, card0: str, card1: str) -> int:
    """KU-3: the first player's winnings at the end: a fold loses the ante
    (and nothing more), a showdown wins the pot from the lower card."""
    if history.endswith("f"):
        folder = (len(history) - 1) % 2  # "bf": player 1 folded, "cbf": player 0
        return 1 if folder == 1 else -1
    stake = 2 if "b" in history else 1
    return stake if CARDS.index(card0) > CARDS.index(card1) else -stake
