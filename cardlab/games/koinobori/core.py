"""Koi-koi Nobori's compact core (issue P, item 4): the rules of
``cardlab/games/koinobori.py`` (docs/rules/koinobori.md, KN-1 … KN-Q12) on
positions that are single ints.

Encoding.  The State key ``(stage, mover, deck, field, hand0, hand1,
nobori0, nobori1, kabutogaeshi_used, koikoi, koikoi_won, then)`` packed from
the low bits up, every count in its own field::

    bits 0-4   stage * 2 + mover           (stage = index in STAGES)
    deck       5 counts (CARDS order), each bit_length(cards of that kind) wide
    field      3 counts (COLOURS), bit_length(cards of that colour) wide
    hand0/1    5 counts each, 2 bits (a hand holds at most 3 cards, KN-7)
    nobori0/1  6 counts each (KINDS order), as wide as the deck allows
    then       2 bits: 0 '', 1 'draw_hand', 2 'refill'
    kab0/1     kabutogaeshi used, bit_length(kabutogaeshi cards) wide
    koi0/1     1 bit each: koi-koi called (at the third nobori: the count 3, KN-15)
    won        2 bits: 0 none, 1 + player (the koi-koi caller who won)

Every rule is a table look-up or the addition of a precomputed delta: a turn
move adds ``TD[sm][move]`` (``sm`` the stage bits; the delta moves the cards
between the count fields and clears the stage bits), a chance card
``CD[sm][outcome]``, and the stage that follows is set as the engine's
``_settle`` and ``_captured`` set it (``to_turn``, ``captured``).  The
engine's two end-of-game tests (``_can_act`` of each player, KN-12, KN-Q4)
are one test here: a carp in either hand with cards in the deck (the common
case: two ANDs), else ``ACT[both hands]``, a 16-bit mask by (colours on the
field, deck not empty) from ``FI[field bits]``, which also says whether the
field is full (KN-8).  Legal moves, chance outcomes and payoffs are memoised
by the few bits they depend on.

Move codes: 0-2 ``nobori c``, 3-5 ``nobori fuki+c``, 6-8 ``play c``, 9-14
``kabuto k`` (KINDS order), 15 ``pass``, 16-18 ``capture c``, 19 ``agari``,
20 ``koikoi``; chance outcomes 32 + card (``deal``/``draw``/``refill``, by
the stage) and 32 + player (``first``).  ``moves`` and ``chance`` give
cached tuples: do not change them.

Every option is handled (open_hands, payoff, roles, koikoi,
refill_after_draw_capture, first_player, deck: any card file), so
``make_core`` never returns None.
"""

from __future__ import annotations

import itertools

from .state import (
    DRAW_HAND,
    F,
    K,
    KOIKOI_BONUS,
    REFILL,
    STAGES,
    KoinoboriState,
    _role_met,
)

__all__ = ["make_core", "TEST_OPTIONS"]

FIRST, DEAL, TURN, DRAWH, REFL, DRAWP, FUKI, KOIK, END = range(9)  # indexes in STAGES
PASS, CAPTURE, AGARI, KOIKOI, CHANCE0 = 15, 16, 19, 20, 32
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


