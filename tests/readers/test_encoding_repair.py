"""Mislabelled and invalid encodings in every XML reader (sitemapconv.readers._encoding).

libxml2 stops at the first byte that is invalid in a declared non-UTF-8 encoding; these tests
check that every entry after such a byte is still read, and that the text comes out right when
the bytes are plainly in another encoding than the label says.
"""

from __future__ import annotations

import io

import pytest

import sitemapconv
from sitemapconv.readers import ReadContext
from sitemapconv.readers._encoding import Utf8Input
from tests.hostile.documents import BY_NAME, KIND_NAMES, KINDS, Kind

SLUGS = [f"p{i}" for i in range(300)]


def read(data: bytes) -> tuple[list[sitemapconv.Entry], str | None, list[str]]:
    warnings: list[str] = []
    doc = sitemapconv.read(data, on_warning=warnings.append)
    title = doc.prime().title
    return list(doc), title, warnings


def with_text(kind: Kind, text: str, encoding: str, declared: str | None) -> bytes:
    """300 entries; entry 150 (and, for feeds, the title) holds ``text``."""
    slugs = [*SLUGS]
    slugs[150] = f"p150{text}"
    prolog = f'<?xml version="1.0" encoding="{declared}"?>\n' if declared else ""
    body = kind.document(*slugs, title=f"T{text}", prolog=prolog)
    return body.decode("utf-8").encode(encoding)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_declared_windows_1252_but_utf8_keeps_every_entry(kind: str) -> None:
    # "”" is E2 80 9D in UTF-8, and 0x9D is undefined in Windows-1252: libxml2 stopped there.
    k = BY_NAME[kind]
    entries, title, warnings = read(with_text(k, "café”", "utf-8", "windows-1252"))
    assert [e.loc for e in entries][-1] == k.url("p299")
    assert len(entries) == 300
    assert entries[150].loc == k.url("p150café”")
    if k.titled:
        assert title == "Tcafé”"
    assert any("declared encoding 'windows-1252'" in w and "UTF-8" in w for w in warnings)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_declared_utf8_but_windows_1252_is_read_as_windows_1252(kind: str) -> None:
    k = BY_NAME[kind]
    entries, title, warnings = read(with_text(k, "café – “q”", "cp1252", "UTF-8"))
    assert len(entries) == 300
    assert entries[150].loc == k.url("p150café – “q”")
    if k.titled:
        assert title == "Tcafé – “q”"
    assert any("not valid" in w and "Windows-1252" in w for w in warnings)


@pytest.mark.parametrize("kind", ["xml", "rss", "atom"])
def test_undeclared_windows_1252_is_read_as_windows_1252(kind: str) -> None:
    k = BY_NAME[kind]
    entries, _, warnings = read(with_text(k, "naïve", "cp1252", None))
    assert entries[150].loc == k.url("p150naïve")
    assert any("none declared, so UTF-8" in w for w in warnings)


@pytest.mark.parametrize("kind", ["xml", "rss", "atom"])
def test_true_iso_8859_1_is_read_without_a_warning(kind: str) -> None:
    k = BY_NAME[kind]
    entries, _, warnings = read(with_text(k, "café", "latin-1", "ISO-8859-1"))
    assert entries[150].loc == k.url("p150café")
    assert len(entries) == 300
    assert warnings == []


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_invalid_byte_in_a_multibyte_encoding_costs_one_character(kind: str) -> None:
    k = BY_NAME[kind]
    data = with_text(k, "日本", "shift_jis", "Shift_JIS")
    data = data.replace("日本".encode("shift_jis"), "日本".encode("shift_jis") + b"\xff")
    entries, _, warnings = read(data)
    assert len(entries) == 300
    assert entries[150].loc == k.url("p150日本\ufffd")
    assert any("'Shift_JIS'" in w and "U+FFFD" in w for w in warnings)


def test_ascii_label_with_windows_bytes() -> None:
    k = BY_NAME["rss"]
    entries, title, warnings = read(with_text(k, "é", "cp1252", "US-ASCII"))
    assert len(entries) == 300
    assert title == "Té"
    assert any("Windows-1252" in w for w in warnings)


def test_utf16_label_on_ascii_bytes_is_ignored() -> None:
    entries, _, _ = read(with_text(BY_NAME["xml"], "x", "utf-8", "UTF-16"))
    assert len(entries) == 300


def test_unknown_label_still_reads_as_utf8() -> None:
    entries, _, warnings = read(with_text(BY_NAME["atom"], "é", "utf-8", "no-such-charset"))
    assert len(entries) == 300
    assert entries[150].loc.endswith("p150é")
    assert any("no-such-charset" in w for w in warnings)


@pytest.mark.parametrize("kind", KINDS, ids=KIND_NAMES)
def test_real_utf16_is_untouched(kind: Kind) -> None:
    body = kind.document("a", "é", prolog='<?xml version="1.0" encoding="UTF-16"?>\n')
    entries, _, warnings = read(body.decode("utf-8").encode("utf-16"))
    assert [e.loc for e in entries] == [kind.url("a"), kind.url("é")]
    assert warnings == []


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 1000])
def test_utf8_split_across_reads_is_passed_through_unchanged(chunk: int) -> None:
    """Every cut of a multi-byte sequence by the reads is held back, not 'repaired'."""

    class Dribble(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self._data = data

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            out, self._data = self._data[:chunk], self._data[chunk:]
            return out

    data = ("<a>" + "é日𝄞x" * 2000 + "</a>").encode("utf-8")
    warnings: list[str] = []
    ctx = ReadContext("t", sitemapconv.ReadOptions(on_warning=warnings.append))
    stream = Utf8Input(Dribble(data), ctx)  # type: ignore[arg-type]
    out = b"".join(iter(lambda: stream.read(4096), b""))
    assert out == data
    assert warnings == []


def test_windows_bytes_at_the_end_of_the_input_are_decoded() -> None:
    warnings: list[str] = []
    ctx = ReadContext("t", sitemapconv.ReadOptions(on_warning=warnings.append))
    stream = Utf8Input(io.BytesIO(b"<a>caf\xe9"), ctx)  # type: ignore[arg-type]
    assert stream.read() == "<a>café".encode()
    assert len(warnings) == 1
