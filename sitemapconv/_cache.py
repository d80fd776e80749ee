"""The HTTP cache of ``--cache DIR``: re-read only the sitemaps that changed.

The protocol is hishel's (RFC 9111 on an httpx transport, stored in SQLite), configured so:

- Every request carries ``Cache-Control: no-cache`` (RFC 9111 §5.2.1.4): a stored response
  is never reused without asking the origin, so each fetch is a conditional request
  (``If-None-Match`` from the stored ``ETag``, ``If-Modified-Since`` from the stored
  ``Last-Modified``), and a ``304 Not Modified`` reuses the stored body. Without this,
  RFC 9111's heuristic freshness (§4.2.2: 10% of the time since ``Last-Modified``) would
  reuse sitemaps for days without asking.
- The cache is private (``shared=False``): it serves one user's reads.
- Entries are keyed by the exact request URL, and hishel also compares the stored request's
  URL before reusing a response, so a body is never served for another URL. Redirects are
  followed hop by hop by :mod:`sitemapconv._fetch`, each hop cached under its own URL.
- Storage is hishel's ``SqliteStorage`` in ``DIR/http-cache.sqlite``: WAL mode with a busy
  timeout, so several processes can share one folder, and ``max_size`` bounds the
  database's live size (least recently used entries are evicted first, but never one used
  in the last 180 seconds, which a reader may still be streaming; when nothing can be
  evicted a response passes through uncached).

What hishel cannot know is the *index-lastmod shortcut* (``--trust-index-lastmod``): with
``--follow``, a child sitemap may be reused without any request when the ``<lastmod>`` its
index gives now is the one it gave when the cached copy was stored or last revalidated.
That needs a note of the lastmod per child URL, written once a child's body has been read
to its end, which is this module's own small table ``DIR/index-lastmod.sqlite`` (WAL too).
The reuse itself is hishel's: the request goes out with ``allow_stale`` (RFC 9111 §4.2.4,
"configuration in accordance with an out-of-band contract") and without ``no-cache``, so a
stored response is used as it is unless it forbids that (``no-cache``, ``must-revalidate``),
and a missing one is fetched normally.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin

import httpx
from hishel import CacheOptions, SqliteStorage
from hishel.httpx import CacheTransport as HishelTransport

from . import _progress as progress
from ._dates import format_w3c
from ._model import Entry, When
from .errors import SitemapError

if TYPE_CHECKING:
    from ._follow.results import FollowStats
    from ._options import ReadOptions

# hishel logs the storage failures it survives (a full disk: the response is served uncached)
# with logger.exception; without a handler Python's last-resort handler would print each
# with a traceback. Applications that configure logging still get them.
logging.getLogger("hishel").addHandler(logging.NullHandler())

#: hishel's database, inside the cache folder.
DATABASE = "http-cache.sqlite"
#: The index lastmod noted for each cached child (the --trust-index-lastmod shortcut).
LISTED_DATABASE = "index-lastmod.sqlite"
_BUSY_MS = 10_000
#: Days a child's index-lastmod note is kept without being written again.
NOTE_DAYS = 30


class HttpCache:
    """A cache folder and what the reads sharing it know: child lastmods and hit counts.

    ``read(..., cache=DIR)`` makes one per read, so that the children of an index fetched by
    any worker see the lastmods its index gave. Counters are thread-safe.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        max_bytes: int = 1024**3,
        trust_index_lastmod: bool = False,
    ) -> None:
        self.directory = Path(directory)
        self.max_bytes = max_bytes
        self.trust_index_lastmod = trust_index_lastmod
        #: Responses whose stored body was reused: after a 304, or without any request.
        self.hits = 0
        #: Of those, reused without any request (the index-lastmod shortcut).
        self.unrequested = 0
        self._listed: dict[str, str] = {}
        self._lock = threading.Lock()
        self._stats: FollowStats | None = None

    @classmethod
    def for_options(cls, options: ReadOptions) -> HttpCache | None:
        """The options' cache: the object itself, a new one for a folder, or None."""
        cache = options.cache
        if cache is None or isinstance(cache, HttpCache):
            return cache
        return cls(
            cache,
            max_bytes=options.cache_max_bytes,
            trust_index_lastmod=options.trust_index_lastmod,
        )

    # --- what following tells it ------------------------------------------------------------

    def listed(self, url: str, lastmod: When | None) -> None:
        """An index lists child ``url`` with ``lastmod`` (None: it gave none)."""
        key = _key(url)
        with self._lock:
            if lastmod is None:
                self._listed.pop(key, None)
            else:
                self._listed[key] = format_w3c(lastmod)

    def listed_lastmod(self, url: str) -> str | None:
        with self._lock:
            return self._listed.get(url)

    def count_into(self, stats: FollowStats) -> None:
        """Count this read's hits (those so far, and the later ones) in ``stats``."""
        with self._lock:
            self._stats = stats
            stats.cache_hits = self.hits

    def _hit(self, *, unrequested: bool) -> None:
        with self._lock:
            self.hits += 1
            self.unrequested += unrequested
            if self._stats is not None:
                self._stats.cache_hits += 1
        progress.current().cache_hit()

    # --- the transport ----------------------------------------------------------------------

    def transport(self, network: httpx.BaseTransport) -> httpx.BaseTransport:
        """``network`` behind the cache; closing it closes this transport's databases."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            if not os.access(self.directory, os.W_OK | os.X_OK):
                raise PermissionError("not writable")
        except OSError as exc:
            reason = exc.strerror or str(exc)
            where = str(self.directory)
            raise SitemapError(f"cannot use the cache folder ({reason})", source=where) from None
        for name in (DATABASE, LISTED_DATABASE):
            _check_database(self.directory / name)
        return _CacheTransport(self, network)


def _check_database(path: Path) -> None:
    """Refuse a cache file SQLite cannot open, in one line, before hishel meets it.

    hishel treats storage errors met while serving as cache misses and logs them with a
    traceback; a file that is not a database at all is the user's to fix.
    """
    try:
        db = sqlite3.connect(path, timeout=_BUSY_MS / 1000)
        try:
            db.execute("PRAGMA schema_version").fetchone()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise SitemapError(
            f"cannot use the cache ({path.name}: {exc}); delete it or choose another folder",
            source=str(path.parent),
        ) from None


def _key(url: str) -> str:
    """A URL as httpx will request it (so index locs and request URLs compare equal)."""
    try:
        return str(httpx.URL(url))
    except (httpx.InvalidURL, TypeError, ValueError):
        return url


class _ListedNotes:
    """The table of index lastmods per cached child URL (own SQLite file, WAL, one lock).

    A note not written again for :data:`NOTE_DAYS` days is dropped when a transport closes,
    so the table holds about the children read recently (a dropped note costs one
    conditional request, which writes it again).
    """

    def __init__(self, path: Path) -> None:
        self._path = path
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            db = sqlite3.connect(
                self._path, check_same_thread=False, isolation_level=None, timeout=_BUSY_MS / 1000
            )
            db.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(
                "CREATE TABLE IF NOT EXISTS listed"
                " (url TEXT PRIMARY KEY, lastmod TEXT NOT NULL, noted REAL NOT NULL)"
            )
            self._db = db
        return self._db

    def get(self, url: str) -> str | None:
        with self._lock:
            try:
                row = (
                    self._connect()
                    .execute("SELECT lastmod FROM listed WHERE url = ?", (url,))
                    .fetchone()
                )
            except sqlite3.Error:
                return None  # a note that cannot be read means: ask the origin
        return None if row is None else str(row[0])

    def put(self, url: str, lastmod: str) -> None:
        # Without the note the next run revalidates: slower, never wrong.
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._connect().execute(
                "INSERT OR REPLACE INTO listed (url, lastmod, noted) VALUES (?, ?, ?)",
                (url, lastmod, time.time()),
            )

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute(
                        "DELETE FROM listed WHERE noted < ?", (time.time() - NOTE_DAYS * 86400,)
                    )
                self._db.close()
                self._db = None


def _storage(cache: HttpCache) -> SqliteStorage:
    return SqliteStorage(database_path=cache.directory / DATABASE, max_size=cache.max_bytes)


class _Completed(httpx.SyncByteStream):
    """A response stream that calls ``done`` once it has been read to its end."""

    def __init__(self, inner: Any, done: Callable[[], None]) -> None:
        self._inner = inner
        self._done = done

    def __iter__(self) -> Iterator[bytes]:
        yield from self._inner
        self._done()

    def close(self) -> None:
        self._inner.close()


class _CacheTransport(httpx.BaseTransport):
    """hishel's transport, told per request whether to revalidate or to trust the index."""

    def __init__(self, cache: HttpCache, network: httpx.BaseTransport) -> None:
        self.cache = cache
        self._storage = _storage(cache)
        self._hishel = HishelTransport(
            next_transport=network, storage=self._storage, rfc=CacheOptions(shared=False)
        )
        self._trusting = CacheOptions(shared=False, allow_stale=True)
        self._notes = _ListedNotes(cache.directory / LISTED_DATABASE)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        cache, url = self.cache, str(request.url)
        # Our own key, so that we can find the entries of a URL (hishel also checks the
        # stored request's URL before reusing one).
        key = hashlib.sha256(f"sitemapconv {url}".encode("utf-8", "surrogatepass")).hexdigest()
        listed = cache.listed_lastmod(url)
        trusted = (
            listed is not None and cache.trust_index_lastmod and self._notes.get(url) == listed
        )
        caching: dict[str, Any] = {"key": key}
        if trusted:
            caching["rfc"] = self._trusting
        else:
            request.headers["Cache-Control"] = "no-cache"
        request.extensions = {**request.extensions, "caching": caching}
        response = self._hishel.handle_request(request)
        status = response.extensions.get("caching") or {}
        if status.get("from_cache"):
            cache._hit(unrequested=not status.get("revalidated"))
        if status.get("stored"):
            # hishel 2.0.0 keeps the replaced copy when a conditional request gets a full
            # response (NeedRevalidation.next invalidates all candidates but the last one,
            # and the new response is stored under a new id), and picks between copies by
            # their Date header, to the second: the old body could be served again. The new
            # entry stays hidden until its body is complete, so what is found now is old.
            for entry in self._storage.get_entries(key):
                self._storage.remove_entry(entry.id)
        if listed is not None and (status.get("stored") or status.get("from_cache")):
            # Noted once the body has been read whole, so a note always describes a
            # complete stored copy.
            note = listed
            response.stream = _Completed(response.stream, lambda: self._notes.put(url, note))
        return response

    def close(self) -> None:
        try:
            self._hishel.close()
        finally:
            self._notes.close()


