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
from sitemapconv.errors import LimitError, SitemapError, SitemapWarning
from tests.conftest import DATA, ROOT, SAMPLES

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


def test_mkdocs_none_locs_are_warned_when_read() -> None:
    entries, messages = _read(REAL / "urlset-mkdocs-no-site-url.xml")
    assert [e.loc for e in entries] == ["None", "None"]
    assert any("2 <loc> values are not absolute" in m and "lines 3, 7" in m for m in messages)


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


# --- hosts ----------------------------------------------------------------------------------


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


@pytest.mark.parametrize("fmt", ["rss", "atom", "atom03"])
def test_relative_feed_link_of_the_source_is_not_written(fmt: str) -> None:
    meta = sitemapconv.FeedMeta(link="../index.html", self_link="feed.xml")
    out = io.BytesIO()
    messages: list[str] = []
    sitemapconv.write([Entry("https://e.com/a")], out, fmt, meta=meta, on_warning=messages.append)
    assert b"../index.html" not in out.getvalue() and b'"feed.xml"' not in out.getvalue()
    assert b"https://e.com/" in out.getvalue()
    assert any("relative feed link" in m for m in messages)


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
