"""The feedparser rescue reader: CDF, Atom without its namespace, the streaming readers'
fallback, loose dates, and that feedparser fetches and expands nothing (issue 17)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv import FormatError, LimitError
from sitemapconv._detect import detect

from ..conftest import Run
from .feed_support import read_all

UTC = dt.timezone.utc

CDF = b"""<?xml version="1.0"?>
<CHANNEL HREF="http://www.example.org/" BASE="http://www.example.org/">
  <TITLE>channel title</TITLE>
  <ITEM HREF="/item/1" LASTMOD="2004-04-06T23:05:43-05:00"><TITLE>One</TITLE></ITEM>
  <ITEM HREF="http://www.example.org/item/2"><TITLE>Two</TITLE></ITEM>
</CHANNEL>"""

# A <feed> whose Atom namespace is only declared with a prefix its elements do not use.
PREFIXED_ONLY = b"""<feed xmlns:atom="http://www.w3.org/2005/Atom">
  <title>Podlove Podcast</title>
  <entry>
    <title>Fiat Lux</title>
    <link href="http://podlove.org/podcast/1"/>
    <id>urn:uuid:3241ace2</id>
    <updated>2012-03-26T23:25:19Z</updated>
  </entry>
  <entry><id>not a url</id></entry>
</feed>"""

# RSS whose items carry Atom-style <link href="..."/> without text: the RSS reader finds no
# URL in any item, so the document goes to feedparser.
RSS_HREF_LINKS = b"""<rss version="2.0"><channel><title>T</title>
<item><title>A</title><link href="http://example.com/a"/>
<pubDate>Mon, 26 Mar 2012 23:25:19 GMT</pubDate></item>
<item><title>B</title><link href="http://example.com/b"/></item>
</channel></rss>"""


def test_cdf_is_detected_and_read() -> None:
    assert detect(CDF) == "feedparser"
    result = read_all(CDF)
    assert result.format == "feedparser"
    assert [e.loc for e in result.entries] == [
        "http://www.example.org/item/1",
        "http://www.example.org/item/2",
    ]
    assert result.entries[0].title == "One"
    assert result.meta.title == "channel title"


def test_atom_without_namespace_is_read_by_the_same_rules() -> None:
    result = read_all(PREFIXED_ONLY)
    assert result.format == "feedparser"
    (entry,) = result.entries  # the entry whose id is not a URL is skipped
    assert entry.loc == "http://podlove.org/podcast/1"
    assert entry.lastmod == dt.datetime(2012, 3, 26, 23, 25, 19, tzinfo=UTC)
    assert entry.id == "urn:uuid:3241ace2"
    assert result.warned("skipped an entry")


def test_dates_keep_the_zone_policy() -> None:
    doc = b"""<feed><entry><link href="http://e.com/a"/><updated>2024-05-01</updated></entry>
    <entry><link href="http://e.com/b"/><updated>2024-05-01T10:00:00</updated></entry>
    <entry><link href="http://e.com/c"/><updated>2024-05-01T10:00:00+02:00</updated></entry>
    </feed>"""
    dates = [e.lastmod for e in read_all(doc).entries]
    assert dates == [
        dt.date(2024, 5, 1),
        dt.datetime(2024, 5, 1, 10, 0),
        dt.datetime(2024, 5, 1, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=2))),
    ]


def test_forced_with_f_feedparser() -> None:
    rss = b'<rss version="2.0"><channel><item><link>http://e.com/x</link></item></channel></rss>'
    result = read_all(rss, "feedparser")
    assert result.format == "feedparser"
    assert [e.loc for e in result.entries] == ["http://e.com/x"]


def test_streaming_reader_falls_back_with_one_warning() -> None:
    result = read_all(RSS_HREF_LINKS)
    assert result.format == "rss"
    assert [e.loc for e in result.entries] == ["http://example.com/a", "http://example.com/b"]
    assert result.entries[0].lastmod == dt.datetime(2012, 3, 26, 23, 25, 19, tzinfo=UTC)
    assert sum("feedparser" in w for w in result.warnings) == 1


def test_fallback_adds_exactly_one_warning() -> None:
    # Malformed (a bare "<" in a title) as well as unreadable for the RSS reader: feedparser's
    # own complaints are not repeated; the RSS reader's warnings plus one for the handover.
    doc = RSS_HREF_LINKS.replace(b"<title>A</title>", b"<title>A < B</title>")
    alone = read_all(doc, "rss")
    assert alone.format == "rss" and len(alone.entries) == 2
    streaming_only = [w for w in alone.warnings if "feedparser" not in w]
    assert len(alone.warnings) == len(streaming_only) + 1


def test_no_fallback_once_an_entry_was_read() -> None:
    doc = RSS_HREF_LINKS.replace(
        b"<item><title>B</title>", b"<item><link>http://example.com/z</link></item><item>"
    )
    result = read_all(doc)
    assert [e.loc for e in result.entries] == ["http://example.com/z"]
    assert not any("feedparser" in w for w in result.warnings)


def test_empty_feed_stays_empty_without_warning() -> None:
    result = read_all(b'<rss version="2.0"><channel><title>T</title></channel></rss>')
    assert result.entries == []
    assert not any("feedparser" in w for w in result.warnings)


def test_loose_dates_warn() -> None:
    doc = b"""<rss version="2.0"><channel><item><link>http://e.com/a</link>
    <pubDate>Fri, 2006/09/15 08:19:53 EDT</pubDate></item></channel></rss>"""
    result = read_all(doc)
    assert result.entries[0].lastmod == dt.datetime(2006, 9, 15, 12, 19, 53, tzinfo=UTC)
    assert result.warned("parsed loosely")


def test_size_cap_applies() -> None:
    with pytest.raises(LimitError):
        list(sitemapconv.read(CDF + b" " * 70_000, "feedparser", max_bytes=66_000))


def test_bytes_naming_a_file_are_not_opened(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # feedparser.parse opens a string as a path; the reader must only ever give it the bytes.
    secret = tmp_path / "secret.xml"
    secret.write_bytes(b"<rss><channel><item><link>http://secret/</link></item></channel></rss>")
    with pytest.raises(FormatError, match="not a feed"):
        list(sitemapconv.read(str(secret).encode(), "feedparser", on_warning=lambda m: None))


def test_no_network_and_no_entity_expansion(loopback: HTTPServer, tmp_path) -> None:  # type: ignore[no-untyped-def]
    loopback.expect_request("/dtd").respond_with_data('<!ENTITY x "LEAK">')
    loopback.expect_request("/ent").respond_with_data("LEAK")
    local = tmp_path / "local.txt"
    local.write_text("LEAK")
    base = loopback.url_for("/")
    doc = f"""<?xml version="1.0"?>
