"""The verbs (``_api``): ``read``, ``write`` and ``convert`` on real files.

Readers, writers, sources and sinks have their own tests; these check what the verbs add:
detection versus a forced format, options from keywords, the output format from the file
name, one error type for bad input, and the feed metadata carried from reader to writer.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Entry, FormatError, SitemapError, WriteError

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SITEMAP = (
    f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n'
    "<url><loc>https://example.com/a</loc><lastmod>2024-05-01</lastmod></url>\n"
    "<url><loc>https://example.com/b</loc></url>\n</urlset>\n"
)
RSS = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>'
    "<link>https://example.com/</link><description>d</description>"
    "<item><title>One</title><link>https://example.com/one</link></item></channel></rss>"
)


@pytest.fixture
def sitemap(tmp_path: Path) -> Path:
    path = tmp_path / "sitemap.xml"
    path.write_text(SITEMAP)
    return path


def test_read_detects_the_format_and_names_the_source(sitemap: Path) -> None:
    with sitemapconv.read(sitemap) as doc:
        assert (doc.format, doc.source) == ("xml", str(sitemap))
        assert [e.loc for e in doc] == ["https://example.com/a", "https://example.com/b"]


def test_read_with_a_forced_format_that_does_not_fit_refuses(sitemap: Path) -> None:
    with pytest.raises(FormatError):
        sitemapconv.read(sitemap, "rss")
    with sitemapconv.read(sitemap, "sitemap") as doc:  # an alias is fine
        assert doc.format == "xml"


def test_read_takes_options_as_keywords_and_refuses_unknown_ones(sitemap: Path) -> None:
    with sitemapconv.read(sitemap, base_url="https://example.com/") as doc:
        assert len(list(doc)) == 2
    with pytest.raises(TypeError, match="colour"):
        sitemapconv.read(sitemap, colour="red")


def test_read_of_a_bad_url_is_one_sitemap_error() -> None:
    with pytest.raises(SitemapError) as info:
        sitemapconv.read("http://[::1")
    assert info.value.source == "http://[::1"


def test_write_takes_the_format_from_the_name_and_gzips_dot_gz(tmp_path: Path) -> None:
    entries = [Entry("https://example.com/a"), Entry("https://example.com/b")]
    out = tmp_path / "urls.txt.gz"
    assert sitemapconv.write(entries, out) == 2
    assert gzip.decompress(out.read_bytes()) == b"https://example.com/a\nhttps://example.com/b\n"


def test_write_without_a_format_or_a_telling_name_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "urls"
    with pytest.raises(WriteError, match="no output format"):
        sitemapconv.write([Entry("https://example.com/a")], out)
    assert not out.exists()


def test_a_document_carries_its_feed_title_to_the_writer(tmp_path: Path) -> None:
    source = tmp_path / "news.rss"
    source.write_text(RSS)
    out = tmp_path / "feed.json"
    with sitemapconv.read(source) as doc:
        assert sitemapconv.write(doc, out) == 1
    written = json.loads(out.read_text())
    assert written["title"] == "News"
    assert [item["url"] for item in written["items"]] == ["https://example.com/one"]


def test_convert_splits_keywords_between_reading_and_writing(sitemap: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.xml.gz"
    warnings: list[str] = []
    count = sitemapconv.convert(
        sitemap, out, "txt", max_bytes=1_000_000, gzip=True, on_warning=warnings.append
    )
    assert count == 2
    assert warnings == [f"{out}: a text sitemap holds only URLs: dropped lastmod"]
    assert gzip.decompress(out.read_bytes()).splitlines() == [
        b"https://example.com/a",
        b"https://example.com/b",
    ]
    with pytest.raises(TypeError, match="unknown option"):
        sitemapconv.convert(sitemap, out, "txt", colour="red")


def test_convert_of_a_missing_file_leaves_no_output(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    with pytest.raises(SitemapError, match="no such file"):
        sitemapconv.convert(tmp_path / "missing.xml", out)
    assert not out.exists()
