"""``--max-sitemaps`` is one budget for the whole run, however many INPUTs it follows."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import Run

URLSET = (
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    "<url><loc>https://{site}.example/{n}</loc></url></urlset>"
)


def _index(folder: Path, site: str, children: int) -> Path:
    items = ""
    for n in range(1, children + 1):
        (folder / f"{site}{n}.xml").write_text(URLSET.format(site=site, n=n))
        items += f"<sitemap><loc>{site}{n}.xml</loc></sitemap>"
    index = folder / f"{site}.xml"
    index.write_text(
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"{items}</sitemapindex>"
    )
    return index


def test_two_followed_inputs_share_one_max_sitemaps_budget(cli: Run, tmp_path: Path) -> None:
    a, b = _index(tmp_path, "a", 5), _index(tmp_path, "b", 5)
    done = cli(str(a), str(b), "--follow", "--max-sitemaps", "4", "-t", "txt")
    urls = done.stdout.decode().split()
    # The first index and three of its children spend the four units; the second index is
    # an INPUT the user typed, so it is opened, but none of its children is followed.
    assert urls == ["https://a.example/1", "https://a.example/2", "https://a.example/3"]
    assert b"max_sitemaps" in done.stderr


def test_each_library_read_has_its_own_budget(tmp_path: Path) -> None:
    import sitemapconv

    a, b = _index(tmp_path, "a", 5), _index(tmp_path, "b", 5)
    seen = []
    for source in (a, b):
        doc = sitemapconv.read(source, follow=True, max_sitemaps=4, on_warning=lambda _: None)
        seen.append([entry.loc for entry in doc])
    assert [len(locs) for locs in seen] == [3, 3]
