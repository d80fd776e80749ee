"""The sitemaps.org protocol's per-file limits and the check of the configured ones.

Every sitemap file (urlset, index or text) may hold at most 50,000 URLs and 52,428,800
uncompressed bytes. ``WriteOptions.max_urls`` / ``max_file_bytes`` may lower these limits (to
leave headroom, or to test splitting quickly) but never raise them: a file over the protocol
limits is ignored by search engines, so asking for one is a usage error.
"""

from __future__ import annotations

from collections.abc import Callable

from ._options import WriteOptions
from .errors import LimitOptionError as LimitOptionError  # raised here; imported from here too

#: At most this many ``<url>``/``<sitemap>`` elements or text lines per file.
PROTOCOL_MAX_URLS = 50_000
#: At most this many uncompressed bytes per file (50 MiB).
PROTOCOL_MAX_BYTES = 52_428_800
#: XSD ``maxLength`` of a ``loc``; the protocol text says "less than 2,048", so writers
#: warn at exactly this length and skip longer ones.
MAX_LOC_LENGTH = 2048
#: XSD ``minLength`` of a ``loc``.
MIN_LOC_LENGTH = 12


def check_limits(options: WriteOptions, source: str | None = None) -> tuple[int, int]:
    """Return ``(max_urls, max_file_bytes)`` after checking they stay within the protocol."""
    max_urls, max_bytes = options.max_urls, options.max_file_bytes
    if not isinstance(max_urls, int) or not 1 <= max_urls <= PROTOCOL_MAX_URLS:
        raise LimitOptionError(
            f"max_urls must be between 1 and {PROTOCOL_MAX_URLS:,} (got {max_urls!r}); "
            "the protocol limit can only be lowered",
            source=source,
        )
    if not isinstance(max_bytes, int) or not 1 <= max_bytes <= PROTOCOL_MAX_BYTES:
        raise LimitOptionError(
            f"max_file_bytes must be between 1 and {PROTOCOL_MAX_BYTES:,} (got {max_bytes!r}); "
            "the protocol limit can only be lowered",
            source=source,
        )
    return max_urls, max_bytes


#: Said to CLI and library users alike: no flag or keyword of either is named.
SPLIT_HINT = "to get parts and an index, write to a file with splitting enabled"


def over_limits_message(
    count: int,
    size: int,
    max_urls: int,
    max_bytes: int,
    *,
    noun: str = "URLs",
    hint: str = SPLIT_HINT,
) -> str | None:
    """A warning text when a single written file broke a limit, else None."""
    problems = []
    if count > max_urls:
        problems.append(f"{count:,} {noun} (limit {max_urls:,})")
    if size > max_bytes:
        problems.append(f"{size:,} bytes (limit {max_bytes:,})")
    if not problems:
        return None
    return f"output holds {' and '.join(problems)}: search engines ignore such a file; {hint}"


def warn_written(
    warn: Callable[[str], object],
    count: int,
    size: int,
    max_urls: int,
    max_bytes: int,
    *,
    empty: str,
    noun: str = "URLs",
    hint: str = SPLIT_HINT,
) -> None:
    """The warnings about one written sitemap file: ``empty`` when it holds nothing, and
    :func:`over_limits_message` when it broke a limit."""
    if count == 0:
        warn(empty)
    message = over_limits_message(count, size, max_urls, max_bytes, noun=noun, hint=hint)
    if message is not None:
        warn(message)
