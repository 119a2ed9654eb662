"""The sandbox-only admin API under ``/sandbox/admin``, with its own bearer token.

It plays the dashboard and the rider app: price and mark paid, move a delivery along
(``matched`` -> ``picked_up`` -> ``in_transit`` -> ``delivered``), resend the OTP, move riders
(to a point, with a fix as old as asked; along their delivery's path; or off the map) and
change their presence, revoke keys, arm faults, and read the webhook log and call counters.
``AdminActions`` holds the operations; ``Sandbox`` calls the same ones from Python.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.partner.models import RiderPresence
from bot.sandbox.core import Core
from bot.sandbox.error_envelope import ApiError, error_response, validation_error
from bot.sandbox.events import Event
from bot.sandbox.faults import FAULT_TIMINGS
from bot.sandbox.geo import MapPoint, coordinate_problem
from bot.sandbox.rider_path import point_on_leg, put_rider
from bot.sandbox.state import DeliveryRecord, RiderRecord
from bot.sandbox.validation import FieldReader, as_number, check_delivery_id, parse_json_object
from bot.sandbox.views import rider_view

ADMIN_PREFIX = "/sandbox/admin"
PRESENCES: tuple[RiderPresence, ...] = ("available", "on_delivery", "unavailable", "not_in_app")
MAX_FIX_AGE_SECONDS = 30 * 24 * 3600
"""The oldest fix an admin may set: a month, far past the 30 minutes after which it is stale."""


class AdminActions:
    """What staff and riders do in the real product, as direct operations on the sandbox."""

    def __init__(self, core: Core) -> None:
        self._core = core

    def delivery_detail(self, record: DeliveryRecord) -> dict[str, Any]:
        """The API's view plus what only the sandbox shows (OTP code, stored images)."""
        images = [
            {"url": i.url, "content_type": i.content_type, "size": i.size, "sha256": i.sha256}
            for i in record.images
        ]
        return {
            "delivery": self._core.lifecycle.view(record),
            "sandbox": {"otp_code": record.otp_code, "images": images},
        }

    def _rider(self, rider_id: str) -> RiderRecord:
        rider = self._core.store.riders.get(rider_id)
        if rider is None:
            raise ApiError(404, "rider_not_found", "No rider with this id on this fleet.")
        return rider

    def move_rider(
        self, rider_id: str, latitude: float, longitude: float, age_seconds: float = 0.0
    ) -> dict[str, Any]:
        """A GPS fix for the rider, taken ``age_seconds`` ago (0: now, fresh); older than 30
        minutes it is listed with ``fresh`` false."""
        lat, lng = as_number(latitude), as_number(longitude)
        if lat is None or lng is None:
            raise validation_error({"latitude": ["latitude and longitude must be numbers"]})
        problem = coordinate_problem(lat, lng)
        if problem:
            raise validation_error({"latitude": [problem]})
        age = as_number(age_seconds)
        if age is None or not 0 <= age <= MAX_FIX_AGE_SECONDS:
            raise validation_error(
                {"age_seconds": [f"must be a number between 0 and {MAX_FIX_AGE_SECONDS}"]}
            )
        rider, now = self._rider(rider_id), self._core.clock()
        put_rider(rider, MapPoint(lat, lng), now - age)
        return rider_view(rider, now, None)

    def clear_rider_location(self, rider_id: str) -> dict[str, Any]:
        """The rider has no location at all (GPS off, never reported): listed as null."""
        rider, now = self._rider(rider_id), self._core.clock()
        rider.latitude = rider.longitude = rider.location_updated_at = None
        return rider_view(rider, now, None)

    def move_rider_along(self, delivery_id: str, fraction: float) -> dict[str, Any]:
        """Put the delivery's rider ``fraction`` (0 to 1) of the way along its current leg
        (start -> pickup while matched, pickup -> drop-off after: see ``rider_path``), with a
        fresh fix taken now."""
        number = as_number(fraction)
        if number is None or not 0 <= number <= 1:
            raise validation_error({"fraction": ["must be a number between 0 and 1"]})
        record = self._core.lifecycle.get(delivery_id)
        rider = self._core.store.riders.get(record.rider_id) if record.rider_id else None
        point = point_on_leg(record, number)
        if rider is None:
            raise ApiError(400, "no_rider_assigned", "The delivery has no rider to move.")
        now = self._core.clock()
        put_rider(rider, point, now)
        return rider_view(rider, now, None)

    def set_presence(self, rider_id: str, presence: str) -> dict[str, Any]:
        if presence not in PRESENCES:
            raise validation_error({"presence": ["must be one of: " + ", ".join(PRESENCES)]})
        rider, now = self._rider(rider_id), self._core.clock()
        rider.presence, rider.presence_updated_at = presence, now
        return rider_view(rider, now, None)

    def revoke_key(self, key_id: str, *, auto: bool = False) -> dict[str, Any]:
        """Revoke a key (401 ``invalid_api_key``), or suspend it (``api_key_auto_revoked``)."""
        key = self._core.store.keys.get(key_id)
        if key is None:
            raise ApiError(404, "key_not_found", "No API key with this id.")
        key.state = "auto_revoked" if auto else "revoked"
        return {"id": key.id, "state": key.state}


