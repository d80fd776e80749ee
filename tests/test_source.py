"""Opening inputs (``_source``): paths, bytes, streams, ``file:`` URLs, stdin, gzip and caps.

Real files in ``tmp_path`` and a real child process for stdin; nothing is mocked.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemapconv._options import ReadOptions
from sitemapconv._source import open_source, shown_location
from sitemapconv.errors import LimitError, SitemapError

BODY = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n'
    b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    b"<url><loc>https://example.com/a</loc></url></urlset>\n"
)


def read_all(source: object, **options: object) -> tuple[bytes, str, str | None, bool]:
    opened = open_source(source, ReadOptions(**options))  # type: ignore[arg-type]
    try:
        return opened.stream.read(), opened.name, opened.url, opened.gzipped
    finally:
        opened.close()


def test_a_path_is_named_by_its_path_and_gives_no_url(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_bytes(BODY)
    assert read_all(path) == (BODY, str(path), None, False)
    assert read_all(str(path)) == (BODY, str(path), None, False)


def test_the_head_is_the_start_of_the_stream(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_bytes(BODY)
    opened = open_source(path, ReadOptions())
    try:
        assert BODY.startswith(bytes(opened.head.data)[:40])
        assert opened.stream.read() == BODY  # the head is replayed, not lost
    finally:
        opened.close()


def test_bytes_and_a_binary_stream() -> None:
    assert read_all(BODY) == (BODY, "<bytes>", None, False)
    assert read_all(bytearray(BODY))[0] == BODY
    assert read_all(io.BytesIO(BODY)) == (BODY, "<stream>", None, False)


def test_a_file_url_is_a_location_links_resolve_against(tmp_path: Path) -> None:
    path = tmp_path / "a b.xml"
    path.write_bytes(BODY)
    url = path.as_uri()  # file:///.../a%20b.xml
    assert read_all(url) == (BODY, str(path), url, False)


def test_base_url_is_the_location_when_given(tmp_path: Path) -> None:
    path = tmp_path / "s.xml"
    path.write_bytes(BODY)
    assert read_all(path, base_url="https://example.com/")[2] == "https://example.com/"


def test_gzip_is_told_by_its_magic_bytes_not_the_name(tmp_path: Path) -> None:
    packed = tmp_path / "plain-name.xml"
    packed.write_bytes(gzip.compress(BODY))
    not_packed = tmp_path / "named.xml.gz"
    not_packed.write_bytes(BODY)
    assert read_all(packed)[0::3] == (BODY, True)
    assert read_all(not_packed)[0::3] == (BODY, False)


def test_gzip_twice_is_undone_twice(tmp_path: Path) -> None:
    path = tmp_path / "twice.xml.gz"
    path.write_bytes(gzip.compress(gzip.compress(BODY)))
    warnings: list[str] = []
    assert read_all(path, on_warning=warnings.append)[0] == BODY


def test_the_size_cap_counts_decompressed_bytes(tmp_path: Path) -> None:
    path = tmp_path / "big.xml.gz"
    path.write_bytes(gzip.compress(b" " * 200_000 + BODY))  # a few hundred bytes on disk
    assert path.stat().st_size < 2_000
    with pytest.raises(LimitError):
        read_all(path, max_bytes=100_000)
    assert read_all(path, max_bytes=300_000)[0].endswith(BODY)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing.xml", "no such file"),
        (lambda p: p, "is a directory"),
        (lambda p: str(p / "nul\x00.xml"), "NUL"),
    ],
)
def test_paths_that_cannot_be_opened_name_the_problem(
    tmp_path: Path, make: object, message: str
) -> None:
    with pytest.raises(SitemapError, match=message):
        read_all(make(tmp_path))  # type: ignore[operator]


def test_an_unreadable_file_is_one_error(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files without read permission")
    path = tmp_path / "locked.xml"
    path.write_bytes(BODY)
    path.chmod(0)
    with pytest.raises(SitemapError, match="cannot open"):
        read_all(path)


def test_an_unsupported_source_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="int"):
        read_all(42)


def run_child(code: str, stdin: bytes | None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", code],
        input=stdin,
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )


STDIN_CODE = """
import sys
from sitemapconv._options import ReadOptions
from sitemapconv._source import open_source
opened = open_source("-", ReadOptions())
sys.stdout.buffer.write(opened.name.encode() + b"|" + str(opened.gzipped).encode() + b"|")
sys.stdout.buffer.write(opened.stream.read())
"""


def test_dash_reads_stdin_and_undoes_gzip_there_too() -> None:
    done = run_child(STDIN_CODE, gzip.compress(BODY))
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"<stdin>|True|" + BODY


def test_a_closed_stdin_is_one_error() -> None:
    code = "import sys; sys.stdin = None\n" + STDIN_CODE
    done = run_child(code, b"")
    assert done.returncode == 1
    assert b"SitemapError" in done.stderr and b"stdin is closed" in done.stderr


def test_shown_location_never_shows_a_file_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    assert shown_location((tmp_path / "sub" / "c.xml").as_uri()) == os.path.join("sub", "c.xml")
    outside = Path("/") / "elsewhere" / "c.xml"
    assert shown_location(outside.as_uri()) == str(outside)
    assert shown_location("https://example.com/c.xml") == "https://example.com/c.xml"
