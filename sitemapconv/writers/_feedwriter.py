"""The template every XML feed writer (RSS 2.0, Atom 1.0, Atom 0.3) follows.

Resolve the feed head from the metadata, the options and the first entry; format each
entry into the :class:`~sitemapconv.writers._feedspool.FeedSpool`; refuse an output from
which every entry was dropped; then write the head (which may depend on every entry: the
newest date, the namespaces used), the spooled body and the closing tags; finally report
what the format could not carry. A writer supplies only :meth:`FeedWriter.item`,
:meth:`FeedWriter.head_xml` and :attr:`FeedWriter.closing`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import BinaryIO, ClassVar

from .._model import Entry, When
from . import WriteContext, Writer
from ._feedmeta import FeedHead, Newest, build_time, peek, resolve_head
from ._feedspool import FeedSpool
from ._losses import Losses


class FeedRun:
    """One run of a feed writer: its head, the build time, the newest entry date so far."""

    __slots__ = ("ctx", "head", "newest", "now")

    def __init__(self, head: FeedHead, ctx: WriteContext) -> None:
        self.head = head
        self.ctx = ctx
        #: The build time (``SOURCE_DATE_EPOCH`` when set), taken once per run.
        self.now: _dt.datetime = build_time()
        self.newest = Newest()
        self.newest.see(head.updated)

    @property
    def updated(self) -> When:
        """The feed's date: the newest seen, else the build time."""
        return self.newest.value if self.newest.value is not None else self.now


class FeedWriter(Writer):
    """Base class of the spooling XML feed writers; see the module docstring."""

    #: What follows the spooled body: the closing tags of the document.
    closing: ClassVar[str]

    def start(self, run: FeedRun) -> None:
        """Called once the head is resolved, before any entry (e.g. to warn about it)."""

    def item(self, entry: Entry, loc: str, spool: FeedSpool, losses: Losses, run: FeedRun) -> str:
        """The formatted entry; ``loc`` is its URL, already checked and XML-escaped."""
        raise NotImplementedError

    def head_xml(self, spool: FeedSpool, run: FeedRun) -> str:
        """The document up to the first entry: declaration, root, feed-level elements."""
        raise NotImplementedError

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        first, stream = peek(entries)
        run = FeedRun(resolve_head(ctx, first), ctx)
        self.start(run)
        losses = Losses(self.name)
        count = 0
        with FeedSpool(ctx) as spool:
            for entry in stream:
                loc = spool.loc(entry.loc)
                if loc is None:  # warned: the entry is skipped
                    continue
                spool.write(self.item(entry, loc, spool, losses, run))
                count += 1
            spool.finish(count, self.name)
            spool.emit(out, self.head_xml(spool, run), self.closing)
        losses.report(ctx)
        return count
