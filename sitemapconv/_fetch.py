"""HTTP(S) fetching through the door: redirects, deadlines, bounded retries, size caps.

Every request goes through a :class:`~sitemapconv._door.Door` (the policy) and the client of
:func:`sitemapconv._door.make_client` (the guarded connections). gzip is undone by
:mod:`sitemapconv._source` from the magic bytes, so a ``.gz`` file is decompressed exactly
once whether or not the server also labels it ``Content-Encoding: gzip``; if the server
gzipped an already-gzipped file, _source.py unwraps both layers. Any other coding
(``deflate``, ``br``, ``zstd``) is undone by :mod:`sitemapconv._decoding`, in bounded steps
under the decoded size cap.

Redirects are followed by hand, so that the door checks each hop (scheme, well-formed URL,
address) and scopes the user's headers to the start's origin. httpx is imported lazily:
``import sitemapconv`` must not pay for it.

Retries follow the one policy of :mod:`sitemapconv._retry` (shared with IndexNow and pings):
connection errors, 429 and 5xx, bounded, exponential backoff, ``Retry-After`` honoured.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, BinaryIO

from ._door import Refused
from ._options import ReadOptions
from ._retry import retry_delay
from ._urls import is_http_scheme
from .errors import FetchError, LimitError, SitemapError

if TYPE_CHECKING:
    import httpx

    from ._door import Door

#: Called with each URL about to be requested (redirect hops included); returns a reason to
#: refuse it, or None to go ahead.
Guard = Callable[[str], "str | None"]


# --- headers ------------------------------------------------------------------------------


def parse_header(text: str) -> tuple[str, str]:
    """``"Name: value"`` (the CLI's ``-H``) as a pair; ValueError when there is no name."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not name or any(c.isspace() for c in name):
        raise ValueError(f"not a 'Name: value' header: {text!r}")
    return name, value.strip()


# --- requests -----------------------------------------------------------------------------


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
        "as sent (before any decoding); raise max_bytes to read it",
        source=url,
    )


class RequestChain:
    """The state of one request through redirects and retries, shared by the sync and async
    loops and by the IndexNow/ping senders.

    The caller asks :meth:`begin` for the extensions of the next attempt (which checks the
    target with the door first), sends ``target``; :meth:`after_error` and
    :meth:`after_response` say what to do next: wait and resend, go to a redirect target, or
    use the response. The whole chain, waits included, ends by ``deadline``.
    """

    def __init__(self, url: str, options: ReadOptions, door: Door) -> None:
        self.url = url
        self.target = url
        self.options = options
        self.door = door
        self.hops = 0
        self.attempt = 0
        self.deadline = door.fetch_deadline()

    def begin(self) -> dict[str, object]:
        """Check the target (scheme, well-formed, literal address) and start an attempt."""
        reason = self.door.refuse(self.target)
        if reason is not None:
            where = f"redirect to {self.target} " if self.hops else ""
            raise Refused(f"{where}refused: {reason}", source=self.url)
        return self.door.extensions(self.door.attempt_deadline(self.deadline))

    def headers(self) -> dict[str, str]:
        return self.door.headers_for(self.target)

    def refused(self, exc: Refused) -> Refused:
        """The error for a target the transport refused to connect to."""
        where = f"redirect to {self.target} " if self.hops else ""
        return Refused(f"{where}{exc.reason}", source=self.url)

    def _in_time(self, delay: float | None) -> float | None:
        if delay is not None and time.monotonic() + delay >= self.deadline:
            return None  # no time left for another attempt: give up now
        return delay

    def after_error(self, exc: Exception) -> float:
        """Seconds to wait before resending after a transport error; else raise FetchError."""
        if "location header" in str(exc):  # httpx could not parse a redirect's Location
            raise FetchError(f"redirect to a malformed URL ({exc})", source=self.url) from None
        delay = (
            retry_delay(self.attempt + 1, None, None, self.options)
            if transport_retryable(exc)
            else None
        )
        delay = self._in_time(delay)
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
        delay = self._in_time(
            retry_delay(
                self.attempt + 1,
                response.status_code,
                response.headers.get("retry-after"),
                self.options,
            )
        )
        if delay is None:
            raise status_error(self.url, response)
        self.attempt += 1
        return delay

    def _redirect(self, response: httpx.Response) -> str:
        from ._door import check_url

        location = response.headers.get("location", "")
        try:
            nxt = response.next_request
        except Exception as exc:  # a Location httpx cannot even parse (bad IDNA, brackets)
            raise FetchError(
                f"redirect to a malformed URL {location!r} ({exc})", source=self.url
            ) from None
        if nxt is None:
            raise FetchError(
                f"HTTP {response.status_code} without a usable Location", source=self.url
            )
        if self.hops >= self.options.max_redirects:
            raise FetchError(
                f"too many redirects (more than {self.options.max_redirects})", source=self.url
            )
        target = str(nxt.url)
        if not is_http_scheme(nxt.url.scheme):
            raise Refused(f"redirect to a non-HTTP URL refused: {target}", source=self.url)
        try:
            check_url(target)
        except FetchError as exc:
            raise FetchError(f"redirect to {exc.reason}", source=self.url) from None
        self.hops += 1
        self.target = target
        return target


