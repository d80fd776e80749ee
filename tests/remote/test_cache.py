"""``--cache DIR``: conditional requests, 304 reuse, the index-lastmod shortcut, sharing, size.

A real loopback server (:class:`Site`) serves an index and its children with an ``ETag``
and a ``Last-Modified`` each, answers ``If-None-Match`` with ``304 Not Modified`` when the
tag still matches, and logs every request it gets: its path, whether it was conditional,
and the status it sent. Counting these is what the tests assert.
"""

from __future__ import annotations

import asyncio
import hashlib
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._follow.results import FollowedDocument
from sitemapconv._progress import Progress

from ..conftest import Run, _console_script

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


class Site:
    """Sitemaps served on 127.0.0.1 with validators, and the log of what was asked."""

    def __init__(self) -> None:
        self.bodies: dict[str, bytes] = {}
        #: Extra response headers per path; "Location" makes the path a 301 redirect.
        self.headers: dict[str, dict[str, str]] = {}
        #: Seconds each answer waits, so that concurrent clients really overlap.
        self.delay = 0.0
        self.log: list[tuple[str, bool, int]] = []
        self.lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                time.sleep(site.delay)
                extra = site.headers.get(self.path, {})
                if "Location" in extra:
                    with site.lock:
                        site.log.append((self.path, "If-None-Match" in self.headers, 301))
                    self.send_response(301)
                    self.send_header("Location", extra["Location"])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = site.bodies.get(self.path)
                conditional = "If-None-Match" in self.headers or "If-Modified-Since" in self.headers
                if body is None:
                    status = 404
                else:
                    etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
                    status = 304 if self.headers.get("If-None-Match") == etag else 200
                with site.lock:
                    site.log.append((self.path, conditional, status))
                self.send_response(status)
                if body is not None:
                    self.send_header("ETag", etag)
                    self.send_header("Last-Modified", formatdate(1_700_000_000, usegmt=True))
                for name, value in extra.items():
                    self.send_header(name, value)
                if status == 200:
                    assert body is not None
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_header("Content-Length", "0")
                    self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def take_log(self) -> list[tuple[str, bool, int]]:
        with self.lock:
            log, self.log = self.log, []
        return log

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site() -> Iterator[Site]:
    served = Site()
    yield served
    served.close()


def urlset(locs: list[str], size: int = 0) -> bytes:
    pad = f"<!-- {'x' * size} -->" if size else ""
    rows = "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
    return f'<?xml version="1.0"?>\n<urlset xmlns="{NS}">{rows}</urlset>{pad}\n'.encode()


class Index:
    """An index of ``n`` children, each listing two pages; ``version`` bumps one child."""

    def __init__(self, site: Site, n: int, *, size: int = 0, lastmods: bool = True) -> None:
        self.site, self.n, self.size, self.lastmods = site, n, size, lastmods
        self.version = dict.fromkeys(range(n), 0)
        self.publish()

    def pages(self, i: int) -> list[str]:
        return [f"https://pages.example/{i}/{self.version[i]}/{k}" for k in range(2)]

    def publish(self) -> None:
        rows = []
        for i in range(self.n):
            self.site.bodies[f"/c/{i}.xml"] = urlset(self.pages(i), self.size)
            lastmod = f"<lastmod>2024-01-01T00:00:{self.version[i]:02d}Z</lastmod>"
            rows.append(
                f"<sitemap><loc>{self.site.url(f'/c/{i}.xml')}</loc>"
                f"{lastmod if self.lastmods else ''}</sitemap>"
            )
        self.site.bodies["/index.xml"] = (
            f'<sitemapindex xmlns="{NS}">{"".join(rows)}</sitemapindex>'.encode()
        )

    def change(self, children: list[int]) -> None:
        for i in children:
            self.version[i] += 1
        self.publish()

    def all_pages(self) -> list[str]:
        return [page for i in range(self.n) for page in self.pages(i)]


def read_all(url: str, **options: object) -> tuple[list[str], FollowedDocument]:
    doc = sitemapconv.read(url, follow=True, **options)
    assert isinstance(doc, FollowedDocument)
    return [e.loc for e in doc], doc


