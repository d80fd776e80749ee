"""The IndexNow protocol without I/O: key checks, batches per host, answers in words.

IndexNow (https://www.indexnow.org/documentation) takes a JSON POST per host with at most
10,000 URLs and a key that the host serves at ``/{key}.txt`` (or at ``keyLocation``). URLs
are grouped by host and each host's list split into batches of 10,000; every batch is
reported on its own. Sending lives in :mod:`sitemapconv.notify`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from ._options import ReadOptions, emit_warning
from ._urls import encode_url, is_http_scheme
from .errors import UsageError

DEFAULT_ENDPOINT = "https://api.indexnow.org/indexnow"
#: The IndexNow limit on URLs per request.
MAX_URLS_PER_REQUEST = 10_000
#: How many URLs of a batch a dry run (and a report) shows.
SHOWN_URLS = 3

_KEY = re.compile(r"[A-Za-z0-9-]{8,128}")

#: IndexNow's documented answers, in plain words.
INDEXNOW_MESSAGES: dict[int, str] = {
    200: "OK: URLs submitted",
    202: "accepted: URLs received, key validation pending",
    400: "bad request: invalid format",
    403: "key not valid (key file not found or key does not match)",
    422: "URLs don't belong to the host or the key is not valid for them",
    429: "too many requests (possible spam)",
}


def check_key(key: str) -> str:
    """Return ``key`` if IndexNow accepts its form: 8-128 of ``a-z A-Z 0-9 -``."""
    if _KEY.fullmatch(key) is None:
        raise UsageError(
            f"invalid IndexNow key {key!r}: it must be 8 to 128 characters, "
            "each a letter a-z or A-Z, a digit 0-9 or '-'"
        )
    return key


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


def batch_result(
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
