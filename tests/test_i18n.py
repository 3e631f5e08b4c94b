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
    # what `pybabel compile` (make) refuses: e.g. a "% i" in a text reads as a %-placeholder
    assert [(m.id, [str(e) for e in errors]) for m, errors in po.check() if errors] == []
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


# -- the board and the command line, walked in Japanese ------------------------------
def _widget_texts(w, skip_tooltips: set[int]) -> list[str]:
    """What a person reads on a widget tree: descriptions, texts and HTML,
    tooltips, the labels of choices, titles (the language picker, bilingual
    on purpose, and the tooltips in ``skip_tooltips``, move notation, left out)."""
    import ipywidgets as widgets

    if "cardlab-language" in getattr(w, "_dom_classes", ()):
        return []
    out = [getattr(w, "description", "") or ""]
    if id(w) not in skip_tooltips:
        out.append(getattr(w, "tooltip", "") or "")
    if isinstance(w, (widgets.HTML, widgets.Label, widgets.HTMLMath)):
        out.append(w.value)
    if hasattr(w, "options") and isinstance(w, widgets.widgets.widget_selection._Selection):
        out += [str(label) for label in w._options_labels]
    out += [t for t in getattr(w, "titles", ()) or () if t]
    for child in getattr(w, "children", ()) or ():
        out += _widget_texts(child, skip_tooltips)
    return out


@pytest.mark.parametrize("game_name", cardlab.games())
def test_a_japanese_board_played_to_the_end_shows_no_english(game_name):
    """A board with ``language="ja"``: seeded random clicks to the end (and the
    hint now and then); every text of its widgets (not only the table: status,
    buttons, options and their help, log, "What happened", hint) is Japanese."""
    from cardlab.widgets import board

    game = cardlab.load(game_name)
    # what a person types: the game's id and options' names (an option's help starts with it)
    # (an option's help names the Python values it takes: None, True, False; the projector box's
    # help the link parameter a teacher types, projector=1)
    allowed = _card_ids(game_name) | SEED_WORDS[game_name] | {game_name, *game.OPTIONS, "None", "True", "False",
                                                               "projector"}
    leaks: dict[str, str] = {}
    for seed in (1, 2):
        rng = random.Random(seed)
        b = board(game_name, ["person", "random"], seed=seed, language="ja",
                  hint_nodes=1500, hint_max_arrangements=30)
        for step in range(300):
            if step % 7 == 3 and not b.hint_button.disabled:
                b.hint_button.click()
            notation = {id(x) for x in b.action_buttons.values()} | {
                id(x) for x in _all_widgets(b) if {"cardlab-offer", "cardlab-switch", "cardlab-picked"}
                & set(getattr(x, "_dom_classes", ()))}
            for text in _widget_texts(b, notation):
                for w in _latin_words(text, allowed):
                    leaks.setdefault(w, text[:300])
            if b.state.is_terminal() or not b.action_buttons:
                break
            b.action_buttons[rng.choice(sorted(b.action_buttons))].click()
    assert leaks == {}


def _all_widgets(w):
    yield w
    for child in getattr(w, "children", ()) or ():
        yield from _all_widgets(child)


@pytest.mark.parametrize("game_name", cardlab.games())
def test_the_command_line_in_japanese_shows_no_english(game_name, capsys, monkeypatch):
    """``cardlab --lang ja play GAME``: a whole game typed move by move (the
    first move offered each time), then the help: no English but what a person
    types (the moves' notation in brackets after their Japanese label, the
    commands hint, undo, quit, the options and arguments)."""
    import io

    from cardlab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("0\n" * 400 + "quit\n"))
    assert main(["--lang", "ja", "play", game_name, "--seed", "5", "--opponent", "heuristic"]) in (0, None)
    out, err = capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["--lang", "ja", "play", "--help"])
    help_text, _err = capsys.readouterr()
    assert "ゲーム終了" in out
    game = cardlab.load(game_name)
    typed = {"hint", "undo", "quit", "save", "reveal", "seat", "opponent", "seed", "lang", "help", "position",
             "agents", "max", "nodes", "samples", "arrangements", "depth", "ja", "en", "PATH", "FILE", "N",
             "SEAT", "GAME", "OPTION", "AGENT", "VALUE", "KEY", "LANG", "SECONDS", "Ctrl",
             # commands and agents' names
             "cardlab", "play", "deal", "solve", "tree", "games", "simulate", "rooms", *cardlab.agents.NAMES}
    allowed = _card_ids(game_name) | SEED_WORDS[game_name] | {game_name, *game.OPTIONS} | typed
    leaks: dict[str, str] = {}
    for text in [*out.splitlines(), *err.splitlines(), *help_text.splitlines()]:
        bare = re.sub(r"（[ -~]*）", " ", text)  # a move's notation after its label
        bare = re.sub(r"--?[a-z][a-z-]*|\{[^{}]*\}|\b(?:hint|undo|quit)\b", " ", bare)  # options and choices
        for w in _latin_words(bare, allowed):
            leaks.setdefault(w, text[:300])
    assert leaks == {}


def test_no_text_to_translate_is_written_inside_an_f_string():
    """Babel (on Python 3.11) does not see a call written inside an f-string's
    braces: ``f"{_('best')}"`` would never reach the catalogue."""
    call = re.compile(r"""\{[^{}]*\b(?:_|N_|pgettext|ngettext)\(\s*(?:['"]|\w+\s*,\s*['"])""")
    problems = []
    for path in sorted((ROOT / "cardlab").rglob("*.py")):
        for i, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for m in re.finditer(r"""\bf(['"]).*?\1""", line):
                if call.search(m.group(0)):
                    problems.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert problems == []
