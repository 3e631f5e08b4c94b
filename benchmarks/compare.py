"""cardlab's exact solver against OpenSpiel's Python search, on the same
positions, side by side in one run.

For every reference position (``tests/data/reference/*.json``), every larger
benchmark position (``benchmarks/positions/*.json``) and a mipig 3-vs-3
open-hand game, it times:

- ``cardlab.solve``: expectiminimax + alpha-beta (Star1 at chance nodes) +
  transposition table keyed by the canonical position;
- ``cardlab.minimax``: the plain baseline (no table, no pruning);
- OpenSpiel's Python ``alpha_beta_search`` (when the rest of the game has no
  chance event) or ``expectiminimax`` (otherwise), on the cardlab game
  driven through :mod:`cardlab.bridges.openspiel`.

Nodes are positions visited (cardlab: calls of its search; OpenSpiel: states
created by ``apply_action``, plus the root).  Needs the optional extra
``open-spiel``; without it only the cardlab columns are printed.

Times are CPU seconds (``time.process_time``): on each position cardlab and
OpenSpiel run in turn, ``--repeat`` rounds, and each keeps its fastest
round, so a noisy neighbour on a shared machine slows both alike.  The 10×
goal is checked where OpenSpiel searches at least 1,000 nodes.

    python benchmarks/compare.py                 # everything
    python benchmarks/compare.py --quick         # references only, one run each
    python benchmarks/compare.py --limit 2000000 # give up a search past this many nodes
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cardlab
from cardlab import CardlabError, TooLargeError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import table, timed  # noqa: E402  (the shared helpers of benchmarks/run.py)

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = [ROOT / "tests" / "data" / "reference", ROOT / "benchmarks" / "positions"]
GOAL = 10.0  # cardlab should be at least this many times faster than OpenSpiel (≥ 1,000 nodes)
_INF = float("inf")


def positions(folders=FOLDERS):
    """``(label, state)`` for every position file entry, then mipig 3-vs-3."""
    for folder in folders:
        for path in sorted(folder.glob("*.json")):
            if path.stem not in cardlab.games():
                continue
            for entry in json.loads(path.read_text("utf-8")):
                game = cardlab.load(path.stem, **entry.get("options", {}))
                s = (game.state_from_dict(entry["position"]) if "position" in entry
                     else game.new_initial_state(seed=entry["seed"]))
                yield f"{folder.name}/{path.stem}/{entry.get('name')}", s
    mipig = cardlab.load("mipig", hand_size=3, open_hands=True, first_player=0, tiebreak="value")
    yield "mipig 3-vs-3 open hands (seed 1)", mipig.new_initial_state(seed=1)


def value_only(s):
    """The value alone, as OpenSpiel's search returns it: cardlab's search
    without the exact values of every root action and the principal variation
    that ``cardlab.solve`` adds (private API, for this comparison only)."""
    from cardlab.solve import _Search

    search = _Search(s.game, progress=False)
    search.exact(s)
    return search.nodes


def openspiel_search(state, limit):
    """OpenSpiel's own Python search on ``state``: ``(method, value, nodes, seconds)``."""
    from open_spiel.python.algorithms import minimax

    from cardlab.bridges.openspiel import openspiel_game

    # OpenSpiel's search needs a depth: a game with no length bound (mipig's janken ties
    # with no cap, janken_rounds=None) gets 1,000, far past any game without a tie
    length = state.game.spec.max_game_length
    depth = (1000 if length is None else length) + 1
    for deterministic in (True, False):
        og = openspiel_game(state, deterministic=deterministic)
        og.node_limit = limit
        root = og.new_initial_state()
        t = time.process_time()
        try:
            if deterministic:
                if state.current_player < 0:
                    continue
                value, _ = minimax.alpha_beta_search(og, state=root, maximum_depth=depth,
                                                     maximizing_player_id=0)
                method = "alpha_beta_search"
            else:
                value, _ = minimax.expectiminimax(root, depth, None, 0)
                method = "expectiminimax"
        except TooLargeError:
            return ("alpha_beta_search" if deterministic else "expectiminimax"), None, og.applied, \
                time.process_time() - t
        except CardlabError:  # a chance node in a game declared deterministic
            continue
        except (AttributeError, ValueError):  # refused: not perfect information (simultaneous janken picks)
            return "(refused: a simultaneous choice is not perfect information)", None, None, None
        return method, value, og.applied + 1, time.process_time() - t
    raise AssertionError("unreachable")  # pragma: no cover


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="reference positions only, one run each")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved rounds (the fastest of each is kept)")
    ap.add_argument("--only", default="", help="only the positions whose label holds this text")
    ap.add_argument("--limit", type=int, default=3_000_000,
                    help="give up minimax / OpenSpiel past this many nodes")
    args = ap.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    sys.setrecursionlimit(100_000)
    try:
        import pyspiel  # noqa: F401

        have_openspiel = True
    except ImportError:
        have_openspiel = False
    print(f"cardlab {cardlab.__version__}, Python {sys.version.split()[0]}, "
          f"OpenSpiel {'present' if have_openspiel else 'absent (pip install cardlab[openspiel])'}\n")
    rows, short = [], []
    folders = FOLDERS[:1] if args.quick else FOLDERS
    for label, s in positions(folders):
        if args.only not in label:
            continue
        spec = s.game.spec
        t = tv = to = None
        for _ in range(repeat):  # interleaved rounds, the fastest of each kept
            t0 = time.process_time()
            sol = cardlab.solve(s, progress=False)
            t = min(t or _INF, time.process_time() - t0)
            if spec.num_players == 2 and spec.zero_sum:
                t0 = time.process_time()
                vnodes = value_only(s)
                tv = min(tv or _INF, time.process_time() - t0)
                if have_openspiel:
                    method, value, nodes, seconds = openspiel_search(s, args.limit)
                    to = seconds if seconds is None else min(to or _INF, seconds)
        try:
            tb, base = timed(lambda: cardlab.minimax(s, max_nodes=args.limit), 1)
            base_cols = [f"{tb * 1000:,.1f}", f"{base.nodes:,}"]
        except TooLargeError:
            tb, base_cols = None, [f"> {args.limit:,} nodes", "—"]
        os_cols = ["—"] * 6
        vo_cols = ["—", "—"]
        if spec.num_players == 2 and spec.zero_sum:
            vo_cols = [f"{tv * 1000:,.1f}", f"{vnodes:,}"]
        if have_openspiel and spec.num_players == 2 and spec.zero_sum:
            if nodes is None:
                os_cols = [method] + ["—"] * 5
            elif value is None:
                os_cols = [method, f"> {to * 1000:,.0f} (gave up)", f"> {args.limit:,}", f"> {to / t:,.0f}×",
                           "—", "—"]
                if to / t < GOAL:  # OpenSpiel gave up, but not yet 10× slower
                    short.append((label, None))
            else:
                if abs(value - float(sol.value)) > 1e-9:
                    raise AssertionError(f"{label}: OpenSpiel {value} != cardlab {sol.value}")
                ratio = to / t
                os_cols = [method, f"{to * 1000:,.1f}", f"{nodes:,}", f"{ratio:,.1f}×",
                           f"{nodes / sol.nodes:,.1f}×", f"{to / tv:,.1f}×"]
                if ratio < GOAL and nodes >= 1000:
                    short.append((label, ratio))
        elif have_openspiel:
            os_cols = ["(max-n: no OpenSpiel search)"] + ["—"] * 5
        rows.append([label, str(sol.value), f"{t * 1000:,.1f}", f"{sol.nodes:,}"] + vo_cols + base_cols + os_cols)
    print("## cardlab.solve against OpenSpiel's Python search and cardlab.minimax")
    table(["position", "value", "solve ms", "solve nodes", "value-only ms", "value-only nodes",
           "minimax ms", "minimax nodes", "OpenSpiel method", "OpenSpiel ms", "OpenSpiel nodes",
           "speed-up (solve)", "node ratio", "speed-up (value only)"], rows)
    print("solve: cardlab.solve (value, exact value of every root action, principal variation); "
          "value-only: the same search for the value alone, which is what OpenSpiel's search returns. "
          "Speed-ups are OpenSpiel's time over cardlab's; the node ratio is OpenSpiel's nodes over "
          "cardlab.solve's.\n")
    if have_openspiel:
        if short:
            print(f"Below the {GOAL:.0f}× goal:")
            for label, ratio in short:
                print(f"- {label}: " + ("OpenSpiel gave up early" if ratio is None else f"{ratio:.1f}×"))
        else:
            print(f"cardlab.solve is at least {GOAL:.0f}× faster than OpenSpiel's Python search "
                  "on every position where OpenSpiel searches at least 1,000 nodes.")


if __name__ == "__main__":
    main()