# --- HTTP ---------------------------------------------------------------------------------------

AdminHandler = Callable[[Core, AdminActions, Request], Awaitable[Response]]


def _ok(payload: dict[str, Any], events: list[Event] | None = None, *, core: Core) -> Response:
    background = core.after_response(events or [])
    return JSONResponse({"ok": True, **payload}, background=background)


async def _body(request: Request) -> FieldReader:
    return FieldReader(parse_json_object(await request.body(), empty_ok=True))


def _delivery_id(request: Request) -> str:
    delivery_id: str = request.path_params["deliveryId"]
    check_delivery_id(delivery_id)
    return delivery_id


async def get_delivery(core: Core, actions: AdminActions, request: Request) -> Response:
    return _ok(actions.delivery_detail(core.lifecycle.get(_delivery_id(request))), core=core)


async def set_fee(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("amount",))
    amount = reader.number("amount", minimum=0.01)
    if amount is None and not reader.failed("amount"):
        reader.fail("amount", "is required")
    reader.raise_if_errors()
    record, events = core.lifecycle.set_fee(_delivery_id(request), amount or 0)
    return _ok(actions.delivery_detail(record), events, core=core)


async def mark_paid(core: Core, actions: AdminActions, request: Request) -> Response:
    record, events = core.lifecycle.mark_paid(_delivery_id(request))
    return _ok(actions.delivery_detail(record), events, core=core)


async def advance(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("status",))
    target = reader.choice("status", ("picked_up", "in_transit", "delivered"))
    reader.raise_if_errors()
    record, events = core.lifecycle.advance(_delivery_id(request), target)
    return _ok(actions.delivery_detail(record), events, core=core)


async def resend_otp(core: Core, actions: AdminActions, request: Request) -> Response:
    record, events = core.lifecycle.resend_otp(_delivery_id(request))
    return _ok(actions.delivery_detail(record), events, core=core)


async def move_rider(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("latitude", "longitude", "age_seconds"))
    for name in ("latitude", "longitude"):
        if not reader.present(name):
            reader.fail(name, "is required")
    age = reader.number("age_seconds", maximum=MAX_FIX_AGE_SECONDS)
    reader.raise_if_errors()
    rider_id = request.path_params["riderId"]
    view = actions.move_rider(
        rider_id, reader.body["latitude"], reader.body["longitude"], age or 0.0
    )
    return _ok({"rider": view}, core=core)


async def clear_rider_location(core: Core, actions: AdminActions, request: Request) -> Response:
    view = actions.clear_rider_location(request.path_params["riderId"])
    return _ok({"rider": view}, core=core)


async def rider_progress(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("fraction",))
    fraction = reader.number("fraction", maximum=1)
    if fraction is None and not reader.failed("fraction"):
        reader.fail("fraction", "is required")
    reader.raise_if_errors()
    view = actions.move_rider_along(_delivery_id(request), fraction or 0.0)
    return _ok({"rider": view}, core=core)


