"""Discovering a site's sitemaps: robots.txt, then well-known paths, also under a subpath."""

from __future__ import annotations

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv._discover import Found, site_bases
from sitemapconv._robots import sitemaps_from_robots as robots_sitemaps
from sitemapconv.errors import SitemapError

from .bodies import HTML, Run, gz, index, paths_requested, urlset

FAST = {"backoff": 0.01, "timeout": 5.0}
ROBOTS = """\
# robots.txt with sitemaps in and out of groups
User-agent: *
Disallow: /admin/
SITEMAP: {base}/sitemaps/Main.xml
sitemap:{base}/news.xml.gz   # news only

User-agent: Googlebot
Sitemap: {base}/missing.xml
Allow: /
"""


def test_robots_sitemap_lines_are_kept_exactly_as_written() -> None:
    text = (
        "User-agent: *\nDisallow: /\n"
        "Sitemap: https://Example.com/a%20b/Sitemap.XML?x=1&y=2\n"
        "  sitemap :  https://example.com/two.xml # comment\n"
        "# Sitemap: https://example.com/commented.xml\n"
        "Sitemaps: https://example.com/not-the-field.xml\n"
        "SiteMap:\n"
        "sitemap: https://example.com/three.xml#frag\r\n"
    )
    assert robots_sitemaps(text) == [
        "https://Example.com/a%20b/Sitemap.XML?x=1&y=2",
        "https://example.com/two.xml",
        "https://example.com/three.xml",  # RFC 9309: "#" starts a comment anywhere
    ]


def test_site_bases() -> None:
    assert site_bases("https://example.com") == ["https://example.com/"]
    assert site_bases("https://example.com/blog/") == [
        "https://example.com/blog/",
        "https://example.com/",
    ]
    assert site_bases("https://example.com/blog") == [
        "https://example.com/blog/",
        "https://example.com/",
    ]
    assert site_bases("https://example.com/blog/index.html?x=1")[0] == "https://example.com/blog/"
    with pytest.raises(SitemapError):
        site_bases("example.com")


def test_robots_txt_with_several_sitemap_lines_then_well_known_paths(server: HTTPServer) -> None:
    base = server.url_for("").rstrip("/")
    server.expect_request("/robots.txt").respond_with_data(
        ROBOTS.format(base=base), content_type="text/plain"
    )
    server.expect_request("/sitemaps/Main.xml").respond_with_data(index(["/s1.xml"]))
    server.expect_request("/news.xml.gz").respond_with_data(gz(urlset(["https://e.com/n"])))
    server.expect_request("/sitemap.xml").respond_with_data(urlset(["https://e.com/a"]))
    # soft 404: an HTML page served with 200 is not a sitemap
    server.expect_request("/sitemap_index.xml").respond_with_data(HTML, content_type="text/html")
    server.expect_request("/sitemap.txt").respond_with_data("https://e.com/t\n")
    warnings: list[str] = []
    found = sitemapconv.discover(server.url_for("/"), on_warning=warnings.append, **FAST)
    assert found == [
        Found(f"{base}/sitemaps/Main.xml", "robots.txt", "index"),
        Found(f"{base}/news.xml.gz", "robots.txt", "xml"),
        Found(f"{base}/sitemap.xml", "well-known path", "xml"),
        Found(f"{base}/sitemap.txt", "well-known path", "txt"),
    ]
    assert any(f"{base}/missing.xml" in w for w in warnings)
    paths = paths_requested(server)  # may hold a straggler from an earlier test
    assert paths.index("/robots.txt") < paths.index("/sitemap.xml")


def test_discovery_under_a_subpath_probes_there_and_at_the_root(server: HTTPServer) -> None:
    base = server.url_for("").rstrip("/")
    server.expect_request("/blog/sitemap.xml").respond_with_data(urlset(["https://e.com/b"]))
    server.expect_request("/wp-sitemap.xml").respond_with_data(index(["/wp-sitemap-1.xml"]))
    # a redirect to a sitemap already found is the same sitemap
    server.expect_request("/blog/sitemap_index.xml").respond_with_data(
        "", status=301, headers={"Location": "/blog/sitemap.xml"}
    )
    found = sitemapconv.discover(server.url_for("/blog/"), **FAST)
    assert found == [
        Found(f"{base}/blog/sitemap.xml", "well-known path", "xml"),
        Found(f"{base}/wp-sitemap.xml", "well-known path", "index"),
    ]
    requested = set(paths_requested(server))
    assert {"/robots.txt", "/blog/sitemap.xml", "/sitemap.xml", "/blog/feed"} <= requested
    assert "/blog/robots.txt" not in requested


def test_a_feed_path_is_probed_and_a_missing_feed_reader_fails_gracefully(
    server: HTTPServer,
) -> None:
    rss = (
        b'<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>'
        b"<item><link>https://e.com/p</link></item></channel></rss>"
    )
    server.expect_request("/feed").respond_with_data(rss, content_type="application/rss+xml")
    found = sitemapconv.discover(server.url_for("/"), **FAST)
    # With the feed readers installed the feed is found as rss; without them, it is skipped.
    assert found in ([], [Found(server.url_for("/feed"), "well-known path", "rss")])
    assert "/feed" in paths_requested(server)


def test_a_site_without_sitemaps(server: HTTPServer) -> None:
    assert sitemapconv.discover(server.url_for("/"), **FAST) == []


def test_discover_on_the_command_line(server: HTTPServer, run_cli: Run) -> None:
    base = server.url_for("").rstrip("/")
    server.expect_request("/robots.txt").respond_with_data(f"Sitemap: {base}/idx.xml\n")
    server.expect_request("/idx.xml").respond_with_data(index([f"{base}/a.xml", f"{base}/b.xml"]))
    server.expect_request("/a.xml").respond_with_data(urlset(["https://e.com/a"]))
    server.expect_request("/b.xml").respond_with_data(urlset(["https://e.com/b"]))
    # /sitemap.xml is also a child of the index: with one visited set it is read once.
    server.expect_request("/sitemap.xml").respond_with_data(index([f"{base}/a.xml"]))
    done = run_cli("--discover", server.url_for("/"), "--follow", "-t", "txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["https://e.com/a", "https://e.com/b"]
    done = run_cli("--discover", server.url_for("/"), "-t", "txt")
    assert done.stdout.splitlines() == [f"{base}/a.xml", f"{base}/b.xml", f"{base}/a.xml"]


def test_discover_finding_nothing_exits_1(server: HTTPServer, run_cli: Run) -> None:
    done = run_cli("--discover", server.url_for("/"), "--retries", "0", "-t", "txt")
    assert done.returncode == 1
    assert "no sitemap or feed found" in done.stderr
