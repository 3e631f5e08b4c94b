"""The game protocol every cardlab game follows: ``Game`` and ``State``.

A :class:`Game` is an immutable configuration (its name and options) and a
factory of states.  A :class:`State` is an immutable, hashable position:
``apply(action)`` returns a new state and never changes the one it was called
on.  Actions are short strings in the game's notation (``"nobori higoi"``);
chance is a pseudo-player (:data:`CHANCE`) whose outcomes come with exact
:class:`fractions.Fraction` probabilities.

Each game's package under :mod:`cardlab.games` subclasses both; the
catalogue (:mod:`cardlab.games`) lists the games and loads them by name.
"""

from __future__ import annotations

import json
import math
import numbers
import random
import re
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Iterable, Mapping, Sequence

from .errors import (
    CardlabError,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    PositionError,
)
from .i18n import N_, _, pgettext

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Spec",
    "Hidden",
    "Option",
    "Game",
    "State",
    "make_rng",
    "sample_chance",
]

#: ``State.current_player`` at a chance node (a card is drawn, a deck shuffled).
CHANCE = -1
#: ``State.current_player`` once the game is over.
TERMINAL = -2

Action = str
Seed = "int | random.Random | None"


def make_rng(seed: int | random.Random | None = None) -> random.Random:
    """Turn ``seed`` (``None``, an int or a ``random.Random``) into a ``Random``.

    >>> make_rng(3).random() == make_rng(3).random()
    True
    """
    if isinstance(seed, random.Random):
        return seed
    if seed is None or isinstance(seed, int):
        return random.Random(seed)
    raise TypeError(f"seed must be None, an int or a random.Random, not {seed!r}")


