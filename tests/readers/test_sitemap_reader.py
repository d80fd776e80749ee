"""The urlset reader on real sitemaps, damaged sitemaps and the Google extensions."""

from __future__ import annotations

import datetime as dt
import io
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import sitemapconv
from sitemapconv._model import Alternate, Entry, Image, News, VideoId, VideoPrice
from sitemapconv.errors import FormatError, LimitError, ParseError, SitemapError

DATA = Path(__file__).resolve().parent.parent / "data" / "sitemaps"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
UTC = dt.timezone.utc


def tz(hours: int) -> dt.timezone:
    return dt.timezone(dt.timedelta(hours=hours))


def read_all(source: Any, **options: Any) -> tuple[list[Entry], list[str], str]:
    """Read every entry; warnings are collected instead of emitted."""
    messages: list[str] = []
    with sitemapconv.read(source, on_warning=messages.append, **options) as doc:
        entries = list(doc)
    return entries, messages, doc.format


def urlset(
    body: str, ns: str = NS, head: str = '<?xml version="1.0" encoding="UTF-8"?>\n'
) -> bytes:
    xmlns = f' xmlns="{ns}"' if ns else ""
    return f"{head}<urlset{xmlns}>{body}</urlset>\n".encode()


def has(messages: list[str], *words: str) -> bool:
    return any(all(w in m for w in words) for m in messages)


# --- real files ------------------------------------------------------------------------------


def test_urlset_basic_field_by_field_and_golden() -> None:
    entries, messages, fmt = read_all(DATA / "urlset-basic.xml")
    assert fmt == "xml"
    assert messages == []
    assert [e.loc for e in entries] == [
        "http://HOST/",
        "http://HOST/tools/",
        "http://HOST/contribution-to-oss/",
        "http://HOST/page-1/",
    ]
    assert [e.lastmod for e in entries] == [
        None,
        dt.datetime(2015, 5, 7, 19, 13, 9, tzinfo=tz(9)),
        dt.date(2015, 5, 7),
        dt.datetime(2015, 5, 7, 19, 13, 9, tzinfo=tz(9)),
    ]
    # gopher's golden file fills in changefreq=always and priority=0.5; we never invent them.
    assert [e.changefreq for e in entries] == [None, None, "monthly", "monthly"]
    assert [e.priority for e in entries] == [None, None, None, 0.9]
    assert {e.sitemap for e in entries} == {str(DATA / "urlset-basic.xml")}

    golden = (DATA / "urlset-basic.golden.txt").read_text().split()
    golden_locs = [line for line in golden if line.startswith("http")]
    assert golden_locs == [e.loc for e in entries]
    golden_dates = [line for line in golden if line[:4].isdigit() and "T" in line]
    ours = [e.lastmod for e in entries if e.lastmod is not None]
    assert len(golden_dates) == len(ours) == 3
    for text, value in zip(golden_dates, ours, strict=True):
        expected = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
        if isinstance(value, dt.datetime):
            assert value == expected
        else:  # golden normalises a date to midnight UTC; we keep the date
            assert value == expected.date()
    golden_freqs = [line for line in golden if line in ("always", "monthly")]
    assert golden_freqs == [e.changefreq or "always" for e in entries]


def test_sitemaps_org_real_file() -> None:
    raw = (DATA / "urlset-sitemaps-org.xml").read_bytes()
    entries, messages, _ = read_all(DATA / "urlset-sitemaps-org.xml")
    assert messages == []
    assert len(entries) == raw.count(b"<url>") == 84
    assert entries[0].loc == "https://www.sitemaps.org/"
    assert entries[-1].loc == raw.rsplit(b"<loc>", 1)[1].split(b"<")[0].decode()
    assert {e.lastmod for e in entries} == {dt.date(2016, 11, 21)}


def test_google_084_namespace_with_warning() -> None:
    entries, messages, fmt = read_all(DATA / "urlset-google-0.84-namespace.xml")
    assert fmt == "xml"
    assert [(e.loc, e.lastmod, e.changefreq, e.priority) for e in entries] == [
        ("http://www.example.com/", dt.date(2009, 8, 16), "daily", 1.0),
        ("http://www.example.com/Special-Offers.html", dt.date(2009, 8, 16), "weekly", 0.8),
    ]
    assert has(messages, "0.84")


def test_loc_leading_space_and_empty_lastmod() -> None:
    entries, messages, _ = read_all(DATA / "urlset-loc-leading-space-empty-lastmod.xml")
    assert [e.loc for e in entries] == ["http://www.example.com/", "http://www.example.com/2"]
    assert entries[0].lastmod == dt.date(2009, 8, 16)
    assert entries[1].lastmod is None
    assert has(messages, "http://www.example.com/2", "lastmod", "''")


def test_xxe_entity_is_never_expanded() -> None:
    entries, _, _ = read_all(DATA / "urlset-xxe-doctype.xml")
    assert len(entries) == 1
    assert entries[0].loc.startswith("http://127.0.0.1:8000/")
    assert "root:" not in entries[0].loc
    assert entries[0].loc == "http://127.0.0.1:8000/&xxe;"


def test_internal_entities_and_external_dtd_are_not_used() -> None:
    doc = (
        b'<?xml version="1.0"?>\n'
        b'<!DOCTYPE urlset SYSTEM "http://127.0.0.1:9/never.dtd" [\n'
        b'<!ENTITY a "EXPANDED">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n'
        + urlset("<url><loc>http://e.com/&b;</loc></url>", head="")
    )
    entries, _, _ = read_all(doc)
    assert len(entries) == 1
    assert "EXPANDED" not in entries[0].loc


