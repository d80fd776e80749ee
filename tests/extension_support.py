"""Helpers for the extension round-trip tests: write, read back, compare field by field."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import sitemapconv
from sitemapconv._model import Entry
from sitemapconv._urls import encode_url

DATA = Path(__file__).parent / "data"

#: The extension samples copied from the shared corpus (tests/data/sitemaps/SOURCES.md).
CORPUS_SAMPLES = (
    "image-sitemap.xml",
    "video-sitemap.xml",
    "news-sitemap.xml",
    "news-sitemap-real-hebdenbridgetimes.xml",
    "news-sitemap-real-shinpaideshou.xml",
    "hreflang-xhtml-links.xml",
    "hreflang-trafilatura.xml",
    "hreflang-missing-href.xml",
    "alltags-escaped.xml",
)
EVERY_FIELD = DATA / "extensions" / "every-field.xml"


def sample_path(name: str) -> Path:
    return DATA / "sitemaps" / name


def read_all(source: Path | bytes, format: str | None = None) -> tuple[list[Entry], list[str]]:
    """Every entry of ``source`` and the warnings reading gave."""
    warnings: list[str] = []
    with sitemapconv.read(source, format, on_warning=warnings.append) as doc:
        return list(doc), warnings


def write_bytes(entries: Iterable[Entry], format: str) -> tuple[bytes, list[str]]:
    """``entries`` written as ``format`` to memory, and the warnings writing gave."""
    warnings: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, format, on_warning=warnings.append)
    return out.getvalue(), warnings


def _url(value: str | None) -> str | None:
    return None if value is None else encode_url(value)


def with_encoded_urls(entry: Entry) -> Entry:
    """``entry`` with every URL field percent-encoded as writers write URLs (PROTOCOL §2).

    This is the one intended difference of xml -> xml: a URL holding characters RFC 3986
    forbids (``<``, ``>``, ``"``, spaces, non-ASCII) comes back percent-encoded; every other
    URL is unchanged (encode_url returns a clean URL as it is).
    """
    replace = dataclasses.replace
    images = [replace(i, loc=encode_url(i.loc), license=_url(i.license)) for i in entry.images]
    videos = [
        replace(
            v,
            thumbnail_loc=_url(v.thumbnail_loc),
            content_loc=_url(v.content_loc),
            player_loc=_url(v.player_loc),
            gallery_loc=_url(v.gallery_loc),
            uploader_info=_url(v.uploader_info),
            content_segment_locs=type(v.content_segment_locs)(
                (encode_url(loc), duration) for loc, duration in v.content_segment_locs
            ),
        )
        for v in entry.videos
    ]
    alternates = [replace(a, href=encode_url(a.href)) for a in entry.alternates]
    return replace(
        entry,
        loc=encode_url(entry.loc),
        images=type(entry.images)(images),
        videos=type(entry.videos)(videos),
        alternates=type(entry.alternates)(alternates),
    )


def _dates(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, (dt.date, dt.datetime)):
        yield path, value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _dates(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _dates(item, f"{path}[{i}]")


def date_forms(entry: Entry) -> list[tuple[str, str, Any]]:
    """Each date of ``entry`` with its kind and offset: ``==`` alone would take 10:00+02:00
    for 08:00Z, and does not tell a date from a naive midnight in every case."""
    return [
        (path, type(when).__name__, getattr(when, "utcoffset", lambda: None)())
        for path, when in _dates(entry, "entry")
    ]


def assert_same_entries(expected: list[Entry], actual: list[Entry]) -> None:
    """Dataclass equality of every entry, every field; ``sitemap`` (where it was read) aside."""
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        want = dataclasses.replace(want, sitemap=None)
        got = dataclasses.replace(got, sitemap=None)
        assert got == want, want.loc
        assert date_forms(got) == date_forms(want), want.loc
