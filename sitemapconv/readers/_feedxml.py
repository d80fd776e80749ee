"""What the RSS and Atom readers share: the streaming item loop, text, URLs, dates, warnings.

The loop (:class:`ItemParser`) runs lxml ``iterparse`` with ``events=("end",)`` and a tag
filter for the item/entry element only, so Python sees one event per item, not one per
element. Each item is read by iterating its children once, then cleared, and the earlier
items are deleted in batches: memory stays flat however long the feed is. Channel/feed
metadata are the earlier siblings of the first item; they are handed to the reader
(``on_meta``) before that item is yielded, and so are metadata met between items. Whatever
follows the last item is left in the tree for the reader to look at once parsing ends.

Parsing is hardened (no DTD, no network, no entity expansion, no huge trees) and tolerant:
``recover=True`` plus :mod:`sitemapconv.readers._repair` for bare ``&`` and junk before
the first tag. An item still open when the input ends is closed by libxml2 itself; it is
recognised (its end event comes after the input is exhausted), skipped and reported, so a
truncated feed yields exactly the items that were complete before the cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from typing import BinaryIO
from urllib.parse import urljoin

from lxml import etree

from .._dates import parse_feed_date
from .._model import When
from .._urls import is_http
from .._xml import XML_NS, iterparse
from ..errors import ParseError
from . import ReadContext
from ._encoding import Utf8Input
from ._repair import AmpersandFixingReader

XML_BASE = f"{{{XML_NS}}}base"
XML_LANG = f"{{{XML_NS}}}lang"

Element = etree._Element

#: Items read are freed in batches of this many (see ItemParser.__iter__).
FREE_EVERY = 256

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def text_of(el: Element) -> str | None:
    """An element's text, entities decoded, stripped; None when empty.

    Mixed content (an unescaped XHTML ``div``, markup inside an RSS description) is
    flattened to its text.
    """
    text = el.text
    if len(el):
        text = etree.tostring(el, method="text", encoding="unicode", with_tail=False)
    if text is None:
        return None
    text = text.strip()
    return text or None


def is_absolute(url: str) -> bool:
    return is_http(url) or _SCHEME.match(url) is not None


def resolve(href: str, base: str | None) -> str:
    """``href`` made absolute against ``base`` (xml:base or the document URL) when relative."""
    href = href.strip()
    if base is None or is_absolute(href):
        return href
    return urljoin(base, href)


def element_base(el: Element, parent_base: str | None) -> str | None:
    """The base URL in force inside ``el``: its ``xml:base`` resolved against the parent's."""
    own = el.get(XML_BASE)
    if own is None:
        return parent_base
    return resolve(own, parent_base)


def container_base(container: Element, url: str | None) -> str | None:
    """The base URL for the items of ``container`` (the channel, or the feed element).

    It is the ``xml:base`` chain from the root down to ``container`` over the document URL.
    When that URL is unknown or local (``file:``), the feed's own ``rel="self"`` link (an
    absolute http(s) URL among the container's children, or its channel's) stands in for it,
    since it says where the feed lives on the web.
    """
    if url is None or not is_http(url):
        url = _self_link(container) or url
    chain = [container, *container.iterancestors()]
    for el in reversed(chain):
        url = element_base(el, url)
    return url


def _self_link(container: Element, depth: int = 0) -> str | None:
    for child in container:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        local = tag.rpartition("}")[2]
        if local == "link" and (child.get("rel") or "").strip() == "self":
            href = (child.get("href") or "").strip()
            if is_http(href):
                return href
        elif local == "channel" and depth == 0:
            found = _self_link(child, 1)
            if found:
                return found
    return None


class Notes:
    """Warnings that could repeat once per item, reported once each plus a final count.

    A 50,000-item feed without ``updated`` must not print 50,000 lines: the first case of
    each kind is reported as it happens, the total at the end.
    """

    def __init__(self, ctx: ReadContext) -> None:
        self._ctx = ctx
        self._counts: dict[str, int] = {}
        self.relative = 0
        self.relative_first: str | None = None

    def relative_link(self, loc: str) -> None:
        """Count an entry link left relative: ONE warning at the end gives the count."""
        self.relative += 1
        if self.relative_first is None:
            self.relative_first = loc

    def warn(self, kind: str, message: str) -> None:
        count = self._counts.get(kind, 0) + 1
        self._counts[kind] = count
        if count == 1:
            self._ctx.warn(message)

    def finish(self) -> None:
        for kind, count in self._counts.items():
            if count > 1:
                self._ctx.warn(f"{kind}: {count} times in all")
        self._counts.clear()
        if self.relative:
            n = self.relative
            self._ctx.warn(
                f"link {self.relative_first!r} is relative and the document gives no "
                f"absolute base URL; kept as written ({n} such link{'s' if n > 1 else ''} "
                "in all; give a base URL to resolve them)"
            )
            self.relative = 0


