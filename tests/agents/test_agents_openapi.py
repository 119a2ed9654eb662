"""The JSON API against its OpenAPI document (``docs/agents-openapi.json``): the file is the
generated document, and no generated call (schemathesis, bounded, fixed seed) gets a 5xx or an
answer the document does not allow.

Cases aim at a known conversation and a customer with a delivery half of the time (random ids
only ever meet 404s), and carry the channel's key, the other channel's, or none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import APIOperation, Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from bot.agents.openapi_document import document_text

from .conftest import OTHER_KEY, SHOP_KEY, AgentWorld

DOCUMENT_PATH = Path(__file__).resolve().parents[2] / "docs" / "agents-openapi.json"
SCHEMA = schemathesis.openapi.from_path(DOCUMENT_PATH)
Operation = APIOperation[Any, Any, Any, Any]
OPERATIONS: dict[str, Operation] = {
    operation.label: operation for methods in SCHEMA.values() for operation in methods.values()
}
MAX_EXAMPLES = 12  # per operation; 13 operations
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
KEYS = (SHOP_KEY,) * 4 + (OTHER_KEY, None)


def cases(operation: Operation) -> st.SearchStrategy[Case[Any]]:
    return st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )


STRATEGIES = {label: cases(operation) for label, operation in OPERATIONS.items()}


def test_the_document_is_the_generated_one() -> None:
    assert DOCUMENT_PATH.read_text(encoding="utf-8") == document_text()
    assert json.loads(document_text())["openapi"] == "3.1.0"


@pytest.fixture
async def seeded(world: AgentWorld) -> dict[str, str]:
    created = await world.order("cust-1")
    started = await world.start_order("cust-1")
    return {
        "conversation_id": started["id"],
        "done_conversation": created["id"],
        "customer": "cust-1",
        "ref": created["delivery"]["ref"],
    }


@pytest.mark.parametrize("label", sorted(OPERATIONS))
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_generated_calls_conform(
    label: str, data: st.DataObject, world: AgentWorld, seeded: dict[str, str]
) -> None:
    case = data.draw(STRATEGIES[label], label="case")
    for name in ("conversation_id", "customer", "ref"):
        if name in (case.path_parameters or {}) and data.draw(st.booleans(), f"known {name}"):
            case.path_parameters[name] = seeded[name]
    key = data.draw(st.sampled_from(KEYS), label="key")
    wire = case.as_transport_kwargs(base_url="http://agents.test")
    headers = {k: v for k, v in wire["headers"].items() if k.lower() != "authorization"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    body: dict[str, Any] = {}
    if "json" in wire:
        body["json"] = wire["json"]
    elif "data" in wire:
        body["content"] = wire["data"]
    assert world.core is not None
    transport = httpx.ASGITransport(app=world.core.web_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://agents.test") as client:
        response = await client.request(
            wire["method"], wire["url"], headers=headers, params=wire.get("params"), **body
        )
    case.validate_response(response, checks=CHECKS, headers=headers)
