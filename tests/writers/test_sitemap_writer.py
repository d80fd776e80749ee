"""The ``xml`` (urlset) writer: validity, escaping, encoding, dates, namespaces, files."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import os
from collections.abc import Iterator
from typing import Any

import pytest

import sitemapconv
from sitemapconv import Alternate, Entry, Image, News, SitemapError, Video
from sitemapconv._model import VideoId, VideoPrice, VideoTvShow
from sitemapconv._registry import get_writer, writer_for_filename
from sitemapconv.writers._urlset import SitemapWriter
from tests.sitemap_schemas import NS, assert_valid, parse

CEST = dt.timezone(dt.timedelta(hours=2))
UTC = dt.timezone.utc
SPECIAL = "a&b<c>d'e\"f"


def write_xml(entries: Any, **options: Any) -> tuple[bytes, list[str]]:
    warnings: list[str] = []
    out = io.BytesIO()
    sitemapconv.write(entries, out, "xml", on_warning=warnings.append, **options)
    return out.getvalue(), warnings


def full_video(**changes: Any) -> Video:
    fields: dict[str, Any] = dict(
        thumbnail_loc="https://ex.com/thumb.jpg",
        title="Grilling steaks",
        description="How to grill",
        content_loc="https://ex.com/v.mp4",
        player_loc="https://ex.com/player?v=1",
        player_allow_embed="Yes",
        player_autoplay="ap=1",
        duration=600,
        expiration_date=dt.datetime(2030, 11, 5, 19, 20, 30, tzinfo=CEST),
        rating=4.2,
        content_segment_locs=[("https://ex.com/seg1.mp4", 30), ("https://ex.com/seg2.mp4", None)],
        view_count=12345,
        publication_date=dt.date(2007, 11, 5),
        tags=["steak", "meat"],
        category="Grilling",
        family_friendly=True,
        restriction="IE GB US CA",
        restriction_relationship="allow",
        gallery_loc="https://ex.com/gallery",
        gallery_title="Cooking",
        prices=[VideoPrice("1.99", "EUR", "rent", "HD"), VideoPrice("5.99", "EUR", "purchase")],
        requires_subscription=False,
        uploader="GrillyMcGrillerson",
        uploader_info="https://ex.com/users/grilly",
        tvshow=VideoTvShow("Grill Show", "full", "Steaks", 3, 7, dt.date(2007, 1, 1)),
        platform="web tv",
        platform_relationship="allow",
        live=False,
        ids=[VideoId("https://ex.com/id/1", "url")],
    )
    fields.update(changes)
    return Video(**fields)


def full_entry() -> Entry:
    return Entry(
        "https://ex.com/page",
        lastmod=dt.date(2024, 5, 1),
        changefreq="weekly",
        priority=0.8,
        images=[
            Image(
                "https://cdn.ex.com/a.jpg",
                caption="A caption",
                title="A title",
                geo_location="Limerick, Ireland",
                license="https://ex.com/license",
            ),
            Image("https://cdn.ex.com/b.jpg"),
        ],
        videos=[full_video()],
        news=News(
            publication_name="The Example Times",
            publication_language="en",
            publication_date=dt.datetime(2024, 5, 1, 12, 0, tzinfo=UTC),
            title="Companies A, B in Merger Talks",
            access="Subscription",
            genres="PressRelease, Blog",
            keywords="business, merger",
            stock_tickers="NASDAQ:A, NASDAQ:B",
        ),
        alternates=[
            Alternate("https://ex.com/de/page", "de"),
            Alternate("https://ex.com/page", "x-default"),
            Alternate(
                "https://m.ex.com/page", None, "alternate", "only screen and (max-width: 640px)"
            ),
        ],
        mobile=True,
    )


def test_registered_under_its_names() -> None:
    for name in ("xml", "sitemap", "urlset"):
        assert get_writer(name) is SitemapWriter
    assert writer_for_filename("out/sitemap.xml.gz") == "xml"


def test_golden_output_is_exact_and_schema_valid() -> None:
    data, warnings = write_xml(
        [
            Entry("https://www.example.com/", dt.date(2005, 1, 1), "monthly", 0.8),
            Entry("https://www.example.com/about"),
        ]
    )
    assert data == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        b"  <url>\n"
        b"    <loc>https://www.example.com/</loc>\n"
        b"    <lastmod>2005-01-01</lastmod>\n"
        b"    <changefreq>monthly</changefreq>\n"
        b"    <priority>0.8</priority>\n"
        b"  </url>\n"
        b"  <url>\n"
        b"    <loc>https://www.example.com/about</loc>\n"
        b"  </url>\n"
        b"</urlset>\n"
    )
    assert warnings == []
    assert_valid(data, "sitemap")


def test_every_extension_validates_in_xsd_order() -> None:
    data, warnings = write_xml([full_entry(), Entry("https://ex.com/plain")])
    assert warnings == []
    root = assert_valid(data, "extensions")
    url = root[0]
    tags = [etree_name(child) for child in url]
    assert tags == [
        "sm:loc", "sm:lastmod", "sm:changefreq", "sm:priority",
        "image:image", "image:image", "video:video", "news:news",
        "xhtml:link", "xhtml:link", "xhtml:link", "mobile:mobile",
    ]  # fmt: skip
    video = url.find("video:video", NS)
    assert [etree_name(c).split(":")[1] for c in video] == [
        "thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration",
        "expiration_date", "rating", "content_segment_loc", "content_segment_loc",
        "view_count", "publication_date", "tag", "tag", "category", "family_friendly",
        "restriction", "gallery_loc", "price", "price", "requires_subscription", "uploader",
        "tvshow", "platform", "live", "id",
    ]  # fmt: skip
    player = video.find("video:player_loc", NS)
    assert player.attrib == {"allow_embed": "yes", "autoplay": "ap=1"}
    assert video.findtext("video:expiration_date", namespaces=NS) == "2030-11-05T19:20:30+02:00"
    assert video.findtext("video:family_friendly", namespaces=NS) == "yes"
    assert video.findtext("video:requires_subscription", namespaces=NS) == "no"
    assert video.find("video:restriction", NS).get("relationship") == "allow"
    assert video.find("video:gallery_loc", NS).get("title") == "Cooking"
    price = video.find("video:price", NS)
    assert dict(price.attrib) == {"currency": "EUR", "type": "rent", "resolution": "HD"}
    assert video.find("video:uploader", NS).get("info") == "https://ex.com/users/grilly"
    segs = video.findall("video:content_segment_loc", NS)
    assert [s.get("duration") for s in segs] == ["30", None]
    show = video.find("video:tvshow", NS)
    assert [etree_name(c) for c in show] == [
        "video:show_title", "video:video_type", "video:episode_title",
        "video:season_number", "video:episode_number", "video:premier_date",
    ]  # fmt: skip
    assert video.find("video:id", NS).get("type") == "url"
    news = url.find("news:news", NS)
    assert [etree_name(c) for c in news] == [
        "news:publication", "news:access", "news:genres", "news:publication_date",
        "news:title", "news:keywords", "news:stock_tickers",
    ]  # fmt: skip
    assert news.findtext("news:publication_date", namespaces=NS) == "2024-05-01T12:00:00+00:00"
    links = url.findall("xhtml:link", NS)
    assert [dict(link.attrib) for link in links][2] == {
        "rel": "alternate",
        "media": "only screen and (max-width: 640px)",
        "href": "https://m.ex.com/page",
    }
    assert b'<xhtml:link rel="alternate" hreflang="de" href="https://ex.com/de/page"/>' in data
    assert b"<mobile:mobile/>" in data


def etree_name(el: Any) -> str:
    uri, local = el.tag[1:].split("}")
    prefix = next(p for p, u in NS.items() if u == uri)
    return f"{prefix}:{local}"


def root_tag(data: bytes) -> bytes:
    return data.split(b"\n")[1]


def test_namespaces_declared_only_when_used_in_fixed_order() -> None:
    plain, _ = write_xml([Entry("https://ex.com/a")])
    assert root_tag(plain) == b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    images, _ = write_xml(
        [
            Entry("https://ex.com/a"),
            Entry("https://ex.com/b", images=[Image("https://ex.com/i.png")]),
        ]
    )
    assert root_tag(images) == (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        b'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">'
    )
    everything, _ = write_xml([full_entry()])
    assert root_tag(everything) == (
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
        b' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
        b' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
        b' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
        b' xmlns:xhtml="http://www.w3.org/1999/xhtml"'
        b' xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0">'
    )
    assert everything.count(b"xmlns") == 6


def test_dropped_extension_declares_no_namespace() -> None:
    entry = Entry("https://ex.com/a", videos=[full_video(content_loc=None, player_loc=None)])
    data, warnings = write_xml([entry])
    assert b"xmlns:video" not in data and b"video:" not in data
    assert len(warnings) == 1 and "content_loc or player_loc" in warnings[0]
    assert_valid(data, "sitemap")


@pytest.mark.parametrize(
    ("change", "missing"),
    [
        ({"thumbnail_loc": None}, "thumbnail_loc"),
        ({"title": ""}, "title"),
        ({"description": None}, "description"),
    ],
)
def test_video_without_required_fields_is_dropped(change: dict[str, Any], missing: str) -> None:
    entry = Entry("https://ex.com/a", videos=[full_video(**change), full_video()])
    data, warnings = write_xml([entry])
    assert data.count(b"<video:video>") == 1
    assert any(missing in w for w in warnings)
    assert_valid(data, "extensions")


def test_video_with_only_a_player_is_kept() -> None:
    data, warnings = write_xml([Entry("https://ex.com/a", videos=[full_video(content_loc=None)])])
    assert warnings == [] and b"<video:content_loc>" not in data
    assert_valid(data, "extensions")


def test_video_attributes_that_the_xsd_requires_are_checked() -> None:
    video = full_video(
        restriction_relationship=None,
        platform_relationship="maybe",
        ids=[VideoId("x", "nonsense"), VideoId("https://ex.com/1", "url")],
        tvshow=VideoTvShow("Show", "soap"),
        duration=99_999,
        rating=7.0,
    )
    data, warnings = write_xml([Entry("https://ex.com/a", videos=[video])])
    root = assert_valid(data, "extensions")
    v = root.find("sm:url/video:video", NS)
    for tag in ("restriction", "platform", "tvshow", "duration", "rating"):
        assert v.find(f"video:{tag}", NS) is None, tag
    assert len(v.findall("video:id", NS)) == 1
    assert len(warnings) == 6


def test_news_without_required_fields_is_dropped() -> None:
    news = News(publication_name="Times", publication_language="en", title="T")
    data, warnings = write_xml([Entry("https://ex.com/a", news=news)])
    assert b"news" not in data
    assert "publication_date" in warnings[0]


def test_every_value_is_escaped() -> None:
    entry = Entry(
        f"https://ex.com/{SPECIAL}",
        images=[
            Image(
                f"https://ex.com/i?{SPECIAL}", caption=SPECIAL, title=SPECIAL, geo_location=SPECIAL
            )
        ],
        videos=[
            full_video(
                title=SPECIAL,
                description=SPECIAL,
                player_autoplay=SPECIAL,
                tags=[SPECIAL],
                category=SPECIAL,
                gallery_title=SPECIAL,
                uploader=SPECIAL,
                prices=[VideoPrice(SPECIAL, "EUR")],
                tvshow=VideoTvShow(SPECIAL, "clip", SPECIAL),
            )
        ],
        news=News(SPECIAL, "en", dt.date(2024, 1, 1), SPECIAL, keywords=SPECIAL),
        alternates=[Alternate(f"https://ex.com/de?{SPECIAL}", "de", media=SPECIAL)],
    )
    data, _ = write_xml([entry])
    body = data.split(b"\n", 2)[2]
    assert b"<c>" not in body and b"d'e" not in body and b'e"f' not in body
    assert body.count(b"a&amp;b&lt;c&gt;d&apos;e&quot;f") >= 14
    root = parse(data)
    texts = {el.text for el in root.iter() if el.text and "a&b" in el.text}
    assert SPECIAL in texts
    video = root.find("sm:url/video:video", NS)
    assert video.find("video:player_loc", NS).get("autoplay") == SPECIAL
    assert video.find("video:gallery_loc", NS).get("title") == SPECIAL
    assert root.find("sm:url/xhtml:link", NS).get("media") == SPECIAL
    # URLs: the quote and angle brackets are percent-encoded, & and ' stay and are escaped
    assert root.findtext("sm:url/sm:loc", namespaces=NS) == "https://ex.com/a&b%3Cc%3Ed'e%22f"


def test_forbidden_characters_are_removed_with_one_warning() -> None:
    entries = [
        Entry(
            "https://ex.com/a\x01b", images=[Image("https://ex.com/i.png", caption="x\x00y\ufffe")]
        ),
        Entry("https://ex.com/c", news=News("Na\x1fme", "en", dt.date(2024, 1, 1), "T\udc80itle")),
    ]
    data, warnings = write_xml(entries)
    root = assert_valid(data, "extensions")
    assert [w for w in warnings if "forbids" in w] == warnings and len(warnings) == 1
    assert root.findtext("sm:url/sm:loc", namespaces=NS) == "https://ex.com/ab"
    assert root.findtext(".//image:caption", namespaces=NS) == "xy"
    assert root.findtext(".//news:name", namespaces=NS) == "Name"
    assert root.findtext(".//news:title", namespaces=NS) == "Title"


def test_urls_are_percent_encoded_once_then_xml_escaped() -> None:
    data, _ = write_xml(
        [
            Entry("http://e.com/ümlat.php&q=name"),
            Entry("http://e.com/%C3%BCmlat.php&q=a%20b"),
            Entry("  https://ex.com/with space/ \n"),
            Entry("https://bücher.example/straße"),
        ]
    )
    assert b"<loc>http://e.com/%C3%BCmlat.php&amp;q=name</loc>" in data
    assert b"<loc>http://e.com/%C3%BCmlat.php&amp;q=a%20b</loc>" in data
    assert b"<loc>https://ex.com/with%20space/</loc>" in data
    assert b"<loc>https://xn--bcher-kva.example/stra%C3%9Fe</loc>" in data
    assert_valid(data)


@pytest.mark.parametrize(
    ("lastmod", "expected"),
    [
        (dt.date(2024, 2, 29), "2024-02-29"),
        (dt.datetime(2024, 5, 1, 13, 45, 10, tzinfo=CEST), "2024-05-01T13:45:10+02:00"),
        (dt.datetime(2024, 5, 1, 11, 45, 10, tzinfo=UTC), "2024-05-01T11:45:10+00:00"),
        (dt.datetime(2024, 5, 1, 11, 45, 10), "2024-05-01T11:45:10"),
        (
            dt.datetime(2024, 5, 1, 11, 45, 10, 450000, tzinfo=UTC),
            "2024-05-01T11:45:10.450000+00:00",
        ),
        (
            dt.datetime(2024, 5, 1, 11, 45, 10, 123, tzinfo=dt.timezone(-dt.timedelta(hours=5))),
            "2024-05-01T11:45:10.000123-05:00",
        ),
    ],
)
def test_lastmod_forms(lastmod: dt.date, expected: str) -> None:
    data, warnings = write_xml([Entry("https://ex.com/a", lastmod=lastmod)])
    assert f"<lastmod>{expected}</lastmod>".encode() in data
    assert warnings == []
    assert_valid(data)


def test_date_only_writes_dates() -> None:
    entry = Entry("https://ex.com/a", lastmod=dt.datetime(2024, 5, 1, 23, 0, tzinfo=CEST))
    data, _ = write_xml(
        [entry, Entry("https://ex.com/b", lastmod=dt.date(2023, 1, 2))], date_only=True
    )
    assert b"<lastmod>2024-05-01</lastmod>" in data and b"<lastmod>2023-01-02</lastmod>" in data


@pytest.mark.parametrize(
    ("priority", "expected"),
    [
        (0.8, "0.8"),
        (0.85, "0.85"),
        (1, "1.0"),
        (0.0, "0.0"),
        (0.5, "0.5"),
        (0.125, "0.125"),
        (1e-05, "0.00001"),
    ],
)
def test_priority_format(priority: float, expected: str) -> None:
    data, warnings = write_xml([Entry("https://ex.com/a", priority=priority)])
    assert f"<priority>{expected}</priority>".encode() in data
    assert warnings == []
    assert_valid(data)


def test_priority_and_changefreq_out_of_range_are_omitted() -> None:
    entries = [
        Entry("https://ex.com/a", priority=1.5, changefreq="Weekly"),
        Entry("https://ex.com/b", priority=float("nan"), changefreq="sometimes"),
        Entry("https://ex.com/c", priority=-0.1),
        Entry("https://ex.com/d"),
    ]
    data, warnings = write_xml(entries)
    assert b"<priority>" not in data
    assert data.count(b"<changefreq>") == 1 and b"<changefreq>weekly</changefreq>" in data
    assert sum("priority" in w for w in warnings) == 1
    assert sum("changefreq" in w for w in warnings) == 1
    assert_valid(data)


def test_bad_locs_are_skipped_with_warnings() -> None:
    long_loc = "https://ex.com/" + "a" * (2048 - 15)
    entries = [
        Entry(""),
        Entry("/relative/path"),
        Entry("ftp://ex.com/file"),
        Entry(long_loc + "b"),
        Entry(long_loc),
        Entry("https://ex.com/ok"),
    ]
    data, warnings = write_xml(entries)
    root = assert_valid(data)
    assert [u.findtext("sm:loc", namespaces=NS) for u in root] == [long_loc, "https://ex.com/ok"]
    assert len(warnings) == 5
    assert (
        "without a loc" in warnings[0] and "absolute" in warnings[1] and "absolute" in warnings[2]
    )
    assert "2049 characters" in warnings[3] and "exactly 2048" in warnings[4]


def test_encoding_can_push_a_loc_over_the_limit() -> None:
    loc = "https://ex.com/" + "ü" * 1000  # 1,015 characters, 6,015 once percent-encoded
    data, warnings = write_xml([Entry(loc), Entry("https://ex.com/ok")])
    assert data.count(b"<url>") == 1 and "6015 characters" in warnings[0]


def test_empty_urlset_is_written_with_a_warning() -> None:
    data, warnings = write_xml([])
    assert data == (
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n'
    )
    assert len(warnings) == 1 and "empty" in warnings[0]


def test_output_is_deterministic_utf8_lf() -> None:
    first, _ = write_xml([full_entry(), Entry("https://ex.com/é")])
    second, _ = write_xml([full_entry(), Entry("https://ex.com/é")])
    assert first == second
    assert not first.startswith(b"\xef\xbb\xbf") and b"\r" not in first
    assert first.endswith(b"</urlset>\n")
    first.decode("utf-8")


def test_over_the_limits_to_a_stream_only_warns() -> None:
    entries = [Entry(f"https://ex.com/{i}") for i in range(3)]
    data, warnings = write_xml(entries, max_urls=2, split=True)
    assert data.count(b"<url>") == 3
    assert len(warnings) == 1 and "3 URLs (limit 2)" in warnings[0]
    _, warnings = write_xml(entries, max_file_bytes=200)
    assert "bytes (limit 200)" in warnings[0]


def test_limits_above_the_protocol_are_rejected() -> None:
    with pytest.raises(ValueError, match="max_urls"):
        write_xml([], max_urls=50_001)
    with pytest.raises(SitemapError, match="max_file_bytes"):
        write_xml([], max_file_bytes=52_428_801)


def test_gzip_file_gunzips_and_validates(tmp_path: Any) -> None:
    path = tmp_path / "sitemap.xml.gz"
    count = sitemapconv.write([full_entry()], path)
    assert count == 1
    raw = path.read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    assert_valid(gzip.decompress(raw), "extensions")


def test_gzip_option_and_plain_file(tmp_path: Any) -> None:
    plain = tmp_path / "sitemap.xml"
    sitemapconv.write([Entry("https://ex.com/a")], plain)
    assert_valid(plain.read_bytes())
    zipped = tmp_path / "zipped.xml"
    sitemapconv.write([Entry("https://ex.com/a")], zipped, gzip=True)
    assert gzip.decompress(zipped.read_bytes()) == plain.read_bytes()


def test_failed_write_leaves_the_existing_file_untouched(tmp_path: Any) -> None:
    path = tmp_path / "sitemap.xml"
    path.write_bytes(b"old content")

    def entries() -> Iterator[Entry]:
        yield Entry("https://ex.com/a")
        raise SitemapError("input broke midway", source="in.xml")

    with pytest.raises(SitemapError, match="midway"):
        sitemapconv.write(entries(), path)
    assert path.read_bytes() == b"old content"
    assert os.listdir(tmp_path) == ["sitemap.xml"]


def test_big_body_spools_to_disk_and_is_copied_whole(tmp_path: Any) -> None:
    pad = "x" * 150
    entries = (Entry(f"https://ex.com/{pad}/{i}", priority=0.5) for i in range(60_000))
    path = tmp_path / "big.xml"
    warnings: list[str] = []
    assert sitemapconv.write(entries, path, on_warning=warnings.append) == 60_000
    data = path.read_bytes()
    assert len(data) > 8 * 1024 * 1024  # larger than the in-memory part of the spool
    assert data.count(b"<url>") == 60_000 and data.endswith(b"</urlset>\n")
    assert "60,000 URLs (limit 50,000)" in warnings[0]
