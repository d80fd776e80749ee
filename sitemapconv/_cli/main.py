"""The ``sitemapconv`` command, pandoc-style: ``sitemapconv INPUT... -f FROM -t TO -o OUT``.

A thin layer over the library: every option maps onto a ReadOptions/WriteOptions field,
a filter, or a library function (validate, notify, dask); option values are turned into
library options by :mod:`sitemapconv._cli.args`. Exit codes (:mod:`sitemapconv._outcome`):
0 complete, 1 failed with nothing written or replaced (one line on stderr, no traceback),
2 usage error, 3 partial (some inputs or followed children failed; the rest is written),
128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP) with temporary files removed.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import Annotated, Any, BinaryIO, cast

import typer

from .. import _api as api
from .. import _termination as termination
from .._filters import FilterOptions, Pipeline
from .._model import Document, Entry, FeedMeta
from .._outcome import EXIT_PARTIAL, Run
from .._progress import Progress, summary_line
from .._registry import UnknownFormat
from .._robots import SitemapUrlError
from .._sink import open_dest
from .._spool import SPOOL_MEMORY
from ..errors import SitemapError
from ..notify import DEFAULT_ENDPOINT, NotifyUsageError
from . import args as cliargs
from .diff_mode import changed_urls, diff_format, write_comparison
from .notify_mode import NotifyRequest, UsageError, run_notify

app = typer.Typer(
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)

EPILOG = """Examples:

  sitemapconv feed.atom -t xml                      Atom feed to an XML sitemap on stdout

  sitemapconv sitemap.xml -o urls.txt               format from the extension

  sitemapconv https://example.com/sitemap_index.xml --follow -o all.xml

  sitemapconv --discover https://example.com/ --follow -t txt

  cat list.txt | sitemapconv - -f txt -t rss -o feed.rss

  sitemapconv a.xml b.xml --dedupe --since 2024-01-01 --exclude '/tag/' -o pages.csv

  sitemapconv --validate sitemap.xml

  sitemapconv sitemap.xml --indexnow 0123abcd4567ef89 --dry-run

  sitemapconv https://example.com/sitemap_index.xml --follow --cache ~/.cache/sitemaps \\
      --diff yesterday.xml -t jsonl -o changes.jsonl

