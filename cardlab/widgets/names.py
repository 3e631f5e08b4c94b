"""Who plays in a class room, as its pages say it (issue W): the pupils'
names and agents' labels by seat, and how a finished game ended in names
("Aiko wins", "you win").  Used by the pupils' pages and the teacher's
(:mod:`cardlab.widgets.room`) and the teacher's wall
(:mod:`cardlab.widgets.wall`)."""

from __future__ import annotations

from ..core import State
from ..i18n import _
from ..rooms import Room, outcome
from .controls import seat_label

__all__ = ["shown_names", "result_names"]


def shown_names(room: Room) -> list[str]:
    """Who plays each seat as a page shows it: the pupil's name, an agent's label."""
    return [name if who == "person" else seat_label(who) for name, who in zip(room.names(), room.seats)]


def result_names(state: State, names: list[str], me: int | None = None) -> str:
    """How a room's finished game ended, with the players' names: "Aiko
    wins", "you win" (``me``: the seat of the page), "a draw"; where the
    game pays points, the points after it ("Ben wins (points: you -3, Ben 3)")."""
    _results, winners = outcome(state)
    who = [_("you") if i == me else name for i, name in enumerate(names)]
    if not winners:
        text = _("a draw")
    elif winners == [me]:
        text = _("you win")
    elif len(winners) == 1:
        text = _("{name} wins").format(name=who[winners[0]])
    else:
        text = _("{names} share the win").format(names=", ".join(who[i] for i in winners))
    r = state.returns()
    if state.game.options.get("payoff") == "score" or any(x not in (-1, 0, 1) for x in r):
        text = _("{result} (points: {points})").format(result=text, points=", ".join(
            f"{w} {x}" for w, x in zip(who, r)))
    return text
