"""xml -> xml keeps every field of the protocol and of the four extensions.

Each extension sample is read, written as xml, validated against the wrapper schema of every
extension XSD, read back and compared field by field (dataclass equality of each Entry, plus
the kind and offset of every date). The differences that remain are intended and asserted
exactly: URLs are percent-encoded (PROTOCOL §2), and data the XSDs or Google reject is
dropped or shortened by the writer, with a warning.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemapconv._model import (
    Alternate,
    Entry,
    Image,
    News,
    Video,
    VideoId,
    VideoPrice,
    VideoTvShow,
)
from tests.extension_support import (
    CORPUS_SAMPLES,
    DATA,
    EVERY_FIELD,
    assert_same_entries,
    read_all,
    sample_path,
    with_encoded_urls,
    write_bytes,
)
from tests.sitemap_schemas import assert_valid

ALL_SAMPLES = [sample_path(name) for name in CORPUS_SAMPLES] + [EVERY_FIELD]
#: The samples whose URLs hold characters RFC 3986 forbids (the alltags sample escapes
#: ``&<>'"`` into every value, URLs included).
UNSAFE_URLS = {"alltags-escaped.xml"}
EMPTY_NEWS_LOC = "http://www.example.org/empty_news_name.html"


def _what(warning: str) -> str:
    """A reader warning without its source name and line number."""
    return re.sub(r"line \d+: ", "", warning.split(": ", 1)[1])


def _expected(name: str, original: list[Entry]) -> list[Entry]:
    """What xml -> xml must give for a sample: the original, but for the intended changes."""
    expected = [with_encoded_urls(e) for e in original]
    if name == "news-sitemap.xml":
        # <news:name></news:name>: the XSD takes an empty string, Google does not (the name
        # must match the publication). The writer drops such a news:news with a warning
        # rather than write a news item search engines reject.
        expected = [
            dataclasses.replace(e, news=None) if e.loc == EMPTY_NEWS_LOC else e for e in expected
        ]
    return expected


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: p.name)
def test_xml_to_xml_keeps_every_field(path: object) -> None:
    assert hasattr(path, "name")
    original, source_warnings = read_all(path)  # type: ignore[arg-type]
    assert original, "the sample has entries"
    data, warnings = write_bytes(original, "xml")
    assert_valid(data, "extensions")
    back, read_warnings = read_all(data)
    # Reading back warns about what the model kept of the source's flaws (video-sitemap.xml:
    # prices without a value), not about what reading the source skipped (a link without href).
    kept_flaws = [_what(w) for w in source_warnings if not w.endswith("skipped")]
    assert [_what(w) for w in read_warnings] == kept_flaws
    assert_same_entries(_expected(path.name, original), back)  # type: ignore[attr-defined]
    if path.name == "news-sitemap.xml":  # type: ignore[attr-defined]
        assert warnings == [
            f"<stream>: dropped news:news in {EMPTY_NEWS_LOC!r}: it lacks publication name"
        ]
    else:
        assert warnings == []
    # The output is canonical: writing what was read back gives the same bytes.
    again, _ = write_bytes(back, "xml")
    assert again == data


@pytest.mark.parametrize("name", CORPUS_SAMPLES)
def test_only_unsafe_urls_change(name: str) -> None:
    """The URL encoding is the identity except where a source URL is not a valid URI."""
    original, _ = read_all(sample_path(name))
    encoded = [with_encoded_urls(e) for e in original]
    assert (encoded != original) == (name in UNSAFE_URLS)


def test_every_field_sample_sets_every_field() -> None:
    """The lossless check above is only as good as the sample: it must use every field."""
    entries, warnings = read_all(EVERY_FIELD)
    assert warnings == []
    seen: dict[type, set[str]] = {}

    def visit(obj: object) -> None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            return
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if value is not None and value != () and value != []:
                seen.setdefault(type(obj), set()).add(f.name)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                visit(item)

    for entry in entries:
        visit(entry)
    for cls in (Image, Video, VideoPrice, VideoTvShow, VideoId, News, Alternate):
        names = {f.name for f in dataclasses.fields(cls)}
        assert seen[cls] == names, cls.__name__
    sitemap_fields = {f.name for f in dataclasses.fields(Entry)} - {
        "title",
        "summary",
        "id",
        "published",  # feed fields: a sitemap has none
    }
    assert seen[Entry] == sitemap_fields
    # The date forms the reader accepts: date, reduced dates, naive, UTC, offsets, fractions.
    lastmods = [e.lastmod for e in entries]
    assert dt.date(2024, 1, 1) in lastmods  # "2024"
    assert any(isinstance(w, dt.datetime) and w.tzinfo is None for w in lastmods)
    assert any(isinstance(w, dt.datetime) and w.microsecond for w in lastmods)


def test_every_field_sample_comes_back_in_canonical_spellings() -> None:
    data, _ = write_bytes(read_all(EVERY_FIELD)[0], "xml")
    text = data.decode()
    for canonical in (
        'allow_embed="yes"',
        'relationship="allow"',
        'type="url"',
        "<video:video_type>full</video:video_type>",
        "<video:family_friendly>yes</video:family_friendly>",
        "<changefreq>weekly</changefreq>",
        "<priority>0.85</priority>",
        "<priority>0.123456789</priority>",
        "<video:rating>0.5</video:rating>",
        "<lastmod>2024-01-01</lastmod>",
        "<lastmod>2024-05-01T10:20:30</lastmod>",
        "<lastmod>2024-05-01T10:20:30.123456+02:00</lastmod>",
        "<news:publication_date>2024-05-01T10:20:00+02:00</news:publication_date>",
        "https://cdn.example.com/img/%C3%BC%20space.jpg",
        'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
        "<mobile:mobile/>",
    ):
        assert canonical in text, canonical


def test_source_violations_are_dropped_exactly() -> None:
    """What the XSDs or Google reject is dropped or shortened, one warning each; nothing else."""
    path = DATA / "extensions" / "xsd-violations.xml"
    original, read_warnings = read_all(path)
    assert read_warnings == []
    data, warnings = write_bytes(original, "xml")
    assert_valid(data, "extensions")
    back, _ = read_all(data)

    no_media, no_description, out_of_range = original[0].videos
    long_title = out_of_range.title
    assert long_title is not None and len(long_title) > 100
    kept = dataclasses.replace(
        out_of_range,
        title=long_title[:100],
        duration=None,
        rating=None,
        restriction=None,
        restriction_relationship=None,
        tvshow=None,
        ids=[VideoId("https://www.example.com/ids/3", "url")],
    )
    assert no_media.content_loc is None and no_media.player_loc is None
    assert no_description.description is None
    expected = [
        dataclasses.replace(original[0], videos=[kept]),
        dataclasses.replace(original[1], news=None),
    ]
    assert_same_entries(expected, back)
    first, second = (e.loc for e in original)
    assert warnings == [
        f"<stream>: dropped a video in {first!r}: it lacks content_loc or player_loc",
        f"<stream>: dropped a video in {first!r}: it lacks description",
        "<stream>: shortened video:title texts to the 100 characters the video XSD allows",
        f"<stream>: dropped video:duration 30000 in {first!r}: not 0..28800",
        "<stream>: dropped video:rating values outside 0.0..5.0 (first: 7.5)",
        f"<stream>: dropped video:restriction in {first!r}: attribute value 'maybe' is not one "
        "of allow, deny",
        f"<stream>: dropped video:tvshow in {first!r}: it needs show_title and a video_type of "
        "clip, full, interview, news, other, preview",
        f"<stream>: dropped video:id in {first!r}: attribute value 'nonsense' is not one of "
        "freebase, rovi:program, rovi:series, tms:program, tms:series, url",
        f"<stream>: dropped news:news in {second!r}: it lacks publication name",
    ]


_UNIT = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
_RATING = st.floats(min_value=0.0, max_value=5.0, allow_nan=False)


@settings(max_examples=150, deadline=None)
@given(priority=_UNIT, rating=_RATING)
def test_decimals_survive_exactly(priority: float, rating: float) -> None:
    """priority and rating are written in positional notation that reads back to the same
    float, whatever its size (a tiny value must not come back as 0.0)."""
    video = Video(
        thumbnail_loc="https://ex.com/t.jpg",
        title="t",
        description="d",
        content_loc="https://ex.com/v.mp4",
        rating=rating,
    )
    entry = Entry("https://ex.com/a", priority=priority, videos=[video])
    data, warnings = write_bytes([entry], "xml")
    assert warnings == []
    assert b"e-" not in data and b"E-" not in data
    (back,), _ = read_all(data)
    assert back.priority == priority
    assert back.videos[0].rating == rating
