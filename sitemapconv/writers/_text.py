"""The ``txt`` writer: one percent-encoded URL per line (sitemaps.org protocol,
"Text file").

UTF-8, ``\\n`` line ends, a trailing newline, and nothing else: no header, no comments and
no XML escaping. A URL never spans lines: tabs and line breaks inside it are removed, as
URL parsers do (WHATWG URL, :func:`urllib.parse.urlsplit`).
Everything besides the URL (lastmod, changefreq, priority, extensions, feed fields) is
dropped, reported in one warning at the end that names the fields actually lost. Loc rules
and limits are those of the urlset writer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import BinaryIO

from .._limits import check_limits, warn_written
from .._model import Entry
from . import WriteContext, Writer
from ._formatting import ValueFormatter
from ._index import DROPPABLE, dropped_fields

_BATCH = 4096


class TextWriter(Writer):
    """Writes the entries' URLs, one per line."""

    name = "txt"
    aliases = ("text",)
    extensions = (".txt",)
    media_type = "text/plain"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        max_urls, max_bytes = check_limits(ctx.options, ctx.dest)
        values = ValueFormatter(ctx)
        lost: set[str] = set()
        count = size = 0
        batch: list[str] = []
        for entry in entries:
            loc = values.loc(entry.loc)
            if loc is None:
                continue
            batch.append(loc)
            count += 1
            if len(lost) <= len(DROPPABLE):
                if entry.lastmod is not None:
                    lost.add("lastmod")
                lost.update(dropped_fields(entry))
            if len(batch) >= _BATCH:
                size += self._flush(batch, out)
        values.finish(count, self.name)
        size += self._flush(batch, out)
        if lost:
            ctx.warn_once(
                "text-dropped",
                f"a text sitemap holds only URLs: dropped {', '.join(sorted(lost))}",
            )
        warn_written(
            ctx.warn,
            count,
            size,
            max_urls,
            max_bytes,
            empty="no URLs to write: the text file is empty",
            hint="split the list, or write XML in parts",
        )
        return count

    @staticmethod
    def _flush(batch: list[str], out: BinaryIO) -> int:
        if not batch:
            return 0
        data = ("\n".join(batch) + "\n").encode()
        batch.clear()
        out.write(data)
        return len(data)
