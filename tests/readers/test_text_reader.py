"""The plain-text reader: one URL per line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import sitemapconv
from sitemapconv._head import Head
from sitemapconv._model import Entry
from sitemapconv.readers._text import MAX_LINE, TextReader

DATA = Path(__file__).resolve().parent.parent / "data" / "sitemaps"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def read_all(source: Any, **options: Any) -> tuple[list[Entry], list[str], str]:
    messages: list[str] = []
    with sitemapconv.read(source, on_warning=messages.append, **options) as doc:
        entries = list(doc)
    return entries, messages, doc.format


def test_text_list() -> None:
    entries, messages, fmt = read_all(DATA / "text-list.txt")
    assert fmt == "txt"
    assert entries == [
        Entry("http://www.domain.com/page1.html", sitemap=str(DATA / "text-list.txt")),
        Entry("http://www.domain.com/page2.html", sitemap=str(DATA / "text-list.txt")),
    ]
    assert messages == []


def test_text_list_cli_urls() -> None:
    entries, messages, fmt = read_all(DATA / "text-list-cli-urls.txt")
    assert fmt == "txt"
    assert [e.loc for e in entries] == [
        "https://roosterteeth.com/episode/achievement-hunter-achievement-hunter-burnout-paradise-"
        "millionaires-club",
        "https://roosterteeth.com/episode/achievement-hunter-achievement-hunter-endangered-"
        "species-walkthrough-",
    ]
    assert messages == []


def test_gzipped_text_list() -> None:
    entries, _, fmt = read_all(DATA / "text-list.txt.gz")
    assert fmt == "txt"
    assert [e.loc for e in entries] == [
        "http://www.example.com/",
        "http://www.example.com/catalog?item=12&desc=vacation_hawaii",
        "http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
        "http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
        "http://www.example.com/catalog?item=83&desc=vacation_usa",
    ]
    assert all(e.lastmod is None and e.priority is None for e in entries)


def test_sample_urls_field_by_field() -> None:
    entries, messages, fmt = read_all(SAMPLES / "urls.txt")
    assert fmt == "txt"
    assert messages == []
    assert [e.loc for e in entries] == [
        "https://www.example.com/",
        "https://www.example.com/about/",
        "https://www.example.com/products/garden-chair",
        "https://www.example.com/products?category=tables&sort=price",
        "https://www.example.com/en/contact",
    ]
    for entry in entries:
        assert (entry.lastmod, entry.changefreq, entry.priority, entry.title) == (
            None,
            None,
            None,
            None,
        )
        assert entry.sitemap == str(SAMPLES / "urls.txt")


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"])
def test_line_endings_bom_blank_lines_and_whitespace(newline: bytes) -> None:
    data = newline.join(
        [b"\xef\xbb\xbfhttps://e.com/a", b"", b"   ", b"\thttps://e.com/b  ", b"https://e.com/c"]
    )
    entries, messages, fmt = read_all(data)
    assert fmt == "txt"
    assert [e.loc for e in entries] == ["https://e.com/a", "https://e.com/b", "https://e.com/c"]
    assert messages == []


def test_non_url_lines_are_skipped_with_line_number() -> None:
    data = b"https://e.com/a\n# a comment\n/relative/path\n\nftp://e.com/f\nhttps://e.com/b\n"
    entries, messages, _ = read_all(data, format="txt")
    assert [e.loc for e in entries] == ["https://e.com/a", "https://e.com/b"]
    assert len(messages) == 3
    assert "line 2" in messages[0] and "# a comment" in messages[0]
    assert "line 3" in messages[1]
    assert "line 5" in messages[2] and "ftp://" in messages[2]


def test_invalid_utf8_is_replaced() -> None:
    entries, _, _ = read_all(b"https://e.com/caf\xe9\nhttps://e.com/ok\n")
    assert [e.loc for e in entries] == ["https://e.com/caf\ufffd", "https://e.com/ok"]


def test_enormous_line_is_skipped_in_bounded_pieces() -> None:
    data = b"https://e.com/a\nhttps://e.com/" + b"x" * (3 * MAX_LINE) + b"\nhttps://e.com/b"
    entries, messages, _ = read_all(data)
    assert [e.loc for e in entries] == ["https://e.com/a", "https://e.com/b"]
    assert len(messages) == 1 and "line 2" in messages[0] and "longer than" in messages[0]


def test_line_of_exactly_the_cap_is_kept() -> None:
    url = "https://e.com/" + "y" * (MAX_LINE - len("https://e.com/"))
    entries, messages, _ = read_all(f"{url}\nhttps://e.com/b\n".encode())
    assert [e.loc for e in entries] == [url, "https://e.com/b"]
    assert messages == []


@pytest.mark.parametrize(
    ("text", "claimed"),
    [
        ("https://e.com/a\nhttps://e.com/b\n", True),
        ("\n\n  http://e.com/a\r\n", True),
        ("https://e.com/a\nhttps://e.com/b\nhttps://e.com/c\n# comment\n", True),
        ("# urls\nhttps://e.com/a\nhttps://e.com/b\nhttps://e.com/c\nhttps://e.com/d\n", True),
        ("hello\nworld\nhttps://e.com/a\n", False),
        ("User-agent: *\nDisallow: /\nSitemap: https://e.com/s.xml\n", False),
        ("<https://e.com/a>\n", False),
        ('{"url": "https://e.com/"}', False),
        ("", False),
    ],
)
def test_sniff_only_claims_url_lists(text: str, claimed: bool) -> None:
    assert (TextReader.sniff(Head(text.encode())) > 0) is claimed
