"""Every MCP tool says what it is and does: a title, an output schema its results fit, and the
four behaviour hints, each checked against what the tool really does."""

from __future__ import annotations

from typing import Any

import jsonschema
from mcp import Client
from mcp.types import Tool

from bot.agents.mcp_tools import build_mcp_server

from .conftest import TO_SUMMARY, AgentWorld, confirm_answer


def _server(world: AgentWorld) -> Any:
    assert world.agents is not None
    return build_mcp_server(world.agents.conversations, "shop")


async def _tools(client: Client) -> dict[str, Tool]:
    return {tool.name: tool for tool in (await client.list_tools()).tools}


async def test_every_tool_has_a_title_an_output_schema_and_all_four_hints(
    world: AgentWorld,
) -> None:
    async with Client(_server(world)) as client:
        tools = await _tools(client)
    assert len(tools) == 13  # the nine ordering tools, handoff, answer_quote, my_data, forget_me
    for name, tool in tools.items():
        assert tool.title, name
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", name
        hints = tool.annotations
        assert hints is not None, name
        assert None not in (
            hints.read_only_hint,
            hints.destructive_hint,
            hints.idempotent_hint,
            hints.open_world_hint,
        ), name
    hinted = {name: tool.annotations for name, tool in tools.items() if tool.annotations}
    read_only = {name for name, hints in hinted.items() if hints.read_only_hint}
    destructive = {name for name, hints in hinted.items() if hints.destructive_hint}
    open_world = {name for name, hints in hinted.items() if hints.open_world_hint}
    assert read_only == {"my_deliveries", "delivery_status", "delivery_events", "my_data"}
    assert destructive == {
        "answer",
        "cancel_order",
        "cancel_delivery",
        "answer_quote",
        "forget_me",
    }
    # handoff reaches the business's staff, outside the bot; answer_quote may cancel at the
    # service.
    assert open_world == {
        "answer",
        "delivery_status",
        "cancel_delivery",
        "handoff",
        "answer_quote",
    }


async def test_results_fit_the_output_schemas_and_the_hints_hold(world: AgentWorld) -> None:
    created = await world.order("hints-1")
    delivery = created["delivery"]["ref"]
    before = len(world.sandbox.deliveries())
    async with Client(_server(world)) as client:
        tools = await _tools(client)

        async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(name, arguments)
            assert result.structured_content is not None, (name, result.content)
            data: dict[str, Any] = result.structured_content
            jsonschema.validate(data, tools[name].output_schema or {})
            return data

        # Read-only and idempotent: the same answer twice, and the service unchanged.
        for name, arguments in [
            ("my_deliveries", {"customer": "hints-1"}),
            ("delivery_status", {"customer": "hints-1", "delivery": delivery}),
            ("delivery_events", {"conversation_id": created["id"]}),
        ]:
            assert await call(name, arguments) == await call(name, arguments), name
        assert len(world.sandbox.deliveries()) == before

        # start_order, go_back and edit_answer move only the conversation.
        view = await call("start_order", {"customer": "hints-2"})
        for answer in TO_SUMMARY:
            view = await call("answer", {"conversation_id": view["id"], "answer": answer})
        summary = view
        back = await call("go_back", {"conversation_id": view["id"]})
        assert back["prompt"]["step"] != summary["prompt"]["step"]
        assert len(world.sandbox.deliveries()) == before

        # The confirm (an answer) is what creates a delivery at the service: open-world.
        view = await call("answer", {"conversation_id": view["id"], "answer": TO_SUMMARY[-1]})
        confirm = confirm_answer(view)
        view = await call("answer", {"conversation_id": view["id"], "answer": confirm})
        assert view["status"] == "created"
        assert len(world.sandbox.deliveries()) == before + 1

        # Cancelling a delivery twice leaves it cancelled once: idempotent.
        reason = {"customer": "hints-1", "delivery": delivery, "reason": "Ordered by mistake"}
        first = await client.call_tool("cancel_delivery", reason)
        second = await client.call_tool("cancel_delivery", reason)
        assert first.structured_content is not None and second.structured_content is not None
        assert first.structured_content["outcome"] == "cancelled"
        assert second.structured_content["outcome"] != "cancelled"
        assert world.sandbox.delivery(created["delivery"]["id"])["status"] == "cancelled"
