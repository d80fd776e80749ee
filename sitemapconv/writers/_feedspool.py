"""The spooled body of a feed: items first, header last, namespaces declared only when used.

A namespace must be declared on the root element, which comes first in the file, but
whether ``media:`` (say) is used is only known once every entry has been seen. Holding the
entries would break streaming, so the writers format each item into a
:class:`sitemapconv._spool.SpooledBody` (in memory up to :data:`SPOOL_MEMORY` bytes, then on
disk) while recording the prefixes they use. At the end the header (XML declaration, root
with exactly the used namespaces in a fixed order, channel/feed head) is written to the
output, the spool is copied after it, and the closing tags follow. The same trick lets the
head carry values computed from all entries, such as the newest date.

Values go through the one formatting path of every writer,
:class:`~sitemapconv.writers._formatting.ValueFormatter` (:attr:`FeedSpool.values`):
:meth:`FeedSpool.text` strips characters XML 1.0 forbids (warning once per run) and escapes;
:meth:`FeedSpool.loc` checks an entry's URL exactly as the sitemap writers do (an entry whose
loc cannot be written is skipped with a warning); :meth:`FeedSpool.url` percent-encodes any
other URL, or gives None after a warning so that the value is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType
from typing import BinaryIO

from .._spool import SpooledBody
from .._xmltext import escape
from . import WriteContext
from ._formatting import ValueFormatter

#: Bytes of body kept in memory before the spool moves to a temporary file.
SPOOL_MEMORY = 1 << 20


class FeedSpool:
    """Collects the formatted body of a feed and the namespace prefixes it uses."""

    def __init__(self, ctx: WriteContext, *, max_memory: int = SPOOL_MEMORY) -> None:
        self.ctx = ctx
        self.values = ValueFormatter(ctx)
        self.used: set[str] = set()
        # Closed by __exit__: the spool is only used as a context manager.
        self._body = SpooledBody(max_memory)

    def __enter__(self) -> FeedSpool:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._body.close()

    def clean(self, value: str) -> str:
        """Remove characters XML 1.0 cannot carry, warning once per run when there were any."""
        return self.values.clean(value)

    def text(self, value: str) -> str:
        """Element text or attribute value: cleaned and XML-escaped."""
        return self.values.text(value)

    def loc(self, value: str) -> str | None:
        """An entry's URL, XML-escaped; None (warned) when the entry must be skipped."""
        loc = self.values.loc(value)
        return None if loc is None else escape(loc)

    def url(self, value: str, what: str = "URL") -> str | None:
        """Any other URL: percent-encoded and XML-escaped; None (warned) to leave it out."""
        return self.values.url(value, what)

    def finish(self, written: int, format: str) -> None:
        """Refuse an output from which every entry was dropped (before the head is written)."""
        self.values.finish(written, format)

    def use(self, prefix: str) -> None:
        """Record that the body uses the namespace bound to ``prefix``."""
        self.used.add(prefix)

    def write(self, chunk: str) -> None:
        self._body.add_text(chunk)

    def declarations(self, namespaces: Iterable[tuple[str, str]]) -> str:
        """``xmlns:prefix="uri"`` for the used prefixes, in the order of ``namespaces``."""
        return "".join(f' xmlns:{p}="{uri}"' for p, uri in namespaces if p in self.used)

    def emit(self, out: BinaryIO, head: str, tail: str) -> None:
        """Write ``head``, then the spooled body, then ``tail`` to ``out``."""
        out.write(head.encode("utf-8"))
        self._body.copy_to(out)
        out.write(tail.encode("utf-8"))
