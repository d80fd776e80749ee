"""Following sitemap indexes: the page entries of every child sitemap, recursively.

How children are fetched (the synchronous driver, :func:`read_followed`): a thread pool of
``options.concurrency`` workers (default 8, down to 1) shares one httpx client and only
*downloads* web children, each into a spooled temporary file. The caller parses every child
streaming, in index order, when its turn comes; local children are simply opened then. So
entries come out in index order and memory stays flat however large the children are.
The async driver (:mod:`sitemapconv._aio`) and the Dask tasks (:mod:`sitemapconv._scaleout`)
reuse :class:`Scheduler`, :func:`read_child` and :func:`fetch_child`, which read one child
completely.

Safety rules (sitemaps.org, and SSRF hygiene for services that read untrusted sitemaps) are
those of the run's :class:`~sitemapconv._door.Door`, the one place that owns them:

* A visited set comparing RFC 3986-normalised URLs: a sitemap listed twice, or listing
  itself in another spelling, is read once.
* Nested indexes are followed with a warning, down to ``options.max_depth`` levels below
  the top; at most ``options.max_sitemaps`` sitemaps are read in all (one budget per run).
* From a fetched (http) document only http(s) children are followed; a local index may
  also open local children (relative paths or ``file:`` URLs, resolved against its path).
  A malformed child URL fails that child alone, with a warning.
* With ``options.block_private`` (the default) a child on a loopback, private, link-local
  or otherwise non-public address is refused (checked on the address connected to),
  redirect hops included, unless the user's start URL resolved to an address of that class.
* The top index of a followed URL is spooled to disk before any child is fetched, so a
  slow consumer never holds the index's server connection open.

The scheduling (:class:`Scheduler`) knows no threads, so :mod:`sitemapconv._aio` drives the
same rules with asyncio tasks.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import urljoin, urlsplit

from . import _progress as progress
from ._door import Door, Refused, check_url
from ._model import Document, Entry
from ._options import ReadOptions, emit_warning
from ._source import Source, shown_location
from .errors import SitemapError

if TYPE_CHECKING:
    from ._fetch import Fetcher, Guard

_WEB = ("http", "https")


def include_filter(patterns: Sequence[str]) -> Callable[[str], bool]:
    """A ``sitemap_filter`` that keeps child URLs matching any regex (``re.search``)."""
    compiled = [re.compile(p) for p in patterns]
    return lambda url: any(p.search(url) for p in compiled)


# --- results and statistics ---------------------------------------------------------------


@dataclass(slots=True)
class FollowStats:
    """What following did: how many sitemaps were read, and which failed or were skipped."""

    sitemaps: int = 0
    indexes: int = 0
    entries: int = 0
    failed: int = 0
    refused: int = 0
    duplicates: int = 0
    filtered: int = 0
    not_followed: int = 0
    #: Sitemaps whose body came from the cache (``cache=``): after a 304, or unrequested.
    cache_hits: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"read {self.sitemaps} sitemap(s), {self.entries} entries"]
        for count, label in (
            (self.failed, "failed"),
            (self.refused, "refused"),
            (self.duplicates, "duplicate(s) skipped"),
            (self.filtered, "filtered out"),
            (self.not_followed, "not followed (limits)"),
            (self.cache_hits, "from the cache"),
        ):
            if count:
                parts.append(f"{count} {label}")
        return ", ".join(parts)


@dataclass(slots=True, eq=False)
class FollowedDocument(Document):
    """A Document whose entries come from following an index; ``stats`` fills as it streams."""

    stats: FollowStats = field(default_factory=FollowStats)


@dataclass(slots=True)
class Ref:
    """A child sitemap to read: its absolute URL, the index that listed it, its depth."""

    url: str
    parent: str | None
    depth: int


@dataclass(slots=True)
class Result:
    """A child read completely by a worker: pages, child URLs (a nested index), or failure."""

    kind: str  # "pages" | "index" | "failed" | "refused"
    entries: list[Entry] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reason: str = ""
    base: str | None = None


# --- reading one child --------------------------------------------------------------------


def is_web(url: str) -> bool:
    try:
        return urlsplit(url).scheme.lower() in _WEB
    except ValueError:
        return False


def join(base: str | None, loc: str) -> str:
    """``loc`` resolved against ``base``; a URL too malformed to resolve is kept as written
    (the door then fails that one child)."""
    if not base:
        return loc
    try:
        return urljoin(base, loc)
    except ValueError:
        return loc


def document_location(source: Source, options: ReadOptions) -> str | None:
    """The URL children are resolved against: base_url, else the path's ``file:`` URL."""
    if options.base_url:
        return options.base_url
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if text.lower().startswith("file:"):
            return text
        if text != "-" and not is_web(text):
            return Path(text).resolve().as_uri()
    return None


