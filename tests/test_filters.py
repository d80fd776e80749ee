"""Transforms on the entry stream (sitemapconv._filters), on Entry objects built directly."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import sitemapconv
from sitemapconv._filters import (
    FilterOptions,
    FilterStats,
    Pipeline,
    apply_filters,
    dedupe,
    exclude,
    include,
    instant,
    limit,
    normalize_url,
    resolve,
    since,
    sort,
    until,
    url_digest,
)
from sitemapconv._model import Entry
from sitemapconv._urls import _normalize

UTC = dt.timezone.utc
PLUS2 = dt.timezone(dt.timedelta(hours=2))
MINUS5 = dt.timezone(dt.timedelta(hours=-5))


def locs(entries: object) -> list[str]:
    return [e.loc for e in entries]  # type: ignore[attr-defined]


def E(loc: str, lastmod: object = None) -> Entry:
    return Entry(loc=loc, lastmod=lastmod)  # type: ignore[arg-type]


# --- dedupe and URL normalisation ---------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("HTTP://Example.COM/a", "http://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com?q=1", "http://example.com/?q=1"),
        ("http://example.com/a#section", "http://example.com/a"),
        ("http://example.com/a?", "http://example.com/a"),
        ("http://example.com/%7euser", "http://example.com/~user"),
        ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
        ("http://example.com/?q=%c3%a9", "http://example.com/?q=%C3%A9"),
        ("http://example.com:/a", "http://example.com/a"),
        ("  http://example.com/a \n", "http://example.com/a"),
        ("http://User@EXAMPLE.com:80/", "http://User@example.com/"),
        ("http://[::1]:80/x", "http://[::1]/x"),
    ],
)
def test_normalize_url_equivalent_forms(a: str, b: str) -> None:
    assert normalize_url(a) == normalize_url(b) == b
    assert url_digest(a) == url_digest(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("http://example.com/A", "http://example.com/a"),  # path case matters
        ("http://example.com/a/", "http://example.com/a"),  # trailing slash matters
        ("http://example.com/?a=1&b=2", "http://example.com/?b=2&a=1"),  # query order
        ("http://www.example.com/", "http://example.com/"),  # www is another host
        ("http://example.com/", "https://example.com/"),  # scheme matters
        ("http://example.com:8080/", "http://example.com/"),  # non-default port
        ("https://example.com:80/", "https://example.com/"),  # 80 is not https's default
        ("http://example.com/a%2Fb", "http://example.com/a/b"),  # reserved escape kept
        ("http://USER@example.com/", "http://user@example.com/"),  # userinfo case kept
    ],
)
def test_normalize_url_keeps_distinct_urls_distinct(a: str, b: str) -> None:
    assert normalize_url(a) != normalize_url(b)
    assert url_digest(a) != url_digest(b)


@pytest.mark.parametrize(
    "url",
    [
        "https://www.example.com/products/item-1.html?ref=x",
        "http://example.com/",
        "http://a-b.example.com/x/y/z?p=q&r=s",
        "http://example.com/path;params?x",
    ],
)
def test_normalize_fast_path_agrees_with_full_normalisation(url: str) -> None:
    assert normalize_url(url) == _normalize(url) == url


def test_normalize_url_survives_a_malformed_host() -> None:
    # urlsplit raises ValueError here; the URL is compared as it is, without its fragment.
    assert normalize_url("http://[::1/a#x") == "http://[::1/a"


def test_dedupe_keeps_the_first_of_each_url_in_order() -> None:
    first = E("http://example.com/a", dt.date(2024, 1, 1))
    entries = [
        first,
        E("http://example.com/b"),
        E("HTTP://EXAMPLE.com:80/a#frag", dt.date(2025, 1, 1)),
        E("http://example.com/b"),
        E("http://example.com/c"),
        E("http://example.com"),
        E("http://example.com/"),
    ]
    out = list(dedupe(entries))
    assert locs(out) == [
        "http://example.com/a",
        "http://example.com/b",
        "http://example.com/c",
        "http://example.com",
    ]
    assert out[0] is first  # the entry itself, unchanged


def test_dedupe_streams() -> None:
    seen: list[str] = []

    def source() -> Iterator[Entry]:
        for i in range(3):
            seen.append(f"{i}")
            yield E(f"http://example.com/{i}")

    stream = dedupe(source())
    assert next(stream).loc == "http://example.com/0"
    assert seen == ["0"]


# --- include / exclude ----------------------------------------------------------------------

URLS = [
    "https://example.com/blog/one",
    "https://example.com/blog/tag/python",
    "https://example.com/shop/item-1",
    "https://example.com/about",
]


def test_include_any_of_several_patterns() -> None:
    out = include([E(u) for u in URLS], ["/blog/", r"item-\d"])
    assert locs(out) == [URLS[0], URLS[1], URLS[2]]


def test_include_one_string_pattern_uses_search_not_match() -> None:
    assert locs(include([E(u) for u in URLS], "about$")) == [URLS[3]]


def test_exclude_any_of_several_patterns_and_compiled_ones() -> None:
    out = exclude([E(u) for u in URLS], [re.compile("/TAG/", re.I), "/shop/"])
    assert locs(out) == [URLS[0], URLS[3]]


def test_bad_pattern_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match=r"invalid regular expression '\('"):
        include([], "(")


# --- since / until --------------------------------------------------------------------------

DATED = [
    E("http://e.com/none"),
    E("http://e.com/d-0430", dt.date(2024, 4, 30)),
    E("http://e.com/d-0501", dt.date(2024, 5, 1)),
    E("http://e.com/d-0502", dt.date(2024, 5, 2)),
    E("http://e.com/utc-0501T0030", dt.datetime(2024, 5, 1, 0, 30, tzinfo=UTC)),
    E("http://e.com/naive-0501T2359", dt.datetime(2024, 5, 1, 23, 59)),
    E("http://e.com/plus2-0501T0100", dt.datetime(2024, 5, 1, 1, 0, tzinfo=PLUS2)),  # 04-30Z
    E("http://e.com/minus5-0501T2000", dt.datetime(2024, 5, 1, 20, 0, tzinfo=MINUS5)),  # 05-02Z
]


def test_since_a_date_means_from_the_start_of_that_utc_day() -> None:
    assert locs(since(DATED, dt.date(2024, 5, 1))) == [
        "http://e.com/d-0501",
        "http://e.com/d-0502",
        "http://e.com/utc-0501T0030",
        "http://e.com/naive-0501T2359",
        "http://e.com/minus5-0501T2000",
    ]


def test_until_a_date_includes_that_whole_utc_day() -> None:
    assert locs(until(DATED, dt.date(2024, 5, 1))) == [
        "http://e.com/d-0430",
        "http://e.com/d-0501",
        "http://e.com/utc-0501T0030",
        "http://e.com/naive-0501T2359",
        "http://e.com/plus2-0501T0100",
    ]


def test_since_an_aware_datetime_keeps_a_date_whose_day_reaches_it() -> None:
    bound = dt.datetime(2024, 5, 1, 18, 0, tzinfo=UTC)
    assert locs(since(DATED, bound)) == [
        "http://e.com/d-0501",  # the day 05-01 lasts past 18:00
        "http://e.com/d-0502",
        "http://e.com/naive-0501T2359",  # naive taken as UTC
        "http://e.com/minus5-0501T2000",  # 2024-05-02T01:00Z
    ]


def test_until_a_naive_datetime_is_taken_as_utc() -> None:
    bound = dt.datetime(2024, 5, 1, 0, 30)
    assert locs(until(DATED, bound)) == [
        "http://e.com/d-0430",
        "http://e.com/d-0501",  # the day 05-01 starts before 00:30
        "http://e.com/utc-0501T0030",  # inclusive
        "http://e.com/plus2-0501T0100",  # 2024-04-30T23:00Z
    ]


def test_since_with_a_zoned_bound_compares_instants() -> None:
    # 2024-05-01T02:00+02:00 is 2024-05-01T00:00Z.
    bound = dt.datetime(2024, 5, 1, 2, 0, tzinfo=PLUS2)
    out = locs(since(DATED, bound))
    assert "http://e.com/utc-0501T0030" in out
    assert "http://e.com/plus2-0501T0100" not in out
    assert "http://e.com/d-0430" not in out


def test_entries_without_lastmod_are_dropped_unless_kept() -> None:
    assert "http://e.com/none" not in locs(since(DATED, dt.date(2000, 1, 1)))
    assert "http://e.com/none" not in locs(until(DATED, dt.date(2100, 1, 1)))
    assert "http://e.com/none" in locs(since(DATED, dt.date(2100, 1, 1), keep_undated=True))
    assert "http://e.com/none" in locs(until(DATED, dt.date(2000, 1, 1), keep_undated=True))


def test_instant_is_utc() -> None:
    assert instant(dt.date(2024, 5, 1)) == dt.datetime(2024, 5, 1, tzinfo=UTC)
    assert instant(dt.datetime(2024, 5, 1, 1, tzinfo=PLUS2)).tzinfo is UTC
    assert instant(dt.datetime(2024, 5, 1, 1)) == dt.datetime(2024, 5, 1, 1, tzinfo=UTC)


# --- limit, sort, resolve -------------------------------------------------------------------


def test_limit_stops_pulling_from_its_input() -> None:
    pulled: list[int] = []

    def source() -> Iterator[Entry]:
        for i in range(100):
            pulled.append(i)
            yield E(f"http://e.com/{i}")

    assert locs(limit(source(), 3)) == ["http://e.com/0", "http://e.com/1", "http://e.com/2"]
    assert pulled == [0, 1, 2]
    pulled.clear()
    assert list(limit(source(), 0)) == []
    assert pulled == []
    with pytest.raises(ValueError):
        list(limit([], -1))


def test_sort_by_url() -> None:
    out = sort([E("http://e.com/b"), E("http://e.com/a"), E("http://e.com/c")], "url")
    assert locs(out) == ["http://e.com/a", "http://e.com/b", "http://e.com/c"]


def test_sort_by_lastmod_mixes_kinds_is_stable_and_puts_undated_last() -> None:
    entries = [
        E("http://e.com/none-1"),
        E("http://e.com/aware", dt.datetime(2024, 5, 1, 1, 0, tzinfo=PLUS2)),  # 04-30T23Z
        E("http://e.com/day-0501", dt.date(2024, 5, 1)),  # 05-01T00Z
        E("http://e.com/naive", dt.datetime(2024, 5, 1, 12, 0)),  # 05-01T12Z
        E("http://e.com/midnight-0501", dt.datetime(2024, 5, 1, tzinfo=UTC)),  # ties the date
        E("http://e.com/none-2"),
        E("http://e.com/day-0430", dt.date(2024, 4, 30)),
    ]
    assert locs(sort(entries, "lastmod")) == [
        "http://e.com/day-0430",
        "http://e.com/aware",
        "http://e.com/day-0501",
        "http://e.com/midnight-0501",  # equal instant: input order kept
        "http://e.com/naive",
        "http://e.com/none-1",
        "http://e.com/none-2",
    ]
    assert locs(sort(entries, "lastmod", reverse=True)) == [
        "http://e.com/naive",
        "http://e.com/day-0501",  # stable under reverse too
        "http://e.com/midnight-0501",
        "http://e.com/aware",
        "http://e.com/day-0430",
        "http://e.com/none-1",
        "http://e.com/none-2",
    ]


def test_sort_buffers_everything_before_the_first_entry() -> None:
    pulled: list[int] = []

    def source() -> Iterator[Entry]:
        for i in (3, 1, 2):
            pulled.append(i)
            yield E(f"http://e.com/{i}")

    stream = sort(source(), "url")
    assert next(stream).loc == "http://e.com/1"
    assert pulled == [3, 1, 2]


def test_sort_rejects_an_unknown_key() -> None:
    with pytest.raises(ValueError, match="unknown sort key"):
        list(sort([], "title"))


def test_resolve_relative_locs_and_copies_only_those() -> None:
    absolute = E("https://other.org/x")
    relative = E("/blog/post?x=1", dt.date(2024, 1, 1))
    out = list(
        resolve(
            [absolute, relative, E("page.html"), E("//cdn.example.com/a")],
            "https://example.com/dir/sitemap.xml",
        )
    )
    assert locs(out) == [
        "https://other.org/x",
        "https://example.com/blog/post?x=1",
        "https://example.com/dir/page.html",
        "https://cdn.example.com/a",
    ]
    assert out[0] is absolute
    assert relative.loc == "/blog/post?x=1"  # the caller's entry is untouched
    assert out[1].lastmod == dt.date(2024, 1, 1)


# --- the pipeline ---------------------------------------------------------------------------


def test_pipeline_order_and_counters() -> None:
    entries = [
        E("/a", dt.date(2024, 3, 1)),  # relative: resolved, then kept
        E("https://example.com/tag/x", dt.date(2024, 3, 1)),  # excluded
        E("https://example.com/old", dt.date(2020, 1, 1)),  # before since
        E("https://example.com/undated"),  # no lastmod
        E("https://EXAMPLE.com/a#dup", dt.date(2024, 3, 2)),  # duplicate of /a
        E("https://example.com/c", dt.date(2024, 2, 1)),
        E("https://example.com/b", dt.date(2024, 4, 1)),
        E("https://example.com/future", dt.date(2030, 1, 1)),  # after until
        E("https://other.org/z", dt.date(2024, 3, 3)),  # not included
    ]
    options = FilterOptions(
        base_url="https://example.com/",
        include=["(?i)example\\.com"],
        exclude=["/tag/"],
        since=dt.date(2024, 1, 1),
        until=dt.date(2025, 1, 1),
        dedupe=True,
        sort="lastmod",
        limit=2,
    )
    pipeline = Pipeline(options)
    assert pipeline.steps == [
        "resolve",
        "include",
        "exclude",
        "since",
        "until",
        "dedupe",
        "sort",
        "limit",
    ]
    out = list(pipeline(entries))
    # /a resolves before include sees it; dedupe runs before sort; limit takes the sorted top 2
    assert locs(out) == ["https://example.com/c", "https://example.com/a"]
    stats = pipeline.stats
    assert stats.entries_in == 9
    assert stats.entries_out == 2
    assert stats.dropped == {
        "include": 1,
        "exclude": 1,
        "since": 2,
        "until": 1,
        "dedupe": 1,
        "limit": 1,
    }


def test_limit_without_sort_reads_only_what_it_needs() -> None:
    pulled: list[int] = []

    def source() -> Iterator[Entry]:
        for i in range(1000):
            pulled.append(i)
            yield E(f"https://example.com/{i % 10}")

    stats = FilterStats()
    out = list(apply_filters(source(), FilterOptions(dedupe=True, limit=5), stats))
    assert len(out) == 5
    assert pulled == list(range(5))
    assert stats.entries_in == 5
    assert stats.dropped == {"dedupe": 0, "limit": 0}


def test_no_options_is_a_pass_through() -> None:
    entries = [E("b"), E("a"), E("a")]
    assert not FilterOptions().active
    assert list(apply_filters(entries)) == entries


def test_pipeline_checks_options_before_reading() -> None:
    with pytest.raises(ValueError, match="invalid regular expression"):
        Pipeline(FilterOptions(exclude=["[z-a]"]))
    with pytest.raises(ValueError, match="limit"):
        Pipeline(FilterOptions(limit=-2))
    with pytest.raises(ValueError, match="sort key"):
        Pipeline(FilterOptions(sort="size"))  # type: ignore[arg-type]


def test_public_api_exports() -> None:
    assert sitemapconv.FilterOptions is FilterOptions
    assert sitemapconv.apply_filters is apply_filters
    assert sitemapconv.FilterStats is FilterStats


# --- sitemapconv.convert(filters=...) -------------------------------------------------------


def test_library_convert_applies_filters(tmp_path: Path) -> None:
    listed = [
        "https://example.com/b",
        "https://example.com/a",
        "https://example.com/tag/x",
        "https://EXAMPLE.COM:443/b#top",
        "https://example.com/shop/1",
        "https://example.com/c",
    ]
    out = tmp_path / "out.jsonl"
    data = ("\n".join(listed) + "\n").encode()
    count = sitemapconv.convert(
        data, out, from_="txt", filters=FilterOptions(dedupe=True, exclude=["/tag/"], limit=3)
    )
    assert count == 3
    got = [json.loads(line)["loc"] for line in out.read_text().splitlines()]
    assert got == [listed[0], listed[1], listed[4]]
