"""Delivery events pushed to an MCP client (the SDK's own, in memory and over streamable HTTP
on loopback): it subscribes to a conversation's events resource, a partner event arrives, the
client is notified, and reading the resource gives that event once. Both ways the SDK
subscribes: ``resources/subscribe`` (protocol 2025-11-25) and ``subscriptions/listen``
(2026-07-28). A rider's position (``rider_position``) is pushed the same way."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Sequence
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.subscriptions import ResourceUpdated
from mcp.types import ResourceUpdatedNotification

from bot.agents import AgentChannel
from bot.agents.mcp_command import mcp_http_app
from bot.agents.mcp_push import EventPush
from bot.agents.mcp_tools import build_mcp_server
from bot.config import key_hash
from bot.jobs import Scheduler
from bot.store.coordination import ALWAYS_LEADS
from bot.store.rider_positions import Fix, Point
from bot.tracking.rider_map import NOTHING_SHOWN

from .conftest import SHOP_KEY, AgentWorld, LoopbackServer
from .test_agent_rider_positions import rider_view


def _push(world: AgentWorld, channel: str = "shop") -> EventPush:
    assert world.agents is not None
    agents = world.agents
    return EventPush(agents.conversations, channel, agents.bell, poll_seconds=60)


def _running(push: EventPush) -> Scheduler:
    """A scheduler running ``push`` alone, as ``deliverybot mcp`` does: ``async with`` it.
    The push is not leader-only: no leadership is asked."""
    scheduler = Scheduler(leadership=ALWAYS_LEADS)
    scheduler.add(push)
    return scheduler


def _uri(conversation: dict[str, Any]) -> str:
    return f"deliverybot://conversations/{conversation['id']}/events"


async def _event_ids(client: Client, uri: str) -> list[str]:
    return [event["event_id"] for event in await _events(client, uri)]


async def _events(client: Client, uri: str) -> list[dict[str, Any]]:
    read = await client.read_resource(uri)
    text = read.contents[0].text  # type: ignore[union-attr]
    events: list[dict[str, Any]] = json.loads(text)["events"]
    return events


async def _next_reading(
    client: Client, uri: str, notified: asyncio.Queue[str], since: Sequence[str] = ()
) -> list[str]:
    """The event types the resource lists once a notification told of new ones (one event
    kept may be told apart from the next, so a notification can come before the last)."""
    async with asyncio.timeout(5):
        while True:
            assert await notified.get() == uri
            types = [event["type"] for event in await _events(client, uri)]
            if len(types) > len(since) and notified.empty():
                return types


async def test_a_subscribed_session_is_notified_and_reads_the_event_once(
    world: AgentWorld,
) -> None:
    created = await world.order("push-1")
    uri = _uri(created)
    push = _push(world)
    notified: asyncio.Queue[str] = asyncio.Queue()

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            notified.put_nowait(message.params.uri)

    server = build_mcp_server(_push_conversations(world), "shop", push)
    async with (
        _running(push),
        Client(server, mode="legacy", message_handler=on_message) as client,
    ):
        assert client.session.server_capabilities is not None
        assert client.session.server_capabilities.resources.subscribe  # type: ignore[union-attr]
        with warnings.catch_warnings():  # the SDK marks resources/subscribe as the old way
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await client.subscribe_resource(uri)
        assert await _event_ids(client, uri) == []

        await world.settle()  # the sandbox's delivery.created reaches the relay
        first = await _next_reading(client, uri, notified)

        world.sandbox.mark_paid(created["delivery"]["id"])
        await world.settle()
        after = await _next_reading(client, uri, notified, since=first)

    assert first[0] == "delivery.created"
    assert after[: len(first)] == first and "delivery.otp_issued" in after[len(first) :]
    assert len(after) == len(set(after))  # each event once (the types here are all distinct)
    assert await push.check() == 0  # nothing new: nobody is told again


async def test_a_listen_stream_gets_the_resource_update(world: AgentWorld) -> None:
    created = await world.order("push-2")
    uri = _uri(created)
    push = _push(world)
    server = build_mcp_server(_push_conversations(world), "shop", push)
    async with _running(push), Client(server) as client:
        async with client.listen(resource_subscriptions=[uri]) as stream:
            await world.settle()
            async with asyncio.timeout(5):
                event = await anext(aiter(stream))
        events = await _events(client, uri)
    assert event == ResourceUpdated(uri=uri)
    assert events[0]["type"] == "delivery.created"
    assert len({e["event_id"] for e in events}) == len(events)


async def test_another_channels_conversation_cannot_be_subscribed(world: AgentWorld) -> None:
    mine = await world.start_order("push-3")
    push = _push(world, "other")
    server = build_mcp_server(_push_conversations(world), "other", push)
    async with Client(server, mode="legacy") as client:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            with pytest.raises(MCPError) as theirs:
                await client.subscribe_resource(_uri(mine))
            with pytest.raises(MCPError) as unknown:
                await client.subscribe_resource(_uri({"id": "conv_nope"}))
    assert str(theirs.value) == str(unknown.value)


def _push_conversations(world: AgentWorld) -> Any:
    assert world.agents is not None
    return world.agents.conversations


async def test_a_subscription_over_streamable_http_is_notified(world: AgentWorld) -> None:
    created = await world.order("push-4")
    uri = _uri(created)
    push = _push(world)
    server = build_mcp_server(_push_conversations(world), "shop", push)
    app = mcp_http_app(server, AgentChannel("shop", key_hash(SHOP_KEY), 60), "127.0.0.1")
    http = LoopbackServer(app, lifespan="on")
    await http.start()
    notified: asyncio.Queue[str] = asyncio.Queue()

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceUpdatedNotification):
            notified.put_nowait(message.params.uri)

    try:
        headers = {"Authorization": f"Bearer {SHOP_KEY}"}
        async with (
            _running(push),
            httpx2.AsyncClient(headers=headers) as keyed,
            Client(
                streamable_http_client(http.url + "/mcp", http_client=keyed),
                mode="legacy",
                message_handler=on_message,
            ) as client,
        ):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                await client.subscribe_resource(uri)
            await world.settle()
            types = await _next_reading(client, uri, notified)
    finally:
        await http.stop()
    assert types[0] == "delivery.created"


async def test_a_rider_position_is_pushed_like_any_event(world: AgentWorld) -> None:
    created = await world.order("push-5")
    await world.settle()
    uri = _uri(created)
    assert world.store is not None and world.core is not None
    link = await world.store.deliveries.get(created["delivery"]["id"])
    assert link is not None
    rider_map = world.core.channels.rider_map(link.chat)
    assert rider_map is not None
    push = _push(world)
    server = build_mcp_server(_push_conversations(world), "shop", push)
    async with _running(push), Client(server) as client:
        async with client.listen(resource_subscriptions=[uri]) as stream:
            fix = Fix(Point(6.5158, 3.3898), 1_800_000_000.0)
            await rider_map.show(link.chat, rider_view(link.delivery_id, fix), NOTHING_SHOWN)
            async with asyncio.timeout(5):
                event = await anext(aiter(stream))
        events = await _events(client, uri)
    assert event == ResourceUpdated(uri=uri)
    assert events[-1]["type"] == "rider_position"
    assert events[-1]["position"]["latitude"] == 6.5158
