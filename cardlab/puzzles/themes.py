"""The themes of a puzzle, tagged by the program from what happens in its solution.

Each game's moves are explained in words by ``State.explain`` (the move's
rules cited by id, as docs/rules/*.md numbers them).  A theme is a pattern
in the English explanation of a move of the solution line (the mover's moves
and the replies between them) and the rule id it teaches, so a teacher can
ask for "puzzles on MP-20".  The patterns match what *happens* ("… is
knocked out at once"), not what a sentence merely mentions ("uses no
substitute" is no substitute).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ..i18n import N_, _, using

__all__ = ["Theme", "THEMES", "tag", "theme_names", "rule_of"]


@dataclass(frozen=True)
class Theme:
    """A theme: its ``key`` (what a bank stores), the ``rule`` id it teaches,
    its English ``name`` (translated by :meth:`title`) and the ``pattern``
    (a regular expression) an explanation of a solution move must match;
    ``mover_only``: only the mover's own moves count."""

    key: str
    rule: str
    name: str
    pattern: str
    mover_only: bool = False

    def title(self) -> str:
        return _(self.name)

    def found(self, texts: Iterable[tuple[bool, str]]) -> bool:
        return any(re.search(self.pattern, text) for mine, text in texts if mine or not self.mover_only)


THEMES: dict[str, tuple[Theme, ...]] = {
    "mipig": (
        Theme("attribute_bonus", "MP-20", N_("attribute bonus"), r"MP-19/MP-20\)"),
        Theme("janken_tie", "MP-14", N_("janken tie"), r"Equal numbers: janken marks"),
        Theme("attack", "MP-11", N_("attack order"), r" attacks .*\(MP-11\)", mover_only=True),
        Theme("placement", "MP-7", N_("placement (配置フェーズ)"), r"lays .* face down", mover_only=True),
        Theme("capture", "MP-15", N_("card to the graveyard"), r"goes to its owner's graveyard"),
    ),
    "koinobori": (
        Theme("nobori", "KN-8", N_("nobori のぼり"), r"captures a nobori", mover_only=True),
        Theme("kabutogaeshi", "KN-11", N_("kabutogaeshi かぶとがえし"), r"uses kabutogaeshi"),
        Theme("play_and_draw", "KN-10", N_("play and draw"), r"plays \w+ to the field", mover_only=True),
        Theme("fukinagashi", "KN-9", N_("fukinagashi"), r"fukinagashi pairs|KN-9"),
        Theme("koikoi", "KN-15", N_("koi-koi こいこい"), r"KN-15"),
    ),
    "mazemon": (
        Theme("ko", "MZ-12", N_("KO 一撃"), r"knocked out at once"),
        Theme("substitute", "MZ-19", N_("substitute (みがわり)"), r"(?<!uses no )substitute.*MZ-19|uses みがわり|みがわり\)"),
        Theme("direct_attack", "MZ-22", N_("direct attack ちょくせつこうげき"), r"attacks directly"),
        Theme("summon", "MZ-7", N_("summon (しゅつげん)"), r"summons .*MZ-7", mover_only=True),
        Theme("charge", "MZ-6", N_("charge (チャージ)"), r"charges .*MZ-6", mover_only=True),
        Theme("three_captured", "MZ-23", N_("third capture"), r"MZ-23"),
    ),
    "monster_cards": (
        Theme("scale", "MC-15", N_("the scale"), r"defence (succeeds|fails)|draw \(引き分け\)"),
        Theme("defence_success", "MC-18", N_("defence succeeds 防衛成功"), r"defence succeeds"),
        Theme("replacing", "MC-11", N_("replacing the attack card"), r"pushing .* to the ruins"),
        Theme("skill", "MC-4", N_("skill"), r"for its skill|MC-4"),
        Theme("out", "MC-19", N_("putting a player out"), r"MC-19"),
    ),
    "toritsuki": (
        Theme("possession", "TK-19", N_("possession"), r"possesses \(とりつく!\)|it possesses \(TK-19\)"),
        Theme("block", "TK-17", N_("blocking"), r"blocks \(ブロック\)"),
        Theme("no_block", "TK-18", N_("no block"), r"does not block"),
        Theme("summon", "TK-13", N_("summon 召喚"), r"summons \(召喚\)", mover_only=True),
        Theme("event", "TK-24", N_("event イベント"), r"uses the event", mover_only=True),
        Theme("damage_win", "TK-6", N_("sixth damage"), r"TK-6"),
        Theme("no_possession", "TK-19", N_("no possession とりつかない"), r"does not possess \(TK-19\)", mover_only=True),
        Theme("bp_duel", "TK-21", N_("BP duel BP勝負"), r"BP duel \(BP勝負"),
        Theme("attack", "TK-16", N_("attack アタック"), r"attacks \(アタック\)", mover_only=True),
    ),
}


def _themes(game: str) -> tuple[Theme, ...]:
    return THEMES.get(game, ())


def tag(game: str, texts: Iterable[tuple[bool, str]]) -> list[str]:
    """The keys of the themes found in ``texts``: ``(the mover's move?,
    English explanation)`` of each move of a solution line."""
    texts = list(texts)
    return [t.key for t in _themes(game) if t.found(texts)]


def explain_english(state, action: str) -> str:
    """``state.explain(action)`` in English (what the theme patterns read)."""
    with using("en"):
        return state.explain(action)


def theme_names(game: str) -> dict[str, Theme]:
    """The themes of ``game`` by key."""
    return {t.key: t for t in _themes(game)}


def rule_of(game: str, key: str) -> str:
    """The rule id a theme teaches."""
    return theme_names(game)[key].rule
