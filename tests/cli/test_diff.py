"""sitemapconv --diff OLD NEW: the console script compares two snapshots.

The library side is tests/test_diff.py.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

import sitemapconv
from tests.conftest import Run
from tests.test_diff import NEW, NS, OLD, sets, urlset


@pytest.fixture
def snapshots(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(urlset(OLD))
    new.write_text(urlset(NEW))
    return old, new


def test_cli_followed_remote_index_against_local_urlset(
    cli: Run, tmp_path: Path, loopback: HTTPServer
) -> None:
    loopback.expect_request("/index.xml").respond_with_data(
        f'<sitemapindex xmlns="{NS}"><sitemap><loc>/c1.xml</loc></sitemap>'
        "<sitemap><loc>/c2.xml</loc></sitemap></sitemapindex>"
    )
    loopback.expect_request("/c1.xml").respond_with_data(urlset(OLD[:2]))
    loopback.expect_request("/c2.xml").respond_with_data(urlset(OLD[2:]))
    new = tmp_path / "new.xml"
    new.write_text(urlset(NEW))
    done = cli(str(new), "--diff", loopback.url_for("/index.xml"), "--follow", "-t", "txt")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "~ https://a.example/updated",
        "+ https://a.example/fresh",
        "- https://a.example/gone",
    ]
    assert done.stderr.decode().strip() == (
        "sitemapconv: 1 added, 1 removed, 1 changed, 2 unchanged"
    )


def test_a_child_that_fails_makes_the_comparison_fail(
    cli: Run, tmp_path: Path, loopback: HTTPServer
) -> None:
    # The second child answers 404: its URLs would all look removed.
    loopback.expect_request("/index.xml").respond_with_data(
        f'<sitemapindex xmlns="{NS}"><sitemap><loc>/c1.xml</loc></sitemap>'
        "<sitemap><loc>/c2.xml</loc></sitemap></sitemapindex>"
    )
    loopback.expect_request("/c1.xml").respond_with_data(urlset(NEW[:2]))
    old = tmp_path / "old.xml"
    old.write_text(urlset(OLD))
    out = tmp_path / "changes.jsonl"
    out.write_text("previous good output\n")
    url = loopback.url_for("/index.xml")
    done = cli(url, "--follow", "--retries", "0", "--diff", str(old), "-o", str(out))
    assert done.returncode == 1
    assert "1 child sitemap(s) of the new side could not be read" in done.stderr.decode()
    assert out.read_text() == "previous good output\n"  # not replaced by a wrong answer
    # The library can accept it knowingly.
    comparison = sitemapconv.diff(
        old, url, follow=True, retries=0, partial_ok=True, on_warning=lambda _: None
    )
    assert sets(list(comparison))["removed"] == {
        "https://a.example/gone", "https://a.example/undated"
    }  # fmt: skip


def test_cli_jsonl_records(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    done = cli(str(new), "--diff", str(old), "-t", "jsonl", "-q")
    assert done.returncode == 0 and done.stderr == b""
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert records == [
        {
            "change": "changed",
            "loc": "https://a.example/updated",
            "old_lastmod": "2024-01-01",
            "new_lastmod": "2024-03-01",
            "fields": ["lastmod"],
        },
        {
            "change": "added",
            "loc": "https://a.example/fresh",
            "old_lastmod": None,
            "new_lastmod": "2024-03-02",
            "fields": [],
        },
        {
            "change": "removed",
            "loc": "https://a.example/gone",
            "old_lastmod": "2024-01-01",
            "new_lastmod": None,
            "fields": [],
        },
    ]


def test_cli_csv_to_a_gzipped_file(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    out = new.parent / "changes.csv.gz"
    done = cli(str(new), "--diff", str(old), "-o", str(out))
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(gzip.decompress(out.read_bytes()).decode())))
    assert rows[0] == ["change", "loc", "old_lastmod", "new_lastmod", "fields"]
    assert rows[1:] == [
        ["changed", "https://a.example/updated", "2024-01-01", "2024-03-01", "lastmod"],
        ["added", "https://a.example/fresh", "", "2024-03-02", ""],
        ["removed", "https://a.example/gone", "2024-01-01", "", ""],
    ]


@pytest.mark.parametrize("fmt", ["xml", "rss", "atom", "atom03", "jsonfeed"])
def test_cli_entry_formats_hold_the_added_and_changed_entries(
    cli: Run, snapshots: tuple[Path, Path], fmt: str
) -> None:
    old, new = snapshots
    out = new.parent / f"what-is-new.{fmt}"
    done = cli(str(new), "--diff", str(old), "-t", fmt, "-o", str(out))
    assert done.returncode == 0, done.stderr
    locs = [e.loc for e in sitemapconv.read(out)]
    assert locs == ["https://a.example/updated", "https://a.example/fresh"]


def test_cli_nothing_changed_exits_0(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, _ = snapshots
    done = cli(str(old), "--diff", str(old))
    assert done.returncode == 0
    assert done.stdout == b""
    assert b"0 added, 0 removed, 0 changed, 4 unchanged" in done.stderr


def test_cli_include_applies_to_both_sides(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    done = cli(str(new), "--diff", str(old), "--include", "gone|updated")
    assert done.stdout.decode().splitlines() == [
        "~ https://a.example/updated",
        "- https://a.example/gone",
    ]


def test_txt_output_keeps_one_url_per_line(cli: Run, tmp_path: Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("https://a.example/x\n")
    new = tmp_path / "new.xml"
    new.write_text(urlset([("https://a.example/a b\n+ https://evil.example/", None)]))
    done = cli(str(new), "--diff", str(old), "-q")
    assert done.stdout.decode().splitlines() == [
        "+ https://a.example/a%20b+%20https://evil.example/",
        "- https://a.example/x",
    ]


def test_cli_bad_old_side_is_one_line(cli: Run, snapshots: tuple[Path, Path]) -> None:
    _, new = snapshots
    done = cli(str(new), "--diff", str(new.parent / "missing.xml"))
    assert done.returncode == 1
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and "missing.xml" in lines[0] and "Traceback" not in lines[0]


@pytest.mark.parametrize(
    ("extra", "hint"),
    [
        (["--validate"], "--diff"),
        (["--dask"], "--diff"),
        (["--discover"], "--diff"),
        (["--diff-fields", "colour"], "--diff-fields"),
        (["--diff-fields", "title", "--diff", "{new}"], "INPUT"),  # two INPUTs
    ],
)
def test_cli_usage_errors(
    cli: Run, snapshots: tuple[Path, Path], extra: list[str], hint: str
) -> None:
    old, new = snapshots
    args = [a.format(new=new) for a in extra]
    if "--diff" not in args:
        args += ["--diff", str(old)]
    else:
        args = [str(old), *args]
    done = cli(str(new), *args)
    assert done.returncode == 2, done.stderr
    assert hint in done.stderr.decode()


def test_cli_unknown_output_extension(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    out = new.parent / "changes.unknown"
    done = cli(str(new), "--diff", str(old), "-o", str(out))
    assert done.returncode == 2 and not out.exists()
    assert "-t" in done.stderr.decode()


def test_cli_diff_fields_without_diff(cli: Run, snapshots: tuple[Path, Path]) -> None:
    _, new = snapshots
    done = cli(str(new), "--diff-fields", "title", "-t", "txt")
    assert done.returncode == 2
    assert "--diff" in done.stderr.decode()


def test_cli_old_side_from_stdin(cli: Run, snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    done = cli(str(new), "--diff", "-", stdin=old.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().splitlines() == [
        "~ https://a.example/updated",
        "+ https://a.example/fresh",
        "- https://a.example/gone",
    ]


def test_cli_indexnow_submits_only_added_and_changed(
    cli: Run, snapshots: tuple[Path, Path]
) -> None:
    old, new = snapshots
    done = cli(str(new), "--diff", str(old), "--indexnow", "0123abcd4567ef89", "--dry-run")
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "2 URL" in out
    assert "https://a.example/updated" in out and "https://a.example/fresh" in out
    assert "gone" not in out and "/same" not in out
