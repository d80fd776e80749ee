"""Reader for plain-text sitemaps: one absolute URL per line, UTF-8 (sitemaps.org protocol,
"Text file").

Lines are read one at a time (``\\n``, ``\\r\\n`` and ``\\r`` all end a line), so neither the
file nor a single line is ever held whole: a line longer than :data:`MAX_LINE` characters is
skipped in bounded pieces, with a warning. Undecodable bytes are replaced, a leading BOM is
dropped, surrounding whitespace is stripped and blank lines are skipped silently. A line that
is not an absolute http(s) URL (a comment, a relative path) is skipped with a warning giving
its line number.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import BinaryIO, ClassVar

from .._head import HEAD_SIZE, Head
from .._model import Entry
from . import ReadContext, Reader

#: Longest line read, in characters; a URL is at most 2,048 by the protocol.
MAX_LINE = 64 * 1024

#: An absolute http(s) URL with a host, at the start of a stripped line.
URL_RE = re.compile(r"https?://[^\s/?#]+", re.IGNORECASE)

#: How many non-blank lines of the head the sniffer looks at.
_SNIFF_LINES = 20


class TextReader(Reader):
    """``txt``: a plain list of URLs."""

    name = "txt"
    aliases: ClassVar[tuple[str, ...]] = ("text",)
    mimetypes: ClassVar[tuple[str, ...]] = ("text/plain",)

    @classmethod
    def sniff(cls, head: Head) -> float:
        """Claim the head only when its first non-blank lines are mostly URLs.

        Never claims markup or JSON (a first character ``<``, ``{`` or ``[``). The last line
        of a full head may be cut, so it is not judged.
        """
        text = head.text.lstrip()
        if not text or text[0] in "<{[":
            return 0.0
        lines = text.splitlines()
        if len(head.data) >= HEAD_SIZE and len(lines) > 1:
            lines.pop()
        sample = [s for s in (line.strip() for line in lines[: _SNIFF_LINES * 4]) if s]
        sample = sample[:_SNIFF_LINES]
        if not sample:
            return 0.0
        urls = sum(1 for line in sample if URL_RE.match(line))
        ratio = urls / len(sample)
        if ratio < 0.5 or (not URL_RE.match(sample[0]) and ratio < 0.8):
            return 0.0
        return 0.3 + 0.6 * ratio

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        text = io.TextIOWrapper(
            stream,
            encoding="utf-8-sig",
            errors="replace",
            newline=None,
        )
        sitemap = ctx.origin
        match = URL_RE.match
        number = 0
        try:
            while True:
                line = text.readline(MAX_LINE + 1)
                if not line:
                    break
                number += 1
                if len(line) > MAX_LINE and not line.endswith("\n"):
                    _skip_rest(text)
                    ctx.warn(f"line {number}: longer than {MAX_LINE:,} characters; skipped")
                    continue
                url = line.strip()
                if not url:
                    continue
                if match(url) is None:
                    shown = url if len(url) <= 80 else url[:77] + "..."
                    ctx.warn(f"line {number}: not an absolute http(s) URL, skipped: {shown!r}")
                    continue
                yield Entry(url, sitemap=sitemap)
        finally:
            text.detach()


def _skip_rest(text: io.TextIOWrapper) -> None:
    """Read and drop the rest of an overlong line, one bounded piece at a time."""
    while True:
        piece = text.readline(MAX_LINE)
        if not piece or piece.endswith("\n"):
            return
