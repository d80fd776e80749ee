"""Turning model values into output text that is always valid: URLs, text, numbers.

Shared by the sitemap, index and text writers so that every format makes the same choices:

* A ``loc`` is stripped, cleaned of characters XML 1.0 forbids, percent-encoded (RFC 3986,
  no double encoding), and must then be an absolute http(s) URL of at most 2,048 characters.
  An entry whose loc fails is **skipped with a warning** rather than aborting the run: a
  converter should deliver every good URL of a big input, and the warning names the bad one.
  A loc of exactly 2,048 characters is kept with a warning (the protocol says "less than").
* Text has forbidden characters removed (one warning per run) and is XML-escaped.
* A decimal (priority, rating) keeps one decimal place ("0.8") unless the value has more
  precision ("0.85"), and never uses an exponent, which ``xsd:decimal`` rejects.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

from ..limits import MAX_LOC_LENGTH, MIN_LOC_LENGTH
from ..urls import encode_url
from ..xmltext import escape, has_forbidden, strip_forbidden
from . import WriteContext

_HTTP_URL = re.compile(r"[Hh][Tt][Tt][Pp][Ss]?://[^/?#\s]")
# An absolute http(s) URL made only of characters RFC 3986 allows unescaped (no "%"): such a
# loc needs neither cleaning nor encoding. One scan instead of four on the hot path.
CLEAN_HTTP_URL = re.compile(
    r"[Hh][Tt][Tt][Pp][Ss]?://[-\w.~:\[\]@!$&'()*+,;=][-\w.~:/?#\[\]@!$&'()*+,;=]*", re.ASCII
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


class ValueFormatter:
    """Cleans, encodes and escapes values for one write; warnings go to ``ctx``."""

    __slots__ = ("_decimals", "ctx")

    def __init__(self, ctx: WriteContext) -> None:
        self.ctx = ctx
        self._decimals: dict[tuple[float, float, float], str | None] = {}

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

    def url(self, value: str) -> str:
        """A URL inside an extension: cleaned, percent-encoded, XML-escaped (no checks)."""
        cleaned = self.clean(value.strip())
        try:
            return escape(encode_url(cleaned))
        except ValueError:  # urlsplit on a broken IPv6 literal and the like
            self.ctx.warn_once("bad-ext-url", f"kept the unparsable URL {_short(cleaned)} as given")
            return escape(cleaned)

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
            self.ctx.warn("skipped an entry without a loc")
            return None
        try:
            url = encode_url(self.clean(raw))
        except ValueError as exc:
            self.ctx.warn(f"skipped {_short(raw)}: not a valid URL ({exc})")
            return None
        if _HTTP_URL.match(url) is None:
            self.ctx.warn(f"skipped {_short(raw)}: not an absolute http(s) URL")
            return None
        n = len(url)
        if n >= MAX_LOC_LENGTH:
            if n > MAX_LOC_LENGTH:
                self.ctx.warn(
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
