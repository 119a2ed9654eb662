"""``PartnerClient``: the async client for the Partner API's ten endpoints.

Every method returns ``bot.partner.models`` objects and raises only ``PartnerError`` subclasses:
httpx failures are mapped once, here, and a non-2xx answer goes through ``error_from_response``.

Parameters the spec limits (list ``limit``, rider filters, cancel ``reason``, the create body)
are checked before anything is sent. A violation raises ``errors.ValidationError`` with
``status == 0`` and ``field_errors`` keyed by the wire name, the same shape the service uses, so
a caller handles a local and a remote rejection alike.

Each request first waits its turn at the shared ``RequestLimiter``. 429 answers and upstream
failures are retried as ``bot.partner.retry`` describes; per endpoint (the spec leaves
idempotency "not shown", so these are the client's choices):

* GETs are retried after 502/503/504, connect errors and time-outs.
* ``create_delivery`` always sends an ``idempotencyKey``: the caller's, or one made here once,
  before the first attempt. Only then is it retried, always with that same key. Callers that
  must survive a restart should set the key themselves and keep it with the order.
* ``cancel_delivery`` is retried like a GET: cancelling twice leaves the delivery cancelled. If
  a retry is refused with ``cancel_not_allowed`` after an earlier attempt may have landed, the
  delivery is re-read and returned when it is cancelled.
* ``assign_rider`` / ``unassign_rider`` are re-sent only when the connection could not even be
  opened. After any other upstream failure the outcome is unknown, so the delivery is re-read:
  when it shows the requested change it is returned, otherwise the original error is raised.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import quote, urlsplit

import httpx
import pydantic

from bot.partner import errors, retry
from bot.partner.models import (
    CANCEL_REASON_LENGTH,
    LIST_LIMIT_RANGE,
    RADIUS_KM_RANGE,
    Capabilities,
    CapabilitiesResponse,
    CreateDeliveryRequest,
    Delivery,
    DeliveryPage,
    DeliveryResponse,
    Rider,
    RidersResponse,
    ServiceLocation,
    ServiceLocationsResponse,
    Warehouse,
    WarehousesResponse,
)
from bot.partner.options import ClientOptions
from bot.partner.ratelimit import RequestLimiter

logger = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
Json = dict[str, Any]
ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)

# Failures that happen before a single byte of the request is written: safe to send again.
_UNSENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
_MAX_ID_LENGTH = 200


class _ApiKey:
    """Holds the key so that no repr, str, log line or traceback local shows it."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not value or any(ch.isspace() or not ch.isprintable() for ch in value):
            raise ValueError("the API key must be a non-empty string without spaces")
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "<redacted>"

    __str__ = __repr__


@dataclass
class _CallState:
    """What a caller may need to know about the attempts behind one call."""

    earlier_attempt_may_have_landed: bool = False


def _local_error(field: str, problem: str) -> errors.ValidationError:
    return errors.ValidationError(
        f"{field}: {problem} (checked before sending)", field_errors={field: [problem]}
    )


def _from_pydantic(exc: pydantic.ValidationError) -> errors.ValidationError:
    field_errors: dict[str, list[str]] = {}
    for item in exc.errors(include_input=False, include_url=False):
        field = str(item["loc"][0]) if item["loc"] else "request"
        field_errors.setdefault(field, []).append(str(item["msg"]))
    summary = "; ".join(f"{name}: {msgs[0]}" for name, msgs in field_errors.items())
    return errors.ValidationError(f"{summary} (checked before sending)", field_errors=field_errors)


def _parse(model: type[ModelT], data: Json, status: int) -> ModelT:
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        # Only field paths: values may be personal data.
        paths = sorted({".".join(str(p) for p in e["loc"]) or "body" for e in exc.errors()})
        raise errors.PartnerError(
            f"the Partner API answer did not have the expected shape ({', '.join(paths[:5])})",
            status=status,
        ) from None


def _number(name: str, value: float, low: float, high: float) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _local_error(name, "must be a finite number")
    if not low <= value <= high:
        raise _local_error(name, f"must be between {low:g} and {high:g}")
    return repr(float(value))


