"""Writers: one module per output format, each streaming entries to a binary sink.

A writer class declares its ``name``, ``aliases`` and default ``extensions`` (used to pick
the format from ``-o`` when ``-t`` is absent). :mod:`sitemapconv._registry` finds them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO, ClassVar

from .._model import Entry, FeedMeta
from .._options import WriteOptions, emit_warning


@dataclass(slots=True)
class WriteContext:
    """What a writer knows besides the entries: destination name, options, metadata."""

    dest: str
    options: WriteOptions = field(default_factory=WriteOptions)
    meta: FeedMeta = field(default_factory=FeedMeta)
    warnings: int = 0
    _warned: set[str] = field(default_factory=set)

    def warn(self, message: str) -> None:
        self.warnings += 1
        emit_warning(self.options.on_warning, f"{self.dest}: {message}")

    def warn_once(self, key: str, message: str) -> None:
        """Warn once per run for a kind of problem (dropped fields, forbidden characters)."""
        if key not in self._warned:
            self._warned.add(key)
            self.warn(message)


class Writer:
    """Base class of every writer. Subclasses implement :meth:`write`."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    extensions: ClassVar[tuple[str, ...]] = ()
    media_type: ClassVar[str] = "application/octet-stream"

    def write(self, entries: Iterable[Entry], out: BinaryIO, ctx: WriteContext) -> int:
        """Write every entry to ``out`` as it arrives; return the number written."""
        raise NotImplementedError
