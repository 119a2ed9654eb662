"""Random bodies never crash create: every answer is a success or a documented refusal."""

from __future__ import annotations

from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.sandbox import Sandbox

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = (
    "serviceKind", "deliveryMode", "warehouseId", "senderName", "senderPhone", "receiverPhone",
    "pickupCoords", "deliveryCoords", "packageSize", "isPODEnabled", "podAmount",
    "packageImages", "customerCollectionMethod", "idempotencyKey", "errandMode", "errandLinks",
    "pickupLocationUnknown", "distanceKm", "surprise",
)  # fmt: skip
ENVELOPE_KEYS = {"ok", "error", "code", "fieldErrors", "retryAfterSeconds"}


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(edits=st.dictionaries(st.sampled_from(FIELDS), JSON | st.just("<delete>"), max_size=4))
async def test_create_never_fails_unexpectedly(
    manual_sandbox: Sandbox,
    manual_api: httpx.AsyncClient,
    pickup_body: dict[str, Any],
    edits: dict[str, Any],
) -> None:
    body = dict(pickup_body)
    for field, value in edits.items():
        if value == "<delete>":
            body.pop(field, None)
        else:
            body[field] = value
    response = await manual_api.post("/deliveries", json=body)
    assert response.status_code in (201, 400, 403), response.text
    payload = response.json()
    if response.status_code == 201:
        assert payload["ok"] is True and payload["delivery"]["id"]
    else:
        assert payload["ok"] is False and set(payload) <= ENVELOPE_KEYS
        assert payload["code"] in {
            "validation_error",
            "image_host_rejected",
            "service_disabled",
            "outside_coverage",
        }