class PartnerClient:
    """Async client for the Partner API at ``base_url`` (the address ending in ``/api/v1``).

    ``transport`` replaces the network (tests pass ``httpx.MockTransport`` or
    ``httpx.ASGITransport``). ``limiter`` is the process-wide ``RequestLimiter`` for this key;
    one is made when none is given. ``clock`` (wall-clock seconds, for ``RateLimit-Reset``),
    ``sleep`` and ``rng`` (jitter) are injectable so tests never really wait.
    Use as ``async with PartnerClient(...) as client:`` or call ``aclose()``.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        options: ClientOptions = ClientOptions(),  # noqa: B008 - frozen, shared safely
        transport: httpx.AsyncBaseTransport | None = None,
        limiter: RequestLimiter | None = None,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http(s) URL with a host")
        if parts.username or parts.password or parts.query or parts.fragment:
            raise ValueError("base_url must not carry credentials, a query or a fragment")
        self._base_url = base_url.rstrip("/")
        self._key = _ApiKey(api_key)
        self._options = options
        self._clock = clock
        self._sleep = sleep
        self._rng = rng if rng is not None else random.Random()  # noqa: S311 - jitter only
        self._limiter = limiter if limiter is not None else RequestLimiter(clock=clock, sleep=sleep)
        self._http = httpx.AsyncClient(
            base_url=self._base_url,
            transport=transport,
            timeout=httpx.Timeout(
                connect=options.connect_timeout,
                read=options.read_timeout,
                write=options.write_timeout,
                pool=options.pool_timeout,
            ),
            headers={"Accept": "application/json", "User-Agent": options.user_agent},
            follow_redirects=False,  # a redirect must never carry the key to another host
        )

    def __repr__(self) -> str:
        return (
            f"PartnerClient(base_url={self._base_url!r}, "
            f"auth={self._options.auth_header!r}, api_key={self._key!r})"
        )

    __str__ = __repr__

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def options(self) -> ClientOptions:
        return self._options

    @property
    def limiter(self) -> RequestLimiter:
        """The shared limiter; ask ``limiter.wait_time()`` to tell a user how long."""
        return self._limiter

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    # --- catalogue -----------------------------------------------------------------------

    async def get_capabilities(self) -> Capabilities:
        """``GET /capabilities``: the org's allow-list (cache it: see ``CapabilityCache``)."""
        data, status = await self._request("GET", "/capabilities")
        return _parse(CapabilitiesResponse, data, status).capabilities

    async def list_warehouses(self) -> list[Warehouse]:
        """``GET /warehouses``: the active warehouses."""
        data, status = await self._request("GET", "/warehouses")
        return _parse(WarehousesResponse, data, status).warehouses

    async def list_service_locations(self) -> list[ServiceLocation]:
        """``GET /service-locations``: saved map places (empty when the plan has none)."""
        data, status = await self._request("GET", "/service-locations")
        return _parse(ServiceLocationsResponse, data, status).serviceLocations

    # --- deliveries ----------------------------------------------------------------------

    async def create_delivery(self, request: CreateDeliveryRequest) -> Delivery:
        """``POST /deliveries``. Retried only with one idempotency key (see the module doc)."""
        try:
            # Re-validated: a request model can be mutated after it was built.
            checked = CreateDeliveryRequest.model_validate(request.model_dump())
        except pydantic.ValidationError as exc:
            raise _from_pydantic(exc) from None
        body = checked.to_wire()
        if checked.idempotencyKey is None:
            body["idempotencyKey"] = uuid.uuid4().hex
        data, status = await self._request(
            "POST", "/deliveries", json=body, policy=retry.RetryPolicy.IDEMPOTENT, on_create=True
        )
        return _parse(DeliveryResponse, data, status).delivery

    async def get_delivery(self, delivery_id: str) -> Delivery:
        """``GET /deliveries/{id}``."""
        data, status = await self._request("GET", _delivery_path(delivery_id))
        return _parse(DeliveryResponse, data, status).delivery

    async def list_deliveries(
        self, *, limit: int | None = None, status: str | None = None, cursor: str | None = None
    ) -> DeliveryPage:
        """``GET /deliveries``: one page; pass ``next_cursor`` back as ``cursor`` for the next."""
        params: dict[str, str] = {}
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int):
                raise _local_error("limit", "must be a whole number")
            low, high = LIST_LIMIT_RANGE
            if not low <= limit <= high:
                raise _local_error("limit", f"must be between {low} and {high}")
            params["limit"] = str(limit)
        if status is not None:
            if not status:
                raise _local_error("status", "must not be empty")
            params["status"] = status
        if cursor is not None:
            if not cursor:
                raise _local_error("cursor", "must not be empty")
            params["cursor"] = cursor
        data, http_status = await self._request("GET", "/deliveries", params=params)
        return _parse(DeliveryPage, data, http_status)

    async def iter_deliveries(
        self, *, status: str | None = None, page_size: int = LIST_LIMIT_RANGE[1]
    ) -> AsyncIterator[Delivery]:
        """Every delivery (optionally of one ``status``), following ``next_cursor`` to the end."""
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            page = await self.list_deliveries(limit=page_size, status=status, cursor=cursor)
            for delivery in page.deliveries:
                yield delivery
            cursor = page.next_cursor
            if cursor is None:
                return
            if cursor in seen:
                # A cursor that comes back would page forever.
                raise errors.PartnerError("the Partner API repeated a page cursor", status=200)
            seen.add(cursor)

    async def cancel_delivery(self, delivery_id: str, reason: str) -> Delivery:
        """``POST /deliveries/{id}/cancel`` with a 3–500 character ``reason``.

        Retried after upstream failures; a retry refused with ``cancel_not_allowed`` because
        the first attempt landed is answered by re-reading the (cancelled) delivery.
        """
        path = _delivery_path(delivery_id, "cancel")
        text = reason.strip() if isinstance(reason, str) else ""
        low, high = CANCEL_REASON_LENGTH
        if not low <= len(text) <= high:
            raise _local_error("reason", f"must be {low} to {high} characters")
        state = _CallState()
        try:
            data, status = await self._request(
                "POST",
                path,
                json={"reason": text},
                policy=retry.RetryPolicy.IDEMPOTENT,
                state=state,
            )
        except errors.CancelNotAllowed:
            if not state.earlier_attempt_may_have_landed:
                raise
            current = await self.get_delivery(delivery_id)
            if current.status == "cancelled":
                return current
            raise
        return _parse(DeliveryResponse, data, status).delivery

    # --- riders --------------------------------------------------------------------------

    async def list_riders(
        self,
        *,
        pickup_lat: float | None = None,
        pickup_lng: float | None = None,
        radius_km: float | None = None,
        idle_only: bool = False,
    ) -> list[Rider]:
        """``GET /riders``: closer riders first when pickup coordinates are given.

        ``pickup_lat``/``pickup_lng`` go together; ``radius_km`` (0–500) needs them.
        """
        params: dict[str, str] = {}
        if (pickup_lat is None) != (pickup_lng is None):
            missing = "pickup_lng" if pickup_lng is None else "pickup_lat"
            raise _local_error(missing, "pickup_lat and pickup_lng must be given together")
        if pickup_lat is not None and pickup_lng is not None:
            params["pickup_lat"] = _number("pickup_lat", pickup_lat, -90.0, 90.0)
            params["pickup_lng"] = _number("pickup_lng", pickup_lng, -180.0, 180.0)
        if radius_km is not None:
            if not params:
                raise _local_error("radius_km", "needs pickup_lat and pickup_lng")
            params["radius_km"] = _number("radius_km", radius_km, *RADIUS_KM_RANGE)
        if idle_only:
            params["idle_only"] = "true"
        data, status = await self._request("GET", "/riders", params=params)
        return _parse(RidersResponse, data, status).riders

    async def assign_rider(self, delivery_id: str, rider_id: str) -> Delivery:
        """``POST /deliveries/{id}/assign``; see the module doc for what happens on failures."""
        path = _delivery_path(delivery_id, "assign")
        if not isinstance(rider_id, str) or not rider_id.strip():
            raise _local_error("riderId", "must not be empty")
        try:
            data, status = await self._request(
                "POST", path, json={"riderId": rider_id}, policy=retry.RetryPolicy.UNSENT_ONLY
            )
        except errors.PartnerError as exc:
            if not _outcome_unknown(exc):
                raise
            current = await self._reread(delivery_id)
            if current is not None and _carries_rider(current, rider_id):
                return current
            raise
        return _parse(DeliveryResponse, data, status).delivery

    async def unassign_rider(self, delivery_id: str) -> Delivery:
        """``POST /deliveries/{id}/unassign`` (only while ``matched``); no body."""
        path = _delivery_path(delivery_id, "unassign")
        try:
            data, status = await self._request("POST", path, policy=retry.RetryPolicy.UNSENT_ONLY)
        except errors.PartnerError as exc:
            if not _outcome_unknown(exc):
                raise
            current = await self._reread(delivery_id)
            if current is not None and not current.rider_assigned:
                return current
            raise
        return _parse(DeliveryResponse, data, status).delivery

    async def _reread(self, delivery_id: str) -> Delivery | None:
        """The delivery as it is now, or None when it cannot be read either."""
        try:
            return await self.get_delivery(delivery_id)
        except errors.PartnerError as exc:
            # Tells nothing new: the caller reports the failure that made it look.
            logger.info("Partner API re-read of delivery %s failed: %s", delivery_id, exc)
            return None

    # --- the one place that speaks HTTP ---------------------------------------------------

    async def _request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        json: Json | None = None,
        policy: retry.RetryPolicy = retry.RetryPolicy.READ,
        on_create: bool = False,
        state: _CallState | None = None,
    ) -> tuple[Json, int]:
        """One logical call: limiter, attempts, 429 waits; returns the JSON object and status."""
        state = state if state is not None else _CallState()
        options = self._options
        failures = 0
        rate_limited = 0
        while True:
            await self._limiter.acquire()
            try:
                response = await self._send(method, path, params, json)
            except errors.TransportError as exc:
                surely_unsent = isinstance(exc.__cause__, _UNSENT)
                failures += 1
                if failures >= options.max_attempts or not retry.may_retry(
                    policy, exc, surely_unsent=surely_unsent
                ):
                    raise
                state.earlier_attempt_may_have_landed |= not surely_unsent
                await self._back_off(method, path, failures, exc)
                continue
            if response.is_success:
                return self._json_object(response), response.status_code
            error = errors.error_from_response(
                response.status_code, response.content, dict(response.headers), on_create=on_create
            )
            self._redact(error)
            if response.status_code == 429:
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

    async def _send(
        self, method: str, path: str, params: dict[str, str] | None, json: Json | None
    ) -> httpx.Response:
        headers = self._auth_headers()
        try:
            return await self._http.request(method, path, params=params, json=json, headers=headers)
        except httpx.TimeoutException as exc:
            raise errors.RequestTimeout(
                f"the Partner API did not answer in time ({type(exc).__name__})"
            ) from exc
        except (httpx.NetworkError, httpx.RemoteProtocolError) as exc:
            raise errors.ConnectError(
                f"could not connect to the Partner API, or the connection dropped "
                f"({type(exc).__name__})"
            ) from exc
        except httpx.HTTPError as exc:
            raise errors.TransportError(
                f"the Partner API request failed ({type(exc).__name__})"
            ) from exc

    def _redact(self, error: errors.PartnerError) -> None:
        """Blank the key out of a message the service wrote (it might echo what it was sent)."""
        key = self._key.reveal()
        error.message = error.message.replace(key, "<redacted>")
        error.args = (error.message,)
        error.field_errors = {
            name: [text.replace(key, "<redacted>") for text in texts]
            for name, texts in error.field_errors.items()
        }

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


def _delivery_path(delivery_id: str, action: str | None = None) -> str:
    if not isinstance(delivery_id, str) or not delivery_id.strip():
        raise _local_error("deliveryId", "must not be empty")
    if delivery_id in (".", "..") or len(delivery_id) > _MAX_ID_LENGTH:
        raise _local_error("deliveryId", "is not a delivery id")
    path = f"/deliveries/{quote(delivery_id, safe='')}"
    return f"{path}/{action}" if action else path


def _carries_rider(delivery: Delivery, rider_id: str) -> bool:
    return delivery.rider_assigned and delivery.rider is not None and delivery.rider.id == rider_id


def _outcome_unknown(error: errors.PartnerError) -> bool:
    """An upstream failure after which the request may or may not have been applied."""
    return retry.is_upstream_failure(error) and not isinstance(error.__cause__, _UNSENT)
