"""Repairing bare ampersands in a byte stream, exactly, whatever the chunking."""

from __future__ import annotations

import io
import re
from html.entities import name2codepoint

from hypothesis import given
from hypothesis import strategies as st

from sitemapconv.readers._repair import AmpersandFixer, AmpersandFixingReader, fix_ampersands


def test_bare_ampersands_are_escaped() -> None:
    assert fix_ampersands(b"<a>?a=1&b=2</a>") == b"<a>?a=1&amp;b=2</a>"
    assert fix_ampersands(b"x & y &") == b"x &amp; y &amp;"


def test_valid_references_are_kept() -> None:
    data = b"&amp;&lt;&gt;&quot;&apos;&#38;&#x26;&#X26;"
    assert fix_ampersands(data) == data


def test_unknown_and_unterminated_references_are_escaped() -> None:
    assert fix_ampersands(b"&nbsp;&copy=1&#;&#x;&am") == (
        b"&amp;nbsp;&amp;copy=1&amp;#;&amp;#x;&amp;am"
    )


def test_cdata_and_comments_are_untouched() -> None:
    data = b"<a><![CDATA[?a=1&b=2]]>&c<!-- & -->&amp;</a>"
    assert fix_ampersands(data) == b"<a><![CDATA[?a=1&b=2]]>&amp;c<!-- & -->&amp;</a>"


def test_processing_instructions_and_doctype_are_untouched() -> None:
    data = b'<?xml-stylesheet href="s?a&b"?><!DOCTYPE u [<!ENTITY e "&x;">]><u>&</u>'
    assert fix_ampersands(data) == data.replace(b"<u>&</u>", b"<u>&amp;</u>")


def test_html_entities_become_numeric_references_when_asked() -> None:
    assert fix_ampersands(b"caf&eacute;&nbsp;&foo;&") == b"caf&amp;eacute;&amp;nbsp;&amp;foo;&amp;"
    assert fix_ampersands(b"caf&eacute;&nbsp;&foo;&", html_entities=True) == (
        b"caf&#233;&#160;&amp;foo;&amp;"
    )


def test_attribute_values_are_fixed() -> None:
    assert fix_ampersands(b'<a href="?a=1&b=2"/>') == b'<a href="?a=1&amp;b=2"/>'


def test_fixed_count() -> None:
    fixer = AmpersandFixer()
    fixer.feed(b"a&b&amp;c&")
    fixer.flush()
    assert fixer.fixed == 2


def test_every_split_point_gives_the_same_bytes() -> None:
    data = (
        b"<u><l>?a=1&b=2&amp;c=&#38;&#x26;</l><![CDATA[x&y]]]]><!-- a&b --->&lt;&"
        b"<!-x&<![CDATA[&]]>&quot</u>"
    )
    whole = fix_ampersands(data)
    for i in range(len(data) + 1):
        for j in range(i, len(data) + 1):
            fixer = AmpersandFixer()
            out = fixer.feed(data[:i]) + fixer.feed(data[i:j]) + fixer.feed(data[j:])
            assert out + fixer.flush() == whole, (i, j)


_PIECES = st.sampled_from(
    [
        *(b"&", b"amp;", b"a", b";", b"#", b"x26", b"<![CDATA[", b"]]>", b"<!--", b"-->"),
        *(b"<", b"!", b"<?", b"?>", b"?", b"<!DOCTYPE", b"<!doctype", b"[", b"]", b">"),
        *(b"eacute;", b"E"),
    ]
)
_VALID = re.compile(rb"&(?:amp|lt|gt|quot|apos|#[0-9]{1,20}|#[xX][0-9a-fA-F]{1,20});")
_NAMED = re.compile(rb"&([A-Za-z][A-Za-z0-9]{0,40});")


def _doctype_end(data: bytes, i: int) -> int:
    """Where a DOCTYPE that starts at ``i`` ends: its first ">" outside a [...] subset."""
    in_subset = False
    while i < len(data):
        c = data[i : i + 1]
        if in_subset:
            in_subset = c != b"]"
        elif c == b"[":
            in_subset = True
        elif c == b">":
            return i + 1
        i += 1
    return len(data)


_OPENS_MARKUP = re.compile(rb"[A-Za-z_:/!?\x80-\xff]")


def _reference(data: bytes, html: bool = False) -> bytes:
    """An independent, byte-by-byte model of the rewriting."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        if data[i : i + 9].upper() == b"<!DOCTYPE":
            j = _doctype_end(data, i + 9)
            out += data[i:j]
            i = j
            continue
        for opener, closer in ((b"<![CDATA[", b"]]>"), (b"<!--", b"-->"), (b"<?", b"?>")):
            if data.startswith(opener, i):
                j = data.find(closer, i + len(opener))
                j = n if j < 0 else j + len(closer)
                out += data[i:j]
                i = j
                break
        else:
            if html and data[i] == 0x3C and not _OPENS_MARKUP.match(data, i + 1):
                out += b"&lt;"  # feeds: a stray "<" that cannot open markup
            elif data[i] == 0x26 and not _VALID.match(data, i):
                named = _NAMED.match(data, i) if html else None
                if named is None:
                    out += b"&amp;"
                else:
                    code = name2codepoint.get(named.group(1).decode())
                    out += b"&#%d;" % code if code else b"&amp;" + named.group(1) + b";"
                    i = named.end()
                    continue
            else:
                out.append(data[i])
            i += 1
    return bytes(out)


_MORE_PIECES = st.one_of(_PIECES, st.sampled_from([b"-", b"[CDATA[", b"]", b"&#38;", b"lt;"]))


@given(st.lists(_MORE_PIECES, max_size=60), st.booleans())
def test_matches_the_reference_model(pieces: list[bytes], html: bool) -> None:
    data = b"".join(pieces)
    assert fix_ampersands(data, html_entities=html) == _reference(data, html)


@given(st.lists(_PIECES, max_size=40), st.lists(st.integers(0, 200), max_size=6), st.booleans())
def test_chunking_never_changes_the_output(
    pieces: list[bytes], cuts: list[int], html: bool
) -> None:
    data = b"".join(pieces)
    points = sorted({min(c, len(data)) for c in cuts})
    fixer = AmpersandFixer(html_entities=html)
    out = b""
    start = 0
    for point in [*points, len(data)]:
        out += fixer.feed(data[start:point])
        start = point
    assert out + fixer.flush() == fix_ampersands(data, html_entities=html)


def test_reader_serves_fixed_bytes_in_requested_sizes() -> None:
    data = b"<a>" + b"x&y " * 50_000 + b"</a>"
    reader = AmpersandFixingReader(io.BytesIO(data[10:]), head=data[:10], chunk_size=1000)
    parts = []
    while True:
        part = reader.read(777)
        assert len(part) <= 777
        if not part:
            break
        parts.append(part)
    assert b"".join(parts) == fix_ampersands(data)
    assert reader.drained
    assert reader.fixed == 50_000


def test_reader_disabled_passes_bytes_through() -> None:
    data = b"a&b"
    reader = AmpersandFixingReader(io.BytesIO(data), enabled=False)
    assert reader.read() == data
    assert reader.fixed == 0