def counts(log: list[tuple[str, bool, int]]) -> dict[str, int]:
    return {
        "requests": len(log),
        "conditional": sum(1 for _, conditional, _ in log if conditional),
        "full": sum(1 for _, _, status in log if status == 200),
        "not_modified": sum(1 for _, _, status in log if status == 304),
    }


@pytest.mark.slow
def test_200_children_5_changed(site: Site, tmp_path: Path) -> None:
    index = Index(site, 200)
    cache = tmp_path / "cache"
    start = site.url("/index.xml")

    # Cold: the index and its 200 children, none conditional, all stored.
    pages, doc = read_all(start, cache=cache)
    assert pages == index.all_pages()
    assert counts(site.take_log()) == {
        "requests": 201, "conditional": 0, "full": 201, "not_modified": 0
    }  # fmt: skip
    assert doc.stats.cache_hits == 0

    # 5 children change (and so does the index, whose lastmods name them). Every sitemap is
    # asked for conditionally: 1 index + 200 children = 201 requests; the index and the 5
    # changed children come whole, the 195 others are 304 and come from the cache.
    index.change([3, 50, 51, 120, 199])
    pages, doc = read_all(start, cache=cache)
    assert pages == index.all_pages()
    log = site.take_log()
    assert counts(log) == {
        "requests": 201, "conditional": 201, "full": 6, "not_modified": 195
    }  # fmt: skip
    assert sorted(path for path, _, status in log if status == 200) == sorted(
        ["/index.xml", "/c/3.xml", "/c/50.xml", "/c/51.xml", "/c/120.xml", "/c/199.xml"]
    )
    assert doc.stats.cache_hits == 195

    # With the shortcut, only the index (always asked: nothing lists it) and the 5 children
    # whose <lastmod> changed since their cached copy are requested: 1 + 5.
    index.change([0, 1, 2, 100, 150])
    pages, doc = read_all(start, cache=cache, trust_index_lastmod=True)
    assert pages == index.all_pages()
    log = site.take_log()
    assert counts(log) == {"requests": 6, "conditional": 6, "full": 6, "not_modified": 0}
    assert sorted(path for path, _, _ in log) == sorted(
        ["/index.xml", "/c/0.xml", "/c/1.xml", "/c/2.xml", "/c/100.xml", "/c/150.xml"]
    )
    assert doc.stats.cache_hits == 195

    # Nothing changed: the index answers 304 and no child is asked for at all.
    pages, _ = read_all(start, cache=cache, trust_index_lastmod=True)
    assert pages == index.all_pages()
    assert site.take_log() == [("/index.xml", True, 304)]


def test_cli_trust_index_lastmod_right_after_a_cold_run(
    site: Site, tmp_path: Path, cli: Run
) -> None:
    index = Index(site, 20)
    cache = str(tmp_path / "cache")
    args = [site.url("/index.xml"), "--follow", "--cache", cache, "-t", "txt"]
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    assert counts(site.take_log())["requests"] == 21
    index.change([7])
    done = cli(*args, "--trust-index-lastmod", "-v")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().split() == index.all_pages()
    assert sorted(p for p, _, _ in site.take_log()) == ["/c/7.xml", "/index.xml"]


def test_no_lastmod_in_the_index_means_revalidating(site: Site, tmp_path: Path) -> None:
    index = Index(site, 10, lastmods=False)
    read_all(site.url("/index.xml"), cache=tmp_path / "c")
    site.take_log()
    pages, doc = read_all(site.url("/index.xml"), cache=tmp_path / "c", trust_index_lastmod=True)
    assert pages == index.all_pages()
    assert counts(site.take_log()) == {
        "requests": 11, "conditional": 11, "full": 0, "not_modified": 11
    }  # fmt: skip
    assert doc.stats.cache_hits == 11  # the index itself, like stats.sitemaps, counts too


