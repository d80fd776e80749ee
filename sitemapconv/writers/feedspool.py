"""The spooled body of a feed: items first, header last, namespaces declared only when used.

A namespace must be declared on the root element, which comes first in the file, but
whether ``media:`` (say) is used is only known once every entry has been seen. Holding the
entries would break streaming, so the writers format each item into a
:class:`tempfile.SpooledTemporaryFile` (in memory up to :data:`SPOOL_MEMORY` bytes, then on
disk) while recording the prefixes they use. At the end the header (XML declaration, root
with exactly the used namespaces in a fixed order, channel/feed head) is written to the
output, the spool is copied after it, and the closing tags follow. The same trick lets the
head carry values computed from all entries, such as the newest date.

Strings are formatted directly (as in the sitemap writers): :meth:`FeedSpool.text` strips
characters XML 1.0 forbids (warning once per run) and escapes all five entities;
:meth:`FeedSpool.url` also percent-encodes per RFC 3986.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from types import TracebackType
from typing import BinaryIO

from ..errors import WriteError
from ..urls import encode_url
from ..xmltext import escape, has_forbidden, strip_forbidden
from . import WriteContext

#: Bytes of body kept in memory before the spool moves to a temporary file.
SPOOL_MEMORY = 1 << 20
_COPY_CHUNK = 1 << 16


class FeedSpool:
    """Collects the formatted body of a feed and the namespace prefixes it uses."""

    def __init__(self, ctx: WriteContext, *, max_memory: int = SPOOL_MEMORY) -> None:
        self.ctx = ctx
        self.used: set[str] = set()
        # Closed by __exit__: the spool is only used as a context manager.
        self._file = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            max_size=max_memory, mode="w+b"
        )

    def __enter__(self) -> FeedSpool:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._file.close()

    def clean(self, value: str) -> str:
        """Remove characters XML 1.0 cannot carry, warning once per run when there were any."""
        if has_forbidden(value):
            self.ctx.warn_once(
                "forbidden-chars",
                "removed characters that XML 1.0 cannot carry (control characters, "
                "lone surrogates, U+FFFE/U+FFFF)",
            )
            return strip_forbidden(value)
        return value

    def text(self, value: str) -> str:
        """Element text or attribute value: cleaned and XML-escaped."""
        return escape(self.clean(value))

    def url(self, value: str) -> str:
        """A URL: cleaned, percent-encoded (RFC 3986, no double encoding), XML-escaped.

        A URL that cannot be encoded (a broken IPv6 literal...) is a :class:`WriteError`.
        """
        try:
            return escape(encode_url(self.clean(value)))
        except ValueError as exc:
            raise WriteError(f"cannot write URL {value!r} ({exc})", source=self.ctx.dest) from None

    def use(self, prefix: str) -> None:
        """Record that the body uses the namespace bound to ``prefix``."""
        self.used.add(prefix)

    def write(self, chunk: str) -> None:
        self._file.write(chunk.encode("utf-8"))

    def declarations(self, namespaces: Iterable[tuple[str, str]]) -> str:
        """``xmlns:prefix="uri"`` for the used prefixes, in the order of ``namespaces``."""
        return "".join(f' xmlns:{p}="{uri}"' for p, uri in namespaces if p in self.used)

    def emit(self, out: BinaryIO, head: str, tail: str) -> None:
        """Write ``head``, then the spooled body, then ``tail`` to ``out``."""
        out.write(head.encode("utf-8"))
        self._file.seek(0)
        shutil.copyfileobj(self._file, out, _COPY_CHUNK)
        out.write(tail.encode("utf-8"))


XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
