"""sitemapconv: read, convert and write every format in which a website lists its URLs.

The public API is the names below; modules starting with ``_`` and the internals of
``readers``/``writers`` may change. Heavy dependencies (httpx, feedparser, rich) are
imported only when a feature needs them, so ``import sitemapconv`` stays cheap.
"""

from .api import convert, read, write
from .detect import detect
from .errors import (
    FetchError,
    FormatError,
    LimitError,
    ParseError,
    SitemapError,
    SitemapWarning,
    WriteError,
)
from .filters import FilterOptions, FilterStats, apply_filters
from .model import Alternate, Document, Entry, FeedMeta, Image, News, Video
from .options import ReadOptions, WriteOptions
from .version import __version__

__all__ = [
    "Alternate",
    "Document",
    "Entry",
    "FeedMeta",
    "FetchError",
    "FilterOptions",
    "FilterStats",
    "FormatError",
    "Image",
    "LimitError",
    "News",
    "ParseError",
    "ReadOptions",
    "SitemapError",
    "SitemapWarning",
    "Video",
    "WriteError",
    "WriteOptions",
    "__version__",
    "apply_filters",
    "convert",
    "detect",
    "read",
    "write",
]
