"""Partner API JSON as the service writes it, for tests that hand the bot a body of their own.

A test that needs a realistic body takes it from the sandbox (``bot.sandbox``); these builders
are for the bodies the sandbox would not send: a status of a test's choosing, a forged or
replayed event, a second of a test's choosing, an answer the client must parse. Two kinds:

- webhook events (``webhook_event``, ``otp_json``, ``compact``): the envelope is built here;
  what a test varies (the delivery object, the words, the second) it passes in;
- the API's answers (``delivery_json``, ``capabilities_json``, ``warehouse_json``,
  ``service_location_json``, ``rider_json``) and a create request (``create_request``): a full
  body with the test's ``overrides`` on top; ``Payloads`` hands them out as one fixture.
"""

from __future__ import annotations

import json
from typing import Any

from bot.partner.models import CreateDeliveryRequest

STATUS_CHANGED = "delivery.status_changed"


def webhook_event(
    event_id: str,
    delivery: dict[str, Any],
    *,
    created: float,
    event_type: str = STATUS_CHANGED,
    previous_status: str | None = None,
    otp: dict[str, Any] | None = None,
    summary: str = "",
    hint: str | None = None,
    docs_url: str | None = None,
    notes: list[str] | tuple[str, ...] = (),
) -> dict[str, Any]:
    """A webhook body (the spec's ``WebhookEvent``) about ``delivery``, the Delivery object it
    carries; ``created`` is cut to whole seconds, as the service sends it. ``data.otp`` is
    there only when ``otp`` is given, as only ``delivery.otp_issued`` carries one."""
    data: dict[str, Any] = {"object": delivery, "previous_status": previous_status}
    if otp is not None:
        data["otp"] = otp
    return {
        "id": event_id,
        "type": event_type,
        "created": int(created),
        "data": data,
        "summary": summary,
        "customer_message_hint": hint,
        "docs_url": docs_url,
        "agent_notes": list(notes),
    }


def otp_json(code: str, receiver_phone: str) -> dict[str, Any]:
    """The ``data.otp`` of a ``delivery.otp_issued`` event, sent for a payment by webhook."""
    return {
        "code": code,
        "receiver_phone": receiver_phone,
        "reason": "payment",
        "channel": "webhook",
    }


def compact(body: dict[str, Any]) -> bytes:
    """``body`` as the service writes it on the wire: compact JSON, as raw bytes (what its
    signature is computed over)."""
    return json.dumps(body, separators=(",", ":")).encode()


# --- the service's answers, each with overrides (the ``payloads`` of the Partner client tests) ---


def delivery_json(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "dlv_123",
        "status": "pending",
        "access_code": "AC12",
        "title": "Parcel to Yaba",
        "service_kind": "pickup_delivery",
        "request_source": "api",
        "package": {"description": "Shoes", "size": "small", "is_fragile": False},
        "payment": {
            "delivery_fee": 2500,
            "delivery_payment_status": "unpaid",
            "currency_code": "NGN",
            "customer_collection_method": "cash_on_delivery",
            "is_pod_enabled": False,
            "pod_amount": None,
        },
        "pickup": {
            "address": "1 Marina",
            "latitude": 6.45,
            "longitude": 3.39,
            "warehouse_id": None,
        },
        "dropoff": {"address": "2 Herbert Macaulay", "latitude": 6.51, "longitude": 3.37},
        "distance_km": 8.2,
        "estimated_duration_minutes": 25,
        "customer": {
            "sender_name": "Ada",
            "sender_phone": "+2348000000001",
            "sender_email": None,
            "receiver_name": "Bola",
            "receiver_phone": "+2348000000002",
        },
        "tracking": {
            "url": "https://track.test/track/dlv_123/AC12",
            "path": "/track/dlv_123/AC12",
            "access_code": "AC12",
        },
        "rider_assigned": False,
        "rider": None,
        "created_at": "2024-05-01T10:00:00Z",
        "updated_at": None,
        "cancelled_at": None,
        "cancellation_reason": None,
    }
    body.update(overrides)
    return body


