"""``PartnerTransport``: the one place that speaks HTTP to the Partner API.

It turns one logical call into attempts: each waits its turn at the shared ``RequestLimiter``,
sends with the API key, and maps what comes back once. httpx failures become
``errors.PartnerUnreachable`` subclasses that record whether the request surely never left
(``surely_unsent``). They are raised outside the ``except`` block, so neither ``__cause__`` nor
``__context__`` links them to the httpx error, whose request still carries the key in its
headers; for the same reason the auth header is built inside the call expression and never
held in a local of a frame a traceback could show. A non-2xx answer goes through
``error_from_response``, with the key blanked out of whatever the service wrote.

429 answers are waited out (the whole process holds off, through the limiter) and upstream
failures are backed off and retried, as ``bot.partner.retry`` computes and as the call's
``RetryPolicy`` allows. ``CallState`` tells the caller whether an earlier attempt may have
been applied, for the endpoints that must then re-read rather than trust the last answer.

The ``transport`` argument is httpx's own swappable transport (``httpx.MockTransport``,
``httpx.ASGITransport`` in tests), under this one.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from typing import Any

import httpx

from bot.clocks import Clock, Sleep
from bot.metrics.business_metrics import Metrics
from bot.metrics.partner_calls import partner_call_hooks
from bot.partner import errors, retry
from bot.partner.options import ClientOptions
from bot.partner.request_limiter import HeldBack, RequestLimiter

logger = logging.getLogger(__name__)

Json = dict[str, Any]

# Failures that happen before a single byte of the request is written: safe to send again.
_UNSENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


def surely_unsent(error: errors.PartnerError) -> bool:
    """True when ``error`` is a failure to even open the connection: nothing reached the API."""
    return isinstance(error, errors.PartnerUnreachable) and error.surely_unsent


class ApiKey:
    """Holds the key so that no repr, str, log line or traceback local shows it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value or any(ch.isspace() or not ch.isprintable() for ch in value):
            raise ValueError("the API key must be a non-empty string without spaces")
        self._value = value

    def reveal(self) -> str:
        """The key itself, for the request header and nothing else."""
        return self._value

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__


@dataclass
class CallState:
    """What a caller may need to know about the attempts behind one call."""

    earlier_attempt_may_have_landed: bool = False


