"""Issue W, item 5: class tournaments.  The pairings (round robin by the
circle method, Swiss by points with no rematch where avoidable, seats
alternated, byes fair), the tie-breaks in their stated order on hand-made
results, the store (a tournament survives a restart; *next round* makes the
next round's rooms at one call, and when forced counts the games still
going as draws) and the teacher's page without a browser."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from test_rooms import play_out

from pg_support import another_db, db  # noqa: F401 -- each store test on SQLite and PostgreSQL
from cardlab.rooms import RoomStore
from cardlab.tournament import (Pairing, TournamentError, buchholz, head_to_head, points, round_robin,
                                seat_due, sonneborn_berger, standings, swiss_round)
from cardlab.tournament_store import RoundNotOverError, Tournaments
from cardlab.widgets.room import Lobby

HALF = Fraction(1, 2)


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def seats_of(rounds) -> dict[str, list[int]]:
    """Each entrant's seats game by game: +1 first, -1 second (byes left out)."""
    sat: dict[str, list[int]] = {}
    for rnd in rounds:
        for p in rnd:
            if not p.bye:
                sat.setdefault(p.first, []).append(1)
                sat.setdefault(p.second, []).append(-1)
    return sat


def longest_run(seq: list[int]) -> int:
    return max((len(list(g)) for _k, g in itertools.groupby(seq)), default=0)


# -- round robin --------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 17))
@pytest.mark.parametrize("odd", [None, "club"])
def test_W_round_robin_every_pair_meets_once_and_everyone_plays_each_round(n, odd):
    pupils = names(n)
    rounds = round_robin(pupils, odd)
    field = pupils + ([odd] if n % 2 and odd else [])
    assert len(rounds) == (len(field) - 1 if len(field) % 2 == 0 else len(field))
    for rnd in rounds:
        seen = [x for p in rnd for x in (p.first, p.second) if x is not None]
        assert sorted(seen) == sorted(field)  # everyone once a round (a bye: alone)
    pairs = [frozenset((p.first, p.second)) for rnd in rounds for p in rnd if not p.bye]
    assert len(pairs) == len(set(pairs)) == len(field) * (len(field) - 1) // 2  # each pair exactly once


@pytest.mark.parametrize("n", range(2, 17))
def test_W_round_robin_seats_alternate(n):
    """Each pupil sits first as often as second, give or take one, and never three games running."""
    for odd in (None, "club"):
        sat = seats_of(round_robin(names(n), odd))
        for who, seq in sat.items():
            if who == odd:
                continue
            assert abs(sum(seq)) <= 1, (who, seq)
            assert longest_run(seq) <= 2, (who, seq)


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11])
def test_W_round_robin_byes_are_fair_or_the_agent_plays_everyone(n):
    byes = [p.first for rnd in round_robin(names(n)) for p in rnd if p.bye]
    assert sorted(byes) == names(n)  # each pupil sits out exactly once
    rounds = round_robin(names(n), "beginner")
    assert not any(p.bye for rnd in rounds for p in rnd)
    met = sorted(p.opponent("beginner") for rnd in rounds for p in rnd if "beginner" in (p.first, p.second))
    assert met == names(n)  # every pupil plays the agent once


# -- Swiss ---------------------------------------------------------------------------------------
def matchings(items: list) -> list:
    """Every way to pair ``items`` (an even number)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    return [[(first, b)] + m for i, b in enumerate(rest) for m in matchings(rest[:i] + rest[i + 1:])]


def _faults(pairs, pts, met, byes, due) -> tuple[int, int]:
    """A pairing's rematches (a second bye counts as one) and seats a pupil must not have again."""
    rematch = must = 0
    for a, b in pairs:
        if b is None:
            rematch += byes.get(a, 0) > 0
            continue
        rematch += b in met.get(a, ())
        must += due[a] * due[b] > 0 and min(abs(due[a]), abs(due[b])) == 3
    return rematch, must


