"""Where readers and writers are found: built-in lookup tables plus entry-point plugins.

As in Pygments' ``_mapping.py``, built-in formats are listed by module path so that
``import sitemapconv`` imports no reader or writer; a module is imported when its format is
used. Third-party formats register ``name = "module:Class"`` under the entry-point groups
``sitemapconv.readers`` and ``sitemapconv.writers``.

The public face is :func:`get_reader`, :func:`get_writer`, :func:`writer_for_filename`,
:func:`reader_names`, :func:`writer_names` and :func:`sitemapconv._detect.detect`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from functools import cache
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from .errors import UnknownFormat as UnknownFormat  # raised here; imported from here too

if TYPE_CHECKING:
    from .readers import Reader
    from .writers import Writer

READER_GROUP = "sitemapconv.readers"
WRITER_GROUP = "sitemapconv.writers"

_READERS: dict[str, str] = {
    "xml": "sitemapconv.readers._urlset:SitemapReader",
    "index": "sitemapconv.readers._index:IndexReader",
    "rss": "sitemapconv.readers._rss:RssReader",
    "atom": "sitemapconv.readers._atom:AtomReader",
    "atom03": "sitemapconv.readers._atom03:Atom03Reader",
    "txt": "sitemapconv.readers._text:TextReader",
    "feedparser": "sitemapconv.readers._feedparser:FeedparserReader",
    "jsonfeed": "sitemapconv.readers._jsonfeed:JsonFeedReader",
}

_WRITERS: dict[str, str] = {
    "xml": "sitemapconv.writers._urlset:SitemapWriter",
    "index": "sitemapconv.writers._index:IndexWriter",
    "rss": "sitemapconv.writers._rss:RssWriter",
    "atom": "sitemapconv.writers._atom:AtomWriter",
    "atom03": "sitemapconv.writers._atom03:Atom03Writer",
    "txt": "sitemapconv.writers._text:TextWriter",
    "jsonl": "sitemapconv.writers._jsonl:JsonlWriter",
    "csv": "sitemapconv.writers._csv:CsvWriter",
    "jsonfeed": "sitemapconv.writers._jsonfeed:JsonFeedWriter",
    "parquet": "sitemapconv.writers._parquet:ParquetWriter",
}

#: Aliases shared by both sides. Each class repeats its own in ``aliases``; a test checks it.
ALIASES: dict[str, str] = {
    "sitemap": "xml",
    "urlset": "xml",
    "sitemapindex": "index",
    "rss2": "rss",
    "atom10": "atom",
    "text": "txt",
    "ndjson": "jsonl",
}

#: Output extensions, for picking the writer from ``-o``'s file name.
_EXTENSIONS: dict[str, str] = {
    ".xml": "xml",
    ".rss": "rss",
    ".atom": "atom",
    ".atom03": "atom03",
    ".txt": "txt",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".json": "jsonfeed",
    ".parquet": "parquet",
}


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


@cache
def _plugins(group: str) -> dict[str, Any]:
    from importlib.metadata import entry_points  # costly; only when a format is looked up

    return {ep.name: ep for ep in entry_points(group=group)}


def canonical(name: str) -> str:
    """The canonical format name for a name or alias (case-insensitive)."""
    key = name.strip().lower()
    return ALIASES.get(key, key)


def reader_names() -> list[str]:
    return [*_READERS, *(n for n in _plugins(READER_GROUP) if n not in _READERS)]


def writer_names() -> list[str]:
    return [*_WRITERS, *(n for n in _plugins(WRITER_GROUP) if n not in _WRITERS)]


def get_reader(name: str) -> type[Reader]:
    key = canonical(name)
    if key in _READERS:
        return _load(_READERS[key])  # type: ignore[no-any-return]
    plugin = _plugins(READER_GROUP).get(key)
    if plugin is None:
        raise UnknownFormat(f"unknown input format {name!r} (known: {', '.join(reader_names())})")
    return plugin.load()  # type: ignore[no-any-return]


def get_writer(name: str) -> type[Writer]:
    key = canonical(name)
    if key in _WRITERS:
        return _load(_WRITERS[key])  # type: ignore[no-any-return]
    plugin = _plugins(WRITER_GROUP).get(key)
    if plugin is None:
        raise UnknownFormat(f"unknown output format {name!r} (known: {', '.join(writer_names())})")
    return plugin.load()  # type: ignore[no-any-return]


def reader_classes() -> Iterator[tuple[str, type[Reader]]]:
    """Every reader that can be loaded; a broken plugin is skipped, not fatal to detection."""
    for name in reader_names():
        try:
            yield name, get_reader(name)
        except (ImportError, AttributeError):
            continue


def writer_for_filename(path: str) -> str | None:
    """The writer for an output file name, from its extension (``.gz`` is looked through)."""
    suffixes = [s.lower() for s in PurePath(path).suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes.pop()
    if not suffixes:
        return None
    ext = suffixes[-1]
    if ext in _EXTENSIONS:
        return _EXTENSIONS[ext]
    for name in writer_names():
        if ext in get_writer(name).extensions:
            return name
    return None