class PartnerTransport:
    """Sends calls to ``base_url`` (already checked, no trailing slash) with ``api_key``.

    ``limiter``, ``clock`` (wall-clock seconds, for ``RateLimit-Reset``), ``sleep`` and ``rng``
    (jitter) are the client's, so one process shares one limiter and tests never really wait.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        options: ClientOptions,
        transport: httpx.AsyncBaseTransport | None,
        limiter: RequestLimiter,
        clock: Clock,
        sleep: Sleep,
        rng: random.Random,
        metrics: Metrics,
    ) -> None:
        self._key = ApiKey(api_key)
        self._metrics = metrics
        self._options = options
        self._limiter = limiter
        self._clock = clock
        self._sleep = sleep
        self._rng = rng
        self._http = httpx.AsyncClient(
            base_url=base_url,
            transport=transport,
            timeout=httpx.Timeout(
                connect=options.connect_timeout,
                read=options.read_timeout,
                write=options.write_timeout,
                pool=options.pool_timeout,
            ),
            headers={"Accept": "application/json", "User-Agent": options.user_agent},
            follow_redirects=False,  # a redirect must never carry the key to another host
            event_hooks=partner_call_hooks(metrics),
        )

    async def aclose(self) -> None:
        """Close the connection pool, once the limiter has finished what it started."""
        await self._limiter.settle()
        await self._http.aclose()

    async def call(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        json: Json | None = None,
        policy: retry.RetryPolicy = retry.RetryPolicy.READ,
        on_create: bool = False,
        state: CallState | None = None,
        held_back: HeldBack | None = None,
    ) -> tuple[Json, int]:
        """One logical call: limiter, attempts, 429 waits; returns the JSON object and status.
        ``held_back`` watches the first attempt's wait for the limiter (``HeldBack``)."""
        state = state if state is not None else CallState()
        options = self._options
        failures = 0
        rate_limited = 0
        while True:
            try:
                response = await self._limited_send(method, path, params, json, held_back)
                held_back = None  # the first attempt's only
            except errors.PartnerUnreachable as exc:
                unsent = surely_unsent(exc)
                failures += 1
                if failures >= options.max_attempts or not retry.may_retry(
                    policy, exc, surely_unsent=unsent
                ):
                    raise
                state.earlier_attempt_may_have_landed |= not unsent
                await self._back_off(method, path, failures, exc)
                continue
            if response.is_success:
                return self._json_object(response), response.status_code
            error = errors.error_from_response(
                response.status_code,
                response.content,
                dict(response.headers),
                on_create=on_create,
                secrets=(self._key.reveal(),),
                delivery_call=path.startswith("/deliveries/"),
            )
            if response.status_code == 429:
                self._metrics.count_partner_rate_limited("service_429")
                rate_limited += 1
                hint = retry.retry_after_hint(response.headers, error.retry_after, self._clock())
                wait = retry.rate_limit_wait(hint, rate_limited, options)
                error.retry_after = wait
                if rate_limited > options.rate_limit_retries:
                    raise error
                if wait > options.max_rate_limit_wait_seconds:
                    raise error
                delay = retry.with_jitter(wait, options, self._rng)
                logger.warning("Partner API 429 on %s %s; waiting %.1fs", method, path, delay)
                # Other callers hold off too, rather than each discovering the 429.
                self._limiter.block_for(delay)
                await self._sleep(delay)
                continue
            failures += 1
            if failures >= options.max_attempts or not retry.may_retry(
                policy, error, surely_unsent=False
            ):
                raise error
            state.earlier_attempt_may_have_landed = True
            await self._back_off(method, path, failures, error)

    async def _back_off(
        self, method: str, path: str, failures: int, error: errors.PartnerError
    ) -> None:
        delay = retry.backoff_delay(failures, self._options, self._rng)
        logger.info(
            "Partner API %s %s failed (%s); attempt %d in %.2fs",
            method,
            path,
            error,
            failures + 1,
            delay,
        )
        await self._sleep(delay)

    async def _limited_send(
        self,
        method: str,
        path: str,
        params: dict[str, str] | None,
        json: Json | None,
        held_back: HeldBack | None,
    ) -> httpx.Response:
        """One attempt in a slot of the limiter, held until its answer (or failure) is in."""
        async with self._limiter.request(held_back):
            return await self._send(method, path, params, json)

    async def _send(
        self, method: str, path: str, params: dict[str, str] | None, json: Json | None
    ) -> httpx.Response:
        try:
            return await self._http.request(
                method, path, params=params, json=json, headers=self._auth_headers()
            )
        except httpx.HTTPError as exc:
            self._metrics.count_partner_failure(method, path)
            error = _transport_error(exc)
        # Raised here, after the except block: raised inside it, the httpx error (and the key
        # in its request headers) would ride along as __context__ even with "from None".
        raise error

    def _auth_headers(self) -> dict[str, str]:
        if self._options.auth_header == "x-api-key":
            return {"X-Api-Key": self._key.reveal()}
        return {"Authorization": f"Bearer {self._key.reveal()}"}

    @staticmethod
    def _json_object(response: httpx.Response) -> Json:
        try:
            data = response.json()
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            content_type = response.headers.get("content-type", "unknown content type")
            raise errors.PartnerError(
                f"the Partner API answered {response.status_code} with an unreadable body "
                f"({content_type}, {len(response.content)} bytes)",
                status=response.status_code,
            )
        return data


def _transport_error(exc: httpx.HTTPError) -> errors.PartnerUnreachable:
    """The one mapping of an httpx failure; only the exception's type name is kept."""
    unsent = isinstance(exc, _UNSENT)
    name = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return errors.RequestTimeout(
            f"the Partner API did not answer in time ({name})", surely_unsent=unsent
        )
    if isinstance(exc, httpx.NetworkError | httpx.RemoteProtocolError):
        return errors.ConnectionFailed(
            f"could not connect to the Partner API, or the connection dropped ({name})",
            surely_unsent=unsent,
        )
    return errors.PartnerUnreachable(
        f"the Partner API request failed ({name})", surely_unsent=unsent
    )