async def set_presence(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("presence",))
    presence = reader.choice("presence", PRESENCES, required=True)
    reader.raise_if_errors()
    view = actions.set_presence(request.path_params["riderId"], presence or "")
    return _ok({"rider": view}, core=core)


async def revoke_key(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(("auto",))
    auto = reader.boolean("auto")
    reader.raise_if_errors()
    key = actions.revoke_key(request.path_params["keyId"], auto=bool(auto))
    return _ok({"key": key}, core=core)


async def inject_fault(core: Core, actions: AdminActions, request: Request) -> Response:
    reader = await _body(request)
    reader.reject_unknown(
        ("endpoint", "kind", "count", "status", "latency_seconds", "code", "when")
    )
    endpoint = reader.string("endpoint", required=True, max_len=200)
    kind = reader.string("kind", required=True, max_len=20)
    count = reader.number("count", minimum=1, maximum=1000)
    status = reader.number("status", minimum=400, maximum=599)
    latency = reader.number("latency_seconds", maximum=600)
    code = reader.string("code", max_len=100)
    when = reader.choice("when", FAULT_TIMINGS)
    reader.raise_if_errors()
    operation = core.faults.inject(
        endpoint or "",
        kind or "",
        int(count) if count is not None else 1,
        status=int(status) if status is not None else None,
        latency_seconds=latency if latency is not None else 2.0,
        code=code or None,
        when=when or "before",
    )
    return _ok({"endpoint": operation.name}, core=core)


async def clear_faults(core: Core, actions: AdminActions, request: Request) -> Response:
    core.faults.clear()
    return _ok({}, core=core)


async def webhook_log(core: Core, actions: AdminActions, request: Request) -> Response:
    attempts = [attempt.as_dict() for attempt in core.outbox.log()]
    return _ok({"attempts": attempts, "pending": core.outbox.pending}, core=core)


async def call_counts(core: Core, actions: AdminActions, request: Request) -> Response:
    return _ok({"calls": core.calls.snapshot()}, core=core)


ADMIN_ROUTES: tuple[tuple[str, str, AdminHandler], ...] = (
    ("GET", "/deliveries/{deliveryId}", get_delivery),
    ("POST", "/deliveries/{deliveryId}/fee", set_fee),
    ("POST", "/deliveries/{deliveryId}/mark-paid", mark_paid),
    ("POST", "/deliveries/{deliveryId}/advance", advance),
    ("POST", "/deliveries/{deliveryId}/resend-otp", resend_otp),
    ("POST", "/deliveries/{deliveryId}/rider-progress", rider_progress),
    ("POST", "/riders/{riderId}/location", move_rider),
    ("DELETE", "/riders/{riderId}/location", clear_rider_location),
    ("POST", "/riders/{riderId}/presence", set_presence),
    ("POST", "/keys/{keyId}/revoke", revoke_key),
    ("POST", "/faults", inject_fault),
    ("DELETE", "/faults", clear_faults),
    ("GET", "/webhooks", webhook_log),
    ("GET", "/calls", call_counts),
)


def _authorized(request: Request, token: str) -> bool:
    header = request.headers.get("authorization", "")
    scheme, _, presented = header.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        presented.strip().encode("utf-8"), token.encode("utf-8")
    )


def _wrap(
    core: Core, actions: AdminActions, handler: AdminHandler
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            if not _authorized(request, core.admin_token):
                raise ApiError(
                    401, "admin_unauthorized", "Send Authorization: Bearer <admin token>."
                )
            return await handler(core, actions, request)
        except ApiError as error:
            return error_response(error)

    return endpoint


def admin_routes(core: Core, actions: AdminActions) -> list[Route]:
    # Two routes may share a path ("/faults", a rider's location): Starlette keeps looking
    # past a method mismatch.
    return [
        Route(ADMIN_PREFIX + path, _wrap(core, actions, handler), methods=[method])
        for method, path, handler in ADMIN_ROUTES
    ]
