"""JSON Feed 1.1 writer (https://www.jsonfeed.org/version/1.1/).

Feed: ``version``, ``title`` (required), ``home_page_url`` (the site), ``feed_url`` (the
self link, when known), ``description`` (when given), ``language``, ``authors`` (one, the
resolved author), then ``items``: the head comes from
:mod:`sitemapconv.writers._feedmeta` like the RSS and Atom heads (meta > options > defaults).

Each item: ``id`` (required: the entry id, else the URL), ``url``, ``title``,
``content_html`` (the summary, which is HTML in the model), else an empty ``content_text``
(one of the two is required), ``date_published`` and ``date_modified`` (RFC 3339, ``-00:00``
when the zone is unknown), ``image`` (the first image), ``attachments`` (further images, and
videos by their content URL, else player URL; ``mime_type`` is required there and is guessed
from the URL's extension, else ``image/*`` or ``video/*``), and the sitemap fields JSON Feed
has no name for, ``changefreq`` and ``priority`` (and a date-only ``lastmod``, which RFC
3339 cannot write: ``date_modified`` has its midnight), in the ``_sitemapconv`` extension
object, which :mod:`sitemapconv.readers._jsonfeed` reads back. News, alternates, mobile and
the other image and video fields are dropped with one warning.

Items are written one per line as they arrive: the writer streams; the output is one JSON
object, UTF-8.
"""

from __future__ import annotations

import datetime as _dt
import json
import mimetypes
from collections.abc import Iterable
from typing import Any, BinaryIO, ClassVar

from .._dates import format_rfc3339
from .._model import Entry
from . import WriteContext, Writer
from ._feedmeta import peek, resolve_head
from ._formatting import ValueFormatter
from ._losses import Losses

VERSION = "https://jsonfeed.org/version/1.1"
EXTENSION = "_sitemapconv"

_encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
_encode_ascii = json.JSONEncoder(allow_nan=False).encode


def _dump(value: Any) -> bytes:
    try:
        return _encode(value).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON's \uXXXX escape keeps it
        return _encode_ascii(value).encode("ascii")


def _mime(url: str, kind: str) -> str:
    guessed, _ = mimetypes.guess_type(url.split("?", 1)[0].split("#", 1)[0])
    if guessed and guessed.startswith(kind + "/"):
        return guessed
    return f"{kind}/*"


def _item(entry: Entry, loc: str, values: ValueFormatter, losses: Losses) -> dict[str, Any]:
    item: dict[str, Any] = {"id": entry.id or loc, "url": loc}
    if entry.title:
        item["title"] = entry.title
    if entry.summary:  # the model's summary is HTML
        item["content_html"] = entry.summary
    else:  # one of content_html and content_text is required
        item["content_text"] = ""
    if entry.published is not None:
        item["date_published"] = format_rfc3339(entry.published)
    if entry.lastmod is not None:
        item["date_modified"] = format_rfc3339(entry.lastmod)
    attachments: list[dict[str, Any]] = []
    for image in entry.images:
        image_url = values.plain_url(image.loc, "image URL")
        if image_url is None:
            continue
        if "image" not in item:
            item["image"] = image_url
        else:
            att: dict[str, Any] = {"url": image_url, "mime_type": _mime(image_url, "image")}
            if image.title:
                att["title"] = image.title
            attachments.append(att)
        if image.caption or image.geo_location or image.license:
            losses.add("images: caption, geo_location, license")
    for video in entry.videos:
        raw = video.content_loc or video.player_loc
        if not raw:
            losses.add("videos without a content or player URL")
            continue
        url = values.plain_url(raw, "video URL")
        if url is None:
            continue
        att = {"url": url, "mime_type": _mime(url, "video")}
        if video.title:
            att["title"] = video.title
        if video.duration is not None:
            att["duration_in_seconds"] = video.duration
        attachments.append(att)
        if video.thumbnail_loc and "image" not in item:
            thumbnail = values.plain_url(video.thumbnail_loc, "thumbnail URL")
            if thumbnail is not None:
                item["image"] = thumbnail
    if attachments:
        item["attachments"] = attachments
    ext: dict[str, Any] = {}
    if entry.lastmod is not None and not isinstance(entry.lastmod, _dt.datetime):
        ext["lastmod"] = entry.lastmod.isoformat()  # RFC 3339 has no date-only form
    if entry.changefreq is not None:
        ext["changefreq"] = entry.changefreq
    if entry.priority is not None:
        ext["priority"] = entry.priority
    if ext:
        item[EXTENSION] = ext
    if entry.news is not None:
        losses.add("news")
    if entry.alternates:
        losses.add("alternates")
    if entry.mobile:
        losses.add("mobile")
    return item


class JsonFeedWriter(Writer):
    name: ClassVar[str] = "jsonfeed"
    extensions: ClassVar[tuple[str, ...]] = (".json",)
    media_type: ClassVar[str] = "application/feed+json"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        first, stream = peek(entries)
        head = resolve_head(ctx, first)
        feed: dict[str, Any] = {"version": VERSION, "title": head.title}
        if head.link:
            feed["home_page_url"] = head.link
        if head.self_link:
            feed["feed_url"] = head.self_link
        if head.given_description:
            feed["description"] = head.given_description
        if head.language:
            feed["language"] = head.language
        feed["authors"] = [{"name": head.author}]
        opening = _dump(feed)[:-1] + b', "items": ['
        losses = Losses("jsonfeed")
        # The writers' one formatting path: an entry whose URL cannot be written is skipped
        # (warned) as in every feed format; the head waits for the first item written, so
        # an output from which every entry was dropped is refused with nothing written.
        values = ValueFormatter(ctx)
        count = 0
        for entry in stream:
            loc = values.loc(entry.loc)
            if loc is None:
                continue
            out.write(opening + b"\n" if not count else b",\n")
            out.write(_dump(_item(entry, loc, values, losses)))
            count += 1
        values.finish(count, self.name)
        if not count:
            out.write(opening)
        out.write(b"\n]}\n")
        losses.report(ctx)
        return count
