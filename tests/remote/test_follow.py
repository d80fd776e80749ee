"""Following sitemap indexes: order, concurrency, failures, limits, filters and safety."""

from __future__ import annotations

import gzip
import threading
import time
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import sitemapconv
from sitemapconv._addresses import address_class
from sitemapconv._door import Door
from sitemapconv._follow.policy import include_filter
from sitemapconv._follow.results import FollowedDocument

from .bodies import Run, gz, index, paths_requested, urlset

FAST = {"backoff": 0.01, "timeout": 5.0}


def pages(name: str, n: int = 2) -> list[str]:
    return [f"https://example.com/{name}/{i}" for i in range(n)]


def follow(source: str | Path, **options: object) -> tuple[FollowedDocument, list[str]]:
    """Read ``source`` with follow=True; returns the document and the warnings it gave."""
    warnings: list[str] = []
    doc = sitemapconv.read(
        source,
        follow=True,
        on_warning=warnings.append,
        **{**FAST, **options},  # type: ignore[arg-type]
    )
    assert isinstance(doc, FollowedDocument)
    return doc, warnings


def test_index_of_gzipped_children_with_and_without_content_encoding(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(
        index(["/a.xml.gz", server.url_for("/b.xml.gz"), "c.xml"])
    )
    server.expect_request("/a.xml.gz").respond_with_data(gz(urlset(pages("a"))))
    server.expect_request("/b.xml.gz").respond_with_data(
        gz(urlset(pages("b"))), headers={"Content-Encoding": "gzip"}
    )
    server.expect_request("/c.xml").respond_with_data(
        gz(urlset(pages("c"))), headers={"Content-Encoding": "gzip"}
    )
    doc, warnings = follow(server.url_for("/index.xml"))
    with doc:
        entries = list(doc)
    assert doc.format == "index"
    assert [e.loc for e in entries] == pages("a") + pages("b") + pages("c")
    assert [e.sitemap for e in entries[::2]] == [
        server.url_for(p) for p in ("/a.xml.gz", "/b.xml.gz", "/c.xml")
    ]
    assert doc.stats.sitemaps == 4 and doc.stats.failed == 0
    assert warnings == []


def test_index_listing_itself_and_a_child_twice_fetches_each_once(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(
        index(["/index.xml", "/a.xml", "/a.xml", server.url_for("/index.xml")])
    )
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    doc, _ = follow(server.url_for("/index.xml"))
    assert [e.loc for e in doc] == pages("a")
    assert sorted(paths_requested(server)) == ["/a.xml", "/index.xml"]
    assert doc.stats.duplicates == 3


def test_a_failing_child_is_reported_and_the_rest_go_on(server: HTTPServer) -> None:
    # A real stall is the point for /slow.xml: the client's timeout must end it. The server
    # holds that answer until the test is over (no fixed sleep), so the stall costs 0.5 s.
    released = threading.Event()

    def slow(_request: Request) -> Response:
        released.wait(10)
        return Response(urlset(pages("slow")))

    server.expect_request("/index.xml").respond_with_data(
        index(["/a.xml", "/missing.xml", "/slow.xml", "/broken.xml", "/b.xml"])
    )
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    server.expect_request("/slow.xml").respond_with_handler(slow)
    server.expect_request("/broken.xml").respond_with_data(b"<html><body>Error</body></html>")
    server.expect_request("/b.xml").respond_with_data(urlset(pages("b")))
    try:
        doc, warnings = follow(server.url_for("/index.xml"), timeout=0.5, retries=0)
        got = [e.loc for e in doc]  # the children are fetched as the document is read
    finally:
        released.set()
    assert got == pages("a") + pages("b")
    assert doc.stats.failed == 3
    failures = dict(doc.stats.failures)
    assert "404" in failures[server.url_for("/missing.xml")]
    assert "timed out" in failures[server.url_for("/slow.xml")]
    assert server.url_for("/broken.xml") in failures
    assert any(server.url_for("/missing.xml") in w and "404" in w for w in warnings)
    assert "3 failed" in warnings[-1]  # the summary


def test_twenty_slow_children_are_fetched_concurrently_in_index_order(
    server: HTTPServer,
) -> None:
    def delayed(request: Request) -> Response:
        time.sleep(0.2)
        n = request.path.strip("/").split(".")[0]
        return Response(urlset(pages(n, 3)))

    names = [f"c{i:02d}" for i in range(20)]
    server.expect_request("/index.xml").respond_with_data(index([f"/{n}.xml" for n in names]))
    for n in names:
        server.expect_request(f"/{n}.xml").respond_with_handler(delayed)
    started = time.monotonic()
    doc, warnings = follow(server.url_for("/index.xml"), concurrency=8)
    got = [e.loc for e in doc]
    elapsed = time.monotonic() - started
    assert got == [loc for n in names for loc in pages(n, 3)]
    assert elapsed < 2.0, f"20 children x 200 ms took {elapsed:.2f} s"
    assert warnings == []


def test_concurrency_one_still_reads_everything_in_order(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(index(["/a.xml", "/b.xml"]))
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    server.expect_request("/b.xml").respond_with_data(urlset(pages("b")))
    doc, _ = follow(server.url_for("/index.xml"), concurrency=1)
    assert [e.loc for e in doc] == pages("a") + pages("b")


def test_a_large_index_streamed_with_concurrency_one_does_not_starve_its_children(
    server: HTTPServer,
) -> None:
    # The padding keeps the index's own response open while its children are fetched.
    body = index(["/a.xml", "/b.xml"]).replace(
        b"</sitemapindex>", b"<!--" + b"x" * 2_000_000 + b"--></sitemapindex>"
    )
    server.expect_request("/index.xml").respond_with_data(body)
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    server.expect_request("/b.xml").respond_with_data(urlset(pages("b")))
    doc, warnings = follow(server.url_for("/index.xml"), concurrency=1, timeout=2.0)
    assert [e.loc for e in doc] == pages("a") + pages("b")
    assert warnings == []


def test_nested_index_is_followed_with_a_warning_in_place(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(
        index(["/a.xml", "/nested.xml", "/d.xml"])
    )
    server.expect_request("/nested.xml").respond_with_data(index(["/b.xml", "/c.xml"]))
    for n in "abcd":
        server.expect_request(f"/{n}.xml").respond_with_data(urlset(pages(n)))
    doc, warnings = follow(server.url_for("/index.xml"))
    assert [e.loc for e in doc] == pages("a") + pages("b") + pages("c") + pages("d")
    assert doc.stats.indexes == 1
    assert any("nested" in w and server.url_for("/nested.xml") in w for w in warnings)


def test_depth_limit(server: HTTPServer) -> None:
    server.expect_request("/index.xml").respond_with_data(index(["/n1.xml", "/a.xml"]))
    server.expect_request("/n1.xml").respond_with_data(index(["/n2.xml"]))
    server.expect_request("/n2.xml").respond_with_data(index(["/b.xml"]))
    for n in "ab":
        server.expect_request(f"/{n}.xml").respond_with_data(urlset(pages(n)))
    doc, warnings = follow(server.url_for("/index.xml"), max_depth=2)
    assert [e.loc for e in doc] == pages("a")
    assert "/b.xml" not in paths_requested(server)
    assert any("max_depth" in w for w in warnings)


def test_max_sitemaps_stops_following_with_a_warning(server: HTTPServer) -> None:
    names = [f"/s{i}.xml" for i in range(5)]
    server.expect_request("/index.xml").respond_with_data(index(names))
    for name in names:
        server.expect_request(name).respond_with_data(urlset([f"https://example.com{name}"]))
    doc, warnings = follow(server.url_for("/index.xml"), max_sitemaps=3)  # the index + 2
    assert [e.loc for e in doc] == ["https://example.com/s0.xml", "https://example.com/s1.xml"]
    assert sum("max_sitemaps" in w for w in warnings) == 1
    assert doc.stats.not_followed == 3


def test_sitemap_filter_and_include_patterns(server: HTTPServer) -> None:
    children = ["/post-sitemap.xml", "/page-sitemap.xml", "/product-sitemap1.xml"]
    server.expect_request("/index.xml").respond_with_data(index(children))
    for name in children:
        server.expect_request(name).respond_with_data(urlset([f"https://example.com{name}"]))
    doc, _ = follow(
        server.url_for("/index.xml"), sitemap_filter=include_filter(["post", r"sitemap\d"])
    )
    assert [e.loc for e in doc] == [
        "https://example.com/post-sitemap.xml",
        "https://example.com/product-sitemap1.xml",
    ]
    assert "/page-sitemap.xml" not in paths_requested(server)
    assert doc.stats.filtered == 1


def test_top_document_that_is_not_an_index_reads_as_usual(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(urlset(pages("a")))
    doc, _ = follow(server.url_for("/s.xml"))
    assert doc.format == "xml"
    assert [e.loc for e in doc] == pages("a")


def test_closing_early_stops_the_workers(server: HTTPServer) -> None:
    names = [f"/s{i}.xml" for i in range(30)]
    server.expect_request("/index.xml").respond_with_data(index(names))
    for name in names:
        server.expect_request(name).respond_with_data(urlset(pages(name.strip("/"), 5)))
    doc, _ = follow(server.url_for("/index.xml"), concurrency=2)
    it = iter(doc)
    assert next(it).loc == "https://example.com/s0.xml/0"
    doc.close()
    time.sleep(0.3)
    assert len(server.log) < 10  # the other children were never requested


# --- refusing non-public children ---------------------------------------------------------


def test_address_classes() -> None:
    assert address_class("127.0.0.1") == "loopback"
    assert address_class("::1") == "loopback"
    assert address_class("10.1.2.3") == "private"
    assert address_class("192.168.0.1") == "private"
    assert address_class("169.254.169.254") == "link-local"
    assert address_class("fe80::1") == "link-local"
    assert address_class("::ffff:10.0.0.1") == "private"
    assert address_class("0.0.0.0") == "reserved"
    assert address_class("93.184.216.34") is None


def is_blocked(url: str, start: str | None) -> str | None:
    return Door(sitemapconv.ReadOptions(), start).refuse(url)


def test_is_blocked_depends_on_the_start() -> None:
    # IP literals only: nothing is resolved or contacted.
    public = "http://93.184.216.34/sitemap_index.xml"
    assert is_blocked("http://10.0.0.1/s.xml", public) is not None
    assert is_blocked("http://127.0.0.1/s.xml", public) is not None
    assert is_blocked("http://[::1]/s.xml", public) is not None
    assert is_blocked("http://93.184.216.35/s.xml", public) is None
    loopback = "http://127.0.0.1:8000/index.xml"
    assert is_blocked("http://127.0.0.2/s.xml", loopback) is None
    assert "private" in (is_blocked("http://10.0.0.1/s.xml", loopback) or "")
    assert "link-local" in (is_blocked("http://169.254.1.1/s.xml", loopback) or "")
    assert is_blocked("http://10.0.0.1/s.xml", "http://10.9.9.9/") is None
    assert is_blocked("http://10.0.0.1/s.xml", None) is not None  # a local start


def test_private_children_are_refused_without_being_contacted(server: HTTPServer) -> None:
    port = server.port
    server.expect_request("/index.xml").respond_with_data(
        index(
            [
                "/a.xml",
                f"http://10.0.0.1:{port}/private.xml",
                f"http://169.254.1.1:{port}/metadata.xml",
                "/to-private.xml",
                f"http://localhost:{port}/b.xml",
            ]
        )
    )
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    server.expect_request("/b.xml").respond_with_data(urlset(pages("b")))
    server.expect_request("/to-private.xml").respond_with_data(
        "", status=302, headers={"Location": f"http://10.0.0.2:{port}/x.xml"}
    )
    doc, warnings = follow(server.url_for("/index.xml"))
    # loopback start: the loopback children (127.0.0.1 and localhost) are allowed
    assert [e.loc for e in doc] == pages("a") + pages("b")
    assert doc.stats.refused == 3 and doc.stats.failed == 0  # the redirect hop is refused too
    failures = dict(doc.stats.failures)
    assert "private" in failures[f"http://10.0.0.1:{port}/private.xml"]
    assert "link-local" in failures[f"http://169.254.1.1:{port}/metadata.xml"]
    assert "refused" in failures[server.url_for("/to-private.xml")]
    assert any("10.0.0.1" in w for w in warnings)


def test_local_index_refuses_loopback_children_unless_allowed(
    server: HTTPServer, tmp_path: Path
) -> None:
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    (tmp_path / "index.xml").write_bytes(index([server.url_for("/a.xml")]))
    doc, warnings = follow(tmp_path / "index.xml")
    assert list(doc) == []
    assert doc.stats.refused == 1 and server.log == []
    assert "loopback" in warnings[0]
    doc, warnings = follow(tmp_path / "index.xml", block_private=False)
    assert [e.loc for e in doc] == pages("a")
    assert warnings == []


# --- local files --------------------------------------------------------------------------


def test_local_index_with_relative_and_file_children(tmp_path: Path) -> None:
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "a.xml").write_bytes(urlset(pages("a")))
    (tmp_path / "b.txt.gz").write_bytes(gzip.compress("\n".join(pages("b")).encode()))
    (tmp_path / "c.xml").write_bytes(urlset(pages("c")))
    (tmp_path / "index.xml").write_bytes(
        index(["parts/a.xml", "b.txt.gz", (tmp_path / "c.xml").as_uri(), "index.xml"])
    )
    doc, warnings = follow(tmp_path / "index.xml")
    entries = list(doc)
    assert [e.loc for e in entries] == pages("a") + pages("b") + pages("c")
    # The child as a path, never a file: URL in the data (issue #16).
    assert entries[0].sitemap == str(tmp_path / "parts" / "a.xml")
    assert doc.stats.duplicates == 1
    assert warnings == []


def test_an_http_index_never_opens_local_files(server: HTTPServer, tmp_path: Path) -> None:
    secret = tmp_path / "secret.xml"
    secret.write_bytes(urlset(["https://example.com/secret"]))
    server.expect_request("/index.xml").respond_with_data(
        index([secret.as_uri(), "/a.xml", "ftp://example.com/x.xml"])
    )
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    doc, warnings = follow(server.url_for("/index.xml"))
    assert [e.loc for e in doc] == pages("a")
    assert sum("only http(s)" in w for w in warnings) == 2


def test_the_follow_flag_on_the_command_line(server: HTTPServer, run_cli: Run) -> None:
    server.expect_request("/index.xml").respond_with_data(
        index(["/post-1.xml", "/page-1.xml", "/gone.xml"])
    )
    server.expect_request("/post-1.xml").respond_with_data(urlset(pages("post")))
    server.expect_request("/page-1.xml").respond_with_data(urlset(pages("page")))
    url = server.url_for("/index.xml")
    done = run_cli(url, "--follow", "-t", "txt", "--concurrency", "2")
    assert done.returncode == 3, done.stderr  # partial: one child failed
    assert done.stdout.splitlines() == pages("post") + pages("page")
    assert "404" in done.stderr and server.url_for("/gone.xml") in done.stderr
    done = run_cli(url, "--follow", "-t", "txt", "--include-sitemap", "post")
    assert done.stdout.splitlines() == pages("post")
    done = run_cli(url, "--follow", "--include-sitemap", "(", "-t", "txt")
    assert done.returncode == 2 and "invalid pattern" in done.stderr


def test_allow_private_on_the_command_line(
    server: HTTPServer, tmp_path: Path, run_cli: Run
) -> None:
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a")))
    (tmp_path / "index.xml").write_bytes(index([server.url_for("/a.xml")]))
    done = run_cli(str(tmp_path / "index.xml"), "--follow", "-t", "txt")
    assert done.returncode == 1 and done.stdout == ""  # nothing read while a child failed
    assert "loopback" in done.stderr
    done = run_cli(str(tmp_path / "index.xml"), "--follow", "-t", "txt", "--allow-private")
    assert done.stdout.splitlines() == pages("a")


@pytest.mark.parametrize("concurrency", [1, 3])
def test_stats_summary_counts(server: HTTPServer, concurrency: int) -> None:
    server.expect_request("/index.xml").respond_with_data(index(["/a.xml", "/x.xml"]))
    server.expect_request("/a.xml").respond_with_data(urlset(pages("a", 4)))
    doc, warnings = follow(server.url_for("/index.xml"), concurrency=concurrency)
    list(doc)
    assert doc.stats.entries == 4 and doc.stats.failed == 1 and doc.stats.sitemaps == 2
    assert warnings[-1].endswith("read 2 sitemap(s), 4 entries, 1 failed")


def _local_index(directory: Path, children: int, per_child: int) -> Path:
    directory.mkdir()
    for c in range(children):
        (directory / f"c{c}.xml").write_bytes(
            urlset([f"https://example.com/{c}/{i}" for i in range(per_child)])
        )
    return _write(directory / "index.xml", index([f"c{c}.xml" for c in range(children)]))


def _write(path: Path, data: bytes | str) -> Path:
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def _follow_peak(path: Path) -> tuple[int, int]:
    import tracemalloc

    tracemalloc.start()
    try:
        count = sum(1 for _ in sitemapconv.read(path, follow=True, concurrency=8))
        return count, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_following_never_holds_a_child_in_memory(tmp_path: Path) -> None:
    small = _follow_peak(_local_index(tmp_path / "small", 8, 2_000))
    large = _follow_peak(_local_index(tmp_path / "large", 8, 20_000))
    assert (small[0], large[0]) == (16_000, 160_000)
    # Ten times the URLs per child, and the peak stays where it was (children are parsed
    # streaming, never collected into lists).
    assert large[1] < small[1] + 3 * 1024 * 1024, (small, large)
