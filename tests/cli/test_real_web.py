"""Real-web samples through the console script.

The library side is tests/formats/test_real_web.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemapconv._urls import encode_url
from tests.conftest import ROOT, SAMPLES, Run
from tests.formats.test_real_web import REAL, _read, _write


def test_relative_feed_to_xml_exits_1_and_writes_nothing(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "sitemap.xml"
    proc = cli(str(REAL / "rss2-static-export-relative-links.xml"), "-o", str(out))
    assert proc.returncode == 1
    assert not out.exists()
    last = proc.stderr.decode().strip().splitlines()[-1]
    assert last.startswith("sitemapconv: error: ") and "nothing to write" in last
    assert "not an absolute http(s) URL" in last and "base URL" in last
    assert b"file:" not in proc.stderr
    # With --base-url the same conversion works.
    proc = cli(
        str(REAL / "rss2-static-export-relative-links.xml"),
        "-t", "txt", "--base-url", "https://blog.example.com/feed/",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().split() == [
        "https://blog.example.com/hello-world/index.html",
        "https://blog.example.com/post/1",
    ]


def test_index_of_relative_locs_warns_at_read_time_and_index_output_exits_1(cli: Run) -> None:
    entries, messages = _read(REAL / "index-relative-locs.xml")
    locs = ["post-sitemap.xml", "//localhost:1313/en/sitemap.xml", "None"]
    assert [e.loc for e in entries] == locs
    [warning] = messages
    assert "3 <loc> values are not absolute http(s) URLs" in warning and "lines 3, 7, 11" in warning
    proc = cli(str(REAL / "index-relative-locs.xml"), "-t", "index")
    assert proc.returncode == 1 and proc.stdout == b""
    assert "nothing to write: all 3 entries skipped" in proc.stderr.decode()


def test_a_filter_that_selects_nothing_still_exits_0(cli: Run) -> None:
    proc = cli(str(SAMPLES / "sitemap.xml"), "-t", "xml", "--include", "no-such-page")
    assert proc.returncode == 0, proc.stderr
    assert b"<urlset" in proc.stdout


@pytest.mark.parametrize(
    ("forced", "name", "root"),
    [
        ("xml", "feed.rss", "rss"),
        ("rss", "sitemap.xml", "urlset"),
        ("xml", "sitemap-index.xml", "sitemapindex"),
        ("index", "sitemap.xml", "urlset"),
        ("atom", "feed.rss", "rss"),
        ("atom03", "sitemap.xml", "urlset"),
        ("txt", "feed.atom", "feed"),
        ("jsonfeed", "sitemap.xml", "urlset"),
    ],
)
def test_forced_format_with_another_root_fails_the_same_way(
    cli: Run, forced: str, name: str, root: str
) -> None:
    proc = cli("-f", forced, str(SAMPLES / name), "-t", "jsonl")
    assert proc.returncode == 1 and proc.stdout == b""
    [line] = proc.stderr.decode().splitlines()
    article = "an" if forced in ("xml", "index", "rss", "atom", "atom03") else "a"
    assert line.endswith(f"not {article} {forced} document (root element <{root}>)"), line


def test_hosts_are_idna_2008(cli: Run) -> None:
    assert encode_url("https://straße.de/") == "https://xn--strae-oqa.de/"
    assert encode_url("https://Bücher.example/ä") == "https://xn--bcher-kva.example/%C3%A4"
    proc = cli("-", "-t", "txt", stdin="https://straße.de/seite\n".encode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"https://xn--strae-oqa.de/seite\n"


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir()))
def test_samples_pass_validate(cli: Run, name: str) -> None:
    proc = cli("--validate", str(SAMPLES / name))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert b"0 errors, 0 warnings" in proc.stdout


def test_no_output_format_says_what_is_missing(cli: Run) -> None:
    proc = cli(str(SAMPLES / "sitemap.xml"))
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert "Invalid value" not in err
    assert "no output format" in err and "-t FORMAT" in err and "-o" in err


def test_toml_is_not_called_json(cli: Run) -> None:
    proc = cli(str(ROOT / "pyproject.toml"), "-t", "txt")
    assert proc.returncode == 1
    assert b"JSON" not in proc.stderr and b"not a sitemap or feed" in proc.stderr


def test_cli_warnings_use_no_library_wording(cli: Run) -> None:
    proc = cli(str(SAMPLES / "sitemap.xml"), "-t", "xml", "--max-urls", "2")
    assert proc.returncode == 0
    err = proc.stderr.decode()
    assert "limit 2" in err
    assert "split=True" not in err and "write xml" not in err


def test_validate_says_an_empty_pubdate_is_empty(cli: Run, tmp_path: Path) -> None:
    feed = tmp_path / "feed.rss"
    feed.write_bytes(
        b'<rss version="2.0"><channel><title>t</title><link>https://e.com/</link>'
        b"<description>d</description><item><title>x</title><link>https://e.com/1</link>"
        b"<pubDate></pubDate></item></channel></rss>"
    )
    proc = cli("--validate", str(feed))
    assert proc.returncode == 1
    assert b"<pubDate> is empty: give a date or remove the tag [empty-tag]" in proc.stdout


def test_json_feed_validates_and_its_texts_keep_their_meaning(cli: Run, tmp_path: Path) -> None:
    bad = tmp_path / "feed.json"
    bad.write_text(
        '{"version": "https://jsonfeed.org/version/1.1", "items": ['
        '{"url": "page", "date_published": "2024-01-10"}]}'
    )
    proc = cli("--validate", str(bad))
    assert proc.returncode == 1
    out = proc.stdout.decode()
    assert "no 'title' (required)" in out and "no 'id' (required)" in out
    assert "is not absolute" in out and "RFC 3339" in out
    # summary and content_text are plain text; the model's summary is HTML.
    feed = (
        b'{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": ['
        b'{"id": "1", "url": "https://e.com/1", "summary": "a < b"},'
        b'{"id": "2", "url": "https://e.com/2", "content_html": "<p>x</p>"}]}'
    )
    entries, _ = _read(feed)
    assert [e.summary for e in entries] == ["a &lt; b", "<p>x</p>"]
    data, _ = _write(entries, "jsonfeed")
    assert [e.summary for e in _read(data)[0]] == ["a &lt; b", "<p>x</p>"]
