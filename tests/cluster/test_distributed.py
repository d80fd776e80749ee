"""The README's cluster recipe on a real multi-process cluster.

The fixture starts ``dask scheduler`` and two ``dask worker`` processes (the ``distributed``
command-line tools) on 127.0.0.1, meeting through a scheduler file in a temporary
directory, and kills their process groups whatever happens. A threaded loopback server
serves a few dozen sites: indexes with children, a site whose index is a 404, a gzip child,
a plain urlset given directly, a malformed child. Every row the cluster writes must equal
what the sync scheduler gives for the same call.
"""

from __future__ import annotations

import gc
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest

# Every test here starts a scheduler and workers in subprocesses (seconds each).
pytestmark = pytest.mark.slow

dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

from pytest_httpserver import HTTPServer  # noqa: E402

import sitemapconv  # noqa: E402
from sitemapconv.cluster import SCHEMA, read_sitemaps, records_frame, to_dataframe  # noqa: E402
from sitemapconv.writers._csv import COLUMNS as CSV_COLUMNS  # noqa: E402
from tests.cluster.test_read_sitemaps import BROKEN, index, serve_site, urlset  # noqa: E402
from tests.conftest import ROOT, Run  # noqa: E402

SITES = 30
GZ_CHILD = "/gz/child.xml.gz"
UA = "mybot/1.0"


# --- the cluster --------------------------------------------------------------------------


