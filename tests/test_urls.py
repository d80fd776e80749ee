"""URL percent-encoding for output (RFC 3986), without double encoding."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemapconv._urls import encode_url


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://e.com/ümlat.php&q=name", "http://e.com/%C3%BCmlat.php&q=name"),
        ("http://e.com/%C3%BCmlat.php", "http://e.com/%C3%BCmlat.php"),
        ("http://e.com/a b?q=c d#e f", "http://e.com/a%20b?q=c%20d#e%20f"),
        ("http://e.com/100%", "http://e.com/100%25"),
        ("http://e.com/100%zz", "http://e.com/100%25zz"),
        ('http://e.com/"<x>"^`{|}\\', "http://e.com/%22%3Cx%3E%22%5E%60%7B%7C%7D%5C"),
        ("  https://e.com/trim  ", "https://e.com/trim"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ("https://e.com/€?a=1&b=2;c=(x)", "https://e.com/%E2%82%AC?a=1&b=2;c=(x)"),
        ("https://[::1]:8080/ä", "https://[::1]:8080/%C3%A4"),
    ],
)
def test_encode_url(url: str, expected: str) -> None:
    assert encode_url(url) == expected


def test_clean_url_is_returned_as_is() -> None:
    url = "https://ex.com/a/b?c=d&e=f%20g#h"
    assert encode_url(url) is url


_URI_CHARS = re.compile(r"[-A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%]*")


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40))
def test_encoding_is_idempotent_and_yields_uri_characters(path: str) -> None:
    once = encode_url("https://ex.com/" + path)
    assert encode_url(once) == once
    assert _URI_CHARS.fullmatch(once), once


# --- one definition of "same URL" and "is http(s)" (sitemapconv._urls) ------------------


def test_same_url_treats_an_escaped_unreserved_character_as_the_character() -> None:
    """RFC 3986 §6.2.2.2: ``%7E`` and ``~`` are one URL, for robots.txt as for --dedupe."""
    from sitemapconv._robots import same_url as robots_same_url
    from sitemapconv._urls import normalize_url, same_url

    a, b = "https://example.com/~user/sitemap.xml", "https://example.com/%7euser/sitemap.xml"
    assert same_url(a, b)
    assert robots_same_url(a, b)
    assert normalize_url(a) == normalize_url(b)
    assert same_url("HTTPS://Example.COM:443/a%2fb", "https://example.com/a%2Fb")
    assert not same_url("https://example.com/A", "https://example.com/a")
    assert not same_url("https://example.com/a?x=1&y=2", "https://example.com/a?y=2&x=1")


def test_robots_replaces_a_sitemap_line_that_differs_only_by_an_escaped_tilde() -> None:
    from sitemapconv._robots import updated_robots

    data = b"User-agent: *\nSitemap: https://example.com/%7Euser/sitemap.xml\n"
    new, what = updated_robots(data, "https://example.com/~user/sitemap.xml")
    assert what == "replaced"
    assert new.count(b"Sitemap:") == 1


def test_is_http() -> None:
    from sitemapconv._urls import is_http, is_http_scheme

    for url in ("http://a.com/", "https://a.com", "HTTPS://A.COM/", "Http://a"):
        assert is_http(url), url
    for url in ("ftp://a.com/", "/sitemap.xml", "http:foo", "file:///x", "", "httpx://a"):
        assert not is_http(url), url
    assert is_http_scheme("HTTP") and is_http_scheme("https")
    assert not is_http_scheme("ftp") and not is_http_scheme("")
