"""Correct on the real web (issue #16): what real files and a careless user trip over.

Local paths never leak into the data, relative links stay as written and are reported, Atom
text constructs keep their meaning, a forced format is refused the same way everywhere,
hosts are IDNA 2008, and every writer treats a bad value the same way.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import warnings
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._model import Entry, Image
from sitemapconv._registry import writer_names
from sitemapconv._urls import encode_url
from sitemapconv.errors import LimitError, SitemapError, SitemapWarning

from .conftest import DATA, ROOT, SAMPLES, Run

REAL = DATA / "realweb"
WRITERS = tuple(writer_names())


def _read(source: object, **options: object) -> tuple[list[Entry], list[str]]:
    messages: list[str] = []
    with sitemapconv.read(source, on_warning=messages.append, **options) as doc:  # type: ignore[arg-type]
        return list(doc), messages


def _write(entries: list[Entry], fmt: str) -> tuple[bytes, list[str]]:
    messages: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, fmt, on_warning=messages.append)
    return out.getvalue(), messages


# --- no local path in the data; relative links as written -----------------------------------


def test_local_feed_keeps_relative_links_with_one_counted_warning() -> None:
    path = REAL / "rss2-static-export-relative-links.xml"
    entries, messages = _read(path)
    assert [e.loc for e in entries] == ["../hello-world/index.html", "/post/1"]
    relative = [m for m in messages if "relative" in m]
    assert len(relative) == 1 and "2 such links" in relative[0]
    assert not any("file:" in m for m in messages)
    # The same bytes, from a file or given directly, read the same.
    same, _ = _read(path.read_bytes())
    assert [e.loc for e in same] == [e.loc for e in entries]
    # A base URL the user gives resolves them, silently.
    based, messages = _read(path, base_url="https://blog.example.com/feed/")
    assert [e.loc for e in based] == [
        "https://blog.example.com/hello-world/index.html",
        "https://blog.example.com/post/1",
    ]
    assert not any("relative" in m for m in messages)


def test_rome_placeholder_links_never_become_file_urls() -> None:
    entries, _ = _read(REAL / "rss091-rome-placeholder-links.xml")
    assert [e.loc for e in entries] == [
        "rss_0.91U.channel.item[0].link",
        "rss_0.91U.channel.item[1].link",
    ]
    data, _ = _write(entries, "jsonl")
    assert b"file:" not in data


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


def test_mkdocs_none_locs_are_warned_when_read() -> None:
    entries, messages = _read(REAL / "urlset-mkdocs-no-site-url.xml")
    assert [e.loc for e in entries] == ["None", "None"]
    assert any("2 <loc> values are not absolute" in m and "lines 3, 7" in m for m in messages)


def test_a_filter_that_selects_nothing_still_exits_0(cli: Run) -> None:
    proc = cli(str(SAMPLES / "sitemap.xml"), "-t", "xml", "--include", "no-such-page")
    assert proc.returncode == 0, proc.stderr
    assert b"<urlset" in proc.stdout


@pytest.mark.parametrize(
    "name",
    [
        "sitemap.xml",
        "sitemap-index.xml",
        "feed.rss",
        "feed.atom",
        "feed.atom03",
        "feed.json",
        "urls.txt",
    ],
)
def test_entry_sitemap_is_the_source_as_given(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    given = str(SAMPLES / name)
    entries, _ = _read(given)
    assert entries and {e.sitemap for e in entries} == {given}
    monkeypatch.chdir(ROOT)
    relative, _ = _read(f"samples/{name}")
    assert {e.sitemap for e in relative} == {f"samples/{name}"}
    from_bytes, _ = _read((SAMPLES / name).read_bytes())
    assert {e.sitemap for e in from_bytes} == {None}


def test_following_a_local_index_names_children_by_path(tmp_path: Path) -> None:
    shutil.copytree(DATA / "validate", tmp_path / "site")
    entries, _ = _read(tmp_path / "site" / "index-follow.xml", follow=True)
    assert entries
    assert all(e.sitemap and not e.sitemap.startswith("file:") for e in entries)
    child = tmp_path / "site" / "children" / "child-urlset.xml"
    assert {e.sitemap for e in entries} == {str(child)}


def _convertible() -> list[Path]:
    files = [p for p in DATA.rglob("*") if p.is_file() and p.name != "SOURCES.md"]
    return sorted(files) + sorted(p for p in SAMPLES.iterdir() if p.is_file())


def test_no_file_url_in_any_output_of_any_file_in_any_format() -> None:
    """Every file of tests/data and samples/, to every format: no ``file:`` in any output.

    Files that are expected not to read (schemas, HTML, hostile or huge ones) are skipped;
    so are conversions refused because every entry was dropped (they write nothing).
    """
    converted = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SitemapWarning)
        for path in _convertible():
            try:
                with sitemapconv.read(path, max_bytes=2_000_000) as doc:
                    meta = doc.prime()
                    entries = list(doc)
            except (SitemapError, LimitError):
                continue
            for fmt in WRITERS:
                out = io.BytesIO()
                try:
                    sitemapconv.write(entries, out, fmt, meta=meta)
                except SitemapError:
                    assert out.getvalue() == b"", (path, fmt)
                    continue
                assert b"file:" not in out.getvalue(), (path.relative_to(ROOT), fmt)
                converted += 1
    assert converted > 300 and "jsonfeed" in WRITERS


# --- Atom text constructs -------------------------------------------------------------------


def test_html_title_is_plain_text_everywhere_and_summary_keeps_html() -> None:
    entries, _ = _read(SAMPLES / "feed.atom")
    dates = entries[1]
    # <title type="html">Dates &amp;lt;are&amp;gt; hard</title> shows "Dates <are> hard".
    assert dates.title == "Dates <are> hard"
    jsonl, _ = _write([dates], "jsonl")
    assert json.loads(jsonl)["title"] == "Dates <are> hard"
    table, _ = _write([dates], "csv")
    assert next(csv.DictReader(io.StringIO(table.decode())))["title"] == "Dates <are> hard"
    atom, _ = _write(entries, "atom")
    assert b"<title>Dates &lt;are&gt; hard</title>" in atom
    for fmt in ("atom", "rss", "atom03"):
        data, _ = _write(entries, fmt)
        back, _ = _read(data)
        assert [(e.title, e.summary) for e in back] == [(e.title, e.summary) for e in entries], fmt


def test_xhtml_and_text_constructs() -> None:
    feed = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>'
        b'<entry><link href="https://e.com/1"/>'
        b'<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b>'
        b" move &lt;i&gt;</div></title>"
        b'<summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">x &lt; y '
        b'<a href="/p?a=1&amp;b=2">more</a></div></summary></entry>'
        b'<entry><link href="https://e.com/2"/><title>a &lt; b</title>'
        b"<summary>a &lt; b &amp; c</summary></entry></feed>"
    )
    first, second = _read(feed)[0]
    assert first.title == "A bold move <i>"  # escaped text in XHTML is text
    assert first.summary == 'x &lt; y <a href="/p?a=1&amp;b=2">more</a>'
    assert second.title == "a < b"
    assert second.summary == "a &lt; b &amp; c"  # plain text made HTML
    atom, _ = _write([first, second], "atom")
    assert atom.count(b'<summary type="html">') == 2


# --- a forced format ------------------------------------------------------------------------


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


# --- hosts ----------------------------------------------------------------------------------


def test_hosts_are_idna_2008(cli: Run) -> None:
    assert encode_url("https://straße.de/") == "https://xn--strae-oqa.de/"
    assert encode_url("https://Bücher.example/ä") == "https://xn--bcher-kva.example/%C3%A4"
    proc = cli("-", "-t", "txt", stdin="https://straße.de/seite\n".encode())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"https://xn--strae-oqa.de/seite\n"


# --- one formatting path --------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "rss", "atom", "atom03", "jsonfeed", "csv"])
def test_malformed_image_url_is_skipped_with_a_warning_in_every_format(fmt: str) -> None:
    entry = Entry(
        "https://e.com/page",
        images=[Image("https://[broken/a.jpg"), Image("https://img.e.com/b.jpg")],
    )
    data, messages = _write([entry], fmt)
    assert b"https://e.com/page" in data
    assert b"img.e.com/b.jpg" in data and b"broken" not in data
    assert any("broken" in m and "not a valid URL" in m for m in messages)


# --- samples, messages ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.iterdir()))
def test_samples_pass_validate(cli: Run, name: str) -> None:
    proc = cli("--validate", str(SAMPLES / name))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert b"0 errors, 0 warnings" in proc.stdout


def test_absent_empty_and_invalid_modified_are_told_apart() -> None:
    def feed(modified: str) -> bytes:
        return (
            '<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title><entry>'
            '<link rel="alternate" href="https://e.com/1"/>'
            f"<issued>2004-01-01T00:00:00Z</issued>{modified}</entry></feed>"
        ).encode()

    _, absent = _read(feed(""))
    assert any("has no <modified>" in m for m in absent)
    assert not any("valid" in m for m in absent)
    _, empty = _read(feed("<modified></modified>"))
    assert any("has an empty <modified>" in m for m in empty)
    _, invalid = _read(feed("<modified>yesterday</modified>"))
    assert any("has an invalid <modified>" in m for m in invalid)


def test_empty_pubdate_warns_like_an_empty_lastmod() -> None:
    feed = (
        b'<rss version="2.0"><channel><title>t</title>'
        b"<item><link>https://e.com/1</link><pubDate></pubDate></item></channel></rss>"
    )
    [entry], messages = _read(feed)
    assert entry.lastmod is None
    assert any("empty <pubDate>" in m for m in messages)


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


def test_library_warnings_point_at_the_callers_line() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(sitemapconv.read(REAL / "index-relative-locs.xml"))
        sitemapconv.write([Entry("relative"), Entry("https://e.com/")], io.BytesIO(), "xml")
    assert len(caught) >= 2
    assert {Path(w.filename) for w in caught} == {Path(__file__)}


def test_html_to_text() -> None:
    from sitemapconv._htmltext import html_to_text

    assert html_to_text("Dates &lt;are&gt; hard") == "Dates <are> hard"
    assert html_to_text("<p>A <b>bold</b></p><p>move</p>") == "A bold move"
    assert html_to_text("a < b and c > d") == "a < b and c > d"
    assert html_to_text("x<script>alert(1)</script>y<STYLE>p{}</STYLE>") == "x y"
    assert html_to_text("cut <script>never closed") == "cut"
    assert html_to_text("<" * 10_000) == "<" * 10_000  # not markup: kept as text


@pytest.mark.parametrize("fmt", ["xml", "index", "txt", "rss", "atom", "atom03", "jsonfeed"])
def test_many_skipped_entries_do_not_flood_and_are_counted(fmt: str) -> None:
    entries = [Entry(f"page/{i}") for i in range(500)] + [Entry("https://e.com/")]
    data, messages = _write(entries, fmt)
    assert b"https://e.com/" in data
    assert len(messages) < 30
    assert any("skipped 500 entries in all" in m for m in messages)


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


@pytest.mark.parametrize("fmt", ["rss", "atom", "atom03"])
def test_relative_feed_link_of_the_source_is_not_written(fmt: str) -> None:
    meta = sitemapconv.FeedMeta(link="../index.html", self_link="feed.xml")
    out = io.BytesIO()
    messages: list[str] = []
    sitemapconv.write([Entry("https://e.com/a")], out, fmt, meta=meta, on_warning=messages.append)
    assert b"../index.html" not in out.getvalue() and b'"feed.xml"' not in out.getvalue()
    assert b"https://e.com/" in out.getvalue()
    assert any("relative feed link" in m for m in messages)


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


def test_feedparser_reader_gives_the_same_title_and_summary_kinds() -> None:
    feed = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry>'
        b'<title type="html">Dates &amp;lt;are&amp;gt; hard</title>'
        b'<summary>a &lt; b</summary><link href="https://e.com/1"/></entry></feed>'
    )
    fast, _ = _read(feed)
    rescued, _ = _read(feed, format="feedparser")
    assert [(e.title, e.summary) for e in rescued] == [(e.title, e.summary) for e in fast]
    assert fast[0].title == "Dates <are> hard" and fast[0].summary == "a &lt; b"


@pytest.mark.parametrize("fmt", ["xml", "index", "txt", "rss", "atom", "atom03", "jsonfeed"])
def test_broken_ipv6_loc_is_skipped_in_every_format(fmt: str) -> None:
    data, messages = _write([Entry("https://[broken/a"), Entry("https://[::1]:8080/x")], fmt)
    assert b"[::1]:8080" in data and b"broken" not in data
    assert any("'https://[broken/a': not a valid URL" in m for m in messages)
