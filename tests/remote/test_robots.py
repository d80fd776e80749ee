"""robots.txt: parsing Sitemap: lines and updating a file without touching anything else."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitemapconv._robots import (
    SitemapUrlError,
    same_url,
    sitemap_line,
    sitemaps_from_robots,
    update_robots,
    updated_robots,
)
from sitemapconv.errors import SitemapError

URL = "https://example.com/sitemap.xml"
ROBOTS = b"User-agent: *\nDisallow: /private/\n\nSitemap: https://example.com/news.xml\n"


# --- parsing -------------------------------------------------------------------------------


def test_parser_matches_the_field_case_insensitively_and_trims() -> None:
    text = (
        "User-agent: *\n"
        "Sitemap: https://a.example/one.xml\n"
        "  sitemap:https://a.example/two.xml   \n"
        "SITEMAP :\thttps://a.example/three.xml # the news\n"
        "Disallow: /sitemap: not this\n"
        "# Sitemap: https://a.example/commented-out.xml\n"
        "Sitemap:\n"
        "Sitemaps: https://a.example/wrong-field.xml\n"
        "sitemap: https://a.example/Four.XML?x=%7e&y=1\n"
    )
    assert sitemaps_from_robots(text) == [
        "https://a.example/one.xml",
        "https://a.example/two.xml",
        "https://a.example/three.xml",
        "https://a.example/Four.XML?x=%7e&y=1",
    ]


def test_parser_handles_every_line_ending_bom_and_bytes() -> None:
    data = b"\xef\xbb\xbfSitemap: https://a.example/1\r\nSitemap: https://a.example/2\r"
    data += b"Sitemap: https://a.example/3\nDisallow: /\xff\nSitemap: https://a.example/4"
    expected = [f"https://a.example/{n}" for n in (1, 2, 3, 4)]
    assert sitemaps_from_robots(data) == expected
    assert sitemaps_from_robots(data.decode("utf-8", "replace")) == expected


def test_parser_keeps_duplicates_and_ignores_groups() -> None:
    text = (
        "User-agent: a\nSitemap: https://x.example/s\nUser-agent: b\nSitemap: https://x.example/s"
    )
    assert sitemaps_from_robots(text) == ["https://x.example/s", "https://x.example/s"]


def test_parser_on_nothing() -> None:
    assert sitemaps_from_robots("") == []
    assert sitemaps_from_robots("User-agent: *\nDisallow:\n") == []


# --- the line ------------------------------------------------------------------------------


def test_sitemap_line() -> None:
    assert sitemap_line(URL) == f"Sitemap: {URL}"


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "/sitemap.xml",
        "example.com/sitemap.xml",
        "ftp://example.com/sitemap.xml",
        "https://example.com/a b.xml",
        "https://example.com/s.xml\nDisallow: /",
        "https://example.com/s.xml#frag",
        "https://example.com:99999/s.xml",
    ],
)
def test_sitemap_line_rejects_what_robots_txt_cannot_hold(bad: str) -> None:
    with pytest.raises(SitemapUrlError):
        sitemap_line(bad)


def test_same_url() -> None:
    assert same_url(URL, "HTTPS://Example.COM:443/sitemap.xml")
    assert same_url("http://example.com", "http://example.com/")
    assert not same_url(URL, "http://example.com/sitemap.xml")
    assert not same_url(URL, "https://example.com/Sitemap.xml")
    assert not same_url(URL, "https://example.com:8443/sitemap.xml")


# --- updating bytes --------------------------------------------------------------------------


def test_appends_after_a_final_newline() -> None:
    new, action = updated_robots(ROBOTS, URL)
    assert action == "added"
    assert new == ROBOTS + f"Sitemap: {URL}\n".encode()


def test_appends_with_the_files_own_line_ending() -> None:
    data = b"User-agent: *\r\nDisallow: /a\r\n"
    assert updated_robots(data, URL)[0] == data + f"Sitemap: {URL}\r\n".encode()
    data = b"User-agent: *\rDisallow: /a\r"
    assert updated_robots(data, URL)[0] == data + f"Sitemap: {URL}\r".encode()


def test_a_file_without_final_newline_keeps_having_none() -> None:
    data = b"User-agent: *\r\nDisallow: /a"
    new, action = updated_robots(data, URL)
    assert (new, action) == (data + f"\r\nSitemap: {URL}".encode(), "added")
    one_line = b"User-agent: *"
    assert updated_robots(one_line, URL)[0] == one_line + f"\nSitemap: {URL}".encode()


def test_empty_file_and_bom_only_file() -> None:
    assert updated_robots(b"", URL) == (f"Sitemap: {URL}\n".encode(), "added")
    bom = b"\xef\xbb\xbf"
    assert updated_robots(bom, URL) == (bom + f"Sitemap: {URL}\n".encode(), "added")


def test_bom_and_invalid_utf8_elsewhere_are_kept() -> None:
    data = b"\xef\xbb\xbfUser-agent: *\nDisallow: /caf\xe9\n"
    new, _ = updated_robots(data, URL)
    assert new == data + f"Sitemap: {URL}\n".encode()


def test_exact_url_already_present_changes_nothing() -> None:
    for data in (
        ROBOTS + f"Sitemap: {URL}\n".encode(),
        f"sitemap:{URL}   # main\r\nUser-agent: *".encode(),
        f"\ufeffSITEMAP: {URL}".encode(),
    ):
        assert updated_robots(data, URL) == (data, "unchanged")


def test_equivalent_url_is_replaced_in_place() -> None:
    data = (
        b"User-agent: *\r\n"
        b"sitemap: HTTPS://Example.COM:443/sitemap.xml   # main one\r\n"
        b"Disallow: /x\r\n"
        b"Sitemap: https://example.com/news.xml"
    )
    new, action = updated_robots(data, URL)
    assert action == "replaced"
    assert new == (
        b"User-agent: *\r\n"
        b"Sitemap: https://example.com/sitemap.xml # main one\r\n"
        b"Disallow: /x\r\n"
        b"Sitemap: https://example.com/news.xml"
    )
    assert updated_robots(new, URL) == (new, "unchanged")


def test_equivalent_url_on_the_first_line_keeps_the_bom() -> None:
    data = b"\xef\xbb\xbfSitemap: https://EXAMPLE.com/sitemap.xml\n"
    assert updated_robots(data, URL)[0] == f"\ufeffSitemap: {URL}\n".encode()


_LINE = st.sampled_from(
    [
        b"User-agent: *",
        b"Disallow: /a",
        b"Allow: /caf\xc3\xa9",
        b"# comment \xff",
        b"",
        b"   ",
        b"Sitemap: https://example.com/other.xml",
        b"sitemap:http://example.com/sitemap.xml",
        b"Crawl-delay: 10",
    ]
)
_EOL = st.sampled_from([b"\n", b"\r\n", b"\r"])


@given(
    lines=st.lists(st.tuples(_LINE, _EOL), max_size=12),
    last_eol=st.booleans(),
    bom=st.booleans(),
)
def test_update_properties(lines: list[tuple[bytes, bytes]], last_eol: bool, bom: bool) -> None:
    data = b"".join(line + eol for line, eol in lines)
    if lines and not last_eol:
        data = data[: -len(lines[-1][1])]
    if bom:
        data = b"\xef\xbb\xbf" + data
    new, action = updated_robots(data, URL)
    assert URL in sitemaps_from_robots(new)
    assert updated_robots(new, URL) == (new, "unchanged")  # idempotent
    assert action == "added"  # no line in _LINE is equivalent to URL
    # every original byte is kept, in order, with only a separator and the line added
    assert new.startswith(data)
    tail = new[len(data) :]
    assert tail.strip(b"\r\n") == f"Sitemap: {URL}".encode()
    assert sitemaps_from_robots(new)[:-1] == sitemaps_from_robots(data)


# --- updating files --------------------------------------------------------------------------


def test_update_robots_file(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(ROBOTS)
    path.chmod(0o640)
    done = update_robots(path, URL)
    assert (done.action, done.changed, done.line) == ("added", True, f"Sitemap: {URL}")
    assert path.read_bytes() == ROBOTS + f"Sitemap: {URL}\n".encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["robots.txt"]  # no temp file left


def test_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(ROBOTS)
    update_robots(path, URL)
    inode = path.stat().st_ino
    assert update_robots(path, URL).action == "unchanged"
    assert path.stat().st_ino == inode


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(ROBOTS)
    assert update_robots(path, URL, dry_run=True).action == "added"
    assert path.read_bytes() == ROBOTS


def test_missing_file_is_an_error_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    with pytest.raises(SitemapError, match=r"robots\.txt: no such file"):
        update_robots(path, URL)
    assert not path.exists()


def test_bad_url_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(ROBOTS)
    with pytest.raises(SitemapUrlError):
        update_robots(path, "https://example.com/x\nDisallow: /")
    assert path.read_bytes() == ROBOTS


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_read_only_directory_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = tmp_path / "robots.txt"
    path.write_bytes(ROBOTS)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(SitemapError, match="cannot write"):
            update_robots(path, URL)
        assert path.read_bytes() == ROBOTS
        assert [p.name for p in tmp_path.iterdir()] == ["robots.txt"]
    finally:
        tmp_path.chmod(0o755)
