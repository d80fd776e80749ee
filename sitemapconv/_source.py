"""Opening inputs: paths, ``-`` (stdin), bytes, binary files, ``file:`` and http(s) URLs.

Whatever the source, the result is one binary stream of *decompressed* bytes plus its
:class:`~sitemapconv._head.Head`. gzip is recognised by its magic bytes ``1F 8B`` only
(never by a ``.gz`` name or a ``Content-Encoding`` header) and undone incrementally, so a
gzip bomb stops at the size cap instead of being inflated first and measured after.
"""

from __future__ import annotations

import io
import os
import sys
import zlib
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO, Union
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from . import _progress as progress
from ._head import HEAD_SIZE, Head
from ._options import ReadOptions, emit_warning
from ._urls import is_http
from .errors import LimitError, ParseError, SitemapError

if TYPE_CHECKING:
    from ._door import Door

Source = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, BinaryIO]

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 64 * 1024


@dataclass(slots=True)
class Opened:
    """An opened source: decompressed stream, its head, and names for messages and links."""

    stream: BinaryIO
    head: Head
    name: str
    url: str | None = None
    gzipped: bool = False
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self._closers:
            with suppress(Exception):  # closing must never mask the real outcome
                self._closers.pop()()


class _Prefixed(io.RawIOBase):
    """Replays bytes already read (the head) before the rest of a stream."""

    def __init__(self, prefix: bytes, rest: BinaryIO) -> None:
        self._prefix = memoryview(prefix)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        if self._prefix:
            n = min(len(b), len(self._prefix))
            b[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._rest.read(len(b))
        n = len(data)
        b[:n] = data
        return n


class _Capped(io.RawIOBase):
    """Counts the bytes that pass and raises :class:`LimitError` past ``limit``."""

    def __init__(self, raw: BinaryIO, limit: int, name: str) -> None:
        self._raw = raw
        self._limit = limit
        self._name = name
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._raw.read(min(len(b), self._limit - self.count + 1))
        n = len(data)
        self.count += n
        if self.count > self._limit:
            raise LimitError(
                f"input is larger than the size cap of {self._limit:,} bytes "
                "(after decompression); raise the cap (--max-bytes, max_bytes=) to read it",
                source=self._name,
            )
        b[:n] = data
        return n


class _Gunzip(io.RawIOBase):
    """Incremental gzip decompression with bounded output per call.

    Multi-member streams are read through. A stream cut short yields what was decompressed
    and reports it through ``warn``; corrupt data raises :class:`ParseError`.
    """

    def __init__(self, raw: BinaryIO, name: str, warn: Callable[[str], None]) -> None:
        self._raw = raw
        self._name = name
        self._warn = warn
        self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._pending = b""
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        size = len(b)
        while not self._done:
            d = self._d
            data = d.unconsumed_tail or self._pending or self._raw.read(_CHUNK)
            self._pending = b""
            if not data:
                if not d.eof:
                    self._warn("gzip stream is truncated; reading what was decompressed")
                self._done = True
                break
            try:
                out = d.decompress(data, size)
            except zlib.error as exc:
                raise ParseError(f"corrupt gzip data ({exc})", source=self._name) from None
            if d.eof:
                rest = d.unused_data.lstrip(b"\x00")
                self._d = zlib.decompressobj(16 + zlib.MAX_WBITS)
                if rest:
                    self._pending = rest
                else:
                    more = self._raw.read(_CHUNK)
                    if more.lstrip(b"\x00"):
                        self._pending = more
                    else:
                        self._done = True
            if out:
                n = len(out)
                b[:n] = out
                return n
        return 0


def _second_gzip_layer(stream: BinaryIO, name: str, warn: Callable[[str], None]) -> BinaryIO:
    """Undo a second gzip layer when the first one unwrapped another gzip stream.

    A server that applies ``Content-Encoding: gzip`` to a file that is already a ``.gz``
    sends two layers; the fetcher hands over the raw body, so both are undone here. Two is
    the most ever undone: a deeper nest is not a sitemap.
    """
    magic = stream.read(len(GZIP_MAGIC))
    stream = io.BufferedReader(_Prefixed(magic, stream), _CHUNK)
    if magic == GZIP_MAGIC:
        stream = io.BufferedReader(_Gunzip(stream, name, warn), _CHUNK)
    return stream


def _read_head(stream: BinaryIO) -> bytes:
    parts: list[bytes] = []
    size = 0
    while size < HEAD_SIZE:
        chunk = stream.read(HEAD_SIZE - size)
        if not chunk:
            break
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def shown_location(url: str) -> str:
    """How a child sitemap is named in the data (``Entry.sitemap``): never a ``file:`` URL.

    Following a local index resolves its children to ``file:`` URLs internally; the data
    names such a child by its path, relative to the working directory when it is below it
    (as the user would type it), so that no local ``file:`` URL reaches an output.
    """
    if url[:5].lower() != "file:":
        return url
    path = url2pathname(urlsplit(url).path)
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith(os.pardir) else relative


def _open_path(path: str) -> BinaryIO:
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise SitemapError("no such file", source=path) from None
    except IsADirectoryError:
        raise SitemapError("is a directory, not a file", source=path) from None
    except OSError as exc:
        raise SitemapError(f"cannot open ({exc.strerror or exc})", source=path) from None
    except ValueError:  # open() refuses a NUL byte before any system call
        raise SitemapError("the path contains a NUL character", source=repr(path)) from None


def open_source(source: Source, options: ReadOptions, door: Door | None = None) -> Opened:
    """Open any supported source as a capped stream of decompressed bytes with its head.

    A URL is fetched through ``door`` (the run's policy), else with the URL as the start.
    """
    closers: list[Callable[[], None]] = []
    url: str | None = None
    raw: BinaryIO
    if isinstance(source, (bytes, bytearray, memoryview)):
        name = "<bytes>"
        raw = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if text == "-":
            name = "<stdin>"
            if sys.stdin is None:  # started with stdin closed (``<&-``)
                raise SitemapError("stdin is closed", source=name)
            raw = sys.stdin.buffer
        elif is_http(text):
            from ._fetch import open_url

            name = text
            raw, url, close = open_url(text, options, door)
            closers.append(close)
        else:
            if text.lower().startswith("file:"):
                # A file: URL the user typed is a location they gave: links resolve against it.
                url = text
                text = unquote(urlsplit(text).path)
            name = text
            raw = _open_path(text)
            closers.append(raw.close)
            # A plain path gives no URL: relative links stay as written (never resolved
            # against this machine's directories, which would leak them into the output).
    elif hasattr(source, "read"):
        name = getattr(source, "name", None) or "<stream>"
        if not isinstance(name, str):
            name = "<stream>"
        raw = source
    else:
        raise TypeError(f"cannot read from {type(source).__name__}")
    if options.base_url:
        url = options.base_url

    def warn(message: str) -> None:
        emit_warning(options.on_warning, f"{name}: {message}")

    try:
        first = _read_head(raw)
        stream: BinaryIO = io.BufferedReader(_Prefixed(first, raw), _CHUNK)
        gzipped = first.startswith(GZIP_MAGIC)
        if gzipped:
            stream = io.BufferedReader(_Gunzip(stream, name, warn), _CHUNK)
            stream = _second_gzip_layer(stream, name, warn)
        capped = _Capped(stream, options.max_bytes, name)
        closers.append(lambda: progress.current().add_bytes(capped.count))
        head = _read_head(capped)  # type: ignore[arg-type]
        out = io.BufferedReader(_Prefixed(head, capped), _CHUNK)  # type: ignore[arg-type]
    except OSError as exc:  # EIO, a vanished mount, stdin that cannot be read
        for close in reversed(closers):
            close()
        raise SitemapError(f"cannot read ({exc.strerror or exc})", source=name) from None
    except BaseException:
        for close in reversed(closers):
            close()
        raise
    return Opened(
        stream=out,
        head=Head(head),
        name=name,
        url=url,
        gzipped=gzipped,
        _closers=closers,
    )
