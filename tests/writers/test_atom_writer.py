"""Atom 1.0 writer: RELAX NG (RFC 4287 Appendix B) validity, RFC 4287 rules, mapping, streaming."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import feedparser
import pytest

import sitemapconv
from sitemapconv._model import Alternate, Entry, FeedMeta, Image, Video
from sitemapconv._registry import get_writer, writer_for_filename
from sitemapconv.writers._atom import AtomWriter

from .feed_writer_support import MEDIA, atom_schema, parse, peak_memory, render, rich_entry

A = "{http://www.w3.org/2005/Atom}"
ATOM = "http://www.w3.org/2005/Atom"
UTC = dt.timezone.utc
EPOCH = "1700000000"  # 2023-11-14T22:13:20Z
EPOCH_RFC3339 = "2023-11-14T22:13:20Z"


def _valid(data: bytes) -> Any:
    """Parse, validate against the RELAX NG schema and check RFC 4287's other MUSTs."""
    root = parse(data)
    schema = atom_schema()
    assert schema.validate(root), schema.error_log
    # Rules the schema holds as Schematron (not enforced by lxml) or cannot express.
    entries = root.findall(f"{A}entry")
    assert root.find(f"{A}author/{A}name") is not None or all(
        e.find(f"{A}author") is not None for e in entries
    )
    for element in (root, *entries):
        for tag in ("id", "title", "updated"):
            assert len(element.findall(f"{A}{tag}")) == 1, tag
        alternates = [
            (link.get("type"), link.get("hreflang"))
            for link in element.findall(f"{A}link")
            if link.get("rel", "alternate") == "alternate"
        ]
        assert len(alternates) == len(set(alternates)), "two alternates share type+hreflang"
    for entry in entries:
        if entry.find(f"{A}content") is None:
            assert any(
                link.get("rel", "alternate") == "alternate" for link in entry.findall(f"{A}link")
            )
    return root


def _entries(data: bytes) -> list[Any]:
    return list(parse(data).iter(f"{A}entry"))


def test_registered_under_its_names() -> None:
    assert get_writer("atom") is AtomWriter
    assert get_writer("atom10") is AtomWriter
    assert writer_for_filename("feed.atom.gz") == "atom"


def test_rich_output_validates_against_the_rfc4287_schema() -> None:
    entries = [
        rich_entry(1),
        Entry(
            "https://www.example.com/en/",
            title="Home",
            summary="Welcome",
            lastmod=dt.datetime(2024, 5, 1, 8, 0, 0, 250000, tzinfo=UTC),
            published=dt.date(2020, 1, 1),
            alternates=[
                Alternate("https://www.example.com/en/", hreflang="en"),
                Alternate("https://www.example.com/de/", hreflang="de"),
                Alternate("https://www.example.com/", hreflang="x-default"),
            ],
        ),
        Entry("https://www.example.com/naive", lastmod=dt.datetime(2024, 5, 1, 8, 0)),
    ]
    meta = FeedMeta(
        title="Site", description="All pages", language="en-GB", self_link="https://e.x/f.atom"
    )
    data, _ = render("atom", entries, meta=meta)
    root = _valid(data)
    assert root.tag == f"{A}feed"
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "en-GB"
    assert root.findtext(f"{A}subtitle") == "All pages"


def test_the_schema_check_is_real() -> None:
    data, _ = render("atom", [Entry("https://www.example.com/")])
    broken = data.replace(b"<id>https://www.example.com/</id>\n  <title>", b"<title>", 1)
    assert broken != data
    assert not atom_schema().validate(parse(broken))


def test_minimal_and_empty_feeds_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    _valid(render("atom", [Entry("https://www.example.com/")])[0])
    root = _valid(render("atom", [])[0])
    assert root.findtext(f"{A}id") == "urn:sitemapconv:feed"
    assert root.findtext(f"{A}title") == "sitemapconv"
    assert root.findtext(f"{A}updated") == EPOCH_RFC3339


def test_feedparser_reads_it_as_atom10() -> None:
    data, _ = render("atom", [rich_entry(1), rich_entry(2)])
    parsed = feedparser.parse(data)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert [e.link for e in parsed.entries] == [rich_entry(1).loc, rich_entry(2).loc]
    assert parsed.entries[0].updated_parsed[:6] == (2024, 3, 2, 9, 0, 0)


