"""Reader for sitemaps.org ``<sitemapindex>`` documents.

One :class:`~sitemapconv._model.Entry` per child ``<sitemap>``: its ``loc`` (the child
sitemap's URL) and ``lastmod`` (when that file changed). Following the children is not this
reader's job (see :mod:`sitemapconv._follow`). Same tolerance as the urlset reader, whose
machinery it shares (:mod:`._sitemap_stream`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, ClassVar

from .._dates import parse_w3c
from .._head import Head
from .._model import Entry
from . import ReadContext, Reader
from ._sitemap_stream import ItemStream, RelativeLocs, sniff_sitemap

_LOC, _LASTMOD = 1, 2


class IndexReader(Reader):
    """``index``: the sitemaps.org sitemap index."""

    name = "index"
    aliases: ClassVar[tuple[str, ...]] = ("sitemapindex",)
    mimetypes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def sniff(cls, head: Head) -> float:
        return sniff_sitemap(head, "sitemapindex")

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        items = ItemStream(stream, ctx, "sitemapindex", "sitemap")
        kinds = items.tags({"loc": _LOC, "lastmod": _LASTMOD})
        sitemap = ctx.origin
        relative = RelativeLocs(ctx)
        # Following resolves relative children against the index's own location itself
        # (sitemapconv._follow): "kept as written" would not be true then.
        relative.quiet = ctx.options.follow
        for el in items.complete_items():
            loc = lastmod = None
            for child in el:
                kind = kinds.get(child.tag)
                if kind == _LOC:
                    loc = child.text
                elif kind == _LASTMOD:
                    lastmod = child.text or ""
            if loc is None or not (loc := loc.strip()):
                ctx.warn(f"line {el.sourceline}: <sitemap> without <loc> skipped")
            else:
                loc = relative.check(loc, el.sourceline)
                when = None
                if lastmod is not None:
                    when = parse_w3c(lastmod)
                    if when is None:
                        ctx.warn(f"{loc}: invalid lastmod {lastmod.strip()!r} ignored")
                yield Entry(loc, when, sitemap=sitemap)
        relative.finish()
