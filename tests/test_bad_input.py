"""Bad input that used to escape as a traceback or a lost run (issue Y, item 7):
each is refused with a CardlabError naming what was wrong and what is
accepted, before any work, and changes nothing.
"""

from __future__ import annotations

import json
import pathlib
from decimal import Decimal
from fractions import Fraction
from importlib import resources

import pytest

import cardlab
from cardlab import CardlabError, OptionError, UnknownGameError, batch

GAMES = cardlab.games()
#: a card file as a pathlib.Path: koinobori's game accepts it, a table cannot store it
DECK = pathlib.Path(str(resources.files("cardlab.data").joinpath("koinobori.json")))
#: numbers equal to a whole number but not one (and True, which equals 1)
NOT_WHOLE = [1.0, 0.0, Decimal("1"), Fraction(1), True, False, 2.0, 5.0, 20.0]


def _int_options(name):
    """The options of a game that take whole numbers: an int default or int choices."""
    out = []
    for opt, o in cardlab.load(name).OPTIONS.items():
        ints = [c for c in (o.choices or ()) if type(c) is int] + ([o.default] if type(o.default) is int else [])
        if ints:
            out.append((opt, ints))
    return out


def test_Y7_every_game_has_whole_number_options_to_check():
    assert {n for n in GAMES if _int_options(n)} >= {"koinobori", "mipig", "toritsuki", "monster_cards"}


@pytest.mark.parametrize("name", GAMES)
def test_Y7_whole_number_options_refuse_floats_decimals_and_bools(name):
    for opt, ints in _int_options(name):
        for value in NOT_WHOLE:
            with pytest.raises(OptionError) as err:
                cardlab.load(name, **{opt: value})
            text = str(err.value)
            assert f"{opt}={value!r}" in text and "accepts" in text, text
        for good in ints:  # the whole numbers themselves still load
            assert cardlab.load(name, **{opt: good}).options[opt] == good


def test_Y7_toritsuki_first_player_as_in_the_issue():
    for value in (1.0, 0.0, Decimal("1")):
        with pytest.raises(OptionError, match=r"first_player=.* is not accepted; first_player accepts None, 0 or 1"):
            cardlab.load("toritsuki", first_player=value)
    numpy = pytest.importorskip("numpy")
    assert type(cardlab.load("toritsuki", first_player=numpy.int64(1)).options["first_player"]) is int


def test_Y7_boolean_options_refuse_whole_numbers():
    for value in (1, 0, 1.0, "yes"):
        with pytest.raises(OptionError, match="open_hands.*True or False"):
            cardlab.load("koinobori", open_hands=value)


def test_Y7_a_list_for_a_game_name_names_the_games():
    with pytest.raises(UnknownGameError, match=r"unknown game \['koinobori'\]; the games are: koinobori"):
        cardlab.load(["koinobori"])


BAD_JOBS = [  # (jobs, error, what the message says)
    ([{"task": "solve"}], CardlabError, r"job 0: a solve job needs the field 'game'; its fields are: task, game"),
    ([{"task": "solve", "game": "mipig", "seed": 1, "colour": "red"}], CardlabError,
     r"job 0: unknown field 'colour' in a solve job"),
    (["solve mipig"], CardlabError, r"job 0: job='solve mipig' is not accepted; job accepts a dict"),
    ([{"task": "dance"}], CardlabError, r"task is 'solve' or 'match', not 'dance' \(job 0\)"),
    ([batch.solve_job("mipig", 1, {"hand_size": 1}), {"task": "solve", "game": "chess", "seed": 1}],
     UnknownGameError, r"job 1: game='chess' is not accepted; game accepts koinobori, mazemon, mipig"),
    ([batch.solve_job("mipig", 1, {"hand_size": 1.0})], OptionError,
     r"job 0: mipig: option hand_size=1.0 is not accepted; hand_size accepts a whole number"),
    ([batch.solve_job("toritsuki", 1, {"first_player": Decimal("1")})], OptionError, r"job 0: .*first_player"),
    ([batch.solve_job("koinobori", 1, {"deck": "short"}), batch.solve_job("koinobori", 2, {"deck": DECK})],
     CardlabError, r"job 1: options\['deck'\]=PosixPath\('.*koinobori.json'\) is not accepted; .*a path as "
                   r"str\(path\)"),
    ([batch.solve_job("mipig", 1.5, {"hand_size": 1})], CardlabError, r"job 0: seed=1.5 is not accepted"),
    ([batch.solve_job("mipig", 1, {"hand_size": 1}, random_moves=-1)], CardlabError, r"job 0: random_moves=-1"),
    ([{"task": "match", "game": "mipig", "seed": 1, "agents": ["random"]}],
     CardlabError, r"job 0: agents=\['random'\] is not accepted; agents accepts a list of 2 agents"),
    ([batch.match_job("mipig", 1, [["mcts", {"iterationz": 3}], "random"])], CardlabError,
     r"job 0: the agent agents\[0\]=.* cannot be made: .*iterationz"),
    ([{"task": "solve", "game": "mipig", "seed": 1, "options": {1: 2}}], CardlabError, r"job 0: options="),
]


@pytest.mark.parametrize("jobs,error,message", BAD_JOBS)
def test_Y7_bad_jobs_are_refused_before_any_work(jobs, error, message, tmp_path, monkeypatch):
    def no_pool(n):
        raise AssertionError("a process pool started before the jobs were checked")

    monkeypatch.setattr(batch, "_local_pool", no_pool)
    monkeypatch.setattr(batch, "run_job", lambda job: pytest.fail("a job ran before the jobs were checked"))
    ckpt = tmp_path / "run.jsonl"
    ckpt.write_text('{"key": "earlier", "row": {"id": 0}}\n')
    before = json.dumps(jobs, default=repr)
    with pytest.raises(error, match=message):
        batch.run(jobs, executor=2, checkpoint=ckpt, progress=False)
    assert ckpt.read_text() == '{"key": "earlier", "row": {"id": 0}}\n'  # the checkpoint is untouched
    assert json.dumps(jobs, default=repr) == before  # and so are the jobs


def _unstorable(job):
    return {"result": Fraction(job["seed"]), "returns": {pathlib.Path("a"), pathlib.Path("b")}}


def test_Y7_a_row_that_cannot_be_stored_keeps_the_run_and_its_table(tmp_path, monkeypatch):
    """A call job's columns are its function's: one that JSON cannot store is
    kept in the table, written as an error (it runs again on resume), and
    the rows before and after it are kept and stored."""
    monkeypatch.setattr(cardlab.errors, "_unstorable", _unstorable, raising=False)
    ckpt = tmp_path / "run.jsonl"
    jobs = [batch.solve_job("mipig", 3, {"hand_size": 1, "open_hands": True}),
            batch.call_job("cardlab.errors:_unstorable", "mipig", 4, {"hand_size": 1}),
            batch.solve_job("mipig", 5, {"hand_size": 1, "open_hands": True})]
    t = batch.run(jobs, executor="serial", checkpoint=ckpt, chunksize=1, progress=False)
    assert [r["error"] for r in t] == [None, None, None] and t[1]["result"] == 4
    stored = [json.loads(line)["row"] for line in ckpt.read_text().splitlines()]
    assert [r["id"] for r in stored] == [0, 1, 2]
    assert stored[0]["error"] is None and stored[2]["error"] is None
    assert stored[1]["error"].startswith("TypeError: the row could not be stored")
    again = batch.run(jobs, executor="serial", checkpoint=ckpt, progress=False)
    assert again.resumed == 2 and [r["result"] for r in again] == [r["result"] for r in t]
