"""The ampersand-repairing stream filter, including references split across reads."""

from __future__ import annotations

import io

import pytest

from sitemapconv.readers.feedrepair import AmpersandRepair


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
    stream = AmpersandRepair(Trickle(data, size))  # type: ignore[arg-type]
    out = b"".join(iter(lambda: stream.read(7), b""))
    assert stream.eof
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
