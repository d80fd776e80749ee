"""The URL rules (``_checks/urls``): form, length, scope and duplicates of each <loc>."""

from __future__ import annotations

import pytest

from .conftest import Check, urlset

LONG = "https://example.com/" + "x" * 2100


@pytest.mark.parametrize(
    ("loc", "rule", "severity"),
    [
        ("ftp://example.com/a", "url-scheme", "error"),
        ("/relative/path", "url-relative", "error"),
        ("https://example.com/a#top", "url-fragment", "warning"),
        ("https://example.com/a b", "url-whitespace", "error"),
        ("https://example.com/é", "url-escaping", "error"),
        ("http://e.c", "url-length", "error"),  # shorter than sitemap.xsd's 12 characters
    ],
)
def test_each_bad_url_is_one_finding_on_its_line(
    check: Check, loc: str, rule: str, severity: str
) -> None:
    found = check("s.xml", urlset("", f"<url><loc>{loc}</loc></url>"))
    assert found == [(rule, severity, 4, loc)]


def test_an_empty_loc_names_no_url(check: Check) -> None:
    assert check("s.xml", urlset("<url><loc> </loc></url>")) == [("url-empty", "error", 3, None)]


def test_a_url_of_2048_characters_or_more_is_shown_cut(check: Check) -> None:
    [(rule, severity, line, url)] = check("s.xml", urlset(f"<url><loc>{LONG}</loc></url>"))
    assert (rule, severity, line) == ("url-length", "error", 3)
    assert url == LONG[:200] + "..."


def test_an_unsplittable_host_is_invalid(check: Check) -> None:
    loc = "https://[example.com/a"
    assert check("s.xml", urlset(f"<url><loc>{loc}</loc></url>")) == [
        ("url-invalid", "error", 3, loc)
    ]


def test_scope_is_the_location_folder_on_the_same_site(check: Check) -> None:
    found = check(
        "s.xml",
        urlset(
            "<url><loc>https://example.com/blog/in-scope</loc></url>",
            "<url><loc>https://example.com/elsewhere</loc></url>",
            "<url><loc>https://other.example/blog/a</loc></url>",
            "<url><loc>http://example.com/blog/b</loc></url>",
        ),
        location="https://example.com/blog/sitemap.xml",
    )
    assert [(rule, severity, line) for rule, severity, line, _ in found] == [
        ("scope-path", "warning", 4),
        ("scope-site", "warning", 5),
        ("scope-site", "warning", 6),  # another scheme is another site
    ]


def test_without_a_location_there_is_no_scope(check: Check) -> None:
    found = check("s.xml", urlset("<url><loc>https://other.example/a</loc></url>"))
    assert found == []


def test_a_duplicate_is_reported_once_at_its_first_line(check: Check) -> None:
    found = check(
        "s.xml",
        urlset(
            "<url><loc>https://example.com/a</loc></url>",
            "<url><loc>https://example.com/b</loc></url>",
            "<url><loc>https://example.com/a</loc></url>",
            "<url><loc>https://example.com/a</loc></url>",
        ),
    )
    assert found == [("duplicate", "warning", 3, "https://example.com/a")]
