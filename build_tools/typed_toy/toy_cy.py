"""The same step, Cython pure-Python mode: masks as C words (runs as Python with Cython's shadow module)."""
from __future__ import annotations

import cython


@cython.locals(total=cython.longlong, occ=cython.ulonglong, own=cython.ulonglong, up=cython.ulonglong,
               mine=cython.ulonglong, opp=cython.ulonglong, a=cython.ulonglong, s2=cython.int,
               q=cython.ulonglong, s=cython.int, p=cython.int, i=cython.Py_ssize_t, n=cython.Py_ssize_t,
               S=cython.int, words=cython.ulonglong[:])
def count(words, S) -> int:
    total = 0
    n = len(words) // 3
    for i in range(n):
        occ = words[3 * i]
        own = words[3 * i + 1]
        up = words[3 * i + 2]
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
