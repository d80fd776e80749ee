"""Where child sitemaps are: their URLs resolved against their index, and the index's own.

An index lists its children as URLs, relative ones included; they are resolved against the
index's own location (its final URL after redirects, ``base_url``, or a local file's
``file:`` URL), as sitemaps.org and RFC 3986 section 5 resolve any reference.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from .._options import ReadOptions
from .._urls import is_http

if TYPE_CHECKING:
    from .._source import Source


def join(base: str | None, loc: str) -> str:
    """``loc`` resolved against ``base``; a URL too malformed to resolve is kept as written
    (the door then fails that one child)."""
    if not base:
        return loc
    try:
        return urljoin(base, loc)
    except ValueError:
        return loc


def document_location(source: Source, options: ReadOptions) -> str | None:
    """The URL children are resolved against: base_url, else the path's ``file:`` URL."""
    if options.base_url:
        return options.base_url
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if text.lower().startswith("file:"):
            return text
        if text != "-" and not is_http(text):
            return Path(text).resolve().as_uri()
    return None
