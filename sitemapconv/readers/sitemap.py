"""Minimal urlset reader (placeholder; the full reader replaces it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, ClassVar

from lxml import etree

from ..dates import parse_w3c
from ..detect import Head
from ..model import Entry
from . import ReadContext, Reader


class SitemapReader(Reader):
    name = "xml"
    aliases: ClassVar[tuple[str, ...]] = ("sitemap", "urlset")
    root = "urlset"
    item = "url"

    @classmethod
    def sniff(cls, head: Head) -> float:
        root = head.root
        return 1.0 if root is not None and root.local == cls.root else 0.0

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        for _, el in etree.iterparse(
            stream,
            events=("end",),
            tag=f"{{*}}{self.item}",
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
        ):
            values = {etree.QName(c).localname: (c.text or "").strip() for c in el}
            el.clear()
            loc = values.get("loc")
            if not loc:
                continue
            lastmod = parse_w3c(values["lastmod"]) if values.get("lastmod") else None
            yield Entry(loc=loc, lastmod=lastmod, sitemap=ctx.url or ctx.source)
