"""Fetching one remote sitemap: redirects, retries, timeouts, headers, gzip and size caps."""

from __future__ import annotations

import threading

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import sitemapconv
from sitemapconv._door import DEFAULT_USER_AGENT, Door
from sitemapconv._fetch import Fetcher, parse_header
from sitemapconv._options import ReadOptions
from sitemapconv.errors import FetchError, FormatError, LimitError

from .bodies import HTML, Run, gz, paths_requested, urlset

PAGES = ["https://example.com/a", "https://example.com/b"]
FAST = {"backoff": 0.01, "timeout": 5.0}


def locs(source: str, **options: object) -> list[str]:
    with sitemapconv.read(source, **{**FAST, **options}) as doc:  # type: ignore[arg-type]
        return [e.loc for e in doc]


def test_reads_a_sitemap_over_http_and_names_the_final_url(server: HTTPServer) -> None:
    server.expect_request("/sitemap.xml").respond_with_data(urlset(PAGES))
    with sitemapconv.read(server.url_for("/sitemap.xml")) as doc:
        assert doc.format == "xml"
        entries = list(doc)
    assert [e.loc for e in entries] == PAGES
    assert entries[0].sitemap == server.url_for("/sitemap.xml")


def test_default_user_agent_names_sitemapconv_and_its_version(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(urlset(PAGES))
    locs(server.url_for("/s.xml"))
    request = server.log[0][0]
    assert request.headers["User-Agent"] == DEFAULT_USER_AGENT
    assert f"sitemapconv/{sitemapconv.__version__}" in DEFAULT_USER_AGENT


def test_user_agent_and_extra_headers_are_sent(server: HTTPServer) -> None:
    server.expect_request(
        "/s.xml", headers={"User-Agent": "mybot/2.0", "X-Token": "abc"}
    ).respond_with_data(urlset(PAGES))
    got = locs(server.url_for("/s.xml"), user_agent="mybot/2.0", headers={"X-Token": "abc"})
    assert got == PAGES


def test_a_header_named_like_ours_in_another_case_replaces_it(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(urlset(PAGES))
    locs(server.url_for("/s.xml"), headers={"user-agent": "lower/1"})
    assert server.log[0][0].headers.getlist("User-Agent") == ["lower/1"]


def test_parse_header() -> None:
    assert parse_header("Authorization:  Bearer x:y ") == ("Authorization", "Bearer x:y")
    for bad in ("no colon", ": empty name", "two words: x"):
        with pytest.raises(ValueError):
            parse_header(bad)


def test_http_error_names_url_and_status(server: HTTPServer) -> None:
    server.expect_request("/gone.xml").respond_with_data("nope", status=404)
    url = server.url_for("/gone.xml")
    with pytest.raises(FetchError) as info:
        locs(url)
    assert info.value.status == 404
    assert url in str(info.value) and "404" in str(info.value)
    assert paths_requested(server) == ["/gone.xml"]  # a 404 is not retried


def test_503_then_200_is_retried(server: HTTPServer) -> None:
    server.expect_ordered_request("/s.xml").respond_with_data("busy", status=503)
    server.expect_ordered_request("/s.xml").respond_with_data(urlset(PAGES))
    assert locs(server.url_for("/s.xml"), retries=2) == PAGES
    assert paths_requested(server) == ["/s.xml", "/s.xml"]


def test_429_with_retry_after_is_honoured(server: HTTPServer) -> None:
    server.expect_ordered_request("/s.xml").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "1"}
    )
    server.expect_ordered_request("/s.xml").respond_with_data(urlset(PAGES))
    url = server.url_for("/s.xml")
    slept: list[float] = []  # a fake clock: the fetcher asks it to wait, nothing sleeps
    options = ReadOptions(retries=1, **FAST)  # type: ignore[arg-type]
    with Fetcher(options, slept.append, door=Door(options, url)) as fetcher:
        body, final, close = fetcher.open(url)
        try:
            data = body.read()
        finally:
            close()
    assert slept == [1.0]  # waited as asked, not the 0.01 s backoff
    assert final == url
    assert all(page.encode() in data for page in PAGES)
    assert paths_requested(server) == ["/s.xml", "/s.xml"]


