"""Where output goes: devices, FIFOs and sockets written in place, symlinks followed, long
names, directories refused. Real nodes, real links, the real console script."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import threading
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Entry, SitemapError, WriteError

from ..conftest import Run, _console_script
from .conftest import leftovers, needs_root, one_error_line

URLS = "https://example.com/a\nhttps://example.com/b\n"


@pytest.fixture
def urls(tmp_path: Path) -> Path:
    path = tmp_path / "in" / "urls.txt"
    path.parent.mkdir()
    path.write_text(URLS)
    return path


@needs_root
def test_a_character_device_is_written_in_place(cli: Run, urls: Path, tmp_path: Path) -> None:
    node = tmp_path / "null"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a null device, like /dev/null
    proc = cli(str(urls), "-o", str(node), "-t", "xml")
    assert proc.returncode == 0, proc.stderr
    st = os.lstat(node)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "null"]


@needs_root
def test_a_full_device_is_one_error_line(cli: Run, urls: Path, tmp_path: Path) -> None:
    # Nodes made in the temp folder, never /dev itself: on broken code this test must not
    # replace the machine's /dev/full with a regular file.
    node = tmp_path / "full"
    os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    proc = cli(str(urls), "-o", str(node), "-t", "txt")
    assert proc.returncode == 1
    line = one_error_line(proc.stderr)
    assert str(node) in line and "No space left on device" in line
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_dev_stdout_goes_to_stdout(cli: Run, urls: Path, tmp_path: Path) -> None:
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")  # what /dev/stdout is, in a folder of our own
    proc = cli(str(urls), "-o", str(link), "-t", "txt")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode() == URLS
    assert link.is_symlink()


def test_stdout_to_a_full_device_is_one_line(urls: Path) -> None:
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [_console_script(), str(urls), "-t", "txt"], stdout=full, stderr=subprocess.PIPE,
            timeout=60, check=False,
        )  # fmt: skip
    assert proc.returncode == 1
    assert "No space left on device" in one_error_line(proc.stderr)


def test_a_fifo_is_written_in_place(cli: Run, urls: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = cli(str(urls), "-o", str(fifo), "-t", "txt")
    if reader.is_alive() and stat.S_ISFIFO(os.lstat(fifo).st_mode):
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # release a reader left waiting
    reader.join(10)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got == [URLS.encode()]


def test_a_unix_socket_is_written_in_place(cli: Run, urls: Path, tmp_path: Path) -> None:
    path = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    server.settimeout(30)
    got = bytearray()

    def serve() -> None:
        try:
            conn, _ = server.accept()
        except OSError:
            return
        with conn:
            while chunk := conn.recv(65536):
                got.extend(chunk)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        proc = cli(str(urls), "-o", str(path), "-t", "txt")
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            server.shutdown(socket.SHUT_RDWR)
        thread.join(10)
    finally:
        server.close()
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert bytes(got) == URLS.encode()


def test_a_symlink_is_followed_and_stays_a_link(cli: Run, urls: Path, tmp_path: Path) -> None:
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "sitemap.xml"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    link_dir = tmp_path / "public"
    link_dir.mkdir()
    link = link_dir / "link.xml"
    link.symlink_to(target)
    proc = cli(str(urls), "-o", str(link))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert [e.loc for e in sitemapconv.read(str(target))] == URLS.split()
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    assert leftovers(real_dir) == [] and sorted(p.name for p in link_dir.iterdir()) == ["link.xml"]


def test_a_relative_and_dangling_symlink(cli: Run, urls: Path, tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    link = tmp_path / "current.txt"
    link.symlink_to("site/urls.txt")  # the target does not exist yet
    proc = cli(str(urls), "-o", str(link))
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink()
    assert (tmp_path / "site" / "urls.txt").read_text() == URLS


def test_update_robots_through_a_symlink(cli: Run, tmp_path: Path) -> None:
    real = tmp_path / "real-robots.txt"
    real.write_bytes(b"User-agent: *\nDisallow:\n")
    link = tmp_path / "robots.txt"
    link.symlink_to(real.name)
    proc = cli("--update-robots", str(link), "--sitemap-url", "https://example.com/s.xml")
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink()
    assert real.read_bytes() == b"User-agent: *\nDisallow:\nSitemap: https://example.com/s.xml\n"


def test_a_long_non_ascii_output_name(urls: Path, tmp_path: Path) -> None:
    name = "é" * 121 + ".txt"  # 246 bytes in UTF-8: NAME_MAX counts bytes
    sitemapconv.write(sitemapconv.read(str(urls)), str(tmp_path / name))
    assert (tmp_path / name).read_text() == URLS
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("split", [False, True])
def test_a_246_character_output_name(cli: Run, urls: Path, tmp_path: Path, split: bool) -> None:
    name = "s" * 242 + ".xml"
    assert len(name) == 246
    extra = ["--max-urls", "1", "--base-url", "https://example.com/"] if split else []
    proc = cli(str(urls), "-o", str(tmp_path / name), *extra)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / name).exists()
    assert leftovers(tmp_path) == []
    if split:
        assert (tmp_path / ("s" * 242 + "-2.xml")).exists()


def test_output_a_directory_is_one_line(cli: Run, urls: Path, tmp_path: Path) -> None:
    proc = cli(str(urls), "-t", "txt", "-o", str(tmp_path))
    assert proc.returncode == 1
    assert "is a directory" in one_error_line(proc.stderr)
    assert leftovers(tmp_path) == [] and leftovers(tmp_path.parent) == []


def test_library_refuses_bad_paths_without_creating_anything(tmp_path: Path) -> None:
    entries = [Entry("https://example.com/a")]
    folder = tmp_path / "d"
    folder.mkdir()
    before = sorted(tmp_path.iterdir())
    with pytest.raises(WriteError, match="is a directory"):
        sitemapconv.write(entries, str(folder), "txt")
    with pytest.raises(WriteError, match="empty"):
        sitemapconv.write(entries, "", "txt")
    with pytest.raises(WriteError, match="NUL"):
        sitemapconv.write(entries, str(tmp_path / "a\x00b.txt"), "txt")
    with pytest.raises(WriteError, match="does not exist"):
        sitemapconv.write(entries, str(tmp_path / "no" / "such.txt"), "txt")
    assert sorted(tmp_path.iterdir()) == before and list(folder.iterdir()) == []
    with pytest.raises(SitemapError, match="NUL"):
        sitemapconv.read("a\x00b")


def test_dev_stdout_appended_to_a_file_keeps_its_content(urls: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("earlier line\n")
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    with open(log, "ab") as out:
        proc = subprocess.run(
            [_console_script(), str(urls), "-o", str(link), "-t", "txt"], stdout=out,
            stderr=subprocess.PIPE, timeout=60, check=False,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert log.read_text() == "earlier line\n" + URLS
    assert link.is_symlink()