def _dask_script() -> str:
    beside = Path(sys.executable).with_name("dask")
    found = str(beside) if beside.exists() else shutil.which("dask")
    if found is None:  # pragma: no cover - distributed installs it
        pytest.fail("the dask command-line tool is not installed")
    return found


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM each process group, then SIGKILL what is left after a few seconds."""
    for proc in procs:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + 10
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a running ``dask scheduler`` with two ``dask worker`` processes.

    The processes inherit this environment (so they import the sitemapconv under test) and
    run in sessions of their own, so killing their group reaches every child they start.
    """
    home = tmp_path_factory.mktemp("cluster")
    scheduler_file = home / "scheduler.json"
    exe = _dask_script()
    procs: list[subprocess.Popen[bytes]] = []
    logs = []

    def start(name: str, *args: str) -> None:
        log = open(home / f"{name}.log", "wb")  # noqa: SIM115 - closed in the finaliser
        logs.append(log)
        command = [exe, *args]
        popen = subprocess.Popen
        procs.append(popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=home,
                           start_new_session=True))  # fmt: skip

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0",
              "--scheduler-file", str(scheduler_file), "--no-dashboard")  # fmt: skip
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() or not scheduler_file.read_text().strip():
            assert procs[0].poll() is None, (home / "scheduler.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.2)
        for n in range(2):
            start(f"worker{n}", "worker", "--scheduler-file", str(scheduler_file),
                  "--host", "127.0.0.1", "--nthreads", "2", "--no-nanny", "--no-dashboard",
                  "--local-directory", str(home / f"worker{n}"))  # fmt: skip
        address = json.loads(scheduler_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:")
        with distributed.Client(address, timeout=30) as client:
            client.wait_for_workers(2, timeout=60)
            assert len(client.scheduler_info()["workers"]) == 2
            # the workers import the sitemapconv under test, not some other installed copy
            files = client.run(lambda: __import__("sitemapconv").__file__)
            assert set(files.values()) == {sitemapconv.__file__}, files
        yield address
    finally:
        # Workers first, each to its end, then the scheduler: a worker whose scheduler is
        # gone keeps trying to reconnect and holds the teardown until the SIGKILL (10 s).
        for proc in reversed(procs):
            _stop([proc])
        for log in logs:
            log.close()


# --- the sites ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[HTTPServer, list[str]]]:
    """SITES indexes (one with a malformed child), a gzip child, a 404 index, a urlset."""
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.no_handler_status_code = 404
    server.start()
    try:
        for n in range(SITES):
            serve_site(server, n)
        server.expect_request("/gz/sitemap_index.xml").respond_with_data(
            index(["/gz/plain.xml", GZ_CHILD])
        )
        server.expect_request("/gz/plain.xml").respond_with_data(
            urlset(["https://gz.example/plain"], ["2024-01-02"])
        )
        packed = gzip.compress(urlset([f"https://gz.example/{i}" for i in range(5)], [None] * 5))
        server.expect_request(GZ_CHILD).respond_with_data(packed, content_type="application/gzip")
        urls = [server.url_for(f"/site{n}/sitemap_index.xml") for n in range(SITES)]
        urls += [
            server.url_for("/gz/sitemap_index.xml"),
            server.url_for("/gone/sitemap_index.xml"),  # a 404
            server.url_for("/site2/posts.xml"),  # a urlset given directly
        ]
        yield server, urls
    finally:
        server.clear()
        server.stop()


def sync_rows(urls: list[str]) -> list[dict[str, Any]]:
    return read_sitemaps(urls, timeout=10, user_agent=UA).compute(scheduler="sync")  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    return None if value is None or value is pd.NA or value != value else value


def frame_rows(frame: Any) -> list[tuple[Any, ...]]:
    """A frame's rows as sortable tuples, every missing value as None."""
    rows = [tuple(_plain(v) for v in row) for row in frame.itertuples(index=False)]
    return sorted(rows, key=repr)


def readme_recipe() -> str:
    """The ``with Client(address):`` block of the README's Dask section, as written."""
    text = (ROOT / "README.md").read_text("utf-8")
    section = text[text.index("## Many sites on a Dask cluster") :]
    found = re.search(r"^with Client\(address\):\n(?:    .*\n)+", section, re.MULTILINE)
    assert found is not None, "the README's Dask section lost its cluster recipe"
    return found.group(0)


# --- the tests ----------------------------------------------------------------------------


def test_readme_recipe_on_a_separately_started_cluster(
    cluster: str, sites: tuple[HTTPServer, list[str]], tmp_path: Path
) -> None:
    server, sites_urls = sites
    recipe = readme_recipe()
    assert "to_dataframe(read_sitemaps(" in recipe  # one expression: no bag kept anywhere
    path = str(tmp_path / "sitemaps")
    server.clear_log()
    namespace = {"address": cluster, "path": path, "sites": sites_urls}
    names = {"read_sitemaps": read_sitemaps, "to_dataframe": to_dataframe}
    exec(f"from distributed import Client\n{recipe}", {**namespace, **names})
    assert {req.headers.get("User-Agent") for req, _ in server.log} == {UA}
    back = pd.read_parquet(path)
    assert list(back.columns) == list(SCHEMA)
    assert back["priority"].dtype == "float64"
    expected = records_frame(sync_rows(sites_urls))
    assert len(back) == len(expected) > SITES * 8
    assert frame_rows(back) == frame_rows(expected)
    errors = dict(zip(back["sitemap"], back["error"], strict=True))
    assert "404" in errors[server.url_for("/gone/sitemap_index.xml")]
    assert "not a sitemap" in errors[server.url_for(BROKEN)]
    assert back["error"].notna().sum() == 2
    gz = back[back["sitemap"] == server.url_for(GZ_CHILD)]
    assert sorted(gz["loc"]) == sorted(f"https://gz.example/{i}" for i in range(5))


def test_returned_collections_compute_after_every_other_reference_is_gone(
    cluster: str, sites: tuple[HTTPServer, list[str]], tmp_path: Path
) -> None:
    _, urls = sites
    chosen = [*urls[:4], urls[-3], urls[-2], urls[-1]]  # gzip, 404 and urlset tops included
    expected = sync_rows(chosen)
    with distributed.Client(cluster):
        df = to_dataframe(read_sitemaps(chosen, timeout=10, user_agent=UA))
        bag = read_sitemaps(chosen, timeout=10, user_agent=UA).map(lambda r: r["loc"])
        parts = read_sitemaps(chosen, timeout=10, user_agent=UA).to_delayed()
        gc.collect()
        time.sleep(0.5)  # let the client tell the scheduler about anything released
        assert frame_rows(df.compute()) == frame_rows(records_frame(expected))
        tuples = [tuple(_plain(v) for v in row) for row in df.to_bag().compute()]
        assert sorted(tuples, key=repr) == frame_rows(records_frame(expected))
        assert sorted(map(repr, bag.compute())) == sorted(repr(r["loc"]) for r in expected)
        assert [row for part in dask.compute(*parts) for row in part] == expected
        df.to_parquet(tmp_path / "out", write_index=False)
    # and computed again later, with the client gone, on another scheduler
    assert frame_rows(df.compute(scheduler="sync")) == frame_rows(records_frame(expected))
    assert frame_rows(pd.read_parquet(tmp_path / "out")) == frame_rows(records_frame(expected))


def test_cli_dask_against_the_cluster(
    cluster: str, sites: tuple[HTTPServer, list[str]], cli: Run, tmp_path: Path
) -> None:
    _, urls = sites
    chosen = urls[5:12] + urls[-3:]
    expected = read_sitemaps(chosen, timeout=10).compute(scheduler="sync")
    out = tmp_path / "rows.jsonl"
    proc = cli(*chosen, "--dask", "--scheduler", cluster, "--follow", "--timeout", "10",
               "-t", "jsonl", "-o", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert b"404" in proc.stderr and b"Traceback" not in proc.stderr
    got = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert got == expected  # same rows, same order, same keys in the same order
    table = tmp_path / "table"
    proc = cli(*chosen, "--dask", "--scheduler", cluster, "--follow", "--timeout", "10",
               "-t", "parquet", "-o", str(table))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert frame_rows(pd.read_parquet(table)) == frame_rows(records_frame(expected))
    csv_out = tmp_path / "rows.csv"
    proc = cli(*chosen, "--dask", "--scheduler", cluster, "--follow", "--timeout", "10",
               "-o", str(csv_out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    back = pd.read_csv(csv_out, dtype=str, keep_default_na=False)
    assert list(back.columns) == [*CSV_COLUMNS, "site", "error"]
    assert sorted(back["loc"]) == sorted(r["loc"] or "" for r in expected)
