"""The extension rules (``_checks/extensions``): Google's image, video, news and hreflang."""

from __future__ import annotations

import pytest

from .conftest import Check, urlset

URL = "https://example.com/a"
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
VIDEO = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'


@pytest.mark.parametrize(
    "child",
    [
        f"<image:image {IMAGE}></image:image>",  # no image:loc
        f"<video:video {VIDEO}><video:thumbnail_loc>https://example.com/t.png</video:thumbnail_loc>"
        "<video:title>t</video:title><video:description>d</video:description>"
        "</video:video>",  # neither video:content_loc nor video:player_loc
        f"<news:news {NEWS}><news:title>t</news:title></news:news>",
        f'<xhtml:link {XHTML} rel="alternate" hreflang="de"/>',  # no href
    ],
)
def test_a_required_child_missing_is_an_error_on_the_entry(check: Check, child: str) -> None:
    found = check("s.xml", urlset("", f"<url><loc>{URL}</loc>{child}</url>"))
    assert found == [("extension", "error", 4, URL)]


def test_a_complete_image_is_fine(check: Check) -> None:
    child = f"<image:image {IMAGE}><image:loc>https://example.com/i.png</image:loc></image:image>"
    assert check("s.xml", urlset(f"<url><loc>{URL}</loc>{child}</url>")) == []


def test_an_unknown_namespace_is_a_warning(check: Check) -> None:
    child = '<x:rating xmlns:x="http://example.org/ext">5</x:rating>'
    found = check("s.xml", urlset(f"<url><loc>{URL}</loc>{child}</url>"))
    assert found == [("unknown-extension", "warning", 3, None)]


def test_more_than_one_news_entry_in_a_url(check: Check) -> None:
    one = (
        f"<news:news {NEWS}><news:publication><news:name>P</news:name>"
        "<news:language>en</news:language></news:publication>"
        "<news:publication_date>2024-01-01</news:publication_date>"
        "<news:title>T</news:title></news:news>"
    )
    found = check("s.xml", urlset(f"<url><loc>{URL}</loc>{one}{one}</url>"))
    assert [(rule, severity, line) for rule, severity, line, _ in found] == [
        ("news-count", "error", 3)
    ]
