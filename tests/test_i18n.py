"""The Japanese interface (issue M): the language setting, the catalogue, and
walks through every game that look for English left in Japanese texts (and
for texts that escape the catalogue in English)."""

from __future__ import annotations

import gettext
import html as _html
import json
import random
import re
from pathlib import Path

import pytest

import cardlab
from cardlab import i18n, render
from cardlab.errors import CardlabError, OptionError

babel = pytest.importorskip("babel")
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "cardlab" / "locale" / "ja" / "LC_MESSAGES" / "cardlab.po"
MO = PO.with_suffix(".mo")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


# -- the language setting ------------------------------------------------------
@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANGUAGE": "ja:en", "LANG": "en_US.UTF-8"}, "ja"),
    ({"LANGUAGE": "fr:ja", "LANG": "en_US.UTF-8"}, "ja"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
    ({"LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
    ({"LANGUAGE": "", "LANG": "ja_JP.eucJP"}, "ja"),
])
def test_the_environment_chooses_the_default_language(environ, expected):
    assert i18n.language_from_environment(environ) == expected


def test_set_language_and_using_choose_the_language(monkeypatch):
    monkeypatch.setattr(i18n, "_session", None)
    monkeypatch.setenv("LANGUAGE", "ja")
    assert i18n.get_language() == "ja"
    assert cardlab.set_language("en") == "en"
    assert i18n.get_language() == "en"
    with i18n.using("ja"):
        assert i18n.get_language() == "ja"
        with i18n.using("en"):
            assert i18n.get_language() == "en"
        assert i18n.get_language() == "ja"
    assert i18n.get_language() == "en"
    assert cardlab.set_language("ja_JP.UTF-8") == "ja"


def test_an_unknown_language_is_refused_with_the_accepted_ones(monkeypatch):
    monkeypatch.setattr(i18n, "_session", "en")
    with pytest.raises(OptionError, match=r"unknown language 'xx'.*'en' \(English\), 'ja' \(日本語\)"):
        cardlab.set_language("xx")
    assert i18n.get_language() == "en"


# -- the catalogue ---------------------------------------------------------------
def _po():
    with PO.open("rb") as f:
        return read_po(f, locale="ja")


def _source_messages():
    """(msgid, context, where) of every text the sources pass to _, N_, ngettext, pgettext."""
    out = []
    method_map = [("cardlab/**.py", "python")]
    for filename, lineno, message, _comments, context in extract_from_dir(str(ROOT), method_map):
        ids = message if isinstance(message, tuple) else (message,)
        out.append((ids, context, f"{filename}:{lineno}"))
    return out


def test_every_text_of_the_sources_is_in_the_catalogue_translated_and_not_fuzzy():
    po = _po()
    problems = []
    for ids, context, where in _source_messages():
        entry = po.get(ids[0], context=context)
        strings = () if entry is None else (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        if entry is None or not strings or not all(strings):
            problems.append(f"{where}: {ids[0]!r} has no translation (run `make catalogues` and translate it)")
        elif entry.fuzzy:
            problems.append(f"{where}: {ids[0]!r} is fuzzy")
    assert problems == []


def test_the_catalogue_has_no_fuzzy_empty_or_obsolete_entry():
    po = _po()
    used = {(ids[0], context) for ids, context, _ in _source_messages()}
    assert [m.id for m in po if m.id and m.fuzzy] == []
    assert [m.id for m in po if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)] == []
    assert sorted(po.obsolete) == []
    assert sorted(str(m.id) for m in po if m.id and (m.id if isinstance(m.id, str) else m.id[0], m.context) not in used) == []


def test_translations_keep_the_placeholders_of_their_text():
    for m in _po():
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want = set().union(*(set(PLACEHOLDER.findall(i)) for i in ids))
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) == want, (m.id, s)
            assert s.format(**{k.split(":")[0].split("!")[0]: 1 for k in want}) is not None


def test_the_compiled_catalogue_is_the_po_file():
    """``cardlab.mo`` (what gettext reads, shipped in the wheel) holds exactly the
    translations of ``cardlab.po``: `make` recompiles it when the .po changes."""
    with MO.open("rb") as f:
        mo = gettext.GNUTranslations(f)._catalog
    expected = {}
    for m in _po():
        if not m.id:
            continue
        key = m.id if m.context is None else f"{m.context}\x04{m.id}"
        if isinstance(m.id, tuple):
            base = m.id[0] if m.context is None else f"{m.context}\x04{m.id[0]}"
            for i, s in enumerate(m.string):
                expected[(base, i)] = s
        else:
            expected[key] = m.string
    got = {k: v for k, v in mo.items() if k != ""}
    assert got == expected


# -- walks through every game ------------------------------------------------------
def _card_ids(game_name: str) -> set[str]:
    """The card ids of a game's data files ("card ids in the state excepted")."""
    ids: set[str] = set()

    def walk(x, key=None):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("cards", "points", "counts") and isinstance(v, dict):
                    ids.update(v)
                walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        elif isinstance(x, str) and key in ("id", "name") and re.fullmatch(r"[a-z0-9_]+", x):
            ids.add(x)

    for path in (ROOT / "cardlab" / "data").glob(f"{game_name}*.json"):
        walk(json.loads(path.read_text("utf-8")))
    return ids