@pytest.mark.parametrize("path", sorted(p for p in DATA.iterdir() if p.name != "SOURCES.md"))
def test_every_corpus_file_reads_or_raises_sitemap_error(path: Path) -> None:
    try:
        read_all(path)
    except SitemapError as exc:
        assert str(path) in str(exc)


# --- gzip and caps ---------------------------------------------------------------------------


def test_gzip_urlset_matches_plain_file() -> None:
    plain, _, _ = read_all(DATA / "urlset-sitemaps-org.xml")
    gz, _, fmt = read_all(DATA / "urlset-sitemaps-org.xml.gz")
    assert fmt == "xml"
    assert [(e.loc, e.lastmod) for e in gz] == [(e.loc, e.lastmod) for e in plain]


def test_gzip_crawler_commons() -> None:
    entries, _, fmt = read_all(DATA / "urlset-crawler-commons.xml.gz")
    assert fmt == "xml"
    assert len(entries) == 5
    assert entries[0].loc == "http://www.example.com/"
    assert entries[1].loc == "http://www.example.com/catalog?item=12&desc=vacation_hawaii"


def test_gzip_detected_by_magic_bytes_not_name(tmp_path: Path) -> None:
    target = tmp_path / "x.xml"
    target.write_bytes((DATA / "urlset-sitemaps-org.xml.gz").read_bytes())
    entries, _, fmt = read_all(target)
    assert fmt == "xml"
    assert len(entries) == 84


def test_corrupted_gzip_is_a_sitemap_error() -> None:
    with pytest.raises(SitemapError, match=r"corrupted\.gz"):
        read_all(DATA / "corrupted.gz")


def test_max_bytes_cap_raises_limit_error() -> None:
    with pytest.raises(LimitError, match=r"urlset-sitemaps-org\.xml"):
        read_all(DATA / "urlset-sitemaps-org.xml", max_bytes=2000)
    with pytest.raises(LimitError):
        read_all(DATA / "urlset-sitemaps-org.xml.gz", max_bytes=2000)


# --- core values -----------------------------------------------------------------------------


def test_children_in_any_order_and_case() -> None:
    doc = urlset(
        "<url><priority>0.4</priority><changefreq>Weekly</changefreq>"
        "<lastmod>2024-01-02T03:04:05Z</lastmod><loc>https://e.com/a</loc></url>"
    )
    [entry], messages, _ = read_all(doc)
    assert entry == Entry(
        "https://e.com/a",
        dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC),
        "weekly",
        0.4,
        sitemap=None,
    )
    assert messages == []


def test_whitespace_and_newlines_around_every_value() -> None:
    doc = urlset(
        "\n<url>\n  <loc>\n   https://e.com/a \n  </loc>\n  <lastmod>\n 2024-01-02 \n</lastmod>"
        "\n  <changefreq>\t daily \n</changefreq>\n  <priority>\n 0.7 \n</priority>\n</url>\n"
    )
    [entry], messages, _ = read_all(doc)
    assert (entry.loc, entry.lastmod, entry.changefreq, entry.priority) == (
        "https://e.com/a",
        dt.date(2024, 1, 2),
        "daily",
        0.7,
    )
    assert messages == []


@pytest.mark.parametrize(
    ("text", "expected", "warned"),
    [
        ("0,8", 0.8, False),
        (".5", 0.5, False),
        ("1", 1.0, False),
        ("0", 0.0, False),
        ("1.5", None, True),
        ("-0.1", None, True),
        ("high", None, True),
        ("nan", None, True),
        ("", None, True),
    ],
)
def test_priority_values(text: str, expected: float | None, warned: bool) -> None:
    [entry], messages, _ = read_all(
        urlset(f"<url><loc>https://e.com/</loc><priority>{text}</priority></url>")
    )
    assert entry.priority == expected
    assert has(messages, "priority", repr(text)) is warned


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DAILY", "daily"),
        (" Never ", "never"),
        ("always", "always"),
        ("sometimes", None),
        ("", None),
    ],
)
def test_changefreq_values(text: str, expected: str | None) -> None:
    [entry], messages, _ = read_all(
        urlset(f"<url><loc>https://e.com/</loc><changefreq>{text}</changefreq></url>")
    )
    assert entry.changefreq == expected
    assert has(messages, "changefreq") is (expected is None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024", dt.date(2024, 1, 1)),
        ("2024-02", dt.date(2024, 2, 1)),
        ("2024-02-29T10:11+01:00", dt.datetime(2024, 2, 29, 10, 11, tzinfo=tz(1))),
        ("2024-02-29T10:11:12.5Z", dt.datetime(2024, 2, 29, 10, 11, 12, 500000, tzinfo=UTC)),
        ("2024-02-29T10:11:12", dt.datetime(2024, 2, 29, 10, 11, 12)),
    ],
)
def test_lastmod_forms(text: str, expected: object) -> None:
    [entry], messages, _ = read_all(
        urlset(f"<url><loc>https://e.com/</loc><lastmod>{text}</lastmod></url>")
    )
    assert entry.lastmod == expected
    assert messages == []


@pytest.mark.parametrize("text", ["yesterday", "2024-13-01", "2024-02-30", "<x/>"])
def test_invalid_lastmod_is_none_with_warning_giving_value(text: str) -> None:
    [entry], messages, _ = read_all(
        urlset(f"<url><loc>https://e.com/</loc><lastmod>{text}</lastmod></url>")
    )
    assert entry.lastmod is None
    shown = "''" if text == "<x/>" else repr(text)
    assert has(messages, "https://e.com/", "lastmod", shown)


def test_url_without_loc_is_skipped_with_warning() -> None:
    doc = urlset(
        "<url><lastmod>2024-01-01</lastmod></url>\n<url><loc>  </loc></url>\n"
        "<url><loc>https://e.com/kept</loc></url>"
    )
    entries, messages, _ = read_all(doc)
    assert [e.loc for e in entries] == ["https://e.com/kept"]
    assert sum("without <loc>" in m for m in messages) == 2
    assert has(messages, "line 2")


