"""Shared XML text escaping: all five entities, CR kept, forbidden characters removed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from sitemapconv._xmltext import escape, has_forbidden, strip_forbidden

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def test_escapes_all_five_entities_and_cr() -> None:
    assert escape("a&b<c>d'e\"f\rg") == "a&amp;b&lt;c&gt;d&apos;e&quot;f&#13;g"
    assert escape("&amp;") == "&amp;amp;"  # text is data, never pre-escaped markup
    assert escape("plain") == "plain"


@pytest.mark.parametrize(
    "char",
    [
        "\x00",
        "\x01",
        "\x08",
        "\x0b",
        "\x0c",
        "\x0e",
        "\x1f",
        "\ud800",
        "\udfff",
        "\ufffe",
        "\uffff",
    ],
)
def test_forbidden_characters(char: str) -> None:
    assert has_forbidden(f"a{char}b")
    assert strip_forbidden(f"a{char}b{char}") == "ab"


@pytest.mark.parametrize(
    "text", ["tab\there", "line\nfeed", "cr\rhere", "ü €", "\x7f\x85", "😀", ""]
)
def test_allowed_characters_even_when_not_printable(text: str) -> None:
    assert not has_forbidden(text)
    assert strip_forbidden(text) == text


@given(st.text())
def test_escaped_text_parses_back_to_the_cleaned_text(text: str) -> None:
    cleaned = strip_forbidden(text)
    assert not has_forbidden(cleaned)
    root = etree.fromstring(f"<a>{escape(cleaned)}</a>".encode(), _PARSER)
    assert (root.text or "") == cleaned
