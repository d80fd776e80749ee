"""Discovery: robots.txt cannot point into the local network, and counts are one budget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv._discover import read_discovered

from ..remote.bodies import index, urlset

FAST = {"timeout": 2.0, "retries": 0}


def test_robots_sitemap_lines_into_the_network_are_not_probed(
    server: HTTPServer, internal: HTTPServer
) -> None:
    internal.expect_request("/index.xml").respond_with_data(index(["/child.xml"]))
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/robots.txt").respond_with_data(
        f"Sitemap: {internal.url_for('/index.xml')}\n"
        f"Sitemap: http://internal.test:{internal.port}/index.xml\n"
        "Sitemap: file:///etc/passwd\n",
        content_type="text/plain",
    )
    warnings: list[str] = []
    found = sitemapconv.discover(server.url_for("/"), on_warning=warnings.append, **FAST)
    assert found == []
    assert internal.log == []
    assert any("file:///etc/passwd not probed" in w for w in warnings)


def test_discovered_internal_url_never_becomes_the_start(
    server: HTTPServer, internal: HTTPServer
) -> None:
    """With --follow, a URL found through robots.txt is not "the start": its private
    class is not allowed just because robots.txt named it."""
    internal.expect_request("/index.xml").respond_with_data(index(["/child.xml"]))
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/robots.txt").respond_with_data(
        f"Sitemap: {internal.url_for('/index.xml')}\n", content_type="text/plain"
    )
    server.expect_request("/sitemap.xml").respond_with_data(urlset(["https://public.example/"]))
    opts = sitemapconv.ReadOptions(follow=True, on_warning=lambda _m: None, **FAST)  # type: ignore[arg-type]
    locs = [e.loc for doc in read_discovered([server.url_for("/")], None, opts) for e in doc]
    assert locs == ["https://public.example/"]
    assert internal.log == []


def test_robots_txt_redirect_inward_is_refused(server: HTTPServer, internal: HTTPServer) -> None:
    internal.expect_request("/robots.txt").respond_with_data(
        f"Sitemap: {internal.url_for('/index.xml')}\n", content_type="text/plain"
    )
    server.expect_request("/robots.txt").respond_with_data(
        "", status=302, headers={"Location": internal.url_for("/robots.txt")}
    )
    assert sitemapconv.discover(server.url_for("/"), **FAST) == []
    assert internal.log == []


def test_max_sitemaps_is_one_budget_for_discovery_and_following(
    server: HTTPServer, public_cli: Callable[..., Any]
) -> None:
    lines = "".join(f"Sitemap: {server.url_for(f'/s{i}.xml')}\n" for i in range(3000))
    server.expect_request("/robots.txt").respond_with_data(lines, content_type="text/plain")
    for i in range(3000):
        server.expect_request(f"/s{i}.xml").respond_with_data(
            index([f"/c{i}-{j}.xml" for j in range(5)])
        )
    done = public_cli(
        "--discover", server.url_for("/"), "--follow", "--max-sitemaps", "10", "-t", "txt",
        "--retries", "0",
    )  # fmt: skip
    requests = len(server.log)
    # robots.txt, then at most 10 sitemaps, each probed (its head) and then read: 21 at most
    assert requests <= 21, requests
    assert len({r.path for r, _ in server.log}) <= 11
    assert "max_sitemaps" in done.stderr
