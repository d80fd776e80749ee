"""gzip bombs: 2 GiB of spaces in about 2 MB stop at the size cap, from files and over HTTP.

sitemapconv._source inflates incrementally with a bounded output per call (``_Gunzip``) under
a byte counter (``_Capped``), so the bomb must stop with a LimitError after about ``max_bytes``
of output, having consumed only the compressed bytes that make that much.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv._options import DEFAULT_MAX_BYTES, ReadOptions
from sitemapconv._source import open_source
from sitemapconv.errors import FormatError, LimitError

from .documents import DECLARATION, KINDS, Kind
from .measure import measure
from .payloads import BOMB_SIZE

FORMATS = ["xml", "index", "rss", "atom", "atom03", "txt", "feedparser", "jsonfeed"]


def test_the_bomb_is_small_and_inflates_to_2_gib(space_bomb: Path) -> None:
    assert 1_500_000 < space_bomb.stat().st_size < 3_000_000
    with gzip.open(space_bomb) as f:  # the start only: the whole would be 2 GiB
        assert f.read(1 << 20) == b" " * (1 << 20)


class CountingFile(io.RawIOBase):
    """A real file read through a counter of the compressed bytes taken from it."""

    def __init__(self, path: Path) -> None:
        self._f = path.open("rb")
        self.taken = 0
        self.name = str(path)

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        n = self._f.readinto(b)
        self.taken += n
        return n

    def close(self) -> None:
        self._f.close()
        super().close()


@pytest.mark.parametrize("cap", [DEFAULT_MAX_BYTES, 10 * 1024 * 1024])
def test_inflation_stops_near_the_cap(space_bomb: Path, cap: int) -> None:
    ratio = BOMB_SIZE / space_bomb.stat().st_size
    raw = CountingFile(space_bomb)
    opened = open_source(raw, ReadOptions(max_bytes=cap))  # type: ignore[arg-type]
    passed = 0  # the stream replays the head before the rest
    with pytest.raises(LimitError, match="size cap"):
        while chunk := opened.stream.read(1 << 16):
            passed += len(chunk)
    opened.close()
    raw.close()
    # Every byte up to the cap came out, and nothing past it ...
    assert cap - (1 << 17) <= passed <= cap
    # ... and the compressed input taken makes no more than the cap plus a few read chunks.
    inflatable = raw.taken * ratio
    assert inflatable < cap + 4 * (64 * 1024) * ratio, f"{inflatable / 2**20:.0f} MiB"


def test_bomb_is_not_a_sitemap_when_detected(space_bomb: Path) -> None:
    result = measure("gzip bomb, 2 GiB of spaces", space_bomb)
    result.check_bounds()
    assert (result.outcome, result.error_type) == ("error", "FormatError")
    with pytest.raises(FormatError, match="empty input"):
        sitemapconv.read(space_bomb)


@pytest.mark.slow
@pytest.mark.parametrize("format", FORMATS)
def test_bomb_forced_through_each_reader_stops_at_the_cap(space_bomb: Path, format: str) -> None:
    result = measure("gzip bomb, 2 GiB of spaces", space_bomb, format)
    result.check_bounds()
    assert (result.outcome, result.error_type) == ("error", "LimitError"), result
    assert str(space_bomb) in (result.message or "")
    assert result.count == 0


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_bomb_after_a_valid_start_yields_the_start_then_stops(
    space_bomb: Path, kind: Kind, tmp_path: Path
) -> None:
    """A first gzip member with the document start and one item, then the bomb member."""
    start = (DECLARATION + kind.start() + kind.entry("a")).encode()
    path = tmp_path / f"{kind.name}.gz"
    path.write_bytes(gzip.compress(start) + space_bomb.read_bytes())
    result = measure(f"gzip bomb after a {kind.name} start", path)
    result.check_bounds()
    assert (result.outcome, result.error_type) == ("error", "LimitError"), result
    assert result.format == kind.format


def test_text_list_then_bomb(space_bomb: Path, tmp_path: Path) -> None:
    path = tmp_path / "list.gz"
    path.write_bytes(gzip.compress(b"https://e.com/a\nhttps://e.com/b\n") + space_bomb.read_bytes())
    result = measure("gzip bomb after a txt start", path)
    result.check_bounds()
    assert (result.outcome, result.error_type, result.format) == ("error", "LimitError", "txt")


@pytest.mark.parametrize("content_encoding", [None, "gzip"])
def test_bomb_over_http(
    space_bomb: Path, loopback: HTTPServer, content_encoding: str | None
) -> None:
    body = gzip.compress((DECLARATION + KINDS[0].start() + KINDS[0].entry("a")).encode())
    body += space_bomb.read_bytes()
    headers = {"Content-Encoding": content_encoding} if content_encoding else {}
    loopback.expect_request("/sitemap.xml.gz").respond_with_data(
        body, content_type="application/gzip", headers=headers
    )
    url = loopback.url_for("/sitemap.xml.gz")
    result = measure(f"gzip bomb over HTTP (Content-Encoding: {content_encoding})", url)
    result.check_bounds()
    assert (result.outcome, result.error_type) == ("error", "LimitError"), result
    assert url in (result.message or "")
    assert len(loopback.log) == 1