def read_child(
    ref: Ref, options: ReadOptions, opened: tuple[BinaryIO, str] | None = None
) -> Result:
    """Read one child completely: from ``opened`` (body, final URL) or from its local path.

    Every problem becomes a ``failed`` result; nothing raises, so one bad child never stops
    the others. A child that fails part-way contributes no entries: it is read whole before
    any of it is handed out, so its entries are never half-delivered.
    """
    from ._api import open_document

    warnings: list[str] = []
    opts = replace(options, on_warning=warnings.append, follow=False, base_url=None)
    try:
        if opened is not None:
            body, final = opened
            doc = open_document(body, None, replace(opts, base_url=final))
            base: str | None = final
        else:
            doc = open_document(ref.url, None, opts)
            base = ref.url
        with doc:
            if doc.format == "index":
                children = [join(base, e.loc) for e in doc]
                return Result("index", children=children, warnings=warnings, base=base)
            entries = list(doc)
    except SitemapError as exc:
        return Result("failed", warnings=warnings, reason=exc.reason)
    except Exception as exc:  # a reader bug must not stop the other children
        return Result("failed", warnings=warnings, reason=f"{type(exc).__name__}: {exc}")
    for entry in entries:
        entry.sitemap = shown_location(ref.url)
    return Result("pages", entries=entries, warnings=warnings, base=base)


def fetch_child(
    ref: Ref,
    options: ReadOptions,
    fetcher: Fetcher | None,
    guard: Guard,
    *,
    door: Door | None = None,
) -> Result:
    """Thread worker: refuse, fetch and read one child, through ``door`` (the run's)."""
    if not is_web(ref.url):
        return read_child(ref, options)
    reason = guard(ref.url)
    if reason is not None:
        return Result("refused", reason=reason)
    assert fetcher is not None
    try:
        body, final, close = fetcher.open(ref.url, door=door)
    except Refused as exc:
        return Result("refused", reason=exc.reason)
    except SitemapError as exc:
        return Result("failed", reason=exc.reason)
    try:
        return read_child(ref, options, (body, final))
    finally:
        close()


# --- scheduling ---------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class Slot:
    """A child in output order; ``handle`` is the driver's future or task once started."""

    ref: Ref
    handle: Any = None


def _busy(handle: Any) -> bool:
    """True for a started child whose download is not over (a reserved slot included)."""
    if handle is True:
        return True
    done = getattr(handle, "done", None)
    return callable(done) and not done()