def test_feed_head_defaults_from_the_first_url() -> None:
    data, _ = render("atom", [Entry("https://blog.example.net/post/1"), Entry("https://x.y/")])
    root = parse(data)
    assert root.findtext(f"{A}id") == "https://blog.example.net/"
    assert root.findtext(f"{A}title") == "blog.example.net"
    assert root.findtext(f"{A}author/{A}name") == "sitemapconv"
    assert root.find(f"{A}subtitle") is None
    links = [(link.get("rel"), link.get("href")) for link in root.findall(f"{A}link")]
    assert links == [("alternate", "https://blog.example.net/")]


def test_options_fill_in_before_defaults() -> None:
    data, _ = render(
        "atom",
        [Entry("https://www.example.com/x")],
        title="Opt",
        link="https://opt.example/",
        author="Opt Author",
        feed_id="tag:opt.example,2024:feed",
        self_link="https://opt.example/feed.atom",
        description="Opt description",
    )
    root = _valid(data)
    assert root.findtext(f"{A}id") == "tag:opt.example,2024:feed"
    assert root.findtext(f"{A}title") == "Opt"
    assert root.findtext(f"{A}subtitle") == "Opt description"
    assert root.findtext(f"{A}author/{A}name") == "Opt Author"
    links = [(x.get("rel"), x.get("type"), x.get("href")) for x in root.findall(f"{A}link")]
    assert links == [
        ("self", "application/atom+xml", "https://opt.example/feed.atom"),
        ("alternate", None, "https://opt.example/"),
    ]


def test_meta_wins_over_options() -> None:
    meta = FeedMeta(
        title="Meta",
        link="https://meta.example/",
        id="urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6",
        author="Meta Author",
        self_link="https://meta.example/f",
    )
    data, _ = render(
        "atom",
        [Entry("https://www.example.com/x")],
        meta=meta,
        title="Opt",
        link="https://opt.example/",
        author="Opt Author",
        feed_id="tag:opt.example,2024:feed",
        self_link="https://opt.example/f",
    )
    root = _valid(data)
    assert root.findtext(f"{A}id") == meta.id
    assert root.findtext(f"{A}title") == "Meta"
    assert root.findtext(f"{A}author/{A}name") == "Meta Author"
    hrefs = [x.get("href") for x in root.findall(f"{A}link")]
    assert hrefs == ["https://meta.example/f", "https://meta.example/"]


def test_feed_id_falls_back_to_the_given_site_link() -> None:
    data, _ = render("atom", [Entry("https://www.example.com/x")], link="https://site.example/")
    assert parse(data).findtext(f"{A}id") == "https://site.example/"


@pytest.mark.parametrize(
    ("when", "expected"),
    [
        (dt.datetime(2024, 5, 1, 12, 0, 1, tzinfo=UTC), "2024-05-01T12:00:01Z"),
        (
            dt.datetime(2024, 5, 1, 12, 0, 1, tzinfo=dt.timezone(dt.timedelta(hours=2))),
            "2024-05-01T12:00:01+02:00",
        ),
        (dt.datetime(2024, 5, 1, 12, 0, 1, 500000, tzinfo=UTC), "2024-05-01T12:00:01.500000Z"),
        (dt.datetime(2024, 5, 1, 12, 0, 1), "2024-05-01T12:00:01-00:00"),
        (dt.date(2024, 5, 1), "2024-05-01T00:00:00-00:00"),
    ],
)
def test_entry_updated_is_rfc3339(when: dt.date, expected: str) -> None:
    data, _ = render("atom", [Entry("https://www.example.com/", lastmod=when, published=when)])
    root = _valid(data)
    entry = root.find(f"{A}entry")
    assert entry.findtext(f"{A}updated") == expected
    assert entry.findtext(f"{A}published") == expected
    assert root.findtext(f"{A}updated") == expected


def test_entry_updated_falls_back_to_published_then_build_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    entries = [
        Entry("https://www.example.com/a", published=dt.datetime(2022, 2, 2, tzinfo=UTC)),
        Entry("https://www.example.com/b"),
    ]
    root = _valid(render("atom", entries)[0])
    first, second = root.findall(f"{A}entry")
    assert first.findtext(f"{A}updated") == "2022-02-02T00:00:00Z"
    assert first.findtext(f"{A}published") == "2022-02-02T00:00:00Z"
    assert second.findtext(f"{A}updated") == EPOCH_RFC3339
    assert second.find(f"{A}published") is None
    assert root.findtext(f"{A}updated") == EPOCH_RFC3339  # the newest updated written


