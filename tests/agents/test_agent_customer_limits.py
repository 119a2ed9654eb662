"""An agent channel's customer over ``[limits]``, through both doors: the JSON API answers 429
``customer_limit`` (``Retry-After`` and the limit and retry time in the body) and the MCP tool
an error result with the same body; nothing is created and no conversation is left behind. A
blocked customer's start is refused (403 ``customer_blocked``) before their conversation is
written."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from mcp import Client

from bot.agents.mcp_tools import build_mcp_server
from bot.chat_ref import UserRef
from bot.config.limits_section import LimitsConfig
from bot.safety.customer_blocking import CustomerBlocking
from bot.safety.customer_names import customer_named
from tests.support.words import SHIPPED, say

from .conftest import CONFIRM, TO_SUMMARY, AgentWorld

HOUR = 3600


async def _restarted_with(world: AgentWorld, limits: LimitsConfig) -> None:
    world.limits = limits
    await world.restart()


async def _to_summary(world: AgentWorld, customer: str) -> str:
    """A returning customer's order to its summary: the sender details they gave before are
    remembered, so the answers to those questions do not fit (422) and are passed over."""
    started = await world.start_order(customer)
    for answer in TO_SUMMARY:
        answered = await world.answer(started["id"], answer)
        assert answered.status_code in (200, 422), answered.text
    assert answered.json()["prompt"]["input"] == "confirm"
    return str(started["id"])


async def _conversations(world: AgentWorld) -> int:
    assert world.store is not None
    row = await world.store._db.fetch_one("SELECT count(*) FROM agent_conversations")
    assert row is not None
    return int(row[0])


def _assert_hour_limit(body: dict[str, Any], kind: str, most: int = 1) -> None:
    assert body["error"] == "customer_limit"
    assert body["limit"] == {"kind": kind, "most": most}
    assert HOUR - 120 < body["retry_after"] <= HOUR
    retry_at = datetime.strptime(body["retry_at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    assert abs(retry_at.timestamp() - datetime.now(UTC).timestamp() - body["retry_after"]) < 5
    assert "the most we take in an hour" in body["message"]


async def test_a_confirm_over_creates_per_hour_is_a_429_with_the_limit(world: AgentWorld) -> None:
    await _restarted_with(world, LimitsConfig(creates_per_hour=1))
    assert (await world.order("cust-1"))["status"] == "created"
    second = await _to_summary(world, "cust-1")

    refused = await world.answer(second, CONFIRM)

    assert refused.status_code == 429
    body = refused.json()
    _assert_hour_limit(body, "creates_per_hour")
    assert refused.headers["retry-after"] == str(body["retry_after"])
    assert world.sandbox.call_counts()["create_delivery"] == 1
    # The summary stays open, as a chat customer's does; another customer still orders.
    still = (await world.api.get(f"/api/conversations/{second}")).json()
    assert still["prompt"]["input"] == "confirm"
    assert (await world.order("cust-2"))["status"] == "created"


async def test_a_limit_that_waits_for_a_delivery_has_no_retry_time(world: AgentWorld) -> None:
    await _restarted_with(world, LimitsConfig(open_deliveries=1))
    await world.order("cust-1")
    second = await _to_summary(world, "cust-1")

    refused = await world.answer(second, CONFIRM)

    assert refused.status_code == 429
    assert "retry-after" not in refused.headers
    body = refused.json()
    assert body["limit"] == {"kind": "open_deliveries", "most": 1}
    assert body["retry_after"] is None and body["retry_at"] is None
    assert body["message"] == say("safety.limit.open_deliveries", limit=1)


async def test_a_start_over_drafts_per_hour_leaves_no_conversation(world: AgentWorld) -> None:
    await _restarted_with(world, LimitsConfig(drafts_per_hour=1))
    await world.start_order("cust-1")
    before = await _conversations(world)

    refused = await world.api.post("/api/conversations", json={"customer": "cust-1"})

    assert refused.status_code == 429
    _assert_hour_limit(refused.json(), "drafts_per_hour")
    assert await _conversations(world) == before
    assert (await world.api.post("/api/conversations", json={"customer": "cust-2"})).is_success


async def test_the_mcp_door_gives_the_same_facts_as_an_error_result(world: AgentWorld) -> None:
    await _restarted_with(world, LimitsConfig(creates_per_hour=1, drafts_per_hour=2))
    assert world.agents is not None
    await world.order("mcp-1")  # the first of the hour, and the first start
    server = build_mcp_server(world.agents.conversations, "shop")
    async with Client(server) as client:
        started = await client.call_tool("start_order", {"customer": "mcp-1"})
        view = started.structured_content
        assert not started.is_error and view is not None
        for answer in TO_SUMMARY:  # a returning customer's: some are passed over (is_error)
            await client.call_tool("answer", {"conversation_id": view["id"], "answer": answer})

        confirmed = await client.call_tool(
            "answer", {"conversation_id": view["id"], "answer": CONFIRM}
        )
        again = await client.call_tool("start_order", {"customer": "mcp-1"})

    assert confirmed.is_error and confirmed.structured_content is not None
    _assert_hour_limit(confirmed.structured_content, "creates_per_hour")
    assert again.is_error and again.structured_content is not None
    _assert_hour_limit(again.structured_content, "drafts_per_hour", most=2)
    assert world.sandbox.call_counts()["create_delivery"] == 1


async def test_a_blocked_customer_s_start_writes_no_conversation(world: AgentWorld) -> None:
    assert world.store is not None and world.agents is not None
    await world.start_order("cust-1")
    customer = await customer_named(SHIPPED, world.store, "shop:cust-1")
    assert isinstance(customer, UserRef)
    await CustomerBlocking(world.store).block(customer, by="shell")
    before = await _conversations(world)

    refused = await world.api.post("/api/conversations", json={"customer": "cust-1"})
    async with Client(build_mcp_server(world.agents.conversations, "shop")) as client:
        by_mcp = await client.call_tool("start_order", {"customer": "cust-1"})

    assert refused.status_code == 403
    assert refused.json() == {"error": "customer_blocked", "message": say("safety.blocked")}
    assert by_mcp.is_error and by_mcp.structured_content == refused.json()
    assert await _conversations(world) == before
