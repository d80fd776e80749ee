"""Value rules for ``lastmod``, ``priority`` and ``changefreq`` (sitemaps.org
protocol, "XML tag definitions"; W3C Datetime, https://www.w3.org/TR/NOTE-datetime).

A lastmod that is not W3C Datetime is reported with the form it *is* in ("RFC 822 date",
"datetime without time zone", ...), because that tells the site owner which setting of
their generator to change.
"""

from __future__ import annotations

import datetime as _dt
import re

from .._dates import parse_rfc822, parse_w3c
from .._model import CHANGEFREQS, When
from .._problems import Collector

# The six W3C Datetime forms, exactly.
_W3C = re.compile(
    r"^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$"
)
_DATE = r"\d{4}-\d{1,2}-\d{1,2}"
_TIME = r"\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?"
_OFFSET_NO_COLON = re.compile(rf"^{_DATE}[Tt ]{_TIME}([+-]\d{{4}})$")
_NO_ZONE = re.compile(rf"^{_DATE}[Tt ]{_TIME}$")
_SPACE_T = re.compile(rf"^{_DATE} +\d")
_COMMON = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?$")
_DECIMAL = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$")

W3C_HINT = "a W3C Datetime such as 2024-05-01 or 2024-05-01T10:30:00+00:00"


def lastmod_form(text: str) -> str:
    """Name the form of a date string that is not W3C Datetime, in plain words."""
    s = text.strip()
    if parse_rfc822(s) is not None and re.search(r"[A-Za-z]{3}", s):
        return "an RFC 822 date (the RSS form); sitemaps need W3C Datetime"
    forms: list[str] = []
    m = _OFFSET_NO_COLON.match(s)
    if m:
        off = m.group(1)
        forms.append(f"a '{off}' offset without colon (write {off[:3]}:{off[3:]})")
    elif _NO_ZONE.match(s):
        forms.append("a datetime without time zone (add Z or +hh:mm)")
    if _SPACE_T.match(s):
        forms.append("a space instead of 'T' between date and time")
    if re.match(rf"^{_DATE}t", s) or s.endswith("z"):
        forms.append("a lowercase 't' or 'z'")
    if re.match(rf"^{_DATE}[Tt ]\d{{1,2}}:\d{{2}}(?:[Zz]|[+-]|$)", s):
        forms.append("a time without seconds (sitemap.xsd needs hh:mm:ss)")
    if re.search(r":\d{2},\d", s):
        forms.append("a decimal comma in the seconds")
    if forms:
        return ", ".join(forms)
    if re.fullmatch(r"\d{9,}(\.\d+)?", s):
        return "a Unix timestamp"
    if re.fullmatch(r"\d{1,4}[/.]\d{1,2}[/.]\d{1,4}.*", s):
        return "a date with slashes or dots"
    if re.fullmatch(r"\d{4}-\d{2}(-\d{2})?(T.*)?", s):
        return "not a real calendar date or time"
    return "not a date"


def check_lastmod(
    out: Collector,
    text: str | None,
    *,
    line: int | None,
    url: str | None,
    now: _dt.datetime,
    tag: str = "lastmod",
) -> None:
    """W3C form, sitemap.xsd acceptance, and not in the future."""
    s = (text or "").strip()
    if not s:
        out.error("empty-tag", f"<{tag}> is empty: give a date or remove the tag", **_at(line, url))
        return
    if _COMMON.match(s):  # the usual forms: valid everywhere once the date is real
        value = parse_w3c(s)
        if value is not None:
            check_future(out, value, s, line=line, url=url, now=now, tag=tag)
            return
    value = parse_w3c(s)
    if not _W3C.match(s) or value is None:
        form = "not a real calendar date or time" if _W3C.match(s) else lastmod_form(s)
        out.error(
            "lastmod-format",
            f"<{tag}> must be {W3C_HINT}; '{s}' is {form}",
            **_at(line, url),
        )
    elif _xsd_rejects(s):
        out.warning(
            "lastmod-xsd",
            f"<{tag}> '{s}' is W3C Datetime but sitemap.xsd rejects it: use YYYY-MM-DD or "
            "a time with seconds (YYYY-MM-DDThh:mm:ss+hh:mm)",
            **_at(line, url),
        )
    if value is not None:
        check_future(out, value, s, line=line, url=url, now=now, tag=tag)


def check_future(
    out: Collector,
    value: When,
    text: str,
    *,
    line: int | None,
    url: str | None,
    now: _dt.datetime,
    tag: str,
) -> None:
    if _in_future(value, now):
        out.warning(
            "lastmod-future",
            f"<{tag}> '{text}' is in the future; it must be the time the page last changed",
            **_at(line, url),
        )


def _xsd_rejects(s: str) -> bool:
    """The W3C forms sitemap.xsd (xsd:date | xsd:dateTime) does not accept."""
    if len(s) < 10:
        return True  # YYYY or YYYY-MM
    return "T" in s and re.match(r"^.{10}T\d{2}:\d{2}(?:Z|[+-])", s) is not None


def _in_future(value: When, now: _dt.datetime) -> bool:
    """After ``now`` (with 10 minutes of clock skew; a date: the day after tomorrow in UTC,
    since the earliest time zone is UTC+14)."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        return value > now
    return value > now.date() + _ONE_DAY


_ONE_DAY = _dt.timedelta(days=1)


def check_priority(out: Collector, text: str | None, *, line: int | None, url: str | None) -> None:
    s = (text or "").strip()
    if not s:
        out.error(
            "empty-tag", "<priority> is empty: give a value or remove the tag", **_at(line, url)
        )
        return
    rule = "<priority> must be a decimal between 0.0 and 1.0"
    if not _DECIMAL.match(s):
        if _DECIMAL.match(s.replace(",", ".", 1)):
            kind = "uses a decimal comma (write a point)"
        else:
            try:
                float(s)
                kind = "is not a plain decimal"
            except ValueError:
                kind = "is not a number"
        out.error("priority", f"{rule}; '{s}' {kind}", **_at(line, url))
    elif not 0.0 <= float(s) <= 1.0:
        out.error("priority", f"{rule}; '{s}' is outside that range", **_at(line, url))


def check_changefreq(
    out: Collector, text: str | None, *, line: int | None, url: str | None
) -> None:
    s = (text or "").strip()
    if not s:
        out.error(
            "empty-tag", "<changefreq> is empty: give a value or remove the tag", **_at(line, url)
        )
        return
    if s in CHANGEFREQS:
        return
    allowed = "always, hourly, daily, weekly, monthly, yearly or never"
    hint = " (lowercase)" if s.lower() in CHANGEFREQS else ""
    out.error(
        "changefreq", f"<changefreq> must be one of {allowed}{hint}; found '{s}'", **_at(line, url)
    )


def _at(line: int | None, url: str | None) -> dict[str, object]:
    return {"line": line, "url": url}
