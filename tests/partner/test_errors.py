"""The error tree: every documented code, unknown codes by status, odd bodies, no secrets."""

from __future__ import annotations

import json

import pytest

from bot.partner import errors
from bot.partner.errors import error_from_response

# Every row of the spec's error table: (HTTP status, code, class).
DOCUMENTED = [
    (401, "missing_api_key", errors.MissingApiKey),
    (401, "invalid_api_key", errors.InvalidApiKey),
    (401, "api_key_auto_revoked", errors.ApiKeyAutoRevoked),
    (403, "missing_scope", errors.MissingScope),
    (403, "test_keys_unsupported", errors.TestKeysUnsupported),
    (403, "billing_terminated", errors.BillingTerminated),
    (429, "rate_limited", errors.RateLimited),
    (400, "validation_error", errors.InvalidFields),
    (400, "image_host_rejected", errors.ImageHostRejected),
    (403, "service_disabled", errors.ServiceDisabled),
    (400, "cancel_not_allowed", errors.CancelNotAllowed),
    (400, "assign_not_allowed", errors.AssignNotAllowed),
    (400, "fee_required", errors.FeeRequired),
    (400, "rider_not_found", errors.RiderNotFound),
    (400, "rider_not_active", errors.RiderNotActive),
    (400, "unassign_not_allowed", errors.UnassignNotAllowed),
    (404, "not_found", errors.NotFound),
    (503, "capabilities_failed", errors.CapabilitiesFailed),
    (503, "warehouses_failed", errors.WarehousesFailed),
    (503, "create_failed", errors.CreateFailed),
    (500, "get_failed", errors.GetFailed),
    (500, "list_failed", errors.ListFailed),
    (500, "cancel_failed", errors.CancelFailed),
    (500, "assign_failed", errors.AssignFailed),
    (500, "unassign_failed", errors.UnassignFailed),
]


def envelope(code: str | None, message: str = "It failed", **extra: object) -> bytes:
    body: dict[str, object] = {"ok": False, "error": message, **extra}
    if code is not None:
        body["code"] = code
    return json.dumps(body).encode()


def test_the_table_covers_every_documented_code():
    assert {code for _, code, _ in DOCUMENTED} == set(errors.ERRORS_BY_CODE)


@pytest.mark.parametrize("on_create", [False, True])
@pytest.mark.parametrize(("status", "code", "cls"), DOCUMENTED, ids=[c for _, c, _ in DOCUMENTED])
def test_every_documented_code_maps_to_its_class(status, code, cls, on_create):
    error = error_from_response(status, envelope(code, "Readable text"), on_create=on_create)
    assert type(error) is cls
    assert (error.status, error.code, error.message) == (status, code, "Readable text")
    assert str(error) == f"HTTP {status} {code}: Readable text"


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.InvalidRequest),
        (401, errors.AuthenticationError),
        (403, errors.ForbiddenError),
        (404, errors.NotFound),
        (409, errors.ClientError),
        (429, errors.RateLimited),
        (500, errors.OperationFailed),
        (502, errors.ServerError),
        (503, errors.UpstreamUnavailable),
        (504, errors.ServerError),
    ],
)
def test_an_unknown_code_maps_by_status(status, cls):
    error = error_from_response(status, envelope("brand_new_code"))
    assert type(error) is cls
    assert error.code == "brand_new_code"


def test_a_known_code_on_an_unexpected_status_keeps_the_status_branch():
    error = error_from_response(500, envelope("not_found"))
    assert type(error) is errors.OperationFailed
    assert error.code == "not_found"


def test_a_missing_code_maps_by_status():
    error = error_from_response(404, envelope(None, "Organization not found"))
    assert type(error) is errors.NotFound
    assert error.message == "Organization not found"


def test_an_html_proxy_page_is_a_clear_error():
    page = b"<html><body><h1>502 Bad Gateway</h1>" + b"x" * 5000 + b"</body></html>"
    error = error_from_response(502, page, {"Content-Type": "text/html"})
    assert isinstance(error, errors.ServerError)
    assert error.code is None
    assert str(error) == f"HTTP 502: unexpected non-JSON answer (text/html, {len(page)} bytes)"
    assert "<html>" not in repr(error)


@pytest.mark.parametrize("body", [b"", b"null", b"[1, 2]", b'"text"', b"\xff\xfe"])
def test_bodies_that_are_not_an_envelope_still_give_an_error(body):
    error = error_from_response(503, body)
    assert type(error) is errors.UpstreamUnavailable
    assert "non-JSON" in error.message


def test_an_unknown_403_on_create_is_a_create_rejection():
    error = error_from_response(403, envelope("outside_coverage"), on_create=True)
    assert type(error) is errors.CreateRejected
    assert error.code == "outside_coverage"
    assert error.invalidates_capabilities


def test_an_unknown_403_elsewhere_is_plain_forbidden():
    error = error_from_response(403, envelope("outside_coverage"))
    assert type(error) is errors.ForbiddenError
    assert not error.invalidates_capabilities


def test_field_errors_are_kept_by_request_field():
    body = envelope(
        "validation_error",
        fieldErrors={"receiverPhone": ["Required"], "packageImages": "Too many"},
    )
    error = error_from_response(400, body)
    assert error.field_errors == {"receiverPhone": ["Required"], "packageImages": ["Too many"]}


@pytest.mark.parametrize(
    ("body", "headers", "expected"),
    [
        (envelope("rate_limited", retryAfterSeconds=12), {}, 12.0),
        (envelope("rate_limited"), {"Retry-After": "7"}, 7.0),
        (envelope("rate_limited", retryAfterSeconds="soon"), {}, None),
        (envelope("rate_limited", retryAfterSeconds=-1), {}, None),
    ],
)
def test_rate_limited_carries_retry_after(body, headers, expected):
    error = error_from_response(429, body, headers)
    assert isinstance(error, errors.RateLimited)
    assert error.retry_after == expected


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (errors.ServiceDisabled(), True),
        (errors.CreateRejected(), True),
        (errors.InvalidFields(field_errors={"customerCollectionMethod": ["off"]}), True),
        (errors.InvalidFields(field_errors={"isPODEnabled": ["not allowed"]}), True),
        (errors.InvalidFields(field_errors={"receiverPhone": ["Required"]}), False),
        (errors.NotFound(), False),
        (errors.CreateFailed(), False),
    ],
)
def test_which_errors_make_capabilities_stale(error, expected):
    assert error.invalidates_capabilities is expected


def test_long_service_messages_are_cut():
    error = error_from_response(400, envelope("validation_error", "x" * 5000))
    assert len(error.message) == 300


def test_repr_names_the_class_status_and_code():
    error = error_from_response(401, envelope("invalid_api_key", "Unknown key"))
    assert repr(error) == "InvalidApiKey(status=401, code='invalid_api_key', message='Unknown key')"


def test_transport_errors_say_no_answer_came():
    assert str(errors.RequestTimeout()) == "no HTTP answer: the Partner API did not answer in time"
