"""The fuzz suite (issue J): hostile input at every door, for every game.

Seeded and reproducible: each case is drawn from ``random.Random(seed)``,
and a failure names the game, the seed and the input.  The doors:

- **positions**: real ``to_dict()`` outputs of seeded games, one field
  mutated (a float, a bool, None, a huge or negative number, a word, an empty
  list, deep nesting, a key dropped or added, an element dropped or doubled);
- **actions**: words near the notation, legal actions with a word changed,
  non-strings, at ``apply``, ``explain`` and ``public_action``;
- **players**: ``observation``, ``information_set``, ``hidden`` with
  True, None, -1, the player count, "0";
- **options and card files**: every option with wrong values, and the
  default card data with one field mutated, passed as a dict.

What must hold: a refusal is a :class:`~cardlab.CardlabError` (never
TypeError, KeyError, RecursionError ...) and changes nothing (the input dict
and the state are as before); whatever is accepted can be played on (moves,
chance, returns, text, HTML, observations, a save that loads again) with no
error but a CardlabError.  ``make test`` runs a few hundred cases per game;
the slow run (``-m slow``) 10⁵ across the games.
"""

from __future__ import annotations

import copy
import json
import random
from importlib import resources

import pytest

import cardlab
from cardlab import CHANCE, CardlabError, render

GAMES = cardlab.games()
#: the option that takes a card file as a dict, and the default file
CARD_FILES = {"koinobori": ("deck", "koinobori.json"), "mazemon": ("cards", "mazemon.json"),
              "mipig": ("cards", "mipig.json"), "toritsuki": ("cards", "toritsuki.json"),
              "monster_cards": ("costs", "monster_cards_costs.json")}
WEIRD = [None, True, False, 0.5, 1.0, -1, 0, 10**18, -(10**18), "", "x", "higoi", [], {}, [[[[]]]],
         {"a": 1}, [None], "0", float("nan")]


def positions(name: str, seed: int, every: int = 4) -> list[dict]:
    """``to_dict()`` of positions of a seeded random game (and of its
    open-hands variant when there is one)."""
    out = []
    for opts in ({}, {"open_hands": True}):
        try:
            game = cardlab.load(name, **opts)
        except CardlabError:
            continue
        m = cardlab.Match(game, ["random"] * game.spec.num_players, seed=seed)
        m.play_to_end()
        out += [s.to_dict() for s in m.states[::every]] + [m.state.to_dict()]
    return out


