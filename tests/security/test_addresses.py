"""Every hop is checked against the address rule, on the address actually connected to.

The start is "public" (127.0.0.1 in the simulated world), so nothing on an internal address
(127.0.0.2) may be contacted: not a redirect of the start, not a child, not a child's
redirect, not a name that resolves differently the second time it is asked (DNS rebinding).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv import SitemapError

from ..remote.bodies import index, urlset
from . import world


def _internal_sitemap(internal: HTTPServer) -> str:
    internal.expect_request("/secret.xml").respond_with_data(urlset(["https://intranet/x"]))
    return internal.url_for("/secret.xml")


def test_public_start_redirecting_to_an_internal_index_is_refused(
    server: HTTPServer, internal: HTTPServer
) -> None:
    secret = _internal_sitemap(internal)
    server.expect_request("/sitemap.xml").respond_with_data(
        "", status=302, headers={"Location": secret}
    )
    with pytest.raises(SitemapError, match=r"refused.*loopback"):
        list(sitemapconv.read(server.url_for("/sitemap.xml")))
    with pytest.raises(SitemapError, match="refused"):
        list(sitemapconv.read(server.url_for("/sitemap.xml"), follow=True))
    assert internal.log == []


def test_aread_start_redirecting_inward_is_refused(
    server: HTTPServer, internal: HTTPServer
) -> None:
    secret = _internal_sitemap(internal)
    server.expect_request("/sitemap.xml").respond_with_data(
        "", status=302, headers={"Location": secret}
    )

    async def main() -> list[str]:
        async with sitemapconv.aread(server.url_for("/sitemap.xml")) as doc:
            return [e.loc async for e in doc]

    with pytest.raises(SitemapError, match="refused"):
        asyncio.run(main())
    assert internal.log == []


def test_children_and_their_redirects_on_internal_addresses_are_refused(
    server: HTTPServer, internal: HTTPServer
) -> None:
    secret = _internal_sitemap(internal)
    by_name = secret.replace(world.INTERNAL_IP, "internal.test")
    server.expect_request("/index.xml").respond_with_data(
        index(["/a.xml", secret, by_name, "/hop.xml"])
    )
    server.expect_request("/a.xml").respond_with_data(urlset(["https://public.example/a"]))
    server.expect_request("/hop.xml").respond_with_data(
        "", status=301, headers={"Location": by_name}
    )
    warnings: list[str] = []
    doc = sitemapconv.read(
        server.url_for("/index.xml"), follow=True, on_warning=warnings.append, retries=0
    )
    assert [e.loc for e in doc] == ["https://public.example/a"]
    assert doc.stats.refused == 3  # type: ignore[attr-defined]
    assert internal.log == []
    assert any("internal.test resolves to a loopback address" in w for w in warnings)


def test_aread_follow_refuses_internal_children(server: HTTPServer, internal: HTTPServer) -> None:
    secret = _internal_sitemap(internal)
    server.expect_request("/index.xml").respond_with_data(index(["/a.xml", secret]))
    server.expect_request("/a.xml").respond_with_data(urlset(["https://public.example/a"]))

    async def main() -> list[str]:
        async with sitemapconv.aread(
            server.url_for("/index.xml"), follow=True, on_warning=lambda _m: None
        ) as doc:
            return [e.loc async for e in doc]

    assert asyncio.run(main()) == ["https://public.example/a"]
    assert internal.log == []


def test_dns_rebinding_cannot_slip_between_check_and_connect(
    server: HTTPServer, internal: HTTPServer
) -> None:
    """rebind.test answers public first, internal afterwards: the connection must go to the
    address that was checked, so the internal server never hears of it."""
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/index.xml").respond_with_data(
        index([f"http://rebind.test:{internal.port}/child.xml"])
    )
    warnings: list[str] = []
    doc = sitemapconv.read(
        server.url_for("/index.xml"), follow=True, on_warning=warnings.append, retries=0
    )
    assert list(doc) == []
    assert internal.log == []


def test_a_private_start_given_by_the_user_keeps_its_own_class(internal: HTTPServer) -> None:
    """The user may read an internal index on purpose; its loopback children come too."""
    world_undo = world.install()
    try:
        internal.expect_request("/index.xml").respond_with_data(index(["/a.xml"]))
        internal.expect_request("/a.xml").respond_with_data(urlset(["https://intranet/a"]))
        doc = sitemapconv.read(internal.url_for("/index.xml"), follow=True)
        assert [e.loc for e in doc] == ["https://intranet/a"]
    finally:
        world_undo()


def test_dask_tasks_refuse_internal_children(server: HTTPServer, internal: HTTPServer) -> None:
    pytest.importorskip("dask")
    import dask

    from sitemapconv.cluster import read_sitemaps

    secret = _internal_sitemap(internal)
    server.expect_request("/index.xml").respond_with_data(index(["/a.xml", secret]))
    server.expect_request("/a.xml").respond_with_data(urlset(["https://public.example/a"]))
    with dask.config.set(scheduler="sync"):
        rows = read_sitemaps(
            [server.url_for("/index.xml")], follow=True, retries=0, on_warning=_quiet
        ).compute()
    assert [r["loc"] for r in rows if r["loc"]] == ["https://public.example/a"]
    assert any(r["error"] and "refused" in r["error"] for r in rows)
    assert internal.log == []


def test_dask_discovery_does_not_make_an_internal_url_the_start(
    server: HTTPServer, internal: HTTPServer
) -> None:
    pytest.importorskip("dask")
    import dask

    from sitemapconv.cluster import read_sitemaps

    internal.expect_request("/index.xml").respond_with_data(index(["/child.xml"]))
    internal.expect_request("/child.xml").respond_with_data(urlset(["https://intranet/x"]))
    server.expect_request("/robots.txt").respond_with_data(
        f"Sitemap: {internal.url_for('/index.xml')}\n", content_type="text/plain"
    )
    server.expect_request("/sitemap.xml").respond_with_data(urlset(["https://public.example/"]))
    with dask.config.set(scheduler="sync"):
        rows = read_sitemaps(
            [server.url_for("/")],
            discover=True,
            follow=True,
            retries=0,
            timeout=2,
            on_warning=_quiet,
        ).compute()
    assert [r["loc"] for r in rows if r["loc"]] == ["https://public.example/"]
    assert internal.log == []


def _quiet(_message: str) -> None:
    pass


def test_the_http_cache_sits_in_front_of_the_door_not_around_it(
    server: HTTPServer, internal: HTTPServer, tmp_path: Path
) -> None:
    secret = _internal_sitemap(internal)
    server.expect_request("/index.xml").respond_with_data(index(["/a.xml", "/hop.xml", secret]))
    server.expect_request("/a.xml").respond_with_data(urlset(["https://public.example/a"]))
    server.expect_request("/hop.xml").respond_with_data(
        "", status=302, headers={"Location": secret}
    )
    for _ in range(2):  # a cold and a warm cache
        doc = sitemapconv.read(
            server.url_for("/index.xml"),
            follow=True,
            cache=tmp_path / "cache",
            retries=0,
            on_warning=_quiet,
        )
        assert [e.loc for e in doc] == ["https://public.example/a"]
        assert doc.stats.refused == 2  # type: ignore[attr-defined]
    assert internal.log == []
