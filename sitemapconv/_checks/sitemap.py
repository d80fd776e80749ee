"""The streaming pass over an XML sitemap (``<urlset>``) or sitemap index (``<sitemapindex>``).

Each ``<url>``/``<sitemap>`` is checked as soon as its end tag is parsed: URL and value rules
in code, extension elements by :mod:`.extensions`, then the element (stripped of extensions)
moves into an XSD batch (:mod:`.schema`) and leaves the parse tree. Memory stays flat
however long the file is.
"""

from __future__ import annotations

from lxml import etree

from .._xml import (
    GOOGLE_SITEMAP_084_NS,
    GOOGLE_SITEMAP_09_NS,
    SITEMAP_HTTPS_NS,
    SITEMAP_NS,
    XSI_NS,
)
from . import Counted, Pass, iterparse, line_of, root_of
from .extensions import KNOWN, ExtensionChecks
from .schema import SchemaBatch
from .urls import check_url
from .values import check_changefreq, check_lastmod, check_priority

_ENTRY = {"xml": "url", "index": "sitemap"}
_ROOT = {"xml": "urlset", "index": "sitemapindex"}
_WHAT = {"xml": "URLs", "index": "sitemaps"}
_ORDER = {"xml": ("loc", "lastmod", "changefreq", "priority"), "index": ("loc", "lastmod")}
_BAD_NS = {
    "": "declares no namespace",
    SITEMAP_HTTPS_NS: "uses https:// in the namespace",
    GOOGLE_SITEMAP_084_NS: "uses Google's obsolete 0.84 namespace",
    GOOGLE_SITEMAP_09_NS: "uses a Google namespace",
}


def split_tag(tag: str) -> tuple[str, str]:
    if tag[:1] == "{":
        ns, _, local = tag[1:].partition("}")
        return ns, local
    return "", tag


class SitemapPass:
    """Validates one urlset or index file; see the module docstring."""

    def __init__(self, kind: str, state: Pass) -> None:
        self.kind = kind
        self.p = state
        self.out = state.out
        self.schema = SchemaBatch(kind, state.out)
        self.ext = ExtensionChecks(state.out)
        self.core = SITEMAP_NS
        self._core_tags: dict[str, str] = {}

    def run(self, stream: Counted) -> None:
        root: etree._Element | None = None
        entry_tag = ""
        for _, el in iterparse(stream):
            if root is None:
                if el.getparent() is None and not isinstance(el.tag, str):
                    continue  # a comment before the root element
                root = root_of(el)
                self.core = self._check_root(root)
                self._core_tags = {
                    (f"{{{self.core}}}{n}" if self.core else n): n
                    for n in ("loc", "lastmod", "changefreq", "priority")
                }
                entry_tag = (
                    f"{{{self.core}}}{_ENTRY[self.kind]}" if self.core else _ENTRY[self.kind]
                )
            # No break at the root's end: the parse must run to its end, to find content
            # after the root, and because an abandoned iterparse crashed libxml2 at exit.
            if el is root or el.getparent() is not root:
                continue
            tag = el.tag
            if tag == entry_tag:
                self._entry(el)
            elif isinstance(tag, str):
                self._root_child(el, tag)
            root.remove(el)
        self.schema.flush()
        if root is not None and self.p.count == 0:
            self.out.warning(
                "empty",
                f"the {_ROOT[self.kind]} lists no {_WHAT[self.kind]} (sitemap.xsd requires at "
                "least one)",
                line=line_of(root),
            )

    def _check_root(self, root: etree._Element) -> str:
        ns, local = split_tag(str(root.tag))
        if ns != SITEMAP_NS:
            why = _BAD_NS.get(ns, f"uses the namespace {ns}")
            self.out.error(
                "namespace",
                f'<{local}> {why}: it must be xmlns="{SITEMAP_NS}"',
                line=line_of(root),
            )
        return ns

    def _root_child(self, el: etree._Element, tag: str) -> None:
        ns, local = split_tag(tag)
        if ns == self.core:
            self.out.error(
                "schema",
                f"<{local}> is not allowed directly inside <{_ROOT[self.kind]}>: only "
                f"<{_ENTRY[self.kind]}> elements (and extensions) are",
                line=line_of(el),
            )
        elif ns not in KNOWN:
            self.ext.unknown(ns, el)

    def _entry(self, el: etree._Element) -> None:
        p, out, kind = self.p, self.out, self.kind
        p.counted(line_of(el))
        core: dict[str, etree._Element] = {}
        foreign: list[etree._Element] = []
        order: list[str] = []
        # Regular = what the XSD would accept structurally: no attributes, no stray text
        # (before the first child; text between children goes to the XSD only when the
        # entry is irregular otherwise), core children in schema order, each once,
        # extensions after them.
        regular = not el.attrib and not (el.text or "").strip()
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):
                continue
            local = self._core_tags.get(tag)
            ns = self.core if local is not None else ""
            if local is None:
                ns, local = split_tag(tag)
            if ns == self.core:
                core.setdefault(local, child)
                if foreign:
                    regular = False
                order.append(local)
            elif ns != XSI_NS:
                foreign.append(child)
        url: str | None = None
        loc = core.get("loc")
        if loc is not None:
            before = out.report.errors
            url = check_url(
                out,
                loc.text or "",
                line=line_of(loc),
                what="sitemap URL" if kind == "index" else "URL",
                scope=p.scope,
            )
            if out.report.errors != before:
                self.schema.flag("loc")
            if url:
                p.duplicates.add(url, line_of(loc))
                if kind == "index":
                    p.children.append((url, line_of(loc)))
        for local, check in (
            ("lastmod", None),
            ("changefreq", check_changefreq),
            ("priority", check_priority),
        ):
            value = core.get(local)
            if value is None or (kind == "index" and local != "lastmod"):
                continue
            if check is None:
                check_lastmod(out, value.text, line=line_of(value), url=url, now=p.now)
            else:
                check(out, value.text, line=line_of(value), url=url)
        if foreign:
            self.ext.check(foreign, url)
            for ext in foreign:
                el.remove(ext)
        if self.core != SITEMAP_NS:
            for node in el.iter():
                ns, local = split_tag(str(node.tag))
                node.tag = f"{{{SITEMAP_NS}}}{local}"
        if not (regular and _in_schema_order(order, _ORDER[kind])):
            # Only irregular entries need the XSD: for the rest it could only repeat what
            # the value rules above already said (the loc length rule included).
            el.tail = None
            self.schema.add(el, url, line_of(el))


def _in_schema_order(order: list[str], allowed: tuple[str, ...]) -> bool:
    if not order or order[0] != "loc":
        return False
    position = 0
    for local in order:
        try:
            index = allowed.index(local, position)
        except ValueError:
            return False
        position = index + 1
    return True
