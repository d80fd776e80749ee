"""The ``sitemapconv`` command, pandoc-style: ``sitemapconv INPUT... -f FROM -t TO -o OUT``.

A thin layer over the library: every option maps onto a ReadOptions/WriteOptions field or
a library function. Exit codes: 0 success, 1 the input could not be read or converted (one
line on stderr, no traceback), 2 usage error.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import Annotated, Any, Optional

import typer

from . import api
from .dates import parse_w3c
from .errors import SitemapError
from .filters import SORT_KEYS, FilterOptions, Pipeline
from .model import Document, Entry, FeedMeta, When
from .notify import DEFAULT_ENDPOINT, NotifyUsageError
from .notify_command import NotifyRequest, UsageError, run_notify
from .progress import Progress, summary_line
from .registry import (
    UnknownFormat,
    get_reader,
    get_writer,
    reader_names,
    writer_for_filename,
    writer_names,
)
from .robots import SitemapUrlError
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
  sitemapconv --update-robots robots.txt --sitemap-url https://example.com/sitemap.xml
  sitemapconv sitemap.xml --indexnow 0123abcd4567ef89 --dry-run
  sitemapconv https://example.com/sitemap_index.xml --follow -t txt
  sitemapconv --discover https://example.com/ --follow -o all.xml
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


def _remote_options(
    follow: bool,
    include: list[str] | None,
    concurrency: int,
    timeout: float,
    retries: int,
    user_agent: str | None,
    headers: list[str] | None,
    max_depth: int,
    max_sitemaps: int,
    allow_private: bool,
) -> dict[str, Any]:
    """ReadOptions fields from the remote-sitemap flags; ValueError on a bad pattern/header."""
    import re

    from .fetch import parse_header
    from .follow import include_filter

    try:
        sitemap_filter = include_filter(include) if include else None
    except re.error as exc:
        raise ValueError(f"--include-sitemap: invalid pattern ({exc})") from None
    return {
        "follow": follow,
        "sitemap_filter": sitemap_filter,
        "concurrency": concurrency,
        "timeout": timeout,
        "retries": retries,
        "user_agent": user_agent,
        "headers": dict(parse_header(h) for h in headers or ()),
        "max_depth": max_depth,
        "max_sitemaps": max_sitemaps,
        "block_private": not allow_private,
    }


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
    # --- notify ---
    robots_line: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--robots-line",
            metavar="URL",
            help="Print the robots.txt line 'Sitemap: URL'. "
            "Example: sitemapconv --robots-line https://example.com/sitemap.xml",
        ),
    ] = None,
    update_robots: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--update-robots",
            metavar="FILE",
            help="Add (or fix) the Sitemap: line for --sitemap-url in an existing robots.txt, "
            "atomically, leaving every other line as it is. Example: "
            "--update-robots robots.txt --sitemap-url https://example.com/sitemap.xml",
        ),
    ] = None,
    sitemap_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--sitemap-url",
            metavar="URL",
            help="Public URL of the sitemap, for --update-robots and --ping "
            "(default: the INPUT when it is one http(s) URL).",
        ),
    ] = None,
    indexnow: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--indexnow",
            metavar="KEY",
            help="Submit the URLs of INPUT to IndexNow with KEY (8-128 of a-z A-Z 0-9 -), "
            "one POST per host and 10,000 URLs. Example: sitemapconv sitemap.xml "
            "--indexnow 0123abcd4567ef89",
        ),
    ] = None,
    indexnow_endpoint: Annotated[
        str,
        typer.Option("--indexnow-endpoint", metavar="URL", help="IndexNow endpoint."),
    ] = DEFAULT_ENDPOINT,
    key_location: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--key-location",
            metavar="URL",
            help="URL of the IndexNow key file when it is not at https://HOST/KEY.txt.",
        ),
    ] = None,
    ping: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--ping",
            metavar="TEMPLATE",
            help="GET TEMPLATE with {} replaced by the percent-encoded sitemap URL "
            "(repeatable; no engine by default). Example: "
            "--ping 'https://engine.example/ping?sitemap={}'",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run",
            help="Show what --indexnow, --ping and --update-robots would send or write; "
            "send and write nothing.",
        ),
    ] = False,
    # --- remote sitemaps ---
    follow: Annotated[
        bool,
        typer.Option(
            "--follow",
            help="Read the pages of every sitemap an index lists, recursively "
            "(e.g. sitemapconv https://example.com/sitemap_index.xml --follow -t txt).",
        ),
    ] = False,
    include_sitemap: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--include-sitemap",
            metavar="PATTERN",
            help="With --follow, read only child sitemaps whose URL matches this regex "
            "(repeatable; e.g. --include-sitemap 'post-sitemap').",
        ),
    ] = None,
    discover: Annotated[
        bool,
        typer.Option(
            "--discover",
            help="INPUTs are sites: find their sitemaps via robots.txt and well-known paths "
            "(e.g. sitemapconv --discover https://example.com/ --follow).",
        ),
    ] = False,
    concurrency: Annotated[
        int,
        typer.Option(metavar="N", min=1, help="Child sitemaps fetched at once (e.g. 4)."),
    ] = 8,
    timeout: Annotated[
        float,
        typer.Option(metavar="SECONDS", min=0.001, help="HTTP read timeout (e.g. 10)."),
    ] = 30.0,
    retries: Annotated[
        int,
        typer.Option(metavar="N", min=0, help="Retries on connection errors, 429, 5xx (e.g. 5)."),
    ] = 3,
    user_agent: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar="UA", help="User-Agent header (e.g. 'mybot/1.0')."),
    ] = None,
    header: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "-H",
            "--header",
            metavar="'NAME: VALUE'",
            help="Extra HTTP header, repeatable (e.g. -H 'Authorization: Bearer X').",
        ),
    ] = None,
    max_depth: Annotated[
        int,
        typer.Option(metavar="N", min=0, help="With --follow, nested index levels (e.g. 2)."),
    ] = 3,
    max_sitemaps: Annotated[
        int,
        typer.Option(metavar="N", min=1, help="With --follow, most sitemaps read (e.g. 500)."),
    ] = 10_000,
    allow_private: Annotated[
        bool,
        typer.Option(
            "--allow-private",
            help="With --follow, also follow children on loopback/private/link-local hosts.",
        ),
    ] = False,
    # --- validate ---
    validate: Annotated[
        bool,
        typer.Option(
            "--validate",
            help="Check the inputs instead of converting them: report each problem with its "
            "file, line, URL and rule. Exit 1 when there is an error. "
            "Example: sitemapconv --validate sitemap.xml",
        ),
    ] = False,
    report: Annotated[
        str,
        typer.Option(
            "--report",
            metavar="[text|json]",
            help="With --validate: the report format, text (default) or json.",
        ),
    ] = "text",
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
        typer.Option(
            "--base-url",
            metavar="URL",
            help="Where the input is served (e.g. https://example.com/sitemap.xml): relative "
            "URLs are resolved against it, and --validate reports URLs outside its scope.",
        ),
    ] = None,
    verbose: Annotated[
        bool,
        typer.Option("-v", "--verbose", help="End with a one-line summary on stderr."),
    ] = False,
    # --- dask ---
    use_dask: Annotated[
        bool,
        typer.Option(
            "--dask",
            help="Read on a Dask cluster, one task per sitemap file, and write "
            "-t parquet -o DIR or -t jsonl -o FILE (needs pip install 'sitemapconv[dask]'). "
            "Example: sitemapconv --dask --scheduler tcp://10.0.0.5:8786 --follow URL... "
            "-t parquet -o out/",
        ),
    ] = False,
    scheduler: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--scheduler",
            metavar="WHERE",
            help="With --dask (implies it): local (a LocalCluster on this machine, the "
            "default), sync, threads, processes, or a scheduler address "
            "(e.g. tcp://10.0.0.5:8786).",
        ),
    ] = None,
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
    notify = NotifyRequest(
        inputs=inputs or (),
        from_=from_,
        robots_line=robots_line,
        update_robots=update_robots,
        sitemap_url=sitemap_url,
        indexnow_key=indexnow,
        endpoint=indexnow_endpoint,
        key_location=key_location,
        pings=ping or (),
        dry_run=dry_run,
    )
    if notify.wanted or sitemap_url is not None or dry_run:
        _notify(notify, say, converting=output != "-" or to is not None or gzip)
    if not inputs:
        raise typer.BadParameter(
            "give at least one INPUT (a path, a URL, or -)", param_hint="INPUT"
        )
    if validate:
        from .report import FORMATS, run

        if report not in FORMATS:
            raise typer.BadParameter("use text or json", param_hint="--report")
        raise typer.Exit(run(inputs, report_format=report, location=base_url, follow=follow))
    if to is None and (output == "-" or writer_for_filename(output) is None):
        raise typer.BadParameter(
            "give -t FORMAT, or -o with a known extension (.xml, .rss, .atom, .txt...)",
            param_hint="-t/--to",
        )
    try:
        remote = _remote_options(
            follow, include_sitemap, concurrency, timeout, retries, user_agent, header,
            max_depth, max_sitemaps, allow_private,
        )  # fmt: skip
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if use_dask or scheduler is not None:
        from .dask import run_cli_job

        code = run_cli_job(
            inputs, scheduler=scheduler or "local", to=to, output=output, follow=follow,
            discover=discover, read_options={**remote, "on_warning": say.warning},
            warn=say.warning, error=say.error,
        )  # fmt: skip
        raise typer.Exit(code)
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
            docs: Iterator[Document]
            if discover:
                from .discover import read_discovered
                from .options import ReadOptions

                opts = ReadOptions(on_warning=say.warning, base_url=base_url, **remote)
                docs = read_discovered(inputs, from_, opts)
            else:
                docs = (
                    api.read(src, from_, on_warning=say.warning, base_url=base_url, **remote)
                    for src in inputs
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


def _notify(req: NotifyRequest, say: _Say, *, converting: bool) -> None:
    """Run the notify actions instead of a conversion, then exit."""
    if not req.wanted:
        raise typer.BadParameter(
            "--sitemap-url and --dry-run go with --update-robots, --ping or --indexnow"
        )
    if converting:
        raise typer.BadParameter(
            "notify options (--robots-line, --update-robots, --ping, --indexnow) do not convert: "
            "drop -o/-t/--gzip, or run the conversion as its own command"
        )
    try:
        code = run_notify(req, out=print if not say.quiet else lambda _: None, warn=say.warning)
    except (NotifyUsageError, SitemapUrlError, UsageError, UnknownFormat) as exc:
        say.error(str(exc))
        raise typer.Exit(2) from None
    except SitemapError as exc:
        say.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        say.error("interrupted")
        raise typer.Exit(130) from None
    raise typer.Exit(code)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="sitemapconv")


if __name__ == "__main__":  # pragma: no cover
    main()
