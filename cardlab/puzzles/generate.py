"""Puzzles made from seeded games: play, look at the last decisions, keep the only moves.

:func:`generate` plays seeded games between a mix of agents and levels
(:mod:`cardlab.agents`: random, heuristic, beginner, club), and looks at the
last :data:`LAST` decisions of each (where the exact analysis finishes
within :data:`~cardlab.puzzles.check.NODES` positions).  A decision becomes
a puzzle when :func:`~cardlab.puzzles.check.solution_line` finds its only
move; each position is tried as a fair puzzle (only what the mover sees)
and as an open-hands one.  The themes come from the solution's moves
(:mod:`cardlab.puzzles.themes`), the starting rating from which levels find
the answer; the explanation is made from the stored values when it is shown
(:mod:`cardlab.puzzles.text`).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Iterator

from ..core import State, sample_chance
from ..errors import CardlabError
from ..i18n import _
from .check import NODES, Step, as_kind, margin_of, solution_line
from .themes import explain_english, tag

__all__ = ["generate", "pattern", "capped", "next_number", "PER_PATTERN", "puzzle_game", "VARIANTS", "played_decisions",
           "puzzle_record", "AGENT_MIX", "LAST"]

#: the agents of the seeded games, a pair per seed in turn
AGENT_MIX = (("heuristic", "random"), ("beginner", "heuristic"), ("club", "beginner"), ("random", "club"),
             ("heuristic", "heuristic"), ("beginner", "beginner"))
#: how many of a game's last decisions are looked at (where the exact
#: analysis usually finishes within its node budget)
LAST = 12
LAST_BY_GAME = {"toritsuki": 30}
#: the options of the games a bank's open puzzles come from.  Toritsuki's
#: decks hold 30 cards or more and every draw is a chance event, so with
#: open hands the exact search of its last decisions rarely finishes; with
#: the deck order laid out at each shuffle (the ``known_deck_order``
#: option, TK-Q6) nothing is left to chance or hidden after the shuffle and
#: the endgame solves: its open puzzles are of that variant.  Its fair
#: puzzles come from the game itself (:func:`puzzle_game` with ``"fair"``):
#: the mover's fair analysis averages over the few arrangements of what
#: they cannot see at a game's last decisions, and there it finishes.
VARIANTS: dict[str, dict[str, Any]] = {"toritsuki": {"known_deck_order": True}}
#: how many moves of a looked-at decision are followed to a decision the
#: game did not reach (more late positions from one game)
VARIATIONS = 4
#: at most this many puzzles from one seeded game (variety)
PER_GAME = 6
#: at most this many puzzles of one pattern (:func:`pattern`) in a bank:
#: Toritsuki's endgames offer the same choice again and again (do not
#: possess from a deck near its end: it would run out first, TK-7), which
#: made 88 of its first bank's 102 puzzles one puzzle
PER_PATTERN = 2
#: the starting rating: a puzzle the beginner level solves, and what each
#: level that misses it and each further move of the mover add
BASE_RATING, MISSED, PER_MOVE, ON_AVERAGE = 1100, 300, 100, 100


def played_decisions(game: Any, seed: int) -> tuple[list[State], tuple[str, str]]:
    """The decisions (positions with a player to move) of one seeded game
    between the agents :data:`AGENT_MIX` gives this seed, and those agents."""
    from ..agents import make

    names = AGENT_MIX[seed % len(AGENT_MIX)]
    seats = [make(names[0], seed=seed), make(names[1], seed=seed + 1)]
    # a simultaneous choice (mipig's janken for the first player) is picked at random: so it was when the
    # shipped banks were made (a level's janken could then go on for hundreds of rounds), and so the
    # seeded games stay the ones the banks come from
    at_once = make("random", seed=seed)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
            continue
        decisions.append(state)
        state = state.apply((at_once if state.simultaneous() else seats[state.current_player]).choose(state))
    return decisions, names


def puzzle_game(name: str, kind: str | None = None) -> Any:
    """The game a bank's puzzles of ``kind`` come from: with
    :data:`VARIANTS`' options (both kinds: ``None``), but for a fair puzzle
    of a game with a variant, the game itself (a variant that hides nothing
    has no fair puzzles)."""
    from ..games import load

    if kind == "fair" and name in VARIANTS:
        return load(name)
    return load(name, **VARIANTS.get(name, {}))


def _kinds(game: Any) -> tuple[str, ...]:
    if game.spec.perfect_information or game.options.get("known_deck_order"):
        return ("open",)  # nothing hidden (or, with the deck order known, nothing hidden after the deal)
    return ("fair", "open")


def _key(state: State, kind: str) -> str:
    """Two candidates with the same key are the same puzzle."""
    if kind == "fair":
        return repr((kind, state.current_player, state.information_set(state.current_player)))
    return repr((kind, sorted(state.to_dict().items(), key=lambda kv: kv[0])))


def _moves(steps: list[Step]) -> list[str]:
    out: list[str] = []
    for step in steps:
        out.append(step.move)
        out += step.reply
    return out


def _themes(game: str, steps: list[Step]) -> list[str]:
    texts = []
    for step in steps:
        texts.append((True, explain_english(step.state, step.move)))
        state = step.state.apply(step.move)
        for move in step.reply:
            texts.append((False, explain_english(state, move)))
            state = state.apply(move)
    return tag(game, texts)


def _finds(level: str, state: State, move: str, seed: int) -> bool:
    from ..agents import LevelAgent

    return LevelAgent(level, seed=seed).choose(state) == move


def start_rating(steps: list[Step], seed: int = 0) -> int:
    """The starting rating: :data:`BASE_RATING`, plus :data:`MISSED` for each
    level (beginner, club) whose choice is not the answer, plus
    :data:`PER_MOVE` per further move of the mover and :data:`ON_AVERAGE`
    for a "best on average" answer."""
    first = steps[0]
    rating = BASE_RATING + PER_MOVE * (len(steps) - 1)
    rating += sum(MISSED for level in ("beginner", "club") if not _finds(level, first.state, first.move, seed))
    if not all(s.sure for s in steps):
        rating += ON_AVERAGE
    return rating


def _frac(x: Fraction) -> str:
    return str(Fraction(x))


def puzzle_record(pid: str, kind: str, steps: list[Step], source: dict[str, Any]) -> dict[str, Any]:
    """The bank's record of a puzzle (see :mod:`cardlab.puzzles.bank`)."""
    first = steps[0]
    game = first.state.game.name
    sure = all(s.sure for s in steps)
    record = {
        "id": pid, "kind": kind, "label": "sure" if sure else "best_on_average",
        "position": first.state.to_dict(), "mover": first.state.current_player,
        "solution": _moves(steps), "themes": _themes(game, steps),
        "margin": _frac(margin_of(game, kind)), "gap": _frac(min(s.gap for s in steps)),
        "values": {a: _frac(v) for a, v in first.values.items()}, "line": [_frac(s.values[s.move]) for s in steps],
        "rating": start_rating(steps, seed=len(pid)), "source": source,
    }
    return record