class _Body(io.RawIOBase):
    """A response body as a raw binary stream (chunks already decoded and capped)."""

    def __init__(
        self,
        chunks: Iterator[bytes],
        url: str,
        name: str,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self._chunks = chunks
        self._url = url
        self._pending = memoryview(b"")
        self._on_close = on_close
        self.name = name  # read by source.open_source when handed this stream directly

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()
        super().close()

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        import httpx

        while not self._pending:
            try:
                chunk = next(self._chunks, b"")
            except httpx.HTTPError as exc:
                raise FetchError(f"transfer failed ({describe(exc)})", source=self._url) from None
            if not chunk:
                return 0
            self._pending = memoryview(chunk)
        n = min(len(b), len(self._pending))
        b[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def _raw_capped(chunks: Iterator[bytes], url: str, options: ReadOptions) -> Iterator[bytes]:
    count = 0
    for chunk in chunks:
        count += len(chunk)
        if count > options.max_bytes:
            raise body_over_cap(url, options)
        yield chunk


def body_chunks(response: httpx.Response, url: str, options: ReadOptions) -> Iterator[bytes]:
    """The body's bytes: raw bytes capped as sent, then every coding but gzip undone, capped.

    gzip is left to _source.py, which knows it by its magic bytes (see the module docstring).
    """
    from ._decoding import decoded

    raw = _raw_capped(response.iter_raw(), url, options)
    return decoded(raw, response.headers.get("content-encoding"), url, options.max_bytes)


def decoded_stream(
    raw: BinaryIO, content_encoding: str | None, url: str, options: ReadOptions
) -> BinaryIO:
    """A stream of ``raw`` (a spooled body as sent) with its content codings undone, capped.

    The async fetcher spools raw bytes, then this decodes them in the thread that parses.
    """
    from ._decoding import decoded

    def chunks() -> Iterator[bytes]:
        while chunk := raw.read(64 * 1024):
            yield chunk

    body = decoded(chunks(), content_encoding, url, options.max_bytes)
    return _Body(body, url, name=url, on_close=raw.close)  # type: ignore[return-value]


class Fetcher:
    """One httpx client (made by :func:`sitemapconv._door.make_client`) and the run's door.

    httpx's ``Client`` is safe to share between threads; its pool keeps at most
    ``options.concurrency + 1`` connections (the workers and the top index). Every request
    goes through ``door``: pass the run's door so that its start, headers and budget apply;
    without one, a door with no start is used (no non-public address at all).
    """

    def __init__(
        self,
        options: ReadOptions,
        sleep: Callable[[float], None] = time.sleep,
        *,
        door: Door | None = None,
    ) -> None:
        from ._door import Door, make_client

        self.options = options
        self.door = door if door is not None else Door(options)
        self._sleep = sleep
        self._client = make_client(options, self.door)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, url: str, door: Door | None = None) -> httpx.Response:
        """GET with retries and hand-followed redirects; returns a streaming 2xx response."""
        import httpx

        chain = RequestChain(url, self.options, door or self.door)
        while True:
            extensions = chain.begin()
            try:
                request = self._client.build_request(
                    "GET", chain.target, headers=chain.headers(), extensions=extensions
                )
                response = self._client.send(request, stream=True)
            except Refused as exc:
                raise chain.refused(exc) from None
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
            if not isinstance(step, str):
                self._sleep(step)

    def open(
        self, url: str, guard: Guard | None = None, *, door: Door | None = None
    ) -> tuple[BinaryIO, str, Callable[[], None]]:
        """GET ``url``: (body stream, final URL, close). Raises FetchError or LimitError.

        ``guard`` is kept for callers of the old interface; the door checks every hop.
        """
        response = self._send(url, door)
        error = too_large(url, self.options, response.headers.get("content-length"))
        if error is not None:
            response.close()
            raise error
        try:
            chunks = body_chunks(response, url, self.options)
        except BaseException:
            response.close()
            raise
        body = _Body(chunks, url, name=url)
        return body, str(response.url), response.close  # type: ignore[return-value]

    def get_text(self, url: str, limit: int = 512 * 1024) -> str | None:
        """A small text resource (robots.txt), decoded; None on any failure or error status."""
        try:
            body, _final, close = self.open(url)
        except FetchError:
            return None
        try:
            data = body.read(limit)
        except SitemapError:
            return None
        finally:
            close()
        return data.decode("utf-8", errors="replace")


def describe(exc: Exception) -> str:
    """A short reason for a transport failure; httpx's own text is sometimes empty."""
    import httpx

    text = str(exc)
    if isinstance(exc, httpx.TimeoutException):
        return f"timed out: {text}" if text else "timed out"
    return text or type(exc).__name__


def open_url(
    url: str, options: ReadOptions, door: Door | None = None
) -> tuple[BinaryIO, str, Callable[[], None]]:
    """GET ``url`` and return (body stream, final URL, close); used by _source.py.

    Without a ``door``, ``url`` is the user's start: its own address class is allowed.
    """
    from ._door import Door

    fetcher = Fetcher(options, door=door if door is not None else Door(options, url))
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
