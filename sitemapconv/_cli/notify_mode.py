"""The notify half of the ``sitemapconv`` command: robots.txt lines, IndexNow and pings.

Kept out of :mod:`sitemapconv._cli.main` so the CLI stays glue. The actions run in a fixed order
(print the robots line, update robots.txt, ping, IndexNow), each reports one line per result
on stdout, and the run's exit status is 1 when any of them failed. Usage mistakes raise
:class:`UsageError` before anything is sent or written.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import typer

from .. import _api as api
from .._model import Document
from .._options import ReadOptions
from .._outcome import EXIT_PARTIAL, Run
from .._robots import check_sitemap_url, sitemap_line, update_robots
from .._urls import is_http
from ..errors import UsageError as UsageError  # imported from here by older code
from ..notify import DEFAULT_ENDPOINT, check_http_url, check_key, iter_indexnow, ping, ping_url

if TYPE_CHECKING:
    from .reporter import Reporter


@dataclass(slots=True)
class NotifyRequest:
    """The notify options of one command line."""

    inputs: Sequence[str] = ()
    from_: str | None = None
    robots_line: str | None = None
    update_robots: str | None = None
    sitemap_url: str | None = None
    indexnow_key: str | None = None
    endpoint: str = DEFAULT_ENDPOINT
    key_location: str | None = None
    pings: Sequence[str] = field(default_factory=tuple)
    dry_run: bool = False
    #: How the INPUTs are read and the pings and IndexNow requests sent (``follow``,
    #: timeouts, retries, headers, User-Agent, ``--allow-private``...).
    read_options: ReadOptions = field(default_factory=ReadOptions)
    #: With --indexnow, a failed input or child sitemap submits nothing (else exit 3).
    strict: bool = False
    #: Where --indexnow gets its URLs instead of the INPUTs (``--diff``: what changed).
    url_source: Callable[[Callable[[str], None]], Iterator[str]] | None = None

    @property
    def wanted(self) -> bool:
        """True when any notify action was asked for (then no conversion runs)."""
        return bool(
            self.robots_line is not None
            or self.update_robots is not None
            or self.indexnow_key is not None
            or self.pings
        )


def resolve_sitemap_url(req: NotifyRequest) -> str:
    """The public sitemap URL for ``--update-robots`` and ``--ping``.

    ``--sitemap-url`` first, else ``--robots-line``'s URL, else the INPUT when it is a single
    http(s) URL.
    """
    if req.sitemap_url and req.robots_line and req.sitemap_url != req.robots_line:
        raise UsageError("--sitemap-url and --robots-line give two different sitemap URLs")
    url = req.sitemap_url or req.robots_line
    if url is None and len(req.inputs) == 1:
        only = req.inputs[0]
        if is_http(only):
            url = only
    if url is None:
        raise UsageError(
            "--update-robots and --ping need the sitemap's public URL: "
            "give --sitemap-url URL (or an http(s) URL as the only INPUT)"
        )
    return check_sitemap_url(url)


def _urls(req: NotifyRequest, warn: Callable[[str], None], run: Run) -> Iterator[str]:
    """The URLs of the INPUTs; ``run`` raises at the end when nothing could be read."""

    def opener(src: str) -> Callable[[], list[Document]]:
        opts = replace(req.read_options, on_warning=warn)
        return lambda: [api.read(src, req.from_, options=opts)]

    docs = run.documents((src, opener(src)) for src in req.inputs)
    yield from (entry.loc for entry in run.entries(docs))


def _check(req: NotifyRequest) -> str | None:
    """Validate everything up front so a usage error sends and writes nothing."""
    if req.robots_line is not None:
        check_sitemap_url(req.robots_line)
    url = resolve_sitemap_url(req) if req.update_robots is not None or req.pings else None
    for template in req.pings:
        ping_url(template, url or "https://example.invalid/")
    if req.indexnow_key is not None:
        check_key(req.indexnow_key)
        if not req.inputs:
            raise UsageError("--indexnow needs at least one INPUT whose URLs it submits")
        if req.key_location is not None:
            check_http_url(req.key_location, "--key-location")
        check_http_url(req.endpoint, "--indexnow-endpoint")
    elif req.key_location is not None or req.endpoint != DEFAULT_ENDPOINT:
        raise UsageError("--key-location and --indexnow-endpoint go with --indexnow KEY")
    return url


def run_notify(
    req: NotifyRequest,
    *,
    out: Callable[[str], None],
    warn: Callable[[str], None],
    options: ReadOptions | None = None,
) -> int:
    """Run the requested actions; return 0 when all succeeded, else 1.

    Pings and IndexNow requests are sent with ``options``, else with the request's
    ``read_options`` (User-Agent, headers, timeout, retries...), never through the cache.
    """
    url = _check(req)
    opts = options or replace(req.read_options, on_warning=warn, cache=None, follow=False)
    failed = False
    if req.robots_line is not None:
        out(sitemap_line(req.robots_line))
    if req.update_robots is not None and url is not None:
        done = update_robots(req.update_robots, url, dry_run=req.dry_run)
        what = f"would be {done.action}" if req.dry_run and done.changed else done.action
        out(f"{'dry run: ' if req.dry_run else ''}{done.path}: {what} ({done.line})")
    for template in req.pings:
        assert url is not None
        pinged = ping(template, url, dry_run=req.dry_run, options=opts)
        out(pinged.describe())
        failed = failed or not pinged.ok
    if req.indexnow_key is not None:
        # Partial reads: what was read is submitted and the exit code is 3; when nothing was
        # read because inputs failed, or under strict, the run fails before sending.
        run = Run(several=len(req.inputs) > 1, strict=req.strict, on_failure=warn)
        urls: Iterable[str] = (
            req.url_source(warn) if req.url_source is not None else _urls(req, warn, run)
        )
        if req.strict:
            urls = list(urls)  # read everything first: nothing is sent unless all was read
        results = iter_indexnow(
            urls,
            req.indexnow_key,
            endpoint=req.endpoint,
            key_location=req.key_location,
            dry_run=req.dry_run,
            options=opts,
        )
        count = 0
        for result in results:
            count += 1
            out(result.describe())
            if not result.sent:
                for shown in itertools.islice(result.first_urls, 3):
                    out(f"  {shown}")
                if result.count > len(result.first_urls):
                    out(f"  ... and {result.count - len(result.first_urls):,} more")
            failed = failed or not result.ok
        if count == 0:
            warn("no URLs to submit to IndexNow")
        if run.exit_code and not failed:
            warn(f"partial: {run.describe_failures()}; the URLs of the rest were submitted")
            return run.exit_code
    return 1 if failed else 0


def run_notify_command(req: NotifyRequest, reporter: Reporter, *, converting: bool) -> None:
    """The command's notify mode: run the actions instead of a conversion, then exit."""
    from .reporter import exit_codes

    if not req.wanted:
        raise typer.BadParameter(
            "--sitemap-url and --dry-run go with --update-robots, --ping or --indexnow"
        )
    if converting:
        raise typer.BadParameter(
            "notify options (--robots-line, --update-robots, --ping, --indexnow) do not convert: "
            "drop -o/-t/--gzip, or run the conversion as its own command"
        )
    with exit_codes(reporter, writes_output=False):
        code = run_notify(
            req, out=print if not reporter.quiet else lambda _: None, warn=reporter.warning
        )
        if code == EXIT_PARTIAL:  # shown even under --quiet
            print(
                "sitemapconv: partial: some inputs could not be read; the URLs of the rest "
                f"were submitted (exit {EXIT_PARTIAL}; --strict makes this an error)",
                file=sys.stderr,
            )
    raise typer.Exit(code)
