"""Exit codes 0/1/3 and --strict against a real loopback server whose children fail (503).

The scenario of a site owner's cron job: ``sitemapconv INDEX --follow -o sitemap.xml`` while
the site is down must not replace a good sitemap with an empty one and exit 0.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from sitemapconv import PartialError, SitemapError

from ..conftest import Run
from ..remote.bodies import index, urlset
from .conftest import leftovers, one_error_line

GOOD = (
    b'<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    + b"".join(b"<url><loc>https://example.com/old-%d</loc></url>" % n for n in range(1000))
    + b"</urlset>\n"
)
RETRIES = ("--retries", "0")


def _site(server: HTTPServer, ok: int, failing: int) -> str:
    children = [f"/ok-{n}.xml" for n in range(ok)] + [f"/down-{n}.xml" for n in range(failing)]
    server.expect_request("/index.xml").respond_with_data(
        index([server.url_for(c) for c in children])
    )
    for n in range(ok):
        server.expect_request(f"/ok-{n}.xml").respond_with_data(
            urlset([f"https://example.com/p{n}-{i}" for i in range(3)])
        )
    for n in range(failing):
        server.expect_request(f"/down-{n}.xml").respond_with_data("busy", status=503)
    return server.url_for("/index.xml")


@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_every_child_failing_keeps_the_good_sitemap(
    loopback: HTTPServer, cli: Run, tmp_path: Path, quiet: list[str]
) -> None:
    url = _site(loopback, ok=0, failing=3)
    out = tmp_path / "sitemap.xml"
    out.write_bytes(GOOD)
    proc = cli(url, "--follow", *RETRIES, "-o", str(out), *quiet)
    assert proc.returncode == 1
    assert out.read_bytes() == GOOD
    assert leftovers(tmp_path) == []
    if quiet:
        line = one_error_line(proc.stderr)
        assert "3 child sitemap(s) could not be read" in line and "nothing was written" in line


def test_regenerating_in_place_while_the_site_is_down(
    loopback: HTTPServer, cli: Run, tmp_path: Path
) -> None:
    _site(loopback, ok=0, failing=2)
    out = tmp_path / "sitemap.xml"
    children = [loopback.url_for(f"/down-{n}.xml") for n in range(2)]
    local_index = index(children)
    out.write_bytes(local_index)
    proc = cli(str(out), "--follow", "--allow-private", *RETRIES, "-o", str(out), "-q")
    assert proc.returncode == 1, proc.stderr
    assert out.read_bytes() == local_index
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_some_children_failing_is_partial_exit_3(
    loopback: HTTPServer, cli: Run, tmp_path: Path, quiet: list[str]
) -> None:
    url = _site(loopback, ok=2, failing=1)
    out = tmp_path / "sitemap.xml"
    out.write_bytes(GOOD)
    proc = cli(url, "--follow", *RETRIES, "-o", str(out), *quiet)
    assert proc.returncode == 3
    written = sitemapconv.read(str(out))
    assert [e.loc for e in written] == [
        f"https://example.com/p{n}-{i}" for n in range(2) for i in range(3)
    ]
    stderr = proc.stderr.decode()
    assert "partial: 1 child sitemap(s) could not be read; wrote 6 entries" in stderr
    assert "Traceback" not in stderr


def test_strict_makes_a_partial_run_fail_and_replace_nothing(
    loopback: HTTPServer, cli: Run, tmp_path: Path
) -> None:
    url = _site(loopback, ok=2, failing=1)
    out = tmp_path / "sitemap.xml"
    out.write_bytes(GOOD)
    proc = cli(url, "--follow", *RETRIES, "-o", str(out), "--strict", "-q")
    assert proc.returncode == 1
    assert "strict mode refuses a partial result" in one_error_line(proc.stderr)
    assert out.read_bytes() == GOOD
    assert leftovers(tmp_path) == []


def test_strict_split_run_writes_no_part(loopback: HTTPServer, cli: Run, tmp_path: Path) -> None:
    url = _site(loopback, ok=3, failing=1)
    out = tmp_path / "sm.xml"
    proc = cli(url, "--follow", *RETRIES, "-o", str(out), "--strict", "--max-urls", "2",
               "--base-url", "https://example.com/")  # fmt: skip
    assert proc.returncode == 1
    assert list(tmp_path.iterdir()) == []


def test_a_complete_run_exits_0(loopback: HTTPServer, cli: Run, tmp_path: Path) -> None:
    url = _site(loopback, ok=2, failing=0)
    proc = cli(url, "--follow", "-o", str(tmp_path / "s.txt"), "--strict")
    assert proc.returncode == 0, proc.stderr


def test_several_inputs_one_missing(cli: Run, tmp_path: Path) -> None:
    good = tmp_path / "a.txt"
    good.write_text("https://example.com/a\n")
    out = tmp_path / "out.txt"
    proc = cli(str(good), str(tmp_path / "missing.txt"), "-o", str(out), "-q")
    assert proc.returncode == 3
    assert out.read_text() == "https://example.com/a\n"
    assert "partial: 1 input(s) could not be read" in proc.stderr.decode()
    proc = cli(
        str(tmp_path / "gone1.txt"), str(tmp_path / "gone2.txt"), "-o", str(tmp_path / "new.txt")
    )
    assert proc.returncode == 1
    assert not (tmp_path / "new.txt").exists()


def test_indexnow_on_a_failed_run_is_not_success(loopback: HTTPServer, cli: Run) -> None:
    url = _site(loopback, ok=0, failing=2)
    key = "0123abcd4567ef89"
    proc = cli(url, "--follow", *RETRIES, "--indexnow", key, "--dry-run")
    assert proc.returncode == 1
    assert "no URLs to submit" not in proc.stderr.decode()
    assert "could not be read" in proc.stderr.decode()


def test_indexnow_on_a_partial_run_exits_3(loopback: HTTPServer, cli: Run) -> None:
    url = _site(loopback, ok=1, failing=1)
    proc = cli(url, "--follow", *RETRIES, "--indexnow", "0123abcd4567ef89", "--dry-run", "-q")
    assert proc.returncode == 3
    assert "partial" in proc.stderr.decode()
    proc = cli(url, "--follow", *RETRIES, "--indexnow", "0123abcd4567ef89", "--dry-run", "--strict")
    assert proc.returncode == 1


# --- the library ------------------------------------------------------------------------------


def test_document_tells_complete_from_partial(loopback: HTTPServer) -> None:
    url = _site(loopback, ok=1, failing=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = sitemapconv.read(url, follow=True, retries=0)
        assert not doc.complete
        locs = [e.loc for e in doc]
    assert len(locs) == 3
    assert not doc.complete
    assert [u for u, _ in doc.failures] == [loopback.url_for("/down-0.xml")]
    assert "503" in doc.failures[0][1]
    whole = sitemapconv.read(_site_ok(loopback), follow=True)
    list(whole)
    assert whole.complete and whole.failures == []


def _site_ok(server: HTTPServer) -> str:
    server.expect_request("/all-ok.xml").respond_with_data(index([server.url_for("/ok-0.xml")]))
    return server.url_for("/all-ok.xml")


def test_strict_read_raises_at_the_end_and_write_replaces_nothing(
    loopback: HTTPServer, tmp_path: Path
) -> None:
    url = _site(loopback, ok=1, failing=1)
    out = tmp_path / "s.xml"
    out.write_bytes(GOOD)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(PartialError) as caught:
            sitemapconv.write(sitemapconv.read(url, follow=True, retries=0, strict=True), str(out))
    assert isinstance(caught.value, SitemapError)
    assert caught.value.failures[0][0] == loopback.url_for("/down-0.xml")
    assert out.read_bytes() == GOOD
    assert leftovers(tmp_path) == []


def test_strict_to_stdout_streams_nothing_on_failure(loopback: HTTPServer, cli: Run) -> None:
    url = _site(loopback, ok=2, failing=1)
    proc = cli(url, "--follow", *RETRIES, "-t", "rss", "--strict", "-q")
    assert proc.returncode == 1
    assert proc.stdout == b""  # not even the channel header
    assert "strict mode" in one_error_line(proc.stderr)
    whole = cli(_site_ok(loopback), "--follow", "-t", "txt", "--strict")
    assert whole.returncode == 0
    assert whole.stdout.decode().split() == [f"https://example.com/p0-{i}" for i in range(3)]


def test_convert_strict_writes_nothing(loopback: HTTPServer, tmp_path: Path) -> None:
    url = _site(loopback, ok=1, failing=1)
    out = tmp_path / "all.txt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(PartialError):
            sitemapconv.convert(url, str(out), follow=True, retries=0, strict=True)
        assert not out.exists() and leftovers(tmp_path) == []
        assert sitemapconv.convert(url, str(out), follow=True, retries=0) == 3
    assert out.read_text().split() == [f"https://example.com/p0-{i}" for i in range(3)]
