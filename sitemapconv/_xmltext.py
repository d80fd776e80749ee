"""Escaping text for XML output, shared by every XML writer.

Writers format strings directly (lxml's incremental writer is several times slower), so
correctness lives here: all five entities are escaped (sitemaps.org protocol, "Entity
escaping"), and characters that XML 1.0 forbids (C0 controls but TAB/LF/CR, lone surrogates,
U+FFFE/U+FFFF) are removed, since they cannot be escaped.
"""

from __future__ import annotations

import re

_FORBIDDEN_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def has_forbidden(text: str) -> bool:
    """True when ``text`` holds characters XML 1.0 cannot carry.

    Every forbidden character is non-printable (C0 controls, surrogates, noncharacters), so
    the common printable string is cleared by one fast ``str.isprintable`` scan.
    """
    if text.isprintable():
        return False
    return _FORBIDDEN_RE.search(text) is not None


def strip_forbidden(text: str) -> str:
    """Remove the characters XML 1.0 cannot carry."""
    if text.isprintable():
        return text
    return _FORBIDDEN_RE.sub("", text)


def escape(text: str) -> str:
    """Escape all five XML entities (and CR, which parsers would otherwise normalise away).

    Callers strip forbidden characters first when needed.

    Chained ``str.replace`` guarded by ``in`` tests: several times faster than
    ``str.translate`` with a mapping, which matters on the writers' hot path.
    """
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "'" in text:
        text = text.replace("'", "&apos;")
    if "\r" in text:  # a literal CR would be turned into LF by every XML parser
        text = text.replace("\r", "&#13;")
    return text
