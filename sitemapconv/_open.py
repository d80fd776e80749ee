"""Opening one source: detect its format (or take the forced one) and start its reader.

Below both the verbs (:mod:`sitemapconv._api`) and following (:mod:`sitemapconv._follow`),
which opens every child sitemap this way; neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from ._detect import detect
from ._model import Document, Entry
from ._options import ReadOptions
from ._registry import canonical, get_reader
from ._source import Source, open_source
from .errors import ParseError, SitemapError
from .readers import ReadContext


def _guard(entries: Iterator[Entry], ctx: ReadContext) -> Iterator[Entry]:
    """Let only :class:`SitemapError` escape a reader, whatever the input did to it."""
    try:
        yield from entries
    except SitemapError:
        raise
    except etree.LxmlError as exc:
        raise ParseError(f"cannot parse XML ({exc})", source=ctx.source) from None
    except (MemoryError, RecursionError) as exc:
        raise SitemapError(
            f"input too complex to read ({type(exc).__name__})", source=ctx.source
        ) from None
    except (ValueError, TypeError, UnicodeError, LookupError, OSError, EOFError) as exc:
        raise SitemapError(f"cannot read ({exc})", source=ctx.source) from None


def open_document(source: Source, format: str | None, options: ReadOptions) -> Document:
    """Open one source and start its reader, without following indexes."""
    opened = open_source(source, options)
    try:
        name = canonical(format) if format else detect(opened.head, source=opened.name)
        reader_class = get_reader(name)
        if format:
            reader_class.check_forced(opened.head, opened.name)
        reader = reader_class()
    except BaseException:
        opened.close()
        raise
    ctx = ReadContext(source=opened.name, options=options, url=opened.url)
    entries = _guard(reader.read(opened.stream, ctx), ctx)
    return Document(
        format=name, source=opened.name, _entries=entries, meta=ctx.meta, _on_close=opened.close
    )
