"""Output destinations (``_sink``): atomic paths, stdout, binary streams and gzip.

Real files in ``tmp_path``, ``/dev/full`` for a full disk and a real child process for
stdout; nothing is mocked.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sitemapconv._sink import dest_name, open_dest
from sitemapconv.errors import WriteError


class Boom(Exception):
    pass


def test_a_path_appears_only_when_the_write_succeeds(tmp_path: Path) -> None:
    target = tmp_path / "out.xml"
    with open_dest(target) as out:
        out.write(b"new")
        assert not target.exists()  # still a temporary file beside it
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml"]


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out.xml"
    target.write_bytes(b"old")
    with pytest.raises(Boom), open_dest(str(target)) as out:
        out.write(b"half")
        raise Boom
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml"]


def test_gzip_output_is_deterministic(tmp_path: Path) -> None:
    first, second = tmp_path / "a.xml.gz", tmp_path / "b.xml.gz"
    for path in (first, second):
        with open_dest(path, gzip_output=True) as out:
            out.write(b"<urlset/>\n")
    assert first.read_bytes() == second.read_bytes()  # mtime 0 and no file name inside
    assert gzip.decompress(first.read_bytes()) == b"<urlset/>\n"
    assert first.read_bytes()[4:8] == b"\0\0\0\0"


def test_a_binary_stream_is_written_in_place_and_left_open() -> None:
    buffer = io.BytesIO()
    with open_dest(buffer, gzip_output=True) as out:
        out.write(b"x" * 1000)
    assert not buffer.closed
    assert gzip.decompress(buffer.getvalue()) == b"x" * 1000


def test_a_full_disk_is_a_write_error_naming_the_destination() -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with pytest.raises(WriteError) as info, open_dest("/dev/full") as out:
        out.write(b"x" * (1 << 20))
        out.flush()
    assert info.value.source == "/dev/full"
    assert "cannot write" in str(info.value)


def test_a_missing_directory_is_a_write_error(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "out.xml"
    with pytest.raises(WriteError) as info, open_dest(target) as out:
        out.write(b"x")
    assert info.value.source == str(target)
    assert not (tmp_path / "no").exists()


def test_names_for_messages(tmp_path: Path) -> None:
    assert dest_name("-") == "<stdout>"
    assert dest_name(tmp_path / "o.xml") == str(tmp_path / "o.xml")
    assert dest_name(io.BytesIO()) == "<stream>"
    with open(tmp_path / "named.bin", "wb") as fh:
        assert dest_name(fh) == str(tmp_path / "named.bin")


def test_dash_writes_stdout_gzipped_when_asked() -> None:
    code = (
        "from sitemapconv._sink import open_dest\n"
        "with open_dest('-', gzip_output=True) as out:\n"
        "    out.write(b'hello\\n')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    assert done.returncode == 0, done.stderr
    assert gzip.decompress(done.stdout) == b"hello\n"
