"""Turning command-line option values into library options.

Kept apart from :mod:`sitemapconv._cli.main` so that the command module holds only the option
declarations and the dispatch; every function here raises ``typer.BadParameter`` for a
value the user must fix (exit code 2) and returns plain library objects.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import typer

from .._dates import parse_w3c
from .._filters import SORT_KEYS
from .._model import When
from .._options import DEFAULT_MAX_BYTES, ReadOptions
from .._registry import canonical, get_reader, get_writer, reader_names, writer_names
from .._version import __version__


class MissingValue(typer.BadParameter):
    """A usage error (exit 2) for something the user left out: no "Invalid value for" prefix."""

    def format_message(self) -> str:
        return self.message


def list_formats(value: bool) -> None:
    """``--list-formats``: every reader and writer with its aliases, then exit."""
    if not value:
        return
    print("Readers:")
    for name in reader_names():
        cls = get_reader(name)
        aliases = f" (aliases: {', '.join(cls.aliases)})" if cls.aliases else ""
        print(f"  {name}{aliases}")
    print("Writers:")
    for name in writer_names():
        wcls = get_writer(name)
        aliases = f" (aliases: {', '.join(wcls.aliases)})" if wcls.aliases else ""
        exts = f" [{', '.join(wcls.extensions)}]" if wcls.extensions else ""
        print(f"  {name}{aliases}{exts}")
    raise typer.Exit(0)


def show_version(value: bool) -> None:
    if value:
        print(f"sitemapconv {__version__}")
        raise typer.Exit(0)


def date_value(value: str | None, name: str) -> When | None:
    """Parse ``--since``/``--until`` as W3C Datetime."""
    if value is None:
        return None
    when = parse_w3c(value)
    if when is None:
        raise typer.BadParameter(
            f"{value!r} is not a date (use YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+hh:mm)",
            param_hint=name,
        )
    return when


def sort_value(value: str | None) -> str | None:
    if value is None or value in SORT_KEYS:
        return value
    raise typer.BadParameter(f"{value!r} is not one of: {', '.join(SORT_KEYS)}")


def read_options(
    *,
    follow: bool,
    include: Sequence[str] | None,
    concurrency: int,
    timeout: float,
    retries: int,
    user_agent: str | None,
    headers: Sequence[str] | None,
    max_depth: int,
    max_sitemaps: int,
    allow_private: bool,
    max_bytes: int | None,
    forward_headers: bool,
    cache: str | None,
    cache_max_bytes: int,
    trust_index_lastmod: bool,
) -> ReadOptions:
    """The library's read options from the input, remote-sitemap and cache flags.

    ``follow`` and ``fetch`` are imported only when their options are used: a plain local
    conversion should not pay for them at start-up.
    """
    if not math.isfinite(timeout):
        raise typer.BadParameter(
            f"{timeout} is not a number of seconds (give a finite value such as 30)",
            param_hint="--timeout",
        )
    sitemap_filter = None
    if include:
        from .._follow.policy import include_filter

        try:
            sitemap_filter = include_filter(include)
        except re.error as exc:
            raise typer.BadParameter(
                f"invalid pattern ({exc})", param_hint="--include-sitemap"
            ) from None
    parsed_headers: dict[str, str] = {}
    if headers:
        from .._fetch import parse_header

        try:
            parsed_headers = dict(parse_header(h) for h in headers)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="-H/--header") from None
        for name, value in parsed_headers.items():
            if not (name + value).isascii():
                # HTTP/1.1 header fields are ASCII (RFC 9110 §5.5); httpx refuses the rest.
                raise typer.BadParameter(
                    f"{name}: the header must be ASCII (percent-encode other characters)",
                    param_hint="-H/--header",
                )
    if cache is not None and not cache.strip():
        raise typer.BadParameter("give the cache folder", param_hint="--cache")
    if trust_index_lastmod and (cache is None or not follow):
        raise typer.BadParameter(
            "goes with --cache DIR and --follow", param_hint="--trust-index-lastmod"
        )
    return ReadOptions(
        follow=follow,
        sitemap_filter=sitemap_filter,
        concurrency=concurrency,
        timeout=timeout,
        retries=retries,
        user_agent=user_agent,
        headers=parsed_headers,
        max_depth=max_depth,
        max_sitemaps=max_sitemaps,
        block_private=not allow_private,
        max_bytes=max_bytes if max_bytes is not None else DEFAULT_MAX_BYTES,
        forward_headers=forward_headers,
        cache=cache,
        cache_max_bytes=cache_max_bytes,
        trust_index_lastmod=trust_index_lastmod and cache is not None,
    )


def output_format(to: str | None, output: str) -> str:
    """The writer's name from ``-t``, else from ``-o``'s extension."""
    from .._registry import writer_for_filename

    if to is not None:
        return canonical(to)
    found = writer_for_filename(output) if output != "-" else None
    if found is None:
        # Nothing invalid was given, so not BadParameter ("Invalid value for -t/--to"): say
        # what is missing.
        where = "stdout" if output == "-" else repr(output)
        raise MissingValue(
            f"no output format for {where}: give -t FORMAT (xml, rss, atom, txt...), "
            "or -o FILE with a known extension (.xml, .rss, .atom, .txt...)"
        )
    return found


def part_name_value(value: str | None) -> str | None:
    """``--part-name`` is a file name stem: parts never leave the output's folder."""
    from .._split import check_part_name
    from ..errors import WriteError

    try:
        return check_part_name(value)
    except WriteError as exc:
        raise typer.BadParameter(exc.reason) from None


def split_choice(fmt: str, output: str, no_split: bool) -> bool:
    """Sitemap output to a file is split at the protocol's limits unless ``--no-split``.

    stdout cannot be split: the writer only warns there when a limit is broken, as it does
    with ``--no-split``.
    """
    return fmt == "xml" and output != "-" and not no_split
