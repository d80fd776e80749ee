"""Following never holds a child whole, and never holds the top index's connection open."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import sitemapconv

from ..remote.bodies import index, urlset
from .conftest import ROOT

#: Reads with aread(follow=True) in a fresh interpreter; prints the entry count and the peak
#: of Python-level allocations (tracemalloc: exact, unlike RSS, which thread arenas blur).
_READER = r"""
import asyncio, sys, tracemalloc
import sitemapconv

async def main():
    count = 0
    async with sitemapconv.aread(sys.argv[1], follow=True, concurrency=4) as doc:
        async for _entry in doc:
            count += 1
    return count

tracemalloc.start()
count = asyncio.run(main())
print(count, tracemalloc.get_traced_memory()[1] // (1024 * 1024))
"""


@pytest.fixture
def files(tmp_path: Path, public: None) -> Iterator[tuple[Path, str]]:
    """A plain static file server (the standard library's) on 127.0.0.1 over ``tmp_path``."""
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    srv.server_close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def _peak_mb(
    files: tuple[Path, str], prefix: str, children: int, per_child: int
) -> tuple[int, int]:
    root, base = files
    names = [f"{prefix}{n}.xml" for n in range(children)]
    (root / f"{prefix}.xml").write_bytes(index(names))
    for n, name in enumerate(names):
        locs = [f"https://example.com/{n}/page-{i}-{'x' * 40}" for i in range(per_child)]
        (root / name).write_bytes(urlset(locs))
    done = subprocess.run(
        [sys.executable, "-c", _READER, f"{base}/{prefix}.xml"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    count, peak = done.stdout.split()
    return int(count), int(peak)


@pytest.mark.slow
def test_aread_follow_memory_does_not_grow_with_child_size(files: tuple[Path, str]) -> None:
    small, small_peak = _peak_mb(files, "small", 4, 2_000)  # 4 x 0.2 MB
    big, big_peak = _peak_mb(files, "big", 4, 30_000)  # 4 x 2.7 MB
    assert (small, big) == (8_000, 120_000)
    # Holding children whole (11 MB of bodies, then entry lists) costs tens of MB more.
    assert big_peak - small_peak < 10, (small_peak, big_peak)


def test_the_top_index_is_read_whole_before_any_child_is_fetched(server: HTTPServer) -> None:
    names = [f"/c{n}.xml" for n in range(4000)]
    body = index(names)
    cut = len(body) // 2  # well past the first 64 KiB a reader asks for
    events: list[tuple[str, float]] = []

    def slow_index(_request: Request) -> Response:
        def chunks() -> Iterator[bytes]:
            yield body[:cut]
            time.sleep(0.5)  # a slow link: the rest of the index comes later
            yield body[cut:]
            events.append(("index done", time.monotonic()))

        return Response(chunks(), content_type="application/xml")

    def child(request: Request) -> Response:
        events.append(("child", time.monotonic()))
        return Response(urlset([f"https://example.com{request.path}"]), content_type="text/xml")

    server.expect_request("/index.xml").respond_with_handler(slow_index)
    for name in names:
        server.expect_request(name).respond_with_handler(child)
    doc = sitemapconv.read(server.url_for("/index.xml"), follow=True, concurrency=1)
    assert next(iter(doc)).loc == "https://example.com/c0.xml"
    doc.close()
    done = [t for what, t in events if what == "index done"]
    first_child = min(t for what, t in events if what == "child")
    assert done and done[0] <= first_child
