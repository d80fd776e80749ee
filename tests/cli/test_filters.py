"""The transform options on the command line (the library side is tests/test_filters.py).

Runs the installed console script in a subprocess. Tests that need a reader skip cleanly
when it is not in this branch yet (the readers are written in parallel).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest


def has_reader(name: str) -> bool:
    try:
        from sitemapconv._registry import get_reader

        get_reader(name)
    except ImportError:
        return False
    return True


needs_txt = pytest.mark.skipif(not has_reader("txt"), reason="no txt reader in this branch yet")
needs_xml = pytest.mark.skipif(not has_reader("xml"), reason="no xml reader in this branch yet")
CLI = str(Path(sys.executable).with_name("sitemapconv"))

URLS = [
    "https://example.com/b",
    "https://example.com/a",
    "https://example.com/tag/x",
    "https://EXAMPLE.COM:443/b#top",
    "https://example.com/shop/1",
    "https://example.com/c",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CLI, *args], capture_output=True, text=True, timeout=60)


@pytest.fixture
def url_list(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("\n".join(URLS) + "\n", encoding="utf-8")
    return path


def locs_of(jsonl: str) -> list[str]:
    return [json.loads(line)["loc"] for line in jsonl.splitlines()]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "yesterday"], "--since"),
        (["--until", "2024-13-45"], "--until"),
        (["--sort", "size"], "--sort"),
        (["--include", "("], "invalid regular expression"),
        (["--exclude", "[z-a]"], "invalid regular expression"),
        (["--limit", "-1"], "--limit"),
    ],
)
def test_bad_options_are_usage_errors(url_list: Path, args: list[str], message: str) -> None:
    proc = run(str(url_list), "-f", "txt", "-t", "jsonl", *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_help_lists_every_transform_option() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    for option in (
        "--dedupe",
        "--include",
        "--exclude",
        "--since",
        "--until",
        "--limit",
        "--sort",
        "--base-url",
        "--verbose",
    ):
        assert option in proc.stdout


@needs_txt
def test_dedupe_include_exclude_sort(url_list: Path) -> None:
    proc = run(
        str(url_list),
        "-f",
        "txt",
        "-t",
        "jsonl",
        "--dedupe",
        "--include",
        "example",
        "--exclude",
        "/tag/",
        "--exclude",
        "/shop/",
        "--sort",
        "url",
    )
    assert proc.returncode == 0, proc.stderr
    assert locs_of(proc.stdout) == [
        "https://example.com/a",
        "https://example.com/b",
        "https://example.com/c",
    ]


@needs_txt
def test_limit_and_csv_from_the_extension(url_list: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.csv"
    proc = run(str(url_list), "-f", "txt", "-o", str(out), "--limit", "2", "-v")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [r["loc"] for r in rows] == URLS[:2]
    assert proc.stderr == "sitemapconv: 2 entries in, 2 out; 0 warnings\n"


@needs_txt
def test_since_drops_entries_without_lastmod(url_list: Path) -> None:
    # A text list has no dates at all: --since keeps nothing, and -v says why.
    proc = run(str(url_list), "-f", "txt", "-t", "jsonl", "--since", "2020-01-01", "-v")
    assert proc.returncode == 0
    assert proc.stdout == ""
    assert "6 entries in, 0 out; dropped: since 6" in proc.stderr


SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>/old</loc><lastmod>2020-01-01</lastmod></url>
  <url><loc>/new</loc><lastmod>2024-05-01T10:00:00+02:00</lastmod></url>
  <url><loc>https://example.com/newer</loc><lastmod>2024-06-01</lastmod></url>
  <url><loc>https://example.com/undated</loc></url>
</urlset>
"""


@needs_xml
def test_since_until_sort_and_base_url_on_a_sitemap(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_text(SITEMAP, encoding="utf-8")
    proc = run(
        str(path),
        "-f",
        "xml",
        "-t",
        "jsonl",
        "--base-url",
        "https://example.com/",
        "--since",
        "2024-05-01",
        "--until",
        "2024-12-31T23:59:59Z",
        "--sort",
        "lastmod",
        "-v",
    )
    assert proc.returncode == 0, proc.stderr
    assert locs_of(proc.stdout) == ["https://example.com/new", "https://example.com/newer"]
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert dt.datetime.fromisoformat(rows[0]["lastmod"]).utcoffset() == dt.timedelta(hours=2)
    assert "4 entries in, 2 out" in proc.stderr
