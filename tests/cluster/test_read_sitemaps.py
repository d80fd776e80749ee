"""Scale-out reading on Dask: many sites on one loopback server, sync and LocalCluster.

Thirty sites live under distinct paths of one threaded server on 127.0.0.1
(``/site7/sitemap_index.xml``...). Each index lists three children; one child of one
site is malformed. What the bag gives must equal ``read(url, follow=True)`` site by site.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

dask = pytest.importorskip("dask")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from pytest_httpserver import HTTPServer  # noqa: E402

import sitemapconv  # noqa: E402
from sitemapconv._dates import format_w3c  # noqa: E402
from sitemapconv._follow import tasks as follow_tasks  # noqa: E402
from sitemapconv._follow.tasks import COLUMNS  # noqa: E402
from sitemapconv.cluster import SCHEMA, read_sitemaps, to_dataframe  # noqa: E402
from sitemapconv.writers._tabular import ROW_KEYS  # noqa: E402

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
SITES = 30
CHILDREN = ("posts.xml", "pages.xml", "tags.xml")
BROKEN = "/site7/tags.xml"
#: lastmods in every form a sitemap uses: date, zoned, UTC, zone-less, fractional seconds.
LASTMODS = ("2024-05-01", "2024-05-01T10:20:30+02:00", "2024-05-01T10:20:30Z",
            "2024-05-01T10:20:30", "2024-05-01T10:20:30.250+00:00", None)  # fmt: skip
FAST: dict[str, Any] = {"timeout": 10.0, "backoff": 0.01, "retries": 1}


def urlset(locs: list[str], lastmods: list[str | None]) -> bytes:
    urls = "".join(
        f"<url><loc>{loc}</loc>" + (f"<lastmod>{m}</lastmod>" if m else "") + "</url>"
        for loc, m in zip(locs, lastmods, strict=True)
    )
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="{NS}">{urls}</urlset>'.encode()


def index(locs: list[str]) -> bytes:
    items = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0"?><sitemapindex xmlns="{NS}">{items}</sitemapindex>'.encode()


def serve_site(server: HTTPServer, n: int) -> None:
    """/siteN/sitemap_index.xml listing three children (relative and absolute URLs)."""
    base = f"/site{n}/"
    server.expect_request(base + "sitemap_index.xml").respond_with_data(
        index([CHILDREN[0], base + CHILDREN[1], server.url_for(base + CHILDREN[2])])
    )
    for c, child in enumerate(CHILDREN):
        path = base + child
        if path == BROKEN:
            # An error page served with 200: not recoverable as a sitemap.
            server.expect_request(path).respond_with_data(b"<html><body>Error</body></html>")
            continue
        count = 2 + (n + c) % 4
        locs = [f"https://site{n}.example/{child}/{i}" for i in range(count)]
        marks = [LASTMODS[(n + c + i) % len(LASTMODS)] for i in range(count)]
        server.expect_request(path).respond_with_data(urlset(locs, marks))


@contextmanager
def thirty_sites() -> Iterator[tuple[HTTPServer, list[str]]]:
    """One threaded loopback server holding SITES sites; yields it and their index URLs."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.no_handler_status_code = 404
    server.start()
    try:
        for n in range(SITES):
            serve_site(server, n)
        yield server, [server.url_for(f"/site{n}/sitemap_index.xml") for n in range(SITES)]
    finally:
        server.clear()
        server.stop()


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[HTTPServer, list[str]]]:
    with thirty_sites() as both:
        yield both


Row = tuple[str, str, str | None]


def expected_rows(urls: list[str]) -> set[Row]:
    """(sitemap, loc, lastmod) as ``read(url, follow=True)`` gives them, site by site."""
    rows: set[Row] = set()
    for url in urls:
        with sitemapconv.read(url, follow=True, on_warning=lambda _m: None, **FAST) as doc:
            for e in doc:
                assert e.sitemap is not None
                lastmod = format_w3c(e.lastmod) if e.lastmod is not None else None
                rows.add((e.sitemap, e.loc, lastmod))
    return rows


def split(records: list[dict[str, Any]]) -> tuple[list[Row], list[dict[str, Any]]]:
    rows = [(r["sitemap"], r["loc"], r["lastmod"]) for r in records if r["error"] is None]
    return rows, [r for r in records if r["error"] is not None]


def check_against_read(records: list[dict[str, Any]], server: HTTPServer, urls: list[str]) -> None:
    rows, errors = split(records)
    assert len(rows) == len(set(rows)), "an entry was read twice"
    assert set(rows) == expected_rows(urls)
    assert len(rows) > SITES * 5
    assert [(e["sitemap"], e["loc"]) for e in errors] == [(server.url_for(BROKEN), None)]
    assert "not a sitemap" in errors[0]["error"]
    by_site = Counter(r["site"] for r in records)
    assert set(by_site) == set(urls)


