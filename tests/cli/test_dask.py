"""sitemapconv --dask: the console script over thirty loopback sites.

The library side is tests/cluster/.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

dask = pytest.importorskip("dask")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from pytest_httpserver import HTTPServer  # noqa: E402

from sitemapconv.writers._csv import COLUMNS as CSV_COLUMNS  # noqa: E402
from tests.cluster.test_read_sitemaps import (  # noqa: E402
    BROKEN,
    CHILDREN,
    expected_rows,
    index,
    split,
    thirty_sites,
)
from tests.conftest import DATA, SAMPLES, Run  # noqa: E402


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[HTTPServer, list[str]]]:
    with thirty_sites() as both:
        yield both


@pytest.mark.slow
def test_cli_dask_parquet_reads_each_sitemap_once(
    sites: tuple[HTTPServer, list[str]], cli: Run, tmp_path: Path
) -> None:
    server, urls = sites
    chosen = urls[5:9]  # site7 and its broken child included
    server.clear_log()
    out = tmp_path / "out"
    proc = cli(
        *chosen, "--dask", "--scheduler", "sync", "--follow", "-t", "parquet", "-o", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    # the Parquet parts and the error summary come from one computation
    fetched = Counter(req.path for req, _ in server.log)
    assert set(fetched.values()) == {1} and len(fetched) == 4 * (1 + len(CHILDREN))
    assert server.url_for(BROKEN).encode() in proc.stderr
    back = pd.read_parquet(out)
    rows = {
        (s, loc, None if pd.isna(m) else m)
        for s, loc, m, err in zip(
            back["sitemap"], back["loc"], back["lastmod"], back["error"], strict=True
        )
        if pd.isna(err)
    }
    assert rows == expected_rows(chosen)
    assert list(back.loc[back["error"].notna(), "sitemap"]) == [server.url_for(BROKEN)]


@pytest.mark.slow
def test_cli_dask_jsonl(sites: tuple[HTTPServer, list[str]], cli: Run, tmp_path: Path) -> None:
    _, urls = sites
    out = tmp_path / "rows.jsonl"
    proc = cli(
        *urls[:3], "--dask", "--scheduler", "sync", "--follow", "-t", "jsonl", "-o", str(out)
    )
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    rows, errors = split(records)
    assert set(rows) == expected_rows(urls[:3]) and errors == []


def test_cli_dask_usage_errors(cli: Run, tmp_path: Path) -> None:
    proc = cli("http://127.0.0.1:1/x.xml", "--dask", "--scheduler", "sync", "-t", "rss")
    assert proc.returncode == 2 and b"parquet" in proc.stderr
    proc = cli("http://127.0.0.1:1/x.xml", "--dask", "-t", "parquet")
    assert proc.returncode == 2 and b"-o DIR" in proc.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    proc = cli("http://127.0.0.1:1/x.xml", "--dask", "-t", "parquet", "-o", str(tmp_path / "full"))
    assert proc.returncode == 2 and (tmp_path / "full" / "keep.txt").read_text() == "mine"


def test_cli_dask_nothing_read_exits_1(cli: Run, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    proc = cli(
        "http://127.0.0.1:1/x.xml", "--dask", "--scheduler", "sync", "--retries", "0",
        "-t", "jsonl", "-o", str(out),
    )  # fmt: skip
    assert proc.returncode == 1
    assert b"no entries read" in proc.stderr and b"Traceback" not in proc.stderr
    assert json.loads(out.read_text())["error"]


@pytest.mark.slow
def test_cli_dask_rows_are_the_jsonl_and_csv_rows_plus_site_and_error(
    loopback: HTTPServer, cli: Run, tmp_path: Path
) -> None:
    every = (DATA / "extensions" / "every-field.xml").read_bytes()
    loopback.expect_request("/top.xml").respond_with_data(index(["/every.xml", "/feed.atom"]))
    loopback.expect_request("/every.xml").respond_with_data(every)
    loopback.expect_request("/feed.atom").respond_with_data((SAMPLES / "feed.atom").read_bytes())
    top = loopback.url_for("/top.xml")
    for fmt in ("jsonl", "csv"):
        for name, extra in (("plain", ()), ("dask", ("--dask", "--scheduler", "sync"))):
            out = tmp_path / f"{name}.{fmt}"
            proc = cli(top, "--follow", *extra, "-o", str(out))
            assert proc.returncode == 0, proc.stderr
    plain = [json.loads(line) for line in (tmp_path / "plain.jsonl").read_text().splitlines()]
    rows = [json.loads(line) for line in (tmp_path / "dask.jsonl").read_text().splitlines()]
    assert len(rows) == len(plain) > 3 and any(r["images"] and r["videos"] for r in plain)
    assert [list(r) for r in rows] == [[*p, "site", "error"] for p in plain]
    assert [{k: r[k] for k in p} for r, p in zip(rows, plain, strict=True)] == plain
    assert {(r["site"], r["error"]) for r in rows} == {(top, None)}
    with (tmp_path / "plain.csv").open(newline="", encoding="utf-8") as fh:
        plain_csv = list(csv.reader(fh))
    with (tmp_path / "dask.csv").open(newline="", encoding="utf-8") as fh:
        dask_csv = list(csv.reader(fh))
    assert dask_csv[0] == [*CSV_COLUMNS, "site", "error"] and plain_csv[0] == list(CSV_COLUMNS)
    assert dask_csv[1:] == [[*row, top, ""] for row in plain_csv[1:]]
