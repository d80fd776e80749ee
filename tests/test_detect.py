"""Format detection for sitemaps, indexes and URL lists, and the rejection of everything else."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._detect import detect
from sitemapconv._head import Head
from sitemapconv._registry import ALIASES, get_reader
from sitemapconv.errors import FormatError
from sitemapconv.readers._index import IndexReader
from sitemapconv.readers._text import TextReader
from sitemapconv.readers._urlset import SitemapReader

DATA = Path(__file__).resolve().parent / "data" / "sitemaps"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("urlset-basic.xml", "xml"),
        ("urlset-sitemaps-org.xml", "xml"),
        ("urlset-google-0.84-namespace.xml", "xml"),
        ("urlset-xxe-doctype.xml", "xml"),
        ("urlset-no-namespace.xml", "xml"),
        ("urlset-then-index-two-roots.xml", "xml"),
        ("news-sitemap-real-shinpaideshou.xml", "xml"),
        ("urlset-sitemaps-org.xml.gz", "xml"),
        ("index-basic.xml", "index"),
        ("index-alltags.xml", "index"),
        ("text-list.txt", "txt"),
        ("text-list-cli-urls.txt", "txt"),
        ("text-list.txt.gz", "txt"),
    ],
)
def test_corpus_files_are_detected(name: str, expected: str) -> None:
    with sitemapconv.read(DATA / name, on_warning=lambda _: None) as doc:
        assert doc.format == expected


@pytest.mark.parametrize(
    ("root", "expected"),
    [
        (f'<urlset xmlns="{NS}">', "xml"),
        ('<urlset xmlns="https://www.sitemaps.org/schemas/sitemap/0.9">', "xml"),
        ('<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">', "xml"),
        ('<urlset xmlns="http://www.google.com/schemas/sitemap/0.9">', "xml"),
        (f'<sit:urlset xmlns:sit="{NS}">', "xml"),
        ("<urlset>", "xml"),
        (f'<sitemapindex xmlns="{NS}">', "index"),
        (f'<s:sitemapindex xmlns:s="{NS}">', "index"),
        ("<sitemapindex>", "index"),
    ],
)
def test_sitemap_roots_are_detected(root: str, expected: str) -> None:
    head = f'\ufeff\n  <?xml version="1.0"?>\n<!-- generator -->\n{root}<url>'.encode()
    assert detect(head) == expected


def test_no_namespace_scores_lower_than_the_namespace() -> None:
    namespaced = SitemapReader.sniff(Head(f'<urlset xmlns="{NS}">'.encode()))
    bare = SitemapReader.sniff(Head(b"<urlset>"))
    foreign = SitemapReader.sniff(Head(b'<urlset xmlns="urn:other">'))
    assert namespaced == 1.0
    assert 0 < foreign < bare < namespaced
    assert IndexReader.sniff(Head(f'<urlset xmlns="{NS}">'.encode())) == 0.0
    assert SitemapReader.sniff(Head(f'<sitemapindex xmlns="{NS}">'.encode())) == 0.0


def test_text_never_claims_markup_or_json() -> None:
    for text in (b"<urlset>\nhttps://e.com/\n", b'{"a": "https://e.com/"}', b"[1, 2]"):
        assert TextReader.sniff(Head(text)) == 0.0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("html-instead-of-sitemap.html", "HTML"),
        ("not-a-feed.xml", "<note>"),
        ("empty-sitemap.xml", "empty"),
    ],
)
def test_non_sitemaps_are_rejected_naming_the_source(name: str, words: str) -> None:
    with pytest.raises(FormatError) as info:
        sitemapconv.read(DATA / name)
    message = str(info.value)
    assert str(DATA / name) in message
    assert "not a sitemap or feed" in message
    assert words in message


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"urlset": ["https://e.com/"]}', "JSON"),
        (b"<!DOCTYPE html>\n<html><body>Not found</body></html>", "HTML"),
        (b"   \n\n", "empty"),
        (b"Just some prose.\nNothing more.", "unrecognised"),
    ],
)
def test_other_inputs_are_rejected(data: bytes, words: str) -> None:
    with pytest.raises(FormatError, match="<bytes>: not a sitemap or feed") as info:
        sitemapconv.read(data)
    assert words in str(info.value)


def test_reader_classes_declare_registry_names_and_aliases() -> None:
    for cls, name in ((SitemapReader, "xml"), (IndexReader, "index"), (TextReader, "txt")):
        assert get_reader(name) is cls
        assert cls.name == name
        assert set(cls.aliases) == {a for a, n in ALIASES.items() if n == name}
        for alias in cls.aliases:
            assert get_reader(alias) is cls
    assert SitemapReader.mimetypes == ("application/xml", "text/xml")
    assert TextReader.mimetypes == ("text/plain",)


def test_single_quoted_namespace_is_read() -> None:
    """findall gives "" for the quote style not used; the value must not be lost to it."""
    head = Head(b"<feed xmlns='http://www.w3.org/2005/Atom' version='1.0'><entry>")
    assert head.root is not None
    assert head.root.namespace == "http://www.w3.org/2005/Atom"
    assert head.root.attributes == {"xmlns": "http://www.w3.org/2005/Atom", "version": "1.0"}
    assert detect(head) == "atom"


def test_attributes_need_whitespace_before_their_name() -> None:
    head = Head(b'<urlset a="1"  b = "2" c="3"d="4" xmlns="' + NS.encode() + b'">')
    assert head.root is not None
    assert head.root.attributes == {"a": "1", "b": "2", "c": "3", "xmlns": NS}
