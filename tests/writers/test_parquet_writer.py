"""The parquet writer: the jsonl row as typed columns, streamed in row groups."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import sitemapconv
from sitemapconv._registry import get_writer, writer_for_filename
from sitemapconv.writers._parquet import NESTED, ParquetWriter
from sitemapconv.writers._tabular import ROW_KEYS

from ..conftest import Run
from .rich_entries import sample_entries

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_registered_by_name_and_extension() -> None:
    assert get_writer("parquet") is ParquetWriter
    assert get_writer("PARQUET") is ParquetWriter
    assert writer_for_filename("out/urls.parquet") == "parquet"


def test_columns_types_and_values_are_the_jsonl_rows(tmp_path: Path) -> None:
    assert sitemapconv.write(sample_entries(), tmp_path / "rows.jsonl") == 3
    assert sitemapconv.write(sample_entries(), tmp_path / "rows.parquet") == 3
    table = pq.read_table(tmp_path / "rows.parquet")
    assert table.column_names == list(ROW_KEYS)
    assert table.schema.field("priority").type == pa.float64()
    assert table.schema.field("mobile").type == pa.bool_()
    assert table.schema.field("lastmod").type == pa.string()
    assert all(table.schema.field(name).type == pa.string() for name in NESTED)
    got = table.to_pylist()
    for row in got:  # the extension columns are the JSON text of the jsonl values
        for name in NESTED:
            row[name] = None if row[name] is None else json.loads(row[name])
    assert got == _jsonl(tmp_path / "rows.jsonl")
    assert got[0]["images"][0] == {"loc": "https://example.com/img 1.jpg", "caption": "cap"}
    assert got[1]["news"] is None and got[1]["images"] == [] and got[1]["mobile"] is False


def test_no_entries_gives_a_valid_empty_table(tmp_path: Path) -> None:
    assert sitemapconv.write([], tmp_path / "empty.parquet") == 0
    table = pq.read_table(tmp_path / "empty.parquet")
    assert table.num_rows == 0 and table.column_names == list(ROW_KEYS)


@pytest.mark.slow
def test_to_a_binary_stream_and_from_the_cli(cli: Run, tmp_path: Path) -> None:
    buf = io.BytesIO()
    assert sitemapconv.write(sample_entries(), buf, "parquet") == 3
    assert pq.read_table(io.BytesIO(buf.getvalue())).num_rows == 3
    sample = Path(__file__).resolve().parents[2] / "samples" / "sitemap.xml"
    proc = cli(str(sample), "-o", str(tmp_path / "urls.parquet"))
    assert proc.returncode == 0, proc.stderr
    proc = cli(str(sample), "-t", "jsonl", "-o", str(tmp_path / "urls.jsonl"))
    assert proc.returncode == 0, proc.stderr
    locs = pq.read_table(tmp_path / "urls.parquet").column("loc").to_pylist()
    assert locs == [row["loc"] for row in _jsonl(tmp_path / "urls.jsonl")] and locs


def test_a_lone_surrogate_does_not_fail_the_write(tmp_path: Path) -> None:
    entry = sample_entries()[1]
    broken = type(entry)(loc="https://example.com/x", title="bad \udcff end")
    assert sitemapconv.write([entry, broken], tmp_path / "s.parquet") == 2
    titles = pq.read_table(tmp_path / "s.parquet").column("title").to_pylist()
    assert titles == [None, "bad \ufffd end"]


def test_without_pyarrow_one_line_and_nothing_written(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parents[2] / "samples" / "sitemap.xml"
    out = tmp_path / "urls.parquet"
    out.write_bytes(b"keep me")
    code = (
        "import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
        "from sitemapconv._cli.main import main\n"
        f"sys.argv = ['sitemapconv', {str(sample)!r}, '-o', {str(out)!r}]\n"
        "main()\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == 1
    lines = proc.stderr.decode().splitlines()
    assert len(lines) == 1 and "pip install 'sitemapconv[dask]'" in lines[0], lines
    assert str(out) in lines[0]
    assert out.read_bytes() == b"keep me"


# --- bounded memory -----------------------------------------------------------------------

_MEASURE = """
import resource, subprocess, sys
proc = subprocess.run(sys.argv[1:], capture_output=True)
sys.stderr.buffer.write(proc.stderr)
print(proc.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _peak_kib(exe: str, source: Path, out: Path) -> int:
    """Peak RSS (KiB) of ``sitemapconv SOURCE -o OUT``, measured in a fresh parent."""
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, exe, str(source), "-o", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    code, peak = proc.stdout.split()
    assert code == "0", proc.stderr
    return int(peak)


def _big_sitemap(path: Path, count: int) -> None:
    with path.open("w", encoding="utf-8") as fh:
        fh.write(f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}">\n')
        for i in range(count):
            fh.write(
                f"<url><loc>https://www.example.com/section-{i % 97}/page-{i}.html</loc>"
                f"<lastmod>2024-05-{1 + i % 28:02d}</lastmod><priority>0.5</priority></url>\n"
            )
        fh.write("</urlset>\n")


@pytest.mark.slow
def test_200k_urls_stream_in_row_groups_in_bounded_memory(tmp_path: Path) -> None:
    from ..conftest import _console_script

    exe = _console_script()
    small, big = tmp_path / "small.xml", tmp_path / "big.xml"
    _big_sitemap(small, 20_000)  # one row group
    _big_sitemap(big, 200_000)  # ten row groups
    small_peak = _peak_kib(exe, small, tmp_path / "small.parquet")
    big_peak = _peak_kib(exe, big, tmp_path / "big.parquet")
    # Holding 200,000 rows would take well over 100 MB more than holding 20,000.
    assert big_peak - small_peak < 48 * 1024, (small_peak, big_peak)
    meta = pq.ParquetFile(tmp_path / "big.parquet").metadata
    assert meta.num_rows == 200_000 and meta.num_row_groups == math.ceil(200_000 / 20_000)
    locs = pq.read_table(tmp_path / "big.parquet", columns=["loc"]).column("loc")
    assert locs[0].as_py() == "https://www.example.com/section-0/page-0.html"
    assert (
        locs[199_999].as_py() == f"https://www.example.com/section-{199_999 % 97}/page-199999.html"
    )
