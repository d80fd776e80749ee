"""The threaded driver: ``read(source, follow=True)``.

A thread pool of ``options.concurrency`` workers (default 8, down to 1) shares one httpx
client and only *downloads* web children, each into a spool (:mod:`sitemapconv._spool`). The
caller parses every child streaming, in index order, when its turn comes
(:func:`.stream_child`); local children are simply opened then. So entries come out in index
order and memory stays flat however large the children are: a 1,000,000-URL index reads in
the memory of one entry. The top index of a followed URL is spooled before any child is
fetched, so a slow consumer never holds the index's server connection open.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

from .. import _progress as progress
from .._door import Door
from .._model import Document, Entry
from .._open import open_document
from .._options import ReadOptions
from .._source import Source
from .._spool import CHILD_SPOOL_MEMORY, spool_copy
from .._urls import is_http
from .children import download_child, stream_child
from .locations import document_location
from .policy import QueuedChild, Scheduler
from .results import ChildDownload, DownloadKind, FollowedDocument, FollowStats

if TYPE_CHECKING:
    from .._fetch import Fetcher


class NamedStream(io.RawIOBase):
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


def spool_top(body: BinaryIO, close: Callable[[], None]) -> BinaryIO:
    """The whole of a fetched top document, spooled under its URL, the connection closed."""
    spooled = spool_copy(body, CHILD_SPOOL_MEMORY, close=close)
    return NamedStream(spooled, getattr(body, "name", None) or "<stream>")  # type: ignore[return-value]


def _open_top(
    source: Source, format: str | None, options: ReadOptions, fetcher: Fetcher | None
) -> tuple[Document, str | None]:
    """Open the top document (through the shared client when it is a URL) and its location."""
    if fetcher is not None and isinstance(source, str):
        body, final, close = fetcher.open(source)
        spooled = spool_top(body, close)
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
    from .._fetch import Fetcher  # imports httpx: only when a URL is read

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
    from .._cache import child_locs, count_hits, for_following  # imports httpx
    from .._fetch import Fetcher

    options = for_following(options)
    is_url = isinstance(source, str) and is_http(source)
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
    from .._fetch import Fetcher

    pool = ThreadPoolExecutor(max_workers=sched.concurrency, thread_name_prefix="sitemapconv")
    completed = False

    def start() -> None:
        nonlocal fetcher
        for queued in sched.to_start():
            child = queued.child
            if fetcher is None and is_http(child.url):
                fetcher = Fetcher(options, door=sched.door)  # local index, remote children
            if is_http(child.url):
                queued.handle = pool.submit(
                    progress.carried(download_child), child, options, fetcher, sched.guard
                )
            else:
                queued.handle = ChildDownload(DownloadKind.LOCAL)

    try:
        while True:
            start()
            head = sched.head()
            if head is None:
                break
            handle = head.handle
            while isinstance(handle, Future) and not handle.done():
                # Wait for the head, starting the next child whenever any download ends.
                wait(sched.downloading(), return_when=FIRST_COMPLETED)
                start()
            download = handle if isinstance(handle, ChildDownload) else handle.result()
            yield from stream_child(sched, head, download, options)
        completed = True
        sched.finish()
    finally:
        pool.shutdown(wait=completed, cancel_futures=True)
        for queued in sched.pending():
            _discard(queued)
        top.close()
        if fetcher is not None:
            fetcher.close()


def _discard(queued: QueuedChild) -> None:
    """Close the spooled body of a child that was (or is being) downloaded but never read."""
    handle = queued.handle
    if isinstance(handle, Future):
        handle.add_done_callback(_close_download)


def _close_download(future: Future[ChildDownload]) -> None:
    if not future.cancelled() and future.exception() is None:
        body = future.result().body
        if body is not None:
            body.close()
