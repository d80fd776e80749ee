"""RSS reader (RSS 2.0, 0.91, 0.92, 0.90 and 1.0 RDF) on real and hand-written feeds."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Image, ParseError, SitemapError, Video
from sitemapconv._head import Head
from sitemapconv.errors import FormatError
from sitemapconv.readers._rss import RssReader

from .feed_support import (
    SAMPLES,
    feed,
    process_peak_kib,
    read_all,
    traced_peak,
    write_rss,
)

UTC = dt.timezone.utc


def tz(hours: int) -> dt.timezone:
    return dt.timezone(dt.timedelta(hours=hours))


def rss(items: str, channel: str = "", ns: str = "") -> bytes:
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"{ns}><channel>'
        f"<title>T</title>{channel}{items}</channel></rss>"
    ).encode()


# --- RSS 2.0 corpus -------------------------------------------------------------------


def test_item_with_only_pubdate_is_skipped_with_a_warning() -> None:
    result = read_all(feed("rss2-item-pubdate.xml"), "rss")
    assert result.entries == []
    assert result.warned("no <link>")


def test_guid_not_permalink_never_becomes_the_loc() -> None:
    result = read_all(feed("rss2-guid-not-permalink.xml"), "rss")
    assert result.entries == []
    assert result.warned("not a permalink")


def test_link_wins_over_permalink_guid() -> None:
    [entry] = read_all(feed("rss2-guid-permalink-conflict-link.xml"), "rss").entries
    assert entry.loc == "http://link.example.com/"
    assert entry.id == "http://guid.example.com/"
    assert entry.lastmod is None
    assert entry.title is None


def test_permalink_guid_is_the_loc_when_there_is_no_link() -> None:
    data = rss(
        "<item><guid>http://example.com/a</guid></item>"
        '<item><guid isPermaLink="true">tag:example.com,2024:b</guid></item>'
    )
    result = read_all(data, "rss")
    assert [e.loc for e in result.entries] == ["http://example.com/a"]
    assert result.entries[0].id == "http://example.com/a"
    assert result.warned("not an absolute http(s) URL")


def test_bbc_podcast() -> None:
    expected = json.loads(feed("rss2-real-bbc-podcast.expected.json").read_text())
    result = read_all(feed("rss2-real-bbc-podcast.xml"), "rss")
    assert len(result.entries) == len(expected["entries"]) == 1
    [entry] = result.entries
    assert entry.loc == "http://www.bbc.co.uk/programmes/m000sjxt"
    assert entry.loc == expected["entries"][0]["links"][0]["href"]
    assert entry.lastmod == dt.datetime(2021, 2, 25, 10, 15, tzinfo=UTC)
    assert entry.published is None
    assert entry.title == "Marcus Aurelius"
    assert entry.summary == "Melvyn Bragg and guests discuss..."
    assert entry.id == "urn:bbc:podcast:m000sjxt" == expected["entries"][0]["id"]
    assert entry.images == () and entry.videos == ()  # the enclosure is audio
    meta = result.meta
    assert meta.title == "In Our Time"
    assert meta.link == "http://www.bbc.co.uk/programmes/b006qykl"
    assert meta.description == "Melvyn Bragg and guests discuss the history of ideas"
    assert meta.language == "en"
    assert meta.updated == dt.datetime(2021, 2, 25, 10, 15, tzinfo=UTC)
    assert meta.self_link == "http://www.bbc.co.uk/programmes/b006qykl/episodes/downloads.rss"
    assert meta.author == "BBC Radio 4"
    assert result.warnings == []


def test_spiegel() -> None:
    result = read_all(feed("rss2-real-spiegel.xml"), "rss")
    [entry] = result.entries
    assert entry.loc == (
        "https://omny.fm/shows/spiegel-update-die-nachrichten/"
        "07-02-die-wochenvorschau-lockdown-verl-ngerung-kri"
    )
    assert entry.title == (
        "07.02. – die Wochenvorschau: Lockdown-Verlängerung, Kriegsverbrecher vor Gericht, "
        "Super Bowl, Karneval"
    )
    assert entry.summary == (
        "Die wichtigsten Nachrichten aus der SPIEGEL-Redaktion. \n"
        "See omnystudio.com/listener for privacy information."
    )
    assert entry.lastmod == dt.datetime(2021, 2, 6, 23, 1, tzinfo=UTC)
    assert entry.id == "c7e3cca2-665e-4bc4-bcac-acc6011b9fa2"
    image = (
        "https://www.omnycontent.com/d/programs/5ac1e950-45c7-4eb7-87c0-aa0f018441b8/"
        "bb17ca27-51f4-4349-bc1e-abc00102c975/image.jpg?t=1589902935&size=Large"
    )
    assert entry.images == [Image(loc=image)]
    assert entry.videos == ()
    meta = result.meta
    assert meta.title == "SPIEGEL Update – Die Nachrichten"
    assert meta.link == "https://www.spiegel.de/thema/spiegel-update/"
    assert meta.language == "de"
    assert meta.description is not None
    # CDATA: the HTML entities inside are literal text, not references.
    assert meta.description.startswith("<p>Die wichtigsten Nachrichten des Tages &ndash; erg")
    assert meta.self_link is not None and meta.self_link.endswith("/podcast.rss")
    assert meta.updated is None
    assert result.warnings == []


# --- RSS 0.90, 0.91, 0.92, 1.0 ------------------------------------------------------------


def test_rss090_relative_links_are_kept_with_a_warning_without_a_base() -> None:
    result = read_all(feed("rss090-rdf.xml").read_bytes(), "rss")
    assert [(e.loc, e.title) for e in result.entries] == [
        ("rss_0.9.item[0].link", "rss_0.9.item[0].title"),
        ("rss_0.9.item[1].link", "rss_0.9.item[1].title"),
    ]
    assert all(e.lastmod is None and e.id is None for e in result.entries)
    assert result.meta.title == "rss_0.9.channel.title"
    assert result.meta.description == "rss_0.9.channel.description"
    assert result.warned("is relative")


def test_rss090_relative_links_resolve_against_base_url() -> None:
    result = read_all(feed("rss090-rdf.xml"), "rss", base_url="https://example.com/feeds/x.rdf")
    assert [e.loc for e in result.entries] == [
        "https://example.com/feeds/rss_0.9.item[0].link",
        "https://example.com/feeds/rss_0.9.item[1].link",
    ]
    assert result.meta.link == "https://example.com/feeds/rss_0.9.channel.link"
    assert not result.warned("is relative")


def test_rss091() -> None:
    result = read_all(feed("rss091-netscape.xml").read_bytes(), "rss")
    assert [(e.loc, e.title, e.summary) for e in result.entries] == [
        (
            f"rss_0.91N.channel.item[{i}].link",
            f"rss_0.91N.channel.item[{i}].title",
            f"rss_0.91N.channel.item[{i}].description",
        )
        for i in (0, 1)
    ]
    meta = result.meta
    assert meta.title == "rss_0.91N.channel.title"
    assert meta.language == "rss_0.91N.channel.language"
    assert meta.author == "rss_0.91N.channel.managingEditor"
    # lastBuildDate wins over pubDate for the feed's updated.
    assert meta.updated == dt.datetime(2001, 1, 1, 1, 0, tzinfo=UTC)


def test_rss092_non_media_enclosures_are_ignored() -> None:
    result = read_all(feed("rss092.xml").read_bytes(), "rss")
    assert [(e.loc, e.title, e.summary, e.images, e.videos) for e in result.entries] == [
        (
            f"rss_0.92.channel.item[{i}].link",
            f"rss_0.92.channel.item[{i}].title",
            f"rss_0.92.channel.item[{i}].description",
            (),
            (),
        )
        for i in (0, 1)
    ]
    assert result.meta.description == "rss_0.92.channel.description"


def test_rss10_rome() -> None:
    result = read_all(feed("rss10-rdf-rome.xml").read_bytes(), "rss")
    assert [(e.loc, e.id, e.title, e.summary) for e in result.entries] == [
        (
            f"rss_1.0.item[{i}].link",
            f"rss_1.0.channel.items[{i}]^rdf:resource",
            f"rss_1.0.item[{i}].title",
            f"rss_1.0.item[{i}].description",
        )
        for i in (0, 1)
    ]
    assert result.meta.id == "rss_1.0.channel.uri"
    assert result.meta.title == "rss_1.0.channel.title"


def test_rss10_debian_dc_date() -> None:
    result = read_all(feed("rss10-rdf-real-debian.xml"), "rss")
    [entry] = result.entries
    assert entry.loc == "https://www.debian.org/News/2022/20221217"
    assert entry.id == "https://www.debian.org/News/2022/20221217"
    assert entry.lastmod == dt.date(2022, 12, 17)
    assert entry.title == "Updated Debian 11: 11.6 released"
    assert entry.summary is not None
    assert entry.summary.startswith("The Debian project is pleased to announce")
    assert "(codename <q>bullseye</q>)" in entry.summary  # entities decoded
    assert entry.summary.endswith("referenced where available.")
    meta = result.meta
    assert meta.title == "Debian News"
    assert meta.link == "https://www.debian.org/News/"
    assert meta.description == "Debian Latest News"
    assert meta.id == "https://www.debian.org/News/news.rdf"
    assert meta.updated == dt.datetime(2022, 12, 20, 23, 28, 24, tzinfo=UTC)
    assert meta.language == "en"  # xml:lang on rdf:RDF
    assert result.warnings == []


def test_rdf_item_about_is_the_loc_without_link() -> None:
    [entry] = read_all(feed("rdf-item-about.xml"), "rss").entries
    assert entry.loc == "http://example.org/1"
    assert entry.id == "http://example.org/1"


# --- broken feeds --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["rss2-utf8-bom.xml", "rss2-leading-whitespace.xml"])
def test_junk_before_the_document(name: str) -> None:
    result = read_all(feed(name), "rss")
    assert result.entries == []
    assert result.meta.title == "Feed Title"
    assert result.warnings == []


def test_whitespace_before_xml_declaration_with_an_item() -> None:
    data = b"\xef\xbb\xbf \n\t" + rss("<item><link>http://e.com/1</link></item>")
    result = read_all(data, "rss")
    assert [e.loc for e in result.entries] == ["http://e.com/1"]
    assert result.warnings == []


def test_iso_8859_1_declared() -> None:
    result = read_all(feed("rss-iso-8859-1-declared.xml"), "rss")
    assert result.entries == [] and result.warnings == []
    data = (
        '<?xml\n   version="1.0" encoding="iso-8859-1"?>\n<rss><channel><title>Caf\xe9</title>'
        "<item><title>Cr\xe8me br\xfbl\xe9e</title><link>http://e.com/cr%C3%A8me</link></item>"
        "</channel></rss>"
    ).encode("latin-1")
    result = read_all(data, "rss")
    assert result.meta.title == "Café"
    assert [(e.title, e.loc) for e in result.entries] == [
        ("Crème brûlée", "http://e.com/cr%C3%A8me")
    ]


def test_bare_ampersand_in_title_keeps_later_entities() -> None:
    result = read_all(feed("rss2-bare-ampersand-title.xml"), "rss")
    assert result.meta.title == "Fish & Chips & more <3"


def test_unescaped_ampersands_in_channel_link() -> None:
    result = read_all(feed("rss2-unescaped-ampersand-channel-link.xml"), "rss")
    assert result.meta.link == "http://example/?a=1&b=2&c"


def test_unescaped_ampersand_in_item_link() -> None:
    result = read_all(rss("<item><link>http://e.com/get?a=1&b=2</link></item>"), "rss")
    assert [e.loc for e in result.entries] == ["http://e.com/get?a=1&b=2"]


def test_html_entities_are_decoded_and_cdata_kept() -> None:
    data = rss(
        "<item><title>caf&eacute;&nbsp;&amp; &foo; &#233;</title>"
        "<description><![CDATA[a & b &amp; c]]></description>"
        "<link>http://e.com/x?a=1&amp;b=2&c</link></item>"
    )
    [entry] = read_all(data, "rss").entries
    assert entry.title == "café\xa0& &foo; é"
    assert entry.summary == "a & b &amp; c"
    assert entry.loc == "http://e.com/x?a=1&b=2&c"


def test_truncated_after_the_last_item() -> None:
    result = read_all(feed("rss2-truncated.xml"), "rss")
    assert [e.loc for e in result.entries] == ["http://link/get?a=1&b=2"]
    assert result.warnings  # the cut "</rss" is reported


def test_truncated_inside_an_item_yields_every_complete_item() -> None:
    full = rss(
        "".join(f"<item><title>t{i}</title><link>http://e.com/{i}</link></item>" for i in range(3))
    )
    cut = full[: full.index(b"http://e.com/2") + 10]
    result = read_all(cut, "rss")
    assert [e.loc for e in result.entries] == ["http://e.com/0", "http://e.com/1"]
    assert result.warned("truncated")


def test_reuters_cut_off_by_an_error_comment() -> None:
    result = read_all(feed("rss2-real-reuters-server-error.xml"), "rss")
    assert result.entries == []
    meta = result.meta
    assert meta.title == "Reuters: Most Read Articles"
    assert meta.link == "https://www.reuters.com"
    assert meta.language == "en-us"
    assert meta.updated == dt.datetime(2020, 3, 21, 6, 29, 51, tzinfo=tz(-4))
    assert result.warned("before its elements are closed")


def test_w3c_pubdate_is_read_with_a_warning() -> None:
    result = read_all(feed("rss2-invalid-pubdate.xml"), "rss")
    assert result.meta.updated == dt.datetime(2002, 12, 31, 1, 15, 7, tzinfo=tz(-5))
    assert result.warned("is not an RFC 822 date")


def test_invalid_pubdate_is_none_with_a_warning_and_reading_goes_on() -> None:
    data = rss(
        "<item><link>http://e.com/1</link><pubDate>next Tuesday</pubDate></item>"
        "<item><link>http://e.com/2</link><pubDate>Tue, 07 May 2024 08:00:00 GMT</pubDate></item>"
    )
    result = read_all(data, "rss")
    assert [(e.loc, e.lastmod) for e in result.entries] == [
        ("http://e.com/1", None),
        ("http://e.com/2", dt.datetime(2024, 5, 7, 8, 0, tzinfo=UTC)),
    ]
    assert result.warned("invalid date 'next Tuesday' in <pubDate>")


def test_invalid_pubdate_falls_back_to_dc_date() -> None:
    data = rss(
        "<item><link>http://e.com/1</link><pubDate>soon</pubDate>"
        "<dc:date>2024-05-01</dc:date></item>",
        ns=' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    )
    [entry] = read_all(data, "rss").entries
    assert entry.lastmod == dt.date(2024, 5, 1)


def test_comment_only_document_is_not_a_feed() -> None:
    with pytest.raises(SitemapError):
        read_all(feed("rss-comment-only.xml"))


def test_comment_only_document_forced_as_rss_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match=r"rss-comment-only\.xml"):
        read_all(feed("rss-comment-only.xml"), "rss")


def test_other_xml_forced_as_rss_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="root element <note>"):
        read_all(feed("not-a-feed.xml"), "rss")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Thu, 01 Jan 2004 19:48:21 GMT", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("Thu, 01 Jan 2004 19:48:21 UT", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("Thu, 01 Jan 2004 19:48:21 EST", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=tz(-5))),
        ("Thu, 01 Jul 2004 19:48:21 EDT", dt.datetime(2004, 7, 1, 19, 48, 21, tzinfo=tz(-4))),
        ("Thu, 01 Jan 2004 19:48:21 PST", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=tz(-8))),
        (
            "Thu, 01 Jan 2004 19:48:21 +0530",
            dt.datetime(
                2004, 1, 1, 19, 48, 21, tzinfo=dt.timezone(dt.timedelta(hours=5, minutes=30))
            ),
        ),
        ("Thu, 01 Jan 2004 19:48:21 -0700", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=tz(-7))),
        ("Thu, 01 Jan 2004 19:48:21 +0000", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("Thu, 01 Jan 2004 19:48:21 -0000", dt.datetime(2004, 1, 1, 19, 48, 21)),
        ("Thu, 01 Jan 04 19:48:21 GMT", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("Fri, 01 Jan 99 19:48:21 GMT", dt.datetime(1999, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("01 Jan 2004 19:48:21 GMT", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
        ("1 Jan 2004 19:48 GMT", dt.datetime(2004, 1, 1, 19, 48, tzinfo=UTC)),
        ("  Thu, 01 Jan 2004 19:48:21 GMT\n ", dt.datetime(2004, 1, 1, 19, 48, 21, tzinfo=UTC)),
    ],
)
def test_rfc822_pubdate_variants(text: str, expected: dt.datetime) -> None:
    result = read_all(
        rss(f"<item><link>http://e.com/</link><pubDate>{text}</pubDate></item>"), "rss"
    )
    [entry] = result.entries
    assert entry.lastmod == expected
    assert entry.lastmod.utcoffset() == expected.utcoffset()
    assert result.warnings == []


# --- Media RSS -----------------------------------------------------------------------------

MEDIA = ' xmlns:media="http://search.yahoo.com/mrss/"'


def test_media_rss_images_and_videos() -> None:
    data = rss(
        "<item><link>http://e.com/1</link>"
        "<media:title>Item title</media:title>"
        '<media:thumbnail url="http://e.com/thumb.jpg"/>'
        '<media:content url="http://e.com/v.mp4" type="video/mp4">'
        "<media:description>Clip</media:description></media:content>"
        '<media:content url="http://e.com/p.png" medium="image"><media:title>Pic</media:title>'
        "</media:content>"
        '<media:content url="http://e.com/a.mp3" medium="audio"/>'
        '<enclosure url="http://e.com/p.png" type="image/png" length="1"/>'
        '<enclosure url="http://e.com/e.jpg" type="image/jpeg" length="1"/>'
        "</item>"
        "<item><link>http://e.com/2</link>"
        '<media:thumbnail url="http://e.com/news.jpg"/></item>',
        ns=MEDIA,
    )
    first, second = read_all(data, "rss").entries
    assert first.videos == [
        Video(
            content_loc="http://e.com/v.mp4",
            thumbnail_loc="http://e.com/thumb.jpg",
            title="Item title",
            description="Clip",
        )
    ]
    assert first.images == [
        Image(loc="http://e.com/p.png", title="Pic"),
        Image(loc="http://e.com/e.jpg", title="Item title"),
    ]
    # A thumbnail with no video is the item's picture.
    assert second.images == [Image(loc="http://e.com/news.jpg")]
    assert second.videos == ()


# --- detection, samples, streaming -----------------------------------------------------------


def test_sniff_scores() -> None:
    assert RssReader.sniff(Head(b'<?xml version="1.0"?>\n<rss version="2.0"><channel>')) == 1.0
    rdf = b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    assert RssReader.sniff(Head(rdf + b'xmlns="http://purl.org/rss/1.0/">')) == 1.0
    assert RssReader.sniff(Head(rdf + b'xmlns="http://my.netscape.com/rdf/simple/0.9/">')) == 1.0
    assert 0 < RssReader.sniff(Head(rdf + b">")) < 1
    assert RssReader.sniff(Head(b'<rdf:RDF xmlns:rdf="http://example.com/other">')) == 0.0
    assert RssReader.sniff(Head(b'<feed xmlns="http://www.w3.org/2005/Atom">')) == 0.0
    assert RssReader.sniff(Head(b"<urlset>")) == 0.0


@pytest.mark.parametrize(
    "path",
    [
        SAMPLES / "feed.rss",
        feed("rss2-real-bbc-podcast.xml"),
        feed("rss091-netscape.xml"),
        feed("rss090-rdf.xml"),
        feed("rss10-rdf-real-debian.xml"),
        feed("rss2-utf8-bom.xml"),
    ],
)
def test_read_detects_rss(path: object) -> None:
    assert sitemapconv.read(path).format == "rss"


def test_sample_feed_rss() -> None:
    result = read_all(SAMPLES / "feed.rss", "rss")
    assert result.warnings == []
    e = result.entries
    assert len(e) == 5
    assert e[0].loc == "https://garden.example.com/2024/05/tomatoes-basil"
    assert e[0].title == "Planting tomatoes & basil together"
    assert e[0].summary == "Why companion planting works on a balcony."
    assert e[0].id == "https://garden.example.com/2024/05/tomatoes-basil"
    assert e[0].lastmod == dt.datetime(2024, 5, 7, 8, 0, tzinfo=tz(1))
    assert e[0].images == [
        Image(
            loc="https://garden.example.com/img/tomatoes.jpg",
            title="Tomato seedlings",
            caption="Six seedlings on a sunny sill",
        )
    ]
    assert e[1].loc == "https://garden.example.com/2024/05/watering?month=5&year=2024"
    assert e[1].summary == "<p>Water <b>early</b> & deep.</p>"
    assert e[1].id == "garden-2024-0502"
    assert e[1].lastmod == dt.datetime(2024, 5, 2, 18, 45, tzinfo=UTC)
    assert e[2].loc == "https://garden.example.com/2024/04/pruning-roses"
    assert e[2].lastmod == dt.datetime(2024, 4, 28, 10, 0, tzinfo=tz(-4))
    assert e[2].videos == [
        Video(
            content_loc="https://cdn.garden.example.com/video/roses.mp4",
            thumbnail_loc="https://cdn.garden.example.com/video/roses.jpg",
        )
    ]
    assert e[2].images == ()
    assert e[3].loc == "https://garden.example.com/2024/04/compost"  # permalink guid
    assert e[3].lastmod == dt.datetime(2024, 4, 20, 9, 15, tzinfo=UTC)  # dc:date
    assert e[3].summary is None
    assert e[4].loc == "https://garden.example.com/events/seed-swap"
    assert e[4].id is None
    assert all(x.published is None for x in e)
    assert all(x.sitemap == str(SAMPLES / "feed.rss") for x in e)
    meta = result.meta
    assert meta.title == "Example Garden Blog"
    assert meta.link == "https://garden.example.com/"
    assert meta.description == "Notes from a small urban garden."
    assert meta.language == "en-gb"
    assert meta.updated == dt.datetime(2024, 5, 7, 8, 30, tzinfo=tz(1))
    assert meta.self_link == "https://garden.example.com/feed.rss"
    assert meta.author == "editor@garden.example.com (Ann Gardener)"


def test_metadata_is_known_before_the_first_entry() -> None:
    doc = sitemapconv.read(SAMPLES / "feed.rss", "rss")
    with doc:
        meta = doc.prime()
        assert meta.title == "Example Garden Blog"
        assert meta.self_link == "https://garden.example.com/feed.rss"
        assert next(iter(doc)).loc == "https://garden.example.com/2024/05/tomatoes-basil"


def test_metadata_after_the_items_is_read_at_the_end() -> None:
    data = rss(
        "<item><link>http://e.com/1</link></item><language>fr</language>"
        "<item><link>http://e.com/2</link></item><copyright>x</copyright>"
        "<description>late</description>"
    )
    result = read_all(data, "rss")
    assert [e.loc for e in result.entries] == ["http://e.com/1", "http://e.com/2"]
    assert result.meta.language == "fr"
    assert result.meta.description == "late"


# --- memory ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_rss(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("big-rss")
    return write_rss(folder / "4k.xml", 4_000), write_rss(folder / "40k.xml", 40_000)


@pytest.mark.slow
def test_python_memory_does_not_grow_with_the_item_count(big_rss: tuple[Path, Path]) -> None:
    small, big = big_rss
    n_small, peak_small = traced_peak(small, "rss")
    n_big, peak_big = traced_peak(big, "rss")
    assert (n_small, n_big) == (4_000, 40_000)
    assert peak_big < peak_small + 3 * 1024 * 1024


def test_process_memory_does_not_grow_with_the_item_count(big_rss: tuple[Path, Path]) -> None:
    small, big = big_rss
    n_small, rss_small = process_peak_kib(small, "rss")
    n_big, rss_big = process_peak_kib(big, "rss")
    assert (n_small, n_big) == (4_000, 40_000)
    # Keeping the tree would cost well over 100 MB for the 30 MB file.
    assert rss_big < rss_small + 20 * 1024


def test_entities_are_never_expanded() -> None:
    data = (
        b'<?xml version="1.0"?>\n<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">'
        b'<!ENTITY boom "expanded">]>\n<rss version="2.0"><channel>'
        b"<item><title>&xxe;|&boom;</title><link>http://e.com/1</link></item></channel></rss>"
    )
    [entry] = read_all(data, "rss").entries
    assert entry.title == "&xxe;|&boom;"


def test_reading_a_feed_does_not_import_feedparser() -> None:
    import subprocess
    import sys

    code = (
        "import sys, sitemapconv\n"
        f"assert sum(1 for _ in sitemapconv.read({str(SAMPLES / 'feed.rss')!r}, 'rss')) == 5\n"
        f"assert sum(1 for _ in sitemapconv.read({str(SAMPLES / 'feed.atom')!r}, 'atom')) == 5\n"
        "print('feedparser' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "False"


def test_metadata_between_many_items_is_read_and_items_stay_in_order() -> None:
    # Items are freed in batches (every 256); metadata met between items must still be
    # handed over before the next item, and nothing may be lost or reordered around it.
    items = [f"<item><link>https://example.com/{i}</link></item>" for i in range(700)]
    items.insert(300, "<language>de</language>")
    items.insert(600, "<description>late</description>")
    doc = sitemapconv.read(rss("".join(items)))
    locs = [entry.loc for entry in doc]
    assert locs == [f"https://example.com/{i}" for i in range(700)]
    assert doc.meta.language == "de"
    assert doc.meta.description == "late"


def test_relative_media_urls_are_resolved_against_the_feed_url() -> None:
    data = (
        b'<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>'
        b"<title>t</title><link>https://e.com/</link><description>d</description>"
        b'<item><link>https://e.com/a</link><media:content url="img/a.jpg" medium="image"/>'
        b"</item></channel></rss>"
    )
    entries = list(sitemapconv.read(data, base_url="https://e.com/feed/"))
    assert [i.loc for i in entries[0].images] == ["https://e.com/feed/img/a.jpg"]
