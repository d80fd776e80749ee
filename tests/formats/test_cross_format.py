"""Extensions across formats: xml -> feed -> back, feed -> xml -> back, and what is dropped.

What a feed carries of the sitemap extensions (Media RSS, :mod:`sitemapconv.writers._mediarss`,
and Atom links):

- images: ``loc``, ``title``, ``caption`` (``geo_location`` and ``license`` are dropped);
- videos: ``thumbnail_loc``, ``title``, ``description``, ``content_loc``, ``player_loc``,
  ``duration`` (every other video field is dropped);
- hreflang alternates: Atom 1.0 only, as ``href`` + ``hreflang`` (links without hreflang,
  with another ``rel``, or repeating an hreflang are dropped, and so is ``media``);
- news, priority, changefreq and mobile: dropped by every feed.

Every conversion that drops something says so in one warning per run naming the fields.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from sitemapconv._model import Alternate, Entry, Image, Video
from sitemapconv._urls import encode_url
from tests.extension_support import (
    DATA,
    EVERY_FIELD,
    assert_same_entries,
    read_all,
    sample_path,
    write_bytes,
)
from tests.sitemap_schemas import assert_valid
from tests.writers.feed_writer_support import atom_schema, parse

FEED_SAMPLES = [
    sample_path(name)
    for name in (
        "image-sitemap.xml",
        "video-sitemap.xml",
        "hreflang-xhtml-links.xml",
        "hreflang-trafilatura.xml",
        "alltags-escaped.xml",
    )
] + [EVERY_FIELD]
YOUTUBE = DATA / "feeds" / "atom10-real-youtube-mediarss.xml"
RSS_MEDIA = DATA / "extensions" / "rss2-mediarss.xml"
UTC = dt.timezone.utc

#: The video fields Media RSS carries; every other one is dropped by the feed writers.
VIDEO_KEPT = ("thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration")
VIDEO_DROPPED = {f"video.{f.name}" for f in dataclasses.fields(Video)} - {
    f"video.{name}" for name in VIDEO_KEPT
}


def _url(value: str | None) -> str | None:
    return None if value is None else encode_url(value)


def feed_images(entry: Entry) -> list[Image]:
    return [Image(loc=encode_url(i.loc), caption=i.caption, title=i.title) for i in entry.images]


def feed_videos(entry: Entry) -> list[Video]:
    """The videos as a feed gives them back; one without any URL cannot be written at all."""
    return [
        Video(
            thumbnail_loc=_url(v.thumbnail_loc),
            title=v.title,
            description=v.description,
            content_loc=_url(v.content_loc),
            player_loc=_url(v.player_loc),
            duration=v.duration,
        )
        for v in entry.videos
        if v.content_loc or v.player_loc
    ]


def atom_alternates(entry: Entry) -> list[Alternate]:
    """The hreflang alternates Atom 1.0 carries: rel=alternate, an hreflang, first per tag."""
    seen: set[str] = set()
    kept = []
    for alt in entry.alternates:
        if alt.rel == "alternate" and alt.hreflang and alt.hreflang.lower() not in seen:
            seen.add(alt.hreflang.lower())
            kept.append(Alternate(href=encode_url(alt.href), hreflang=alt.hreflang))
    return kept


@pytest.mark.parametrize("target", ["atom", "rss", "atom03"])
@pytest.mark.parametrize("path", FEED_SAMPLES, ids=lambda p: p.name)
def test_xml_to_feed_and_back(path: Path, target: str) -> None:
    original, _ = read_all(path)
    data, warnings = write_bytes(original, target)
    if target == "atom":
        schema = atom_schema()
        assert schema.validate(parse(data)), str(schema.error_log)
    back, _ = read_all(data, target)
    assert [e.loc for e in back] == [encode_url(e.loc) for e in original]
    for before, after in zip(original, back, strict=True):
        assert list(after.images) == feed_images(before), before.loc
        assert list(after.videos) == feed_videos(before), before.loc
        if target == "atom":
            assert list(after.alternates) == atom_alternates(before), before.loc
        else:
            assert after.alternates == (), before.loc
    assert len(warnings) <= 1  # at most the one summary of dropped fields


def test_the_feed_samples_exercise_the_mapping() -> None:
    """Images with titles, videos with players and durations, and alternates are in play."""
    entries = [e for path in FEED_SAMPLES for e in read_all(path)[0]]
    images = [i for e in entries for i in feed_images(e)]
    videos = [v for e in entries for v in feed_videos(e)]
    assert any(i.title and i.caption for i in images)
    assert any(v.content_loc and v.player_loc and v.duration for v in videos)
    assert any(v.player_loc and not v.content_loc for v in videos)
    assert sum(len(atom_alternates(e)) for e in entries) >= 10


def test_youtube_atom_to_xml() -> None:
    """YouTube's media:group is a complete sitemap video: its player, thumbnail, title and
    description (the Flash URL is the player, so there is no content_loc)."""
    feed, read_warnings = read_all(YOUTUBE)
    assert read_warnings == []
    data, warnings = write_bytes(feed, "xml")
    assert_valid(data, "extensions")
    assert warnings == [
        "<stream>: xml output cannot carry these fields, dropped: id, published, title"
    ]
    back, _ = read_all(data)
    video = Video(
        thumbnail_loc="https://i1.ytimg.com/vi/0A1ouV7iD8o/hqdefault.jpg",
        title="Navigating with Quantum Entanglement",
        description="Check Out Weathered on PBS Terra "
        "https://www.youtube.com/watch?v=znSN7ZFIaOg&ab_channel=PBSTerra",
        player_loc="https://www.youtube.com/v/0A1ouV7iD8o?version=3",
    )
    assert feed[0].videos == [video]
    expected = Entry(
        "https://www.youtube.com/watch?v=0A1ouV7iD8o",
        lastmod=dt.datetime(2020, 12, 25, 23, 12, 12, tzinfo=UTC),
        videos=[video],
    )
    assert_same_entries([expected], back)


def _video(thumb: str | None, title: str | None, description: str | None, **kw: object) -> Video:
    return Video(thumbnail_loc=thumb, title=title, description=description, **kw)  # type: ignore[arg-type]


def test_rss_media_to_xml() -> None:
    """A feed video missing its title or description takes the entry's title or summary in
    the sitemap; one without a thumbnail cannot be a sitemap video and is dropped."""
    feed, read_warnings = read_all(RSS_MEDIA)
    assert read_warnings == []
    cdn = "https://cdn.example.com"
    steak = Image(
        f"{cdn}/img/steak.jpg", caption="A seared steak, resting", title="Steak on the grill"
    )
    grilling = _video(
        f"{cdn}/thumbs/1.jpg",
        "Grilling, the video",
        None,  # in the feed: no media:description
        content_loc=f"{cdn}/video/1.mp4",
        player_loc="https://kitchen.example.com/player?video=1",
        duration=600,
    )
    searing = _video(f"{cdn}/thumbs/2.jpg", None, None, content_loc=f"{cdn}/video/2.mp4")
    no_thumb = _video(None, None, None, content_loc=f"{cdn}/video/5.mp4")
    assert [(e.images, e.videos) for e in feed] == [
        ([steak], [grilling]),
        ((), [searing]),
        ([Image(f"{cdn}/img/plate.jpg")], ()),
        ((), ()),  # audio enclosure: neither image nor video
        ((), [no_thumb]),
    ]

    data, warnings = write_bytes(feed, "xml")
    assert_valid(data, "extensions")
    assert warnings == [
        "<stream>: dropped a video in 'https://kitchen.example.com/no-thumbnail': "
        "it lacks thumbnail_loc",
        "<stream>: xml output cannot carry these fields, dropped: id, summary, title",
    ]
    back, _ = read_all(data)
    expected = [
        dataclasses.replace(e, title=None, summary=None, id=None, sitemap=None) for e in feed
    ]
    expected[0].videos = [
        dataclasses.replace(grilling, description="How to get perfectly done steaks every time.")
    ]
    expected[1].videos = [
        dataclasses.replace(searing, title="Searing, in one minute", description="A short clip.")
    ]
    expected[4].videos = ()
    assert_same_entries(expected, back)


# --- one warning per run, naming what was dropped --------------------------------------------
_FEED_SITEMAP_ONLY = {
    "changefreq",
    "priority",
    "news",
    "mobile",
    "image.geo_location",
    "image.license",
}
_NOT_IN_INDEX = {
    "alternates",
    "changefreq",
    "id",
    "images",
    "mobile",
    "news",
    "priority",
    "published",
    "summary",
    "title",
    "videos",
}
_NOT_AN_IRI = "id (not an absolute IRI; the URL is used)"
DROPPED = {
    "xml": {"id", "published", "summary", "title"},
    "index": _NOT_IN_INDEX,
    "txt": _NOT_IN_INDEX | {"lastmod"},
    "rss": _FEED_SITEMAP_ONLY | VIDEO_DROPPED | {"alternates", "published"},
    "atom": _FEED_SITEMAP_ONLY
    | VIDEO_DROPPED
    | {"alternates (rel other than alternate)", "alternates (without hreflang)", _NOT_AN_IRI},
    "atom03": _FEED_SITEMAP_ONLY | VIDEO_DROPPED | {"alternates", _NOT_AN_IRI},
    "csv": {f"video.{f.name}" for f in dataclasses.fields(Video)} - {"video.content_loc"}
    | {f"image.{name}" for name in ("caption", "title", "geo_location", "license")}
    | {
        f"news.{n}"
        for n in ("publication_language", "access", "genres", "keywords", "stock_tickers")
    }
    | {"alternates (rel=amphtml)", "alternates.media", "mobile"},
    "jsonl": set(),
}


def _dropped(message: str) -> set[str]:
    listed = message.split("dropped", 1)[1].lstrip(": ").removesuffix(" (use jsonl to keep them)")
    return set(listed.split(", "))


@pytest.mark.parametrize("target", sorted(DROPPED))
def test_each_target_warns_once_naming_what_it_drops(target: str) -> None:
    """Sitemap entries with every field, plus feed entries (title, summary, id, published)."""
    entries = [e for path in (EVERY_FIELD, YOUTUBE, RSS_MEDIA) for e in read_all(path)[0]]
    _, warnings = write_bytes(entries, target)
    summaries = [w for w in warnings if "cannot carry" in w or "holds only" in w]
    others = [w for w in warnings if w not in summaries]
    if not DROPPED[target]:
        assert warnings == []
        return
    assert len(summaries) == 1, warnings
    assert _dropped(summaries[0]) == DROPPED[target]
    # The only other warning: xml cannot write a video without a thumbnail (named per entry).
    assert others == (
        [
            "<stream>: dropped a video in 'https://kitchen.example.com/no-thumbnail': "
            "it lacks thumbnail_loc"
        ]
        if target == "xml"
        else []
    )


def test_xml_to_xml_warns_nothing() -> None:
    _, warnings = write_bytes(read_all(EVERY_FIELD)[0], "xml")
    assert warnings == []
