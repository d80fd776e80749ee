"""The command's flags, one ``Annotated`` type each: name, metavar, help and help panel.

:mod:`sitemapconv._cli.main` declares its parameters with these types, so the command
function shows the whole command line in one screen while the help texts live here.
``--help`` groups the flags in the panels named below.
"""

from __future__ import annotations

from typing import Annotated

import typer

from . import args as cliargs

INPUT = "Input"
REMOTE = "Remote sitemaps"
FILTERS = "Filters"
SITEMAP_OUT = "Sitemap output"
FEED_OUT = "Feed output"
VALIDATE = "Validate"
NOTIFY = "Tell search engines"
DASK = "Scale-out (Dask)"
DIFF = "Compare snapshots and cache"

# fmt: off
Inputs = Annotated[
    list[str] | None,
    typer.Argument(
        metavar="INPUT...",
        help="Paths, http(s) URLs, or - for stdin. Several inputs are merged in order.",
        show_default=False,
    ),
]
To = Annotated[
    str | None,
    typer.Option(
        "-t", "--to", metavar="FORMAT",
        help="Output format: xml, index, rss, atom, atom03, txt, jsonl, csv, jsonfeed, "
        "parquet. "
        "Default: from -o's extension.",
    ),
]
From = Annotated[
    str | None,
    typer.Option(
        "-f", "--from", metavar="FORMAT",
        help="Force the input format instead of detecting it from content.",
    ),
]
Output = Annotated[
    str,
    typer.Option(
        "-o", "--output", metavar="OUTPUT",
        help="Output file, written atomically; - for stdout (the default).",
        show_default=False,
    ),
]
Gzip = Annotated[
    bool, typer.Option("--gzip", help="gzip the output (implied by a .gz name on -o).")
]
Quiet = Annotated[bool, typer.Option("-q", "--quiet", help="Print nothing but errors.")]
Verbose = Annotated[
    bool, typer.Option("-v", "--verbose", help="End with a one-line summary on stderr.")
]
Strict = Annotated[
    bool,
    typer.Option("--strict", help="Fail (exit 1, write and replace nothing) when any input "
                 "or followed child sitemap fails, instead of writing the rest (exit 3)."),
]
ListFormats = Annotated[
    bool,
    typer.Option("--list-formats", callback=cliargs.list_formats, is_eager=True,
                 help="List the readers and writers, then exit."),
]
Version = Annotated[
    bool,
    typer.Option("--version", callback=cliargs.show_version, is_eager=True,
                 help="Show the version, then exit."),
]

# --- input ---
BaseUrl = Annotated[
    str | None,
    typer.Option(
        "--base-url", metavar="URL", rich_help_panel=INPUT,
        help="Where the files live, e.g. https://example.com/: relative URLs are "
        "resolved against it, split sitemap parts are listed under it, and --validate "
        "reports URLs outside its scope.",
    ),
]
MaxBytes = Annotated[
    int | None,
    typer.Option(
        "--max-bytes", metavar="N", min=1, rich_help_panel=INPUT,
        help="Cap on the bytes one input may yield after decompression "
        "(default 104857600).",
    ),
]

# --- remote sitemaps ---
Follow = Annotated[
    bool,
    typer.Option("--follow", rich_help_panel=REMOTE,
                 help="Read the pages of every sitemap an index lists, recursively."),
]
IncludeSitemap = Annotated[
    list[str] | None,
    typer.Option(
        "--include-sitemap", metavar="REGEX", rich_help_panel=REMOTE,
        help="With --follow, read only child sitemaps whose URL matches (repeatable).",
    ),
]
Discover = Annotated[
    bool,
    typer.Option("--discover", rich_help_panel=REMOTE,
                 help="INPUTs are sites: find their sitemaps in robots.txt and at the "
                 "well-known paths."),
]
Concurrency = Annotated[
    int,
    typer.Option(metavar="N", min=1, rich_help_panel=REMOTE,
                 help="Child sitemaps fetched at once."),
]
Timeout = Annotated[
    float,
    typer.Option(metavar="SECONDS", min=0.001, rich_help_panel=REMOTE,
                 help="HTTP timeout of one attempt, connect to last byte."),
]
Retries = Annotated[
    int,
    typer.Option(metavar="N", min=0, rich_help_panel=REMOTE,
                 help="Retries on connection errors, 429 and 5xx."),
]
UserAgent = Annotated[
    str | None,
    typer.Option(metavar="UA", rich_help_panel=REMOTE,
                 help="User-Agent header (default: sitemapconv/VERSION)."),
]
Header = Annotated[
    list[str] | None,
    typer.Option("-H", "--header", metavar="'NAME: VALUE'", rich_help_panel=REMOTE,
                 help="Extra HTTP header (repeatable); sent only to the input URL's "
                 "origin unless --forward-headers."),
]
ForwardHeaders = Annotated[
    bool,
    typer.Option("--forward-headers", rich_help_panel=REMOTE,
                 help="Also send -H headers to other origins (redirects, children)."),
]
MaxDepth = Annotated[
    int,
    typer.Option(metavar="N", min=0, rich_help_panel=REMOTE,
                 help="With --follow, nested index levels followed."),
]
MaxSitemaps = Annotated[
    int,
    typer.Option(metavar="N", min=1, rich_help_panel=REMOTE,
                 help="With --follow, most sitemaps read."),
]
AllowPrivate = Annotated[
    bool,
    typer.Option("--allow-private", rich_help_panel=REMOTE,
                 help="Also follow children on loopback, private or link-local hosts."),
]