def test_retry_after_beyond_the_cap_ends_the_retries(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data(
        "later", status=503, headers={"Retry-After": "3600"}
    )
    with pytest.raises(FetchError) as info:
        locs(server.url_for("/s.xml"), retries=3, max_retry_after=5)
    assert info.value.status == 503
    assert paths_requested(server) == ["/s.xml"]


def test_retries_are_bounded(server: HTTPServer) -> None:
    server.expect_request("/s.xml").respond_with_data("down", status=500)
    with pytest.raises(FetchError, match="HTTP 500"):
        locs(server.url_for("/s.xml"), retries=2)
    assert paths_requested(server) == ["/s.xml"] * 3


def test_connection_refused_is_retried_then_reported(closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/s.xml"
    with pytest.raises(FetchError, match="cannot fetch") as info:
        locs(url, retries=1)
    assert url in str(info.value)


def test_redirect_chain_is_followed(server: HTTPServer) -> None:
    for a, b in (("/a", "/b"), ("/b", "/c"), ("/c", "/final.xml")):
        server.expect_request(a).respond_with_data("", status=302, headers={"Location": b})
    server.expect_request("/final.xml").respond_with_data(urlset(PAGES))
    with sitemapconv.read(server.url_for("/a")) as doc:
        entries = list(doc)
    assert [e.loc for e in entries] == PAGES
    # entry.sitemap is the source as the user gave it (issue #16), not where it redirected.
    assert entries[0].sitemap == server.url_for("/a")
    assert paths_requested(server) == ["/a", "/b", "/c", "/final.xml"]


def test_too_many_redirects(server: HTTPServer) -> None:
    server.expect_request("/loop").respond_with_data("", status=301, headers={"Location": "/loop"})
    with pytest.raises(FetchError, match="too many redirects"):
        locs(server.url_for("/loop"), max_redirects=3)
    assert len(server.log) == 4


def test_slow_response_hits_the_timeout(server: HTTPServer) -> None:
    # A real stall is the point here: the client's own clock must give up. The server holds
    # the answer until the test is over (no fixed sleep), so the test costs the 0.5 s timeout.
    released = threading.Event()

    def slow(_request: Request) -> Response:
        released.wait(10)
        return Response(urlset(PAGES))

    server.expect_request("/slow.xml").respond_with_handler(slow)
    try:
        with pytest.raises(FetchError, match="timed out"):
            locs(server.url_for("/slow.xml"), timeout=0.5, retries=0)
    finally:
        released.set()


def test_html_served_as_a_sitemap_is_not_a_sitemap(server: HTTPServer) -> None:
    server.expect_request("/sitemap.xml").respond_with_data(HTML, content_type="text/html")
    with pytest.raises(FormatError, match="not a sitemap") as info:
        locs(server.url_for("/sitemap.xml"))
    assert "HTML" in str(info.value)


@pytest.mark.parametrize("encoding", [None, "gzip"])
def test_gzipped_body_with_or_without_content_encoding(
    server: HTTPServer, encoding: str | None
) -> None:
    headers = {"Content-Encoding": encoding} if encoding else {}
    server.expect_request("/s.xml").respond_with_data(gz(urlset(PAGES)), headers=headers)
    assert locs(server.url_for("/s.xml")) == PAGES


def test_gz_file_sent_with_content_encoding_gzip_on_top(server: HTTPServer) -> None:
    # Two layers: the .gz file itself, and the server's Content-Encoding on top of it.
    server.expect_request("/s.xml.gz").respond_with_data(
        gz(gz(urlset(PAGES))), headers={"Content-Encoding": "gzip"}
    )
    assert locs(server.url_for("/s.xml.gz")) == PAGES


def test_a_body_over_the_cap_with_content_length(server: HTTPServer) -> None:
    server.expect_request("/big.xml").respond_with_data(urlset(PAGES * 50))
    with pytest.raises(LimitError, match="size cap"):
        locs(server.url_for("/big.xml"), max_bytes=1000)


def test_a_streamed_body_over_the_cap_stops_while_streaming(server: HTTPServer) -> None:
    sent: list[int] = []

    def chunks() -> object:
        yield b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        for i in range(1_000_000):
            sent.append(i)
            yield b"<url><loc>https://example.com/%d</loc></url>" % i
        yield b"</urlset>"

    server.expect_request("/stream.xml").respond_with_handler(
        lambda _r: Response(chunks(), content_type="application/xml")  # no Content-Length
    )
    with pytest.raises(LimitError, match="size cap"):
        locs(server.url_for("/stream.xml"), max_bytes=20_000)
    assert server.log[0][1].headers.get("Content-Length") is None
    assert len(sent) < 1_000_000  # the server was not drained to the end


def test_compressed_body_over_the_cap_after_decompression(server: HTTPServer) -> None:
    body = gz(urlset([f"https://example.com/{'x' * 100}/{i}" for i in range(2000)]))
    assert len(body) < 20_000
    server.expect_request("/bomb.xml").respond_with_data(body)
    with pytest.raises(LimitError, match="after decompression"):
        locs(server.url_for("/bomb.xml"), max_bytes=20_000)


def test_cli_reads_a_url(server: HTTPServer, run_cli: Run) -> None:
    server.expect_request("/s.xml").respond_with_data(gz(urlset(PAGES)))
    done = run_cli(server.url_for("/s.xml"), "-t", "txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == PAGES


def test_cli_http_options_reach_the_server(server: HTTPServer, run_cli: Run) -> None:
    server.expect_request(
        "/s.xml", headers={"User-Agent": "bot/1", "X-A": "1", "Authorization": "Bearer t:k"}
    ).respond_with_data(urlset(PAGES))
    done = run_cli(
        server.url_for("/s.xml"),
        "-t", "txt",
        "--user-agent", "bot/1",
        "-H", "X-A: 1",
        "--header", "Authorization: Bearer t:k",
        "--timeout", "5",
        "--retries", "0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == PAGES


def test_cli_errors(server: HTTPServer, run_cli: Run) -> None:
    server.expect_request("/gone.xml").respond_with_data("no", status=404)
    url = server.url_for("/gone.xml")
    done = run_cli(url, "-t", "txt")
    assert done.returncode == 1
    assert done.stderr.strip() == f"sitemapconv: error: {url}: HTTP 404 NOT FOUND"
    done = run_cli(url, "-t", "txt", "-H", "no colon here")
    assert done.returncode == 2 and "Name: value" in done.stderr
