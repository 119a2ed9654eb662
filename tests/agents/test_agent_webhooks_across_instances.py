"""Agent event webhooks with two instances on one PostgreSQL database: only the instance
holding ``store.leadership`` posts, so each event reaches the channel once and in order, the
events the other instance's relay kept included (found by looking); every body, a plain
message's too, carries its ``event_id``, also sent as the ``Deliverybot-Event`` header.

Real PostgreSQL and the real ``AgentEvents`` channel keeping the events; the channel's
endpoint is an ``httpx.MockTransport`` that records what it is posted.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.agents.agent_channel import AgentEvents, EventBell
from bot.agents.event_webhooks import EVENT_ID_HEADER, EventWebhooks
from bot.jobs import Scheduler
from bot.runtime.channel_starters import SHIPPED_CHANNEL_KINDS
from bot.settings import ChannelHook
from bot.store import Store
from bot.store.pg_local_server import LocalPostgres

HOOK = ChannelHook("https://agent.example/events", "hook-secret-0123456789")


class Endpoint:
    """The channel's webhook: records each post's event id header and body, answers 204."""

    def __init__(self) -> None:
        self.posts: list[tuple[str | None, dict[str, object]]] = []
        self.arrived = asyncio.Condition()

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.posts.append((request.headers.get(EVENT_ID_HEADER), json.loads(request.content)))
        async with self.arrived:
            self.arrived.notify_all()
        return httpx.Response(204)

    async def wait_for(self, count: int) -> None:
        async with asyncio.timeout(5), self.arrived:
            await self.arrived.wait_for(lambda: len(self.posts) >= count)


class Instance:
    """One bot process: its store, the channel its relay keeps agent events through, and its
    webhook poster (counting the passes it runs: only a leader runs one)."""

    def __init__(self, store: Store, endpoint: Endpoint) -> None:
        assert store.leadership is not None
        self.store = store
        bell = EventBell()
        self.routing = AgentEvents(store, bell)
        self.webhooks = EventWebhooks(
            store,
            {"shop": HOOK},
            transport=httpx.MockTransport(endpoint.handle),
            look_seconds=0.01,
        )
        bell.on_ring(self.webhooks.wake)
        self.passes = 0
        self.passed = asyncio.Condition()
        run_once = self.webhooks.run_once

        async def counted() -> float | None:
            due = await run_once()
            self.passes += 1
            async with self.passed:
                self.passed.notify_all()
            return due

        self.webhooks.run_once = counted  # type: ignore[method-assign]
        self.jobs = Scheduler(leadership=store.leadership)
        self.jobs.add(self.webhooks)
        self.jobs.start()

    async def stop(self) -> None:
        await self.jobs.stop()
        await self.webhooks.aclose()
        await self.store.close()


@pytest.fixture
async def instances(
    postgres_server: LocalPostgres, tmp_path: Path
) -> AsyncIterator[tuple[Instance, Instance, Endpoint]]:
    dsn = await postgres_server.create_database("agent_webhooks_across_instances")
    endpoint = Endpoint()
    made: list[Instance] = []
    try:
        for _ in range(2):
            store = await Store.connect_postgres(
                dsn, media_dir=tmp_path / "media", channels=SHIPPED_CHANNEL_KINDS
            )
            if not made:
                assert store.leadership is not None and await store.leadership.leads()
            made.append(Instance(store, endpoint))
        yield made[0], made[1], endpoint
    finally:
        for instance in made:
            await instance.stop()


async def test_each_event_is_posted_once_by_the_leader_with_its_id(
    instances: tuple[Instance, Instance, Endpoint],
) -> None:
    a, b, endpoint = instances
    conversation = await a.store.agents.open("shop", "cust-1", None)
    event = {"event_id": "evt_1", "type": "delivery.status_changed", "status": "matched"}
    await b.routing.send(conversation.chat, json.dumps(event))  # b's relay kept these
    await b.routing.send(conversation.chat, "Your order went through.")
    await a.routing.send(conversation.chat, json.dumps({**event, "event_id": "evt_2"}))

    await endpoint.wait_for(3)
    passes = a.passes
    async with asyncio.timeout(5), a.passed:  # a few more of the leader's looks find no more
        await a.passed.wait_for(lambda: a.passes >= passes + 3)

    ids = [body["event_id"] for _, body in endpoint.posts]
    assert len(endpoint.posts) == 3
    assert ids[0] == "evt_1" and ids[2] == "evt_2"  # in the order they were kept
    assert str(ids[1]).startswith("message:")
    assert endpoint.posts[1][1]["text"] == "Your order went through."
    assert [header for header, _ in endpoint.posts] == ids
    assert b.passes == 0  # woken by its own events, it left them to the leader
