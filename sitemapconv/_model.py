"""The one model in the middle: every reader yields :class:`Entry` objects, every writer takes them.

Like pandoc's AST, no reader knows about any writer. Fields that a format cannot express are
``None`` (or an empty tuple), never an invented default: an absent priority stays ``None``
rather than becoming 0.5, so a conversion never adds data the source did not have.

Sequences default to ``()`` rather than a ``default_factory`` list: readers build lists only
for the entries that have extensions, which keeps entry creation cheap on the hot path.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Union

#: A lastmod: a ``date`` when the source gave only a date, else a ``datetime``
#: (timezone-aware whenever the source gave a zone; see :mod:`sitemapconv._dates`).
When = Union[_dt.datetime, _dt.date]  # noqa: UP007 - a runtime alias must work on 3.10

CHANGEFREQS: frozenset[str] = frozenset(
    ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
)


@dataclass(slots=True)
class Image:
    """Google image extension (``image:image``)."""

    loc: str
    caption: str | None = None
    title: str | None = None
    geo_location: str | None = None
    license: str | None = None


@dataclass(slots=True)
class VideoPrice:
    value: str
    currency: str | None = None
    type: str | None = None
    resolution: str | None = None


@dataclass(slots=True)
class VideoTvShow:
    show_title: str | None = None
    video_type: str | None = None
    episode_title: str | None = None
    season_number: int | None = None
    episode_number: int | None = None
    premier_date: When | None = None


@dataclass(slots=True)
class VideoId:
    value: str
    type: str | None = None


@dataclass(slots=True)
class Video:
    """Google video extension (``video:video``); repeated elements are sequences."""

    thumbnail_loc: str | None = None
    title: str | None = None
    description: str | None = None
    content_loc: str | None = None
    player_loc: str | None = None
    player_allow_embed: str | None = None
    player_autoplay: str | None = None
    duration: int | None = None
    expiration_date: When | None = None
    rating: float | None = None
    content_segment_locs: Sequence[tuple[str, int | None]] = ()
    view_count: int | None = None
    publication_date: When | None = None
    tags: Sequence[str] = ()
    category: str | None = None
    family_friendly: bool | None = None
    restriction: str | None = None
    restriction_relationship: str | None = None
    gallery_loc: str | None = None
    gallery_title: str | None = None
    prices: Sequence[VideoPrice] = ()
    requires_subscription: bool | None = None
    uploader: str | None = None
    uploader_info: str | None = None
    tvshow: VideoTvShow | None = None
    platform: str | None = None
    platform_relationship: str | None = None
    live: bool | None = None
    ids: Sequence[VideoId] = ()


@dataclass(slots=True)
class News:
    """Google news extension (``news:news``)."""

    publication_name: str | None = None
    publication_language: str | None = None
    publication_date: When | None = None
    title: str | None = None
    access: str | None = None
    genres: str | None = None
    keywords: str | None = None
    stock_tickers: str | None = None


@dataclass(slots=True)
class Alternate:
    """An ``xhtml:link`` (hreflang alternate), or any other typed link of the page.

    ``rel`` is ``"alternate"`` for hreflang alternates; other values (``amphtml``...) are kept
    as generic links so they survive a round trip.
    """

    href: str
    hreflang: str | None = None
    rel: str = "alternate"
    media: str | None = None


@dataclass(slots=True)
class Entry:
    """One URL of a site, whatever format it came from.

    ``loc`` is the URL with surrounding whitespace stripped and XML entities decoded: absolute
    unless the source gave a relative link and no base URL (readers warn about those).
    ``lastmod`` is a ``datetime`` (tz-aware when the source gave a zone) or a ``date``.
    ``changefreq`` is lower-cased and one of :data:`CHANGEFREQS`. ``priority`` is in [0, 1].
    ``title`` is plain text: a feed title marked as HTML or XHTML (Atom ``type="html"`` /
    ``"xhtml"``) is turned into its text (tags removed, entities decoded).
    ``summary`` is HTML: a plain-text summary is escaped into HTML when read, and writers
    state it as HTML (Atom ``type="html"``, an escaped RSS ``description``); use
    :func:`sitemapconv._htmltext.html_to_text` for its text.
    ``sitemap`` is the source the entry was read from as the user gave it (a path or a URL;
    ``None`` for bytes or stdin without a base URL), or the child sitemap's URL when an
    index is followed. It is never a ``file:`` URL the user did not type.
    """

    loc: str
    lastmod: When | None = None
    changefreq: str | None = None
    priority: float | None = None
    title: str | None = None
    summary: str | None = None
    id: str | None = None
    published: When | None = None
    images: Sequence[Image] = ()
    videos: Sequence[Video] = ()
    news: News | None = None
    alternates: Sequence[Alternate] = ()
    mobile: bool = False
    sitemap: str | None = None


@dataclass(slots=True)
class FeedMeta:
    """Document-level metadata: the RSS channel or the Atom feed head.

    Sitemaps have none of it. Writers that need a title or link fall back on options, then
    on documented defaults (see each writer).
    """

    title: str | None = None
    link: str | None = None
    description: str | None = None
    id: str | None = None
    updated: When | None = None
    self_link: str | None = None
    language: str | None = None
    author: str | None = None


@dataclass(slots=True, eq=False)
class Document:
    """A parsed source: its format, its metadata, and a one-shot stream of entries.

    Iterating a Document drives the reader, so entries come out while the input is still
    being read. ``meta`` primes the stream up to the first entry, because channel or feed
    metadata normally precedes the first item; that one entry is held and yielded first.

    The stream is read once: iterating a Document that was already iterated or closed
    raises :class:`~sitemapconv.errors.DocumentConsumedError` rather than yielding nothing,
    so ``write(doc, a); write(doc, b)`` fails loudly instead of writing an empty ``b``.

    ``failures`` tells a complete read from a partial one without parsing warnings: the
    ``(source, reason)`` of every followed child sitemap that could not be read. With
    ``strict`` (``read(..., strict=True)``) the end of the entries raises
    :class:`~sitemapconv.errors.PartialError` instead when there were any.
    """

    format: str
    source: str
    _entries: Iterator[Entry] = field(repr=False)
    meta: FeedMeta = field(default_factory=FeedMeta)
    _held: list[Entry] = field(default_factory=list, repr=False)
    _primed: bool = field(default=False, repr=False)
    _on_close: Callable[[], None] | None = field(default=None, repr=False)
    strict: bool = field(default=False, repr=False)
    #: "new" until iterated, then "iterating", "done" (read to the end) or "closed".
    _state: str = field(default="new", repr=False)

    def prime(self) -> FeedMeta:
        """Read up to the first entry so that metadata written before it is available."""
        if not self._primed and self._state == "new":
            self._primed = True
            for entry in self._entries:
                self._held.append(entry)
                break
        return self.meta

    @property
    def failures(self) -> list[tuple[str, str]]:
        """``(source, reason)`` of each followed child that failed or was refused so far."""
        # FollowedDocument (sitemapconv._follow) counts them in its ``stats``.
        stats = getattr(self, "stats", None)
        return list(getattr(stats, "failures", ()))

    @property
    def complete(self) -> bool:
        """True when everything was read: read to the end, and no followed child failed."""
        return self._state == "done" and not self.failures

    def __iter__(self) -> Iterator[Entry]:
        if self._state != "new":
            from .errors import DocumentConsumedError

            what = "closed" if self._state == "closed" else "already read"
            raise DocumentConsumedError(
                f"this Document was {what}: its entries can be iterated only once "
                "(read the source again, or keep the entries in a list)",
                source=self.source,
            )
        self._state = "iterating"
        return self._iterate()

    def _iterate(self) -> Iterator[Entry]:
        self._primed = True
        try:
            if self._held:
                yield self._held.pop()
            yield from self._entries
            self._state = "done"
            failures = self.failures if self.strict else []
            if failures:
                from .errors import PartialError

                first, reason = failures[0]
                raise PartialError(
                    f"{len(failures)} child sitemap(s) could not be read "
                    f"(first: {first}: {reason}); strict mode refuses a partial result",
                    source=self.source,
                    failures=failures,
                )
        finally:
            self.close()

    def close(self) -> None:
        """Release the underlying input (file handle or HTTP connection)."""
        if self._state in ("new", "iterating"):
            self._state = "closed"
        close = getattr(self._entries, "close", None)
        if close is not None:
            close()
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()

    def __del__(self) -> None:
        # A Document dropped without being read to the end still releases its input.
        with suppress(Exception):  # never raise from a finaliser
            self.close()

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
