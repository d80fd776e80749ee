"""XSD validation of ``<url>``/``<sitemap>`` elements in batches, in constant memory.

lxml validates whole trees only, so the streaming pass serialises each finished entry (its
extension elements already stripped and checked by rules in code) and every :data:`BATCH`
entries validates a small synthetic ``<urlset>``/``<sitemapindex>`` built from them. Each
entry is padded onto its original line, and each error's path (``/*/*[i]/...``) says which
entry it is about, so errors point at the real file. libxml2's messages become plain words.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from lxml import etree

from .._problems import Collector
from .._xml import SITEMAP_NS, parser

BATCH = 1000

_ROOTS = {"xml": ("urlset", "sitemap.xsd"), "index": ("sitemapindex", "siteindex.xsd")}
_CHILDREN = {"xml": ("loc", "lastmod", "changefreq", "priority"), "index": ("loc", "lastmod")}
_ENTRY = {"xml": "url", "index": "sitemap"}
_MSG = re.compile(r"^Element '(?:\{[^}]*\})?([^']+)'(?:, attribute '([^']+)')?: (.*)$", re.S)
# The entry's position in the batch: the second path step, "/*/*[3]" or "/ns0:urlset/ns0:url"
# (libxml2 omits the index of an only child and picks its own prefixes).
_PATH_INDEX = re.compile(r"^/[^/]+/[^/\[]+(?:\[(\d+)\])?")


@cache
def schema(kind: str) -> etree.XMLSchema:
    """The shipped sitemaps.org schema for ``xml`` or ``index`` (parsed once)."""
    data = files("sitemapconv.schemas").joinpath(_ROOTS[kind][1]).read_bytes()
    return etree.XMLSchema(etree.fromstring(data, parser()))


class SchemaBatch:
    """Collects stripped entries and validates them against the XSD in batches."""

    def __init__(self, kind: str, out: Collector) -> None:
        self.kind = kind
        self.out = out
        self._parts: list[tuple[int, bytes]] = []
        self._urls: list[str | None] = []
        #: (entry index, element name) already reported by a code check: no XSD repeat.
        self._flagged: set[tuple[int, str]] = set()

    def flag(self, local: str) -> None:
        """Mark ``local`` of the entry about to be added as already reported."""
        self._flagged.add((len(self._urls), local))

    def add(self, element: etree._Element, url: str | None, line: int | None) -> None:
        # Serialised, not moved: moving nodes out of a live iterparse tree into another
        # document crashed libxml2 (segfault) on large inputs.
        self._parts.append((line or 0, etree.tostring(element)))
        self._urls.append(url)
        if len(self._urls) >= BATCH:
            self.flush()

    def _document(self) -> bytes:
        """The batch as one document whose entries sit on their original line numbers."""
        root = _ROOTS[self.kind][0]
        chunks = [f'<{root} xmlns="{SITEMAP_NS}">'.encode()]
        current = 1
        for line, data in self._parts:
            if line > current:
                chunks.append(b"\n" * (line - current))
                current = line
            chunks.append(data)
            current += data.count(b"\n")
        chunks.append(f"</{root}>".encode())
        return b"".join(chunks)

    def flush(self) -> None:
        if not self._parts:
            return
        data, urls, flagged = self._document(), self._urls, self._flagged
        self._parts, self._urls, self._flagged = [], [], set()
        xsd = schema(self.kind)
        if xsd.validate(etree.fromstring(data, parser())):
            return
        for entry in xsd.error_log:  # type: ignore[attr-defined]
            m = _PATH_INDEX.match(entry.path or "")
            index = int(m.group(1) or 1) - 1 if m else -1
            url = urls[index] if 0 <= index < len(urls) else None
            parsed = _MSG.match(entry.message)
            local = parsed.group(1) if parsed else ""
            structural = "not expected" in entry.message or "Missing child" in entry.message
            if (index, local) in flagged and not structural:
                continue
            message = self.plain(entry.message)
            if message is not None:
                self.out.error("schema", message, line=entry.line or None, url=url)

    def plain(self, message: str) -> str | None:
        """libxml2's schema message in plain words; None when a code check says it better."""
        m = _MSG.match(message)
        if m is None:
            return f"does not match the sitemap schema: {message}"
        local, attribute, rest = m.groups()
        order = ", ".join(_CHILDREN[self.kind])
        entry = _ENTRY[self.kind]
        if attribute:
            return f"<{local}> must not have the attribute '{attribute}'"
        if "This element is not expected" in rest:
            if re.search(r"Expected is \( (\{[^}]*\})?loc \)", rest):
                return (
                    f"<{entry}> must start with <loc>, found <{local}> first "
                    "(is the <loc> missing?)"
                )
            if local not in _CHILDREN[self.kind]:
                return (
                    f"<{local}> is not a sitemap element: inside <{entry}> the sitemap "
                    f"namespace allows only {order}; other data needs its own namespace"
                )
            return (
                f"<{local}> is out of place or repeated: inside <{entry}> the elements must "
                f"come in the order {order}, each at most once"
            )
        if "Missing child element" in rest:
            return f"<{local}> has no <loc>: every <{entry}> needs exactly one"
        if "Character content other than whitespace" in rest:
            return f"<{local}> contains stray text outside its child elements"
        if local == "loc":
            if "minLength" in rest:
                return "<loc> is too short to be a URL: sitemap.xsd needs at least 12 characters"
            if "maxLength" in rest:
                return None  # reported by the URL length rule
            return "<loc> is not a valid URI"
        if local in ("lastmod", "priority", "changefreq"):
            return None  # the value rules say what is wrong, in more detail
        return f"<{local}>: does not match the sitemap schema: {rest.strip()}"