<!DOCTYPE CHANNEL SYSTEM "{base}dtd" [
  <!ENTITY % p SYSTEM "{base}dtd"> %p;
  <!ENTITY web SYSTEM "{base}ent">
  <!ENTITY file SYSTEM "file://{local}">
  <!ENTITY a "aaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<CHANNEL HREF="http://example.org/">
  <TITLE>&web;&file;&c;</TITLE>
  <ITEM HREF="http://example.org/1"><TITLE>&web;&file;&c;x</TITLE></ITEM>
</CHANNEL>""".encode()
    for fmt in ("feedparser", None):
        warnings: list[str] = []
        doc_ = sitemapconv.read(doc, fmt, on_warning=warnings.append)
        entries = list(doc_)
        assert [e.loc for e in entries] == ["http://example.org/1"]
        text = repr(entries) + repr(doc_.meta) + repr(warnings)
        assert "LEAK" not in text
        assert "aaaaaaaaaa" not in text
    # The fallback path, from the RSS reader, with the same entities.
    rss = doc.replace(b"CHANNEL SYSTEM", b"rss SYSTEM").replace(
        b'<CHANNEL HREF="http://example.org/">', b"<rss><channel>"
    )
    rss = rss.replace(b'<ITEM HREF="http://example.org/1">', b'<item><link href="http://e.org/1"/>')
    rss = rss.replace(b"</ITEM>\n</CHANNEL>", b"</item></channel></rss>")
    result = read_all(rss)
    assert [e.loc for e in result.entries] == ["http://e.org/1"]
    assert "LEAK" not in repr(result.entries) + repr(result.warnings)
    assert loopback.log == []


def test_import_does_not_load_feedparser() -> None:
    code = "import sys, sitemapconv; print('feedparser' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cli_reads_cdf(cli: Run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "channel.cdf"
    path.write_bytes(CDF)
    done = cli(str(path), "-t", "txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().split() == [
        "http://www.example.org/item/1",
        "http://www.example.org/item/2",
    ]
    forced = cli(str(path), "-f", "feedparser", "-t", "txt", "-q")
    assert forced.returncode == 0 and forced.stdout == done.stdout


def test_fallback_is_bounded() -> None:
    # Past RESCUE_LIMIT the streaming reader keeps nothing for feedparser: it says so instead.
    from sitemapconv.readers._feedparser import RESCUE_LIMIT

    item = b'<item><title>x</title><link href="http://example.com/a"/></item>'
    doc = b'<rss version="2.0"><channel><title>T</title>'
    doc += item * (RESCUE_LIMIT // len(item) + 1) + b"</channel></rss>"
    result = read_all(doc)
    assert result.entries == []
    assert result.warned("use -f feedparser")
    small = read_all(doc[:200] + b"</channel></rss>")
    assert small.entries and not small.warned("use -f feedparser")


def test_ebcdic_feed_goes_to_feedparser() -> None:
    doc = (
        '<?xml version="1.0" encoding="cp037"?>\n<rss version="2.0"><channel><title>T</title>'
        "<item><link>http://example.com/a</link></item></channel></rss>"
    ).encode("cp037")
    result = read_all(doc)
    assert result.format == "feedparser"
    assert [e.loc for e in result.entries] == ["http://example.com/a"]


def test_forced_on_something_that_is_no_feed(cli: Run, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "page.txt"
    path.write_bytes(b"just some words\n")
    done = cli(str(path), "-f", "feedparser", "-t", "xml")
    assert done.returncode == 1
    err = done.stderr.decode().strip()
    assert (
        err.count("\n") == 0 and "not a feed that feedparser can read" in err and str(path) in err
    )


def test_relative_links_resolve_against_the_document_url() -> None:
    doc = b'<CHANNEL><ITEM HREF="/a"></ITEM><ITEM HREF="b?x=1"></ITEM></CHANNEL>'
    result = read_all(doc, base_url="https://example.com/feeds/channel.cdf")
    assert [e.loc for e in result.entries] == [
        "https://example.com/a",
        "https://example.com/feeds/b?x=1",
    ]
    unresolved = read_all(doc)
    assert [e.loc for e in unresolved.entries] == ["/a", "b?x=1"]
    assert unresolved.warned("relative")
