"""CSV (``.csv``): one row per entry under a fixed header, for spreadsheets and pandas.

The header is always :data:`COLUMNS`, whatever the entries hold, so ``pandas.read_csv(path)``
loads any output directly. Core columns as in :mod:`~sitemapconv.writers.tabular` (empty
cell when absent). Extensions are flattened into fixed columns:

- ``images``: the image locs, space-separated; ``image_count``: how many (0 when none);
- ``videos``: each video's content loc (its player loc when it has none), space-separated;
  ``video_count``: how many videos (0 when none);
- ``news_title``, ``news_publication``, ``news_date`` (W3C) from the news extension;
- ``alternates``: ``hreflang=href`` for each ``rel="alternate"`` link, space-separated
  (``=href`` when a link has no hreflang). Other links (amphtml...) are not written.

URLs inside those list columns are percent-encoded (RFC 3986, through the writers' one
formatting path, :class:`~sitemapconv.writers.values.ValueFormatter`: an unparsable one is
left out with a warning) so a space never occurs inside one and splitting on spaces is
exact; ``loc`` itself is written as it is. Other extension fields (image captions,
titles, geo_location and license; every video field but the one URL; the news language,
access, genres, keywords and stock tickers; links with another ``rel``, ``media``; mobile) do
not fit a flat row: one warning at the end of the run names those dropped; use ``jsonl``.

Dialect: RFC 4180 (comma, ``"`` quoting when needed, CRLF line ends), UTF-8 without BOM.
Cells are not altered against spreadsheet formula injection: a title beginning with ``=``
is written as it is.
"""

from __future__ import annotations

import csv as _csv
import io
from collections.abc import Iterable
from typing import BinaryIO, ClassVar

from ..dates import format_w3c
from ..model import Entry, Video
from . import WriteContext, Writer
from .losses import Losses
from .tabular import CORE_COLUMNS, core_values
from .values import ValueFormatter

COLUMNS: tuple[str, ...] = (
    *CORE_COLUMNS,
    "images",
    "image_count",
    "videos",
    "video_count",
    "news_title",
    "news_publication",
    "news_date",
    "alternates",
)


#: Video fields with no column (content_loc, or player_loc without one, is the ``videos`` URL).
_VIDEO_DROPPED = tuple(
    name for name in Video.__dataclass_fields__ if name not in ("content_loc", "player_loc")
)
_IMAGE_DROPPED = ("caption", "title", "geo_location", "license")
_NEWS_DROPPED = ("publication_language", "access", "genres", "keywords", "stock_tickers")


def _record_losses(entry: Entry, losses: Losses) -> None:
    """Name the extension fields of ``entry`` that have no column."""
    for image in entry.images:
        for name in _IMAGE_DROPPED:
            if getattr(image, name) is not None:
                losses.add(f"image.{name}")
    for video in entry.videos:
        for name in _VIDEO_DROPPED:
            value = getattr(video, name)
            if value is not None and value != ():
                losses.add(f"video.{name}")
        if video.content_loc and video.player_loc:
            losses.add("video.player_loc")
    if entry.news is not None:
        for name in _NEWS_DROPPED:
            if getattr(entry.news, name) is not None:
                losses.add(f"news.{name}")
    for link in entry.alternates:
        if link.rel != "alternate":
            losses.add(f"alternates (rel={link.rel})")
        elif link.media is not None:
            losses.add("alternates.media")
    if entry.mobile:
        losses.add("mobile")


def _urls(values: ValueFormatter, urls: Iterable[str | None], what: str) -> list[str]:
    """The encoded URLs; one that cannot be parsed is left out with the formatter's warning."""
    found = (values.plain_url(url, what) for url in urls if url)
    return [url for url in found if url is not None]


def _extension_values(entry: Entry, losses: Losses, values: ValueFormatter) -> list[object]:
    images = entry.images
    videos = [v.content_loc or v.player_loc for v in entry.videos]
    news = entry.news
    links = []
    for link in entry.alternates:
        if link.rel == "alternate":
            href = values.plain_url(link.href, "alternate link")
            if href is not None:
                links.append(f"{link.hreflang or ''}={href}")
    if images or entry.videos or news is not None or entry.alternates or entry.mobile:
        _record_losses(entry, losses)
    return [
        " ".join(_urls(values, (i.loc for i in images), "image URL")),
        len(images),
        " ".join(_urls(values, videos, "video URL")),
        len(videos),
        None if news is None else news.title,
        None if news is None else news.publication_name,
        None
        if news is None or news.publication_date is None
        else format_w3c(news.publication_date),
        " ".join(links),
    ]


class CsvWriter(Writer):
    name: ClassVar[str] = "csv"
    aliases: ClassVar[tuple[str, ...]] = ()
    extensions: ClassVar[tuple[str, ...]] = (".csv",)
    media_type: ClassVar[str] = "text/csv"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        text = io.TextIOWrapper(out, encoding="utf-8", errors="replace", newline="")
        try:
            writer = _csv.writer(text)
            writer.writerow(COLUMNS)
            losses = Losses(self.name, "use jsonl to keep them")
            values = ValueFormatter(ctx)
            count = 0
            for entry in entries:
                writer.writerow(core_values(entry) + _extension_values(entry, losses, values))
                count += 1
            text.flush()
        finally:
            text.detach()  # the sink owns ``out``: never close it here
        losses.report(ctx)
        return count
