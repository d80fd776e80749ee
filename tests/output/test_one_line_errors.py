"""Every failure on bad input is one ``sitemapconv: error:`` line (exit 1; usage: 2), and
every library failure is a SitemapError subclass."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Entry, SitemapError
from sitemapconv.errors import DocumentConsumedError

from ..conftest import Run, _console_script
from .conftest import leftovers, one_error_line


@pytest.fixture
def urls(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("https://example.com/a\nhttps://example.com/b\n")
    return path


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs Linux /proc")
def test_an_input_failing_with_eio(cli: Run) -> None:
    # Reading /proc/self/mem at offset 0 fails with EIO: an unmapped address.
    proc = cli("/proc/self/mem", "-t", "txt")
    assert proc.returncode == 1
    assert "Input/output error" in one_error_line(proc.stderr)


def test_closed_stdin(tmp_path: Path) -> None:
    proc = subprocess.run(
        [_console_script(), "-", "-t", "txt"], stdin=None, capture_output=True, timeout=60,
        check=False, preexec_fn=lambda: os.close(0),
    )  # fmt: skip
    assert proc.returncode == 1
    assert "stdin is closed" in one_error_line(proc.stderr)


@pytest.mark.parametrize("url", ["http://0177.0.0.1/", "http://[::1/", "http://[::1]:99999/"])
def test_urls_that_cannot_be_parsed(cli: Run, url: str) -> None:
    proc = cli(url, "-t", "txt", "--retries", "0")
    assert proc.returncode == 1
    assert url in one_error_line(proc.stderr)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_timeout_must_be_finite(cli: Run, value: str) -> None:
    proc = cli("http://127.0.0.1:9/s.xml", "--timeout", value, "-t", "txt")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr.decode() and "--timeout" in proc.stderr.decode()


def test_a_non_ascii_header_value(cli: Run) -> None:
    proc = cli("http://127.0.0.1:9/s.xml", "-H", "X-Name: Zoë", "-t", "txt", "--retries", "0")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr.decode() and "ASCII" in proc.stderr.decode()


def test_library_nul_path_and_bad_url() -> None:
    with pytest.raises(SitemapError):
        sitemapconv.read("a\x00b")
    with pytest.raises(SitemapError):
        sitemapconv.read("http://[::1/")


def test_a_consumed_document_raises(urls: Path, tmp_path: Path) -> None:
    doc = sitemapconv.read(str(urls))
    sitemapconv.write(doc, str(tmp_path / "a.txt"))
    with pytest.raises(DocumentConsumedError, match="already read"):
        sitemapconv.write(doc, str(tmp_path / "b.txt"))
    assert not (tmp_path / "b.txt").exists() and leftovers(tmp_path) == []
    assert (tmp_path / "a.txt").read_text() == urls.read_text()
    assert doc.complete


def test_a_closed_document_raises(urls: Path) -> None:
    with sitemapconv.read(str(urls)) as doc:
        pass
    with pytest.raises(DocumentConsumedError, match="closed"):
        list(doc)
    half = sitemapconv.read(str(urls))
    it = iter(half)
    next(it)
    it.close()  # stopped halfway
    with pytest.raises(SitemapError):
        list(half)
    assert not half.complete


def test_prime_then_iterate_once(urls: Path) -> None:
    doc = sitemapconv.read(str(urls))
    doc.prime()
    assert [e.loc for e in doc] == ["https://example.com/a", "https://example.com/b"]
    with pytest.raises(DocumentConsumedError):
        iter(doc)


def test_write_to_a_directory_or_empty_path_from_python(tmp_path: Path) -> None:
    with pytest.raises(SitemapError):
        sitemapconv.write([Entry("https://example.com/")], str(tmp_path), "txt")
    with pytest.raises(SitemapError):
        sitemapconv.write([Entry("https://example.com/")], "")
    assert list(tmp_path.iterdir()) == []


def test_closed_stdout(urls: Path) -> None:
    proc = subprocess.run(
        [_console_script(), str(urls), "-t", "txt"], stdout=None, stderr=subprocess.PIPE,
        timeout=60, check=False, preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert proc.returncode == 1
    assert "stdout is closed" in one_error_line(proc.stderr)
