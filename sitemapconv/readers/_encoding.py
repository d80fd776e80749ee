"""Hand the XML parser UTF-8 it can read to the end, whatever encoding the bytes claim.

libxml2 decodes non-UTF-8 documents through iconv and *stops* at the first byte that is not
valid in the declared encoding: a feed declared ``windows-1252`` that holds one UTF-8 ``”``
(byte 0x9D is undefined in Windows-1252) loses every item after it. Mislabelled encodings are
among the commonest faults of real feeds, so the XML readers decode in Python first, where a bad
byte costs one character, and give libxml2 UTF-8 with a declaration that says so:

- declared UTF-8, or nothing declared: bytes that are not UTF-8 are read as Windows-1252
  (the usual cause: a CMS pasting Windows text into a UTF-8 page), with one warning;
- declared ISO-8859-1, Windows-1252 or ASCII, but the start of the document is UTF-8 with
  non-ASCII text: read as UTF-8 (bytes that are not UTF-8 still go through the declared
  encoding), with one warning;
- any other declared encoding Python knows (ISO-8859-x, Shift_JIS, GB18030...): decoded with
  it, an invalid byte replaced by U+FFFD, with one warning;
- UTF-16/32 (a BOM or NUL bytes around the first ``<``), or an encoding name Python does not
  know: passed through untouched, for libxml2 to handle as before.

A document that is pure ASCII, or clean UTF-8 as declared, costs one C-level check per chunk
(``bytes.isascii`` or a strict decode) and is passed through byte for byte.
"""

from __future__ import annotations

import codecs
import re
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from . import ReadContext

_CHUNK = 64 * 1024
#: Bytes read before deciding: enough to hold any real XML declaration.
_PROLOG = 1024
_UTF16_32 = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff", b"<\x00", b"\x00<")
_BOM = b"\xef\xbb\xbf"
_DECLARATION = re.compile(
    rb"""\A(\xef\xbb\xbf)?(\s*<\?xml\s[^>]*?\bencoding\s*=\s*)(["'])([^"'>]*)\3"""
)
#: Encodings whose text is almost never valid non-ASCII UTF-8 by accident: a document
#: declared with one of these that *is* valid UTF-8 was mislabelled.
_SINGLE_BYTE = frozenset(("latin-1", "iso8859-1", "cp1252", "ascii", "iso8859-15"))
#: The lone surrogates that ``surrogateescape`` makes of undecodable bytes.
_NAMES = {"cp1252": "Windows-1252", "latin-1": "ISO-8859-1", "iso8859-15": "ISO-8859-15"}
_ESCAPED = re.compile("[\udc80-\udcff]+")
_NON_ASCII_TEXT = re.compile("[^\x00-\x7f\udc80-\udcff]")


def _codec(label: str) -> str | None:
    try:
        return codecs.lookup(label.strip()).name
    except LookupError:
        return None


def _incomplete_tail(data: bytes) -> int:
    """Where a UTF-8 sequence cut by the end of ``data`` starts (``len(data)`` if none)."""
    n = len(data)
    for back in range(1, min(3, n) + 1):
        byte = data[n - back]
        if byte < 0x80:
            return n
        if byte >= 0xC0:  # a lead byte: is its sequence complete?
            need = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return n - back if back < need else n
    return n


