"""The two kinds of text in the model: plain text (titles) and HTML (summaries).

Feeds mark how a text is meant (Atom text constructs, RFC 4287 §3.1: ``type="text"``,
``"html"`` or ``"xhtml"``; RSS 2.0's ``description`` is entity-encoded HTML). The model keeps
one meaning per field so that every writer can state it again: ``Entry.title`` is plain text,
``Entry.summary`` is HTML. These functions convert between the two without a dependency.
"""

from __future__ import annotations

import html
import re

_SPACE = re.compile(r"\s+")
#: A start or end tag, or a comment without markup inside. Bounded character classes keep the
#: scan linear on hostile input (HTMLParser is quadratic on a long run of "<").
_MARKUP = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^<>]*>|<!--[^<>]*-->")
#: Elements whose content is not text a reader sees.
_HIDDEN = ("script", "style")
#: Elements that separate words when they break a line or start a block.
_BREAKS = frozenset(
    ("br", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "hr")
)


def _tag(match: re.Match[str]) -> str:
    name = match.group(2)
    return " " if name is not None and name.lower() in _BREAKS else ""


def _drop_hidden(markup: str) -> str:
    """Remove ``<script>`` and ``<style>`` elements with their content, in one linear pass."""
    lower = markup.lower()
    for name in _HIDDEN:
        if f"<{name}" not in lower:
            continue
        parts: list[str] = []
        pos = 0
        while (start := lower.find(f"<{name}", pos)) >= 0:
            parts.append(markup[pos:start])
            end = lower.find(f"</{name}", start)
            if end < 0:  # never closed: the rest is hidden
                pos = len(markup)
                break
            close = lower.find(">", end)
            pos = len(markup) if close < 0 else close + 1
            parts.append(" ")
        parts.append(markup[pos:])
        markup = "".join(parts)
        lower = markup.lower()
    return markup


def html_to_text(markup: str) -> str:
    """The text an HTML fragment shows: tags removed, entities decoded, spaces collapsed."""
    if "<" in markup:
        if "<s" in markup or "<S" in markup:
            markup = _drop_hidden(markup)
        markup = _MARKUP.sub(_tag, markup)
    if "&" in markup:
        markup = html.unescape(markup)
    return _SPACE.sub(" ", markup).strip()


def text_to_html(text: str) -> str:
    """Plain text as HTML that shows the same text (``&``, ``<`` and ``>`` escaped)."""
    return html.escape(text, quote=False)
