"""Streaming machinery shared by the ``<urlset>`` and ``<sitemapindex>`` readers.

Both documents are one root holding many small items (``<url>`` or ``<sitemap>``), so both are
read the same way: a hardened lxml ``iterparse`` that reports only the items' end events, over
a byte stream that was cleaned first (leading BOM and whitespace dropped, because libxml2
rejects anything before ``<?xml``; bare ``&`` escaped, see :mod:`._repair`).

The parser runs in recover mode so that a damaged file still gives what it holds: a truncated
download yields every entry completed before the cut, a stray ``<`` or a second root element
costs what cannot be read and nothing more. Every recovered error becomes a warning. The loop
over items stays in each reader, where the per-item work is; this module provides the setup
(:class:`ItemStream`) and the end-of-document accounting.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn
from urllib.parse import urljoin

from lxml import etree

from .._head import HEAD_SIZE, Head, XmlRoot
from .._model import Entry, When
from .._urls import is_http
from .._xml import (
    GOOGLE_SITEMAP_084_NS,
    GOOGLE_SITEMAP_09_NS,
    SITEMAP_HTTPS_NS,
    SITEMAP_NS,
    iterparse,
)
from ..errors import FormatError, ParseError
from . import not_format_message
from ._encoding import Utf8Input
from ._repair import AmpersandFixingReader, clean_head

if TYPE_CHECKING:
    from . import ReadContext

#: Other namespaces real sitemaps carry, read as the sitemaps.org one with a warning.
VARIANT_NAMESPACES: dict[str, str] = {
    SITEMAP_HTTPS_NS: (
        "the https:// form of the sitemaps.org namespace (the protocol's is http://)"
    ),
    GOOGLE_SITEMAP_084_NS: "Google's obsolete sitemap 0.84 namespace",
    GOOGLE_SITEMAP_09_NS: "Google's obsolete sitemap 0.9 namespace",
}

KNOWN_NAMESPACES: tuple[str, ...] = (SITEMAP_NS, *VARIANT_NAMESPACES)


#: Errors listed one by one in warnings before they are only counted.
_MAX_LISTED_ERRORS = 5

#: A URI scheme (RFC 3986 §3.1) at the start of a loc: such a loc is not resolved.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")

#: Read items are freed in batches of this many (see :func:`free_before`).
FREE_EVERY = 256


def sniff_sitemap(head: Head, root_local: str) -> float:
    """Score a head for a sitemap document whose root is ``root_local``.

    The sitemaps.org namespace and its known variants win outright; no namespace scores a
    little lower, and a foreign namespace lower still (it is read, with a warning).
    """
    root = head.root
    if root is None or root.local != root_local:
        return 0.0
    if root.namespace in KNOWN_NAMESPACES:
        return 1.0
    if not root.namespace:
        return 0.8
    return 0.6


class ItemStream:
    """One sitemap document opened for reading its items.

    Iterate :attr:`events` for the items' ``end`` events. When :attr:`input` is
    ``drained``, ask :meth:`incomplete` about each item before using it, then call
    :meth:`finish` after the loop: it reports recovered errors and raises
    :class:`ParseError` when there was no XML at all.
    """

    def __init__(self, stream: BinaryIO, ctx: ReadContext, root_local: str, item: str) -> None:
        self.ctx = ctx
        self.root_local = root_local
        self.item = item
        stream = Utf8Input(stream, ctx)  # type: ignore[assignment]
        head, wide = clean_head(stream, HEAD_SIZE)
        self.input = AmpersandFixingReader(stream, head=head, enabled=not wide)
        self.namespaces = self._check_root(Head(head).root)
        tags: Iterable[str]
        if self.namespaces is None:
            tags = (f"{{*}}{item}",)
        else:
            tags = [f"{{{ns}}}{item}" if ns else item for ns in self.namespaces]
        # Hardened (sitemapconv._xml), tolerant, and with comments and processing
        # instructions dropped so that text around them merges again.
        self.events = iterparse(self.input, tag=tags, recover=True, strip=True)
        self.dropped = 0
        self._truncated: bool | None = None

    def _check_root(self, root: XmlRoot | None) -> tuple[str, ...] | None:
        """Warn about the root's namespace; return the namespaces items may use.

        None when the root cannot be seen in the head (a huge prolog): then items in any
        namespace are read.
        """
        if root is None:
            return None
        local, ns = root.local, root.namespace
        if local != self.root_local:
            name = "xml" if self.root_local == "urlset" else "index"
            raise FormatError(not_format_message(name, local), source=self.ctx.source)
        namespaces = (*KNOWN_NAMESPACES, "")
        if not ns:
            self.ctx.warn(f"<{local}> has no namespace; read as sitemaps.org {SITEMAP_NS}")
        elif ns in VARIANT_NAMESPACES:
            self.ctx.warn(f"<{local}> uses {VARIANT_NAMESPACES[ns]}: {ns}")
        elif ns != SITEMAP_NS:
            self.ctx.warn(f"<{local}> has an unknown namespace {ns!r}; read as a sitemap anyway")
            namespaces = (*namespaces, ns)
        return namespaces

    def tags(self, codes: dict[str, int]) -> dict[str, int]:
        """Map ``{namespace}local`` of every accepted namespace to the code of ``local``."""
        namespaces = self.namespaces if self.namespaces is not None else (*KNOWN_NAMESPACES, "")
        return {
            (f"{{{ns}}}{local}" if ns else local): code
            for ns in namespaces
            for local, code in codes.items()
        }

    def complete_items(self) -> Iterator[Any]:  # lxml elements (untyped, like iterparse)
        """The item elements, each once its end tag is parsed; then :meth:`finish`.

        An item that recovery closed at the end of a truncated input is dropped (see
        :meth:`incomplete`); the items read are freed every :data:`FREE_EVERY`, so memory
        stays flat; an error recovery cannot get past raises :class:`ParseError`.
        """
        source = self.input
        count = 0
        try:
            for _, el in self.events:
                if not (source.drained and self.incomplete(el)):
                    yield el
                count += 1
                if not count % FREE_EVERY:
                    free_before(el)
        except etree.XMLSyntaxError as exc:
            self.fail(exc)
        self.finish()

    def incomplete(self, element: etree._Element) -> bool:
        """After the input ran out: was this item closed by recovery, not by its end tag?

        libxml2 closes the elements still open at the end of a truncated document when the
        parser is closed, so an item reported then is incomplete exactly when the document
        was truncated. Such an item is dropped with a warning.
        """
        if self._truncated is None:
            self._truncated = any(_is_truncation(e) for e in self.events.error_log)
        if self._truncated:
            self.dropped += 1
            self.ctx.warn(
                f"line {element.sourceline}: the document ends inside this <{self.item}>; "
                "the incomplete entry is dropped"
            )
            return True
        return False

    def fail(self, exc: etree.XMLSyntaxError) -> NoReturn:
        """Raise the located :class:`ParseError` for an error recovery could not get past."""
        line, column = exc.position if exc.position != (0, 0) else (None, None)
        raise ParseError(
            f"not a readable XML document ({_first_error(self.events) or exc.msg})",
            source=self.ctx.source,
            line=line,
            column=column,
        ) from None

    def finish(self) -> None:
        """Report what recovery did; raise :class:`ParseError` if no element was found."""
        events = self.events
        log = events.error_log
        if events.root is None:
            first = log[0] if len(log) else None
            raise ParseError(
                f"not a readable XML document ({first.message if first else 'no element'})",
                source=self.ctx.source,
                line=first.line if first else None,
                column=first.column if first else None,
            )
        if self.input.fixed:
            self.ctx.warn(
                f"read {self.input.fixed} bare '&' as a literal '&' (XML requires '&amp;'; "
                "an '&' that starts no character or predefined entity reference is kept as text)"
            )
        others = []
        truncation_reported = self.dropped > 0
        for error in log:
            if _is_truncation(error):
                if not truncation_reported:
                    truncation_reported = True
                    self.ctx.warn(
                        f"the document is truncated (line {error.line}); "
                        "every entry completed before the cut was read"
                    )
            elif error.type_name == "ERR_DOCUMENT_END":
                self.ctx.warn(
                    f"content after the end of the root element ignored "
                    f"(line {error.line}, column {error.column})"
                )
            else:
                others.append(error)
        for error in others[:_MAX_LISTED_ERRORS]:
            self.ctx.warn(
                f"recovered from an XML error: {error.message.strip()} "
                f"(line {error.line}, column {error.column})"
            )
        if len(others) > _MAX_LISTED_ERRORS:
            self.ctx.warn(f"recovered from {len(others) - _MAX_LISTED_ERRORS} more XML errors")


#: Line numbers of non-absolute locs shown in the one warning before only the count goes on.
_SHOWN_LINES = 5


class RelativeLocs:
    """Counts the ``<loc>`` values that are not absolute http(s) URLs: ONE warning per document.

    sitemaps.org requires every ``<loc>`` to be a fully qualified URL; real files hold
    relative paths (``post-sitemap.xml``), protocol-relative URLs (``//localhost:1313/``) or
    a literal ``None`` (a generator with no site URL configured). They are kept as written
    (a writer that needs absolute URLs drops them) unless the document has a known http(s)
    location to resolve them against; either way the reader says so at the end, with the
    count and the first line numbers, instead of staying silent.
    """

    __slots__ = ("base", "count", "ctx", "lines", "quiet", "tag")

    def __init__(self, ctx: ReadContext, tag: str = "loc") -> None:
        self.ctx = ctx
        self.tag = tag
        url = ctx.url
        self.base = url if url is not None and is_http(url) else None
        self.count = 0
        self.lines: list[int] = []
        #: Count without warning (the caller resolves the locs itself).
        self.quiet = False

    def check(self, loc: str, line: int | None) -> str:
        """``loc`` (resolved when a base is known) after counting it when it is not absolute."""
        if is_http(loc):
            return loc
        self.count += 1
        lines = self.lines
        if len(lines) < _SHOWN_LINES and line is not None and (not lines or lines[-1] != line):
            lines.append(line)
        if self.base is not None and not _SCHEME.match(loc):
            return urljoin(self.base, loc)
        return loc

    def finish(self) -> None:
        if not self.count or self.quiet:
            return
        lines = ", ".join(str(n) for n in self.lines)
        more = "..." if len(self.lines) == _SHOWN_LINES and self.count > _SHOWN_LINES else ""
        where = f" (line{'s' if len(self.lines) > 1 else ''} {lines}{more})" if lines else ""
        n = self.count
        what = (
            f"{n} <{self.tag}> values are not absolute http(s) URLs"
            if n > 1
            else f"a <{self.tag}> value is not an absolute http(s) URL"
        )
        if self.base is not None:
            done = f"relative ones resolved against {self.base}"
        else:
            done = "kept as written (give a base URL to resolve relative ones)"
        self.ctx.warn(f"{what} as the protocol requires{where}; {done}")


def _is_truncation(error: etree._LogEntry) -> bool:
    return bool(
        error.type_name == "ERR_TAG_NOT_FINISHED"
        or error.message.startswith("Premature end of data")
    )


def _first_error(events: etree.iterparse) -> str | None:
    log = events.error_log
    return log[0].message.strip() if len(log) else None


def free_before(element: etree._Element) -> None:
    """Delete every sibling before ``element``: the items already read, and any stray nodes.

    Readers call this every :data:`FREE_EVERY` items, so memory stays flat whatever the number
    of URLs. Only *previous* siblings may go: lxml parses ahead of the events it reports, so
    later siblings (and the item being built) are still in use. One slice deletion of nodes
    that have no Python proxy is far cheaper than the usual per-item ``clear()`` plus
    ``getprevious()`` loop, which makes a proxy for every node it removes.
    """
    parent = element.getparent()
    if parent is not None:
        del parent[: parent.index(element)]


#: Builds an Entry from (loc, lastmod, changefreq, priority, sitemap).
EntryFactory = Callable[[str, "When | None", "str | None", "float | None", "str | None"], Entry]

_GIVEN = ("loc", "lastmod", "changefreq", "priority", "sitemap")


def _entry_factory() -> EntryFactory:
    """Generate a constructor for the plain sitemap Entry, every other field at its default.

    ``Entry(...)`` binds fourteen parameters on every call, a measurable share of the reading
    loop; this function assigns the slots directly instead. It is generated from the dataclass
    fields (as :mod:`dataclasses` generates ``__init__``), so a field added to
    :class:`~sitemapconv._model.Entry` later still gets its default. A test checks that both
    constructions give equal entries.
    """
    if hasattr(Entry, "__post_init__"):
        return lambda loc, lastmod, freq, prio, sitemap: Entry(
            loc, lastmod, freq, prio, sitemap=sitemap
        )
    namespace: dict[str, Any] = {"_new": object.__new__, "_Entry": Entry}
    lines = [f"def make({', '.join(_GIVEN)}):", "    entry = _new(_Entry)"]
    for f in dataclasses.fields(Entry):
        if f.name in _GIVEN:
            lines.append(f"    entry.{f.name} = {f.name}")
        elif f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            lines.append(f"    entry.{f.name} = _default_{f.name}")
        else:
            namespace[f"_factory_{f.name}"] = f.default_factory
            lines.append(f"    entry.{f.name} = _factory_{f.name}()")
    lines.append("    return entry")
    exec("\n".join(lines), namespace)
    return namespace["make"]  # type: ignore[no-any-return]


new_entry: EntryFactory = _entry_factory()
