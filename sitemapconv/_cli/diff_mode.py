"""The ``--diff OLD`` half of the ``sitemapconv`` command: write what changed.

Kept out of :mod:`sitemapconv._cli.main` so the CLI stays glue. Three outputs are *change
records*, one per added, removed or changed URL:

- ``jsonl``: ``{"change": "changed", "loc": ..., "old_lastmod": ..., "new_lastmod": ...,
  "fields": ["lastmod"]}`` (dates as W3C text, ``null`` when absent);
- ``csv``: the header ``change,loc,old_lastmod,new_lastmod,fields`` (fields space-separated);
- ``txt``: ``+ URL`` (added), ``- URL`` (removed), ``~ URL`` (changed), the URL
  percent-encoded as the ``txt`` writer does.

Every other writer of the registry (``xml``, ``rss``, ``atom``, plug-ins...) gets the added
and changed *entries* of the new side, as that format: a sitemap or feed of what is new.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

import typer

from .. import _api as api
from .._dates import format_w3c
from .._diff import DEFAULT_FIELDS, Change, Comparison, diff
from .._filters import FilterOptions
from .._model import When
from .._options import ReadOptions, WriteOptions
from .._progress import Progress
from .._sink import Dest, dest_name, open_dest
from .._urls import encode_url

if TYPE_CHECKING:
    from .options import CliOptions
    from .reporter import Reporter

#: Output formats written as change records rather than as entries.
RECORD_FORMATS: tuple[str, ...] = ("jsonl", "csv", "txt")
CSV_COLUMNS: tuple[str, ...] = ("change", "loc", "old_lastmod", "new_lastmod", "fields")
_TXT_MARK = {"added": "+", "removed": "-", "changed": "~"}


def _w3c(when: When | None) -> str | None:
    return None if when is None else format_w3c(when)


def _jsonl(changes: Iterable[Change], out: BinaryIO) -> int:
    count = 0
    for c in changes:
        record = {
            "change": c.change,
            "loc": c.loc,
            "old_lastmod": _w3c(c.old_lastmod),
            "new_lastmod": _w3c(c.new_lastmod),
            "fields": list(c.fields),
        }
        out.write(json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        out.write(b"\n")
        count += 1
    return count


def _csv(changes: Iterable[Change], out: BinaryIO) -> int:
    text = io.TextIOWrapper(out, encoding="utf-8", errors="surrogatepass", newline="")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    count = 0
    for c in changes:
        writer.writerow(
            (c.change, c.loc, _w3c(c.old_lastmod) or "", _w3c(c.new_lastmod) or "",
             " ".join(c.fields))
        )  # fmt: skip
        count += 1
    text.flush()
    text.detach()
    return count


def _txt(changes: Iterable[Change], out: BinaryIO) -> int:
    count = 0
    for c in changes:
        # Percent-encoded like the txt writer's URLs, so one never spans lines.
        out.write(f"{_TXT_MARK[c.change]} {encode_url(c.loc)}\n".encode("utf-8", "surrogatepass"))
        count += 1
    return count


def write_changes(
    changes: Iterable[Change], dest: Dest, fmt: str, *, gzip_output: bool = False
) -> int:
    """Write change records as ``jsonl``, ``csv`` or ``txt``; returns how many."""
    write = {"jsonl": _jsonl, "csv": _csv, "txt": _txt}[fmt]
    gzip_output = gzip_output or dest_name(dest).lower().endswith(".gz")
    with open_dest(dest, gzip_output=gzip_output) as out:
        return write(changes, out)


def write_comparison(
    comparison: Comparison,
    dest: Dest,
    fmt: str,
    write_options: WriteOptions,
) -> int:
    """Write a comparison in ``fmt``: change records, or the new and changed entries."""
    if fmt in RECORD_FORMATS:
        return write_changes(comparison, dest, fmt, gzip_output=write_options.gzip)
    meta = comparison.prime()
    entries = (c.entry for c in comparison if c.entry is not None)
    return api.write(entries, dest, fmt, meta=meta, options=write_options)


def diff_format(to: str | None, output: str) -> str:
    """The output format of a comparison: ``-t``, else ``-o``'s extension; ``txt`` on stdout."""
    from .args import output_format

    return "txt" if to is None and output == "-" else output_format(to, output)


def changed_urls(
    new: str,
    old: str,
    *,
    fields: Sequence[str] = DEFAULT_FIELDS,
    filters: FilterOptions | None,
    from_: str | None,
    read_options: ReadOptions,
) -> Callable[[Callable[[str], None]], Iterator[str]]:
    """For ``--indexnow`` with ``--diff``: a source of the added and changed URLs only."""

    def urls(warn: Callable[[str], None]) -> Iterator[str]:
        opts = replace(read_options, on_warning=warn)
        comparison = diff(
            old, new, fields=fields, filters=filters, new_format=from_, options=opts,
        )  # fmt: skip
        for change in comparison:
            if change.change != "removed":
                yield change.loc

    return urls


def run_diff(opts: CliOptions, fmt: str, write: WriteOptions, reporter: Reporter) -> None:
    """``--diff OLD``: write what changed from OLD to the INPUT, or IndexNow it; then exit."""
    from .._diff import check_fields
    from .notify_mode import run_notify_command
    from .reporter import exit_codes

    assert opts.diff is not None
    if len(opts.inputs) != 1:
        raise typer.BadParameter("--diff compares one INPUT with OLD", param_hint="INPUT")
    fields = opts.diff.fields
    try:
        names = check_fields(fields.split(",")) if fields is not None else DEFAULT_FIELDS
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--diff-fields") from None
    if opts.notify.wanted:
        notify = replace(
            opts.notify,
            url_source=changed_urls(
                opts.inputs[0], opts.diff.old, fields=names, filters=opts.filters,
                from_=opts.from_, read_options=opts.read,
            ),
        )  # fmt: skip
        run_notify_command(notify, reporter, converting=not opts.to_stdout)
    progress = Progress.for_terminal(quiet=reporter.quiet, output_to_stdout=opts.to_stdout)
    with exit_codes(reporter), progress:
        comparison = diff(
            opts.diff.old, opts.inputs[0], fields=names, filters=opts.filters,
            new_format=opts.from_, options=replace(opts.read, on_warning=reporter.warning),
        )  # fmt: skip
        write_comparison(comparison, opts.output, fmt, write)
    reporter.info(comparison.stats.summary())
    raise typer.Exit(0)
