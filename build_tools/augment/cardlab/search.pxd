# Cython's augmenting declarations for cardlab/search.py (pure-Python mode): the .py stays
# plain Python; compiled with this file next to it, Search becomes an extension type whose
# counters are C integers and whose abc/_star1 are cpdef methods (C calls between them).
cdef class Search:
    cdef public object lo, hi, core, table, scale, LO, HI, history, max_nodes, progress, bar, start
    cdef public object deadline, clock, poll
    cdef public Py_ssize_t max_table_entries, forgotten, nodes, hits, next_tick
    cdef public bint ordering, pruning, simultaneous
    cpdef abc(self, pos, alpha, beta)
    cpdef tuple _star1(self, pos, alpha, beta)
