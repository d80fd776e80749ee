"""Repairing an XML byte stream before the parser sees it: bare ``&`` and junk before ``<``.

One filter for every XML reader (the sitemap readers and the feed readers), because real files
of every kind share two faults:

1. **Bare ampersands.** ``<loc>/?a=1&b=2</loc>`` is not well-formed: a strict parser stops
   there, and libxml2's recover mode silently *drops* the bad reference, turning the URL into
   ``/?a=1=2``. So every ``&`` that does not start a predefined entity (``amp lt gt quot
   apos``) or a character reference is rewritten to ``&amp;``. Any other named reference
   (``&foo;``, or a DOCTYPE entity) is escaped too: sitemapconv never expands entities, so the
   reference is kept as literal text instead of vanishing. With ``html_entities=True`` (the
   feed readers: feeds are written against the RSS 0.91 DTD, which is never loaded) the HTML
   named references (``&eacute;``, ``&nbsp;``...) become numeric references instead, so they
   decode, and a stray ``<`` that cannot open markup (``a < b`` in a title, which stops
   libxml2 for the rest of the document) becomes ``&lt;``. Sitemaps skip that last scan:
   their values are URLs, and it would cost a few percent of the read time.
2. **Junk before the first tag.** libxml2 rejects an XML declaration preceded by anything, so
   a UTF-8 BOM and leading whitespace are dropped (:func:`clean_head`).

CDATA sections, comments, processing instructions and the DOCTYPE (internal subset included)
are copied untouched: an ``&`` in there is not a reference. The rewriting works on bytes, so
it suits UTF-8 and every ASCII-compatible encoding (ISO-8859-x, Windows-125x...); UTF-16/32
input is passed through untouched. It is exact across chunk boundaries: a chunk that ends in
the middle of a reference or of an opener holds those few bytes back until the next chunk
decides them. The common path costs a few C-level scans per chunk: openers are found with a
single-byte ``find`` (memchr speed: a multi-byte or regex search costs about ten times more
per byte, and ``<`` is everywhere in XML), and ampersands with one ``re.subn`` per segment.
"""

from __future__ import annotations

import re
from html.entities import name2codepoint
from typing import BinaryIO

#: Longest tail held back for a possible reference, ``&`` included: an HTML entity name has
#: at most 31 characters, a character reference at most ``&#x`` + 20 digits + ``;``.
MAX_REFERENCE = 48

_GOOD = rb"(?:amp|lt|gt|quot|apos|#[0-9]{1,20}|#[xX][0-9a-fA-F]{1,20});"
#: An ``&`` that starts no predefined entity or character reference.
#: A "<" that cannot start a tag, an end tag, a comment, a PI or a declaration.
_STRAY_LT = re.compile(rb"<(?![A-Za-z_:/!?\x80-\xff])")
_BAD_AMP = re.compile(rb"&(?!" + _GOOD + rb")")
#: The same, with the name of a would-be named reference in group 1.
_BAD_AMP_NAMED = re.compile(rb"&(?!" + _GOOD + rb")(?:([A-Za-z][A-Za-z0-9]{0,40});)?")

#: Verbatim sections, by opener: the bytes that end them (DOCTYPE is handled apart).
_CLOSERS = {b"<![CDATA[": b"]]>", b"<!--": b"-->", b"<?": b"?>"}
_DOCTYPE = b"<!DOCTYPE"
#: Sentinels for the two states inside a DOCTYPE: before and inside its internal subset.
_IN_DOCTYPE = b"<!DOCTYPE>"
_IN_SUBSET = b"<!DOCTYPE[]>"
_STATES = (_IN_DOCTYPE, _IN_SUBSET)
_OPENERS = (b"<![CDATA[", b"<!--", b"<?", _DOCTYPE)

_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\r\n"
#: Starts of UTF-16 and UTF-32 input (with or without a BOM): passed through untouched.
_WIDE_STARTS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"<\x00", b"\x00<")
_HEAD = 4096


