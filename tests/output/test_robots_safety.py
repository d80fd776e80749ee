"""robots.txt: no Unicode line break in a Sitemap: URL; non-UTF-8 files never corrupted."""

from __future__ import annotations

from pathlib import Path
from urllib.robotparser import RobotFileParser

import pytest

from sitemapconv._robots import SitemapUrlError, check_sitemap_url, update_robots
from sitemapconv.errors import SitemapError

from ..conftest import Run

BREAKS = ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e"]


@pytest.mark.parametrize("brk", BREAKS)
def test_line_breaks_are_refused(brk: str) -> None:
    url = f"https://e.com/s.xml{brk}Disallow:/"
    with pytest.raises(SitemapUrlError, match="line break"):
        check_sitemap_url(url)


@pytest.mark.parametrize("brk", ["\u2028", "\x85"])
def test_the_cli_refuses_and_leaves_robots_alone(cli: Run, tmp_path: Path, brk: str) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"User-agent: *\nAllow: /\n")
    proc = cli(
        "--update-robots", str(robots), "--sitemap-url", f"https://e.com/s.xml{brk}Disallow:/"
    )
    assert proc.returncode == 2
    stderr = proc.stderr.decode()
    assert len(stderr.splitlines()) == 1 and "line break" in stderr
    assert robots.read_bytes() == b"User-agent: *\nAllow: /\n"
    parser = RobotFileParser()
    parser.parse(robots.read_text().splitlines())
    assert parser.can_fetch("bot", "https://e.com/page")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_robots_is_edited_in_utf16(tmp_path: Path, codec: str) -> None:
    bom = "\ufeff".encode(codec)
    robots = tmp_path / "robots.txt"
    robots.write_bytes(bom + "User-agent: *\r\nDisallow: /privé\r\n".encode(codec))
    done = update_robots(robots, "https://e.com/s.xml")
    assert done.action == "added"
    data = robots.read_bytes()
    assert data.startswith(bom)
    assert (
        data[2:].decode(codec)
        == "User-agent: *\r\nDisallow: /privé\r\nSitemap: https://e.com/s.xml\r\n"
    )
    assert update_robots(robots, "https://e.com/s.xml").action == "unchanged"
    assert robots.read_bytes() == data


def test_utf16_without_bom_or_broken_is_refused(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    for data in (
        "User-agent: *\n".encode("utf-16-le"),
        b"\xff\xfeU\x00\x00\xd8",
        b"\xff\xfe\x00\x00U\x00\x00\x00",
    ):
        robots.write_bytes(data)
        with pytest.raises(SitemapError, match=str(robots)):
            update_robots(robots, "https://e.com/s.xml")
        assert robots.read_bytes() == data


def test_latin1_robots_keeps_its_bytes(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_bytes("Disallow: /café\n".encode("latin-1"))
    update_robots(robots, "https://e.com/s.xml")
    assert robots.read_bytes() == "Disallow: /café\nSitemap: https://e.com/s.xml\n".encode(
        "latin-1"
    )
    with pytest.raises(SitemapError, match="not UTF-8"):
        update_robots(robots, "https://e.com/carte-é.xml")
