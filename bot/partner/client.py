"""``PartnerClient``: the async client for the Partner API's ten endpoints.

Every method returns ``bot.partner.models`` objects and raises only ``PartnerError`` subclasses.
Parameters are checked before anything is sent (``bot.partner.checks``); the HTTP attempts,
error mapping, 429 waits and retries are ``bot.partner.transport``'s. What this module decides
is each endpoint's retry policy; the spec leaves idempotency "not shown", so these are the
client's choices:

* GETs are retried after 502/503/504, connect errors and time-outs.
* ``create_delivery`` always sends an ``idempotencyKey``: the caller's, or one made here once,
  before the first attempt. It is sent again only when the request surely never left (the
  connection could not be opened) or after a 429, which the service refuses before doing
  anything; both with that same key. Any other failure (a time-out after sending, a dropped
  connection, a 5xx) may have created the delivery, and the spec does not say the service
  deduplicates a reused key, so an immediate retry could make a second delivery: the error is
  raised instead, and the caller keeps the key and reads back before sending again
  (``bot.ordering.unconfirmed_worker``). Callers that must survive a restart should set the
  key themselves and keep it with the order.
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
import random
import time
import uuid
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Self, TypeVar
from urllib.parse import urlsplit

import httpx
import pydantic

from bot.clocks import Clock, Sleep
from bot.metrics.business_metrics import NO_METRICS, Metrics
from bot.partner import checks, errors, retry
from bot.partner.models import (
    LIST_LIMIT_RANGE,
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
from bot.partner.request_limiter import HeldBack, RequestLimiter
from bot.partner.transport import CallState, Json, PartnerTransport, surely_unsent

logger = logging.getLogger(__name__)

ModelT = TypeVar("ModelT", bound=pydantic.BaseModel)


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


class PartnerClient:
    """Async client for the Partner API at ``base_url`` (the address ending in ``/api/v1``).

    ``transport`` replaces the network (tests pass ``httpx.MockTransport`` or
    ``httpx.ASGITransport``). ``metrics`` are the business's: its attempts and waits are
    counted there (none by default). ``limiter`` is the process-wide ``RequestLimiter`` for
    this key; one is made when none is given. ``clock`` (wall-clock seconds, for
    ``RateLimit-Reset``), ``sleep`` and ``rng`` (jitter) are injectable so tests never really
    wait.
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
        metrics: Metrics = NO_METRICS,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http(s) URL with a host")
        if parts.username or parts.password or parts.query or parts.fragment:
            raise ValueError("base_url must not carry credentials, a query or a fragment")
        self._base_url = base_url.rstrip("/")
        self._options = options
        self._limiter = (
            limiter
            if limiter is not None
            else RequestLimiter(clock=clock, sleep=sleep, metrics=metrics)
        )
        self._transport = PartnerTransport(
            self._base_url,
            api_key,
            options=options,
            transport=transport,
            limiter=self._limiter,
            clock=clock,
            sleep=sleep,
            rng=rng if rng is not None else random.Random(),  # noqa: S311 - jitter only
            metrics=metrics,
        )

    def __repr__(self) -> str:
        return (
            f"PartnerClient(base_url={self._base_url!r}, "
            f"auth={self._options.auth_header!r}, api_key=<redacted>)"
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
        await self._transport.aclose()

    # --- catalogue -----------------------------------------------------------------------

    async def get_capabilities(self) -> Capabilities:
        """``GET /capabilities``: the org's allow-list (cache it: see ``CapabilityCache``)."""
        data, status = await self._transport.call("GET", "/capabilities")
        return _parse(CapabilitiesResponse, data, status).capabilities

    async def list_warehouses(self) -> list[Warehouse]:
        """``GET /warehouses``: the active warehouses."""
        data, status = await self._transport.call("GET", "/warehouses")
        return _parse(WarehousesResponse, data, status).warehouses

    async def list_service_locations(self) -> list[ServiceLocation]:
        """``GET /service-locations``: saved map places (empty when the plan has none)."""
        data, status = await self._transport.call("GET", "/service-locations")
        return _parse(ServiceLocationsResponse, data, status).serviceLocations

    # --- deliveries ----------------------------------------------------------------------

    async def create_delivery(
        self, request: CreateDeliveryRequest, *, held_back: HeldBack | None = None
    ) -> Delivery:
        """``POST /deliveries``, re-sent (with its one idempotency key) only when it surely
        never left or was rate limited; any other failure is raised (see the module doc).
        ``held_back``: called back should the request wait long for the rate budget."""
        checked = checks.create_request(request)
        body = checked.to_wire()
        if checked.idempotencyKey is None:
            body["idempotencyKey"] = uuid.uuid4().hex
        data, status = await self._transport.call(
            "POST",
            "/deliveries",
            json=body,
            policy=retry.RetryPolicy.UNSENT_ONLY,
            on_create=True,
            held_back=held_back,
        )
        return _parse(DeliveryResponse, data, status).delivery

    async def get_delivery(self, delivery_id: str) -> Delivery:
        """``GET /deliveries/{id}``."""
        data, status = await self._transport.call("GET", checks.delivery_path(delivery_id))
        return _parse(DeliveryResponse, data, status).delivery

    async def list_deliveries(
        self, *, limit: int | None = None, status: str | None = None, cursor: str | None = None
    ) -> DeliveryPage:
        """``GET /deliveries``: one page; pass ``next_cursor`` back as ``cursor`` for the next."""
        params = checks.list_params(limit=limit, status=status, cursor=cursor)
        data, http_status = await self._transport.call("GET", "/deliveries", params=params)
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
        path = checks.delivery_path(delivery_id, "cancel")
        text = checks.cancel_reason(reason)
        state = CallState()
        try:
            data, status = await self._transport.call(
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
        params = checks.rider_params(
            pickup_lat=pickup_lat, pickup_lng=pickup_lng, radius_km=radius_km, idle_only=idle_only
        )
        data, status = await self._transport.call("GET", "/riders", params=params)
        return _parse(RidersResponse, data, status).riders

    async def assign_rider(self, delivery_id: str, rider_id: str) -> Delivery:
        """``POST /deliveries/{id}/assign``; see the module doc for what happens on failures."""
        path = checks.delivery_path(delivery_id, "assign")
        rider = checks.rider_id(rider_id)
        try:
            data, status = await self._transport.call(
                "POST", path, json={"riderId": rider}, policy=retry.RetryPolicy.UNSENT_ONLY
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
        path = checks.delivery_path(delivery_id, "unassign")
        try:
            data, status = await self._transport.call(
                "POST", path, policy=retry.RetryPolicy.UNSENT_ONLY
            )
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


def _carries_rider(delivery: Delivery, rider_id: str) -> bool:
    return delivery.rider_assigned and delivery.rider is not None and delivery.rider.id == rider_id


def _outcome_unknown(error: errors.PartnerError) -> bool:
    """An upstream failure after which the request may or may not have been applied."""
    return retry.is_upstream_failure(error) and not surely_unsent(error)
