"""HTTP(S) fetching: redirects, timeouts, bounded retries and a raw-byte size cap.

The body is handed on *raw*, as the server sent it: gzip is undone by
:mod:`sitemapconv.source` from the magic bytes, so a ``.gz`` file is decompressed exactly
once whether or not the server also labels it ``Content-Encoding: gzip``; if the server
gzipped an already-gzipped file, source.py unwraps both layers. Only an encoding that
source.py cannot undo (``br``, ``deflate``...) is decoded here by httpx.

Redirects are followed by hand, so that a ``guard`` can refuse each hop before it is
contacted (see :func:`sitemapconv.follow.is_blocked`). httpx is imported lazily:
``import sitemapconv`` must not pay for it.

Retries follow the one policy of :mod:`sitemapconv.retry` (shared with IndexNow and pings):
connection errors, 429 and 5xx, bounded, exponential backoff, ``Retry-After`` honoured.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, BinaryIO

from .errors import FetchError, LimitError
from .options import ReadOptions
from .retry import retry_delay
from .version import __version__

if TYPE_CHECKING:
    import httpx

DEFAULT_USER_AGENT = f"sitemapconv/{__version__} (+https://pypi.org/project/sitemapconv/)"

#: Called with each URL about to be requested (redirect hops included); returns a reason to
#: refuse it, or None to go ahead.
Guard = Callable[[str], "str | None"]

#: Content codings that source.py undoes itself from the magic bytes.
_RAW_CODINGS = frozenset(("", "identity", "gzip", "x-gzip"))


# --- headers ------------------------------------------------------------------------------


def merge_headers(base: Mapping[str, str], extra: Mapping[str, str]) -> dict[str, str]:
    """Headers ``extra`` over ``base``, names compared case-insensitively (for the CLI)."""
    out = dict(base)
    for name, value in extra.items():
        for existing in [k for k in out if k.lower() == name.lower()]:
            del out[existing]
        out[name] = value
    return out


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` (the CLI's ``-H``) as a pair; ValueError when there is no name."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not name or any(c.isspace() for c in name):
        raise ValueError(f"not a 'Name: value' header: {text!r}")
    return name, value.strip()


# --- requests -----------------------------------------------------------------------------


def request_headers(options: ReadOptions) -> dict[str, str]:
    """User-Agent (sitemapconv and its version unless set), gzip welcome, then user headers."""
    base = {"User-Agent": options.user_agent or DEFAULT_USER_AGENT, "Accept-Encoding": "gzip"}
    return merge_headers(base, options.headers)


def client_settings(options: ReadOptions) -> dict[str, object]:
    """Keyword arguments shared by the sync and async httpx clients."""
    import httpx

    return {
        "follow_redirects": False,  # followed by hand, hop by hop, through the guard
        "timeout": httpx.Timeout(options.timeout, connect=options.connect_timeout),
        "headers": request_headers(options),
        # One connection per worker, plus one for the index being streamed while its
        # children are fetched (with concurrency 1 that index must not starve its child).
        "limits": httpx.Limits(
            max_connections=max(1, options.concurrency) + 1,
            max_keepalive_connections=max(1, options.concurrency) + 1,
        ),
    }


def transport_retryable(exc: Exception) -> bool:
    """Connection failures and timeouts are retried; malformed URLs and requests are not."""
    import httpx

    return isinstance(exc, httpx.TransportError) and not isinstance(
        exc, (httpx.UnsupportedProtocol, httpx.LocalProtocolError)
    )


def status_error(url: str, response: httpx.Response) -> FetchError:
    where = "" if str(response.url) == url else f" (at {response.url})"
    return FetchError(
        f"HTTP {response.status_code} {response.reason_phrase}{where}",
        source=url,
        status=response.status_code,
    )


def too_large(url: str, options: ReadOptions, length: str | None) -> LimitError | None:
    """A LimitError when a declared Content-Length is already over the cap."""
    if length is not None and length.strip().isdigit() and int(length) > options.max_bytes:
        return LimitError(
            f"response of {int(length):,} bytes is larger than the size cap of "
            f"{options.max_bytes:,} bytes; raise max_bytes to read it",
            source=url,
        )
    return None


def body_over_cap(url: str, options: ReadOptions) -> LimitError:
    return LimitError(
        f"response body is larger than the size cap of {options.max_bytes:,} bytes "
        "(compressed); raise max_bytes to read it",
        source=url,
    )


class Chain:
    """The state of one GET through redirects and retries, shared by the sync and async loops.

    The caller sends ``target``; :meth:`after_error` and :meth:`after_response` say what to
    do next: wait and resend, go to a redirect target (which the caller checks with its
    guard through :meth:`refuse`), or use the response.
    """

    def __init__(self, url: str, options: ReadOptions) -> None:
        self.url = url
        self.target = url
        self.options = options
        self.hops = 0
        self.attempt = 0

    def after_error(self, exc: Exception) -> float:
        """Seconds to wait before resending after a transport error; else raise FetchError."""
        delay = (
            retry_delay(self.attempt + 1, None, None, self.options)
            if transport_retryable(exc)
            else None
        )
        if delay is None:
            raise FetchError(f"cannot fetch ({describe(exc)})", source=self.url) from None
        self.attempt += 1
        return delay

    def after_response(self, response: httpx.Response) -> float | str | None:
        """None: use this response. A float: wait, then resend. A str: redirect there."""
        if response.is_redirect:
            return self._redirect(response)
        if response.status_code < 400:
            return None
        delay = retry_delay(
            self.attempt + 1,
            response.status_code,
            response.headers.get("retry-after"),
            self.options,
        )
        if delay is None:
            raise status_error(self.url, response)
        self.attempt += 1
        return delay

    def _redirect(self, response: httpx.Response) -> str:
        nxt = response.next_request
        if nxt is None:
            raise FetchError(
                f"HTTP {response.status_code} without a usable Location", source=self.url
            )
        if self.hops >= self.options.max_redirects:
            raise FetchError(
                f"too many redirects (more than {self.options.max_redirects})", source=self.url
            )
        target = str(nxt.url)
        if nxt.url.scheme not in ("http", "https"):
            raise FetchError(f"redirect to a non-HTTP URL refused: {target}", source=self.url)
        self.hops += 1
        self.target = target
        return target

    def refuse(self, reason: str | None) -> None:
        """Raise FetchError when the guard gave a reason to refuse the redirect target."""
        if reason is not None:
            raise FetchError(f"redirect to {self.target} refused: {reason}", source=self.url)


class _Body(io.RawIOBase):
    """A response body as a raw binary stream, with the raw size cap checked as it streams."""

    def __init__(self, chunks: Iterator[bytes], url: str, options: ReadOptions, name: str) -> None:
        self._chunks = chunks
        self._url = url
        self._options = options
        self._pending = b""
        self.count = 0
        self.name = name  # read by source.open_source when handed this stream directly

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        import httpx

        while not self._pending:
            try:
                chunk = next(self._chunks, b"")
            except httpx.HTTPError as exc:
                raise FetchError(f"transfer failed ({exc})", source=self._url) from None
            if not chunk:
                return 0
            self.count += len(chunk)
            if self.count > self._options.max_bytes:
                raise body_over_cap(self._url, self._options)
            self._pending = chunk
        n = min(len(b), len(self._pending))
        b[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def body_chunks(response: httpx.Response) -> Iterator[bytes]:
    """Raw bytes when source.py can undo the coding itself, else httpx's decoded bytes."""
    coding = response.headers.get("content-encoding", "").strip().lower()
    if coding in _RAW_CODINGS:
        return response.iter_raw()
    return response.iter_bytes()


