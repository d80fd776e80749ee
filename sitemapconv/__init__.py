"""sitemapconv: read, convert and write every format in which a website lists its URLs.

The public API is the names below; modules starting with ``_`` and the internals of
``readers``/``writers`` may change. Heavy dependencies (httpx, feedparser, rich) are
imported only when a feature needs them, so ``import sitemapconv`` stays cheap.
"""

from typing import TYPE_CHECKING, Any

from .api import convert, read, write
from .detect import detect
from .diff import Change, Comparison, DiffStats, diff
from .discover import Found, discover
from .errors import (
    DocumentConsumedError,
    FetchError,
    FormatError,
    LimitError,
    ParseError,
    PartialError,
    SitemapError,
    SitemapWarning,
    WriteError,
)
from .filters import FilterOptions, FilterStats, apply_filters
from .model import Alternate, Document, Entry, FeedMeta, Image, News, Video
from .options import ReadOptions, WriteOptions
from .problems import Problem, Report
from .validate import validate
from .version import __version__

if TYPE_CHECKING:
    from .aio import AsyncDocument, aread
    from .cache import HttpCache
    from .follow import FollowStats

#: Names imported on first use, because their modules pull in asyncio or threads.
_LAZY = {"aread": "aio", "AsyncDocument": "aio", "FollowStats": "follow", "HttpCache": "cache"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Alternate",
    "AsyncDocument",
    "Change",
    "Comparison",
    "DiffStats",
    "Document",
    "DocumentConsumedError",
    "Entry",
    "FeedMeta",
    "FetchError",
    "FilterOptions",
    "FilterStats",
    "FollowStats",
    "FormatError",
    "Found",
    "HttpCache",
    "Image",
    "LimitError",
    "News",
    "ParseError",
    "PartialError",
    "Problem",
    "ReadOptions",
    "Report",
    "SitemapError",
    "SitemapWarning",
    "Video",
    "WriteError",
    "WriteOptions",
    "__version__",
    "apply_filters",
    "aread",
    "convert",
    "detect",
    "diff",
    "discover",
    "read",
    "validate",
    "write",
]