def capabilities_json(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "organization": {"id": "org_1", "name": "Lagos Runners", "slug": "lagos-runners"},
        "plan": "pro",
        "enabledServiceKinds": ["pickup_delivery", "errand"],
        "defaultServiceKind": "pickup_delivery",
        "allowWarehouseDropoff": True,
        "errand": {
            "enabledModes": ["at_place", "link"],
            "defaultMode": "at_place",
            "allowUnknownShopLocation": False,
            "curatedLinks": [{"id": "l1", "name": "Shop", "url": "https://shop.test"}],
        },
        "paymentCollection": {"onlineCheckout": True, "cashOnDelivery": True},
        "currency": "NGN",
        "paymentTiming": "after_delivery",
        "coverage": {
            "mode": "radius_from_hub",
            "jobScopePolicy": "x",
            "radiusKm": 30,
            "regionCount": 0,
        },
        "pod": {"enabled": True},
        "requireDeliveryOtp": True,
        "publicRequest": {
            "requireApproval": False,
            "autoDispatch": True,
            "pricingMode": "fixed",
            "pricingAmountNgn": 2000,
        },
        "features": {"serviceLocations": True, "maxWarehouses": None},
        "rateLimits": {"requestsPerMinute": 180, "windowSeconds": 60},
    }
    body.update(overrides)
    return body


def warehouse_json(**overrides: Any) -> dict[str, Any]:
    body = {
        "id": "7b1c0f7e-0000-4000-8000-000000000001",
        "name": "Main hub",
        "address": "3 Broad St",
        "latitude": 6.45,
        "longitude": 3.4,
    }
    body.update(overrides)
    return body


def service_location_json(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "sl_1",
        "name": "Moremi Hall",
        "address": "University of Lagos",
        "category": "hostel",
        "coords": {"lng": 3.39, "lat": 6.51},
        "countryCode": "NG",
        "stateCode": "LA",
        "countryName": "Nigeria",
        "stateName": "Lagos",
        "unit": {
            "label": "Room",
            "mode": "list",
            "ranges": [{"prefix": "A", "suffix": "", "start": 1, "end": 3, "pad": 3}],
            "values": ["Porter's lodge"],
            "allowCustom": False,
            "required": True,
        },
    }
    body.update(overrides)
    return body


def rider_json(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "rdr_1",
        "name": "Tunde",
        "vehicle_type": "bike",
        "fleet_link_status": "accepted",
        "presence": "available",
        "presence_updated_at": "2024-05-01T09:55:00Z",
        "active_delivery_count": 0,
        "last_active_at": "2024-05-01T09:58:00Z",
        "location": {
            "latitude": 6.46,
            "longitude": 3.38,
            "updated_at": "2024-05-01T09:58:00Z",
            "fresh": True,
        },
        "distance_km": 1.4,
        "average_rating": 4.8,
        "total_deliveries": 120,
    }
    body.update(overrides)
    return body


def create_request(**overrides: Any) -> CreateDeliveryRequest:
    fields: dict[str, Any] = {
        "serviceKind": "pickup_delivery",
        "deliveryMode": "pickup",
        "senderName": "Ada",
        "senderPhone": "+2348000000001",
        "receiverName": "Bola",
        "receiverPhone": "+2348000000002",
        "pickupAddress": "1 Marina, Lagos",
        "pickupCoords": {"lng": 3.39, "lat": 6.45},
        "deliveryAddress": "2 Herbert Macaulay Way, Yaba",
        "deliveryCoords": {"lng": 3.37, "lat": 6.51},
        "packageDescription": "A pair of shoes",
        "packageSize": "small",
        "packageImages": ["https://media.test/p/1.jpg"],
        "customerCollectionMethod": "cash_on_delivery",
    }
    fields.update(overrides)
    return CreateDeliveryRequest.model_validate(fields)


class Payloads:
    """The builders above, handed to tests through the ``payloads`` fixture."""

    delivery = staticmethod(delivery_json)
    capabilities = staticmethod(capabilities_json)
    warehouse = staticmethod(warehouse_json)
    service_location = staticmethod(service_location_json)
    rider = staticmethod(rider_json)
    create_request = staticmethod(create_request)
