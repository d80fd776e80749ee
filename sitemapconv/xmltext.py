"""Escaping text for XML output, shared by every XML writer.

Writers format strings directly (lxml's incremental writer is several times slower), so
correctness lives here: all five entities are escaped (PROTOCOL.md §2), and characters that
XML 1.0 forbids (C0 controls but TAB/LF/CR, lone surrogates, U+FFFE/U+FFFF) are removed,
since they cannot be escaped.
"""

from __future__ import annotations

import re

_FORBIDDEN_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"})


def has_forbidden(text: str) -> bool:
    """True when ``text`` holds characters XML 1.0 cannot carry."""
    return _FORBIDDEN_RE.search(text) is not None


def strip_forbidden(text: str) -> str:
    """Remove the characters XML 1.0 cannot carry."""
    return _FORBIDDEN_RE.sub("", text)


def escape(text: str) -> str:
    """Escape all five XML entities. Callers strip forbidden characters first when needed."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return text.translate(_ESCAPES)
    return text
