"""Broken input is recovered wherever the data is still there, in every XML reader.

The per-reader suites already cover part of this (see the report): truncation of urlset,
index, RSS and Atom documents, a truncated gzip urlset, a stray ``<`` and two roots in a
urlset, invalid UTF-8 in a text list. This module adds the kinds and faults not covered there,
for all six XML kinds at once.
"""

from __future__ import annotations

import gzip

import pytest

import sitemapconv
from sitemapconv import Entry

from .documents import KINDS, Kind

SLUGS = [f"p{i}" for i in range(400)]
IDS = [k.name for k in KINDS]


def read(data: bytes) -> tuple[list[Entry], list[str]]:
    warnings: list[str] = []
    entries = list(sitemapconv.read(data, on_warning=warnings.append))
    return entries, warnings


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_truncated_document_keeps_the_complete_entries(kind: Kind) -> None:
    full = kind.document(*SLUGS)
    cut = full[: full.index(b"/p200") + 3]  # inside the URL of entry 200
    entries, warnings = read(cut)
    assert [e.loc for e in entries] == [kind.url(s) for s in SLUGS[:200]]
    assert any("truncated" in w or "ends inside" in w for w in warnings), warnings


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_truncated_gzip_keeps_the_complete_entries(kind: Kind) -> None:
    data = gzip.compress(kind.document(*SLUGS * 5))
    entries, warnings = read(data[: len(data) // 2])
    assert 0 < len(entries) < len(SLUGS) * 5
    assert [e.loc for e in entries] == [kind.url(s) for s in (SLUGS * 5)[: len(entries)]]
    assert any("gzip stream is truncated" in w for w in warnings)


@pytest.mark.parametrize("bad", [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf0\x9f", b"\x80\x80"])
@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_invalid_utf8_is_not_fatal(kind: Kind, bad: bytes) -> None:
    data = kind.document(*SLUGS).replace(b"/p100", b"/p100" + bad)
    entries, warnings = read(data)
    assert len(entries) == len(SLUGS)
    assert entries[-1].loc == kind.url("p399")
    assert "p100" in entries[100].loc
    assert any("not valid" in w for w in warnings)


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_control_characters_in_values_are_not_fatal(kind: Kind) -> None:
    data = kind.document(*SLUGS).replace(b"/p100", b"/p\x01\x08\x1b100")
    entries, warnings = read(data)
    assert len(entries) == len(SLUGS)
    assert entries[-1].loc == kind.url("p399")
    assert warnings


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_stray_lt_before_a_letter_is_recovered(kind: Kind) -> None:
    data = kind.document(*SLUGS).replace(b"/p100", b"/p100<b", 1)
    entries, warnings = read(data)
    assert entries[-1].loc == kind.url("p399")
    assert len(entries) >= len(SLUGS) - 1
    assert warnings


@pytest.mark.parametrize("kind", [k for k in KINDS if k.titled], ids=lambda k: k.name)
def test_stray_lt_before_a_space_keeps_the_rest(kind: Kind) -> None:
    data = kind.document(*SLUGS).replace(b"<title>p100", b"<title>p100 a < b", 1)
    entries, _ = read(data)
    assert entries[-1].loc == kind.url("p399")


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_two_root_elements_keep_the_first(kind: Kind) -> None:
    first = kind.document("a", "b")
    second = kind.document("y", "z", prolog="")
    entries, warnings = read(first + b"\n" + second)
    assert [e.loc for e in entries] == [kind.url("a"), kind.url("b")]
    assert warnings
