"""The typing question on one piece of mipig's core (the attack-mask step of
``cardlab/games/mipig/core.py``, 3 cards each: 42-bit masks), three sources of the same
function: plain (toy_plain.py), Cython pure-Python mode with C words (toy_cy.py: needs
``import cython``, Cython's shadow module, to run as Python) and mypyc ``i64`` (toy_my.py).
Build and run from this folder (a scratch copy keeps the .so files out of the tree)::

    mkdir -p py cy my cyp myp && cp toy_plain.py toy_cy.py toy_my.py py/ && cp toy_cy.py cy/ && cp toy_my.py my/
    cp toy_plain.py cyp/ && cp toy_plain.py myp/
    (cd cy && cythonize -i -3 toy_cy.py); (cd my && mypyc toy_my.py)
    (cd cyp && cythonize -i -3 toy_plain.py); (cd myp && mypyc toy_plain.py)
    python bench.py
"""
import array, importlib.util, random, sys, time
def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path); m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
import glob
mods = {"plain py": load("toy_plain", "py/toy_plain.py"), "cy-typed as py": load("toy_cy", "py/toy_cy.py"),
        "my-typed as py": load("toy_my", "py/toy_my.py"),
        "cython typed": load("toy_cy", glob.glob("cy/toy_cy*.so")[0]), "mypyc i64": load("toy_my", glob.glob("my/toy_my*.so")[0]),
        "cython untyped": load("toy_plain", glob.glob("cyp/toy_plain*.so")[0]), "mypyc untyped": load("toy_plain", glob.glob("myp/toy_plain*.so")[0])}
rng = random.Random(1); S = 7; W = 42
words = []
for _ in range(200000):
    sq = rng.sample(range(W), 6); occ = sum(1 << q for q in sq)
    own = sum(1 << q for q in sq[:3]); up = sum(1 << q for q in sq if rng.random() < .5)
    words += [occ, own, up]
arr = array.array("Q", words)
args = {"cython typed": arr, "cy-typed as py": arr}
res = {}
best = {}
for r in range(5):
    for k, m in mods.items():
        if m is None: continue
        a = args.get(k, words)
        t = time.process_time(); v = m.count(a, S); d = time.process_time() - t
        res.setdefault(k, set()).add(v); best[k] = min(best.get(k, 9e9), d)
for k in best: print(f"{k:16s} {best[k]:.4f} s  x{best['plain py']/best[k]:.1f}  {res[k]}")
