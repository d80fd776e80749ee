"""The rescue reader: feedparser, for the feeds the streaming readers do not handle.

The streaming readers (:mod:`~sitemapconv.readers._rss`, :mod:`~sitemapconv.readers._atom`)
stay the default: they are many times faster and read in constant memory. feedparser reads
what they refuse: Microsoft's CDF (``<CHANNEL HREF=...>``), a ``<feed>`` with no Atom
namespace or only a prefixed one, XML in EBCDIC, and feeds so broken that lxml's recovery
finds no item in them. Detection hands the first three kinds here; the streaming readers
hand over the last themselves (:func:`with_rescue`), with one warning, when they read
nothing from a document whose root says it is a feed.

feedparser parses a whole document at once, so this reader holds it in memory, bounded by
``max_bytes`` like every source. It is given the bytes wrapped in a file object, never a
string (a string is taken for a path or a URL and opened), so it never reads a file or the
network, and it is not told the document URL (relative links are resolved here).
feedparser drops the DOCTYPE, keeping only entities whose value is plain text, and its
expat parser does not load external entities: nothing is fetched or expanded.

Entries are mapped by the fast readers' rules: ``loc`` is the entry's link (resolved against
the document URL), or its ``id`` when there is no link and the id is an absolute http(s) URL
or a ``/path`` with an http(s) document URL (feedparser makes any id the link; entries with
other ids are skipped); ``lastmod`` is ``updated``, else ``published``,
else ``created``; images and videos come from Media RSS and enclosures. Dates are read from
the text with :mod:`sitemapconv._dates` (so a zone-less date stays naive and a date stays a
date); only a form it rejects takes feedparser's parsed value, an aware UTC datetime, with a
"parsed loosely" warning.
"""

from __future__ import annotations

import datetime as _dt
import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any, BinaryIO

from .._dates import parse_date
from .._head import Head
from .._htmltext import html_to_text, text_to_html
from .._model import Entry, Image, Video, When
from .._urls import is_http
from .._xml import ATOM03_NS, ATOM_NS
from ..errors import FormatError, ParseError, SitemapError
from . import ReadContext, Reader
from ._feedxml import Notes, is_absolute, resolve
from ._mediarss import FLASH, media_kind

#: ``<?xml`` in the EBCDIC code pages (cp037, cp500...), as XML 1.0 appendix F detects it.
EBCDIC_XML = b"\x4c\x6f\xa7\x94"

#: The largest document a streaming reader hands to feedparser on its own. feedparser holds a
#: document at about 20 times its size (an 8.5 MB RSS feed peaks at 175 MB and takes 12 s),
#: so a hostile feed of max_bytes with no usable item must not reach it unasked; ``-f
#: feedparser`` (and detection, for CDF and namespace-less Atom) is bounded by max_bytes only.
RESCUE_LIMIT = 8 * 2**20


class FeedparserReader(Reader):
    """Reads a whole feed with feedparser; see the module docstring."""

    name = "feedparser"

    @classmethod
    def sniff(cls, head: Head) -> float:
        if head.data.startswith(EBCDIC_XML):
            return 0.5  # feedparser decodes EBCDIC XML (its suite has 21 such feeds)
        root = head.root
        if root is None:
            return 0.0
        local = root.local.lower()
        if local == "channel" and root.prefix is None:
            return 0.8  # CDF: https://www.w3.org/TR/NOTE-CDFsubmit
        if root.local == "feed" and root.namespace not in (ATOM_NS, ATOM03_NS):
            # Atom-like without the Atom namespace (Atom 0.3 by version is atom03's, at 0.9).
            return 0.5
        return 0.0

    @classmethod
    def check_forced(cls, head: Head, source: str) -> None:
        """``-f feedparser`` forces it on any feed: feedparser itself judges the document."""

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        yield from read_with_feedparser(stream.read(), ctx)


def _parse(data: bytes, ctx: ReadContext) -> Any:
    import feedparser  # imported on use: loading it costs more than all of sitemapconv

    try:
        # A file object, never bytes or str: feedparser opens a string as a path or a URL.
        # No Content-Location either: links are resolved against the document URL here, by
        # the fast readers' rules, so that an id feedparser made the link is seen as written.
        return feedparser.parse(io.BytesIO(data), sanitize_html=False)
    except Exception as exc:  # whatever feedparser trips on is bad input, not our bug
        raise ParseError(f"feedparser cannot read it ({exc})", source=ctx.source) from None


