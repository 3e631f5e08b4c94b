"""What a saved mipig position (:meth:`MipigState.to_dict`) must be to be
loaded (issue J): :func:`from_dict` checks it field by field, then as a
whole (:func:`battle_misfit`, :func:`shown_misfit`, :func:`end_misfit`)."""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ...cardfile import short as _short
from ...core import check_keys
from ...errors import PositionError
from ...i18n import _
from . import rules
from .key import (BATTLE, COIN, DEAL, END, JANKEN, KEY, PHASES, PLACE, TIEBREAK, HOWS, attackers, cell)
from .rules import MARKS

__all__ = ["from_dict", "battle_misfit", "shown_misfit", "end_misfit", "buildable", "connected"]

FIELDS = ["phase", "to_move", "first_player", "decided_by", "hands", "field", "graveyards",
          "janken_round", "pending", "shown", "outcome"]


def from_dict(g: Any, d: Mapping[str, Any]) -> Any:
    """The position ``d`` (:meth:`MipigState.to_dict`), checked (issue J) or refused with a
    :class:`PositionError` naming the field: types (players are 0 or 1, not 0.0 or True;
    card ids are strings of the card set), each player's cards all somewhere once (MP-3, the
    ready hands of the option ``hands``), what each phase requires (the deal only without
    ready hands; a janken or a coin only with the option first_player that calls for it, and
    the cards shown fit its rounds and result, MP-4, MP-Q2; a placement that can be laid card
    by card alternating from the first player, MP-5 … MP-7; empty hands from the battle on,
    MP-9), and the end as a property of the cards: a battle in which nobody can attack is
    over, the end janken and the end need that nobody can attack and that a battle was
    fought, and the outcome is the one the face-up cards and the end janken give (MP-23 …
    MP-25, MP-Q3).  A battle field is checked square by square too (:func:`battle_misfit`):
    the placement's one group less the cards that left it, face-up cards next to the cards
    they fought, and the attacks and passes that turned them up.
    """
    check_keys(d, FIELDS, "mipig")
    r = _Reader(g, d)
    ph, mover, first, how = r.header()
    hands, graves, shown, raw, origin, fld = r.cards()
    rnd, pending, outcome = r.round_pending_outcome(ph, mover, hands)
    shown = r.whose(ph, mover, how, rnd, first, hands, graves, shown, raw)
    r.placement(ph, mover, first, hands, graves, raw, origin)
    key = KEY.make(phase=ph, mover=mover, first=first, how=how, hand0=hands[0], hand1=hands[1], field=fld,
                   grave0=graves[0], grave1=graves[1], round=rnd, pending=pending, shown0=shown[0],
                   shown1=shown[1], outcome=outcome)
    return r.end(g.state_of(key, origin), ph, raw)