def test_bad_values_never_stop_reading() -> None:
    body = "".join(
        f"<url><loc>https://e.com/{i}</loc><lastmod>bad</lastmod>"
        f"<changefreq>x</changefreq><priority>9</priority></url>"
        for i in range(5)
    )
    entries, messages, _ = read_all(urlset(body))
    assert [e.loc for e in entries] == [f"https://e.com/{i}" for i in range(5)]
    assert len(messages) == 15


def test_sitemap_field_is_document_location() -> None:
    entries, _, _ = read_all(urlset("<url><loc>https://e.com/</loc></url>"))
    assert entries[0].sitemap is None  # bytes have no name of their own
    entries, _, _ = read_all(
        urlset("<url><loc>https://e.com/</loc></url>"), base_url="https://e.com/sitemap.xml"
    )
    assert entries[0].sitemap == "https://e.com/sitemap.xml"


# --- tolerance -------------------------------------------------------------------------------

CORE = "<url><loc>https://e.com/a</loc><lastmod>2024-01-02</lastmod></url>"


def test_utf8_bom_before_declaration() -> None:
    entries, messages, fmt = read_all(b"\xef\xbb\xbf" + urlset(CORE))
    assert fmt == "xml"
    assert [(e.loc, e.lastmod) for e in entries] == [("https://e.com/a", dt.date(2024, 1, 2))]
    assert messages == []


def test_blank_lines_before_declaration() -> None:
    entries, _, fmt = read_all(b"\n\n  \t\r\n" + urlset(CORE))
    assert fmt == "xml"
    assert [e.loc for e in entries] == ["https://e.com/a"]


def test_bom_and_blank_lines_before_declaration() -> None:
    entries, _, _ = read_all(b"\xef\xbb\xbf \n\n" + urlset(CORE))
    assert [e.loc for e in entries] == ["https://e.com/a"]


def test_missing_namespace_and_url_xmlns_empty() -> None:
    entries, messages, fmt = read_all(DATA / "urlset-no-namespace.xml")
    assert fmt == "xml"
    assert [(e.loc, e.lastmod, e.changefreq, e.priority) for e in entries] == [
        ("http://www.example.com/", dt.date(2009, 8, 16), "daily", 1.0),
        ("http://www.example.com/2", None, None, None),
    ]
    assert has(messages, "no namespace")


def test_url_with_empty_xmlns_inside_namespaced_urlset() -> None:
    doc = urlset('<url xmlns=""><loc>https://e.com/a</loc><priority>0.2</priority></url>')
    [entry], messages, _ = read_all(doc)
    assert (entry.loc, entry.priority) == ("https://e.com/a", 0.2)
    assert messages == []


@pytest.mark.parametrize(
    ("ns", "warning"),
    [
        ("https://www.sitemaps.org/schemas/sitemap/0.9", "https://"),
        ("http://www.google.com/schemas/sitemap/0.9", "Google"),
        ("http://www.google.com/schemas/sitemap/0.84", "0.84"),
        ("http://www.example.com/wrong-namespace", "unknown namespace"),
    ],
)
def test_variant_old_and_wrong_namespaces_read_with_warning(ns: str, warning: str) -> None:
    entries, messages, fmt = read_all(urlset(CORE, ns=ns))
    assert fmt == "xml"
    assert [(e.loc, e.lastmod) for e in entries] == [("https://e.com/a", dt.date(2024, 1, 2))]
    assert has(messages, warning)


def test_prefixed_namespace() -> None:
    doc = (
        f'<sit:urlset xmlns:sit="{NS}"><sit:url><sit:loc>https://e.com/a</sit:loc>'
        "<sit:changefreq>hourly</sit:changefreq></sit:url></sit:urlset>"
    ).encode()
    [entry], messages, fmt = read_all(doc)
    assert fmt == "xml"
    assert (entry.loc, entry.changefreq) == ("https://e.com/a", "hourly")
    assert messages == []


def test_cdata_in_loc_keeps_ampersand() -> None:
    doc = urlset("<url><loc><![CDATA[https://e.com/?a=1&b=2]]></loc></url>")
    [entry], messages, _ = read_all(doc)
    assert entry.loc == "https://e.com/?a=1&b=2"
    assert messages == []


def test_loc_split_across_text_and_cdata() -> None:
    doc = urlset("<url><loc> https://e.com/<![CDATA[x?a=1&b=2]]>&amp;c=3 </loc></url>")
    [entry], _, _ = read_all(doc)
    assert entry.loc == "https://e.com/x?a=1&b=2&c=3"


def test_comment_inside_loc_is_dropped() -> None:
    doc = urlset("<url><loc>https://e.com/<!-- & -->page</loc></url>")
    [entry], messages, _ = read_all(doc)
    assert entry.loc == "https://e.com/page"
    assert messages == []


def test_declared_iso_8859_1_encoding() -> None:
    doc = (
        b'<?xml version="1.0" encoding="ISO-8859-1"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        b"<url><loc>https://e.com/caf\xe9</loc></url></urlset>"
    )
    [entry], _, _ = read_all(doc)
    assert entry.loc == "https://e.com/café"


def test_utf16_document() -> None:
    doc = urlset(CORE).decode().replace("UTF-8", "UTF-16").encode("utf-16")
    entries, _, fmt = read_all(doc)
    assert fmt == "xml"
    assert [e.loc for e in entries] == ["https://e.com/a"]


