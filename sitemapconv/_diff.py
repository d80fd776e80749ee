"""What changed between two snapshots of a site: added, removed and changed URLs.

:func:`diff` reads the OLD side completely first, keeping for each URL only a compact record,
then streams the NEW side against it::

    digest (16 bytes) | sequence number (5) | one 8-byte fingerprint per compared field
    other than lastmod | the old lastmod as W3C text (variable)

The digest is :func:`sitemapconv._urls.url_digest`, the key ``--dedupe`` uses, so URLs
match after the same RFC 3986 normalisation. The records are ``bytes`` in one sorted list
(a record starts with its digest, so :func:`bisect.bisect_left` on the bare digest finds
it) plus one byte per record for "seen on the new side": about 75 bytes per old URL, against
a few hundred for a ``dict`` of tuples. The old URLs themselves are not kept in memory: they
go, with their lastmod, to an anonymous temporary file that is read back once at the end to
report what was removed, in the old side's order. Neither side is ever held as entries.

Changes come out in this order: added and changed URLs as the new side lists them, then
removed URLs as the old side listed them. A URL listed twice on one side counts once (the
first copy is compared) with a warning naming it (the first five per side; then one warning
sums up the rest).

A compared field that is missing on either side is unknown, not changed: a plain-text URL
list has no lastmod, so comparing it with a sitemap reports only added and removed URLs.
``lastmod`` values compare as instants (a naive time is UTC, a date is 00:00 UTC that day,
as in ``--since``); the other fields compare by value.
"""

from __future__ import annotations

import bisect
import os
import struct
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from ._diff_records import (
    DEFAULT_FIELDS,
    DIGEST,
    FIELDS,
    SEQ,
    Change,
    ChangeKind,
    DiffStats,
    check_fields,
    compare,
    fingerprint,
    lastmod_text,
    lastmod_value,
)
from ._filters import FilterOptions, Pipeline
from ._model import Document, Entry, FeedMeta
from ._options import ReadOptions, WarningHandler, build_options, emit_warning
from ._source import Source
from ._urls import url_digest
from .errors import SitemapError

#: Repeated URLs warned about by name, per side; the others are summed up in one warning.
NAMED_REPEATS = 5

_SPOOL_HEAD = struct.Struct(">IH")  # loc length, lastmod length


