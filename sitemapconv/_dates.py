"""Parsing and formatting the date forms the formats use: W3C Datetime, RFC 822, RFC 3339.

Zone policy (one rule, everywhere): a datetime whose source gave **no zone** is returned
**naive** and is never assigned one. Writers keep it zone-less where the target allows it
(sitemap ``lastmod``, Atom 0.3) and otherwise write the standard "offset unknown" forms:
RFC 822 ``-0000`` (RFC 5322 §3.3) and RFC 3339 ``-00:00`` (RFC 3339 §4.3). Reading those
forms back gives a naive datetime again, so the policy survives any round trip.

A date-only value (``2024-05-01``) is a :class:`datetime.date`. The W3C reduced forms
``YYYY`` and ``YYYY-MM`` become the first day of the period, as a date.

This is the one home of date parsing: each parser has its fast path for the form real files
use almost always (readers call :func:`parse_w3c` and :func:`parse_rfc822` per entry), and
no reader keeps a fast path of its own.
"""

from __future__ import annotations

import datetime as _dt
import re
import sys

from ._model import When

_UTC = _dt.timezone.utc
#: ``datetime.fromisoformat`` reads a trailing "Z" from Python 3.11 on.
_FROMISO_Z = sys.version_info >= (3, 11)

_W3C_RE = re.compile(
    r"""^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2})
        (?:[Tt\x20]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*
        ([Zz]|[+-]\d{2}(?::?\d{2})?)?)?)?)?\s*$""",
    re.VERBOSE,
)


def _zone(text: str | None) -> _dt.tzinfo | None:
    if text is None:
        return None
    if text in ("Z", "z"):
        return _UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if sign < 0 and hours == 0 and minutes == 0:
        return None  # "-00:00": offset unknown, kept naive
    return _dt.timezone(sign * _dt.timedelta(hours=hours, minutes=minutes))


def parse_w3c(text: str) -> When | None:
    """Parse a W3C Datetime (and the common deviations); None when it is not a date.

    Accepted besides the six W3C forms: a missing zone (naive result), ``±hhmm``, a space
    instead of ``T``, lowercase ``t``/``z``, a decimal comma, fractional seconds of any
    length, and ``hh:mm`` without seconds.
    """
    # Fast paths for the forms real sitemaps use almost always, the commonest first:
    # "2024-05-01T10:00:00+02:00", as it stands (no strip), straight through C.
    if (
        len(text) == 25
        and text[10] == "T"
        and text[22] == ":"
        and text[19] in "+-"
        and text[19:] != "-00:00"
    ):
        try:
            return _dt.datetime.fromisoformat(text)
        except ValueError:
            pass
    s = text.strip()
    n = len(s)
    if n == 10 and s[4] == "-" and s[7] == "-":
        try:
            return _dt.date.fromisoformat(s)
        except ValueError:
            return None
    if n >= 20 and s[10] == "T" and (s[-1] == "Z" or s[-6] in "+-") and s[-6:] != "-00:00":
        try:  # "2024-05-01T10:00:00+02:00", "2024-05-01T10:00:00Z": straight through C
            if s[-1] == "Z" and not _FROMISO_Z:
                return _dt.datetime.fromisoformat(s[:-1]).replace(tzinfo=_UTC)
            return _dt.datetime.fromisoformat(s)
        except ValueError:
            pass
    m = _W3C_RE.match(s)
    if m is None:
        return None
    year, month, day, hour, minute, second, frac, zone = m.groups()
    try:
        if hour is None:
            return _dt.date(int(year), int(month or 1), int(day or 1))
        micro = int((frac or "0")[:6].ljust(6, "0"))
        return _dt.datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second or 0),
            micro,
            tzinfo=_zone(zone),
        )
    except ValueError:
        return None