def _kept(game: Any, state: State, kind: str, nodes: int, seen: set[str]) -> tuple[list[Step], bool]:
    """The solution of ``state`` shown as ``kind`` (``[]``: no puzzle, or
    seen before), and whether its analysis was not exact within ``nodes``."""
    shown = as_kind(state, kind)
    key = _key(shown, kind)
    if key in seen:
        return [], False
    seen.add(key)
    reasons: list[str] = []
    return solution_line(shown, margin_of(game.name, kind), nodes, reasons=reasons), bool(reasons)


def _from_game(game: Any, g_seed: int, nodes: int, seen: set[str], kinds: tuple[str, ...]
               ) -> Iterator[tuple[str, list[Step], dict]]:
    """The puzzles of one seeded game, from its last decision back (at most
    :data:`LAST` decisions, and no further than the first one whose
    analysis is not exact in any kind: earlier ones are larger still);
    ``("", [], {})`` for each candidate looked at without a puzzle."""
    decisions, names = played_decisions(game, g_seed)
    last = LAST_BY_GAME.get(game.name, LAST)
    rng = random.Random(g_seed)
    for ply in range(len(decisions) - 1, max(-1, len(decisions) - 1 - last), -1):
        inexact = True
        for branch, state in enumerate([decisions[ply], *_variations(decisions[ply], rng)]):
            for kind in kinds:
                steps, too_large = _kept(game, state, kind, nodes, seen)
                inexact = inexact and (too_large or branch > 0)
                source = {"seed": g_seed, "agents": list(names), "decision": ply, "variation": branch}
                yield (kind, steps, source) if steps else ("", [], {})
        if inexact:
            return


