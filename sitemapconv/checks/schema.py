"""XSD validation of ``<url>``/``<sitemap>`` elements in batches, in constant memory.

lxml validates whole trees only, so the streaming pass moves each finished entry (its
extension elements already stripped and checked by rules in code) into a small synthetic
``<urlset>``/``<sitemapindex>``, and validates that every :data:`BATCH` entries. Moved
elements keep their source line, and each error's path (``/*/*[i]/...``) says which entry
it is about, so errors point at the real file. libxml2's messages are turned into plain words.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

from lxml import etree

from ..problems import Collector

SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"
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
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False
    )
    data = files("sitemapconv.schemas").joinpath(_ROOTS[kind][1]).read_bytes()
    return etree.XMLSchema(etree.fromstring(data, parser))


class SchemaBatch:
    """Collects stripped entries and validates them against the XSD in batches."""

    def __init__(self, kind: str, out: Collector) -> None:
        self.kind = kind
        self.out = out
        self._root: etree._Element | None = None
        self._urls: list[str | None] = []
        #: (entry index, element name) already reported by a code check: no XSD repeat.
        self._flagged: set[tuple[int, str]] = set()

    def flag(self, local: str) -> None:
        """Mark ``local`` of the entry about to be added as already reported."""
        self._flagged.add((len(self._urls), local))

    def add(self, element: etree._Element, url: str | None) -> None:
        if self._root is None:
            tag = f"{{{SITEMAP_NS}}}{_ROOTS[self.kind][0]}"
            self._root = etree.Element(tag, nsmap={None: SITEMAP_NS})  # type: ignore[dict-item]
        self._root.append(element)  # moves it out of the parse tree
        self._urls.append(url)
        if len(self._urls) >= BATCH:
            self.flush()

    def flush(self) -> None:
        root, urls, flagged = self._root, self._urls, self._flagged
        self._root, self._urls, self._flagged = None, [], set()
        if root is None or not urls:
            return
        xsd = schema(self.kind)
        if xsd.validate(root):
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
