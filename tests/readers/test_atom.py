"""Atom 1.0 reader on real and hand-written feeds."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Alternate, Image, Video
from sitemapconv._head import Head
from sitemapconv.errors import FormatError
from sitemapconv.readers._atom import AtomReader

from .feed_support import (
    SAMPLES,
    feed,
    process_peak_kib,
    read_all,
    traced_peak,
    write_atom,
)

UTC = dt.timezone.utc


def tz(hours: int) -> dt.timezone:
    return dt.timezone(dt.timedelta(hours=hours))


def atom(entries: str, head: str = "", attrs: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"{attrs}>'
        f"<title>T</title>{head}{entries}</feed>"
    ).encode()


def test_rfc4287_example_alternate_link_is_chosen() -> None:
    result = read_all(feed("atom10-rfc4287-example.xml"), "atom")
    [entry] = result.entries
    # Two alternates (one without rel): the text/html one wins; rel="edit" never does.
    assert entry.loc == "http://example.org/2003/12/13/atom03.html"
    assert entry.alternates == ()
    assert entry.title == "Atom-Powered Robots Run Amok"
    assert entry.summary == "Some text."
    assert entry.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a"
    assert entry.lastmod == dt.datetime(2003, 12, 13, 18, 30, 2, tzinfo=UTC)
    assert entry.published is None
    meta = result.meta
    assert meta.title == "Example Feed"
    assert meta.description == "A subtitle."
    assert meta.link == "http://example.org/"
    assert meta.self_link == "http://example.org/feed/"
    assert meta.id == "urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6"
    assert meta.updated == dt.datetime(2003, 12, 13, 18, 30, 2, tzinfo=UTC)
    assert result.warnings == []


def test_self_and_enclosure_links_are_never_the_loc() -> None:
    data = atom(
        '<entry><id>1</id><link rel="self" href="http://e.com/self"/>'
        '<link rel="enclosure" type="audio/mpeg" href="http://e.com/a.mp3"/></entry>'
        '<entry><id>2</id><link rel="enclosure" href="http://e.com/b.mp3"/>'
        '<link rel="alternate" href="http://e.com/2"/></entry>'
    )
    result = read_all(data, "atom")
    assert [e.loc for e in result.entries] == ["http://e.com/2"]
    assert result.warned("no alternate <link>")


def test_first_alternate_when_none_is_html() -> None:
    data = atom(
        '<entry><link rel="alternate" type="application/pdf" href="http://e.com/a.pdf"/>'
        '<link href="http://e.com/b"/></entry>'
    )
    [entry] = read_all(data, "atom").entries
    assert entry.loc == "http://e.com/a.pdf"


def test_xml_base_relative_links_resolve_against_the_self_link_for_a_local_file() -> None:
    result = read_all(feed("atom10-xml-base-relative.xml"), "atom")
    [entry] = result.entries
    assert entry.loc == "https://example.com/blog/2003/12/13/atom03"
    assert entry.title == "Atom-Powered Robots Run Amok"
    assert entry.summary == "Some text."
    assert entry.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a"
    assert entry.lastmod == dt.datetime(2003, 12, 13, 18, 30, 2, tzinfo=UTC)
    assert result.meta.link == "https://example.com/blog/"
    assert result.meta.self_link == "https://example.com/blog/feed.xml"
    assert result.meta.author == "Jane Doe"
    assert result.warnings == []


def test_xml_base_relative_links_resolve_against_the_document_url() -> None:
    result = read_all(
        feed("atom10-xml-base-relative.xml"), "atom", base_url="https://other.example/x/feed"
    )
    assert [e.loc for e in result.entries] == ["https://other.example/blog/2003/12/13/atom03"]


def test_xml_base_is_inherited_from_feed_entry_and_link() -> None:
    data = atom(
        '<entry xml:base="sub/"><link href="page"/></entry>'
        '<entry><link xml:base="/abs/" href="page"/></entry>'
        '<entry xml:base="http://other.example/"><link href="x"/></entry>',
        attrs=' xml:base="http://a.example/base/"',
    )
    result = read_all(data, "atom", base_url="http://ignored.example/feed.xml")
    assert [e.loc for e in result.entries] == [
        "http://a.example/base/sub/page",
        "http://a.example/abs/page",
        "http://other.example/x",
    ]


def test_reddit() -> None:
    result = read_all(feed("atom10-real-reddit.xml"), "atom")
    [entry] = result.entries
    assert entry.loc == (
        "https://www.reddit.com/r/rust/comments/glvkc5/hey_rustaceans_got_an_easy_question_ask_here/"
    )
    assert entry.title == "Hey Rustaceans! Got an easy question? Ask here (21/2020)!"
    assert entry.id == "t3_glvkc5"
    assert entry.lastmod == dt.datetime(2020, 5, 18, 5, 44, 47, tzinfo=UTC)
    assert entry.summary is None
    meta = result.meta
    assert meta.title == "The Rust Programming Language"
    assert meta.link == "https://www.reddit.com/r/rust/"
    assert meta.self_link == "https://www.reddit.com/r/rust/.rss"
    assert meta.updated == dt.datetime(2020, 5, 24, 21, 51, 16, tzinfo=UTC)
    assert meta.description is not None and meta.description.startswith("A place for all")


def test_youtube_media_group_becomes_a_video() -> None:
    result = read_all(feed("atom10-real-youtube-mediarss.xml"), "atom")
    [entry] = result.entries
    assert entry.loc == "https://www.youtube.com/watch?v=0A1ouV7iD8o"
    assert entry.id == "yt:video:0A1ouV7iD8o"
    assert entry.title == "Navigating with Quantum Entanglement"
    assert entry.lastmod == dt.datetime(2020, 12, 25, 23, 12, 12, tzinfo=UTC)
    assert entry.published == dt.datetime(2020, 12, 22, 19, 15, 1, tzinfo=UTC)
    assert entry.videos == [
        Video(
            player_loc="https://www.youtube.com/v/0A1ouV7iD8o?version=3",
            thumbnail_loc="https://i1.ytimg.com/vi/0A1ouV7iD8o/hqdefault.jpg",
            title="Navigating with Quantum Entanglement",
            description="Check Out Weathered on PBS Terra "
            "https://www.youtube.com/watch?v=znSN7ZFIaOg&ab_channel=PBSTerra",
        )
    ]
    assert entry.images == ()
    assert result.meta.title == "PBS Space Time"
    assert result.meta.id == "yt:channel:UC7_gcs09iThXybpVgjHZ_7g"


def test_hreflang_alternates() -> None:
    data = atom(
        '<entry><link rel="alternate" hreflang="en" type="text/html" href="http://e.com/en"/>'
        '<link rel="alternate" hreflang="de" href="http://e.com/de"/>'
        '<link rel="alternate" href="http://e.com/nolang"/>'
        '<link rel="alternate" hreflang="fr" href="/fr"/></entry>',
        attrs=' xml:base="http://e.com/"',
    )
    [entry] = read_all(data, "atom").entries
    assert entry.loc == "http://e.com/en"
    assert entry.alternates == [
        Alternate(href="http://e.com/de", hreflang="de"),
        Alternate(href="http://e.com/fr", hreflang="fr"),
    ]


def test_published_is_the_fallback_lastmod_with_a_warning() -> None:
    data = atom(
        '<entry><link href="http://e.com/1"/><published>2024-01-02T03:04:05Z</published></entry>'
    )
    result = read_all(data, "atom")
    [entry] = result.entries
    assert entry.lastmod == dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert entry.published == entry.lastmod
    assert result.warned("<published> is used as lastmod")


def test_invalid_updated_is_none_with_a_warning() -> None:
    data = atom(
        '<entry><link href="http://e.com/1"/><updated>yesterday</updated></entry>'
        '<entry><link href="http://e.com/2"/><updated>2024-01-02</updated></entry>'
    )
    result = read_all(data, "atom")
    assert [(e.loc, e.lastmod) for e in result.entries] == [
        ("http://e.com/1", None),
        ("http://e.com/2", dt.date(2024, 1, 2)),
    ]
    assert result.warned("invalid date 'yesterday' in <updated>")


def test_text_constructs() -> None:
    data = atom(
        '<entry><link href="http://e.com/1"/>'
        '<title type="html">A &amp;lt;b&amp;gt; &amp;amp;</title>'
        '<summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>One <b>two</b></p>'
        "</div></summary></entry>"
    )
    [entry] = read_all(data, "atom").entries
    # Issue #16: the title is plain text (the HTML's text), the summary keeps its HTML.
    assert entry.title == "A <b> &"
    assert entry.summary == "<p>One <b>two</b></p>"


def test_enclosure_links_with_media_types_become_images_and_videos() -> None:
    data = atom(
        '<entry><link href="http://e.com/1"/>'
        '<link rel="enclosure" type="image/png" href="http://e.com/i.png"/>'
        '<link rel="enclosure" type="video/webm" href="http://e.com/v.webm"/>'
        '<link rel="enclosure" type="audio/ogg" href="http://e.com/a.ogg"/></entry>'
    )
    [entry] = read_all(data, "atom").entries
    assert entry.images == [Image(loc="http://e.com/i.png")]
    assert entry.videos == [Video(content_loc="http://e.com/v.webm")]


def test_truncated_feed_yields_complete_entries() -> None:
    full = atom("".join(f'<entry><link href="http://e.com/{i}"/></entry>' for i in range(3)))
    result = read_all(full[: full.index(b"http://e.com/2") + 5], "atom")
    assert [e.loc for e in result.entries] == ["http://e.com/0", "http://e.com/1"]
    assert result.warned("truncated")


def test_other_xml_forced_as_atom_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="root element <note>"):
        read_all(feed("not-a-feed.xml"), "atom")


def test_sniff_scores() -> None:
    assert AtomReader.sniff(Head(b'<feed xmlns="http://www.w3.org/2005/Atom">')) == 1.0
    assert AtomReader.sniff(Head(b'<a:feed xmlns:a="http://www.w3.org/2005/Atom">')) == 1.0
    assert AtomReader.sniff(Head(b'<feed version="0.3" xmlns="http://purl.org/atom/ns#">')) == 0
    assert AtomReader.sniff(Head(b'<rss version="2.0">')) == 0.0


@pytest.mark.parametrize(
    "path",
    [SAMPLES / "feed.atom", feed("atom10-real-reddit.xml"), feed("atom10-rfc4287-example.xml")],
)
def test_read_detects_atom(path: Path) -> None:
    assert sitemapconv.read(path).format == "atom"


def test_sample_feed_atom() -> None:
    result = read_all(SAMPLES / "feed.atom", "atom")
    assert result.warnings == []
    e = result.entries
    assert [x.loc for x in e] == [
        "https://blog.example.org/posts/streaming-xml",
        "https://blog.example.org/posts/dates",
        "https://talks.example.org/2024/rust-and-python",
        "https://blog.example.org/posts/release-2-0",
        "https://blog.example.org/posts/hello",
    ]
    assert [x.id for x in e] == [f"tag:blog.example.org,2024:{i}" for i in range(1, 6)]
    assert [x.title for x in e] == [
        "Streaming XML in Python",
        "Dates <are> hard",  # type="html": the title is its text (issue #16)
        "Talk recording",
        "Release notes 2.0",
        "Hello world",
    ]
    assert [x.lastmod for x in e] == [
        dt.datetime(2024, 6, 3, 12, 0, tzinfo=UTC),
        dt.datetime(2024, 5, 20, 16, 30, tzinfo=tz(-4)),
        dt.datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
        dt.datetime(2024, 4, 15, 8, 0, tzinfo=UTC),
        dt.datetime(2024, 1, 1, 0, 0, tzinfo=UTC),
    ]
    assert e[0].published == dt.datetime(2024, 6, 1, 9, 0, tzinfo=tz(2))
    assert all(x.published is None for x in e[1:])
    assert e[0].summary == "iterparse, clear() and friends."
    assert e[1].summary == "RFC 822, RFC 3339 and the rest."
    assert e[2].summary == "Rust and Python, side by side: the recording."
    assert e[0].alternates == [
        Alternate(href="https://blog.example.org/de/posts/streaming-xml", hreflang="de")
    ]
    # Media URLs are resolved against the entry's xml:base, like its link.
    assert e[2].videos == [
        Video(
            content_loc="https://talks.example.org/2024/rust-and-python.mp4",
            thumbnail_loc="https://talks.example.org/2024/rust-and-python.jpg",
        )
    ]
    meta = result.meta
    assert meta.title == "Example Engineering Blog"
    assert meta.description == "Posts about building things."
    assert meta.link == "https://blog.example.org/"
    assert meta.self_link == "https://blog.example.org/feed.atom"
    assert meta.id == "tag:blog.example.org,2024:feed"
    assert meta.updated == dt.datetime(2024, 6, 3, 12, 0, tzinfo=UTC)
    assert meta.author == "Sam Writer"
    assert meta.language == "en"


@pytest.fixture(scope="module")
def big_atom(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("big-atom")
    return write_atom(folder / "4k.xml", 4_000), write_atom(folder / "40k.xml", 40_000)


@pytest.mark.slow
def test_python_memory_does_not_grow_with_the_entry_count(big_atom: tuple[Path, Path]) -> None:
    small, big = big_atom
    n_small, peak_small = traced_peak(small, "atom")
    n_big, peak_big = traced_peak(big, "atom")
    assert (n_small, n_big) == (4_000, 40_000)
    assert peak_big < peak_small + 3 * 1024 * 1024


def test_process_memory_does_not_grow_with_the_entry_count(big_atom: tuple[Path, Path]) -> None:
    small, big = big_atom
    n_small, rss_small = process_peak_kib(small, "atom")
    n_big, rss_big = process_peak_kib(big, "atom")
    assert (n_small, n_big) == (4_000, 40_000)
    assert rss_big < rss_small + 20 * 1024


def test_foreign_feed_elements_do_not_fill_the_metadata() -> None:
    data = atom(
        '<entry><link href="http://e.com/1"/></entry>',
        head='<m:title xmlns:m="http://search.yahoo.com/mrss/">no</m:title><subtitle>yes</subtitle>',
    ).replace(b"<title>T</title>", b"")
    result = read_all(data, "atom")
    assert result.meta.title is None
    assert result.meta.description == "yes"
