"""Measure once: a local Dask cluster (2 workers x 4 threads) against the sync scheduler.

Not a test. A threaded loopback server serves SITES sites, each an index listing CHILDREN
child sitemaps of 50 URLs; every response is sent after LATENCY seconds, as a slow remote
server would. The same ``read_sitemaps(...).count()`` job runs on dask's sync scheduler
(one thread, one request at a time) and on a ``LocalCluster(n_workers=2,
threads_per_worker=4)``, each twice; the best time of each counts. The cluster is started
before the clock starts (its start-up is reported apart).

The per-task overhead is measured the same way with a server that answers at once: the
cluster's time divided by the number of tasks, and the same for the sync scheduler.

    python tests/bench/dask_speedup.py
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable

import dask
from distributed import Client, LocalCluster
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from sitemapconv.cluster import read_sitemaps

SITES, CHILDREN, URLS, LATENCY = 100, 2, 50, 0.1
WORKERS, THREADS = 2, 4
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def body(path: str, server: HTTPServer) -> bytes:
    site, name = path.strip("/").split("/")
    if name == "sitemap_index.xml":
        items = "".join(
            f"<sitemap><loc>{server.url_for(f'/{site}/c{i}.xml')}</loc></sitemap>"
            for i in range(CHILDREN)
        )
        return f'<sitemapindex xmlns="{NS}">{items}</sitemapindex>'.encode()
    urls = "".join(f"<url><loc>https://{site}.example/{name}/{i}</loc></url>" for i in range(URLS))
    return f'<urlset xmlns="{NS}">{urls}</urlset>'.encode()


def peak(spans: list[tuple[float, float]]) -> int:
    """The most requests the server was handling at one moment."""
    events = sorted([(b, 1) for b, _ in spans] + [(e, -1) for _, e in spans])
    level = best = 0
    for _, step in events:
        level += step
        best = max(best, level)
    return best


def timed(run: Callable[[], int], rounds: int = 2) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        rows = run()
        best = min(best, time.perf_counter() - start)
        assert rows == SITES * CHILDREN * URLS, rows
    return best


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    spans: list[tuple[float, float]] = []
    delay = [LATENCY]

    def slow(request: Request) -> Response:
        began = time.perf_counter()
        time.sleep(delay[0])
        spans.append((began, time.perf_counter()))
        return Response(body(request.path, server), content_type="application/xml")

    for n in range(SITES):
        server.expect_request(f"/site{n}/sitemap_index.xml").respond_with_handler(slow)
        for i in range(CHILDREN):
            server.expect_request(f"/site{n}/c{i}.xml").respond_with_handler(slow)
    server.start()
    urls = [server.url_for(f"/site{n}/sitemap_index.xml") for n in range(SITES)]
    tasks = SITES * (1 + CHILDREN)

    def job() -> int:
        return int(read_sitemaps(urls, retries=0).count().compute())

    try:
        print(f"{SITES} sites, {tasks} sitemap files, {URLS} URLs each; {os.cpu_count()} CPUs")
        with dask.config.set(scheduler="sync"):
            spans.clear()
            sync = timed(job)
            sync_peak = peak(spans)
            delay[0] = 0.0
            sync_fast = timed(job)
            delay[0] = LATENCY
        began = time.perf_counter()
        with (
            LocalCluster(
                n_workers=WORKERS,
                threads_per_worker=THREADS,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            ) as cluster,
            Client(cluster) as client,
        ):
            client.run(lambda: __import__("sitemapconv._follow.tasks"))  # warm the imports
            started = time.perf_counter() - began
            spans.clear()
            dist = timed(job)
            dist_peak = peak(spans)
            delay[0] = 0.0
            dist_fast = timed(job)
    finally:
        server.stop()
    ideal = tasks * LATENCY / (WORKERS * THREADS)
    print(f"sync scheduler: {sync:.2f} s ({sync_peak} request(s) in flight at most)")
    print(
        f"LocalCluster {WORKERS}x{THREADS}: {dist:.2f} s ({dist_peak} requests in flight at "
        f"most; started in {started:.1f} s, not counted; {ideal:.2f} s if perfectly parallel)"
    )
    print(f"speed-up: {sync / dist:.1f}x")
    print(
        f"per-task overhead with an instant server: cluster {1000 * dist_fast / tasks:.1f} ms, "
        f"sync {1000 * sync_fast / tasks:.1f} ms"
    )


if __name__ == "__main__":
    main()
