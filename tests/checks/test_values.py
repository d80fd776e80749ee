"""The value rules (``_checks/values``): lastmod, priority and changefreq of one <url>."""

from __future__ import annotations

import pytest

from .conftest import Check, urlset

URL = "https://example.com/a"


@pytest.mark.parametrize(
    ("child", "rule", "severity"),
    [
        ("<lastmod>2024-13-01</lastmod>", "lastmod-format", "error"),  # no 13th month
        ("<lastmod>2024-01-01T10:00</lastmod>", "lastmod-format", "error"),  # no time zone
        ("<lastmod>2999-01-01</lastmod>", "lastmod-future", "warning"),
        ("<lastmod></lastmod>", "empty-tag", "error"),
        ("<priority>1.5</priority>", "priority", "error"),  # 0.0 to 1.0 only
        ("<priority>high</priority>", "priority", "error"),
        ("<changefreq>sometimes</changefreq>", "changefreq", "error"),
    ],
)
def test_each_bad_value_is_one_finding_on_its_line(
    check: Check, child: str, rule: str, severity: str
) -> None:
    found = check("s.xml", urlset("", "", f"<url><loc>{URL}</loc>{child}</url>"))
    assert found == [(rule, severity, 5, URL)]


@pytest.mark.parametrize(
    "child",
    [
        "<lastmod>2024-01-01</lastmod>",
        "<lastmod>2024-01-01T10:00:00+02:00</lastmod>",
        "<lastmod>2024-01-01T10:00:00.5Z</lastmod>",
        "<priority>0.0</priority>",
        "<priority>1.0</priority>",
        "<changefreq>never</changefreq>",
    ],
)
def test_good_values_give_no_finding(check: Check, child: str) -> None:
    assert check("s.xml", urlset(f"<url><loc>{URL}</loc>{child}</url>")) == []


def test_the_future_is_counted_from_the_clock_with_some_allowance(check: Check) -> None:
    # Ten minutes of clock skew are allowed; a date a day ahead is not.
    import datetime as dt

    soon = dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=2)
    tomorrow = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)
    found = check(
        "s.xml",
        urlset(
            f"<url><loc>{URL}</loc><lastmod>{soon:%Y-%m-%dT%H:%M:%S}Z</lastmod></url>",
            f"<url><loc>{URL}/b</loc><lastmod>{tomorrow:%Y-%m-%dT%H:%M:%S}Z</lastmod></url>",
        ),
    )
    assert found == [("lastmod-future", "warning", 4, f"{URL}/b")]
