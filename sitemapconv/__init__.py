"""sitemapconv: read, convert and write every format in which a website lists its URLs.

The public API is the names below; modules starting with ``_`` and the internals of
``readers``/``writers`` may change. Heavy dependencies (httpx, feedparser, rich) are
imported only when a feature needs them, so ``import sitemapconv`` stays cheap.
"""

from typing import TYPE_CHECKING, Any

from ._api import convert, read, write
from ._detect import detect
from ._diff import Change, Comparison, DiffStats, diff
from ._discover import Found, discover
from ._filters import FilterOptions, FilterStats, apply_filters
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
    WriteError,
)

if TYPE_CHECKING:
    from ._cache import HttpCache
    from ._follow.async_driver import AsyncDocument, aread
    from ._follow.results import FollowStats

#: Names imported on first use, because their modules pull in asyncio or threads.
_LAZY = {
    "aread": "_follow.async_driver",
    "AsyncDocument": "_follow.async_driver",
    "FollowStats": "_follow.results",
    "HttpCache": "_cache",
}


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
