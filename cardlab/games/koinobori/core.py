"""Koi-koi Nobori's compact core (issue P, item 4): the rules of
:mod:`.rules` (docs/rules/koinobori.md, KN-1 … KN-Q12) on positions that are
single ints, its tables built by calling those rules.

Encoding (:func:`bits_of`, a :class:`cardlab.layout.Bits`).  The fields of
the State's key (:data:`.rules.KEY`) packed from the low bits up, every
count in its own field::

    sm         5 bits: stage * 2 + mover   (stage = index in STAGES)
    deck       5 counts (CARDS order), each bit_length(cards of that kind) wide
    field      3 counts (COLOURS), bit_length(cards of that colour) wide
    hand0/1    5 counts each, 2 bits (a hand holds at most 3 cards, KN-7)
    nobori0/1  6 counts each (KINDS order), as wide as the deck allows
    then       2 bits: 0 '', 1 'draw_hand', 2 'refill'
    kab0/1     kabutogaeshi used, bit_length(kabutogaeshi cards) wide
    koi0/1     1 bit each: koi-koi called (at the third nobori, KN-15)
    won        2 bits: 0 none, 1 + player (the koi-koi caller who won)

Every rule is a table look-up or the addition of a precomputed delta, each
table made from :mod:`.rules` when the core is made (:class:`_Tables`): a
turn move adds ``TD[sm][move]`` (the cards of :func:`.rules.nobori_cards`
moved between the count fields, the stage bits cleared), a chance card
``CD[sm][outcome]``; a card drawn after a play looks up
:func:`.rules.draw_capture` in ``DC``; the end test (:func:`.rules.can_act`
of each player, KN-12, KN-Q4) is ``ACT[both hands]``, a 16-bit mask by
(colours on the field, deck not empty) from ``FI[field bits]``, which also
says whether the field is full (:func:`.rules.field_full`).  Legal moves
(:func:`.rules.turn_moves`), chance outcomes, koi-koi verdicts
(:func:`.rules.koikoi_after_nobori`) and payoffs (:func:`.rules.score`,
:func:`.rules.payoff`) are memoised by the few bits they depend on.  The
rules are called through the module, so a rule swapped in :mod:`.rules`
reaches every core made afterwards.

Move codes: 0-5 ``nobori k`` (KINDS order), 6-8 ``play c``, 9-14 ``kabuto
k``, 15 ``pass``, 16-18 ``capture c``, 19 ``agari``, 20 ``koikoi``; chance
outcomes 32 + card (``deal``/``draw``/``refill``, by the stage) and 32 +
player (``first``).  ``moves`` and ``chance`` give cached tuples: do not
change them.

Every option is handled (open_hands, payoff, roles, koikoi,
refill_after_draw_capture, first_player, deck: any card file), so
``make_core`` never returns None.
"""

from __future__ import annotations

import itertools

from ...layout import Bits
from . import rules
from .rules import DRAW_HAND, F, K, KEY, REFILL, STAGES

__all__ = ["make_core", "bits_of", "TEST_OPTIONS"]

FIRST, DEAL, TURN, DRAWH, REFL, DRAWP, FUKI, KOIK, END = range(9)  # indexes in STAGES
PASS, CAPTURE, AGARI, KOIKOI, CHANCE0 = 15, 16, 19, 20, 32
#: the first move code of each verb of :func:`.rules.turn_moves` (``pass``: its index is -1)
VERB_CODE = {"nobori": 0, "play": 6, "kabuto": 9, "pass": PASS + 1}
THENS = ("", DRAW_HAND, REFILL)

