"""The exceptions cardlab raises on purpose; all derive from :class:`CardlabError`."""

from __future__ import annotations

__all__ = [
    "CardlabError",
    "UnknownGameError",
    "OptionError",
    "IllegalActionError",
    "MalformedActionError",
    "PositionError",
    "CardFileError",
    "NotSolvableError",
    "TooLargeError",
    "BudgetError",
]


class CardlabError(Exception):
    """Base class of every error cardlab raises on purpose."""


class UnknownGameError(CardlabError, KeyError):
    """``cardlab.load`` was given a name that is not a registered game."""

    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0])


class OptionError(CardlabError, ValueError):
    """An unknown game option, or a value an option does not accept."""


class IllegalActionError(CardlabError, ValueError):
    """A well-formed action that is not legal in the position it was tried in."""


class MalformedActionError(CardlabError, ValueError):
    """An action that does not parse as the game's notation."""


class PositionError(CardlabError, ValueError):
    """A position dict (``state_from_dict``) that is malformed or inconsistent."""


class CardFileError(CardlabError, ValueError):
    """A card or deck file that is malformed; the message names file, card and field."""


class NotSolvableError(CardlabError, ValueError):
    """A solver was asked for a game or position it does not handle."""


class TooLargeError(CardlabError, RuntimeError):
    """A tree or search went past the size limit it was given."""


class BudgetError(CardlabError, ValueError):
    """A time or work budget (``seconds``, ``nodes``) that is not a positive number."""