class Scheduler:
    """The order, limits and bookkeeping of a follow, without any I/O of its own.

    A driver asks :meth:`to_start` which children to start, waits for :meth:`head`'s
    handle, and passes the result to :meth:`deliver`, which returns the entries to hand out
    and queues a nested index's children in its place.
    """

    def __init__(
        self,
        options: ReadOptions,
        stats: FollowStats,
        start_url: str | None,
        top: str | None,
        top_children: Iterator[str],
        visited: set[str] | None = None,
        *,
        door: Door | None = None,
    ) -> None:
        self.options = options
        self.stats = stats
        self.start_url = start_url
        if door is None:  # a scheduler of its own (a Dask task): the top took one unit
            door = Door(options, start_url, visited=visited)
            door.budget.take()
        self.door = door
        self.visited = door.visited
        self._top = top
        self._refs = top_children
        self._queue: deque[Slot] = deque()
        self._limit_warned = False
        self.concurrency = max(1, options.concurrency)
        #: Children downloaded ahead of the one being read, at most (spooled meanwhile).
        self.lookahead = 4 * self.concurrency

    def warn(self, message: str) -> None:
        emit_warning(self.options.on_warning, message)

    def mark_visited(self, url: str) -> bool:
        """Record a sitemap as read; False when it already was (RFC 3986 normal forms)."""
        return self.door.visit(url)

    def guard(self, url: str) -> str | None:
        """The check before contact (scheme, well-formed, literal address; thread-safe).

        Host names are checked by the transport on the address it connects to.
        """
        return self.door.refuse(url)

    def admit(self, url: str, parent: str | None, depth: int) -> Ref | None:
        """A Ref for a listed child, or None (with a warning or a count) when it is skipped."""
        stats, where = self.stats, parent or self._top or "index"
        refusal = self.door.child_allowed(url, parent)
        if refusal is not None:
            stats.refused += 1
            self.warn(f"{where}: child sitemap {url} not followed: {refusal}")
            return None
        if is_web(url) or not url.lower().startswith("file:"):
            try:
                check_url(url)
            except SitemapError as exc:
                stats.failed += 1
                stats.failures.append((url, exc.reason))
                self.warn(f"{where}: child sitemap failed: {exc.reason}; going on with the others")
                return None
        if depth > self.options.max_depth:
            stats.not_followed += 1
            self.warn(
                f"{where}: child sitemap {url} not followed: deeper than max_depth "
                f"{self.options.max_depth}"
            )
            return None
        sitemap_filter = self.options.sitemap_filter
        if sitemap_filter is not None and not sitemap_filter(url):
            stats.filtered += 1
            return None
        if self.door.seen(url):
            stats.duplicates += 1
            return None
        if not self.door.budget.take():
            stats.not_followed += 1
            if not self._limit_warned:
                self._limit_warned = True
                self.warn(
                    f"{where}: stopped following: more than max_sitemaps "
                    f"{self.options.max_sitemaps} sitemaps"
                )
            return None
        self.mark_visited(url)
        return Ref(url, parent, depth)

    def _next_top(self) -> Ref | None:
        for url in self._refs:
            ref = self.admit(join(self._top, url), self._top, 1)
            if ref is not None:
                return ref
        return None

    def in_flight(self) -> int:
        """Children started and not finished downloading (a handle with ``done()`` false)."""
        return sum(1 for slot in self._queue if _busy(slot.handle))

    def to_start(self) -> list[Slot]:
        """The slots to start now; the driver sets each one's ``handle``.

        Up to ``concurrency`` downloads run at once, also while the head child is being
        read or awaited: a finished download frees its place at once, so one slow child
        does not stall the others. At most ``lookahead`` children wait, spooled, for their
        turn.
        """
        started: list[Slot] = []
        running = self.in_flight()
        for slot in self._queue:
            if slot.handle is not None:
                continue
            if running >= self.concurrency and slot is not self._queue[0]:
                break
            slot.handle = True  # reserved: the driver replaces it with its own handle
            running += 1
            started.append(slot)
        while running < self.concurrency and len(self._queue) < self.lookahead:
            ref = self._next_top()
            if ref is None:
                break
            slot = Slot(ref, handle=True)
            self._queue.append(slot)
            running += 1
            started.append(slot)
        return started

    def head(self) -> Slot | None:
        """The child whose entries come next, or None when all is done."""
        return self._queue[0] if self._queue else None

    def deliver(self, slot: Slot, result: Result) -> list[Entry]:
        """Account for the head child's result; returns its entries, in order."""
        self._queue.popleft()
        for message in result.warnings:
            self.warn(message)
        stats, url = self.stats, slot.ref.url
        shown = progress.current()
        if result.kind in ("failed", "refused"):
            shown.sitemap_failed(url)
            if result.kind == "failed":
                stats.failed += 1
            else:
                stats.refused += 1
            stats.failures.append((url, result.reason))
            verb = "failed" if result.kind == "failed" else "refused"
            self.warn(f"{url}: child sitemap {verb}: {result.reason}; going on with the others")
            return []
        stats.sitemaps += 1
        shown.sitemap_fetched(url)
        if result.kind == "index":
            stats.indexes += 1
            self.warn(
                f"{url}: an index listed by {slot.ref.parent} lists further sitemaps "
                "(nested indexes break the protocol; following them anyway)"
            )
            refs = [self.admit(c, result.base or url, slot.ref.depth + 1) for c in result.children]
            self._queue.extendleft(reversed([Slot(r) for r in refs if r is not None]))
            return []
        stats.entries += len(result.entries)
        return result.entries

    def child_failed(self, slot: Slot, reason: str, *, delivered: bool) -> None:
        """A child that broke while it was being read (after :meth:`deliver` took it)."""
        stats, url = self.stats, slot.ref.url
        stats.failed += 1
        stats.failures.append((url, reason))
        progress.current().sitemap_failed(url)
        kept = "; the entries before the failure were kept" if delivered else ""
        self.warn(f"{url}: child sitemap failed: {reason}{kept}; going on with the others")

    def pending(self) -> list[Slot]:
        """The children queued or started but not delivered (for clean-up)."""
        return list(self._queue)

    def finish(self) -> None:
        """One summary warning when anything went wrong."""
        stats = self.stats
        if stats.failed or stats.refused or stats.not_followed:
            self.warn(f"{self._top or 'index'}: following done: {stats.summary()}")


