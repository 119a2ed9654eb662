"""The ten Partner API endpoints under ``/api/v1``.

Every call goes through the same gate: authenticate, count against the key's rate limit
(``RateLimit-*`` headers on every answer to a capped key), check the operation's scope, then
the handler. Events a handler raises are released to the webhook queue in a background task,
which Starlette runs only after the response has been sent.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bot.partner.models import DELIVERY_STATUSES, LIST_LIMIT_DEFAULT, LIST_LIMIT_RANGE
from bot.sandbox.auth import authenticate, require_scope
from bot.sandbox.core import Core
from bot.sandbox.coverage import check_coverage
from bot.sandbox.create_rules import read_create
from bot.sandbox.error_envelope import ApiError, error_response, validation_error
from bot.sandbox.idempotency import fingerprint
from bot.sandbox.key_rate_limit import rate_limited
from bot.sandbox.operations import API_PREFIX, OPERATIONS, Operation
from bot.sandbox.rider_query import QUERY_PARAMS as RIDER_QUERY_PARAMS
from bot.sandbox.rider_query import list_riders, parse_rider_query
from bot.sandbox.state import KeyRecord
from bot.sandbox.validation import (
    FieldReader,
    check_delivery_id,
    is_uuid,
    parse_json_object,
    query_params,
)
from bot.sandbox.views import capabilities_view, service_location_view, warehouse_view

_SMALL_WHOLE_NUMBER = re.compile(r"^[0-9]{1,3}$")
Handler = Callable[[Core, Request, KeyRecord], Awaitable[Response]]


def _ok(
    payload: dict[str, Any], status: int = 200, background: BackgroundTask | None = None
) -> JSONResponse:
    return JSONResponse({"ok": True, **payload}, status_code=status, background=background)


async def get_capabilities(core: Core, request: Request, key: KeyRecord) -> Response:
    return _ok({"capabilities": capabilities_view(core.scenario)})


async def list_warehouses(core: Core, request: Request, key: KeyRecord) -> Response:
    rows = [warehouse_view(w) for w in core.scenario.active_warehouses()]
    return _ok({"warehouses": rows})


async def list_service_locations(core: Core, request: Request, key: KeyRecord) -> Response:
    scenario = core.scenario
    enabled = scenario.capabilities.features.serviceLocations
    rows = [service_location_view(loc) for loc in scenario.service_locations] if enabled else []
    return _ok({"serviceLocations": rows})


async def create_delivery(core: Core, request: Request, key: KeyRecord) -> Response:
    body = parse_json_object(await request.body())
    order = read_create(body, core.scenario)
    body_print = fingerprint(body)
    async with core.idempotency.guard(order.idempotency_key):
        replayed = core.idempotency.replay(order.idempotency_key, body_print)
        if replayed is not None:
            record = core.lifecycle.get(replayed)
            response = _ok({"delivery": core.lifecycle.view(record)}, 201)
            response.headers["Idempotent-Replayed"] = "true"
            return response
        check_coverage(core.scenario.coverage, order)
        images = await core.images.fetch_all(order.package_images)
        record, events = core.lifecycle.create(order, images, key.id)
        core.idempotency.remember(order.idempotency_key, body_print, record.id)
    return _ok({"delivery": core.lifecycle.view(record)}, 201, core.after_response(events))


async def get_delivery(core: Core, request: Request, key: KeyRecord) -> Response:
    delivery_id = request.path_params["deliveryId"]
    check_delivery_id(delivery_id)
    return _ok({"delivery": core.lifecycle.view(core.lifecycle.get(delivery_id))})


async def list_deliveries(core: Core, request: Request, key: KeyRecord) -> Response:
    params = query_params(request.query_params.multi_items(), ("limit", "status", "cursor"))
    problems: dict[str, list[str]] = {}
    low, high = LIST_LIMIT_RANGE
    limit_text = params.get("limit", str(LIST_LIMIT_DEFAULT))
    limit = int(limit_text) if _SMALL_WHOLE_NUMBER.fullmatch(limit_text) else 0
    if not low <= limit <= high:
        problems["limit"] = [f"must be a whole number from {low} to {high}"]
    status = params.get("status")
    if status is not None and status not in DELIVERY_STATUSES:
        problems["status"] = ["must be one of: " + ", ".join(DELIVERY_STATUSES)]
    cursor = params.get("cursor")
    after_seq: int | None = None
    if cursor is not None:
        cursor_record = core.store.delivery(cursor) if is_uuid(cursor) else None
        if cursor_record is None:
            problems["cursor"] = ["must be the next_cursor of a previous page"]
        else:
            after_seq = cursor_record.seq
    if problems:
        raise validation_error(problems)
    rows = [
        record
        for record in core.store.newest_first()
        if (status is None or record.status == status)
        and (after_seq is None or record.seq < after_seq)
    ]
    page = rows[:limit]
    next_cursor = page[-1].id if len(rows) > limit else None
    views = [core.lifecycle.view(record) for record in page]
    return _ok({"deliveries": views, "next_cursor": next_cursor})


async def cancel_delivery(core: Core, request: Request, key: KeyRecord) -> Response:
    delivery_id = request.path_params["deliveryId"]
    check_delivery_id(delivery_id)
    reader = FieldReader(parse_json_object(await request.body()))
    reader.reject_unknown(("reason",))
    reason = reader.string("reason", required=True, min_len=3, max_len=500)
    reader.raise_if_errors()
    record, events = core.lifecycle.cancel(delivery_id, reason or "")
    return _ok({"delivery": core.lifecycle.view(record)}, 200, core.after_response(events))


async def list_fleet_riders(core: Core, request: Request, key: KeyRecord) -> Response:
    params = query_params(request.query_params.multi_items(), RIDER_QUERY_PARAMS)
    query = parse_rider_query(params)
    return _ok({"riders": list_riders(core.store.riders.values(), query, core.clock())})


async def assign_rider(core: Core, request: Request, key: KeyRecord) -> Response:
    delivery_id = request.path_params["deliveryId"]
    check_delivery_id(delivery_id)
    reader = FieldReader(parse_json_object(await request.body()))
    reader.reject_unknown(("riderId",))
    rider_id = reader.string("riderId", required=True, max_len=200)
    reader.raise_if_errors()
    record, events = core.lifecycle.assign(delivery_id, rider_id or "")
    return _ok({"delivery": core.lifecycle.view(record)}, 200, core.after_response(events))


async def unassign_rider(core: Core, request: Request, key: KeyRecord) -> Response:
    # The spec lists no validation_error for unassign: a malformed id is simply not found.
    delivery_id = request.path_params["deliveryId"]
    record, events = core.lifecycle.unassign(delivery_id)
    return _ok({"delivery": core.lifecycle.view(record)}, 200, core.after_response(events))


HANDLERS: dict[str, Handler] = {
    "get_capabilities": get_capabilities,
    "list_warehouses": list_warehouses,
    "list_service_locations": list_service_locations,
    "create_delivery": create_delivery,
    "get_delivery": get_delivery,
    "list_deliveries": list_deliveries,
    "cancel_delivery": cancel_delivery,
    "list_riders": list_fleet_riders,
    "assign_rider": assign_rider,
    "unassign_rider": unassign_rider,
}


def _endpoint(
    core: Core, operation: Operation, handler: Handler
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        rate_headers: dict[str, str] = {}
        try:
            key = authenticate(request.headers, core.store, core.scenario.organization)
            window = core.limiter.hit(key.id)
            if window is not None:
                rate_headers = window.headers()
                if not window.allowed:
                    raise rate_limited(window)
            require_scope(key, operation.scope)
            response = await handler(core, request, key)
        except ApiError as error:
            return error_response(error, rate_headers)
        response.headers.update(rate_headers)
        return response

    return endpoint


def api_routes(core: Core) -> list[Route]:
    return [
        Route(
            API_PREFIX + operation.path,
            _endpoint(core, operation, HANDLERS[operation.name]),
            methods=[operation.method],
            name=operation.name,
        )
        for operation in OPERATIONS
    ]
