"""What a conversion could not carry: collected per run, reported in ONE warning at the end.

A feed has no priority or changefreq, RSS has no hreflang, and so on (each format's own spec:
sitemaps.org, RSS 2.0, RFC 4287).
Warning per entry would drown the user, so writers record the names of the
:class:`~sitemapconv._model.Entry` fields they dropped (``priority``, ``video.rating``...) and
:meth:`Losses.report` emits a single sorted summary through ``ctx.warn_once``.
"""

from __future__ import annotations

from .._model import Entry
from . import WriteContext


class Losses:
    """The set of Entry field names a writer had to drop during one run."""

    __slots__ = ("fields", "format", "hint")

    def __init__(self, format: str, hint: str | None = None) -> None:
        self.format = format
        #: Said after the list, e.g. which format keeps the fields.
        self.hint = hint
        self.fields: set[str] = set()

    def add(self, name: str) -> None:
        self.fields.add(name)

    def check_sitemap_fields(self, entry: Entry) -> None:
        """Record the sitemap-only fields no feed format can carry."""
        if entry.priority is not None:
            self.fields.add("priority")
        if entry.changefreq is not None:
            self.fields.add("changefreq")
        if entry.news is not None:
            self.fields.add("news")
        if entry.mobile:
            self.fields.add("mobile")

    def add_feed_fields(self, entry: Entry) -> None:
        """Record the feed-only fields no sitemap can carry (see :func:`feed_fields`)."""
        self.fields.update(feed_fields(entry))

    def report(self, ctx: WriteContext) -> None:
        """One warning per run listing everything dropped (nothing when nothing was)."""
        if self.fields:
            hint = f" ({self.hint})" if self.hint else ""
            ctx.warn_once(
                "dropped-fields",
                f"{self.format} output cannot carry these fields, dropped: "
                + ", ".join(sorted(self.fields))
                + hint,
            )


def feed_fields(entry: Entry) -> list[str]:
    """The feed fields of ``entry`` that no sitemap format (urlset, index, text) carries.

    ``id`` and ``published`` count only when they say something ``loc`` and ``lastmod`` do not.
    """
    names = []
    if entry.title is not None:
        names.append("title")
    if entry.summary is not None:
        names.append("summary")
    if entry.id is not None and entry.id != entry.loc:
        names.append("id")
    if entry.published is not None and entry.published != entry.lastmod:
        names.append("published")
    return names
