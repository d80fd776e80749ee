"""``timeout`` bounds one attempt from connect to last byte; retries are bounded in time.

The hostile servers here drip, stall and stutter on purpose; each test sets a short timeout
and checks the read ended near it (a loose upper bound: the behaviour, not a speed target).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Response

import sitemapconv
from sitemapconv import FetchError

from ..remote.bodies import index, urlset
from .conftest import RawServer

Make = Callable[[Callable[[socket.socket], None]], RawServer]


def _drip(data: bytes, every: float, stop: threading.Event | None = None) -> Callable[..., None]:
    def handler(conn: socket.socket) -> None:
        for i in range(len(data)):
            if stop is not None and stop.is_set():
                return
            conn.sendall(data[i : i + 1])
            time.sleep(every)

    return handler


BODY = urlset([f"https://example.com/{i}" for i in range(50)])


def _timed(url: str, **options: object) -> tuple[float, Exception | None]:
    start = time.monotonic()
    try:
        list(sitemapconv.read(url, **options))  # type: ignore[arg-type]
    except FetchError as exc:
        return time.monotonic() - start, exc
    return time.monotonic() - start, None


def test_a_dripped_body_stops_at_the_timeout(raw_server: Make) -> None:
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(BODY)}\r\n\r\n".encode()
    srv = raw_server(lambda conn: (conn.sendall(head), _drip(BODY, 0.05)(conn)))
    elapsed, error = _timed(srv.url("/s.xml"), timeout=0.8, retries=0)
    assert error is not None and "timed out" in str(error)
    assert elapsed < 3


def test_slow_headers_stop_at_the_timeout(raw_server: Make) -> None:
    head = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"
    srv = raw_server(_drip(head, 0.05))
    elapsed, error = _timed(srv.url("/s.xml"), timeout=0.8, retries=0)
    assert error is not None
    assert elapsed < 3


def test_endless_102_processing_stops_at_the_timeout(raw_server: Make) -> None:
    def handler(conn: socket.socket) -> None:
        for _ in range(200):
            conn.sendall(b"HTTP/1.1 102 Processing\r\n\r\n")
            time.sleep(0.05)

    srv = raw_server(handler)
    elapsed, error = _timed(srv.url("/s.xml"), timeout=0.8, retries=0)
    assert error is not None
    assert elapsed < 3


def test_retries_do_not_restart_the_clock(raw_server: Make) -> None:
    """Each attempt stalls in its headers; the whole fetch ends by timeout * (retries + 1)."""
    head = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"
    srv = raw_server(_drip(head, 0.05))
    elapsed, error = _timed(srv.url("/s.xml"), timeout=0.5, retries=2, backoff=0.01)
    assert error is not None
    assert elapsed < 1.5 + 1.0
    assert srv.connections >= 2  # it did retry


def test_retry_after_beyond_the_time_left_gives_up_at_once(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(
        "busy", status=503, headers={"Retry-After": "5"}
    )
    elapsed, error = _timed(server.url_for("/s.xml"), timeout=1.0, retries=3)
    assert error is not None and "503" in str(error)
    assert elapsed < 2
    assert len(server.log) == 1


def test_a_slow_child_does_not_hold_back_later_children(server: HTTPServer) -> None:
    stop = threading.Event()

    def slow(_request: object) -> Response:
        def body() -> object:
            yield BODY[:10]
            for i in range(10, len(BODY)):
                if stop.wait(0.5):
                    return
                yield BODY[i : i + 1]

        return Response(body(), content_type="application/xml")

    server.expect_request("/index.xml").respond_with_data(index(["/slow.xml", "/fast.xml"]))
    server.expect_request("/slow.xml").respond_with_handler(slow)
    server.expect_request("/fast.xml").respond_with_data(urlset(["https://example.com/fast"]))
    start = time.monotonic()
    warnings: list[str] = []
    try:
        doc = sitemapconv.read(
            server.url_for("/index.xml"),
            follow=True,
            timeout=1.0,
            retries=0,
            on_warning=warnings.append,
        )
        first = next(iter(doc))
        elapsed = time.monotonic() - start
        doc.close()
    finally:
        stop.set()
    assert first.loc == "https://example.com/fast"
    assert elapsed < 3
    assert any("slow.xml" in w and "failed" in w for w in warnings)


@pytest.mark.parametrize("follow", [False, True])
def test_aread_has_the_same_deadline(raw_server: Make, follow: bool) -> None:
    import asyncio

    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(BODY)}\r\n\r\n".encode()
    srv = raw_server(lambda conn: (conn.sendall(head), _drip(BODY, 0.05)(conn)))

    async def main() -> None:
        async with sitemapconv.aread(srv.url("/s.xml"), timeout=0.8, retries=0) as doc:
            async for _ in doc:
                pass

    start = time.monotonic()
    with pytest.raises(FetchError):
        asyncio.run(main())
    assert time.monotonic() - start < 3
