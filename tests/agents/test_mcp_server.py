"""The MCP server driven by the SDK's own client (in-memory): a full order to ``created``, and
an answer outside the open question's schema refused with the question again."""

from __future__ import annotations

import json
from typing import Any

import httpx
import httpx2
import jsonschema
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from bot.agents import AgentChannel
from bot.agents.mcp_command import mcp_http_app
from bot.agents.mcp_tools import build_mcp_server
from bot.config import key_hash

from .conftest import CONFIRM, SHOP_KEY, TO_SUMMARY, AgentWorld, LoopbackServer


def conversations(world: AgentWorld) -> Any:
    assert world.agents is not None
    return world.agents.conversations


async def test_an_mcp_client_orders_a_delivery_to_created(world: AgentWorld) -> None:
    server = build_mcp_server(conversations(world), "shop")
    async with Client(server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert {"start_order", "answer", "go_back", "edit_answer", "cancel_order"} <= set(tools)
        assert "summary back" in (tools["answer"].description or "")
        started = await client.call_tool("start_order", {"customer": "mcp-1"})
        assert not started.is_error
        view = started.structured_content
        assert view is not None
        conversation = view["id"]
        for answer in [*TO_SUMMARY, CONFIRM]:
            # Every answer the test gives fits the schema the server published.
            jsonschema.validate(answer, view["prompt"]["answer_schema"])
            result = await client.call_tool(
                "answer", {"conversation_id": conversation, "answer": answer}
            )
            assert not result.is_error, result.content
            view = result.structured_content
            assert view is not None
        assert view["status"] == "created"
        delivery = view["delivery"]["id"]

        status = await client.call_tool(
            "delivery_status", {"customer": "mcp-1", "delivery": delivery[:8]}
        )
        assert status.structured_content is not None
        assert status.structured_content["outcome"] == "found"
    # The JSON API's other channel cannot see it.
    assert world.other is not None
    assert (await world.other.get(f"/api/conversations/{conversation}")).status_code == 404


async def test_a_value_outside_the_schema_is_refused_with_the_question(world: AgentWorld) -> None:
    server = build_mcp_server(conversations(world), "shop")
    async with Client(server) as client:
        started = await client.call_tool("start_order", {"customer": "mcp-2"})
        view = started.structured_content
        assert view is not None
        invented = {"kind": "choice", "option": "express_drone"}
        schema = view["prompt"]["answer_schema"]
        assert not jsonschema.Draft202012Validator(schema).is_valid(invented)

        refused = await client.call_tool(
            "answer", {"conversation_id": view["id"], "answer": invented}
        )

        assert refused.is_error
        again = refused.structured_content
        assert again is not None
        assert again["prompt"] == view["prompt"]
        assert "not one of the options" in again["refused"]


async def test_another_channels_conversation_is_no_such_conversation(world: AgentWorld) -> None:
    mine = await world.start_order("cust-x")
    server = build_mcp_server(conversations(world), "other")
    async with Client(server) as client:
        result = await client.call_tool(
            "answer", {"conversation_id": mine["id"], "answer": TO_SUMMARY[0]}
        )
        unknown = await client.call_tool(
            "answer", {"conversation_id": "conv_nope", "answer": TO_SUMMARY[0]}
        )
    assert result.is_error and unknown.is_error
    assert result.content == unknown.content


async def test_delivery_events_reach_the_agent_as_a_tool_and_a_resource(world: AgentWorld) -> None:
    created = await world.order("mcp-3")
    await world.settle()
    world.sandbox.mark_paid(created["delivery"]["id"])
    await world.settle()
    code = world.sandbox.otp_code(created["delivery"]["id"])
    assert code is not None
    server = build_mcp_server(conversations(world), "shop")
    async with Client(server) as client:
        result = await client.call_tool("delivery_events", {"conversation_id": created["id"]})
        uri = f"deliverybot://conversations/{created['id']}/events"
        resource = await client.read_resource(uri)
    assert result.structured_content is not None
    events = result.structured_content["events"]
    assert events[0]["type"] == "delivery.created"
    assert any(event["drop_off_code"] for event in events)
    text = resource.contents[0].text  # type: ignore[union-attr]
    assert [e["event_id"] for e in json.loads(text)["events"]] == [e["event_id"] for e in events]
    assert code not in text and code not in json.dumps(events)


async def test_an_order_over_streamable_http_with_the_channels_key(world: AgentWorld) -> None:
    server = build_mcp_server(conversations(world), "shop")
    app = mcp_http_app(server, AgentChannel("shop", key_hash(SHOP_KEY), 60), "127.0.0.1")
    http = LoopbackServer(app, lifespan="on")
    await http.start()
    try:
        headers = {"Authorization": f"Bearer {SHOP_KEY}"}
        async with (
            httpx2.AsyncClient(headers=headers) as keyed,
            Client(streamable_http_client(http.url + "/mcp", http_client=keyed)) as client,
        ):
            started = await client.call_tool("start_order", {"customer": "http-1"})
            view = started.structured_content
            assert view is not None
            for answer in [*TO_SUMMARY, CONFIRM]:
                result = await client.call_tool(
                    "answer", {"conversation_id": view["id"], "answer": answer}
                )
                assert not result.is_error, result.content
                view = result.structured_content
                assert view is not None
        assert view["status"] == "created"
        async with httpx.AsyncClient() as stranger:
            refused = await stranger.post(http.url + "/mcp", json={})
            wrong = await stranger.post(
                http.url + "/mcp", json={}, headers={"Authorization": "Bearer " + "x" * 30}
            )
            keyed = {"Authorization": f"Bearer {SHOP_KEY}"}
            elsewhere = await stranger.post(http.url + "/nothing", json={}, headers=keyed)
            huge = await stranger.post(http.url + "/mcp", content=b" " * 70_000, headers=keyed)
        assert (elsewhere.status_code, elsewhere.json()["error"]) == (404, "not_found")
        assert (huge.status_code, huge.json()["error"]) == (413, "too_large")
        assert refused.status_code == wrong.status_code == 401
        assert refused.headers["content-type"] == "application/json"
        assert refused.json()["error"] == wrong.json()["error"] == "unauthorized"
        assert "Authorization: Bearer" in refused.json()["message"]
    finally:
        await http.stop()
