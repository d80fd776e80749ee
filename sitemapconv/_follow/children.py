"""Reading one child sitemap: downloading it, and parsing it into entries or child URLs.

Two ways, one for each kind of driver. :func:`download_child` only downloads (into a
spool) and :func:`stream_child` parses later, streaming, when the child's turn comes: the
threaded and async drivers use them, so no child's entries are ever held as a list.
:func:`fetch_child` and :func:`read_child` read a child completely in one go: the Dask
tasks use them, whose results travel between processes.

Nothing here raises for a bad child: every problem becomes a ``failed`` or ``refused``
result, so one bad child never stops the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

from .._door import Door, Refused
from .._model import Entry
from .._open import open_document
from .._options import ReadOptions
from .._source import shown_location
from .._spool import CHILD_SPOOL_MEMORY, spool_copy
from .._urls import is_http
from ..errors import SitemapError
from .locations import join
from .policy import QueuedChild, Scheduler
from .results import ChildDownload, ChildKind, ChildResult, ChildSitemap, DownloadKind

if TYPE_CHECKING:
    from .._fetch import Fetcher, Guard


def failure_reason(exc: Exception) -> str:
    """A failure as one line: a SitemapError's reason, else the exception's type and text."""
    return exc.reason if isinstance(exc, SitemapError) else f"{type(exc).__name__}: {exc}"


# --- read whole (the Dask tasks) ----------------------------------------------------------


def read_child(
    child: ChildSitemap, options: ReadOptions, opened: tuple[BinaryIO, str] | None = None
) -> ChildResult:
    """Read one child completely: from ``opened`` (body, final URL) or from its local path.

    A child that fails part-way contributes no entries: it is read whole before any of it
    is handed out, so its entries are never half-delivered.
    """
    warnings: list[str] = []
    opts = replace(options, on_warning=warnings.append, follow=False, base_url=None)
    try:
        if opened is not None:
            body, final = opened
            doc = open_document(body, None, replace(opts, base_url=final))
            base: str | None = final
        else:
            doc = open_document(child.url, None, opts)
            base = child.url
        with doc:
            if doc.format == "index":
                children = [join(base, e.loc) for e in doc]
                return ChildResult(ChildKind.INDEX, children=children, warnings=warnings, base=base)
            entries = list(doc)
    except Exception as exc:  # SitemapError, or a reader bug: the other children go on
        return ChildResult(ChildKind.FAILED, warnings=warnings, reason=failure_reason(exc))
    for entry in entries:
        entry.sitemap = shown_location(child.url)
    return ChildResult(ChildKind.PAGES, entries=entries, warnings=warnings, base=base)


def fetch_child(
    child: ChildSitemap,
    options: ReadOptions,
    fetcher: Fetcher | None,
    guard: Guard,
    *,
    door: Door | None = None,
) -> ChildResult:
    """Refuse, fetch and read one child completely, through ``door`` (the run's)."""
    if not is_http(child.url):
        return read_child(child, options)
    reason = guard(child.url)
    if reason is not None:
        return ChildResult(ChildKind.REFUSED, reason=reason)
    assert fetcher is not None
    try:
        body, final, close = fetcher.open(child.url, door=door)
    except Refused as exc:
        return ChildResult(ChildKind.REFUSED, reason=exc.reason)
    except SitemapError as exc:
        return ChildResult(ChildKind.FAILED, reason=exc.reason)
    try:
        return read_child(child, options, (body, final))
    finally:
        close()


# --- download now, parse in turn (the threaded and async drivers) -------------------------


def download_child(
    child: ChildSitemap, options: ReadOptions, fetcher: Fetcher | None, guard: Guard
) -> ChildDownload:
    """Thread worker: refuse or fetch one child's body into a spool."""
    if not is_http(child.url):
        return ChildDownload(DownloadKind.LOCAL)
    reason = guard(child.url)
    if reason is not None:
        return ChildDownload(DownloadKind.REFUSED, reason=reason)
    assert fetcher is not None
    try:
        body, final, close = fetcher.open(child.url)
        spooled = spool_copy(body, CHILD_SPOOL_MEMORY, close=close)
    except Refused as exc:
        return ChildDownload(DownloadKind.REFUSED, reason=exc.reason)
    except Exception as exc:  # SitemapError, or a transport oddity: the others go on
        return ChildDownload(DownloadKind.FAILED, reason=failure_reason(exc))
    return ChildDownload(DownloadKind.BODY, body=spooled, final=final)


def stream_child(
    sched: Scheduler, queued: QueuedChild, download: ChildDownload, options: ReadOptions
) -> Iterator[Entry]:
    """Parse one child in order: yield its pages, or queue a nested index's children.

    A child that fails after some of its entries were handed out keeps those entries; the
    failure is reported like any other, and the rest go on.
    """
    child = queued.child
    if download.kind in (DownloadKind.FAILED, DownloadKind.REFUSED):
        kind = ChildKind.FAILED if download.kind is DownloadKind.FAILED else ChildKind.REFUSED
        sched.deliver(queued, ChildResult(kind, reason=download.reason))
        return
    opts = replace(options, follow=False, base_url=None)
    count = 0
    taken = False  # whether sched.deliver took this child off the queue
    try:
        if download.kind is DownloadKind.BODY:
            assert download.body is not None
            base: str | None = download.final
            doc = open_document(download.body, None, replace(opts, base_url=base))
        else:
            base = child.url
            doc = open_document(child.url, None, opts)
        with doc:
            if doc.format == "index":
                from .._cache import child_locs  # imports httpx: not before an index is met

                locs = child_locs(doc, base, options)
                children = [join(base, loc) for loc in locs]
                taken = True
                sched.deliver(queued, ChildResult(ChildKind.INDEX, children=children, base=base))
                return
            taken = True
            sched.deliver(queued, ChildResult(ChildKind.PAGES, base=base))
            for entry in doc:
                entry.sitemap = shown_location(child.url)
                count += 1
                yield entry
    except Exception as exc:  # SitemapError, or a reader bug: the other children go on
        if taken:
            sched.child_failed(queued, failure_reason(exc), delivered=count > 0)
        else:
            sched.deliver(queued, ChildResult(ChildKind.FAILED, reason=failure_reason(exc)))
    finally:
        sched.stats.entries += count
        if download.body is not None:
            download.body.close()
