"""The ``index`` writer: one ``<sitemap>`` per entry, schema-valid and streamed."""

from __future__ import annotations

import datetime as dt
import gzip
import io
from pathlib import Path
from typing import Any

import sitemapconv
from sitemapconv import Entry, Image
from sitemapconv._registry import get_writer
from sitemapconv.writers._index import IndexWriter
from tests.sitemap_schemas import NS, assert_valid

CEST = dt.timezone(dt.timedelta(hours=2))


def write_index(entries: Any, **options: Any) -> tuple[bytes, list[str]]:
    warnings: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, "index", on_warning=warnings.append, **options)
    return out.getvalue(), warnings


def test_registered_under_its_names() -> None:
    assert get_writer("index") is IndexWriter
    assert get_writer("sitemapindex") is IndexWriter


def test_golden_output_is_exact_and_schema_valid() -> None:
    data, warnings = write_index(
        [
            Entry(
                "https://www.example.com/sitemap1.xml.gz",
                lastmod=dt.datetime(2004, 10, 1, 18, 23, 17, tzinfo=dt.timezone.utc),
            ),
            Entry("https://www.example.com/sitemap2.xml.gz", lastmod=dt.date(2005, 1, 1)),
            Entry("https://www.example.com/sitemap3.xml"),
        ]
    )
    assert data == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"  <sitemap>\n"
        b"    <loc>https://www.example.com/sitemap1.xml.gz</loc>\n"
        b"    <lastmod>2004-10-01T18:23:17+00:00</lastmod>\n"
        b"  </sitemap>\n"
        b"  <sitemap>\n"
        b"    <loc>https://www.example.com/sitemap2.xml.gz</loc>\n"
        b"    <lastmod>2005-01-01</lastmod>\n"
        b"  </sitemap>\n"
        b"  <sitemap>\n"
        b"    <loc>https://www.example.com/sitemap3.xml</loc>\n"
        b"  </sitemap>\n"
        b"</sitemapindex>\n"
    )
    assert warnings == []
    assert_valid(data, "siteindex")


def test_values_are_encoded_escaped_and_dated() -> None:
    entries = [
        Entry(
            "https://ex.com/sitemap.php?part=1&lang=ü'\"", lastmod=dt.datetime(2024, 1, 2, 3, 4, 5)
        ),
        Entry(
            "https://ex.com/s2.xml", lastmod=dt.datetime(2024, 1, 2, 3, 4, 5, 250000, tzinfo=CEST)
        ),
    ]
    data, _ = write_index(entries)
    assert b"<loc>https://ex.com/sitemap.php?part=1&amp;lang=%C3%BC&apos;%22</loc>" in data
    assert b"<lastmod>2024-01-02T03:04:05</lastmod>" in data  # naive stays naive
    assert b"<lastmod>2024-01-02T03:04:05.250000+02:00</lastmod>" in data
    root = assert_valid(data, "siteindex")
    assert root.findtext("sm:sitemap/sm:loc", namespaces=NS) == (
        "https://ex.com/sitemap.php?part=1&lang=%C3%BC'%22"
    )
    dated, _ = write_index(entries, date_only=True)
    assert dated.count(b"<lastmod>2024-01-02</lastmod>") == 2


def test_dropped_fields_are_reported_once_and_bad_locs_skipped() -> None:
    entries = [
        Entry("https://ex.com/a.xml", changefreq="daily", priority=0.3),
        Entry("https://ex.com/b.xml", images=[Image("https://ex.com/i.png")]),
        Entry("sitemap-3.xml"),
    ]
    data, warnings = write_index(entries)
    assert data.count(b"<sitemap>") == 2
    assert b"changefreq" not in data and b"image" not in data
    assert len(warnings) == 2
    assert "skipped 'sitemap-3.xml'" in warnings[0]
    assert "dropped changefreq, images, priority" in warnings[1]
    assert_valid(data, "siteindex")


def test_empty_index_is_written_with_a_warning() -> None:
    data, warnings = write_index([])
    assert data.endswith(
        b'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</sitemapindex>\n'
    )
    assert "empty" in warnings[0]


def test_over_the_limit_warns() -> None:
    _, warnings = write_index([Entry(f"https://ex.com/s{i}.xml") for i in range(4)], max_urls=3)
    assert warnings == [
        "<stream>: output holds 4 sitemaps (limit 3): search engines ignore such a file; "
        "an index must not list other indexes, so use fewer, bigger sitemaps"
    ]


def test_gzip_path(tmp_path: Path) -> None:
    path = tmp_path / "index.xml.gz"
    sitemapconv.write([Entry("https://ex.com/s1.xml")], path, "index")
    assert_valid(gzip.decompress(path.read_bytes()), "siteindex")
