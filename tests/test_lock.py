"""Lock means lock (issue W, item 7): a locked link (``lock=1``) cannot be
opened up or unlocked by editing it.

Every URL parameter, alone and in pairs, is tried on a locked link of every
game; each page is built as Voila builds it (:class:`PlayApp` from the
query string) and checked:

- a refused link shows its message and nothing else;
- a page with a board shows only what its seat may see: *equal information,
  equal output* on the whole page (its widget tree as the browser receives
  it), with the position on the board and a re-deal of every card that seat
  cannot see (:meth:`cardlab.State.redeal`);
- an edited link never deals the locked link's cards (another seat,
  ``lock=0``, another seed, opponent or option: another deal), so neither
  another seat's view nor "reveal all" of an unlocked board shows anything
  of the locked game; only the language may change on the same deal;
- a locked page has no control that re-deals or moves an agent, and the
  methods behind them refuse.
"""

from __future__ import annotations

import itertools
import random

import pytest

import cardlab
from cardlab import render
from cardlab.errors import CardlabError
from cardlab.widgets.app import SHOWS_HIDDEN, LinkBoard, PlayApp, _settable

from test_board_fair_play import dump

LOCKED = {"seat": "0", "lock": "1", "opponent": "random", "seed": "3"}


@pytest.fixture(autouse=True)
def class_store(tmp_path, monkeypatch):
    """The class's store (its secret keys the locked links' deals)."""
    monkeypatch.setenv("CARDLAB_ROOMS", str(tmp_path / "class.db"))
    monkeypatch.delenv("QUERY_STRING", raising=False)


def _text(value) -> str:
    return {True: "1", False: "0", None: "none"}.get(value, str(value)) if isinstance(value, (bool, type(None))) \
        else str(value)


def edits(game: str) -> list[tuple[str, str]]:
    """Every parameter a pupil may edit or add, each with values other than
    the locked link's: the link's own keys, the language, Voila's token, a
    parameter nobody knows, another game, and every option a link may set,
    at each of its other choices (a whole number one less and one more; a
    word: the other words the game's options take)."""
    g = cardlab.load(game)
    other = next(n for n in cardlab.games() if n != game)
    out = [("seat", "1"), ("seat", "2"), ("lock", "0"), ("lock", "off"), ("opponent", "heuristic"),
           ("opponent", "person"), ("seed", "4"), ("lang", "ja"), ("token", "abc"), ("colour", "red"),
           ("game", other)]
    words = {o.default for o in g.OPTIONS.values() if isinstance(o.default, str) and o.choices is None}
    for name in _settable(g):
        opt = g.OPTIONS[name]
        if opt.choices is not None:
            values = [c for c in opt.choices if c != opt.default]
        elif isinstance(opt.default, bool) or not isinstance(opt.default, int):
            values = sorted(words - {opt.default})
        else:
            values = [opt.default - 1, opt.default + 1]
        out += [(name, _text(v)) for v in values]
    return out


def query(game: str, *changes: tuple[str, str]) -> str:
    """The locked link of ``game`` with ``changes`` (a parameter given twice stays twice)."""
    given = dict(LOCKED)
    pairs = [("game", game)] + list(given.items())
    for name, value in changes:
        at = [i for i, (k, _v) in enumerate(pairs) if k == name]
        if at and name not in [c[0] for c in changes[:changes.index((name, value))]]:
            pairs[at[0]] = (name, value)
        else:
            pairs.append((name, value))
    return "&".join(f"{k}={v}" for k, v in pairs)


def dealt(b) -> tuple[str, object]:
    """Every card of the board's deal (its first position where nobody deals),
    all shown, and the stream its later cards come from (the match's chance
    stream: two deals of a few card kinds can look alike by chance, as
    Koi-koi Nobori's did in one run, the streams of two seeds do not)."""
    first = next(s for s in b.match.states if not s.is_chance_node())
    return render.html(first, perspective=None), b.match.rng.getstate()


def page_twin(app: PlayApp, rng: random.Random, moves: int = 40) -> bool:
    """The page shows its seat only what that seat may see: the page with
    the board's position and the page with a re-deal of every card the
    seat cannot see are the same, byte for byte.  Where nothing is hidden
    yet (a game whose cards go face down later), the seat plays on, on the
    page, up to ``moves`` moves.  Whether a differing re-deal was found."""
    b = app.board
    v = b.perspective
    assert v is not None, "the page a link opens shows one seat's view"
    for _ in range(moves):
        s = b.state
        if s.is_terminal():
            return False
        twins = [t for t in (s.redeal(v, rng) for _ in range(8))
                 if render.html(t, perspective=None) != render.html(s, perspective=None)]
        if twins:
            break
        if not b.moves_shown():
            return False
        b.play(rng.choice(s.legal_actions()))
    else:
        return False
    shown = []
    for x in (s, twins[0]):
        assert x.information_set(v) == s.information_set(v)
        b.match.restart(state=x)
        b._start, b._hint = x, None
        b.redraw()
        shown.append(dump(app))
    assert shown[0] == shown[1], f"{b.game.name}: the page shows player {v} a card they may not see"
    return True


