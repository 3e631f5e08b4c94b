"""OpenSpiel adapter: every cardlab game as an OpenSpiel Python game
(optional extra: ``pip install cardlab[openspiel]``).

:func:`register` registers ``cardlab_<name>`` for every cardlab game, so
``pyspiel.load_game("cardlab_mipig", {"options": '{"hand_size": 2}'})`` works
and OpenSpiel's own algorithms (``random_sim_test``, MCTS, CFR,
``alpha_beta_search``, ``expectiminimax``) run on cardlab games.
:func:`openspiel_game` wraps a loaded cardlab game (or starts from any
position) directly.

Game parameters (all strings or ints, as OpenSpiel requires):

``options``       the cardlab options as a JSON object (``"{}"``)
``position``      a ``to_dict()`` position as JSON to start from (``""``: the
                  start of the game)
``max_actions``   the size of the integer action space (default 4096)
``deterministic`` declare the game deterministic (``False``); set it for a
                  position whose remaining play has no chance event, so that
                  ``alpha_beta_search`` accepts it; meeting a chance node then
                  raises an error

Actions: cardlab actions and chance outcomes are strings; the adapter maps
them to integers **lazily, in the order they are first seen, with a stable
mapping** shared by every game object with the same cardlab options in the
process (:class:`ActionMap`): once an id is given it never changes, so
histories, serialisation and tabular policies stay valid.  OpenSpiel needs a
finite action space declared up front: ``num_distinct_actions`` (and
``max_chance_outcomes``) is ``max_actions``; a game that shows more distinct
action strings than that raises :class:`~cardlab.TooLargeError` naming the
limit.  (Enumerating the action space from the rules would mean expanding
every game tree, which is impossible for the full games; pass
``actions=[...]`` to :func:`openspiel_game` to fix the first ids in advance,
for example the actions of a small tree.)

Information states: ``information_state_string(p)`` is perfect recall, as
in :func:`cardlab.tree` with ``merge_transpositions=False``: what ``p`` saw
at each of their earlier decisions, the actions they took, and what they
see now; ``observation_string(p)`` is what ``p`` sees now
(:meth:`~cardlab.State.observation`).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..core import CHANCE, TERMINAL, Game, State
from ..games import load, names as games
from ..errors import CardlabError, TooLargeError
from ..i18n import _

__all__ = ["ActionMap", "register", "openspiel_game", "to_cardlab", "DEFAULT_MAX_ACTIONS", "SHORT_NAME"]

DEFAULT_MAX_ACTIONS = 4096
#: OpenSpiel needs a bound on a game's length; a game without one (a tied janken
#: picked again with no cap, mipig's default) is declared with this many steps,
#: which a random play passes with a probability below 10⁻¹⁰⁰⁰
UNBOUNDED_LENGTH = 10_000
SHORT_NAME = "cardlab_{}"


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise ImportError(_("this needs OpenSpiel, an optional extra: pip install 'cardlab[openspiel]'")) from None
    return pyspiel


class ActionMap:
    """A stable, lazily grown mapping between action strings and integers."""

    def __init__(self, limit: int, game: str = "") -> None:
        self.limit = limit
        self.game = game
        self.ids: dict[str, int] = {}
        self.names: list[str] = []

    def id(self, action: str) -> int:
        k = self.ids.get(action)
        if k is None:
            k = len(self.names)
            if k >= self.limit:
                raise TooLargeError(
                    _("{game}: more than max_actions={limit} distinct actions were met (the next one: {action}); "
                      "load the OpenSpiel game with a larger max_actions").format(
                        game=self.game, limit=self.limit, action=repr(action)))
            self.ids[action] = k
            self.names.append(action)
        return k

    def name(self, k: int) -> str:
        try:
            return self.names[k]
        except IndexError:
            raise CardlabError(_("{game}: action id {id} has not been assigned ({count} ids so far)").format(
                game=self.game, id=k, count=len(self.names))) from None

    def __len__(self) -> int:
        return len(self.names)


_MAPS: dict[tuple, ActionMap] = {}


class _Node:
    """The immutable part of an adapter state, shared by clones: deepcopy
    returns it as is (cardlab states are immutable), pickling goes through
    the game parameters and ``to_dict()``."""

    __slots__ = ("game", "state", "recall")

    def __init__(self, game: Any, state: State, recall: tuple) -> None:
        self.game = game
        self.state = state
        self.recall = recall

    def __deepcopy__(self, memo: dict) -> "_Node":
        return self

    def __copy__(self) -> "_Node":
        return self

    def __reduce__(self) -> tuple:
        return (_unpickle_node, (self.game.cardlab_name, json.dumps(self.game.params_json),
                                 json.dumps(self.state.to_dict(), default=str), self.recall))


_GAMES: dict[tuple, Any] = {}


def _unpickle_node(name: str, params: str, position: str, recall: tuple) -> _Node:
    key = (name, params)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = _classes(name)[0](json.loads(params))
    return _Node(game, game.cardlab_game.state_from_dict(json.loads(position)), recall)


_CLASSES: dict[str, tuple[type, type]] = {}


def _game_type(pyspiel: Any, name: str, game: Game, deterministic: bool) -> Any:
    """The pyspiel.GameType of cardlab game ``name`` (``game``: its options)."""
    GT = pyspiel.GameType
    spec = game.spec
    return GT(
        short_name=SHORT_NAME.format(name),
        long_name=f"cardlab {game.title or name}",
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=(GT.ChanceMode.DETERMINISTIC if deterministic or not spec.chance
                     else GT.ChanceMode.EXPLICIT_STOCHASTIC),
        # a sealed simultaneous pick (mipig's janken) is hidden information too
        information=(GT.Information.PERFECT_INFORMATION if spec.perfect_information and not spec.simultaneous
                     else GT.Information.IMPERFECT_INFORMATION),
        utility=GT.Utility.ZERO_SUM if spec.zero_sum else GT.Utility.GENERAL_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=max(spec.num_players, 2) if name != "monster_cards" else 4,
        min_num_players=2 if name == "monster_cards" else spec.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"options": "{}", "position": "", "max_actions": DEFAULT_MAX_ACTIONS,
                                 "deterministic": False},
    )


class _Observer:
    """The observer of a cardlab game for OpenSpiel: strings only (the observation, or with perfect recall
    the information set and what the player did to reach it)."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(_("cardlab observers take no parameters; passed {params}").format(params=params))
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = None
        self.dict: dict = {}

    def set_from(self, state: Any, player: int) -> None:
        pass

    def string_from(self, state: Any, player: int) -> str:
        s = state._node.state
        if self.perfect_recall:
            return repr((state._node.recall[player], s.information_set(player)))
        return json.dumps(s.observation(player), sort_keys=True, ensure_ascii=False)


