"""MONSTER CARDS' compact core (issue P, item 4): the rules of
``cardlab/games/monster_cards.py`` (docs/rules/monster_cards.md, MC-1 …
MC-19, MC-Q1 … MC-Q10) on positions that are single ints.

Encoding.  The State key ``(phase, turn, attack, gamechanger, pending,
alive, players)`` packed from the low bits up::

    bits 0-1    phase: 0 action, 1 draw, 2 mill, 3 end
    bits 2-4    turn (the winner at the end)
    S of each player, deck_size digits of bit_length(kinds) bits: the
                graveyard then the deck top as one sequence (grave[0] is
                digit 0, top[0] digit ngrave), each digit local id + 1
    attack      0 empty, else (card + 1) << 3 | owner   (card: the game's card id)
    gamechanger the same
    pending     target (3 bits), then (1 bit: 1 'action', 0 'end'), damage left
    alive       one bit a player
    each player nhand (2 bits), ntop, ngrave, nrest (bit_length(deck_size)
                each), then hand and rest: one count a kind of their deck, in
                card-id order, bit_length(copies in the deck) wide

Local ids number the kinds of one player's deck in card-id order, so a hand
read in local order is sorted as the engine sorts it.  A player who is out
keeps their ``gone`` cards (MC-19) in the rest field, every other field of
theirs zero (the alive bit tells them apart).  Damage from the known deck
top and healing only move the split of S between graveyard and top (MC-8:
healing undoes the latest damage), so they change two counts; every other
card move adds a precomputed delta (``DRAW_D``, ``MILL_D``, ``HBN``).  A
chance draw or damage always finds the known top empty (settle takes it
first, without chance), so its card is S's digit ngrave.

Move codes: ``card << 2 | verb`` (verb 0 defend, 1 attack, 2 discard, 3 gc);
chance outcomes: the card id (draw or mill, by the phase).  ``moves`` and
``chance`` give cached lists: do not change them.

Every option is handled (players 2-8, open_hands, decks and card files,
deck_size, max_cost, affinity, costs, on_draw, own_attacker, replacing,
out_by_drawing), so ``make_core`` never returns None.  ``encode`` gives None
only for a position the engine cannot reach (a hand over 3 cards, MC-9,
or more damage pending than any attack or Ambush deals).
"""

from __future__ import annotations

from fractions import Fraction

from ...core import CHANCE, TERMINAL
from .state import (
    ACT as K_ACT,
    DRAW as K_DRAW,
    END as K_END,
    MILL as K_MILL,
    RARITY_POINTS,
    MonsterCardsState,
)

__all__ = ["make_core", "TEST_OPTIONS"]

ACT, DRAW, MILL, END = 0, 1, 2, 3  # phase codes (bits 0-1)
DEFEND, ATTACK, DISCARD, GC = 0, 1, 2, 3  # verbs (move & 3)
REVIVE, BANISH, AMBUSH = 1, 2, 3  # discard skills (MC-10)
PHASES = (K_ACT, K_DRAW, K_MILL, K_END)


def _card(name, rarity, attack, attribute, race, size, means, skill, count=1):
    return {"name": name, "rarity": rarity, "attack": attack, "attribute": attribute, "race": race,
            "size": size, "means": means, "skill": skill, "count": count}


