"""One measured task per process: ``python tasks.py TASK FILE`` prints one JSON line.

Each task times only its work (imports and interpreter start excluded; the end-to-end task
is timed from outside by ``run.py``) and reports the process's peak RSS. Tasks that count
entries iterate without keeping them, as a streaming consumer would.
"""

from __future__ import annotations

import gzip
import json
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def raw_lxml_urlset(path: str) -> int:
    """The practical limit: iterparse extracting the four core fields as text."""
    from lxml import etree

    n = 0
    tags = {f"{SM}loc", f"{SM}lastmod", f"{SM}changefreq", f"{SM}priority"}
    source = gzip.open(path) if path.endswith(".gz") else path  # noqa: SIM115
    for _, el in etree.iterparse(source, events=("end",), tag=f"{SM}url"):
        fields = {c.tag: c.text for c in el if c.tag in tags}
        n += bool(fields)
        el.clear()
        while el.getprevious() is not None:
            del el.getparent()[0]
    return n


def raw_lxml_feed(path: str) -> int:
    """iterparse extracting link, date and title of RSS items or Atom entries."""
    from lxml import etree

    n = 0
    for _, el in etree.iterparse(
        path,
        events=("end",),
        tag=("item", "{http://www.w3.org/2005/Atom}entry", "{http://purl.org/atom/ns#}entry"),
    ):
        fields = {}
        for c in el:
            tag = c.tag
            if isinstance(tag, str):
                if tag.endswith("link"):
                    fields["link"] = c.text or c.get("href")
                elif tag.endswith(("pubDate", "updated", "modified")):
                    fields["date"] = c.text
                elif tag.endswith("title"):
                    fields["title"] = c.text
        n += bool(fields)
        el.clear()
        while el.getprevious() is not None:
            del el.getparent()[0]
    return n


def sitemapconv_read(path: str) -> int:
    import sitemapconv

    n = 0
    for _ in sitemapconv.read(path):
        n += 1
    return n


def sitemapconv_follow(path: str) -> int:
    import sitemapconv

    n = 0
    for _ in sitemapconv.read(path, follow=True):
        n += 1
    return n


def usp(path: str) -> int:
    from usp.tree import sitemap_from_str

    content = Path(path).read_text(encoding="utf-8")
    return sum(1 for _ in sitemap_from_str(content).all_pages())


def feedparser_parse(path: str) -> int:
    import feedparser

    return len(feedparser.parse(Path(path).read_bytes()).entries)


def _entries(path: str) -> list[tuple[str, str, str, str]]:
    from lxml import etree

    rows = []
    for _, el in etree.iterparse(path, events=("end",), tag=f"{SM}url"):
        d = {c.tag[len(SM) :]: (c.text or "") for c in el}
        rows.append((d["loc"], d["lastmod"], d["changefreq"], d["priority"]))
        el.clear()
    return rows


def plain_write(path: str) -> tuple[int, float]:
    """The reference for writing: string formatting with saxutils.escape, to a file."""
    rows = _entries(path)
    start = time.perf_counter()
    with open("/dev/null", "w", encoding="utf-8") as fh:
        fh.write(
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        )
        for loc, lastmod, changefreq, priority in rows:
            fh.write(
                f"  <url>\n    <loc>{escape(loc)}</loc>\n    <lastmod>{lastmod}</lastmod>\n"
                f"    <changefreq>{changefreq}</changefreq>\n"
                f"    <priority>{priority}</priority>\n  </url>\n"
            )
        fh.write("</urlset>\n")
    return len(rows), time.perf_counter() - start


def sitemapconv_write(path: str) -> tuple[int, float]:
    """sitemapconv's xml writer on entries already in memory (dates as datetimes)."""
    import sitemapconv

    entries = list(sitemapconv.read(path))
    start = time.perf_counter()
    with open("/dev/null", "wb") as fh:
        n = sitemapconv.write(entries, fh, "xml")
    return n, time.perf_counter() - start


def sitemapconv_split(path: str) -> int:
    """Follow a local index and write split sitemap parts (the 1,000,000-URL run)."""
    import tempfile

    import sitemapconv

    with tempfile.TemporaryDirectory() as tmp:
        doc = sitemapconv.read(path, follow=True)
        return sitemapconv.write(
            doc, f"{tmp}/sitemap.xml", "xml", split=True, base_url="https://www.example.com/"
        )


TASKS: dict[str, Callable[[str], object]] = {
    "raw_lxml_urlset": raw_lxml_urlset,
    "raw_lxml_feed": raw_lxml_feed,
    "sitemapconv_read": sitemapconv_read,
    "sitemapconv_follow": sitemapconv_follow,
    "usp": usp,
    "feedparser": feedparser_parse,
    "plain_write": plain_write,
    "sitemapconv_write": sitemapconv_write,
    "sitemapconv_split": sitemapconv_split,
}


def main() -> None:
    task, path = sys.argv[1], sys.argv[2]
    fn = TASKS[task]
    start = time.perf_counter()
    try:
        result = fn(path)
    except Exception as exc:  # report, don't crash the whole benchmark
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return
    elapsed = time.perf_counter() - start
    if isinstance(result, tuple):
        count, elapsed = result
    else:
        count = result
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": elapsed, "entries": count, "peak_rss_mb": rss_mb}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
