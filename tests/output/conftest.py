"""Fixtures for the output-safety suite: the console script and helpers on real files."""

from __future__ import annotations

from pathlib import Path

import pytest


def leftovers(folder: Path) -> list[str]:
    """Hidden temporary files a write may have left in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def one_error_line(stderr: str | bytes) -> str:
    """The stderr of a failed run: exactly one ``sitemapconv: error:`` line, no traceback."""
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    lines = [line for line in text.splitlines() if line.strip()]
    assert "Traceback" not in text and "Exception ignored" not in text, text
    assert len(lines) == 1 and lines[0].startswith("sitemapconv: error: "), text
    return lines[0]


needs_root = pytest.mark.skipif(
    not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() != 0,
    reason="making a device node needs root",
)
