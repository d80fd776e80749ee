"""The fast readers' rules learnt from feedparser's test suite (issue 17).

An Atom entry with no link but an absolute http(s) ``id``; RSS items dated only by Dublin Core
terms; Media RSS in its old namespace without the trailing slash.
"""

from __future__ import annotations

import datetime as dt

from .feed_support import read_all

UTC = dt.timezone.utc


def atom(entries: str) -> bytes:
    return (
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>'
        f"<id>urn:x</id><updated>2024-01-01T00:00:00Z</updated>{entries}</feed>"
    ).encode()


def test_atom_entry_without_link_takes_an_http_id() -> None:
    result = read_all(atom("<entry><id>https://example.com/a</id></entry>"))
    assert [e.loc for e in result.entries] == ["https://example.com/a"]
    assert result.entries[0].id == "https://example.com/a"
    assert not result.warned("skipped")


def test_atom_id_that_is_not_a_web_url_is_not_a_loc() -> None:
    result = read_all(
        atom(
            "<entry><id>urn:uuid:1</id></entry><entry><id>Correct Value</id></entry>"
            "<entry><id>tag:example.com,2024:a</id></entry>"
        )
    )
    assert result.entries == []
    assert result.warned("skipped an entry")


def test_atom_link_wins_over_id() -> None:
    result = read_all(
        atom(
            '<entry><id>https://example.com/id</id><link href="https://example.com/page"/></entry>'
        )
    )
    assert [e.loc for e in result.entries] == ["https://example.com/page"]


def test_atom03_entry_takes_an_http_id_too() -> None:
    doc = (
        b'<feed version="0.3" xmlns="http://purl.org/atom/ns#">'
        b"<entry><id>http://example.com/</id></entry></feed>"
    )
    result = read_all(doc)
    assert result.format == "atom03"
    assert [e.loc for e in result.entries] == ["http://example.com/"]


def rss(item: str) -> bytes:
    return (
        '<rss version="2.0" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:media="http://search.yahoo.com/mrss"><channel><title>T</title>'
        f"<item><link>https://example.com/a</link>{item}</item></channel></rss>"
    ).encode()


def test_rss_dcterms_modified_is_lastmod() -> None:
    result = read_all(
        rss(
            "<dcterms:created>2002-01-01T00:00:00Z</dcterms:created>"
            "<dcterms:modified>2002-09-28T20:01:19Z</dcterms:modified>"
        )
    )
    assert result.entries[0].lastmod == dt.datetime(2002, 9, 28, 20, 1, 19, tzinfo=UTC)


def test_rss_dcterms_issued_then_created() -> None:
    issued = read_all(
        rss(
            "<dcterms:created>2002-01-01</dcterms:created><dcterms:issued>2003-01-01</dcterms:issued>"
        )
    )
    assert issued.entries[0].lastmod == dt.date(2003, 1, 1)
    created = read_all(rss("<dcterms:created>2002-01-01</dcterms:created>"))
    assert created.entries[0].lastmod == dt.date(2002, 1, 1)


def test_rss_pubdate_wins_over_dcterms() -> None:
    result = read_all(
        rss(
            "<pubDate>Sat, 28 Sep 2002 21:00:02 GMT</pubDate>"
            "<dcterms:modified>2001-01-01T00:00:00Z</dcterms:modified>"
        )
    )
    assert result.entries[0].lastmod == dt.datetime(2002, 9, 28, 21, 0, 2, tzinfo=UTC)


def test_media_rss_without_trailing_slash() -> None:
    result = read_all(
        rss(
            '<media:content url="https://example.com/v.mp4" type="video/mp4">'
            "<media:title>Clip</media:title>"
            '<media:thumbnail url="https://example.com/t.jpg"/></media:content>'
            '<media:content url="https://example.com/p.jpg" medium="image"/>'
        )
    )
    entry = result.entries[0]
    assert [v.content_loc for v in entry.videos] == ["https://example.com/v.mp4"]
    assert entry.videos[0].title == "Clip"
    assert entry.videos[0].thumbnail_loc == "https://example.com/t.jpg"
    assert [i.loc for i in entry.images] == ["https://example.com/p.jpg"]
