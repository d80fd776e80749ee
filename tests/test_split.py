"""Splitting urlset output at the protocol's limits into parts plus an index."""

from __future__ import annotations

import datetime as dt
import gzip
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sitemapconv
from sitemapconv import Entry, Image, SitemapError, WriteError
from sitemapconv._limits import PROTOCOL_MAX_BYTES
from sitemapconv._split import PartName
from tests.sitemap_schemas import NS, assert_valid

BASE = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


def split_write(entries: Any, path: Path, **options: Any) -> tuple[int, list[str]]:
    warnings: list[str] = []
    options.setdefault("base_url", "https://ex.com/")
    count = sitemapconv.write(entries, path, split=True, on_warning=warnings.append, **options)
    return count, warnings


def locs(root: Any, child: str = "url") -> list[str]:
    return [el.findtext("sm:loc", namespaces=NS) for el in root.findall(f"sm:{child}", NS)]


@pytest.mark.slow
def test_120000_entries_make_three_parts_and_an_index(tmp_path: Path) -> None:
    n = 120_000

    def lastmod(i: int) -> dt.datetime:  # scrambled, so the newest is not the last one
        return BASE + dt.timedelta(minutes=(i * 7919) % n)

    entries = (Entry(f"https://ex.com/p/{i}", lastmod=lastmod(i)) for i in range(n))
    count, warnings = split_write(entries, tmp_path / "sitemap.xml")
    assert count == n and warnings == []
    assert sorted(os.listdir(tmp_path)) == [
        "sitemap-1.xml",
        "sitemap-2.xml",
        "sitemap-3.xml",
        "sitemap.xml",
    ]
    index = assert_valid((tmp_path / "sitemap.xml").read_bytes(), "siteindex")
    assert locs(index, "sitemap") == [f"https://ex.com/sitemap-{k}.xml" for k in (1, 2, 3)]
    bounds = [(0, 50_000), (50_000, 100_000), (100_000, n)]
    for k, (lo, hi) in enumerate(bounds, start=1):
        part = assert_valid((tmp_path / f"sitemap-{k}.xml").read_bytes(), "sitemap")
        assert locs(part) == [f"https://ex.com/p/{i}" for i in range(lo, hi)]
        newest = max(lastmod(i) for i in range(lo, hi))
        listed = index.findall("sm:sitemap", NS)[k - 1].findtext("sm:lastmod", namespaces=NS)
        assert listed == newest.isoformat()


def test_byte_limit_split_keeps_every_part_under_it(tmp_path: Path) -> None:
    limit = 60_000
    long_path = "segment/" * 120  # about 1 KB per URL
    entries = [
        Entry(
            f"https://ex.com/{long_path}{i}",
            images=[Image(f"https://ex.com/{i}.png")] if i % 7 == 0 else (),
        )
        for i in range(300)
    ]
    count, _ = split_write(iter(entries), tmp_path / "sitemap.xml", max_file_bytes=limit)
    assert count == 300
    parts = sorted(
        (p for p in tmp_path.iterdir() if p.name.startswith("sitemap-")),
        key=lambda p: int(p.stem.split("-")[1]),
    )
    assert len(parts) >= 5
    seen: list[str] = []
    for part in parts:
        size = os.path.getsize(part)
        assert size <= limit, part.name
        if part != parts[-1]:  # parts are filled, not cut early
            assert size > limit - 2_500, part.name
        root = assert_valid(part.read_bytes(), "extensions")
        seen += locs(root)
    assert seen == [e.loc for e in entries]
    index = assert_valid((tmp_path / "sitemap.xml").read_bytes(), "siteindex")
    assert len(index) == len(parts)
    assert index.find("sm:sitemap/sm:lastmod", NS) is None  # no entry had a lastmod


