"""Telling search engines about URLs: IndexNow submission and legacy sitemap pings.

IndexNow (https://www.indexnow.org/documentation) takes a JSON POST per host with at most
10,000 URLs and a key that the host serves at ``/{key}.txt`` (or at ``keyLocation``). We group
URLs by host, split each host's list into batches of 10,000, and report every batch on its
own, because an engine answers per request and one refused host must not hide the others.

Pings are the old ``GET .../ping?sitemap=URL`` convention. Google and Bing retired theirs, so
there is no default engine: the caller gives the endpoint template.

httpx is imported only when a request is actually sent; ``dry_run`` never imports it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from ._options import ReadOptions, emit_warning
from ._retry import send_with_retries
from ._urls import encode_url, is_http_scheme
from .errors import SitemapError, UsageError

if TYPE_CHECKING:
    import httpx

    from ._door import Door

DEFAULT_ENDPOINT = "https://api.indexnow.org/indexnow"
#: The IndexNow limit on URLs per request.
MAX_URLS_PER_REQUEST = 10_000
#: How many URLs of a batch a dry run (and a report) shows.
SHOWN_URLS = 3

_KEY = re.compile(r"[A-Za-z0-9-]{8,128}")
_JSON_TYPE = "application/json; charset=utf-8"

#: IndexNow's documented answers, in plain words.
INDEXNOW_MESSAGES: dict[int, str] = {
    200: "OK: URLs submitted",
    202: "accepted: URLs received, key validation pending",
    400: "bad request: invalid format",
    403: "key not valid (key file not found or key does not match)",
    422: "URLs don't belong to the host or the key is not valid for them",
    429: "too many requests (possible spam)",
}


#: The name this module's usage errors had before they joined the one tree in errors.py.
NotifyUsageError = UsageError


def check_key(key: str) -> str:
    """Return ``key`` if IndexNow accepts its form: 8-128 of ``a-z A-Z 0-9 -``."""
    if _KEY.fullmatch(key) is None:
        raise UsageError(
            f"invalid IndexNow key {key!r}: it must be 8 to 128 characters, "
            "each a letter a-z or A-Z, a digit 0-9 or '-'"
        )
    return key


def check_http_url(url: str, what: str) -> str:
    """Return ``url`` if it is an absolute http(s) URL, else raise :class:`UsageError`."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        parts = None
    if parts is None or not is_http_scheme(parts.scheme) or not parts.hostname:
        raise UsageError(f"{what} must be an absolute http(s) URL", source=url or "<empty>")
    return url


@dataclass(frozen=True, slots=True)
class Batch:
    """One IndexNow request: the URLs of one host, and the exact JSON body sent for them."""

    host: str
    urls: tuple[str, ...]
    body: bytes


@dataclass(slots=True)
class BatchResult:
    """How one batch went. ``ok`` is True for 200/202, and for every batch of a dry run."""

    host: str
    count: int
    endpoint: str
    body_size: int
    first_urls: tuple[str, ...]
    sent: bool
    ok: bool
    message: str
    status: int | None = None
    attempts: int = 0
    #: The start of the server's answer, when it said more than its status.
    detail: str = ""

    def describe(self) -> str:
        """One line for humans: host, count, outcome."""
        urls = "URL" if self.count == 1 else "URLs"
        if not self.sent:
            return (
                f"dry run: would POST {self.count} {urls} for host {self.host} to "
                f"{self.endpoint} (JSON body {self.body_size:,} bytes)"
            )
        status = f"HTTP {self.status}" if self.status is not None else "no answer"
        tries = f" after {self.attempts} attempts" if self.attempts > 1 else ""
        detail = f": {self.detail}" if self.detail and not self.ok else ""
        return f"IndexNow {self.host}: {self.count} {urls}: {status} {self.message}{tries}{detail}"


@dataclass(slots=True)
class PingResult:
    """How one ping went: the exact URL requested and the answer."""

    url: str
    sent: bool
    ok: bool
    message: str
    status: int | None = None
    attempts: int = 0

    def describe(self) -> str:
        if not self.sent:
            return f"dry run: would GET {self.url}"
        status = f"HTTP {self.status}" if self.status is not None else "no answer"
        tries = f" after {self.attempts} attempts" if self.attempts > 1 else ""
        return f"ping {self.url}: {status} {self.message}{tries}"


@dataclass(slots=True)
class _BatchesPerHost:
    """Collects URLs per host and hands out full batches as soon as they fill."""

    key: str
    key_location: str | None
    size: int
    pending: dict[str, list[str]] = field(default_factory=dict)

    def body(self, host: str, urls: list[str]) -> Batch:
        payload: dict[str, object] = {"host": host, "key": self.key}
        if self.key_location is not None:
            payload["keyLocation"] = self.key_location
        payload["urlList"] = urls
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return Batch(host=host, urls=tuple(urls), body=body)

    def add(self, host: str, url: str) -> Batch | None:
        urls = self.pending.setdefault(host, [])
        urls.append(url)
        if len(urls) < self.size:
            return None
        del self.pending[host]
        return self.body(host, urls)

    def rest(self) -> Iterator[Batch]:
        for host, urls in self.pending.items():
            yield self.body(host, urls)
        self.pending.clear()


