"""When the Partner client tries a call again, and how long it waits first.

Two kinds of failure are waited out, each with its own budget from ``ClientOptions``:

* **429 rate_limited**: the service refused the request before doing anything, so every
  endpoint may repeat it. The wait is what the service asked for (``Retry-After`` header, else
  the body's ``retryAfterSeconds``, else ``RateLimit-Reset`` minus now), never less than a
  growing back-off floor (no tight loop, even on ``Retry-After: 0``), plus up to 20 % jitter so
  many chats do not return in the same instant. A wait longer than
  ``max_rate_limit_wait_seconds`` is not slept: the caller gets ``RateLimited`` with
  ``retry_after`` and can tell the user.
* **Upstream failures** (502, 503, 504, connect errors, time-outs): exponential back-off with
  full jitter, at most ``max_attempts`` attempts, and only as the endpoint's ``RetryPolicy``
  allows. Unlike a 429, a 5xx is no proof that nothing was done (the spec's 503
  ``create_failed`` is an "upstream failure", which may come after the delivery was made), so
  only a connection that could not even be opened counts as surely unsent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from email.utils import parsedate_to_datetime
from enum import Enum

from bot.partner import errors
from bot.partner.options import ClientOptions

UPSTREAM_STATUSES = frozenset({502, 503, 504})
RATE_LIMIT_JITTER = 0.2
# The shortest wait after a 429, whatever the headers say.
MIN_RATE_LIMIT_WAIT_SECONDS = 0.1
# RateLimit-Reset is a unix time in the spec; some servers send seconds instead. A value this
# small cannot be a current unix time, so it is read as seconds from now.
_UNIX_TIME_FLOOR = 1_000_000_000


class RetryPolicy(Enum):
    """How an endpoint may be repeated after an upstream failure."""

    #: GETs: reading twice changes nothing.
    READ = "read"
    #: cancel (a cancelled delivery stays cancelled): repeating a request that may have landed
    #: has the same effect as sending it once.
    IDEMPOTENT = "idempotent"
    #: create, assign and unassign: repeated only when the request surely never left this
    #: process. A create that may have landed is not repeated even with its idempotency key:
    #: the spec does not say the service deduplicates keys, so only a read-back can tell.
    UNSENT_ONLY = "unsent_only"


def is_upstream_failure(error: errors.PartnerError) -> bool:
    """True for the failures a later attempt may not see: 502/503/504, connect, time-out."""
    if isinstance(error, errors.ConnectionFailed | errors.RequestTimeout):
        return True
    return error.status in UPSTREAM_STATUSES


def may_retry(policy: RetryPolicy, error: errors.PartnerError, *, surely_unsent: bool) -> bool:
    """Whether ``policy`` allows another attempt after ``error``.

    ``surely_unsent`` is True only when the request never reached the network (the connection
    could not be opened), so even a non-idempotent request can be sent again.
    """
    if not is_upstream_failure(error):
        return False
    if policy is RetryPolicy.UNSENT_ONLY:
        return surely_unsent
    return True


def exponential_delay(attempt: int, base: float, cap: float) -> float:
    """``base * 2**(attempt-1)`` seconds, at most ``cap``: the back-off ceiling before attempt
    ``attempt + 1`` (also the follow-up of a lost create, ``bot.ordering.unconfirmed_worker``)."""
    exponent = min(max(attempt - 1, 0), 30)  # bounded so 2**n stays a small float
    return float(min(cap, base * 2**exponent))


def _exponential(attempt: int, options: ClientOptions) -> float:
    return exponential_delay(attempt, options.backoff_base_seconds, options.backoff_cap_seconds)


def backoff_delay(attempt: int, options: ClientOptions, rng: random.Random) -> float:
    """Full-jitter back-off before attempt ``attempt + 1``: uniform in [0, base * 2**(attempt-1)].

    Full jitter spreads the retries of many callers over the whole interval, which the service
    absorbs better than synchronised waves; the ceiling is ``backoff_cap_seconds``.
    """
    return rng.uniform(0.0, _exponential(attempt, options))


def _seconds(value: str | float | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if math.isfinite(seconds) else None


def _retry_after_header(value: str | None, now: float) -> float | None:
    if value is None:
        return None
    seconds = _seconds(value.strip())
    if seconds is None:
        # Retry-After may also be an HTTP date.
        try:
            seconds = parsedate_to_datetime(value).timestamp() - now
        except (TypeError, ValueError, IndexError):
            return None
    return max(seconds, 0.0)


def _reset_header(value: str | None, now: float) -> float | None:
    reset = _seconds(value.strip()) if value is not None else None
    if reset is None:
        return None
    wait = reset - now if reset >= _UNIX_TIME_FLOOR else reset
    return max(wait, 0.0)


def retry_after_hint(
    headers: Mapping[str, str], body_seconds: float | None, now: float
) -> float | None:
    """Seconds the service asked us to wait after a 429, or None when it did not say.

    Sources in order: the ``Retry-After`` header (seconds or an HTTP date), the body's
    ``retryAfterSeconds`` (passed in as ``body_seconds``), ``RateLimit-Reset`` minus ``now``.
    ``headers`` are looked up case-insensitively when they are an ``httpx.Headers``; a plain
    mapping must use lower-case names.
    """
    from_header = _retry_after_header(headers.get("retry-after"), now)
    if from_header is not None:
        return from_header
    if body_seconds is not None and math.isfinite(body_seconds) and body_seconds >= 0:
        return body_seconds
    return _reset_header(headers.get("ratelimit-reset"), now)


def rate_limit_wait(hint: float | None, retry_number: int, options: ClientOptions) -> float:
    """The wait (before jitter) ahead of 429 retry number ``retry_number`` (1-based).

    Never shorter than what the service asked, nor than a back-off floor that grows with each
    retry, so a service that keeps answering ``Retry-After: 0`` is not hammered.
    """
    floor = max(_exponential(retry_number, options), MIN_RATE_LIMIT_WAIT_SECONDS)
    return max(hint or 0.0, floor)


def with_jitter(wait: float, options: ClientOptions, rng: random.Random) -> float:
    """``wait`` plus up to 20 % more, never earlier than ``wait``, at most the wait cap."""
    jittered = wait * (1.0 + rng.uniform(0.0, RATE_LIMIT_JITTER))
    return max(wait, min(jittered, options.max_rate_limit_wait_seconds))
