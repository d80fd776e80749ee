"""Atom 0.3 reader on real and hand-written feeds."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._head import Head
from sitemapconv.readers._atom03 import Atom03Reader

from .feed_support import SAMPLES, feed, read_all

UTC = dt.timezone.utc


def atom03(entries: str, ns: str = ' xmlns="http://purl.org/atom/ns#"') -> bytes:
    return f'<feed version="0.3"{ns}><title>T</title>{entries}</feed>'.encode()


def test_rome_dates_and_fields() -> None:
    result = read_all(feed("atom03-rome.xml").read_bytes(), "atom03")
    assert [(e.loc, e.id, e.title, e.summary) for e in result.entries] == [
        (
            f"atom_0.3.feed.entry[{i}].link^href",
            f"atom_0.3.feed.entry[{i}]^id",
            f"atom_0.3.feed.entry[{i}].title",
            f"atom_0.3.feed.entry[{i}].summary",
        )
        for i in (0, 1)
    ]
    first, second = result.entries
    assert first.lastmod == dt.datetime(2000, 1, 1, 0, 0, tzinfo=UTC)  # modified
    assert first.published == dt.datetime(2000, 1, 1, 1, 0, tzinfo=UTC)  # issued
    assert second.lastmod == dt.datetime(2000, 2, 1, 0, 0, tzinfo=UTC)
    assert second.published == dt.datetime(2000, 2, 1, 1, 0, tzinfo=UTC)
    meta = result.meta
    assert meta.title == "atom_0.3.feed.title"
    assert meta.description == "atom_0.3.feed.tagline"
    assert meta.id == "atom_0.3.feed.id"
    assert meta.updated == dt.datetime(2000, 1, 1, tzinfo=UTC)
    assert meta.author == "atom_0.3.feed.author.name"
    assert meta.link == "atom_0.3.feed.link^href"
    assert result.warned("is relative")  # read from bytes: no base URL


@pytest.mark.parametrize(
    ("dates", "lastmod", "published", "warning"),
    [
        (
            "<modified>2004-01-02T00:00:00Z</modified><issued>2004-01-01T00:00:00Z</issued>"
            "<created>2003-12-31T00:00:00Z</created>",
            dt.datetime(2004, 1, 2, tzinfo=UTC),
            dt.datetime(2004, 1, 1, tzinfo=UTC),
            None,
        ),
        (
            "<issued>2004-01-01T00:00:00Z</issued><created>2003-12-31T00:00:00Z</created>",
            dt.datetime(2004, 1, 1, tzinfo=UTC),
            dt.datetime(2004, 1, 1, tzinfo=UTC),
            "<issued> is used",
        ),
        (
            "<created>2003-12-31T00:00:00Z</created>",
            dt.datetime(2003, 12, 31, tzinfo=UTC),
            None,
            "<created> is used",
        ),
        (
            "<issued>Thu, 01 Jan 2004 19:48:21 GMT</issued>",
            dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC),
            dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC),
            "<issued> is used",
        ),
        ("", None, None, None),
    ],
)
def test_modified_issued_created_fallback(
    dates: str, lastmod: dt.datetime | None, published: dt.datetime | None, warning: str | None
) -> None:
    data = atom03(f'<entry><link rel="alternate" href="http://e.com/1"/>{dates}</entry>')
    result = read_all(data, "atom03")
    [entry] = result.entries
    assert (entry.lastmod, entry.published) == (lastmod, published)
    if warning is None:
        assert result.warnings == []
    else:
        assert result.warned(warning)


def test_entry_link_matches_gofeed() -> None:
    expected = json.loads(feed("atom03-entry-link.expected.json").read_text())
    result = read_all(feed("atom03-entry-link.xml"), "atom03")
    assert [e.loc for e in result.entries] == [item["link"] for item in expected["items"]]
    assert result.entries[0].loc == "http://www.example.org"


@pytest.mark.parametrize("name", ["atom03-entry-issued.xml", "atom03-entry-modified.xml"])
def test_entries_without_a_link_are_skipped(name: str) -> None:
    result = read_all(feed(name), "atom03")
    assert result.entries == []
    assert result.warned("no alternate <link>")


def test_google_base_products() -> None:
    result = read_all(feed("atom03-google-base-products.xml"), "atom03")
    assert [(e.loc, e.title) for e in result.entries] == [
        ("http://provider-website.com/item1-info-page.html", "Google Mini"),
        ("http://provider-website.com/item2-info-page.html", "Acme Laptop"),
    ]
    for entry in result.entries:
        assert entry.lastmod == dt.datetime(2003, 12, 13, 18, 30, 2, tzinfo=UTC)
        assert entry.published == dt.datetime(
            2003, 12, 13, 8, 29, 29, tzinfo=dt.timezone(dt.timedelta(hours=-4))
        )
        assert entry.id == "tag:providers-website-item1.com,2003:3.2397"
    assert result.entries[1].summary == "Acme 2000 series laptop"
    assert result.meta.title == "The name of your feed"
    assert result.meta.author == "The name of the author"


def test_version_03_feed_without_the_namespace() -> None:
    data = atom03('<entry><link rel="alternate" href="http://e.com/1"/></entry>', ns="")
    assert Atom03Reader.sniff(Head(data)) > 0.5
    assert [e.loc for e in read_all(data, "atom03").entries] == ["http://e.com/1"]


def test_sniff_scores() -> None:
    assert Atom03Reader.sniff(Head(b'<feed version="0.3" xmlns="http://purl.org/atom/ns#">')) == 1
    assert Atom03Reader.sniff(Head(b'<feed xmlns="http://purl.org/atom/ns#">')) == 1.0
    assert Atom03Reader.sniff(Head(b'<feed xmlns="http://www.w3.org/2005/Atom">')) == 0.0
    assert Atom03Reader.sniff(Head(b"<rss>")) == 0.0


@pytest.mark.parametrize(
    "path", [SAMPLES / "feed.atom03", feed("atom03-rome.xml"), feed("atom03-entry-link.xml")]
)
def test_read_detects_atom03(path: Path) -> None:
    assert sitemapconv.read(path).format == "atom03"


def test_sample_feed_atom03() -> None:
    result = read_all(SAMPLES / "feed.atom03", "atom03")
    e = result.entries
    assert [(x.loc, x.id, x.title) for x in e] == [
        (
            "http://weblog.example.net/2004/03/moving",
            "tag:weblog.example.net,2004:3",
            "Moving to a new server",
        ),
        (
            "http://weblog.example.net/2004/01/atom",
            "tag:weblog.example.net,2004:2",
            "Atom 0.3 is out",
        ),
        ("http://weblog.example.net/2003/12/first", "tag:weblog.example.net,2003:1", "First post"),
    ]
    assert [x.lastmod for x in e] == [
        dt.datetime(2004, 3, 15, 10, 0, tzinfo=UTC),
        dt.datetime(2004, 1, 11, 8, 30, tzinfo=UTC),
        dt.datetime(2003, 12, 24, 18, 30, tzinfo=UTC),
    ]
    assert [x.published for x in e] == [
        dt.datetime(2004, 3, 15, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=1))),
        dt.datetime(2004, 1, 10, 12, 0),  # no zone given: naive
        dt.datetime(2003, 12, 24, 18, 0, tzinfo=UTC),
    ]
    assert e[0].summary == "Downtime expected on Sunday."
    assert result.warnings == []  # the shipped sample is a valid Atom 0.3 feed (issue #16)
    meta = result.meta
    assert meta.title == "Old Weblog"
    assert meta.description == "Still here since 2004"
    assert meta.link == "http://weblog.example.net/"
    assert meta.id == "tag:weblog.example.net,2004:feed"
    assert meta.updated == dt.datetime(2004, 3, 15, 10, 0, tzinfo=UTC)
    assert meta.author == "Pat Blogger"
    assert meta.language == "en"