def _bye_above(pairs, pts, byes) -> int:
    """How many pupils without a bye are placed below the one who has it
    (places: points, then the list's order)."""
    order = sorted(pts, key=lambda x: (-pts[x], x))
    return sum(byes[x] == 0 and order.index(x) > order.index(a) for a, b in pairs if b is None for x in order)


def _spread(pairs, pts) -> int:
    """The pairing's difference in points: the sum of (twice the difference) squared (a bye: against 0)."""
    return sum(int(2 * (pts[a] - (pts[b] if b is not None else 0))) ** 2 for a, b in pairs)


def _swiss(n: int, rounds: int, seed: int):
    """A Swiss of ``n`` pupils over ``rounds`` rounds with random results;
    yields each round's state before pairing it (points, opponents met,
    byes, seats due) and the pairing made."""
    rng = random.Random(seed)
    pupils, played = names(n), []
    for _r in range(rounds):
        pts = {x: points(x, played, Fraction(1)) for x in pupils}
        met = {x: {p.opponent(x) for rnd in played for p in rnd if p.opponent(x)} for x in pupils}
        byes = {x: sum(p.bye and p.first == x for rnd in played for p in rnd) for x in pupils}
        due = {x: seat_due(seats_of(played).get(x, [])) for x in pupils}
        rnd = swiss_round(pupils, played)
        yield pts, met, byes, due, rnd
        played.append([p if p.bye else p.played(rng.choice([0, HALF, 1])) for p in rnd])


@pytest.mark.parametrize("seed", range(40))
def test_W_swiss_pairs_by_points_with_no_rematch_where_avoidable(seed):
    """Against every possible pairing of the round (small classes: all of
    them): no rematch, second bye or seat a pupil must not have again when
    a pairing avoids them; among those, the bye to the lowest-placed pupil
    without one, then the least difference in points."""
    rng = random.Random(seed)
    n = rng.randrange(3, 10)
    for pts, met, byes, due, rnd in _swiss(n, rng.randrange(1, n + 1), seed):
        made = [(p.first, p.second) for p in rnd]
        assert sorted(x for pair in made for x in pair if x) == names(n)
        items = names(n) + ([None] if n % 2 else [])
        every = [[(a, b) if a is not None else (b, a) for a, b in m] for m in matchings(items)]
        def cost(m):
            return _faults(m, pts, met, byes, due), _bye_above(m, pts, byes), _spread(m, pts)
        assert cost(made) == min(cost(m) for m in every)