def plan_batches(
    urls: Iterable[str],
    key: str,
    *,
    key_location: str | None = None,
    options: ReadOptions | None = None,
    size: int = MAX_URLS_PER_REQUEST,
) -> Iterator[Batch]:
    """Group ``urls`` by host (lower-cased, port dropped) into batches of at most ``size``.

    URLs are percent-encoded as RFC 3986 wants (clean URLs are unchanged), exact duplicates
    are sent once, and URLs that are not absolute http(s) URLs are skipped with a warning.
    A host's batch is yielded as soon as it holds ``size`` URLs; the partly filled batches
    follow at the end, in the order their hosts first appeared.
    """
    opts = options or ReadOptions()
    check_key(key)
    if not 1 <= size <= MAX_URLS_PER_REQUEST:
        raise ValueError(f"batch size must be 1..{MAX_URLS_PER_REQUEST}")
    per_host = _BatchesPerHost(key=key, key_location=key_location, size=size)
    seen: set[str] = set()
    warned_hosts: set[str] = set()
    location_host = urlsplit(key_location).hostname if key_location else None
    for raw in urls:
        url = encode_url(raw)
        if url in seen:
            continue
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError:
            host = None
        if host is None or not is_http_scheme(parts.scheme):
            emit_warning(opts.on_warning, f"{raw}: not an absolute http(s) URL; not submitted")
            continue
        if location_host and host != location_host and host not in warned_hosts:
            warned_hosts.add(host)
            emit_warning(
                opts.on_warning,
                f"key location {key_location} is on another host than {host}; "
                "IndexNow will likely refuse that host's URLs",
            )
        seen.add(url)
        batch = per_host.add(host, url)
        if batch is not None:
            yield batch
    yield from per_host.rest()


def indexnow_message(status: int) -> str:
    """IndexNow's meaning of an HTTP status, in plain words."""
    if status in INDEXNOW_MESSAGES:
        return INDEXNOW_MESSAGES[status]
    if 500 <= status <= 599:
        return "server error at the endpoint; try again later"
    if 200 <= status <= 299:
        return "OK"
    return "unexpected answer from the endpoint"


def _send(
    client: httpx.Client,
    door: Door,
    method: str,
    url: str,
    *,
    content: bytes | None = None,
    headers: dict[str, str] | None = None,
    follow_redirects: bool = False,
) -> httpx.Response:
    """One request through the door (deadline, address check, header scoping), its
    redirects followed hop by hop when asked; the answer's body is read up to ``max_bytes``
    only (see :func:`_capped`)."""
    from ._fetch import RequestChain

    chain = RequestChain(url, door.options, door)
    while True:
        extensions = chain.begin()
        request = client.build_request(
            method,
            chain.target,
            content=content,
            headers={**(headers or {}), **chain.headers()},
            extensions=extensions,
        )
        response = _capped(client.send(request, stream=True), door.options.max_bytes)
        if follow_redirects and response.is_redirect:
            chain._redirect(response)
            method, content = "GET", None
            continue
        return response


def _capped(response: httpx.Response, limit: int) -> httpx.Response:
    """``response`` with at most ``limit`` bytes of its (decoded) body read.

    An engine's answer is judged by its status; its body is only quoted (200 characters)
    when the status is an error. So a longer body is cut, not an error: an answer of 200
    still means the URLs were submitted, and a hostile endpoint cannot fill memory.
    """
    import httpx

    chunks: list[bytes] = []
    room = limit
    try:
        for chunk in response.iter_bytes():
            chunks.append(chunk[:room])
            room -= len(chunks[-1])
            if room <= 0:
                break
    finally:
        response.close()
    # The body is decoded already: the new response must not decode it a second time.
    encoded = ("content-encoding", "content-length", "transfer-encoding")
    capped = httpx.Response(
        response.status_code,
        headers=[(k, v) for k, v in response.headers.multi_items() if k.lower() not in encoded],
        content=b"".join(chunks),
        request=response.request,
        extensions=response.extensions,
    )
    capped.next_request = response.next_request  # where a redirect leads (httpx sets it)
    return capped


def _client(options: ReadOptions, door: Door) -> httpx.Client:
    from ._door import make_client

    return make_client(options, door)


def _snippet(response: httpx.Response) -> str:
    text = " ".join(response.text.split())
    return text[:200] + ("..." if len(text) > 200 else "")


