"""MONSTER CARDS' compact core (issue P, item 4): the rules of
:mod:`.rules` (docs/rules/monster_cards.md, MC-1 … MC-19, MC-Q1 … MC-Q10)
on positions that are single ints.  Its tables are built by calling the
rules (``rules.next_player``, ``rules.payoffs``, ``rules.to_draw``,
``rules.healed``, ``rules.banishes``, the attack power and the battle of
:mod:`.battle`, whose scale is ``rules.scale``), so a rule changed there
changes the core too.

Encoding.  The State key ``(phase, turn, attack, gamechanger, pending,
alive, players)`` (:data:`.key.KEY`) packed from the low bits up, the fields
declared as one :class:`cardlab.layout.Bits` (:meth:`MonsterCardsCore._layout`)::

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

from ...core import CHANCE, TERMINAL
from ...layout import Bits
from . import rules
from .key import ACT as K_ACT, DRAW as K_DRAW, END as K_END, MILL as K_MILL

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
    """MONSTER CARDS on ints: ``encode``/``decode`` and the protocol's closures,
    made in named steps: the card tables from the rules, the bit layout, each
    player's tables, then the closures (``moves``/``chance``, ``settle``, ``play``)."""

    def __init__(self, game) -> None:
        o = game.options
        self.game = game
        self.n = o["players"]
        self.cards = game.cards
        self._card_tables()
        self._layout()
        self._player_tables()
        self._turn_tables()
        self._make_moves_and_chance()
        self.out = self._make_out()
        self._make_settle()
        self._make_play()

    # -- the tables, from the rules ---------------------------------------------------------
    def _card_tables(self) -> None:
        """Per card: the damage of an attack under each GameChanger (MC-3), Mend's
        heal, the Discard skills (MC-10), what Banish reaches (MC-Q3), the heals."""
        game, cards = self.game, self.cards
        C = len(cards)
        # DMG[attacker + 1][gamechanger + 1] (0: none): MC-3 with Fury and Bloodlust
        self.DMG = [[0] * (C + 1)] + [[game.attack_power(a, g - 1) for g in range(C + 1)] for a in range(C)]
        self.mend = [c.amount if c.skill == "mend" else 0 for c in cards]
        self.dsk = [({"revive": REVIVE, "banish": BANISH, "ambush": AMBUSH}.get(s or "", 0), c.amount)
                    for c, s in zip(cards, game.discard_skill)]
        # BANISHES[card][attacker]: Banish of this card sends that attacker to the ruins
        self.BANISHES = [[rules.banishes(a.rarity, c.amount) for a in cards] for c in cards]
        max_heal = max([c.amount for c in cards if c.skill in ("mend", "revive")] + [0])
        D = game.options["deck_size"]
        # HEALED[amount][graveyard size]: the cards a heal brings back (MC-8, MC-Q10)
        self.HEALED = [[rules.healed(k, g) for g in range(D + 1)] for k in range(max_heal + 1)]
        self.HT = rules.HAND_TARGET
        self.TO_DRAW = [rules.to_draw(h) for h in range(self.HT + 1)]  # MC-9
        self.max_damage = max([max(row) for row in self.DMG]
                              + [c.amount for c in cards if c.skill == "ambush"] + [1])

    def _layout(self) -> None:
        """The bit layout (the module docstring), declared as one :class:`Bits`."""
        game, n = self.game, self.n
        D = game.options["deck_size"]
        C = len(self.cards)
        self.KINDS = [sorted(game.deck_counts[p]) for p in range(n)]
        self.BS = [len(kinds).bit_length() for kinds in self.KINDS]  # S digits: local id + 1 (0: no card)
        AW = 3 + C.bit_length()
        DB = D.bit_length()
        HW = self.HT.bit_length()
        widths = []  # each player's count field widths, in card-id order of their kinds
        for p in range(n):
            counts = game.deck_counts[p]
            widths.append([counts[c].bit_length() for c in self.KINDS[p]])
        self.bits = Bits(
            ("phase", 2), ("turn", 3), *((f"seq{p}", D * self.BS[p]) for p in range(n)),
            ("attack", AW), ("gamechanger", AW), ("target", 3), ("then", 1),
            ("damage", self.max_damage.bit_length()), ("alive", n),
            *(f for p in range(n) for f in (
                (f"nhand{p}", HW), (f"ntop{p}", DB), (f"ngrave{p}", DB), (f"nrest{p}", DB),
                (f"hand{p}", sum(widths[p])), (f"rest{p}", sum(widths[p])))))
        sh, mask = self.bits.shift, self.bits.mask
        self.AW, self.DB, self.HW = AW, DB, HW
        self.AO, self.GO, self.PO, self.PTH, self.PRO, self.LO = (
            sh["attack"], sh["gamechanger"], sh["target"], sh["then"], sh["damage"], sh["alive"])
        self.AM, self.RM, self.DM = mask["attack"], mask["damage"], (1 << DB) - 1
        self.SO = [sh[f"seq{p}"] for p in range(n)]
        self.SM = [mask[f"seq{p}"] for p in range(n)]
        self.NHO = [sh[f"nhand{p}"] for p in range(n)]
        self.NTO = [sh[f"ntop{p}"] for p in range(n)]
        self.NGO = [sh[f"ngrave{p}"] for p in range(n)]
        self.NRO = [sh[f"nrest{p}"] for p in range(n)]
        self.HO = [sh[f"hand{p}"] for p in range(n)]
        self.RO = [sh[f"rest{p}"] for p in range(n)]
        self.FM = [mask[f"hand{p}"] for p in range(n)]
        self.BASE = self.NHO
        self.BLKM = [(1 << (self.RO[p] + self.FM[p].bit_length() - self.NHO[p])) - 1 for p in range(n)]
        self.REL = [[sum(widths[p][:i]) for i in range(len(widths[p]))] for p in range(n)]

    def _player_tables(self) -> None:
        """Each player's card fields: units, local ids, S read a chunk at a time,
        and the deltas of a draw (MC-9) and a damage (MC-3)."""
        game, C = self.game, len(self.cards)
        REM1 = 1 << self.PRO
        self.UNIT, self.WID, self.GLOB, self.LOCAL, self.CHUNK, self.CB, self.SHB = ([] for _ in range(7))
        self.HB, self.RB, self.DRAW_D, self.MILL_D, self.SD = ([] for _ in range(5))
        for p in range(self.n):
            counts, kinds, bs, rel = game.deck_counts[p], self.KINDS[p], self.BS[p], self.REL[p]
            HO, RO = self.HO[p], self.RO[p]
            self.UNIT.append([1 << r for r in rel])
            # S read a chunk of digits at a time: the count fields of the chunk's cards
            digits = [0] + self.UNIT[p] + [0] * ((1 << bs) - 1 - len(kinds))
            chunk = [0]
            for _ in range(max(1, 12 // bs)):
                chunk = [x + u for u in digits for x in chunk]  # the new digit is the highest
            self.CHUNK.append(chunk)
            self.CB.append(len(chunk).bit_length() - 1)
            self.SHB.append([u << HO for u in digits])
            self.WID.append([(r, (1 << counts[c].bit_length()) - 1) for r, c in zip(rel, kinds)])
            self.GLOB.append(kinds)
            loc = [-1] * C
            hb, rb = [0] * C, [0] * C
            for i, c in enumerate(kinds):
                loc[c] = i
                hb[c] = 1 << (HO + rel[i])
                rb[c] = 1 << (RO + rel[i])
            self.LOCAL.append(loc)
            self.HB.append(hb)
            self.RB.append(rb)
            # MC-9 a draw: rest -1, hand +1;  MC-3 damage: rest -1, grave +1, damage left -1
            self.DRAW_D.append([hb[c] - rb[c] + (1 << self.NHO[p]) - (1 << self.NRO[p]) for c in range(C)])
            self.MILL_D.append([-rb[c] - (1 << self.NRO[p]) + (1 << self.NGO[p]) - REM1 for c in range(C)])
            self.SD.append([loc[c] + 1 << self.SO[p] for c in range(C)])  # the card as S's digit 0

    def _turn_tables(self) -> None:
        """Turn order (MC-Q8), payoffs (MC-19) and the player to move, from the rules."""
        n = self.n
        # NEXT[alive mask][turn]: the next player not out (MC-Q8)
        self.NEXT = [[rules.next_player([mask >> q & 1 for q in range(n)], t) if mask else t for t in range(n)]
                     for mask in range(1 << n)]
        self.RET = [rules.payoffs(n, w) for w in range(n)]  # MC-19
        # the player to move by bits 0-4 (phase and turn)
        self.PLAYER = [t if ph == ACT else TERMINAL if ph == END else CHANCE for t in range(8) for ph in range(4)]

    # -- the closures --------------------------------------------------------------------------
    def _make_moves_and_chance(self) -> None:
        """``player``, ``moves`` (MC-10, MC-11), ``chance`` (MC-3, MC-9) and ``returns``
        (MC-19), with their caches."""
        n, HO, FM, AO, AM, PO, RO = self.n, self.HO, self.FM, self.AO, self.AM, self.PO, self.RO
        GLOB, WID, PLAYER, RET, ZERO = self.GLOB, self.WID, self.PLAYER, self.RET, (0,) * self.n
        MV = [{} for _ in range(n)]
        CH = [{} for _ in range(n)]
        discard_ok = [k > 0 for k, _a in self.dsk]
        is_gc = self.game.is_gc

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

        PIECES = [self._chance_pieces(p) for p in range(n)]

        def make_chance(p, rf):
            out = []
            for sh, mask, table in PIECES[p]:
                out += table[(rf >> sh) & mask]
            cache = CH[p]
            if len(cache) > 200_000:
                cache.clear()
            cache[rf] = out
            return out

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

        self.player, self.moves, self.chance, self.returns = player, moves, chance, returns

    def _chance_pieces(self, p):
        """Player p's chance lists by pieces of the rest field (whole count fields, at most 10 bits)."""
        groups = [[]]
        for c, (sh, mask) in zip(self.GLOB[p], self.WID[p]):
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
        return pieces

    def _make_out(self):
        """MC-19: a player put out; hand, deck and graveyard leave the game face
        down (gone: the rest field); at most one player left ends the game."""
        BASE, BLKM, HO, RO, FM, SO, SM = self.BASE, self.BLKM, self.HO, self.RO, self.FM, self.SO, self.SM
        CHUNK, CB, LO, ALL = self.CHUNK, self.CB, self.LO, (1 << self.n) - 1
        ALIVE1 = [1 << (LO + p) for p in range(self.n)]
        PEND_M = ((1 << (4 + self.RM.bit_length())) - 1) << self.PO

        def out(pos, p):
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
        return out

    def _make_take_deck(self):
        """MC-9 without MC-Q7's out: the whole deck (known top and rest) comes to the hand."""
        RO, FM, SO, NGO, BS, CHUNK, CB, HO = self.RO, self.FM, self.SO, self.NGO, self.BS, self.CHUNK, self.CB, self.HO
        DM, NRO = self.DM, self.NRO
        NH1 = [1 << x for x in self.NHO]
        NT1 = [1 << x for x in self.NTO]

        def take_deck(pos, t, nt, deck):
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
        return take_deck

    def _make_settle(self) -> None:
        """``settle``: the State's ``_settle``, play what is certain up to the next stop."""
        PO, PRO, RM, LO, NTO, NRO, NGO, NHO, DM = (self.PO, self.PRO, self.RM, self.LO, self.NTO, self.NRO,
                                                   self.NGO, self.NHO, self.DM)
        PTH, SO, BS, SHB, NEXT, ALL = self.PTH, self.SO, self.BS, self.SHB, self.NEXT, (1 << self.n) - 1
        HT, TO_DRAW, by_draw = self.HT, self.TO_DRAW, self.game.options["out_by_drawing"]
        PEND_M, REM1 = ((1 << (4 + RM.bit_length())) - 1) << PO, 1 << PRO
        NT1, NG1, NH1 = [1 << x for x in NTO], [1 << x for x in NGO], [1 << x for x in NHO]
        CM, NRS, HW = (1 << (self.HW + 3 * self.DB)) - 1, self.HW + 2 * self.DB, self.HW  # counts read at once
        HM = (1 << HW) - 1
        out, take_deck = self.out, self._make_take_deck()

        def settle(pos):
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
                    pos = pos - (pos & 31) + (NEXT[(pos >> LO) & ALL][t] << 2 | DRAW)
                    continue
                if ph == DRAW:  # MC-9
                    t = (pos & 31) >> 2
                    c = (pos >> NHO[t]) & CM
                    nh = c & HM
                    if nh >= HT:
                        return pos - DRAW
                    nt = (c >> HW) & DM
                    deck = nt + (c >> NRS)
                    if not deck and nh:  # only without out_by_drawing (MC-Q7)
                        return pos - DRAW
                    if deck and TO_DRAW[nh] >= deck and not by_draw:  # the whole deck comes to the hand
                        return take_deck(pos, t, nt, deck)
                    if not deck or TO_DRAW[nh] >= deck:  # nothing to play, or MC-Q7: out at once
                        pos = out(pos, t)
                        if pos & 3 == END:
                            return pos
                        pos = pos - (pos & 31) + (NEXT[(pos >> LO) & ALL][t] << 2 | DRAW)
                        continue
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
        self.settle = settle

    def _make_play(self) -> None:
        """``play``: a chance outcome (MC-3, MC-9) or a move (MC-10, MC-11, MC-14 … MC-18)."""
        game, settle = self.game, self.settle
        NHO, NGO, PO, PRO, RM, AO, AW, AM, DM, BS = (
            self.NHO, self.NGO, self.PO, self.PRO, self.RM, self.AO, self.AW, self.AM, self.DM, self.BS)
        DRAW_D, MILL_D, SD, HB, DMG, mend, HEALED = self.DRAW_D, self.MILL_D, self.SD, self.HB, self.DMG, self.mend, \
            self.HEALED
        HT, TO_DRAW, HM = self.HT, self.TO_DRAW, (1 << self.HW) - 1
        CM, NRS = (1 << (self.HW + 3 * self.DB)) - 1, self.HW + 2 * self.DB
        HBN = [[b + (1 << x) if b else 0 for b in hb] for hb, x in zip(HB, NHO)]  # the card leaves the hand
        HEAL1 = [(1 << t) - (1 << g) for t, g in zip(self.NTO, NGO)]
        AGM = (1 << 2 * AW) - 1
        o = game.options
        free, own_attacks = o["replacing"] == "free", o["own_attacker"] == "attacks"
        both_to_ruins = o["on_draw"] == "both_to_ruins"
        battles: dict = {}
        extra = self._make_extra(HEALED, HEAL1)

        def play(pos, m):
            ph = pos & 3
            # chance stops only with an empty known deck top (settle takes it first)
            if ph == DRAW:  # MC-9 a draw from the unknown deck
                t = (pos & 31) >> 2
                pos += DRAW_D[t][m]
                c = (pos >> NHO[t]) & CM
                if c & HM == HT:
                    return pos - DRAW
                if TO_DRAW[c & HM] < c >> NRS:
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
            if mend[g]:  # Mend heals when played (MC-8)
                pos += HEALED[mend[g]][(pos >> NGO[p]) & DM] * HEAL1[p]
            me = (g + 1) << 3 | p
            if v == ATTACK:  # MC-11: the card pushes the attacker to the ruins
                if att and not free and ((att & 7) != p or own_attacks):  # after taking its attack (MC-3)
                    return hurt(pos + ((me - att) << AO), p, DMG[att >> 3][ag >> AW + 3])
                return next_turn(pos + ((me - att) << AO), p)
            if not att:  # MC-11: an empty attack zone takes the card
                return next_turn(pos + (me << AO), p)
            if (att & 7) == p and not own_attacks:  # MC-Q6: to the ruins, no battle
                return next_turn(pos, p)
            key = m << 2 * AW | ag
            r = battles.get(key)
            if r is None:  # MC-14 … MC-16, the scale (rules.scale) through the battle module
                res, dmg = game.battle_result(g, (att >> 3) - 1, (ag >> AW + 3) - 1)
                r = battles[key] = 1 if res == "success" else 0 if res == "draw" else -dmg
            if r > 0:  # MC-18 success: the beaten attacker to the ruins (MC-Q5)
                return next_turn(pos + ((me - att) << AO), p)
            if r < 0:  # MC-18 failure: the attack's damage to the defender (MC-3)
                return hurt(pos, p, -r)
            if both_to_ruins:  # MC-16 draw, MC-Q4
                pos -= att << AO
            return next_turn(pos, p)

        hurt, next_turn = self._make_turn_end(CM, NRS)
        self.play = play

    def _make_extra(self, HEALED, HEAL1):
        """The moves before the play (MC-10, MC-Q10): a GameChanger or a Discard skill."""
        GO, AM, AO, NGO, DM, LO, PO, PTH, PRO = (self.GO, self.AM, self.AO, self.NGO, self.DM, self.LO, self.PO,
                                                 self.PTH, self.PRO)
        dsk, BANISHES, settle = self.dsk, self.BANISHES, self.settle

        def extra(pos, p, g, v, att):
            if v == GC:  # replaces any GameChanger
                return pos + ((((g + 1) << 3 | p) - ((pos >> GO) & AM)) << GO)
            kind, amount = dsk[g]  # a Discard skill: its effect may find nothing
            if kind == REVIVE:
                return pos + HEALED[amount][(pos >> NGO[p]) & DM] * HEAL1[p]
            if kind == BANISH:
                if att and BANISHES[g][(att >> 3) - 1]:
                    pos -= att << AO
                return pos
            q = att & 7  # Ambush: the attacker's owner, another player not out
            if att and q != p and pos >> (LO + q) & 1:
                return settle(pos + MILL + (q << PO) + (1 << PTH) + (amount << PRO))
            return pos
        return extra

    def _make_turn_end(self, CM, NRS):
        """``hurt`` (the turn player takes damage, MC-3, MC-18) and ``next_turn``
        (the next player's draw, MC-9, MC-12), each stopping at chance or settling."""
        NHO, PO, PRO, LO, NEXT, DM, HW = self.NHO, self.PO, self.PRO, self.LO, self.NEXT, self.DM, self.HW
        HT, TO_DRAW, HM, ALL, settle = self.HT, self.TO_DRAW, (1 << self.HW) - 1, (1 << self.n) - 1, self.settle

        def hurt(pos, p, damage):
            pos += MILL + (p << PO) + (damage << PRO)
            c = (pos >> NHO[p]) & CM
            if damage < c >> NRS and not (c >> HW) & DM:
                return pos  # the first card from the unknown deck: chance
            return settle(pos)

        def next_turn(pos, p):
            t = NEXT[(pos >> LO) & ALL][p]
            pos += ((t - p) << 2) + DRAW
            c = (pos >> NHO[t]) & CM
            nh = c & HM
            if nh == HT:
                return pos - DRAW
            if TO_DRAW[nh] < c >> NRS and not (c >> HW) & DM:
                return pos  # a draw from the unknown deck: chance
            return settle(pos)
        return hurt, next_turn

    # -- the API edge -------------------------------------------------------------
    def encode(self, state):
        """The int of ``state`` (its named fields, :attr:`MonsterCardsState.fields`,
        at the places of :attr:`bits`); None for a position the engine cannot
        reach (the module docstring)."""
        f = state.fields
        attack, gc, pend, alive = f["attack"], f["gamechanger"], f["pending"], f["alive"]
        pos = PHASES.index(f["phase"]) | f["turn"] << 2
        if attack:
            pos |= ((attack[1] + 1) << 3 | attack[0]) << self.AO
        if gc:
            pos |= ((gc[1] + 1) << 3 | gc[0]) << self.GO
        if pend:
            if pend[1] > self.RM:
                return None
            pos |= pend[0] << self.PO | (pend[2] == K_ACT) << self.PTH | pend[1] << self.PRO
        for p, z in enumerate(f["players"]):
            unit, loc = self.UNIT[p], self.LOCAL[p]
            if not alive[p]:
                pos |= sum(unit[loc[c]] for c in z[4]) << self.RO[p]
                continue
            pos |= 1 << (self.LO + p)
            hand, top, rest, grave = z
            if len(hand) > self.HT:
                return None
            s = sum(loc[c] + 1 << i * self.BS[p] for i, c in enumerate(grave + top))
            pos |= (len(hand) << self.NHO[p] | len(top) << self.NTO[p] | len(grave) << self.NGO[p]
                    | len(rest) << self.NRO[p] | sum(unit[loc[c]] for c in hand) << self.HO[p]
                    | sum(unit[loc[c]] for c in rest) << self.RO[p] | s << self.SO[p])
        return pos

    def decode(self, pos):
        """The State of ``pos``, made by the game's factory (:meth:`MonsterCards.state_of`)."""
        b = self.bits.unpack(pos)
        pend = ()
        if b["phase"] == MILL:
            pend = (b["target"], b["damage"], K_ACT if b["then"] else K_END)
        alive = tuple(b["alive"] >> p & 1 for p in range(self.n))
        ps = []
        for p in range(self.n):
            rest = self._multiset(p, b[f"rest{p}"])
            if not alive[p]:
                ps.append(((), (), (), (), rest))
                continue
            nt, ng, s, bs, glob = b[f"ntop{p}"], b[f"ngrave{p}"], b[f"seq{p}"], self.BS[p], self.GLOB[p]
            seq = [glob[((s >> (bs * i)) & ((1 << bs) - 1)) - 1] for i in range(nt + ng)]
            ps.append((self._multiset(p, b[f"hand{p}"]), tuple(seq[ng:]), rest, tuple(seq[:ng])))
        return self.game.state_of(phase=PHASES[b["phase"]], turn=b["turn"], attack=self._zone(b["attack"]),
                                  gamechanger=self._zone(b["gamechanger"]), pending=pend, alive=alive,
                                  players=tuple(ps))

    @staticmethod
    def _zone(v):
        return ((v & 7, (v >> 3) - 1)) if v else ()

    def _multiset(self, p, field):
        out = []
        for c, (sh, mask) in zip(self.GLOB[p], self.WID[p]):
            out += [c] * ((field >> sh) & mask)
        return tuple(out)