class _Reader:
    """The checks of :func:`from_dict`, step by step, on the position ``d`` of the game ``g``."""

    def __init__(self, g: Any, d: Mapping[str, Any]) -> None:
        self.g, self.d = g, d
        opts = d.get("options")  # missing: the game's own options
        if opts is not None and (not isinstance(opts, Mapping) or dict(opts) != g.options_dict()):
            raise PositionError(_("mipig: the position was saved with options {saved}; this game has {options}: "
                                  "load it with those options").format(saved=_short(opts),
                                                                       options=_short(g.options_dict())))

    @staticmethod
    def err(fld: str, why: str) -> PositionError:
        return PositionError(_("mipig: field {field}: {why}").format(field=repr(fld), why=why))

    def player(self, v: Any, fld: str) -> int:
        if type(v) is not int or v not in (0, 1):  # not True, not 0.0
            raise self.err(fld, _("must be 0 or 1, got {value}").format(value=_short(v)))
        return v

    def word(self, v: Any, fld: str, words: Sequence[str]) -> int:
        if not isinstance(v, str) or v not in words:
            raise self.err(fld, _("{value} unknown; one of {words}").format(value=_short(v),
                                                                           words=", ".join(map(repr, words))))
        return words.index(v)

    def header(self) -> tuple[int, int, int, int]:
        """The phase, the mover, the first player and how it was decided (MP-4, MP-Q2)."""
        g, d, err, word, player = self.g, self.d, self.err, self.word, self.player
        ph = word(d["phase"], "phase", PHASES)
        mover = player(d["to_move"], "to_move")
        first = -1 if d["first_player"] is None else player(d["first_player"], "first_player")
        how = word(d["decided_by"], "decided_by", HOWS)
        fp = g.options["first_player"]
        if ph == COIN and how < 3:
            raise err("decided_by", _("a coin is tossed for {how3}, {how4} or {how5}, not {how} (MP-Q2)").format(
                how3=repr(HOWS[3]), how4=repr(HOWS[4]), how5=repr(HOWS[5]), how=repr(d["decided_by"])))
        if (first < 0) != (ph in (DEAL, JANKEN, COIN)) or (first < 0) != (how == 0 or ph == COIN):
            raise err("first_player", _("{first} with decided_by {how} does not fit phase {phase} (the first player "
                                        "is known from placement on)").format(
                first=repr(first if first >= 0 else None), how=repr(d["decided_by"]), phase=repr(d["phase"])))
        # MP-4, MP-Q2: how the first player is decided is the option's
        if how and how not in {0: (1,), 1: (1,), "random": (3,), "janken": (2, 4, 5)}[fp]:
            raise err("decided_by", _("{how} does not fit the option first_player={option} (MP-4, MP-Q2)").format(
                how=repr(d["decided_by"]), option=repr(fp)))
        if how == 1 and first != fp:
            raise err("first_player", _("the option first_player={option} makes player {option} first, not "
                                        "{first}").format(option=fp, first=first))
        if ph == COIN and mover != 0:
            raise err("to_move", _("a coin is chance's move: to_move is 0 (MP-Q2)"))
        if ph == JANKEN and fp != "janken":
            raise err("phase", _("a janken for the first player needs the option first_player='janken', "
                                 "this game has {option} (MP-4, MP-Q2)").format(option=repr(fp)))
        if ph == DEAL and g.fixed_hands is not None:
            raise err("phase", _("nothing is dealt with ready hands (the option hands): the game starts after the "
                                 "deal"))
        return ph, mover, first, how

    def ids_list(self, obj: Any, fld: str) -> tuple:
        g, err = self.g, self.err
        if not isinstance(obj, list):
            raise err(fld, _("must be a list of card ids, got {value}").format(value=_short(obj)))
        out = []
        for cid in obj:
            if not isinstance(cid, str) or cid not in g.index:
                raise err(fld, _("card {card} is not in the card set {where}").format(card=_short(cid),
                                                                                     where=g.card_set.where))
            out.append(g.index[cid])
        return tuple(sorted(out))

    def pair(self, obj: Any, fld: str) -> list:
        err = self.err
        if not isinstance(obj, list) or len(obj) != 2:
            raise err(fld, _("must be a list of two entries (players 0, 1)"))
        return obj

    def cards(self) -> tuple:
        """Hands, graveyards, shown cards and the field (its origin, MP-Q4, and its packed cells)."""
        g, d, err, ids_list, pair, player = self.g, self.d, self.err, self.ids_list, self.pair, self.player
        hands = [ids_list(h, f"hands[{i}]") for i, h in enumerate(pair(d["hands"], "hands"))]
        graves = [ids_list(h, f"graveyards[{i}]") for i, h in enumerate(pair(d["graveyards"], "graveyards"))]
        shown = [ids_list(h, f"shown[{i}]") for i, h in enumerate(pair(d["shown"], "shown"))]
        if not isinstance(d["field"], list):
            raise err("field", _("must be a list of {x, y, owner, card, face_up}"))
        raw = []
        for i, c in enumerate(d["field"]):
            if not isinstance(c, Mapping) or set(c) != {"x", "y", "owner", "card", "face_up"}:
                raise err(f"field[{i}]", _("each cell needs exactly x, y, owner, card, face_up"))
            x, y, o, u = c["x"], c["y"], c["owner"], c["face_up"]
            if not all(type(v) is int for v in (x, y)):
                raise err(f"field[{i}]", _("x and y must be whole numbers, got {x}, {y}").format(x=_short(x), y=_short(y)))
            o = player(o, f"field[{i}].owner")
            if not isinstance(u, bool):
                raise err(f"field[{i}].face_up", _("must be true or false, got {value}").format(value=_short(u)))
            if not isinstance(c["card"], str) or c["card"] not in g.index:
                raise err(f"field[{i}].card", _("{card} is not in the card set {where}").format(
                    card=_short(c["card"]), where=g.card_set.where))
            raw.append((x, y, g.index[c["card"]], o, int(u)))
        if len({(x, y) for x, y, *_ in raw}) != len(raw):
            raise err("field", _("two cards on one square"))
        origin = (0, 0)
        if raw:  # MP-Q4: x, y are the squares' names; the key is translated, the names are kept
            origin = min(r[0] for r in raw), min(r[1] for r in raw)
            raw = [(x - origin[0], y - origin[1], c, o, u) for x, y, c, o, u in raw]
            if max(max(r[0], r[1]) for r in raw) > 30:  # the packed key holds spans up to 31 squares
                raise err("field", _("the cards may span at most 31 squares across and down"))
        fld = tuple(sorted(cell(*r) for r in raw))
        return hands, graves, shown, raw, origin, fld

    def round_pending_outcome(self, ph: int, mover: int, hands: list) -> tuple:
        """The janken round, the pending pick and the outcome (MP-Q2, MP-Q3, MP-24)."""
        g, d, err = self.g, self.d, self.err
        rnd = d["janken_round"]
        top = 0 if g.rounds is None else g.rounds - 1 if ph in (JANKEN, TIEBREAK) else g.rounds if ph == END else 0
        if type(rnd) is not int or not 0 <= rnd <= top:
            raise err("janken_round", _("must be a whole number from 0 to {top} in phase {phase} (janken_rounds is "
                                        "{rounds}, MP-Q2, MP-Q3), got {value}").format(
                top=top, phase=repr(d["phase"]), rounds=g.rounds, value=_short(rnd)))
        pend = d["pending"]
        pending = -1
        if pend is not None:
            if ph == JANKEN and mover == 1 and isinstance(pend, str) and g.index.get(pend, -1) in hands[0]:
                pending = g.index[pend]
            elif ph == TIEBREAK and mover == 1 and isinstance(pend, str) and pend in MARKS:
                pending = MARKS.index(pend)
            else:
                raise err("pending", _("{value} is not a pending pick here: only player 0's card (janken) "
                                       "or mark (tiebreak) while player 1 picks").format(value=_short(pend)))
        elif ph in (JANKEN, TIEBREAK) and mover == 1:
            raise err("pending", _("player 1 picks after player 0: player 0's pick is missing"))
        out = d["outcome"]
        outcome: Any = None
        if ph == END:
            if not isinstance(out, str) or not re.fullmatch(r"-?\d{1,9}(/\d{1,9})?", out) or out.endswith("/0"):
                raise err("outcome", _("the end needs player 0's result as a string like '1', '-1', '1/3', "
                                       "got {value}").format(value=_short(out)))
            outcome = Fraction(out)
            bound = g.spec.max_utility
            if not -bound <= outcome <= bound:
                raise err("outcome", _("{value} is outside [{low}, {high}]").format(value=repr(out), low=-bound,
                                                                                   high=bound))
            outcome = int(outcome) if outcome.denominator == 1 else outcome
        elif out is not None:
            raise err("outcome", _("only an ended game has an outcome"))

        return rnd, pending, outcome

    def whose(self, ph: int, mover: int, how: int, rnd: int, first: int, hands: list, graves: list, shown: list,
              raw: list) -> list:
        """Every player's cards all somewhere, each once (MP-3); the cards shown (MP-4)."""
        g, err = self.g, self.err
        n = g.n
        own = [Counter(hands[p]) + Counter(graves[p]) + Counter(c for _, _, c, o, _ in raw if o == p)
               for p in (0, 1)]
        if ph == DEAL:
            if raw or graves[0] or graves[1] or len(hands[0]) > n or (hands[1] and len(hands[0]) < n) \
                    or len(hands[1]) >= n or mover != (0 if len(hands[0]) < n else 1):
                raise err("hands", _("while dealing: player 0 gets all cards first, nothing is on the field, "
                                     "and to_move is the player being dealt"))
        else:
            for p in (0, 1):
                if sum(own[p].values()) != n:
                    raise err("hands", _("player {player} has {count} cards in hand, field and graveyard; hand_size "
                                         "is {n}").format(player=p, count=sum(own[p].values()), n=n))
        if g.fixed_hands is not None:
            for p in (0, 1):
                if own[p] != Counter(g.fixed_hands[p]):
                    raise err("hands", _("player {player}'s cards are not the ready hand of the option "
                                         "hands[{player}]").format(player=p))
        else:  # MP-3: a dealt hand has no card twice; one shared card set has no card in both hands
            for p in (0, 1):
                twice = sorted(c for c, v in own[p].items() if v > 1)
                if twice:
                    raise err("hands", (_("player {player} holds {card} twice") if g.shared else
                                        _("player {player} holds {card} twice; with deal='own' a card may be in both "
                                          "players' cards, once in each")).format(player=p, card=g.ids[twice[0]]))
            both = sorted(set(own[0]) & set(own[1]))
            if g.shared and both:
                raise err("hands", _("{card} is in both players' cards; with deal='shared' the hands come from one "
                                     "card set (deal='own': each player's own copy)").format(card=g.ids[both[0]]))
        for p in (0, 1):
            if not set(shown[p]) <= set(own[p]):
                raise err(f"shown[{p}]", _("a shown card must be one of that player's cards"))
            if len(set(shown[p])) != len(shown[p]):
                raise err(f"shown[{p}]", _("lists each card shown once (MP-4)"))
        why = shown_misfit(g, shown, ph, how, rnd, first)
        if why:
            raise err("shown", why)
        if g.options["open_hands"]:  # everything is visible: what was shown adds nothing
            shown = [(), ()]
        return shown

    def placement(self, ph: int, mover: int, first: int, hands: list, graves: list, raw: list,
                  origin: tuple[int, int]) -> None:
        """The field as the phase requires it (MP-5 … MP-9, MP-12, MP-15, MP-18)."""
        d, err = self.d, self.err
        ups = sum(u for *_, u in raw)
        if ph in (DEAL, JANKEN, COIN) and (raw or graves[0] or graves[1]):
            raise err("field", _("the field is empty before placement (phase {phase})").format(phase=repr(d["phase"])))
        if ph == PLACE:
            if ups or graves[0] or graves[1]:
                raise err("field", _("during placement every card is face down and nobody has lost one (MP-5)"))
            placed = [sum(1 for r in raw if r[3] == p) for p in (0, 1)]
            f = first
            expect = f if placed[f] == placed[1 - f] else 1 - f if placed[f] == placed[1 - f] + 1 else None
            if expect is None or expect != mover or not hands[mover]:
                raise err("to_move", _("placement alternates from the first player (MP-5): with {placed} cards "
                                       "placed player {player} moves").format(placed=placed, player=expect))
            if not connected([(x, y) for x, y, *_ in raw]):
                raise err("field", _("during placement the cards form one group touching along edges (MP-7)"))
            if not buildable([(x, y, o) for x, y, _, o, _ in raw], first):
                raise err("field", _("no placement alternating from the first player, each card touching an "
                                     "earlier one, gives this field (MP-5, MP-7)"))
        if ph in (BATTLE, TIEBREAK, END) and (hands[0] or hands[1]):
            raise err("hands", _("the battle starts when both hands are empty (MP-9)"))
        if ph in (BATTLE, TIEBREAK, END):
            why = battle_misfit(raw, graves, first, mover if ph == BATTLE else -1, origin)
            if why:
                raise err("field", why)

    def end(self, s: Any, ph: int, raw: list) -> Any:
        """The position ``s`` as a whole: the battle, its end and its janken (MP-23 … MP-25, MP-Q3)."""
        d, err = self.d, self.err
        fld = s.key[KEY.field]
        ups = sum(u for *_, u in raw)
        if ph == BATTLE:
            if attackers(fld) == (False, False):
                raise err("phase", _("nobody can attack: the game is over (MP-23); use phase 'end'"))
        if ph in (TIEBREAK, END) and not ups:  # MP-15: every battle leaves a face-up card on the field
            raise err("field", _("the battle ends after an attack, which leaves a face-up card on the field "
                                 "(MP-12, MP-15, MP-23)"))
        if ph in (TIEBREAK, END) and attackers(fld) != (False, False):
            raise err("phase", _("a face-down card can still attack: the battle goes on (MP-23), not {phase}").format(
                phase=repr(d["phase"])))
        if ph == TIEBREAK:
            if s.finished().key[KEY.phase] != TIEBREAK:
                raise err("phase", _("the end janken needs equal face-up counts, the option tiebreak='janken' and "
                                     "marks that can break the tie (MP-25, MP-Q3)"))
        if ph == END:
            why = end_misfit(s)
            if why:
                raise err("outcome", why)
        if not s.possible():
            raise err("shown" if ph not in (TIEBREAK, END) else "phase",
                      _("the marks of the cards do not fit how the first player was decided or how the end "
                        "janken went (MP-4, MP-Q2, MP-25, MP-Q3)"))
        return s



