"""IndexNow submission and pings against a real loopback HTTP server."""

from __future__ import annotations

import json
import socket
from urllib.parse import unquote

import pytest
from pytest_httpserver import HTTPServer

from sitemapconv._door import DEFAULT_USER_AGENT
from sitemapconv._options import ReadOptions
from sitemapconv.notify import (
    MAX_URLS_PER_REQUEST,
    NotifyUsageError,
    check_key,
    indexnow,
    ping,
    plan_batches,
)

KEY = "a1b2c3d4e5f6-0789"
FAST = ReadOptions(retries=2, backoff=0.01, timeout=5.0)


def _bodies(httpserver: HTTPServer) -> list[dict[str, object]]:
    return [json.loads(request.get_data()) for request, _ in httpserver.log]


def _endpoint(httpserver: HTTPServer) -> str:
    return httpserver.url_for("/indexnow")


def test_exact_request(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = ["https://www.example.org/url1", "https://www.example.org/folder/url2"]
    results = indexnow(urls, KEY, endpoint=_endpoint(httpserver), options=FAST)
    assert len(httpserver.log) == 1
    request = httpserver.log[0][0]
    assert request.headers["Content-Type"] == "application/json; charset=utf-8"
    assert request.headers["User-Agent"] == DEFAULT_USER_AGENT
    assert request.get_data() == (
        b'{"host":"www.example.org","key":"a1b2c3d4e5f6-0789",'
        b'"urlList":["https://www.example.org/url1","https://www.example.org/folder/url2"]}'
    )
    [result] = results
    assert (result.ok, result.sent, result.status, result.count) == (True, True, 200, 2)
    assert result.host == "www.example.org"
    assert result.body_size == len(request.get_data())
    assert result.attempts == 1
    assert "200 OK: URLs submitted" in result.describe()


def test_key_location_only_when_given(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=202)
    location = "https://www.example.org/keys/mykey.txt"
    indexnow(
        ["https://www.example.org/a"],
        KEY,
        endpoint=_endpoint(httpserver),
        key_location=location,
        options=FAST,
    )
    assert httpserver.log[0][0].get_data() == (
        b'{"host":"www.example.org","key":"a1b2c3d4e5f6-0789",'
        b'"keyLocation":"https://www.example.org/keys/mykey.txt",'
        b'"urlList":["https://www.example.org/a"]}'
    )


def test_batches_split_at_10000(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = [f"https://big.example/page/{n}" for n in range(MAX_URLS_PER_REQUEST * 2 + 1)]
    results = indexnow(urls, KEY, endpoint=_endpoint(httpserver), options=FAST)
    bodies = _bodies(httpserver)
    assert [len(b["urlList"]) for b in bodies] == [10_000, 10_000, 1]  # type: ignore[arg-type]
    assert [r.count for r in results] == [10_000, 10_000, 1]
    sent = [u for b in bodies for u in b["urlList"]]  # type: ignore[attr-defined]
    assert sent == urls  # nothing lost, nothing repeated, order kept


def test_exactly_10000_is_one_request(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = [f"https://big.example/{n}" for n in range(MAX_URLS_PER_REQUEST)]
    indexnow(urls, KEY, endpoint=_endpoint(httpserver), options=FAST)
    assert [len(b["urlList"]) for b in _bodies(httpserver)] == [10_000]  # type: ignore[arg-type]


def test_grouped_by_host(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = [
        "https://a.example/1",
        "https://b.example/1",
        "https://A.EXAMPLE:8443/2",
        "http://b.example/2",
        "https://a.example/1",  # duplicate: sent once
        "mailto:someone@a.example",  # not a web URL: skipped with a warning
    ]
    warnings: list[str] = []
    opts = ReadOptions(retries=0, on_warning=warnings.append)
    results = indexnow(urls, KEY, endpoint=_endpoint(httpserver), options=opts)
    assert _bodies(httpserver) == [
        {"host": "a.example", "key": KEY, "urlList": ["https://a.example/1", urls[2]]},
        {"host": "b.example", "key": KEY, "urlList": ["https://b.example/1", urls[3]]},
    ]
    assert [(r.host, r.count) for r in results] == [("a.example", 2), ("b.example", 2)]
    assert len(warnings) == 1 and "mailto:someone@a.example" in warnings[0]


def test_iri_is_percent_encoded() -> None:
    [batch] = plan_batches(["https://e.example/ümlaut page"], KEY)
    assert json.loads(batch.body)["urlList"] == ["https://e.example/%C3%BCmlaut%20page"]


@pytest.mark.parametrize(
    ("status", "ok", "words"),
    [
        (200, True, "OK: URLs submitted"),
        (202, True, "accepted"),
        (400, False, "bad request: invalid format"),
        (403, False, "key not valid (key file not found or key does not match)"),
        (422, False, "URLs don't belong to the host or the key is not valid for them"),
        (429, False, "too many requests (possible spam)"),
        (500, False, "server error"),
        (418, False, "unexpected answer"),
    ],
)
def test_each_status(httpserver: HTTPServer, status: int, ok: bool, words: str) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data(
        "details from the engine", status=status
    )
    opts = ReadOptions(retries=0)
    [result] = indexnow(["https://e.example/"], KEY, endpoint=_endpoint(httpserver), options=opts)
    assert (result.status, result.ok) == (status, ok)
    assert words in result.message
    assert words in result.describe()
    assert ("details from the engine" in result.describe()) is (not ok)
    assert len(httpserver.log) == 1


def test_retry_on_429_honours_retry_after(httpserver: HTTPServer) -> None:
    httpserver.expect_oneshot_request("/indexnow", method="POST").respond_with_data(
        "", status=429, headers={"Retry-After": "0"}
    )
    httpserver.expect_oneshot_request("/indexnow", method="POST").respond_with_data(
        "", status=429, headers={"Retry-After": "1"}
    )
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    opts = ReadOptions(retries=3, backoff=30.0)  # the backoff would be far longer
    [result] = indexnow(["https://e.example/"], KEY, endpoint=_endpoint(httpserver), options=opts)
    assert (result.ok, result.status, result.attempts) == (True, 200, 3)
    assert len(httpserver.log) == 3
    assert "after 3 attempts" in result.describe()


def test_retry_on_503(httpserver: HTTPServer) -> None:
    httpserver.expect_oneshot_request("/indexnow", method="POST").respond_with_data("", status=503)
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=202)
    [result] = indexnow(["https://e.example/"], KEY, endpoint=_endpoint(httpserver), options=FAST)
    assert (result.ok, result.status, result.attempts) == (True, 202, 2)
    first, second = (request.get_data() for request, _ in httpserver.log)
    assert first == second  # the retry sends the same body


def test_retries_are_bounded(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=500)
    [result] = indexnow(["https://e.example/"], KEY, endpoint=_endpoint(httpserver), options=FAST)
    assert (result.ok, result.status, result.attempts) == (False, 500, 3)
    assert len(httpserver.log) == 3


def test_retry_after_beyond_max_wait_is_not_waited_for(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow", method="POST").respond_with_data(
        "", status=429, headers={"Retry-After": "3600"}
    )
    opts = ReadOptions(retries=3, max_retry_after=60.0)
    [result] = indexnow(["https://e.example/"], KEY, endpoint=_endpoint(httpserver), options=opts)
    assert (result.ok, result.status, result.attempts) == (False, 429, 1)
    assert len(httpserver.log) == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_connection_errors_are_retried_then_reported() -> None:
    endpoint = f"http://127.0.0.1:{_closed_port()}/indexnow"
    [result] = indexnow(["https://e.example/"], KEY, endpoint=endpoint, options=FAST)
    assert (result.ok, result.sent, result.status, result.attempts) == (False, True, None, 3)
    assert "could not reach the endpoint" in result.message
    assert "no answer" in result.describe()


def test_a_refused_host_does_not_stop_the_others(httpserver: HTTPServer) -> None:
    httpserver.expect_oneshot_request("/indexnow", method="POST").respond_with_data("", status=422)
    httpserver.expect_request("/indexnow", method="POST").respond_with_data("", status=200)
    urls = ["https://a.example/", "https://b.example/"]
    results = indexnow(urls, KEY, endpoint=_endpoint(httpserver), options=FAST)
    assert [(r.host, r.status, r.ok) for r in results] == [
        ("a.example", 422, False),
        ("b.example", 200, True),
    ]


def test_dry_run_sends_nothing(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/indexnow").respond_with_data("", status=200)
    urls = [f"https://a.example/{n}" for n in range(5)] + ["https://b.example/x"]
    results = indexnow(urls, KEY, endpoint=_endpoint(httpserver), dry_run=True)
    assert httpserver.log == []
    assert [(r.host, r.count, r.sent, r.ok) for r in results] == [
        ("a.example", 5, False, True),
        ("b.example", 1, False, True),
    ]
    expected = next(iter(plan_batches(urls, KEY)))
    assert results[0].body_size == len(expected.body)
    assert results[0].first_urls == tuple(urls[:3])
    assert "would POST 5 URLs for host a.example" in results[0].describe()


@pytest.mark.parametrize(
    "key", ["short7x", "x" * 129, "has space1", "under_score", "ünïcode12", "", "a1b2c3d4\n"]
)
def test_bad_key_is_refused_before_sending(httpserver: HTTPServer, key: str) -> None:
    with pytest.raises(NotifyUsageError, match="invalid IndexNow key"):
        indexnow(["https://e.example/"], key, endpoint=_endpoint(httpserver))
    assert httpserver.log == []


@pytest.mark.parametrize("key", ["abcdefgh", "A" * 128, "0123-4567-89ab-CDEF"])
def test_good_keys(key: str) -> None:
    assert check_key(key) == key


def test_bad_endpoint_is_refused() -> None:
    with pytest.raises(NotifyUsageError, match="endpoint"):
        indexnow(["https://e.example/"], KEY, endpoint="api.indexnow.org/indexnow")


# --- ping ----------------------------------------------------------------------------------


def test_ping_sends_the_encoded_url(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/ping", method="GET").respond_with_data("Thanks", status=200)
    sitemap = "https://example.com/sitemap.xml?lang=de&page=2"
    template = httpserver.url_for("/ping") + "?sitemap={}"
    result = ping(template, sitemap, options=FAST)
    request = httpserver.log[0][0]
    assert request.query_string == (
        b"sitemap=https%3A%2F%2Fexample.com%2Fsitemap.xml%3Flang%3Dde%26page%3D2"
    )
    assert request.args["sitemap"] == sitemap
    assert unquote(result.url.split("sitemap=")[1]) == sitemap
    assert (result.ok, result.status, result.sent) == (True, 200, True)


def test_ping_failure_and_retry(httpserver: HTTPServer) -> None:
    httpserver.expect_oneshot_request("/ping").respond_with_data("", status=503)
    httpserver.expect_request("/ping").respond_with_data("gone", status=404)
    result = ping(httpserver.url_for("/ping") + "?s={}", "https://e.example/s.xml", options=FAST)
    assert (result.ok, result.status, result.attempts) == (False, 404, 2)
    assert "404" in result.describe()


def test_ping_dry_run_sends_nothing(httpserver: HTTPServer) -> None:
    result = ping(httpserver.url_for("/ping") + "?s={}", "https://e.example/s.xml", dry_run=True)
    assert httpserver.log == []
    assert result.describe().startswith("dry run: would GET http://")


@pytest.mark.parametrize(
    ("template", "sitemap"),
    [
        ("https://engine.example/ping?sitemap=", "https://e.example/s.xml"),
        ("engine.example/ping?sitemap={}", "https://e.example/s.xml"),
        ("https://engine.example/ping?sitemap={}", "/sitemap.xml"),
    ],
)
def test_ping_usage_errors(template: str, sitemap: str) -> None:
    with pytest.raises(NotifyUsageError):
        ping(template, sitemap)


def test_an_engines_answer_is_read_up_to_max_bytes_only(httpserver: HTTPServer) -> None:
    """The body is cut at max_bytes (a hostile endpoint cannot fill memory); the status
    still decides: a 200 with a long body is a success, a 400's quote is the cut body."""
    httpserver.expect_request("/ok", method="POST").respond_with_data("y" * 30_000, status=200)
    httpserver.expect_request("/bad", method="POST").respond_with_data("x" * 30_000, status=400)
    small = ReadOptions(retries=0, timeout=5.0, max_bytes=50)
    urls = ["https://example.com/a"]
    [accepted] = indexnow(urls, KEY, endpoint=httpserver.url_for("/ok"), options=small)
    assert (accepted.ok, accepted.status) == (True, 200)
    [refused] = indexnow(urls, KEY, endpoint=httpserver.url_for("/bad"), options=small)
    assert (refused.ok, refused.status, refused.detail) == (False, 400, "x" * 50)
    [quoted] = indexnow(urls, KEY, endpoint=httpserver.url_for("/bad"), options=FAST)
    assert quoted.detail == "x" * 200 + "..."  # without the cap: the usual 200-character quote
    httpserver.expect_request("/ping", method="GET").respond_with_data("z" * 30_000)
    result = ping(httpserver.url_for("/ping") + "?s={}", "https://e.example/s.xml", options=small)
    assert (result.ok, result.status) == (True, 200)