def paths(value, prefix=()):
    """Every place in a nested JSON value: tuples of keys and indices."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths(v, prefix + (i,))


def mutated(d: dict, rng: random.Random) -> tuple[dict, str]:
    """A deep copy of ``d`` with one place changed, and what was done."""
    d = copy.deepcopy(d)
    places = [p for p in paths(d) if p]
    path = rng.choice(places)
    parent = d
    for step in path[:-1]:
        parent = parent[step]
    last, old = path[-1], parent[path[-1]]
    kind = rng.randrange(8)
    if kind == 0 and isinstance(parent, dict):
        del parent[last]
        return d, f"del {path}"
    if kind == 1 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(old))
        return d, f"double {path}"
    if kind == 2 and isinstance(parent, list):
        del parent[last]
        return d, f"drop {path}"
    if kind == 3 and isinstance(old, int) and not isinstance(old, bool):
        new = old + rng.choice([-1, 1, 2, -2, 7])
    elif kind == 4 and isinstance(old, str) and rng.random() < 0.5:
        other = [v for p in paths(d) if p for v in [_get(d, p)] if isinstance(v, str) and v != old]
        new = rng.choice(other) if other else old + "x"
    elif kind == 5:
        new = rng.choice(WEIRD)
    elif kind == 6 and isinstance(parent, dict):
        parent["unexpected_" + str(rng.randrange(9))] = rng.choice(WEIRD)
        return d, f"add a key beside {path}"
    else:
        new = rng.choice(WEIRD + [old if not isinstance(old, (int, float)) else float(old)])
    parent[last] = new
    return d, f"{path} = {new!r}"


def _get(d, path):
    for step in path:
        d = d[step]
    return d


def play_on(s: cardlab.State, rng: random.Random, steps: int = 6) -> None:
    """Use an accepted state as a person, a board and a solver would."""
    n = s.game.spec.num_players
    for _ in range(steps):
        render.text(s)
        render.html(s)
        json.dumps(s.to_dict(), allow_nan=False)
        assert s.game.state_from_dict(s.to_dict()) == s
        for p in range(n):
            s.observation(p)
            s.information_set(p)
            render.html(s, perspective=p)
        if s.is_terminal():
            assert len(s.returns()) == n
            return
        if s.current_player == CHANCE:
            outcomes = s.chance_outcomes()
            assert outcomes and sum(pr for _, pr in outcomes) == 1
            a = rng.choice(outcomes)[0]
        else:
            legal = s.legal_actions()
            assert legal
            a = rng.choice(legal)
            s.explain(a)
            for p in range(n):
                render.seen_move(s, a, p)
        s = s.apply(a)


def check_position(game: cardlab.Game, d: dict, rng: random.Random, what: str) -> bool:
    """True when the mutated position was accepted (and played on)."""
    before = json.dumps(d, sort_keys=True, default=repr)
    try:
        s = game.state_from_dict(d)
    except CardlabError as exc:
        assert str(exc) and "\n" not in str(exc)[:200], what
        return False
    finally:
        assert json.dumps(d, sort_keys=True, default=repr) == before, f"the input was changed: {what}"
    try:
        play_on(s, rng)
    except CardlabError:
        pass  # a refusal further on is a clear error too
    return True


def fuzz_positions(name: str, cases: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    game_cache: dict = {}
    pool = positions(name, seed)
    accepted = 0
    for i in range(cases):
        d, what = mutated(rng.choice(pool), rng)
        opts = d.get("options") if isinstance(d.get("options"), dict) else {}
        key = json.dumps(opts, sort_keys=True, default=repr)
        if key not in game_cache:
            try:
                game_cache[key] = cardlab.load(name, **opts)
            except CardlabError:
                game_cache[key] = cardlab.load(name)
            except TypeError:  # options that are not keywords
                game_cache[key] = cardlab.load(name)
        try:
            accepted += check_position(game_cache[key], d, rng, f"{name} seed {seed} case {i}: {what}")
        except CardlabError:
            pass
        except Exception as exc:  # noqa: BLE001 - the report names the case
            raise AssertionError(f"{name} seed {seed} case {i}: {what}: {type(exc).__name__}: {exc}") from exc
    return accepted, cases


@pytest.mark.parametrize("name", GAMES)
def test_J_mutated_positions_are_refused_clearly_or_playable(name):
    accepted, cases = fuzz_positions(name, 150, seed=1)
    assert cases == 150 and accepted < cases  # most mutations are refused


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(10))
def test_J_mutated_positions_slow(name, seed):
    fuzz_positions(name, 2000, seed=100 + seed)  # 5 games × 10 seeds × 2,000 = 10⁵


@pytest.mark.parametrize("name", GAMES)
def test_J_actions_and_players_at_every_door(name):
    rng = random.Random(7)
    game = cardlab.load(name)
    n = game.spec.num_players
    m = cardlab.Match(game, ["random"] * n, seed=3)
    m.play_to_end()
    for s in m.states[::3]:
        words = (s.legal_actions() or [a for a, _ in s.chance_outcomes()] or ["pass"])
        tries = ["", " ", "zz", "play", "draw zz", "0", "1 2 3", "\x00", "あ", "place p07 99,99",
                 *(w + " x" for w in words[:3]), *(w.split()[0] + " " + rng.choice(words).split()[-1] for w in words[:3])]
        before = s.to_dict()
        legal = set(s.legal_actions()) | {a for a, _ in s.chance_outcomes()}
        for a in tries + [None, 3, ["pass"]]:
            for call in (lambda: s.apply(a), lambda: s.explain(a), lambda: s.public_action(a, 0)):
                try:
                    call()
                except CardlabError:
                    pass
                else:
                    assert a in legal, (name, a)
        for p in (True, False, None, -1, n, "0", 0.0):
            for method in ("observation", "information_set", "hidden", "redeal"):
                with pytest.raises(CardlabError, match="a player is a whole number"):
                    getattr(s, method)(p)
        assert s.to_dict() == before


@pytest.mark.parametrize("name", GAMES)
def test_J_options_with_wrong_values_are_refused_clearly(name):
    game = cardlab.load(name)
    for opt in game.OPTIONS:
        for value in WEIRD + ["/dev/zero", "\x00", "../nothing.json"]:
            try:
                g = cardlab.load(name, **{opt: value})
            except CardlabError as exc:
                assert opt in str(exc) or "card" in str(exc).lower() or "deck" in str(exc).lower(), (opt, value, exc)
                continue
            m = cardlab.Match(g, ["random"] * g.spec.num_players, seed=1)
            for _ in range(12):
                if m.is_over():
                    break
                m.step()
            render.html(m.state)


@pytest.mark.parametrize("name", GAMES)
def test_J_mutated_card_files_are_refused_clearly_or_playable(name):
    option, file = CARD_FILES[name]
    data = json.loads(resources.files("cardlab.data").joinpath(file).read_text("utf-8"))
    rng = random.Random(11)
    for i in range(60):
        d, what = mutated(data, rng)
        try:
            g = cardlab.load(name, **{option: d})
        except CardlabError:
            continue
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{name} card file case {i}: {what}: {type(exc).__name__}: {exc}") from exc
        try:
            m = cardlab.Match(g, ["random"] * g.spec.num_players, seed=i)
            for _ in range(30):
                if m.is_over():
                    break
                m.step()
            render.html(m.state)
            render.text(m.state)
        except CardlabError:
            pass
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{name} card file case {i}: {what}: {type(exc).__name__}: {exc}") from exc
