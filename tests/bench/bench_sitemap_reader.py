"""Reading speed of the urlset reader against a bare lxml iterparse loop.

Not a test (pytest does not collect ``tests/bench``). Run it by hand::

    .venv/bin/python tests/bench/bench_sitemap_reader.py [--urls 50000] [--profile]

The target: reading 50,000 URLs (all four core tags) into full Entry objects with dates parsed
takes at most 1.3 times the raw loop, which only extracts the four texts.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import pstats
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

import sitemapconv

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
FREQS = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")


def generate(path: Path, count: int) -> None:
    """A realistic urlset: some query strings with ``&amp;``, a third of the lastmods
    date-only, the others full datetimes with an offset, every one of them distinct (so a
    cache of parsed dates cannot help)."""
    start = dt.datetime(2020, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    with open(path, "w", encoding="utf-8") as out:
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n')
        for i in range(count):
            query = f"?page={i % 7}&amp;sort=date" if i % 5 == 0 else ""
            when = start + dt.timedelta(seconds=1237 * i)
            lastmod = when.date().isoformat() if i % 3 == 0 else when.isoformat()
            out.write(
                "  <url>\n"
                f"    <loc>https://www.example.com/section-{i % 97}/article-{i}"
                f"-a-reasonably-long-slug-for-the-page.html{query}</loc>\n"
                f"    <lastmod>{lastmod}</lastmod>\n"
                f"    <changefreq>{FREQS[i % 7]}</changefreq>\n"
                f"    <priority>0.{i % 10}</priority>\n"
                "  </url>\n"
            )
        out.write("</urlset>\n")


def raw_loop(path: Path) -> int:
    """The baseline: iterparse, take the four texts, clear as we go."""
    count = 0
    loc_tag, lastmod_tag = f"{{{NS}}}loc", f"{{{NS}}}lastmod"
    freq_tag, prio_tag = f"{{{NS}}}changefreq", f"{{{NS}}}priority"
    for _, el in etree.iterparse(str(path), events=("end",), tag=f"{{{NS}}}url"):
        values = {child.tag: child.text for child in el}
        _ = (
            values.get(loc_tag),
            values.get(lastmod_tag),
            values.get(freq_tag),
            values.get(prio_tag),
        )
        el.clear()
        while el.getprevious() is not None:
            del el.getparent()[0]
        count += 1
    return count


def raw_loop_no_clearing(path: Path) -> int:
    """The same without freeing anything: faster, but memory grows with the file."""
    count = 0
    loc_tag, lastmod_tag = f"{{{NS}}}loc", f"{{{NS}}}lastmod"
    freq_tag, prio_tag = f"{{{NS}}}changefreq", f"{{{NS}}}priority"
    for _, el in etree.iterparse(str(path), events=("end",), tag=f"{{{NS}}}url"):
        values = {child.tag: child.text for child in el}
        _ = (
            values.get(loc_tag),
            values.get(lastmod_tag),
            values.get(freq_tag),
            values.get(prio_tag),
        )
        count += 1
    return count


def reader_loop(path: Path) -> int:
    count = 0
    for _ in sitemapconv.read(str(path), format="xml"):
        count += 1
    return count


def cpu_time(fn: Callable[[Path], int], path: Path) -> float:
    """CPU seconds of one run: steadier than wall time on a shared machine."""
    start = time.process_time()
    fn(path)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--urls", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sitemap.xml"
        generate(path, args.urls)
        size = path.stat().st_size
        assert raw_loop(path) == reader_loop(path) == args.urls
        if args.profile:
            cProfile.runctx("reader_loop(path)", globals(), {"path": path}, "/tmp/reader.prof")
            pstats.Stats("/tmp/reader.prof").sort_stats("tottime").print_stats(15)
            return
        raw_times, bare_times, our_times = [], [], []
        for _ in range(args.repeat):  # interleaved, so all see the same machine load
            raw_times.append(cpu_time(raw_loop, path))
            bare_times.append(cpu_time(raw_loop_no_clearing, path))
            our_times.append(cpu_time(reader_loop, path))
        raw, bare, ours = min(raw_times), min(bare_times), min(our_times)
    print(f"{args.urls:,} URLs, {size / 1e6:.1f} MB")
    print(f"raw lxml loop, clearing : {raw:.3f} s CPU (best of {args.repeat})")
    print(f"raw lxml loop, no clear : {bare:.3f} s CPU")
    print(f"sitemapconv.read        : {ours:.3f} s CPU")
    print(f"ratio {ours / raw:.2f} (against clearing), {ours / bare:.2f} (against no clearing)")


if __name__ == "__main__":
    main()