def _html_reference(match: re.Match[bytes]) -> bytes:
    name = match.group(1)
    if name is None:
        return b"&amp;"
    code = name2codepoint.get(name.decode("ascii"))
    if code is None:
        return b"&amp;" + name + b";"
    return b"&#%d;" % code


def _find_special(data: bytes, start: int) -> tuple[int, bytes | None]:
    """The first verbatim-section opener at or after ``start``: (index, opener).

    Searches for ``!`` and ``?`` with single-byte finds, then checks the bytes around each
    hit. Returns ``(len(data), None)`` when there is none.
    """
    found, opener = len(data), None
    i = data.find(b"!", start + 1)
    while i >= 0:
        if data[i - 1] == 0x3C:  # "<"
            if data.startswith(b"[CDATA[", i + 1):
                found, opener = i - 1, b"<![CDATA["
                break
            if data.startswith(b"--", i + 1):
                found, opener = i - 1, b"<!--"
                break
            if data[i + 1 : i + 8].upper() == b"DOCTYPE":
                found, opener = i - 1, _DOCTYPE
                break
        i = data.find(b"!", i + 1)
    # "?" is in most URLs, so look for "<?" only before the opener found so far.
    i = data.find(b"<?", start, found)
    if i >= 0:
        return i, b"<?"
    return found, opener


def _held_tail(data: bytes, reference: int) -> int:
    """Where the undecidable tail of ``data`` starts (``len(data)`` when there is none).

    Undecidable: a partial opener, or an ``&`` with no ``;`` yet that may still become a
    reference (within ``reference`` bytes).
    """
    n = len(data)
    cut = n
    lt = data.rfind(b"<", max(0, n - len(_DOCTYPE) + 1))
    if lt >= 0:
        tail = data[lt:].upper()
        if any(o.startswith(tail) for o in _OPENERS):
            cut = lt
    amp = data.rfind(b"&", max(0, n - reference + 1))
    if amp >= 0 and b";" not in data[amp:] and amp < cut:
        cut = amp
    return cut


class AmpersandFixer:
    """Incremental rewriter: feed it chunks, then call :meth:`flush` at the end.

    ``feed`` returns the bytes that are final so far; concatenating every ``feed`` result and
    the ``flush`` result gives the same bytes as :func:`fix_ampersands` on the whole input.
    """

    __slots__ = ("_closer", "_html", "_pending", "fixed")

    def __init__(self, *, html_entities: bool = False) -> None:
        self._pending = b""
        self._html = html_entities
        #: In a verbatim section: the bytes that end it (or a DOCTYPE state); else None.
        self._closer: bytes | None = None
        #: How many references were rewritten so far (for a warning).
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
                end = self._section_end(data, pos, closer)
                if end < 0:
                    # Keep the last bytes: they may be the start of the closer.
                    keep = n if final or closer in _STATES else max(pos, n - len(closer) + 1)
                    out.append(data[pos:keep])
                    self._pending = data[keep:]
                    return b"".join(out)
                out.append(data[pos:end])
                pos = end
                continue
            stop, opener = _find_special(data, pos)
            segment = data[pos:stop]
            if opener is None and not final:
                cut = _held_tail(segment, MAX_REFERENCE)
                self._pending = segment[cut:]
                segment = segment[:cut]
            if b"&" in segment:
                segment = self._escape(segment)
            if self._html:
                segment = self._escape_stray_lt(segment)
            out.append(segment)
            if opener is None:
                break
            out.append(data[stop : stop + len(opener)])
            self._closer = _IN_DOCTYPE if opener is _DOCTYPE else _CLOSERS[opener]
            pos = stop + len(opener)
        return b"".join(out)

    def _section_end(self, data: bytes, pos: int, closer: bytes) -> int:
        """Where the verbatim section ends in ``data`` (-1: not in it); updates the state."""
        if closer is _IN_DOCTYPE:
            gt = data.find(b">", pos)
            bracket = data.find(b"[", pos, gt if gt >= 0 else len(data))
            if bracket >= 0:
                self._closer = _IN_SUBSET
                return bracket + 1
            if gt < 0:
                return -1
            self._closer = None
            return gt + 1
        if closer is _IN_SUBSET:
            end = data.find(b"]", pos)
            if end < 0:
                return -1
            self._closer = _IN_DOCTYPE  # the rest up to ">"
            return end + 1
        end = data.find(closer, pos)
        if end < 0:
            return -1
        self._closer = None
        return end + len(closer)

    def _escape_stray_lt(self, segment: bytes) -> bytes:
        """Feeds only: a ``<`` that cannot open markup (``a < b`` in a title) becomes ``&lt;``.

        libxml2 stops the whole document at such a ``<``; sitemaps carry URLs, where a raw
        ``<`` is rare, so they skip this scan and keep their speed.
        """
        fixed, count = _STRAY_LT.subn(b"&lt;", segment)
        self.fixed += count
        return fixed

    def _escape(self, segment: bytes) -> bytes:
        """Rewrite the bad references of a segment that holds no verbatim section."""
        if self._html:
            fixed, count = _BAD_AMP_NAMED.subn(_html_reference, segment)
        else:
            fixed, count = _BAD_AMP.subn(b"&amp;", segment)
        self.fixed += count
        return fixed