def _ties_needed(t0: Sequence[int], t1: Sequence[int], mark: Sequence[int]) -> int | None:
    """MP-Q2: the fewest tied janken rounds (equal marks) that show the cards ``t0`` of
    player 0 and ``t1`` of player 1; ``None`` if no tied rounds can (a mark on one side only)."""
    c0, c1 = Counter(mark[c] for c in t0), Counter(mark[c] for c in t1)
    if set(c0) != set(c1):
        return None
    return sum(max(c0[m], c1[m]) for m in c0)


def shown_misfit(g: Any, shown: list, ph: int, how: int, rnd: int, first: int) -> str:
    """Why the cards shown in the first-player janken (MP-4, MP-Q2) cannot be those of this
    position ("" if they can).  Every round shows one card of each player; a tie (equal marks)
    repeats, up to janken_rounds rounds; a win ends the janken.  With open hands nothing is
    kept as shown (an open copy of a hidden position drops it)."""
    s0, s1 = shown
    empty = not s0 and not s1
    if g.options["open_hands"] and empty:
        return ""
    mark = g.mark
    if how == 4 and not empty:  # tied rounds, the last on a mark that no card beats (MP-Q2)
        need = _ties_needed(s0, s1, mark)
        if need is None or (g.rounds is not None and need > g.rounds):
            if g.rounds is None:
                return _("a tie that cannot break ends tied janken rounds (equal marks), one card of each "
                         "player a round (MP-4, MP-Q2)")
            return _("a tie that cannot break ends tied janken rounds (equal marks), one card of each "
                     "player a round, at most {rounds} (MP-4, MP-Q2)").format(rounds=g.rounds)
        return ""
    if ph == DEAL or how in (1, 3, 4):
        return "" if empty else _("no janken was played for the first player here: nothing was shown")
    if ph == JANKEN and g.rounds is None:  # no cap: the tied rounds are not counted (any number)
        if _ties_needed(s0, s1, mark) is None:
            return _("tied janken rounds (equal marks) show one card of each player a round (MP-4, MP-Q2)")
        return ""
    if ph == JANKEN or how == 5:
        ties = rnd if ph == JANKEN else g.rounds
        need = _ties_needed(s0, s1, mark)
        if need is None or need > ties or (empty and ties and not g.options["open_hands"]):
            return _("{ties} tied janken rounds (equal marks) show one card of each player a round, "
                     "each card shown is kept (MP-4, MP-Q2)").format(ties=ties)
        return ""
    if how == 2:  # tied rounds, then a decisive one: its winner goes first
        for a in s0:
            for b in s1:
                if rules.janken_beats(mark[a], mark[b]) != (first == 0) or mark[a] == mark[b]:
                    continue
                for t0 in ([c for c in s0 if c != a], s0):
                    for t1 in ([c for c in s1 if c != b], s1):
                        need = _ties_needed(t0, t1, mark)
                        if need is not None and need < g.cap:
                            return ""
        if g.rounds is None:
            return _("player {player} won the janken (MP-4): the cards shown are the winning pair and the "
                     "tied rounds before it (MP-Q2)").format(player=first)
        return _("player {player} won the janken (MP-4): the cards shown are the winning pair and the "
                 "tied rounds before it, fewer than {rounds} (MP-Q2)").format(player=first, rounds=g.rounds)
    return ""


