"""The ``sitemapconv`` command, pandoc-style: ``sitemapconv INPUT... -f FROM -t TO -o OUT``.

A thin layer over the library: every option maps onto a ReadOptions/WriteOptions field or
a library function. Exit codes: 0 success, 1 the input could not be read or converted (one
line on stderr, no traceback), 2 usage error.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import Annotated, Optional

import typer

from . import api
from .dates import parse_w3c
from .errors import SitemapError
from .filters import SORT_KEYS, FilterOptions, Pipeline
from .model import Document, Entry, FeedMeta, When
from .progress import Progress, summary_line
from .registry import UnknownFormat, get_reader, get_writer, reader_names, writer_names
from .version import __version__

app = typer.Typer(
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

EPILOG = """\b
Examples:
  sitemapconv feed.atom -t xml                 Atom feed to an XML sitemap on stdout
  sitemapconv sitemap.xml -o urls.txt          format from the extension
  sitemapconv https://example.com/sitemap.xml -t txt
  cat list.txt | sitemapconv - -f txt -t rss -o feed.rss
  sitemapconv a.xml b.xml --dedupe --since 2024-01-01 --exclude '/tag/' -o pages.csv
"""


class _Say:
    """Where messages go: stderr, one line each; ``--quiet`` keeps only errors."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.warnings = 0

    def warning(self, message: str) -> None:
        self.warnings += 1
        if not self.quiet:
            print(f"sitemapconv: warning: {message}", file=sys.stderr)

    @staticmethod
    def error(message: str) -> None:
        print(f"sitemapconv: error: {message}", file=sys.stderr)


def _list_formats(value: bool) -> None:
    if not value:
        return
    print("Readers:")
    for name in reader_names():
        cls = get_reader(name)
        aliases = f" (aliases: {', '.join(cls.aliases)})" if cls.aliases else ""
        print(f"  {name}{aliases}")
    print("Writers:")
    for name in writer_names():
        wcls = get_writer(name)
        aliases = f" (aliases: {', '.join(wcls.aliases)})" if wcls.aliases else ""
        exts = f" [{', '.join(wcls.extensions)}]" if wcls.extensions else ""
        print(f"  {name}{aliases}{exts}")
    raise typer.Exit(0)


def _version(value: bool) -> None:
    if value:
        print(f"sitemapconv {__version__}")
        raise typer.Exit(0)


def _date_option(value: str | None, name: str) -> When | None:
    """Parse --since/--until as W3C Datetime; a bad date is a usage error (exit 2)."""
    if value is None:
        return None
    when = parse_w3c(value)
    if when is None:
        raise typer.BadParameter(
            f"{value!r} is not a date (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)",
            param_hint=name,
        )
    return when


def _sort_option(value: str | None) -> str | None:
    if value is None or value in SORT_KEYS:
        return value
    raise typer.BadParameter(f"{value!r} is not one of: {', '.join(SORT_KEYS)}")


def _merged(docs: Iterator[Document]) -> Iterator[Entry]:
    for doc in docs:
        with doc:
            yield from doc


@app.command(epilog=EPILOG)
def convert(
    inputs: Annotated[
        Optional[list[str]],  # noqa: UP045 - typer needs Optional on 3.10
        typer.Argument(
            metavar="INPUT...",
            help="Paths, http(s) URLs, or - for stdin. Several inputs are merged in order.",
            show_default=False,
        ),
    ] = None,
    to: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "-t",
            "--to",
            metavar="FORMAT",
            help="Output format (xml, index, rss, atom, atom03, txt, jsonl, csv). "
            "Default: from -o's extension.",
        ),
    ] = None,
    from_: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "-f",
            "--from",
            metavar="FORMAT",
            help="Force the input format instead of detecting it from content.",
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUTPUT",
            help="Output file, written atomically; - for stdout (default).",
        ),
    ] = "-",
    gzip: Annotated[
        bool, typer.Option("--gzip", help="gzip the output (implied by a .gz name on -o).")
    ] = False,
    title: Annotated[
        Optional[str], typer.Option(help="Feed title (rss, atom, atom03).")  # noqa: UP045
    ] = None,
    link: Annotated[
        Optional[str], typer.Option(help="Feed/site link (rss, atom, atom03).")  # noqa: UP045
    ] = None,
    description: Annotated[
        Optional[str], typer.Option(help="Feed description (rss).")  # noqa: UP045
    ] = None,
    # --- transforms ---
    dedupe: Annotated[
        bool, typer.Option("--dedupe", help="Drop repeated URLs (normalised), keeping the first.")
    ] = False,
    include: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--include",
            metavar="REGEX",
            help="Keep only URLs matching REGEX (re.search; repeatable: any matches). "
            "Example: --include '/blog/'",
        ),
    ] = None,
    exclude: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--exclude", metavar="REGEX", help="Drop URLs matching REGEX (repeatable)."),
    ] = None,
    since: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="DATE",
            help="Keep entries whose lastmod is on/after DATE (e.g. 2024-01-31); "
            "entries without lastmod are dropped.",
        ),
    ] = None,
    until: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="DATE",
            help="Keep entries whose lastmod is on/before DATE (a date includes that whole day).",
        ),
    ] = None,
    limit: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(metavar="N", min=0, help="Stop after N entries."),
    ] = None,
    sort: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar="url|lastmod",
            parser=_sort_option,
            help="Sort by url or lastmod (oldest first; undated last). Holds all in memory.",
        ),
    ] = None,
    base_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--base-url", metavar="URL", help="Resolve relative URLs against URL."),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option("-v", "--verbose", help="End with a one-line summary on stderr."),
    ] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing but errors.")] = False,
    list_formats: Annotated[
        bool,
        typer.Option(
            "--list-formats",
            callback=_list_formats,
            is_eager=True,
            help="List the readers and writers, then exit.",
        ),
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version, then exit."
        ),
    ] = False,
) -> None:
    """Convert sitemaps, sitemap indexes, RSS/Atom feeds and URL lists into one another."""
    say = _Say(quiet)
    if not inputs:
        raise typer.BadParameter(
            "give at least one INPUT (a path, a URL, or -)", param_hint="INPUT"
        )
    try:
        pipeline = Pipeline(
            FilterOptions(
                base_url=base_url,
                include=include or (),
                exclude=exclude or (),
                since=_date_option(since, "--since"),
                until=_date_option(until, "--until"),
                dedupe=dedupe,
                sort=sort,  # type: ignore[arg-type]  # _sort_option checked it
                limit=limit,
            )
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--include/--exclude") from None
    progress = Progress.for_terminal(quiet=quiet, output_to_stdout=output == "-")
    try:
        with progress:
            docs = (
                api.read(src, from_, on_warning=say.warning, base_url=base_url) for src in inputs
            )
            first = next(docs)
            meta: FeedMeta = first.prime()
            entries = pipeline(progress.track(_merged(itertools.chain([first], docs))))
            written = api.write(
                entries,
                output,
                to,
                meta=meta,
                on_warning=say.warning,
                gzip=gzip,
                title=title,
                link=link,
                description=description,
            )
        if verbose and not quiet:
            line = summary_line(
                pipeline.stats, written=written, warnings=say.warnings, progress=progress
            )
            print(f"sitemapconv: {line}", file=sys.stderr)
    except UnknownFormat as exc:
        say.error(str(exc))
        raise typer.Exit(2) from None
    except SitemapError as exc:
        say.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        say.error("interrupted")
        raise typer.Exit(130) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None


def main() -> None:
    """Console-script entry point."""
    app(prog_name="sitemapconv")


if __name__ == "__main__":  # pragma: no cover
    main()
