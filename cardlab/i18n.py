"""The language people read cardlab in: English (``"en"``) or Japanese (``"ja"``).

Every text a person reads (board labels, the log, move explanations, battle
reports, hints, error messages, CLI help and output) is written in English in
the source and passed through :func:`_` (or :func:`ngettext`), the standard
``gettext`` calls.  The Japanese catalogue is
``cardlab/locale/ja/LC_MESSAGES/cardlab.po``, compiled to ``cardlab.mo``
beside it (``make catalogues`` extracts, updates and compiles them with
Babel; the compiled file ships in the wheel).

Placeholders are named and filled after translation, so a translation may put
them in any order::

    _("{player} plays {card}").format(player=..., card=...)

A text written at import time (a table of labels) is marked with :func:`N_`
and translated where it is shown: ``_(LABELS[key])``.

The language is chosen, most specific first, by :func:`using` (a block of
code, as a board with ``language="ja"`` renders itself), :func:`set_language`
(the whole session), and the ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` and
``LANG`` environment variables (the first one set decides; ``ja_JP.UTF-8``
means Japanese).

>>> from cardlab import i18n
>>> with i18n.using("en"):
...     i18n._("player {player} to move").format(player=0)
'player 0 to move'
>>> with i18n.using("ja"):
...     i18n._("player {player} to move").format(player=0)
'プレイヤー0の番'
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import os
from pathlib import Path
from typing import Iterator

from .errors import OptionError

__all__ = [
    "LANGUAGES", "DOMAIN", "LOCALE_DIR", "_", "N_", "ngettext", "pgettext", "npgettext",
    "set_language", "get_language", "using", "language_from_environment", "check_language",
]

#: the languages cardlab speaks, with their names in themselves
LANGUAGES = {"en": "English", "ja": "日本語"}
DOMAIN = "cardlab"
LOCALE_DIR = Path(__file__).parent / "locale"

_session: str | None = None  # set_language
_block: contextvars.ContextVar[str | None] = contextvars.ContextVar("cardlab_language", default=None)
_catalogues: dict[str, _gettext.NullTranslations] = {}
#: when a list, every msgid looked up is appended (tests: "no text escapes the catalogue")
_record: list[tuple[str, str | None]] | None = None


def check_language(language: str) -> str:
    """``language`` if cardlab speaks it (``"ja_JP.UTF-8"`` reads as ``"ja"``), else
    an :class:`~cardlab.errors.OptionError` naming the accepted ones."""
    code = str(language).strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    if code not in LANGUAGES:
        raise OptionError(
            f"unknown language {language!r}; cardlab speaks "
            + ", ".join(f"{k!r} ({v})" for k, v in LANGUAGES.items()))
    return code


def language_from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for: the first of ``LANGUAGE`` (a
    colon-separated list: its first language cardlab speaks), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set; English when none is, or when it
    names a language cardlab does not speak (``C``, ``POSIX``, ``fr_FR``)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "").strip()
        if not value:
            continue
        for part in value.split(":"):
            with contextlib.suppress(OptionError):
                return check_language(part)
        return "en"
    return "en"


def get_language() -> str:
    """The language texts are produced in right now."""
    return _block.get() or _session or language_from_environment()


def set_language(language: str) -> str:
    """Speak ``language`` (``"en"`` or ``"ja"``) from now on, everywhere a block
    (:func:`using`) or a board's own ``language=`` does not say otherwise.
    Returns the language code."""
    global _session
    _session = check_language(language)
    return _session


@contextlib.contextmanager
def using(language: str | None) -> Iterator[str]:
    """A block of code that speaks ``language`` (``None``: the current one)."""
    code = get_language() if language is None else check_language(language)
    token = _block.set(code)
    try:
        yield code
    finally:
        _block.reset(token)


def catalogue(language: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English: the texts themselves)."""
    if language not in _catalogues:
        if language == "en":
            _catalogues[language] = _gettext.NullTranslations()
        else:
            _catalogues[language] = _gettext.translation(
                DOMAIN, localedir=str(LOCALE_DIR), languages=[language])
    return _catalogues[language]


def _(message: str) -> str:
    """``message`` in the current language."""
    if _record is not None:
        _record.append((message, None))
    return catalogue(get_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` by ``n``, in the current language."""
    if _record is not None:
        _record.append((singular, None))
    return catalogue(get_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English
    word in another ``context`` (``pgettext("janken", "rock")``)."""
    if _record is not None:
        _record.append((message, context))
    return catalogue(get_language()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` told apart by ``context``, as :func:`pgettext`."""
    if _record is not None:
        _record.append((singular, context))
    return catalogue(get_language()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now."""
    return message


def translated(msgid: str | None, said: str) -> str:
    """``msgid`` translated when the catalogue has it, else ``said`` (what the
    operating system or Python said, for messages cardlab does not write)."""
    if msgid is None:
        return said
    text = _(msgid)
    return said if text == msgid else text
