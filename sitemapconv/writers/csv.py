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

URLs inside those list columns are percent-encoded (RFC 3986, see
:func:`sitemapconv.urls.encode_url`) so a space never occurs inside one and splitting on
spaces is exact; ``loc`` itself is written as it is. Other extension fields (captions,
video details, mobile) do not fit a flat row: a warning says so once; use ``jsonl`` for them.

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
from ..model import Entry
from ..urls import encode_url
from . import WriteContext, Writer
from .tabular import CORE_COLUMNS, core_values

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


def _extension_values(entry: Entry, ctx: WriteContext) -> list[object]:
    images = entry.images
    videos = [v.content_loc or v.player_loc for v in entry.videos]
    news = entry.news
    links = []
    for link in entry.alternates:
        if link.rel == "alternate":
            links.append(f"{link.hreflang or ''}={encode_url(link.href)}")
        else:
            ctx.warn_once("csv-links", f"links with rel={link.rel!r} are not written to csv")
    if entry.videos or entry.mobile or any(i.caption or i.title for i in images):
        ctx.warn_once(
            "csv-fields",
            "video details, image captions and the mobile flag are not written "
            "to csv (use jsonl to keep them)",
        )
    return [
        " ".join(encode_url(i.loc) for i in images),
        len(images),
        " ".join(encode_url(v) for v in videos if v),
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
            count = 0
            for entry in entries:
                writer.writerow(core_values(entry) + _extension_values(entry, ctx))
                count += 1
            text.flush()
        finally:
            text.detach()  # the sink owns ``out``: never close it here
        return count
