"""Measure once: follow throughput through the door, 200 children each answering after 50 ms.

Not a test. A threaded loopback server serves an index of CHILDREN children; each child
answers after LATENCY seconds. ``read(url, follow=True)`` and ``aread(url, follow=True)``
read it with concurrency 8; the ideal is CHILDREN / 8 * LATENCY = 1.25 s, the target at most
1.3 times that. Every request goes through the door (address check on the connected address,
per-attempt deadline, header scoping), so this also measures what the policy costs.

    python tests/bench/follow_throughput.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing
import statistics
import time
from multiprocessing.synchronize import Event

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import sitemapconv

CHILDREN, LATENCY, CONCURRENCY = 200, 0.05, 8
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def serve(ports: multiprocessing.Queue[int], stop: Event) -> None:
    """The server, in a process of its own so that it does not share the reader's GIL."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    items = "".join(f"<sitemap><loc>/c{i}.xml</loc></sitemap>" for i in range(CHILDREN))
    server.expect_request("/index.xml").respond_with_data(
        f'<sitemapindex xmlns="{NS}">{items}</sitemapindex>', content_type="application/xml"
    )

    def child(request: Request) -> Response:
        time.sleep(LATENCY)
        urls = "".join(
            f"<url><loc>https://e.example{request.path}/{i}</loc></url>" for i in range(20)
        )
        return Response(f'<urlset xmlns="{NS}">{urls}</urlset>', content_type="application/xml")

    for i in range(CHILDREN):
        server.expect_request(f"/c{i}.xml").respond_with_handler(child)
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    server.start()
    ports.put(server.port)
    stop.wait()
    server.stop()


def run_sync(url: str) -> int:
    return sum(1 for _ in sitemapconv.read(url, follow=True, concurrency=CONCURRENCY))


def run_async(url: str) -> int:
    async def main() -> int:
        count = 0
        async with sitemapconv.aread(url, follow=True, concurrency=CONCURRENCY) as doc:
            async for _entry in doc:
                count += 1
        return count

    return asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ports: multiprocessing.Queue[int] = multiprocessing.Queue()
    stop = multiprocessing.Event()
    process = multiprocessing.Process(target=serve, args=(ports, stop), daemon=True)
    process.start()
    url = f"http://127.0.0.1:{ports.get(timeout=30)}/index.xml"
    ideal = CHILDREN / CONCURRENCY * LATENCY
    try:
        for name, run in (("read(follow=True)", run_sync), ("aread(follow=True)", run_async)):
            times, cpu = [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                count = run(url)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                assert count == CHILDREN * 20, count
            best, median = min(times), statistics.median(times)
            print(
                f"{name:20} best {best:.2f} s, median {median:.2f} s; ideal {ideal:.2f} s; "
                f"median/ideal {median / ideal:.2f}x (target <= 1.30x); "
                f"reader CPU {statistics.median(cpu):.2f} s"
            )
    finally:
        stop.set()
        process.join(5)


if __name__ == "__main__":
    main()