TEST_OPTIONS = [
    {},
    {"open_hands": True},
    {"open_hands": True, "refill_after_draw_capture": False},
    {"open_hands": True, "payoff": "score", "koikoi": True},
    {"koikoi": True, "roles": True, "first_player": "random"},
    {"koikoi": True, "refill_after_draw_capture": False, "first_player": 1, "payoff": "score"},
    {"deck": "short", "open_hands": True, "roles": True},
    {"deck": "short", "koikoi": True, "payoff": "score", "refill_after_draw_capture": False},
    {"deck": {"cards": {"higoi": 3, "aokoi": 2, "magoi": 1, "fukinagashi": 4, "kabutogaeshi": 3},
              "points": {"higoi": 2, "aokoi": 1, "magoi": 3}, "fukinagashi_points": {"aokoi": 7},
              "roles": [{"name": "r", "bonus": 4, "requires": {"nobori": 2, "fukinagashi": 1}}]},
     "roles": True, "koikoi": True, "payoff": "score", "first_player": "random"},
    {"deck": {"cards": {"higoi": 4, "aokoi": 2, "magoi": 3, "fukinagashi": 0, "kabutogaeshi": 0},
              "points": {"higoi": 1, "aokoi": 0, "magoi": 1}}, "open_hands": True},
    {"deck": {"cards": {"higoi": 60, "aokoi": 1, "magoi": 2, "fukinagashi": 9, "kabutogaeshi": 5},
              "points": {"higoi": 1, "aokoi": 5, "magoi": 9}}, "koikoi": True},
]


def make_core(game):
    """The core of ``game``: every option value is handled."""
    return _Core(game)


