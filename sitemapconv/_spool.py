"""Spooled temporary storage: the one home for "keep it in memory, or on disk once it is big".

:class:`SpooledBody` is a body that is written before its root start tag: entries first,
header last. A urlset declares its extension namespaces on the root element (sitemaps.org protocol,
"Extending the Sitemaps protocol"), but which namespaces are used is known only after the
last entry. So the ``<url>`` elements go to a
:class:`tempfile.SpooledTemporaryFile` (in memory up to a few MiB, then on disk: constant
memory whatever the number of entries), and the writer emits the header, copies the body and
closes the root once the stream has ended. The copy costs one extra sequential pass over the
body, much cheaper than holding every entry or formatting twice. The feed writers
(:mod:`sitemapconv.writers._feedspool`) and the split writer (:mod:`sitemapconv._split`) use
it the same way.

:func:`spool_copy` copies a whole stream (a downloaded body) into a spooled file, rewound,
so that the connection can be closed before the body is read; :func:`new_spool` is the empty
spool it fills (the async follower writes one chunk by chunk). Following spools the top
index and the children it downloads ahead of the one being read, each in memory up to
:data:`CHILD_SPOOL_MEMORY` and then on disk, so memory stays flat whatever a child's size and
a slow consumer never holds a server connection open.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from typing import BinaryIO

#: Bytes kept in memory before the spool moves to a temporary file.
SPOOL_MEMORY = 8 * 1024 * 1024
#: The same for one body that following fetched (it holds several at once, so keeps less).
CHILD_SPOOL_MEMORY = 1024 * 1024
_COPY_CHUNK = 1024 * 1024
#: Formatted entries are batched into one write of about this many bytes.
_BATCH_BYTES = 256 * 1024


class SpooledBody:
    """Collects encoded entries; counts them and their exact byte size."""

    __slots__ = ("_batch", "_batch_bytes", "_file", "count", "size")

    def __init__(self, max_memory: int = SPOOL_MEMORY) -> None:
        self._file = new_spool(max_memory)  # closed by close()
        self._batch: list[bytes] = []
        self._batch_bytes = 0
        self.count = 0
        self.size = 0

    def add(self, data: bytes) -> None:
        """Append one formatted entry."""
        self._batch.append(data)
        n = len(data)
        self._batch_bytes += n
        self.size += n
        self.count += 1
        if self._batch_bytes >= _BATCH_BYTES:
            self._flush()

    def add_text(self, text: str) -> None:
        """Append one formatted entry given as text (encoded as UTF-8)."""
        self.add(text.encode("utf-8"))

    def add_many(self, data: bytes, count: int) -> None:
        """Append ``count`` formatted entries at once (the writer batches when it need not
        know each entry's size)."""
        self._flush()
        self._file.write(data)
        self.size += len(data)
        self.count += count

    def _flush(self) -> None:
        if self._batch:
            self._file.write(b"".join(self._batch))
            self._batch.clear()
            self._batch_bytes = 0

    def copy_to(self, out: BinaryIO) -> None:
        """Write everything collected so far to ``out``."""
        self._flush()
        self._file.seek(0)
        shutil.copyfileobj(self._file, out, _COPY_CHUNK)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> SpooledBody:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def new_spool(max_memory: int = SPOOL_MEMORY) -> BinaryIO:
    """An empty spooled temporary file: in memory up to ``max_memory`` bytes, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=max_memory, mode="w+b")  # type: ignore[return-value]


def spool_copy(
    source: BinaryIO,
    max_memory: int = SPOOL_MEMORY,
    *,
    close: Callable[[], None] | None = None,
) -> BinaryIO:
    """The rest of ``source`` in a spooled temporary file, rewound; the caller closes it.

    In memory up to ``max_memory`` bytes, then on disk. ``source`` is left open unless
    ``close`` (the connection's) is given, which is called whether or not the copy works.
    When the copy fails (the connection drops), the spool is closed and the error propagates.
    """
    spool = new_spool(max_memory)
    try:
        shutil.copyfileobj(source, spool, 64 * 1024)
    except BaseException:
        spool.close()
        raise
    finally:
        if close is not None:
            close()
    spool.seek(0)
    return spool
