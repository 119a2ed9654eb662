"""Schemathesis against the sandbox: no generated call gets a 5xx or an answer the document forbids.

The schema under test is the contract, ``docs/openapi.json``, and the sandbox must serve that same
document. Calls go in-process over ``httpx.ASGITransport`` in the test's own event loop; webhooks,
image downloads and DNS go to the in-process fakes of ``conftest.py``, so nothing leaves the
process.

Every operation gets a bounded number of positive and negative cases (``MAX_EXAMPLES``) with a
fixed seed. Credentials are drawn per case: mostly the sandbox key in either header, sometimes no
key, both headers, an unknown key or a malformed one, so authentication answers are checked too.
The clock moves a few seconds per call, so the per-key rate limit stays out of the way of
generation; its 429 is checked on purpose in a test of its own.

Random ids would only ever meet 404s, so each sandbox is first seeded, through the API, with
deliveries in different states, and generated cases aim at those ids (and at listed riders) half
of the time; a generated create body is likewise swapped, half of the time, for a valid order
with a few generated fields laid over it, so create reaches coverage, images and dispatch.

Schemathesis does not exercise the document's ``webhooks``: the last test drives deliveries
through all six events and checks every webhook the sandbox sent against the document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
import jsonschema_rs
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from bot.sandbox import Sandbox
from tests.support.clock import FakeClock

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.json"
SCHEMA = schemathesis.openapi.from_path(DOCUMENT_PATH)
Operation = APIOperation[Any, Any, Any, Any]
GeneratedCase = Case[Any]
OPERATIONS: dict[str, Operation] = {
    operation.label: operation for methods in SCHEMA.values() for operation in methods.values()
}

MAX_EXAMPLES = 30  # per operation; 10 operations
SECONDS_PER_CALL = 3.0  # 20 calls a minute: under any plan's per-key limit
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
CREDENTIAL_HEADERS = ("authorization", "x-api-key")
CREDENTIALS = ("bearer",) * 3 + ("x-api-key",) * 3 + ("none", "both", "unknown", "malformed")
# Inside coverage but more than the auto-dispatch radius from every fresh rider.
LEKKI = {"lng": 3.4723, "lat": 6.4474}


class Receiver(Protocol):
    requests: list[httpx.Request]


class Connect(Protocol):
    def __call__(
        self, box: Sandbox, key: str | None = None, header: str | None = "bearer"
    ) -> httpx.AsyncClient: ...


@dataclass(frozen=True)
class Seeded:
    """What exists in the sandbox, for cases to aim at."""

    orders: list[dict[str, Any]]
    delivery_ids: list[str]
    rider_ids: list[str]


def credentials(kind: str, key: str) -> dict[str, str]:
    return {
        "bearer": {"Authorization": f"Bearer {key}"},
        "x-api-key": {"X-Api-Key": key},
        "none": {},
        "both": {"Authorization": f"Bearer {key}", "X-Api-Key": key},
        "unknown": {"Authorization": "Bearer sk_live_" + "0" * 32},
        "malformed": {"X-Api-Key": "not-a-key"},
    }[kind]


def cases(operation: Operation) -> st.SearchStrategy[GeneratedCase]:
    return st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )


STRATEGIES = {label: cases(operation) for label, operation in OPERATIONS.items()}


def aim(case: GeneratedCase, data: st.DataObject, seeded: Seeded) -> None:
    """Half of the time, point the case at things that exist (see the module docstring)."""
    if "deliveryId" in (case.path_parameters or {}) and data.draw(st.booleans(), "known id"):
        case.path_parameters["deliveryId"] = data.draw(st.sampled_from(seeded.delivery_ids))
    body = case.body
    if not isinstance(body, dict):
        return
    if "riderId" in body and data.draw(st.booleans(), "known rider"):
        body["riderId"] = data.draw(st.sampled_from(seeded.rider_ids))
    if case.operation.label == "POST /deliveries" and data.draw(st.booleans(), "valid order"):
        order = data.draw(st.sampled_from(seeded.orders))
        overlay = data.draw(st.sets(st.sampled_from(sorted(body)), max_size=2), "overlay")
        case.body = order | {name: body[name] for name in overlay}


async def send(
    client: httpx.AsyncClient, case: GeneratedCase, base_url: str, auth: dict[str, str]
) -> tuple[httpx.Response, dict[str, str]]:
    """Send ``case`` as schemathesis serialises it, with ``auth`` as its only credentials."""
    wire = case.as_transport_kwargs(base_url=base_url)
    headers = {
        name: value
        for name, value in wire["headers"].items()
        if name.lower() not in CREDENTIAL_HEADERS
    }
    headers.update(auth)
    body: dict[str, Any] = {}
    if "json" in wire:
        body["json"] = wire["json"]
    elif "data" in wire:
        body["content"] = wire["data"]
    response = await client.request(
        wire["method"], wire["url"], headers=headers, params=wire.get("params"), **body
    )
    return response, headers


def conforms(label: str, response: httpx.Response, headers: dict[str, str], **case: Any) -> None:
    """Check a hand-made call's answer with the same checks as the generated ones."""
    OPERATIONS[label].Case(**case).validate_response(response, checks=CHECKS, headers=headers)


