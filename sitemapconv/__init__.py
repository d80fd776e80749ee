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
from .model import Alternate, Document, Entry, FeedMeta, Image, News, Video
from .options import ReadOptions, WriteOptions
from .problems import Problem, Report
from .validate import validate
from .version import __version__

__all__ = [
    "Alternate",
    "Document",
    "Entry",
    "FeedMeta",
    "FetchError",
    "FormatError",
    "Image",
    "LimitError",
    "News",
    "ParseError",
    "Problem",
    "ReadOptions",
    "Report",
    "SitemapError",
    "SitemapWarning",
    "Video",
    "WriteError",
    "WriteOptions",
    "__version__",
    "convert",
    "detect",
    "read",
    "validate",
    "write",
]