def test_feed_updated_is_the_newest_date_across_zones() -> None:
    entries = [
        Entry("https://www.example.com/a", lastmod=dt.datetime(2024, 1, 1, 6, 0, tzinfo=UTC)),
        Entry(  # 05:00Z, earlier despite the larger wall-clock time
            "https://www.example.com/b",
            lastmod=dt.datetime(2024, 1, 1, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=5))),
        ),
        Entry("https://www.example.com/c", lastmod=dt.date(2023, 12, 31)),
    ]
    root = _valid(render("atom", entries)[0])
    assert root.findtext(f"{A}updated") == "2024-01-01T06:00:00Z"
    newer_meta = FeedMeta(updated=dt.datetime(2024, 6, 1, tzinfo=UTC))
    root = _valid(render("atom", entries, meta=newer_meta)[0])
    assert root.findtext(f"{A}updated") == "2024-06-01T00:00:00Z"
    older_meta = FeedMeta(updated=dt.datetime(2020, 6, 1, tzinfo=UTC))
    root = _valid(render("atom", entries, meta=older_meta)[0])
    assert root.findtext(f"{A}updated") == "2024-01-01T06:00:00Z"


def test_entry_id_rules() -> None:
    entries = [
        Entry("https://www.example.com/a"),
        Entry("https://www.example.com/b", id="tag:example.com,2024:b"),
        Entry("https://www.example.com/c?x=1&y=2", id="12345"),
    ]
    data, warnings = render("atom", entries)
    ids = [e.findtext(f"{A}id") for e in _valid(data).findall(f"{A}entry")]
    assert ids == [
        "https://www.example.com/a",
        "tag:example.com,2024:b",
        "https://www.example.com/c?x=1&y=2",
    ]
    assert len(warnings) == 1 and "id (not an absolute IRI" in warnings[0]


def test_hreflang_alternates_become_links() -> None:
    entry = Entry(
        "https://www.example.com/en/page",
        alternates=[
            Alternate("https://www.example.com/en/page"),  # itself without hreflang: skipped
            Alternate("https://www.example.com/en/page", hreflang="en"),
            Alternate("https://www.example.com/de/seite", hreflang="de-CH"),
            Alternate("https://www.example.com/", hreflang="x-default"),
        ],
    )
    data, warnings = render("atom", [entry])
    links = [
        (x.get("rel"), x.get("hreflang"), x.get("href"))
        for x in _valid(data).find(f"{A}entry").findall(f"{A}link")
    ]
    assert links == [
        ("alternate", None, "https://www.example.com/en/page"),  # the page itself comes first
        ("alternate", "en", "https://www.example.com/en/page"),
        ("alternate", "de-CH", "https://www.example.com/de/seite"),
        ("alternate", "x-default", "https://www.example.com/"),
    ]
    assert warnings == []
    # Feed readers must take the FIRST alternate as the page: feedparser keeps the document
    # order in ``links`` (its ``entry.link`` is the last text/html alternate instead).
    parsed = feedparser.parse(data).entries[0]
    assert parsed.links[0].href == "https://www.example.com/en/page"
    assert "hreflang" not in parsed.links[0]


def test_alternates_atom_cannot_carry_are_dropped_and_reported() -> None:
    entry = Entry(
        "https://www.example.com/en/page",
        alternates=[
            Alternate("https://m.example.com/en/page"),  # no hreflang, not the page
            Alternate("https://www.example.com/fr/", hreflang="fr"),
            Alternate("https://www.example.com/fr2/", hreflang="FR"),  # duplicate language
            Alternate("https://www.example.com/xx/", hreflang="English (UK)"),  # malformed
            Alternate("https://www.example.com/us/", hreflang="en_US"),  # repaired to en-US
            Alternate("https://www.example.com/amp/", rel="amphtml"),
        ],
    )
    data, warnings = render("atom", [entry])
    links = _valid(data).find(f"{A}entry").findall(f"{A}link")
    assert [x.get("hreflang") for x in links] == [None, "fr", "en-US"]
    assert len(warnings) == 1
    for part in ("without hreflang", "duplicate hreflang", "malformed hreflang", "rel other"):
        assert part in warnings[0]


def test_feed_language_is_a_valid_tag_or_left_out() -> None:
    entries = [Entry("https://www.example.com/")]
    root = _valid(render("atom", entries, meta=FeedMeta(language="en_US"))[0])
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "en-US"
    data, _ = render("atom", entries, meta=FeedMeta(language="English"))
    root = _valid(data)
    assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "English"  # a valid tag
    data, _ = render("atom", entries, meta=FeedMeta(language="English (UK)"))
    assert b"xml:lang" not in data
    _valid(data)


