"""The csv writer: a fixed header, one row per entry, extensions flattened."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._registry import get_writer, writer_for_filename
from sitemapconv.writers._csv import COLUMNS, CsvWriter

from .rich_entries import sample_entries


def write_csv(tmp_path: Path, messages: list[str] | None = None) -> Path:
    path = tmp_path / "out.csv"
    sink = messages if messages is not None else []
    assert sitemapconv.write(sample_entries(), path, on_warning=sink.append) == 3
    return path


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_registered_by_name_and_extension() -> None:
    assert get_writer("csv") is CsvWriter
    assert writer_for_filename("out.CSV") == "csv"
    assert writer_for_filename("out.csv.gz") == "csv"


def test_fixed_header_even_without_entries() -> None:
    out = io.BytesIO()
    assert sitemapconv.write([], out, "csv") == 0
    assert out.getvalue() == (",".join(COLUMNS) + "\r\n").encode()


def test_round_trip_through_csv(tmp_path: Path) -> None:
    messages: list[str] = []
    path = write_csv(tmp_path, messages)
    assert path.read_bytes().startswith(b"loc,lastmod,changefreq,priority,title,")
    rows = read_rows(path)
    assert len(rows) == 3
    assert list(rows[0]) == list(COLUMNS)
    a, b, c = rows
    assert a["loc"] == "https://example.com/a"
    assert a["lastmod"] == "2024-05-01T12:30:00+00:00"
    assert a["priority"] == "0.8"
    assert a["title"] == 'Title, with "quotes"\nand a newline'  # quoted, survives
    assert a["summary"] == "Résumé"
    assert a["published"] == "2024-04-01"
    assert a["images"].split(" ") == [
        "https://example.com/img%201.jpg",  # encoded so the space separator is exact
        "https://example.com/img2.jpg",
    ]
    assert a["image_count"] == "2"
    assert a["videos"].split(" ") == [
        "https://example.com/v.mp4",
        "https://example.com/player?id=2",  # no content loc: the player loc
    ]
    assert a["video_count"] == "2"
    assert a["news_title"] == "Big news"
    assert a["news_publication"] == "The Paper"
    assert a["news_date"] == "2024-05-01T08:00:00"
    assert a["alternates"].split(" ") == [
        "de=https://example.com/de/a",
        "x-default=https://example.com/a",
    ]
    assert b == dict.fromkeys(COLUMNS, "") | {
        "loc": "https://example.com/b",
        "image_count": "0",
        "video_count": "0",
    }
    assert c["loc"] == "https://example.com/ü?q=1,2"
    assert c["priority"] == "0.0"
    # What a flat row cannot hold is said once per run, naming the destination and the fields.
    assert messages == [
        f"{path}: csv output cannot carry these fields, dropped: alternates (rel=amphtml), "
        "image.caption, mobile, news.publication_language, video.content_segment_locs, "
        "video.description, video.duration, video.prices, video.tags, video.thumbnail_loc, "
        "video.title, video.tvshow "
        "(use jsonl to keep them)"
    ]


def test_writes_to_a_binary_stream_without_closing_it() -> None:
    out = io.BytesIO()
    sitemapconv.write([sitemapconv.Entry(loc="https://e.com/x")], out, "csv")
    assert not out.closed
    assert out.getvalue().splitlines()[1] == b"https://e.com/x,,,,,,,,,,0,,0,,,,"


def test_pandas_loads_it(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.read_csv(write_csv(tmp_path))
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == 3
    assert frame["title"][0] == 'Title, with "quotes"\nand a newline'
    assert list(frame["image_count"]) == [2, 0, 0]
    assert frame["priority"][0] == 0.8 and pd.isna(frame["priority"][1])
