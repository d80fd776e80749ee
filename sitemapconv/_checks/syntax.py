"""Syntax rules: encoding, BOM, well-formedness; and telling the format from the root element.

The validator finds the format itself (from the root element in the head) so that it does
not depend on which readers are installed, and so that a file no reader would accept still
gets a report instead of a single error.
"""

from __future__ import annotations

import re

from lxml import etree

from .._detect import BOM_UTF8, Head, describe
from .._problems import Collector
from .._xml import ATOM03_NS, RDF_NS
from ..readers._jsonfeed import JsonFeedReader

_DECLARED = re.compile(r"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']""")
_UTF8_NAMES = {"utf-8", "utf8"}

# libxml2 messages -> what to do about them.
_HINTS = (
    ("xmlParseEntityRef: no name", "an unescaped '&': write it as &amp;"),
    ("EntityRef: expecting ';'", "an unescaped '&': write it as &amp;"),
    ("StartTag: invalid element name", "an unescaped '<': write it as &lt;"),
    ("Opening and ending tag mismatch", "tags are not closed in the order they were opened"),
    ("Premature end of data", "the file ends early (truncated?)"),
    ("EndTag: '</' not found", "the file ends early (truncated?)"),
    ("Extra content at the end of the document", "content after the root element ends"),
    ("Document is empty", "the file is empty"),
    ("not proper UTF-8", "the bytes are not valid UTF-8"),
    ("Invalid bytes in character encoding", "the bytes are not valid UTF-8"),
    ("Char 0x", "a character that XML does not allow"),
)


def kind_of(head: Head) -> str | None:
    """The format name from the root element (or text), or None when it is neither."""
    root = head.root
    if root is None:
        text = head.text.lstrip()
        if text.startswith("{") and JsonFeedReader.sniff(head) > 0:
            return "jsonfeed"
        if not text or text.startswith("<") or text[0] in "{[":
            return None
        return "txt"
    local, ns = root.local, root.namespace
    if local == "urlset":
        return "xml"
    if local == "sitemapindex":
        return "index"
    if local == "rss" or (local == "RDF" and ns == RDF_NS):
        return "rss"
    if local == "feed":
        return "atom03" if ns == ATOM03_NS or root.attributes.get("version") == "0.3" else "atom"
    return None


def not_a_sitemap(out: Collector, head: Head) -> None:
    out.error(
        "format",
        f"not a sitemap or feed ({describe(head)}): expected <urlset>, <sitemapindex>, "
        "<rss>, <feed>, a JSON Feed or one URL per line",
        line=1,
    )


def check_encoding(out: Collector, head: Head, kind: str) -> None:
    """UTF-8 without BOM for every sitemap; feeds may declare another encoding."""
    data = head.data
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        if kind in ("xml", "index", "txt"):
            out.error("encoding", "the file is UTF-16; a sitemap must be UTF-8", line=1)
        return
    if data.startswith(BOM_UTF8):
        out.warning(
            "bom",
            "the file starts with a byte order mark (BOM); a sitemap should be plain UTF-8 "
            "without one (some parsers reject it)",
            line=1,
        )
    m = _DECLARED.match(head.text)
    if m and m.group(1).strip().lower() not in _UTF8_NAMES and kind in ("xml", "index"):
        out.error(
            "encoding",
            f"the sitemap declares encoding '{m.group(1)}'; a sitemap must be UTF-8",
            line=1,
        )


def report_syntax_error(out: Collector, exc: etree.XMLSyntaxError) -> None:
    """One located error for the first place where the XML stops being well-formed."""
    msg = (exc.msg or str(exc)).strip()
    line, column = exc.position if exc.position else (exc.lineno, None)
    hint = next((h for key, h in _HINTS if key in msg), None)
    rule = "encoding" if hint and "UTF-8" in hint else "syntax"
    text = f"not well-formed XML: {hint} ({msg})" if hint else f"not well-formed XML: {msg}"
    out.error(rule, text + "; nothing after this point was checked", line=line, column=column)
