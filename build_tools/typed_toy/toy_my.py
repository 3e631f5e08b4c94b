"""The same step, mypyc: masks as i64 (mypy_extensions.i64 is int when not compiled)."""
from __future__ import annotations

from mypy_extensions import i64


def count(words: list[int], S: i64) -> i64:
    total: i64 = 0
    n: i64 = len(words) // 3
    i: i64 = 0
    while i < n:
        occ: i64 = words[3 * i]
        own: i64 = words[3 * i + 1]
        up: i64 = words[3 * i + 2]
        p: i64 = 0
        while p < 2:
            mine: i64 = own if p else occ ^ own
            opp: i64 = occ ^ own if p else own
            a: i64 = mine & ~up & ((opp << 1) | (opp >> 1) | (opp << S) | (opp >> S))
            s: i64 = 0
            while a:
                if a & 1:
                    q: i64 = (opp << S) >> s
                    total += (q >> (S - 7)) & 1 | (q >> (S - 1)) & 1 | (q >> (S + 1)) & 1 | (q >> (S + 7)) & 1
                a >>= 1
                s += 1
            p += 1
        i += 1
    return total
