"""``sitemapconv.validate(source)``: tell a site owner exactly what is wrong with a sitemap.

The validator makes its own streaming lxml pass (not the readers'), because it needs line
numbers and must go on past problems a reader would smooth over. Every file gets one pass in
constant memory: entries are checked as they are parsed, then dropped (see
:mod:`sitemapconv._checks`). With ``follow=True`` the children of a sitemap index are opened
and validated too; a child that cannot be fetched, or that is itself an index, is reported
against the index line that lists it.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from lxml import etree

from ._options import ReadOptions
from ._problems import DEFAULT_MAX_PER_RULE, Collector, Problem, Report
from ._source import Source, open_source
from ._urls import is_http
from .errors import LimitError, SitemapError

if TYPE_CHECKING:
    from ._checks import Counted, Pass
    from ._door import Door

# The checks package (and its rule tables) is imported by the first validation, not by
# ``import sitemapconv``: it is a third of the package's import time.

_WHAT = {"xml": "URLs", "index": "sitemaps", "txt": "URLs"}
_WHAT_ONE = {"index": "sitemap URL"}


def validate(
    source: Source,
    *,
    location: str | None = None,
    follow: bool = False,
    options: ReadOptions | None = None,
    max_per_rule: int = DEFAULT_MAX_PER_RULE,
) -> Report:
    """Validate a sitemap, sitemap index, feed or URL list and return every problem found.

    ``location`` is the URL the file is (or will be) served from; when it is known (given
    here, or ``source`` is a URL) URLs outside its scope are reported (sitemaps.org
    protocol, "Sitemap file location").
    ``follow=True`` also validates each child of an index. ``options`` sets fetching and
    size caps. Problems beyond ``max_per_rule`` of one rule in one file are counted only.
    Never raises for bad input: an unreadable source is a problem in the report.
    """
    from ._door import Door

    opts = options if options is not None else ReadOptions()
    report = Report()
    start = os.fspath(source) if isinstance(source, (str, os.PathLike)) else None
    door = Door(opts, start if start and is_http(start) else None)
    door.budget.take()
    run = _Run(report, replace(opts, base_url=None), follow, max_per_rule, door)
    run.file(source, location or opts.base_url, depth=0, parent=None)
    return report


class _Run:
    """One validation, possibly over several files when following an index."""

    def __init__(
        self, report: Report, opts: ReadOptions, follow: bool, cap: int, door: Door
    ) -> None:
        self.report = report
        self.opts = opts
        self.follow = follow
        self.cap = cap
        self.door = door  # the run's policy: every fetch, every child goes through it

    def file(
        self,
        source: Source,
        location: str | None,
        *,
        depth: int,
        parent: tuple[Collector, int | None, str] | None,
    ) -> str | None:
        """Validate one source; return its kind (``xml``, ``index``...) or None."""
        from ._checks import Counted, Pass
        from ._checks.syntax import check_encoding, kind_of, not_a_sitemap
        from ._checks.urls import Scope

        try:
            opened = open_source(source, self.opts, self.door)
        except SitemapError as exc:
            if parent is not None:
                out, line, loc = parent
                out.error(
                    "child-fetch",
                    f"the child sitemap cannot be fetched: {exc}",
                    line=line,
                    url=loc,
                )
            else:
                name = exc.source or _name(source)
                self.report.sources.append(name)
                Collector(self.report, name, self.cap).error("open", f"cannot read: {exc.reason}")
            return None
        out = Collector(self.report, opened.name, self.cap)
        self.report.sources.append(opened.name)
        if location is None and is_http(opened.url or ""):
            location = opened.url
        try:
            kind = kind_of(opened.head)
            if kind is None:
                not_a_sitemap(out, opened.head)
                return None
            first = len(self.report.problems)
            check_encoding(out, opened.head, kind)
            state = Pass(out, Scope.of(location, check_path=kind in ("xml", "txt")))
            self._pass(kind, state, Counted(opened.stream))
            # Schema batches and duplicates report late: put the file's problems in line order.
            mine = self.report.problems[first:]
            mine.sort(key=lambda p: p.line if p.line is not None else 1 << 62)
            self.report.problems[first:] = mine
        finally:
            opened.close()
        if kind == "index" and self.follow:
            self._children(state, out, _physical(source, opened.url), location, depth)
        return kind

    def _pass(self, kind: str, state: Pass, stream: Counted) -> None:
        from ._checks.feeds import FeedPass
        from ._checks.sitemap import SitemapPass
        from ._checks.syntax import report_syntax_error
        from ._checks.text import check_text

        out = state.out
        try:
            if kind in ("xml", "index"):
                SitemapPass(kind, state).run(stream)
            elif kind == "txt":
                check_text(stream, state)
            elif kind == "jsonfeed":
                from ._checks.jsonfeed import check_jsonfeed

                check_jsonfeed(stream, state)
            else:
                FeedPass(kind, state).run(stream)
        except etree.XMLSyntaxError as exc:
            report_syntax_error(out, exc)
        except LimitError as exc:
            out.error("limit-size", f"{exc.reason}; nothing after this point was checked")
        except SitemapError as exc:
            out.error("read", f"cannot read further: {exc.reason}")
        state.finish(stream.count, _WHAT.get(kind, "items"), _WHAT_ONE.get(kind, "URL"))
        self.report.urls += state.count

    def _children(
        self, state: Pass, out: Collector, base: str | None, location: str | None, depth: int
    ) -> None:
        if depth >= self.opts.max_depth:
            out.warning(
                "follow-depth",
                f"children not followed: index nesting deeper than {self.opts.max_depth}",
            )
            return
        from ._follow.locations import join

        for loc, line in state.children:
            child_location = join(location, loc) if location else None
            target = _local_twin(child_location, location, base) or join(base, loc)
            refusal = self.door.child_allowed(target, base)
            if refusal is not None:
                out.error(
                    "child-fetch",
                    f"the child sitemap is not opened: {refusal}",
                    line=line,
                    url=loc,
                )
                continue
            if self.door.seen(target):
                continue
            if not self.door.budget.take():
                out.warning(
                    "follow-limit",
                    f"stopped following after {self.door.budget.used:,} sitemaps",
                )
                return
            self.door.visit(target)
            if not is_http(child_location or ""):
                child_location = target if is_http(target or "") else None
            kind = self.file(target, child_location, depth=depth + 1, parent=(out, line, loc))
            if kind == "index":
                out.error(
                    "nested-index",
                    "this child is itself a sitemap index: an index must list sitemaps, not "
                    "other indexes",
                    line=line,
                    url=loc,
                )


def _name(source: Source) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return "<input>"


def _physical(source: Source, url: str | None) -> str | None:
    """Where the file really is, to resolve relative child locations against."""
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if text != "-" and not is_http(text) and not text.lower().startswith("file:"):
            return Path(text).resolve().as_uri()
    return url


def _local_twin(child: str | None, location: str | None, base: str | None) -> str | None:
    """The local file next to a local index that stands for ``child`` on the site.

    Validating a build before deploying: the index is local, ``--base-url`` says where it
    will be served, and its children are listed by their public URLs. A child under the
    same directory whose file exists next to the index is read from disk instead.
    """
    if not (child and location and base and base.startswith("file:")):
        return None
    directory = location[: location.rfind("/") + 1]
    if not child.startswith(directory):
        return None
    rest = urlsplit(child[len(directory) :]).path
    candidate = urljoin(base, rest)
    path = Path(urlsplit(candidate).path)
    return candidate if rest and path.is_file() else None


__all__ = ["Problem", "Report", "validate"]