# --- the synchronous driver ---------------------------------------------------------------
#
# Memory is bounded by design: workers only *download* web children, each into a spooled
# temporary file (in memory up to SPOOL_IN_MEMORY bytes, then on disk), and every child is
# parsed streaming, in index order, by the consumer. So no child's entries are ever held
# as a list, whatever its size: a 1,000,000-URL index reads in the memory of one entry.
# Local children are not prefetched at all; they are opened when their turn comes.

SPOOL_IN_MEMORY = 1024 * 1024


@dataclass(slots=True)
class Download:
    """A child fetched by a worker: its spooled body and final URL, or why it failed."""

    kind: str  # "body" | "local" | "failed" | "refused"
    body: BinaryIO | None = None
    final: str | None = None
    reason: str = ""


def download_child(
    ref: Ref, options: ReadOptions, fetcher: Fetcher | None, guard: Guard
) -> Download:
    """Thread worker: refuse or fetch one child's body into a spooled temporary file."""
    if not is_web(ref.url):
        return Download("local")
    reason = guard(ref.url)
    if reason is not None:
        return Download("refused", reason=reason)
    assert fetcher is not None
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - handed on
    try:
        body, final, close = fetcher.open(ref.url)
        try:
            shutil.copyfileobj(body, spool, 64 * 1024)
        finally:
            close()
    except Refused as exc:
        spool.close()
        return Download("refused", reason=exc.reason)
    except SitemapError as exc:
        spool.close()
        return Download("failed", reason=exc.reason)
    except Exception as exc:  # a transport oddity must not stop the other children
        spool.close()
        return Download("failed", reason=f"{type(exc).__name__}: {exc}")
    spool.seek(0)
    return Download("body", body=spool, final=final)  # type: ignore[arg-type]


def stream_child(
    sched: Scheduler, slot: Slot, download: Download, options: ReadOptions
) -> Iterator[Entry]:
    """Parse one child in order: yield its pages, or queue a nested index's children.

    A child that fails after some of its entries were handed out keeps those entries; the
    failure is reported like any other, and the rest go on.
    """
    from ._api import open_document

    ref = slot.ref
    if download.kind in ("failed", "refused"):
        sched.deliver(slot, Result(download.kind, reason=download.reason))
        return
    opts = replace(options, follow=False, base_url=None)
    count = 0
    taken = False  # whether sched.deliver took this child off the queue
    try:
        if download.kind == "body":
            assert download.body is not None
            base: str | None = download.final
            doc = open_document(download.body, None, replace(opts, base_url=base))
        else:
            base = ref.url
            doc = open_document(ref.url, None, opts)
        with doc:
            if doc.format == "index":
                from ._cache import child_locs

                locs = child_locs(doc, base, options)
                children = [join(base, loc) for loc in locs]
                taken = True
                sched.deliver(slot, Result("index", children=children, base=base))
                return
            taken = True
            sched.deliver(slot, Result("pages", base=base))
            for entry in doc:
                entry.sitemap = shown_location(ref.url)
                count += 1
                yield entry
    except Exception as exc:  # SitemapError, or a reader bug: the other children go on
        reason = exc.reason if isinstance(exc, SitemapError) else f"{type(exc).__name__}: {exc}"
        if taken:
            sched.child_failed(slot, reason, delivered=count > 0)
        else:
            sched.deliver(slot, Result("failed", reason=reason))
    finally:
        sched.stats.entries += count
        if download.body is not None:
            download.body.close()


def spool_body(body: BinaryIO, close: Callable[[], None]) -> BinaryIO:
    """The whole of a fetched body in a spooled temporary file, the connection closed.

    The top index of a follow is read this way before its children are fetched: a server
    that drops slow readers (nginx's send timeout) never sees one, however slowly the
    consumer takes the entries.
    """
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # noqa: SIM115 - handed on
    try:
        shutil.copyfileobj(body, spool, 64 * 1024)
    except BaseException:
        spool.close()
        raise
    finally:
        close()
    spool.seek(0)
    return Named(spool, getattr(body, "name", None) or "<stream>")  # type: ignore[arg-type,return-value]


class Named(io.RawIOBase):
    """A binary stream under the name messages should use for it (the URL it came from)."""

    def __init__(self, inner: BinaryIO, name: str) -> None:
        self._inner = inner
        self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()


def _open_top(
    source: Source, format: str | None, options: ReadOptions, fetcher: Fetcher | None
) -> tuple[Document, str | None]:
    """Open the top document (through the shared client when it is a URL) and its location."""
    from ._api import open_document

    if fetcher is not None and isinstance(source, str):
        body, final, close = fetcher.open(source)
        spooled = spool_body(body, close)
        try:
            doc = open_document(
                spooled, format, replace(options, base_url=options.base_url or final)
            )
        except BaseException:
            spooled.close()
            raise
        doc._on_close = spooled.close
        return doc, options.base_url or final
    return open_document(source, format, options), document_location(source, options)


