"""The few names of Cython's pure-Python mode that cardlab's typed modules use, for a
Python without Cython (the JupyterLite site): types are plain markers, decorators do
nothing, ``declare`` and ``cast`` give the value.  Used only where ``import cython``
fails; with Cython installed, its own shadow module does this."""

compiled = False


class _Type:
    def __getitem__(self, _dims):  # ``cython.int[:]``: a typed memoryview, any sequence here
        return self


int = long = longlong = ulonglong = bint = Py_ssize_t = double = _Type()  # noqa: A001


def _same(x=None, *_a, **_k):
    if callable(x):
        return x
    return lambda f: f


cclass = cfunc = ccall = inline = final = _same
locals = returns = exceptval = boundscheck = wraparound = cdivision = _same  # noqa: A001


def declare(_type=None, value=None, **_k):
    return value


def cast(_type, value, **_k):
    return value
