"""pyproject.toml declares exactly what the package imports (issue 17).

Every third-party module imported anywhere in ``sitemapconv/`` (at the top of a module or
inside a function: both run for some user) must come from a distribution declared in
``[project] dependencies`` or an optional extra, and every required dependency must be
imported by the package, or it is dead weight in every install. The declarations are read
from pyproject.toml each time, so the test stays right as dependencies are added.
"""

from __future__ import annotations

import ast
import re
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the check needs to run on one version

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sitemapconv"
#: Extras that hold tools for tests and benchmarks, not code of the package.
NOT_RUNTIME = {"test", "bench"}


def _name(requirement: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def _declared() -> tuple[set[str], set[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = {_name(r) for r in project.get("dependencies", [])}
    optional = {
        _name(r)
        for extra, reqs in project.get("optional-dependencies", {}).items()
        if extra not in NOT_RUNTIME
        for r in reqs
    }
    return required, optional


def _imported_modules() -> dict[str, str]:
    """Top-level module -> first file importing it, for every absolute import in the package."""
    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.partition(".")[0], str(path.relative_to(ROOT)))
    return found


def _third_party() -> dict[str, str]:
    return {
        module: where
        for module, where in _imported_modules().items()
        if module not in sys.stdlib_module_names and module != "sitemapconv"
    }


def _distributions(module: str) -> set[str]:
    return {_name(d) for d in packages_distributions().get(module, [])}


@pytest.mark.slow
def test_every_imported_module_is_declared() -> None:
    required, optional = _declared()
    undeclared = {
        module: where
        for module, where in _third_party().items()
        if not _distributions(module) & (required | optional)
    }
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"


@pytest.mark.slow
def test_every_required_dependency_is_imported() -> None:
    required, _ = _declared()
    provided = {d for module in _third_party() for d in _distributions(module)}
    unused = required - provided
    assert not unused, f"declared in pyproject.toml but never imported: {sorted(unused)}"


def test_the_scan_sees_function_level_imports() -> None:
    # feedparser and rich are only imported inside functions; a scan that missed them
    # would pass the tests above for the wrong reason.
    modules = _third_party()
    assert {"feedparser", "rich", "lxml", "typer", "httpx"} <= set(modules)