@pytest.mark.parametrize("n", range(4, 21))
def test_W_swiss_seats_alternate_and_byes_are_fair(n):
    """Over half as many rounds as pupils: no rematch, no second bye; each
    pupil's first seats and second seats differ by two at most and no
    pupil sits in the same seat three games running; the bye goes to a
    pupil with the fewest points among those without one."""
    rounds = max(1, n // 2)
    played = []
    for pts, _met, byes, _due, rnd in _swiss(n, rounds, n):
        for p in rnd:
            if p.bye:
                assert byes[p.first] == 0
                assert pts[p.first] == min(pts[x] for x in names(n) if byes[x] == 0)
        played.append(rnd)
    pairs = [frozenset((p.first, p.second)) for rnd in played for p in rnd if not p.bye]
    assert len(pairs) == len(set(pairs))
    for who, seq in seats_of(played).items():
        assert abs(sum(seq)) <= 2 and longest_run(seq) <= 2, (who, seq)


def test_W_swiss_round_one_pairs_neighbours_in_the_list_and_the_agent_takes_any_seat():
    rnd = swiss_round(["Aiko", "Ben", "Chie", "Dai", "Emi", "club"], [], agent="club")
    assert [{p.first, p.second} for p in rnd] == [{"Aiko", "Ben"}, {"Chie", "Dai"}, {"Emi", "club"}]


def test_W_seat_due_says_which_seat_and_how_much():
    assert seat_due([]) == 0
    assert seat_due([1]) == -2 and seat_due([-1]) == 2  # one more than the other: should
    assert seat_due([1, -1]) == 1 and seat_due([-1, 1]) == -1  # even: the other seat than last time
    assert seat_due([1, -1, -1]) == 3  # second twice running: must sit first
    assert seat_due([1, 1]) == -3 and seat_due([1, -1, 1, 1]) == -3


# -- the tie-breaks, on hand-made results --------------------------------------------------------
def game(first: str, second: str, score) -> Pairing:
    return Pairing(first, second).played(score)


def test_W_points_are_a_win_1_a_draw_half_and_a_bye_as_the_system_says():
    rounds = [[game("Aiko", "Ben", 1), Pairing("Chie", None)], [game("Ben", "Chie", HALF), game("Aiko", "Dai", 0)]]
    assert points("Aiko", rounds) == 1 and points("Ben", rounds) == HALF
    assert points("Chie", rounds) == HALF and points("Chie", rounds, Fraction(1)) == Fraction(3, 2)
    swiss = {r.name: r for r in standings(["Aiko", "Ben", "Chie", "Dai"], rounds, "swiss")}
    rr = {r.name: r for r in standings(["Aiko", "Ben", "Chie", "Dai"], rounds, "round_robin")}
    assert swiss["Chie"].points == Fraction(3, 2) and rr["Chie"].points == HALF  # a bye: 1 in a Swiss, 0 else
    assert swiss["Chie"].byes == 1 and swiss["Chie"].played == 1 and swiss["Chie"].drawn == 1
    # Buchholz: a bye adds nothing; Chie's one opponent, Ben, has ½
    assert swiss["Chie"].tiebreak == buchholz("Chie", rounds, {"Ben": HALF}) == HALF


def test_W_sonneborn_berger_comes_before_head_to_head_in_a_round_robin():
    """Chie and Ben have 1½ each and Ben beat Chie, but Chie beat Dai (2
    points) and drew with Aiko (1): Sonneborn-Berger 2 + ½ = 2½ against
    Ben's 1½ (Chie) + ½ (Aiko) = 2."""
    rounds = [[game("Ben", "Chie", 1), game("Dai", "Aiko", 1)],
              [game("Chie", "Dai", 1), game("Aiko", "Ben", HALF)],
              [game("Chie", "Aiko", HALF), game("Ben", "Dai", 0)]]
    table = standings(["Aiko", "Ben", "Chie", "Dai"], rounds, "round_robin")
    assert [r.name for r in table] == ["Dai", "Chie", "Ben", "Aiko"]
    assert [r.points for r in table] == [2, Fraction(3, 2), Fraction(3, 2), 1]
    assert [r.tiebreak for r in table[1:3]] == [Fraction(5, 2), 2]
    assert sonneborn_berger("Chie", rounds, {r.name: r.points for r in table}) == Fraction(5, 2)


def test_W_buchholz_comes_before_head_to_head_in_a_swiss():
    """Hana, Gen, Emi and Dai have 2 points each; Gen beat Hana, but
    Hana's opponents scored 6 (Gen 2, Dai 2, Emi 2), Gen's 5, Emi's 4, Dai's 3."""
    rounds = [[game("Hana", "Gen", 0), game("Dai", "Chie", 1), game("Emi", "Aiko", 1)],
              [game("Hana", "Dai", 1), game("Gen", "Emi", 0), game("Chie", "Aiko", 1)],
              [game("Hana", "Emi", 1), game("Gen", "Chie", 1), game("Dai", "Aiko", 1)]]
    table = standings(["Aiko", "Chie", "Dai", "Emi", "Gen", "Hana"], rounds, "swiss")
    assert [r.name for r in table] == ["Hana", "Gen", "Emi", "Dai", "Chie", "Aiko"]
    assert [r.tiebreak for r in table[:4]] == [6, 5, 4, 3]


def test_W_head_to_head_decides_when_points_and_buchholz_are_level():
    """Everyone met everyone: Buchholz is then the others' points, level
    for level points.  Ben beat Aiko (2 each), Dai beat Chie (1 each)."""
    rounds = [[game("Ben", "Aiko", 1), game("Chie", "Dai", 0)],
              [game("Chie", "Ben", 1), game("Aiko", "Dai", 1)],
              [game("Ben", "Dai", 1), game("Aiko", "Chie", 1)]]
    table = standings(["Aiko", "Ben", "Chie", "Dai"], rounds, "swiss")
    assert [r.name for r in table] == ["Ben", "Aiko", "Dai", "Chie"]
    assert [r.tiebreak for r in table] == [4, 4, 5, 5] and [r.head_to_head for r in table] == [1, 0, 1, 0]
    assert head_to_head("Dai", ["Chie", "Dai"], rounds) == 1


def test_W_the_name_decides_last_when_three_beat_each_other_in_a_ring():
    rounds = [[game("Chie", "Aiko", 1), game("Ben", "Dai", 1)],
              [game("Aiko", "Ben", 1), game("Chie", "Dai", 1)],
              [game("Ben", "Chie", 1), game("Aiko", "Dai", 1)]]
    table = standings(["Dai", "Chie", "Ben", "Aiko"], rounds, "round_robin")
    assert [r.name for r in table] == ["Aiko", "Ben", "Chie", "Dai"]
    assert len({(r.points, r.tiebreak, r.head_to_head) for r in table[:3]}) == 1  # level on all but the name


# -- the store: rounds, rooms, next round ---------------------------------------------------------
def test_W_a_tournament_and_its_rounds_survive_a_restart(db):
    store = RoomStore(db)
    t = Tournaments(store).create(["Aiko", "Ben", "Chie", "Dai"], game="koinobori", system="swiss", rounds=2,
                                  name="Friday cup")
    first = Tournaments(store).rounds(t.id)
    rooms = Tournaments(store).rooms(t.id, 1)
    assert [store.room(r).names() for r in rooms] == [[p.first, p.second] for p in first[0]]
    play_out(store, rooms[0], random.Random(3))
    store.close()
    again = Tournaments(RoomStore(db))  # the server started again
    assert again.get(t.id) == t and again.all() == [t] and t.label() == "Friday cup"
    assert again.rounds(t.id)[0][0].score is not None and again.rounds(t.id)[0][1].score is None
    play_out(again.store, rooms[1], random.Random(4))
    made = again.next_round(t.id)
    assert len(made) == 2 and again.get(t.id).made == 2 and again.get(t.id).closed == 1


def test_W_next_round_waits_for_the_games_or_counts_them_as_draws_when_forced(db):
    store = RoomStore(db)
    cups = Tournaments(store)
    t = cups.create(["Aiko", "Ben", "Chie", "Dai", "Emi", "Fumi"], game="mipig", system="swiss", rounds=3)
    r1 = cups.rooms(t.id, 1)
    play_out(store, r1[0], random.Random(1))
    store.end(r1[1])  # the teacher ended one: its game is a draw
    with pytest.raises(RoundNotOverError, match=f"round 1: the games in {r1[2]} go on") as caught:
        cups.next_round(t.id)
    assert caught.value.rooms == [r1[2]] and cups.get(t.id).made == 1  # nothing made
    winner = cups.rounds(t.id)[0][0].score
    assert winner in (0, HALF, 1)
    made = cups.next_round(t.id, force=True)
    assert store.ended(r1[2]) and len(made) == 3
    assert [p.score for p in cups.rounds(t.id)[0]] == [winner, HALF, HALF]
    store.reset(r1[0])  # a closed round's result is kept as recorded
    assert cups.rounds(t.id)[0][0].score == winner
    top = cups.standings(t.id)[0].name
    assert top in (cups.rounds(t.id)[1][0].first, cups.rounds(t.id)[1][0].second)  # round 2's first game: the leader's
    for rid in cups.rooms(t.id, 2):
        play_out(store, rid, random.Random(2))
    assert len(cups.next_round(t.id)) == 3  # every game over: no force needed
    for rid in cups.rooms(t.id, 3):
        play_out(store, rid, random.Random(3))
    assert cups.next_round(t.id) == [] and cups.get(t.id).finished  # the last round: closed, no rooms
    with pytest.raises(TournamentError, match="is over: its 3 rounds are played"):
        cups.next_round(t.id)
    pairs = [frozenset((p.first, p.second)) for rnd in cups.rounds(t.id) for p in rnd]
    assert len(pairs) == len(set(pairs)) == 9  # no rematch
    assert sum(r.points for r in cups.standings(t.id)) == 9  # a point a game


def test_W_an_agent_at_a_level_takes_the_odd_seat_and_plays_its_moves(db):
    store = RoomStore(db)
    cups = Tournaments(store)
    t = cups.create(["Aiko", "Ben", "Chie"], game="koinobori", system="round_robin", agent="beginner")
    assert t.rounds == 3 and t.players() == ["Aiko", "Ben", "Chie", "beginner"]
    rooms = [store.room(r) for r in cups.rooms(t.id, 1)]
    agent_room = next(r for r in rooms if "beginner" in r.seats)
    assert sorted(agent_room.seats) == ["beginner", "person"] and "beginner" in agent_room.names()
    rng = random.Random(5)
    while not store.advance(agent_room.id).is_terminal():  # the agent moves in the store
        s = store.state(agent_room.id)
        store.play(agent_room.id, store.seq(agent_room.id), rng.choice(s.legal_actions()))
    assert any(p >= 0 and agent_room.seats[p] == "beginner" for p, _a in store.moves(agent_room.id))
    table = cups.standings(t.id)
    assert [r.agent for r in table].count(True) == 1 and len(table) == 4
    even = cups.create(["Aiko", "Ben", "Chie", "Dai"], game="koinobori", system="round_robin", agent="club")
    assert even.agent is None  # an even class has no odd seat


@pytest.mark.parametrize("kw, message", [
    ({"names": ["Aiko"]}, "two pupils or more"),
    ({"system": "knockout"}, "the systems are"),
    ({"agent": "mcts"}, "the odd seat is a bye or a level"),
    ({"names": ["Aiko", "Ben", "club"], "agent": "club"}, "like the agent of the odd seat"),
    ({"system": "round_robin", "rounds": 4}, "round robin of 4 pupils has 1 to 3 rounds, not 4"),
    ({"rounds": 0}, "1 to 30 rounds, not 0"),
    ({"game": "monster_cards", "options": {"players": 3}}, "two seats; monster_cards with these options has 3"),
])
def test_W_a_tournament_that_cannot_be_made_says_why_and_makes_no_room(db, kw, message):
    store = RoomStore(db)
    args = {"names": ["Aiko", "Ben", "Chie", "Dai"], "game": "koinobori", **kw}
    with pytest.raises(TournamentError, match=message):
        Tournaments(store).create(args.pop("names"), **args)
    assert store.ids() == [] and Tournaments(store).all() == []


# -- the teacher's page ------------------------------------------------------------------------------
def test_W_the_teachers_page_makes_a_tournament_shows_standings_by_name_and_the_next_round(db):
    store = RoomStore(db)
    lobby = Lobby(store, poll=None, language="en")
    panel = lobby.tournament
    assert "no tournament yet" in panel.status.value
    lobby.names.value = "Aiko\nBen\nChie\nDai\nEmi"
    lobby.game_picker.value = "mipig"
    panel.rounds.value, panel.odd.value = 2, "club"
    panel.make_button.click()
    assert "tournament 1 made: round 1 of 2" in panel.message.value
    assert store.roster() == ["Aiko", "Ben", "Chie", "Dai", "Emi"]
    assert list(lobby.watch.options) == ["R1", "R2", "R3"]  # the rooms are the lesson's, with links and codes
    for name in ("Aiko", "Ben", "Chie", "Dai", "Emi", "club (中級者)"):
        assert f"<td>{name}</td>" in panel.standings_html.value
    assert "player 0" not in panel.standings_html.value + panel.rounds_html.value
    assert "Buchholz" in panel.standings_html.value and "R1: Aiko v Ben, being played" in panel.rounds_html.value
    for name, link in Tournaments(store).links(1, lobby.base):  # each pupil's link and code for the whole tournament
        assert f"{name} (code {Tournaments(store).code(1, name)}): <a href=\"{link.replace('&', '&amp;')}\"" \
            in panel.links_html.value
    play_out(store, "R1", random.Random(1))
    panel.next_button.click()  # two games go on: it asks first
    assert "2 games go on (R2, R3): end them and count them as draws?" in panel.message.value
    assert panel.confirm_button.layout.display is None and Tournaments(store).get(1).made == 1
    panel.cancel_button.click()
    assert panel.confirm_button.layout.display == "none" and Tournaments(store).get(1).made == 1
    panel.next_button.click()
    panel.confirm_button.click()
    assert "round 2 of 2: 3 rooms made" in panel.message.value and list(lobby.watch.options)[-1] == "R6"
    assert "R2: Chie ½–½ Dai" in panel.rounds_html.value
    result = Tournaments(store).rounds(1)[0][0]
    assert f"R1: Aiko {'1–0' if result.score == 1 else '0–1' if result.score == 0 else '½–½'} Ben" \
        in panel.rounds_html.value
    for rid in ("R4", "R5", "R6"):
        store.end(rid)
    panel.next_button.click()
    assert "is over: the final standings" in panel.message.value and panel.next_button.disabled
    assert "final standings after 2 rounds" in panel.status.value


def test_W_the_teachers_page_says_why_no_tournament_is_made(db):
    lobby = Lobby(RoomStore(db), poll=None, language="en")
    lobby.names.value = "Aiko"
    lobby.tournament.make_button.click()
    assert "no tournament made: a tournament needs two pupils or more; got 1" in lobby.tournament.message.value
    lobby.tournament.next_button.click()
    assert "make a tournament first" in lobby.tournament.message.value


def _text(w) -> str:
    """Every HTML text and button label in a widget tree, in order."""
    import ipywidgets as widgets

    own = w.value if isinstance(w, widgets.HTML) else getattr(w, "description", "") or ""
    return own + " ".join(_text(c) for c in getattr(w, "children", ()))


def test_W_a_pupils_one_link_opens_their_game_of_each_round_by_itself(db):
    from cardlab.widgets.room import room_page
    from cardlab.widgets.tournament import TournamentSeat

    store = RoomStore(db)
    cups = Tournaments(store)
    t = cups.create(["Aiko", "Ben", "Chie"], game="mipig", system="swiss", rounds=2)
    links = dict(cups.links(t.id, "http://class.example/"))
    assert list(links) == ["Aiko", "Ben", "Chie"]
    assert links["Ben"].startswith("http://class.example/?room=T1&pupil=Ben&key=")
    pages = {n: room_page(links[n].split("?", 1)[1], store, language="en") for n in links}
    assert all(isinstance(p, TournamentSeat) for p in pages.values())
    (game,) = [p for p in cups.rounds(t.id)[0] if not p.bye]
    bye = next(p.first for p in cups.rounds(t.id)[0] if p.bye)
    assert f"you ({game.first}) against {game.second}" in _text(pages[game.first])
    assert f"Round 1: you ({bye}) have a bye" in _text(pages[bye])
    assert "round 1 of 2" in _text(pages[bye]) and "<td>Aiko</td>" in _text(pages[bye])  # the standings under it
    assert not pages[bye].sync()  # nothing changed: the page stays as it is
    play_out(store, cups.rooms(t.id, 1)[0], random.Random(1))
    cups.next_round(t.id)
    assert all(p.sync() for p in pages.values())  # the teacher made round 2: each page shows its new game
    (game2,) = [p for p in cups.rounds(t.id)[1] if not p.bye]
    assert bye in (game2.first, game2.second)  # the bye of round 1 plays in round 2
    assert f"you ({game2.first}) against {game2.second}" in _text(pages[game2.first])
    assert f"you ({game2.second}) against {game2.first}" in _text(pages[game2.second])
    assert "round 2 of 2" in _text(pages[bye])
    code = cups.code(t.id, bye)  # one code for the whole tournament, typed on the join page
    assert cups.code(t.id, bye) == code and store.join(code.lower()) == ("T1", ["Aiko", "Ben", "Chie"].index(bye))
    joined = room_page(f"join={code}", store, language="en")
    assert f"you ({bye}) against" in _text(joined) and "round 2 of 2" in _text(joined)
    with pytest.raises(TournamentError, match="'Dai' does not play in tournament 1"):
        cups.code(t.id, "Dai")
    for query in (links["Ben"].split("?", 1)[1].replace("pupil=Ben", "pupil=Aiko"),  # another pupil's key
                  links["Ben"].split("?", 1)[1].replace("room=T1", "room=T2"),  # no such tournament
                  "room=T1&pupil=Dai&key=" + cups.key(t.id, "Dai")):  # not in it
        assert "do not belong together" in _text(room_page(query, store, language="en"))


# -- the command line ----------------------------------------------------------------------------------
def test_W_cardlab_tournament_makes_one_goes_on_and_shows_the_standings_by_name(db, capsys):
    from cardlab.cli import main

    base = ["tournament", "--db", str(db), "--url", "http://class.example/"]
    assert main(base + ["--new", "Aiko", "Ben", "Chie", "--odd", "club", "--rounds", "2", "--name", "cup"]) == 0
    out = capsys.readouterr().out
    store = RoomStore(db)
    (t,) = Tournaments(store).all()
    assert "cup made: round 1 of 2" in out and t.agent == "club" and t.label() == "cup"
    for rid in Tournaments(store).rooms(t.id, 1):  # every open game's links, in full
        assert all(f"http://class.example/{link}" in out for link in store.links(rid))
    assert "club (中級者)" in out and "Buchholz" in out and "player 0" not in out
    for name, link in Tournaments(store).links(t.id, "http://class.example/"):
        assert f"{name} (code {Tournaments(store).code(t.id, name)}): {link}" in out
    assert main(base + ["--next"]) == 2  # games go on: nothing made, said why
    assert "go on; end them, or go on to the next round and count them as draws" in capsys.readouterr().err
    assert main(base + ["--next", "--force"]) == 0
    out = capsys.readouterr().out
    assert "round 2 of 2" in out and out.count("½-½") == 2 and Tournaments(store).get(t.id).made == 2
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [r[1] for r in rows] == [s.name if not s.agent else "club" for s in Tournaments(store).standings(t.id)]
    assert main(base + ["--id", "7"]) == 2 and "there is no tournament 7" in capsys.readouterr().err


def test_W_cardlab_tournament_refuses_a_file_that_is_not_a_class_store(tmp_path, capsys):
    """As ``cardlab rooms`` does (the same store opening): a clear error, no traceback."""
    from cardlab.cli import main

    bad = tmp_path / "notes.db"
    bad.write_text("not a database")
    assert main(["tournament", "--db", str(bad)]) != 0
    err = capsys.readouterr().err
    assert f"{bad}: cannot open the class rooms (file is not a database)" in err and "Traceback" not in err
