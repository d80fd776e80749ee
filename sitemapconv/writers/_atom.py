"""Atom 1.0 writer (RFC 4287); output validates against RFC 4287's RELAX NG.

Feed head (:mod:`sitemapconv.writers._feedmeta`, meta > options > defaults): ``id`` (the
source feed id, ``feed_id``, else the site link ``scheme://host/`` of the first URL),
``title``, ``subtitle`` (only when a description was given), ``updated``, one ``author``
(default "sitemapconv", so entries need none), ``link rel="self"`` when the feed URL is
known and ``link rel="alternate"`` to the site.

Dates (one rule each, RFC 3339 via :func:`sitemapconv._dates.format_rfc3339`):

- entry ``updated`` = ``lastmod``, else ``published``, else **the build time** (Atom requires
  the element; this is the one value the writer has to invent, see
  :func:`~sitemapconv.writers._feedmeta.build_time`);
- entry ``published`` = ``published`` when known;
- feed ``updated`` = the newest of the source feed's ``updated`` and every entry ``updated``
  written, computed while the body is spooled (the head is written last); the build time when
  there is no entry and no source value;
- a naive datetime gets the offset ``-00:00`` ("unknown", RFC 3339 §4.3), never an invented
  zone; a date-only value becomes midnight with ``-00:00``.

Each entry: ``id`` (the entry id when it is an absolute IRI, else the URL; both stable),
``title`` (or the URL), ``link rel="alternate" href=URL`` first, then one
``link rel="alternate" hreflang=".." href=".."`` per hreflang alternate (the alternate equal
to the URL without hreflang is skipped), ``summary`` with ``type="html"`` (the model's
summary is HTML; the title is plain text, written as ``type="text"``), and Media RSS
(:mod:`.media`).
(``en_US`` is repaired to ``en-US``.) Alternates without hreflang, with a duplicate or
malformed hreflang, or with another ``rel``
cannot be written without breaking RFC 4287's one-alternate-per-type+hreflang rule and are
dropped, like priority, changefreq, news and mobile (one summary warning).
"""

from __future__ import annotations

import re

from .._dates import format_rfc3339
from .._model import Entry, When
from .._xml import ATOM_NS as NAMESPACE
from .._xml import MEDIA_NS, XML_DECLARATION
from ._feedmeta import FeedHead
from ._feedspool import FeedSpool
from ._feedwriter import FeedRun, FeedWriter
from ._losses import Losses
from ._mediarss import media_xml

#: Extension prefixes in the fixed order they are declared on ``<feed>``.
NAMESPACES = (("media", MEDIA_NS),)

_IRI_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:\S")
#: RFC 4287's atomLanguageTag.
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")


def language_tag(value: str | None) -> str | None:
    """``value`` as an RFC 4287 language tag (``en_US`` -> ``en-US``), or None if it is none.

    Feeds in the wild carry ``en_US`` or free text in their language field; writing those in
    ``xml:lang`` would make the document invalid, so they are repaired or left out.
    """
    if value is None:
        return None
    tag = value.strip().replace("_", "-")
    return tag if tag and _LANGUAGE_TAG.fullmatch(tag) else None


def entry_id(entry: Entry, loc: str, spool: FeedSpool, losses: Losses) -> str:
    """The formatted entry id: ``entry.id`` when it is an absolute IRI, else ``loc``.

    ``loc`` is the entry's URL as formatted by :meth:`FeedSpool.loc`.
    """
    if entry.id is not None and entry.id != entry.loc:
        if _IRI_SCHEME.match(entry.id):
            return spool.text(entry.id)
        losses.add("id (not an absolute IRI; the URL is used)")
    return loc


def _alternates(entry: Entry, loc: str, spool: FeedSpool, losses: Losses) -> str:
    seen: set[str] = set()
    parts = []
    for alt in entry.alternates:
        if alt.rel != "alternate":
            losses.add("alternates (rel other than alternate)")
            continue
        href = spool.url(alt.href, "alternate link")
        if href is None:
            continue
        if alt.hreflang is None:
            if href != loc:
                losses.add("alternates (without hreflang)")
            continue
        lang = language_tag(alt.hreflang)
        if lang is None:
            losses.add("alternates (malformed hreflang)")
            continue
        if lang.lower() in seen:
            losses.add("alternates (duplicate hreflang)")
            continue
        seen.add(lang.lower())
        if alt.media is not None:
            losses.add("alternates.media")
        parts.append(f'    <link rel="alternate" hreflang="{lang}" href="{href}"/>\n')
    return "".join(parts)


def _entry(entry: Entry, loc: str, spool: FeedSpool, losses: Losses, updated: When) -> str:
    losses.check_sitemap_fields(entry)
    title = spool.text(entry.title) if entry.title is not None else loc
    parts = [
        "  <entry>\n    <id>",
        entry_id(entry, loc, spool, losses),
        "</id>\n    <title>",
        title,
        "</title>\n    <updated>",
        format_rfc3339(updated),
        "</updated>\n",
    ]
    if entry.published is not None:
        parts += ["    <published>", format_rfc3339(entry.published), "</published>\n"]
    parts += ['    <link rel="alternate" href="', loc, '"/>\n']
    if entry.alternates:
        parts.append(_alternates(entry, loc, spool, losses))
    if entry.summary is not None:
        # The model's summary is HTML (Entry docstring): escaped HTML, RFC 4287 §3.1.1.2.
        parts += ['    <summary type="html">', spool.text(entry.summary), "</summary>\n"]
    parts.append(media_xml(entry, spool, losses, "    "))
    parts.append("  </entry>\n")
    return "".join(parts)


def _head(head: FeedHead, spool: FeedSpool, updated: When) -> str:
    lang = language_tag(head.language)
    parts = [
        XML_DECLARATION,
        f'<feed xmlns="{NAMESPACE}"',
        spool.declarations(NAMESPACES),
        f' xml:lang="{lang}"' if lang else "",
        ">\n  <id>",
        spool.text(head.id),
        "</id>\n  <title>",
        spool.text(head.title),
        "</title>\n",
    ]
    if head.given_description is not None:
        parts += ["  <subtitle>", spool.text(head.given_description), "</subtitle>\n"]
    parts += [
        "  <updated>",
        format_rfc3339(updated),
        "</updated>\n  <author>\n    <name>",
        spool.text(head.author),
        "</name>\n  </author>\n",
    ]
    self_link = spool.url(head.self_link, "self link") if head.self_link is not None else None
    if self_link is not None:
        parts += ['  <link rel="self" type="application/atom+xml" href="', self_link, '"/>\n']
    link = spool.url(head.link, "feed link") if head.link is not None else None
    if link is not None:
        parts += ['  <link rel="alternate" href="', link, '"/>\n']
    return "".join(parts)


class AtomWriter(FeedWriter):
    """Atom 1.0 (see the module docstring for the mapping and the date rules)."""

    name = "atom"
    aliases = ("atom10",)
    extensions = (".atom",)
    media_type = "application/atom+xml"

    closing = "</feed>\n"

    def item(self, entry: Entry, loc: str, spool: FeedSpool, losses: Losses, run: FeedRun) -> str:
        updated = entry.lastmod or entry.published or run.now
        run.newest.see(updated)
        return _entry(entry, loc, spool, losses, updated)

    def head_xml(self, spool: FeedSpool, run: FeedRun) -> str:
        return _head(run.head, spool, run.updated)
