"""The ``sitemapconv`` command, pandoc-style: ``sitemapconv INPUT... -f FROM -t TO -o OUT``.

A thin layer over the library: every option maps onto a ReadOptions/WriteOptions field,
a filter, or a library function (validate, notify, dask); option values are turned into
library options by :mod:`sitemapconv._cli.args`. Exit codes (:mod:`sitemapconv._outcome`):
0 complete, 1 failed with nothing written or replaced (one line on stderr, no traceback),
2 usage error, 3 partial (some inputs or followed children failed; the rest is written),
128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP) with temporary files removed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated

import typer

from .._filters import FilterOptions, Pipeline
from .._options import WriteOptions
from ..notify import DEFAULT_ENDPOINT
from . import args as cliargs
from .convert_mode import run_convert
from .diff_mode import diff_format, run_diff
from .notify_mode import NotifyRequest, run_notify_command
from .options import CliOptions, DaskSettings, DiffSettings, ValidateSettings
from .reporter import Reporter

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
    reporter = Reporter(quiet)
    read = cliargs.read_options(
        follow=follow, include=include_sitemap, concurrency=concurrency, timeout=timeout,
        retries=retries, user_agent=user_agent, headers=header, max_depth=max_depth,
        max_sitemaps=max_sitemaps, allow_private=allow_private, max_bytes=max_bytes,
        forward_headers=forward_headers, cache=cache, cache_max_bytes=cache_max_bytes,
        trust_index_lastmod=trust_index_lastmod,
    )  # fmt: skip
    opts = CliOptions(
        inputs=tuple(inputs or ()), from_=from_, to=to, output=output, quiet=quiet,
        verbose=verbose, strict=strict, discover=discover, read=read,
        write=WriteOptions(
            gzip=gzip, title=title, link=link, description=description, author=author,
            feed_id=feed_id, self_link=self_link, date_only=date_only, base_url=base_url,
            max_urls=max_urls, max_file_bytes=max_file_bytes, part_name=part_name,
        ),
        filters=FilterOptions(
            base_url=base_url, include=include or (), exclude=exclude or (),
            since=cliargs.date_value(since, "--since"),
            until=cliargs.date_value(until, "--until"),
            dedupe=dedupe, sort=sort, limit=limit,  # type: ignore[arg-type]  # sort_value checked it
        ),
        notify=NotifyRequest(
            inputs=tuple(inputs or ()), from_=from_, robots_line=robots_line,
            update_robots=update_robots, sitemap_url=sitemap_url, indexnow_key=indexnow,
            endpoint=indexnow_endpoint, key_location=key_location, pings=ping or (),
            dry_run=dry_run, read_options=read, strict=strict,
        ),
        validate=ValidateSettings(report) if validate else None,
        dask=DaskSettings(scheduler or "local") if use_dask or scheduler is not None else None,
        diff=DiffSettings(diff, diff_fields) if diff is not None else None,
        no_split=no_split,
    )  # fmt: skip
    _dispatch(opts, reporter, diff_fields_given=diff_fields is not None)


def _dispatch(opts: CliOptions, reporter: Reporter, *, diff_fields_given: bool) -> None:
    """Run the one mode the command line asked for; every mode ends by raising Exit."""
    notify = opts.notify
    if (notify.wanted or notify.sitemap_url is not None or notify.dry_run) and opts.diff is None:
        converting = not opts.to_stdout or opts.to is not None or opts.write.gzip
        run_notify_command(notify, reporter, converting=converting)
    if not opts.inputs:
        raise typer.BadParameter(
            "give at least one INPUT (a path, a URL, or -)", param_hint="INPUT"
        )
    if opts.diff is None and diff_fields_given:
        raise typer.BadParameter("goes with --diff OLD", param_hint="--diff-fields")
    if opts.diff is not None and (opts.validate or opts.dask or opts.discover):
        raise typer.BadParameter(
            "does not combine with --validate, --dask or --discover", param_hint="--diff"
        )
    if opts.validate is not None:
        from .validate_mode import run_validate

        run_validate(opts)
    if opts.dask is not None:
        from .dask_mode import run_dask

        run_dask(opts, reporter)
    try:
        fmt = (
            cliargs.output_format(opts.to, opts.output)
            if opts.diff is None
            else diff_format(opts.to, opts.output)
        )
        pipeline = Pipeline(opts.filters)  # compiles the patterns: a bad one is a usage error
    except ValueError as exc:  # an unknown -t name, a bad pattern
        raise typer.BadParameter(str(exc), param_hint="--include/--exclude") from None
    write = replace(
        opts.write,
        on_warning=reporter.warning,
        split=cliargs.split_choice(fmt, opts.output, opts.no_split),
    )
    if opts.diff is not None:
        run_diff(opts, fmt, write, reporter)
    run_convert(opts, fmt, write, pipeline, reporter)


def main() -> None:
    """Console-script entry point."""
    app(prog_name="sitemapconv")


if __name__ == "__main__":  # pragma: no cover
    main()