def check(game: str, changes: tuple[tuple[str, str], ...], original: PlayApp, rng: random.Random) -> str:
    """Open the edited link and check its page; what it opened ("refused", "same", "other")."""
    app = PlayApp(query=query(game, *changes))
    if app.board is None:
        assert list(app.children) == [app.message] and ("This link does not start a game" in app.message.value
                                                        or "このリンクではゲームを始められません" in app.message.value)
        return "refused"
    b = app.board
    if b.locked:
        assert isinstance(b, LinkBoard)
        no_controls(b)
    kind = "other"
    if b.locked and (b.game, b.seat, b.players, b.seed) == (original.board.game, original.board.seat,
                                                           original.board.players, original.board.seed):
        assert dealt(b) == dealt(original.board), "the same locked link (another language) deals the same"
        kind = "same"
    else:
        assert dealt(b) != dealt(original.board), f"{changes}: an edited link dealt the locked link's cards"
    page_twin(app, rng)
    return kind


def no_controls(b: LinkBoard) -> None:
    """No control re-deals or moves an agent: not shown, and refused when called."""
    for w in (b.new_button, b.step_button, b.run_button, b.auto_box):
        assert w.layout.display == "none"
    for call in (b.new_game, b.step, b.run, lambda: b.set_autoplay(False)):
        with pytest.raises(CardlabError, match="allowed are your own moves and the fair hint"):
            call()
    text = str(dump(b))
    for absent in ("reveal all", "view as player", "open hint", "↶ undo"):
        assert absent not in text, absent


def test_the_options_that_show_hidden_cards_are_refused_on_a_locked_link():
    """Every switch that opens hands or makes hidden cards known (its name
    says so) is in SHOWS_HIDDEN, so that lock=1 refuses it."""
    for game in cardlab.games():
        for name, opt in cardlab.load(game).OPTIONS.items():
            if opt.choices is not None and set(opt.choices) == {False, True} and (
                    "open" in name or "known" in name or "reveal" in name):
                assert SHOWS_HIDDEN.get(name) == (True,), (game, name)


@pytest.mark.parametrize("game", cardlab.games())
def test_every_parameter_alone_on_a_locked_link(game):
    original = PlayApp(query=query(game))
    assert isinstance(original.board, LinkBoard) and original.board.locked
    rng = random.Random(f"lock {game}")
    assert page_twin(PlayApp(query=query(game)), rng), "the locked link's page hides something to check"
    kinds = {change: check(game, (change,), original, rng) for change in edits(game)}
    assert kinds[("lang", "ja")] == kinds[("token", "abc")] == "same"
    assert kinds[("colour", "red")] == "refused"
    assert kinds[("lock", "0")] == kinds[("seed", "4")] == "other"
    for name, values in SHOWS_HIDDEN.items():
        for value in values:
            if name in _settable(cardlab.load(game)):
                assert kinds[(name, _text(value))] == "refused", name


@pytest.mark.slow
@pytest.mark.parametrize("game", cardlab.games())
def test_every_pair_of_parameters_on_a_locked_link(game):
    original = PlayApp(query=query(game))
    rng = random.Random(f"lock pairs {game}")
    kinds = [check(game, pair, original, rng) for pair in itertools.combinations(edits(game), 2)]
    assert {"refused", "other"} <= set(kinds)


def test_the_newcomers_two_links_show_nothing_hidden():
    """``lock=1&open_hands=1`` is refused, saying why; the locked link with
    ``lock=0`` is a board of another deal, so "reveal all" there shows
    nothing of the locked game."""
    app = PlayApp(query="game=mipig&seat=0&lock=1&open_hands=1")
    assert app.board is None and ("open_hands=&#x27;1&#x27; is not accepted with lock=1: it shows cards the "
                                  "locked seat may not see") in app.message.value
    locked = PlayApp(query="game=mipig&seat=0&lock=1&opponent=heuristic&seed=3").board
    opened = PlayApp(query="game=mipig&seat=0&lock=0&opponent=heuristic&seed=3").board
    opened.set_perspective("all")
    assert not opened.locked and dealt(opened) != dealt(locked)
    hidden = locked.state.information_set(1)  # the agent's hand is in its information set, not in player 0's
    assert hidden != locked.state.information_set(0)
    assert render.html(opened.state, perspective=None) != render.html(locked.state, perspective=None)


def test_a_locked_links_deal_is_the_same_again_and_the_classs_own(tmp_path, monkeypatch):
    """The same link deals the same cards again (a reload, in another
    language too); another class (another secret) deals others."""
    link = "game=koinobori&seat=1&lock=1&opponent=heuristic&seed=5"
    first = PlayApp(query=link).board
    assert dealt(PlayApp(query=link).board) == dealt(first) == dealt(PlayApp(query=link + "&lang=ja").board)
    monkeypatch.setenv("CARDLAB_ROOMS", str(tmp_path / "another-class.db"))
    assert dealt(PlayApp(query=link).board) != dealt(first)