@pytest.mark.slow
def test_two_processes_share_one_cache_folder(site: Site, tmp_path: Path) -> None:
    index = Index(site, 60, size=2000)
    site.delay = 0.01  # each run takes a while, so both write to the folder at once
    cache = str(tmp_path / "shared")
    args = [
        _console_script(), site.url("/index.xml"), "--follow", "--cache", cache, "-t", "txt"
    ]  # fmt: skip
    runs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in "ab"]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert out.decode().split() == index.all_pages()
    assert counts(site.take_log())["requests"] == 2 * 61
    # Both stored what they fetched; a third run gets every body from the cache.
    pages, doc = read_all(site.url("/index.xml"), cache=cache)
    assert pages == index.all_pages()
    assert counts(site.take_log()) == {
        "requests": 61, "conditional": 61, "full": 0, "not_modified": 61
    }  # fmt: skip
    assert doc.stats.cache_hits == 61


@pytest.mark.slow
def test_an_interrupted_run_leaves_a_usable_cache(site: Site, tmp_path: Path) -> None:
    index = Index(site, 80, size=5000)
    site.delay = 0.02
    cache = str(tmp_path / "c")
    args = [_console_script(), site.url("/index.xml"), "--follow", "--cache", cache, "-t", "txt"]
    run = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(site.log) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode != 0, err  # interrupted (130 today; the exit code is not the point)
    site.delay = 0.0
    site.take_log()
    pages, _ = read_all(site.url("/index.xml"), cache=cache)
    assert pages == index.all_pages()
    got = counts(site.take_log())
    # What was stored whole is reused; nothing half-written is ever served.
    assert got["requests"] == 81 and 0 < got["not_modified"] < 80


def test_size_bound(site: Site, tmp_path: Path) -> None:
    index = Index(site, 40, size=20_000)
    cache = tmp_path / "small"
    bound = 200_000
    # One child at a time: the room is checked before each response is stored, so with N
    # downloads at once the database may pass the bound by N responses.
    options = {"cache": cache, "cache_max_bytes": bound, "concurrency": 1}
    pages, _ = read_all(site.url("/index.xml"), **options)
    assert pages == index.all_pages()
    database = cache / "http-cache.sqlite"
    # Within the bound plus one response (20 kB of body in 4 kB pages) and a page or two.
    assert database.stat().st_size <= bound + 24_576 + 8_192
    site.take_log()
    pages, doc = read_all(site.url("/index.xml"), **options)
    assert pages == index.all_pages()
    got = counts(site.take_log())
    # Only what fitted was kept: some bodies come from the cache, most do not.
    assert 0 < got["not_modified"] < 20 and got["full"] == 41 - got["not_modified"]
    assert doc.stats.cache_hits == got["not_modified"]
    assert database.stat().st_size <= bound + 24_576 + 8_192


def test_a_body_is_never_served_for_another_url(site: Site, tmp_path: Path) -> None:
    # Two children with different bodies; the second run gets a 304 for each, and each
    # must come back with its own body.
    index = Index(site, 2)
    read_all(site.url("/index.xml"), cache=tmp_path / "c")
    pages, _ = read_all(site.url("/index.xml"), cache=tmp_path / "c")
    assert pages == index.all_pages()
    assert len(set(pages)) == 4


def test_query_strings_are_different_urls(site: Site, tmp_path: Path) -> None:
    site.bodies["/q.xml?page=1"] = urlset(["https://pages.example/one"])
    site.bodies["/q.xml?page=2"] = urlset(["https://pages.example/two"])
    for _ in range(2):
        for page, loc in ((1, "one"), (2, "two")):
            doc = sitemapconv.read(site.url(f"/q.xml?page={page}"), cache=tmp_path / "c")
            assert [e.loc for e in doc] == [f"https://pages.example/{loc}"]
    assert [status for _, _, status in site.take_log()] == [200, 200, 304, 304]


def test_redirect_hops_are_cached_under_their_own_urls(site: Site, tmp_path: Path) -> None:
    site.headers["/moved.xml"] = {"Location": site.url("/here.xml")}
    site.bodies["/here.xml"] = urlset(["https://pages.example/here"])
    for _ in range(2):
        doc = sitemapconv.read(site.url("/moved.xml"), cache=tmp_path / "c")
        assert [e.loc for e in doc] == ["https://pages.example/here"]
    assert site.take_log() == [
        ("/moved.xml", False, 301),
        ("/here.xml", False, 200),
        ("/moved.xml", False, 301),  # a redirect's empty body is never stored
        ("/here.xml", True, 304),
    ]