def read_with_feedparser(data: bytes, ctx: ReadContext) -> Iterator[Entry]:
    """Parse ``data`` with feedparser and yield its entries mapped into :class:`Entry`."""
    result = _parse(data, ctx)
    if not result.get("entries") and not result.get("feed"):
        raise FormatError("not a feed that feedparser can read", source=ctx.source)
    notes = Notes(ctx)
    if result.get("bozo") and result.get("bozo_exception") is not None:
        ctx.warn(f"malformed feed, read leniently by feedparser ({result['bozo_exception']})")
    base = ctx.url if ctx.url and is_http(ctx.url) else None
    _meta(result.get("feed") or {}, ctx, notes, base)
    sitemap = ctx.origin
    for item in result.get("entries") or ():
        entry = _entry(item, notes, sitemap, base)
        if entry is not None:
            yield entry
    notes.finish()


def rescue(data: bytes, ctx: ReadContext, reader: str) -> Iterator[Entry]:
    """What a streaming reader hands over when it read no entry from a feed.

    Yields feedparser's entries; when there are any, one warning says where they came from,
    and it is the only one: the streaming reader has already reported what it found wrong.
    """
    quiet = ReadContext(
        source=ctx.source,
        options=replace(ctx.options, on_warning=_ignore),
        url=ctx.url,
        meta=ctx.meta,
    )
    warned = False
    entries = read_with_feedparser(data, quiet)
    while True:
        try:
            entry = next(entries)
        except (StopIteration, SitemapError):  # nothing more, or nothing feedparser can read
            return
        if not warned:
            warned = True
            ctx.warn(
                f"the {reader} reader found no usable entry; "
                "read the whole document with feedparser instead"
            )
        yield entry


def _ignore(message: str) -> None:
    pass


class Tape(io.RawIOBase):
    """Keeps the bytes read from ``raw`` until :meth:`stop`, so a reader can hand them over.

    A streaming reader reads through a tape and stops it at its first entry: from then on
    nothing is kept and memory stays flat. A reader that ends with no entry replays the tape
    (:meth:`replay`): the document whole, bounded by ``max_bytes`` like any source.
    """

    def __init__(self, raw: BinaryIO, limit: int) -> None:
        self._raw = raw
        self._kept: list[bytes] | None = []
        self._size = 0
        self._limit = limit
        #: True when more than ``limit`` bytes were read before :meth:`stop`.
        self.overflowed = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._raw.read(len(b))
        n = len(data)
        b[:n] = data
        if n and self._kept is not None:
            self._size += n
            if self._size > self._limit:
                self._kept, self.overflowed = None, True
            else:
                self._kept.append(bytes(data))
        return n

    def stop(self) -> None:
        self._kept = None

    def replay(self) -> bytes | None:
        """Everything read so far plus the rest of the input; None once stopped."""
        if self._kept is None:
            return None
        kept, self._kept = self._kept, None
        return b"".join(kept) + self._raw.read()


def with_rescue(
    read: Callable[[BinaryIO, ReadContext], Iterator[Entry]],
    stream: BinaryIO,
    ctx: ReadContext,
    reader: str,
) -> Iterator[Entry]:
    """Run a streaming reader on ``stream``; when it yields nothing, let feedparser try.

    The fallback runs when the reader ends without an entry, or stops on an XML error before
    one, and the document is at most :data:`RESCUE_LIMIT` bytes; a :class:`FormatError` (the
    root is not a feed at all) is passed on as it is. When feedparser finds nothing either,
    the reader's own outcome stands.
    """
    tape = Tape(stream, RESCUE_LIMIT)
    count = 0
    try:
        for entry in read(io.BufferedReader(tape, 64 * 1024), ctx):
            if not count:
                tape.stop()
            count += 1
            yield entry
    except FormatError:
        raise
    except ParseError:
        data = tape.replay()
        if data is None:
            raise
        found = False
        for entry in rescue(data, ctx, reader):
            found = True
            yield entry
        if not found:
            raise
        return
    if not count:
        data = tape.replay()
        if data is not None:
            yield from rescue(data, ctx, reader)
        elif tape.overflowed:
            ctx.warn(
                f"the {reader} reader found no usable entry, and the document is larger than "
                f"{RESCUE_LIMIT // 2**20} MiB, the most handed to feedparser automatically; "
                "use -f feedparser to read it with feedparser"
            )


def _date(notes: Notes, item: Any, key: str) -> When | None:
    """The date ``key`` of a feedparser dict, from its text when :mod:`dates` reads it."""
    # dict.get: FeedParserDict.get("updated") falls back to "published" with a warning.
    text = dict.get(item, key)
    if not text or not isinstance(text, str):
        return None
    when = parse_date(text)
    if when is not None:
        return when
    parsed = dict.get(item, f"{key}_parsed")
    if parsed is None:
        notes.warn("invalid dates", f"invalid date {text!r} in <{key}>; left empty")
        return None
    try:
        loose = _dt.datetime(*parsed[:6]).replace(tzinfo=_dt.timezone.utc)
    except (TypeError, ValueError):
        return None
    notes.warn("dates parsed loosely", f"<{key}> {text!r} parsed loosely as {loose}")
    return loose


