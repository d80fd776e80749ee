"""The first bytes of a source, as every reader's sniffer sees them.

:class:`Head` is what :mod:`sitemapconv._detect` hands to each reader's
:meth:`~sitemapconv.readers.Reader.sniff`; it lives below both, so that readers need not
import the detection contest that imports them. For XML the root element is parsed once
here with a small tolerant scanner, so each XML reader only compares a namespace and a
local name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: How many bytes of a source are looked at for detection.
HEAD_SIZE = 64 * 1024

BOM_UTF8 = b"\xef\xbb\xbf"

#: An attribute name starts the text or follows whitespace: without that anchor, a long run of
#: name characters with no "=" (a hostile root tag) is retried from each of its positions, and
#: the scan of a 64 KiB head takes minutes instead of microseconds.
_ATTR_RE = re.compile(r"""(?<!\S)([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_TAG_RE = re.compile(r"<([A-Za-z_][\w.\-]*)(?::([A-Za-z_][\w.\-]*))?")


@dataclass(slots=True, frozen=True)
class XmlRoot:
    """The root element of an XML document, as far as the head shows it."""

    namespace: str | None
    local: str
    prefix: str | None
    attributes: dict[str, str]


class Head:
    """The first bytes of a source, with the derived views every sniffer needs."""

    __slots__ = ("_root", "_text", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._root: XmlRoot | bool | None = False
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The head decoded for sniffing: BOM dropped, undecodable bytes replaced."""
        if self._text is None:
            data = self.data
            if data.startswith((b"\xff\xfe", b"\xfe\xff")):
                self._text = data.decode("utf-16", errors="replace").lstrip("\ufeff")
            else:
                self._text = data.removeprefix(BOM_UTF8).decode("utf-8", errors="replace")
        return self._text

    @property
    def root(self) -> XmlRoot | None:
        """The XML root element, or None when the head does not start like XML."""
        if self._root is False:
            self._root = sniff_root(self.text)
        assert self._root is not True
        return self._root


def _skip_prolog(text: str) -> int | None:
    """Index of the root start tag, skipping whitespace, declarations, PIs, comments, DOCTYPE."""
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\r\n\ufeff\x00":
            i += 1
        if i >= n or text[i] != "<":
            return None
        if text.startswith("<?", i):
            j = text.find("?>", i)
            if j < 0:
                return None
            i = j + 2
        elif text.startswith("<!--", i):
            j = text.find("-->", i)
            if j < 0:
                return None
            i = j + 3
        elif text.startswith("<!", i):
            # DOCTYPE, possibly with an internal subset in brackets.
            depth, j = 0, i + 2
            while j < n:
                c = text[j]
                if c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                elif c == ">" and depth <= 0:
                    break
                j += 1
            if j >= n:
                return None
            i = j + 1
        else:
            return i
    return None


def sniff_root(text: str) -> XmlRoot | None:
    """Find the root element's name, namespace and attributes in the start of a document."""
    start = _skip_prolog(text)
    if start is None:
        return None
    m = _TAG_RE.match(text, start)
    if m is None:
        return None
    prefix, local = (m.group(1), m.group(2)) if m.group(2) else (None, m.group(1))
    end = text.find(">", m.end())
    raw = text[m.end() : end if end >= 0 else len(text)]
    # findall gives "" (not None) for the quote style not used: v1 or v2 is the value.
    attributes = {a: v1 or v2 for a, v1, v2 in _ATTR_RE.findall(raw)}
    namespace = attributes.get(f"xmlns:{prefix}" if prefix else "xmlns")
    return XmlRoot(namespace=namespace, local=local, prefix=prefix, attributes=attributes)
