"""The shape of the code: no import circle among cardlab's modules, and small pieces.

Both tests read the source with :mod:`ast` (nothing is imported or run), so
they see every import, the ones inside functions included.

**Imports.** Every ``import`` and ``from ... import`` of a cardlab module,
at module level or inside a function, is an edge of a directed graph whose
nodes are the modules of cardlab (a package's ``__init__.py`` is a node of its
own, named like the package).  Relative imports are resolved; ``from . import
x`` is an edge to the submodule ``x`` when ``x`` is a module, else to the
package.  An edge goes to the module named, **not to its parent packages**:
importing ``cardlab.games.mipig.core`` also runs ``cardlab/games/__init__.py``
and ``cardlab/games/mipig/__init__.py``, but that is Python initialising the
packages, not a dependency the importer chose; counting it would make every
package that re-exports its submodules (as each game's ``__init__`` does) a
circle with each of them.  A strongly connected component of more than one
module is a circle; there must be none, apart from the back-edges listed in
:data:`ALLOWED_BACK_EDGES` with their reason (each must stay a lazy import,
inside a function).

**Sizes.** No module over :data:`MAX_MODULE_LINES` lines, no function over
:data:`MAX_FUNCTION_LINES` (``end_lineno - lineno + 1`` of its ``def``,
decorators not counted), apart from :data:`ALLOWED_LONG`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent / "cardlab"

#: (importer, imported) -> why this one edge back up is allowed.  The edge is
#: left out of the graph; the test checks it is only ever imported lazily.
ALLOWED_BACK_EDGES = {
    ("cardlab.core", "cardlab.render"):
        "State._repr_html_ draws the position in a notebook: the engine imports the renderer "
        "lazily, inside the method, as python-chess's Board._repr_svg_ imports chess.svg",
}

MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80

#: "module:qualified.function" -> why it may be longer (data tables, or a
#: measured reason).  Keep it short.
ALLOWED_LONG: dict[str, str] = {}


# ---------------------------------------------------------------- reading


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package at ``root``: dotted name -> file."""
    top = root.name
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join((top,) + parts)] = path
    return out


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, modules) -> list[tuple[str, int, bool]]:
    """The cardlab modules ``module`` imports: (target, line, lazy) for each
    import statement anywhere in the file; ``lazy`` is true inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []

    def add(target, node, lazy):
        # a name that is no module of ours (an attribute of a package) is
        # an edge to the deepest module named
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target:
            found.append((target, node.lineno, lazy))

    def visit(node, lazy):
        for child in ast.iter_child_nodes(node):
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    add(alias.name, child, lazy)
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(module, _is_package(path), child)
                for alias in child.names:
                    sub = f"{target}.{alias.name}"
                    add(sub if sub in modules else target, child, lazy)
            visit(child, inner)

    visit(tree, False)
    return [(t, line, lazy) for t, line, lazy in found if t != module]


def import_graph(root: Path = ROOT):
    """The directed graph of imports among the modules of ``root``; each edge
    carries ``lines`` (where it is imported) and ``lazy`` (only inside functions)."""
    modules = module_files(root)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        for target, line, lazy in imports_of(module, path, modules):
            if graph.has_edge(module, target):
                data = graph.edges[module, target]
                if line not in data["lines"]:
                    data["lines"].append(line)
                data["lazy"] = data["lazy"] and lazy
            else:
                graph.add_edge(module, target, lines=[line], lazy=lazy)
    return graph


def circles(graph, allowed=ALLOWED_BACK_EDGES) -> list[list[str]]:
    """The strongly connected components of more than one module, once the
    allowed back-edges are taken out; each as a sorted list."""
    graph = nx.DiGraph(graph)
    graph.remove_edges_from([edge for edge in allowed if graph.has_edge(*edge)])
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def _describe(graph, circle) -> str:
    inside = set(circle)
    edges = [f"  {a} -> {b} (line {', '.join(map(str, d['lines']))}{', lazy' if d['lazy'] else ''})"
             for a, b, d in sorted(graph.edges(data=True)) if a in inside and b in inside]
    return f"circle of {len(circle)} modules:\n" + "\n".join(edges)


# ---------------------------------------------------------------- imports


def test_graph_reads_imports():
    """The reader sees module-level, function-level and relative imports."""
    graph = import_graph()
    assert graph.has_edge("cardlab.core", "cardlab.render")           # lazy, in _repr_html_
    assert graph.edges["cardlab.core", "cardlab.render"]["lazy"]
    assert graph.has_edge("cardlab", "cardlab.core")                  # from .core import ...
    assert graph.has_edge("cardlab", "cardlab.render")                # from . import render
    assert graph.has_edge("cardlab.widgets", "cardlab.widgets.board")
    assert not graph.has_edge("cardlab.widgets.board", "cardlab")     # parents are no edges


def test_circles_found_on_a_small_graph():
    """The check can fail: a synthetic graph with a circle, a lazy back-edge
    that is allowed, and a self-import that is no circle."""
    graph = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d"),
                        ("f", "f")])
    assert circles(graph, allowed={}) == [["a", "b", "c"], ["d", "e"]]
    assert circles(graph, allowed={("e", "d"): "lazy"}) == [["a", "b", "c"]]


def test_circle_found_in_a_copy(tmp_path):
    """The whole reader on a tiny package with a function-level circle."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .a import f\n")
    (pkg / "a.py").write_text("from .sub import b\n\ndef f():\n    return b.g()\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def g():\n    from ..a import f\n    return f\n")
    graph = import_graph(pkg)
    assert graph.has_edge("pkg.a", "pkg.sub.b") and graph.has_edge("pkg.sub.b", "pkg.a")
    assert graph.edges["pkg.sub.b", "pkg.a"]["lazy"]
    assert circles(graph, allowed={}) == [["pkg.a", "pkg.sub.b"]]
    assert circles(graph, allowed={("pkg.sub.b", "pkg.a"): "lazy"}) == []


