"""The repairing stream as the feed readers use it (HTML entities, junk before ``<``),
including references and openers split across reads."""

from __future__ import annotations

import io

import pytest

from sitemapconv.readers._repair import AmpersandFixingReader


class Trickle(io.RawIOBase):
    """A stream that hands out at most ``size`` bytes per read, to split every token."""

    def __init__(self, data: bytes, size: int) -> None:
        self._data = memoryview(data)
        self._size = size

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        n = min(len(b), self._size, len(self._data))
        b[:n] = self._data[:n]
        self._data = self._data[n:]
        return n


def repair(data: bytes, size: int = 1 << 20) -> bytes:
    stream = AmpersandFixingReader.open(Trickle(data, size), html_entities=True)  # type: ignore[arg-type]
    out = b"".join(iter(lambda: stream.read(7), b""))
    assert stream.drained
    return out


DOC = (
    b'\xef\xbb\xbf \n<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY x "a&b">]>'
    b"<rss><!-- a & b --><?pi a & b?><l>?a=1&b=2&amp;c=3&#38;d&#x26;e&</l>"
    b"<t>caf&eacute; &nbsp;&foo; &lt;&gt;&quot;&apos;</t>"
    b'<d><![CDATA[x & y &amp; ]] z]]></d><a href="?p=1&q=2"/></rss>'
)
EXPECTED = (
    b'<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY x "a&b">]>'
    b"<rss><!-- a & b --><?pi a & b?><l>?a=1&amp;b=2&amp;c=3&#38;d&#x26;e&amp;</l>"
    b"<t>caf&#233; &#160;&amp;foo; &lt;&gt;&quot;&apos;</t>"
    b'<d><![CDATA[x & y &amp; ]] z]]></d><a href="?p=1&amp;q=2"/></rss>'
)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 64, 1 << 20])
def test_repair_is_the_same_whatever_the_read_size(size: int) -> None:
    assert repair(DOC, size) == EXPECTED


def test_clean_document_is_unchanged() -> None:
    clean = b'<?xml version="1.0"?><rss><l>?a=1&amp;b=2</l></rss>\n'
    assert repair(clean) == clean


def test_utf16_is_passed_through() -> None:
    data = "\ufeff<rss><l>?a=1&b=2</l></rss>".encode("utf-16-le")
    assert repair(data, 3) == data


def test_leading_whitespace_only_input() -> None:
    assert repair(b"  \n\t", 1) == b""


def test_doctype_internal_subset_longer_than_a_chunk_is_untouched() -> None:
    subset = b"".join(b'<!ENTITY e%d "a&b">' % i for i in range(5000))
    doc = b"<!DOCTYPE rss [" + subset + b"]><rss><l>?a&b</l></rss>"
    assert repair(doc, 1000) == b"<!DOCTYPE rss [" + subset + b"]><rss><l>?a&amp;b</l></rss>"


def test_lowercase_doctype_and_entities_split_everywhere() -> None:
    doc = b"<!doctype rss><rss>&eacute;&nbsp&Eacute;</rss>"
    for size in range(1, len(doc) + 1):
        assert repair(doc, size) == b"<!doctype rss><rss>&#233;&amp;nbsp&#201;</rss>"
