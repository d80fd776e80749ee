"""Syntax rules: encoding, BOM, well-formedness; and which format's rules apply.

The format comes from the one detection the readers use (:func:`kind_of`), so that the
validator and the converter never disagree on what a file is.
"""

from __future__ import annotations

import re

from lxml import etree

from .._detect import describe, detect
from .._head import BOM_UTF8, Head
from .._problems import Collector
from ..errors import FormatError

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


#: The formats the validator has rules for.
_VALIDATED = frozenset(("xml", "index", "rss", "atom", "atom03", "jsonfeed", "txt"))


def kind_of(head: Head) -> str | None:
    """The format to validate ``head`` as, or None when it is no sitemap or feed.

    The one format detection (:func:`sitemapconv._detect.detect`) decides, with two
    additions that give a broken file a report rather than a single "not a sitemap": a
    ``<feed>`` outside the Atom namespace (which only the feedparser rescue reader claims)
    is validated as Atom, so that the namespace is reported; and any other text that is not
    markup or JSON is validated as a text sitemap, line by line.
    """
    try:
        name: str | None = detect(head)
    except FormatError:
        name = None
    if name in _VALIDATED:
        return name
    root = head.root
    if root is not None:
        return "atom" if root.local == "feed" else None
    text = head.text.lstrip()
    if not text or text[0] in "<{[":
        return None
    return "txt"


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
