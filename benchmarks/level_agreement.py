"""Why two levels do not separate in the round robin (issue T, item 4):
how often they choose the same move.

    .venv/bin/python benchmarks/level_agreement.py [--games koinobori,monster_cards] [--seeds 6]

At every decision of seeded games (the two levels of a pairing playing
each other, seats alternated by seed), each level of the pairing is asked
for its move as :class:`cardlab.agents.LevelAgent` would choose it (its
node budget and CPU cap).  Where both pick the same move, the game cannot
tell them apart; where the upper level's analysis was exact, its values
say what the lower level's different pick costs.  Prints a markdown table
per adjacent pairing: decisions (with more than one legal move), the share
where the two pick the same move, the share where both answers were exact,
and over the decisions where they differ, the mean loss of the lower
level's pick by the upper level's values (a share of the payoff range).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

import cardlab
from cardlab.agents import LEVELS, LevelAgent
from cardlab.core import sample_chance

PAIRS = list(zip(list(LEVELS)[1:], list(LEVELS)[:-1]))  # (upper, lower)


def one_game(name: str, upper: str, lower: str, seed: int) -> list[dict]:
    """The decisions of one seeded game of ``upper`` against ``lower``: per
    decision, whether both levels pick the same move, whether both answers
    were exact, and the lower pick's loss by the upper level's values."""
    game = cardlab.load(name)
    seats = [LevelAgent(upper, seed=seed), LevelAgent(lower, seed=seed + 1)]
    if seed % 2:
        seats.reverse()
    asked = {upper: LevelAgent(upper, seed=seed + 2), lower: LevelAgent(lower, seed=seed + 3)}
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    span = game.spec.max_utility - game.spec.min_utility
    rows = []
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.apply(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1 and not state.simultaneous():
            picks = {level: agent.choose(state) for level, agent in asked.items()}
            top = asked[upper].last
            values = {r["action"]: float(r["value"]) for r in top.rows}
            loss = (values[picks[upper]] - values[picks[lower]]) / float(span)
            rows.append({"same": picks[upper] == picks[lower],
                         "both_exact": top.exact and asked[lower].last.exact, "loss": loss})
        state = state.apply(seats[state.current_player].choose(state))
    return rows


def table(games: list[str], seeds: int) -> str:
    out = ["| game | pairing | decisions | same move | both answers exact | mean loss of the lower pick where they differ (by the upper's values) |",
           "|---|---|---|---|---|---|"]
    for name in games:
        for upper, lower in PAIRS:
            rows = [r for seed in range(seeds) for r in one_game(name, upper, lower, seed)]
            differ = [r["loss"] for r in rows if not r["same"]]
            n = len(rows) or 1
            cell = f"{statistics.mean(differ):.1%} ({len(differ)})" if differ else "—"
            out.append(f"| {name} | {upper} vs {lower} | {len(rows)} | {sum(r['same'] for r in rows) / n:.0%} | "
                       f"{sum(r['both_exact'] for r in rows) / n:.0%} | {cell} |")
            print(out[-1], file=sys.stderr, flush=True)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(cardlab.games.names()))
    parser.add_argument("--seeds", type=int, default=6)
    args = parser.parse_args(argv)
    print(table(args.games.split(","), args.seeds))


if __name__ == "__main__":
    main()
