"""docs/openapi.json is a valid OpenAPI 3.1 document and says everything the spec says.

The expectations below are written from ``partner-api-spec.md`` (endpoint table, error table,
limits, events), not from the document, so a drift in either shows up here. Schemas are checked
with ``jsonschema_rs`` (bundled with schemathesis), the same validator the conformance checks of
``test_schemathesis.py`` use.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import schemathesis

from bot.partner.models import (
    ERRAND_FIELDS,
    EVENT_TYPES,
    CancelRequest,
    CreateDeliveryRequest,
    Delivery,
    ErrorBody,
    WebhookEvent,
)
from tests.support.partner_json import delivery_json, otp_json, webhook_event

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"

READ, WRITE = "deliveries:read", "deliveries:write"
# The spec's endpoint table: (method, path) -> scope.
ENDPOINTS = {
    ("get", "/capabilities"): READ,
    ("get", "/warehouses"): READ,
    ("get", "/service-locations"): READ,
    ("post", "/deliveries"): WRITE,
    ("get", "/deliveries/{deliveryId}"): READ,
    ("get", "/deliveries"): READ,
    ("post", "/deliveries/{deliveryId}/cancel"): WRITE,
    ("get", "/riders"): READ,
    ("post", "/deliveries/{deliveryId}/assign"): WRITE,
    ("post", "/deliveries/{deliveryId}/unassign"): WRITE,
}

AUTH = {
    "401": {"missing_api_key", "invalid_api_key", "api_key_auto_revoked"},
    "403": {"missing_scope", "test_keys_unsupported", "billing_terminated"},
    "429": {"rate_limited"},
}
# Per endpoint, every documented status and the codes the spec names for it (empty: no code
# shown). Authentication and rate-limit answers apply to every endpoint.
ERRORS: dict[tuple[str, str], dict[str, set[str]]] = {
    ("get", "/capabilities"): {**AUTH, "404": set(), "503": {"capabilities_failed"}},
    ("get", "/warehouses"): {**AUTH, "503": {"warehouses_failed"}},
    # The spec shows no failure here; the sandbox's choice (docs/sandbox.md) is documented.
    ("get", "/service-locations"): {**AUTH, "503": {"service_locations_failed"}},
    ("post", "/deliveries"): {
        **AUTH,
        "400": {"validation_error", "image_host_rejected"},
        "403": AUTH["403"] | {"service_disabled"},
        "503": {"create_failed"},
    },
    ("get", "/deliveries/{deliveryId}"): {
        **AUTH,
        "400": {"validation_error"},
        "404": {"not_found"},
        "500": {"get_failed"},
    },
    ("get", "/deliveries"): {**AUTH, "400": {"validation_error"}, "500": set()},
    ("post", "/deliveries/{deliveryId}/cancel"): {
        **AUTH,
        "400": {"validation_error", "cancel_not_allowed"},
        "404": {"not_found"},
        "500": {"cancel_failed"},
    },
    ("get", "/riders"): {**AUTH, "400": {"validation_error"}, "500": {"list_failed"}},
    ("post", "/deliveries/{deliveryId}/assign"): {
        **AUTH,
        "400": {
            "validation_error",
            "assign_not_allowed",
            "fee_required",
            "rider_not_found",
            "rider_not_active",
        },
        "404": {"not_found"},
        "500": {"assign_failed"},
    },
    ("post", "/deliveries/{deliveryId}/unassign"): {
        **AUTH,
        "400": {"unassign_not_allowed"},
        "404": {"not_found"},
        "500": {"unassign_failed"},
    },
}
SUCCESS = {("post", "/deliveries"): "201"}
# Codes the document names beyond the spec's error table: sandbox choices where it shows none.
SANDBOX_CODES = {"service_locations_failed"}
# The spec's error table, every code.
ERROR_TABLE_CODES = {
    "missing_api_key",
    "invalid_api_key",
    "api_key_auto_revoked",
    "missing_scope",
    "test_keys_unsupported",
    "billing_terminated",
    "rate_limited",
    "validation_error",
    "image_host_rejected",
    "service_disabled",
    "cancel_not_allowed",
    "assign_not_allowed",
    "fee_required",
    "rider_not_found",
    "rider_not_active",
    "unassign_not_allowed",
    "not_found",
    "capabilities_failed",
    "warehouses_failed",
    "create_failed",
    "get_failed",
    "list_failed",
    "cancel_failed",
    "assign_failed",
    "unassign_failed",
}
RATE_LIMIT_HEADERS = {"Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))
    return loaded


def resolve(document: dict[str, Any], node: Any) -> Any:
    """Follow local ``$ref`` pointers until a node without one."""
    while isinstance(node, dict) and "$ref" in node:
        node = pointer(document, node["$ref"])
    return node


def pointer(document: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), f"only local references are used: {ref}"
    node: Any = document
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and token in node, f"unresolvable $ref {ref}"
        node = node[token]
    return node


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def validator(document: dict[str, Any], schema: dict[str, Any]) -> jsonschema_rs.Validator:
    """A 2020-12 validator for ``schema`` whose ``#/components/...`` references resolve."""
    root = {**schema, "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


def component(document: dict[str, Any], name: str) -> jsonschema_rs.Validator:
    return validator(document, {"$ref": f"#/components/schemas/{name}"})


def documented_codes(document: dict[str, Any], response: dict[str, Any]) -> set[str]:
    """The codes an error response names: its ``code`` enum, or the ones its note lists."""
    schema = resolve(document, response)["content"]["application/json"]["schema"]
    codes: set[str] = set()
    for part in schema["allOf"]:
        code = resolve(document, part).get("properties", {}).get("code", {})
        codes.update(code.get("enum", []))
        codes.update(re.findall(r"`([a-z_]+)`", code.get("description", "")))
    return codes


# --- the document as a whole ---------------------------------------------------------------------


def test_is_openapi_3_1_and_passes_the_meta_schema(document: dict[str, Any]) -> None:
    assert document["openapi"] == "3.1.0"
    schemathesis.openapi.from_dict(copy.deepcopy(document)).validate()


def test_the_meta_schema_check_can_fail(document: dict[str, Any]) -> None:
    broken = copy.deepcopy(document)
    broken["paths"]["/capabilities"]["get"]["responses"]["200"] = {"content": {}}
    with pytest.raises(jsonschema_rs.ValidationError):
        schemathesis.openapi.from_dict(broken).validate()


def test_every_schema_is_a_valid_2020_12_schema(document: dict[str, Any]) -> None:
    for name, schema in document["components"]["schemas"].items():
        assert jsonschema_rs.meta.is_valid(schema), name


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    found = list(refs(document))
    assert len(found) > 50
    for ref in found:
        pointer(document, ref)


def test_server_is_versioned_under_api_v1(document: dict[str, Any]) -> None:
    (server,) = document["servers"]
    assert server["url"].endswith("/api/v1")


def test_both_security_schemes_are_alternatives(document: dict[str, Any]) -> None:
    schemes = document["components"]["securitySchemes"]
    assert schemes["bearerAuth"] == schemes["bearerAuth"] | {"type": "http", "scheme": "bearer"}
    assert schemes["apiKeyAuth"] == schemes["apiKeyAuth"] | {
        "type": "apiKey",
        "in": "header",
        "name": "X-Api-Key",
    }
    assert document["security"] == [{"bearerAuth": []}, {"apiKeyAuth": []}]


# --- operations -----------------------------------------------------------------------------------


def test_exactly_the_ten_endpoints_with_their_methods(document: dict[str, Any]) -> None:
    found = {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }
    assert found == set(ENDPOINTS)
    operation_ids = [document["paths"][p][m]["operationId"] for m, p in ENDPOINTS]
    assert len(set(operation_ids)) == 10


@pytest.mark.parametrize(("method", "path"), list(ENDPOINTS))
def test_each_operation_names_its_scope(document: dict[str, Any], method: str, path: str) -> None:
    scope = ENDPOINTS[(method, path)]
    operation = document["paths"][path][method]
    assert operation["security"] == [{"bearerAuth": [scope]}, {"apiKeyAuth": [scope]}]


@pytest.mark.parametrize(("method", "path"), list(ENDPOINTS))
def test_each_operation_documents_every_status_and_code(
    document: dict[str, Any], method: str, path: str
) -> None:
    responses = document["paths"][path][method]["responses"]
    success = SUCCESS.get((method, path), "200")
    assert set(responses) == {success} | set(ERRORS[(method, path)])
    for status, codes in ERRORS[(method, path)].items():
        assert documented_codes(document, responses[status]) == codes, status
        body = resolve(document, responses[status])["content"]["application/json"]["schema"]
        assert body["allOf"][0] == {"$ref": "#/components/schemas/ErrorEnvelope"}


def test_every_code_of_the_error_table_is_documented(document: dict[str, Any]) -> None:
    documented: set[str] = set()
    for method, path in ENDPOINTS:
        for status, response in document["paths"][path][method]["responses"].items():
            if status.startswith(("4", "5")):
                documented |= documented_codes(document, response)
    assert documented == ERROR_TABLE_CODES | SANDBOX_CODES


def test_429_carries_the_rate_limit_headers_and_retry_after_seconds(
    document: dict[str, Any],
) -> None:
    response = document["components"]["responses"]["RateLimited"]
    headers = {name: resolve(document, h) for name, h in response["headers"].items()}
    assert set(headers) == RATE_LIMIT_HEADERS
    assert all(header["required"] for header in headers.values())
    body = validator(document, response["content"]["application/json"]["schema"])
    limited = {"ok": False, "error": "slow down", "code": "rate_limited"}
    assert body.is_valid({**limited, "retryAfterSeconds": 12})
    assert not body.is_valid(limited)


def test_request_limits_from_the_spec(document: dict[str, Any]) -> None:
    paths = document["paths"]
    limit, _status, cursor = paths["/deliveries"]["get"]["parameters"]
    assert limit["schema"] | {"minimum": 1, "maximum": 50, "default": 20} == limit["schema"]
    assert cursor["schema"]["format"] == "uuid"
    radius = next(p for p in paths["/riders"]["get"]["parameters"] if p["name"] == "radius_km")
    assert radius["schema"] | {"minimum": 0, "maximum": 500} == radius["schema"]


# --- schemas say what the spec says ---------------------------------------------------------------


def a_create_request(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "serviceKind": "pickup_delivery",
        "deliveryMode": "pickup",
        "senderName": "Ada",
        "senderPhone": "+2348012345678",
        "receiverName": "Tunde",
        "receiverPhone": "+2348098765432",
        "pickupAddress": "12 Broad St, Lagos",
        "pickupCoords": {"lng": 3.3947, "lat": 6.4541},
        "deliveryAddress": "3 Herbert Macaulay Way",
        "deliveryCoords": {"lng": 3.3711, "lat": 6.5095},
        "packageDescription": "A pair of shoes",
        "packageSize": "small",
        "packageImages": ["https://media.example.com/p/1.jpg"],
        "customerCollectionMethod": "cash_on_delivery",
        "idempotencyKey": "order-10001",
    }
    body.update(changes)
    return body


# The spec's Delivery table: every field is always present (``T | null`` may be null).
DELIVERY_FIELDS = {
    "": {
        "id",
        "status",
        "access_code",
        "title",
        "service_kind",
        "request_source",
        "package",
        "payment",
        "pickup",
        "dropoff",
        "distance_km",
        "estimated_duration_minutes",
        "customer",
        "tracking",
        "rider_assigned",
        "rider",
        "created_at",
        "updated_at",
        "cancelled_at",
        "cancellation_reason",
    },
    "package": {"description", "size", "is_fragile"},
    "payment": {
        "delivery_fee",
        "delivery_payment_status",
        "currency_code",
        "customer_collection_method",
        "is_pod_enabled",
        "pod_amount",
    },
    "pickup": {"address", "latitude", "longitude", "warehouse_id"},
    "dropoff": {"address", "latitude", "longitude"},
    "customer": {
        "sender_name",
        "sender_phone",
        "sender_email",
        "receiver_name",
        "receiver_phone",
    },
    "tracking": {"url", "path", "access_code"},
    "rider": {"id", "name", "vehicle_type"},
}


def test_delivery_requires_every_field_of_the_spec(document: dict[str, Any]) -> None:
    delivery = document["components"]["schemas"]["Delivery"]
    for part, fields in DELIVERY_FIELDS.items():
        schema = resolve(document, delivery["properties"][part]) if part else delivery
        assert set(schema["required"]) == fields == set(schema["properties"]), part


def test_delivery_accepts_the_spec_shape_and_open_enums(document: dict[str, Any]) -> None:
    schema = component(document, "Delivery")
    sample = delivery_json()
    Delivery.model_validate(sample)  # the client model reads the same shape
    assert schema.is_valid(sample)
    assert schema.is_valid(
        delivery_json(
            status="returned_to_sender",
            service_kind="parcel_locker",
            request_source="zapier",
            rider={"id": "r1", "name": None, "vehicle_type": None},
        )
    )
    assert schema.is_valid(delivery_json(service_kind=None, request_source=None))
    assert not schema.is_valid(delivery_json(rider_assigned=None))
    assert not schema.is_valid({"id": "d1", "status": "pending"})
    assert not schema.is_valid(delivery_json(created_at="yesterday"))


def test_cancel_may_answer_with_only_id_and_status(document: dict[str, Any]) -> None:
    cancel = component(document, "CancelResponse")
    get = component(document, "DeliveryResponse")
    reduced = {"ok": True, "delivery": {"id": "d1", "status": "cancelled"}}
    assert cancel.is_valid(reduced)
    assert not get.is_valid(reduced)
    assert cancel.is_valid({"ok": True, "delivery": delivery_json(status="cancelled")})
    assert not cancel.is_valid(
        {"ok": True, "delivery": {"id": "d1", "status": "cancelled", "x": 1}}
    )


def test_delivery_page_has_a_nullable_cursor(document: dict[str, Any]) -> None:
    page = component(document, "DeliveryPage")
    assert page.is_valid({"ok": True, "deliveries": [delivery_json()], "next_cursor": None})
    assert page.is_valid(
        {"ok": True, "deliveries": [], "next_cursor": "6f1c2e9a-1d7b-4a53-9a44-1f7c0e2b9b10"}
    )
    assert not page.is_valid({"ok": True, "deliveries": []})


def test_create_request_rules(document: dict[str, Any]) -> None:
    schema = component(document, "CreateDeliveryRequest")
    assert schema.is_valid(a_create_request())
    rejected = [
        a_create_request(receiverName=""),
        {k: v for k, v in a_create_request().items() if k != "receiverPhone"},
        a_create_request(packageImages=[]),
        a_create_request(packageImages=["https://media.example.com/p.jpg"] * 7),
        a_create_request(packageImages=["http://media.example.com/p.jpg"]),
        a_create_request(idempotencyKey="short12"),
        a_create_request(idempotencyKey="k" * 121),
        a_create_request(pickupCoords={"lng": 0, "lat": 0}),
        a_create_request(deliveryCoords={"lng": 3.3, "lat": 91}),
        a_create_request(packageSize="huge"),
        a_create_request(customerCollectionMethod="barter"),
        a_create_request(deliveryMode="warehouse"),
        a_create_request(senderEmail="not-an-email"),
        an_errand(errandMode=None),
        an_errand(isPODEnabled=True),
        an_errand(errandMode="photo"),
        an_errand(errandMode="link"),
        *[an_errand(**{name: None}) for name in ERRAND_FIELDS],
        a_create_request(surprise=True),
    ]
    for body in rejected:
        assert not schema.is_valid(body), body
    accepted = [
        a_create_request(idempotencyKey="k" * 8),
        a_create_request(idempotencyKey="k" * 120),
        a_create_request(senderEmail=""),
        a_create_request(packageImages=["https://media.example.com/p.jpg"] * 6),
        a_create_request(
            deliveryMode="warehouse", warehouseId="0d3c5a8e-0a4e-4e0c-9d43-2a1f55a0c6a1"
        ),
        an_errand(),
        an_errand(errandMode="link", errandLinks=[{"url": "https://shop.example.com", "note": ""}]),
        an_errand(errandMode="photo", packageImages=["https://media.example.com/p.jpg"]),
    ]
    for body in accepted:
        assert schema.is_valid(body), body


def an_errand(**changes: Any) -> dict[str, Any]:
    """An at_place errand with all six errand fields, the extras empty (allowed)."""
    errand = a_create_request(
        serviceKind="errand",
        errandMode="at_place",
        errandLinks=[],
        errandBudgetNgn="",
        errandSubstituteOk=False,
        shopPhone="",
        pickupLocationUnknown=False,
        packageImages=[],
    )
    errand.update(changes)
    return {name: value for name, value in errand.items() if value is not None}


def test_a_create_validation_error_always_carries_field_errors(document: dict[str, Any]) -> None:
    response = document["paths"]["/deliveries"]["post"]["responses"]["400"]
    body = validator(document, response["content"]["application/json"]["schema"])
    failure = {"ok": False, "error": "Some fields are missing or invalid."}
    assert body.is_valid({**failure, "code": "validation_error", "fieldErrors": {"x": ["bad"]}})
    assert not body.is_valid({**failure, "code": "validation_error"})
    assert body.is_valid({**failure, "code": "image_host_rejected"})


def test_what_the_client_model_sends_is_accepted(document: dict[str, Any]) -> None:
    schema = component(document, "CreateDeliveryRequest")
    request = CreateDeliveryRequest.model_validate(a_create_request(isFragile=True))
    assert schema.is_valid(request.to_wire())


def test_cancel_reason_is_3_to_500_characters(document: dict[str, Any]) -> None:
    schema = component(document, "CancelRequest")
    for reason, valid in [("ab", False), ("abc", True), ("x" * 500, True), ("x" * 501, False)]:
        assert schema.is_valid({"reason": reason}) is valid
        if valid:
            CancelRequest(reason=reason)


def test_error_envelope(document: dict[str, Any]) -> None:
    schema = component(document, "ErrorEnvelope")
    body = {
        "ok": False,
        "error": "Some fields are invalid",
        "code": "validation_error",
        "fieldErrors": {"receiverPhone": ["is required"]},
    }
    ErrorBody.model_validate(body)
    assert schema.is_valid(body)
    assert not schema.is_valid(body | {"ok": True})
    assert not schema.is_valid(body | {"fieldErrors": {"receiverPhone": "is required"}})


# --- webhooks ------------------------------------------------------------------------------------


def an_event(type_: str, otp: dict[str, Any] | None = None) -> dict[str, Any]:
    return webhook_event(
        "evt_1",
        delivery_json(),
        created=1735812000,
        event_type=type_,
        otp=otp,
        summary="Delivery created and waiting for a rider.",
        docs_url="https://docs.example.com/webhooks",
        notes=["Share the tracking link with the customer."],
    )


OTP = otp_json("4821", "+2348098765432")


def test_webhooks_cover_the_six_events_with_signed_headers(document: dict[str, Any]) -> None:
    webhooks = document["webhooks"]
    assert set(webhooks) == set(EVENT_TYPES)
    for event, item in webhooks.items():
        operation = item["post"]
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert set(headers) == {"Service-Event", "Service-Signature"}
        assert all(header["required"] for header in headers.values())
        assert headers["Service-Event"]["schema"]["const"] == event
        signature = validator(document, headers["Service-Signature"]["schema"])
        assert signature.is_valid("t=1735812000,v1=" + "ab" * 32)
        assert not signature.is_valid("v1=" + "ab" * 32)

        body = validator(
            document, operation["requestBody"]["content"]["application/json"]["schema"]
        )
        otp = {"otp": OTP} if event == "delivery.otp_issued" else {}
        sample = an_event(event, **otp)
        WebhookEvent.model_validate(sample)
        assert body.is_valid(sample), event
        other = "delivery.updated" if event != "delivery.updated" else "delivery.created"
        assert not body.is_valid(sample | {"type": other}), event


def test_only_otp_issued_carries_data_otp(document: dict[str, Any]) -> None:
    issued = component(document, "DeliveryOtpIssuedEvent")
    created = component(document, "DeliveryCreatedEvent")
    assert issued.is_valid(an_event("delivery.otp_issued", otp=OTP | {"reason": "resend"}))
    assert not issued.is_valid(an_event("delivery.otp_issued"))
    assert not issued.is_valid(an_event("delivery.otp_issued", otp=OTP | {"reason": "sms"}))
    assert not created.is_valid(an_event("delivery.created", otp=OTP))