def test_no_import_circle():
    graph = import_graph()
    found = circles(graph)
    assert not found, "\n".join(_describe(graph, c) for c in found)


@pytest.mark.parametrize("edge", sorted(ALLOWED_BACK_EDGES))
def test_allowed_back_edges_stay_lazy(edge):
    graph = import_graph()
    assert graph.has_edge(*edge), f"{edge[0]} no longer imports {edge[1]}: drop it from ALLOWED_BACK_EDGES"
    data = graph.edges[edge]
    assert data["lazy"], (f"{edge[0]} imports {edge[1]} at module level (line {data['lines']}): "
                          f"the allowed back-edge must stay inside a function")


# ---------------------------------------------------------------- sizes


def long_functions(root: Path = ROOT, limit: int = MAX_FUNCTION_LINES):
    """(module, qualified name, lines) of every function over ``limit`` lines."""
    out = []
    for module, path in module_files(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))

        def visit(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = prefix + child.name
                    if not isinstance(child, ast.ClassDef):
                        length = child.end_lineno - child.lineno + 1
                        if length > limit:
                            out.append((module, name, length))
                    visit(child, name + ".")
                else:
                    visit(child, prefix)

        visit(tree, "")
    return out


def test_long_functions_found(tmp_path):
    """The check can fail: a function of 81 lines inside a class."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    body = "".join(f"        x = {i}\n" for i in range(79))
    (pkg / "m.py").write_text(f"class C:\n    def f(self):\n{body}        return x\n\n    def g(self):\n        pass\n")
    assert long_functions(pkg) == [("pkg.m", "C.f", 81)]


def test_no_long_module():
    big = [f"{path.relative_to(ROOT.parent)}: {n} lines"
           for path in module_files().values()
           if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert not big, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(big)


def test_no_long_function():
    files = module_files()
    long = [f"{files[m].relative_to(ROOT.parent)}: {name} is {n} lines"
            for m, name, n in long_functions() if f"{m}:{name}" not in ALLOWED_LONG]
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(long)


def test_allow_list_is_current():
    """Every entry of the allow-list still names a long function."""
    present = {f"{m}:{name}" for m, name, _ in long_functions()}
    stale = sorted(set(ALLOWED_LONG) - present)
    assert not stale, f"no longer over {MAX_FUNCTION_LINES} lines, drop from ALLOWED_LONG: {stale}"
