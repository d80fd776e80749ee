"""The user's headers (``-H``, ``headers=``) go only to the start URL's origin."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv.notify import ping

from ..remote.bodies import index, urlset
from . import world

SECRET = "Bearer s3cret"


@pytest.fixture
def other(public: None) -> Iterator[HTTPServer]:
    """A second public server: another origin (same address, another port)."""
    srv = HTTPServer(host=world.PUBLIC_IP, port=0, threaded=True)
    srv.start()
    yield srv
    srv.stop()


def _auth(server: HTTPServer) -> list[str | None]:
    return [request.headers.get("Authorization") for request, _ in server.log]


def test_headers_stay_on_the_start_origin(server: HTTPServer, other: HTTPServer) -> None:
    other.expect_request("/child.xml").respond_with_data(urlset(["https://o.example/c"]))
    other.expect_request("/moved.xml").respond_with_data(urlset(["https://o.example/m"]))
    server.expect_request("/index.xml").respond_with_data(
        index([other.url_for("/child.xml"), "/same.xml", "/away.xml"])
    )
    server.expect_request("/same.xml").respond_with_data(urlset(["https://s.example/s"]))
    server.expect_request("/away.xml").respond_with_data(
        "", status=302, headers={"Location": other.url_for("/moved.xml")}
    )
    doc = sitemapconv.read(
        server.url_for("/index.xml"), follow=True, headers={"Authorization": SECRET}
    )
    assert len(list(doc)) == 3
    assert _auth(server) == [SECRET] * 3
    assert _auth(other) == [None, None]


def test_headers_forwarded_only_when_asked(server: HTTPServer, other: HTTPServer) -> None:
    other.expect_request("/child.xml").respond_with_data(urlset(["https://o.example/c"]))
    server.expect_request("/index.xml").respond_with_data(index([other.url_for("/child.xml")]))
    doc = sitemapconv.read(
        server.url_for("/index.xml"),
        follow=True,
        headers={"Authorization": SECRET},
        forward_headers=True,
    )
    assert len(list(doc)) == 1
    assert _auth(other) == [SECRET]


def test_cli_header_not_sent_to_a_cross_origin_redirect(
    server: HTTPServer, other: HTTPServer, public_cli: Callable[..., Any]
) -> None:
    other.expect_request("/moved.xml").respond_with_data(urlset(["https://o.example/m"]))
    server.expect_request("/sitemap.xml").respond_with_data(
        "", status=301, headers={"Location": other.url_for("/moved.xml")}
    )
    done = public_cli(server.url_for("/sitemap.xml"), "-t", "txt", "-H", f"Authorization: {SECRET}")
    assert done.stdout == "https://o.example/m\n", done.stderr
    assert _auth(server) == [SECRET]
    assert _auth(other) == [None]


def test_ping_redirect_neither_leaks_headers_nor_goes_inward(
    server: HTTPServer, other: HTTPServer, internal: HTTPServer
) -> None:
    server.expect_request("/ping").respond_with_data(
        "", status=302, headers={"Location": other.url_for("/ping2")}
    )
    other.expect_request("/ping2").respond_with_data(
        "", status=302, headers={"Location": internal.url_for("/admin")}
    )
    internal.expect_request("/admin").respond_with_data("ok")
    opts = sitemapconv.ReadOptions(headers={"Authorization": SECRET}, retries=3)
    result = ping(server.url_for("/ping?s={}"), "https://example.com/sitemap.xml", options=opts)
    assert not result.ok
    assert "refused" in result.message
    assert result.attempts == 1  # a refusal is final: not retried
    assert _auth(server) == [SECRET]
    assert _auth(other) == [None]
    assert internal.log == []
