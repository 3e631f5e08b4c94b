"""mipig's attack-mask step (core._battle_steps.attacks) on a field of 3 cards each: W = 42-bit masks."""
from __future__ import annotations


def count(fields: list, S: int) -> int:
    total = 0
    for i in range(len(fields) // 3):
        occ = fields[3 * i]
        own = fields[3 * i + 1]
        up = fields[3 * i + 2]
        for p in range(2):
            if p:
                mine = own
                opp = occ ^ own
            else:
                mine = occ ^ own
                opp = own
            a = mine & ~up & ((opp << 1) | (opp >> 1) | (opp << S) | (opp >> S))
            s = 0
            while a:
                if a & 1:
                    q = (opp << S) >> s
                    total += (q >> (S - 7)) & 1 | (q >> (S - 1)) & 1 | (q >> (S + 1)) & 1 | (q >> (S + 7)) & 1
                a >>= 1
                s += 1
    return total
