"""Malformed URLs fail one child with a warning; URL spellings of one sitemap are one visit."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv._validate import validate

from ..remote.bodies import index, urlset
from .conftest import RawServer

Make = Callable[[Callable[[socket.socket], None]], RawServer]


def _bad_redirect(raw_server: Make, location: bytes = b"http://a..b/x.xml") -> RawServer:
    """A server answering every request with a redirect to a malformed URL (werkzeug would
    refuse to send such a Location, so this one is written by hand)."""
    answer = b"HTTP/1.1 302 Found\r\nLocation: " + location + b"\r\nContent-Length: 0\r\n\r\n"
    return raw_server(lambda conn: conn.sendall(answer))


def test_malformed_child_and_redirect_fail_only_that_child(
    server: HTTPServer, raw_server: Make
) -> None:
    hop = _bad_redirect(raw_server)
    server.expect_request("/index.xml").respond_with_data(
        index(["http://[::1/x.xml", hop.url("/bad-hop.xml"), "http://a..b/y.xml", "/ok.xml"])
    )
    server.expect_request("/ok.xml").respond_with_data(urlset(["https://example.com/ok"]))
    warnings: list[str] = []
    doc = sitemapconv.read(
        server.url_for("/index.xml"), follow=True, on_warning=warnings.append, retries=0
    )
    assert [e.loc for e in doc] == ["https://example.com/ok"]
    assert doc.stats.failed == 3  # type: ignore[attr-defined]
    assert sum("malformed" in w for w in warnings) >= 2


def test_malformed_redirect_of_the_start_is_a_sitemap_error(raw_server: Make) -> None:
    for location in (b"http://a..b/x.xml", b"http://[::1/x.xml"):
        hop = _bad_redirect(raw_server, location)
        for follow in (False, True):
            try:
                list(sitemapconv.read(hop.url("/s.xml"), follow=follow, retries=0))
            except sitemapconv.SitemapError as exc:
                assert "malformed" in str(exc)
            else:
                raise AssertionError("no error")


def test_malformed_child_in_aread_and_validate(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(index(["http://[::1/x.xml", "/ok.xml"]))
    server.expect_request("/ok.xml").respond_with_data(urlset(["https://example.com/ok"]))

    async def main() -> list[str]:
        async with sitemapconv.aread(
            server.url_for("/index.xml"), follow=True, on_warning=lambda _m: None
        ) as doc:
            return [e.loc async for e in doc]

    assert asyncio.run(main()) == ["https://example.com/ok"]
    report = validate(server.url_for("/index.xml"), follow=True)
    assert any(p.rule == "child-fetch" and "malformed" in p.message for p in report.problems)


def test_cli_prints_one_line_for_a_malformed_redirect(
    raw_server: Make, public_cli: Callable[..., Any]
) -> None:
    hop = _bad_redirect(raw_server)
    done = public_cli(hop.url("/s.xml"), "-t", "txt", "--follow")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "malformed" in done.stderr


def test_an_index_listing_itself_in_other_spellings_is_read_once(server: HTTPServer) -> None:
    base = server.url_for("/dir/index.xml")
    host = base.split("/")[2]
    spellings = [
        base,
        base.replace("http://", "HTTP://").replace("127.0.0.1", "127.0.0.1"),
        f"http://{host.upper()}/dir/index.xml",
        f"http://{host}/dir/./index.xml",
        f"http://{host}/dir/a/../index.xml",
        f"http://{host}/dir/%69ndex.xml",
        f"http://{host}/dir/index.xml#top",
        "./index.xml",
        "../dir/index.xml",
    ]
    server.expect_request("/dir/index.xml").respond_with_data(index([*spellings, "/dir/a.xml"]))
    server.expect_request("/dir/a.xml").respond_with_data(urlset(["https://example.com/a"]))
    doc = sitemapconv.read(base, follow=True, on_warning=lambda _m: None)
    assert [e.loc for e in doc] == ["https://example.com/a"]
    paths = [r.path for r, _ in server.log]
    assert paths.count("/dir/index.xml") == 1, paths
