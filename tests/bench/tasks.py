"""One measured task per process: ``python tasks.py TASK FILE`` prints one JSON line.

Each task has two phases. Its setup (imports, reading the entries a writer will write,
opening output directories) is not timed; the work it returns is, in wall time
(``seconds``) and in CPU time of the process (``cpu_seconds``), which a shared machine
disturbs much less. Interpreter start is never timed here: the end-to-end case in ``run.py``
times whole processes. Tasks that count entries iterate without keeping them, as a streaming
consumer would. ``peak_rss_mb`` is the whole process's peak resident set.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
SCHEMAS = Path(__file__).resolve().parents[2] / "sitemapconv" / "schemas"

Work = Callable[[], int]


def raw_lxml_urlset(path: str) -> Work:
    """The practical limit: iterparse extracting the four core fields as text."""
    from lxml import etree

    def work() -> int:
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

    return work


def raw_lxml_feed(path: str) -> Work:
    """iterparse extracting link, date and title of RSS items or Atom entries."""
    from lxml import etree

    def work() -> int:
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

    return work


def sitemapconv_read(path: str) -> Work:
    import sitemapconv

    def work() -> int:
        n = 0
        for _ in sitemapconv.read(path):
            n += 1
        return n

    return work


def sitemapconv_follow(path: str) -> Work:
    import sitemapconv

    def work() -> int:
        n = 0
        for _ in sitemapconv.read(path, follow=True):
            n += 1
        return n

    return work


def usp(path: str) -> Work:
    from usp.tree import sitemap_from_str

    def work() -> int:
        content = Path(path).read_text(encoding="utf-8")
        return sum(1 for _ in sitemap_from_str(content).all_pages())

    return work


def feedparser_parse(path: str) -> Work:
    import feedparser

    def work() -> int:
        return len(feedparser.parse(Path(path).read_bytes()).entries)

    return work


def _out_dir(path: str) -> str:
    """A fresh directory for written files, on the same disk as the input (not /dev/null)."""
    return tempfile.mkdtemp(prefix="write-", dir=Path(path).parent)


def plain_write(path: str) -> Work:
    """The reference for writing: the same Entry objects as sitemapconv writes, formatted by
    hand (``saxutils.escape`` for loc, ``isoformat()`` for lastmod, ``f"{p:.1f}"`` for
    priority) to a file on disk."""
    from xml.sax.saxutils import escape

    import sitemapconv

    entries = list(sitemapconv.read(path))
    target = os.path.join(_out_dir(path), "plain.xml")

    def work() -> int:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            )
            write = fh.write
            for e in entries:
                text = f"  <url>\n    <loc>{escape(e.loc)}</loc>\n"
                if e.lastmod is not None:
                    text += f"    <lastmod>{e.lastmod.isoformat()}</lastmod>\n"
                if e.changefreq is not None:
                    text += f"    <changefreq>{e.changefreq}</changefreq>\n"
                if e.priority is not None:
                    text += f"    <priority>{e.priority:.1f}</priority>\n"
                write(text + "  </url>\n")
            fh.write("</urlset>\n")
        return len(entries)

    work.output = target  # type: ignore[attr-defined]
    return work


def sitemapconv_write(path: str) -> Work:
    """sitemapconv's xml writer on entries already in memory, to a file on disk.

    The entries are read from ``path`` first, whatever its format, so the end-to-end case
    can time writing exactly the entries that the conversion writes.
    """
    import sitemapconv

    entries = list(sitemapconv.read(path))
    target = os.path.join(_out_dir(path), "sitemap.xml")

    def work() -> int:
        return sitemapconv.write(entries, target, "xml", on_warning=lambda _message: None)

    work.output = target  # type: ignore[attr-defined]
    return work


def sitemapconv_split(path: str) -> Work:
    """Follow a local index and write split sitemap parts (the 1,000,000-URL run)."""
    import sitemapconv

    target = os.path.join(_out_dir(path), "sitemap.xml")

    def work() -> int:
        doc = sitemapconv.read(path, follow=True)
        return sitemapconv.write(doc, target, "xml", split=True, base_url="https://example.com/")

    work.output = target  # type: ignore[attr-defined]
    return work


TASKS: dict[str, Callable[[str], Work]] = {
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


def _xsd_valid(output: str) -> bool:
    """Whether a written urlset (or every part of a split run) is valid under sitemap.xsd."""
    from lxml import etree

    schemas = {
        "urlset": etree.XMLSchema(etree.parse(str(SCHEMAS / "sitemap.xsd"))),
        "sitemapindex": etree.XMLSchema(etree.parse(str(SCHEMAS / "siteindex.xsd"))),
    }
    for file in sorted(Path(output).parent.glob("*.xml")):
        doc = etree.parse(str(file), etree.XMLParser(huge_tree=True))
        if not schemas[etree.QName(doc.getroot()).localname].validate(doc):
            return False
    return True


def main() -> None:
    task, path = sys.argv[1], sys.argv[2]
    try:
        work = TASKS[task](path)
        wall, cpu = time.perf_counter(), time.process_time()
        count = work()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    except Exception as exc:  # report, don't crash the whole benchmark
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result: dict[str, object] = {
        "seconds": wall,
        "cpu_seconds": cpu,
        "entries": count,
        "peak_rss_mb": rss_mb,
    }
    output = getattr(work, "output", None)
    if output is not None:
        if "--validate" in sys.argv[3:]:
            result["xsd_valid"] = _xsd_valid(output)
        import shutil

        shutil.rmtree(Path(output).parent, ignore_errors=True)
    print(json.dumps(result))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