# --- filters ---
Dedupe = Annotated[
    bool,
    typer.Option("--dedupe", rich_help_panel=FILTERS,
                 help="Drop repeated URLs (normalised), keeping the first."),
]
Include = Annotated[
    list[str] | None,
    typer.Option("--include", metavar="REGEX", rich_help_panel=FILTERS,
                 help="Keep only URLs matching REGEX (repeatable: any matches)."),
]
Exclude = Annotated[
    list[str] | None,
    typer.Option("--exclude", metavar="REGEX", rich_help_panel=FILTERS,
                 help="Drop URLs matching REGEX (repeatable)."),
]
Since = Annotated[
    str | None,
    typer.Option(metavar="DATE", rich_help_panel=FILTERS,
                 help="Keep entries whose lastmod is on or after DATE, e.g. 2024-01-31."),
]
Until = Annotated[
    str | None,
    typer.Option(metavar="DATE", rich_help_panel=FILTERS,
                 help="Keep entries whose lastmod is on or before DATE."),
]
Limit = Annotated[
    int | None,
    typer.Option(metavar="N", min=0, rich_help_panel=FILTERS, help="Stop after N entries."),
]
Sort = Annotated[
    str | None,
    typer.Option(metavar="url|lastmod", parser=cliargs.sort_value, rich_help_panel=FILTERS,
                 help="Sort by url or lastmod (undated last). Holds every entry in memory."),
]

# --- sitemap output ---
NoSplit = Annotated[
    bool,
    typer.Option("--no-split", rich_help_panel=SITEMAP_OUT,
                 help="Write one file even past 50,000 URLs or 50 MB (with a warning); "
                 "by default -o FILE is split into FILE-1.xml... plus an index."),
]
MaxUrls = Annotated[
    int,
    typer.Option(metavar="N", min=1, max=50_000, rich_help_panel=SITEMAP_OUT,
                 help="URLs per sitemap file before splitting."),
]
MaxFileBytes = Annotated[
    int,
    typer.Option(metavar="N", min=1, max=52_428_800, rich_help_panel=SITEMAP_OUT,
                 help="Uncompressed bytes per sitemap file before splitting."),
]
PartName = Annotated[
    str | None,
    typer.Option(metavar="STEM", rich_help_panel=SITEMAP_OUT, parser=cliargs.part_name_value,
                 help="Name split parts STEM-1.xml... (default: the -o file's stem)."),
]
DateOnly = Annotated[
    bool,
    typer.Option("--date-only", rich_help_panel=SITEMAP_OUT,
                 help="Write lastmod as YYYY-MM-DD."),
]

# --- feed output ---
Title = Annotated[
    str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed title.")
]
Link = Annotated[
    str | None, typer.Option(rich_help_panel=FEED_OUT, help="Site link of the feed.")
]
Description = Annotated[
    str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed description (rss).")
]
Author = Annotated[
    str | None,
    typer.Option(rich_help_panel=FEED_OUT, help="Feed author (atom, atom03).")
]
FeedId = Annotated[
    str | None, typer.Option(rich_help_panel=FEED_OUT, help="Feed id (atom).")
]
SelfLink = Annotated[
    str | None,
    typer.Option(rich_help_panel=FEED_OUT, help="URL where the feed itself is served.")
]

