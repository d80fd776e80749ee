"""Splitting a urlset at the protocol's per-file limits into numbered parts plus an index.

``sitemapconv.write(entries, "out/sitemap.xml", split=True, base_url="https://ex.com/")``
(without ``base_url`` the parts are listed at the root of the first entry's site, with a
warning)
streams the entries into parts ``out/sitemap-1.xml``, ``out/sitemap-2.xml``... (``.xml.gz``
when gzipped), each holding at most ``max_urls`` URLs and ``max_file_bytes`` uncompressed
bytes, and writes at ``out/sitemap.xml`` a sitemap index listing each part with
``loc = base_url + part file name`` and ``lastmod`` = the newest lastmod in that part.
When everything fits in one file, the target is written as one plain urlset and no index.

Byte counting is exact: each entry's UTF-8 size is known when it is formatted. A part's
namespace declarations are only known when the part is complete, so the space of the
longest possible header (every extension namespace declared) is reserved up front; the real
header can only be shorter, so no part ever exceeds the limit.

Memory stays flat: the current part is spooled (see :mod:`sitemapconv._spool`) and
each finished part is streamed to its own temporary file beside the target. A run is all or
nothing: the index is written to a temporary file too, and only when every part and the
index are complete are they renamed into place, parts first, so the index never names a
missing part, with SIGINT/SIGTERM/SIGHUP held back during the renames
(:func:`sitemapconv._termination.deferred`). If anything fails before, no new file exists and
the files of a previous run are left untouched. The target is resolved like any output
(:mod:`sitemapconv._destination`): behind a symlink the parts go beside the real file.
Parts left over from an earlier, longer run (``sitemap-9.xml`` when this run makes 3) are
not deleted; the new index does not list them. A part name is a plain file name: it cannot
contain a path separator or be ``.``/``..``, so parts never leave the target's folder.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO
from urllib.parse import urlsplit

from . import _destination as destination
from . import _termination as termination
from ._limits import PROTOCOL_MAX_URLS, check_limits
from ._model import Entry, When
from ._sink import gzipped
from ._spool import SpooledBody
from ._urls import encode_url, is_http
from .errors import LimitError, WriteError
from .writers import WriteContext
from .writers._index import IndexWriter
from .writers._urlset import MAX_URLSET_OPEN, URLSET_CLOSE, UrlsetFormatter, urlset_open

_UTC = _dt.timezone.utc


def _sort_key(when: When) -> _dt.datetime:
    """Comparable instant: aware values in UTC; dates and naive values read as UTC."""
    if not isinstance(when, _dt.datetime):
        return _dt.datetime(when.year, when.month, when.day, tzinfo=_UTC)
    if when.tzinfo is None:
        return when.replace(tzinfo=_UTC)
    return when.astimezone(_UTC)


@dataclass(slots=True)
class PartName:
    """How parts are named: ``{stem}-{n}{suffix}`` in ``directory``."""

    directory: str
    stem: str
    suffix: str

    @classmethod
    def for_target(cls, path: str, part_name: str | None, gzip_output: bool) -> PartName:
        """``out/sitemap.xml`` → ``out/sitemap-N.xml``; ``part_name`` replaces the stem."""
        directory, base = os.path.split(path)
        stem = base[:-3] if base.lower().endswith(".gz") else base
        root, ext = os.path.splitext(stem)
        stem = root if ext else stem
        return cls(directory, part_name or stem, ".xml.gz" if gzip_output else ".xml")

    def file_name(self, n: int) -> str:
        return f"{self.stem}-{n}{self.suffix}"


def check_part_name(part_name: str | None) -> str | None:
    """Refuse a part name that would put parts outside the target's folder, or none at all."""
    if part_name is None:
        return None
    seps = {os.sep, "/"} | ({os.altsep} if os.altsep else set())
    if (
        not part_name.strip()
        or part_name in (".", "..")
        or any(sep in part_name for sep in seps)
        or "\x00" in part_name
    ):
        raise WriteError(
            f"part_name must be a plain file name stem such as 'sitemap' (got {part_name!r}): "
            "parts are always written beside the target",
            source=part_name or "<empty part name>",
        )
    return part_name


class _Part:
    """The part being filled: spooled body, namespaces used, newest lastmod."""

    __slots__ = ("body", "newest", "newest_key", "ns")

    def __init__(self) -> None:
        self.body = SpooledBody()
        self.ns = 0
        self.newest: When | None = None
        self.newest_key: _dt.datetime | None = None

    def add(self, data: bytes, ns: int, lastmod: When | None) -> None:
        self.body.add(data)
        self.ns |= ns
        if lastmod is not None:
            key = _sort_key(lastmod)  # once per entry: the newest's key is kept
            if self.newest_key is None or key > self.newest_key:
                self.newest, self.newest_key = lastmod, key

    def write_to(self, out: BinaryIO) -> None:
        out.write(urlset_open(self.ns))
        self.body.copy_to(out)
        out.write(URLSET_CLOSE)


@dataclass(slots=True)
class _Staged:
    tmp: str
    #: The part's name beside the target (listed in the index) and the file it replaces
    #: (the same, unless the name is a symlink: then its target).
    final: str
    real: str
    existing: os.stat_result | None
    newest: When | None


