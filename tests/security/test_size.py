"""The decoded size cap holds for every content coding, in linear time, naming the coding."""

from __future__ import annotations

import zlib

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv import LimitError

from ..remote.bodies import urlset

#: 64 MiB of spaces after the XML declaration, deflated to about 64 KiB.
_BOMB_SIZE = 64 * 1024 * 1024


def _bomb(wbits: int) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, wbits)
    head = b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    block = b" " * (1024 * 1024)
    parts = [c.compress(head)] + [c.compress(block) for _ in range(_BOMB_SIZE // len(block))]
    return b"".join(parts) + c.flush()


@pytest.mark.parametrize("wbits", [zlib.MAX_WBITS, -zlib.MAX_WBITS], ids=["zlib", "raw"])
def test_a_deflate_bomb_stops_at_the_cap_naming_deflate(server: HTTPServer, wbits: int) -> None:
    body = _bomb(wbits)
    assert len(body) < 200_000
    server.expect_request("/s.xml").respond_with_data(
        body, headers={"Content-Encoding": "deflate"}, content_type="application/xml"
    )
    with pytest.raises(LimitError, match="Content-Encoding: deflate"):
        list(sitemapconv.read(server.url_for("/s.xml"), max_bytes=4 * 1024 * 1024))


def test_deflate_is_read(server: HTTPServer) -> None:
    data = urlset(["https://example.com/a", "https://example.com/b"])
    server.expect_request("/s.xml").respond_with_data(
        zlib.compress(data), headers={"Content-Encoding": "deflate"}
    )
    assert [e.loc for e in sitemapconv.read(server.url_for("/s.xml"))] == [
        "https://example.com/a",
        "https://example.com/b",
    ]


def test_an_unknown_coding_is_one_clear_error(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(
        b"\x00\x01", headers={"Content-Encoding": "compress"}
    )
    with pytest.raises(sitemapconv.FetchError, match="unsupported Content-Encoding 'compress'"):
        list(sitemapconv.read(server.url_for("/s.xml")))


def test_decoding_cost_is_linear_in_the_bytes_decoded() -> None:
    """The decoder is fed the whole bomb in one piece: it must still stop at the cap after
    producing about the cap, in bounded steps (not inflate all of it first)."""
    from sitemapconv._decoding import STEP, decoded

    body = _bomb(zlib.MAX_WBITS)
    produced: list[int] = []
    with pytest.raises(LimitError):
        for chunk in decoded(iter([body]), "deflate", "u", 1024 * 1024):
            produced.append(len(chunk))
    assert max(produced) <= STEP
    assert sum(produced) <= 1024 * 1024


def _plain_bomb() -> bytes:
    head = b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    return head + b" " * (16 * 1024 * 1024)


@pytest.mark.parametrize("coding", ["br", "zstd"])
def test_br_and_zstd_bombs_stop_at_the_cap_when_their_decoders_are_installed(
    server: HTTPServer, coding: str
) -> None:
    if coding == "br":
        brotli = pytest.importorskip("brotli")
        body = brotli.compress(_plain_bomb(), quality=5)
        small = brotli.compress(urlset(["https://example.com/b"]))
    else:
        zstandard = pytest.importorskip("zstandard")
        body = zstandard.ZstdCompressor().compress(_plain_bomb())
        small = zstandard.ZstdCompressor().compress(urlset(["https://example.com/b"]))
    server.expect_request("/bomb.xml").respond_with_data(body, headers={"Content-Encoding": coding})
    server.expect_request("/small.xml").respond_with_data(
        small, headers={"Content-Encoding": coding}
    )
    with pytest.raises(LimitError, match=f"Content-Encoding: {coding}"):
        list(sitemapconv.read(server.url_for("/bomb.xml"), max_bytes=1024 * 1024))
    assert [e.loc for e in sitemapconv.read(server.url_for("/small.xml"))] == [
        "https://example.com/b"
    ]
