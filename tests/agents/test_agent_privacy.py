"""A customer's "my data" and "forget me" through the agent doors (``/api/customers/{customer}/
data`` and ``/forget``, the MCP tools ``my_data`` and ``forget_me``): a channel reads and erases
only its own customers, a forget needs an explicit confirm, its answer says what was erased,
kept and left until an open delivery ends, and each request is audited as the channel."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.privacy.customer_requests import EXPORT_ACTION, FORGET_ACTION

from .conftest import AgentWorld

# What the customer's order gave (tests/agents/conftest.py's TO_SUMMARY): none of it may reach
# another channel.
THEIRS = ("08031234567", "Bola Ahmed", "Herbert Macaulay", "A pair of shoes")
CONFIRMED = {"confirm": True}


async def _cancelled(world: AgentWorld, customer: str) -> str:
    """An order of ``customer``'s, cancelled (a finished delivery); its id."""
    created = await world.order(customer)
    ref = created["delivery"]["ref"]
    cancel = f"/api/customers/{customer}/deliveries/{ref}/cancel"
    answer = await world.api.post(cancel, json={"reason": "Ordered by mistake"})
    assert answer.json()["outcome"] == "cancelled", answer.text
    return str(created["delivery"]["id"])


async def test_a_channel_reads_and_erases_none_of_another_channels_customer(
    world: AgentWorld,
) -> None:
    assert world.other is not None
    await world.order("cust-1")
    data = "/api/customers/cust-1/data"

    seen = await world.other.get(data)
    erased = await world.other.post("/api/customers/cust-1/forget", json=CONFIRMED)

    assert seen.status_code == erased.status_code == 200
    assert seen.json()["kept"] is False and seen.json()["data"] is None
    body = erased.json()
    assert (body["erased"], body["anonymised_deliveries"], body["pending"]) == ({}, 0, False)
    for answer in (seen, erased):
        assert not any(part in answer.text for part in THEIRS), answer.text
    mine = (await world.api.get(data)).json()
    assert mine["kept"] is True
    assert all(part in json.dumps(mine["data"]) for part in THEIRS)


async def test_export_then_forget_then_export_finds_nothing(world: AgentWorld) -> None:
    assert world.store is not None
    delivery_id = await _cancelled(world, "cust-2")

    before = (await world.api.get("/api/customers/cust-2/data")).json()
    refused = await world.api.post("/api/customers/cust-2/forget", json={})
    forgotten = await world.api.post("/api/customers/cust-2/forget", json=CONFIRMED)
    after = (await world.api.get("/api/customers/cust-2/data")).json()

    assert before["kept"] is True
    assert [d["delivery_id"] for d in before["data"]["deliveries"]] == [delivery_id]
    assert before["data"]["agent_conversations"]
    assert refused.status_code == 400 and "confirm" in refused.json()["message"]
    body = forgotten.json()
    assert forgotten.status_code == 200, forgotten.text
    assert body["anonymised_deliveries"] == 1 and body["open_deliveries"] == []
    assert body["pending"] is False and body["erased"]
    assert body["message"].startswith("Done: what this bot kept about you is erased.")
    assert after == {
        "customer": "cust-2",
        "kept": False,
        "message": "This bot keeps nothing about you.",
        "data": None,
    }
    trail = [(e.actor, e.action) for e in await world.store.audit.since(0)]
    assert trail.count(("agent:shop", EXPORT_ACTION)) == 1  # the last found nobody to export
    assert trail.count(("agent:shop", FORGET_ACTION)) == 1
    audited = json.dumps([repr(e) for e in await world.store.audit.since(0)])
    assert not any(part in audited for part in THEIRS)


async def test_an_open_delivery_leaves_the_forget_pending_and_is_named_in_french(
    world: AgentWorld,
) -> None:
    created = await world.order("cust-3")
    ref = created["delivery"]["ref"]

    answer = await world.api.post(
        "/api/customers/cust-3/forget", json={"confirm": True, "language": "fr"}
    )

    body = answer.json()
    assert (body["open_deliveries"], body["pending"]) == ([ref], True)
    assert body["message"].startswith("C'est fait") and ref in body["message"]
    still = (await world.api.get("/api/customers/cust-3/data")).json()
    assert [d["delivery_id"] for d in still["data"]["deliveries"]] == [created["delivery"]["id"]]


async def test_the_mcp_tools_erase_only_on_an_explicit_confirm(world: AgentWorld) -> None:
    assert world.agents is not None
    await _cancelled(world, "cust-4")
    async with Client(build_mcp_server(world.agents.conversations, "shop")) as client:
        mine = await client.call_tool("my_data", {"customer": "cust-4"})
        vague = await client.call_tool("forget_me", {"customer": "cust-4"})
        still = await client.call_tool("my_data", {"customer": "cust-4"})
        done = await client.call_tool("forget_me", {"customer": "cust-4", "confirm": True})
        again = await client.call_tool("forget_me", {"customer": "cust-4", "confirm": True})
        gone = await client.call_tool("my_data", {"customer": "cust-4"})

    def data(result: Any) -> dict[str, Any]:
        assert result.structured_content is not None, result.content
        found: dict[str, Any] = result.structured_content
        return found

    assert data(mine)["kept"] is True and mine.content[0].text == data(mine)["message"]
    assert vague.is_error and "confirm" in vague.content[0].text
    assert data(still)["data"]["deliveries"] == data(mine)["data"]["deliveries"]
    assert data(done)["anonymised_deliveries"] == 1 and not done.is_error
    assert (data(again)["erased"], data(again)["anonymised_deliveries"]) == ({}, 0)  # idempotent
    assert data(gone)["kept"] is False


async def test_a_fault_on_a_customer_path_is_logged_without_the_customer(
    world: AgentWorld, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert world.agents is not None

    async def broken(*args: object) -> None:
        raise RuntimeError("a fault no route expected")

    monkeypatch.setattr(world.agents.conversations.privacy, "data", broken)
    with caplog.at_level(logging.ERROR, logger="bot.agents.api_errors"):
        failed = await world.api.get("/api/customers/%2B2348031234567/data")

    assert failed.status_code == 500
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.agents.api_errors"]
    assert line == "an /api request failed: GET /api/customers/{customer}/data"