def _state_class(pyspiel: Any, name: str) -> type:
    """The pyspiel.State subclass of cardlab game ``name``."""

    class CardlabState(pyspiel.State):
        """An OpenSpiel state wrapping an immutable cardlab state."""

        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._node = _Node(game, game.root_state, tuple(() for _ in range(game.cardlab_game.spec.num_players)))

        @property
        def cardlab_state(self) -> State:
            return self._node.state

        def current_player(self) -> int:
            p = self._node.state.current_player
            if p == TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            if p == CHANCE:
                if self._node.game.deterministic:
                    raise CardlabError(_("{game}: a chance node was reached in a game declared deterministic; "
                                         "load it with deterministic=False").format(game=name))
                return pyspiel.PlayerId.CHANCE
            return p

        def _legal_actions(self, player: int) -> list[int]:
            s = self._node.state
            if player != s.current_player:
                return []
            ids = self._node.game.actions.id
            return sorted(ids(a) for a in s.legal_actions())

        def chance_outcomes(self) -> list[tuple[int, float]]:
            ids = self._node.game.actions.id
            return sorted((ids(a), float(p)) for a, p in self._node.state.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            node = self._node
            s = node.state
            text = self._node.game.actions.name(action)
            p = s.current_player
            recall = node.recall
            if p >= 0:
                recall = recall[:p] + (recall[p] + ((s.information_set(p), text),),) + recall[p + 1:]
            game = node.game
            self._node = _Node(game, s._apply(text), recall)
            game.applied += 1
            if game.node_limit is not None and game.applied > game.node_limit:
                raise TooLargeError(_("{game}: the OpenSpiel search passed node_limit={limit:,} states").format(
                    game=name, limit=game.node_limit))

        def _action_to_string(self, player: int, action: int) -> str:
            return self._node.game.actions.name(action)

        def is_terminal(self) -> bool:
            return self._node.state.current_player == TERMINAL

        def returns(self) -> list[float]:
            return [float(r) for r in self._node.state.returns()]

        def __str__(self) -> str:
            return str(self._node.state)

    return CardlabState


def _game_class(pyspiel: Any, name: str, state_class: type) -> type:
    """The pyspiel.Game subclass of cardlab game ``name``, whose states are ``state_class``."""

    class CardlabGame(pyspiel.Game):
        """A cardlab game as an OpenSpiel game."""

        def __init__(self, params: dict | None = None) -> None:
            params = dict(params or {})
            opts = json.loads(params.get("options", "{}") or "{}")
            self.cardlab_game = load(name, **opts)
            position = params.get("position", "") or ""
            self.root_state = (self.cardlab_game.state_from_dict(json.loads(position)) if position
                               else self.cardlab_game.new_initial_state())
            self.deterministic = bool(params.get("deterministic", False))
            limit = int(params.get("max_actions", DEFAULT_MAX_ACTIONS))
            key = (name, json.dumps(opts, sort_keys=True, default=str), limit)
            self.actions = _MAPS.setdefault(key, ActionMap(limit, name))
            self.applied = 0  # states created by apply_action (search node count)
            self.node_limit: int | None = None  # raise TooLargeError past this many applies
            self.cardlab_name = name
            self.params_json = {k: params[k] for k in sorted(params)}
            spec = self.cardlab_game.spec
            info = pyspiel.GameInfo(
                num_distinct_actions=limit, max_chance_outcomes=limit if spec.chance else 0,
                num_players=spec.num_players, min_utility=float(spec.min_utility),
                max_utility=float(spec.max_utility),
                utility_sum=0.0 if spec.zero_sum else None,
                max_game_length=spec.max_game_length or UNBOUNDED_LENGTH)
            super().__init__(_game_type(pyspiel, name, self.cardlab_game, self.deterministic), info, params)

        def new_initial_state(self) -> Any:
            return state_class(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return _Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    return CardlabGame


def _classes(name: str) -> tuple[type, type]:
    """The pyspiel Game and State subclasses for cardlab game ``name``."""
    if name in _CLASSES:
        return _CLASSES[name]
    pyspiel = _pyspiel()
    CardlabState = _state_class(pyspiel, name)
    CardlabGame = _game_class(pyspiel, name, CardlabState)
    CardlabGame.__name__ = CardlabGame.__qualname__ = f"Cardlab_{name}_Game"
    CardlabState.__name__ = CardlabState.__qualname__ = f"Cardlab_{name}_State"
    globals()[CardlabGame.__name__] = CardlabGame  # pickling finds the classes by name
    globals()[CardlabState.__name__] = CardlabState
    default = load(name)
    pyspiel.register_game(_game_type(pyspiel, name, default, False), CardlabGame)
    _CLASSES[name] = (CardlabGame, CardlabState)
    return _CLASSES[name]


def register(names: Iterable[str] | None = None) -> list[str]:
    """Register cardlab games with OpenSpiel as ``cardlab_<name>`` (all of
    them by default); returns the OpenSpiel short names.  Calling it again
    does nothing new."""
    out = []
    for name in (games() if names is None else names):
        _classes(name)
        out.append(SHORT_NAME.format(name))
    return out


def openspiel_game(source: Game | State, *, max_actions: int = DEFAULT_MAX_ACTIONS,
                   deterministic: bool = False, actions: Iterable[str] = ()) -> Any:
    """An OpenSpiel game object for a cardlab game (starting at its usual
    start) or for a position (its ``new_initial_state()`` is that position).

    ``actions`` assigns the first integer ids in that order (when they are
    not assigned yet).
    """
    game = source if isinstance(source, Game) else source.game
    cls, _ = _classes(game.name)
    params: dict[str, Any] = {"options": json.dumps(game.options_dict(), sort_keys=True, default=str),
                              "max_actions": max_actions, "deterministic": deterministic}
    if isinstance(source, State):
        params["position"] = json.dumps(source.to_dict(), default=str)
    g = cls(params)
    for a in actions:
        g.actions.id(a)
    return g


def to_cardlab(state: Any) -> State:
    """The cardlab state inside an adapter state."""
    return state._node.state
