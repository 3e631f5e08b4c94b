"""The command line's analyses: the hint of ``cardlab play``, the estimate
``cardlab solve`` gives when the exact search is too large, and what
``cardlab tree`` advises then.  All use the anytime analysis
(:func:`cardlab.analyse` with ``seconds=`` or ``nodes=``), which answers at
every decision within its budget; Ctrl-C stops it with the answer so far.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Callable

from . import render
from .core import State
from .errors import CardlabError
from .hidden import open_hands_copy
from .i18n import _, get_language

__all__ = ["hint", "seconds_arg", "estimate", "HINT_SECONDS"]

#: how long ``cardlab play``'s hint thinks by default (``--hint-seconds``)
HINT_SECONDS = 2.0


def seconds_arg(text: str) -> float:
    """argparse type of ``--hint-seconds`` and ``--seconds``: a positive
    number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            _("must be a positive number of seconds, for example 2 or 0.5, not {value}").format(value=repr(text)))
    return value


def _progress(seconds: float | None) -> tuple[Callable[[int, int], None] | None, Any]:
    """A progress bar on stderr for a long analysis (on a terminal, from
    3 s), fed by the analysis's callback (total 1000); and the bar."""
    if seconds is None or seconds < 3 or not sys.stderr.isatty():
        return None, None
    from tqdm.auto import tqdm

    bar = tqdm(total=1000, desc=_("thinking"), leave=False, file=sys.stderr,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")

    def callback(done: int, total: int) -> None:
        bar.n = done
        bar.refresh()

    return callback, bar


def hint(state: State, seat: int, reveal: bool = False, *, seconds: float | None = HINT_SECONDS,
         nodes: int | None = None, max_arrangements: int | None = None, max_nodes: Any = None,
         samples: Any = None) -> str:
    """The hint for the person at ``seat``, to move in ``state``: the fair
    one, :func:`cardlab.analyse` with ``player=seat``, computed only from
    what the seat can see, within ``seconds`` (or, deterministic, ``nodes``
    positions); with ``reveal`` the open hint, every card seen.  The table
    of every move's value (exact, or an estimate with its 95 % interval),
    then one sentence: the best move, how good and how sure; then what the
    values assume.  Ctrl-C stops it with the answer so far.  ``max_nodes``
    and ``samples`` (the old caps) are ignored."""
    from .solve import analyse

    if nodes is not None:
        seconds = None
    callback, bar = _progress(seconds)
    try:
        if reveal:
            a = analyse(open_hands_copy(state), seconds=seconds, nodes=nodes, callback=callback)
        else:
            a = analyse(state, player=seat, seconds=seconds, nodes=nodes, max_arrangements=max_arrangements,
                        callback=callback)
    except CardlabError as exc:
        if reveal:
            return _("no open hint here: {reason}").format(reason=exc)
        return _("no fair hint here: {reason}").format(reason=exc)
    finally:
        if bar is not None:
            bar.close()
    english = get_language() == "en"
    text = _table(a, (lambda x: x) if english else (lambda x: render.action_label(state, x)),
                  assume=not reveal and a.kind != "open" and a.total_arrangements != 1)
    if reveal:
        return _("open hint (every card, also those player {player} cannot see)").format(player=seat) + f"\n{text}"
    if a.kind == "open":  # the game is played with every card open
        return (_("fair hint (only what player {player} can see: every card is open in this game)")
                .format(player=seat) + f"\n{text}")
    return text  # its title says: fair hint (only what player p can see)


def _table(a: Any, label: Callable[[str], str], assume: bool) -> str:
    """An analysis as text: its table, then the advice with the moves named
    by ``label`` (as the list of moves names them), what the values assume
    (``assume``), and whether it was stopped early."""
    text = str(a)
    for extra in (a.advice(), a.assumption):  # an estimate's own lines: said again below
        text = text.replace("\n" + extra, "")
    lines = [text, a.advice(label)]
    if assume:
        lines.append(a.assumption)
    if a.stopped:
        lines.append(_("(stopped with Ctrl-C: the answer so far)"))
    return "\n".join(lines)


def estimate(state: State, seconds: float, max_nodes: int) -> str:
    """What ``cardlab solve`` prints when the exact solve of ``state`` passed
    ``--max-nodes``: the anytime estimate of each move within ``seconds``
    (at a decision), or what to do instead (at a chance node)."""
    from .solve import analyse

    if state.current_player < 0:
        raise CardlabError(_("the solve passed --max-nodes {max_nodes} positions, and chance is to act here, so "
                             "there is no move to estimate: raise --max-nodes, or make the position after the "
                             "chance event (cardlab deal with one more --move) for an estimate of each move")
                           .format(max_nodes=max_nodes))
    callback, bar = _progress(seconds)
    try:
        a = analyse(state, seconds=seconds, callback=callback)
    finally:
        if bar is not None:
            bar.close()
    head = (_("too large to solve exactly (more than --max-nodes {max_nodes} positions): an ESTIMATE instead, "
              "from {seconds:g} s of search (--seconds), each value with its {percent} interval; the exact value "
              "needs a later position (fewer cards left) or a larger --max-nodes")
            .format(max_nodes=max_nodes, seconds=seconds, percent="95 %"))
    if a.exact:
        head = _("exact, from the search within {seconds:g} s (--seconds):").format(seconds=seconds)
    return head + "\n" + _table(a, str, assume=False)
