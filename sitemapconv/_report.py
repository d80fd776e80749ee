"""Showing a validation :class:`~sitemapconv._problems.Report` to people and to machines.

Text is one compiler-style line per problem (``file:line:col: severity: message [rule]``,
so editors and ``grep`` understand it), the URL on the next line, and a summary count at the
end. Colour (through rich, imported only then) is used only when writing to a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from ._options import ReadOptions
from ._problems import Problem, Report

FORMATS = ("text", "json")


def _where(p: Problem) -> str:
    where = p.source
    if p.line is not None:
        where += f":{p.line}"
        if p.column is not None:
            where += f":{p.column}"
    return where


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def summary(report: Report) -> str:
    files = len(dict.fromkeys(report.sources))
    text = (
        f"{_plural(report.errors, 'error')}, {_plural(report.warnings, 'warning')} "
        f"in {_plural(files, 'file')} ({_plural(report.urls, 'URL')} checked)"
    )
    if report.suppressed:
        text += f"; {report.suppressed:,} more of the same kinds not shown"
    return text


def render_text(report: Report, file: TextIO | None = None, *, color: bool | None = None) -> None:
    """Write the report for a terminal; colour only when ``file`` is a TTY (or ``color``)."""
    stream = file if file is not None else sys.stdout
    if color is None:
        color = stream.isatty()
    if color:
        _render_rich(report, stream)
        return
    for p in report.problems:
        print(f"{_where(p)}: {p.severity}: {p.message} [{p.rule}]", file=stream)
        if p.url:
            print(f"    {p.url}", file=stream)
    verdict = "valid" if report.ok else "INVALID"
    print(f"{verdict}: {summary(report)}", file=stream)


def _render_rich(report: Report, stream: TextIO) -> None:
    from rich.console import Console
    from rich.text import Text

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
    styles = {"error": "bold red", "warning": "yellow"}
    for p in report.problems:
        line = Text()
        line.append(_where(p), style="bold")
        line.append(": ")
        line.append(p.severity, style=styles[p.severity])
        line.append(f": {p.message} ")
        line.append(f"[{p.rule}]", style="dim")
        console.print(line)
        if p.url:
            console.print(Text(f"    {p.url}", style="cyan"))
    verdict = Text(
        "valid" if report.ok else "INVALID", style="bold green" if report.ok else "bold red"
    )
    console.print(Text.assemble(verdict, f": {summary(report)}"))


def run(
    inputs: Sequence[str],
    *,
    report_format: str = "text",
    location: str | None = None,
    follow: bool = False,
    file: TextIO | None = None,
    options: ReadOptions | None = None,
) -> int:
    """The CLI's ``--validate``: validate each input, print the report, return the exit code.

    ``options`` carries the remote flags (timeouts, headers, ``--allow-private``...).
    """
    from ._validate import validate

    opts = options if options is not None else ReadOptions()
    total = Report()
    for source in inputs:
        total.merge(validate(source, location=location, follow=follow, options=opts))
    stream = file if file is not None else sys.stdout
    if report_format == "json":
        print(total.to_json(), file=stream)
    else:
        render_text(total, stream)
    return 0 if total.ok else 1