def test_a_url_that_cannot_be_encoded_skips_its_entry_and_all_skipped_is_an_error() -> None:
    # Issue #16: the same treatment as in -t xml (warn, skip), never an aborted run...
    data, warnings = render("atom", [Entry("https://[broken/ü"), Entry("https://e.com/ok")])
    assert b"https://e.com/ok" in data and b"broken" not in data
    assert any("not a valid URL" in w for w in warnings)
    # ...and an output from which every entry was dropped is refused with the reason.
    with pytest.raises(sitemapconv.SitemapError, match=r"<stream>: nothing to write.*valid URL"):
        render("atom", [Entry("https://[broken/ü")])


def test_media_rss_inside_entries_validates() -> None:
    entry = Entry(
        "https://www.example.com/p",
        images=[Image("https://img.example.com/a.jpg", title="Img", caption="Cap")],
        videos=[
            Video(
                thumbnail_loc="https://img.example.com/t.jpg",
                title="Vid",
                description="Desc",
                player_loc="https://www.example.com/player?v=1&autoplay=0",
            )
        ],
    )
    data, warnings = render("atom", [entry])
    node = _valid(data).find(f"{A}entry")
    m = f"{{{MEDIA}}}"
    image = node.find(f"{m}content")
    assert (image.get("url"), image.get("medium")) == ("https://img.example.com/a.jpg", "image")
    assert image.findtext(f"{m}title") == "Img"
    assert image.findtext(f"{m}description") == "Cap"
    group = node.find(f"{m}group")
    url = "https://www.example.com/player?v=1&autoplay=0"
    assert group.find(f"{m}content").attrib == {"url": url, "medium": "video"}
    assert group.find(f"{m}player").get("url") == url
    assert group.find(f"{m}thumbnail").get("url") == "https://img.example.com/t.jpg"
    assert warnings == []


def test_namespaces_declared_only_when_used() -> None:
    plain, _ = render("atom", [Entry("https://www.example.com/")])
    assert parse(plain).nsmap == {None: ATOM}
    assert b"xmlns:media" not in plain
    with_media, _ = render("atom", [Entry("https://e.x/", images=[Image("https://e.x/i.png")])])
    assert parse(with_media).nsmap == {None: ATOM, "media": MEDIA}


def test_escaping_and_forbidden_characters() -> None:
    entries = [
        Entry(
            "https://www.example.com/ümlat.php&q=name",
            title="Fish & Chips <b>\"best\"</b> 'ever'\x02",
            summary="a < b\x00 & c",
        ),
        Entry("https://www.example.com/b", title="\x7f ok \x1b"),
    ]
    data, warnings = render("atom", entries, title="R&D")
    root = _valid(data)
    first, second = root.findall(f"{A}entry")
    assert first.findtext(f"{A}title") == "Fish & Chips <b>\"best\"</b> 'ever'"
    assert first.findtext(f"{A}summary") == "a < b & c"
    assert first.find(f"{A}link").get("href") == "https://www.example.com/%C3%BCmlat.php&q=name"
    assert second.findtext(f"{A}title") == "\x7f ok "
    assert root.findtext(f"{A}title") == "R&D"
    assert b"&amp;q=name" in data and b"&quot;best&quot;" in data
    assert len([w for w in warnings if "XML 1.0" in w]) == 1


def test_dropped_fields_warn_exactly_once() -> None:
    entries = [
        Entry(f"https://www.example.com/{n}", priority=0.1, changefreq="never") for n in range(30)
    ]
    data, warnings = render("atom", entries)
    assert len(_entries(data)) == 30
    assert len(warnings) == 1
    assert warnings[0].endswith(
        "atom output cannot carry these fields, dropped: changefreq, priority"
    )


def test_output_is_deterministic_utf8_with_newlines() -> None:
    entries = [rich_entry(n) for n in range(20)]
    first, _ = render("atom", entries)
    second, _ = render("atom", entries)
    assert first == second
    assert first.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns=')
    assert first.endswith(b"</entry>\n</feed>\n")
    assert b"\r" not in first


def test_writes_a_file_chosen_by_extension(tmp_path: Path) -> None:
    dest = tmp_path / "feed.atom"
    assert sitemapconv.write([Entry("https://www.example.com/")], dest) == 1
    _valid(dest.read_bytes())


@pytest.mark.slow
def test_streaming_memory_does_not_grow_with_entry_count(tmp_path: Path) -> None:
    small = peak_memory("atom", 4_000, tmp_path / "small.atom")
    large = peak_memory("atom", 40_000, tmp_path / "large.atom")
    assert large <= small + 3 * 1024 * 1024, (small, large)
    assert (tmp_path / "large.atom").read_bytes().count(b"<entry>") == 40_000
