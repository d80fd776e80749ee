"""The two kinds of text in the model: plain text (titles) and HTML (summaries).

Feeds mark how a text is meant (Atom text constructs, RFC 4287 §3.1: ``type="text"``,
``"html"`` or ``"xhtml"``; RSS 2.0's ``description`` is entity-encoded HTML). The model keeps
one meaning per field so that every writer can state it again: ``Entry.title`` is plain text,
``Entry.summary`` is HTML. These functions convert between the two without a dependency.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

_SPACE = re.compile(r"\s+")
#: Elements whose content is not text a reader sees.
_HIDDEN = frozenset(("script", "style", "template"))
#: Elements that separate words when they break a line or start a block.
_BREAKS = frozenset(
    ("br", "p", "div", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "hr")
)


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(markup: str) -> str:
    """The text an HTML fragment shows: tags removed, entities decoded, spaces collapsed."""
    if "<" not in markup and "&" not in markup:
        return _SPACE.sub(" ", markup).strip()
    collector = _TextCollector()
    collector.feed(markup)
    collector.close()
    return _SPACE.sub(" ", "".join(collector.parts)).strip()


def text_to_html(text: str) -> str:
    """Plain text as HTML that shows the same text (``&``, ``<`` and ``>`` escaped)."""
    return html.escape(text, quote=False)
