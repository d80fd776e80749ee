"""Undoing HTTP content codings (RFC 9110 §8.4) in bounded steps, under the size cap.

A response body is always taken raw from httpx and decoded here, so that a decompression
bomb costs time linear in the bytes read and stops at ``max_bytes`` *decoded* bytes, with the
coding named in the error. Each decoder call produces at most :data:`STEP` bytes (zlib's
``max_length``), or is fed small slices where the library has no output bound.

gzip alone is left to :mod:`sitemapconv._source`, which recognises it by its magic bytes
whether or not the server labels it, and never decompresses twice. ``deflate`` (zlib-wrapped
as RFC 9110 says, or raw as some servers send it) is always supported; ``br`` and ``zstd``
when the optional ``brotli`` / ``zstandard`` modules are installed.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from importlib.util import find_spec

from .errors import FetchError, LimitError

#: Most decoded bytes produced per decoder call.
STEP = 64 * 1024
#: Input slice for decoders without an output bound (brotli, zstandard).
_SLICE = 1024

#: Codings :mod:`sitemapconv._source` undoes itself.
SOURCE_CODINGS = frozenset(("gzip", "x-gzip"))


def _have(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def accept_encoding() -> str:
    """The ``Accept-Encoding`` we send: what we can undo."""
    codings = ["gzip", "deflate"]
    if _have("brotli"):
        codings.append("br")
    if _have("zstandard"):
        codings.append("zstd")
    return ", ".join(codings)


def codings(header: str | None) -> list[str]:
    """The content codings of a ``Content-Encoding`` value, in the order they were applied."""
    if not header:
        return []
    return [
        c.strip().lower() for c in header.split(",") if c.strip().lower() not in ("", "identity")
    ]


class _Zlib:
    def __init__(self, wbits: int) -> None:
        self._wbits = wbits
        self._d: zlib._Decompress | None = None

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._d is None:
            wbits = self._wbits
            if wbits == 0:  # deflate: zlib-wrapped (RFC 1950) when the header says so, else raw
                wrapped = (
                    len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0
                )
                wbits = zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS
            self._d = zlib.decompressobj(wbits)
        d = self._d
        while data:
            out = d.decompress(data, STEP)
            data = d.unconsumed_tail
            if out:
                yield out
            if d.eof:
                return

    def flush(self) -> Iterator[bytes]:
        if self._d is not None:
            out = self._d.flush()
            if out:
                yield out


class _Sliced:
    """A decoder without an output bound, fed :data:`_SLICE` bytes at a time."""

    def __init__(self, process: Callable[[bytes], bytes], name: str) -> None:
        self._process = process
        self._name = name

    def feed(self, data: bytes) -> Iterator[bytes]:
        view = memoryview(data)
        for i in range(0, len(view), _SLICE):
            try:
                out = self._process(bytes(view[i : i + _SLICE]))
            except Exception as exc:  # brotli.error, zstandard.ZstdError
                raise zlib.error(f"{self._name}: {exc}") from None
            if out:
                yield out

    def flush(self) -> Iterator[bytes]:
        return iter(())


def _decoder(coding: str, url: str) -> _Zlib | _Sliced:
    if coding in ("gzip", "x-gzip"):
        return _Zlib(16 + zlib.MAX_WBITS)
    if coding == "deflate":
        return _Zlib(0)
    if coding == "br" and _have("brotli"):
        import brotli

        return _Sliced(brotli.Decompressor().process, "br")
    if coding == "zstd" and _have("zstandard"):
        import zstandard

        return _Sliced(zstandard.ZstdDecompressor().decompressobj().decompress, "zstd")
    raise FetchError(f"unsupported Content-Encoding {coding!r}", source=url)


def decoded(chunks: Iterator[bytes], header: str | None, url: str, limit: int) -> Iterator[bytes]:
    """The body with every content coding but a gzip-only one undone, capped at ``limit``.

    A body whose codings are all gzip is handed on raw (_source.py undoes it by its magic).
    """
    applied = codings(header)
    if not applied or all(c in SOURCE_CODINGS for c in applied):
        return chunks
    decoders = [_decoder(c, url) for c in reversed(applied)]
    name = ", ".join(applied)
    return _run(chunks, decoders, name, url, limit)


def _run(
    chunks: Iterator[bytes], decoders: list[_Zlib | _Sliced], name: str, url: str, limit: int
) -> Iterator[bytes]:
    total = 0

    def through(data: Iterator[bytes], level: int) -> Iterator[bytes]:
        if level == len(decoders):
            yield from data
            return
        dec = decoders[level]

        def fed() -> Iterator[bytes]:
            for piece in data:
                yield from dec.feed(piece)
            yield from dec.flush()

        yield from through(fed(), level + 1)

    try:
        for out in through(chunks, 0):
            total += len(out)
            if total > limit:
                raise LimitError(
                    f"response body is larger than the size cap of {limit:,} bytes after "
                    f"undoing Content-Encoding: {name}; raise max_bytes to read it",
                    source=url,
                )
            yield out
    except zlib.error as exc:
        raise FetchError(f"corrupt {name} data ({exc})", source=url) from None