def fix_ampersands(data: bytes, *, html_entities: bool = False) -> bytes:
    """Repair the ampersands of a whole document (see the module docstring)."""
    fixer = AmpersandFixer(html_entities=html_entities)
    return fixer.feed(data) + fixer.flush()


def clean_head(stream: BinaryIO, size: int = _HEAD) -> tuple[bytes, bool]:
    """Read the first bytes, dropping a UTF-8 BOM and leading whitespace.

    Returns the head (at least one chunk unless the input is shorter) and whether the input
    is UTF-16 or UTF-32, in which case nothing is dropped or rewritten.
    """
    data = stream.read(size)
    while 0 < len(data) < 4:  # too short yet to tell a BOM or UTF-16 apart
        more = stream.read(size)
        if not more:
            break
        data += more
    if data.startswith(_WIDE_STARTS):
        return data, True
    data = data.removeprefix(_BOM).lstrip(_SPACE)
    while not data:  # only whitespace so far: keep reading (and discarding) it
        more = stream.read(size)
        if not more:
            break
        data = more.lstrip(_SPACE)
    return data, False


class AmpersandFixingReader:
    """A read-only binary file object serving the repaired bytes of ``stream``.

    ``head`` is served first: the bytes already read by :func:`clean_head` (see
    :meth:`open`). ``enabled=False`` passes the bytes through untouched (UTF-16/32 input).
    ``drained`` turns true once ``read`` has returned ``b""``: a parser asked for more and
    was told the input is over, so whatever it reports after that (elements closed by
    recovery) comes from closing the document.
    """

    def __init__(
        self,
        stream: BinaryIO,
        *,
        head: bytes = b"",
        enabled: bool = True,
        html_entities: bool = False,
        chunk_size: int = 64 * 1024,
    ) -> None:
        self._stream = stream
        self._chunk_size = chunk_size
        self._fixer = AmpersandFixer(html_entities=html_entities) if enabled else None
        self._buffer = b""
        self._eof = False
        self.drained = False
        if head:
            self._buffer = self._fixer.feed(head) if self._fixer is not None else head

    @classmethod
    def open(cls, stream: BinaryIO, *, html_entities: bool = False) -> AmpersandFixingReader:
        """The repairing view of ``stream`` from its start: BOM and leading space dropped."""
        head, wide = clean_head(stream)
        return cls(stream, head=head, enabled=not wide, html_entities=html_entities)

    @property
    def fixed(self) -> int:
        """How many references were rewritten so far."""
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
