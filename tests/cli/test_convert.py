"""The command line as a user runs it: the installed console script in a subprocess."""

from __future__ import annotations

import gzip
from pathlib import Path

from lxml import etree

from tests.conftest import SAMPLES, Run

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _locs(xml: bytes) -> list[str]:
    root = etree.fromstring(xml)
    return [el.text or "" for el in root.iter(f"{SM}loc")]


def test_feed_atom_to_xml_exactly_as_documented(cli: Run) -> None:
    # `sitemapconv feed.atom -t xml`, run beside the sample as the README shows it.
    proc = cli("feed.atom", "-t", "xml", cwd=SAMPLES)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset')
    locs = _locs(proc.stdout)
    assert locs and all(loc.startswith("https://") for loc in locs)


def test_output_format_from_extension(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "urls.txt"
    proc = cli(str(SAMPLES / "sitemap.xml"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines == _locs((SAMPLES / "sitemap.xml").read_bytes())


def test_stdin_and_stdout(cli: Run) -> None:
    proc = cli("-", "-t", "txt", stdin=b"https://a.example/1\nhttps://a.example/2\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"https://a.example/1\nhttps://a.example/2\n"


def test_gzip_output_by_name_and_flag(cli: Run, tmp_path: Path) -> None:
    named = tmp_path / "out.xml.gz"
    assert cli(str(SAMPLES / "urls.txt"), "-o", str(named)).returncode == 0
    assert _locs(gzip.decompress(named.read_bytes()))
    flagged = cli(str(SAMPLES / "urls.txt"), "-t", "xml", "--gzip")
    assert flagged.returncode == 0
    assert gzip.decompress(flagged.stdout) == gzip.decompress(named.read_bytes())


def test_several_inputs_are_merged_in_order(cli: Run) -> None:
    proc = cli("-", str(SAMPLES / "urls.txt"), "-t", "txt", stdin=b"https://first.example/\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[0] == "https://first.example/"
    assert lines[1:] == (SAMPLES / "urls.txt").read_text().split()


def test_missing_input_is_one_line_exit_1(cli: Run) -> None:
    proc = cli("/no/such/file.xml", "-t", "txt")
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "/no/such/file.xml" in err and "no such file" in err


def test_not_a_sitemap_is_one_line_exit_1(cli: Run, tmp_path: Path) -> None:
    page = tmp_path / "page.xml"
    page.write_text("<!DOCTYPE html><html><body>Not found</body></html>")
    proc = cli(str(page), "-t", "txt")
    assert proc.returncode == 1
    assert "not a sitemap or feed" in proc.stderr.decode()
    assert "Traceback" not in proc.stderr.decode()


def test_failed_run_leaves_existing_output_untouched(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "out.xml"
    out.write_bytes(b"KEEP ME")
    # The first input converts fine; the second fails after output has begun: --strict
    # makes that partial run a failure (without it the run is partial, exit 3).
    args = (str(SAMPLES / "urls.txt"), str(tmp_path / "missing.txt"), "-o", str(out))
    proc = cli(*args, "--strict")
    assert proc.returncode == 1
    assert out.read_bytes() == b"KEEP ME"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.xml"]  # no temp file left


def test_failed_run_creates_no_output(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "new.xml"
    proc = cli(str(tmp_path / "missing.txt"), "-o", str(out))
    assert proc.returncode == 1
    assert list(tmp_path.iterdir()) == []


def test_unknown_format_is_usage_error(cli: Run) -> None:
    proc = cli(str(SAMPLES / "urls.txt"), "-t", "nope")
    assert proc.returncode == 2
    assert "unknown output format" in proc.stderr.decode()


def test_no_output_format_is_usage_error(cli: Run) -> None:
    proc = cli(str(SAMPLES / "urls.txt"))
    assert proc.returncode == 2
    assert "-t" in proc.stderr.decode()


def test_no_input_is_usage_error(cli: Run) -> None:
    assert cli("-t", "xml").returncode == 2


def test_version_and_list_formats(cli: Run) -> None:
    version = cli("--version")
    assert version.returncode == 0 and version.stdout.startswith(b"sitemapconv ")
    listing = cli("--list-formats").stdout.decode()
    for name in ("xml", "index", "rss", "atom", "atom03", "txt"):
        assert f"  {name}" in listing


def test_help_shows_examples(cli: Run) -> None:
    out = cli("--help").stdout.decode()
    assert "sitemapconv feed.atom -t xml" in out
    assert "--to" in out and "--from" in out and "--output" in out
