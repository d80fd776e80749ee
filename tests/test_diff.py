"""``--diff OLD`` and :func:`sitemapconv._diff`: added, removed and changed URLs.

Every test builds two real snapshots on disk (or serves them on loopback) and checks the
exact sets of changes, in several format pairs.
"""

from __future__ import annotations

import datetime as dt
import gzip
import random
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._diff import Change, check_fields
from sitemapconv._filters import FilterOptions

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def urlset(rows: list[tuple[str, str | None]], extra: str = "") -> str:
    body = "".join(
        f"<url><loc>{loc}</loc>{f'<lastmod>{lm}</lastmod>' if lm else ''}{extra}</url>\n"
        for loc, lm in rows
    )
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n{body}</urlset>\n'


def rss(rows: list[tuple[str, str]]) -> str:
    items = "".join(
        f"<item><title>t</title><link>{loc}</link><pubDate>{date}</pubDate></item>\n"
        for loc, date in rows
    )
    return (
        '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>x</title>'
        f"<link>https://a.example/</link><description>d</description>\n{items}</channel></rss>\n"
    )


def sets(changes: list[Change]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {"added": set(), "removed": set(), "changed": set()}
    for c in changes:
        out[c.change].add(c.loc)
    return out


OLD = [
    ("https://a.example/same", "2024-01-01"),
    ("https://a.example/updated", "2024-01-01"),
    ("https://a.example/gone", "2024-01-01"),
    ("https://a.example/undated", None),
]
NEW = [
    ("https://a.example/same", "2024-01-01T00:00:00+00:00"),  # same instant, other form
    ("https://a.example/updated", "2024-03-01"),
    ("https://a.example/undated", "2024-03-01"),  # unknown before: not a change
    ("https://a.example/fresh", "2024-03-02"),
]
EXPECTED = {
    "added": {"https://a.example/fresh"},
    "removed": {"https://a.example/gone"},
    "changed": {"https://a.example/updated"},
}


def test_xml_against_xml(tmp_path: Path) -> None:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(urlset(OLD))
    new.write_text(urlset(NEW))
    comparison = sitemapconv.diff(old, new)
    changes = list(comparison)
    assert sets(changes) == EXPECTED
    assert comparison.stats.summary() == "1 added, 1 removed, 1 changed, 2 unchanged"
    changed = next(c for c in changes if c.change == "changed")
    assert changed.old_lastmod == dt.date(2024, 1, 1)
    assert changed.new_lastmod == dt.date(2024, 3, 1)
    assert changed.fields == ("lastmod",)
    assert changed.entry is not None and changed.entry.loc == "https://a.example/updated"
    # added and changed in the new side's order, then removed in the old side's order
    assert [c.change for c in changes] == ["changed", "added", "removed"]


def test_txt_against_xml_reports_only_added_and_removed(tmp_path: Path) -> None:
    # A URL list has no lastmod: unknown, so nothing counts as changed either way.
    old, new = tmp_path / "old.txt", tmp_path / "new.xml"
    old.write_text("".join(f"{loc}\n" for loc, _ in OLD))
    new.write_text(urlset(NEW))
    assert sets(list(sitemapconv.diff(old, new))) == {**EXPECTED, "changed": set()}
    assert sets(list(sitemapconv.diff(new, old))) == {
        "added": {"https://a.example/gone"},
        "removed": {"https://a.example/fresh"},
        "changed": set(),
    }


def test_rss_against_xml(tmp_path: Path) -> None:
    old = tmp_path / "old.rss"
    old.write_text(
        rss(
            [
                ("https://a.example/same", "Mon, 01 Jan 2024 10:00:00 GMT"),
                ("https://a.example/updated", "Mon, 01 Jan 2024 10:00:00 GMT"),
                ("https://a.example/gone", "Mon, 01 Jan 2024 10:00:00 GMT"),
            ]
        )
    )
    new = tmp_path / "new.xml"
    new.write_text(
        urlset(
            [
                ("https://a.example/same", "2024-01-01T11:00:00+01:00"),  # the same instant
                ("https://a.example/updated", "2024-01-01T10:00:01Z"),
                ("https://a.example/fresh", "2024-01-02"),
            ]
        )
    )
    assert sets(list(sitemapconv.diff(old, new))) == EXPECTED


def test_jsonfeed_against_xml(tmp_path: Path) -> None:
    # A JSON Feed written from the old rows (its date_modified carries the lastmod).
    old = tmp_path / "old.json"
    rows = [r for r in OLD if r[1] is not None]
    sitemapconv.write(
        [sitemapconv.Entry(loc, lastmod=dt.date.fromisoformat(lm)) for loc, lm in rows if lm],
        old,
        "jsonfeed",
        on_warning=lambda _: None,
    )
    assert sitemapconv.read(old).format == "jsonfeed"
    new = tmp_path / "new.xml"
    new.write_text(urlset(NEW))
    got = sets(list(sitemapconv.diff(old, new)))
    # "undated" is not in the old feed: added there.
    assert got == {**EXPECTED, "added": {"https://a.example/fresh", "https://a.example/undated"}}


def _index_with_children(tmp_path: Path) -> Path:
    (tmp_path / "c1.xml").write_text(urlset(OLD[:2]))
    (tmp_path / "c2.xml").write_text(urlset(OLD[2:]))
    index = tmp_path / "index.xml"
    index.write_text(
        f'<sitemapindex xmlns="{NS}"><sitemap><loc>c1.xml</loc></sitemap>'
        "<sitemap><loc>c2.xml.gz</loc></sitemap></sitemapindex>"
    )
    (tmp_path / "c2.xml.gz").write_bytes(gzip.compress((tmp_path / "c2.xml").read_bytes()))
    (tmp_path / "c2.xml").unlink()
    return index


def test_followed_index_against_urlset(tmp_path: Path) -> None:
    index = _index_with_children(tmp_path)
    new = tmp_path / "new.xml.gz"
    new.write_bytes(gzip.compress(urlset(NEW).encode()))
    assert sets(list(sitemapconv.diff(index, new, follow=True))) == EXPECTED


@pytest.fixture
def snapshots(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(urlset(OLD))
    new.write_text(urlset(NEW))
    return old, new


def test_filters_apply_to_both_sides(snapshots: tuple[Path, Path]) -> None:
    old, new = snapshots
    only = FilterOptions(exclude=["gone", "fresh"])
    assert sets(list(sitemapconv.diff(old, new, filters=only))) == {
        "added": set(),
        "removed": set(),
        "changed": {"https://a.example/updated"},
    }


def test_duplicates_are_compared_once_with_a_warning(tmp_path: Path) -> None:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(
        urlset(
            [
                ("https://a.example/x", "2024-01-01"),
                ("https://a.example/x#frag", "2024-05-05"),  # the same URL after normalising
                ("https://a.example/gone", None),
                ("https://A.EXAMPLE:443/gone", None),
            ]
        )
    )
    new.write_text(
        urlset(
            [
                ("https://a.example/x", "2024-01-01"),
                ("https://a.example/x", "2024-09-09"),
                ("https://a.example/new", None),
                ("https://a.example/new", None),
            ]
        )
    )
    warnings: list[str] = []
    comparison = sitemapconv.diff(old, new, on_warning=warnings.append)
    changes = list(comparison)
    # The first copy is the one compared, on both sides: x is unchanged.
    assert [(c.change, c.loc) for c in changes] == [
        ("added", "https://a.example/new"),
        ("removed", "https://a.example/gone"),
    ]
    assert comparison.stats.old_duplicates == 2 and comparison.stats.new_duplicates == 2
    assert len(warnings) == 4
    assert sum("old side" in w for w in warnings) == 2


def test_many_repeats_are_summed_up(tmp_path: Path) -> None:
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text("".join(f"https://a.example/{i % 3}\n" for i in range(30)))
    new.write_text("".join(f"https://a.example/{i % 4}\n" for i in range(40)))
    warnings: list[str] = []
    comparison = sitemapconv.diff(old, new, on_warning=warnings.append)
    assert [(c.change, c.loc) for c in comparison] == [("added", "https://a.example/3")]
    assert comparison.stats.old_duplicates == 27 and comparison.stats.new_duplicates == 36
    assert len(warnings) == 12
    assert warnings[-2:] == [
        "22 more URLs listed more than once on the old side; each compared once",
        "31 more URLs listed more than once on the new side; each compared once",
    ]


def test_other_fields(tmp_path: Path) -> None:
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(
        urlset([("https://a.example/p", "2024-01-01")], "<changefreq>daily</changefreq>").replace(
            "</url>", "<priority>0.5</priority></url>"
        )
    )
    new.write_text(
        urlset([("https://a.example/p", "2024-02-01")], "<changefreq>weekly</changefreq>").replace(
            "</url>", "<priority>0.50</priority></url>"
        )
    )
    (c,) = sitemapconv.diff(old, new, fields=["changefreq", "priority", "lastmod"])
    assert c.fields == ("lastmod", "changefreq")
    (c,) = sitemapconv.diff(old, new, fields=["changefreq"])
    assert c.fields == ("changefreq",)
    assert list(sitemapconv.diff(old, new, fields=["priority"])) == []


def test_check_fields() -> None:
    assert check_fields(["title", " LASTMOD "]) == ("lastmod", "title")
    with pytest.raises(ValueError, match="unknown field"):
        check_fields(["colour"])
    with pytest.raises(ValueError, match="at least one"):
        check_fields([""])


def test_many_urls_against_a_plain_set_computation(tmp_path: Path) -> None:
    rng = random.Random(20)
    universe = [f"https://s.example/p/{i}" for i in range(6000)]
    old_rows = {u: f"2024-01-{rng.randint(1, 3):02d}" for u in rng.sample(universe, 4000)}
    new_rows = {u: f"2024-01-{rng.randint(1, 3):02d}" for u in rng.sample(universe, 4000)}
    old, new = tmp_path / "old.xml", tmp_path / "new.xml"
    old.write_text(urlset(list(old_rows.items())))
    new.write_text(urlset(list(new_rows.items())))
    got = sets(list(sitemapconv.diff(old, new)))
    assert got["added"] == set(new_rows) - set(old_rows)
    assert got["removed"] == set(old_rows) - set(new_rows)
    common = set(old_rows) & set(new_rows)
    assert got["changed"] == {u for u in common if old_rows[u] != new_rows[u]}
    assert got["changed"] and got["added"] and got["removed"]


def test_a_comparison_is_iterated_once(snapshots: tuple[Path, Path]) -> None:
    comparison = sitemapconv.diff(*snapshots)
    assert len(list(comparison)) == 3
    with pytest.raises(RuntimeError, match="once"):
        list(comparison)


def test_iterables_of_entries() -> None:
    old = [sitemapconv.Entry("https://a.example/1"), sitemapconv.Entry("https://a.example/2")]
    new = [sitemapconv.Entry("https://a.example/2"), sitemapconv.Entry("https://a.example/3")]
    assert [(c.change, c.loc) for c in sitemapconv.diff(old, new)] == [
        ("added", "https://a.example/3"),
        ("removed", "https://a.example/1"),
    ]
