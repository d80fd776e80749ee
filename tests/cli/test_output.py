"""CLI options that shape the output: splitting, sitemap dates, feed metadata, input caps."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from tests.conftest import Run

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ATOM = "{http://www.w3.org/2005/Atom}"


def _urls(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("".join(f"https://www.example.com/p/{i}\n" for i in range(n)))
    return path


def _locs(path: Path) -> list[str]:
    return [el.text or "" for el in etree.parse(str(path)).getroot().iter(f"{SM}loc")]


def test_output_over_the_limit_is_split_into_parts_and_an_index(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "out" / "sitemap.xml"
    out.parent.mkdir()
    proc = cli(
        str(_urls(tmp_path, 5)), "-o", str(out), "--max-urls", "2",
        "--base-url", "https://www.example.com/maps/",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.parent.iterdir()) == [
        "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml",
    ]  # fmt: skip
    root = etree.parse(str(out)).getroot()
    assert root.tag == f"{SM}sitemapindex"
    assert _locs(out) == [f"https://www.example.com/maps/sitemap-{i}.xml" for i in (1, 2, 3)]
    parts = [_locs(out.parent / f"sitemap-{i}.xml") for i in (1, 2, 3)]
    assert [len(p) for p in parts] == [2, 2, 1]
    assert [loc for part in parts for loc in part] == [
        f"https://www.example.com/p/{i}" for i in range(5)
    ]


def test_no_split_writes_one_file_with_a_warning(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "sitemap.xml"
    proc = cli(str(_urls(tmp_path, 3)), "-o", str(out), "--max-urls", "2", "--no-split")
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".xml"] == ["sitemap.xml"]
    assert len(_locs(out)) == 3
    assert b"warning" in proc.stderr


def test_stdout_cannot_be_split_so_it_warns(cli: Run, tmp_path: Path) -> None:
    proc = cli(str(_urls(tmp_path, 3)), "-t", "xml", "--max-urls", "2")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count(b"<url>") == 3
    assert b"warning" in proc.stderr


def test_a_small_output_is_one_plain_sitemap(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "sitemap.xml"
    assert cli(str(_urls(tmp_path, 3)), "-o", str(out)).returncode == 0
    assert etree.parse(str(out)).getroot().tag == f"{SM}urlset"
    assert len(_locs(out)) == 3


def test_date_only(cli: Run, tmp_path: Path) -> None:
    src = tmp_path / "in.xml"
    src.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
        "<loc>https://www.example.com/</loc><lastmod>2024-05-01T10:20:30+02:00</lastmod>"
        "</url></urlset>"
    )
    proc = cli(str(src), "-t", "xml", "--date-only")
    assert b"<lastmod>2024-05-01</lastmod>" in proc.stdout


def test_feed_metadata_options(cli: Run, tmp_path: Path) -> None:
    proc = cli(
        str(_urls(tmp_path, 2)), "-t", "atom", "--title", "Example pages",
        "--author", "Web Team", "--feed-id", "tag:example.com,2024:pages",
        "--self-link", "https://www.example.com/pages.atom",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    feed = etree.fromstring(proc.stdout)
    assert feed.findtext(f"{ATOM}title") == "Example pages"
    assert feed.findtext(f"{ATOM}id") == "tag:example.com,2024:pages"
    assert feed.findtext(f"{ATOM}author/{ATOM}name") == "Web Team"
    self_links = [el.get("href") for el in feed.findall(f"{ATOM}link[@rel='self']")]
    assert self_links == ["https://www.example.com/pages.atom"]


def test_max_bytes_caps_the_input(cli: Run, tmp_path: Path) -> None:
    proc = cli(str(_urls(tmp_path, 1000)), "-t", "txt", "--max-bytes", "1000")
    assert proc.returncode == 1
    assert b"size cap" in proc.stderr and b"Traceback" not in proc.stderr


def test_indexnow_dry_run_reads_followed_children(cli: Run, tmp_path: Path) -> None:
    child = tmp_path / "child.xml"
    child.write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>https://www.example.com/{i}</loc></url>" for i in range(4))
        + "</urlset>"
    )
    index = tmp_path / "index.xml"
    index.write_text(
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<sitemap><loc>child.xml</loc></sitemap></sitemapindex>"
    )
    proc = cli(str(index), "--follow", "--indexnow", "0123abcd4567ef89", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert b"www.example.com" in proc.stdout
    assert b"https://www.example.com/0" in proc.stdout