#: Latin words the Japanese rule texts themselves write in Latin letters, per game
SEED_WORDS: dict[str, set[str]] = {
    "koinobori": set(),
    # 「COST3の「ルビダイヤ・テラザウルス」を 出すときは」, 「HP 2200 > 1350」
    "mazemon": {"HP", "COST"},
    # 「mipigトレーディングカードの遊び方」, 「mipigのロゴがある面が「裏面」」
    "mipig": {"mipig"},
    # 「MONSTER CARDSってどんなゲーム？」, 「レアリティがSR以上…SPの場合はSP効果、URの場合は
    # ULT効果」; MC: the initials on the card back, a logo (of the game's name as the seed writes it)
    "monster_cards": {"MONSTER", "CARDS", "SR", "UR", "SP", "ULT", "MC"},
    # 「▽ BP勝負」, 「BP(バトルポイント)」
    "toritsuki": {"BP"},
}
#: what a person types, quoted in an error or a prompt: moves in notation ('nobori higoi'),
#: option and field names ('first_player'), the refused input itself
QUOTED = re.compile(r"'[^'\n]*'")
#: what these walks type on purpose
TYPED = {"zzz", "bogus_option"}


def _layout_texts(lay) -> list[str]:
    if lay is None:
        return []
    return [lay.above, lay.below, lay.grid_title, lay.items_title, *lay.squares.values(),
            *lay.items.values(), *lay.prompts, *lay.labels]


def _texts_of_a_walk(game_name: str, seeds=range(3), max_moves: int = 400):
    """Every text cardlab shows of seeded random games of ``game_name``: boards and
    pictures for each viewer, layouts, every legal action's label, explanation and
    picture, and the texts of refused input."""
    game = cardlab.load(game_name)
    n = game.spec.num_players
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        for _ in range(max_moves):
            for viewer in (None, *range(n)):
                yield f"text/{viewer}", render.text(state, perspective=viewer)
                yield f"html/{viewer}", render.html(state, perspective=viewer)
                yield from ((f"layout/{viewer}", t) for t in _layout_texts(render.layout(state, perspective=viewer)))
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            else:
                actions = state.legal_actions()
                for a in actions:
                    yield "label", render.action_label(state, a)
                    yield "explain", state.explain(a)
                    yield "move_html", render.move_html(state, a)
                action = rng.choice(actions)
            for viewer in range(n):
                seen = render.seen_move(state, action, viewer)
                yield "seen", " ".join(str(x) for x in (seen.line, seen.picture) if x)
            state = state.apply(action)
        with pytest.raises(CardlabError) as refused:
            state.apply("zzz")
        yield "error", str(refused.value)
    with pytest.raises(CardlabError) as refused:
        cardlab.load(game_name, bogus_option=1)
    yield "error", str(refused.value)


def _latin_words(text: str, allowed: set[str]) -> set[str]:
    t = re.sub(r"(?is)<(style|script)\b.*?</\1>", " ", text)
    attrs = re.findall(r'\b(?:title|alt|aria-label|placeholder)\s*=\s*"([^"]*)"', t)
    t = _html.unescape(" ".join([re.sub(r"(?s)<[^>]*>", " ", t), *attrs]))
    t = render.RULE_ID_RE.sub(" ", t)
    t = QUOTED.sub(" ", t)
    return {w for w in re.findall(r"[A-Za-z][A-Za-z0-9_]*", t) if len(w) > 1 and w not in allowed}


@pytest.mark.parametrize("game_name", cardlab.games())
def test_japanese_play_shows_no_english(game_name):
    """Random play in Japanese: no English word reaches a board, picture, label,
    explanation, battle report or error (card ids and rule ids excepted)."""
    # the game's id and its options' names are what a person types (cardlab.load("mipig", deal=...))
    allowed = _card_ids(game_name) | SEED_WORDS[game_name] | TYPED | {game_name, *cardlab.load(game_name).OPTIONS}
    leaks: dict[str, tuple[str, str]] = {}
    with i18n.using("ja"):
        for where, text in _texts_of_a_walk(game_name):
            for w in _latin_words(text, allowed):
                leaks.setdefault(w, (where, text[:300]))
    assert leaks == {}


@pytest.mark.parametrize("game_name", cardlab.games())
def test_english_play_uses_only_translated_texts(game_name, monkeypatch):
    """Random play in English: every text looked up in the catalogue has its
    Japanese translation (nothing is shown from outside the catalogue's reach)."""
    po = _po()
    record: list[tuple[str, str | None]] = []
    monkeypatch.setattr(i18n, "_record", record)
    with i18n.using("en"):
        for _ in _texts_of_a_walk(game_name, seeds=range(2)):
            pass
    assert record, "the walk looked nothing up: the texts do not go through the catalogue"
    missing = sorted({(m, c) for m, c in record if (e := po.get(m, context=c)) is None or not e.string})
    assert missing == []


def _own_nodes(scope):
    """The nodes of a function's own scope: nested functions, lambdas and
    comprehensions (scopes of their own) left out."""
    import ast

    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
              ast.DictComp, ast.GeneratorExp, ast.ClassDef)
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, nested):
            stack.extend(ast.iter_child_nodes(node))


def test_no_function_hides_the_translation_function():
    """A function that binds ``_`` (``a, _, b = ...``, ``for _ in ...``, an
    argument) and also calls ``_()`` would call its own variable (or fail with
    UnboundLocalError): in a module using the gettext ``_``, no scope does both."""
    import ast

    problems = []
    for path in sorted((ROOT / "cardlab").rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            own = list(_own_nodes(fn))
            args = fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs
            binds = any(a.arg == "_" for a in args) or any(
                isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in own)
            calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                        for n in ast.walk(fn))
            if binds and calls:
                problems.append(f"{path.relative_to(ROOT)}:{fn.lineno}: {getattr(fn, 'name', 'lambda')} "
                                "binds _ and calls _()")
    assert problems == []