class _ThreadedStream(httpx.AsyncByteStream):
    """A sync response body read chunk by chunk in worker threads."""

    def __init__(self, response: httpx.Response) -> None:
        self._response = response
        self._chunks = iter(response.stream)  # type: ignore[arg-type]

    async def __aiter__(self) -> AsyncIterator[bytes]:
        while True:
            chunk = await asyncio.to_thread(next, self._chunks, None)
            if chunk is None:
                return
            yield chunk

    async def aclose(self) -> None:
        await asyncio.to_thread(self._response.close)


class _ThreadedTransport(httpx.AsyncBaseTransport):
    """The sync cache transport, driven from asyncio through worker threads.

    hishel's async storage needs the ``anysqlite`` package, which sitemapconv does not
    depend on; SQLite itself is synchronous anyway, so the sync transport (and its sync
    connection pool) runs in ``asyncio.to_thread``, one call per request and per chunk.
    """

    def __init__(self, sync: httpx.BaseTransport) -> None:
        self._sync = sync

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # A GET has no body: its request stream is httpx's ByteStream, sync and async at once.
        response = await asyncio.to_thread(self._sync.handle_request, request)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_ThreadedStream(response),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await asyncio.to_thread(self._sync.close)


# --- hooks for the door (_door.make_transport) and following ----------------------------