def test_each_part_declares_only_its_own_namespaces(tmp_path: Path) -> None:
    entries = [
        Entry("https://ex.com/a"),
        Entry("https://ex.com/b"),
        Entry("https://ex.com/c", images=[Image("https://ex.com/c.png")]),
    ]
    split_write(entries, tmp_path / "sitemap.xml", max_urls=2)
    assert b"xmlns:image" not in (tmp_path / "sitemap-1.xml").read_bytes()
    second = (tmp_path / "sitemap-2.xml").read_bytes()
    assert b"xmlns:image" in second
    assert_valid(second, "extensions")


def test_index_lastmod_is_the_newest_whatever_its_form(tmp_path: Path) -> None:
    entries = [
        Entry("https://ex.com/a", lastmod=dt.date(2024, 5, 2)),
        Entry(
            "https://ex.com/b",
            lastmod=dt.datetime(2024, 5, 1, 23, 0, tzinfo=dt.timezone(-dt.timedelta(hours=5))),
        ),
        Entry("https://ex.com/c", lastmod=dt.datetime(2024, 5, 1, 12, 0)),
        Entry("https://ex.com/d"),
        Entry("https://ex.com/e", lastmod=dt.date(2023, 1, 1)),
    ]
    split_write(entries, tmp_path / "sitemap.xml", max_urls=3)
    index = assert_valid((tmp_path / "sitemap.xml").read_bytes(), "siteindex")
    assert [s.findtext("sm:lastmod", namespaces=NS) for s in index] == [
        "2024-05-01T23:00:00-05:00",
        "2023-01-01",
    ]


def test_gzip_parts_are_named_xml_gz(tmp_path: Path) -> None:
    entries = (Entry(f"https://ex.com/{i}") for i in range(5))
    split_write(entries, tmp_path / "sitemap.xml.gz", max_urls=2, base_url="https://ex.com/maps")
    assert sorted(os.listdir(tmp_path)) == [
        "sitemap-1.xml.gz",
        "sitemap-2.xml.gz",
        "sitemap-3.xml.gz",
        "sitemap.xml.gz",
    ]
    index = assert_valid(gzip.decompress((tmp_path / "sitemap.xml.gz").read_bytes()), "siteindex")
    assert locs(index, "sitemap") == [f"https://ex.com/maps/sitemap-{k}.xml.gz" for k in (1, 2, 3)]
    last = assert_valid(gzip.decompress((tmp_path / "sitemap-3.xml.gz").read_bytes()))
    assert locs(last) == ["https://ex.com/4"]


def test_part_name_option(tmp_path: Path) -> None:
    split_write(
        (Entry(f"https://ex.com/{i}") for i in range(3)),
        tmp_path / "index.xml",
        max_urls=2,
        part_name="pages",
    )
    assert sorted(os.listdir(tmp_path)) == ["index.xml", "pages-1.xml", "pages-2.xml"]


def test_everything_fitting_in_one_file_gives_a_plain_sitemap(tmp_path: Path) -> None:
    count, warnings = split_write([Entry("https://ex.com/a")], tmp_path / "sitemap.xml")
    assert count == 1 and warnings == []
    assert os.listdir(tmp_path) == ["sitemap.xml"]
    root = assert_valid((tmp_path / "sitemap.xml").read_bytes(), "sitemap")
    assert locs(root) == ["https://ex.com/a"]


def test_limits_above_the_protocol_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="max_urls"):
        split_write([], tmp_path / "s.xml", max_urls=50_001)
    with pytest.raises(WriteError, match="max_file_bytes"):
        split_write([], tmp_path / "s.xml", max_file_bytes=PROTOCOL_MAX_BYTES + 1)
    with pytest.raises(WriteError, match="no room"):
        split_write([], tmp_path / "s.xml", max_file_bytes=300)
    assert os.listdir(tmp_path) == []


def test_splitting_rejects_a_base_url_that_is_not_http(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match="base_url"):
        split_write([Entry("https://ex.com/a")], tmp_path / "s.xml", base_url="ftp://ex.com/")


