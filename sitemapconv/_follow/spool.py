"""Spooling fetched bodies: the one way following holds a body it is not reading yet.

Workers download children ahead of the one being read, and the top index is read off the
network before any child is fetched; each such body goes to a
:class:`tempfile.SpooledTemporaryFile`: in memory up to :data:`SPOOL_IN_MEMORY` bytes,
then on disk. So memory stays flat whatever the size of a child, and a slow consumer never
holds a server connection open (nginx's send timeout drops slow readers).
"""

from __future__ import annotations

import io
import shutil
import tempfile
from collections.abc import Callable
from typing import BinaryIO

#: Bytes of one spooled body kept in memory before it moves to a temporary file.
SPOOL_IN_MEMORY = 1024 * 1024
_CHUNK = 64 * 1024


def new_spool() -> BinaryIO:
    """An empty spool to write a body into (the async driver fills it chunk by chunk)."""
    return tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)  # type: ignore[return-value]


def spool(body: BinaryIO, close: Callable[[], None]) -> BinaryIO:
    """All of ``body`` in a spool, rewound; ``close`` (the connection's) is called either way.

    Nothing is left open when the copy fails: the spool is closed and the error raised.
    """
    spooled = new_spool()
    try:
        shutil.copyfileobj(body, spooled, _CHUNK)
    except BaseException:
        spooled.close()
        raise
    finally:
        close()
    spooled.seek(0)
    return spooled


class NamedStream(io.RawIOBase):
    """A binary stream under the name messages should use for it (the URL it came from)."""

    def __init__(self, inner: BinaryIO, name: str) -> None:
        self._inner = inner
        self.name = name

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._inner.read(len(b))
        b[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._inner.close()
        super().close()
