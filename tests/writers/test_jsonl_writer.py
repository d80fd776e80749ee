"""The jsonl writer: one JSON object per entry, same keys on every line, pandas-loadable."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._registry import canonical, get_writer, writer_for_filename
from sitemapconv.writers._jsonl import JsonlWriter
from sitemapconv.writers._tabular import CORE_COLUMNS

from .rich_entries import sample_entries

KEYS = [*CORE_COLUMNS, "images", "videos", "news", "alternates", "mobile"]


def write_jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "out.jsonl"
    assert sitemapconv.write(sample_entries(), path) == 3
    return path


def test_registered_by_name_alias_and_extension() -> None:
    assert get_writer("jsonl") is JsonlWriter
    assert canonical("ndjson") == "jsonl"
    assert get_writer("NDJSON") is JsonlWriter
    assert "ndjson" in JsonlWriter.aliases
    assert writer_for_filename("x/out.jsonl") == "jsonl"
    assert writer_for_filename("out.ndjson.gz") == "jsonl"


def test_round_trip_through_json(tmp_path: Path) -> None:
    raw = write_jsonl(tmp_path).read_bytes()
    assert raw.endswith(b"\n") and raw.count(b"\n") == 3
    rows = [json.loads(line) for line in raw.decode("utf-8").splitlines()]
    assert [list(r) for r in rows] == [KEYS] * 3  # same keys, same order, every line
    a, b, c = rows
    assert a["loc"] == "https://example.com/a"
    assert a["lastmod"] == "2024-05-01T12:30:00+00:00"
    assert a["published"] == "2024-04-01"
    assert a["priority"] == 0.8
    assert a["changefreq"] == "daily"
    assert a["title"] == 'Title, with "quotes"\nand a newline'
    assert a["summary"] == "Résumé"
    assert a["sitemap"] == "https://example.com/sitemap.xml"
    assert a["images"] == [
        {"loc": "https://example.com/img 1.jpg", "caption": "cap"},
        {"loc": "https://example.com/img2.jpg"},
    ]
    video = a["videos"][0]
    assert video["content_loc"] == "https://example.com/v.mp4"
    assert video["duration"] == 600
    assert video["content_segment_locs"] == [{"loc": "https://example.com/seg1", "duration": 30}]
    assert video["tags"] == ["a", "b"]
    assert video["prices"] == [{"value": "1.99", "currency": "EUR"}]
    assert video["tvshow"] == {"show_title": "S", "premier_date": "2020-01-02"}
    assert a["videos"][1] == {"player_loc": "https://example.com/player?id=2"}
    assert a["news"] == {
        "publication_name": "The Paper",
        "publication_language": "en",
        "publication_date": "2024-05-01T08:00:00",  # naive stays zone-less
        "title": "Big news",
    }
    assert a["alternates"][2] == {"href": "https://example.com/amp/a", "rel": "amphtml"}
    assert a["mobile"] is True
    assert b == dict.fromkeys(CORE_COLUMNS) | {
        "loc": "https://example.com/b",
        "images": [],
        "videos": [],
        "news": None,
        "alternates": [],
        "mobile": False,
    }
    assert c["loc"] == "https://example.com/ü?q=1,2"  # as it is, UTF-8
    assert c["priority"] == 0.0 and c["lastmod"] == "2023-01-02"


def test_lone_surrogate_is_escaped_not_fatal() -> None:
    out = io.BytesIO()
    sitemapconv.write([sitemapconv.Entry(loc="https://e.com/x", title="bad \ud800")], out, "jsonl")
    assert json.loads(out.getvalue())["title"] == "bad \ud800"


def test_gzip_output(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "out.jsonl.gz"
    sitemapconv.write(sample_entries(), path)
    assert len(gzip.decompress(path.read_bytes()).splitlines()) == 3


def test_pandas_loads_it(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.read_json(write_jsonl(tmp_path), lines=True)
    assert list(frame.columns) == KEYS
    assert list(frame["loc"]) == [
        "https://example.com/a",
        "https://example.com/b",
        "https://example.com/ü?q=1,2",
    ]
    assert frame["images"][0][1] == {"loc": "https://example.com/img2.jpg"}
    assert frame["priority"][2] == 0.0