@pytest.mark.slow
def test_sync_scheduler_matches_read_site_by_site(sites: tuple[HTTPServer, list[str]]) -> None:
    server, urls = sites
    warnings: list[str] = []
    with dask.config.set(scheduler="sync"):
        bag = read_sitemaps(urls, on_warning=warnings.append, **FAST)
        # one partition per child sitemap: the tops were all indexes
        assert bag.npartitions == SITES * len(CHILDREN)
        records = bag.compute()
    check_against_read(records, server, urls)
    assert {"site", "sitemap", "loc", "lastmod", "changefreq", "priority", "title", "error"} <= set(
        records[0]
    )
    assert any(server.url_for(BROKEN) in w for w in warnings)


@pytest.mark.slow
def test_local_cluster_matches_read_site_by_site(sites: tuple[HTTPServer, list[str]]) -> None:
    distributed = pytest.importorskip("distributed")
    server, urls = sites
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    )
    try:
        with distributed.Client(cluster) as client:
            bag = read_sitemaps(urls, **FAST)
            with distributed.get_task_stream(client) as stream:
                records = bag.compute()
            # the children really ran on both worker processes
            assert len({task["worker"] for task in stream.data}) == 2
    finally:
        cluster.close()
    check_against_read(records, server, urls)


def test_to_dataframe_schema_and_parquet_round_trip(
    sites: tuple[HTTPServer, list[str]], tmp_path: Path
) -> None:
    _, urls = sites
    with dask.config.set(scheduler="sync"):
        df = to_dataframe(read_sitemaps(urls[:4], **FAST))
        assert list(df.columns) == list(SCHEMA)
        assert all(df.dtypes[c] == pd.api.types.pandas_dtype(t) for c, t in SCHEMA.items())
        df.to_parquet(tmp_path / "out", write_index=False)
    back = pd.read_parquet(tmp_path / "out")
    assert list(back.columns) == list(SCHEMA)
    assert back["priority"].dtype == "float64" and back["loc"].dtype == "string[pyarrow]"
    got = {
        (s, loc, None if pd.isna(m) else m)
        for s, loc, m, err in zip(
            back["sitemap"], back["loc"], back["lastmod"], back["error"], strict=True
        )
        if pd.isna(err)
    }
    assert got == expected_rows(urls[:4])
    assert back["error"].notna().sum() == 0  # site7 is not among the first four


def test_failures_become_error_rows_not_a_failed_graph(sites: tuple[HTTPServer, list[str]]) -> None:
    server, urls = sites
    missing = server.url_for("/nowhere/sitemap_index.xml")
    plain = server.url_for("/site1/posts.xml")  # a urlset given directly
    with dask.config.set(scheduler="sync"):
        records = read_sitemaps(
            [urls[0], missing, plain, "http://127.0.0.1:1/sitemap.xml"], **FAST
        ).compute()
    rows, errors = split(records)
    assert set(rows) == expected_rows([urls[0], plain])
    assert sorted(e["sitemap"] for e in errors) == sorted(
        [missing, "http://127.0.0.1:1/sitemap.xml"]
    )
    assert any("404" in e["error"] for e in errors)


def test_without_follow_an_index_gives_its_child_urls(sites: tuple[HTTPServer, list[str]]) -> None:
    _, urls = sites
    with dask.config.set(scheduler="sync"):
        records = read_sitemaps(urls[:2], follow=False, **FAST).compute()
    # the index entries themselves, as read() without follow gives them
    expected = set()
    for url in urls[:2]:
        with sitemapconv.read(url, **FAST) as doc:
            assert doc.format == "index"
            expected |= {(url, e.loc) for e in doc}
    assert len(records) == 2 * len(CHILDREN)
    assert {(r["sitemap"], r["loc"]) for r in records} == expected
    assert all(r["error"] is None for r in records)


def test_discover_finds_each_sites_index_through_robots(tmp_path: Path) -> None:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.no_handler_status_code = 404
    server.start()
    try:
        serve_site(server, 3)
        robots = f"User-agent: *\nSitemap: {server.url_for('/site3/sitemap_index.xml')}\n"
        server.expect_request("/robots.txt").respond_with_data(robots)
        site = server.url_for("/site3/")
        with dask.config.set(scheduler="sync"):
            records = read_sitemaps([site], discover=True, **FAST).compute()
        rows, errors = split(records)
        assert set(rows) == expected_rows([server.url_for("/site3/sitemap_index.xml")])
        assert errors == [] and {r["site"] for r in records} == {site}
    finally:
        server.clear()
        server.stop()


def test_nested_index_is_followed_inside_its_task_with_per_site_dedup() -> None:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.no_handler_status_code = 404
    server.start()
    try:
        server.expect_request("/top.xml").respond_with_data(index(["/a.xml", "/nested.xml"]))
        # the nested index lists a sibling already read, itself, and a new child
        server.expect_request("/nested.xml").respond_with_data(
            index(["/a.xml", "/nested.xml", "/b.xml"])
        )
        for name in ("a", "b"):
            server.expect_request(f"/{name}.xml").respond_with_data(
                urlset([f"https://x.example/{name}"], [None])
            )
        top = server.url_for("/top.xml")
        warnings: list[str] = []
        with dask.config.set(scheduler="sync"):
            records = read_sitemaps([top], on_warning=warnings.append, **FAST).compute()
        paths = Counter(req.path for req, _ in server.log)
        assert paths == {"/top.xml": 1, "/a.xml": 1, "/nested.xml": 1, "/b.xml": 1}
        rows, errors = split(records)
        assert sorted(rows) == sorted(expected_rows([top]))
        assert sorted(loc for _, loc, _ in rows) == ["https://x.example/a", "https://x.example/b"]
        assert errors == []
        assert any("nested" in w for w in warnings)
    finally:
        server.clear()
        server.stop()


