"""Checks of the Partner client's call parameters, made before anything is sent.

The spec limits list ``limit``, the rider filters, the cancel ``reason`` and the create body;
a delivery id must make a safe path segment. A violation raises ``errors.InvalidFields`` with
``status == 0`` and ``field_errors`` keyed by the wire name, the same shape the service uses, so
a caller handles a local and a remote rejection alike. Each check returns what is sent: a path,
query parameters, or the text of a body field.
"""

from __future__ import annotations

import math
from urllib.parse import quote

import pydantic

from bot.partner import errors
from bot.partner.models import (
    CANCEL_REASON_LENGTH,
    LIST_LIMIT_RANGE,
    RADIUS_KM_RANGE,
    CreateDeliveryRequest,
)

_MAX_ID_LENGTH = 200


def local_error(field: str, problem: str) -> errors.InvalidFields:
    """The error for one parameter that failed a check here."""
    return errors.InvalidFields(
        f"{field}: {problem} (checked before sending)", field_errors={field: [problem]}
    )


def create_request(request: CreateDeliveryRequest) -> CreateDeliveryRequest:
    """``request`` validated again: a request model can be mutated after it was built."""
    try:
        return CreateDeliveryRequest.model_validate(request.model_dump())
    except pydantic.ValidationError as exc:
        raise _from_pydantic(exc) from None


def delivery_path(delivery_id: str, action: str | None = None) -> str:
    """``/deliveries/{id}`` or ``/deliveries/{id}/{action}``, the id quoted as one segment."""
    if not isinstance(delivery_id, str) or not delivery_id.strip():
        raise local_error("deliveryId", "must not be empty")
    if delivery_id in (".", "..") or len(delivery_id) > _MAX_ID_LENGTH:
        raise local_error("deliveryId", "is not a delivery id")
    path = f"/deliveries/{quote(delivery_id, safe='')}"
    return f"{path}/{action}" if action else path


def list_params(*, limit: int | None, status: str | None, cursor: str | None) -> dict[str, str]:
    """The query of ``GET /deliveries``."""
    params: dict[str, str] = {}
    if limit is not None:
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise local_error("limit", "must be a whole number")
        low, high = LIST_LIMIT_RANGE
        if not low <= limit <= high:
            raise local_error("limit", f"must be between {low} and {high}")
        params["limit"] = str(limit)
    if status is not None:
        if not status:
            raise local_error("status", "must not be empty")
        params["status"] = status
    if cursor is not None:
        if not cursor:
            raise local_error("cursor", "must not be empty")
        params["cursor"] = cursor
    return params


def cancel_reason(reason: str) -> str:
    """The ``reason`` as sent: stripped, 3 to 500 characters."""
    text = reason.strip() if isinstance(reason, str) else ""
    low, high = CANCEL_REASON_LENGTH
    if not low <= len(text) <= high:
        raise local_error("reason", f"must be {low} to {high} characters")
    return text


def rider_id(value: str) -> str:
    """The ``riderId`` of an assignment, which must not be blank."""
    if not isinstance(value, str) or not value.strip():
        raise local_error("riderId", "must not be empty")
    return value


def rider_params(
    *,
    pickup_lat: float | None,
    pickup_lng: float | None,
    radius_km: float | None,
    idle_only: bool,
) -> dict[str, str]:
    """The query of ``GET /riders``: coordinates go together, ``radius_km`` needs them."""
    params: dict[str, str] = {}
    if (pickup_lat is None) != (pickup_lng is None):
        missing = "pickup_lng" if pickup_lng is None else "pickup_lat"
        raise local_error(missing, "pickup_lat and pickup_lng must be given together")
    if pickup_lat is not None and pickup_lng is not None:
        params["pickup_lat"] = _number("pickup_lat", pickup_lat, -90.0, 90.0)
        params["pickup_lng"] = _number("pickup_lng", pickup_lng, -180.0, 180.0)
    if radius_km is not None:
        if not params:
            raise local_error("radius_km", "needs pickup_lat and pickup_lng")
        params["radius_km"] = _number("radius_km", radius_km, *RADIUS_KM_RANGE)
    if idle_only:
        params["idle_only"] = "true"
    return params


def _number(name: str, value: float, low: float, high: float) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise local_error(name, "must be a finite number")
    if not low <= value <= high:
        raise local_error(name, f"must be between {low:g} and {high:g}")
    return repr(float(value))


def _from_pydantic(exc: pydantic.ValidationError) -> errors.InvalidFields:
    field_errors: dict[str, list[str]] = {}
    for item in exc.errors(include_input=False, include_url=False):
        if item["loc"]:
            field_errors.setdefault(str(item["loc"][0]), []).append(str(item["msg"]))
            continue
        # A rule across fields says "<field>: <problem>; ..." (see CreateDeliveryRequest).
        text = str(item["msg"]).removeprefix("Value error, ")
        for part in text.split("; "):
            field, sep, problem = part.partition(": ")
            if sep and field in CreateDeliveryRequest.model_fields:
                field_errors.setdefault(field, []).append(problem)
            else:
                field_errors.setdefault("request", []).append(part)
    summary = "; ".join(f"{name}: {msgs[0]}" for name, msgs in field_errors.items())
    return errors.InvalidFields(f"{summary} (checked before sending)", field_errors=field_errors)
