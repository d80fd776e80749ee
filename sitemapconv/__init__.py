"""sitemapconv: read, convert and write every format in which a website lists its URLs.

The public API is ``__all__`` below: the verbs, the entry model, the three option records,
what validation, discovery and comparison return, and the error tree (all of it in
:mod:`sitemapconv.errors`). Statistics and other types to annotate with are in
:mod:`sitemapconv.types`; ``sitemapconv.notify`` sends to search engines,
``sitemapconv.cluster`` reads many sites on Dask, and ``sitemapconv.readers.Reader`` /
``sitemapconv.writers.Writer`` are the plugin base classes. Every module whose name starts
with ``_`` is internal and may change. Heavy dependencies (httpx, feedparser, rich, hishel)
are imported only when a feature needs them, so ``import sitemapconv`` stays cheap.
"""

from typing import TYPE_CHECKING, Any

from ._api import convert, read, write
from ._detect import detect
from ._diff import Change, diff
from ._discover import Found, discover
from ._filters import FilterOptions, apply_filters
from ._model import Alternate, Document, Entry, FeedMeta, Image, News, Video
from ._options import ReadOptions, WriteOptions
from ._problems import Problem, Report
from ._validate import validate
from ._version import __version__
from .errors import (
    DocumentConsumedError,
    FetchError,
    FormatError,
    LimitError,
    ParseError,
    PartialError,
    SitemapError,
    SitemapWarning,
    UsageError,
    WriteError,
)

if TYPE_CHECKING:
    from ._follow.async_driver import AsyncDocument, aread

#: Names imported on first use, because their modules pull in asyncio and threads. The
#: statistics types that used to be here (``FollowStats``, ``FilterStats``...) moved to
#: :mod:`sitemapconv.types`; the old spellings still resolve, through ``_MOVED``.
_LAZY = {"aread": "_follow.async_driver", "AsyncDocument": "_follow.async_driver"}
_MOVED = {"Comparison", "DiffStats", "FilterStats", "FollowStats", "HttpCache"}


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name in _MOVED:
        return getattr(importlib.import_module(".types", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [  # noqa: RUF022 - grouped by kind on purpose, sorted within each group
    # The verbs.
    "apply_filters",
    "aread",
    "convert",
    "detect",
    "diff",
    "discover",
    "read",
    "validate",
    "write",
    # The entry model.
    "Alternate",
    "AsyncDocument",
    "Document",
    "Entry",
    "FeedMeta",
    "Image",
    "News",
    "Video",
    # Options: one record per side, and the filters between them.
    "FilterOptions",
    "ReadOptions",
    "WriteOptions",
    # What validate(), discover() and diff() yield.
    "Change",
    "Found",
    "Problem",
    "Report",
    # The error tree (sitemapconv.errors).
    "DocumentConsumedError",
    "FetchError",
    "FormatError",
    "LimitError",
    "ParseError",
    "PartialError",
    "SitemapError",
    "SitemapWarning",
    "UsageError",
    "WriteError",
    "__version__",
]