def test_private_child_of_a_loopback_index_is_an_error_row_never_contacted() -> None:
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.no_handler_status_code = 404
    server.start()
    try:
        private = "http://10.255.255.1/sitemap.xml"  # refused before any connection
        server.expect_request("/top.xml").respond_with_data(index(["/a.xml", private]))
        server.expect_request("/a.xml").respond_with_data(urlset(["https://x.example/a"], [None]))
        with dask.config.set(scheduler="sync"):
            records = read_sitemaps(
                [server.url_for("/top.xml")], on_warning=lambda _m: None, **FAST
            ).compute()
        rows, errors = split(records)
        assert [loc for _, loc, _ in rows] == ["https://x.example/a"]
        assert [e["sitemap"] for e in errors] == [private]
        assert errors[0]["error"].startswith("refused:") and "private" in errors[0]["error"]
    finally:
        server.clear()
        server.stop()


def test_options_are_checked_and_unknown_ones_refused() -> None:
    with pytest.raises(TypeError, match="no_such_option"):
        read_sitemaps(["http://127.0.0.1:1/x.xml"], no_such_option=1)


# --- the core package stays free of dask --------------------------------------------------


@pytest.mark.parametrize("module", ["sitemapconv", "sitemapconv._cli.main"])
def test_core_import_does_not_load_dask(module: str) -> None:
    code = f"import sys, {module}; print('dask' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["False", "False"]


# --- the CLI ------------------------------------------------------------------------------


# --- one row schema -----------------------------------------------------------------------


def test_rows_have_one_schema_entries_and_errors_alike(sites: tuple[HTTPServer, list[str]]) -> None:
    server, urls = sites
    with dask.config.set(scheduler="sync"):
        records = read_sitemaps([urls[7], server.url_for("/none.xml")], **FAST).compute()
    assert {tuple(r) for r in records} == {COLUMNS}
    assert (*ROW_KEYS, "site", "error") == COLUMNS
    failed = [r for r in records if r["error"] is not None]
    assert len(failed) == 2
    assert all(r["loc"] is None and r["images"] == [] and r["mobile"] is None for r in failed)


def test_a_big_top_sitemap_is_read_in_the_bag_not_sent_through_the_client(
    loopback: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(follow_tasks, "KEEP_ROWS", 10)
    locs = [f"https://big.example/{i}" for i in range(25)]
    loopback.expect_request("/big.xml").respond_with_data(urlset(locs, [None] * 25))
    loopback.expect_request("/small.xml").respond_with_data(urlset(locs[:3], [None] * 3))
    big, small = loopback.url_for("/big.xml"), loopback.url_for("/small.xml")
    with dask.config.set(scheduler="sync"):
        bag = read_sitemaps([big, small], **FAST)
        # planning read each once; the big one's rows are not in the graph
        assert Counter(req.path for req, _ in loopback.log) == {"/big.xml": 1, "/small.xml": 1}
        assert "https://big.example/20" not in repr(dict(bag.__dask_graph__()))
        records = bag.compute()
    assert Counter(req.path for req, _ in loopback.log) == {"/big.xml": 2, "/small.xml": 1}
    assert sorted(r["loc"] for r in records) == sorted(locs + locs[:3])
    assert {r["sitemap"] for r in records} == {big, small}


def test_a_big_top_that_turns_into_an_index_on_the_second_read_is_an_error_row(
    loopback: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(follow_tasks, "KEEP_ROWS", 10)
    big = urlset([f"https://big.example/{i}" for i in range(25)], [None] * 25)
    loopback.expect_ordered_request("/flip.xml").respond_with_data(big)
    loopback.expect_ordered_request("/flip.xml").respond_with_data(index(["/other.xml"]))
    flip = loopback.url_for("/flip.xml")
    with dask.config.set(scheduler="sync"):
        records = read_sitemaps([flip], **FAST).compute()
    assert [(r["loc"], r["sitemap"]) for r in records] == [(None, flip)]
    assert "index" in records[0]["error"]
    assert [req.path for req, _ in loopback.log] == ["/flip.xml", "/flip.xml"]


def test_job_format_uses_the_registrys_names() -> None:
    from sitemapconv._cli.dask_mode import job_format

    assert job_format("NDJSON", "-") == "jsonl" and job_format("csv", "x") == "csv"
    assert job_format(None, "rows.jsonl.gz") == "jsonl"
    assert job_format(None, "out/urls.parquet") == "parquet"
    assert job_format(None, "rows.CSV") == "csv"
    assert job_format(None, "-") is None and job_format(None, "out/") is None