Exit codes: 0 complete; 1 failed, nothing written or replaced; 2 usage error;
3 partial: some inputs or followed child sitemaps failed, the rest was written
(--strict makes that a failure); 128+N stopped by signal N, old output intact.
"""

INPUT = "Input"
REMOTE = "Remote sitemaps"
FILTERS = "Filters"
SITEMAP_OUT = "Sitemap output"
FEED_OUT = "Feed output"
VALIDATE = "Validate"
NOTIFY = "Tell search engines"
DASK = "Scale-out (Dask)"
DIFF = "Compare snapshots and cache"


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


@app.command(epilog=EPILOG)
def convert(
    inputs: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="INPUT...",
            help="Paths, http(s) URLs, or - for stdin. Several inputs are merged in order.",
            show_default=False,
        ),
    ] = None,
    to: Annotated[
        str | None,
        typer.Option(
            "-t", "--to", metavar="FORMAT",
            help="Output format: xml, index, rss, atom, atom03, txt, jsonl, csv, jsonfeed, "
            "parquet. "
            "Default: from -o's extension.",
        ),
    ] = None,
    from_: Annotated[
        str | None,
        typer.Option(
            "-f", "--from", metavar="FORMAT",
            help="Force the input format instead of detecting it from content.",
        ),
    ] = None,
    output: Annotated[
        str,
        typer.Option(
            "-o", "--output", metavar="OUTPUT",
            help="Output file, written atomically; - for stdout (the default).",
            show_default=False,
        ),
    ] = "-",
    gzip: Annotated[
        bool, typer.Option("--gzip", help="gzip the output (implied by a .gz name on -o).")
    ] = False,
    quiet: Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing but errors.")] = False,
    verbose: Annotated[
        bool, typer.Option("-v", "--verbose", help="End with a one-line summary on stderr.")
    ] = False,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="Fail (exit 1, write and replace nothing) when any input "
                     "or followed child sitemap fails, instead of writing the rest (exit 3)."),
    ] = False,
    list_formats: Annotated[
        bool,
        typer.Option("--list-formats", callback=cliargs.list_formats, is_eager=True,
                     help="List the readers and writers, then exit."),
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", callback=cliargs.show_version, is_eager=True,
                     help="Show the version, then exit."),
    ] = False,
    # --- input ---
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", metavar="URL", rich_help_panel=INPUT,
            help="Where the files live, e.g. https://example.com/: relative URLs are "
            "resolved against it, split sitemap parts are listed under it, and --validate "
            "reports URLs outside its scope.",
        ),
    ] = None,
    max_bytes: Annotated[
        int | None,
        typer.Option(
            "--max-bytes", metavar="N", min=1, rich_help_panel=INPUT,
            help="Cap on the bytes one input may yield after decompression "
            "(default 104857600).",
        ),
    ] = None,
    # --- remote sitemaps ---
    follow: Annotated[
        bool,
        typer.Option("--follow", rich_help_panel=REMOTE,
                     help="Read the pages of every sitemap an index lists, recursively."),
    ] = False,
    include_sitemap: Annotated[
        list[str] | None,
        typer.Option(
            "--include-sitemap", metavar="REGEX", rich_help_panel=REMOTE,
            help="With --follow, read only child sitemaps whose URL matches (repeatable).",
        ),
    ] = None,
    discover: Annotated[
        bool,
        typer.Option("--discover", rich_help_panel=REMOTE,
                     help="INPUTs are sites: find their sitemaps in robots.txt and at the "
                     "well-known paths."),
    ] = False,
    concurrency: Annotated[
        int,
        typer.Option(metavar="N", min=1, rich_help_panel=REMOTE,
                     help="Child sitemaps fetched at once."),
    ] = 8,
    timeout: Annotated[
        float,
        typer.Option(metavar="SECONDS", min=0.001, rich_help_panel=REMOTE,
                     help="HTTP timeout of one attempt, connect to last byte."),
    ] = 30.0,
    retries: Annotated[
        int,
        typer.Option(metavar="N", min=0, rich_help_panel=REMOTE,
                     help="Retries on connection errors, 429 and 5xx."),
    ] = 3,
    user_agent: Annotated[
        str | None,
        typer.Option(metavar="UA", rich_help_panel=REMOTE,
                     help="User-Agent header (default: sitemapconv/VERSION)."),
    ] = None,
    header: Annotated[
        list[str] | None,
        typer.Option("-H", "--header", metavar="'NAME: VALUE'", rich_help_panel=REMOTE,
                     help="Extra HTTP header (repeatable); sent only to the input URL's "
                     "origin unless --forward-headers."),
    ] = None,
    forward_headers: Annotated[
        bool,
        typer.Option("--forward-headers", rich_help_panel=REMOTE,
                     help="Also send -H headers to other origins (redirects, children)."),
    ] = False,
    max_depth: Annotated[
        int,
        typer.Option(metavar="N", min=0, rich_help_panel=REMOTE,
                     help="With --follow, nested index levels followed."),
    ] = 3,
    max_sitemaps: Annotated[
        int,
        typer.Option(metavar="N", min=1, rich_help_panel=REMOTE,
                     help="With --follow, most sitemaps read."),
    ] = 10_000,
    allow_private: Annotated[
        bool,
        typer.Option("--allow-private", rich_help_panel=REMOTE,
                     help="Also follow children on loopback, private or link-local hosts."),
    ] = False,
    # --- filters ---
    dedupe: Annotated[
        bool,
        typer.Option("--dedupe", rich_help_panel=FILTERS,
                     help="Drop repeated URLs (normalised), keeping the first."),
    ] = False,
    include: Annotated[
        list[str] | None,
        typer.Option("--include", metavar="REGEX", rich_help_panel=FILTERS,
                     help="Keep only URLs matching REGEX (repeatable: any matches)."),
    ] = None,
    exclude: Annotated[
        list[str] | None,
        typer.Option("--exclude", metavar="REGEX", rich_help_panel=FILTERS,
                     help="Drop URLs matching REGEX (repeatable)."),
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(metavar="DATE", rich_help_panel=FILTERS,
                     help="Keep entries whose lastmod is on or after DATE, e.g. 2024-01-31."),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(metavar="DATE", rich_help_panel=FILTERS,
                     help="Keep entries whose lastmod is on or before DATE."),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option(metavar="N", min=0, rich_help_panel=FILTERS, help="Stop after N entries."),
    ] = None,
    sort: Annotated[
        str | None,
        typer.Option(metavar="url|lastmod", parser=cliargs.sort_value, rich_help_panel=FILTERS,
                     help="Sort by url or lastmod (undated last). Holds every entry in memory."),
    ] = None,
    # --- sitemap output ---
    no_split: Annotated[
        bool,
        typer.Option("--no-split", rich_help_panel=SITEMAP_OUT,
                     help="Write one file even past 50,000 URLs or 50 MB (with a warning); "
                     "by default -o FILE is split into FILE-1.xml... plus an index."),
    ] = False,
    max_urls: Annotated[
        int,
        typer.Option(metavar="N", min=1, max=50_000, rich_help_panel=SITEMAP_OUT,
                     help="URLs per sitemap file before splitting."),
    ] = 50_000,
    max_file_bytes: Annotated[
        int,
        typer.Option(metavar="N", min=1, max=52_428_800, rich_help_panel=SITEMAP_OUT,
                     help="Uncompressed bytes per sitemap file before splitting."),
    ] = 52_428_800,
    part_name: Annotated[
        str | None,
        typer.Option(metavar="STEM", rich_help_panel=SITEMAP_OUT, parser=cliargs.part_name_value,
                     help="Name split parts STEM-1.xml... (default: the -o file's stem)."),
    ] = None,
    date_only: Annotated[
        bool,
        typer.Option("--date-only", rich_help_panel=SITEMAP_OUT,
                     help="Write lastmod as YYYY-MM-DD."),
    ] = False,
    # --- feed output ---
    title: Annotated[
        str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed title.")
    ] = None,
    link: Annotated[
        str | None, typer.Option(rich_help_panel=FEED_OUT, help="Site link of the feed.")
    ] = None,
    description: Annotated[
        str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed description (rss).")
    ] = None,
    author: Annotated[
        str | None,
        typer.Option(rich_help_panel=FEED_OUT, help="Feed author (atom, atom03).")
    ] = None,
    feed_id: Annotated[
        str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed id (atom).")
    ] = None,
    self_link: Annotated[
        str | None,
        typer.Option(rich_help_panel=FEED_OUT, help="URL where the feed itself is served.")
    ] = None,
    # --- validate ---
    validate: Annotated[
        bool,
        typer.Option("--validate", rich_help_panel=VALIDATE,
                     help="Check the inputs instead of converting them; exit 1 on errors."),
    ] = False,
    report: Annotated[
        str,
        typer.Option("--report", metavar="text|json", rich_help_panel=VALIDATE,
                     help="With --validate: the report format."),
    ] = "text",
    # --- notify ---
    robots_line: Annotated[
        str | None,
        typer.Option("--robots-line", metavar="URL", rich_help_panel=NOTIFY,
                     help="Print the robots.txt line 'Sitemap: URL'."),
    ] = None,
    update_robots: Annotated[
        str | None,
        typer.Option("--update-robots", metavar="FILE", rich_help_panel=NOTIFY,
                     help="Add or fix the Sitemap: line for --sitemap-url in an existing "
                     "robots.txt, atomically, leaving every other line as it is."),
    ] = None,
    sitemap_url: Annotated[
        str | None,
        typer.Option("--sitemap-url", metavar="URL", rich_help_panel=NOTIFY,
                     help="Public URL of the sitemap, for --update-robots and --ping "
                     "(default: the INPUT when it is one http(s) URL)."),
    ] = None,
    indexnow: Annotated[
        str | None,
        typer.Option("--indexnow", metavar="KEY", rich_help_panel=NOTIFY,
                     help="Submit the URLs of the INPUTs to IndexNow: one POST per host and "
                     "10,000 URLs."),
    ] = None,
    indexnow_endpoint: Annotated[
        str,
        typer.Option("--indexnow-endpoint", metavar="URL", rich_help_panel=NOTIFY,
                     help="IndexNow endpoint."),
    ] = DEFAULT_ENDPOINT,
    key_location: Annotated[
        str | None,
        typer.Option("--key-location", metavar="URL", rich_help_panel=NOTIFY,
                     help="URL of the IndexNow key file when it is not at https://HOST/KEY.txt."),
    ] = None,
    ping: Annotated[
        list[str] | None,
        typer.Option("--ping", metavar="TEMPLATE", rich_help_panel=NOTIFY,
                     help="GET TEMPLATE with {} replaced by the encoded sitemap URL "
                     "(repeatable; no engine by default)."),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option("--dry-run", rich_help_panel=NOTIFY,
                     help="Show what --indexnow, --ping and --update-robots would do; "
                     "send and write nothing."),
    ] = False,
    # --- dask ---
    use_dask: Annotated[
        bool,
        typer.Option("--dask", rich_help_panel=DASK,
                     help="Read on a Dask cluster, one task per sitemap file; write "
                     "-t parquet -o DIR, -t jsonl or -t csv -o FILE (needs the dask extra)."),
    ] = False,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", metavar="WHERE", rich_help_panel=DASK,
                     help="With --dask (implies it): local (the default), sync, threads, "
                     "processes, or a scheduler address such as tcp://10.0.0.5:8786."),
    ] = None,
    # --- compare snapshots, cache ---
    diff: Annotated[
        str | None,
        typer.Option("--diff", metavar="OLD", rich_help_panel=DIFF,
                     help="Report what changed from OLD (path or URL, any format) to the "
                     "INPUT: -t txt (default) +/-/~ lines, jsonl or csv records; xml, rss, "
                     "atom, jsonfeed...: the added and changed entries."),
    ] = None,
    diff_fields: Annotated[
        str | None,
        typer.Option("--diff-fields", metavar="FIELD,...", rich_help_panel=DIFF,
                     help="With --diff, what makes a URL changed (default lastmod): "
                     "lastmod, changefreq, priority, title, summary, published, images, "
                     "videos, news, alternates."),
    ] = None,
    cache: Annotated[
        str | None,
        typer.Option("--cache", metavar="DIR", rich_help_panel=DIFF,
                     help="Keep fetched sitemaps in DIR; later runs revalidate them "
                     "(If-None-Match / If-Modified-Since) and reuse them on 304."),
    ] = None,
    cache_max_bytes: Annotated[
        int,
        typer.Option("--cache-max-bytes", metavar="N", min=1, rich_help_panel=DIFF,
                     help="Size bound of the --cache database (least recently used first)."),
    ] = 1024**3,
    trust_index_lastmod: Annotated[
        bool,
        typer.Option("--trust-index-lastmod", rich_help_panel=DIFF,
                     help="With --cache and --follow, reuse a cached child sitemap without "
                     "any request when its <lastmod> in the index has not changed."),
    ] = False,
) -> None:  # fmt: skip
    """Convert sitemaps, sitemap indexes, RSS/Atom feeds and URL lists into one another."""
    say = _Say(quiet)
    remote = cliargs.remote_options(
        follow=follow, include=include_sitemap, concurrency=concurrency, timeout=timeout,
        retries=retries, user_agent=user_agent, headers=header, max_depth=max_depth,
        max_sitemaps=max_sitemaps, allow_private=allow_private, max_bytes=max_bytes,
    )  # fmt: skip
    remote["forward_headers"] = forward_headers
    if cache is not None and not cache.strip():
        raise typer.BadParameter("give the cache folder", param_hint="--cache")
    if trust_index_lastmod and (cache is None or not follow):
        raise typer.BadParameter(
            "goes with --cache DIR and --follow", param_hint="--trust-index-lastmod"
        )
    if cache is not None:
        remote.update(
            cache=cache, cache_max_bytes=cache_max_bytes, trust_index_lastmod=trust_index_lastmod
        )
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
        read_options=remote,
        strict=strict,
    )
    if (notify.wanted or sitemap_url is not None or dry_run) and diff is None:
        _notify(notify, say, converting=output != "-" or to is not None or gzip)
    if not inputs:
        raise typer.BadParameter(
            "give at least one INPUT (a path, a URL, or -)", param_hint="INPUT"
        )
    if diff is None and diff_fields is not None:
        raise typer.BadParameter("goes with --diff OLD", param_hint="--diff-fields")
    if diff is not None and (validate or use_dask or scheduler is not None or discover):
        raise typer.BadParameter(
            "does not combine with --validate, --dask or --discover", param_hint="--diff"
        )
    if validate:
        from .._report import FORMATS, run

        if report not in FORMATS:
            raise typer.BadParameter("use text or json", param_hint="--report")
        from .._options import ReadOptions

        remote_opts = ReadOptions(**{k: v for k, v in remote.items() if k != "follow"})
        raise typer.Exit(
            run(inputs, report_format=report, location=base_url, follow=follow, options=remote_opts)
        )
    if use_dask or scheduler is not None:
        from .dask_mode import run_cli_job

        try:
            with termination.terminating_signals():
                code = run_cli_job(
                    inputs, scheduler=scheduler or "local", to=to, output=output,
                    follow=follow, discover=discover,
                    read_options={**remote, "on_warning": say.warning},
                    warn=say.warning, error=say.error,
                )  # fmt: skip
        except termination.Terminated as exc:
            termination.remove_pending()
            say.error(f"stopped by {exc}; the output was not replaced")
            raise typer.Exit(exc.exit_code) from None
        raise typer.Exit(code)
    try:
        fmt = cliargs.output_format(to, output) if diff is None else diff_format(to, output)
        pipeline = Pipeline(
            FilterOptions(
                base_url=base_url,
                include=include or (),
                exclude=exclude or (),
                since=cliargs.date_value(since, "--since"),
                until=cliargs.date_value(until, "--until"),
                dedupe=dedupe,
                sort=sort,  # type: ignore[arg-type]  # cliargs.sort_value checked it
                limit=limit,
            )
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--include/--exclude") from None
    write_options: dict[str, Any] = {
        "on_warning": say.warning, "gzip": gzip, "title": title, "link": link,
        "description": description, "author": author, "feed_id": feed_id,
        "self_link": self_link, "date_only": date_only, "base_url": base_url,
        "split": cliargs.split_choice(fmt, output, no_split), "max_urls": max_urls,
        "max_file_bytes": max_file_bytes, "part_name": part_name,
    }  # fmt: skip
    if diff is not None:
        _diff(inputs, diff, diff_fields, from_, fmt, output, pipeline.options, say, notify,
              remote, write_options)  # fmt: skip
    progress = Progress.for_terminal(quiet=quiet, output_to_stdout=output == "-")
    outcome = Run(several=len(inputs) > 1 or discover, strict=strict, on_failure=say.warning)
    try:
        with termination.terminating_signals(), progress:
            docs = outcome.documents(_open_inputs(inputs, from_, discover, say, base_url, remote))
            meta, docs = outcome.prime(docs)
            entries = outcome.entries(docs)
            if progress.display or verbose:  # counting costs a generator layer per entry
                entries = progress.track(entries)
            if pipeline.options.active or verbose:
                entries = pipeline(entries)
            if strict and output == "-":
                written = _write_held(entries, fmt, meta, write_options)
            else:
                written = api.write(entries, output, fmt, meta=meta, **write_options)
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
        termination.remove_pending()
        say.error("interrupted")
        raise typer.Exit(130) from None
    except termination.Terminated as exc:
        termination.remove_pending()
        say.error(f"stopped by {exc}; the output was not replaced")
        raise typer.Exit(exc.exit_code) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None
    if outcome.exit_code:
        # Always shown, even under --quiet: a cron job must see that the result is partial.
        print(
            f"sitemapconv: partial: {outcome.describe_failures()}; wrote {written:,} entries "
            f"from the rest (exit {outcome.exit_code}; --strict makes this an error)",
            file=sys.stderr,
        )
    raise typer.Exit(outcome.exit_code)


def _write_held(
    entries: Iterable[Entry], fmt: str, meta: FeedMeta, write_options: dict[str, Any]
) -> int:
    """Write to stdout only once everything was read (``--strict``): a run that fails at
    the end must not have streamed half a document into a pipe."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY) as held:
        count = api.write(entries, cast(BinaryIO, held), fmt, meta=meta, **write_options)
        held.seek(0)
        with open_dest("-") as out:
            shutil.copyfileobj(held, out, 1024 * 1024)
    return count