_MONTHS = {
    m: i
    for i, m in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
# The form almost every RSS feed writes (RSS 2.0 spec, "Elements of <item>": RFC 822 with a
# four-digit year); anything else goes to the email parser.
_RFC822_FAST = re.compile(
    r"(?:[A-Z][a-z]{2}, )?(\d{1,2}) ([A-Z][a-z]{2}) (\d{4}) (\d\d):(\d\d):(\d\d) "
    r"(GMT|UT|Z|\+0000|[+-](?!0000)\d{4})\Z"
)
_RFC822_ZONES: dict[str, _dt.tzinfo] = {"GMT": _UTC, "UT": _UTC, "Z": _UTC}


def _rfc822_zone(text: str) -> _dt.tzinfo:
    zone = _RFC822_ZONES.get(text)
    if zone is None:
        minutes = int(text[1:3]) * 60 + int(text[3:5])
        zone = _dt.timezone(_dt.timedelta(minutes=-minutes if text[0] == "-" else minutes))
        _RFC822_ZONES[text] = zone
    return zone


def parse_rfc822(text: str) -> _dt.datetime | None:
    """Parse an RFC 822/2822 date as RSS uses it; None when it is not one.

    Handles named zones (GMT, UT, EST, EDT, CST, CDT, MST, MDT, PST, PDT), numeric offsets,
    two-digit years and a missing weekday. ``-0000`` gives a naive datetime (offset unknown).
    The usual form (``Wed, 01 May 2024 10:00:00 GMT``) is read by one regular expression;
    the rest by :func:`email.utils.parsedate_to_datetime`, with the same results.
    """
    m = _RFC822_FAST.match(text)
    if m is not None:
        day, mon, year, hh, mm, ss, zone = m.groups()
        month = _MONTHS.get(mon)
        if month is not None:
            try:
                return _dt.datetime(
                    int(year), month, int(day), int(hh), int(mm), int(ss), tzinfo=_rfc822_zone(zone)
                )
            except ValueError:
                pass
    from email.utils import parsedate_to_datetime  # imported on first use: it is slow to load

    s = text.strip()
    if not s:
        return None
    try:
        return parsedate_to_datetime(s)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def parse_feed_date(text: str, *, rfc822: bool) -> tuple[When | None, str | None]:
    """Parse a feed date with every fallback; return it and how it was read.

    The form the element should hold is tried first (RFC 822 when ``rfc822``, else W3C),
    then the other standard form, then :func:`parse_loose`. How: ``"expected"``,
    ``"other"``, ``"loose"``, or None when nothing could read the text (the value is then
    None too). The readers word their warnings from it.
    """
    first, second = (parse_rfc822, parse_w3c) if rfc822 else (parse_w3c, parse_rfc822)
    when: When | None = first(text)
    if when is not None:
        return when, "expected"
    when = second(text)
    if when is not None:
        return when, "other"
    when = parse_loose(text)
    return when, None if when is None else "loose"


def parse_date(text: str) -> When | None:
    """Parse any date a feed may carry: W3C/ISO first, then RFC 822."""
    return parse_w3c(text) or parse_rfc822(text)


def format_w3c(when: When, *, date_only: bool = False) -> str:
    """W3C form valid under both the protocol and sitemap.xsd.

    A date stays a date; a datetime keeps its offset (UTC as ``+00:00``) and its fractional
    seconds; a naive datetime is written without a zone (never invented).
    """
    if not isinstance(when, _dt.datetime):
        return when.isoformat()
    if date_only:
        return when.date().isoformat()
    return when.isoformat(timespec="microseconds" if when.microsecond else "seconds")


def _as_datetime(when: When) -> _dt.datetime:
    if isinstance(when, _dt.datetime):
        return when
    return _dt.datetime(when.year, when.month, when.day)


_DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
#: Zone text by UTC offset, as ``strftime("%z")`` writes it.
_ZONE_TEXT: dict[_dt.timedelta | None, str] = {}


def format_rfc822(when: When) -> str:
    """RFC 822 (RFC 5322) date for RSS; ``-0000`` when the zone is unknown.

    The same text as :func:`email.utils.format_datetime`, formatted here directly: the
    library function goes through a time tuple and ``strftime`` for every date, several
    times slower on the hot path of an RSS writer.
    """
    dt = _as_datetime(when)
    if dt.tzinfo is None:
        zone = "-0000"
    else:
        offset = dt.utcoffset()
        found = _ZONE_TEXT.get(offset)
        if found is None:
            found = _ZONE_TEXT[offset] = dt.strftime("%z")
        zone = found
    return (
        f"{_DAY_NAMES[dt.weekday()]}, {dt.day:02d} {_MONTH_NAMES[dt.month - 1]} {dt.year:04d} "
        f"{dt.hour:02d}:{dt.minute:02d}:{dt.second:02d} {zone}"
    )


def format_rfc3339(when: When) -> str:
    """RFC 3339 date-time for Atom 1.0; ``-00:00`` when the zone is unknown."""
    dt = _as_datetime(when)
    text = dt.isoformat(timespec="microseconds" if dt.microsecond else "seconds")
    if dt.tzinfo is None:
        return text + "-00:00"
    return text.replace("+00:00", "Z") if text.endswith("+00:00") else text


def parse_loose(text: str) -> _dt.datetime | None:
    """Parse a date with feedparser's handlers, the last resort for a feed date.

    feedparser knows forms no standard allows (asctime, Korean, Greek and Hungarian month
    names, Perforce, RFC 822 with trailing junk...). Its handlers return UTC, so the result is
    an aware UTC datetime even when the text had no zone. feedparser is imported here, on the
    first loose date, so that ``import sitemapconv`` never loads it.
    """
    from feedparser.datetimes import _parse_date

    try:
        parsed = _parse_date(text)
    except Exception:  # a third-party handler must not stop reading
        return None
    if parsed is None:
        return None
    try:
        return _dt.datetime(*parsed[:6]).replace(tzinfo=_UTC)
    except (ValueError, TypeError):
        return None
