"""CSV (``.csv``): one row per entry under a fixed header, for spreadsheets and pandas.

The header is always :data:`COLUMNS`, whatever the entries hold, so ``pandas.read_csv(path)``
loads any output directly. Core columns as in :mod:`~sitemapconv.writers._tabular` (empty
cell when absent). Extensions are flattened into fixed columns:

- ``images``: the image locs, space-separated; ``image_count``: how many (0 when none);
- ``videos``: each video's content loc (its player loc when it has none), space-separated;
  ``video_count``: how many videos (0 when none);
- ``news_title``, ``news_publication``, ``news_date`` (W3C) from the news extension;
- ``alternates``: ``hreflang=href`` for each ``rel="alternate"`` link, space-separated
  (``=href`` when a link has no hreflang). Other links (amphtml...) are not written.

URLs inside those list columns are percent-encoded (RFC 3986, through the writers' one
formatting path, :class:`~sitemapconv.writers._formatting.ValueFormatter`: an unparsable one is
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
from collections.abc import Callable, Iterable, Mapping
from typing import Any, BinaryIO, ClassVar
from urllib.parse import urlsplit

from .._model import Entry, Video
from .._urls import encode_url
from . import WriteContext, Writer
from ._formatting import ValueFormatter
from ._losses import Losses
from ._tabular import CORE_COLUMNS, core_values, entry_row

#: Encodes one URL for a list cell, or gives None to leave it out: (url, what it is).
UrlFormatter = Callable[[str, str], "str | None"]

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


#: The extension cells of an entry without extensions.
_NO_EXTENSIONS: tuple[object, ...] = ("", 0, "", 0, None, None, None, "")

#: Video fields with no column (content_loc, or player_loc without one, is the ``videos`` URL).
_VIDEO_DROPPED = frozenset(
    name for name in Video.__dataclass_fields__ if name not in ("content_loc", "player_loc")
)
_IMAGE_DROPPED = ("caption", "title", "geo_location", "license")
_NEWS_DROPPED = ("publication_language", "access", "genres", "keywords", "stock_tickers")


def _record_losses(row: Mapping[str, Any], losses: Losses) -> None:
    """Name the extension fields of ``row`` that have no column.

    ``row`` is :func:`~sitemapconv.writers._tabular.entry_row`'s, whose extension objects hold
    only the fields the source had: a key present is a value that would be lost.
    """
    for image in row["images"]:
        for name in _IMAGE_DROPPED:
            if name in image:
                losses.add(f"image.{name}")
    for video in row["videos"]:
        for name in video:
            if name in _VIDEO_DROPPED:
                losses.add(f"video.{name}")
        if "content_loc" in video and "player_loc" in video:
            losses.add("video.player_loc")
    news = row["news"]
    if news is not None:
        for name in _NEWS_DROPPED:
            if name in news:
                losses.add(f"news.{name}")
    for link in row["alternates"]:
        if link.get("rel", "alternate") != "alternate":
            losses.add(f"alternates (rel={link['rel']})")
        elif "media" in link:
            losses.add("alternates.media")
    if row["mobile"]:
        losses.add("mobile")


def _quiet_url(value: str, what: str) -> str | None:
    """Without a write context (Dask rows): an unparsable URL is left out silently."""
    try:
        if "[" in value:  # a broken IPv6 literal, as ValueFormatter.plain_url checks
            urlsplit(value.strip())
        return encode_url(value)
    except ValueError:
        return None


def _urls(url: UrlFormatter, urls: Iterable[str | None], what: str) -> list[str]:
    """The encoded URLs; one that cannot be parsed is left out (warned by ``url``)."""
    found = (url(value, what) for value in urls if value)
    return [value for value in found if value is not None]


def row_cells(row: Mapping[str, Any], losses: Losses, url: UrlFormatter = _quiet_url) -> list[Any]:
    """The CSV cells (:data:`COLUMNS`) of one :func:`~sitemapconv.writers._tabular.entry_row`.

    Shared with ``sitemapconv --dask -t csv``, whose rows are the same objects plus ``site``
    and ``error``, so both write the same cells. ``url`` encodes a URL or gives None to leave
    it out: the CSV writer passes :meth:`ValueFormatter.plain_url`, which warns.
    """
    images, videos, news = row["images"], row["videos"], row["news"]
    if not (images or videos or news is not None or row["alternates"] or row["mobile"]):
        return [*(row[name] for name in CORE_COLUMNS), *_NO_EXTENSIONS]
    links = []
    for link in row["alternates"]:
        if link.get("rel", "alternate") == "alternate":
            href = url(link["href"], "alternate link")
            if href is not None:
                links.append(f"{link.get('hreflang') or ''}={href}")
    _record_losses(row, losses)
    video_urls = [v.get("content_loc") or v.get("player_loc") for v in videos]
    return [
        *(row[name] for name in CORE_COLUMNS),
        " ".join(_urls(url, (i["loc"] for i in images), "image URL")),
        len(images),
        " ".join(_urls(url, video_urls, "video URL")),
        len(videos),
        None if news is None else news.get("title"),
        None if news is None else news.get("publication_name"),
        None if news is None else news.get("publication_date"),
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
            url = ValueFormatter(ctx).plain_url
            count = 0
            for entry in entries:
                if entry.images or entry.videos or entry.news or entry.alternates or entry.mobile:
                    writer.writerow(row_cells(entry_row(entry), losses, url))
                else:  # the common case, without building the row: the same cells
                    writer.writerow([*core_values(entry), *_NO_EXTENSIONS])
                count += 1
            text.flush()
        finally:
            text.detach()  # the sink owns ``out``: never close it here
        losses.report(ctx)
        return count
