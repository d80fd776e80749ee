"""The work of one task of a scale-out read: one site's discovery, or one sitemap file.

These are plain functions over plain, picklable values (no dask here), so a cluster runs
them anywhere and :mod:`sitemapconv.cluster` only wires them into a graph. They call the
follow machinery (:func:`.children.read_child`, :func:`.children.fetch_child`,
:class:`.policy.Scheduler`) as it is, so the safety rules of ``read(url, follow=True)``
hold task by task.

Nothing here raises for bad input: a sitemap that cannot be fetched or read becomes one
*error record* (``loc`` None, ``error`` the reason, ``sitemap`` its URL), so one bad site
never fails the graph. Warnings go to ``options.on_warning`` (else the ``warnings``
module) in the process that runs the task.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._discover import discover
from .._door import Door, visit_key
from .._model import Entry
from .._open import open_document
from .._options import ReadOptions, emit_warning
from .._urls import is_http
from ..errors import SitemapError
from ..writers._tabular import ROW_KEYS, entry_row
from .children import failure_reason, fetch_child, read_child
from .policy import Scheduler
from .results import ChildKind, ChildResult, ChildSitemap, FollowStats

if TYPE_CHECKING:
    from .._fetch import Fetcher

#: One row of a scale-out read. Keys are :data:`COLUMNS`; see :mod:`sitemapconv.cluster`.
Record = dict[str, Any]

#: The row of ``-t jsonl`` (:func:`~sitemapconv.writers._tabular.entry_row`) plus the site
#: it was read for and, on a row standing for a failure, the reason.
COLUMNS: tuple[str, ...] = (*ROW_KEYS, "site", "error")


def entry_record(entry: Entry, site: str, sitemap: str | None = None) -> Record:
    """One entry's row: the jsonl object, ``site``, ``error`` None.

    ``sitemap`` (the file the entry came from) is ``entry.sitemap`` unless given.
    """
    row: Record = entry_row(entry)
    if sitemap is not None:
        row["sitemap"] = sitemap
    row["site"] = site
    row["error"] = None
    return row


def error_record(site: str, sitemap: str, message: str) -> Record:
    """The row standing for a sitemap (or a site) that could not be read.

    ``loc`` and every value is None (``mobile`` included: there is no entry), the list
    columns are empty, ``sitemap`` is the URL that failed and ``error`` the reason.
    """
    row: Record = dict.fromkeys(COLUMNS)
    row.update(images=[], videos=[], alternates=[], site=site, sitemap=sitemap, error=message)
    return row


def as_location(source: str) -> str:
    """An http(s) or ``file:`` URL as it is; a local path as its absolute ``file:`` URL.

    A ``file:`` location lets a local index open its local children (follow's rule), and
    means the same on every worker that shares the filesystem.
    """
    if is_http(source) or source.lower().startswith("file:"):
        return source
    return Path(source).resolve().as_uri()


#: HTTP clients kept per process: making one loads the CA bundle (~60 ms), more than a
#: small sitemap takes to fetch, so a worker reuses one across its tasks.
_FETCHERS: dict[tuple[Any, ...], Fetcher] = {}
_FETCHERS_KEPT = 4
#: Connections per cached client: enough for the threads of a worker sharing it.
_POOL = 32
_LOCK = threading.Lock()


def _http_key(options: ReadOptions) -> tuple[Any, ...]:
    """Every option :mod:`sitemapconv._fetch` reads; equal keys make equivalent fetchers."""
    o = options
    headers = tuple(sorted(o.headers.items()))
    return (o.timeout, o.connect_timeout, o.retries, o.backoff, o.max_retry_after,
            o.max_redirects, o.max_bytes, o.user_agent, headers, o.concurrency)  # fmt: skip


def shared_fetcher(options: ReadOptions) -> Fetcher:
    """This process's :class:`~sitemapconv._fetch.Fetcher` for these HTTP options.

    httpx clients are thread-safe; the pool is widened to ``_POOL`` connections so that the
    threads of one worker do not queue for a connection.
    """
    from .._fetch import Fetcher  # imports httpx

    key = _http_key(options)
    with _LOCK:
        fetcher = _FETCHERS.get(key)
        if fetcher is None:
            pool = max(options.concurrency, _POOL)
            fetcher = Fetcher(replace(options, concurrency=pool, on_warning=None))
            if len(_FETCHERS) >= _FETCHERS_KEPT:
                _FETCHERS.pop(next(iter(_FETCHERS))).close()
            _FETCHERS[key] = fetcher
        return fetcher


# --- discovery ----------------------------------------------------------------------------


def discover_site(site: str, options: ReadOptions) -> tuple[list[str], list[Record]]:
    """The sitemap URLs found for ``site``, or an error record when there are none."""
    try:
        found = discover(site, options=options)
    except Exception as exc:
        return [], [error_record(site, site, failure_reason(exc))]
    if not found:
        message = "no sitemap or feed found (robots.txt and well-known paths)"
        return [], [error_record(site, site, message)]
    return [f.url for f in found], []


# --- without following --------------------------------------------------------------------


def read_whole(site: str, source: str, options: ReadOptions) -> list[Record]:
    """Every entry of one document as it is (an index gives its child URLs), or one error.

    The document is read completely before any row is returned, so a file failing
    part-way gives its error record and no partial rows.
    """
    opts = replace(options, follow=False)
    try:
        if not is_http(source):
            with open_document(source, None, opts) as doc:
                return [entry_record(e, site, source) for e in doc]
        body, final, close = shared_fetcher(options).open(source, door=Door(options, site))
        try:
            with open_document(body, None, replace(opts, base_url=final)) as doc:
                return [entry_record(e, site, source) for e in doc]
        finally:
            close()
    except Exception as exc:
        return [error_record(site, source, failure_reason(exc))]


# --- the top of a followed read -----------------------------------------------------------


class TopKind(str, Enum):
    """What reading the top of a site gave (the values are the words of older code)."""

    PAGES = "pages"
    INDEX = "index"
    FAILED = "failed"
    #: A sitemap with too many rows to send back to the client: read again in the bag.
    LARGE = "large"


@dataclass(slots=True)
class TopRead:
    """What reading a top source gave: its rows, or (an index) its child URLs and location."""

    kind: TopKind
    records: list[Record] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    base: str | None = None


def read_top(site: str, source: str, options: ReadOptions) -> TopRead:
    """Read one source completely: an index gives its children, anything else its rows."""
    try:
        return _read_top(site, source, options)
    except Exception as exc:
        return TopRead(TopKind.FAILED, [error_record(site, source, failure_reason(exc))])


def _read_top(site: str, source: str, options: ReadOptions) -> TopRead:
    top = ChildSitemap(source, None, 0)
    if not is_http(source):
        result = read_child(top, options)
    else:
        try:
            body, final, close = shared_fetcher(options).open(source, door=Door(options, site))
        except SitemapError as exc:
            return TopRead(TopKind.FAILED, [error_record(site, source, exc.reason)])
        try:
            result = read_child(top, options, (body, final))
        finally:
            close()
    for message in result.warnings:
        emit_warning(options.on_warning, message)
    if result.kind is ChildKind.INDEX:
        return TopRead(TopKind.INDEX, children=result.children, base=result.base or source)
    if result.kind is not ChildKind.PAGES:
        return TopRead(TopKind.FAILED, [error_record(site, source, result.reason)])
    return TopRead(TopKind.PAGES, [entry_record(e, site) for e in result.entries])


#: A top with more rows than this is not sent back to the client to be put in the graph:
#: it is read again by a task of the returned bag.
KEEP_ROWS = 2000


def plan_top(site: str, source: str, options: ReadOptions) -> TopRead:
    """:func:`read_top` for the client's plan: what comes back is small.

    An index gives its children; a failure, or a sitemap of at most :data:`KEEP_ROWS`
    rows, its rows; a bigger sitemap only ``TopKind.LARGE``, so that its rows never travel
    through the client (:func:`read_large` reads it again, in the bag).
    """
    top = read_top(site, source, options)
    if top.kind is TopKind.PAGES and len(top.records) > KEEP_ROWS:
        return TopRead(TopKind.LARGE)
    return top


def read_large(site: str, source: str, options: ReadOptions) -> list[Record]:
    """The rows of a top that :func:`plan_top` found too big to keep: it is read again."""
    top = read_top(site, source, options)
    if top.kind is TopKind.INDEX:  # it changed between the two reads
        return [error_record(site, source, "became a sitemap index after it was planned")]
    return top.records


# --- one listed child ---------------------------------------------------------------------


@dataclass(slots=True)
class ChildTask:
    """A child sitemap admitted by the client: one task of the scale-out read."""

    site_no: int
    site: str
    start: str | None  # the URL the site's read started from (decides private hosts)
    url: str
    parent: str


class SiteVisited(set[str]):
    """A site's shared visited set (read-only) plus what this task adds to it.

    The shared set is the same object for every task of a site, so it is not copied per
    task; the task's own URL is left out of it so that the task may read itself.
    """

    def __init__(self, shared: frozenset[str], own: str) -> None:
        super().__init__()
        self._shared = shared
        self._own = own

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or (key != self._own and key in self._shared)


def read_listed(
    item: ChildTask, options: ReadOptions, visited: Mapping[int, frozenset[str]]
) -> list[Record]:
    """Read one child sitemap; a nested index is followed here, within this task.

    The child goes through a :class:`~sitemapconv._follow.policy.Scheduler` of its own as its one
    top-level child, so the guard, the depth limit and the dedup apply exactly as in
    ``read(follow=True)``. Every child that fails or is refused is one error record.
    """
    try:
        return _read_listed(item, options, visited)
    except Exception as exc:
        return [error_record(item.site, item.url, failure_reason(exc))]


def _read_listed(
    item: ChildTask, options: ReadOptions, visited: Mapping[int, frozenset[str]]
) -> list[Record]:
    seen = SiteVisited(visited.get(item.site_no, frozenset()), visit_key(item.url))
    sched = Scheduler(options, FollowStats(), item.start, item.parent, iter([item.url]), seen)
    records: list[Record] = []
    while True:
        for queued in sched.to_start():
            fetcher = shared_fetcher(options) if is_http(queued.child.url) else None
            queued.handle = fetch_child(
                queued.child, options, fetcher, sched.guard, door=sched.door
            )
        head = sched.head()
        if head is None:
            break
        result: ChildResult = head.handle
        entries = sched.deliver(head, result)
        if result.kind is ChildKind.FAILED:
            records.append(error_record(item.site, head.child.url, result.reason))
        elif result.kind is ChildKind.REFUSED:
            records.append(error_record(item.site, head.child.url, f"refused: {result.reason}"))
        records.extend(_records(entries, item.site))
    return records


def _records(entries: Iterable[Entry], site: str) -> list[Record]:
    return [entry_record(e, site) for e in entries]
