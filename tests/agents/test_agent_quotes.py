"""The quote question reaches an agent conversation as an event with an answerable action,
and the agent answers it through the JSON API (``POST .../deliveries/{ref}/quote``) or the MCP
tool ``answer_quote``: once; Cancel cancels at the service, Keep changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.sandbox import default_scenario_data
from conversations.texts.deliveries_texts import short_ref

from .conftest import TO_SUMMARY, AgentWorld, confirm_answer, running_world


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[AgentWorld]:
    """Staff price every order by hand (``awaiting_price`` until they do)."""
    data = default_scenario_data()
    data["capabilities"]["publicRequest"]["requireApproval"] = True
    data["capabilities"]["publicRequest"]["autoDispatch"] = False
    async with running_world(tmp_path, data) as made:
        yield made


async def priced_order(world: AgentWorld, customer: str) -> tuple[str, str]:
    """An order that waited for its fee, then priced at NGN 2,600: (conversation, delivery)."""
    started = await world.start_order(customer)
    for answer in TO_SUMMARY:
        view = (await world.answer(started["id"], answer)).json()
    created = (await world.answer(started["id"], confirm_answer(view))).json()
    assert created["status"] == "created", created
    delivery = created["delivery"]["id"]
    assert world.sandbox.delivery(delivery)["status"] == "awaiting_price"
    await world.settle()
    world.sandbox.set_fee(delivery, 2600)
    await world.settle()
    return started["id"], delivery


async def events(world: AgentWorld, conversation: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (
        await world.api.get(f"/api/conversations/{conversation}/events")
    ).json()["events"]
    return found


async def test_the_question_is_an_event_once_and_the_json_api_answers_it(
    world: AgentWorld,
) -> None:
    conversation, delivery = await priced_order(world, "quote-api")
    ref = short_ref(delivery)
    asked = [event for event in await events(world, conversation) if event.get("question")]
    assert len(asked) == 1
    question = asked[0]["question"]
    assert question == {
        "kind": "quote",
        "text": "Delivery fee: NGN 2,600. Keep the order, or cancel it?",
        "fee": 2600,
        "currency": "NGN",
        "choices": ["keep", "cancel"],
        "answer": {
            "route": f"POST /api/customers/{{customer}}/deliveries/{ref}/quote",
            "tool": "answer_quote",
        },
    }
    assert "2,600" not in (asked[0]["message"] or "")  # the question tells the fee, once

    world.sandbox.set_fee(delivery, 2800)  # repriced: no second question
    await world.settle()
    assert len([e for e in await events(world, conversation) if e.get("question")]) == 1

    route = f"/api/customers/quote-api/deliveries/{ref}/quote"
    bad = await world.api.post(route, json={"choice": "maybe"})
    assert bad.status_code == 400
    cancelled = await world.api.post(route, json={"choice": "cancel"})
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json() == {
        "outcome": "cancelled",
        "text": f"Delivery {ref} is cancelled, as you asked.",
        "delivery_id": delivery,
    }
    assert world.sandbox.delivery(delivery)["status"] == "cancelled"
    again = (await world.api.post(route, json={"choice": "keep"})).json()
    assert again["outcome"] == "already_answered"
    # The choice is in the conversation's events once (the refused second answer is not).
    answered = [e for e in await events(world, conversation) if e["type"] == "quote_answered"]
    assert [(e["choice"], e["outcome"], e["delivery_id"]) for e in answered] == [
        ("cancel", "cancelled", delivery)
    ]
    # Another customer of the channel cannot answer it; another channel's key sees nothing.
    stranger = await world.api.post(
        f"/api/customers/someone-else/deliveries/{ref}/quote", json={"choice": "keep"}
    )
    assert stranger.status_code == 404
    assert world.other is not None
    other = await world.other.post(route, json={"choice": "keep"})
    assert other.status_code == 404
    # Operators are told the choice.
    assert any("declined the fee" in text for _, text in world.channel.sent)


async def test_over_mcp_answer_quote_keeps_the_order(world: AgentWorld) -> None:
    conversation, delivery = await priced_order(world, "quote-mcp")
    ref = short_ref(delivery)
    assert world.agents is not None
    server = build_mcp_server(world.agents.conversations, "shop", quotes=world.agents.quotes)
    async with Client(server) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert "answer_quote" in tools
        kept = await client.call_tool(
            "answer_quote", {"customer": "quote-mcp", "delivery": ref, "choice": "keep"}
        )
        assert not kept.is_error, kept.content
        assert kept.structured_content is not None
        assert kept.structured_content["outcome"] == "kept"
        twice = await client.call_tool(
            "answer_quote", {"customer": "quote-mcp", "delivery": ref, "choice": "cancel"}
        )
        assert twice.is_error
        assert twice.structured_content is not None
        assert twice.structured_content["outcome"] == "already_answered"
        wrong = await client.call_tool(
            "answer_quote", {"customer": "quote-mcp", "delivery": ref, "choice": "maybe"}
        )
        assert wrong.is_error
    assert world.sandbox.delivery(delivery)["status"] == "pending"
    assert any("keeps the order" in text for _, text in world.channel.sent)
    # Keep changes nothing at the service, and is kept in the conversation's events.
    answered = [e for e in await events(world, conversation) if e["type"] == "quote_answered"]
    assert [(e["choice"], e["outcome"]) for e in answered] == [("keep", "kept")]
