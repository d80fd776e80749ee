"""JSON Feed reader: versions 1.0 and 1.1 (https://www.jsonfeed.org/version/1.1/).

A JSON document is parsed whole, so the feed is held in memory, bounded by ``max_bytes``
like every source. It is recognised by its ``version`` URL (``https://jsonfeed.org/version/1``
or ``/1.1``) in the first 64 KiB; ``-f jsonfeed`` reads one whose ``version`` comes later.

Field mapping (the same rules as the XML feeds):

- ``loc``: the item's ``url``, else its ``external_url``, else its ``id`` when that is an
  absolute http(s) URL; relative URLs are resolved against the document URL, else the
  feed's ``feed_url``. An item with none is skipped with a warning.
- ``lastmod``: ``date_modified``, else ``date_published`` (RFC 3339); ``published``:
  ``date_published``.
- ``title``; ``summary`` (HTML, as the model's: the plain-text ``summary`` escaped, else
  ``content_html``, else the plain ``content_text`` escaped); ``id``.
- ``image`` and the ``image/*`` attachments become images; ``video/*`` attachments become
  videos (the item's ``image`` as thumbnail, ``title``, ``duration_in_seconds``).
- ``changefreq``, ``priority`` and a date-only ``lastmod`` from the ``_sitemapconv`` object that
  :mod:`sitemapconv.writers._jsonfeed` writes (JSON Feed extensions start with ``_``).
- ``ctx.meta``: ``title``, ``home_page_url`` (link), ``description``, ``feed_url`` (self
  link), ``language`` (1.1), the first author's ``name`` (``authors`` in 1.1, ``author`` in
  1.0).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO, ClassVar

from .._dates import parse_feed_date, parse_w3c
from .._head import BOM_UTF8, Head
from .._htmltext import text_to_html
from .._model import CHANGEFREQS, Entry, Image, Video, When
from .._urls import is_http
from ..errors import FormatError, ParseError
from . import ReadContext, Reader
from ._feedxml import Notes, is_absolute, resolve

#: The ``version`` of every JSON Feed; 1.0 is ``.../version/1``, 1.1 is ``.../version/1.1``.
VERSION_PREFIX = "https://jsonfeed.org/version/"
_VERSION_RE = re.compile(r'"version"\s*:\s*"https?://(?:www\.)?jsonfeed\.org/version/')
#: The extension object the JSON Feed writer keeps sitemap fields in.
EXTENSION = "_sitemapconv"


class JsonFeedReader(Reader):
    """Reads a JSON Feed; see the module docstring."""

    name: ClassVar[str] = "jsonfeed"
    mimetypes: ClassVar[tuple[str, ...]] = ("application/feed+json",)

    @classmethod
    def sniff(cls, head: Head) -> float:
        text = head.text.lstrip()
        if text[:1] == "{" and _VERSION_RE.search(text):
            return 1.0
        return 0.0

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        feed = _load(stream.read(), ctx)
        notes = Notes(ctx)
        version = feed.get("version")
        if not (isinstance(version, str) and version.startswith(VERSION_PREFIX)):
            ctx.warn(f"no JSON Feed version URL ({VERSION_PREFIX}1.1); read as JSON Feed anyway")
        base = ctx.url if ctx.url and is_http(ctx.url) else _text(feed, "feed_url")
        _meta(feed, ctx)
        items = feed.get("items")
        if items is None:
            items = []
            ctx.warn("the feed has no 'items' list")
        if not isinstance(items, list):
            raise FormatError("not a JSON Feed: 'items' is not a list", source=ctx.source)
        sitemap = ctx.origin
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                notes.warn("items that are not objects", f"item {index} is not an object; skipped")
                continue
            entry = _entry(item, index, base, notes, sitemap)
            if entry is not None:
                yield entry
        notes.finish()


def _load(data: bytes, ctx: ReadContext) -> dict[str, Any]:
    try:
        feed = json.loads(data.removeprefix(BOM_UTF8).decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ParseError(f"JSON Feed is not UTF-8 ({exc.reason})", source=ctx.source) from None
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"not valid JSON: {exc.msg}", source=ctx.source, line=exc.lineno, column=exc.colno
        ) from None
    except RecursionError:
        raise ParseError("JSON nested too deeply", source=ctx.source) from None
    if not isinstance(feed, dict):
        raise FormatError(
            f"not a JSON Feed: the top level is a JSON {type(feed).__name__}, not an object",
            source=ctx.source,
        )
    return feed


def _text(obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and key == "id":
        value = str(value)  # JSON Feed ids are strings; numbers are found in the wild
    if not isinstance(value, str):
        return None
    return value.strip() or None


def _date(obj: Mapping[str, Any], key: str, notes: Notes) -> When | None:
    text = _text(obj, key)
    if text is None:
        return None
    when, how = parse_feed_date(text, rfc822=False)
    if how is None:
        notes.warn("invalid dates", f"invalid date {text!r} in {key!r}; left empty")
    elif how != "expected":
        notes.warn(
            "dates parsed loosely",
            f"{key} {text!r} is not RFC 3339; parsed loosely as {when}",
        )
    return when


def _loc(item: Mapping[str, Any], base: str | None) -> str | None:
    for key in ("url", "external_url"):
        url = _text(item, key)
        if url:
            return resolve(url, base)
    ident = _text(item, "id")
    return ident if ident and is_http(ident) else None


def _entry(
    item: Mapping[str, Any], index: int, base: str | None, notes: Notes, sitemap: str | None
) -> Entry | None:
    loc = _loc(item, base)
    if loc is None:
        notes.warn(
            "items skipped for want of a URL",
            f"skipped item {index}: no 'url', no 'external_url' and no http(s) 'id'",
        )
        return None
    if not is_absolute(loc):
        notes.relative_link(loc)
    modified = _date(item, "date_modified", notes)
    published = _date(item, "date_published", notes)
    entry = Entry(
        loc=loc,
        lastmod=modified or published,
        title=_text(item, "title"),
        summary=_summary(item),
        id=_text(item, "id"),
        published=published,
        sitemap=sitemap,
    )
    _extension(item, entry, notes)
    _media(item, entry, base)
    return entry


def _extension(item: Mapping[str, Any], entry: Entry, notes: Notes) -> None:
    ext = item.get(EXTENSION)
    if not isinstance(ext, dict):
        return
    day = ext.get("lastmod")
    when = parse_w3c(day) if isinstance(day, str) else None
    if isinstance(when, _dt.date) and not isinstance(when, _dt.datetime):
        lastmod = entry.lastmod
        if lastmod is None or (
            isinstance(lastmod, _dt.datetime)
            and lastmod.date() == when
            and lastmod.time() == _dt.time()
        ):
            entry.lastmod = when  # a date-only lastmod, which date_modified cannot hold
    freq = ext.get("changefreq")
    if isinstance(freq, str) and freq.strip().lower() in CHANGEFREQS:
        entry.changefreq = freq.strip().lower()
    priority = ext.get("priority")
    if isinstance(priority, (int, float)) and not isinstance(priority, bool):
        if 0.0 <= priority <= 1.0:
            entry.priority = float(priority)
        else:
            notes.warn("priorities out of range", f"priority {priority} is not in [0, 1]; dropped")


def _media(item: Mapping[str, Any], entry: Entry, base: str | None) -> None:
    images: list[Image] = []
    videos: list[Video] = []
    seen: set[str] = set()
    image = _text(item, "image")
    if image:
        image = resolve(image, base)
        seen.add(image)
        images.append(Image(loc=image))
    attachments = item.get("attachments")
    for att in attachments if isinstance(attachments, list) else ():
        if not isinstance(att, dict):
            continue
        url = _text(att, "url")
        mime = (_text(att, "mime_type") or "").lower()
        if not url:
            continue
        url = resolve(url, base)
        if url in seen:
            continue
        if mime.startswith("image/"):
            seen.add(url)
            images.append(Image(loc=url, title=_text(att, "title")))
        elif mime.startswith("video/"):
            seen.add(url)
            duration = att.get("duration_in_seconds")
            seconds = (
                int(duration)
                if isinstance(duration, (int, float))
                and not isinstance(duration, bool)
                and 0 <= duration < 1e9
                else None
            )
            videos.append(
                Video(
                    content_loc=url,
                    thumbnail_loc=image,
                    title=_text(att, "title") or entry.title,
                    duration=seconds,
                )
            )
    if videos and image:
        images = images[1:]  # the item image is the videos' thumbnail
    if images:
        entry.images = images
    if videos:
        entry.videos = videos


def _meta(feed: Mapping[str, Any], ctx: ReadContext) -> None:
    meta = ctx.meta
    meta.title = _text(feed, "title")
    meta.link = _text(feed, "home_page_url")
    meta.description = _text(feed, "description")
    meta.self_link = _text(feed, "feed_url")
    meta.language = _text(feed, "language")
    authors = feed.get("authors")
    if not isinstance(authors, list):
        authors = [feed.get("author")]
    for author in authors:
        if isinstance(author, dict) and _text(author, "name"):
            meta.author = _text(author, "name")
            break


def _summary(item: Mapping[str, Any]) -> str | None:
    """The model's summary is HTML: JSON Feed's ``summary`` and ``content_text`` are text."""
    text = _text(item, "summary")
    if text is not None:
        return text_to_html(text)
    markup = _text(item, "content_html")
    if markup is not None:
        return markup
    text = _text(item, "content_text")
    return None if text is None else text_to_html(text)