def open_through(url: str, format: str | None, options: ReadOptions, door: Door) -> Document:
    """Open one remote document (not followed) through ``door``, the run's policy."""
    from ._fetch import Fetcher

    fetcher = Fetcher(options, door=door)
    try:
        doc, _location = _open_top(url, format, options, fetcher)
    except BaseException:
        fetcher.close()
        raise
    close_doc = doc._on_close

    def close() -> None:
        try:
            if close_doc is not None:
                close_doc()
        finally:
            fetcher.close()

    doc._on_close = close
    return doc


def read_followed(
    source: Source,
    format: str | None,
    options: ReadOptions,
    *,
    visited: set[str] | None = None,
    door: Door | None = None,
) -> FollowedDocument:
    """Open ``source``; when it is an index, stream the page entries of all its children.

    ``door`` may be shared between several calls (discovery): its start decides which
    addresses are allowed, its visited set reads a sitemap reached twice once, and its
    budget counts every sitemap of the run. Without one, ``source`` is the start and the
    top takes one unit of a fresh budget. The top document's format is the result's
    ``format``.
    """
    from ._cache import child_locs, count_hits, for_following
    from ._fetch import Fetcher

    options = for_following(options)
    is_url = isinstance(source, str) and is_web(source)
    if door is None:
        door = Door(options, source if is_url else None, visited=visited)  # type: ignore[arg-type]
        door.budget.take()
    fetcher = Fetcher(options, door=door) if is_url else None
    try:
        top, location = _open_top(source, format, options, fetcher)
    except BaseException:
        if fetcher is not None:
            fetcher.close()
        raise
    stats = FollowStats()
    count_hits(options, stats)
    start_url = source if is_url else None
    assert start_url is None or isinstance(start_url, str)
    if top.format != "index":
        stats.sitemaps = 1

        def plain() -> Iterator[Entry]:
            try:
                for entry in top:
                    stats.entries += 1
                    yield entry
            finally:
                top.close()
                if fetcher is not None:
                    fetcher.close()

        return FollowedDocument(
            format=top.format, source=top.source, _entries=plain(), meta=top.meta, stats=stats
        )
    children = child_locs(top, location, options)
    sched = Scheduler(options, stats, start_url, location, children, door=door)
    sched.mark_visited(location or top.source)
    if isinstance(source, str) and is_url:
        sched.mark_visited(source)
    stats.sitemaps = 1
    return FollowedDocument(
        format=top.format,
        source=top.source,
        meta=top.meta,
        stats=stats,
        _entries=_drive(sched, top, fetcher, options),
    )


def _drive(
    sched: Scheduler, top: Document, fetcher: Fetcher | None, options: ReadOptions
) -> Iterator[Entry]:
    from ._fetch import Fetcher

    pool = ThreadPoolExecutor(max_workers=sched.concurrency, thread_name_prefix="sitemapconv")
    completed = False

    def start() -> None:
        nonlocal fetcher
        for slot in sched.to_start():
            if fetcher is None and is_web(slot.ref.url):
                fetcher = Fetcher(options, door=sched.door)  # local index, remote children
            if is_web(slot.ref.url):
                slot.handle = pool.submit(
                    progress.carried(download_child), slot.ref, options, fetcher, sched.guard
                )
            else:
                slot.handle = Download("local")

    try:
        while True:
            start()
            head = sched.head()
            if head is None:
                break
            handle = head.handle
            while isinstance(handle, Future) and not handle.done():
                # Wait for the head, starting the next child whenever any download ends.
                busy = [s.handle for s in sched.pending() if isinstance(s.handle, Future)]
                wait([h for h in busy if not h.done()], return_when=FIRST_COMPLETED)
                start()
            download = handle if isinstance(handle, Download) else handle.result()
            yield from stream_child(sched, head, download, options)
        completed = True
        sched.finish()
    finally:
        pool.shutdown(wait=completed, cancel_futures=True)
        for slot in sched.pending():
            _discard(slot)
        top.close()
        if fetcher is not None:
            fetcher.close()


def _discard(slot: Slot) -> None:
    """Close the spooled body of a child that was (or is being) downloaded but never read."""
    handle = slot.handle
    if isinstance(handle, Future):
        handle.add_done_callback(_close_download)


def _close_download(future: Future[Download]) -> None:
    if not future.cancelled() and future.exception() is None:
        body = future.result().body
        if body is not None:
            body.close()