def iter_indexnow(
    urls: Iterable[str],
    key: str,
    *,
    endpoint: str = DEFAULT_ENDPOINT,
    key_location: str | None = None,
    dry_run: bool = False,
    options: ReadOptions | None = None,
) -> Iterator[BatchResult]:
    """Like :func:`indexnow`, but yields each batch's result as soon as it is known."""
    opts = options or ReadOptions()
    check_key(key)
    check_http_url(endpoint, "the IndexNow endpoint")
    if key_location is not None:
        check_http_url(key_location, "the key location")
    batches = plan_batches(urls, key, key_location=key_location, options=opts)
    if dry_run:
        for batch in batches:
            yield _result(batch, endpoint, sent=False, ok=True, message="not sent (dry run)")
        return
    import httpx

    from ._door import Door, Refused

    door = Door(opts, endpoint)  # the endpoint the caller gave is the start
    with _client(opts, door) as client:
        for batch in batches:

            def send(body: bytes = batch.body) -> httpx.Response:
                return _send(
                    client, door, "POST", endpoint, content=body,
                    headers={"Content-Type": _JSON_TYPE},
                )  # fmt: skip

            answer, error, attempts = send_with_retries(
                send,
                opts,
                transport_errors=(httpx.TransportError, SitemapError),
                final_errors=(Refused,),
            )
            if answer is None:
                yield _result(
                    batch,
                    endpoint,
                    sent=True,
                    ok=False,
                    message=f"could not reach the endpoint ({error})",
                    attempts=attempts,
                )
                continue
            ok = answer.status_code in (200, 202)
            yield _result(
                batch,
                endpoint,
                sent=True,
                ok=ok,
                message=indexnow_message(answer.status_code),
                status=answer.status_code,
                attempts=attempts,
                detail="" if ok else _snippet(answer),
            )


def _result(
    batch: Batch,
    endpoint: str,
    *,
    sent: bool,
    ok: bool,
    message: str,
    status: int | None = None,
    attempts: int = 0,
    detail: str = "",
) -> BatchResult:
    return BatchResult(
        host=batch.host,
        count=len(batch.urls),
        endpoint=endpoint,
        body_size=len(batch.body),
        first_urls=batch.urls[:SHOWN_URLS],
        sent=sent,
        ok=ok,
        message=message,
        status=status,
        attempts=attempts,
        detail=detail,
    )


def indexnow(
    urls: Iterable[str],
    key: str,
    *,
    endpoint: str = DEFAULT_ENDPOINT,
    key_location: str | None = None,
    dry_run: bool = False,
    options: ReadOptions | None = None,
) -> list[BatchResult]:
    """Submit ``urls`` to an IndexNow endpoint, one POST per host and 10,000 URLs.

    Transport failures, 429 and 5xx are retried per :mod:`sitemapconv._retry` with
    ``options.retries``, ``backoff``, ``max_retry_after``, ``timeout`` and ``user_agent``.
    Failed batches do not raise: each :class:`BatchResult` says how its batch went. A bad key,
    endpoint or key location raises :class:`UsageError` before anything is sent.
    ``dry_run`` builds the exact requests and sends none.
    """
    return list(
        iter_indexnow(
            urls,
            key,
            endpoint=endpoint,
            key_location=key_location,
            dry_run=dry_run,
            options=options,
        )
    )


def ping_url(template: str, sitemap_url: str) -> str:
    """The URL to GET: ``template`` with every ``{}`` replaced by the encoded sitemap URL."""
    if "{}" not in template:
        raise UsageError(
            "the ping template must contain {} where the sitemap URL goes "
            "(for example https://engine.example/ping?sitemap={})",
            source=template,
        )
    check_http_url(template.replace("{}", "x"), "the ping template")
    check_http_url(sitemap_url, "the sitemap URL")
    return template.replace("{}", quote(sitemap_url, safe=""))


def ping(
    template: str,
    sitemap_url: str,
    *,
    dry_run: bool = False,
    options: ReadOptions | None = None,
) -> PingResult:
    """GET ``template`` with the percent-encoded ``sitemap_url`` in place of ``{}``.

    Any 2xx answer (after redirects) is success. Retries as :func:`indexnow` does.
    """
    opts = options or ReadOptions()
    url = ping_url(template, sitemap_url)
    if dry_run:
        return PingResult(url=url, sent=False, ok=True, message="not sent (dry run)")
    import httpx

    from ._door import Door, Refused

    door = Door(opts, url)  # the engine the caller named is the start; its redirects are hops
    with _client(opts, door) as client:
        answer, error, attempts = send_with_retries(
            lambda: _send(client, door, "GET", url, follow_redirects=True),
            opts,
            transport_errors=(httpx.TransportError, SitemapError),
            final_errors=(Refused,),
        )
    if answer is None:
        return PingResult(
            url=url,
            sent=True,
            ok=False,
            message=f"could not reach the engine ({error})",
            attempts=attempts,
        )
    ok = 200 <= answer.status_code <= 299
    reason = answer.reason_phrase or ("OK" if ok else "error")
    return PingResult(
        url=url,
        sent=True,
        ok=ok,
        message=reason if ok else f"{reason}: the engine refused the ping",
        status=answer.status_code,
        attempts=attempts,
    )
