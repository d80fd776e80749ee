"""What the table writers (jsonl, csv, parquet) share: the row of one entry, and its columns.

One row per entry: :func:`entry_row` is the JSON Lines object, and the one mapping from an
entry to a row (the Dask rows and the Parquet columns are built from it too).

Dates are W3C strings (:func:`sitemapconv._dates.format_w3c`: a date stays
``YYYY-MM-DD``, a datetime keeps its offset, a naive one stays zone-less), so a reader of the
table sees the source's precision and never an invented zone.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
from typing import Any

from .._dates import format_w3c
from .._model import Entry

#: The columns every row starts with, in this order.
CORE_COLUMNS: tuple[str, ...] = (
    "loc",
    "lastmod",
    "changefreq",
    "priority",
    "title",
    "summary",
    "id",
    "published",
    "sitemap",
)


def core_values(entry: Entry) -> list[Any]:
    """The :data:`CORE_COLUMNS` of one entry; ``None`` where the entry has no value."""
    lastmod, published = entry.lastmod, entry.published
    return [
        entry.loc,
        None if lastmod is None else format_w3c(lastmod),
        entry.changefreq,
        entry.priority,
        entry.title,
        entry.summary,
        entry.id,
        None if published is None else format_w3c(published),
        entry.sitemap,
    ]


#: The keys of :func:`entry_row`, in order: the core columns, then the extensions.
ROW_KEYS: tuple[str, ...] = (*CORE_COLUMNS, "images", "videos", "news", "alternates", "mobile")


def entry_row(entry: Entry) -> dict[str, Any]:
    """The row of one entry: the :data:`ROW_KEYS` in order, JSON-ready.

    Core columns as :func:`core_values` (``None`` when absent); ``images``, ``videos`` and
    ``alternates`` lists of :func:`plain` objects (``[]`` when none), ``news`` an object or
    ``None``, ``mobile`` a boolean.
    """
    row = dict(zip(CORE_COLUMNS, core_values(entry), strict=True))
    images, videos, news, links = entry.images, entry.videos, entry.news, entry.alternates
    row["images"] = [plain(i) for i in images] if images else []
    row["videos"] = [plain(v) for v in videos] if videos else []
    row["news"] = None if news is None else plain(news)
    row["alternates"] = [plain(a) for a in links] if links else []
    row["mobile"] = entry.mobile
    return row


def plain(value: Any) -> Any:
    """An extension object as JSON-ready data.

    Dataclasses become objects without their ``None`` fields and empty sequences (so a line
    holds only what the source had), dates become W3C strings, sequences become lists, and a
    video's ``content_segment_locs`` pairs become ``{"loc": ..., "duration": ...}``.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if item is None or (isinstance(item, (list, tuple)) and not item):
                continue
            if f.name == "content_segment_locs":
                out[f.name] = [{"loc": loc, "duration": dur} for loc, dur in item]
            else:
                out[f.name] = plain(item)
        return out
    if isinstance(value, (_dt.date, _dt.datetime)):
        return format_w3c(value)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
