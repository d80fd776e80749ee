"""The policy of a follow: which children are read, in which order, and what is counted.

:class:`Scheduler` makes every decision of a follow and does no I/O (as httpx's models
decide without sending): the drivers (:mod:`.sync` with threads, :mod:`.async_driver` with
asyncio tasks, :mod:`.tasks` on a Dask cluster) do the fetching and parsing and report each
child's result back. So the rules below hold the same way for every driver.

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
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .. import _progress as progress
from .._door import Door, check_url
from .._model import Entry
from .._options import ReadOptions, emit_warning
from .._urls import is_http
from ..errors import SitemapError
from .locations import join
from .results import ChildKind, ChildResult, ChildSitemap, FollowStats


def include_filter(patterns: Sequence[str]) -> Callable[[str], bool]:
    """A ``sitemap_filter`` that keeps child URLs matching any regex (``re.search``)."""
    compiled = [re.compile(p) for p in patterns]
    return lambda url: any(p.search(url) for p in compiled)


@dataclass(slots=True, eq=False)
class QueuedChild:
    """A child in output order; ``handle`` is the driver's future or task once started
    (``True`` while reserved by :meth:`Scheduler.to_start`)."""

    child: ChildSitemap
    handle: Any = None


def _busy(handle: Any) -> bool:
    """True for a started child whose download is not over (a reserved one included)."""
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
        self._top_children = top_children
        self._queue: deque[QueuedChild] = deque()
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

    def admit(self, url: str, parent: str | None, depth: int) -> ChildSitemap | None:
        """The listed child to read, or None (with a warning or a count) when it is skipped."""
        stats, where = self.stats, parent or self._top or "index"
        refusal = self.door.child_allowed(url, parent)
        if refusal is not None:
            stats.refused += 1
            self.warn(f"{where}: child sitemap {url} not followed: {refusal}")
            return None
        if is_http(url) or not url.lower().startswith("file:"):
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
        return ChildSitemap(url, parent, depth)

    def _next_top_child(self) -> ChildSitemap | None:
        for url in self._top_children:
            child = self.admit(join(self._top, url), self._top, 1)
            if child is not None:
                return child
        return None

    def in_flight(self) -> int:
        """Children started and not finished downloading (a handle with ``done()`` false)."""
        return sum(1 for queued in self._queue if _busy(queued.handle))

    def downloading(self) -> list[Any]:
        """The handles of the children whose download is not over: what a driver waits on
        (with ``FIRST_COMPLETED``) until the head's is done, starting more as places free."""
        return [q.handle for q in self._queue if q.handle is not True and _busy(q.handle)]

    def to_start(self) -> list[QueuedChild]:
        """The children to start now; the driver sets each one's ``handle``.

        Up to ``concurrency`` downloads run at once, also while the head child is being
        read or awaited: a finished download frees its place at once, so one slow child
        does not stall the others. At most ``lookahead`` children wait, spooled, for their
        turn.
        """
        started: list[QueuedChild] = []
        running = self.in_flight()
        for queued in self._queue:
            if queued.handle is not None:
                continue
            if running >= self.concurrency and queued is not self._queue[0]:
                break
            queued.handle = True  # reserved: the driver replaces it with its own handle
            running += 1
            started.append(queued)
        while running < self.concurrency and len(self._queue) < self.lookahead:
            child = self._next_top_child()
            if child is None:
                break
            queued = QueuedChild(child, handle=True)
            self._queue.append(queued)
            running += 1
            started.append(queued)
        return started

    def head(self) -> QueuedChild | None:
        """The child whose entries come next, or None when all is done."""
        return self._queue[0] if self._queue else None

    def deliver(self, queued: QueuedChild, result: ChildResult) -> list[Entry]:
        """Account for the head child's result; returns its entries, in order."""
        self._queue.popleft()
        for message in result.warnings:
            self.warn(message)
        stats, url = self.stats, queued.child.url
        shown = progress.current()
        if result.kind in (ChildKind.FAILED, ChildKind.REFUSED):
            shown.sitemap_failed(url)
            if result.kind is ChildKind.FAILED:
                stats.failed += 1
            else:
                stats.refused += 1
            stats.failures.append((url, result.reason))
            verb = result.kind.value
            self.warn(f"{url}: child sitemap {verb}: {result.reason}; going on with the others")
            return []
        stats.sitemaps += 1
        shown.sitemap_fetched(url)
        if result.kind is ChildKind.INDEX:
            stats.indexes += 1
            self.warn(
                f"{url}: an index listed by {queued.child.parent} lists further sitemaps "
                "(nested indexes break the protocol; following them anyway)"
            )
            depth, base = queued.child.depth + 1, result.base or url
            admitted = [self.admit(c, base, depth) for c in result.children]
            self._queue.extendleft(reversed([QueuedChild(c) for c in admitted if c is not None]))
            return []
        stats.entries += len(result.entries)
        return result.entries

    def child_failed(self, queued: QueuedChild, reason: str, *, delivered: bool) -> None:
        """A child that broke while it was being read (after :meth:`deliver` took it)."""
        stats, url = self.stats, queued.child.url
        stats.failed += 1
        stats.failures.append((url, reason))
        progress.current().sitemap_failed(url)
        kept = "; the entries before the failure were kept" if delivered else ""
        self.warn(f"{url}: child sitemap failed: {reason}{kept}; going on with the others")

    def pending(self) -> list[QueuedChild]:
        """The children queued or started but not delivered (for clean-up)."""
        return list(self._queue)

    def finish(self) -> None:
        """One summary warning when anything went wrong."""
        stats = self.stats
        if stats.failed or stats.refused or stats.not_followed:
            self.warn(f"{self._top or 'index'}: following done: {stats.summary()}")