def test_unescaped_ampersand_is_kept() -> None:
    doc = urlset(
        "<url><loc>https://e.com/?a=1&b=2</loc></url>"
        "<url><loc>https://e.com/?a=1&amp;b=2&#38;c=3&#x26;d=4</loc></url>"
        "<url><loc>https://e.com/?x=&nbsp;&</loc></url>"
    )
    entries, messages, _ = read_all(doc)
    assert [e.loc for e in entries] == [
        "https://e.com/?a=1&b=2",
        "https://e.com/?a=1&b=2&c=3&d=4",
        "https://e.com/?x=&nbsp;&",
    ]
    assert has(messages, "read 3 bare '&'")


def test_unescaped_ampersand_at_every_chunk_boundary() -> None:
    """A bare '&' lands on the 64 KiB read boundary somewhere in this document."""
    urls = [f"https://e.com/{'p' * (i % 50)}?a={i}&b={i}" for i in range(3000)]
    body = "".join(f"<url><loc>{u}</loc></url>\n" for u in urls)
    entries, _, _ = read_all(urlset(body))
    assert [e.loc for e in entries] == urls


def test_truncated_document_keeps_complete_entries() -> None:
    full = (DATA / "urlset-basic.xml").read_bytes()
    cut = full[: full.index(b"<priority>0.9")]
    entries, messages, _ = read_all(cut)
    assert [e.loc for e in entries] == [
        "http://HOST/",
        "http://HOST/tools/",
        "http://HOST/contribution-to-oss/",
    ]
    assert has(messages, "ends inside", "dropped")


def test_truncated_right_after_an_entry() -> None:
    full = (DATA / "urlset-basic.xml").read_bytes()
    cut = full[: full.index(b"</url>", full.index(b"contribution-to-oss")) + len(b"</url>")]
    entries, messages, _ = read_all(cut)
    assert [e.loc for e in entries][-1] == "http://HOST/contribution-to-oss/"
    assert len(entries) == 3
    assert has(messages, "truncated", "completed before the cut")
    assert not has(messages, "dropped")


def test_truncated_inside_end_tag_drops_that_entry() -> None:
    full = (DATA / "urlset-basic.xml").read_bytes()
    cut = full[: full.rindex(b"</url>") + len(b"</url")]
    entries, messages, _ = read_all(cut)
    assert len(entries) == 3
    assert has(messages, "ends inside", "dropped")


def test_truncated_inside_loc_never_yields_partial_url() -> None:
    full = (DATA / "urlset-basic.xml").read_bytes()
    cut = full[: full.index(b"http://HOST/page-1/") + len(b"http://HOST/pa")]
    entries, messages, _ = read_all(cut)
    assert [e.loc for e in entries] == [
        "http://HOST/",
        "http://HOST/tools/",
        "http://HOST/contribution-to-oss/",
    ]
    assert has(messages, "dropped")


