"""Shared helpers of the validator's rule tests: write a tiny file, validate it, list findings.

Each rule test writes one small document to a real file in ``tmp_path`` and runs the public
``sitemapconv.validate`` on it, so it exercises the streaming pass that calls the rule module.
A finding is ``(rule, severity, line, url)``; tests compare whole lists, so a rule that fires
on the wrong line, with the wrong severity or in addition to the expected ones fails the test.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sitemapconv import Report, validate

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'

Finding = tuple[str, str, "int | None", "str | None"]
Check = Callable[..., list[Finding]]


def urlset(*lines: str) -> str:
    """A urlset whose body lines start at line 3 (line 1 is the declaration)."""
    return "\n".join([DECLARATION, f'<urlset xmlns="{SITEMAP_NS}">', *lines, "</urlset>", ""])


def sitemapindex(*lines: str) -> str:
    """A sitemap index whose body lines start at line 3."""
    body = [DECLARATION, f'<sitemapindex xmlns="{SITEMAP_NS}">', *lines, "</sitemapindex>", ""]
    return "\n".join(body)


def findings(report: Report) -> list[Finding]:
    return [(p.rule, p.severity, p.line, p.url) for p in report.problems]


@pytest.fixture
def check(tmp_path: Path) -> Check:
    """Write ``content`` to ``tmp_path / name``, validate it, return its findings."""

    def run(name: str, content: str | bytes, **options: object) -> list[Finding]:
        path = tmp_path / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return findings(validate(path, **options))  # type: ignore[arg-type]

    return run
