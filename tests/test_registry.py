"""The format registry (``_registry``): names, aliases, extensions and entry-point plugins."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sitemapconv._registry import (
    ALIASES,
    canonical,
    get_reader,
    get_writer,
    reader_names,
    writer_for_filename,
    writer_names,
)
from sitemapconv.errors import SitemapError
from sitemapconv.readers import Reader
from sitemapconv.writers import Writer


def test_built_in_names() -> None:
    assert reader_names()[:8] == [
        "xml", "index", "rss", "atom", "atom03", "txt", "feedparser", "jsonfeed",
    ]  # fmt: skip
    assert writer_names()[:10] == [
        "xml", "index", "rss", "atom", "atom03", "txt", "jsonl", "csv", "jsonfeed", "parquet",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Sitemap", "xml"), (" urlset ", "xml"), ("RSS2", "rss"), ("ndjson", "jsonl"), ("csv", "csv")],
)
def test_canonical_folds_case_space_and_aliases(name: str, expected: str) -> None:
    assert canonical(name) == expected


def test_every_reader_and_writer_loads_and_is_a_plugin_class() -> None:
    for name in reader_names():
        assert issubclass(get_reader(name), Reader), name
    for name in writer_names():
        if name == "parquet":
            pytest.importorskip("pyarrow")
        assert issubclass(get_writer(name), Writer), name


def test_an_alias_gives_the_same_class() -> None:
    for alias, name in ALIASES.items():
        if name in reader_names():
            assert get_reader(alias) is get_reader(name)
        assert get_writer(alias) is get_writer(name)


@pytest.mark.parametrize("lookup", [get_reader, get_writer])
def test_an_unknown_name_is_a_usage_error_listing_the_known_ones(lookup: object) -> None:
    with pytest.raises(SitemapError) as info:
        lookup("yaml")  # type: ignore[operator]
    assert isinstance(info.value, ValueError)
    assert "'yaml'" in str(info.value) and "xml" in str(info.value)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("out.xml", "xml"),
        ("out.XML.gz", "xml"),
        ("feed.rss", "rss"),
        ("rows.ndjson", "jsonl"),
        ("feed.json", "jsonfeed"),
        ("dir.d/out.csv.gz", "csv"),
        ("out", None),
        ("out.gz", None),
        ("out.yaml", None),
    ],
)
def test_writer_from_the_file_name(path: str, expected: str | None) -> None:
    assert writer_for_filename(path) == expected


def test_a_writer_plugin_is_found_through_its_entry_point(tmp_path: Path) -> None:
    """A third-party package registers a writer under ``sitemapconv.writers``: no code change."""
    (tmp_path / "shout_writer.py").write_text(
        textwrap.dedent(
            """
            from sitemapconv.writers import Writer

            class ShoutWriter(Writer):
                name = "shout"
                extensions = (".shout",)

                def write(self, entries, out, ctx):
                    n = 0
                    for entry in entries:
                        out.write(entry.loc.upper().encode() + b"\\n")
                        n += 1
                    return n
            """
        )
    )
    info = tmp_path / "shout_writer-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: shout-writer\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[sitemapconv.writers]\nshout = shout_writer:ShoutWriter\n"
    )
    code = textwrap.dedent(
        """
        import sys, sitemapconv
        from sitemapconv._registry import writer_for_filename, writer_names
        assert "shout" in writer_names(), writer_names()
        assert writer_for_filename("urls.shout") == "shout"
        sitemapconv.write([sitemapconv.Entry("https://example.com/a")], "-", "shout")
        """
    )
    root = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": f"{tmp_path}:{root}", "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "HTTPS://EXAMPLE.COM/A\n"
