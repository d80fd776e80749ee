"""Hostile payloads, generated in the tests' temporary folders (none is committed).

The gzip bomb is made by streaming zlib compression of 1 MiB chunks of spaces. After a full
flush the compressor's state is the same before each chunk, so every chunk compresses to the
same bytes: the first two are compressed for real (and checked equal), the rest repeat them.
That writes 2 GiB worth of deflate data in a fraction of a second, never holding more than one
chunk of plain text; the CRC in the trailer is computed over the real 2 GiB.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from pathlib import Path

#: How much the bomb inflates to: 2 GiB of spaces.
BOMB_SIZE = 2 * 1024**3
_MIB = 1024 * 1024


def write_space_bomb(path: Path, spaces: int, prefix: bytes = b"") -> None:
    """Write a one-member gzip file of ``prefix`` then ``spaces`` spaces (whole MiB, >= 2)."""
    chunk = b" " * _MIB
    assert spaces % _MIB == 0 and spaces >= 2 * _MIB, "the spaces come in whole MiB"
    count = spaces // _MIB
    size = len(prefix) + spaces
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    crc = zlib.crc32(prefix)
    with path.open("wb") as out:
        # gzip header: magic, deflate, no flags, no mtime, max compression, unknown OS.
        out.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff")
        out.write(compressor.compress(prefix) + compressor.flush(zlib.Z_FULL_FLUSH))
        first = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
        second = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
        assert first == second, "a full flush makes each chunk's deflate bytes the same"
        out.write(first)
        out.write(second)
        for _ in range(count - 2):
            out.write(first)
        out.write(compressor.flush())
        for _ in range(count):
            crc = zlib.crc32(chunk, crc)
        out.write(struct.pack("<II", crc & 0xFFFFFFFF, size & 0xFFFFFFFF))


def bomb_with_document_start(path: Path, bomb: Path, start: bytes) -> None:
    """A gzip file whose first member is ``start`` (a valid beginning) and then the bomb."""
    path.write_bytes(gzip.compress(start) + bomb.read_bytes())


def nested(depth: int, name: str = "x") -> str:
    """Elements nested ``depth`` levels deep."""
    return f"<{name}>" * depth + "deep" + f"</{name}>" * depth
