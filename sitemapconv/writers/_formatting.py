"""Turning model values into output text that is always valid: URLs, text, numbers.

The ONE formatting path of every writer (sitemap, index, text, RSS, Atom, Atom 0.3, and the
URL columns of CSV), so that each bad value gets the same treatment in every format:

* A ``loc`` is stripped, cleaned of characters XML 1.0 forbids, percent-encoded (RFC 3986,
  no double encoding), and must then be an absolute http(s) URL of at most 2,048 characters.
  An entry whose loc fails is **skipped with a warning** rather than aborting the run: a
  converter should deliver every good URL of a big input, and the warning names the bad one.
  A loc of exactly 2,048 characters is kept with a warning (the protocol says "less than").
* Any other URL (an image, a video, a feed link) that cannot be parsed (a broken IPv6
  literal...) is **skipped with a warning**, and so is the element that needs it: it never
  aborts the run and is never written as given.
* When every entry of a non-empty input was skipped for its loc, the output would be an empty
  document that says nothing of why: :meth:`ValueFormatter.finish` makes that a
  :class:`~sitemapconv.errors.WriteError` giving the reason, raised before anything is
  written (filters that select nothing are not concerned: no entry reached the writer).
* Text has forbidden characters removed (one warning per run) and is XML-escaped.
* A decimal (priority, rating) keeps one decimal place ("0.8") unless the value has more
  precision ("0.85"), and never uses an exponent, which ``xsd:decimal`` rejects.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from urllib.parse import urlsplit

from .._limits import MAX_LOC_LENGTH, MIN_LOC_LENGTH
from .._urls import encode_url
from .._xmltext import escape, has_forbidden, strip_forbidden
from ..errors import WriteError
from . import WriteContext

_HTTP_URL = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://[^/?#\s]")
# An absolute http(s) URL made only of characters RFC 3986 allows unescaped (no "%"): such a
# loc needs neither cleaning nor encoding. One scan instead of four on the hot path.
# Brackets (an IPv6 literal) take the checked path, where a broken literal is caught.
CLEAN_HTTP_URL = re.compile(
    r"[Hh][Tt][Tt][Pp][Ss]?://[-\w.~:@!$&'()*+,;=][-\w.~:/?#@!$&'()*+,;=]*", re.ASCII
)


def _short(url: str) -> str:
    return repr(url if len(url) <= 100 else url[:97] + "...")


def decimal_text(value: float) -> str:
    """``0.8`` / ``1.0`` for one decimal, else the shortest exact form, never an exponent."""
    if round(value, 1) == value:
        return f"{value:.1f}"
    text = repr(float(value))
    if "e" in text or "E" in text:
        # The shortest repr, written out in positional notation: still exact on reading back.
        text = format(Decimal(text), "f")
    return text


#: Entries skipped for their loc that are warned about one by one; then only counted.
SKIPS_SHOWN = 20


class ValueFormatter:
    """Cleans, encodes and escapes values for one write; warnings go to ``ctx``."""

    __slots__ = ("_decimals", "ctx", "first_skip", "relative", "skipped")

    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        self._decimals: dict[tuple[float, float, float], str | None] = {}
        #: Entries skipped for their loc, and the reason given for the first one.
        self.skipped = 0
        self.first_skip: str | None = None
        self.relative = False

    def _skip(self, message: str, *, relative: bool = False) -> None:
        self.skipped += 1
        self.relative = self.relative or relative
        if self.first_skip is None:
            self.first_skip = message.removeprefix("skipped ")
        if self.skipped <= SKIPS_SHOWN:
            self.ctx.warn(message)
        elif self.skipped == SKIPS_SHOWN + 1:
            self.ctx.warn("more entries skipped for their loc; the count comes at the end")

    def finish(self, written: int, format: str) -> None:
        """Refuse an output from which every entry was dropped: nothing is written then.

        Call before writing the document head (the writers spool their body). An empty
        input stays an empty (warned) document; only "all dropped" is an error.
        """
        n = self.skipped
        if written and n > SKIPS_SHOWN:
            self.ctx.warn(f"skipped {n:,} entries in all for their loc; wrote {written:,}")
        if written == 0 and n:
            raise WriteError(
                f"nothing to write: {'all ' if n > 1 else 'the '}{n:,} "
                f"entr{'ies' if n > 1 else 'y'} skipped because {format} output cannot "
                f"hold {'them' if n > 1 else 'it'} (the first: {self.first_skip})"
                + ("; give a base URL to resolve relative links" if self.relative else ""),
                source=self.ctx.dest,
            )

    def clean(self, text: str) -> str:
        """Remove characters XML 1.0 cannot carry, warning once per run."""
        if has_forbidden(text):
            self.ctx.warn_once(
                "forbidden-chars",
                "removed characters that XML 1.0 forbids (control characters, lone "
                "surrogates, U+FFFE/U+FFFF)",
            )
            return strip_forbidden(text)
        return text

    def text(self, value: str) -> str:
        """Cleaned and XML-escaped text."""
        return escape(self.clean(value))

    def plain_url(self, value: str, what: str = "URL") -> str | None:
        """A URL cleaned and percent-encoded (not XML-escaped); None after a warning."""
        cleaned = self.clean(value.strip())
        try:
            if "[" in cleaned:  # a clean-looking URL can still hold a broken IPv6 literal
                urlsplit(cleaned)
            return encode_url(cleaned)
        except ValueError as exc:  # urlsplit on a broken IPv6 literal and the like
            self.ctx.warn(f"skipped the {what} {_short(cleaned)}: not a valid URL ({exc})")
            return None

    def url(self, value: str, what: str = "URL") -> str | None:
        """A URL that is not the loc: cleaned, percent-encoded, XML-escaped.

        None (after a warning) when it cannot be parsed: the caller leaves out the value, or
        the element that needs it.
        """
        encoded = self.plain_url(value, what)
        return None if encoded is None else escape(encoded)

    def loc(self, raw: object) -> str | None:
        """The percent-encoded loc (not XML-escaped), or None after a warning: skip the entry."""
        if (
            isinstance(raw, str)
            and CLEAN_HTTP_URL.fullmatch(raw) is not None
            and MIN_LOC_LENGTH <= len(raw) < MAX_LOC_LENGTH
        ):
            return raw
        return self._checked_loc(raw)

    def _checked_loc(self, raw: object) -> str | None:
        if not isinstance(raw, str) or not raw.strip():
            self._skip("skipped an entry without a loc")
            return None
        try:
            cleaned = self.clean(raw)
            if "[" in cleaned:  # a clean-looking URL can still hold a broken IPv6 literal
                urlsplit(cleaned.strip())
            url = encode_url(cleaned)
        except ValueError as exc:
            self._skip(f"skipped {_short(raw)}: not a valid URL ({exc})")
            return None
        if _HTTP_URL.match(url) is None:
            self._skip(f"skipped {_short(raw)}: not an absolute http(s) URL", relative=True)
            return None
        n = len(url)
        if n >= MAX_LOC_LENGTH:
            if n > MAX_LOC_LENGTH:
                self._skip(
                    f"skipped {_short(url)}: {n} characters once encoded "
                    f"(the protocol allows fewer than {MAX_LOC_LENGTH})"
                )
                return None
            self.ctx.warn(
                f"{_short(url)} is exactly {MAX_LOC_LENGTH} characters long "
                "(the protocol asks for fewer)"
            )
        elif n < MIN_LOC_LENGTH:
            self.ctx.warn_once(
                "short-loc", f"{url!r} is shorter than the {MIN_LOC_LENGTH} characters the XSD asks"
            )
        return url

    def decimal(self, value: float, low: float, high: float, what: str) -> str | None:
        """A decimal in [low, high] as text, or None (with one warning) when out of range."""
        key = (value, low, high)
        try:
            return self._decimals[key]
        except KeyError:
            pass
        text: str | None = None
        if isinstance(value, (int, float)) and math.isfinite(value) and low <= value <= high:
            text = decimal_text(value)
        else:
            self.ctx.warn_once(
                f"bad-{what}", f"dropped {what} values outside {low}..{high} (first: {value!r})"
            )
        self._decimals[key] = text
        return text