def _variations(state: State, rng: random.Random, most: int = VARIATIONS) -> list[State]:
    """The next decision after each of up to ``most`` other moves at
    ``state`` (chance events drawn from ``rng``): positions as late as the
    game's own, which the game did not reach."""
    out = []
    for move in state.legal_actions()[:most]:
        child = state.apply(move)
        while child.is_chance_node():
            child = child.apply(sample_chance(child, rng))
        if not child.is_terminal():
            out.append(child)
    return out


def pattern(record: dict[str, Any]) -> tuple:
    """What makes two puzzles the same exercise for a pupil: the kind, the
    answer and the moves offered (as the notation names them: cards and
    squares make them differ where the position differs) and the themes."""
    return record["kind"], record["solution"][0], tuple(sorted(record["values"])), tuple(record["themes"])


def capped(records: list[dict[str, Any]], most: int = PER_PATTERN, before: list[dict[str, Any]] = ()) -> list:
    """``records`` without those past the first ``most`` of their
    :func:`pattern` (counting ``before``, a bank's own puzzles, first)."""
    seen = Counter(map(pattern, before))
    out = []
    for r in records:
        key = pattern(r)
        seen[key] += 1
        if seen[key] <= most:
            out.append(r)
    return out


def next_number(records: list[dict[str, Any]]) -> int:
    """The number the next puzzle's id takes after ``records``': one past the
    highest number an id ends with (ids stay unique when puzzles were left out)."""
    return 1 + max((int(m.group()) for r in records if (m := re.search(r"\d+$", str(r["id"])))), default=0)


def generate(game: Any, n: int = 100, *, seed: int = 0, max_games: int = 1000, nodes: int = NODES,
             seconds: float | None = None, callback: Callable[[int, int, int], None] | None = None,
             kind: str | None = None, before: list[dict[str, Any]] = ()
             ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Up to ``n`` puzzle records of ``game`` (a :class:`~cardlab.Game`) from
    seeded games ``seed, seed + 1, …`` (at most ``max_games``, and at most
    ``seconds`` of wall time), and the figures of the run (games played,
    candidates looked at, seconds).  ``callback(kept, candidates, games)``
    after each game.  ``kind``: only fair or only open puzzles (``None``:
    each the game has); ``before``: the bank's own puzzles when adding to
    it (ids go on after theirs, :func:`next_number`; at most
    :data:`PER_PATTERN` of a :func:`pattern`, theirs counted).  Ctrl-C
    stops it with the puzzles made so far (``stopped`` in the figures)."""
    kinds = _kinds(game)
    if kind is not None:
        if kind not in kinds:
            raise CardlabError(_("{game} with these options has no {kind} puzzles; it has: {kinds}").format(
                game=game.name, kind=kind, kinds=", ".join(kinds)))
        kinds = (kind,)
    first_id = next_number(before)
    t0 = time.perf_counter()
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    looked = games = 0
    figures: dict[str, Any] = {}
    try:
        for g_seed in range(seed, seed + max_games):
            games += 1
            from_this = 0
            for made, steps, source in _from_game(game, g_seed, nodes, seen, kinds):
                looked += 1
                if steps:
                    record = puzzle_record(f"{game.name}-{first_id + len(kept):04d}", made, steps, source)
                    if not capped([record], before=[*before, *kept]):
                        continue  # a puzzle the bank has twice already, but for its cards
                    from_this += 1
                    kept.append(record)
                    if len(kept) >= n or from_this >= PER_GAME:
                        break
            if callback is not None:
                callback(len(kept), looked, games)
            if len(kept) >= n or (seconds is not None and time.perf_counter() - t0 > seconds):
                break
    except KeyboardInterrupt:  # Ctrl-C: the puzzles made so far are kept
        figures["stopped"] = True
    figures.update(games=games, candidates=looked, kept=len(kept), seconds=round(time.perf_counter() - t0, 1))
    return kept, figures
