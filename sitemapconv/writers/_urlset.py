"""The ``xml`` writer: a sitemaps.org ``<urlset>`` with Google's extensions.

Output is UTF-8 with ``<?xml version="1.0" encoding="UTF-8"?>``, no BOM, ``\\n`` line ends,
two-space indentation and a trailing newline, and is byte-for-byte deterministic. Children
come in XSD order: ``loc, lastmod, changefreq, priority``, then image, video, news,
xhtml:link and mobile elements.

**Namespaces** are declared only when used, on the root element, with the fixed prefixes
``image video news xhtml mobile`` in that order. The root start tag comes first in the file
but namespace use is known only at the end, so the ``<url>`` elements are written to a
:class:`~sitemapconv._spool.SpooledBody` (constant memory) while
the used namespaces are tracked, and the header is written before the body is copied out.

**Speed:** strings are formatted directly rather than through lxml's serializer; the only
work per entry besides formatting is the checks that keep the output valid (see
:mod:`sitemapconv.writers._formatting`).

Entries that cannot be written (no loc, a relative loc, a loc over 2,048 characters) are
skipped with a warning. An empty urlset is written (it is a real thing, e.g. an empty news
sitemap) with a warning, since the XSD wants at least one ``<url>``. A file over the
protocol limits is written with a warning; to split, write to a path with ``split=True``
(:mod:`sitemapconv._split`).

**Feed fields** (``title``, ``summary``, ``published`` when it differs from ``lastmod``,
``id`` when it differs from ``loc``) have no place in a sitemap: they are dropped and named
in one warning at the end of the run (:class:`~sitemapconv.writers._losses.Losses`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import BinaryIO

from .._dates import format_w3c
from .._limits import MAX_LOC_LENGTH, MIN_LOC_LENGTH, check_limits, warn_written
from .._model import CHANGEFREQS, Entry
from .._spool import SpooledBody
from .._xml import SITEMAP_NS, XML_DECLARATION
from .._xmltext import escape
from . import WriteContext, Writer
from ._extensions import NAMESPACES, ExtensionFormatter
from ._formatting import CLEAN_HTTP_URL, ValueFormatter
from ._losses import Losses

URLSET_CLOSE = b"</urlset>\n"
_BATCH = 1024
_ALL_NAMESPACES = sum(bit for bit, _, _ in NAMESPACES)
_clean_url = CLEAN_HTTP_URL.fullmatch


def urlset_open(ns_bits: int) -> bytes:
    """The XML declaration and ``<urlset>`` start tag declaring the namespaces in ``ns_bits``."""
    decls = "".join(f' xmlns:{prefix}="{uri}"' for bit, prefix, uri in NAMESPACES if ns_bits & bit)
    return f'{XML_DECLARATION}<urlset xmlns="{SITEMAP_NS}"{decls}>\n'.encode()


#: The longest possible header: reserve it when a file must stay under a byte limit.
MAX_URLSET_OPEN = len(urlset_open(_ALL_NAMESPACES))


class UrlsetFormatter:
    """Formats one ``<url>`` element per entry; ``ns`` holds the namespaces of the last one."""

    __slots__ = ("_loc", "_priorities", "date_only", "ext", "losses", "ns", "used", "v")

    def __init__(self, ctx: WriteContext) -> None:
        self.v = ValueFormatter(ctx)
        self.ext = ExtensionFormatter(self.v)
        self.date_only = ctx.options.date_only
        self._loc = self.v.loc
        #: Namespace bits of the last formatted entry, and of every entry so far.
        self.ns = 0
        self.used = 0
        self._priorities: dict[float, str] = {}
        self.losses = Losses("xml")

    def format(self, entry: Entry) -> str | None:
        """The ``<url>`` element for ``entry``, or None when it must be skipped (warned)."""
        self.ns = 0
        raw = entry.loc
        if (
            type(raw) is str
            and _clean_url(raw) is not None
            and MIN_LOC_LENGTH <= len(raw) < MAX_LOC_LENGTH
        ):
            # The usual loc needs no cleaning or encoding (ValueFormatter.loc's fast path,
            # inlined); of the characters XML escapes, only "&" and "'" can be in it.
            loc = raw
            text = raw.replace("&", "&amp;") if "&" in raw else raw
            if "'" in text:
                text = text.replace("'", "&apos;")
        else:
            checked = self._loc(raw)
            if checked is None:
                return None
            loc = checked
            text = escape(loc)
        out = f"  <url>\n    <loc>{text}</loc>\n"
        lastmod = entry.lastmod
        if lastmod is not None:
            if isinstance(lastmod, _dt.date):
                # isoformat() is format_w3c() without the call: a date stays a date, a
                # datetime keeps its offset and writes microseconds only when it has them.
                when = (
                    format_w3c(lastmod, date_only=True) if self.date_only else lastmod.isoformat()
                )
                out += f"    <lastmod>{when}</lastmod>\n"
            else:
                self.v.ctx.warn_once(
                    "bad-lastmod", f"dropped lastmod values that are not dates ({lastmod!r})"
                )
        freq = entry.changefreq
        if freq is not None:
            if freq in CHANGEFREQS:
                out += f"    <changefreq>{freq}</changefreq>\n"
            else:
                freq = freq.strip().lower() if isinstance(freq, str) else ""
                if freq in CHANGEFREQS:
                    out += f"    <changefreq>{freq}</changefreq>\n"
                else:
                    self.v.ctx.warn_once(
                        "bad-changefreq",
                        f"dropped changefreq values that are not valid ({entry.changefreq!r})",
                    )
        prio = entry.priority
        if prio is not None:
            prio_text = self._priorities.get(prio)
            if prio_text is None:
                prio_text = self.v.decimal(prio, 0.0, 1.0, "priority")
                if prio_text is not None:
                    self._priorities[prio] = prio_text
            if prio_text is not None:
                out += f"    <priority>{prio_text}</priority>\n"
        if entry.images or entry.videos or entry.news or entry.alternates or entry.mobile:
            out += self._extensions(entry, loc)
        if (
            entry.title is not None
            or entry.summary is not None
            or entry.id is not None
            or entry.published is not None
        ):
            self._feed_fields(entry)
        return out + "  </url>\n"

    def _feed_fields(self, entry: Entry) -> None:
        """Record the feed fields a sitemap cannot carry (reported once, see :meth:`report`)."""
        self.losses.add_feed_fields(entry)

    def report(self) -> None:
        """The one warning naming the fields dropped during the run (nothing if none were)."""
        self.losses.report(self.v.ctx)

    def _extensions(self, entry: Entry, loc: str) -> str:
        parts: list[str] = []
        ns = 0
        if entry.images:
            ns |= self.ext.images(entry.images, loc, parts)
        if entry.videos:
            ns |= self.ext.videos(entry.videos, loc, parts, entry.title, entry.summary)
        if entry.news is not None:
            ns |= self.ext.news(entry.news, loc, parts)
        if entry.alternates:
            ns |= self.ext.alternates(entry.alternates, loc, parts)
        if entry.mobile:
            ns |= self.ext.mobile(parts)
        self.ns = ns
        self.used |= ns
        return "".join(parts)


class SitemapWriter(Writer):
    """Writes entries as one ``<urlset>`` (see the module docstring for the choices)."""

    name = "xml"
    aliases = ("sitemap", "urlset")
    extensions = (".xml",)
    media_type = "application/xml"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        max_urls, max_bytes = check_limits(ctx.options, ctx.dest)
        fmt = UrlsetFormatter(ctx)
        format_url = fmt.format
        with SpooledBody() as body:
            batch: list[str] = []
            for entry in entries:
                text = format_url(entry)
                if text is not None:
                    batch.append(text)
                    if len(batch) >= _BATCH:
                        body.add_many("".join(batch).encode(), len(batch))
                        batch.clear()
            body.add_many("".join(batch).encode(), len(batch))
            fmt.v.finish(body.count, self.name)
            head = urlset_open(fmt.used)
            warn_written(
                ctx.warn,
                body.count,
                len(head) + body.size + len(URLSET_CLOSE),
                max_urls,
                max_bytes,
                empty="no URLs to write: the urlset is empty (the XSD wants at least one)",
            )
            out.write(head)
            body.copy_to(out)
            out.write(URLSET_CLOSE)
        fmt.report()
        return body.count
