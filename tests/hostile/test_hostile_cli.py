"""The installed console script on hostile input: one clean error line and exit 1, or a result.

A run that fails prints exactly one ``sitemapconv: error: ...`` line (warnings before it are
``sitemapconv: warning: ...`` lines), never a traceback, and exits 1; a run that recovers exits
0. An existing output file is never replaced by a failed run, and no temporary file is left.
"""

from __future__ import annotations

import gzip
import secrets
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.conftest import Run

from .documents import BY_NAME, DECLARATION
from .payloads import nested

OLD = b"<previous output, must survive>\n"


def check_clean(proc: object, *, code: int) -> list[str]:
    """Assert the exit code and a clean stderr; return the stderr lines."""
    returncode: int = proc.returncode  # type: ignore[attr-defined]
    stderr: bytes = proc.stderr  # type: ignore[attr-defined]
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text[-3000:]
    assert returncode == code, text[-3000:]
    lines = text.splitlines()
    assert all(line.startswith("sitemapconv: ") for line in lines), text[-3000:]
    errors = [line for line in lines if line.startswith("sitemapconv: error: ")]
    assert len(errors) == (1 if code == 1 else 0), text[-3000:]
    return lines


def unchanged(out: Path) -> None:
    assert out.read_bytes() == OLD
    leftovers = [p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.")]
    assert leftovers == []


@pytest.fixture
def out(tmp_path: Path) -> Path:
    path = tmp_path / "out" / "result.xml"
    path.parent.mkdir()
    path.write_bytes(OLD)
    return path


@pytest.fixture
def start_then_bomb(space_bomb: Path, tmp_path: Path) -> Path:
    kind = BY_NAME["xml"]
    path = tmp_path / "bomb.xml.gz"
    start = (DECLARATION + kind.start() + kind.entry("a")).encode()
    path.write_bytes(gzip.compress(start) + space_bomb.read_bytes())
    return path


def test_gzip_bomb_fails_cleanly_and_keeps_the_output(
    cli: Run, start_then_bomb: Path, out: Path
) -> None:
    proc = cli(str(start_then_bomb), "-o", str(out))
    lines = check_clean(proc, code=1)
    assert "size cap" in lines[-1]
    assert str(start_then_bomb) in lines[-1]
    unchanged(out)


def test_gzip_bomb_forced_as_rss(cli: Run, space_bomb: Path, out: Path) -> None:
    proc = cli(str(space_bomb), "-f", "rss", "-o", str(out))
    check_clean(proc, code=1)
    unchanged(out)


def test_gzip_bomb_alone_is_not_a_sitemap(cli: Run, space_bomb: Path, out: Path) -> None:
    proc = cli(str(space_bomb), "-o", str(out))
    lines = check_clean(proc, code=1)
    assert "not a sitemap or feed" in lines[-1]
    unchanged(out)


@pytest.mark.parametrize("content_encoding", [None, "gzip"])
def test_gzip_bomb_over_http(
    cli: Run,
    start_then_bomb: Path,
    out: Path,
    loopback: HTTPServer,
    content_encoding: str | None,
) -> None:
    headers = {"Content-Encoding": content_encoding} if content_encoding else {}
    loopback.expect_request("/s.xml").respond_with_data(
        start_then_bomb.read_bytes(), headers=headers
    )
    proc = cli(loopback.url_for("/s.xml"), "-o", str(out))
    lines = check_clean(proc, code=1)
    assert "size cap" in lines[-1]
    unchanged(out)


def test_external_entity_does_not_leak(cli: Run, tmp_path: Path) -> None:
    value = f"TOPSECRET-{secrets.token_hex(8)}"
    (tmp_path / "secret.txt").write_text(value)
    doctype = f'<!DOCTYPE r [<!ENTITY xxe SYSTEM "{(tmp_path / "secret.txt").as_uri()}">]>\n'
    source = tmp_path / "feed.xml"
    source.write_bytes(BY_NAME["rss"].document("a&xxe;", "b", prolog=DECLARATION + doctype))
    proc = cli(str(source), "-t", "atom")
    check_clean(proc, code=0)
    assert value.encode() not in proc.stdout + proc.stderr
    assert b"https://e.com/b" in proc.stdout


def test_billion_laughs_in_utf16(cli: Run, tmp_path: Path) -> None:
    from .test_hostile_entities import laughs

    source = tmp_path / "laughs.xml"
    body = BY_NAME["xml"].document("&xxe;", "b", prolog=DECLARATION + laughs())
    source.write_bytes(body.decode().replace("UTF-8", "UTF-16").encode("utf-16"))
    proc = cli(str(source), "-t", "txt")
    check_clean(proc, code=0)


def test_deep_nesting_as_root(cli: Run, tmp_path: Path, out: Path) -> None:
    source = tmp_path / "deep.xml"
    source.write_text(DECLARATION + nested(100_000))
    proc = cli(str(source), "-o", str(out))
    lines = check_clean(proc, code=1)
    assert "not a sitemap or feed" in lines[-1]
    unchanged(out)


def test_deep_nesting_inside_a_feed(cli: Run, tmp_path: Path) -> None:
    kind = BY_NAME["atom"]
    source = tmp_path / "deep.xml"
    body = kind.start() + kind.entry("a") + nested(100_000) + kind.entry("b") + kind.tail
    source.write_text(DECLARATION + body)
    proc = cli(str(source), "-t", "txt")
    lines = check_clean(proc, code=0)
    assert proc.stdout == b"https://e.com/a\n"
    assert any("depth" in line for line in lines)


def test_huge_line_in_a_text_list(cli: Run, tmp_path: Path) -> None:
    source = tmp_path / "list.txt"
    source.write_text("https://e.com/a\nhttps://e.com/" + "h" * 20 * 1024 * 1024 + "\n")
    proc = cli(str(source), "-t", "txt")
    check_clean(proc, code=0)
    assert proc.stdout == b"https://e.com/a\n"


def test_truncated_feed_gives_what_it_holds(cli: Run, tmp_path: Path) -> None:
    full = BY_NAME["rss"].document("a", "b", "c")
    source = tmp_path / "cut.xml"
    source.write_bytes(full[: full.index(b"/c")])
    proc = cli(str(source), "-t", "txt")
    lines = check_clean(proc, code=0)
    assert proc.stdout == b"https://e.com/a\nhttps://e.com/b\n"
    assert any("truncated" in line for line in lines)


@pytest.mark.parametrize(
    ("body", "forced"),
    [
        (b"", None),
        (b"\x00\x01\x02\xff" * 1000, None),
        (b"\x1f\x8b\x08\x00garbage", None),
        (b"just words", "xml"),
        (b"<html><body>no</body></html>", "rss"),
        (b"<<<<<<<<", "atom"),
    ],
    ids=["empty", "binary", "corrupt-gzip", "words-as-xml", "html-as-rss", "lt-as-atom"],
)
def test_unreadable_input_fails_cleanly(
    cli: Run, tmp_path: Path, out: Path, body: bytes, forced: str | None
) -> None:
    source = tmp_path / "input"
    source.write_bytes(body)
    args = [str(source), "-o", str(out)] + (["-f", forced] if forced else [])
    proc = cli(*args)
    check_clean(proc, code=1)
    unchanged(out)


def test_failure_after_entries_were_written_keeps_the_output(
    cli: Run, tmp_path: Path, out: Path
) -> None:
    """Entries stream to a temporary file, then the input turns out corrupt: the old file stays."""
    kind = BY_NAME["xml"]
    start = (DECLARATION + kind.start()).encode()
    entries = "".join(kind.entry(f"p{i}") for i in range(20_000)).encode()
    source = tmp_path / "big.xml.gz"
    source.write_bytes(gzip.compress(start + entries) + b"\x1f\x8b\x08\x00" + b"\xff" * 64)
    proc = cli(str(source), "-o", str(out))
    lines = check_clean(proc, code=1)
    assert "gzip" in lines[-1]
    unchanged(out)
