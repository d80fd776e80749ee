"""Escaping bare ampersands in an XML byte stream before the parser sees it.

Sitemaps and feeds in the wild often carry raw query strings: ``<loc>/?a=1&b=2</loc>``. A strict
XML parser stops there, and libxml2's recover mode silently *drops* the bad reference and turns
the URL into ``/?a=1=2``. Both lose data, so readers rewrite every ``&`` that does not start a
predefined entity (``amp lt gt quot apos``) or a character reference into ``&amp;``. Any other
named reference (``&nbsp;``, or a DOCTYPE entity) is also escaped: sitemapconv never expands
entities, so the reference is kept as literal text instead of vanishing.

CDATA sections and comments are copied untouched (an ``&`` there is literal already). The
rewriting works on bytes, so it suits UTF-8 and every ASCII-compatible encoding (ISO-8859-1,
Windows-1252...); callers skip it for UTF-16. It is exact across chunk boundaries: a chunk that
ends in the middle of a reference or of a ``<![CDATA[`` opener holds those few bytes back until
the next chunk decides them. The common path (no ``&``, no CDATA, no comment) costs a couple of
C-level scans per chunk.
"""

from __future__ import annotations

import re
from typing import BinaryIO

#: Longest reference we accept as valid, ``&`` and ``;`` included. A chunk tail shorter than
#: this that starts with ``&`` and has no ``;`` yet is held back until more bytes arrive.
MAX_REFERENCE = 32

#: A reference that stays as it is: a predefined entity or a character reference.
_VALID_REFERENCE = re.compile(rb"&(?:amp|lt|gt|quot|apos|#[0-9]{1,20}|#[xX][0-9a-fA-F]{1,20});")
_CLOSERS = {b"<![CDATA[": b"]]>", b"<!--": b"-->"}
_OPENERS = (b"<![CDATA[", b"<!--")


def _find_special(data: bytes, start: int) -> tuple[int, bytes | None]:
    """The first CDATA or comment opener at or after ``start``: (index, opener).

    Searches for ``!`` with a single-byte find (memchr speed; a multi-byte or regex search
    costs about ten times more per byte, and ``<`` is everywhere in XML), then checks the
    bytes around it. Returns ``(len(data), None)`` when there is none.
    """
    i = data.find(b"!", start + 1)
    while i >= 0:
        if data[i - 1] == 0x3C:  # "<"
            if data.startswith(b"[CDATA[", i + 1):
                return i - 1, b"<![CDATA["
            if data.startswith(b"--", i + 1):
                return i - 1, b"<!--"
        i = data.find(b"!", i + 1)
    return len(data), None


def _held_tail(data: bytes) -> int:
    """Where the undecidable tail of ``data`` starts (``len(data)`` when there is none).

    Undecidable: a partial ``<![CDATA[`` / ``<!--`` opener, or an ``&`` with no ``;`` yet that
    may still become a valid reference.
    """
    n = len(data)
    cut = n
    lt = data.rfind(b"<", max(0, n - 8))
    if lt >= 0 and any(o.startswith(data[lt:]) for o in _OPENERS):
        cut = lt
    amp = data.rfind(b"&", max(0, n - MAX_REFERENCE + 1))
    if amp >= 0 and b";" not in data[amp:] and amp < cut:
        cut = amp
    return cut


class AmpersandFixer:
    """Incremental rewriter: feed it chunks, then call :meth:`flush` at the end.

    ``feed`` returns the bytes that are final so far; concatenating every ``feed`` result and
    the ``flush`` result gives the same bytes as :func:`fix_ampersands` on the whole input.
    """

    __slots__ = ("_closer", "_pending", "fixed")

    def __init__(self) -> None:
        self._pending = b""
        #: In a CDATA section or comment: the bytes that end it; else None.
        self._closer: bytes | None = None
        #: How many ampersands were escaped so far (for a warning).
        self.fixed = 0

    def feed(self, chunk: bytes) -> bytes:
        data = self._pending + chunk if self._pending else chunk
        self._pending = b""
        return self._process(data, final=False)

    def flush(self) -> bytes:
        data, self._pending = self._pending, b""
        return self._process(data, final=True)

    def _process(self, data: bytes, *, final: bool) -> bytes:
        out: list[bytes] = []
        pos = 0
        n = len(data)
        while pos < n:
            closer = self._closer
            if closer is not None:
                end = data.find(closer, pos)
                if end < 0:
                    # Keep the last bytes: they may be the start of the closer.
                    keep = n if final else max(pos, n - len(closer) + 1)
                    out.append(data[pos:keep])
                    self._pending = data[keep:]
                    return b"".join(out)
                end += len(closer)
                out.append(data[pos:end])
                self._closer = None
                pos = end
                continue
            stop, opener = _find_special(data, pos)
            segment = data[pos:stop]
            if opener is None and not final:
                cut = _held_tail(segment)
                self._pending = segment[cut:]
                segment = segment[:cut]
            if b"&" in segment:
                segment = self._escape(segment)
            out.append(segment)
            if opener is None:
                break
            out.append(opener)
            self._closer = _CLOSERS[opener]
            pos = stop + len(opener)
        return b"".join(out)

    def _escape(self, segment: bytes) -> bytes:
        """Escape the bare ampersands of a segment that holds no CDATA or comment."""
        parts: list[bytes] = []
        start = 0
        amp = segment.find(b"&")
        match = _VALID_REFERENCE.match
        while amp >= 0:
            if match(segment, amp) is None:
                parts.append(segment[start:amp])
                parts.append(b"&amp;")
                start = amp + 1
            amp = segment.find(b"&", amp + 1)
        if not parts:
            return segment
        self.fixed += len(parts) // 2
        parts.append(segment[start:])
        return b"".join(parts)


def fix_ampersands(data: bytes) -> bytes:
    """Escape the bare ampersands of a whole document (see the module docstring)."""
    fixer = AmpersandFixer()
    return fixer.feed(data) + fixer.flush()


class AmpersandFixingReader:
    """A read-only binary file object serving ``head`` then ``stream``, bare ``&`` escaped.

    ``enabled=False`` passes the bytes through untouched (for UTF-16 input). ``drained``
    turns true once ``read`` has returned ``b""``: a parser asked for more and was told the
    input is over, so whatever it reports after that comes from closing the document.
    """

    def __init__(
        self,
        stream: BinaryIO,
        *,
        head: bytes = b"",
        enabled: bool = True,
        chunk_size: int = 64 * 1024,
    ) -> None:
        self._stream = stream
        self._chunk_size = chunk_size
        self._fixer: AmpersandFixer | None = AmpersandFixer() if enabled else None
        self._buffer = b""
        self._eof = False
        self.drained = False
        if head:
            self._buffer = self._fixer.feed(head) if self._fixer is not None else head

    @property
    def fixed(self) -> int:
        """How many bare ampersands were escaped so far."""
        return self._fixer.fixed if self._fixer is not None else 0

    def read(self, size: int = -1) -> bytes:
        fixer = self._fixer
        while not self._eof and (size < 0 or len(self._buffer) < size):
            chunk = self._stream.read(self._chunk_size)
            if chunk:
                self._buffer += fixer.feed(chunk) if fixer is not None else chunk
            else:
                if fixer is not None:
                    self._buffer += fixer.flush()
                self._eof = True
        if size < 0 or size >= len(self._buffer):
            data, self._buffer = self._buffer, b""
        else:
            data, self._buffer = self._buffer[:size], self._buffer[size:]
        if not data:
            self.drained = True
        return data
