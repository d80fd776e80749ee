"""The sitemap pass (``_checks/sitemap``): the root, its namespace, and each entry's shape."""

from __future__ import annotations

from pathlib import Path

from sitemapconv import validate

from .conftest import DECLARATION, Check, sitemapindex, urlset


def test_a_urlset_without_the_namespace(check: Check) -> None:
    text = "\n".join([DECLARATION, "<urlset>", "<url><loc>https://example.com/a</loc></url>"])
    assert check("s.xml", text + "\n</urlset>\n") == [("namespace", "error", 2, None)]


def test_an_empty_urlset_is_a_warning_on_the_root(check: Check) -> None:
    assert check("s.xml", urlset()) == [("empty", "warning", 2, None)]


def test_children_out_of_schema_order(check: Check) -> None:
    loc = "https://example.com/a"
    found = check("s.xml", urlset(f"<url><lastmod>2024-01-01</lastmod><loc>{loc}</loc></url>"))
    assert found == [("schema", "error", 3, loc)]


def test_an_unknown_child_in_the_sitemap_namespace(check: Check) -> None:
    loc = "https://example.com/a"
    found = check("s.xml", urlset("", f"<url><loc>{loc}</loc><colour>red</colour></url>"))
    assert found == [("schema", "error", 4, loc)]


def test_an_index_entry_without_loc(check: Check) -> None:
    found = check("i.xml", sitemapindex("<sitemap><lastmod>2024-01-01</lastmod></sitemap>"))
    assert found == [("schema", "error", 3, None)]


def test_an_index_listing_a_child_twice(check: Check) -> None:
    child = "https://example.com/a.xml"
    found = check(
        "i.xml",
        sitemapindex(
            f"<sitemap><loc>{child}</loc></sitemap>", f"<sitemap><loc>{child}</loc></sitemap>"
        ),
    )
    assert found == [("duplicate", "warning", 3, child)]


def test_a_clean_sitemap_counts_its_urls_and_finds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_text(
        urlset(
            "<url><loc>https://example.com/a</loc><lastmod>2024-01-01</lastmod>"
            "<changefreq>daily</changefreq><priority>0.5</priority></url>",
            "<url><loc>https://example.com/b</loc></url>",
        )
    )
    report = validate(path)
    assert (report.ok, report.errors, report.warnings, report.urls) == (True, 0, 0, 2)
    assert report.problems == [] and report.sources == [str(path)]