def cached_transport(options: ReadOptions, inner: httpx.BaseTransport) -> httpx.BaseTransport:
    """The door's guarded transport ``inner``, behind the cache of ``options``.

    ``inner`` is required: the cache never opens connections of its own, so every request it
    lets through still passes the door's address check.
    """
    cache = HttpCache.for_options(options)
    assert cache is not None
    return cache.transport(inner)


def async_cached_transport(
    options: ReadOptions, inner: httpx.BaseTransport
) -> httpx.AsyncBaseTransport:
    """The async twin: the sync cache over ``inner``, run in worker threads."""
    return _ThreadedTransport(cached_transport(options, inner))


def for_following(options: ReadOptions) -> ReadOptions:
    """Options whose cache is one :class:`HttpCache` shared by the whole follow."""
    if options.cache is None or isinstance(options.cache, HttpCache):
        return options
    return replace(options, cache=HttpCache.for_options(options))


def child_locs(entries: Iterable[Entry], base: str | None, options: ReadOptions) -> Iterator[str]:
    """The locs of an index's entries, telling the cache each child's lastmod on the way."""
    cache = options.cache if isinstance(options.cache, HttpCache) else None
    for entry in entries:
        if cache is not None:
            try:
                url = urljoin(base, entry.loc) if base else entry.loc
            except ValueError:  # a malformed loc: following fails that child alone
                url = entry.loc
            cache.listed(url, entry.lastmod)
        yield entry.loc


def count_hits(options: ReadOptions, stats: FollowStats) -> None:
    """Count the cache hits of a follow in its stats."""
    if isinstance(options.cache, HttpCache):
        options.cache.count_into(stats)
