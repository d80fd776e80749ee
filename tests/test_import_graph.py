"""The package's import graph: no module-level cycle, and a cheap ``import sitemapconv``.

Every module of ``sitemapconv`` is parsed with :mod:`ast` (not imported) and its
module-level imports become edges; imports inside functions and under
``if TYPE_CHECKING:`` are left out, since they run late or never. A cycle in what is left
is a layering mistake: two modules that cannot be understood (or imported) one without
the other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import sitemapconv

PACKAGE_DIR = Path(sitemapconv.__file__).parent
PACKAGE = "sitemapconv"

#: What ``import sitemapconv`` must not load: each is paid for only by the feature using it.
HEAVY = ("httpx", "rich", "feedparser", "typer", "hishel", "dask", "pandas", "pyarrow")
#: What a function-level import may defer besides those: an event loop, thread pools.
WORTH_DEFERRING = (*HEAVY, "httpcore", "asyncio", "concurrent", "distributed")


def module_names() -> dict[str, Path]:
    """Every module of the package by dotted name (a package is its ``__init__``)."""
    modules: dict[str, Path] = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join([PACKAGE, *parts])] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported.

    Class bodies run at import time and are searched; function bodies are not, nor the
    body of ``if TYPE_CHECKING:`` (its ``else`` runs, and is searched).
    """
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(reversed(node.orelse))
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None) or []
                for child in reversed(children):
                    if isinstance(child, ast.ExceptHandler):
                        stack.extend(reversed(child.body))
                    elif isinstance(child, ast.stmt):
                        stack.append(child)


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names, relative levels resolved."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def import_graph(
    imports: Callable[[ast.Module], Iterator[ast.Import | ast.ImportFrom]] | None = None,
) -> dict[str, set[str]]:
    """Each module's imports of other modules of the package (module-level by default)."""
    imports = imports or module_level_imports
    modules = module_names()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in imports(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                origin = _resolve(name, is_package, node)
                for alias in node.names:
                    submodule = f"{origin}.{alias.name}"
                    targets.append(submodule if submodule in modules else origin)
            for target in targets:
                # ``import a.b.c`` needs a.b.c; the nearest module of ours that it names.
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target.startswith(PACKAGE) and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path that ends where it starts, or None."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        path.append(node)
        for nxt in sorted(graph[node]):
            if colour[nxt] == grey:
                return [*path[path.index(nxt) :], nxt]
            if colour[nxt] == white:
                found = visit(nxt)
                if found is not None:
                    return found
        path.pop()
        colour[node] = black
        return None

    for start in sorted(graph):
        if colour[start] == white:
            found = visit(start)
            if found is not None:
                return found
    return None


def test_the_package_has_no_import_cycle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_graph_sees_the_imports_it_must() -> None:
    """The scan is not blind: known module-level edges are found, lazy ones are not."""
    graph = import_graph()
    assert "sitemapconv._api" in graph["sitemapconv"]
    assert "sitemapconv.errors" in graph["sitemapconv._api"]
    assert "sitemapconv._registry" in graph["sitemapconv._detect"]
    assert "sitemapconv._head" in graph["sitemapconv.readers"]
    # _registry names readers only for type checking: that is no edge.
    assert "sitemapconv.readers" not in graph["sitemapconv._registry"]
    # read() imports the threaded follow driver when it is asked to follow, not before.
    assert "sitemapconv._follow.sync" not in graph["sitemapconv._api"]
    assert "sitemapconv._follow.sync" in import_graph(_all_imports)["sitemapconv._api"]


def test_readers_never_import_the_detection_contest() -> None:
    """``_detect`` runs every reader's sniffer (through ``_registry``, which loads them by
    name): a reader that imported ``_detect`` would close that loop."""
    graph = import_graph()
    readers = [name for name in graph if name.startswith("sitemapconv.readers")]
    assert readers
    assert not [name for name in readers if "sitemapconv._detect" in graph[name]]


def test_the_follow_policy_imports_nothing_that_does_io() -> None:
    """The scheduling policy decides without I/O (httpx's models, not its clients): no
    driver, fetcher, transport, cache or document opener is imported by it, or at module
    level by what it imports."""
    eager = import_graph()
    reach = set(import_graph(_all_imports)["sitemapconv._follow.policy"])
    stack = list(reach)
    while stack:
        for nxt in eager[stack.pop()] - reach:
            reach.add(nxt)
            stack.append(nxt)
    io_modules = {
        "sitemapconv._fetch",
        "sitemapconv._transport",
        "sitemapconv._cache",
        "sitemapconv._open",
        "sitemapconv._source",
        "sitemapconv._follow.children",
        "sitemapconv._follow.sync",
        "sitemapconv._follow.async_driver",
        "sitemapconv._follow.tasks",
    }
    assert not reach & io_modules


def test_the_cycle_finder_reports_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def _all_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, in functions too, except under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            skipped.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped:
            yield node


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, stack = {start}, [start]
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        for nxt in graph[node] - seen:
            seen.add(nxt)
            stack.append(nxt)
    return False


def _third_party(tree: ast.Module) -> set[str]:
    """The top-level names of what a module imports at module level, outside the package."""
    names: set[str] = set()
    for node in module_level_imports(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif not node.level and node.module:
            names.add(node.module.partition(".")[0])
    return names


def test_lazy_imports_hide_no_cycle_except_to_spare_a_heavy_import() -> None:
    """An import moved into a function to break a cycle only hides it; one is allowed to close
    a cycle only when what it imports loads a heavy dependency (``import sitemapconv`` would
    pay for it otherwise)."""
    eager = import_graph()
    full = import_graph(_all_imports)
    heavy_modules = set()
    for name, path in module_names().items():
        if _third_party(ast.parse(path.read_text(encoding="utf-8"))) & set(WORTH_DEFERRING):
            heavy_modules.add(name)
    hidden = []
    for module, targets in full.items():
        for target in sorted(targets - eager[module]):
            loads_heavy = any(_reaches(eager, target, h) for h in heavy_modules)
            if _reaches(full, target, module) and not loads_heavy:
                hidden.append(f"{module} -> {target}")
    assert not hidden, "lazy imports that only hide a cycle: " + ", ".join(hidden)


def test_importing_the_package_loads_no_heavy_dependency() -> None:
    code = f"import sys, sitemapconv\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""


def test_every_public_name_resolves_the_lazy_ones_on_first_use() -> None:
    """``__all__`` names what ``sitemapconv`` gives, the lazily imported ones included
    (``aread``, ``AsyncDocument`` and ``FollowStats`` live in the follow package)."""
    code = (
        "import sys, sitemapconv\n"
        "assert 'sitemapconv._follow.async_driver' not in sys.modules\n"
        "missing = [n for n in sitemapconv.__all__ if getattr(sitemapconv, n, None) is None]\n"
        "print(missing, sitemapconv.FollowStats.__module__, sitemapconv.aread.__module__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == [
        "[]",
        "sitemapconv._follow.results",
        "sitemapconv._follow.async_driver",
    ]
