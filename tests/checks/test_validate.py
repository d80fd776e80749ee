"""sitemapconv.validate: one test per check, each on a small ill-formed file in data/validate."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from sitemapconv import Report, validate
from tests.conftest import DATA

VALIDATE = DATA / "validate"


def found(report: Report, rule: str) -> list[tuple[str, int | None, str | None]]:
    """(severity, line, url) of every problem with ``rule``."""
    return [(p.severity, p.line, p.url) for p in report.problems if p.rule == rule]


def messages(report: Report, rule: str) -> list[str]:
    return [p.message for p in report.problems if p.rule == rule]


# --- syntax -------------------------------------------------------------------------------


def test_not_well_formed_gives_line_and_column() -> None:
    report = validate(VALIDATE / "syntax-unescaped-amp.xml")
    [problem] = [p for p in report.problems if p.rule == "syntax"]
    assert (problem.severity, problem.line, problem.column) == ("error", 4, 39)
    assert "&amp;" in problem.message
    assert report.errors == 1 and not report.ok
    assert report.urls == 1  # the URL before the error was still checked


def test_sitemap_declared_in_another_encoding() -> None:
    report = validate(VALIDATE / "syntax-latin1.xml")
    assert found(report, "encoding") == [("error", 1, None)]
    assert "ISO-8859-1" in messages(report, "encoding")[0]


def test_bytes_that_are_not_utf8() -> None:
    report = validate(VALIDATE / "syntax-not-utf8.xml")
    [(severity, line, _)] = found(report, "encoding")
    assert (severity, line) == ("error", 4)


def test_bom_is_a_warning() -> None:
    report = validate(VALIDATE / "syntax-bom.xml")
    assert found(report, "bom") == [("warning", 1, None)]
    assert report.ok and report.errors == 0 and report.warnings == 1


# --- schema -------------------------------------------------------------------------------


def test_schema_structure_in_plain_words() -> None:
    report = validate(VALIDATE / "schema-structure.xml")
    problems = [(p.line, p.url, p.message) for p in report.problems if p.rule == "schema"]
    lines = [line for line, _, _ in problems]
    assert lines == [4, 9, 12, 18]
    assert "must start with <loc>" in problems[0][2]
    assert problems[1][1] == "https://example.com/expires"
    assert "<expires> is not a sitemap element" in problems[1][2]
    assert "order loc, lastmod, changefreq, priority" in problems[3][2]
    assert problems[3][1] == "https://example.com/twice"


def test_missing_namespace() -> None:
    report = validate(VALIDATE / "schema-namespace.xml")
    assert found(report, "namespace") == [("error", 2, None)]
    # The entries are still checked as sitemap entries.
    assert found(report, "priority") == [("error", 3, "https://example.com/")]


def test_extensions_checked_by_rules_and_unknown_namespace_is_a_warning() -> None:
    report = validate(VALIDATE / "schema-extensions.xml")
    ext = [
        (line, url, msg)
        for (_, line, url), msg in zip(
            found(report, "extension"), messages(report, "extension"), strict=True
        )
    ]
    assert [(line, url) for line, url, _ in ext] == [
        (10, "https://example.com/image"),
        (14, "https://example.com/video"),
        (14, "https://example.com/video"),
        (20, "https://example.com/news"),
        (28, "https://example.com/en/"),
    ]
    assert "<image:loc>" in ext[0][2]
    assert "<video:thumbnail_loc> and <video:description>" in ext[1][2]
    assert "<video:content_loc> or <video:player_loc>" in ext[2][2]
    assert "<news:name>" in ext[3][2] and "<news:language>" not in ext[3][2]
    assert "hreflang" in ext[4][2]
    assert found(report, "unknown-extension") == [("warning", 32, None)]
    assert "http://www.example.org/pagemap" in messages(report, "unknown-extension")[0]
    assert not found(report, "schema")  # extensions never make the XSD fail
    assert report.errors == 5


# --- limits -------------------------------------------------------------------------------


def test_more_than_50000_urls() -> None:
    report = validate(VALIDATE / "limits-50001-urls.xml.gz")
    assert found(report, "limit-count") == [("error", 50_003, None)]
    assert report.urls == 50_001 and report.errors == 1


def test_more_than_50000_sitemaps_in_an_index() -> None:
    report = validate(VALIDATE / "index-50001-sitemaps.xml.gz")
    assert found(report, "limit-count") == [("error", 50_003, None)]
    assert "sitemaps" in messages(report, "limit-count")[0]


def test_more_than_50_mb_uncompressed() -> None:
    report = validate(VALIDATE / "limits-over-50mb.xml.gz")
    assert [(s, line) for s, line, _ in found(report, "limit-size")] == [("error", None)]
    assert "52,429,979 bytes" in messages(report, "limit-size")[0]


def test_url_of_2048_characters_or_more() -> None:
    report = validate(VALIDATE / "limits-long-url.xml")
    [(severity, line, url)] = found(report, "url-length")
    assert (severity, line) == ("error", 4)
    assert url is not None and url.startswith("https://example.com/aaa")
    assert "2,120 characters" in messages(report, "url-length")[0]


# --- URLs ---------------------------------------------------------------------------------


def test_url_rules() -> None:
    report = validate(VALIDATE / "urls-bad.xml")
    assert found(report, "url-relative") == [("error", 3, "/relative/page.html")]
    assert found(report, "url-scheme") == [("error", 4, "ftp://example.com/file")]
    assert found(report, "url-escaping") == [("error", 5, "https://example.com/ümlaut")]
    assert "https://example.com/%C3%BCmlaut" in messages(report, "url-escaping")[0]
    assert found(report, "url-whitespace") == [("error", 6, "https://example.com/two words")]
    assert found(report, "url-fragment") == [("warning", 7, "https://example.com/page#section")]
    assert found(report, "duplicate") == [("warning", 11, "https://example.com/catalog/d")]
    assert "3 times" in messages(report, "duplicate")[0]
    # No location known: no scope check.
    assert not found(report, "scope-site") and not found(report, "scope-path")


def test_scope_when_location_is_known() -> None:
    report = validate(VALIDATE / "urls-bad.xml", location="https://example.com/catalog/sitemap.xml")
    assert [line for _, line, _ in found(report, "scope-site")] == [8, 9]
    path_lines = [line for _, line, _ in found(report, "scope-path")]
    assert 10 in path_lines and 12 not in path_lines and 13 not in path_lines


def test_scope_from_a_url_input(httpserver: HTTPServer) -> None:
    body = (VALIDATE / "urls-bad.xml").read_bytes()
    httpserver.expect_request("/catalog/sitemap.xml").respond_with_data(body)
    report = validate(httpserver.url_for("/catalog/sitemap.xml"))
    # Every example.com URL is on another host than the loopback server.
    assert [line for _, line, _ in found(report, "scope-site")] == list(range(5, 14))


# --- values -------------------------------------------------------------------------------


def test_lastmod_forms_are_named() -> None:
    report = validate(VALIDATE / "values-bad.xml")
    by_line = dict(
        zip(
            [line for _, line, _ in found(report, "lastmod-format")],
            messages(report, "lastmod-format"),
            strict=True,
        )
    )
    assert "RFC 822 date" in by_line[3]
    assert "datetime without time zone" in by_line[4]
    assert "'+0100' offset without colon" in by_line[5]
    assert "not a real calendar date" in by_line[12]
    assert found(report, "lastmod-xsd") == [("warning", 13, "https://example.com/11")]


def test_lastmod_in_the_future() -> None:
    report = validate(VALIDATE / "values-bad.xml")
    assert found(report, "lastmod-future") == [("warning", 6, "https://example.com/4")]


def test_priority_changefreq_and_empty_tags() -> None:
    report = validate(VALIDATE / "values-bad.xml")
    assert [line for _, line, _ in found(report, "priority")] == [7, 8]
    assert "outside that range" in messages(report, "priority")[0]
    assert "not a number" in messages(report, "priority")[1]
    assert found(report, "changefreq") == [("error", 9, "https://example.com/7")]
    assert [line for _, line, _ in found(report, "empty-tag")] == [10, 10]
    assert found(report, "url-empty") == [("error", 11, None)]
    # The correct last entry (with .5 priority) adds nothing.
    assert not [p for p in report.problems if p.line == 14]


# --- index --------------------------------------------------------------------------------


def test_index_without_follow_checks_only_the_index() -> None:
    report = validate(VALIDATE / "index-follow.xml")
    assert len(report.sources) == 1
    assert [line for _, line, _ in found(report, "url-relative")] == [3, 4, 5]


def test_follow_local_children_nested_index_and_missing_child() -> None:
    report = validate(VALIDATE / "index-follow.xml", follow=True)
    assert found(report, "nested-index") == [("error", 4, "children/child-index.xml")]
    assert found(report, "child-fetch") == [("error", 5, "children/missing.xml")]
    assert "no such file" in messages(report, "child-fetch")[0]
    # The child urlset was validated too, and reported under its own name.
    [priority] = [p for p in report.problems if p.rule == "priority"]
    assert priority.source.endswith("child-urlset.xml") and priority.line == 3
    assert len(report.sources) == 3  # index, child urlset, child index (urlset not re-read)


def test_follow_http_children(httpserver: HTTPServer) -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    index = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {ns}>\n'
        f"  <sitemap><loc>{httpserver.url_for('/ok.xml')}</loc></sitemap>\n"
        f"  <sitemap><loc>{httpserver.url_for('/gone.xml')}</loc></sitemap>\n"
        "</sitemapindex>\n"
    )
    child = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>\n'
        f"  <url><loc>{httpserver.url_for('/page')}</loc><changefreq>often</changefreq></url>\n"
        "</urlset>\n"
    )
    httpserver.expect_request("/sitemap_index.xml").respond_with_data(index)
    httpserver.expect_request("/ok.xml").respond_with_data(gzip.compress(child.encode()))
    httpserver.expect_request("/gone.xml").respond_with_data("nope", status=404)
    report = validate(httpserver.url_for("/sitemap_index.xml"), follow=True)
    [fetch] = [p for p in report.problems if p.rule == "child-fetch"]
    assert fetch.line == 4 and "404" in fetch.message
    [freq] = [p for p in report.problems if p.rule == "changefreq"]
    assert freq.source == httpserver.url_for("/ok.xml") and freq.line == 3
    assert not found(report, "scope-site")  # children on the index's own host


# --- feeds --------------------------------------------------------------------------------


def test_rss_channel_and_items() -> None:
    report = validate(VALIDATE / "rss-missing.xml")
    assert found(report, "rss-channel") == [("error", 3, None)]
    assert "<description>" in messages(report, "rss-channel")[0]
    assert found(report, "rss-item-link") == [("error", 8, None)]
    assert found(report, "feed-date") == [("error", 9, "https://example.com/c")]
    assert report.urls == 4 and report.errors == 3  # the permalink guid item is fine


def test_atom_entries() -> None:
    report = validate(VALIDATE / "atom-missing.xml")
    assert found(report, "atom-feed") == [("error", 2, None)]
    assert found(report, "atom-entry") == [("error", 11, "https://example.com/2")]
    assert "<id>, <updated>" in messages(report, "atom-entry")[0]
    assert found(report, "atom-entry-link") == [("warning", 15, None)]
    assert found(report, "feed-date") == [("error", 18, None)]
    assert "without seconds" in messages(report, "feed-date")[0]


def test_atom03_entries() -> None:
    report = validate(VALIDATE / "atom03-missing.xml")
    assert found(report, "atom-entry") == [("error", 5, "https://example.com/a")]
    assert "<id>, <modified>" in messages(report, "atom-entry")[0]


# --- text, inputs, report -----------------------------------------------------------------


def test_text_sitemap() -> None:
    report = validate(VALIDATE / "text-bad.txt")
    assert [line for _, line, _ in found(report, "text-line")] == [2, 3]
    assert found(report, "url-whitespace") == [("error", 5, "https://example.com/b c")]
    assert found(report, "duplicate") == [("warning", 1, "https://example.com/a")]


def test_not_a_sitemap_and_missing_file(tmp_path: Path) -> None:
    html = tmp_path / "sitemap.xml"
    html.write_text("<!DOCTYPE html><html><body>Not found</body></html>")
    report = validate(html)
    assert found(report, "format") == [("error", 1, None)]
    assert "HTML" in messages(report, "format")[0]
    missing = validate(tmp_path / "nope.xml")
    assert found(missing, "open") == [("error", None, None)]
    assert not missing.ok


def test_problems_beyond_the_cap_are_counted_not_stored(tmp_path: Path) -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    urls = "".join(
        f"<url><loc>https://e.com/{i}</loc><priority>9</priority></url>\n" for i in range(250)
    )
    path = tmp_path / "many.xml"
    path.write_text(f"<urlset {ns}>\n{urls}</urlset>\n")
    report = validate(path, max_per_rule=100)
    assert report.errors == 250
    assert len(found(report, "priority")) == 100 and report.suppressed == 150


def test_to_json_round_trips() -> None:
    import json

    report = validate(VALIDATE / "values-bad.xml")
    data = json.loads(report.to_json())
    assert data["ok"] is False
    assert data["errors"] == report.errors and data["warnings"] == report.warnings
    first = data["problems"][0]
    assert set(first) == {"severity", "source", "line", "column", "url", "rule", "message"}


def test_valid_sitemap_has_no_problems(tmp_path: Path) -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    path = tmp_path / "good.xml"
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>\n'
        "<url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod>"
        "<changefreq>daily</changefreq><priority>0.8</priority></url>\n</urlset>\n"
    )
    report = validate(path, location="https://example.com/sitemap.xml")
    assert report.problems == [] and report.ok and report.urls == 1


@pytest.mark.slow
@pytest.mark.parametrize("count", [50_000])
def test_memory_stays_flat_on_50000_urls(tmp_path: Path, count: int) -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    path = tmp_path / "big.xml"
    with path.open("w") as f:
        f.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {ns}>\n')
        for i in range(count):
            f.write(
                f"<url><loc>https://example.com/p/{i}</loc>"
                f"<lastmod>2024-05-01T10:00:00+00:00</lastmod><priority>0.5</priority></url>\n"
            )
        f.write("</urlset>\n")
    tracemalloc.start()
    try:
        report = validate(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.urls == count and report.ok
    # The file is ~5 MB; only the duplicate-hash table grows with it (~ 100 bytes per URL).
    assert peak < 16 * 1024 * 1024


def test_the_validator_uses_the_readers_format_detection() -> None:
    """One detection: every sample the readers claim is validated as that same format."""
    import gzip
    import zlib

    from sitemapconv._checks.syntax import kind_of
    from sitemapconv._detect import detect
    from sitemapconv._head import HEAD_SIZE, Head
    from sitemapconv.errors import FormatError

    checked = 0
    from tests.conftest import DATA

    for path in sorted(DATA.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError, zlib.error):  # a deliberately broken gzip sample
                continue
        head = Head(data[:HEAD_SIZE])
        try:
            name = detect(head)
        except FormatError:
            continue
        if name != "feedparser":
            assert kind_of(head) == name, path
            checked += 1
    assert checked > 50
