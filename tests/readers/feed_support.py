"""Helpers shared by the feed reader tests: read a source fully, keeping the warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sitemapconv
from sitemapconv import Entry, FeedMeta

ROOT = Path(__file__).resolve().parents[2]
FEEDS = ROOT / "tests" / "data" / "feeds"
SAMPLES = ROOT / "samples"


@dataclass
class Result:
    format: str
    entries: list[Entry]
    meta: FeedMeta
    warnings: list[str] = field(default_factory=list)

    def warned(self, text: str) -> bool:
        return any(text in w for w in self.warnings)


def read_all(source: Any, format: str | None = None, **options: Any) -> Result:
    warnings: list[str] = []
    doc = sitemapconv.read(source, format, on_warning=warnings.append, **options)
    entries = list(doc)
    return Result(doc.format, entries, doc.meta, warnings)


def feed(name: str) -> Path:
    return FEEDS / name


def write_rss(path: Path, n: int) -> Path:
    """A well-formed RSS 2.0 feed of ``n`` items, written in a stream."""
    with path.open("w", encoding="utf-8") as f:
        f.write(
            '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>'
            "<title>Generated</title><link>https://example.com/</link><description>d"
            "</description>\n"
        )
        for i in range(n):
            f.write(
                f"<item><title>Item {i} &amp; more</title>"
                f"<link>https://example.com/posts/{i}?a=1&amp;b=2</link>"
                f"<description>Description of item {i}, long enough to look real.</description>"
                f'<guid isPermaLink="true">https://example.com/posts/{i}</guid>'
                f"<pubDate>Mon, 06 Jan 2025 10:{i % 60:02d}:00 +0000</pubDate></item>\n"
            )
        f.write("</channel></rss>\n")
    return path


def write_atom(path: Path, n: int) -> Path:
    """A well-formed Atom 1.0 feed of ``n`` entries, written in a stream."""
    with path.open("w", encoding="utf-8") as f:
        f.write(
            '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
            "<title>Generated</title><id>urn:x</id><updated>2025-01-06T10:00:00Z</updated>"
            '<link href="https://example.com/"/>\n'
        )
        for i in range(n):
            f.write(
                f'<entry><title>Entry {i}</title><link rel="alternate" type="text/html" '
                f'href="https://example.com/posts/{i}"/><id>urn:uuid:{i:08d}</id>'
                f"<updated>2025-01-06T10:{i % 60:02d}:00Z</updated>"
                f"<summary>Summary of entry {i}, long enough to look real.</summary></entry>\n"
            )
        f.write("</feed>\n")
    return path


def traced_peak(path: Path, format: str) -> tuple[int, int]:
    """(entries read, tracemalloc peak in bytes) while streaming ``path``."""
    import tracemalloc

    tracemalloc.start()
    try:
        count = sum(1 for _ in sitemapconv.read(path, format))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


_MAXRSS = """
import resource, sys, sitemapconv
count = sum(1 for _ in sitemapconv.read(sys.argv[1], sys.argv[2]))
print(count, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def process_peak_kib(path: Path, format: str) -> tuple[int, int]:
    """(entries read, peak resident size in KiB) of a fresh interpreter streaming ``path``.

    tracemalloc cannot see libxml2's own allocations; the process peak can, so this is what
    shows whether the parsed tree is really freed item by item.
    """
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", _MAXRSS, str(path), format],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return int(out[0]), int(out[1])