def bits_of(counts) -> Bits:
    """The fields of a position int for a deck of ``counts`` (see the module docstring)."""
    fields = [("sm", 5)]
    fields += [(f"deck{i}", max(1, counts[i].bit_length())) for i in range(5)]
    fields += [(f"field{c}", max(1, counts[c].bit_length())) for c in range(3)]
    fields += [(f"hand{p}.{i}", rules.HAND_SIZE.bit_length()) for p in (0, 1) for i in range(5)]
    for p in (0, 1):  # a plain pair holds 2 carp; a fukinagashi pair 1 carp and 1 fukinagashi (KN-9)
        fields += [(f"nobori{p}.{c}", max(1, (counts[c] // 2).bit_length())) for c in range(3)]
        fields += [(f"nobori{p}.{3 + c}", max(1, min(counts[c], counts[F]).bit_length())) for c in range(3)]
    fields += [("then", 2)] + [(f"kab{p}", max(1, counts[K].bit_length())) for p in (0, 1)]
    return Bits(*fields, ("koi0", 1), ("koi1", 1), ("won", 2))


def _presence(fm: int) -> tuple[int, int, int]:
    """The colours on the field (bit c: colour c present) as a field of counts 0 or 1."""
    return (fm & 1, fm >> 1 & 1, fm >> 2 & 1)


def _hand_counts(bits: int) -> tuple[int, ...]:
    return tuple((bits >> (2 * i)) & 3 for i in range(5))


_SHARED: dict = {}  # tables that depend on rules and a shift only, by (maker, rule function, …)


def _shared(make, *key):
    """``make(*key)``, made once per key (a rule function in the key: a swapped rule makes it anew)."""
    table = _SHARED.get((make, *key))
    if table is None:
        table = _SHARED[(make, *key)] = make(*key)
    return table


def _hand_tables(can_act, hand_size, h0s):
    """KN-12, KN-Q4 by both hands (player 0's 10 bits at ``h0s``, player 1's next):
    ``ACT[both hands, in place]``, bit (colours present * 2 + deck not empty) set
    when either player can act (the game goes on, rules.game_over);
    ``HSUM[one hand, in place]``, its size; and whether every hand with a carp
    can act as long as the deck has a card (KN-Q4: it plays the carp), which
    makes "a carp in a hand and a card in the deck" one AND (``HCARP``)."""
    hands = [b for b in range(1024) if sum(_hand_counts(b)) <= hand_size]
    # act[hand]: can_act reads the field and the deck only as present or not
    act = {b: sum(1 << (fm * 2 + d) for fm in range(8) for d in (0, 1)
                  if can_act(d, _presence(fm), _hand_counts(b))) for b in hands}
    both = {(a | b << 10) << h0s: act[a] | act[b] for a in hands for b in hands}
    sizes = {b << (h0s + 10 * p): sum(_hand_counts(b)) for p in (0, 1) for b in hands}
    carp_acts = all(act[b] >> (fm * 2 + 1) & 1 for b in hands if any(_hand_counts(b)[:3]) for fm in range(8))
    return both, sizes, carp_acts


class _Tables:
    """The units, masks and tables of one game's core, each step built from :mod:`.rules`."""

    def __init__(self, game):
        self.counts = game.counts
        self.B = bits_of(game.counts)
        self._units()
        self._end_tests()
        self._turn_deltas()
        self._chance_deltas()
        self._by_stage()

    def one(self, name):
        return 1 << self.B.shift[name]

    def mask(self, *names):
        return sum(self.B.mask[n] << self.B.shift[n] for n in names)

    def _units(self):
        """The unit of each count field (``DECK1[i]``: one card ``i`` in the deck) and the zones' masks."""
        one, mask = self.one, self.mask
        self.DECK1 = [one(f"deck{i}") for i in range(5)]
        self.FLD1 = [one(f"field{c}") for c in range(3)]
        self.H1 = [[one(f"hand{p}.{i}") for i in range(5)] for p in (0, 1)]
        self.N1 = [[one(f"nobori{p}.{k}") for k in range(6)] for p in (0, 1)]
        self.KAB1 = [one(f"kab{p}") for p in (0, 1)]
        self.KOI1 = [one(f"koi{p}") for p in (0, 1)]
        self.WON = [one("won") * (1 + p) for p in (0, 1)]
        self.TS = self.B.shift["then"]  # then: 1 draw_hand, 2 refill (KN-Q3)
        self.DECKM = mask(*(f"deck{i}" for i in range(5)))
        self.CARPM = mask(*(f"deck{i}" for i in range(3)))  # KN-Q5: a carp left in the deck
        self.FMASK = mask(*(f"field{c}" for c in range(3)))
        self.HMASK = mask(*(f"hand{p}.{i}" for p in (0, 1) for i in range(5)))
        self.HPM = [mask(*(f"hand{p}.{i}" for i in range(5))) for p in (0, 1)]
        self.NS = [self.B.shift[f"nobori{p}.0"] for p in (0, 1)]
        self.NB = (1 << (self.B.shift["nobori0.5"] + self.B.mask["nobori0.5"].bit_length() - self.NS[0])) - 1
        self.SCORE_MASK = mask(*(f"nobori{p}.{k}" for p in (0, 1) for k in range(6)), "won")
        self.SM = [[s * 2 + p for p in (0, 1)] for s in range(9)]

    def _end_tests(self):
        """KN-8, KN-12, KN-Q4: the field's facts and who can act, by bits."""
        counts, FLD1 = self.counts, self.FLD1
        # FI[field bits, in place]: (colours present) << 1, +16 when the field is full (KN-8)
        self.FI = {a * FLD1[0] + b * FLD1[1] + c * FLD1[2]:
                   (a > 0) << 1 | (b > 0) << 2 | (c > 0) << 3 | rules.field_full((a, b, c)) << 4
                   for a, b, c in itertools.product(*(range(counts[c] + 1) for c in range(3)))}
        assert self.B.shift["hand1.0"] == self.B.shift["hand0.0"] + 10  # the hands' 20 bits side by side
        self.ACT, self.HSUM, carp_acts = _shared(_hand_tables, rules.can_act, rules.HAND_SIZE, self.B.shift["hand0.0"])
        self.HCARP = self.mask(*(f"hand{p}.{c}" for p in (0, 1) for c in range(3))) if carp_acts else 0

    def _turn_deltas(self):
        """TD[sm][move]: the count changes of a turn move (KN-8, KN-9, KN-10, KN-11, KN-Q4), the stage bits cleared."""
        SM, N1, H1, FLD1, DECK1 = self.SM, self.N1, self.H1, self.FLD1, self.DECK1
        self.TD = [None] * 32
        for p in (0, 1):
            o, sm = 1 - p, SM[TURN][p]
            row = [0] * 16
            for k in range(6):
                cards = rules.nobori_cards(k)
                from_hand = [n - (i == k % 3) for i, n in enumerate(cards)]  # the field gives one carp
                row[k] = N1[p][k] - sum(H1[p][i] * n for i, n in enumerate(from_hand)) - FLD1[k % 3] - sm
                # kabutogaeshi: both cards back into the deck, the kabutogaeshi used
                row[9 + k] = (sum(DECK1[i] * n for i, n in enumerate(cards)) - N1[o][k] - H1[p][K]
                              + self.KAB1[p] - sm)
            for c in range(3):
                row[6 + c] = FLD1[c] - H1[p][c] - sm + SM[DRAWP][p]  # KN-10: play, then the draw
            row[PASS] = -sm  # KN-Q4
            self.TD[sm] = row

    def _chance_deltas(self):
        """CD[sm][CHANCE0 + card]: a chance card leaves the deck, the stage bits
        cleared; drawn into the hand (KN-8 (1)) or laid on the field (KN-8
        (2)); CK[sm] the stage's kind; DC the draw after a play (KN-10, KN-2);
        DEAL_TO who is dealt (KN-7)."""
        SM, H1, FLD1 = self.SM, self.H1, self.FLD1
        self.CD = [[0] * CHANCE0 + [-self.DECK1[i] - sm for i in range(5)] for sm in range(32)]
        self.CK = [0] * 32
        for p in (0, 1):
            for i in range(5):
                self.CD[SM[DRAWH][p]][CHANCE0 + i] += H1[p][i]
                if i < 3:
                    self.CD[SM[REFL][p]][CHANCE0 + i] += FLD1[i]
            self.CK[SM[DRAWH][p]] = self.CK[SM[REFL][p]] = 1
            self.CK[SM[DRAWP][p]], self.CK[SM[DEAL][p]], self.CK[SM[FIRST][p]] = 2, 3, 4
        # DC[FI of the field][card]: the kind captured at once, -2 a choice (stage fuki), -1 to the hand
        by_colours = []
        for fm in range(8):
            kinds = [rules.draw_capture(i, _presence(fm)) for i in range(5)]
            by_colours.append(tuple(k[0] if len(k) == 1 else -2 if k else -1 for k in kinds))
        self.DC = [by_colours[fi >> 1 & 7] for fi in range(32)]
        # DEAL_TO[p][hand bits of p, in place]: the units of the hand dealt to next (p first, KN-7)
        self.DEAL_TO = [{bits: H1[rules.dealt_to(p, n)] for bits, n in self.HSUM.items() if bits & self.HPM[p] == bits}
                        for p in (0, 1)]

    def _by_stage(self):
        """Tables by the stage bits sm = stage * 2 + mover (p; o the other player)."""
        SM, N1 = self.SM, self.N1

        def by_sm(f):
            return [f(p) for _s in range(16) for p in (0, 1)]

        self.TURN_O = by_sm(lambda p: TURN * 2 + 1 - p)  # the other player's turn
        self.END_O = by_sm(lambda p: END * 2 + 1 - p)
        self.END_P = by_sm(lambda p: END * 2 + p)
        self.REFL_P = by_sm(lambda p: REFL * 2 + p)
        self.DRAWH_P = by_sm(lambda p: DRAWH * 2 + p)
        self.KOIK_P = by_sm(lambda p: KOIK * 2 + p)
        self.FUKI_P = by_sm(lambda p: FUKI * 2 + p)
        self.KOI_P = by_sm(lambda p: self.KOI1[p])
        self.KOI_O = by_sm(lambda p: self.KOI1[1 - p])
        self.WON_P = by_sm(lambda p: self.WON[p])
        self.NOB_P = by_sm(lambda p: N1[p])
        self.HAND_P = by_sm(lambda p: self.H1[p])
        self.NSP = by_sm(lambda p: self.NS[p])
        # FC[sm][c]: the drawn fukinagashi takes the field's carp c (KN-10, KN-2)
        self.FC = by_sm(lambda p: [N1[p][3 + c] - self.FLD1[c] - SM[FUKI][p] for c in range(3)])
        self.PLAYER = [-1] * 32
        for s in range(9):
            for p in (0, 1):
                self.PLAYER[SM[s][p]] = -2 if s == END else -1 if s in (FIRST, DEAL, DRAWH, REFL, DRAWP) else p


def _flow(t, koikoi_on):
    """The steps after a move (the State's ``_settle``, ``_captured``, ``_end_turn``)."""
    HCARP, DECKM, TURN_O, END_O, ACT, HMASK, FI, FMASK = t.HCARP, t.DECKM, t.TURN_O, t.END_O, t.ACT, t.HMASK, t.FI, t.FMASK
    CARPM, REFL_P, KOI_O, KOI_P, NSP, NB, END_P, WON_P = t.CARPM, t.REFL_P, t.KOI_O, t.KOI_P, t.NSP, t.NB, t.END_P, t.WON_P
    TS, KOIK_P, DRAWH_P, B, NS0 = t.TS, t.KOIK_P, t.DRAWH_P, t.B, t.NS[0]
    GO_ON, CALL, FAILED = rules.GO_ON, rules.CALL, rules.FAILED

    def to_turn(pos, sm):
        """The other player's turn, or the end when neither can make a nobori (KN-12, KN-Q4)."""
        if pos & HCARP and pos & DECKM:  # the fast case of the KN-Q4 test
            return pos + TURN_O[sm]
        if ACT[pos & HMASK] >> ((FI[pos & FMASK] & 14) | (1 if pos & DECKM else 0)) & 1:
            return pos + TURN_O[sm]
        return pos + END_O[sm]

    def refill_or_turn(pos, sm):
        """KN-8 (2): a field short of 3 cards is refilled while the deck holds a carp
        (KN-Q5); else the turn ends."""
        if not FI[pos & FMASK] & 16 and pos & CARPM:
            return pos + REFL_P[sm]
        return to_turn(pos, sm)

    verdicts = {}  # (the mover's nobori bits, koi-koi calls) -> rules.koikoi_after_nobori

    def verdict(key):
        nob = key >> 2 << NS0
        count = sum(B.get(nob, f"nobori0.{k}") for k in range(6))
        v = verdicts[key] = rules.koikoi_after_nobori(count, rules.KOIKOI_AT if key & 1 else 0, bool(key & 2))
        return v

    def captured(pos, sm, then):
        """After a new nobori of the mover: koi-koi (KN-15, KN-Q7), then
        ``then`` (1: draw 1 and refill, KN-8; 2: refill only, KN-Q3).
        ``pos`` has its stage bits cleared; ``sm`` held them."""
        if koikoi_on:
            key = ((pos >> NSP[sm]) & NB) << 2 | (2 if pos & KOI_O[sm] else 0) | (1 if pos & KOI_P[sm] else 0)
            v = verdicts.get(key)
            if v is None:
                v = verdict(key)
            if v != GO_ON:
                if v == FAILED:  # the opponent's koi-koi fails
                    return pos + END_P[sm]
                if v == CALL:
                    return pos + (then << TS) + KOIK_P[sm]
                return pos + WON_P[sm] + END_P[sm]  # one more than at the call
        if then == 1 and pos & DECKM:  # KN-8 (1): no draw from an empty deck
            return pos + DRAWH_P[sm]
        return refill_or_turn(pos, sm)

    return to_turn, refill_or_turn, captured


def _moves(t):
    """moves(pos) = MV[key]: the stage bits, the mover's hand, the colours on
    the field and whether the deck is empty decide the moves (the last two
    put in the deck's bits, which the key does not otherwise hold); a hand
    with a kabutogaeshi gives them by the kinds of the opponent's nobori."""
    SM, DECKM, FI, FMASK, B = t.SM, t.DECKM, t.FI, t.FMASK, t.B
    FIELD_BITS = _fields(B, [f"field{c}" for c in range(3)])
    HAND_BITS = [_fields(B, [f"hand{p}.{i}" for i in range(5)]) for p in (0, 1)]
    MVK, OPN = [31] * 32, [0] * 32
    for p in (0, 1):
        MVK[SM[TURN][p]] = 31 | t.HPM[p]
        OPN[SM[TURN][p]] = t.mask(*(f"nobori{1 - p}.{k}" for k in range(6)))
    FMK = {f: (v & 14) << 5 for f, v in FI.items()}  # colours present, at bits 6-8 (deck bits)
    ONE_KIND = [t.mask(f"nobori0.{k}", f"nobori1.{k}") for k in range(6)]
    MV, HELD = {}, {}  # HELD: the opponent's nobori bits -> the kinds held, a 6-bit mask
    KAB = {}  # (deck, colours present, hand) -> the moves by the kinds held (shared by both players)
    HELD_T = [tuple(held >> k & 1 for k in range(6)) for held in range(64)]  # as counts 0 or 1

    def codes(deck, field, hand, held):
        return tuple([VERB_CODE[verb] + i for verb, i in rules.turn_moves(deck, field, hand, HELD_T[held])])

    def turn_moves(pos):
        """The State's legal_actions() order (:func:`.rules.turn_moves`; KN-15 the
        call); with a kabutogaeshi in hand, a list of them by the kinds the opponent holds
        (each made when first met), the arguments last."""
        sm = pos & 31
        stage, p = sm >> 1, sm & 1
        field = tuple(pos >> sh & m for sh, m in FIELD_BITS)
        if stage == FUKI:
            return tuple(CAPTURE + k - 3 for k in rules.draw_capture(F, field))
        if stage == KOIK:
            return (AGARI, KOIKOI)
        if stage != TURN:
            return ()
        hand = tuple(pos >> sh & m for sh, m in HAND_BITS[p])
        deck = 1 if pos & DECKM else 0
        if hand[K]:  # KN-11, KN-Q6: kabuto each kind the opponent holds: by those kinds, made when met
            key = (deck, FI[pos & FMASK] & 14, hand)
            r = KAB.get(key)
            if r is None:
                r = KAB[key] = [None] * 64 + [(deck, field, hand)]
            return r
        return codes(deck, field, hand, 0)

    def moves(pos):
        key = (pos & MVK[pos & 31]) | FMK[pos & FMASK]
        if pos & DECKM:
            key |= 32  # the deck's bits (5-9 at least) keep "not empty" and the field's colours
        try:
            r = MV[key]
        except KeyError:
            r = MV[key] = turn_moves(pos)
        if r.__class__ is tuple:
            return r
        opn = pos & OPN[pos & 31]  # a kabutogaeshi in hand: by the kinds of the opponent's nobori
        held = HELD.get(opn)
        if held is None:
            held = HELD[opn] = sum(1 << k for k in range(6) if opn & ONE_KIND[k])
        m = r[held]
        if m is None:
            m = r[held] = codes(*r[64], held)
        return m

    return moves


def _chance(t):
    """chance(pos) = CH[pos & CHM[sm]]: the deck's counts at a deal or draw
    (KN-7, KN-8, KN-10, KN-Q8), its carp at a refill (KN-8), the stage
    bits themselves elsewhere (the coin of KN-Q11, or no outcome)."""
    SM, B = t.SM, t.B
    CHM, CH = [31] * 32, {}
    for p in (0, 1):
        for s in (DEAL, DRAWH, DRAWP):
            CHM[SM[s][p]] = t.DECKM
        CHM[SM[REFL][p]] = t.CARPM
        for s in range(9):
            CH[SM[s][p]] = ((CHANCE0, 1), (CHANCE0 + 1, 1)) if s == FIRST else ()

    def chance(pos):
        key = pos & CHM[pos & 31]
        try:
            return CH[key]
        except KeyError:
            deck = (B.get(key, f"deck{i}") for i in range(5))
            r = CH[key] = tuple((CHANCE0 + i, n) for i, n in enumerate(deck) if n)
            return r

    return chance


def _play(t, after, to_turn, refill_or_turn, captured):
    """play(pos, move): a chance outcome or a player's move (see the module docstring)."""
    CD, CK, FI, FMASK, DC, NOB_P, FLD1, TS, FUKI_P = t.CD, t.CK, t.FI, t.FMASK, t.DC, t.NOB_P, t.FLD1, t.TS, t.FUKI_P
    HAND_P, HCARP, DECKM, TURN_O, ACT, HMASK, END_O = t.HAND_P, t.HCARP, t.DECKM, t.TURN_O, t.ACT, t.HMASK, t.END_O
    DEAL_TO, HSUM, HPM, DECK1, SM, TD, FC = t.DEAL_TO, t.HSUM, t.HPM, t.DECK1, t.SM, t.TD, t.FC
    END_P, KOI_P, DRAWH_P, CARPM, REFL_P, HAND_SIZE = t.END_P, t.KOI_P, t.DRAWH_P, t.CARPM, t.REFL_P, rules.HAND_SIZE

    def play(pos, m):
        sm = pos & 31
        if m >= CHANCE0:
            pos += CD[sm][m]
            k = CK[sm]
            if k == 1:  # after a hand draw or a refill: refill (again) or the turn ends (KN-8)
                return refill_or_turn(pos, sm)
            i = m - CHANCE0
            if k == 2:  # KN-10: a drawn card that pairs is captured at once
                fi = FI[pos & FMASK]
                kind = DC[fi][i]
                if kind >= 0:
                    return captured(pos + NOB_P[sm][kind] - FLD1[kind % 3], sm, after)
                if kind == -2:
                    return pos + (after << TS) + FUKI_P[sm]  # KN-2: the player picks the carp
                pos += HAND_P[sm][i]
                if pos & HCARP and pos & DECKM:  # the fast case of the KN-Q4 test
                    return pos + TURN_O[sm]
                if ACT[pos & HMASK] >> ((fi & 14) | (1 if pos & DECKM else 0)) & 1:
                    return pos + TURN_O[sm]
                return pos + END_O[sm]
            if k == 3:  # KN-7: 3 to the first player (the mover), then 3 to the other
                p = sm & 1
                pos += DEAL_TO[p][pos & HPM[p]][i]
                if HSUM[pos & HPM[1 - p]] < HAND_SIZE:
                    return pos + sm
                return to_turn(pos, sm ^ 1)  # the first player's turn (KN-7)
            return pos + DECK1[i] + SM[DEAL][i]  # FIRST, KN-Q11: that player is dealt first
        if m < 16:  # a turn move
            pos += TD[sm][m]
            if m < 6:  # KN-8: a nobori, then draw 1 and refill
                return captured(pos, sm, 1)
            if m < 9:  # KN-10: the draw follows
                return pos
            if pos & HCARP and pos & DECKM:  # the fast case of the KN-Q4 test
                return pos + TURN_O[sm]  # KN-11, KN-Q4: the turn ends
            if ACT[pos & HMASK] >> ((FI[pos & FMASK] & 14) | (1 if pos & DECKM else 0)) & 1:
                return pos + TURN_O[sm]  # KN-11, KN-Q4: the turn ends
            return pos + END_O[sm]
        then = (pos >> TS) & 3
        if m < AGARI:  # the drawn fukinagashi takes its carp (KN-10, KN-2)
            return captured(pos + FC[sm][m - CAPTURE] - (then << TS), sm, then)
        pos -= sm + (then << TS)
        if m == AGARI:  # KN-15
            return pos + END_P[sm]
        # KN-15, KN-Q7: koi-koi, called at the third nobori; then the draw or refill
        pos += KOI_P[sm]
        if then == 1 and pos & DECKM:
            return pos + DRAWH_P[sm]
        fi = FI[pos & FMASK]
        if not fi & 16 and pos & CARPM:
            return pos + REFL_P[sm]
        return to_turn(pos, sm)

    return play


def _returns(t, game):
    """returns(pos): the payoffs at the end (:func:`.rules.score`, :func:`.rules.payoff`), memoised by the nobori bits."""
    SCORE_MASK, B = t.SCORE_MASK, t.B
    NOBORI_BITS = [_fields(B, [f"nobori{p}.{k}" for k in range(6)]) for p in (0, 1)]
    points, fuki_points, roles, kind = game.points, game.fuki_points, game.role_list, game.options["payoff"]
    memo = {}

    def returns(pos):
        if (pos & 31) >> 1 != END:
            return (0, 0)
        key = pos & SCORE_MASK
        r = memo.get(key)
        if r is None:
            won = B.get(pos, "won") - 1
            scores = [rules.score(tuple(pos >> sh & m for sh, m in NOBORI_BITS[p]), points, fuki_points,
                                  roles, won == p) for p in (0, 1)]
            d = rules.payoff(scores[0] - scores[1], kind)  # KN-13, KN-Q10
            r = memo[key] = (d, -d)
        return r

    return returns


def _fields(B, names):
    """``(shift, mask)`` of each named field of ``B``, to read them inline on a hot path."""
    return tuple((B.shift[n], B.mask[n]) for n in names)


class _Core:
    """The protocol functions of one game's core, made from its :class:`_Tables`."""

    def __init__(self, game):
        self.game = game
        self._last = (None, None)  # the last key encoded and its position
        t = _Tables(game)
        self.bits = t.B
        after = 1 if game.options["refill_after_draw_capture"] else 2  # KN-Q3: then after a draw capture
        to_turn, refill_or_turn, captured = _flow(t, bool(game.options["koikoi"]))
        PLAYER = t.PLAYER

        def player(pos):
            return PLAYER[pos & 31]

        self.player, self.moves, self.chance = player, _moves(t), _chance(t)
        self.play = _play(t, after, to_turn, refill_or_turn, captured)
        self.returns = _returns(t, game)

    # -- the API edge (not on the hot path) ------------------------------------
    def encode(self, state):
        """The int of a public state (None if a count is beyond its field)."""
        k = state.key
        if k == self._last[0]:  # playouts encode the same start again and again
            return self._last[1]
        pos = self._encode(KEY.named(k))
        self._last = (k, pos)
        return pos

    def _encode(self, k):
        koi = k["koikoi"]
        if any(v not in (0, rules.KOIKOI_AT) for v in koi):  # KN-15: the count at the call
            return None
        hands = (k["hand0"], k["hand1"])
        if any(sum(h) > rules.HAND_SIZE for h in hands):  # KN-7: the tables know hands of 3 cards at most
            return None
        values = {"sm": STAGES.index(k["stage"]) * 2 + k["mover"], "then": THENS.index(k["then"]),
                  "won": k["koikoi_won"] + 1}
        values.update((f"deck{i}", v) for i, v in enumerate(k["deck"]))
        values.update((f"field{c}", v) for c, v in enumerate(k["field"]))
        for p in (0, 1):
            values.update((f"hand{p}.{i}", v) for i, v in enumerate(hands[p]))
            values.update((f"nobori{p}.{j}", v) for j, v in enumerate(k[f"nobori{p}"]))
            values[f"kab{p}"], values[f"koi{p}"] = k["kabutogaeshi_used"][p], koi[p] // rules.KOIKOI_AT
        if not self.bits.fits(**values):
            return None
        return self.bits.pack(**values)

    def decode(self, pos):
        """The public state of ``pos``."""
        v = self.bits.unpack(pos)
        key = KEY.make(stage=STAGES[v["sm"] >> 1], mover=v["sm"] & 1,
                       deck=tuple(v[f"deck{i}"] for i in range(5)), field=tuple(v[f"field{c}"] for c in range(3)),
                       **{f"hand{p}": tuple(v[f"hand{p}.{i}"] for i in range(5)) for p in (0, 1)},
                       **{f"nobori{p}": tuple(v[f"nobori{p}.{j}"] for j in range(6)) for p in (0, 1)},
                       kabutogaeshi_used=(v["kab0"], v["kab1"]),
                       koikoi=(rules.KOIKOI_AT * v["koi0"], rules.KOIKOI_AT * v["koi1"]),
                       koikoi_won=v["won"] - 1, then=THENS[v["then"]])
        return self.game._from_key(key)
