"""Atom 0.3 writer: the draft's required elements, UTC W3C-DTF dates, mapping, streaming."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import feedparser
import pytest

from sitemapconv._model import Alternate, Entry, FeedMeta, Image
from sitemapconv._registry import get_writer
from sitemapconv.writers._atom03 import Atom03Writer

from .feed_writer_support import MEDIA, parse, peak_memory, render, rich_entry

NS = "http://purl.org/atom/ns#"
A = f"{{{NS}}}"
UTC = dt.timezone.utc
EPOCH = "1700000000"
#: W3C-DTF date-time (the draft's Date construct); the zone is optional only for naive values.
W3C_DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
UTC_DATETIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


def _checked(data: bytes) -> Any:
    """Parse and apply the Atom 0.3 draft's rules for what a feed and an entry must hold."""
    root = parse(data)
    assert root.tag == f"{A}feed"
    assert root.get("version") == "0.3"
    assert root.findtext(f"{A}title")
    assert root.find(f"{A}author/{A}name") is not None  # feed-level: entries need none
    assert W3C_DATETIME.fullmatch(root.findtext(f"{A}modified"))
    for link in root.findall(f"{A}link"):
        assert link.get("rel") and link.get("type") and link.get("href")
    for entry in root.findall(f"{A}entry"):
        assert entry.findtext(f"{A}title")
        assert entry.findtext(f"{A}id")
        links = entry.findall(f"{A}link")
        assert links, "an entry needs its alternate link"
        for link in links:
            assert (link.get("rel"), link.get("type")) == ("alternate", "text/html")
            assert link.get("href")
        assert W3C_DATETIME.fullmatch(entry.findtext(f"{A}modified"))
        assert W3C_DATETIME.fullmatch(entry.findtext(f"{A}issued"))
    return root


def test_registered_under_its_name() -> None:
    assert get_writer("atom03") is Atom03Writer
    assert Atom03Writer.extensions == (".atom03",)


def test_root_and_required_elements() -> None:
    data, warnings = render("atom03", [rich_entry(1), Entry("https://www.example.com/x")])
    root = _checked(data)
    assert data.startswith(
        b'<?xml version="1.0" encoding="UTF-8"?>\n<feed version="0.3" xmlns="http://purl.org/atom/ns#"'
    )
    assert root.findtext(f"{A}title") == "www.example.com"
    link = root.find(f"{A}link")
    assert link.attrib == {
        "rel": "alternate",
        "type": "text/html",
        "href": "https://www.example.com/",
    }
    assert root.findtext(f"{A}author/{A}name") == "sitemapconv"
    assert root.find(f"{A}id") is None  # optional in 0.3 and not given
    first = root.find(f"{A}entry")
    assert first.find(f"{A}link").get("href") == rich_entry(1).loc
    assert first.findtext(f"{A}id") == rich_entry(1).loc
    assert len(warnings) == 1 and "priority" in warnings[0]


def test_feedparser_reads_it_as_atom03() -> None:
    data, _ = render("atom03", [rich_entry(1), rich_entry(2)])
    parsed = feedparser.parse(data)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    assert parsed.version == "atom03"
    assert [e.link for e in parsed.entries] == [rich_entry(1).loc, rich_entry(2).loc]
    assert parsed.entries[0].updated_parsed[:6] == (2024, 3, 2, 9, 0, 0)  # 10:00+01:00


def test_metadata_precedence() -> None:
    entries = [Entry("https://www.example.com/x")]
    opts = {
        "title": "Opt",
        "link": "https://opt.example/",
        "author": "Opt Author",
        "feed_id": "tag:opt.example,2024:f",
        "description": "Opt tagline",
    }
    root = _checked(render("atom03", entries, **opts)[0])
    assert root.findtext(f"{A}title") == "Opt"
    assert root.find(f"{A}link").get("href") == "https://opt.example/"
    assert root.findtext(f"{A}author/{A}name") == "Opt Author"
    assert root.findtext(f"{A}id") == "tag:opt.example,2024:f"
    assert root.findtext(f"{A}tagline") == "Opt tagline"
    meta = FeedMeta(title="Meta", link="https://meta.example/", author="M", id="tag:m,2024:f")
    root = _checked(render("atom03", entries, meta=meta, **opts)[0])
    assert root.findtext(f"{A}title") == "Meta"
    assert root.find(f"{A}link").get("href") == "https://meta.example/"
    assert root.findtext(f"{A}author/{A}name") == "M"
    assert root.findtext(f"{A}id") == "tag:m,2024:f"
    assert root.findtext(f"{A}tagline") == "Opt tagline"


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        (dt.datetime(2024, 5, 1, 12, 0, 1, tzinfo=UTC), "2024-05-01T12:00:01Z"),
        (  # converted to UTC, as the draft asks
            dt.datetime(2024, 5, 1, 1, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
            "2024-04-30T23:30:00Z",
        ),
        (dt.datetime(2024, 5, 1, 12, 0, 1, 120000, tzinfo=UTC), "2024-05-01T12:00:01.120000Z"),
        (dt.datetime(2024, 5, 1, 12, 0, 1), "2024-05-01T12:00:01"),  # zone unknown: none
        (dt.date(2024, 5, 1), "2024-05-01T00:00:00"),  # date only: midnight, zone unknown
    ],
)
def test_dates_are_w3c_in_utc(when: dt.date, expected: str) -> None:
    root = _checked(render("atom03", [Entry("https://www.example.com/", lastmod=when)])[0])
    entry = root.find(f"{A}entry")
    assert entry.findtext(f"{A}modified") == expected
    assert entry.findtext(f"{A}issued") == expected  # no published: issued = lastmod
    assert root.findtext(f"{A}modified") == expected
    if isinstance(when, dt.datetime) and when.tzinfo is not None:
        assert UTC_DATETIME.fullmatch(expected)


