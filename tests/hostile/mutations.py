"""Mutated sitemaps and feeds for fuzzing ``read()``: shared by the suite and the long fuzzer.

A hypothesis strategy starts from a valid seed document (every XML kind, with and without
extensions, and a text list) and applies a few mutations: byte flips, truncation, inserted
markup or entity snippets, duplicated chunks, re-encoding into another encoding (with or
without a BOM and a matching declaration), gzip wrapping (whole or cut). The check is the
library's contract: reading, priming the metadata and iterating the entries raise nothing but
:class:`~sitemapconv.errors.SitemapError`.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

import sitemapconv
from sitemapconv.errors import SitemapError

from .documents import DECLARATION, KINDS, SITEMAP_NS

#: Every format that ``read(..., format=...)`` can be forced to, plus detection.
FORMATS: list[str | None] = [
    None,
    "xml",
    "index",
    "rss",
    "atom",
    "atom03",
    "txt",
    "feedparser",
    "jsonfeed",
]

_EXTENSIONS = (
    DECLARATION + f'<urlset xmlns="{SITEMAP_NS}" '
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
    'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" '
    'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml">'
    "<url><loc>https://e.com/a?x=1&amp;y=2</loc><lastmod>2024-01-02T03:04:05+02:00</lastmod>"
    "<changefreq>daily</changefreq><priority>0.8</priority>"
    '<xhtml:link rel="alternate" hreflang="de" href="https://e.com/de/a"/>'
    "<image:image><image:loc>https://e.com/i.jpg</image:loc><image:title>I</image:title>"
    "</image:image>"
    "<video:video><video:thumbnail_loc>https://e.com/t.jpg</video:thumbnail_loc>"
    "<video:title>V</video:title><video:description>D</video:description>"
    "<video:content_loc>https://e.com/v.mp4</video:content_loc><video:duration>60"
    "</video:duration><video:tag>x</video:tag></video:video>"
    "<news:news><news:publication><news:name>P</news:name><news:language>en"
    "</news:language></news:publication><news:publication_date>2024-01-02"
    "</news:publication_date><news:title>N</news:title></news:news>"
    "</url><url><loc><![CDATA[https://e.com/b]]></loc></url></urlset>"
)
_MEDIA_RSS = (
    DECLARATION + '<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" '
    'xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">'
    '<channel xml:base="https://e.com/"><title>T</title><link>/</link>'
    '<atom:link rel="self" href="https://e.com/feed"/><lastBuildDate>Mon, 01 Jan 2024 '
    "00:00:00 GMT</lastBuildDate><item><title>A &amp; B</title><link>a?x=1&y=2</link>"
    "<guid isPermaLink='false'>g1</guid><pubDate>Tue, 02 Jan 2024 10:00:00 +0100</pubDate>"
    "<description><![CDATA[<p>Hi</p>]]></description>"
    '<enclosure url="https://e.com/e.mp3" type="audio/mpeg" length="1"/>'
    '<media:content url="https://e.com/m.jpg" medium="image"/></item>'
    "<item><guid>https://e.com/g2</guid><dc:date>2024-01-03</dc:date></item>"
    "</channel></rss>"
)
_ATOM_RICH = (
    DECLARATION + '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://e.com/" '
    'xml:lang="en"><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">T</div>'
    '</title><link rel="self" href="https://e.com/feed"/><updated>2024-01-01T00:00:00Z'
    "</updated><author><name>A</name></author><entry><title>E</title>"
    '<link href="a" hreflang="en"/><link rel="alternate" type="text/html" hreflang="de" '
    'href="de/a"/><link rel="enclosure" href="v.mp4" type="video/mp4"/><id>urn:1</id>'
    "<published>2024-01-02T00:00:00Z</published><summary type='html'>&lt;b&gt;S</summary>"
    "</entry></feed>"
)

SEEDS: list[bytes] = [
    *(k.document("a", "b?x=1&amp;y=2", "c") for k in KINDS),
    _EXTENSIONS.encode(),
    _MEDIA_RSS.encode(),
    _ATOM_RICH.encode(),
    b"https://e.com/a\nhttps://e.com/b\r\n\nhttps://e.com/c",
]

SNIPPETS: list[bytes] = [
    b"<",
    b">",
    b"</",
    b"<x>",
    b"</url>",
    b"</item>",
    b"</entry>",
    b"<url>",
    b"<item>",
    b"<entry>",
    b"<loc>",
    b"<link href='",
    b"&",
    b"&amp;",
    b"&#0;",
    b"&#x110000;",
    b"&#xD800;",
    b"&nbsp;",
    b"&xxe;",
    b"<![CDATA[",
    b"]]>",
    b"<!--",
    b"-->",
    b"<?xml version='1.0' encoding='latin-1'?>",
    b"<?pi x?>",
    b'<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
    b'<!ENTITY % p SYSTEM "http://127.0.0.1:9/x">',
    b'xmlns="http://www.w3.org/2005/Atom"',
    b'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"',
    b' xml:base="::bad::"',
    b' xml:base="http://[::1"',
    b"http://[",
    b"https://",
    b"\x00",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"\x1f\x8b",
    b"\r",
    b"'",
    b'"',
    b"=",
    b"9999-99-99T99:99:99+99:99",
    b"-1e309",
    b"nan",
]

ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1", "cp1252", "shift_jis"]


def _flip(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    if not data:
        return data
    i = draw(st.integers(0, len(data) - 1))
    return data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1 :]


def _truncate(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    return data[: draw(st.integers(0, len(data)))]


def _insert(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    i = draw(st.integers(0, len(data)))
    piece = draw(st.sampled_from(SNIPPETS) | st.binary(min_size=1, max_size=8))
    return data[:i] + piece + data[i:]


def _duplicate(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    if not data:
        return data
    a = draw(st.integers(0, len(data) - 1))
    b = draw(st.integers(a, min(len(data), a + 400)))
    c = draw(st.integers(0, len(data)))
    return data[:c] + data[a:b] * draw(st.integers(1, 3)) + data[c:]


def _reencode(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    encoding = draw(st.sampled_from(ENCODINGS))
    text = data.decode("utf-8", "replace")
    if draw(st.booleans()):
        text = text.replace('encoding="UTF-8"', f'encoding="{encoding}"')
    out = text.encode(encoding, "replace")
    if encoding.endswith(("-le", "-be")) and draw(st.booleans()):
        out = "\ufeff".encode(encoding) + out
    return out


def _gzip(data: bytes, draw: Callable[[Any], Any]) -> bytes:
    packed = gzip.compress(data)
    if draw(st.booleans()):
        packed = packed[: draw(st.integers(2, len(packed)))]
    return packed


MUTATIONS = [_flip, _truncate, _insert, _duplicate, _reencode, _gzip]
_WEIGHTS = [_flip, _flip, _truncate, _insert, _insert, _insert, _duplicate, _reencode, _gzip]


@st.composite
def mutated(draw: Callable[[Any], Any]) -> bytes:
    """A seed document after one to four mutations (gzip, if drawn, always comes last)."""
    data: bytes = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        mutation = draw(st.sampled_from(_WEIGHTS))
        if mutation is _gzip:
            return _gzip(data, draw)
        data = mutation(data, draw)
    return data


def read_everything(data: bytes, format: str | None) -> int:
    """Read, prime and iterate; touch every field. Only SitemapError may escape."""
    warnings: list[str] = []
    try:
        with sitemapconv.read(
            data, format, on_warning=warnings.append, max_bytes=10 * 1024 * 1024
        ) as doc:
            meta = doc.prime()
            repr(meta)
            count = 0
            for entry in doc:
                repr(entry)
                count += 1
            return count
    except SitemapError as exc:
        assert str(exc), "a SitemapError without a message"
        return -1
