"""The sitemapindex reader: one entry per child sitemap."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

import sitemapconv
from sitemapconv._model import Entry
from sitemapconv.errors import FormatError

DATA = Path(__file__).resolve().parent.parent / "data" / "sitemaps"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
UTC = dt.timezone.utc


def read_all(source: Any, **options: Any) -> tuple[list[Entry], list[str], str]:
    messages: list[str] = []
    with sitemapconv.read(source, on_warning=messages.append, **options) as doc:
        entries = list(doc)
    return entries, messages, doc.format


def index(body: str, ns: str = NS) -> bytes:
    xmlns = f' xmlns="{ns}"' if ns else ""
    return f'<?xml version="1.0"?>\n<sitemapindex{xmlns}>{body}</sitemapindex>'.encode()


def test_index_basic_field_by_field_and_golden() -> None:
    entries, messages, fmt = read_all(DATA / "index-basic.xml")
    assert fmt == "index"
    assert messages == []
    sitemap = str(DATA / "index-basic.xml")
    assert entries == [
        Entry(
            "http://www.example.com/sitemap1.xml.gz",
            dt.datetime(2004, 10, 1, 18, 23, 17, tzinfo=UTC),
            sitemap=sitemap,
        ),
        Entry("http://www.example.com/sitemap2.xml.gz", dt.date(2005, 1, 1), sitemap=sitemap),
        Entry("http://www.example.com/sitemap3.xml.gz", None, sitemap=sitemap),
    ]
    golden = (DATA / "index-basic.golden.txt").read_text().split()
    assert [line for line in golden if line.startswith("http")] == [e.loc for e in entries]
    golden_dates = [
        dt.datetime.fromisoformat(line.replace("Z", "+00:00"))
        for line in golden
        if line[:4].isdigit()
    ]
    assert golden_dates[0] == entries[0].lastmod
    # The golden file turns the date-only lastmod into midnight UTC; we keep the date.
    assert golden_dates[1].date() == entries[1].lastmod
    assert len(golden_dates) == 2


def test_index_alltags_with_schema_location() -> None:
    entries, messages, fmt = read_all(DATA / "index-alltags.xml")
    assert fmt == "index"
    assert [(e.loc, e.lastmod) for e in entries] == [
        (
            "https://www.example.com/sitemap1.xml.gz",
            dt.datetime(2004, 10, 1, 18, 23, 17, tzinfo=UTC),
        ),
        ("https://www.example.com/sitemap2.xml.gz", dt.date(2005, 1, 1)),
    ]
    assert messages == []


def test_index_entries_carry_no_page_fields() -> None:
    entries, _, _ = read_all(DATA / "index-alltags.xml")
    for entry in entries:
        assert (entry.changefreq, entry.priority, entry.images, entry.news) == (
            None,
            None,
            (),
            None,
        )


def test_sample_index_field_by_field() -> None:
    entries, messages, fmt = read_all(SAMPLES / "sitemap-index.xml")
    assert fmt == "index"
    assert messages == []
    assert [(e.loc, e.lastmod) for e in entries] == [
        ("https://www.example.com/sitemap-pages.xml", dt.datetime(2024, 5, 1, 8, tzinfo=UTC)),
        ("https://www.example.com/sitemap-products.xml.gz", dt.date(2024, 4, 30)),
        ("https://www.example.com/sitemap-news.xml", None),
    ]
    assert {e.sitemap for e in entries} == {str(SAMPLES / "sitemap-index.xml")}


def test_index_tolerance_bom_whitespace_no_namespace_any_order() -> None:
    doc = b"\xef\xbb\xbf\n\n" + index(
        "<sitemap><lastmod> 2024-02-03 </lastmod><loc>\n https://e.com/s.xml \n</loc></sitemap>",
        ns="",
    )
    entries, messages, fmt = read_all(doc)
    assert fmt == "index"
    assert [(e.loc, e.lastmod) for e in entries] == [("https://e.com/s.xml", dt.date(2024, 2, 3))]
    assert any("no namespace" in m for m in messages)


@pytest.mark.parametrize(
    "ns",
    [
        "https://www.sitemaps.org/schemas/sitemap/0.9",
        "http://www.google.com/schemas/sitemap/0.84",
        "http://www.google.com/schemas/sitemap/0.9",
    ],
)
def test_index_variant_namespaces(ns: str) -> None:
    entries, messages, fmt = read_all(
        index("<sitemap><loc>https://e.com/s.xml</loc></sitemap>", ns)
    )
    assert fmt == "index"
    assert [e.loc for e in entries] == ["https://e.com/s.xml"]
    assert len(messages) == 1


def test_index_sitemap_without_loc_and_bad_lastmod() -> None:
    doc = index(
        "<sitemap><lastmod>2024-01-01</lastmod></sitemap>"
        "<sitemap><loc>https://e.com/a.xml</loc><lastmod>last week</lastmod></sitemap>"
        "<sitemap><loc>https://e.com/b.xml?x=1&y=2</loc><lastmod/></sitemap>"
    )
    entries, messages, _ = read_all(doc)
    assert [(e.loc, e.lastmod) for e in entries] == [
        ("https://e.com/a.xml", None),
        ("https://e.com/b.xml?x=1&y=2", None),
    ]
    assert any("<sitemap> without <loc>" in m for m in messages)
    assert any("https://e.com/a.xml" in m and "'last week'" in m for m in messages)
    assert any("https://e.com/b.xml?x=1&y=2" in m and "lastmod ''" in m for m in messages)


def test_truncated_index_keeps_complete_children() -> None:
    full = (DATA / "index-basic.xml").read_bytes()
    entries, messages, _ = read_all(full[: full.index(b"sitemap3")])
    assert [e.loc for e in entries] == [
        "http://www.example.com/sitemap1.xml.gz",
        "http://www.example.com/sitemap2.xml.gz",
    ]
    assert any("dropped" in m for m in messages)


def test_index_reader_forced_on_urlset_is_refused() -> None:
    # Issue #16: a forced format fails the same way for every format.
    with pytest.raises(FormatError, match=r"not an index document \(root element <urlset>\)"):
        read_all(DATA / "urlset-basic.xml", format="index")
