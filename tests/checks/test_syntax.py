"""The syntax rules (``_checks/syntax``): what the file is, its encoding, well-formedness."""

from __future__ import annotations

from .conftest import SITEMAP_NS, Check, urlset

BODY = f'<urlset xmlns="{SITEMAP_NS}">\n<url><loc>https://example.com/a</loc></url>\n</urlset>\n'


def test_html_is_not_a_sitemap(check: Check) -> None:
    assert check("page.html", "<html><body>hi</body></html>") == [("format", "error", 1, None)]


def test_a_declared_encoding_other_than_utf8(check: Check) -> None:
    text = '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + BODY
    assert check("s.xml", text) == [("encoding", "error", 1, None)]


def test_a_byte_order_mark_is_only_a_warning(check: Check) -> None:
    assert check("s.xml", b"\xef\xbb\xbf" + urlset().encode()) == [
        ("bom", "warning", 1, None),
        ("empty", "warning", 2, None),
    ]


def test_an_unescaped_ampersand_stops_the_pass_at_its_line(check: Check) -> None:
    found = check(
        "s.xml",
        urlset(
            "<url><loc>https://example.com/a</loc></url>",
            "<url><loc>https://example.com/?a=1&b=2</loc></url>",
        ),
    )
    assert found == [("syntax", "error", 4, None)]
