"""The ``sitemapconv`` command, pandoc-style: ``sitemapconv INPUT... -f FROM -t TO -o OUT``.

A thin layer over the library, and only the typer app and the dispatch: the flags are
declared in :mod:`~sitemapconv._cli.flags`, turned into one typed
:class:`~sitemapconv._cli.options.CliOptions` (holding the library's ReadOptions,
WriteOptions and FilterOptions) with the checks of :mod:`~sitemapconv._cli.args`, and run
by one module per mode: ``convert_mode``, ``validate_mode``, ``notify_mode`` (robots.txt,
pings, IndexNow), ``dask_mode``, ``diff_mode``. Exit codes (:mod:`sitemapconv._outcome`):
0 complete, 1 failed with nothing written or replaced (one line on stderr, no traceback),
2 usage error, 3 partial (some inputs or followed children failed; the rest is written),
128+N stopped by signal N (SIGINT, SIGTERM, SIGHUP) with temporary files removed.
"""

from __future__ import annotations

from dataclasses import replace

import typer

from .._filters import FilterOptions, Pipeline
from .._options import WriteOptions
from ..notify import DEFAULT_ENDPOINT
from . import args as cliargs
from . import flags
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


@app.command(epilog=EPILOG)
def convert(
    inputs: flags.Inputs = None,
    to: flags.To = None,
    from_: flags.From = None,
    output: flags.Output = "-",
    gzip: flags.Gzip = False,
    quiet: flags.Quiet = False,
    verbose: flags.Verbose = False,
    strict: flags.Strict = False,
    list_formats: flags.ListFormats = False,
    version: flags.Version = False,
    # --- input ---
    base_url: flags.BaseUrl = None,
    max_bytes: flags.MaxBytes = None,
    # --- remote sitemaps ---
    follow: flags.Follow = False,
    include_sitemap: flags.IncludeSitemap = None,
    discover: flags.Discover = False,
    concurrency: flags.Concurrency = 8,
    timeout: flags.Timeout = 30.0,
    retries: flags.Retries = 3,
    user_agent: flags.UserAgent = None,
    header: flags.Header = None,
    forward_headers: flags.ForwardHeaders = False,
    max_depth: flags.MaxDepth = 3,
    max_sitemaps: flags.MaxSitemaps = 10_000,
    allow_private: flags.AllowPrivate = False,
    # --- filters ---
    dedupe: flags.Dedupe = False,
    include: flags.Include = None,
    exclude: flags.Exclude = None,
    since: flags.Since = None,
    until: flags.Until = None,
    limit: flags.Limit = None,
    sort: flags.Sort = None,
    # --- sitemap output ---
    no_split: flags.NoSplit = False,
    max_urls: flags.MaxUrls = 50_000,
    max_file_bytes: flags.MaxFileBytes = 52_428_800,
    part_name: flags.PartName = None,
    date_only: flags.DateOnly = False,
    # --- feed output ---
    title: flags.Title = None,
    link: flags.Link = None,
    description: flags.Description = None,
    author: flags.Author = None,
    feed_id: flags.FeedId = None,
    self_link: flags.SelfLink = None,
    # --- validate ---
    validate: flags.Validate = False,
    report: flags.Report = "text",
    # --- notify ---
    robots_line: flags.RobotsLine = None,
    update_robots: flags.UpdateRobots = None,
    sitemap_url: flags.SitemapUrl = None,
    indexnow: flags.Indexnow = None,
    indexnow_endpoint: flags.IndexnowEndpoint = DEFAULT_ENDPOINT,
    key_location: flags.KeyLocation = None,
    ping: flags.Ping = None,
    dry_run: flags.DryRun = False,
    # --- dask ---
    use_dask: flags.UseDask = False,
    scheduler: flags.Scheduler = None,
    # --- compare snapshots, cache ---
    diff: flags.Diff = None,
    diff_fields: flags.DiffFields = None,
    cache: flags.Cache = None,
    cache_max_bytes: flags.CacheMaxBytes = 1024**3,
    trust_index_lastmod: flags.TrustIndexLastmod = False,
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