def date_of(notes: Notes, text: str | None, name: str, *, rfc822: bool) -> When | None:
    """Parse a feed date; an invalid one is None with a warning, and reading goes on.

    ``rfc822`` says which form the element should hold (RSS ``pubDate``); the other form is
    accepted too, with a warning, since both occur in the wild.
    """
    if text is None:
        return None
    when, how = parse_feed_date(text, rfc822=rfc822)
    if how is None:
        notes.warn("invalid dates", f"invalid date {text!r} in <{name}>; left empty")
    elif how == "loose":
        notes.warn(
            "dates parsed loosely",
            f"<{name}> {text!r} is neither RFC 822 nor W3C; parsed loosely as {when}",
        )
    elif how == "other" and rfc822:
        notes.warn(
            f"non-RFC 822 <{name}>",
            f"<{name}> {text!r} is not an RFC 822 date; read as a W3C/ISO date",
        )
    return when


class ItemParser:
    """Streams the item (or entry) elements of a feed; see the module docstring.

    ``on_meta`` receives every non-item element that precedes an item (channel children,
    an RDF ``channel``...). After iteration, :attr:`root` is the document element with
    whatever followed the last item still attached.
    """

    def __init__(
        self,
        stream: BinaryIO,
        ctx: ReadContext,
        tags: Collection[str],
        on_meta: Callable[[Element], None],
    ) -> None:
        self._stream = stream
        self._ctx = ctx
        self._tags = frozenset(tags)
        self._locals = frozenset(t[3:] for t in tags if t.startswith("{*}"))
        self._on_meta = on_meta
        self.root: Element | None = None

    def is_item(self, el: Element) -> bool:
        tag = el.tag
        if tag in self._tags:
            return True
        return (
            bool(self._locals) and isinstance(tag, str) and tag.rpartition("}")[2] in self._locals
        )

    def __iter__(self) -> Iterator[Element]:
        ctx, tags, on_meta, is_item = self._ctx, self._tags, self._on_meta, self.is_item
        source = AmpersandFixingReader.open(Utf8Input(self._stream, ctx), html_entities=True)  # type: ignore[arg-type]
        events = iterparse(source, tag=tags, recover=True, strip=True)
        skipped_line: int | None = None
        # The item yielded last. Holding it keeps its proxy alive, so "the previous sibling
        # is the last item" is one identity test: then nothing new stands between the two,
        # and the items read are freed in batches (one slice deletion per FREE_EVERY items)
        # instead of one deletion, with a proxy for the node deleted, per item.
        last: Element | None = None
        count = 0
        try:
            for _, item in events:
                if source.drained:
                    # libxml2 closed this item itself at the end of input: it was cut off.
                    skipped_line = item.sourceline if skipped_line is None else skipped_line
                    item.clear()
                    continue
                previous = item.getprevious()
                if previous is not None and previous is not last:
                    # Metadata (or a stray element) before this item: hand it over, free it.
                    parent = item.getparent()
                    assert parent is not None  # it has a sibling
                    first = parent[0]
                    while first is not item:
                        if not is_item(first):
                            on_meta(first)
                        del parent[0]
                        first = parent[0]
                else:
                    count += 1
                    if not count % FREE_EVERY:
                        parent = item.getparent()
                        assert parent is not None
                        del parent[: parent.index(item)]
                yield item
                item.clear()
                last = item
        except etree.XMLSyntaxError as exc:
            if events.root is None:
                raise ParseError(_reason(exc.msg), source=ctx.source, line=exc.lineno) from None
            ctx.warn(f"stopped reading at line {exc.lineno}: {_reason(exc.msg)}")
        self.root = events.root
        if self.root is None:
            raise ParseError(
                "no XML element found (empty or comment-only document)", source=ctx.source
            )
        if skipped_line is not None:
            ctx.warn(
                f"document is truncated: the item starting at line {skipped_line} is "
                "incomplete and was skipped; every complete item before it was read"
            )
        self._report(events.error_log)

    def _report(self, log: etree._ListErrorLog) -> None:
        cut = [e for e in log if e.type_name == "ERR_TAG_NOT_FINISHED"]
        other = [e for e in log if e.type_name != "ERR_TAG_NOT_FINISHED"]
        if cut:
            self._ctx.warn(f"document ends before its elements are closed (line {cut[0].line})")
        if other:
            first = other[0]
            self._ctx.warn(
                f"recovered from {len(other)} XML error(s); the first at line {first.line}: "
                f"{_reason(first.message)}"
            )


def _reason(message: str | None) -> str:
    return (message or "malformed XML").strip().rstrip(".")