def sample_chance(state: "State", rng: random.Random) -> Action:
    """Draw one outcome of a chance node, exactly by its rational probability."""
    outcomes = state.chance_outcomes()
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    k = rng.randrange(denominator)
    for action, p in outcomes:
        k -= p.numerator * (denominator // p.denominator)
        if k < 0:
            return action
    raise AssertionError("chance probabilities do not sum to 1")  # pragma: no cover


@dataclass(frozen=True)
class Spec:
    """What a game declares about itself; solvers check it before they start.

    ``max_game_length`` bounds the number of transitions (player and chance
    actions) from the initial state to any terminal state (``None``: no
    bound, as when a tied choice may repeat without a cap).
    ``perfect_information`` says that no card is hidden; ``simultaneous``
    that some choices are made at once (:meth:`State.simultaneous`), which
    the solvers take as matrix games.
    """

    num_players: int
    chance: bool
    perfect_information: bool
    min_utility: Fraction
    max_utility: Fraction
    max_game_length: int | None
    zero_sum: bool = True
    simultaneous: bool = False


@dataclass(frozen=True)
class Option:
    """One game option: its default, what it means, and what it accepts."""

    default: Any
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = None
    accepts: str = ""
    #: a short name for a page (with the rule text's own term where it has one),
    #: and words for choices that do not read as themselves (``{None: "coin"}``)
    label: str = ""
    choice_words: Mapping[Any, str] | None = None

    def title(self, name: str) -> str:
        """The option's short label: :attr:`label`, else ``name`` in words."""
        return _(self.label) if self.label else _option_words().get(name, name.replace("_", " "))

    def choice_text(self, choice: Any) -> str:
        """How ``choice`` reads on a page."""
        words = self.choice_words or {}
        if choice in words:
            return _(words[choice]) if words[choice] else words[choice]
        if choice is None:
            return _("none")
        if choice is True or choice is False:
            return pgettext("option choice", "True") if choice else pgettext("option choice", "False")
        return _choice_words().get(choice, str(choice)) if isinstance(choice, str) else str(choice)


    def validate(self, name: str, value: Any, game: str) -> Any:
        """``value`` if the option accepts it (a whole number of another type,
        such as numpy's, as an ``int``), else :class:`OptionError`.

        Values are compared by kind as well as by ``==``: ``1.0``,
        ``Decimal("1")`` and ``True`` all equal ``1`` but are not the choice
        ``1``, and an option whose default is a whole number takes only whole
        numbers, whatever its ``check`` says.
        """
        value = _whole(value)
        if self.choices is not None:
            ok = any(_same_kind(value, c) and value == c for c in self.choices)
        else:
            ok = not _is_int(self.default) or _is_int(value)
        if ok and self.check is not None:
            ok = self.check(value)
        if not ok:
            accepted = _(self.accepts) if self.accepts else pgettext("alternatives", " or ").join(
                repr(c) for c in self.choices or ())
            raise OptionError(
                _("{game}: option {name}={value} is not accepted; {name} accepts {accepted}").format(
                    game=game, name=name, value=repr(value), accepted=accepted))
        return value


def _is_int(value: Any) -> bool:
    return type(value) is int


def _whole(value: Any) -> Any:
    """A whole number of a type other than ``int`` and ``bool`` (numpy's) as an ``int``."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (int, bool)):
        return int(value)
    return value


def _same_kind(value: Any, choice: Any) -> bool:
    """Whether ``value`` may stand for ``choice``: the same type (``True`` is not ``1``, nor ``1.0``)."""
    return type(value) is type(choice)


def _option_words() -> dict[str, str]:
    """Options without a :attr:`Option.label`: their names in words, in the current language."""
    return {
        "open_hands": pgettext("option", "open hands"),
        "payoff": pgettext("option", "payoff"),
        "deck": pgettext("option", "deck"),
        "decks": pgettext("option", "decks"),
        "deck0": pgettext("option", "deck0"),
        "deck1": pgettext("option", "deck1"),
        "cards": pgettext("option", "cards"),
        "hands": pgettext("option", "hands"),
        "affinity": pgettext("option", "affinity"),
        "costs": pgettext("option", "costs"),
        "mulligan": pgettext("option", "mulligan"),
        "first_player": pgettext("option", "first player"),
    }


def _choice_words() -> dict[str, str]:
    """Choices of options that read as themselves in English (``"score"``), in the current language."""
    return {
        "win": pgettext("option choice", "win"),
        "score": pgettext("option choice", "score"),
        "random": pgettext("option choice", "random"),
        "janken": pgettext("option choice", "janken"),
        "value": pgettext("option choice", "value"),
        "draw": pgettext("option choice", "draw"),
        "own": pgettext("option choice", "own"),
        "shared": pgettext("option choice", "shared"),
        "face_up": pgettext("option choice", "face_up"),
        "all_on_field": pgettext("option choice", "all_on_field"),
        "distinct": pgettext("option choice", "distinct"),
        "per_monster": pgettext("option choice", "per_monster"),
        "attacker": pgettext("option choice", "attacker"),
        "both_to_ruins": pgettext("option choice", "both_to_ruins"),
        "attacker_stays": pgettext("option choice", "attacker_stays"),
        "no_attack": pgettext("option choice", "no_attack"),
        "attacks": pgettext("option choice", "attacks"),
        "takes_attack": pgettext("option choice", "takes_attack"),
        "free": pgettext("option choice", "free"),
    }


BOOL = (False, True)


def bool_option(doc: str, default: bool = False, label: str = "") -> Option:
    return Option(default, doc, choices=BOOL, check=lambda v: isinstance(v, bool),
                  accepts=N_("True or False"), label=label)


@dataclass(frozen=True)
class Hidden:
    """What one player cannot see: the unseen ``cards`` (repeats allowed)
    and the ``places`` they fill, in order, as ``(name, size)`` pairs whose
    sizes add up to ``len(cards)``: the opponent's hand, each face-down
    square, the deck, the cards left out of the game.

    ``build(contents)`` returns the position with ``contents[i]`` in place
    ``i`` (a sorted tuple, or in order for the places named in
    ``ordered``), or ``None`` when that filling contradicts what the player
    saw.  Every filling is equally likely before the player's observations
    are taken into account (cards are dealt at random), so a filling's
    probability follows from counting: see :func:`cardlab.hidden.arrangements`.
    """

    cards: tuple
    places: tuple[tuple[str, int], ...]
    build: Callable[[tuple[tuple, ...]], "State | None"]
    ordered: frozenset[str] = frozenset()
    #: independent groups: how many places each has, in order (default: one
    #: group).  The cards of a group fill only its places: each other
    #: player's own cards, say, which can never end in a third player's hand.
    groups: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if sum(n for _, n in self.places) != len(self.cards):
            raise ValueError(f"the places hold {sum(n for _, n in self.places)} cards, "
                             f"but {len(self.cards)} are hidden")
        if self.groups and sum(self.groups) != len(self.places):
            raise ValueError(f"the groups have {sum(self.groups)} places, not {len(self.places)}")

    def split(self) -> list[tuple[tuple, tuple[tuple[str, int], ...]]]:
        """The independent groups as ``(cards, places)`` pairs."""
        out, c, k = [], 0, 0
        for n in self.groups or (len(self.places),):
            places = self.places[k:k + n]
            size = sum(s for _, s in places)
            out.append((self.cards[c:c + size], places))
            c, k = c + size, k + n
        return out


class Game:
    """An immutable game configuration and the factory of its states.

    Subclasses set ``name``, ``title``, ``OPTIONS``, ``ACTION_GRAMMAR`` and
    implement :meth:`_make_spec`, :meth:`_root` and :meth:`_state_from_dict`.
    """

    name: ClassVar[str]
    title: ClassVar[str] = ""
    rules: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, Option]] = {}
    #: one line describing the action notation, shown in error messages
    ACTION_GRAMMAR: ClassVar[str] = ""
    #: a regular expression every well-formed action (player or chance) matches
    ACTION_RE: ClassVar[re.Pattern[str]] = re.compile(r".+")

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise OptionError(
                _("{game}: unknown option {names}; accepted options: {accepted}").format(
                    game=self.name, names=", ".join(map(repr, unknown)),
                    accepted=", ".join(sorted(self.OPTIONS))))
        values = {k: o.default for k, o in self.OPTIONS.items()}
        for k, v in options.items():
            values[k] = self.OPTIONS[k].validate(k, v, self.name)
        self.options: Mapping[str, Any] = MappingProxyType(values)
        self._setup()
        self.spec: Spec = self._make_spec()

    # -- for subclasses ---------------------------------------------------
    def _setup(self) -> None:
        """Prepare tables from the options (card data, points)."""

    def _make_spec(self) -> Spec:
        raise NotImplementedError

    def _root(self) -> "State":
        raise NotImplementedError

    def _state_from_dict(self, d: Mapping[str, Any]) -> "State":
        raise NotImplementedError

    # -- public -----------------------------------------------------------
    def new_initial_state(self, seed: int | random.Random | None = None) -> "State":
        """The start of a game.

        With ``seed=None`` this is the root of the game tree (usually a chance
        node: the deal).  With a seed, the opening chance events (the deal) are
        sampled with that seed until the first player decision.
        """
        state = self._root()
        if seed is None:
            return state
        rng = make_rng(seed)
        while state.current_player == CHANCE:
            state = state._apply(sample_chance(state, rng))
        return state

    def state_from_dict(self, d: Mapping[str, Any]) -> "State":
        """Rebuild a state from :meth:`State.to_dict` output (JSON-able).

        Refused with :class:`~cardlab.PositionError` naming the field: what
        ``to_dict`` never writes (floats, NaN, ``Decimal``, objects that are
        not JSON, nesting deeper than :data:`MAX_POSITION_DEPTH`, numbers
        beyond ±10⁹), what the game's own checks refuse, and a position that
        cannot be played on (a player to move with no move, a chance event
        with no outcome or whose chances do not sum to 1, one that does not
        survive a save and load)."""
        if not isinstance(d, Mapping):
            raise PositionError(_("{game}: a position must be a dict, not {type}").format(
                game=self.name, type=type(d).__name__))
        problem = _not_json(d)
        if problem:
            raise PositionError(_("{game}: {problem}").format(game=self.name, problem=problem))
        if d.get("game", self.name) != self.name:
            raise PositionError(
                _("{game}: this position is for game {other}; load that game with cardlab.load({other})").format(
                    game=self.name, other=repr(d.get("game"))))
        try:
            state = self._state_from_dict(d)
            self._playable(state)
        except PositionError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as exc:
            raise PositionError(_("{game}: malformed position: {error}: {detail}").format(
                game=self.name, error=type(exc).__name__, detail=str(exc)[:300])) from None
        return state

    def _playable(self, state: "State") -> None:
        """A loaded position can be played on: someone or chance can move,
        or the game is over; it survives a save and load unchanged."""
        p = state.current_player
        if p == CHANCE:
            outcomes = state.chance_outcomes()
            if not outcomes:
                raise PositionError(_("{game}: chance is to act here but has no outcome").format(game=self.name))
            if sum(prob for _, prob in outcomes) != 1:
                raise PositionError(_("{game}: the chance outcomes here do not sum to 1").format(game=self.name))
        elif p == TERMINAL:
            state.returns()
        elif type(p) is not int or not 0 <= p < self.spec.num_players:
            raise PositionError(_("{game}: the player to move is {player}, not a player 0..{last}").format(
                game=self.name, player=repr(p), last=self.spec.num_players - 1))
        elif not state.legal_actions():
            raise PositionError(_("{game}: player {player} is to move here but has no legal move").format(
                game=self.name, player=p))
        saved = state.to_dict()
        json.dumps(saved, allow_nan=False)
        if self._state_from_dict(saved) != state:
            raise PositionError(_("{game}: the position changes when saved and loaded again").format(
                game=self.name))

    def with_options(self, **changes: Any) -> "Game":
        """The same game with some options changed."""
        return type(self)(**{**self.options, **changes})

    def options_dict(self) -> dict[str, Any]:
        """The options that differ from their defaults (for ``to_dict``)."""
        return {k: v for k, v in self.options.items() if v != self.OPTIONS[k].default}

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Game) and other.name == self.name
                and dict(other.options) == dict(self.options))

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(dict(self.options), sort_keys=True, default=str)))

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.options_dict().items())
        return f"cardlab.load({self.name!r}{opts})"


class State:
    """An immutable, hashable game position.

    Subclasses keep the whole position in the tuple ``self._k`` (the canonical
    key: equal positions have equal keys) and implement the protocol methods.
    """

    __slots__ = ("game", "_k", "_h")
    game: Game  # set once in __init__ (declared for the type checkers: mypyc compiles its users)

    #: protocol methods that take a player (and those that take an action):
    #: :meth:`__init_subclass__` makes every game refuse a bad one, as apply() does
    _TAKE_PLAYER = ("information_set", "observation", "redeal", "heuristic", "hidden")
    _TAKE_ACTION = ("explain", "public_action")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls._TAKE_PLAYER + cls._TAKE_ACTION:
            fn = getattr(cls, name)  # its own, or a mixin's (a game's views in a module of their own)
            if not getattr(fn, "_checked", False):
                setattr(cls, name, _checked(fn, name in cls._TAKE_ACTION))

    def __init__(self, game: Game, key: tuple) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "_k", key)
        object.__setattr__(self, "_h", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; use apply()")

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and other._k == self._k  # type: ignore[attr-defined]
                and (other.game is self.game or other.game == self.game))  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        h = self._h
        if h is None:
            h = hash(self._k)
            object.__setattr__(self, "_h", h)
        return h

    # -- the protocol (subclasses) ------------------------------------------
    @property
    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def legal_actions(self) -> list[Action]:
        """The legal player actions in canonical order (empty at chance and terminal nodes)."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """``(outcome, probability)`` pairs summing to exactly 1 (empty unless chance)."""
        return []

    def _apply(self, action: Action) -> "State":
        """Apply a legal action or outcome without checking it (solvers use this)."""
        raise NotImplementedError

    def returns(self) -> list:
        """One payoff per player (zeros before the end)."""
        raise NotImplementedError

    def information_set(self, player: int) -> tuple:
        """Hashable; equal for states that ``player`` cannot tell apart."""
        return (self.game.name, json.dumps(self.observation(player), sort_keys=True))

    def observation(self, player: int) -> dict[str, Any]:
        """JSON-able view of what ``player`` may see now."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-able description; ``game.state_from_dict`` rebuilds the state."""
        raise NotImplementedError

    def redeal(self, player: int, seed: int | random.Random | None = None) -> "State":
        """A state ``player`` cannot tell from this one, with every card they
        cannot see dealt anew at random (a determinization).  Perfect
        information games return the state itself."""
        return self

    def heuristic(self, player: int) -> float:
        """A quick estimate of how well ``player`` stands, from what that player
        can see; the heuristic agent uses it.  Default: the payoff at the end,
        0 before."""
        return float(self.returns()[player]) if self.is_terminal() else 0.0

    def explain(self, action: Action) -> str:
        """One line on what ``action`` does here and which rule makes it so."""
        return action

    def public_action(self, action: Action, viewer: int) -> Action:
        """What ``viewer`` may know of ``action`` (a player action or a chance
        outcome) played here: the action with each word the viewer cannot
        know replaced by ``??`` (``"place ?? 1,3"``: a card laid face down on
        a public square), or ``"??"`` when nothing of it is known.

        The answer must be the same for every state and move that ``viewer``
        cannot tell apart, before and after (the leak test checks it on
        every game): it may depend on the public kind of the move, never on
        which hidden cards happen to be where.  An actor knows their own
        move.  Default: a game with perfect information shows every move; a
        game with hidden cards that says nothing shows nothing of the other
        players' moves and of chance.
        """
        if self.game.spec.perfect_information or viewer == self.current_player:
            return action
        return "??"

    def simultaneous(self) -> tuple[int, ...]:
        """The players who make one choice at once from here, the mover
        first (``(0, 1)``), or ``()`` at an ordinary node.

        A simultaneous choice is written in two levels, as Gambit writes it:
        the mover picks here; the next player then picks without seeing that
        pick (their information set and observation leave it out, and
        :meth:`public_action` hides it, open hands or not: open hands show
        cards, never a choice not yet made); the two picks take effect
        together.  The solvers take the pair as one zero-sum matrix game
        (:mod:`cardlab.matrix`); a pair whose tie leads back to this
        very position is a choice played again on a tie, solved as its fixed
        point."""
        return ()

    def simultaneous_start(self) -> "State | None":
        """At the second level of a simultaneous choice (the mover picks
        after another player's unseen pick): the position where that choice
        began, without the pick; ``None`` elsewhere.  The hint of the second
        picker comes from there, never from the pick it cannot see."""
        return None

    def hidden(self, player: int) -> "Hidden | None":
        """The cards ``player`` cannot see and the places they fill (a
        :class:`Hidden`), or ``None`` when that player sees every card.
        :func:`cardlab.hidden.arrangements` enumerates from it every position
        the player cannot tell from this one, with its exact probability;
        the fair hint averages over them."""
        return None

    # -- shared behaviour ---------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def apply(self, action: Action) -> "State":
        """The state after ``action`` (a player action or a chance outcome).

        Raises :class:`~cardlab.MalformedActionError` for text that is not the
        game's notation and :class:`~cardlab.IllegalActionError` for an action
        that is not legal here; ``self`` is never changed.
        """
        if not isinstance(action, str):
            raise MalformedActionError(
                _("{game}: an action is a string in the game's notation ({grammar}), not {action}").format(
                    game=self.game.name, grammar=_grammar(self.game), action=repr(action)))
        text = " ".join(action.split())
        if not self.game.ACTION_RE.fullmatch(text):
            raise MalformedActionError(
                _("{game}: {action} is not an action; the notation is {grammar}").format(
                    game=self.game.name, action=repr(action), grammar=_grammar(self.game)))
        if self.current_player == CHANCE:
            legal = [a for a, _ in self.chance_outcomes()]
        else:
            legal = self.legal_actions()
        if text not in legal:
            raise self._illegal(action, legal)
        return self._apply(text)

    def _illegal(self, action: Action, legal: Sequence[Action]) -> IllegalActionError:
        """The error for an action that is not legal here.  It names the legal
        player actions, never the position or chance's outcomes (which can
        name hidden cards), since a message can reach a player's screen."""
        p = self.current_player
        if p == CHANCE:
            return IllegalActionError(
                _("{game}: {action} is not a chance outcome here (chance_outcomes() lists them)").format(
                    game=self.game.name, action=repr(action)))
        if p == TERMINAL:
            return IllegalActionError(_("{game}: {action} is not legal here: the game is over").format(
                game=self.game.name, action=repr(action)))
        return IllegalActionError(
            _("{game}: {action} is not legal here (player {player} to move). Legal: {legal}").format(
                game=self.game.name, action=repr(action), player=p,
                legal=", ".join(legal) if legal else _("none")))

    def _check_player(self, player: Any, what: str) -> None:
        n = self.game.spec.num_players
        if type(player) is not int or not 0 <= player < n:
            raise CardlabError(_("{game}: {call}: a player is a whole number 0..{last}").format(
                game=self.game.name, call=f"{what}({player!r})", last=n - 1))

    def _check_action(self, action: Any, what: str) -> None:
        legal = ([a for a, _ in self.chance_outcomes()] if self.current_player == CHANCE
                 else self.legal_actions())
        if action not in legal:
            if not isinstance(action, str):
                raise MalformedActionError(
                    _("{game}: {call}: an action is a string in the game's notation ({grammar})").format(
                        game=self.game.name, call=f"{what}({action!r})", grammar=_grammar(self.game)))
            raise self._illegal(action, legal)

    def child(self, action: Action) -> "State":
        """Alias of :meth:`apply` (OpenSpiel's name)."""
        return self.apply(action)

    def __repr__(self) -> str:
        return f"{self.game!r}.state_from_dict({json.dumps(self.to_dict(), ensure_ascii=False)})"

    def _repr_html_(self) -> str:
        # The one import that runs back up (tests/test_architecture.py allows
        # exactly this edge): the engine draws itself in a notebook by asking the
        # renderer, imported lazily here so that the rules know nothing of display
        # at import time, as python-chess's Board._repr_svg_ imports chess.svg.
        from . import render

        return render.html(self)


def _grammar(game: Game) -> str:
    """The game's action notation line (:attr:`Game.ACTION_GRAMMAR`) as a person reads it."""
    return _(game.ACTION_GRAMMAR) if game.ACTION_GRAMMAR else ""


# -- the registry -----------------------------------------------------------


#: how deep a position's JSON may nest (``to_dict`` writes at most a few levels)
MAX_POSITION_DEPTH = 24
_MAX_NUMBER = 10**9


def _not_json(value: Any, path: str = "", depth: int = 0, floats: bool = False) -> str:
    """What in ``value`` a :meth:`State.to_dict` never writes ("" if nothing):
    the first such place, by its path.  ``floats``: finite floats are fine
    (card files may hold them)."""
    where = path or _("the position")
    if depth > MAX_POSITION_DEPTH:
        return _("{where} is nested more than {depth} deep; a position is a few levels of JSON").format(
            where=where, depth=MAX_POSITION_DEPTH)
    if value is None or isinstance(value, (str, bool)):
        return ""
    if isinstance(value, int):
        return "" if -_MAX_NUMBER <= value <= _MAX_NUMBER else _("{where}: {value} is out of range (±10⁹)").format(
            where=where, value=value)
    if isinstance(value, float):
        if floats and value == value and abs(value) != float("inf"):
            return ""
        return _("{where}: {value} is not a whole number; a position holds whole numbers, words, lists and "
                 "objects").format(where=where, value=repr(value))
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not isinstance(k, str):
                return _("{where}: the key {key} is not a string").format(where=where, key=repr(k))
            problem = _not_json(v, f"{path}.{k}" if path else k, depth + 1, floats)
            if problem:
                return problem
        return ""
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            problem = _not_json(v, f"{where}[{i}]", depth + 1, floats)
            if problem:
                return problem
        return ""
    return _("{where}: a {type} is not JSON; a position holds whole numbers, words, lists and objects").format(
        where=where, type=type(value).__name__)


def _checked(fn: Callable[..., Any], takes_action: bool) -> Callable[..., Any]:
    """``fn`` (a protocol method of a game's State) refusing a bad player or
    an action that is not legal here with the errors of :meth:`State.apply`."""
    import functools

    name = fn.__name__
    if takes_action:
        @functools.wraps(fn)
        def method(self: State, action: Any, *args: Any, **kwargs: Any) -> Any:
            self._check_action(action, name)
            if args:  # public_action(action, viewer)
                self._check_player(args[0], name)
            return fn(self, action, *args, **kwargs)
    else:
        @functools.wraps(fn)
        def method(self: State, player: Any, *args: Any, **kwargs: Any) -> Any:
            self._check_player(player, name)
            return fn(self, player, *args, **kwargs)
    method._checked = True  # type: ignore[attr-defined]
    return method


for _name in State._TAKE_PLAYER + State._TAKE_ACTION:  # the defaults too
    setattr(State, _name, _checked(State.__dict__[_name], _name in State._TAKE_ACTION))


def check_keys(d: Mapping[str, Any], required: Iterable[str], where: str) -> None:
    """Raise :class:`PositionError` naming the missing and unexpected fields."""
    required = set(required)
    missing = sorted(required - set(d))
    extra = sorted(set(d) - required - {"game", "options"})
    if missing or extra:
        raise PositionError(
            _("{where}: position fields missing: {missing}; unexpected: {extra}; expected exactly: {expected}").format(
                where=where, missing=missing or _("none"), extra=extra or _("none"), expected=sorted(required)))


def fraction_list(values: Sequence[Any]) -> list[Fraction]:
    return [Fraction(v) for v in values]