def _open_inputs(
    inputs: list[str],
    from_: str | None,
    discover: bool,
    say: _Say,
    base_url: str | None,
    remote: dict[str, Any],
) -> Iterator[tuple[str, Callable[[], Iterable[Document]]]]:
    """The INPUTs as groups of documents, each opened when the merge reaches it."""
    if discover:
        from .._discover import read_discovered
        from .._options import ReadOptions

        opts = ReadOptions(on_warning=say.warning, base_url=base_url, **remote)
        yield "discovery", lambda: read_discovered(inputs, from_, opts)
        return

    def opener(src: str) -> Callable[[], Iterable[Document]]:
        return lambda: [api.read(src, from_, on_warning=say.warning, base_url=base_url, **remote)]

    for src in inputs:
        yield src, opener(src)


def _diff(
    inputs: list[str],
    old: str,
    fields: str | None,
    from_: str | None,
    fmt: str,
    output: str,
    filters: FilterOptions,
    say: _Say,
    notify: NotifyRequest,
    remote: dict[str, Any],
    write_options: dict[str, Any],
) -> None:
    """``--diff OLD``: write what changed from OLD to the INPUT, or IndexNow it; then exit."""
    from .._diff import DEFAULT_FIELDS, check_fields, diff

    if len(inputs) != 1:
        raise typer.BadParameter("--diff compares one INPUT with OLD", param_hint="INPUT")
    try:
        names = check_fields(fields.split(",")) if fields is not None else DEFAULT_FIELDS
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--diff-fields") from None
    if notify.wanted:
        notify.url_source = changed_urls(
            inputs[0], old, fields=names, filters=filters, from_=from_, read_options=remote
        )
        _notify(notify, say, converting=output != "-")
    progress = Progress.for_terminal(quiet=say.quiet, output_to_stdout=output == "-")
    try:
        with termination.terminating_signals(), progress:
            comparison = diff(
                old, inputs[0], fields=names, filters=filters, new_format=from_,
                on_warning=say.warning, **remote,
            )  # fmt: skip
            write_comparison(comparison, output, fmt, write_options)
    except UnknownFormat as exc:
        say.error(str(exc))
        raise typer.Exit(2) from None
    except SitemapError as exc:
        say.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        termination.remove_pending()
        say.error("interrupted")
        raise typer.Exit(130) from None
    except termination.Terminated as exc:
        termination.remove_pending()
        say.error(f"stopped by {exc}; the output was not replaced")
        raise typer.Exit(exc.exit_code) from None
    except BrokenPipeError:
        raise typer.Exit(0) from None
    if not say.quiet:
        print(f"sitemapconv: {comparison.stats.summary()}", file=sys.stderr)
    raise typer.Exit(0)


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
        with termination.terminating_signals():
            code = run_notify(req, out=print if not say.quiet else lambda _: None, warn=say.warning)
        if code == EXIT_PARTIAL:  # shown even under --quiet
            print(
                "sitemapconv: partial: some inputs could not be read; the URLs of the rest "
                f"were submitted (exit {EXIT_PARTIAL}; --strict makes this an error)",
                file=sys.stderr,
            )
    except (NotifyUsageError, SitemapUrlError, UsageError, UnknownFormat) as exc:
        say.error(str(exc))
        raise typer.Exit(2) from None
    except SitemapError as exc:
        say.error(str(exc))
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        say.error("interrupted")
        raise typer.Exit(130) from None
    except termination.Terminated as exc:
        say.error(f"stopped by {exc}")
        raise typer.Exit(exc.exit_code) from None
    raise typer.Exit(code)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="sitemapconv")


if __name__ == "__main__":  # pragma: no cover
    main()
