"""Every refused ``/api`` request is JSON in the documented envelope with a stable code: each
route without a key, with a wrong key or a wrong method, an unknown path, a body of the wrong
media type or size, a value the bot cannot keep, the budget spent and a fault no route expected;
and the OpenAPI document lists each of those answers for each route."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from bot.agents.api_errors import CODES
from bot.agents.openapi_document import build_document

from .conftest import TINY_KEY, AgentWorld

ROUTES = [
    ("POST", "/api/conversations"),
    ("GET", "/api/conversations/conv_x"),
    ("GET", "/api/conversations/conv_x/transcript"),
    ("POST", "/api/conversations/conv_x/answers"),
    ("POST", "/api/conversations/conv_x/back"),
    ("POST", "/api/conversations/conv_x/edit"),
    ("POST", "/api/conversations/conv_x/cancel"),
    ("POST", "/api/conversations/conv_x/photos"),
    ("GET", "/api/conversations/conv_x/events"),
    ("GET", "/api/customers/c1/deliveries"),
    ("GET", "/api/customers/c1/deliveries/3F2A9C1E"),
    ("POST", "/api/customers/c1/deliveries/3F2A9C1E/cancel"),
    ("GET", "/api/customers/c1/data"),
    ("POST", "/api/customers/c1/forget"),
]


def envelope(response: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body: dict[str, Any] = response.json()
    assert set(body) == {"error", "message"}, body
    assert body["error"] == (code or CODES[status])
    assert body["message"]
    return body


async def test_every_route_refuses_a_missing_or_wrong_key_and_a_wrong_method(
    world: AgentWorld,
) -> None:
    assert world.server is not None
    async with httpx.AsyncClient(base_url=world.server.url) as anyone:
        for method, path in ROUTES:
            missing = envelope(await anyone.request(method, path), 401)
            wrong = await anyone.request(
                method, path, headers={"Authorization": "Bearer " + "k" * 30}
            )
            assert "Bearer" in missing["message"]
            assert envelope(wrong, 401)["message"] != missing["message"]
            other = "DELETE" if method == "GET" else "PUT"
            refused = await world.api.request(other, path)
            envelope(refused, 405)
            assert method in refused.headers["allow"]


async def test_the_router_and_the_bodies_answer_in_the_envelope(world: AgentWorld) -> None:
    envelope(await world.api.get("/api/conversations"), 405)  # the issue's own example
    envelope(await world.api.get("/api/nothing/here"), 404)
    envelope(await world.api.get("/api/conversations/a%0Ab/nothing"), 404)
    envelope(await world.api.get("/api/conversations/conv_nope"), 404)
    started = (await world.api.post("/api/conversations", json={"customer": "e-1"})).json()
    answers = f"/api/conversations/{started['id']}/answers"
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    envelope(await world.api.post(answers, content=b'{"answer": {}}', headers=form), 415)
    photos = f"/api/conversations/{started['id']}/photos"
    envelope(
        await world.api.post(photos, content=b"x", headers={"Content-Type": "text/plain"}), 415
    )
    envelope(await world.api.post(photos, content=b"x"), 422, "photo_refused")
    envelope(await world.api.post(answers, content=b"[1]"), 400)
    envelope(await world.api.post(answers, content=b'{"answer": NaN}'), 422)
    envelope(await world.api.post(answers, content=b" " * (64 * 1024 + 1)), 413)


async def test_the_budget_and_an_unexpected_fault_answer_in_the_envelope(
    world: AgentWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world._client(TINY_KEY) as tiny:
        answers = [await tiny.get("/api/customers/c1/deliveries") for _ in range(3)]
    limited = answers[-1]
    envelope(limited, 429)
    assert int(limited.headers["retry-after"]) >= 1

    assert world.agents is not None

    async def broken(*args: object) -> None:
        raise RuntimeError("a fault no route expected")

    monkeypatch.setattr(world.agents.conversations, "deliveries", broken)
    failed = envelope(await world.api.get("/api/customers/c1/deliveries"), 500)
    assert "fault" not in failed["message"]  # the fault is logged, never shown


def test_the_document_lists_every_error_answer_of_every_route() -> None:
    document = build_document()
    error_ref = {"$ref": "#/components/schemas/Error"}
    limit_ref = {"$ref": "#/components/schemas/CustomerLimit"}
    for method, path in ROUTES:
        template = path.replace("conv_x", "{conversation_id}").replace("c1", "{customer}")
        template = template.replace("3F2A9C1E", "{ref}")
        responses = document["paths"][template][method.lower()]["responses"]
        expected = {"401", "405", "429", "500"}
        if (method == "POST" and not path.endswith(("/back", "/cancel"))) or path.endswith(
            "deliveries/3F2A9C1E/cancel"
        ):
            expected |= {"413", "415"}
        assert expected <= set(responses), (method, path)
        for status in expected:
            schema = responses[status]["content"]["application/json"]["schema"]
            if (
                status == "429" and "oneOf" in schema
            ):  # or a customer's own limit (a start, a confirm)
                assert schema["oneOf"] == [error_ref, limit_ref], (method, path)
                continue
            assert schema == error_ref, (method, path, status)
    codes = document["components"]["schemas"]["Error"]["properties"]["error"]["enum"]
    assert set(CODES.values()) <= set(codes)
    json.dumps(document)  # plain JSON
