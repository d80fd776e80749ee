"""Following sitemap indexes recursively (placeholder until the remote-sitemaps work lands)."""

from __future__ import annotations

from .errors import SitemapError
from .model import Document
from .options import ReadOptions
from .source import Source


def read_followed(source: Source, format: str | None, options: ReadOptions) -> Document:
    raise SitemapError("following indexes is not implemented yet", source=str(source))