class SplitWriter:
    """Writes one target as a plain urlset, or as parts plus an index (module docstring)."""

    def __init__(self, path: str, ctx: WriteContext) -> None:
        opts = ctx.options
        self.path = path
        self.ctx = ctx
        self.max_urls, max_bytes = check_limits(opts, path)
        self.budget = max_bytes - MAX_URLSET_OPEN - len(URLSET_CLOSE)
        if self.budget <= 0:
            raise WriteError(
                f"max_file_bytes={max_bytes} leaves no room for entries "
                f"(a header and footer take up to {MAX_URLSET_OPEN + len(URLSET_CLOSE)} bytes)",
                source=path,
            )
        base_url = (opts.base_url or "").strip()
        if base_url and not is_http(base_url):
            raise WriteError(
                "base_url must be the absolute http(s) URL where the parts will be "
                f"served (got {opts.base_url!r})",
                source=path,
            )
        # Without base_url the parts are listed at the root of the first entry's site.
        self.base_url = (
            encode_url(base_url if base_url.endswith("/") else base_url + "/") if base_url else ""
        )
        self.gzip_output = opts.gzip or path.lower().endswith(".gz")
        self.target = destination.resolve(path)
        self.names = PartName.for_target(
            self.target.real, check_part_name(opts.part_name), self.gzip_output
        )
        self.staged: list[_Staged] = []
        self.index_tmp = ""

    def write(self, entries: Iterable[Entry]) -> int:
        fmt = UrlsetFormatter(self.ctx)
        part = _Part()
        count = 0
        try:
            for entry in entries:
                text = fmt.format(entry)
                if text is None:
                    continue
                data = text.encode()
                if len(data) > self.budget:
                    raise WriteError(
                        f"the <url> element of {entry.loc!r} alone is {len(data):,} bytes, "
                        "more than max_file_bytes allows",
                        source=self.path,
                    )
                if part.body.count >= self.max_urls or part.body.size + len(data) > self.budget:
                    self._stage(part)
                    part = _Part()
                part.add(data, fmt.ns, entry.lastmod)
                count += 1
                if not self.base_url:
                    self.base_url = _site_root(entry.loc)
            fmt.report()
            fmt.v.finish(count, "xml")  # every entry dropped: an error, nothing written
            if not self.staged:
                self._write_single(part)
                return count
            self._stage(part)
            self._stage_index()
            self._commit()
        except OSError as exc:
            raise WriteError(
                f"cannot write ({destination.describe(exc)})", source=self.path
            ) from None
        finally:
            part.body.close()
            self._discard()
        return count

    def _write_single(self, part: _Part) -> None:
        if part.body.count == 0:
            self.ctx.warn("no URLs to write: the urlset is empty (the XSD wants at least one)")
        with destination.written(self.path) as raw, gzipped(raw, self.gzip_output) as out:
            part.write_to(out)

    def _stage(self, part: _Part) -> None:
        """Write a finished part to a temporary file beside its final name."""
        if len(self.staged) >= PROTOCOL_MAX_URLS:
            raise LimitError(
                f"more than {PROTOCOL_MAX_URLS:,} parts: one sitemap index cannot list them",
                source=self.path,
            )
        final = os.path.join(self.names.directory, self.names.file_name(len(self.staged) + 1))
        target = destination.resolve(final)
        if target.kind != "file":
            raise WriteError("exists and is not a regular file; nothing was replaced", source=final)
        fd, tmp = destination.create_temp(target.real, final)
        self.staged.append(_Staged(tmp, final, target.real, target.existing, part.newest))
        with os.fdopen(fd, "wb") as raw, gzipped(raw, self.gzip_output) as out:
            part.write_to(out)
        part.body.close()

    def _stage_index(self) -> None:
        """Write the index to a temporary file beside the target (committed with the parts)."""
        if not (self.ctx.options.base_url or "").strip():
            self.ctx.warn(
                f"no base_url given: the index lists the parts under {self.base_url} "
                "(set base_url / --base-url to where they will be served)"
            )
        fd, self.index_tmp = destination.create_temp(self.target.real, self.path)
        with os.fdopen(fd, "wb") as raw, gzipped(raw, self.gzip_output) as out:
            IndexWriter().write(self._index_entries(), out, self.ctx)

    def _commit(self) -> None:
        """Rename every part, then the index, into place; signals wait until all are done."""
        for staged in self.staged:
            destination.prepare(staged.tmp, staged.existing)
        destination.prepare(self.index_tmp, self.target.existing)
        with termination.deferred():
            for staged in self.staged:
                destination.commit(staged.tmp, staged.real)
                staged.tmp = ""
            destination.commit(self.index_tmp, self.target.real)
            self.index_tmp = ""

    def _discard(self) -> None:
        """Remove temporary parts and index that were not committed (after a failure)."""
        for staged in self.staged:
            if staged.tmp:
                destination.discard(staged.tmp)
        if self.index_tmp:
            destination.discard(self.index_tmp)

    def _index_entries(self) -> Iterator[Entry]:
        for staged in self.staged:
            yield Entry(self.base_url + os.path.basename(staged.final), lastmod=staged.newest)


def _site_root(url: str) -> str:
    parts = urlsplit(encode_url(url))
    return f"{parts.scheme}://{parts.netloc}/"


def can_split(path: str) -> bool:
    """Only a regular file (or a link to one) can get parts beside it; a device cannot."""
    return destination.resolve(path).kind == "file"


def write_split(entries: Iterable[Entry], path: str, ctx: WriteContext) -> int:
    """Write ``entries`` to ``path``, splitting into parts + index when over the limits."""
    return SplitWriter(path, ctx).write(entries)
