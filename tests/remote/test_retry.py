"""The shared retry policy: which answers are retried, and how long to wait."""

from __future__ import annotations

import datetime as dt

import pytest

from sitemapconv._options import ReadOptions
from sitemapconv._retry import is_retryable, parse_retry_after, retry_delay, send_with_retries

NOW = dt.datetime(2024, 5, 1, 12, 0, 0, tzinfo=dt.timezone.utc)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("0", 0.0),
        ("7", 7.0),
        (" 120 ", 120.0),
        ("Wed, 01 May 2024 12:00:30 GMT", 30.0),
        ("Wed, 01 May 2024 11:00:00 GMT", 0.0),  # in the past: now
        (None, None),
        ("", None),
        ("soon", None),
        ("-5", None),
        ("1.5", None),  # RFC 9110: delay-seconds is an integer
    ],
)
def test_parse_retry_after(value: str | None, seconds: float | None) -> None:
    assert parse_retry_after(value, NOW) == seconds


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        *[(None, True), (429, True), (500, True), (503, True), (599, True)],
        *[(200, False), (400, False), (403, False), (404, False), (422, False)],
    ],
)
def test_is_retryable(status: int | None, expected: bool) -> None:
    assert is_retryable(status) is expected


def test_backoff_is_exponential_and_capped() -> None:
    opts = ReadOptions(retries=10, backoff=0.5, max_retry_after=3.0)
    delays = [retry_delay(n, 503, None, opts, now=NOW) for n in range(1, 6)]
    assert delays == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_attempts_are_bounded_by_retries() -> None:
    opts = ReadOptions(retries=2, backoff=0.1)
    assert retry_delay(1, None, None, opts) == 0.1
    assert retry_delay(2, None, None, opts) == 0.2
    assert retry_delay(3, None, None, opts) is None


def test_final_answers_are_not_retried() -> None:
    opts = ReadOptions(retries=5)
    for status in (200, 202, 400, 403, 422):
        assert retry_delay(1, status, "0", opts) is None


def test_retry_after_wins_over_backoff() -> None:
    opts = ReadOptions(retries=3, backoff=0.5, max_retry_after=60.0)
    assert retry_delay(1, 429, "7", opts, now=NOW) == 7.0
    assert retry_delay(1, 503, "Wed, 01 May 2024 12:00:10 GMT", opts, now=NOW) == 10.0
    assert retry_delay(1, 429, "garbage", opts, now=NOW) == 0.5


def test_retry_after_beyond_the_max_wait_gives_up() -> None:
    opts = ReadOptions(retries=3, max_retry_after=60.0)
    assert retry_delay(1, 429, "61", opts, now=NOW) is None
    assert retry_delay(1, 429, "60", opts, now=NOW) == 60.0


class _Answer:
    def __init__(self, status: int, retry_after: str | None = None) -> None:
        self.status_code = status
        self.headers = {"retry-after": retry_after} if retry_after is not None else {}


def test_send_with_retries_sleeps_as_the_policy_says() -> None:
    answers = iter([_Answer(503), _Answer(429, "4"), _Answer(200)])
    slept: list[float] = []
    answer, error, count = send_with_retries(
        lambda: next(answers),
        ReadOptions(retries=3, backoff=0.25),
        transport_errors=(OSError,),
        sleep=slept.append,
    )
    assert answer is not None and answer.status_code == 200
    assert error is None
    assert count == 3
    assert slept == [0.25, 4.0]


def test_send_with_retries_reports_the_last_transport_error() -> None:
    calls = 0

    def fail() -> _Answer:
        nonlocal calls
        calls += 1
        raise ConnectionRefusedError(f"refused {calls}")

    slept: list[float] = []
    answer, error, count = send_with_retries(
        fail, ReadOptions(retries=2, backoff=1.0), transport_errors=(OSError,), sleep=slept.append
    )
    assert answer is None
    assert str(error) == "refused 3"
    assert count == 3
    assert slept == [1.0, 2.0]
