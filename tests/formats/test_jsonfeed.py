"""JSON Feed 1.0 / 1.1 (https://www.jsonfeed.org/version/1.1/): reading, writing, round trips,
detection and bad input (issue 17)."""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest

import sitemapconv
from sitemapconv import Entry, Image, ParseError, SitemapError, Video
from sitemapconv._detect import detect
from tests.conftest import SAMPLES

UTC = dt.timezone.utc
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)\Z")


def read(source: Any, fmt: str | None = None) -> tuple[list[Entry], sitemapconv.Document]:
    doc = sitemapconv.read(source, fmt, on_warning=lambda m: None)
    return list(doc), doc


def check_spec(feed: dict[str, Any]) -> None:
    """The JSON Feed 1.1 required fields and the types the spec gives them."""
    assert feed["version"] == "https://jsonfeed.org/version/1.1"
    assert isinstance(feed["title"], str) and feed["title"]
    for key in ("home_page_url", "feed_url", "description", "language"):
        assert key not in feed or isinstance(feed[key], str)
    assert isinstance(feed["items"], list)
    for item in feed["items"]:
        assert isinstance(item["id"], str) and item["id"]
        assert isinstance(item.get("content_text"), str) or isinstance(
            item.get("content_html"), str
        )
        for key in ("date_published", "date_modified"):
            if key in item:
                assert _RFC3339.match(item[key]), item[key]
        for att in item.get("attachments", []):
            assert isinstance(att["url"], str) and isinstance(att["mime_type"], str)


def test_sample_is_detected_and_read() -> None:
    path = SAMPLES / "feed.json"
    assert detect(path.read_bytes()) == "jsonfeed"
    entries, doc = read(path)
    assert doc.format == "jsonfeed"
    assert [e.loc for e in entries] == [
        "https://blog.example.org/posts/streaming-xml",
        "https://talks.example.org/2024/rust-and-python",
        "https://blog.example.org/posts/hello",  # only an http(s) id
        "https://www.example.com/elsewhere",  # external_url
    ]
    first, talk, hello, elsewhere = entries
    assert first.lastmod == dt.datetime(2024, 6, 3, 12, 0, tzinfo=UTC)
    assert first.published == dt.datetime(
        2024, 6, 1, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=2))
    )
    assert first.summary == "iterparse, clear() and friends."
    assert talk.lastmod == dt.datetime(2024, 5, 1, 10, 0, tzinfo=UTC)  # date_published
    assert talk.summary == "Rust and Python, side by side: the recording."
    assert talk.videos == [
        Video(
            content_loc="https://talks.example.org/2024/rust-and-python.mp4",
            thumbnail_loc="https://talks.example.org/2024/rust-and-python.jpg",
            title="Talk recording",
            duration=2712,
        )
    ]
    assert hello.lastmod == dt.datetime(2024, 1, 10, tzinfo=UTC)
    assert elsewhere.id == "42" and elsewhere.title == "Linked elsewhere"
    assert doc.meta.title == "Example Engineering Blog"
    assert doc.meta.link == "https://blog.example.org/"
    assert doc.meta.self_link == "https://blog.example.org/feed.json"
    assert doc.meta.author == "Sam Writer"
    assert doc.meta.language == "en"


def test_version_1_0_author_and_image_attachments() -> None:
    feed = {
        "version": "https://jsonfeed.org/version/1",
        "title": "Old",
        "author": {"name": "Ann"},
        "items": [
            {
                "id": "1",
                "url": "/a",
                "image": "https://e.com/i.png",
                "attachments": [{"url": "https://e.com/j.jpg", "mime_type": "image/jpeg"}],
            },
            {"id": "no-url", "content_text": "x"},
            "not an object",
        ],
    }
    warnings: list[str] = []
    doc = sitemapconv.read(
        json.dumps(feed).encode(), base_url="https://e.com/feed.json", on_warning=warnings.append
    )
    entries = list(doc)
    assert [e.loc for e in entries] == ["https://e.com/a"]
    assert [i.loc for i in entries[0].images] == ["https://e.com/i.png", "https://e.com/j.jpg"]
    assert doc.meta.author == "Ann"
    assert any("skipped item 1" in w for w in warnings)
    assert any("not an object" in w for w in warnings)


def test_written_feed_meets_the_spec_and_reads_back() -> None:
    entries = [
        Entry(
            loc="https://e.com/a",
            lastmod=dt.datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
            changefreq="daily",
            priority=0.8,
            title="A",
            summary="About a",
            images=[Image(loc="https://e.com/a.jpg"), Image(loc="https://e.com/b.png")],
            videos=[Video(content_loc="https://e.com/v.mp4", thumbnail_loc="https://e.com/t.jpg")],
        ),
        Entry(loc="https://e.com/b", lastmod=dt.date(2024, 5, 2)),
        Entry(loc="https://e.com/c", lastmod=dt.datetime(2024, 5, 3, 4, 5, 6)),
    ]
    out = sitemapconv.write(entries, _buffer := _Buffer(), "jsonfeed", title="Site")
    assert out == 3
    feed = json.loads(_buffer.data)
    check_spec(feed)
    assert feed["title"] == "Site"
    assert feed["home_page_url"] == "https://e.com/"
    first = feed["items"][0]
    assert first["id"] == "https://e.com/a" and first["url"] == "https://e.com/a"
    assert first["date_modified"] == "2024-05-01T10:00:00Z"
    assert first["image"] == "https://e.com/a.jpg"
    assert {"url": "https://e.com/b.png", "mime_type": "image/png"} in first["attachments"]
    assert {"url": "https://e.com/v.mp4", "mime_type": "video/mp4"} in first["attachments"]
    assert first["_sitemapconv"] == {"changefreq": "daily", "priority": 0.8}
    assert feed["items"][2]["date_modified"] == "2024-05-03T04:05:06-00:00"
    back, _ = read(_buffer.data)
    assert [(e.loc, e.lastmod, e.changefreq, e.priority) for e in back] == [
        ("https://e.com/a", dt.datetime(2024, 5, 1, 10, 0, tzinfo=UTC), "daily", 0.8),
        ("https://e.com/b", dt.date(2024, 5, 2), None, None),  # kept by the extension
        ("https://e.com/c", dt.datetime(2024, 5, 3, 4, 5, 6), None, None),  # zone stays unknown
    ]
    assert back[0].summary == "About a" and back[0].title == "A"


def test_empty_feed_is_valid() -> None:
    sitemapconv.write([], buf := _Buffer(), "jsonfeed")
    feed = json.loads(buf.data)
    check_spec(feed)
    assert feed["items"] == []


def test_forced_on_a_json_array_and_plain_json_is_refused() -> None:
    with pytest.raises(SitemapError, match="top level is a JSON list"):
        read(b"[1, 2]", "jsonfeed")
    with pytest.raises(SitemapError, match="not a sitemap or feed"):
        read(b'{"items": []}')
    with pytest.raises(ParseError, match="line 1"):
        read(b"{nope", "jsonfeed")


class _Buffer:
    """A binary sink that keeps what was written (sitemapconv.write takes any binary file)."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> int:
        self.data += bytes(data)
        return len(data)

    def flush(self) -> None:
        pass
