"""Reader for sitemaps.org ``<urlset>`` documents, Google extensions included.

One :class:`~sitemapconv._model.Entry` per ``<url>``, streamed: memory does not grow with the
number of URLs. Children are accepted in any order. ``loc`` is stripped (entities decoded, CDATA
accepted); a ``<url>`` without one is skipped with a warning, and locs that are not absolute
http(s) URLs are kept (resolved when the document has an http(s) location) and reported in
one warning per document (:class:`~._sitemap_stream.RelativeLocs`). ``lastmod`` goes through
:func:`~sitemapconv._dates.parse_w3c`; ``changefreq`` is lower-cased; ``priority`` accepts a
decimal comma. A value that cannot be used becomes None with a warning giving it, and reading
goes on. The loop is written out flat on purpose: it is the hot path of every conversion
(see ``tests/bench/bench_sitemap_reader.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import BinaryIO, ClassVar

from lxml import etree

from .._dates import parse_w3c
from .._head import Head
from .._model import CHANGEFREQS, Alternate, Entry, Image, News, Video, When
from .._urls import WEB_PREFIXES
from . import ReadContext, Reader
from ._extensions import (
    EXTENSION_TAGS,
    IMAGE,
    LINK,
    MOBILE,
    NEWS,
    VIDEO,
    read_image,
    read_link,
    read_news,
    read_video,
)
from ._sitemap_stream import (
    FREE_EVERY,
    ItemStream,
    RelativeLocs,
    free_before,
    new_entry,
    sniff_sitemap,
)

LOC, LASTMOD, CHANGEFREQ, PRIORITY = 1, 2, 3, 4
_CORE = {"loc": LOC, "lastmod": LASTMOD, "changefreq": CHANGEFREQ, "priority": PRIORITY}
#: changefreq texts already in canonical form, looked up before any stripping or lowering.
_EXACT_FREQS = {freq: freq for freq in CHANGEFREQS}
#: The protocol wants a loc shorter than this; longer ones are kept, with a warning.
_MAX_LOC = 2048
#: How many distinct lastmod texts one document remembers parsed (then it starts afresh).
_DATE_CACHE = 4096


class SitemapReader(Reader):
    """``xml``: the sitemaps.org urlset (also the old Google 0.84/0.9 namespaces)."""

    name = "xml"
    aliases: ClassVar[tuple[str, ...]] = ("sitemap", "urlset")
    mimetypes: ClassVar[tuple[str, ...]] = ("application/xml", "text/xml")

    @classmethod
    def sniff(cls, head: Head) -> float:
        return sniff_sitemap(head, "urlset")

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        items = ItemStream(stream, ctx, "urlset", "url")
        kinds = items.tags(_CORE)
        kinds.update(EXTENSION_TAGS)
        sitemap = ctx.origin
        warn = ctx.warn
        relative = RelativeLocs(ctx)
        check_loc = relative.check
        parse_date = parse_w3c
        from_iso = datetime.fromisoformat
        web = WEB_PREFIXES
        make = new_entry
        # Sitemaps repeat their lastmod values a lot; dates are immutable, so share them.
        seen_dates: dict[str, When] = {}
        freqs = _EXACT_FREQS
        # The item loop is ItemStream.complete_items written out: one generator layer less
        # per <url> on the hot path of every conversion (about 5% of the read time).
        source = items.input
        count = 0

        try:
            for _, el in items.events:
                loc = lastmod = changefreq = priority = None
                extensions: list[etree._Element] | None = None
                for child in el:
                    kind = kinds.get(child.tag)
                    if kind is None:
                        continue
                    if kind == LOC:
                        loc = child.text
                    elif kind == LASTMOD:
                        lastmod = child.text or ""
                    elif kind == CHANGEFREQ:
                        changefreq = child.text or ""
                    elif kind == PRIORITY:
                        priority = child.text or ""
                    elif extensions is None:
                        extensions = [child]
                    else:
                        extensions.append(child)
                if source.drained and items.incomplete(el):
                    pass
                elif loc is None or not (loc := loc.strip()):
                    warn(f"line {el.sourceline}: <url> without <loc> skipped")
                else:
                    if not loc.startswith(web):  # RelativeLocs.check does the full is_http
                        loc = check_loc(loc, el.sourceline)
                    if len(loc) >= _MAX_LOC:
                        warn(f"{loc[:80]}...: <loc> has {len(loc):,} characters (limit 2,047)")
                    when = None
                    if lastmod is not None:
                        when = seen_dates.get(lastmod)
                        if when is None:
                            # parse_w3c's first fast path, inlined: the usual full form
                            # "2024-05-01T10:00:00+02:00" straight through C, without the call
                            # (5% of the read time; tests/test_dates.py holds them equal).
                            if (
                                len(lastmod) == 25
                                and lastmod[10] == "T"
                                and lastmod[22] == ":"
                                and lastmod[19] in "+-"
                                and lastmod[19:] != "-00:00"
                            ):
                                try:
                                    when = from_iso(lastmod)
                                except ValueError:
                                    when = parse_date(lastmod)
                            else:
                                when = parse_date(lastmod)
                            if when is None:
                                warn(f"{loc}: invalid lastmod {lastmod.strip()!r} ignored")
                            else:
                                if len(seen_dates) >= _DATE_CACHE:
                                    seen_dates.clear()
                                seen_dates[lastmod] = when
                    if changefreq is not None:
                        freq = freqs.get(changefreq)
                        if freq is None:
                            freq = changefreq.strip().lower()
                            if freq not in CHANGEFREQS:
                                warn(f"{loc}: unknown changefreq {freq!r} ignored")
                                freq = None
                        changefreq = freq
                    value = None
                    if priority is not None:
                        try:
                            value = float(priority)
                        except ValueError:
                            try:
                                value = float(priority.replace(",", "."))
                            except ValueError:
                                value = None
                        if value is None or not 0.0 <= value <= 1.0:
                            warn(f"{loc}: invalid priority {priority.strip()!r} ignored")
                            value = None
                    if extensions is None:
                        yield make(loc, when, changefreq, value, sitemap)
                    else:
                        yield _with_extensions(
                            make(loc, when, changefreq, value, sitemap),
                            extensions,
                            kinds,
                            ctx,
                        )
                count += 1
                if not count % FREE_EVERY:
                    free_before(el)
        except etree.XMLSyntaxError as exc:
            items.fail(exc)
        items.finish()
        relative.finish()


def _with_extensions(
    entry: Entry, elements: list[etree._Element], kinds: dict[str, int], ctx: ReadContext
) -> Entry:
    """Fill an entry's extension fields; lists are built only for what is present."""
    images: list[Image] = []
    videos: list[Video] = []
    alternates: list[Alternate] = []
    news: News | None = None

    def warn(message: str) -> None:
        ctx.warn(f"{entry.loc}: {message}")

    for element in elements:
        kind = kinds[element.tag]
        if kind == IMAGE:
            image = read_image(element, warn)
            if image is not None:
                images.append(image)
        elif kind == VIDEO:
            videos.append(read_video(element, warn))
        elif kind == NEWS:
            if news is None:
                news = read_news(element, warn)
            else:
                warn("more than one <news:news>; only the first is kept")
        elif kind == LINK:
            alternate = read_link(element, warn)
            if alternate is not None:
                alternates.append(alternate)
        elif kind == MOBILE:
            entry.mobile = True
    if images:
        entry.images = images
    if videos:
        entry.videos = videos
    if alternates:
        entry.alternates = alternates
    entry.news = news
    return entry