class _Core:
    """Closures over the tables of one game (see the module docstring)."""

    def __init__(self, game):
        self.game = game
        self._last = (None, None)  # the last key encoded and its position
        counts = game.counts
        opts = game.options
        koikoi_on = bool(opts["koikoi"])
        after = 1 if opts["refill_after_draw_capture"] else 2  # KN-Q3: then after a draw capture
        win_payoff = opts["payoff"] == "win"

        # -- layout: (shift, width) of every count field ---------------------
        shift = 5
        fields = {}

        def lay(name, width):
            nonlocal shift
            fields[name] = (shift, width)
            shift += width

        for i in range(5):
            lay(("deck", i), max(1, counts[i].bit_length()))
        for c in range(3):
            lay(("field", c), max(1, counts[c].bit_length()))
        for p in (0, 1):
            for i in range(5):
                lay(("hand", p, i), 2)
        for p in (0, 1):
            for c in range(3):
                lay(("nob", p, c), max(1, (counts[c] // 2).bit_length()))
            for c in range(3):
                lay(("nob", p, 3 + c), max(1, min(counts[c], counts[F]).bit_length()))
        lay("then", 2)
        for p in (0, 1):
            lay(("kab", p), max(1, counts[K].bit_length()))
        for p in (0, 1):
            lay(("koi", p), 1)
        lay("won", 2)
        self.fields = fields
        # the fields in the order of the State key (see encode)
        self._order = [fields[n] for n in (*(("deck", i) for i in range(5)), *(("field", c) for c in range(3)),
                                           *(("hand", p, i) for p in (0, 1) for i in range(5)),
                                           *(("nob", p, k) for p in (0, 1) for k in range(6)),
                                           ("kab", 0), ("kab", 1), ("koi", 0), ("koi", 1), "won", "then")]

        def one(name):
            return 1 << fields[name][0]

        def mask(*names):
            m = 0
            for n in names:
                s, w = fields[n]
                m |= ((1 << w) - 1) << s
            return m

        DECK1 = [one(("deck", i)) for i in range(5)]
        FLD1 = [one(("field", c)) for c in range(3)]
        H1 = [[one(("hand", p, i)) for i in range(5)] for p in (0, 1)]
        N1 = [[one(("nob", p, k)) for k in range(6)] for p in (0, 1)]
        KAB1 = [one(("kab", p)) for p in (0, 1)]
        KOI1 = [one(("koi", p)) for p in (0, 1)]
        WON = [one("won") * (1 + p) for p in (0, 1)]
        TS = fields["then"][0]  # then: 1 draw_hand, 2 refill (KN-Q3)
        DECKM = mask(*(("deck", i) for i in range(5)))
        CARPM = mask(*(("deck", i) for i in range(3)))  # KN-Q5: a carp left in the deck
        NS = [fields[("nob", p, 0)][0] for p in (0, 1)]
        NB = (1 << (fields[("nob", 0, 5)][0] + fields[("nob", 0, 5)][1] - NS[0])) - 1
        SCORE_MASK = mask(*(("nob", p, k) for p in (0, 1) for k in range(6)), "won")
        SM = [[s * 2 + p for p in (0, 1)] for s in range(9)]

        def get(pos, name):
            s, w = fields[name]
            return (pos >> s) & ((1 << w) - 1)

        # -- tables ----------------------------------------------------------
        FMASK = mask(*(("field", c) for c in range(3)))
        HMASK = mask(*(("hand", p, i) for p in (0, 1) for i in range(5)))

        def counts_of(pos, zone, n, *pre):
            return tuple(get(pos, (zone, *pre, i)) for i in range(n))

        # FI[field bits, in place]: (colours present) << 1, +16 when the field holds 3 or more (KN-8)
        FI = {a * FLD1[0] + b * FLD1[1] + c * FLD1[2]:
              (a > 0) << 1 | (b > 0) << 2 | (c > 0) << 3 | (a + b + c >= 3) << 4
              for a, b, c in itertools.product(*(range(counts[c] + 1) for c in range(3)))}

        def hand_counts(bits):
            return tuple((bits >> (2 * i)) & 3 for i in range(5))

        def can_act(fm, deck_nonempty, h):
            """KN-Q4: a pair is possible, or the deck is not empty and a carp can be played."""
            if any(h[c] and fm >> c & 1 for c in range(3)):
                return True
            if h[F] and fm:
                return True
            return bool(deck_nonempty and (h[0] or h[1] or h[2]))

        # ACT[both hands, in place]: bit (colours present * 2 + deck not empty) set
        # when either player can act; the game goes on (KN-12, KN-Q4)
        HANDS = [b for b in range(1024) if sum(hand_counts(b)) <= 3]
        act = {b: sum(1 << (fm * 2 + d) for fm in range(8) for d in (0, 1) if can_act(fm, d, hand_counts(b)))
               for b in HANDS}
        H0S = fields[("hand", 0, 0)][0]
        ACT = {(a | b << 10) << H0S: act[a] | act[b] for a in HANDS for b in HANDS}
        # a carp in a hand and a card in the deck: that player can play it (KN-Q4), the game goes on
        HCARP = mask(*(("hand", p, c) for p in (0, 1) for c in range(3)))
        HSUM = {b << fields[("hand", p, 0)][0]: sum(hand_counts(b)) for p in (0, 1) for b in HANDS}
        HPM = [mask(*(("hand", p, i) for i in range(5))) for p in (0, 1)]

        # tables by the stage bits sm = stage * 2 + mover (p; o the other player)
        def by_sm(f):
            return [f(s, p) for s in range(16) for p in (0, 1)]

        TURN_O = by_sm(lambda s, p: TURN * 2 + 1 - p)  # the other player's turn
        END_O = by_sm(lambda s, p: END * 2 + 1 - p)
        END_P = by_sm(lambda s, p: END * 2 + p)
        REFL_P = by_sm(lambda s, p: REFL * 2 + p)
        DRAWH_P = by_sm(lambda s, p: DRAWH * 2 + p)
        KOIK_P = by_sm(lambda s, p: KOIK * 2 + p)
        FUKI_P = by_sm(lambda s, p: FUKI * 2 + p)
        KOI_P = by_sm(lambda s, p: KOI1[p])
        KOI_O = by_sm(lambda s, p: KOI1[1 - p])
        WON_P = by_sm(lambda s, p: WON[p])
        NOB_P = by_sm(lambda s, p: N1[p])
        HAND_P = by_sm(lambda s, p: H1[p])
        NSP = by_sm(lambda s, p: NS[p])

        # TD[sm][move]: the count changes of a turn move, the stage bits cleared
        TD = by_sm(lambda s, p: None)
        for p in (0, 1):
            o, sm = 1 - p, SM[TURN][p]
            row = [0] * 16
            for c in range(3):
                row[c] = N1[p][c] - H1[p][c] - FLD1[c] - sm  # KN-8
                row[3 + c] = N1[p][3 + c] - H1[p][F] - FLD1[c] - sm  # KN-8, KN-9
                row[6 + c] = FLD1[c] - H1[p][c] - sm + SM[DRAWP][p]  # KN-10
            for k in range(6):  # KN-11: both cards back into the deck, the kabutogaeshi used
                back = 2 * DECK1[k] if k < 3 else DECK1[k - 3] + DECK1[F]
                row[9 + k] = back - N1[o][k] - H1[p][K] + KAB1[p] - sm
            row[PASS] = -sm  # KN-Q4
            TD[sm] = row
        # CD[sm][CHANCE0 + card]: a chance card leaves the deck, the stage bits cleared; drawn
        # into the hand (KN-8 (1)) or laid on the field (KN-8 (2)); CK[sm] the stage's kind
        CD = [[0] * CHANCE0 + [-DECK1[i] - sm for i in range(5)] for sm in range(32)]
        CK = [0] * 32
        for p in (0, 1):
            for i in range(5):
                CD[SM[DRAWH][p]][CHANCE0 + i] += H1[p][i]
                if i < 3:
                    CD[SM[REFL][p]][CHANCE0 + i] += FLD1[i]
            CK[SM[DRAWH][p]] = CK[SM[REFL][p]] = 1
            CK[SM[DRAWP][p]], CK[SM[DEAL][p]], CK[SM[FIRST][p]] = 2, 3, 4
        # FC[sm][c]: the drawn fukinagashi takes the field's carp c (KN-10, KN-2)
        FC = by_sm(lambda s, p: [N1[p][3 + c] - FLD1[c] - SM[FUKI][p] for c in range(3)])
        # the one colour on the field (a drawn fukinagashi takes it at once), or -1
        SINGLE = [{1: 0, 2: 1, 4: 2}.get(fm, -1) for fm in range(8)]
        NONE = ()

        # -- the flow (the engine's _settle, _captured, _end_turn) ----------------
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

        nsum = {}

        def captured(pos, sm, then):
            """After a new nobori of the mover: koi-koi (KN-15, KN-Q7), then
            ``then`` (1: draw 1 and refill, KN-8; 2: refill only, KN-Q3).
            ``pos`` has its stage bits cleared; ``sm`` held them."""
            if koikoi_on:
                if pos & KOI_O[sm]:  # the opponent's koi-koi fails
                    return pos + END_P[sm]
                nb = (pos >> NSP[sm]) & NB
                count = nsum.get(nb)
                if count is None:
                    count = nsum[nb] = sum(get(nb << NS[0], ("nob", 0, k)) for k in range(6))
                if pos & KOI_P[sm]:
                    if count > 3:  # one more than at the call
                        return pos + WON_P[sm] + END_P[sm]
                elif count == 3:
                    return pos + (then << TS) + KOIK_P[sm]
            if then == 1 and pos & DECKM:  # KN-8 (1): no draw from an empty deck
                return pos + DRAWH_P[sm]
            return refill_or_turn(pos, sm)

        # -- the protocol ----------------------------------------------------
        PLAYER = [-1] * 32
        for s in range(9):
            for p in (0, 1):
                PLAYER[SM[s][p]] = -2 if s == END else -1 if s in (FIRST, DEAL, DRAWH, REFL, DRAWP) else p

        def player(pos):
            return PLAYER[pos & 31]

        # moves(pos) = MV[key]: the stage bits, the mover's hand, the colours on
        # the field and whether the deck is empty decide the moves (the last two
        # put in the deck's bits, which the key does not otherwise hold); a hand
        # with a kabutogaeshi gives them by the kinds of the opponent's nobori
        MVK = [31] * 32
        OPN = [0] * 32
        for p in (0, 1):
            MVK[SM[TURN][p]] = 31 | HPM[p]
            OPN[SM[TURN][p]] = mask(*(("nob", 1 - p, k) for k in range(6)))
        FMK = {f: (v & 14) << 5 for f, v in FI.items()}  # colours present, at bits 6-8 (deck bits)
        ONE_KIND = [mask(("nob", 0, k), ("nob", 1, k)) for k in range(6)]
        MV = {}
        HELD = {}  # the opponent's nobori bits -> the kinds held, a 6-bit mask
        PASS_ONLY = (PASS,)

        def turn_moves(pos):
            """The engine's legal_actions() order (KN-8, KN-9, KN-10, KN-11, KN-Q4, KN-15);
            with a kabutogaeshi in hand, a list of them by the kinds the opponent holds."""
            sm = pos & 31
            stage, p = sm >> 1, sm & 1
            f = counts_of(pos, "field", 3)
            if stage == FUKI:
                return tuple(CAPTURE + c for c in range(3) if f[c])
            if stage == KOIK:
                return (AGARI, KOIKOI)
            if stage != TURN:
                return NONE
            h = counts_of(pos, "hand", 5, p)
            acts = [c for c in range(3) if h[c] and f[c]]
            if h[F]:
                acts += [3 + c for c in range(3) if f[c]]
            if pos & DECKM:
                acts += [6 + c for c in range(3) if h[c]]
            if h[K]:  # KN-11, KN-Q6: kabuto each kind the opponent holds, by those kinds
                return [tuple(acts + [9 + k for k in range(6) if held >> k & 1]) or PASS_ONLY
                        for held in range(64)]
            return tuple(acts) or PASS_ONLY

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
            return r[held]

        # chance(pos) = CH[pos & CHM[sm]]: the deck's counts at a deal or draw
        # (KN-7, KN-8, KN-10, KN-Q8), its carp at a refill (KN-8), the stage
        # bits themselves elsewhere (the coin of KN-Q11, or no outcome)
        CHM = [31] * 32
        CH = {}
        for p in (0, 1):
            for s in (DEAL, DRAWH, DRAWP):
                CHM[SM[s][p]] = DECKM
            CHM[SM[REFL][p]] = CARPM
            for s in range(9):
                CH[SM[s][p]] = ((CHANCE0, 1), (CHANCE0 + 1, 1)) if s == FIRST else NONE

        def chance(pos):
            key = pos & CHM[pos & 31]
            try:
                return CH[key]
            except KeyError:
                r = CH[key] = tuple((CHANCE0 + i, n) for i, n in enumerate(counts_of(key, "deck", 5)) if n)
                return r

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
                    if i < 3:
                        if fi >> i & 2:
                            return captured(pos + NOB_P[sm][i] - FLD1[i], sm, after)
                    elif i == F and fi & 14:
                        j = SINGLE[fi >> 1 & 7]
                        if j >= 0:
                            return captured(pos + NOB_P[sm][3 + j] - FLD1[j], sm, after)
                        return pos + (after << TS) + FUKI_P[sm]  # KN-2: the player picks the carp
                    pos += HAND_P[sm][i]
                    if pos & HCARP and pos & DECKM:  # the fast case of the KN-Q4 test
                        return pos + TURN_O[sm]
                    if ACT[pos & HMASK] >> ((fi & 14) | (1 if pos & DECKM else 0)) & 1:
                        return pos + TURN_O[sm]
                    return pos + END_O[sm]
                if k == 3:  # KN-7: 3 to the first player (the mover), then 3 to the other
                    p = sm & 1
                    pos += H1[p if HSUM[pos & HPM[p]] < 3 else 1 - p][i]
                    if HSUM[pos & HPM[1 - p]] < 3:
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

        score_memo = {}
        points, fuki_points, roles = game.points, game.fuki_points, game.role_list

        def score(nob, won_bonus):
            """KN-13 points per colour (KN-9, KN-Q9), roles (KN-14), koi-koi bonus (KN-15)."""
            total = sum(nob[i] * points[i] + nob[i + 3] * fuki_points[i] for i in range(3))
            total += sum(r["bonus"] for r in roles if _role_met(r, nob))
            return total + (KOIKOI_BONUS if won_bonus else 0)

        def returns(pos):
            if (pos & 31) >> 1 != END:
                return (0, 0)
            key = pos & SCORE_MASK
            r = score_memo.get(key)
            if r is None:
                won = get(pos, "won") - 1
                nobs = [tuple(get(pos, ("nob", p, k)) for k in range(6)) for p in (0, 1)]
                d = score(nobs[0], won == 0) - score(nobs[1], won == 1)  # KN-13, KN-Q10
                if win_payoff:
                    d = (d > 0) - (d < 0)
                r = score_memo[key] = (d, -d)
            return r

        self.player, self.moves, self.chance, self.play, self.returns = player, moves, chance, play, returns

    # -- the API edge (not on the hot path) ------------------------------------
    def encode(self, state):
        """The int of a public state (None if a count is beyond its field)."""
        k = state._k
        if k == self._last[0]:  # playouts encode the same start again and again
            return self._last[1]
        pos = self._encode(k)
        self._last = (k, pos)
        return pos

    def _encode(self, k):
        stage, mover, deck, field, h0, h1, n0, n1, kab, koi, won, then = k
        if koi[0] not in (0, 3) or koi[1] not in (0, 3):  # KN-15: 3, the count at the call
            return None
        if sum(h0) > 3 or sum(h1) > 3:  # KN-7: the tables know hands of 3 cards at most
            return None
        values = (*deck, *field, *h0, *h1, *n0, *n1, *kab, koi[0] // 3, koi[1] // 3, won + 1, THENS.index(then))
        pos = STAGES.index(stage) * 2 + mover
        for v, (s, w) in zip(values, self._order):
            if not 0 <= v < 1 << w:
                return None
            pos |= v << s
        return pos

    def decode(self, pos):
        """The public state of ``pos``."""
        v = [(pos >> s) & ((1 << w) - 1) for s, w in self._order]
        key = (STAGES[(pos & 31) >> 1], pos & 1, tuple(v[0:5]), tuple(v[5:8]), tuple(v[8:13]), tuple(v[13:18]),
               tuple(v[18:24]), tuple(v[24:30]), tuple(v[30:32]), (3 * v[32], 3 * v[33]), v[34] - 1, THENS[v[35]])
        return KoinoboriState(self.game, key)

