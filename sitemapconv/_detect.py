"""Format detection from content, never from the file name.

The first bytes of a source (after gzip is undone) become a :class:`Head`. Every reader
scores it (:meth:`Reader.sniff`) and the highest score wins, as in Pygments'
``guess_lexer``; a new format brings its own sniffing and nothing here changes.
The head itself (:class:`~sitemapconv._head.Head`) lives in :mod:`sitemapconv._head`, below
the readers, so that the readers never import the contest that imports them.
"""

from __future__ import annotations

from ._head import Head
from ._registry import reader_classes
from .errors import FormatError


def detect(head: Head | bytes, *, source: str = "<input>") -> str:
    """Return the name of the format whose reader scores the head highest.

    Raises :class:`FormatError` ("not a sitemap or feed") when no reader claims it.
    """
    if isinstance(head, bytes):
        head = Head(head)
    best, best_score = None, 0.0
    for name, cls in reader_classes():
        try:
            score = cls.sniff(head)
        except Exception:  # a plugin's sniffer must not break detection
            score = 0.0
        if score > best_score:
            best, best_score = name, score
    if best is None:
        raise FormatError(f"not a sitemap or feed ({describe(head)})", source=source)
    return best


def describe(head: Head) -> str:
    """A few words on what a rejected input looks like, for the error message."""
    text = head.text.strip()
    if not text:
        return "empty input"
    root = head.root
    if root is not None:
        if root.local.lower() == "html":
            return "an HTML page"
        return f"XML with root element <{root.local}>"
    if _looks_like_json(text):
        return "looks like JSON"
    if text[:15].lower().startswith(("<!doctype html", "<html")):
        return "an HTML page"
    return "unrecognised content"


def _looks_like_json(text: str) -> bool:
    """A JSON object or array start: ``{`` then a key or ``}``, ``[`` then a JSON value.

    A TOML or INI file (``[build-system]``, ``[section]``) also starts with ``[``; it is not
    called JSON.
    """
    rest = text[1:].lstrip()
    if text[0] == "{":
        return rest[:1] in ('"', "}")
    if text[0] == "[":
        return (
            rest[:1] in ('"', "{", "[", "]", "-")
            or rest[:1].isdigit()
            or (rest.startswith(("true", "false", "null")))
        )
    return False
