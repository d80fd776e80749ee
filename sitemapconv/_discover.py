"""Finding a site's sitemaps: robots.txt first, then the well-known paths.

``discover("https://example.com/blog/")`` reads ``https://example.com/robots.txt`` and keeps
every ``Sitemap:`` URL exactly as written, then probes the usual names both under the
given path (``/blog/sitemap.xml``) and at the root (``/sitemap.xml``). A probe counts only
when its content is detected as a sitemap, index, feed or URL list: a soft-404 HTML page
served with 200 is not a sitemap. Each probe reads no more than the detection head and
closes the connection. Probes run ``options.concurrency`` at a time; the result keeps the
order above, with duplicates (same URL, or a redirect to one already found) dropped.

Everything goes through the run's :class:`~sitemapconv._door.Door`, whose start is the site
the user gave: robots.txt and its redirects, each ``Sitemap:`` line (http(s) only) and every
probe are checked like any other hop, so a public robots.txt cannot point discovery into the
local network, and a URL it lists never becomes "the start" that decides which addresses are
allowed. Each probe takes one unit of the run's ``max_sitemaps`` budget; the robots.txt lines
beyond it are not probed.

The robots.txt parsing here is deliberately small (the ``Sitemap:`` lines only, per the
sitemaps.org protocol, "Specifying the Sitemap location in your robots.txt file"); a full
robots.txt parser is a separate concern.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from . import _progress as progress
from ._door import Door, check_url, visit_key
from ._model import Document
from ._options import ReadOptions, build_options, emit_warning
from ._robots import sitemaps_from_robots
from ._urls import is_http_scheme
from .errors import SitemapError

if TYPE_CHECKING:
    from ._fetch import Fetcher

#: Probed under the site's path and at the root, in this order.
WELL_KNOWN_PATHS: tuple[str, ...] = (
    "sitemap.xml",
    "sitemap_index.xml",
    "sitemap-index.xml",
    "sitemap.xml.gz",
    "sitemap_index.xml.gz",
    "wp-sitemap.xml",
    "sitemap.txt",
    "feed",
    "feed.xml",
    "rss.xml",
    "rss",
    "atom.xml",
    "index.xml",
)

VIA_ROBOTS = "robots.txt"
VIA_WELL_KNOWN = "well-known path"


@dataclass(slots=True, frozen=True)
class Found:
    """A sitemap found on a site: its URL, how it was found, and its detected format."""

    url: str
    via: str
    format: str


def site_bases(site: str) -> list[str]:
    """The directories to probe: the site's own path (when below the root), then the root.

    ``https://example.com/blog`` is taken as the directory ``/blog/`` because its last
    segment has no dot; ``https://example.com/blog/index.html`` as ``/blog/``.
    """
    parts = urlsplit(site)
    if not is_http_scheme(parts.scheme) or not parts.netloc:
        raise SitemapError("discovery needs an http(s) site URL", source=site)
    path = parts.path or "/"
    if not path.endswith("/"):
        last = path.rsplit("/", 1)[1]
        path = path + "/" if "." not in last else path[: len(path) - len(last)]
    root = urlunsplit((parts.scheme, parts.netloc, "/", "", ""))
    here = urlunsplit((parts.scheme, parts.netloc, path, "", ""))
    return [here, root] if here != root else [root]


def _probe(url: str, fetcher: Fetcher) -> tuple[str, str] | None:
    """(format, final URL) when ``url`` serves a sitemap or feed; None otherwise.

    Only the detection head is read (decompressed when gzipped), then the response closed.
    """
    from ._detect import detect
    from ._source import open_source

    try:
        body, final, close = fetcher.open(url)
    except SitemapError:
        return None
    try:
        opened = open_source(body, replace(fetcher.options, base_url=final))
        try:
            return detect(opened.head, source=url), final
        finally:
            opened.close()
    except SitemapError:
        return None
    finally:
        close()


def discover(
    site: str, *, options: ReadOptions | None = None, door: Door | None = None, **kwargs: Any
) -> list[Found]:
    """The sitemaps of ``site``: robots.txt ``Sitemap:`` lines, then the well-known paths.

    Keyword arguments are :class:`~sitemapconv._options.ReadOptions` fields (timeouts,
    retries, user agent, headers, concurrency). A site with none returns an empty list.
    ``door`` is the run's door when discovery is part of a larger read (its budget and
    visited set are shared); by default ``site`` is the start of a door of its own.
    """
    from ._fetch import Fetcher

    opts = build_options(ReadOptions, options, kwargs)
    bases = site_bases(site)
    if door is None:
        door = Door(opts, site)
    # Few retries: most well-known paths simply do not exist, and a probe is not worth waiting.
    fetcher = Fetcher(
        replace(opts, retries=min(opts.retries, 1), on_warning=lambda _m: None), door=door
    )
    try:
        return _discover(bases, fetcher, opts, door)
    finally:
        fetcher.close()


def _listed(robots_url: str, listed: list[str], door: Door, opts: ReadOptions) -> list[str]:
    """The ``Sitemap:`` URLs of robots.txt that may be probed: http(s), well-formed."""
    kept: list[str] = []
    for url in listed:
        reason = door.child_allowed(url, robots_url)
        if reason is None:
            try:
                check_url(url)
            except SitemapError as exc:
                reason = exc.reason
        if reason is not None:
            emit_warning(opts.on_warning, f"{robots_url}: Sitemap: {url} not probed: {reason}")
            continue
        kept.append(url)
    return kept


def _discover(bases: list[str], fetcher: Fetcher, opts: ReadOptions, door: Door) -> list[Found]:
    robots_url = urljoin(bases[-1], "robots.txt")
    robots = fetcher.get_text(robots_url)
    listed = _listed(robots_url, sitemaps_from_robots(robots) if robots else [], door, opts)
    candidates: list[tuple[str, str]] = []
    seen: set[str] = set()
    for url, via in [(u, VIA_ROBOTS) for u in listed] + [
        (urljoin(base, path), VIA_WELL_KNOWN) for base in bases for path in WELL_KNOWN_PATHS
    ]:
        key = visit_key(url)
        if key in seen or door.seen(url):
            continue
        if not door.budget.take():
            emit_warning(
                opts.on_warning,
                f"{robots_url}: discovery stopped: more than max_sitemaps "
                f"{opts.max_sitemaps} sitemaps; {url} and later candidates not probed",
            )
            break
        seen.add(key)
        candidates.append((url, via))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, opts.concurrency)) as pool:
        probe = progress.carried(_probe)
        results = list(pool.map(probe, [url for url, _ in candidates], [fetcher] * len(candidates)))
    found: list[Found] = []
    finals: set[str] = set()
    for (url, via), result in zip(candidates, results, strict=True):
        if result is None:
            if via == VIA_ROBOTS:
                emit_warning(
                    opts.on_warning,
                    f"{url}: listed in robots.txt but not readable as a sitemap or feed",
                )
            continue
        fmt, final = result
        if visit_key(final) in finals or visit_key(url) in finals:
            continue
        finals.update((visit_key(final), visit_key(url)))
        found.append(Found(url, via, fmt))
    return found


def read_discovered(
    sites: list[str], format: str | None, options: ReadOptions
) -> Iterator[Document]:
    """Discover each site and open every sitemap found (followed when ``options.follow``).

    One door per site (its start is the site the user gave), one budget and one visited set
    for the whole run, so an index and a child found separately are read once and
    ``max_sitemaps`` counts probes and followed sitemaps together. A site where nothing is
    found is a :class:`SitemapError`.
    """
    from ._door import Budget
    from ._follow.sync import open_through, read_followed

    visited: set[str] = set()
    budget = Budget(options.max_sitemaps)
    for site in sites:
        door = Door(options, site, budget=budget, visited=visited)
        found = discover(site, options=options, door=door)
        if not found:
            raise SitemapError(
                "no sitemap or feed found (robots.txt and well-known paths)", source=site
            )
        for item in found:
            if options.follow:
                if door.seen(item.url):
                    continue
                yield read_followed(item.url, format, options, door=door)
            else:
                yield open_through(item.url, format, options, door)