class Fetcher:
    """One httpx client, shared by every request of a read (threads included).

    httpx's ``Client`` is safe to share between threads; its pool keeps at most
    ``options.concurrency + 1`` connections (the workers and the streamed top index).
    """

    def __init__(self, options: ReadOptions, sleep: Callable[[float], None] = time.sleep) -> None:
        import httpx

        self.options = options
        self._sleep = sleep
        settings = client_settings(options)
        if options.cache is not None:  # see sitemapconv.cache
            from .cache import cached_transport

            settings["transport"] = cached_transport(options, settings.pop("limits"))  # type: ignore[arg-type]
        self._client = httpx.Client(**settings)  # type: ignore[arg-type]

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, url: str, guard: Guard | None) -> httpx.Response:
        """GET with retries and hand-followed redirects; returns a streaming 2xx response."""
        import httpx

        chain = Chain(url, self.options)
        while True:
            try:
                request = self._client.build_request("GET", chain.target)
                response = self._client.send(request, stream=True)
            except httpx.HTTPError as exc:
                self._sleep(chain.after_error(exc))
                continue
            try:
                step = chain.after_response(response)
            finally:
                if response.is_redirect or response.status_code >= 400:
                    response.close()
            if step is None:
                return response
            if isinstance(step, str):
                if guard is not None:
                    chain.refuse(guard(step))
            else:
                self._sleep(step)

    def open(
        self, url: str, guard: Guard | None = None
    ) -> tuple[BinaryIO, str, Callable[[], None]]:
        """GET ``url``: (raw body stream, final URL, close). Raises FetchError or LimitError."""
        response = self._send(url, guard)
        error = too_large(url, self.options, response.headers.get("content-length"))
        if error is not None:
            response.close()
            raise error
        body = _Body(body_chunks(response), url, self.options, name=url)
        return body, str(response.url), response.close  # type: ignore[return-value]

    def get_text(self, url: str, limit: int = 512 * 1024) -> str | None:
        """A small text resource (robots.txt), decoded; None on any failure or error status."""
        try:
            response = self._send(url, None)
        except FetchError:
            return None
        try:
            data = b""
            for chunk in response.iter_bytes():
                data += chunk
                if len(data) > limit:
                    break
        except Exception:
            return None
        finally:
            response.close()
        return data[:limit].decode(response.encoding or "utf-8", errors="replace")


def describe(exc: Exception) -> str:
    """A short reason for a transport failure; httpx's own text is sometimes empty."""
    import httpx

    text = str(exc)
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out: {text}" if text else "timed out"
    return text or type(exc).__name__


def open_url(url: str, options: ReadOptions) -> tuple[BinaryIO, str, Callable[[], None]]:
    """GET ``url`` and return (raw body stream, final URL, close); used by source.py."""
    fetcher = Fetcher(options)
    try:
        body, final, close_response = fetcher.open(url)
    except BaseException:
        fetcher.close()
        raise

    def close() -> None:
        try:
            close_response()
        finally:
            fetcher.close()

    return body, final, close
