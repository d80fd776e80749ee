"""The hand-written RFC 822 formatter against the standard library's, value for value."""

from __future__ import annotations

import datetime as dt
from email.utils import format_datetime

from hypothesis import given
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
