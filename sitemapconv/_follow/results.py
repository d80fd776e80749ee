"""What following produces: the statistics of a run, and what became of each child sitemap.

Plain values shared by the policy (:mod:`.policy`), the drivers (:mod:`.sync`,
:mod:`.async_driver`) and the Dask tasks (:mod:`.tasks`); picklable, so that a cluster can
send them between processes. Kinds are ``str`` enums: their values are the words used in
messages and in older code (``"pages"``, ``"index"``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import BinaryIO

from .._model import Document, Entry


class ChildKind(str, Enum):
    """What reading one child sitemap gave."""

    #: A sitemap (or feed, or URL list): its page entries.
    PAGES = "pages"
    #: A nested sitemap index: its child URLs, followed in its place.
    INDEX = "index"
    #: It could not be fetched or read; the others go on.
    FAILED = "failed"
    #: The safety rules would not let it be fetched (a private address, a bad scheme...).
    REFUSED = "refused"


class DownloadKind(str, Enum):
    """What a worker's download of one child gave, before any parsing."""

    #: The body, spooled: parse it when its turn comes.
    BODY = "body"
    #: Not a web URL: nothing was downloaded; the file is opened when its turn comes.
    LOCAL = "local"
    FAILED = "failed"
    REFUSED = "refused"


@dataclass(slots=True)
class FollowStats:
    """What following did: how many sitemaps were read, and which failed or were skipped."""

    sitemaps: int = 0
    indexes: int = 0
    entries: int = 0
    failed: int = 0
    refused: int = 0
    duplicates: int = 0
    filtered: int = 0
    not_followed: int = 0
    #: Sitemaps whose body came from the cache (``cache=``): after a 304, or unrequested.
    cache_hits: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"read {self.sitemaps} sitemap(s), {self.entries} entries"]
        for count, label in (
            (self.failed, "failed"),
            (self.refused, "refused"),
            (self.duplicates, "duplicate(s) skipped"),
            (self.filtered, "filtered out"),
            (self.not_followed, "not followed (limits)"),
            (self.cache_hits, "from the cache"),
        ):
            if count:
                parts.append(f"{count} {label}")
        return ", ".join(parts)


@dataclass(slots=True, eq=False)
class FollowedDocument(Document):
    """A Document whose entries come from following an index; ``stats`` fills as it streams."""

    stats: FollowStats = field(default_factory=FollowStats)


@dataclass(slots=True)
class ChildSitemap:
    """A child sitemap admitted for reading: its absolute URL, the index that listed it, and
    its depth below the top (the top's children are at depth 1)."""

    url: str
    parent: str | None
    depth: int


@dataclass(slots=True)
class ChildResult:
    """A child read completely: its pages, its child URLs (a nested index), or why not.

    ``base`` is the URL its own children are resolved against (the final URL after
    redirects, or the local file's URL).
    """

    kind: ChildKind
    entries: list[Entry] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reason: str = ""
    base: str | None = None


@dataclass(slots=True)
class ChildDownload:
    """A child downloaded by a worker: its spooled body and final URL, or why it failed."""

    kind: DownloadKind
    body: BinaryIO | None = None
    final: str | None = None
    reason: str = ""