def document_validator(document: dict[str, Any], schema: dict[str, Any]) -> jsonschema_rs.Validator:
    """A validator for ``schema`` whose ``#/components/...`` references resolve in ``document``."""
    root = {**schema, "components": document["components"]}
    return jsonschema_rs.Draft202012Validator(root, validate_formats=True)


@pytest.fixture
def client(connect: Connect, sandbox: Sandbox) -> httpx.AsyncClient:
    """A client without credentials: every call brings its own."""
    return connect(sandbox, header=None)


@pytest.fixture
def orders(pickup_body: dict[str, Any], errand_body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        # Next to an available rider: auto-dispatched on create.
        pickup_body | {"isPODEnabled": True, "podAmount": 12000},
        # Far from every fresh rider: stays pending.
        pickup_body | {"pickupCoords": LEKKI, "customerCollectionMethod": "online_checkout"},
        errand_body,
    ]


@pytest.fixture
async def seeded(
    sandbox: Sandbox, client: httpx.AsyncClient, orders: list[dict[str, Any]]
) -> Seeded:
    auth = credentials("bearer", sandbox.api_key)
    delivery_ids = []
    for order in orders:
        response = await client.post("deliveries", json=order, headers=auth)
        assert response.status_code == 201, response.text
        conforms("POST /deliveries", response, auth, body=order, media_type="application/json")
        delivery_ids.append(response.json()["delivery"]["id"])
    riders = await client.get("riders", headers=auth)
    conforms("GET /riders", riders, auth)
    rider_ids = [rider["id"] for rider in riders.json()["riders"]]
    # One delivery per state: picked up (post-pickup answers), matched by an assign, and the
    # errand as create left it.
    sandbox.mark_paid(delivery_ids[0])  # the default business takes the fee before dispatch
    sandbox.advance_status(delivery_ids[0], "picked_up")
    assignment = {"riderId": rider_ids[-1]}
    assigned = await client.post(
        f"deliveries/{delivery_ids[1]}/assign", json=assignment, headers=auth
    )
    assert assigned.status_code == 200, assigned.text
    conforms(
        "POST /deliveries/{deliveryId}/assign",
        assigned,
        auth,
        path_parameters={"deliveryId": delivery_ids[1]},
        body=assignment,
        media_type="application/json",
    )
    return Seeded(orders, delivery_ids, rider_ids)


async def test_the_sandbox_serves_this_document(client: httpx.AsyncClient) -> None:
    response = await client.get("openapi.json")
    assert response.status_code == 200
    assert response.json() == json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("label", sorted(OPERATIONS))
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    # One sandbox per operation on purpose: state built by earlier cases is part of the test.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
async def test_generated_calls_conform(
    label: str,
    data: st.DataObject,
    sandbox: Sandbox,
    client: httpx.AsyncClient,
    clock: FakeClock,
    seeded: Seeded,
) -> None:
    case = data.draw(STRATEGIES[label], label="case")
    aim(case, data, seeded)
    auth = credentials(
        data.draw(st.sampled_from(CREDENTIALS), label="credentials"), sandbox.api_key
    )
    clock.advance(SECONDS_PER_CALL)
    response, headers = await send(client, case, sandbox.base_url, auth)
    case.validate_response(response, checks=CHECKS, headers=headers)


async def test_rate_limited_answer_conforms(sandbox: Sandbox, client: httpx.AsyncClient) -> None:
    auth = credentials("bearer", sandbox.api_key)
    first = await client.get("capabilities", headers=auth)
    limit = first.json()["capabilities"]["rateLimits"]["requestsPerMinute"]
    assert isinstance(limit, int), "the default scenario's plan has a per-key limit"

    responses = [await client.get("capabilities", headers=auth) for _ in range(limit)]

    assert [r.status_code for r in responses[:-1]] == [200] * (limit - 1)
    limited = responses[-1]
    assert limited.status_code == 429
    conforms("GET /capabilities", limited, auth)


async def test_webhooks_conform_to_the_document(
    sandbox: Sandbox, connect: Connect, orders: list[dict[str, Any]], receiver: Receiver
) -> None:
    api = connect(sandbox)
    created = [await api.post("deliveries", json=order) for order in orders[:2]]
    assert [response.status_code for response in created] == [201, 201]
    dispatched, other = (response.json()["delivery"]["id"] for response in created)
    cancelled = await api.post(f"deliveries/{other}/cancel", json={"reason": "Changed my mind"})
    assert cancelled.status_code == 200, cancelled.text
    sandbox.mark_paid(dispatched)  # delivery.updated, then delivery.otp_issued
    for status in ("picked_up", "in_transit", "delivered"):
        sandbox.advance_status(dispatched, status)
    await sandbox.drain_webhooks()

    document = json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))
    seen: set[str] = set()
    for request in receiver.requests:
        event = request.headers["Service-Event"]
        operation = document["webhooks"][event]["post"]
        for parameter in operation["parameters"]:
            value = request.headers[parameter["name"]]
            assert document_validator(document, parameter["schema"]).is_valid(value), parameter
        body_schema = operation["requestBody"]["content"]["application/json"]["schema"]
        body = json.loads(request.content)
        errors = [e.message for e in document_validator(document, body_schema).iter_errors(body)]
        assert errors == [], (event, errors)
        seen.add(event)
    assert seen == set(document["webhooks"])
