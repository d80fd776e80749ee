"""The ``txt`` writer: one percent-encoded URL per line, nothing else."""

from __future__ import annotations

import datetime as dt
import gzip
import io
from pathlib import Path
from typing import Any

import sitemapconv
from sitemapconv import Entry, News
from sitemapconv._registry import get_writer, writer_for_filename
from sitemapconv.writers._text import TextWriter


def write_text(entries: Any, **options: Any) -> tuple[bytes, list[str]]:
    warnings: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, "txt", on_warning=warnings.append, **options)
    return out.getvalue(), warnings


def test_registered_under_its_names() -> None:
    assert get_writer("txt") is TextWriter and get_writer("text") is TextWriter
    assert writer_for_filename("urls.txt.gz") == "txt"


def test_one_encoded_url_per_line_without_xml_escaping() -> None:
    data, warnings = write_text(
        [
            Entry("http://e.com/ümlat.php&q=name"),
            Entry("https://ex.com/a b?x=<1>&y='2'"),
            Entry("https://ex.com/%C3%BC"),
            Entry("https://ex.com/line\nbreak\r\n"),
        ]
    )
    assert data == (
        b"http://e.com/%C3%BCmlat.php&q=name\n"
        b"https://ex.com/a%20b?x=%3C1%3E&y='2'\n"
        b"https://ex.com/%C3%BC\n"
        b"https://ex.com/linebreak\n"  # tabs and line breaks are removed, as URL parsers do
    )
    assert warnings == []


def test_dropped_fields_warn_once_naming_them() -> None:
    entries = [
        Entry("https://ex.com/a", lastmod=dt.date(2024, 1, 1)),
        Entry("https://ex.com/b", priority=0.4),
        Entry("https://ex.com/c", news=News("N", "en", dt.date(2024, 1, 1), "T")),
    ]
    data, warnings = write_text(entries)
    assert data.count(b"\n") == 3
    assert warnings == ["<stream>: a text sitemap holds only URLs: dropped lastmod, news, priority"]


def test_bad_entries_are_skipped_and_forbidden_characters_removed() -> None:
    data, warnings = write_text([Entry("relative.html"), Entry("https://ex.com/\x00a\ud800")])
    assert data == b"https://ex.com/a\n"
    assert len(warnings) == 2 and "absolute" in warnings[0] and "forbids" in warnings[1]


def test_empty_output_warns() -> None:
    data, warnings = write_text([])
    assert data == b"" and "empty" in warnings[0]


def test_limits_warn_on_lines_and_bytes() -> None:
    _, warnings = write_text([Entry(f"https://ex.com/{i}") for i in range(3)], max_file_bytes=40)
    assert "51 bytes (limit 40)" in warnings[0]


def test_many_lines_are_batched_in_order(tmp_path: Path) -> None:
    path = tmp_path / "urls.txt.gz"
    count = sitemapconv.write((Entry(f"https://ex.com/{i}") for i in range(10_000)), path)
    assert count == 10_000
    lines = gzip.decompress(path.read_bytes()).decode().split("\n")
    assert lines[-1] == "" and lines[:-1] == [f"https://ex.com/{i}" for i in range(10_000)]