def end_misfit(s: Any) -> str:
    """Why this end cannot follow from its cards (MP-23 … MP-25, MP-Q3), "" if it can."""
    k = s.key
    g = s.game
    end = s.finished()  # how the battle ended with these cards
    if end.key[KEY.phase] == END:
        if end.key != k:
            return _("with these cards the game ends at once with player 0's outcome {outcome} "
                     "(janken_round 0, to_move 0; MP-24, MP-25)").format(outcome=end.key[KEY.outcome])
        return ""
    if k[KEY.mover] != 1:
        return _("equal face-up counts go to the end janken (MP-25), which ends with player 1's pick (to_move 1)")
    won = k[KEY.outcome]
    if won not in (1, 0, -1):
        return _("the end janken is won, lost or drawn: '1', '-1' or '0' (MP-25, MP-Q3)")
    m0, m1 = s.tiebreak_marks(0), s.tiebreak_marks(1)
    if won == 0 and rules.locked(m0, m1) and (g.rounds is None or k[KEY.round] <= g.rounds):
        return ""  # a tie that cannot break: a draw (MP-Q3)
    if g.rounds is None and won == 0:
        return _("with no cap on tied rounds (janken_rounds=None) the end janken is picked again until it "
                 "breaks or ties on a mark no counted card beats (MP-Q3)")
    if (won == 0) != (k[KEY.round] == g.rounds):
        return _("the end janken is drawn after {rounds} tied rounds (janken_round {rounds}) and "
                 "won before (MP-Q3)").format(rounds=g.rounds)
    return ""


