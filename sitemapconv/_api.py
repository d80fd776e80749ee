"""The library's three verbs: :func:`read`, :func:`write` and :func:`convert`.

Everything the CLI does goes through these, so the CLI holds no logic of its own.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from ._filters import FilterOptions, Pipeline
from ._model import Document, Entry, FeedMeta
from ._open import open_document
from ._options import ReadOptions, WriteOptions, build_options
from ._registry import canonical, get_writer, writer_for_filename
from ._sink import Dest, dest_name, open_dest
from ._source import Source
from .errors import SitemapError, WriteError
from .writers import WriteContext


def read(
    source: Source,
    format: str | None = None,
    *,
    options: ReadOptions | None = None,
    **kwargs: Any,
) -> Document:
    """Read a sitemap, index, feed or URL list; the format is detected from content.

    ``source`` is a path, ``"-"`` (stdin), an http(s) URL, bytes, or a binary file.
    Keyword arguments are :class:`~sitemapconv._options.ReadOptions` fields, for example
    ``follow=True`` to read the page entries of every child of a sitemap index.
    """
    opts = build_options(ReadOptions, options, kwargs)
    try:
        if opts.follow:
            from ._follow.sync import read_followed

            doc: Document = read_followed(source, format, opts)
        else:
            doc = open_document(source, format, opts)
    except SitemapError:
        raise
    except (ValueError, UnicodeError) as exc:  # a URL or header the HTTP layer cannot use
        raise SitemapError(f"cannot read ({exc})", source=_source_name(source)) from None
    except Exception as exc:
        httpx = sys.modules.get("httpx")  # loaded only when a URL was opened
        if httpx is not None and isinstance(exc, httpx.InvalidURL):
            raise SitemapError(f"not a valid URL ({exc})", source=_source_name(source)) from None
        raise
    doc.strict = opts.strict
    return doc


def _source_name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return repr(os.fspath(source)) if "\x00" in os.fspath(source) else os.fspath(source)
    return "<source>"


def write(
    entries: Iterable[Entry] | Document,
    dest: Dest,
    format: str | None = None,
    *,
    meta: FeedMeta | None = None,
    options: WriteOptions | None = None,
    **kwargs: Any,
) -> int:
    """Write entries to ``dest`` (a path, ``"-"`` or a binary file); return the count.

    The format comes from ``format``, else from the destination's file extension. A path is
    written atomically (through a symlink, its target is; a device, FIFO or socket is written
    in place; see :mod:`sitemapconv._destination`). Keyword arguments are
    :class:`~sitemapconv._options.WriteOptions` fields (``gzip=True``, ``title=...``). With
    ``split=True`` and a path, ``xml`` output over the protocol's limits becomes numbered
    parts plus an index at ``dest`` (see :mod:`sitemapconv._split`; needs ``base_url``).
    """
    opts = build_options(WriteOptions, options, kwargs)
    name = dest_name(dest)
    fmt = canonical(format) if format else writer_for_filename(name)
    if fmt is None:
        raise WriteError(
            "no output format given and none can be told from the file name", source=name
        )
    writer = get_writer(fmt)()
    if meta is None:
        meta = entries.prime() if isinstance(entries, Document) else FeedMeta()
    gzip_output = opts.gzip or name.lower().endswith(".gz")
    ctx = WriteContext(dest=name, options=opts, meta=meta)
    if opts.split and fmt == "xml" and isinstance(dest, (str, os.PathLike)) and name != "<stdout>":
        # Parts need a directory to go in; a stream gets one sitemap (warned when too big).
        from ._split import can_split, write_split

        if can_split(os.fspath(dest)):
            return write_split(entries, os.fspath(dest), ctx)
    with open_dest(dest, gzip_output=gzip_output) as out:
        return writer.write(entries, out, ctx)


def _split_options(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    read_names = {f.name for f in fields(ReadOptions)}
    write_names = {f.name for f in fields(WriteOptions)}
    r = {k: v for k, v in kwargs.items() if k in read_names}
    w = {k: v for k, v in kwargs.items() if k in write_names}
    unknown = set(kwargs) - read_names - write_names
    if unknown:
        raise TypeError(f"unknown option(s): {', '.join(sorted(unknown))}")
    if "on_warning" in kwargs:
        w["on_warning"] = kwargs["on_warning"]
    if "base_url" in kwargs:
        w["base_url"] = kwargs["base_url"]
    return r, w


def convert(
    source: Source,
    dest: Dest,
    to: str | None = None,
    *,
    from_: str | None = None,
    filters: FilterOptions | None = None,
    **kwargs: Any,
) -> int:
    """Read ``source`` and write it to ``dest`` in format ``to``; return the count written.

    ``filters`` applies the transforms of :mod:`sitemapconv._filters` between the two
    (``filters=FilterOptions(dedupe=True, since=date(2024, 1, 1))``).
    """
    read_kwargs, write_kwargs = _split_options(kwargs)
    pipeline = Pipeline(filters) if filters is not None and filters.active else None
    with read(source, from_, **read_kwargs) as doc:
        if pipeline is None:
            return write(doc, dest, to, **write_kwargs)
        meta = doc.prime()
        return write(pipeline(doc), dest, to, meta=meta, **write_kwargs)
