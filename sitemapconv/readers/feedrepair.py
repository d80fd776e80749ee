"""A byte-stream filter that repairs the two commonest XML faults of real feeds and sitemaps.

1. **Bare ampersands.** ``<link>http://x/?a=1&b=2</link>`` is not well-formed, and libxml2's
   recover mode drops the bad reference, giving ``?a=1=2``. Every ``&`` that does not start a
   well-formed reference is rewritten to ``&amp;`` *before* lxml sees the bytes, so the value
   comes back as written. HTML named references that XML does not define (``&eacute;``,
   ``&nbsp;``, ...; common in feeds written against the RSS 0.91 DTD, which we never load)
   become numeric references, so they decode instead of vanishing. Other undefined names
   (``&foo;``) are kept literally as ``&foo;`` text: nothing is ever expanded.
2. **Junk before the first ``<``.** A UTF-8 BOM followed by whitespace, or whitespace before
   ``<?xml``, makes libxml2 reject the XML declaration; leading whitespace is dropped.

CDATA sections, comments, processing instructions and the DOCTYPE are copied unchanged: an
``&`` in there is literal text. The filter works on ASCII-compatible encodings (UTF-8,
ISO-8859-x, Windows-125x, Shift_JIS, GB18030...); UTF-16/32 input is passed through untouched.

The scan runs in C (``re``) over whole chunks; Python code runs once per chunk and once per
*repaired* ampersand, so a clean document costs one regex pass. A reference, a ``<!--`` or a
``]]>`` split across two reads is handled by holding back the undecided tail of a chunk.
"""

from __future__ import annotations

import io
import re
from html.entities import name2codepoint
from typing import BinaryIO

_CHUNK = 64 * 1024
#: A reference longer than this is not one (the longest HTML entity name is 31 bytes).
_HOLD = 64

# An "&" that needs work: not a predefined or numeric reference. Group 1 is a name+";".
_BAD_AMP = re.compile(
    rb"&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#[xX][0-9A-Fa-f]+);)(?:([A-Za-z][A-Za-z0-9]{0,40});)?"
)
# Where copying verbatim starts: a CDATA section, a comment, a PI or a DOCTYPE.
_SPECIAL = re.compile(rb"<!\[CDATA\[|<!--|<\?|<!DOCTYPE", re.IGNORECASE)
_ENDS = {b"<![CDATA[": b"]]>", b"<!--": b"-->", b"<?": b"?>"}
_DOCTYPE_END = re.compile(rb"\[[^\]]*\]\s*>|>")
_BOM = b"\xef\xbb\xbf"
_SPACE = b" \t\r\n"
_UTF16_32 = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"<\x00", b"\x00<")


def _replace(match: re.Match[bytes]) -> bytes:
    name = match.group(1)
    if name is None:
        return b"&amp;"
    code = name2codepoint.get(name.decode("ascii"))
    if code is None:
        return b"&amp;" + name + b";"
    return b"&#%d;" % code


def repair_text(data: bytes) -> bytes:
    """Repair the ampersands of markup that holds no CDATA, comment, PI or DOCTYPE."""
    if b"&" not in data:
        return data
    return _BAD_AMP.sub(_replace, data)


class AmpersandRepair(io.RawIOBase):
    """Wraps a binary stream; reading it gives the repaired bytes (see the module docstring).

    ``eof`` turns true once the underlying stream is exhausted and everything has been
    handed out: a parser that still reports elements afterwards is closing them itself,
    which is how the feed readers tell a truncated last item from a complete one.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self._raw = raw
        self._pending = b""  # undecided bytes carried over to the next chunk
        self._out = b""  # repaired bytes not yet handed out
        self._end: bytes | None = None  # terminator of the verbatim section we are in
        self._started = False
        self._passthrough = False
        self._raw_eof = False
        self.eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        while not self._out and not self._raw_eof:
            self._fill()
        n = min(len(b), len(self._out))
        if n == 0:
            self.eof = True
            return 0
        b[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def _fill(self) -> None:
        chunk = self._raw.read(_CHUNK)
        if not chunk:
            self._raw_eof = True
            data, self._pending = self._pending, b""
            if not self._started:
                data = data.removeprefix(_BOM).lstrip(_SPACE)
            self._out = data if self._passthrough else self._process(data, final=True)
            return
        data = self._pending + chunk
        self._pending = b""
        if not self._started:
            if len(data) < 4:
                self._pending = data  # too short to tell a BOM or UTF-16 apart
                return
            if data.startswith(_UTF16_32):
                self._passthrough = True
            else:
                data = data.removeprefix(_BOM).lstrip(_SPACE)
                if not data:
                    return  # only whitespace so far
            self._started = True
        self._out = data if self._passthrough else self._process(data, final=False)

    def _process(self, data: bytes, *, final: bool) -> bytes:
        out: list[bytes] = []
        pos, size = 0, len(data)
        while pos < size:
            if self._end is not None:  # inside a verbatim section
                if self._end == b">":
                    m = _DOCTYPE_END.search(data, pos)
                    stop = m.end() if m else -1
                else:
                    i = data.find(self._end, pos)
                    stop = i + len(self._end) if i >= 0 else -1
                if stop < 0:
                    if final:
                        out.append(data[pos:])
                        break
                    keep = max(pos, size - _HOLD) if self._end == b">" else size - 2
                    keep = max(pos, keep)
                    out.append(data[pos:keep])
                    self._pending = data[keep:]
                    break
                out.append(data[pos:stop])
                pos = stop
                self._end = None
                continue
            m = _SPECIAL.search(data, pos)
            if m is None:
                cut = size if final else self._safe_cut(data, pos)
                out.append(repair_text(data[pos:cut]))
                self._pending = data[cut:]
                break
            out.append(repair_text(data[pos : m.start()]))
            token = m.group()
            self._end = b">" if token.upper() == b"<!DOCTYPE" else _ENDS[token]
            out.append(token)
            pos = m.end()
        return b"".join(out)

    @staticmethod
    def _safe_cut(data: bytes, pos: int) -> int:
        """Where decided bytes end: before a trailing "&..." or "<..." that may continue."""
        low = max(pos, len(data) - _HOLD)
        cut = max(data.rfind(b"&", low), data.rfind(b"<", low))
        return cut if cut >= 0 else len(data)


def repaired(stream: BinaryIO) -> AmpersandRepair:
    """The repairing view of ``stream``, read through a buffer as lxml reads in chunks."""
    return AmpersandRepair(stream)
