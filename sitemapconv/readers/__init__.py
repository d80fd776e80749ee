"""Readers: one module per input format, each a streaming generator of entries.

A reader class declares its ``name``, ``aliases`` and ``mimetypes`` and scores a document
head with :meth:`Reader.sniff` (Pygments' ``analyse_text``). :mod:`sitemapconv._registry`
finds readers by name and :mod:`sitemapconv._detect` runs the sniffing contest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, ClassVar

from .._head import Head
from .._model import Entry, FeedMeta
from .._options import ReadOptions, emit_warning
from ..errors import FormatError


@dataclass(slots=True)
class ReadContext:
    """What a reader knows besides the bytes: where they came from, the options, the metadata.

    ``source`` is the name used in messages (a path, a URL or ``<stdin>``); ``url`` is the
    document's own location when the user gave one (an http(s) URL, a typed ``file:`` URL or
    ``base_url``), used to resolve relative links. A plain path, stdin or bytes have none:
    their relative links stay as written, never resolved against this machine's folders.
    Readers fill ``meta`` as they meet channel or feed metadata.
    """

    source: str
    options: ReadOptions = field(default_factory=ReadOptions)
    url: str | None = None
    meta: FeedMeta = field(default_factory=FeedMeta)
    warnings: int = 0

    def warn(self, message: str) -> None:
        self.warnings += 1
        emit_warning(self.options.on_warning, f"{self.source}: {message}")

    @property
    def origin(self) -> str | None:
        """What ``Entry.sitemap`` holds: the source as the user gave it (path or URL).

        Bytes, stdin and unnamed streams have no name of their own; their entries carry the
        base URL the caller gave (or the fetched URL), else nothing.
        """
        return self.url if self.source.startswith("<") else self.source


def not_format_message(name: str, root: str) -> str:
    """The one message for a document that is not of the (forced) format ``name``."""
    article = "an" if name[:1] in "aeiou" or name in _SPELLED_WITH_VOWEL else "a"
    return f"not {article} {name} document (root element <{root}>)"


#: Format names read letter by letter whose first letter sounds like a vowel ("an rss").
_SPELLED_WITH_VOWEL = frozenset(("xml", "rss"))


class Reader:
    """Base class of every reader. Subclasses implement :meth:`sniff` and :meth:`read`."""

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    mimetypes: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def sniff(cls, head: Head) -> float:
        """Score from 0.0 (not this format) to 1.0 (certainly this format)."""
        return 0.0

    @classmethod
    def check_forced(cls, head: Head, source: str) -> None:
        """Refuse a forced format (``-f``) whose root element this reader does not read.

        One rule for every format: the document's root element, when the head shows one,
        must be one this reader's :meth:`sniff` would claim. Otherwise reading would give an
        empty or meaningless result, so it is a :class:`~sitemapconv.errors.FormatError`
        instead. A reader that reads roots it never claims by sniffing overrides this; one
        with no sniffer of its own (only ever forced) is not judged.
        """
        if cls.sniff.__func__ is Reader.sniff.__func__:  # type: ignore[attr-defined]
            return
        root = head.root
        if root is not None and cls.sniff(head) <= 0.0:
            raise FormatError(not_format_message(cls.name, root.local), source=source)

    def read(self, stream: BinaryIO, ctx: ReadContext) -> Iterator[Entry]:
        """Yield entries while reading ``stream``; never hold the whole document.

        Raise :class:`~sitemapconv.errors.SitemapError` subclasses for fatal problems and
        call ``ctx.warn`` for anything that does not stop reading.
        """
        raise NotImplementedError