class Utf8Input:
    """A read-only stream of UTF-8 bytes made from ``raw``; see the module docstring."""

    def __init__(self, raw: BinaryIO, ctx: ReadContext) -> None:
        self._raw = raw
        self._ctx = ctx
        self._pending = b""  # an incomplete UTF-8 sequence held for the next chunk
        self._out = b""
        self._eof = False
        self._warned = False
        self._offset = 0  # input bytes decided so far, for messages
        self._fallback = "cp1252"
        #: Declared as a single-byte encoding: valid non-ASCII UTF-8 means a wrong label.
        self._single_byte = False
        self._transcoder: codecs.IncrementalDecoder | None = None
        self._declared: str | None = None
        self._codec: str | None = None
        self._passthrough = False
        self._prolog()

    def _prolog(self) -> None:
        data = b""
        while len(data) < _PROLOG:
            chunk = self._raw.read(_CHUNK)
            if not chunk:
                self._eof = True
                break
            data += chunk
        if data.startswith(_UTF16_32):
            self._passthrough = True
            self._out = data
            return
        match = _DECLARATION.match(data)
        codec = None
        if match is not None:
            label = match.group(4).decode("ascii", "replace")
            codec = _codec(label)
            if codec is None:  # libxml2 reports the unknown name and reads on as UTF-8
                self._passthrough = True
                self._out = data
                return
            self._declared, self._codec = label, codec
            if codec != "utf-8":
                # The bytes handed on are UTF-8 (the BOM, if any, stays), so say so.
                start = match.start(4)
                data = data[:start] + b"UTF-8" + data[match.end(4) :]
                self._offset = -(len(b"UTF-8") - (match.end(4) - start))
        if codec is None or codec == "utf-8" or data.startswith(_BOM):
            pass
        elif codec.startswith(("utf-16", "utf-32")):
            pass  # declared UTF-16, but the bytes are ASCII-compatible: the label is wrong
        elif codec in _SINGLE_BYTE:
            self._single_byte = True
            if codec != "ascii":  # non-ASCII bytes in an "ASCII" document: likely Windows
                self._fallback = codec
            head = data[: _incomplete_tail(data)]
            if not head.isascii():
                try:
                    head.decode("utf-8")
                except UnicodeDecodeError:  # really in the declared encoding: use it
                    self._transcoder = codecs.getincrementaldecoder(self._fallback)("replace")
                    if codec == "ascii":
                        self._bad_bytes(0, "read as Windows-1252")
                else:
                    self._mislabelled()
        else:
            self._transcoder = codecs.getincrementaldecoder(codec)("replace")
        self._out = self._convert(data, final=self._eof)

    def _mislabelled(self) -> None:
        if not self._warned:
            self._warned = True
            self._ctx.warn(
                f"declared encoding {self._declared!r}, but the text is UTF-8; read as UTF-8"
            )

    def _bad_bytes(self, at: int, how: str) -> None:
        if not self._warned:
            self._warned = True
            label = repr(self._declared) if self._declared else "none declared, so UTF-8"
            self._ctx.warn(
                f"bytes not valid in the document's encoding ({label}), the first near byte "
                f"{max(0, self._offset + at):,}; {how}"
            )

    def _convert(self, data: bytes, *, final: bool) -> bytes:
        """Turn input bytes into UTF-8 output; an incomplete tail is held unless ``final``."""
        transcoder = self._transcoder
        if transcoder is not None:
            text = transcoder.decode(data, final)
            if "\ufffd" in text:
                self._bad_bytes(0, "each replaced by U+FFFD")
            self._offset += len(data)
            return text.encode("utf-8")
        if self._pending:
            data = self._pending + data
            self._pending = b""
        if data.isascii():
            self._offset += len(data)
            return data
        cut = len(data) if final else _incomplete_tail(data)
        data, self._pending = data[:cut], data[cut:]
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            out = self._repair(data, exc.start)
        else:
            out = data
            if self._single_byte:
                self._mislabelled()
        self._offset += len(data)
        return out

    def _repair(self, data: bytes, first_bad: int) -> bytes:
        """Decode ``data`` as UTF-8, reading each undecodable run in the fallback encoding."""
        fallback = self._fallback
        text = data.decode("utf-8", "surrogateescape")
        if not self._single_byte:
            self._bad_bytes(first_bad, f"read as {_NAMES.get(fallback, fallback)}")
        else:  # undecodable bytes are the declared encoding at work, unless that is ASCII
            if _NON_ASCII_TEXT.search(text):
                self._mislabelled()
            if self._codec == "ascii":
                self._bad_bytes(first_bad, f"read as {_NAMES.get(fallback, fallback)}")

        def decode_run(match: re.Match[str]) -> str:
            return match.group().encode("utf-8", "surrogateescape").decode(fallback, "replace")

        return _ESCAPED.sub(decode_run, text).encode("utf-8")

    def read(self, size: int = -1) -> bytes:
        while not self._out and not self._eof:
            chunk = self._raw.read(_CHUNK)
            if not chunk:
                self._eof = True
                self._out = b"" if self._passthrough else self._convert(b"", final=True)
                break
            self._out = chunk if self._passthrough else self._convert(chunk, final=False)
        if size < 0 or size >= len(self._out):
            data, self._out = self._out, b""
        else:
            data, self._out = self._out[:size], self._out[size:]
        return data
