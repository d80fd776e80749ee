"""``sitemapconv --dask``: the command line's side of :mod:`sitemapconv.cluster`.

Picks the output format with the registry's names, runs :func:`~sitemapconv.cluster.read_sitemaps`
on the chosen scheduler, writes the rows, and turns the outcome into the CLI's exit codes.
The rows are the ``-t jsonl`` object plus ``site`` and ``error``, so ``-t jsonl`` and
``-t csv`` write the columns they write without ``--dask``, plus those two; ``-t parquet``
writes a directory of Parquet files (one per partition) with the ``parquet`` writer's
columns plus the same two.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

import typer

from .._options import ReadOptions
from .._registry import canonical, writer_for_filename
from ..errors import SitemapError, UnknownFormat
from .reporter import exit_codes

if TYPE_CHECKING:
    import dask.bag as db

    from .._follow.tasks import Record
    from .options import CliOptions
    from .reporter import Reporter

#: Output formats of a ``--dask`` job.
JOB_FORMATS = ("parquet", "jsonl", "csv")

#: Partitions computed at once when the client writes the rows itself (jsonl, csv).
_BATCH = 64

#: Failed sitemaps named one per line on stderr before the rest are counted.
_SHOWN_FAILURES = 20


def job_format(to: str | None, output: str) -> str | None:
    """The format from ``-t`` (any name or alias), else from ``-o``'s extension."""
    if to is not None:
        return canonical(to)
    if output == "-":
        return None
    try:
        return writer_for_filename(output)
    except UnknownFormat:
        return None


def run_dask(opts: CliOptions, reporter: Reporter) -> None:
    """The command's ``--dask`` mode: run the job, then exit with its code."""
    assert opts.dask is not None
    with exit_codes(reporter):
        code = run_cli_job(
            opts.inputs, scheduler=opts.dask.scheduler, to=opts.to, output=opts.output,
            follow=opts.read.follow, discover=opts.discover,
            read_options=replace(opts.read, on_warning=reporter.warning),
            warn=reporter.warning, error=reporter.error,
        )  # fmt: skip
    raise typer.Exit(code)


def run_cli_job(
    inputs: Iterable[str],
    *,
    scheduler: str,
    to: str | None,
    output: str,
    follow: bool,
    discover: bool,
    read_options: ReadOptions,
    warn: Callable[[str], None],
    error: Callable[[str], None],
) -> int:
    """Read on ``scheduler``, write Parquet, JSON lines or CSV; return the exit code.

    Exit codes as the CLI's: 2 for a usage problem, 1 when the job could not run or not a
    single entry was read, else 0 (failed sitemaps are warned about and kept as error
    rows in the output).
    """
    fmt = job_format(to, output)
    if fmt not in JOB_FORMATS:
        given = to or output
        error(f"--dask writes -t parquet (-o DIR), -t jsonl or -t csv (-o FILE), not {given!r}")
        return 2
    if fmt == "parquet" and (
        output == "-"
        or (os.path.lexists(output) and not os.path.isdir(output))
        or (os.path.isdir(output) and os.listdir(output))
    ):
        error("--dask -t parquet needs -o DIR, a new or empty directory")
        return 2
    try:
        from ..cluster import read_sitemaps, use_scheduler
    except ImportError as exc:  # pragma: no cover - sitemapconv.cluster imports no extra itself
        error(str(exc))
        return 1
    options = replace(read_options, follow=False)  # ``follow`` is read_sitemaps' own
    try:
        with use_scheduler(scheduler):
            bag = read_sitemaps(list(inputs), follow=follow, discover=discover, options=options)
            if fmt == "parquet":
                entries, failures = _write_parquet(bag, output)
            else:
                entries, failures = _write_rows(bag, output, fmt, warn)
    except ImportError as exc:
        error(str(exc))
        return 1
    except SitemapError as exc:
        error(str(exc))
        return 1
    except Exception as exc:  # a cluster that cannot be reached, a full disk...
        error(f"the Dask job failed: {type(exc).__name__}: {exc}")
        return 1
    for sitemap, message in failures[:_SHOWN_FAILURES]:
        warn(f"{sitemap}: {message}")
    if len(failures) > _SHOWN_FAILURES:
        warn(f"... and {len(failures) - _SHOWN_FAILURES} more failed sitemap(s)")
    if failures and not entries:
        error(f"no entries read; {len(failures)} sitemap(s) failed")
        return 1
    return 0


def _rows(bag: db.Bag) -> Iterator[Record]:
    """The bag's rows, computed a batch of partitions at a time, in order."""
    import dask

    parts = bag.to_delayed()
    for i in range(0, len(parts), _BATCH):
        for records in dask.compute(*parts[i : i + _BATCH]):
            yield from records


def _write_rows(
    bag: db.Bag, output: str, fmt: str, warn: Callable[[str], None]
) -> tuple[int, list[tuple[str, str]]]:
    """Write jsonl or csv with the writers' own row mapping; count entries and failures."""
    from .._sink import open_dest

    entries = 0
    failures: list[tuple[str, str]] = []

    def counted(rows: Iterable[Record]) -> Iterator[Record]:
        nonlocal entries
        for row in rows:
            if row["error"] is None:
                entries += 1
            else:
                failures.append((row["sitemap"], row["error"]))
            yield row

    write = _write_jsonl if fmt == "jsonl" else _write_csv
    with open_dest(output, gzip_output=output.lower().endswith(".gz")) as out:
        write(counted(_rows(bag)), out, output, warn)
    return entries, failures


def _write_jsonl(
    rows: Iterable[Record], out: BinaryIO, dest: str, warn: Callable[[str], None]
) -> None:
    from ..writers._jsonl import encode_line

    for row in rows:
        out.write(encode_line(row))


def _write_csv(
    rows: Iterable[Record], out: BinaryIO, dest: str, warn: Callable[[str], None]
) -> None:
    import csv
    import io

    from .._options import WriteOptions
    from ..writers import WriteContext
    from ..writers._csv import COLUMNS, row_cells
    from ..writers._losses import Losses

    losses = Losses("csv", "use jsonl to keep them")
    text = io.TextIOWrapper(out, encoding="utf-8", errors="replace", newline="")
    try:
        writer = csv.writer(text)
        writer.writerow((*COLUMNS, "site", "error"))
        for row in rows:
            writer.writerow([*row_cells(row, losses), row["site"], row["error"]])
        text.flush()
    finally:
        text.detach()  # open_dest owns ``out``
    losses.report(WriteContext(dest=dest, options=WriteOptions(on_warning=warn)))


def _write_parquet(bag: db.Bag, output: str) -> tuple[int, list[tuple[str, str]]]:
    """Write the Parquet directory and count rows and failures in the same computation."""
    import dask

    from ..cluster import to_dataframe

    df = to_dataframe(bag)
    write = df.to_parquet(output, write_index=False, compute=False)
    failed = df[df["error"].notnull()][["sitemap", "error"]]
    _, failures, entries = dask.compute(write, failed, df["loc"].count())
    pairs = [(str(s), str(e)) for s, e in zip(failures["sitemap"], failures["error"], strict=True)]
    return int(entries), pairs
