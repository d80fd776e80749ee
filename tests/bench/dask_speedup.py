"""Measure once: speed-up of 4 Dask workers over 1 when every request takes 100 ms.

Not a test. A threaded loopback server serves SITES sites, each an index with CHILDREN
children; every response is delayed by 100 ms. The same ``read_sitemaps`` job runs on a
``LocalCluster(processes=True, threads_per_worker=1)`` with 1 worker, then with 4.

    .venv/bin/python tests/bench/dask_speedup.py
"""

from __future__ import annotations

import time

from distributed import Client, LocalCluster
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sitemapconv.dask import read_sitemaps

SITES, CHILDREN, LATENCY = 8, 10, 0.1
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def body(path: str, server: HTTPServer) -> bytes:
    site, name = path.strip("/").split("/")
    if name == "sitemap_index.xml":
        items = "".join(
            f"<sitemap><loc>{server.url_for(f'/{site}/c{i}.xml')}</loc></sitemap>"
            for i in range(CHILDREN)
        )
        return f'<sitemapindex xmlns="{NS}">{items}</sitemapindex>'.encode()
    urls = "".join(f"<url><loc>https://{site}.example/{name}/{i}</loc></url>" for i in range(50))
    return f'<urlset xmlns="{NS}">{urls}</urlset>'.encode()


def peak(spans: list[tuple[float, float]]) -> int:
    """The most requests the server was handling at one moment."""
    events = sorted([(b, 1) for b, _ in spans] + [(e, -1) for _, e in spans])
    level = best = 0
    for _, step in events:
        level += step
        best = max(best, level)
    return best


def main() -> None:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)

    spans: list[tuple[float, float]] = []

    def slow(request: Request) -> Response:
        began = time.perf_counter()
        time.sleep(LATENCY)
        spans.append((began, time.perf_counter()))
        return Response(body(request.path, server), content_type="application/xml")

    for n in range(SITES):
        server.expect_request(f"/site{n}/sitemap_index.xml").respond_with_handler(slow)
        for i in range(CHILDREN):
            server.expect_request(f"/site{n}/c{i}.xml").respond_with_handler(slow)
    server.start()
    urls = [server.url_for(f"/site{n}/sitemap_index.xml") for n in range(SITES)]
    timings: dict[int, float] = {}
    try:
        for workers in (1, 4, 1, 4):
            with (
                LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                ) as cluster,
                Client(cluster) as client,
            ):
                client.run(lambda: __import__("sitemapconv.scaleout"))  # warm the imports
                spans.clear()
                start = time.perf_counter()
                bag = read_sitemaps(urls, retries=0)
                planned = time.perf_counter() - start
                rows = bag.count().compute()
                elapsed = time.perf_counter() - start
            assert rows == SITES * CHILDREN * 50, rows
            timings[workers] = min(timings.get(workers, elapsed), elapsed)
            print(
                f"{workers} worker(s): {elapsed:.2f} s for {SITES * (CHILDREN + 1)} files "
                f"(indexes read and children planned in {planned:.2f} s; "
                f"at most {peak(spans)} requests in flight)"
            )
    finally:
        server.stop()
    print(f"speed-up 4 over 1: {timings[1] / timings[4]:.2f}x (best of two runs each)")


if __name__ == "__main__":
    main()
