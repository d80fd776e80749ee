"""One exception tree for everything sitemapconv raises on bad input.

Modelled on httpx: callers catch :class:`SitemapError` and get every failure that
comes from the data or the network; the subclasses let them tell the cases apart.
Every message names the source (a path, a URL or ``<stdin>``) first, so a one-line
error on the command line is enough to act on.
"""

from __future__ import annotations


class SitemapError(Exception):
    """Base of every error sitemapconv raises for bad input, a bad source or a failed fetch."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        self.source = source
        self.reason = message
        super().__init__(f"{source}: {message}" if source else message)


class FormatError(SitemapError):
    """The input is not a sitemap or feed that any reader understands (HTML, JSON, empty...)."""


class ParseError(SitemapError):
    """The input is a sitemap or feed but cannot be parsed; carries the position when known."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.line = line
        self.column = column
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "")
            message = f"{message} ({where})"
        super().__init__(message, source=source)


class FetchError(SitemapError):
    """A remote source could not be fetched: transport failure or an HTTP error status."""

    def __init__(
        self, message: str, *, source: str | None = None, status: int | None = None
    ) -> None:
        self.status = status
        super().__init__(message, source=source)


class RefusedFetch(FetchError):
    """The door refused a URL or an address before contacting it (SSRF rule, scheme)."""


class LimitError(SitemapError):
    """A safety cap was hit: decompressed size, number of sitemaps, depth, URL count."""


class WriteError(SitemapError):
    """Entries cannot be written in the requested format (for example an invalid URL)."""


class LimitOptionError(WriteError, ValueError):
    """``max_urls``/``max_file_bytes`` outside what the protocol allows (a usage error)."""


class UsageError(SitemapError, ValueError):
    """The caller's options or arguments are wrong or do not fit together, as opposed to
    bad input: a bad IndexNow key or endpoint, a ping template without ``{}``, notify
    options that contradict each other. The command line exits with status 2."""


class UnknownFormat(UsageError):
    """A format name that no reader or writer has (a usage error, not bad input)."""


class SitemapUrlError(UsageError):
    """A sitemap URL that cannot go on a ``Sitemap:`` line (a usage error, not bad input)."""


class PartialError(SitemapError):
    """Some sources or followed child sitemaps failed, and the caller asked for all or nothing.

    ``failures`` lists ``(source, reason)`` pairs.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        failures: list[tuple[str, str]] | None = None,
    ) -> None:
        self.failures = list(failures or ())
        super().__init__(message, source=source)


class DocumentConsumedError(SitemapError):
    """A Document was iterated again after it was read to the end, or after it was closed."""


class SitemapWarning(UserWarning):
    """A problem that does not stop reading or writing: a bad date, a skipped line, lost data."""
