"""Split runs are all or nothing, and part names never leave the output folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitemapconv
from sitemapconv import Entry, WriteError

from ..conftest import Run
from .conftest import leftovers, one_error_line


@pytest.fixture
def urls(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("".join(f"https://example.com/{n}\n" for n in range(5)))
    return path


def test_a_part_that_cannot_be_put_in_place_leaves_nothing(
    cli: Run, urls: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / "sm.xml").write_bytes(b"old index")
    (out_dir / "sm-3.xml").mkdir()  # part 3 cannot replace a directory
    proc = cli(str(urls), "-o", str(out_dir / "sm.xml"), "--max-urls", "2",
               "--base-url", "https://example.com/", "-q")  # fmt: skip
    assert proc.returncode == 1
    assert "sm-3.xml" in one_error_line(proc.stderr)
    assert sorted(p.name for p in out_dir.iterdir()) == ["sm-3.xml", "sm.xml"]
    assert (out_dir / "sm.xml").read_bytes() == b"old index"


def test_an_index_that_cannot_be_written_leaves_no_part(
    cli: Run, urls: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    (out_dir / "sm.xml").mkdir()  # the index cannot replace a directory
    proc = cli(str(urls), "-o", str(out_dir / "sm.xml"), "--max-urls", "2", "-t", "xml", "-q")
    assert proc.returncode == 1
    assert "is a directory" in one_error_line(proc.stderr)
    assert sorted(p.name for p in out_dir.iterdir()) == ["sm.xml"]


def test_a_symlink_loop_as_target(cli: Run, urls: Path, tmp_path: Path) -> None:
    link = tmp_path / "loop.xml"
    link.symlink_to(link.name)
    proc = cli(str(urls), "-o", str(link), "--max-urls", "2", "-t", "xml", "-q")
    assert proc.returncode == 1
    assert "symbolic links" in one_error_line(proc.stderr)
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == [
        "loop.xml",
        "urls.txt",
    ]


def test_a_complete_split_run(cli: Run, urls: Path, tmp_path: Path) -> None:
    out = tmp_path / "site" / "sm.xml"
    out.parent.mkdir()
    proc = cli(str(urls), "-o", str(out), "--max-urls", "2", "--base-url", "https://example.com/")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "sm-1.xml",
        "sm-2.xml",
        "sm-3.xml",
        "sm.xml",
    ]
    locs = [e.loc for e in sitemapconv.read(str(out))]
    assert locs == [f"https://example.com/sm-{n}.xml" for n in (1, 2, 3)]


@pytest.mark.parametrize("stem", ["../x", "sub/x", "..", ".", "", "ABSOLUTE"])
def test_part_name_cannot_leave_the_folder(cli: Run, urls: Path, tmp_path: Path, stem: str) -> None:
    if stem == "ABSOLUTE":  # an absolute path inside this test's folder, never the real /
        stem = str(tmp_path / "x")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    proc = cli(str(urls), "-o", str(out_dir / "sm.xml"), "--max-urls", "2", "--part-name", stem)
    assert proc.returncode == 2
    assert list(out_dir.iterdir()) == [] and not (tmp_path / "x-1.xml").exists()
    with pytest.raises(WriteError, match="part_name"):
        sitemapconv.write(
            [Entry(f"https://example.com/{n}") for n in range(5)], str(out_dir / "sm.xml"),
            split=True, max_urls=2, part_name=stem, base_url="https://example.com/",
        )  # fmt: skip
    assert list(out_dir.iterdir()) == [] and leftovers(tmp_path) == []


def test_parts_and_index_behind_symlinks(cli: Run, urls: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    store.mkdir()
    public = tmp_path / "public"
    public.mkdir()
    (public / "sm.xml").symlink_to(store / "sm.xml")
    (store / "sm-2.xml").write_bytes(b"old part")
    (store / "sm.xml").write_bytes(b"old index")
    proc = cli(str(urls), "-o", str(public / "sm.xml"), "--max-urls", "2",
               "--base-url", "https://example.com/", "-q")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert (public / "sm.xml").is_symlink() and list(public.iterdir()) == [public / "sm.xml"]
    assert sorted(p.name for p in store.iterdir()) == ["sm-1.xml", "sm-2.xml", "sm-3.xml", "sm.xml"]
    assert (store / "sm-2.xml").read_bytes() != b"old part"
    locs = [e.loc for e in sitemapconv.read(str(public / "sm.xml"))]
    assert locs == [f"https://example.com/sm-{n}.xml" for n in (1, 2, 3)]
