"""One-off measurement: the xml writer against plain string formatting (not a test).

Run: ``.venv/bin/python tests/bench/bench_sitemap_writer.py [N]``. Writes N entries (loc,
lastmod, changefreq, priority) to an in-memory buffer with :class:`SitemapWriter`, and with
the simplest possible formatter that uses :func:`xml.sax.saxutils.escape`; prints both
times (best of 7, interleaved) and their ratio. The target is a ratio of at most 2.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
import time
from xml.sax.saxutils import escape

from sitemapconv._model import Entry
from sitemapconv.writers import WriteContext
from sitemapconv.writers._urlset import SitemapWriter


def make_entries(n: int) -> list[Entry]:
    tz = dt.timezone(dt.timedelta(hours=2))
    freqs = ("daily", "weekly", "monthly")
    return [
        Entry(
            f"https://www.example.com/section/{i % 97}/page-{i}.html?ref=a&b={i}",
            lastmod=dt.datetime(2024, 1 + i % 12, 1 + i % 28, i % 24, i % 60, 0, tzinfo=tz),
            changefreq=freqs[i % 3],
            priority=(i % 11) / 10,
        )
        for i in range(n)
    ]


def plain(entries: list[Entry], out: io.BytesIO) -> None:
    out.write(b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="x">\n')
    for e in entries:
        assert e.lastmod is not None and e.priority is not None
        out.write(
            f"  <url>\n    <loc>{escape(e.loc)}</loc>\n"
            f"    <lastmod>{e.lastmod.isoformat()}</lastmod>\n"
            f"    <changefreq>{e.changefreq}</changefreq>\n"
            f"    <priority>{e.priority:.1f}</priority>\n  </url>\n".encode()
        )
    out.write(b"</urlset>\n")


def ours(entries: list[Entry], out: io.BytesIO) -> None:
    SitemapWriter().write(entries, out, WriteContext(dest="<bench>"))


def timed(fn: object, entries: list[Entry]) -> float:
    out = io.BytesIO()
    t0 = time.perf_counter()
    fn(entries, out)  # type: ignore[operator]
    return time.perf_counter() - t0


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    entries = make_entries(n)
    # Interleaved, best of 7 each: fair on a machine whose load changes during the run.
    runs = [(timed(plain, entries), timed(ours, entries)) for _ in range(7)]
    base, mine = min(r[0] for r in runs), min(r[1] for r in runs)
    print(
        f"{n} entries: plain {base * 1000:.0f} ms, SitemapWriter {mine * 1000:.0f} ms, "
        f"ratio {mine / base:.2f}"
    )
