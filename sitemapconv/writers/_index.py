"""The ``index`` writer: a sitemaps.org ``<sitemapindex>``, one ``<sitemap>`` per entry.

Each entry's ``loc`` is a child sitemap's URL and its ``lastmod`` that file's last change.
An index has no extension namespaces, so unlike the urlset writer it streams straight to the
output. Fields an index cannot hold (changefreq, priority, the extensions, the feed fields
title, summary, id and published) are dropped with one summary warning naming them. An index
never lists another index (sitemaps.org protocol, "Using Sitemap index files"); that is the
caller's data, so it is not checked here. Loc rules and limits are those of the urlset writer.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import BinaryIO

from .._dates import format_w3c
from .._limits import check_limits, warn_written
from .._model import Entry
from .._xml import SITEMAP_NS, XML_DECLARATION
from .._xmltext import escape
from . import WriteContext, Writer
from ._formatting import ValueFormatter
from ._losses import feed_fields

INDEX_OPEN = f'{XML_DECLARATION}<sitemapindex xmlns="{SITEMAP_NS}">\n'.encode()
INDEX_CLOSE = b"</sitemapindex>\n"
_BATCH = 1024


#: Every name :func:`dropped_fields` can give: once all were seen, checking can stop.
DROPPABLE = frozenset(
    (
        "changefreq",
        "priority",
        "images",
        "videos",
        "news",
        "alternates",
        "mobile",
        "title",
        "summary",
        "id",
        "published",
    )
)


def dropped_fields(entry: Entry) -> list[str]:
    """The fields of ``entry`` that an index (or a text list) cannot express.

    ``id`` and ``published`` count only when they say something ``loc`` and ``lastmod`` do not.
    """
    names = []
    if entry.changefreq is not None:
        names.append("changefreq")
    if entry.priority is not None:
        names.append("priority")
    if entry.images or entry.videos or entry.news or entry.alternates or entry.mobile:
        names.extend(
            name
            for name, value in (
                ("images", entry.images),
                ("videos", entry.videos),
                ("news", entry.news),
                ("alternates", entry.alternates),
                ("mobile", entry.mobile),
            )
            if value
        )
    names.extend(feed_fields(entry))
    return names


class IndexWriter(Writer):
    """Writes entries as a ``<sitemapindex>``."""

    name = "index"
    aliases = ("sitemapindex",)
    extensions = ()
    media_type = "application/xml"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        max_urls, max_bytes = check_limits(ctx.options, ctx.dest)
        values = ValueFormatter(ctx)
        date_only = ctx.options.date_only
        lost: set[str] = set()
        count = 0
        size = len(INDEX_OPEN) + len(INDEX_CLOSE)
        batch: list[str] = []
        # The start tag waits for the first entry written, so that an output from which
        # every entry was dropped is refused with nothing written (ValueFormatter.finish).
        opened = False
        for entry in entries:
            loc = values.loc(entry.loc)
            if loc is None:
                continue
            text = f"  <sitemap>\n    <loc>{escape(loc)}</loc>\n"
            if isinstance(entry.lastmod, _dt.date):
                text += f"    <lastmod>{format_w3c(entry.lastmod, date_only=date_only)}</lastmod>\n"
            batch.append(text + "  </sitemap>\n")
            count += 1
            if len(lost) < len(DROPPABLE):
                lost.update(dropped_fields(entry))
            if len(batch) >= _BATCH:
                if not opened:
                    opened = True
                    out.write(INDEX_OPEN)
                size += self._flush(batch, out)
        values.finish(count, self.name)
        if not opened:
            out.write(INDEX_OPEN)
        size += self._flush(batch, out)
        out.write(INDEX_CLOSE)
        if lost:
            ctx.warn_once(
                "index-dropped",
                f"a sitemap index holds only loc and lastmod: dropped {', '.join(sorted(lost))}",
            )
        warn_written(
            ctx.warn,
            count,
            size,
            max_urls,
            max_bytes,
            empty="no sitemaps to write: the index is empty (the XSD wants at least one)",
            noun="sitemaps",
            hint="an index must not list other indexes, so use fewer, bigger sitemaps",
        )
        return count

    @staticmethod
    def _flush(batch: list[str], out: BinaryIO) -> int:
        if not batch:
            return 0
        data = "".join(batch).encode()
        batch.clear()
        out.write(data)
        return len(data)
