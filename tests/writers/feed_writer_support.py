"""Helpers shared by the RSS, Atom 1.0 and Atom 0.3 writer tests.

Entries are built directly from the model (the readers are developed separately); output is
produced through the public :func:`sitemapconv.write` and parsed back with a hardened lxml
parser.
"""

from __future__ import annotations

import datetime as dt
import gc
import io
import tracemalloc
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree

import sitemapconv
from sitemapconv._dates import parse_w3c
from sitemapconv._model import Entry, FeedMeta, Image, Video

MEDIA = "http://search.yahoo.com/mrss/"
#: RFC 4287's RELAX NG schema, converted from the vendored RNC (see its SOURCES.md).
ATOM_RNG = Path(__file__).resolve().parent.parent / "data" / "atom-schema" / "atom.rng"

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def render(
    fmt: str, entries: Iterable[Entry], meta: FeedMeta | None = None, **options: Any
) -> tuple[bytes, list[str]]:
    """Write ``entries`` in ``fmt`` to memory; return the bytes and the warnings emitted."""
    warnings: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, fmt, meta=meta, on_warning=warnings.append, **options)
    return out.getvalue(), warnings


def parse(data: bytes) -> Any:
    """The root element of ``data``, parsed without DTDs, entities or network."""
    return etree.fromstring(data, _PARSER)


@cache
def atom_schema() -> etree.RelaxNG:
    """The Atom 1.0 RELAX NG schema (loaded once per test session)."""
    return etree.RelaxNG(etree.parse(str(ATOM_RNG), _PARSER))


def rich_entry(n: int) -> Entry:
    """An entry using the extensions a feed can carry, with some it cannot."""
    return Entry(
        loc=f"https://www.example.com/page/{n}?a=1&b=2",
        lastmod=parse_w3c(f"2024-03-{n % 28 + 1:02d}T10:00:00+01:00"),
        priority=0.5,
        images=[Image(loc=f"https://img.example.com/{n}.jpg", caption="A caption")],
        videos=[
            Video(
                thumbnail_loc=f"https://img.example.com/{n}-thumb.jpg",
                title="A video",
                description="About it",
                content_loc=f"https://cdn.example.com/{n}.mp4",
            )
        ],
    )


def _many(count: int) -> Iterator[Entry]:
    """Plain entries (every 100th with an image), made one at a time as a reader would."""
    base = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)
    for n in range(count):
        images = (Image(loc=f"https://img.example.com/{n}.jpg"),) if n % 100 == 0 else ()
        yield Entry(
            loc=f"https://www.example.com/page/{n}",
            lastmod=base + dt.timedelta(seconds=n),
            images=images,
        )


def peak_memory(fmt: str, count: int, dest: Path) -> int:
    """Peak traced memory (bytes) while writing ``count`` generated entries to a file."""
    gc.collect()
    tracemalloc.start()
    try:
        written = sitemapconv.write(_many(count), dest, fmt, on_warning=lambda _: None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert written == count
    return peak