# small decks with every skill (SP and ULT forms too) and a card without one (MC-Q9)
_DECK_A = {"name": "a", "cards": [
    _card("a_mend", "R", 2, "fire", "human", "medium", "melee", "mend"),
    _card("a_fury", "C", 3, "water", "beast", "small", "ranged", "fury", 2),
    _card("a_revive", "SR", 1, "wood", "spirit", "large", "magic", "revive"),
    _card("a_banish", "UR", 2, "light", "dragon", "medium", "special", "banish"),
    _card("a_blood", "R", 4, "dark", "god", "small", "defence", "bloodlust"),
]}
_DECK_B = {"name": "b", "cards": [
    _card("b_bulwark", "UR", 3, "none", "demon", "large", "defence", "bulwark"),
    _card("b_ambush", "C", 1, "fire", "machine", "small", "magic", "ambush", 2),
    _card("b_invert", "UR", 2, "water", "insect", "medium", "melee", "inversion"),
    _card("b_level", "SR", 5, "wood", "ghost", "large", "ranged", "leveller"),
    _card("b_plain", "C", 2, "light", "human", "small", "special", None),
]}
# 17 kinds of one card each: local ids need 5 bits
_WIDE = {"name": "wide", "cards": [
    _card(f"w{i:02d}", ("C", "R", "SR", "UR")[i % 4], 1 + i % 5,
          ("none", "fire", "water", "wood", "light", "dark")[i % 6],
          ("human", "beast", "sea", "spirit", "dragon", "god", "demon", "machine", "insect", "ghost")[i % 10],
          ("small", "medium", "large")[i % 3], ("melee", "ranged", "magic", "special", "defence")[i % 5],
          ("mend", "fury", "bulwark", "revive", "banish", "ambush", "bloodlust", "inversion", "leveller",
           None)[i % 10])
    for i in range(17)]}
# the cards of deck a, 17 of them: up to 5 copies of a card
_MANY = {"name": "many", "cards": [{**c, "count": k} for c, k in zip(_DECK_A["cards"], (4, 5, 3, 2, 3))]}
_SMALL = {"decks": [_DECK_A, _DECK_B], "deck_size": 6, "max_cost": 1000}

TEST_OPTIONS = [
    {},
    {"open_hands": True},
    {"open_hands": True, "players": 3},
    {"players": 4, "decks": ["tide", "ember", "ember"]},
    {"open_hands": True, "own_attacker": "attacks"},
    {"open_hands": True, "on_draw": "attacker_stays"},
    {"replacing": "free", "out_by_drawing": False},
    {"out_by_drawing": False, "own_attacker": "attacks", "on_draw": "attacker_stays"},
    {**_SMALL, "open_hands": True},
    {**_SMALL, "players": 3, "out_by_drawing": False, "replacing": "free"},
    {**_SMALL, "players": 8, "own_attacker": "attacks"},
    {"decks": [_WIDE, _MANY], "deck_size": 17, "max_cost": 100_000, "players": 3},
]


def make_core(game):
    """The core of ``game`` (every option is handled)."""
    return MonsterCardsCore(game)