def _loc(item: Mapping[str, Any], base: str | None) -> str | None:
    link = item.get("link")
    if not isinstance(link, str) or not link.strip():
        return None
    link = link.strip()
    if item.get("guidislink"):
        # feedparser made the id the link: the Atom reader's rule for ids applies.
        if is_http(link):
            return link
        if link[:1] == "/" and link[:2] != "//" and base:
            return resolve(link, base)
        return None
    links = item.get("links") or ()
    html = [
        lk.get("href")
        for lk in links
        if lk.get("rel", "alternate") == "alternate"
        and (lk.get("type") or "").lower() in ("text/html", "application/xhtml+xml")
        and lk.get("href")
    ]
    return resolve(str(html[0] if html else link), base)


def _media(item: Mapping[str, Any], entry: Entry, base: str | None) -> None:
    """Images and videos from ``media:content``, enclosures and ``media:thumbnail``."""
    thumbs = [resolve(t["url"], base) for t in item.get("media_thumbnail") or () if t.get("url")]
    found: list[tuple[str | None, str, str | None]] = [
        (m.get("medium"), m.get("url") or "", m.get("type"))
        for m in item.get("media_content") or ()
    ]
    found += [(None, e.get("href") or "", e.get("type")) for e in item.get("enclosures") or ()]
    images: list[Image] = []
    videos: list[Video] = []
    seen: set[str] = set()
    for medium, url, mime in found:
        kind = media_kind(medium, mime)
        url = resolve(url, base) if url.strip() else ""
        if kind is None or not url or url in seen:
            continue
        seen.add(url)
        if kind == "image":
            images.append(Image(loc=url))
        elif (mime or "").strip().lower() == FLASH:
            videos.append(Video(player_loc=url, thumbnail_loc=thumbs[0] if thumbs else None))
        else:
            videos.append(Video(content_loc=url, thumbnail_loc=thumbs[0] if thumbs else None))
    if not videos:
        for url in thumbs:
            if url not in seen:
                seen.add(url)
                images.append(Image(loc=url))
    if images:
        entry.images = images
    if videos:
        entry.videos = videos


def _entry(
    item: Mapping[str, Any], notes: Notes, sitemap: str | None, base: str | None
) -> Entry | None:
    loc = _loc(item, base)
    if loc is None:
        notes.warn("entries skipped for want of a URL", "skipped an entry with no link")
        return None
    if not is_absolute(loc):
        notes.relative_link(loc)
    updated = _date(notes, item, "updated")
    published = _date(notes, item, "published")
    lastmod = updated or published or _date(notes, item, "created")
    entry = Entry(
        loc=loc,
        lastmod=lastmod,
        title=_plain(item, "title"),
        summary=_html(item, "summary"),
        id=(item.get("id") or "").strip() or None,
        published=published if updated is not None else None,
        sitemap=sitemap,
    )
    _media(item, entry, base)
    return entry


def _meta(feed: Mapping[str, Any], ctx: ReadContext, notes: Notes, base: str | None) -> None:
    meta = ctx.meta

    def text(key: str) -> str | None:
        value = feed.get(key)
        return value.strip() or None if isinstance(value, str) else None

    meta.title = meta.title or text("title")
    site = text("link")
    meta.link = meta.link or (resolve(site, base) if site else None)
    meta.description = meta.description or text("subtitle") or text("description")
    meta.id = meta.id or text("id")
    meta.language = meta.language or text("language")
    meta.author = meta.author or text("author")
    if meta.updated is None:
        meta.updated = _date(notes, feed, "updated") or _date(notes, feed, "published")
    for link in feed.get("links") or ():
        if link.get("rel") == "self" and link.get("href") and meta.self_link is None:
            meta.self_link = resolve(str(link["href"]), base)


__all__ = ["FeedparserReader", "Tape", "read_with_feedparser", "rescue", "with_rescue"]


def _is_html(item: Mapping[str, Any], name: str) -> bool:
    detail = item.get(f"{name}_detail")
    kind = detail.get("type") if isinstance(detail, Mapping) else None
    return isinstance(kind, str) and "html" in kind


def _plain(item: Mapping[str, Any], name: str) -> str | None:
    """feedparser's value as plain text (the model's titles): HTML is turned into text."""
    value = (item.get(name) or "").strip()
    if value and _is_html(item, name):
        value = html_to_text(value)
    return value or None


def _html(item: Mapping[str, Any], name: str) -> str | None:
    """feedparser's value as HTML (the model's summaries): plain text is escaped."""
    value = (item.get(name) or "").strip()
    if value and not _is_html(item, name):
        value = text_to_html(value)
    return value or None