def test_issued_prefers_published_and_build_time_fills_gaps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    entries = [
        Entry(
            "https://www.example.com/a",
            lastmod=dt.datetime(2024, 2, 1, tzinfo=UTC),
            published=dt.datetime(2023, 1, 1, tzinfo=UTC),
        ),
        Entry("https://www.example.com/b", published=dt.datetime(2022, 1, 1, tzinfo=UTC)),
        Entry("https://www.example.com/c"),
    ]
    root = _checked(render("atom03", entries)[0])
    dates = [
        (e.findtext(f"{A}modified"), e.findtext(f"{A}issued")) for e in root.findall(f"{A}entry")
    ]
    assert dates == [
        ("2024-02-01T00:00:00Z", "2023-01-01T00:00:00Z"),
        ("2022-01-01T00:00:00Z", "2022-01-01T00:00:00Z"),
        ("2023-11-14T22:13:20Z", "2023-11-14T22:13:20Z"),
    ]
    assert root.findtext(f"{A}modified") == "2024-02-01T00:00:00Z"  # newest modified


def test_empty_feed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    root = _checked(render("atom03", [])[0])
    assert root.findtext(f"{A}modified") == "2023-11-14T22:13:20Z"
    assert root.find(f"{A}entry") is None
    assert root.find(f"{A}link") is None  # no site known


def test_summary_media_and_namespaces() -> None:
    plain, _ = render("atom03", [Entry("https://www.example.com/", summary="S & s")])
    root = _checked(plain)
    assert root.nsmap == {None: NS}
    assert root.find(f"{A}entry").findtext(f"{A}summary") == "S & s"
    entry = Entry("https://www.example.com/", images=[Image("https://e.x/i.png", title="T")])
    with_media, _ = render("atom03", [entry])
    root = _checked(with_media)
    assert root.nsmap == {None: NS, "media": MEDIA}
    content = root.find(f"{A}entry/{{{MEDIA}}}content")
    assert content.get("url") == "https://e.x/i.png"
    assert content.findtext(f"{{{MEDIA}}}title") == "T"


def test_alternates_and_sitemap_fields_are_dropped_once() -> None:
    entries = [
        Entry(
            f"https://www.example.com/{n}",
            changefreq="weekly",
            alternates=[Alternate(f"https://www.example.com/de/{n}", hreflang="de")],
        )
        for n in range(10)
    ]
    data, warnings = render("atom03", entries)
    root = _checked(data)
    assert all(len(e.findall(f"{A}link")) == 1 for e in root.findall(f"{A}entry"))
    assert warnings == [
        "<stream>: atom03 output cannot carry these fields, dropped: alternates, changefreq"
    ]


def test_escaping_and_forbidden_characters() -> None:
    entry = Entry("https://www.example.com/a b?x=1&y=ü", title="<A & B>\x0c", id="tag:e.x,2024:'1'")
    data, warnings = render("atom03", [entry])
    node = _checked(data).find(f"{A}entry")
    assert node.findtext(f"{A}title") == "<A & B>"
    assert node.find(f"{A}link").get("href") == "https://www.example.com/a%20b?x=1&y=%C3%BC"
    assert node.findtext(f"{A}id") == "tag:e.x,2024:'1'"
    assert b"&apos;1&apos;" in data
    assert len(warnings) == 1 and "XML 1.0" in warnings[0]


def test_output_is_deterministic() -> None:
    entries = [rich_entry(n) for n in range(20)]
    assert render("atom03", entries)[0] == render("atom03", entries)[0]
    data = render("atom03", entries)[0]
    assert data.endswith(b"</entry>\n</feed>\n") and b"\r" not in data


@pytest.mark.slow
def test_streaming_memory_does_not_grow_with_entry_count(tmp_path: Path) -> None:
    small = peak_memory("atom03", 4_000, tmp_path / "small.atom03")
    large = peak_memory("atom03", 40_000, tmp_path / "large.atom03")
    assert large <= small + 3 * 1024 * 1024, (small, large)
    assert (tmp_path / "large.atom03").read_bytes().count(b"<entry>") == 40_000
