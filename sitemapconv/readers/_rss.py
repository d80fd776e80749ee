"""RSS reader: RSS 2.0, 0.91 and 0.92 (``<rss>``), and RSS 0.90 / 1.0 (``<rdf:RDF>``).

Field mapping (sitemaps.org protocol, "Syndication feed"; RSS 2.0 specification):

- ``loc``: the item ``link``; else a ``guid`` that is a permalink (``isPermaLink`` is not
  ``"false"``) and an absolute http(s) URL; else (RSS 0.90/1.0) the item's ``rdf:about``.
  An item with none of these is skipped with a warning. Relative links are resolved against
  ``xml:base``, then the document URL or the feed's ``atom:link rel="self"``; a local file has
  no URL, so without those they stay as written, counted in one warning per document.
- ``lastmod``: ``pubDate`` (RFC 822, a W3C date accepted with a warning), else ``dc:date``,
  else ``dcterms:modified``, ``dcterms:issued``, ``dcterms:created``.
- ``title``, ``summary`` (``description``), ``id`` (``guid``, else ``rdf:about``);
  ``published`` stays None: RSS has one date per item and it is ``lastmod``.
- images and videos from Media RSS and enclosures (:mod:`sitemapconv.readers._mediarss`).
- ``ctx.meta``: channel ``title``, ``link``, ``description``, ``language`` (or
  ``dc:language``, or the root's ``xml:lang``), ``updated`` (``lastBuildDate``, else
  ``pubDate``, else ``dc:date``), ``self_link`` (``atom:link rel="self"``), ``author``
  (``managingEditor``, else ``dc:creator``, else ``itunes:author``), ``id`` (RSS 1.0
  channel ``rdf:about``).

RSS 1.0 items are siblings of the channel rather than its children; both layouts stream the
same way (:class:`~sitemapconv.readers._feedxml.ItemParser`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, ClassVar

from .._head import Head
from .._model import Entry, When
from .._urls import is_http
from .._xml import ATOM_NS, DC_NS, DCTERMS_NS, RDF_NS, RSS090_NS, RSS10_NS
from ..errors import FormatError
from . import ReadContext, Reader, not_format_message
from ._feedparser import with_rescue
from ._feedxml import (
    XML_LANG,
    Element,
    ItemParser,
    Notes,
    container_base,
    date_of,
    element_base,
    is_absolute,
    resolve,
    text_of,
)
from ._mediarss import MEDIA_PREFIX, read_media

#: Namespaces some RSS 2.0 feeds put their elements in, besides none at all.
_PREFIXES = (
    "",
    f"{{{RSS10_NS}}}",
    f"{{{RSS090_NS}}}",
    "{http://backend.userland.com/rss2}",
    "{http://blogs.law.harvard.edu/tech/rss}",
)
_RDF_ABOUT = f"{{{RDF_NS}}}about"
_ITUNES_AUTHOR = "{http://www.itunes.com/dtds/podcast-1.0.dtd}author"

_ITEM_TAGS = tuple(p + "item" for p in _PREFIXES)
_CHANNEL_TAGS = frozenset(p + "channel" for p in _PREFIXES)

(_LINK, _GUID, _PUBDATE, _DCDATE, _TITLE, _DESCRIPTION, _ENCLOSURE, _DCTERMS) = range(8)
_ITEM_KEYS: dict[str, int] = {
    p + local: key
    for p in _PREFIXES
    for local, key in (
        ("link", _LINK),
        ("guid", _GUID),
        ("pubDate", _PUBDATE),
        ("title", _TITLE),
        ("description", _DESCRIPTION),
        ("enclosure", _ENCLOSURE),
    )
}
_ITEM_KEYS[f"{{{DC_NS}}}date"] = _DCDATE
#: Dublin Core terms dates (https://www.dublincore.org/specifications/dublin-core/dcmi-terms/),
#: the last resort for an item's lastmod, in this order.
_DCTERMS_DATES = ("modified", "issued", "created")
_ITEM_KEYS.update({f"{{{DCTERMS_NS}}}{name}": _DCTERMS for name in _DCTERMS_DATES})

#: Channel element -> (FeedMeta field, rank); a lower rank replaces a higher one.
_META_FIELDS: dict[str, tuple[str, int]] = {
    p + local: value
    for p in _PREFIXES
    for local, value in (
        ("title", ("title", 0)),
        ("link", ("link", 0)),
        ("description", ("description", 0)),
        ("language", ("language", 0)),
        ("lastBuildDate", ("updated", 0)),
        ("pubDate", ("updated", 1)),
        ("managingEditor", ("author", 0)),
    )
}
_META_FIELDS.update(
    {
        f"{{{DC_NS}}}date": ("updated", 2),
        f"{{{DC_NS}}}language": ("language", 1),
        f"{{{DC_NS}}}creator": ("author", 1),
        _ITUNES_AUTHOR: ("author", 2),
    }
)
_ATOM_LINK = f"{{{ATOM_NS}}}link"


class _RssState:
    """Per-document state: the metadata being filled, the base URL, the warning tally."""

    def __init__(self, ctx: ReadContext) -> None:
        self.ctx = ctx
        self.meta = ctx.meta
        self.notes = Notes(ctx)
        self.base: str | None = ctx.url
        self.base_known = False
        self.ranks: dict[str, int] = {}
        self.sitemap = ctx.origin

    def learn_base(self, container: Element) -> None:
        """The xml:base in force in the items' parent, and the root's ``xml:lang``."""
        if self.base_known:
            return
        self.base_known = True
        self.base = container_base(container, self.ctx.url)
        if self.meta.language is None:
            lang = container.getroottree().getroot().get(XML_LANG)
            self.meta.language = lang.strip() if lang else None

    def on_meta(self, el: Element) -> None:
        if not self.base_known:
            parent = el.getparent()
            self.learn_base(parent if parent is not None else el)
        tag = el.tag
        if tag in _CHANNEL_TAGS:
            about = el.get(_RDF_ABOUT)
            if about and self.meta.id is None:
                self.meta.id = about.strip()
            for child in el:
                if child.tag not in _ITEM_TAGS:
                    self.on_meta(child)
            return
        if tag == _ATOM_LINK:
            if (el.get("rel") or "").strip() == "self" and el.get("href"):
                self.meta.self_link = self.meta.self_link or el.get("href", "").strip()
            return
        found = _META_FIELDS.get(tag) if isinstance(tag, str) else None
        if found is None:
            return
        name, rank = found
        if self.ranks.get(name, 99) <= rank:
            return
        text = text_of(el)
        if text is None:
            return
        value: str | When | None = text
        if name == "updated":
            value = date_of(self.notes, text, _local(tag), rfc822=rank < 2)
            if value is None:
                return
        elif name == "link":
            value = resolve(text, self.base)
        self.ranks[name] = rank
        setattr(self.meta, name, value)

    def entry(self, item: Element) -> Entry | None:
        if not self.base_known:
            parent = item.getparent()
            self.learn_base(parent if parent is not None else item)
        link = guid = pubdate = dcdate = title = summary = None
        permalink = True
        media: list[Element] | None = None
        enclosures: list[tuple[str, str | None]] | None = None
        dcterms: dict[str, str | None] | None = None
        for child in item:
            key = _ITEM_KEYS.get(child.tag)
            if key is None:
                tag = child.tag
                if isinstance(tag, str) and tag.startswith(MEDIA_PREFIX):
                    if media is None:
                        media = []
                    media.append(child)
            elif key == _LINK:
                link = link or text_of(child)
            elif key == _TITLE:
                title = title or text_of(child)
            elif key == _DESCRIPTION:
                summary = summary or text_of(child)
            elif key == _PUBDATE:
                if pubdate is None:
                    pubdate = text_of(child)
                    if pubdate is None:  # <pubDate></pubDate>: said like an empty <lastmod/>
                        self.notes.warn(
                            "empty <pubDate>",
                            f"an item (line {item.sourceline}) has an empty <pubDate>; "
                            "it is left undated",
                        )
            elif key == _GUID:
                if guid is None:
                    guid = text_of(child)
                    permalink = (child.get("isPermaLink") or "true").strip().lower() != "false"
            elif key == _DCDATE:
                dcdate = dcdate or text_of(child)
            elif key == _DCTERMS:
                if dcterms is None:
                    dcterms = {}
                dcterms.setdefault(_local(str(child.tag)), text_of(child))
            else:  # enclosure
                url = child.get("url")
                if url:
                    if enclosures is None:
                        enclosures = []
                    enclosures.append((url, child.get("type")))
        about = item.get(_RDF_ABOUT)
        base = element_base(item, self.base)
        if link:
            loc = resolve(link, base)
        elif guid and permalink and is_http(guid):
            loc = guid
        elif about:
            loc = resolve(about, base)
        else:
            why = (
                "its <guid> is not a permalink"
                if guid and not permalink
                else "its <guid> is not an absolute http(s) URL"
                if guid
                else "it has neither"
            )
            self.notes.warn(
                "items skipped for want of a URL",
                f"skipped an item (line {item.sourceline}) with no <link>: {why}",
            )
            return None
        if not is_absolute(loc):
            self.notes.relative_link(loc)
        lastmod = date_of(self.notes, pubdate, "pubDate", rfc822=True)
        if lastmod is None:
            lastmod = date_of(self.notes, dcdate, "dc:date", rfc822=False)
        if lastmod is None and dcterms is not None:
            for name in _DCTERMS_DATES:
                lastmod = date_of(self.notes, dcterms.get(name), f"dcterms:{name}", rfc822=False)
                if lastmod is not None:
                    break
        entry = Entry(
            loc=loc,
            lastmod=lastmod,
            title=title,
            summary=summary,
            id=guid or (about.strip() if about else None),
            sitemap=self.sitemap,
        )
        if media is not None or enclosures is not None:
            images, videos = read_media(media or (), enclosures or (), base)
            if images:
                entry.images = images
            if videos:
                entry.videos = videos
        return entry


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


class RssReader(Reader):
    """Streams the items of an RSS 0.9x, 1.0 or 2.0 feed; see the module docstring."""

    name = "rss"
    aliases: ClassVar[tuple[str, ...]] = ("rss2",)
    mimetypes: ClassVar[tuple[str, ...]] = ("application/rss+xml", "application/rdf+xml")

    @classmethod
    def sniff(cls, head: Head) -> float:
        root = head.root
        if root is None:
            return 0.0
        if root.local == "rss":
            return 1.0
        if root.local == "RDF" and root.namespace == RDF_NS:
            default = root.attributes.get("xmlns")
            return 1.0 if default in (RSS10_NS, RSS090_NS) else 0.6
        return 0.0

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        # A feed it reads nothing from goes to feedparser (sitemapconv.readers._feedparser).
        return with_rescue(self.read_streaming, stream, ctx, self.name)

    def read_streaming(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        state = _RssState(ctx)
        parser = ItemParser(stream, ctx, _ITEM_TAGS, state.on_meta)
        count = 0
        for item in parser:
            entry = state.entry(item)
            if entry is not None:
                count += 1
                yield entry
        root = parser.root
        assert root is not None
        if _local(str(root.tag)) not in ("rss", "RDF"):
            if count == 0:
                raise FormatError(
                    not_format_message(self.name, _local(str(root.tag))), source=ctx.source
                )
        else:
            state.learn_base(root)
            for child in root:
                if child.tag not in _ITEM_TAGS:
                    state.on_meta(child)
        state.notes.finish()
