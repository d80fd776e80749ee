"""The command's default mode: read the INPUTs, filter the entries, write one output.

Partial runs (some inputs or followed children failed) write the rest and exit 3, unless
``--strict``; with ``--strict`` and stdout, nothing is streamed until everything was read.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO, cast

import typer

from .. import _api as api
from .._door import one_budget
from .._filters import Pipeline
from .._model import Document, Entry, FeedMeta
from .._options import ReadOptions, WriteOptions
from .._outcome import Run
from .._progress import Progress, summary_line
from .._sink import open_dest
from .._spool import SPOOL_MEMORY
from .options import CliOptions
from .reporter import Reporter, exit_codes


def run_convert(
    opts: CliOptions, fmt: str, write: WriteOptions, pipeline: Pipeline, reporter: Reporter
) -> None:
    """Convert, print the partial or ``-v`` summary line, then exit with the run's code."""
    read = replace(opts.read, on_warning=reporter.warning, base_url=opts.filters.base_url)
    progress = Progress.for_terminal(quiet=opts.quiet, output_to_stdout=opts.to_stdout)
    outcome = Run(
        several=len(opts.inputs) > 1 or opts.discover,
        strict=opts.strict,
        on_failure=reporter.warning,
    )
    # One --max-sitemaps budget for the whole run, however many INPUTs it reads.
    with exit_codes(reporter), progress, one_budget(read.max_sitemaps):
        docs = outcome.documents(_open_inputs(opts, read))
        meta, docs = outcome.prime(docs)
        entries = outcome.entries(docs)
        if progress.display or opts.verbose:  # counting costs a generator layer per entry
            entries = progress.track(entries)
        if pipeline.options.active or opts.verbose:
            entries = pipeline(entries)
        if opts.strict and opts.to_stdout:
            written = _write_held(entries, fmt, meta, write)
        else:
            written = api.write(entries, opts.output, fmt, meta=meta, options=write)
    if opts.verbose:
        reporter.info(
            summary_line(
                pipeline.stats, written=written, warnings=reporter.warnings, progress=progress
            )
        )
    if outcome.exit_code:
        # Always shown, even under --quiet: a cron job must see that the result is partial.
        print(
            f"sitemapconv: partial: {outcome.describe_failures()}; wrote {written:,} entries "
            f"from the rest (exit {outcome.exit_code}; --strict makes this an error)",
            file=sys.stderr,
        )
    raise typer.Exit(outcome.exit_code)


def _write_held(entries: Iterable[Entry], fmt: str, meta: FeedMeta, write: WriteOptions) -> int:
    """Write to stdout only once everything was read (``--strict``): a run that fails at
    the end must not have streamed half a document into a pipe."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY) as held:
        count = api.write(entries, cast(BinaryIO, held), fmt, meta=meta, options=write)
        held.seek(0)
        with open_dest("-") as out:
            shutil.copyfileobj(held, out, 1024 * 1024)
    return count


def _open_inputs(
    opts: CliOptions, read: ReadOptions
) -> Iterator[tuple[str, Callable[[], Iterable[Document]]]]:
    """The INPUTs as groups of documents, each opened when the merge reaches it."""
    inputs, from_ = list(opts.inputs), opts.from_
    if opts.discover:
        from .._discover import read_discovered

        yield "discovery", lambda: read_discovered(inputs, from_, read)
        return

    def opener(src: str) -> Callable[[], Iterable[Document]]:
        return lambda: [api.read(src, from_, options=read)]

    for src in inputs:
        yield src, opener(src)
