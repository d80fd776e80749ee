"""Atom reader: Atom 1.0 (RFC 4287); Atom 0.3 is the same code with another dialect (atom03).

Field mapping (sitemaps.org protocol, "Syndication feed"; RFC 4287):

- ``loc``: the entry's ``link`` with ``rel="alternate"`` or no ``rel``; among several, the
  first with ``type="text/html"`` (or ``application/xhtml+xml``), else the first. Never
  ``rel="self"``, ``"enclosure"``, ``"edit"``... ``href`` is resolved against ``xml:base``
  (inherited from the feed, the entry and the link itself) and then the document URL or the
  feed's ``rel="self"`` link; with none of those (a local file) a relative link stays as
  written, counted in one warning per document. An entry with no such link takes its ``id``
  when that is an absolute http(s) URL, or a path (``/...``) resolved against an http(s)
  base (as feedparser does); otherwise it is skipped with a warning.
- ``alternates``: the other alternate links that carry an ``hreflang``, as
  ``Alternate(href, hreflang)``.
- ``lastmod``: ``updated``; else ``published``, with a warning.
- ``published``, ``title``, ``summary``, ``id``: the elements of those names.
- images and videos from Media RSS (``media:group`` as YouTube publishes it) and
  ``link rel="enclosure"`` (:mod:`sitemapconv.readers._mediarss`).
- ``ctx.meta``: feed ``title``, ``subtitle`` (description), ``id``, ``updated``, the
  alternate ``link``, the ``rel="self"`` link, the first ``author/name``, and ``xml:lang``.

Text constructs (RFC 4287 §3.1) keep their meaning in the model's one form per field: the
entry and feed ``title`` (and the feed subtitle) become plain text (``type="html"``: tags
removed and entities decoded; ``type="xhtml"``: the text of the ``div``); the ``summary``
becomes HTML (``type="text"``: escaped; ``type="html"``: as decoded; ``type="xhtml"``: the
markup inside the ``div``). Atom 0.3's ``mode="escaped"``/``"xml"`` with an HTML ``type``
are read the same way.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, ClassVar

from lxml import etree

from .._head import Head
from .._htmltext import html_to_text, text_to_html
from .._model import Alternate, Entry, FeedMeta, When
from .._urls import is_http
from .._xml import ATOM_NS, XHTML_NS
from ..errors import FormatError
from . import ReadContext, Reader, not_format_message
from ._feedparser import with_rescue
from ._feedxml import (
    XML_BASE,
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

_HTML_TYPES = ("text/html", "application/xhtml+xml")
_XHTML_NS = f"{{{XHTML_NS}}}"
_TEXT, _HTML, _XHTML = range(3)


def construct_kind(el: Element) -> int:
    """How a text construct is meant: plain text, escaped HTML, or inline XHTML.

    Atom 1.0 says it with ``type`` (``text``, ``html``, ``xhtml``); Atom 0.3 with a MIME
    ``type`` and a ``mode`` (``escaped`` content is markup as text, ``xml`` is inline).
    """
    kind = el.get("type")
    mode = el.get("mode")
    if kind is None and mode is None:
        return _TEXT
    kind = (kind or "").strip().lower()
    if kind == "html":
        return _HTML
    if kind == "xhtml":
        return _XHTML
    if "html" in kind:  # Atom 0.3: text/html or application/xhtml+xml
        return _HTML if (mode or "xml").strip().lower() == "escaped" else _XHTML
    return _TEXT


def _markup(el: Element) -> str:
    """The XHTML inside a text construct (its ``div``), serialised without namespaces."""
    div = el
    children = [c for c in el if isinstance(c.tag, str)]
    if len(children) == 1 and str(children[0].tag).rpartition("}")[2] == "div":
        div = children[0]
    parts = [text_to_html(div.text or "")]
    for child in div:
        if not isinstance(child.tag, str):
            continue
        detached = copy.deepcopy(child)  # a copy carries no namespace of the feed around it
        for node in detached.iter():
            tag = node.tag
            if isinstance(tag, str) and tag.startswith(_XHTML_NS):
                node.tag = tag[len(_XHTML_NS) :]
        etree.cleanup_namespaces(detached)
        parts.append(etree.tostring(detached, encoding="unicode", with_tail=True))
    return "".join(parts).strip()


def plain_text(el: Element) -> str | None:
    """A text construct as plain text (what the model's titles hold)."""
    kind = construct_kind(el)
    text = text_of(el)
    if text is None or kind == _TEXT:
        return text
    if kind == _XHTML:  # the markup is XML, already flattened to its decoded text
        return " ".join(text.split()) or None
    return html_to_text(text) or None


def html_of(el: Element) -> str | None:
    """A text construct as HTML (what the model's summaries hold)."""
    kind = construct_kind(el)
    if kind == _XHTML and len(el):
        return _markup(el) or None
    text = text_of(el)
    if text is None or kind == _HTML:
        return text
    return text_to_html(text)


_ALTERNATE = ("alternate", "http://www.iana.org/assignments/relation/alternate")


@dataclass(frozen=True, slots=True)
class Dialect:
    """What differs between Atom versions: namespace and the names of the dates."""

    #: The namespace of the entries; None accepts any (Atom 0.3 feeds are found without one).
    namespace: str | None
    #: Entry dates to try for lastmod, in order; all but the first warn when used.
    lastmod: tuple[str, ...]
    published: str
    subtitle: str


ATOM10 = Dialect(ATOM_NS, ("updated", "published"), "published", "subtitle")

_LINK, _ID, _TITLE, _SUMMARY, _DATE = range(5)


class _AtomState:
    """Per-document state: metadata, bases, warning tally and the tag table per namespace."""

    def __init__(self, ctx: ReadContext, dialect: Dialect) -> None:
        self.ctx = ctx
        self.dialect = dialect
        self.meta: FeedMeta = ctx.meta
        self.notes = Notes(ctx)
        self.base: str | None = ctx.url
        self.base_known = False
        self.link_is_html = False
        self.prefix = ""  # the feed's namespace, as "{uri}"
        self.sitemap = ctx.origin
        self._tables: dict[str, dict[str, tuple[int, str]]] = {}

    def table(self, tag: str) -> dict[str, tuple[int, str]]:
        """Child tag -> (kind, local name), for the namespace of ``tag`` (an entry's tag)."""
        found = self._tables.get(tag)
        if found is None:
            prefix = tag[: tag.index("}") + 1] if tag.startswith("{") else ""
            d = self.dialect
            names = {"link": _LINK, "id": _ID, "title": _TITLE, "summary": _SUMMARY}
            names.update({n: _DATE for n in (*d.lastmod, d.published)})
            found = {prefix + n: (kind, n) for n, kind in names.items()}
            self._tables[tag] = found
        return found

    def learn_base(self, container: Element) -> None:
        """The xml:base in force in the feed element, and its ``xml:lang``."""
        if self.base_known:
            return
        self.base_known = True
        self.base = container_base(container, self.ctx.url)
        tag = str(container.tag)
        self.prefix = tag[: tag.index("}") + 1] if tag.startswith("{") else ""
        if self.meta.language is None:
            lang = container.get(XML_LANG)
            self.meta.language = lang.strip() if lang else None

    def on_meta(self, el: Element) -> None:
        if not self.base_known:
            parent = el.getparent()
            self.learn_base(parent if parent is not None else el)
        tag = el.tag
        if not isinstance(tag, str) or not tag.startswith(self.prefix):
            return
        local = tag[len(self.prefix) :]
        if local.startswith("{"):  # a foreign element in a feed without a namespace
            return
        meta = self.meta
        if local == "link":
            href = el.get("href")
            if not href:
                return
            rel = (el.get("rel") or "alternate").strip()
            href = resolve(href, element_base(el, self.base))
            if rel == "self":
                meta.self_link = meta.self_link or href
            elif rel in _ALTERNATE:
                html = (el.get("type") or "").strip().lower() in _HTML_TYPES
                if meta.link is None or (html and not self.link_is_html):
                    meta.link, self.link_is_html = href, html
        elif local == "author":
            if meta.author is None:
                for child in el:
                    if child.tag == self.prefix + "name":
                        meta.author = text_of(child)
                        break
        elif local in ("title", self.dialect.subtitle):
            name = "description" if local == self.dialect.subtitle else local
            if getattr(meta, name) is None:
                setattr(meta, name, plain_text(el))
        elif local == "id":
            if meta.id is None:
                meta.id = text_of(el)
        elif local == self.dialect.lastmod[0] and meta.updated is None:
            meta.updated = date_of(self.notes, text_of(el), local, rfc822=False)

    def entry(self, item: Element) -> Entry | None:
        if not self.base_known:
            parent = item.getparent()
            self.learn_base(parent if parent is not None else item)
        table = self.table(item.tag)
        links: list[Element] = []
        media: list[Element] | None = None
        ident = title = summary = None
        dates: dict[str, str | None] = {}
        for child in item:
            found = table.get(child.tag)
            if found is None:
                tag = child.tag
                if isinstance(tag, str) and tag.startswith(MEDIA_PREFIX):
                    if media is None:
                        media = []
                    media.append(child)
                continue
            kind, local = found
            if kind == _LINK:
                links.append(child)
            elif kind == _DATE:
                if local not in dates:
                    dates[local] = text_of(child)
            elif kind == _ID:
                ident = ident or text_of(child)
            elif kind == _TITLE:
                title = title or plain_text(child)
            else:
                summary = summary or html_of(child)
        base = element_base(item, self.base)
        loc, alternates, enclosures = self._links(links, base)
        if loc is None and ident:
            # RFC 4287 §4.2.6: an id is an absolute IRI, often the page itself. A path id
            # ("/2024/post", invalid Atom but found) names a page of the feed's own site.
            if is_http(ident):
                loc = ident
            elif ident[:1] == "/" and ident[:2] != "//" and base and is_http(base):
                loc = resolve(ident, base)
        if loc is None:
            self.notes.warn(
                "entries skipped for want of a URL",
                f"skipped an entry (line {item.sourceline}) with no alternate <link>",
            )
            return None
        if not is_absolute(loc):
            self.notes.relative_link(loc)
        lastmod, lastmod_text = self._lastmod(dates)
        published_text = dates.get(self.dialect.published)
        if lastmod is not None and published_text == lastmod_text:
            published: When | None = lastmod  # the same text parses the same (Atom 0.3 often)
        else:
            published = date_of(self.notes, published_text, self.dialect.published, rfc822=False)
        entry = Entry(
            loc=loc,
            lastmod=lastmod,
            title=title,
            summary=summary,
            id=ident,
            published=published,
            sitemap=self.sitemap,
        )
        if alternates:
            entry.alternates = alternates
        if media is not None or enclosures:
            images, videos = read_media(media or (), enclosures, base)
            if images:
                entry.images = images
            if videos:
                entry.videos = videos
        return entry

    def _lastmod(self, dates: dict[str, str | None]) -> tuple[When | None, str | None]:
        """The entry's lastmod and the text it was parsed from."""
        order = self.dialect.lastmod
        for i, name in enumerate(order):
            text = dates.get(name)
            if text is None:
                continue
            when = date_of(self.notes, text, name, rfc822=False)
            if when is not None:
                if i:
                    first = order[0]
                    if first not in dates:
                        why = f"has no <{first}>"
                    elif dates[first] is None:
                        why = f"has an empty <{first}>"
                    else:
                        why = f"has an invalid <{first}>"
                    self.notes.warn(
                        f"entries dated by <{name}>",
                        f"an entry {why}; its <{name}> is used as lastmod",
                    )
                return when, text
        return None, None

    def _links(
        self, links: list[Element], base: str | None
    ) -> tuple[str | None, list[Alternate], list[tuple[str, str | None]]]:
        """The chosen loc, the hreflang alternates, and the enclosures, from an entry's links."""
        if len(links) == 1:  # the common case, kept cheap
            link = links[0]
            href = link.get("href")
            rel = link.get("rel")
            if href and (rel is None or rel == "alternate") and link.get(XML_BASE) is None:
                return resolve(href, base), [], []
        alternates: list[tuple[str, str | None, bool]] = []
        enclosures: list[tuple[str, str | None]] = []
        for link in links:
            href = link.get("href")
            if not href:
                continue
            rel = (link.get("rel") or "alternate").strip()
            if rel in _ALTERNATE:
                mime = (link.get("type") or "").strip().lower()
                lbase = base if link.get(XML_BASE) is None else element_base(link, base)
                lang = link.get("hreflang")
                alternates.append(
                    (resolve(href, lbase), lang.strip() if lang else None, mime in _HTML_TYPES)
                )
            elif rel == "enclosure":
                enclosures.append((resolve(href, base), link.get("type")))
        if not alternates:
            return None, [], enclosures
        chosen = next((a for a in alternates if a[2]), alternates[0])
        others = [
            Alternate(href=a[0], hreflang=a[1]) for a in alternates if a is not chosen and a[1]
        ]
        return chosen[0], others, enclosures


class AtomReader(Reader):
    """Streams the entries of an Atom 1.0 feed; see the module docstring."""

    name = "atom"
    aliases: ClassVar[tuple[str, ...]] = ("atom10",)
    mimetypes: ClassVar[tuple[str, ...]] = ("application/atom+xml",)
    dialect: ClassVar[Dialect] = ATOM10

    @classmethod
    def sniff(cls, head: Head) -> float:
        root = head.root
        if root is not None and root.local == "feed" and root.namespace == ATOM_NS:
            return 1.0
        return 0.0

    def entry_tags(self) -> tuple[str, ...]:
        ns = self.dialect.namespace
        return (f"{{{ns}}}entry",) if ns else ("{*}entry",)

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        # A feed it reads nothing from goes to feedparser (sitemapconv.readers._feedparser).
        return with_rescue(self.read_streaming, stream, ctx, self.name)

    def read_streaming(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        state = _AtomState(ctx, self.dialect)
        parser = ItemParser(stream, ctx, self.entry_tags(), state.on_meta)
        count = 0
        for item in parser:
            entry = state.entry(item)
            if entry is not None:
                count += 1
                yield entry
        root = parser.root
        assert root is not None
        local = str(root.tag).rpartition("}")[2]
        if local != "feed":
            if count == 0:
                raise FormatError(not_format_message(self.name, local), source=ctx.source)
        else:
            state.learn_base(root)
            for child in root:
                if not parser.is_item(child):
                    state.on_meta(child)
        state.notes.finish()
