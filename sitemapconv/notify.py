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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from . import _notify_send
from ._indexnow import (
    DEFAULT_ENDPOINT,
    INDEXNOW_MESSAGES,
    MAX_URLS_PER_REQUEST,
    SHOWN_URLS,
    Batch,
    BatchResult,
    batch_result,
    check_key,
    indexnow_message,
    plan_batches,
)
from ._options import ReadOptions
from ._retry import send_with_retries
from ._urls import is_http_scheme
from .errors import SitemapError, UsageError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "DEFAULT_ENDPOINT",
    "INDEXNOW_MESSAGES",
    "MAX_URLS_PER_REQUEST",
    "SHOWN_URLS",
    "Batch",
    "BatchResult",
    "NotifyUsageError",
    "PingResult",
    "check_http_url",
    "check_key",
    "indexnow",
    "indexnow_message",
    "iter_indexnow",
    "ping",
    "ping_url",
    "plan_batches",
]

_JSON_TYPE = "application/json; charset=utf-8"

#: The name this module's usage errors had before they joined the one tree in errors.py.
NotifyUsageError = UsageError


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
            yield batch_result(batch, endpoint, sent=False, ok=True, message="not sent (dry run)")
        return
    import httpx

    from ._door import Door, Refused

    door = Door(opts, endpoint)  # the endpoint the caller gave is the start
    with _notify_send.client(opts, door) as client:
        for batch in batches:

            def send(body: bytes = batch.body) -> httpx.Response:
                return _notify_send.send(
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
                yield batch_result(
                    batch,
                    endpoint,
                    sent=True,
                    ok=False,
                    message=f"could not reach the endpoint ({error})",
                    attempts=attempts,
                )
                continue
            ok = answer.status_code in (200, 202)
            yield batch_result(
                batch,
                endpoint,
                sent=True,
                ok=ok,
                message=indexnow_message(answer.status_code),
                status=answer.status_code,
                attempts=attempts,
                detail="" if ok else _notify_send.snippet(answer),
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
    with _notify_send.client(opts, door) as client:
        answer, error, attempts = send_with_retries(
            lambda: _notify_send.send(client, door, "GET", url, follow_redirects=True),
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