def test_no_store_is_honoured(site: Site, tmp_path: Path) -> None:
    site.bodies["/private.xml"] = urlset(["https://pages.example/p"])
    site.headers["/private.xml"] = {"Cache-Control": "no-store"}
    for _ in range(2):
        doc = sitemapconv.read(site.url("/private.xml"), cache=tmp_path / "c")
        assert [e.loc for e in doc] == ["https://pages.example/p"]
    assert site.take_log() == [("/private.xml", False, 200), ("/private.xml", False, 200)]


def test_single_document_read_is_cached(site: Site, tmp_path: Path) -> None:
    site.bodies["/one.xml"] = urlset(["https://pages.example/a"])
    for _ in range(2):
        assert [e.loc for e in sitemapconv.read(site.url("/one.xml"), cache=tmp_path / "c")] == [
            "https://pages.example/a"
        ]
    assert site.take_log() == [("/one.xml", False, 200), ("/one.xml", True, 304)]


def test_cli_cache_folder_that_is_a_file(site: Site, tmp_path: Path, cli: Run) -> None:
    site.bodies["/one.xml"] = urlset(["https://pages.example/a"])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = cli(site.url("/one.xml"), "--cache", str(blocker), "-t", "txt")
    assert done.returncode == 1
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "cache folder" in lines[0] and str(blocker) in lines[0]


def test_cli_corrupt_cache_database_is_one_line(site: Site, tmp_path: Path, cli: Run) -> None:
    site.bodies["/one.xml"] = urlset(["https://pages.example/a"])
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "http-cache.sqlite").write_bytes(b"not a database at all" * 100)
    done = cli(site.url("/one.xml"), "--cache", str(folder), "-t", "txt")
    assert done.returncode == 1
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "http-cache.sqlite" in lines[0] and "not a database" in lines[0]
    assert site.take_log() == []  # refused before any request


def test_cli_verbose_summary_counts_cache_hits(site: Site, tmp_path: Path, cli: Run) -> None:
    Index(site, 3)
    args = [site.url("/index.xml"), "--follow", "--cache", str(tmp_path / "c"), "-t", "txt"]
    assert cli(*args).returncode == 0
    done = cli(*args, "-v")
    assert done.returncode == 0
    assert "4 sitemaps from the cache" in done.stderr.decode()


@pytest.mark.parametrize(
    "args",
    [
        ["--trust-index-lastmod", "--follow"],
        ["--trust-index-lastmod", "--cache", "c"],
        ["--cache", " "],
    ],
)
def test_cli_cache_usage_errors(cli: Run, tmp_path: Path, args: list[str]) -> None:
    done = cli("x.xml", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert b"--cache" in done.stderr or b"--trust-index-lastmod" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_progress_line_counts_cache_hits() -> None:
    shown = Progress()
    shown.sitemap_fetched("https://a.example/s.xml")
    assert "from cache" not in shown.line()
    shown.cache_hit()
    shown.cache_hit()
    assert "2 from cache" in shown.line()


def test_aread_uses_the_cache(site: Site, tmp_path: Path) -> None:
    index = Index(site, 12)

    async def collect() -> list[str]:
        doc = sitemapconv.aread(site.url("/index.xml"), follow=True, cache=tmp_path / "c")
        async with doc:
            return [entry.loc async for entry in doc]

    assert asyncio.run(collect()) == index.all_pages()
    assert counts(site.take_log()) == {
        "requests": 13, "conditional": 0, "full": 13, "not_modified": 0
    }  # fmt: skip
    index.change([4])
    assert asyncio.run(collect()) == index.all_pages()
    assert counts(site.take_log()) == {
        "requests": 13, "conditional": 13, "full": 2, "not_modified": 11
    }  # fmt: skip
