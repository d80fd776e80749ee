"""Atom 0.3 writer (the December 2003 pre-RFC snapshot, still accepted as a
sitemap).

Root ``<feed version="0.3" xmlns="http://purl.org/atom/ns#">``. Feed head (meta > options >
defaults, :mod:`sitemapconv.writers._feedmeta`): ``title``, ``link rel="alternate"
type="text/html"`` to the site, ``author``/``name`` (default "sitemapconv", at feed level so
entries need none), ``id`` only when one was given (optional in 0.3), ``tagline`` when a
description was given, and ``modified``.

Each entry: ``title`` (or the URL), ``link rel="alternate" type="text/html" href=URL``, ``id``
(as in Atom 1.0: the entry id when it is an absolute IRI, else the URL), ``modified``,
``issued``, ``summary`` when known (escaped ``text/html``: the model's summary is HTML), and
Media RSS for images and videos (0.3 allows
foreign-namespace elements).

Dates are W3C-DTF (:func:`format_w3c_utc`): an aware datetime is converted to UTC and written
with ``Z`` (the draft asks for UTC); a naive one is written without a zone (0.3 allows it,
and none is invented); a date-only value as midnight without a zone. ``modified`` = lastmod,
else published, else the build time; ``issued`` = published, else lastmod, else the build time
(both are required). The feed ``modified`` = the newest of the source feed's ``updated`` and
every entry ``modified``, else the build time.

Dropped (one summary warning): priority, changefreq, news, mobile, alternates (0.3 links have
no hreflang), and what Media RSS does not map. The self link has no 0.3 equivalent.
"""

from __future__ import annotations

import datetime as _dt

from .._model import Entry, When
from .._xml import ATOM03_NS as NAMESPACE
from .._xml import MEDIA_NS, XML_DECLARATION
from ._atom import entry_id, language_tag
from ._feedmeta import FeedHead
from ._feedspool import FeedSpool
from ._feedwriter import FeedRun, FeedWriter
from ._losses import Losses
from ._mediarss import media_xml

#: Extension prefixes in the fixed order they are declared on ``<feed>``.
NAMESPACES = (("media", MEDIA_NS),)


def format_w3c_utc(when: When) -> str:
    """W3C-DTF date-time in UTC (``Z``); naive stays zone-less; a date becomes midnight."""
    if not isinstance(when, _dt.datetime):
        return f"{when.isoformat()}T00:00:00"
    timespec = "microseconds" if when.microsecond else "seconds"
    if when.tzinfo is None:
        return when.isoformat(timespec=timespec)
    utc = when.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    return utc.isoformat(timespec=timespec) + "Z"


def _entry(
    entry: Entry, loc: str, spool: FeedSpool, losses: Losses, modified: When, issued: When
) -> str:
    losses.check_sitemap_fields(entry)
    if entry.alternates:
        losses.add("alternates")
    title = spool.text(entry.title) if entry.title is not None else loc
    parts = [
        "  <entry>\n    <title>",
        title,
        '</title>\n    <link rel="alternate" type="text/html" href="',
        loc,
        '"/>\n    <id>',
        entry_id(entry, loc, spool, losses),
        "</id>\n    <modified>",
        format_w3c_utc(modified),
        "</modified>\n    <issued>",
        format_w3c_utc(issued),
        "</issued>\n",
    ]
    if entry.summary is not None:
        # The model's summary is HTML: Atom 0.3 says so with an escaped text/html content.
        parts += [
            '    <summary type="text/html" mode="escaped">',
            spool.text(entry.summary),
            "</summary>\n",
        ]
    parts.append(media_xml(entry, spool, losses, "    "))
    parts.append("  </entry>\n")
    return "".join(parts)


def _head(head: FeedHead, spool: FeedSpool, modified: When, given_id: str | None) -> str:
    lang = language_tag(head.language)
    parts = [
        XML_DECLARATION,
        f'<feed version="0.3" xmlns="{NAMESPACE}"',
        spool.declarations(NAMESPACES),
        f' xml:lang="{lang}"' if lang else "",
        ">\n  <title>",
        spool.text(head.title),
        "</title>\n",
    ]
    link = spool.url(head.link, "feed link") if head.link is not None else None
    if link is not None:
        parts += ['  <link rel="alternate" type="text/html" href="', link, '"/>\n']
    parts += ["  <author>\n    <name>", spool.text(head.author), "</name>\n  </author>\n"]
    if given_id is not None:
        parts += ["  <id>", spool.text(given_id), "</id>\n"]
    if head.given_description is not None:
        parts += ["  <tagline>", spool.text(head.given_description), "</tagline>\n"]
    parts += ["  <modified>", format_w3c_utc(modified), "</modified>\n"]
    return "".join(parts)


class Atom03Writer(FeedWriter):
    """Atom 0.3 (see the module docstring for the mapping and the date rules)."""

    name = "atom03"
    extensions = (".atom03",)
    media_type = "application/atom+xml"

    closing = "</feed>\n"

    def item(self, entry: Entry, loc: str, spool: FeedSpool, losses: Losses, run: FeedRun) -> str:
        modified = entry.lastmod or entry.published or run.now
        issued = entry.published or entry.lastmod or run.now
        run.newest.see(modified)
        return _entry(entry, loc, spool, losses, modified, issued)

    def head_xml(self, spool: FeedSpool, run: FeedRun) -> str:
        given_id = run.ctx.meta.id or run.ctx.options.feed_id
        return _head(run.head, spool, run.updated, given_id)
