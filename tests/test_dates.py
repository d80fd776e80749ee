"""The hand-written RFC 822 formatter against the standard library's, value for value."""

from __future__ import annotations

import datetime as dt
from email.utils import format_datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemapconv._dates import format_rfc822, parse_rfc822

_ZONES = st.one_of(
    st.none(),
    st.builds(
        dt.timezone,
        st.timedeltas(min_value=dt.timedelta(hours=-23), max_value=dt.timedelta(hours=23)),
    ),
)


def _library(when: dt.datetime) -> str:
    if when.tzinfo is None:
        return format_datetime(when.replace(tzinfo=dt.timezone.utc)).replace("+0000", "-0000")
    return format_datetime(when)


@given(st.datetimes(timezones=_ZONES))
def test_same_text_as_email_utils(when: dt.datetime) -> None:
    assert format_rfc822(when) == _library(when)


def test_known_values() -> None:
    plus2 = dt.timezone(dt.timedelta(hours=2))
    assert format_rfc822(dt.datetime(2024, 5, 1, 10, 0, 7, tzinfo=plus2)) == (
        "Wed, 01 May 2024 10:00:07 +0200"
    )
    assert format_rfc822(dt.datetime(2024, 5, 1, 10, 0)) == "Wed, 01 May 2024 10:00:00 -0000"
    assert format_rfc822(dt.date(7, 1, 2)) == "Tue, 02 Jan 0007 00:00:00 -0000"


def test_unknown_zone_round_trips_naive() -> None:
    naive = dt.datetime(2024, 5, 1, 10, 0)
    assert parse_rfc822(format_rfc822(naive)) == naive


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2100, 1, 1)),
    st.sampled_from(["GMT", "UT", "Z", "+0000", "-0000", "+0530", "-0800", "EST", "PDT"]),
    st.booleans(),
)
def test_rfc822_fast_path_agrees_with_the_email_parser(
    when: dt.datetime, zone: str, weekday: bool
) -> None:
    """The one RFC 822 parser's regex fast path gives what email.utils gives."""
    from email.utils import parsedate_to_datetime

    text = when.strftime("%d %b %Y %H:%M:%S") + f" {zone}"
    if weekday:
        text = when.strftime("%a, ") + text
    expected = parsedate_to_datetime(text.replace(" Z", " GMT"))
    got = parse_rfc822(text)
    assert got == expected
    assert (got.tzinfo is None) == (expected.tzinfo is None)
    assert got.utcoffset() == expected.utcoffset()