def test_without_base_url_parts_are_listed_at_the_site_root(tmp_path: Path) -> None:
    entries = [Entry(f"https://www.ex.com/p/{i}") for i in range(3)]
    _, said = split_write(entries, tmp_path / "s.xml", base_url=None, max_urls=2)
    index = (tmp_path / "s.xml").read_text()
    assert "<loc>https://www.ex.com/s-1.xml</loc>" in index
    assert "<loc>https://www.ex.com/s-2.xml</loc>" in index
    assert any("no base_url given" in m for m in said)


def test_an_entry_bigger_than_a_file_is_an_error(tmp_path: Path) -> None:
    entry = Entry("https://ex.com/a", images=[Image("https://ex.com/i", caption="x" * 5_000)])
    with pytest.raises(WriteError, match="alone is"):
        split_write([entry], tmp_path / "s.xml", max_file_bytes=2_000)


def test_failure_midway_leaves_no_parts_and_old_files_untouched(tmp_path: Path) -> None:
    (tmp_path / "sitemap.xml").write_bytes(b"old index")
    (tmp_path / "sitemap-1.xml").write_bytes(b"old part")

    def entries() -> Iterator[Entry]:
        for i in range(7):
            yield Entry(f"https://ex.com/{i}")
        raise SitemapError("input broke midway", source="in.xml")

    with pytest.raises(SitemapError, match="midway"):
        split_write(entries(), tmp_path / "sitemap.xml", max_urls=2)
    assert sorted(os.listdir(tmp_path)) == ["sitemap-1.xml", "sitemap.xml"]
    assert (tmp_path / "sitemap.xml").read_bytes() == b"old index"
    assert (tmp_path / "sitemap-1.xml").read_bytes() == b"old part"


def test_split_to_a_stream_only_warns(tmp_path: Path) -> None:
    import io

    out = io.BytesIO()
    warnings: list[str] = []
    entries = [Entry(f"https://ex.com/{i}") for i in range(3)]
    sitemapconv.write(entries, out, "xml", split=True, max_urls=2, on_warning=warnings.append)
    assert out.getvalue().count(b"<url>") == 3
    assert len(warnings) == 1 and "3 URLs (limit 2)" in warnings[0]


@pytest.mark.parametrize(
    ("target", "gz", "expected"),
    [
        ("out/sitemap.xml", False, ("out", "sitemap-1.xml")),
        ("out/sitemap.xml.gz", True, ("out", "sitemap-1.xml.gz")),
        ("sitemap.xml", True, ("", "sitemap-1.xml.gz")),
        ("maps/site", False, ("maps", "site-1.xml")),
    ],
)
def test_part_names(target: str, gz: bool, expected: tuple[str, str]) -> None:
    names = PartName.for_target(target, None, gz)
    assert (names.directory, names.file_name(1)) == expected


def test_split_parts_read_back_in_order_through_the_index(tmp_path: Path, httpserver: Any) -> None:
    """120,000 URLs split, served over loopback, read back with follow: all, in order."""
    from werkzeug import Request, Response

    n = 120_000
    base = httpserver.url_for("/maps/")
    entries = (Entry(f"https://ex.com/p/{i}") for i in range(n))
    count, _ = split_write(entries, tmp_path / "sitemap.xml", base_url=base)
    assert count == n

    def serve(request: Request) -> Response:
        return Response((tmp_path / request.path.rsplit("/", 1)[-1]).read_bytes())

    httpserver.expect_request("/maps/sitemap.xml").respond_with_handler(serve)
    for k in (1, 2, 3):
        httpserver.expect_request(f"/maps/sitemap-{k}.xml").respond_with_handler(serve)
    with sitemapconv.read(base + "sitemap.xml", follow=True) as doc:
        back = [e.loc for e in doc]
    assert back == [f"https://ex.com/p/{i}" for i in range(n)]
