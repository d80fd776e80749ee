"""When to try an HTTP request again, and after how long: one policy for every sender.

The policy is a pure function so that IndexNow submission, pings and remote fetching share it
and it can be tested without a clock. It retries transport failures (``status is None``),
``429 Too Many Requests`` and ``5xx`` answers, at most ``options.retries`` times. The wait is
exponential (``backoff * 2**(attempt - 1)``, no jitter so runs are reproducible), capped at
``max_retry_after``. A ``Retry-After`` header (delta-seconds or an HTTP date) wins over the
backoff; when it asks for longer than ``max_retry_after`` we give up instead of retrying
early, because retrying before the server allows only earns another refusal.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from ._options import ReadOptions

#: Statuses worth another try besides 5xx: the server asked us to slow down.
RETRY_STATUSES = frozenset({429})


def is_retryable(status: int | None) -> bool:
    """True for a transport failure (``None``), 429 and any 5xx."""
    return status is None or status in RETRY_STATUSES or 500 <= status <= 599


def parse_retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value, or ``None`` when absent or unreadable.

    Accepts delta-seconds (``"120"``) and an HTTP date (``"Wed, 21 Oct 2015 07:28:00 GMT"``);
    a date in the past means "now" (0 seconds).
    """
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isdigit():
        return float(int(text))
    from email.utils import parsedate_to_datetime  # only when a date is given

    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT
        when = when.replace(tzinfo=dt.timezone.utc)
    current = now or dt.datetime.now(dt.timezone.utc)
    return max(0.0, (when - current).total_seconds())


def retry_delay(
    attempt: int,
    status: int | None,
    retry_after: str | None,
    options: ReadOptions,
    *,
    now: dt.datetime | None = None,
) -> float | None:
    """Seconds to wait before attempt ``attempt + 1``, or ``None`` to stop trying.

    ``attempt`` counts the attempts already made (1 after the first request). ``status`` is
    the HTTP status of the last answer, or ``None`` when the request failed in transport.
    """
    if not is_retryable(status) or attempt > options.retries:
        return None
    asked = parse_retry_after(retry_after, now) if status is not None else None
    if asked is not None:
        return asked if asked <= options.max_retry_after else None
    return float(min(options.backoff * 2 ** (attempt - 1), options.max_retry_after))


class Answer(Protocol):
    """What the policy needs from a response (an ``httpx.Response`` fits)."""

    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> object: ...


A = TypeVar("A", bound=Answer)


def send_with_retries(
    send: Callable[[], A],
    options: ReadOptions,
    *,
    transport_errors: tuple[type[BaseException], ...],
    final_errors: tuple[type[BaseException], ...] = (),
    sleep: Callable[[float], None] = time.sleep,
) -> tuple[A | None, BaseException | None, int]:
    """Call ``send`` until it gives a final answer; return (answer, transport error, attempts).

    Exactly one of answer and error is set. Exceptions of ``transport_errors`` count as a
    failed attempt; those of ``final_errors`` (a refusal by the door) end the tries at once;
    anything else propagates.
    """
    attempt = 0
    while True:
        attempt += 1
        answer: A | None = None
        error: BaseException | None = None
        try:
            answer = send()
        except final_errors as exc:
            return None, exc, attempt
        except transport_errors as exc:
            error = exc
        status = answer.status_code if answer is not None else None
        retry_after = _header(answer, "retry-after") if answer is not None else None
        delay = retry_delay(attempt, status, retry_after, options)
        if delay is None:
            return answer, error, attempt
        sleep(delay)


def _header(answer: Answer, name: str) -> str | None:
    getter = getattr(answer.headers, "get", None)
    value = getter(name) if getter is not None else None
    return value if isinstance(value, str) else None
