"""Complete, partial or failed: what one run read, and the exit code that says so.

A run reads several sources (the INPUTs, or what discovery found), and following an index
reads many child sitemaps. When some of them cannot be read, the others still are; the run
is then *partial*, and a caller (a cron job regenerating ``sitemap.xml``) must be able to
tell that from a complete run without parsing warnings:

====  ==========================================================================
0     complete: every source and every followed child was read
1     failed: nothing was written or replaced (a single INPUT that cannot be read,
      no entry read at all while something failed, or a partial run with strict)
2     usage error
3     partial: some sources or children failed; what was read is written
====  ==========================================================================

:class:`Run` merges the entries of the documents, skipping a source that fails when there
are several, and counting failed children through ``Document.failures``. A run that read
no entry while something failed raises at the end of the entries, and so does a partial
run under ``strict``: the writer then removes its temporary file and nothing is replaced.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from ._model import Document, Entry, FeedMeta
from .errors import PartialError, SitemapError

#: Exit status of a partial run (some sources or followed children failed).
EXIT_PARTIAL = 3

#: A group of documents opened together: its name for messages, and how to open it.
Group = tuple[str, Callable[[], Iterable[Document]]]


@dataclass(slots=True)
class Run:
    """The tally of one run over one or more groups of documents."""

    #: More than one INPUT: one that fails is skipped and the run goes on.
    several: bool = False
    #: A failure anywhere fails the whole run (nothing written).
    strict: bool = False
    #: Called once per skipped source with a one-line message.
    on_failure: Callable[[str], None] | None = None
    #: Entries read from the sources (before filters).
    read: int = 0
    sources_failed: list[tuple[str, str]] = field(default_factory=list)
    _errors: list[SitemapError] = field(default_factory=list)
    _docs: list[Document] = field(default_factory=list)

    # --- reading ----------------------------------------------------------------------------

    def documents(self, groups: Iterable[Group]) -> Iterator[Document]:
        """Open the groups one after another; a group that fails to open is recorded."""
        for name, open_group in groups:
            try:
                for doc in open_group():
                    self._docs.append(doc)
                    yield doc
            except SitemapError as exc:
                self._source_failed(name, exc)

    def prime(self, docs: Iterator[Document]) -> tuple[FeedMeta, Iterator[Document]]:
        """The metadata of the first document that can be read, and all the documents."""
        for doc in docs:
            try:
                meta = doc.prime()
            except SitemapError as exc:
                doc.close()
                self._source_failed(doc.source, exc)
                continue
            return meta, itertools.chain([doc], docs)
        self.finish()
        return FeedMeta(), iter(())

    def entries(self, docs: Iterable[Document]) -> Iterator[Entry]:
        """The entries of every document in order; raises at the end when the run failed."""
        for doc in docs:
            try:
                with doc:
                    for entry in doc:
                        self.read += 1
                        yield entry
                        if self.strict and doc.failures:
                            self.finish()
            except PartialError:
                raise
            except SitemapError as exc:
                self._source_failed(doc.source, exc)
        self.finish()

    def _source_failed(self, name: str, exc: SitemapError) -> None:
        if not self.several:
            raise exc
        self._errors.append(exc)
        self.sources_failed.append((name, exc.reason))
        if self.strict:
            self.finish()  # fail now: no point reading the rest
        if self.on_failure is not None:
            self.on_failure(f"{exc}; going on with the other inputs")

    # --- the verdict --------------------------------------------------------------------------

    @property
    def failures(self) -> list[tuple[str, str]]:
        """``(source, reason)`` of every source and followed child that could not be read."""
        found = list(self.sources_failed)
        for doc in self._docs:
            found.extend(doc.failures)
        return found

    def finish(self) -> None:
        """Raise when the run must write nothing: no entry read while something failed, or
        anything failed under ``strict``."""
        failures = self.failures
        if not failures or (self.read and not self.strict):
            return
        if len(self._errors) == 1 and len(failures) == 1 and not self.read:
            raise self._errors[0]
        first, reason = failures[0]
        why = "strict mode refuses a partial result" if self.read else "no entry was read"
        raise PartialError(
            f"{self.describe_failures()} (first: {first}: {reason}); {why}; nothing was written",
            failures=failures,
        )

    def describe_failures(self) -> str:
        failures = self.failures
        sources = len(self.sources_failed)
        children = len(failures) - sources
        parts = []
        if sources:
            parts.append(f"{sources} input(s)")
        if children:
            parts.append(f"{children} child sitemap(s)")
        return " and ".join(parts) + " could not be read"

    @property
    def exit_code(self) -> int:
        """0 when complete, :data:`EXIT_PARTIAL` when something failed but entries were read."""
        return EXIT_PARTIAL if self.failures else 0