def connected(points: list[tuple[int, int]]) -> bool:
    if not points:
        return True
    pts = set(points)
    todo = [points[0]]
    seen = {points[0]}
    while todo:
        x, y = todo.pop()
        for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if q in pts and q not in seen:
                seen.add(q)
                todo.append(q)
    return len(seen) == len(pts)


def buildable(cells: list[tuple[int, int, int]], first: int) -> bool:
    """MP-5 … MP-7: whether the cards ``(x, y, owner)`` can be laid one by one, the owners
    alternating from ``first``, each card after the first touching an earlier one along an
    edge.  Exact: take back the last card (the right owner's, touching the rest) and recurse."""
    where = {(x, y): i for i, (x, y, _) in enumerate(cells)}
    nb = [sum(1 << where[q] for q in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if q in where)
          for x, y, _ in cells]
    owner = [o for *_, o in cells]
    memo: dict[int, bool] = {}

    def joined(mask: int) -> bool:  # the cards of ``mask`` form one group
        seen = todo = mask & -mask
        while todo:
            i = (todo & -todo).bit_length() - 1
            todo &= todo - 1
            new = nb[i] & mask & ~seen
            seen |= new
            todo |= new
        return seen == mask

    def ok(mask: int, size: int) -> bool:
        if size == 1:
            return owner[mask.bit_length() - 1] == first
        got = memo.get(mask)
        if got is None:
            who = first if size % 2 else 1 - first
            got = any(mask >> i & 1 and owner[i] == who and nb[i] & mask and joined(mask ^ (1 << i))
                      and ok(mask ^ (1 << i), size - 1) for i in range(len(cells)))
            memo[mask] = got
        return got

    return not cells or ok((1 << len(cells)) - 1, len(cells))