def test_truncated_gzip_keeps_complete_entries(tmp_path: Path) -> None:
    import gzip

    data = gzip.compress(urlset("".join(CORE.replace("/a", f"/{i}") for i in range(2000))))
    entries, messages, _ = read_all(data[: len(data) // 2])
    assert 0 < len(entries) < 2000
    assert [e.loc for e in entries] == [f"https://e.com/{i}" for i in range(len(entries))]
    assert has(messages, "gzip", "truncated")


def test_unescaped_lt_recovers_with_warning() -> None:
    entries, messages, _ = read_all(DATA / "urlset-unescaped-lt.xml")
    assert len(entries) == 1
    assert entries[0].loc == "http://example.com&><'\"/"
    assert entries[0].lastmod == dt.datetime(2011, 6, 27, tzinfo=UTC)
    assert entries[0].changefreq == "always"
    assert has(messages, "recovered", "line 6")


def test_two_root_elements_keep_first_root() -> None:
    entries, messages, fmt = read_all(DATA / "urlset-then-index-two-roots.xml")
    assert fmt == "xml"
    assert [e.loc for e in entries] == [
        "http://www.example.com/",
        "http://www.example.com/catalog?item=12&desc=vacation_hawaii",
        "http://www.example.com/catalog?item=73&desc=vacation_new_zealand",
        "http://www.example.com/catalog?item=74&desc=vacation_newfoundland",
        "http://www.example.com/catalog?item=83&desc=vacation_usa",
    ]
    assert entries[0].priority == 0.8
    assert entries[3].lastmod == dt.datetime(2004, 12, 23, 18, 0, 15, tzinfo=UTC)
    assert has(messages, "after the end of the root", "line 28")


def test_unknown_element_is_ignored() -> None:
    raw = (DATA / "urlset-unknown-tag.xml").read_bytes()
    entries, messages, _ = read_all(DATA / "urlset-unknown-tag.xml")
    assert len(entries) == raw.count(b"<url>") == 7
    assert not any("foo" in m for m in messages)
    doc = urlset(
        "<url><loc>https://e.com/</loc><expires>2030-01-01</expires>"
        '<custom xmlns="urn:x"><loc>https://not.this/</loc></custom></url>'
    )
    [entry], messages, _ = read_all(doc)
    assert entry.loc == "https://e.com/"
    assert messages == []


def test_overlong_loc_is_kept_with_warning() -> None:
    long_url = "https://e.com/" + "a" * 2100
    [entry], messages, _ = read_all(urlset(f"<url><loc>{long_url}</loc></url>"))
    assert entry.loc == long_url
    assert has(messages, "2,114 characters")


def test_root_beyond_the_head_still_reads() -> None:
    """A prolog longer than the head hides the root namespace: items are matched anywhere."""
    comment = "<!-- " + "x" * 70_000 + " -->\n"
    [entry], _, _ = read_all(urlset(CORE, head=comment), format="xml")
    assert (entry.loc, entry.lastmod) == ("https://e.com/a", dt.date(2024, 1, 2))


def test_not_xml_forced_as_xml_is_parse_error() -> None:
    with pytest.raises(ParseError, match="<bytes>"):
        read_all(b"just some words", format="xml")
    with pytest.raises(ParseError, match="<bytes>"):
        read_all(b"", format="xml")


def test_forced_reader_on_index_is_refused() -> None:
    # Issue #16: -f xml on an index fails like -f rss on a sitemap, not an empty success.
    with pytest.raises(FormatError, match=r"not an xml document \(root element <sitemapindex>\)"):
        read_all(
            f'<sitemapindex xmlns="{NS}"><sitemap><loc>https://e.com/s.xml</loc></sitemap>'
            "</sitemapindex>".encode(),
            format="xml",
        )


# --- streaming and memory --------------------------------------------------------------------


def test_entries_come_out_while_input_is_read() -> None:
    body = "".join(f"<url><loc>https://e.com/{i}</loc></url>\n" for i in range(40_000))
    data = urlset(body)
    stream = io.BytesIO(data)
    doc = sitemapconv.read(stream)
    first = next(iter(doc))
    assert first.loc == "https://e.com/0"
    assert stream.tell() < len(data) // 2
    doc.close()


def _write_urlset(path: Path, count: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n')
        for i in range(count):
            out.write(f"<url><loc>https://www.example.com/page/{i}</loc></url>\n")
        out.write("</urlset>\n")


def _rss_bytes() -> int | None:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return None


def _measure(path: Path) -> tuple[int, int, int | None]:
    """Entries read, tracemalloc peak, and the largest RSS growth seen while reading."""
    start_rss = _rss_bytes()
    growth: int | None = 0 if start_rss is not None else None
    tracemalloc.start()
    count = 0
    try:
        for _ in sitemapconv.read(path):
            count += 1
            if growth is not None and count % 2000 == 0:
                growth = max(growth, (_rss_bytes() or 0) - (start_rss or 0))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count, peak, growth


@pytest.mark.slow
def test_memory_does_not_grow_with_number_of_urls(tmp_path: Path) -> None:
    small, large = tmp_path / "small.xml", tmp_path / "large.xml"
    _write_urlset(small, 10_000)
    _write_urlset(large, 100_000)
    count_small, peak_small, rss_small = _measure(small)
    count_large, peak_large, rss_large = _measure(large)
    assert (count_small, count_large) == (10_000, 100_000)
    mib = 1024 * 1024
    assert peak_large <= peak_small + 2 * mib, (peak_small, peak_large)
    if rss_small is not None and rss_large is not None:
        # libxml2's tree lives outside tracemalloc's view; without clearing, 100,000 URLs
        # would hold well over 50 MiB of nodes.
        assert rss_large <= rss_small + 16 * mib, (rss_small, rss_large)


# --- extensions ------------------------------------------------------------------------------


def test_image_extension_field_by_field() -> None:
    [entry], messages, _ = read_all(DATA / "image-sitemap.xml")
    assert entry.loc == "http://www.example.com/images/some_image_landing_page.html"
    assert entry.images == [
        Image(loc="http://example.com/image.jpg"),
        Image(
            loc="http://example.com/photo.jpg",
            caption="This is the caption.",
            title="Example photo shot in Limerick, Ireland",
            geo_location="Limerick, Ireland",
            license="https://creativecommons.org/licenses/by/4.0/legalcode",
        ),
    ]
    assert (entry.videos, entry.news, entry.alternates, entry.mobile) == ((), None, (), False)
    assert messages == []


def test_video_extension_full_tag_set() -> None:
    entries, messages, _ = read_all(DATA / "video-sitemap.xml")
    assert len(entries) == 3
    [video] = entries[0].videos
    assert video.thumbnail_loc == "http://www.example.com/thumbs/123.jpg"
    assert video.title == "Grilling steaks for summer"
    assert (
        video.description == "Alkis shows you how to get perfectly done steaks every\n        time"
    )
    assert video.content_loc == "http://www.example.com/video123.flv"
    assert video.player_loc == "http://www.example.com/videoplayer.swf?video=123"
    assert video.player_allow_embed == "yes"
    assert video.player_autoplay == "ap=1"
    assert video.duration == 600
    assert video.expiration_date == dt.datetime(2009, 11, 5, 19, 20, 30, tzinfo=tz(8))
    assert video.rating == 4.2
    assert video.view_count == 12345
    assert video.publication_date == dt.datetime(2007, 11, 5, 19, 20, 30, tzinfo=tz(8))
    assert video.tags == ["sample_tag1", "sample_tag2"]
    assert video.family_friendly is True
    assert video.restriction == "IE GB US CA"
    assert video.restriction_relationship == "allow"
    assert video.gallery_loc == "http://cooking.example.com"
    assert video.gallery_title == "Cooking Videos"
    assert video.prices == [VideoPrice(value="1.99", currency="EUR")]
    assert video.requires_subscription is True
    assert video.uploader == "GrillyMcGrillerson"
    assert video.uploader_info == "http://www.example.com/users/grillymcgrillerson"
    assert video.live is False
    assert (video.tvshow, video.platform, video.ids, video.content_segment_locs) == (
        None,
        None,
        (),
        (),
    )
    assert entries[1].videos[0].prices == [VideoPrice(value="1,99", currency="EUR")]
    assert entries[2].videos[0].prices == [VideoPrice(value="", type="rent")]
    assert has(messages, "some_video_landing_page-3.html", "video:price")


def test_video_tvshow_segments_ids_platform_and_bad_values() -> None:
    video_ns = "http://www.google.com/schemas/sitemap-video/1.1"
    doc = urlset(
        f'<url xmlns:v="{video_ns}"><loc>https://e.com/v</loc><v:video>'
        "<v:thumbnail_loc>https://e.com/t.jpg</v:thumbnail_loc><v:title>T</v:title>"
        "<v:description>D</v:description><v:player_loc>https://e.com/p</v:player_loc>"
        '<v:content_segment_loc duration="30">https://e.com/s1</v:content_segment_loc>'
        "<v:content_segment_loc>https://e.com/s2</v:content_segment_loc>"
        "<v:duration>long</v:duration><v:rating>4,5</v:rating><v:view_count>x</v:view_count>"
        "<v:family_friendly>Maybe</v:family_friendly><v:live>YES</v:live>"
        '<v:platform relationship="deny">tv mobile</v:platform>'
        '<v:price currency="USD" type="purchase" resolution="SD">4.99</v:price>'
        '<v:price currency="USD" type="rent" resolution="HD">2.99</v:price>'
        "<v:tvshow><v:show_title>Show</v:show_title><v:video_type>full</v:video_type>"
        "<v:episode_title>Pilot</v:episode_title><v:season_number>1</v:season_number>"
        "<v:episode_number>2</v:episode_number><v:premier_date>2020-02-03</v:premier_date>"
        "</v:tvshow>"
        '<v:id type="tms:series">SH1</v:id><v:id type="url">https://e.com/id</v:id>'
        "<v:category>Cooking</v:category>"
        "</v:video></url>"
    )
    [entry], messages, _ = read_all(doc)
    [video] = entry.videos
    assert video.content_segment_locs == [("https://e.com/s1", 30), ("https://e.com/s2", None)]
    assert (video.duration, video.view_count, video.family_friendly) == (None, None, None)
    assert video.rating == 4.5
    assert video.live is True
    assert (video.platform, video.platform_relationship) == ("tv mobile", "deny")
    assert video.prices == [
        VideoPrice("4.99", "USD", "purchase", "SD"),
        VideoPrice("2.99", "USD", "rent", "HD"),
    ]
    assert video.tvshow is not None
    assert video.tvshow.show_title == "Show"
    assert video.tvshow.video_type == "full"
    assert video.tvshow.episode_title == "Pilot"
    assert (video.tvshow.season_number, video.tvshow.episode_number) == (1, 2)
    assert video.tvshow.premier_date == dt.date(2020, 2, 3)
    assert video.ids == [VideoId("SH1", "tms:series"), VideoId("https://e.com/id", "url")]
    assert video.category == "Cooking"
    assert has(messages, "video:duration", "'long'")
    assert has(messages, "video:view_count", "'x'")
    assert has(messages, "video:family_friendly", "'Maybe'")
    assert len(messages) == 3


def test_news_extension_field_by_field() -> None:
    entries, messages, _ = read_all(DATA / "news-sitemap.xml")
    assert [e.loc for e in entries] == [
        "http://www.example.org/business/article55.html",
        "http://www.example.org/empty_news_name.html",
    ]
    assert entries[0].news == News(
        publication_name="The Example Times",
        publication_language="en",
        publication_date=dt.date(2008, 12, 23),
        title="Companies A, B in Merger Talks",
        access="Subscription",
        genres="PressRelease, Blog",
        keywords="business, merger, acquisition, A, B",
        stock_tickers="NASDAQ:A, NASDAQ:B",
    )
    assert entries[1].news == News(
        publication_name=None,
        publication_language="en",
        publication_date=dt.date(2025, 5, 27),
        title="Test empty news attributes",
    )
    assert messages == []


def test_news_real_hebdenbridgetimes() -> None:
    raw = (DATA / "news-sitemap-real-hebdenbridgetimes.xml").read_bytes()
    entries, messages, _ = read_all(DATA / "news-sitemap-real-hebdenbridgetimes.xml")
    assert len(entries) == raw.count(b"<url>")
    assert len(entries) > 50
    assert all(e.mobile for e in entries)
    first = entries[0]
    assert first.loc == (
        "http://www.hebdenbridgetimes.co.uk/news/local/"
        "video-tour-de-yorkshire-in-calderdale-1-7242580"
    )
    assert first.lastmod == dt.datetime(2015, 5, 3, 18, 51, 50, tzinfo=tz(1))
    assert first.changefreq == "daily"
    assert first.images[0].caption == "Tour De Yorkshire passes through Nutclough, Hebden Bridge"
    [video] = first.videos
    assert video.player_loc is not None
    assert "&playerKey=AQ~~,AAAAAH7YAAk~," in video.player_loc
    assert video.description is not None
    assert video.description.startswith("<!--PSTYLE=WINT Web Intro--><p>Thousands")
    assert video.tags == ["Carousels", "Local"]
    assert sum(len(e.images) for e in entries) == raw.count(b"<image:image>")
    assert messages == []


def test_news_real_shinpaideshou() -> None:
    entries, messages, _ = read_all(DATA / "news-sitemap-real-shinpaideshou.xml")
    assert len(entries) == 3
    assert all(e.news is not None for e in entries)
    news = entries[0].news
    assert news == News(
        publication_name="What can I do with a B.A. in Japanese Studies?",
        publication_language="en",
        publication_date=dt.datetime(2017, 4, 25, 10, 0, 36, tzinfo=UTC),
        title="Job Opening: Reischauer Policy Research Fellow",
        keywords="political science, policy, research fellow, Johns Hopkins",
    )
    assert messages == []


HREFLANG_SET = [
    Alternate(href="http://www.example.com/deutsch/", hreflang="de"),
    Alternate(href="http://www.example.com/schweiz-deutsch/", hreflang="de-ch"),
    Alternate(href="http://www.example.com/english/", hreflang="en"),
]


def test_hreflang_xhtml_links() -> None:
    entries, messages, _ = read_all(DATA / "hreflang-xhtml-links.xml")
    assert [e.loc for e in entries] == [
        "http://www.example.com/english/",
        "http://www.example.com/deutsch/",
        "http://www.example.com/schweiz-deutsch/",
    ]
    for entry in entries:
        assert entry.alternates == HREFLANG_SET
    assert messages == []


def test_hreflang_trafilatura_ignores_sitemap_element_in_urlset() -> None:
    entries, _, _ = read_all(DATA / "hreflang-trafilatura.xml")
    assert len(entries) == 3
    assert [a.hreflang for a in entries[2].alternates] == ["de", "de-ch", "en"]
    assert entries[2].alternates[1].href == "http://www.example.com/schweiz-deutsch/page.html"
    assert not any("sitemap2" in e.loc for e in entries)


def test_hreflang_missing_href_is_skipped_with_warning() -> None:
    [entry], messages, _ = read_all(DATA / "hreflang-missing-href.xml")
    assert entry.alternates == HREFLANG_SET
    assert has(messages, "http://www.example.com/english/", "without href", "line 12")


def test_image_without_loc_is_skipped_with_warning() -> None:
    image_ns = "http://www.google.com/schemas/sitemap-image/1.1"
    doc = urlset(
        f'<url xmlns:image="{image_ns}"><loc>https://e.com/</loc>'
        "<image:image><image:caption>No loc</image:caption></image:image>"
        "<image:image><image:loc> https://e.com/i.png </image:loc></image:image></url>"
    )
    [entry], messages, _ = read_all(doc)
    assert entry.images == [Image(loc="https://e.com/i.png")]
    assert has(messages, "image:loc", "skipped")


def test_alltags_escaped_values_are_decoded() -> None:
    raw = (DATA / "alltags-escaped.xml").read_bytes()
    entries, messages, _ = read_all(DATA / "alltags-escaped.xml")
    assert len(entries) == raw.count(b"<url>") == 7
    special = "&><'\""
    first = entries[0]
    assert (
        first.loc == "https://roosterteeth.com/episode/rouletsplay-2018-goldeneye-source&%3E%3C'%22"
    )
    [v] = first.videos
    assert v.title == "2018:E6 - GoldenEye: Source" + special
    assert v.player_autoplay == "ap=1" + special
    assert v.player_allow_embed == "yes"
    assert v.requires_subscription is True
    assert v.tags == ["fruit" + special, "flies" + special]
    assert v.ids == [VideoId("http://example.com/url" + special, "url")]
    [v2] = entries[1].videos
    assert v2.gallery_title == "awhu series page" + special
    assert v2.gallery_loc == "https://roosterteeth.com/series/awhu" + special
    assert (v2.restriction, v2.restriction_relationship) == ("IE GB US CA", "deny")
    assert v2.prices == [VideoPrice("1.99", "USD", "rent", "HD")]
    assert v2.uploader == "GrillyMcGrillerson" + special
    assert (v2.platform, v2.platform_relationship, v2.live) == ("tv", "allow", False)
    assert (v2.rating, v2.view_count, v2.family_friendly) == (2.5, 1000, False)
    assert v2.expiration_date == dt.datetime(2012, 7, 16, 19, 20, 30, tzinfo=tz(8))
    third = entries[2]
    assert third.videos[0].content_loc == "http://streamserver.example.com/video123.mp4"
    assert third.alternates == [
        Alternate(href="http://test.com/page-1/&%3E%3C'%22", hreflang="en"),
        Alternate(href="http://test.com/page-1/ja/&%3E%3C'%22", hreflang="ja"),
        Alternate(href="android-app://com.company.test/page-1/" + special),
        Alternate(href="http://ampproject.org/article.amp.html" + special, rel="amphtml"),
    ]
    news = entries[3].news
    assert news is not None
    assert news.publication_name == "The Example Times" + special
    assert news.title == "Companies A, B in Merger Talks" + special
    assert news.access == "Registration"
    assert news.keywords == "business, merger, acquisition, A, B" + special
    assert entries[4].images[0] == Image(
        loc="http://test.com/img1.jpg&%3E%3C'%22",
        caption="An image" + special,
        title="The Title of Image One" + special,
        geo_location="London, United Kingdom" + special,
        license="https://creativecommons.org/licenses/by/4.0/" + special,
    )
    assert entries[5].loc == "http://example.com/1&%3E%3C'%22"
    assert entries[6].loc == "http://example.com/&><'\"/"
    assert entries[6].images == [Image(loc="http://urltest.com/&><'\"/")]
    assert messages == []


def test_mobile_and_https_extension_namespace() -> None:
    doc = urlset(
        '<url xmlns:m="http://www.google.com/schemas/sitemap-mobile/1.0" '
        'xmlns:i="https://www.google.com/schemas/sitemap-image/1.1">'
        "<loc>https://e.com/</loc><m:mobile/><i:image><i:loc>https://e.com/i</i:loc></i:image>"
        "</url><url><loc>https://e.com/plain</loc></url>"
    )
    entries, _, _ = read_all(doc)
    assert entries[0].mobile is True
    assert entries[0].images == [Image(loc="https://e.com/i")]
    assert entries[1].mobile is False
    assert entries[1].images == ()


def test_second_news_is_dropped_with_warning() -> None:
    news_ns = "http://www.google.com/schemas/sitemap-news/0.9"
    doc = urlset(
        f'<url xmlns:n="{news_ns}"><loc>https://e.com/</loc>'
        "<n:news><n:title>One</n:title><n:publication_date>bad</n:publication_date></n:news>"
        "<n:news><n:title>Two</n:title></n:news></url>"
    )
    [entry], messages, _ = read_all(doc)
    assert entry.news == News(title="One")
    assert has(messages, "news:publication_date", "'bad'")
    assert has(messages, "more than one")


# --- the sample ------------------------------------------------------------------------------


def test_sample_sitemap_field_by_field() -> None:
    entries, messages, fmt = read_all(SAMPLES / "sitemap.xml")
    assert fmt == "xml"
    assert messages == []
    assert [(e.loc, e.lastmod, e.changefreq, e.priority) for e in entries] == [
        ("https://www.example.com/", dt.date(2024, 5, 1), "daily", 1.0),
        (
            "https://www.example.com/about/",
            dt.datetime(2024, 3, 12, 9, 30, tzinfo=UTC),
            "monthly",
            0.5,
        ),
        (
            "https://www.example.com/products/garden-chair",
            dt.datetime(2024, 4, 28, 16, 5, 12, tzinfo=tz(2)),
            "weekly",
            0.8,
        ),
        (
            "https://www.example.com/products?category=tables&sort=price",
            dt.date(2024, 4, 30),
            "daily",
            0.6,
        ),
        ("https://www.example.com/en/contact", dt.date(2023, 11, 2), "yearly", 0.3),
        ("https://www.example.com/de/kontakt", dt.date(2023, 11, 2), "yearly", 0.3),
    ]
    assert entries[2].images == [
        Image(
            loc="https://cdn.example.com/img/garden-chair.jpg",
            caption="The garden chair in oiled teak",
        )
    ]
    pair = [
        Alternate(href="https://www.example.com/en/contact", hreflang="en"),
        Alternate(href="https://www.example.com/de/kontakt", hreflang="de"),
    ]
    assert entries[4].alternates == pair
    assert entries[5].alternates == pair
    assert all(not e.images for i, e in enumerate(entries) if i != 2)
    assert all(not e.alternates for e in entries[:4])


# --- the hot path's shortcuts give what the plain constructions give --------------------------


def test_entry_factory_matches_the_dataclass() -> None:
    from sitemapconv.readers._sitemap_stream import new_entry

    made = new_entry("https://e.com/", dt.date(2024, 1, 2), "daily", 0.5, "s.xml")
    assert made == Entry("https://e.com/", dt.date(2024, 1, 2), "daily", 0.5, sitemap="s.xml")
    assert new_entry("https://e.com/", None, None, None, None) == Entry("https://e.com/")


@pytest.mark.parametrize(
    "text",
    [
        "2024-05-01T10:00:00+02:00",
        "2024-05-01T10:00:00-00:00",
        "2024-05-01T10:00:00-05:30",
        "2024-05-01T10:00:00+0200",
        "2024-05-01T25:00:00+02:00",
        "2024-05-01t10:00:00+02:00",
        "2024-05-01 10:00:00+02:00",
        "2024-05-01T10:00:00.5+02:00",
        " 2024-05-01T10:00:00+02:00",
        "2024-05-01T10:00:00+02:00 ",
        "2024-05-01T10:00:00Z",
        "2024-05-01",
        "2024-02-30",
    ],
)
def test_lastmod_fast_path_agrees_with_parse_w3c(text: str) -> None:
    from sitemapconv._dates import parse_w3c

    [entry], _, _ = read_all(
        urlset(f"<url><loc>https://e.com/</loc><lastmod>{text}</lastmod></url>")
    )
    expected = parse_w3c(text)
    assert entry.lastmod == expected
    assert type(entry.lastmod) is type(expected)
    if isinstance(expected, dt.datetime):
        assert entry.lastmod.utcoffset() == expected.utcoffset()  # type: ignore[union-attr]


def test_repeated_lastmod_values_are_each_parsed_right() -> None:
    """More distinct values than the reader remembers, mixed with repeated ones."""
    start = dt.datetime(2020, 1, 1, tzinfo=UTC)
    unique = [(start + dt.timedelta(minutes=i)).isoformat() for i in range(6000)]
    values = ["2024-01-02", "2024-01-02T03:04:05+01:00", "bad", "2024-01-03"] * 3000
    values = [v for pair in zip(values, unique, strict=False) for v in pair] + values[6000:]
    body = "".join(
        f"<url><loc>https://e.com/{i}</loc><lastmod>{v}</lastmod></url>"
        for i, v in enumerate(values)
    )
    entries, messages, _ = read_all(urlset(body))
    expected: dict[str, object] = {
        **{u: dt.datetime.fromisoformat(u) for u in unique},
        "2024-01-02": dt.date(2024, 1, 2),
        "2024-01-02T03:04:05+01:00": dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=tz(1)),
        "bad": None,
        "2024-01-03": dt.date(2024, 1, 3),
    }
    assert [e.lastmod for e in entries] == [expected[v] for v in values]
    assert len(messages) == 3000


def test_the_inlined_lastmod_fast_path_agrees_with_parse_w3c() -> None:
    """The urlset reader inlines parse_w3c's first fast path; both must give the same value."""
    from sitemapconv._dates import parse_w3c

    texts = [
        "2024-05-01T10:00:00+02:00",
        "2024-05-01T10:00:00-05:30",
        "2024-05-01T10:00:00-00:00",  # offset unknown: naive
        "2024-05-01T10:00:00+00:00",
        "2024-13-01T10:00:00+02:00",  # 25 characters, not a date
        "2024-05-01t10:00:00+02:00",
        "2024-05-01T10:00:00Z",
        "2024-05-01",
    ]
    body = "".join(
        f"<url><loc>https://example.com/{n}</loc><lastmod>{text}</lastmod></url>"
        for n, text in enumerate(texts)
    )
    xml = (
        '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{body}</urlset>"
    ).encode()
    read = [e.lastmod for e in sitemapconv.read(xml, on_warning=lambda _: None)]
    assert read == [parse_w3c(text) for text in texts]
    assert read[2] is not None and read[2].tzinfo is None  # type: ignore[union-attr]
