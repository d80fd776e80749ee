"""The validator's rules, one module per family; this module holds what they share.

Each format has one streaming pass (:mod:`.sitemap`, :mod:`.feeds`, :mod:`.text`) that calls
the rule modules (:mod:`.urls`, :mod:`.values`, :mod:`.schema`, :mod:`.extensions`,
:mod:`.syntax`) on each entry as soon as it is parsed, then drops it.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from lxml import etree

from .._problems import Collector
from .._xml import iterparse as hardened_iterparse
from .urls import Duplicates, Scope

#: Protocol limits per file (sitemaps.org protocol: 50,000 URLs, 50 MB uncompressed).
MAX_URLS = 50_000
MAX_BYTES = 52_428_800


class Counted:
    """A binary stream that counts the bytes read through it (the uncompressed size)."""

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self.count = 0

    def read(self, n: int = -1) -> bytes:
        data = self._raw.read(n)
        self.count += len(data)
        return data

    def read_line(self) -> bytes:
        """One line (at most 1 MiB, so a file without newlines cannot fill memory)."""
        data = self._raw.readline(1 << 20)
        self.count += len(data)
        return data


@dataclass(slots=True)
class Pass:
    """The state of one file's validation pass."""

    out: Collector
    scope: Scope | None = None
    #: "Now" for the future-date rule, with 10 minutes of allowance for clock skew.
    now: _dt.datetime = field(
        default_factory=lambda: _dt.datetime.now(_dt.timezone.utc) + _dt.timedelta(minutes=10)
    )
    count: int = 0
    duplicates: Duplicates = field(default_factory=Duplicates)
    #: Child sitemaps of an index, (loc, line), for following.
    children: list[tuple[str, int | None]] = field(default_factory=list)

    #: Line of the entry that crossed the 50,000 limit.
    over_line: int | None = None

    def counted(self, line: int | None) -> None:
        """Count one entry, remembering where the 50,000 limit is crossed."""
        self.count += 1
        if self.count == MAX_URLS + 1:
            self.over_line = line

    def finish(self, size: int, what: str, one: str = "URL") -> None:
        """File-level rules, once the pass is over: duplicates and the two limits."""
        self.duplicates.report(self.out, one)
        if self.count > MAX_URLS:
            self.out.error(
                "limit-count",
                f"the file lists {self.count:,} {what}; at most {MAX_URLS:,} are allowed "
                "in one file: split it into several files listed by a sitemap index "
                f"(entry {MAX_URLS + 1:,} is at this line)",
                line=self.over_line,
            )
        if size > MAX_BYTES:
            self.out.error(
                "limit-size",
                f"the file is {size:,} bytes uncompressed; at most {MAX_BYTES:,} (50 MB) "
                "are allowed, gzip does not help: split it",
            )


def iterparse(stream: Counted) -> Iterator[tuple[str, etree._Element]]:
    """Hardened streaming parse: no entities, DTDs or network.

    Yields element ends plus comments and processing instructions, which the passes drop
    from the tree themselves: lxml's own ``remove_comments=True`` corrupted the heap
    (lxml 6.1, libxml2 crash at the next XMLSchema) on a file with 50 MB of comments.
    """
    return iter(hardened_iterparse(stream, events=("end", "comment", "pi")))


def text_of(el: etree._Element | None) -> str | None:
    if el is None:
        return None
    return el.text or ""


def line_of(el: etree._Element) -> int | None:
    """The element's line in the source (lxml-stubs type it loosely)."""
    line: object = el.sourceline
    return line if isinstance(line, int) else None


def root_of(el: etree._Element) -> etree._Element:
    parent = el.getparent()
    while parent is not None:
        el, parent = parent, parent.getparent()
    return el


__all__ = [
    "MAX_BYTES",
    "MAX_URLS",
    "Counted",
    "Pass",
    "iterparse",
    "line_of",
    "root_of",
    "text_of",
]