def battle_misfit(raw: list, graves: list, first: int, mover: int, origin: tuple[int, int]) -> str:
    """Why the battle field ``raw`` (cells ``(x, y, card, owner, up)``, key coordinates) with
    these graveyards cannot be reached from a placement, "" if it can (J).  The placement
    left one group of cards touching along edges (MP-7); a battle turns both cards up
    (MP-12) and sends the loser to its owner's graveyard (MP-15), leaving its square empty,
    so: the cards now on the field and the lost ones fill one group, each lost card
    joining at most four groups; with nothing lost, the field is the placement's own
    (MP-5 … MP-7).  A face-up card fought a touching opponent card, which is face up now
    or lost (its square empty): never a face-down one.  Each attack turns up one face-down
    card of the attacker (MP-11, MP-16), each battle has one defender and at most one
    loser; the players alternate, and a player passes only once no attack is left to them,
    which stays so (MP-10, MP-18): with ``mover`` to move (-1 at the end)."""
    occ = {(x, y): (o, u) for x, y, _, o, u in raw}
    lost = [len(graves[0]), len(graves[1])]
    near = ((1, 0), (-1, 0), (0, 1), (0, -1))
    for x, y, _c, o, u in raw:
        if u and not any((lost[1 - o] if occ.get((x + dx, y + dy)) is None else
                          occ[(x + dx, y + dy)] == (1 - o, 1)) for dx, dy in near):
            return _("the face-up card on {square} touches no face-up card of player {player} and no empty "
                     "square a lost card of theirs left: it fought none (MP-11, MP-12, MP-15)").format(
                square=f"{x + origin[0]},{y + origin[1]}", player=1 - o)
    groups, seen = 0, set()
    for start in occ:
        if start not in seen:
            groups += 1
            todo = [start]
            seen.add(start)
            while todo:
                x, y = todo.pop()
                for dx, dy in near:
                    q = (x + dx, y + dy)
                    if q in occ and q not in seen:
                        seen.add(q)
                        todo.append(q)
    if groups - 1 > 3 * sum(lost):
        return _("the cards form {groups} groups; the placement laid one (MP-7) and each of the "
                 "{lost} lost cards left one square empty, joining at most four groups (MP-15)").format(
            groups=groups, lost=sum(lost))
    if not sum(lost) and not buildable([(x, y, o) for x, y, _, o, _ in raw], first):
        return _("nothing was lost, so the field is the placement's: no placement alternating from the "
                 "first player, each card touching an earlier one, gives it (MP-5, MP-7)")
    ups = [sum(1 for *_, o, u in raw if u and o == p) for p in (0, 1)]
    if sum(lost) and not sum(ups):
        return _("every battle leaves its winner (or both cards of a draw) as a face-up card on the field (MP-15)")
    fought = [ups[p] + lost[p] for p in (0, 1)]  # each of them attacked or defended
    can = attackers(tuple(cell(x, y, c, o, u) for x, y, c, o, u in raw))
    s = 1 - first
    lag = int(mover == s)  # the first player has had one turn more
    for af in range(fought[first] + 1):
        for a_s in range(fought[s] + 1):
            if af + a_s < max(fought[0], fought[1], sum(lost)):
                continue  # each battle: one defender, at most one loser
            if mover < 0:
                return ""
            if can[first] and can[s]:
                ok = af - a_s == lag  # nobody has passed yet
            elif can[s]:
                ok = af <= a_s + lag  # the first player passes since
            else:
                ok = a_s <= af - lag
            if ok:
                return ""
    counts = dict(up0=ups[0], up1=ups[1], lost0=lost[0], lost1=lost[1])
    if mover >= 0:
        return _("{up0} and {up1} face-up cards and {lost0} and {lost1} lost ones are not what "
                 "alternating attacks (one face-down card of the attacker each, MP-11, MP-16) and passes "
                 "(MP-18) give with player {player} to move").format(player=mover, **counts)
    return _("{up0} and {up1} face-up cards and {lost0} and {lost1} lost ones are more than "
             "the battles can give (one face-down attacker each, MP-11, MP-16; one loser at most, MP-15)"
             ).format(**counts)