# --- validate ---
Validate = Annotated[
    bool,
    typer.Option("--validate", rich_help_panel=VALIDATE,
                 help="Check the inputs instead of converting them; exit 1 on errors."),
]
Report = Annotated[
    str,
    typer.Option("--report", metavar="text|json", rich_help_panel=VALIDATE,
                 help="With --validate: the report format."),
]

# --- notify ---
RobotsLine = Annotated[
    str | None,
    typer.Option("--robots-line", metavar="URL", rich_help_panel=NOTIFY,
                 help="Print the robots.txt line 'Sitemap: URL'."),
]
UpdateRobots = Annotated[
    str | None,
    typer.Option("--update-robots", metavar="FILE", rich_help_panel=NOTIFY,
                 help="Add or fix the Sitemap: line for --sitemap-url in an existing "
                 "robots.txt, atomically, leaving every other line as it is."),
]
SitemapUrl = Annotated[
    str | None,
    typer.Option("--sitemap-url", metavar="URL", rich_help_panel=NOTIFY,
                 help="Public URL of the sitemap, for --update-robots and --ping "
                 "(default: the INPUT when it is one http(s) URL)."),
]
Indexnow = Annotated[
    str | None,
    typer.Option("--indexnow", metavar="KEY", rich_help_panel=NOTIFY,
                 help="Submit the URLs of the INPUTs to IndexNow: one POST per host and "
                 "10,000 URLs."),
]
IndexnowEndpoint = Annotated[
    str,
    typer.Option("--indexnow-endpoint", metavar="URL", rich_help_panel=NOTIFY,
                 help="IndexNow endpoint."),
]
KeyLocation = Annotated[
    str | None,
    typer.Option("--key-location", metavar="URL", rich_help_panel=NOTIFY,
                 help="URL of the IndexNow key file when it is not at https://HOST/KEY.txt."),
]
Ping = Annotated[
    list[str] | None,
    typer.Option("--ping", metavar="TEMPLATE", rich_help_panel=NOTIFY,
                 help="GET TEMPLATE with {} replaced by the encoded sitemap URL "
                 "(repeatable; no engine by default)."),
]
DryRun = Annotated[
    bool,
    typer.Option("--dry-run", rich_help_panel=NOTIFY,
                 help="Show what --indexnow, --ping and --update-robots would do; "
                 "send and write nothing."),
]

# --- dask ---
UseDask = Annotated[
    bool,
    typer.Option("--dask", rich_help_panel=DASK,
                 help="Read on a Dask cluster, one task per sitemap file; write "
                 "-t parquet -o DIR, -t jsonl or -t csv -o FILE (needs the dask extra)."),
]
Scheduler = Annotated[
    str | None,
    typer.Option("--scheduler", metavar="WHERE", rich_help_panel=DASK,
                 help="With --dask (implies it): local (the default), sync, threads, "
                 "processes, or a scheduler address such as tcp://10.0.0.5:8786."),
]

# --- compare snapshots, cache ---
Diff = Annotated[
    str | None,
    typer.Option("--diff", metavar="OLD", rich_help_panel=DIFF,
                 help="Report what changed from OLD (path or URL, any format) to the "
                 "INPUT: -t txt (default) +/-/~ lines, jsonl or csv records; xml, rss, "
                 "atom, jsonfeed...: the added and changed entries."),
]
DiffFields = Annotated[
    str | None,
    typer.Option("--diff-fields", metavar="FIELD,...", rich_help_panel=DIFF,
                 help="With --diff, what makes a URL changed (default lastmod): "
                 "lastmod, changefreq, priority, title, summary, published, images, "
                 "videos, news, alternates."),
]
Cache = Annotated[
    str | None,
    typer.Option("--cache", metavar="DIR", rich_help_panel=DIFF,
                 help="Keep fetched sitemaps in DIR; later runs revalidate them "
                 "(If-None-Match / If-Modified-Since) and reuse them on 304."),
]
CacheMaxBytes = Annotated[
    int,
    typer.Option("--cache-max-bytes", metavar="N", min=1, rich_help_panel=DIFF,
                 help="Size bound of the --cache database (least recently used first)."),
]
TrustIndexLastmod = Annotated[
    bool,
    typer.Option("--trust-index-lastmod", rich_help_panel=DIFF,
                 help="With --cache and --follow, reuse a cached child sitemap without "
                 "any request when its <lastmod> in the index has not changed."),
]
# fmt: on