class MonsterCardsCore:
    """MONSTER CARDS on ints: ``encode``/``decode`` and the protocol's closures."""

    def __init__(self, game) -> None:
        o = game.options
        self.game = game
        n = self.n = o["players"]
        cards = game.cards
        C = len(cards)
        by_draw = o["out_by_drawing"]
        free = o["replacing"] == "free"
        own_attacks = o["own_attacker"] == "attacks"
        both_to_ruins = o["on_draw"] == "both_to_ruins"

        # -- card tables (MC-3, MC-4) --
        atk = [c.attack + (c.amount if c.skill == "fury" else 0) for c in cards]  # MC-3 Fury
        blood = [0] + [c.amount if c.skill == "bloodlust" else 0 for c in cards]  # by gc field >> 3
        mend = [c.amount if c.skill == "mend" else 0 for c in cards]
        dsk = [({"revive": REVIVE, "banish": BANISH, "ambush": AMBUSH}.get(s or "", 0), c.amount)
               for c, s in zip(cards, game.discard_skill)]
        rpoints = [RARITY_POINTS[c.rarity] for c in cards]
        max_damage = max([a + max(blood) for a in atk]
                         + [c.amount for c in cards if c.skill == "ambush"] + [1])

        # -- S of each player (bits 5 up), then the header, then each player's counts --
        D = o["deck_size"]
        KINDS = [sorted(game.deck_counts[p]) for p in range(n)]
        BS = [len(kinds).bit_length() for kinds in KINDS]  # S digits: local id + 1 (0: no card)
        SO = [5 + D * sum(BS[:p]) for p in range(n)]
        SM = [(1 << (D * bs)) - 1 for bs in BS]
        AO = 5 + D * sum(BS)
        AW = 3 + C.bit_length()
        GO = AO + AW
        PO = GO + AW  # pending target
        PTH = PO + 3  # pending then
        PRO = PO + 4  # pending damage left
        RW = max_damage.bit_length()
        LO = PRO + RW  # alive bits
        AM = (1 << AW) - 1
        AGM = (1 << 2 * AW) - 1
        RM = (1 << RW) - 1
        PEND_M = ((1 << (4 + RW)) - 1) << PO
        REM1 = 1 << PRO
        off = LO + n

        DB = D.bit_length()
        DM = (1 << DB) - 1
        NHO, NTO, NGO, NRO, HO, RO, FM, BASE, BLKM = ([] for _ in range(9))
        UNIT, WID, GLOB, HB, RB, DRAW_D, MILL_D, SD, LOCAL, CHUNK, CB, SHB = ([] for _ in range(12))
        for p in range(n):
            counts, kinds, bs = game.deck_counts[p], KINDS[p], BS[p]
            rel, fw = [], 0
            for c in kinds:
                rel.append(fw)
                fw += counts[c].bit_length()
            BASE.append(off)
            NHO.append(off)
            NTO.append(off + 2)
            NGO.append(off + 2 + DB)
            NRO.append(off + 2 + 2 * DB)
            HO.append(off + 2 + 3 * DB)
            RO.append(HO[p] + fw)
            FM.append((1 << fw) - 1)
            BLKM.append((1 << (RO[p] + fw - off)) - 1)
            off = RO[p] + fw
            UNIT.append([1 << r for r in rel])
            # S read a chunk of digits at a time: the count fields of the chunk's cards
            digits = [0] + UNIT[p] + [0] * ((1 << bs) - 1 - len(kinds))
            chunk = [0]
            for _ in range(max(1, 12 // bs)):
                chunk = [x + u for u in digits for x in chunk]  # the new digit is the highest
            CHUNK.append(chunk)
            CB.append(len(chunk).bit_length() - 1)
            SHB.append([u << HO[p] for u in digits])
            WID.append([(r, (1 << counts[c].bit_length()) - 1) for r, c in zip(rel, kinds)])
            GLOB.append(kinds)
            loc = [-1] * C
            hb, rb = [0] * C, [0] * C
            for i, c in enumerate(kinds):
                loc[c] = i
                hb[c] = 1 << (HO[p] + rel[i])
                rb[c] = 1 << (RO[p] + rel[i])
            LOCAL.append(loc)
            HB.append(hb)
            RB.append(rb)
            # MC-9 a draw: rest -1, hand +1;  MC-3 damage: rest -1, grave +1, damage left -1
            DRAW_D.append([hb[c] - rb[c] + (1 << NHO[p]) - (1 << NRO[p]) for c in range(C)])
            MILL_D.append([-rb[c] - (1 << NRO[p]) + (1 << NGO[p]) - REM1 for c in range(C)])
            SD.append([loc[c] + 1 << SO[p] for c in range(C)])  # the card as S's digit 0
        NH1 = [1 << x for x in NHO]
        CM = (1 << (2 + 3 * DB)) - 1  # the counts nhand, ntop, ngrave, nrest read at once
        NRS = 2 + 2 * DB  # nrest's place in them
        HBN = [[b + (1 << x) if b else 0 for b in hb] for hb, x in zip(HB, NHO)]
        NT1 = [1 << x for x in NTO]
        NG1 = [1 << x for x in NGO]
        HEAL1 = [a - b for a, b in zip(NT1, NG1)]
        ALIVE1 = [1 << (LO + p) for p in range(n)]
        self.HO, self.RO, self.SO, self.NTO, self.NGO, self.NRO, self.NHO = HO, RO, SO, NTO, NGO, NRO, NHO
        self.FM, self.SM, self.BS, self.UNIT, self.WID, self.GLOB, self.LOCAL = FM, SM, BS, UNIT, WID, GLOB, LOCAL
        self.AO, self.GO, self.PO, self.PTH, self.PRO, self.LO, self.RM, self.DM = AO, GO, PO, PTH, PRO, LO, RM, DM
        self.AM = AM

        # MC-Q8 turn order: NEXT[alive mask][turn] is the next player not out
        NEXT = [[next((t + j) % n for j in range(1, n + 1) if mask >> ((t + j) % n) & 1) if mask else t
                 for t in range(n)] for mask in range(1 << n)]
        # MC-19: 1 for the winner, -1/(n-1) for each other
        lose = -1 if n == 2 else Fraction(-1, n - 1)
        RET = [tuple(1 if q == w else lose for q in range(n)) for w in range(n)]
        ZERO = (0,) * n
        ALL = (1 << n) - 1

        battles: dict = {}
        MV = [{} for _ in range(n)]
        CH = [{} for _ in range(n)]
        discard_ok = [k > 0 for k, _a in dsk]
        is_gc = game.is_gc

        def make_moves(p, key):
            hf, attack = key >> 1, key & 1
            have, size = [], 0
            for c, (sh, mask) in zip(GLOB[p], WID[p]):
                k = (hf >> sh) & mask
                if k:
                    have.append(c)
                    size += k
            ms = [c << 2 | DEFEND for c in have]  # MC-11
            if attack:
                ms += [c << 2 | ATTACK for c in have]
            if size >= 2:  # MC-10: keep a card for the play (MC-11); MC-Q10 no limit a turn
                ms += [c << 2 | DISCARD for c in have if discard_ok[c]]
                ms += [c << 2 | GC for c in have if is_gc[c]]
            MV[p][key] = ms
            return ms

        # the chance lists by pieces of the rest field (whole count fields, at most 10 bits)
        PIECES = []
        for p in range(n):
            groups = [[]]
            for c, (sh, mask) in zip(GLOB[p], WID[p]):
                if groups[-1] and sh + mask.bit_length() - groups[-1][0][1] > 10:
                    groups.append([])
                groups[-1].append((c, sh, mask))
            pieces = []
            for group in groups:
                base = group[0][1]
                width = group[-1][1] + group[-1][2].bit_length() - base
                table = [[(c, (v >> (sh - base)) & mask) for c, sh, mask in group if (v >> (sh - base)) & mask]
                         for v in range(1 << width)]
                pieces.append((base, (1 << width) - 1, table))
            PIECES.append(pieces)

        def make_chance(p, rf):
            out = []
            for sh, mask, table in PIECES[p]:
                out += table[(rf >> sh) & mask]
            cache = CH[p]
            if len(cache) > 200_000:
                cache.clear()
            cache[rf] = out
            return out

        # the player to move by bits 0-4 (phase and turn)
        PLAYER = [t if ph == ACT else TERMINAL if ph == END else CHANCE for t in range(8) for ph in range(4)]

        def player(pos):
            return PLAYER[pos & 31]

        def moves(pos):
            p = (pos & 31) >> 2
            key = ((pos >> HO[p]) & FM[p]) << 1 | (((pos >> AO) & AM) != 0)
            ms = MV[p].get(key)
            return ms if ms is not None else make_moves(p, key)

        def chance(pos):
            p = (pos & 31) >> 2 if pos & 3 == DRAW else (pos >> PO) & 7
            rf = (pos >> RO[p]) & FM[p]
            out = CH[p].get(rf)
            return out if out is not None else make_chance(p, rf)

        def returns(pos):
            return RET[(pos & 31) >> 2] if pos & 3 == END else ZERO

        def out(pos, p):
            """MC-19: hand, deck and graveyard leave the game face down (gone: the
            rest field); at most one player left ends the game."""
            blk = (pos >> BASE[p]) & BLKM[p]
            gone = ((pos >> HO[p]) & FM[p]) + ((pos >> RO[p]) & FM[p])
            s = seq = (pos >> SO[p]) & SM[p]
            chunk, cb, cm = CHUNK[p], CB[p], len(CHUNK[p]) - 1
            while s:
                gone += chunk[s & cm]
                s >>= cb
            pos += (gone << RO[p]) - (blk << BASE[p]) - (seq << SO[p]) - ALIVE1[p]
            alive = (pos >> LO) & ALL
            if alive & (alive - 1) == 0:  # MC-19 the last player with cards wins
                return (pos & ~(PEND_M | 31)) | END | (alive.bit_length() - 1) << 2
            return pos

        def to_draw(pos, t):
            """Phase draw for player t (pos in a phase ending its turn)."""
            return pos - (pos & 31) + (t << 2 | DRAW)

        def settle(pos):
            """The engine's _settle: play what is certain up to the next stop."""
            while True:
                ph = pos & 3
                if ph == MILL:
                    t = (pos >> PO) & 7
                    rem = (pos >> PRO) & RM
                    if rem and pos >> (LO + t) & 1:
                        nt = (pos >> NTO[t]) & DM
                        if rem >= nt + ((pos >> NRO[t]) & DM):  # the whole deck goes: out (MC-3, MC-19)
                            pos = out(pos, t)
                            if pos & 3 == END:
                                return pos
                            continue
                        if not nt:
                            return pos  # damage from the unknown deck: chance
                        k = nt if nt < rem else rem  # the known top goes first: only the split moves
                        pos += k * (NG1[t] - NT1[t] - REM1)
                        continue
                    then = (pos >> PTH) & 1
                    pos &= ~PEND_M
                    t = (pos & 31) >> 2
                    if then and pos >> (LO + t) & 1:  # after an Ambush the turn goes on (MC-10)
                        return pos - MILL  # phase action
                    pos = to_draw(pos, NEXT[(pos >> LO) & ALL][t])
                    continue
                if ph == DRAW:  # MC-9
                    t = (pos & 31) >> 2
                    c = (pos >> NHO[t]) & CM
                    nh = c & 3
                    if nh >= 3:
                        return pos - DRAW
                    nt = (c >> 2) & DM
                    deck = nt + (c >> NRS)
                    if not deck:  # only without out_by_drawing (MC-Q7)
                        if nh:
                            return pos - DRAW
                        pos = out(pos, t)
                        if pos & 3 == END:
                            return pos
                        pos = to_draw(pos, NEXT[(pos >> LO) & ALL][t])
                        continue
                    if 3 - nh >= deck:  # the whole deck comes to the hand
                        if by_draw:  # MC-Q7: out at once (out takes hand and deck alike)
                            pos = out(pos, t)
                            if pos & 3 == END:
                                return pos
                            pos = to_draw(pos, NEXT[(pos >> LO) & ALL][t])
                            continue
                        rest = (pos >> RO[t]) & FM[t]
                        sh = SO[t] + ((pos >> NGO[t]) & DM) * BS[t]  # the top: S's digits from ngrave up
                        top = (pos >> sh) & ((1 << nt * BS[t]) - 1)
                        hand, chunk, cb, cm = rest, CHUNK[t], CB[t], len(CHUNK[t]) - 1
                        pos -= top << sh
                        while top:
                            hand += chunk[top & cm]
                            top >>= cb
                        pos += (hand << HO[t]) - (rest << RO[t])
                        pos += deck * NH1[t] - nt * NT1[t] - (deck - nt << NRO[t])
                        return pos - DRAW
                    if not nt:
                        return pos  # a draw from the unknown deck: chance
                    # the known top comes first: top[0] is S's digit number ngrave
                    bs = BS[t]
                    sh = SO[t] + ((pos >> NGO[t]) & DM) * bs
                    d = (pos >> sh) & ((1 << bs) - 1)
                    above = (pos >> (sh + bs)) & ((1 << (nt - 1) * bs) - 1)  # top[1:] moves down a digit
                    pos += (above << sh) - (above << (sh + bs)) - (d << sh) + SHB[t][d] + NH1[t] - NT1[t]
                    continue
                return pos

        def heal(pos, p, k):
            """MC-8: the graveyard's top k cards (those there are) back on the deck top."""
            g = (pos >> NGO[p]) & DM
            return pos + (k if k < g else g) * HEAL1[p]

        def play(pos, m):
            ph = pos & 3
            # chance stops only with an empty known deck top (settle takes it first)
            if ph == DRAW:  # MC-9 a draw from the unknown deck
                t = (pos & 31) >> 2
                pos += DRAW_D[t][m]
                c = (pos >> NHO[t]) & CM
                if c & 3 == 3:
                    return pos - DRAW
                if 3 - (c & 3) < c >> NRS:
                    return pos  # the next draw: chance again
                return settle(pos)
            if ph == MILL:  # MC-3 damage from the unknown deck onto the graveyard (S grows by one)
                t = (pos >> PO) & 7
                pos += MILL_D[t][m] + (SD[t][m] << ((pos >> NGO[t]) & DM) * BS[t])
                if (pos >> PRO) & RM:
                    return pos  # more damage: chance again (less than the deck is left, MC-19)
                return settle(pos)
            p = (pos & 31) >> 2
            g, v = m >> 2, m & 3
            pos -= HBN[p][g]  # the card leaves the hand
            ag = (pos >> AO) & AGM  # the attack and GameChanger zones
            att = ag & AM
            if v >= DISCARD:
                return extra(pos, p, g, v, att)
            if mend[g]:  # Mend heals when played
                pos = heal(pos, p, mend[g])
            me = (g + 1) << 3 | p
            if v == ATTACK:  # MC-11: the card pushes the attacker to the ruins
                if att and not free and ((att & 7) != p or own_attacks):  # after taking its attack (MC-3)
                    return hurt(pos + ((me - att) << AO), p, atk[(att >> 3) - 1] + blood[ag >> AW + 3])
                return next_turn(pos + ((me - att) << AO), p)
            if not att:  # MC-11: an empty attack zone takes the card
                return next_turn(pos + (me << AO), p)
            if (att & 7) == p and not own_attacks:  # MC-Q6: to the ruins, no battle
                return next_turn(pos, p)
            key = m << 2 * AW | ag
            r = battles.get(key)
            if r is None:
                r = battles[key] = battle(g, att, ag >> AW)
            if r > 0:  # MC-18 success: the beaten attacker to the ruins (MC-Q5)
                return next_turn(pos + ((me - att) << AO), p)
            if r < 0:  # MC-18 failure: the attack's damage to the defender (MC-3)
                return hurt(pos, p, -r)
            if both_to_ruins:  # MC-16 draw, MC-Q4
                pos -= att << AO
            return next_turn(pos, p)

        def battle(g, att, gcv):
            """MC-14 … MC-16 from the engine: 1 success, 0 draw, -damage failure."""
            res, dmg = game.battle_result(g, (att >> 3) - 1, (gcv >> 3) - 1)
            return 1 if res == "success" else 0 if res == "draw" else -dmg

        def extra(pos, p, g, v, att):
            """The moves before the play (MC-10, MC-Q10)."""
            if v == GC:  # replaces any GameChanger
                return pos + ((((g + 1) << 3 | p) - ((pos >> GO) & AM)) << GO)
            kind, amount = dsk[g]  # a Discard skill: its effect may find nothing
            if kind == REVIVE:
                return heal(pos, p, amount)
            if kind == BANISH:
                if att and rpoints[(att >> 3) - 1] <= amount:
                    pos -= att << AO
                return pos
            q = att & 7  # Ambush: the attacker's owner, another player not out
            if att and q != p and pos >> (LO + q) & 1:
                return settle(pos + MILL + (q << PO) + (1 << PTH) + (amount << PRO))
            return pos

        def hurt(pos, p, damage):
            """The turn player p (phase action) takes damage, then the turn ends (MC-3, MC-18)."""
            pos += MILL + (p << PO) + (damage << PRO)
            c = (pos >> NHO[p]) & CM
            if damage < c >> NRS and not (c >> 2) & DM:
                return pos  # the first card from the unknown deck: chance
            return settle(pos)

        def next_turn(pos, p):
            """The end of p's turn (phase action): the next player's draw (MC-9, MC-12)."""
            t = NEXT[(pos >> LO) & ALL][p]
            pos += ((t - p) << 2) + DRAW
            c = (pos >> NHO[t]) & CM
            nh = c & 3
            if nh == 3:
                return pos - DRAW
            if 3 - nh < c >> NRS and not (c >> 2) & DM:
                return pos  # a draw from the unknown deck: chance
            return settle(pos)

        self.player, self.moves, self.chance, self.play, self.returns = player, moves, chance, play, returns

    # -- the API edge -------------------------------------------------------------
    def encode(self, state):
        phase, turn, attack, gc, pend, alive, ps = state._k
        pos = PHASES.index(phase) | turn << 2
        if attack:
            pos |= ((attack[1] + 1) << 3 | attack[0]) << self.AO
        if gc:
            pos |= ((gc[1] + 1) << 3 | gc[0]) << self.GO
        if pend:
            if pend[1] > self.RM:
                return None
            pos |= pend[0] << self.PO | (pend[2] == K_ACT) << self.PTH | pend[1] << self.PRO
        for p, z in enumerate(ps):
            unit, loc = self.UNIT[p], self.LOCAL[p]
            if not alive[p]:
                pos |= sum(unit[loc[c]] for c in z[4]) << self.RO[p]
                continue
            pos |= 1 << (self.LO + p)
            hand, top, rest, grave = z
            if len(hand) > 3:
                return None
            s = sum(loc[c] + 1 << i * self.BS[p] for i, c in enumerate(grave + top))
            pos |= (len(hand) << self.NHO[p] | len(top) << self.NTO[p] | len(grave) << self.NGO[p]
                    | len(rest) << self.NRO[p] | sum(unit[loc[c]] for c in hand) << self.HO[p]
                    | sum(unit[loc[c]] for c in rest) << self.RO[p] | s << self.SO[p])
        return pos

    def decode(self, pos):
        ph = pos & 3
        pend = ()
        if ph == MILL:
            pend = ((pos >> self.PO) & 7, (pos >> self.PRO) & self.RM, K_ACT if pos >> self.PTH & 1 else K_END)
        alive = tuple(pos >> (self.LO + p) & 1 for p in range(self.n))
        ps = []
        for p in range(self.n):
            rest = self._multiset(p, (pos >> self.RO[p]) & self.FM[p])
            if not alive[p]:
                ps.append(((), (), (), (), rest))
                continue
            nt, ng = (pos >> self.NTO[p]) & self.DM, (pos >> self.NGO[p]) & self.DM
            s, bs, glob = (pos >> self.SO[p]) & self.SM[p], self.BS[p], self.GLOB[p]
            seq = [glob[((s >> (bs * i)) & ((1 << bs) - 1)) - 1] for i in range(nt + ng)]
            ps.append((self._multiset(p, (pos >> self.HO[p]) & self.FM[p]), tuple(seq[ng:]), rest,
                       tuple(seq[:ng])))
        key = (PHASES[ph], (pos >> 2) & 7, self._zone(pos >> self.AO & self.AM),
               self._zone(pos >> self.GO & self.AM), pend, alive, tuple(ps))
        return MonsterCardsState(self.game, key)

    @staticmethod
    def _zone(v):
        return ((v & 7, (v >> 3) - 1)) if v else ()

    def _multiset(self, p, field):
        out = []
        for c, (sh, mask) in zip(self.GLOB[p], self.WID[p]):
            out += [c] * ((field >> sh) & mask)
        return tuple(out)