class Comparison:
    """The changes from ``old`` to ``new`` (see :func:`diff`); iterate it once.

    :attr:`stats` fills as it streams; :meth:`prime` reads the old side and opens the new one
    so that :attr:`meta` (the new side's feed metadata, for writing feeds) is known first.
    """

    def __init__(
        self,
        old: Source | Iterable[Entry],
        new: Source | Iterable[Entry],
        *,
        fields: Sequence[str],
        filters: FilterOptions | None,
        old_format: str | None,
        new_format: str | None,
        options: ReadOptions,
        partial_ok: bool = False,
    ) -> None:
        self.fields = check_fields(fields)
        self._others = tuple(f for f in self.fields if f != "lastmod")
        self._lastmod = "lastmod" in self.fields
        self.stats = DiffStats()
        self.meta = FeedMeta()
        self._old, self._new = old, new
        self._old_format, self._new_format = old_format, new_format
        self._filters = filters if filters is not None and filters.active else None
        Pipeline(self._filters)  # check the patterns and values before reading anything
        self._options = options
        self._records: list[bytes] = []
        self._spool: IO[bytes] | None = None
        self._old_dups: set[int] = set()
        self._old_count = 0
        self._new_doc: Document | None = None
        self._old_doc: Document | None = None
        self._partial_ok = partial_ok
        self._new_entries: Iterator[Entry] | None = None
        self._started = False
        self._seen = bytearray()

    # --- reading ---------------------------------------------------------------------------

    def _entries(self, source: Source | Iterable[Entry], fmt: str | None) -> Iterator[Entry]:
        """The filtered entries of one side, reading it first when it is a source."""
        from ._api import read

        entries: Iterable[Entry]
        if isinstance(source, (str, bytes, os.PathLike)) or hasattr(source, "read"):
            entries = read(source, fmt, options=self._options)  # type: ignore[arg-type]
        else:
            entries = source  # type: ignore[assignment]
        if source is self._new and isinstance(entries, Document):
            self._new_doc = entries
            self.meta = entries.prime()
        elif isinstance(entries, Document):
            self._old_doc = entries
        return self._filtered(entries)

    def _check_complete(self, doc: Document | None, side: str) -> None:
        """Refuse a side whose followed children could not all be read.

        Their URLs would be missing from that side, so they would be reported as removed
        (or added): a comparison that looks right and is not. ``partial_ok`` accepts it.
        """
        stats = getattr(doc, "stats", None)
        failed = getattr(stats, "failed", 0) + getattr(stats, "refused", 0)
        if failed and not self._partial_ok and doc is not None:
            raise SitemapError(
                f"{failed:,} child sitemap(s) of the {side} side could not be read, so the "
                "comparison would be wrong (their URLs would count as "
                f"{'removed' if side == 'new' else 'added'})",
                source=doc.source,
            )

    def _filtered(self, entries: Iterable[Entry]) -> Iterator[Entry]:
        if self._filters is None:
            return iter(entries)
        return Pipeline(self._filters)(entries)

    def _load_old(self) -> None:
        """Read the old side into sorted compact records and the spool of its locs."""
        records = self._records
        append = records.append
        others, seq = self._others, 0
        spool = self._spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed in _removed
        write, head = spool.write, _SPOOL_HEAD.pack
        for entry in self._entries(self._old, self._old_format):
            loc = entry.loc.encode("utf-8", "surrogatepass")
            lastmod = lastmod_text(entry.lastmod).encode("ascii")
            write(head(len(loc), len(lastmod)))
            write(loc)
            write(lastmod)
            prints = b"".join(fingerprint(entry, name) for name in others)
            append(url_digest(entry.loc) + seq.to_bytes(SEQ, "big") + prints + lastmod)
            seq += 1
        self._old_count = seq
        self._check_complete(self._old_doc, "old")
        spool.seek(0)
        records.sort()
        # Equal digests are now adjacent, the first listed first (the sequence number follows
        # the digest). Keep that one; the repeats are reported when the spool is read back.
        if any(records[i].startswith(records[i - 1][:DIGEST]) for i in range(1, len(records))):
            kept: list[bytes] = []
            previous = b""
            for record in records:
                digest = record[:DIGEST]
                if digest == previous:
                    self._old_dups.add(int.from_bytes(record[DIGEST : DIGEST + SEQ], "big"))
                    continue
                previous = digest
                kept.append(record)
            self._records = kept
            self.stats.old_duplicates = len(self._old_dups)

    def prime(self) -> FeedMeta:
        """Read the old side and open the new one; returns the new side's metadata."""
        if not self._started:
            self._started = True
            self._load_old()
            self._new_entries = self._entries(self._new, self._new_format)
        return self.meta

    # --- comparing -------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Change]:
        if self._started and self._spool is None:
            raise RuntimeError("a Comparison can be iterated only once")
        try:
            self.prime()
            yield from self._added_and_changed()
            self._check_complete(self._new_doc, "new")
            yield from self._removed()
        finally:
            self.close()

    def _added_and_changed(self) -> Iterator[Change]:
        records, stats = self._records, self.stats
        count = len(records)
        seen = self._seen = bytearray(count)
        added: set[bytes] = set()
        find = bisect.bisect_left
        assert self._new_entries is not None
        for entry in self._new_entries:
            digest = url_digest(entry.loc)
            i = find(records, digest)
            if i < count and records[i].startswith(digest):
                if seen[i]:
                    self._new_duplicate(entry)
                    continue
                seen[i] = 1
                names, old_lastmod = compare(records[i], entry, self.fields, self._others)
                if names:
                    stats.changed += 1
                    yield Change(
                        "changed", entry.loc, lastmod_value(old_lastmod), entry.lastmod,
                        names, entry,
                    )  # fmt: skip
                else:
                    stats.unchanged += 1
            elif digest in added:
                self._new_duplicate(entry)
            else:
                added.add(digest)
                stats.added += 1
                yield Change("added", entry.loc, None, entry.lastmod, (), entry)

    def _new_duplicate(self, entry: Entry) -> None:
        self.stats.new_duplicates += 1
        self._repeated(entry.loc, "new", self.stats.new_duplicates)

    def _repeated(self, loc: str, side: str, count: int) -> None:
        """Warn about the first few repeats of a side by name; the rest are counted."""
        if count <= NAMED_REPEATS:
            emit_warning(
                self._options.on_warning,
                f"{loc}: listed more than once on the {side} side; compared once",
            )

    def _repeats_summary(self) -> None:
        for side, count in (("old", self.stats.old_duplicates), ("new", self.stats.new_duplicates)):
            if count > NAMED_REPEATS:
                emit_warning(
                    self._options.on_warning,
                    f"{count - NAMED_REPEATS:,} more URLs listed more than once on the {side} "
                    "side; each compared once",
                )

    def _removed(self) -> Iterator[Change]:
        """The old URLs the new side did not list, read back from the spool in old order."""
        gone = bytearray(self._old_count)
        at = DIGEST
        for record, seen in zip(self._records, self._seen, strict=True):
            if not seen:
                gone[int.from_bytes(record[at : at + SEQ], "big")] = 1
        self._records = []
        spool, dups = self._spool, self._old_dups
        assert spool is not None
        read, size = spool.read, _SPOOL_HEAD.size
        repeats = 0
        for seq in range(self._old_count):
            loc_len, lastmod_len = _SPOOL_HEAD.unpack(read(size))
            loc = read(loc_len).decode("utf-8", "surrogatepass")
            lastmod = read(lastmod_len).decode("ascii")
            if seq in dups:
                repeats += 1
                self._repeated(loc, "old", repeats)
            elif gone[seq]:
                self.stats.removed += 1
                yield Change("removed", loc, lastmod_value(lastmod), None)
        self._repeats_summary()

    def close(self) -> None:
        """Release the new side's input and the temporary file."""
        if self._new_doc is not None:
            self._new_doc.close()
        if self._spool is not None:
            self._spool.close()
            self._spool = None

    def __enter__(self) -> Comparison:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def diff(
    old: Source | Iterable[Entry],
    new: Source | Iterable[Entry],
    *,
    fields: Sequence[str] = DEFAULT_FIELDS,
    filters: FilterOptions | None = None,
    old_format: str | None = None,
    new_format: str | None = None,
    options: ReadOptions | None = None,
    on_warning: WarningHandler | None = None,
    partial_ok: bool = False,
    **kwargs: Any,
) -> Comparison:
    """The URLs added, removed and changed from snapshot ``old`` to snapshot ``new``.

    Each side is anything :func:`sitemapconv.read` accepts (path, URL, bytes, file; with
    ``follow=True`` an index is followed), a :class:`~sitemapconv._model.Document`, or any
    iterable of entries. Keyword arguments are :class:`~sitemapconv._options.ReadOptions`
    fields for both sides. ``fields`` names what makes a URL "changed" (see :data:`FIELDS`;
    default ``lastmod``). ``filters`` apply to both sides before comparing::

        for change in sitemapconv.diff("yesterday.xml", "https://example.com/sitemap.xml"):
            print(change.change, change.loc, change.old_lastmod, change.new_lastmod)

    Returns a :class:`Comparison`: iterate it for :class:`Change` records; its ``stats``
    has the counts once iteration ends. When a followed side has child sitemaps that could
    not be read (after the retries), iteration raises :class:`SitemapError`, because their
    URLs would look removed or added; ``partial_ok=True`` goes on regardless (the failures
    are warnings and counted in the side's ``stats``).
    """
    if on_warning is not None:
        kwargs["on_warning"] = on_warning
    opts = build_options(ReadOptions, options, kwargs)
    return Comparison(
        old, new, fields=fields, filters=filters, old_format=old_format,
        new_format=new_format, options=opts, partial_ok=partial_ok,
    )  # fmt: skip


__all__ = [
    "DEFAULT_FIELDS",
    "FIELDS",
    "Change",
    "ChangeKind",
    "Comparison",
    "DiffStats",
    "check_fields",
    "diff",
]
