"""The async API: ``async for entry in sitemapconv.aread(...)`` (run with asyncio.run)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import sitemapconv
from sitemapconv.errors import FetchError, FormatError, LimitError

from .bodies import HTML, gz, index, paths_requested, urlset

FAST = {"backoff": 0.01, "timeout": 5.0}


def pages(name: str, n: int = 2) -> list[str]:
    return [f"https://example.com/{name}/{i}" for i in range(n)]


async def collect(
    source: str | Path, **options: object
) -> tuple[sitemapconv.AsyncDocument, list[sitemapconv.Entry]]:
    doc = sitemapconv.aread(source, **{**FAST, **options})  # type: ignore[arg-type]
    async with doc:
        entries = [entry async for entry in doc]
    return doc, entries


def test_aread_a_url(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(gz(urlset(pages("a", 1200))))
    doc, entries = asyncio.run(collect(server.url_for("/s.xml")))
    assert doc.format == "xml"
    assert [e.loc for e in entries] == pages("a", 1200)  # more than one batch
    assert entries[0].sitemap == server.url_for("/s.xml")


def test_aread_a_local_file(tmp_path: Path) -> None:
    (tmp_path / "s.xml").write_bytes(urlset(pages("a")))
    doc, entries = asyncio.run(collect(tmp_path / "s.xml"))
    assert doc.format == "xml"
    assert [e.loc for e in entries] == pages("a")


def test_aread_follows_an_index_in_order_with_failures_reported(server: HTTPServer) -> None:
    def slow(_request: Request) -> Response:
        time.sleep(0.2)
        return Response(urlset(pages("b")))

    server.expect_request("/index.xml").respond_with_data(
        index(["/a.xml.gz", "/b.xml", "/gone.xml", "/nested.xml", "/a.xml.gz"])
    )
    server.expect_request("/a.xml.gz").respond_with_data(
        gz(urlset(pages("a"))), headers={"Content-Encoding": "gzip"}
    )
    server.expect_request("/b.xml").respond_with_handler(slow)
    server.expect_request("/nested.xml").respond_with_data(index(["/c.xml"]))
    server.expect_request("/c.xml").respond_with_data(urlset(pages("c")))
    warnings: list[str] = []
    doc, entries = asyncio.run(
        collect(server.url_for("/index.xml"), follow=True, on_warning=warnings.append)
    )
    assert doc.format == "index"
    assert [e.loc for e in entries] == pages("a") + pages("b") + pages("c")
    assert entries[-1].sitemap == server.url_for("/c.xml")
    assert doc.stats.failed == 1 and doc.stats.duplicates == 1 and doc.stats.indexes == 1
    assert any("404" in w and server.url_for("/gone.xml") in w for w in warnings)
    assert paths_requested(server).count("/a.xml.gz") == 1


def test_aread_children_run_concurrently(server: HTTPServer) -> None:
    def delayed(request: Request) -> Response:
        time.sleep(0.2)
        return Response(urlset([f"https://example.com{request.path}"]))

    names = [f"/c{i:02d}.xml" for i in range(20)]
    server.expect_request("/index.xml").respond_with_data(index(names))
    for name in names:
        server.expect_request(name).respond_with_handler(delayed)
    started = time.monotonic()
    _, entries = asyncio.run(collect(server.url_for("/index.xml"), follow=True, concurrency=8))
    elapsed = time.monotonic() - started
    assert [e.loc for e in entries] == [f"https://example.com{n}" for n in names]
    assert elapsed < 2.0, f"20 children x 200 ms took {elapsed:.2f} s"


def test_aread_refuses_private_children(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(
        index([f"http://10.0.0.1:{server.port}/x.xml", "/a.xml"])
    )
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    warnings: list[str] = []
    doc, entries = asyncio.run(
        collect(server.url_for("/index.xml"), follow=True, on_warning=warnings.append)
    )
    assert [e.loc for e in entries] == pages("a")
    assert doc.stats.refused == 1
    assert "private" in warnings[0]


def test_aread_errors_are_sitemap_errors(server: HTTPServer) -> None:
    server.expect_request("/gone.xml").respond_with_data("no", status=404)
    server.expect_request("/page.html").respond_with_data(HTML)
    server.expect_request("/big.xml").respond_with_data(urlset(pages("x", 100)))
    with pytest.raises(FetchError, match="404"):
        asyncio.run(collect(server.url_for("/gone.xml")))
    with pytest.raises(FormatError, match="not a sitemap"):
        asyncio.run(collect(server.url_for("/page.html")))
    with pytest.raises(LimitError):
        asyncio.run(collect(server.url_for("/big.xml"), max_bytes=500))


def test_aread_retries_a_503(server: HTTPServer) -> None:
    server.expect_ordered_request("/flaky.xml").respond_with_data("", status=503)
    server.expect_ordered_request("/flaky.xml").respond_with_data(urlset(pages("f")))
    _, entries = asyncio.run(collect(server.url_for("/flaky.xml"), retries=1))
    assert [e.loc for e in entries] == pages("f")


def test_aread_stops_early_without_hanging(server: HTTPServer) -> None:
    names = [f"/s{i}.xml" for i in range(20)]
    server.expect_request("/index.xml").respond_with_data(index(names))
    for name in names:
        server.expect_request(name).respond_with_data(urlset([f"https://example.com{name}"]))

    async def first() -> str:
        async with sitemapconv.aread(server.url_for("/index.xml"), follow=True) as doc:
            async for entry in doc:
                return entry.loc
        return ""

    assert asyncio.run(first()) == "https://example.com/s0.xml"
