"""Cross-format conversion on the command line.

The library side is tests/formats/test_cross_format.py.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Run
from tests.extension_support import (
    EVERY_FIELD,
)


def test_cli_prints_one_dropped_fields_line(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "feed.rss"
    proc = cli(str(EVERY_FIELD), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.decode().splitlines() if "dropped" in line]
    assert len(lines) == 1, lines
    assert "rss output cannot carry these fields, dropped: alternates, changefreq," in lines[0]
