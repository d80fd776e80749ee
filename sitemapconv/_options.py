"""Options travel as one record per side, as in pandoc (ReaderOptions / WriterOptions).

Adding an option means adding a field here, not threading a keyword through every call.
``read(..., **kwargs)`` and ``write(..., **kwargs)`` accept these field names directly.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import SitemapError, SitemapWarning

if TYPE_CHECKING:
    from ._cache import HttpCache

#: Default cap on the bytes one source may yield after decompression (zip-bomb guard).
DEFAULT_MAX_BYTES = 100 * 1024 * 1024

WarningHandler = Callable[[str], None]


@dataclass(slots=True)
class ReadOptions:
    """Everything that changes how sources are opened and read."""

    #: Cap on the (decompressed) bytes read from one source; past it, ``LimitError``.
    max_bytes: int = DEFAULT_MAX_BYTES
    #: Called with each warning message instead of :func:`warnings.warn` when set.
    on_warning: WarningHandler | None = None
    #: Follow sitemap indexes recursively, yielding page entries (see :mod:`sitemapconv._follow`).
    follow: bool = False
    max_depth: int = 3
    max_sitemaps: int = 10_000
    #: Children fetched at once while following.
    concurrency: int = 8
    #: Choose which child sitemaps to follow: called with the child URL.
    sitemap_filter: Callable[[str], bool] | None = None
    #: Refuse children on loopback/private/link-local addresses (unless the start was one).
    block_private: bool = True
    # HTTP
    timeout: float = 30.0
    connect_timeout: float = 10.0
    retries: int = 3
    backoff: float = 0.5
    max_retry_after: float = 60.0
    max_redirects: int = 10
    user_agent: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: Also send ``headers`` to other origins than the start URL's (redirects, children).
    forward_headers: bool = False
    #: Base URL used to resolve relative URLs and as the document's location.
    base_url: str | None = None
    #: Raise :class:`~sitemapconv.errors.PartialError` at the end of the entries when a
    #: followed child failed (``Document.failures``), instead of only warning.
    strict: bool = False
    # HTTP cache (see sitemapconv._cache)
    #: A directory (or an :class:`~sitemapconv._cache.HttpCache`) keeping fetched sitemaps.
    cache: str | os.PathLike[str] | HttpCache | None = None
    #: Size bound of the cache database in bytes.
    cache_max_bytes: int = 1024**3
    #: While following, reuse a cached child without a request when the index's lastmod
    #: for it is the one it had when the cached copy was stored.
    trust_index_lastmod: bool = False


@dataclass(slots=True)
class WriteOptions:
    """Everything that changes how entries are written."""

    on_warning: WarningHandler | None = None
    gzip: bool = False
    # feed metadata overrides / defaults
    title: str | None = None
    link: str | None = None
    description: str | None = None
    author: str | None = None
    feed_id: str | None = None
    self_link: str | None = None
    #: Write lastmod as a date only (YYYY-MM-DD) in sitemaps.
    date_only: bool = False
    # splitting (sitemap output over the protocol's limits)
    split: bool | None = None
    base_url: str | None = None
    max_urls: int = 50_000
    max_file_bytes: int = 52_428_800
    part_name: str | None = None


T = TypeVar("T", ReadOptions, WriteOptions)


def build_options(cls: type[T], options: T | None, overrides: dict[str, Any]) -> T:
    """Merge keyword overrides into an options record, rejecting unknown names clearly."""
    base = options if options is not None else cls()
    if not overrides:
        return base
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise TypeError(f"unknown {cls.__name__} option(s): {', '.join(unknown)}")
    return replace(base, **overrides)


def emit_warning(handler: WarningHandler | None, message: str) -> None:
    """Report a non-fatal problem through the caller's handler, else the warnings module.

    A warning points at the caller's line (the ``for`` over a Document, the ``write()``
    call), never at sitemapconv's own code: the stack level is counted past every frame of
    this package, however deep the reader or writer that warned.
    """
    if handler is not None:
        handler(message)
    else:
        warnings.warn(message, SitemapWarning, stacklevel=_caller_level())


#: The package's directory: frames from files under it are not the caller.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this package, seen from emit_warning.

    (What ``skip_file_prefixes`` does on Python 3.12+, computed so that 3.10 and 3.11 get
    the same result.)
    """
    level = 1
    frame = sys._getframe(1)  # emit_warning's frame
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


__all__ = [
    "DEFAULT_MAX_BYTES",
    "ReadOptions",
    "SitemapError",
    "WarningHandler",
    "WriteOptions",
    "build_options",
    "emit_warning",
]
