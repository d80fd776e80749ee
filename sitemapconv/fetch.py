"""HTTP(S) fetching for remote sources (minimal; the remote-sitemaps work extends it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from .errors import FetchError
from .options import ReadOptions
from .version import __version__

DEFAULT_USER_AGENT = f"sitemapconv/{__version__} (+https://pypi.org/project/sitemapconv/)"


def open_url(url: str, options: ReadOptions) -> tuple[BinaryIO, str, Callable[[], None]]:
    """GET ``url`` and return (raw body stream, final URL, close)."""
    import httpx

    headers = {"User-Agent": options.user_agent or DEFAULT_USER_AGENT, **options.headers}
    headers.setdefault("Accept-Encoding", "identity")
    client = httpx.Client(
        follow_redirects=True,
        max_redirects=options.max_redirects,
        timeout=httpx.Timeout(options.timeout, connect=options.connect_timeout),
        headers=headers,
    )
    try:
        response = client.send(client.build_request("GET", url), stream=True)
    except httpx.HTTPError as exc:
        client.close()
        raise FetchError(f"cannot fetch ({exc})", source=url) from None
    if response.status_code >= 400:
        response.close()
        client.close()
        raise FetchError(
            f"HTTP {response.status_code} {response.reason_phrase}",
            source=url,
            status=response.status_code,
        )

    class _Body:
        def __init__(self) -> None:
            self._it = response.iter_raw()
            self._buf = b""

        def read(self, n: int = -1) -> bytes:
            try:
                while n < 0 or len(self._buf) < n:
                    chunk = next(self._it, b"")
                    if not chunk:
                        break
                    self._buf += chunk
            except httpx.HTTPError as exc:
                raise FetchError(f"transfer failed ({exc})", source=url) from None
            if n < 0:
                data, self._buf = self._buf, b""
            else:
                data, self._buf = self._buf[:n], self._buf[n:]
            return data

    def close() -> None:
        response.close()
        client.close()

    return _Body(), str(response.url), close  # type: ignore[return-value]
